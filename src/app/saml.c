/*
 * saml.c - SAML sign-in's HTTP side (app/saml.h): parse, call the domain
 * (domain/saml_sso.h) and format/saml.c, answer.
 *
 * The ACS answers a cross-site POST from the identity provider's page, so
 * it carries no CSRF token; what protects it is the signed response, which
 * must answer a request docsd issued to this browser's sign-in (single
 * use), and a session that is always new (app_session_start). Refusals are
 * a small HTML page saying what did not match (4xx); the log has the same
 * reason, a 500 says nothing internal.
 */
#include "app/saml.h"
#include "app/app.h"
#include "app/pages.h"
#include "domain/saml_sso.h"
#include "format/saml.h"
#include "app/session.h"
#include "http/form.h"
#include "http/services.h"
#include "http/http.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

#include <string.h>

/* The path of --public-url ("" at a host's root). */
static const char *public_path(const char *url)
{
	const char *h = strstr(url, "://");
	const char *p = strchr(h ? h + 3 : url, '/');

	return p ? p : "";
}

static const char *sp_url(struct req *r, const char *provider_id, const char *what)
{
	return arena_printf(&r->arena, "%s/sso/saml/%s/%s", r->srv->public_url, provider_id, what);
}

static void put(struct jw *b, const char *s)
{
	jw_put(b, s, strlen(s));
}

static void esc(struct jw *b, const char *s)
{
	for (; s && *s; s++) {
		const char *e = *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;" : *s == '"' ? "&quot;"
			      : *s == '\'' ? "&#39;" : NULL;
		if (e)
			jw_put(b, e, strlen(e));
		else
			jw_put(b, s, 1);
	}
}

static void security_headers(struct req *r)
{
	resp_header(r, "Cache-Control", "no-store");
	resp_header(r, "Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'");
}

/* The refusal page for err.h code rc (its message from err_message()), in
 * the web interface's frame (app/html.c). */
static int refuse(struct req *r, int rc)
{
	int status = err_status(rc);
	const char *msg = err_message();
	struct jw b;
	struct app_page p = { .r = r, .out = &b, .status = status };
	char *text;

	if (status >= 500) {
		log_error("request %ld %s %s failed: %s", r->id, r->method, r->url, msg);
		msg = "docsd could not complete the sign-in; try again, or ask an administrator to read docsd's log.";
	} else {
		log_info("SAML sign-in refused (%d): %s", status, msg);
	}
	/* err.h messages start in lower case; a page's sentence does not. */
	text = arena_strdup(&r->arena, msg);
	if (text && *text >= 'a' && *text <= 'z')
		*text = (char)(*text - 'a' + 'A');
	jw_init(&b);
	app_error_page(&p, status, "Single sign-on failed", text);
	security_headers(r);
	rc = jw_ok(&b) ? resp_text(r, status, "text/html; charset=utf-8", b.buf, b.len) : ERR_INTERNAL;
	jw_free(&b);
	return rc;
}

/* A path to go to after signing in: one of ours ("/..." but not "//" or
 * "/\"), printable ASCII, short; anything else is ignored. */
static const char *safe_next(const char *next)
{
	if (!next || next[0] != '/' || next[1] == '/' || next[1] == '\\' || strlen(next) > 512)
		return NULL;
	for (const char *p = next; *p; p++)
		if ((unsigned char)*p <= 0x20 || (unsigned char)*p >= 0x7f || *p == '\\')
			return NULL;
	return next;
}

static int start(struct req *r, const char *provider_id)
{
	struct saml_provider sp;
	const char *id, *url, *next = safe_next(req_query(r, "next"));
	int rc;

	if ((rc = store_tx_begin(r->srv->store, &r->tx, 1, &r->arena)))
		return refuse(r, rc);
	dom_init(&r->dom, r->srv, &r->tx, &r->arena, NULL);
	if ((rc = dom_saml_sso_start(&r->dom, provider_id, next, &sp, &id)) ||
	    (rc = saml_authn_request_url(&r->arena, id, clock_now_ms(), sp.sso_url, sp_url(r, sp.id, "acs"),
					 sp_url(r, sp.id, "metadata"), next, &url)) ||
	    (rc = store_tx_commit(&r->tx))) {
		store_tx_rollback(&r->tx);
		return refuse(r, rc);
	}
	security_headers(r);
	resp_header(r, "Location", url);
	return resp_text(r, 302, "text/plain; charset=utf-8", "", 0);
}

