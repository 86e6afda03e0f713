/*
 * revisions.c - reading content: a revision, its pages and files, one page
 * (markdown or GitBook's document), links and backlinks, file bytes and PDFs.
 *
 * The same handlers serve the space's current revision, a change request's
 * head and any revision by id: the route's {changeRequestId} or {revisionId}
 * says which (dom_content_source). Revisions come from the revision cache, so
 * a page read is a lookup in memory plus one read of the page's body.
 */
#include "api/content.h"
#include "json/serialize_content.h"
#include "json/serialize_cr.h"
#include "domain/content.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const link_statuses[] = { "ok", "broken", "in-app", NULL };

/* GitBook's content reads name three boolean query parameters: `metadata`
 * (false leaves out Git metadata: the `git` of revisions, pages and files),
 * `computed` (false: content is not computed) and `evaluated` (true
 * evaluates expressions and variables in a page). `evaluated` switches
 * nothing docsd has yet; with `computed`, a computed page read alone
 * (send_page) carries its computed markdown unless computed=false. All are
 * checked, a value other than true/false being a 400, so a caller's typo is
 * not silently taken. */
static int content_flags(struct req *r)
{
	static const char *const bools[] = { "false", "true", NULL };
	static const char *const names[] = { "metadata", "computed", "evaluated" };
	int v, rc;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if ((rc = req_query_enum(r, names[i], bools, &v)))
			return rc;
	return 0;
}

/* `metadata`: true unless the read asked for false (checked by content_flags). */
static int with_metadata(struct req *r)
{
	static const char *const bools[] = { "false", "true", NULL };
	int v;

	return req_query_enum(r, "metadata", bools, &v) || v != 0;
}

/* How pages are written; bodies: the markdown of the pages shown, which the
 * domain loaded (a body that cannot be read failed the domain call: a
 * missing row is a broken revision, 500, not an empty page). */
static struct page_json page_opts(struct req *r, const char *space_id, const char *const *bodies)
{
	return (struct page_json){ .base = api_base(r), .space_id = space_id, .children = 1, .bodies = bodies,
				   .no_git = !with_metadata(r) };
}

int api_content_revision_get(struct req *r)
{
	struct dom_revision rv;
	struct page_json o;
	int rc;
	struct jw *g;

	if ((rc = content_flags(r)) ||
	    (rc = dom_revision_get(&r->dom, req_param(r, "spaceId"), req_param(r, "changeRequestId"),
				   req_param(r, "revisionId"), &rv)))
		return rc;
	g = resp_json(r, 200);
	o = page_opts(r, rv.src.space.id, rv.bodies);
	return revision_to_json(g, api_base(r), rv.src.rv, rv.have_origin ? &rv.origin : NULL, rv.src.space.revision,
				rv.file_urls, &o);
}

int api_content_pages_list(struct req *r)
{
	struct dom_pages pg;
	struct page_json o;
	int rc;
	struct jw *g;

	if ((rc = content_flags(r)) ||
	    (rc = dom_pages_get(&r->dom, req_param(r, "spaceId"), req_param(r, "changeRequestId"),
				req_param(r, "revisionId"), &pg)))
		return rc;
	g = resp_json(r, 200);
	o = page_opts(r, pg.src.space.id, pg.bodies);
	return pages_to_json(g, pg.src.rv, &o);
}

int api_content_files_list(struct req *r)
{
	struct dom_file_list l;
	struct list_req lr;
	struct cursor cur;
	const char *next = NULL;
	int rc, git;
	struct jw *g;

	if ((rc = req_list(r, &lr, &cur, NULL, 0)) || (rc = content_flags(r)) ||
	    (rc = dom_files_list(&r->dom, req_param(r, "spaceId"), req_param(r, "changeRequestId"),
				 req_param(r, "revisionId"), &lr, &l)))
		return rc;
	if (l.more && !(next = cursor_encode(&r->arena, "0", l.files[l.n - 1].id)))
		return err_set(ERR_INTERNAL, "cannot encode the page cursor");
	g = resp_list_begin(r);
	git = with_metadata(r);
	for (int i = 0; i < l.n; i++)
		file_to_json_meta(g, &l.files[i], l.urls[i], git);
	return resp_list_end(r, l.src.rv->nfiles, next);
}

