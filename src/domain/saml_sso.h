/*
 * saml_sso.h - signing in through an organization's SAML provider
 * (domain/saml_sso.c; the HTTP side is app/saml.c, the XML format/saml.c).
 *
 * DESIGN
 *   start:  dom_saml_sso_start    read the active provider, record a request
 *                                 id (single use, SAML_REQUEST_TTL_MS)
 *   ACS:    dom_saml_sso_provider read it again (read transaction) for the
 *                                 certificate; the Response is verified with
 *                                 no transaction held (format/saml.c)
 *           dom_saml_sso_finish   write transaction: the provider unchanged,
 *                                 the request consumed, the assertion ID
 *                                 recorded (replay), then the user.
 * Who signs in (the API's SSO rule, setUserAsSSOMemberForOrganization): a
 * member of the provider's organization signs in (a disabled member is
 * refused); a user who is not a member, or no user yet, whose email's
 * domain is one of the organization's emailDomains joins it as an SSO
 * member with the provider's defaultRole (null: a guest) and, when set, its
 * defaultTeam; anyone else is refused (ERR_FORBIDDEN). The actor is docsd
 * itself: there is no signed-in user yet.
 */
#ifndef DOCSD_DOMAIN_SAML_SSO_H
#define DOCSD_DOMAIN_SAML_SSO_H

#include "domain/domain.h"
#include "format/saml.h"

/* How long a request docsd issued may be answered. */
#define SAML_REQUEST_TTL_MS (10 * 60 * 1000)

/* The provider provider_id; with active, only when it can sign members in
 * (ssoURL, entityID and certificate set): ERR_NOT_FOUND otherwise. Anyone
 * may read it (the start and ACS URLs are public): only the SP side of it is
 * shown (the metadata), never the provider's settings. */
int dom_saml_sso_provider(struct dom *d, const char *provider_id, bool active, struct saml_provider *out);
/* Record a new request for provider_id (write transaction): *request_id. next:
 * where to go after signing in (a path), or NULL. */
int dom_saml_sso_start(struct dom *d, const char *provider_id, const char *next, struct saml_provider *sp,
		       const char **request_id);
/* Accept a verified assertion of sp (verified with sp->certificate): 0 with
 * *user_id and *next (or NULL); ERR_FORBIDDEN with a message for the person
 * signing in otherwise. */
int dom_saml_sso_finish(struct dom *d, const struct saml_provider *sp, const struct saml_assertion *as,
			const char **user_id, const char **next);

#endif
