/*
 * engine.c - choosing the translation engine, and what every engine shares
 * (engine.h).
 */
#include "translate/engine.h"
#include "util/alloc.h"
#include "util/err.h"
#include "util/fetch.h"

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
	struct tr_engine *base = NULL;
	int rc;

	*out = NULL;
	if (strcmp(name, "apertium") == 0) {
		rc = tr_apertium_new(&base, cfg->apertium_dir, cfg->timeout_ms);
	} else if (strcmp(name, "libretranslate") == 0) {
		rc = tr_libretranslate_new(&base, cfg);
	} else if (strcmp(name, "deepl") == 0) {
		rc = tr_deepl_new(&base, cfg);
	} else if (strcmp(name, "off") == 0) {
		base = xcalloc(1, sizeof(*base));
		base->ops = &off_ops;
		rc = 0;
	} else {
		return err_set(ERR_INVALID, "--translation-engine must be apertium, libretranslate, deepl or off");
	}
	if (rc)
		return rc;
	return tr_router_new(out, base);
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
	struct tr_route r;
	const char *list;
	int rc;

	if ((rc = tr_engine_route(e, a, from, to, &r)))
		return rc;
	if (r.steps)
		return 0;
	if (!(list = tr_engine_reachable_text(e, a, from)))
		return err_code(); /* the engine's pairs() failed: its error */
	return err_set(ERR_INVALID,
		       "no %s translation pair or chain of at most %d pairs from %s to %s is installed; "
		       "reachable from %s: %s",
		       tr_engine_name(e), TR_ROUTE_MAX, from, to, from, list);
}

/* ---- the HTTP engines' common part (engine.h) ---- */

int tr_http_batch(const char *const *in, int n, int first)
{
	int k = 0;
	size_t bytes = 0;

	while (first + k < n && k < TR_HTTP_BATCH_SEGMENTS &&
	       (k == 0 || bytes + strlen(in[first + k]) <= TR_HTTP_BATCH_BYTES))
		bytes += strlen(in[first + k++]);
	return k;
}

/* The engine's words for a failed answer: its JSON error field, else the
 * start of its body, one line, printable ASCII, at most 200 bytes. */
static void answer_text(const struct fetch_result *r, char *buf, size_t cap)
{
	json_t *j = r->data ? json_loadb((const char *)r->data, r->len, 0, NULL) : NULL;
	const char *s = NULL;
	size_t k = 0;

	if (json_is_object(j)) {
		static const char *const keys[] = { "error", "message", "detail", NULL };
		for (int i = 0; keys[i] && !s; i++)
			if (json_is_string(json_object_get(j, keys[i])))
				s = json_string_value(json_object_get(j, keys[i]));
	}
	if (!s)
		s = r->data ? (const char *)r->data : "";
	for (; *s && k + 1 < cap && k < 200; s++)
		buf[k++] = (*s >= 0x20 && *s < 0x7f) ? *s : ' ';
	buf[k] = '\0';
	json_decref(j);
}

int tr_http_call(const char *engine, const char *url, const char *const *headers, json_t *body, int timeout_ms,
		 json_t **out)
{
	struct fetch_opts fo = { .max_bytes = (size_t)16 << 20, .timeout_ms = timeout_ms, .allow_private = true };
	struct fetch_result r;
	char *text = NULL, said[256];
	json_t *j;
	int rc;

	*out = NULL;
	if (body && !(text = json_dumps(body, JSON_COMPACT)))
		return err_set(ERR_INTERNAL, "%s: cannot write the request's JSON", engine);
	rc = fetch_post(url, headers, text, text ? strlen(text) : 0, &fo, &r);
	free(text);
	if (rc) {
		/* No answer: refused connection, timeout, too large. The URL is
		 * the operator's own setting; the reason names no address. */
		rc = rc == ERR_INTERNAL ? ERR_INTERNAL : ERR_UNAVAILABLE;
		err_set(rc, "%s did not answer: %s", engine, r.error);
		fetch_result_free(&r);
		return rc;
	}
	if (r.status < 200 || r.status > 299) {
		answer_text(&r, said, sizeof(said));
		rc = (r.status >= 500 || r.status == 408 || r.status == 429 || r.status == 456) ? ERR_UNAVAILABLE
											    : ERR_PRECONDITION;
		err_set(rc, "%s answered HTTP %ld: %s", engine, r.status, said);
		fetch_result_free(&r);
		return rc;
	}
	j = json_loadb((const char *)r.data, r.len, 0, NULL);
	fetch_result_free(&r);
	if (!j)
		return err_set(ERR_UNAVAILABLE, "%s answered HTTP 200 with a body that is not JSON", engine);
	*out = j;
	return 0;
}
