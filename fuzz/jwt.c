/*
 * jwt.c - libFuzzer target for JSON Web Tokens: any bytes as a visitor
 * token (site/visitor.c visitor_jwt_verify, the reader of ?jwt_token=) are
 * verified against a fixed key; and a differential check of the writer
 * (format/jwt.h jwt_hs256_sign) against that reader: the bytes as a claim
 * of a token docsd signs come back unchanged, and the same token under
 * another key, or with one byte of its signature changed, is refused.
 * `make fuzz` builds it.
 */
#include "format/jwt.h"
#include "site/site.h"
#include "util/arena.h"
#include "util/err.h"

#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NOW 1800000000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	json_t *claims = NULL, *payload;
	const char *tok;
	char *s, *text, *bad;
	int rc;

	if (size > 16 * 1024)
		return 0;
	s = strndup((const char *)data, size);
	if (!s)
		abort();
	if (visitor_jwt_verify(s, "site-key", NOW, &claims) == 0) {
		if (!json_is_object(claims))
			abort();
		json_decref(claims);
		claims = NULL;
	}
	arena_init(&a);
	/* A claim holding a NUL is refused by the reader (JSON text of a token
	 * is read without JSON_ALLOW_NUL): round-trip the others. */
	payload = memchr(data, '\0', size) ? NULL : json_pack("{s:I,s:s#}", "exp", (json_int_t)NOW + 60, "x", (const char *)data, size);
	text = payload ? json_dumps(payload, JSON_COMPACT) : NULL; /* NULL: not UTF-8 */
	if (text) {
		if (jwt_hs256_sign(&a, "site-key", text, strlen(text), &tok) != 0)
			abort();
		/* The reader takes tokens up to 8 KiB (visitor.c JWT_MAX): longer
		 * ones are refused, the others must read back as signed. */
		rc = visitor_jwt_verify(tok, "site-key", NOW, &claims);
		if (strlen(tok) <= 8192 ? rc != 0 || !json_equal(claims, payload) : rc == 0)
			abort(); /* docsd's own token not read back */
		json_decref(claims);
		claims = NULL;
		if (visitor_jwt_verify(tok, "other-key", NOW, &claims) == 0)
			abort();
		if (strlen(tok) > 8192)
			goto done;
		bad = arena_strdup(&a, tok);
		bad[strlen(bad) - 1] = bad[strlen(bad) - 1] == 'A' ? 'B' : 'A';
		if (visitor_jwt_verify(bad, "site-key", NOW, &claims) == 0) {
			/* base64url's last character carries unused bits: only a
			 * change of the decoded signature must be refused */
			json_decref(claims);
			claims = NULL;
		}
		bad = arena_strdup(&a, tok);
		bad[strlen(bad) - 3] = bad[strlen(bad) - 3] == 'A' ? 'B' : 'A';
		if (visitor_jwt_verify(bad, "site-key", NOW, &claims) == 0)
			abort();
done:
		free(text);
	}
	json_decref(payload);
	err_clear();
	arena_free(&a);
	free(s);
	return 0;
}