int api_content_file_get(struct req *r)
{
	struct dom_file f;
	int rc;
	struct jw *g;

	if ((rc = content_flags(r)) ||
	    (rc = dom_file_get(&r->dom, req_param(r, "spaceId"), req_param(r, "changeRequestId"),
			       req_param(r, "revisionId"), req_param(r, "fileId"), &f)))
		return rc;
	g = resp_json(r, 200);
	file_to_json_meta(g, f.file, f.url, with_metadata(r));
	return 0;
}

/* getPageById (page_id) and getPageByPath (page_path). A bad `format` answers
 * 400 once the page is found (an unknown page is a 404 first), and nothing
 * is loaded for it: the domain reads the page's body only with a valid one. */
static int send_page(struct req *r, const char *page_id, const char *page_path)
{
	static const char *const formats[] = { "document", "markdown", NULL };
	const char *computed = req_query(r, "computed");
	struct dom_page pg;
	struct page_json o;
	int format, rc;
	bool load = req_query_enum(r, "format", formats, &format) == 0;
	struct jw *g;

	if ((rc = content_flags(r)) ||
	    (rc = dom_page_get(&r->dom, req_param(r, "spaceId"), req_param(r, "changeRequestId"),
			       req_param(r, "revisionId"), page_id, page_path, !(computed && strcmp(computed, "false") == 0),
			       load, &pg)) ||
	    (rc = req_query_enum(r, "format", formats, &format)))
		return rc;
	g = resp_json(r, 200);
	o = page_opts(r, pg.src.space.id, pg.bodies);
	o.markdown = pg.markdown;
	o.as_document = format == 0;
	o.computed_as_document = page_path != NULL;
	return page_to_json(g, pg.src.rv, pg.page, &o);
}

int api_content_page_get(struct req *r)
{
	return send_page(r, req_param(r, "pageId"), NULL);
}

int api_content_page_by_path(struct req *r)
{
	return send_page(r, NULL, req_param(r, "pagePath"));
}

/* ---- links ---- */

/* In-memory lists page by index (dom_links): the cursor is the index of the
 * next item. */
static const char *slice_next(struct req *r, int start, int count, int total)
{
	char idx[16];

	if (start + count >= total)
		return NULL;
	snprintf(idx, sizeof(idx), "%d", start + count);
	return cursor_encode(&r->arena, "0", idx);
}

static void locations(struct req *r, const struct content_src *src, const struct org *org,
		      const char *const *bodies, struct location_ctx *lc)
{
	*lc = (struct location_ctx){ .base = api_base(r), .org = org, .standing = &r->dom.actor.org,
				     .space = &src->space, .rv = src->rv, .pages = page_opts(r, src->space.id, bodies) };
	lc->pages.children = 0;
}

/* listPageLinksInSpace (page_id) and listSpaceLinks (NULL). */
static int send_links(struct req *r, const char *page_id)
{
	struct link_list l;
	struct location_ctx lc;
	struct list_req lr;
	struct cursor cur;
	struct jw *g;
	int rc, want;

	if ((rc = req_list(r, &lr, &cur, NULL, 0)) || (rc = req_query_enum(r, "status", link_statuses, &want)) ||
	    (rc = dom_links(&r->dom, req_param(r, "spaceId"), req_param(r, "changeRequestId"),
			    req_param(r, "revisionId"), page_id, want < 0 ? NULL : link_statuses[want], &lr, &l)))
		return rc;
	locations(r, &l.src, &l.org, l.bodies, &lc);
	g = resp_list_begin(r);
	for (int i = l.start; i < l.start + l.shown; i++)
		if ((rc = link_to_json(g, &lc, l.items[i].from, &l.items[i].t)))
			return rc;
	/* The stats sit beside the items; resp_list_end_open closes the object. */
	link_stats_to_json(g, l.total, l.broken, page_id == NULL);
	return resp_list_end_open(r, l.n, slice_next(r, l.start, l.shown, l.n));
}

