/*
 * arena.h - a request's memory.
 *
 * Each request owns one arena; everything the request allocates for itself
 * (path parameters, strings read from rows, the parsed query) comes from it and
 * is released at once by arena_free() when the response has been queued. The
 * first block lives inside the arena struct so a small request allocates nothing.
 * An arena never returns NULL: out of memory stops the process (util/alloc.h),
 * so callers do not check. arena_strdup(a, NULL) is NULL, as its argument.
 */
#ifndef DOCSD_UTIL_ARENA_H
#define DOCSD_UTIL_ARENA_H

#include <stddef.h>

struct arena_block;

struct arena {
	struct arena_block *head;
	char *cur;
	char *end;
	char first[4096];
};

void arena_init(struct arena *a);
void arena_free(struct arena *a);
void *arena_alloc(struct arena *a, size_t n);
char *arena_strdup(struct arena *a, const char *s);
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_printf(struct arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
