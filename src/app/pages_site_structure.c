/*
 * pages_site_structure.c - a site's spaces and sections, and its
 * customization, in the web interface (issue 25, "sites (spaces, sections,
 * ... customization basics)"):
 *
 *   /o/{organizationId}/sites/{siteId}/structure      the structure, forms
 *   /o/{organizationId}/sites/{siteId}/customization  the basics, a form
 *
 * The structure is getSiteStructure's (dom_site_get, dom_site_structure);
 * its forms call the functions the API's handlers call (api/site_structure.c,
 * api/sites.c), which check the role (create for the structure, admin for
 * the site's own defaults) and the rules:
 *   add a space (addSpaceToSite: dom_site_space_create, to a section or the
 *   default one), remove a site space (dom_site_item_delete), make a site
 *   space the default of its section (updateSiteSection's defaultSiteSpace:
 *   dom_site_item_update) or of the site's root (updateSiteById's
 *   defaultSiteSpace: dom_site_update), make a section the default
 *   (defaultSiteSection: dom_site_update), create a section
 *   (dom_site_section_create, then its path with dom_site_item_update, in
 *   the same transaction) and delete one (dom_site_item_delete).
 * Fields are bounded as the API bounds them (spaceId 1..64, a section's
 * title 2..128 and path 1..100 characters), with the API's messages. The
 * forms are shown when the site's `access` (the actor's role, from
 * dom_site_get) is create or more, the admin-only buttons when it is admin;
 * the domain decides either way.
 *
 * The customization page shows the basics of SiteCustomizationSettings as
 * the API answers them (site_customization_to_json: the stored settings
 * over GitBook's defaults): the site's title in its header, the theme, the
 * primary and tint colors (light and dark), the default light/dark mode and
 * whether readers may switch, the favicon and the header's logo (URLs).
 * Saving lays the form's fields over the STORED settings (every field the
 * form does not have is kept; an empty optional field removes its key, so
 * the default applies) and calls dom_site_customization_set (PUT
 * .../customization's domain function), whose check names a bad field
 * ("styling.primaryColor.light: must be a color #RGB or #RRGGBB"): a 400 with
 * the form again.
 */
#include "app/app.h"
#include "app/pages.h"
#include "domain/orgs.h"
#include "domain/sites.h"
#include "domain/spaces.h"
#include "http/form.h"
#include "json/serialize_sites.h"
#include "site/site.h"
#include "util/err.h"
#include "util/text.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *site_path(struct app_page *p, const char *suffix)
{
	return app_path2(p, "/o/", req_param(p->r, "organizationId"), "/sites/", req_param(p->r, "siteId"), suffix);
}

/* The frame of both pages: crumbs Home > org > site > title. */
static int begin(struct app_page *p, const struct site *s, const char *title)
{
	const char *org_id = req_param(p->r, "organizationId");
	struct dom_org o;
	int rc;

	if ((rc = dom_org_get(p->d, org_id, &o)))
		return rc;
	struct app_crumb crumbs[] = { { "Home", "/" }, { o.org.title, app_path(p, "/o/", org_id, "") },
				      { s->title && *s->title ? s->title : "Site", site_path(p, "") }, { title, NULL } };
	app_frame_begin(p, title, crumbs, 4);
	html_raw(p->out, "<h1>");
	app_text(p->out, title);
	html_raw(p->out, "</h1><p class=\"actions\"><a href=\"");
	app_text(p->out, site_path(p, "/settings"));
	html_raw(p->out, "\">Settings and publishing</a><a href=\"");
	app_text(p->out, site_path(p, "/structure"));
	html_raw(p->out, "\">Spaces and sections</a><a href=\"");
	app_text(p->out, site_path(p, "/customization"));
	html_raw(p->out, "\">Customization</a></p>");
	return 0;
}

/* A form field: 1 with *out, 0 absent; else -1 with the API's message in
 * *bad (min..max characters; max 0: any length). */
