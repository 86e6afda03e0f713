#include "util/arena.h"
#include "util/alloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct arena_block {
	struct arena_block *next;
	size_t size;
	max_align_t data[];
};

#define ALIGN (sizeof(max_align_t))

void arena_init(struct arena *a)
{
	a->head = NULL;
	a->cur = a->first;
	a->end = a->first + sizeof(a->first);
}

void arena_free(struct arena *a)
{
	struct arena_block *b = a->head, *next;

	while (b) {
		next = b->next;
		free(b);
		b = next;
	}
	arena_init(a);
}

void *arena_alloc(struct arena *a, size_t n)
{
	uintptr_t p = ((uintptr_t)a->cur + ALIGN - 1) & ~(uintptr_t)(ALIGN - 1);
	struct arena_block *b;
	size_t size;

	if (n == 0)
		n = 1;
	if (p <= (uintptr_t)a->end && n <= (size_t)((uintptr_t)a->end - p)) {
		a->cur = (char *)(p + n);
		return (void *)p;
	}
	size = n > 16384 ? n : 16384;
	if (size > SIZE_MAX - sizeof(*b))
		oom_abort("arena", size);
	b = xmalloc(sizeof(*b) + size);
	b->next = a->head;
	b->size = size;
	a->head = b;
	a->cur = (char *)b->data + n;
	a->end = (char *)b->data + size;
	return b->data;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *d = arena_alloc(a, n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

char *arena_strdup(struct arena *a, const char *s)
{
	return s ? arena_strndup(a, s, strlen(s)) : NULL;
}

char *arena_printf(struct arena *a, const char *fmt, ...)
{
	va_list ap;
	int n;
	char *d;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) /* EOVERFLOW: more than INT_MAX bytes */
		oom_abort("arena_printf", SIZE_MAX);
	d = arena_alloc(a, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(d, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return d;
}
