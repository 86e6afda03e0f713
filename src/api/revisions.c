/*
 * revisions.c - reading content: a revision, its pages and files, one page
 * (markdown or GitBook's document), links and backlinks, file bytes and PDFs.
 *
 * The same handlers serve the space's current revision, a change request's
 * head and any revision by id: content_source() resolves which from the route.
 * Revisions come from the revision cache, so a page read is a lookup in
 * memory plus one read of the page's body.
 */
#include "api/content.h"
#include "core/markdown.h"
#include "core/pdf.h"
#include "core/revision.h"
#include "core/serialize_content.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The content the route addresses (domain/content.c). */
static int content_source(struct req *r, enum role need, struct content_src *src)
{
	return dom_content_source(&r->dom, req_param(r, "spaceId"), req_param(r, "changeRequestId"),
				  req_param(r, "revisionId"), need, src);
}

/* A file's signed download URL; the signing key is read from the store,
 * and a failure to read it is passed up. */
static int file_url(void *ctx, const struct rev_file *f, const char **out)
{
	int rc;

	err_clear();
	if ((*out = content_file_url(ctx, f->blob, f->name)))
		return 0;
	return (rc = err_code()) ? rc : err_set(ERR_INTERNAL, "out of memory");
}

/* Page bodies for serializers. A body that cannot be read fails the request
 * (a missing row is a broken revision: 500, not an empty page). */
static int load_body(void *ctx, const char *hash, const char **out)
{
	int rc = store_body_get(&((struct req *)ctx)->tx, hash, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_INTERNAL, "page body %s is missing", hash) : rc;
}

static struct page_json page_opts(struct req *r, const char *space_id)
{
	return (struct page_json){ .base = api_base(r), .space_id = space_id, .children = 1, .body = load_body,
				   .body_ctx = r };
}

/* The change request a merge revision came from, when it still exists. */
static int merged_from(struct req *r, const struct content_src *src, struct change_request *cr, int *have)
{
	*have = 0;
	if (!src->rv->merged_from)
		return 0;
	int rc = store_cr_get(&r->tx, src->space.id, src->rv->merged_from, cr);
	if (rc == ERR_NOT_FOUND)
		return 0;
	*have = rc == 0;
	return rc;
}

int content_revision_get(struct req *r)
{
	struct content_src src;
	struct change_request cr;
	int have, rc;
	struct jw *g;

	if ((rc = content_source(r, ROLE_READ, &src)) || (rc = merged_from(r, &src, &cr, &have)))
		return rc;
	if (!(g = resp_json(r, 200)))
		return err_set(ERR_INTERNAL, "out of memory");
	struct page_json o = page_opts(r, src.space.id);
	return revision_to_json(g, api_base(r), src.rv, have ? &cr : NULL, src.space.revision, file_url, &o, r);
}

int content_pages_list(struct req *r)
{
	struct content_src src;
	struct page_json o;
	int rc = content_source(r, ROLE_READ, &src);
	struct jw *g;

	if (rc)
		return rc;
	if (!(g = resp_json(r, 200)))
		return err_set(ERR_INTERNAL, "out of memory");
	o = page_opts(r, src.space.id);
	jw_obj_open(g);
	jw_key(g, "pages");
	jw_arr_open(g);
	for (int c = src.rv->first_root; c >= 0; c = src.rv->pages[c].next_sibling)
		if ((rc = page_to_json(g, src.rv, &src.rv->pages[c], &o)))
			return rc;
	jw_arr_close(g);
	jw_obj_close(g);
	return 0;
}

