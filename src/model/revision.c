/*
 * revision.c - building revisions from manifest entries, and the manifest
 * format itself.
 *
 * Manifest entry keys are short because a snapshot of a 10,000-page space
 * lists 10,000 of them: id, p (parent), o (position), t (type), ti (title),
 * e (emoji), ic (icon), s (slug), d (description), b (body hash), h (href),
 * hi/ni/nr (hidden, noIndex, noRobotsIndex), c/u (created, updated), ly
 * (layout JSON), cm (computed source JSON), go/gp/gh (Git blob oid, path,
 * fingerprint), nt (SUMMARY.md nav title). Files: id, n (name), ct (content type), b (blob hash), z
 * (size), w/h (dimensions), go/gp (Git blob oid, path).
 */
#include "model/revision.h"
#include "util/alloc.h"
#include "util/err.h"

#include <ctype.h>
#include <stddef.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static const char *const type_names[] = { "document", "group", "link", "computed" };

static int cmp_page(const void *a, const void *b)
{
	return strcmp(((const struct rev_page *)a)->id, ((const struct rev_page *)b)->id);
}

static int cmp_file(const void *a, const void *b)
{
	return strcmp(((const struct rev_file *)a)->id, ((const struct rev_file *)b)->id);
}

static bool same_str(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return a == b || strcmp(a, b) == 0;
}

bool rev_page_same(const struct rev_page *a, const struct rev_page *b)
{
	return same_str(a->id, b->id) && same_str(a->parent, b->parent) && a->pos == b->pos &&
	       a->type == b->type && same_str(a->title, b->title) && same_str(a->emoji, b->emoji) &&
	       same_str(a->icon, b->icon) && same_str(a->slug, b->slug) &&
	       same_str(a->description, b->description) && same_str(a->body, b->body) &&
	       same_str(a->href, b->href) && a->hidden == b->hidden && a->no_index == b->no_index &&
	       a->no_robots_index == b->no_robots_index && a->created_at == b->created_at &&
	       a->updated_at == b->updated_at && same_str(a->layout, b->layout) &&
	       same_str(a->computed, b->computed) && same_str(a->git_oid, b->git_oid) &&
	       same_str(a->git_path, b->git_path) && same_str(a->git_hash, b->git_hash) &&
	       same_str(a->nav_title, b->nav_title) && same_str(a->cond, b->cond) &&
	       same_str(a->vars, b->vars) && same_str(a->cover, b->cover);
}

bool rev_file_same(const struct rev_file *a, const struct rev_file *b)
{
	return same_str(a->id, b->id) && same_str(a->name, b->name) && same_str(a->content_type, b->content_type) &&
	       same_str(a->blob, b->blob) && a->size == b->size && a->width == b->width && a->height == b->height &&
	       same_str(a->git_oid, b->git_oid) && same_str(a->git_path, b->git_path);
}

/* ---- building ---- */


/* Children in position order (then id, so equal positions stay stable). */
static int cmp_sibling(const struct rev_page *a, const struct rev_page *b)
{
	if (a->pos != b->pos)
		return a->pos < b->pos ? -1 : 1;
	return strcmp(a->id, b->id);
}

/* Paths: a page's path is its parent's path + '/' + its slug. Computed
 * top-down in depth order so parents are done first. */
