/*
 * sessions.h - signing in to the web interface (issue 25): local passwords,
 * sessions, sign-in rate limits. app/session.c and app/signin.c speak HTTP
 * around these; the CLI (`docsd user password`) calls them too.
 *
 * DESIGN
 * Passwords: libsodium's crypto_pwhash_str, argon2id with its INTERACTIVE
 *   limits (2 passes, 64 MiB: ~100 ms for one hash or one check on this
 *   machine; MODERATE measured ~620 ms, too slow to answer a form). Only the
 *   hash string is stored. Setting a password ends every session of the user.
 * Sessions: the cookie carries 32 random bytes (hex); the store keeps only
 *   their SHA-256, so a read of the database does not sign anyone in. Each
 *   session has its own CSRF token (32 random bytes, hex) that every form
 *   posts back. A session lasts DOM_SESSION_TTL_MS from sign-in (absolute,
 *   not sliding) and ends before that on sign-out, a new password, the
 *   user's deletion, or when a user who was a member of an organization at
 *   sign-in is a member of none any more (checked on every lookup, so every
 *   path that removes a member revokes, without a hook in each of them).
 * Throttle (issue 30 item 5; the DESIGN block in domain/sessions.c): failed
 *   attempts are counted in the store per account, per client address and
 *   per address on that account, and each count past its free allowance
 *   delays the next evaluated attempt exponentially (1 s doubling to 15
 *   minutes); attempts inside a delay get 429 with Retry-After without the
 *   password being checked. It never locks the owner out: an address that
 *   has not failed on an account is evaluated at once however many failures
 *   the account has from elsewhere. Checked before the password is
 *   verified, recorded after (the check is ~100 ms of CPU, never run while a
 *   write transaction is held). Kept in the store so every docsd process
 *   behind a load balancer counts the same attempts.
 * No account-existence oracle: an unknown email, a user without a password
 *   and a wrong password all check a password against an argon2id hash with
 *   the same limits (a fixed dummy hash when there is no user) and answer
 *   the same.
 */
#ifndef DOCSD_DOMAIN_SESSIONS_H
#define DOCSD_DOMAIN_SESSIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "domain/domain.h"

#define DOM_SESSION_TTL_MS (14LL * 24 * 3600 * 1000)   /* 14 days */
#define DOM_SIGNIN_FREE 5                              /* failures of an account, or of an address on it, before delays */
#define DOM_SIGNIN_FREE_ADDR 10                        /* failures of an address across accounts before delays */
#define DOM_SIGNIN_DELAY_MS 1000LL                     /* the first delay, doubling */
#define DOM_SIGNIN_DELAY_CAP_MS (15LL * 60 * 1000)     /* the longest delay: 15 minutes */
#define DOM_SIGNIN_FORGET_MS (24LL * 3600 * 1000)      /* a bucket without failures this long is forgotten */
#define DOM_PASSWORD_MIN 8                             /* bytes */
#define DOM_PASSWORD_MAX 1024                          /* bytes */
#define DOM_SESSION_TOKEN_LEN 64                       /* hex characters */
#define DOM_PASSWORD_HASH_MAX 128                      /* crypto_pwhash_STRBYTES */

/* libsodium's start: 0, or -1 when it cannot run. Idempotent, thread-safe. */
int dom_crypto_init(void);

/* Hash a new password (DOM_PASSWORD_MIN..DOM_PASSWORD_MAX bytes of UTF-8):
 * 0 with out set, ERR_INVALID naming "password". CPU-heavy (~100 ms): call it
 * with no transaction open. */
int dom_password_hash(const char *password, char out[DOM_PASSWORD_HASH_MAX]);
/* Whether password matches hash; hash NULL checks against a dummy hash (the
 * same cost) and answers false. CPU-heavy like dom_password_hash. */
bool dom_password_check(const char *hash, const char *password);

/* Store a hash from dom_password_hash as user_id's password (docsd itself or
 * the user only), ending the user's sessions. When it replaces a password (a
 * reset) it also revokes every API token of the user unless keep_tokens
 * (*revoked of them, when revoked is not NULL; d->tokens_revoked set). */
int dom_password_set(struct dom *d, const char *user_id, const char *hash, bool keep_tokens, int64_t *revoked);

/* Password links: how an invited user sets their first password (or anyone
 * a forgotten one) without an administrator typing it. A link's token is
 * "<user id>.<expiry ms>.<HMAC-SHA256 hex>", the HMAC (the server's files
 * secret, with a "password-link" label of its own) over the user, the expiry
 * and the user's current password hash ("-" for none): no table, and a link
 * works once, since setting the password changes the hash it signed, and
 * not past its expiry (DOM_PASSWORD_LINK_TTL_MS from when it was made). */
#define DOM_PASSWORD_LINK_TTL_MS (7LL * 24 * 3600 * 1000) /* 7 days */
/* A new link token for user_id (docsd itself only: the CLI). */
int dom_password_link(struct dom *d, const char *user_id, const char **token, int64_t *expires_at);
/* The user a link token is valid for now: 0 with *user_id, or ERR_NOT_FOUND
 * for any invalid one (malformed, expired, used, forged) alike. */
int dom_password_link_check(struct dom *d, const char *token, const char **user_id);

/* The delay the throttle imposes after `failures` failures of a bucket
 * allowed `allowed` of them: 0 below that, then DOM_SIGNIN_DELAY_MS doubling
 * per failure, at most DOM_SIGNIN_DELAY_CAP_MS. */
int64_t dom_signin_delay_ms(int64_t failures, int64_t allowed);
/* The first step of a sign-in, in a read transaction: ERR_RATE_LIMITED with
 * *retry_after_ms when the throttle delays an attempt on email from addr;
 * else 0 with *user_id and *hash set to the user's and their password hash,
 * or NULL (unknown email, no password). */
int dom_signin_lookup(struct dom *d, const char *email, const char *addr, const char **user_id, const char **hash,
		      int64_t *retry_after_ms);
/* In the write transaction that starts a session after a good password:
 * ERR_CONFLICT when user_id's password hash is no longer `hash` (set again
 * while it was being checked: the new one alone signs in). */
int dom_signin_still_valid(struct dom *d, const char *user_id, const char *hash);
/* Record a failed attempt for email from addr (a write transaction). */
int dom_signin_failed(struct dom *d, const char *email, const char *addr);
/* A good password for email from addr (the session's write transaction):
 * that address's failures on that account are forgotten. */
int dom_signin_succeeded(struct dom *d, const char *email, const char *addr);

/* A new session for user_id (a write transaction): *token (the cookie's
 * value, hex) and *csrf into d's arena, *expires_at. */
int dom_session_create(struct dom *d, const char *user_id, const char **token, const char **csrf,
		       int64_t *expires_at);
/* The session of token: 0 with *user_id and *csrf, ERR_UNAUTHORIZED when
 * there is none valid (malformed, unknown, expired, revoked). */
int dom_session_lookup(struct dom *d, const char *token, const char **user_id, const char **csrf);
/* End token's session (a write transaction); no error when there is none. */
int dom_session_end(struct dom *d, const char *token);

#endif
