/*
 * saml.h - SAML sign-in's HTTP side (app/saml.c), called by the web
 * interface's dispatcher (app_serve) for the URLs a provider's `service`
 * object reports (json/serialize.c), under --public-url's path:
 *   GET  /sso/saml/{providerId}/start     302 to the provider (AuthnRequest)
 *   POST /sso/saml/{providerId}/acs       the provider's SAMLResponse
 *   GET  /sso/saml/{providerId}/metadata  the SP metadata (its entityID)
 */
#ifndef DOCSD_APP_SAML_H
#define DOCSD_APP_SAML_H

struct req;

/* 0 when r was a SAML path and has its answer, 1 when it is not one. */
int app_saml_serve(struct req *r);

#endif
