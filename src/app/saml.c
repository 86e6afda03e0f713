/*
 * saml.c - SAML sign-in's HTTP side (app/saml.h): parse, call the domain
 * (domain/saml_sso.h, which states the trust model) and format/saml.c,
 * answer; and the web interface's pages for links and email domains.
 *
 * The ACS answers a cross-site POST from the identity provider's page, so
 * it carries no CSRF token; what protects it is the signed response, which
 * must answer a request docsd issued (single use) to this very browser: the
 * request's nonce cookie (SAML_NONCE_COOKIE + request id) must come back
 * with it, and a session that is always new (app_session_start). Refusals
 * are a small HTML page saying what did not match (4xx); the log has the
 * same reason, a 500 says nothing internal.
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
#include "site/site.h"

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
static int refuse_titled(struct req *r, int rc, const char *title)
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
	app_error_page(&p, status, title, text);
	security_headers(r);
	rc = jw_ok(&b) ? resp_text(r, status, "text/html; charset=utf-8", b.buf, b.len) : ERR_INTERNAL;
	jw_free(&b);
	return rc;
}

static int refuse(struct req *r, int rc)
{
	return refuse_titled(r, rc, "Single sign-on failed");
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

/* The nonce cookie of request id: its Set-Cookie value (value NULL: the
 * one that ends it). Under https SameSite=None; Secure, so that the IdP's
 * cross-site POST carries it; under http no SameSite (domain/saml_sso.h). */
static const char *nonce_cookie(struct req *r, const char *id, const char *value)
{
	const char *secure = *app_cookie_secure(r) ? "; SameSite=None; Secure" : "";

	return arena_printf(&r->arena, SAML_NONCE_COOKIE "%s=%s; Path=%s/sso/saml/; Max-Age=%d; HttpOnly%s", id,
			    value ? value : "", public_path(r->srv->public_url), value ? SAML_REQUEST_TTL_MS / 1000 : 0,
			    secure);
}

/* A sign-in (link_user_id NULL) or a link request of the signed-in user,
 * in r->tx (a write transaction, committed here): the nonce cookie and a
 * 302 (303 after a form) to the provider. */
static int redirect_to_idp(struct req *r, const char *provider_id, const char *next, const char *link_user_id)
{
	struct saml_provider sp;
	const char *id, *url;
	char nonce[65], hash[65];
	int rc;

	if (random_alnum(nonce, 64) || sha256_hex(hash, nonce, 64)) {
		store_tx_rollback(&r->tx);
		return refuse(r, err_set(ERR_INTERNAL, "getrandom failed"));
	}
	dom_init(&r->dom, r->srv, &r->tx, &r->arena, link_user_id);
	if ((rc = dom_saml_sso_start(&r->dom, provider_id, next, hash, link_user_id, &sp, &id)) ||
	    (rc = saml_authn_request_url(&r->arena, id, clock_now_ms(), sp.sso_url, sp_url(r, sp.id, "acs"),
					 sp_url(r, sp.id, "metadata"), next, &url)) ||
	    (rc = store_tx_commit(&r->tx))) {
		store_tx_rollback(&r->tx);
		return refuse(r, rc);
	}
	security_headers(r);
	if ((rc = resp_header(r, "Set-Cookie", nonce_cookie(r, id, nonce))))
		return rc;
	resp_header(r, "Location", url);
	return resp_text(r, link_user_id ? 303 : 302, "text/plain; charset=utf-8", "", 0);
}

static int start(struct req *r, const char *provider_id)
{
	int rc;

	if ((rc = store_tx_begin(r->srv->store, &r->tx, 1, &r->arena)))
		return refuse(r, rc);
	return redirect_to_idp(r, provider_id, safe_next(req_query(r, "next")), NULL);
}

/* The signed-in user of r with a valid CSRF token in its form, in r->tx:
 * 0 with *user_id, else the refusal already answered (1). */
