/*
 * collections.c - collections: create, read, update, delete, move, transfer,
 * and the organization's list of them.
 *
 * Each handler parses the request, calls one domain function
 * (domain/spaces.h: the access checks and the rules) and serializes.
 */
#include "api/content.h"

#include <string.h>

static int send_collection(struct req *r, int status, const struct collection *c)
{
	struct jw *g = resp_json(r, status);

	collection_to_json(g, api_base(r), c, c->access);
	return 0;
}

/* The fields of a collection a create (create: true) or an update sets. */
static int body_collection(struct req *r, bool create, struct collection_input *in)
{
	int rc;

	memset(in, 0, sizeof(*in));
	if ((rc = body_string(r, "title", 0, 0, COLLECTION_TITLE_MAX, &in->title)) < 0)
		return rc;
	in->has_title = rc == 1;
	if ((rc = body_string(r, "description", F_NULLABLE, 0, COLLECTION_DESCRIPTION_MAX, &in->description)) < 0)
		return rc;
	in->has_description = rc == 1;
	if ((rc = api_body_level(r, "defaultLevel", &in->default_level)) < 0)
		return rc;
	in->has_level = rc == 1;
	if (create && (rc = api_body_parent(r, "parent", &in->parent_id)) < 0)
		return rc;
	return 0;
}

int api_collection_create(struct req *r)
{
	struct collection_input in;
	struct collection c;
	int rc;

	if ((rc = body_collection(r, true, &in)) || (rc = dom_collection_create(&r->dom, r->dom.actor.org_id, &in, &c)))
		return rc;
	return send_collection(r, 201, &c);
}

int api_collection_get(struct req *r)
{
	struct collection c;
	int rc = dom_collection_get(&r->dom, req_param(r, "collectionId"), ROLE_READ, &c);

	return rc ? rc : send_collection(r, 200, &c);
}

int api_collection_update(struct req *r)
{
	struct collection_input in;
	struct collection c;
	int rc;

	if ((rc = body_collection(r, false, &in)) ||
	    (rc = dom_collection_update(&r->dom, req_param(r, "collectionId"), &in, &c)))
		return rc;
	return send_collection(r, 200, &c);
}

int api_collection_delete(struct req *r)
{
	int rc = dom_object_delete(&r->dom, DOM_COLLECTION, req_param(r, "collectionId"));

	/* also 204 when it did not exist (the seed) */
	return rc ? rc : resp_empty(r, 204);
}

int api_collection_move(struct req *r)
{
	struct dom_place p;
	struct dom_object o;
	int rc;

	if ((rc = api_body_place(r, &p)) || (rc = dom_object_move(&r->dom, DOM_COLLECTION, req_param(r, "collectionId"), &p, &o)))
		return rc;
	return send_collection(r, 200, &o.collection);
}

int api_collection_transfer(struct req *r)
{
	struct dom_object o;
	const char *org_id;
	int rc;

	if ((rc = body_string(r, "organization", F_REQUIRED, 1, 64, &org_id)) < 0 ||
	    (rc = dom_object_transfer(&r->dom, DOM_COLLECTION, req_param(r, "collectionId"), org_id, NULL, &o)))
		return rc;
	return send_collection(r, 200, &o.collection);
}

int api_org_collections_list(struct req *r)
{
	static const char *const bools[] = { "false", "true", NULL };
	struct list_req lr;
	int64_t total;
	struct cursor cur;
	struct collection *items;
	char *next;
	struct jw *g;
	int n, nested, rc;

	if ((rc = req_list_total(r, &lr, &cur, NULL, 0, &total)) || (rc = req_query_enum(r, "nested", bools, &nested)) ||
	    (rc = dom_collections_list(&r->dom, r->dom.actor.org_id, nested != 0, &lr, &items, &n, &next)))
		return rc;
	g = resp_list_begin(r);
	for (int i = 0; i < n; i++)
		collection_to_json(g, api_base(r), &items[i], items[i].access);
	return resp_list_end(r, total, next);
}
