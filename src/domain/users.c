/*
 * users.c - users as the actor may see them (domain/members.h): themselves,
 * and the members of the organizations they belong to.
 */
#include "domain/members.h"
#include "domain/integrations.h"
#include "util/err.h"

#include <string.h>

int dom_user_self(struct dom *d, struct user *out)
{
	int rc;

	if (!d->actor.user_id)
		return err_set(ERR_NOT_FOUND, "docsd itself is not a user");
	rc = store_user_get(d->tx, d->actor.user_id, out);
	return rc == ERR_NOT_FOUND ? err_set(ERR_UNAUTHORIZED, "the token's user no longer exists") : rc;
}

int dom_user_get(struct dom *d, const char *user_id, struct user *out)
{
	bool shared = false;
	int rc;

	/* Someone the actor shares no organization with does not exist for them.
	 * An integration principal shares none: the memberships an admin gave
	 * its user are inert (dom_member_check), so it sees only itself. */
	if (d->actor.user_id && strcmp(user_id, d->actor.user_id) != 0 && dom_actor_is_integration(d))
		return err_set(ERR_NOT_FOUND, "user not found");
	if (d->actor.user_id && strcmp(user_id, d->actor.user_id) != 0) {
		if ((rc = store_users_share_org(d->tx, d->actor.user_id, user_id, &shared)))
			return rc;
		if (!shared)
			return err_set(ERR_NOT_FOUND, "user not found");
	}
	return store_user_get(d->tx, user_id, out);
}
