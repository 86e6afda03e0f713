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

#include <arpa/inet.h>
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

int dom_password_set(struct dom *d, const char *user_id, const char *hash, bool keep_tokens, int64_t *revoked)
{
	const char *old = NULL;
	int rc;

	if (revoked)
		*revoked = 0;
	if (d->actor.user_id && strcmp(d->actor.user_id, user_id) != 0)
		return err_set(ERR_FORBIDDEN, "only the user sets their password");
	if (!hash || strncmp(hash, "$argon2id$", 10) != 0)
		return err_set(ERR_INVALID, "password: not an argon2id hash");
	/* A reset (a password replaced) revokes the API tokens too: whoever
	 * knew the old one may have minted tokens with it. The first password
	 * replaces nothing, so nothing was minted under it. */
	rc = store_password_get(d->tx, user_id, &old);
	if (rc == ERR_NOT_FOUND) {
		err_clear();
		old = NULL;
	} else if (rc) {
		return rc;
	}
	if (old && !keep_tokens && (rc = store_tokens_revoke_user(d->tx, user_id, revoked)))
		return rc;
	if (old && !keep_tokens)
		d->tokens_revoked = true;
	return store_password_set(d->tx, user_id, hash, clock_now_ms());
}

/*
 * DESIGN: the sign-in throttle (issue 30 item 5)
 *
 * The old rule (10 failures in 15 minutes, then 429 even for the right
 * password) let anyone who knew an email keep its owner out, and behind a
 * proxy let ten bad passwords keep everyone out. Now:
 *
 * Buckets, each a row (bucket, failures, last failure's time) in the store,
 * so every docsd process on one PostgreSQL counts the same failures:
 *   "a:" email       the account (the email as typed, lower-cased, whether
 *                    or not such a user exists: no existence oracle);
 *   "i:" address     the client address across accounts (password spraying);
 *   "p:" address " " email  that address on that account.
 * IPv6 addresses count by their /64 (one host usually holds a whole /64, so
 * a per-/128 count would give it 2^64 fresh buckets). The address is the one
 * req_client_addr gives (X-Forwarded-For only through --trusted-proxy).
 *
 * Back-off: a bucket with f failures, once f reaches its free allowance F,
 * is evaluated again only
 *   delay(f, F) = min(DOM_SIGNIN_DELAY_MS * 2^(f - F), DOM_SIGNIN_DELAY_CAP_MS)
 * after its last failure (1 s after the F-th, 2 s after the next, ... 15
 * minutes at most; no delay below F). An attempt inside a
 * delay is refused with 429 and Retry-After before the password is checked,
 * and does not count: waiting is the only way on, and the owner's next
 * attempt after the delay is evaluated.
 *   address ("i:")   F = DOM_SIGNIN_FREE_ADDR (an office behind one NAT
 *                    mistypes more than one person);
 *   pair ("p:")      F = DOM_SIGNIN_FREE;
 *   account ("a:")   F = DOM_SIGNIN_FREE, and it delays only addresses that
 *                    have failed on that account themselves (the pair has
 *                    failures): such an address gets delay(pair failures,
 *                    1), the back-off from its first failure instead of
 *                    after F. An address with no recent failure on the
 *                    account is evaluated at once even while the account is
 *                    under attack: the owner at home is not the attacker's
 *                    address. A botnet gets one guess per fresh address, no
 *                    more than a spraying run from it allows.
 * The largest of the delays that apply is the answer's Retry-After.
 * A good password clears its pair (the owner's own typos are forgotten);
 * the account's and the address's counts stay (an attacker learning the
 * password from another address must not reset the victim's count).
 *
 * Bounded growth: a bucket is forgotten DOM_SIGNIN_FORGET_MS after its last
 * failure (its count starts again at 1), and each recorded failure deletes
 * every forgotten row (an index on last_at). One address adds at most its
 * own throttled failures' worth of rows (two per failure: the pair and the
 * account), since the address bucket delays it across accounts.
 *
 * Races: checked in a read transaction before the ~100 ms password check,
 * recorded in a write transaction after it (an upsert that locks its row on
 * PostgreSQL): attempts in flight at once (at most APP_PASSWORD_WORK_MAX
 * per process) can each pass a check the others' failures would have
 * failed; each still counts.
 */

/* The address as counted: IPv4 as is, IPv6 cut to its /64, "?" unknown. */
static const char *addr_key(struct dom *d, const char *addr)
{
	unsigned char b[16];
	char out[INET6_ADDRSTRLEN];

	if (!addr || !*addr)
		return "?";
	if (strchr(addr, ':') && inet_pton(AF_INET6, addr, b) == 1) {
		memset(b + 8, 0, 8);
		if (inet_ntop(AF_INET6, b, out, sizeof(out)))
			return arena_printf(d->arena, "%s/64", out);
	}
	return arena_printf(d->arena, "%.64s", addr);
}

