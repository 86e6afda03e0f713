/*
 * html_markdown.c - libFuzzer target for format/html_markdown.h (website
 * import's HTML-to-markdown step): any bytes as a fetched page must convert
 * without a crash, and the markdown and title must be valid UTF-8 (the rest
 * of docsd stores and serves them as text). `make fuzz` builds it.
 */
#include "format/html_markdown.h"
#include "util/arena.h"
#include "util/text.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	struct html_md md;

	arena_init(&a);
	if (html_to_markdown(&a, (const char *)data, size, "https://example.com/a/b", &md) == 0) {
		if (md.markdown && (strlen(md.markdown) != md.len || utf8_len(md.markdown) < 0))
			abort(); /* invalid UTF-8 (or a NUL) in the markdown */
		if (md.title && utf8_len(md.title) < 0)
			abort();
	}
	arena_free(&a);
	return 0;
}
