/*
 * pages_admin_collection.c - a collection's settings in the web interface
 * (issue 25, "space and collection permissions"): /c/{collectionId}/settings,
 * linked from the collection's page.
 *
 * GET shows the title, description and default level, as a form when
 * collection_permissions() (the function behind the API's collection
 * `permissions`) says admin; POST parses the fields as updateCollectionById's
 * handler does (api/collections.c: title 0..50 characters, description
 * 0..100 or empty to remove it, defaultLevel "inherit", a role, or "none"
 * for the API's null) and calls dom_collection_update, the same domain
 * function, which decides access. 303 back on success; a refusal is rolled
 * back and the form shown again with the status and message.
 *
 * Below, for the collection's admins, its permissions (app/grants_form.c,
 * shared with a space's settings): the grants to users and teams, a Grant
 * form and a Remove button per grant, on the domain functions behind the
 * API's collection permission operations.
 */
#include "app/app.h"
#include "app/grants_form.h"
#include "app/pages.h"
#include "domain/orgs.h"
#include "domain/spaces.h"
#include "http/form.h"
#include "model/access.h"
#include "site/site.h"
#include "util/err.h"
#include "util/text.h"

#include <string.h>

/* defaultLevel's choices: value, then words. "none" is the API's null. */
static const char *const levels[][2] = {
	{ "inherit", "inherit (from above)" },
	{ "none", "none (grants only)" },
	{ "read", "read" },
	{ "comment", "comment" },
	{ "edit", "edit" },
	{ "review", "review" },
	{ "create", "create" },
	{ "admin", "admin" },
};
#define NLEVELS ((int)(sizeof(levels) / sizeof(levels[0])))

static const char *level_value(int level)
{
	return level == LEVEL_INHERIT ? "inherit" : role_name((enum role)level) ? role_name((enum role)level) : "none";
}

static int render(struct app_page *p, const char *error)
{
	const char *id = req_param(p->r, "collectionId"), *cur;
	struct collection_permissions perm;
	struct collection c;
	struct dom_org o;
	struct jw *b = p->out;
	int rc;

	if ((rc = dom_collection_get(p->d, id, ROLE_READ, &c)) || (rc = dom_org_get(p->d, c.org_id, &o)))
		return rc;
	collection_permissions(&perm, c.access);
	cur = level_value(c.default_level);
	{
		struct app_crumb crumbs[] = {
			{ "Home", "/" },
			{ o.org.title, app_path(p, "/o/", c.org_id, "") },
			{ c.title && *c.title ? c.title : "Untitled collection", app_path(p, "/c/", c.id, "") },
			{ "Settings", NULL },
		};
		app_frame_begin(p, "Collection settings", crumbs, 4);
	}
	html_raw(b, "<h1>Collection settings</h1>");
	app_error_box(b, error);
	if (!perm.admin) {
		html_raw(b, "<dl class=\"meta\"><dt>Title</dt><dd>");
		app_text(b, c.title);
		html_raw(b, "</dd><dt>Description</dt><dd>");
		app_text(b, c.description && *c.description ? c.description : "none");
		html_raw(b, "</dd><dt>Default level</dt><dd>");
		app_text(b, cur);
		html_raw(b, "</dd></dl><p class=\"mute\">Only an administrator of this collection can change its settings "
			    "and permissions.</p>");
		app_frame_end(p);
		return 0;
	}
	html_raw(b, "<form method=\"post\" action=\"");
	app_text(b, app_path(p, "/c/", c.id, "/settings"));
	html_raw(b, "\">");
	app_hidden_csrf(p);
	html_raw(b, "<p><label for=\"set-title\">Title</label><br><input id=\"set-title\" name=\"title\" type=\"text\" "
		    "maxlength=\"50\" value=\"");
	app_text(b, c.title ? c.title : "");
	html_raw(b, "\"></p><p><label for=\"set-description\">Description (empty for none)</label><br><input "
		    "id=\"set-description\" name=\"description\" type=\"text\" maxlength=\"100\" value=\"");
	app_text(b, c.description ? c.description : "");
	html_raw(b, "\"></p><p><label for=\"set-defaultLevel\">Default level: the role every member has on what this "
		    "collection holds, unless a grant says otherwise (inherit: the collection above's, or the "
		    "organization role; none: only grants give access)</label><br><select id=\"set-defaultLevel\" "
		    "name=\"defaultLevel\">");
	for (int i = 0; i < NLEVELS; i++) {
		html_raw(b, "<option value=\"");
		app_text(b, levels[i][0]);
		if (strcmp(cur, levels[i][0]) == 0)
			html_raw(b, "\" selected>");
		else
			html_raw(b, "\">");
		app_text(b, levels[i][1]);
		html_raw(b, "</option>");
	}
	html_raw(b, "</select></p><p><button type=\"submit\">Save settings</button></p></form>");
	if ((rc = app_grants_section(p, DOM_COLLECTION, c.id, c.org_id, "collection",
				     app_path(p, "/c/", c.id, "/permissions"), app_path(p, "/c/", c.id, "/settings"))))
		return rc;
	app_frame_end(p);
	return 0;
}