int api_content_page_links(struct req *r)
{
	return send_links(r, req_param(r, "pageId"));
}

int api_content_space_links(struct req *r)
{
	return send_links(r, NULL);
}

/* Pages of the revision whose bodies link to a page or a file. */
static int send_backlinks(struct req *r, int file)
{
	struct backlink_list b;
	struct location_ctx lc;
	struct list_req lr;
	struct cursor cur;
	struct jw *g;
	int rc;

	if ((rc = req_list(r, &lr, &cur, NULL, 0)) ||
	    (rc = dom_backlinks(&r->dom, req_param(r, "spaceId"), req_param(r, "changeRequestId"),
				req_param(r, "revisionId"), file, req_param(r, file ? "fileId" : "pageId"), &lr, &b)))
		return rc;
	locations(r, &b.src, &b.org, b.bodies, &lc);
	g = resp_list_begin(r);
	for (int i = b.start; i < b.start + b.shown; i++)
		if ((rc = location_to_json(g, &lc, b.pages[i], NULL, NULL, NULL)))
			return rc;
	return resp_list_end(r, b.n, slice_next(r, b.start, b.shown, b.n));
}

int api_content_page_backlinks(struct req *r)
{
	return send_backlinks(r, 0);
}

int api_content_file_backlinks(struct req *r)
{
	return send_backlinks(r, 1);
}

/* ---- bytes ---- */

/* A signed URL's bytes with the headers domain/content.h chose. The URL
 * expires: caches keep it no longer, and only for this client. */
static int send_download(struct req *r, const struct dom_download *dl)
{
	const char *cc = arena_printf(&r->arena, "private, max-age=%lld", (long long)(dl->max_age > 0 ? dl->max_age : 0));

	resp_header(r, "X-Content-Type-Options", "nosniff");
	resp_header(r, "Content-Security-Policy", dl->csp);
	resp_header(r, "Content-Disposition", dl->disposition);
	resp_header(r, "Cache-Control", cc);
	return resp_bytes(r, 200, dl->content_type, dl->data, dl->len);
}

/* /files/<space>.<revision>.<file>.<expires>.<sig> */
int api_content_blob_get(struct req *r)
{
	struct dom_download dl;
	int rc = dom_file_download(&r->dom, req_param(r, "blob"), &dl);

	return rc ? rc : send_download(r, &dl);
}

/* ---- PDF ---- */

/* getSpacePDF and getChangeRequestPDF. */
int api_content_space_pdf(struct req *r)
{
	const char *page = req_query(r, "page"), *only = req_query(r, "only"), *url;
	struct jw *g;
	int rc;

	if (only && strcmp(only, "true") != 0 && strcmp(only, "false") != 0)
		return err_set(ERR_INVALID, "only: must be true or false");
	if ((rc = dom_pdf_link(&r->dom, req_param(r, "spaceId"), req_param(r, "changeRequestId"), page,
			       only && strcmp(only, "true") == 0, &url)))
		return rc;
	g = resp_json(r, 200);
	url_to_json(g, url);
	return 0;
}

int api_content_cr_pdf(struct req *r)
{
	return api_content_space_pdf(r);
}

/* /pdf/<space>.<revision>.<page|+page|all>.<expires>.<sig>.pdf */
int api_content_pdf_get(struct req *r)
{
	struct dom_download dl;
	int rc = dom_pdf_render(&r->dom, req_param(r, "pdf"), &dl);

	if (rc)
		return rc;
	resp_header(r, "X-Cache", dl.cached ? "hit" : "miss");
	return send_download(r, &dl);
}
