/*
 * test_condition.c - the condition language of sites (model/condition.c):
 * what parses, where and why what does not, evaluation over claims, the
 * limits, and a fuzz run over random and truncated input.
 */
#include "model/condition.h"
#include "unit.h"
#include "util/err.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static bool parses(const char *src)
{
	struct arena a;
	const struct cond *c;
	struct cond_error e;
	int rc;

	arena_init(&a);
	rc = cond_parse(&a, src, &c, &e);
	if (rc)
		fprintf(stderr, "  [%s] refused: %s at %d\n", src, e.message, e.position);
	arena_free(&a);
	return rc == 0;
}

/* The parse fails at pos with a message that contains msg. */
static bool fails_at(const char *src, int pos, const char *msg)
{
	struct arena a;
	const struct cond *c = NULL;
	struct cond_error e;
	bool ok;

	arena_init(&a);
	ok = cond_parse(&a, src, &c, &e) != 0 && c == NULL && e.position == pos && strstr(e.message, msg);
	if (!ok)
		fprintf(stderr, "  [%s] expected \"%s\" at %d, got \"%s\" at %d\n", src, msg, pos, e.message, e.position);
	arena_free(&a);
	return ok;
}

/* Evaluates src (which must parse) against the visitor {"claims": claims}
 * (claims as JSON text; NULL for an anonymous visitor). */
static int eval_with(const char *src, const char *claims)
{
	struct arena a;
	const struct cond *c;
	struct cond_error e;
	json_t *visitor = NULL;
	int r = -1;

	if (claims) {
		json_error_t je;
		json_t *cl = json_loads(claims, JSON_ALLOW_NUL | JSON_DECODE_ANY, &je);

		if (!cl) {
			fprintf(stderr, "  bad test JSON %s: %s\n", claims, je.text);
			return -1;
		}
		visitor = json_pack("{s:o}", "claims", cl);
	}
	arena_init(&a);
	if (cond_parse(&a, src, &c, &e) == 0)
		r = cond_eval(c, visitor) ? 1 : 0;
	else
		fprintf(stderr, "  [%s] does not parse: %s at %d\n", src, e.message, e.position);
	arena_free(&a);
	json_decref(visitor);
	return r;
}

#define TRUE_FOR(src, claims) CHECK(eval_with(src, claims) == 1)
#define FALSE_FOR(src, claims) CHECK(eval_with(src, claims) == 0)

UNIT_TEST(condition_parses_the_subset)
{
	static const char *const good[] = {
		"visitor.claims.unsigned.beta == true && visitor.claims.plan in [\"pro\", \"team\"]",
		"visitor.claims.a === 1",
		"visitor.claims.a !== 'x'",
		"visitor.claims[\"a-b\"] == \"c\"",
		"visitor.claims['a b'].c[0] != null",
		"visitor.claims.list[12] == 3.5",
		"visitor.claims.x",
		"!visitor.claims.x",
		"!!visitor.claims.x",
		"visitor.claims",
		"true",
		"false",
		"(true)",
		"((visitor.claims.a))",
		"visitor.claims.n >= -1 && visitor.claims.n < 1e3 && visitor.claims.n <= .5 && visitor.claims.n > 2E-2",
		"visitor.claims.in == visitor.claims.true",
		"visitor.claims.null.false",
		"visitor.claims._$x1 == 0",
		"'a' in visitor.claims.s",
		"\"pro\" in visitor.claims",
		"'ell' in 'hello'",
		"1 in [1, 2, 3,]",
		"null in []",
		"visitor.claims.a in [true, false, null, -2, 'x', \"y\"]",
		"1 == 1",
		"null == null",
		"\"a\" < \"b\"",
		" \t\r\nvisitor.claims.a\n",
		"visitor.claims.a || visitor.claims.b || visitor.claims.c && !visitor.claims.d",
		"visitor . claims . a == 1",
		"visitor.claims.a == \"\\\"\\'\\\\\\n\\t\\u00e9\\x41\\ud83d\\ude00\\0\"",
		"visitor.claims.a == 'caf\xc3\xa9'",
	};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		CHECK(parses(good[i]));
}

