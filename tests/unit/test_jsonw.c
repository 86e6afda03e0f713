/* the JSON writer */
#include "core/jsonw.h"
#include "unit.h"

#include <jansson.h>
#include <stdlib.h>

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
