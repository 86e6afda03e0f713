/*
 * jobs.c - the job queue's workers, scheduler and handlers (jobs.h).
 *
 * The state machine of a job row, with the function behind each transition
 * (store/jobs.c runs the SQL; every transition out of running is guarded by
 * the claim that holds the job: its id, attempts and worker):
 *
 *   store_job_enqueue[_unique]
 *             |
 *             v        store_job_claim (run_after has come)
 *         +--------+ --------------------------------------> +---------+
 *         | queued |                                          | running |--+
 *         +--------+ <-------------------------------------- +---------+  |
 *             ^        store_job_retry (retryable error,        |   |  ^   |
 *             |        attempts < JOB_MAX_ATTEMPTS:             |   |  |   | store_job_claim
 *             |        run_after = now + jobs_backoff_ms)       |   |  +---+ (lease_until passed:
 *             |                                                 |   |        its process died;
 *             +-- (a lease that expired is claimed again        |   |        attempts + 1)
 *                  directly: running -> queued -> running       |   |
 *                  in one step of store_job_claim)              |   |
 *                                                               |   |
 *             store_job_done (the handler returned 0; committed  |   | store_job_retry with run_after < 0
 *             with its effect for in-transaction handlers)       |   | (permanent error, or attempts ==
 *                                                               v   v  JOB_MAX_ATTEMPTS), or
 *                                                      +------+  +--------+ store_job_claim (lease
 *                                                      | done |  | failed | expired on the last attempt)
 *                                                      +------+  +--------+
 *
 * running -> queued is also store_job_defer: the handler asked to run later
 * (job_run.defer_ms: an older job it must follow is unfinished); the attempt
 * is given back, so waiting never exhausts a job's attempts.
 *
 * done and failed are final; store_job_prune deletes them JOB_KEEP_MS later.
 * Leases: a worker's claim sets lease_until = now + JOB_LEASE_MS; the
 * scheduler thread renews the leases of every job its process runs
 * (store_job_heartbeat) every JOB_HEARTBEAT_MS, so only a dead process's
 * jobs expire. The process is named by a random id (its worker column).
 *
 * On PostgreSQL the claim is SELECT ... FOR UPDATE SKIP LOCKED, so several
 * docsd processes share the work; on SQLite the claim runs in a write
 * transaction, which the store serializes.
 */
#include "jobs/jobs.h"
#include "domain/domain.h"
#include "store/store.h"
#include "util/alloc.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PURGE_INTERVAL_MS 60000
/* The collection reads every revision's manifest: hourly, and after a purge
 * that removed spaces. */
#define GC_INTERVAL_MS (60LL * 60 * 1000)
/* Rows deleted per write transaction: the writer is held briefly. */
#define GC_DELETE_BATCH 128
#define MAX_KINDS 32
#define MAX_WORKERS 64
/* After jobs_kick: how often idle workers look, and for how many rounds. */
#define KICK_POLL_MS 25
#define KICK_POLLS 40

/* The handler registry, by kind. The one process-wide table in docsd (not
 * hung off struct server): kinds are registered by the modules that own them
 * (Git sync, imports) before jobs_start, and only read after; the mutex
 * keeps a late registration safe all the same. */
static struct {
	const char *kind;
	job_fn fn;
	int own_tx;
} kinds[MAX_KINDS];
static int nkinds;
static pthread_mutex_t kinds_mu = PTHREAD_MUTEX_INITIALIZER;

struct jobs {
	struct store *store;
	const struct server *srv;
	char worker[ID_LEN + 8]; /* this process, in the rows it runs */
	pthread_t threads[MAX_WORKERS], scheduler;
	int nthreads, scheduler_started;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int stop;
	/* jobs_kick: idle workers look for work every KICK_POLL_MS for the next
	 * kick_polls rounds (the kicking transaction may not have committed yet
	 * when they first look). Under mu. */
	int kick_polls;
};

static int tx_purge(struct store_tx *tx, void *arg)
{
	return store_spaces_purge(tx, clock_now_ms() - SPACE_RETENTION_MS, arg);
}

int jobs_purge_spaces(struct store *store, int64_t *removed)
{
	struct arena a;
	int rc;

	*removed = 0;
	arena_init(&a);
	rc = store_tx_run(store, 1, &a, tx_purge, removed);
	arena_free(&a);
	return rc;
}

struct gc_batch {
	bool blobs;
	const char *const *hashes;
	int n;
	int64_t cutoff, deleted;
};

