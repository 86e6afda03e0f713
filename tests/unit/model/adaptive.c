/*
 * test_adaptive.c - the adaptive schema of sites (model/adaptive.c): what
 * GitBook's SiteAdaptiveJSONSchema accepts, the path named for what it does
 * not, the depth limit, and the template conditions derived from claims.
 */
#include "model/adaptive.h"
#include "model/condition.h"
#include "unit.h"
#include "util/err.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A whole schema around the claims given as JSON object members. */
#define SCHEMA(claims) \
	"{\"type\":\"object\",\"properties\":{" claims "},\"additionalProperties\":false}"

static json_t *load(const char *text)
{
	json_error_t je;
	json_t *j = json_loads(text, JSON_DECODE_ANY, &je);

	if (!j)
		fprintf(stderr, "  bad test JSON (%s): %s\n", je.text, text);
	return j;
}

static bool valid(const char *text)
{
	json_t *j = load(text);
	int rc;

	if (!j)
		return false;
	err_clear();
	rc = adaptive_schema_check(j);
	if (rc)
		fprintf(stderr, "  refused (%s): %s\n", err_message(), text);
	json_decref(j);
	return rc == 0;
}

/* The check fails with ERR_INVALID and exactly message. */
static bool invalid(const char *text, const char *message)
{
	json_t *j = load(text);
	int rc;
	bool ok;

	if (!j)
		return false;
	err_clear();
	rc = adaptive_schema_check(j);
	ok = rc == ERR_INVALID && !strcmp(err_message(), message);
	if (!ok)
		fprintf(stderr, "  %s\n    expected %s\n    got (%d) %s\n", text, message, rc, rc ? err_message() : "");
	json_decref(j);
	return ok;
}

UNIT_TEST(adaptive_accepts_the_schema)
{
	CHECK(valid(SCHEMA("")));
	CHECK(valid("{\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"type\":\"object\","
		    "\"properties\":{},\"additionalProperties\":false}"));
	CHECK(valid(SCHEMA("\"beta\":{\"type\":\"boolean\",\"description\":\"Beta user\"}")));
	CHECK(valid(SCHEMA("\"plan\":{\"type\":\"string\",\"description\":\"Plan\",\"enum\":[\"free\",\"pro\"]}")));
	CHECK(valid(SCHEMA("\"plan\":{\"type\":\"string\",\"description\":\"Plan\",\"enum\":[]}")));
	CHECK(valid(SCHEMA("\"name\":{\"type\":\"string\",\"description\":\"\"}")));
	CHECK(valid(SCHEMA("\"age\":{\"description\":\"Age\",\"type\":\"number\"}")));
	CHECK(valid(SCHEMA("\"tags\":{\"type\":\"array\",\"description\":\"Tags\","
			   "\"items\":{\"type\":\"string\",\"description\":\"tag\",\"enum\":[\"a\"]}}")));
	CHECK(valid(SCHEMA("\"ids\":{\"type\":\"array\",\"description\":\"Ids\","
			   "\"items\":{\"type\":\"number\",\"description\":\"id\"}}")));
	CHECK(valid(SCHEMA("\"org\":{\"type\":\"object\",\"description\":\"Org\",\"properties\":{"
			   "\"id\":{\"type\":\"string\",\"description\":\"Id\"},"
			   "\"team\":{\"type\":\"object\",\"description\":\"T\",\"properties\":{},"
			   "\"additionalProperties\":false}},\"additionalProperties\":false}")));
	CHECK(valid(SCHEMA("\"unsigned\":{\"type\":\"object\",\"description\":\"Unsigned claims of the site visitor.\","
			   "\"properties\":{\"beta\":{\"type\":\"boolean\",\"description\":\"b\"}},"
			   "\"additionalProperties\":false},"
			   "\"a-b\":{\"type\":\"boolean\",\"description\":\"dash\"},"
			   "\"\":{\"type\":\"boolean\",\"description\":\"empty name\"}")));
	/* "unsigned" is a plain claim name below the top level. */
	CHECK(valid(SCHEMA("\"o\":{\"type\":\"object\",\"description\":\"o\",\"properties\":{"
			   "\"unsigned\":{\"type\":\"boolean\",\"description\":\"u\"}},\"additionalProperties\":false}")));
}

