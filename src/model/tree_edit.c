/*
 * tree_edit.c - the working copy of a page tree (see tree_edit.h).
 *
 * Lookups are linear scans: a batch is at most 50 changes, and a scan of
 * 10,000 entries is a few microseconds, far below the cost of writing the
 * revision that follows.
 */
#include "model/tree_edit.h"
#include "util/alloc.h"
#include "util/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void grow_pages(struct tree_work *w, int need)
{
	if (w->n + need <= w->cap)
		return;
	int cap = w->cap ? w->cap : 16;
	while (cap < w->n + need)
		cap *= 2;
	struct rev_page *np = arena_alloc(w->a, sizeof(*np) * (size_t)cap);
	if (w->n)
		memcpy(np, w->pages, sizeof(*np) * (size_t)w->n);
	w->pages = np;
	w->cap = cap;
}

int tree_work_init(struct tree_work *w, struct arena *a, const struct revision *base, int64_t now)
{
	memset(w, 0, sizeof(*w));
	w->a = a;
	w->now = now;
	if (base) {
		grow_pages(w, base->npages + 8);
		if (base->npages)
			memcpy(w->pages, base->pages, sizeof(struct rev_page) * (size_t)base->npages);
		w->n = base->npages;
		w->capf = base->nfiles + 8;
		w->files = arena_alloc(a, sizeof(struct rev_file) * (size_t)w->capf);
		if (base->nfiles)
			memcpy(w->files, base->files, sizeof(struct rev_file) * (size_t)base->nfiles);
		w->nf = base->nfiles;
	}
	return 0;
}

int tree_find(const struct tree_work *w, const char *id)
{
	if (!id)
		return -1;
	for (int i = 0; i < w->n; i++)
		if (strcmp(w->pages[i].id, id) == 0)
			return i;
	return -1;
}

static bool same_parent(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) == 0 : a == b;
}

bool tree_is_descendant(const struct tree_work *w, const char *id, const char *ancestor)
{
	int steps = 0;

	for (const char *at = id; at && steps <= w->n; steps++) {
		if (strcmp(at, ancestor) == 0)
			return true;
		int i = tree_find(w, at);
		at = i >= 0 ? w->pages[i].parent : NULL;
	}
	return false;
}

bool tree_slug_free(const struct tree_work *w, const char *parent, const char *slug, const char *self)
{
	for (int i = 0; i < w->n; i++) {
		const struct rev_page *p = &w->pages[i];
		if (same_parent(p->parent, parent) && p->type != PAGE_LINK && strcmp(p->slug, slug) == 0 &&
		    !(self && strcmp(p->id, self) == 0))
			return false;
	}
	return true;
}

const char *tree_slug_unique(struct tree_work *w, const char *parent, const char *base, const char *self)
{
	if (tree_slug_free(w, parent, base, self))
		return base;
	for (int k = 2; k < 10000; k++) {
		char *s = arena_printf(w->a, "%s-%d", base, k);
		if (tree_slug_free(w, parent, s, self))
			return s;
	}
	return NULL;
}

static int cmp_pos(const void *x, const void *y)
{
	const struct rev_page *a = *(struct rev_page *const *)x, *b = *(struct rev_page *const *)y;

	if (a->pos != b->pos)
		return a->pos < b->pos ? -1 : 1;
	return strcmp(a->id, b->id);
}

int tree_position(struct tree_work *w, const char *parent, int at, const char *self, int64_t *pos)
{
	struct rev_page **sib = xmalloc(sizeof(*sib) * (size_t)(w->n + 1));
	int ns = 0;

	for (int i = 0; i < w->n; i++)
		if (same_parent(w->pages[i].parent, parent) && !(self && strcmp(w->pages[i].id, self) == 0))
			sib[ns++] = &w->pages[i];
	qsort(sib, (size_t)ns, sizeof(*sib), cmp_pos);
	if (at < 0 || at >= ns) {
		*pos = ns ? sib[ns - 1]->pos + TREE_POS_GAP : TREE_POS_GAP;
		free(sib);
		return 0;
	}
	int64_t lo = at > 0 ? sib[at - 1]->pos : sib[at]->pos - 2 * TREE_POS_GAP, hi = sib[at]->pos;
	if (hi - lo < 2) {
		/* The gap closed: renumber the siblings, leaving room at `at`. */
		for (int i = 0; i < ns; i++)
			sib[i]->pos = (int64_t)(i + (i >= at ? 2 : 1)) * TREE_POS_GAP;
		*pos = (int64_t)(at + 1) * TREE_POS_GAP;
	} else {
		*pos = lo + (hi - lo) / 2;
	}
	free(sib);
	return 0;
}

int tree_insert(struct tree_work *w, const struct rev_page *p, int at)
{
	int64_t pos;
	int rc;

	grow_pages(w, 1);
	if ((rc = tree_position(w, p->parent, at, p->id, &pos)))
		return rc;
	w->pages[w->n] = *p;
	w->pages[w->n].pos = pos;
	w->n++;
	return 0;
}

int tree_delete(struct tree_work *w, const char *id)
{
	/* Mark the page, then pages whose parent is marked, until nothing
	 * changes: one pass per level of the subtree. */
	const char **gone = xmalloc(sizeof(char *) * (size_t)(w->n + 1));
	char *mark = xcalloc((size_t)w->n + 1, 1);
	int ng = 0, k = 0, changed = 1;

	gone[ng++] = id;
	while (changed) {
		changed = 0;
		for (int i = 0; i < w->n; i++) {
			if (mark[i])
				continue;
			const struct rev_page *p = &w->pages[i];
			int hit = strcmp(p->id, id) == 0;
			for (int g = 0; !hit && p->parent && g < ng; g++)
				hit = strcmp(p->parent, gone[g]) == 0;
			if (hit) {
				mark[i] = 1;
				if (strcmp(p->id, id) != 0)
					gone[ng++] = p->id;
				changed = 1;
			}
		}
	}
	for (int i = 0; i < w->n; i++)
		if (!mark[i])
			w->pages[k++] = w->pages[i];
	w->n = k;
	free(gone);
	free(mark);
	return 0;
}

int tree_add_file(struct tree_work *w, const struct rev_file *f)
{
	if (w->nf == w->capf) {
		int cap = w->capf ? w->capf * 2 : 8;
		struct rev_file *nf = arena_alloc(w->a, sizeof(*nf) * (size_t)cap);
		if (w->nf)
			memcpy(nf, w->files, sizeof(*nf) * (size_t)w->nf);
		w->files = nf;
		w->capf = cap;
	}
	w->files[w->nf++] = *f;
	return 0;
}
