/*
 * change_requests.c - change requests and their contributors.
 *
 * Numbers come from the space's change_request_seq, bumped in the creating
 * transaction by one UPDATE ... RETURNING (which on PostgreSQL waits for a
 * concurrent bump and adds to its result), so they increase per space without
 * gaps or duplicates. The space's counts (changeRequests, changeRequestsOpen,
 * changeRequestsDraft) are recounted from the rows in every transaction that
 * changes a status, so they are always true: the recount first locks the
 * space's row, so on PostgreSQL it runs after any other recount of the space
 * has committed, in a statement that sees that one's rows. The org is bumped
 * because admins' space lists are cached.
 *
 * Writes of a change request's status and head compare with the values the
 * caller read (store_cr_update): on PostgreSQL an UPDATE whose row another
 * transaction changed re-reads it and its WHERE, so of two writers that read
 * the same head only the first lands, the second gets ERR_CONFLICT.
 */
#include "store/internal.h"
#include "util/util.h"

#include <string.h>

#define CR_COLS "c.id, c.space_id, c.number, c.status, c.subject, c.agent_task_id, c.created_at, c.updated_at, " \
	"c.revision, c.revision_initial, c.revision_merged_ancestor, c.revision_merged, c.comments, c.description, " \
	"u.id, u.email, u.display_name, u.photo_url, u.created_at"
#define CR_FROM " FROM change_requests c JOIN users u ON u.id = c.created_by "

static int fill_cr(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct change_request *cr = out;

	cr->id = st_str(tx, r, 0);
	cr->space_id = st_str(tx, r, 1);
	cr->number = st_int(tx, r, 2);
	cr->status = st_str(tx, r, 3);
	cr->subject = st_str(tx, r, 4);
	cr->agent_task_id = st_str(tx, r, 5);
	cr->created_at = st_int(tx, r, 6);
	cr->updated_at = st_int(tx, r, 7);
	cr->revision = st_str(tx, r, 8);
	cr->revision_initial = st_str(tx, r, 9);
	cr->revision_merged_ancestor = st_str(tx, r, 10);
	cr->revision_merged = st_str(tx, r, 11);
	cr->comments = st_int(tx, r, 12);
	cr->description = st_str(tx, r, 13);
	return store_fill_user(tx, r, 14, &cr->created_by);
}

/* The columns after CR_COLS: the change request's space (SPACE_COLS). */
#define CR_NCOLS 19

static int fill_cr_space(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct cr_in_space *x = out;
	int rc = fill_cr(tx, r, &x->cr);

	return rc ? rc : store_fill_space(tx, r, CR_NCOLS, &x->space);
}

static int recount(struct store_tx *tx, const char *space_id)
{
	struct db_param p[] = { P_TEXT(space_id) };
	struct space s;
	/* Lock first, in a statement of its own: the counting statement's
	 * snapshot is then taken after the last recount of the space committed
	 * (an UPDATE that waits for a row lock keeps the snapshot it started with). */
	int rc = store_space_get_locked(tx, space_id, &s);

	if (rc || (rc = st_exec(tx,
				"UPDATE spaces SET "
				"change_requests = (SELECT COUNT(*) FROM change_requests WHERE space_id = $1), "
				"change_requests_open = (SELECT COUNT(*) FROM change_requests WHERE space_id = $1 AND status = 'open'), "
				"change_requests_draft = (SELECT COUNT(*) FROM change_requests WHERE space_id = $1 AND status = 'draft') "
				"WHERE id = $1",
				p, NP(p), NULL)))
		return rc;
	return store_org_bump(tx, s.org_id);
}

static int fill_int0(struct store_tx *tx, struct db_rows *r, void *out)
{
	*(int64_t *)out = st_int(tx, r, 0);
	return 0;
}

int store_cr_create(struct store_tx *tx, struct change_request *cr)
{
	char id[ID_LEN + 1];
	struct db_param sp[] = { P_TEXT(cr->space_id) };
	int rc;

	if (id_new(id) || !(cr->id = arena_strdup(tx->arena, id)))
		return err_set(ERR_INTERNAL, "cannot make an id");
	rc = st_one(tx, "UPDATE spaces SET change_request_seq = change_request_seq + 1 WHERE id = $1 "
			"RETURNING change_request_seq",
		    sp, NP(sp), fill_int0, &cr->number);
	if (rc)
		return rc;
	cr->created_at = cr->updated_at = clock_now_ms();
	cr->comments = 0;
	struct db_param p[] = {
		P_TEXT(cr->id), P_TEXT(cr->space_id), P_INT(cr->number), P_TEXT(cr->status), P_TEXT(cr->subject),
		P_TEXT(cr->agent_task_id), P_TEXT(cr->created_by.id), P_INT(cr->created_at), P_TEXT(cr->revision),
		P_TEXT(cr->revision_initial), P_TEXT(cr->description),
	};
	rc = st_exec(tx,
		     "INSERT INTO change_requests (id, space_id, number, status, subject, agent_task_id, created_by, "
		     "created_at, updated_at, revision, revision_initial, description) "
		     "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $10, $11)",
		     p, NP(p), NULL);
	return rc ? rc : recount(tx, cr->space_id);
}

