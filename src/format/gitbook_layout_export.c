/*
 * gitbook_layout_export.c - a revision into the files of a GitBook-layout
 * repository (the export half of gitbook_layout.h; the bytes come from
 * gitbook_render.c, the same functions the import fingerprinted).
 *
 * Paths are decided before any byte is rendered, because a page's bytes hold
 * relative links to the others:
 *   1. kept paths: a document keeps its git_path while it is where the last
 *      sync left it (same parent, same slug, still a document); a file keeps
 *      its git_path while it is the same file entry;
 *   2. the readme: the first top-level document gets structure.readme when no
 *      kept page holds it;
 *   3. derived paths, in tree order: the parent's folder + slug + ".md",
 *      or + "/README.md" for a page with children; files under
 *      .gitbook/assets/, identical bytes sharing one path;
 * every collision of a new path (compared ignoring case, for case-insensitive
 * checkouts) is settled by a numbered or hashed suffix, never by "name (1)".
 * Kept paths are compared exactly among themselves: the repository itself
 * held Case.md beside case.md, and a round trip gives its own names back
 * (renaming one to case-2.md would be a change nobody made). Then each
 * page is rendered and compared with its fingerprint, SUMMARY.md likewise, and
 * what the last sync wrote but this one does not is deleted.
 */
#include "format/gitbook_layout.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "format/gitbook_render.h"
#include "format/gitbook_yaml.h"
#include "util/err.h"

#define RESERVED (-2)

struct exp {
	struct arena *a;
	const struct layout_export_in *in;
	const struct revision *rv;
	struct gitbook_yaml cfg;
	const char *prefix, *readme_path, *summary_path;
	const char **page_path; /* per rv->pages index; NULL: not written */
	const char **file_path; /* per rv->files index */
	const char **folder;    /* per rv->pages index: page_folder, once computed */
	const char *root;       /* the root folder: "" or "docs" */
	struct lay_map taken;   /* every path decided, ignoring case */
	struct lay_map kept;    /* kept paths (step 1), exactly */
	int *order;             /* page indices in tree order (pre-order) */
	int norder;
	struct layout_write *writes;
	int nwrites;
};

/* lay_map_put refused: every map is sized for what it holds, so never. */
static int map_full(void)
{
	return err_set(ERR_INTERNAL, "layout export: a map is full");
}

static int hash_failed(void)
{
	return err_set(ERR_INTERNAL, "layout export: SHA-256 failed");
}

static bool same_str(const char *x, const char *y)
{
	return x && y ? strcmp(x, y) == 0 : x == y;
}

static void tree_order(struct exp *e, int i, int depth)
{
	e->order[e->norder++] = i;
	if (depth > 4096)
		return;
	for (int c = e->rv->pages[i].first_child; c >= 0; c = e->rv->pages[c].next_sibling)
		tree_order(e, c, depth + 1);
}

/* A path component made safe for a checkout: no leading '.', no control
 * bytes, no '\' or ':'; empty becomes "page". */
static char *safe_part(struct arena *a, const char *s, size_t n)
{
	char *out = arena_alloc(a, n + 5);
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c == 0x7f || c == '\\' || c == ':' || c == '*' || c == '?' || c == '"' || c == '<' ||
		    c == '>' || c == '|' || c == '/')
			c = '-';
		if (k == 0 && c == '.')
			c = '_';
		out[k++] = (char)c;
	}
	if (!k)
		memcpy(out + k, "page", 4), k += 4;
	out[k] = '\0';
	return out;
}

static int claim(struct exp *e, const char *path, int owner)
{
	int r = lay_map_put(&e->taken, path, owner);

	return r < 0 ? map_full() : r; /* 0 claimed, 1 taken */
}

/* A path the last sync left (step 1): taken when another kept path is the
 * very same, not when it differs only in case (both are in the repository
 * already). Still recorded in `taken`, so that no new path lands on either
 * spelling. 0 claimed, 1 taken, or ERR_INTERNAL. */