static int field(struct app_page *p, const char *name, long min, long max, const char **out, const char **bad)
{
	struct req *r = p->r;
	int f = form_field(&r->arena, r->body, r->body_len, name, out);
	long n;

	if (f < 0) {
		*bad = arena_printf(&r->arena, "%s: must be valid text", name);
		return -1;
	}
	if (f == 0)
		return 0;
	n = utf8_len(*out);
	if (n < min || (max > 0 && n > max)) {
		*bad = arena_printf(&r->arena, "%s: must be %ld to %ld characters long", name, min, max);
		return -1;
	}
	return 1;
}

/* ---- the structure ---- */

/* A button in its own small form posting to the site's path suffix
 * (+ id + suffix2), with an optional hidden field. */
static void button(struct app_page *p, const char *suffix, const char *id, const char *suffix2, const char *hname,
		   const char *hvalue, const char *label, const char *aria)
{
	struct jw *b = p->out;

	html_raw(b, "<form class=\"inline\" method=\"post\" action=\"");
	app_text(b, site_path(p, suffix));
	app_href(b, "", id);
	html_raw(b, suffix2);
	html_raw(b, "\">");
	app_hidden_csrf(p);
	if (hname) {
		html_raw(b, "<input type=\"hidden\" name=\"");
		html_raw(b, hname);
		html_raw(b, "\" value=\"");
		app_text(b, hvalue);
		html_raw(b, "\">");
	}
	html_raw(b, "<button type=\"submit\" aria-label=\"");
	app_text(b, aria);
	html_raw(b, "\">");
	html_raw(b, label);
	html_raw(b, "</button></form> ");
}

static const char *space_title(const struct site_space *ss)
{
	return ss->space.title && *ss->space.title ? ss->space.title : "Untitled space";
}

/* The site spaces of a section (sec NULL: the root). */
static void spaces_table(struct app_page *p, const struct site *s, const struct site_section *sec,
			 const struct site_space *spaces, int n)
{
	struct jw *b = p->out;
	bool write = s->access >= ROLE_CREATE, admin = s->access == ROLE_ADMIN;

	if (n == 0) {
		html_raw(b, "<p class=\"empty\">No space here yet.</p>");
		return;
	}
	html_raw(b, "<div class=\"scroll-x\"><table><thead><tr><th scope=\"col\">Space</th><th scope=\"col\">Path</th>");
	if (write)
		html_raw(b, "<th scope=\"col\"><span class=\"mute\">Actions</span></th>");
	html_raw(b, "</tr></thead><tbody>");
	for (int i = 0; i < n; i++) {
		const struct site_space *ss = &spaces[i];
		html_raw(b, "<tr><td><a href=\"");
		app_href(b, "/s/", ss->space_id);
		html_raw(b, "\">");
		app_emoji(b, ss->space.emoji);
		app_text(b, space_title(ss));
		html_raw(b, "</a>");
		if (ss->is_default)
			html_raw(b, " <span class=\"badge st-open\">default</span>");
		html_raw(b, "</td><td><code>");
		app_text(b, ss->path ? ss->path : "");
		html_raw(b, "</code></td>");
		if (write) {
			const char *t = space_title(ss);
			html_raw(b, "<td>");
			/* The root's default is the site's (admin); a section's is
			 * the section's (create). */
			if (!ss->is_default && (sec || admin))
				button(p, "/site-spaces/", ss->id, "/default", sec ? "section" : NULL, sec ? sec->id : NULL,
				       "Make default", arena_printf(&p->r->arena, "Make %s the default", t));
			button(p, "/site-spaces/", ss->id, "/remove", NULL, NULL, "Remove",
			       arena_printf(&p->r->arena, "Remove %s from the site", t));
			html_raw(b, "</td>");
		}
		html_raw(b, "</tr>");
	}
	html_raw(b, "</tbody></table></div>");
}

static void space_options(struct jw *b, const struct space *spaces, int n)
{
	for (int i = 0; i < n; i++) {
		html_raw(b, "<option value=\"");
		app_text(b, spaces[i].id);
		html_raw(b, "\">");
		app_text(b, spaces[i].title && *spaces[i].title ? spaces[i].title : "Untitled space");
		html_raw(b, "</option>");
	}
}