int content_files_list(struct req *r)
{
	struct content_src src;
	struct list_req lr;
	struct cursor cur;
	int rc, start = 0, count = 0;
	struct jw *g;

	if ((rc = content_source(r, ROLE_READ, &src)) || (rc = req_list(r, &lr, &cur, NULL, 0)))
		return rc;
	/* Files are sorted by id: the cursor is the last id of the page before. */
	if (lr.after)
		while (start < src.rv->nfiles && strcmp(src.rv->files[start].id, lr.after->id) <= 0)
			start++;
	if (!(g = resp_list_begin(r)))
		return err_set(ERR_INTERNAL, "out of memory");
	for (int i = start; i < src.rv->nfiles && count < lr.limit; i++, count++) {
		const char *url;
		if ((rc = file_url(r, &src.rv->files[i], &url)))
			return rc;
		file_to_json(g, &src.rv->files[i], url);
	}
	const char *next = NULL;
	if (start + count < src.rv->nfiles && count > 0 &&
	    !(next = cursor_encode(&r->arena, "0", src.rv->files[start + count - 1].id)))
		return err_set(ERR_INTERNAL, "out of memory");
	return resp_list_end(r, count, next);
}

int content_file_get(struct req *r)
{
	struct content_src src;
	const struct rev_file *f;
	const char *url;
	int rc = content_source(r, ROLE_READ, &src);
	struct jw *g;

	if (rc)
		return rc;
	if (!(f = revision_file(src.rv, req_param(r, "fileId"))))
		return err_set(ERR_NOT_FOUND, "file not found");
	if ((rc = file_url(r, f, &url)))
		return rc;
	if (!(g = resp_json(r, 200)))
		return err_set(ERR_INTERNAL, "out of memory");
	file_to_json(g, f, url);
	return 0;
}

static int send_page(struct req *r, const struct content_src *src, const struct rev_page *p)
{
	static const char *const formats[] = { "document", "markdown", NULL };
	const char *md = NULL;
	int format, rc;
	struct jw *g;

	if ((rc = req_query_enum(r, "format", formats, &format)))
		return rc;
	if (p->type == PAGE_DOCUMENT && (rc = load_body(r, p->body, &md)))
		return rc;
	if (!(g = resp_json(r, 200)))
		return err_set(ERR_INTERNAL, "out of memory");
	struct page_json o = page_opts(r, src->space.id);
	o.markdown = md;
	o.as_document = format == 0;
	return page_to_json(g, src->rv, p, &o);
}

int content_page_get(struct req *r)
{
	struct content_src src;
	const struct rev_page *p;
	int rc = content_source(r, ROLE_READ, &src);

	if (rc)
		return rc;
	if (!(p = revision_page(src.rv, req_param(r, "pageId"))))
		return err_set(ERR_NOT_FOUND, "page not found");
	return send_page(r, &src, p);
}

int content_page_by_path(struct req *r)
{
	struct content_src src;
	const struct rev_page *p;
	int rc = content_source(r, ROLE_READ, &src);

	if (rc)
		return rc;
	if (!(p = revision_page_by_path(src.rv, req_param(r, "pagePath"))))
		return err_set(ERR_NOT_FOUND, "no page at this path");
	return send_page(r, &src, p);
}

/* ---- links ---- */

enum link_kind { LINK_PAGE, LINK_FILE, LINK_URL, LINK_ANCHOR };

struct link_target {
	enum link_kind kind;
	const char *status; /* ok | broken | in-app */
	const struct rev_page *page;
	const struct rev_file *file;
	const char *url;
};

/* Resolve a link as written in a page of rv: /pages/<id>, /files/<id>, a
 * path relative to the page (./x.md, ../y), an absolute URL, or #anchor. */
static void resolve_link(struct req *r, const struct revision *rv, const struct rev_page *from, const char *t,
			 struct link_target *out)
{
	const char *base = api_base(r);
	char buf[1024];

