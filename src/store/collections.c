/*
 * collections.c - collections: nestable groups of spaces.
 *
 * Invariant: a collection's parent is a collection of the same organization,
 * and no collection is its own ancestor (the API checks moves against the
 * target's chain). Every change bumps the organization's generation, which
 * cached list pages depend on (store_org_bump).
 */
#include "store/internal.h"
#include "util/util.h"

#include <string.h>

#define COLLECTION_COLS "c.id, c.org_id, c.parent_id, c.title, c.description, c.default_level, c.position, " \
	"c.created_at, c.updated_at"

/* Ids of a collection and every collection inside it: $1 the collection. */
#define SUBTREE \
	"WITH RECURSIVE sub(id) AS (SELECT id FROM collections WHERE id = $1 " \
	"UNION ALL SELECT c.id FROM collections c JOIN sub ON c.parent_id = sub.id) SELECT id FROM sub"

static int fill_collection(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct collection *c = out;

	c->id = st_str(tx, r, 0);
	c->org_id = st_str(tx, r, 1);
	c->parent_id = st_str(tx, r, 2);
	c->title = st_str(tx, r, 3);
	c->description = st_str(tx, r, 4);
	c->default_level = (int)st_int(tx, r, 5);
	c->position = st_int(tx, r, 6);
	c->created_at = st_int(tx, r, 7);
	c->updated_at = st_int(tx, r, 8);
	return 0;
}

int store_collection_create(struct store_tx *tx, struct collection *c)
{
	char id[ID_LEN + 1];
	int rc;

	if (id_new(id))
		return err_set(ERR_INTERNAL, "getrandom failed");
	c->id = arena_strdup(tx->arena, id);
	c->created_at = c->updated_at = clock_now_ms();
	if ((rc = st_position_append(tx, c->org_id, c->parent_id, &c->position)))
		return rc;
	struct db_param p[] = { P_TEXT(c->id), P_TEXT(c->org_id), P_TEXT(c->parent_id), P_TEXT(c->title),
				P_TEXT(c->description), P_INT(c->default_level), P_INT(c->position), P_INT(c->created_at) };
	rc = st_exec(tx,
		     "INSERT INTO collections (id, org_id, parent_id, title, description, default_level, position, "
		     "created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)",
		     p, NP(p), NULL);
	return rc ? rc : store_org_bump(tx, c->org_id);
}

int store_collection_get(struct store_tx *tx, const char *id, struct collection *out)
{
	struct db_param p[] = { P_TEXT(id) };
	int rc = st_one(tx, "SELECT " COLLECTION_COLS " FROM collections c WHERE c.id = $1", p, NP(p), fill_collection, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "collection not found") : rc;
}

int store_collection_get_locked(struct store_tx *tx, const char *id, struct collection *out)
{
	struct db_param p[] = { P_TEXT(id) };
	int rc = st_one(tx, "SELECT " COLLECTION_COLS " FROM collections c WHERE c.id = $1" DB_LOCK_ROW, p, NP(p),
			fill_collection, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "collection not found") : rc;
}

int store_collection_update(struct store_tx *tx, const struct collection *c)
{
	struct db_param p[] = { P_TEXT(c->id), P_TEXT(c->title), P_TEXT(c->description), P_INT(c->default_level),
				P_INT(clock_now_ms()) };
	int rc = st_exec(tx,
			 "UPDATE collections SET title = $2, description = $3, default_level = $4, updated_at = $5 "
			 "WHERE id = $1",
			 p, NP(p), NULL);

	return rc ? rc : store_org_bump(tx, c->org_id);
}

int store_collection_delete(struct store_tx *tx, const char *id, bool *removed)
{
	struct collection c;
	int64_t now = clock_now_ms(), changes = 0;
	int rc = store_collection_get(tx, id, &c);

	*removed = false;
	if (rc == ERR_NOT_FOUND)
		return 0;
	if (rc)
		return rc;
	/* Its spaces are deleted like any deleted space; the foreign key then
	 * moves them to the top level, where a restore finds them. */
	struct db_param p[] = { P_TEXT(id), P_INT(now) };
	rc = st_exec(tx,
		     "UPDATE spaces SET deleted_at = $2, updated_at = $2, "
		     "visibility = CASE WHEN visibility = 'in-collection' THEN 'private' ELSE visibility END "
		     "WHERE deleted_at IS NULL AND parent_id IN (" SUBTREE ")",
		     p, NP(p), NULL);
	if (rc == 0)
		rc = st_exec(tx, "DELETE FROM collections WHERE id = $1", p, 1, &changes);
	if (rc)
		return rc;
	*removed = changes > 0;
	return store_org_bump(tx, c.org_id);
}

static int fill_height(struct store_tx *tx, struct db_rows *r, void *out)
{
	*(int *)out = (int)st_int(tx, r, 0);
	return 0;
}

