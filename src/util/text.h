/*
 * text.h - the small text codecs every layer needs, written once: hex digits,
 * UTF-8 (encoding a code point, validating a string), percent-decoding.
 * (base64, both alphabets, is util/base64.h; GitBook's {% %} tags are
 * format/gitbook_tags.h.)
 *
 * None of these allocate: the caller passes the output buffer, sized as each
 * comment says, so they serve the request hot path (the listener's URL
 * decoding, the JSON writer's escapes) and arena or malloc callers alike.
 */
#ifndef DOCSD_UTIL_TEXT_H
#define DOCSD_UTIL_TEXT_H

#include <stddef.h>

/* "0123456789abcdef" and "0123456789ABCDEF". Hashes and JSON's \u00XX use the
 * lower case; percent-encoding the upper case (RFC 3986 2.1 recommends it). */
extern const char hex_lower[17];
extern const char hex_upper[17];

/* The value of the hex digit c (either case), or -1. Inline: the listener
 * decodes every request's URL with it. c may be a plain (signed) char. */
static inline int hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20; /* 'A'..'F' -> 'a'..'f'; no other byte lands in 'a'..'f' */
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* n bytes as 2n lowercase hex characters plus a NUL; out holds 2n + 1. */
void hex_encode(char *out, const void *in, size_t n);

/* c as "%XX" (upper case) into out[0..3), no NUL. */
static inline void pct_encode_byte(char out[3], unsigned char c)
{
	out[0] = '%';
	out[1] = hex_upper[c >> 4];
	out[2] = hex_upper[c & 15];
}

/* Flags of pct_decode(). Without PCT_STRICT a '%' not followed by two hex
 * digits (a stray '%', or one in the last two bytes) stays as written. */
enum {
	PCT_STRICT = 1,     /* ... instead, such a '%' fails the whole decode */
	PCT_KEEP_NUL = 2,   /* %00 stays as written: the result is a C string */
	PCT_KEEP_SLASH = 4, /* %2F stays as written: it cannot split a path */
};

/*
 * Percent-decodes s[0..n) into out, which holds n + 1 bytes (out == s decodes
 * in place: the output never overtakes the input), and NUL-terminates it.
 * Returns the decoded length, or -1 for a bad escape under PCT_STRICT (out
 * then holds partial output). Without PCT_KEEP_NUL the result may hold NULs:
 * use the length.
 */
long pct_decode(char *out, const char *s, size_t n, unsigned flags);

/* The UTF-8 encoding of code point cp into out (1 to 4 bytes, no NUL) and its
 * length; 0, writing nothing, for a surrogate (U+D800..U+DFFF) or anything
 * above U+10FFFF, which no well-formed UTF-8 holds. U+0000 encodes as one
 * zero byte: callers that must not produce it check first. */
size_t utf8_encode(char out[4], unsigned long cp);

/* UTF-8 aware length of the C string s in code points; -1 if it is not valid
 * UTF-8 (overlong forms, surrogates and anything above U+10FFFF are not). */
long utf8_len(const char *s);

#endif