	memset(out, 0, sizeof(*out));
	out->url = t;
	if (t[0] == '#') {
		out->kind = LINK_ANCHOR;
		out->status = "ok";
		return;
	}
	if (strncmp(t, "/pages/", 7) == 0) {
		size_t n = strcspn(t + 7, "#?");
		snprintf(buf, sizeof(buf), "%.*s", (int)n, t + 7);
		out->kind = LINK_PAGE;
		out->page = revision_page(rv, buf);
		if (!out->page)
			out->page = revision_page_by_path(rv, buf);
		out->status = out->page ? "ok" : "broken";
		return;
	}
	if (strncmp(t, "/files/", 7) == 0) {
		size_t n = strcspn(t + 7, "#?/");
		snprintf(buf, sizeof(buf), "%.*s", (int)n, t + 7);
		out->kind = LINK_FILE;
		out->file = revision_file(rv, buf);
		out->status = out->file ? "ok" : "broken";
		return;
	}
	if (strstr(t, "://") || strncmp(t, "mailto:", 7) == 0) {
		out->kind = LINK_URL;
		out->status = strncmp(t, base, strlen(base)) == 0 ? "in-app" : "ok";
		return;
	}
	/* Relative: against the page's parent path; .md and README.md are Git's
	 * spelling of a page. */
	{
		const char *dir = "";
		if (from && from->parent_idx >= 0)
			dir = rv->pages[from->parent_idx].path;
		snprintf(buf, sizeof(buf), "%s/%.*s", dir, (int)strcspn(t, "#?"), t);
		/* Normalize . and .. segments in place. */
		char out_path[1024] = "", *segs[64];
		int ns = 0;
		for (char *save = NULL, *s = strtok_r(buf, "/", &save); s && ns < 64; s = strtok_r(NULL, "/", &save)) {
			if (strcmp(s, ".") == 0)
				continue;
			if (strcmp(s, "..") == 0) {
				if (ns > 0)
					ns--;
				continue;
			}
			segs[ns++] = s;
		}
		if (ns > 0 && strcmp(segs[ns - 1], "README.md") == 0)
			ns--;
		size_t len = 0;
		for (int i = 0; i < ns && len < sizeof(out_path) - 1; i++)
			len += (size_t)snprintf(out_path + len, sizeof(out_path) - len, "%s%s", i ? "/" : "", segs[i]);
		if (len > 3 && strcmp(out_path + len - 3, ".md") == 0)
			out_path[len - 3] = '\0';
		out->kind = LINK_PAGE;
		out->page = revision_page_by_path(rv, out_path);
		out->status = out->page ? "ok" : "broken";
	}
}

struct location_ctx {
	struct req *r;
	const struct content_src *src;
	struct org org;
	int have_org;
};

static int location_org(struct location_ctx *lc)
{
	if (lc->have_org)
		return 0;
	int rc = store_org_get(&lc->r->tx, lc->src->space.org_id, &lc->org);
	lc->have_org = rc == 0;
	return rc;
}

/* A ContentLocation of a page or file of the source's revision. */
static int location_json(struct jw *g, struct location_ctx *lc, const struct rev_page *p, const struct rev_file *f,
			 const char *url)
{
	struct req *r = lc->r;
	int rc;

	jw_obj_open(g);
	if (!p && !f) {
		jw_kstr(g, "kind", "url");
		jw_kstr(g, "url", url ? url : "");
		jw_obj_close(g);
		return 0;
	}
	jw_kstr(g, "kind", p ? "page" : "file");
	jw_key(g, "organization");
	org_to_json(g, api_base(r), &lc->org, &r->dom.actor.org);
	jw_key(g, "space");
	space_to_json(g, api_base(r), &lc->src->space, lc->src->space.access);
	/* versionContext is left out: GitBook's schema wants the whole Revision
	 * or ChangeRequest there, repeated in every item. */
	if (p) {
		struct page_json o = page_opts(r, lc->src->space.id);
		o.children = 0;
		jw_key(g, "page");
		if ((rc = page_to_json(g, lc->src->rv, p, &o)))
			return rc;
	} else {
		const char *download;
		if ((rc = file_url(r, f, &download)))
			return rc;
		jw_key(g, "file");
		file_to_json(g, f, download);
	}
	jw_obj_close(g);
	return 0;
}

/* In-memory pages of a list: the cursor is the index of the next item. */
static int slice(struct req *r, struct list_req *lr, int total, int *start)
{
	*start = 0;
	if (lr->after) {
		*start = atoi(lr->after->id);
		if (*start < 0 || *start > total)
			return err_set(ERR_INVALID, "page: not a cursor of this list");
	}
	(void)r;
	return 0;
}

