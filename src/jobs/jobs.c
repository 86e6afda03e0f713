/*
 * jobs.c - the job queue's workers and scheduler (jobs.h); the kinds and
 * their handlers are rows of kinds.c, one worker file per kind.
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
 *             |        attempts < the kind's max_attempts:      |   |  |   | store_job_claim
 *             |        run_after = now + jobs_backoff_ms)       |   |  +---+ (lease_until passed:
 *             |                                                 |   |        its process died;
 *             +-- (a lease that expired is claimed again        |   |        attempts + 1)
 *                  directly: running -> queued -> running       |   |
 *                  in one step of store_job_claim)              |   |
 *                                                               |   |
 *             store_job_done (the handler returned 0; committed  |   | store_job_retry with run_after < 0
 *             with its effect for in-transaction handlers)       |   | (permanent error, or attempts ==
 *                                                               v   v  the kind's max_attempts), or
 *                                                      +------+  +--------+ store_job_claim (lease
 *                                                      | done |  | failed | expired on the last attempt)
 *                                                      +------+  +--------+
 *
 * A job with an order key (store_job_enqueue_ordered) is claimable only
 * while no job of its key with a lower order_seq is queued or running: the
 * claim's own WHERE clause says so, so such a job stays queued, unclaimed,
 * until the transaction that finishes its predecessor (done, or failed)
 * commits; no transition of its own is needed. A worker claims a kind other
 * than the one it ran last first (jobs_run_next), so that one kind's backlog
 * does not hold the others back.
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
#define MAX_WORKERS 64
/* After jobs_kick: how often idle workers look, and for how many rounds. */
#define KICK_POLL_MS 25
#define KICK_POLLS 40

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
	/* Counts jobs_kick calls: an idle worker waits for it to change (or its
	 * poll interval to pass), so a kick made after the queuing transaction
	 * committed (the router's, see dom_jobs_queued) is picked up at once.
	 * Under mu. */
	unsigned kick_seq;
};

/* ---- the kinds ---- */

/* Read when a job is claimed (not cached: tests set it per process). */
static bool test_jobs_enabled(void)
{
	const char *v = getenv("DOCSD_TEST_JOBS");

	return v && strcmp(v, "1") == 0;
}

const struct job_kind *jobs_kind_find(const struct job_kind *kinds, size_t n, const char *kind)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(kinds[i].kind, kind) == 0)
			return kinds[i].test_only && !test_jobs_enabled() ? NULL : &kinds[i];
	return NULL;
}

/* The table a claim runs with. */
struct kind_table {
	const struct job_kind *kinds;
	size_t n;
};

/* store_job_claim's limit for a job whose lease expired: its kind's, or the
 * default for a kind this process does not know. */
static int max_attempts_of(const char *kind, void *arg)
{
	const struct kind_table *t = arg;
	const struct job_kind *k = jobs_kind_find(t->kinds, t->n, kind);

	return k ? k->max_attempts : JOB_MAX_ATTEMPTS;
}

