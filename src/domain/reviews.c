/*
 * reviews.c - reviews and requested reviewers (reviews.h). The merge rules
 * that read the reviews at merge time are domain/merge_rules.c.
 */
#include "domain/reviews.h"
#include "domain/content.h"
#include "util/err.h"
#include "util/util.h"

#include <string.h>

/* The space (actor needs `need`) and one of its change requests; for writes
 * both rows stay locked, space first (as domain/change_requests.c does). */
static int load(struct dom *d, const char *space_id, const char *cr_key, enum role need, bool locked,
		struct space *s, struct change_request *cr)
{
	int rc = locked ? dom_space_get_locked(d, space_id, need, s) : dom_space_get(d, space_id, need, s);

	if (rc || (rc = dom_change_request_get(d, s, cr_key, cr)))
		return rc;
	return locked ? store_cr_get_locked(d->tx, s->id, cr->id, cr) : 0;
}

static int require_open(const struct change_request *cr, const char *what)
{
	if (strcmp(cr->status, "merged") == 0 || strcmp(cr->status, "archived") == 0)
		return err_set(ERR_CONFLICT, "the change request is %s: %s is refused", cr->status, what);
	return 0;
}

/* Load the comment posted with r, if it is still there. */
static int with_comment(struct dom *d, const struct change_request *cr, enum comment_format fmt, struct dom_review *out)
{
	struct comment_at at = { cr->space_id, cr->id };
	int rc;

	out->comment = NULL;
	if (!out->r.comment_id)
		return 0;
	out->comment = arena_alloc(d->arena, sizeof(*out->comment));
	rc = dom_comment_get(d, &at, out->r.comment_id, NULL, fmt, out->comment);
	if (rc == ERR_NOT_FOUND) {
		err_clear();
		out->comment = NULL;
		return 0;
	}
	return rc;
}

int dom_review_submit(struct dom *d, const char *space_id, const char *cr_key, const char *status,
		      const char *comment_markdown, struct space *s, struct change_request *cr, struct dom_review *out)
{
	struct cr_review *rv = &out->r;
	int rc;

	if (!status || (strcmp(status, "approved") != 0 && strcmp(status, "changes-requested") != 0))
		return err_set(ERR_INVALID, "status: must be approved or changes-requested");
	if ((rc = load(d, space_id, cr_key, ROLE_REVIEW, true, s, cr)) || (rc = require_open(cr, "reviewing it")))
		return rc;
	if (!d->actor.user_id)
		return err_set(ERR_INVALID, "a review needs a user as its reviewer");
	if (strcmp(d->actor.user_id, cr->created_by.id) == 0)
		return err_set(ERR_FORBIDDEN, "the author of a change request cannot review it");
	memset(out, 0, sizeof(*out));
	if (comment_markdown) {
		struct comment_at at = { s->id, cr->id };
		struct comment_new in = { .markdown = comment_markdown };
		struct dom_comment c;
		if ((rc = dom_comment_post(d, &at, &in, &c)))
			return rc;
		rv->comment_id = c.c.id;
	}
	rv->reviewer.id = d->actor.user_id;
	rv->status = status;
	rv->revision = cr->revision;
	if ((rc = store_review_create(d->tx, cr->id, rv)) || (rc = store_review_get(d->tx, cr->id, rv->id, rv)))
		return rc;
	return with_comment(d, cr, COMMENT_MARKDOWN, out);
}

int dom_reviews_list(struct dom *d, const char *space_id, const char *cr_key, int outdated, const struct list_req *lr,
		     enum comment_format fmt, struct dom_review **items, int *n, char **next)
{
	struct space s;
	struct change_request cr;
	struct cr_review *rows;
	struct dom_review *out;
	int rc = load(d, space_id, cr_key, ROLE_READ, false, &s, &cr);