int store_cr_get(struct store_tx *tx, const char *space_id, const char *id, struct change_request *out)
{
	struct db_param p[] = { P_TEXT(space_id), P_TEXT(id) };
	int rc = st_one(tx, "SELECT " CR_COLS CR_FROM "WHERE c.space_id = $1 AND c.id = $2", p, NP(p), fill_cr, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "change request not found") : rc;
}

int store_cr_get_locked(struct store_tx *tx, const char *space_id, const char *id, struct change_request *out)
{
	struct db_param p[] = { P_TEXT(space_id), P_TEXT(id) };
	int rc = st_one(tx, "SELECT " CR_COLS CR_FROM "WHERE c.space_id = $1 AND c.id = $2" DB_LOCK_ROW_OF("c"), p, NP(p),
			fill_cr, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "change request not found") : rc;
}

int store_cr_get_by_number(struct store_tx *tx, const char *space_id, int64_t number, struct change_request *out)
{
	struct db_param p[] = { P_TEXT(space_id), P_INT(number) };
	int rc = st_one(tx, "SELECT " CR_COLS CR_FROM "WHERE c.space_id = $1 AND c.number = $2", p, NP(p), fill_cr,
			out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "change request not found") : rc;
}

int store_cr_update(struct store_tx *tx, const struct change_request *cr, const char *old_status,
		    const char *old_revision)
{
	struct db_param p[] = {
		P_TEXT(cr->id), P_TEXT(cr->subject), P_TEXT(cr->status), P_TEXT(cr->revision),
		P_TEXT(cr->revision_merged_ancestor), P_TEXT(cr->revision_merged), P_INT(clock_now_ms()),
		P_TEXT(old_status), P_TEXT(old_revision), P_TEXT(cr->description),
	};
	int64_t changes = 0;
	int rc;

	if (!old_status || !old_revision)
		return err_set(ERR_INTERNAL, "store_cr_update: the status and revision read are required");
	rc = st_exec(tx,
			 "UPDATE change_requests SET subject = $2, status = $3, revision = $4, "
			 "revision_merged_ancestor = $5, revision_merged = $6, updated_at = $7, description = $10 "
			 "WHERE id = $1 AND status = $8 AND revision = $9",
			 p, NP(p), &changes);

	if (rc)
		return rc;
	if (changes == 0)
		return err_set(ERR_CONFLICT, "the change request changed while this request ran; try again");
	/* The space list shows counts by status; other edits leave them alone. */
	if (strcmp(old_status, cr->status) != 0)
		return recount(tx, cr->space_id);
	return 0;
}

int store_cr_add_contributor(struct store_tx *tx, const char *cr_id, const char *user_id)
{
	struct db_param p[] = { P_TEXT(cr_id), P_TEXT(user_id), P_INT(clock_now_ms()) };

	return st_exec(tx,
		       "INSERT INTO change_request_contributors (change_request_id, user_id, edits, updated_at) "
		       "VALUES ($1, $2, 1, $3) ON CONFLICT (change_request_id, user_id) DO UPDATE SET "
		       "edits = change_request_contributors.edits + 1, updated_at = $3",
		       p, NP(p), NULL);
}

/* Editors (change_request_contributors) and commenters (comments and
 * replies posted on the change request), one row per user and kind, newest
 * contribution first. The keyset is (2 * time + kind, user): unique, as a user
 * has at most one row of each kind. $1 change request, $2 limit, $3/$4 cursor. */
#define CONTRIB_LIST(cmp, dir) \
	"SELECT x.action, x.n, x.at, x.k, u.id, u.email, u.display_name, u.photo_url, u.created_at FROM (" \
	"SELECT user_id, 'edit' AS action, edits AS n, updated_at AS at, 2 * updated_at AS k " \
	"FROM change_request_contributors WHERE change_request_id = $1 " \
	"UNION ALL SELECT posted_by, 'comment', COUNT(*), MAX(posted_at), 2 * MAX(posted_at) + 1 " \
	"FROM comments WHERE change_request_id = $1 GROUP BY posted_by" \
	") x JOIN users u ON u.id = x.user_id " cmp "ORDER BY x.k " dir ", x.user_id " dir " LIMIT $2"

static int fill_contributor(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct cr_contributor *c = out;

	c->action = st_str(tx, r, 0);
	c->count = st_int(tx, r, 1);
	c->updated_at = st_int(tx, r, 2);
	c->key = st_int(tx, r, 3);
	return store_fill_user(tx, r, 4, &c->user);
}

static void contributor_key(const void *item, int64_t *key, const char **id)
{
	const struct cr_contributor *c = item;

	*key = c->key;
	*id = c->user.id;
}

