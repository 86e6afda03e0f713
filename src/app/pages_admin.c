/*
 * pages_admin.c - an organization's members and teams in the web interface
 * (issue 25, "Administration"): /o/{organizationId}/members and
 * /o/{organizationId}/teams, /o/{organizationId}/teams/{teamId}.
 *
 * Every read and every change is the API's domain function (domain/members.h:
 * dom_members_list, dom_member_update, dom_member_remove, dom_teams_list,
 * dom_team_create, dom_team_get, dom_team_members, dom_team_member_set,
 * dom_team_member_remove), which checks access once; a page only hides the
 * forms the member's role does not allow, from org_permissions() and
 * team_permissions() (model/roles.h), the functions the API's serializers
 * use for `permissions`. A POST answers 303 back to its page; a refusal of
 * the domain (400, 403, 409: "the organization must keep at least one
 * admin") is shown on the form's page with its message, after the write
 * transaction is rolled back (app_form_refused): nothing a refused change did is
 * kept. Invitations (/o/{organizationId}/invites, admins): invite by email
 * (dom_org_invite_users), invite links (dom_invite_create, dom_invite_delete)
 * and the page a link opens, /o/{organizationId}/join/{inviteId}
 * (dom_invite_join).
 */
#include "app/app.h"
#include "app/pages.h"
#include "domain/members.h"
#include "domain/orgs.h"
#include "http/form.h"
#include "model/roles.h"
#include "site/site.h"
#include "store/store.h"
#include "util/err.h"
#include "util/text.h"

#include <stdio.h>
#include <string.h>

static const char *const role_names[] = { "admin", "create", "review", "edit", "comment", "read", "guest" };

static const char *who(const struct user *u)
{
	return u->display_name && *u->display_name ? u->display_name : u->email ? u->email : u->id;
}

/* The actor is an admin of org_id (org_permissions' admin: the tab of the
 * invitations page, which only admins may read). */
static bool org_admin(struct app_page *p, const char *org_id)
{
	struct org_permissions perm;

	if (dom_enter_org(p->d, org_id))
		return false;
	org_permissions(&perm, p->d->actor.org.role, p->d->actor.org.owns_team);
	return perm.admin;
}

static void org_tabs(struct app_page *p, const char *org_id, int current)
{
	struct jw *b = p->out;

	html_raw(b, "<ul class=\"tabs\"><li><a href=\"");
	app_href(b, "/o/", org_id);
	html_raw(b, "/members\"");
	html_raw(b, current == 0 ? " aria-current=\"page\">" : ">");
	html_raw(b, "Members</a></li><li><a href=\"");
	app_href(b, "/o/", org_id);
	html_raw(b, "/teams\"");
	html_raw(b, current == 1 ? " aria-current=\"page\">" : ">");
	html_raw(b, "Teams</a></li>");
	if (current == 2 || org_admin(p, org_id)) {
		html_raw(b, "<li><a href=\"");
		app_href(b, "/o/", org_id);
		html_raw(b, "/invites\"");
		html_raw(b, current == 2 ? " aria-current=\"page\">" : ">");
		html_raw(b, "Invitations</a></li>");
	}
	html_raw(b, "</ul>");
}

/* ---- members ---- */

