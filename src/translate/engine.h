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
 */
#ifndef DOCSD_TRANSLATE_ENGINE_H
#define DOCSD_TRANSLATE_ENGINE_H

#include "util/arena.h"

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
	const char *name;         /* "apertium" (default) or "off" (no pairs) */
	const char *apertium_dir; /* Apertium's data directory (its modes/ holds one file per pair) */
	int timeout_ms;           /* one batch, one process, at most this long */
};

/* The engine cfg names; ERR_INVALID for an unknown name. */
int tr_engine_new(struct tr_engine **out, const struct tr_engine_config *cfg);
void tr_engine_free(struct tr_engine *e); /* accepts NULL */

/* 0 when from -> to is installed; else ERR_INVALID "no apertium translation
 * pair from en to fr is installed; installed pairs: en→es, es→en";
 * ERR_INTERNAL. */
int tr_engine_check_pair(const struct tr_engine *e, struct arena *a, const char *from, const char *to);
/* "en→es, es→en", or "none" (into a); NULL when the engine's pairs() fails
 * (its error is set). */
const char *tr_engine_pairs_text(const struct tr_engine *e, struct arena *a);

/* The Apertium engine (translate/apertium.c). */
int tr_apertium_new(struct tr_engine **out, const char *dir, int timeout_ms);

#endif
