/*
 * integrations.h - the storage of integrations (migration 17;
 * store/integrations.c): integrations and their published versions,
 * installations (organization) and their space / site targets, integration
 * and installation tokens (SHA-256 only), events and their trace lines.
 *
 * JSON-valued fields (scopes, configurations, ...) are kept as the compact
 * JSON text the domain validated; the serializer writes them back as they
 * are. The script and the sealed secrets are columns no list reads: only
 * store_integration_script and store_integration_secrets return them.
 */
#ifndef DOCSD_STORE_INTEGRATIONS_H
#define DOCSD_STORE_INTEGRATIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "store/store.h"

struct integration {
	const char *id, *name, *org_id, *user_id;
	int64_t version;
	const char *runtime, *title, *description, *summary, *visibility, *target;
	/* JSON texts */
	const char *scopes, *categories, *blocks, *content_sources, *external_links, *configurations;
	const char *csp;            /* JSON text (a string or an object), or NULL */
	const char *icon;           /* base64, or NULL */
	const char *preview_images; /* JSON array of base64 strings */
	const char *dev_tunnel;     /* NULL: development mode off */
	int dev_all;
	int64_t created_at, updated_at;
};

struct integration_installation {
	const char *id, *integration_id, *org_id;
	const char *status, *space_selection, *site_selection;
	const char *configuration, *external_ids; /* JSON texts */
	int64_t spaces;                           /* space targets */
	int64_t created_at, updated_at;
};

/* A space or site installation (kind "space" | "site"). */
struct integration_target {
	const char *installation_id, *kind, *target_id;
	const char *status, *configuration, *external_ids;
	const char *org_id; /* the installation's */
	int64_t created_at, updated_at;
};

struct integration_event {
	const char *id, *integration_id, *installation_id, *org_id;
	int64_t seq;
	const char *payload; /* JSON text: GitBook's Event */
	const char *status;  /* pending | success | failed */
	int64_t attempts;
	int64_t created_at;
};

struct integration_log {
	const char *level, *message;
	int64_t ts;
};

/* ---- integrations ---- */
int store_integration_get(struct store_tx *tx, const char *name, struct integration *out);
/* The same, the row locked until the transaction ends (publish, dev mode). */
int store_integration_get_locked(struct store_tx *tx, const char *name, struct integration *out);
int store_integration_by_id(struct store_tx *tx, const char *id, struct integration *out);
/* Lock the integration's row until the transaction ends (PostgreSQL; SQLite
 * serializes writers): events of one integration are numbered one at a time. */
int store_integration_lock(struct store_tx *tx, const char *id);
/* Insert (it->id NULL: a new id, version 1) or update every field of it
 * (version already incremented by the caller), and add the version's
 * script. secrets: sealed text, or NULL to keep what is stored (update) /
 * none (insert). */
int store_integration_put(struct store_tx *tx, struct integration *it, const char *script, const char *secrets);
int store_integration_delete(struct store_tx *tx, const char *id);
/* The published script of a version; ERR_NOT_FOUND when none. */
int store_integration_script(struct store_tx *tx, const char *id, int64_t version, const char **out);
int store_integration_secrets(struct store_tx *tx, const char *id, const char **out);
int store_integration_set_dev(struct store_tx *tx, const char *id, const char *tunnel, int all);
/* Public integrations and those of the organizations user_id belongs to
 * (user_id NULL: every integration), oldest first; keep filters more. */
int store_integrations_list(struct store_tx *tx, const char *user_id, const char *org_id, const struct list_req *lr,
			    store_keep_fn keep, void *ctx, struct integration **items, int *n, char **next);

/* ---- installations ---- */
int store_installation_create(struct store_tx *tx, struct integration_installation *in);
/* integration_id NULL: any integration. */
int store_installation_get(struct store_tx *tx, const char *integration_id, const char *id,
			   struct integration_installation *out);
int store_installation_by_org(struct store_tx *tx, const char *integration_id, const char *org_id,
			      struct integration_installation *out);
int store_installation_update(struct store_tx *tx, const struct integration_installation *in);
int store_installation_delete(struct store_tx *tx, const char *id, bool *removed);
/* integration_id and/or org_id (NULL: any); external_id filters by one of
 * externalIds. */
int store_installations_list(struct store_tx *tx, const char *integration_id, const char *org_id,
			     const char *external_id, const struct list_req *lr, struct integration_installation **items,
			     int *n, char **next);

/* ---- space / site installations ---- */
int store_target_put(struct store_tx *tx, struct integration_target *t);
int store_target_get(struct store_tx *tx, const char *installation_id, const char *kind, const char *target_id,
		     struct integration_target *out);
int store_target_delete(struct store_tx *tx, const char *installation_id, const char *kind, const char *target_id,
			bool *removed);
/* Of one installation, or (installation_id NULL) of every installation of
 * integration_id; external_id as above. */
int store_targets_list(struct store_tx *tx, const char *integration_id, const char *installation_id, const char *kind,
		       const char *external_id, const struct list_req *lr, struct integration_target **items, int *n,
		       char **next);
/* Every active installation of a target (kind, id), across integrations. */
int store_targets_of(struct store_tx *tx, const char *kind, const char *target_id, struct integration_target **items,
		     int *n);

/* ---- tokens ---- */
/* installation_id NULL: an integration token. */
int store_integration_token_create(struct store_tx *tx, const char *hash, const char *integration_id,
				   const char *installation_id, int64_t expires_at);
/* The token's integration's user and installation (NULL for an integration
 * token); ERR_NOT_FOUND when unknown or expired. */
int store_integration_token_lookup(struct store_tx *tx, const char *hash, const char **user_id, const char **integration_id,
				   const char **installation_id);

/* ---- events ---- */
/* Fills id, seq, status (pending), created_at. */
int store_event_create(struct store_tx *tx, struct integration_event *ev);
int store_event_get(struct store_tx *tx, const char *integration_id, const char *id, struct integration_event *out);
/* Newest first; finished events only unless pending is set. */
int store_events_list(struct store_tx *tx, const char *integration_id, const struct list_req *lr,
		      struct integration_event **items, int *n, char **next);
/* Whether an older event of the installation is still pending. */
int store_event_has_older_pending(struct store_tx *tx, const struct integration_event *ev, bool *out);
/* Record an attempt (attempts + 1); status pending | success | failed. */
int store_event_finish(struct store_tx *tx, const char *id, const char *status, int64_t attempts);
int store_event_log_add(struct store_tx *tx, const char *event_id, const char *level, const char *message,
			int64_t ts);
int store_event_logs(struct store_tx *tx, const char *event_id, struct integration_log **items, int *n);
/* How many trace lines an event has, and their messages' bytes. */
int store_event_log_usage(struct store_tx *tx, const char *event_id, int64_t *lines, int64_t *bytes);
/* Delete finished events (and their trace lines) that finished before
 * `before`, and those of an integration beyond its newest `keep`. */
int store_events_prune(struct store_tx *tx, int64_t before, int64_t keep, int64_t *removed);

/* An organization by its hostname, or the hostname's first label (what
 * publishIntegration's `organization` calls a subdomain). */
int store_org_by_hostname_label(struct store_tx *tx, const char *key, struct org *out);

#endif
