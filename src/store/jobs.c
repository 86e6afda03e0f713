/*
 * jobs.c - the job queue's rows (store/jobs.h). The transitions are drawn in
 * jobs/jobs.c; each function here is one of them, guarded in its WHERE
 * clause so that only the claim that holds a job can move it on.
 */
#include "store/internal.h"
#include "util/util.h"

#include <stdio.h>
#include <string.h>

#define JOB_COLS \
	"id, kind, subject, payload, state, worker, last_error, result, attempts, run_after, lease_until, created_at, " \
	"updated_at"

static int fill_job(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct job *j = out;

	j->id = st_str(tx, r, 0);
	j->kind = st_str(tx, r, 1);
	j->subject = st_str(tx, r, 2);
	j->payload = st_str(tx, r, 3);
	j->state = st_str(tx, r, 4);
	j->worker = st_str(tx, r, 5);
	j->last_error = st_str(tx, r, 6);
	j->result = st_str(tx, r, 7);
	j->attempts = st_int(tx, r, 8);
	j->run_after = st_int(tx, r, 9);
	j->lease_until = st_int(tx, r, 10);
	j->created_at = st_int(tx, r, 11);
	j->updated_at = st_int(tx, r, 12);
	return 0;
}

static int enqueue(struct store_tx *tx, const char *kind, const char *subject, const char *payload,
		   int64_t run_after, int dedup, const char *order_key, char *id, int64_t *added)
{
	int64_t now = clock_now_ms();
	int rc;

	if (!kind || !*kind)
		return err_set(ERR_INVALID, "a job needs a kind");
	if (id_new(id))
		return err_set(ERR_INTERNAL, "cannot make a job id");
	struct db_param p[] = { P_TEXT(id), P_TEXT(kind), P_TEXT(subject ? subject : ""),
				P_TEXT(payload ? payload : "{}"), P_INT(dedup), P_INT(run_after > 0 ? run_after : now),
				P_INT(now), order_key ? P_TEXT(order_key) : P_NULL };
	/* order_seq: after every job of the key still in the table. The caller
	 * serializes the jobs of one key (its transaction locks the row the key
	 * names: an integration, a space), so two never take the same number;
	 * once every job of a key is pruned, numbering may restart: nothing is
	 * left to follow. */
	rc = st_exec(tx,
		     "INSERT INTO jobs (id, kind, subject, payload, state, dedup, attempts, run_after, created_at, "
		     "updated_at, order_key, order_seq) VALUES ($1, $2, $3, $4, 'queued', $5, 0, $6, $7, $7, CAST($8 AS TEXT), "
		     "CASE WHEN CAST($8 AS TEXT) IS NULL THEN 0 ELSE (SELECT COALESCE(MAX(o.order_seq), 0) + 1 FROM jobs o "
		     "WHERE o.order_key = CAST($8 AS TEXT)) END) "
		     "ON CONFLICT (kind, subject) WHERE state = 'queued' AND dedup = 1 DO NOTHING",
		     p, NP(p), added);
	return rc;
}

int store_job_enqueue(struct store_tx *tx, const char *kind, const char *subject, const char *payload_json,
		      int64_t run_after, char *id)
{
	int64_t added = 0;

	return enqueue(tx, kind, subject, payload_json, run_after, 0, NULL, id, &added);
}

int store_job_enqueue_ordered(struct store_tx *tx, const char *kind, const char *subject, const char *payload_json,
			      int64_t run_after, const char *order_key, char *id)
{
	int64_t added = 0;

	if (!order_key || !*order_key)
		return err_set(ERR_INVALID, "an ordered job needs an order key");
	return enqueue(tx, kind, subject, payload_json, run_after, 0, order_key, id, &added);
}

static int fill_id(struct store_tx *tx, struct db_rows *r, void *out)
{
	const char *s = tx->drv->text(r, 0);

	snprintf(out, ID_LEN + 1, "%s", s ? s : "");
	return 0;
}

