/*
 * teams.c - teams and team memberships.
 *
 * Invariant: a team membership's (org_id, user_id) is an organization member
 * (foreign key), so removing a member removes their team memberships and a
 * team's member count only ever counts organization members.
 *
 * Invariant: members.teams is the number of team_members rows of that member.
 * Every statement here that adds or removes team_members rows recounts it in
 * the same transaction (the member list reads it from its covering index
 * instead of counting per row). On PostgreSQL the member's row is locked
 * first (DB_LOCK_ROW), in a statement of its own: changes to one member's
 * teams then take turns, and each counts in a statement that sees the rows
 * the one before committed; a removal counts off only the rows its own DELETE
 * removed. Rows are locked members first, then team_members, the order of a
 * member's removal (whose DELETE cascades to their team memberships).
 */
#include "store/internal.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

/* Lock the member rows of org_id that the query selects ($1 org, $2 the
 * query's parameter), in user id order. */
static int lock_members(struct store_tx *tx, const char *sql, const char *org_id, const char *arg)
{
	struct db_param p[] = { P_TEXT(org_id), P_TEXT(arg) };

	return st_exec(tx, sql, p, NP(p), NULL);
}

static const char lock_member_sql[] =
	"SELECT user_id FROM members WHERE org_id = $1 AND user_id = $2" DB_LOCK_ROW;

int store_fill_team(struct store_tx *tx, struct db_rows *r, int col, struct team *t)
{
	t->id = st_str(tx, r, col);
	t->org_id = st_str(tx, r, col + 1);
	t->title = st_str(tx, r, col + 2);
	t->created_at = st_int(tx, r, col + 3);
	t->members = st_int(tx, r, col + 4);
	t->spaces = st_int(tx, r, col + 5); /* spaces granted to the team */
	return 0;
}

static int fill_team(struct store_tx *tx, struct db_rows *r, void *out)
{
	return store_fill_team(tx, r, 0, out);
}

int store_team_create(struct store_tx *tx, struct team *team)
{
	char id[ID_LEN + 1];
	int rc;

	if (id_new(id))
		return err_set(ERR_INTERNAL, "getrandom failed");
	team->id = arena_strdup(tx->arena, id);
	team->created_at = clock_now_ms();
	team->members = 0;
	team->spaces = 0;
	struct db_param p[] = { P_TEXT(team->id), P_TEXT(team->org_id), P_TEXT(team->title), P_INT(team->created_at) };
	rc = st_exec(tx, "INSERT INTO teams (id, org_id, title, created_at) VALUES ($1, $2, $3, $4)", p, NP(p), NULL);
	return rc;
}

int store_team_get(struct store_tx *tx, const char *org_id, const char *team_id, struct team *out)
{
	struct db_param p[] = { P_TEXT(org_id), P_TEXT(team_id) };
	int rc = st_one(tx, "SELECT " TEAM_COLS " FROM teams t WHERE t.org_id = $1 AND t.id = $2", p, NP(p), fill_team, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "team not found") : rc;
}

int store_team_rename(struct store_tx *tx, const char *org_id, const char *team_id, const char *title)
{
	struct db_param p[] = { P_TEXT(org_id), P_TEXT(team_id), P_TEXT(title) };
	int64_t changes = 0;
	int rc = st_exec(tx, "UPDATE teams SET title = $3 WHERE org_id = $1 AND id = $2", p, NP(p), &changes);

	if (rc == 0 && changes == 0)
		return err_set(ERR_NOT_FOUND, "team not found");
	return rc;
}

/* Under the member's lock (lock_member_sql). */
static int recount_member_teams(struct store_tx *tx, const char *org_id, const char *user_id)
{
	struct db_param p[] = { P_TEXT(org_id), P_TEXT(user_id) };

	return st_exec(tx,
		       "UPDATE members SET teams = (SELECT COUNT(*) FROM team_members tm "
		       "WHERE tm.org_id = $1 AND tm.user_id = $2) WHERE org_id = $1 AND user_id = $2",
		       p, NP(p), NULL);
}

