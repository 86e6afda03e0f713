/*
 * collections.c - collections, and what spaces and collections share as
 * items of an organization's tree: where a new item may go, moving, deleting
 * and transferring one (domain/spaces.h).
 */
#include "domain/integrations.h"
#include "domain/spaces.h"
#include "util/err.h"

#include <string.h>

static const char *kind_name(enum dom_kind kind)
{
	return kind == DOM_SPACE ? "space" : "collection";
}

static int same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* ---- places in the tree ---- */

int dom_parent_check(struct dom *d, const char *org_id, const char *parent_id)
{
	struct collection c;
	int rc;

	if (!parent_id)
		return 0;
	rc = store_collection_get(d->tx, parent_id, &c);
	if (rc == ERR_NOT_FOUND || (rc == 0 && strcmp(c.org_id, org_id) != 0))
		return err_set(ERR_INVALID, "parent: no collection '%s' in this organization", parent_id);
	return rc;
}

int dom_may_create(struct dom *d, const char *org_id, const char *parent_id, const char *what)
{
	enum role role;
	int rc = dom_role_at(d, org_id, parent_id, &role);

	if (rc)
		return rc;
	/* A collection the actor may not see is as unknown as one that does not exist. */
	if (role < ROLE_READ && parent_id)
		return err_set(ERR_INVALID, "parent: no collection '%s' in this organization", parent_id);
	if (role < ROLE_CREATE)
		return err_set(ERR_FORBIDDEN, "you need the create role %s to %s",
			       parent_id ? "on the collection" : "in the organization", what);
	/* What an integration token would create lies outside what the admin
	 * selected for it (domain/integration_access.c). */
	return dom_content_manage_check(d);
}

/* How deep a new child of parent_id would sit (1 at the top level). */
static int depth_under(struct dom *d, const char *parent_id, int *depth)
{
	struct access_node chain[ACCESS_MAX_DEPTH];
	int n = 0, rc = parent_id ? store_collection_chain(d->tx, parent_id, chain, &n) : 0;

	*depth = n + 1;
	return rc;
}

/* Collection c may move under target_parent: not into itself or below
 * itself, and its subtree still fits ACCESS_MAX_DEPTH there. */
static int fits_under(struct dom *d, const struct collection *c, const char *target_parent)
{
	struct access_node chain[ACCESS_MAX_DEPTH];
	int n = 0, height, rc;

	if (target_parent && (rc = store_collection_chain(d->tx, target_parent, chain, &n)))
		return rc;
	for (int i = 0; i < n; i++)
		if (strcmp(chain[i].id, c->id) == 0)
			return err_set(ERR_INVALID, "parent: a collection cannot move into itself or a collection inside it");
	if ((rc = store_collection_height(d->tx, c->id, &height)))
		return rc;
	if (n + height > ACCESS_MAX_DEPTH)
		return err_set(ERR_INVALID, "parent: collections nest at most %d deep", ACCESS_MAX_DEPTH);
	return 0;
}

/* The parent of the item a position points at (a live space or a collection of org_id). */
static int position_parent(struct dom *d, const char *org_id, const char *ref, const char **parent)
{
	struct space s;
	struct collection c;
	int rc = store_space_get(d->tx, ref, &s);

	if (rc == 0 && !s.deleted_at && strcmp(s.org_id, org_id) == 0) {
		*parent = s.parent_id;
		return 0;
	}
	if (rc && rc != ERR_NOT_FOUND)
		return rc;
	rc = store_collection_get(d->tx, ref, &c);
	if (rc == 0 && strcmp(c.org_id, org_id) == 0) {
		*parent = c.parent_id;
		return 0;
	}
	if (rc && rc != ERR_NOT_FOUND)
		return rc;
	return err_set(ERR_INVALID, "position: '%s' is not a space or collection of this organization", ref);
}

/* Where item o lands for place p: the parent and the position there. */
static int place(struct dom *d, const struct dom_object *o, const struct dom_place *p, const char **parent,
		 int64_t *position)
{
	int already = 0, rc;

	if (!p->has_parent && !p->ref_id)
		return err_set(ERR_INVALID, "give 'parent', 'position', or both");
	*parent = p->has_parent ? p->parent_id : NULL;
	if (p->has_parent && (rc = dom_parent_check(d, o->org_id, *parent)))
		return rc;
	if (!p->has_parent && (rc = position_parent(d, o->org_id, p->ref_id, parent)))
		return rc;
	if ((rc = dom_may_create(d, o->org_id, *parent, "move it there")) ||
	    (rc = store_position_for(d->tx, o->org_id, *parent, p->ref_id, p->after, o->id, position, &already)))
		return rc;
	if (same(*parent, o->parent_id) && (!p->ref_id || already))
		return err_set(ERR_CONFLICT, "the move would not change anything");
	return 0;
}

