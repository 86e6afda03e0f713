/*
 * grants.c - roles granted on a space or collection to users and teams.
 *
 * A grant row names its target twice: target_id (the key, whatever the kind)
 * and space_id or collection_id (for the foreign key that removes the grant
 * with its target). Likewise principal_id and user_id or team_id. A user grant
 * needs the user to be a member of the organization (guests included).
 */
#include "store/internal.h"
#include "util/util.h"

#include <string.h>

int store_grant_set(struct store_tx *tx, const char *org_id, const char *space_id, const char *collection_id,
		    enum grant_kind kind, const char *principal_id, enum role role)
{
	struct db_param p[] = {
		P_TEXT(space_id ? space_id : collection_id), P_TEXT(principal_id), P_TEXT(org_id), P_TEXT(space_id),
		P_TEXT(collection_id), P_TEXT(kind == GRANT_USER ? principal_id : NULL),
		P_TEXT(kind == GRANT_TEAM ? principal_id : NULL), P_INT(role), P_INT(clock_now_ms()),
	};
	int rc = st_exec(tx,
			 "INSERT INTO grants (target_id, principal_id, org_id, space_id, collection_id, user_id, team_id, "
			 "role, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) "
			 "ON CONFLICT (target_id, principal_id) DO UPDATE SET role = excluded.role",
			 p, NP(p), NULL);

	return rc ? rc : store_org_bump(tx, org_id);
}

/* The kind is part of the key on the wire: a user path never reaches a team's grant. */
static const char *const grant_update_sql[2] = {
	[GRANT_USER] = "UPDATE grants SET role = $3 WHERE target_id = $1 AND principal_id = $2 AND user_id IS NOT NULL",
	[GRANT_TEAM] = "UPDATE grants SET role = $3 WHERE target_id = $1 AND principal_id = $2 AND team_id IS NOT NULL",
};
static const char *const grant_remove_sql[2] = {
	[GRANT_USER] = "DELETE FROM grants WHERE target_id = $1 AND principal_id = $2 AND user_id IS NOT NULL",
	[GRANT_TEAM] = "DELETE FROM grants WHERE target_id = $1 AND principal_id = $2 AND team_id IS NOT NULL",
};

int store_grant_update(struct store_tx *tx, const char *org_id, const char *target_id, enum grant_kind kind,
		       const char *principal_id, enum role role)
{
	struct db_param p[] = { P_TEXT(target_id), P_TEXT(principal_id), P_INT(role) };
	int64_t changes = 0;
	int rc = st_exec(tx, grant_update_sql[kind], p, NP(p), &changes);

	if (rc)
		return rc;
	if (changes == 0)
		return err_set(ERR_NOT_FOUND, "no such permission");
	return store_org_bump(tx, org_id);
}

int store_grant_remove(struct store_tx *tx, const char *org_id, const char *target_id, enum grant_kind kind,
		       const char *principal_id, bool *removed)
{
	struct db_param p[] = { P_TEXT(target_id), P_TEXT(principal_id) };
	int64_t changes = 0;
	int rc = st_exec(tx, grant_remove_sql[kind], p, NP(p), &changes);

	*removed = changes > 0;
	return rc || !*removed ? rc : store_org_bump(tx, org_id);
}

static int fill_user_grant(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct grant_row *g = out;

	g->role = (enum role)st_int(tx, r, 0);
	g->created_at = st_int(tx, r, 1);
	return store_fill_user(tx, r, 2, &g->user);
}

static int fill_team_grant(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct grant_row *g = out;

	g->role = (enum role)st_int(tx, r, 0);
	g->created_at = st_int(tx, r, 1);
	return store_fill_team(tx, r, 2, &g->team);
}

/* $1 target, $2 limit, $3/$4 cursor */
#define USER_GRANTS(cmp) \
	"SELECT g.role, g.created_at, u.id, u.email, u.display_name, u.photo_url, u.created_at " \
	"FROM grants g JOIN users u ON u.id = g.user_id WHERE g.target_id = $1 " cmp \
	"ORDER BY g.created_at, g.principal_id LIMIT $2"
#define TEAM_GRANTS(cmp) \
	"SELECT g.role, g.created_at, " TEAM_COLS " FROM grants g JOIN teams t ON t.id = g.team_id " \
	"WHERE g.target_id = $1 " cmp "ORDER BY g.created_at, g.principal_id LIMIT $2"
#define AFTER "AND (g.created_at, g.principal_id) > ($3, $4) "

/* The totals: $1 target. */
static const char *const grants_count_sql[2] = {
	[GRANT_USER] = "SELECT COUNT(*) FROM grants g JOIN users u ON u.id = g.user_id WHERE g.target_id = $1",
	[GRANT_TEAM] = "SELECT COUNT(*) FROM grants g JOIN teams t ON t.id = g.team_id WHERE g.target_id = $1",
};

static const char *const grants_sql[2][2] = {
	[GRANT_USER] = { USER_GRANTS(""), USER_GRANTS(AFTER) },
	[GRANT_TEAM] = { TEAM_GRANTS(""), TEAM_GRANTS(AFTER) },
};

static void grant_key(const void *item, int64_t *key, const char **id)
{
	const struct grant_row *g = item;

	*key = g->created_at;
	*id = g->user.id ? g->user.id : g->team.id;
}

int store_grants_list(struct store_tx *tx, const char *target_id, enum grant_kind kind, const struct list_req *lr,
		      struct grant_row **items, int *n, char **next)
{
	struct db_param p[4] = { P_TEXT(target_id) };
	/* One order only (oldest grant first): both rows of the table are ascending. */
	const char *const sql[2][2] = {
		{ grants_sql[kind][0], grants_sql[kind][1] },
		{ grants_sql[kind][0], grants_sql[kind][1] },
	};

	int rc = st_list_keep(tx, sql, p, NP(p), 1, lr, kind == GRANT_USER ? fill_user_grant : fill_team_grant,
			      sizeof(struct grant_row), grant_key, NULL, NULL, (void **)items, n, next);

	return rc ? rc : st_total(tx, lr, grants_count_sql[kind], p, 1);
}
