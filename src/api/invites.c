/*
 * invites.c - an organization's invite links.
 *
 * Each handler parses the request, calls one domain function
 * (domain/orgs.h: the access checks and the rules) and serializes.
 */
#include "api/api.h"
#include "domain/orgs.h"

/* "redundant" reads the caller's role, which the domain function loaded. */
static int send_invite(struct req *r, int status, const struct invite *inv)
{
	struct jw *g = resp_json(r, status);

	invite_to_json(g, inv, r->dom.actor.org.role);
	return 0;
}

int api_invite_list(struct req *r)
{
	struct list_req lr;
	int64_t total;
	struct cursor cur;
	struct invite *items;
	char *next;
	struct jw *g;
	int n, rc;

	if ((rc = req_list_total(r, &lr, &cur, NULL, 0, &total)) ||
	    (rc = dom_invites_list(&r->dom, req_param(r, "organizationId"), &lr, &items, &n, &next)))
		return rc;
	g = resp_list_begin(r);
	for (int i = 0; i < n; i++)
		invite_to_json(g, &items[i], r->dom.actor.org.role);
	return resp_list_end(r, total, next);
}

int api_invite_create(struct req *r)
{
	struct invite inv;
	enum role role = ROLE_GUEST;
	bool given;
	int rc;

	/* Invites to a space or a collection name their target; those arrive with
	 * spaces and collections. */
	if (body_field(r, "space") || body_field(r, "collection") || body_field(r, "level"))
		return err_set(ERR_INVALID, "space and collection invites are not supported yet: send {\"role\": ...}");
	/* Without a role, the link lets members join with the organization's defaultRole. */
	if ((rc = body_role(r, "role", F_NULLABLE, &role)) < 0)
		return rc;
	given = rc == 1;
	if ((rc = dom_invite_create(&r->dom, req_param(r, "organizationId"), given, role, &inv)))
		return rc;
	return send_invite(r, 201, &inv);
}

int api_invite_get(struct req *r)
{
	struct invite inv;
	int rc = dom_invite_get(&r->dom, req_param(r, "organizationId"), req_param(r, "inviteId"), &inv);

	return rc ? rc : send_invite(r, 200, &inv);
}

int api_invite_update(struct req *r)
{
	struct invite inv;
	enum role role;
	int rc;

	if ((rc = body_role(r, "role", F_REQUIRED | F_NULLABLE, &role)) < 0 ||
	    (rc = dom_invite_update(&r->dom, req_param(r, "organizationId"), req_param(r, "inviteId"), role, &inv)))
		return rc;
	return send_invite(r, 200, &inv);
}

int api_invite_delete(struct req *r)
{
	bool removed;
	int rc = dom_invite_delete(&r->dom, req_param(r, "organizationId"), req_param(r, "inviteId"), &removed);

	if (rc)
		return rc;
	/* GitBook: 205 when the invite was deleted, 204 when it did not exist. */
	return resp_empty(r, removed ? 205 : 204);
}

int api_invite_join(struct req *r)
{
	struct jw *g;
	bool joined;
	int rc = dom_invite_join(&r->dom, req_param(r, "organizationId"), req_param(r, "inviteId"), &joined);

	if (rc)
		return rc;
	/* GitBook answers an empty object, whether or not the caller was a member. */
	g = resp_json(r, 200);
	jw_raw(g, "{}");
	return 0;
}
