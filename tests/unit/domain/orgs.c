/*
 * The organization, invite and SAML operations of the domain layer
 * (domain/orgs.h), in-process, without sockets: a store on SQLite (a temporary
 * file) and on PostgreSQL (DOCSD_TEST_PG_URL), users made through store_*
 * calls, then the domain functions called with a struct dom for each actor,
 * asserting results, error codes and the state that follows.
 *
 * The actors: ada, who creates the organization (its admin); ed, a member
 * with the edit role; gus, a guest; sam, not a member; docsd itself (user
 * NULL), admin of every organization. Nothing here goes through the router:
 * each domain function checks the actor's role itself.
 */
#include "domain/orgs.h"
#include "unit.h"
#include "util/err.h"
#include "util/util.h"

#include <stdlib.h>
#include <unistd.h>

static const char cert_pem[] =
	"-----BEGIN CERTIFICATE-----\n"
	"MIIBiTCCAS+gAwIBAgIUPgOOFUzY7WnDI9OfD/THGWarX94wCgYIKoZIzj0EAwIw\n"
	"GjEYMBYGA1UEAwwPaWRwLmV4YW1wbGUuY29tMB4XDTI2MTEyMzIwMjkwMloXDTM2\n"
	"MTEyMDIwMjkwMlowGjEYMBYGA1UEAwwPaWRwLmV4YW1wbGUuY29tMFkwEwYHKoZI\n"
	"zj0CAQYIKoZIzj0DAQcDQgAENoeMpzem48WwVqcdkfx9kFJygbtI17gLgtPyjeVp\n"
	"W9LivE2emWzqcCu437+WDIrBzqXrJyjVANVaz6P+Y2eDZqNTMFEwHQYDVR0OBBYE\n"
	"FLPVpZM08x3io39bNbAOpArfBqUPMB8GA1UdIwQYMBaAFLPVpZM08x3io39bNbAO\n"
	"pArfBqUPMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDSAAwRQIhAPS6GCMY\n"
	"NLTWGDVHf3647H4knuZ2MnkiB6J6ykAiiX5pAiBcsS4D6joN/eRa5af61Q3BvB+h\n"
	"BEiGd6mF3vlq/SExgg==\n"
	"-----END CERTIFICATE-----\n";

struct fx {
	struct arena a;
	struct store_tx tx;
	struct dom d;
	char domain[64];  /* this run's email domain, lower case */
	struct user ada, ed, gus, sam;
	struct dom_org org;
};

/* who-<random>@<domain> */
static void new_user(struct fx *f, const char *who, const char *domain, struct user *u)
{
	unit_new_user(&f->tx, who, domain, u);
}

/* A domain context for u (NULL: docsd itself); its standing starts empty, as
 * in a new request. */
static struct dom *as(struct fx *f, const struct user *u)
{
	dom_init(&f->d, NULL, &f->tx, &f->a, u ? u->id : NULL);
	return &f->d;
}

static enum role role_of(struct fx *f, const char *org_id, const char *user_id)
{
	struct membership m;

	CHECK(store_membership(&f->tx, org_id, user_id, &m) == 0);
	return m.role;
}