UNIT_TEST(condition_errors_carry_position_and_message)
{
	CHECK(fails_at("", 0, "empty expression"));
	CHECK(fails_at("   ", 3 - 3, "empty expression"));
	CHECK(fails_at("visitor.claims.a == )", 20, "unexpected ')'"));
	CHECK(fails_at("(visitor.claims.a", 17, "unexpected end of expression, expected ')'"));
	CHECK(fails_at("visitor.claims.a)", 16, "unexpected ')'"));
	CHECK(fails_at("foo == 1", 0, "unknown identifier 'foo' (only visitor.claims."));
	CHECK(fails_at("visitor.claims.a == bar", 20, "unknown identifier 'bar'"));
	CHECK(fails_at("visitor.secrets.a", 8, "unknown member 'secrets' of visitor"));
	CHECK(fails_at("visitor", 7, "unexpected end of expression, expected '.claims'"));
	CHECK(fails_at("visitor.claims.a == \"abc", 20, "unterminated string"));
	CHECK(fails_at("visitor.claims.a == 'abc\"", 20, "unterminated string"));
	CHECK(fails_at("visitor.claims.a == 'ab\nc'", 20, "unterminated string"));
	CHECK(fails_at("visitor.claims.a == 'ab\\", 20, "unterminated string"));
	CHECK(fails_at("visitor.claims.a == '\\u12'", 21, "invalid escape"));
	CHECK(fails_at("visitor.claims.a == '\\ud800'", 21, "lone surrogate"));
	CHECK(fails_at("visitor.claims.a == '\\udc00'", 21, "lone surrogate"));
	CHECK(fails_at("visitor.claims.a == '\\xZZ'", 21, "invalid escape"));
	CHECK(fails_at("visitor.claims.a = 1", 17, "unexpected '=' (use '==' to compare)"));
	CHECK(fails_at("visitor.claims.a & visitor.claims.b", 17, "unexpected '&'"));
	CHECK(fails_at("visitor.claims.a | visitor.claims.b", 17, "unexpected '|'"));
	CHECK(fails_at("visitor.claims.a == 1 == 1", 22, "comparisons cannot be chained"));
	CHECK(fails_at("visitor.claims.a == 1.2.3", 20, "invalid number"));
	CHECK(fails_at("visitor.claims.a == 12abc", 20, "invalid number"));
	CHECK(fails_at("visitor.claims.a == 1e", 20, "invalid number"));
	CHECK(fails_at("visitor.claims.a == - 'x'", 22, "expected a number after '-'"));
	CHECK(fails_at("visitor.claims.a()", 16, "unexpected '('"));
	CHECK(fails_at("visitor.claims.a.", 17, "expected a name after '.'"));
	CHECK(fails_at("visitor.claims[a]", 15, "expected a string or an index"));
	CHECK(fails_at("visitor.claims[-1]", 15, "expected a string or an index"));
	CHECK(fails_at("visitor.claims['a'", 18, "expected ']'"));
	CHECK(fails_at("visitor.claims.a in [visitor.claims.b]", 21, "expected a literal"));
	CHECK(fails_at("visitor.claims.a in [1 2]", 23, "expected ',' or ']'"));
	CHECK(fails_at("visitor.claims.a in [[1]]", 21, "expected a literal"));
	CHECK(fails_at("visitor.claims.a in 3", 20, "the right side of 'in' must be"));
	CHECK(fails_at("visitor.claims.a == [1]", 20, "only allowed on the right of 'in'"));
	CHECK(fails_at("[1] == visitor.claims.a", 0, "only allowed on the right of 'in'"));
	CHECK(fails_at("[1] in [1]", 0, "only allowed on the right of 'in'"));
	CHECK(fails_at("visitor.claims.a @ 1", 17, "unexpected character '@'"));
	CHECK(fails_at("visitor.claims.a == 1;", 21, "unexpected character ';'"));
	CHECK(fails_at("visitor.claims.\xc3\xa9", 15, "unexpected byte 0xC3"));
	CHECK(fails_at("\x01", 0, "unexpected byte 0x01"));
	CHECK(fails_at("visitor.claims.a visitor.claims.b", 17, "unexpected 'visitor'"));
	CHECK(fails_at("visitor.claims.a 'x'", 17, "unexpected string"));
	CHECK(fails_at("visitor.claims.a &&", 19, "unexpected end of expression"));
	CHECK(fails_at("&& visitor.claims.a", 0, "unexpected '&&'"));
	CHECK(fails_at("!", 1, "unexpected end of expression"));
	CHECK(fails_at("()", 1, "unexpected ')'"));
	CHECK(fails_at("visitor.claims.a ? 1 : 2", 17, "unexpected character '?'"));
	CHECK(fails_at("visitor.claims.a + 1", 17, "unexpected character '+'"));
	CHECK(fails_at("constructor.constructor('x')()", 0, "unknown identifier 'constructor'"));
	CHECK(fails_at("undefined", 0, "unknown identifier 'undefined'"));
}

UNIT_TEST(condition_must_be_boolean)
{
	CHECK(fails_at("\"abc\"", 0, "does not evaluate to a boolean"));
	CHECK(fails_at("42", 0, "does not evaluate to a boolean"));
	CHECK(fails_at("null", 0, "does not evaluate to a boolean"));
	CHECK(fails_at("-1.5", 0, "does not evaluate to a boolean"));
	CHECK(fails_at("[true]", 0, "does not evaluate to a boolean"));
	CHECK(fails_at("(42)", 1, "does not evaluate to a boolean"));
	CHECK(fails_at("visitor.claims.a && 42", 20, "does not evaluate to a boolean"));
	CHECK(fails_at("'x' || visitor.claims.a", 0, "does not evaluate to a boolean"));
	CHECK(fails_at("!'x'", 1, "does not evaluate to a boolean"));
	CHECK(fails_at("visitor.claims.a && (visitor.claims.b || null)", 41, "does not evaluate to a boolean"));
	CHECK(parses("visitor.claims.a && (visitor.claims.b || false)"));
	CHECK(parses("!(1 == 2)"));
}

