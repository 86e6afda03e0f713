/*
 * jsonw.h - the streaming JSON writer every response is built with.
 *
 * Serializers append straight into one growable buffer: no JSON tree is built
 * for a response (DESIGN.md, "What the hot path costs"). docsd first used
 * yajl's generator; on the 100-member list page yajl's per-character escaping
 * and call overhead measured 27% of the server's CPU, so this writer copies
 * runs of plain characters with memcpy and escapes only what JSON requires.
 *
 * Commas: `comma` is set after every complete value and cleared by an opening
 * bracket or a key, so callers only say what comes next. Out of memory stops
 * the process (util/alloc.h); a document past SIZE_MAX / 2 bytes sets `oom`
 * and turns every later call into a no-op, and the owner checks it once at the
 * end (jw_ok).
 */
#ifndef DOCSD_JSON_JSONW_H
#define DOCSD_JSON_JSONW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct jw {
	char *buf;
	size_t len;
	size_t cap;
	bool comma;
	bool oom;
};

void jw_init(struct jw *w);
void jw_free(struct jw *w);
void jw_reset(struct jw *w);
static inline bool jw_ok(const struct jw *w)
{
	return !w->oom;
}

/* Make room for n more bytes; false (and oom) when that fails. */
bool jw_reserve(struct jw *w, size_t n);

static inline void jw_put(struct jw *w, const char *s, size_t n)
{
	/* Nothing to add: also keeps memcpy off a writer that has no buffer
	 * yet (NULL + 0 is undefined behaviour; UBSan stops on it). */
	if (n == 0)
		return;
	if (w->cap - w->len < n && !jw_reserve(w, n))
		return;
	memcpy(w->buf + w->len, s, n);
	w->len += n;
}

static inline void jw_sep(struct jw *w)
{
	if (w->comma)
		jw_put(w, ",", 1);
	w->comma = false;
}

static inline void jw_obj_open(struct jw *w)
{
	jw_sep(w);
	jw_put(w, "{", 1);
}

static inline void jw_obj_close(struct jw *w)
{
	jw_put(w, "}", 1);
	w->comma = true;
}

static inline void jw_arr_open(struct jw *w)
{
	jw_sep(w);
	jw_put(w, "[", 1);
}

static inline void jw_arr_close(struct jw *w)
{
	jw_put(w, "]", 1);
	w->comma = true;
}

/* A string value, escaped. */
void jw_strn(struct jw *w, const char *s, size_t n);
static inline void jw_str(struct jw *w, const char *s)
{
	if (s) {
		jw_strn(w, s, strlen(s));
	} else {
		jw_sep(w);
		jw_put(w, "null", 4);
		w->comma = true;
	}
}

/* A key. Keys are docsd's own identifiers ([A-Za-z0-9_]): not escaped. */
static inline void jw_key(struct jw *w, const char *k)
{
	size_t n = strlen(k);

	jw_sep(w);
	if (w->cap - w->len < n + 3 && !jw_reserve(w, n + 3))
		return;
	w->buf[w->len++] = '"';
	memcpy(w->buf + w->len, k, n);
	w->len += n;
	w->buf[w->len++] = '"';
	w->buf[w->len++] = ':';
}

void jw_int(struct jw *w, int64_t v);

static inline void jw_bool(struct jw *w, bool v)
{
	jw_sep(w);
	jw_put(w, v ? "true" : "false", v ? 4 : 5);
	w->comma = true;
}

static inline void jw_null(struct jw *w)
{
	jw_sep(w);
	jw_put(w, "null", 4);
	w->comma = true;
}

/* A JSON text docsd itself produced and validated (stored compact), verbatim. */
static inline void jw_rawn(struct jw *w, const char *json, size_t n)
{
	jw_sep(w);
	jw_put(w, json, n);
	w->comma = true;
}

static inline void jw_raw(struct jw *w, const char *json)
{
	jw_rawn(w, json, strlen(json));
}

static inline void jw_kstr(struct jw *w, const char *k, const char *v)
{
	jw_key(w, k);
	jw_str(w, v);
}

/* Only when v is set: optional fields are omitted rather than null. */
static inline void jw_kstr_opt(struct jw *w, const char *k, const char *v)
{
	if (v)
		jw_kstr(w, k, v);
}

static inline void jw_kint(struct jw *w, const char *k, int64_t v)
{
	jw_key(w, k);
	jw_int(w, v);
}

static inline void jw_kbool(struct jw *w, const char *k, bool v)
{
	jw_key(w, k);
	jw_bool(w, v);
}

static inline void jw_knull(struct jw *w, const char *k)
{
	jw_key(w, k);
	jw_null(w);
}

/* A timestamp (epoch ms) as ISO 8601 UTC with milliseconds. */
void jw_kts(struct jw *w, const char *k, int64_t ms);
/* "<base><path1><path2>" as a string value under key k. */
void jw_kurl(struct jw *w, const char *k, const char *base, const char *path1, const char *path2);

#endif
