/*
 * gc.c - content.gc, the collection of page bodies and file blobs that no
 * revision references (own transactions: deleting them is idempotent).
 */
#include "jobs/workers.h"
#include "domain/domain.h"
#include "store/store.h"
#include "util/alloc.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

#include <stdbool.h>

/* Rows deleted per write transaction: the writer is held briefly. */
#define GC_DELETE_BATCH 128

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

/* content.gc (own transactions: deleting what no revision references is
 * idempotent). */
int job_gc(struct dom *d, struct job_run *run)
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

