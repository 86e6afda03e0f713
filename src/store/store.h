/*
 * store.h - the only storage interface of docsd.
 *
 * DESIGN
 * A `struct store` is a pool of connections to one engine (SQLite file or
 * PostgreSQL URL; see driver.h for the engine table). A request leases one
 * connection for its whole life as a transaction (`struct store_tx`), so each
 * request is exactly one transaction: store_tx_begin() .. store_tx_commit(), or
 * store_tx_rollback() on any error. Every store_* domain function takes the tx,
 * runs SQL written once for both engines with bound parameters, and copies what
 * it returns into tx->arena; nothing returned outlives the request's arena.
 *
 * Return values follow util/err.h: 0, ERR_NOT_FOUND, ERR_CONFLICT, or
 * ERR_INTERNAL with the engine's message (logged, never shown to a client).
 *
 * Lists take a struct list_req and fetch limit + 1 rows: the extra row only says
 * that a next page exists, and the cursor is built from the last row returned.
 */
#ifndef DOCSD_STORE_STORE_H
#define DOCSD_STORE_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/access.h"
#include "model/cursor.h"
#include "model/model.h"
#include "store/driver.h"
#include "util/arena.h"

struct store;

struct store_tx {
	struct store *store;
	const struct db_driver *drv;
	struct db_conn *conn;
	struct arena *arena;
	int write;
	int open;
	int serialized; /* holds the store's writer mutex */
	/* Revisions this transaction uses (store_revision_get), each once, as
	 * many as it reads: a growing array (malloc) released when the
	 * transaction ends. revcache is the store's cache (may be NULL). */
	struct revcache *revcache;
	struct revision **held;
	int nheld, held_cap;
};

/* Open a pool of `nconn` connections and run the migrations. Exactly one of
 * sqlite_path / pg_url is non-NULL. */
int store_open(struct store **out, const char *sqlite_path, const char *pg_url, int nconn);
void store_close(struct store *s);
const char *store_engine(const struct store *s);

int store_tx_begin(struct store *s, struct store_tx *tx, int write, struct arena *a);
int store_tx_commit(struct store_tx *tx);
void store_tx_rollback(struct store_tx *tx);
/* fn in a transaction of its own: begun, then committed when fn returns 0
 * and write is set, rolled back otherwise (a read transaction is always
 * rolled back). Returns fn's code, or the begin's or commit's. The one copy
 * of begin/commit/rollback for code that runs outside a request (jobs). */
int store_tx_run(struct store *s, int write, struct arena *a, int (*fn)(struct store_tx *tx, void *arg), void *arg);

/* Serialize with every other transaction that locks the same organization
 * (for invariants such as "an organization keeps at least one admin", and the
 * positions of its spaces and collections: store_position_for). Take it before
 * writing any row of the organization (store_org_bump locks the org's row). */
int store_org_lock(struct store_tx *tx, const char *org_id);

/* Apply pending numbered migrations (called by store_open; exposed for `docsd migrate`). */
int store_migrate(struct store *s);

/*
 * List totals (GitBook's List.count: "Total count of objects in the list").
 * A list function whose lr->total is non-NULL also stores there how many rows
 * the whole list has for the same filters and the same viewer, wherever the
 * page starts (st_total / st_total_keep in internal.h). Counting must not read
 * every row on every request, so:
 *  - a list bounded by an indexed filter (one space's comments, one site's
 *    share links, one user's organizations) runs one COUNT(*) per request;
 *  - a list of an organization whose rows bump the organization's generation
 *    when they change (store_org_bump: members, teams, spaces, collections,
 *    grants, sites) sets lr->generation to the generation the caller read in
 *    this transaction (dom_list_count in domain.h); its count is then kept in
 *    the store's count cache under (statement, parameters, count_who) and
 *    reused while the generation is unchanged. On PostgreSQL the generation
 *    is in the shared database, so several docsd processes stay right;
 *  - an access-filtered list (rows kept by a store_keep_fn) names whose
 *    access filters it in count_who (the caller, or the member whose spaces
 *    are listed): its count is computed once per (viewer, generation, filters)
 *    by reading the rows, then served from the cache.
 */