UNIT_TEST(condition_limits)
{
	char buf[4096];
	size_t n;

	/* Length: 1024 bytes parse, 1025 do not (checked before anything else). */
	n = (size_t)snprintf(buf, sizeof(buf), "visitor.claims.a == '");
	memset(buf + n, 'x', 1024 - n - 1);
	buf[1023] = '\'';
	buf[1024] = '\0';
	CHECK(strlen(buf) == 1024 && parses(buf));
	buf[1023] = 'x';
	buf[1024] = '\'';
	buf[1025] = '\0';
	CHECK(fails_at(buf, 1024, "too long (more than 1024 bytes)"));

	/* Depth: 64 parentheses or '!' parse, 65 do not. */
	n = 0;
	for (int i = 0; i < 64; i++)
		buf[n++] = '(';
	n += (size_t)sprintf(buf + n, "true");
	for (int i = 0; i < 64; i++)
		buf[n++] = ')';
	buf[n] = '\0';
	CHECK(parses(buf));
	memmove(buf + 1, buf, n + 1);
	buf[0] = '(';
	strcat(buf, ")");
	CHECK(fails_at(buf, 64, "too deeply nested (more than 64 levels)"));
	memset(buf, '!', 64);
	strcpy(buf + 64, "visitor.claims.a");
	CHECK(parses(buf));
	memset(buf, '!', 65);
	strcpy(buf + 65, "visitor.claims.a");
	CHECK(fails_at(buf, 64, "too deeply nested"));
	/* Mixed: depth counts '!' and '(' together. */
	n = 0;
	for (int i = 0; i < 40; i++) {
		buf[n++] = '!';
		buf[n++] = '(';
	}
	buf[n] = '\0';
	CHECK(fails_at(buf, 64, "too deeply nested"));
	/* A thousand '(' fail at the 65th, never recursing further. */
	memset(buf, '(', 1000);
	buf[1000] = '\0';
	CHECK(fails_at(buf, 64, "too deeply nested"));

	/* Long flat chains are not nesting. */
	n = 0;
	while (n < 1000)
		n += (size_t)sprintf(buf + n, "true&&");
	n += (size_t)sprintf(buf + n, "true");
	CHECK(n <= 1024 && parses(buf));
	CHECK(eval_with(buf, NULL) == 1);
	n = 0;
	while (n < 1000)
		n += (size_t)sprintf(buf + n, "false||");
	n += (size_t)sprintf(buf + n, "1==1");
	CHECK(n <= 1024 && eval_with(buf, NULL) == 1);
	n = (size_t)sprintf(buf, "0 in [");
	while (n < 1000)
		n += (size_t)sprintf(buf + n, "1,");
	n += (size_t)sprintf(buf + n, "0]");
	CHECK(n <= 1024 && eval_with(buf, NULL) == 1);
	n = (size_t)sprintf(buf, "visitor.claims");
	while (n < 1000)
		n += (size_t)sprintf(buf + n, ".a");
	CHECK(n <= 1024 && eval_with(buf, "{\"a\":{\"a\":true}}") == 0);
	n = (size_t)sprintf(buf, "visitor.claims");
	while (n < 1000)
		n += (size_t)sprintf(buf + n, "[0]");
	CHECK(n <= 1024 && eval_with(buf, "{}") == 0);
}