static void orgs(struct fx *f)
{
	struct org_input in = { .title = "Acme" };
	const char *domains[1];
	char upper[64], json[96];
	struct dom_org o, *items;
	struct list_req lr = { .limit = 100 };
	char *next;
	bool added;
	int n;

	/* create: the creator is the first admin; domains are stored lower-case */
	for (size_t i = 0; i <= strlen(f->domain); i++)
		upper[i] = (char)(f->domain[i] >= 'a' && f->domain[i] <= 'z' ? f->domain[i] - 32 : f->domain[i]);
	domains[0] = upper;
	in.has_email_domains = true;
	in.email_domains = domains;
	in.n_email_domains = 1;
	CHECK(dom_org_create(as(f, &f->ada), &(struct org_input){ 0 }, &o) == ERR_INVALID);
	CHECK(dom_org_create(as(f, &f->ada), &in, &f->org) == 0);
	snprintf(json, sizeof(json), "[\"%s\"]", f->domain);
	CHECK_STR(f->org.org.email_domains, json);
	CHECK(f->org.actor.role == ROLE_ADMIN && f->org.org.default_role == ROLE_READ);
	CHECK(role_of(f, f->org.org.id, f->ada.id) == ROLE_ADMIN);
	domains[0] = "not a domain";
	CHECK(dom_org_create(as(f, &f->ada), &in, &o) == ERR_INVALID);
	CHECK(store_member_add(&f->tx, f->org.org.id, f->ed.id, ROLE_EDIT, 0, &added) == 0 && added);
	CHECK(store_member_add(&f->tx, f->org.org.id, f->gus.id, ROLE_GUEST, 0, &added) == 0 && added);

	/* docsd itself creates one for a user it names */
	CHECK(dom_org_create(as(f, NULL), &(struct org_input){ .title = "Ownerless" }, &o) == ERR_INVALID);
	CHECK(dom_org_create(as(f, NULL), &(struct org_input){ .title = "Ed's", .owner_id = f->ed.id }, &o) == 0);
	CHECK(o.actor.role == ROLE_ADMIN && role_of(f, o.org.id, f->ed.id) == ROLE_ADMIN);
	CHECK(dom_org_create(as(f, &f->ada), &(struct org_input){ .title = "Not mine", .owner_id = f->ed.id }, &o) ==
	      ERR_FORBIDDEN);

	/* read: non-members learn nothing; guests read with their own standing */
	CHECK(dom_org_get(as(f, &f->sam), f->org.org.id, &o) == ERR_NOT_FOUND);
	CHECK(dom_org_get(as(f, &f->gus), f->org.org.id, &o) == 0 && o.actor.role == ROLE_GUEST);
	CHECK(dom_org_get(as(f, &f->ed), f->org.org.id, &o) == 0 && o.actor.role == ROLE_EDIT);
	CHECK(dom_org_get(as(f, NULL), f->org.org.id, &o) == 0 && o.actor.role == ROLE_ADMIN);
	CHECK(dom_org_get(as(f, NULL), "nosuchorg", &o) == ERR_NOT_FOUND);

	/* settings: admins only */
	CHECK(dom_org_update(as(f, &f->sam), f->org.org.id, &(struct org_input){ .title = "Sam's" }, &o) == ERR_NOT_FOUND);
	CHECK(dom_org_update(as(f, &f->ed), f->org.org.id, &(struct org_input){ .title = "Ed's" }, &o) == ERR_FORBIDDEN);
	CHECK(dom_org_update(as(f, &f->gus), f->org.org.id, &(struct org_input){ .title = "Gus's" }, &o) == ERR_FORBIDDEN);
	CHECK(dom_org_get(as(f, &f->ada), f->org.org.id, &o) == 0);
	CHECK_STR(o.org.title, "Acme");
	CHECK(dom_org_update(as(f, &f->ada), f->org.org.id,
			     &(struct org_input){ .title = "Acme Docs", .has_logo = true, .logo = "https://example.com/l.png",
						  .has_default_role = true, .default_role = ROLE_COMMENT, .has_ai = true,
						  .ai = true },
			     &o) == 0);
	CHECK_STR(o.org.title, "Acme Docs");
	CHECK_STR(o.org.logo, "https://example.com/l.png");
	CHECK(o.org.default_role == ROLE_COMMENT && o.org.ai && o.actor.role == ROLE_ADMIN);
	/* what the update did not name stays */
	CHECK_STR(o.org.email_domains, json);
	/* bad values are refused, naming nothing changed */
	CHECK(dom_org_update(as(f, &f->ada), f->org.org.id, &(struct org_input){ .title = "X", .hostname = "-bad-" }, &o) ==
	      ERR_INVALID);
	CHECK(dom_org_update(as(f, &f->ada), f->org.org.id, &(struct org_input){ .has_logo = true, .logo = "ftp://x" }, &o) ==
	      ERR_INVALID);
	CHECK(dom_org_update(as(f, &f->ada), f->org.org.id,
			     &(struct org_input){ .has_default_content = true, .default_site = "site1" }, &o) == ERR_INVALID);
	/* docsd itself is an admin */
	CHECK(dom_org_update(as(f, NULL), f->org.org.id, &(struct org_input){ .has_logo = true, .logo = NULL }, &o) == 0);
	CHECK(o.org.logo == NULL);
	CHECK_STR(o.org.title, "Acme Docs");

	/* lists: the actor's own organizations, each with the actor's standing */
	CHECK(dom_orgs_list(as(f, &f->gus), &lr, &items, &n, &next) == 0 && n == 1);
	CHECK_STR(items[0].org.id, f->org.org.id);
	CHECK(items[0].actor.role == ROLE_GUEST);
	CHECK(dom_orgs_list(as(f, &f->ed), &lr, &items, &n, &next) == 0 && n == 2);
	CHECK(dom_orgs_list(as(f, &f->sam), &lr, &items, &n, &next) == 0 && n == 0);
	CHECK(dom_orgs_list(as(f, NULL), &lr, &items, &n, &next) == 0 && n == 0);

	/* by email domain: only the actor's own domain (any case) */
	CHECK(dom_orgs_by_email_domain(as(f, &f->ed), upper, &items, &n) == 0 && n == 1);
	CHECK_STR(items[0].org.id, f->org.org.id);
	CHECK(items[0].actor.role == ROLE_EDIT);
	CHECK(dom_orgs_by_email_domain(as(f, &f->sam), f->domain, &items, &n) == 0 && n == 1 &&
	      items[0].actor.role == ROLE_NONE);
	CHECK(dom_orgs_by_email_domain(as(f, &f->ada), f->domain, &items, &n) == 0 && n == 0);
	CHECK(dom_orgs_by_email_domain(as(f, NULL), f->domain, &items, &n) == 0 && n == 1 &&
	      items[0].actor.role == ROLE_ADMIN);
}

