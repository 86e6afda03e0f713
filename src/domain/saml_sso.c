/*
 * saml_sso.c - signing in through an organization's SAML provider, links
 * and verified email domains (domain/saml_sso.h draws the steps and states
 * the trust model).
 */
#include "domain/saml_sso.h"
#include "model/validate.h"
#include "server.h"
#include "util/err.h"
#include "util/fetch.h"
#include "util/util.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <curl/curl.h>
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

int dom_saml_sso_start(struct dom *d, const char *provider_id, const char *next, const char *nonce_hash,
		       const char *link_user_id, struct saml_provider *sp, const char **request_id)
{
	char hex[41];
	int64_t now = clock_now_ms();
	struct member m;
	int rc;

	if ((rc = dom_saml_sso_provider(d, provider_id, true, sp)))
		return rc;
	/* An ssoURL stored before the rule existed is not followed either. */
	if (dom_saml_sso_url_check(d, sp->sso_url))
		return err_set(ERR_NOT_FOUND, "this SAML provider's ssoURL is not allowed (https only): an administrator "
					      "must change it");
	if (link_user_id) {
		/* Only a provider of one's own organization is offered (/settings/sso). */
		rc = store_member_get(d->tx, sp->org_id, link_user_id, &m);
		if (rc == ERR_NOT_FOUND || (rc == 0 && m.disabled))
			return err_set(ERR_NOT_FOUND, "SAML provider not found");
		if (rc)
			return rc;
	}
	/* An xs:ID must not start with a digit: "_" + 160 random bits. */
	char *id = arena_alloc(d->arena, 43);
	if (random_alnum(hex, 40))
		return err_set(ERR_INTERNAL, "getrandom failed");
	id[0] = '_';
	memcpy(id + 1, hex, 41);
	*request_id = id;
	return store_saml_request_add(d->tx, id, sp->id, next, nonce_hash, link_user_id, SAML_PENDING_MAX, now,
				      now + SAML_REQUEST_TTL_MS);
}

/* The identity's subject: the NameID (an address lower-cased: the same
 * mailbox however the IdP spells it), else the email. */