static const char *slice_next(struct req *r, int start, int count, int total)
{
	char idx[16];

	if (start + count >= total)
		return NULL;
	snprintf(idx, sizeof(idx), "%d", start + count);
	return cursor_encode(&r->arena, "0", idx);
}

int content_page_links(struct req *r)
{
	static const char *const statuses[] = { "ok", "broken", "in-app", NULL };
	struct content_src src;
	struct location_ctx lc = { .r = r, .src = &src };
	const struct rev_page *p;
	struct body_link *links;
	struct list_req lr;
	struct cursor cur;
	int n, rc, want, start, count = 0, broken = 0, kept = 0;

	if ((rc = content_source(r, ROLE_READ, &src)) || (rc = req_list(r, &lr, &cur, NULL, 0)) ||
	    (rc = req_query_enum(r, "status", statuses, &want)))
		return rc;
	if (!(p = revision_page(src.rv, req_param(r, "pageId"))))
		return err_set(ERR_NOT_FOUND, "page not found");
	if ((rc = store_body_links(&r->tx, p->body, &links, &n)) || (rc = location_org(&lc)))
		return rc;
	struct link_target *t = arena_alloc(&r->arena, sizeof(*t) * (size_t)(n + 1));
	if (!t)
		return err_set(ERR_INTERNAL, "out of memory");
	for (int i = 0; i < n; i++) {
		resolve_link(r, src.rv, p, links[i].target, &t[i]);
		broken += strcmp(t[i].status, "broken") == 0;
		if (t[i].kind != LINK_ANCHOR && (want < 0 || strcmp(t[i].status, statuses[want]) == 0))
			t[kept++] = t[i];
	}
	if ((rc = slice(r, &lr, kept, &start)))
		return rc;
	struct jw *g = resp_list_begin(r);
	if (!g)
		return err_set(ERR_INTERNAL, "out of memory");
	for (int i = start; i < kept && count < lr.limit; i++, count++) {
		jw_obj_open(g);
		jw_kstr(g, "status", t[i].status);
		jw_kstr(g, "relation", "reference");
		jw_key(g, "targetReference");
		if ((rc = location_json(g, &lc, t[i].page, t[i].file, t[i].url)))
			return rc;
		jw_key(g, "locationReferences");
		jw_arr_open(g);
		if ((rc = location_json(g, &lc, p, NULL, NULL)))
			return rc;
		jw_arr_close(g);
		jw_obj_close(g);
	}
	/* resp_list_end closes the items; stats sit beside them. */
	jw_arr_close(g);
	jw_key(g, "stats");
	jw_obj_open(g);
	jw_kint(g, "total", n);
	jw_key(g, "broken");
	jw_obj_open(g);
	jw_kint(g, "total", broken);
	jw_obj_close(g);
	jw_obj_close(g);
	return resp_list_end_open(r, count, slice_next(r, start, count, kept));
}

