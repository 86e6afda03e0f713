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
 * Section groups (second pass): shown at the top level with their sections
 * inside; create one (createSiteSectionGroup's dom_site_group_create, a
 * title of 1..100 characters), add a section to it
 * (dom_site_group_add_section), remove one (dom_site_group_remove_section)
 * and delete it (dom_site_item_delete: its sections stay). Order: each site
 * space, section and group has "Move up" / "Move down" (POST .../move: the
 * item goes before its previous sibling or after its next one, as
 * sortSiteStructure moves it: dom_site_item_move with sort), forms only.
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
 *
 * The same form (struct cz: one function with the target) edits a site
 * space's override, /o/.../sites/{siteId}/site-spaces/{siteSpaceId}/
 * customization: it shows what getSiteSpaceCustomization answers (the
 * override over the site's), and saving sends a PATCH
 * (dom_site_space_customization_override) of the fields that differ from
 * the site's (a field equal to the site's, or emptied, is reset with null
 * where the override has it). "Use the site's customization" deletes the
 * override (dom_site_space_customization_delete).
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
	app_href(b, "", suffix2);
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

/* One item of a list of siblings, for its Move up / Move down buttons. */
struct sib {
	const char *type; /* GitBook's item type: site-space, site-section, site-section-group */
	const char *id;
};

/* "Move up" (before the previous sibling) and "Move down" (after the next):
 * sortSiteStructure's dom_site_item_move, a small form each. */