static int render_members(struct app_page *p, const char *error)
{
	const char *org_id = req_param(p->r, "organizationId");
	struct org_permissions perm;
	struct member_filter f = { 0 };
	struct list_req lr;
	struct cursor cur;
	struct member *items = NULL;
	struct dom_org o;
	char *next = NULL;
	int n = 0, rc;
	struct jw *b = p->out;

	if ((rc = dom_org_get(p->d, org_id, &o)))
		return rc;
	if ((rc = app_list(p, &lr, &cur, 0)))
		return rc;
	f.search = req_query(p->r, "search");
	if ((rc = dom_members_list(p->d, org_id, &f, &lr, &items, &n, &next)))
		return rc;
	org_permissions(&perm, o.actor.role, o.actor.owns_team);
	{
		struct app_crumb crumbs[] = { { "Home", "/" }, { o.org.title, app_path(p, "/o/", org_id, "") },
					      { "Members", NULL } };
		app_frame_begin(p, "Members", crumbs, 3);
	}
	html_raw(b, "<h1>Members</h1>");
	org_tabs(p, org_id, 0);
	app_error_box(b, error);
	if (!perm.admin)
		html_raw(b, "<p class=\"mute\">Only an administrator of this organization can change roles or remove "
			    "members.</p>");
	if (n == 0) {
		html_raw(b, "<p class=\"empty\">No member matches.</p>");
		app_frame_end(p);
		return 0;
	}
	html_raw(b, "<div class=\"scroll-x\"><table><thead><tr><th scope=\"col\">Member</th><th scope=\"col\">Role</th>"
		    "<th scope=\"col\">Joined</th>");
	if (perm.admin)
		html_raw(b, "<th scope=\"col\"><span class=\"mute\">Actions</span></th>");
	html_raw(b, "</tr></thead><tbody>");
	for (int i = 0; i < n; i++) {
		const struct member *m = &items[i];
		const char *role = m->role == ROLE_GUEST ? "guest" : role_name(m->role);
		const char *base = app_path(p, "/o/", org_id, "");
		html_raw(b, "<tr><td>");
		app_text(b, who(&m->user));
		if (m->user.email && o.actor.role >= ROLE_READ) { /* api_sees_emails' rule */
			html_raw(b, "<br><span class=\"mute\">");
			app_text(b, m->user.email);
			html_raw(b, "</span>");
		}
		html_raw(b, "</td><td>");
		if (perm.admin) {
			html_raw(b, "<form class=\"inline\" method=\"post\" action=\"");
			app_text(b, base);
			app_href(b, "/members/", m->user.id);
			html_raw(b, "/role\">");
			app_hidden_csrf(p);
			html_raw(b, "<label class=\"mute\" for=\"role-");
			app_text(b, m->user.id);
			html_raw(b, "\">Role of ");
			app_text(b, who(&m->user));
			html_raw(b, "</label> <select name=\"role\" id=\"role-");
			app_text(b, m->user.id);
			html_raw(b, "\">");
			for (size_t k = 0; k < sizeof(role_names) / sizeof(role_names[0]); k++) {
				html_raw(b, "<option value=\"");
				html_raw(b, role_names[k]);
				html_raw(b, role && strcmp(role, role_names[k]) == 0 ? "\" selected>" : "\">");
				html_raw(b, role_names[k]);
				html_raw(b, "</option>");
			}
			html_raw(b, "</select> <button type=\"submit\">Change</button></form>");
		} else {
			app_text(b, role ? role : "guest");
		}
		html_raw(b, "</td><td>");
		app_date(b, m->joined_at);
		html_raw(b, "</td>");
		if (perm.admin) {
			html_raw(b, "<td><form class=\"inline\" method=\"post\" action=\"");
			app_text(b, base);
			app_href(b, "/members/", m->user.id);
			html_raw(b, "/remove\">");
			app_hidden_csrf(p);
			html_raw(b, "<button type=\"submit\" aria-label=\"Remove ");
			app_text(b, who(&m->user));
			html_raw(b, " from the organization\">Remove</button></form></td>");
		}
		html_raw(b, "</tr>");
	}
	html_raw(b, "</tbody></table></div>");
	{
		static const char *const keep[] = { "search", NULL };
		app_pager(p, app_path(p, "/o/", org_id, "/members"), keep, next, "More members");
	}
	app_frame_end(p);
	return 0;
}

int page_members(struct app_page *p)
{
	return render_members(p, NULL);
}

int page_member_role(struct app_page *p)
{
	struct req *r = p->r;
	const char *org_id = req_param(r, "organizationId"), *role = NULL, *msg = NULL;
	struct member_input in = { .has_role = true };
	struct member m;
	int rc, f = form_field(&r->arena, r->body, r->body_len, "role", &role);

	if (f <= 0) {
		p->status = 400;
		return render_members(p, "role: choose a role");
	}
	in.role = strcmp(role, "guest") == 0 ? ROLE_GUEST : role_parse(role);
	if (in.role == ROLE_NONE) {
		p->status = 400;
		return render_members(p, "role: must be admin, create, review, edit, comment, read or guest");
	}
	rc = dom_member_update(p->d, org_id, req_param(r, "userId"), &in, &m);
	if (rc) {
		if ((rc = app_form_refused(p, rc, &msg)))
			return rc;
		return render_members(p, msg);
	}
	p->location = app_path(p, "/o/", org_id, "/members");
	return 0;
}

