/*
 * saml.c - format/saml.c without HTTP: responses signed here with
 * libxmlsec1 and a key made here (RSA 2048, self-signed), then verified:
 * valid, tampered, the time window at its edges (clock skew), fractional
 * and offset instants, the email from an attribute, and the AuthnRequest URL
 * read back (percent, base64, raw inflate).
 */
#include "format/saml.h"
#include "unit.h"
#include "util/err.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <xmlsec/crypto.h>
#include <xmlsec/xmldsig.h>
#include <xmlsec/xmltree.h>
#include <zlib.h>

#define ACS "https://docs.example/sso/saml/P1/acs"
#define SP "https://docs.example/sso/saml/P1/metadata"
#define IDP "https://idp.example/entity"
/* 2030-01-01T00:00:00Z */
#define T0 1893456000000LL

static char *key_pem, *cert_pem;

static char *bio_string(BIO *b)
{
	char *data;
	long n = BIO_get_mem_data(b, &data);
	char *s = malloc((size_t)n + 1);

	memcpy(s, data, (size_t)n);
	s[n] = '\0';
	return s;
}

static void make_key(void)
{
	EVP_PKEY *pk;
	X509 *x;
	X509_NAME *name;
	BIO *kb, *cb;

	if (key_pem)
		return;
	pk = EVP_RSA_gen(2048);
	x = X509_new();
	CHECK(pk && x);
	X509_set_version(x, 2);
	ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
	X509_gmtime_adj(X509_getm_notBefore(x), 0);
	X509_gmtime_adj(X509_getm_notAfter(x), 86400);
	X509_set_pubkey(x, pk);
	name = X509_get_subject_name(x);
	X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)"idp", -1, -1, 0);
	X509_set_issuer_name(x, name);
	CHECK(X509_sign(x, pk, EVP_sha256()) > 0);
	kb = BIO_new(BIO_s_mem());
	cb = BIO_new(BIO_s_mem());
	CHECK(PEM_write_bio_PrivateKey(kb, pk, NULL, NULL, 0, NULL, NULL) == 1);
	CHECK(PEM_write_bio_X509(cb, x) == 1);
	key_pem = bio_string(kb);
	cert_pem = bio_string(cb);
	BIO_free(kb);
	BIO_free(cb);
	X509_free(x);
	EVP_PKEY_free(pk);
}

/* A Response whose Assertion (ID _a1) carries a signature template; extra
 * goes into the AttributeStatement; nameid is the NameID. */
static char *response(const char *nameid, const char *extra)
{
	char *s;
	int n = asprintf(
		&s,
		"<samlp:Response xmlns:samlp=\"urn:oasis:names:tc:SAML:2.0:protocol\" "
		"xmlns:saml=\"urn:oasis:names:tc:SAML:2.0:assertion\" ID=\"_r1\" Version=\"2.0\" "
		"IssueInstant=\"2030-01-01T00:00:00Z\" Destination=\"" ACS "\" InResponseTo=\"_req1\">"
		"<saml:Issuer>" IDP "</saml:Issuer>"
		"<samlp:Status><samlp:StatusCode Value=\"urn:oasis:names:tc:SAML:2.0:status:Success\"/></samlp:Status>"
		"<saml:Assertion ID=\"_a1\" Version=\"2.0\" IssueInstant=\"2030-01-01T00:00:00Z\">"
		"<saml:Issuer>" IDP "</saml:Issuer>"
		"<ds:Signature xmlns:ds=\"http://www.w3.org/2000/09/xmldsig#\"><ds:SignedInfo>"
		"<ds:CanonicalizationMethod Algorithm=\"http://www.w3.org/2001/10/xml-exc-c14n#\"/>"
		"<ds:SignatureMethod Algorithm=\"http://www.w3.org/2001/04/xmldsig-more#rsa-sha256\"/>"
		"<ds:Reference URI=\"#_a1\"><ds:Transforms>"
		"<ds:Transform Algorithm=\"http://www.w3.org/2000/09/xmldsig#enveloped-signature\"/>"
		"<ds:Transform Algorithm=\"http://www.w3.org/2001/10/xml-exc-c14n#\"/></ds:Transforms>"
		"<ds:DigestMethod Algorithm=\"http://www.w3.org/2001/04/xmlenc#sha256\"/><ds:DigestValue/>"
		"</ds:Reference></ds:SignedInfo><ds:SignatureValue/></ds:Signature>"
		"<saml:Subject><saml:NameID>%s</saml:NameID>"
		"<saml:SubjectConfirmation Method=\"urn:oasis:names:tc:SAML:2.0:cm:bearer\">"
		"<saml:SubjectConfirmationData InResponseTo=\"_req1\" NotOnOrAfter=\"2030-01-01T00:05:00.500Z\" "
		"Recipient=\"" ACS "\"/></saml:SubjectConfirmation></saml:Subject>"
		"<saml:Conditions NotBefore=\"2029-12-31T23:59:00+00:00\" NotOnOrAfter=\"2030-01-01T00:10:00Z\">"
		"<saml:AudienceRestriction><saml:Audience>" SP "</saml:Audience></saml:AudienceRestriction>"
		"</saml:Conditions><saml:AuthnStatement AuthnInstant=\"2030-01-01T00:00:00Z\"/>"
		"<saml:AttributeStatement>%s</saml:AttributeStatement></saml:Assertion></samlp:Response>",
		nameid, extra);
	CHECK(n > 0);
	return s;
}

