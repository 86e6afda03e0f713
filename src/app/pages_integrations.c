/*
 * pages_integrations.c - the integrations of an organization in the web
 * interface (issue 25, "integrations installed"): /o/{organizationId}/
 * integrations and an installation's page, /o/{organizationId}/integrations/
 * {integrationName}/installations/{installationId}.
 *
 * The list shows the installations of the organization
 * (dom_org_installations_list, listOrganizationInstallations' domain
 * function: integration, status, which spaces and sites) and the
 * integrations the member may see (dom_integrations_list: public and
 * unlisted ones, and the private ones of organizations the member belongs
 * to), each with an Install button for the organization's admins
 * (dom_installation_create, installIntegration's). An installation's page
 * lists its space and site installations (dom_targets_list) and lets an
 * admin install it on a space or uninstall it from one (dom_target_install
 * and dom_target_uninstall, installIntegrationOnSpace's and
 * uninstallIntegrationFromSpace's), or uninstall it from the organization
 * (dom_installation_delete, uninstallIntegration's).
 *
 * The same for sites (installIntegrationOnSite's and
 * uninstallIntegrationFromSite's). An admin edits the configuration of the
 * installation and of each space or site installation as a JSON object in
 * a textarea (the current value pretty-printed): the page only reads the
 * text (at most APP_CONFIG_MAX bytes, JSON, an object) and saves it with
 * dom_installation_update / dom_target_update, updateIntegrationInstallation's
 * and updateIntegrationSpaceInstallation's (and ...SiteInstallation's),
 * which check it against the integration's configuration schema; a
 * refusal (the page's or the schema's 400) shows the form again with the
 * text as sent.
 *
 * Lists are paged (app_list/app_pager): the installed integrations'
 * first page is on the list and the next on /integrations/installed;
 * ?page= on the list walks the available integrations (keeping ?q=). An
 * installation's spaces and sites show their first page there and the
 * next on .../spaces and .../sites.
 *
 * The forms are shown when the organization's permissions say
 * installIntegration (admins); the domain checks every write anyway, and a
 * refusal is rolled back and shown on the page. An installation of another
 * organization (whatever its integration) is the 404 page, as a missing one.
 * Nothing of an integration's secrets, its script or any token is ever
 * written into a page; configurations only into an admin's forms (the API
 * shows them to every member of the organization).
 */
#include "app/app.h"
#include "app/pages.h"
#include "domain/integrations.h"
#include "domain/orgs.h"
#include "domain/sites.h"
#include "domain/spaces.h"
#include "http/form.h"
#include "model/cursor.h"
#include "site/site.h"
#include "util/err.h"
#include "util/text.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* The longest configuration text a form may send (bytes). */
#define APP_CONFIG_MAX 65536

static const char *org_path(struct app_page *p, const char *suffix)
{
	return app_path(p, "/o/", req_param(p->r, "organizationId"), suffix);
}

/* /o/{org}/integrations/{name}/installations/{id} + suffix */
static const char *inst_path(struct app_page *p, const char *name, const char *id, const char *suffix)
{
	const char *head = app_path2(p, "/o/", req_param(p->r, "organizationId"), "/integrations/", name, NULL);
	const char *tail = app_path(p, "/installations/", id, suffix);
	const char *out = arena_printf(&p->r->arena, "%s%s", head, tail);

	return out ? out : "/"; /* out of memory: as app_path */
}

static bool may_install(const struct dom_org *o)
{
	struct org_permissions perm;

	org_permissions(&perm, o->actor.role, o->actor.owns_team);
	return perm.install_integration;
}

static const char *title_of(const struct integration *it)
{
	return it->title && *it->title ? it->title : it->name;
}

static void status_badge(struct jw *b, const char *status)
{
	html_raw(b, strcmp(status, "active") == 0 ? "<span class=\"badge st-open\">" : "<span class=\"badge st-draft\">");
	app_text(b, status);
	html_raw(b, "</span>");
}

/* ---- the organization's integrations ---- */

/* Every installation of the organization (one per integration, read in
 * pages of the API's largest), to tell which integrations of the
 * "Available" page are installed whatever page of installations shows them. */
static int all_installations(struct app_page *p, const char *org_id, struct org_installation **out, int *nout)
{
	struct list_req lr = { .limit = 1000 };
	struct cursor cur;
	struct org_installation *all = NULL, *items;
	char *next = NULL;
	int n = 0, k, rc;

	*out = NULL;
	*nout = 0;
	for (;;) {
		if ((rc = dom_org_installations_list(p->d, org_id, &lr, &items, &k, &next)))
			return rc;
		if (k > 0) {
			struct org_installation *grown = arena_alloc(&p->r->arena, sizeof(*grown) * (size_t)(n + k));
			if (!grown)
				return err_set(ERR_INTERNAL, "out of memory");
			if (n)
				memcpy(grown, all, sizeof(*grown) * (size_t)n);
			memcpy(grown + n, items, sizeof(*grown) * (size_t)k);
			all = grown;
			n += k;
		}
		if (!next)
			break;
		if ((rc = cursor_decode(&p->r->arena, next, &cur)))
			return rc;
		lr.after = &cur;
	}
	*out = all;
	*nout = n;
	return 0;
}

