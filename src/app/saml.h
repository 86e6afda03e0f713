/*
 * saml.h - SAML sign-in's HTTP side (app/saml.c), called by the web
 * interface's dispatcher (app_serve) for the URLs a provider's `service`
 * object reports (json/serialize.c), under --public-url's path:
 *   GET  /sso/saml/{providerId}/start     302 to the provider (AuthnRequest)
 *   POST /sso/saml/{providerId}/acs       the provider's SAMLResponse
 *   GET  /sso/saml/{providerId}/metadata  the SP metadata (its entityID)
 *   POST /sso/saml/{providerId}/link      a signed-in user links the provider
 */
#ifndef DOCSD_APP_SAML_H
#define DOCSD_APP_SAML_H

struct req;
struct app_page;

/* 0 when r was a SAML path (or /sso/domains/{org}/verify) and has its
 * answer, 1 when it is not one. */
int app_saml_serve(struct req *r);

/* The web interface's pages (app.c's route table):
 *   GET  /settings/sso                    the providers of one's organizations, link forms
 *   POST /settings/sso/{providerId}/unlink
 *   GET  /o/{organizationId}/domains      the email domains, their tokens, Verify forms
 * and, answered by app_saml_serve (own transactions):
 *   POST /sso/saml/{providerId}/link      (session + CSRF) 303 to the provider
 *   POST /sso/domains/{organizationId}/verify */
int page_sso_links(struct app_page *p);
int page_sso_unlink(struct app_page *p);
int page_org_domains(struct app_page *p);

#endif
