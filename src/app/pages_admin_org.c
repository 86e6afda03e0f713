/*
 * pages_admin_org.c - an organization's settings in the web interface
 * (issue 25, "Administration"): /o/{organizationId}/settings, linked from
 * the organization's page.
 *
 * GET shows what updateOrganizationById changes (the fields an admin of
 * GitBook edits): title, hostname, default role, default content (a site of
 * the organization), logo, email domains, SSO enforced, AI features, invite
 * links, and the organization's merge rules. Every member reads them (as
 * getOrganizationById shows them); for an admin (org_permissions' admin, the
 * API's permissions.admin) they are a form. POST parses the fields as
 * updateOrganizationById's handler does (api/orgs.c body_org: title 2..255
 * characters, hostname 3..32, logo up to 2048 or empty to remove it, at
 * most 100 email domains of up to 253 characters) and calls dom_org_update,
 * the same domain function, which decides access and checks the values
 * (hostname's characters and uniqueness, the site, the logo's URL, the
 * domains). 303 back on success; a refusal is rolled back and the form shown
 * again with the status and message.
 *
 * A form field left out is left unchanged (the API's absent field). The
 * three switches are checkboxes, which a browser does not send unticked: the
 * form carries a hidden "switches" field, and only a post that has it sets
 * the three (unticked: false). An empty hostname is "unchanged": the API
 * cannot remove one (it is not nullable).
 *
 * Merge rules (POST /o/{organizationId}/merge-rules): the space settings'
 * section and parse with the organization as the target
 * (app_merge_rules_section, app_merge_rules_parse in pages_admin_space.c):
 * "none" or rules, no "inherit" (updateOrganizationById's mergeRules has
 * none).
 *
 * Left out: type, useCase, communityType, plan and billing are not
 * writable through updateOrganizationById.
 */
#include "app/app.h"
#include "app/pages.h"
#include "domain/orgs.h"
#include "domain/sites.h"
#include "http/form.h"
#include "model/roles.h"
#include "site/site.h"
#include "util/err.h"
#include "util/text.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

/* updateOrganizationById's bounds: domain/orgs.h ORG_*, shared with the
 * API's parse. */

/* defaultRole's choices; "guest" is the API's null. */
static const char *const default_roles[] = { "admin", "create", "review", "edit", "comment", "read", "guest", NULL };

static const char *org_id_of(struct app_page *p)
{
	return req_param(p->r, "organizationId");
}

static const char *role_value(enum role r)
{
	return r == ROLE_GUEST || !role_name(r) ? "guest" : role_name(r);
}

/* The email domains (JSON array text) one a line. */
static void domains_text(struct jw *b, const char *json, const char *sep)
{
	json_t *arr = json ? json_loads(json, 0, NULL) : NULL, *v;
	size_t i;

	json_array_foreach(arr, i, v) {
		if (!json_is_string(v))
			continue;
		if (i)
			html_raw(b, sep);
		app_text(b, json_string_value(v));
	}
	json_decref(arr);
}

static void meta(struct jw *b, const char *dt, const char *dd)
{
	html_raw(b, "<dt>");
	html_raw(b, dt);
	html_raw(b, "</dt><dd>");
	app_text(b, dd);
	html_raw(b, "</dd>");
}

static void check(struct jw *b, const char *name, const char *label, bool on)
{
	html_raw(b, "<p><input type=\"checkbox\" id=\"org-");
	html_raw(b, name);
	html_raw(b, "\" name=\"");
	html_raw(b, name);
	html_raw(b, on ? "\" value=\"on\" checked> <label for=\"org-" : "\" value=\"on\"> <label for=\"org-");
	html_raw(b, name);
	html_raw(b, "\">");
	html_raw(b, label);
	html_raw(b, "</label></p>");
}

static void text_input(struct jw *b, const char *name, const char *label, int maxlen, const char *value)
{
	char max[16];

	snprintf(max, sizeof(max), "%d", maxlen);
	html_raw(b, "<p><label for=\"org-");
	html_raw(b, name);
	html_raw(b, "\">");
	html_raw(b, label);
	html_raw(b, "</label><br><input id=\"org-");
	html_raw(b, name);
	html_raw(b, "\" name=\"");
	html_raw(b, name);
	html_raw(b, "\" type=\"text\" maxlength=\"");
	html_raw(b, max);
	html_raw(b, "\" value=\"");
	app_text(b, value ? value : "");
	html_raw(b, "\"></p>");
}

