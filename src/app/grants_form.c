/*
 * grants_form.c - a space's or a collection's permissions on its settings
 * page (app/grants_form.h): the grants to users and to teams
 * (dom_grants_list), a form to grant a role to a member or a team of the
 * organization (dom_grants_invite; the menu lists the first 100 members and
 * teams, dom_members_list / dom_teams_list), a role select and Change per
 * grant (dom_grant_update, the domain function of the API's
 * updateUser/TeamPermissionIn{Space,Collection}) and a Remove button per
 * grant (dom_grant_remove). The domain decides who may do each; a page shows the
 * section to the object's admins only.
 */
#include "app/grants_form.h"
#include "app/app.h"
#include "domain/members.h"
#include "http/form.h"
#include "site/site.h"
#include "util/err.h"

#include <string.h>

static const char *const grant_roles[] = { "admin", "create", "review", "edit", "comment", "read", NULL };

static const char *user_name(const struct user *u)
{
	return u->display_name && *u->display_name ? u->display_name : u->email;
}

int app_grants_section(struct app_page *p, enum dom_kind kind, const char *id, const char *org_id, const char *what,
		       const char *base, const char *page_path)
{
	struct list_req lr = { .limit = 100 }, ulr;
	struct cursor cur;
	struct grant_row *users = NULL, *teams = NULL;
	struct member *members = NULL;
	struct dom_team *orgteams = NULL;
	struct team_filter tf = { 0 };
	struct member_filter mf = { 0 };
	char *next = NULL, *unext = NULL, *tnext = NULL;
	int nu = 0, nt = 0, nm = 0, not = 0, rc;
	bool first = !req_query(p->r, "page");
	struct jw *b = p->out;

	/* The grants to users a page at a time (?page=, ?limit=); the teams'
	 * (the first 100) on the first page only. */
	if ((rc = app_list(p, &ulr, &cur, 0)) ||
	    (rc = dom_grants_list(p->d, kind, id, GRANT_USER, &ulr, &users, &nu, &unext)) ||
	    (first && (rc = dom_grants_list(p->d, kind, id, GRANT_TEAM, &lr, &teams, &nt, &tnext))))
		return rc;
	/* A guest who administers the object may not list the organization's
	 * members or teams (the domain's 403): the menu is then empty. */
	if ((rc = dom_members_list(p->d, org_id, &mf, &lr, &members, &nm, &next)) == ERR_FORBIDDEN) {
		err_clear();
		nm = 0;
	} else if (rc) {
		return rc;
	}
	if ((rc = dom_teams_list(p->d, org_id, &tf, &lr, &orgteams, &not, &next)) == ERR_FORBIDDEN) {
		err_clear();
		not = 0;
	} else if (rc) {
		return rc;
	}
	html_raw(b, "<h2>Permissions</h2><p class=\"mute\">Roles given on this ");
	html_raw(b, what);
	html_raw(b, " to members and teams, on top of what the organization gives them.</p><form class=\"search\" "
		    "method=\"post\" action=\"");
	app_text(b, base);
	html_raw(b, "\">");
	app_hidden_csrf(p);
	html_raw(b, "<label for=\"grant-who\">Give a role to</label><select id=\"grant-who\" name=\"principal\">");
	for (int i = 0; i < nm; i++) {
		html_raw(b, "<option value=\"user:");
		app_text(b, members[i].user.id);
		html_raw(b, "\">");
		app_text(b, user_name(&members[i].user));
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
	if (nu + nt == 0 && first) {
		html_raw(b, "<p class=\"empty\">No member or team has a role on this ");
		html_raw(b, what);
		html_raw(b, " of its own.</p>");
		return 0;
	}
	html_raw(b, "<div class=\"scroll-x\"><table><thead><tr><th scope=\"col\">Who</th><th scope=\"col\">Role</th>"
		    "<th scope=\"col\"><span class=\"mute\">Actions</span></th></tr></thead><tbody>");
	for (int i = 0; i < nu + nt; i++) {
		const struct grant_row *g = i < nu ? &users[i] : &teams[i - nu];
		const char *pid = i < nu ? g->user.id : g->team.id;
		const char *name = i < nu ? user_name(&g->user) : g->team.title;
		html_raw(b, "<tr><td>");
		if (i >= nu)
			html_raw(b, "Team: ");
		app_text(b, name);
		html_raw(b, "</td><td>");
		/* The role, changed in place (dom_grant_update). */
		html_raw(b, "<form class=\"inline\" method=\"post\" action=\"");
		app_text(b, base);
		html_raw(b, i < nu ? "/user/" : "/team/");
		app_href(b, "", pid);
		html_raw(b, "/role\">");
		app_hidden_csrf(p);
		html_raw(b, "<label class=\"mute\" for=\"grant-role-");
		html_raw(b, i < nu ? "user-" : "team-");
		app_text(b, pid);
		html_raw(b, "\">Role of ");
		if (i >= nu)
			html_raw(b, "team ");
		app_text(b, name);
		html_raw(b, "</label> <select name=\"role\" id=\"grant-role-");
		html_raw(b, i < nu ? "user-" : "team-");
		app_text(b, pid);
		html_raw(b, "\">");
		for (int k = 0; grant_roles[k]; k++) {
			html_raw(b, "<option value=\"");
			html_raw(b, grant_roles[k]);
			html_raw(b, g->role == role_parse(grant_roles[k]) ? "\" selected>" : "\">");
			html_raw(b, grant_roles[k]);
			html_raw(b, "</option>");
		}
		html_raw(b, "</select> <button type=\"submit\">Change</button></form>");
		html_raw(b, "</td><td><form class=\"inline\" method=\"post\" action=\"");
		app_text(b, base);
		html_raw(b, i < nu ? "/user/" : "/team/");
		app_href(b, "", pid);
		html_raw(b, "/remove\">");
		app_hidden_csrf(p);
		html_raw(b, "<button type=\"submit\" aria-label=\"Remove the role of ");
		app_text(b, name);
		html_raw(b, "\">Remove</button></form></td></tr>");
	}
	html_raw(b, "</tbody></table></div>");
	if (tnext)
		html_raw(b, "<p class=\"mute\">Only the first 100 teams with a role are shown.</p>");
	app_pager(p, page_path, NULL, unext, "More members with a role");
	return 0;
}

int app_grant_submit(struct app_page *p, enum dom_kind kind, const char *id)
{
	struct req *r = p->r;
	const char *who = NULL, *role = NULL;
	enum role rl;
	int fw = form_field(&r->arena, r->body, r->body_len, "principal", &who),
	    fr = form_field(&r->arena, r->body, r->body_len, "role", &role);
	bool team;

	if (fw <= 0 || (strncmp(who, "user:", 5) != 0 && strncmp(who, "team:", 5) != 0) || !who[5])
		return err_set(ERR_INVALID, "principal: choose a member or a team");
	if (fr <= 0 || (rl = role_parse(role)) < ROLE_READ)
		return err_set(ERR_INVALID, "role: must be one of admin, create, review, edit, comment, read");
	team = who[0] == 't';
	who += 5;
	return dom_grants_invite(p->d, kind, id, rl, team ? NULL : &who, team ? 0 : 1, team ? &who : NULL,
				 team ? 1 : 0);
}

int app_grant_role_submit(struct app_page *p, enum dom_kind kind, const char *id)
{
	struct req *r = p->r;
	const char *gk = req_param(r, "kind"), *role = NULL;
	enum role rl;
	int f;

	if (strcmp(gk, "user") != 0 && strcmp(gk, "team") != 0)
		return err_set(ERR_NOT_FOUND, "no such grant");
	f = form_field(&r->arena, r->body, r->body_len, "role", &role);
	/* updateUserPermissionInSpace's parse (api/grants.c): a role name. */
	if (f <= 0 || (rl = role_parse(role)) < ROLE_READ)
		return err_set(ERR_INVALID, "role: must be one of admin, create, review, edit, comment, read");
	return dom_grant_update(p->d, kind, id, gk[0] == 't' ? GRANT_TEAM : GRANT_USER, req_param(r, "principalId"), rl);
}

int app_grant_remove_submit(struct app_page *p, enum dom_kind kind, const char *id)
{
	const char *gk = req_param(p->r, "kind");
	bool removed = false;
	int rc;

	if (strcmp(gk, "user") != 0 && strcmp(gk, "team") != 0)
		return err_set(ERR_NOT_FOUND, "no such grant");
	if ((rc = dom_grant_remove(p->d, kind, id, gk[0] == 't' ? GRANT_TEAM : GRANT_USER,
				   req_param(p->r, "principalId"), &removed)))
		return rc;
	if (!removed)
		return err_set(ERR_NOT_FOUND, "no such grant");
	return 0;
}
