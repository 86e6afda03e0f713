/*
 * route.c - translating through a middle language (engine.h): the pivot
 * search and the router engine that the server keeps in front of the
 * configured one.
 *
 * DESIGN
 * Free engines rarely pair every two languages: Debian 12's Apertium goes
 * en->es and es->fr but not en->fr. The router finds, for a source and a
 * target, the shortest chain of installed pairs (at most TR_ROUTE_MAX
 * steps, each middle language once, never an end again) and translates the
 * segments through each step in turn: the output of one is the input of the
 * next, same order and count. Quality drops with each step, hence shortest
 * first and at most three. Ties between chains of one length are broken by a
 * fixed preference of middle languages (languages whose pairs are the best
 * maintained first), then by code, so the route does not depend on the
 * order in which an engine lists its pairs.
 *
 * pt-br: GitBook names Brazilian Portuguese apart; an engine with no
 * Brazilian mode on the way is asked for Portuguese instead, and the route
 * says so (its note, shown on the translation and logged).
 *
 * The router keeps no state but the engine it wraps: routes are searched on
 * every call (a directory listing for Apertium, a table for the HTTP
 * engines), so a pair installed while docsd runs is used by the next run.
 */
#include "translate/engine.h"
#include "model/translation.h"
#include "util/alloc.h"
#include "util/err.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Middle languages, preferred first. */
static const char *const pivot_order[] = { "en", "es", "fr", "ca", "pt", "it", NULL };

static int pivot_rank(const char *code)
{
	for (int i = 0; pivot_order[i]; i++)
		if (strcmp(pivot_order[i], code) == 0)
			return i;
	return 100;
}

/* a before b as middle languages. */
static int mid_cmp(const char *a, const char *b)
{
	int ra = pivot_rank(a), rb = pivot_rank(b);

	return ra != rb ? ra - rb : strcmp(a, b);
}

static bool has_pair(const struct tr_pair *p, int n, const char *from, const char *to)
{
	for (int i = 0; i < n; i++)
		if (strcmp(p[i].from, from) == 0 && strcmp(p[i].to, to) == 0)
			return true;
	return false;
}

/* Is chain m[0..k) better than best[0..k)? */
static bool better(const char *const *m, const char *const *best, int k)
{
	for (int i = 0; i < k; i++) {
		int c = mid_cmp(m[i], best[i]);
		if (c)
			return c < 0;
	}
	return false;
}

bool tr_route_find(const struct tr_pair *p, int n, const char *from, const char *to, struct tr_route *out)
{
	const char *best[2] = { NULL, NULL };
	int steps = 0;

	memset(out, 0, sizeof(*out));
	if (strcmp(from, to) == 0)
		return false;
	if (has_pair(p, n, from, to)) {
		steps = 1;
	} else {
		/* Two steps: from -> m -> to. */
		for (int i = 0; i < n; i++) {
			const char *m = p[i].to;
			if (strcmp(p[i].from, from) != 0 || strcmp(m, to) == 0 || !has_pair(p, n, m, to))
				continue;
			if (!best[0] || better(&m, best, 1))
				best[0] = m;
		}
		if (best[0])
			steps = 2;
	}
	if (!steps) {
		/* Three steps: from -> m1 -> m2 -> to. */
		for (int i = 0; i < n; i++) {
			if (strcmp(p[i].from, from) != 0 || strcmp(p[i].to, to) == 0)
				continue;
			for (int j = 0; j < n; j++) {
				const char *m[2] = { p[i].to, p[j].to };
				if (strcmp(p[j].from, m[0]) != 0 || strcmp(m[1], from) == 0 || strcmp(m[1], to) == 0 ||
				    !has_pair(p, n, m[1], to))
					continue;
				if (!best[0] || better(m, best, 2)) {
					best[0] = m[0];
					best[1] = m[1];
				}
			}
		}
		if (best[0])
			steps = 3;
	}
	if (!steps)
		return false;
	out->steps = steps;
	out->lang[0] = from;
	for (int i = 1; i < steps; i++)
		out->lang[i] = best[i - 1];
	out->lang[steps] = to;
	return true;
}

