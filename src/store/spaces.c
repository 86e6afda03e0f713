/*
 * spaces.c - spaces and their lifecycle.
 *
 * Lifecycle (the seed's table): live <-> locked through edit_mode; DELETE sets
 * deleted_at, which takes the space out of every list (the partial indexes
 * hold live spaces only) while GET still answers it; restore clears it within
 * 7 days; the purge job (jobs/) removes spaces deleted longer ago, and their
 * grants go with them through the foreign keys.
 */
#include "store/internal.h"
#include "util/util.h"

#include <string.h>

int store_fill_space(struct store_tx *tx, struct db_rows *r, int col, struct space *s)
{
	s->id = st_str(tx, r, col);
	s->org_id = st_str(tx, r, col + 1);
	s->parent_id = st_str(tx, r, col + 2);
	s->title = st_str(tx, r, col + 3);
	s->emoji = st_str(tx, r, col + 4);
	s->icon = st_str(tx, r, col + 5);
	s->visibility = st_str(tx, r, col + 6);
	s->edit_mode = st_str(tx, r, col + 7);
	s->language = st_str(tx, r, col + 8);
	s->default_level = (int)st_int(tx, r, col + 9);
	s->revision = st_str(tx, r, col + 10);
	s->merge_rules = st_str(tx, r, col + 11);
	s->position = st_int(tx, r, col + 12);
	s->created_at = st_int(tx, r, col + 13);
	s->updated_at = st_int(tx, r, col + 14);
	s->deleted_at = st_int(tx, r, col + 15);
	s->comments = st_int(tx, r, col + 16);
	s->change_requests = st_int(tx, r, col + 17);
	s->change_requests_open = st_int(tx, r, col + 18);
	s->change_requests_draft = st_int(tx, r, col + 19);
	s->git_sync = st_str(tx, r, col + 20);
	return 0;
}

static int fill_space(struct store_tx *tx, struct db_rows *r, void *out)
{
	return store_fill_space(tx, r, 0, out);
}

static int insert_space(struct store_tx *tx, const struct space *s)
{
	struct db_param p[] = {
		P_TEXT(s->id), P_TEXT(s->org_id), P_TEXT(s->parent_id), P_TEXT(s->title), P_TEXT(s->emoji),
		P_TEXT(s->icon), P_TEXT(s->visibility), P_TEXT(s->edit_mode), P_TEXT(s->language),
		P_INT(s->default_level), P_TEXT(s->revision), P_TEXT(s->merge_rules), P_INT(s->position),
		P_INT(s->created_at),
	};
	int rc = st_exec(tx,
			 "INSERT INTO spaces (id, org_id, parent_id, title, emoji, icon, visibility, edit_mode, language, "
			 "default_level, revision, merge_rules, position, created_at, updated_at) "
			 "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14)",
			 p, NP(p), NULL);

	return rc ? rc : store_org_bump(tx, s->org_id);
}

/* A new space's id and first revision id. */
static int new_ids(struct store_tx *tx, struct space *s)
{
	char id[ID_LEN + 1], rev[ID_LEN + 1];

	if (id_new(id) || id_new(rev))
		return err_set(ERR_INTERNAL, "getrandom failed");
	s->id = arena_strdup(tx->arena, id);
	s->revision = arena_strdup(tx->arena, rev);
	return 0;
}

int store_space_create(struct store_tx *tx, struct space *s)
{
	int rc;

	if ((rc = new_ids(tx, s)))
		return rc;
	s->created_at = s->updated_at = clock_now_ms();
	s->deleted_at = 0;
	if (!s->visibility)
		s->visibility = "private";
	if (!s->edit_mode)
		s->edit_mode = "live";
	if (!s->merge_rules)
		s->merge_rules = "{\"type\":\"inherit\"}";
	if ((rc = st_position_append(tx, s->org_id, s->parent_id, &s->position)) || (rc = insert_space(tx, s)))
		return rc;
	return st_revision_first(tx, s->id, s->revision, NULL);
}

int store_space_get(struct store_tx *tx, const char *id, struct space *out)
{
	struct db_param p[] = { P_TEXT(id) };
	int rc = st_one(tx, "SELECT " SPACE_COLS " FROM spaces s WHERE s.id = $1", p, NP(p), fill_space, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "space not found") : rc;
}

int store_space_get_locked(struct store_tx *tx, const char *id, struct space *out)
{
	struct db_param p[] = { P_TEXT(id) };
	int rc = st_one(tx, "SELECT " SPACE_COLS " FROM spaces s WHERE s.id = $1" DB_LOCK_ROW, p, NP(p), fill_space, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "space not found") : rc;
}

