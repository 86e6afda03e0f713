/*
 * sessions.c - SQL of the web interface's passwords, sessions and sign-in
 * attempts (store/sessions.h).
 */
#include "store/internal.h"
#include "store/sessions.h"

static int fill_str(struct store_tx *tx, struct db_rows *r, void *out)
{
	*(const char **)out = st_str(tx, r, 0);
	return 0;
}

int store_password_get(struct store_tx *tx, const char *user_id, const char **hash_out)
{
	struct db_param p[] = { P_TEXT(user_id) };

	return st_one(tx, "SELECT hash FROM user_passwords WHERE user_id = $1", p, NP(p), fill_str, hash_out);
}

int store_password_set(struct store_tx *tx, const char *user_id, const char *hash, int64_t now)
{
	struct db_param p[] = { P_TEXT(user_id), P_TEXT(hash), P_INT(now) };
	struct db_param q[] = { P_TEXT(user_id) };
	int rc = st_exec(tx,
			 "INSERT INTO user_passwords (user_id, hash, updated_at) VALUES ($1, $2, $3) "
			 "ON CONFLICT (user_id) DO UPDATE SET hash = excluded.hash, updated_at = excluded.updated_at",
			 p, NP(p), NULL);

	return rc ? rc : st_exec(tx, "DELETE FROM sessions WHERE user_id = $1", q, NP(q), NULL);
}

int store_session_create(struct store_tx *tx, const char *id, const char *user_id, const char *csrf, bool in_org,
			 int64_t now, int64_t expires_at)
{
	struct db_param d[] = { P_INT(now) };
	struct db_param p[] = { P_TEXT(id), P_TEXT(user_id), P_TEXT(csrf), P_INT(in_org ? 1 : 0), P_INT(now),
				P_INT(expires_at) };
	/* Every expired session goes (the index on expires_at finds them). */
	int rc = st_exec(tx, "DELETE FROM sessions WHERE expires_at <= $1", d, NP(d), NULL);

	return rc ? rc : st_exec(tx,
				 "INSERT INTO sessions (id, user_id, csrf, in_org, created_at, expires_at, last_seen_at) "
				 "VALUES ($1, $2, $3, $4, $5, $6, $5)",
				 p, NP(p), NULL);
}

static int fill_session(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct store_session *s = out;

	s->user_id = st_str(tx, r, 0);
	s->csrf = st_str(tx, r, 1);
	s->created_at = st_int(tx, r, 2);
	s->expires_at = st_int(tx, r, 3);
	return 0;
}

int store_session_get(struct store_tx *tx, const char *id, int64_t now, struct store_session *out)
{
	struct db_param p[] = { P_TEXT(id), P_INT(now) };

	/* The join on users: a deleted user's sessions end with them (the
	 * foreign key removes the rows too; this also covers a store where the
	 * cascade has not run yet in this transaction). */
	return st_one(tx,
		      "SELECT s.user_id, s.csrf, s.created_at, s.expires_at FROM sessions s JOIN users u ON u.id = s.user_id "
		      "WHERE s.id = $1 AND s.expires_at > $2 "
		      "AND (s.in_org = 0 OR EXISTS (SELECT 1 FROM members m WHERE m.user_id = s.user_id))",
		      p, NP(p), fill_session, out);
}

int store_session_delete(struct store_tx *tx, const char *id)
{
	struct db_param p[] = { P_TEXT(id) };

	return st_exec(tx, "DELETE FROM sessions WHERE id = $1", p, NP(p), NULL);
}

int store_user_in_org(struct store_tx *tx, const char *user_id, bool *out)
{
	struct db_param p[] = { P_TEXT(user_id) };
	int rc = st_one(tx, "SELECT 1 FROM members WHERE user_id = $1 LIMIT 1", p, NP(p), NULL, NULL);

	*out = rc == 0;
	return rc == ERR_NOT_FOUND ? 0 : rc;
}

static int fill_throttle(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct store_throttle *t = out;

	t->bucket = st_str(tx, r, 0);
	t->failures = st_int(tx, r, 1);
	t->last_at = st_int(tx, r, 2);
	return 0;
}

int store_signin_throttle_get(struct store_tx *tx, const char *a, const char *b, const char *c, int64_t since,
			      struct store_throttle **out, int *n)
{
	struct db_param p[] = { P_TEXT(a), P_TEXT(b), P_TEXT(c), P_INT(since) };

	/* Three primary-key seeks; a row older than `since` is forgotten. */
	return st_all(tx,
		      "SELECT bucket, failures, last_at FROM signin_throttle WHERE bucket IN ($1, $2, $3) AND last_at > $4",
		      p, NP(p), fill_throttle, sizeof(**out), (void **)out, n);
}

int store_signin_throttle_fail(struct store_tx *tx, const char *bucket, int64_t now, int64_t forget_before)
{
	struct db_param p[] = { P_TEXT(bucket), P_INT(now), P_INT(forget_before) };

	/* One statement: on PostgreSQL the upsert locks the row it increments,
	 * so concurrent failures from several processes all count. A row last
	 * failed before forget_before starts again at 1. */
	return st_exec(tx,
		       "INSERT INTO signin_throttle (bucket, failures, last_at) VALUES ($1, 1, $2) "
		       "ON CONFLICT (bucket) DO UPDATE SET failures = CASE WHEN signin_throttle.last_at <= $3 THEN 1 "
		       "ELSE signin_throttle.failures + 1 END, last_at = excluded.last_at",
		       p, NP(p), NULL);
}

int store_signin_throttle_clear(struct store_tx *tx, const char *bucket)
{
	struct db_param p[] = { P_TEXT(bucket) };

	return st_exec(tx, "DELETE FROM signin_throttle WHERE bucket = $1", p, NP(p), NULL);
}

int store_signin_throttle_expire(struct store_tx *tx, int64_t before)
{
	struct db_param p[] = { P_INT(before) };

	return st_exec(tx, "DELETE FROM signin_throttle WHERE last_at <= $1", p, NP(p), NULL);
}
