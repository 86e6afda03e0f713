/*
 * comments.h - comments and replies on spaces and change requests, their
 * reactions and commenters (store/comments.c). Included by store.h.
 *
 * A thread lives in one place: a space's own content (change_request_id
 * NULL) or one change request of the space. A reply is a row whose parent_id
 * is its comment, in the same place. The counters the API shows are kept here,
 * in the caller's transaction, by the functions that change what they count:
 *   spaces.comments          open comments of the space's own content
 *   change_requests.comments open comments of the change request
 *   comments.replies         replies of a comment
 * Changing spaces.comments bumps the organization's generation (the admins'
 * cached space lists show it).
 */
#ifndef DOCSD_STORE_COMMENTS_H
#define DOCSD_STORE_COMMENTS_H

/* Where comments live: space_id and change_request_id (NULL: the space's own). */
struct comment_place {
	const char *org_id; /* the space's organization (for store_org_bump) */
	const char *space_id;
	const char *change_request_id;
};

/* Insert c (a comment, or a reply when c->parent_id is set) into place: sets
 * id, posted_at, status "open", replies 0; counts it as open (comment) or as
 * a reply of its parent. The caller fills posted_by.id, markdown, revision and
 * the target_* fields. */
int store_comment_create(struct store_tx *tx, const struct comment_place *pl, struct comment *c);

/* A comment (parent_id NULL) or a reply of parent_id, in place. ERR_NOT_FOUND
 * when there is none there. Reactions are not loaded (store_comment_reactions). */
int store_comment_get(struct store_tx *tx, const struct comment_place *pl, const char *parent_id, const char *id,
		      struct comment *out);

/* New markdown; sets edited_at. */
int store_comment_set_body(struct store_tx *tx, const char *id, const char *markdown);

/* Resolve (by user_id) or reopen a comment, keeping the open counts.
 * *changed = false when it already had that state. */
int store_comment_set_resolved(struct store_tx *tx, const struct comment_place *pl, const char *id, bool resolved,
			       const char *user_id, bool *changed);

/* user_id's reactions: add each of added (kept as is when already there), then
 * remove each of removed (no-op when absent). */
int store_comment_react(struct store_tx *tx, const char *id, const char *user_id, const char *const *added,
			int nadded, const char *const *removed, int nremoved);

/* Delete a comment with its replies, or a reply (parent_id set), keeping the
 * counts. *removed = false when it was not there. */
int store_comment_delete(struct store_tx *tx, const struct comment_place *pl, const char *parent_id, const char *id,
			 bool *removed);

/* Fill items[i].reactions for n comments (or replies) of one space, with one
 * query. */
int store_comment_reactions(struct store_tx *tx, struct comment *items, int n);

struct comment_filter {
	const char *status;            /* open | resolved, or NULL for both */
	const char *target_page;       /* page id, or NULL */
	const char *const *authors;    /* user ids; nauthors = 0: anyone */
	int nauthors;
};
/* The comments of a place, by postedAt (lr->desc: newest first). */
int store_comments_list(struct store_tx *tx, const struct comment_place *pl, const struct comment_filter *f,
			const struct list_req *lr, struct comment **items, int *n, char **next);
/* The replies of a comment, oldest first. */
int store_replies_list(struct store_tx *tx, const char *parent_id, const struct list_req *lr, struct comment **items,
		       int *n, char **next);
/* Members of the organization who posted a comment or reply in place, in the
 * order of their first post. */
int store_commenters_list(struct store_tx *tx, const struct comment_place *pl, const struct list_req *lr,
			  struct member **items, int *n, char **next);

#endif