int store_collection_height(struct store_tx *tx, const char *id, int *out)
{
	struct db_param p[] = { P_TEXT(id), P_INT(ACCESS_MAX_DEPTH + 1) };

	*out = 1;
	return st_one(tx,
		      "WITH RECURSIVE sub(id, d) AS (SELECT id, 1 FROM collections WHERE id = $1 "
		      "UNION ALL SELECT c.id, sub.d + 1 FROM collections c JOIN sub ON c.parent_id = sub.id WHERE sub.d < $2) "
		      "SELECT MAX(d) FROM sub",
		      p, NP(p), fill_height, out);
}

int store_collection_place(struct store_tx *tx, const struct collection *c, const char *parent_id, int64_t position)
{
	struct db_param p[] = { P_TEXT(c->id), P_TEXT(parent_id), P_INT(position), P_INT(clock_now_ms()) };
	int rc = st_exec(tx, "UPDATE collections SET parent_id = $2, position = $3, updated_at = $4 WHERE id = $1", p,
			 NP(p), NULL);

	return rc ? rc : store_org_bump(tx, c->org_id);
}

int store_collection_transfer(struct store_tx *tx, const struct collection *c, const char *org_id, int64_t position)
{
	struct db_param p[] = { P_TEXT(c->id), P_TEXT(org_id), P_INT(position), P_INT(clock_now_ms()) };
	int rc;

	/* Grants travel only where they still mean something: a team belongs to
	 * the old organization, a user keeps a grant if a member of the new one. */
	rc = st_exec(tx,
		     "DELETE FROM grants WHERE (collection_id IN (" SUBTREE ") OR space_id IN "
		     "(SELECT s.id FROM spaces s WHERE s.parent_id IN (" SUBTREE "))) AND (team_id IS NOT NULL OR "
		     "NOT EXISTS (SELECT 1 FROM members m WHERE m.org_id = $2 AND m.user_id = grants.user_id))",
		     p, 2, NULL);
	if (rc == 0)
		rc = st_exec(tx, "UPDATE collections SET org_id = $2 WHERE id IN (" SUBTREE ")", p, 2, NULL);
	if (rc == 0)
		rc = st_exec(tx, "UPDATE spaces SET org_id = $2 WHERE parent_id IN (" SUBTREE ")", p, 2, NULL);
	if (rc == 0)
		rc = st_exec(tx,
			     "UPDATE grants SET org_id = $2 WHERE collection_id IN (" SUBTREE ") OR space_id IN "
			     "(SELECT s.id FROM spaces s WHERE s.parent_id IN (" SUBTREE "))",
			     p, 2, NULL);
	if (rc == 0) {
		/* Every parameter must appear in the statement: PostgreSQL cannot type an unused $2. */
		struct db_param top[] = { P_TEXT(c->id), P_INT(position), P_INT(clock_now_ms()) };
		rc = st_exec(tx, "UPDATE collections SET parent_id = NULL, position = $2, updated_at = $3 WHERE id = $1",
			     top, NP(top), NULL);
	}
	if (rc == 0)
		rc = store_org_bump(tx, c->org_id);
	return rc ? rc : store_org_bump(tx, org_id);
}

static void collection_key(const void *item, int64_t *key, const char **id)
{
	const struct collection *c = item;

	*key = c->created_at;
	*id = c->id;
}

/* $1 org, $2 limit, $3 nested (1: all levels), $4/$5 cursor */
#define COLLECTION_LIST(cmp, dir) \
	"SELECT " COLLECTION_COLS " FROM collections c WHERE c.org_id = $1 " \
	"AND ($3 = 1 OR c.parent_id IS NULL) " cmp "ORDER BY c.created_at " dir ", c.id " dir " LIMIT $2"

static const char *const collection_list_sql[2][2] = {
	[0][0] = COLLECTION_LIST("", "ASC"),
	[0][1] = COLLECTION_LIST("AND (c.created_at, c.id) > ($4, $5) ", "ASC"),
	[1][0] = COLLECTION_LIST("", "DESC"),
	[1][1] = COLLECTION_LIST("AND (c.created_at, c.id) < ($4, $5) ", "DESC"),
};

int store_collections_list(struct store_tx *tx, const char *org_id, int nested, const struct list_req *lr,
			   store_keep_fn keep, void *ctx, struct collection **items, int *n, char **next)
{
	struct db_param p[5] = { P_TEXT(org_id), P_NULL, P_INT(nested ? 1 : 0) };
	int rc = st_list_keep(tx, collection_list_sql, p, NP(p), 1, lr, fill_collection, sizeof(struct collection),
			      collection_key, keep, ctx, (void **)items, n, next);

	return rc ? rc : st_total_keep(tx, lr, collection_list_sql, p, NP(p), 1, fill_collection,
				       sizeof(struct collection), collection_key, keep, ctx);
}
