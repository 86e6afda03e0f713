/*
 * pages_org.c - an organization's search (/o/{organizationId}/search?q=)
 * and a site's page (/o/{organizationId}/sites/{siteId}: a site's
 * `urls.app`, json/serialize_sites.c).
 *
 * Search is searchContent's domain function (dom_search_org: the spaces
 * the member reads, by their best page); the site page is getSiteById's and
 * getSiteStructure's (dom_site_get, dom_site_structure), read-only.
 */
#include "app/pages.h"
#include "domain/comments.h"
#include "domain/orgs.h"
#include "domain/sites.h"
#include "json/serialize_sites.h"
#include "site/site.h"
#include "util/err.h"

#include <string.h>

static const char *org_href(struct app_page *p, const char *org_id)
{
	struct jw h;
	const char *out;

	jw_init(&h);
	app_href(&h, "/o/", org_id);
	out = jw_take(&h, &p->r->arena, "/");
	return out;
}

/* The search box (also on the organization's page, pages_home.c). */
void app_search_form(struct jw *b, const char *org_id, const char *q)
{
	html_raw(b, "<form class=\"search\" role=\"search\" method=\"get\" action=\"");
	app_href(b, "/o/", org_id);
	/* Home has one box per organization: each label names its own input. */
	html_raw(b, "/search\"><label for=\"q-");
	app_text(b, org_id);
	html_raw(b, "\">Search this organization</label><input id=\"q-");
	app_text(b, org_id);
	html_raw(b, "\" name=\"q\" type=\"search\" maxlength=\"512\" value=\"");
	app_text(b, q ? q : "");
	html_raw(b, "\"><button type=\"submit\">Search</button></form>");
}

int page_search(struct app_page *p)
{
	const char *org_id = req_param(p->r, "organizationId"), *q = req_query(p->r, "q");
	struct list_req lr = { .limit = 20 };
	struct search_space *items = NULL;
	struct dom_org o;
	char *next = NULL;
	int n = 0, rc;
	struct jw *b = p->out;

	if ((rc = dom_org_get(p->d, org_id, &o)))
		return rc;
	/* An empty box shows the form; anything else is the API's query, whose
	 * rules (length, white space) answer the 400 page. */
	if (q && *q && (rc = dom_search_org(p->d, org_id, q, &lr, &items, &n, &next)))
		return rc;
	{
		struct app_crumb crumbs[] = { { "Home", "/" }, { o.org.title, org_href(p, org_id) }, { "Search", NULL } };
		app_frame_begin(p, q && *q ? q : "Search", crumbs, 3);
	}
	html_raw(b, "<h1>Search</h1>");
	app_search_form(b, org_id, q);
	if (!q || !*q) {
		app_frame_end(p);
		return 0;
	}
	if (n == 0) {
		html_raw(b, "<p class=\"empty\">No page you can read matches <strong>");
		app_text(b, q);
		html_raw(b, "</strong>.</p>");
	}
	for (int i = 0; i < n; i++) {
		const struct search_space *sp = &items[i];
		html_raw(b, "<section class=\"hits\"><h2><a href=\"");
		app_href(b, "/s/", sp->id);
		html_raw(b, "\">");
		app_text(b, sp->title && *sp->title ? sp->title : "Untitled space");
		html_raw(b, "</a></h2><ul class=\"list\">");
		for (int j = 0; j < sp->npages; j++) {
			const struct search_page *pg = &sp->pages[j];
			html_raw(b, "<li><a href=\"");
			app_href(b, "/s/", sp->id);
			html_raw(b, "/");
			url_path_enc(b, pg->path);
			html_raw(b, "\">");
			app_text(b, pg->title && *pg->title ? pg->title : "Untitled");
			html_raw(b, "</a>");
			if (pg->nsections > 0 && pg->sections[0].body && *pg->sections[0].body) {
				html_raw(b, "<p class=\"mute excerpt\">");
				app_text(b, pg->sections[0].body);
				html_raw(b, "</p>");
			}
			html_raw(b, "</li>");
		}
		html_raw(b, "</ul></section>");
	}
	if (next)
		html_raw(b, "<p class=\"mute\">Only the best 20 spaces are shown: make the query more precise.</p>");
	app_frame_end(p);
	return 0;
}

