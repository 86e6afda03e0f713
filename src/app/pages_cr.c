/*
 * pages_cr.c - a space's change requests (/s/{spaceId}/~/changes, filtered
 * by ?status=open|draft|merged|archived), one change request read-only
 * (/s/{spaceId}/~/changes/{number}: a change request's `urls.app`,
 * json/serialize_content.c) and the space's history (/s/{spaceId}/~/history:
 * the merged change requests, newest first, with the revision each made).
 *
 * The domain functions are listChangeRequests', getChangeRequestById's and
 * getChangeRequestChanges' (dom_cr_list, dom_cr_get, dom_cr_changes).
 */
#include "app/pages.h"
#include "app/pages_write.h"
#include "app/pages_review.h"
#include "domain/content.h"
#include "json/serialize_cr.h"
#include "site/site.h"
#include "util/err.h"

#include <stdio.h>
#include <string.h>

/* The pages of a change request shown (the rest is counted). */
#define CR_CHANGES_SHOWN 500

static const char *const statuses[] = { "open", "draft", "merged", "archived", NULL };
static const char *const status_labels[] = { "Open", "Draft", "Merged", "Archived" };

/* The trail: Home, the space, the change requests (a link when a change
 * request is shown: title, else the current page). */
static void crumbs_for(struct app_page *p, const struct space *s, const char *title, bool list_link)
{
	struct jw h;
	const char *space_href, *list_href;

	jw_init(&h);
	app_href(&h, "/s/", s->id);
	space_href = jw_ok(&h) ? arena_strndup(&p->r->arena, h.buf, h.len) : "/";
	html_raw(&h, "/~/changes");
	list_href = jw_take(&h, &p->r->arena, "/");
	struct app_crumb crumbs[] = {
		{ "Home", "/" },
		{ s->title && *s->title ? s->title : "Untitled space", space_href },
		{ "Change requests", list_link ? list_href : NULL },
		{ title, NULL },
	};
	app_frame_begin(p, title, crumbs, list_link ? 4 : 3);
}

static void cr_row(struct jw *b, const struct space *s, const struct change_request *cr)
{
	char num[32];

	snprintf(num, sizeof(num), "%lld", (long long)cr->number);
	html_raw(b, "<tr><td><a href=\"");
	app_href(b, "/s/", s->id);
	html_raw(b, "/~/changes/");
	html_raw(b, num);
	html_raw(b, "\">#");
	html_raw(b, num);
	html_raw(b, " ");
	app_text(b, cr->subject && *cr->subject ? cr->subject : "Untitled change request");
	html_raw(b, "</a></td><td>");
	app_text(b, cr->created_by.display_name);
	html_raw(b, "</td><td>");
	app_date(b, cr->updated_at);
	html_raw(b, "</td></tr>");
}

int page_crs(struct app_page *p)
{
	const char *id = req_param(p->r, "spaceId");
	struct list_req lr;
	struct cursor cur;
	struct cr_filter f = { .status = "open" };
	struct change_request *items = NULL;
	struct space s;
	char *next = NULL;
	int n = 0, st = -1, rc;
	struct jw *b = p->out;

	if ((rc = app_list(p, &lr, &cur, 1)) || (rc = req_query_enum(p->r, "status", statuses, &st)))
		return rc;
	if (st >= 0)
		f.status = statuses[st];
	if ((rc = dom_cr_list(p->d, id, &f, &lr, &s, &items, &n, &next)))
		return rc;
	crumbs_for(p, &s, "Change requests", false);
	html_raw(b, "<h1>Change requests</h1><ul class=\"tabs\" aria-label=\"Status\">");
	for (int i = 0; statuses[i]; i++) {
		html_raw(b, "<li><a href=\"");
		app_href(b, "/s/", s.id);
		html_raw(b, "/~/changes?status=");
		html_raw(b, statuses[i]);
		html_raw(b, "\"");
		if (strcmp(f.status, statuses[i]) == 0)
			html_raw(b, " aria-current=\"page\"");
		html_raw(b, ">");
		html_raw(b, status_labels[i]);
		html_raw(b, "</a></li>");
	}
	html_raw(b, "</ul>");
	if (n == 0) {
		html_raw(b, "<p class=\"empty\">No ");
		html_raw(b, f.status);
		html_raw(b, " change requests in this space.</p>");
	} else {
		html_raw(b, "<table><thead><tr><th scope=\"col\">Change request</th><th scope=\"col\">Author</th>"
			    "<th scope=\"col\">Updated</th></tr></thead><tbody>");
		for (int i = 0; i < n; i++)
			cr_row(b, &s, &items[i]);
		html_raw(b, "</tbody></table>");
	}
	{
		static const char *const keep[] = { "status", NULL };
		app_pager(p, app_path(p, "/s/", s.id, "/~/changes"), keep, next, "Older change requests");
	}
	app_frame_end(p);
	return 0;
}