static const char *subject_of(struct dom *d, const struct saml_assertion *as)
{
	const char *s = as->name_id && *as->name_id ? as->name_id : as->email;
	char *out;

	if (!strchr(s, '@'))
		return s;
	out = arena_strdup(d->arena, s);
	for (char *c = out; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	return out;
}

/* user_id signing in through sp: an enabled member, or a member again. */
static int join(struct dom *d, const struct saml_provider *sp, const char *user_id)
{
	struct member m;
	bool added;
	int rc = store_member_get(d->tx, sp->org_id, user_id, &m);

	if (rc == 0)
		return m.disabled ? err_set(ERR_FORBIDDEN, "your membership of this organization is disabled") : 0;
	if (rc != ERR_NOT_FOUND)
		return rc;
	err_clear();
	if ((rc = store_member_add(d->tx, sp->org_id, user_id, sp->default_role, 1, &added)) ||
	    (sp->default_team && (rc = store_team_member_set(d->tx, sp->default_team, sp->org_id, user_id, TEAM_MEMBER))))
		return rc;
	return 0;
}

/* The user of as's identity; a new account when as's domain is verified. */
static int sso_user(struct dom *d, const struct saml_provider *sp, const struct saml_assertion *as,
		    const char *subject, const char **user_id)
{
	struct user u = { 0 };
	const char *at = strrchr(as->email, '@');
	bool verified = false;
	int rc;

	rc = store_saml_identity_get(d->tx, sp->id, subject, user_id);
	if (rc == 0)
		return join(d, sp, *user_id);
	if (rc != ERR_NOT_FOUND)
		return rc;
	*user_id = NULL;
	/* Not this provider's identity. An account of that address exists:
	 * only its owner may tie it to the provider. */
	rc = store_user_get_by_email(d->tx, as->email, &u);
	if (rc == 0)
		return err_set(ERR_FORBIDDEN,
			       "an account with the address %s exists already and is not linked to this identity "
			       "provider: sign in another way (your password), then link the provider at /settings/sso",
			       as->email);
	if (rc != ERR_NOT_FOUND)
		return rc;
	err_clear();
	if (at && at[1] && (rc = store_domain_verified(d->tx, sp->org_id, at + 1, &verified)))
		return rc;
	if (!verified)
		return err_set(ERR_FORBIDDEN,
			       "%s has no account linked to this identity provider, and its domain is not a verified "
			       "email domain of the organization",
			       as->email);
	/* A new user: the provider's display name, else the address's local part. */
	const char *name = as->display_name;
	if (!name || !*name)
		name = arena_strndup(d->arena, as->email, (size_t)(at - as->email));
	if ((rc = store_user_create(d->tx, as->email, name, &u)) ||
	    (rc = store_saml_identity_add(d->tx, sp->id, subject, u.id, "created", clock_now_ms())))
		return rc;
	*user_id = u.id;
	return join(d, sp, u.id);
}

/* A link request answered: the assertion's address must be the user's own. */
static int link_user(struct dom *d, const struct saml_provider *sp, const struct saml_assertion *as,
		     const char *subject, const char *user_id)
{
	struct user u;
	struct member m;
	int rc;

	if ((rc = store_user_get(d->tx, user_id, &u)) || (rc = store_member_get(d->tx, sp->org_id, user_id, &m)))
		return rc == ERR_NOT_FOUND ? err_set(ERR_FORBIDDEN, "you are no longer a member of this organization") : rc;
	if (m.disabled)
		return err_set(ERR_FORBIDDEN, "your membership of this organization is disabled");
	if (strcasecmp(u.email, as->email) != 0)
		return err_set(ERR_FORBIDDEN,
			       "the identity provider signed you in as %s, not as your account's address: sign in to the "
			       "provider with your own address",
			       as->email);
	rc = store_saml_identity_add(d->tx, sp->id, subject, user_id, "linked", clock_now_ms());
	if (rc == ERR_CONFLICT)
		return err_set(ERR_FORBIDDEN, "this identity or your account is linked to this provider already");
	return rc;
}

int dom_saml_sso_finish(struct dom *d, const struct saml_provider *sp, const struct saml_assertion *as,
			const char *nonce_hash, struct saml_sso_result *out)
{
	struct saml_provider now_sp;
	struct saml_request req;
	int64_t now = clock_now_ms();
	const char *subject;
	int rc;

	*out = (struct saml_sso_result){ 0 };
	/* The response was verified outside this transaction: the provider must
	 * still be the one whose certificate verified it. */
	if ((rc = dom_saml_sso_provider(d, sp->id, true, &now_sp)))
		return rc;
	if (strcmp(now_sp.certificate, sp->certificate) != 0 || strcmp(now_sp.entity_id, sp->entity_id) != 0)
		return err_set(ERR_FORBIDDEN, "the SAML provider changed while you were signing in: sign in again");
	rc = store_saml_request_take(d->tx, as->in_response_to, sp->id, now, &req);
	if (rc == ERR_NOT_FOUND)
		return err_set(ERR_FORBIDDEN, "the SAML response answers no sign-in docsd started (unknown, already used "
					      "or older than 10 minutes): sign in again");
	if (rc)
		return rc;
	/* Login CSRF: the response must come back to the browser that started
	 * the sign-in (both are SHA-256 hex: comparing them reveals nothing). */
	if (!req.nonce_hash || !nonce_hash || strcmp(req.nonce_hash, nonce_hash) != 0)
		return err_set(ERR_FORBIDDEN, "this browser did not start this sign-in (its cookie is missing): start the "
					      "sign-in again from docsd in this browser");
	/* Kept past its expiry by the clock skew verification allows. */
	rc = store_saml_assertion_use(d->tx, sp->id, as->assertion_id, now, as->expires_ms + SAML_CLOCK_SKEW_MS);
	if (rc == ERR_CONFLICT)
		return err_set(ERR_FORBIDDEN, "this SAML assertion was used already: sign in again");
	if (rc)
		return rc;
	subject = subject_of(d, as);
	out->next = req.next;
	if (req.link_user_id) {
		out->linked = true;
		out->user_id = req.link_user_id;
		return link_user(d, &now_sp, as, subject, req.link_user_id);
	}
	return sso_user(d, &now_sp, as, subject, &out->user_id);
}

/* A loopback host: "localhost", an IPv4 address of 127.0.0.0/8, [::1]
 * (a name such as "127.example.com" is not one). */
static bool loopback_host(const char *h)
{
	struct in_addr a4;

	if (inet_pton(AF_INET, h, &a4) == 1)
		return (ntohl(a4.s_addr) >> 24) == 127;
	return strcasecmp(h, "localhost") == 0 || strcmp(h, "[::1]") == 0;
}

int dom_saml_sso_url_check(const struct dom *d, const char *url)
{
	CURLU *u = curl_url();
	char *scheme = NULL, *user = NULL, *password = NULL, *fragment = NULL, *host = NULL;
	bool allow_http = d->srv && d->srv->cfg.allow_private_network;
	int rc = 0;

	if (!u)
		return err_set(ERR_INTERNAL, "out of memory");
	/* The browser is sent there with the AuthnRequest: a javascript: or
	 * data: URL would run in docsd's origin's redirect, credentials in it
	 * are the admin's secret shown to every member, a fragment has no place
	 * in a redirect with a query. */
	if (strlen(url) > 2048 || !valid_url(url) || curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK || !*host)
		rc = err_set(ERR_INVALID, "ssoURL: must be an absolute https URL");
	else if (strcmp(scheme, "https") != 0 && !(strcmp(scheme, "http") == 0 && allow_http && loopback_host(host)))
		rc = err_set(ERR_INVALID, "ssoURL: must be an https URL");
	else if (curl_url_get(u, CURLUPART_USER, &user, 0) == CURLUE_OK ||
		 curl_url_get(u, CURLUPART_PASSWORD, &password, 0) == CURLUE_OK)
		rc = err_set(ERR_INVALID, "ssoURL: must not contain a user name or password");
	else if (curl_url_get(u, CURLUPART_FRAGMENT, &fragment, 0) == CURLUE_OK)
		rc = err_set(ERR_INVALID, "ssoURL: must not contain a #fragment");
	curl_free(scheme);
	curl_free(user);
	curl_free(password);
	curl_free(fragment);
	curl_free(host);
	curl_url_cleanup(u);
	return rc;
}

int dom_saml_links(struct dom *d, struct saml_link **items, int *n)
{
	*items = NULL;
	*n = 0;
	if (!d->actor.user_id)
		return err_set(ERR_UNAUTHORIZED, "sign in first");
	return store_saml_links_of_user(d->tx, d->actor.user_id, items, n);
}

int dom_saml_unlink(struct dom *d, const char *provider_id, bool *removed)
{
	*removed = false;
	if (!d->actor.user_id)
		return err_set(ERR_UNAUTHORIZED, "sign in first");
	if (!id_valid(provider_id))
		return err_set(ERR_NOT_FOUND, "SAML provider not found");
	return store_saml_identity_remove(d->tx, provider_id, d->actor.user_id, removed);
}

int dom_domain_list(struct dom *d, const char *org_id, struct domain_verification **items, int *n)
{
	char hex[33];
	int rc;

	*items = NULL;
	*n = 0;
	if ((rc = dom_org_require(d, org_id, ORG_ACCESS_ADMIN)) || (rc = store_domain_verifications(d->tx, org_id, items, n)))
		return rc;
	for (int i = 0; i < *n; i++) {
		struct domain_verification *v = &(*items)[i];
		char *lower;
		if (v->token)
			continue;
		/* 160 random bits per organization and domain: the proof that
		 * whoever controls the domain's web server published it for this
		 * organization. */
		if (random_alnum(hex, 32))
			return err_set(ERR_INTERNAL, "getrandom failed");
		lower = arena_strdup(d->arena, v->domain);
		for (char *c = lower; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		v->token = arena_printf(d->arena, "docsd-verification=%s", hex);
		if ((rc = store_domain_token_issue(d->tx, org_id, lower, v->token, clock_now_ms())))
			return rc;
	}
	/* A concurrent issue keeps the first token: read back what is stored. */
	return store_domain_verifications(d->tx, org_id, items, n);
}

int dom_domain_verify_prepare(struct dom *d, const char *org_id, const char *domain, const char **token,
			      const char **url)
{
	struct domain_verification *v;
	const char *base = d->srv ? d->srv->cfg.domain_verification_base : NULL;
	int n, rc;

	*token = *url = NULL;
	if ((rc = dom_org_require(d, org_id, ORG_ACCESS_ADMIN)) || (rc = store_domain_verifications(d->tx, org_id, &v, &n)))
		return rc;
	for (int i = 0; i < n; i++)
		if (domain && strcasecmp(v[i].domain, domain) == 0 && v[i].token) {
			char *lower = arena_strdup(d->arena, v[i].domain);
			for (char *c = lower; *c; c++)
				*c = (char)tolower((unsigned char)*c);
			*token = v[i].token;
			/* --domain-verification-base (tests): BASE/DOMAIN/.well-known/... */
			*url = base && *base ? arena_printf(d->arena, "%s/%s" DOMAIN_VERIFICATION_PATH, base, lower)
					     : arena_printf(d->arena, "https://%s" DOMAIN_VERIFICATION_PATH, lower);
			return 0;
		}
	return err_set(ERR_INVALID, "domain: '%s' is not one of the organization's email domains with a token (open "
				    "the domains page first)",
		       domain ? domain : "");
}

int dom_domain_fetch_proof(const struct server *srv, const char *url, const char *token)
{
	struct fetch_opts o = { .max_bytes = 64 * 1024, .timeout_ms = 10000,
				.allow_private = srv && srv->cfg.allow_private_network };
	struct fetch_result res;
	size_t tl = strlen(token);
	int rc = fetch_url(url, &o, &res);

	if (rc) {
		rc = err_set(ERR_INVALID, "domain: %s could not be read (%s)", DOMAIN_VERIFICATION_PATH,
			     res.error[0] ? res.error : "fetch failed");
		fetch_result_free(&res);
		return rc;
	}
	/* The file may list the tokens of several organizations, one a line. */
	rc = err_set(ERR_INVALID, "domain: %s does not contain this organization's token", DOMAIN_VERIFICATION_PATH);
	for (const char *p = (const char *)res.data; p && *p;) {
		size_t len = strcspn(p, "\r\n");
		const char *s = p, *e = p + len;
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		if ((size_t)(e - s) == tl && memcmp(s, token, tl) == 0) {
			err_clear();
			rc = 0;
			break;
		}
		p += len;
		p += strspn(p, "\r\n");
	}
	fetch_result_free(&res);
	return rc;
}

int dom_domain_verify_commit(struct dom *d, const char *org_id, const char *domain, const char *token)
{
	char *lower;
	int rc;

	if ((rc = dom_org_require(d, org_id, ORG_ACCESS_ADMIN)))
		return rc;
	lower = arena_strdup(d->arena, domain);
	for (char *c = lower; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	rc = store_domain_mark_verified(d->tx, org_id, lower, token, clock_now_ms());
	return rc == ERR_NOT_FOUND ? err_set(ERR_CONFLICT, "domain: '%s' changed while it was checked: try again", domain)
				   : rc;
}