struct list_req {
	int limit;                   /* 1..1000 */
	int desc;                    /* 1 = descending */
	const struct cursor *after;  /* NULL: first page */
	int64_t *total;              /* non-NULL: store the list's total there */
	int64_t generation;          /* > 0: the organization's generation; the total may be cached */
	const char *count_who;       /* access-filtered lists: whose access filters the rows */
};

/* ---- settings ---- */
/* Server-wide secret for signing (created on first use, kept in the database so
 * every docsd process behind a load balancer signs alike). 32 random bytes, hex. */
int store_secret_get(struct store_tx *tx, const char *name, const char **out);

/* ---- users and tokens ---- */
int store_user_create(struct store_tx *tx, const char *email, const char *display_name, struct user *out);
int store_user_get(struct store_tx *tx, const char *id, struct user *out);
int store_user_get_by_email(struct store_tx *tx, const char *email, struct user *out);
/* token_hash: sha256 hex of the token; the token itself is never stored. */
int store_token_create(struct store_tx *tx, const char *user_id, const char *token_hash);
int store_token_user(struct store_tx *tx, const char *token_hash, const char **user_id_out);
/* The user of a personal API token (the whole row, into *user_out) and
 * the user's token generation (users.token_gen, bumped in the transaction
 * of every revocation of their tokens: http/tokens.c's cache keeps an entry
 * only while it is unchanged). ERR_NOT_FOUND when no API token has it. */
int store_token_owner(struct store_tx *tx, const char *token_hash, struct user *user_out, int64_t *gen_out);
/* user_id's row and token generation; ERR_NOT_FOUND when the user is gone. */
int store_token_gen(struct store_tx *tx, const char *user_id, struct user *user_out, int64_t *gen_out);
/* Revoke every personal API token of user_id (a password reset), *revoked
 * of them (may be NULL), bumping the generation. */
int store_tokens_revoke_user(struct store_tx *tx, const char *user_id, int64_t *revoked);
/* Personal tokens (the web interface's /settings/tokens): a token is named by
 * the first 16 hex digits of its hash (never the token, and not enough of the
 * hash to matter); its name is set once after store_token_create. */
struct user_token {
	const char *id; /* the hash's first 16 hex digits */
	const char *name;
	int64_t created_at;
};
int store_token_set_name(struct store_tx *tx, const char *token_hash, const char *name);
/* user_id's tokens, newest first (bounded by the caller's limit). */
int store_token_list(struct store_tx *tx, const char *user_id, int limit, struct user_token **out, int *n);
/* Delete user_id's token named id: ERR_NOT_FOUND when user_id has none so named. */
int store_token_delete(struct store_tx *tx, const char *user_id, const char *id);
int store_users_share_org(struct store_tx *tx, const char *a, const char *b, bool *out);

/* ---- organizations ---- */
int store_org_create(struct store_tx *tx, struct org *org, const char *admin_user_id);
int store_org_get(struct store_tx *tx, const char *id, struct org *out);
/* The same, for a change of settings read, changed and written back whole:
 * the row stays locked until the transaction ends (see store_space_get_locked). */
int store_org_get_locked(struct store_tx *tx, const char *id, struct org *out);
int store_org_update(struct store_tx *tx, const struct org *org);
int store_org_set_email_domains(struct store_tx *tx, const char *org_id, const char *const *domains, int n);
/* ERR_CONFLICT when another organization uses the hostname. */
int store_org_hostname_check(struct store_tx *tx, const char *hostname, const char *org_id);
int store_orgs_for_user(struct store_tx *tx, const char *user_id, const struct list_req *lr,
			struct org **items, int *n, char **next);
int store_orgs_by_email_domain(struct store_tx *tx, const char *domain, struct org **items, int *n);
/* Mark the organization's member list changed: response caches keyed on the
 * generation (http/pagecache.c) drop what they hold for it. Every store
 * function that changes a member, a member's teams or their user row calls it. */
int store_org_bump(struct store_tx *tx, const char *org_id);
/* The caller's standing in an org: role (ROLE_NONE if not a member), team
 * ownership, and the org's generation. */
int store_membership(struct store_tx *tx, const char *org_id, const char *user_id, struct membership *out);

