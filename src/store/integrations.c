/*
 * integrations.c - integrations, installations, tokens, events
 * (store/integrations.h; the tables: migration 17).
 */
#include "store/integrations.h"
#include "store/internal.h"
#include "util/util.h"

#include <string.h>

/* ---- integrations ---- */

static int fill_text(struct store_tx *tx, struct db_rows *r, void *out);

#define IT_COLS "i.id, i.name, i.org_id, i.user_id, i.version, i.runtime, i.title, i.description, i.summary, " \
	"i.visibility, i.target, i.scopes, i.categories, i.blocks, i.content_sources, i.external_links, " \
	"i.configurations, i.csp, i.icon, i.preview_images, i.dev_tunnel, i.dev_all, i.created_at, i.updated_at"

static int fill_integration(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct integration *it = out;

	memset(it, 0, sizeof(*it));
	it->id = st_str(tx, r, 0);
	it->name = st_str(tx, r, 1);
	it->org_id = st_str(tx, r, 2);
	it->user_id = st_str(tx, r, 3);
	it->version = st_int(tx, r, 4);
	it->runtime = st_str(tx, r, 5);
	it->title = st_str(tx, r, 6);
	it->description = st_str(tx, r, 7);
	it->summary = st_str(tx, r, 8);
	it->visibility = st_str(tx, r, 9);
	it->target = st_str(tx, r, 10);
	it->scopes = st_str(tx, r, 11);
	it->categories = st_str(tx, r, 12);
	it->blocks = st_str(tx, r, 13);
	it->content_sources = st_str(tx, r, 14);
	it->external_links = st_str(tx, r, 15);
	it->configurations = st_str(tx, r, 16);
	it->csp = st_str(tx, r, 17);
	it->icon = st_str(tx, r, 18);
	it->preview_images = st_str(tx, r, 19);
	it->dev_tunnel = st_str(tx, r, 20);
	it->dev_all = (int)st_int(tx, r, 21);
	it->created_at = st_int(tx, r, 22);
	it->updated_at = st_int(tx, r, 23);
	return 0;
}

static int integration_one(struct store_tx *tx, const char *sql, const char *key, struct integration *out)
{
	struct db_param p[] = { P_TEXT(key) };
	int rc = st_one(tx, sql, p, NP(p), fill_integration, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "integration not found") : rc;
}

int store_integration_get(struct store_tx *tx, const char *name, struct integration *out)
{
	return integration_one(tx, "SELECT " IT_COLS " FROM integrations i WHERE i.name = $1", name, out);
}

int store_integration_get_locked(struct store_tx *tx, const char *name, struct integration *out)
{
	return integration_one(tx, "SELECT " IT_COLS " FROM integrations i WHERE i.name = $1" DB_LOCK_ROW, name, out);
}

int store_integration_by_id(struct store_tx *tx, const char *id, struct integration *out)
{
	return integration_one(tx, "SELECT " IT_COLS " FROM integrations i WHERE i.id = $1", id, out);
}

int store_integration_lock(struct store_tx *tx, const char *id)
{
	struct db_param p[] = { P_TEXT(id) };
	const char *got = NULL;
	int rc = st_one(tx, "SELECT id FROM integrations WHERE id = $1" DB_LOCK_ROW, p, NP(p), fill_text, &got);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "integration not found") : rc;
}

