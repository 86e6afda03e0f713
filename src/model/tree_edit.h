/*
 * tree_edit.h - editing a page tree: the working copy a batch of content
 * changes (or a merge) is applied to before it becomes a new revision.
 *
 * Entries are copied from the base revision (their strings stay owned by it
 * or by the arena); order among siblings is a gapped integer position, so an
 * insertion changes one entry unless its gap has closed, when the siblings
 * are renumbered. Errors are ERR_INVALID with a message naming the problem.
 */
#ifndef DOCSD_MODEL_TREE_EDIT_H
#define DOCSD_MODEL_TREE_EDIT_H

#include "model/revision.h"

#define TREE_POS_GAP 1024

struct tree_work {
	struct arena *a;
	struct rev_page *pages;
	int n, cap;
	struct rev_file *files;
	int nf, capf;
	int64_t now;
};

int tree_work_init(struct tree_work *w, struct arena *a, const struct revision *base, int64_t now);
int tree_find(const struct tree_work *w, const char *id); /* index or -1 */
bool tree_is_descendant(const struct tree_work *w, const char *id, const char *ancestor);
/* Is slug free among the children of parent (NULL: top level), self aside? */
bool tree_slug_free(const struct tree_work *w, const char *parent, const char *slug, const char *self);
/* A free slug from base: base, base-2, base-3... */
const char *tree_slug_unique(struct tree_work *w, const char *parent, const char *base, const char *self);
/* Position for an item placed at index `at` (-1: the end) among parent's
 * children, self excluded; may renumber the siblings. */
int tree_position(struct tree_work *w, const char *parent, int at, const char *self, int64_t *pos);
/* Add a page (p->id set by the caller); its position comes from `at`. */
int tree_insert(struct tree_work *w, const struct rev_page *p, int at);
/* Remove a page and everything under it. */
int tree_delete(struct tree_work *w, const char *id);
int tree_add_file(struct tree_work *w, const struct rev_file *f);

#endif
