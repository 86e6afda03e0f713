/*
 * openapi.c - OpenAPI specifications and their versions (store/openapi.h).
 *
 * Specs are read without their source text (it may be megabytes) except
 * by the processing job; versions without their filesystem except by the
 * content reads.
 */
#include "store/openapi.h"
#include "store/internal.h"
#include "util/util.h"

#include <string.h>

#define SPEC_COLS "s.id, s.org_id, s.slug, s.source_url, s.visibility, s.processing_state, s.last_version, " \
	"s.last_processed_at, s.last_error_code, s.last_errors, s.generation, s.created_at, s.updated_at"
#define SPEC_NCOLS 13

static int fill_spec(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct openapi_spec *s = out;

	memset(s, 0, sizeof(*s));
	s->id = st_str(tx, r, 0);
	s->org_id = st_str(tx, r, 1);
	s->slug = st_str(tx, r, 2);
	s->source_url = st_str(tx, r, 3);
	s->visibility = st_str(tx, r, 4);
	s->processing_state = st_str(tx, r, 5);
	s->last_version = st_str(tx, r, 6);
	s->last_processed_at = st_int(tx, r, 7);
	s->last_error_code = st_str(tx, r, 8);
	s->last_errors = st_str(tx, r, 9);
	s->generation = st_int(tx, r, 10);
	s->created_at = st_int(tx, r, 11);
	s->updated_at = st_int(tx, r, 12);
	return 0;
}

static int fill_spec_text(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct openapi_spec *s = out;
	int rc = fill_spec(tx, r, out);

	if (rc == 0)
		s->source_text = st_str(tx, r, SPEC_NCOLS);
	return rc;
}

static int not_found(int rc)
{
	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "OpenAPI spec not found") : rc;
}

int store_openapi_get(struct store_tx *tx, const char *org_id, const char *slug, struct openapi_spec *out)
{
	struct db_param p[] = { P_TEXT(org_id), P_TEXT(slug) };

	return not_found(st_one(tx, "SELECT " SPEC_COLS " FROM openapi_specs s WHERE s.org_id = $1 AND s.slug = $2", p,
				NP(p), fill_spec, out));
}

int store_openapi_get_locked(struct store_tx *tx, const char *org_id, const char *slug, struct openapi_spec *out)
{
	struct db_param p[] = { P_TEXT(org_id), P_TEXT(slug) };

	return not_found(st_one(tx,
				"SELECT " SPEC_COLS " FROM openapi_specs s WHERE s.org_id = $1 AND s.slug = $2" DB_LOCK_ROW,
				p, NP(p), fill_spec, out));
}

int store_openapi_get_by_id(struct store_tx *tx, const char *id, bool lock, struct openapi_spec *out)
{
	struct db_param p[] = { P_TEXT(id) };

	return not_found(st_one(tx,
				lock ? "SELECT " SPEC_COLS ", s.source_text FROM openapi_specs s WHERE s.id = $1" DB_LOCK_ROW
				     : "SELECT " SPEC_COLS ", s.source_text FROM openapi_specs s WHERE s.id = $1",
				p, NP(p), fill_spec_text, out));
}

/* $1 org, $2 limit, $3/$4 cursor */
#define SPEC_LIST(cmp) "SELECT " SPEC_COLS " FROM openapi_specs s WHERE s.org_id = $1 " cmp \
	"ORDER BY s.created_at, s.id LIMIT $2"

static void spec_key(const void *item, int64_t *key, const char **id)
{
	const struct openapi_spec *s = item;

	*key = s->created_at;
	*id = s->id;
}

int store_openapi_list(struct store_tx *tx, const char *org_id, const struct list_req *lr, struct openapi_spec **items,
		       int *n, char **next)
{
	/* One order, oldest first. */
	static const char *const sql[2][2] = {
		{ SPEC_LIST(""), SPEC_LIST("AND (s.created_at, s.id) > ($3, $4) ") },
		{ SPEC_LIST(""), SPEC_LIST("AND (s.created_at, s.id) > ($3, $4) ") },
	};
	struct db_param p[4] = { P_TEXT(org_id) };
	int rc = st_list_keep(tx, sql, p, NP(p), 1, lr, fill_spec, sizeof(struct openapi_spec), spec_key, NULL, NULL,
			      (void **)items, n, next);

	return rc ? rc : st_total(tx, lr, "SELECT COUNT(*) FROM openapi_specs s WHERE s.org_id = $1", p, 1);
}

