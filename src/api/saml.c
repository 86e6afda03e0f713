/*
 * saml.c - an organization's SAML identity providers (admins manage them) and
 * the list of providers its members may sign in with (any member).
 *
 * A provider is 'pending' until its ssoURL, entityID and certificate are all
 * set, then 'active'. Those three may be sent as "" or null to unset them (and
 * ssoURL as about:blank, which is how an unset ssoURL is written, the schema
 * wanting a URI), so a provider read back and sent again unchanged is accepted.
 * A provider created without defaultRole takes the organization's defaultRole
 * (the role of members who join without one); null is a guest.
 */
#include "api/api.h"
#include "core/serialize_meta.h"
#include "core/validate.h"

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

/* body_string for a field that "" or null unsets (*out = NULL). */
static int body_unsettable(struct req *r, const char *field, long maxlen, const char **out)
{
	int rc = body_string(r, field, F_NULLABLE, 0, maxlen, out);

	if (rc == 1 && *out && !**out)
		*out = NULL;
	return rc;
}

/* Apply the body's fields to sp; absent fields leave sp unchanged. */
static int read_provider(struct req *r, struct saml_provider *sp, int create)
{
	const char *s;
	int rc;

	if ((rc = body_string(r, "label", create ? F_REQUIRED : 0, 1, 30, &s)) < 0)
		return rc;
	if (rc)
		sp->label = s;
	if ((rc = body_unsettable(r, "entityID", 1024, &s)) < 0)
		return rc;
	if (rc)
		sp->entity_id = s;
	if ((rc = body_unsettable(r, "certificate", 10000, &s)) < 0)
		return rc;
	if (rc) {
		int pem = s ? pem_certificate(s) : 1;
		if (pem < 0)
			return err_set(ERR_INTERNAL, "out of memory");
		if (!pem)
			return err_set(ERR_INVALID, "certificate: must be an X.509 certificate in PEM form "
						    "(-----BEGIN CERTIFICATE-----)");
		sp->certificate = s;
	}
	if ((rc = body_unsettable(r, "ssoURL", 2048, &s)) < 0)
		return rc;
	if (rc) {
		if (s && strcmp(s, SAML_NO_SSO_URL) == 0)
			s = NULL;
		if (s && !valid_url(s))
			return err_set(ERR_INVALID, "ssoURL: must be an absolute http or https URL");
		sp->sso_url = s;
	}
	if ((rc = body_string(r, "defaultTeam", F_NULLABLE, 1, 64, &s)) < 0)
		return rc;
	if (rc) {
		if (s && (rc = store_team_get(&r->tx, r->dom.actor.org_id, s, &sp->team)))
			return rc == ERR_NOT_FOUND ? err_set(ERR_INVALID, "defaultTeam: '%s' is not a team of the organization", s)
						   : rc;
		sp->default_team = s;
	}
	if ((rc = body_role(r, "defaultRole", F_NULLABLE, &sp->default_role)) < 0)
		return rc;
	return 0;
}

static int send_provider(struct req *r, int status, const struct saml_provider *sp)
{
	struct jw *g = resp_json(r, status);

	if (!g)
		return err_set(ERR_INTERNAL, "out of memory");
	saml_provider_to_json(g, api_base(r), sp, r->dom.actor.org.role);
	return 0;
}

int saml_list(struct req *r)
{
	struct list_req lr;
	struct cursor cur;
	struct saml_provider *items;
	char *next;
	struct jw *g;
	int n, rc;

	if ((rc = req_list(r, &lr, &cur, NULL, 0)) || (rc = store_saml_list(&r->tx, r->dom.actor.org_id, &lr, &items, &n, &next)))
		return rc;
	if (!(g = resp_list_begin(r)))
		return err_set(ERR_INTERNAL, "out of memory");
	for (int i = 0; i < n; i++)
		saml_provider_to_json(g, api_base(r), &items[i], r->dom.actor.org.role);
	return resp_list_end(r, n, next);
}

int saml_create(struct req *r)
{
	struct saml_provider sp = { .org_id = r->dom.actor.org_id, .default_role = r->dom.actor.org.org_default };
	const char *loc;
	int rc;

	if ((rc = read_provider(r, &sp, 1)) || (rc = store_saml_create(&r->tx, &sp)))
		return rc;
	loc = arena_printf(&r->arena, "%s/v1/orgs/%s/saml/%s", api_base(r), r->dom.actor.org_id, sp.id);
	if (!loc || (rc = resp_header(r, "Location", loc)))
		return loc ? rc : err_set(ERR_INTERNAL, "out of memory");
	return send_provider(r, 201, &sp);
}

int saml_get(struct req *r)
{
	struct saml_provider sp;
	int rc = store_saml_get(&r->tx, r->dom.actor.org_id, req_param(r, "samlProviderId"), &sp);

	return rc ? rc : send_provider(r, 200, &sp);
}

int saml_update(struct req *r)
{
	struct saml_provider sp;
	int rc;

	if ((rc = store_saml_get(&r->tx, r->dom.actor.org_id, req_param(r, "samlProviderId"), &sp)) ||
	    (rc = read_provider(r, &sp, 0)) || (rc = store_saml_update(&r->tx, &sp)))
		return rc;
	return send_provider(r, 200, &sp);
}

int saml_delete(struct req *r)
{
	bool removed;
	int rc = store_saml_delete(&r->tx, r->dom.actor.org_id, req_param(r, "samlProviderId"), &removed);

	if (rc)
		return rc;
	/* GitBook: 205 when the provider was deleted, 204 when it did not exist. */
	return resp_empty(r, removed ? 205 : 204);
}

int sso_logins(struct req *r)
{
	struct list_req lr = { .limit = 1000 };
	struct saml_provider *items;
	struct cursor cur;
	char *next;
	struct jw *g;
	int n, rc;

	/* {items} with no pagination: every provider, oldest first, read 1000 at a time. */
	if (!(g = resp_json(r, 200)))
		return err_set(ERR_INTERNAL, "out of memory");
	wrapped_list_open(g, "items");
	do {
		if ((rc = store_saml_list(&r->tx, r->dom.actor.org_id, &lr, &items, &n, &next)))
			return rc;
		for (int i = 0; i < n; i++)
			saml_login_to_json(g, api_base(r), &items[i]);
		if (next && (rc = cursor_decode(&r->arena, next, &cur)))
			return rc;
		lr.after = &cur;
	} while (next);
	wrapped_list_close(g);
	return 0;
}
