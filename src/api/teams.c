/*
 * teams.c - teams and their memberships.
 *
 * Admins manage every team; a team's owners manage that team's memberships.
 */
#include "api/api.h"
#include "core/validate.h"

#include <string.h>

/* Is the caller an owner of team_id? Admins do not need to be. */
static int caller_owns(struct req *r, const char *team_id, bool *out)
{
	int role = -1, rc = 0;

	*out = false;
	if (r->dom.actor.org.role != ROLE_ADMIN && r->dom.actor.org.owns_team) {
		rc = store_team_member_role(&r->tx, team_id, r->caller_id, &role);
		*out = role == TEAM_OWNER;
	}
	return rc;
}

int api_send_team(struct req *r, int status, const struct team *t)
{
	struct jw *g;
	bool owner;
	int rc = caller_owns(r, t->id, &owner);

	if (rc)
		return rc;
	if (!(g = resp_json(r, status)))
		return err_set(ERR_INTERNAL, "out of memory");
	team_to_json(g, t, r->dom.actor.org.role, owner);
	return 0;
}

int team_list(struct req *r)
{
	struct team_filter f = { .title = req_query(r, "title"), .owner = req_query(r, "owner") };
	struct list_req lr;
	struct cursor cur;
	struct team *items;
	char *next;
	struct jw *g;
	int n, rc;

	if ((rc = req_list(r, &lr, &cur, NULL, 0)) || (rc = store_teams_list(&r->tx, r->dom.actor.org_id, &f, &lr, &items, &n, &next)))
		return rc;
	if (!(g = resp_list_begin(r)))
		return err_set(ERR_INTERNAL, "out of memory");
	for (int i = 0; i < n; i++) {
		bool owner;
		if ((rc = caller_owns(r, items[i].id, &owner)))
			return rc;
		team_to_json(g, &items[i], r->dom.actor.org.role, owner);
	}
	return resp_list_end(r, n, next);
}

/* Resolve a user given by id or by email to an organization member's id. */
static int member_ref(struct req *r, const char *ref, const char *field, int index, const char **user_id)
{
	struct member m;
	struct user u;
	int rc;

	if (strchr(ref, '@')) {
		rc = store_user_get_by_email(&r->tx, ref, &u);
		if (rc == ERR_NOT_FOUND)
			return err_set(ERR_INVALID, "%s[%d]: '%s' is not a member of the organization", field, index, ref);
		if (rc)
			return rc;
		ref = u.id;
	}
	rc = store_member_get(&r->tx, r->dom.actor.org_id, ref, &m);
	if (rc == ERR_NOT_FOUND)
		return err_set(ERR_INVALID, "%s[%d]: '%s' is not a member of the organization", field, index, ref);
	if (rc)
		return rc;
	*user_id = m.user.id;
	return 0;
}

int team_create(struct req *r)
{
	struct team t = { .org_id = r->dom.actor.org_id };
	const char **members;
	int n = 0, rc;

	if ((rc = body_string(r, "title", F_REQUIRED, 1, 64, &t.title)) < 0 ||
	    (rc = body_string_array(r, "members", 0, 1000, 254, &members, &n)) < 0)
		return rc;
	if ((rc = store_team_create(&r->tx, &t)))
		return rc;
	for (int i = 0; i < n; i++) {
		const char *uid;
		if ((rc = member_ref(r, members[i], "members", i, &uid)) ||
		    (rc = store_team_member_set(&r->tx, t.id, r->dom.actor.org_id, uid, TEAM_MEMBER)))
			return rc;
	}
	if ((rc = store_team_get(&r->tx, r->dom.actor.org_id, t.id, &t)))
		return rc;
	return api_send_team(r, 201, &t);
}

int team_get(struct req *r)
{
	struct team t;
	int rc = store_team_get(&r->tx, r->dom.actor.org_id, req_param(r, "teamId"), &t);

	return rc ? rc : api_send_team(r, 200, &t);
}

int team_update(struct req *r)
{
	const char *id = req_param(r, "teamId"), *title;
	struct team t;
	int rc;

	if ((rc = body_string(r, "title", F_REQUIRED, 1, 64, &title)) < 0)
		return rc;
	if ((rc = store_team_rename(&r->tx, r->dom.actor.org_id, id, title)) || (rc = store_team_get(&r->tx, r->dom.actor.org_id, id, &t)))
		return rc;
	return api_send_team(r, 200, &t);
}

int team_delete(struct req *r)
{
	bool removed;
	int rc = store_team_delete(&r->tx, r->dom.actor.org_id, req_param(r, "teamId"), &removed);

	/* 204 whether or not the team existed (the seed's contract). */
	return rc ? rc : resp_empty(r, 204);
}