/* ---- members ---- */
struct member_filter {
	const char *role;   /* a role name, "guest", or NULL */
	const char *search; /* substring of displayName or email, or NULL */
	int by_last_seen;   /* sort=lastSeenAt: only members seen at least once */
};
int store_member_get(struct store_tx *tx, const char *org_id, const char *user_id, struct member *out);
int store_members_list(struct store_tx *tx, const char *org_id, const struct member_filter *f,
		       const struct list_req *lr, struct member **items, int *n, char **next);
/* Insert a membership; *added = false when the user was already a member. */
int store_member_add(struct store_tx *tx, const char *org_id, const char *user_id, enum role role, int sso, bool *added);
int store_member_set_role(struct store_tx *tx, const char *org_id, const char *user_id, enum role role);
int store_member_set_sso(struct store_tx *tx, const char *org_id, const char *user_id);
int store_member_touch(struct store_tx *tx, const char *org_id, const char *user_id, int64_t now);
/* *removed = false when the user was not a member. Team memberships in the org go too. */
int store_member_remove(struct store_tx *tx, const char *org_id, const char *user_id, bool *removed);
int store_admin_count(struct store_tx *tx, const char *org_id, int64_t *out);

/* ---- teams ---- */
int store_team_create(struct store_tx *tx, struct team *team);
int store_team_get(struct store_tx *tx, const char *org_id, const char *team_id, struct team *out);
int store_team_rename(struct store_tx *tx, const char *org_id, const char *team_id, const char *title);
int store_team_delete(struct store_tx *tx, const char *org_id, const char *team_id, bool *removed);
struct team_filter {
	const char *title;     /* case-insensitive substring, or NULL */
	const char *owner;     /* only teams this user owns, or NULL */
};
int store_teams_list(struct store_tx *tx, const char *org_id, const struct team_filter *f,
		     const struct list_req *lr, struct team **items, int *n, char **next);
/* Upsert a team membership with a role. */
int store_team_member_set(struct store_tx *tx, const char *team_id, const char *org_id, const char *user_id, enum team_role role);
int store_team_member_remove(struct store_tx *tx, const char *team_id, const char *user_id, bool *removed);
/* *role_out = -1 when the user is not in the team. */
int store_team_member_role(struct store_tx *tx, const char *team_id, const char *user_id, int *role_out);

struct team_member_row {
	struct member member;
	enum team_role team_role;
	int64_t added_at; /* the list's sort key */
};
int store_team_members_list(struct store_tx *tx, const char *org_id, const char *team_id,
			    const struct list_req *lr, struct team_member_row **items, int *n, char **next);

struct member_team_row {
	struct team team;
	enum team_role team_role;
};
int store_member_teams_list(struct store_tx *tx, const char *org_id, const char *user_id, const char *title,
			    const struct list_req *lr, struct member_team_row **items, int *n, char **next);

/* ---- content: collections, spaces and the grants on them ----
 * Every function here that changes a space, a collection or a grant bumps the
 * organization's generation (store_org_bump): the admins' list pages of spaces
 * and collections are cached on it (ROUTE_CACHE_ADMIN). So must the content
 * issue's writers of the counts a Space shows (comments, change requests). */

/* A list filter run on each row before it is kept: returns the caller's role
 * on the item (and may record it in the item); rows below ROLE_READ are
 * skipped. NULL keeps every row. */
typedef enum role (*store_keep_fn)(void *ctx, void *item);

/* The user's grants in an organization, own and through teams: the highest role
 * per target, sorted by target (strcmp), as model/access.c reads them. */
int store_access_grants(struct store_tx *tx, const char *org_id, const char *user_id,
			struct access_grant **out, int *n);
/* A collection and the collections above it, nearest first (at most
 * ACCESS_MAX_DEPTH); *n = 0 when it does not exist. */
int store_collection_chain(struct store_tx *tx, const char *collection_id, struct access_node *out, int *n);
/* Every collection of an organization with its parent, sorted by id (strcmp):
 * the chains of a whole list page come from it. */
struct collection_node {
	const char *id;
	const char *parent_id;
	int level;
};
int store_collection_nodes(struct store_tx *tx, const char *org_id, struct collection_node **out, int *n);

/* Where an item lands among the items (spaces and collections) of parent_id
 * (NULL: the top level of org_id): before or after the sibling ref_id, or last
 * when ref_id is NULL. self_id is the item being placed (never its own
 * reference). ERR_INVALID when ref_id is not an item of that parent.
 * *already (may be NULL): the item already sits there. Takes the
 * organization's lock (store_org_lock) until the transaction ends, so the
 * position stays free until the caller writes it. */
