/*
 * tree_merge.c - three-way merge of page trees and files (tree_merge.h).
 *
 * The three revisions keep their entries sorted by id, so the union of ids is
 * one merge walk; the checks on the merged tree (parents, cycles, slugs) use
 * a sorted copy. A merge of a 10,000-page space costs a few passes over it.
 * Page bodies come in from the caller and merged ones go out as text: nothing
 * here reads or writes storage.
 */
#include "model/tree_merge.h"
#include "model/merge3.h"
#include "util/alloc.h"
#include "util/err.h"

#include <stdlib.h>
#include <string.h>

struct conflicts {
	struct arena *a;
	struct merge_conflict *items;
	int n, cap;
};

/* The bodies given to the merge, sorted by hash, and the ones it makes. */
struct bodies {
	struct merge_body *in;
	int nin;
	struct merged_body *out;
	int nout, capout;
};

static int conflict(struct conflicts *c, const char *id, const char *reason, bool file)
{
	if (c->n == c->cap) {
		int cap = c->cap ? c->cap * 2 : 8;
		struct merge_conflict *ni = arena_alloc(c->a, sizeof(*ni) * (size_t)cap);
		if (c->n)
			memcpy(ni, c->items, sizeof(*ni) * (size_t)c->n);
		c->items = ni;
		c->cap = cap;
	}
	c->items[c->n++] = (struct merge_conflict){ id, reason, file };
	return 0;
}

static bool eq(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) == 0 : a == b;
}

/* One field, three ways: 0 and *out set, or 1 on a conflict. */
#define MERGE_FIELD(out, b, o, t, same)             \
	do {                                        \
		if (same((o), (b)))                 \
			(out) = (t);                \
		else if (same((t), (b)) || same((o), (t))) \
			(out) = (o);                \
		else                                \
			clash = 1;                  \
	} while (0)
#define SAME_STR(x, y) eq((x), (y))
#define SAME_VAL(x, y) ((x) == (y))

static int cmp_body_hash(const void *x, const void *y)
{
	return strcmp(((const struct merge_body *)x)->hash, ((const struct merge_body *)y)->hash);
}

static int body_text(const struct bodies *bs, const char *hash, const char **md)
{
	struct merge_body key = { .hash = hash }, *hit;

	*md = "";
	if (!hash)
		return 0;
	hit = bs->nin ? bsearch(&key, bs->in, (size_t)bs->nin, sizeof(key), cmp_body_hash) : NULL;
	if (!hit)
		return err_set(ERR_INTERNAL, "tree merge: body %s was not supplied", hash);
	*md = hit->markdown ? hit->markdown : "";
	return 0;
}

static int body_made(struct arena *a, struct bodies *bs, const char *page_id, const char *markdown)
{
	if (bs->nout == bs->capout) {
		int cap = bs->capout ? bs->capout * 2 : 8;
		struct merged_body *nb = arena_alloc(a, sizeof(*nb) * (size_t)cap);
		if (bs->nout)
			memcpy(nb, bs->out, sizeof(*nb) * (size_t)bs->nout);
		bs->out = nb;
		bs->capout = cap;
	}
	bs->out[bs->nout++] = (struct merged_body){ .page_id = page_id, .page = -1, .markdown = markdown };
	return 0;
}

/* Each side changed the body, and differently: its lines must be merged. */
static bool body_merged_by_lines(const struct rev_page *b, const struct rev_page *o, const struct rev_page *t)
{
	return b && o && t && !eq(o->body, b->body) && !eq(t->body, b->body) && !eq(o->body, t->body);
}

static int merge_page(struct arena *a, const struct rev_page *b, const struct rev_page *o, const struct rev_page *t,
		      struct bodies *bs, struct rev_page *out, const char **why)
{
	int clash = 0;

