/*
 * merge3.h - three-way merge of text by lines (diff3).
 *
 * Merges a page's markdown changed on two sides (a change request, "ours", and
 * the main content, "theirs") that both derive from a common "base".
 *
 * Lines. A text is cut after each "\n"; a line keeps its terminator, so a last
 * line without "\n" is a line of its own ("b" differs from "b\n") and every
 * text round-trips byte for byte. "\r\n" is kept as part of the line and is not
 * normalised: a line changed only from "\r\n" to "\n" is a change.
 *
 * Diffs. base->ours and base->theirs are computed separately with Myers' O(ND)
 * algorithm in linear space (divide and conquer on the middle snake). Before the
 * search, lines of one text that never occur in the other are marked changed
 * and left out (they cannot be in a common subsequence, so the result is still
 * a longest one), and common prefixes and suffixes are trimmed at every step.
 * When a search exceeds a cost bound (about 4 * sqrt(lines), at least 1024
 * edit steps) the furthest-reaching point is taken as the split instead of the
 * exact middle: the diff stays valid, may be a little longer than minimal, and
 * the time stays near O(lines * bound). Memory is O(lines), all from the arena.
 *
 * Merge. The base lines matched in both diffs at the same relative place form
 * stable runs, copied once; between two stable runs lies an unstable chunk
 * (base part, ours part, theirs part):
 *   - ours part == base part      -> theirs part (only theirs changed it);
 *   - theirs part == base part    -> ours part;
 *   - ours part == theirs part    -> taken once (the same change on both sides);
 *   - otherwise                   -> a conflict.
 * This is diff3's walk, and it decides the edge cases the way git's default
 * merge does: changes on both sides conflict when their base ranges overlap OR
 * TOUCH. Ours editing line 3 and theirs editing line 4 is one conflict; with an
 * unchanged line between them they merge. An insertion on one side directly
 * before or after a line the other side changed or deleted touches it and
 * conflicts. Insertions at the same point merge when identical, else conflict.
 * Each unstable chunk that conflicts counts once in `conflicts`; neighbouring
 * changes fall into one chunk, so one region may cover several edits.
 *
 * Fast paths, checked byte for byte first: ours == base -> theirs;
 * theirs == base -> ours; ours == theirs -> ours.
 */
#ifndef DOCSD_MODEL_MERGE3_H
#define DOCSD_MODEL_MERGE3_H

#include <stddef.h>

#include "util/arena.h"

struct merge3_result {
	char *text;    /* merged text when conflicts == 0; NULL otherwise */
	size_t len;    /* its length; text[len] == '\0' (the text may hold other NULs) */
	int conflicts; /* number of conflicting regions */
};

/*
 * Merge ours and theirs, both derived from base. Inputs need not be
 * NUL-terminated and may be NULL when their length is 0. The merged text and
 * all scratch memory come from the arena and live as long as it. Returns 0 —
 * also when there are conflicts, which `out` reports — or ERR_INTERNAL (with
 * err_set's message) when the texts are too large to index, leaving `out`
 * with text NULL.
 */
int merge3_text(struct arena *a, const char *base, size_t blen, const char *ours, size_t olen,
		const char *theirs, size_t tlen, struct merge3_result *out);

#endif