	if (rc || (rc = store_reviews_list(d->tx, cr.id, outdated, lr, &rows, n, next)))
		return rc;
	out = arena_alloc(d->arena, sizeof(*out) * (size_t)(*n ? *n : 1));
	for (int i = 0; i < *n; i++) {
		out[i].r = rows[i];
		if ((rc = with_comment(d, &cr, fmt, &out[i])))
			return rc;
	}
	*items = out;
	return 0;
}

/* user_id must be a member of the space's organization who reads the space. */
static int check_reader(struct dom *d, const struct space *s, const char *user_id, int i)
{
	struct dom other;
	struct user u;
	enum role role = ROLE_NONE;
	int rc = store_user_get(d->tx, user_id, &u);

	if (rc && rc != ERR_NOT_FOUND)
		return rc;
	dom_init(&other, d->srv, d->tx, d->arena, user_id);
	if (rc == 0 && (rc = dom_space_role(&other, s, &role)))
		return rc;
	if (role < ROLE_READ)
		return err_set(ERR_INVALID, "users[%d]: '%s' is not a member who can read the space", i, user_id);
	return 0;
}

int dom_reviewers_request(struct dom *d, const char *space_id, const char *cr_key, const char *const *users, int nusers,
			  const char *subject, json_t *description, struct cr_requested_reviewer **out, int *nout)
{
	struct space s;
	struct change_request cr;
	struct cr_requested_reviewer *items;
	const char *descr = NULL;
	int rc;

	*out = NULL;
	*nout = 0;
	if (nusers < 1 || nusers > REVIEWERS_MAX)
		return err_set(ERR_INVALID, "users: must name 1 to %d users", REVIEWERS_MAX);
	if ((rc = load(d, space_id, cr_key, ROLE_EDIT, true, &s, &cr)) || (rc = require_open(&cr, "requesting reviews")))
		return rc;
	if (!d->actor.user_id)
		return err_set(ERR_INVALID, "a review request needs a user as its sender");
	for (int i = 0; i < nusers; i++) {
		if (strcmp(users[i], cr.created_by.id) == 0)
			return err_set(ERR_INVALID, "users[%d]: the author cannot review their own change request", i);
		if ((rc = check_reader(d, &s, users[i], i)))
			return rc;
	}
	if (description && !json_is_null(description) && (rc = dom_cr_description_text(d, description, &descr)))
		return rc;
	/* The request may also set the subject and the description (GitBook's body). */
	if ((subject && strcmp(subject, cr.subject) != 0) || description) {
		const char *old_status = cr.status, *old_revision = cr.revision;

		if (subject)
			cr.subject = subject;
		if (description)
			cr.description = descr; /* NULL for JSON null: removed */
		if ((rc = store_cr_update(d->tx, &cr, old_status, old_revision)))
			return rc;
	}
	items = arena_alloc(d->arena, sizeof(*items) * (size_t)nusers);
	for (int i = 0; i < nusers; i++) {
		bool dup = false;
		for (int j = 0; j < i; j++)
			dup |= strcmp(users[i], users[j]) == 0;
		if (dup)
			continue;
		if ((rc = store_reviewer_request(d->tx, cr.id, users[i], d->actor.user_id, cr.revision)) ||
		    (rc = store_reviewer_get(d->tx, cr.id, users[i], &items[*nout])))
			return rc;
		(*nout)++;
	}
	*out = items;
	return 0;
}

int dom_reviewers_list(struct dom *d, const char *space_id, const char *cr_key, const struct list_req *lr,
		       struct cr_requested_reviewer **items, int *n, char **next)
{
	struct space s;
	struct change_request cr;
	int rc = load(d, space_id, cr_key, ROLE_READ, false, &s, &cr);

	return rc ? rc : store_reviewers_list(d->tx, cr.id, lr, items, n, next);
}

int dom_reviewer_remove(struct dom *d, const char *space_id, const char *cr_key, const char *user_id, bool *removed)
{
	struct space s;
	struct change_request cr;
	int rc = load(d, space_id, cr_key, ROLE_EDIT, true, &s, &cr);

	*removed = false;
	return rc ? rc : store_reviewer_remove(d->tx, cr.id, user_id, removed);
}