static int tx_gc_delete(struct store_tx *tx, void *arg)
{
	struct gc_batch *b = arg;

	return store_garbage_delete(tx, b->blobs, b->hashes, b->n, b->cutoff, &b->deleted);
}

struct gc_find {
	int64_t cutoff;
	struct store_garbage *g;
};

static int tx_gc_find(struct store_tx *tx, void *arg)
{
	struct gc_find *f = arg;

	return store_garbage_find(tx, f->cutoff, f->g);
}

/* Delete one kind of garbage in short write transactions. */
static int gc_delete(struct store *store, bool blobs, const char *const *hashes, int n, int64_t cutoff,
		     int64_t *deleted)
{
	int rc = 0;

	*deleted = 0;
	for (int at = 0; at < n && rc == 0; at += GC_DELETE_BATCH) {
		struct arena a;
		struct gc_batch b = { blobs, hashes + at, n - at < GC_DELETE_BATCH ? n - at : GC_DELETE_BATCH, cutoff, 0 };
		arena_init(&a);
		if ((rc = store_tx_run(store, 1, &a, tx_gc_delete, &b)) == 0)
			*deleted += b.deleted;
		arena_free(&a);
	}
	return rc;
}

int jobs_collect_garbage(struct store *store, int64_t cutoff, int64_t *bodies, int64_t *blobs)
{
	struct arena a;
	struct store_garbage g;
	struct gc_find find = { cutoff, &g };
	int rc;

	*bodies = *blobs = 0;
	arena_init(&a);
	/* Find in a read transaction (no writer held while every manifest is
	 * read), then delete in short write transactions. */
	rc = store_tx_run(store, 0, &a, tx_gc_find, &find);
	if (rc == 0)
		rc = gc_delete(store, false, g.bodies, g.nbodies, cutoff, bodies);
	if (rc == 0)
		rc = gc_delete(store, true, g.blobs, g.nblobs, cutoff, blobs);
	arena_free(&a);
	return rc;
}

static int reg(const char *kind, job_fn fn, int own_tx)
{
	int rc = 0;

	pthread_mutex_lock(&kinds_mu);
	for (int i = 0; i < nkinds; i++)
		if (strcmp(kinds[i].kind, kind) == 0) {
			kinds[i].fn = fn;
			kinds[i].own_tx = own_tx;
			goto out;
		}
	if (nkinds == MAX_KINDS) {
		rc = err_set(ERR_INTERNAL, "too many job kinds");
		goto out;
	}
	kinds[nkinds].kind = kind;
	kinds[nkinds].fn = fn;
	kinds[nkinds].own_tx = own_tx;
	nkinds++;
out:
	pthread_mutex_unlock(&kinds_mu);
	return rc;
}

int jobs_register(const char *kind, job_fn fn)
{
	return reg(kind, fn, 0);
}

int jobs_register_own_tx(const char *kind, job_fn fn)
{
	return reg(kind, fn, 1);
}

static int lookup(const char *kind, job_fn *fn, int *own_tx)
{
	int found = 0;

	pthread_mutex_lock(&kinds_mu);
	for (int i = 0; i < nkinds && !found; i++)
		if (strcmp(kinds[i].kind, kind) == 0) {
			*fn = kinds[i].fn;
			*own_tx = kinds[i].own_tx;
			found = 1;
		}
	pthread_mutex_unlock(&kinds_mu);
	return found;
}

int64_t jobs_backoff_ms(int64_t attempts)
{
	int64_t ms = JOB_BACKOFF_MS;

	for (int64_t i = 1; i < attempts && ms < JOB_BACKOFF_MAX_MS; i++)
		ms *= 2;
	return ms < JOB_BACKOFF_MAX_MS ? ms : JOB_BACKOFF_MAX_MS;
}

/* ---- the built-in kinds ---- */

/* After a purge: finished jobs past JOB_KEEP_MS deleted, and the collection
 * queued when spaces were removed. */
static int tx_after_purge(struct store_tx *tx, void *arg)
{
	const int64_t *removed = arg;
	int64_t pruned = 0;
	char id[ID_LEN + 1];
	int rc = store_job_prune(tx, clock_now_ms() - JOB_KEEP_MS, &pruned);

	if (rc == 0 && *removed)
		rc = store_job_enqueue_unique(tx, JOB_KIND_GC, NULL, NULL, 0, id);
	return rc;
}

/* spaces.purge (own transactions: the purge is idempotent, it deletes what is
 * still there). After a purge that removed spaces the collection is queued,
 * and finished jobs past JOB_KEEP_MS are deleted. */
