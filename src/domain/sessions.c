/*
 * sessions.c - passwords, sessions and the sign-in rate limit (the rules are
 * written in domain/sessions.h).
 */
#include "domain/secrets.h"
#include "domain/sessions.h"
#include "store/sessions.h"
#include "util/err.h"
#include "util/text.h"
#include "util/util.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sodium.h>
#include <string.h>

_Static_assert(crypto_pwhash_STRBYTES <= DOM_PASSWORD_HASH_MAX, "a password hash fits its buffer");

/* An argon2id hash with the limits dom_password_hash uses, of a random
 * password nobody kept: checked when the email names no user (or one with
 * no password), so that answer costs what a wrong password costs. */
static const char dummy_hash[] =
	"$argon2id$v=19$m=65536,t=2,p=1$FNXaGLjRz3Y2D584/h9Reg$V25FBnFtC8F69I7YTJcyFv5xHyQspNLwKg8R2/hmYOI";

int dom_crypto_init(void)
{
	return sodium_init() < 0 ? -1 : 0;
}

int dom_password_hash(const char *password, char out[DOM_PASSWORD_HASH_MAX])
{
	size_t n = password ? strlen(password) : 0;

	if (n < DOM_PASSWORD_MIN || n > DOM_PASSWORD_MAX || utf8_len(password) < 0)
		return err_set(ERR_INVALID, "password: must be %d to %d bytes of UTF-8", DOM_PASSWORD_MIN,
			       DOM_PASSWORD_MAX);
	if (dom_crypto_init())
		return err_set(ERR_INTERNAL, "libsodium cannot start");
	if (crypto_pwhash_str(out, password, n, crypto_pwhash_OPSLIMIT_INTERACTIVE, crypto_pwhash_MEMLIMIT_INTERACTIVE))
		return err_set(ERR_INTERNAL, "cannot hash a password (out of memory)");
	return 0;
}

bool dom_password_check(const char *hash, const char *password)
{
	size_t n = password ? strlen(password) : 0;
	bool ok;

	if (dom_crypto_init())
		return false;
	/* Checked whatever the inputs, so every refusal costs one argon2id run. */
	ok = crypto_pwhash_str_verify(hash ? hash : dummy_hash, password ? password : "", n) == 0;
	return ok && hash != NULL && n >= 1;
}

int dom_password_set(struct dom *d, const char *user_id, const char *hash)
{
	if (d->actor.user_id && strcmp(d->actor.user_id, user_id) != 0)
		return err_set(ERR_FORBIDDEN, "only the user sets their password");
	if (!hash || strncmp(hash, "$argon2id$", 10) != 0)
		return err_set(ERR_INVALID, "password: not an argon2id hash");
	return store_password_set(d->tx, user_id, hash, clock_now_ms());
}

