/*
 * translations.h - the storage of translations (migration 14;
 * store/translations.c). What a translation is and its states:
 * model/translation.h.
 *
 * A translation is read with its source space's row (for the access checks)
 * and the state of its latest run's job, from which the status shown is
 * derived. Writers of a translation's result read it locked
 * (store_translation_get_locked) and write with a compare on what they read.
 */
#ifndef DOCSD_STORE_TRANSLATIONS_H
#define DOCSD_STORE_TRANSLATIONS_H

#include <stdbool.h>

#include "model/translation.h"
#include "store/store.h"

/* Insert t (org_id, source_space, source_language, language, instructions,
 * created_by), filling id, status (pending) and timestamps. */
int store_translation_create(struct store_tx *tx, struct translation *t);
/* A translation of org_id (NULL: of any organization) by id; ERR_NOT_FOUND
 * "translation not found". */
int store_translation_get(struct store_tx *tx, const char *org_id, const char *id, struct translation *out);
/* The same, its row locked until the transaction ends (driver.h, DB_LOCK_ROW). */
int store_translation_get_locked(struct store_tx *tx, const char *org_id, const char *id, struct translation *out);
int store_translation_set_instructions(struct store_tx *tx, const struct translation *t, const char *instructions);
/* *removed = false when there was none. */
int store_translation_delete(struct store_tx *tx, const char *org_id, const char *id, bool *removed);
/* Oldest first; keep filters by the source space (a store_keep_fn on the
 * item's `source`); the total counts what keep keeps. */
int store_translations_list(struct store_tx *tx, const char *org_id, const struct list_req *lr, store_keep_fn keep,
			    void *ctx, struct translation **items, int *n, char **next);
/* The ids of the translations whose source is space_id (any organization:
 * a space belongs to one), oldest first, into tx's arena. */
int store_translations_of_source(struct store_tx *tx, const char *space_id, const char ***ids, int *n);
/* A run was queued as job_id: it is the one whose state shows. */
int store_translation_queue_run(struct store_tx *tx, const char *id, const char *job_id);

/* What a run wrote. */
struct translation_run {
	const char *job_id;
	const char *result_space, *result_revision, *source_revision;
	int64_t pages;     /* pages translated */
	int64_t new_pages; /* of them, pages no run translated before */
	int64_t words;
	int64_t duration_s;
};
/* Record run r on t (read locked): applied_run, the result, status
 * completed, the stats. Only if t's result is still the one read and r's
 * job is not already applied: ERR_CONFLICT otherwise (the caller rolls back). */
int store_translation_record_run(struct store_tx *tx, const struct translation *t, const struct translation_run *r);

/* What the last run translated, per page of the source. */
struct translation_page_key {
	const char *page_id;
	const char *source_key;
};
/* Sorted by page_id. */
int store_translation_page_keys(struct store_tx *tx, const char *id, struct translation_page_key **out, int *n);
/* Replace them with keys[0..n). */
int store_translation_page_keys_set(struct store_tx *tx, const char *id, const struct translation_page_key *keys,
				    int n);

#endif
