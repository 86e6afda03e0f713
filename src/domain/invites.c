/*
 * invites.c - an organization's invite links (domain/orgs.h): admins make,
 * read, change and delete them; a link made without a role lets members join
 * with the organization's defaultRole.
 */
#include "domain/orgs.h"
#include "util/err.h"

int dom_invite_create(struct dom *d, const char *org_id, bool has_role, enum role role, struct invite *out)
{
	struct org o;
	int rc;

	if ((rc = dom_org_require(d, org_id, ORG_ACCESS_ADMIN)) || (rc = store_org_get(d->tx, org_id, &o)))
		return rc;
	if (has_role && (role < ROLE_GUEST || role > ROLE_ADMIN))
		return err_set(ERR_INVALID, "role: must be a role or null");
	*out = (struct invite){ .org_id = o.id, .role = has_role ? role : o.default_role };
	return store_invite_create(d->tx, out);
}

int dom_invite_get(struct dom *d, const char *org_id, const char *invite_id, struct invite *out)
{
	int rc = dom_org_require(d, org_id, ORG_ACCESS_ADMIN);

	return rc ? rc : store_invite_get(d->tx, org_id, invite_id, out);
}

int dom_invite_update(struct dom *d, const char *org_id, const char *invite_id, enum role role, struct invite *out)
{
	int rc = dom_org_require(d, org_id, ORG_ACCESS_ADMIN);

	if (rc)
		return rc;
	if (role < ROLE_GUEST || role > ROLE_ADMIN)
		return err_set(ERR_INVALID, "role: must be a role or null");
	if ((rc = store_invite_set_role(d->tx, org_id, invite_id, role)))
		return rc;
	return store_invite_get(d->tx, org_id, invite_id, out);
}

int dom_invite_delete(struct dom *d, const char *org_id, const char *invite_id, bool *removed)
{
	int rc = dom_org_require(d, org_id, ORG_ACCESS_ADMIN);

	*removed = false;
	return rc ? rc : store_invite_delete(d->tx, org_id, invite_id, removed);
}

int dom_invites_list(struct dom *d, const char *org_id, const struct list_req *lr, struct invite **items, int *n,
		     char **next)
{
	int rc = dom_org_require(d, org_id, ORG_ACCESS_ADMIN);

	return rc ? rc : store_invites_list(d->tx, org_id, lr, items, n, next);
}
