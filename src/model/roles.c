#include "model/roles.h"
#include "util/err.h"

#include <string.h>

static const char *const role_names[] = {
	[ROLE_READ] = "read", [ROLE_COMMENT] = "comment", [ROLE_EDIT] = "edit",
	[ROLE_REVIEW] = "review", [ROLE_CREATE] = "create", [ROLE_ADMIN] = "admin",
};

enum role role_parse(const char *s)
{
	if (!s)
		return ROLE_GUEST;
	for (int r = ROLE_READ; r <= ROLE_ADMIN; r++)
		if (strcmp(s, role_names[r]) == 0)
			return (enum role)r;
	return ROLE_NONE;
}

const char *role_name(enum role r)
{
	return r >= ROLE_READ && r <= ROLE_ADMIN ? role_names[r] : NULL;
}

int org_access_check(enum role caller, enum org_access need)
{
	if (need == ORG_ACCESS_NONE)
		return 0;
	if (caller == ROLE_NONE)
		return err_set(ERR_NOT_FOUND, "organization not found");
	switch (need) {
	case ORG_ACCESS_VIEW:
		return 0;
	case ORG_ACCESS_MEMBER:
		if (caller >= ROLE_READ)
			return 0;
		return err_set(ERR_FORBIDDEN, "guests cannot do this in the organization");
	case ORG_ACCESS_ADMIN:
		if (caller == ROLE_ADMIN)
			return 0;
		return err_set(ERR_FORBIDDEN, "only organization admins can do this");
	default:
		return err_set(ERR_FORBIDDEN, "forbidden");
	}
}

void org_permissions(struct org_permissions *out, enum role caller, bool owns_team)
{
	bool member = caller >= ROLE_READ, admin = caller == ROLE_ADMIN;

	out->view = caller >= ROLE_GUEST;
	out->admin = admin;
	out->own_team = admin || owns_team;
	out->create_content = caller >= ROLE_CREATE;
	out->create_openapi_spec = caller >= ROLE_CREATE;
	out->ingest_conversations = admin;
	out->view_billing = admin;
	out->list_members = member;
	out->list_teams = member;
	/* As listOrganizationIntegrations and listOrganizationInstallations
	 * check (domain/integrations.c: ORG_ACCESS_VIEW): guests and
	 * installation tokens list them too (configuration hidden, an
	 * installation token's its own only). */
	out->list_integrations = caller >= ROLE_GUEST;
	out->list_installations = caller >= ROLE_GUEST;
	out->install_integration = admin;
}

bool team_can_manage(enum role caller, bool caller_team_owner)
{
	return caller == ROLE_ADMIN || (caller >= ROLE_GUEST && caller_team_owner);
}

void team_permissions(struct team_permissions *out, enum role caller, bool caller_team_owner)
{
	out->admin = team_can_manage(caller, caller_team_owner);
	out->view = caller >= ROLE_READ;
}
