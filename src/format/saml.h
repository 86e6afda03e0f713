/*
 * saml.h - SAML 2.0 Web Browser SSO, the service provider's two messages
 * (format/saml.c): the AuthnRequest docsd sends (HTTP-Redirect binding) and
 * the verification of the Response an identity provider posts back
 * (HTTP-POST binding). Pure: no store, no HTTP; the clock is an argument.
 *
 * What saml_response_verify accepts (everything else is refused, with a
 * message fit for the person signing in, never the library's internals):
 *  - a samlp:Response without DOCTYPE, Status Success, Destination (when
 *    present) = the ACS URL;
 *  - exactly one saml:Assertion in the whole document, a child of the
 *    Response (no EncryptedAssertion): a second Assertion anywhere is a
 *    signature-wrapping attempt;
 *  - a ds:Signature child of the Response or of the Assertion (or both,
 *    each verified), made with the provider's certificate only (KeyInfo in
 *    the message is ignored), RSA or ECDSA with SHA-256/384/512, exclusive or
 *    inclusive c14n, whose single Reference is "#" + the ID of the
 *    signature's parent: the element read is the element verified. IDs are
 *    registered for Response and Assertion only and must be unique;
 *  - Assertion Issuer = the provider's entityID; Conditions NotBefore /
 *    NotOnOrAfter around now (skew either way); every AudienceRestriction
 *    names the SP entity ID; a bearer SubjectConfirmationData with Recipient
 *    = the ACS URL, NotOnOrAfter after now, InResponseTo set (the caller
 *    checks it is a request it issued: single use); an AuthnStatement;
 *  - an email: the NameID when it is an address, else an attribute
 *    email / mail / emailaddress (their usual URIs included).
 */
#ifndef DOCSD_FORMAT_SAML_H
#define DOCSD_FORMAT_SAML_H

#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"

/* How far the IdP's clock may be from ours, either way. */
#define SAML_CLOCK_SKEW_MS (3 * 60 * 1000)

/* What the Response must match. */
struct saml_expect {
	const char *cert_pem;      /* the provider's certificate (PEM) */
	const char *idp_entity_id; /* the provider's entityID: the Assertion's Issuer */
	const char *sp_entity_id;  /* docsd's entity ID: the Audience */
	const char *acs_url;       /* Recipient and Destination */
	int64_t now_ms;
};

/* What a verified Response says (strings in the arena). */
struct saml_assertion {
	const char *assertion_id;
	const char *in_response_to;
	int64_t expires_ms; /* the earliest NotOnOrAfter: how long to remember the ID */
	const char *name_id;
	const char *email;        /* lower-cased */
	const char *display_name; /* or NULL */
};

/* Initialize libxml2 and libxmlsec1 once per process (the functions below
 * call it): 0, or ERR_INTERNAL. Tests that sign with libxmlsec1 call it. */
int saml_init(void);

/* Verify the decoded XML of a SAMLResponse: 0 with *out filled, or
 * ERR_FORBIDDEN (a message saying what did not match) / ERR_INVALID (not a
 * SAML Response) / ERR_INTERNAL. Thread-safe. */
int saml_response_verify(struct arena *a, const char *xml, size_t len, const struct saml_expect *e,
			 struct saml_assertion *out);

/* The URL to redirect the browser to: sso_url with SAMLRequest (an
 * AuthnRequest with ID id, deflated, base64, percent-encoded) and, when not
 * NULL, RelayState. 0, or ERR_INTERNAL. */
int saml_authn_request_url(struct arena *a, const char *id, int64_t now_ms, const char *sso_url, const char *acs_url,
			   const char *sp_entity_id, const char *relay_state, const char **url);

#endif
