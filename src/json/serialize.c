#include "json/serialize.h"
#include "model/access.h"
#include "json/jsonw.h"
#include "util/util.h"

#include <stdio.h>
#include <string.h>

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

static void level_value(struct jw *g, int level)
{
	jw_str(g, level_name(level));
}

void space_to_json(struct jw *g, const char *base, const struct space *s, enum role role)
{
	struct space_permissions p;
	bool shared = strcmp(s->visibility, "private") != 0 && strcmp(s->visibility, "in-collection") != 0;

	space_permissions(&p, role, strcmp(s->edit_mode, "locked") == 0);
	jw_obj_open(g);
	jw_kstr(g, "object", "space");
	jw_kstr(g, "id", s->id);
	jw_kstr(g, "title", s->title);
	jw_kstr(g, "emoji", s->emoji ? s->emoji : "");
	jw_kstr(g, "visibility", s->visibility);
	jw_kts(g, "createdAt", s->created_at);
	jw_kts(g, "updatedAt", s->updated_at);
	if (s->deleted_at)
		jw_kts(g, "deletedAt", s->deleted_at);
	jw_kstr(g, "editMode", s->edit_mode);
	jw_key(g, "mergeRules");
	jw_raw(g, s->merge_rules ? s->merge_rules : "{\"type\":\"inherit\"}");
	jw_key(g, "urls");
	jw_obj_open(g);
	jw_kurl(g, "location", base, "/v1/spaces/", s->id);
	jw_kurl(g, "app", base, "/s/", s->id);
	if (shared)
		jw_kurl(g, "published", base, "/p/", s->id);
	if (strcmp(s->visibility, "public") == 0)
		jw_kurl(g, "public", base, "/p/", s->id);
	jw_kstr_opt(g, "icon", s->icon);
	jw_obj_close(g);
	jw_kstr(g, "organization", s->org_id);
	jw_kstr_opt(g, "parent", s->parent_id);
	jw_kstr_opt(g, "language", s->language);
	jw_kstr(g, "revision", s->revision);
	jw_key(g, "defaultLevel");
	level_value(g, s->default_level);
	jw_kint(g, "comments", s->comments);
	jw_kint(g, "changeRequests", s->change_requests);
	jw_kint(g, "changeRequestsOpen", s->change_requests_open);
	jw_kint(g, "changeRequestsDraft", s->change_requests_draft);
	if (s->git_sync) {
		/* written by git_sync_state_to_json (json/serialize_git.h) */
		jw_key(g, "gitSync");
		jw_raw(g, s->git_sync);
	}
	jw_key(g, "permissions");
	jw_obj_open(g);
	jw_kbool(g, "view", p.view);
	jw_kbool(g, "access", p.access);
	jw_kbool(g, "admin", p.admin);
	jw_kbool(g, "viewInviteLinks", p.view_invite_links);
	jw_kbool(g, "edit", p.edit);
	jw_kbool(g, "triggerGitSync", p.trigger_git_sync);
	jw_kbool(g, "comment", p.comment);
	jw_kbool(g, "merge", p.merge);
	jw_kbool(g, "review", p.review);
	jw_kbool(g, "installIntegration", p.install_integration);
	jw_obj_close(g);
	jw_obj_close(g);
}

void collection_to_json(struct jw *g, const char *base, const struct collection *c, enum role role)
{
	struct collection_permissions p;

	collection_permissions(&p, role);
	jw_obj_open(g);
	jw_kstr(g, "object", "collection");
	jw_kstr(g, "id", c->id);
	jw_kstr(g, "title", c->title);
	jw_kstr_opt(g, "description", c->description);
	jw_kstr(g, "organization", c->org_id);
	jw_kstr_opt(g, "parent", c->parent_id);
	jw_key(g, "defaultLevel");
	level_value(g, c->default_level);
	jw_key(g, "urls");
	jw_obj_open(g);
	jw_kurl(g, "location", base, "/v1/collections/", c->id);
	jw_kurl(g, "app", base, "/c/", c->id);
	jw_obj_close(g);
	jw_key(g, "permissions");
	jw_obj_open(g);
	jw_kbool(g, "view", p.view);
	jw_kbool(g, "admin", p.admin);
	jw_kbool(g, "viewInviteLinks", p.view_invite_links);
	jw_kbool(g, "create", p.create);
	jw_obj_close(g);
	jw_obj_close(g);
}

