/*
 * jobs.h - the rows of the durable job queue (store/jobs.c); the queue's
 * workers, handlers and state machine are in jobs/jobs.c.
 */
#ifndef DOCSD_STORE_JOBS_H
#define DOCSD_STORE_JOBS_H

#include <stdint.h>

struct store_tx;

/* One job row (strings in the transaction's arena). */
struct job {
	const char *id;
	const char *kind;
	const char *subject; /* "" when none */
	const char *payload; /* JSON text */
	const char *state;   /* queued, running, done, failed */
	const char *worker;  /* the process holding it while running */
	const char *last_error;
	const char *result;  /* JSON text or NULL */
	int64_t attempts;    /* claims so far, this one included */
	int64_t run_after, lease_until, created_at, updated_at;
};

/* Add a queued job inside the caller's transaction, so it exists iff the
 * caller's write commits. subject may be NULL (""), payload_json NULL ("{}"),
 * run_after 0 (now). *id (ID_LEN + 1 bytes) gets its id. */
int store_job_enqueue(struct store_tx *tx, const char *kind, const char *subject, const char *payload_json,
		      int64_t run_after, char *id);
/* The same, in order with the other jobs of order_key (not NULL): the job is
 * claimed only once every job of the key queued before it has finished
 * (done or failed), whatever their kinds. The caller's transaction must
 * serialize the jobs of one key (lock the row the key names). */
int store_job_enqueue_ordered(struct store_tx *tx, const char *kind, const char *subject, const char *payload_json,
			      int64_t run_after, const char *order_key, char *id);
/* The same, deduplicated: when a job of this kind and subject is already
 * queued (not yet running), no job is added, that job's run_after moves
 * earlier if this one is, and *id gets that job's id. */
int store_job_enqueue_unique(struct store_tx *tx, const char *kind, const char *subject, const char *payload_json,
			     int64_t run_after, char *id);

/* Claim the next due job for `worker` (store/jobs.c; jobs/jobs.c draws the
 * state machine): a queued job whose run_after has come, or a running one
 * whose lease passed, becomes running with attempts + 1 and lease_until =
 * now + lease_ms. kind NULL: any kind. ERR_NOT_FOUND when none is due. A
 * job whose lease passed with attempts >= max_attempts(its kind, arg) (the
 * queue's table of kinds knows each kind's limit) is failed instead, and the
 * next one is looked at (so the caller commits after ERR_NOT_FOUND too). On
 * PostgreSQL the row is taken FOR UPDATE SKIP LOCKED, so concurrent claimers
 * never take the same job. */
typedef int (*store_job_limit_fn)(const char *kind, void *arg);
int store_job_claim(struct store_tx *tx, const char *worker, const char *kind, int64_t now, int64_t lease_ms,
		    store_job_limit_fn max_attempts, void *arg, struct job *out);
/* The same, for a job of any kind but except_kind (not NULL): a worker that
 * just ran a job of a kind looks at the other kinds first (jobs.c), so a
 * backlog of one kind does not keep the others waiting. */
int store_job_claim_except(struct store_tx *tx, const char *worker, const char *except_kind, int64_t now,
			   int64_t lease_ms, store_job_limit_fn max_attempts, void *arg, struct job *out);
/* running -> done, only if this claim (id, attempts, worker) still holds it:
 * ERR_CONFLICT when it lost its lease (the caller rolls back). */
int store_job_done(struct store_tx *tx, const struct job *j, const char *result_json, int64_t now);
/* running -> queued with run_after, or -> failed when run_after < 0; only if
 * this claim still holds it (ERR_CONFLICT otherwise). A requeued job gives up
 * its dedup slot, so a new request for the same subject is not lost. */
int store_job_retry(struct store_tx *tx, const struct job *j, const char *error, int64_t run_after, int64_t now);
/* running -> queued with run_after, giving the attempt back (attempts - 1):
 * the handler asked to run later. ERR_CONFLICT when the claim lost it. */
int store_job_defer(struct store_tx *tx, const struct job *j, int64_t run_after, int64_t now);
/* Extend the lease of every job `worker` runs. */
int store_job_heartbeat(struct store_tx *tx, const char *worker, int64_t lease_until, int64_t now);
/* A periodic job: unless one of this kind is queued or running, queue one
 * (deduplicated) to run `interval_ms` after the last one finished (now when
 * none did). */
int store_job_schedule(struct store_tx *tx, const char *kind, int64_t interval_ms, int64_t now);
/* Delete finished (done, failed) jobs last updated before `before`. */
int store_job_prune(struct store_tx *tx, int64_t before, int64_t *removed);
int store_job_get(struct store_tx *tx, const char *id, struct job *out);
/* The newest jobs of a kind (or every kind when NULL), at most limit. */
int store_job_list(struct store_tx *tx, const char *kind, int limit, struct job **out, int *n);

struct job_count {
	const char *kind, *state;
	int64_t n;
};
/* Jobs by kind and state (for /metrics). */
int store_job_counts(struct store_tx *tx, struct job_count **out, int *n);

/* The test-only kind's effect (DOCSD_TEST_JOBS): add 1 to the counter named
 * name in settings; *count gets its new value. */
int store_job_test_mark(struct store_tx *tx, const char *name, int64_t *count);

#endif
