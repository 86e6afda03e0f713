/*
 * visitor.c - visitor tokens of visitor-auth sites (site.h): an HS256 JWT
 * signed with the site's visitor key (GitBook's flow: ?jwt_token= once, then
 * a cookie). The signature is compared in constant time; alg must be HS256
 * (never "none"); a "crit" header is refused (RFC 7515 4.1.11: a recipient
 * that does not understand a listed extension must reject the token, and
 * docsd understands none); exp is required, must be in the future and at
 * most VISITOR_TOKEN_MAX_LIFETIME away (a token without it, or with
 * exp: 1e308, would open the site for ever: the cookie keeps it); nbf, when
 * present, must not be in the future.
 */
#include "site/site.h"

#include "http/http.h"
#include "util/alloc.h"
#include "util/err.h"
#include "util/text.h"
#include "util/util.h"

#include <microhttpd.h>
#include <stdlib.h>
#include <string.h>

#define JWT_MAX 8192

static json_t *b64json(const char *s, size_t n)
{
	unsigned char *buf;
	long len;
	json_t *j = NULL;

	buf = xmalloc(n * 3 / 4 + 3);
	len = base64url_decode(buf, s, n);
	if (len >= 0)
		j = json_loadb((const char *)buf, (size_t)len, JSON_REJECT_DUPLICATES, NULL);
	free(buf);
	return j;
}

int visitor_jwt_verify(const char *token, const char *key, int64_t now, json_t **claims)
{
	const char *d1, *d2;
	unsigned char mac[32], sig[48];
	json_t *hdr = NULL, *body = NULL;
	const json_t *exp, *nbf;
	unsigned diff = 0;
	long sl;
	size_t n;
	int rc = ERR_UNAUTHORIZED;

	*claims = NULL;
	if (!token || !key || (n = strlen(token)) > JWT_MAX || !(d1 = strchr(token, '.')) || !(d2 = strchr(d1 + 1, '.')) ||
	    strchr(d2 + 1, '.'))
		return err_set(ERR_UNAUTHORIZED, "malformed visitor token");
	if (n - (size_t)(d2 + 1 - token) > 60 || (sl = base64url_decode(sig, d2 + 1, strlen(d2 + 1))) != 32)
		return err_set(ERR_UNAUTHORIZED, "bad visitor token signature");
	if (hmac_sha256(mac, key, strlen(key), token, (size_t)(d2 - token)))
		return err_set(ERR_INTERNAL, "hmac failed");
	for (int i = 0; i < 32; i++)
		diff |= (unsigned)(mac[i] ^ sig[i]);
	if (diff)
		return err_set(ERR_UNAUTHORIZED, "bad visitor token signature");
	hdr = b64json(token, (size_t)(d1 - token));
	body = b64json(d1 + 1, (size_t)(d2 - d1 - 1));
	if (!hdr || !body || !json_is_object(body) ||
	    strcmp(json_string_value(json_object_get(hdr, "alg")) ? json_string_value(json_object_get(hdr, "alg")) : "",
		   "HS256") != 0) {
		err_set(ERR_UNAUTHORIZED, "malformed visitor token");
		goto out;
	}
	if (json_object_get(hdr, "crit")) {
		err_set(ERR_UNAUTHORIZED, "visitor token has critical extensions");
		goto out;
	}
	exp = json_object_get(body, "exp");
	nbf = json_object_get(body, "nbf");
	/* Compared as doubles: a JSON number may be any size (1e308), and every
	 * int64 second count of the next centuries is exact in a double. */
	if (!exp || !json_is_number(exp) || json_number_value(exp) <= (double)now ||
	    json_number_value(exp) > (double)now + VISITOR_TOKEN_MAX_LIFETIME ||
	    (nbf && (!json_is_number(nbf) || json_number_value(nbf) > (double)now))) {
		err_set(ERR_UNAUTHORIZED, "visitor token expired, not yet valid or valid for too long");
		goto out;
	}
	*claims = body;
	body = NULL;
	rc = 0;
out:
	json_decref(hdr);
	json_decref(body);
	return rc;
}

