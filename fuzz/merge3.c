/*
 * merge3.c - differential libFuzzer target for the three-way merge
 * (model/merge3.h), against the reference property of any merge: a change
 * merged with the unchanged base is that change, on either side. The input
 * is cut at its first 0xFF byte (or in half) into base and change; then
 *     merge3(base, change, base) == change
 *     merge3(base, base, change) == change
 *     merge3(base, change, change) == change   (the same change twice)
 * with no conflict, byte for byte (the texts may hold NULs). The three
 * cut-free texts of a longer input are also merged, which must not crash
 * and, without conflicts, ends with a NUL at len. `make fuzz` builds it.
 */
#include "model/merge3.h"
#include "util/arena.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void same(const struct merge3_result *r, const char *want, size_t n, const char *what)
{
	if (r->conflicts != 0 || !r->text || r->len != n || memcmp(r->text, want, n) != 0 || r->text[n] != '\0') {
		fprintf(stderr, "merge3 %s: conflicts %d, len %zu, want %zu\n", what, r->conflicts, r->len, n);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *cut1, *cut2;
	const char *base, *change;
	size_t bl, cl;
	struct arena a;
	struct merge3_result r;

	if (size > 64 * 1024)
		return 0;
	cut1 = memchr(s, 0xff, size);
	bl = cut1 ? (size_t)(cut1 - s) : size / 2;
	base = s;
	change = s + bl + (cut1 != NULL);
	cl = size - bl - (cut1 != NULL);
	arena_init(&a);
	if (merge3_text(&a, base, bl, change, cl, base, bl, &r) != 0)
		abort();
	same(&r, change, cl, "(base, change, base)");
	if (merge3_text(&a, base, bl, base, bl, change, cl, &r) != 0)
		abort();
	same(&r, change, cl, "(base, base, change)");
	if (merge3_text(&a, base, bl, change, cl, change, cl, &r) != 0)
		abort();
	same(&r, change, cl, "(base, change, change)");
	if (cut1 && (cut2 = memchr(change, 0xff, cl)) != NULL) {
		size_t ol = (size_t)(cut2 - change);
		if (merge3_text(&a, base, bl, change, ol, cut2 + 1, cl - ol - 1, &r) != 0)
			abort();
		if (r.conflicts == 0 && (!r.text || r.text[r.len] != '\0'))
			abort();
	}
	arena_free(&a);
	return 0;
}