UNIT_TEST(adaptive_names_the_offending_path)
{
	/* The root. */
	CHECK(invalid("[]", "jsonSchema: must be an object"));
	CHECK(invalid("\"x\"", "jsonSchema: must be an object"));
	CHECK(invalid("{\"properties\":{},\"additionalProperties\":false}", "jsonSchema.type: required"));
	CHECK(invalid("{\"type\":\"array\",\"properties\":{},\"additionalProperties\":false}",
		      "jsonSchema.type: must be \"object\""));
	CHECK(invalid("{\"type\":\"object\",\"additionalProperties\":false}", "jsonSchema.properties: required"));
	CHECK(invalid("{\"type\":\"object\",\"properties\":[],\"additionalProperties\":false}",
		      "jsonSchema.properties: must be an object"));
	CHECK(invalid("{\"type\":\"object\",\"properties\":{}}", "jsonSchema.additionalProperties: required"));
	CHECK(invalid("{\"type\":\"object\",\"properties\":{},\"additionalProperties\":true}",
		      "jsonSchema.additionalProperties: must be false"));
	CHECK(invalid("{\"type\":\"object\",\"properties\":{},\"additionalProperties\":{}}",
		      "jsonSchema.additionalProperties: must be false"));
	CHECK(invalid("{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false,\"required\":[]}",
		      "jsonSchema.required: is not allowed"));
	CHECK(invalid("{\"$schema\":\"http://json-schema.org/draft-04/schema#\",\"type\":\"object\","
		      "\"properties\":{},\"additionalProperties\":false}",
		      "jsonSchema.$schema: must be \"http://json-schema.org/draft-07/schema#\""));
	/* Claims. */
	CHECK(invalid(SCHEMA("\"plan\":{\"type\":\"integer\",\"description\":\"p\"}"),
		      "jsonSchema.properties.plan.type: must be one of boolean, string, number, array, object"));
	CHECK(invalid(SCHEMA("\"plan\":{\"type\":3,\"description\":\"p\"}"),
		      "jsonSchema.properties.plan.type: must be one of boolean, string, number, array, object"));
	CHECK(invalid(SCHEMA("\"plan\":{\"description\":\"p\"}"), "jsonSchema.properties.plan.type: required"));
	CHECK(invalid(SCHEMA("\"plan\":\"string\""), "jsonSchema.properties.plan: must be an object"));
	CHECK(invalid(SCHEMA("\"plan\":{\"type\":\"string\"}"), "jsonSchema.properties.plan.description: required"));
	CHECK(invalid(SCHEMA("\"plan\":{\"type\":\"string\",\"description\":null}"),
		      "jsonSchema.properties.plan.description: must be a string"));
	CHECK(invalid(SCHEMA("\"plan\":{\"type\":\"string\",\"description\":\"p\",\"enum\":\"pro\"}"),
		      "jsonSchema.properties.plan.enum: must be an array of strings"));
	CHECK(invalid(SCHEMA("\"plan\":{\"type\":\"string\",\"description\":\"p\",\"enum\":[\"a\",\"b\",3]}"),
		      "jsonSchema.properties.plan.enum[2]: must be a string"));
	CHECK(invalid(SCHEMA("\"beta\":{\"type\":\"boolean\",\"description\":\"b\",\"enum\":[true]}"),
		      "jsonSchema.properties.beta.enum: is not allowed in a boolean claim"));
	CHECK(invalid(SCHEMA("\"n\":{\"type\":\"number\",\"description\":\"n\",\"minimum\":0}"),
		      "jsonSchema.properties.n.minimum: is not allowed in a number claim"));
	CHECK(invalid(SCHEMA("\"s\":{\"type\":\"string\",\"desciption\":\"typo\"}"),
		      "jsonSchema.properties.s.desciption: is not allowed in a string claim"));
	CHECK(invalid(SCHEMA("\"ok\":{\"type\":\"boolean\",\"description\":\"b\"},"
			     "\"s\":{\"type\":\"string\",\"description\":\"s\",\"items\":{}}"),
		      "jsonSchema.properties.s.items: is not allowed in a string claim"));
	/* Arrays: items are primitives with a description. */
	CHECK(invalid(SCHEMA("\"tags\":{\"type\":\"array\",\"description\":\"t\"}"),
		      "jsonSchema.properties.tags.items: required"));
	CHECK(invalid(SCHEMA("\"tags\":{\"type\":\"array\",\"description\":\"t\",\"items\":{\"type\":\"string\"}}"),
		      "jsonSchema.properties.tags.items.description: required"));
	CHECK(invalid(SCHEMA("\"tags\":{\"type\":\"array\",\"description\":\"t\",\"items\":{\"type\":\"array\","
			     "\"description\":\"x\",\"items\":{\"type\":\"string\",\"description\":\"y\"}}}"),
		      "jsonSchema.properties.tags.items.type: must be one of boolean, string, number"));
	CHECK(invalid(SCHEMA("\"tags\":{\"type\":\"array\",\"description\":\"t\",\"items\":{\"type\":\"object\","
			     "\"description\":\"x\",\"properties\":{},\"additionalProperties\":false}}"),
		      "jsonSchema.properties.tags.items.type: must be one of boolean, string, number"));
	CHECK(invalid(SCHEMA("\"tags\":{\"type\":\"array\",\"description\":\"t\",\"items\":{\"type\":\"string\","
			     "\"description\":\"x\",\"enum\":[1]}}"),
		      "jsonSchema.properties.tags.items.enum[0]: must be a string"));
	CHECK(invalid(SCHEMA("\"tags\":{\"type\":\"array\",\"description\":\"t\",\"items\":[]}"),
		      "jsonSchema.properties.tags.items: must be an object"));
	/* Objects. */
	CHECK(invalid(SCHEMA("\"org\":{\"type\":\"object\",\"description\":\"o\",\"additionalProperties\":false}"),
		      "jsonSchema.properties.org.properties: required"));
	CHECK(invalid(SCHEMA("\"org\":{\"type\":\"object\",\"description\":\"o\",\"properties\":{}}"),
		      "jsonSchema.properties.org.additionalProperties: required"));
	CHECK(invalid(SCHEMA("\"org\":{\"type\":\"object\",\"description\":\"o\",\"properties\":{},"
			     "\"additionalProperties\":true}"),
		      "jsonSchema.properties.org.additionalProperties: must be false"));
	CHECK(invalid(SCHEMA("\"org\":{\"type\":\"object\",\"description\":\"o\",\"properties\":{"
			     "\"id\":{\"type\":\"strin\",\"description\":\"i\"}},\"additionalProperties\":false}"),
		      "jsonSchema.properties.org.properties.id.type: must be one of boolean, string, number, array, object"));
	CHECK(invalid(SCHEMA("\"org\":{\"type\":\"object\",\"description\":\"o\",\"properties\":{},"
			     "\"additionalProperties\":false,\"required\":[\"id\"]}"),
		      "jsonSchema.properties.org.required: is not allowed in an object claim"));
	/* unsigned. */
	CHECK(invalid(SCHEMA("\"unsigned\":{\"type\":\"object\",\"description\":\"Unsigned claims\","
			     "\"properties\":{},\"additionalProperties\":false}"),
		      "jsonSchema.properties.unsigned.description: must be \"Unsigned claims of the site visitor.\""));
	CHECK(invalid(SCHEMA("\"unsigned\":{\"type\":\"boolean\",\"description\":\"x\"}"),
		      "jsonSchema.properties.unsigned.type: must be \"object\""));
	CHECK(invalid(SCHEMA("\"unsigned\":{\"description\":\"Unsigned claims of the site visitor.\","
			     "\"properties\":{},\"additionalProperties\":false}"),
		      "jsonSchema.properties.unsigned.type: required"));
	CHECK(invalid(SCHEMA("\"unsigned\":{\"type\":\"object\",\"description\":\"Unsigned claims of the site visitor.\","
			     "\"additionalProperties\":false}"),
		      "jsonSchema.properties.unsigned.properties: required"));
	CHECK(invalid(SCHEMA("\"unsigned\":{\"type\":\"object\",\"description\":\"Unsigned claims of the site visitor.\","
			     "\"properties\":{}}"),
		      "jsonSchema.properties.unsigned.additionalProperties: required"));
	CHECK(invalid(SCHEMA("\"unsigned\":{\"type\":\"object\",\"description\":\"Unsigned claims of the site visitor.\","
			     "\"properties\":{\"beta\":{\"type\":\"boolean\"}},\"additionalProperties\":false}"),
		      "jsonSchema.properties.unsigned.properties.beta.description: required"));
	CHECK(invalid(SCHEMA("\"unsigned\":7"), "jsonSchema.properties.unsigned: must be an object"));
	CHECK(invalid(SCHEMA("\"unsigned\":{\"type\":\"object\",\"description\":\"Unsigned claims of the site visitor.\","
			     "\"properties\":{},\"additionalProperties\":false,\"required\":[]}"),
		      "jsonSchema.properties.unsigned.required: is not allowed"));
	/* Names that are not identifiers are quoted; long ones shortened. */
	CHECK(invalid(SCHEMA("\"a-b\":{\"type\":\"x\",\"description\":\"d\"}"),
		      "jsonSchema.properties[\"a-b\"].type: must be one of boolean, string, number, array, object"));
	CHECK(invalid(SCHEMA("\"q\\\"\\n\":{\"type\":\"x\",\"description\":\"d\"}"),
		      "jsonSchema.properties[\"q\\\"\\u000a\"].type: must be one of boolean, string, number, array, object"));
	CHECK(invalid(SCHEMA("\"abcdefghijklmnopqrstuvwxyz0123456789\":{\"type\":\"x\",\"description\":\"d\"}"),
		      "jsonSchema.properties[\"abcdefghijklmnopqrstuvwx\xE2\x80\xA6\"].type: must be one of boolean, "
		      "string, number, array, object"));
	/* The first claim's error wins, in document order. */
	CHECK(invalid(SCHEMA("\"b\":{\"type\":\"boolean\"},\"a\":{\"type\":\"x\"}"),
		      "jsonSchema.properties.b.description: required"));
}