	*out = *o;
	/* Place: parent and position move together. */
	if (eq(o->parent, b->parent) && o->pos == b->pos) {
		out->parent = t->parent;
		out->pos = t->pos;
	} else if (!(eq(t->parent, b->parent) && t->pos == b->pos) && !(eq(o->parent, t->parent) && o->pos == t->pos)) {
		*why = "moved to different places on both sides";
		return 1;
	}
	MERGE_FIELD(out->title, b->title, o->title, t->title, SAME_STR);
	MERGE_FIELD(out->emoji, b->emoji, o->emoji, t->emoji, SAME_STR);
	MERGE_FIELD(out->icon, b->icon, o->icon, t->icon, SAME_STR);
	MERGE_FIELD(out->slug, b->slug, o->slug, t->slug, SAME_STR);
	MERGE_FIELD(out->description, b->description, o->description, t->description, SAME_STR);
	MERGE_FIELD(out->href, b->href, o->href, t->href, SAME_STR);
	MERGE_FIELD(out->computed, b->computed, o->computed, t->computed, SAME_STR);
	MERGE_FIELD(out->type, b->type, o->type, t->type, SAME_VAL);
	MERGE_FIELD(out->hidden, b->hidden, o->hidden, t->hidden, SAME_VAL);
	MERGE_FIELD(out->no_index, b->no_index, o->no_index, t->no_index, SAME_VAL);
	MERGE_FIELD(out->no_robots_index, b->no_robots_index, o->no_robots_index, t->no_robots_index, SAME_VAL);
	if (clash) {
		*why = "the same property was changed differently on both sides";
		return 1;
	}
	out->updated_at = o->updated_at > t->updated_at ? o->updated_at : t->updated_at;
	if (eq(o->body, b->body)) {
		out->body = t->body;
	} else if (eq(t->body, b->body) || eq(o->body, t->body)) {
		out->body = o->body;
	} else {
		const char *mb, *mo, *mt;
		struct merge3_result res;
		int rc;
		if ((rc = body_text(bs, b->body, &mb)) || (rc = body_text(bs, o->body, &mo)) ||
		    (rc = body_text(bs, t->body, &mt)))
			return rc;
		if ((rc = merge3_text(a, mb, strlen(mb), mo, strlen(mo), mt, strlen(mt), &res)) < 0)
			return rc;
		if (res.conflicts > 0) {
			*why = "the same lines of the page were changed on both sides";
			return 1;
		}
		/* The caller stores it (only if the whole merge is clean) and sets the hash. */
		out->body = NULL;
		if ((rc = body_made(a, bs, o->id, res.text)))
			return rc;
	}
	return 0;
}

static const struct rev_page *next_page(const struct revision *rv, int *i, const char *id)
{
	if (*i < rv->npages && strcmp(rv->pages[*i].id, id) == 0)
		return &rv->pages[(*i)++];
	return NULL;
}

static const char *min_id(const char *a, const char *b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	return strcmp(a, b) <= 0 ? a : b;
}

static int cmp_page_id(const void *x, const void *y)
{
	return strcmp(((const struct rev_page *)x)->id, ((const struct rev_page *)y)->id);
}

static const struct rev_page *find_sorted(const struct rev_page *pages, int n, const char *id)
{
	struct rev_page key = { .id = id };

	return id ? bsearch(&key, pages, (size_t)n, sizeof(key), cmp_page_id) : NULL;
}

struct sib_key {
	const struct rev_page *p;
};

static int cmp_sib(const void *x, const void *y)
{
	const struct rev_page *a = ((const struct sib_key *)x)->p, *b = ((const struct sib_key *)y)->p;
	int c = strcmp(a->parent ? a->parent : "", b->parent ? b->parent : "");

	return c ? c : strcmp(a->slug ? a->slug : "", b->slug ? b->slug : "");
}

