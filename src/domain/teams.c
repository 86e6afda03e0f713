/*
 * teams.c - an organization's teams and their memberships (domain/members.h).
 *
 * Admins manage every team; a team's owners manage that team's memberships
 * (model/roles.h, team_can_manage).
 */
#include "domain/members.h"
#include "util/err.h"

#include <string.h>

/* Is the actor an owner of team_id? Admins are not asked (they manage every
 * team), nor members who own no team at all (the standing says so). */
static int actor_owns(struct dom *d, const char *team_id, bool *out)
{
	int role = -1, rc = 0;

	*out = false;
	if (d->actor.org.role != ROLE_ADMIN && d->actor.org.owns_team) {
		rc = store_team_member_role(d->tx, team_id, d->actor.user_id, &role);
		*out = role == TEAM_OWNER;
	}
	return rc;
}

/* Load team_id of org_id again with the actor's ownership. */
static int team_fresh(struct dom *d, const char *org_id, const char *team_id, struct dom_team *out)
{
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = store_team_get(d->tx, org_id, team_id, &out->team)))
		return rc;
	return actor_owns(d, out->team.id, &out->actor_owns);
}

/* Load a team the actor may change the memberships of. */
static int team_for_manage(struct dom *d, const char *org_id, const char *team_id, struct dom_team *out)
{
	int rc;

	if ((rc = dom_org_require(d, org_id, ORG_ACCESS_VIEW)) || (rc = team_fresh(d, org_id, team_id, out)))
		return rc;
	if (!team_can_manage(d->actor.org.role, out->actor_owns))
		return err_set(ERR_FORBIDDEN, "only organization admins and the team's owners can change its members");
	return 0;
}

/* Resolve a user given by id or by email (`field`[index] of the request) to
 * the id of a member of org_id; ERR_INVALID when there is no such member.
 * Messages quote what the caller sent, never the id an email belongs to (no
 * email-to-id oracle). */
static int member_ref(struct dom *d, const char *org_id, const char *ref, const char *field, int index,
		      const char **user_id)
{
	const char *id = ref;
	struct member m;
	struct user u;
	int rc;

	if (strchr(ref, '@')) {
		rc = store_user_get_by_email(d->tx, ref, &u);
		if (rc == ERR_NOT_FOUND)
			return err_set(ERR_INVALID, "%s[%d]: '%s' is not a member of the organization", field, index, ref);
		if (rc)
			return rc;
		id = u.id;
	}
	rc = store_member_get(d->tx, org_id, id, &m);
	if (rc == ERR_NOT_FOUND)
		return err_set(ERR_INVALID, "%s[%d]: '%s' is not a member of the organization", field, index, ref);
	if (rc)
		return rc;
	*user_id = m.user.id;
	return 0;
}

int dom_member_teams(struct dom *d, const char *org_id, const char *user_id, const char *title,
		     const struct list_req *lr, struct dom_team **items, int *n, char **next)
{
	struct member_team_row *rows;
	struct member m;
	int rc;

	if ((rc = dom_org_require(d, org_id, ORG_ACCESS_MEMBER)) ||
	    (rc = store_member_get(d->tx, org_id, user_id, &m)) ||
	    (rc = store_member_teams_list(d->tx, org_id, user_id, title, lr, &rows, n, next)))
		return rc;
	*items = arena_alloc(d->arena, sizeof(**items) * (size_t)(*n ? *n : 1));
	for (int i = 0; i < *n; i++) {
		(*items)[i] = (struct dom_team){ .team = rows[i].team, .role = rows[i].team_role };
		if ((rc = actor_owns(d, rows[i].team.id, &(*items)[i].actor_owns)))
			return rc;
	}
	return 0;
}

int dom_teams_list(struct dom *d, const char *org_id, const struct team_filter *f, const struct list_req *lr,
		   struct dom_team **items, int *n, char **next)
{
	struct team *teams;
	int rc;

	if ((rc = dom_org_require(d, org_id, ORG_ACCESS_MEMBER)) ||
	    (rc = store_teams_list(d->tx, org_id, f, lr, &teams, n, next)))
		return rc;
	*items = arena_alloc(d->arena, sizeof(**items) * (size_t)(*n ? *n : 1));
	for (int i = 0; i < *n; i++) {
		(*items)[i] = (struct dom_team){ .team = teams[i] };
		if ((rc = actor_owns(d, teams[i].id, &(*items)[i].actor_owns)))
			return rc;
	}
	return 0;
}

