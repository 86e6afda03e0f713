/*
 * serialize_comments.h - GitBook's Comment and CommentReply objects, and the
 * permissions a caller has on one (the one place both are decided: the
 * domain's checks and the `permissions` object both call comment_permissions).
 *
 * The serializer needs what the comment row does not say: who asks (for the
 * permissions and email visibility), how the body is wanted, and what the
 * target page looks like now. The domain layer (domain/comments.h) gathers
 * that into a comment_view (model/comment_view.h).
 */
#ifndef DOCSD_JSON_SERIALIZE_COMMENTS_H
#define DOCSD_JSON_SERIALIZE_COMMENTS_H

#include "json/jsonw.h"
#include "model/model.h"
#include "model/comment_view.h"
#include "model/roles.h"
#include "util/arena.h"

/* urls.location: <base>/s/<space>[/change-requests/<cr>]/comments/<comment>
 * [/replies/<reply>]. */
void comment_to_json(struct jw *g, const struct comment *c, const struct comment_view *v);
/* A reply (c->parent_id set): no target, status or replies. */
void comment_reply_to_json(struct jw *g, const struct comment *c, const struct comment_view *v);

#endif
