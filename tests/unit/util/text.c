/* util/text.h (hex, percent, UTF-8), util/base64.h (both alphabets) and
 * format/gitbook_tags.h: the helpers written once, at their edges. */
#include "format/gitbook_tags.h"
#include "unit.h"
#include "util/arena.h"
#include "util/base64.h"
#include "util/text.h"

UNIT_TEST(hex_digit_reads_both_cases_and_nothing_else)
{
	CHECK(hex_digit('0') == 0 && hex_digit('9') == 9);
	CHECK(hex_digit('a') == 10 && hex_digit('f') == 15);
	CHECK(hex_digit('A') == 10 && hex_digit('F') == 15);
	/* Neighbours of the ranges, and bytes that | 0x20 would fold wrongly. */
	const char bad[] = { '/', ':', '@', 'G', 'g', '`', ' ', 'x', '\0', '\x80', '\xc1', '\xe6' };
	for (size_t i = 0; i < sizeof(bad); i++)
		CHECK(hex_digit(bad[i]) == -1);
	CHECK(hex_digit(-1) == -1);
	for (int c = 0; c < 256; c++) {
		int want = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
						      : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		CHECK(hex_digit(c) == want);
	}
}

UNIT_TEST(hex_encode_and_percent_byte)
{
	char out[9], e[3];

	hex_encode(out, "\x00\x9f\xff\x10", 4);
	CHECK_STR(out, "009fff10");
	hex_encode(out, "", 0);
	CHECK_STR(out, "");
	pct_encode_byte(e, 0xab);
	CHECK(memcmp(e, "%AB", 3) == 0);
	pct_encode_byte(e, ' ');
	CHECK(memcmp(e, "%20", 3) == 0);
}

static const char *pct(char *buf, const char *s, unsigned flags, long *len)
{
	*len = pct_decode(buf, s, strlen(s), flags);
	return buf;
}

UNIT_TEST(pct_decode_lenient_strict_and_kept_escapes)
{
	char b[64];
	long n;

	CHECK_STR(pct(b, "a%20b%2fc%41", 0, &n), "a b/cA");
	CHECK(n == 6);
	/* Stray or cut-short escapes stay as written unless strict. */
	CHECK_STR(pct(b, "100%", 0, &n), "100%");
	CHECK_STR(pct(b, "x%4", 0, &n), "x%4");
	CHECK_STR(pct(b, "%zz%%41", 0, &n), "%zz%A");
	CHECK(pct_decode(b, "100%", 4, PCT_STRICT) == -1);
	CHECK(pct_decode(b, "x%4", 3, PCT_STRICT) == -1);
	CHECK(pct_decode(b, "%g0", 3, PCT_STRICT) == -1);
	CHECK(pct_decode(b, "%41", 3, PCT_STRICT) == 1 && b[0] == 'A');
	/* The length bounds the input: an escape may not read past it. */
	CHECK(pct_decode(b, "%4142", 2, 0) == 2 && memcmp(b, "%4", 2) == 0);
	/* %00 decodes to a NUL unless kept; %2F only kept when asked. */
	CHECK(pct_decode(b, "a%00b", 5, 0) == 3 && b[1] == '\0' && b[2] == 'b');
	CHECK_STR(pct(b, "a%00b", PCT_KEEP_NUL, &n), "a%00b");
	CHECK_STR(pct(b, "a%2Fb%2f", PCT_KEEP_SLASH, &n), "a%2Fb%2f");
	CHECK_STR(pct(b, "%2F%00%41", PCT_KEEP_NUL | PCT_KEEP_SLASH, &n), "%2F%00A");
	CHECK(pct_decode(b, "", 0, PCT_STRICT) == 0 && b[0] == '\0');
	/* In place. */
	char s[] = "%E2%9C%93 ok%";
	CHECK(pct_decode(s, s, strlen(s), 0) == 7);
	CHECK_STR(s, "\xe2\x9c\x93 ok%");
}

