/*
 * members.c - an organization's members: list, read, role, removal, SSO, the
 * ping that records lastSeenAt, and a member's teams (domain/members.h).
 */
#include "domain/members.h"
#include "domain/integrations.h"
#include "domain/secrets.h"
#include "json/jsonw.h"
#include "format/jwt.h"
#include "util/err.h"
#include "util/util.h"

#include <string.h>
#include <strings.h>

/* How long the visitor claims of a ping stay valid. */
#define VISITOR_CLAIMS_TTL_S 3600

int dom_members_list(struct dom *d, const char *org_id, const struct member_filter *f, const struct list_req *lr,
		     struct member **items, int *n, char **next)
{
	int rc = dom_org_require(d, org_id, ORG_ACCESS_MEMBER);
	struct list_req l = dom_list_counted(d, lr, org_id, NULL);

	return rc ? rc : store_members_list(d->tx, org_id, f, &l, items, n, next);
}

int dom_member_get(struct dom *d, const char *org_id, const char *user_id, struct member *out)
{
	int rc = dom_org_require(d, org_id, ORG_ACCESS_MEMBER);

	return rc ? rc : store_member_get(d->tx, org_id, user_id, out);
}

/* The organization must keep an admin: refuse to demote or remove the last
 * one (m, a member of org_id, is about to stop being an admin). */
static int keep_an_admin(struct dom *d, const char *org_id, const struct member *m)
{
	int64_t admins = 0;
	int rc;

	if (m->role != ROLE_ADMIN)
		return 0;
	/* Two admins demoting each other at once must not leave none: the count
	 * is read under the organization's lock, which the change keeps until
	 * the transaction ends. */
	if ((rc = store_org_lock(d->tx, org_id)) || (rc = store_admin_count(d->tx, org_id, &admins)))
		return rc;
	if (admins <= 1)
		return err_set(ERR_INVALID, "the organization must keep at least one admin");
	return 0;
}

int dom_member_update(struct dom *d, const char *org_id, const char *user_id, const struct member_input *in,
		      struct member *out)
{
	int rc;

	if ((rc = dom_org_require(d, org_id, ORG_ACCESS_ADMIN)) || (rc = store_member_get(d->tx, org_id, user_id, out)))
		return rc;
	if (!in->has_role)
		return 0;
	if ((in->role != ROLE_ADMIN && (rc = keep_an_admin(d, org_id, out))) ||
	    (rc = store_member_set_role(d->tx, org_id, user_id, in->role)))
		return rc;
	return store_member_get(d->tx, org_id, user_id, out);
}

int dom_member_remove(struct dom *d, const char *org_id, const char *user_id, bool *removed)
{
	struct member m;
	int rc;

	*removed = false;
	if ((rc = dom_org_require(d, org_id, ORG_ACCESS_ADMIN)))
		return rc;
	rc = store_member_get(d->tx, org_id, user_id, &m);
	if (rc == ERR_NOT_FOUND) {
		err_clear();
		return 0;
	}
	if (rc || (rc = keep_an_admin(d, org_id, &m)))
		return rc;
	return store_member_remove(d->tx, org_id, user_id, removed);
}

/* The claims of the visitor JWT that updateOrganizationMemberLastSeenAt signs
 * (format/jwt.h): {sub: user id, org, role: a role name or "guest", iat, exp}
 * (seconds since the epoch). */
static void visitor_jwt_claims_to_json(struct jw *g, const char *user_id, const char *org_id, enum role role, int64_t iat,
				int64_t exp)
{
	const char *name = role_name(role);

	jw_obj_open(g);
	jw_kstr(g, "sub", user_id);
	jw_kstr(g, "org", org_id);
	jw_kstr(g, "role", name ? name : "guest");
	jw_kint(g, "iat", iat);
	jw_kint(g, "exp", exp);
	jw_obj_close(g);
}

/* Whether email's domain is one of the organization's emailDomains (a JSON
 * array of lower-case names, e.g. ["acme.com"]). */
static bool email_domain_verified(const struct org *o, const char *email)
{
	const char *at = email ? strrchr(email, '@') : NULL, *p = o->email_domains;
	size_t n;

	if (!at || !p || !*++at)
		return false;
	n = strlen(at);
	/* Each domain stands quoted in the array; compare case-insensitively. */
	while ((p = strchr(p, '"'))) {
		const char *end = strchr(++p, '"');
		if (!end)
			break;
		if ((size_t)(end - p) == n && strncasecmp(p, at, n) == 0)
			return true;
		p = end + 1;
	}
	return false;
}

int dom_member_set_sso(struct dom *d, const char *org_id, const char *user_id, struct member *out)
{
	struct org o;
	struct user u;
	bool added;
	int rc;

	struct member m;

	if ((rc = dom_org_require(d, org_id, ORG_ACCESS_ADMIN)) || (rc = store_org_get(d->tx, org_id, &o)))
		return rc;
	/* Only members, or users whose email domain the organization verified
	 * (emailDomains): an admin may not pull any user of the server in, nor
	 * learn their email. Anyone else is "not found", whether or not the id
	 * exists. */
	rc = store_member_get(d->tx, org_id, user_id, &m);
	if (rc == ERR_NOT_FOUND) {
		rc = store_user_get(d->tx, user_id, &u);
		if (rc == ERR_NOT_FOUND || (rc == 0 && !email_domain_verified(&o, u.email)))
			return err_set(ERR_NOT_FOUND, "member not found");
	}
	if (rc)
		return rc;
	/* A user who is not a member yet joins with the organization's default role. */
	if ((rc = store_member_add(d->tx, org_id, user_id, o.default_role, 1, &added)) ||
	    (rc = store_member_set_sso(d->tx, org_id, user_id)))
		return rc;
	return store_member_get(d->tx, org_id, user_id, out);
}

int dom_member_ping(struct dom *d, const char *org_id, const char **jwt)
{
	int64_t now = clock_now_ms();
	const char *secret;
	struct jw claims;
	int rc;

	*jwt = NULL;
	if ((rc = dom_org_require(d, org_id, ORG_ACCESS_VIEW)))
		return rc;
	if (!d->actor.user_id)
		return err_set(ERR_INVALID, "docsd itself is not a member: it has no visitor claims");
	/* An installation token stands as a guest but is no member: no
	 * lastSeenAt, and no visitor claims to present to the organization's
	 * visitor-auth sites as if its user were one. */
	if ((rc = dom_member_check(d)))
		return rc;
	if ((rc = store_member_touch(d->tx, org_id, d->actor.user_id, now)) ||
	    (rc = dom_secret(d->srv, d->tx, DOM_SECRET_JWT, &secret)))
		return rc;
	jw_init(&claims);
	visitor_jwt_claims_to_json(&claims, d->actor.user_id, org_id, d->actor.org.role, now / 1000,
				   now / 1000 + VISITOR_CLAIMS_TTL_S);
	rc = jw_ok(&claims) ? jwt_hs256_sign(d->arena, secret, claims.buf, claims.len, jwt)
			    : err_set(ERR_INTERNAL, "out of memory");
	jw_free(&claims);
	return rc;
}
