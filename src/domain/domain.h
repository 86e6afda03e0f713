/*
 * domain.h - the operations of the model, below the handlers and above the
 * store (DESIGN.md, "Shape of the program").
 *
 * DESIGN
 * Every domain function takes a `struct dom`: one store transaction, the
 * arena results are copied into, the actor the operation runs for, and the
 * server's settings. Never an HTTP request: handlers (api/), job workers
 * (jobs/), the site renderer and the CLI all call the same functions. A
 * domain function checks the actor's access once, for the operation as a
 * whole (404 when the actor may not learn the object exists, 403 when the
 * role is too low), applies the rules, calls the store, and returns plain
 * structs the caller serializes.
 *
 * Return values follow util/err.h: 0 or an ERR_* code with err_message() set.
 *
 * The actor's standing in an organization (role, team ownership, grants) is
 * loaded on first need and kept for the rest of the transaction; a domain
 * function that changes it (a grant to a creator) marks it stale.
 */
#ifndef DOCSD_DOMAIN_DOMAIN_H
#define DOCSD_DOMAIN_DOMAIN_H

#include <stdbool.h>

#include "model/access.h"
#include "model/model.h"
#include "server.h"
#include "store/store.h"
#include "util/arena.h"

/* Who an operation runs for. user_id NULL is docsd itself (jobs, the CLI):
 * admin in every organization. */
struct actor {
	const char *user_id;
	/* An installation token's installation (domain/integrations.h): the
	 * actor is the integration's user, limited to the integration's scopes
	 * over this installation's organization and selected spaces. NULL for
	 * everyone else. */
	const char *installation_id;
	/* The integration whose token authenticated the request (an integration
	 * token or an installation token), else NULL. Set by the router from the
	 * token row, never inferred from the user: domain/integration_access.c
	 * decides what such an actor may do. */
	const char *integration_id;
	int installation_selected; /* its space_selection is "selected" */
	/* The role its scopes give on content (integration_scope_role); its
	 * standing in the organization (org.role) is a guest's, so member-only
	 * operations (members, teams, ...) stay closed to it. */
	enum role installation_role;
	/* Its integration has space:metadata:write: it changes the settings of
	 * the spaces it reads (title, emoji, ...), never who reads them
	 * (dom_space_settings_need). */
	int installation_settings;
	/* Its role on the sites the admin selected (site:metadata:read: read),
	 * and whether its site_selection is "selected" (dom_installation_site_role). */
	enum role installation_site_role;
	int installation_sites_selected;
	/* The actor's standing in org_id, loaded by dom_enter_org(). */
	const char *org_id;
	struct membership org;
	struct access_ctx access; /* grants, loaded with the standing */
	int access_loaded;
};

struct dom {
	struct store_tx *tx;
	struct arena *arena;
	struct actor actor;
	const struct server *srv; /* public URL, limits; NULL in unit tests */
	/* A job was queued in d->tx (dom_jobs_queued): whoever commits d->tx
	 * wakes the job workers again after the commit (the router does). */
	bool jobs_queued;
	/* A personal token was deleted in d->tx (dom_token_revoke): whoever
	 * commits d->tx empties the token cache after the commit. */
	bool tokens_revoked;
};

/* Start a domain context for user_id (NULL: docsd itself) on an open transaction. */
void dom_init(struct dom *d, const struct server *srv, struct store_tx *tx, struct arena *a, const char *user_id);

/* A job was queued in d->tx: wake the idle job workers now, and mark d so
 * that whoever commits d->tx wakes them once more after the commit (the
 * first look may come before the job is visible). */
void dom_jobs_queued(struct dom *d);

/* The public URL every link in a response starts with ("" without a server). */
const char *dom_base_url(const struct dom *d);

/* ---- access (domain/access.c) ---- */

/* Load the actor's standing (role, team ownership, generation) in org_id;
 * no-op when loaded. A non-member gets ROLE_NONE, never an error. */