int64_t jobs_backoff_ms(int64_t attempts)
{
	int64_t ms = JOB_BACKOFF_MS;

	for (int64_t i = 1; i < attempts && ms < JOB_BACKOFF_MAX_MS; i++)
		ms *= 2;
	return ms < JOB_BACKOFF_MAX_MS ? ms : JOB_BACKOFF_MAX_MS;
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
static void finish_failed(struct store *store, const struct job *j, int max_attempts, int code, const char *why,
			  int64_t retry_in)
{
	struct arena a;
	int64_t now = clock_now_ms();
	int64_t run_after = permanent(code) || j->attempts >= max_attempts ? -1 : now + retry_in;
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
static int claim(const struct kind_table *t, struct store *store, const char *worker, const char *kind,
		 const char *except, struct arena *a, struct job *j)
{
	struct store_tx tx;
	int rc = store_tx_begin(store, &tx, 1, a);
	int64_t now = clock_now_ms();

	if (rc)
		return rc;
	/* Another kind first, then any: see jobs_run_next. */
	rc = except ? store_job_claim_except(&tx, worker, except, now, JOB_LEASE_MS, max_attempts_of, (void *)t, j)
		    : ERR_NOT_FOUND;
	if (rc == ERR_NOT_FOUND)
		rc = store_job_claim(&tx, worker, kind, now, JOB_LEASE_MS, max_attempts_of, (void *)t, j);
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
	return jobs_run_one_in(job_kinds, job_kinds_count, store, srv, worker, kind);
}

static int run_one(const struct job_kind *kinds, size_t nkinds, struct store *store, const struct server *srv,
		   const char *worker, const char *kind, char *last_kind, size_t last_len);

int jobs_run_one_in(const struct job_kind *kinds, size_t nkinds, struct store *store, const struct server *srv,
		    const char *worker, const char *kind)
{
	return run_one(kinds, nkinds, store, srv, worker, kind, NULL, 0);
}

int jobs_run_next(struct store *store, const struct server *srv, const char *worker, char *last_kind, size_t last_len)
{
	return run_one(job_kinds, job_kinds_count, store, srv, worker, NULL, last_kind, last_len);
}

/* last_kind (when not NULL): the kind this worker ran last, in and out.
 * The claim looks at the other kinds first: with every worker busy on a
 * backlog of one kind (the deliveries of many installations), a job of
 * another kind waits one job's time, not the backlog's. */
static int run_one(const struct job_kind *kinds, size_t nkinds, struct store *store, const struct server *srv,
		   const char *worker, const char *kind, char *last_kind, size_t last_len)
{
	struct kind_table t = { kinds, nkinds };
	struct arena a;
	struct store_tx tx;
	struct job j;
	struct dom d;
	struct job_run run = { .job = &j, .store = store };
	const struct job_kind *k;
	int rc;

	arena_init(&a);
	rc = claim(&t, store, worker, kind, last_kind && *last_kind ? last_kind : NULL, &a, &j);
	if (rc) {
		arena_free(&a);
		return rc == ERR_NOT_FOUND ? 0 : rc;
	}
	if (last_kind)
		snprintf(last_kind, last_len, "%s", j.kind);
	if (!(k = jobs_kind_find(kinds, nkinds, j.kind))) {
		/* Another docsd (a newer one, or one with test kinds) may know it:
		 * give it back a minute later (the attempt counts, so a kind no
		 * process knows fails after JOB_MAX_ATTEMPTS minutes). */
		finish_failed(store, &j, JOB_MAX_ATTEMPTS, ERR_UNAVAILABLE, "no handler for this kind in this process",
			      60000);
		arena_free(&a);
		return 1;
	}
	if (k->own_tx) {
		dom_init(&d, srv, NULL, &a, NULL);
		rc = k->fn(&d, &run);
		if (rc == 0) {
			struct job_step step = { .j = &j, .text = run.result, .now = clock_now_ms() };
			rc = store_tx_run(store, 1, &a, tx_done, &step);
		}
	} else if ((rc = store_tx_begin(store, &tx, 1, &a)) == 0) {
		/* The effect and `done` in one transaction. */
		dom_init(&d, srv, &tx, &a, NULL);
		rc = k->fn(&d, &run);
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
		finish_failed(store, &j, k->max_attempts, rc, why, jobs_backoff_ms(j.attempts));
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

/* An idle worker's wait: until a kick newer than seq, stop, or ms. 1 when
 * stopped. */
static int idle_wait(struct jobs *j, unsigned seq, int64_t ms)
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
	while (!j->stop && j->kick_seq == seq && pthread_cond_timedwait(&j->cv, &j->mu, &until) == 0)
		;
	stop = j->stop;
	pthread_mutex_unlock(&j->mu);
	return stop;
}

static void *worker_thread(void *arg)
{
	struct jobs *j = arg;
	char last_kind[64] = "";

	for (;;) {
		unsigned seq;
		int stop;

		/* The kick count is read before looking for work: a kick that
		 * comes while this worker looks makes its wait end at once. */
		pthread_mutex_lock(&j->mu);
		seq = j->kick_seq;
		pthread_mutex_unlock(&j->mu);
		int rc = jobs_run_next(j->store, j->srv, j->worker, last_kind, sizeof(last_kind));
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
			if (idle_wait(j, seq, ms))
				break;
		}
		pthread_mutex_lock(&j->mu);
		stop = j->stop;
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

	if (id_new(id)) {
		free(j);
		return err_set(ERR_INTERNAL, "cannot make a worker id");
	}
	snprintf(j->worker, sizeof(j->worker), "docsd-%s", id);
	j->store = store;
	j->srv = srv;
	pthread_mutex_init(&j->mu, NULL);
	pthread_cond_init(&j->cv, NULL);
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
	j->kick_seq++;
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