const char *tr_route_text(struct arena *a, const struct tr_route *r)
{
	size_t len = 1, at = 0;
	char *s;

	for (int i = 0; i <= r->steps; i++)
		len += strlen(r->lang[i]) + 3;
	s = arena_alloc(a, len);
	s[0] = '\0';
	for (int i = 0; i <= r->steps; i++)
		at += (size_t)snprintf(s + at, len - at, "%s%s", i ? "\xe2\x86\x92" : "", r->lang[i]); /* → */
	return s;
}

/* The router: struct tr_engine whose impl is the wrapped engine. */
static const struct tr_engine *base_of(const struct tr_engine *e);

static int route_pairs(const struct tr_engine *e, struct arena *a, struct tr_pair **out, int *n)
{
	const struct tr_engine *b = base_of(e);

	return b->ops->pairs(b, a, out, n);
}

int tr_engine_route(const struct tr_engine *e, struct arena *a, const char *from, const char *to,
		    struct tr_route *out)
{
	struct tr_pair *p;
	int n, rc;

	memset(out, 0, sizeof(*out));
	if ((rc = e->ops->pairs(e, a, &p, &n)))
		return rc;
	if (tr_route_find(p, n, from, to, out))
		return 0;
	/* pt-br stands for pt where no Brazilian mode is on the way. */
	if (strcmp(to, "pt-br") == 0 && strcmp(from, "pt") != 0 && tr_route_find(p, n, from, "pt", out)) {
		out->note = "no Brazilian Portuguese (pt-br) pair is installed: translated into European Portuguese (pt)";
		return 0;
	}
	if (strcmp(from, "pt-br") == 0 && strcmp(to, "pt") != 0 && tr_route_find(p, n, "pt", to, out)) {
		out->note = "no pair from Brazilian Portuguese (pt-br) is installed: read as European Portuguese (pt)";
		return 0;
	}
	return 0;
}

const char *tr_engine_reachable_text(const struct tr_engine *e, struct arena *a, const char *from)
{
	char *s = NULL;
	size_t len = 0;

	for (int i = 0; translation_languages[i]; i++) {
		const char *to = translation_languages[i], *text;
		struct tr_route r;

		if (strcmp(to, from) == 0)
			continue;
		if (tr_engine_route(e, a, from, to, &r))
			return NULL;
		if (!r.steps)
			continue;
		text = tr_route_text(a, &r);
		s = arena_printf(a, "%s%s%s (%s%s)", s ? s : "", s ? ", " : "", to, text, r.note ? ", as pt" : "");
		len++;
	}
	return len ? s : "none";
}

static int route_translate(const struct tr_engine *e, struct arena *a, const char *from, const char *to,
			   const char *const *in, int n, const char ***out)
{
	const struct tr_engine *b = base_of(e);
	const char *const *cur = in;
	struct tr_route r;
	int rc;

	*out = NULL;
	if ((rc = tr_engine_route(e, a, from, to, &r)))
		return rc;
	if (!r.steps)
		return err_set(ERR_PRECONDITION, "no %s translation pair or chain from %s to %s is installed",
			       b->ops->name, from, to);
	log_info("translating %d segments %s through %s%s%s", n, tr_route_text(a, &r), b->ops->name,
		 r.note ? ": " : "", r.note ? r.note : "");
	for (int i = 0; i < r.steps; i++) {
		const char **next;
		if ((rc = b->ops->translate(b, a, r.lang[i], r.lang[i + 1], cur, n, &next)))
			return rc;
		cur = next;
	}
	*out = (const char **)cur;
	return 0;
}

static void route_free(struct tr_engine *e)
{
	if (e) {
		tr_engine_free(e->impl);
		free(e);
	}
}

static const struct tr_engine_ops router_ops = { "router", route_pairs, route_translate, route_free };

static const struct tr_engine *base_of(const struct tr_engine *e)
{
	return e->ops == &router_ops ? e->impl : e;
}

const char *tr_engine_name(const struct tr_engine *e)
{
	return base_of(e)->ops->name;
}

int tr_router_new(struct tr_engine **out, struct tr_engine *base)
{
	struct tr_engine *e = xcalloc(1, sizeof(*e));

	e->ops = &router_ops;
	e->impl = base;
	*out = e;
	return 0;
}