static void link_tree(struct revision *rv)
{
	int n = rv->npages, *order;

	rv->first_root = -1;
	if (n == 0)
		return;
	order = xmalloc(sizeof(int) * (size_t)n);
	for (int i = 0; i < n; i++) {
		struct rev_page *p = &rv->pages[i];
		p->parent_idx = p->parent ? revision_page_index(rv, p->parent) : -1;
		p->first_child = p->next_sibling = -1;
		p->depth = -1;
		p->path = NULL;
	}
	/* Break cycles and self-parenting: walk up at most n steps. */
	for (int i = 0; i < n; i++) {
		int at = rv->pages[i].parent_idx, steps = 0;
		while (at >= 0 && steps <= n) {
			if (at == i) {
				rv->pages[i].parent_idx = -1;
				break;
			}
			at = rv->pages[at].parent_idx;
			steps++;
		}
		if (steps > n)
			rv->pages[i].parent_idx = -1;
	}
	for (int i = 0; i < n; i++)
		order[i] = i;
	/* By parent, then position. qsort has no context argument and revisions
	 * are built on many threads at once, so this is a bottom-up merge sort. */
	{
		int *tmp = xmalloc(sizeof(int) * (size_t)n);
		for (int width = 1; width < n; width *= 2) {
			for (int lo = 0; lo < n; lo += 2 * width) {
				int mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
				int a = lo, b = mid, k = lo;
				while (a < mid && b < hi) {
					const struct rev_page *pa = &rv->pages[order[a]], *pb = &rv->pages[order[b]];
					int c = pa->parent_idx != pb->parent_idx ? (pa->parent_idx < pb->parent_idx ? -1 : 1)
										: cmp_sibling(pa, pb);
					tmp[k++] = c <= 0 ? order[a++] : order[b++];
				}
				while (a < mid)
					tmp[k++] = order[a++];
				while (b < hi)
					tmp[k++] = order[b++];
			}
			memcpy(order, tmp, sizeof(int) * (size_t)n);
		}
		free(tmp);
	}
	/* Link siblings back to front so each list comes out in order. */
	for (int k = n - 1; k >= 0; k--) {
		struct rev_page *p = &rv->pages[order[k]];
		int *head = p->parent_idx >= 0 ? &rv->pages[p->parent_idx].first_child : &rv->first_root;
		p->next_sibling = *head;
		*head = order[k];
	}
	free(order);
	/* Depth-first from the roots with an explicit stack: paths and depths. */
	{
		int *stack = xmalloc(sizeof(int) * (size_t)n), top = 0;
		for (int c = rv->first_root; c >= 0; c = rv->pages[c].next_sibling)
			stack[top++] = c;
		while (top > 0) {
			struct rev_page *p = &rv->pages[stack[--top]];
			if (p->parent_idx < 0) {
				p->depth = 0;
				p->path = p->slug;
			} else {
				const struct rev_page *up = &rv->pages[p->parent_idx];
				p->depth = up->depth + 1;
				p->path = arena_printf(&rv->arena, "%s/%s", up->path, p->slug);
			}
			for (int c = p->first_child; c >= 0 && top < n; c = rv->pages[c].next_sibling)
				stack[top++] = c;
		}
		free(stack);
	}
}

struct revision *revision_build(const char *id, const struct revision_new *nr, int64_t created_at)
{
	struct revision *rv = xcalloc(1, sizeof(*rv));

	arena_init(&rv->arena);
	rv->refs = 1;
	rv->id = arena_strdup(&rv->arena, id);
	rv->space_id = arena_strdup(&rv->arena, nr->space_id);
	rv->parent_id = arena_strdup(&rv->arena, nr->parent_id);
	rv->parents = arena_strdup(&rv->arena, nr->parents ? nr->parents : "[]");
	rv->type = arena_strdup(&rv->arena, nr->type ? nr->type : "edits");
	rv->merged_from = arena_strdup(&rv->arena, nr->merged_from);
	rv->created_by = arena_strdup(&rv->arena, nr->created_by);
	rv->git = arena_strdup(&rv->arena, nr->git);
	rv->created_at = created_at;
	rv->npages = nr->npages;
	rv->nfiles = nr->nfiles;
	rv->pages = nr->npages ? arena_alloc(&rv->arena, sizeof(struct rev_page) * (size_t)nr->npages) : NULL;
	rv->files = nr->nfiles ? arena_alloc(&rv->arena, sizeof(struct rev_file) * (size_t)nr->nfiles) : NULL;
	for (int i = 0; i < nr->npages; i++) {
		const struct rev_page *s = &nr->pages[i];
		struct rev_page *d = &rv->pages[i];
		*d = *s;
		d->id = arena_strdup(&rv->arena, s->id);
		d->parent = arena_strdup(&rv->arena, s->parent);
		d->title = arena_strdup(&rv->arena, s->title ? s->title : "");
		d->emoji = arena_strdup(&rv->arena, s->emoji);
		d->icon = arena_strdup(&rv->arena, s->icon);
		d->slug = arena_strdup(&rv->arena, s->slug ? s->slug : "");
		d->description = arena_strdup(&rv->arena, s->description);
		d->body = arena_strdup(&rv->arena, s->body);
		d->href = arena_strdup(&rv->arena, s->href);
		d->layout = arena_strdup(&rv->arena, s->layout);
		d->computed = arena_strdup(&rv->arena, s->computed);
		d->git_oid = arena_strdup(&rv->arena, s->git_oid);
		d->git_path = arena_strdup(&rv->arena, s->git_path);
		d->git_hash = arena_strdup(&rv->arena, s->git_hash);
		d->nav_title = arena_strdup(&rv->arena, s->nav_title);
		d->cond = arena_strdup(&rv->arena, s->cond);
		d->vars = arena_strdup(&rv->arena, s->vars);
		d->cover = arena_strdup(&rv->arena, s->cover);
		rv->nconds += d->cond != NULL;
	}
	for (int i = 0; i < nr->nfiles; i++) {
		const struct rev_file *s = &nr->files[i];
		struct rev_file *d = &rv->files[i];
		*d = *s;
		d->id = arena_strdup(&rv->arena, s->id);
		d->name = arena_strdup(&rv->arena, s->name);
		d->content_type = arena_strdup(&rv->arena, s->content_type);
		d->blob = arena_strdup(&rv->arena, s->blob);
		d->git_oid = arena_strdup(&rv->arena, s->git_oid);
		d->git_path = arena_strdup(&rv->arena, s->git_path);
	}
	if (rv->npages)
		qsort(rv->pages, (size_t)rv->npages, sizeof(struct rev_page), cmp_page);
	if (rv->nfiles)
		qsort(rv->files, (size_t)rv->nfiles, sizeof(struct rev_file), cmp_file);
	link_tree(rv);
	return rv;
}