/* ---- items ---- */

/* What the item has in common with the other kind. */
static void object_is(struct dom_object *o, const char *id, const char *org_id, const char *parent_id, enum role access)
{
	o->id = id;
	o->org_id = org_id;
	o->parent_id = parent_id;
	o->access = access;
}

static int object_load(struct dom *d, enum dom_kind kind, const char *id, struct dom_object *o)
{
	struct space *s = &o->space;
	struct collection *c = &o->collection;
	int rc;

	memset(o, 0, sizeof(*o));
	o->kind = kind;
	if (kind == DOM_SPACE) {
		if ((rc = store_space_get(d->tx, id, s)) || (rc = dom_space_role(d, s, &s->access)))
			return rc;
		object_is(o, s->id, s->org_id, s->parent_id, s->access);
		return 0;
	}
	if ((rc = store_collection_get(d->tx, id, c)) || (rc = dom_collection_role(d, c, &c->access)))
		return rc;
	object_is(o, c->id, c->org_id, c->parent_id, c->access);
	return 0;
}

int dom_object_get(struct dom *d, enum dom_kind kind, const char *id, enum role need, struct dom_object *out)
{
	int rc = object_load(d, kind, id, out);

	return rc ? rc : access_check(out->access, need, kind_name(kind));
}

/* Load o again after a change, with the actor's role as it is now. */
static int object_reload(struct dom *d, struct dom_object *o)
{
	const char *id = o->id;

	dom_access_changed(d);
	return object_load(d, o->kind, id, o);
}

static int require_live(const struct dom_object *o)
{
	if (o->kind == DOM_SPACE && o->space.deleted_at)
		return err_set(ERR_CONFLICT, "the space is deleted; restore it first");
	return 0;
}

int dom_object_delete(struct dom *d, enum dom_kind kind, const char *id)
{
	struct dom_object o;
	bool done;
	int rc = object_load(d, kind, id, &o);

	if (rc == ERR_NOT_FOUND)
		return 0; /* did not exist: the seed's contract */
	if (rc || (rc = access_check(o.access, ACCESS_MANAGE, kind_name(kind))) || (rc = dom_content_manage_check(d)))
		return rc;
	return kind == DOM_SPACE ? store_space_delete(d->tx, &o.space, &done) : store_collection_delete(d->tx, o.id, &done);
}

int dom_object_move(struct dom *d, enum dom_kind kind, const char *id, const struct dom_place *p,
		    struct dom_object *out)
{
	const char *parent;
	int64_t position;
	int rc;

	if ((rc = dom_object_get(d, kind, id, ACCESS_MANAGE, out)) || (rc = dom_content_manage_check(d)) ||
	    (rc = require_live(out)))
		return rc;
	/* Into itself is invalid, not a conflict: before anything else. */
	if (kind == DOM_COLLECTION && p->has_parent && p->parent_id && strcmp(p->parent_id, out->id) == 0)
		return err_set(ERR_INVALID, "parent: a collection cannot move into itself or a collection inside it");
	if ((rc = place(d, out, p, &parent, &position)) ||
	    (kind == DOM_COLLECTION && (rc = fits_under(d, &out->collection, parent))))
		return rc;
	rc = kind == DOM_SPACE ? store_space_place(d->tx, &out->space, parent, position)
			       : store_collection_place(d->tx, &out->collection, parent, position);
	return rc ? rc : object_reload(d, out);
}