static const char *lower_email(struct dom *d, const char *email)
{
	char *e = arena_printf(d->arena, "%.320s", email ? email : "");

	for (char *c = e; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	return e;
}

struct buckets {
	const char *account, *address, *pair;
};

static void buckets_of(struct dom *d, const char *email, const char *addr, struct buckets *b)
{
	const char *e = lower_email(d, email), *k = addr_key(d, addr);

	b->account = arena_printf(d->arena, "a:%s", e);
	b->address = arena_printf(d->arena, "i:%s", k);
	b->pair = arena_printf(d->arena, "p:%s %s", k, e);
}

int64_t dom_signin_delay_ms(int64_t failures, int64_t allowed)
{
	int64_t n = failures - allowed;

	if (allowed < 0 || failures < allowed)
		return 0;
	/* 2^n passes the cap at n = 10 (1 s << 10 = 17 min): stop shifting. */
	if (n >= 20 || (DOM_SIGNIN_DELAY_MS << n) > DOM_SIGNIN_DELAY_CAP_MS)
		return DOM_SIGNIN_DELAY_CAP_MS;
	return DOM_SIGNIN_DELAY_MS << n;
}

/* How long until the throttle evaluates an attempt for b at now (0: now). */
static int signin_wait(struct dom *d, const struct buckets *b, int64_t now, int64_t *wait)
{
	struct store_throttle *rows = NULL, acct = { 0 }, addr = { 0 }, pair = { 0 };
	int n = 0, rc = store_signin_throttle_get(d->tx, b->account, b->address, b->pair, now - DOM_SIGNIN_FORGET_MS,
						  &rows, &n);
	int64_t until = 0, u, d_ms;

	if (rc)
		return rc;
	for (int i = 0; i < n; i++) {
		if (strcmp(rows[i].bucket, b->account) == 0)
			acct = rows[i];
		else if (strcmp(rows[i].bucket, b->address) == 0)
			addr = rows[i];
		else if (strcmp(rows[i].bucket, b->pair) == 0)
			pair = rows[i];
	}
	/* A bucket below its allowance delays nothing (not even until its
	 * last failure, which another process's clock may put ahead of ours). */
	if ((d_ms = dom_signin_delay_ms(addr.failures, DOM_SIGNIN_FREE_ADDR)) && (u = addr.last_at + d_ms) > until)
		until = u;
	if ((d_ms = dom_signin_delay_ms(pair.failures, DOM_SIGNIN_FREE)) && (u = pair.last_at + d_ms) > until)
		until = u;
	/* The account under attack delays the addresses that failed on it. */
	if ((d_ms = dom_signin_delay_ms(acct.failures, DOM_SIGNIN_FREE)) && acct.last_at + d_ms > now &&
	    (d_ms = dom_signin_delay_ms(pair.failures, 1)) && (u = pair.last_at + d_ms) > until)
		until = u;
	*wait = until > now ? until - now : 0;
	return 0;
}

int dom_signin_lookup(struct dom *d, const char *email, const char *addr, const char **user_id, const char **hash,
		      int64_t *retry_after_ms)
{
	struct buckets b;
	int64_t wait = 0;
	struct user u;
	int rc;

	*user_id = NULL;
	*hash = NULL;
	*retry_after_ms = 0;
	buckets_of(d, email, addr, &b);
	if ((rc = signin_wait(d, &b, clock_now_ms(), &wait)))
		return rc;
	if (wait > 0) {
		*retry_after_ms = wait;
		return err_set(ERR_RATE_LIMITED, "too many failed sign-in attempts: try again in %lld seconds",
			       (long long)((wait + 999) / 1000));
	}
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
	int64_t now = clock_now_ms(), forget = now - DOM_SIGNIN_FORGET_MS;
	struct buckets b;
	int rc;

	buckets_of(d, email, addr, &b);
	if ((rc = store_signin_throttle_expire(d->tx, forget)) || (rc = store_signin_throttle_fail(d->tx, b.account, now, forget)) ||
	    (rc = store_signin_throttle_fail(d->tx, b.address, now, forget)))
		return rc;
	return store_signin_throttle_fail(d->tx, b.pair, now, forget);
}

int dom_signin_succeeded(struct dom *d, const char *email, const char *addr)
{
	struct buckets b;

	buckets_of(d, email, addr, &b);
	return store_signin_throttle_clear(d->tx, b.pair);
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
