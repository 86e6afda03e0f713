/*
 * site_redirects.c - a published site's redirects (store/site_redirects.h).
 */
#include "store/site_redirects.h"

#include "store/internal.h"
#include "util/util.h"

#include <string.h>

#define REDIRECT_COLS "id, site_id, source, kind, section_id, site_space_id, page_id, created_at"

static int fill_redirect(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct site_redirect *x = out;

	x->id = st_str(tx, r, 0);
	x->site_id = st_str(tx, r, 1);
	x->source = st_str(tx, r, 2);
	x->kind = st_str(tx, r, 3);
	x->section_id = st_str(tx, r, 4);
	x->site_space_id = st_str(tx, r, 5);
	x->page_id = st_str(tx, r, 6);
	x->created_at = st_int(tx, r, 7);
	return 0;
}

static void redirect_key(const void *item, int64_t *key, const char **id)
{
	const struct site_redirect *x = item;

	*key = x->created_at;
	*id = x->id;
}

/* $1 site, $2 limit, $3 the search pattern (NULL: none), $4/$5 cursor. */
#define REDIRECT_WHERE "WHERE site_id = $1 AND (CAST($3 AS TEXT) IS NULL OR lower(source) LIKE $3 ESCAPE '\\') "
#define REDIRECT_LIST(cmp, dir) \
	"SELECT " REDIRECT_COLS " FROM site_redirects " REDIRECT_WHERE cmp \
	"ORDER BY created_at " dir ", id " dir " LIMIT $2"

static const char *const redirect_list_sql[2][2] = {
	[0][0] = REDIRECT_LIST("", "ASC"),
	[0][1] = REDIRECT_LIST("AND (created_at, id) > ($4, $5) ", "ASC"),
	[1][0] = REDIRECT_LIST("", "DESC"),
	[1][1] = REDIRECT_LIST("AND (created_at, id) < ($4, $5) ", "DESC"),
};

int store_site_redirects_list(struct store_tx *tx, const char *site_id, const char *search,
			      const struct list_req *lr, struct site_redirect **items, int *n, char **next)
{
	const char *like = search && *search ? st_like_pattern(tx, search) : NULL;
	struct db_param p[5] = { P_TEXT(site_id), P_NULL, P_TEXT(like) };
	int rc = st_list_keep(tx, redirect_list_sql, p, NP(p), 1, lr, fill_redirect, sizeof(struct site_redirect),
			      redirect_key, NULL, NULL, (void **)items, n, next);
	struct db_param c[] = { P_TEXT(site_id), P_TEXT(like) };

	return rc ? rc
		  : st_total(tx, lr,
			     "SELECT COUNT(*) FROM site_redirects WHERE site_id = $1 AND "
			     "(CAST($2 AS TEXT) IS NULL OR lower(source) LIKE $2 ESCAPE '\\')",
			     c, NP(c));
}

int store_site_redirect_get(struct store_tx *tx, const char *site_id, const char *id, struct site_redirect *out)
{
	struct db_param p[] = { P_TEXT(site_id), P_TEXT(id) };
	int rc = st_one(tx, "SELECT " REDIRECT_COLS " FROM site_redirects WHERE site_id = $1 AND id = $2", p, NP(p),
			fill_redirect, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "site redirect not found") : rc;
}

int store_site_redirect_by_source(struct store_tx *tx, const char *site_id, const char *source,
				  struct site_redirect *out)
{
	struct db_param p[] = { P_TEXT(site_id), P_TEXT(source) };
	int rc = st_one(tx, "SELECT " REDIRECT_COLS " FROM site_redirects WHERE site_id = $1 AND source = $2", p,
			NP(p), fill_redirect, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "no site redirect from '%s'", source) : rc;
}

int store_site_redirect_create(struct store_tx *tx, struct site_redirect *r)
{
	char id[ID_LEN + 1];

	if (id_new(id))
		return err_set(ERR_INTERNAL, "getrandom failed");
	r->id = arena_strdup(tx->arena, id);
	r->created_at = clock_now_ms();
	struct db_param p[] = { P_TEXT(r->id),	       P_TEXT(r->site_id),	 P_TEXT(r->source),
				P_TEXT(r->kind),       P_TEXT(r->section_id),	 P_TEXT(r->site_space_id),
				P_TEXT(r->page_id),    P_INT(r->created_at) };
	return st_exec(tx,
		       "INSERT INTO site_redirects (" REDIRECT_COLS ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8)", p,
		       NP(p), NULL);
}