/* Pages of the revision whose bodies link to `target` (page or file). */
static int backlinks(struct req *r, int file)
{
	struct content_src src;
	struct location_ctx lc = { .r = r, .src = &src };
	struct list_req lr;
	struct cursor cur;
	int rc, start, count = 0, kept = 0;
	const char *id = req_param(r, file ? "fileId" : "pageId");

	if ((rc = content_source(r, ROLE_READ, &src)) || (rc = req_list(r, &lr, &cur, NULL, 0)) ||
	    (rc = location_org(&lc)))
		return rc;
	if (file ? !revision_file(src.rv, id) : !revision_page(src.rv, id))
		return err_set(ERR_NOT_FOUND, file ? "file not found" : "page not found");
	/* Candidates: bodies with a link naming the id; then confirm each link
	 * resolves to it in this revision. */
	const struct rev_page **hits = arena_alloc(&r->arena, sizeof(*hits) * (size_t)(src.rv->npages + 1));
	if (!hits)
		return err_set(ERR_INTERNAL, "out of memory");
	for (int i = 0; i < src.rv->npages; i++) {
		const struct rev_page *p = &src.rv->pages[i];
		struct body_link *links;
		int n;
		if (!p->body)
			continue;
		if ((rc = store_body_links(&r->tx, p->body, &links, &n)))
			return rc;
		for (int k = 0; k < n; k++) {
			struct link_target t;
			if (!strstr(links[k].target, id) && file)
				continue;
			resolve_link(r, src.rv, p, links[k].target, &t);
			if ((file && t.file && strcmp(t.file->id, id) == 0) ||
			    (!file && t.page && strcmp(t.page->id, id) == 0)) {
				hits[kept++] = p;
				break;
			}
		}
	}
	if ((rc = slice(r, &lr, kept, &start)))
		return rc;
	struct jw *g = resp_list_begin(r);
	if (!g)
		return err_set(ERR_INTERNAL, "out of memory");
	for (int i = start; i < kept && count < lr.limit; i++, count++)
		if ((rc = location_json(g, &lc, hits[i], NULL, NULL)))
			return rc;
	return resp_list_end(r, count, slice_next(r, start, count, kept));
}

int content_page_backlinks(struct req *r)
{
	return backlinks(r, 0);
}

int content_file_backlinks(struct req *r)
{
	return backlinks(r, 1);
}

/* All links of the space's current revision, one item per link, with the
 * count of broken ones, and of broken ones in open change requests. */
int content_space_links(struct req *r)
{
	static const char *const statuses[] = { "ok", "broken", "in-app", NULL };
	struct content_src src;
	struct location_ctx lc = { .r = r, .src = &src };
	struct list_req lr;
	struct cursor cur;
	int rc, want, start, count = 0, total = 0, broken = 0, kept = 0, cap = 64;

	if ((rc = content_source(r, ROLE_READ, &src)) || (rc = req_list(r, &lr, &cur, NULL, 0)) ||
	    (rc = req_query_enum(r, "status", statuses, &want)) || (rc = location_org(&lc)))
		return rc;
	struct item {
		const struct rev_page *from;
		struct link_target t;
	} *items = malloc(sizeof(struct item) * (size_t)cap);
	if (!items)
		return err_set(ERR_INTERNAL, "out of memory");
	for (int i = 0; i < src.rv->npages && !rc; i++) {
		const struct rev_page *p = &src.rv->pages[i];
		struct body_link *links;
		int n;
		if (!p->body)
			continue;
		if ((rc = store_body_links(&r->tx, p->body, &links, &n)))
			break;
		for (int k = 0; k < n; k++) {
			struct link_target t;
			resolve_link(r, src.rv, p, links[k].target, &t);
			if (t.kind == LINK_ANCHOR)
				continue;
			total++;
			broken += strcmp(t.status, "broken") == 0;
			if (want >= 0 && strcmp(t.status, statuses[want]) != 0)
				continue;
			if (kept == cap) {
				struct item *ni = realloc(items, sizeof(struct item) * (size_t)(cap *= 2));
				if (!ni) {
					rc = err_set(ERR_INTERNAL, "out of memory");
					break;
				}
				items = ni;
			}
			items[kept].from = p;
			items[kept++].t = t;
		}
	}
	if (rc || (rc = slice(r, &lr, kept, &start))) {
		free(items);
		return rc;
	}
	struct jw *g = resp_list_begin(r);
	if (!g) {
		free(items);
		return err_set(ERR_INTERNAL, "out of memory");
	}
	for (int i = start; i < kept && count < lr.limit; i++, count++) {
		jw_obj_open(g);
		jw_kstr(g, "status", items[i].t.status);
		jw_kstr(g, "relation", "reference");
		jw_key(g, "targetReference");
		if ((rc = location_json(g, &lc, items[i].t.page, items[i].t.file, items[i].t.url)))
			break;
		jw_key(g, "locationReferences");
		jw_arr_open(g);
		if ((rc = location_json(g, &lc, items[i].from, NULL, NULL)))
			break;
		jw_arr_close(g);
		jw_obj_close(g);
	}
	free(items);
	if (rc)
		return rc;
	jw_arr_close(g);
	jw_key(g, "stats");
	jw_obj_open(g);
	jw_kint(g, "total", total);
	jw_key(g, "broken");
	jw_obj_open(g);
	jw_kint(g, "total", broken);
	jw_kint(g, "changeRequest", 0);
	jw_obj_close(g);
	jw_obj_close(g);
	return resp_list_end_open(r, count, slice_next(r, start, count, kept));
}