static int render_structure(struct app_page *p, const char *error)
{
	const char *org_id = req_param(p->r, "organizationId"), *site_id = req_param(p->r, "siteId");
	struct list_req lr = { .limit = 1000 };
	struct space *spaces = NULL;
	struct site_structure st;
	struct site s;
	char *next = NULL;
	int nspaces = 0, rc;
	struct jw *b = p->out;
	bool write, admin;

	if ((rc = dom_site_get(p->d, org_id, site_id, ROLE_READ, false, &s)) || (rc = dom_site_structure(p->d, &s, &st)))
		return rc;
	write = s.access >= ROLE_CREATE;
	admin = s.access == ROLE_ADMIN;
	if (write && (rc = dom_spaces_list(p->d, org_id, NULL, &lr, &spaces, &nspaces, &next)))
		return rc;
	if ((rc = begin(p, &s, "Spaces and sections")))
		return rc;
	app_error_box(b, error);
	if (!write)
		html_raw(b, "<p class=\"mute\">Only members with the create role can change which spaces this site "
			    "shows.</p>");
	if (st.nsections == 0) {
		html_raw(b, "<h2>Spaces</h2>");
		spaces_table(p, &s, NULL, st.root, st.nroot);
	}
	for (int i = 0; i < st.nsections; i++) {
		const struct site_section *sec = &st.sections[i];
		const char *t = sec->title && *sec->title ? sec->title : "Untitled section";
		html_raw(b, "<section class=\"site-section\"><h2>");
		app_text(b, t);
		html_raw(b, "</h2><p class=\"mute\">Section, path <code>");
		app_text(b, sec->path ? sec->path : "");
		html_raw(b, "</code>");
		if (sec->is_default)
			html_raw(b, " <span class=\"badge st-open\">default section</span>");
		html_raw(b, "</p>");
		if (write) {
			html_raw(b, "<div class=\"actions\">");
			if (admin && !sec->is_default)
				button(p, "/sections/", sec->id, "/default", NULL, NULL, "Make default section",
				       arena_printf(&p->r->arena, "Make %s the default section", t));
			button(p, "/sections/", sec->id, "/delete", NULL, NULL, "Delete section",
			       arena_printf(&p->r->arena, "Delete the section %s", t));
			html_raw(b, "</div>");
		}
		spaces_table(p, &s, sec, sec->spaces, sec->nspaces);
		html_raw(b, "</section>");
	}
	if (!write) {
		app_frame_end(p);
		return 0;
	}
	if (nspaces == 0) {
		html_raw(b, "<p class=\"empty\">This organization has no space you read to add.</p>");
		app_frame_end(p);
		return 0;
	}
	html_raw(b, "<h2>Add a space</h2><form method=\"post\" action=\"");
	app_text(b, site_path(p, "/site-spaces"));
	html_raw(b, "\">");
	app_hidden_csrf(p);
	html_raw(b, "<p><label for=\"add-space\">Space</label><br><select id=\"add-space\" name=\"spaceId\">");
	space_options(b, spaces, nspaces);
	html_raw(b, "</select></p>");
	if (st.nsections > 0) {
		html_raw(b, "<p><label for=\"add-section\">Section</label><br><select id=\"add-section\" "
			    "name=\"sectionId\"><option value=\"\">The default section</option>");
		for (int i = 0; i < st.nsections; i++) {
			html_raw(b, "<option value=\"");
			app_text(b, st.sections[i].id);
			html_raw(b, "\">");
			app_text(b, st.sections[i].title && *st.sections[i].title ? st.sections[i].title
										  : "Untitled section");
			html_raw(b, "</option>");
		}
		html_raw(b, "</select></p>");
	}
	html_raw(b, "<p><button type=\"submit\">Add space</button></p></form><h2>New section</h2><p class=\"mute\">A "
		    "section groups spaces under a tab of the site; the first section takes the spaces shown so far."
		    "</p><form method=\"post\" action=\"");
	app_text(b, site_path(p, "/sections"));
	html_raw(b, "\">");
	app_hidden_csrf(p);
	html_raw(b, "<p><label for=\"sec-space\">Its first space</label><br><select id=\"sec-space\" name=\"spaceId\">");
	space_options(b, spaces, nspaces);
	html_raw(b, "</select></p><p><label for=\"sec-title\">Title (empty: the space's)</label><br><input "
		    "id=\"sec-title\" name=\"title\" type=\"text\" maxlength=\"128\"></p><p><label for=\"sec-path\">Path "
		    "(empty: from the title)</label><br><input id=\"sec-path\" name=\"path\" type=\"text\" "
		    "maxlength=\"100\"></p><p><button type=\"submit\">Create section</button></p></form>");
	app_frame_end(p);
	return 0;
}