int store_cr_contributors(struct store_tx *tx, const char *cr_id, const struct list_req *lr,
			  struct cr_contributor **items, int *n, char **next)
{
	static const char *const sql[2][2] = {
		{ CONTRIB_LIST("", "ASC"), CONTRIB_LIST("WHERE (x.k, x.user_id) > ($3, $4) ", "ASC") },
		{ CONTRIB_LIST("", "DESC"), CONTRIB_LIST("WHERE (x.k, x.user_id) < ($3, $4) ", "DESC") },
	};
	struct db_param p[4] = { P_TEXT(cr_id), P_NULL };
	int rc = st_list_keep(tx, sql, p, NP(p), 1, lr, fill_contributor, sizeof(struct cr_contributor),
			      contributor_key, NULL, NULL, (void **)items, n, next);

	/* One row per editor, one per commenter (users are never deleted under them). */
	return rc ? rc : st_total(tx, lr,
				  "SELECT (SELECT COUNT(*) FROM change_request_contributors WHERE change_request_id = $1) "
				  "+ (SELECT COUNT(DISTINCT posted_by) FROM comments WHERE change_request_id = $1)",
				  p, 1);
}

/* The filters of both lists: $3 status, $4 contributor, $5 creator (each
 * NULL for any). */
#define CR_FILTERS_AT(st, co, cr) \
	"AND (CAST(" st " AS TEXT) IS NULL OR c.status = " st ") " \
	"AND (CAST(" co " AS TEXT) IS NULL OR EXISTS (SELECT 1 FROM change_request_contributors x " \
	"WHERE x.change_request_id = c.id AND x.user_id = " co ")) " \
	"AND (CAST(" cr " AS TEXT) IS NULL OR c.created_by = " cr ") "
#define CR_FILTERS CR_FILTERS_AT("$3", "$4", "$5")

/* $1 space, $2 limit, $3..$5 filters, $6/$7 cursor */
#define CR_LIST(cmp, dir) \
	"SELECT " CR_COLS CR_FROM "WHERE c.space_id = $1 " CR_FILTERS cmp \
	"ORDER BY c.created_at " dir ", c.id " dir " LIMIT $2"

/* $1 organization, $2 limit, $3..$5 filters, $6/$7 cursor: the change
 * requests of the organization's live spaces. */
#define CR_ORG_LIST(cmp, dir) \
	"SELECT " CR_COLS ", " SPACE_COLS CR_FROM "JOIN spaces s ON s.id = c.space_id " \
	"WHERE s.org_id = $1 AND s.deleted_at IS NULL " CR_FILTERS cmp \
	"ORDER BY c.created_at " dir ", c.id " dir " LIMIT $2"

static void cr_key(const void *item, int64_t *key, const char **id)
{
	const struct change_request *cr = item;

	*key = cr->created_at;
	*id = cr->id;
}

int store_crs_list(struct store_tx *tx, const char *space_id, const struct cr_filter *f, const struct list_req *lr,
		   struct change_request **items, int *n, char **next)
{
	static const char *const sql[2][2] = {
		{ CR_LIST("", "ASC"), CR_LIST("AND (c.created_at, c.id) > ($6, $7) ", "ASC") },
		{ CR_LIST("", "DESC"), CR_LIST("AND (c.created_at, c.id) < ($6, $7) ", "DESC") },
	};
	struct db_param p[7] = { P_TEXT(space_id), P_NULL, P_TEXT(f->status), P_TEXT(f->contributor),
				 P_TEXT(f->creator) };
	struct db_param c[] = { P_TEXT(space_id), P_TEXT(f->status), P_TEXT(f->contributor), P_TEXT(f->creator) };
	int rc = st_list_keep(tx, sql, p, NP(p), 1, lr, fill_cr, sizeof(struct change_request), cr_key, NULL, NULL,
			      (void **)items, n, next);

	return rc ? rc : st_total(tx, lr,
				  "SELECT COUNT(*) FROM change_requests c WHERE c.space_id = $1 "
				  CR_FILTERS_AT("$2", "$3", "$4"),
				  c, NP(c));
}

static void cr_space_key(const void *item, int64_t *key, const char **id)
{
	cr_key(&((const struct cr_in_space *)item)->cr, key, id);
}

int store_crs_list_org(struct store_tx *tx, const char *org_id, const struct cr_filter *f, const struct list_req *lr,
		       store_keep_fn keep, void *ctx, struct cr_in_space **items, int *n, char **next)
{
	static const char *const sql[2][2] = {
		{ CR_ORG_LIST("", "ASC"), CR_ORG_LIST("AND (c.created_at, c.id) > ($6, $7) ", "ASC") },
		{ CR_ORG_LIST("", "DESC"), CR_ORG_LIST("AND (c.created_at, c.id) < ($6, $7) ", "DESC") },
	};
	struct db_param p[7] = { P_TEXT(org_id), P_NULL, P_TEXT(f->status), P_TEXT(f->contributor),
				 P_TEXT(f->creator) };
	int rc = st_list_keep(tx, sql, p, NP(p), 1, lr, fill_cr_space, sizeof(struct cr_in_space), cr_space_key, keep,
			      ctx, (void **)items, n, next);

	/* Access-filtered: the kept rows are counted (not cached: contributor
	 * changes do not bump the organization's generation). */
	return rc ? rc : st_total_keep(tx, lr, sql, p, NP(p), 1, fill_cr_space, sizeof(struct cr_in_space),
				       cr_space_key, keep, ctx);
}