static int acs(struct req *r, const char *provider_id)
{
	struct saml_provider sp;
	struct saml_assertion as;
	struct saml_expect e;
	const char *b64, *user_id, *next;
	unsigned char *xml;
	long n;
	int rc;

	if (r->body_too_large)
		return refuse(r, err_set(ERR_TOO_LARGE, "the SAML response is too large"));
	rc = r->body ? form_field(&r->arena, r->body, r->body_len, "SAMLResponse", &b64) : 0;
	if (rc != 1)
		return refuse(r, err_set(ERR_INVALID, "SAMLResponse: missing; this URL receives the identity provider's "
						      "HTTP-POST response"));
	xml = arena_alloc(&r->arena, base64_decoded_max(strlen(b64)) + 1);
	if ((n = base64_decode(xml, b64, strlen(b64))) < 0)
		return refuse(r, err_set(ERR_INVALID, "SAMLResponse: not base64"));
	xml[n] = '\0';
	/* The provider in a read transaction; the signature checked with none held. */
	if ((rc = store_tx_begin(r->srv->store, &r->tx, 0, &r->arena)))
		return refuse(r, rc);
	dom_init(&r->dom, r->srv, &r->tx, &r->arena, NULL);
	rc = dom_saml_sso_provider(&r->dom, provider_id, true, &sp);
	store_tx_rollback(&r->tx);
	if (rc)
		return refuse(r, rc);
	e = (struct saml_expect){ .cert_pem = sp.certificate, .idp_entity_id = sp.entity_id,
				  .sp_entity_id = sp_url(r, sp.id, "metadata"), .acs_url = sp_url(r, sp.id, "acs"),
				  .now_ms = clock_now_ms() };
	if ((rc = saml_response_verify(&r->arena, (const char *)xml, (size_t)n, &e, &as)))
		return refuse(r, rc);
	if ((rc = store_tx_begin(r->srv->store, &r->tx, 1, &r->arena)))
		return refuse(r, rc);
	dom_init(&r->dom, r->srv, &r->tx, &r->arena, NULL);
	if ((rc = dom_saml_sso_finish(&r->dom, &sp, &as, &user_id, &next)) ||
	    (rc = app_session_start(r, &r->tx, user_id)) || (rc = store_tx_commit(&r->tx))) {
		store_tx_rollback(&r->tx);
		r->nheaders = 0; /* no cookie with a refusal */
		return refuse(r, rc);
	}
	log_info("SAML sign-in: user %s through provider %s", user_id, sp.id);
	security_headers(r);
	next = safe_next(next);
	resp_header(r, "Location",
		    arena_printf(&r->arena, "%s%s", public_path(r->srv->public_url), next ? next : "/"));
	return resp_text(r, 303, "text/plain; charset=utf-8", "", 0);
}

static int metadata(struct req *r, const char *provider_id)
{
	struct saml_provider sp;
	struct jw b;
	int rc;

	if ((rc = store_tx_begin(r->srv->store, &r->tx, 0, &r->arena)))
		return refuse(r, rc);
	dom_init(&r->dom, r->srv, &r->tx, &r->arena, NULL);
	rc = dom_saml_sso_provider(&r->dom, provider_id, false, &sp);
	store_tx_rollback(&r->tx);
	if (rc)
		return refuse(r, rc);
	jw_init(&b);
	put(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		    "<md:EntityDescriptor xmlns:md=\"urn:oasis:names:tc:SAML:2.0:metadata\" entityID=\"");
	esc(&b, sp_url(r, sp.id, "metadata"));
	put(&b, "\"><md:SPSSODescriptor AuthnRequestsSigned=\"false\" WantAssertionsSigned=\"true\" "
		    "protocolSupportEnumeration=\"urn:oasis:names:tc:SAML:2.0:protocol\">"
		    "<md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>"
		    "<md:AssertionConsumerService Binding=\"urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST\" Location=\"");
	esc(&b, sp_url(r, sp.id, "acs"));
	put(&b, "\" index=\"0\" isDefault=\"true\"/></md:SPSSODescriptor></md:EntityDescriptor>\n");
	rc = jw_ok(&b) ? resp_text(r, 200, "application/samlmetadata+xml", b.buf, b.len) : ERR_INTERNAL;
	jw_free(&b);
	return rc;
}

/* The start and ACS URLs are open to anyone and each costs a row or a
 * signature check: under --rate-limit, each client address gets that many
 * of them a minute (the API's limiter, keyed apart from tokens). */
static int rate_limited(struct req *r)
{
	int limit, remaining;
	int64_t reset;

	if (!r->srv->rl)
		return 0;
	return ratelimit_take(r->srv->rl, arena_printf(&r->arena, "saml-addr:%s", app_client_addr(r)), &limit,
			      &remaining, &reset);
}

/* Which SAML URL r asks for and its answer; what is not one of the three is a 404 page. */
static int serve(struct req *r, const char *rest)
{
	const char *slash = strchr(rest, '/');
	char id[65];

	if (!slash || (size_t)(slash - rest) >= sizeof(id))
		return refuse(r, err_set(ERR_NOT_FOUND, "no such SAML URL"));
	memcpy(id, rest, (size_t)(slash - rest));
	id[slash - rest] = '\0';
	rest = slash + 1;
	if (strcmp(rest, "metadata") != 0 && rate_limited(r))
		return refuse(r, err_set(ERR_RATE_LIMITED, "too many sign-in attempts from your address: wait a minute"));
	if (strcmp(rest, "start") == 0 || strcmp(rest, "metadata") == 0) {
		if (strcmp(r->method, "GET") != 0 && strcmp(r->method, "HEAD") != 0) {
			resp_header(r, "Allow", "GET, HEAD");
			return refuse(r, err_set(ERR_METHOD, "this URL is read with GET"));
		}
		return *rest == 's' ? start(r, id) : metadata(r, id);
	}
	if (strcmp(rest, "acs") == 0) {
		if (strcmp(r->method, "POST") != 0) {
			resp_header(r, "Allow", "POST");
			return refuse(r, err_set(ERR_METHOD, "this URL receives the identity provider's HTTP-POST response"));
		}
		return acs(r, id);
	}
	return refuse(r, err_set(ERR_NOT_FOUND, "no such SAML URL"));
}

int app_saml_serve(struct req *r)
{
	const char *pre = public_path(r->srv->public_url);
	size_t plen = strlen(pre);
	int rc;

	if (strncmp(r->url, pre, plen) != 0 || strncmp(r->url + plen, "/sso/saml/", 10) != 0)
		return 1;
	err_clear();
	/* serve() answers every outcome itself; what it returns is whether writing
	 * that answer failed, which the listener cannot improve on. */
	if ((rc = serve(r, r->url + plen + 10)))
		log_error("request %ld %s: the SAML answer could not be written (%d)", r->id, r->url, rc);
	return 0;
}
