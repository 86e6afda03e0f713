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
 * The forms are shown when the organization's permissions say
 * installIntegration (admins); the domain checks every write anyway, and a
 * refusal is rolled back and shown on the page. An installation of another
 * organization (whatever its integration) is the 404 page, as a missing one.
 * Nothing of an integration's secrets, an installation's configuration or
 * any token is ever written into a page: only names, titles, states and
 * the spaces and sites.
 */
#include "app/app.h"
#include "app/pages.h"
#include "domain/integrations.h"
#include "domain/orgs.h"
#include "domain/sites.h"
#include "domain/spaces.h"
#include "http/form.h"
#include "site/site.h"
#include "util/err.h"
#include "util/text.h"

#include <string.h>

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

static int render_list(struct app_page *p, const char *error)
{
	const char *org_id = req_param(p->r, "organizationId");
	struct list_req lr = { .limit = 100 }, lr2 = { .limit = 100 };
	struct integration_filter f = { .blocks = -1, .content_sources = -1, .search = req_query(p->r, "q") };
	struct org_installation *ins = NULL;
	struct integration_view *all = NULL;
	struct dom_org o;
	char *next = NULL, *next2 = NULL;
	int nins = 0, nall = 0, rc;
	bool admin;
	struct jw *b = p->out;

	if (f.search && !*f.search)
		f.search = NULL;
	if (f.search && utf8_len(f.search) > 256)
		return err_set(ERR_INVALID, "q: at most 256 characters");
	/* The organization last: dom_integrations_list enters each owner's
	 * organization, and o.actor is the role in this one. */
	if ((rc = dom_org_installations_list(p->d, org_id, &lr, &ins, &nins, &next)) ||
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
				html_raw(b, arena_printf(&p->r->arena, "%lld selected", (long long)in->spaces));
			html_raw(b, "</td><td>");
			html_raw(b, strcmp(in->site_selection, "all") == 0 ? "all sites" : "selected sites");
			html_raw(b, "</td><td>");
			app_date(b, in->created_at);
			html_raw(b, "</td></tr>");
		}
		html_raw(b, "</tbody></table></div>");
		if (next)
			html_raw(b, "<p class=\"mute\">Only the first 100 installations are shown.</p>");
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
		for (int j = 0; j < nins; j++)
			if (strcmp(ins[j].installation.integration_id, v->it.id) == 0)
				mine = &ins[j].installation;
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
	if (next2)
		html_raw(b, "<p class=\"mute\">Only the first 100 integrations are shown: find one by its name.</p>");
	app_frame_end(p);
	return 0;
}