int page_site_structure(struct app_page *p)
{
	return render_structure(p, NULL);
}

/* A write's end: back to the structure, or the form again with why. */
static int structure_done(struct app_page *p, int rc)
{
	const char *msg = NULL;

	if (rc == 0) {
		p->location = site_path(p, "/structure");
		return 0;
	}
	if ((rc = app_form_refused(p, rc, &msg)))
		return rc;
	return render_structure(p, msg);
}

static int structure_bad(struct app_page *p, const char *bad)
{
	p->status = 400;
	return render_structure(p, bad);
}

int page_site_space_add(struct app_page *p)
{
	const char *space_id = NULL, *section_id = NULL, *bad = NULL;
	struct site_answer v;
	int fs, fc;

	if ((fs = field(p, "spaceId", 1, 64, &space_id, &bad)) < 0 ||
	    (fc = field(p, "sectionId", 0, 64, &section_id, &bad)) < 0)
		return structure_bad(p, bad);
	if (fs == 0)
		return structure_bad(p, "spaceId: is required");
	return structure_done(p, dom_site_space_create(p->d, req_param(p->r, "organizationId"),
						       req_param(p->r, "siteId"), space_id,
						       fc == 1 && *section_id ? section_id : NULL, &v));
}

int page_site_space_remove(struct app_page *p)
{
	return structure_done(p, dom_site_item_delete(p->d, req_param(p->r, "organizationId"), req_param(p->r, "siteId"),
						      SITE_ITEM_SPACE, req_param(p->r, "siteSpaceId")));
}

int page_site_space_default(struct app_page *p)
{
	const char *org_id = req_param(p->r, "organizationId"), *site_id = req_param(p->r, "siteId"),
		   *id = req_param(p->r, "siteSpaceId"), *section_id = NULL, *bad = NULL;
	int fc = field(p, "section", 1, 64, &section_id, &bad);

	if (fc < 0)
		return structure_bad(p, bad);
	if (fc == 1) {
		struct site_item_update in = { .default_site_space = id };
		struct site_answer v;
		return structure_done(p, dom_site_item_update(p->d, org_id, site_id, SITE_ITEM_SECTION, section_id, &in, &v));
	} else {
		struct site_update in = { .default_site_space = id };
		struct site s;
		return structure_done(p, dom_site_update(p->d, org_id, site_id, &in, &s));
	}
}

int page_site_section_create(struct app_page *p)
{
	const char *org_id = req_param(p->r, "organizationId"), *site_id = req_param(p->r, "siteId"), *bad = NULL;
	struct site_section_input in;
	struct site_item_update up;
	struct site_answer v;
	const char *path = NULL;
	int fs, ft, fp, rc;

	memset(&in, 0, sizeof(in));
	memset(&up, 0, sizeof(up));
	if ((fs = field(p, "spaceId", 1, 64, &in.space_id, &bad)) < 0 ||
	    (ft = field(p, "title", 0, 128, &in.title, &bad)) < 0 || (fp = field(p, "path", 0, 100, &path, &bad)) < 0)
		return structure_bad(p, bad);
	if (fs == 0)
		return structure_bad(p, "spaceId: is required");
	/* Empty: the default (the API's absent or null). */
	if (ft == 1 && !*in.title)
		in.title = NULL;
	if (in.title && utf8_len(in.title) < 2)
		return structure_bad(p, "title: must be 2 to 128 characters long");
	if ((rc = dom_site_section_create(p->d, org_id, site_id, &in, &v)))
		return structure_done(p, rc);
	if (fp == 1 && *path) {
		up.path = path;
		rc = dom_site_item_update(p->d, org_id, site_id, SITE_ITEM_SECTION, v.item.section->id, &up, &v);
	}
	return structure_done(p, rc);
}