static int claim_kept(struct exp *e, const char *path, int owner)
{
	int r = lay_map_put(&e->kept, path, owner);

	if (r != 0)
		return r < 0 ? map_full() : r;
	if (lay_map_get(&e->taken, path) == RESERVED)
		return 1; /* SUMMARY.md or .gitbook.yaml, in any case */
	return lay_map_put(&e->taken, path, owner) < 0 ? map_full() : 0;
}

/* ---------------------------------------------------------------- pages */

static bool page_kept(const struct exp *e, const struct rev_page *p)
{
	const struct revision *synced = e->in->synced;
	const struct rev_page *sp;

	if (!p->git_path || strncmp(p->git_path, e->prefix, strlen(e->prefix)) != 0 ||
	    !lay_ends_with(p->git_path, ".md") || strcasecmp(p->git_path, e->summary_path) == 0)
		return false;
	if (!synced)
		return true;
	sp = revision_page(synced, p->id);
	return sp && sp->type == PAGE_DOCUMENT && same_str(sp->git_path, p->git_path) && same_str(sp->parent, p->parent) &&
	       same_str(sp->slug, p->slug);
}

/* The folder that holds the children of page i: "guide" for a page written
 * as guide/README.md or as guide.md; for a group (or a page not written),
 * its parent's folder and its slug. NULL when pages nest more than 4096 deep. */
static const char *page_folder(struct exp *e, int i);

static const char *parent_folder(struct exp *e, int i)
{
	int p = e->rv->pages[i].parent_idx;

	return p < 0 ? e->root : page_folder(e, p);
}

static const char *page_folder(struct exp *e, int i)
{
	const struct rev_page *p = &e->rv->pages[i];
	const char *path = e->page_path[i], *up;
	char *slug;

	if (e->folder[i])
		return e->folder[i];
	if (path && strcasecmp(strrchr(path, '/') ? strrchr(path, '/') + 1 : path, "README.md") == 0)
		e->folder[i] = lay_dirname(e->a, path);
	else if (path)
		e->folder[i] = arena_strndup(e->a, path, strlen(path) - 3);
	else if (p->depth > 4096 || !(up = parent_folder(e, i)))
		return NULL;
	else {
		slug = safe_part(e->a, p->slug ? p->slug : "", strlen(p->slug ? p->slug : ""));
		e->folder[i] = arena_printf(e->a, "%s%s%s", up, *up ? "/" : "", slug);
	}
	return e->folder[i];
}

static int page_paths(struct exp *e)
{
	const struct revision *rv = e->rv;
	int rc;

	/* 1. kept */
	for (int k = 0; k < e->norder; k++) {
		const struct rev_page *p = &rv->pages[e->order[k]];
		if (p->type != PAGE_DOCUMENT || !page_kept(e, p))
			continue;
		if ((rc = claim_kept(e, p->git_path, e->order[k])) < 0)
			return rc;
		if (rc == 0)
			e->page_path[e->order[k]] = p->git_path;
	}
	/* 2. the readme */
	if (lay_map_get(&e->taken, e->readme_path) < 0)
		for (int i = rv->first_root; i >= 0; i = rv->pages[i].next_sibling) {
			if (rv->pages[i].type != PAGE_DOCUMENT)
				continue;
			if (!e->page_path[i]) {
				if ((rc = claim(e, e->readme_path, i)) < 0)
					return rc;
				e->page_path[i] = e->readme_path;
			}
			break;
		}
	/* 3. derived: each page in its parent's folder, parents first */
	for (int k = 0; k < e->norder; k++) {
		int i = e->order[k];
		const struct rev_page *p = &rv->pages[i];
		bool folder = p->first_child >= 0;
		const char *dir, *slug;
		char *path;

		if (p->type != PAGE_DOCUMENT || e->page_path[i])
			continue;
		if (!(dir = parent_folder(e, i)))
			return err_set(ERR_INTERNAL, "layout export: pages nested more than 4096 deep");
		slug = safe_part(e->a, p->slug ? p->slug : "", strlen(p->slug ? p->slug : ""));
		for (int n = 1;; n++) {
			path = n == 1 ? arena_printf(e->a, "%s%s%s%s", dir, *dir ? "/" : "", slug, folder ? "/README.md" : ".md")
				      : arena_printf(e->a, "%s%s%s-%d%s", dir, *dir ? "/" : "", slug, n,
						     folder ? "/README.md" : ".md");
			if ((rc = claim(e, path, i)) < 0)
				return rc;
			if (rc == 0)
				break;
		}
		e->page_path[i] = path;
	}
	return 0;
}

