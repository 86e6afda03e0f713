/*
 * buf.c - the growable byte buffer (buf.h).
 */
#include "util/buf.h"
#include "util/alloc.h"
#include "util/arena.h"

#include <stdint.h>
#include <stdlib.h>

void buf_init(struct buf *b)
{
	memset(b, 0, sizeof(*b));
}

void buf_free(struct buf *b)
{
	free(b->buf);
	buf_init(b);
}

void buf_reset(struct buf *b)
{
	b->len = 0;
	b->oom = false;
}

bool buf_reserve(struct buf *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 1024;

	if (b->oom)
		return false;
	if (n > SIZE_MAX / 2 - b->len) {
		b->oom = true;
		return false;
	}
	while (cap - b->len < n)
		cap *= 2;
	b->buf = xrealloc(b->buf, cap); /* out of memory stops the process (util/alloc.h) */
	b->cap = cap;
	return true;
}

const char *buf_take(struct buf *b, struct arena *a, const char *fallback)
{
	const char *out = buf_ok(b) ? arena_strndup(a, b->buf ? b->buf : "", b->len) : fallback;

	buf_free(b);
	return out;
}
