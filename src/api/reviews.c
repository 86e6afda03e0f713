/*
 * reviews.c - reviews of change requests and requested reviewers: parse,
 * call the domain (domain/reviews.h), serialize.
 */
#include "api/api.h"
#include "json/serialize_cr.h"
#include "domain/reviews.h"

#include <string.h>

static const char *space_id(struct req *r)
{
	return req_param(r, "spaceId");
}

static const char *cr_key(struct req *r)
{
	return req_param(r, "changeRequestId");
}

static void send_review(struct req *r, struct jw *g, const struct dom_review *rv)
{
	cr_review_to_json(g, api_base(r), &rv->r, api_sees_emails(r), rv->comment ? &rv->comment->c : NULL,
			  rv->comment ? &rv->comment->view : NULL);
}

/* comment: GitBook's Document, of which docsd takes {markdown} (as for comments). */
static int body_comment(struct req *r, const char **out)
{
	json_t *v = body_field(r, "comment"), *md;

	*out = NULL;
	if (!v || json_is_null(v))
		return 0;
	md = json_is_object(v) ? json_object_get(v, "markdown") : NULL;
	if (!json_is_string(md) || strlen(json_string_value(md)) != json_string_length(md))
		return err_set(ERR_INVALID, "comment: only markdown is supported ({markdown: string})");
	*out = json_string_value(md);
	return 1;
}

int api_review_list(struct req *r)
{
	static const char *const bools[] = { "false", "true", NULL };
	static const char *const formats[] = { "markdown", "document", NULL };
	struct list_req lr;
	int64_t total;
	struct cursor cur;
	struct dom_review *items;
	int n, rc, outdated, format;
	char *next;
	struct jw *g;

	if ((rc = req_list_total(r, &lr, &cur, NULL, 0, &total)) || (rc = req_query_enum(r, "outdated", bools, &outdated)) ||
	    (rc = req_query_enum(r, "format", formats, &format)) ||
	    (rc = dom_reviews_list(&r->dom, space_id(r), cr_key(r), outdated, &lr,
				   format == 1 ? COMMENT_DOCUMENT : COMMENT_MARKDOWN, &items, &n, &next)))
		return rc;
	g = resp_list_begin(r);
	for (int i = 0; i < n; i++)
		send_review(r, g, &items[i]);
	return resp_list_end(r, total, next);
}

int api_review_submit(struct req *r)
{
	struct space s;
	struct change_request cr;
	struct dom_review rv;
	const char *status = NULL, *comment = NULL;
	struct jw *g;
	int rc;

	if ((rc = body_string(r, "status", F_REQUIRED, 1, 32, &status)) < 0 || (rc = body_comment(r, &comment)) < 0 ||
	    (rc = dom_review_submit(&r->dom, space_id(r), cr_key(r), status, comment, &s, &cr, &rv)))
		return rc;
	resp_header(r, "Location",
		    arena_printf(&r->arena, "%s/v1/spaces/%s/change-requests/%s/reviews", api_base(r), s.id, cr.id));
	g = resp_json(r, 201);
	send_review(r, g, &rv);
	return 0;
}

int api_reviewer_list(struct req *r)
{
	struct list_req lr;
	int64_t total;
	struct cursor cur;
	struct cr_requested_reviewer *items;
	int n, rc;
	char *next;
	struct jw *g;

	if ((rc = req_list_total(r, &lr, &cur, NULL, 0, &total)) ||
	    (rc = dom_reviewers_list(&r->dom, space_id(r), cr_key(r), &lr, &items, &n, &next)))
		return rc;
	g = resp_list_begin(r);
	for (int i = 0; i < n; i++)
		cr_requested_reviewer_to_json(g, api_base(r), &items[i], api_sees_emails(r));
	return resp_list_end(r, total, next);
}

int api_reviewer_request(struct req *r)
{
	const char **users = NULL, *subject = NULL;
	struct cr_requested_reviewer *items;
	int n = 0, nout, rc;
	struct jw *g;

	if ((rc = body_string_array(r, "users", F_REQUIRED, REVIEWERS_MAX, 100, &users, &n)) < 0 ||
	    (rc = body_string(r, "subject", 0, 0, 100, &subject)) < 0 ||
	    (rc = dom_reviewers_request(&r->dom, space_id(r), cr_key(r), users, n, subject,
					body_field(r, "description"), &items, &nout)))
		return rc;
	g = resp_json(r, 200);
	cr_requested_reviewers_to_json(g, api_base(r), items, nout, api_sees_emails(r));
	return 0;
}

int api_reviewer_remove(struct req *r)
{
	bool removed;
	int rc = dom_reviewer_remove(&r->dom, space_id(r), cr_key(r), req_param(r, "userId"), &removed);

	/* GitBook: 205 when removed, 204 when the user was not requested. */
	return rc ? rc : resp_empty(r, removed ? 205 : 204);
}
