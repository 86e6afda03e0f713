/*
 * saml.c - an organization's SAML identity providers (domain/orgs.h): admins
 * manage them; any member lists the ones to sign in with.
 *
 * A provider is 'pending' until its ssoURL, entityID and certificate are all
 * set, then 'active'. A provider created without defaultRole takes the
 * organization's defaultRole (the role of members who join without one);
 * ROLE_GUEST (null) is a guest.
 */
#include "domain/orgs.h"
#include "domain/saml_sso.h"
#include "model/cursor.h"
#include "model/validate.h"
#include "util/err.h"

#include <string.h>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

/* 1 when s holds a PEM X.509 certificate, 0 when not, -1 when OpenSSL could not allocate. */
static int pem_certificate(const char *s)
{
	BIO *bio = BIO_new_mem_buf(s, -1);
	X509 *x;

	if (!bio)
		return -1;
	x = PEM_read_bio_X509(bio, NULL, NULL, NULL);
	BIO_free(bio);
	/* A failed parse leaves errors on this thread's OpenSSL queue. */
	ERR_clear_error();
	if (!x)
		return 0;
	X509_free(x);
	return 1;
}

/* "" unsets as NULL does. */
static const char *unset_empty(const char *s)
{
	return s && *s ? s : NULL;
}

/* Apply what `in` sets to sp, a provider of org_id, checking each value. */
static int apply(struct dom *d, const char *org_id, const struct saml_input *in, struct saml_provider *sp)
{
	int rc;

	if (in->label)
		sp->label = in->label;
	if (!sp->label || !*sp->label)
		return err_set(ERR_INVALID, "label: is required");
	if (in->has_entity_id)
		sp->entity_id = unset_empty(in->entity_id);
	if (in->has_certificate) {
		const char *pem = unset_empty(in->certificate);
		int ok = pem ? pem_certificate(pem) : 1;
		if (ok < 0)
			return err_set(ERR_INTERNAL, "out of memory");
		if (!ok)
			return err_set(ERR_INVALID, "certificate: must be an X.509 certificate in PEM form "
						    "(-----BEGIN CERTIFICATE-----)");
		sp->certificate = pem;
	}
	if (in->has_sso_url) {
		const char *url = unset_empty(in->sso_url);
		/* One rule for the API and the web form (domain/saml_sso.h). */
		if (url && (rc = dom_saml_sso_url_check(d, url)))
			return rc;
		sp->sso_url = url;
	}
	if (in->has_default_team) {
		const char *team = unset_empty(in->default_team);
		if (team && (rc = store_team_get(d->tx, org_id, team, &sp->team)))
			return rc == ERR_NOT_FOUND
				       ? err_set(ERR_INVALID, "defaultTeam: '%s' is not a team of the organization", team)
				       : rc;
		sp->default_team = team;
	}
	if (in->has_default_role) {
		if (in->default_role < ROLE_GUEST || in->default_role > ROLE_ADMIN)
			return err_set(ERR_INVALID, "defaultRole: must be a role or null");
		sp->default_role = in->default_role;
	}
	return 0;
}

int dom_saml_create(struct dom *d, const char *org_id, const struct saml_input *in, struct saml_provider *out)
{
	struct org o;
	int rc;

	if ((rc = dom_org_require(d, org_id, ORG_ACCESS_ADMIN)) || (rc = store_org_get(d->tx, org_id, &o)))
		return rc;
	*out = (struct saml_provider){ .org_id = o.id, .default_role = o.default_role };
	if ((rc = apply(d, o.id, in, out)))
		return rc;
	return store_saml_create(d->tx, out);
}

int dom_saml_get(struct dom *d, const char *org_id, const char *provider_id, struct saml_provider *out)
{
	int rc = dom_org_require(d, org_id, ORG_ACCESS_ADMIN);

	return rc ? rc : store_saml_get(d->tx, org_id, provider_id, out);
}

int dom_saml_update(struct dom *d, const char *org_id, const char *provider_id, const struct saml_input *in,
		    struct saml_provider *out)
{
	int rc;

	/* Written back whole: read the row locked so that concurrent PATCHes keep
	 * each other's fields (PostgreSQL). */
	if ((rc = dom_org_require(d, org_id, ORG_ACCESS_ADMIN)) ||
	    (rc = store_saml_get_locked(d->tx, org_id, provider_id, out)) || (rc = apply(d, org_id, in, out)))
		return rc;
	return store_saml_update(d->tx, out);
}

int dom_saml_delete(struct dom *d, const char *org_id, const char *provider_id, bool *removed)
{
	int rc = dom_org_require(d, org_id, ORG_ACCESS_ADMIN);

	*removed = false;
	return rc ? rc : store_saml_delete(d->tx, org_id, provider_id, removed);
}

int dom_saml_list(struct dom *d, const char *org_id, const struct list_req *lr, struct saml_provider **items,
		  int *n, char **next)
{
	int rc = dom_org_require(d, org_id, ORG_ACCESS_ADMIN);

	return rc ? rc : store_saml_list(d->tx, org_id, lr, items, n, next);
}

int dom_sso_logins(struct dom *d, const char *org_id, struct saml_provider **items, int *n)
{
	struct list_req lr = { .limit = 1000 };
	struct saml_provider *page, *all = NULL;
	struct cursor cur;
	char *next;
	int got, rc;

	*n = 0;
	*items = NULL;
	if ((rc = dom_org_require(d, org_id, ORG_ACCESS_VIEW)))
		return rc;
	/* Every provider, oldest first, read 1000 at a time. */
	do {
		if ((rc = store_saml_list(d->tx, org_id, &lr, &page, &got, &next)))
			return rc;
		if (!*n) {
			all = page;
		} else if (got) {
			struct saml_provider *grown = arena_alloc(d->arena, sizeof(*grown) * (size_t)(*n + got));
			memcpy(grown, all, sizeof(*grown) * (size_t)*n);
			memcpy(grown + *n, page, sizeof(*grown) * (size_t)got);
			all = grown;
		}
		*n += got;
		if (next && (rc = cursor_decode(d->arena, next, &cur)))
			return rc;
		lr.after = &cur;
	} while (next);
	*items = all;
	return 0;
}
