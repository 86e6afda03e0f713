/*
 * SAML's trust model (domain/saml_sso.h) on both engines, without XML: the
 * assertions are the structs format/saml.c fills after verifying one.
 * A member with no link is refused; a link binds (provider, subject) to the
 * signed-in user whose address the assertion names; an unverified domain
 * creates nothing, a verified one creates an account that the provider then
 * signs in again; the browser nonce must match; pending requests are capped
 * per provider; ssoURL's rule.
 */
#include "domain/saml_sso.h"
#include "server.h"
#include "unit.h"
#include "util/err.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONCE "0000000000000000000000000000000000000000000000000000000000000001"
#define OTHER "0000000000000000000000000000000000000000000000000000000000000002"

struct fx {
	struct store *s;
	struct store_tx tx;
	struct arena a;
	struct dom d;
	struct saml_provider sp;
};

static struct dom *as(struct fx *f, const char *user_id)
{
	dom_init(&f->d, NULL, &f->tx, &f->a, user_id);
	return &f->d;
}

/* Start a request (link_user_id: a link) and answer it with email: finish's code. */
static int round_trip(struct fx *f, const char *link_user_id, const char *email, const char *nonce,
		      struct saml_sso_result *res)
{
	struct saml_provider sp;
	const char *id;
	char aid[24];
	int rc;

	CHECK(dom_saml_sso_start(as(f, link_user_id), f->sp.id, "/next", NONCE, link_user_id, &sp, &id) == 0);
	random_alnum(aid + 1, 20);
	aid[0] = '_';
	struct saml_assertion as_ = { .assertion_id = arena_strdup(&f->a, aid), .in_response_to = id,
				      .expires_ms = clock_now_ms() + 60000, .name_id = email, .email = email };
	rc = dom_saml_sso_finish(as(f, NULL), &f->sp, &as_, nonce, res);
	if (rc)
		err_clear();
	return rc;
}

static void suite(struct store *s)
{
	struct fx f = { .s = s };
	struct user alice, bob, carol;
	struct org org = { 0 };
	struct saml_sso_result res;
	struct domain_verification *v;
	char domain[64], email[128], r[9];
	bool added;
	int n;

	arena_init(&f.a);
	random_alnum(r, 8);
	snprintf(domain, sizeof(domain), "sso-%s.example.com", r);
	for (char *c = domain; *c; c++)
		if (*c >= 'A' && *c <= 'Z')
			*c = (char)(*c - 'A' + 'a');
	CHECK(store_tx_begin(s, &f.tx, 1, &f.a) == 0);
	unit_new_user(&f.tx, "alice", NULL, &alice);
	unit_new_user(&f.tx, "bob", domain, &bob);
	unit_new_user(&f.tx, "carol", domain, &carol);
	org.title = "SSO";
	org.email_domains = "[]";
	org.default_role = ROLE_READ;
	CHECK(store_org_create(&f.tx, &org, alice.id) == 0);
	const char *const domains[] = { domain };
	CHECK(store_org_set_email_domains(&f.tx, org.id, domains, 1) == 0);
	CHECK(store_member_add(&f.tx, org.id, bob.id, ROLE_READ, 0, &added) == 0 && added);
	f.sp = (struct saml_provider){ .org_id = org.id, .label = "IdP", .entity_id = "https://idp.example/e",
				       .certificate = "PEM", .sso_url = "https://idp.example/sso",
				       .default_role = ROLE_EDIT };
	CHECK(store_saml_create(&f.tx, &f.sp) == 0);

	/* a member (invitation, grant: however) with no link: refused */
	CHECK(round_trip(&f, NULL, bob.email, NONCE, &res) == ERR_FORBIDDEN);
	/* the browser's nonce must be the request's */
	CHECK(round_trip(&f, NULL, bob.email, OTHER, &res) == ERR_FORBIDDEN);
	CHECK(round_trip(&f, NULL, bob.email, NULL, &res) == ERR_FORBIDDEN);
	/* a link: the user's own address only; not a non-member's */
	CHECK(round_trip(&f, bob.id, carol.email, NONCE, &res) == ERR_FORBIDDEN);
	{
		struct saml_provider sp;
		const char *id;
		CHECK(dom_saml_sso_start(as(&f, carol.id), f.sp.id, NULL, NONCE, carol.id, &sp, &id) == ERR_NOT_FOUND);
		err_clear();
	}
	CHECK(round_trip(&f, bob.id, bob.email, NONCE, &res) == 0 && res.linked);
	CHECK_STR(res.user_id, bob.id);
	/* linked: bob signs in (the subject compared without case) */
	snprintf(email, sizeof(email), "%s", bob.email);
	for (char *c = email; *c; c++)
		if (*c >= 'a' && *c <= 'z')
			*c = (char)(*c - 'a' + 'A');
	CHECK(round_trip(&f, NULL, email, NONCE, &res) == 0 && !res.linked);
	CHECK_STR(res.user_id, bob.id);
	CHECK_STR(res.next, "/next");
	/* a second link of bob's, or of the same subject: refused */
	CHECK(round_trip(&f, bob.id, bob.email, NONCE, &res) == ERR_FORBIDDEN);

	/* a new address of the listed domain: nothing until it is verified */
	snprintf(email, sizeof(email), "new-%s@%s", r, domain);
	CHECK(round_trip(&f, NULL, email, NONCE, &res) == ERR_FORBIDDEN);
	CHECK(dom_domain_list(as(&f, bob.id), org.id, &v, &n) == ERR_FORBIDDEN);
	err_clear();
	CHECK(dom_domain_list(as(&f, alice.id), org.id, &v, &n) == 0 && n == 1 && v[0].token && !v[0].verified_at);
	const char *token = v[0].token;
	CHECK(dom_domain_list(as(&f, alice.id), org.id, &v, &n) == 0 && n == 1);
	CHECK_STR(v[0].token, token); /* issued once */
	CHECK(dom_domain_verify_commit(as(&f, alice.id), org.id, domain, "docsd-verification=wrong") == ERR_CONFLICT);
	err_clear();
	CHECK(dom_domain_verify_commit(as(&f, alice.id), org.id, domain, token) == 0);
	CHECK(round_trip(&f, NULL, email, NONCE, &res) == 0);
	const char *created = res.user_id;
	struct member m;
	CHECK(store_member_get(&f.tx, org.id, created, &m) == 0 && m.sso && m.role == ROLE_EDIT);
	CHECK(round_trip(&f, NULL, email, NONCE, &res) == 0);
	CHECK_STR(res.user_id, created);
	/* an existing account of the verified domain: never pulled in */
	CHECK(round_trip(&f, NULL, carol.email, NONCE, &res) == ERR_FORBIDDEN);
	CHECK(store_member_get(&f.tx, org.id, carol.id, &m) == ERR_NOT_FOUND);
	err_clear();
	/* the domain leaves the list: verified no more */
	CHECK(store_org_set_email_domains(&f.tx, org.id, NULL, 0) == 0);
	snprintf(email, sizeof(email), "newer-%s@%s", r, domain);
	CHECK(round_trip(&f, NULL, email, NONCE, &res) == ERR_FORBIDDEN);

	/* an ssoURL stored before the rule (plain http) is not followed */
	{
		struct saml_provider old = { .org_id = org.id, .label = "Old", .entity_id = "e", .certificate = "PEM",
					     .sso_url = "http://idp.example/sso", .default_role = ROLE_READ }, sp;
		const char *id;
		CHECK(store_saml_create(&f.tx, &old) == 0);
		CHECK(dom_saml_sso_start(as(&f, NULL), old.id, NULL, NONCE, NULL, &sp, &id) == ERR_NOT_FOUND);
		err_clear();
	}

	/* at most max_pending requests per provider: the oldest go */
	{
		struct saml_request q;
		int64_t now = clock_now_ms();
		CHECK(store_saml_request_add(&f.tx, "_cap1", f.sp.id, NULL, NONCE, NULL, 2, now - 3, now + 60000) == 0);
		CHECK(store_saml_request_add(&f.tx, "_cap2", f.sp.id, NULL, NONCE, NULL, 2, now - 2, now + 60000) == 0);
		CHECK(store_saml_request_add(&f.tx, "_cap3", f.sp.id, NULL, NONCE, NULL, 2, now - 1, now + 60000) == 0);
		CHECK(store_saml_request_take(&f.tx, "_cap1", f.sp.id, now, &q) == ERR_NOT_FOUND);
		err_clear();
		CHECK(store_saml_request_take(&f.tx, "_cap3", f.sp.id, now, &q) == 0);
		CHECK_STR(q.nonce_hash, NONCE);
	}
	store_tx_rollback(&f.tx);
	arena_free(&f.a);
}