static void invite_users(struct fx *f)
{
	const char *org_id = f->org.org.id, **added;
	char fresh[128], other[128], third[128], r[9];
	struct user u;
	int n;

	random_alnum(r, 8);
	snprintf(fresh, sizeof(fresh), "fresh-%s@%s", r, f->domain);
	snprintf(other, sizeof(other), "other-%s@%s", r, f->domain);
	snprintf(third, sizeof(third), "third-%s@%s", r, f->domain);

	/* admins only */
	CHECK(dom_org_invite_users(as(f, &f->sam), org_id,
				   &(struct org_invite_input){ .emails = &(struct org_invitee){ .email = fresh }, .n = 1 }, &added,
				   &n) == ERR_NOT_FOUND);
	CHECK(dom_org_invite_users(as(f, &f->ed), org_id,
				   &(struct org_invite_input){ .emails = &(struct org_invitee){ .email = fresh }, .n = 1 }, &added,
				   &n) == ERR_FORBIDDEN);
	CHECK(store_user_get_by_email(&f->tx, fresh, &u) == ERR_NOT_FOUND);

	/* one bad address: nobody is added */
	CHECK(dom_org_invite_users(as(f, &f->ada), org_id,
				   &(struct org_invite_input){
					   .emails = (struct org_invitee[]){ { .email = fresh }, { .email = "not-an-email" } }, .n = 2 },
				   &added, &n) == ERR_INVALID);
	CHECK(store_user_get_by_email(&f->tx, fresh, &u) == ERR_NOT_FOUND);

	/* without a role: the organization's defaultRole (comment, set by orgs()) */
	CHECK(dom_org_invite_users(as(f, &f->ada), org_id,
				   &(struct org_invite_input){ .emails = &(struct org_invitee){ .email = fresh }, .n = 1 }, &added,
				   &n) == 0 && n == 1);
	CHECK(store_user_get_by_email(&f->tx, fresh, &u) == 0);
	CHECK_STR(added[0], u.id);
	CHECK(role_of(f, org_id, u.id) == ROLE_COMMENT);
	/* a member again: not added twice */
	CHECK(dom_org_invite_users(as(f, &f->ada), org_id,
				   &(struct org_invite_input){ .emails = &(struct org_invitee){ .email = fresh }, .n = 1 }, &added,
				   &n) == 0 && n == 0);

	/* the request's role, and one invitee's own (null: a guest); docsd itself invites */
	CHECK(dom_org_invite_users(as(f, NULL), org_id,
				   &(struct org_invite_input){
					   .emails = (struct org_invitee[]){ { .email = other }, { .email = third, .has_role = true, .role = ROLE_GUEST } },
					   .n = 2, .has_role = true, .role = ROLE_REVIEW },
				   &added, &n) == 0 && n == 2);
	CHECK(store_user_get_by_email(&f->tx, other, &u) == 0 && role_of(f, org_id, u.id) == ROLE_REVIEW);
	CHECK(store_user_get_by_email(&f->tx, third, &u) == 0 && role_of(f, org_id, u.id) == ROLE_GUEST);
}

