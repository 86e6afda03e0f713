/*
 * text.c - hex, percent-decoding and UTF-8, once (text.h).
 */
#include "util/text.h"

const char hex_lower[17] = "0123456789abcdef";
const char hex_upper[17] = "0123456789ABCDEF";

void hex_encode(char *out, const void *in, size_t n)
{
	const unsigned char *p = in;

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = hex_lower[p[i] >> 4];
		out[2 * i + 1] = hex_lower[p[i] & 15];
	}
	out[2 * n] = '\0';
}

long pct_decode(char *out, const char *s, size_t n, unsigned flags)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		int h, l, c;
		if (s[i] != '%') {
			out[k++] = s[i];
			continue;
		}
		/* i + 2 < n: both digits lie inside the input, never past it. */
		if (i + 2 >= n || (h = hex_digit(s[i + 1])) < 0 || (l = hex_digit(s[i + 2])) < 0) {
			if (flags & PCT_STRICT)
				return -1;
			out[k++] = '%';
			continue;
		}
		c = h * 16 + l;
		if ((c == 0 && (flags & PCT_KEEP_NUL)) || (c == '/' && (flags & PCT_KEEP_SLASH))) {
			/* Kept: copy the '%' alone; the two digits that follow are
			 * copied as plain bytes on the next turns. */
			out[k++] = '%';
			continue;
		}
		out[k++] = (char)c;
		i += 2;
	}
	out[k] = '\0';
	return (long)k;
}

size_t utf8_encode(char out[4], unsigned long cp)
{
	if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

long utf8_len(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	long n = 0;

	while (*p) {
		int extra;
		if (*p < 0x80)
			extra = 0;
		else if ((*p & 0xE0) == 0xC0 && *p >= 0xC2)
			extra = 1;
		else if ((*p & 0xF0) == 0xE0)
			extra = 2;
		else if ((*p & 0xF8) == 0xF0 && *p <= 0xF4)
			extra = 3;
		else
			return -1;
		/* No overlong forms, no surrogates, nothing above U+10FFFF. */
		if ((p[0] == 0xE0 && p[1] < 0xA0) || (p[0] == 0xED && p[1] >= 0xA0) || (p[0] == 0xF0 && p[1] < 0x90) ||
		    (p[0] == 0xF4 && p[1] >= 0x90))
			return -1;
		p++;
		for (int i = 0; i < extra; i++, p++)
			if ((*p & 0xC0) != 0x80)
				return -1;
		n++;
	}
	return n;
}
