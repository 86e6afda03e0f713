/*
 * members.c - organization members.
 *
 * Each handler parses the request, calls one domain function
 * (domain/members.h: the access checks and the rules) and serializes.
 */
#include "api/api.h"
#include "json/serialize_meta.h"
#include "domain/members.h"

int api_send_member(struct req *r, const struct member *m)
{
	struct jw *g = resp_json(r, 200);

	member_to_json(g, api_base(r), m, api_sees_emails(r));
	return 0;
}

int api_member_list(struct req *r)
{
	static const char *const roles[] = { "admin", "create", "review", "edit", "comment", "read", "guest", NULL };
	static const char *const sorts[] = { "joinedAt", "lastSeenAt", NULL };
	struct member_filter f = { 0 };
	struct list_req lr;
	int64_t total;
	struct cursor cur;
	struct member *items;
	char *next;
	struct jw *g;
	int n, rc, role, sort;

	if ((rc = req_list_total(r, &lr, &cur, "order", 1, &total)) || (rc = req_query_enum(r, "role", roles, &role)) ||
	    (rc = req_query_enum(r, "sort", sorts, &sort)))
		return rc;
	f.role = role >= 0 ? roles[role] : NULL;
	f.search = req_query(r, "search");
	f.by_last_seen = sort == 1;
	if ((rc = dom_members_list(&r->dom, r->dom.actor.org_id, &f, &lr, &items, &n, &next)))
		return rc;
	g = resp_list_begin(r);
	for (int i = 0; i < n; i++)
		member_to_json(g, api_base(r), &items[i], api_sees_emails(r));
	return resp_list_end(r, total, next);
}

int api_member_get(struct req *r)
{
	struct member m;
	int rc = dom_member_get(&r->dom, r->dom.actor.org_id, req_param(r, "userId"), &m);

	return rc ? rc : api_send_member(r, &m);
}

int api_member_update(struct req *r)
{
	struct member_input in = { 0 };
	struct member m;
	int rc;

	if ((rc = body_role(r, "role", F_NULLABLE, &in.role)) < 0)
		return rc;
	in.has_role = rc == 1;
	if ((rc = dom_member_update(&r->dom, r->dom.actor.org_id, req_param(r, "userId"), &in, &m)))
		return rc;
	return api_send_member(r, &m);
}

int api_member_delete(struct req *r)
{
	bool removed;
	int rc = dom_member_remove(&r->dom, r->dom.actor.org_id, req_param(r, "userId"), &removed);

	/* GitBook: 205 when the member was removed, 204 when there was none. */
	return rc ? rc : resp_empty(r, removed ? 205 : 204);
}

int api_member_ping(struct req *r)
{
	const char *jwt;
	struct jw *g;
	int rc;

	if ((rc = dom_member_ping(&r->dom, r->dom.actor.org_id, &jwt)))
		return rc;
	g = resp_json(r, 200);
	visitor_claims_to_json(g, jwt);
	return 0;
}

int api_member_sso(struct req *r)
{
	struct member m;
	int rc = dom_member_set_sso(&r->dom, r->dom.actor.org_id, req_param(r, "userId"), &m);

	return rc ? rc : api_send_member(r, &m);
}

int api_member_teams(struct req *r)
{
	struct list_req lr;
	int64_t total;
	struct cursor cur;
	struct dom_team *items;
	char *next;
	struct jw *g;
	int n, rc;

	if ((rc = req_list_total(r, &lr, &cur, NULL, 0, &total)) ||
	    (rc = dom_member_teams(&r->dom, r->dom.actor.org_id, req_param(r, "userId"), req_query(r, "title"), &lr,
				   &items, &n, &next)))
		return rc;
	g = resp_list_begin(r);
	for (int i = 0; i < n; i++)
		member_team_to_json(g, &items[i].team, items[i].role, r->dom.actor.org.role, items[i].actor_owns);
	return resp_list_end(r, total, next);
}
