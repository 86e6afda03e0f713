/*
 * buf.h - the growable byte buffer the writers are built on.
 *
 * DESIGN: the JSON writer (json/jsonw.h) and the HTML writer (site/site.h, on
 * struct jw today) only append bytes; what they share is this buffer, so a
 * caller that needs text (a URL, a stored JSON text, an HTML fragment) builds
 * it here and takes it into its arena once with buf_take, instead of the
 * "ok ? arena_strndup(a, buf, len) : fallback; free" sequence each used to
 * write. Out of memory stops the process (util/alloc.h); a buffer past
 * SIZE_MAX / 2 bytes sets `oom` and turns every later append into a no-op, and
 * the owner checks it once at the end (buf_ok, or buf_take's fallback).
 * A zeroed struct buf is empty and valid.
 */
#ifndef DOCSD_UTIL_BUF_H
#define DOCSD_UTIL_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

struct arena;

struct buf {
	char *buf;
	size_t len;
	size_t cap;
	bool oom;
};

void buf_init(struct buf *b);
/* Frees the bytes; accepts a zeroed buffer. The buffer is empty after. */
void buf_free(struct buf *b);
/* Empties the buffer, keeping its memory. */
void buf_reset(struct buf *b);
static inline bool buf_ok(const struct buf *b)
{
	return !b->oom;
}

/* Make room for n more bytes; false (and oom) when that would pass SIZE_MAX / 2. */
bool buf_reserve(struct buf *b, size_t n);

static inline void buf_put(struct buf *b, const char *s, size_t n)
{
	/* Nothing to add: also keeps memcpy off a buffer that has no memory
	 * yet (NULL + 0 is undefined behaviour; UBSan stops on it: fuzz/). */
	if (n == 0)
		return;
	if (b->cap - b->len < n && !buf_reserve(b, n))
		return;
	memcpy(b->buf + b->len, s, n);
	b->len += n;
}

static inline void buf_puts(struct buf *b, const char *s)
{
	buf_put(b, s, strlen(s));
}

/* The bytes as a NUL-terminated copy in a, and the buffer freed; `fallback`
 * (which may be NULL) when the buffer overflowed. */
const char *buf_take(struct buf *b, struct arena *a, const char *fallback);

#endif