int store_integration_put(struct store_tx *tx, struct integration *it, const char *script, const char *secrets)
{
	char id[ID_LEN + 1];
	int64_t now = clock_now_ms();
	int rc;

	if (!it->id) {
		if (id_new(id))
			return err_set(ERR_INTERNAL, "getrandom failed");
		it->id = arena_strdup(tx->arena, id);
		it->version = 1;
		it->created_at = now;
	}
	it->updated_at = now;
	{
		struct db_param p[] = {
			P_TEXT(it->id), P_TEXT(it->name), P_TEXT(it->org_id), P_TEXT(it->user_id), P_INT(it->version),
			P_TEXT(it->runtime), P_TEXT(it->title), P_TEXT(it->description), P_TEXT(it->summary),
			P_TEXT(it->visibility), P_TEXT(it->target), P_TEXT(it->scopes), P_TEXT(it->categories),
			P_TEXT(it->blocks), P_TEXT(it->content_sources), P_TEXT(it->external_links),
			P_TEXT(it->configurations), P_TEXT(it->csp), P_TEXT(it->icon), P_TEXT(it->preview_images),
			P_INT(it->created_at), P_INT(it->updated_at), P_TEXT(secrets),
		};
		if (it->version == 1)
			rc = st_exec(tx,
				     "INSERT INTO integrations (id, name, org_id, user_id, version, runtime, title, description, "
				     "summary, visibility, target, scopes, categories, blocks, content_sources, external_links, "
				     "configurations, csp, icon, preview_images, created_at, updated_at, secrets) VALUES ($1, $2, "
				     "$3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, "
				     "$23)",
				     p, NP(p), NULL);
		else
			rc = st_exec(tx,
				     "UPDATE integrations SET org_id = $3, user_id = $4, version = $5, runtime = $6, title = $7, "
				     "description = $8, summary = $9, visibility = $10, target = $11, scopes = $12, categories = "
				     "$13, blocks = $14, content_sources = $15, external_links = $16, configurations = $17, csp = "
				     "$18, icon = $19, preview_images = $20, updated_at = $22, secrets = COALESCE($23, secrets), "
				     "created_at = $21 WHERE id = $1 AND name = $2",
				     p, NP(p), NULL);
	}
	if (rc)
		return rc;
	struct db_param v[] = { P_TEXT(it->id), P_INT(it->version), P_TEXT(script), P_INT(now) };
	return st_exec(tx, "INSERT INTO integration_versions (integration_id, version, script, created_at) VALUES ($1, $2, "
			   "$3, $4)",
		       v, NP(v), NULL);
}

int store_integration_delete(struct store_tx *tx, const char *id)
{
	struct db_param p[] = { P_TEXT(id) };

	return st_exec(tx, "DELETE FROM integrations WHERE id = $1", p, NP(p), NULL);
}

static int fill_text(struct store_tx *tx, struct db_rows *r, void *out)
{
	*(const char **)out = st_str(tx, r, 0);
	return 0;
}

int store_integration_script(struct store_tx *tx, const char *id, int64_t version, const char **out)
{
	struct db_param p[] = { P_TEXT(id), P_INT(version) };
	int rc = st_one(tx, "SELECT script FROM integration_versions WHERE integration_id = $1 AND version = $2", p, NP(p),
			fill_text, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "no script for this version") : rc;
}

int store_integration_secrets(struct store_tx *tx, const char *id, const char **out)
{
	struct db_param p[] = { P_TEXT(id) };

	return st_one(tx, "SELECT secrets FROM integrations WHERE id = $1", p, NP(p), fill_text, out);
}

int store_integration_set_dev(struct store_tx *tx, const char *id, const char *tunnel, int all)
{
	struct db_param p[] = { P_TEXT(id), P_TEXT(tunnel), P_BOOL(all), P_INT(clock_now_ms()) };

	return st_exec(tx, "UPDATE integrations SET dev_tunnel = $2, dev_all = $3, updated_at = $4 WHERE id = $1", p,
		       NP(p), NULL);
}

static void integration_key(const void *item, int64_t *key, const char **id)
{
	const struct integration *it = item;

	*key = it->created_at;
	*id = it->id;
}

/* $1 user (NULL: every integration), $2 owner filter (NULL: any), $3 limit, $4/$5 cursor */
#define IT_LIST(cmp) \
	"SELECT " IT_COLS " FROM integrations i WHERE (CAST($1 AS TEXT) IS NULL OR i.visibility = 'public' OR i.org_id IN " \
	"(SELECT m.org_id FROM members m WHERE m.user_id = $1)) AND (CAST($2 AS TEXT) IS NULL OR i.org_id = $2) " cmp \
	"ORDER BY i.created_at, i.id LIMIT $3"

