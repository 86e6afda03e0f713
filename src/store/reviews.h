/*
 * reviews.h - reviews of change requests and requested reviewers
 * (store/reviews.c, migration 8). Included by store.h.
 *
 * A review row keeps the head revision it was made against; `outdated` is
 * computed when read: the change request's head is no longer that revision,
 * or the row is superseded (the same reviewer reviewed again, or was
 * requested again, after it). Rows are never rewritten otherwise.
 */
#ifndef DOCSD_STORE_REVIEWS_H
#define DOCSD_STORE_REVIEWS_H

#include "model/merge_rules.h"

/* Insert r (reviewer.id, status, revision, comment_id filled by the caller) on
 * change_request_id: sets id and times, supersedes the reviewer's earlier
 * reviews, and records who requested the reviewer (if anyone did). */
int store_review_create(struct store_tx *tx, const char *change_request_id, struct cr_review *r);
/* One review of a change request; ERR_NOT_FOUND when there is none such. */
int store_review_get(struct store_tx *tx, const char *change_request_id, const char *id, struct cr_review *out);
/* The reviews of a change request, oldest first. outdated: -1 all, 0 current, 1 outdated. */
int store_reviews_list(struct store_tx *tx, const char *change_request_id, int outdated, const struct list_req *lr,
		       struct cr_review **items, int *n, char **next);
/* Every current (not outdated) review of a change request, for merge rules. */
int store_reviews_current(struct store_tx *tx, const char *change_request_id, struct cr_review **items, int *n);

/* Request user_id's review (again): kept once per user, with who asked and
 * the head at the time; the user's earlier reviews become outdated. */
int store_reviewer_request(struct store_tx *tx, const char *change_request_id, const char *user_id,
			   const char *requested_by, const char *revision);
int store_reviewer_get(struct store_tx *tx, const char *change_request_id, const char *user_id,
		       struct cr_requested_reviewer *out);
/* The requested reviewers, in the order they were first requested. */
int store_reviewers_list(struct store_tx *tx, const char *change_request_id, const struct list_req *lr,
			 struct cr_requested_reviewer **items, int *n, char **next);
/* *removed = false when user_id was not requested. */
int store_reviewer_remove(struct store_tx *tx, const char *change_request_id, const char *user_id, bool *removed);

#endif
