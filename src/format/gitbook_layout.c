/*
 * gitbook_layout.c - a GitBook-layout repository's files into the pages and
 * files of a revision (the import half of gitbook_layout.h; the export is in
 * gitbook_layout_export.c, the bytes both compare in gitbook_render.c).
 *
 * The import runs in passes, each over data the previous one completed:
 *   1. configuration: .gitbook.yaml, root, the markdown files under it;
 *   2. the tree: SUMMARY.md's items (or the folders), then unlisted files;
 *      every page gets its id here (reused from `previous` by git_path);
 *   3. contents: each page's front matter and title; the files its links and
 *      images reach are registered (assets first, identical bytes once);
 *   4. bodies: links rewritten to /pages/<id> and /files/<id>; slugs;
 *   5. fingerprints: what the export would write for this tree, per page and
 *      for SUMMARY.md, through the same renderer the export uses.
 * Any failure returns before the caller stores anything, so a malformed
 * repository leaves the space unchanged.
 */
#include "format/gitbook_layout.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/gitbook_render.h"
#include "format/gitbook_yaml.h"
#include "format/markdown.h"
#include "format/summary.h"
#include "util/err.h"
#include "util/image.h"
#include "util/text.h"
#include "util/util.h"

#define MAX_PROBLEMS 200

struct mdf {
	const struct git_file *f;
	int page; /* index into pages; -1 until placed */
};

struct imp {
	struct arena *a;
	const struct layout_import_in *in;
	struct layout_import_out *out;
	struct gitbook_yaml cfg;
	const char *prefix;       /* root + "/", or "" */
	const char *readme_path;  /* full paths (relative to the project directory) */
	const char *summary_path;
	struct lay_map repo;      /* every file's path -> index into in->files */
	struct mdf *md;           /* the markdown files that may be pages, by path */
	int nmd;
	struct lay_map md_by_path; /* path -> index into md */
	/* pages being built */
	struct rev_page *pages;
	int np, cap;
	int *page_md;             /* per page: index into md, -1 for groups and links */
	int *page_parent;         /* per page: parent index, -1 at the top level */
	int *page_prev;           /* per page: index into previous->pages, -1 for a new page */
	const char **fallback;    /* per page: title when neither front matter nor heading gives one */
	const char **text;        /* per page: the markdown after its front matter */
	int64_t pos;
	/* files */
	struct rev_file *files;
	int nf;
	struct lay_map file_of_path; /* repository path -> index into files */
	struct lay_map file_of_sha;  /* sha256 of bytes -> index into files */
	/* previous revision, for ids */
	struct lay_map prev_page, prev_group, prev_link, prev_file, prev_blob;
	bool *prev_page_used, *prev_file_used;
	/* reports */
	const char **problems;
	int nproblems;
};

/* lay_map_put refused: every map is sized for what it holds, so never. */
static int map_full(void)
{
	return err_set(ERR_INTERNAL, "layout import: a map is full");
}

static int hash_failed(void)
{
	return err_set(ERR_INTERNAL, "layout import: SHA-256 failed");
}

static void problem(struct imp *m, const char *msg)
{
	if (m->nproblems < MAX_PROBLEMS)
		m->problems[m->nproblems++] = msg;
}

static const char *basename_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static bool is_readme(const char *path)
{
	return strcasecmp(basename_of(path), "README.md") == 0;
}

/* A markdown file that can be a page: under root, ".md", not SUMMARY.md, no
 * part of its path starting with '.' (.gitbook/, .github/, .notes.md). */
static bool page_candidate(const struct imp *m, const char *path)
{
	size_t pl = strlen(m->prefix);

	if (strncmp(path, m->prefix, pl) != 0 || !lay_ends_with(path, ".md") || strcmp(path, m->summary_path) == 0)
		return false;
	for (const char *s = path + pl; *s; s++)
		if (*s == '.' && (s == path + pl || s[-1] == '/'))
			return false;
	return strlen(path + pl) > 3;
}

static int load(struct imp *m, const struct git_file *f, const unsigned char **data, size_t *len)
{
	if (f->data || !m->in->load) {
		*data = f->data ? f->data : (const unsigned char *)"";
		*len = f->data ? f->len : 0;
		return 0;
	}
	return m->in->load(m->in->ctx, f, data, len);
}

static const char *new_id(struct imp *m)
{
	const char *id = m->in->new_id ? m->in->new_id(m->in->ctx) : NULL;

	if (!id || !*id) {
		err_set(ERR_INTERNAL, "layout import: no id for a new entry");
		return NULL;
	}
	return arena_strdup(m->a, id);
}

/* ------------------------------------------------------- 1. configuration */

static int cmp_md(const void *x, const void *y)
{
	return strcmp(((const struct mdf *)x)->f->path, ((const struct mdf *)y)->f->path);
}

