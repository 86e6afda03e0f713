/*
 * deepl.c - the DeepL engine (engine.h): DeepL's v2 API at --translation-url
 * (https://api.deepl.com, https://api-free.deepl.com, or a compatible server
 * of the operator's), authenticated by --translation-api-key.
 *
 * DESIGN
 *   POST {url}/v2/translate  {text: [segments], source_lang, target_lang}
 *                            with "Authorization: DeepL-Auth-Key <key>" ->
 *                            {translations: [{text, detected_source_language}]},
 *                            at most TR_HTTP_BATCH_SEGMENTS (DeepL's own cap
 *                            is 50) segments a request.
 * The languages are DeepL's documented ones (the table below), so nothing
 * is asked at start. DeepL wants a variant for an English or Portuguese
 * target (EN-US, PT-PT, PT-BR) and names Norwegian NB and Chinese ZH-HANS.
 * The key is in a header only: errors name DeepL's answer (engine.c,
 * tr_http_call), never the request.
 */
#include "translate/engine.h"
#include "util/alloc.h"
#include "util/err.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct deepl {
	char *url;     /* without a trailing '/' */
	char *auth;    /* "Authorization: DeepL-Auth-Key <key>" */
	int timeout_ms;
};

/* GitBook's codes DeepL translates from and into; pt-br only as a target. */
static const char *const langs[] = { "ar", "bg", "cs", "da", "de", "el", "en", "es", "et", "fi", "fr", "he",
				     "hu", "id", "it", "ja", "ko", "lt", "lv", "no", "nl", "pl", "pt", "ro",
				     "ru", "sk", "sl", "sv", "th", "tr", "uk", "vi", "zh", "pt-br", NULL };

static int dl_pairs(const struct tr_engine *e, struct arena *a, struct tr_pair **out, int *n)
{
	int k = 0, nl = 0;
	struct tr_pair *p;

	while (langs[nl])
		nl++;
	p = arena_alloc(a, sizeof(*p) * (size_t)(nl * nl));
	for (int i = 0; i < nl; i++)
		for (int j = 0; j < nl; j++)
			if (i != j && strcmp(langs[i], "pt-br") != 0)
				p[k++] = (struct tr_pair){ langs[i], langs[j] };
	*out = p;
	*n = k;
	return 0;
}

/* DeepL's code for GitBook's c, as a source or as a target (into a). */
static const char *deepl_code(struct arena *a, const char *c, bool target)
{
	char *u;

	if (strcmp(c, "no") == 0)
		return "NB";
	if (strcmp(c, "zh") == 0)
		return target ? "ZH-HANS" : "ZH";
	if (strcmp(c, "pt-br") == 0)
		return target ? "PT-BR" : "PT";
	if (target && strcmp(c, "en") == 0)
		return "EN-US";
	if (target && strcmp(c, "pt") == 0)
		return "PT-PT";
	u = arena_strdup(a, c);
	for (char *s = u; *s; s++)
		*s = (char)toupper((unsigned char)*s);
	return u;
}

static int dl_translate(const struct tr_engine *e, struct arena *a, const char *from, const char *to,
			const char *const *in, int n, const char ***out)
{
	const struct deepl *d = e->impl;
	const char *url = arena_printf(a, "%s/v2/translate", d->url);
	const char *const headers[] = { "Content-Type: application/json", "Accept: application/json", d->auth, NULL };
	const char **res = arena_alloc(a, sizeof(*res) * (size_t)(n + 1));
	int rc = 0;

	*out = NULL;
	for (int first = 0; first < n && rc == 0;) {
		int k = tr_http_batch(in, n, first);
		json_t *body = json_object(), *text = json_array(), *ans = NULL, *tr;

		for (int i = 0; i < k; i++)
			json_array_append_new(text, json_string(in[first + i]));
		json_object_set_new(body, "text", text);
		json_object_set_new(body, "source_lang", json_string(deepl_code(a, from, false)));
		json_object_set_new(body, "target_lang", json_string(deepl_code(a, to, true)));
		rc = tr_http_call("deepl", url, headers, body, d->timeout_ms, &ans);
		json_decref(body);
		if (rc)
			break;
		tr = json_object_get(ans, "translations");
		if (!json_is_array(tr) || json_array_size(tr) != (size_t)k) {
			rc = err_set(ERR_UNAVAILABLE, "deepl answered without translations as an array of %d objects", k);
		} else {
			for (int i = 0; i < k && rc == 0; i++) {
				json_t *s = json_object_get(json_array_get(tr, (size_t)i), "text");
				if (!json_is_string(s))
					rc = err_set(ERR_UNAVAILABLE, "deepl answered a translation without its text");
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

static void dl_free(struct tr_engine *e)
{
	if (e) {
		struct deepl *d = e->impl;
		if (d) {
			free(d->url);
			if (d->auth)
				memset(d->auth, 0, strlen(d->auth));
			free(d->auth);
			free(d);
		}
		free(e);
	}
}

static const struct tr_engine_ops deepl_ops = { "deepl", dl_pairs, dl_translate, dl_free };

int tr_deepl_new(struct tr_engine **out, const struct tr_engine_config *cfg)
{
	struct tr_engine *e;
	struct deepl *d;
	size_t len;

	*out = NULL;
	if (!cfg->url || (strncmp(cfg->url, "http://", 7) != 0 && strncmp(cfg->url, "https://", 8) != 0))
		return err_set(ERR_INVALID, "--translation-url must be the http:// or https:// URL of DeepL's API "
					    "(https://api.deepl.com or https://api-free.deepl.com) with --translation-engine deepl");
	if (!cfg->api_key || !*cfg->api_key || strpbrk(cfg->api_key, "\r\n"))
		return err_set(ERR_INVALID, "--translation-api-key is required with --translation-engine deepl "
					    "(one line)");
	e = xcalloc(1, sizeof(*e));
	d = xcalloc(1, sizeof(*d));
	d->url = xstrdup(cfg->url);
	len = strlen(d->url);
	while (len && d->url[len - 1] == '/')
		d->url[--len] = '\0';
	len = strlen(cfg->api_key) + 64;
	d->auth = xmalloc(len);
	snprintf(d->auth, len, "Authorization: DeepL-Auth-Key %s", cfg->api_key);
	d->timeout_ms = cfg->timeout_ms > 0 ? cfg->timeout_ms : 60000;
	e->ops = &deepl_ops;
	e->impl = d;
	*out = e;
	return 0;
}
