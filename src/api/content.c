/*
 * content.c - loading spaces and collections with the caller's role on them.
 */
#include "api/content.h"
#include "core/revision.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

int body_level(struct req *r, const char *field, int *out)
{
	json_t *v = body_field(r, field);
	enum role role;

	if (!v)
		return 0;
	if (json_is_null(v)) {
		*out = ROLE_GUEST;
		return 1;
	}
	if (json_is_string(v) && strcmp(json_string_value(v), "inherit") == 0) {
		*out = LEVEL_INHERIT;
		return 1;
	}
	if (!json_is_string(v) || (role = role_parse(json_string_value(v))) < ROLE_READ)
		return err_set(ERR_INVALID, "%s: must be 'inherit', one of admin, create, review, edit, comment, read, or null",
			       field);
	*out = role;
	return 1;
}

/* parent (a collection id of org_id, or absent/null for the top level). */
int body_parent(struct req *r, const char *org_id, const char **out)
{
	struct collection c;
	int rc = body_string(r, "parent", F_NULLABLE, 1, 64, out);

	if (rc <= 0 || !*out)
		return rc;
	rc = store_collection_get(&r->tx, *out, &c);
	if (rc == ERR_NOT_FOUND || (rc == 0 && strcmp(c.org_id, org_id) != 0))
		return err_set(ERR_INVALID, "parent: no collection '%s' in this organization", *out);
	return rc ? rc : 1;
}

int body_position(struct req *r, const char **ref, int *after)
{
	json_t *pos = body_field(r, "position"), *before, *aft, *ptr, *type, *id;

	*ref = NULL;
	*after = 0;
	if (!pos || json_is_null(pos))
		return 0;
	if (!json_is_object(pos))
		return err_set(ERR_INVALID, "position: must be an object with 'before' or 'after'");
	before = json_object_get(pos, "before");
	aft = json_object_get(pos, "after");
	if (!before == !aft)
		return err_set(ERR_INVALID, "position: give exactly one of 'before' and 'after'");
	ptr = before ? before : aft;
	type = json_object_get(ptr, "type");
	if (!json_is_object(ptr) || !json_is_string(type))
		return err_set(ERR_INVALID, "position.%s: must be {type: 'space', space} or {type: 'collection', collection}",
			       before ? "before" : "after");
	if (strcmp(json_string_value(type), "space") == 0)
		id = json_object_get(ptr, "space");
	else if (strcmp(json_string_value(type), "collection") == 0)
		id = json_object_get(ptr, "collection");
	else
		return err_set(ERR_INVALID, "position.%s.type: must be 'space' or 'collection'", before ? "before" : "after");
	if (!json_is_string(id) || json_string_length(id) == 0 || json_string_length(id) > 64)
		return err_set(ERR_INVALID, "position.%s.%s: must be an id", before ? "before" : "after",
			       json_string_value(type));
	*ref = json_string_value(id);
	*after = aft != NULL;
	return 1;
}

static int same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The parent of the item a position points at (a live space or a collection of org_id). */
static int position_parent(struct req *r, const char *org_id, const char *ref, const char **parent)
{
	struct space s;
	struct collection c;
	int rc = store_space_get(&r->tx, ref, &s);

	if (rc == 0 && !s.deleted_at && strcmp(s.org_id, org_id) == 0) {
		*parent = s.parent_id;
		return 0;
	}
	if (rc && rc != ERR_NOT_FOUND)
		return rc;
	rc = store_collection_get(&r->tx, ref, &c);
	if (rc == 0 && strcmp(c.org_id, org_id) == 0) {
		*parent = c.parent_id;
		return 0;
	}
	if (rc && rc != ERR_NOT_FOUND)
		return rc;
	return err_set(ERR_INVALID, "position: '%s' is not a space or collection of this organization", ref);
}

int content_placement(struct req *r, const char *org_id, const char *self_id, const char *current_parent,
		      struct placement *pl)
{
	const char *ref;
	int after, already = 0, has_parent, rc;
	enum role role;

	if ((has_parent = body_parent(r, org_id, &pl->parent_id)) < 0)
		return has_parent;
	if ((rc = body_position(r, &ref, &after)) < 0)
		return rc;
	if (!has_parent && !ref)
		return err_set(ERR_INVALID, "give 'parent', 'position', or both");
	if (!has_parent && (rc = position_parent(r, org_id, ref, &pl->parent_id)))
		return rc;
	if ((rc = dom_role_at(&r->dom, org_id, pl->parent_id, &role)))
		return rc;
	if (role < ROLE_READ && pl->parent_id)
		return err_set(ERR_INVALID, "parent: no collection '%s' in this organization", pl->parent_id);
	if (role < ROLE_CREATE)
		return err_set(ERR_FORBIDDEN, "you need the create role %s",
			       pl->parent_id ? "on the target collection" : "in the organization");
	if ((rc = store_position_for(&r->tx, org_id, pl->parent_id, ref, after, self_id, &pl->position, &already)))
		return rc;
	if (same(pl->parent_id, current_parent) && (!ref || already))
		return err_set(ERR_CONFLICT, "the move would not change anything");
	return 0;
}

int content_grant_creator(struct req *r, const char *org_id, const char *space_id, const char *collection_id)
{
	if (r->dom.actor.org.role == ROLE_ADMIN)
		return 0;
	dom_access_changed(&r->dom); /* the grant changes the caller's access */
	return store_grant_set(&r->tx, org_id, space_id, collection_id, GRANT_USER, r->caller_id, ROLE_ADMIN);
}