int page_site_section_delete(struct app_page *p)
{
	return structure_done(p, dom_site_item_delete(p->d, req_param(p->r, "organizationId"), req_param(p->r, "siteId"),
						      SITE_ITEM_SECTION, req_param(p->r, "siteSectionId")));
}

int page_site_section_default(struct app_page *p)
{
	struct site_update in = { .default_site_section = req_param(p->r, "siteSectionId") };
	struct site s;

	return structure_done(p, dom_site_update(p->d, req_param(p->r, "organizationId"), req_param(p->r, "siteId"),
						 &in, &s));
}

/* ---- customization ---- */

static const char *const themes[] = { "clean", "muted", "bold", "gradient", NULL };
static const char *const modes[] = { "light", "dark", NULL };

/* The string at a path of objects ("a", "b", NULL) in j, or "". */
static const char *at(json_t *j, ...)
{
	va_list ap;
	const char *k;

	va_start(ap, j);
	while (j && (k = va_arg(ap, const char *)))
		j = json_object_get(j, k);
	va_end(ap);
	return json_is_string(j) ? json_string_value(j) : "";
}

static const char *shown(struct app_page *p, const char *name, const char *current);

/* A labelled input / select of the customization form (value: the current
 * one, or what a refused POST sent). */
static void text_input(struct app_page *p, const char *name, const char *label, const char *value, int maxlen)
{
	struct jw *b = p->out;

	value = shown(p, name, value);
	html_raw(b, "<p><label for=\"cz-");
	html_raw(b, name);
	html_raw(b, "\">");
	html_raw(b, label);
	html_raw(b, "</label><br><input id=\"cz-");
	html_raw(b, name);
	html_raw(b, "\" name=\"");
	html_raw(b, name);
	html_raw(b, "\" type=\"text\"");
	if (maxlen > 0) {
		char m[32];
		snprintf(m, sizeof(m), " maxlength=\"%d\"", maxlen);
		html_raw(b, m);
	}
	html_raw(b, " value=\"");
	app_text(b, value ? value : "");
	html_raw(b, "\"></p>");
}

static void select_input(struct app_page *p, const char *name, const char *label, const char *const *list,
			 const char *cur)
{
	struct jw *b = p->out;

	cur = shown(p, name, cur);
	html_raw(b, "<p><label for=\"cz-");
	html_raw(b, name);
	html_raw(b, "\">");
	html_raw(b, label);
	html_raw(b, "</label><br><select id=\"cz-");
	html_raw(b, name);
	html_raw(b, "\" name=\"");
	html_raw(b, name);
	html_raw(b, "\">");
	for (int i = 0; list[i]; i++) {
		html_raw(b, "<option value=\"");
		html_raw(b, list[i]);
		html_raw(b, cur && strcmp(cur, list[i]) == 0 ? "\" selected>" : "\">");
		html_raw(b, list[i]);
		html_raw(b, "</option>");
	}
	html_raw(b, "</select></p>");
}

static void show(struct jw *b, const char *label, const char *value)
{
	html_raw(b, "<dt>");
	html_raw(b, label);
	html_raw(b, "</dt><dd>");
	app_text(b, value && *value ? value : "(none)");
	html_raw(b, "</dd>");
}

/* What a field shows: on a refused POST, what was sent (so nothing typed
 * is lost); else the current value. */
static const char *shown(struct app_page *p, const char *name, const char *current)
{
	const char *v = NULL;

	if (strcmp(p->r->method, "POST") == 0 &&
	    form_field(&p->r->arena, p->r->body, p->r->body_len, name, &v) == 1)
		return v;
	return current;
}