/* xml with its signature template signed by key_pem. */
static char *sign(const char *xml)
{
	xmlDoc *doc;
	xmlNode *as, *sig;
	xmlSecDSigCtxPtr ctx;
	xmlChar *out = NULL;
	int len = 0;
	char *s;

	CHECK(saml_init() == 0);
	doc = xmlReadMemory(xml, (int)strlen(xml), "t.xml", NULL, XML_PARSE_NONET);
	CHECK(doc != NULL);
	as = xmlSecFindNode(xmlDocGetRootElement(doc), (const xmlChar *)"Assertion",
			    (const xmlChar *)"urn:oasis:names:tc:SAML:2.0:assertion");
	CHECK(as != NULL);
	CHECK(xmlAddID(NULL, doc, (const xmlChar *)"_a1", xmlHasProp(as, (const xmlChar *)"ID")) != NULL);
	sig = xmlSecFindNode(as, xmlSecNodeSignature, xmlSecDSigNs);
	ctx = xmlSecDSigCtxCreate(NULL);
	ctx->signKey = xmlSecCryptoAppKeyLoadMemory((const xmlSecByte *)key_pem, (xmlSecSize)strlen(key_pem),
						    xmlSecKeyDataFormatPem, NULL, NULL, NULL);
	CHECK(ctx->signKey != NULL);
	CHECK(xmlSecDSigCtxSign(ctx, sig) == 0);
	xmlDocDumpMemory(doc, &out, &len);
	s = strndup((const char *)out, (size_t)len);
	xmlFree(out);
	xmlSecDSigCtxDestroy(ctx);
	xmlFreeDoc(doc);
	return s;
}

static int verify(const char *xml, int64_t now, struct arena *a, struct saml_assertion *out)
{
	struct saml_expect e = { .cert_pem = cert_pem, .idp_entity_id = IDP, .sp_entity_id = SP, .acs_url = ACS,
				 .now_ms = now };

	return saml_response_verify(a, xml, strlen(xml), &e, out);
}

UNIT_TEST(saml_response_valid_tampered_and_time_window)
{
	struct arena a;
	struct saml_assertion as;
	char *xml, *signed_xml, *bad, *p;

	make_key();
	arena_init(&a);
	xml = response(" Alice@Example.COM ", "");
	signed_xml = sign(xml);
	CHECK(verify(signed_xml, T0, &a, &as) == 0);
	CHECK_STR(as.email, "alice@example.com");
	CHECK_STR(as.assertion_id, "_a1");
	CHECK_STR(as.in_response_to, "_req1");
	/* The earliest NotOnOrAfter, with its milliseconds. */
	CHECK(as.expires_ms == T0 + 5 * 60 * 1000 + 500);
	/* Skew: 3 minutes either way are tolerated, more are not. */
	CHECK(verify(signed_xml, T0 - 60 * 1000 - 2 * 60 * 1000, &a, &as) == 0);
	CHECK(verify(signed_xml, T0 - 60 * 1000 - 4 * 60 * 1000, &a, &as) == ERR_FORBIDDEN);
	CHECK(strstr(err_message(), "not valid yet") != NULL);
	CHECK(verify(signed_xml, T0 + 7 * 60 * 1000, &a, &as) == 0);
	CHECK(verify(signed_xml, T0 + 9 * 60 * 1000, &a, &as) == ERR_FORBIDDEN);
	CHECK(strstr(err_message(), "expired") != NULL);
	/* One changed byte of the signed assertion. */
	bad = strdup(signed_xml);
	p = strstr(bad, "Alice@");
	CHECK(p != NULL);
	*p = 'M';
	CHECK(verify(bad, T0, &a, &as) == ERR_FORBIDDEN);
	CHECK(strstr(err_message(), "not valid") != NULL);
	free(bad);
	/* A comment inside the signed NameID (c14n without comments: the
	 * signature still holds) does not cut the address short. */
	bad = malloc(strlen(signed_xml) + 8);
	p = strstr(signed_xml, "@Example");
	CHECK(p != NULL);
	memcpy(bad, signed_xml, (size_t)(p - signed_xml));
	strcpy(bad + (p - signed_xml), "<!---->");
	strcat(bad, p);
	CHECK(verify(bad, T0, &a, &as) == 0);
	CHECK_STR(as.email, "alice@example.com");
	free(bad);
	/* Unsigned: the template without values does not count. */
	CHECK(verify(xml, T0, &a, &as) == ERR_FORBIDDEN);
	free(signed_xml);
	free(xml);
	arena_free(&a);
}

