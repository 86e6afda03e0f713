/*
 * internal.h - helpers shared by the store's domain files (users.c, orgs.c ...), so each
 * of them is only its SQL and the mapping of columns to model fields.
 */
#ifndef DOCSD_STORE_INTERNAL_H
#define DOCSD_STORE_INTERNAL_H

#include "store/store.h"
#include "util/err.h"

#define NP(a) ((int)(sizeof(a) / sizeof((a)[0])))

static inline int st_exec(struct store_tx *tx, const char *sql, const struct db_param *p, int np, int64_t *changes)
{
	return tx->drv->exec(tx->conn, sql, p, np, changes);
}

static inline int st_query(struct store_tx *tx, struct db_rows **r, const char *sql, const struct db_param *p, int np)
{
	return tx->drv->query(tx->conn, r, sql, p, np);
}

static inline int st_next(struct store_tx *tx, struct db_rows *r)
{
	return tx->drv->next(r);
}

static inline void st_done(struct store_tx *tx, struct db_rows *r)
{
	tx->drv->done(r);
}

static inline int64_t st_int(struct store_tx *tx, struct db_rows *r, int col)
{
	return tx->drv->integer(r, col);
}

/* Copy a column into the tx arena; NULL stays NULL. */
const char *st_str(struct store_tx *tx, struct db_rows *r, int col);

/* Run a query expecting at most one row, passing it to fill(). ERR_NOT_FOUND
 * when there is none. */
typedef int (*st_row_fn)(struct store_tx *tx, struct db_rows *r, void *out);
int st_one(struct store_tx *tx, const char *sql, const struct db_param *p, int np, st_row_fn fill, void *out);

/* Run a list query: rows are passed to fill() into an array of `size`-byte items
 * (at most lr->limit); *more says whether one more row existed. */
int st_list(struct store_tx *tx, const char *sql, const struct db_param *p, int np, int limit,
	    st_row_fn fill, size_t size, void **items, int *n, int *more);

/* Every row of a query, through fill(), into a growing arena array of
 * `size`-byte items (for bounded sets: a caller's grants, an org's collections). */
int st_all(struct store_tx *tx, const char *sql, const struct db_param *p, int np, st_row_fn fill, size_t size,
	   void **items, int *n);

/* Keyset pagination: the SQL variant is picked from a fixed [desc][has_cursor]
 * table. Parameter rule for every list statement: the cursor's key and id are the
 * LAST two parameters, so the first-page variant uses a contiguous prefix $1..$k
 * (PostgreSQL must see every parameter up to the highest one a statement uses). */
int st_cursor_int_param(const struct list_req *lr, struct db_param *key, struct db_param *id);

/* A keyset list whose rows also pass a filter that SQL cannot express (the
 * caller's access, model/access.c). Reads batches of rows after the cursor until
 * the page is full or the rows run out, so a page costs what its rows cost,
 * wherever it starts. sql[desc][has_cursor]; p[limit_idx] is the LIMIT and the
 * last two parameters are the cursor (st_cursor_int_param). key() gives an
 * item's sort key and id. keep == NULL keeps every row. */
typedef void (*st_key_fn)(const void *item, int64_t *key, const char **id);
int st_list_keep(struct store_tx *tx, const char *const sql[2][2], struct db_param *p, int np, int limit_idx,
		 const struct list_req *lr, st_row_fn fill, size_t size, st_key_fn key, store_keep_fn keep,
		 void *ctx, void **items, int *n, char **next);

/* The count cache in front of st_total / st_total_keep (store/totals.c), one
 * per store: made and freed by store.c, reached from a transaction. */
struct count_cache;
struct count_cache *count_cache_new(void);
void count_cache_free(struct count_cache *c);
struct count_cache *st_count_cache(struct store_tx *tx);
/* A list's total (store.h, "List totals"), when lr->total is set: count_sql
 * is one COUNT(*) statement with exactly the parameters p (the list's filters,
 * no LIMIT or cursor). Cached in the store's count cache when lr->generation
 * is set. */
int st_total(struct store_tx *tx, const struct list_req *lr, const char *count_sql, const struct db_param *p, int np);
/* The total of an st_list_keep list (same sql table, parameters, fill, key and
 * keep; p's LIMIT and cursor slots are overwritten): the rows kept, read in
 * batches. Meant for lists whose count is cached (lr->generation set), since
 * a miss reads every row; keep == NULL counts every row. */
int st_total_keep(struct store_tx *tx, const struct list_req *lr, const char *const sql[2][2], struct db_param *p,
		  int np, int limit_idx, st_row_fn fill, size_t size, st_key_fn key, store_keep_fn keep, void *ctx);

/* LIKE pattern for a case-insensitive substring match: '%' + escaped lower(s) + '%',
 * used with `ESCAPE '\'`. */
char *st_like_pattern(struct store_tx *tx, const char *s);

/* Column lists shared by the statements of several files; the matching fill
 * functions read them starting at a given column. */
#define MEMBER_COLS "u.id, u.email, u.display_name, u.photo_url, u.created_at, m.role, m.disabled, m.sso, " \
	"m.joined_at, m.last_seen_at, m.teams, " \
	"(SELECT COUNT(*) FROM grants gs WHERE gs.org_id = m.org_id AND gs.user_id = m.user_id AND gs.space_id IS NOT NULL)"
#define MEMBER_FROM " FROM members m JOIN users u ON u.id = m.user_id "
#define MEMBER_NCOLS 12
#define TEAM_COLS "t.id, t.org_id, t.title, t.created_at, " \
	"(SELECT COUNT(*) FROM team_members tc WHERE tc.team_id = t.id), " \
	"(SELECT COUNT(*) FROM grants gs WHERE gs.team_id = t.id AND gs.space_id IS NOT NULL)"
#define TEAM_NCOLS 6

#define SPACE_COLS "s.id, s.org_id, s.parent_id, s.title, s.emoji, s.icon, s.visibility, s.edit_mode, " \
	"s.language, s.default_level, s.revision, s.merge_rules, s.position, s.created_at, s.updated_at, " \
	"s.deleted_at, s.comments, s.change_requests, s.change_requests_open, s.change_requests_draft, s.git_sync"
#define SPACE_NCOLS 21

/* Write a space's first revision rev_id: empty, or a snapshot of revision
 * copy_of's content (duplicates). */
int st_revision_first(struct store_tx *tx, const char *space_id, const char *rev_id, const char *copy_of);
/* Release the revisions a transaction holds (store/revisions.c). */
void st_release_revisions(struct store_tx *tx);

/* Column mappers shared between domain files. */
int store_fill_user(struct store_tx *tx, struct db_rows *r, int col, struct user *u);
int store_fill_member(struct store_tx *tx, struct db_rows *r, int col, struct member *m);
int store_fill_team(struct store_tx *tx, struct db_rows *r, int col, struct team *t);
int store_fill_space(struct store_tx *tx, struct db_rows *r, int col, struct space *s);

/* Position for a new last item under parent_id (NULL: the top level). Takes
 * the organization's lock (store/content.c, "Positions"). */
int st_position_append(struct store_tx *tx, const char *org_id, const char *parent_id, int64_t *out);

#endif