static int read_config(struct imp *m)
{
	const struct layout_import_in *in = m->in;
	int gy = -1, rc;

	lay_map_init(&m->repo, m->a, in->nfiles, false);
	for (size_t i = 0; i < in->nfiles; i++) {
		if (!in->files[i].path || !in->files[i].oid)
			return err_set(ERR_INVALID, "a repository file without a path or an oid");
		if (lay_map_put(&m->repo, in->files[i].path, (int)i) < 0)
			return map_full();
		if (strcmp(in->files[i].path, ".gitbook.yaml") == 0)
			gy = (int)i;
	}
	if (gy >= 0) {
		const unsigned char *data;
		size_t len;
		if ((rc = load(m, &in->files[gy], &data, &len)))
			return rc;
		rc = gitbook_yaml_parse(m->a, (const char *)data, len, &m->cfg);
	} else {
		rc = gitbook_yaml_parse(m->a, NULL, 0, &m->cfg);
	}
	if (rc == ERR_INVALID) {
		char *why = arena_strdup(m->a, err_message());
		return err_set(ERR_INVALID, "'.gitbook.yaml' %s", why);
	}
	if (rc)
		return rc;
	m->prefix = *m->cfg.root ? arena_printf(m->a, "%s/", m->cfg.root) : "";
	m->readme_path = arena_printf(m->a, "%s%s", m->prefix, m->cfg.readme);
	m->summary_path = arena_printf(m->a, "%s%s", m->prefix, m->cfg.summary);

	m->md = arena_alloc(m->a, sizeof(*m->md) * (in->nfiles + 1));
	for (size_t i = 0; i < in->nfiles; i++)
		if (page_candidate(m, in->files[i].path))
			m->md[m->nmd++] = (struct mdf){ &in->files[i], -1 };
	if (m->nmd > LAYOUT_MAX_PAGES)
		return err_set(ERR_INVALID, "the repository has %d markdown files; at most %d pages can be imported",
			       m->nmd, LAYOUT_MAX_PAGES);
	qsort(m->md, (size_t)m->nmd, sizeof(*m->md), cmp_md);
	lay_map_init(&m->md_by_path, m->a, (size_t)m->nmd, false);
	for (int i = 0; i < m->nmd; i++)
		if (lay_map_put(&m->md_by_path, m->md[i].f->path, i) < 0)
			return map_full();
	return 0;
}

static int index_previous(struct imp *m)
{
	const struct revision *p = m->in->previous;
	int np = p ? p->npages : 0, nf = p ? p->nfiles : 0;

	lay_map_init(&m->prev_page, m->a, (size_t)np, false);
	lay_map_init(&m->prev_group, m->a, (size_t)np, false);
	lay_map_init(&m->prev_link, m->a, (size_t)np, false);
	lay_map_init(&m->prev_file, m->a, (size_t)nf, false);
	lay_map_init(&m->prev_blob, m->a, (size_t)nf, false);
	m->prev_page_used = arena_alloc(m->a, (size_t)np + 1);
	m->prev_file_used = arena_alloc(m->a, (size_t)nf + 1);
	memset(m->prev_page_used, 0, (size_t)np + 1);
	memset(m->prev_file_used, 0, (size_t)nf + 1);
	for (int i = 0; i < np; i++) {
		const struct rev_page *pg = &p->pages[i];
		int r = 0;
		if (pg->type == PAGE_DOCUMENT && pg->git_path)
			r = lay_map_put(&m->prev_page, pg->git_path, i);
		else if (pg->type == PAGE_GROUP && !pg->parent && pg->title)
			r = lay_map_put(&m->prev_group, pg->title, i);
		else if (pg->type == PAGE_LINK && pg->href)
			r = lay_map_put(&m->prev_link, pg->href, i);
		if (r < 0)
			return map_full();
	}
	for (int i = 0; i < nf; i++) {
		const struct rev_file *f = &p->files[i];
		if ((f->git_path && lay_map_put(&m->prev_file, f->git_path, i) < 0) ||
		    (f->blob && lay_map_put(&m->prev_blob, f->blob, i) < 0))
			return map_full();
	}
	return 0;
}

/* ---------------------------------------------------------------- 2. tree */

/* A page of type t under parent (-1: top level); mdi: its markdown file. */
static int add_page(struct imp *m, enum page_type t, int parent, const char *title, int mdi, const char *href,
		    int *out)
{
	const struct revision *prev = m->in->previous;
	struct rev_page *p;
	int pi = -1;

	if (m->np >= LAYOUT_MAX_PAGES)
		return err_set(ERR_INVALID, "more than %d pages: the import is limited to %d", LAYOUT_MAX_PAGES,
			       LAYOUT_MAX_PAGES);
	if (m->np >= m->cap)
		return err_set(ERR_INTERNAL, "layout import: page capacity");
	p = &m->pages[m->np];
	memset(p, 0, sizeof(*p));
	if (t == PAGE_DOCUMENT)
		pi = lay_map_get(&m->prev_page, m->md[mdi].f->path);
	else if (t == PAGE_GROUP && parent < 0)
		pi = lay_map_get(&m->prev_group, title);
	else if (t == PAGE_LINK)
		pi = lay_map_get(&m->prev_link, href);
	if (pi >= 0 && !m->prev_page_used[pi]) {
		const struct rev_page *q = &prev->pages[pi];
		m->prev_page_used[pi] = true;
		p->id = q->id;
		p->created_at = q->created_at;
		/* Unchanged since the last sync: keep its edit time. */
		bool same = t != PAGE_DOCUMENT || (q->git_oid && strcmp(q->git_oid, m->md[mdi].f->oid) == 0);
		p->updated_at = same ? q->updated_at : m->in->now;
	} else {
		if (!(p->id = new_id(m)))
			return ERR_INTERNAL;
		p->created_at = p->updated_at = m->in->now;
	}
	p->type = t;
	p->parent = parent >= 0 ? m->pages[parent].id : NULL;
	p->pos = (m->pos += 1024);
	p->title = title;
	p->href = href;
	if (mdi >= 0) {
		p->git_oid = m->md[mdi].f->oid;
		p->git_path = m->md[mdi].f->path;
		m->md[mdi].page = m->np;
	}
	m->page_md[m->np] = mdi;
	m->page_parent[m->np] = parent;
	m->page_prev[m->np] = pi >= 0 && strcmp(prev->pages[pi].id, p->id) == 0 ? pi : -1;
	m->fallback[m->np] = title;
	*out = m->np++;
	return 0;
}

