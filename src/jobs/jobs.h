/*
 * jobs.h - background work on a schedule.
 *
 * One thread runs the periodic jobs (today: the purge of spaces deleted more
 * than SPACE_RETENTION_MS ago). Each job is one transaction of its own, so a
 * crash in the middle loses nothing: the next run does the work again.
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

#endif
