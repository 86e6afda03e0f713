/*
 * translate/route: the pivot search (tr_route_find), the pt-br stand-in and
 * the router translating through each step (a fake engine that tags each
 * step's output).
 */
#include "translate/engine.h"
#include "util/alloc.h"
#include "util/arena.h"
#include "util/err.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

/* Debian 12's Apertium pairs between GitBook's languages and the middle ones. */
static const struct tr_pair debian[] = {
	{ "bg", "mk" }, { "ca", "en" }, { "ca", "fr" }, { "ca", "it" }, { "ca", "pt" }, { "ca", "pt-br" },
	{ "en", "ca" }, { "en", "es" }, { "en", "hr" }, { "es", "en" }, { "es", "fr" }, { "es", "it" },
	{ "es", "pt" }, { "es", "pt-br" }, { "es", "ro" }, { "fr", "ca" }, { "fr", "es" }, { "hr", "en" },
	{ "hr", "mk" }, { "hr", "sl" }, { "is", "en" }, { "is", "sv" }, { "it", "ca" }, { "it", "es" },
	{ "mk", "bg" }, { "mk", "en" }, { "mk", "hr" }, { "pt", "ca" }, { "pt", "es" }, { "ro", "es" },
	{ "sl", "hr" }, { "sv", "da" }, { "sv", "is" },
};
#define NDEB ((int)(sizeof(debian) / sizeof(debian[0])))

UNIT_TEST(route_shortest_chain_first)
{
	struct arena a;
	struct tr_route r;

	arena_init(&a);
	CHECK(tr_route_find(debian, NDEB, "en", "es", &r) && r.steps == 1);
	CHECK_STR(tr_route_text(&a, &r), "en\xe2\x86\x92" "es");
	/* two chains of two steps (via es, via ca): es is preferred */
	CHECK(tr_route_find(debian, NDEB, "en", "fr", &r) && r.steps == 2);
	CHECK_STR(tr_route_text(&a, &r), "en\xe2\x86\x92" "es\xe2\x86\x92" "fr");
	CHECK(tr_route_find(debian, NDEB, "en", "pt-br", &r) && r.steps == 2);
	CHECK_STR(r.lang[1], "es");
	CHECK(tr_route_find(debian, NDEB, "en", "ro", &r) && r.steps == 2);
	/* three steps through two middle languages */
	CHECK(tr_route_find(debian, NDEB, "en", "bg", &r) && r.steps == 3);
	CHECK_STR(tr_route_text(&a, &r), "en\xe2\x86\x92" "hr\xe2\x86\x92" "mk\xe2\x86\x92" "bg");
	CHECK(tr_route_find(debian, NDEB, "fr", "en", &r) && r.steps == 2);
	/* the order of the pairs does not change the choice */
	{
		struct tr_pair rev[NDEB];
		for (int i = 0; i < NDEB; i++)
			rev[i] = debian[NDEB - 1 - i];
		CHECK(tr_route_find(rev, NDEB, "en", "fr", &r) && r.steps == 2);
		CHECK_STR(r.lang[1], "es");
	}
	/* more than three steps, or no way at all: none */
	CHECK(!tr_route_find(debian, NDEB, "en", "sv", &r) && r.steps == 0);
	CHECK(!tr_route_find(debian, NDEB, "en", "da", &r));
	CHECK(!tr_route_find(debian, NDEB, "en", "en", &r));
	{
		static const struct tr_pair chain[] = { { "a", "b" }, { "b", "c" }, { "c", "d" }, { "d", "e" } };
		CHECK(tr_route_find(chain, 4, "a", "d", &r) && r.steps == 3);
		CHECK(!tr_route_find(chain, 4, "a", "e", &r));
	}
	arena_free(&a);
}

/* A fake engine over the pairs above whose translate tags each segment
 * "<to>:"; it counts its calls. */
static int fake_pairs(const struct tr_engine *e, struct arena *a, struct tr_pair **out, int *n)
{
	const struct tr_pair *p = e->impl;
	int k = 0;

	while (p[k].from)
		k++;
	*out = (struct tr_pair *)p;
	*n = k;
	return 0;
}

static int fake_translate(const struct tr_engine *e, struct arena *a, const char *from, const char *to,
			  const char *const *in, int n, const char ***out)
{
	const char **res = arena_alloc(a, sizeof(*res) * (size_t)(n + 1));

	for (int i = 0; i < n; i++)
		res[i] = arena_printf(a, "%s:%s", to, in[i]);
	*out = res;
	return 0;
}

static void fake_free(struct tr_engine *e)
{
	free(e);
}

static const struct tr_engine_ops fake_ops = { "fake", fake_pairs, fake_translate, fake_free };

UNIT_TEST(route_router_translates_through_each_step)
{
	static const struct tr_pair pairs[] = { { "en", "es" }, { "es", "fr" }, { "es", "pt" }, { NULL, NULL } };
	struct tr_engine *base = xcalloc(1, sizeof(*base)), *r = NULL;
	const char *in[] = { "one", "two" };
	const char **out;
	struct tr_route rt;
	struct arena a;

	arena_init(&a);
	base->ops = &fake_ops;
	base->impl = (void *)pairs;
	CHECK(tr_router_new(&r, base) == 0);
	CHECK_STR(tr_engine_name(r), "fake");
	CHECK(r->ops->translate(r, &a, "en", "fr", in, 2, &out) == 0);
	CHECK_STR(out[0], "fr:es:one");
	CHECK_STR(out[1], "fr:es:two");
	/* pt-br: no Brazilian pair, pt stands in and the route says so */
	CHECK(tr_engine_route(r, &a, "en", "pt-br", &rt) == 0 && rt.steps == 2 && rt.note != NULL);
	CHECK_STR(rt.lang[2], "pt");
	CHECK(r->ops->translate(r, &a, "en", "pt-br", in, 1, &out) == 0);
	CHECK_STR(out[0], "pt:es:one");
	CHECK(tr_engine_check_pair(r, &a, "en", "pt-br") == 0);
	/* the 400 lists what is reachable, with routes */
	CHECK(tr_engine_check_pair(r, &a, "en", "de") == ERR_INVALID);
	CHECK(strstr(err_message(), "reachable from en: fr (en\xe2\x86\x92" "es\xe2\x86\x92" "fr), es (en\xe2\x86\x92" "es), "
				    "pt (en\xe2\x86\x92" "es\xe2\x86\x92" "pt), pt-br (en\xe2\x86\x92" "es\xe2\x86\x92" "pt, as pt)") != NULL);
	CHECK(r->ops->translate(r, &a, "fr", "en", in, 1, &out) == ERR_PRECONDITION);
	tr_engine_free(r);
	arena_free(&a);
}