static int session_form(struct req *r, const char **user_id, int *answer)
{
	const char *csrf = NULL;
	int rc = app_session_user(r, &r->tx, user_id, &csrf);

	*answer = 0;
	if (rc == ERR_UNAUTHORIZED)
		rc = err_set(ERR_UNAUTHORIZED, "sign in first (/signin), then link the provider from /settings/sso");
	else if (rc == 0 && !app_csrf_ok(r, csrf))
		rc = err_set(ERR_FORBIDDEN, "the form is out of date: reload the page and try again");
	if (rc) {
		store_tx_rollback(&r->tx);
		*answer = refuse_titled(r, rc, "This request was refused");
		return 1;
	}
	return 0;
}

/* POST /sso/saml/{id}/link (the form of /settings/sso): a POST with the
 * session's CSRF token, so that no other site can make a signed-in
 * browser link an identity of its choosing. */
static int link(struct req *r, const char *provider_id)
{
	const char *user_id;
	int answer, rc;

	if ((rc = store_tx_begin(r->srv->store, &r->tx, 1, &r->arena)))
		return refuse(r, rc);
	if (session_form(r, &user_id, &answer))
		return answer;
	return redirect_to_idp(r, provider_id, NULL, user_id);
}

static int acs(struct req *r, const char *provider_id)
{
	struct saml_provider sp;
	struct saml_assertion as;
	struct saml_expect e;
	struct saml_sso_result res;
	const char *b64, *next, *nonce;
	char hash[65];
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
	/* The browser's nonce for the request the (verified) response answers. */
	nonce = req_cookie(r, arena_printf(&r->arena, SAML_NONCE_COOKIE "%s", as.in_response_to));
	if (nonce && sha256_hex(hash, nonce, strlen(nonce)))
		return refuse(r, err_set(ERR_INTERNAL, "hashing failed"));
	if ((rc = store_tx_begin(r->srv->store, &r->tx, 1, &r->arena)))
		return refuse(r, rc);
	dom_init(&r->dom, r->srv, &r->tx, &r->arena, NULL);
	if ((rc = dom_saml_sso_finish(&r->dom, &sp, &as, nonce ? hash : NULL, &res)) ||
	    (!res.linked && (rc = app_session_start(r, &r->tx, res.user_id))) || (rc = store_tx_commit(&r->tx))) {
		store_tx_rollback(&r->tx);
		r->nheaders = 0; /* no cookie with a refusal */
		return refuse(r, rc);
	}
	log_info("SAML %s: user %s through provider %s", res.linked ? "link" : "sign-in", res.user_id, sp.id);
	security_headers(r);
	if ((rc = resp_header(r, "Set-Cookie", nonce_cookie(r, as.in_response_to, NULL))))
		return rc;
	next = res.linked ? "/settings/sso" : safe_next(res.next);
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

/* The start, link and ACS URLs are open to anyone and each costs a row or
 * a signature check: each client address gets --sso-rate-limit of them a
 * minute (30 unless set), and under --rate-limit that many too (the API's
 * limiter, keyed apart from tokens). */
static int rate_limited(struct req *r)
{
	const char *key = arena_printf(&r->arena, "saml-addr:%s", app_client_addr(r));
	int limit, remaining;
	int64_t reset;

	return (r->srv->sso_rl && ratelimit_take(r->srv->sso_rl, key, &limit, &remaining, &reset)) ||
	       (r->srv->rl && ratelimit_take(r->srv->rl, key, &limit, &remaining, &reset));
}

/* POST /sso/domains/{organizationId}/verify (the form of
 * /o/{organizationId}/domains): the token read in one transaction, the
 * domain's file fetched with none held, the state written in another. */
static int verify_domain(struct req *r, const char *org_id)
{
	const char *user_id, *domain = NULL, *token, *url;
	int answer, rc;

	if (strcmp(r->method, "POST") != 0) {
		resp_header(r, "Allow", "POST");
		return refuse_titled(r, err_set(ERR_METHOD, "this URL is the domain form's POST"), "Email domains");
	}
	/* Each costs an outgoing fetch. */
	if (rate_limited(r))
		return refuse_titled(r, err_set(ERR_RATE_LIMITED, "too many attempts from your address: wait a minute"),
				     "Email domains");
	if (r->body && form_field(&r->arena, r->body, r->body_len, "domain", &domain) != 1)
		domain = NULL;
	if ((rc = store_tx_begin(r->srv->store, &r->tx, 0, &r->arena)))
		return refuse(r, rc);
	if (session_form(r, &user_id, &answer))
		return answer;
	dom_init(&r->dom, r->srv, &r->tx, &r->arena, user_id);
	rc = dom_domain_verify_prepare(&r->dom, org_id, domain, &token, &url);
	store_tx_rollback(&r->tx);
	if (rc || (rc = dom_domain_fetch_proof(r->srv, url, token)))
		return refuse_titled(r, rc, "The domain was not verified");
	if ((rc = store_tx_begin(r->srv->store, &r->tx, 1, &r->arena)))
		return refuse(r, rc);
	dom_init(&r->dom, r->srv, &r->tx, &r->arena, user_id);
	if ((rc = dom_domain_verify_commit(&r->dom, org_id, domain, token)) || (rc = store_tx_commit(&r->tx))) {
		store_tx_rollback(&r->tx);
		return refuse_titled(r, rc, "The domain was not verified");
	}
	log_info("email domain %s verified for organization %s", domain, org_id);
	security_headers(r);
	resp_header(r, "Location", arena_printf(&r->arena, "%s/o/%s/domains", public_path(r->srv->public_url), org_id));
	return resp_text(r, 303, "text/plain; charset=utf-8", "", 0);
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
	if (strcmp(rest, "link") == 0) {
		if (strcmp(r->method, "POST") != 0) {
			resp_header(r, "Allow", "POST");
			return refuse(r, err_set(ERR_METHOD, "this URL is the link form's POST (/settings/sso)"));
		}
		return link(r, id);
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

	if (strncmp(r->url, pre, plen) != 0)
		return 1;
	if (strncmp(r->url + plen, "/sso/domains/", 13) == 0) {
		const char *org = r->url + plen + 13, *slash = strchr(org, '/');
		err_clear();
		if (!slash || strcmp(slash, "/verify") != 0 || (size_t)(slash - org) > 64)
			rc = refuse(r, err_set(ERR_NOT_FOUND, "no such URL"));
		else
			rc = verify_domain(r, arena_strndup(&r->arena, org, (size_t)(slash - org)));
		if (rc)
			log_error("request %ld %s: the answer could not be written (%d)", r->id, r->url, rc);
		return 0;
	}
	if (strncmp(r->url + plen, "/sso/saml/", 10) != 0)
		return 1;
	err_clear();
	/* serve() answers every outcome itself; what it returns is whether writing
	 * that answer failed, which the listener cannot improve on. */
	if ((rc = serve(r, r->url + plen + 10)))
		log_error("request %ld %s: the SAML answer could not be written (%d)", r->id, r->url, rc);
	return 0;
}

/* ---- pages in the web interface's frame (app.c's route table) ---- */

static void csrf_field(struct app_page *p)
{
	html_raw(p->out, "<input type=\"hidden\" name=\"" APP_CSRF_FIELD "\" value=\"");
	app_text(p->out, p->csrf ? p->csrf : "");
	html_raw(p->out, "\">");
}

int page_sso_links(struct app_page *p)
{
	struct app_crumb crumbs[] = { { "Home", "/" }, { "Single sign-on", NULL } };
	struct saml_link *l;
	struct jw *b = p->out;
	int n, rc;

	if ((rc = dom_saml_links(p->d, &l, &n)))
		return rc;
	app_frame_begin(p, "Single sign-on", crumbs, 2);
	html_raw(b, "<h1>Single sign-on</h1><p class=\"mute\">An organization's identity provider signs you in only "
		    "when it created your account or you linked it here, signed in as you are now. Linking sends you "
		    "to the provider; it must sign you in with your own address. Link only a provider you use: "
		    "whoever runs it can then sign in as you.</p>");
	if (n == 0)
		html_raw(b, "<p>None of your organizations has a SAML provider.</p>");
	else
		html_raw(b, "<table><thead><tr><th>Organization</th><th>Provider</th><th>State</th><th></th></tr></thead>"
			    "<tbody>");
	for (int i = 0; i < n; i++) {
		html_raw(b, "<tr><td>");
		app_text(b, l[i].org_title);
		html_raw(b, "</td><td>");
		app_text(b, l[i].label);
		html_raw(b, "</td><td>");
		html_raw(b, !l[i].how			      ? "not linked"
			    : strcmp(l[i].how, "created") == 0 ? "linked (the provider created your account)"
							       : "linked");
		html_raw(b, "</td><td>");
		if (l[i].how) {
			html_raw(b, "<form method=\"post\" action=\"");
			html_raw(b, app_path(p, "/settings/sso/", l[i].provider_id, "/unlink"));
			html_raw(b, "\">");
			csrf_field(p);
			html_raw(b, "<button type=\"submit\">Unlink</button></form>");
		} else if (l[i].active) {
			html_raw(b, "<form method=\"post\" action=\"");
			app_text(b, arena_printf(&p->r->arena, "%s/sso/saml/%s/link", public_path(p->r->srv->public_url),
						 l[i].provider_id));
			html_raw(b, "\">");
			csrf_field(p);
			html_raw(b, "<button type=\"submit\">Link this provider</button></form>");
		}
		html_raw(b, "</td></tr>");
	}
	if (n)
		html_raw(b, "</tbody></table>");
	app_frame_end(p);
	return 0;
}

int page_sso_unlink(struct app_page *p)
{
	bool removed;
	int rc = dom_saml_unlink(p->d, req_param(p->r, "providerId"), &removed);

	if (rc)
		return rc;
	p->location = "/settings/sso";
	return 0;
}

int page_org_domains(struct app_page *p)
{
	const char *org_id = req_param(p->r, "organizationId");
	struct domain_verification *v;
	struct jw *b = p->out;
	int n, rc;

	if ((rc = dom_domain_list(p->d, org_id, &v, &n)))
		return rc;
	struct app_crumb crumbs[] = { { "Home", "/" }, { "Organization", arena_printf(&p->r->arena, "/o/%s", org_id) },
				      { "Email domains", NULL } };
	app_frame_begin(p, "Email domains", crumbs, 3);
	html_raw(b, "<h1>Email domains</h1><p class=\"mute\">A listed domain lets people find the organization. Only "
		    "a verified domain lets the organization's SAML providers create accounts for its addresses "
		    "(existing accounts always link the provider themselves). To verify one, publish its token on a "
		    "line of <code>https://DOMAIN" DOMAIN_VERIFICATION_PATH "</code>, then press Verify.</p>");
	if (n == 0)
		html_raw(b, "<p>The organization lists no email domain (its settings).</p>");
	for (int i = 0; i < n; i++) {
		html_raw(b, "<section><h2>");
		app_text(b, v[i].domain);
		html_raw(b, v[i].verified_at ? " <span class=\"mute\">verified</span>" : " <span class=\"mute\">not "
											  "verified</span>");
		html_raw(b, "</h2><p>Token: <code class=\"domain-token\">");
		app_text(b, v[i].token);
		html_raw(b, "</code></p><form method=\"post\" action=\"");
		app_text(b, arena_printf(&p->r->arena, "%s/sso/domains/%s/verify", public_path(p->r->srv->public_url),
					 org_id));
		html_raw(b, "\">");
		csrf_field(p);
		html_raw(b, "<input type=\"hidden\" name=\"domain\" value=\"");
		app_text(b, v[i].domain);
		html_raw(b, "\"><button type=\"submit\">Verify</button></form></section>");
	}
	app_frame_end(p);
	return 0;
}
