/*
 * access.c - the actor's standing in an organization and role on content.
 *
 * The rules are model/access.c's (pure); this file loads what they read: the
 * actor's membership and grants (once per organization and transaction) and
 * the chain of collections above an object.
 */
#include "domain/domain.h"
#include "domain/integrations.h"
#include "util/err.h"

#include <stdlib.h>
#include <string.h>

void dom_init(struct dom *d, const struct server *srv, struct store_tx *tx, struct arena *a, const char *user_id)
{
	memset(d, 0, sizeof(*d));
	d->srv = srv;
	d->tx = tx;
	d->arena = a;
	d->actor.user_id = user_id;
}

void dom_jobs_queued(struct dom *d)
{
	d->jobs_queued = true;
	server_kick_jobs(d->srv);
}

const char *dom_base_url(const struct dom *d)
{
	return d->srv ? d->srv->public_url : "";
}

/* An installation token's standing in org_id: in the installation's
 * organization a guest's (the organization's member-only operations stay
 * closed) with, on content, the role its integration's scopes give
 * (integration_scope_role, kept in actor.installation_role); nothing
 * elsewhere or once the installation is gone (uninstalling revokes at once:
 * installation tokens are looked up on every request). Never admin, and
 * generation 0: no response cache holds what it reads. */
static int installation_standing(struct dom *d, const char *org_id, struct membership *out)
{
	struct integration_installation in;
	struct integration it;
	int rc = store_installation_get(d->tx, NULL, d->actor.installation_id, &in);

	memset(out, 0, sizeof(*out));
	out->role = ROLE_NONE;
	if (rc == ERR_NOT_FOUND || (rc == 0 && (strcmp(in.org_id, org_id) != 0 || strcmp(in.status, "active") != 0)))
		return 0;
	if (rc || (rc = store_integration_by_id(d->tx, in.integration_id, &it)))
		return rc;
	d->actor.installation_role = integration_scope_role(it.scopes);
	d->actor.installation_settings = integration_scope_has(it.scopes, "space:metadata:write");
	d->actor.installation_site_role = integration_site_scope_role(it.scopes);
	/* An integration without scopes stands nowhere; one with scopes knows the
	 * organization it is installed in, even when none of them reads content
	 * (site:script:inject). */
	out->role = integration_scope_has(it.scopes, NULL) ? ROLE_GUEST : ROLE_NONE;
	out->org_default = ROLE_GUEST;
	d->actor.installation_selected = strcmp(in.space_selection, "selected") == 0;
	d->actor.installation_sites_selected = !in.site_selection || strcmp(in.site_selection, "selected") == 0;
	return 0;
}

int dom_enter_org(struct dom *d, const char *org_id)
{
	struct actor *a = &d->actor;
	int rc;

	if (a->org_id && strcmp(a->org_id, org_id) == 0)
		return 0;
	if (!a->user_id) {
		/* docsd itself: admin everywhere. */
		memset(&a->org, 0, sizeof(a->org));
		a->org.role = ROLE_ADMIN;
	} else if (a->installation_id) {
		if ((rc = installation_standing(d, org_id, &a->org)))
			return rc;
	} else if (a->integration_id) {
		/* An integration token stands nowhere: it acts on the integration's
		 * installations (domain/integration_access.c), never on an
		 * organization's content, whatever its user was given. */
		memset(&a->org, 0, sizeof(a->org));
		a->org.role = ROLE_NONE;
	} else if ((rc = store_membership(d->tx, org_id, a->user_id, &a->org))) {
		return rc;
	}
	a->org_id = org_id;
	a->access_loaded = 0;
	return 0;
}

int dom_actor_access(struct dom *d, const char *org_id, const struct access_ctx **out)
{
	struct actor *a = &d->actor;
	int rc;

	if ((rc = dom_enter_org(d, org_id)))
		return rc;
	*out = &a->access;
	if (a->access_loaded)
		return 0;
	a->access = (struct access_ctx){ .org_role = a->org.role };
	/* Admins and outsiders do not need their grants looked at. */
	if (a->org.role != ROLE_ADMIN && a->org.role != ROLE_NONE &&
	    (rc = store_access_grants(d->tx, org_id, a->user_id, (struct access_grant **)&a->access.grants,
				      &a->access.ngrants)))
		return rc;
	a->access_loaded = 1;
	return 0;
}

int dom_org_require(struct dom *d, const char *org_id, enum org_access need)
{
	struct org o;
	int rc;

	if (!org_id)
		return err_set(ERR_NOT_FOUND, "organization not found");
	if ((rc = dom_enter_org(d, org_id)))
		return rc;
	/* docsd itself is admin of every organization that exists. */
	if (!d->actor.user_id && (rc = store_org_get(d->tx, org_id, &o)))
		return rc;
	return org_access_check(d->actor.org.role, need);
}

void dom_access_changed(struct dom *d)
{
	d->actor.access_loaded = 0;
}

/* chain[0..n) is the object itself (when a space); the collections from
 * parent_id up follow. */
static int role_of(struct dom *d, const char *org_id, struct access_node *chain, int n, const char *parent_id,
		   enum role *out)
{
	const struct access_ctx *ctx;
	int more = 0, rc;

	if ((rc = dom_actor_access(d, org_id, &ctx)))
		return rc;
	/* An installation token: what the rule gives it on this space or
	 * collection (domain/integration_access.c), never grants or levels. */
	if (d->actor.installation_id)
		return dom_installation_role(d, n == 1 ? chain[0].id : NULL, out);
	if (ctx->org_role == ROLE_ADMIN || ctx->org_role == ROLE_NONE) {
		*out = ctx->org_role;
		return 0;
	}
	if (parent_id && (rc = store_collection_chain(d->tx, parent_id, chain + n, &more)))
		return rc;
	*out = access_role(ctx, chain, n + more);
	return 0;
}