static void site_space_item(struct jw *b, const struct site_space *ss)
{
	html_raw(b, "<li><a href=\"");
	app_href(b, "/s/", ss->space_id);
	html_raw(b, "\">");
	app_emoji(b, ss->space.emoji);
	app_text(b, ss->space.title && *ss->space.title ? ss->space.title : "Untitled space");
	html_raw(b, "</a>");
	if (ss->is_default)
		html_raw(b, "<span class=\"kind\">default</span>");
	html_raw(b, "</li>");
}

int page_site(struct app_page *p)
{
	const char *org_id = req_param(p->r, "organizationId"), *site_id = req_param(p->r, "siteId");
	struct site s;
	struct site_structure st;
	struct dom_org o;
	char url[1024];
	struct jw *b = p->out;
	int rc;

	if ((rc = dom_site_get(p->d, org_id, site_id, ROLE_READ, false, &s)) || (rc = dom_site_structure(p->d, &s, &st)) ||
	    (rc = dom_org_get(p->d, org_id, &o)))
		return rc;
	{
		struct app_crumb crumbs[] = { { "Home", "/" }, { o.org.title, org_href(p, org_id) }, { s.title, NULL } };
		app_frame_begin(p, s.title && *s.title ? s.title : "Site", crumbs, 3);
	}
	html_raw(b, "<h1>");
	app_text(b, s.title && *s.title ? s.title : "Untitled site");
	html_raw(b, "</h1><dl class=\"meta\"><dt>Published</dt><dd>");
	if (s.published) {
		site_published_url(url, sizeof(url), server_site_url(p->r->srv), &s);
		html_raw(b, "<a href=\"");
		html_url(b, url);
		html_raw(b, "\">");
		app_text(b, url);
		html_raw(b, "</a>");
	} else {
		html_raw(b, "not published");
	}
	html_raw(b, "</dd><dt>Visibility</dt><dd>");
	app_text(b, s.visibility);
	html_raw(b, "</dd></dl><p class=\"actions\"><a href=\"");
	app_href(b, "/o/", org_id);
	app_href(b, "/sites/", req_param(p->r, "siteId"));
	html_raw(b, "/settings\">Settings and publishing</a><a href=\""); /* pages_admin_site.c */
	app_href(b, "/o/", org_id);
	app_href(b, "/sites/", req_param(p->r, "siteId"));
	html_raw(b, "/structure\">Spaces and sections</a><a href=\""); /* pages_site_structure.c */
	app_href(b, "/o/", org_id);
	app_href(b, "/sites/", req_param(p->r, "siteId"));
	html_raw(b, "/customization\">Customization</a></p>");
	html_raw(b, "<h2>Content</h2>");
	if (st.nsections == 0 && st.nroot == 0)
		html_raw(b, "<p class=\"empty\">This site shows no space yet.</p>");
	if (st.nroot > 0) {
		html_raw(b, "<ul class=\"list\">");
		for (int i = 0; i < st.nroot; i++)
			site_space_item(b, &st.root[i]);
		html_raw(b, "</ul>");
	}
	for (int i = 0; i < st.nsections; i++) {
		const struct site_section *sec = &st.sections[i];
		html_raw(b, "<h3>");
		app_text(b, sec->title && *sec->title ? sec->title : "Untitled section");
		html_raw(b, "</h3>");
		if (sec->nspaces == 0) {
			html_raw(b, "<p class=\"mute\">No space in this section.</p>");
			continue;
		}
		html_raw(b, "<ul class=\"list\">");
		for (int j = 0; j < sec->nspaces; j++)
			site_space_item(b, &sec->spaces[j]);
		html_raw(b, "</ul>");
	}
	app_frame_end(p);
	return 0;
}
