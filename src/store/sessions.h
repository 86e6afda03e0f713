/*
 * sessions.h - the web interface's passwords, sessions and sign-in attempts
 * (migration 18; the rules are domain/sessions.h's).
 */
#ifndef DOCSD_STORE_SESSIONS_H
#define DOCSD_STORE_SESSIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "store/store.h"

/* A user's password hash (libsodium's argon2id string): ERR_NOT_FOUND when
 * the user has none. */
int store_password_get(struct store_tx *tx, const char *user_id, const char **hash_out);
/* Set (or replace) a user's password hash and end every session of theirs:
 * a new password signs out everywhere. */
int store_password_set(struct store_tx *tx, const char *user_id, const char *hash, int64_t now);

struct store_session {
	const char *user_id;
	const char *csrf;
	int64_t created_at, expires_at;
};

/* A new session; id is the SHA-256 (hex) of the cookie's token. in_org:
 * the user belonged to an organization then. Also drops every expired
 * session, so rows do not pile up. */
int store_session_create(struct store_tx *tx, const char *id, const char *user_id, const char *csrf, bool in_org,
			 int64_t now, int64_t expires_at);
/* The session id if it is still valid at now: not expired, its user still
 * exists, and, when it began while the user was a member of an organization,
 * the user still is a member of one. ERR_NOT_FOUND otherwise. */
int store_session_get(struct store_tx *tx, const char *id, int64_t now, struct store_session *out);
int store_session_delete(struct store_tx *tx, const char *id);
/* Whether user_id is a member of any organization. */
int store_user_in_org(struct store_tx *tx, const char *user_id, bool *out);

/* The sign-in throttle's buckets (migration 22; the rules are
 * domain/sessions.h's): a bucket's failures and its last failure's time. */
struct store_throttle {
	const char *bucket;
	int64_t failures, last_at;
};
/* The rows of buckets a, b and c whose last failure is after since (at most
 * three, in no order; a bucket without one has no row). */
int store_signin_throttle_get(struct store_tx *tx, const char *a, const char *b, const char *c, int64_t since,
			      struct store_throttle **out, int *n);
/* One more failure for bucket at now (the count starts again at 1 when the
 * last one was at or before forget_before). */
int store_signin_throttle_fail(struct store_tx *tx, const char *bucket, int64_t now, int64_t forget_before);
/* Forget bucket (a good password from that address for that account). */
int store_signin_throttle_clear(struct store_tx *tx, const char *bucket);
/* Delete every bucket whose last failure was at or before `before`. */
int store_signin_throttle_expire(struct store_tx *tx, int64_t before);

#endif
