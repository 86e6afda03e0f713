/*
 * grants.c - who has been given access to a space or a collection: GitBook's
 * permission operations, one handler per operation for both kinds (the route
 * says which through {spaceId} or {collectionId}). The rules and the access
 * checks are domain/grants.c's.
 */
#include "api/content.h"

#include <string.h>

/* The target the route names. */
static const char *target(struct req *r, enum dom_kind *kind)
{
	const char *id = req_param(r, "spaceId");

	*kind = id ? DOM_SPACE : DOM_COLLECTION;
	return id ? id : req_param(r, "collectionId");
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

int api_grant_invite(struct req *r)
{
	enum dom_kind kind;
	const char *id = target(r, &kind);
	enum role role;
	const char **users, **teams;
	int nusers = 0, nteams = 0, rc;

	if ((rc = body_grant_role(r, &role)))
		return rc;
	if ((rc = body_string_array(r, "users", 0, 1000, 64, &users, &nusers)) < 0 ||
	    (rc = body_string_array(r, "teams", 0, 1000, 64, &teams, &nteams)) < 0)
		return rc;
	if (nusers + nteams == 0)
		return err_set(ERR_INVALID, "give at least one id in 'users' or 'teams'");
	if ((rc = dom_grants_invite(&r->dom, kind, id, role, users, nusers, teams, nteams)))
		return rc;
	return resp_empty(r, 204);
}

static int list_grants(struct req *r, enum grant_kind gk)
{
	enum dom_kind kind;
	const char *id = target(r, &kind);
	struct list_req lr;
	int64_t total;
	struct cursor cur;
	struct grant_row *items;
	char *next;
	struct jw *g;
	int n, rc;

	if ((rc = req_list_total(r, &lr, &cur, NULL, 0, &total)) || (rc = dom_grants_list(&r->dom, kind, id, gk, &lr, &items, &n, &next)))
		return rc;
	g = resp_list_begin(r);
	for (int i = 0; i < n; i++) {
		if (gk == GRANT_USER)
			user_grant_to_json(g, api_base(r), &items[i], api_sees_emails(r));
		else
			team_grant_to_json(g, &items[i], r->dom.actor.org.role);
	}
	return resp_list_end(r, total, next);
}

int api_grant_list_users(struct req *r)
{
	return list_grants(r, GRANT_USER);
}

int api_grant_list_teams(struct req *r)
{
	return list_grants(r, GRANT_TEAM);
}

static int update_grant(struct req *r, enum grant_kind gk, const char *principal)
{
	enum dom_kind kind;
	const char *id = target(r, &kind);
	enum role role;
	int rc;

	if ((rc = body_grant_role(r, &role)) ||
	    (rc = dom_grant_update(&r->dom, kind, id, gk, req_param(r, principal), role)))
		return rc;
	return resp_empty(r, 204);
}

int api_grant_update_user(struct req *r)
{
	return update_grant(r, GRANT_USER, "userId");
}

int api_grant_update_team(struct req *r)
{
	return update_grant(r, GRANT_TEAM, "teamId");
}

static int remove_grant(struct req *r, enum grant_kind gk, const char *principal)
{
	enum dom_kind kind;
	const char *id = target(r, &kind);
	bool removed;
	int rc = dom_grant_remove(&r->dom, kind, id, gk, req_param(r, principal), &removed);

	if (rc)
		return rc;
	/* GitBook: 205 when removed, 204 when there was nothing to remove. */
	return resp_empty(r, removed ? 205 : 204);
}

int api_grant_remove_user(struct req *r)
{
	return remove_grant(r, GRANT_USER, "userId");
}

int api_grant_remove_team(struct req *r)
{
	return remove_grant(r, GRANT_TEAM, "teamId");
}