UNIT_TEST(condition_eval_equality)
{
	const char *claims = "{\"b\":true,\"f\":false,\"n\":3,\"r\":3.0,\"s\":\"pro\",\"z\":null,\"e\":\"\","
			     "\"arr\":[1,2],\"obj\":{\"k\":1},\"zero\":0}";

	TRUE_FOR("visitor.claims.b == true", claims);
	FALSE_FOR("visitor.claims.b == false", claims);
	TRUE_FOR("visitor.claims.f == false", claims);
	TRUE_FOR("visitor.claims.b != false", claims);
	TRUE_FOR("visitor.claims.n == 3", claims);
	TRUE_FOR("visitor.claims.n == 3.0", claims);
	TRUE_FOR("visitor.claims.r == 3", claims);
	TRUE_FOR("visitor.claims.n == visitor.claims.r", claims);
	TRUE_FOR("visitor.claims.n === 3", claims);
	FALSE_FOR("visitor.claims.n !== 3", claims);
	FALSE_FOR("visitor.claims.n == '3'", claims);   /* no coercion */
	FALSE_FOR("visitor.claims.b == 1", claims);     /* no coercion */
	FALSE_FOR("visitor.claims.zero == false", claims);
	FALSE_FOR("visitor.claims.e == false", claims);
	TRUE_FOR("visitor.claims.s == 'pro'", claims);
	TRUE_FOR("visitor.claims.s === \"pro\"", claims);
	FALSE_FOR("visitor.claims.s == 'Pro'", claims);
	FALSE_FOR("visitor.claims.s == 'pro '", claims);
	TRUE_FOR("visitor.claims.s != 'team'", claims);
	TRUE_FOR("visitor.claims.z == null", claims);
	TRUE_FOR("visitor.claims.z === null", claims);
	FALSE_FOR("visitor.claims.z != null", claims);
	TRUE_FOR("visitor.claims.e == ''", claims);
	FALSE_FOR("visitor.claims.arr == visitor.claims.arr", claims); /* references */
	TRUE_FOR("visitor.claims.obj != visitor.claims.obj", claims);
	FALSE_FOR("visitor.claims.obj == null", claims);
	TRUE_FOR("1 == 1.0 && 'a' == \"a\" && true == true && null == null", NULL);
	/* Truthiness of a bare claim. */
	TRUE_FOR("visitor.claims.b", claims);
	FALSE_FOR("visitor.claims.f", claims);
	TRUE_FOR("visitor.claims.n", claims);
	FALSE_FOR("visitor.claims.zero", claims);
	TRUE_FOR("visitor.claims.s", claims);
	FALSE_FOR("visitor.claims.e", claims);
	FALSE_FOR("visitor.claims.z", claims);
	TRUE_FOR("visitor.claims.arr", claims);
	TRUE_FOR("visitor.claims.obj", claims);
	TRUE_FOR("!visitor.claims.f", claims);
	/* Strings compare bytewise, NUL included. */
	TRUE_FOR("visitor.claims.s == 'a\\0b'", "{\"s\":\"a\\u0000b\"}");
	FALSE_FOR("visitor.claims.s == 'a'", "{\"s\":\"a\\u0000b\"}");
}

UNIT_TEST(condition_eval_missing_claims)
{
	/* A missing claim is undefined: unequal to every value, loosely equal
	 * to null (JavaScript's ==, not ===), falsy, never in anything. */
	static const char *const visitors[] = { NULL, "{}", "{\"other\":1}", "[]", "\"x\"" };

	for (size_t i = 0; i < sizeof(visitors) / sizeof(visitors[0]); i++) {
		const char *v = visitors[i];

		FALSE_FOR("visitor.claims.x == true", v);
		FALSE_FOR("visitor.claims.x == false", v);
		TRUE_FOR("visitor.claims.x != false", v);
		FALSE_FOR("visitor.claims.x == 0", v);
		FALSE_FOR("visitor.claims.x == ''", v);
		TRUE_FOR("visitor.claims.x != 'pro'", v);
		TRUE_FOR("visitor.claims.x !== 'pro'", v);
		TRUE_FOR("visitor.claims.x == null", v);
		FALSE_FOR("visitor.claims.x != null", v);
		FALSE_FOR("visitor.claims.x === null", v);
		TRUE_FOR("visitor.claims.x !== null", v);
		TRUE_FOR("visitor.claims.x == visitor.claims.y", v);
		FALSE_FOR("visitor.claims.x === visitor.claims.y", v);
		FALSE_FOR("visitor.claims.x", v);
		TRUE_FOR("!visitor.claims.x", v);
		FALSE_FOR("visitor.claims.x in [null, 1, 'a']", v);
		FALSE_FOR("visitor.claims.x.y.z in []", v);
		FALSE_FOR("'a' in visitor.claims.x", v);
		FALSE_FOR("visitor.claims.x < 1", v);
		FALSE_FOR("visitor.claims.x >= 1", v);
		FALSE_FOR("visitor.claims.a.b.c[3] == 1", v);
	}
	/* A non-object visitor or claims is anonymous. */
	TRUE_FOR("visitor.claims.x == null", "null");
	FALSE_FOR("visitor.claims.s[0] == 'p'", "{\"s\":\"pro\"}"); /* no string indexing */
	FALSE_FOR("visitor.claims.n.x == null && visitor.claims.n.x === null", "{\"n\":1}");
}

