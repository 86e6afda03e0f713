/*
 * pages_admin_space.c - a space's settings in the web interface (issue 25,
 * "space settings (title, emoji, visibility, edit mode ...)"):
 * /s/{spaceId}/~/settings.
 *
 * GET shows the settings, as a form when space_permissions() (the function
 * behind the API's space `permissions`) says admin; POST parses the fields
 * as updateSpaceById's handler does (api/spaces.c: title 0..50 characters,
 * emoji 1..50 or empty to remove it, visibility and editMode from GitBook's
 * lists) and calls dom_space_update, the same domain function, which decides
 * access and the rest. 303 back on success; a refusal is rolled back and
 * the form shown again with the status and message.
 *
 * Below, the space's permissions: the grants to users and to teams
 * (dom_grants_list), and for the space's admins a form to grant a role to a
 * member or a team of the organization (dom_grants_invite; the menu lists
 * the first 100 members and teams, dom_members_list / dom_teams_list) and a
 * Remove button per grant (dom_grant_remove).
 */
#include "app/app.h"
#include "app/pages.h"
#include "domain/git_sync.h"
#include "domain/members.h"
#include "domain/spaces.h"
#include "http/form.h"
#include "model/access.h"
#include "site/site.h"
#include "util/err.h"
#include "util/text.h"

#include <jansson.h>
#include <string.h>

static const char *const edit_modes[] = { "live", "locked", NULL };
static const char *const visibilities[] = { "public", "unlisted", "share-link", "visitor-auth", "in-collection",
					    "private", NULL };

static int one_of(const char *v, const char *const *allowed)
{
	for (int i = 0; allowed[i]; i++)
		if (strcmp(v, allowed[i]) == 0)
			return 1;
	return 0;
}

