/*
 * The job queue (store/jobs.c, jobs/jobs.c) on both engines: claim, leases,
 * retry with backoff up to the attempt limit, dedup, two workers never run
 * one job, an expired lease is run again, and an in-transaction handler's
 * effect commits with `done` or not at all.
 */
#include "domain/domain.h"
#include "jobs/jobs.h"
#include "store/store.h"
#include "unit.h"
#include "util/err.h"
#include "util/util.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Kinds unique to this run: the PostgreSQL database keeps earlier runs' jobs. */
static char k_plain[48], k_fail[48], k_perm[48], k_count[48], k_undo[48], k_short[48];
static atomic_int runs[64];
/* This suite's kinds (names made per run by kinds_once), passed to
 * jobs_run_one_in in place of docsd's table. */
#define NKINDS 5
static struct job_kind unit_kinds[NKINDS];

static int h_fail(struct dom *d, struct job_run *run)
{
	return err_set(ERR_UNAVAILABLE, "peer unavailable");
}

static int h_perm(struct dom *d, struct job_run *run)
{
	return err_set(ERR_INVALID, "url: not a Git repository");
}

/* Counts its runs by subject (an index); result {"n": runs}. */
static int h_count(struct dom *d, struct job_run *run)
{
	int i = atoi(run->job->subject);

	if (i >= 0 && i < 64)
		atomic_fetch_add(&runs[i], 1);
	run->result = "{\"ok\":true}";
	return 0;
}

/* Writes its effect in the worker's transaction, then fails: the effect must
 * not stay. */
static int h_undo(struct dom *d, struct job_run *run)
{
	int64_t n = 0;
	int rc = store_job_test_mark(d->tx, run->job->subject, &n);

	return rc ? rc : err_set(ERR_UNAVAILABLE, "fails after its write");
}

static void kinds_once(void)
{
	static int done;
	char r[9];

	if (done)
		return;
	done = 1;
	random_alnum(r, 8);
	snprintf(k_plain, sizeof(k_plain), "unit.plain-%s", r);
	snprintf(k_fail, sizeof(k_fail), "unit.fail-%s", r);
	snprintf(k_perm, sizeof(k_perm), "unit.perm-%s", r);
	snprintf(k_count, sizeof(k_count), "unit.count-%s", r);
	snprintf(k_undo, sizeof(k_undo), "unit.undo-%s", r);
	snprintf(k_short, sizeof(k_short), "unit.short-%s", r);
	unit_kinds[0] = (struct job_kind){ k_fail, h_fail, JOB_MAX_ATTEMPTS, false, false };
	unit_kinds[1] = (struct job_kind){ k_perm, h_perm, JOB_MAX_ATTEMPTS, false, false };
	unit_kinds[2] = (struct job_kind){ k_count, h_count, JOB_MAX_ATTEMPTS, false, false };
	unit_kinds[3] = (struct job_kind){ k_undo, h_undo, JOB_MAX_ATTEMPTS, false, false };
	/* A kind with a limit of its own. */
	unit_kinds[4] = (struct job_kind){ k_short, h_fail, 2, false, false };
}

/* jobs_run_one over this suite's table of kinds. */
static int run_one(struct store *s, const char *worker, const char *kind)
{
	return jobs_run_one_in(unit_kinds, NKINDS, s, NULL, worker, kind);
}

/* The claim's limit: k_short's own, JOB_MAX_ATTEMPTS for the others. */
static int limit_of(const char *kind, void *arg)
{
	(void)arg;
	return strcmp(kind, k_short) == 0 ? 2 : JOB_MAX_ATTEMPTS;
}

static int tx_begin(struct store *s, struct store_tx *tx, struct arena *a)
{
	return store_tx_begin(s, tx, 1, a);
}

static struct job get(struct store *s, struct arena *a, const char *id)
{
	struct store_tx tx;
	struct job j = { 0 };

	CHECK(store_tx_begin(s, &tx, 0, a) == 0);
	CHECK(store_job_get(&tx, id, &j) == 0);
	store_tx_rollback(&tx);
	return j;
}