UNIT_TEST(condition_eval_in)
{
	const char *claims = "{\"plan\":\"team\",\"roles\":[\"admin\",\"dev\",null,2],\"n\":2,"
			     "\"org\":{\"id\":\"o1\"},\"text\":\"hello world\",\"none\":[]}";

	TRUE_FOR("visitor.claims.plan in [\"pro\", \"team\"]", claims);
	FALSE_FOR("visitor.claims.plan in [\"pro\", \"free\"]", claims);
	FALSE_FOR("visitor.claims.plan in []", claims);
	TRUE_FOR("\"dev\" in visitor.claims.roles", claims);
	FALSE_FOR("\"ops\" in visitor.claims.roles", claims);
	TRUE_FOR("null in visitor.claims.roles", claims);
	TRUE_FOR("2 in visitor.claims.roles", claims);
	TRUE_FOR("visitor.claims.n in visitor.claims.roles", claims);
	FALSE_FOR("'2' in visitor.claims.roles", claims);
	FALSE_FOR("'x' in visitor.claims.none", claims);
	TRUE_FOR("visitor.claims.n in [1, 2.0, 3]", claims);
	FALSE_FOR("visitor.claims.n in ['2']", claims);
	TRUE_FOR("null in [1, null]", NULL);
	FALSE_FOR("visitor.claims.missing in [1, null]", claims);
	/* Substring of a string. */
	TRUE_FOR("'lo wo' in visitor.claims.text", claims);
	TRUE_FOR("'' in visitor.claims.text", claims);
	FALSE_FOR("'World' in visitor.claims.text", claims);
	TRUE_FOR("'ea' in visitor.claims.plan", claims);
	TRUE_FOR("visitor.claims.plan in 'steam'", claims);
	FALSE_FOR("visitor.claims.n in 'a2'", claims);
	/* A key of an object claim (JavaScript's "key" in object). */
	TRUE_FOR("'id' in visitor.claims.org", claims);
	FALSE_FOR("'name' in visitor.claims.org", claims);
	TRUE_FOR("'plan' in visitor.claims", claims);
	FALSE_FOR("'nope' in visitor.claims", claims);
	FALSE_FOR("1 in visitor.claims.org", claims);
	/* Anything else on the right is never containing. */
	FALSE_FOR("1 in visitor.claims.n", claims);
	FALSE_FOR("'a' in visitor.claims.missing", claims);
}

UNIT_TEST(condition_eval_members)
{
	const char *claims = "{\"unsigned\":{\"beta\":true,\"tier\":{\"name\":\"gold\"}},\"a-b\":\"dash\","
			     "\"a b\":{\"c\":[10,{\"d\":\"deep\"}]},\"in\":1,\"\":\"empty\",\"list\":[[1,2],[3]],"
			     "\"caf\xc3\xa9\":\"yes\",\"q\\\"k\":1}";

	TRUE_FOR("visitor.claims.unsigned.beta == true", claims);
	TRUE_FOR("visitor.claims.unsigned.beta", claims);
	TRUE_FOR("visitor.claims.unsigned.tier.name == 'gold'", claims);
	TRUE_FOR("visitor.claims.unsigned['tier'][\"name\"] == 'gold'", claims);
	TRUE_FOR("visitor.claims[\"a-b\"] == 'dash'", claims);
	TRUE_FOR("visitor.claims['a b'].c[0] == 10", claims);
	TRUE_FOR("visitor.claims['a b'].c[1].d == 'deep'", claims);
	FALSE_FOR("visitor.claims['a b'].c[2] != null", claims);
	TRUE_FOR("visitor.claims.list[0][1] == 2 && visitor.claims.list[1][0] == 3", claims);
	TRUE_FOR("visitor.claims.in == 1", claims);
	TRUE_FOR("visitor.claims[''] == 'empty'", claims);
	TRUE_FOR("visitor.claims['caf\\u00e9'] == 'yes'", claims);
	TRUE_FOR("visitor.claims['caf\xc3\xa9'] == 'yes'", claims);
	TRUE_FOR("visitor.claims['q\"k'] == 1", claims);
	FALSE_FOR("visitor.claims.unsigned.beta.x", claims);
	FALSE_FOR("visitor.claims.beta", claims);
	/* visitor holds more than claims, but only claims are reachable. */
	TRUE_FOR("visitor.claims.x == 1", "{\"x\":1}");
}

UNIT_TEST(condition_precedence)
{
	/* || < && < ! < comparison < primary. */
	TRUE_FOR("true || false && false", NULL);   /* true || (false && false) */
	FALSE_FOR("(true || false) && false", NULL);
	TRUE_FOR("false && false || true", NULL);   /* (false && false) || true */
	FALSE_FOR("false && (false || true)", NULL);
	TRUE_FOR("!false && true", NULL);           /* (!false) && true */
	FALSE_FOR("!(false || true)", NULL);
	TRUE_FOR("!false || false", NULL);
	/* '!' binds looser than a comparison. */
	TRUE_FOR("!visitor.claims.plan == 'pro'", "{\"plan\":\"team\"}");  /* !(plan == 'pro') */
	FALSE_FOR("!visitor.claims.plan == 'pro'", "{\"plan\":\"pro\"}");
	TRUE_FOR("!visitor.claims.a in [1, 2]", "{\"a\":3}");
	FALSE_FOR("!visitor.claims.a in [1, 2]", "{\"a\":2}");
	TRUE_FOR("visitor.claims.a == 1 && visitor.claims.b == 2 || visitor.claims.c == 3", "{\"c\":3}");
	FALSE_FOR("visitor.claims.a == 1 && (visitor.claims.b == 2 || visitor.claims.c == 3)", "{\"c\":3}");
	TRUE_FOR("(visitor.claims.a) == (1)", "{\"a\":1}");
	TRUE_FOR("!!visitor.claims.a", "{\"a\":\"x\"}");
	FALSE_FOR("!!!visitor.claims.a", "{\"a\":\"x\"}");
	/* && and || short-circuit but both see the same visitor. */
	TRUE_FOR("visitor.claims.a || visitor.claims.b", "{\"b\":1}");
	FALSE_FOR("visitor.claims.a && visitor.claims.b", "{\"b\":1}");
}

