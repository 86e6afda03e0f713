/*
 * comments.h - the comment and search operations of the domain layer:
 * comments, replies and commenters of a space's own content or of one of its
 * change requests (domain/comments.c), and full-text search over spaces'
 * current content (domain/search.c).
 *
 * Like every domain function (domain/domain.h) these take a `struct dom`,
 * check the actor's access once per operation, apply the rules and return
 * plain structs from d->arena: the caller serializes them
 * (json/serialize_comments.h, json/serialize_search.h).
 *
 * Access (the actor's effective role on the space, GitBook's roles):
 *   read     lists and reads comments, replies and commenters; searches
 *   comment  posts comments and replies, resolves and reopens, reacts
 *   the author alone edits a body (with the comment role);
 *   the author or someone with create on the space deletes.
 * 404 when the actor does not read the space, 403 when the role is too low.
 * A deleted space's comments can be read, not changed (409 until restored).
 *
 * State of a comment (replies have none):
 *   open --resolved=1--> resolved (resolvedAt, resolvedBy set)
 *   resolved --resolved=0--> open (both cleared)
 * Space.comments / ChangeRequest.comments count the open comments of the
 * place; store/comments.c keeps them in the operation's transaction.
 */
#ifndef DOCSD_DOMAIN_COMMENTS_H
#define DOCSD_DOMAIN_COMMENTS_H

#include "model/comment_view.h"
#include "domain/domain.h"

#define COMMENT_MARKDOWN_MAX 10000 /* characters of a comment's body */
#define COMMENT_EMOJI_MAX 50       /* characters of a reaction (GitBook's Emoji) */
#define COMMENT_REACTIONS_MAX 50   /* emojis in one change's added / removed reactions */
#define COMMENT_TARGET_MAX 256     /* characters of a node, page or table cell id */

/* Where comments live, as a route names it: a space's own content, or one of
 * its change requests by id or number. */
struct comment_at {
	const char *space_id;
	const char *cr_key; /* NULL: the space's own content */
};

/* A comment or reply with what its serializer needs besides the row: the
 * actor's permissions on it, the target page as the place shows it, the
 * public URL and whether the actor sees emails. */
struct dom_comment {
	struct comment c;
	struct comment_view view;
};

/* A new comment. The field names in error messages are GitBook's. */
struct comment_new {
	const char *markdown;        /* body.markdown: 1..COMMENT_MARKDOWN_MAX characters, not blank */
	const char *node;            /* NULL: no node target */
	const char *page;            /* a page of the place's current content, NULL: none */
	const char *cell_record;     /* tableCell {record, definition}: both or neither */
	const char *cell_definition;
};

/* What a PUT on a comment or reply changes; every part is optional. */
struct comment_edit {
	const char *markdown;        /* new body (its author's only), NULL: unchanged */
	int resolved;                /* 1 resolve, 0 reopen, -1 unchanged */
	const char *const *added;    /* emojis the actor adds, nadded of them */
	int nadded;
	const char *const *removed;  /* emojis the actor takes back */
	int nremoved;
};

/* ---- comments (domain/comments.c) ---- */

/* The comments of a place, by postedAt (lr->desc: newest first), filtered by f. */
int dom_comments_list(struct dom *d, const struct comment_at *at, const struct comment_filter *f,
		      const struct list_req *lr, enum comment_format fmt, struct dom_comment **items, int *n,
		      char **next);
/* The replies of comment_id, oldest first. */
int dom_replies_list(struct dom *d, const struct comment_at *at, const char *comment_id, const struct list_req *lr,
		     enum comment_format fmt, struct dom_comment **items, int *n, char **next);
/* A comment (reply_id NULL) or one of its replies. */
int dom_comment_get(struct dom *d, const struct comment_at *at, const char *comment_id, const char *reply_id,
		    enum comment_format fmt, struct dom_comment *out);

/* Post a comment on the place's current content (the space's revision or the
 * change request's head); the actor is its author. */
int dom_comment_post(struct dom *d, const struct comment_at *at, const struct comment_new *in, struct dom_comment *out);
/* Reply to comment_id (its revision is the reply's). */
int dom_reply_post(struct dom *d, const struct comment_at *at, const char *comment_id, const char *markdown,
		   struct dom_comment *out);

/* Change a comment (reply_id NULL) or a reply; out is it afterwards. A reply
 * has no state: `resolved` on a space's reply is ERR_INVALID, on a change
 * request's reply (whose operation's schema lists it) it has no effect. */
int dom_comment_update(struct dom *d, const struct comment_at *at, const char *comment_id, const char *reply_id,
		       const struct comment_edit *e, struct dom_comment *out);
/* Delete a comment with its replies (reply_id NULL), or a reply. Deleting
 * what is not there (a reply whose comment went) succeeds; *removed (may be
 * NULL) says whether something went. */
int dom_comment_delete(struct dom *d, const struct comment_at *at, const char *comment_id, const char *reply_id,
		       bool *removed);

/* Members of the organization who posted in the place, by their first post. */
int dom_commenters_list(struct dom *d, const struct comment_at *at, const struct list_req *lr,
			struct member **items, int *n, char **next);

/* ---- search (domain/search.c) ---- */

/* In both, query is the user's text: 1..SEARCH_QUERY_MAX bytes, not only
 * white space (else ERR_INVALID naming `query`), checked after access. */

/* The pages of a space the actor reads, best first. */
int dom_search_space(struct dom *d, const char *space_id, const char *query, const struct list_req *lr,
		     struct search_page **items, int *n, char **next);
/* The spaces of an organization the actor reads (any member, guests included;
 * 404 for others), by their best page, each with its best pages. */
int dom_search_org(struct dom *d, const char *org_id, const char *query, const struct list_req *lr,
		   struct search_space **items, int *n, char **next);

#endif
