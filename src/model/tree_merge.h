/*
 * tree_merge.h - three-way merge of revisions (DESIGN.md, "Content model").
 *
 * Every page and file is merged by id against the common base: a side that
 * did not change an entry takes the other side's; both sides changing it
 * merge field by field, and a body changed on both sides is merged by lines
 * (model/merge3.c). What cannot be merged is a conflict, reported per page:
 * changed on one side and deleted on the other, the same field set to
 * different values, the same lines edited, a page whose parent the other side
 * deleted, a move that makes a cycle, two siblings with one slug. A merge
 * with conflicts produces nothing: the caller changes nothing.
 *
 * The merge is pure: it reads no storage and writes none. The caller asks
 * tree_merge_needs() which page bodies it will read (the bodies of pages
 * changed on both sides), loads them, and passes them to tree_merge(). The
 * bodies the merge makes (lines of both sides) come back as text; the caller
 * stores them and sets each page's body hash, and there are none when the
 * merge has conflicts, so a merge that answers conflicts writes nothing.
 */
#ifndef DOCSD_MODEL_TREE_MERGE_H
#define DOCSD_MODEL_TREE_MERGE_H

#include "model/tree_edit.h"

struct merge_conflict {
	const char *page_id; /* or file id when file is set */
	const char *reason;
	bool file;
};

/* A stored page body the merge reads. */
struct merge_body {
	const char *hash;
	const char *markdown;
};

/* A page body the merge made: work.pages[page] (its id is page_id) has body
 * NULL until the caller stores markdown and sets the body to its hash. */
struct merged_body {
	const char *page_id;
	int page;
	const char *markdown;
};

struct tree_merge_result {
	struct tree_work work;              /* the merged tree (clean merges) */
	struct merged_body *bodies;         /* to store; none when there are conflicts */
	int nbodies;
	struct merge_conflict *conflicts;
	int nconflicts;
};

/* The hashes of the bodies tree_merge() will read for this merge, each once
 * (possibly a few more than it reads). Allocates from a. */
int tree_merge_needs(struct arena *a, const struct revision *base, const struct revision *ours,
		     const struct revision *theirs, const char ***hashes, int *n);

/* Merge ours and theirs over base. bodies: the markdown of the hashes
 * tree_merge_needs() listed (any order); a missing one is ERR_INTERNAL.
 * 0 with out filled, clean (out->nconflicts == 0) or with the conflicts
 * listed (and out->nbodies == 0); negative on failure. Allocates from a. */
int tree_merge(struct arena *a, const struct revision *base, const struct revision *ours,
	       const struct revision *theirs, const struct merge_body *bodies, int nbodies, int64_t now,
	       struct tree_merge_result *out);

#endif
