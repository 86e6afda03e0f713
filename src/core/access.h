/*
 * access.h - who may do what on a space or a collection.
 *
 * One model for all content. A caller's effective role on an object is the
 * highest of:
 *   - admin, when the caller is an organization admin;
 *   - the roles granted on the object and on each collection above it, to the
 *     caller or to a team the caller is in;
 *   - for organization members (not guests), the default level: the object's
 *     own defaultLevel, else the nearest parent collection's, else the
 *     organization's defaultRole ("inherit" passes the question up).
 * ROLE_GUEST means no access at all. Reads need read, edits need edit,
 * settings need admin; a caller without read gets 404, one with read but too
 * low a role 403 (access_check).
 *
 * This file is pure: the store loads the caller's grants and the object's
 * chain of parents, and these functions decide.
 */
#ifndef DOCSD_CORE_ACCESS_H
#define DOCSD_CORE_ACCESS_H

#include <stdbool.h>

#include "core/roles.h"

/* One of the caller's grants: the highest role on `target` (a space or
 * collection id). Arrays of them are sorted by target (strcmp). */
struct access_grant {
	const char *target;
	enum role role;
};

struct access_ctx {
	enum role org_role;    /* ROLE_NONE when not a member */
	enum role org_default; /* the organization's defaultRole */
	const struct access_grant *grants;
	int ngrants;
};

/* An object and its parents, the object first: ids and defaultLevels. */
struct access_node {
	const char *id;
	int level;
};

/* Deepest collection nesting docsd accepts (and walks). */
#define ACCESS_MAX_DEPTH 32

enum role access_role(const struct access_ctx *c, const struct access_node *chain, int n);

/* 0 when `have` suffices for `need`; else ERR_NOT_FOUND (no read: the caller
 * must not learn the object exists) or ERR_FORBIDDEN. `what` names the object. */
int access_check(enum role have, enum role need, const char *what);

/* defaultLevel on the wire: "inherit", a role name, or null (ROLE_GUEST). */
const char *level_name(int level);

struct space_permissions {
	bool view, access, admin, view_invite_links, edit, trigger_git_sync, comment, merge, review,
		install_integration;
};
void space_permissions(struct space_permissions *out, enum role role, bool locked);

struct collection_permissions {
	bool view, admin, view_invite_links, create;
};
void collection_permissions(struct collection_permissions *out, enum role role);

#endif
