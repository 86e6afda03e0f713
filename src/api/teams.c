/*
 * teams.c - teams and their memberships.
 *
 * Each handler parses the request, calls one domain function
 * (domain/members.h: admins manage every team, a team's owners its
 * memberships) and serializes.
 */
#include "api/api.h"
#include "domain/members.h"

#include <string.h>

static int send_team(struct req *r, int status, const struct dom_team *t)
{
	struct jw *g = resp_json(r, status);

	team_to_json(g, &t->team, r->dom.actor.org.role, t->actor_owns);
	return 0;
}

int api_team_list(struct req *r)
{
	struct team_filter f = { .title = req_query(r, "title"), .owner = req_query(r, "owner") };
	struct list_req lr;
	int64_t total;
	struct cursor cur;
	struct dom_team *items;
	char *next;
	struct jw *g;
	int n, rc;

	if ((rc = req_list_total(r, &lr, &cur, NULL, 0, &total)) ||
	    (rc = dom_teams_list(&r->dom, r->dom.actor.org_id, &f, &lr, &items, &n, &next)))
		return rc;
	g = resp_list_begin(r);
	for (int i = 0; i < n; i++)
		team_to_json(g, &items[i].team, r->dom.actor.org.role, items[i].actor_owns);
	return resp_list_end(r, total, next);
}

int api_team_create(struct req *r)
{
	const char *title, **members;
	struct dom_team t;
	int n = 0, rc;

	if ((rc = body_string(r, "title", F_REQUIRED, 1, 64, &title)) < 0 ||
	    (rc = body_string_array(r, "members", 0, 1000, 254, &members, &n)) < 0)
		return rc;
	if ((rc = dom_team_create(&r->dom, r->dom.actor.org_id, title, members, n, &t)))
		return rc;
	return send_team(r, 201, &t);
}

int api_team_get(struct req *r)
{
	struct dom_team t;
	int rc = dom_team_get(&r->dom, r->dom.actor.org_id, req_param(r, "teamId"), &t);

	return rc ? rc : send_team(r, 200, &t);
}

int api_team_update(struct req *r)
{
	const char *title;
	struct dom_team t;
	int rc;

	if ((rc = body_string(r, "title", F_REQUIRED, 1, 64, &title)) < 0 ||
	    (rc = dom_team_rename(&r->dom, r->dom.actor.org_id, req_param(r, "teamId"), title, &t)))
		return rc;
	return send_team(r, 200, &t);
}

int api_team_delete(struct req *r)
{
	bool removed;
	int rc = dom_team_delete(&r->dom, r->dom.actor.org_id, req_param(r, "teamId"), &removed);

	/* 204 whether or not the team existed (the seed's contract). */
	return rc ? rc : resp_empty(r, 204);
}

int api_team_members_list(struct req *r)
{
	struct list_req lr;
	int64_t total;
	struct cursor cur;
	struct team_member_row *items;
	char *next;
	struct jw *g;
	int n, rc;

	if ((rc = req_list_total(r, &lr, &cur, NULL, 0, &total)) ||
	    (rc = dom_team_members(&r->dom, r->dom.actor.org_id, req_param(r, "teamId"), &lr, &items, &n, &next)))
		return rc;
	g = resp_list_begin(r);
	for (int i = 0; i < n; i++)
		team_member_to_json(g, api_base(r), &items[i].member, items[i].team_role, r->dom.actor.org.role);
	return resp_list_end(r, total, next);
}

/* A team role on the wire, "owner" or "member" (else ERR_INVALID naming field). */
static int parse_team_role(const char *s, const char *field, enum team_role *out)
{
	if (s && strcmp(s, "owner") == 0)
		*out = TEAM_OWNER;
	else if (s && strcmp(s, "member") == 0)
		*out = TEAM_MEMBER;
	else
		return err_set(ERR_INVALID, "%s: must be 'owner' or 'member'", field);
	return 0;
}

/* memberships: {<user id or email>: {role: "owner" | "member"}, ...}. */
static int body_memberships(struct req *r, struct team_membership **out, int *n)
{
	json_t *ms = body_field(r, "memberships"), *v;
	const char *key;
	int i = 0, rc;

	*out = NULL;
	*n = 0;
	if (!ms)
		return 0;
	if (!json_is_object(ms))
		return err_set(ERR_INVALID, "memberships: must be an object of user id to {role}");
	*out = arena_alloc(&r->arena, sizeof(**out) * (json_object_size(ms) + 1));
	json_object_foreach(ms, key, v) {
		const char *role = json_is_object(v) ? json_string_value(json_object_get(v, "role")) : NULL;
		const char *field = arena_printf(&r->arena, "memberships.%s.role", key);
		if ((rc = parse_team_role(role, field, &(*out)[i].role)))
			return rc;
		(*out)[i++].user = key;
	}
	*n = i;
	return 0;
}

int api_team_members_update(struct req *r)
{
	struct team_members_input in = { 0 };
	struct team_membership *set;
	const char **add, **remove;
	int rc;

	if ((rc = body_string_array(r, "add", 0, 1000, 254, &add, &in.nadd)) < 0 ||
	    (rc = body_string_array(r, "remove", 0, 1000, 254, &remove, &in.nremove)) < 0 ||
	    (rc = body_memberships(r, &set, &in.nset)))
		return rc;
	in.add = add;
	in.remove = remove;
	in.set = set;
	if ((rc = dom_team_members_update(&r->dom, r->dom.actor.org_id, req_param(r, "teamId"), &in)))
		return rc;
	return resp_empty(r, 204);
}

int api_team_member_add(struct req *r)
{
	const char *role = NULL;
	enum team_role tr = TEAM_MEMBER;
	int rc;

	if ((rc = body_string(r, "role", 0, 1, 16, &role)) < 0 || (role && (rc = parse_team_role(role, "role", &tr))) ||
	    (rc = dom_team_member_set(&r->dom, r->dom.actor.org_id, req_param(r, "teamId"), req_param(r, "userId"), tr)))
		return rc;
	return resp_empty(r, 204);
}

int api_team_member_remove(struct req *r)
{
	bool removed;
	int rc = dom_team_member_remove(&r->dom, r->dom.actor.org_id, req_param(r, "teamId"), req_param(r, "userId"),
					&removed);

	/* GitBook: 205 when removed, 204 when the user was not in the team. */
	return rc ? rc : resp_empty(r, removed ? 205 : 204);
}
