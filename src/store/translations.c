/*
 * translations.c - translations and the keys of the pages their runs
 * translated (store/translations.h).
 *
 * The status shown is derived in SQL from the latest run's job (jobs/jobs.c
 * draws its states): running while the job runs, pending while it is queued
 * (also between retries) and after it failed for good, else what the last
 * run wrote (pending, or completed). So a run killed with its process, or
 * failed on its last attempt, never leaves a translation stuck in running.
 */
#include "store/internal.h"
#include "store/translations.h"
#include "util/util.h"

#include <string.h>

#define TR_COLS "t.id, t.org_id, t.source_space, t.source_language, t.language, t.instructions, " \
	"CASE WHEN j.state = 'running' THEN 'running' WHEN j.state IN ('queued', 'failed') THEN 'pending' " \
	"ELSE t.status END, " \
	"t.job_id, t.applied_run, t.result_space, t.result_revision, t.source_revision, t.created_by, t.runs, " \
	"t.total_words, t.total_pages, t.total_duration, t.latest_run_duration, t.latest_pages, t.latest_words, " \
	"t.created_at, t.updated_at, j.state, j.last_error, "
#define TR_NCOLS 24
#define TR_FROM " FROM translations t JOIN spaces s ON s.id = t.source_space LEFT JOIN jobs j ON j.id = t.job_id "

static int fill_translation(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct translation *t = out;

	memset(t, 0, sizeof(*t));
	t->id = st_str(tx, r, 0);
	t->org_id = st_str(tx, r, 1);
	t->source_space = st_str(tx, r, 2);
	t->source_language = st_str(tx, r, 3);
	t->language = st_str(tx, r, 4);
	t->instructions = st_str(tx, r, 5);
	t->status = st_str(tx, r, 6);
	t->job_id = st_str(tx, r, 7);
	t->applied_run = st_str(tx, r, 8);
	t->result_space = st_str(tx, r, 9);
	t->result_revision = st_str(tx, r, 10);
	t->source_revision = st_str(tx, r, 11);
	t->created_by = st_str(tx, r, 12);
	t->stats.runs = st_int(tx, r, 13);
	t->stats.total_words = st_int(tx, r, 14);
	t->stats.total_pages = st_int(tx, r, 15);
	t->stats.total_duration = st_int(tx, r, 16);
	t->stats.latest_run_duration = st_int(tx, r, 17);
	t->stats.latest_pages = st_int(tx, r, 18);
	t->stats.latest_words = st_int(tx, r, 19);
	t->created_at = st_int(tx, r, 20);
	t->updated_at = st_int(tx, r, 21);
	t->job_state = st_str(tx, r, 22);
	t->job_error = st_str(tx, r, 23);
	/* A purged result space took its revisions along (ON DELETE SET NULL). */
	if (!t->result_space)
		t->result_revision = NULL;
	return store_fill_space(tx, r, TR_NCOLS, &t->source);
}

int store_translation_create(struct store_tx *tx, struct translation *t)
{
	char id[ID_LEN + 1];

	if (id_new(id))
		return err_set(ERR_INTERNAL, "getrandom failed");
	t->id = arena_strdup(tx->arena, id);
	t->created_at = t->updated_at = clock_now_ms();
	t->status = "pending";
	struct db_param p[] = { P_TEXT(t->id), P_TEXT(t->org_id), P_TEXT(t->source_space), P_TEXT(t->source_language),
				P_TEXT(t->language), P_TEXT(t->instructions), P_TEXT(t->created_by), P_INT(t->created_at) };
	return st_exec(tx,
		       "INSERT INTO translations (id, org_id, source_space, source_language, language, instructions, "
		       "created_by, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)",
		       p, NP(p), NULL);
}

static int get(struct store_tx *tx, const char *org_id, const char *id, bool locked, struct translation *out)
{
	static const char *const sql[2][2] = {
		{ "SELECT " TR_COLS SPACE_COLS TR_FROM "WHERE t.id = $1",
		  "SELECT " TR_COLS SPACE_COLS TR_FROM "WHERE t.id = $1" DB_LOCK_ROW_OF("t") },
		{ "SELECT " TR_COLS SPACE_COLS TR_FROM "WHERE t.id = $1 AND t.org_id = $2",
		  "SELECT " TR_COLS SPACE_COLS TR_FROM "WHERE t.id = $1 AND t.org_id = $2" DB_LOCK_ROW_OF("t") },
	};
	struct db_param p[] = { P_TEXT(id), P_TEXT(org_id) };
	int rc = st_one(tx, sql[org_id != NULL][locked], p, org_id ? 2 : 1, fill_translation, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "translation not found") : rc;
}

int store_translation_get(struct store_tx *tx, const char *org_id, const char *id, struct translation *out)
{
	return get(tx, org_id, id, false, out);
}

int store_translation_get_locked(struct store_tx *tx, const char *org_id, const char *id, struct translation *out)
{
	return get(tx, org_id, id, true, out);
}

int store_translation_set_instructions(struct store_tx *tx, const struct translation *t, const char *instructions)
{
	struct db_param p[] = { P_TEXT(t->id), P_TEXT(instructions), P_INT(clock_now_ms()) };
	int64_t changes = 0;
	int rc = st_exec(tx, "UPDATE translations SET instructions = $2, updated_at = $3 WHERE id = $1", p, NP(p),
			 &changes);

	return rc == 0 && changes == 0 ? err_set(ERR_NOT_FOUND, "translation not found") : rc;
}

int store_translation_delete(struct store_tx *tx, const char *org_id, const char *id, bool *removed)
{
	struct db_param p[] = { P_TEXT(org_id), P_TEXT(id) };
	int64_t changes = 0;
	int rc = st_exec(tx, "DELETE FROM translations WHERE org_id = $1 AND id = $2", p, NP(p), &changes);

	*removed = changes > 0;
	return rc;
}

