/*
 * members.c - organization memberships.
 *
 * A member row is (org, user, role). role NULL is a guest. Team memberships
 * reference the member row and go with it.
 */
#include "store/internal.h"
#include "util/util.h"


int store_fill_member(struct store_tx *tx, struct db_rows *r, int col, struct member *m)
{
	int rc = store_fill_user(tx, r, col, &m->user);

	if (rc)
		return rc;
	m->role = role_parse(tx->drv->text(r, col + 5));
	if (m->role == ROLE_NONE)
		m->role = ROLE_GUEST;
	m->disabled = (int)st_int(tx, r, col + 6);
	m->sso = (int)st_int(tx, r, col + 7);
	m->joined_at = st_int(tx, r, col + 8);
	m->last_seen_at = st_int(tx, r, col + 9);
	m->teams = st_int(tx, r, col + 10);
	m->spaces = st_int(tx, r, col + 11); /* spaces granted to the member directly */
	return 0;
}

static int fill_member(struct store_tx *tx, struct db_rows *r, void *out)
{
	return store_fill_member(tx, r, 0, out);
}

int store_member_get(struct store_tx *tx, const char *org_id, const char *user_id, struct member *out)
{
	struct db_param p[] = { P_TEXT(org_id), P_TEXT(user_id) };
	int rc = st_one(tx, "SELECT " MEMBER_COLS MEMBER_FROM "WHERE m.org_id = $1 AND m.user_id = $2",
			p, NP(p), fill_member, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "member not found") : rc;
}

/* $1 org, $2 limit, $3 role filter ('guest' = NULL role), $4 LIKE pattern, $5/$6 cursor.
 * The total: the same filters as $1, $2, $3. */
#define MEMBER_WHERE(role, like) "WHERE m.org_id = $1 " \
	"AND (CAST(" role " AS TEXT) IS NULL OR (" role " = 'guest' AND m.role IS NULL) OR m.role = " role ") " \
	"AND (CAST(" like " AS TEXT) IS NULL OR lower(u.display_name) LIKE " like " ESCAPE '\\' " \
	"OR u.email LIKE " like " ESCAPE '\\') "
#define MEMBER_LIST(col, seen, cmp, dir) \
	"SELECT " MEMBER_COLS MEMBER_FROM MEMBER_WHERE("$3", "$4") seen cmp "ORDER BY " col " " dir ", m.user_id " dir \
	" LIMIT $2"
#define SEEN "AND m.last_seen_at IS NOT NULL "

static const char *const member_list_sql[2][2][2] = {
	/* [by_last_seen][desc][has_cursor] */
	[0][0][0] = MEMBER_LIST("m.joined_at", "", "", "ASC"),
	[0][0][1] = MEMBER_LIST("m.joined_at", "", "AND (m.joined_at, m.user_id) > ($5, $6) ", "ASC"),
	[0][1][0] = MEMBER_LIST("m.joined_at", "", "", "DESC"),
	[0][1][1] = MEMBER_LIST("m.joined_at", "", "AND (m.joined_at, m.user_id) < ($5, $6) ", "DESC"),
	[1][0][0] = MEMBER_LIST("m.last_seen_at", SEEN, "", "ASC"),
	[1][0][1] = MEMBER_LIST("m.last_seen_at", SEEN, "AND (m.last_seen_at, m.user_id) > ($5, $6) ", "ASC"),
	[1][1][0] = MEMBER_LIST("m.last_seen_at", SEEN, "", "DESC"),
	[1][1][1] = MEMBER_LIST("m.last_seen_at", SEEN, "AND (m.last_seen_at, m.user_id) < ($5, $6) ", "DESC"),
};

static const char *const member_count_sql[2] = {
	"SELECT COUNT(*)" MEMBER_FROM MEMBER_WHERE("$2", "$3"),
	"SELECT COUNT(*)" MEMBER_FROM MEMBER_WHERE("$2", "$3") SEEN,
};