int dom_space_role(struct dom *d, const struct space *s, enum role *out)
{
	struct access_node chain[ACCESS_MAX_DEPTH + 1] = { { s->id, s->default_level } };

	return role_of(d, s->org_id, chain, 1, s->parent_id, out);
}

int dom_collection_role(struct dom *d, const struct collection *c, enum role *out)
{
	struct access_node chain[ACCESS_MAX_DEPTH + 1];

	return role_of(d, c->org_id, chain, 0, c->id, out);
}

int dom_role_at(struct dom *d, const char *org_id, const char *collection_id, enum role *out)
{
	struct access_node chain[ACCESS_MAX_DEPTH + 1];
	int rc;

	if (!collection_id) {
		if ((rc = dom_enter_org(d, org_id)))
			return rc;
		*out = d->actor.org.role;
		return 0;
	}
	return role_of(d, org_id, chain, 0, collection_id, out);
}

static int space_get(struct dom *d, const char *space_id, enum role need, int locked, struct space *out)
{
	int rc = locked ? store_space_get_locked(d->tx, space_id, out) : store_space_get(d->tx, space_id, out);

	if (rc || (rc = dom_space_role(d, out, &out->access)))
		return rc;
	return access_check(out->access, need, "space");
}

int dom_space_get(struct dom *d, const char *space_id, enum role need, struct space *out)
{
	return space_get(d, space_id, need, 0, out);
}

int dom_space_get_locked(struct dom *d, const char *space_id, enum role need, struct space *out)
{
	return space_get(d, space_id, need, 1, out);
}

static int collection_get(struct dom *d, const char *collection_id, enum role need, int locked,
			  struct collection *out)
{
	int rc = locked ? store_collection_get_locked(d->tx, collection_id, out)
			: store_collection_get(d->tx, collection_id, out);

	if (rc || (rc = dom_collection_role(d, out, &out->access)))
		return rc;
	return access_check(out->access, need, "collection");
}

int dom_collection_get(struct dom *d, const char *collection_id, enum role need, struct collection *out)
{
	return collection_get(d, collection_id, need, 0, out);
}

int dom_collection_get_locked(struct dom *d, const char *collection_id, enum role need, struct collection *out)
{
	return collection_get(d, collection_id, need, 1, out);
}

int dom_space_editable(const struct space *s)
{
	if (s->deleted_at)
		return err_set(ERR_CONFLICT, "the space is deleted; restore it first");
	if (s->edit_mode && strcmp(s->edit_mode, "locked") == 0)
		return err_set(ERR_FORBIDDEN, "the space is locked (editMode: locked): its content cannot be changed");
	return 0;
}

int dom_list_init(struct dom *d, const struct access_ctx *ctx, const char *org_id, struct dom_list *l)
{
	memset(l, 0, sizeof(*l));
	l->d = d;
	l->ctx = ctx;
	if (ctx->org_role == ROLE_ADMIN || ctx->org_role == ROLE_NONE)
		return 0;
	return store_collection_nodes(d->tx, org_id, &l->nodes, &l->nnodes);
}

struct list_req dom_list_counted(const struct dom *d, const struct list_req *lr, const char *org_id, const char *who)
{
	struct list_req l = *lr;

	if (d->actor.user_id && d->actor.org_id && strcmp(d->actor.org_id, org_id) == 0)
		l.generation = d->actor.org.generation;
	l.count_who = who;
	return l;
}

static int node_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct collection_node *)elem)->id);
}

/* Walk from collection_id up through the loaded tree into chain[n..]. */
static int tree_chain(const struct dom_list *l, const char *collection_id, struct access_node *chain, int n)
{
	while (collection_id && n < ACCESS_MAX_DEPTH) {
		const struct collection_node *c =
			bsearch(collection_id, l->nodes, (size_t)l->nnodes, sizeof(*c), node_cmp);
		if (!c)
			break;
		chain[n].id = c->id;
		chain[n].level = c->level;
		n++;
		collection_id = c->parent_id;
	}
	return n;
}

enum role dom_keep_space(void *list, void *item)
{
	struct dom_list *l = list;
	struct space *s = item;
	struct access_node chain[ACCESS_MAX_DEPTH + 1] = { { s->id, s->default_level } };

	if (l->ctx->org_role == ROLE_ADMIN || l->ctx->org_role == ROLE_NONE)
		return s->access = l->ctx->org_role;
	/* An installation token: as dom_space_role decides (role_of). */
	if (l->d->actor.installation_id) {
		enum role r;
		if (dom_space_role(l->d, s, &r))
			r = ROLE_NONE;
		return s->access = r;
	}
	return s->access = access_role(l->ctx, chain, tree_chain(l, s->parent_id, chain, 1));
}

enum role dom_keep_collection(void *list, void *item)
{
	struct dom_list *l = list;
	struct collection *c = item;
	struct access_node chain[ACCESS_MAX_DEPTH + 1];

	if (l->ctx->org_role == ROLE_ADMIN || l->ctx->org_role == ROLE_NONE)
		return c->access = l->ctx->org_role;
	if (l->d->actor.installation_id) {
		enum role r;
		if (dom_installation_role(l->d, NULL, &r))
			r = ROLE_NONE;
		return c->access = r;
	}
	return c->access = access_role(l->ctx, chain, tree_chain(l, c->id, chain, 0));
}
