/*
 * saml.c - the AuthnRequest docsd sends and the verification of the Response
 * it receives (format/saml.h states what is accepted).
 *
 * DESIGN
 * Untrusted input first: the Response is attacker-controlled XML until its
 * signature is verified, and even then only the signed element may be read.
 *  - libxml2 parses without network, without entity substitution and with
 *    no DTD allowed at all (a DOCTYPE is refused: no XXE, no billion laughs).
 *  - IDs are registered by hand for the Response and the Assertion only (the
 *    parser registers none but xml:id), each unique: a duplicate ID or an
 *    xml:id shadowing one is refused before any signature is looked at.
 *  - Signature wrapping: the document must hold one Assertion, a child of
 *    the Response; a Signature is only looked for as a child of those two,
 *    and its one Reference must be "#" + its parent's ID. So the element
 *    verified is the element read, whatever else the document holds.
 *  - libxmlsec1 verifies with the provider's key only (dsigCtx->signKey set:
 *    KeyInfo, RetrievalMethod and certificates in the message are not used),
 *    references to the same document only (no fetch), and a short list of
 *    transforms and algorithms (no XSLT, no XPath, no SHA-1).
 * libxmlsec1 and libxml2 print their errors to stderr by default, which is
 * docsd's JSON log: both are silenced; the caller logs the reason.
 */
#include "format/saml.h"
#include "util/err.h"
#include "util/util.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/valid.h>
#include <xmlsec/crypto.h>
#include <xmlsec/errors.h>
#include <xmlsec/xmldsig.h>
#include <xmlsec/xmlsec.h>
#include <xmlsec/xmltree.h>
#include <zlib.h>

#define NS_SAMLP "urn:oasis:names:tc:SAML:2.0:protocol"
#define NS_SAML "urn:oasis:names:tc:SAML:2.0:assertion"
#define NS_DS "http://www.w3.org/2000/09/xmldsig#"
#define STATUS_SUCCESS "urn:oasis:names:tc:SAML:2.0:status:Success"
#define CM_BEARER "urn:oasis:names:tc:SAML:2.0:cm:bearer"

/* The largest decoded Response accepted (an IdP's are a few KB). */
#define SAML_MAX_XML (256 * 1024)

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int init_rc = -1;

static void silent_xml_error(void *ctx, const char *msg, ...)
{
	(void)ctx;
	(void)msg;
}

static void init_xmlsec(void)
{
	xmlInitParser();
	/* Only our own parse errors would print; they are reported as refusals. */
	xmlSetGenericErrorFunc(NULL, silent_xml_error);
	xmlSecErrorsDefaultCallbackEnableOutput(0);
	if (xmlSecInit() < 0 || xmlSecCheckVersion() != 1 || xmlSecCryptoAppInit(NULL) < 0 || xmlSecCryptoInit() < 0)
		return;
	init_rc = 0;
}

int saml_init(void)
{
	pthread_once(&init_once, init_xmlsec);
	return init_rc == 0 ? 0 : err_set(ERR_INTERNAL, "libxmlsec1 could not be initialized");
}

/* ---- reading the tree ---- */

static bool is_el(const xmlNode *n, const char *ns, const char *name)
{
	return n && n->type == XML_ELEMENT_NODE && n->ns && n->ns->href && strcmp((const char *)n->ns->href, ns) == 0 &&
	       strcmp((const char *)n->name, name) == 0;
}

/* The first element child of n named ns:name, and in *count how many there are. */
static xmlNode *child(const xmlNode *n, const char *ns, const char *name, int *count)
{
	xmlNode *first = NULL;
	int k = 0;

	for (xmlNode *c = n ? n->children : NULL; c; c = c->next)
		if (is_el(c, ns, name)) {
			if (!first)
				first = c;
			k++;
		}
	if (count)
		*count = k;
	return first;
}

/* How many ns:name elements the subtree of n holds, n included. */
static int count_all(const xmlNode *n, const char *ns, const char *name)
{
	int k = 0;

	for (; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (is_el(n, ns, name))
			k++;
		k += count_all(n->children, ns, name);
	}
	return k;
}

/* An attribute without namespace, copied into the arena, or NULL. */
static const char *attr(struct arena *a, xmlNode *n, const char *name)
{
	xmlChar *v = n ? xmlGetNoNsProp(n, (const xmlChar *)name) : NULL;
	char *s;

	if (!v)
		return NULL;
	s = arena_strdup(a, (const char *)v);
	xmlFree(v);
	return s;
}