int page_member_remove(struct app_page *p)
{
	struct req *r = p->r;
	const char *org_id = req_param(r, "organizationId"), *msg = NULL;
	bool removed = false;
	int rc = dom_member_remove(p->d, org_id, req_param(r, "userId"), &removed);

	if (rc) {
		if ((rc = app_form_refused(p, rc, &msg)))
			return rc;
		return render_members(p, msg);
	}
	if (!removed)
		return err_set(ERR_NOT_FOUND, "not a member");
	/* Removing oneself leaves nothing to see here. */
	p->location = p->user_id && strcmp(p->user_id, req_param(r, "userId")) == 0 ? "/"
										  : app_path(p, "/o/", org_id, "/members");
	return 0;
}

/* ---- teams ---- */

static int render_teams(struct app_page *p, const char *error, const char *title)
{
	const char *org_id = req_param(p->r, "organizationId");
	struct org_permissions perm;
	struct team_filter f = { 0 };
	struct list_req lr;
	struct cursor cur;
	struct dom_team *items = NULL;
	struct dom_org o;
	char *next = NULL;
	int n = 0, rc;
	struct jw *b = p->out;

	if ((rc = dom_org_get(p->d, org_id, &o)) || (rc = app_list(p, &lr, &cur, 0)) ||
	    (rc = dom_teams_list(p->d, org_id, &f, &lr, &items, &n, &next)))
		return rc;
	org_permissions(&perm, o.actor.role, o.actor.owns_team);
	{
		struct app_crumb crumbs[] = { { "Home", "/" }, { o.org.title, app_path(p, "/o/", org_id, "") },
					      { "Teams", NULL } };
		app_frame_begin(p, "Teams", crumbs, 3);
	}
	html_raw(b, "<h1>Teams</h1>");
	org_tabs(p, org_id, 1);
	app_error_box(b, error);
	if (perm.admin) {
		html_raw(b, "<form class=\"search\" method=\"post\" action=\"");
		app_href(b, "/o/", org_id);
		html_raw(b, "/teams\">");
		app_hidden_csrf(p);
		html_raw(b, "<label for=\"team-title\">New team's name</label><input id=\"team-title\" name=\"title\" "
			    "type=\"text\" required maxlength=\"64\" value=\"");
		app_text(b, error && title ? title : "");
		html_raw(b, "\"><button type=\"submit\">Create team</button></form>");
	}
	if (n == 0) {
		html_raw(b, "<p class=\"empty\">This organization has no teams yet.</p>");
	} else {
		html_raw(b, "<div class=\"scroll-x\"><table><thead><tr><th scope=\"col\">Team</th><th scope=\"col\">Members</th>"
			    "<th scope=\"col\">Created</th></tr></thead><tbody>");
		for (int i = 0; i < n; i++) {
			const struct team *t = &items[i].team;
			html_raw(b, "<tr><td><a href=\"");
			app_href(b, "/o/", org_id);
			app_href(b, "/teams/", t->id);
			html_raw(b, "\">");
			app_text(b, t->title && *t->title ? t->title : "Untitled team");
			html_raw(b, "</a></td><td>");
			{
				char num[24];
				snprintf(num, sizeof(num), "%lld", (long long)t->members);
				html_raw(b, num);
			}
			html_raw(b, "</td><td>");
			app_date(b, t->created_at);
			html_raw(b, "</td></tr>");
		}
		html_raw(b, "</tbody></table></div>");
	}
	app_pager(p, app_path(p, "/o/", org_id, "/teams"), NULL, next, "More teams");
	app_frame_end(p);
	return 0;
}

int page_teams(struct app_page *p)
{
	return render_teams(p, NULL, NULL);
}