static int claim(struct store *s, struct arena *a, const char *worker, const char *kind, int64_t now, struct job *j)
{
	struct store_tx tx;
	int rc;

	CHECK(tx_begin(s, &tx, a) == 0);
	rc = store_job_claim(&tx, worker, kind, now, JOB_LEASE_MS, limit_of, NULL, j);
	if (rc == 0 || rc == ERR_NOT_FOUND)
		CHECK(store_tx_commit(&tx) == 0);
	else
		store_tx_rollback(&tx);
	if (rc && rc != ERR_NOT_FOUND)
		fprintf(stderr, "  claim: %s\n", err_message());
	return rc;
}

static void claim_suite(struct store *s)
{
	struct arena a;
	struct store_tx tx;
	struct job j, j2;
	char id[ID_LEN + 1], id2[ID_LEN + 1], id3[ID_LEN + 1];
	int64_t now = clock_now_ms();

	kinds_once();
	arena_init(&a);

	/* enqueue in the caller's transaction: a rollback leaves no job */
	CHECK(tx_begin(s, &tx, &a) == 0);
	CHECK(store_job_enqueue(&tx, k_plain, "gone", NULL, 0, id) == 0);
	store_tx_rollback(&tx);
	CHECK(claim(s, &a, "w1", k_plain, now + 1, &j) == ERR_NOT_FOUND);

	/* queued -> running -> done */
	CHECK(tx_begin(s, &tx, &a) == 0);
	CHECK(store_job_enqueue(&tx, k_plain, "space-1", "{\"a\":1}", now, id) == 0);
	CHECK(store_tx_commit(&tx) == 0);
	j = get(s, &a, id);
	CHECK(strcmp(j.state, "queued") == 0 && j.attempts == 0 && strcmp(j.payload, "{\"a\":1}") == 0);
	CHECK(claim(s, &a, "w1", k_plain, now + 1, &j) == 0);
	CHECK(strcmp(j.id, id) == 0 && j.attempts == 1 && strcmp(j.state, "running") == 0);
	j2 = get(s, &a, id);
	CHECK(strcmp(j2.state, "running") == 0 && strcmp(j2.worker, "w1") == 0 && j2.lease_until == now + 1 + JOB_LEASE_MS);
	/* a running job with a live lease is not claimed again */
	CHECK(claim(s, &a, "w2", k_plain, now + 2, &j2) == ERR_NOT_FOUND);
	CHECK(tx_begin(s, &tx, &a) == 0);
	CHECK(store_job_done(&tx, &j, "{\"ok\":1}", now + 3) == 0);
	CHECK(store_tx_commit(&tx) == 0);
	j2 = get(s, &a, id);
	CHECK(strcmp(j2.state, "done") == 0 && strcmp(j2.result, "{\"ok\":1}") == 0);
	/* done is final: a second `done` by the same claim changes nothing */
	CHECK(tx_begin(s, &tx, &a) == 0);
	CHECK(store_job_done(&tx, &j, NULL, now + 4) == ERR_CONFLICT);
	store_tx_rollback(&tx);

	/* run_after in the future: not due before it */
	CHECK(tx_begin(s, &tx, &a) == 0);
	CHECK(store_job_enqueue(&tx, k_plain, "later", NULL, now + 60000, id) == 0);
	CHECK(store_tx_commit(&tx) == 0);
	CHECK(claim(s, &a, "w1", k_plain, now + 59999, &j) == ERR_NOT_FOUND);
	CHECK(claim(s, &a, "w1", k_plain, now + 60000, &j) == 0 && strcmp(j.id, id) == 0);

	/* an expired lease (the process died) is claimed again by another
	 * worker; the dead claim can no longer finish it */
	CHECK(claim(s, &a, "w2", k_plain, now + 60000 + JOB_LEASE_MS, &j2) == ERR_NOT_FOUND);
	CHECK(claim(s, &a, "w2", k_plain, now + 60001 + JOB_LEASE_MS, &j2) == 0);
	CHECK(strcmp(j2.id, id) == 0 && j2.attempts == 2 && strcmp(j2.worker, "w2") == 0);
	CHECK(tx_begin(s, &tx, &a) == 0);
	CHECK(store_job_done(&tx, &j, NULL, now + 60002 + JOB_LEASE_MS) == ERR_CONFLICT);
	store_tx_rollback(&tx);
	/* the heartbeat keeps a live worker's lease */
	CHECK(tx_begin(s, &tx, &a) == 0);
	CHECK(store_job_heartbeat(&tx, "w2", now + 60001 + 3 * JOB_LEASE_MS, now + 60002) == 0);
	CHECK(store_tx_commit(&tx) == 0);
	CHECK(claim(s, &a, "w3", k_plain, now + 60002 + 2 * JOB_LEASE_MS, &j) == ERR_NOT_FOUND);
	CHECK(tx_begin(s, &tx, &a) == 0);
	CHECK(store_job_done(&tx, &j2, NULL, now + 60003) == 0);
	CHECK(store_tx_commit(&tx) == 0);

	/* a lease that expires on the last attempt fails the job */
	CHECK(tx_begin(s, &tx, &a) == 0);
	CHECK(store_job_enqueue(&tx, k_plain, "crashy", NULL, now, id) == 0);
	CHECK(store_tx_commit(&tx) == 0);
	int64_t t = now;
	for (int i = 1; i <= JOB_MAX_ATTEMPTS; i++) {
		CHECK(claim(s, &a, "dead", k_plain, t, &j) == 0 && j.attempts == i);
		t += JOB_LEASE_MS + 1;
	}
	CHECK(claim(s, &a, "w1", k_plain, t, &j) == ERR_NOT_FOUND);
	j = get(s, &a, id);
	CHECK(strcmp(j.state, "failed") == 0 && j.last_error && strstr(j.last_error, "lease expired"));

	/* ... the kind's last attempt: k_short's limit is 2 */
	CHECK(tx_begin(s, &tx, &a) == 0);
	CHECK(store_job_enqueue(&tx, k_short, "crashy", NULL, now, id) == 0);
	CHECK(store_tx_commit(&tx) == 0);
	t = now;
	for (int i = 1; i <= 2; i++) {
		CHECK(claim(s, &a, "dead", k_short, t, &j) == 0 && j.attempts == i);
		t += JOB_LEASE_MS + 1;
	}
	CHECK(claim(s, &a, "w1", k_short, t, &j) == ERR_NOT_FOUND);
	j = get(s, &a, id);
	CHECK(strcmp(j.state, "failed") == 0 && j.attempts == 2 && strstr(j.last_error, "lease expired"));

	/* dedup: one queued job per kind and subject */
	CHECK(tx_begin(s, &tx, &a) == 0);
	CHECK(store_job_enqueue_unique(&tx, k_plain, "sync", NULL, now - 2, id) == 0);
	CHECK(store_job_enqueue_unique(&tx, k_plain, "sync", NULL, now - 2, id2) == 0);
	CHECK(strcmp(id, id2) == 0);
	/* a later request leaves run_after; an earlier one moves it earlier */
	CHECK(store_job_enqueue_unique(&tx, k_plain, "soon", NULL, now + 5000, id3) == 0);
	CHECK(store_job_enqueue_unique(&tx, k_plain, "soon", NULL, now + 9000, id2) == 0);
	CHECK(strcmp(id3, id2) == 0 && store_job_get(&tx, id3, &j) == 0 && j.run_after == now + 5000);
	CHECK(store_job_enqueue_unique(&tx, k_plain, "soon", NULL, now + 4000, id2) == 0);
	CHECK(strcmp(id3, id2) == 0 && store_job_get(&tx, id3, &j) == 0 && j.run_after == now + 4000);
	CHECK(store_job_enqueue_unique(&tx, k_plain, "other", NULL, now - 1, id3) == 0);
	CHECK(strcmp(id, id3) != 0);
	/* a plain enqueue is never deduplicated */
	CHECK(store_job_enqueue(&tx, k_plain, "sync", NULL, now + 3600000, id3) == 0);
	CHECK(strcmp(id, id3) != 0);
	CHECK(store_tx_commit(&tx) == 0);
	/* once the job runs, a new request for the subject is queued */
	CHECK(claim(s, &a, "w1", k_plain, t, &j) == 0 && strcmp(j.id, id) == 0);
	CHECK(tx_begin(s, &tx, &a) == 0);
	CHECK(store_job_enqueue_unique(&tx, k_plain, "sync", NULL, now, id2) == 0);
	CHECK(strcmp(id, id2) != 0);
	/* a requeued job gives up its dedup slot: no conflict with the new one */
	CHECK(store_job_retry(&tx, &j, "try again", t + 1000, t) == 0);
	CHECK(store_tx_commit(&tx) == 0);
	j = get(s, &a, id);
	CHECK(strcmp(j.state, "queued") == 0 && j.run_after == t + 1000 && strcmp(j.last_error, "try again") == 0);
	arena_free(&a);
}