UNIT_TEST(condition_escapes_and_numbers)
{
	TRUE_FOR("visitor.claims.s == \"a\\\"b\"", "{\"s\":\"a\\\"b\"}");
	TRUE_FOR("visitor.claims.s == 'a\\'b'", "{\"s\":\"a'b\"}");
	TRUE_FOR("visitor.claims.s == 'a\"b'", "{\"s\":\"a\\\"b\"}");
	TRUE_FOR("visitor.claims.s == \"a'b\"", "{\"s\":\"a'b\"}");
	TRUE_FOR("visitor.claims.s == 'back\\\\slash'", "{\"s\":\"back\\\\slash\"}");
	TRUE_FOR("visitor.claims.s == '\\n\\t\\r\\b\\f\\v'", "{\"s\":\"\\n\\t\\r\\b\\f\\u000b\"}");
	TRUE_FOR("visitor.claims.s == '\\u00e9\\u20ac'", "{\"s\":\"\xc3\xa9\xe2\x82\xac\"}");
	TRUE_FOR("visitor.claims.s == '\\ud83d\\ude00'", "{\"s\":\"\xf0\x9f\x98\x80\"}");
	TRUE_FOR("visitor.claims.s == '\\x41\\/\\q'", "{\"s\":\"A/q\"}");
	TRUE_FOR("visitor.claims.s == ''", "{\"s\":\"\"}");
	TRUE_FOR("visitor.claims.s == \"\"", "{\"s\":\"\"}");
	CHECK(fails_at("visitor.claims.s == '\\01'", 21, "invalid escape"));
	/* Numbers: integers and decimals, compared numerically. */
	TRUE_FOR("visitor.claims.n == 42", "{\"n\":42}");
	TRUE_FOR("visitor.claims.n == 4.2e1", "{\"n\":42}");
	TRUE_FOR("visitor.claims.n == 0.5 && visitor.claims.n == .5", "{\"n\":0.5}");
	TRUE_FOR("visitor.claims.n == -7", "{\"n\":-7}");
	TRUE_FOR("visitor.claims.n == -0.25", "{\"n\":-0.25}");
	TRUE_FOR("visitor.claims.n == 0", "{\"n\":-0.0}");
	TRUE_FOR("visitor.claims.n == 9007199254740992", "{\"n\":9007199254740992}");
	TRUE_FOR("visitor.claims.n >= 1e308 && visitor.claims.n < 1e309", "{\"n\":1e308}");
}

UNIT_TEST(condition_ordering)
{
	const char *claims = "{\"n\":5,\"s\":\"beta\",\"b\":true,\"z\":null}";

	TRUE_FOR("visitor.claims.n > 4 && visitor.claims.n >= 5 && visitor.claims.n < 6 && visitor.claims.n <= 5", claims);
	FALSE_FOR("visitor.claims.n > 5", claims);
	FALSE_FOR("visitor.claims.n < 5", claims);
	TRUE_FOR("visitor.claims.n > -1.5", claims);
	TRUE_FOR("visitor.claims.s > 'alpha' && visitor.claims.s < 'gamma'", claims);
	TRUE_FOR("visitor.claims.s >= 'beta' && visitor.claims.s <= 'beta'", claims);
	TRUE_FOR("visitor.claims.s < 'betas'", claims);
	TRUE_FOR("'B' < 'a'", NULL); /* bytewise */
	TRUE_FOR("'z' < '\xc3\xa9'", NULL);
	/* Mixed or non-orderable types are never ordered. */
	FALSE_FOR("visitor.claims.n < '6'", claims);
	FALSE_FOR("visitor.claims.n >= '5'", claims);
	FALSE_FOR("visitor.claims.b > false", claims);
	FALSE_FOR("visitor.claims.z < 1", claims);
	FALSE_FOR("visitor.claims.z >= 0", claims);
}

