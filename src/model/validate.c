#include "model/validate.h"

#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

int valid_email(const char *s)
{
	const char *at = strchr(s, '@');

	if (!at || at == s || strchr(at + 1, '@') || strlen(s) > 254)
		return 0;
	for (const char *p = s; p < at; p++)
		if ((unsigned char)*p <= ' ' || strchr("<>\"(),;:[]\\", *p))
			return 0;
	return valid_domain(at + 1);
}

int valid_domain(const char *s)
{
	size_t n = strlen(s), label = 0;
	int labels = 1;

	if (n == 0 || n > 253 || s[0] == '.' || s[n - 1] == '.')
		return 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '.') {
			if (label == 0 || s[i - 1] == '-')
				return 0;
			labels++;
			label = 0;
			continue;
		}
		if (!(isalnum(c) || c == '-') || c >= 0x80)
			return 0;
		if (c == '-' && label == 0)
			return 0;
		if (++label > 63)
			return 0;
	}
	return labels >= 2 && s[n - 1] != '-';
}

int valid_hostname(const char *s)
{
	size_t n = strlen(s);

	if (n < 3 || n > 32 || s[0] == '-' || s[n - 1] == '-')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
			return 0;
	return 1;
}

int valid_site_hostname(const char *s)
{
	/* The seed's pattern: ^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$
	 * that is, three or more labels of [a-z0-9-] (1..63, no '-' at either
	 * end), the last at least two characters. */
	int labels = 0;
	size_t len = 0;
	const char *p;

	if (strlen(s) > 253)
		return 0;
	for (p = s;; p++) {
		if (*p == '.' || *p == '\0') {
			if (len == 0 || len > 63 || p[-1] == '-' || p[-(long)len] == '-')
				return 0;
			labels++;
			if (*p == '\0')
				break;
			len = 0;
			continue;
		}
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-'))
			return 0;
		len++;
	}
	return labels >= 3 && len >= 2;
}

int valid_url(const char *s)
{
	const char *host;
	size_t n = strlen(s);

	if (n > 2048)
		return 0;
	if (strncasecmp(s, "https://", 8) == 0)
		host = s + 8;
	else if (strncasecmp(s, "http://", 7) == 0)
		host = s + 7;
	else
		return 0;
	if (!*host || *host == '/' || *host == ':' || *host == '?' || *host == '#')
		return 0;
	for (const char *p = s; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == '"' || *p == '<' || *p == '>' || *p == '\\')
			return 0;
	return 1;
}

/* ---- media types ---- */

/* RFC 6838 restricted-name-chars after the first character. */
static int restricted_char(unsigned char c)
{
	return isalnum(c) || (c && strchr("!#$&-^_.+", c));
}

/* RFC 9110 tchar. */
static int token_char(unsigned char c)
{
	return c < 0x80 && (isalnum(c) || (c && strchr("!#$%&'*+-.^_`|~", c)));
}

/* A restricted name at *p (1..127 characters); advances *p past it. */
static int restricted_name(const char **p)
{
	const unsigned char *q = (const unsigned char *)*p;
	size_t n = 0;

	if (*q >= 0x80 || !isalnum(*q))
		return 0;
	while (restricted_char(q[n]) && q[n] < 0x80)
		n++;
	if (n > 127)
		return 0;
	*p += n;
	return 1;
}