/* A readable title from a file or folder name: "getting-started.md" ->
 * "Getting started". */
static const char *name_title(struct arena *a, const char *path)
{
	const char *b = basename_of(path);
	size_t n = strlen(b);
	char *t;

	if (lay_ends_with(b, ".md"))
		n -= 3;
	t = arena_strndup(a, b, n);
	for (char *s = t; *s; s++)
		if (*s == '-' || *s == '_')
			*s = ' ';
	if (*t >= 'a' && *t <= 'z')
		*t = (char)(*t - 'a' + 'A');
	return *t ? t : "Untitled";
}

static int place_items(struct imp *m, const struct summary_item *items, size_t n, int parent, int depth)
{
	int rc, pi;

	for (size_t i = 0; i < n; i++) {
		const struct summary_item *it = &items[i];
		const char *title = it->title && *it->title ? it->title : it->nav_title;
		int under = parent;

		if (it->kind == SUMMARY_GROUP && parent < 0) {
			if ((rc = add_page(m, PAGE_GROUP, -1, title && *title ? title : "Untitled", -1, NULL, &pi)))
				return rc;
			under = pi;
		} else if (it->kind == SUMMARY_PAGE) {
			char *full = arena_printf(m->a, "%s%s", m->prefix, it->path);
			int mdi = lay_map_get(&m->md_by_path, full);
			if (mdi < 0 || m->md[mdi].page >= 0) {
				/* Its children still have a place: under this item's parent. */
				problem(m, arena_printf(m->a, "'%s' line %d: '%s' %s; skipped", m->summary_path, it->line, full,
							mdi < 0 ? "is not a markdown file of the repository"
								: "is listed more than once"));
			} else {
				if ((rc = add_page(m, PAGE_DOCUMENT, parent, title && *title ? title : NULL, mdi, NULL, &pi)))
					return rc;
				m->pages[pi].nav_title = it->nav_title; /* written back by the summary */
				under = pi;
			}
		} else if (it->kind == SUMMARY_LINK && it->url && *it->url) {
			const char *t = title && *title ? title : it->url;
			if ((rc = add_page(m, PAGE_LINK, parent, t, -1, it->url, &pi)))
				return rc;
			m->pages[pi].nav_title = it->nav_title;
		}
		if (depth < SUMMARY_MAX_DEPTH + 2 && (rc = place_items(m, it->children, it->n_children, under, depth + 1)))
			return rc;
	}
	return 0;
}

/* Whether the summary lists path (to know if the readme must be added first). */
static bool summary_lists(const struct imp *m, const struct summary_item *items, size_t n, const char *rel, int depth)
{
	for (size_t i = 0; i < n && depth < SUMMARY_MAX_DEPTH + 2; i++) {
		if (items[i].kind == SUMMARY_PAGE && items[i].path && strcmp(items[i].path, rel) == 0)
			return true;
		if (summary_lists(m, items[i].children, items[i].n_children, rel, depth + 1))
			return true;
	}
	return false;
}

/* Pages of the markdown files md[lo..hi), all under folder dir + "/" (dir ""
 * with the prefix ""), by path: files are pages; a folder with a README.md is
 * that page with the folder's files as children; one without is a group at
 * the top level and its files' page otherwise (groups only live there). */