int page_integrations(struct app_page *p)
{
	return render_list(p, NULL);
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

static int render_installation(struct app_page *p, const char *error)
{
	const char *org_id = req_param(p->r, "organizationId"), *name = req_param(p->r, "integrationName");
	struct list_req lr = { .limit = 100 }, lr2 = { .limit = 100 }, lr3 = { .limit = 100 };
	struct integration_installation in;
	struct integration_view v;
	struct target_view *spaces = NULL, *sites = NULL;
	struct space *org_spaces = NULL;
	struct dom_org o;
	char *next = NULL, *next2 = NULL, *next3 = NULL;
	int nspaces = 0, nsites = 0, norg = 0, rc;
	bool admin;
	struct jw *b = p->out;

	if ((rc = load_installation(p, &in)) || (rc = dom_integration_get(p->d, name, &v)) ||
	    (rc = dom_targets_list(p->d, name, in.id, "space", NULL, &lr, &spaces, &nspaces, &next)) ||
	    (rc = dom_targets_list(p->d, name, in.id, "site", NULL, &lr2, &sites, &nsites, &next2)) ||
	    (rc = dom_org_get(p->d, org_id, &o)))
		return rc;
	admin = may_install(&o);
	if (admin && (rc = dom_spaces_list(p->d, org_id, NULL, &lr3, &org_spaces, &norg, &next3)))
		return rc;
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

	html_raw(b, "<h2>Spaces</h2>");
	if (nspaces == 0) {
		html_raw(b, "<p class=\"empty\">Not installed on any space.</p>");
	} else {
		html_raw(b, "<div class=\"scroll-x\"><table><thead><tr><th scope=\"col\">Space</th><th scope=\"col\">Status"
			    "</th><th scope=\"col\">Installed</th><th scope=\"col\"><span class=\"mute\">Actions</span></th>"
			    "</tr></thead><tbody>");
		for (int i = 0; i < nspaces; i++) {
			const struct integration_target *t = &spaces[i].t;
			struct space s;
			bool known = dom_space_get(p->d, t->target_id, ROLE_READ, &s) == 0;
			err_clear();
			html_raw(b, "<tr><td>");
			if (known) {
				html_raw(b, "<a href=\"");
				app_href(b, "/s/", s.id);
				html_raw(b, "\">");
				app_emoji(b, s.emoji);
				app_text(b, s.title && *s.title ? s.title : "Untitled space");
				html_raw(b, "</a>");
			} else {
				html_raw(b, "<code>");
				app_text(b, t->target_id);
				html_raw(b, "</code>");
			}
			html_raw(b, "</td><td>");
			status_badge(b, t->status);
			html_raw(b, "</td><td>");
			app_date(b, t->created_at);
			html_raw(b, "</td><td>");
			if (admin) {
				html_raw(b, "<form class=\"inline\" method=\"post\" action=\"");
				app_text(b, inst_path(p, name, in.id, "/spaces/"));
				app_href(b, "", t->target_id);
				html_raw(b, "/uninstall\">");
				app_hidden_csrf(p);
				html_raw(b, "<button type=\"submit\" aria-label=\"Uninstall from ");
				app_text(b, known && s.title ? s.title : t->target_id);
				html_raw(b, "\">Uninstall</button></form>");
			}
			html_raw(b, "</td></tr>");
		}
		html_raw(b, "</tbody></table></div>");
		if (next)
			html_raw(b, "<p class=\"mute\">Only the first 100 spaces are shown.</p>");
	}
	if (admin) {
		int shown = 0;
		for (int i = 0; i < norg; i++) {
			bool installed = false;
			for (int j = 0; j < nspaces; j++)
				installed |= strcmp(spaces[j].t.target_id, org_spaces[i].id) == 0;
			if (installed)
				continue;
			if (!shown++) {
				html_raw(b, "<form class=\"search\" method=\"post\" action=\"");
				app_text(b, inst_path(p, name, in.id, "/spaces"));
				html_raw(b, "\">");
				app_hidden_csrf(p);
				html_raw(b, "<label for=\"space\">Install on a space</label><select id=\"space\" name=\"space\">");
			}
			html_raw(b, "<option value=\"");
			app_text(b, org_spaces[i].id);
			html_raw(b, "\">");
			app_text(b, org_spaces[i].title && *org_spaces[i].title ? org_spaces[i].title : "Untitled space");
			html_raw(b, "</option>");
		}
		if (shown)
			html_raw(b, "</select><button type=\"submit\">Install on this space</button></form>");
	}

	html_raw(b, "<h2>Sites</h2>");
	if (nsites == 0) {
		html_raw(b, "<p class=\"empty\">Not installed on any site.</p>");
	} else {
		html_raw(b, "<ul class=\"list\">");
		for (int i = 0; i < nsites; i++) {
			const struct integration_target *t = &sites[i].t;
			struct site s;
			bool known = dom_site_get(p->d, org_id, t->target_id, ROLE_READ, false, &s) == 0;
			err_clear();
			html_raw(b, "<li>");
			if (known) {
				html_raw(b, "<a href=\"");
				app_text(b, app_path2(p, "/o/", org_id, "/sites/", s.id, ""));
				html_raw(b, "\">");
				app_text(b, s.title && *s.title ? s.title : "Untitled site");
				html_raw(b, "</a>");
			} else {
				html_raw(b, "<code>");
				app_text(b, t->target_id);
				html_raw(b, "</code>");
			}
			html_raw(b, " ");
			status_badge(b, t->status);
			html_raw(b, "</li>");
		}
		html_raw(b, "</ul>");
	}
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
	return render_installation(p, NULL);
}

static int refused(struct app_page *p, int rc)
{
	const char *msg = NULL;

	if ((rc = app_form_refused(p, rc, &msg)))
		return rc;
	return render_installation(p, msg);
}

int page_installation_space_install(struct app_page *p)
{
	struct req *r = p->r;
	struct integration_installation in;
	struct target_view tv;
	const char *space = NULL;
	int rc, f;

	if ((rc = load_installation(p, &in)))
		return rc;
	f = r->body_too_large ? -1 : form_field(&r->arena, r->body ? r->body : "", r->body ? r->body_len : 0, "space", &space);
	if (f != 1 || !*space || strlen(space) > 64) {
		p->status = 400;
		return render_installation(p, "space: choose a space");
	}
	rc = dom_target_install(p->d, req_param(r, "integrationName"), in.id, "space", space, &tv);
	if (rc)
		return refused(p, rc);
	p->location = inst_path(p, req_param(r, "integrationName"), in.id, "");
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
		return refused(p, rc);
	if (!removed)
		return err_set(ERR_NOT_FOUND, "installation not found");
	p->location = org_path(p, "/integrations");
	return 0;
}

int page_installation_space_uninstall(struct app_page *p)
{
	struct integration_installation in;
	bool removed = false;
	int rc;

	if ((rc = load_installation(p, &in)))
		return rc;
	rc = dom_target_uninstall(p->d, req_param(p->r, "integrationName"), in.id, "space", req_param(p->r, "spaceId"),
				  &removed);
	if (rc)
		return refused(p, rc);
	if (!removed)
		return err_set(ERR_NOT_FOUND, "the integration is not installed on this space");
	p->location = inst_path(p, req_param(p->r, "integrationName"), in.id, "");
	return 0;
}
