/*
 * engine.h - machine translation behind one interface, so that docsd can be
 * configured with another engine than Apertium (--translation-engine).
 *
 * DESIGN
 * An engine is a table of functions (like the store's drivers): the pairs
 * of languages it has installed, and the translation of a batch of
 * segments. Languages are GitBook's codes (TranslationLanguage: "en", "es",
 * "pt-br" ...); an engine maps them to its own. Segments are plain text
 * without line breaks or control characters (format/md_translate.h makes
 * them); a translation keeps the segment's order and count. Engines run
 * outside any transaction (the translation job calls them between its read
 * and its write), may take seconds, and are called from several job
 * workers at once: an engine keeps no mutable state of its own.
 *
 * Errors: ERR_PRECONDITION when the pair is not installed (permanent: the
 * job is not retried), ERR_UNAVAILABLE when the engine failed or timed out
 * (retried), ERR_INTERNAL for memory.
 *
 * Engines: apertium.c (Debian's apertium, a subprocess), libretranslate.c
 * and deepl.c (HTTP, the operator's server: --translation-url), "off".
 * tr_engine_new wraps the chosen one in the router (route.c), which is what
 * the server keeps: its pairs() are the engine's own (direct pairs, pivot
 * languages such as Catalan included) and its translate() goes from the
 * source to the target language through the shortest chain of pairs
 * (tr_route_find: at most TR_ROUTE_MAX steps), so the job and the domain
 * never see a chain. The pivot search itself is pure (tr_route_find).
 */
#ifndef DOCSD_TRANSLATE_ENGINE_H
#define DOCSD_TRANSLATE_ENGINE_H

#include "util/arena.h"

#include <stdbool.h>

struct tr_pair {
	const char *from, *to; /* GitBook language codes */
};

struct tr_engine;

struct tr_engine_ops {
	const char *name;
	/* The installed pairs, sorted, each once; into a. */
	int (*pairs)(const struct tr_engine *e, struct arena *a, struct tr_pair **out, int *n);
	/* out[i] (into a): in[i] translated from `from` to `to`. */
	int (*translate)(const struct tr_engine *e, struct arena *a, const char *from, const char *to,
			 const char *const *in, int n, const char ***out);
	void (*free)(struct tr_engine *e);
};

struct tr_engine {
	const struct tr_engine_ops *ops;
	void *impl;
};

struct tr_engine_config {
	const char *name;         /* "apertium" (default), "libretranslate", "deepl" or "off" (no pairs) */
	const char *apertium_dir; /* Apertium's data directories, ':'-separated (each one's modes/
				   * holds one file per pair; the first holding a mode wins) */
	int timeout_ms;           /* one batch (one process, one HTTP request) at most this long */
	const char *url;          /* libretranslate, deepl: the server's base URL (the operator's) */
	const char *api_key;      /* libretranslate, deepl: sent, never logged; NULL: none */
};

/* The engine cfg names, behind the router (route.c); ERR_INVALID for an
 * unknown name or a bad setting, ERR_UNAVAILABLE when an HTTP engine's
 * languages cannot be read at start. */
int tr_engine_new(struct tr_engine **out, const struct tr_engine_config *cfg);
void tr_engine_free(struct tr_engine *e); /* accepts NULL */

/* 0 when from -> to is reachable (a pair or a chain of pairs, tr_engine_route);
 * else ERR_INVALID "no apertium translation pair or chain from en to sv is
 * installed; reachable from en: es (en→es), fr (en→es→fr), ..."; an error of
 * the engine's pairs(). */
int tr_engine_check_pair(const struct tr_engine *e, struct arena *a, const char *from, const char *to);
/* "en→es, es→en", or "none" (into a); NULL when the engine's pairs() fails
 * (its error is set). */
const char *tr_engine_pairs_text(const struct tr_engine *e, struct arena *a);

/* ---- routes through pivot languages (route.c) ---- */

#define TR_ROUTE_MAX 3 /* steps (pairs) in a chain, at most */

struct tr_route {
	const char *lang[TR_ROUTE_MAX + 1]; /* lang[0] the source ... lang[steps] the target */
	int steps;                          /* 0: none found */
	const char *note;                   /* why the route is not what was asked (pt-br via pt), or NULL */
};

/* The shortest chain of pairs p[0..n) from `from` to `to`, at most
 * TR_ROUTE_MAX steps, through languages other than both ends, each once.
 * Among chains of one length, the one whose middle languages come first in
 * the pivot preference (en, es, fr, ca, pt, it, then by code) wins, so the
 * choice does not depend on the order of p. Pure. true when found. */
bool tr_route_find(const struct tr_pair *p, int n, const char *from, const char *to, struct tr_route *out);
/* The route e takes from -> to: tr_route_find over e's pairs, where none is
 * found with pt-br standing for pt (either end; out->note says so). 0 with
 * out->steps == 0 when there is none; an error of pairs(). */
int tr_engine_route(const struct tr_engine *e, struct arena *a, const char *from, const char *to,
		    struct tr_route *out);
/* "en→es→fr" (into a). */
const char *tr_route_text(struct arena *a, const struct tr_route *r);
/* "es (en→es), fr (en→es→fr)", GitBook's languages reachable from `from`,
 * or "none"; NULL when pairs() fails. */
const char *tr_engine_reachable_text(const struct tr_engine *e, struct arena *a, const char *from);
/* The engine's name ("apertium", "libretranslate", "deepl", "off"), under the router. */
const char *tr_engine_name(const struct tr_engine *e);

/* ---- what the HTTP engines share (engine.c) ---- */

#include <jansson.h>

/* At most this many segments, and bytes of them, in one request. */
#define TR_HTTP_BATCH_SEGMENTS 50
#define TR_HTTP_BATCH_BYTES 65536
/* The size of one segment batch [*first, *first + returned) of in[0..n)
 * within those limits (at least one segment). */
int tr_http_batch(const char *const *in, int n, int first);
/* Send body (NULL: GET) as JSON to url with headers (NULL-terminated;
 * may be NULL) and read a JSON answer into *out (json_decref it). The URL
 * is the operator's (private addresses allowed), http/https only, timeout_ms,
 * 16 MiB at most. A 2xx with JSON: 0. Else an error naming the engine and
 * its answer, never the headers: "deepl answered HTTP 403: Wrong
 * authentication key" (ERR_PRECONDITION for a 4xx other than 408 and 429: a
 * setting to fix; ERR_UNAVAILABLE for no answer, a timeout, 408, 429, 456 and
 * 5xx: retried by the queue). */
int tr_http_call(const char *engine, const char *url, const char *const *headers, json_t *body, int timeout_ms,
		 json_t **out);

/* The engines, each in its own file. timeout_ms: one batch. */
int tr_apertium_new(struct tr_engine **out, const char *dir, int timeout_ms);
int tr_libretranslate_new(struct tr_engine **out, const struct tr_engine_config *cfg);
int tr_deepl_new(struct tr_engine **out, const struct tr_engine_config *cfg);
/* The router over base (route.c), which it owns from now on (freed with it,
 * also on failure). */
int tr_router_new(struct tr_engine **out, struct tr_engine *base);

#endif