static int job_purge(struct dom *d, struct job_run *run)
{
	int64_t removed = 0;
	int rc;

	if ((rc = jobs_purge_spaces(run->store, &removed)))
		return rc;
	if (removed)
		log_info("purged %lld spaces deleted more than 7 days ago", (long long)removed);
	if ((rc = store_tx_run(run->store, 1, d->arena, tx_after_purge, &removed)) == 0) {
		char *res = arena_printf(d->arena, "{\"purged\":%lld}", (long long)removed);
		run->result = res;
	}
	return rc;
}

/* content.gc (own transactions: deleting what no revision references is
 * idempotent). */
static int job_gc(struct dom *d, struct job_run *run)
{
	int64_t bodies, blobs;
	int rc = jobs_collect_garbage(run->store, clock_now_ms() - CONTENT_GC_GRACE_MS, &bodies, &blobs);

	if (rc)
		return rc;
	if (bodies || blobs)
		log_info("collected %lld page bodies and %lld file blobs no revision references", (long long)bodies,
			 (long long)blobs);
	run->result = arena_printf(d->arena, "{\"bodies\":%lld,\"blobs\":%lld}", (long long)bodies, (long long)blobs);
	return 0;
}

/* test.sleep-then-write (DOCSD_TEST_JOBS=1 only): sleeps the payload's "ms"
 * (default 2000) inside the worker's transaction, then adds 1 to the counter
 * settings["test.sleep-then-write:<subject>"]. In-transaction: the counter
 * and `done` commit together, so a job killed mid-sleep and run again counts
 * 1, never 2. The result is {"count": the counter after this run}. */
static int job_test_sleep(struct dom *d, struct job_run *run)
{
	const char *ms = strstr(run->job->payload, "\"ms\":");
	long n = ms ? strtol(ms + 5, NULL, 10) : 2000;
	int64_t count = 0;
	int rc;

	if (n > 0 && n <= 60000)
		usleep((useconds_t)n * 1000);
	rc = store_job_test_mark(d->tx, arena_printf(d->arena, "%s:%s", JOB_KIND_TEST, run->job->subject), &count);
	if (rc == 0)
		run->result = arena_printf(d->arena, "{\"count\":%lld}", (long long)count);
	return rc;
}

/* ---- running one job ---- */

static int permanent(int rc)
{
	return rc == ERR_INVALID || rc == ERR_NOT_FOUND || rc == ERR_FORBIDDEN || rc == ERR_PRECONDITION;
}

/* One transition of a job row in a transaction of its own (store_tx_run):
 * the arguments of the store call. */
struct job_step {
	const struct job *j;
	const char *text; /* the error (retry) or the result (done) */
	const char *worker;
	int64_t at, now;  /* run_after (retry, defer) or lease_until (heartbeat) */
	bool due;         /* schedule: the periodic jobs are due at once */
};

static int tx_retry(struct store_tx *tx, void *arg)
{
	const struct job_step *a = arg;

	return store_job_retry(tx, a->j, a->text, a->at, a->now);
}

static int tx_done(struct store_tx *tx, void *arg)
{
	const struct job_step *a = arg;

	return store_job_done(tx, a->j, a->text, a->now);
}

static int tx_defer(struct store_tx *tx, void *arg)
{
	const struct job_step *a = arg;

	return store_job_defer(tx, a->j, a->at, a->now);
}

static int tx_heartbeat(struct store_tx *tx, void *arg)
{
	const struct job_step *a = arg;

	return store_job_heartbeat(tx, a->worker, a->at, a->now);
}

static int tx_schedule(struct store_tx *tx, void *arg)
{
	const struct job_step *a = arg;
	int rc = store_job_schedule(tx, JOB_KIND_PURGE, a->due ? 0 : PURGE_INTERVAL_MS, a->now);

	return rc ? rc : store_job_schedule(tx, JOB_KIND_GC, a->due ? 0 : GC_INTERVAL_MS, a->now);
}

/* running -> queued (backoff) or failed, in a transaction of its own. */
static void finish_failed(struct store *store, const struct job *j, int code, const char *why, int64_t retry_in)
{
	struct arena a;
	int64_t now = clock_now_ms();
	int64_t run_after = permanent(code) || j->attempts >= JOB_MAX_ATTEMPTS ? -1 : now + retry_in;
	struct job_step step = { .j = j, .text = why, .at = run_after, .now = now };
	int rc;

	arena_init(&a);
	rc = store_tx_run(store, 1, &a, tx_retry, &step);
	if (rc)
		log_error("job %s (%s): cannot record its failure: %s", j->id, j->kind, err_message());
	else if (run_after < 0)
		log_error("job %s (%s) failed after %lld attempts: %s", j->id, j->kind, (long long)j->attempts, why);
	else
		log_info("job %s (%s) attempt %lld failed, retried in %lld ms: %s", j->id, j->kind,
			 (long long)j->attempts, (long long)retry_in, why);
	arena_free(&a);
}

