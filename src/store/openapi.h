/*
 * openapi.h - the storage of OpenAPI specifications and their versions
 * (migration 13; store/openapi.c). The rules (who may do what, when a
 * version is added) are domain/openapi.c's.
 *
 * A spec's `generation` counts its sources: every write of a source adds 1
 * and sets processing_state back to pending. The processing job remembers
 * the generation it read and writes its result only while it is still the
 * spec's (under the row lock), so a source replaced while a fetch ran is
 * never overwritten by the older one's result.
 */
#ifndef DOCSD_STORE_OPENAPI_H
#define DOCSD_STORE_OPENAPI_H

#include <stdbool.h>

#include "store/store.h"

/* By organization and slug; ERR_NOT_FOUND "OpenAPI spec not found". The
 * source text is not read (with_text false) except for the job. */
int store_openapi_get(struct store_tx *tx, const char *org_id, const char *slug, struct openapi_spec *out);
/* The same, the row locked until the transaction ends (driver.h, DB_LOCK_ROW). */
int store_openapi_get_locked(struct store_tx *tx, const char *org_id, const char *slug, struct openapi_spec *out);
/* By id, with the source text; locked when `lock`. */
int store_openapi_get_by_id(struct store_tx *tx, const char *id, bool lock, struct openapi_spec *out);
/* The specs of org_id, oldest first, keyset-paged, with the list's total. */
int store_openapi_list(struct store_tx *tx, const char *org_id, const struct list_req *lr, struct openapi_spec **items,
		       int *n, char **next);
/* Every spec of org_id as (slug, last_version) only, for the published
 * site's cache key; at most 1000. */
int store_openapi_org_versions(struct store_tx *tx, const char *org_id, struct openapi_spec **items, int *n);

/* Insert s (org_id, slug, source_url or source_text, visibility), filling
 * id, generation 1, processing_state pending and the timestamps.
 * ERR_CONFLICT "slug: ... already used" when the organization has the slug.
 * With `if_absent`, a taken slug is no error: *inserted says which. */
int store_openapi_create(struct store_tx *tx, struct openapi_spec *s, bool if_absent, bool *inserted);
/* A new source (url or text, the other NULL): generation + 1, pending, updated_at. */
int store_openapi_set_source(struct store_tx *tx, const char *id, const char *url, const char *text);
int store_openapi_set_visibility(struct store_tx *tx, const char *id, const char *visibility);
/* *removed = false when there was none (its versions go with it). */
int store_openapi_delete(struct store_tx *tx, const char *org_id, const char *slug, bool *removed);
/* processing_state only (pending -> progress). */
int store_openapi_set_state(struct store_tx *tx, const char *id, const char *state);
/* The end of a run: processing_state, last_version, last_processed_at,
 * last_error_code, last_errors and updated_at from s. */
int store_openapi_finish(struct store_tx *tx, const struct openapi_spec *s);

/* Insert v (spec_id, url, content_hash, filesystem; id when the caller
 * made it, else a new one), filling created_at. */
int store_openapi_version_insert(struct store_tx *tx, struct openapi_version *v);
/* A version of spec_id; its filesystem only when with_fs. ERR_NOT_FOUND
 * "OpenAPI spec version not found". */
int store_openapi_version_get(struct store_tx *tx, const char *spec_id, const char *id, bool with_fs,
			      struct openapi_version *out);
/* The versions of spec_id, newest first, keyset-paged, with the list's total. */
int store_openapi_versions_list(struct store_tx *tx, const char *spec_id, const struct list_req *lr,
				struct openapi_version **items, int *n, char **next);

#endif