static void retry_suite(struct store *s)
{
	struct arena a;
	struct store_tx tx;
	struct job j;
	char id[ID_LEN + 1], pid[ID_LEN + 1], uid[ID_LEN + 1], name[64];
	int64_t base = clock_now_ms(), n = -1;

	kinds_once();
	arena_init(&a);
	CHECK(jobs_backoff_ms(1) == 10000 && jobs_backoff_ms(2) == 20000 && jobs_backoff_ms(3) == 40000 &&
	      jobs_backoff_ms(4) == 80000 && jobs_backoff_ms(30) == JOB_BACKOFF_MAX_MS);

	CHECK(tx_begin(s, &tx, &a) == 0);
	CHECK(store_job_enqueue(&tx, k_fail, "x", NULL, 0, id) == 0);
	CHECK(store_job_enqueue(&tx, k_perm, "x", NULL, 0, pid) == 0);
	snprintf(name, sizeof(name), "undo-%s", k_undo);
	CHECK(store_job_enqueue(&tx, k_undo, name, NULL, 0, uid) == 0);
	CHECK(store_tx_commit(&tx) == 0);

	/* a retryable error: queued again after 10 s, 20 s, 40 s, 80 s, then failed */
	for (int i = 1; i <= JOB_MAX_ATTEMPTS; i++) {
		CHECK(run_one(s, "w1", k_fail) == 1);
		j = get(s, &a, id);
		CHECK(j.attempts == i && j.last_error && strcmp(j.last_error, "peer unavailable") == 0);
		if (i < JOB_MAX_ATTEMPTS) {
			CHECK(strcmp(j.state, "queued") == 0);
			CHECK(j.run_after >= clock_now_ms() + jobs_backoff_ms(i) - 1000 &&
			      j.run_after <= clock_now_ms() + jobs_backoff_ms(i));
			/* not due before its backoff */
			CHECK(run_one(s, "w1", k_fail) == 0);
			clock_set_offset(j.run_after - base + 1000);
		} else {
			CHECK(strcmp(j.state, "failed") == 0);
		}
	}
	clock_set_offset(0);
	CHECK(run_one(s, "w1", k_fail) == 0);

	/* a kind's own limit: k_short fails for good after its second attempt */
	CHECK(tx_begin(s, &tx, &a) == 0);
	CHECK(store_job_enqueue(&tx, k_short, "x", NULL, 0, id) == 0);
	CHECK(store_tx_commit(&tx) == 0);
	CHECK(run_one(s, "w1", k_short) == 1);
	j = get(s, &a, id);
	CHECK(strcmp(j.state, "queued") == 0 && j.attempts == 1);
	clock_set_offset(j.run_after - base + 1000);
	CHECK(run_one(s, "w1", k_short) == 1);
	j = get(s, &a, id);
	CHECK(strcmp(j.state, "failed") == 0 && j.attempts == 2);
	clock_set_offset(0);

	/* a permanent error fails at once */
	CHECK(run_one(s, "w1", k_perm) == 1);
	j = get(s, &a, pid);
	CHECK(strcmp(j.state, "failed") == 0 && j.attempts == 1 && strstr(j.last_error, "url"));

	/* an in-transaction handler that fails leaves no effect */
	CHECK(run_one(s, "w1", k_undo) == 1);
	j = get(s, &a, uid);
	CHECK(strcmp(j.state, "queued") == 0);
	CHECK(tx_begin(s, &tx, &a) == 0);
	CHECK(store_job_test_mark(&tx, name, &n) == 0);
	store_tx_rollback(&tx);
	CHECK(n == 1); /* the failed run's +1 was rolled back */
	arena_free(&a);
}

