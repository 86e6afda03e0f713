/*
 * jobs.h - the durable job queue's workers and kinds (jobs.c draws the state
 * machine; store/jobs.h holds the rows; kinds.c is the table of kinds).
 *
 * A job is a row: kind, subject, payload (JSON), state, attempts, run_after,
 * lease. Worker threads (--job-workers, default 2) claim due jobs and run the
 * handler that the kind's row in job_kinds[] (kinds.c) names. Domain code
 * adds jobs with store_job_enqueue() inside its own transaction: the job
 * exists iff that write committed. The kinds are constant data, like the
 * route table: one row (kind, handler, attempts, own transaction) and one
 * worker file under src/jobs/ per kind; nothing is registered at run time.
 *
 * Layers: a worker (src/jobs/<kind>.c) is a thin adapter that calls the
 * exported function of the module doing the work (domain/, translate/) with
 * a struct dom_job (domain/job.h); the domain layer never includes this
 * header.
 *
 * The handler contract (idempotence): a job may run more than once (its
 * process died, or it failed and is retried), so a handler must make a second
 * application of its effect a no-op. A kind whose row has own_tx false runs
 * inside the worker's write transaction (d->tx), and the job is marked done
 * in that same transaction: its effect and `done` commit together or not at
 * all, so it can never apply twice. A kind with own_tx (long work: it must
 * not hold the writer) gets d->tx NULL and opens its own transactions on
 * run->store; each of its effects must be keyed so that repeating it changes
 * nothing (the purge deletes what is still there; an import records the
 * commit it applied and skips it).
 *
 * Periodic jobs (the purge of deleted spaces every minute, the collection of
 * unreferenced bodies and blobs hourly and after a purge that removed
 * spaces) are queued by the scheduler thread when due and run by the same
 * workers.
 */
#ifndef DOCSD_JOBS_JOBS_H
#define DOCSD_JOBS_JOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store;
struct server;
struct jobs;
struct dom;
struct job;

/* Limits: a job is tried at most its kind's max_attempts times
 * (JOB_MAX_ATTEMPTS, the default every kind uses today); after the n-th
 * failed attempt it runs again JOB_BACKOFF_MS * 2^(n-1) later (10 s, 20 s,
 * 40 s, 80 s), capped at JOB_BACKOFF_MAX_MS. A running job's lease lasts
 * JOB_LEASE_MS and is renewed every JOB_HEARTBEAT_MS while its process
 * lives; idle workers look for work every JOB_POLL_MS. */
#define JOB_MAX_ATTEMPTS 5
#define JOB_BACKOFF_MS 10000
#define JOB_BACKOFF_MAX_MS (60LL * 60 * 1000)
#define JOB_LEASE_MS 30000
#define JOB_HEARTBEAT_MS 10000
#define JOB_POLL_MS 1000
/* Finished jobs are deleted this long after they finished. */
#define JOB_KEEP_MS (7LL * 24 * 60 * 60 * 1000)

/* The kinds docsd runs itself. */
#define JOB_KIND_PURGE "spaces.purge"
#define JOB_KIND_GC "content.gc"
#define JOB_KIND_TEST "test.sleep-then-write"

/* The context a handler runs in: the job's row and, for own-transaction
 * handlers, the store. *result may be set to JSON text (in d->arena) kept in
 * the job's row. */
struct job_run {
	const struct job *job;
	struct store *store;
	const char *result;
	/* A handler that cannot run yet (an older job it must follow has not
	 * finished: Git sync runs a space's jobs in order) sets defer_ms > 0 and
	 * returns an error: the job is queued again defer_ms later and the
	 * attempt is not counted (store_job_defer). */
	int64_t defer_ms;
};

/* A handler: 0 when done; an ERR_* code otherwise (err_message() says why).
 * ERR_INVALID, ERR_NOT_FOUND, ERR_FORBIDDEN and ERR_PRECONDITION are
 * permanent (failed at once); anything else is retried with backoff. */
typedef int (*job_fn)(struct dom *d, struct job_run *run);

/* One kind of job: a row of job_kinds[] (kinds.c tells how to add one). */
struct job_kind {
	const char *kind;  /* the rows' kind column, e.g. "git.import" */
	job_fn fn;         /* the worker (src/jobs/<kind>.c) */
	int max_attempts;  /* tries before it fails for good (a deferral is not one) */
	bool own_tx;       /* the handler opens its own transactions (see above) */
	bool test_only;    /* run only when DOCSD_TEST_JOBS=1 is in the environment,
			    * read when a job is claimed */
};

/* The kinds docsd runs (kinds.c), constant. */
extern const struct job_kind job_kinds[];
extern const size_t job_kinds_count;

/* The row of kind in kinds[0..n) (NULL when none, or when it is test_only
 * and DOCSD_TEST_JOBS=1 is not set). */
const struct job_kind *jobs_kind_find(const struct job_kind *kinds, size_t n, const char *kind);

/* Start `workers` worker threads (0: none, the scheduler still queues) and
 * the scheduler; srv may be NULL (tests). Due periodic jobs run once in the
 * calling thread first, so a restarted server starts clean. DOCSD_TEST_JOBS=1
 * in the environment lets the test-only kind JOB_KIND_TEST run. */
int jobs_start(struct jobs **out, struct store *store, const struct server *srv, int workers);
void jobs_stop(struct jobs *j);
/* A job was just queued in this process (the caller's transaction may not
 * have committed yet): idle workers look for it every few milliseconds for
 * the next second instead of waiting JOB_POLL_MS. Accepts NULL. */
void jobs_kick(struct jobs *j);

/* Claim one due job (of kind, or any kind when NULL) as worker and run it:
 * 1 when a job ran (whatever its outcome), 0 when none was due, <0 on error.
 * The workers' loop, and tests. */
int jobs_run_one(struct store *store, const struct server *srv, const char *worker, const char *kind);
/* A worker's step: like jobs_run_one for any kind, but a kind other than
 * *last_kind (the kind this worker ran last, updated) is claimed first when
 * one is due. */
int jobs_run_next(struct store *store, const struct server *srv, const char *worker, char *last_kind, size_t last_len);
/* The same with another table of kinds (unit tests' own handlers). */
int jobs_run_one_in(const struct job_kind *kinds, size_t nkinds, struct store *store, const struct server *srv,
		    const char *worker, const char *kind);

/* Backoff after the n-th failed attempt (n >= 1). */
int64_t jobs_backoff_ms(int64_t attempts);

/* The purge, for tests and the purge job: removes spaces deleted before
 * now - SPACE_RETENTION_MS; *removed counts them. */
int jobs_purge_spaces(struct store *store, int64_t *removed);

/* The collection, for tests and the gc job: deletes the page bodies and
 * file blobs that no revision references and that were last stored before
 * cutoff (the job passes now - CONTENT_GC_GRACE_MS); counts in *bodies
 * and *blobs. */
int jobs_collect_garbage(struct store *store, int64_t cutoff, int64_t *bodies, int64_t *blobs);

#endif