/* The rate limit's buckets: "a:" + the email lower-cased, "i:" + the address. */
static const char *account_bucket(struct dom *d, const char *email)
{
	char *b = arena_printf(d->arena, "a:%.320s", email ? email : "");

	for (char *c = b + 2; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	return b;
}

static const char *address_bucket(struct dom *d, const char *addr)
{
	return arena_printf(d->arena, "i:%.64s", addr ? addr : "?");
}

int dom_signin_lookup(struct dom *d, const char *email, const char *addr, const char **user_id, const char **hash)
{
	int64_t since = clock_now_ms() - DOM_SIGNIN_WINDOW_MS, na = 0, ni = 0;
	struct user u;
	int rc;

	*user_id = NULL;
	*hash = NULL;
	if ((rc = store_signin_failures(d->tx, account_bucket(d, email), since, &na)) ||
	    (rc = store_signin_failures(d->tx, address_bucket(d, addr), since, &ni)))
		return rc;
	if (na >= DOM_SIGNIN_MAX || ni >= DOM_SIGNIN_MAX)
		return err_set(ERR_RATE_LIMITED, "too many failed sign-in attempts: try again in 15 minutes");
	rc = store_user_get_by_email(d->tx, email ? email : "", &u);
	if (rc == ERR_NOT_FOUND) {
		err_clear();
		return 0;
	}
	if (rc)
		return rc;
	rc = store_password_get(d->tx, u.id, hash);
	if (rc == ERR_NOT_FOUND) {
		err_clear();
		*hash = NULL;
		return 0;
	}
	if (rc == 0)
		*user_id = u.id;
	return rc;
}

int dom_signin_still_valid(struct dom *d, const char *user_id, const char *hash)
{
	const char *now = NULL;
	int rc = store_password_get(d->tx, user_id, &now);

	if (rc == ERR_NOT_FOUND || (rc == 0 && (!now || !hash || strcmp(now, hash) != 0)))
		return err_set(ERR_CONFLICT, "the password changed during the sign-in");
	return rc;
}

int dom_signin_failed(struct dom *d, const char *email, const char *addr)
{
	int64_t now = clock_now_ms();
	int rc = store_signin_failure_add(d->tx, account_bucket(d, email), now, now - DOM_SIGNIN_WINDOW_MS);

	return rc ? rc : store_signin_failure_add(d->tx, address_bucket(d, addr), now, now - DOM_SIGNIN_WINDOW_MS);
}

/* n random bytes as 2n hex characters in a. */
static char *random_hex(struct arena *a, size_t n)
{
	unsigned char buf[32];
	char *out = arena_alloc(a, 2 * n + 1);

	if (!out || n > sizeof(buf) || dom_crypto_init())
		return NULL;
	randombytes_buf(buf, n);
	hex_encode(out, buf, n);
	sodium_memzero(buf, sizeof(buf));
	return out;
}

int dom_session_create(struct dom *d, const char *user_id, const char **token, const char **csrf,
		       int64_t *expires_at)
{
	int64_t now = clock_now_ms();
	char id[65];
	bool in_org = false;
	char *t = random_hex(d->arena, DOM_SESSION_TOKEN_LEN / 2), *c = random_hex(d->arena, 32);
	int rc;

	if (!t || !c || sha256_hex(id, t, strlen(t)))
		return err_set(ERR_INTERNAL, "cannot make a session token");
	if ((rc = store_user_in_org(d->tx, user_id, &in_org)))
		return rc;
	*expires_at = now + DOM_SESSION_TTL_MS;
	if ((rc = store_session_create(d->tx, id, user_id, c, in_org, now, *expires_at)))
		return rc;
	*token = t;
	*csrf = c;
	return 0;
}

/* SHA-256 of a well-formed token (DOM_SESSION_TOKEN_LEN lowercase hex), or -1. */
static int token_id(const char *token, char id[65])
{
	if (!token || strlen(token) != DOM_SESSION_TOKEN_LEN ||
	    strspn(token, "0123456789abcdef") != DOM_SESSION_TOKEN_LEN)
		return -1;
	return sha256_hex(id, token, DOM_SESSION_TOKEN_LEN) ? -1 : 0;
}

int dom_session_lookup(struct dom *d, const char *token, const char **user_id, const char **csrf)
{
	struct store_session s;
	char id[65];
	int rc;

	if (token_id(token, id))
		return err_set(ERR_UNAUTHORIZED, "not signed in");
	rc = store_session_get(d->tx, id, clock_now_ms(), &s);
	if (rc == ERR_NOT_FOUND)
		return err_set(ERR_UNAUTHORIZED, "not signed in");
	if (rc)
		return rc;
	*user_id = s.user_id;
	*csrf = s.csrf;
	return 0;
}

int dom_session_end(struct dom *d, const char *token)
{
	char id[65];

	return token_id(token, id) ? 0 : store_session_delete(d->tx, id);
}

/* The HMAC of a password link for user_id, expires_at and the user's
 * current hash, as 64 hex characters into out. */
static int link_mac(struct dom *d, const char *user_id, int64_t expires_at, char out[65])
{
	const char *key, *hash = NULL, *msg;
	unsigned char mac[32];
	int rc = dom_secret(d->srv, d->tx, DOM_SECRET_FILES, &key);

	if (rc)
		return rc;
	rc = store_password_get(d->tx, user_id, &hash);
	if (rc == ERR_NOT_FOUND) {
		err_clear();
		hash = "-";
	} else if (rc) {
		return rc;
	}
	msg = arena_printf(d->arena, "password-link\n%s\n%" PRId64 "\n%s", user_id, expires_at, hash);
	if (hmac_sha256(mac, key, strlen(key), msg, strlen(msg)))
		return err_set(ERR_INTERNAL, "cannot sign a password link");
	hex_encode(out, mac, sizeof(mac));
	return 0;
}

int dom_password_link(struct dom *d, const char *user_id, const char **token, int64_t *expires_at)
{
	char mac[65];
	int rc;

	if (d->actor.user_id)
		return err_set(ERR_FORBIDDEN, "password links are made with `docsd user password --link`");
	*expires_at = clock_now_ms() + DOM_PASSWORD_LINK_TTL_MS;
	if ((rc = link_mac(d, user_id, *expires_at, mac)))
		return rc;
	*token = arena_printf(d->arena, "%s.%" PRId64 ".%s", user_id, *expires_at, mac);
	return 0;
}

int dom_password_link_check(struct dom *d, const char *token, const char **user_id)
{
	const char *dot1 = token ? strchr(token, '.') : NULL, *dot2 = dot1 ? strchr(dot1 + 1, '.') : NULL;
	char mac[65], *end = NULL, *uid;
	long long exp;
	int rc;

	*user_id = NULL;
	if (!dot2 || dot1 == token || dot1 - token > 64 || strlen(dot2 + 1) != 64 || dot2 - dot1 < 2 || dot2 - dot1 > 20)
		return err_set(ERR_NOT_FOUND, "this link is not valid (any more)");
	exp = strtoll(dot1 + 1, &end, 10);
	if (end != dot2 || exp <= clock_now_ms())
		return err_set(ERR_NOT_FOUND, "this link is not valid (any more)");
	uid = arena_strndup(d->arena, token, (size_t)(dot1 - token));
	if ((rc = link_mac(d, uid, exp, mac)))
		return rc;
	if (sodium_memcmp(mac, dot2 + 1, 64) != 0)
		return err_set(ERR_NOT_FOUND, "this link is not valid (any more)");
	*user_id = uid;
	return 0;
}
