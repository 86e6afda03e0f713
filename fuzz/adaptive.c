/*
 * adaptive.c - libFuzzer target for model/adaptive_content.c: any bytes as a
 * page's markdown (the first byte picks the visitor: anonymous, or one with
 * claims) are decided without a crash; adapt_check and adapt_present read
 * them too; and a text adapt_present finds nothing in comes back unchanged
 * (callers skip adapt_markdown for such pages, so the two must agree).
 *
 * Differential part: adaptive content decides what is hidden, the renderer
 * and the readers of markdown show what is left, and the two must agree. A
 * block no visitor passes ({% if visitor.claims.never == true %}) holding a
 * marker is put at the head of the page, before the fuzzed text (so nothing
 * the fuzzer writes can make it code); the marker must then reach none of
 * the page's HTML (md_to_html), its .md twin (md_plain_meaning) or its
 * search text (md_plain_text). `make fuzz` builds it.
 */
#include "format/markdown.h"
#include "json/jsonw.h"
#include "model/adaptive.h"
#include "site/site.h"
#include "util/arena.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MARKER "Qz7hiddenMarkerQz7"

static void no_marker(const char *s, size_t n, const char *where)
{
	if (s && memmem(s, n, MARKER, strlen(MARKER))) {
		fprintf(stderr, "hidden text reached the %s\n", where);
		abort();
	}
}

/* The hidden block at the head of md[0..n), decided for ctx, then what each
 * reader makes of the result. */
static void hidden_stays_hidden(struct arena *a, const char *md, size_t n, const struct adapt_ctx *ctx)
{
	static const char head[] = "{% if visitor.claims.never == true %}\n" MARKER "\n{% endif %}\n\n";
	size_t hl = sizeof(head) - 1, on;
	char *page;
	const char *out;
	struct jw w;

	if (memmem(md, n, "Qz7", 3))
		return; /* the fuzzed text names the marker itself */
	page = arena_alloc(a, hl + n + 1);
	memcpy(page, head, hl);
	memcpy(page + hl, md, n);
	page[hl + n] = '\0';
	out = adapt_markdown(a, page, hl + n, ctx, &on);
	no_marker(out, on, "adapted markdown");
	jw_init(&w);
	if (md_to_html(&w, a, out, on, NULL, NULL) == 0)
		no_marker(w.buf, w.len, "page HTML");
	jw_free(&w);
	out = md_plain_meaning(a, out, on);
	no_marker(out, out ? strlen(out) : 0, ".md twin");
	out = adapt_markdown(a, page, hl + n, ctx, &on);
	out = md_plain_text(a, out, on);
	no_marker(out, out ? strlen(out) : 0, "search text");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	struct adapt_ctx ctx = { 0 };
	json_t *v = NULL;
	const char *md, *out;
	size_t n, on;

	if (size < 1)
		return 0;
	if (data[0] & 1)
		v = json_pack("{s:{s:b,s:s}}", "claims", "pro", 1, "plan", "team");
	ctx.visitor = v;
	md = (const char *)data + 1;
	n = size - 1;
	arena_init(&a);
	out = adapt_markdown(&a, md, n, &ctx, &on);
	if (!out || out[on] != '\0')
		abort();
	if (!adapt_present(md, n) && (on != n || memcmp(out, md, n) != 0))
		abort(); /* changed a text that has nothing adaptive */
	(void)adapt_check("f", md, n);
	hidden_stays_hidden(&a, md, n, &ctx);
	arena_free(&a);
	json_decref(v);
	return 0;
}