int store_space_update(struct store_tx *tx, const struct space *s)
{
	struct db_param p[] = {
		P_TEXT(s->id), P_TEXT(s->title), P_TEXT(s->emoji), P_TEXT(s->icon), P_TEXT(s->visibility),
		P_TEXT(s->edit_mode), P_TEXT(s->language), P_INT(s->default_level), P_TEXT(s->merge_rules),
		P_INT(clock_now_ms()),
	};
	int rc = st_exec(tx,
			 "UPDATE spaces SET title = $2, emoji = $3, icon = $4, visibility = $5, edit_mode = $6, "
			 "language = $7, default_level = $8, merge_rules = $9, updated_at = $10 WHERE id = $1",
			 p, NP(p), NULL);

	return rc ? rc : store_org_bump(tx, s->org_id);
}

int store_space_delete(struct store_tx *tx, const struct space *s, bool *deleted)
{
	struct db_param p[] = { P_TEXT(s->id), P_INT(clock_now_ms()) };
	int64_t changes = 0;
	int rc = st_exec(tx, "UPDATE spaces SET deleted_at = $2, updated_at = $2 WHERE id = $1 AND deleted_at IS NULL",
			 p, NP(p), &changes);

	*deleted = changes > 0;
	return rc || !*deleted ? rc : store_org_bump(tx, s->org_id);
}

int store_space_restore(struct store_tx *tx, const struct space *s)
{
	struct db_param p[] = { P_TEXT(s->id), P_INT(clock_now_ms()) };
	/* A space whose collection went while it was deleted comes back at the top,
	 * where "in-collection" visibility means nothing. */
	int rc = st_exec(tx,
			 "UPDATE spaces SET deleted_at = NULL, updated_at = $2, visibility = CASE WHEN parent_id IS NULL "
			 "AND visibility = 'in-collection' THEN 'private' ELSE visibility END WHERE id = $1",
			 p, NP(p), NULL);

	return rc ? rc : store_org_bump(tx, s->org_id);
}

int store_space_place(struct store_tx *tx, const struct space *s, const char *parent_id, int64_t position)
{
	struct db_param p[] = { P_TEXT(s->id), P_TEXT(parent_id), P_INT(position), P_INT(clock_now_ms()) };
	int rc = st_exec(tx,
			 "UPDATE spaces SET parent_id = $2, position = $3, updated_at = $4, visibility = CASE WHEN "
			 "CAST($2 AS TEXT) IS NULL AND visibility = 'in-collection' THEN 'private' ELSE visibility END "
			 "WHERE id = $1",
			 p, NP(p), NULL);

	return rc ? rc : store_org_bump(tx, s->org_id);
}

int store_space_transfer(struct store_tx *tx, const struct space *s, const char *org_id, const char *parent_id,
			 int64_t position)
{
	struct db_param p[] = { P_TEXT(s->id), P_TEXT(org_id) };
	int rc = st_exec(tx,
			 "DELETE FROM grants WHERE space_id = $1 AND (team_id IS NOT NULL OR NOT EXISTS "
			 "(SELECT 1 FROM members m WHERE m.org_id = $2 AND m.user_id = grants.user_id))",
			 p, NP(p), NULL);

	if (rc == 0)
		rc = st_exec(tx, "UPDATE spaces SET org_id = $2 WHERE id = $1", p, NP(p), NULL);
	if (rc == 0)
		rc = st_exec(tx, "UPDATE grants SET org_id = $2 WHERE space_id = $1", p, NP(p), NULL);
	if (rc == 0)
		rc = store_org_bump(tx, s->org_id);
	if (rc)
		return rc;
	struct space moved = *s;
	moved.org_id = org_id;
	return store_space_place(tx, &moved, parent_id, position);
}

int store_space_duplicate(struct store_tx *tx, const struct space *src, struct space *out)
{
	int rc;

	*out = *src;
	if ((rc = new_ids(tx, out)))
		return rc;
	out->created_at = out->updated_at = clock_now_ms();
	out->deleted_at = 0;
	out->comments = out->change_requests = out->change_requests_open = out->change_requests_draft = 0;
	out->git_sync = NULL; /* a copy is not linked to the repository */
	if ((rc = store_position_for(tx, src->org_id, src->parent_id, src->id, 1, NULL, &out->position, NULL)) ||
	    (rc = insert_space(tx, out)) || (rc = st_revision_first(tx, out->id, out->revision, src->revision)) ||
	    (rc = store_search_copy_space(tx, src->id, out->id)))
		return rc;
	struct db_param p[] = { P_TEXT(src->id), P_TEXT(out->id), P_INT(out->created_at) };
	return st_exec(tx,
		       "INSERT INTO grants (target_id, principal_id, org_id, space_id, collection_id, user_id, team_id, "
		       "role, created_at) SELECT $2, principal_id, org_id, $2, NULL, user_id, team_id, role, $3 "
		       "FROM grants WHERE space_id = $1",
		       p, NP(p), NULL);
}

