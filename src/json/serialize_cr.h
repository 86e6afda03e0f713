/*
 * serialize_cr.h - JSON of what content operations answer beyond the objects
 * themselves: a content batch's result, a merge's result, links and content
 * locations. The result structs the domain fills (domain/content.h) live in
 * model/content_results.h; their JSON lives here.
 */
#ifndef DOCSD_JSON_SERIALIZE_CR_H
#define DOCSD_JSON_SERIALIZE_CR_H

#include "json/jsonw.h"
#include "model/content_results.h"
#include "model/merge_rules.h"
#include "json/serialize_comments.h"
#include "model/model.h"
#include "model/revision.h"
#include "json/serialize_content.h"
#include "model/tree_merge.h"

/* updateChangeRequestContent with compat=false: {changeRequest, changes,
 * insertedFiles}, each inserted file with o->file_urls[i]. */
void cr_content_result_to_json(struct jw *g, const char *base, const struct change_request *cr,
			       const char *space_revision, const struct content_outcome *o);

void cr_merge_result_to_json(struct jw *g, const struct cr_merge_result *m);

void cr_changes_to_json(struct jw *g, const struct cr_changes *c);
/* One UserContributor: {user, actionType, count, updatedAt}. */
void cr_contributor_to_json(struct jw *g, const char *base, const struct user *u, const char *action, int64_t count,
			    int64_t updated_at);

/* ---- links ---- */
/* Where content sits, for ContentLocation: the organization and space the
 * revision belongs to, the actor's standing and role, and how to write pages
 * (pages.bodies: the markdown of the pages shown, which the domain loaded). */
struct location_ctx {
	const char *base;
	const struct org *org;
	const struct membership *standing;
	const struct space *space;
	const struct revision *rv;
	struct page_json pages; /* children = 0 */
};
/* A ContentLocation of page p, or of file f (download: its download URL), or
 * of url when p and f are NULL (pages: lc->pages.bodies holds their markdown).
 * 0, or ERR_INTERNAL when memory fails. */
int location_to_json(struct jw *g, const struct location_ctx *lc, const struct rev_page *p,
		      const struct rev_file *f, const char *download, const char *url);
/* One item of a links list: {status, relation, targetReference, locationReferences}. */
int link_to_json(struct jw *g, const struct location_ctx *lc, const struct rev_page *from,
		  const struct link_target *t);
/* Close a links list's items and write the stats beside them (the caller
 * then closes the list: resp_list_end_open). with_cr: add broken.changeRequest. */
void link_stats_to_json(struct jw *g, int total, int broken, bool with_cr);

/* listPages: {pages: the page tree}, document pages with o->bodies' markdown.
 * 0, or ERR_INTERNAL when memory fails. */
int pages_to_json(struct jw *g, const struct revision *rv, const struct page_json *o);

/* getSpacePDF: {url}. */
void url_to_json(struct jw *g, const char *url);

/* ---- reviews (domain/reviews.h) ---- */
/* ChangeRequestReview. */
/* ChangeRequestReview; c and v: the comment posted with it (c NULL: none). */
void cr_review_to_json(struct jw *g, const char *base, const struct cr_review *r, bool with_email,
		       const struct comment *c, const struct comment_view *v);
/* ChangeRequestRequestedReviewer (kind user). */
void cr_requested_reviewer_to_json(struct jw *g, const char *base, const struct cr_requested_reviewer *q,
				   bool with_email);
/* requestReviewersForChangeRequest's answer: {users: [requested reviewer]}. */
void cr_requested_reviewers_to_json(struct jw *g, const char *base, const struct cr_requested_reviewer *items,
				    int n, bool with_email);

#endif