int store_integrations_list(struct store_tx *tx, const char *user_id, const char *org_id, const struct list_req *lr,
			    store_keep_fn keep, void *ctx, struct integration **items, int *n, char **next)
{
	static const char *const sql[2][2] = {
		{ IT_LIST(""), IT_LIST("AND (i.created_at, i.id) > ($4, $5) ") },
		{ IT_LIST(""), IT_LIST("AND (i.created_at, i.id) > ($4, $5) ") },
	};
	struct db_param p[5] = { P_TEXT(user_id), P_TEXT(org_id) };
	int rc = st_list_keep(tx, sql, p, NP(p), 2, lr, fill_integration, sizeof(struct integration), integration_key,
			      keep, ctx, (void **)items, n, next);

	return rc ? rc : st_total_keep(tx, lr, sql, p, NP(p), 2, fill_integration, sizeof(struct integration),
				       integration_key, keep, ctx);
}

/* ---- installations ---- */

#define IN_COLS "n.id, n.integration_id, n.org_id, n.status, n.space_selection, n.site_selection, n.configuration, " \
	"n.external_ids, n.created_at, n.updated_at, " \
	"(SELECT COUNT(*) FROM integration_targets t WHERE t.installation_id = n.id AND t.kind = 'space')"

static int fill_installation(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct integration_installation *in = out;

	memset(in, 0, sizeof(*in));
	in->id = st_str(tx, r, 0);
	in->integration_id = st_str(tx, r, 1);
	in->org_id = st_str(tx, r, 2);
	in->status = st_str(tx, r, 3);
	in->space_selection = st_str(tx, r, 4);
	in->site_selection = st_str(tx, r, 5);
	in->configuration = st_str(tx, r, 6);
	in->external_ids = st_str(tx, r, 7);
	in->created_at = st_int(tx, r, 8);
	in->updated_at = st_int(tx, r, 9);
	in->spaces = st_int(tx, r, 10);
	return 0;
}

int store_installation_create(struct store_tx *tx, struct integration_installation *in)
{
	char id[ID_LEN + 1];

	if (id_new(id))
		return err_set(ERR_INTERNAL, "getrandom failed");
	in->id = arena_strdup(tx->arena, id);
	in->created_at = in->updated_at = clock_now_ms();
	struct db_param p[] = { P_TEXT(in->id), P_TEXT(in->integration_id), P_TEXT(in->org_id), P_TEXT(in->status),
				P_TEXT(in->space_selection), P_TEXT(in->site_selection), P_TEXT(in->configuration),
				P_TEXT(in->external_ids), P_INT(in->created_at) };
	return st_exec(tx,
		       "INSERT INTO integration_installations (id, integration_id, org_id, status, space_selection, "
		       "site_selection, configuration, external_ids, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, "
		       "$7, $8, $9, $9)",
		       p, NP(p), NULL);
}

int store_installation_get(struct store_tx *tx, const char *integration_id, const char *id,
			   struct integration_installation *out)
{
	struct db_param p[] = { P_TEXT(id), P_TEXT(integration_id) };
	int rc = st_one(tx,
			"SELECT " IN_COLS " FROM integration_installations n WHERE n.id = $1 AND (CAST($2 AS TEXT) IS NULL OR "
			"n.integration_id = $2)",
			p, NP(p), fill_installation, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "installation not found") : rc;
}

int store_installation_by_org(struct store_tx *tx, const char *integration_id, const char *org_id,
			      struct integration_installation *out)
{
	struct db_param p[] = { P_TEXT(integration_id), P_TEXT(org_id) };
	int rc = st_one(tx,
			"SELECT " IN_COLS " FROM integration_installations n WHERE n.integration_id = $1 AND n.org_id = $2",
			p, NP(p), fill_installation, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "installation not found") : rc;
}