struct worker_arg {
	struct store *s;
	const char *name;
	int ran;
};

static void *worker(void *p)
{
	struct worker_arg *w = p;
	int rc;

	while ((rc = run_one(w->s, w->name, k_count)) == 1)
		w->ran++;
	CHECK(rc == 0);
	return NULL;
}

/* Two workers drain 40 jobs: each runs exactly once. */
static void workers_suite(struct store *s)
{
	struct arena a;
	struct store_tx tx;
	char id[ID_LEN + 1], subj[16];
	pthread_t t[2];
	struct worker_arg w[2] = { { s, "wa", 0 }, { s, "wb", 0 } };

	kinds_once();
	arena_init(&a);
	for (int i = 0; i < 40; i++)
		atomic_store(&runs[i], 0);
	CHECK(tx_begin(s, &tx, &a) == 0);
	for (int i = 0; i < 40; i++) {
		snprintf(subj, sizeof(subj), "%d", i);
		CHECK(store_job_enqueue(&tx, k_count, subj, NULL, 0, id) == 0);
	}
	CHECK(store_tx_commit(&tx) == 0);
	for (int i = 0; i < 2; i++)
		CHECK(pthread_create(&t[i], NULL, worker, &w[i]) == 0);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	CHECK(w[0].ran + w[1].ran == 40);
	for (int i = 0; i < 40; i++)
		CHECK(atomic_load(&runs[i]) == 1);

	/* the counts /metrics shows */
	struct job_count *c;
	int n, found = 0;
	CHECK(store_tx_begin(s, &tx, 0, &a) == 0);
	CHECK(store_job_counts(&tx, &c, &n) == 0);
	store_tx_rollback(&tx);
	for (int i = 0; i < n; i++)
		if (strcmp(c[i].kind, k_count) == 0) {
			CHECK(strcmp(c[i].state, "done") == 0 && c[i].n == 40);
			found = 1;
		}
	CHECK(found);
	arena_free(&a);
}