static int place_folder(struct imp *m, const char *dir, int lo, int hi, int parent)
{
	size_t dl = strlen(dir);
	int rc, pi;

	for (int i = lo; i < hi;) {
		const char *path = m->md[i].f->path, *rest = path + dl, *slash;
		if (m->md[i].page >= 0) { /* the folder's own README, or the root readme */
			i++;
			continue;
		}
		slash = strchr(rest, '/');
		if (!slash) {
			if ((rc = add_page(m, PAGE_DOCUMENT, parent, NULL, i, NULL, &pi)))
				return rc;
			m->fallback[pi] = name_title(m->a, path);
			i++;
			continue;
		}
		/* A folder: the files md[i..j) start with the same "name/". */
		size_t fl = (size_t)(slash - path) + 1;
		int j = i + 1, readme = -1, under = parent;
		while (j < hi && strncmp(m->md[j].f->path, path, fl) == 0)
			j++;
		char *sub = arena_strndup(m->a, path, fl);
		for (int k = i; k < j; k++)
			if (!strchr(m->md[k].f->path + fl, '/') && is_readme(m->md[k].f->path) && m->md[k].page < 0) {
				readme = k;
				break;
			}
		char *folder = arena_strndup(m->a, rest, (size_t)(slash - rest));
		if (readme >= 0) {
			if ((rc = add_page(m, PAGE_DOCUMENT, parent, NULL, readme, NULL, &pi)))
				return rc;
			m->fallback[pi] = folder;
			under = pi;
		} else if (parent < 0) {
			if ((rc = add_page(m, PAGE_GROUP, -1, folder, -1, NULL, &pi)))
				return rc;
			under = pi;
		}
		if ((rc = place_folder(m, sub, i, j, under)))
			return rc;
		i = j;
	}
	return 0;
}

/* The page of the nearest folder above path with a README.md page (not the
 * root's), -1 for none. */
static int folder_page(struct imp *m, const char *path)
{
	char *dir = lay_dirname(m->a, path);
	size_t pl = strlen(m->prefix);

	if (is_readme(path) && *dir)
		dir = lay_dirname(m->a, dir);
	while (strlen(dir) + 1 > pl && *dir) {
		char *readme = arena_printf(m->a, "%s/README.md", dir);
		int mdi = lay_map_get(&m->md_by_path, readme);
		if (mdi >= 0 && m->md[mdi].page >= 0 && m->pages[m->md[mdi].page].type == PAGE_DOCUMENT &&
		    strcmp(readme, m->readme_path) != 0)
			return m->md[mdi].page;
		dir = lay_dirname(m->a, dir);
	}
	return -1;
}

/* Top-level pages before groups, each in its order: SUMMARY.md cannot say
 * otherwise (a list after a "## Group" heading belongs to that group), so
 * this is the order every export and re-import keeps. */
static int groups_last(struct imp *m)
{
	int64_t pos = 0;

	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < m->np; i++)
			if (m->page_parent[i] < 0 && (m->pages[i].type == PAGE_GROUP) == (pass == 1))
				m->pages[i].pos = (pos += 1024);
	return 0;
}

static int build_tree(struct imp *m)
{
	const struct layout_import_in *in = m->in;
	int si = lay_map_get(&m->repo, m->summary_path), rmd = lay_map_get(&m->md_by_path, m->readme_path), rc, pi;
	struct summary sum = { 0 };
	size_t nitems = 0;

	if (si >= 0) {
		const unsigned char *data;
		size_t len;
		if ((rc = load(m, &in->files[si], &data, &len)))
			return rc;
		char *base = lay_dirname(m->a, m->cfg.summary);
		rc = summary_parse(m->a, (const char *)data, len, base, &sum);
		if (rc == ERR_INVALID) {
			char *why = arena_strdup(m->a, err_message());
			return err_set(ERR_INVALID, "'%s' %s", m->summary_path, why);
		}
		if (rc)
			return rc;
		m->out->summary_oid = in->files[si].oid;
		for (size_t i = 0; i < sum.n_problems; i++)
			problem(m, arena_printf(m->a, "'%s' line %d: %s", m->summary_path, sum.problems[i].line,
						sum.problems[i].message));
		nitems = SUMMARY_MAX_ITEMS;
	}
	m->cap = 2 * m->nmd + (int)nitems + 16; /* folders may add a group each */
	m->pages = arena_alloc(m->a, sizeof(*m->pages) * (size_t)m->cap);
	m->page_md = arena_alloc(m->a, sizeof(int) * (size_t)m->cap);
	m->page_parent = arena_alloc(m->a, sizeof(int) * (size_t)m->cap);
	m->page_prev = arena_alloc(m->a, sizeof(int) * (size_t)m->cap);
	m->fallback = arena_alloc(m->a, sizeof(char *) * (size_t)m->cap);
	m->text = arena_alloc(m->a, sizeof(char *) * (size_t)m->cap);

	/* The readme is the first page unless SUMMARY.md places it. */
	if (rmd >= 0 && !(si >= 0 && summary_lists(m, sum.items, sum.n_items, m->cfg.readme, 0))) {
		if ((rc = add_page(m, PAGE_DOCUMENT, -1, NULL, rmd, NULL, &pi)))
			return rc;
		m->fallback[pi] = "Introduction";
	}
	if (si < 0)
		return (rc = place_folder(m, m->prefix, 0, m->nmd, -1)) ? rc : groups_last(m);

	if ((rc = place_items(m, sum.items, sum.n_items, -1, 0)))
		return rc;
	/* Markdown files SUMMARY.md does not list: imported, after the listed
	 * ones, in path order, each under its folder's README page when there
	 * is one; reported. */
	int first = m->np, nunlisted = 0;
	for (int i = 0; i < m->nmd; i++)
		if (m->md[i].page < 0)
			nunlisted++;
	m->out->unlisted = arena_alloc(m->a, sizeof(char *) * (size_t)(nunlisted + 1));
	for (int i = 0; i < m->nmd; i++) {
		if (m->md[i].page >= 0)
			continue;
		if ((rc = add_page(m, PAGE_DOCUMENT, -1, NULL, i, NULL, &pi)))
			return rc;
		m->fallback[pi] = name_title(m->a, m->md[i].f->path);
		m->out->unlisted[m->out->nunlisted++] = m->md[i].f->path;
	}
	for (int p = first; p < m->np; p++) {
		int parent = folder_page(m, m->pages[p].git_path);
		if (parent >= 0 && parent != p) {
			m->page_parent[p] = parent;
			m->pages[p].parent = m->pages[parent].id;
		}
	}
	return groups_last(m);
}

