#include "jobs/jobs.h"
#include "store/store.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#define PURGE_INTERVAL_MS 60000

struct jobs {
	struct store *store;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int stop;
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

static void run_purge(struct jobs *j)
{
	int64_t removed;

	if (jobs_purge_spaces(j->store, &removed))
		log_error("purge of deleted spaces failed: %s", err_message());
	else if (removed)
		log_info("purged %lld spaces deleted more than 7 days ago", (long long)removed);
}

static void *jobs_thread(void *arg)
{
	struct jobs *j = arg;
	struct timespec until;

	pthread_mutex_lock(&j->mu);
	while (!j->stop) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += PURGE_INTERVAL_MS / 1000;
		while (!j->stop && pthread_cond_timedwait(&j->cv, &j->mu, &until) == 0)
			;
		if (j->stop)
			break;
		pthread_mutex_unlock(&j->mu);
		run_purge(j);
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
	run_purge(j);
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
