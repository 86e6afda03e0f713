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

#include "util/alloc.h"
#include "util/err.h"
#include "util/util.h"

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
