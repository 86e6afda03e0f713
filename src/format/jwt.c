/*
 * jwt.c - HS256 JSON Web Tokens (format/jwt.h).
 */
#include "format/jwt.h"
#include "util/err.h"
#include "util/util.h"

#include <string.h>

/* The JOSE header of every token docsd signs. */
static const char jose_header[] = "{\"alg\":\"HS256\",\"typ\":\"JWT\"}";
/* Claims are a few hundred bytes; the bound keeps the size arithmetic safe. */
#define JWT_MAX_PAYLOAD (1u << 20)

int jwt_hs256_sign(struct arena *a, const char *secret, const char *payload, size_t len, const char **out)
{
	size_t hlen = base64url_len(sizeof(jose_header) - 1), plen = base64url_len(len), slen = base64url_len(32);
	unsigned char mac[32];
	char *tok;

	*out = NULL;
	if (len > JWT_MAX_PAYLOAD)
		return err_set(ERR_INTERNAL, "token claims too long");
	/* header "." payload "." signature NUL */
	tok = arena_alloc(a, hlen + 1 + plen + 1 + slen + 1);
	base64url_encode(tok, jose_header, sizeof(jose_header) - 1);
	tok[hlen] = '.';
	base64url_encode(tok + hlen + 1, payload, len);
	if (hmac_sha256(mac, secret, strlen(secret), tok, hlen + 1 + plen))
		return err_set(ERR_INTERNAL, "cannot sign the token");
	tok[hlen + 1 + plen] = '.';
	base64url_encode(tok + hlen + 1 + plen + 1, mac, sizeof(mac));
	*out = tok;
	return 0;
}