static int fill_user_id(struct store_tx *tx, struct db_rows *r, void *out)
{
	*(const char **)out = st_str(tx, r, 0);
	return 0;
}

static int id_sort(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int store_team_delete(struct store_tx *tx, const char *org_id, const char *team_id, bool *removed)
{
	struct db_param p[] = { P_TEXT(org_id), P_TEXT(team_id) };
	const char **gone = NULL;
	int64_t changes = 0;
	int n = 0;
	int rc = lock_members(tx,
			      "SELECT user_id FROM members WHERE org_id = $1 AND user_id IN "
			      "(SELECT user_id FROM team_members WHERE org_id = $1 AND team_id = $2) ORDER BY user_id"
			      DB_LOCK_ROW,
			      org_id, team_id);

	/* Count off exactly the memberships this DELETE removed (a member
	 * added meanwhile included), members in id order. */
	if (rc == 0)
		rc = st_all(tx, "DELETE FROM team_members WHERE org_id = $1 AND team_id = $2 RETURNING user_id", p, NP(p),
			    fill_user_id, sizeof(*gone), (void **)&gone, &n);
	if (rc == 0 && n > 1)
		qsort(gone, (size_t)n, sizeof(*gone), id_sort);
	for (int i = 0; i < n && rc == 0; i++) {
		struct db_param q[] = { P_TEXT(org_id), P_TEXT(gone[i]) };
		rc = st_exec(tx, "UPDATE members SET teams = teams - 1 WHERE org_id = $1 AND user_id = $2", q, NP(q),
			     NULL);
	}
	if (rc == 0)
		rc = st_exec(tx, "DELETE FROM teams WHERE org_id = $1 AND id = $2", p, NP(p), &changes);
	*removed = changes > 0;
	return rc || !*removed ? rc : store_org_bump(tx, org_id);
}

/* $1 org, $2 limit, $3 title LIKE pattern, $4 owner user id, $5/$6 cursor; the
 * total: $1 org, $2 pattern, $3 owner. */
#define TEAM_WHERE(like, owner) "WHERE t.org_id = $1 " \
	"AND (CAST(" like " AS TEXT) IS NULL OR lower(t.title) LIKE " like " ESCAPE '\\') " \
	"AND (CAST(" owner " AS TEXT) IS NULL " \
	"  OR EXISTS (SELECT 1 FROM members am WHERE am.org_id = t.org_id AND am.user_id = " owner " " \
	"AND am.role = 'admin') " \
	"  OR EXISTS (SELECT 1 FROM team_members ow WHERE ow.team_id = t.id AND ow.user_id = " owner " " \
	"AND ow.role = 'owner')) "
#define TEAM_LIST(cmp, dir) \
	"SELECT " TEAM_COLS " FROM teams t " TEAM_WHERE("$3", "$4") cmp "ORDER BY t.created_at " dir ", t.id " dir \
	" LIMIT $2"

static const char *const team_list_sql[2][2] = {
	[0][0] = TEAM_LIST("", "ASC"),
	[0][1] = TEAM_LIST("AND (t.created_at, t.id) > ($5, $6) ", "ASC"),
	[1][0] = TEAM_LIST("", "DESC"),
	[1][1] = TEAM_LIST("AND (t.created_at, t.id) < ($5, $6) ", "DESC"),
};

int store_teams_list(struct store_tx *tx, const char *org_id, const struct team_filter *f,
		     const struct list_req *lr, struct team **items, int *n, char **next)
{
	struct db_param p[6];
	const char *like = NULL;
	int more, rc;

	if (f->title && *f->title)
		like = st_like_pattern(tx, f->title);
	p[0] = P_TEXT(org_id);
	p[1] = P_INT(lr->limit + 1);
	p[2] = P_TEXT(like);
	p[3] = P_TEXT(f->owner);
	rc = st_cursor_int_param(lr, &p[4], &p[5]);
	if (rc)
		return rc;
	rc = st_list(tx, team_list_sql[lr->desc != 0][lr->after != NULL], p, NP(p), lr->limit, fill_team,
		     sizeof(struct team), (void **)items, n, &more);
	if (rc)
		return rc;
	{
		struct db_param c[] = { p[0], p[2], p[3] };
		if ((rc = st_total(tx, lr, "SELECT COUNT(*) FROM teams t " TEAM_WHERE("$2", "$3"), c, NP(c))))
			return rc;
	}
	*next = NULL;
	if (more && *n > 0 && !(*next = cursor_encode_int(tx->arena, (*items)[*n - 1].created_at, (*items)[*n - 1].id)))
		return err_set(ERR_INTERNAL, "cannot encode the page cursor");
	return 0;
}

int store_team_member_set(struct store_tx *tx, const char *team_id, const char *org_id, const char *user_id, enum team_role role)
{
	struct db_param p[] = { P_TEXT(team_id), P_TEXT(org_id), P_TEXT(user_id),
				P_TEXT(role == TEAM_OWNER ? "owner" : "member"), P_INT(clock_now_ms()) };

	int rc = lock_members(tx, lock_member_sql, org_id, user_id);

	if (rc == 0)
		rc = st_exec(tx,
			     "INSERT INTO team_members (team_id, org_id, user_id, role, added_at) VALUES ($1, $2, $3, $4, $5) "
			     "ON CONFLICT (team_id, user_id) DO UPDATE SET role = excluded.role",
			     p, NP(p), NULL);
	if (rc == 0)
		rc = recount_member_teams(tx, org_id, user_id);
	return rc ? rc : store_org_bump(tx, org_id);
}

int store_team_member_remove(struct store_tx *tx, const char *team_id, const char *user_id, bool *removed)
{
	struct db_param p[] = { P_TEXT(team_id), P_TEXT(user_id) };
	int64_t changes = 0;
	/* The member's row first ($1 is the team here: its organization's member). */
	int rc = st_exec(tx,
			 "SELECT user_id FROM members WHERE user_id = $2 AND org_id = "
			 "(SELECT org_id FROM teams WHERE id = $1)" DB_LOCK_ROW,
			 p, NP(p), NULL);

	if (rc == 0)
		rc = st_exec(tx, "DELETE FROM team_members WHERE team_id = $1 AND user_id = $2", p, NP(p), &changes);
	*removed = changes > 0;
	if (rc || !*removed)
		return rc;
	rc = st_exec(tx,
		     "UPDATE members SET teams = teams - 1 WHERE user_id = $2 AND org_id = "
		     "(SELECT org_id FROM teams WHERE id = $1)",
		     p, NP(p), NULL);
	if (rc)
		return rc;
	return st_exec(tx, "UPDATE orgs SET generation = generation + 1 WHERE id = (SELECT org_id FROM teams WHERE id = $1)",
		       p, 1, NULL);
}

static int fill_team_role(struct store_tx *tx, struct db_rows *r, void *out)
{
	const char *s = tx->drv->text(r, 0);

	*(int *)out = s && s[0] == 'o' ? TEAM_OWNER : TEAM_MEMBER;
	return 0;
}

int store_team_member_role(struct store_tx *tx, const char *team_id, const char *user_id, int *role_out)
{
	struct db_param p[] = { P_TEXT(team_id), P_TEXT(user_id) };
	int rc = st_one(tx, "SELECT role FROM team_members WHERE team_id = $1 AND user_id = $2", p, NP(p), fill_team_role, role_out);

	if (rc == ERR_NOT_FOUND) {
		*role_out = -1;
		return 0;
	}
	return rc;
}

static int fill_team_member_row(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct team_member_row *row = out;
	const char *role = tx->drv->text(r, MEMBER_NCOLS);
	int rc = store_fill_member(tx, r, 0, &row->member);

	row->team_role = role && role[0] == 'o' ? TEAM_OWNER : TEAM_MEMBER;
	row->added_at = st_int(tx, r, MEMBER_NCOLS + 1);
	return rc;
}

#define TEAM_MEMBERS_LIST(cmp) \
	"SELECT " MEMBER_COLS ", tm.role, tm.added_at FROM team_members tm " \
	"JOIN members m ON m.org_id = tm.org_id AND m.user_id = tm.user_id JOIN users u ON u.id = m.user_id " \
	"WHERE tm.org_id = $1 AND tm.team_id = $3 " cmp "ORDER BY tm.added_at, tm.user_id LIMIT $2"

int store_team_members_list(struct store_tx *tx, const char *org_id, const char *team_id,
			    const struct list_req *lr, struct team_member_row **items, int *n, char **next)
{
	static const char *const sql[2] = {
		TEAM_MEMBERS_LIST(""),
		TEAM_MEMBERS_LIST("AND (tm.added_at, tm.user_id) > ($4, $5) "),
	};
	struct db_param p[5];
	int more, rc;

	p[0] = P_TEXT(org_id);
	p[1] = P_INT(lr->limit + 1);
	p[2] = P_TEXT(team_id);
	rc = st_cursor_int_param(lr, &p[3], &p[4]);
	if (rc)
		return rc;
	rc = st_list(tx, sql[lr->after != NULL], p, NP(p), lr->limit, fill_team_member_row,
		     sizeof(struct team_member_row), (void **)items, n, &more);
	if (rc)
		return rc;
	{
		struct db_param c[] = { p[0], p[2] };
		if ((rc = st_total(tx, lr, "SELECT COUNT(*) FROM team_members tm WHERE tm.org_id = $1 AND tm.team_id = $2", c,
				   NP(c))))
			return rc;
	}
	*next = NULL;
	if (more && *n > 0 &&
	    !(*next = cursor_encode_int(tx->arena, (*items)[*n - 1].added_at, (*items)[*n - 1].member.user.id)))
		return err_set(ERR_INTERNAL, "cannot encode the page cursor");
	return 0;
}

static int fill_member_team_row(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct member_team_row *row = out;
	const char *role = tx->drv->text(r, TEAM_NCOLS);

	row->team_role = role && role[0] == 'o' ? TEAM_OWNER : TEAM_MEMBER;
	return store_fill_team(tx, r, 0, &row->team);
}

#define MEMBER_TEAMS_LIST(cmp) \
	"SELECT " TEAM_COLS ", tm.role FROM team_members tm JOIN teams t ON t.id = tm.team_id " \
	"WHERE tm.org_id = $1 AND tm.user_id = $3 AND (CAST($4 AS TEXT) IS NULL OR lower(t.title) LIKE $4 ESCAPE '\\') " \
	cmp "ORDER BY t.created_at, t.id LIMIT $2"

int store_member_teams_list(struct store_tx *tx, const char *org_id, const char *user_id, const char *title,
			    const struct list_req *lr, struct member_team_row **items, int *n, char **next)
{
	static const char *const sql[2] = {
		MEMBER_TEAMS_LIST(""),
		MEMBER_TEAMS_LIST("AND (t.created_at, t.id) > ($5, $6) "),
	};
	struct db_param p[6];
	const char *like = NULL;
	int more, rc;

	if (title && *title)
		like = st_like_pattern(tx, title);
	p[0] = P_TEXT(org_id);
	p[1] = P_INT(lr->limit + 1);
	p[2] = P_TEXT(user_id);
	p[3] = P_TEXT(like);
	rc = st_cursor_int_param(lr, &p[4], &p[5]);
	if (rc)
		return rc;
	rc = st_list(tx, sql[lr->after != NULL], p, NP(p), lr->limit, fill_member_team_row,
		     sizeof(struct member_team_row), (void **)items, n, &more);
	if (rc)
		return rc;
	{
		struct db_param c[] = { p[0], p[2], p[3] };
		if ((rc = st_total(tx, lr,
				   "SELECT COUNT(*) FROM team_members tm JOIN teams t ON t.id = tm.team_id "
				   "WHERE tm.org_id = $1 AND tm.user_id = $2 "
				   "AND (CAST($3 AS TEXT) IS NULL OR lower(t.title) LIKE $3 ESCAPE '\\')",
				   c, NP(c))))
			return rc;
	}
	*next = NULL;
	if (more && *n > 0 &&
	    !(*next = cursor_encode_int(tx->arena, (*items)[*n - 1].team.created_at, (*items)[*n - 1].team.id)))
		return err_set(ERR_INTERNAL, "cannot encode the page cursor");
	return 0;
}
