/*
 * pages_admin_site.c - a site's publishing in the web interface (issue 25,
 * "sites (... publish, visibility, share links ...)"):
 * /o/{organizationId}/sites/{siteId}/settings.
 *
 * Shows whether the site is published, with Publish / Unpublish
 * (dom_site_set_published, publishSite's and unpublishSite's domain
 * function), and its share links (dom_site_share_links_list) with a form to
 * create one (dom_site_share_link_create, a name of at most 50 characters as
 * the API parses it) and a Delete button each (dom_site_share_link_delete).
 * Every one of those needs the site's admin role, which the domain checks;
 * the forms are shown only when the site's `access` (the actor's role on the
 * site, from dom_site_get) is admin. A refusal is rolled back and shown.
 */
#include "app/app.h"
#include "app/pages.h"
#include "domain/orgs.h"
#include "domain/sites.h"
#include "http/form.h"
#include "json/serialize_sites.h"
#include "site/site.h"
#include "util/err.h"
#include "util/text.h"

#include <string.h>

static const char *site_path(struct app_page *p, const char *suffix)
{
	return app_path2(p, "/o/", req_param(p->r, "organizationId"), "/sites/", req_param(p->r, "siteId"), suffix);
}

static int render(struct app_page *p, const char *error)
{
	const char *org_id = req_param(p->r, "organizationId"), *site_id = req_param(p->r, "siteId");
	struct list_req lr = { .limit = 100 };
	struct site_share_link *links = NULL;
	struct site s, s2;
	struct dom_org o;
	char *next = NULL, url[640];
	int n = 0, rc;
	bool admin;
	struct jw *b = p->out;

	if ((rc = dom_org_get(p->d, org_id, &o)) || (rc = dom_site_get(p->d, org_id, site_id, ROLE_READ, false, &s)))
		return rc;
	admin = s.access == ROLE_ADMIN;
	if (admin && (rc = dom_site_share_links_list(p->d, org_id, site_id, &lr, &s2, &links, &n, &next)))
		return rc;
	{
		struct jw h;
		const char *org_href;
		jw_init(&h);
		app_href(&h, "/o/", org_id);
		org_href = jw_ok(&h) ? arena_strndup(&p->r->arena, h.buf, h.len) : "/";
		jw_free(&h);
		struct app_crumb crumbs[] = { { "Home", "/" }, { o.org.title, org_href },
					      { s.title && *s.title ? s.title : "Site", site_path(p, "") },
					      { "Publishing", NULL } };
		app_frame_begin(p, "Publishing", crumbs, 4);
	}
	html_raw(b, "<h1>Publishing</h1>");
	if (error) {
		html_raw(b, "<div class=\"hint hint-danger\" role=\"alert\"><p>");
		app_text(b, error);
		html_raw(b, "</p></div>");
	}
	html_raw(b, "<dl class=\"meta\"><dt>Status</dt><dd>");
	html_raw(b, s.published ? "<span class=\"badge st-open\">published</span>"
				: "<span class=\"badge st-draft\">not published</span>");
	html_raw(b, "</dd><dt>Visibility</dt><dd>");
	app_text(b, s.visibility);
	html_raw(b, "</dd></dl>");
	if (!admin) {
		html_raw(b, "<p class=\"mute\">Only an administrator of this site can publish it or manage its share "
			    "links.</p>");
		app_frame_end(p);
		return 0;
	}
	html_raw(b, "<form method=\"post\" action=\"");
	app_text(b, site_path(p, s.published ? "/unpublish" : "/publish"));
	html_raw(b, "\">");
	app_hidden_csrf(p);
	html_raw(b, s.published ? "<button type=\"submit\">Unpublish</button>" : "<button type=\"submit\">Publish</button>");
	html_raw(b, "</form><h2>Share links</h2><p class=\"mute\">A share link lets anyone who has it read the site "
		    "while its visibility is share-link.</p><form class=\"search\" method=\"post\" action=\"");
	app_text(b, site_path(p, "/share-links"));
	html_raw(b, "\">");
	app_hidden_csrf(p);
	html_raw(b, "<label for=\"share-name\">New share link's name</label><input id=\"share-name\" name=\"name\" "
		    "type=\"text\" maxlength=\"50\"><button type=\"submit\">Create share link</button></form>");
	if (n == 0) {
		html_raw(b, "<p class=\"empty\">No share links.</p>");
		app_frame_end(p);
		return 0;
	}
	html_raw(b, "<div class=\"scroll-x\"><table><thead><tr><th scope=\"col\">Name</th><th scope=\"col\">Link</th>"
		    "<th scope=\"col\">Created</th><th scope=\"col\"><span class=\"mute\">Actions</span></th></tr>"
		    "</thead><tbody>");
	for (int i = 0; i < n; i++) {
		const struct site_share_link *l = &links[i];
		site_published_url(url, sizeof(url) - 128, dom_base_url(p->d), &s);
		html_raw(b, "<tr><td>");
		app_text(b, l->name && *l->name ? l->name : "(no name)");
		if (!l->active)
			html_raw(b, " <span class=\"mute\">(inactive)</span>");
		html_raw(b, "</td><td><code>");
		app_text(b, url);
		html_raw(b, "/~share/");
		app_text(b, l->key);
		html_raw(b, "</code></td><td>");
		app_date(b, l->created_at);
		html_raw(b, "</td><td><form class=\"inline\" method=\"post\" action=\"");
		app_text(b, site_path(p, "/share-links/"));
		app_href(b, "", l->id);
		html_raw(b, "/delete\">");
		app_hidden_csrf(p);
		html_raw(b, "<button type=\"submit\">Delete</button></form></td></tr>");
	}
	html_raw(b, "</tbody></table></div>");
	app_frame_end(p);
	return 0;
}

int page_site_publishing(struct app_page *p)
{
	return render(p, NULL);
}

static int refused(struct app_page *p, int rc)
{
	const char *msg = NULL;

	if ((rc = app_form_refused(p, rc, &msg)))
		return rc;
	return render(p, msg);
}

static int set_published(struct app_page *p, bool on)
{
	struct site s;
	int rc = dom_site_set_published(p->d, req_param(p->r, "organizationId"), req_param(p->r, "siteId"), on, &s);

	if (rc)
		return refused(p, rc);
	p->location = site_path(p, "/settings");
	return 0;
}

int page_site_publish(struct app_page *p)
{
	return set_published(p, true);
}

int page_site_unpublish(struct app_page *p)
{
	return set_published(p, false);
}

int page_site_share_link_create(struct app_page *p)
{
	struct req *r = p->r;
	const char *name = NULL;
	struct site_share_link l;
	struct site s;
	int rc, f = form_field(&r->arena, r->body, r->body_len, "name", &name);

	if (f < 0 || (f == 1 && utf8_len(name) > 50)) {
		p->status = 400;
		return render(p, "name: at most 50 characters");
	}
	rc = dom_site_share_link_create(p->d, req_param(r, "organizationId"), req_param(r, "siteId"), f == 1 ? name : "",
					&s, &l);
	if (rc)
		return refused(p, rc);
	p->location = site_path(p, "/settings");
	return 0;
}

int page_site_share_link_delete(struct app_page *p)
{
	bool deleted = false;
	int rc = dom_site_share_link_delete(p->d, req_param(p->r, "organizationId"), req_param(p->r, "siteId"),
					    req_param(p->r, "shareLinkId"), &deleted);

	if (rc)
		return refused(p, rc);
	if (!deleted)
		return err_set(ERR_NOT_FOUND, "no such share link");
	p->location = site_path(p, "/settings");
	return 0;
}
