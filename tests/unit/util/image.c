/* image sniffing and sizes; standard base64 */
#include "unit.h"
#include "util/base64.h"
#include "util/image.h"

#include <stdlib.h>

/* Minimal headers: each ends exactly where its size has been read, so every
 * shorter prefix is a truncated header. */
static const unsigned char png[] = {
	0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R',
	0, 0, 0x01, 0x2C, /* width 300 */
	0, 0, 0, 0x96,    /* height 150 */
};

static const unsigned char gif[] = { 'G', 'I', 'F', '8', '9', 'a', 0x40, 0x01, 0xF0, 0x00 }; /* 320 x 240 */

static const unsigned char jpeg[] = {
	0xFF, 0xD8,                                                     /* SOI */
	0xFF, 0xE0, 0x00, 0x10, 'J', 'F', 'I', 'F', 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, /* APP0 */
	0xFF, 0xDB, 0x00, 0x03, 0x00,                                   /* DQT */
	0xFF, 0xC4, 0x00, 0x03, 0x00,                                   /* DHT: C4 is not a SOF */
	0xFF, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x01, 0xE0, 0x02, 0x80,     /* fill, SOF0: 480 high, 640 wide */
};

static const unsigned char webp_vp8x[] = {
	'R', 'I', 'F', 'F', 0x24, 0, 0, 0, 'W', 'E', 'B', 'P', 'V', 'P', '8', 'X', 10, 0, 0, 0,
	0x10, 0, 0, 0,    /* flags, reserved */
	0xFF, 0x03, 0x00, /* width - 1 = 1023 */
	0xFF, 0x02, 0x00, /* height - 1 = 767 */
};

static const unsigned char webp_vp8l[] = {
	'R', 'I', 'F', 'F', 0x24, 0, 0, 0, 'W', 'E', 'B', 'P', 'V', 'P', '8', 'L', 5, 0, 0, 0,
	0x2F, 0x63, 0x40, 0x0C, 0x00, /* 99 | 49 << 14: 100 x 50 */
};

static const unsigned char webp_vp8[] = {
	'R', 'I', 'F', 'F', 0x24, 0, 0, 0, 'W', 'E', 'B', 'P', 'V', 'P', '8', ' ', 10, 0, 0, 0,
	0x50, 0x02, 0x00, 0x9D, 0x01, 0x2A, 0x2C, 0x01, 0xC8, 0x00, /* 300 x 200 */
};

static const char svg[] = "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			  "<!-- <svg width=\"1\" height=\"1\"> -->\n"
			  "<!DOCTYPE svg [ <!ENTITY x \"y\"> ]>\n"
			  "<svg xmlns=\"http://www.w3.org/2000/svg\"\n  width = '120' height=\" 80px \" viewBox=\"0 0 10 10\">";

struct fixture {
	const char *name;
	const unsigned char *data;
	size_t len;
	int width, height;
	const char *type;
};

static const struct fixture fixtures[] = {
	{ "png", png, sizeof(png), 300, 150, "image/png" },
	{ "gif", gif, sizeof(gif), 320, 240, "image/gif" },
	{ "jpeg", jpeg, sizeof(jpeg), 640, 480, "image/jpeg" },
	{ "webp vp8x", webp_vp8x, sizeof(webp_vp8x), 1024, 768, "image/webp" },
	{ "webp vp8l", webp_vp8l, sizeof(webp_vp8l), 100, 50, "image/webp" },
	{ "webp vp8", webp_vp8, sizeof(webp_vp8), 300, 200, "image/webp" },
	{ "svg", (const unsigned char *)svg, sizeof(svg) - 1, 120, 80, "image/svg+xml" },
};
#define NFIXTURES (sizeof(fixtures) / sizeof(fixtures[0]))

UNIT_TEST(image_sizes_of_minimal_headers)
{
	for (size_t i = 0; i < NFIXTURES; i++) {
		const struct fixture *f = &fixtures[i];
		const char *type = NULL;
		int w = -1, h = -1;

		if (image_dimensions(f->data, f->len, &w, &h, &type) != 0) {
			unit_fail(__FILE__, __LINE__, f->name);
			continue;
		}
		CHECK(w == f->width);
		CHECK(h == f->height);
		CHECK_STR(type, f->type);
	}
}

