/*
 * serialize_comments.c - Comment and CommentReply (serialize_comments.h).
 */
#include "json/serialize_comments.h"

#include "format/markdown.h"
#include "json/serialize.h"

#include <string.h>

/* A URL of docsd's own ids under the public URL: nothing to escape (jw_kurl). */
static void put(struct jw *g, const char *s)
{
	jw_put(g, s, strlen(s));
}

static void location(struct jw *g, const struct comment *c, const char *base)
{
	jw_key(g, "urls");
	jw_obj_open(g);
	jw_key(g, "location");
	jw_put(g, "\"", 1);
	put(g, base);
	put(g, "/s/");
	put(g, c->space_id);
	if (c->change_request_id) {
		put(g, "/change-requests/");
		put(g, c->change_request_id);
	}
	put(g, "/comments/");
	put(g, c->parent_id ? c->parent_id : c->id);
	if (c->parent_id) {
		put(g, "/replies/");
		put(g, c->id);
	}
	jw_put(g, "\"", 1);
	g->comma = true;
	jw_obj_close(g);
}

static void body(struct jw *g, const struct comment *c, enum comment_format format)
{
	jw_key(g, "body");
	jw_obj_open(g);
	if (format == COMMENT_DOCUMENT) {
		jw_key(g, "document");
		if (md_to_document(g, c->markdown, strlen(c->markdown)))
			g->oom = true;
	} else {
		jw_kstr(g, "markdown", c->markdown);
	}
	jw_obj_close(g);
}

/* EmojiReactions: one item per emoji, in the order each was first used. */
static void reactions(struct jw *g, const struct comment *c, const struct comment_view *v)
{
	jw_key(g, "reactions");
	jw_arr_open(g);
	for (int i = 0; i < c->nreactions; i++) {
		const char *emoji = c->reactions[i].emoji;
		int seen = 0, count = 0;
		for (int j = 0; j < i && !seen; j++)
			seen = strcmp(c->reactions[j].emoji, emoji) == 0;
		if (seen)
			continue;
		for (int j = i; j < c->nreactions; j++)
			count += strcmp(c->reactions[j].emoji, emoji) == 0;
		jw_obj_open(g);
		jw_kstr(g, "emoji", emoji);
		jw_kint(g, "count", count);
		jw_key(g, "users");
		jw_arr_open(g);
		for (int j = i; j < c->nreactions; j++) {
			if (strcmp(c->reactions[j].emoji, emoji) != 0)
				continue;
			jw_obj_open(g);
			jw_key(g, "user");
			user_to_json(g, v->base, &c->reactions[j].user, v->with_email);
			jw_kts(g, "reactedAt", c->reactions[j].reacted_at);
			jw_obj_close(g);
		}
		jw_arr_close(g);
		jw_obj_close(g);
	}
	jw_arr_close(g);
}

static void permissions(struct jw *g, const struct comment_permissions *p)
{
	jw_key(g, "permissions");
	jw_obj_open(g);
	jw_kbool(g, "view", p->view);
	jw_kbool(g, "edit", p->edit);
	jw_kbool(g, "reply", p->reply);
	jw_kbool(g, "delete", p->del);
	jw_obj_close(g);
}

/* The fields a comment and a reply share, in GitBook's order. */
static void common(struct jw *g, const struct comment *c, const struct comment_view *v)
{
	jw_kstr(g, "id", c->id);
	jw_key(g, "postedBy");
	user_to_json(g, v->base, &c->posted_by, v->with_email);
	jw_kts(g, "postedAt", c->posted_at);
	if (c->edited_at)
		jw_kts(g, "editedAt", c->edited_at);
	reactions(g, c, v);
}

static void page(struct jw *g, const struct comment_page *p)
{
	jw_key(g, "page");
	jw_obj_open(g);
	jw_kstr(g, "id", p->id);
	jw_kstr(g, "title", p->title);
	jw_kstr_opt(g, "emoji", p->emoji);
	jw_kstr_opt(g, "icon", p->icon);
	if (p->created_at)
		jw_kts(g, "createdAt", p->created_at);
	if (p->updated_at)
		jw_kts(g, "updatedAt", p->updated_at);
	jw_kstr(g, "path", p->path);
	jw_kbool(g, "outdated", p->outdated);
	jw_obj_close(g);
}

static void target(struct jw *g, const struct comment *c, const struct comment_view *v)
{
	jw_key(g, "target");
	jw_obj_open(g);
	if (c->target_node) {
		jw_key(g, "node");
		jw_obj_open(g);
		jw_kstr(g, "id", c->target_node);
		jw_kstr_opt(g, "preview", c->target_preview);
		jw_obj_close(g);
	}
	if (c->target_table_cell) {
		jw_key(g, "tableCell");
		jw_raw(g, c->target_table_cell);
	}
	jw_kstr_opt(g, "changeRequest", c->change_request_id);
	jw_kstr_opt(g, "review", c->target_review);
	if (v->page)
		page(g, v->page);
	jw_kstr(g, "space", c->space_id);
	jw_kstr(g, "revision", c->revision);
	jw_obj_close(g);
}

void comment_to_json(struct jw *g, const struct comment *c, const struct comment_view *v)
{
	bool resolved = strcmp(c->status, "resolved") == 0;

	jw_obj_open(g);
	jw_kstr(g, "object", "comment");
	common(g, c, v);
	jw_kint(g, "replies", c->replies);
	body(g, c, v->format);
	target(g, c, v);
	location(g, c, v->base);
	permissions(g, &v->perms);
	jw_kstr(g, "status", resolved ? "resolved" : "open");
	if (resolved) {
		jw_kts(g, "resolvedAt", c->resolved_at);
		jw_key(g, "resolvedBy");
		user_to_json(g, v->base, &c->resolved_by, v->with_email);
	}
	jw_obj_close(g);
}

void comment_reply_to_json(struct jw *g, const struct comment *c, const struct comment_view *v)
{
	jw_obj_open(g);
	jw_kstr(g, "object", "comment-reply");
	common(g, c, v);
	body(g, c, v->format);
	location(g, c, v->base);
	permissions(g, &v->perms);
	jw_obj_close(g);
}