static void select_of(struct jw *b, const char *name, const char *label, const char *const *list, const char *cur)
{
	html_raw(b, "<p><label for=\"set-");
	html_raw(b, name);
	html_raw(b, "\">");
	html_raw(b, label);
	html_raw(b, "</label><br><select id=\"set-");
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

static const char *const grant_roles[] = { "admin", "create", "review", "edit", "comment", "read", NULL };

/* The grants of the space, and (admins) the forms to grant and remove. */
static int permissions(struct app_page *p, const struct space *s)
{
	struct list_req lr = { .limit = 100 };
	struct grant_row *users = NULL, *teams = NULL;
	struct member *members = NULL;
	struct dom_team *orgteams = NULL;
	struct team_filter tf = { 0 };
	struct member_filter mf = { 0 };
	char *next = NULL;
	int nu = 0, nt = 0, nm = 0, not = 0, rc;
	struct jw *b = p->out;
	const char *base = app_path(p, "/s/", s->id, "/~/permissions");

	if ((rc = dom_grants_list(p->d, DOM_SPACE, s->id, GRANT_USER, &lr, &users, &nu, &next)) ||
	    (rc = dom_grants_list(p->d, DOM_SPACE, s->id, GRANT_TEAM, &lr, &teams, &nt, &next)))
		return rc;
	/* A guest who administers the space may not list the organization's
	 * members or teams (the domain's 403): the menu is then empty. */
	if ((rc = dom_members_list(p->d, s->org_id, &mf, &lr, &members, &nm, &next)) == ERR_FORBIDDEN) {
		err_clear();
		nm = 0;
	} else if (rc) {
		return rc;
	}
	if ((rc = dom_teams_list(p->d, s->org_id, &tf, &lr, &orgteams, &not, &next)) == ERR_FORBIDDEN) {
		err_clear();
		not = 0;
	} else if (rc) {
		return rc;
	}
	html_raw(b, "<h2>Permissions</h2><p class=\"mute\">Roles given on this space to members and teams, on top "
		    "of what the organization gives them.</p><form class=\"search\" method=\"post\" action=\"");
	app_text(b, base);
	html_raw(b, "\">");
	app_hidden_csrf(p);
	html_raw(b, "<label for=\"grant-who\">Give a role to</label><select id=\"grant-who\" name=\"principal\">");
	for (int i = 0; i < nm; i++) {
		html_raw(b, "<option value=\"user:");
		app_text(b, members[i].user.id);
		html_raw(b, "\">");
		app_text(b, members[i].user.display_name && *members[i].user.display_name ? members[i].user.display_name
											   : members[i].user.email);
		html_raw(b, "</option>");
	}
	for (int i = 0; i < not; i++) {
		html_raw(b, "<option value=\"team:");
		app_text(b, orgteams[i].team.id);
		html_raw(b, "\">Team: ");
		app_text(b, orgteams[i].team.title);
		html_raw(b, "</option>");
	}
	html_raw(b, "</select><label class=\"mute\" for=\"grant-role\">Role</label><select id=\"grant-role\" "
		    "name=\"role\">");
	for (int k = 0; grant_roles[k]; k++) {
		html_raw(b, "<option value=\"");
		html_raw(b, grant_roles[k]);
		html_raw(b, strcmp(grant_roles[k], "read") == 0 ? "\" selected>" : "\">");
		html_raw(b, grant_roles[k]);
		html_raw(b, "</option>");
	}
	html_raw(b, "</select><button type=\"submit\">Grant</button></form>");
	if (nu + nt == 0) {
		html_raw(b, "<p class=\"empty\">No member or team has a role on this space of its own.</p>");
		return 0;
	}
	html_raw(b, "<div class=\"scroll-x\"><table><thead><tr><th scope=\"col\">Who</th><th scope=\"col\">Role</th>"
		    "<th scope=\"col\"><span class=\"mute\">Actions</span></th></tr></thead><tbody>");
	for (int i = 0; i < nu + nt; i++) {
		const struct grant_row *g = i < nu ? &users[i] : &teams[i - nu];
		const char *id = i < nu ? g->user.id : g->team.id;
		const char *name = i < nu ? (g->user.display_name && *g->user.display_name ? g->user.display_name
											: g->user.email)
					  : g->team.title;
		html_raw(b, "<tr><td>");
		if (i >= nu)
			html_raw(b, "Team: ");
		app_text(b, name);
		html_raw(b, "</td><td>");
		app_text(b, role_name(g->role));
		html_raw(b, "</td><td><form class=\"inline\" method=\"post\" action=\"");
		app_text(b, base);
		html_raw(b, i < nu ? "/user/" : "/team/");
		app_href(b, "", id);
		html_raw(b, "/remove\">");
		app_hidden_csrf(p);
		html_raw(b, "<button type=\"submit\" aria-label=\"Remove the role of ");
		app_text(b, name);
		html_raw(b, "\">Remove</button></form></td></tr>");
	}
	html_raw(b, "</tbody></table></div>");
	return 0;
}

static const char *jstr(json_t *o, const char *k)
{
	const char *v = json_string_value(json_object_get(o, k));

	return v && *v ? v : NULL;
}

/* Git sync's link and last operation (dom_git_info, getGitInfo's domain
 * function: GitSyncState JSON), read-only: the job's state as the page is
 * loaded (reload to follow it). */
static int git_status(struct app_page *p, const struct space *s)
{
	const char *text = NULL;
	json_t *root, *op;
	struct jw *b = p->out;
	int rc = dom_git_info(p->d, s->id, &text);

	html_raw(b, "<h2>Git sync</h2><p class=\"actions\"><a href=\"");
	app_text(b, app_path(p, "/s/", s->id, "/~/git"));
	html_raw(b, "\">Git sync: link, import, export</a></p>"); /* pages_git.c */
	if (rc == ERR_NOT_FOUND) {
		err_clear();
		html_raw(b, "<p class=\"empty\">This space is not linked to a Git repository.</p>");
		return 0;
	}
	if (rc)
		return rc;
	root = json_loads(text, 0, NULL);
	if (!root)
		return err_set(ERR_INTERNAL, "unreadable Git sync state");
	html_raw(b, "<dl class=\"meta\"><dt>Repository</dt><dd>");
	app_text(b, jstr(root, "url") ? jstr(root, "url") : jstr(root, "repoName") ? jstr(root, "repoName") : "?");
	html_raw(b, "</dd>");
	op = json_object_get(root, "operation");
	if (json_is_object(op)) {
		const char *state = jstr(op, "state"), *err = jstr(op, "error");
		html_raw(b, "<dt>Last operation</dt><dd>");
		app_text(b, jstr(op, "direction") ? jstr(op, "direction") : "sync");
		html_raw(b, ": <strong>");
		app_text(b, state ? state : "?");
		html_raw(b, "</strong>");
		if (state && strcmp(state, "running") == 0 && jstr(op, "stage")) {
			html_raw(b, " (");
			app_text(b, jstr(op, "stage"));
			html_raw(b, "; reload to follow it)");
		}
		html_raw(b, "</dd>");
		if (jstr(op, "updatedAt")) {
			html_raw(b, "<dt>Updated</dt><dd>");
			app_text(b, jstr(op, "updatedAt"));
			html_raw(b, "</dd>");
		}
		if (err) {
			html_raw(b, "<dt>Error</dt><dd class=\"hint hint-danger\">");
			app_text(b, err);
			html_raw(b, "</dd>");
		}
	}
	html_raw(b, "</dl>");
	json_decref(root);
	return 0;
}

static int render(struct app_page *p, const char *error)
{
	const char *id = req_param(p->r, "spaceId");
	struct space_permissions perm;
	struct space s;
	struct jw *b = p->out;
	int rc;

	if ((rc = dom_space_get(p->d, id, ROLE_READ, &s)))
		return rc;
	space_permissions(&perm, s.access, s.edit_mode && strcmp(s.edit_mode, "locked") == 0);
	{
		struct app_crumb crumbs[] = { { "Home", "/" },
					      { s.title && *s.title ? s.title : "Untitled space", app_path(p, "/s/", s.id, "") },
					      { "Settings", NULL } };
		app_frame_begin(p, "Space settings", crumbs, 3);
	}
	html_raw(b, "<h1>Space settings</h1>");
	if (error) {
		html_raw(b, "<div class=\"hint hint-danger\" role=\"alert\"><p>");
		app_text(b, error);
		html_raw(b, "</p></div>");
	}
	if (!perm.admin) {
		html_raw(b, "<dl class=\"meta\"><dt>Title</dt><dd>");
		app_text(b, s.title);
		html_raw(b, "</dd><dt>Visibility</dt><dd>");
		app_text(b, s.visibility);
		html_raw(b, "</dd><dt>Edit mode</dt><dd>");
		app_text(b, s.edit_mode);
		html_raw(b, "</dd></dl><p class=\"mute\">Only an administrator of this space can change its settings.</p>");
		if ((rc = git_status(p, &s)))
			return rc;
		app_frame_end(p);
		return 0;
	}
	html_raw(b, "<form method=\"post\" action=\"");
	app_text(b, app_path(p, "/s/", s.id, "/~/settings"));
	html_raw(b, "\"><input type=\"hidden\" name=\"" APP_CSRF_FIELD "\" value=\"");
	app_text(b, p->csrf ? p->csrf : "");
	html_raw(b, "\"><p><label for=\"set-title\">Title</label><br><input id=\"set-title\" name=\"title\" "
		    "type=\"text\" maxlength=\"50\" value=\"");
	app_text(b, s.title ? s.title : "");
	html_raw(b, "\"></p><p><label for=\"set-emoji\">Emoji (a Unicode code point such as 1f4d8; empty for none)"
		    "</label><br><input id=\"set-emoji\" name=\"emoji\" type=\"text\" maxlength=\"50\" value=\"");
	app_text(b, s.emoji ? s.emoji : "");
	html_raw(b, "\"></p>");
	select_of(b, "visibility", "Visibility", visibilities, s.visibility);
	select_of(b, "editMode", "Edit mode (locked: changes only through change requests' merges)", edit_modes,
		  s.edit_mode);
	html_raw(b, "<p><button type=\"submit\">Save settings</button></p></form>");
	if ((rc = permissions(p, &s)) || (rc = git_status(p, &s)))
		return rc;
	app_frame_end(p);
	return 0;
}

int page_space_settings(struct app_page *p)
{
	return render(p, NULL);
}

/* A form field: 1 with *out, 0 absent, -1 malformed (then *error says). */
static int field(struct app_page *p, const char *name, const char **out)
{
	return form_field(&p->r->arena, p->r->body, p->r->body_len, name, out);
}

int page_space_settings_save(struct app_page *p)
{
	struct req *r = p->r;
	const char *id = req_param(r, "spaceId"), *title = NULL, *emoji = NULL, *vis = NULL, *mode = NULL;
	struct space_input in = { 0 };
	struct space s;
	const char *bad = NULL;
	int rc, ft = field(p, "title", &title), fe = field(p, "emoji", &emoji), fv = field(p, "visibility", &vis),
		fm = field(p, "editMode", &mode);

	/* The parse of updateSpaceById's body (api/spaces.c), field by field. */
	if (ft < 0 || (ft == 1 && utf8_len(title) > 50))
		bad = "title: at most 50 characters";
	else if (fe < 0 || (fe == 1 && utf8_len(emoji) > 50))
		bad = "emoji: at most 50 characters";
	else if (fv < 0 || (fv == 1 && !one_of(vis, visibilities)))
		bad = "visibility: must be one of public, unlisted, share-link, visitor-auth, in-collection, private";
	else if (fm < 0 || (fm == 1 && !one_of(mode, edit_modes)))
		bad = "editMode: must be one of live, locked";
	if (bad) {
		p->status = 400;
		return render(p, bad);
	}
	in.title = ft == 1 ? title : NULL;
	if (fe == 1) {
		in.has_emoji = true;
		in.emoji = *emoji ? emoji : NULL; /* empty: remove it (the API's null) */
	}
	in.visibility = fv == 1 ? vis : NULL;
	in.edit_mode = fm == 1 ? mode : NULL;
	rc = dom_space_update(p->d, id, &in, &s);
	if (rc) {
		int status = err_status(rc);
		const char *msg;
		if (status < 400 || status >= 500 || rc == ERR_NOT_FOUND)
			return rc;
		/* Refused: nothing is kept; the form again with why, in a new
		 * read transaction. */
		msg = arena_strdup(&r->arena, err_message());
		err_clear();
		store_tx_rollback(&r->tx);
		if ((rc = store_tx_begin(r->srv->store, &r->tx, 0, &r->arena)))
			return rc;
		dom_init(&r->dom, r->srv, &r->tx, &r->arena, p->user_id);
		p->status = status;
		return render(p, msg);
	}
	p->location = app_path(p, "/s/", s.id, "/~/settings");
	return 0;
}

/* A refused form: roll back, continue in a read transaction, show why. */
static int refused(struct app_page *p, int rc)
{
	const char *msg = NULL;

	if ((rc = app_form_refused(p, rc, &msg)))
		return rc;
	return render(p, msg);
}

int page_space_grant(struct app_page *p)
{
	const char *id = req_param(p->r, "spaceId"), *who = NULL, *role = NULL;
	enum role rl;
	int rc, fw = field(p, "principal", &who), fr = field(p, "role", &role);
	bool team;

	if (fw <= 0 || (strncmp(who, "user:", 5) != 0 && strncmp(who, "team:", 5) != 0) || !who[5]) {
		p->status = 400;
		return render(p, "principal: choose a member or a team");
	}
	if (fr <= 0 || (rl = role_parse(role)) < ROLE_READ) {
		p->status = 400;
		return render(p, "role: must be one of admin, create, review, edit, comment, read");
	}
	team = who[0] == 't';
	who += 5;
	rc = dom_grants_invite(p->d, DOM_SPACE, id, rl, team ? NULL : &who, team ? 0 : 1, team ? &who : NULL,
			       team ? 1 : 0);
	if (rc)
		return refused(p, rc);
	p->location = app_path(p, "/s/", id, "/~/settings");
	return 0;
}

int page_space_grant_remove(struct app_page *p)
{
	const char *id = req_param(p->r, "spaceId"), *kind = req_param(p->r, "kind");
	bool removed = false;
	int rc;

	if (strcmp(kind, "user") != 0 && strcmp(kind, "team") != 0)
		return err_set(ERR_NOT_FOUND, "no such grant");
	rc = dom_grant_remove(p->d, DOM_SPACE, id, kind[0] == 't' ? GRANT_TEAM : GRANT_USER,
			      req_param(p->r, "principalId"), &removed);
	if (rc)
		return refused(p, rc);
	if (!removed)
		return err_set(ERR_NOT_FOUND, "no such grant");
	p->location = app_path(p, "/s/", id, "/~/settings");
	return 0;
}
