/*
 * domain/sessions.c: password hashes and sessions, in-process. The hash and
 * check need no store; sessions run on both engines: create, look up,
 * revocation by a new password and by leaving the last organization, sign
 * out, expiry, and the failure counts behind the rate limit.
 */
#include "domain/sessions.h"
#include "store/sessions.h"
#include "http/services.h"
#include "domain/tokens.h"
#include "unit.h"
#include "util/err.h"
#include "util/util.h"

#include <ctype.h>

UNIT_TEST(password_hash_is_argon2id_and_checks)
{
	char h[DOM_PASSWORD_HASH_MAX], h2[DOM_PASSWORD_HASH_MAX];

	CHECK(dom_password_hash("correct horse battery", h) == 0);
	CHECK(strncmp(h, "$argon2id$v=19$m=65536,t=2,p=1$", 31) == 0);
	CHECK(dom_password_check(h, "correct horse battery"));
	CHECK(!dom_password_check(h, "correct horse batterY"));
	CHECK(!dom_password_check(h, ""));
	CHECK(!dom_password_check(h, NULL));
	/* salted: the same password hashes differently */
	CHECK(dom_password_hash("correct horse battery", h2) == 0);
	CHECK(strcmp(h, h2) != 0);
	CHECK(dom_password_check(h2, "correct horse battery"));
	/* no user: the dummy hash is checked and nothing matches */
	CHECK(!dom_password_check(NULL, "correct horse battery"));
	CHECK(!dom_password_check(NULL, ""));
	/* limits and encoding */
	CHECK(dom_password_hash("short", h) == ERR_INVALID);
	CHECK(strstr(err_message(), "password") != NULL);
	CHECK(dom_password_hash("\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8", h) == ERR_INVALID);
	CHECK(dom_password_hash(NULL, h) == ERR_INVALID);
	{
		char big[DOM_PASSWORD_MAX + 2];
		memset(big, 'x', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		CHECK(dom_password_hash(big, h) == ERR_INVALID);
		big[DOM_PASSWORD_MAX] = '\0';
		CHECK(dom_password_hash(big, h) == 0);
	}
}

static void sessions_suite(struct store *s)
{
	struct arena a;
	struct store_tx tx;
	struct dom d;
	struct user u, v;
	struct org org = { .title = "Sessions", .email_domains = "[]", .default_role = ROLE_READ };
	const char *token, *csrf, *uid, *c2, *hash, *t2, *c3;
	char h[DOM_PASSWORD_HASH_MAX];
	int64_t exp, wait = 0;
	bool added;

	arena_init(&a);
	CHECK(dom_password_hash("a good password", h) == 0);
	CHECK(store_tx_begin(s, &tx, 1, &a) == 0);
	dom_init(&d, NULL, &tx, &a, NULL);
	unit_new_user(&tx, "sess", NULL, &u);
	unit_new_user(&tx, "lone", NULL, &v);
	CHECK(store_org_create(&tx, &org, u.id) == 0);

	/* a session: token and csrf are 64 hex, the lookup finds its user */
	CHECK(dom_session_create(&d, u.id, &token, &csrf, &exp) == 0);
	CHECK(strlen(token) == 64 && strlen(csrf) == 64 && strcmp(token, csrf) != 0);
	CHECK(exp > clock_now_ms() + DOM_SESSION_TTL_MS - 60000);
	CHECK(dom_session_lookup(&d, token, &uid, &c2) == 0);
	CHECK_STR(uid, u.id);
	CHECK_STR(c2, csrf);
	CHECK(dom_session_lookup(&d, "0000000000000000000000000000000000000000000000000000000000000000", &uid, &c2) ==
	      ERR_UNAUTHORIZED);
	CHECK(dom_session_lookup(&d, "short", &uid, &c2) == ERR_UNAUTHORIZED);
	CHECK(dom_session_lookup(&d, NULL, &uid, &c2) == ERR_UNAUTHORIZED);

	/* a new password ends it; the stored hash is the one given */
	CHECK(dom_password_set(&d, u.id, h, false, NULL) == 0);
	CHECK(dom_session_lookup(&d, token, &uid, &c2) == ERR_UNAUTHORIZED);
	CHECK(dom_signin_lookup(&d, u.email, "10.0.0.1", &uid, &hash, &wait) == 0);
	CHECK_STR(uid, u.id);
	CHECK_STR(hash, h);
	/* only the user (or docsd) sets it, and only an argon2id hash */
	dom_init(&d, NULL, &tx, &a, v.id);
	CHECK(dom_password_set(&d, u.id, h, false, NULL) == ERR_FORBIDDEN);
	dom_init(&d, NULL, &tx, &a, NULL);
	CHECK(dom_password_set(&d, u.id, "plain", false, NULL) == ERR_INVALID);

	/* an unknown email and a user without a password: no user, no hash, no error */
	CHECK(dom_signin_lookup(&d, "nobody@nowhere.example", "10.0.0.1", &uid, &hash, &wait) == 0);
	CHECK(uid == NULL && hash == NULL);
	CHECK(dom_signin_lookup(&d, v.email, "10.0.0.1", &uid, &hash, &wait) == 0);
	CHECK(uid == NULL && hash == NULL);

	/* leaving the last organization ends a member's session; a user of no
	 * organization keeps theirs */
	CHECK(dom_session_create(&d, u.id, &token, &csrf, &exp) == 0);
	CHECK(dom_session_create(&d, v.id, &t2, &c3, &exp) == 0);
	CHECK(store_member_remove(&tx, org.id, u.id, &added) == 0 && added);
	CHECK(dom_session_lookup(&d, token, &uid, &c2) == ERR_UNAUTHORIZED);
	CHECK(dom_session_lookup(&d, t2, &uid, &c2) == 0);
	CHECK_STR(uid, v.id);
	/* sign-out */
	CHECK(dom_session_end(&d, t2) == 0);
	CHECK(dom_session_lookup(&d, t2, &uid, &c2) == ERR_UNAUTHORIZED);
	CHECK(dom_session_end(&d, "not a token") == 0);

	/* password links: valid until the password changes, not forged, docsd's only */
	{
		const char *link, *link2, *who;
		char *bad;
		int64_t lexp;
		CHECK(dom_password_link(&d, v.id, &link, &lexp) == 0);
		CHECK(lexp > clock_now_ms() + DOM_PASSWORD_LINK_TTL_MS - 60000);
		CHECK(dom_password_link_check(&d, link, &who) == 0);
		CHECK_STR(who, v.id);
		bad = arena_strdup(&a, link);
		bad[strlen(bad) - 1] = bad[strlen(bad) - 1] == '0' ? '1' : '0';
		CHECK(dom_password_link_check(&d, bad, &who) == ERR_NOT_FOUND);
		CHECK(dom_password_link_check(&d, "x.1.y", &who) == ERR_NOT_FOUND);
		CHECK(dom_password_link_check(&d, NULL, &who) == ERR_NOT_FOUND);
		/* another user's id with this link's expiry and mac */
		CHECK(dom_password_link_check(&d, arena_printf(&a, "%s%s", u.id, strchr(link, '.')), &who) == ERR_NOT_FOUND);
		CHECK(dom_password_set(&d, v.id, h, false, NULL) == 0);
		CHECK(dom_password_link_check(&d, link, &who) == ERR_NOT_FOUND); /* used */
		CHECK(dom_password_link(&d, v.id, &link2, &lexp) == 0);
		CHECK(dom_password_link_check(&d, link2, &who) == 0);
		dom_init(&d, NULL, &tx, &a, v.id);
		CHECK(dom_password_link(&d, v.id, &link2, &lexp) == ERR_FORBIDDEN);
		dom_init(&d, NULL, &tx, &a, NULL);
	}

	/* the throttle (issue 30 item 5): back-off per address on an account,
	 * the owner's address evaluated at once, spraying, IPv6 by /64 */
	{
		const char *A = arena_printf(&a, "10.%d.0.9", (int)(clock_now_ms() % 200));
		const char *B = "198.51.100.7", *C = "203.0.113.50";
		const char *upper = arena_strdup(&a, u.email);
		for (char *c = (char *)upper; *c; c++)
			*c = (char)toupper((unsigned char)*c);

		for (int i = 0; i < DOM_SIGNIN_FREE; i++) {
			CHECK(dom_signin_lookup(&d, u.email, A, &uid, &hash, &wait) == 0);
			CHECK(dom_signin_failed(&d, i % 2 ? upper : u.email, A) == 0);
		}
		/* A is delayed: the account is under attack and A failed on it,
		 * so A's back-off counts from its first failure (16 s after 5) */
		CHECK(dom_signin_lookup(&d, u.email, A, &uid, &hash, &wait) == ERR_RATE_LIMITED);
		CHECK(wait > 15000 && wait <= dom_signin_delay_ms(DOM_SIGNIN_FREE, 1));
		CHECK(uid == NULL && hash == NULL);
		CHECK(dom_signin_lookup(&d, upper, A, &uid, &hash, &wait) == ERR_RATE_LIMITED);
		/* the owner, from an address that has not failed on the account */
		CHECK(dom_signin_lookup(&d, upper, B, &uid, &hash, &wait) == 0 && wait == 0);
		CHECK_STR(uid, u.id);
		/* after the delay, A is evaluated again (and its next failure
		 * doubles the delay) */
		clock_set_offset(dom_signin_delay_ms(DOM_SIGNIN_FREE, 1) + 1);
		CHECK(dom_signin_lookup(&d, u.email, A, &uid, &hash, &wait) == 0);
		CHECK(dom_signin_failed(&d, u.email, A) == 0);
		CHECK(dom_signin_lookup(&d, u.email, A, &uid, &hash, &wait) == ERR_RATE_LIMITED);
		CHECK(wait > 31000 && wait <= dom_signin_delay_ms(DOM_SIGNIN_FREE + 1, 1));
		/* a typo from B while the account is under attack: B waits from
		 * its first failure (1 s), and a good password clears it */
		CHECK(dom_signin_failed(&d, u.email, B) == 0);
		CHECK(dom_signin_lookup(&d, u.email, B, &uid, &hash, &wait) == ERR_RATE_LIMITED);
		CHECK(wait > 0 && wait <= DOM_SIGNIN_DELAY_MS);
		CHECK(dom_signin_succeeded(&d, u.email, B) == 0);
		CHECK(dom_signin_lookup(&d, u.email, B, &uid, &hash, &wait) == 0);
		clock_set_offset(0);
		/* spraying: C's failures across accounts delay C for every account */
		for (int i = 0; i < DOM_SIGNIN_FREE_ADDR; i++)
			CHECK(dom_signin_failed(&d, arena_printf(&a, "spray-%d-%s@example.com", i, u.id), C) == 0);
		CHECK(dom_signin_lookup(&d, v.email, C, &uid, &hash, &wait) == ERR_RATE_LIMITED);
		CHECK(dom_signin_lookup(&d, v.email, B, &uid, &hash, &wait) == 0);
		/* IPv6: one /64 is one address */
		for (int i = 0; i < DOM_SIGNIN_FREE; i++)
			CHECK(dom_signin_failed(&d, v.email, arena_printf(&a, "2001:db8:5:6::%x", i + 1)) == 0);
		CHECK(dom_signin_lookup(&d, v.email, "2001:db8:5:6:ffff::1", &uid, &hash, &wait) == ERR_RATE_LIMITED);
		CHECK(dom_signin_lookup(&d, v.email, "2001:db8:5:7::1", &uid, &hash, &wait) == 0);
		/* the schedule: free, then 1 s doubling to the cap */
		CHECK(dom_signin_delay_ms(DOM_SIGNIN_FREE - 1, DOM_SIGNIN_FREE) == 0);
		CHECK(dom_signin_delay_ms(DOM_SIGNIN_FREE, DOM_SIGNIN_FREE) == 1000);
		CHECK(dom_signin_delay_ms(DOM_SIGNIN_FREE + 1, DOM_SIGNIN_FREE) == 2000);
		CHECK(dom_signin_delay_ms(DOM_SIGNIN_FREE + 9, DOM_SIGNIN_FREE) == 512000);
		CHECK(dom_signin_delay_ms(DOM_SIGNIN_FREE + 10, DOM_SIGNIN_FREE) == DOM_SIGNIN_DELAY_CAP_MS);
		CHECK(dom_signin_delay_ms(1LL << 40, DOM_SIGNIN_FREE) == DOM_SIGNIN_DELAY_CAP_MS);
	}

	/* a reset revokes the user's API tokens (and bumps their generation);
	 * --keep-tokens keeps them; the first password revokes nothing */
	{
		char t1[TOKEN_LEN + 1], th[65];
		int64_t g0 = -1, g1 = -1, n = -1;
		const char *owner = NULL;
		struct user row;

		CHECK(token_issue(&tx, u.id, t1) == 0);
		CHECK(sha256_hex(th, t1, strlen(t1)) == 0);
		CHECK(store_token_owner(&tx, th, &row, &g0) == 0);
		CHECK_STR(row.id, u.id);
		CHECK_STR(row.email, u.email);
		CHECK(dom_password_set(&d, u.id, h, true, &n) == 0 && n == 0);
		CHECK(store_token_user(&tx, th, &owner) == 0);
		CHECK(dom_password_set(&d, u.id, h, false, &n) == 0 && n == 1);
		CHECK(store_token_user(&tx, th, &owner) == ERR_NOT_FOUND);
		CHECK(store_token_gen(&tx, u.id, &row, &g1) == 0 && g1 > g0);
		CHECK_STR(row.id, u.id);
		CHECK(store_token_gen(&tx, "no-such-user", &row, &g1) == ERR_NOT_FOUND);
		CHECK(d.tokens_revoked);
		{
			struct user w;
			unit_new_user(&tx, "first", NULL, &w);
			CHECK(token_issue(&tx, w.id, t1) == 0);
			CHECK(sha256_hex(th, t1, strlen(t1)) == 0);
			CHECK(dom_password_set(&d, w.id, h, false, &n) == 0 && n == 0);
			CHECK(store_token_user(&tx, th, &owner) == 0);
		}
	}
	store_tx_rollback(&tx);
	arena_free(&a);
}

UNIT_TEST_ON_ENGINES(sessions, sessions_suite)