static void move_buttons(struct app_page *p, const struct sib *sibs, int i, int n, const char *what)
{
	struct jw *b = p->out;

	for (int k = 0; k < 2; k++) {
		const struct sib *t = k == 0 ? (i > 0 ? &sibs[i - 1] : NULL) : (i + 1 < n ? &sibs[i + 1] : NULL);
		if (!t)
			continue;
		html_raw(b, "<form class=\"inline\" method=\"post\" action=\"");
		app_text(b, site_path(p, "/move"));
		html_raw(b, "\">");
		app_hidden_csrf(p);
		html_raw(b, "<input type=\"hidden\" name=\"type\" value=\"");
		html_raw(b, sibs[i].type);
		html_raw(b, "\"><input type=\"hidden\" name=\"id\" value=\"");
		app_text(b, sibs[i].id);
		html_raw(b, k == 0 ? "\"><input type=\"hidden\" name=\"where\" value=\"before\">"
				   : "\"><input type=\"hidden\" name=\"where\" value=\"after\">");
		html_raw(b, "<input type=\"hidden\" name=\"targetType\" value=\"");
		html_raw(b, t->type);
		html_raw(b, "\"><input type=\"hidden\" name=\"target\" value=\"");
		app_text(b, t->id);
		html_raw(b, "\"><button type=\"submit\" aria-label=\"");
		app_text(b, arena_printf(&p->r->arena, "Move %s %s", what, k == 0 ? "up" : "down"));
		html_raw(b, k == 0 ? "\">Move up</button></form> " : "\">Move down</button></form> ");
	}
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
	struct sib *sibs = arena_alloc(&p->r->arena, sizeof(*sibs) * (size_t)n);
	for (int i = 0; i < n; i++)
		sibs[i] = (struct sib){ "site-space", spaces[i].id };
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
		/* Its customization: the site's, or its own override. */
		html_raw(b, "<br><a href=\"");
		app_text(b, site_path(p, "/site-spaces/"));
		app_href(b, "", ss->id);
		html_raw(b, ss->customization ? "/customization\">Customize</a> <span class=\"mute\">(its own)</span>"
					      : "/customization\">Customize</a> <span class=\"mute\">(the site's)</span>");
		html_raw(b, "</td><td><code>");
		app_text(b, ss->path ? ss->path : "");
		html_raw(b, "</code></td>");
		if (write) {
			const char *t = space_title(ss);
			html_raw(b, "<td>");
			move_buttons(p, sibs, i, n, t);
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

static const char *section_title(const struct site_section *sec)
{
	return sec->title && *sec->title ? sec->title : "Untitled section";
}

/* A section with its site spaces: h2 at the top level, h3 in a group (g);
 * sibs[i] is it among its siblings (for Move up / Move down). */
static void section_block(struct app_page *p, const struct site *s, const struct site_section *sec,
			  const struct site_section_group *g, const struct sib *sibs, int i, int n)
{
	struct jw *b = p->out;
	const char *t = section_title(sec);
	bool write = s->access >= ROLE_CREATE, admin = s->access == ROLE_ADMIN;

	html_raw(b, g ? "<section class=\"site-section\"><h3>" : "<section class=\"site-section\"><h2>");
	app_text(b, t);
	html_raw(b, g ? "</h3><p class=\"mute\">Section, path <code>" : "</h2><p class=\"mute\">Section, path <code>");
	app_text(b, sec->path ? sec->path : "");
	html_raw(b, "</code>");
	if (sec->is_default)
		html_raw(b, " <span class=\"badge st-open\">default section</span>");
	html_raw(b, "</p>");
	if (write) {
		html_raw(b, "<div class=\"actions\">");
		move_buttons(p, sibs, i, n, arena_printf(&p->r->arena, "the section %s", t));
		if (admin && !sec->is_default)
			button(p, "/sections/", sec->id, "/default", NULL, NULL, "Make default section",
			       arena_printf(&p->r->arena, "Make %s the default section", t));
		if (g)
			button(p, "/groups/", g->id, arena_printf(&p->r->arena, "/sections/%s/remove", sec->id), NULL, NULL,
			       "Remove from group", arena_printf(&p->r->arena, "Remove %s from its group", t));
		button(p, "/sections/", sec->id, "/delete", NULL, NULL, "Delete section",
		       arena_printf(&p->r->arena, "Delete the section %s", t));
		html_raw(b, "</div>");
	}
	spaces_table(p, s, sec, sec->spaces, sec->nspaces);
	html_raw(b, "</section>");
}

/* A section group: its title, its buttons, a form adding a section to it,
 * and its sections in order. */
static void group_block(struct app_page *p, const struct site *s, const struct site_structure *st,
			const struct site_section_group *g, const struct sib *sibs, int i, int n)
{
	struct jw *b = p->out;
	const char *t = g->title && *g->title ? g->title : "Untitled group";
	struct sib *in = arena_alloc(&p->r->arena, sizeof(*in) * (size_t)(st->nsections + 1));
	int nin = 0, nout = 0;

	for (int k = 0; k < st->nsections; k++)
		if (st->sections[k].group_id && strcmp(st->sections[k].group_id, g->id) == 0)
			in[nin++] = (struct sib){ "site-section", st->sections[k].id };
	html_raw(b, "<section class=\"site-group\"><h2>");
	app_text(b, t);
	html_raw(b, "</h2><p class=\"mute\">Section group</p>");
	if (s->access >= ROLE_CREATE) {
		html_raw(b, "<div class=\"actions\">");
		move_buttons(p, sibs, i, n, arena_printf(&p->r->arena, "the group %s", t));
		button(p, "/groups/", g->id, "/delete", NULL, NULL, "Delete group",
		       arena_printf(&p->r->arena, "Delete the group %s (its sections stay)", t));
		html_raw(b, "</div>");
		for (int k = 0; k < st->nsections; k++)
			if (!st->sections[k].group_id || strcmp(st->sections[k].group_id, g->id) != 0)
				nout++;
		if (nout > 0) {
			html_raw(b, "<form class=\"search\" method=\"post\" action=\"");
			app_text(b, site_path(p, "/groups/"));
			app_href(b, "", g->id);
			html_raw(b, "/sections\">");
			app_hidden_csrf(p);
			html_raw(b, "<label for=\"grp-add-");
			app_text(b, g->id);
			html_raw(b, "\">Add a section to ");
			app_text(b, t);
			html_raw(b, "</label><select id=\"grp-add-");
			app_text(b, g->id);
			html_raw(b, "\" name=\"sectionId\">");
			for (int k = 0; k < st->nsections; k++) {
				const struct site_section *sec = &st->sections[k];
				if (sec->group_id && strcmp(sec->group_id, g->id) == 0)
					continue;
				html_raw(b, "<option value=\"");
				app_text(b, sec->id);
				html_raw(b, "\">");
				app_text(b, section_title(sec));
				html_raw(b, "</option>");
			}
			html_raw(b, "</select><button type=\"submit\">Add to group</button></form>");
		}
	}
	if (nin == 0)
		html_raw(b, "<p class=\"empty\">No section in this group yet.</p>");
	for (int k = 0, j = 0; k < st->nsections; k++)
		if (st->sections[k].group_id && strcmp(st->sections[k].group_id, g->id) == 0)
			section_block(p, s, &st->sections[k], g, in, j++, nin);
	html_raw(b, "</section>");
}

/* The top level in order (site_top_next): groups and ungrouped sections. */
static void top_level(struct app_page *p, const struct site *s, const struct site_structure *st)
{
	struct sib *top = arena_alloc(&p->r->arena, sizeof(*top) * (size_t)(st->nsections + st->ngroups + 1));
	enum site_top t;
	int gi = 0, si = 0, n = 0;

	while ((t = site_top_next(st, &gi, &si)) != SITE_TOP_END)
		top[n++] = t == SITE_TOP_GROUP ? (struct sib){ "site-section-group", st->groups[gi - 1].id }
					       : (struct sib){ "site-section", st->sections[si - 1].id };
	gi = si = 0;
	for (int i = 0; (t = site_top_next(st, &gi, &si)) != SITE_TOP_END; i++) {
		if (t == SITE_TOP_SECTION)
			section_block(p, s, &st->sections[si - 1], NULL, top, i, n);
		else
			group_block(p, s, st, &st->groups[gi - 1], top, i, n);
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
	bool write;

	if ((rc = dom_site_get(p->d, org_id, site_id, ROLE_READ, false, &s)) || (rc = dom_site_structure(p->d, &s, &st)))
		return rc;
	write = s.access >= ROLE_CREATE;
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
	/* Groups show even when their last section went (to delete them). */
	if (st.nsections > 0 || st.ngroups > 0)
		top_level(p, &s, &st);
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
	if (st.nsections > 0) {
		html_raw(b, "<h2>New section group</h2><p class=\"mute\">A group gathers sections under one title in "
			    "the site's tabs; add sections to it once it is created.</p><form class=\"search\" "
			    "method=\"post\" action=\"");
		app_text(b, site_path(p, "/groups"));
		html_raw(b, "\">");
		app_hidden_csrf(p);
		html_raw(b, "<label for=\"grp-title\">Group's title</label><input id=\"grp-title\" name=\"title\" "
			    "type=\"text\" required maxlength=\"100\"><button type=\"submit\">Create group</button></form>");
	}
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

	if ((fs = app_form_text(p, "spaceId", 1, 64, &space_id, &bad)) < 0 ||
	    (fc = app_form_text(p, "sectionId", 0, 64, &section_id, &bad)) < 0)
		return structure_bad(p, bad);
	if (fs == 0)
		return structure_bad(p, "spaceId: is required");
	return structure_done(p, dom_site_space_create(p->d, req_param(p->r, "organizationId"),
						       req_param(p->r, "siteId"), space_id,
						       fc == 1 && *section_id ? section_id : NULL, &v));
}

/* A delete from a page: the item must be in the site's structure. The
 * API's delete answers 204 for a missing item; a page answers the 404 page,
 * so another organization's ids look missing and nothing is written. */
static int item_delete(struct app_page *p, enum site_item_kind kind, const char *id)
{
	const char *org_id = req_param(p->r, "organizationId"), *site_id = req_param(p->r, "siteId");
	struct site_item *items = NULL;
	struct site_answer v;
	int n = 0, rc;

	if ((rc = dom_site_items_list(p->d, org_id, site_id, kind, NULL, -1, &v, &items, &n)))
		return rc;
	for (int i = 0; i < n; i++) {
		const struct site_item *it = &items[i];
		const char *iid = kind == SITE_ITEM_GROUP ? it->group->id
				  : kind == SITE_ITEM_SECTION ? it->section->id
							      : it->space->id;
		if (strcmp(iid, id) == 0)
			return structure_done(p, dom_site_item_delete(p->d, org_id, site_id, kind, id));
	}
	return err_set(ERR_NOT_FOUND, "no such item in this site");
}

int page_site_space_remove(struct app_page *p)
{
	return item_delete(p, SITE_ITEM_SPACE, req_param(p->r, "siteSpaceId"));
}

int page_site_space_default(struct app_page *p)
{
	const char *org_id = req_param(p->r, "organizationId"), *site_id = req_param(p->r, "siteId"),
		   *id = req_param(p->r, "siteSpaceId"), *section_id = NULL, *bad = NULL;
	int fc = app_form_text(p, "section", 1, 64, &section_id, &bad);

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
	if ((fs = app_form_text(p, "spaceId", 1, 64, &in.space_id, &bad)) < 0 ||
	    (ft = app_form_text(p, "title", 0, 128, &in.title, &bad)) < 0 ||
	    (fp = app_form_text(p, "path", 0, 100, &path, &bad)) < 0)
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
	return item_delete(p, SITE_ITEM_SECTION, req_param(p->r, "siteSectionId"));
}

int page_site_section_default(struct app_page *p)
{
	struct site_update in = { .default_site_section = req_param(p->r, "siteSectionId") };
	struct site s;

	return structure_done(p, dom_site_update(p->d, req_param(p->r, "organizationId"), req_param(p->r, "siteId"),
						 &in, &s));
}

int page_site_group_create(struct app_page *p)
{
	struct site_group_input in;
	struct site_answer v;
	const char *bad = NULL;
	int ft;

	memset(&in, 0, sizeof(in));
	if ((ft = app_form_text(p, "title", 1, 100, &in.title, &bad)) < 0)
		return structure_bad(p, bad);
	if (ft == 0)
		return structure_bad(p, "title: is required");
	return structure_done(p, dom_site_group_create(p->d, req_param(p->r, "organizationId"), req_param(p->r, "siteId"),
						       &in, &v));
}

int page_site_group_delete(struct app_page *p)
{
	return item_delete(p, SITE_ITEM_GROUP, req_param(p->r, "groupId"));
}

int page_site_group_section_add(struct app_page *p)
{
	const char *section_id = NULL, *bad = NULL;
	struct site_answer v;
	int f;

	if ((f = app_form_text(p, "sectionId", 1, 64, &section_id, &bad)) < 0)
		return structure_bad(p, bad);
	if (f == 0)
		return structure_bad(p, "sectionId: is required");
	return structure_done(p, dom_site_group_add_section(p->d, req_param(p->r, "organizationId"),
							    req_param(p->r, "siteId"), req_param(p->r, "groupId"),
							    section_id, &v));
}

int page_site_group_section_remove(struct app_page *p)
{
	return structure_done(p, dom_site_group_remove_section(p->d, req_param(p->r, "organizationId"),
							       req_param(p->r, "siteId"), req_param(p->r, "groupId"),
							       req_param(p->r, "siteSectionId")));
}

/* Move up / Move down: the item (type, id) goes before or after (where)
 * the target (targetType, target), as sortSiteStructure moves it. */
int page_site_item_move(struct app_page *p)
{
	const char *type = NULL, *id = NULL, *where = NULL, *ttype = NULL, *target = NULL, *bad = NULL;
	struct site_position pos;
	struct site_answer v;
	int kind;

	memset(&pos, 0, sizeof(pos));
	if (app_form_text(p, "type", 1, 64, &type, &bad) != 1 || app_form_text(p, "id", 1, 64, &id, &bad) != 1 ||
	    app_form_text(p, "where", 1, 16, &where, &bad) != 1 || app_form_text(p, "targetType", 1, 64, &ttype, &bad) != 1 ||
	    app_form_text(p, "target", 1, 64, &target, &bad) != 1)
		return structure_bad(p, bad ? bad : "type, id, where, targetType and target are required");
	if ((kind = dom_site_item_kind(type)) < 0)
		return structure_bad(p, "type: must be 'site-space', 'site-section' or 'site-section-group'");
	if (strcmp(where, "before") == 0) {
		pos.before_type = ttype;
		pos.before = target;
	} else if (strcmp(where, "after") == 0) {
		pos.after_type = ttype;
		pos.after = target;
	} else {
		return structure_bad(p, "where: must be 'before' or 'after'");
	}
	return structure_done(p, dom_site_item_move(p->d, req_param(p->r, "organizationId"), req_param(p->r, "siteId"),
						    (enum site_item_kind)kind, id, &pos, true, &v));
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
	cur = shown(p, name, cur);
	app_select(p->out, "cz-", name, label, list, cur);
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

/* Whose customization a page shows and saves (one form for both): the
 * site's (ss_id NULL: getSiteCustomizationById / PUT) or one site space's
 * override (getSiteSpaceCustomization / PATCH / DELETE). */
struct cz {
	const char *ss_id;
	struct site s;
	struct site_space ss; /* with ss_id; its customization: the override or NULL */
};

static int cz_load(struct app_page *p, const char *ss_id, struct cz *t)
{
	const char *org_id = req_param(p->r, "organizationId"), *site_id = req_param(p->r, "siteId");

	memset(t, 0, sizeof(*t));
	t->ss_id = ss_id;
	if (!ss_id)
		return dom_site_get(p->d, org_id, site_id, ROLE_READ, false, &t->s);
	return dom_site_space_customization_get(p->d, org_id, site_id, ss_id, &t->s, &t->ss);
}

/* The settings as the API answers them: the site's over the defaults, and
 * (with_override) the site space's override over those. NULL (an error set)
 * when they cannot be read. */
static json_t *cz_json(const struct cz *t, bool with_override)
{
	struct jw g;
	json_t *c = NULL;
	int rc;

	jw_init(&g);
	rc = with_override ? site_space_customization_to_json(&g, t->s.customization, t->ss.customization)
			   : site_customization_to_json(&g, t->s.customization);
	if (rc == 0 && jw_ok(&g))
		c = json_loadb(g.buf, g.len, 0, NULL);
	jw_free(&g);
	if (!c)
		err_set(ERR_INTERNAL, "cannot read the site's customization");
	return c;
}

/* The form's path: .../customization or .../site-spaces/{id}/customization. */
static const char *cz_path(struct app_page *p, const struct cz *t, const char *suffix)
{
	struct jw h;
	const char *out;

	if (!t->ss_id)
		return site_path(p, arena_printf(&p->r->arena, "/customization%s", suffix));
	jw_init(&h);
	app_href(&h, "/o/", req_param(p->r, "organizationId"));
	app_href(&h, "/sites/", req_param(p->r, "siteId"));
	app_href(&h, "/site-spaces/", t->ss_id);
	html_raw(&h, "/customization");
	html_raw(&h, suffix);
	out = jw_take(&h, &p->r->arena, "/");
	return out;
}

static int render_customization(struct app_page *p, const char *ss_id, const char *error)
{
	const char *toggle, *title = "Customization";
	struct cz t;
	json_t *c = NULL;
	struct jw *b = p->out;
	int rc;

	if ((rc = cz_load(p, ss_id, &t)) || !(c = cz_json(&t, ss_id != NULL)))
		return rc ? rc : ERR_INTERNAL;
	if (ss_id)
		title = arena_printf(&p->r->arena, "Customization of %s", space_title(&t.ss));
	if ((rc = begin(p, &t.s, title))) {
		json_decref(c);
		return rc;
	}
	app_error_box(b, error);
	if (ss_id) {
		html_raw(b, t.ss.customization
				    ? "<p>This site space has its own customization: the values below replace the site's "
				      "while a reader is in it.</p>"
				    : "<p class=\"mute\">This site space uses the site's customization. Saving the form keeps "
				      "the values that differ from the site's as its own.</p>");
	}
	if (t.s.access != ROLE_ADMIN) {
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
	app_text(b, cz_path(p, &t, ""));
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
	if (ss_id && t.ss.customization) {
		html_raw(b, "<form method=\"post\" action=\"");
		app_text(b, cz_path(p, &t, "/delete"));
		html_raw(b, "\">");
		app_hidden_csrf(p);
		html_raw(b, "<p><button type=\"submit\">Use the site's customization</button></p></form>");
	}
	json_decref(c);
	app_frame_end(p);
	return 0;
}

int page_site_customization(struct app_page *p)
{
	return render_customization(p, NULL, NULL);
}

int page_site_space_customization(struct app_page *p)
{
	return render_customization(p, req_param(p->r, "siteSpaceId"), NULL);
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

/* Where the form's values go, by target: the site's whole settings (a
 * removed field: its key deleted) or an override's patch (a field equal to
 * the site's, or removed: null, so the site's value applies). */
struct cz_out {
	json_t *c;    /* the JSON being built */
	json_t *site; /* override: the site's settings as read (else NULL) */
	json_t *over; /* override: the stored override (NULL: none) */
};

/* The site's value at a path ("a", "b", NULL), or NULL. */
static json_t *site_at(json_t *j, const char *k1, const char *k2)
{
	j = j ? json_object_get(j, k1) : NULL;
	return j && k2 ? json_object_get(j, k2) : j;
}

/* Set obj_[key] = v (stolen; NULL: removed) for the target; the field is
 * at (k1, k2) of the settings. An override's reset is a null only where
 * the stored override has the field: a null sent for a field it does not
 * have would be stored and hide the site's value. -1 out of memory. */
static int cz_set(const struct cz_out *o, json_t *obj_, const char *key, json_t *v, const char *k1, const char *k2)
{
	json_t *site_v = site_at(o->site, k1, k2);

	if (o->site && (!v || (site_v && json_equal(v, site_v)))) {
		json_decref(v);
		return site_at(o->over, k1, k2) ? json_object_set_new(obj_, key, json_null()) : 0;
	}
	if (!v) {
		json_object_del(obj_, key); /* -1 when it was not there: nothing to do */
		return 0;
	}
	return json_object_set_new(obj_, key, v);
}

/* {light: a, dark: b}, or NULL when both are empty. */
static json_t *pair(const char *light, const char *dark)
{
	return !*light && !*dark ? NULL : json_pack("{s:s, s:s}", "light", light, "dark", dark);
}

static int customization_save(struct app_page *p, const char *ss_id)
{
	struct req *r = p->r;
	const char *org_id = req_param(r, "organizationId"), *site_id = req_param(r, "siteId"), *bad = NULL;
	const char *title = NULL, *theme = NULL, *pl = NULL, *pd = NULL, *tl = NULL, *td = NULL, *mode = NULL,
		   *toggle = NULL, *favicon = NULL, *logo = NULL;
	struct cz_out o = { NULL, NULL, NULL };
	json_t *styling, *th, *hd, *v;
	struct cz t;
	int ft, fth, fpl, fpd, ftl, ftd, fm, fto, ff, fl, rc;

	/* Text fields as text; their values are the domain's to check. */
	if ((ft = app_form_text(p, "title", 0, 0, &title, &bad)) < 0 || (fth = app_form_text(p, "theme", 0, 0, &theme, &bad)) < 0 ||
	    (fpl = app_form_text(p, "primaryLight", 0, 0, &pl, &bad)) < 0 ||
	    (fpd = app_form_text(p, "primaryDark", 0, 0, &pd, &bad)) < 0 || (ftl = app_form_text(p, "tintLight", 0, 0, &tl, &bad)) < 0 ||
	    (ftd = app_form_text(p, "tintDark", 0, 0, &td, &bad)) < 0 || (fm = app_form_text(p, "mode", 0, 0, &mode, &bad)) < 0 ||
	    (fto = app_form_text(p, "toggeable", 0, 0, &toggle, &bad)) < 0 ||
	    (ff = app_form_text(p, "favicon", 0, 0, &favicon, &bad)) < 0 || (fl = app_form_text(p, "logo", 0, 0, &logo, &bad)) < 0) {
		p->status = 400;
		return render_customization(p, ss_id, bad);
	}
	/* The stored settings (read: the admin check is the write's). */
	if ((rc = cz_load(p, ss_id, &t)))
		return rc;
	if (ss_id) {
		/* An override's patch: the fields sent, over the site's values. */
		if (!(o.site = cz_json(&t, false)))
			return ERR_INTERNAL;
		o.c = json_object();
		if (t.ss.customization && !(o.over = json_loads(t.ss.customization, 0, NULL))) {
			json_decref(o.site);
			json_decref(o.c);
			return err_set(ERR_INTERNAL, "cannot read the site space's stored customization");
		}
	} else {
		o.c = t.s.customization && *t.s.customization ? json_loads(t.s.customization, 0, NULL) : json_object();
	}
	rc = ERR_INTERNAL;
	if (!json_is_object(o.c)) {
		err_set(rc, "cannot read the site's stored customization");
		goto done;
	}
	if (!(styling = obj(o.c, "styling")) || !(th = obj(o.c, "themes")) || !(hd = obj(o.c, "header")))
		goto oom;
	if (ft == 1 && cz_set(&o, o.c, "title", *title ? json_string(title) : NULL, "title", NULL))
		goto oom;
	if (fth == 1 && cz_set(&o, styling, "theme", json_string(theme), "styling", "theme"))
		goto oom;
	if (fpl == 1 && fpd == 1 &&
	    cz_set(&o, styling, "primaryColor", pair(pl, pd), "styling", "primaryColor"))
		goto oom;
	if (ftl == 1 && ftd == 1) {
		v = pair(tl, td);
		if (v && !(v = json_pack("{s:o}", "color", v)))
			goto oom;
		if (cz_set(&o, styling, "tint", v, "styling", "tint"))
			goto oom;
	}
	if (fm == 1 && cz_set(&o, th, "default", json_string(mode), "themes", "default"))
		goto oom;
	if (fto == 1 && cz_set(&o, th, "toggeable", json_boolean(strcmp(toggle, "on") == 0), "themes", "toggeable"))
		goto oom;
	if (ff == 1) {
		/* The site's own: {} without an icon (the default's shape). */
		v = *favicon ? json_pack("{s:{s:s, s:s}}", "icon", "light", favicon, "dark", favicon)
			     : ss_id ? NULL : json_object();
		if ((*favicon || !ss_id) && !v)
			goto oom;
		if (cz_set(&o, o.c, "favicon", v, "favicon", NULL))
			goto oom;
	}
	if (fl == 1 && cz_set(&o, hd, "logo", pair(logo, logo), "header", "logo"))
		goto oom;
	/* An override leaves out the groups it does not touch. */
	if (ss_id) {
		const char *const groups[] = { "styling", "themes", "header", NULL };
		for (int i = 0; groups[i]; i++)
			if (json_object_size(json_object_get(o.c, groups[i])) == 0)
				json_object_del(o.c, groups[i]);
	}
	if (ss_id) {
		struct site s;
		struct site_space ss;
		rc = dom_site_space_customization_override(p->d, org_id, site_id, ss_id, o.c, &s, &ss);
	} else {
		struct site s;
		rc = dom_site_customization_set(p->d, org_id, site_id, o.c, &s);
	}
	json_decref(o.c);
	json_decref(o.site);
	json_decref(o.over);
	if (rc) {
		const char *msg = NULL;
		if ((rc = app_form_refused(p, rc, &msg)))
			return rc;
		return render_customization(p, ss_id, msg);
	}
	p->location = cz_path(p, &t, "");
	return 0;
oom:
	err_set(rc, "out of memory");
done:
	json_decref(o.c);
	json_decref(o.site);
	json_decref(o.over);
	return rc;
}

int page_site_customization_save(struct app_page *p)
{
	return customization_save(p, NULL);
}

int page_site_space_customization_save(struct app_page *p)
{
	return customization_save(p, req_param(p->r, "siteSpaceId"));
}

/* "Use the site's customization": the override deleted (0 also when there
 * was none: the page then shows the site's). */
int page_site_space_customization_delete(struct app_page *p)
{
	struct cz t = { .ss_id = req_param(p->r, "siteSpaceId") };
	bool deleted = false;
	int rc = dom_site_space_customization_delete(p->d, req_param(p->r, "organizationId"), req_param(p->r, "siteId"),
						     t.ss_id, &deleted);

	if (rc) {
		const char *msg = NULL;
		if ((rc = app_form_refused(p, rc, &msg)))
			return rc;
		return render_customization(p, t.ss_id, msg);
	}
	p->location = cz_path(p, &t, "");
	return 0;
}