/* An object claim nested `levels` deep with a boolean at the bottom. */
static char *nested(int levels, const char *leaf_name)
{
	size_t cap = 256 + (size_t)levels * 200;
	char *s = malloc(cap);
	size_t n = 0;

	if (!s)
		return NULL;
	n += (size_t)snprintf(s + n, cap - n, "{\"type\":\"object\",\"properties\":{");
	for (int i = 0; i < levels; i++)
		n += (size_t)snprintf(s + n, cap - n, "\"l%d\":{\"type\":\"object\",\"description\":\"d\",\"properties\":{", i);
	n += (size_t)snprintf(s + n, cap - n, "\"%s\":{\"type\":\"boolean\",\"description\":\"b\"}", leaf_name);
	for (int i = 0; i < levels; i++)
		n += (size_t)snprintf(s + n, cap - n, "},\"additionalProperties\":false}");
	snprintf(s + n, cap - n, "},\"additionalProperties\":false}");
	return s;
}

UNIT_TEST(adaptive_depth_limit)
{
	char *s7 = nested(7, "x"), *s8 = nested(8, "x"), *s100 = nested(100, "x");
	char expected[512];

	/* Seven object levels and a boolean: eight claim levels, the limit. */
	CHECK(s7 && valid(s7));
	snprintf(expected, sizeof(expected),
		 "jsonSchema.properties.l0.properties.l1.properties.l2.properties.l3.properties.l4.properties.l5"
		 ".properties.l6.properties.l7: object claims nest deeper than 8 levels");
	CHECK(s8 && invalid(s8, expected));
	CHECK(s100 && invalid(s100, expected));
	free(s7);
	free(s8);
	free(s100);
}

