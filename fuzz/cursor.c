/*
 * cursor.c - libFuzzer target for the cursor codec (model/cursor.h): any
 * bytes as a ?page= cursor are decoded (a refusal is ERR_INVALID); the same
 * bytes, cut in two, as a sort key (any text) and an item id are encoded,
 * and decoding the cursor gives them back.
 * `make fuzz` builds it.
 */
#include "model/cursor.h"
#include "util/arena.h"
#include "util/err.h"
#include "util/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	struct cursor c;
	char *s, *key, *id, *enc;
	int64_t k;
	size_t cut;
	int rc;

	if (size > 8 * 1024)
		return 0;
	arena_init(&a);
	s = arena_strndup(&a, (const char *)data, size);
	rc = cursor_decode(&a, s, &c);
	if (rc == 0) {
		if (!c.key || !c.id)
			abort();
		(void)cursor_key_int(&c, &k);
	} else if (rc != ERR_INVALID) {
		abort();
	}
	/* Round trip: key = the bytes before the last '|' (or the first half:
	 * any text, line breaks included - a sort key may be a title), id = the
	 * rest. */
	cut = strrchr(s, '|') ? (size_t)(strrchr(s, '|') - s) : strlen(s) / 2;
	key = arena_strndup(&a, s, cut);
	id = arena_strdup(&a, s + cut + (s[cut] == '|'));
	/* Cursors carry item ids: decode refuses an id that is not one. */
	enc = id_valid(id) ? cursor_encode(&a, key, id) : NULL;
	if (enc) {
		if (cursor_decode(&a, enc, &c) != 0 || strcmp(c.key, key) != 0 || strcmp(c.id, id) != 0)
			abort();
	}
	k = 0;
	for (size_t i = 0; i < size && i < 8; i++)
		k = (int64_t)((uint64_t)k << 8 | data[i]);
	enc = id_valid(id) ? cursor_encode_int(&a, k, id) : NULL;
	if (enc) {
		int64_t back;
		if (cursor_decode(&a, enc, &c) != 0 || cursor_key_int(&c, &back) != 0 || back != k ||
		    strcmp(c.id, id) != 0)
			abort();
	}
	err_clear();
	arena_free(&a);
	return 0;
}