/* ------------------------------------------------------------- 3. files */

static const char *type_by_ext(const char *path)
{
	static const struct {
		const char *ext, *type;
	} types[] = {
		{ ".png", "image/png" },        { ".jpg", "image/jpeg" },      { ".jpeg", "image/jpeg" },
		{ ".gif", "image/gif" },        { ".svg", "image/svg+xml" },   { ".webp", "image/webp" },
		{ ".pdf", "application/pdf" },  { ".json", "application/json" }, { ".txt", "text/plain" },
		{ ".csv", "text/csv" },         { ".yaml", "application/yaml" }, { ".yml", "application/yaml" },
		{ ".zip", "application/zip" },  { ".mp4", "video/mp4" },       { ".mp3", "audio/mpeg" },
		{ ".webm", "video/webm" },      { ".ico", "image/x-icon" },
	};

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (lay_ends_with(path, types[i].ext))
			return types[i].type;
	return "application/octet-stream";
}

/* The file of the space for repository file in->files[fi] (registered on first
 * use; identical bytes are one file, named after the first path seen). */
static int register_file(struct imp *m, int fi, int *out)
{
	const struct git_file *g = &m->in->files[fi];
	const unsigned char *data;
	size_t len;
	char sha[65];
	int rc, k;

	if ((k = lay_map_get(&m->file_of_path, g->path)) >= 0) {
		*out = k;
		return 0;
	}
	if ((rc = load(m, g, &data, &len)))
		return rc;
	if (len > LAYOUT_MAX_FILE_BYTES)
		return err_set(ERR_INVALID, "'%s' is larger than %d bytes", g->path, LAYOUT_MAX_FILE_BYTES);
	if (sha256_hex(sha, data, len))
		return hash_failed();
	if ((k = lay_map_get(&m->file_of_sha, sha)) < 0) {
		const struct revision *prev = m->in->previous;
		struct rev_file *f = &m->files[m->nf];
		char *shad = arena_strdup(m->a, sha);
		int pi = lay_map_get(&m->prev_file, g->path);

		if (m->nf >= LAYOUT_MAX_FILES)
			return err_set(ERR_INVALID, "more than %d files: the import is limited to %d", LAYOUT_MAX_FILES,
				       LAYOUT_MAX_FILES);
		memset(f, 0, sizeof(*f));
		if (pi < 0 || m->prev_file_used[pi])
			pi = lay_map_get(&m->prev_blob, sha);
		if (pi >= 0 && !m->prev_file_used[pi]) {
			m->prev_file_used[pi] = true;
			f->id = prev->files[pi].id;
		} else if (!(f->id = new_id(m))) {
			return ERR_INTERNAL;
		}
		f->name = basename_of(g->path);
		f->size = (int64_t)len;
		if (image_dimensions(data, len, &f->width, &f->height, &f->content_type)) {
			err_clear();
			f->width = f->height = 0;
			f->content_type = type_by_ext(g->path);
		}
		f->git_oid = g->oid;
		f->git_path = g->path;
		if (!g->data && len) {
			/* Bytes from in->load live only until the import returns;
			 * the caller stores them after: keep a copy. */
			unsigned char *copy = arena_alloc(m->a, len);
			memcpy(copy, data, len);
			data = copy;
		}
		k = m->nf++;
		m->out->blobs[m->out->nblobs++] = (struct layout_blob){ k, data, len };
		if (lay_map_put(&m->file_of_sha, shad, k) < 0)
			return map_full();
	}
	if (lay_map_put(&m->file_of_path, g->path, k) < 0)
		return map_full();
	*out = k;
	return 0;
}

/* What a link of the page at self_dir points at: a page (*page set) or a
 * repository file under root (*file set), or nothing (both -1). */
struct target {
	int page, file;
	const char *anchor; /* "#..." or NULL */
};

static bool has_scheme(const char *t)
{
	const char *s = t;

	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
		return false;
	while ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '+' ||
	       *s == '-' || *s == '.')
		s++;
	return *s == ':';
}

