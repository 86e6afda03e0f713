/*
 * tree_merge.h - three-way merge of revisions (DESIGN.md, "Content model").
 *
 * Every page and file is merged by id against the common base: a side that
 * did not change an entry takes the other side's; both sides changing it
 * merge field by field, and a body changed on both sides is merged by lines
 * (core/merge3.c). What cannot be merged is a conflict, reported per page:
 * changed on one side and deleted on the other, the same field set to
 * different values, the same lines edited, a page whose parent the other side
 * deleted, a move that makes a cycle, two siblings with one slug. A merge
 * with conflicts produces nothing: the caller changes nothing.
 */
#ifndef DOCSD_CORE_TREE_MERGE_H
#define DOCSD_CORE_TREE_MERGE_H

#include "core/tree_edit.h"

struct merge_conflict {
	const char *page_id; /* or file id when file is set */
	const char *reason;
	bool file;
};

struct tree_merge_io {
	int (*body_get)(void *ctx, const char *hash, const char **markdown);
	int (*body_put)(void *ctx, const char *markdown, const char **hash);
	void *ctx;
};

/* 0 with out filled when clean (*nconflicts == 0) or with conflicts listed
 * (*nconflicts > 0); negative on failure. Allocates from a. */
int tree_merge(struct arena *a, const struct revision *base, const struct revision *ours,
	       const struct revision *theirs, const struct tree_merge_io *io, int64_t now, struct tree_work *out,
	       struct merge_conflict **conflicts, int *nconflicts);

#endif