int dom_team_get(struct dom *d, const char *org_id, const char *team_id, struct dom_team *out)
{
	int rc = dom_org_require(d, org_id, ORG_ACCESS_MEMBER);

	return rc ? rc : team_fresh(d, org_id, team_id, out);
}

int dom_team_create(struct dom *d, const char *org_id, const char *title, const char *const *members, int nmembers,
		    struct dom_team *out)
{
	struct team t = { .org_id = org_id, .title = title };
	const char **ids = NULL;
	int rc;

	if ((rc = dom_org_require(d, org_id, ORG_ACCESS_ADMIN)))
		return rc;
	/* Every member resolves before the team exists. */
	if (nmembers > 0)
		ids = arena_alloc(d->arena, sizeof(*ids) * (size_t)nmembers);
	for (int i = 0; i < nmembers; i++)
		if ((rc = member_ref(d, org_id, members[i], "members", i, &ids[i])))
			return rc;
	if ((rc = store_team_create(d->tx, &t)))
		return rc;
	for (int i = 0; i < nmembers; i++)
		if ((rc = store_team_member_set(d->tx, t.id, org_id, ids[i], TEAM_MEMBER)))
			return rc;
	return team_fresh(d, org_id, t.id, out);
}

int dom_team_rename(struct dom *d, const char *org_id, const char *team_id, const char *title, struct dom_team *out)
{
	int rc;

	if ((rc = dom_org_require(d, org_id, ORG_ACCESS_ADMIN)) ||
	    (rc = store_team_rename(d->tx, org_id, team_id, title)))
		return rc;
	return team_fresh(d, org_id, team_id, out);
}

int dom_team_delete(struct dom *d, const char *org_id, const char *team_id, bool *removed)
{
	int rc;

	*removed = false;
	if ((rc = dom_org_require(d, org_id, ORG_ACCESS_ADMIN)))
		return rc;
	return store_team_delete(d->tx, org_id, team_id, removed);
}

int dom_team_members(struct dom *d, const char *org_id, const char *team_id, const struct list_req *lr,
		     struct team_member_row **items, int *n, char **next)
{
	struct team t;
	int rc;

	if ((rc = dom_org_require(d, org_id, ORG_ACCESS_MEMBER)) || (rc = store_team_get(d->tx, org_id, team_id, &t)))
		return rc;
	return store_team_members_list(d->tx, org_id, t.id, lr, items, n, next);
}

int dom_team_members_update(struct dom *d, const char *org_id, const char *team_id,
			    const struct team_members_input *in)
{
	struct dom_team t;
	int rc;

	if ((rc = team_for_manage(d, org_id, team_id, &t)))
		return rc;
	for (int i = 0; i < in->nadd; i++) {
		const char *uid;
		int cur;
		if ((rc = member_ref(d, org_id, in->add[i], "add", i, &uid)) ||
		    (rc = store_team_member_role(d->tx, t.team.id, uid, &cur)))
			return rc;
		/* Someone already in the team keeps their role. */
		if (cur < 0 && (rc = store_team_member_set(d->tx, t.team.id, org_id, uid, TEAM_MEMBER)))
			return rc;
	}
	for (int i = 0; i < in->nset; i++) {
		const char *uid;
		if ((rc = member_ref(d, org_id, in->set[i].user, "memberships", i, &uid)) ||
		    (rc = store_team_member_set(d->tx, t.team.id, org_id, uid, in->set[i].role)))
			return rc;
	}
	for (int i = 0; i < in->nremove; i++) {
		const char *uid;
		bool removed;
		if ((rc = member_ref(d, org_id, in->remove[i], "remove", i, &uid)) ||
		    (rc = store_team_member_remove(d->tx, t.team.id, uid, &removed)))
			return rc;
	}
	return 0;
}

int dom_team_member_set(struct dom *d, const char *org_id, const char *team_id, const char *user, enum team_role role)
{
	struct dom_team t;
	const char *uid;
	int rc;

	if ((rc = team_for_manage(d, org_id, team_id, &t)))
		return rc;
	/* The user names the path's resource: not a member is not found. */
	if ((rc = member_ref(d, org_id, user, "userId", 0, &uid)))
		return rc == ERR_INVALID ? err_set(ERR_NOT_FOUND, "member not found") : rc;
	return store_team_member_set(d->tx, t.team.id, org_id, uid, role);
}

int dom_team_member_remove(struct dom *d, const char *org_id, const char *team_id, const char *user_id,
			   bool *removed)
{
	struct dom_team t;
	int rc;

	*removed = false;
	if ((rc = team_for_manage(d, org_id, team_id, &t)))
		return rc;
	return store_team_member_remove(d->tx, t.team.id, user_id, removed);
}
