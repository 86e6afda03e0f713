/*
 * users.c - users and API tokens.
 */
#include "store/internal.h"
#include "util/util.h"

#include <ctype.h>
#include <string.h>

#define USER_COLS "id, email, display_name, photo_url, created_at"

int store_fill_user(struct store_tx *tx, struct db_rows *r, int col, struct user *u)
{
	u->id = st_str(tx, r, col);
	u->email = st_str(tx, r, col + 1);
	u->display_name = st_str(tx, r, col + 2);
	u->photo_url = st_str(tx, r, col + 3);
	u->created_at = st_int(tx, r, col + 4);
	return 0;
}

static int fill_user(struct store_tx *tx, struct db_rows *r, void *out)
{
	return store_fill_user(tx, r, 0, out);
}

int store_user_create(struct store_tx *tx, const char *email, const char *display_name, struct user *out)
{
	char id[ID_LEN + 1];
	int64_t now = clock_now_ms();
	char *lower = arena_strdup(tx->arena, email);
	int rc;

	if (id_new(id))
		return err_set(ERR_INTERNAL, "cannot allocate user");
	for (char *c = lower; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	struct db_param p[] = { P_TEXT(id), P_TEXT(lower), P_TEXT(display_name), P_INT(now) };
	rc = st_exec(tx, "INSERT INTO users (id, email, display_name, created_at) VALUES ($1, $2, $3, $4)", p, NP(p), NULL);
	if (rc == ERR_CONFLICT)
		return err_set(ERR_CONFLICT, "a user with email '%s' already exists", email);
	if (rc)
		return rc;
	out->id = arena_strdup(tx->arena, id);
	out->email = lower;
	out->display_name = arena_strdup(tx->arena, display_name);
	out->photo_url = NULL;
	out->created_at = now;
	return 0;
}

int store_user_get(struct store_tx *tx, const char *id, struct user *out)
{
	struct db_param p[] = { P_TEXT(id) };
	int rc = st_one(tx, "SELECT " USER_COLS " FROM users WHERE id = $1", p, 1, fill_user, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "user not found") : rc;
}

int store_user_get_by_email(struct store_tx *tx, const char *email, struct user *out)
{
	char *lower = arena_strdup(tx->arena, email);
	int rc;

	for (char *c = lower; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	struct db_param p[] = { P_TEXT(lower) };
	rc = st_one(tx, "SELECT " USER_COLS " FROM users WHERE email = $1", p, 1, fill_user, out);
	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "no user with email '%s'", email) : rc;
}

int store_token_create(struct store_tx *tx, const char *user_id, const char *token_hash)
{
	struct db_param p[] = { P_TEXT(token_hash), P_TEXT(user_id), P_INT(clock_now_ms()) };

	return st_exec(tx, "INSERT INTO tokens (hash, user_id, created_at) VALUES ($1, $2, $3)", p, NP(p), NULL);
}

static int fill_str0(struct store_tx *tx, struct db_rows *r, void *out)
{
	*(const char **)out = st_str(tx, r, 0);
	return 0;
}

int store_token_user(struct store_tx *tx, const char *token_hash, const char **user_id_out)
{
	struct db_param p[] = { P_TEXT(token_hash) };

	return st_one(tx, "SELECT user_id FROM tokens WHERE hash = $1", p, 1, fill_str0, user_id_out);
}

/* Row: token_gen, then USER_COLS (the caller, so the request need not read
 * the user again: req_caller). */
struct token_owner {
	int64_t *gen;
	struct user *user;
};

static int fill_owner(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct token_owner *o = out;

	*o->gen = st_int(tx, r, 0);
	return store_fill_user(tx, r, 1, o->user);
}

int store_token_owner(struct store_tx *tx, const char *token_hash, struct user *user_out, int64_t *gen_out)
{
	struct db_param p[] = { P_TEXT(token_hash) };
	struct token_owner o = { gen_out, user_out };

	return st_one(tx,
		      "SELECT u.token_gen, u.id, u.email, u.display_name, u.photo_url, u.created_at FROM tokens t "
		      "JOIN users u ON u.id = t.user_id WHERE t.hash = $1",
		      p, 1, fill_owner, &o);
}

int store_token_gen(struct store_tx *tx, const char *user_id, struct user *user_out, int64_t *gen_out)
{
	struct db_param p[] = { P_TEXT(user_id) };
	struct token_owner o = { gen_out, user_out };

	return st_one(tx, "SELECT token_gen, " USER_COLS " FROM users WHERE id = $1", p, 1, fill_owner, &o);
}

/* In the transaction of every revocation: the caches of every process see
 * the new generation in their next request's transaction (http/tokens.c). */
static int token_gen_bump(struct store_tx *tx, const char *user_id)
{
	struct db_param p[] = { P_TEXT(user_id) };

	return st_exec(tx, "UPDATE users SET token_gen = token_gen + 1 WHERE id = $1", p, 1, NULL);
}

int store_tokens_revoke_user(struct store_tx *tx, const char *user_id, int64_t *revoked)
{
	struct db_param p[] = { P_TEXT(user_id) };
	int rc = st_exec(tx, "DELETE FROM tokens WHERE user_id = $1", p, 1, revoked);

	return rc ? rc : token_gen_bump(tx, user_id);
}

int store_token_set_name(struct store_tx *tx, const char *token_hash, const char *name)
{
	struct db_param p[] = { P_TEXT(name), P_TEXT(token_hash) };

	return st_exec(tx, "UPDATE tokens SET name = $1 WHERE hash = $2", p, NP(p), NULL);
}

static int fill_token_row(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct user_token *t = out;

	t->id = st_str(tx, r, 0);
	t->name = st_str(tx, r, 1);
	t->created_at = st_int(tx, r, 2);
	return 0;
}

int store_token_list(struct store_tx *tx, const char *user_id, int limit, struct user_token **out, int *n)
{
	struct db_param p[] = { P_TEXT(user_id), P_INT(limit) };

	/* tokens_user narrows to the user's rows; substr() is in both engines. */
	return st_all(tx,
		      "SELECT substr(hash, 1, 16), name, created_at FROM tokens WHERE user_id = $1 "
		      "ORDER BY created_at DESC, hash LIMIT $2",
		      p, NP(p), fill_token_row, sizeof(**out), (void **)out, n);
}

int store_token_delete(struct store_tx *tx, const char *user_id, const char *id)
{
	struct db_param p[] = { P_TEXT(user_id), P_TEXT(id) };
	int64_t changes = 0;
	int rc = st_exec(tx, "DELETE FROM tokens WHERE user_id = $1 AND substr(hash, 1, 16) = $2", p, NP(p), &changes);

	if (rc)
		return rc;
	return changes ? token_gen_bump(tx, user_id) : err_set(ERR_NOT_FOUND, "no such token");
}

int store_users_share_org(struct store_tx *tx, const char *a, const char *b, bool *out)
{
	struct db_param p[] = { P_TEXT(a), P_TEXT(b) };
	int rc = st_one(tx,
			"SELECT 1 FROM members ma JOIN members mb ON mb.org_id = ma.org_id "
			"WHERE ma.user_id = $1 AND mb.user_id = $2 LIMIT 1",
			p, NP(p), NULL, NULL);

	if (rc == ERR_NOT_FOUND) {
		*out = false;
		return 0;
	}
	*out = rc == 0;
	return rc;
}
