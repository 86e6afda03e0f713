#include "model/access.h"
#include "util/err.h"

#include <stdlib.h>
#include <string.h>

static int grant_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct access_grant *)elem)->target);
}

static enum role granted(const struct access_ctx *c, const char *id)
{
	const struct access_grant *g;

	if (!c->ngrants || !id)
		return ROLE_GUEST;
	g = bsearch(id, c->grants, (size_t)c->ngrants, sizeof(*g), grant_cmp);
	return g ? g->role : ROLE_GUEST;
}

enum role access_role(const struct access_ctx *c, const struct access_node *chain, int n)
{
	/* 1. admins everywhere, outsiders nowhere */
	if (c->org_role == ROLE_NONE || c->org_role == ROLE_ADMIN)
		return c->org_role;
	for (int i = 0; i < n; i++) {
		/* 2. the object's own grants (a grant is read or more) */
		enum role g = granted(c, chain[i].id);
		if (g >= ROLE_READ)
			return g;
		/* 3. its level, for members; it ends the walk for everyone */
		if (chain[i].level != LEVEL_INHERIT)
			return c->org_role >= ROLE_READ ? (enum role)chain[i].level : ROLE_GUEST;
		/* 4. else the parent, nearest first */
	}
	/* 5. the member's own role; a guest's is ROLE_GUEST */
	return c->org_role;
}

int access_check(enum role have, enum role need, const char *what)
{
	if (have < ROLE_READ)
		return err_set(ERR_NOT_FOUND, "%s not found", what);
	if (have < need)
		return err_set(ERR_FORBIDDEN, "you need the %s role on this %s", role_name(need), what);
	return 0;
}

const char *level_name(int level)
{
	return level == LEVEL_INHERIT ? "inherit" : role_name((enum role)level);
}

void space_permissions(struct space_permissions *out, enum role role, bool locked)
{
	out->view = role >= ROLE_READ;
	out->access = role >= ROLE_READ;
	out->admin = role >= ACCESS_MANAGE;
	out->view_invite_links = role >= ACCESS_MANAGE;
	/* A locked space takes no edits from anyone until it is unlocked. */
	out->edit = role >= ROLE_EDIT && !locked;
	out->trigger_git_sync = role >= ROLE_EDIT && !locked;
	out->comment = role >= ROLE_COMMENT;
	out->merge = role >= ACCESS_MERGE && !locked;
	out->review = role >= ACCESS_MERGE;
	/* Integrations belong to the organization: its admins (or an admin grant). */
	out->install_integration = role >= ROLE_ADMIN;
}

void collection_permissions(struct collection_permissions *out, enum role role)
{
	out->view = role >= ROLE_READ;
	out->admin = role >= ACCESS_MANAGE;
	out->view_invite_links = role >= ACCESS_MANAGE;
	out->create = role >= ROLE_CREATE;
}