/* The installations table (a page of them). */
static void installations_table(struct app_page *p, const struct org_installation *ins, int nins)
{
	struct jw *b = p->out;

	html_raw(b, "<div class=\"scroll-x\"><table><thead><tr><th scope=\"col\">Integration</th>"
		    "<th scope=\"col\">Status</th><th scope=\"col\">Spaces</th><th scope=\"col\">Sites</th>"
		    "<th scope=\"col\">Installed</th></tr></thead><tbody>");
	for (int i = 0; i < nins; i++) {
		const struct integration *it = &ins[i].integration.it;
		const struct integration_installation *in = &ins[i].installation;
		html_raw(b, "<tr><td><a href=\"");
		app_text(b, inst_path(p, it->name, in->id, ""));
		html_raw(b, "\">");
		app_text(b, title_of(it));
		html_raw(b, "</a> <span class=\"mute\">");
		app_text(b, it->name);
		html_raw(b, "</span></td><td>");
		status_badge(b, in->status);
		html_raw(b, "</td><td>");
		if (strcmp(in->space_selection, "all") == 0)
			html_raw(b, "all spaces");
		else
			app_text(b, arena_printf(&p->r->arena, "%lld selected", (long long)in->spaces));
		html_raw(b, "</td><td>");
		html_raw(b, strcmp(in->site_selection, "all") == 0 ? "all sites" : "selected sites");
		html_raw(b, "</td><td>");
		app_date(b, in->created_at);
		html_raw(b, "</td></tr>");
	}
	html_raw(b, "</tbody></table></div>");
}

static int render_list(struct app_page *p, const char *error)
{
	const char *org_id = req_param(p->r, "organizationId");
	static const char *const keep[] = { "q", NULL };
	struct list_req lr, lr2;
	struct cursor cur;
	struct integration_filter f = { .blocks = -1, .content_sources = -1, .search = req_query(p->r, "q") };
	struct org_installation *ins = NULL, *every = NULL;
	struct integration_view *all = NULL;
	struct dom_org o;
	char *next = NULL, *next2 = NULL;
	int nins = 0, nevery = 0, nall = 0, rc;
	bool admin;
	struct jw *b = p->out;

	if (f.search && !*f.search)
		f.search = NULL;
	if (f.search && utf8_len(f.search) > 256)
		return err_set(ERR_INVALID, "q: at most 256 characters");
	/* ?page= walks the available integrations; the installed ones show
	 * their first page here and the next ones on /integrations/installed. */
	if ((rc = app_list(p, &lr2, &cur, 0)))
		return rc;
	lr = lr2;
	lr.after = NULL;
	/* The organization last: dom_integrations_list enters each owner's
	 * organization, and o.actor is the role in this one. */
	if ((rc = dom_org_installations_list(p->d, org_id, &lr, &ins, &nins, &next)) ||
	    (rc = all_installations(p, org_id, &every, &nevery)) ||
	    (rc = dom_integrations_list(p->d, &f, &lr2, &all, &nall, &next2)) || (rc = dom_org_get(p->d, org_id, &o)))
		return rc;
	admin = may_install(&o);
	{
		struct app_crumb crumbs[] = { { "Home", "/" }, { o.org.title, org_path(p, "") }, { "Integrations", NULL } };
		app_frame_begin(p, "Integrations", crumbs, 3);
	}
	html_raw(b, "<h1>Integrations</h1>");
	app_error_box(b, error);
	html_raw(b, "<h2>Installed</h2>");
	if (nins == 0) {
		html_raw(b, "<p class=\"empty\">No integration is installed in this organization.</p>");
	} else {
		installations_table(p, ins, nins);
		app_pager(p, org_path(p, "/integrations/installed"), NULL, next, "More installed integrations");
	}
	html_raw(b, "<h2>Available</h2><form class=\"search\" role=\"search\" method=\"get\" action=\"");
	app_text(b, org_path(p, "/integrations"));
	html_raw(b, "\"><label for=\"q\">Find an integration by its name or title</label><input id=\"q\" name=\"q\" "
		    "type=\"search\" maxlength=\"256\" value=\"");
	app_text(b, f.search ? f.search : "");
	html_raw(b, "\"><button type=\"submit\">Find</button></form>");
	if (nall == 0) {
		html_raw(b, f.search ? "<p class=\"empty\">No integration you can see matches.</p>"
				     : "<p class=\"empty\">No integration has been published that you can see.</p>");
		app_frame_end(p);
		return 0;
	}
	if (!admin)
		html_raw(b, "<p class=\"mute\">Only an administrator of this organization can install an integration."
			    "</p>");
	html_raw(b, "<div class=\"scroll-x\"><table><thead><tr><th scope=\"col\">Integration</th>"
		    "<th scope=\"col\">Summary</th><th scope=\"col\">Published by</th><th scope=\"col\">"
		    "<span class=\"mute\">Actions</span></th></tr></thead><tbody>");
	for (int i = 0; i < nall; i++) {
		const struct integration_view *v = &all[i];
		const struct integration_installation *mine = NULL;
		for (int j = 0; j < nevery; j++)
			if (strcmp(every[j].installation.integration_id, v->it.id) == 0)
				mine = &every[j].installation;
		html_raw(b, "<tr><td>");
		app_text(b, title_of(&v->it));
		html_raw(b, " <span class=\"mute\">");
		app_text(b, v->it.name);
		html_raw(b, "</span>");
		if (strcmp(v->it.visibility, "public") != 0) {
			html_raw(b, " <span class=\"kind\">");
			app_text(b, v->it.visibility);
			html_raw(b, "</span>");
		}
		html_raw(b, "</td><td>");
		app_text(b, v->it.summary && *v->it.summary ? v->it.summary : v->it.description ? v->it.description : "");
		html_raw(b, "</td><td>");
		app_text(b, v->owner.title);
		html_raw(b, "</td><td>");
		if (mine) {
			html_raw(b, "<a href=\"");
			app_text(b, inst_path(p, v->it.name, mine->id, ""));
			html_raw(b, "\">Installed</a>");
		} else if (admin) {
			html_raw(b, "<form class=\"inline\" method=\"post\" action=\"");
			app_text(b, app_path2(p, "/o/", org_id, "/integrations/", v->it.name, "/install"));
			html_raw(b, "\">");
			app_hidden_csrf(p);
			html_raw(b, "<button type=\"submit\" aria-label=\"Install ");
			app_text(b, title_of(&v->it));
			html_raw(b, "\">Install</button></form>");
		}
		html_raw(b, "</td></tr>");
	}
	html_raw(b, "</tbody></table></div>");
	app_pager(p, org_path(p, "/integrations"), keep, next2, "More integrations");
	app_frame_end(p);
	return 0;
}

