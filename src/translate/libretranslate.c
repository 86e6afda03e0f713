/*
 * libretranslate.c - the LibreTranslate engine (engine.h): a server that
 * speaks LibreTranslate's API at --translation-url (the operator's, so a
 * private address is fine), with --translation-api-key when it asks for one.
 *
 * DESIGN
 *   GET  {url}/languages   [{code, name, targets: [codes]}]: read once, when
 *                          docsd starts (tr_libretranslate_new); the pairs
 *                          are fixed for the process. A server that does not
 *                          answer then stops the start, naming its answer.
 *   POST {url}/translate   {q: [segments], source, target, format: "text",
 *                          api_key?} -> {translatedText: [translations]},
 *                          at most TR_HTTP_BATCH_SEGMENTS segments and
 *                          TR_HTTP_BATCH_BYTES bytes a request.
 * LibreTranslate's codes are GitBook's but for Norwegian (nb), Brazilian
 * Portuguese (pb) and Chinese (zh, or zh-Hans in newer servers). The key
 * travels in the JSON body, never in a log line or a message: errors name
 * the server's answer only (engine.c, tr_http_call).
 */
#include "translate/engine.h"
#include "model/translation.h"
#include "util/alloc.h"
#include "util/err.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PAIRS 2048

struct libre {
	char *url;        /* without a trailing '/' */
	char *key;        /* NULL: none */
	int timeout_ms;
	struct tr_pair *pairs;
	int npairs;
};

static const struct {
	const char *gitbook, *libre;
} codes[] = { { "no", "nb" }, { "pt-br", "pb" }, { "zh", "zh-Hans" }, { "zh", "zh" }, { "ca", "ca" } };

/* GitBook's code (or a middle language's) for a LibreTranslate code; NULL
 * when GitBook has no such language. Static strings. */
static const char *gitbook_code(const char *c)
{
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (strcmp(codes[i].libre, c) == 0)
			return codes[i].gitbook;
	for (int i = 0; translation_languages[i]; i++)
		if (strcmp(translation_languages[i], c) == 0)
			return translation_languages[i];
	return NULL;
}

/* LibreTranslate's code of a GitBook code: the one its /languages used. */
static const char *libre_code(const struct libre *l, const char *c)
{
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (strcmp(codes[i].gitbook, c) == 0 && strcmp(codes[i].gitbook, codes[i].libre) != 0)
			return codes[i].libre;
	return c;
}

static int lt_pairs(const struct tr_engine *e, struct arena *a, struct tr_pair **out, int *n)
{
	const struct libre *l = e->impl;

	*out = l->pairs;
	*n = l->npairs;
	return 0;
}

static int lt_translate(const struct tr_engine *e, struct arena *a, const char *from, const char *to,
			const char *const *in, int n, const char ***out)
{
	const struct libre *l = e->impl;
	const char *url = arena_printf(a, "%s/translate", l->url);
	const char *const headers[] = { "Content-Type: application/json", "Accept: application/json", NULL };
	const char **res = arena_alloc(a, sizeof(*res) * (size_t)(n + 1));
	int rc = 0;

	*out = NULL;
	for (int first = 0; first < n && rc == 0;) {
		int k = tr_http_batch(in, n, first);
		json_t *body = json_object(), *q = json_array(), *ans = NULL, *tt;

		for (int i = 0; i < k; i++)
			json_array_append_new(q, json_string(in[first + i]));
		json_object_set_new(body, "q", q);
		json_object_set_new(body, "source", json_string(libre_code(l, from)));
		json_object_set_new(body, "target", json_string(libre_code(l, to)));
		json_object_set_new(body, "format", json_string("text"));
		if (l->key)
			json_object_set_new(body, "api_key", json_string(l->key));
		rc = tr_http_call("libretranslate", url, headers, body, l->timeout_ms, &ans);
		json_decref(body);
		if (rc)
			break;
		tt = json_object_get(ans, "translatedText");
		if (!json_is_array(tt) || json_array_size(tt) != (size_t)k) {
			rc = err_set(ERR_UNAVAILABLE, "libretranslate answered without translatedText as an array of %d "
						      "strings", k);
		} else {
			for (int i = 0; i < k && rc == 0; i++) {
				json_t *s = json_array_get(tt, (size_t)i);
				if (!json_is_string(s))
					rc = err_set(ERR_UNAVAILABLE, "libretranslate answered a translation that is "
								      "not a string");
				else
					res[first + i] = arena_strdup(a, json_string_value(s));
			}
		}
		json_decref(ans);
		first += k;
	}
	if (rc == 0)
		*out = res;
	return rc;
}