static const char *skip_ows(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

int valid_media_type(const char *s)
{
	const char *p = s;

	if (strlen(s) > MEDIA_TYPE_MAX || !restricted_name(&p) || *p++ != '/' || !restricted_name(&p))
		return 0;
	for (;;) {
		p = skip_ows(p);
		if (!*p)
			return p[-1] != ' ' && p[-1] != '\t'; /* no trailing white space */
		if (*p++ != ';')
			return 0;
		p = skip_ows(p);
		if (!token_char((unsigned char)*p))
			return 0;
		while (token_char((unsigned char)*p))
			p++;
		if (*p++ != '=')
			return 0;
		if (*p == '"') {
			for (p++; *p != '"'; p++) {
				unsigned char c = (unsigned char)*p;
				if (c == '\\')
					c = (unsigned char)*++p;
				/* HTAB, SP and visible ASCII; not the end of the string */
				if (!(c == '\t' || (c >= 0x20 && c < 0x7f)))
					return 0;
			}
			p++;
		} else {
			if (!token_char((unsigned char)*p))
				return 0;
			while (token_char((unsigned char)*p))
				p++;
		}
	}
}

/* ---- emoji ---- */

struct cp_range {
	uint32_t lo, hi;
};

/* Unicode's Extended_Pictographic code points (emoji-data.txt, Unicode 15),
 * in order: the characters an emoji element starts with. */
static const struct cp_range pictographic[] = {
	{ 0x00A9, 0x00A9 },   { 0x00AE, 0x00AE },   { 0x203C, 0x203C },   { 0x2049, 0x2049 },
	{ 0x2122, 0x2122 },   { 0x2139, 0x2139 },   { 0x2194, 0x2199 },   { 0x21A9, 0x21AA },
	{ 0x231A, 0x231B },   { 0x2328, 0x2328 },   { 0x2388, 0x2388 },   { 0x23CF, 0x23CF },
	{ 0x23E9, 0x23F3 },   { 0x23F8, 0x23FA },   { 0x24C2, 0x24C2 },   { 0x25AA, 0x25AB },
	{ 0x25B6, 0x25B6 },   { 0x25C0, 0x25C0 },   { 0x25FB, 0x25FE },   { 0x2600, 0x2605 },
	{ 0x2607, 0x2612 },   { 0x2614, 0x2685 },   { 0x2690, 0x2705 },   { 0x2708, 0x2712 },
	{ 0x2714, 0x2714 },   { 0x2716, 0x2716 },   { 0x271D, 0x271D },   { 0x2721, 0x2721 },
	{ 0x2728, 0x2728 },   { 0x2733, 0x2734 },   { 0x2744, 0x2744 },   { 0x2747, 0x2747 },
	{ 0x274C, 0x274C },   { 0x274E, 0x274E },   { 0x2753, 0x2755 },   { 0x2757, 0x2757 },
	{ 0x2763, 0x2767 },   { 0x2795, 0x2797 },   { 0x27A1, 0x27A1 },   { 0x27B0, 0x27B0 },
	{ 0x27BF, 0x27BF },   { 0x2934, 0x2935 },   { 0x2B05, 0x2B07 },   { 0x2B1B, 0x2B1C },
	{ 0x2B50, 0x2B50 },   { 0x2B55, 0x2B55 },   { 0x3030, 0x3030 },   { 0x303D, 0x303D },
	{ 0x3297, 0x3297 },   { 0x3299, 0x3299 },   { 0x1F000, 0x1F0FF }, { 0x1F10D, 0x1F10F },
	{ 0x1F12F, 0x1F12F }, { 0x1F16C, 0x1F171 }, { 0x1F17E, 0x1F17F }, { 0x1F18E, 0x1F18E },
	{ 0x1F191, 0x1F19A }, { 0x1F1AD, 0x1F1E5 }, { 0x1F201, 0x1F20F }, { 0x1F21A, 0x1F21A },
	{ 0x1F22F, 0x1F22F }, { 0x1F232, 0x1F23A }, { 0x1F23C, 0x1F23F }, { 0x1F249, 0x1F3FA },
	{ 0x1F400, 0x1F53D }, { 0x1F546, 0x1F64F }, { 0x1F680, 0x1F6FF }, { 0x1F774, 0x1F77F },
	{ 0x1F7D5, 0x1F7FF }, { 0x1F80C, 0x1F80F }, { 0x1F848, 0x1F84F }, { 0x1F85A, 0x1F85F },
	{ 0x1F888, 0x1F88F }, { 0x1F8AE, 0x1F8FF }, { 0x1F90C, 0x1F93A }, { 0x1F93C, 0x1F945 },
	{ 0x1F947, 0x1FAFF }, { 0x1FC00, 0x1FFFD },
};

#define CP_ZWJ 0x200D
#define CP_VS15 0xFE0E
#define CP_VS16 0xFE0F
#define CP_KEYCAP 0x20E3
#define CP_TAG_CANCEL 0xE007F

static int is_pictographic(uint32_t c)
{
	size_t lo = 0, hi = sizeof(pictographic) / sizeof(pictographic[0]);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c < pictographic[mid].lo)
			hi = mid;
		else if (c > pictographic[mid].hi)
			lo = mid + 1;
		else
			return 1;
	}
	return 0;
}

