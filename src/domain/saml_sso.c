/*
 * saml_sso.c - signing in through an organization's SAML provider
 * (domain/saml_sso.h draws the steps and states who may sign in).
 */
#include "domain/saml_sso.h"
#include "util/err.h"
#include "util/util.h"

#include <string.h>
#include <strings.h>

int dom_saml_sso_provider(struct dom *d, const char *provider_id, bool active, struct saml_provider *out)
{
	int rc;

	if (!id_valid(provider_id))
		return err_set(ERR_NOT_FOUND, "SAML provider not found");
	if ((rc = store_saml_get_by_id(d->tx, provider_id, out)))
		return rc;
	if (active && (!out->sso_url || !out->entity_id || !out->certificate))
		return err_set(ERR_NOT_FOUND, "this SAML provider is not set up yet (ssoURL, entityID and certificate)");
	return 0;
}

int dom_saml_sso_start(struct dom *d, const char *provider_id, const char *next, struct saml_provider *sp,
		       const char **request_id)
{
	char hex[41];
	int64_t now = clock_now_ms();
	int rc;

	if ((rc = dom_saml_sso_provider(d, provider_id, true, sp)))
		return rc;
	/* An xs:ID must not start with a digit: "_" + 160 random bits. */
	char *id = arena_alloc(d->arena, 43);
	if (random_alnum(hex, 40))
		return err_set(ERR_INTERNAL, "getrandom failed");
	id[0] = '_';
	memcpy(id + 1, hex, 41);
	*request_id = id;
	return store_saml_request_add(d->tx, id, sp->id, next, now, now + SAML_REQUEST_TTL_MS);
}

/* Whether the organization org_id verified email's domain (its emailDomains),
 * read the way the API's email-domain lookup reads it. */
static int domain_verified(struct dom *d, const char *org_id, const char *email, bool *out)
{
	const char *at = strrchr(email, '@');
	struct org *orgs;
	int n, rc;

	*out = false;
	if (!at || !at[1])
		return 0;
	if ((rc = store_orgs_by_email_domain(d->tx, at + 1, &orgs, &n)))
		return rc;
	for (int i = 0; i < n; i++)
		if (strcmp(orgs[i].id, org_id) == 0)
			*out = true;
	return 0;
}

/* The user of as's email, joining sp's organization when the rule allows. */
static int sso_user(struct dom *d, const struct saml_provider *sp, const struct saml_assertion *as, const char **user_id)
{
	struct user u = { 0 };
	struct member m;
	bool verified, added;
	int rc;

	rc = store_user_get_by_email(d->tx, as->email, &u);
	if (rc && rc != ERR_NOT_FOUND)
		return rc;
	if (rc == 0) {
		rc = store_member_get(d->tx, sp->org_id, u.id, &m);
		if (rc == 0) {
			if (m.disabled)
				return err_set(ERR_FORBIDDEN, "your membership of this organization is disabled");
			*user_id = u.id;
			return 0;
		}
		if (rc != ERR_NOT_FOUND)
			return rc;
	}
	err_clear();
	if ((rc = domain_verified(d, sp->org_id, as->email, &verified)))
		return rc;
	if (!verified)
		return err_set(ERR_FORBIDDEN,
			       "%s is not a member of this organization, and its domain is not one of the organization's "
			       "email domains",
			       as->email);
	if (!u.id) {
		/* A new user: the provider's display name, else the address's local part. */
		const char *name = as->display_name;
		if (!name || !*name)
			name = arena_strndup(d->arena, as->email, (size_t)(strchr(as->email, '@') - as->email));
		if ((rc = store_user_create(d->tx, as->email, name, &u)))
			return rc;
	}
	if ((rc = store_member_add(d->tx, sp->org_id, u.id, sp->default_role, 1, &added)) ||
	    (sp->default_team && (rc = store_team_member_set(d->tx, sp->default_team, sp->org_id, u.id, TEAM_MEMBER))))
		return rc;
	*user_id = u.id;
	return 0;
}

int dom_saml_sso_finish(struct dom *d, const struct saml_provider *sp, const struct saml_assertion *as,
			const char **user_id, const char **next)
{
	struct saml_provider now_sp;
	int64_t now = clock_now_ms();
	int rc;

	*user_id = NULL;
	*next = NULL;
	/* The response was verified outside this transaction: the provider must
	 * still be the one whose certificate verified it. */
	if ((rc = dom_saml_sso_provider(d, sp->id, true, &now_sp)))
		return rc;
	if (strcmp(now_sp.certificate, sp->certificate) != 0 || strcmp(now_sp.entity_id, sp->entity_id) != 0)
		return err_set(ERR_FORBIDDEN, "the SAML provider changed while you were signing in: sign in again");
	rc = store_saml_request_take(d->tx, as->in_response_to, sp->id, now, next);
	if (rc == ERR_NOT_FOUND)
		return err_set(ERR_FORBIDDEN, "the SAML response answers no sign-in docsd started (unknown, already used "
					      "or older than 10 minutes): sign in again");
	if (rc)
		return rc;
	/* Kept past its expiry by the clock skew verification allows. */
	rc = store_saml_assertion_use(d->tx, sp->id, as->assertion_id, now, as->expires_ms + SAML_CLOCK_SKEW_MS);
	if (rc == ERR_CONFLICT)
		return err_set(ERR_FORBIDDEN, "this SAML assertion was used already: sign in again");
	if (rc)
		return rc;
	return sso_user(d, &now_sp, as, user_id);
}