int store_site_redirect_update(struct store_tx *tx, const struct site_redirect *r)
{
	struct db_param p[] = { P_TEXT(r->site_id),	  P_TEXT(r->id),	  P_TEXT(r->source), P_TEXT(r->kind),
				P_TEXT(r->section_id), P_TEXT(r->site_space_id), P_TEXT(r->page_id) };

	return st_exec(tx,
		       "UPDATE site_redirects SET source = $3, kind = $4, section_id = $5, site_space_id = $6, "
		       "page_id = $7 WHERE site_id = $1 AND id = $2",
		       p, NP(p), NULL);
}

int store_site_redirect_delete(struct store_tx *tx, const char *site_id, const char *id, bool *deleted)
{
	struct db_param p[] = { P_TEXT(site_id), P_TEXT(id) };
	int64_t changes = 0;
	int rc = st_exec(tx, "DELETE FROM site_redirects WHERE site_id = $1 AND id = $2", p, NP(p), &changes);

	*deleted = changes > 0;
	return rc;
}

int store_space_page_path_put(struct store_tx *tx, const char *space_id, const char *path, const char *page_id)
{
	struct db_param p[] = { P_TEXT(space_id), P_TEXT(path), P_TEXT(page_id), P_INT(clock_now_ms()) };

	return st_exec(tx,
		       "INSERT INTO space_page_paths (space_id, path, page_id, created_at) VALUES ($1, $2, $3, $4) "
		       "ON CONFLICT (space_id, path) DO UPDATE SET page_id = excluded.page_id, "
		       "created_at = excluded.created_at",
		       p, NP(p), NULL);
}

static int fill_str0(struct store_tx *tx, struct db_rows *r, void *out)
{
	*(const char **)out = st_str(tx, r, 0);
	return 0;
}

int store_space_page_path_get(struct store_tx *tx, const char *space_id, const char *path, const char **page_id)
{
	struct db_param p[] = { P_TEXT(space_id), P_TEXT(path) };

	return st_one(tx, "SELECT page_id FROM space_page_paths WHERE space_id = $1 AND path = $2", p, NP(p), fill_str0,
		      page_id);
}

int store_revision_redirect_put(struct store_tx *tx, const char *revision_id, const char *source, const char *target)
{
	struct db_param p[] = { P_TEXT(revision_id), P_TEXT(source), P_TEXT(target) };

	return st_exec(tx,
		       "INSERT INTO revision_redirects (revision_id, source, target) VALUES ($1, $2, $3) "
		       "ON CONFLICT (revision_id, source) DO UPDATE SET target = excluded.target",
		       p, NP(p), NULL);
}

int store_revision_redirect_get(struct store_tx *tx, const char *revision_id, const char *source,
				const char **target)
{
	struct db_param p[] = { P_TEXT(revision_id), P_TEXT(source) };

	return st_one(tx, "SELECT target FROM revision_redirects WHERE revision_id = $1 AND source = $2", p, NP(p),
		      fill_str0, target);
}

int store_revision_redirects_copy(struct store_tx *tx, const char *from, const char *to)
{
	struct db_param p[] = { P_TEXT(from), P_TEXT(to) };

	return st_exec(tx,
		       "INSERT INTO revision_redirects (revision_id, source, target) "
		       "SELECT $2, source, target FROM revision_redirects WHERE revision_id = $1 "
		       "ON CONFLICT (revision_id, source) DO NOTHING",
		       p, NP(p), NULL);
}

static int fill_translation(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct site_translation *t = out;

	t->source_space = st_str(tx, r, 0);
	t->source_language = st_str(tx, r, 1);
	t->result_space = st_str(tx, r, 2);
	t->language = st_str(tx, r, 3);
	return 0;
}

int store_site_translations(struct store_tx *tx, const char *site_id, struct site_translation **out, int *n)
{
	struct db_param p[] = { P_TEXT(site_id) };

	return st_all(tx,
		      "SELECT t.source_space, t.source_language, t.result_space, t.language FROM translations t "
		      "WHERE t.result_space IS NOT NULL "
		      "AND t.source_space IN (SELECT space_id FROM site_spaces WHERE site_id = $1) "
		      "AND t.result_space IN (SELECT space_id FROM site_spaces WHERE site_id = $1) "
		      "ORDER BY t.created_at, t.id LIMIT 200",
		      p, NP(p), fill_translation, sizeof(struct site_translation), (void **)out, n);
}
