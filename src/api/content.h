/*
 * content.h - the access checks every space, collection and grant handler
 * shares (the model itself is core/access.c).
 *
 * A content route has no {organizationId}: the object names its organization,
 * so the domain loads the object first, then the caller's standing in that
 * organization (r->dom.actor), once per request (domain/access.c).
 */
#ifndef DOCSD_API_CONTENT_H
#define DOCSD_API_CONTENT_H

#include "api/api.h"
#include "core/revision.h"

/* Body helpers shared by the content handlers. */
/* defaultLevel: "inherit", a role, or null. */
int body_level(struct req *r, const char *field, int *out);
/* parent: a collection id of org_id (400 when it is not one), or null for the
 * top level; 1 when the field is present, 0 when absent. */
int body_parent(struct req *r, const char *org_id, const char **out);
/* position {before|after: {type: space|collection, ...}}: *ref = NULL when absent. */
int body_position(struct req *r, const char **ref, int *after);

/* Where a move puts an item: the body's "parent" (null: the top level) and/or
 * "position" (whose item then names the parent). Checks the target exists in
 * the organization, the caller may create there (403), and that the move
 * changes something (409). self_id/current_parent: the item being moved. */
struct placement {
	const char *parent_id;
	int64_t position;
};
int content_placement(struct req *r, const char *org_id, const char *self_id, const char *current_parent,
		      struct placement *pl);

/* Give the creator of a space or collection admin on it, unless they are an
 * organization admin already. */
int content_grant_creator(struct req *r, const char *org_id, const char *space_id, const char *collection_id);

#endif