/* Parents exist, no cycles, no two siblings share a slug. */
static int check_tree(struct tree_work *w, struct conflicts *c)
{
	int rc = 0;

	qsort(w->pages, (size_t)w->n, sizeof(struct rev_page), cmp_page_id);
	for (int i = 0; i < w->n && !rc; i++) {
		const struct rev_page *p = &w->pages[i];
		if (p->parent && !find_sorted(w->pages, w->n, p->parent)) {
			rc = conflict(c, p->id, "its parent page was deleted on the other side", false);
			continue;
		}
		int steps = 0;
		for (const struct rev_page *up = p; up && up->parent && steps <= w->n; steps++) {
			up = find_sorted(w->pages, w->n, up->parent);
			if (up == p) {
				steps = w->n + 1;
				break;
			}
		}
		if (steps > w->n)
			rc = conflict(c, p->id, "the moves on both sides put the page inside itself", false);
	}
	if (rc || w->n < 2)
		return rc;
	struct sib_key *k = xmalloc(sizeof(*k) * (size_t)w->n);
	for (int i = 0; i < w->n; i++)
		k[i].p = &w->pages[i];
	qsort(k, (size_t)w->n, sizeof(*k), cmp_sib);
	for (int i = 1; i < w->n && !rc; i++)
		if (k[i].p->type != PAGE_LINK && cmp_sib(&k[i - 1], &k[i]) == 0)
			rc = conflict(c, k[i].p->id, "a page with the same slug was added next to it on the other side",
				      false);
	free(k);
	return rc;
}

