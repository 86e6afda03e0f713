/*
 * purge.c - spaces.purge, the periodic purge of spaces deleted more than
 * SPACE_RETENTION_MS ago (own transactions: deleting what is still there is
 * idempotent). After a purge that removed spaces the collection (gc.c) is
 * queued, and finished jobs past JOB_KEEP_MS are deleted.
 */
#include "jobs/workers.h"
#include "domain/integration_events.h"
#include "domain/domain.h"
#include "store/store.h"
#include "util/alloc.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

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

/* After a purge: finished jobs past JOB_KEEP_MS deleted, and the collection
 * queued when spaces were removed. */
static int tx_after_purge(struct store_tx *tx, void *arg)
{
	const int64_t *removed = arg;
	int64_t pruned = 0;
	char id[ID_LEN + 1];
	int rc = store_job_prune(tx, clock_now_ms() - JOB_KEEP_MS, &pruned);
	struct dom d;

	/* Integration events past their retention, or past an integration's
	 * count (domain/integration_events.h), go too. */
	dom_init(&d, NULL, tx, tx->arena, NULL);
	if (rc == 0)
		rc = dom_events_prune(&d, &pruned);

	if (rc == 0 && *removed)
		rc = store_job_enqueue_unique(tx, JOB_KIND_GC, NULL, NULL, 0, id);
	return rc;
}

/* The worker: the purge, then what follows it (tx_after_purge). */
int job_purge(struct dom *d, struct job_run *run)
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

