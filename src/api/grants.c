/*
 * grants.c - who has been given access to a space or a collection: GitBook's
 * permission operations, one handler per operation for both kinds (the route
 * says which through {spaceId} or {collectionId}).
 *
 * Listing needs read on the target, granting and revoking admin. Inviting a
 * user who is not a member makes them a guest of the organization, as GitBook
 * does, so the grant is all the access they have.
 */
#include "api/content.h"

#include <string.h>

struct target {
	const char *id;
	const char *org_id;
	const char *space_id;      /* one of the two is set */
	const char *collection_id;
};

static int load_target(struct req *r, enum role need, struct target *t)
{
	int rc;

	memset(t, 0, sizeof(*t));
	if (req_param(r, "spaceId")) {
		struct space s;
		if ((rc = dom_space_get(&r->dom, req_param(r, "spaceId"), need, &s)))
			return rc;
		if (s.deleted_at && need > ROLE_READ)
			return err_set(ERR_CONFLICT, "the space is deleted; restore it first");
		t->id = t->space_id = s.id;
		t->org_id = s.org_id;
		return 0;
	}
	struct collection c;
	if ((rc = dom_collection_get(&r->dom, req_param(r, "collectionId"), need, &c)))
		return rc;
	t->id = t->collection_id = c.id;
	t->org_id = c.org_id;
	return 0;
}

static int grant_users(struct req *r, const struct target *t, const char **ids, int n, enum role role)
{
	for (int i = 0; i < n; i++) {
		struct user u;
		bool added;
		int rc = store_user_get(&r->tx, ids[i], &u);
		if (rc == ERR_NOT_FOUND)
			return err_set(ERR_INVALID, "users[%d]: no user '%s'", i, ids[i]);
		if (rc || (rc = store_member_add(&r->tx, t->org_id, u.id, ROLE_GUEST, 0, &added)) ||
		    (rc = store_grant_set(&r->tx, t->org_id, t->space_id, t->collection_id, GRANT_USER, u.id, role)))
			return rc;
	}
	return 0;
}

static int grant_teams(struct req *r, const struct target *t, const char **ids, int n, enum role role)
{
	for (int i = 0; i < n; i++) {
		struct team tm;
		int rc = store_team_get(&r->tx, t->org_id, ids[i], &tm);
		if (rc == ERR_NOT_FOUND)
			return err_set(ERR_INVALID, "teams[%d]: no team '%s' in this organization", i, ids[i]);
		if (rc || (rc = store_grant_set(&r->tx, t->org_id, t->space_id, t->collection_id, GRANT_TEAM, tm.id, role)))
			return rc;
	}
	return 0;
}

/* role: a role name (a grant of "no access" is a DELETE). */
static int body_grant_role(struct req *r, enum role *role)
{
	json_t *v = body_field(r, "role");

	if (!v)
		return err_set(ERR_INVALID, "role: is required");
	if (!json_is_string(v) || (*role = role_parse(json_string_value(v))) < ROLE_READ)
		return err_set(ERR_INVALID, "role: must be one of admin, create, review, edit, comment, read");
	return 0;
}

int grant_invite(struct req *r)
{
	struct target t;
	enum role role;
	const char **users, **teams;
	int nusers = 0, nteams = 0, rc;

	if ((rc = load_target(r, ROLE_ADMIN, &t)) || (rc = body_grant_role(r, &role)))
		return rc;
	if ((rc = body_string_array(r, "users", 0, 1000, 64, &users, &nusers)) < 0 ||
	    (rc = body_string_array(r, "teams", 0, 1000, 64, &teams, &nteams)) < 0)
		return rc;
	if (nusers + nteams == 0)
		return err_set(ERR_INVALID, "give at least one id in 'users' or 'teams'");
	if ((rc = grant_users(r, &t, users, nusers, role)) || (rc = grant_teams(r, &t, teams, nteams, role)))
		return rc;
	return resp_empty(r, 204);
}

static int list_grants(struct req *r, enum grant_kind kind)
{
	struct target t;
	struct list_req lr;
	struct cursor cur;
	struct grant_row *items;
	char *next;
	struct jw *g;
	int n, rc;

	if ((rc = req_list(r, &lr, &cur, NULL, 0)) || (rc = load_target(r, ROLE_READ, &t)) ||
	    (rc = store_grants_list(&r->tx, t.id, kind, &lr, &items, &n, &next)))
		return rc;
	if (!(g = resp_list_begin(r)))
		return err_set(ERR_INTERNAL, "out of memory");
	for (int i = 0; i < n; i++) {
		if (kind == GRANT_USER)
			user_grant_to_json(g, api_base(r), &items[i], api_sees_emails(r));
		else
			team_grant_to_json(g, &items[i], r->dom.actor.org.role);
	}
	return resp_list_end(r, n, next);
}

int grant_list_users(struct req *r)
{
	return list_grants(r, GRANT_USER);
}

int grant_list_teams(struct req *r)
{
	return list_grants(r, GRANT_TEAM);
}

static int update_grant(struct req *r, enum grant_kind kind, const char *principal)
{
	struct target t;
	enum role role;
	int rc;

	if ((rc = load_target(r, ROLE_ADMIN, &t)) || (rc = body_grant_role(r, &role)) ||
	    (rc = store_grant_update(&r->tx, t.org_id, t.id, kind, req_param(r, principal), role)))
		return rc;
	return resp_empty(r, 204);
}

int grant_update_user(struct req *r)
{
	return update_grant(r, GRANT_USER, "userId");
}

int grant_update_team(struct req *r)
{
	return update_grant(r, GRANT_TEAM, "teamId");
}

static int remove_grant(struct req *r, enum grant_kind kind, const char *principal)
{
	struct target t;
	bool removed;
	int rc;

	if ((rc = load_target(r, ROLE_ADMIN, &t)) ||
	    (rc = store_grant_remove(&r->tx, t.org_id, t.id, kind, req_param(r, principal), &removed)))
		return rc;
	/* GitBook: 205 when removed, 204 when there was nothing to remove. */
	return resp_empty(r, removed ? 205 : 204);
}

int grant_remove_user(struct req *r)
{
	return remove_grant(r, GRANT_USER, "userId");
}

int grant_remove_team(struct req *r)
{
	return remove_grant(r, GRANT_TEAM, "teamId");
}