/* The periodic jobs: scheduled once, not again while one is queued, and
 * after one finished only interval later. */
static void schedule_suite(struct store *s)
{
	struct arena a;
	struct store_tx tx;
	struct job *list;
	int n, queued = 0;
	char kind[48], r[9];
	int64_t now = clock_now_ms();

	arena_init(&a);
	random_alnum(r, 8);
	snprintf(kind, sizeof(kind), "unit.periodic-%s", r);
	CHECK(tx_begin(s, &tx, &a) == 0);
	CHECK(store_job_schedule(&tx, kind, 60000, now) == 0);
	CHECK(store_job_schedule(&tx, kind, 60000, now) == 0);
	CHECK(store_job_list(&tx, kind, 10, &list, &n) == 0);
	CHECK(n == 1 && list[0].run_after == now);
	CHECK(store_tx_commit(&tx) == 0);
	struct job j;
	CHECK(claim(s, &a, "w1", kind, now, &j) == 0);
	CHECK(tx_begin(s, &tx, &a) == 0);
	CHECK(store_job_schedule(&tx, kind, 60000, now + 1) == 0); /* running: nothing */
	CHECK(store_job_done(&tx, &j, NULL, now + 2) == 0);
	CHECK(store_job_schedule(&tx, kind, 60000, now + 3) == 0);
	CHECK(store_job_list(&tx, kind, 10, &list, &n) == 0);
	for (int i = 0; i < n; i++)
		if (strcmp(list[i].state, "queued") == 0) {
			queued++;
			CHECK(list[i].run_after == now + 2 + 60000);
		}
	CHECK(n == 2 && queued == 1);
	CHECK(store_tx_commit(&tx) == 0);
	arena_free(&a);
}