int store_position_for(struct store_tx *tx, const char *org_id, const char *parent_id, const char *ref_id,
		       int after, const char *self_id, int64_t *out, int *already);

int store_collection_create(struct store_tx *tx, struct collection *c);
int store_collection_get(struct store_tx *tx, const char *id, struct collection *out);
/* The same, the row locked until the transaction ends (see store_space_get_locked). */
int store_collection_get_locked(struct store_tx *tx, const char *id, struct collection *out);
/* title, description, default_level */
int store_collection_update(struct store_tx *tx, const struct collection *c);
/* Delete a collection and the collections in it; their spaces become deleted
 * spaces (restorable for 7 days, at the top level). *removed = false when it
 * did not exist. */
int store_collection_delete(struct store_tx *tx, const char *id, bool *removed);
/* Levels in the subtree rooted at id (1: no child collections). */
int store_collection_height(struct store_tx *tx, const char *id, int *out);
int store_collection_place(struct store_tx *tx, const struct collection *c, const char *parent_id, int64_t position);
/* Move the collection with everything in it to another organization's top level. */
int store_collection_transfer(struct store_tx *tx, const struct collection *c, const char *org_id, int64_t position);
/* nested = 0: top-level collections only. Sorted by creation. */
int store_collections_list(struct store_tx *tx, const char *org_id, int nested, const struct list_req *lr,
			   store_keep_fn keep, void *ctx, struct collection **items, int *n, char **next);

/* Deleted spaces can be restored this long; the purge job (jobs/) removes them after. */
#define SPACE_RETENTION_MS (7LL * 24 * 3600 * 1000)

int store_space_create(struct store_tx *tx, struct space *s);
/* Live and deleted spaces (deleted_at set) until the purge removes them. */
int store_space_get(struct store_tx *tx, const char *id, struct space *out);
/* The same, for a transaction that will change what it read (the revision, a
 * change request of the space, the counts): the row stays locked until the
 * transaction ends, so concurrent writers of one space take turns and each
 * reads what the one before wrote (driver.h, DB_LOCK_ROW). Lock order: the
 * space before its change requests. */
int store_space_get_locked(struct store_tx *tx, const char *id, struct space *out);
/* title, emoji, icon, visibility, edit_mode, language, default_level, merge_rules */
int store_space_update(struct store_tx *tx, const struct space *s);
/* Marks the space deleted; *deleted = false when it was already. */
int store_space_delete(struct store_tx *tx, const struct space *s, bool *deleted);
int store_space_restore(struct store_tx *tx, const struct space *s);
int store_space_place(struct store_tx *tx, const struct space *s, const char *parent_id, int64_t position);
int store_space_transfer(struct store_tx *tx, const struct space *s, const char *org_id, const char *parent_id,
			 int64_t position);
/* A copy of the space's settings and grants, placed right after it. */
int store_space_duplicate(struct store_tx *tx, const struct space *src, struct space *out);
/* Remove spaces deleted before `cutoff` for good. */
int store_spaces_purge(struct store_tx *tx, int64_t cutoff, int64_t *removed);

enum space_scope { SPACES_OF_ORG, SPACES_IN_COLLECTION };
/* Live spaces of an organization (sorted by creation) or of one collection
 * (sorted by position). */
int store_spaces_list(struct store_tx *tx, enum space_scope scope, const char *org_id, const char *collection_id,
		      const struct list_req *lr, store_keep_fn keep, void *ctx, struct space **items, int *n,
		      char **next);

enum grant_kind { GRANT_USER, GRANT_TEAM };
/* Upsert a grant of `role` on a space or collection. */
int store_grant_set(struct store_tx *tx, const char *org_id, const char *space_id, const char *collection_id,
		    enum grant_kind kind, const char *principal_id, enum role role);
/* ERR_NOT_FOUND when there is no such grant. */
int store_grant_update(struct store_tx *tx, const char *org_id, const char *target_id, enum grant_kind kind,
		       const char *principal_id, enum role role);
int store_grant_remove(struct store_tx *tx, const char *org_id, const char *target_id, enum grant_kind kind,
		       const char *principal_id, bool *removed);
