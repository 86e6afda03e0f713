/*
 * grants.c - who has been given access to a space or a collection: GitBook's
 * permission operations (domain/spaces.h).
 *
 * Listing needs read on the target, granting, changing and revoking
 * ACCESS_MANAGE. Granting to a user who is not a member makes them a guest of
 * the organization, as GitBook does, so the grant is all the access they
 * have. A deleted space keeps its grants (listed, and back with a restore)
 * but takes no changes to them.
 */
#include "domain/integrations.h"
#include "domain/spaces.h"
#include "util/err.h"

/* The space or collection a grant operation addresses, with `need` on it. */
static int target(struct dom *d, enum dom_kind kind, const char *id, enum role need, struct dom_object *o)
{
	int rc = dom_object_get(d, kind, id, need, o);

	/* Permissions are people's to manage: never an integration's token,
	 * whatever role its scopes give it (domain/integration_access.c). */
	if (!rc && need > ROLE_READ)
		rc = dom_content_manage_check(d);
	if (!rc && kind == DOM_SPACE && o->space.deleted_at && need > ROLE_READ)
		return err_set(ERR_CONFLICT, "the space is deleted; restore it first");
	return rc;
}

static int grant(struct dom *d, const struct dom_object *o, enum grant_kind gk, const char *principal, enum role role)
{
	return store_grant_set(d->tx, o->org_id, o->kind == DOM_SPACE ? o->id : NULL,
			       o->kind == DOM_COLLECTION ? o->id : NULL, gk, principal, role);
}

int dom_grants_invite(struct dom *d, enum dom_kind kind, const char *id, enum role role, const char *const *users,
		      int nusers, const char *const *teams, int nteams)
{
	struct dom_object o;
	int rc;

	if (role < ROLE_READ)
		return err_set(ERR_INVALID, "role: must be one of admin, create, review, edit, comment, read");
	if ((rc = target(d, kind, id, ACCESS_MANAGE, &o)))
		return rc;
	for (int i = 0; i < nusers; i++) {
		struct user u;
		bool added;
		rc = store_user_get(d->tx, users[i], &u);
		if (rc == ERR_NOT_FOUND)
			return err_set(ERR_INVALID, "users[%d]: no user '%s'", i, users[i]);
		if (rc || (rc = store_member_add(d->tx, o.org_id, u.id, ROLE_GUEST, 0, &added)) ||
		    (rc = grant(d, &o, GRANT_USER, u.id, role)))
			return rc;
	}
	for (int i = 0; i < nteams; i++) {
		struct team tm;
		rc = store_team_get(d->tx, o.org_id, teams[i], &tm);
		if (rc == ERR_NOT_FOUND)
			return err_set(ERR_INVALID, "teams[%d]: no team '%s' in this organization", i, teams[i]);
		if (rc || (rc = grant(d, &o, GRANT_TEAM, tm.id, role)))
			return rc;
	}
	dom_access_changed(d); /* the actor may be among them */
	return 0;
}

int dom_grants_list(struct dom *d, enum dom_kind kind, const char *id, enum grant_kind gk, const struct list_req *lr,
		    struct grant_row **items, int *n, char **next)
{
	struct dom_object o;
	int rc = target(d, kind, id, ROLE_READ, &o);

	return rc ? rc : store_grants_list(d->tx, o.id, gk, lr, items, n, next);
}

int dom_grant_update(struct dom *d, enum dom_kind kind, const char *id, enum grant_kind gk, const char *principal_id,
		     enum role role)
{
	struct dom_object o;
	int rc;

	if (role < ROLE_READ)
		return err_set(ERR_INVALID, "role: must be one of admin, create, review, edit, comment, read");
	if ((rc = target(d, kind, id, ACCESS_MANAGE, &o)) ||
	    (rc = store_grant_update(d->tx, o.org_id, o.id, gk, principal_id, role)))
		return rc;
	dom_access_changed(d);
	return 0;
}

int dom_grant_remove(struct dom *d, enum dom_kind kind, const char *id, enum grant_kind gk, const char *principal_id,
		     bool *removed)
{
	struct dom_object o;
	int rc;

	if ((rc = target(d, kind, id, ACCESS_MANAGE, &o)) ||
	    (rc = store_grant_remove(d->tx, o.org_id, o.id, gk, principal_id, removed)))
		return rc;
	dom_access_changed(d);
	return 0;
}

int dom_grant_creator(struct dom *d, const char *org_id, const char *space_id, const char *collection_id)
{
	int rc = dom_enter_org(d, org_id);

	if (rc || d->actor.org.role == ROLE_ADMIN)
		return rc; /* admin everywhere already (docsd itself too) */
	/* An integration's user is no member (a grant needs one): integration
	 * tokens create nothing (dom_may_create refuses first); refuse here too
	 * rather than fail on the foreign key. */
	if ((rc = dom_content_manage_check(d)))
		return rc;
	dom_access_changed(d); /* the grant changes the actor's access */
	return store_grant_set(d->tx, org_id, space_id, collection_id, GRANT_USER, d->actor.user_id, ROLE_ADMIN);
}