/* ---------------------------------------------------------------- files */

static int cmp_file(const void *x, const void *y, void *ctx)
{
	const struct rev_file *f = ctx;
	const struct rev_file *a = &f[*(const int *)x], *b = &f[*(const int *)y];
	int c = strcmp(a->name ? a->name : "", b->name ? b->name : "");

	if (!c)
		c = strcmp(a->blob ? a->blob : "", b->blob ? b->blob : "");
	return c ? c : strcmp(a->id, b->id);
}

static bool file_kept(const struct exp *e, const struct rev_file *f)
{
	const struct rev_file *sf;

	if (!f->git_path || strncmp(f->git_path, e->prefix, strlen(e->prefix)) != 0 ||
	    strcasecmp(f->git_path, e->summary_path) == 0 || lay_ends_with(f->git_path, ".md"))
		return false;
	if (!e->in->synced)
		return true;
	sf = revision_file(e->in->synced, f->id);
	return sf && same_str(sf->git_path, f->git_path);
}

static int file_paths(struct exp *e, struct lay_map *by_blob)
{
	const struct revision *rv = e->rv;
	int *idx = arena_alloc(e->a, sizeof(int) * (size_t)(rv->nfiles + 1)), n = 0, rc;

	lay_map_init(by_blob, e->a, (size_t)rv->nfiles, false);
	for (int i = 0; i < rv->nfiles; i++) {
		const struct rev_file *f = &rv->files[i];
		if (!file_kept(e, f)) {
			idx[n++] = i;
			continue;
		}
		if ((rc = claim_kept(e, f->git_path, 100000000 + i)) < 0)
			return rc;
		if (rc == 0) {
			e->file_path[i] = f->git_path;
			if (f->blob && lay_map_put(by_blob, f->blob, i) < 0)
				return map_full();
		} else {
			idx[n++] = i;
		}
	}
	qsort_r(idx, (size_t)n, sizeof(int), cmp_file, rv->files);
	for (int k = 0; k < n; k++) {
		const struct rev_file *f = &rv->files[idx[k]];
		int same = f->blob ? lay_map_get(by_blob, f->blob) : -1;
		const char *name = f->name && *f->name ? f->name : "file", *dot;
		char *safe, *path;

		if (same >= 0) { /* identical bytes: one path */
			e->file_path[idx[k]] = e->file_path[same];
			continue;
		}
		safe = safe_part(e->a, name, strlen(name));
		dot = strrchr(safe, '.');
		if (!dot || dot == safe)
			dot = safe + strlen(safe);
		int stem = (int)(dot - safe);
		for (int t = 0;; t++) {
			if (t == 0)
				path = arena_printf(e->a, "%s.gitbook/assets/%s", e->prefix, safe);
			else if (t == 1)
				path = arena_printf(e->a, "%s.gitbook/assets/%.*s-%.8s%s", e->prefix, stem, safe,
						    f->blob ? f->blob : f->id, dot);
			else
				path = arena_printf(e->a, "%s.gitbook/assets/%.*s-%.8s-%d%s", e->prefix, stem, safe,
						    f->blob ? f->blob : f->id, t, dot);
			if ((rc = claim(e, path, 100000000 + idx[k])) < 0)
				return rc;
			if (rc == 0)
				break;
		}
		e->file_path[idx[k]] = path;
		if (f->blob && lay_map_put(by_blob, f->blob, idx[k]) < 0)
			return map_full();
	}
	return 0;
}