UNIT_TEST(condition_check_and_visible)
{
	json_t *beta = json_pack("{s:{s:{s:b},s:s}}", "claims", "unsigned", "beta", 1, "plan", "pro");
	json_t *plain = json_pack("{s:{}}", "claims");

	err_clear();
	CHECK(cond_check("sections[0].condition", "visitor.claims.a == 1") == 0);
	CHECK(cond_check("condition", "visitor.claims.a == )") == ERR_INVALID);
	CHECK_STR(err_message(), "condition: unexpected ')' at position 20");
	CHECK(cond_check("condition", "42") == ERR_INVALID);
	CHECK_STR(err_message(), "condition: does not evaluate to a boolean at position 0");
	CHECK(cond_check("condition", "foo") == ERR_INVALID);
	CHECK_STR(err_message(),
		  "condition: unknown identifier 'foo' (only visitor.claims.\xE2\x80\xA6 is allowed) at position 0");
	CHECK(cond_check("x", "'abc") == ERR_INVALID);
	CHECK_STR(err_message(), "x: unterminated string at position 0");
	CHECK(cond_check("x", " ") == ERR_INVALID);
	CHECK_STR(err_message(), "x: empty expression at position 0");
	CHECK(cond_check("x", "") == 0);
	CHECK(cond_check("x", NULL) == 0);

	CHECK(cond_visible(NULL, beta));
	CHECK(cond_visible("", beta));
	CHECK(cond_visible(NULL, NULL));
	CHECK(cond_visible("visitor.claims.unsigned.beta == true && visitor.claims.plan in [\"pro\", \"team\"]", beta));
	CHECK(!cond_visible("visitor.claims.unsigned.beta == true && visitor.claims.plan in [\"pro\", \"team\"]", plain));
	CHECK(!cond_visible("visitor.claims.unsigned.beta == true", NULL));
	CHECK(cond_visible("visitor.claims.unsigned.beta != true", NULL));
	CHECK(!cond_visible("visitor.claims.plan ==", beta));   /* unparsable: hidden */
	CHECK(!cond_visible("true ||", beta));
	CHECK(!cond_visible("'pro'", beta));
	CHECK(cond_visible("true", NULL));
	CHECK(!cond_visible("false", NULL));
	json_decref(beta);
	json_decref(plain);
}

/* xorshift64*: reproducible pseudo-random numbers for the fuzz run. */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

/* One input: it parses and evaluates, or fails with a position inside the
 * input and a message that is valid UTF-8 (it goes into a JSON body). */
static void fuzz_one(const char *src, const json_t *visitor, int *parsed)
{
	struct arena a;
	const struct cond *c = NULL;
	struct cond_error e;
	size_t len = strlen(src);
	json_t *msg;

	arena_init(&a);
	if (cond_parse(&a, src, &c, &e) == 0) {
		CHECK(c != NULL);
		(void)cond_eval(c, visitor);
		(*parsed)++;
	} else {
		CHECK(c == NULL);
		CHECK(e.position >= 0 && (size_t)e.position <= (len < 1024 ? len : 1024));
		CHECK(e.message[0] != '\0');
		msg = json_string(e.message);
		CHECK(msg != NULL);
		json_decref(msg);
		if (unit_case_failed) {
			fprintf(stderr, "  input: %.200s\n", src);
			arena_free(&a);
			return;
		}
	}
	CHECK(cond_visible(src, visitor) == (c ? cond_eval(c, visitor) : len == 0));
	arena_free(&a);
}

UNIT_TEST(condition_fuzz)
{
	static const char *const vocab[] = {
		"visitor", ".", "claims", "[", "]", "(", ")", "!", "&&", "||", "==", "!=", "===", "!==", "<",
		"<=", ">", ">=", "in", "true", "false", "null", "1", "-", "2.5", "'a'", "\"b\\\"\"", "'\\u00e9'",
		",", " ", "a", "\"", "'", "\\", "=", "&", "|", "1e", ".5", "x", "\xc3\xa9", "\xff", "\x01", "\n",
	};
	static const char *const seeds[] = {
		"visitor.claims.unsigned.beta == true && visitor.claims.plan in [\"pro\", \"team\"]",
		"!(visitor.claims['a-b'][0] != 'x\\n\\u00e9') || 'sub' in visitor.claims.s && visitor.claims.n >= -1.5e2",
		"(((visitor.claims.a === null) || !visitor.claims.b) && 1 in [1,2,'3',null,])",
	};
	json_t *visitor = json_loads("{\"claims\":{\"unsigned\":{\"beta\":true},\"plan\":\"pro\",\"a\":1,"
				     "\"a-b\":[\"x\\n\xc3\xa9\"],\"s\":\"substring\",\"n\":3}}",
				     0, NULL);
	uint64_t seed = 0x9E3779B97F4A7C15ULL;
	char buf[1200];
	int parsed = 0;

	CHECK(visitor != NULL);
	/* Every prefix and every one-byte deletion of the seeds. */
	for (size_t s = 0; s < sizeof(seeds) / sizeof(seeds[0]) && !unit_case_failed; s++) {
		size_t n = strlen(seeds[s]);

		for (size_t cut = 0; cut <= n && !unit_case_failed; cut++) {
			memcpy(buf, seeds[s], cut);
			buf[cut] = '\0';
			fuzz_one(buf, visitor, &parsed);
			memcpy(buf, seeds[s], n + 1);
			memmove(buf + cut, buf + cut + 1, n - cut);
			fuzz_one(buf, visitor, &parsed);
		}
	}
	/* Random bytes. */
	for (int i = 0; i < 3000 && !unit_case_failed; i++) {
		size_t n = next_rand(&seed) % 80;

		for (size_t k = 0; k < n; k++)
			buf[k] = (char)(next_rand(&seed) % 255 + 1);
		buf[n] = '\0';
		fuzz_one(buf, visitor, &parsed);
	}
	/* Token soup, some of it long enough to hit the limits. */
	for (int i = 0; i < 20000 && !unit_case_failed; i++) {
		size_t n = 0, want = next_rand(&seed) % (i % 50 == 0 ? 1100 : 60);

		while (n < want) {
			const char *t = vocab[next_rand(&seed) % (sizeof(vocab) / sizeof(vocab[0]))];
			size_t k = strlen(t);

			if (n + k >= sizeof(buf) - 1)
				break;
			memcpy(buf + n, t, k);
			n += k;
		}
		buf[n] = '\0';
		fuzz_one(buf, visitor, &parsed);
	}
	/* Mutations of the seeds: a few random bytes replaced. */
	for (int i = 0; i < 5000 && !unit_case_failed; i++) {
		const char *s = seeds[next_rand(&seed) % (sizeof(seeds) / sizeof(seeds[0]))];
		size_t n = strlen(s);

		memcpy(buf, s, n + 1);
		for (int k = 0; k < 3; k++)
			buf[next_rand(&seed) % n] = vocab[next_rand(&seed) % (sizeof(vocab) / sizeof(vocab[0]))][0];
		fuzz_one(buf, visitor, &parsed);
	}
	/* The soup and mutations are not all rejected. */
	CHECK(parsed > 100);
	json_decref(visitor);
}

