/*
 * change_requests.c - change request handlers: parse, call the domain
 * (domain/change_requests.c, whose header draws the state machine), serialize.
 */
#include "api/content.h"
#include "json/serialize_content.h"
#include "json/serialize_cr.h"
#include "domain/content.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

static const char *const list_statuses[] = { "draft", "open", "archived", "merged", NULL };

static const char *space_id(struct req *r)
{
	return req_param(r, "spaceId");
}

static const char *cr_key(struct req *r)
{
	return req_param(r, "changeRequestId");
}

static int send_cr(struct req *r, int status, const struct change_request *cr, const struct space *s)
{
	struct jw *g = resp_json(r, status);

	change_request_to_json(g, api_base(r), cr, s->revision);
	return 0;
}

int api_cr_create(struct req *r)
{
	struct space s;
	struct change_request cr;
	struct cr_new in = { 0 };
	int rc;

	in.description = body_field(r, "description");
	if ((rc = body_string(r, "subject", F_NULLABLE, 0, 100, &in.subject)) < 0 ||
	    (rc = body_string(r, "agentTaskId", F_NULLABLE, 1, 100, &in.agent_task_id)) < 0 ||
	    (rc = dom_cr_create(&r->dom, space_id(r), &in, &s, &cr)))
		return rc;
	resp_header(r, "Location",
		    arena_printf(&r->arena, "%s/v1/spaces/%s/change-requests/%s", api_base(r), s.id, cr.id));
	return send_cr(r, 201, &cr, &s);
}

/* A user id filter: absent, or not empty. */
static int user_filter(struct req *r, const char *name, const char **out)
{
	*out = req_query(r, name);
	if (*out && !**out)
		return err_set(ERR_INVALID, "%s: must be a user id", name);
	return 0;
}

/* The query of both lists: page, limit, status (default open), creator,
 * contributor. */
static int list_query(struct req *r, struct list_req *lr, struct cursor *cur, struct cr_filter *f, int64_t *total)
{
	int rc, st;

	*f = (struct cr_filter){ .status = "open" };
	if ((rc = req_list_total(r, lr, cur, NULL, 1, total)) || (rc = req_query_enum(r, "status", list_statuses, &st)) ||
	    (rc = user_filter(r, "creator", &f->creator)) || (rc = user_filter(r, "contributor", &f->contributor)))
		return rc;
	if (st >= 0)
		f->status = list_statuses[st];
	return 0;
}

int api_cr_list(struct req *r)
{
	struct space s;
	struct list_req lr;
	struct cursor cur;
	struct cr_filter f;
	struct change_request *items;
	int64_t total;
	int n, rc;
	char *next;
	struct jw *g;

	if ((rc = list_query(r, &lr, &cur, &f, &total)) ||
	    (rc = dom_cr_list(&r->dom, space_id(r), &f, &lr, &s, &items, &n, &next)))
		return rc;
	g = resp_list_begin(r);
	for (int i = 0; i < n; i++)
		change_request_to_json(g, api_base(r), &items[i], s.revision);
	return resp_list_end(r, total, next);
}

int api_cr_get(struct req *r)
{
	struct space s;
	struct change_request cr;
	int rc = dom_cr_get(&r->dom, space_id(r), cr_key(r), &s, &cr);

	return rc ? rc : send_cr(r, 200, &cr, &s);
}

int api_cr_list_org(struct req *r)
{
	struct list_req lr;
	struct cursor cur;
	struct cr_filter f;
	struct cr_in_space *items;
	int64_t total;
	int n, rc;
	char *next;
	struct jw *g;

	if ((rc = list_query(r, &lr, &cur, &f, &total)) ||
	    (rc = dom_cr_list_org(&r->dom, req_param(r, "organizationId"), &f, &lr, &items, &n, &next)))
		return rc;
	g = resp_list_begin(r);
	for (int i = 0; i < n; i++)
		change_request_to_json(g, api_base(r), &items[i].cr, items[i].space.revision);
	return resp_list_end(r, total, next);
}

