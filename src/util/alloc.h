/*
 * alloc.h - out of memory is one rule: the process stops.
 *
 * docsd runs on Linux, where an allocation fails only when the machine is
 * out of memory (or an address space limit is hit); no request can recover
 * from that, and a branch per allocation that turned it into a 500 was ~460
 * untested paths. So every allocation of docsd's own goes through these (and
 * the arena, util/arena.h, which uses them): on failure they print what was
 * asked for and abort(), and they never return NULL. Allocations made inside
 * libraries (jansson, libcurl, libgit2, cmark, libpq) keep their own error
 * returns, which callers still check, as they check every other failure.
 */
#ifndef DOCSD_UTIL_ALLOC_H
#define DOCSD_UTIL_ALLOC_H

#include <stddef.h>

/* Print "docsd: out of memory (N bytes: what)" and abort. */
__attribute__((noreturn)) void oom_abort(const char *what, size_t n);

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

#endif