/* GitBook's JavaScript forms (issue 24): ?. and .includes(), with the
 * parser's limits kept (one call, literal or claim argument, no chains). */
UNIT_TEST(condition_javascript_forms)
{
	CHECK(parses("visitor.claims.unsigned?.plan === \"growth\""));
	CHECK(parses("visitor.claims?.roles?.[0] == \"a\""));
	CHECK(parses("visitor.claims.roles.includes(\"admin\")"));
	CHECK(parses("visitor.claims.roles?.includes('admin') && !visitor.claims.unsigned.x"));
	CHECK(parses("[\"pro\", \"team\"].includes(visitor.claims.plan)"));
	CHECK(parses("\"abc\".includes(visitor.claims.s)"));
	CHECK(parses("visitor.claims.includes")); /* a claim named includes */
	CHECK(parses("visitor.claims.a.includes(visitor.claims.b) == true"));
	CHECK(fails_at("visitor.claims.a.includes(visitor.claims.b.includes(1))", 26, "literal or a claim"));
	CHECK(fails_at("visitor.claims.a.includes((1))", 26, "expected a literal or a claim"));
	CHECK(fails_at("visitor.claims.a.includes(1, 2)", 27, "one argument"));
	CHECK(fails_at("visitor.claims.a.toUpperCase()", 28, "unexpected '('"));
	CHECK(fails_at("1 .includes(2)", 2, "unexpected '.'"));
	CHECK(fails_at("visitor.claims?.", 16, "after '?.'"));
	CHECK(fails_at("visitor.claims.[0]", 15, "expected a name"));
	TRUE_FOR("visitor.claims.roles.includes(\"admin\")", "{\"roles\": [\"x\", \"admin\"]}");
	FALSE_FOR("visitor.claims.roles.includes(\"admin\")", "{\"roles\": [\"x\"]}");
	FALSE_FOR("visitor.claims.roles?.includes(\"admin\")", "{}");
	FALSE_FOR("visitor.claims.roles?.includes(\"admin\")", NULL);
	TRUE_FOR("visitor.claims.email.includes(\"@acme\")", "{\"email\": \"a@acme.org\"}");
	/* includes() is not `in`: an object's keys are not its elements */
	FALSE_FOR("visitor.claims.o.includes(\"k\")", "{\"o\": {\"k\": 1}}");
	TRUE_FOR("\"k\" in visitor.claims.o", "{\"o\": {\"k\": 1}}");
	TRUE_FOR("[\"pro\", \"team\"].includes(visitor.claims.plan)", "{\"plan\": \"team\"}");
	FALSE_FOR("[\"pro\", \"team\"].includes(visitor.claims.plan)", "{}");
	TRUE_FOR("visitor.claims.unsigned?.plan === \"growth\"", "{\"unsigned\": {\"plan\": \"growth\"}}");
	FALSE_FOR("visitor.claims.unsigned?.plan === \"growth\"", "{\"unsigned\": null}");
	TRUE_FOR("!visitor.claims.unsigned.x", "{}");
	TRUE_FOR("visitor.claims.plan !== \"free\"", "{\"plan\": \"pro\"}");
}