static void lt_free(struct tr_engine *e)
{
	if (e) {
		struct libre *l = e->impl;
		if (l) {
			free(l->url);
			free(l->key);
			free(l->pairs);
			free(l);
		}
		free(e);
	}
}

static const struct tr_engine_ops libre_ops = { "libretranslate", lt_pairs, lt_translate, lt_free };

static void add_pair(struct libre *l, const char *from, const char *to)
{
	if (!from || !to || strcmp(from, to) == 0 || l->npairs == MAX_PAIRS)
		return;
	for (int i = 0; i < l->npairs; i++)
		if (strcmp(l->pairs[i].from, from) == 0 && strcmp(l->pairs[i].to, to) == 0)
			return;
	l->pairs[l->npairs++] = (struct tr_pair){ from, to };
}

static int pair_cmp(const void *x, const void *y)
{
	const struct tr_pair *a = x, *b = y;
	int c = strcmp(a->from, b->from);

	return c ? c : strcmp(a->to, b->to);
}

int tr_libretranslate_new(struct tr_engine **out, const struct tr_engine_config *cfg)
{
	const char *const headers[] = { "Accept: application/json", NULL };
	struct tr_engine *e;
	struct libre *l;
	json_t *langs = NULL, *lang;
	char *url;
	size_t i, len;
	int rc;

	*out = NULL;
	if (!cfg->url || (strncmp(cfg->url, "http://", 7) != 0 && strncmp(cfg->url, "https://", 8) != 0))
		return err_set(ERR_INVALID, "--translation-url must be the http:// or https:// URL of a LibreTranslate "
					    "server (--translation-engine libretranslate)");
	url = xstrdup(cfg->url);
	len = strlen(url);
	while (len && url[len - 1] == '/')
		url[--len] = '\0';
	{
		char *u = xmalloc(len + 16);
		snprintf(u, len + 16, "%s/languages", url);
		rc = tr_http_call("libretranslate", u, headers, NULL, cfg->timeout_ms > 0 ? cfg->timeout_ms : 60000, &langs);
		free(u);
	}
	if (rc) {
		char why[512];
		/* err_set writes the buffer err_message() reads: copy it first. */
		snprintf(why, sizeof(why), "%s", err_message());
		free(url);
		return err_set(rc == ERR_INTERNAL ? ERR_INTERNAL : ERR_UNAVAILABLE,
			       "cannot read the languages of --translation-url: %s", why);
	}
	if (!json_is_array(langs)) {
		json_decref(langs);
		free(url);
		return err_set(ERR_UNAVAILABLE, "libretranslate's /languages is not an array");
	}
	e = xcalloc(1, sizeof(*e));
	l = xcalloc(1, sizeof(*l));
	l->url = url;
	l->key = cfg->api_key && *cfg->api_key ? xstrdup(cfg->api_key) : NULL;
	l->timeout_ms = cfg->timeout_ms > 0 ? cfg->timeout_ms : 60000;
	l->pairs = xcalloc(MAX_PAIRS, sizeof(*l->pairs));
	json_array_foreach(langs, i, lang) {
		const char *code = json_string_value(json_object_get(lang, "code"));
		const char *from = code ? gitbook_code(code) : NULL;
		json_t *targets = json_object_get(lang, "targets"), *t;
		size_t j;

		json_array_foreach(targets, j, t)
			if (json_is_string(t))
				add_pair(l, from, gitbook_code(json_string_value(t)));
	}
	json_decref(langs);
	qsort(l->pairs, (size_t)l->npairs, sizeof(*l->pairs), pair_cmp);
	log_info("libretranslate: %d language pairs", l->npairs);
	e->ops = &libre_ops;
	e->impl = l;
	*out = e;
	return 0;
}
