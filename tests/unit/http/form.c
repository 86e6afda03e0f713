/* http/form.c: reading application/x-www-form-urlencoded bodies */
#include "http/form.h"
#include "unit.h"

static const char *field(struct arena *a, const char *body, const char *name, int *rc)
{
	const char *v = NULL;

	*rc = form_field(a, body, strlen(body), name, &v);
	return v;
}

UNIT_TEST(form_field_decodes_plus_and_escapes)
{
	struct arena a;
	int rc;

	arena_init(&a);
	CHECK_STR(field(&a, "email=a%40b.io&password=two+words%21", "email", &rc), "a@b.io");
	CHECK(rc == 1);
	CHECK_STR(field(&a, "email=a%40b.io&password=two+words%21", "password", &rc), "two words!");
	CHECK_STR(field(&a, "x=1&%63srf=tok", "csrf", &rc), "tok"); /* names are decoded too */
	CHECK_STR(field(&a, "a=%E2%9C%93", "a", &rc), "\xe2\x9c\x93");
	CHECK_STR(field(&a, "a=", "a", &rc), "");
	CHECK(rc == 1);
	CHECK_STR(field(&a, "a", "a", &rc), ""); /* no '=': present and empty */
	CHECK_STR(field(&a, "a=1&a=2", "a", &rc), "1"); /* the first wins */
	CHECK_STR(field(&a, "&&b=2&", "b", &rc), "2");
	arena_free(&a);
}

UNIT_TEST(form_field_absent_and_malformed)
{
	struct arena a;
	int rc;
	const char *v = "x";

	arena_init(&a);
	CHECK(field(&a, "ab=1&b2=2", "b", &rc) == NULL && rc == 0);
	CHECK(field(&a, "", "b", &rc) == NULL && rc == 0);
	CHECK(form_field(&a, NULL, 0, "b", &v) == 0 && v == NULL);
	CHECK(field(&a, "b=%zz", "b", &rc) == NULL && rc == -1);  /* bad escape */
	CHECK(field(&a, "b=%4", "b", &rc) == NULL && rc == -1);   /* cut escape */
	CHECK(field(&a, "b=a%00b", "b", &rc) == NULL && rc == -1); /* NUL */
	CHECK(field(&a, "b=%C3%28", "b", &rc) == NULL && rc == -1); /* invalid UTF-8 */
	CHECK(field(&a, "b=%ED%A0%80", "b", &rc) == NULL && rc == -1); /* a surrogate */
	/* a malformed other field does not hide this one */
	CHECK_STR(field(&a, "x=%zz&b=ok", "b", &rc), "ok");
	/* the body is not a C string: the length bounds it */
	CHECK(form_field(&a, "b=12345", 4, "b", &v) == 1);
	CHECK_STR(v, "12");
	arena_free(&a);
}
