/*
 * jobs.h - background work on a schedule.
 *
 * One thread runs the periodic jobs: the purge of spaces deleted more than
 * SPACE_RETENTION_MS ago (every minute), and the collection of page bodies
 * and file blobs that no revision references any more (at start, hourly,
 * and after a purge that removed spaces; store.h, "garbage", says why a
 * body or blob being written is never taken). Each runs in transactions of
 * its own, so a crash in the middle loses nothing: the next run does the
 * work again.
 */
#ifndef DOCSD_JOBS_JOBS_H
#define DOCSD_JOBS_JOBS_H

#include <stdint.h>

struct store;
struct jobs;

/* Runs every job once before returning (so a restarted server starts clean),
 * then on its interval in a thread. */
int jobs_start(struct jobs **out, struct store *store);
void jobs_stop(struct jobs *j);

/* The purge, for tests and `jobs_start`: removes spaces deleted before
 * now - SPACE_RETENTION_MS; *removed counts them. */
int jobs_purge_spaces(struct store *store, int64_t *removed);

/* The collection, for tests and the jobs thread: deletes the page bodies and
 * file blobs that no revision references and that were last stored before
 * cutoff (the thread passes now - CONTENT_GC_GRACE_MS); counts in *bodies
 * and *blobs. */
int jobs_collect_garbage(struct store *store, int64_t cutoff, int64_t *bodies, int64_t *blobs);

#endif