int page_team_create(struct app_page *p)
{
	struct req *r = p->r;
	const char *org_id = req_param(r, "organizationId"), *title = NULL, *msg = NULL;
	struct dom_team t;
	int rc, f = form_field(&r->arena, r->body, r->body_len, "title", &title);

	/* The API's parse of createOrganizationTeam's title (api/teams.c): 1 to 64 characters. */
	if (f <= 0 || utf8_len(title) < 1 || utf8_len(title) > 64) {
		p->status = 400;
		return render_teams(p, "title: a team's name is 1 to 64 characters", f > 0 ? title : NULL);
	}
	rc = dom_team_create(p->d, org_id, title, NULL, 0, &t);
	if (rc) {
		if ((rc = app_form_refused(p, rc, &msg)))
			return rc;
		return render_teams(p, msg, title);
	}
	{
		struct jw h;
		jw_init(&h);
		app_href(&h, "/o/", org_id);
		app_href(&h, "/teams/", t.team.id);
		p->location = jw_take(&h, &r->arena, "/");
	}
	return 0;
}

static int render_team(struct app_page *p, const char *error)
{
	const char *org_id = req_param(p->r, "organizationId"), *team_id = req_param(p->r, "teamId");
	struct team_permissions perm;
	struct list_req lr;
	struct cursor cur;
	struct team_member_row *items = NULL;
	struct dom_team t;
	struct dom_org o;
	char *next = NULL;
	const char *base;
	int n = 0, rc;
	bool manage;
	struct jw *b = p->out;

	if ((rc = dom_org_get(p->d, org_id, &o)) || (rc = dom_team_get(p->d, org_id, team_id, &t)) ||
	    (rc = app_list(p, &lr, &cur, 0)) ||
	    (rc = dom_team_members(p->d, org_id, team_id, &lr, &items, &n, &next)))
		return rc;
	team_permissions(&perm, o.actor.role, t.actor_owns);
	manage = team_can_manage(o.actor.role, t.actor_owns);
	{
		struct jw h;
		jw_init(&h);
		app_href(&h, "/o/", org_id);
		app_href(&h, "/teams/", team_id);
		base = jw_take(&h, &p->r->arena, "/");
		struct app_crumb crumbs[] = { { "Home", "/" },
					      { o.org.title, app_path(p, "/o/", org_id, "") },
					      { "Teams", app_path(p, "/o/", org_id, "/teams") },
					      { t.team.title, NULL } };
		app_frame_begin(p, t.team.title && *t.team.title ? t.team.title : "Team", crumbs, 4);
	}
	html_raw(b, "<h1>");
	app_text(b, t.team.title && *t.team.title ? t.team.title : "Untitled team");
	html_raw(b, "</h1>");
	app_error_box(b, error);
	if (manage) {
		html_raw(b, "<form class=\"search\" method=\"post\" action=\"");
		app_text(b, base);
		html_raw(b, "/members\">");
		app_hidden_csrf(p);
		html_raw(b, "<label for=\"team-add\">Add a member of the organization (email)</label>"
			    "<input id=\"team-add\" name=\"user\" type=\"text\" required maxlength=\"320\" "
			    "autocomplete=\"off\"><label class=\"mute\" for=\"team-role\">Team role</label>"
			    "<select id=\"team-role\" name=\"role\"><option value=\"member\">member</option>"
			    "<option value=\"owner\">owner</option></select><button type=\"submit\">Add</button></form>");
	}
	if (n == 0) {
		html_raw(b, "<p class=\"empty\">This team has no members yet.</p>");
	} else {
		html_raw(b, "<div class=\"scroll-x\"><table><thead><tr><th scope=\"col\">Member</th><th scope=\"col\">Team role</th>");
		if (manage)
			html_raw(b, "<th scope=\"col\"><span class=\"mute\">Actions</span></th>");
		html_raw(b, "</tr></thead><tbody>");
		for (int i = 0; i < n; i++) {
			const struct member *m = &items[i].member;
			html_raw(b, "<tr><td>");
			app_text(b, who(&m->user));
			html_raw(b, "</td><td>");
			html_raw(b, items[i].team_role == TEAM_OWNER ? "owner" : "member");
			html_raw(b, "</td>");
			if (manage) {
				html_raw(b, "<td><form class=\"inline\" method=\"post\" action=\"");
				app_text(b, base);
				app_href(b, "/members/", m->user.id);
				html_raw(b, "/remove\">");
				app_hidden_csrf(p);
				html_raw(b, "<button type=\"submit\" aria-label=\"Remove ");
				app_text(b, who(&m->user));
				html_raw(b, " from the team\">Remove</button></form></td>");
			}
			html_raw(b, "</tr>");
		}
		html_raw(b, "</tbody></table></div>");
	}
	(void)perm;
	app_pager(p, base, NULL, next, "More members");
	app_frame_end(p);
	return 0;
}

