/*
 * comment_view.h - what a comment's answer needs besides its row: the
 * caller's permissions on it (the one place they are decided: the domain's
 * checks and the serializer's `permissions` object both call
 * comment_permissions), the target page as it is now, and how the body is
 * wanted. The domain (domain/comments.h) fills a comment_view; the serializer
 * (json/serialize_comments.h) writes it. It lives in model/ so that the domain
 * does not include a serializer's header (scripts/check-layers.sh).
 */
#ifndef DOCSD_MODEL_COMMENT_VIEW_H
#define DOCSD_MODEL_COMMENT_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "model/roles.h"

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

#endif