/* --------------------------------------------------------------- writes */

static const char *path_of_page(void *ctx, const char *id)
{
	struct exp *e = ctx;
	int i = revision_page_index(e->rv, id);

	return i >= 0 ? e->page_path[i] : NULL;
}

static const char *path_of_file(void *ctx, const char *id)
{
	struct exp *e = ctx;
	const struct rev_file *f = revision_file(e->rv, id);

	return f ? e->file_path[f - e->rv->files] : NULL;
}

static void add_write(struct exp *e, const char *path, const char *oid, const unsigned char *data, size_t len)
{
	e->writes[e->nwrites++] = (struct layout_write){ path, oid, data, len };
}

static int cmp_write(const void *x, const void *y)
{
	return strcmp(((const struct layout_write *)x)->path, ((const struct layout_write *)y)->path);
}

static int cmp_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

int layout_export(struct arena *a, const struct layout_export_in *in, struct layout_export_out *out)
{
	const struct revision *rv = in->rv, *synced = in->synced;
	struct exp e;
	struct lay_paths paths;
	struct lay_map by_blob, written;
	const unsigned char *data;
	size_t len;
	int rc;

	memset(out, 0, sizeof(*out));
	memset(&e, 0, sizeof(e));
	e.a = a;
	e.in = in;
	e.rv = rv;
	rc = gitbook_yaml_parse(a, in->gitbook_yaml, in->gitbook_yaml ? in->gitbook_yaml_len : 0, &e.cfg);
	if (rc == ERR_INVALID) {
		char *why = arena_strdup(a, err_message());
		return err_set(ERR_INVALID, "'.gitbook.yaml' %s", why);
	}
	if (rc)
		return rc;
	e.prefix = *e.cfg.root ? arena_printf(a, "%s/", e.cfg.root) : "";
	e.readme_path = arena_printf(a, "%s%s", e.prefix, e.cfg.readme);
	e.summary_path = arena_printf(a, "%s%s", e.prefix, e.cfg.summary);
	e.root = e.cfg.root;
	e.page_path = arena_alloc(a, sizeof(char *) * (size_t)(rv->npages + 1));
	e.folder = arena_alloc(a, sizeof(char *) * (size_t)(rv->npages + 1));
	e.file_path = arena_alloc(a, sizeof(char *) * (size_t)(rv->nfiles + 1));
	e.order = arena_alloc(a, sizeof(int) * (size_t)(rv->npages + 1));
	e.writes = arena_alloc(a, sizeof(*e.writes) * (size_t)(rv->npages + rv->nfiles + 2));
	out->page_hashes = arena_alloc(a, sizeof(char *) * (size_t)(rv->npages + 1));
	lay_map_init(&e.taken, a, (size_t)(rv->npages + rv->nfiles + 2), true);
	lay_map_init(&e.kept, a, (size_t)(rv->npages + rv->nfiles + 2), false);
	memset(e.page_path, 0, sizeof(char *) * (size_t)(rv->npages + 1));
	memset(e.folder, 0, sizeof(char *) * (size_t)(rv->npages + 1));
	memset(e.file_path, 0, sizeof(char *) * (size_t)(rv->nfiles + 1));
	memset(out->page_hashes, 0, sizeof(char *) * (size_t)(rv->npages + 1));
	if ((rc = claim(&e, e.summary_path, RESERVED)) < 0 || (rc = claim(&e, ".gitbook.yaml", RESERVED)) < 0)
		return rc;
	for (int i = rv->first_root; i >= 0; i = rv->pages[i].next_sibling)
		tree_order(&e, i, 0);
	if ((rc = page_paths(&e)) || (rc = file_paths(&e, &by_blob)))
		return rc;

	paths = (struct lay_paths){ path_of_page, path_of_file, &e };
	for (int i = 0; i < rv->npages; i++) {
		const struct rev_page *p = &rv->pages[i];
		const char *md = "", *fp;
		if (!e.page_path[i])
			continue;
		if (p->body && in->body && (rc = in->body(in->ctx, p->body, &md)))
			return rc;
		if ((rc = lay_render_page(a, p, md, e.page_path[i], &paths, &data, &len)))
			return rc;
		if (!(fp = layout_page_fingerprint(a, data, len)))
			return hash_failed();
		out->page_hashes[i] = fp;
		/* Unchanged since the last sync: the original blob, byte for byte. */
		if (p->git_oid && p->git_hash && p->git_path && strcmp(fp, p->git_hash) == 0 &&
		    strcmp(e.page_path[i], p->git_path) == 0)
			add_write(&e, e.page_path[i], p->git_oid, NULL, 0);
		else
			add_write(&e, e.page_path[i], NULL, data, len);
	}
	lay_map_init(&written, a, (size_t)(rv->npages + rv->nfiles + 2), false);
	for (int i = 0; i < rv->nfiles; i++) {
		const struct rev_file *f = &rv->files[i];
		const struct rev_file *sf = synced ? revision_file(synced, f->id) : NULL;
		if (!e.file_path[i] || lay_map_get(&written, e.file_path[i]) >= 0)
			continue;
		if (lay_map_put(&written, e.file_path[i], 1) < 0)
			return map_full();
		if (f->git_oid && sf && same_str(sf->git_oid, f->git_oid) && f->blob && same_str(sf->blob, f->blob) &&
		    same_str(f->git_path, e.file_path[i])) {
			add_write(&e, e.file_path[i], f->git_oid, NULL, 0);
			continue;
		}
		data = NULL;
		len = 0;
		if (f->blob && in->blob && (rc = in->blob(in->ctx, f->blob, &data, &len)))
			return rc;
		add_write(&e, e.file_path[i], NULL, data ? data : (const unsigned char *)"", len);
	}
	/* SUMMARY.md: the original when the tree it describes is unchanged (and
	 * none at all when the repository had none and still needs none). */
	if ((rc = lay_render_summary(a, rv, e.summary_path, &paths, &data, &len)))
		return rc;
	if (!(out->summary_hash = layout_page_fingerprint(a, data, len)))
		return hash_failed();
	if (!in->summary_hash || strcmp(in->summary_hash, out->summary_hash) != 0)
		add_write(&e, e.summary_path, NULL, data, len);
	else if (in->summary_oid)
		add_write(&e, e.summary_path, in->summary_oid, NULL, 0);

	/* Deletes: what the last sync wrote that this export does not. */
	for (int i = 0; i < e.nwrites; i++)
		if (lay_map_put(&written, e.writes[i].path, 1) < 0)
			return map_full();
	int maxdel = synced ? synced->npages + synced->nfiles : 0, nd = 0;
	const char **del = arena_alloc(a, sizeof(char *) * (size_t)(maxdel + 1));
	for (int i = 0; synced && i < synced->npages + synced->nfiles; i++) {
		const char *gp = i < synced->npages ? synced->pages[i].git_path : synced->files[i - synced->npages].git_path;
		/* Only under root: with a new root in .gitbook.yaml the old files
		 * (the project's own README.md among them) are left alone. */
		if (!gp || lay_map_get(&written, gp) >= 0 || strcmp(gp, e.summary_path) == 0 ||
		    strcmp(gp, ".gitbook.yaml") == 0 || strncmp(gp, e.prefix, strlen(e.prefix)) != 0)
			continue;
		if (lay_map_put(&written, gp, 2) < 0) /* once */
			return map_full();
		del[nd++] = gp;
	}
	qsort(e.writes, (size_t)e.nwrites, sizeof(*e.writes), cmp_write);
	qsort(del, (size_t)nd, sizeof(*del), cmp_str);
	out->writes = e.writes;
	out->nwrites = e.nwrites;
	out->deletes = del;
	out->ndeletes = nd;
	out->page_paths = e.page_path;
	out->file_paths = e.file_path;
	return 0;
}