/* The default content's select: none, then the organization's first 100
 * sites (and the current one by id when it is not among them). */
static int sites_select(struct app_page *p, const struct org *o)
{
	struct list_req lr = { .limit = 100 };
	struct site_filter sf = { 0 };
	struct site *sites = NULL;
	char *next = NULL;
	int n = 0, rc;
	bool shown = false;
	struct jw *b = p->out;

	if ((rc = dom_sites_list(p->d, o->id, &sf, &lr, &sites, &n, &next)))
		return rc;
	html_raw(b, "<p><label for=\"org-defaultContent\">Default content: the site shown at the organization's "
		    "address</label><br><select id=\"org-defaultContent\" name=\"defaultContent\"><option value=\"\"");
	html_raw(b, o->default_site ? ">" : " selected>");
	html_raw(b, "none</option>");
	for (int i = 0; i < n; i++) {
		bool cur = o->default_site && strcmp(o->default_site, sites[i].id) == 0;
		shown |= cur;
		html_raw(b, "<option value=\"");
		app_text(b, sites[i].id);
		html_raw(b, cur ? "\" selected>" : "\">");
		app_text(b, sites[i].title && *sites[i].title ? sites[i].title : sites[i].id);
		html_raw(b, "</option>");
	}
	if (o->default_site && !shown) {
		html_raw(b, "<option value=\"");
		app_text(b, o->default_site);
		html_raw(b, "\" selected>");
		app_text(b, o->default_site);
		html_raw(b, "</option>");
	}
	html_raw(b, "</select></p>");
	return 0;
}

/* The default content's site as a reader sees it: its title when the
 * actor reads the site, else its id ("none" without one). */
static const char *default_site_title(struct app_page *p, const struct org *o)
{
	struct site s;

	if (!o->default_site)
		return "none";
	if (dom_site_get(p->d, o->id, o->default_site, ROLE_READ, false, &s)) {
		err_clear();
		return o->default_site;
	}
	return s.title && *s.title ? s.title : o->default_site;
}