int page_team(struct app_page *p)
{
	return render_team(p, NULL);
}

static const char *team_path(struct app_page *p)
{
	return app_path2(p, "/o/", req_param(p->r, "organizationId"), "/teams/", req_param(p->r, "teamId"), NULL);
}

int page_team_member_add(struct app_page *p)
{
	struct req *r = p->r;
	const char *user = NULL, *role = NULL, *msg = NULL;
	enum team_role tr = TEAM_MEMBER;
	int rc, fu = form_field(&r->arena, r->body, r->body_len, "user", &user),
		fr = form_field(&r->arena, r->body, r->body_len, "role", &role);

	if (fu <= 0 || !*user) {
		p->status = 400;
		return render_team(p, "user: give the email of a member of the organization");
	}
	if (fr < 0 || (fr == 1 && strcmp(role, "member") != 0 && strcmp(role, "owner") != 0)) {
		p->status = 400;
		return render_team(p, "role: must be member or owner");
	}
	if (fr == 1 && strcmp(role, "owner") == 0)
		tr = TEAM_OWNER;
	rc = dom_team_member_set(p->d, req_param(r, "organizationId"), req_param(r, "teamId"), user, tr);
	if (rc == ERR_NOT_FOUND) {
		/* dom_team_member_set's 404 for a user who is not a member
		 * (the team itself is looked up first, and an unknown team
		 * answers the same): shown on the form, the team's page is
		 * only rendered if the actor may read it. */
		rc = err_set(ERR_INVALID, "user: no member of this organization has that email or id");
	}
	if (rc) {
		if ((rc = app_form_refused(p, rc, &msg)))
			return rc;
		return render_team(p, msg);
	}
	p->location = team_path(p);
	return 0;
}

int page_team_member_remove(struct app_page *p)
{
	struct req *r = p->r;
	const char *msg = NULL;
	bool removed = false;
	int rc = dom_team_member_remove(p->d, req_param(r, "organizationId"), req_param(r, "teamId"),
					req_param(r, "userId"), &removed);

	if (rc) {
		if ((rc = app_form_refused(p, rc, &msg)))
			return rc;
		return render_team(p, msg);
	}
	if (!removed)
		return err_set(ERR_NOT_FOUND, "not in the team");
	p->location = team_path(p);
	return 0;
}

/* ---- invitations: by email and invite links (domain/orgs.h) ---- */

/* A role field: "admin".."read", or "guest" (the API's null). 1 with *out,
 * 0 absent or empty, -1 malformed or unknown. */
static int role_field(struct app_page *p, const char *name, enum role *out)
{
	const char *v = NULL;
	int f = form_field(&p->r->arena, p->r->body, p->r->body_len, name, &v);

	if (f <= 0 || !*v)
		return f < 0 ? -1 : 0;
	*out = strcmp(v, "guest") == 0 ? ROLE_GUEST : role_parse(v);
	return *out == ROLE_NONE ? -1 : 1;
}

static void role_select(struct jw *b, const char *id, const char *label)
{
	html_raw(b, "<label for=\"");
	html_raw(b, id);
	html_raw(b, "\">");
	html_raw(b, label);
	html_raw(b, "</label><select name=\"role\" id=\"");
	html_raw(b, id);
	html_raw(b, "\"><option value=\"\">the organization's default</option>");
	for (size_t k = 0; k < sizeof(role_names) / sizeof(role_names[0]); k++) {
		html_raw(b, "<option value=\"");
		html_raw(b, role_names[k]);
		html_raw(b, "\">");
		html_raw(b, role_names[k]);
		html_raw(b, "</option>");
	}
	html_raw(b, "</select>");
}

