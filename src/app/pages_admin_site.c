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
 *
 * The same page has the site's general settings (title and visibility,
 * updateSiteById's fields as api/sites.c parses them: title 2..128
 * characters, visibility one of GitBook's four) saved with dom_site_update;
 * and creating a site (createSite's dom_site_create: the create role in the
 * organization, which the domain checks): the form on the organization's
 * page (app_site_create_form) and /o/{organizationId}/sites/new, POST
 * /o/{organizationId}/sites, then the new site's settings. The structure
 * and the customization are pages_site_structure.c's.
 *
 * The general form also has the basename and the host name (updateSiteById's
 * basename 1..100 and docsd's hostname 1..253): their rules are the domain's
 * (dom_site_basename_check, dom_site_hostname_check, which the API's parse
 * calls too, so the 400 says the same), their uniqueness dom_site_update's
 * (409). An empty basename leaves it (the API cannot remove one), an empty
 * host name removes it. The page shows the published URL that results
 * (site_published_url, the API's urls.published).
 *
 * Deleting the site (deleteSiteById's dom_site_delete, admin): POST
 * .../delete with the box "I understand" ticked (confirm=yes; else a 400 and
 * nothing deleted), then 303 to the organization's page. A site that is not
 * there is the 404 page (the API answers an admin's missing site with 204).
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

/* On a refused POST, what the form sent for name (nothing typed is lost);
 * else current. */
static const char *sent(struct app_page *p, const char *name, const char *current)
{
	const char *v = NULL;

	if (strcmp(p->r->method, "POST") == 0 &&
	    form_field(&p->r->arena, p->r->body, p->r->body_len, name, &v) == 1)
		return v;
	return current;
}

/* Deleting the site (admins): a box to tick, then the button; without the
 * tick the POST is a 400 and nothing is deleted (no script needed). */
static void delete_form(struct app_page *p, const struct site *s)
{
	struct jw *b = p->out;

	html_raw(b, "<h2>Delete this site</h2><div class=\"hint hint-danger\"><p>Deleting the site removes its "
		    "structure, customization and share links, and stops serving it. Its spaces are kept.</p>"
		    "<form method=\"post\" action=\"");
	app_text(b, site_path(p, "/delete"));
	html_raw(b, "\">");
	app_hidden_csrf(p);
	html_raw(b, "<p><input id=\"site-delete-confirm\" name=\"confirm\" type=\"checkbox\" value=\"yes\" required>"
		    "<label for=\"site-delete-confirm\"> I understand: delete the site ");
	app_text(b, s->title && *s->title ? s->title : s->id);
	html_raw(b, "</label></p><p><button type=\"submit\">Delete site</button></p></form></div>");
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
		org_href = jw_take(&h, &p->r->arena, "/");
		struct app_crumb crumbs[] = { { "Home", "/" }, { o.org.title, org_href },
					      { s.title && *s.title ? s.title : "Site", site_path(p, "") },
					      { "Settings", NULL } };
		app_frame_begin(p, "Site settings", crumbs, 4);
	}
	html_raw(b, "<h1>Site settings</h1>");
	app_error_box(b, error);
	html_raw(b, "<dl class=\"meta\"><dt>Status</dt><dd>");
	html_raw(b, s.published ? "<span class=\"badge st-open\">published</span>"
				: "<span class=\"badge st-draft\">not published</span>");
	html_raw(b, "</dd><dt>Visibility</dt><dd>");
	app_text(b, s.visibility);
	/* Where it is (or will be) served: its hostname, else its basename or
	 * id under the server's address (site_published_url, the API's
	 * urls.published). */
	site_published_url(url, sizeof(url), server_site_url(p->r->srv), &s);
	html_raw(b, "</dd><dt>Published URL</dt><dd><code>");
	app_text(b, url);
	html_raw(b, "</code>");
	if (!s.published)
		html_raw(b, " <span class=\"mute\">(once published)</span>");
	html_raw(b, "</dd></dl>");
	if (!admin) {
		html_raw(b, "<p class=\"mute\">Only an administrator of this site can change its settings, publish it or "
			    "manage its share links.</p><p class=\"actions\"><a href=\"");
		app_text(b, site_path(p, "/structure"));
		html_raw(b, "\">Spaces and sections</a><a href=\"");
		app_text(b, site_path(p, "/customization"));
		html_raw(b, "\">Customization</a></p>");
		app_frame_end(p);
		return 0;
	}
	html_raw(b, "<p class=\"actions\"><a href=\"");
	app_text(b, site_path(p, "/structure"));
	html_raw(b, "\">Spaces and sections</a><a href=\"");
	app_text(b, site_path(p, "/customization"));
	html_raw(b, "\">Customization</a></p><h2>General</h2><form method=\"post\" action=\"");
	app_text(b, site_path(p, "/settings"));
	html_raw(b, "\">");
	app_hidden_csrf(p);
	html_raw(b, "<p><label for=\"site-title\">Title</label><br><input id=\"site-title\" name=\"title\" type=\"text\" "
		    "minlength=\"2\" maxlength=\"128\" value=\"");
	app_text(b, sent(p, "title", s.title ? s.title : ""));
	html_raw(b, "\"></p><p><label for=\"site-visibility\">Visibility</label><br><select id=\"site-visibility\" "
		    "name=\"visibility\">");
	for (int i = 0; site_visibilities[i]; i++) {
		html_raw(b, "<option value=\"");
		html_raw(b, site_visibilities[i]);
		html_raw(b, s.visibility && strcmp(s.visibility, site_visibilities[i]) == 0 ? "\" selected>" : "\">");
		html_raw(b, site_visibilities[i]);
		html_raw(b, "</option>");
	}
	html_raw(b, "</select></p><p class=\"mute\">share-link: readers need a share link below; visitor-auth: a "
		    "signed token from your own sign-in (the API's publishing auth).</p><p><label for=\"site-basename\">"
		    "Basename (the published URL's last segment; empty: unchanged)</label><br><input id=\"site-basename\" "
		    "name=\"basename\" type=\"text\" maxlength=\"100\" aria-describedby=\"site-basename-hint\" value=\"");
	app_text(b, sent(p, "basename", s.basename ? s.basename : ""));
	html_raw(b, "\"><br><span id=\"site-basename-hint\" class=\"mute\">Letters, digits, '.', '_' and '-'; unique "
		    "across this server.</span></p><p><label for=\"site-hostname\">Host name (the site is served at its "
		    "root; empty: none)</label><br><input id=\"site-hostname\" name=\"hostname\" type=\"text\" "
		    "maxlength=\"253\" placeholder=\"docs.example.com\" value=\"");
	app_text(b, sent(p, "hostname", s.hostname ? s.hostname : ""));
	html_raw(b, "\"></p><p><button type=\"submit\">Save</button></p></form><h2>Publishing</h2><form method=\"post\" "
		    "action=\"");
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
		delete_form(p, &s);
		app_frame_end(p);
		return 0;
	}
	html_raw(b, "<div class=\"scroll-x\"><table><thead><tr><th scope=\"col\">Name</th><th scope=\"col\">Link</th>"
		    "<th scope=\"col\">Created</th><th scope=\"col\"><span class=\"mute\">Actions</span></th></tr>"
		    "</thead><tbody>");
	for (int i = 0; i < n; i++) {
		const struct site_share_link *l = &links[i];
		site_published_url(url, sizeof(url) - 128, server_site_url(p->r->srv), &s);
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
	delete_form(p, &s);
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

int page_site_settings_save(struct app_page *p)
{
	struct req *r = p->r;
	struct site_update in;
	const char *bad = NULL, *vis = NULL;
	struct site s;
	int rc, i, fh;

	memset(&in, 0, sizeof(in));
	if (app_form_text(p, "title", SITE_TITLE_MIN, SITE_TITLE_MAX, &in.title, &bad) < 0 ||
	    app_form_text(p, "visibility", 1, 64, &vis, &bad) < 0 ||
	    app_form_text(p, "basename", 0, 100, &in.basename, &bad) < 0 ||
	    (fh = app_form_text(p, "hostname", 0, 253, &in.hostname, &bad)) < 0) {
		p->status = 400;
		return render(p, bad);
	}
	/* An empty basename leaves it as it is (the API cannot remove one); an
	 * empty host name removes it (the API's null). The rules are the
	 * domain's, with the API's messages. */
	if (in.basename && !*in.basename)
		in.basename = NULL;
	in.has_hostname = fh == 1;
	if (in.hostname && !*in.hostname)
		in.hostname = NULL;
	if ((rc = dom_site_basename_check(in.basename)) || (rc = dom_site_hostname_check(in.hostname)))
		return refused(p, rc);
	for (i = 0; vis && site_visibilities[i]; i++)
		if (strcmp(vis, site_visibilities[i]) == 0)
			break;
	if (vis && !site_visibilities[i]) {
		p->status = 400;
		return render(p, arena_printf(&r->arena, "visibility: '%s' is not one of the allowed values", vis));
	}
	in.visibility = vis;
	if ((rc = dom_site_update(p->d, req_param(r, "organizationId"), req_param(r, "siteId"), &in, &s)))
		return refused(p, rc);
	p->location = site_path(p, "/settings");
	return 0;
}

/* ---- creating a site ---- */

void app_site_create_form(struct app_page *p, const char *org_id, const char *title)
{
	struct jw *b = p->out;

	html_raw(b, "<form class=\"search\" method=\"post\" action=\"");
	app_text(b, app_path(p, "/o/", org_id, "/sites"));
	html_raw(b, "\">");
	app_hidden_csrf(p);
	html_raw(b, "<label for=\"new-site-title\">New site's title</label><input id=\"new-site-title\" name=\"title\" "
		    "type=\"text\" required minlength=\"2\" maxlength=\"128\" value=\"");
	app_text(b, title ? title : "");
	html_raw(b, "\"><button type=\"submit\">Create site</button></form>");
}

static int render_new(struct app_page *p, const char *title, const char *error)
{
	const char *org_id = req_param(p->r, "organizationId");
	struct dom_org o;
	int rc;

	if ((rc = dom_org_get(p->d, org_id, &o)))
		return rc;
	{
		struct app_crumb crumbs[] = { { "Home", "/" }, { o.org.title, app_path(p, "/o/", org_id, "") },
					      { "New site", NULL } };
		app_frame_begin(p, "New site", crumbs, 3);
	}
	html_raw(p->out, "<h1>New site</h1>");
	app_error_box(p->out, error);
	html_raw(p->out, "<p class=\"mute\">A site publishes spaces of this organization. Add its spaces and "
			 "publish it from its settings once it is created.</p>");
	app_site_create_form(p, org_id, title);
	app_frame_end(p);
	return 0;
}

int page_site_new(struct app_page *p)
{
	return render_new(p, NULL, NULL);
}

int page_site_create(struct app_page *p)
{
	struct req *r = p->r;
	const char *org_id = req_param(r, "organizationId"), *bad = NULL, *msg = NULL;
	struct site_input in;
	struct site s;
	int rc;

	memset(&in, 0, sizeof(in));
	if (app_form_text(p, "title", SITE_TITLE_MIN, SITE_TITLE_MAX, &in.title, &bad) < 0) {
		p->status = 400;
		return render_new(p, NULL, bad);
	}
	if ((rc = dom_site_create(p->d, org_id, &in, &s))) {
		if ((rc = app_form_refused(p, rc, &msg)))
			return rc;
		return render_new(p, in.title, msg);
	}
	p->location = app_path2(p, "/o/", org_id, "/sites/", s.id, "/settings");
	return 0;
}

/* ---- deleting a site ---- */

int page_site_delete(struct app_page *p)
{
	const char *org_id = req_param(p->r, "organizationId"), *site_id = req_param(p->r, "siteId"), *confirm = NULL;
	struct site s;
	int rc, f = form_field(&p->r->arena, p->r->body, p->r->body_len, "confirm", &confirm);

	if (f != 1 || strcmp(confirm, "yes") != 0) {
		p->status = 400;
		return render(p, "confirm: tick \"I understand\" to delete the site");
	}
	/* The site must be there to be deleted from here: dom_site_delete
	 * answers 0 for an admin's missing site (the API's 204), the page a
	 * 404 (another organization's site looks missing). */
	if ((rc = dom_site_get(p->d, org_id, site_id, ROLE_READ, false, &s)))
		return rc;
	if ((rc = dom_site_delete(p->d, org_id, site_id)))
		return refused(p, rc);
	p->location = app_path(p, "/o/", org_id, "");
	return 0;
}