/* Claim: queued (or expired running) -> running, committed at once so other
 * claimers see it. */
static int claim(struct store *store, const char *worker, const char *kind, struct arena *a, struct job *j)
{
	struct store_tx tx;
	int rc = store_tx_begin(store, &tx, 1, a);

	if (rc)
		return rc;
	rc = store_job_claim(&tx, worker, kind, clock_now_ms(), JOB_LEASE_MS, JOB_MAX_ATTEMPTS, j);
	/* Commit when none was due too: the claim may have failed jobs whose
	 * lease expired on their last attempt. */
	if (rc == 0 || rc == ERR_NOT_FOUND) {
		int crc = store_tx_commit(&tx);
		return crc ? crc : rc;
	}
	store_tx_rollback(&tx);
	return rc;
}

int jobs_run_one(struct store *store, const struct server *srv, const char *worker, const char *kind)
{
	struct arena a;
	struct store_tx tx;
	struct job j;
	struct dom d;
	struct job_run run = { .job = &j, .store = store };
	job_fn fn;
	int own_tx = 0, rc;

	arena_init(&a);
	rc = claim(store, worker, kind, &a, &j);
	if (rc) {
		arena_free(&a);
		return rc == ERR_NOT_FOUND ? 0 : rc;
	}
	if (!lookup(j.kind, &fn, &own_tx)) {
		/* Another docsd (a newer one, or one with test kinds) may know it:
		 * give it back a minute later, without counting the attempt. */
		finish_failed(store, &j, ERR_UNAVAILABLE, "no handler for this kind in this process", 60000);
		arena_free(&a);
		return 1;
	}
	if (own_tx) {
		dom_init(&d, srv, NULL, &a, NULL);
		rc = fn(&d, &run);
		if (rc == 0) {
			struct job_step step = { .j = &j, .text = run.result, .now = clock_now_ms() };
			rc = store_tx_run(store, 1, &a, tx_done, &step);
		}
	} else if ((rc = store_tx_begin(store, &tx, 1, &a)) == 0) {
		/* The effect and `done` in one transaction. */
		dom_init(&d, srv, &tx, &a, NULL);
		rc = fn(&d, &run);
		if (rc == 0)
			rc = store_job_done(&tx, &j, run.result, clock_now_ms());
		if (rc == 0)
			rc = store_tx_commit(&tx);
		else
			store_tx_rollback(&tx);
	}
	if (rc && run.defer_ms > 0) {
		/* running -> queued, the attempt given back: not a failure. */
		struct job_step step = { .j = &j, .at = clock_now_ms() + run.defer_ms, .now = clock_now_ms() };
		int drc = store_tx_run(store, 1, &a, tx_defer, &step);
		if (drc)
			log_error("job %s (%s): cannot defer it: %s", j.id, j.kind, err_message());
	} else if (rc == ERR_CONFLICT && strstr(err_message(), "lost its lease"))
		log_error("job %s (%s) lost its lease while running; another worker has it", j.id, j.kind);
	else if (rc) {
		char why[512];
		snprintf(why, sizeof(why), "%s", err_message());
		finish_failed(store, &j, rc, why, jobs_backoff_ms(j.attempts));
	}
	arena_free(&a);
	return 1;
}

/* ---- threads ---- */

/* Wait up to ms, or until stopped: 1 when stopped. */
static int wait_ms(struct jobs *j, int64_t ms)
{
	struct timespec until;
	int stop;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += ms / 1000;
	until.tv_nsec += (ms % 1000) * 1000000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&j->mu);
	while (!j->stop && !j->kick_polls && pthread_cond_timedwait(&j->cv, &j->mu, &until) == 0)
		;
	stop = j->stop;
	pthread_mutex_unlock(&j->mu);
	return stop;
}

static void *worker_thread(void *arg)
{
	struct jobs *j = arg;

	for (;;) {
		int rc = jobs_run_one(j->store, j->srv, j->worker, NULL);
		if (rc < 0)
			log_error("job worker: %s", err_message());
		if (rc != 1) {
			int64_t ms = JOB_POLL_MS;
			pthread_mutex_lock(&j->mu);
			if (j->kick_polls > 0) {
				j->kick_polls--;
				ms = KICK_POLL_MS;
			}
			pthread_mutex_unlock(&j->mu);
			if (ms == KICK_POLL_MS)
				usleep(KICK_POLL_MS * 1000);
			else if (wait_ms(j, ms))
				break;
		}
		pthread_mutex_lock(&j->mu);
		int stop = j->stop;
		pthread_mutex_unlock(&j->mu);
		if (stop)
			break;
	}
	return NULL;
}

