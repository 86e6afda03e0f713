/*
 * collections.c - collections: create, read, update, delete, move, transfer,
 * and the organization's list of them.
 *
 * Access (api/content.c): reads need read on the collection, changes admin;
 * creating or moving into a place needs create there. Deleting a collection
 * deletes the collections inside it and turns its spaces into deleted spaces,
 * restorable for 7 days like any other.
 */
#include "api/content.h"

#include <string.h>

static int send_collection(struct req *r, int status, const char *id)
{
	struct collection c;
	struct jw *g;
	int rc = store_collection_get(&r->tx, id, &c);

	dom_access_changed(&r->dom);
	if (rc || (rc = dom_collection_role(&r->dom, &c, &c.access)))
		return rc;
	if (!(g = resp_json(r, status)))
		return err_set(ERR_INTERNAL, "out of memory");
	collection_to_json(g, api_base(r), &c, c.access);
	return 0;
}

/* How deep a new child of parent_id would sit (1 at the top level). */
static int depth_under(struct req *r, const char *parent_id, int *depth)
{
	struct access_node chain[ACCESS_MAX_DEPTH];
	int n = 0, rc = parent_id ? store_collection_chain(&r->tx, parent_id, chain, &n) : 0;

	*depth = n + 1;
	return rc;
}

int collection_create(struct req *r)
{
	struct collection c = { .org_id = r->dom.actor.org_id, .default_level = LEVEL_INHERIT };
	enum role role;
	int depth, rc;

	if ((rc = body_string(r, "title", 0, 0, 50, &c.title)) < 0 ||
	    (rc = body_string(r, "description", F_NULLABLE, 0, 100, &c.description)) < 0 ||
	    (rc = body_level(r, "defaultLevel", &c.default_level)) < 0 ||
	    (rc = body_parent(r, r->dom.actor.org_id, &c.parent_id)) < 0)
		return rc;
	if (!c.title)
		c.title = "";
	if ((rc = dom_role_at(&r->dom, r->dom.actor.org_id, c.parent_id, &role)))
		return rc;
	if (role < ROLE_READ && c.parent_id)
		return err_set(ERR_INVALID, "parent: no collection '%s' in this organization", c.parent_id);
	if (role < ROLE_CREATE)
		return err_set(ERR_FORBIDDEN, "you need the create role %s to create a collection",
			       c.parent_id ? "on the parent collection" : "in the organization");
	if ((rc = depth_under(r, c.parent_id, &depth)))
		return rc;
	if (depth > ACCESS_MAX_DEPTH)
		return err_set(ERR_INVALID, "parent: collections nest at most %d deep", ACCESS_MAX_DEPTH);
	if ((rc = store_collection_create(&r->tx, &c)) || (rc = content_grant_creator(r, c.org_id, NULL, c.id)))
		return rc;
	return send_collection(r, 201, c.id);
}

int collection_get(struct req *r)
{
	struct collection c;
	struct jw *g;
	int rc = dom_collection_get(&r->dom, req_param(r, "collectionId"), ROLE_READ, &c);

	if (rc)
		return rc;
	if (!(g = resp_json(r, 200)))
		return err_set(ERR_INTERNAL, "out of memory");
	collection_to_json(g, api_base(r), &c, c.access);
	return 0;
}

int collection_update(struct req *r)
{
	struct collection c;
	int rc;

	if ((rc = dom_collection_get_locked(&r->dom, req_param(r, "collectionId"), ROLE_ADMIN, &c)))
		return rc;
	/* body_string clears its output when the field is absent. */
	if ((body_field(r, "title") && (rc = body_string(r, "title", 0, 0, 50, &c.title)) < 0) ||
	    (body_field(r, "description") && (rc = body_string(r, "description", F_NULLABLE, 0, 100, &c.description)) < 0) ||
	    (rc = body_level(r, "defaultLevel", &c.default_level)) < 0)
		return rc;
	if ((rc = store_collection_update(&r->tx, &c)))
		return rc;
	return send_collection(r, 200, c.id);
}

int collection_delete(struct req *r)
{
	struct collection c;
	bool removed;
	int rc = store_collection_get(&r->tx, req_param(r, "collectionId"), &c);

	if (rc == ERR_NOT_FOUND)
		return resp_empty(r, 204); /* also 204 when it did not exist (the seed) */
	if (rc || (rc = dom_collection_role(&r->dom, &c, &c.access)) ||
	    (rc = access_check(c.access, ROLE_ADMIN, "collection")) || (rc = store_collection_delete(&r->tx, c.id, &removed)))
		return rc;
	return resp_empty(r, 204);
}