void revision_free(struct revision *rv)
{
	if (!rv)
		return;
	arena_free(&rv->arena);
	free(rv);
}

/* An arena string: its bytes and NUL, rounded up to the arena's alignment. */
static size_t str_bytes(const char *s)
{
	const size_t align = sizeof(max_align_t);

	return s ? (strlen(s) + 1 + align - 1) / align * align : 0;
}

size_t revision_heap_bytes(const struct revision *rv)
{
	size_t n = sizeof(*rv) + sizeof(struct rev_page) * (size_t)rv->npages +
		   sizeof(struct rev_file) * (size_t)rv->nfiles;

	n += str_bytes(rv->id) + str_bytes(rv->space_id) + str_bytes(rv->parent_id) + str_bytes(rv->parents) +
	     str_bytes(rv->type) + str_bytes(rv->merged_from) + str_bytes(rv->created_by) + str_bytes(rv->git);
	for (int i = 0; i < rv->npages; i++) {
		const struct rev_page *p = &rv->pages[i];
		n += str_bytes(p->id) + str_bytes(p->parent) + str_bytes(p->title) + str_bytes(p->emoji) +
		     str_bytes(p->icon) + str_bytes(p->slug) + str_bytes(p->description) + str_bytes(p->body) +
		     str_bytes(p->href) + str_bytes(p->layout) + str_bytes(p->computed) + str_bytes(p->git_oid) +
		     str_bytes(p->git_path) + str_bytes(p->git_hash) + str_bytes(p->nav_title) +
		     str_bytes(p->cond) + str_bytes(p->vars) + str_bytes(p->cover);
		/* A nested page's path is its own string; a top-level page's is its slug. */
		if (p->path && p->path != p->slug)
			n += str_bytes(p->path);
	}
	for (int i = 0; i < rv->nfiles; i++) {
		const struct rev_file *f = &rv->files[i];
		n += str_bytes(f->id) + str_bytes(f->name) + str_bytes(f->content_type) + str_bytes(f->blob) + str_bytes(f->git_oid) +
		     str_bytes(f->git_path);
	}
	return n;
}

