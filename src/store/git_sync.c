/*
 * git_sync.c - a space's link to a Git repository (store/git_sync.h).
 */
#include "store/git_sync.h"
#include "store/internal.h"

#include <string.h>

#define LINK_COLS                                                                                                   \
	"space_id, url, credentials, ref, provider, info_url, tree_url, commit_url, project_dir, cache_id, repo_name, " \
	"updated_at, import_commit, import_key, export_commit, synced_revision, summary_oid, summary_hash, "          \
	"last_timestamp, applied_job, op_state, op_direction, op_stage, op_error, op_note, op_commit, op_revision, op_job, "       \
	"op_completed_tasks, op_started_at, op_updated_at, op_completed_at"

static int fill_link(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct gs_link *l = out;
	int c = 0;

	memset(l, 0, sizeof(*l));
	l->space_id = st_str(tx, r, c++);
	l->url = st_str(tx, r, c++);
	l->credentials = st_str(tx, r, c++);
	l->ref = st_str(tx, r, c++);
	l->provider = st_str(tx, r, c++);
	l->info_url = st_str(tx, r, c++);
	l->tree_url = st_str(tx, r, c++);
	l->commit_url = st_str(tx, r, c++);
	l->project_dir = st_str(tx, r, c++);
	l->cache_id = st_str(tx, r, c++);
	l->repo_name = st_str(tx, r, c++);
	l->updated_at = st_int(tx, r, c++);
	l->import_commit = st_str(tx, r, c++);
	l->import_key = st_str(tx, r, c++);
	l->export_commit = st_str(tx, r, c++);
	l->synced_revision = st_str(tx, r, c++);
	l->summary_oid = st_str(tx, r, c++);
	l->summary_hash = st_str(tx, r, c++);
	l->last_timestamp = st_int(tx, r, c++);
	l->applied_job = st_str(tx, r, c++);
	l->op_state = st_str(tx, r, c++);
	l->op_direction = st_str(tx, r, c++);
	l->op_stage = st_str(tx, r, c++);
	l->op_error = st_str(tx, r, c++);
	l->op_note = st_str(tx, r, c++);
	l->op_commit = st_str(tx, r, c++);
	l->op_revision = st_str(tx, r, c++);
	l->op_job = st_str(tx, r, c++);
	l->op_completed_tasks = (int)st_int(tx, r, c++);
	l->op_started_at = st_int(tx, r, c++);
	l->op_updated_at = st_int(tx, r, c++);
	l->op_completed_at = st_int(tx, r, c++);
	return 0;
}

int store_git_link_get(struct store_tx *tx, const char *space_id, struct gs_link *out)
{
	struct db_param p[] = { P_TEXT(space_id) };

	return st_one(tx, "SELECT " LINK_COLS " FROM git_syncs WHERE space_id = $1", p, NP(p), fill_link, out);
}

static int set_space_state(struct store_tx *tx, const char *space_id, const char *state_json)
{
	struct db_param p[] = { P_TEXT(space_id), P_TEXT(state_json) };
	int rc = st_exec(tx, "UPDATE spaces SET git_sync = $2 WHERE id = $1", p, NP(p), NULL);

	if (rc)
		return rc;
	return st_exec(tx, "UPDATE orgs SET generation = generation + 1 WHERE id = (SELECT org_id FROM spaces WHERE id = $1)",
		       p, 1, NULL);
}

int store_git_link_put(struct store_tx *tx, const struct gs_link *l, const char *state_json)
{
	struct db_param p[] = {
		P_TEXT(l->space_id), P_TEXT(l->url), P_TEXT(l->credentials), P_TEXT(l->ref), P_TEXT(l->provider),
		P_TEXT(l->info_url), P_TEXT(l->tree_url), P_TEXT(l->commit_url), P_TEXT(l->project_dir),
		P_TEXT(l->cache_id), P_TEXT(l->repo_name), P_INT(l->updated_at), P_TEXT(l->import_commit),
		P_TEXT(l->import_key), P_TEXT(l->export_commit), P_TEXT(l->synced_revision), P_TEXT(l->summary_oid),
		P_TEXT(l->summary_hash), P_INT(l->last_timestamp), P_TEXT(l->applied_job), P_TEXT(l->op_state), P_TEXT(l->op_direction),
		P_TEXT(l->op_stage), P_TEXT(l->op_error), P_TEXT(l->op_note), P_TEXT(l->op_commit),
		P_TEXT(l->op_revision), P_TEXT(l->op_job), P_INT(l->op_completed_tasks), P_INT(l->op_started_at),
		P_INT(l->op_updated_at), P_INT(l->op_completed_at),
	};
	int rc = st_exec(tx,
			 "INSERT INTO git_syncs (" LINK_COLS ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, "
			 "$13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32) "
			 "ON CONFLICT (space_id) DO UPDATE SET url = $2, credentials = $3, ref = $4, provider = $5, "
			 "info_url = $6, tree_url = $7, commit_url = $8, project_dir = $9, cache_id = $10, repo_name = $11, "
			 "updated_at = $12, import_commit = $13, import_key = $14, export_commit = $15, "
			 "synced_revision = $16, summary_oid = $17, summary_hash = $18, last_timestamp = $19, "
			 "applied_job = $20, op_state = $21, op_direction = $22, op_stage = $23, op_error = $24, "
			 "op_note = $25, op_commit = $26, op_revision = $27, op_job = $28, op_completed_tasks = $29, "
			 "op_started_at = $30, op_updated_at = $31, op_completed_at = $32",
			 p, NP(p), NULL);

	return rc ? rc : set_space_state(tx, l->space_id, state_json);
}

int store_git_link_delete(struct store_tx *tx, const char *space_id, bool *removed)
{
	struct db_param p[] = { P_TEXT(space_id) };
	int64_t changes = 0;
	int rc = st_exec(tx, "DELETE FROM git_syncs WHERE space_id = $1", p, NP(p), &changes);

	*removed = changes > 0;
	if (rc || !*removed)
		return rc;
	return set_space_state(tx, space_id, NULL);
}

static int fill_count(struct store_tx *tx, struct db_rows *r, void *out)
{
	*(int64_t *)out = st_int(tx, r, 0);
	return 0;
}

int store_git_jobs_before(struct store_tx *tx, const char *kind_a, const char *kind_b, const struct job *j,
			  int64_t *n)
{
	struct db_param p[] = { P_TEXT(kind_a), P_TEXT(kind_b), P_TEXT(j->subject), P_INT(j->created_at),
				P_TEXT(j->id) };

	*n = 0;
	return st_one(tx,
		      "SELECT COUNT(*) FROM jobs WHERE kind IN ($1, $2) AND subject = $3 AND state IN ('queued', "
		      "'running') AND (created_at < $4 OR (created_at = $4 AND id < $5))",
		      p, NP(p), fill_count, n);
}