static int is_modifier(uint32_t c)
{
	return c >= 0x1F3FB && c <= 0x1F3FF; /* skin tones */
}

static int is_regional(uint32_t c)
{
	return c >= 0x1F1E6 && c <= 0x1F1FF;
}

static int is_tag(uint32_t c)
{
	return c >= 0xE0020 && c <= 0xE007E;
}

/* One element of a ZWJ sequence starting at c[i]: the index after it, or -1. */
static int emoji_element(const uint32_t *c, int n, int i)
{
	if (i >= n)
		return -1;
	if (is_regional(c[i]))
		return i + 1 < n && is_regional(c[i + 1]) ? i + 2 : -1;
	if ((c[i] >= '0' && c[i] <= '9') || c[i] == '#' || c[i] == '*') {
		i++;
		if (i < n && c[i] == CP_VS16)
			i++;
		return i < n && c[i] == CP_KEYCAP ? i + 1 : -1;
	}
	if (!is_pictographic(c[i]) && !is_modifier(c[i]))
		return -1;
	i++;
	if (i < n && (c[i] == CP_VS15 || c[i] == CP_VS16))
		i++;
	if (i < n && is_modifier(c[i]))
		i++;
	if (i < n && c[i] == CP_VS16)
		i++;
	if (i < n && is_tag(c[i])) {
		while (i < n && is_tag(c[i]))
			i++;
		if (i >= n || c[i] != CP_TAG_CANCEL)
			return -1;
		i++;
	}
	return i;
}

/* GitBook's code point form: 1..6 hex digits per code point, joined by '-'. */
static int emoji_hex(const char *s, uint32_t *c, int *n)
{
	*n = 0;
	while (*s) {
		uint32_t v = 0;
		int digits = 0;
		for (; isxdigit((unsigned char)*s); s++) {
			if (++digits > 6)
				return 0;
			v = v * 16 + (uint32_t)(isdigit((unsigned char)*s) ? *s - '0' : (tolower((unsigned char)*s) - 'a' + 10));
		}
		if (digits == 0 || *n >= EMOJI_MAX_CODEPOINTS)
			return 0;
		c[(*n)++] = v;
		if (*s == '-' && s[1])
			s++;
		else if (*s)
			return 0;
	}
	return *n > 0;
}

/* Strict UTF-8 (no overlongs, surrogates or values past U+10FFFF). */
static int emoji_utf8(const char *str, uint32_t *c, int *n)
{
	const unsigned char *s = (const unsigned char *)str;

	*n = 0;
	while (*s) {
		uint32_t v;
		int extra;
		if (*s < 0x80)
			v = *s, extra = 0;
		else if (*s >= 0xC2 && *s <= 0xDF)
			v = *s & 0x1F, extra = 1;
		else if (*s >= 0xE0 && *s <= 0xEF)
			v = *s & 0x0F, extra = 2;
		else if (*s >= 0xF0 && *s <= 0xF4)
			v = *s & 0x07, extra = 3;
		else
			return 0;
		s++;
		for (int k = 0; k < extra; k++, s++) {
			if ((*s & 0xC0) != 0x80)
				return 0;
			v = v << 6 | (*s & 0x3F);
		}
		if ((extra == 2 && (v < 0x800 || (v >= 0xD800 && v <= 0xDFFF))) || (extra == 3 && (v < 0x10000 || v > 0x10FFFF)))
			return 0;
		if (*n >= EMOJI_MAX_CODEPOINTS)
			return 0;
		c[(*n)++] = v;
	}
	return *n > 0;
}

int valid_emoji(const char *s)
{
	uint32_t c[EMOJI_MAX_CODEPOINTS];
	int n, i;
	size_t hex = strspn(s, "0123456789abcdefABCDEF-");

	if (!(s[hex] == '\0' ? emoji_hex(s, c, &n) : emoji_utf8(s, c, &n)))
		return 0;
	i = emoji_element(c, n, 0);
	while (i >= 0 && i < n && c[i] == CP_ZWJ)
		i = emoji_element(c, n, i + 1);
	return i == n;
}