static int render_customization(struct app_page *p, const char *error)
{
	const char *org_id = req_param(p->r, "organizationId"), *site_id = req_param(p->r, "siteId");
	const char *toggle;
	struct site s;
	struct jw g;
	json_t *c = NULL;
	struct jw *b = p->out;
	int rc;

	if ((rc = dom_site_get(p->d, org_id, site_id, ROLE_READ, false, &s)))
		return rc;
	/* What the API answers: the stored settings over the defaults. */
	jw_init(&g);
	rc = site_customization_to_json(&g, s.customization);
	if (rc == 0 && jw_ok(&g))
		c = json_loadb(g.buf, g.len, 0, NULL);
	jw_free(&g);
	if (!c)
		return err_set(ERR_INTERNAL, "cannot read the site's customization");
	if ((rc = begin(p, &s, "Customization"))) {
		json_decref(c);
		return rc;
	}
	app_error_box(b, error);
	if (s.access != ROLE_ADMIN) {
		html_raw(b, "<dl class=\"meta\">");
		show(b, "Title", at(c, "title", NULL));
		show(b, "Theme", at(c, "styling", "theme", NULL));
		show(b, "Primary color", at(c, "styling", "primaryColor", "light", NULL));
		show(b, "Tint", at(c, "styling", "tint", "color", "light", NULL));
		show(b, "Default mode", at(c, "themes", "default", NULL));
		show(b, "Favicon", at(c, "favicon", "icon", "light", NULL));
		show(b, "Logo", at(c, "header", "logo", "light", NULL));
		html_raw(b, "</dl><p class=\"mute\">Only an administrator of this site can change its customization.</p>");
		json_decref(c);
		app_frame_end(p);
		return 0;
	}
	html_raw(b, "<form class=\"stack\" method=\"post\" action=\"");
	app_text(b, site_path(p, "/customization"));
	html_raw(b, "\">");
	app_hidden_csrf(p);
	text_input(p, "title", "Title in the site's header (empty: the site's title)", at(c, "title", NULL), 128);
	select_input(p, "theme", "Theme", themes, at(c, "styling", "theme", NULL));
	html_raw(b, "<fieldset><legend>Colors (#RGB or #RRGGBB)</legend>");
	text_input(p, "primaryLight", "Primary color, light mode", at(c, "styling", "primaryColor", "light", NULL), 16);
	text_input(p, "primaryDark", "Primary color, dark mode", at(c, "styling", "primaryColor", "dark", NULL), 16);
	text_input(p, "tintLight", "Tint, light mode (empty: no tint)", at(c, "styling", "tint", "color", "light", NULL),
		   16);
	text_input(p, "tintDark", "Tint, dark mode", at(c, "styling", "tint", "color", "dark", NULL), 16);
	html_raw(b, "</fieldset>");
	select_input(p, "mode", "Default mode", modes, at(c, "themes", "default", NULL));
	/* The checkbox first: the first occurrence of a name wins, so an
	 * unchecked box sends the hidden "off". */
	toggle = json_is_true(json_object_get(json_object_get(c, "themes"), "toggeable")) ? "on" : "off";
	html_raw(b, "<p><input id=\"cz-toggle\" name=\"toggeable\" type=\"checkbox\" value=\"on\"");
	if (strcmp(shown(p, "toggeable", toggle), "on") == 0)
		html_raw(b, " checked");
	html_raw(b, "><label for=\"cz-toggle\"> Readers may switch between light and dark</label><input type=\"hidden\" "
		    "name=\"toggeable\" value=\"off\"></p>");
	text_input(p, "favicon", "Favicon URL (empty: none)", at(c, "favicon", "icon", "light", NULL), 2048);
	text_input(p, "logo", "Logo URL in the header (empty: none)", at(c, "header", "logo", "light", NULL), 2048);
	html_raw(b, "<p><button type=\"submit\">Save customization</button></p></form>");
	json_decref(c);
	app_frame_end(p);
	return 0;
}

int page_site_customization(struct app_page *p)
{
	return render_customization(p, NULL);
}

/* o[key] as an object, created when missing or not one; NULL when out of
 * memory. */
static json_t *obj(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (json_is_object(v))
		return v;
	v = json_object();
	if (!v || json_object_set_new(o, key, v))
		return NULL;
	return v;
}

/* {light: a, dark: b} at o[key], or (both empty) o[key] removed. -1 out of
 * memory. */