/* Load the team and check the caller may manage its memberships. */
static int team_for_manage(struct req *r, struct team *t)
{
	bool owner;
	int rc = store_team_get(&r->tx, r->dom.actor.org_id, req_param(r, "teamId"), t);

	if (rc || (rc = caller_owns(r, t->id, &owner)))
		return rc;
	if (!team_can_manage(r->dom.actor.org.role, owner))
		return err_set(ERR_FORBIDDEN, "only organization admins and the team's owners can change its members");
	return 0;
}

int team_members_list(struct req *r)
{
	struct list_req lr;
	struct cursor cur;
	struct team_member_row *items;
	struct team t;
	char *next;
	struct jw *g;
	int n, rc;

	if ((rc = req_list(r, &lr, &cur, NULL, 0)) || (rc = store_team_get(&r->tx, r->dom.actor.org_id, req_param(r, "teamId"), &t)) ||
	    (rc = store_team_members_list(&r->tx, r->dom.actor.org_id, t.id, &lr, &items, &n, &next)))
		return rc;
	if (!(g = resp_list_begin(r)))
		return err_set(ERR_INTERNAL, "out of memory");
	for (int i = 0; i < n; i++)
		team_member_to_json(g, api_base(r), &items[i].member, items[i].team_role, r->dom.actor.org.role);
	return resp_list_end(r, n, next);
}

static int parse_team_role(const char *s, enum team_role *out)
{
	if (strcmp(s, "owner") == 0)
		*out = TEAM_OWNER;
	else if (strcmp(s, "member") == 0)
		*out = TEAM_MEMBER;
	else
		return -1;
	return 0;
}

int team_members_update(struct req *r)
{
	const char **add, **remove;
	int nadd = 0, nremove = 0, rc;
	json_t *ms = body_field(r, "memberships"), *v;
	const char *key;
	struct team t;

	if ((rc = team_for_manage(r, &t)))
		return rc;
	if ((rc = body_string_array(r, "add", 0, 1000, 254, &add, &nadd)) < 0 ||
	    (rc = body_string_array(r, "remove", 0, 1000, 254, &remove, &nremove)) < 0)
		return rc;
	if (ms && !json_is_object(ms))
		return err_set(ERR_INVALID, "memberships: must be an object of user id to {role}");
	for (int i = 0; i < nadd; i++) {
		const char *uid;
		int cur;
		if ((rc = member_ref(r, add[i], "add", i, &uid)) || (rc = store_team_member_role(&r->tx, t.id, uid, &cur)))
			return rc;
		if (cur < 0 && (rc = store_team_member_set(&r->tx, t.id, r->dom.actor.org_id, uid, TEAM_MEMBER)))
			return rc;
	}
	if (ms) {
		int i = 0;
		json_object_foreach(ms, key, v) {
			const char *uid, *role = json_is_object(v) ? json_string_value(json_object_get(v, "role")) : NULL;
			enum team_role tr;
			if (!role || parse_team_role(role, &tr))
				return err_set(ERR_INVALID, "memberships.%s.role: must be 'owner' or 'member'", key);
			if ((rc = member_ref(r, key, "memberships", i++, &uid)) ||
			    (rc = store_team_member_set(&r->tx, t.id, r->dom.actor.org_id, uid, tr)))
				return rc;
		}
	}
	for (int i = 0; i < nremove; i++) {
		const char *uid;
		bool removed;
		if ((rc = member_ref(r, remove[i], "remove", i, &uid)) ||
		    (rc = store_team_member_remove(&r->tx, t.id, uid, &removed)))
			return rc;
	}
	return resp_empty(r, 204);
}

int team_member_add(struct req *r)
{
	const char *user_id = req_param(r, "userId"), *role = NULL, *uid;
	enum team_role tr = TEAM_MEMBER;
	struct team t;
	int rc;

	if ((rc = team_for_manage(r, &t)))
		return rc;
	if ((rc = body_string(r, "role", 0, 1, 16, &role)) < 0)
		return rc;
	if (role && parse_team_role(role, &tr))
		return err_set(ERR_INVALID, "role: must be 'owner' or 'member'");
	if ((rc = member_ref(r, user_id, "userId", 0, &uid)))
		return rc == ERR_INVALID ? err_set(ERR_NOT_FOUND, "member not found") : rc;
	if ((rc = store_team_member_set(&r->tx, t.id, r->dom.actor.org_id, uid, tr)))
		return rc;
	return resp_empty(r, 204);
}

int team_member_remove(struct req *r)
{
	struct team t;
	bool removed;
	int rc;

	if ((rc = team_for_manage(r, &t)) || (rc = store_team_member_remove(&r->tx, t.id, req_param(r, "userId"), &removed)))
		return rc;
	/* GitBook: 205 when removed, 204 when the user was not in the team. */
	return resp_empty(r, removed ? 205 : 204);
}