/* docsd's table of kinds: each kind once, with a worker and a limit; the
 * test-only kind is found only with DOCSD_TEST_JOBS=1. */
/* Ordered jobs (issue 31): of one order key only the oldest unfinished job
 * is claimable, whatever its state (queued in backoff, running); another
 * key's jobs and unordered jobs are not held back; a failed predecessor
 * releases the next; claim_except prefers another kind. */
static void order_suite(struct store *s)
{
	struct arena a;
	struct store_tx tx;
	struct job j;
	char key[40], other[40], ka[40], kb[40], kc[40], r[9], a1[ID_LEN + 1], a2[ID_LEN + 1], a3[ID_LEN + 1], b1[ID_LEN + 1],
		u1[ID_LEN + 1];
	int64_t now = clock_now_ms();

		arena_init(&a);
	random_alnum(r, 8);
	snprintf(key, sizeof(key), "unit-order-%s", r);
	snprintf(other, sizeof(other), "unit-other-%s", r);
	/* Kinds of this call alone: earlier suites leave due jobs behind. */
	snprintf(ka, sizeof(ka), "unit.ord-a-%s", r);
	snprintf(kb, sizeof(kb), "unit.ord-b-%s", r);
	snprintf(kc, sizeof(kc), "unit.ord-c-%s", r);
	CHECK(tx_begin(s, &tx, &a) == 0);
	CHECK(store_job_enqueue_ordered(&tx, ka, "1", NULL, 0, key, a1) == 0);
	CHECK(store_job_enqueue_ordered(&tx, kb, "2", NULL, 0, key, a2) == 0);
	CHECK(store_job_enqueue_ordered(&tx, ka, "3", NULL, 0, key, a3) == 0);
	/* b1 after a1 in the claim's order (run_after, then a random id). */
	CHECK(store_job_enqueue_ordered(&tx, ka, "4", NULL, clock_now_ms() + 2, other, b1) == 0);
	CHECK(store_job_enqueue(&tx, kc, "5", NULL, 0, u1) == 0);
	CHECK(store_job_enqueue_ordered(&tx, ka, "x", NULL, 0, "", u1) == ERR_INVALID);
	CHECK(store_job_enqueue(&tx, kc, "5", NULL, 0, u1) == 0);
	CHECK(store_tx_commit(&tx) == 0);
	now = clock_now_ms() + 5; /* every job above is due */

	/* a1 running: a2 and a3 wait, b1 (another key) does not. */
	CHECK(claim(s, &a, "w1", ka, now, &j) == 0);
	CHECK(strcmp(j.id, a1) == 0);
	CHECK(claim(s, &a, "w2", kb, now, &j) == ERR_NOT_FOUND);
	CHECK(claim(s, &a, "w2", ka, now, &j) == 0);
	CHECK(strcmp(j.id, b1) == 0);
	CHECK(tx_begin(s, &tx, &a) == 0);
	CHECK(store_job_done(&tx, &j, NULL, now) == 0);
	CHECK(store_tx_commit(&tx) == 0);
	CHECK(claim(s, &a, "w2", ka, now, &j) == ERR_NOT_FOUND);
	CHECK(claim(s, &a, "w2", kc, now, &j) == 0); /* unordered: free */
	CHECK(tx_begin(s, &tx, &a) == 0);
	CHECK(store_job_done(&tx, &j, NULL, now) == 0);
	CHECK(store_tx_commit(&tx) == 0);

	/* a1 done: a2 is claimable at once, in the same instant (no poll). */
	{
		struct job held = get(s, &a, a1);
		CHECK(tx_begin(s, &tx, &a) == 0);
		CHECK(store_job_done(&tx, &held, NULL, now) == 0);
		CHECK(store_tx_commit(&tx) == 0);
	}
	CHECK(claim(s, &a, "w1", kb, now, &j) == 0);
	CHECK(strcmp(j.id, a2) == 0);
	/* a2 retried with backoff: still unfinished, a3 keeps waiting. */
	CHECK(tx_begin(s, &tx, &a) == 0);
	CHECK(store_job_retry(&tx, &j, "again", now + 60000, now) == 0);
	CHECK(store_tx_commit(&tx) == 0);
	CHECK(claim(s, &a, "w1", ka, now + 1000, &j) == ERR_NOT_FOUND);
	/* a2 fails for good: a3 goes. */
	CHECK(claim(s, &a, "w1", kb, now + 60000, &j) == 0);
	CHECK(strcmp(j.id, a2) == 0);
	CHECK(tx_begin(s, &tx, &a) == 0);
	CHECK(store_job_retry(&tx, &j, "gave up", -1, now + 60000) == 0);
	CHECK(store_tx_commit(&tx) == 0);
	CHECK(claim(s, &a, "w1", ka, now + 60000, &j) == 0);
	CHECK(strcmp(j.id, a3) == 0);

	/* claim_except: another kind before the one just run. */
	CHECK(tx_begin(s, &tx, &a) == 0);
	CHECK(store_job_enqueue(&tx, kc, "6", NULL, now - 5000, u1) == 0);
	CHECK(store_job_enqueue(&tx, ka, "7", NULL, now - 9000, a1) == 0);
	CHECK(store_tx_commit(&tx) == 0);
	CHECK(tx_begin(s, &tx, &a) == 0);
	CHECK(store_job_claim_except(&tx, "w3", ka, now + 60000, JOB_LEASE_MS, limit_of, NULL, &j) == 0);
	CHECK(strcmp(j.kind, ka) != 0);
	CHECK(store_tx_commit(&tx) == 0);
	arena_free(&a);
}