int api_cr_update(struct req *r)
{
	struct space s;
	struct change_request cr;
	struct cr_edit in = { .description = body_field(r, "description") };
	int rc;

	if ((rc = body_string(r, "subject", 0, 0, 100, &in.subject)) < 0 ||
	    (rc = body_string(r, "status", 0, 1, 32, &in.status)) < 0 ||
	    (rc = dom_cr_update(&r->dom, space_id(r), cr_key(r), &in, &s, &cr)))
		return rc;
	return send_cr(r, 200, &cr, &s);
}

int api_cr_contributors(struct req *r)
{
	struct list_req lr;
	int64_t total;
	struct cursor cur;
	struct cr_contributor *items;
	int n, rc;
	char *next;
	struct jw *g;

	if ((rc = req_list_total(r, &lr, &cur, NULL, 1, &total)) ||
	    (rc = dom_cr_contributors(&r->dom, space_id(r), cr_key(r), &lr, &items, &n, &next)))
		return rc;
	g = resp_list_begin(r);
	for (int i = 0; i < n; i++)
		cr_contributor_to_json(g, api_base(r), &items[i].user, items[i].action, items[i].count,
				       items[i].updated_at);
	return resp_list_end(r, total, next);
}

int api_cr_changes(struct req *r)
{
	struct cr_changes c;
	long limit = 10; /* GitBook's default */
	struct jw *g;
	int rc;

	if ((rc = req_query_int(r, "limit", 1, 1000, &limit)) < 0 ||
	    (rc = dom_cr_changes(&r->dom, space_id(r), cr_key(r), (int)limit, &c)))
		return rc;
	g = resp_json(r, 200);
	cr_changes_to_json(g, &c);
	return 0;
}

/* Before the write transaction (routes.h): fetch the batch's file URLs, so
 * that the transaction only stores bytes. */
/* Only batches with URLs take the prefetch step (and a fetch thread). */
int api_cr_content_has_urls(struct req *r)
{
	return dom_content_has_urls(json_object_get(r->json, "changes"));
}

int api_cr_content_prefetch(struct req *r)
{
	struct fetched_files *ff = arena_alloc(&r->arena, sizeof(*ff));
	int rc;

	if ((rc = dom_cr_content_prefetch(r->srv, &r->arena, r->caller_id, space_id(r), cr_key(r),
					  json_object_get(r->json, "changes"), ff)))
		return rc;
	r->fetched = ff;
	return 0;
}

int api_cr_content_update(struct req *r)
{
	struct space s;
	struct change_request cr;
	struct content_outcome *out;
	struct content_base_outcome *bo;
	const char *compat = req_query(r, "compat"), *base = req_query(r, "base");
	bool full;
	struct jw *g;
	int rc;

	if (compat && strcmp(compat, "true") != 0 && strcmp(compat, "false") != 0)
		return err_set(ERR_INVALID, "compat: must be true or false");
	if (base && !*base)
		return err_set(ERR_INVALID, "base: must be a revision id");
	out = arena_alloc(&r->arena, sizeof(*out));
	bo = arena_alloc(&r->arena, sizeof(*bo));
	/* compat=false answers the batch's outcome, inserted files with their URLs. */
	full = compat && strcmp(compat, "false") == 0;
	/* docsd's base=<revision>: the batch was made on that head; a newer
	 * one is merged with it or refused (409), as the editor's saves. */
	if ((rc = dom_cr_content_on_base(&r->dom, space_id(r), cr_key(r), base, json_object_get(r->json, "changes"),
					 r->fetched, full, &s, &cr, out, bo)))
		return rc;
	if (!full)
		return send_cr(r, 200, &cr, &s);
	g = resp_json(r, 200);
	cr_content_result_to_json(g, api_base(r), &cr, s.revision, out);
	return 0;
}

static int send_merge(struct req *r, const struct cr_merge_result *m)
{
	struct jw *g = resp_json(r, 200);

	cr_merge_result_to_json(g, m);
	return 0;
}

int api_cr_merge(struct req *r)
{
	struct cr_merge_result m;
	int rc = dom_cr_merge(&r->dom, space_id(r), cr_key(r), &m);

	return rc ? rc : send_merge(r, &m);
}

int api_cr_update_from_main(struct req *r)
{
	struct cr_merge_result m;
	int rc = dom_cr_update_from_space(&r->dom, space_id(r), cr_key(r), &m);

	return rc ? rc : send_merge(r, &m);
}