static void invite_links(struct fx *f)
{
	const char *org_id = f->org.org.id;
	struct invite inv, got, *items;
	struct list_req lr = { .limit = 100 };
	bool removed;
	char *next;
	int n;

	CHECK(dom_invite_create(as(f, &f->sam), org_id, false, ROLE_GUEST, &inv) == ERR_NOT_FOUND);
	CHECK(dom_invite_create(as(f, &f->ed), org_id, false, ROLE_GUEST, &inv) == ERR_FORBIDDEN);
	CHECK(dom_invites_list(as(f, &f->ed), org_id, &lr, &items, &n, &next) == ERR_FORBIDDEN);
	CHECK(dom_invites_list(as(f, &f->ada), org_id, &lr, &items, &n, &next) == 0 && n == 0);

	/* without a role: the organization's defaultRole; with one: that role */
	CHECK(dom_invite_create(as(f, &f->ada), org_id, false, ROLE_GUEST, &inv) == 0 && inv.role == ROLE_COMMENT);
	CHECK(dom_invite_create(as(f, NULL), org_id, true, ROLE_GUEST, &got) == 0 && got.role == ROLE_GUEST);
	CHECK(dom_invites_list(as(f, &f->ada), org_id, &lr, &items, &n, &next) == 0 && n == 2);

	CHECK(dom_invite_get(as(f, &f->gus), org_id, inv.id, &got) == ERR_FORBIDDEN);
	CHECK(dom_invite_update(as(f, &f->ed), org_id, inv.id, ROLE_ADMIN, &got) == ERR_FORBIDDEN);
	CHECK(dom_invite_get(as(f, &f->ada), org_id, inv.id, &got) == 0 && got.role == ROLE_COMMENT);
	CHECK(dom_invite_update(as(f, &f->ada), org_id, inv.id, ROLE_EDIT, &got) == 0 && got.role == ROLE_EDIT);
	CHECK(dom_invite_get(as(f, &f->ada), org_id, inv.id, &got) == 0 && got.role == ROLE_EDIT);
	CHECK(dom_invite_update(as(f, &f->ada), org_id, "nosuchinvite", ROLE_EDIT, &got) == ERR_NOT_FOUND);

	CHECK(dom_invite_delete(as(f, &f->ed), org_id, inv.id, &removed) == ERR_FORBIDDEN);
	CHECK(dom_invite_delete(as(f, &f->ada), org_id, inv.id, &removed) == 0 && removed);
	CHECK(dom_invite_delete(as(f, &f->ada), org_id, inv.id, &removed) == 0 && !removed);
	CHECK(dom_invite_get(as(f, &f->ada), org_id, inv.id, &got) == ERR_NOT_FOUND);
}