int store_members_list(struct store_tx *tx, const char *org_id, const struct member_filter *f,
		       const struct list_req *lr, struct member **items, int *n, char **next)
{
	struct db_param p[6];
	const char *like = NULL;
	int more, rc;

	if (f->search && *f->search)
		like = st_like_pattern(tx, f->search);
	p[0] = P_TEXT(org_id);
	p[1] = P_INT(lr->limit + 1);
	p[2] = P_TEXT(f->role);
	p[3] = P_TEXT(like);
	rc = st_cursor_int_param(lr, &p[4], &p[5]);
	if (rc)
		return rc;
	rc = st_list(tx, member_list_sql[f->by_last_seen != 0][lr->desc != 0][lr->after != NULL], p, NP(p),
		     lr->limit, fill_member, sizeof(struct member), (void **)items, n, &more);
	if (rc)
		return rc;
	{
		struct db_param c[] = { p[0], p[2], p[3] };
		if ((rc = st_total(tx, lr, member_count_sql[f->by_last_seen != 0], c, NP(c))))
			return rc;
	}
	*next = NULL;
	if (more && *n > 0) {
		const struct member *last = &(*items)[*n - 1];
		*next = cursor_encode_int(tx->arena, f->by_last_seen ? last->last_seen_at : last->joined_at, last->user.id);
		if (!*next)
			return err_set(ERR_INTERNAL, "cannot encode the page cursor");
	}
	return 0;
}

int store_member_add(struct store_tx *tx, const char *org_id, const char *user_id, enum role role, int sso, bool *added)
{
	struct db_param p[] = { P_TEXT(org_id), P_TEXT(user_id), P_TEXT(role_name(role)), P_BOOL(sso), P_INT(clock_now_ms()) };
	int64_t changes = 0;
	int rc = st_exec(tx,
			 "INSERT INTO members (org_id, user_id, role, sso, joined_at) VALUES ($1, $2, $3, $4, $5) "
			 "ON CONFLICT (org_id, user_id) DO NOTHING",
			 p, NP(p), &changes);

	*added = changes > 0;
	return rc || !*added ? rc : store_org_bump(tx, org_id);
}

/* p[0] is the organization id in every member update. */
static int member_update(struct store_tx *tx, const char *sql, const struct db_param *p, int np)
{
	int64_t changes = 0;
	int rc = st_exec(tx, sql, p, np, &changes);

	if (rc == 0 && changes == 0)
		return err_set(ERR_NOT_FOUND, "member not found");
	return rc ? rc : store_org_bump(tx, p[0].s);
}

int store_member_set_role(struct store_tx *tx, const char *org_id, const char *user_id, enum role role)
{
	struct db_param p[] = { P_TEXT(org_id), P_TEXT(user_id), P_TEXT(role_name(role)) };

	return member_update(tx, "UPDATE members SET role = $3 WHERE org_id = $1 AND user_id = $2", p, NP(p));
}

int store_member_set_sso(struct store_tx *tx, const char *org_id, const char *user_id)
{
	struct db_param p[] = { P_TEXT(org_id), P_TEXT(user_id) };

	return member_update(tx, "UPDATE members SET sso = 1 WHERE org_id = $1 AND user_id = $2", p, NP(p));
}

int store_member_touch(struct store_tx *tx, const char *org_id, const char *user_id, int64_t now)
{
	struct db_param p[] = { P_TEXT(org_id), P_TEXT(user_id), P_INT(now) };

	return member_update(tx, "UPDATE members SET last_seen_at = $3 WHERE org_id = $1 AND user_id = $2", p, NP(p));
}

int store_member_remove(struct store_tx *tx, const char *org_id, const char *user_id, bool *removed)
{
	struct db_param p[] = { P_TEXT(org_id), P_TEXT(user_id) };
	int64_t changes = 0;
	int rc = st_exec(tx, "DELETE FROM team_members WHERE org_id = $1 AND user_id = $2", p, NP(p), NULL);

	if (rc == 0)
		rc = st_exec(tx, "DELETE FROM members WHERE org_id = $1 AND user_id = $2", p, NP(p), &changes);
	*removed = changes > 0;
	return rc || !*removed ? rc : store_org_bump(tx, org_id);
}

static int fill_count(struct store_tx *tx, struct db_rows *r, void *out)
{
	*(int64_t *)out = st_int(tx, r, 0);
	return 0;
}

int store_admin_count(struct store_tx *tx, const char *org_id, int64_t *out)
{
	struct db_param p[] = { P_TEXT(org_id) };

	return st_one(tx, "SELECT COUNT(*) FROM members WHERE org_id = $1 AND role = 'admin'", p, 1, fill_count, out);
}