/* The height of the subtree rooted at c (1 for a collection with no children). */
static int subtree_height(struct req *r, const struct collection *c, const char *target_parent, int *out)
{
	struct access_node chain[ACCESS_MAX_DEPTH];
	int n = 0, rc;

	/* Moving under one of its own descendants would make a cycle. */
	if (target_parent && (rc = store_collection_chain(&r->tx, target_parent, chain, &n)))
		return rc;
	for (int i = 0; i < n; i++)
		if (strcmp(chain[i].id, c->id) == 0)
			return err_set(ERR_INVALID, "parent: a collection cannot move into itself or a collection inside it");
	if ((rc = store_collection_height(&r->tx, c->id, out)))
		return rc;
	if (n + *out > ACCESS_MAX_DEPTH)
		return err_set(ERR_INVALID, "parent: collections nest at most %d deep", ACCESS_MAX_DEPTH);
	return 0;
}

int collection_move(struct req *r)
{
	struct collection c;
	struct placement pl;
	json_t *parent;
	int height, rc;

	if ((rc = dom_collection_get(&r->dom, req_param(r, "collectionId"), ROLE_ADMIN, &c)))
		return rc;
	/* The cycle check comes first: a move into itself is invalid, not a conflict. */
	parent = body_field(r, "parent");
	if (json_is_string(parent) && strcmp(json_string_value(parent), c.id) == 0)
		return err_set(ERR_INVALID, "parent: a collection cannot move into itself or a collection inside it");
	if ((rc = content_placement(r, c.org_id, c.id, c.parent_id, &pl)) ||
	    (rc = subtree_height(r, &c, pl.parent_id, &height)) ||
	    (rc = store_collection_place(&r->tx, &c, pl.parent_id, pl.position)))
		return rc;
	return send_collection(r, 200, c.id);
}

int collection_transfer(struct req *r)
{
	struct collection c;
	struct membership target;
	const char *org_id;
	int64_t position;
	int rc;

	if ((rc = dom_collection_get(&r->dom, req_param(r, "collectionId"), ROLE_ADMIN, &c)))
		return rc;
	if ((rc = body_string(r, "organization", F_REQUIRED, 1, 64, &org_id)) < 0)
		return rc;
	if ((rc = store_membership(&r->tx, org_id, r->caller_id, &target)))
		return rc;
	if (target.role == ROLE_NONE)
		return err_set(ERR_NOT_FOUND, "organization not found");
	if (target.role != ROLE_ADMIN)
		return err_set(ERR_FORBIDDEN, "you must be an admin of the target organization");
	if (strcmp(org_id, c.org_id) == 0)
		return err_set(ERR_CONFLICT, "the collection is already in this organization");
	if ((rc = store_position_for(&r->tx, org_id, NULL, NULL, 0, NULL, &position, NULL)) ||
	    (rc = store_collection_transfer(&r->tx, &c, org_id, position)))
		return rc;
	return send_collection(r, 200, c.id);
}

int org_collections_list(struct req *r)
{
	static const char *const bools[] = { "false", "true", NULL };
	struct list_req lr;
	struct cursor cur;
	struct dom_list cl;
	const struct access_ctx *ctx;
	struct collection *items;
	char *next;
	struct jw *g;
	int n, nested, rc;

	if ((rc = req_list(r, &lr, &cur, NULL, 0)) || (rc = req_query_enum(r, "nested", bools, &nested)) ||
	    (rc = dom_actor_access(&r->dom, r->dom.actor.org_id, &ctx)) ||
	    (rc = dom_list_init(&r->dom, ctx, r->dom.actor.org_id, &cl)))
		return rc;
	if ((rc = store_collections_list(&r->tx, r->dom.actor.org_id, nested != 0, &lr,
					 r->dom.actor.org.role == ROLE_ADMIN ? NULL : dom_keep_collection, &cl, &items, &n, &next)))
		return rc;
	if (!(g = resp_list_begin(r)))
		return err_set(ERR_INTERNAL, "out of memory");
	for (int i = 0; i < n; i++)
		collection_to_json(g, api_base(r), &items[i], r->dom.actor.org.role == ROLE_ADMIN ? ROLE_ADMIN : items[i].access);
	return resp_list_end(r, n, next);
}