int store_installation_update(struct store_tx *tx, const struct integration_installation *in)
{
	struct db_param p[] = { P_TEXT(in->id), P_TEXT(in->status), P_TEXT(in->space_selection),
				P_TEXT(in->site_selection), P_TEXT(in->configuration), P_TEXT(in->external_ids),
				P_INT(clock_now_ms()) };
	int64_t changes = 0;
	int rc = st_exec(tx,
			 "UPDATE integration_installations SET status = $2, space_selection = $3, site_selection = $4, "
			 "configuration = $5, external_ids = $6, updated_at = $7 WHERE id = $1",
			 p, NP(p), &changes);

	return rc == 0 && changes == 0 ? err_set(ERR_NOT_FOUND, "installation not found") : rc;
}

int store_installation_delete(struct store_tx *tx, const char *id, bool *removed)
{
	struct db_param p[] = { P_TEXT(id) };
	int64_t changes = 0;
	int rc = st_exec(tx, "DELETE FROM integration_tokens WHERE installation_id = $1", p, NP(p), NULL);

	if (rc == 0)
		rc = st_exec(tx, "DELETE FROM integration_installations WHERE id = $1", p, NP(p), &changes);
	*removed = changes > 0;
	return rc;
}

static void installation_key(const void *item, int64_t *key, const char **id)
{
	const struct integration_installation *in = item;

	*key = in->created_at;
	*id = in->id;
}

/* externalIds is a JSON array of strings: an id matches as its quoted form. */
static const char *ext_pattern(struct store_tx *tx, const char *external_id)
{
	return external_id ? st_like_pattern(tx, arena_printf(tx->arena, "\"%s\"", external_id)) : NULL;
}

/* $1 integration, $2 org, $3 external id pattern, $4 limit, $5/$6 cursor */
#define IN_LIST(cmp) \
	"SELECT " IN_COLS " FROM integration_installations n WHERE (CAST($1 AS TEXT) IS NULL OR n.integration_id = $1) AND " \
	"(CAST($2 AS TEXT) IS NULL OR n.org_id = $2) AND (CAST($3 AS TEXT) IS NULL OR lower(n.external_ids) LIKE $3 ESCAPE '\\') " cmp \
	"ORDER BY n.created_at, n.id LIMIT $4"

int store_installations_list(struct store_tx *tx, const char *integration_id, const char *org_id,
			     const char *external_id, const struct list_req *lr, struct integration_installation **items,
			     int *n, char **next)
{
	static const char *const sql[2][2] = {
		{ IN_LIST(""), IN_LIST("AND (n.created_at, n.id) > ($5, $6) ") },
		{ IN_LIST(""), IN_LIST("AND (n.created_at, n.id) > ($5, $6) ") },
	};
	struct db_param p[6] = { P_TEXT(integration_id), P_TEXT(org_id), P_TEXT(ext_pattern(tx, external_id)) };
	int rc = st_list_keep(tx, sql, p, NP(p), 3, lr, fill_installation, sizeof(struct integration_installation),
			      installation_key, NULL, NULL, (void **)items, n, next);

	return rc ? rc : st_total(tx, lr,
				  "SELECT COUNT(*) FROM integration_installations n WHERE (CAST($1 AS TEXT) IS NULL OR n.integration_id = "
				  "$1) AND (CAST($2 AS TEXT) IS NULL OR n.org_id = $2) AND (CAST($3 AS TEXT) IS NULL OR lower(n.external_ids) LIKE $3 "
				  "ESCAPE '\\')",
				  p, 3);
}

/* ---- space / site installations ---- */

#define TG_COLS "t.installation_id, t.kind, t.target_id, t.status, t.configuration, t.external_ids, t.created_at, " \
	"t.updated_at, n.org_id"
#define TG_FROM " FROM integration_targets t JOIN integration_installations n ON n.id = t.installation_id "

static int fill_target(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct integration_target *t = out;

	memset(t, 0, sizeof(*t));
	t->installation_id = st_str(tx, r, 0);
	t->kind = st_str(tx, r, 1);
	t->target_id = st_str(tx, r, 2);
	t->status = st_str(tx, r, 3);
	t->configuration = st_str(tx, r, 4);
	t->external_ids = st_str(tx, r, 5);
	t->created_at = st_int(tx, r, 6);
	t->updated_at = st_int(tx, r, 7);
	t->org_id = st_str(tx, r, 8);
	return 0;
}