static int fill_slug_version(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct openapi_spec *s = out;

	memset(s, 0, sizeof(*s));
	s->slug = st_str(tx, r, 0);
	s->last_version = st_str(tx, r, 1);
	return 0;
}

int store_openapi_org_versions(struct store_tx *tx, const char *org_id, struct openapi_spec **items, int *n)
{
	struct db_param p[] = { P_TEXT(org_id) };

	return st_all(tx, "SELECT slug, last_version FROM openapi_specs WHERE org_id = $1 ORDER BY slug LIMIT 1000", p,
		      NP(p), fill_slug_version, sizeof(struct openapi_spec), (void **)items, n);
}

int store_openapi_create(struct store_tx *tx, struct openapi_spec *s, bool if_absent, bool *inserted)
{
	char id[ID_LEN + 1];
	int64_t changes = 0;
	int rc;

	if (id_new(id))
		return err_set(ERR_INTERNAL, "getrandom failed");
	s->id = arena_strdup(tx->arena, id);
	s->created_at = s->updated_at = clock_now_ms();
	s->generation = 1;
	s->processing_state = "pending";
	if (!s->visibility)
		s->visibility = "private";
	struct db_param p[] = { P_TEXT(s->id), P_TEXT(s->org_id), P_TEXT(s->slug), P_TEXT(s->source_url),
				P_TEXT(s->source_text), P_TEXT(s->visibility), P_INT(s->created_at) };
	rc = st_exec(tx,
		     if_absent ? "INSERT INTO openapi_specs (id, org_id, slug, source_url, source_text, visibility, "
				 "created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7) "
				 "ON CONFLICT (org_id, slug) DO NOTHING"
			       : "INSERT INTO openapi_specs (id, org_id, slug, source_url, source_text, visibility, "
				 "created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7)",
		     p, NP(p), &changes);
	if (rc == ERR_CONFLICT)
		return err_set(ERR_CONFLICT, "slug: '%s' is already used by an OpenAPI spec of this organization", s->slug);
	if (inserted)
		*inserted = rc == 0 && changes > 0;
	return rc;
}

int store_openapi_set_source(struct store_tx *tx, const char *id, const char *url, const char *text)
{
	struct db_param p[] = { P_TEXT(id), P_TEXT(url), P_TEXT(text), P_INT(clock_now_ms()) };

	return st_exec(tx,
		       "UPDATE openapi_specs SET source_url = $2, source_text = $3, generation = generation + 1, "
		       "processing_state = 'pending', updated_at = $4 WHERE id = $1",
		       p, NP(p), NULL);
}

int store_openapi_set_visibility(struct store_tx *tx, const char *id, const char *visibility)
{
	struct db_param p[] = { P_TEXT(id), P_TEXT(visibility), P_INT(clock_now_ms()) };

	return st_exec(tx, "UPDATE openapi_specs SET visibility = $2, updated_at = $3 WHERE id = $1", p, NP(p), NULL);
}

int store_openapi_delete(struct store_tx *tx, const char *org_id, const char *slug, bool *removed)
{
	struct db_param p[] = { P_TEXT(org_id), P_TEXT(slug) };
	int64_t changes = 0;
	int rc = st_exec(tx, "DELETE FROM openapi_specs WHERE org_id = $1 AND slug = $2", p, NP(p), &changes);

	*removed = changes > 0;
	return rc;
}

int store_openapi_set_state(struct store_tx *tx, const char *id, const char *state)
{
	struct db_param p[] = { P_TEXT(id), P_TEXT(state) };

	return st_exec(tx, "UPDATE openapi_specs SET processing_state = $2 WHERE id = $1", p, NP(p), NULL);
}