UNIT_TEST(utf8_encode_boundaries_surrogates_and_range)
{
	char u[4];

	CHECK(utf8_encode(u, 0) == 1 && u[0] == 0);
	CHECK(utf8_encode(u, 0x7F) == 1 && u[0] == 0x7F);
	CHECK(utf8_encode(u, 0x80) == 2 && memcmp(u, "\xc2\x80", 2) == 0);
	CHECK(utf8_encode(u, 0x7FF) == 2 && memcmp(u, "\xdf\xbf", 2) == 0);
	CHECK(utf8_encode(u, 0x800) == 3 && memcmp(u, "\xe0\xa0\x80", 3) == 0);
	CHECK(utf8_encode(u, 0xD7FF) == 3 && memcmp(u, "\xed\x9f\xbf", 3) == 0);
	CHECK(utf8_encode(u, 0xD800) == 0);
	CHECK(utf8_encode(u, 0xDFFF) == 0);
	CHECK(utf8_encode(u, 0xE000) == 3 && memcmp(u, "\xee\x80\x80", 3) == 0);
	CHECK(utf8_encode(u, 0xFFFD) == 3 && memcmp(u, "\xef\xbf\xbd", 3) == 0);
	CHECK(utf8_encode(u, 0x10000) == 4 && memcmp(u, "\xf0\x90\x80\x80", 4) == 0);
	CHECK(utf8_encode(u, 0x10FFFF) == 4 && memcmp(u, "\xf4\x8f\xbf\xbf", 4) == 0);
	CHECK(utf8_encode(u, 0x110000) == 0);
	CHECK(utf8_encode(u, 0xFFFFFFFFUL) == 0);
	/* What it writes, utf8_len reads back as one code point. */
	for (unsigned long cp = 1; cp <= 0x10FFFF; cp += 0x101) {
		char z[5];
		size_t k = utf8_encode(z, cp);
		z[k] = '\0';
		CHECK((cp >= 0xD800 && cp <= 0xDFFF) ? k == 0 : utf8_len(z) == 1);
	}
	CHECK(utf8_len("\xed\xa0\x80") == -1);     /* an encoded surrogate */
	CHECK(utf8_len("\xf4\x90\x80\x80") == -1); /* U+110000 */
	CHECK(utf8_len("\xc0\xaf") == -1);         /* overlong '/' */
}

UNIT_TEST(base64_padding_whitespace_and_canonical_bits)
{
	unsigned char out[16];
	char enc[32];

	CHECK(base64_decode(out, "Zm8=", 4) == 2);
	CHECK(base64_decode(out, "Zm8", 3) == -1);      /* unpadded: not standard */
	CHECK(base64_decode(out, "Zm9=", 4) == -1);     /* unused bits set */
	CHECK(base64_decode(out, "Zh==", 4) == -1);
	CHECK(base64_decode(out, "Zg=a", 4) == -1);     /* '=' then data */
	CHECK(base64_decode(out, "Zg==Zg==", 8) == -1); /* data after padding */
	CHECK(base64_decode(out, "Zg==\r\n \t", 8) == 1);
	CHECK(base64_decode(out, "Z g = =", 7) == 1 && out[0] == 'f');
	CHECK(base64_decode(out, "-_8=", 4) == -1);     /* URL alphabet */
	CHECK(base64_decode(out, "====", 4) == -1);
	/* URL: no padding, no whitespace, '+' '/' refused, loose last bits. */
	CHECK(base64url_decode(out, "Zm8", 3) == 2 && memcmp(out, "fo", 2) == 0);
	CHECK(base64url_decode(out, "Zm9", 3) == 2 && memcmp(out, "fo", 2) == 0);
	CHECK(base64url_decode(out, "Zm8=", 4) == -1);
	CHECK(base64url_decode(out, "Zm 8", 4) == -1);
	CHECK(base64url_decode(out, "+/8", 3) == -1);
	CHECK(base64url_decode(out, "-_8", 3) == 2 && out[0] == 0xFB && out[1] == 0xFF);
	CHECK(base64url_decode(out, "", 0) == 0);
	CHECK(base64url_decode(out, "Zm9vY", 5) == -1);
	/* Both encoders, one codec: the same bytes in two alphabets. */
	base64_encode(enc, "\xfb\xff", 2);
	CHECK_STR(enc, "+/8=");
	base64url_encode(enc, "\xfb\xff", 2);
	CHECK_STR(enc, "-_8");
	base64_encode(enc, "", 0);
	CHECK_STR(enc, "");
}

