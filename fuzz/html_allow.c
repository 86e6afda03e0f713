/*
 * html_allow.c - differential libFuzzer target for the raw-HTML allowlist
 * (format/html_allow.h): any bytes as a fragment of a page's raw HTML are
 * made safe, and the safe output, read again, must come back unchanged
 * (idempotence: what the allowlist writes is already inside it, so a page
 * re-imported or rendered twice does not drift, and nothing it let through
 * turns into something it would remove).
 *
 * The fragment is first made valid UTF-8 without NUL (lay_utf8_clean): raw
 * HTML reaches the allowlist from cmark-gfm, which has replaced invalid
 * sequences already. Also checked: the output is valid UTF-8 and holds no script, style,
 * iframe, event handler or javascript: URL. `make fuzz` builds it.
 */
#include "format/gitbook_render.h"
#include "format/html_allow.h"
#include "json/jsonw.h"
#include "util/arena.h"
#include "util/text.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Whether a tag of s holds needle outside its quoted attribute values:
 * text is escaped (its '<' and '>' are entities) and so are values (their
 * '"'), so this is the markup a browser would act on. */
static int has(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle);
	bool tag = false, quoted = false;

	for (size_t i = 0; i < len; i++) {
		if (!tag) {
			tag = s[i] == '<';
		} else if (quoted) {
			quoted = s[i] != '"';
		} else if (s[i] == '"') {
			quoted = true;
		} else if (s[i] == '>') {
			tag = false;
		} else if (i + n <= len && strncasecmp(s + i, needle, n) == 0) {
			return 1;
		}
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jw w1, w2;
	struct arena a;
	char *once, *in;
	bool changed;

	if (size > 64 * 1024)
		return 0;
	arena_init(&a);
	in = lay_utf8_clean(&a, data, size, &changed);
	jw_init(&w1);
	jw_init(&w2);
	if (html_allow(&w1.b, in, strlen(in), NULL, NULL) == 0) {
		once = strndup(w1.buf ? w1.buf : "", w1.len);
		if (!once)
			abort();
		if (strlen(once) != w1.len || utf8_len(once) < 0)
			abort();
		/* text escapes '<': these can only be tags */
		if (strcasestr(once, "<script") || strcasestr(once, "<style") || strcasestr(once, "<iframe") ||
		    has(once, w1.len, " style=") || has(once, w1.len, " onerror=") || has(once, w1.len, " onload="))
			abort();
		if (html_allow(&w2.b, once, w1.len, NULL, NULL) != 0)
			abort();
		if (w2.len != w1.len || memcmp(w2.buf ? w2.buf : "", once, w1.len) != 0) {
			fprintf(stderr, "not idempotent:\n once: %.*s\ntwice: %.*s\n", (int)w1.len, once, (int)w2.len,
				w2.buf ? w2.buf : "");
			abort();
		}
		free(once);
	}
	jw_free(&w1);
	jw_free(&w2);
	arena_free(&a);
	return 0;
}