int store_grants_list(struct store_tx *tx, const char *target_id, enum grant_kind kind, const struct list_req *lr,
		      struct grant_row **items, int *n, char **next);

/* ---- link invites ---- */
int store_invite_create(struct store_tx *tx, struct invite *inv);
int store_invite_get(struct store_tx *tx, const char *org_id, const char *id, struct invite *out);
int store_invite_set_role(struct store_tx *tx, const char *org_id, const char *id, enum role role);
int store_invite_delete(struct store_tx *tx, const char *org_id, const char *id, bool *removed);
int store_invites_list(struct store_tx *tx, const char *org_id, const struct list_req *lr,
		       struct invite **items, int *n, char **next);

/* ---- SAML providers ---- */
/* Sets sp->id and sp->created_at. sp->default_team must be a team of the org. */
int store_saml_create(struct store_tx *tx, struct saml_provider *sp);
/* Fills out->team when the provider has a default team. */
int store_saml_get(struct store_tx *tx, const char *org_id, const char *id, struct saml_provider *out);
/* The same, the provider's row locked until the transaction ends (see
 * store_space_get_locked): a change read, made and written back whole. */
int store_saml_get_locked(struct store_tx *tx, const char *org_id, const char *id, struct saml_provider *out);
/* Writes every column from sp (read, change, write back). */
int store_saml_update(struct store_tx *tx, const struct saml_provider *sp);
/* SAML sign-in (store/saml_sso.c, app/saml.c): a provider by its id alone
 * (its start and ACS URLs name no organization). */
int store_saml_get_by_id(struct store_tx *tx, const char *id, struct saml_provider *out);
/* Record an AuthnRequest docsd issued (expired ones are purged first). */
/* Record an AuthnRequest docsd issued (expired ones are purged first, and
 * past max_pending of the provider's the oldest go): nonce_hash is the
 * SHA-256 (hex) of the browser's nonce; link_user_id the signed-in user a
 * link request is for, or NULL for a sign-in. */
int store_saml_request_add(struct store_tx *tx, const char *id, const char *provider_id, const char *next,
			   const char *nonce_hash, const char *link_user_id, int max_pending, int64_t now,
			   int64_t expires_at);
struct saml_request {
	const char *next;         /* or NULL */
	const char *nonce_hash;   /* NULL for a request made before migration 21 */
	const char *link_user_id; /* NULL: a sign-in */
};
/* Consume request id of provider_id, still valid at now: 0 with *out,
 * ERR_NOT_FOUND when unknown, used, expired or another provider's. */
int store_saml_request_take(struct store_tx *tx, const char *id, const char *provider_id, int64_t now,
			    struct saml_request *out);
/* Remember an accepted assertion until expires_at: ERR_CONFLICT when it was
 * accepted before (a replay). */
int store_saml_assertion_use(struct store_tx *tx, const char *provider_id, const char *assertion_id,
			     int64_t now, int64_t expires_at);
int store_saml_delete(struct store_tx *tx, const char *org_id, const char *id, bool *removed);
/* Oldest first (created_at, id). */
int store_saml_list(struct store_tx *tx, const char *org_id, const struct list_req *lr,
		    struct saml_provider **items, int *n, char **next);
/* SAML identities (store/saml_sso.c, domain/saml_sso.h): the user an
 * identity (provider, subject) is: 0 with *user_id, ERR_NOT_FOUND. */
int store_saml_identity_get(struct store_tx *tx, const char *provider_id, const char *subject, const char **user_id);
/* Record one; how is "created" or "linked". ERR_CONFLICT when the subject is
 * another user's already, or the user has an identity of the provider. */
int store_saml_identity_add(struct store_tx *tx, const char *provider_id, const char *subject, const char *user_id,
			    const char *how, int64_t now);
int store_saml_identity_remove(struct store_tx *tx, const char *provider_id, const char *user_id, bool *removed);
/* The providers of the organizations user_id is a member of (at most 200),
 * with the user's identity of each. */
struct saml_link {
	const char *provider_id, *label, *org_id, *org_title;
	const char *how; /* "created", "linked" or NULL: none */
	bool active;     /* ssoURL, entityID and certificate set */
};
int store_saml_links_of_user(struct store_tx *tx, const char *user_id, struct saml_link **items, int *n);
/* Email domain verification: the organization's listed domains (at most
 * ORG_DOMAINS_MAX) with the token issued for each (NULL: none yet) and
 * when it was verified (0: not). */