/* ---- bytes ---- */

/* /files/<hash>.<sig> */
int content_blob_get(struct req *r)
{
	const char *name = req_param(r, "blob"), *dot = strchr(name, '.'), *type;
	unsigned char *data;
	size_t len;
	int rc;

	if (!dot)
		return err_set(ERR_NOT_FOUND, "no such file");
	char *hash = arena_strndup(&r->arena, name, (size_t)(dot - name));
	if (!hash)
		return err_set(ERR_INTERNAL, "out of memory");
	if ((rc = content_sig_check(r, hash, dot + 1)) || (rc = store_blob_get(&r->tx, hash, &data, &len, &type)))
		return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "no such file") : rc;
	resp_header(r, "Cache-Control", "public, max-age=31536000, immutable");
	return resp_bytes(r, 200, type, data, len);
}

/* ---- PDF ---- */

static int pdf_url_reply(struct req *r, const struct content_src *src)
{
	const char *page = req_query(r, "page"), *only = req_query(r, "only"), *url;
	struct jw *g;

	if (only && strcmp(only, "true") != 0 && strcmp(only, "false") != 0)
		return err_set(ERR_INVALID, "only: must be true or false");
	if (page && !revision_page(src->rv, page))
		return err_set(ERR_INVALID, "page: no such page");
	if (only && strcmp(only, "true") == 0 && !page)
		return err_set(ERR_INVALID, "page: required when only is true");
	/* Without only, the PDF starts at the page and holds what follows it. */
	if (!(url = content_pdf_url(r, src->space.id, src->rv->id,
				    page ? arena_printf(&r->arena, "%s%s", only && strcmp(only, "true") == 0 ? "" : "+",
							page)
					 : NULL)))
		return err_set(ERR_INTERNAL, "out of memory");
	if (!(g = resp_json(r, 200)))
		return err_set(ERR_INTERNAL, "out of memory");
	jw_obj_open(g);
	jw_kstr(g, "url", url);
	jw_obj_close(g);
	return 0;
}

int content_space_pdf(struct req *r)
{
	struct content_src src;
	int rc = content_source(r, ROLE_READ, &src);

	return rc ? rc : pdf_url_reply(r, &src);
}

int content_cr_pdf(struct req *r)
{
	return content_space_pdf(r);
}

struct pdf_images {
	struct req *r;
	const struct revision *rv;
	int rc; /* the first store error: the PDF is not answered without its images */
};

static int pdf_image(void *ctx, const char *url, const unsigned char **data, size_t *len, const char **type)
{
	struct pdf_images *pi = ctx;
	const struct rev_file *f;
	unsigned char *d;
	int rc;

	if (strncmp(url, "/files/", 7) != 0 || !(f = revision_file(pi->rv, url + 7)))
		return -1; /* not a file of the revision: its alt text is printed */
	if ((rc = store_blob_get(&pi->r->tx, f->blob, &d, len, type))) {
		if (!pi->rc)
			pi->rc = rc == ERR_NOT_FOUND ? err_set(ERR_INTERNAL, "file bytes %s are missing", f->blob) : rc;
		return -1;
	}
	*data = d;
	return 0;
}

