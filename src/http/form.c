/*
 * form.c - reading application/x-www-form-urlencoded bodies (form.h states
 * the rules).
 */
#include "http/form.h"
#include "util/text.h"

#include <string.h>

/* Decode s[0..n) ('+' is a space, then strict percent-decoding) into a
 * NUL-terminated arena string: its length, or -1. */
static long decode(struct arena *a, const char *s, size_t n, char **out)
{
	char *buf = arena_alloc(a, n + 1);
	long len;

	if (!buf)
		return -1;
	for (size_t i = 0; i < n; i++)
		buf[i] = s[i] == '+' ? ' ' : s[i];
	len = pct_decode(buf, buf, n, PCT_STRICT);
	if (len < 0 || memchr(buf, '\0', (size_t)len))
		return -1;
	*out = buf;
	return len;
}

int form_field(struct arena *a, const char *body, size_t len, const char *name, const char **out)
{
	const char *p = body, *end = body + len;

	*out = NULL;
	while (body && p < end) {
		const char *amp = memchr(p, '&', (size_t)(end - p));
		const char *pair_end = amp ? amp : end;
		const char *eq = memchr(p, '=', (size_t)(pair_end - p));
		const char *name_end = eq ? eq : pair_end;
		char *key, *val;

		if (name_end > p && decode(a, p, (size_t)(name_end - p), &key) >= 0 && strcmp(key, name) == 0) {
			const char *v = eq ? eq + 1 : pair_end;
			if (decode(a, v, (size_t)(pair_end - v), &val) < 0 || utf8_len(val) < 0)
				return -1;
			*out = val;
			return 1;
		}
		p = pair_end + 1;
	}
	return 0;
}