UNIT_TEST_ON_ENGINES(domain_saml_sso, suite)

UNIT_TEST(domain_saml_sso_url)
{
	struct dom d = { 0 };

	CHECK(dom_saml_sso_url_check(&d, "https://idp.example.com/sso?x=1") == 0);
	CHECK(dom_saml_sso_url_check(&d, "javascript:alert(1)") == ERR_INVALID);
	CHECK(dom_saml_sso_url_check(&d, "http://idp.example.com/sso") == ERR_INVALID);
	/* loopback http only under --allow-private-network (a server; none here) */
	CHECK(dom_saml_sso_url_check(&d, "http://127.0.0.1:8080/sso") == ERR_INVALID);
	CHECK(dom_saml_sso_url_check(&d, "https://u:p@idp.example.com/sso") == ERR_INVALID);
	CHECK(dom_saml_sso_url_check(&d, "https://u@idp.example.com/sso") == ERR_INVALID);
	CHECK(dom_saml_sso_url_check(&d, "https://idp.example.com/sso#f") == ERR_INVALID);
	CHECK(dom_saml_sso_url_check(&d, "https://") == ERR_INVALID);
	CHECK(dom_saml_sso_url_check(&d, "data:text/html,x") == ERR_INVALID);
	/* under --allow-private-network: http on a loopback address, not on a name that looks like one */
	struct server *srv = calloc(1, sizeof(*srv));
	srv->cfg.allow_private_network = true;
	d.srv = srv;
	CHECK(dom_saml_sso_url_check(&d, "http://127.0.0.1:8080/sso") == 0);
	CHECK(dom_saml_sso_url_check(&d, "http://[::1]:8080/sso") == 0);
	CHECK(dom_saml_sso_url_check(&d, "http://localhost/sso") == 0);
	CHECK(dom_saml_sso_url_check(&d, "http://127.example.com/sso") == ERR_INVALID);
	CHECK(dom_saml_sso_url_check(&d, "http://10.0.0.1/sso") == ERR_INVALID);
	CHECK(dom_saml_sso_url_check(&d, "http://u:p@127.0.0.1/sso") == ERR_INVALID);
	free(srv);
	err_clear();
}