/* Pages in reading order from `from` (NULL: all); only: just that page. */
static int pdf_collect(struct req *r, const struct revision *rv, const char *from, int only, struct pdf_page **out,
		       size_t *n)
{
	struct pdf_page *pages = arena_alloc(&r->arena, sizeof(*pages) * (size_t)(rv->npages + 1));
	int *stack = arena_alloc(&r->arena, sizeof(int) * (size_t)(rv->npages + 1)), top = 0, started = !from;
	size_t k = 0;

	if (!pages || !stack)
		return err_set(ERR_INTERNAL, "out of memory");
	/* Preorder walk; push siblings in reverse so the first comes out first. */
	for (int c = rv->first_root; c >= 0; c = rv->pages[c].next_sibling)
		stack[top++] = c;
	for (int lo = 0, hi = top - 1; lo < hi; lo++, hi--) {
		int t = stack[lo];
		stack[lo] = stack[hi];
		stack[hi] = t;
	}
	while (top > 0) {
		const struct rev_page *p = &rv->pages[stack[--top]];
		int mark = top;
		for (int c = p->first_child; c >= 0; c = rv->pages[c].next_sibling)
			stack[top++] = c;
		for (int lo = mark, hi = top - 1; lo < hi; lo++, hi--) {
			int t = stack[lo];
			stack[lo] = stack[hi];
			stack[hi] = t;
		}
		if (!started && strcmp(p->id, from) == 0)
			started = 1;
		if (!started || p->type == PAGE_LINK)
			continue;
		const char *md = "";
		int rc;
		if (p->type == PAGE_DOCUMENT && (rc = load_body(r, p->body, &md)))
			return rc;
		pages[k++] = (struct pdf_page){ .title = p->title, .markdown = md, .depth = p->depth };
		if (only)
			break;
	}
	*out = pages;
	*n = k;
	return 0;
}

/* /pdf/<space>.<revision>.<page|+page|all>.<sig>.pdf */
int content_pdf_get(struct req *r)
{
	char *name = arena_strdup(&r->arena, req_param(r, "pdf")), *parts[5], *save = NULL;
	const struct revision *rv;
	struct space s;
	struct pdf_page *pages = NULL;
	size_t n = 0;
	int np = 0, rc;

	if (!name)
		return err_set(ERR_INTERNAL, "out of memory");
	for (char *t = strtok_r(name, ".", &save); t && np < 5; t = strtok_r(NULL, ".", &save))
		parts[np++] = t;
	if (np != 5 || strcmp(parts[4], "pdf") != 0)
		return err_set(ERR_NOT_FOUND, "no such file");
	const char *what = arena_printf(&r->arena, "%s.%s.%s", parts[0], parts[1], parts[2]);
	if (!what)
		return err_set(ERR_INTERNAL, "out of memory");
	if ((rc = content_sig_check(r, what, parts[3])) || (rc = store_space_get(&r->tx, parts[0], &s)) ||
	    (rc = store_revision_get(&r->tx, parts[1], &rv)))
		return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "no such file") : rc;
	const char *page = strcmp(parts[2], "all") == 0 ? NULL : parts[2];
	int only = page && page[0] != '+';
	if (page && page[0] == '+')
		page++;
	if ((rc = pdf_collect(r, rv, page, only, &pages, &n)))
		return rc;
	char path[] = "/tmp/docsd-pdf-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return err_set(ERR_INTERNAL, "cannot make a temporary file");
	close(fd);
	struct pdf_images pi = { r, rv, 0 };
	if (pdf_render(path, s.title, pages, n, pdf_image, &pi)) {
		unlink(path);
		return pi.rc ? pi.rc : err_set(ERR_INTERNAL, "PDF rendering failed");
	}
	if (pi.rc) {
		unlink(path);
		return pi.rc;
	}
	FILE *f = fopen(path, "rb");
	unsigned char *data = NULL;
	long len = -1;
	if (f && fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (data = arena_alloc(&r->arena, (size_t)len + 1)) && fread(data, 1, (size_t)len, f) != (size_t)len)
		data = NULL;
	if (f)
		fclose(f);
	unlink(path);
	if (!data)
		return err_set(ERR_INTERNAL, "reading the rendered PDF failed");
	return resp_bytes(r, 200, "application/pdf", data, (size_t)len);
}
