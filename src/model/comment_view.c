/*
 * comment_view.c - the permissions a caller has on a comment (comment_view.h).
 */
#include "model/comment_view.h"

void comment_permissions(struct comment_permissions *out, enum role role, bool author)
{
	out->view = role >= ROLE_READ;
	out->reply = role >= ROLE_COMMENT;
	out->edit = author && role >= ROLE_COMMENT;
	out->del = out->edit || role >= ROLE_CREATE;
}