int store_target_put(struct store_tx *tx, struct integration_target *t)
{
	int64_t now = clock_now_ms();

	if (!t->created_at)
		t->created_at = now;
	t->updated_at = now;
	struct db_param p[] = { P_TEXT(t->installation_id), P_TEXT(t->kind), P_TEXT(t->target_id), P_TEXT(t->status),
				P_TEXT(t->configuration), P_TEXT(t->external_ids), P_INT(t->created_at),
				P_INT(t->updated_at) };
	return st_exec(tx,
		       "INSERT INTO integration_targets (installation_id, kind, target_id, status, configuration, "
		       "external_ids, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT "
		       "(installation_id, kind, target_id) DO UPDATE SET status = excluded.status, configuration = "
		       "excluded.configuration, external_ids = excluded.external_ids, updated_at = excluded.updated_at",
		       p, NP(p), NULL);
}

int store_target_get(struct store_tx *tx, const char *installation_id, const char *kind, const char *target_id,
		     struct integration_target *out)
{
	struct db_param p[] = { P_TEXT(installation_id), P_TEXT(kind), P_TEXT(target_id) };
	int rc = st_one(tx,
			"SELECT " TG_COLS TG_FROM "WHERE t.installation_id = $1 AND t.kind = $2 AND t.target_id = $3", p,
			NP(p), fill_target, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "%s installation not found", kind) : rc;
}

int store_target_delete(struct store_tx *tx, const char *installation_id, const char *kind, const char *target_id,
			bool *removed)
{
	struct db_param p[] = { P_TEXT(installation_id), P_TEXT(kind), P_TEXT(target_id) };
	int64_t changes = 0;
	int rc = st_exec(tx, "DELETE FROM integration_targets WHERE installation_id = $1 AND kind = $2 AND target_id = $3",
			 p, NP(p), &changes);

	*removed = changes > 0;
	return rc;
}

static void target_key(const void *item, int64_t *key, const char **id)
{
	const struct integration_target *t = item;

	*key = t->created_at;
	*id = t->target_id;
}

/* $1 integration, $2 installation, $3 kind, $4 external id pattern, $5 limit, $6/$7 cursor */
#define TG_LIST(cmp) \
	"SELECT " TG_COLS TG_FROM "WHERE (CAST($1 AS TEXT) IS NULL OR n.integration_id = $1) AND (CAST($2 AS TEXT) IS NULL OR " \
	"t.installation_id = $2) AND t.kind = $3 AND (CAST($4 AS TEXT) IS NULL OR lower(t.external_ids) LIKE $4 ESCAPE '\\') " cmp \
	"ORDER BY t.created_at, t.target_id LIMIT $5"

int store_targets_list(struct store_tx *tx, const char *integration_id, const char *installation_id, const char *kind,
		       const char *external_id, const struct list_req *lr, struct integration_target **items, int *n,
		       char **next)
{
	static const char *const sql[2][2] = {
		{ TG_LIST(""), TG_LIST("AND (t.created_at, t.target_id) > ($6, $7) ") },
		{ TG_LIST(""), TG_LIST("AND (t.created_at, t.target_id) > ($6, $7) ") },
	};
	struct db_param p[7] = { P_TEXT(integration_id), P_TEXT(installation_id), P_TEXT(kind),
				 P_TEXT(ext_pattern(tx, external_id)) };
	int rc = st_list_keep(tx, sql, p, NP(p), 4, lr, fill_target, sizeof(struct integration_target), target_key, NULL,
			      NULL, (void **)items, n, next);

	return rc ? rc : st_total(tx, lr,
				  "SELECT COUNT(*)" TG_FROM "WHERE (CAST($1 AS TEXT) IS NULL OR n.integration_id = $1) AND (CAST($2 AS TEXT) IS NULL OR "
				  "t.installation_id = $2) AND t.kind = $3 AND (CAST($4 AS TEXT) IS NULL OR lower(t.external_ids) LIKE $4 "
				  "ESCAPE '\\')",
				  p, 4);
}