int store_spaces_purge(struct store_tx *tx, int64_t cutoff, int64_t *removed)
{
	struct db_param p[] = { P_INT(cutoff) };

	*removed = 0;
	/* The organizations' generations first, while the rows still say which. */
	int rc = st_exec(tx,
			 "UPDATE orgs SET generation = generation + 1 WHERE id IN (SELECT org_id FROM spaces "
			 "WHERE deleted_at IS NOT NULL AND deleted_at < $1)",
			 p, NP(p), NULL);

	return rc ? rc : st_exec(tx, "DELETE FROM spaces WHERE deleted_at IS NOT NULL AND deleted_at < $1", p, NP(p), removed);
}

static void space_key_created(const void *item, int64_t *key, const char **id)
{
	const struct space *s = item;

	*key = s->created_at;
	*id = s->id;
}

static void space_key_position(const void *item, int64_t *key, const char **id)
{
	const struct space *s = item;

	*key = s->position;
	*id = s->id;
}

/* $1 org, $2 limit, $3/$4 cursor */
#define ORG_SPACES(cmp, dir) \
	"SELECT " SPACE_COLS " FROM spaces s WHERE s.org_id = $1 AND s.deleted_at IS NULL " cmp \
	"ORDER BY s.created_at " dir ", s.id " dir " LIMIT $2"

static const char *const org_spaces_sql[2][2] = {
	[0][0] = ORG_SPACES("", "ASC"),
	[0][1] = ORG_SPACES("AND (s.created_at, s.id) > ($3, $4) ", "ASC"),
	[1][0] = ORG_SPACES("", "DESC"),
	[1][1] = ORG_SPACES("AND (s.created_at, s.id) < ($3, $4) ", "DESC"),
};

/* $1 org, $2 limit, $3 collection, $4/$5 cursor */
#define COLLECTION_SPACES(cmp, dir) \
	"SELECT " SPACE_COLS " FROM spaces s WHERE s.org_id = $1 AND s.parent_id = $3 AND s.deleted_at IS NULL " cmp \
	"ORDER BY s.position " dir ", s.id " dir " LIMIT $2"

static const char *const collection_spaces_sql[2][2] = {
	[0][0] = COLLECTION_SPACES("", "ASC"),
	[0][1] = COLLECTION_SPACES("AND (s.position, s.id) > ($4, $5) ", "ASC"),
	[1][0] = COLLECTION_SPACES("", "DESC"),
	[1][1] = COLLECTION_SPACES("AND (s.position, s.id) < ($4, $5) ", "DESC"),
};

int store_spaces_list(struct store_tx *tx, enum space_scope scope, const char *org_id, const char *collection_id,
		      const struct list_req *lr, store_keep_fn keep, void *ctx, struct space **items, int *n,
		      char **next)
{
	/* The total: COUNT(*) when every row is kept (an admin), else the rows
	 * kept; either way cached against the generation (dom_list_counted). */
	if (scope == SPACES_IN_COLLECTION) {
		struct db_param p[5] = { P_TEXT(org_id), P_NULL, P_TEXT(collection_id) };
		int rc = st_list_keep(tx, collection_spaces_sql, p, NP(p), 1, lr, fill_space, sizeof(struct space),
				      space_key_position, keep, ctx, (void **)items, n, next);
		if (rc || !keep) {
			struct db_param c[] = { p[0], p[2] };
			return rc ? rc : st_total(tx, lr,
						  "SELECT COUNT(*) FROM spaces s WHERE s.org_id = $1 AND s.parent_id = $2 "
						  "AND s.deleted_at IS NULL",
						  c, NP(c));
		}
		return st_total_keep(tx, lr, collection_spaces_sql, p, NP(p), 1, fill_space, sizeof(struct space),
				     space_key_position, keep, ctx);
	}
	struct db_param p[4] = { P_TEXT(org_id) };
	int rc = st_list_keep(tx, org_spaces_sql, p, NP(p), 1, lr, fill_space, sizeof(struct space), space_key_created,
			      keep, ctx, (void **)items, n, next);
	if (rc || !keep)
		return rc ? rc : st_total(tx, lr, "SELECT COUNT(*) FROM spaces s WHERE s.org_id = $1 AND s.deleted_at IS NULL",
					  p, 1);
	return st_total_keep(tx, lr, org_spaces_sql, p, NP(p), 1, fill_space, sizeof(struct space), space_key_created,
			     keep, ctx);
}