int page_integrations(struct app_page *p)
{
	return render_list(p, NULL);
}

/* The installed integrations past the list's first page. */
int page_integrations_installed(struct app_page *p)
{
	const char *org_id = req_param(p->r, "organizationId");
	struct list_req lr;
	struct cursor cur;
	struct org_installation *ins = NULL;
	struct dom_org o;
	char *next = NULL;
	int nins = 0, rc;
	struct jw *b = p->out;

	if ((rc = app_list(p, &lr, &cur, 0)) || (rc = dom_org_installations_list(p->d, org_id, &lr, &ins, &nins, &next)) ||
	    (rc = dom_org_get(p->d, org_id, &o)))
		return rc;
	{
		struct app_crumb crumbs[] = { { "Home", "/" },
					      { o.org.title, org_path(p, "") },
					      { "Integrations", org_path(p, "/integrations") },
					      { "Installed", NULL } };
		app_frame_begin(p, "Installed integrations", crumbs, 4);
	}
	html_raw(b, "<h1>Installed integrations</h1>");
	if (nins == 0)
		html_raw(b, "<p class=\"empty\">No more integrations are installed in this organization.</p>");
	else
		installations_table(p, ins, nins);
	app_pager(p, org_path(p, "/integrations/installed"), NULL, next, "More installed integrations");
	app_frame_end(p);
	return 0;
}

int page_integration_install(struct app_page *p)
{
	struct integration_installation in;
	const char *name = req_param(p->r, "integrationName");
	int rc = dom_installation_create(p->d, name, req_param(p->r, "organizationId"), &in);

	if (rc) {
		const char *msg = NULL;
		if ((rc = app_form_refused(p, rc, &msg)))
			return rc;
		return render_list(p, msg);
	}
	p->location = inst_path(p, name, in.id, "");
	return 0;
}

/* ---- an installation ---- */

/* The installation named by the path, which must be of the path's
 * organization (another one's looks missing). */
static int load_installation(struct app_page *p, struct integration_installation *in)
{
	int rc = dom_installation_get(p->d, req_param(p->r, "integrationName"), req_param(p->r, "installationId"), in);

	if (rc)
		return rc;
	if (strcmp(in->org_id, req_param(p->r, "organizationId")) != 0)
		return err_set(ERR_NOT_FOUND, "installation not found");
	return 0;
}

