/*
 * alloc.c - allocations that never return NULL (alloc.h).
 */
#include "util/alloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void oom_abort(const char *what, size_t n)
{
	/* No allocation here: stderr is unbuffered. */
	fprintf(stderr, "docsd: out of memory (%zu bytes: %s)\n", n, what);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom_abort("malloc", n);
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);

	if (!p)
		oom_abort("calloc", count && size <= SIZE_MAX / count ? count * size : SIZE_MAX);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		oom_abort("realloc", n);
	return q;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = xmalloc(n);

	memcpy(d, s, n);
	return d;
}
