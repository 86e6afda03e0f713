/*
 * test_validate.c - the pure validators of model/validate.c that guard stored
 * values: media types (a file's contentType) and emoji (spaces and pages).
 */
#include "model/validate.h"
#include "unit.h"

#include <string.h>

UNIT_TEST(validate_media_types)
{
	static const char *const good[] = {
		"image/png",
		"application/octet-stream",
		"text/plain; charset=utf-8",
		"text/plain;charset=UTF-8",
		"application/vnd.openxmlformats-officedocument.wordprocessingml.document",
		"application/ld+json",
		"image/svg+xml",
		"text/plain; charset=\"utf-8\"; format=flowed",
		"multipart/form-data; boundary=\"a b\\\"c\"",
		"Application/JSON",
		"x-custom/x_y.z!#$&^",
		"a/b",
	};
	static const char *const bad[] = {
		"",
		"text",
		"text/",
		"/html",
		"text/html\r\nX-Injected: 1",
		"text/html\nX: 1",
		"text/html\r",
		"text/html ",
		" text/html",
		"text /html",
		"text/ html",
		"text/html;",
		"text/html; charset",
		"text/html; charset=",
		"text/html; =utf-8",
		"text/html; charset=\"utf-8",
		"text/html; charset=\"a\\",
		"text/html; charset=utf 8",
		"text/html/x",
		"text/ht\x01ml",
		"text/h\xc3\xa9",
		"-text/html",
		"text/.html",
		"text/html; charset=\"\x7f\"",
		"text/html\tx",
	};
	char longest[MEDIA_TYPE_MAX + 2];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		if (!valid_media_type(good[i])) {
			fprintf(stderr, "  refused: %s\n", good[i]);
			CHECK(!"a valid media type was refused");
		}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (valid_media_type(bad[i])) {
			fprintf(stderr, "  accepted: %s\n", bad[i]);
			CHECK(!"an invalid media type was accepted");
		}
	/* MEDIA_TYPE_MAX bytes pass, one more does not */
	memset(longest, 'a', sizeof(longest));
	longest[0] = 'x';
	longest[1] = '/';
	longest[MEDIA_TYPE_MAX] = '\0';
	CHECK(valid_media_type(longest));
	longest[MEDIA_TYPE_MAX] = 'a';
	longest[MEDIA_TYPE_MAX + 1] = '\0';
	CHECK(!valid_media_type(longest));
}

UNIT_TEST(validate_emoji)
{
	static const char *const good[] = {
		"\xF0\x9F\x9A\x80",                                     /* 🚀 */
		"\xF0\x9F\x93\x98",                                     /* 📘 */
		"\xF0\x9F\x97\x82",                                     /* 🗂 (text style by default) */
		"\xF0\x9F\x97\x82\xEF\xB8\x8F",                         /* 🗂️ */
		"\xE2\x9D\xA4\xEF\xB8\x8F",                             /* ❤️ */
		"\xE2\x9D\xA4",                                         /* ❤ */
		"\xE2\x9C\x85",                                         /* ✅ */
		"\xC2\xA9\xEF\xB8\x8F",                                 /* ©️ */
		"\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD",                     /* 👍🏽 */
		"\xF0\x9F\x87\xAB\xF0\x9F\x87\xB7",                     /* 🇫🇷 */
		"1\xEF\xB8\x8F\xE2\x83\xA3",                            /* 1️⃣ */
		"#\xE2\x83\xA3",                                        /* #⃣ */
		"\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x92\xBB",         /* 👩‍💻 */
		"\xF0\x9F\x91\xA9\xF0\x9F\x8F\xBB\xE2\x80\x8D\xF0\x9F\x92\xBB", /* 👩🏻‍💻 */
		"\xF0\x9F\x8F\xB3\xEF\xB8\x8F\xE2\x80\x8D\xF0\x9F\x8C\x88", /* 🏳️‍🌈 */
		/* 🏴 England: black flag, tags g b e n g, cancel tag */
		"\xF0\x9F\x8F\xB4\xF3\xA0\x81\xA7\xF3\xA0\x81\xA2\xF3\xA0\x81\xA5\xF3\xA0\x81\xAE\xF3\xA0\x81\xA7\xF3\xA0\x81\xBF",
		/* GitBook's code point form */
		"1f680",
		"1F680",
		"1f600",
		"2764-fe0f",
		"1f469-200d-1f4bb",
		"1f1eb-1f1f7",
		"31-fe0f-20e3",
		"a9",
	};
	static const char *const bad[] = {
		"",
		"e",
		"x",
		"ab",
		"hello",
		"1",
		"#",
		"12",
		"1f680-",
		"-1f680",
		"1f680--1f600",
		"1234567",
		"110000",
		"1f680 ",
		" \xF0\x9F\x9A\x80",
		"\xF0\x9F\x9A\x80\xF0\x9F\x9A\x80",                     /* two emoji */
		"\xF0\x9F\x9A\x80x",
		"\xF0\x9F\x9A\x80\n",
		"\xF0\x9F\x87\xAB",                                     /* one regional indicator */
		"\xF0\x9F\x87\xAB\xF0\x9F\x87\xB7\xF0\x9F\x87\xAA",     /* three */
		"\xF0\x9F\x91\xA9\xE2\x80\x8D",                         /* dangling ZWJ */
		"\xE2\x80\x8D\xF0\x9F\x92\xBB",                         /* leading ZWJ */
		"\xEF\xB8\x8F",                                         /* a lone variation selector */
		"\xE2\x83\xA3",                                         /* a lone keycap */
		"1\xEF\xB8\x8F",                                        /* keycap base without U+20E3 */
		"\xF0\x9F\x8F\xB4\xF3\xA0\x81\xA7",                     /* tags without the cancel tag */
		"\xC3\xA9",                                             /* é */
		"\xE4\xB8\xAD",                                         /* 中 */
		"\xF0\x9F\x9A",                                         /* truncated UTF-8 */
		"\xC0\xAF",                                             /* overlong */
		"\xED\xA0\x80",                                         /* surrogate */
		"text/html\r\nX-Injected: 1",
	};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		if (!valid_emoji(good[i])) {
			fprintf(stderr, "  refused emoji #%zu\n", i);
			CHECK(!"a valid emoji was refused");
		}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (valid_emoji(bad[i])) {
			fprintf(stderr, "  accepted bad emoji #%zu\n", i);
			CHECK(!"an invalid emoji was accepted");
		}
	/* at most EMOJI_MAX_CODEPOINTS code points: a long ZWJ chain is refused */
	char chain[256] = "1f469";
	for (int i = 0; i < 8; i++)
		strcat(chain, "-200d-1f469");
	CHECK(!valid_emoji(chain));
}
