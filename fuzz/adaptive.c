/*
 * adaptive.c - libFuzzer target for model/adaptive_content.c: any bytes as a
 * page's markdown (the first byte picks the visitor: anonymous, or one with
 * claims) are decided without a crash; adapt_check and adapt_present read
 * them too; and a text adapt_present finds nothing in comes back unchanged
 * (callers skip adapt_markdown for such pages, so the two must agree).
 * `make fuzz` builds it.
 */
#include "model/adaptive.h"
#include "util/arena.h"

#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
	arena_free(&a);
	json_decref(v);
	return 0;
}
