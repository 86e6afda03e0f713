/*
 * invites.c - an organization's invite links (domain/orgs.h): admins make,
 * read, change and delete them; a link made without a role lets members join
 * with the organization's defaultRole (the role it had when the link was made).
 *
 * Any signed-in user holding a link's id may join its organization with it
 * (dom_invite_join). While the organization's inviteLinks setting is false,
 * links can be neither made nor used (ERR_FORBIDDEN): they stay listed and
 * work again when the setting is turned back on. GitBook's invite link has no
 * expiry or use limit, so a link can be used any number of times.
 */
#include "domain/orgs.h"
#include "domain/integrations.h"
#include "util/err.h"

int dom_invite_create(struct dom *d, const char *org_id, bool has_role, enum role role, struct invite *out)
{
	struct org o;
	int rc;

	if ((rc = dom_org_require(d, org_id, ORG_ACCESS_ADMIN)) || (rc = store_org_get(d->tx, org_id, &o)))
		return rc;
	if (!o.invite_links)
		return err_set(ERR_FORBIDDEN, "invite links are disabled for this organization (inviteLinks is false)");
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

int dom_invite_join(struct dom *d, const char *org_id, const char *invite_id, bool *joined)
{
	struct invite inv;
	struct org o;
	int rc;

	*joined = false;
	if (!d->actor.user_id)
		return err_set(ERR_INVALID, "docsd itself cannot join an organization: use a user's token");
	/* An integration's identity never joins: a link posted where an
	 * integration reads it must not make its user a member (the rule,
	 * domain/integration_access.c). Before the link is looked at, so the
	 * answer says nothing of the link. */
	if ((rc = dom_member_check(d)))
		return rc;
	/* No membership is needed: the link's id is the credential. A link of
	 * another organization, or of none, is not found. */
	if ((rc = store_invite_get(d->tx, org_id, invite_id, &inv)) || (rc = store_org_get(d->tx, org_id, &o)))
		return rc;
	if (!o.invite_links)
		return err_set(ERR_FORBIDDEN, "invite links are disabled for this organization (inviteLinks is false)");
	/* A member already keeps their role, SSO flag and disabled state: a link
	 * never changes an existing membership (no downgrade, no upgrade). Link
	 * members are not SSO members, even where the organization enforces SSO;
	 * an admin may make them so (setUserAsSSOMemberForOrganization).
	 * store_member_add bumps the organization's generation when it adds. */
	return store_member_add(d->tx, org_id, d->actor.user_id, inv.role, 0, joined);
}