static void saml(struct fx *f)
{
	const char *org_id = f->org.org.id;
	struct saml_provider sp, got, *items;
	struct list_req lr = { .limit = 100 };
	struct team t = { .org_id = org_id, .title = "SSO people" };
	bool removed;
	char *next;
	int n;

	CHECK(store_team_create(&f->tx, &t) == 0);
	CHECK(dom_saml_create(as(f, &f->sam), org_id, &(struct saml_input){ .label = "Okta" }, &sp) == ERR_NOT_FOUND);
	CHECK(dom_saml_create(as(f, &f->ed), org_id, &(struct saml_input){ .label = "Okta" }, &sp) == ERR_FORBIDDEN);
	CHECK(dom_saml_create(as(f, &f->ada), org_id, &(struct saml_input){ 0 }, &sp) == ERR_INVALID);
	/* a label only: pending, with the organization's defaultRole */
	CHECK(dom_saml_create(as(f, &f->ada), org_id, &(struct saml_input){ .label = "Okta" }, &sp) == 0);
	CHECK(sp.default_role == ROLE_COMMENT && !sp.sso_url && !sp.entity_id && !sp.certificate && !sp.default_team);
	CHECK(store_saml_get_locked(&f->tx, org_id, sp.id, &got) == 0);
	CHECK_STR(got.label, "Okta");
	CHECK(store_saml_get_locked(&f->tx, org_id, "nosuchprovider", &got) == ERR_NOT_FOUND);

	/* values are checked */
	CHECK(dom_saml_update(as(f, &f->ada), org_id, sp.id,
			      &(struct saml_input){ .has_certificate = true, .certificate = "not a certificate" },
			      &got) == ERR_INVALID);
	CHECK(dom_saml_update(as(f, &f->ada), org_id, sp.id,
			      &(struct saml_input){ .has_sso_url = true, .sso_url = "javascript:alert(1)" }, &got) ==
	      ERR_INVALID);
	CHECK(dom_saml_update(as(f, &f->ada), org_id, sp.id,
			      &(struct saml_input){ .has_default_team = true, .default_team = "nosuchteam" }, &got) ==
	      ERR_INVALID);
	CHECK(dom_saml_update(as(f, &f->ed), org_id, sp.id, &(struct saml_input){ .label = "Ed" }, &got) == ERR_FORBIDDEN);

	/* an update changes what it names, the rest stays */
	CHECK(dom_saml_update(as(f, &f->ada), org_id, sp.id,
			      &(struct saml_input){ .has_certificate = true, .certificate = cert_pem, .has_sso_url = true,
						    .sso_url = "https://idp.example.com/sso", .has_default_team = true,
						    .default_team = t.id, .has_default_role = true,
						    .default_role = ROLE_EDIT },
			      &got) == 0);
	CHECK(dom_saml_update(as(f, NULL), org_id, sp.id,
			      &(struct saml_input){ .has_entity_id = true, .entity_id = "https://idp.example.com" }, &got) ==
	      0);
	CHECK(dom_saml_get(as(f, &f->ada), org_id, sp.id, &got) == 0);
	CHECK_STR(got.label, "Okta");
	CHECK_STR(got.certificate, cert_pem);
	CHECK_STR(got.sso_url, "https://idp.example.com/sso");
	CHECK_STR(got.entity_id, "https://idp.example.com");
	CHECK_STR(got.default_team, t.id);
	CHECK(got.default_role == ROLE_EDIT);
	/* "" unsets */
	CHECK(dom_saml_update(as(f, &f->ada), org_id, sp.id, &(struct saml_input){ .has_entity_id = true, .entity_id = "" },
			      &got) == 0 && !got.entity_id);

	/* admins list and read them; any member, guests too, sees the logins */
	CHECK(dom_saml_list(as(f, &f->gus), org_id, &lr, &items, &n, &next) == ERR_FORBIDDEN);
	CHECK(dom_saml_get(as(f, &f->ed), org_id, sp.id, &got) == ERR_FORBIDDEN);
	CHECK(dom_saml_list(as(f, &f->ada), org_id, &lr, &items, &n, &next) == 0 && n == 1);
	CHECK(dom_sso_logins(as(f, &f->gus), org_id, &items, &n) == 0 && n == 1);
	CHECK_STR(items[0].id, sp.id);
	CHECK(dom_sso_logins(as(f, &f->sam), org_id, &items, &n) == ERR_NOT_FOUND);

	CHECK(dom_saml_delete(as(f, &f->ed), org_id, sp.id, &removed) == ERR_FORBIDDEN);
	CHECK(dom_saml_delete(as(f, &f->ada), org_id, sp.id, &removed) == 0 && removed);
	CHECK(dom_saml_delete(as(f, &f->ada), org_id, sp.id, &removed) == 0 && !removed);
	CHECK(dom_sso_logins(as(f, &f->gus), org_id, &items, &n) == 0 && n == 0);
}

static void domain_orgs_suite(struct store *s)
{
	struct fx f;
	struct org o;
	char r[9];

	memset(&f, 0, sizeof(f));
	arena_init(&f.a);
	random_alnum(r, 8);
	for (char *c = r; *c; c++)
		if (*c >= 'A' && *c <= 'Z')
			*c = (char)(*c + 32);
	snprintf(f.domain, sizeof(f.domain), "orgs-%s.example.org", r);
	CHECK(store_tx_begin(s, &f.tx, 1, &f.a) == 0);
	new_user(&f, "ada", "example.com", &f.ada);
	new_user(&f, "ed", f.domain, &f.ed);
	new_user(&f, "gus", "example.com", &f.gus);
	new_user(&f, "sam", f.domain, &f.sam);
	orgs(&f);
	invite_users(&f);
	invite_links(&f);
	saml(&f);
	CHECK(store_org_get_locked(&f.tx, f.org.org.id, &o) == 0);
	CHECK_STR(o.title, "Acme Docs");
	CHECK(store_org_get_locked(&f.tx, "nosuchorg", &o) == ERR_NOT_FOUND);
	CHECK(store_tx_commit(&f.tx) == 0);
	arena_free(&f.a);
}

UNIT_TEST_ON_ENGINES(domain_orgs, domain_orgs_suite)