static bool tag_next(const char *s, size_t from, unsigned kinds, struct gb_tag *t)
{
	return gb_tag_next(s, strlen(s), from, kinds, t);
}

UNIT_TEST(gitbook_tags_found_named_unterminated_and_nested)
{
	struct gb_tag t;
	const char *s = "a {% hint style=\"info\" %} b {% endhint %}";
	struct arena a;

	arena_init(&a);
	CHECK(tag_next(s, 0, GB_TAG_BLOCK, &t));
	CHECK(t.start == 2 && t.end == 25 && t.kind == GB_TAG_BLOCK);
	CHECK(t.name_len == 4 && memcmp(t.name, "hint", 4) == 0);
	CHECK(t.args_len == 14 && memcmp(t.args, " style=\"info\" ", 14) == 0);
	CHECK_STR(gb_tag_arg(&a, &t, "style"), "info");
	CHECK(!gb_tag_arg(&a, &t, "styl"));
	CHECK(!gb_tag_arg(&a, &t, "title"));
	CHECK(tag_next(s, t.end, GB_TAG_BLOCK, &t));
	CHECK(t.name_len == 7 && memcmp(t.name, "endhint", 7) == 0 && t.args_len == 1);
	CHECK(!tag_next(s, t.end, GB_TAG_BLOCK, &t));

	/* Unterminated: plain text, and the scan ends there. */
	CHECK(!tag_next("x {% hint", 0, GB_TAG_BLOCK, &t));
	CHECK(!tag_next("{%}", 0, GB_TAG_BLOCK, &t));
	CHECK(!tag_next("{", 0, GB_TAG_BLOCK | GB_TAG_VAR, &t));
	CHECK(tag_next("{%%}", 0, GB_TAG_BLOCK, &t) && t.end == 4 && t.name_len == 0 && t.args_len == 0);
	/* No nesting: the first closer ends the outer tag. */
	CHECK(tag_next("{% a {% b %} c %}", 0, GB_TAG_BLOCK, &t));
	CHECK(t.start == 0 && t.end == 12 && t.name_len == 1 && t.args_len == 6);
	/* Kinds: {{ }} only when asked; the first opener decides. */
	CHECK(tag_next("{{ v }} {% t %}", 0, GB_TAG_BLOCK, &t) && t.start == 8);
	CHECK(tag_next("{{ v }} {% t %}", 0, GB_TAG_BLOCK | GB_TAG_VAR, &t) && t.start == 0 &&
	      t.kind == GB_TAG_VAR && t.end == 7);
	CHECK(!tag_next("{{ v {% t %}", 0, GB_TAG_BLOCK | GB_TAG_VAR, &t));
	CHECK(tag_next("{{{ x }}}", 0, GB_TAG_VAR, &t) && t.start == 0 && t.end == 8);
	/* gb_tag_at: exactly there, block tags only, bounded by n. */
	CHECK(gb_tag_at(" {% x %}", 8, 1, &t) && t.end == 8);
	CHECK(!gb_tag_at(" {% x %}", 8, 0, &t));
	CHECK(!gb_tag_at("{% x %}", 6, 0, &t));
	CHECK(!gb_tag_at("{{ x }}", 7, 0, &t));
	/* Arguments: quotes of both kinds, bare words, unterminated quotes. */
	s = "{% tab title='A b' url=x/y k=\"open %}";
	CHECK(tag_next(s, 0, GB_TAG_BLOCK, &t));
	CHECK_STR(gb_tag_arg(&a, &t, "title"), "A b");
	CHECK_STR(gb_tag_arg(&a, &t, "url"), "x/y");
	CHECK_STR(gb_tag_arg(&a, &t, "k"), "open ");
	arena_free(&a);
}
