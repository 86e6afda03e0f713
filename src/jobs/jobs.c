#include "jobs/jobs.h"
#include "store/store.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

#define PURGE_INTERVAL_MS 60000
/* The collection reads every revision's manifest: hourly, and after a purge
 * that removed spaces. */
#define GC_INTERVAL_MS (60LL * 60 * 1000)
/* Rows deleted per write transaction: the writer is held briefly. */
#define GC_DELETE_BATCH 128

struct jobs {
	struct store *store;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int stop;
	int64_t last_gc; /* CLOCK_MONOTONIC ms of the last collection; -1: none yet */
};

int jobs_purge_spaces(struct store *store, int64_t *removed)
{
	struct arena a;
	struct store_tx tx;
	int rc;

	*removed = 0;
	arena_init(&a);
	rc = store_tx_begin(store, &tx, 1, &a);
	if (rc == 0) {
		rc = store_spaces_purge(&tx, clock_now_ms() - SPACE_RETENTION_MS, removed);
		if (rc == 0)
			rc = store_tx_commit(&tx);
		else
			store_tx_rollback(&tx);
	}
	arena_free(&a);
	return rc;
}

/* Delete one kind of garbage in short write transactions. */
static int gc_delete(struct store *store, bool blobs, const char *const *hashes, int n, int64_t cutoff,
		     int64_t *deleted)
{
	int rc = 0;

	*deleted = 0;
	for (int at = 0; at < n && rc == 0; at += GC_DELETE_BATCH) {
		struct arena a;
		struct store_tx tx;
		int64_t k = 0;
		arena_init(&a);
		if ((rc = store_tx_begin(store, &tx, 1, &a)) == 0) {
			rc = store_garbage_delete(&tx, blobs, hashes + at, n - at < GC_DELETE_BATCH ? n - at : GC_DELETE_BATCH,
						  cutoff, &k);
			if (rc == 0 && (rc = store_tx_commit(&tx)) == 0)
				*deleted += k;
			else if (rc)
				store_tx_rollback(&tx);
		}
		arena_free(&a);
	}
	return rc;
}

int jobs_collect_garbage(struct store *store, int64_t cutoff, int64_t *bodies, int64_t *blobs)
{
	struct arena a;
	struct store_tx tx;
	struct store_garbage g;
	int rc;

	*bodies = *blobs = 0;
	arena_init(&a);
	/* Find in a read transaction (no writer held while every manifest is
	 * read), then delete in short write transactions. */
	if ((rc = store_tx_begin(store, &tx, 0, &a)) == 0) {
		rc = store_garbage_find(&tx, cutoff, &g);
		store_tx_rollback(&tx);
	}
	if (rc == 0)
		rc = gc_delete(store, false, g.bodies, g.nbodies, cutoff, bodies);
	if (rc == 0)
		rc = gc_delete(store, true, g.blobs, g.nblobs, cutoff, blobs);
	arena_free(&a);
	return rc;
}

static void run_gc(struct jobs *j)
{
	int64_t bodies, blobs;

	if (jobs_collect_garbage(j->store, clock_now_ms() - CONTENT_GC_GRACE_MS, &bodies, &blobs))
		log_error("collecting unreferenced page bodies and files failed: %s", err_message());
	else if (bodies || blobs)
		log_info("collected %lld page bodies and %lld file blobs no revision references", (long long)bodies,
			 (long long)blobs);
}

/* The purge, then the collection when it is due or the purge removed spaces. */
static void run_jobs(struct jobs *j, int64_t *last_gc)
{
	int64_t removed = 0, now;
	struct timespec ts;

	if (jobs_purge_spaces(j->store, &removed))
		log_error("purge of deleted spaces failed: %s", err_message());
	else if (removed)
		log_info("purged %lld spaces deleted more than 7 days ago", (long long)removed);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	if (*last_gc < 0 || removed > 0 || now - *last_gc >= GC_INTERVAL_MS) {
		run_gc(j);
		*last_gc = now;
	}
}

static void *jobs_thread(void *arg)
{
	struct jobs *j = arg;
	struct timespec until;
	int64_t last_gc = j->last_gc;

	pthread_mutex_lock(&j->mu);
	while (!j->stop) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += PURGE_INTERVAL_MS / 1000;
		while (!j->stop && pthread_cond_timedwait(&j->cv, &j->mu, &until) == 0)
			;
		if (j->stop)
			break;
		pthread_mutex_unlock(&j->mu);
		run_jobs(j, &last_gc);
		pthread_mutex_lock(&j->mu);
	}
	pthread_mutex_unlock(&j->mu);
	return NULL;
}

int jobs_start(struct jobs **out, struct store *store)
{
	struct jobs *j = calloc(1, sizeof(*j));

	if (!j)
		return err_set(ERR_INTERNAL, "out of memory");
	j->store = store;
	pthread_mutex_init(&j->mu, NULL);
	pthread_cond_init(&j->cv, NULL);
	j->last_gc = -1;
	run_jobs(j, &j->last_gc);
	if (pthread_create(&j->thread, NULL, jobs_thread, j) != 0) {
		pthread_mutex_destroy(&j->mu);
		pthread_cond_destroy(&j->cv);
		free(j);
		return err_set(ERR_INTERNAL, "cannot start the jobs thread");
	}
	*out = j;
	return 0;
}

void jobs_stop(struct jobs *j)
{
	if (!j)
		return;
	pthread_mutex_lock(&j->mu);
	j->stop = 1;
	pthread_cond_signal(&j->cv);
	pthread_mutex_unlock(&j->mu);
	pthread_join(j->thread, NULL);
	pthread_mutex_destroy(&j->mu);
	pthread_cond_destroy(&j->cv);
	free(j);
}