struct domain_verification {
	const char *domain, *token;
	int64_t verified_at;
};
int store_domain_verifications(struct store_tx *tx, const char *org_id, struct domain_verification **items, int *n);
/* Issue token for (org, domain) unless one was: no-op when there is one. */
int store_domain_token_issue(struct store_tx *tx, const char *org_id, const char *domain, const char *token,
			     int64_t now);
/* Mark (org, domain) verified, if its token is still token: ERR_NOT_FOUND otherwise. */
int store_domain_mark_verified(struct store_tx *tx, const char *org_id, const char *domain, const char *token,
			       int64_t now);
/* Whether domain (lower case) is listed by org_id AND verified: 0 or 1 in *out. */
int store_domain_verified(struct store_tx *tx, const char *org_id, const char *domain, bool *out);

/* ---- content: revisions, page bodies, files (store/revisions.c) ---- */
struct revision;      /* model/revision.h */
struct revision_new;  /* model/revision.h */

/* The revision cache: built revisions (immutable) shared by every
 * transaction of the stores it is given to, bounded in bytes (the revisions'
 * approximate heap size). The least recently used revisions that no open
 * transaction holds are evicted to make room; a revision that does not fit
 * is served uncached (held by its transaction alone, freed when it ends).
 * Owned by the server context (or a tool, or a test): create it, hand it to
 * the store with store_set_revision_cache() before the first transaction,
 * and free it after store_close(). max_bytes 0: cache nothing. */
struct revcache;
int revcache_new(struct revcache **out, size_t max_bytes);
void revcache_free(struct revcache *c); /* accepts NULL */
struct revcache_stats {
	size_t bytes, max_bytes; /* cached now, and the budget */
	int64_t entries, hits, misses, evictions;
};
void revcache_stats(struct revcache *c, struct revcache_stats *out);
/* NULL (the default): every transaction builds the revisions it reads. */
void store_set_revision_cache(struct store *s, struct revcache *c);

/* A revision by id, built from its snapshot and deltas, shared through the
 * store's revision cache. The reference is held by the transaction and
 * released when it ends, so callers never free it; a transaction may hold
 * any number of revisions. ERR_NOT_FOUND when unknown. */
int store_revision_get(struct store_tx *tx, const char *id, const struct revision **out);
/* The transaction takes rv (built by the caller with revision_build, refs
 * 1, never cached: e.g. a visitor's view of a revision with the pages a
 * condition hides taken out) and frees it when it ends. */
int store_tx_hold_revision(struct store_tx *tx, struct revision *rv);
/* Write a new revision of space_id (nr says its parent and what changed) and
 * return it, cached. */
int store_revision_create(struct store_tx *tx, const struct revision_new *nr, const struct revision **out);
/* Store a page body once: *hash gets its SHA-256 (hex); *fresh is true when
 * this transaction stored it (the caller then stores its links,
 * store_body_links_put: the store does not read markdown; dom_body_put in
 * domain/content.h does both). */
int store_body_insert(struct store_tx *tx, const char *markdown, const char **hash, bool *fresh);
struct body_link;
/* The links of a body stored fresh, in order. */
int store_body_links_put(struct store_tx *tx, const char *hash, const struct body_link *links, int n);
int store_body_get(struct store_tx *tx, const char *hash, const char **markdown);
/* The links a body holds, in order. */
struct body_link {
	const char *target;
	int line;
};
int store_body_links(struct store_tx *tx, const char *hash, struct body_link **out, int *n);
/* Bodies (of any space) that link to target (exact string). */
int store_bodies_linking(struct store_tx *tx, const char *target, const char ***hashes, int *n);
/* File bytes, once per distinct content. */
int store_blob_put(struct store_tx *tx, const unsigned char *data, size_t len, const char *content_type,
		   const char **hash);
int store_blob_get(struct store_tx *tx, const char *hash, unsigned char **data, size_t *len,
		   const char **content_type);