int page_collection_settings(struct app_page *p)
{
	return render(p, NULL);
}

/* A refused form: roll back, continue in a read transaction, show why. */
static int refused(struct app_page *p, int rc)
{
	const char *msg = NULL;

	if ((rc = app_form_refused(p, rc, &msg)))
		return rc;
	return render(p, msg);
}

/* The form's fields as updateCollectionById's body (api/collections.c):
 * 0, or ERR_INVALID naming the field. */
static int parse(struct app_page *p, struct collection_input *in)
{
	struct req *r = p->r;
	const char *title = NULL, *desc = NULL, *level = NULL;
	int ft = form_field(&r->arena, r->body, r->body_len, "title", &title),
	    fd = form_field(&r->arena, r->body, r->body_len, "description", &desc),
	    fl = form_field(&r->arena, r->body, r->body_len, "defaultLevel", &level);
	enum role role;

	memset(in, 0, sizeof(*in));
	if (ft < 0 || (ft == 1 && utf8_len(title) > COLLECTION_TITLE_MAX))
		return err_set(ERR_INVALID, "title: must be 0 to 50 characters long");
	if (fd < 0 || (fd == 1 && utf8_len(desc) > COLLECTION_DESCRIPTION_MAX))
		return err_set(ERR_INVALID, "description: must be 0 to 100 characters long");
	if (fl < 0)
		return err_set(ERR_INVALID, "defaultLevel: malformed");
	in->has_title = ft == 1;
	in->title = title;
	in->has_description = fd == 1;
	in->description = fd == 1 && *desc ? desc : NULL; /* empty: remove it (the API's null) */
	if (fl == 1) {
		in->has_level = true;
		if (strcmp(level, "inherit") == 0)
			in->default_level = LEVEL_INHERIT;
		else if (strcmp(level, "none") == 0)
			in->default_level = ROLE_GUEST;
		else if ((role = role_parse(level)) >= ROLE_READ)
			in->default_level = role;
		else
			return err_set(ERR_INVALID,
				       "defaultLevel: must be 'inherit', 'none' or one of admin, create, review, edit, comment, read");
	}
	return 0;
}

int page_collection_settings_save(struct app_page *p)
{
	const char *id = req_param(p->r, "collectionId");
	struct collection_input in;
	struct collection c;
	int rc;

	if ((rc = parse(p, &in)) || (rc = dom_collection_update(p->d, id, &in, &c)))
		return refused(p, rc);
	p->location = app_path(p, "/c/", c.id, "/settings");
	return 0;
}

int page_collection_grant(struct app_page *p)
{
	const char *id = req_param(p->r, "collectionId");
	int rc = app_grant_submit(p, DOM_COLLECTION, id);

	if (rc)
		return refused(p, rc);
	p->location = app_path(p, "/c/", id, "/settings");
	return 0;
}

int page_collection_grant_remove(struct app_page *p)
{
	const char *id = req_param(p->r, "collectionId");
	int rc = app_grant_remove_submit(p, DOM_COLLECTION, id);

	if (rc)
		return refused(p, rc);
	p->location = app_path(p, "/c/", id, "/settings");
	return 0;
}

int page_collection_grant_role(struct app_page *p)
{
	const char *id = req_param(p->r, "collectionId");
	int rc = app_grant_role_submit(p, DOM_COLLECTION, id);

	if (rc)
		return refused(p, rc);
	p->location = app_path(p, "/c/", id, "/settings");
	return 0;
}