/* The text of n, whitespace trimmed, in the arena, or NULL when empty. */
static const char *text(struct arena *a, xmlNode *n)
{
	xmlChar *v = n ? xmlNodeGetContent(n) : NULL;
	const char *s, *e;
	char *out = NULL;

	if (!v)
		return NULL;
	s = (const char *)v;
	while (*s && isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	if (e > s)
		out = arena_strndup(a, s, (size_t)(e - s));
	xmlFree(v);
	return out;
}

/* xs:dateTime in UTC (YYYY-MM-DDThh:mm:ss[.fff]Z) as ms since the epoch; -1 when not. */
static int64_t parse_instant(const char *s)
{
	struct tm tm = { 0 };
	int n = 0, ms = 0;

	if (!s || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
			 &tm.tm_sec, &n) != 6 || n != 19)
		return -1;
	s += n;
	if (*s == '.') {
		int digits = 0;
		for (s++; isdigit((unsigned char)*s); s++, digits++)
			if (digits < 3)
				ms = ms * 10 + (*s - '0');
		if (!digits)
			return -1;
		for (; digits < 3; digits++)
			ms *= 10;
	}
	if (strcmp(s, "Z") != 0 && strcmp(s, "+00:00") != 0)
		return -1;
	if (tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 ||
	    tm.tm_sec > 60)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (int64_t)timegm(&tm) * 1000 + ms;
}

/* ---- the signature ---- */

/* Register el's ID attribute as an XML ID; it must be present and unique. */
static int register_id(xmlDoc *doc, xmlNode *el, const char *what)
{
	xmlAttr *at = xmlHasNsProp(el, (const xmlChar *)"ID", NULL);
	xmlChar *v;
	xmlAttr *found;

	if (!at)
		return err_set(ERR_FORBIDDEN, "the SAML response's %s has no ID", what);
	v = xmlNodeListGetString(doc, at->children, 1);
	if (!v || !*v) {
		xmlFree(v);
		return err_set(ERR_FORBIDDEN, "the SAML response's %s has no ID", what);
	}
	/* xmlAddID refuses a value already registered (another element's, or an xml:id). */
	if (!xmlAddID(NULL, doc, v, at) || !(found = xmlGetID(doc, v)) || found != at) {
		xmlFree(v);
		return err_set(ERR_FORBIDDEN, "the SAML response holds the ID of its %s twice", what);
	}
	xmlFree(v);
	return 0;
}

static int enable(xmlSecDSigCtxPtr ctx)
{
	/* Inside a Reference: enveloped signature, canonicalization, digests. */
	if (xmlSecDSigCtxEnableReferenceTransform(ctx, xmlSecTransformEnvelopedId) < 0 ||
	    xmlSecDSigCtxEnableReferenceTransform(ctx, xmlSecTransformExclC14NId) < 0 ||
	    xmlSecDSigCtxEnableReferenceTransform(ctx, xmlSecTransformExclC14NWithCommentsId) < 0 ||
	    xmlSecDSigCtxEnableReferenceTransform(ctx, xmlSecTransformInclC14NId) < 0 ||
	    xmlSecDSigCtxEnableReferenceTransform(ctx, xmlSecTransformSha256Id) < 0 ||
	    xmlSecDSigCtxEnableReferenceTransform(ctx, xmlSecTransformSha384Id) < 0 ||
	    xmlSecDSigCtxEnableReferenceTransform(ctx, xmlSecTransformSha512Id) < 0 ||
	    /* SignedInfo's canonicalization and the signature method. */
	    xmlSecDSigCtxEnableSignatureTransform(ctx, xmlSecTransformExclC14NId) < 0 ||
	    xmlSecDSigCtxEnableSignatureTransform(ctx, xmlSecTransformInclC14NId) < 0 ||
	    xmlSecDSigCtxEnableSignatureTransform(ctx, xmlSecTransformRsaSha256Id) < 0 ||
	    xmlSecDSigCtxEnableSignatureTransform(ctx, xmlSecTransformRsaSha384Id) < 0 ||
	    xmlSecDSigCtxEnableSignatureTransform(ctx, xmlSecTransformRsaSha512Id) < 0 ||
	    xmlSecDSigCtxEnableSignatureTransform(ctx, xmlSecTransformEcdsaSha256Id) < 0 ||
	    xmlSecDSigCtxEnableSignatureTransform(ctx, xmlSecTransformEcdsaSha384Id) < 0 ||
	    xmlSecDSigCtxEnableSignatureTransform(ctx, xmlSecTransformEcdsaSha512Id) < 0)
		return -1;
	return 0;
}