int store_job_enqueue_unique(struct store_tx *tx, const char *kind, const char *subject, const char *payload_json,
			     int64_t run_after, char *id)
{
	int64_t added = 0;
	int rc = enqueue(tx, kind, subject, payload_json, run_after, 1, NULL, id, &added);

	if (rc || added)
		return rc;
	/* The queued job runs no later than this request asks. */
	struct db_param p[] = { P_TEXT(kind), P_TEXT(subject ? subject : ""), P_INT(run_after > 0 ? run_after : clock_now_ms()) };
	rc = st_exec(tx, "UPDATE jobs SET run_after = $3 WHERE kind = $1 AND subject = $2 AND state = 'queued' AND dedup = 1 "
			 "AND run_after > $3", p, NP(p), NULL);
	if (rc)
		return rc;
	return st_one(tx, "SELECT id FROM jobs WHERE kind = $1 AND subject = $2 AND state = 'queued' AND dedup = 1", p,
		      2, fill_id, id);
}

/* The next due job: queued and due, or running with its lease passed, and,
 * for a job with an order key, the oldest unfinished job of its key (no job
 * of the key with a lower order_seq is queued or running). A job waiting
 * for an older one is thus never claimed, so it costs no claim, no push-back
 * and no poll: it becomes claimable in the transaction that finishes its
 * predecessor. On PostgreSQL, rows another claimer holds are skipped, not
 * waited for; the NOT EXISTS reads committed rows, so a predecessor another
 * worker is claiming right now is still queued or running there, and its
 * successor stays blocked. */
#define CLAIM_DUE \
	"((j.state = 'queued' AND j.run_after <= $1) OR (j.state = 'running' AND j.lease_until < $1)) " \
	"AND (j.order_key IS NULL OR NOT EXISTS (SELECT 1 FROM jobs o WHERE o.order_key = j.order_key " \
	"AND o.order_seq < j.order_seq AND o.state IN ('queued', 'running'))) "
#define J_COLS \
	"j.id, j.kind, j.subject, j.payload, j.state, j.worker, j.last_error, j.result, j.attempts, j.run_after, " \
	"j.lease_until, j.created_at, j.updated_at"
static const char claim_any[] =
	"SELECT " J_COLS " FROM jobs j WHERE " CLAIM_DUE "ORDER BY j.run_after, j.id LIMIT 1"
	DB_POSTGRES_ONLY(" FOR UPDATE OF j SKIP LOCKED");
static const char claim_kind[] =
	"SELECT " J_COLS " FROM jobs j WHERE j.kind = $2 AND " CLAIM_DUE "ORDER BY j.run_after, j.id LIMIT 1"
	DB_POSTGRES_ONLY(" FOR UPDATE OF j SKIP LOCKED");
static const char claim_except[] =
	"SELECT " J_COLS " FROM jobs j WHERE j.kind <> $2 AND " CLAIM_DUE "ORDER BY j.run_after, j.id LIMIT 1"
	DB_POSTGRES_ONLY(" FOR UPDATE OF j SKIP LOCKED");

static int claim(struct store_tx *tx, const char *worker, const char *sql, const char *kind, int64_t now,
		 int64_t lease_ms, store_job_limit_fn max_attempts, void *arg, struct job *out)
{
	for (;;) {
		struct db_param p[] = { P_INT(now), P_TEXT(kind) };
		struct job j;
		int64_t changes = 0;
		int rc = st_one(tx, sql, p, kind ? 2 : 1, fill_job, &j);

		if (rc)
			return rc;
		if (strcmp(j.state, "running") == 0 && j.attempts >= max_attempts(j.kind, arg)) {
			/* Its process died on every attempt: running -> failed. */
			struct db_param f[] = { P_TEXT(j.id), P_INT(now) };
			rc = st_exec(tx,
				     "UPDATE jobs SET state = 'failed', worker = NULL, lease_until = NULL, updated_at = $2, "
				     "last_error = 'its lease expired on every attempt (the process running it died)' "
				     "WHERE id = $1",
				     f, NP(f), NULL);
			if (rc)
				return rc;
			continue;
		}
		struct db_param u[] = { P_TEXT(j.id), P_TEXT(worker), P_INT(now + lease_ms), P_INT(now) };
		rc = st_exec(tx,
			     "UPDATE jobs SET state = 'running', attempts = attempts + 1, worker = $2, lease_until = $3, "
			     "updated_at = $4 WHERE id = $1",
			     u, NP(u), &changes);
		if (rc)
			return rc;
		j.state = "running";
		j.worker = worker;
		j.attempts++;
		j.lease_until = now + lease_ms;
		j.updated_at = now;
		*out = j;
		return 0;
	}
}