UNIT_TEST(jobs_kinds_table)
{
	const char *was = getenv("DOCSD_TEST_JOBS");
	char *saved = was ? strdup(was) : NULL;
	const struct job_kind *k;

	CHECK(job_kinds_count >= 7);
	for (size_t i = 0; i < job_kinds_count; i++) {
		CHECK(job_kinds[i].kind && job_kinds[i].fn && job_kinds[i].max_attempts >= 1);
		for (size_t m = i + 1; m < job_kinds_count; m++)
			CHECK(strcmp(job_kinds[i].kind, job_kinds[m].kind) != 0);
	}
	k = jobs_kind_find(job_kinds, job_kinds_count, "git.import");
	CHECK(k && k->own_tx && k->max_attempts == JOB_MAX_ATTEMPTS);
	CHECK(jobs_kind_find(job_kinds, job_kinds_count, "no.such-kind") == NULL);
	unsetenv("DOCSD_TEST_JOBS");
	CHECK(jobs_kind_find(job_kinds, job_kinds_count, JOB_KIND_TEST) == NULL);
	setenv("DOCSD_TEST_JOBS", "1", 1);
	k = jobs_kind_find(job_kinds, job_kinds_count, JOB_KIND_TEST);
	CHECK(k && !k->own_tx && k->test_only);
	if (saved)
		setenv("DOCSD_TEST_JOBS", saved, 1);
	else
		unsetenv("DOCSD_TEST_JOBS");
	free(saved);
}

UNIT_TEST_ON_ENGINES(jobs_claim_lease_dedup, claim_suite)
UNIT_TEST_ON_ENGINES(jobs_retry_backoff_limit, retry_suite)
UNIT_TEST_ON_ENGINES(jobs_two_workers_run_each_job_once, workers_suite)
UNIT_TEST_ON_ENGINES(jobs_periodic_schedule, schedule_suite)
UNIT_TEST_ON_ENGINES(jobs_order_key_claims_oldest_unfinished, order_suite)