void user_grant_to_json(struct jw *g, const char *base, const struct grant_row *gr, bool with_email)
{
	jw_obj_open(g);
	jw_key(g, "permission");
	role_value(g, gr->role);
	jw_key(g, "user");
	user_to_json(g, base, &gr->user, with_email);
	jw_obj_close(g);
}

void team_grant_to_json(struct jw *g, const struct grant_row *gr, enum role caller_org_role)
{
	jw_obj_open(g);
	jw_key(g, "permission");
	role_value(g, gr->role);
	jw_key(g, "team");
	team_to_json(g, &gr->team, caller_org_role, false);
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

/* The concatenation of parts (NULL-terminated) as a string value under key k.
 * The parts are the operator's --public-url, docsd's own ids and literal paths:
 * nothing JSON needs escaped (as in jw_kurl). */
static void kurl_join(struct jw *g, const char *k, const char *const *parts)
{
	jw_key(g, k);
	jw_put(g, "\"", 1);
	for (; *parts; parts++)
		jw_put(g, *parts, strlen(*parts));
	jw_put(g, "\"", 1);
	g->comma = true;
}

void saml_provider_to_json(struct jw *g, const char *base, const struct saml_provider *sp, enum role caller)
{
	bool active = sp->sso_url && sp->entity_id && sp->certificate;

	jw_obj_open(g);
	jw_kstr(g, "object", "saml-provider");
	jw_kstr(g, "id", sp->id);
	jw_kstr(g, "label", sp->label);
	/* The schema requires these three strings, and ssoURL to be a URI: while
	 * unset they are "" and about:blank (RFC 6694), which PATCH reads back as unset. */
	jw_kstr(g, "ssoURL", sp->sso_url ? sp->sso_url : SAML_NO_SSO_URL);
	jw_kstr(g, "entityID", sp->entity_id ? sp->entity_id : "");
	jw_kstr(g, "certificate", sp->certificate ? sp->certificate : "");
	if (sp->default_team) {
		jw_key(g, "defaultTeam");
		team_to_json(g, &sp->team, caller, false);
	}
	jw_key(g, "defaultRole");
	role_value(g, sp->default_role);
	jw_kts(g, "createdAt", sp->created_at);
	jw_kstr(g, "status", active ? "active" : "pending");
	jw_key(g, "service");
	jw_obj_open(g);
	kurl_join(g, "acsURL", (const char *const[]){ base, "/sso/saml/", sp->id, "/acs", NULL });
	kurl_join(g, "startURL", (const char *const[]){ base, "/sso/saml/", sp->id, "/start", NULL });
	kurl_join(g, "entityID", (const char *const[]){ base, "/sso/saml/", sp->id, "/metadata", NULL });
	jw_obj_close(g);
	jw_key(g, "urls");
	jw_obj_open(g);
	kurl_join(g, "location", (const char *const[]){ base, "/v1/orgs/", sp->org_id, "/saml/", sp->id, NULL });
	jw_obj_close(g);
	jw_obj_close(g);
}

void saml_login_to_json(struct jw *g, const char *base, const struct saml_provider *sp)
{
	jw_obj_open(g);
	jw_kstr(g, "id", sp->id);
	jw_kstr(g, "label", sp->label);
	kurl_join(g, "startURL", (const char *const[]){ base, "/sso/saml/", sp->id, "/start", NULL });
	jw_obj_close(g);
}

void member_space_to_json(struct jw *g, const char *base, enum role permission, const struct space *s)
{
	jw_obj_open(g);
	jw_key(g, "permission");
	jw_str(g, role_name(permission));
	jw_key(g, "space");
	space_to_json(g, base, s, s->access);
	jw_obj_close(g);
}