/* The template conditions of text, each checked to parse. */
static int templates(struct arena *a, const char *text, struct template_condition **out)
{
	json_t *j = load(text);
	int n = -1, rc;

	if (!j)
		return -1;
	rc = adaptive_template_conditions(a, j, out, &n);
	json_decref(j);
	if (rc) {
		fprintf(stderr, "  templates failed: %s\n", err_message());
		return -1;
	}
	for (int i = 0; i < n; i++) {
		struct arena pa;
		const struct cond *c;
		struct cond_error e;

		arena_init(&pa);
		if (cond_parse(&pa, (*out)[i].condition, &c, &e)) {
			fprintf(stderr, "  template does not parse: %s (%s at %d)\n", (*out)[i].condition, e.message,
				e.position);
			n = -1;
		}
		arena_free(&pa);
		if (n < 0)
			break;
	}
	return n;
}

UNIT_TEST(adaptive_template_conditions_from_claims)
{
	struct arena a;
	struct template_condition *t;
	json_t *visitor;
	int n;

	arena_init(&a);
	n = templates(&a, SCHEMA("\"beta\":{\"type\":\"boolean\",\"description\":\"Beta\"},"
				 "\"plan\":{\"type\":\"string\",\"description\":\"Plan\",\"enum\":[\"free\",\"pro\"]},"
				 "\"email\":{\"type\":\"string\",\"description\":\"Email\"},"
				 "\"age\":{\"type\":\"number\",\"description\":\"Age\"},"
				 "\"roles\":{\"type\":\"array\",\"description\":\"R\",\"items\":{\"type\":\"string\","
				 "\"description\":\"r\",\"enum\":[\"admin\"]}},"
				 "\"ids\":{\"type\":\"array\",\"description\":\"I\",\"items\":{\"type\":\"number\","
				 "\"description\":\"i\"}},"
				 "\"org\":{\"type\":\"object\",\"description\":\"O\",\"properties\":{"
				 "\"paid\":{\"type\":\"boolean\",\"description\":\"P\"},"
				 "\"the-team\":{\"type\":\"object\",\"description\":\"T\",\"properties\":{"
				 "\"lead\":{\"type\":\"boolean\",\"description\":\"L\"}},\"additionalProperties\":false}},"
				 "\"additionalProperties\":false},"
				 "\"unsigned\":{\"type\":\"object\",\"description\":\"Unsigned claims of the site visitor.\","
				 "\"properties\":{\"trial\":{\"type\":\"boolean\",\"description\":\"T\"},"
				 "\"lang\":{\"type\":\"string\",\"description\":\"L\",\"enum\":[\"en\",\"fr\\\"\"]}},"
				 "\"additionalProperties\":false},"
				 "\"empty\":{\"type\":\"object\",\"description\":\"E\",\"properties\":{},"
				 "\"additionalProperties\":false},"
				 "\"none\":{\"type\":\"string\",\"description\":\"N\",\"enum\":[]}"),
		      &t);
	CHECK(n == 13);
	if (n == 13) {
		CHECK_STR(t[0].condition, "visitor.claims.beta == true");
		CHECK_STR(t[0].description, "beta is true");
		CHECK_STR(t[1].condition, "visitor.claims.plan == \"free\"");
		CHECK_STR(t[1].description, "plan is \"free\"");
		CHECK_STR(t[2].condition, "visitor.claims.plan == \"pro\"");
		CHECK_STR(t[3].condition, "visitor.claims.email != null");
		CHECK_STR(t[3].description, "email is set");
		CHECK_STR(t[4].condition, "visitor.claims.age != null");
		CHECK_STR(t[5].condition, "\"admin\" in visitor.claims.roles");
		CHECK_STR(t[5].description, "roles contains \"admin\"");
		CHECK_STR(t[6].condition, "visitor.claims.ids != null");
		CHECK_STR(t[7].condition, "visitor.claims.org.paid == true");
		CHECK_STR(t[7].description, "org.paid is true");
		CHECK_STR(t[8].condition, "visitor.claims.org[\"the-team\"].lead == true");
		CHECK_STR(t[8].description, "org.the-team.lead is true");
		CHECK_STR(t[9].condition, "visitor.claims.unsigned.trial == true");
		CHECK_STR(t[9].description, "unsigned.trial is true");
		CHECK_STR(t[10].condition, "visitor.claims.unsigned.lang == \"en\"");
		CHECK_STR(t[11].condition, "visitor.claims.unsigned.lang == \"fr\\\"\"");
		CHECK_STR(t[12].condition, "visitor.claims.none != null");

		/* They mean what they say. */
		visitor = json_loads("{\"claims\":{\"beta\":true,\"plan\":\"pro\",\"roles\":[\"admin\"],"
				     "\"org\":{\"the-team\":{\"lead\":true}},\"unsigned\":{\"lang\":\"fr\\\"\"}}}",
				     0, NULL);
		CHECK(visitor != NULL);
		CHECK(cond_visible(t[0].condition, visitor));
		CHECK(!cond_visible(t[1].condition, visitor));
		CHECK(cond_visible(t[2].condition, visitor));
		CHECK(!cond_visible(t[3].condition, visitor));
		CHECK(cond_visible(t[5].condition, visitor));
		CHECK(!cond_visible(t[7].condition, visitor));
		CHECK(cond_visible(t[8].condition, visitor));
		CHECK(!cond_visible(t[9].condition, visitor));
		CHECK(!cond_visible(t[10].condition, visitor));
		CHECK(cond_visible(t[11].condition, visitor));
		json_decref(visitor);
	}
	arena_free(&a);
}