/* Verify sig, a ds:Signature child of el whose ID is id, with the key of
 * cert_pem: 0 when it is valid and signs el itself. */
static int verify_signature(xmlNode *sig, const char *id, const char *cert_pem, const char *what)
{
	xmlSecKeyPtr key = xmlSecCryptoAppKeyLoadMemory((const xmlSecByte *)cert_pem, (xmlSecSize)strlen(cert_pem),
							xmlSecKeyDataFormatCertPem, NULL, NULL, NULL);
	xmlSecDSigCtxPtr ctx = NULL;
	xmlSecDSigReferenceCtxPtr ref;
	int rc;

	if (!key) {
		rc = err_set(ERR_FORBIDDEN, "the SAML provider's certificate cannot be read: ask an admin to set it again");
		goto cleanup;
	}
	if (!(ctx = xmlSecDSigCtxCreate(NULL))) {
		rc = err_set(ERR_INTERNAL, "xmlSecDSigCtxCreate failed");
		goto cleanup;
	}
	/* Our key only; the message's KeyInfo is never read for a key. */
	ctx->signKey = key;
	key = NULL;
	/* "#id" references only: nothing outside the document is fetched. */
	ctx->enabledReferenceUris = xmlSecTransformUriTypeSameDocument;
	if (enable(ctx) < 0) {
		rc = err_set(ERR_INTERNAL, "xmlsec: enabling transforms failed");
		goto cleanup;
	}
	if (xmlSecDSigCtxVerify(ctx, sig) < 0 || ctx->status != xmlSecDSigStatusSucceeded) {
		rc = err_set(ERR_FORBIDDEN, "the signature of the SAML response's %s is not valid for this provider's certificate",
			     what);
		goto cleanup;
	}
	/* One Reference, to the signature's parent: the element we read. */
	if (xmlSecPtrListGetSize(&ctx->signedInfoReferences) != 1 ||
	    !(ref = xmlSecPtrListGetItem(&ctx->signedInfoReferences, 0)) || !ref->uri || ref->uri[0] != '#' ||
	    strcmp((const char *)ref->uri + 1, id) != 0) {
		rc = err_set(ERR_FORBIDDEN, "the signature of the SAML response's %s does not sign the %s", what, what);
		goto cleanup;
	}
	rc = 0;
cleanup:
	if (key)
		xmlSecKeyDestroy(key);
	if (ctx)
		xmlSecDSigCtxDestroy(ctx);
	return rc;
}

/* ---- the Response ---- */

static bool is_email(const char *s)
{
	const char *at = s ? strchr(s, '@') : NULL;

	return at && at > s && at[1] && !strchr(at + 1, '@') && strchr(at + 1, '.') && strlen(s) <= 320 &&
	       !strpbrk(s, " \t\r\n<>\"");
}