static const char *change_label(enum cr_change_kind k)
{
	switch (k) {
	case CR_PAGE_CREATED: return "added";
	case CR_PAGE_EDITED: return "edited";
	case CR_PAGE_DELETED: return "deleted";
	case CR_PAGE_MOVED: return "moved";
	case CR_FILE_CREATED: return "file added";
	case CR_FILE_EDITED: return "file changed";
	case CR_FILE_DELETED: return "file deleted";
	}
	return "changed";
}

int page_cr(struct app_page *p)
{
	const char *id = req_param(p->r, "spaceId"), *number = req_param(p->r, "number");
	struct change_request cr;
	struct cr_changes ch;
	struct space s;
	struct jw *b = p->out;
	char num[32];
	int rc;

	/* Only a number names a change request here (its urls.app); an id
	 * would be a second URL for the same page. */
	for (const char *c = number; *c; c++)
		if (*c < '0' || *c > '9')
			return err_set(ERR_NOT_FOUND, "not found");
	if ((rc = dom_cr_get(p->d, id, number, &s, &cr)) ||
	    (rc = dom_cr_changes(p->d, id, number, CR_CHANGES_SHOWN, &ch)))
		return rc;
	snprintf(num, sizeof(num), "#%lld", (long long)cr.number);
	crumbs_for(p, &s, cr.subject && *cr.subject ? cr.subject : num, true);
	html_raw(b, "<h1>");
	app_text(b, cr.subject && *cr.subject ? cr.subject : "Untitled change request");
	html_raw(b, " <span class=\"mute\">");
	html_raw(b, num);
	html_raw(b, "</span></h1><dl class=\"meta\"><dt>Status</dt><dd><span class=\"badge st-");
	app_text(b, cr.status);
	html_raw(b, "\">");
	app_text(b, cr.status);
	html_raw(b, "</span></dd><dt>Author</dt><dd>");
	app_text(b, cr.created_by.display_name);
	html_raw(b, "</dd><dt>Created</dt><dd>");
	app_date(b, cr.created_at);
	html_raw(b, "</dd><dt>Updated</dt><dd>");
	app_date(b, cr.updated_at);
	html_raw(b, "</dd>");
	if (cr.comments > 0) {
		char c[32];
		snprintf(c, sizeof(c), "%lld", (long long)cr.comments);
		html_raw(b, "<dt>Open comments</dt><dd>");
		html_raw(b, c);
		html_raw(b, "</dd>");
	}
	html_raw(b, "</dl>");
	app_write_cr_link(p, &s, &cr); /* members who may edit (pages_write.c) */
	html_raw(b, "<h2>Changes</h2>");
	if (ch.n == 0) {
		html_raw(b, "<p class=\"empty\">This change request changes nothing yet.</p>");
	} else {
		html_raw(b, "<table><thead><tr><th scope=\"col\">Page or file</th><th scope=\"col\">Change</th>"
			    "</tr></thead><tbody>");
		for (int i = 0; i < ch.n; i++) {
			const struct cr_change *c = &ch.items[i];
			html_raw(b, "<tr><td>");
			if (c->page && c->kind != CR_PAGE_DELETED && c->page->type != PAGE_LINK) {
				/* The page as the change request has it. */
				html_raw(b, "<a href=\"");
				app_href(b, "/s/", s.id);
				html_raw(b, "/~/changes/");
				html_raw(b, num + 1);
				html_raw(b, "/");
				url_path_enc(b, c->page->path ? c->page->path : c->page->slug);
				html_raw(b, "\">");
				app_text(b, c->page->title && *c->page->title ? c->page->title : "Untitled");
				html_raw(b, "</a>");
				html_raw(b, " <span class=\"mute\">");
				app_text(b, c->page->path ? c->page->path : c->page->slug);
				html_raw(b, "</span>");
			} else if (c->page) {
				app_text(b, c->page->title && *c->page->title ? c->page->title : "Untitled");
				html_raw(b, " <span class=\"mute\">");
				app_text(b, c->page->path ? c->page->path : c->page->slug);
				html_raw(b, "</span>");
			} else if (c->file) {
				app_text(b, c->file->name);
			}
			if (c->kind == CR_PAGE_EDITED && c->was && c->page && c->was->title && c->page->title &&
			    strcmp(c->was->title, c->page->title) != 0) {
				html_raw(b, " <span class=\"mute\">(was ");
				app_text(b, c->was->title);
				html_raw(b, ")</span>");
			}
			html_raw(b, "</td><td>");
			html_raw(b, change_label(c->kind));
			html_raw(b, "</td></tr>");
		}
		html_raw(b, "</tbody></table>");
		if (ch.more > 0)
			html_raw(b, "<p class=\"mute\">More changes are not listed here; the API lists them all.</p>");
	}
	/* Differences, merge, reviews and comments (pages_review.c). */
	if ((rc = review_sections(p, &s, &cr, &ch)))
		return rc;
	app_frame_end(p);
	return 0;
}

