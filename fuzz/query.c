/*
 * query.c - libFuzzer target for query and form parsing: any bytes as a
 * query string (name=value pairs joined by '&') are read the way a list
 * request reads them - each value percent-decoded as the listener does,
 * %2F turned back into '/' as req_query does, then limit through
 * parse_decimal, page through the cursor codec - and the same bytes as an
 * application/x-www-form-urlencoded body through form_field (http/form.h).
 *
 * Checked: parse_decimal never accepts more than its maximum; form_field
 * gives only NUL-free valid UTF-8, and a field it reads twice reads the same.
 * `make fuzz` builds it.
 */
#include "http/form.h"
#include "http/http.h"
#include "model/cursor.h"
#include "util/arena.h"
#include "util/text.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "limit", "page", "order", "title", "q", "" };
	struct arena a;
	char *s, *p, *save = NULL;

	if (size > 64 * 1024)
		return 0;
	arena_init(&a);
	s = arena_strndup(&a, (const char *)data, size);
	for (p = strtok_r(s, "&", &save); p; p = strtok_r(NULL, "&", &save)) {
		char *eq = strchr(p, '='), *v = eq ? eq + 1 : p + strlen(p), *w, *r;
		uint64_t n;
		struct cursor c;
		long len;

		if (eq)
			*eq = '\0';
		len = pct_decode(v, v, strlen(v), PCT_KEEP_NUL | PCT_KEEP_SLASH);
		if (len < 0 || (size_t)len != strlen(v))
			abort();
		for (w = r = v; *r; r++) { /* req_query's %2F */
			if (r[0] == '%' && r[1] == '2' && (r[2] == 'F' || r[2] == 'f')) {
				*w++ = '/';
				r += 2;
			} else {
				*w++ = *r;
			}
		}
		*w = '\0';
		if (parse_decimal(v, 1000, &n) == 0 && n > 1000)
			abort();
		if (strcmp(p, "page") == 0 && cursor_decode(&a, v, &c) == 0 && (!c.key || !c.id))
			abort();
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *v1 = NULL, *v2 = NULL;
		int r1 = form_field(&a, (const char *)data, size, names[i], &v1);
		int r2 = form_field(&a, (const char *)data, size, names[i], &v2);

		if (r1 != r2 || r1 < -1 || r1 > 1)
			abort();
		if (r1 == 1 && (!v1 || !v2 || strcmp(v1, v2) != 0 || utf8_len(v1) < 0))
			abort();
	}
	arena_free(&a);
	return 0;
}
