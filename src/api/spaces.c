/*
 * spaces.c - spaces: create, read, settings, the lifecycle (delete, restore,
 * purge), duplicate, move, transfer, and the lists of them.
 *
 * Each handler parses the request, calls one domain function
 * (domain/spaces.h: the access checks and the rules) and serializes.
 */
#include "api/content.h"
#include "model/translation.h"
#include "model/validate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const edit_modes[] = { "live", "locked", NULL };
static const char *const visibilities[] = { "public", "unlisted", "share-link", "visitor-auth", "in-collection",
					    "private", NULL };
/* GitBook's TranslationLanguage. */
static const char *const *const languages = translation_languages;

static int one_of(const char *v, const char *const *allowed)
{
	for (int i = 0; allowed[i]; i++)
		if (strcmp(v, allowed[i]) == 0)
			return 1;
	return 0;
}

/* A string field that must be one of `allowed`; 1 when present. */
static int body_enum(struct req *r, const char *field, const char *const *allowed, const char **out)
{
	int rc = body_string(r, field, 0, 1, 32, out);

	if (rc == 1 && !one_of(*out, allowed)) {
		char list[256] = "";
		size_t len = 0;
		for (int i = 0; allowed[i] && len < sizeof(list) - 40; i++)
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", i ? ", " : "", allowed[i]);
		return err_set(ERR_INVALID, "%s: must be one of %s", field, list);
	}
	return rc;
}

static int send_space(struct req *r, int status, const struct space *s)
{
	struct jw *g = resp_json(r, status);

	space_to_json(g, api_base(r), s, s->access);
	return 0;
}

/* The fields of a space a create (create: true) or an update sets. */
static int body_space(struct req *r, bool create, struct space_input *in)
{
	int rc;

	memset(in, 0, sizeof(*in));
	if ((rc = body_string(r, "title", 0, 0, SPACE_TITLE_MAX, &in->title)) < 0 ||
	    (rc = body_enum(r, "language", languages, &in->language)) < 0 ||
	    (rc = body_enum(r, "editMode", edit_modes, &in->edit_mode)) < 0 ||
	    (rc = body_string(r, "emoji", F_NULLABLE, 1, SPACE_EMOJI_MAX, &in->emoji)) < 0)
		return rc;
	in->has_emoji = rc == 1;
	if (create) {
		if ((rc = api_body_parent(r, "parent", &in->parent_id)) < 0)
			return rc;
		return 0;
	}
	if ((rc = body_enum(r, "visibility", visibilities, &in->visibility)) < 0 ||
	    (rc = api_body_level(r, "defaultLevel", &in->default_level)) < 0)
		return rc;
	in->has_level = rc == 1;
	if ((rc = body_string(r, "icon", F_NULLABLE, 1, 2048, &in->icon)) < 0)
		return rc;
	in->has_icon = rc == 1;
	if (in->icon && !valid_url(in->icon))
		return err_set(ERR_INVALID, "icon: must be an absolute http(s) URL");
	if ((rc = api_body_merge_rules(r, true, &in->merge_rules)) < 0)
		return rc;
	return 0;
}

int api_space_create(struct req *r)
{
	struct space_input in;
	struct space s;
	int rc;

	if (body_field(r, "template") || body_field(r, "computedSource"))
		return err_set(ERR_INVALID, "spaces from templates or computed sources are not supported");
	if ((rc = body_space(r, true, &in)) || (rc = dom_space_create(&r->dom, r->dom.actor.org_id, &in, &s)))
		return rc;
	return send_space(r, 201, &s);
}

int api_space_get(struct req *r)
{
	struct space s;
	int rc = dom_space_get(&r->dom, req_param(r, "spaceId"), ROLE_READ, &s);

	/* shareKey resolves published URLs of share-link sites; spaces' URLs do not depend on it. */
	return rc ? rc : send_space(r, 200, &s);
}

int api_space_update(struct req *r)
{
	struct space_input in;
	struct space s;
	int rc;

	if ((rc = body_space(r, false, &in)) || (rc = dom_space_update(&r->dom, req_param(r, "spaceId"), &in, &s)))
		return rc;
	return send_space(r, 200, &s);
}

int api_space_delete(struct req *r)
{
	int rc = dom_object_delete(&r->dom, DOM_SPACE, req_param(r, "spaceId"));

	return rc ? rc : resp_empty(r, 204);
}

int api_space_restore(struct req *r)
{
	struct space s;
	int rc = dom_space_restore(&r->dom, req_param(r, "spaceId"), &s);

	return rc ? rc : send_space(r, 200, &s);
}

int api_space_duplicate(struct req *r)
{
	struct space s;
	int rc = dom_space_duplicate(&r->dom, req_param(r, "spaceId"), &s);

	/* The seed answers 200 (GitBook's document says 201). */
	return rc ? rc : send_space(r, 200, &s);
}

int api_space_move(struct req *r)
{
	struct dom_place p;
	struct dom_object o;
	int rc;

	if ((rc = api_body_place(r, &p)) || (rc = dom_object_move(&r->dom, DOM_SPACE, req_param(r, "spaceId"), &p, &o)))
		return rc;
	return send_space(r, 200, &o.space);
}

int api_space_transfer(struct req *r)
{
	struct dom_object o;
	const char *org_id, *parent;
	int rc;

	/* GitBook names the new place "collection" in later versions of transferSpace. */
	if ((rc = body_string(r, "organization", F_REQUIRED, 1, 64, &org_id)) < 0 ||
	    (rc = api_body_parent(r, "parent", &parent)) < 0 || (!parent && (rc = api_body_parent(r, "collection", &parent)) < 0) ||
	    (rc = dom_object_transfer(&r->dom, DOM_SPACE, req_param(r, "spaceId"), org_id, parent, &o)))
		return rc;
	return send_space(r, 200, &o.space);
}

/* ---- lists ---- */

static int send_spaces(struct req *r, const char *org_id, const char *collection_id)
{
	struct list_req lr;
	int64_t total;
	struct cursor cur;
	struct space *items;
	char *next;
	struct jw *g;
	int n, rc;

	if ((rc = req_list_total(r, &lr, &cur, NULL, 0, &total)) ||
	    (rc = dom_spaces_list(&r->dom, org_id, collection_id, &lr, &items, &n, &next)))
		return rc;
	g = resp_list_begin(r);
	for (int i = 0; i < n; i++)
		space_to_json(g, api_base(r), &items[i], items[i].access);
	return resp_list_end(r, total, next);
}

int api_org_spaces_list(struct req *r)
{
	return send_spaces(r, r->dom.actor.org_id, NULL);
}

int api_collection_spaces_list(struct req *r)
{
	return send_spaces(r, NULL, req_param(r, "collectionId"));
}

/* The spaces a member can access, with the role that gives it (permission);
 * the embedded space's permissions are the caller's. */
int api_member_spaces_list(struct req *r)
{
	struct member_space *items;
	struct list_req lr;
	int64_t total;
	struct cursor cur;
	char *next;
	struct jw *g;
	int n, rc;

	if ((rc = req_list_total(r, &lr, &cur, "order", 1, &total)) ||
	    (rc = dom_member_spaces(&r->dom, r->dom.actor.org_id, req_param(r, "userId"), &lr, &items, &n, &next)))
		return rc;
	g = resp_list_begin(r);
	for (int i = 0; i < n; i++)
		member_space_to_json(g, api_base(r), items[i].permission, &items[i].space);
	return resp_list_end(r, total, next);
}
