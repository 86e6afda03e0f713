/*
 * roles.h - roles and the permissions derived from them.
 *
 * What a role may do in an organization. A role on content (spaces,
 * collections) is resolved by model/access.c, whose *_permissions() say what it
 * may do there.
 *
 * Ordering: admin > create > review > edit > comment > read > guest (null).
 * ROLE_NONE is "not a member at all": such a caller must not learn that the
 * organization exists (404), while a guest is a member with no default access.
 */
#ifndef DOCSD_MODEL_ROLES_H
#define DOCSD_MODEL_ROLES_H

#include <stdbool.h>

enum role {
	ROLE_NONE = -1,
	ROLE_GUEST = 0,
	ROLE_READ,
	ROLE_COMMENT,
	ROLE_EDIT,
	ROLE_REVIEW,
	ROLE_CREATE,
	ROLE_ADMIN,
};

/* A space's or collection's defaultLevel: LEVEL_INHERIT, ROLE_GUEST (null: no
 * default access) or ROLE_READ..ROLE_ADMIN. */
#define LEVEL_INHERIT (-1)

/* "admin" .. "read" -> role; NULL -> ROLE_GUEST; anything else -> ROLE_NONE. */
enum role role_parse(const char *s);
/* Role name for the wire and the database; NULL for guest/none. */
const char *role_name(enum role r);

/* The access an operation needs on an organization, checked by the router. */
enum org_access {
	ORG_ACCESS_NONE = 0, /* the route has no organization */
	ORG_ACCESS_VIEW,     /* any member, guests included */
	ORG_ACCESS_MEMBER,   /* members with a role (not guests) */
	ORG_ACCESS_ADMIN,    /* admins */
};

/* 0 if allowed; ERR_NOT_FOUND when the caller must not see the org; ERR_FORBIDDEN. */
int org_access_check(enum role caller, enum org_access need);

struct org_permissions {
	bool view, admin, own_team, create_content, create_openapi_spec, ingest_conversations,
		view_billing, list_members, list_teams, list_integrations, list_installations,
		install_integration;
};

void org_permissions(struct org_permissions *out, enum role caller, bool owns_team);

struct team_permissions {
	bool admin, view;
};

/* caller_team_owner: the caller is an owner of this team. */
void team_permissions(struct team_permissions *out, enum role caller, bool caller_team_owner);

/* May the caller change this team's memberships (admin, or owner of the team)? */
bool team_can_manage(enum role caller, bool caller_team_owner);

#endif
