/*
 * access.h - who may do what on a space or a collection.
 *
 * GitBook's model. A caller's effective role on an object (a space, or a
 * collection) is decided by precedence, nearest first:
 *   1. organization admins are admin everywhere; non-members have no access
 *      (ROLE_NONE: 404, the object's existence is not theirs to learn);
 *   2. the object's own grants, to the caller and to the caller's teams: the
 *      highest of them wins over everything below, even when it is lower than
 *      what the steps below would give (a member with a direct grant is taken
 *      out of the inheritance);
 *   3. the object's defaultLevel when it is not "inherit": that role, or null
 *      (ROLE_GUEST) meaning no access without a grant on the object itself. A
 *      level ends the walk: grants and levels of the collections above do not
 *      reach an object that does not inherit. Levels are for members: a guest
 *      gets nothing from one;
 *   4. then steps 2 and 3 for each parent collection, nearest first;
 *   5. the member's own organization role; guests (org role null) get only
 *      what steps 2-4 grant them.
 * Organization.defaultRole takes no part: it is the role new members get when
 * they join without one (domain/orgs.c, domain/invites.c, domain/saml.c, domain/members.c for SSO).
 *
 * What each role may do on content (GitBook's roles page): read; comment
 * (+ post, resolve, react); edit (+ change requests and their content); review
 * (+ review and merge: ACCESS_MERGE); create, a content-level admin (+ create
 * spaces and collections inside, change settings and edit mode, manage the
 * permissions, delete, restore, move, transfer: ACCESS_MANAGE); admin (+ the
 * organization itself). A caller without read gets 404, one with read but too
 * low a role 403 (access_check). The `permissions` booleans of Space and
 * Collection (space_permissions, collection_permissions) read the same
 * constants as the checks.
 *
 * This file is pure: the store loads the caller's grants and the object's
 * chain of parents (domain/access.c), and these functions decide.
 */
#ifndef DOCSD_MODEL_ACCESS_H
#define DOCSD_MODEL_ACCESS_H

#include <stdbool.h>

#include "model/roles.h"

/* The role that merging, reviewing and updating a change request from main
 * need. */
#define ACCESS_MERGE ROLE_REVIEW
/* The role that managing a space or collection needs: settings, edit mode,
 * permissions (grants), delete, restore, move, transfer, and creating inside a
 * collection. */
#define ACCESS_MANAGE ROLE_CREATE

/* One of the caller's grants: the highest role on `target` (a space or
 * collection id), own or through a team. Arrays of them are sorted by target
 * (strcmp). */
struct access_grant {
	const char *target;
	enum role role;
};

struct access_ctx {
	enum role org_role; /* ROLE_NONE when not a member, ROLE_GUEST for a guest */
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

/* The effective role on chain[0] (whose parents follow, nearest first). */
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