UNIT_TEST(saml_response_email_from_an_attribute)
{
	struct arena a;
	struct saml_assertion as;
	char *xml, *signed_xml;

	make_key();
	arena_init(&a);
	xml = response("u-12345",
		       "<saml:Attribute Name=\"urn:oid:0.9.2342.19200300.100.1.3\"><saml:AttributeValue>bob@example.org"
		       "</saml:AttributeValue></saml:Attribute><saml:Attribute Name=\"displayName\">"
		       "<saml:AttributeValue>Bob B</saml:AttributeValue></saml:Attribute>");
	signed_xml = sign(xml);
	CHECK(verify(signed_xml, T0, &a, &as) == 0);
	CHECK_STR(as.email, "bob@example.org");
	CHECK_STR(as.display_name, "Bob B");
	CHECK_STR(as.name_id, "u-12345");
	free(signed_xml);
	free(xml);
	/* No address anywhere. */
	xml = response("u-12345", "");
	signed_xml = sign(xml);
	CHECK(verify(signed_xml, T0, &a, &as) == ERR_FORBIDDEN);
	CHECK(strstr(err_message(), "no email") != NULL);
	free(signed_xml);
	free(xml);
	arena_free(&a);
}

UNIT_TEST(saml_authn_request_url_reads_back)
{
	struct arena a;
	const char *url, *q, *end;
	char *enc, xml[4096];
	unsigned char *raw;
	long n;
	uLongf xlen = sizeof(xml) - 1;
	z_stream z = { 0 };

	arena_init(&a);
	CHECK(saml_authn_request_url(&a, "_abc", T0, "https://idp.example/sso?tenant=1", ACS, SP, "/s/x?y=1&z",
				     &url) == 0);
#define PREFIX "https://idp.example/sso?tenant=1&SAMLRequest="
	CHECK(strncmp(url, PREFIX, strlen(PREFIX)) == 0);
	CHECK(strstr(url, "&RelayState=%2Fs%2Fx%3Fy%3D1%26z") != NULL);
	q = url + strlen(PREFIX);
	end = strchr(q, '&');
	enc = arena_strndup(&a, q, (size_t)(end - q));
	CHECK(pct_decode(enc, enc, strlen(enc), PCT_STRICT) > 0);
	raw = arena_alloc(&a, base64_decoded_max(strlen(enc)));
	n = base64_decode(raw, enc, strlen(enc));
	CHECK(n > 0);
	/* Raw DEFLATE, no zlib header. */
	CHECK(inflateInit2(&z, -15) == Z_OK);
	z.next_in = raw;
	z.avail_in = (uInt)n;
	z.next_out = (Bytef *)xml;
	z.avail_out = (uInt)xlen;
	CHECK(inflate(&z, Z_FINISH) == Z_STREAM_END);
	xml[z.total_out] = '\0';
	inflateEnd(&z);
	CHECK(strstr(xml, "ID=\"_abc\"") != NULL);
	CHECK(strstr(xml, "IssueInstant=\"2030-01-01T00:00:00.000Z\"") != NULL);
	CHECK(strstr(xml, "Destination=\"https://idp.example/sso?tenant=1\"") != NULL);
	CHECK(strstr(xml, "AssertionConsumerServiceURL=\"" ACS "\"") != NULL);
	CHECK(strstr(xml, "<saml:Issuer>" SP "</saml:Issuer>") != NULL);
	arena_free(&a);
}