static int render(struct app_page *p, const char *error)
{
	const char *org_id = org_id_of(p);
	struct org_permissions perm;
	struct app_mr_target mr = { 0 };
	struct dom_org d;
	const struct org *o;
	struct jw *b = p->out;
	int rc;

	if ((rc = dom_org_get(p->d, org_id, &d)))
		return rc;
	o = &d.org;
	org_permissions(&perm, d.actor.role, d.actor.owns_team);
	{
		struct app_crumb crumbs[] = { { "Home", "/" },
					      { o->title && *o->title ? o->title : "Untitled organization",
						app_path(p, "/o/", o->id, "") },
					      { "Settings", NULL } };
		app_frame_begin(p, "Organization settings", crumbs, 3);
	}
	html_raw(b, "<h1>Organization settings</h1>");
	app_error_box(b, error);
	mr.org_id = o->id;
	mr.rules = o->merge_rules;
	mr.space = false;
	mr.action = app_path(p, "/o/", o->id, "/merge-rules");
	if (!perm.admin) {
		html_raw(b, "<dl class=\"meta\">");
		meta(b, "Title", o->title ? o->title : "");
		meta(b, "Hostname", o->hostname ? o->hostname : "none");
		meta(b, "Default role of new members", role_value(o->default_role));
		meta(b, "Default content", default_site_title(p, o));
		meta(b, "Logo", o->logo ? o->logo : "none");
		html_raw(b, "<dt>Email domains</dt><dd>");
		domains_text(b, o->email_domains, ", ");
		html_raw(b, "</dd>");
		meta(b, "SSO enforced", o->sso ? "yes" : "no");
		meta(b, "AI features", o->ai ? "on" : "off");
		meta(b, "Invite links", o->invite_links ? "on" : "off");
		html_raw(b, "</dl><p class=\"mute\">Only an administrator of this organization can change its "
			    "settings.</p>");
		if ((rc = app_merge_rules_section(p, &mr, false)))
			return rc;
		app_frame_end(p);
		return 0;
	}
	html_raw(b, "<form method=\"post\" action=\"");
	app_text(b, app_path(p, "/o/", o->id, "/settings"));
	html_raw(b, "\">");
	app_hidden_csrf(p);
	html_raw(b, "<input type=\"hidden\" name=\"switches\" value=\"1\">");
	text_input(b, "title", "Title (2 to 255 characters)", ORG_TITLE_MAX, o->title);
	text_input(b, "hostname",
		   "Hostname of the organization's public content (3 to 32 lower-case letters, digits and '-'; "
		   "empty: unchanged, it cannot be removed once set)",
		   ORG_HOSTNAME_MAX, o->hostname);
	html_raw(b, "<p><label for=\"org-defaultRole\">Default role of members who join without one (guest: "
		    "nothing but what they are given)</label><br><select id=\"org-defaultRole\" name=\"defaultRole\">");
	for (int i = 0; default_roles[i]; i++) {
		html_raw(b, "<option value=\"");
		html_raw(b, default_roles[i]);
		html_raw(b, strcmp(role_value(o->default_role), default_roles[i]) == 0 ? "\" selected>" : "\">");
		html_raw(b, default_roles[i]);
		html_raw(b, "</option>");
	}
	html_raw(b, "</select></p>");
	if ((rc = sites_select(p, o)))
		return rc;
	text_input(b, "logo", "Logo (an http or https URL; empty for none)", ORG_LOGO_MAX, o->logo);
	html_raw(b, "<p><label for=\"org-emailDomains\">Email domains: people with an address there find the "
		    "organization (one a line, at most 100)</label><br><textarea id=\"org-emailDomains\" "
		    "name=\"emailDomains\" rows=\"4\" cols=\"40\" spellcheck=\"false\">");
	domains_text(b, o->email_domains, "\n");
	html_raw(b, "</textarea></p><p class=\"hint\">A SAML provider creates accounts only for addresses of a "
		    "verified domain: <a href=\"");
	app_text(b, app_path(p, "/o/", o->id, "/domains"));
	html_raw(b, "\">verify the email domains</a>.</p><fieldset><legend>Switches</legend>");
	check(b, "sso", "SSO enforced: members sign in through the organization's SAML providers", o->sso);
	check(b, "ai", "AI features", o->ai);
	check(b, "inviteLinks", "Invite links: members may join with a link", o->invite_links);
	html_raw(b, "</fieldset><p><button type=\"submit\">Save settings</button></p></form>");
	if ((rc = app_merge_rules_section(p, &mr, true)))
		return rc;
	app_frame_end(p);
	return 0;
}

int page_org_settings(struct app_page *p)
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

static int field(struct app_page *p, const char *name, const char **out)
{
	int f = form_field(&p->r->arena, p->r->body, p->r->body_len, name, out);

	if (f != 1)
		*out = NULL;
	return f;
}

/* The email domains' textarea: one a line (commas and spaces separate too),
 * blank lines skipped; each 1..253 characters, at most 100. */
static int parse_domains(struct app_page *p, const char *text, struct org_input *in)
{
	const char **list = arena_alloc(&p->r->arena, sizeof(*list) * (ORG_DOMAINS_MAX + 1));
	const char *s = text;
	int n = 0;

	if (!list)
		return err_set(ERR_INTERNAL, "out of memory");
	while (*s) {
		size_t k;
		s += strspn(s, " \t\r\n,");
		k = strcspn(s, " \t\r\n,");
		if (!k)
			break;
		if (n == ORG_DOMAINS_MAX)
			return err_set(ERR_INVALID, "emailDomains: at most %d domains", ORG_DOMAINS_MAX);
		if (k > ORG_DOMAIN_MAX)
			return err_set(ERR_INVALID, "emailDomains[%d]: at most %d characters", n, ORG_DOMAIN_MAX);
		if (!(list[n++] = arena_strndup(&p->r->arena, s, k)))
			return err_set(ERR_INTERNAL, "out of memory");
		s += k;
	}
	in->has_email_domains = true;
	in->email_domains = list;
	in->n_email_domains = n;
	return 0;
}

