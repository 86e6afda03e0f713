/*
 * md_translate.c - differential libFuzzer target for the translation markup
 * round trip (format/md_translate.h): any bytes as a page are cut into
 * segments; the segments are what the header promises (valid UTF-8, no line
 * break, no surrounding white space); the identity translation gives the
 * page back byte for byte; and a translation of every segment into other
 * words ("Zz xx", with the first byte, markup characters) either renders a
 * page that md_tr_parse reads again into as many segments, or is refused
 * as ERR_INVALID - never a damaged page. `make fuzz` builds it.
 */
#include "format/md_translate.h"
#include "util/arena.h"
#include "util/err.h"
#include "util/text.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const words[] = { "Zz xx", "*Zz* [x](y)", "Zz {% x %} `y`", "Zz\nxx" };
	struct arena a;
	struct md_tr *t = NULL, *t2 = NULL;
	const char **tr;
	char *out;
	int n, rc;

	if (size < 1 || size > 64 * 1024)
		return 0;
	arena_init(&a);
	if (md_tr_parse(&a, (const char *)data + 1, size - 1, &t) == 0) {
		n = md_tr_count(t);
		if (n < 0)
			abort();
		tr = arena_alloc(&a, sizeof(*tr) * ((size_t)n + 1));
		for (int i = 0; i < n; i++) {
			const char *s = md_tr_segment(t, i);
			size_t l = s ? strlen(s) : 0;
			if (!s || !l || utf8_len(s) < 0 || strchr(s, '\n') || s[0] == ' ' || s[l - 1] == ' ')
				abort();
			tr[i] = s;
		}
		rc = md_tr_render(t, tr, &out);
		if (rc != 0 || strlen(out) != strnlen((const char *)data + 1, size - 1) ||
		    memcmp(out, data + 1, strlen(out)) != 0) {
			fprintf(stderr, "identity translation changed the page (rc %d: %s)\n", rc, err_message());
			abort();
		}
		for (int i = 0; i < n; i++)
			tr[i] = words[data[0] & 3];
		rc = md_tr_render(t, tr, &out);
		if (rc == 0) {
			if (md_tr_parse(&a, out, strlen(out), &t2) != 0 || md_tr_count(t2) < 0)
				abort();
			md_tr_free(t2);
		} else if (rc != ERR_INVALID) {
			abort();
		}
	}
	md_tr_free(t);
	err_clear();
	arena_free(&a);
	return 0;
}
