/* the JSON writer */
#include "json/jsonw.h"
#include "unit.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

UNIT_TEST(jsonw_writes_valid_json_with_escapes)
{
	struct jw w;
	json_t *v;
	json_error_t e;
	char *s;

	jw_init(&w);
	jw_obj_open(&w);
	jw_kstr(&w, "a", "quote\" backslash\\ nl\n tab\t ctl\x01 utf8 \xc3\xa9");
	jw_kint(&w, "n", -1234567890123LL);
	jw_kbool(&w, "t", true);
	jw_knull(&w, "z");
	jw_key(&w, "arr");
	jw_arr_open(&w);
	jw_int(&w, 0);
	jw_str(&w, NULL);
	jw_obj_open(&w);
	jw_obj_close(&w);
	jw_raw(&w, "{\"x\":[1,2]}");
	jw_arr_close(&w);
	jw_kts(&w, "ts", 0);
	jw_kurl(&w, "u", "http://h", "/v1/orgs/", "abc");
	jw_obj_close(&w);
	CHECK(jw_ok(&w));
	v = json_loadb(w.buf, w.len, 0, &e);
	CHECK(v != NULL);
	if (v) {
		CHECK_STR(json_string_value(json_object_get(v, "a")), "quote\" backslash\\ nl\n tab\t ctl\x01 utf8 \xc3\xa9");
		CHECK(json_integer_value(json_object_get(v, "n")) == -1234567890123LL);
		CHECK(json_array_size(json_object_get(v, "arr")) == 4);
		CHECK_STR(json_string_value(json_object_get(v, "ts")), "1970-01-01T00:00:00.000Z");
		CHECK_STR(json_string_value(json_object_get(v, "u")), "http://h/v1/orgs/abc");
		s = json_dumps(v, JSON_COMPACT);
		CHECK(s != NULL);
		free(s);
		json_decref(v);
	}
	jw_free(&w);
}

UNIT_TEST(jsonw_grows_for_large_documents)
{
	struct jw w;
	json_t *v;
	json_error_t e;

	jw_init(&w);
	jw_arr_open(&w);
	for (int i = 0; i < 20000; i++)
		jw_str(&w, "0123456789\"abcdef");
	jw_arr_close(&w);
	CHECK(jw_ok(&w));
	v = json_loadb(w.buf, w.len, 0, &e);
	CHECK(v && json_array_size(v) == 20000);
	json_decref(v);
	jw_free(&w);
}

/* jw_strn's output is valid UTF-8 JSON whatever the bytes: jansson (which
 * rejects overlong forms, surrogates and code points above U+10FFFF) reads it
 * back, valid sequences unchanged, each ill-formed one as U+FFFD. */
UNIT_TEST(jsonw_replaces_invalid_utf8)
{
	static const struct {
		const char *in;
		size_t len;
		const char *out;
	} cases[] = {
		{ "ok \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 0, "ok \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80" },
		{ "\xff\xfe", 0, "\xef\xbf\xbd\xef\xbf\xbd" },                  /* never valid bytes */
		{ "a\x80z", 0, "a\xef\xbf\xbdz" },                             /* lone continuation */
		{ "\xc0\xaf", 0, "\xef\xbf\xbd\xef\xbf\xbd" },                  /* overlong '/' */
		{ "\xe0\x80\xaf", 0, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },   /* overlong, 3 bytes */
		{ "\xed\xa0\x80", 0, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },   /* a surrogate */
		{ "\xf4\x90\x80\x80", 0, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" }, /* > U+10FFFF */
		{ "\xe2\x82", 0, "\xef\xbf\xbd" },                              /* truncated at the end */
		{ "\xe2\x82x\"", 0, "\xef\xbf\xbdx\"" },                        /* truncated, then text */
		{ "\xf0\x9f\x98", 0, "\xef\xbf\xbd" },
		{ "nul\0\xc3", 5, "nul\0\xef\xbf\xbd" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct jw w;
		json_t *v;
		json_error_t e;
		size_t len = cases[i].len ? cases[i].len : strlen(cases[i].in);
		size_t outlen = cases[i].len ? 3 + 1 + 3 : strlen(cases[i].out);

		jw_init(&w);
		jw_arr_open(&w);
		jw_strn(&w, cases[i].in, len);
		jw_arr_close(&w);
		CHECK(jw_ok(&w));
		v = json_loadb(w.buf, w.len, JSON_ALLOW_NUL, &e);
		CHECK(v != NULL);
		if (v) {
			json_t *str = json_array_get(v, 0);
			CHECK(json_string_length(str) == outlen);
			CHECK(memcmp(json_string_value(str), cases[i].out, outlen) == 0);
			json_decref(v);
		}
		jw_free(&w);
	}
	/* every byte value at every position of a short string */
	for (int b = 0; b < 256; b++) {
		struct jw w;
		json_error_t e;
		char in[8] = { 'x', (char)b, (char)0xe2, (char)b, (char)0x82, (char)b, 'y', (char)b };
		json_t *v;

		jw_init(&w);
		jw_strn(&w, in, sizeof(in));
		v = json_loadb(w.buf, w.len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &e);
		CHECK(v != NULL && json_is_string(v));
		json_decref(v);
		jw_free(&w);
	}
}

/* Writing nothing to a writer with no buffer yet: memcpy(NULL + 0, s, 0) is
 * undefined behaviour that UBSan stops on (found by fuzz/adaptive.c through
 * site/md_html.c's heading text; `make unit-asan` fails on the old code). */
UNIT_TEST(jsonw_put_nothing_to_an_empty_writer)
{
	struct jw w;

	jw_init(&w);
	jw_put(&w, "", 0);
	CHECK(jw_ok(&w) && w.len == 0);
	jw_put(&w, "ab", 2);
	jw_put(&w, NULL, 0);
	CHECK(jw_ok(&w) && w.len == 2 && memcmp(w.buf, "ab", 2) == 0);
	jw_free(&w);
}