static int render_invites(struct app_page *p, const char *error)
{
	const char *org_id = req_param(p->r, "organizationId");
	struct list_req lr;
	struct cursor cur;
	struct invite *items = NULL;
	struct dom_org o;
	char *next = NULL;
	int n = 0, rc;
	struct jw *b = p->out;

	/* dom_invites_list is for admins: anyone else gets the 404 page. */
	if ((rc = dom_org_get(p->d, org_id, &o)) || (rc = app_list(p, &lr, &cur, 0)) ||
	    (rc = dom_invites_list(p->d, org_id, &lr, &items, &n, &next)))
		return rc;
	{
		struct app_crumb crumbs[] = { { "Home", "/" }, { o.org.title, app_path(p, "/o/", org_id, "") },
					      { "Invitations", NULL } };
		app_frame_begin(p, "Invitations", crumbs, 3);
	}
	html_raw(b, "<h1>Invitations</h1>");
	org_tabs(p, org_id, 2);
	app_error_box(b, error);
	html_raw(b, "<h2>Invite by email</h2><form class=\"search\" method=\"post\" action=\"");
	app_href(b, "/o/", org_id);
	html_raw(b, "/invites\">");
	app_hidden_csrf(p);
	html_raw(b, "<label for=\"invite-emails\">Email addresses, separated by commas (they become members at "
		    "once; a new address gets an account)</label><input id=\"invite-emails\" name=\"emails\" "
		    "type=\"text\" required maxlength=\"4000\" autocomplete=\"off\" value=\"\">");
	role_select(b, "invite-role", "Role");
	html_raw(b, "<button type=\"submit\">Invite</button></form>");
	html_raw(b, "<h2>Invite links</h2>");
	if (!o.org.invite_links)
		html_raw(b, "<p class=\"mute\">Invite links are turned off for this organization (its "
			    "<code>inviteLinks</code> setting).</p>");
	else {
		html_raw(b, "<form class=\"search\" method=\"post\" action=\"");
		app_href(b, "/o/", org_id);
		html_raw(b, "/invites/links\">");
		app_hidden_csrf(p);
		role_select(b, "link-role", "Role of those who join with the new link");
		html_raw(b, "<button type=\"submit\">Create link</button></form>");
	}
	if (n == 0) {
		html_raw(b, "<p class=\"empty\">No invite links.</p>");
	} else {
		html_raw(b, "<div class=\"scroll-x\"><table><thead><tr><th scope=\"col\">Link to share</th><th scope=\"col\">Role</th>"
			    "<th scope=\"col\">Created</th><th scope=\"col\"><span class=\"mute\">Actions</span></th>"
			    "</tr></thead><tbody>");
		for (int i = 0; i < n; i++) {
			const struct invite *inv = &items[i];
			const char *role = role_name(inv->role);
			html_raw(b, "<tr><td><code>");
			app_text(b, dom_base_url(p->d));
			app_href(b, "/o/", org_id);
			app_href(b, "/join/", inv->id);
			html_raw(b, "</code></td><td>");
			app_text(b, role ? role : "guest");
			html_raw(b, "</td><td>");
			app_date(b, inv->created_at);
			html_raw(b, "</td><td><form class=\"inline\" method=\"post\" action=\"");
			app_href(b, "/o/", org_id);
			app_href(b, "/invites/links/", inv->id);
			html_raw(b, "/delete\">");
			app_hidden_csrf(p);
			html_raw(b, "<button type=\"submit\">Delete link</button></form></td></tr>");
		}
		html_raw(b, "</tbody></table></div>");
	}
	app_pager(p, app_path(p, "/o/", org_id, "/invites"), NULL, next, "More links");
	app_frame_end(p);
	return 0;
}

int page_invites(struct app_page *p)
{
	return render_invites(p, NULL);
}