UNIT_TEST(adaptive_template_conditions_edge_cases)
{
	struct arena a;
	struct template_condition *t;
	char *deep, *big;
	json_t *j;
	int n, rc;

	arena_init(&a);
	CHECK(templates(&a, SCHEMA(""), &t) == 0);
	/* Odd names are quoted and escaped so that the condition parses. */
	n = templates(&a, SCHEMA("\"a b\":{\"type\":\"boolean\",\"description\":\"x\"},"
				 "\"\":{\"type\":\"boolean\",\"description\":\"x\"},"
				 "\"q\\\"\\\\\\n\":{\"type\":\"boolean\",\"description\":\"x\"},"
				 "\"caf\xc3\xa9\":{\"type\":\"boolean\",\"description\":\"x\"},"
				 "\"in\":{\"type\":\"boolean\",\"description\":\"x\"},"
				 "\"9lives\":{\"type\":\"boolean\",\"description\":\"x\"}"),
		      &t);
	CHECK(n == 6);
	if (n == 6) {
		CHECK_STR(t[0].condition, "visitor.claims[\"a b\"] == true");
		CHECK_STR(t[1].condition, "visitor.claims[\"\"] == true");
		CHECK_STR(t[2].condition, "visitor.claims[\"q\\\"\\\\\\u000a\"] == true");
		CHECK_STR(t[3].condition, "visitor.claims[\"caf\xc3\xa9\"] == true");
		CHECK_STR(t[4].condition, "visitor.claims.in == true");
		CHECK_STR(t[5].condition, "visitor.claims[\"9lives\"] == true");
		j = json_loads("{\"claims\":{\"q\\\"\\\\\\n\":true,\"caf\xc3\xa9\":true}}", 0, NULL);
		CHECK(j && cond_visible(t[2].condition, j) && cond_visible(t[3].condition, j) &&
		      !cond_visible(t[0].condition, j));
		json_decref(j);
	}
	/* The deepest claim the schema allows gives a condition. */
	deep = nested(7, "x");
	n = deep ? templates(&a, deep, &t) : -1;
	CHECK(n == 1);
	if (n == 1)
		CHECK_STR(t[0].condition, "visitor.claims.l0.l1.l2.l3.l4.l5.l6.x == true");
	free(deep);
	/* A condition past the language's 1024 bytes is left out, not broken. */
	big = malloc(4096);
	CHECK(big != NULL);
	if (big) {
		char name[1101];

		memset(name, 'n', 1100);
		name[1100] = '\0';
		snprintf(big, 4096, SCHEMA("\"%s\":{\"type\":\"boolean\",\"description\":\"long\"},"
					   "\"short\":{\"type\":\"boolean\",\"description\":\"s\"}"),
			 name);
		n = templates(&a, big, &t);
		CHECK(n == 1);
		if (n == 1)
			CHECK_STR(t[0].condition, "visitor.claims.short == true");
		free(big);
	}
	/* Many values: the array grows past its first size. */
	{
		char *s = malloc(20000);
		size_t o = 0;

		CHECK(s != NULL);
		if (s) {
			o += (size_t)sprintf(s, "{\"type\":\"object\",\"properties\":{\"p\":{\"type\":\"string\","
						"\"description\":\"p\",\"enum\":[");
			for (int i = 0; i < 500; i++)
				o += (size_t)sprintf(s + o, "%s\"v%d\"", i ? "," : "", i);
			sprintf(s + o, "]}},\"additionalProperties\":false}");
			n = templates(&a, s, &t);
			CHECK(n == 500);
			if (n == 500) {
				CHECK_STR(t[0].condition, "visitor.claims.p == \"v0\"");
				CHECK_STR(t[499].condition, "visitor.claims.p == \"v499\"");
				CHECK_STR(t[499].description, "p is \"v499\"");
			}
			free(s);
		}
	}
	/* An invalid schema is refused, with the check's message. */
	j = load(SCHEMA("\"x\":{\"type\":\"boolean\"}"));
	n = 7;
	t = (void *)1;
	rc = j ? adaptive_template_conditions(&a, j, &t, &n) : 0;
	CHECK(rc == ERR_INVALID && n == 0 && t == NULL);
	CHECK_STR(err_message(), "jsonSchema.properties.x.description: required");
	json_decref(j);
	arena_free(&a);
}

