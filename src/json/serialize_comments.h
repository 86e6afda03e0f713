/*
 * serialize_comments.h - GitBook's Comment and CommentReply objects, and the
 * permissions a caller has on one (the one place both are decided: the
 * domain's checks and the `permissions` object both call comment_permissions).
 *
 * The serializer needs what the comment row does not say: who asks (for the
 * permissions and email visibility), how the body is wanted, and what the
 * target page looks like now. The domain layer (domain/comments.h) gathers
 * that into a comment_view.
 */
#ifndef DOCSD_JSON_SERIALIZE_COMMENTS_H
#define DOCSD_JSON_SERIALIZE_COMMENTS_H

#include "json/jsonw.h"
#include "model/model.h"
#include "model/roles.h"
#include "util/arena.h"

struct comment_permissions {
	bool view, edit, reply, del;
};

/* role: the caller's effective role on the space; author: the caller posted it.
 * Viewing needs read; replying and reacting comment; editing the body is the
 * author's (with comment); deleting the author's or, for anyone's, the create
 * role's (GitBook's content-level admin). */
void comment_permissions(struct comment_permissions *out, enum role role, bool author);

/* target.page: the page as the revision that has it shows it. */
struct comment_page {
	const char *id;
	const char *title;
	const char *emoji; /* NULL when unset */
	const char *icon;  /* NULL when unset */
	const char *path;
	int64_t created_at; /* 0: not shown */
	int64_t updated_at;
	bool outdated;      /* no longer in the place's current content */
};

enum comment_format {
	COMMENT_MARKDOWN, /* body {markdown} */
	COMMENT_DOCUMENT, /* body {document}: GitBook's JSON document (format/markdown.h) */
};

struct comment_view {
	const char *base;                 /* public URL, no trailing slash */
	bool with_email;                  /* users' emails are shown */
	enum comment_format format;
	struct comment_permissions perms;
	const struct comment_page *page;  /* target.page; NULL when the comment has none */
};

/* What a comment's target.tableCell is stored as: {"record":..,"definition":..}
 * compact, in a. NULL only past the JSON writer's SIZE_MAX / 2 bytes. */
const char *comment_table_cell_json(struct arena *a, const char *record, const char *definition);

/* urls.location: <base>/s/<space>[/change-requests/<cr>]/comments/<comment>
 * [/replies/<reply>]. */
void comment_to_json(struct jw *g, const struct comment *c, const struct comment_view *v);
/* A reply (c->parent_id set): no target, status or replies. */
void comment_reply_to_json(struct jw *g, const struct comment *c, const struct comment_view *v);

#endif