int store_targets_of(struct store_tx *tx, const char *kind, const char *target_id, struct integration_target **items,
		     int *n)
{
	struct db_param p[] = { P_TEXT(kind), P_TEXT(target_id) };

	return st_all(tx,
		      "SELECT " TG_COLS TG_FROM "WHERE t.kind = $1 AND t.target_id = $2 ORDER BY t.created_at, "
		      "t.installation_id LIMIT 1000",
		      p, NP(p), fill_target, sizeof(struct integration_target), (void **)items, n);
}

/* ---- tokens ---- */

int store_integration_token_create(struct store_tx *tx, const char *hash, const char *integration_id,
				   const char *installation_id, int64_t expires_at)
{
	int64_t now = clock_now_ms();
	struct db_param p[] = { P_TEXT(hash), P_TEXT(integration_id), P_TEXT(installation_id), P_INT(now),
				P_INT(expires_at) };
	struct db_param old[] = { P_TEXT(integration_id), P_INT(now) };
	/* Expired tokens of the integration go as new ones are made. */
	int rc = st_exec(tx, "DELETE FROM integration_tokens WHERE integration_id = $1 AND expires_at < $2", old, NP(old),
			 NULL);

	return rc ? rc : st_exec(tx,
				 "INSERT INTO integration_tokens (hash, integration_id, installation_id, created_at, "
				 "expires_at) VALUES ($1, $2, $3, $4, $5)",
				 p, NP(p), NULL);
}

struct token_row {
	const char *user_id, *installation_id, *integration_id;
};

static int fill_token(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct token_row *t = out;

	t->user_id = st_str(tx, r, 0);
	t->installation_id = st_str(tx, r, 1);
	t->integration_id = st_str(tx, r, 2);
	return 0;
}

int store_integration_token_lookup(struct store_tx *tx, const char *hash, const char **user_id,
				   const char **integration_id, const char **installation_id)
{
	struct db_param p[] = { P_TEXT(hash), P_INT(clock_now_ms()) };
	struct token_row t;
	int rc = st_one(tx,
			"SELECT i.user_id, k.installation_id, i.id FROM integration_tokens k JOIN integrations i ON i.id = "
			"k.integration_id WHERE k.hash = $1 AND k.expires_at > $2",
			p, NP(p), fill_token, &t);

	if (rc)
		return rc;
	*user_id = t.user_id;
	*installation_id = t.installation_id;
	*integration_id = t.integration_id;
	return 0;
}

/* ---- events ---- */

/* A task event's payload (domain/integration_events.c writes eventId, 20
 * characters, then type, first): tasks are delivered but neither listed
 * (GitBook's Event of 0.143.2 has no task type) nor kept in order. */
#define TASK_PAYLOAD "{\"eventId\":\"____________________\",\"type\":\"task\"%"

#define EV_COLS "e.id, e.integration_id, e.installation_id, e.org_id, e.seq, e.payload, e.status, e.attempts, " \
	"e.created_at"

static int fill_event(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct integration_event *e = out;

	memset(e, 0, sizeof(*e));
	e->id = st_str(tx, r, 0);
	e->integration_id = st_str(tx, r, 1);
	e->installation_id = st_str(tx, r, 2);
	e->org_id = st_str(tx, r, 3);
	e->seq = st_int(tx, r, 4);
	e->payload = st_str(tx, r, 5);
	e->status = st_str(tx, r, 6);
	e->attempts = st_int(tx, r, 7);
	e->created_at = st_int(tx, r, 8);
	return 0;
}

