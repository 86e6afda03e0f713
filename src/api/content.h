/*
 * content.h - what the content handlers share (access and the rules are the
 * domain's: domain/domain.h, domain/spaces.h; the model is core/access.c).
 *
 * A content route has no {organizationId}: the object names its organization,
 * so the domain loads the object first, then the caller's standing in that
 * organization (r->dom.actor), once per request (domain/access.c).
 */
#ifndef DOCSD_API_CONTENT_H
#define DOCSD_API_CONTENT_H

#include "api/api.h"
#include "core/revision.h"
#include "domain/spaces.h"

/* Body helpers shared by the content handlers: the shape of each field only;
 * the rules (a parent is a collection of the organization, a position names a
 * sibling, who may put what where) are the domain's (domain/spaces.h). */
/* defaultLevel: "inherit", a role, or null. 1 when present, 0 when absent. */
int body_level(struct req *r, const char *field, int *out);
/* parent (or `field`): a collection id, or null for the top level; 1 when the
 * field is present, 0 when absent (*out = NULL). */
int body_parent(struct req *r, const char *field, const char **out);
/* position {before|after: {type: space|collection, ...}}: *ref = NULL when absent. */
int body_position(struct req *r, const char **ref, int *after);
/* Where a move puts an item: "parent" and/or "position". */
int body_place(struct req *r, struct dom_place *out);

/* Signed URLs served without a token: file bytes and rendered PDFs. */
const char *content_file_url(struct req *r, const char *blob, const char *name);
const char *content_pdf_url(struct req *r, const char *space_id, const char *revision_id, const char *page_id);
/* Check a signature made by the two above over `what`. */
int content_sig_check(struct req *r, const char *what, const char *sig);

/* Applying a batch of content changes (api/content_changes.c) to a working
 * copy; out (may be NULL) lists the pages and files it touched. */
#define CONTENT_MAX_OUTCOMES 64
struct content_change {
	const char *kind; /* created_page | updated_page | deleted_page */
	const char *page_id;
	const char *ref;
};
struct content_outcome {
	struct content_change items[CONTENT_MAX_OUTCOMES];
	int n;
	struct rev_file files[CONTENT_MAX_OUTCOMES];
	int nfiles;
};
struct tree_work;
struct revision_new;
/* refs (may be NULL): a JSON object of extra link refs, name -> "/files/<id>". */
int content_apply_changes(struct req *r, struct tree_work *w, json_t *changes, const struct revision *revert_base,
			  json_t *refs, struct content_outcome *out);
/* Write the working copy as an `edits` revision of space s whose parent is
 * parent (a change request's head, or the space's current revision). */
int content_write_edits(struct req *r, const struct space *s, const struct tree_work *w,
			const struct revision *parent, const struct revision **out);
/* Entries of a working copy as the pages and files of a new revision. */
void content_revision_new(const struct tree_work *w, struct revision_new *nr);

/* Make `now` the space's current revision and bring the search index along. */
int content_space_advance(struct req *r, const struct space *s, const struct revision *now);

#endif