/* Random mutations of a valid schema never crash, and every message names
 * a jsonSchema path and is valid UTF-8. */
UNIT_TEST(adaptive_fuzz)
{
	static const char *const base =
		"{\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"type\":\"object\",\"properties\":{"
		"\"beta\":{\"type\":\"boolean\",\"description\":\"b\"},"
		"\"plan\":{\"type\":\"string\",\"description\":\"p\",\"enum\":[\"a\",\"b\"]},"
		"\"tags\":{\"type\":\"array\",\"description\":\"t\",\"items\":{\"type\":\"string\",\"description\":\"x\"}},"
		"\"org\":{\"type\":\"object\",\"description\":\"o\",\"properties\":{\"id\":{\"type\":\"number\","
		"\"description\":\"i\"}},\"additionalProperties\":false},"
		"\"unsigned\":{\"type\":\"object\",\"description\":\"Unsigned claims of the site visitor.\","
		"\"properties\":{\"u\":{\"type\":\"boolean\",\"description\":\"u\"}},\"additionalProperties\":false}},"
		"\"additionalProperties\":false}";
	static const char repl[] = "{}[]\",:01tfnx\\ e";
	uint64_t s = 0x123456789ABCDEFULL;
	size_t len = strlen(base);
	char buf[2048];
	int ok = 0, bad = 0;

	CHECK(valid(base));
	for (int i = 0; i < 20000 && !unit_case_failed; i++) {
		json_t *j, *m;
		struct arena a;
		struct template_condition *t;
		int n, rc;

		memcpy(buf, base, len + 1);
		for (int k = 0; k < 2; k++) {
			s ^= s >> 12;
			s ^= s << 25;
			s ^= s >> 27;
			buf[(s * 0x2545F4914F6CDD1DULL >> 11) % len] = repl[(s >> 7) % (sizeof(repl) - 1)];
		}
		j = json_loads(buf, 0, NULL);
		if (!j)
			continue;
		arena_init(&a);
		rc = adaptive_template_conditions(&a, j, &t, &n);
		if (rc == 0) {
			ok++;
			for (int k = 0; k < n; k++)
				CHECK(cond_check("t", t[k].condition) == 0);
		} else {
			bad++;
			CHECK(rc == ERR_INVALID);
			CHECK(!strncmp(err_message(), "jsonSchema", 10));
			m = json_string(err_message());
			CHECK(m != NULL);
			json_decref(m);
		}
		if (unit_case_failed)
			fprintf(stderr, "  input: %s\n", buf);
		arena_free(&a);
		json_decref(j);
	}
	CHECK(ok > 10 && bad > 10);
}
