/*
 * content.h - what the content handlers share (access and the rules are the
 * domain's: domain/domain.h, domain/spaces.h; the model is model/access.c).
 *
 * A content route has no {organizationId}: the object names its organization,
 * so the domain loads the object first, then the caller's standing in that
 * organization (r->dom.actor), once per request (domain/access.c).
 */
#ifndef DOCSD_API_CONTENT_H
#define DOCSD_API_CONTENT_H

#include "api/api.h"
#include "model/revision.h"
#include "domain/spaces.h"

/* Body helpers shared by the content handlers: the shape of each field only;
 * the rules (a parent is a collection of the organization, a position names a
 * sibling, who may put what where) are the domain's (domain/spaces.h). */
/* defaultLevel: "inherit", a role, or null. 1 when present, 0 when absent. */
int api_body_level(struct req *r, const char *field, int *out);
/* parent (or `field`): a collection id, or null for the top level; 1 when the
 * field is present, 0 when absent (*out = NULL). */
int api_body_parent(struct req *r, const char *field, const char **out);
/* position {before|after: {type: space|collection, ...}}: *ref = NULL when absent. */
int api_body_position(struct req *r, const char **ref, int *after);
/* Where a move puts an item: "parent" and/or "position". */
int api_body_place(struct req *r, struct dom_place *out);

#endif