static const char *invites_path(struct app_page *p)
{
	return app_path(p, "/o/", req_param(p->r, "organizationId"), "/invites");
}

int page_invite_emails(struct app_page *p)
{
	struct req *r = p->r;
	const char *emails = NULL, *msg = NULL, **added = NULL;
	struct org_invitee list[50];
	struct org_invite_input in = { .emails = list };
	enum role role = ROLE_GUEST;
	int nadded = 0, rc, f = form_field(&r->arena, r->body, r->body_len, "emails", &emails), fr;

	if ((fr = role_field(p, "role", &role)) < 0) {
		p->status = 400;
		return render_invites(p, "role: must be admin, create, review, edit, comment, read or guest");
	}
	in.has_role = fr == 1;
	in.role = role;
	if (f <= 0) {
		p->status = 400;
		return render_invites(p, "emails: give one or more email addresses");
	}
	/* Split on commas, blanks and newlines; each address is the domain's to check. */
	for (char *s = arena_strdup(&r->arena, emails), *tok, *save = NULL; (tok = strtok_r(s, ", \t\r\n", &save));
	     s = NULL) {
		if (in.n == (int)(sizeof(list) / sizeof(list[0]))) {
			p->status = 400;
			return render_invites(p, "emails: at most 50 addresses at once");
		}
		list[in.n++] = (struct org_invitee){ .email = tok };
	}
	if (in.n == 0) {
		p->status = 400;
		return render_invites(p, "emails: give one or more email addresses");
	}
	rc = dom_org_invite_users(p->d, req_param(r, "organizationId"), &in, &added, &nadded);
	if (rc) {
		if ((rc = app_form_refused(p, rc, &msg)))
			return rc;
		return render_invites(p, msg);
	}
	p->location = app_path(p, "/o/", req_param(r, "organizationId"), "/members");
	return 0;
}

int page_invite_link_create(struct app_page *p)
{
	const char *msg = NULL;
	enum role role = ROLE_GUEST;
	struct invite inv;
	int rc, fr = role_field(p, "role", &role);

	if (fr < 0) {
		p->status = 400;
		return render_invites(p, "role: must be admin, create, review, edit, comment, read or guest");
	}
	rc = dom_invite_create(p->d, req_param(p->r, "organizationId"), fr == 1, role, &inv);
	if (rc) {
		if ((rc = app_form_refused(p, rc, &msg)))
			return rc;
		return render_invites(p, msg);
	}
	p->location = invites_path(p);
	return 0;
}

int page_invite_link_delete(struct app_page *p)
{
	bool removed = false;
	int rc = dom_invite_delete(p->d, req_param(p->r, "organizationId"), req_param(p->r, "inviteId"), &removed);

	if (rc)
		return rc;
	if (!removed)
		return err_set(ERR_NOT_FOUND, "no such invite link");
	p->location = invites_path(p);
	return 0;
}

/* The page an invite link opens: a button that joins (dom_invite_join); the
 * GET reads nothing of the link (only its organization's admins may), so a
 * wrong link is found out by the POST, as the same 404 page. */
int page_join(struct app_page *p)
{
	struct jw *b = p->out;
	struct app_crumb crumbs[] = { { "Home", "/" }, { "Join an organization", NULL } };

	app_frame_begin(p, "Join an organization", crumbs, 2);
	html_raw(b, "<h1>Join an organization</h1><p>You were sent a link to join an organization on this docsd. "
		    "Join it as the signed-in user?</p><form method=\"post\" action=\"");
	app_href(b, "/o/", req_param(p->r, "organizationId"));
	app_href(b, "/join/", req_param(p->r, "inviteId"));
	html_raw(b, "\">");
	app_hidden_csrf(p);
	html_raw(b, "<button type=\"submit\">Join</button></form>");
	app_frame_end(p);
	return 0;
}

int page_join_post(struct app_page *p)
{
	bool joined = false;
	int rc = dom_invite_join(p->d, req_param(p->r, "organizationId"), req_param(p->r, "inviteId"), &joined);

	if (rc)
		return rc;
	p->location = app_path(p, "/o/", req_param(p->r, "organizationId"), "");
	return 0;
}
