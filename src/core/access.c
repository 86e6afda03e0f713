#include "core/access.h"
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
	enum role best = ROLE_GUEST, level = ROLE_GUEST;
	int have_level = 0;

	if (c->org_role == ROLE_NONE)
		return ROLE_NONE;
	if (c->org_role == ROLE_ADMIN)
		return ROLE_ADMIN;
	for (int i = 0; i < n; i++) {
		enum role g = granted(c, chain[i].id);
		if (g > best)
			best = g;
		if (!have_level && chain[i].level != LEVEL_INHERIT) {
			level = (enum role)chain[i].level;
			have_level = 1;
		}
	}
	if (c->org_role >= ROLE_READ) {
		if (!have_level)
			level = c->org_default;
		if (level > best)
			best = level;
	}
	return best;
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
	out->admin = role == ROLE_ADMIN;
	out->view_invite_links = role == ROLE_ADMIN;
	/* A locked space takes no edits from anyone until an admin unlocks it. */
	out->edit = role >= ROLE_EDIT && !locked;
	out->trigger_git_sync = role >= ROLE_EDIT && !locked;
	out->comment = role >= ROLE_COMMENT;
	out->merge = role >= ROLE_REVIEW && !locked;
	out->review = role >= ROLE_REVIEW;
	out->install_integration = role == ROLE_ADMIN;
}

void collection_permissions(struct collection_permissions *out, enum role role)
{
	out->view = role >= ROLE_READ;
	out->admin = role == ROLE_ADMIN;
	out->view_invite_links = role == ROLE_ADMIN;
	out->create = role >= ROLE_CREATE;
}