UNIT_TEST(image_truncated_headers_are_refused)
{
	for (size_t i = 0; i < NFIXTURES; i++) {
		const struct fixture *f = &fixtures[i];
		for (size_t n = 0; n < f->len; n++) {
			/* a heap copy of exactly n bytes, so ASan sees any read past it */
			unsigned char *p = malloc(n ? n : 1);
			const char *type = "x";
			int w = -1, h = -1;

			CHECK(p != NULL);
			if (!p)
				return;
			memcpy(p, f->data, n);
			if (image_dimensions(p, n, &w, &h, &type) >= 0)
				unit_fail(__FILE__, __LINE__, f->name);
			CHECK(w == 0 && h == 0 && type == NULL);
			free(p);
		}
	}
}

UNIT_TEST(image_mutated_headers_never_read_out_of_bounds)
{
	unsigned seed = 12345;

	for (size_t i = 0; i < NFIXTURES; i++) {
		const struct fixture *f = &fixtures[i];
		for (int round = 0; round < 2000; round++) {
			size_t n = f->len + (size_t)(round % 7);
			unsigned char *p = malloc(n);
			int w, h;

			CHECK(p != NULL);
			if (!p)
				return;
			memcpy(p, f->data, f->len);
			for (size_t k = f->len; k < n; k++)
				p[k] = 0xFF;
			for (int k = 0; k < 3; k++) {
				seed = seed * 1103515245u + 12345u;
				p[(seed >> 8) % n] = (unsigned char)(seed >> 20);
			}
			if (image_dimensions(p, n, &w, &h, NULL) == 0)
				CHECK(w >= 0 && h >= 0);
			free(p);
		}
	}
}

static int svg_size(const char *s, int *w, int *h)
{
	const char *type = NULL;
	int rc = image_dimensions((const unsigned char *)s, strlen(s), w, h, &type);

	if (rc == 0)
		CHECK_STR(type, "image/svg+xml");
	return rc;
}

UNIT_TEST(image_svg_size_from_attributes_or_viewbox)
{
	int w, h;

	CHECK(svg_size("<svg viewBox=\"0 0 300,150\" width=\"100%\">", &w, &h) == 0);
	CHECK(w == 300 && h == 150);
	CHECK(svg_size("<svg width=\"600\" viewBox=\"-10 -10 300 150\"/>", &w, &h) == 0);
	CHECK(w == 600 && h == 300);
	CHECK(svg_size("<svg height=\"50.4\" viewBox=\"0 0 300 150\"></svg>", &w, &h) == 0);
	CHECK(w == 101 && h == 50);
	CHECK(svg_size("<svg width=\"2em\" height=\"3em\" xmlns='http://www.w3.org/2000/svg'>", &w, &h) == 0);
	CHECK(w == 0 && h == 0);
	CHECK(svg_size("<svg width=\"2e30\" height=\"1\">", &w, &h) == 0); /* exponents are not lengths */
	CHECK(w == 0 && h == 0);
	CHECK(svg_size("<svg width=\"1e30\" viewBox=\"0 0 1e3 1\">", &w, &h) == 0);
	CHECK(w == 0 && h == 0);
	CHECK(svg_size("<svg width=\"99999999999\" height=\"1\">", &w, &h) < 0);
	CHECK(svg_size("<html><svg width=\"1\" height=\"1\">", &w, &h) < 0);
	CHECK(svg_size("<svgfoo width=\"1\" height=\"1\">", &w, &h) < 0);
	CHECK(svg_size("<svg width=1 height=1>", &w, &h) < 0);
	CHECK(svg_size("<!-- never closed <svg width=\"1\" height=\"1\">", &w, &h) < 0);
	CHECK(svg_size("hello", &w, &h) < 0);
	CHECK(w == 0 && h == 0);
}

