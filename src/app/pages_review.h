/*
 * pages_review.h - reviewing a change request in the web interface (issue
 * 25, "Review"): the sections page_cr (pages_cr.c) adds to a change
 * request's page, and the forms they post.
 *
 * Sections (review_sections): the markdown differences of its edited,
 * added and deleted pages (inline, by lines), merge and update-from-space
 * buttons with the merge rules' verdict, reviews and requested reviewers
 * with the forms to approve, request changes and request a reviewer, the
 * comments (newest first, 20 at a time: ?page=, app_pager) with their first
 * 3 replies and the forms to comment, reply, resolve and reopen. Every part
 * is bounded (pages_review.c's REVIEW_* limits: a few MB at most); what is
 * cut says so and links to where it is whole. Controls the member's role
 * does not allow are not shown
 * (space_permissions / comment_permissions, as the API's serializers); the
 * domain decides either way.
 *
 * A comment's own page (GET .../~/changes/{number}/~/comments/{id},
 * page_review_comment_view): the comment whole, its replies 20 at a time,
 * its forms; ?edit={id} puts that comment's or reply's body in its edit
 * form instead of showing it (the Edit links lead there: one copy of a body
 * on any page).
 *
 * Forms (POST, APP_WRITE: CSRF checked, one write transaction, one domain
 * function, then 303 back to the change request's page, or to the
 * comment's page for a form there, which carries back=comment):
 *   .../~/changes/{number}/~/comment                   dom_comment_post
 *   .../~/changes/{number}/~/comments/{id}/reply       dom_reply_post
 *   .../~/changes/{number}/~/comments/{id}/resolve     dom_comment_update
 *   .../~/changes/{number}/~/comments/{id}/react       dom_comment_update
 *   .../~/changes/{number}/~/comments/{id}/edit        dom_comment_update (the body)
 *   .../~/changes/{number}/~/comments/{id}/delete      dom_comment_delete
 *   .../~/changes/{number}/~/comments/{id}/replies/{replyId}/edit, /delete  the same, on a reply
 *   .../~/changes/{number}/~/reviewers                 dom_reviewers_request
 *   .../~/changes/{number}/~/reviewers/{id}/remove     dom_reviewer_remove
 *   .../~/changes/{number}/~/review                    dom_review_submit
 *   .../~/changes/{number}/~/merge                     dom_cr_merge
 *   .../~/changes/{number}/~/update                    dom_cr_update_from_space
 * A merge or update that reports conflicts writes nothing: its answer is a
 * 409 page listing each conflicting page with both sides' markdown.
 *
 * Comments on a line: each line of an added or edited page's difference
 * has its number in a gutter, a link to the page itself with
 * ?on={pageId}&line={N}#lc, which shows the comment form under that line
 * (no script, one form on the page). GitBook's comment target has no line,
 * so the comment targets the page and its body starts with the line quoted
 * ("> Line N: ..."); the page shows such comments beside line N.
 */
#ifndef DOCSD_APP_PAGES_REVIEW_H
#define DOCSD_APP_PAGES_REVIEW_H

#include "app/pages.h"

struct space;
struct change_request;
struct cr_changes;

/* Write the review sections of cr's page into p->out (inside the frame). */
int review_sections(struct app_page *p, const struct space *s, const struct change_request *cr,
		    const struct cr_changes *ch);

int page_review_comment(struct app_page *p);
int page_review_reply(struct app_page *p);
int page_review_resolve(struct app_page *p);
int page_review_react(struct app_page *p);
int page_review_comment_edit(struct app_page *p);   /* a comment's or a reply's (replyId) body */
int page_review_comment_delete(struct app_page *p); /* a comment with its replies, or a reply */
/* GET .../~/changes/{number}/~/comments/{commentId}: a comment, its replies (paged), its forms. */
int page_review_comment_view(struct app_page *p);
int page_review_reviewers(struct app_page *p);
int page_review_reviewer_remove(struct app_page *p);
int page_review_submit(struct app_page *p);
int page_review_merge(struct app_page *p);
int page_review_update(struct app_page *p);

#endif