static int resolve(struct imp *m, const char *self_dir, const char *target, struct target *t)
{
	const char *end;
	char *p, *full;
	size_t k;

	t->page = t->file = -1;
	t->anchor = NULL;
	if (!target || !*target || *target == '#' || has_scheme(target) || strncmp(target, "//", 2) == 0)
		return 0;
	end = target + strcspn(target, "#?");
	if (*end == '#')
		t->anchor = end;
	else if (*end == '?' && strchr(end, '#'))
		t->anchor = strchr(end, '#');
	p = arena_alloc(m->a, (size_t)(end - target) + 1);
	/* Lenient, as links are written: a stray '%' stays. A %00 names no file. */
	k = (size_t)pct_decode(p, target, (size_t)(end - target), 0);
	if (!k || strlen(p) != k)
		return 0;
	if (*p == '/')
		full = lay_join(m->a, m->cfg.root, p + 1);
	else
		full = lay_join(m->a, self_dir, p);
	if (!full)
		return 0; /* leaves the repository: not ours */
	size_t fl = strlen(full);
	if (fl && full[fl - 1] == '/')
		full[--fl] = '\0';
	int mdi = lay_map_get(&m->md_by_path, full);
	if (mdi < 0) {
		char *readme = arena_printf(m->a, "%s%sREADME.md", full, fl ? "/" : "");
		mdi = lay_map_get(&m->md_by_path, readme);
	}
	if (mdi >= 0 && m->md[mdi].page >= 0) {
		t->page = m->md[mdi].page;
		return 0;
	}
	int fi = lay_map_get(&m->repo, full);
	if (fi >= 0 && strncmp(full, m->prefix, strlen(m->prefix)) == 0 && !lay_ends_with(full, ".md")) {
		int rc = register_file(m, fi, &t->file);
		if (rc)
			return rc;
		t->anchor = NULL;
	}
	return 0;
}

static int cmp_asset(const char *x, const char *y)
{
	size_t lx = strlen(x), ly = strlen(y);

	return lx != ly ? (lx < ly ? -1 : 1) : strcmp(x, y);
}