/* $1 org, $2 limit, $3/$4 cursor */
#define TR_LIST(cmp) \
	"SELECT " TR_COLS SPACE_COLS TR_FROM "WHERE t.org_id = $1 " cmp "ORDER BY t.created_at, t.id LIMIT $2"

static void translation_key(const void *item, int64_t *key, const char **id)
{
	const struct translation *t = item;

	*key = t->created_at;
	*id = t->id;
}

/* The keep function of a list sees the item's source space. */
struct keep_source {
	store_keep_fn keep;
	void *ctx;
};

static enum role keep_source(void *ctx, void *item)
{
	struct keep_source *k = ctx;

	return k->keep(k->ctx, &((struct translation *)item)->source);
}

int store_translations_list(struct store_tx *tx, const char *org_id, const struct list_req *lr, store_keep_fn keep,
			    void *ctx, struct translation **items, int *n, char **next)
{
	/* One order (oldest first), as the SAML providers' list. */
	static const char *const sql[2][2] = {
		{ TR_LIST(""), TR_LIST("AND (t.created_at, t.id) > ($3, $4) ") },
		{ TR_LIST(""), TR_LIST("AND (t.created_at, t.id) > ($3, $4) ") },
	};
	struct db_param p[4] = { P_TEXT(org_id) };
	struct keep_source ks = { keep, ctx };
	int rc = st_list_keep(tx, sql, p, NP(p), 1, lr, fill_translation, sizeof(struct translation), translation_key,
			      keep ? keep_source : NULL, &ks, (void **)items, n, next);

	if (rc)
		return rc;
	if (!keep)
		return st_total(tx, lr, "SELECT COUNT(*) FROM translations t WHERE t.org_id = $1", p, 1);
	return st_total_keep(tx, lr, sql, p, NP(p), 1, fill_translation, sizeof(struct translation), translation_key,
			     keep_source, &ks);
}

int store_translation_queue_run(struct store_tx *tx, const char *id, const char *job_id)
{
	struct db_param p[] = { P_TEXT(id), P_TEXT(job_id), P_INT(clock_now_ms()) };
	int64_t changes = 0;
	int rc = st_exec(tx, "UPDATE translations SET job_id = $2, status = 'pending', updated_at = $3 WHERE id = $1", p,
			 NP(p), &changes);

	return rc == 0 && changes == 0 ? err_set(ERR_NOT_FOUND, "translation not found") : rc;
}

int store_translation_record_run(struct store_tx *tx, const struct translation *t, const struct translation_run *r)
{
	struct db_param p[] = {
		P_TEXT(t->id), P_TEXT(r->job_id), P_TEXT(t->result_revision ? t->result_revision : ""),
		P_TEXT(r->result_space), P_TEXT(r->result_revision), P_TEXT(r->source_revision), P_INT(r->words),
		P_INT(r->new_pages), P_INT(r->duration_s), P_INT(r->pages), P_INT(clock_now_ms()),
	};
	int64_t changes = 0;
	int rc = st_exec(tx,
			 "UPDATE translations SET applied_run = $2, result_space = $4, result_revision = $5, "
			 "source_revision = $6, status = 'completed', runs = runs + 1, total_words = total_words + $7, "
			 "latest_words = $7, total_pages = total_pages + $8, total_duration = total_duration + $9, "
			 "latest_run_duration = $9, latest_pages = $10, updated_at = $11 "
			 "WHERE id = $1 AND COALESCE(applied_run, '') <> $2 AND COALESCE(result_revision, '') = $3",
			 p, NP(p), &changes);

	if (rc == 0 && changes == 0)
		return err_set(ERR_CONFLICT, "translation %s: another run wrote its result meanwhile", t->id);
	return rc;
}

static int fill_key(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct translation_page_key *k = out;

	k->page_id = st_str(tx, r, 0);
	k->source_key = st_str(tx, r, 1);
	return 0;
}

int store_translation_page_keys(struct store_tx *tx, const char *id, struct translation_page_key **out, int *n)
{
	struct db_param p[] = { P_TEXT(id) };

	return st_all(tx, "SELECT page_id, source_key FROM translation_pages WHERE translation_id = $1 ORDER BY page_id",
		      p, NP(p), fill_key, sizeof(struct translation_page_key), (void **)out, n);
}

int store_translation_page_keys_set(struct store_tx *tx, const char *id, const struct translation_page_key *keys,
				    int n)
{
	struct db_param d[] = { P_TEXT(id) };
	int rc = st_exec(tx, "DELETE FROM translation_pages WHERE translation_id = $1", d, NP(d), NULL);

	for (int i = 0; rc == 0 && i < n; i++) {
		struct db_param p[] = { P_TEXT(id), P_TEXT(keys[i].page_id), P_TEXT(keys[i].source_key) };
		rc = st_exec(tx, "INSERT INTO translation_pages (translation_id, page_id, source_key) VALUES ($1, $2, $3)",
			     p, NP(p), NULL);
	}
	return rc;
}

static int fill_id(struct store_tx *tx, struct db_rows *r, void *out)
{
	*(const char **)out = st_str(tx, r, 0);
	return 0;
}

int store_translations_of_source(struct store_tx *tx, const char *space_id, const char ***ids, int *n)
{
	struct db_param p[] = { P_TEXT(space_id) };

	return st_all(tx, "SELECT id FROM translations WHERE source_space = $1 ORDER BY created_at, id", p, NP(p),
		      fill_id, sizeof(const char *), (void **)ids, n);
}