UNIT_TEST(image_svg_root_must_be_in_the_first_4kb)
{
	size_t n = 5000;
	char *s = malloc(n + 64);

	CHECK(s != NULL);
	if (!s)
		return;
	memset(s, ' ', n);
	strcpy(s + n, "<svg width=\"1\" height=\"1\">");
	CHECK(image_dimensions((unsigned char *)s, strlen(s), NULL, NULL, NULL) < 0);
	strcpy(s + 4000, "<svg width=\"7\" height=\"9\">");
	int w, h;
	CHECK(image_dimensions((unsigned char *)s, strlen(s), &w, &h, NULL) == 0);
	CHECK(w == 7 && h == 9);
	free(s);
}

UNIT_TEST(image_jpeg_without_frame_header_is_refused)
{
	static const unsigned char sos_first[] = { 0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0, 1, 0, 1 };
	static const unsigned char bad_len[] = { 0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x01, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0, 1, 0, 1 };
	static const unsigned char dnl[] = { 0xFF, 0xD8, 0xFF, 0xC2, 0x00, 0x11, 0x08, 0x00, 0x00, 0x00, 0x10 };

	CHECK(image_dimensions(sos_first, sizeof(sos_first), NULL, NULL, NULL) < 0);
	CHECK(image_dimensions(bad_len, sizeof(bad_len), NULL, NULL, NULL) < 0);
	CHECK(image_dimensions(dnl, sizeof(dnl), NULL, NULL, NULL) < 0); /* height 0: defined later by DNL */
	CHECK(image_dimensions(NULL, 0, NULL, NULL, NULL) < 0);
}

UNIT_TEST(base64_round_trips_every_length)
{
	unsigned char in[64], out[64];
	char enc[128], spaced[256];

	for (int i = 0; i < 64; i++)
		in[i] = (unsigned char)(i * 53 + 7);
	for (size_t n = 0; n < 48; n++) {
		base64_encode(enc, in, n);
		CHECK(strlen(enc) == base64_encoded_len(n));
		CHECK(base64_decoded_max(strlen(enc)) >= n);
		CHECK(base64_decode(out, enc, strlen(enc)) == (long)n);
		CHECK(memcmp(in, out, n) == 0);
		/* the same with whitespace between every character */
		size_t k = 0;
		for (size_t j = 0; enc[j]; j++) {
			spaced[k++] = enc[j];
			spaced[k++] = " \n\r\t"[j % 4];
		}
		CHECK(base64_decode(out, spaced, k) == (long)n);
		CHECK(memcmp(in, out, n) == 0);
	}
}

UNIT_TEST(base64_known_vectors_and_invalid_input)
{
	unsigned char out[32];
	static const char *bad[] = { "Zg=", "Zg", "Z===", "====", "=Zg=", "Zh==", "Zm9=", "Zm9v-A==", "Zm9v_A==",
				     "Zg==Zg==", "Zg==a", "Zm9vY", "Zm\x80v" };

	CHECK(base64_decode(out, "", 0) == 0);
	CHECK(base64_decode(out, "Zg==", 4) == 1 && out[0] == 'f');
	CHECK(base64_decode(out, "Zm8=", 4) == 2 && memcmp(out, "fo", 2) == 0);
	CHECK(base64_decode(out, "Zm9v", 4) == 3 && memcmp(out, "foo", 3) == 0);
	CHECK(base64_decode(out, " Zm9v\r\nYmFy\n", 12) == 6 && memcmp(out, "foobar", 6) == 0);
	CHECK(base64_decode(out, "Zg==\n", 5) == 1);
	CHECK(base64_decode(out, "+/+/", 4) == 3 && out[0] == 0xFB && out[1] == 0xFF && out[2] == 0xBF);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (base64_decode(out, bad[i], strlen(bad[i])) != -1)
			unit_fail(__FILE__, __LINE__, bad[i]);
	}
	CHECK(base64_decode(out, "Zm9v\0Zg==", 9) == -1); /* NUL inside the counted bytes */
	CHECK(base64_decoded_max(0) == 0);
	CHECK(base64_decoded_max(8) == 6);
	CHECK(base64_decoded_max(10) == 6);
	CHECK(base64_encoded_len(0) == 0 && base64_encoded_len(1) == 4 && base64_encoded_len(3) == 4);
}
