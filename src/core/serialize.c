#include "core/serialize.h"
#include "core/jsonw.h"
#include "util/util.h"

#include <stdio.h>

void user_to_json(struct jw *g, const char *base, const struct user *u, bool with_email)
{
	jw_obj_open(g);
	jw_kstr(g, "object", "user");
	jw_kstr(g, "id", u->id);
	jw_kstr(g, "displayName", u->display_name);
	if (with_email)
		jw_kstr_opt(g, "email", u->email);
	jw_kstr_opt(g, "photoURL", u->photo_url);
	jw_key(g, "urls");
	jw_obj_open(g);
	jw_kurl(g, "location", base, "/v1/users/", u->id);
	jw_obj_close(g);
	jw_obj_close(g);
}

static void role_value(struct jw *g, enum role r)
{
	jw_str(g, role_name(r));
}

void org_to_json(struct jw *g, const char *base, const struct org *o, const struct membership *caller)
{
	struct org_permissions p;

	org_permissions(&p, caller->role, caller->owns_team);
	jw_obj_open(g);
	jw_kstr(g, "object", "organization");
	jw_kstr(g, "id", o->id);
	jw_kstr(g, "title", o->title);
	jw_kts(g, "createdAt", o->created_at);
	jw_key(g, "emailDomains");
	jw_raw(g, o->email_domains ? o->email_domains : "[]");
	jw_kstr_opt(g, "hostname", o->hostname);
	jw_kstr(g, "type", o->type ? o->type : "business");
	jw_kstr_opt(g, "useCase", o->use_case);
	jw_kstr_opt(g, "communityType", o->community_type);
	jw_key(g, "defaultRole");
	role_value(g, o->default_role);
	if (o->default_site) {
		jw_key(g, "defaultContent");
		jw_obj_open(g);
		jw_kstr(g, "type", "site");
		jw_kstr(g, "site", o->default_site);
		jw_obj_close(g);
	}
	jw_kbool(g, "sso", o->sso);
	jw_kbool(g, "ai", o->ai);
	jw_kbool(g, "inviteLinks", o->invite_links);
	jw_kstr(g, "plan", o->plan ? o->plan : "free_2024");
	jw_key(g, "mergeRules");
	jw_raw(g, o->merge_rules ? o->merge_rules : "{\"type\":\"none\"}");
	jw_key(g, "urls");
	jw_obj_open(g);
	jw_kurl(g, "location", base, "/v1/orgs/", o->id);
	jw_kurl(g, "app", base, "/o/", o->id);
	jw_kstr_opt(g, "logo", o->logo);
	jw_obj_close(g);
	jw_key(g, "trial");
	jw_obj_open(g);
	jw_kstr(g, "status", "notapplicable");
	jw_obj_close(g);
	jw_key(g, "permissions");
	jw_obj_open(g);
	jw_kbool(g, "view", p.view);
	jw_kbool(g, "admin", p.admin);
	jw_kbool(g, "ownTeam", p.own_team);
	jw_kbool(g, "createContent", p.create_content);
	jw_kbool(g, "createOpenAPISpec", p.create_openapi_spec);
	jw_kbool(g, "ingestConversations", p.ingest_conversations);
	jw_kbool(g, "viewBilling", p.view_billing);
	jw_kbool(g, "listMembers", p.list_members);
	jw_kbool(g, "listTeams", p.list_teams);
	jw_kbool(g, "listIntegrations", p.list_integrations);
	jw_kbool(g, "listInstallations", p.list_installations);
	jw_kbool(g, "installIntegration", p.install_integration);
	jw_obj_close(g);
	jw_obj_close(g);
}

void member_to_json(struct jw *g, const char *base, const struct member *m, bool with_email)
{
	jw_obj_open(g);
	jw_kstr(g, "object", "member");
	jw_kstr(g, "id", m->user.id);
	jw_key(g, "role");
	role_value(g, m->role);
	jw_key(g, "user");
	user_to_json(g, base, &m->user, with_email);
	jw_kbool(g, "disabled", m->disabled);
	jw_kts(g, "joinedAt", m->joined_at);
	if (m->last_seen_at)
		jw_kts(g, "lastSeenAt", m->last_seen_at);
	jw_kbool(g, "sso", m->sso);
	jw_kint(g, "spaces", m->spaces);
	jw_kint(g, "teams", m->teams);
	jw_obj_close(g);
}

void team_to_json(struct jw *g, const struct team *t, enum role caller, bool caller_team_owner)
{
	struct team_permissions p;

	team_permissions(&p, caller, caller_team_owner);
	jw_obj_open(g);
	jw_kstr(g, "object", "team");
	jw_kstr(g, "id", t->id);
	jw_kstr(g, "title", t->title);
	jw_kint(g, "members", t->members);
	jw_kint(g, "spaces", t->spaces);
	jw_kts(g, "createdAt", t->created_at);
	jw_key(g, "permissions");
	jw_obj_open(g);
	jw_kbool(g, "admin", p.admin);
	jw_kbool(g, "view", p.view);
	jw_obj_close(g);
	jw_obj_close(g);
}

void team_role_to_json(struct jw *g, enum team_role role)
{
	jw_obj_open(g);
	jw_kstr(g, "role", role == TEAM_OWNER ? "owner" : "member");
	jw_obj_close(g);
}

void member_team_to_json(struct jw *g, const struct team *t, enum team_role role, enum role caller,
			 bool caller_team_owner)
{
	jw_obj_open(g);
	jw_key(g, "team");
	team_to_json(g, t, caller, caller_team_owner);
	jw_key(g, "member");
	team_role_to_json(g, role);
	jw_obj_close(g);
}

void team_member_to_json(struct jw *g, const char *base, const struct member *m, enum team_role role,
			 enum role caller)
{
	jw_obj_open(g);
	jw_key(g, "organization");
	member_to_json(g, base, m, caller >= ROLE_READ);
	jw_key(g, "team");
	team_role_to_json(g, role);
	jw_key(g, "permissions");
	jw_obj_open(g);
	jw_kbool(g, "view", caller >= ROLE_READ);
	jw_obj_close(g);
	jw_obj_close(g);
}

void invite_to_json(struct jw *g, const struct invite *inv, enum role caller)
{
	jw_obj_open(g);
	jw_kstr(g, "object", "invite");
	jw_kstr(g, "id", inv->id);
	jw_key(g, "role");
	role_value(g, inv->role);
	/* Redundant when the caller already has at least the role the link grants. */
	jw_kbool(g, "redundant", caller >= inv->role);
	jw_obj_close(g);
}