int revision_page_index(const struct revision *rv, const char *id)
{
	int lo = 0, hi = rv->npages - 1;

	if (!id)
		return -1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2, c = strcmp(rv->pages[mid].id, id);
		if (c == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

const struct rev_page *revision_page(const struct revision *rv, const char *id)
{
	int i = revision_page_index(rv, id);

	return i >= 0 ? &rv->pages[i] : NULL;
}

const struct rev_page *revision_page_by_path(const struct revision *rv, const char *path)
{
	size_t len;

	while (*path == '/')
		path++;
	len = strlen(path);
	while (len > 0 && path[len - 1] == '/')
		len--;
	/* Walk down one slug at a time: each step scans one sibling list. */
	int at = rv->first_root, found = -1;
	const char *seg = path, *end = path + len;
	while (seg < end) {
		const char *slash = memchr(seg, '/', (size_t)(end - seg));
		size_t sl = slash ? (size_t)(slash - seg) : (size_t)(end - seg);
		found = -1;
		for (int c = at; c >= 0; c = rv->pages[c].next_sibling) {
			if (strlen(rv->pages[c].slug) == sl && memcmp(rv->pages[c].slug, seg, sl) == 0) {
				found = c;
				break;
			}
		}
		if (found < 0)
			return NULL;
		at = rv->pages[found].first_child;
		seg += sl + (slash ? 1 : 0);
	}
	return found >= 0 ? &rv->pages[found] : NULL;
}

const struct rev_file *revision_file(const struct revision *rv, const char *id)
{
	int lo = 0, hi = rv->nfiles - 1;

	if (!id)
		return NULL;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2, c = strcmp(rv->files[mid].id, id);
		if (c == 0)
			return &rv->files[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

/* ---- manifests ---- */

static void kv_str(struct jw *w, const char *k, const char *v)
{
	if (v) {
		jw_key(w, k);
		jw_str(w, v);
	}
}

static void kv_int(struct jw *w, const char *k, int64_t v)
{
	jw_key(w, k);
	jw_int(w, v);
}

static void page_entry_write(struct jw *w, const struct rev_page *p)
{
	jw_obj_open(w);
	kv_str(w, "id", p->id);
	kv_str(w, "p", p->parent);
	kv_int(w, "o", p->pos);
	kv_str(w, "t", type_names[p->type]);
	kv_str(w, "ti", p->title);
	kv_str(w, "e", p->emoji);
	kv_str(w, "ic", p->icon);
	kv_str(w, "s", p->slug);
	kv_str(w, "d", p->description);
	kv_str(w, "b", p->body);
	kv_str(w, "h", p->href);
	if (p->hidden)
		kv_int(w, "hi", 1);
	if (p->no_index)
		kv_int(w, "ni", 1);
	if (p->no_robots_index)
		kv_int(w, "nr", 1);
	kv_int(w, "c", p->created_at);
	kv_int(w, "u", p->updated_at);
	kv_str(w, "ly", p->layout);
	kv_str(w, "cm", p->computed);
	kv_str(w, "go", p->git_oid);
	kv_str(w, "gp", p->git_path);
	kv_str(w, "gh", p->git_hash);
	kv_str(w, "nt", p->nav_title);
	kv_str(w, "if", p->cond);
	kv_str(w, "vr", p->vars);
	kv_str(w, "cv", p->cover);
	jw_obj_close(w);
}

static void file_entry_write(struct jw *w, const struct rev_file *f)
{
	jw_obj_open(w);
	kv_str(w, "id", f->id);
	kv_str(w, "n", f->name);
	kv_str(w, "ct", f->content_type);
	kv_str(w, "b", f->blob);
	kv_int(w, "z", f->size);
	if (f->width || f->height) {
		kv_int(w, "w", f->width);
		kv_int(w, "h", f->height);
	}
	kv_str(w, "go", f->git_oid);
	kv_str(w, "gp", f->git_path);
	jw_obj_close(w);
}

void revision_snapshot_write(struct jw *w, const struct rev_page *pages, int np, const struct rev_file *files,
			     int nf)
{
	jw_obj_open(w);
	jw_key(w, "pages");
	jw_arr_open(w);
	for (int i = 0; i < np; i++)
		page_entry_write(w, &pages[i]);
	jw_arr_close(w);
	jw_key(w, "files");
	jw_arr_open(w);
	for (int i = 0; i < nf; i++)
		file_entry_write(w, &files[i]);
	jw_arr_close(w);
	jw_obj_close(w);
}

void revision_delta_write(struct jw *w, const struct revision *base, const struct revision *next)
{
	int i, j;

	jw_obj_open(w);
	jw_key(w, "delta");
	jw_bool(w, true);
	/* Both sides are sorted by id: one merge walk finds changes and removals. */
	jw_key(w, "pages");
	jw_arr_open(w);
	for (i = 0, j = 0; j < next->npages; j++) {
		while (i < base->npages && strcmp(base->pages[i].id, next->pages[j].id) < 0)
			i++;
		if (i < base->npages && strcmp(base->pages[i].id, next->pages[j].id) == 0 &&
		    rev_page_same(&base->pages[i], &next->pages[j]))
			continue;
		page_entry_write(w, &next->pages[j]);
	}
	jw_arr_close(w);
	jw_key(w, "del");
	jw_arr_open(w);
	for (i = 0; i < base->npages; i++)
		if (!revision_page(next, base->pages[i].id))
			jw_str(w, base->pages[i].id);
	jw_arr_close(w);
	jw_key(w, "files");
	jw_arr_open(w);
	for (j = 0; j < next->nfiles; j++) {
		const struct rev_file *old = revision_file(base, next->files[j].id);
		if (!old || !rev_file_same(old, &next->files[j]))
			file_entry_write(w, &next->files[j]);
	}
	jw_arr_close(w);
	jw_key(w, "fdel");
	jw_arr_open(w);
	for (i = 0; i < base->nfiles; i++)
		if (!revision_file(next, base->files[i].id))
			jw_str(w, base->files[i].id);
	jw_arr_close(w);
	jw_obj_close(w);
}

static const char *jstr(struct arena *a, json_t *o, const char *k, int *bad)
{
	json_t *v = json_object_get(o, k);

	if (!v || json_is_null(v))
		return NULL;
	if (!json_is_string(v)) {
		*bad = 1;
		return NULL;
	}
	return arena_strndup(a, json_string_value(v), json_string_length(v));
}

static int64_t jint(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_integer(v) ? (int64_t)json_integer_value(v) : 0;
}

static int parse_pages(struct arena *a, json_t *arr, struct rev_page **out, int *n)
{
	size_t cnt = json_array_size(arr), i;
	int bad = 0;

	*out = NULL;
	*n = 0;
	if (!cnt)
		return 0;
	*out = arena_alloc(a, sizeof(struct rev_page) * cnt);
	for (i = 0; i < cnt && !bad; i++) {
		json_t *o = json_array_get(arr, i);
		struct rev_page *p = &(*out)[i];
		const char *t;
		memset(p, 0, sizeof(*p));
		if (!json_is_object(o))
			return err_set(ERR_INTERNAL, "manifest: page entry is not an object");
		p->id = jstr(a, o, "id", &bad);
		p->parent = jstr(a, o, "p", &bad);
		p->pos = jint(o, "o");
		t = jstr(a, o, "t", &bad);
		p->type = !t			      ? PAGE_DOCUMENT
			  : strcmp(t, "group") == 0    ? PAGE_GROUP
			  : strcmp(t, "link") == 0     ? PAGE_LINK
			  : strcmp(t, "computed") == 0 ? PAGE_COMPUTED
						       : PAGE_DOCUMENT;
		p->title = jstr(a, o, "ti", &bad);
		p->emoji = jstr(a, o, "e", &bad);
		p->icon = jstr(a, o, "ic", &bad);
		p->slug = jstr(a, o, "s", &bad);
		p->description = jstr(a, o, "d", &bad);
		p->body = jstr(a, o, "b", &bad);
		p->href = jstr(a, o, "h", &bad);
		p->hidden = jint(o, "hi") != 0;
		p->no_index = jint(o, "ni") != 0;
		p->no_robots_index = jint(o, "nr") != 0;
		p->created_at = jint(o, "c");
		p->updated_at = jint(o, "u");
		p->layout = jstr(a, o, "ly", &bad);
		p->computed = jstr(a, o, "cm", &bad);
		p->git_oid = jstr(a, o, "go", &bad);
		p->git_path = jstr(a, o, "gp", &bad);
		p->git_hash = jstr(a, o, "gh", &bad);
		p->nav_title = jstr(a, o, "nt", &bad);
		p->cond = jstr(a, o, "if", &bad);
		p->vars = jstr(a, o, "vr", &bad);
		p->cover = jstr(a, o, "cv", &bad);
		if (!p->id)
			bad = 1;
	}
	if (bad)
		return err_set(ERR_INTERNAL, "manifest: malformed page entry");
	*n = (int)cnt;
	return 0;
}

static int parse_files(struct arena *a, json_t *arr, struct rev_file **out, int *n)
{
	size_t cnt = json_array_size(arr), i;
	int bad = 0;

	*out = NULL;
	*n = 0;
	if (!cnt)
		return 0;
	*out = arena_alloc(a, sizeof(struct rev_file) * cnt);
	for (i = 0; i < cnt && !bad; i++) {
		json_t *o = json_array_get(arr, i);
		struct rev_file *f = &(*out)[i];
		memset(f, 0, sizeof(*f));
		if (!json_is_object(o))
			return err_set(ERR_INTERNAL, "manifest: file entry is not an object");
		f->id = jstr(a, o, "id", &bad);
		f->name = jstr(a, o, "n", &bad);
		f->content_type = jstr(a, o, "ct", &bad);
		f->blob = jstr(a, o, "b", &bad);
		f->size = jint(o, "z");
		f->width = (int)jint(o, "w");
		f->height = (int)jint(o, "h");
		f->git_oid = jstr(a, o, "go", &bad);
		f->git_path = jstr(a, o, "gp", &bad);
		if (!f->id || !f->blob)
			bad = 1;
	}
	if (bad)
		return err_set(ERR_INTERNAL, "manifest: malformed file entry");
	*n = (int)cnt;
	return 0;
}

static int parse_ids(struct arena *a, json_t *arr, const char ***out, int *n)
{
	size_t cnt = json_array_size(arr);

	*out = NULL;
	*n = 0;
	if (!cnt)
		return 0;
	*out = arena_alloc(a, sizeof(char *) * cnt);
	for (size_t i = 0; i < cnt; i++) {
		json_t *v = json_array_get(arr, i);
		if (!json_is_string(v))
			return err_set(ERR_INTERNAL, "manifest: malformed id list");
		(*out)[i] = arena_strdup(a, json_string_value(v));
	}
	*n = (int)cnt;
	return 0;
}

int manifest_parse(struct arena *a, const char *text, struct manifest *m)
{
	json_error_t je;
	json_t *root = json_loads(text, 0, &je);
	int rc;

	memset(m, 0, sizeof(*m));
	if (!json_is_object(root)) {
		json_decref(root);
		return err_set(ERR_INTERNAL, "manifest: not a JSON object");
	}
	m->is_delta = json_is_true(json_object_get(root, "delta"));
	rc = parse_pages(a, json_object_get(root, "pages"), &m->pages, &m->npages);
	if (!rc)
		rc = parse_files(a, json_object_get(root, "files"), &m->files, &m->nfiles);
	if (!rc)
		rc = parse_ids(a, json_object_get(root, "del"), &m->del_pages, &m->ndel_pages);
	if (!rc)
		rc = parse_ids(a, json_object_get(root, "fdel"), &m->del_files, &m->ndel_files);
	json_decref(root);
	return rc;
}

static bool in_ids(const char *const *ids, int n, const char *id)
{
	for (int i = 0; i < n; i++)
		if (strcmp(ids[i], id) == 0)
			return true;
	return false;
}

int manifest_apply(struct arena *a, const struct revision *base, const struct manifest *m, struct rev_page **pages,
		   int *np, struct rev_file **files, int *nf)
{
	size_t capp = (size_t)base->npages + (size_t)m->npages, capf = (size_t)base->nfiles + (size_t)m->nfiles;
	struct rev_page *P = capp ? arena_alloc(a, sizeof(*P) * capp) : NULL;
	struct rev_file *F = capf ? arena_alloc(a, sizeof(*F) * capf) : NULL;
	int n = 0, k = 0;
	struct revision tmp = { 0 };

	/* The delta's own entries, sorted, to look base entries up in. */
	tmp.pages = m->pages;
	tmp.npages = m->npages;
	tmp.files = m->files;
	tmp.nfiles = m->nfiles;
	if (m->npages)
		qsort(m->pages, (size_t)m->npages, sizeof(struct rev_page), cmp_page);
	if (m->nfiles)
		qsort(m->files, (size_t)m->nfiles, sizeof(struct rev_file), cmp_file);
	for (int i = 0; i < base->npages; i++) {
		const char *id = base->pages[i].id;
		if (revision_page(&tmp, id) || (m->ndel_pages && in_ids(m->del_pages, m->ndel_pages, id)))
			continue;
		P[n++] = base->pages[i];
	}
	for (int i = 0; i < m->npages; i++)
		P[n++] = m->pages[i];
	for (int i = 0; i < base->nfiles; i++) {
		const char *id = base->files[i].id;
		if (revision_file(&tmp, id) || (m->ndel_files && in_ids(m->del_files, m->ndel_files, id)))
			continue;
		F[k++] = base->files[i];
	}
	for (int i = 0; i < m->nfiles; i++)
		F[k++] = m->files[i];
	*pages = P;
	*np = n;
	*files = F;
	*nf = k;
	return 0;
}

char *slugify(struct arena *a, const char *title)
{
	size_t n = strlen(title), k = 0;
	char *out = arena_alloc(a, n + 5);
	int dash = 0;

	for (size_t i = 0; i < n && k < 100; i++) {
		unsigned char c = (unsigned char)title[i];
		if (isalnum(c) && c < 128) {
			if (dash && k > 0)
				out[k++] = '-';
			dash = 0;
			out[k++] = (char)tolower(c);
		} else if (c == '-' || c == '_' || isspace(c) || ispunct(c)) {
			dash = 1;
		}
	}
	if (k == 0)
		memcpy(out, "page", 5);
	else
		out[k] = '\0';
	return out;
}