static const char *lower(struct arena *a, const char *s)
{
	char *o = arena_strdup(a, s);

	for (char *p = o; p && *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return o;
}

/* The first value of one of the attributes names (NULL-terminated) in as. */
static const char *attribute(struct arena *a, xmlNode *as, const char *const *names)
{
	for (const char *const *nm = names; *nm; nm++)
		for (xmlNode *at = as ? as->children : NULL; at; at = at->next) {
			const char *name, *v;
			if (!is_el(at, NS_SAML, "Attribute") || !(name = attr(a, at, "Name")) ||
			    strcasecmp(name, *nm) != 0)
				continue;
			if ((v = text(a, child(at, NS_SAML, "AttributeValue", NULL))))
				return v;
		}
	return NULL;
}

static int check_window(const char *not_before, const char *not_on_or_after, int64_t now, const char *what,
			int64_t *expires)
{
	int64_t nb = not_before ? parse_instant(not_before) : 0, na = not_on_or_after ? parse_instant(not_on_or_after) : 0;

	if (nb < 0 || na < 0)
		return err_set(ERR_FORBIDDEN, "the SAML response's %s has a time that is not a UTC date-time", what);
	if (not_before && now + SAML_CLOCK_SKEW_MS < nb)
		return err_set(ERR_FORBIDDEN, "the SAML response is not valid yet (%s NotBefore %s)", what, not_before);
	if (not_on_or_after && now - SAML_CLOCK_SKEW_MS >= na)
		return err_set(ERR_FORBIDDEN, "the SAML response has expired (%s NotOnOrAfter %s)", what, not_on_or_after);
	if (not_on_or_after && (!*expires || na < *expires))
		*expires = na;
	return 0;
}

static int read_assertion(struct arena *a, xmlNode *resp, xmlNode *as, const struct saml_expect *e,
			  struct saml_assertion *out)
{
	xmlNode *subject, *cond, *scd = NULL;
	const char *issuer, *v, *irt_resp;
	int n, rc;

	issuer = text(a, child(as, NS_SAML, "Issuer", NULL));
	if (!issuer || !e->idp_entity_id || strcmp(issuer, e->idp_entity_id) != 0)
		return err_set(ERR_FORBIDDEN, "the SAML assertion's Issuer is not this provider's entityID");
	/* Conditions: the time window and the audience. */
	cond = child(as, NS_SAML, "Conditions", &n);
	if (!cond || n != 1)
		return err_set(ERR_FORBIDDEN, "the SAML assertion has no Conditions");
	if ((rc = check_window(attr(a, cond, "NotBefore"), attr(a, cond, "NotOnOrAfter"), e->now_ms, "Conditions",
			       &out->expires_ms)))
		return rc;
	n = 0;
	for (xmlNode *ar = cond->children; ar; ar = ar->next) {
		bool ours = false;
		if (!is_el(ar, NS_SAML, "AudienceRestriction"))
			continue;
		n++;
		for (xmlNode *au = ar->children; au; au = au->next)
			if (is_el(au, NS_SAML, "Audience") && (v = text(a, au)) && strcmp(v, e->sp_entity_id) == 0)
				ours = true;
		if (!ours)
			return err_set(ERR_FORBIDDEN, "the SAML assertion is meant for another audience than %s",
				       e->sp_entity_id);
	}
	if (!n)
		return err_set(ERR_FORBIDDEN, "the SAML assertion names no Audience");
	/* The subject, confirmed by a bearer confirmation addressed to us. */
	subject = child(as, NS_SAML, "Subject", NULL);
	out->name_id = text(a, child(subject, NS_SAML, "NameID", NULL));
	for (xmlNode *sc = subject ? subject->children : NULL; sc && !scd; sc = sc->next)
		if (is_el(sc, NS_SAML, "SubjectConfirmation") && (v = attr(a, sc, "Method")) && strcmp(v, CM_BEARER) == 0)
			scd = child(sc, NS_SAML, "SubjectConfirmationData", NULL);
	if (!scd)
		return err_set(ERR_FORBIDDEN, "the SAML assertion has no bearer SubjectConfirmationData");
	v = attr(a, scd, "Recipient");
	if (!v || strcmp(v, e->acs_url) != 0)
		return err_set(ERR_FORBIDDEN, "the SAML assertion's Recipient is not %s", e->acs_url);
	if (!attr(a, scd, "NotOnOrAfter"))
		return err_set(ERR_FORBIDDEN, "the SAML assertion's SubjectConfirmationData has no NotOnOrAfter");
	if ((rc = check_window(attr(a, scd, "NotBefore"), attr(a, scd, "NotOnOrAfter"), e->now_ms,
			       "SubjectConfirmationData", &out->expires_ms)))
		return rc;
	out->in_response_to = attr(a, scd, "InResponseTo");
	if (!out->in_response_to || !*out->in_response_to)
		return err_set(ERR_FORBIDDEN, "the SAML assertion answers no request (no InResponseTo): sign in from docsd");
	irt_resp = attr(a, resp, "InResponseTo");
	if (irt_resp && strcmp(irt_resp, out->in_response_to) != 0)
		return err_set(ERR_FORBIDDEN, "the SAML response and its assertion answer different requests");
	if (!child(as, NS_SAML, "AuthnStatement", NULL))
		return err_set(ERR_FORBIDDEN, "the SAML assertion has no AuthnStatement");
	/* Who: the NameID when it is an address, else an email attribute. */
	static const char *const email_attrs[] = {
		"email", "mail", "emailAddress", "urn:oid:0.9.2342.19200300.100.1.3",
		"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress", NULL
	};
	static const char *const name_attrs[] = {
		"displayName", "name", "urn:oid:2.16.840.1.113730.3.1.241",
		"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name", NULL
	};
	xmlNode *stmt = child(as, NS_SAML, "AttributeStatement", NULL);
	v = is_email(out->name_id) ? out->name_id : attribute(a, stmt, email_attrs);
	if (!is_email(v))
		return err_set(ERR_FORBIDDEN, "the SAML assertion names no email address (NameID or an email attribute)");
	out->email = lower(a, v);
	out->display_name = attribute(a, stmt, name_attrs);
	if (out->display_name && strlen(out->display_name) > 256)
		out->display_name = NULL;
	return 0;
}

int saml_response_verify(struct arena *a, const char *xml, size_t len, const struct saml_expect *e,
			 struct saml_assertion *out)
{
	xmlDoc *doc = NULL;
	xmlNode *resp, *as, *st, *sig_resp, *sig_as;
	const char *v, *resp_id, *as_id;
	int n, rc;

	memset(out, 0, sizeof(*out));
	if ((rc = saml_init()))
		return rc;
	if (len > SAML_MAX_XML)
		return err_set(ERR_INVALID, "SAMLResponse: larger than %d bytes", SAML_MAX_XML);
	/* libxml2's error handler is per thread: silence it on this one (a
	 * duplicate ID is reported through it) and give it back after. */
	xmlGenericErrorFunc old_fn = xmlGenericError;
	void *old_ctx = xmlGenericErrorContext;
	xmlSetGenericErrorFunc(NULL, silent_xml_error);
	/* No network, no entity substitution, no errors on stderr; large
	 * documents are bounded above. */
	doc = xmlReadMemory(xml, (int)len, "saml-response.xml", NULL,
			    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	if (!doc) {
		rc = err_set(ERR_INVALID, "SAMLResponse: not XML");
		goto cleanup;
	}
	if (doc->intSubset || doc->extSubset) {
		rc = err_set(ERR_INVALID, "SAMLResponse: a DOCTYPE is not accepted");
		goto cleanup;
	}
	resp = xmlDocGetRootElement(doc);
	if (!is_el(resp, NS_SAMLP, "Response")) {
		rc = err_set(ERR_INVALID, "SAMLResponse: not a SAML 2.0 Response");
		goto cleanup;
	}
	if (count_all(resp, NS_SAML, "EncryptedAssertion")) {
		rc = err_set(ERR_FORBIDDEN, "encrypted SAML assertions are not supported: turn assertion encryption off at "
					    "the identity provider");
		goto cleanup;
	}
	as = child(resp, NS_SAML, "Assertion", &n);
	if (!as || n != 1 || count_all(resp, NS_SAML, "Assertion") != 1) {
		rc = err_set(ERR_FORBIDDEN, "the SAML response must hold exactly one assertion");
		goto cleanup;
	}
	st = child(child(resp, NS_SAMLP, "Status", NULL), NS_SAMLP, "StatusCode", NULL);
	v = attr(a, st, "Value");
	if (!v || strcmp(v, STATUS_SUCCESS) != 0) {
		rc = err_set(ERR_FORBIDDEN, "the identity provider did not sign you in (status %s)",
			     v ? v : "missing");
		goto cleanup;
	}
	if ((v = attr(a, resp, "Destination")) && strcmp(v, e->acs_url) != 0) {
		rc = err_set(ERR_FORBIDDEN, "the SAML response's Destination is not %s", e->acs_url);
		goto cleanup;
	}
	if ((rc = register_id(doc, resp, "Response")) || (rc = register_id(doc, as, "Assertion")))
		goto cleanup;
	resp_id = attr(a, resp, "ID");
	as_id = attr(a, as, "ID");
	sig_resp = child(resp, NS_DS, "Signature", &n);
	if (n > 1) {
		rc = err_set(ERR_FORBIDDEN, "the SAML response has more than one signature");
		goto cleanup;
	}
	sig_as = child(as, NS_DS, "Signature", &n);
	if (n > 1) {
		rc = err_set(ERR_FORBIDDEN, "the SAML assertion has more than one signature");
		goto cleanup;
	}
	if (!sig_resp && !sig_as) {
		rc = err_set(ERR_FORBIDDEN, "the SAML response is not signed");
		goto cleanup;
	}
	/* Every signature present must hold; the Assertion read is covered by one. */
	if ((sig_resp && (rc = verify_signature(sig_resp, resp_id, e->cert_pem, "Response"))) ||
	    (sig_as && (rc = verify_signature(sig_as, as_id, e->cert_pem, "Assertion"))))
		goto cleanup;
	out->assertion_id = as_id;
	rc = read_assertion(a, resp, as, e, out);
cleanup:
	if (doc)
		xmlFreeDoc(doc);
	xmlSetGenericErrorFunc(old_ctx, old_fn);
	return rc;
}

/* ---- the AuthnRequest ---- */

/* s with XML's five special characters escaped, for an attribute or text. */
static const char *xml_escape(struct arena *a, const char *s)
{
	size_t n = 0;
	char *o, *p;

	for (const char *c = s; *c; c++)
		n += *c == '&' ? 5 : *c == '<' || *c == '>' ? 4 : *c == '"' || *c == '\'' ? 6 : 1;
	p = o = arena_alloc(a, n + 1);
	for (; *s; s++) {
		const char *r = *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;" : *s == '"' ? "&quot;"
			      : *s == '\'' ? "&apos;" : NULL;
		if (r) {
			memcpy(p, r, strlen(r));
			p += strlen(r);
		} else {
			*p++ = *s;
		}
	}
	*p = '\0';
	return o;
}

/* s percent-encoded for a query value (unreserved characters kept). */
static const char *query_escape(struct arena *a, const char *s)
{
	char *o = arena_alloc(a, strlen(s) * 3 + 1), *p = o;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
			*p++ = (char)c;
		} else {
			pct_encode_byte(p, c);
			p += 3;
		}
	}
	*p = '\0';
	return o;
}

