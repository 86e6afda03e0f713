/*
 * reviews.h - reviews of change requests and requested reviewers
 * (domain/reviews.c).
 *
 * Access (the actor's effective role on the space):
 *   read    lists reviews and requested reviewers (404 without it)
 *   edit    requests reviewers and removes requests
 *   review  submits a review, unless the actor wrote the change request (403)
 * A review records the change request's head; a new head (a content batch, an
 * update from the space) makes earlier reviews outdated, and so does a newer
 * review by the same reviewer or requesting that reviewer again.
 *
 * The merge rules that read these reviews when a change request is merged
 * are domain/merge_rules.h.
 */
#ifndef DOCSD_DOMAIN_REVIEWS_H
#define DOCSD_DOMAIN_REVIEWS_H

#include <jansson.h>

#include "domain/comments.h"
#include "domain/domain.h"

#define REVIEWERS_MAX 50 /* users in one requestReviewersForChangeRequest */

/* A review with the comment posted with it (comment NULL: none, or deleted since). */
struct dom_review {
	struct cr_review r;
	struct dom_comment *comment;
};

/* comment_markdown, when not NULL, is posted as a comment of the change
 * request (domain/comments.h rules) and shown with the review. */
int dom_review_submit(struct dom *d, const char *space_id, const char *cr_key, const char *status,
		      const char *comment_markdown, struct space *s, struct change_request *cr, struct dom_review *out);
/* outdated: -1 all, 0 current only, 1 outdated only; fmt: of the comments. */
int dom_reviews_list(struct dom *d, const char *space_id, const char *cr_key, int outdated, const struct list_req *lr,
		     enum comment_format fmt, struct dom_review **items, int *n, char **next);

/* Request users (ids) as reviewers; subject, when not NULL, replaces the
 * change request's subject, and description (a JSONDocument; JSON null
 * removes it), when not NULL, its description. *out: the requests as stored, in the order given. */
int dom_reviewers_request(struct dom *d, const char *space_id, const char *cr_key, const char *const *users, int nusers,
			  const char *subject, json_t *description, struct cr_requested_reviewer **out, int *nout);
int dom_reviewers_list(struct dom *d, const char *space_id, const char *cr_key, const struct list_req *lr,
		       struct cr_requested_reviewer **items, int *n, char **next);
/* *removed = false when user_id was not requested. */
int dom_reviewer_remove(struct dom *d, const char *space_id, const char *cr_key, const char *user_id, bool *removed);

#endif
