/*
 * content.c - what content handlers share: the shape of placement fields in
 * request bodies, and signed URLs.
 */
#include "api/content.h"
#include "model/revision.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

int api_body_level(struct req *r, const char *field, int *out)
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

int api_body_parent(struct req *r, const char *field, const char **out)
{
	return body_string(r, field, F_NULLABLE, 1, 64, out);
}

int api_body_position(struct req *r, const char **ref, int *after)
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

int api_body_place(struct req *r, struct dom_place *out)
{
	const char *ref;
	int after, rc;

	memset(out, 0, sizeof(*out));
	if ((rc = api_body_parent(r, "parent", &out->parent_id)) < 0)
		return rc;
	out->has_parent = rc == 1;
	if ((rc = api_body_position(r, &ref, &after)) < 0)
		return rc;
	out->ref_id = ref;
	out->after = after != 0;
	return 0;
}