int store_job_claim(struct store_tx *tx, const char *worker, const char *kind, int64_t now, int64_t lease_ms,
		    store_job_limit_fn max_attempts, void *arg, struct job *out)
{
	return claim(tx, worker, kind ? claim_kind : claim_any, kind, now, lease_ms, max_attempts, arg, out);
}

int store_job_claim_except(struct store_tx *tx, const char *worker, const char *except_kind, int64_t now,
			   int64_t lease_ms, store_job_limit_fn max_attempts, void *arg, struct job *out)
{
	return claim(tx, worker, claim_except, except_kind, now, lease_ms, max_attempts, arg, out);
}

int store_job_done(struct store_tx *tx, const struct job *j, const char *result_json, int64_t now)
{
	struct db_param p[] = { P_TEXT(j->id), P_INT(j->attempts), P_TEXT(j->worker), P_TEXT(result_json), P_INT(now) };
	int64_t changes = 0;
	int rc = st_exec(tx,
			 "UPDATE jobs SET state = 'done', result = $4, last_error = NULL, lease_until = NULL, "
			 "updated_at = $5 WHERE id = $1 AND attempts = $2 AND worker = $3 AND state = 'running'",
			 p, NP(p), &changes);

	if (rc == 0 && changes == 0)
		rc = err_set(ERR_CONFLICT, "job %s lost its lease", j->id);
	return rc;
}

int store_job_retry(struct store_tx *tx, const struct job *j, const char *error, int64_t run_after, int64_t now)
{
	struct db_param p[] = { P_TEXT(j->id), P_INT(j->attempts), P_TEXT(j->worker), P_TEXT(error),
				P_INT(run_after), P_INT(now) };
	int64_t changes = 0;
	int rc;

	if (run_after < 0) {
		p[4] = P_INT(now); /* PostgreSQL wants every parameter up to the highest used */
		rc = st_exec(tx,
			     "UPDATE jobs SET state = 'failed', last_error = $4, lease_until = NULL, updated_at = $5 "
			     "WHERE id = $1 AND attempts = $2 AND worker = $3 AND state = 'running'",
			     p, 5, &changes);
	} else
		rc = st_exec(tx,
			     "UPDATE jobs SET state = 'queued', dedup = 0, last_error = $4, run_after = $5, "
			     "lease_until = NULL, worker = NULL, updated_at = $6 "
			     "WHERE id = $1 AND attempts = $2 AND worker = $3 AND state = 'running'",
			     p, NP(p), &changes);
	if (rc == 0 && changes == 0)
		rc = err_set(ERR_CONFLICT, "job %s lost its lease", j->id);
	return rc;
}

int store_job_defer(struct store_tx *tx, const struct job *j, int64_t run_after, int64_t now)
{
	struct db_param p[] = { P_TEXT(j->id), P_INT(j->attempts), P_TEXT(j->worker), P_INT(run_after), P_INT(now) };
	int64_t changes = 0;
	int rc = st_exec(tx,
			 "UPDATE jobs SET state = 'queued', attempts = attempts - 1, run_after = $4, lease_until = NULL, "
			 "worker = NULL, updated_at = $5 WHERE id = $1 AND attempts = $2 AND worker = $3 AND state = 'running'",
			 p, NP(p), &changes);

	if (rc == 0 && changes == 0)
		rc = err_set(ERR_CONFLICT, "job %s lost its lease", j->id);
	return rc;
}

int store_job_heartbeat(struct store_tx *tx, const char *worker, int64_t lease_until, int64_t now)
{
	struct db_param p[] = { P_TEXT(worker), P_INT(lease_until), P_INT(now) };

	return st_exec(tx,
		       "UPDATE jobs SET lease_until = $2 WHERE worker = $1 AND state = 'running' AND lease_until >= $3",
		       p, NP(p), NULL);
}

