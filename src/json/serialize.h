/*
 * serialize.h - the one place each kind's JSON is built.
 *
 * Every endpoint that returns an organization, member, team, user or invite
 * calls these, so the same kind always has the same shape. `base` is the
 * server's public URL without a trailing slash; permissions are computed by
 * model/roles.c for the caller.
 */
#ifndef DOCSD_JSON_SERIALIZE_H
#define DOCSD_JSON_SERIALIZE_H

#include "json/jsonw.h"

#include "model/model.h"
#include "model/roles.h"

void user_to_json(struct jw *g, const char *base, const struct user *u, bool with_email);
void org_to_json(struct jw *g, const char *base, const struct org *o, const struct membership *caller);
void member_to_json(struct jw *g, const char *base, const struct member *m, bool with_email);
void team_to_json(struct jw *g, const struct team *t, enum role caller, bool caller_team_owner);
/* {"role": "owner" | "member"}: GitBook's TeamMember. */
void team_role_to_json(struct jw *g, enum team_role role);
/* An item of a member's team list: {team, member: {role}}. */
void member_team_to_json(struct jw *g, const struct team *t, enum team_role role, enum role caller,
			 bool caller_team_owner);
/* An item of a team's member list (OrganizationTeamMember): {organization, team, permissions}. */
void team_member_to_json(struct jw *g, const char *base, const struct member *m, enum team_role role,
			 enum role caller);
/* role: the caller's effective role on the object (model/access.c). */
void space_to_json(struct jw *g, const char *base, const struct space *s, enum role role);
/* An item of listSpacesForOrganizationMember: {permission: the member's role,
 * space: with the caller's permissions (s->access)}. */
void member_space_to_json(struct jw *g, const char *base, enum role permission, const struct space *s);
void collection_to_json(struct jw *g, const char *base, const struct collection *c, enum role role);
/* {"permission": role, ...}: items of the permission lists. */
void user_grant_to_json(struct jw *g, const char *base, const struct grant_row *gr, bool with_email);
void team_grant_to_json(struct jw *g, const struct grant_row *gr, enum role caller_org_role);
void invite_to_json(struct jw *g, const struct invite *inv, enum role caller);
/* OrganizationSAMLProvider. The service-provider URLs are derived from base:
 * <base>/sso/saml/<id>/{acs,start,metadata}. An unset ssoURL is written as
 * SAML_NO_SSO_URL (the schema wants a URI), unset entityID and certificate as "". */
#define SAML_NO_SSO_URL "about:blank"
void saml_provider_to_json(struct jw *g, const char *base, const struct saml_provider *sp, enum role caller);
/* OrganizationSSOProviderLogin: {id, label, startURL}. */
void saml_login_to_json(struct jw *g, const char *base, const struct saml_provider *sp);

#endif
