/*
 * sites.c - docs sites (domain/sites.h).
 */
#include "domain/sites.h"

#include "util/err.h"

#include <string.h>

int dom_site_get(struct dom *d, const char *org_id, const char *site_id, enum role need, bool lock,
		 struct site *out)
{
	enum role role;
	int rc;

	if ((rc = dom_org_require(d, org_id, ORG_ACCESS_VIEW)))
		return rc;
	rc = lock ? store_site_get_locked(d->tx, site_id, out) : store_site_get(d->tx, site_id, out);
	if (rc)
		return rc;
	if (strcmp(out->org_id, org_id) != 0)
		return err_set(ERR_NOT_FOUND, "site not found");
	/* The site role is the member's own organization role (guests: none). */
	role = d->actor.org.role;
	if (role < ROLE_READ)
		return err_set(ERR_NOT_FOUND, "site not found");
	if (role < need)
		return err_set(ERR_FORBIDDEN, "you need the %s role on this site", role_name(need));
	out->access = role;
	return 0;
}

int dom_site_create(struct dom *d, const char *org_id, const struct site_input *in, struct site *out)
{
	int rc;

	if ((rc = dom_org_require(d, org_id, ORG_ACCESS_VIEW)))
		return rc;
	if (d->actor.org.role < ROLE_CREATE)
		return err_set(ERR_FORBIDDEN, "you need the create role in this organization to create a site");
	memset(out, 0, sizeof(*out));
	out->org_id = org_id;
	out->type = in->type ? in->type : "basic";
	out->title = in->title ? in->title : "Untitled site";
	out->visibility = in->visibility ? in->visibility : "public";
	out->agents_context = "included";
	if ((rc = store_site_create(d->tx, out)))
		return rc;
	/* TODO(sites-api): in->spaces through dom_site_space_add. */
	return store_site_get(d->tx, out->id, out) ? -1 : (out->access = d->actor.org.role, 0);
}