/* The form's fields as updateOrganizationById's body: 0, or ERR_INVALID
 * naming the field. */
static int parse(struct app_page *p, struct org_input *in)
{
	const char *title, *hostname, *role, *content, *logo, *domains, *switches, *sso, *ai, *links;
	int ft = field(p, "title", &title), fh = field(p, "hostname", &hostname), fr = field(p, "defaultRole", &role),
	    fc = field(p, "defaultContent", &content), fl = field(p, "logo", &logo),
	    fd = field(p, "emailDomains", &domains), fs = field(p, "switches", &switches), f1 = field(p, "sso", &sso),
	    f2 = field(p, "ai", &ai), f3 = field(p, "inviteLinks", &links), rc;
	long len;

	memset(in, 0, sizeof(*in));
	if (ft < 0 || (ft == 1 && ((len = utf8_len(title)) < ORG_TITLE_MIN || len > ORG_TITLE_MAX)))
		return err_set(ERR_INVALID, "title: must be %d to %d characters long", ORG_TITLE_MIN, ORG_TITLE_MAX);
	if (fh < 0 || (fh == 1 && *hostname &&
		       ((len = utf8_len(hostname)) < ORG_HOSTNAME_MIN || len > ORG_HOSTNAME_MAX)))
		return err_set(ERR_INVALID, "hostname: must be %d to %d characters long", ORG_HOSTNAME_MIN,
			       ORG_HOSTNAME_MAX);
	if (fl < 0 || (fl == 1 && utf8_len(logo) > ORG_LOGO_MAX))
		return err_set(ERR_INVALID, "logo: at most %d characters", ORG_LOGO_MAX);
	if (fr < 0 || fc < 0 || fd < 0 || fs < 0 || f1 < 0 || f2 < 0 || f3 < 0)
		return err_set(ERR_INVALID, "%s: malformed form data",
			       fr < 0 ? "defaultRole" : fc < 0 ? "defaultContent" : fd < 0 ? "emailDomains" : "a switch");
	in->title = title;
	in->hostname = hostname && *hostname ? hostname : NULL;
	if (fr == 1) {
		in->has_default_role = true;
		in->default_role = strcmp(role, "guest") == 0 ? ROLE_GUEST : role_parse(role);
		if (strcmp(role, "guest") != 0 && in->default_role < ROLE_READ)
			return err_set(ERR_INVALID, "defaultRole: must be a role or guest (null)");
	}
	if (fc == 1) {
		in->has_default_content = true;
		in->default_site = *content ? content : NULL;
	}
	if (fl == 1) {
		in->has_logo = true;
		in->logo = *logo ? logo : NULL;
	}
	if (fd == 1 && (rc = parse_domains(p, domains, in)))
		return rc;
	if (fs == 1) {
		in->has_sso = in->has_ai = in->has_invite_links = true;
		in->sso = f1 == 1;
		in->ai = f2 == 1;
		in->invite_links = f3 == 1;
	}
	return 0;
}

int page_org_settings_save(struct app_page *p)
{
	struct org_input in;
	struct dom_org o;
	int rc;

	if ((rc = parse(p, &in)) || (rc = dom_org_update(p->d, org_id_of(p), &in, &o)))
		return refused(p, rc);
	p->location = app_path(p, "/o/", o.org.id, "/settings");
	return 0;
}

int page_org_merge_rules_save(struct app_page *p)
{
	struct org_input in = { 0 };
	struct dom_org o;
	int rc;

	/* The rules the form does not offer are kept from the current ones,
	 * read locked so that an API update in between cannot be lost: an
	 * update that changes nothing is dom_org_update's locked read (and its
	 * access check: a member who is not an admin gets the 403, shown on
	 * the form's page). */
	if ((rc = dom_org_update(p->d, org_id_of(p), &in, &o)) ||
	    (rc = app_merge_rules_parse(p, o.org.merge_rules, false, &in.merge_rules)) ||
	    (rc = dom_org_update(p->d, org_id_of(p), &in, &o)))
		return refused(p, rc);
	p->location = app_path(p, "/o/", o.org.id, "/settings#merge-rules");
	return 0;
}
