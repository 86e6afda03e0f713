/*
 * engine.c - choosing the translation engine, and what every engine shares
 * (engine.h).
 */
#include "translate/engine.h"
#include "util/alloc.h"
#include "util/err.h"

#include <stdlib.h>
#include <string.h>

/* "off": no pairs, so every translation is refused at creation. */
static int off_pairs(const struct tr_engine *e, struct arena *a, struct tr_pair **out, int *n)
{
	*out = NULL;
	*n = 0;
	return 0;
}

static int off_translate(const struct tr_engine *e, struct arena *a, const char *from, const char *to,
			 const char *const *in, int n, const char ***out)
{
	return err_set(ERR_PRECONDITION, "translation is turned off (--translation-engine off)");
}

static void off_free(struct tr_engine *e)
{
	free(e);
}

static const struct tr_engine_ops off_ops = { "off", off_pairs, off_translate, off_free };

int tr_engine_new(struct tr_engine **out, const struct tr_engine_config *cfg)
{
	const char *name = cfg->name && *cfg->name ? cfg->name : "apertium";

	*out = NULL;
	if (strcmp(name, "apertium") == 0)
		return tr_apertium_new(out, cfg->apertium_dir, cfg->timeout_ms);
	if (strcmp(name, "off") == 0) {
		struct tr_engine *e = xcalloc(1, sizeof(*e));
		e->ops = &off_ops;
		*out = e;
		return 0;
	}
	return err_set(ERR_INVALID, "--translation-engine must be apertium or off");
}

void tr_engine_free(struct tr_engine *e)
{
	if (e)
		e->ops->free(e);
}

const char *tr_engine_pairs_text(const struct tr_engine *e, struct arena *a)
{
	struct tr_pair *p;
	char *s;
	size_t len = 1, at = 0;
	int n;

	if (e->ops->pairs(e, a, &p, &n))
		return NULL;
	if (n == 0)
		return "none";
	for (int i = 0; i < n; i++)
		len += strlen(p[i].from) + strlen(p[i].to) + 5;
	s = arena_alloc(a, len);
	for (int i = 0; i < n; i++) {
		size_t f = strlen(p[i].from), t = strlen(p[i].to);
		if (i) {
			memcpy(s + at, ", ", 2);
			at += 2;
		}
		memcpy(s + at, p[i].from, f);
		at += f;
		memcpy(s + at, "\xe2\x86\x92", 3); /* → */
		at += 3;
		memcpy(s + at, p[i].to, t);
		at += t;
	}
	s[at] = '\0';
	return s;
}

int tr_engine_check_pair(const struct tr_engine *e, struct arena *a, const char *from, const char *to)
{
	struct tr_pair *p;
	const char *list;
	int n, rc;

	if ((rc = e->ops->pairs(e, a, &p, &n)))
		return rc;
	for (int i = 0; i < n; i++)
		if (strcmp(p[i].from, from) == 0 && strcmp(p[i].to, to) == 0)
			return 0;
	if (!(list = tr_engine_pairs_text(e, a)))
		return err_code(); /* the engine's pairs() failed: its error */
	return err_set(ERR_INVALID,
		       "no %s translation pair from %s to %s is installed; installed pairs: %s",
		       e->ops->name, from, to, list);
}