static int cmp_str_ptr(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

int tree_merge_needs(struct arena *a, const struct revision *base, const struct revision *ours,
		     const struct revision *theirs, const char ***hashes, int *n)
{
	int ib = 0, io_ = 0, it = 0, k = 0, cap = 0;
	const char **h = NULL;

	*hashes = NULL;
	*n = 0;
	/* Pages whose body changed on both sides are in base, and in ours and theirs. */
	for (ib = 0; ib < base->npages; ib++) {
		const char *id = base->pages[ib].id;
		while (io_ < ours->npages && strcmp(ours->pages[io_].id, id) < 0)
			io_++;
		while (it < theirs->npages && strcmp(theirs->pages[it].id, id) < 0)
			it++;
		const struct rev_page *b = &base->pages[ib];
		const struct rev_page *o = io_ < ours->npages && strcmp(ours->pages[io_].id, id) == 0 ? &ours->pages[io_] : NULL;
		const struct rev_page *t = it < theirs->npages && strcmp(theirs->pages[it].id, id) == 0 ? &theirs->pages[it] : NULL;
		if (!body_merged_by_lines(b, o, t))
			continue;
		if (k + 3 > cap) {
			int ncap = cap ? cap * 2 : 24;
			const char **nh = arena_alloc(a, sizeof(*nh) * (size_t)ncap);
			if (k)
				memcpy(nh, h, sizeof(*nh) * (size_t)k);
			h = nh;
			cap = ncap;
		}
		if (b->body)
			h[k++] = b->body;
		if (o->body)
			h[k++] = o->body;
		if (t->body)
			h[k++] = t->body;
	}
	if (k > 1) {
		int u = 1;
		qsort(h, (size_t)k, sizeof(*h), cmp_str_ptr);
		for (int i = 1; i < k; i++)
			if (strcmp(h[i], h[u - 1]) != 0)
				h[u++] = h[i];
		k = u;
	}
	*hashes = h;
	*n = k;
	return 0;
}

int tree_merge(struct arena *a, const struct revision *base, const struct revision *ours,
	       const struct revision *theirs, const struct merge_body *bodies, int nbodies, int64_t now,
	       struct tree_merge_result *res)
{
	struct conflicts c = { .a = a };
	struct bodies bs = { 0 };
	struct tree_work *out = &res->work;
	int ib = 0, io_ = 0, it = 0, rc;

	memset(res, 0, sizeof(*res));
	if ((rc = tree_work_init(out, a, NULL, now)))
		return rc;
	if (nbodies > 0) {
		bs.in = arena_alloc(a, sizeof(*bs.in) * (size_t)nbodies);
		memcpy(bs.in, bodies, sizeof(*bs.in) * (size_t)nbodies);
		qsort(bs.in, (size_t)nbodies, sizeof(*bs.in), cmp_body_hash);
		bs.nin = nbodies;
	}
	out->cap = ours->npages + theirs->npages + 1;
	out->pages = arena_alloc(a, sizeof(struct rev_page) * (size_t)out->cap);
	for (;;) {
		const char *id = min_id(ib < base->npages ? base->pages[ib].id : NULL,
					min_id(io_ < ours->npages ? ours->pages[io_].id : NULL,
					       it < theirs->npages ? theirs->pages[it].id : NULL));
		if (!id)
			break;
		const struct rev_page *b = next_page(base, &ib, id), *o = next_page(ours, &io_, id),
				      *t = next_page(theirs, &it, id);
		const struct rev_page *take = NULL;
		const char *why = NULL;
		struct rev_page merged;

		if (o == b || (o && b && rev_page_same(o, b)))
			take = t;
		else if (t == b || (t && b && rev_page_same(t, b)) || (o && t && rev_page_same(o, t)))
			take = o;
		else if (!o || !t)
			why = o ? "changed on this side but deleted on the other" : "deleted on this side but changed on the other";
		else if (!b)
			why = "added on both sides";
		else if ((rc = merge_page(a, b, o, t, &bs, &merged, &why)) < 0)
			return rc;
		else if (rc == 0)
			take = &merged;
		if (why) {
			if ((rc = conflict(&c, id, why, false)))
				return rc;
			continue;
		}
		if (take)
			out->pages[out->n++] = *take;
	}
	/* Files: no fields to merge; a file changed on both sides differently,
	 * or changed on one and deleted on the other, is a conflict. */
	out->capf = ours->nfiles + theirs->nfiles + 1;
	out->files = arena_alloc(a, sizeof(struct rev_file) * (size_t)out->capf);
	ib = io_ = it = 0;
	for (;;) {
		const char *id = min_id(ib < base->nfiles ? base->files[ib].id : NULL,
					min_id(io_ < ours->nfiles ? ours->files[io_].id : NULL,
					       it < theirs->nfiles ? theirs->files[it].id : NULL));
		if (!id)
			break;
		const struct rev_file *b = ib < base->nfiles && strcmp(base->files[ib].id, id) == 0 ? &base->files[ib++] : NULL;
		const struct rev_file *o = io_ < ours->nfiles && strcmp(ours->files[io_].id, id) == 0 ? &ours->files[io_++] : NULL;
		const struct rev_file *t = it < theirs->nfiles && strcmp(theirs->files[it].id, id) == 0 ? &theirs->files[it++] : NULL;
		const struct rev_file *take;
		if (o == b || (o && b && rev_file_same(o, b)))
			take = t;
		else if (t == b || (t && b && rev_file_same(t, b)) || (o && t && rev_file_same(o, t)))
			take = o;
		else {
			if ((rc = conflict(&c, id, "the file was changed differently on both sides", true)))
				return rc;
			continue;
		}
		if (take)
			out->files[out->nf++] = *take;
	}
	if (c.n == 0 && (rc = check_tree(out, &c)))
		return rc;
	res->conflicts = c.items;
	res->nconflicts = c.n;
	if (c.n > 0)
		return 0; /* nothing to store */
	/* check_tree left the pages sorted by id: find each made body's page. */
	for (int i = 0; i < bs.nout; i++) {
		const struct rev_page *p = find_sorted(out->pages, out->n, bs.out[i].page_id);
		if (!p)
			return err_set(ERR_INTERNAL, "tree merge: merged page %s is missing", bs.out[i].page_id);
		bs.out[i].page = (int)(p - out->pages);
	}
	res->bodies = bs.out;
	res->nbodies = bs.nout;
	return 0;
}