int store_event_create(struct store_tx *tx, struct integration_event *ev)
{
	char id[ID_LEN + 1];

	if (!ev->id) {
		if (id_new(id))
			return err_set(ERR_INTERNAL, "getrandom failed");
		ev->id = arena_strdup(tx->arena, id);
	}
	ev->created_at = clock_now_ms();
	ev->status = "pending";
	/* seq: after every event of the installation, so deliveries keep the
	 * order events were recorded in (the installation's events are
	 * written by transactions that serialize on its organization). */
	struct db_param p[] = { P_TEXT(ev->id), P_TEXT(ev->integration_id), P_TEXT(ev->installation_id),
				P_TEXT(ev->org_id), P_TEXT(ev->payload), P_INT(ev->created_at) };
	return st_exec(tx,
		       "INSERT INTO integration_events (id, integration_id, installation_id, org_id, seq, payload, status, "
		       "created_at) VALUES ($1, $2, $3, $4, (SELECT COALESCE(MAX(seq), 0) + 1 FROM integration_events "
		       "WHERE integration_id = $2), $5, 'pending', $6)",
		       p, NP(p), NULL);
}

int store_event_get(struct store_tx *tx, const char *integration_id, const char *id, struct integration_event *out)
{
	struct db_param p[] = { P_TEXT(id), P_TEXT(integration_id) };
	int rc = st_one(tx,
			"SELECT " EV_COLS " FROM integration_events e WHERE e.id = $1 AND (CAST($2 AS TEXT) IS NULL OR "
			"e.integration_id = $2)",
			p, NP(p), fill_event, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "event not found") : rc;
}

static void event_key(const void *item, int64_t *key, const char **id)
{
	const struct integration_event *e = item;

	*key = e->seq;
	*id = e->id;
}

/* $1 integration, $2 limit, $3/$4 cursor; newest first (seq grows per integration). */
#define EV_LIST(cmp, dir) \
	"SELECT " EV_COLS " FROM integration_events e WHERE e.integration_id = $1 AND e.status <> 'pending' " \
	"AND e.payload NOT LIKE '" TASK_PAYLOAD "' " cmp \
	"ORDER BY e.seq " dir ", e.id " dir " LIMIT $2"

int store_events_list(struct store_tx *tx, const char *integration_id, const struct list_req *lr,
		      struct integration_event **items, int *n, char **next)
{
	static const char *const sql[2][2] = {
		{ EV_LIST("", "ASC"), EV_LIST("AND (e.seq, e.id) > ($3, $4) ", "ASC") },
		{ EV_LIST("", "DESC"), EV_LIST("AND (e.seq, e.id) < ($3, $4) ", "DESC") },
	};
	struct db_param p[4] = { P_TEXT(integration_id) };
	int rc = st_list_keep(tx, sql, p, NP(p), 1, lr, fill_event, sizeof(struct integration_event), event_key, NULL,
			      NULL, (void **)items, n, next);

	return rc ? rc : st_total(tx, lr,
				  "SELECT COUNT(*) FROM integration_events e WHERE e.integration_id = $1 AND e.status <> "
				  "'pending' AND e.payload NOT LIKE '" TASK_PAYLOAD "'",
				  p, 1);
}

static int fill_count(struct store_tx *tx, struct db_rows *r, void *out)
{
	*(int64_t *)out = st_int(tx, r, 0);
	return 0;
}

int store_event_has_older_pending(struct store_tx *tx, const struct integration_event *ev, bool *out)
{
	struct db_param p[] = { P_TEXT(ev->integration_id), P_TEXT(ev->installation_id), P_INT(ev->seq) };
	int64_t c = 0;
	/* Tasks (queueIntegrationTask, maybe scheduled hours ahead) neither
	 * wait nor are waited for: the payload starts with eventId (20
	 * characters) and type (domain/integration_events.c writes it so). */
	int rc = st_one(tx,
			"SELECT COUNT(*) FROM integration_events WHERE integration_id = $1 AND installation_id = $2 AND seq "
			"< $3 AND status = 'pending' AND payload NOT LIKE '" TASK_PAYLOAD "'",
			p, NP(p), fill_count, &c);

	if (rc == 0 && strncmp(ev->payload, "{\"eventId\":\"", 12) == 0 && strlen(ev->payload) > 34 &&
	    strncmp(ev->payload + 34, "\"type\":\"task\"", 13) == 0)
		c = 0;

	*out = c > 0;
	return rc;
}