static int themed(json_t *o, const char *key, const char *light, const char *dark)
{
	json_t *v;

	if (!*light && !*dark) {
		json_object_del(o, key);
		return 0;
	}
	v = json_pack("{s:s, s:s}", "light", light, "dark", dark);
	return v ? json_object_set_new(o, key, v) : -1;
}

int page_site_customization_save(struct app_page *p)
{
	struct req *r = p->r;
	const char *org_id = req_param(r, "organizationId"), *site_id = req_param(r, "siteId"), *bad = NULL;
	const char *title = NULL, *theme = NULL, *pl = NULL, *pd = NULL, *tl = NULL, *td = NULL, *mode = NULL,
		   *toggle = NULL, *favicon = NULL, *logo = NULL;
	json_t *c = NULL, *styling, *th, *tint, *hd;
	struct site s;
	int ft, fth, fpl, fpd, ftl, ftd, fm, fto, ff, fl, rc;

	/* Text fields as text; their values are the domain's to check. */
	if ((ft = field(p, "title", 0, 0, &title, &bad)) < 0 || (fth = field(p, "theme", 0, 0, &theme, &bad)) < 0 ||
	    (fpl = field(p, "primaryLight", 0, 0, &pl, &bad)) < 0 ||
	    (fpd = field(p, "primaryDark", 0, 0, &pd, &bad)) < 0 || (ftl = field(p, "tintLight", 0, 0, &tl, &bad)) < 0 ||
	    (ftd = field(p, "tintDark", 0, 0, &td, &bad)) < 0 || (fm = field(p, "mode", 0, 0, &mode, &bad)) < 0 ||
	    (fto = field(p, "toggeable", 0, 0, &toggle, &bad)) < 0 ||
	    (ff = field(p, "favicon", 0, 0, &favicon, &bad)) < 0 || (fl = field(p, "logo", 0, 0, &logo, &bad)) < 0) {
		p->status = 400;
		return render_customization(p, bad);
	}
	/* The stored settings (read: the admin check is the write's). */
	if ((rc = dom_site_get(p->d, org_id, site_id, ROLE_READ, false, &s)))
		return rc;
	c = s.customization && *s.customization ? json_loads(s.customization, 0, NULL) : json_object();
	if (!json_is_object(c)) {
		json_decref(c);
		return err_set(ERR_INTERNAL, "cannot read the site's stored customization");
	}
	rc = ERR_INTERNAL;
	if (!(styling = obj(c, "styling")) || !(th = obj(c, "themes")) || !(hd = obj(c, "header")))
		goto oom;
	if (ft == 1 && !*title)
		json_object_del(c, "title"); /* -1 when it was not there: nothing to do */
	else if (ft == 1 && json_object_set_new(c, "title", json_string(title)))
		goto oom;
	if (fth == 1 && json_object_set_new(styling, "theme", json_string(theme)))
		goto oom;
	if (fpl == 1 && fpd == 1 && themed(styling, "primaryColor", pl, pd))
		goto oom;
	if (ftl == 1 && ftd == 1) {
		if (!*tl && !*td) {
			json_object_del(styling, "tint");
		} else if (!(tint = obj(styling, "tint")) || themed(tint, "color", tl, td)) {
			goto oom;
		}
	}
	if (fm == 1 && json_object_set_new(th, "default", json_string(mode)))
		goto oom;
	if (fto == 1 && json_object_set_new(th, "toggeable", json_boolean(strcmp(toggle, "on") == 0)))
		goto oom;
	if (ff == 1) {
		json_t *fav = *favicon ? json_pack("{s:{s:s, s:s}}", "icon", "light", favicon, "dark", favicon)
				       : json_object();
		if (!fav || json_object_set_new(c, "favicon", fav))
			goto oom;
	}
	if (fl == 1 && themed(hd, "logo", logo, logo))
		goto oom;
	rc = dom_site_customization_set(p->d, org_id, site_id, c, &s);
	json_decref(c);
	c = NULL;
	if (rc) {
		const char *msg = NULL;
		if ((rc = app_form_refused(p, rc, &msg)))
			return rc;
		return render_customization(p, msg);
	}
	p->location = site_path(p, "/customization");
	return 0;
oom:
	json_decref(c);
	return err_set(rc, "out of memory");
}
