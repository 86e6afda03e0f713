/*
 * saml_sso.h - signing in through an organization's SAML provider, linking
 * a provider to an account, and verifying an organization's email domains
 * (domain/saml_sso.c; the HTTP side is app/saml.c, the XML format/saml.c).
 *
 * DESIGN
 * Trust model (issue 30; GitBook's own: SSO members are `sso: true`, created
 * by the provider). Anyone can create an organization, list any email domain
 * and add a provider with a certificate of their own: so a provider vouches
 * only for the identities it owns. An identity is (provider, subject), the
 * subject being the assertion's NameID (an address lower-cased), and it is
 * some user's only through a row of saml_identities, written
 *   - 'created': when the provider created that user's account, which it may
 *     do only for an address of a domain the organization lists AND verified
 *     (dom_domain_verify: docsd fetched a token it issued for that
 *     organization and domain from the domain's /.well-known/), never for an
 *     address that already has an account;
 *   - 'linked': when a signed-in user (password, or another provider) asked
 *     for it (a POST with the session's CSRF token, never a GET: a link is a
 *     state change a third site must not start) and the provider then
 *     answered that very request in that very browser with an assertion
 *     whose email is the user's own.
 * Sign-in succeeds only through such a row. Membership of the provider's
 * organization, however it came about (an invitation adds an existing user
 * at once, a space grant too: GitBook's API semantics), gives nothing, nor
 * does a listed domain that is not verified. An existing user with no link
 * is refused with a page saying to sign in another way and link the
 * provider (/settings/sso). A linked or created user who is no longer a member
 * joins again as an SSO member with the provider's default role (and
 * team); a disabled member is refused.
 *
 * Login CSRF: /start (and a link's start) makes a random nonce, sets it in a
 * cookie named after the request (SAML_NONCE_COOKIE + request id, HttpOnly,
 * Path=/sso/saml/, ten minutes) and stores its SHA-256 with the request;
 * the ACS takes the cookie of the request the verified assertion answers
 * and dom_saml_sso_finish refuses a response whose browser has not that
 * nonce. The ACS is a cross-site POST from the IdP's page: under an https
 * --public-url the cookie is SameSite=None; Secure (sent on that POST);
 * under http it has no SameSite attribute (SameSite=None needs Secure):
 * Firefox sends it, Chromium treats it as Lax with its "Lax+POST"
 * allowance (a top-level cross-site POST within two minutes of the
 * cookie's creation), which is enough for a sign-in, and same-site IdPs
 * (tests) always work. Production deployments use https.
 *
 * Bounds: /start and the ACS are open to anyone: per client address,
 * --sso-rate-limit requests a minute (app/saml.c, http/ratelimit.c); per
 * provider at most SAML_PENDING_MAX pending requests, the oldest dropped.
 * ssoURL (dom_saml_sso_url_check, API and web form): https only (http only
 * for a loopback host under --allow-private-network, for tests), no
 * user:password@, no #fragment.
 *
 * Steps
 *   start:  dom_saml_sso_start    read the active provider, record a request
 *                                 id (single use, SAML_REQUEST_TTL_MS) with
 *                                 the nonce's hash (and the linking user)
 *   ACS:    dom_saml_sso_provider read it again (read transaction) for the
 *                                 certificate; the Response is verified with
 *                                 no transaction held (format/saml.c)
 *           dom_saml_sso_finish   write transaction: the provider unchanged,
 *                                 the request consumed, its nonce matched, the
 *                                 assertion ID recorded (replay), then the
 *                                 identity: linked, or the user it is.
 *   domains: dom_domain_list (issues tokens) -> dom_domain_verify_prepare
 *           (read) -> dom_domain_fetch_proof (no transaction) ->
 *           dom_domain_verify_commit (write).
 */
#ifndef DOCSD_DOMAIN_SAML_SSO_H
#define DOCSD_DOMAIN_SAML_SSO_H

#include "domain/domain.h"
#include "format/saml.h"

/* How long a request docsd issued may be answered. */
#define SAML_REQUEST_TTL_MS (10 * 60 * 1000)
/* Pending requests kept per provider; past it the oldest are dropped. */
#define SAML_PENDING_MAX 1000
/* The nonce cookie's name is this followed by the request id ("_" + 40). */
#define SAML_NONCE_COOKIE "docsd_saml"
/* The file docsd fetches from a domain to verify it. */
#define DOMAIN_VERIFICATION_PATH "/.well-known/docsd-domain-verification.txt"

/* The provider provider_id; with active, only when it can sign members in
 * (ssoURL, entityID and certificate set): ERR_NOT_FOUND otherwise. Anyone
 * may read it (the start and ACS URLs are public): only the SP side of it is
 * shown (the metadata), never the provider's settings. */
int dom_saml_sso_provider(struct dom *d, const char *provider_id, bool active, struct saml_provider *out);
/* Record a new request for provider_id (write transaction): *request_id.
 * next: where to go after signing in (a path), or NULL. nonce_hash: the
 * SHA-256 hex of the browser's nonce. link_user_id: the signed-in user who
 * asks to link the provider (who must be an enabled member of its
 * organization), or NULL for a sign-in. */
int dom_saml_sso_start(struct dom *d, const char *provider_id, const char *next, const char *nonce_hash,
		       const char *link_user_id, struct saml_provider *sp, const char **request_id);

struct saml_sso_result {
	const char *user_id; /* signed in, or linked */
	const char *next;    /* or NULL */
	bool linked;         /* a link request: no new session */
};
/* Accept a verified assertion of sp (verified with sp->certificate) posted
 * by the browser holding the nonce whose hash is nonce_hash (NULL: the
 * browser sent none): 0 with *out; ERR_FORBIDDEN with a message for the
 * person signing in otherwise. */
int dom_saml_sso_finish(struct dom *d, const struct saml_provider *sp, const struct saml_assertion *as,
			const char *nonce_hash, struct saml_sso_result *out);

/* ssoURL's rule (API and web form, domain/saml.c): 0 or ERR_INVALID naming
 * the field. */
int dom_saml_sso_url_check(const struct dom *d, const char *url);

/* The providers of the actor's organizations and the actor's link to each. */
int dom_saml_links(struct dom *d, struct saml_link **items, int *n);
/* Remove the actor's link to provider_id (write transaction). */
int dom_saml_unlink(struct dom *d, const char *provider_id, bool *removed);

/* The organization's listed email domains with their tokens (issued here
 * for those without one: a write transaction) and state; admins only. */
int dom_domain_list(struct dom *d, const char *org_id, struct domain_verification **items, int *n);
/* Read: domain is listed by org_id (admin) and has a token: *token and the
 * *url docsd fetches the proof from. */
int dom_domain_verify_prepare(struct dom *d, const char *org_id, const char *domain, const char **token,
			      const char **url);
/* No transaction: fetch url and look for token on a line of its own:
 * 0 when found, ERR_INVALID saying what was wrong otherwise. */
int dom_domain_fetch_proof(const struct server *srv, const char *url, const char *token);
/* Write: mark the domain verified if its token is still token. */
int dom_domain_verify_commit(struct dom *d, const char *org_id, const char *domain, const char *token);

#endif