int store_openapi_finish(struct store_tx *tx, const struct openapi_spec *s)
{
	struct db_param p[] = { P_TEXT(s->id),
				P_TEXT(s->processing_state),
				P_TEXT(s->last_version),
				P_INT(s->last_processed_at),
				P_TEXT(s->last_error_code),
				P_TEXT(s->last_errors),
				P_INT(s->updated_at) };

	return st_exec(tx,
		       "UPDATE openapi_specs SET processing_state = $2, last_version = $3, last_processed_at = $4, "
		       "last_error_code = $5, last_errors = $6, updated_at = $7 WHERE id = $1",
		       p, NP(p), NULL);
}

/* ---- versions ---- */

#define VERSION_COLS "v.id, v.spec_id, v.url, v.content_hash, v.created_at"

static int fill_version(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct openapi_version *v = out;

	memset(v, 0, sizeof(*v));
	v->id = st_str(tx, r, 0);
	v->spec_id = st_str(tx, r, 1);
	v->url = st_str(tx, r, 2);
	v->content_hash = st_str(tx, r, 3);
	v->created_at = st_int(tx, r, 4);
	return 0;
}

static int fill_version_fs(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct openapi_version *v = out;
	int rc = fill_version(tx, r, out);

	if (rc == 0)
		v->filesystem = st_str(tx, r, 5);
	return rc;
}

int store_openapi_version_insert(struct store_tx *tx, struct openapi_version *v)
{
	char id[ID_LEN + 1];

	if (!v->id && id_new(id))
		return err_set(ERR_INTERNAL, "getrandom failed");
	if (!v->id)
		v->id = arena_strdup(tx->arena, id);
	v->created_at = clock_now_ms();
	struct db_param p[] = { P_TEXT(v->id), P_TEXT(v->spec_id), P_TEXT(v->url), P_TEXT(v->content_hash),
				P_TEXT(v->filesystem), P_INT(v->created_at) };
	return st_exec(tx,
		       "INSERT INTO openapi_versions (id, spec_id, url, content_hash, filesystem, created_at) "
		       "VALUES ($1, $2, $3, $4, $5, $6)",
		       p, NP(p), NULL);
}

int store_openapi_version_get(struct store_tx *tx, const char *spec_id, const char *id, bool with_fs,
			      struct openapi_version *out)
{
	struct db_param p[] = { P_TEXT(spec_id), P_TEXT(id) };
	int rc = with_fs ? st_one(tx,
				  "SELECT " VERSION_COLS ", v.filesystem FROM openapi_versions v "
				  "WHERE v.spec_id = $1 AND v.id = $2",
				  p, NP(p), fill_version_fs, out)
			 : st_one(tx, "SELECT " VERSION_COLS " FROM openapi_versions v WHERE v.spec_id = $1 AND v.id = $2",
				  p, NP(p), fill_version, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "OpenAPI spec version not found") : rc;
}

/* $1 spec, $2 limit, $3/$4 cursor */
#define VERSION_LIST(cmp) "SELECT " VERSION_COLS " FROM openapi_versions v WHERE v.spec_id = $1 " cmp \
	"ORDER BY v.created_at DESC, v.id DESC LIMIT $2"

static void version_key(const void *item, int64_t *key, const char **id)
{
	const struct openapi_version *v = item;

	*key = v->created_at;
	*id = v->id;
}

int store_openapi_versions_list(struct store_tx *tx, const char *spec_id, const struct list_req *lr,
				struct openapi_version **items, int *n, char **next)
{
	/* One order, newest first. */
	static const char *const sql[2][2] = {
		{ VERSION_LIST(""), VERSION_LIST("AND (v.created_at, v.id) < ($3, $4) ") },
		{ VERSION_LIST(""), VERSION_LIST("AND (v.created_at, v.id) < ($3, $4) ") },
	};
	struct db_param p[4] = { P_TEXT(spec_id) };
	int rc = st_list_keep(tx, sql, p, NP(p), 1, lr, fill_version, sizeof(struct openapi_version), version_key, NULL,
			      NULL, (void **)items, n, next);

	return rc ? rc : st_total(tx, lr, "SELECT COUNT(*) FROM openapi_versions v WHERE v.spec_id = $1", p, 1);
}