/* ---- the claims conditions read ----
 *
 * GitBook's sources of claims, beside the JWT (which alone opens a
 * visitor-auth site or space: these never do):
 *   the cookie gitbook-visitor-public: a JSON object (percent-encoded, as
 *     js-cookie writes it) of unsigned claims;
 *   ?visitor.<name>=<value> query parameters: one unsigned claim each,
 *     "true"/"false" as booleans, a JSON number as a number, else the text.
 * Both land under claims.unsigned (the URL over the cookie); claims
 * outside unsigned come from the JWT only. */

#define VISITOR_PUBLIC_MAX 4096 /* bytes of the public cookie read */
#define VISITOR_PARAMS_MAX 32   /* visitor.* parameters read */

struct params {
	json_t *unsigned_claims;
	int n;
};

static json_t *param_value(const char *v)
{
	char *end;
	double d;

	if (strcmp(v, "true") == 0)
		return json_true();
	if (strcmp(v, "false") == 0)
		return json_false();
	if (*v && strspn(v, "0123456789.-eE+") == strlen(v)) {
		d = strtod(v, &end);
		if (!*end && d == d)
			return json_real(d);
	}
	return json_string(v);
}

static enum MHD_Result on_param(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	struct params *p = cls;
	json_t *v;

	(void)kind;
	if (!key || strncmp(key, "visitor.", 8) != 0 || !key[8] || !value || strlen(key) > 128 ||
	    strlen(value) > 1024 || utf8_len(key) < 0 || utf8_len(value) < 0)
		return MHD_YES;
	if (++p->n > VISITOR_PARAMS_MAX)
		return MHD_NO;
	if (!p->unsigned_claims)
		p->unsigned_claims = json_object();
	v = param_value(value);
	if (v)
		json_object_set_new(p->unsigned_claims, key + 8, v);
	return MHD_YES;
}

json_t *visitor_unsigned_claims(struct req *r, const char *public_cookie)
{
	struct params p = { 0 };
	json_t *cookie = NULL;

	if (public_cookie && *public_cookie && strlen(public_cookie) <= VISITOR_PUBLIC_MAX) {
		char *dec = arena_alloc(&r->arena, strlen(public_cookie) + 1);
		long n = pct_decode(dec, public_cookie, strlen(public_cookie), 0);
		if (n >= 0)
			cookie = json_loadb(dec, (size_t)n, JSON_REJECT_DUPLICATES, NULL);
		if (!json_is_object(cookie)) {
			json_decref(cookie);
			cookie = NULL;
		}
	}
	p.unsigned_claims = cookie;
	MHD_get_connection_values(r->conn, MHD_GET_ARGUMENT_KIND, on_param, &p);
	return p.unsigned_claims;
}

json_t *visitor_json_of(const json_t *jwt_claims, json_t *unsigned_claims)
{
	json_t *claims, *u;

	if (!jwt_claims && !unsigned_claims)
		return NULL;
	if (!unsigned_claims) /* nothing to merge: the token's claims as they are (never changed) */
		return json_pack("{sO}", "claims", (json_t *)jwt_claims);
	claims = jwt_claims ? json_deep_copy(jwt_claims) : json_object();
	if (unsigned_claims) {
		u = json_object_get(claims, "unsigned");
		if (json_is_object(u)) {
			json_object_update(u, unsigned_claims);
			json_decref(unsigned_claims);
		} else {
			json_object_set_new(claims, "unsigned", unsigned_claims);
		}
	}
	return json_pack("{so}", "claims", claims);
}

const char *visitor_cache_key(struct arena *a, const json_t *visitor)
{
	char *text, hex[65];
	const char *k;

	if (!visitor)
		return "-";
	text = json_dumps(visitor, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
	if (!text || sha256_hex(hex, text, strlen(text)))
		k = NULL; /* the caller's key then differs from every other */
	else
		k = arena_strdup(a, hex);
	free(text);
	return k;
}
