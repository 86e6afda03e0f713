#include "json/jsonw.h"
#include "util/alloc.h"
#include "util/text.h"
#include "util/util.h"

#include <stdlib.h>

void jw_init(struct jw *w)
{
	memset(w, 0, sizeof(*w));
}

void jw_free(struct jw *w)
{
	buf_free(&w->b);
	w->comma = false;
}

void jw_reset(struct jw *w)
{
	buf_reset(&w->b);
	w->comma = false;
}

/* 1 for bytes JSON requires escaped (the quote, the backslash, controls); 2 for
 * the bytes that start or continue a multi-byte UTF-8 sequence, which are
 * checked before they are copied. */
static const unsigned char needs_escape[256] = {
	[0x00] = 1, [0x01] = 1, [0x02] = 1, [0x03] = 1, [0x04] = 1, [0x05] = 1, [0x06] = 1, [0x07] = 1,
	[0x08] = 1, [0x09] = 1, [0x0a] = 1, [0x0b] = 1, [0x0c] = 1, [0x0d] = 1, [0x0e] = 1, [0x0f] = 1,
	[0x10] = 1, [0x11] = 1, [0x12] = 1, [0x13] = 1, [0x14] = 1, [0x15] = 1, [0x16] = 1, [0x17] = 1,
	[0x18] = 1, [0x19] = 1, [0x1a] = 1, [0x1b] = 1, [0x1c] = 1, [0x1d] = 1, [0x1e] = 1, [0x1f] = 1,
	['"'] = 1, ['\\'] = 1,
	[0x80 ... 0xff] = 2,
};

/* The well-formed UTF-8 sequence at p (Unicode table 3-7: no overlong forms,
 * no surrogates, nothing above U+10FFFF): its length, or minus the length of
 * its maximal ill-formed prefix (at least 1), which is replaced by one U+FFFD. */
static int utf8_seq(const unsigned char *p, const unsigned char *end)
{
	size_t avail = (size_t)(end - p);
	unsigned char lo = 0x80, hi = 0xbf;
	int n, i;

	if (*p >= 0xc2 && *p <= 0xdf)
		n = 2;
	else if (*p >= 0xe0 && *p <= 0xef)
		n = 3;
	else if (*p >= 0xf0 && *p <= 0xf4)
		n = 4;
	else
		return -1;
	if (*p == 0xe0)
		lo = 0xa0;
	else if (*p == 0xed)
		hi = 0x9f;
	else if (*p == 0xf0)
		lo = 0x90;
	else if (*p == 0xf4)
		hi = 0x8f;
	for (i = 1; i < n; i++) {
		if ((size_t)i >= avail || p[i] < lo || p[i] > hi)
			return -i;
		lo = 0x80;
		hi = 0xbf;
	}
	return n;
}

/* Always valid UTF-8 JSON, whatever the input: invalid sequences become U+FFFD
 * (so echoed request bytes can never break a response). */
void jw_strn(struct jw *w, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n, *run;
	int l;

	jw_sep(w);
	/* Worst case every byte becomes \u00XX: reserve once when it fits. */
	if (w->cap - w->len < n + 2 && !jw_reserve(w, n + 2))
		return;
	w->buf[w->len++] = '"';
	while (p < end) {
		run = p;
		for (;;) {
			while (p < end && !needs_escape[*p])
				p++;
			if (p < end && needs_escape[*p] == 2 && (l = utf8_seq(p, end)) > 0) {
				p += l;
				continue;
			}
			break;
		}
		jw_put(w, (const char *)run, (size_t)(p - run));
		if (p == end)
			break;
		if (needs_escape[*p] == 2) {
			jw_put(w, "\xef\xbf\xbd", 3);
			p += -utf8_seq(p, end);
			continue;
		}
		char esc[6] = { '\\', 0, 0, 0, 0, 0 };
		size_t el = 2;
		switch (*p) {
		case '"': esc[1] = '"'; break;
		case '\\': esc[1] = '\\'; break;
		case '\n': esc[1] = 'n'; break;
		case '\r': esc[1] = 'r'; break;
		case '\t': esc[1] = 't'; break;
		case '\b': esc[1] = 'b'; break;
		case '\f': esc[1] = 'f'; break;
		default:
			esc[1] = 'u';
			esc[2] = '0';
			esc[3] = '0';
			esc[4] = hex_lower[*p >> 4];
			esc[5] = hex_lower[*p & 15];
			el = 6;
		}
		jw_put(w, esc, el);
		p++;
	}
	jw_put(w, "\"", 1);
	w->comma = true;
}

void jw_int(struct jw *w, int64_t v)
{
	char tmp[24];
	int i = (int)sizeof(tmp);
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

	do {
		tmp[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		tmp[--i] = '-';
	jw_sep(w);
	jw_put(w, tmp + i, sizeof(tmp) - (size_t)i);
	w->comma = true;
}

void jw_kts(struct jw *w, const char *k, int64_t ms)
{
	char ts[TS_LEN];

	ts_format(ts, ms);
	jw_key(w, k);
	jw_put(w, "\"", 1);
	jw_put(w, ts, 24);
	jw_put(w, "\"", 1);
	w->comma = true;
}

void jw_kurl(struct jw *w, const char *k, const char *base, const char *path1, const char *path2)
{
	jw_key(w, k);
	jw_put(w, "\"", 1);
	/* The base is the operator's --public-url, the paths docsd's own ids:
	 * neither holds a character JSON needs escaped. */
	jw_put(w, base, strlen(base));
	jw_put(w, path1, strlen(path1));
	if (path2)
		jw_put(w, path2, strlen(path2));
	jw_put(w, "\"", 1);
	w->comma = true;
}
