/*
 * cursor.h - the opaque `page` tokens of every list.
 *
 * Lists are keyset-paginated: a cursor carries the sort key and id of the last
 * item returned, and the next page starts strictly after that pair, so page
 * 1,000 costs what page 1 costs. On the wire a cursor is base64url of
 * "c1\n<key>\n<id>"; anything else decodes to ERR_INVALID (a 400).
 */
#ifndef DOCSD_MODEL_CURSOR_H
#define DOCSD_MODEL_CURSOR_H

#include <stdint.h>

#include "util/arena.h"

struct cursor {
	const char *key; /* sort key as text (an integer key in decimal) */
	const char *id;  /* tie-breaker: the item's id */
};

/* Returns an arena string, NULL when key and id are too long for a cursor. */
char *cursor_encode(struct arena *a, const char *key, const char *id);
char *cursor_encode_int(struct arena *a, int64_t key, const char *id);
/* 0, or ERR_INVALID with a message naming `page`. */
int cursor_decode(struct arena *a, const char *page, struct cursor *out);
/* Parse the key as an integer; ERR_INVALID when it is not one. */
int cursor_key_int(const struct cursor *c, int64_t *out);

#endif