/* ---- garbage: bodies and blobs no revision references (store/revisions.c) ----
 * A page_bodies or file_blobs row's created_at is when it was last stored:
 * store_body_insert / store_blob_put set it again when it is older than
 * STORE_CONTENT_TOUCH_MS. The collector (jobs/jobs.c) removes the rows that
 * no revision of any space (live, or deleted and not yet purged) references
 * and that were last stored before its cutoff, now - CONTENT_GC_GRACE_MS. So
 * a transaction that stores a body or a blob must write the revision that
 * references it within CONTENT_GC_GRACE_MS - STORE_CONTENT_TOUCH_MS (50
 * minutes); requests take milliseconds. */
#define STORE_CONTENT_TOUCH_MS (10LL * 60 * 1000)
#define CONTENT_GC_GRACE_MS (60LL * 60 * 1000)
struct store_garbage {
	const char **bodies, **blobs; /* hashes */
	int nbodies, nblobs;
};
/* The unreferenced rows stored before cutoff (a read transaction will do). */
int store_garbage_find(struct store_tx *tx, int64_t cutoff, struct store_garbage *out);
/* Delete those of hashes (blobs: file_blobs, else page_bodies) still stored
 * before cutoff; *deleted counts them. */
int store_garbage_delete(struct store_tx *tx, bool blobs, const char *const *hashes, int n, int64_t cutoff,
			 int64_t *deleted);
/* Point the space at a new current revision (merge, template, restore of
 * content) if its current revision is still s->revision, the one the caller
 * read and built on; ERR_CONFLICT when another transaction moved it since
 * (read s with store_space_get_locked to wait for that one instead). */
int store_space_set_revision(struct store_tx *tx, const struct space *s, const char *revision_id);

/* ---- change requests (store/change_requests.c) ---- */
struct cr_filter {
	const char *status;      /* a status, or NULL for all */
	const char *contributor; /* user id, or NULL */
	const char *creator;     /* user id, or NULL */
};
/* Sets id, number (next in the space), timestamps. */
int store_cr_create(struct store_tx *tx, struct change_request *cr);
int store_cr_get(struct store_tx *tx, const char *space_id, const char *id, struct change_request *out);
/* The same, the row locked until the transaction ends (see
 * store_space_get_locked; lock the space first). */
int store_cr_get_locked(struct store_tx *tx, const char *space_id, const char *id, struct change_request *out);
int store_cr_get_by_number(struct store_tx *tx, const char *space_id, int64_t number, struct change_request *out);
/* Writes subject, status, revision, revision_merged_ancestor, revision_merged,
 * updated_at if the row's status and head revision are still old_status and
 * old_revision, the ones the caller read (ERR_CONFLICT otherwise); keeps the
 * space's change request counts. A change of status locks the space's row:
 * lock it first (store_space_get_locked) when the change request is locked. */
int store_cr_update(struct store_tx *tx, const struct change_request *cr, const char *old_status,
		    const char *old_revision);
/* Counts one more edit by user_id (and when) on the change request. */
int store_cr_add_contributor(struct store_tx *tx, const char *cr_id, const char *user_id);
/* The people who edited (edits counted by store_cr_add_contributor) and who
 * commented (comments and replies) on a change request: one item per user
 * and kind, keyset-paginated on the time of the latest contribution. */
struct cr_contributor {
	struct user user;
	const char *action; /* "edit" | "comment" */
	int64_t count;
	int64_t updated_at;
	int64_t key; /* the keyset's: 2 * updated_at + (comment ? 1 : 0) */
};
int store_cr_contributors(struct store_tx *tx, const char *cr_id, const struct list_req *lr,
			  struct cr_contributor **items, int *n, char **next);
/* Newest first. */
int store_crs_list(struct store_tx *tx, const char *space_id, const struct cr_filter *f, const struct list_req *lr,
		   struct change_request **items, int *n, char **next);
/* The change requests of an organization's live spaces, each with its space;
 * keep (store_keep_fn on the item's space, e.g. through dom_keep_space) drops
 * those of spaces the caller cannot read. */
struct cr_in_space {
	struct change_request cr;
	struct space space;
};
int store_crs_list_org(struct store_tx *tx, const char *org_id, const struct cr_filter *f, const struct list_req *lr,
		       store_keep_fn keep, void *ctx, struct cr_in_space **items, int *n, char **next);

#include "store/comments.h"
#include "store/reviews.h"
#include "store/search.h"
#include "store/sites.h"
#include "store/jobs.h"

#endif