int store_event_finish(struct store_tx *tx, const char *id, const char *status, int64_t attempts)
{
	struct db_param p[] = { P_TEXT(id), P_TEXT(status), P_INT(attempts), P_INT(clock_now_ms()) };

	return st_exec(tx, "UPDATE integration_events SET status = $2, attempts = $3, finished_at = $4 WHERE id = $1", p,
		       NP(p), NULL);
}

int store_event_log_add(struct store_tx *tx, const char *event_id, const char *level, const char *message, int64_t ts)
{
	struct db_param p[] = { P_TEXT(event_id), P_TEXT(level), P_TEXT(message), P_INT(ts) };

	return st_exec(tx,
		       "INSERT INTO integration_event_logs (event_id, n, level, message, ts) VALUES ($1, (SELECT "
		       "COALESCE(MAX(n), 0) + 1 FROM integration_event_logs WHERE event_id = $1), $2, $3, $4)",
		       p, NP(p), NULL);
}

static int fill_usage(struct store_tx *tx, struct db_rows *r, void *out)
{
	int64_t *u = out;

	u[0] = st_int(tx, r, 0);
	u[1] = st_int(tx, r, 1);
	return 0;
}

int store_event_log_usage(struct store_tx *tx, const char *event_id, int64_t *lines, int64_t *bytes)
{
	struct db_param p[] = { P_TEXT(event_id) };
	int64_t u[2] = { 0, 0 };
	int rc = st_one(tx,
			"SELECT COUNT(*), COALESCE(SUM(LENGTH(message)), 0) FROM integration_event_logs WHERE event_id = $1",
			p, NP(p), fill_usage, u);

	*lines = u[0];
	*bytes = u[1];
	return rc;
}

int store_events_prune(struct store_tx *tx, int64_t before, int64_t keep, int64_t *removed)
{
	struct db_param p[] = { P_INT(before) };
	struct db_param q[] = { P_INT(keep) };
	int64_t a = 0, b = 0;
	/* Finished events past the retention; then, per integration, finished
	 * events beyond its newest `keep` (seq numbers them per integration).
	 * Their trace lines go with them (ON DELETE CASCADE). */
	int rc = st_exec(tx, "DELETE FROM integration_events WHERE status <> 'pending' AND finished_at < $1", p, NP(p), &a);

	if (rc == 0)
		rc = st_exec(tx,
			     "DELETE FROM integration_events WHERE status <> 'pending' AND seq <= (SELECT MAX(l.seq) "
			     "FROM integration_events l WHERE l.integration_id = integration_events.integration_id) - $1",
			     q, NP(q), &b);
	*removed = a + b;
	return rc;
}

static int fill_log(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct integration_log *l = out;

	l->level = st_str(tx, r, 0);
	l->message = st_str(tx, r, 1);
	l->ts = st_int(tx, r, 2);
	return 0;
}

int store_event_logs(struct store_tx *tx, const char *event_id, struct integration_log **items, int *n)
{
	struct db_param p[] = { P_TEXT(event_id) };

	return st_all(tx, "SELECT level, message, ts FROM integration_event_logs WHERE event_id = $1 ORDER BY n LIMIT 1000",
		      p, NP(p), fill_log, sizeof(struct integration_log), (void **)items, n);
}

/* ---- organizations by subdomain ---- */

int store_org_by_hostname_label(struct store_tx *tx, const char *key, struct org *out)
{
	struct db_param p[] = { P_TEXT(key) };
	const char *id = NULL;
	int rc = st_one(tx,
			"SELECT id FROM orgs WHERE hostname IS NOT NULL AND (lower(hostname) = lower($1) OR "
			"lower(hostname) LIKE lower($1) || '.%') ORDER BY created_at, id LIMIT 1",
			p, NP(p), fill_text, &id);

	return rc ? rc : store_org_get(tx, id, out);
}
