/*
 * serialize.h - the one place each kind's JSON is built.
 *
 * Every endpoint that returns an organization, member, team, user or invite
 * calls these, so the same kind always has the same shape. `base` is the
 * server's public URL without a trailing slash; permissions are computed by
 * core/roles.c for the caller.
 */
#ifndef DOCSD_CORE_SERIALIZE_H
#define DOCSD_CORE_SERIALIZE_H

#include "core/jsonw.h"

#include "core/model.h"
#include "core/roles.h"

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
void invite_to_json(struct jw *g, const struct invite *inv, enum role caller);

#endif