int dom_object_transfer(struct dom *d, enum dom_kind kind, const char *id, const char *org_id,
			const char *parent_id, struct dom_object *out)
{
	int64_t position;
	int rc;

	if (kind == DOM_COLLECTION && parent_id)
		return err_set(ERR_INVALID, "parent: a collection is transferred to the top level");
	if ((rc = dom_object_get(d, kind, id, ACCESS_MANAGE, out)) || (rc = dom_content_manage_check(d)))
		return rc;
	if (kind == DOM_SPACE && out->space.deleted_at)
		return err_set(ERR_PRECONDITION, "a deleted space cannot be transferred; restore it first");
	/* The target organization: a member of it, with create where the item lands. */
	if ((rc = dom_enter_org(d, org_id)))
		return rc;
	if (d->actor.org.role == ROLE_NONE)
		return err_set(ERR_NOT_FOUND, "organization not found");
	if ((rc = dom_parent_check(d, org_id, parent_id)) ||
	    (rc = dom_may_create(d, org_id, parent_id, "transfer into the organization")))
		return rc;
	if (strcmp(org_id, out->org_id) == 0 && (!parent_id || same(parent_id, out->parent_id)))
		return err_set(ERR_CONFLICT, "the %s is already there: the transfer would not change anything",
			       kind_name(kind));
	if ((rc = store_position_for(d->tx, org_id, parent_id, NULL, 0, NULL, &position, NULL)))
		return rc;
	/* Within the organization a transfer is a move: its teams and members, and so their grants, stay. */
	if (strcmp(org_id, out->org_id) == 0)
		rc = store_space_place(d->tx, &out->space, parent_id, position);
	else if (kind == DOM_SPACE)
		rc = store_space_transfer(d->tx, &out->space, org_id, parent_id, position);
	else
		rc = store_collection_transfer(d->tx, &out->collection, org_id, position);
	return rc ? rc : object_reload(d, out);
}

/* ---- collections ---- */

static int collection_fresh(struct dom *d, const char *id, struct collection *out)
{
	struct dom_object o = { .kind = DOM_COLLECTION, .id = id };
	int rc = object_reload(d, &o);

	if (!rc)
		*out = o.collection;
	return rc;
}

int dom_collection_create(struct dom *d, const char *org_id, const struct collection_input *in,
			  struct collection *out)
{
	struct collection c = {
		.org_id = org_id,
		.parent_id = in->parent_id,
		.title = in->has_title && in->title ? in->title : "",
		.description = in->has_description ? in->description : NULL,
		.default_level = in->has_level ? in->default_level : LEVEL_INHERIT,
	};
	int depth, rc;

	if ((rc = dom_parent_check(d, org_id, c.parent_id)) ||
	    (rc = dom_may_create(d, org_id, c.parent_id, "create a collection")) ||
	    (rc = depth_under(d, c.parent_id, &depth)))
		return rc;
	if (depth > ACCESS_MAX_DEPTH)
		return err_set(ERR_INVALID, "parent: collections nest at most %d deep", ACCESS_MAX_DEPTH);
	if ((rc = store_collection_create(d->tx, &c)) || (rc = dom_grant_creator(d, org_id, NULL, c.id)))
		return rc;
	return collection_fresh(d, c.id, out);
}

int dom_collection_update(struct dom *d, const char *collection_id, const struct collection_input *in,
			  struct collection *out)
{
	struct collection c;
	/* Written back whole: the row is read locked (see dom_space_update). */
	int rc = dom_collection_get_locked(d, collection_id, ACCESS_MANAGE, &c);

	/* Installation tokens never reach ACCESS_MANAGE on a collection
	 * (dom_installation_role); the rule says so once more. */
	if (rc || (rc = dom_content_manage_check(d)))
		return rc;
	if (in->has_title)
		c.title = in->title ? in->title : "";
	if (in->has_description)
		c.description = in->description;
	if (in->has_level)
		c.default_level = in->default_level;
	if ((rc = store_collection_update(d->tx, &c)))
		return rc;
	return collection_fresh(d, c.id, out);
}

int dom_collections_list(struct dom *d, const char *org_id, bool nested, const struct list_req *lr,
			 struct collection **items, int *n, char **next)
{
	const struct access_ctx *ctx;
	struct dom_list cl;
	struct list_req l;
	bool admin;
	int rc;

	if ((rc = dom_actor_access(d, org_id, &ctx)) || (rc = org_access_check(ctx->org_role, ORG_ACCESS_VIEW)) ||
	    (rc = dom_list_init(d, ctx, org_id, &cl)))
		return rc;
	admin = ctx->org_role == ROLE_ADMIN;
	l = dom_list_counted(d, lr, org_id, admin ? NULL : d->actor.user_id);
	if ((rc = store_collections_list(d->tx, org_id, nested, &l, admin ? NULL : dom_keep_collection, &cl, items, n,
					 next)))
		return rc;
	for (int i = 0; admin && i < *n; i++)
		(*items)[i].access = ROLE_ADMIN;
	return 0;
}
