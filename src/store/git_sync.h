/*
 * git_sync.h - the rows of Git sync (store/git_sync.c): a space's link to a
 * repository (model/git_sync.h, struct gs_link) and the order of its jobs.
 * domain/git_sync.c states the rules; every function here runs in the
 * caller's transaction, and a link is read and written under the space's
 * row lock (store_space_get_locked) so that writers take turns.
 */
#ifndef DOCSD_STORE_GIT_SYNC_H
#define DOCSD_STORE_GIT_SYNC_H

#include <stdbool.h>
#include <stdint.h>

#include "model/git_sync.h"
#include "store/jobs.h"

struct store_tx;

/* The space's link (strings in tx's arena); ERR_NOT_FOUND when none. */
int store_git_link_get(struct store_tx *tx, const char *space_id, struct gs_link *out);
/* Write the whole link (insert or replace) and the space's GitSyncState
 * JSON (spaces.git_sync, what Space.gitSync shows); bumps the organization's
 * generation (the admins' cached space lists show gitSync). */
int store_git_link_put(struct store_tx *tx, const struct gs_link *l, const char *state_json);
/* Remove the link and the space's gitSync; *removed = false when there was none. */
int store_git_link_delete(struct store_tx *tx, const char *space_id, bool *removed);
/* How many unfinished (queued or running) jobs of the kinds kind_a and
 * kind_b for this subject were enqueued before job j (by creation time,
 * then id): the ones j must wait for. */
int store_git_jobs_before(struct store_tx *tx, const char *kind_a, const char *kind_b, const struct job *j,
			  int64_t *n);

#endif