int page_history(struct app_page *p)
{
	const char *id = req_param(p->r, "spaceId");
	struct list_req lr;
	struct cursor cur;
	struct cr_filter f = { .status = "merged" };
	struct change_request *items = NULL;
	struct space s;
	char *next = NULL;
	int n = 0, rc;
	struct jw *b = p->out;

	if ((rc = app_list(p, &lr, &cur, 1)) || (rc = dom_cr_list(p->d, id, &f, &lr, &s, &items, &n, &next)))
		return rc;
	{
		struct jw h;
		const char *space_href;
		jw_init(&h);
		app_href(&h, "/s/", s.id);
		space_href = jw_take(&h, &p->r->arena, "/");
		struct app_crumb crumbs[] = {
			{ "Home", "/" },
			{ s.title && *s.title ? s.title : "Untitled space", space_href },
			{ "History", NULL },
		};
		app_frame_begin(p, "History", crumbs, 3);
	}
	html_raw(b, "<h1>History</h1><p class=\"mute\">The change requests merged into this space, newest first. "
		    "Edits made directly through the API or Git sync are revisions of their own, listed by the API "
		    "(<code>GET /v1/spaces/{spaceId}/revisions/{revisionId}</code>).</p>");
	if (n == 0) {
		html_raw(b, "<p class=\"empty\">Nothing has been merged into this space yet.</p>");
	} else {
		html_raw(b, "<table><thead><tr><th scope=\"col\">Change request</th><th scope=\"col\">Author</th>"
			    "<th scope=\"col\">Merged</th></tr></thead><tbody>");
		for (int i = 0; i < n; i++)
			cr_row(b, &s, &items[i]);
		html_raw(b, "</tbody></table>");
	}
	app_pager(p, app_path(p, "/s/", s.id, "/~/history"), NULL, next, "Older");
	app_frame_end(p);
	return 0;
}