/* "spaces" or "sites": a kind's path segment. */
static const char *kind_segment(const char *kind)
{
	return strcmp(kind, "space") == 0 ? "/spaces" : "/sites";
}

/* A target's title and link, when the member reads it (else NULL: its id
 * is shown). */
/* A space's or site's name linking to its page, or its id when the
 * member cannot open it (href NULL). */
static void target_link(struct jw *b, const char *href, const char *title, const char *id)
{
	if (!href) {
		html_raw(b, "<code>");
		app_text(b, id);
		html_raw(b, "</code>");
		return;
	}
	html_raw(b, "<a href=\"");
	app_text(b, href);
	html_raw(b, "\">");
	app_text(b, title);
	html_raw(b, "</a>");
}

static void target_name(struct app_page *p, const char *kind, const char *id, const char **title, const char **href)
{
	const char *org_id = req_param(p->r, "organizationId");

	*title = NULL;
	*href = NULL;
	if (strcmp(kind, "space") == 0) {
		struct space s;
		if (dom_space_get(p->d, id, ROLE_READ, &s) == 0) {
			*title = s.title && *s.title ? s.title : "Untitled space";
			*href = app_path(p, "/s/", s.id, "");
		}
	} else {
		struct site s;
		if (dom_site_get(p->d, org_id, id, ROLE_READ, false, &s) == 0) {
			*title = s.title && *s.title ? s.title : "Untitled site";
			*href = app_path2(p, "/o/", org_id, "/sites/", s.id, "");
		}
	}
	err_clear();
}

/* A page of an installation's space or site installations, with their
 * Configure links and Uninstall buttons for an admin. */
static void targets_table(struct app_page *p, const char *name, const char *inst_id, const char *kind,
			  const struct target_view *ts, int n, bool admin)
{
	struct jw *b = p->out;
	bool space = strcmp(kind, "space") == 0;

	if (n == 0) {
		html_raw(b, space ? "<p class=\"empty\">Not installed on any space.</p>"
				  : "<p class=\"empty\">Not installed on any site.</p>");
		return;
	}
	html_raw(b, space ? "<div class=\"scroll-x\"><table><thead><tr><th scope=\"col\">Space</th>"
			  : "<div class=\"scroll-x\"><table><thead><tr><th scope=\"col\">Site</th>");
	html_raw(b, "<th scope=\"col\">Status</th><th scope=\"col\">Installed</th><th scope=\"col\"><span class=\"mute\">"
		    "Actions</span></th></tr></thead><tbody>");
	for (int i = 0; i < n; i++) {
		const struct integration_target *t = &ts[i].t;
		const char *title, *href, *self;
		target_name(p, kind, t->target_id, &title, &href);
		self = arena_printf(&p->r->arena, "%s%s", inst_path(p, name, inst_id, kind_segment(kind)),
				    app_path(p, "/", t->target_id, ""));
		html_raw(b, "<tr><td>");
		target_link(b, href, title, t->target_id);
		html_raw(b, "</td><td>");
		status_badge(b, t->status);
		html_raw(b, "</td><td>");
		app_date(b, t->created_at);
		html_raw(b, "</td><td>");
		if (admin && self) {
			html_raw(b, "<a href=\"");
			app_text(b, self);
			html_raw(b, "\" aria-label=\"Configure on ");
			app_text(b, title ? title : t->target_id);
			html_raw(b, "\">Configure</a> <form class=\"inline\" method=\"post\" action=\"");
			app_text(b, self);
			html_raw(b, "/uninstall\">");
			app_hidden_csrf(p);
			html_raw(b, "<button type=\"submit\" aria-label=\"Uninstall from ");
			app_text(b, title ? title : t->target_id);
			html_raw(b, "\">Uninstall</button></form>");
		}
		html_raw(b, "</td></tr>");
	}
	html_raw(b, "</tbody></table></div>");
}

/* Whether target_id is installed: in the page shown, else (more pages)
 * asked. */
static bool target_installed(struct app_page *p, const char *name, const char *inst_id, const char *kind,
			     const struct target_view *ts, int n, bool more, const char *target_id)
{
	struct target_view tv;
	bool yes;

	for (int i = 0; i < n; i++)
		if (strcmp(ts[i].t.target_id, target_id) == 0)
			return true;
	if (!more)
		return false;
	yes = dom_target_get(p->d, name, inst_id, kind, target_id, &tv) == 0;
	err_clear();
	return yes;
}

/* JSON text pretty-printed (two spaces, keys in their order), in the
 * request's arena. */