int saml_authn_request_url(struct arena *a, const char *id, int64_t now_ms, const char *sso_url, const char *acs_url,
			   const char *sp_entity_id, const char *relay_state, const char **url)
{
	char ts[TS_LEN];
	const char *xml;
	unsigned char *def;
	char *b64;
	z_stream z = { 0 };
	uLong cap;
	int zrc;

	ts_format(ts, now_ms);
	xml = arena_printf(a,
			   "<samlp:AuthnRequest xmlns:samlp=\"" NS_SAMLP "\" xmlns:saml=\"" NS_SAML "\" ID=\"%s\" "
			   "Version=\"2.0\" IssueInstant=\"%s\" Destination=\"%s\" AssertionConsumerServiceURL=\"%s\" "
			   "ProtocolBinding=\"urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST\">"
			   "<saml:Issuer>%s</saml:Issuer>"
			   "<samlp:NameIDPolicy Format=\"urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress\" "
			   "AllowCreate=\"true\"/></samlp:AuthnRequest>",
			   xml_escape(a, id), ts, xml_escape(a, sso_url), xml_escape(a, acs_url), xml_escape(a, sp_entity_id));
	/* HTTP-Redirect binding: raw DEFLATE (RFC 1951, no zlib header). */
	if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return err_set(ERR_INTERNAL, "deflateInit2 failed");
	cap = deflateBound(&z, (uLong)strlen(xml));
	def = arena_alloc(a, cap);
	z.next_in = (Bytef *)xml;
	z.avail_in = (uInt)strlen(xml);
	z.next_out = def;
	z.avail_out = (uInt)cap;
	zrc = deflate(&z, Z_FINISH);
	cap = z.total_out;
	deflateEnd(&z);
	if (zrc != Z_STREAM_END)
		return err_set(ERR_INTERNAL, "deflate failed");
	b64 = arena_alloc(a, base64_encoded_len(cap) + 1);
	base64_encode(b64, def, cap);
	*url = arena_printf(a, "%s%sSAMLRequest=%s%s%s", sso_url, strchr(sso_url, '?') ? "&" : "?", query_escape(a, b64),
			    relay_state ? "&RelayState=" : "", relay_state ? query_escape(a, relay_state) : "");
	return 0;
}
