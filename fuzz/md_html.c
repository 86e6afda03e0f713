/*
 * md_html.c - libFuzzer target for the page renderer (site/md_html.c
 * md_to_html_toc): any bytes as a page's markdown are rendered, links
 * rewritten or kept (the first byte decides). The bytes are first made the
 * text a stored page is (valid UTF-8 without NUL: the API reads pages from
 * JSON strings, Git import through lay_utf8_clean, as here), since the
 * renderer copies some of the source (math, tag arguments) as it is.
 *
 * Checked: the HTML is valid UTF-8 with no NUL, holds no script, iframe or
 * javascript: URL written as markup (raw HTML goes through the allowlist),
 * and every heading listed has an anchor and text. `make fuzz` builds it.
 */
#include "format/gitbook_render.h"
#include "json/jsonw.h"
#include "site/site.h"
#include "util/arena.h"
#include "util/text.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *rewrite(void *ctx, const char *target)
{
	(void)ctx;
	return target[0] == '.' ? "/pages/p1" : NULL;
}

/* Whether the markup (outside text, which is escaped) holds needle: tags
 * start with '<', so "<script" can only be markup. */
static int has(const char *html, size_t len, const char *needle)
{
	size_t n = strlen(needle);

	for (size_t i = 0; i + n <= len; i++)
		if (strncasecmp(html + i, needle, n) == 0)
			return 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	struct jw w;
	struct md_headings h;
	const char *md;
	bool changed;

	if (size < 1 || size > 128 * 1024)
		return 0;
	arena_init(&a);
	jw_init(&w);
	memset(&h, 0, sizeof(h));
	md = lay_utf8_clean(&a, data + 1, size - 1, &changed);
	if (md_to_html_toc(&w, &a, md, strlen(md), (data[0] & 1) ? rewrite : NULL, NULL, &h) == 0 &&
	    w.buf) {
		char *html = arena_strndup(&a, w.buf, w.len);
		if (strlen(html) != w.len || utf8_len(html) < 0) {
			fprintf(stderr, "HTML with a NUL or invalid UTF-8: %s\n", html);
			abort();
		}
		if (has(html, w.len, "<script") || has(html, w.len, "<iframe") || has(html, w.len, "href=\"javascript:") ||
		    has(html, w.len, "src=\"javascript:")) {
			fprintf(stderr, "unsafe HTML: %s\n", html);
			abort();
		}
		if (h.n < 0 || h.n > 64)
			abort();
		for (int i = 0; i < h.n; i++)
			if (!h.items[i].id || !h.items[i].text)
				abort();
	}
	jw_free(&w);
	arena_free(&a);
	return 0;
}