static const char *pretty_json(struct app_page *p, const char *json)
{
	json_t *v = json_loads(json ? json : "{}", 0, NULL);
	char *s = v ? json_dumps(v, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
	const char *out = s ? arena_strdup(&p->r->arena, s) : NULL;

	free(s);
	json_decref(v);
	return out ? out : json ? json : "{}";
}

/* The configuration form (an admin's): the current value pretty-printed,
 * or what was sent when it was refused. */
static void config_form(struct app_page *p, const char *action, const char *current, const char *sent)
{
	struct jw *b = p->out;

	html_raw(b, "<h2>Configuration</h2><form class=\"stack\" method=\"post\" action=\"");
	app_text(b, action);
	html_raw(b, "\">");
	app_hidden_csrf(p);
	html_raw(b, "<label for=\"configuration\">Configuration (a JSON object; the integration's configuration schema "
		    "checks it)</label><textarea id=\"configuration\" name=\"configuration\" rows=\"10\" spellcheck=\"false\">");
	app_text(b, sent ? sent : pretty_json(p, current));
	html_raw(b, "</textarea><button type=\"submit\">Save the configuration</button></form>");
}

/* The installation's space or site installations (first page here, the
 * next on .../spaces and .../sites) and an admin's Install form: a choice
 * of the organization's spaces or sites (a page of them, of the list's
 * size) not installed yet, and a field for any other's ID when there are
 * more. */
static int targets_section(struct app_page *p, const char *name, const struct integration_installation *in,
			   const char *kind, const struct list_req *lr, bool admin)
{
	const char *org_id = req_param(p->r, "organizationId");
	bool space = strcmp(kind, "space") == 0;
	struct list_req lr3 = { .limit = lr->limit };
	struct target_view *ts = NULL;
	struct space *org_spaces = NULL;
	struct site *org_sites = NULL;
	char *next = NULL, *next3 = NULL;
	int n = 0, norg = 0, shown = 0, rc;
	struct jw *b = p->out;

	if ((rc = dom_targets_list(p->d, name, in->id, kind, NULL, lr, &ts, &n, &next)))
		return rc;
	html_raw(b, space ? "<h2>Spaces</h2>" : "<h2>Sites</h2>");
	targets_table(p, name, in->id, kind, ts, n, admin);
	app_pager(p, inst_path(p, name, in->id, kind_segment(kind)), NULL, next, space ? "More spaces" : "More sites");
	if (!admin)
		return 0;
	if (space)
		rc = dom_spaces_list(p->d, org_id, NULL, &lr3, &org_spaces, &norg, &next3);
	else {
		struct site_filter sf = { .published = -1 };
		rc = dom_sites_list(p->d, org_id, &sf, &lr3, &org_sites, &norg, &next3);
	}
	if (rc)
		return rc;
	for (int i = 0; i < norg; i++) {
		const char *id = space ? org_spaces[i].id : org_sites[i].id;
		const char *title = space ? org_spaces[i].title : org_sites[i].title;
		if (target_installed(p, name, in->id, kind, ts, n, next != NULL, id))
			continue;
		if (!shown++) {
			html_raw(b, "<form class=\"search\" method=\"post\" action=\"");
			app_text(b, inst_path(p, name, in->id, kind_segment(kind)));
			html_raw(b, "\">");
			app_hidden_csrf(p);
			html_raw(b, space ? "<label for=\"space\">Install on a space</label><select id=\"space\" name=\"space\">"
					  : "<label for=\"site\">Install on a site</label><select id=\"site\" name=\"site\">");
		}
		html_raw(b, "<option value=\"");
		app_text(b, id);
		html_raw(b, "\">");
		app_text(b, title && *title ? title : space ? "Untitled space" : "Untitled site");
		html_raw(b, "</option>");
	}
	if (shown)
		html_raw(b, space ? "</select><button type=\"submit\">Install on this space</button></form>"
				  : "</select><button type=\"submit\">Install on this site</button></form>");
	if (next3) {
		/* More than one page of them: any other by its ID. */
		html_raw(b, "<form class=\"search\" method=\"post\" action=\"");
		app_text(b, inst_path(p, name, in->id, kind_segment(kind)));
		html_raw(b, "\">");
		app_hidden_csrf(p);
		html_raw(b, space ? "<label for=\"space-id\">Or install on another space of the organization, by its ID</label>"
				    "<input id=\"space-id\" name=\"space\" type=\"text\" required maxlength=\"64\">"
				    "<button type=\"submit\">Install on the space</button></form>"
				  : "<label for=\"site-id\">Or install on another site of the organization, by its ID</label>"
				    "<input id=\"site-id\" name=\"site\" type=\"text\" required maxlength=\"64\">"
				    "<button type=\"submit\">Install on the site</button></form>");
	}
	return 0;
}

static int render_installation(struct app_page *p, const char *error, const char *sent)
{
	const char *org_id = req_param(p->r, "organizationId"), *name = req_param(p->r, "integrationName");
	struct list_req lr;
	struct cursor cur;
	struct integration_installation in;
	struct integration_view v;
	struct dom_org o;
	bool admin;
	int rc;
	struct jw *b = p->out;

	/* ?limit= sizes both lists' first page; their next pages have their
	 * own URLs. */
	if ((rc = app_list(p, &lr, &cur, 0)))
		return rc;
	lr.after = NULL;
	if ((rc = load_installation(p, &in)) || (rc = dom_integration_get(p->d, name, &v)) ||
	    (rc = dom_org_get(p->d, org_id, &o)))
		return rc;
	admin = may_install(&o);
	{
		struct app_crumb crumbs[] = { { "Home", "/" },
					      { o.org.title, org_path(p, "") },
					      { "Integrations", org_path(p, "/integrations") },
					      { title_of(&v.it), NULL } };
		app_frame_begin(p, title_of(&v.it), crumbs, 4);
	}
	html_raw(b, "<h1>");
	app_text(b, title_of(&v.it));
	html_raw(b, "</h1>");
	app_error_box(b, error);
	html_raw(b, "<dl class=\"meta\"><dt>Integration</dt><dd><code>");
	app_text(b, v.it.name);
	html_raw(b, "</code></dd><dt>Published by</dt><dd>");
	app_text(b, v.owner.title);
	html_raw(b, "</dd><dt>Status</dt><dd>");
	status_badge(b, in.status);
	html_raw(b, "</dd><dt>Installed</dt><dd>");
	app_date(b, in.created_at);
	html_raw(b, "</dd><dt>Spaces</dt><dd>");
	html_raw(b, strcmp(in.space_selection, "all") == 0 ? "every space of the organization" : "the spaces below");
	html_raw(b, "</dd><dt>Sites</dt><dd>");
	html_raw(b, strcmp(in.site_selection, "all") == 0 ? "every site of the organization" : "the sites below");
	html_raw(b, "</dd></dl>");
	if (v.it.description && *v.it.description) {
		html_raw(b, "<p class=\"mute\">");
		app_text(b, v.it.description);
		html_raw(b, "</p>");
	}
	/* The domain blanks the configuration for whoever may not read it
	 * (domain/integration_access.c); the form is for admins on top. */
	if (admin && in.configuration)
		config_form(p, inst_path(p, name, in.id, "/configuration"), in.configuration, sent);
	if ((rc = targets_section(p, name, &in, "space", &lr, admin)) ||
	    (rc = targets_section(p, name, &in, "site", &lr, admin)))
		return rc;
	if (admin) {
		html_raw(b, "<h2>Uninstall</h2><p class=\"hint hint-danger\">Uninstalling removes the integration from "
			    "the organization, its spaces and sites; its tokens stop working at once.</p>"
			    "<form class=\"inline\" method=\"post\" action=\"");
		app_text(b, inst_path(p, name, in.id, "/uninstall"));
		html_raw(b, "\">");
		app_hidden_csrf(p);
		html_raw(b, "<button type=\"submit\">Uninstall from the organization</button></form>");
	}
	app_frame_end(p);
	return 0;
}

int page_installation(struct app_page *p)
{
	return render_installation(p, NULL, NULL);
}

static int refused(struct app_page *p, int rc, const char *sent)
{
	const char *msg = NULL;

	if ((rc = app_form_refused(p, rc, &msg)))
		return rc;
	return render_installation(p, msg, sent);
}

/* The form's configuration: 0 with *sent (the text as typed, shown again
 * when refused) and *json (the object, compact, as the API stores it); else
 * ERR_INVALID / ERR_TOO_LARGE naming the field. */
static int config_field(struct app_page *p, const char **sent, const char **json)
{
	struct req *r = p->r;
	const char *text = NULL;
	json_error_t jerr;
	json_t *v;
	char *s;
	int f;

	*sent = NULL;
	*json = NULL;
	if (r->body_too_large)
		return err_set(ERR_TOO_LARGE, "configuration: the form is larger than the server accepts");
	f = form_field(&r->arena, r->body ? r->body : "", r->body ? r->body_len : 0, "configuration", &text);
	if (f < 0)
		return err_set(ERR_INVALID, "configuration: not readable text");
	if (f == 0)
		return err_set(ERR_INVALID, "configuration: is required");
	if (strlen(text) > APP_CONFIG_MAX)
		return err_set(ERR_INVALID, "configuration: at most %d bytes", APP_CONFIG_MAX);
	*sent = text;
	if (!(v = json_loads(text, JSON_REJECT_DUPLICATES, &jerr)))
		return err_set(ERR_INVALID, "configuration: not valid JSON (line %d: %s)", jerr.line, jerr.text);
	if (!json_is_object(v)) {
		json_decref(v);
		return err_set(ERR_INVALID, "configuration: must be an object");
	}
	s = json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(v);
	if (!s)
		return err_set(ERR_INTERNAL, "out of memory");
	*json = arena_strdup(&r->arena, s);
	free(s);
	return *json ? 0 : err_set(ERR_INTERNAL, "out of memory");
}

int page_installation_configure(struct app_page *p)
{
	struct integration_installation in, out;
	struct installation_update u = { 0 };
	const char *sent = NULL;
	int rc;

	if ((rc = load_installation(p, &in)))
		return rc;
	if ((rc = config_field(p, &sent, &u.configuration)) ||
	    (rc = dom_installation_update(p->d, req_param(p->r, "integrationName"), in.id, &u, &out)))
		return refused(p, rc, sent);
	p->location = inst_path(p, req_param(p->r, "integrationName"), in.id, "");
	return 0;
}

int page_installation_uninstall(struct app_page *p)
{
	struct integration_installation in;
	bool removed = false;
	int rc;

	if ((rc = load_installation(p, &in)))
		return rc;
	rc = dom_installation_delete(p->d, req_param(p->r, "integrationName"), in.id, &removed);
	if (rc)
		return refused(p, rc, NULL);
	if (!removed)
		return err_set(ERR_NOT_FOUND, "installation not found");
	p->location = org_path(p, "/integrations");
	return 0;
}

/* ---- an installation's spaces and sites ---- */

static int target_install(struct app_page *p, const char *kind)
{
	struct req *r = p->r;
	struct integration_installation in;
	struct target_view tv;
	const char *id = NULL;
	int rc, f;

	if ((rc = load_installation(p, &in)))
		return rc;
	f = r->body_too_large ? -1 : form_field(&r->arena, r->body ? r->body : "", r->body ? r->body_len : 0, kind, &id);
	if (f != 1 || !*id || strlen(id) > 64) {
		p->status = 400;
		return render_installation(p, strcmp(kind, "space") == 0 ? "space: choose a space" : "site: choose a site",
					   NULL);
	}
	rc = dom_target_install(p->d, req_param(r, "integrationName"), in.id, kind, id, &tv);
	if (rc)
		return refused(p, rc, NULL);
	p->location = inst_path(p, req_param(r, "integrationName"), in.id, "");
	return 0;
}

int page_installation_space_install(struct app_page *p)
{
	return target_install(p, "space");
}

int page_installation_site_install(struct app_page *p)
{
	return target_install(p, "site");
}

static int target_uninstall(struct app_page *p, const char *kind, const char *target_id)
{
	struct integration_installation in;
	bool removed = false;
	int rc;

	if ((rc = load_installation(p, &in)))
		return rc;
	rc = dom_target_uninstall(p->d, req_param(p->r, "integrationName"), in.id, kind, target_id, &removed);
	if (rc)
		return refused(p, rc, NULL);
	if (!removed)
		return err_set(ERR_NOT_FOUND, "the integration is not installed on this %s", kind);
	p->location = inst_path(p, req_param(p->r, "integrationName"), in.id, "");
	return 0;
}

int page_installation_space_uninstall(struct app_page *p)
{
	return target_uninstall(p, "space", req_param(p->r, "spaceId"));
}

int page_installation_site_uninstall(struct app_page *p)
{
	return target_uninstall(p, "site", req_param(p->r, "siteId"));
}

/* The next pages of an installation's spaces or sites. */
static int render_targets(struct app_page *p, const char *kind)
{
	const char *org_id = req_param(p->r, "organizationId"), *name = req_param(p->r, "integrationName");
	bool space = strcmp(kind, "space") == 0;
	struct list_req lr;
	struct cursor cur;
	struct integration_installation in;
	struct integration_view v;
	struct target_view *ts = NULL;
	struct dom_org o;
	char *next = NULL;
	int n = 0, rc;
	struct jw *b = p->out;

	if ((rc = app_list(p, &lr, &cur, 0)) || (rc = load_installation(p, &in)) ||
	    (rc = dom_integration_get(p->d, name, &v)) ||
	    (rc = dom_targets_list(p->d, name, in.id, kind, NULL, &lr, &ts, &n, &next)) ||
	    (rc = dom_org_get(p->d, org_id, &o)))
		return rc;
	{
		struct app_crumb crumbs[] = { { "Home", "/" },
					      { o.org.title, org_path(p, "") },
					      { "Integrations", org_path(p, "/integrations") },
					      { title_of(&v.it), inst_path(p, name, in.id, "") },
					      { space ? "Spaces" : "Sites", NULL } };
		app_frame_begin(p, space ? "Spaces" : "Sites", crumbs, 5);
	}
	html_raw(b, "<h1>");
	app_text(b, title_of(&v.it));
	html_raw(b, space ? ": spaces</h1>" : ": sites</h1>");
	targets_table(p, name, in.id, kind, ts, n, may_install(&o));
	app_pager(p, inst_path(p, name, in.id, kind_segment(kind)), NULL, next, space ? "More spaces" : "More sites");
	app_frame_end(p);
	return 0;
}

int page_installation_spaces(struct app_page *p)
{
	return render_targets(p, "space");
}

int page_installation_sites(struct app_page *p)
{
	return render_targets(p, "site");
}

/* One space or site installation: its status and, for an admin, its
 * configuration form and Uninstall button. */
static int render_target(struct app_page *p, const char *kind, const char *target_id, const char *error,
			 const char *sent)
{
	const char *org_id = req_param(p->r, "organizationId"), *name = req_param(p->r, "integrationName");
	bool space = strcmp(kind, "space") == 0;
	struct integration_installation in;
	struct integration_view v;
	struct target_view tv;
	struct dom_org o;
	const char *title, *href, *self;
	bool admin;
	int rc;
	struct jw *b = p->out;

	if ((rc = load_installation(p, &in)) || (rc = dom_integration_get(p->d, name, &v)) ||
	    (rc = dom_target_get(p->d, name, in.id, kind, target_id, &tv)) || (rc = dom_org_get(p->d, org_id, &o)))
		return rc;
	admin = may_install(&o);
	target_name(p, kind, target_id, &title, &href);
	self = arena_printf(&p->r->arena, "%s%s", inst_path(p, name, in.id, kind_segment(kind)),
			    app_path(p, "/", target_id, ""));
	if (!self)
		return err_set(ERR_INTERNAL, "out of memory");
	{
		struct app_crumb crumbs[] = { { "Home", "/" },
					      { o.org.title, org_path(p, "") },
					      { "Integrations", org_path(p, "/integrations") },
					      { title_of(&v.it), inst_path(p, name, in.id, "") },
					      { title ? title : target_id, NULL } };
		app_frame_begin(p, title_of(&v.it), crumbs, 5);
	}
	html_raw(b, "<h1>");
	app_text(b, title_of(&v.it));
	html_raw(b, space ? " on a space</h1>" : " on a site</h1>");
	app_error_box(b, error);
	html_raw(b, space ? "<dl class=\"meta\"><dt>Space</dt><dd>" : "<dl class=\"meta\"><dt>Site</dt><dd>");
	target_link(b, href, title, target_id);
	html_raw(b, "</dd><dt>Status</dt><dd>");
	status_badge(b, tv.t.status);
	html_raw(b, "</dd><dt>Installed</dt><dd>");
	app_date(b, tv.t.created_at);
	html_raw(b, "</dd></dl>");
	if (admin) {
		if (tv.t.configuration) /* blanked for those who may not read it */
			config_form(p, arena_printf(&p->r->arena, "%s/configuration", self), tv.t.configuration, sent);
		html_raw(b, "<h2>Uninstall</h2><form class=\"inline\" method=\"post\" action=\"");
		app_text(b, self);
		html_raw(b, "/uninstall\">");
		app_hidden_csrf(p);
		html_raw(b, space ? "<button type=\"submit\">Uninstall from this space</button></form>"
				  : "<button type=\"submit\">Uninstall from this site</button></form>");
	}
	app_frame_end(p);
	return 0;
}

static const char *target_param(struct app_page *p, const char *kind)
{
	return req_param(p->r, strcmp(kind, "space") == 0 ? "spaceId" : "siteId");
}

int page_installation_space(struct app_page *p)
{
	return render_target(p, "space", target_param(p, "space"), NULL, NULL);
}

int page_installation_site(struct app_page *p)
{
	return render_target(p, "site", target_param(p, "site"), NULL, NULL);
}

static int target_configure(struct app_page *p, const char *kind)
{
	const char *name = req_param(p->r, "integrationName"), *target_id = target_param(p, kind);
	struct integration_installation in;
	struct installation_update u = { 0 };
	struct target_view tv;
	const char *sent = NULL, *msg = NULL;
	int rc;

	if ((rc = load_installation(p, &in)))
		return rc;
	if ((rc = config_field(p, &sent, &u.configuration)) ||
	    (rc = dom_target_update(p->d, name, in.id, kind, target_id, &u, &tv))) {
		if ((rc = app_form_refused(p, rc, &msg)))
			return rc;
		return render_target(p, kind, target_id, msg, sent);
	}
	p->location = arena_printf(&p->r->arena, "%s%s", inst_path(p, name, in.id, kind_segment(kind)),
				   app_path(p, "/", target_id, ""));
	if (!p->location)
		p->location = "/";
	return 0;
}

int page_installation_space_configure(struct app_page *p)
{
	return target_configure(p, "space");
}

int page_installation_site_configure(struct app_page *p)
{
	return target_configure(p, "site");
}