/* Queue the periodic jobs when due. */
/* Queue the periodic jobs when due; at start (now_due) they are due at
 * once, whenever they last ran: a restarted server starts clean. */
static void schedule(struct jobs *j, bool now_due)
{
	struct arena a;
	struct job_step step = { .now = clock_now_ms(), .due = now_due };
	int rc;

	arena_init(&a);
	rc = store_tx_run(j->store, 1, &a, tx_schedule, &step);
	if (rc)
		log_error("scheduling the periodic jobs failed: %s", err_message());
	arena_free(&a);
}

static void heartbeat(struct jobs *j)
{
	struct arena a;
	int64_t now = clock_now_ms();
	struct job_step step = { .worker = j->worker, .at = now + JOB_LEASE_MS, .now = now };
	int rc;

	arena_init(&a);
	rc = store_tx_run(j->store, 1, &a, tx_heartbeat, &step);
	if (rc)
		log_error("renewing the job leases failed: %s", err_message());
	arena_free(&a);
}

static void *scheduler_thread(void *arg)
{
	struct jobs *j = arg;
	int64_t since_schedule = 0;

	while (!wait_ms(j, JOB_HEARTBEAT_MS)) {
		heartbeat(j);
		since_schedule += JOB_HEARTBEAT_MS;
		if (since_schedule >= PURGE_INTERVAL_MS) {
			schedule(j, false);
			since_schedule = 0;
		}
	}
	return NULL;
}

int jobs_start(struct jobs **out, struct store *store, const struct server *srv, int workers)
{
	struct jobs *j = xcalloc(1, sizeof(*j));
	char id[ID_LEN + 1];
	const char *test = getenv("DOCSD_TEST_JOBS");

	if (id_new(id)) {
		free(j);
		return err_set(ERR_INTERNAL, "cannot make a worker id");
	}
	snprintf(j->worker, sizeof(j->worker), "docsd-%s", id);
	j->store = store;
	j->srv = srv;
	pthread_mutex_init(&j->mu, NULL);
	pthread_cond_init(&j->cv, NULL);
	if (jobs_register_own_tx(JOB_KIND_PURGE, job_purge) || jobs_register_own_tx(JOB_KIND_GC, job_gc) ||
	    (test && strcmp(test, "1") == 0 && jobs_register(JOB_KIND_TEST, job_test_sleep)))
		goto fail;
	/* Due periodic jobs first, in this thread: a restarted server starts
	 * clean (the purge, then the collection it may have queued). */
	schedule(j, true);
	if (jobs_run_one(store, srv, j->worker, JOB_KIND_PURGE) < 0 ||
	    jobs_run_one(store, srv, j->worker, JOB_KIND_GC) < 0)
		log_error("running the periodic jobs at start failed: %s", err_message());
	if (pthread_create(&j->scheduler, NULL, scheduler_thread, j) != 0)
		goto fail;
	j->scheduler_started = 1;
	for (int i = 0; i < workers && i < MAX_WORKERS; i++) {
		if (pthread_create(&j->threads[i], NULL, worker_thread, j) != 0) {
			jobs_stop(j);
			return err_set(ERR_INTERNAL, "cannot start a job worker thread");
		}
		j->nthreads++;
	}
	*out = j;
	return 0;
fail:
	jobs_stop(j);
	return err_set(ERR_INTERNAL, "cannot start the job scheduler");
}

void jobs_kick(struct jobs *j)
{
	if (!j)
		return;
	pthread_mutex_lock(&j->mu);
	j->kick_polls = KICK_POLLS;
	pthread_cond_broadcast(&j->cv);
	pthread_mutex_unlock(&j->mu);
}

void jobs_stop(struct jobs *j)
{
	if (!j)
		return;
	pthread_mutex_lock(&j->mu);
	j->stop = 1;
	pthread_cond_broadcast(&j->cv);
	pthread_mutex_unlock(&j->mu);
	for (int i = 0; i < j->nthreads; i++)
		pthread_join(j->threads[i], NULL);
	if (j->scheduler_started)
		pthread_join(j->scheduler, NULL);
	pthread_mutex_destroy(&j->mu);
	pthread_cond_destroy(&j->cv);
	free(j);
}
