/*
 * pages_integration.c - an integration's own page and its installations'
 * `urls.app` (issue 25: "`urls.app` of every object opens that object's
 * page").
 *
 * An integration's urls.app is /integrations/{name} and an installation's
 * /integrations/{name}/installations/{id} (json/serialize_integrations.c,
 * as GitBook names them). The first shows what the integration is (title,
 * summary, description, owner, visibility, target, scopes, version) as
 * getIntegration answers it (dom_integration_get decides who may see it: a
 * private integration looks missing to everyone outside its owner), and,
 * for each of the member's organizations, where its installations are
 * managed (/o/{organizationId}/integrations, pages_integrations.c). The
 * second is a 303 to the installation's page in its organization, after
 * dom_installation_get has decided the member may read it.
 */
#include "app/app.h"
#include "app/pages.h"
#include "domain/integrations.h"
#include "domain/orgs.h"
#include "site/site.h"
#include "util/err.h"

#include <jansson.h>
#include <string.h>

static void meta_row(struct jw *b, const char *dt, const char *dd)
{
	if (!dd || !*dd)
		return;
	html_raw(b, "<dt>");
	html_raw(b, dt);
	html_raw(b, "</dt><dd>");
	app_text(b, dd);
	html_raw(b, "</dd>");
}

/* The scopes (a JSON array of strings) as a list of code names. */
static void scopes_row(struct jw *b, const char *json)
{
	json_t *a = json ? json_loads(json, 0, NULL) : NULL;
	size_t i;
	json_t *v;

	if (json_is_array(a) && json_array_size(a) > 0) {
		html_raw(b, "<dt>Scopes</dt><dd>");
		json_array_foreach(a, i, v) {
			if (!json_is_string(v))
				continue;
			if (i)
				html_raw(b, ", ");
			html_raw(b, "<code>");
			app_text(b, json_string_value(v));
			html_raw(b, "</code>");
		}
		html_raw(b, "</dd>");
	}
	json_decref(a);
}

int page_integration(struct app_page *p)
{
	const char *name = req_param(p->r, "integrationName");
	struct list_req lr = { .limit = APP_LIST_MAX };
	struct integration_view v;
	struct dom_org *orgs = NULL;
	char *next = NULL, version[32];
	int n = 0, rc;
	struct jw *b = p->out;

	if ((rc = dom_integration_get(p->d, name, &v)) || (rc = dom_orgs_list(p->d, &lr, &orgs, &n, &next)))
		return rc;
	{
		const char *title = v.it.title && *v.it.title ? v.it.title : v.it.name;
		struct app_crumb crumbs[] = { { "Home", "/" }, { title, NULL } };
		app_frame_begin(p, title, crumbs, 2);
		html_raw(b, "<h1>");
		app_text(b, title);
		html_raw(b, "</h1>");
	}
	if (v.it.summary && *v.it.summary) {
		html_raw(b, "<p>");
		app_text(b, v.it.summary);
		html_raw(b, "</p>");
	}
	snprintf(version, sizeof(version), "%lld", (long long)v.it.version);
	html_raw(b, "<dl class=\"meta\">");
	meta_row(b, "Name", v.it.name);
	meta_row(b, "Published by", v.owner.title);
	meta_row(b, "Visibility", v.it.visibility);
	meta_row(b, "Installs on", v.it.target);
	meta_row(b, "Version", version);
	scopes_row(b, v.it.scopes);
	html_raw(b, "<dt>Updated</dt><dd>");
	app_date(b, v.it.updated_at);
	html_raw(b, "</dd></dl>");
	if (v.it.description && *v.it.description) {
		html_raw(b, "<h2>About</h2><p>");
		app_text(b, v.it.description);
		html_raw(b, "</p>");
	}
	html_raw(b, "<h2>In your organizations</h2>");
	if (n == 0) {
		html_raw(b, "<p class=\"empty\">You are not a member of any organization.</p>");
	} else {
		html_raw(b, "<p class=\"mute\">Installations are made and managed on each organization's integrations "
			    "page (administrators).</p><ul>");
		for (int i = 0; i < n; i++) {
			html_raw(b, "<li><a href=\"");
			html_raw(b, app_path(p, "/o/", orgs[i].org.id, "/integrations?q="));
			app_text(b, app_query_enc(&p->r->arena, v.it.name));
			html_raw(b, "\">");
			app_text(b, orgs[i].org.title);
			html_raw(b, "</a></li>");
		}
		html_raw(b, "</ul>");
		if (next)
			html_raw(b, "<p class=\"mute\">Your first 100 organizations are listed.</p>");
	}
	app_frame_end(p);
	return 0;
}

int page_integration_installation(struct app_page *p)
{
	const char *name = req_param(p->r, "integrationName"), *id = req_param(p->r, "installationId");
	struct integration_installation in;
	int rc;

	if ((rc = dom_installation_get(p->d, name, id, &in)))
		return rc;
	p->location = app_path2(p, "/o/", in.org_id, "/integrations/", name,
				arena_printf(&p->r->arena, "/installations/%s", in.id));
	return 0;
}