int dom_enter_org(struct dom *d, const char *org_id);
/* The actor's standing in org_id must satisfy `need` (model/roles.h): 404
 * for a non-member (the organization is not revealed), 403 below it. docsd
 * itself is admin of every organization that exists. Every organization
 * operation calls it once; the route table's flag is the dispatcher's early
 * check of the same rule (the member list's page cache needs it first). */
int dom_org_require(struct dom *d, const char *org_id, enum org_access need);
/* The standing plus the actor's grants in org_id, as model/access.c reads them. */
int dom_actor_access(struct dom *d, const char *org_id, const struct access_ctx **out);
/* Forget the loaded grants (after a change of the actor's own access). */
void dom_access_changed(struct dom *d);

/* The actor's effective role on a space / a collection / the inside of a
 * collection (NULL collection_id: the organization's top level). */
int dom_space_role(struct dom *d, const struct space *s, enum role *out);
int dom_collection_role(struct dom *d, const struct collection *c, enum role *out);
int dom_role_at(struct dom *d, const char *org_id, const char *collection_id, enum role *out);

/* Load a space / collection by id and require `need` (404 without read, 403
 * below need); out->access holds the actor's role. A deleted space loads. */
int dom_space_get(struct dom *d, const char *space_id, enum role need, struct space *out);
/* dom_space_get for an operation that changes what it read (the revision, a
 * change request's head or status, settings written back whole): the space's row stays locked until the
 * transaction ends (store_space_get_locked), so concurrent writers of one
 * space take turns and each sees what the one before wrote. Lock the space
 * before any of its change requests. */
int dom_space_get_locked(struct dom *d, const char *space_id, enum role need, struct space *out);
int dom_collection_get(struct dom *d, const char *collection_id, enum role need, struct collection *out);
/* The same, the collection's row locked until the transaction ends (a change
 * of settings read, changed and written back whole). */
int dom_collection_get_locked(struct dom *d, const char *collection_id, enum role need, struct collection *out);

/* A space whose content may change: live (deleted: 409) and not locked (403). */
int dom_space_editable(const struct space *s);

/* Filters for lists: each row's role from the actor's grants and the
 * organization's collection tree, loaded once per list (store_keep_fn). */
struct dom_list {
	struct dom *d;
	const struct access_ctx *ctx;
	struct collection_node *nodes;
	int nnodes;
};
int dom_list_init(struct dom *d, const struct access_ctx *ctx, const char *org_id, struct dom_list *l);
/* lr for a list of org_id whose rows bump the organization's generation when
 * they change (store.h, "List totals"): its total may be cached against the
 * generation the actor read in this transaction (none when the actor's
 * standing in org_id is not loaded, or for docsd itself). who: whose access
 * filters the rows (NULL: nobody's, every row counts). */
struct list_req dom_list_counted(const struct dom *d, const struct list_req *lr, const char *org_id, const char *who);
enum role dom_keep_space(void *list, void *item);
enum role dom_keep_collection(void *list, void *item);

/* ---- content (domain/content.c) ---- */
struct revision; /* model/revision.h */

/* A change request of space s (which the actor reads: dom_space_get first)
 * by id or by its number in the space; 404 when the space has none such. */
int dom_change_request_get(struct dom *d, const struct space *s, const char *id_or_number,
			   struct change_request *out);

/* The content an operation addresses: the space's current revision, a change
 * request's head (cr_key set: an id or number), or a revision of the space by
 * id (revision_id set). */
struct content_src {
	struct space space;
	struct change_request cr; /* when has_cr */
	int has_cr;
	const struct revision *rv;
};
int dom_content_source(struct dom *d, const char *space_id, const char *cr_key, const char *revision_id,
		       enum role need, struct content_src *out);

/* What a comment's target shows of a page of a revision (outdated false).
 * ERR_NOT_FOUND when the revision has no such page. */
struct comment_page; /* json/serialize_comments.h */
int dom_page_summary(struct dom *d, const char *revision_id, const char *page_id, struct comment_page *out);

#endif
