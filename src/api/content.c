/*
 * content.c - what content handlers share: the shape of placement fields in
 * request bodies, and signed URLs.
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

int body_parent(struct req *r, const char *field, const char **out)
{
	return body_string(r, field, F_NULLABLE, 1, 64, out);
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

int body_place(struct req *r, struct dom_place *out)
{
	const char *ref;
	int after, rc;

	memset(out, 0, sizeof(*out));
	if ((rc = body_parent(r, "parent", &out->parent_id)) < 0)
		return rc;
	out->has_parent = rc == 1;
	if ((rc = body_position(r, &ref, &after)) < 0)
		return rc;
	out->ref_id = ref;
	out->after = after != 0;
	return 0;
}

/* 32 hex characters of HMAC-SHA256(files key, what). */
static int sign(struct req *r, const char *what, char out[33])
{
	static const char hex[] = "0123456789abcdef";
	const char *key;
	unsigned char mac[32];
	int rc = store_secret_get(&r->tx, "files", &key);

	if (rc)
		return rc;
	if (hmac_sha256(mac, key, strlen(key), what, strlen(what)))
		return err_set(ERR_INTERNAL, "hmac failed");
	for (int i = 0; i < 16; i++) {
		out[2 * i] = hex[mac[i] >> 4];
		out[2 * i + 1] = hex[mac[i] & 15];
	}
	out[32] = '\0';
	return 0;
}

const char *content_file_url(struct req *r, const char *blob, const char *name)
{
	char sig[33];

	(void)name;
	if (sign(r, blob, sig))
		return NULL;
	return arena_printf(&r->arena, "%s/files/%s.%s", api_base(r), blob, sig);
}

const char *content_pdf_url(struct req *r, const char *space_id, const char *revision_id, const char *page_id)
{
	char sig[33];
	const char *what = arena_printf(&r->arena, "%s.%s.%s", space_id, revision_id, page_id ? page_id : "all");

	if (!what || sign(r, what, sig))
		return NULL;
	return arena_printf(&r->arena, "%s/pdf/%s.%s.pdf", api_base(r), what, sig);
}

int content_sig_check(struct req *r, const char *what, const char *sig)
{
	char want[33];
	int rc = sign(r, what, want);
	unsigned diff = 0;

	if (rc)
		return rc;
	if (strlen(sig) != 32)
		return err_set(ERR_NOT_FOUND, "no such file");
	for (int i = 0; i < 32; i++)
		diff |= (unsigned)(want[i] ^ sig[i]);
	return diff ? err_set(ERR_NOT_FOUND, "no such file") : 0;
}