static int read_assets(struct imp *m)
{
	const char *assets = arena_printf(m->a, "%s.gitbook/assets/", m->prefix);
	size_t al = strlen(assets), n = m->in->nfiles;
	int *idx, k = 0, rc, f;

	m->files = arena_alloc(m->a, sizeof(*m->files) * (n + 1));
	m->out->blobs = arena_alloc(m->a, sizeof(*m->out->blobs) * (n + 1));
	idx = arena_alloc(m->a, sizeof(int) * (n + 1));
	lay_map_init(&m->file_of_path, m->a, n, false);
	lay_map_init(&m->file_of_sha, m->a, n, false);
	for (size_t i = 0; i < n; i++)
		if (strncmp(m->in->files[i].path, assets, al) == 0 && m->in->files[i].path[al])
			idx[k++] = (int)i;
	/* Shortest path first, then path order: a set of identical files is
	 * named after its plainest copy ("logo.png" before "logo (1).png"),
	 * the same way on every import. */
	for (int i = 1; i < k; i++)
		for (int j = i; j > 0 && cmp_asset(m->in->files[idx[j - 1]].path, m->in->files[idx[j]].path) > 0; j--) {
			int t = idx[j];
			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
	for (int i = 0; i < k; i++)
		if ((rc = register_file(m, idx[i], &f)))
			return rc;
	return 0;
}

/* -------------------------------------------------------- 3. page contents */

/* Raw HTML's URLs are registered like links' (the files they reach are
 * imported); nothing is rewritten here. */
struct reg_ctx {
	struct imp *m;
	const char *dir;
	int rc;
};

static const char *register_url(void *vctx, const char *target)
{
	struct reg_ctx *c = vctx;
	struct target t;

	if (!c->rc)
		c->rc = resolve(c->m, c->dir, target, &t);
	return NULL;
}

static int read_page(struct imp *m, int pi)
{
	struct rev_page *p = &m->pages[pi];
	const struct git_file *g = m->md[m->page_md[pi]].f;
	const unsigned char *data;
	size_t len;
	bool changed;
	struct md_front fm;
	struct md_link *links;
	size_t nlinks;
	char *text, *dir;
	int rc;

	if ((rc = load(m, g, &data, &len)))
		return rc;
	if (len > LAYOUT_MAX_PAGE_BYTES)
		return err_set(ERR_INVALID, "'%s' is larger than %d bytes", g->path, LAYOUT_MAX_PAGE_BYTES);
	/* len is at most LAYOUT_MAX_PAGE_BYTES: lay_utf8_clean returns text. */
	text = lay_utf8_clean(m->a, data, len, &changed);
	if (changed)
		problem(m, arena_printf(m->a, "'%s': not valid UTF-8; the invalid bytes were replaced", g->path));
	if (md_frontmatter(m->a, text, strlen(text), &fm))
		return -1; /* the error is set */
	if (fm.error)
		return err_set(ERR_INVALID, "'%s' front matter: %s", g->path, fm.error);
	if (fm.layout.width && strcmp(fm.layout.width, "default") != 0 && strcmp(fm.layout.width, "wide") != 0)
		return err_set(ERR_INVALID, "'%s' front matter: layout.width must be default or wide, not '%s'", g->path,
			       fm.layout.width);
	m->text[pi] = text + fm.body;
	p->title = fm.title;
	p->description = fm.description;
	p->icon = fm.icon;
	p->emoji = fm.emoji;
	p->hidden = fm.hidden;
	/* GitBook's page condition: the site shows the page only to visitors
	 * it holds for (one that does not parse hides it: domain/site_visit.c). */
	p->cond = fm.cond;
	p->vars = fm.vars; /* {{ page.vars.x }} */
	/* The cover: a URL as it is, a path registered like an image's (its
	 * file id is known once every page is read: "y\npath" until then). */
	if (fm.cover) {
		struct target ct;
		if (has_scheme(fm.cover) && (!strncmp(fm.cover, "https://", 8) || !strncmp(fm.cover, "http://", 7))) {
			json_t *cv = json_pack("{s{ssss}sf}", "ref", "kind", "url", "url", fm.cover, "yPos", fm.cover_y);
			char *t = cv ? json_dumps(cv, JSON_COMPACT) : NULL;
			p->cover = t ? arena_strdup(m->a, t) : NULL;
			free(t);
			json_decref(cv);
		} else if ((rc = resolve(m, lay_dirname(m->a, g->path), fm.cover, &ct))) {
			return rc;
		} else {
			p->cover = arena_printf(m->a, "%.17g\n%s", fm.cover_y, fm.cover);
		}
	}
	lay_layout_json(m->a, &fm.layout, &p->layout);
	/* Register the files its links and images reach (reference links too). */
	if (md_links(m->a, m->text[pi], strlen(m->text[pi]), &links, &nlinks))
		return -1; /* the error is set */
	dir = lay_dirname(m->a, g->path);
	for (size_t i = 0; i < nlinks; i++) {
		struct target t;
		if ((rc = resolve(m, dir, links[i].target, &t)))
			return rc;
	}
	/* ...and the files its raw HTML reaches (<img src=".gitbook/assets/x.png">,
	 * <picture>'s srcset, cards' <a href>). */
	struct reg_ctx rg = { m, dir, 0 };
	if (!md_rewrite_html_urls(m->a, m->text[pi], strlen(m->text[pi]), register_url, &rg))
		return -1; /* the error is set */
	return rg.rc;
}

struct rw_ctx {
	struct imp *m;
	const char *dir;
	int rc;
};

static const char *rewrite(void *vctx, const char *target)
{
	struct rw_ctx *c = vctx;
	struct target t;

	if (c->rc || (c->rc = resolve(c->m, c->dir, target, &t)))
		return NULL;
	if (t.page >= 0)
		return arena_printf(c->m->a, "/pages/%s%s", c->m->pages[t.page].id, t.anchor ? t.anchor : "");
	if (t.file >= 0)
		return arena_printf(c->m->a, "/files/%s", c->m->files[t.file].id);
	return NULL;
}

/* ----------------------------------------------------------------- slugs */

static int assign_slugs(struct imp *m)
{
	struct lay_map taken;
	int rc;

	lay_map_init(&taken, m->a, (size_t)m->np, false);
	for (int i = 0; i < m->np; i++) {
		struct rev_page *p = &m->pages[i];
		const char *base, *path = p->git_path;
		char *slug;

		if (p->type == PAGE_DOCUMENT && strcmp(path, m->readme_path) != 0) {
			/* "guide/setup.md" -> "setup"; a folder's "guide/README.md" -> "guide". */
			char *dir = lay_dirname(m->a, path), *stem;
			if (is_readme(path) && strlen(dir) >= strlen(m->prefix) && *dir) {
				stem = arena_strdup(m->a, basename_of(dir));
			} else {
				stem = arena_strdup(m->a, basename_of(path));
				if (lay_ends_with(stem, ".md"))
					stem[strlen(stem) - 3] = '\0';
			}
			base = slugify(m->a, stem);
		} else if (m->page_prev[i] >= 0 && p->type != PAGE_LINK && *m->in->previous->pages[m->page_prev[i]].slug) {
			/* The root readme's and a group's slug are in no file name:
			 * the page they continue keeps its slug. */
			base = m->in->previous->pages[m->page_prev[i]].slug;
		} else {
			base = slugify(m->a, p->title);
		}
		slug = (char *)base;
		if (p->type != PAGE_LINK) {
			for (int k = 2;; k++) {
				char *key = arena_printf(m->a, "%s/%s", p->parent ? p->parent : "", slug);
				if ((rc = lay_map_put(&taken, key, i)) < 0)
					return map_full();
				if (rc == 0)
					break;
				slug = arena_printf(m->a, "%s-%d", base, k);
			}
		}
		p->slug = slug;
	}
	return 0;
}

/* ---------------------------------------------------------- fingerprints */

struct fp_ctx {
	struct imp *m;
	struct lay_map page_of_id, file_of_id;
};

static const char *fp_page(void *vctx, const char *id)
{
	struct fp_ctx *c = vctx;
	int i = lay_map_get(&c->page_of_id, id);

	return i >= 0 && c->m->pages[i].type == PAGE_DOCUMENT ? c->m->pages[i].git_path : NULL;
}

static const char *fp_file(void *vctx, const char *id)
{
	struct fp_ctx *c = vctx;
	int i = lay_map_get(&c->file_of_id, id);

	return i >= 0 ? c->m->files[i].git_path : NULL;
}

static int fingerprints(struct imp *m)
{
	struct fp_ctx c = { m, { 0 }, { 0 } };
	struct lay_paths paths = { fp_page, fp_file, &c };
	struct revision_new nr = { 0 };
	struct revision *rv;
	const unsigned char *data;
	size_t len;
	int rc = 0;

	lay_map_init(&c.page_of_id, m->a, (size_t)m->np, false);
	lay_map_init(&c.file_of_id, m->a, (size_t)m->nf, false);
	for (int i = 0; i < m->np; i++)
		if (lay_map_put(&c.page_of_id, m->pages[i].id, i) < 0)
			return map_full();
	for (int i = 0; i < m->nf; i++)
		if (lay_map_put(&c.file_of_id, m->files[i].id, i) < 0)
			return map_full();
	for (int b = 0; b < m->out->nbodies; b++) {
		struct rev_page *p = &m->pages[m->out->bodies[b].page];
		if ((rc = lay_render_page(m->a, p, m->out->bodies[b].markdown, p->git_path, &paths, &data, &len)))
			return rc;
		if (!(p->git_hash = layout_page_fingerprint(m->a, data, len)))
			return hash_failed();
	}
	nr.pages = m->pages;
	nr.npages = m->np;
	rv = revision_build("import", &nr, m->in->now);
	rc = lay_render_summary(m->a, rv, m->summary_path, &paths, &data, &len);
	revision_free(rv);
	if (rc)
		return rc;
	return (m->out->summary_hash = layout_page_fingerprint(m->a, data, len)) ? 0 : hash_failed();
}

/* ------------------------------------------------------------------ main */

int layout_import(struct arena *a, const struct layout_import_in *in, struct layout_import_out *out)
{
	struct imp m;
	int rc;

	memset(out, 0, sizeof(*out));
	memset(&m, 0, sizeof(m));
	m.a = a;
	m.in = in;
	m.out = out;
	m.problems = arena_alloc(a, sizeof(char *) * MAX_PROBLEMS);
	if ((rc = read_config(&m)) || (rc = index_previous(&m)) || (rc = build_tree(&m)) || (rc = read_assets(&m)))
		return rc;
	for (int i = 0; i < m.np; i++)
		if (m.page_md[i] >= 0 && (rc = read_page(&m, i)))
			return rc;
	out->bodies = arena_alloc(a, sizeof(*out->bodies) * (size_t)(m.np + 1));
	for (int i = 0; i < m.np; i++) {
		struct rev_page *p = &m.pages[i];
		if (m.page_md[i] < 0)
			continue;
		struct rw_ctx c = { &m, lay_dirname(a, p->git_path), 0 };
		char *body = md_rewrite_links(a, m.text[i], strlen(m.text[i]), rewrite, &c);
		if (c.rc)
			return c.rc;
		if (!body)
			return -1; /* the error is set */
		/* A cover path becomes GitBook's {ref: {kind: file, file}, yPos}. */
		if (p->cover && *p->cover != '{') {
			struct target ct;
			const char *path = strchr(p->cover, '\n');
			double y = strtod(p->cover, NULL);
			p->cover = NULL;
			if (path && (rc = resolve(&m, c.dir, path + 1, &ct)))
				return rc;
			if (path && ct.file >= 0) {
				json_t *cv = json_pack("{s{ssss}sf}", "ref", "kind", "file", "file", m.files[ct.file].id, "yPos", y);
				char *t = cv ? json_dumps(cv, JSON_COMPACT) : NULL;
				p->cover = t ? arena_strdup(a, t) : NULL;
				free(t);
				json_decref(cv);
			}
		}
		/* Paths in raw HTML become /files/<id> and /pages/<id> too. */
		body = md_rewrite_html_urls(a, body, strlen(body), rewrite, &c);
		if (c.rc)
			return c.rc;
		if (!body)
			return -1; /* the error is set */
		/* Title: front matter, else the leading heading, else SUMMARY.md's
		 * link text, else the file's name (gitbook_layout.h). */
		if (!p->title)
			p->title = md_title(a, body, strlen(body));
		if (!p->title)
			p->title = m.fallback[i];
		if (!p->title)
			p->title = name_title(a, p->git_path);
		out->bodies[out->nbodies++] = (struct layout_body){ i, body };
	}
	if ((rc = assign_slugs(&m)) || (rc = fingerprints(&m)))
		return rc;
	out->pages = m.pages;
	out->npages = m.np;
	out->files = m.files;
	out->nfiles = m.nf;
	out->problems = m.problems;
	out->nproblems = m.nproblems;
	/* .gitbook.yaml's redirects, for the caller to store with the revision. */
	out->redirects = m.cfg.redirects;
	out->nredirects = m.cfg.n_redirects;
	out->root = m.cfg.root;
	return 0;
}