static int fill_int(struct store_tx *tx, struct db_rows *r, void *out)
{
	*(int64_t *)out = st_int(tx, r, 0);
	return 0;
}

int store_job_schedule(struct store_tx *tx, const char *kind, int64_t interval_ms, int64_t now)
{
	struct db_param p[] = { P_TEXT(kind) };
	int64_t pending = 0, last = 0;
	char id[ID_LEN + 1];
	int rc = st_one(tx, "SELECT COUNT(*) FROM jobs WHERE kind = $1 AND state IN ('queued', 'running')", p, NP(p),
			fill_int, &pending);

	if (rc)
		return rc;
	if (pending) {
		/* A periodic job never waits longer than its interval from now:
		 * a clock set back (or a process whose clock ran ahead, on a shared
		 * database) must not postpone it by the difference. */
		struct db_param q[] = { P_TEXT(kind), P_INT(now), P_INT(now + interval_ms) };

		return st_exec(tx, "UPDATE jobs SET run_after = $2 WHERE kind = $1 AND state = 'queued' AND run_after > $3",
			       q, NP(q), NULL);
	}
	rc = st_one(tx, "SELECT COALESCE(MAX(updated_at), 0) FROM jobs WHERE kind = $1 AND state IN ('done', 'failed')",
		    p, NP(p), fill_int, &last);
	if (rc)
		return rc;
	/* Due an interval after the last run, and never later than an interval
	 * from now (a last run stamped by a clock ahead of this one). */
	int64_t due = last && last + interval_ms > now ? last + interval_ms : now;

	if (due > now + interval_ms)
		due = now + interval_ms;
	return store_job_enqueue_unique(tx, kind, NULL, NULL, due, id);
}

int store_job_prune(struct store_tx *tx, int64_t before, int64_t *removed)
{
	struct db_param p[] = { P_INT(before) };

	return st_exec(tx, "DELETE FROM jobs WHERE state IN ('done', 'failed') AND updated_at < $1", p, NP(p), removed);
}

int store_job_get(struct store_tx *tx, const char *id, struct job *out)
{
	struct db_param p[] = { P_TEXT(id) };

	return st_one(tx, "SELECT " JOB_COLS " FROM jobs WHERE id = $1", p, NP(p), fill_job, out);
}

int store_job_list(struct store_tx *tx, const char *kind, int limit, struct job **out, int *n)
{
	struct db_param p[] = { P_INT(limit), P_TEXT(kind) };
	int more = 0;

	return st_list(tx,
		       kind ? "SELECT " JOB_COLS " FROM jobs WHERE kind = $2 ORDER BY created_at DESC, id DESC LIMIT $1"
			    : "SELECT " JOB_COLS " FROM jobs ORDER BY created_at DESC, id DESC LIMIT $1",
		       p, kind ? 2 : 1, limit, fill_job, sizeof(struct job), (void **)out, n, &more);
}

static int fill_count(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct job_count *c = out;

	c->kind = st_str(tx, r, 0);
	c->state = st_str(tx, r, 1);
	c->n = st_int(tx, r, 2);
	return 0;
}

int store_job_counts(struct store_tx *tx, struct job_count **out, int *n)
{
	return st_all(tx, "SELECT kind, state, COUNT(*) FROM jobs GROUP BY kind, state ORDER BY kind, state", NULL, 0,
		      fill_count, sizeof(struct job_count), (void **)out, n);
}

int store_job_test_mark(struct store_tx *tx, const char *name, int64_t *count)
{
	struct db_param p[] = { P_TEXT(name) };

	return st_one(tx,
		      "INSERT INTO settings (name, value) VALUES ($1, '1') ON CONFLICT (name) DO UPDATE SET "
		      "value = CAST(CAST(settings.value AS INTEGER) + 1 AS TEXT) RETURNING CAST(value AS INTEGER)",
		      p, NP(p), fill_int, count);
}
