/*
 * reviews.c - reviews of change requests and requested reviewers (reviews.h).
 *
 * `outdated` is computed in the SELECT from the change request's head, so a
 * new head (a content batch, an update from the space) outdates earlier
 * reviews without touching their rows; `superseded` is set on a reviewer's
 * earlier rows when the same reviewer reviews again or is requested again.
 * Both lists are ordered by `position`, the next number in the change request,
 * taken while the change request's row is locked (domain/reviews.c), so rows
 * made in one millisecond keep the order they were made in.
 */
#include "store/internal.h"
#include "util/util.h"

#include <string.h>

#define OUTDATED "(CASE WHEN r.superseded = 1 OR r.revision <> c.revision THEN 1 ELSE 0 END)"
#define REVIEW_COLS "r.id, r.change_request_id, r.status, r.revision, " OUTDATED ", r.created_at, r.updated_at, " \
	"u.id, u.email, u.display_name, u.photo_url, u.created_at, " \
	"q.id, q.email, q.display_name, q.photo_url, q.created_at, r.comment_id, r.position"
#define REVIEW_FROM " FROM cr_reviews r JOIN change_requests c ON c.id = r.change_request_id " \
	"JOIN users u ON u.id = r.reviewer_id LEFT JOIN users q ON q.id = r.requested_by "

static int fill_review(struct store_tx *tx, struct db_rows *row, void *out)
{
	struct cr_review *r = out;
	int rc;

	r->id = st_str(tx, row, 0);
	r->change_request_id = st_str(tx, row, 1);
	r->status = st_str(tx, row, 2);
	r->revision = st_str(tx, row, 3);
	r->outdated = st_int(tx, row, 4) != 0;
	r->created_at = st_int(tx, row, 5);
	r->updated_at = st_int(tx, row, 6);
	r->comment_id = st_str(tx, row, 17);
	r->position = st_int(tx, row, 18);
	if ((rc = store_fill_user(tx, row, 7, &r->reviewer)) || (rc = store_fill_user(tx, row, 12, &r->requested_by)))
		return rc;
	return 0;
}

static void review_key(const void *item, int64_t *key, const char **id)
{
	const struct cr_review *r = item;

	*key = r->position;
	*id = r->id;
}

static int supersede(struct store_tx *tx, const char *change_request_id, const char *user_id)
{
	struct db_param p[] = { P_TEXT(change_request_id), P_TEXT(user_id) };

	return st_exec(tx, "UPDATE cr_reviews SET superseded = 1 WHERE change_request_id = $1 AND reviewer_id = $2",
		       p, NP(p), NULL);
}

int store_review_create(struct store_tx *tx, const char *change_request_id, struct cr_review *r)
{
	char id[ID_LEN + 1];
	int rc;

	if (id_new(id) || !(r->id = arena_strdup(tx->arena, id)))
		return err_set(ERR_INTERNAL, "cannot make an id");
	r->change_request_id = change_request_id;
	r->created_at = r->updated_at = clock_now_ms();
	r->outdated = false;
	if ((rc = supersede(tx, change_request_id, r->reviewer.id)))
		return rc;
	struct db_param p[] = {
		P_TEXT(r->id), P_TEXT(change_request_id), P_TEXT(r->reviewer.id), P_TEXT(r->status),
		P_TEXT(r->revision), P_INT(r->created_at), P_TEXT(r->comment_id),
	};
	return st_exec(tx,
		       "INSERT INTO cr_reviews (id, change_request_id, reviewer_id, requested_by, status, revision, "
		       "created_at, updated_at, comment_id, position) VALUES ($1, $2, $3, "
		       "(SELECT q.requested_by FROM cr_requested_reviewers q WHERE q.change_request_id = $2 "
		       "AND q.user_id = $3), $4, $5, $6, $6, $7, "
		       "(SELECT COALESCE(MAX(p.position), 0) + 1 FROM cr_reviews p WHERE p.change_request_id = $2))",
		       p, NP(p), NULL);
}

int store_review_get(struct store_tx *tx, const char *change_request_id, const char *id, struct cr_review *out)
{
	struct db_param p[] = { P_TEXT(change_request_id), P_TEXT(id) };
	int rc = st_one(tx, "SELECT " REVIEW_COLS REVIEW_FROM "WHERE r.change_request_id = $1 AND r.id = $2", p, NP(p),
			fill_review, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "review not found") : rc;
}

/* $1 change request, $2 outdated filter (-1 any), $3 limit, $4/$5 cursor */
#define REVIEWS(cmp) \
	"SELECT " REVIEW_COLS REVIEW_FROM "WHERE r.change_request_id = $1 " \
	"AND (CAST($2 AS INTEGER) < 0 OR " OUTDATED " = CAST($2 AS INTEGER)) " cmp \
	"ORDER BY r.position, r.id LIMIT $3"

int store_reviews_list(struct store_tx *tx, const char *change_request_id, int outdated, const struct list_req *lr,
		       struct cr_review **items, int *n, char **next)
{
	/* One order (oldest first, as the conversation reads). */
	static const char *const sql[2][2] = {
		{ REVIEWS(""), REVIEWS("AND (r.position, r.id) > ($4, $5) ") },
		{ REVIEWS(""), REVIEWS("AND (r.position, r.id) > ($4, $5) ") },
	};
	struct db_param p[5] = { P_TEXT(change_request_id), P_INT(outdated) };
	int rc = st_list_keep(tx, sql, p, NP(p), 2, lr, fill_review, sizeof(struct cr_review), review_key, NULL, NULL,
			      (void **)items, n, next);

	return rc ? rc : st_total(tx, lr,
				  "SELECT COUNT(*)" REVIEW_FROM "WHERE r.change_request_id = $1 "
				  "AND (CAST($2 AS INTEGER) < 0 OR " OUTDATED " = CAST($2 AS INTEGER))",
				  p, 2);
}

int store_reviews_current(struct store_tx *tx, const char *change_request_id, struct cr_review **items, int *n)
{
	struct db_param p[] = { P_TEXT(change_request_id) };

	return st_all(tx,
		      "SELECT " REVIEW_COLS REVIEW_FROM "WHERE r.change_request_id = $1 AND " OUTDATED " = 0 "
		      "ORDER BY r.position, r.id",
		      p, NP(p), fill_review, sizeof(struct cr_review), (void **)items, n);
}

/* ---- requested reviewers ---- */

#define REQ_COLS "q.revision, q.created_at, q.position, u.id, u.email, u.display_name, u.photo_url, u.created_at, " \
	"b.id, b.email, b.display_name, b.photo_url, b.created_at"
#define REQ_FROM " FROM cr_requested_reviewers q JOIN users u ON u.id = q.user_id JOIN users b ON b.id = q.requested_by "

static int fill_request(struct store_tx *tx, struct db_rows *row, void *out)
{
	struct cr_requested_reviewer *q = out;
	int rc;

	q->revision = st_str(tx, row, 0);
	q->created_at = st_int(tx, row, 1);
	q->position = st_int(tx, row, 2);
	if ((rc = store_fill_user(tx, row, 3, &q->user)) || (rc = store_fill_user(tx, row, 8, &q->requested_by)))
		return rc;
	return 0;
}

static void request_key(const void *item, int64_t *key, const char **id)
{
	const struct cr_requested_reviewer *q = item;

	*key = q->position;
	*id = q->user.id;
}

int store_reviewer_request(struct store_tx *tx, const char *change_request_id, const char *user_id,
			   const char *requested_by, const char *revision)
{
	struct db_param p[] = {
		P_TEXT(change_request_id), P_TEXT(user_id), P_TEXT(requested_by), P_TEXT(revision), P_INT(clock_now_ms()),
	};
	int rc = st_exec(tx,
			 "INSERT INTO cr_requested_reviewers (change_request_id, user_id, requested_by, revision, created_at, "
			 "position) VALUES ($1, $2, $3, $4, $5, (SELECT COALESCE(MAX(p.position), 0) + 1 "
			 "FROM cr_requested_reviewers p WHERE p.change_request_id = $1)) ON CONFLICT (change_request_id, user_id) "
			 "DO UPDATE SET requested_by = excluded.requested_by, revision = excluded.revision",
			 p, NP(p), NULL);

	return rc ? rc : supersede(tx, change_request_id, user_id);
}

int store_reviewer_get(struct store_tx *tx, const char *change_request_id, const char *user_id,
		       struct cr_requested_reviewer *out)
{
	struct db_param p[] = { P_TEXT(change_request_id), P_TEXT(user_id) };
	int rc = st_one(tx, "SELECT " REQ_COLS REQ_FROM "WHERE q.change_request_id = $1 AND q.user_id = $2", p, NP(p),
			fill_request, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "requested reviewer not found") : rc;
}

/* $1 change request, $2 limit, $3/$4 cursor */
#define REQUESTS(cmp) \
	"SELECT " REQ_COLS REQ_FROM "WHERE q.change_request_id = $1 " cmp "ORDER BY q.position, q.user_id LIMIT $2"

int store_reviewers_list(struct store_tx *tx, const char *change_request_id, const struct list_req *lr,
			 struct cr_requested_reviewer **items, int *n, char **next)
{
	static const char *const sql[2][2] = {
		{ REQUESTS(""), REQUESTS("AND (q.position, q.user_id) > ($3, $4) ") },
		{ REQUESTS(""), REQUESTS("AND (q.position, q.user_id) > ($3, $4) ") },
	};
	struct db_param p[4] = { P_TEXT(change_request_id) };
	int rc = st_list_keep(tx, sql, p, NP(p), 1, lr, fill_request, sizeof(struct cr_requested_reviewer),
			      request_key, NULL, NULL, (void **)items, n, next);

	return rc ? rc : st_total(tx, lr, "SELECT COUNT(*) FROM cr_requested_reviewers q WHERE q.change_request_id = $1",
				  p, 1);
}

int store_reviewer_remove(struct store_tx *tx, const char *change_request_id, const char *user_id, bool *removed)
{
	struct db_param p[] = { P_TEXT(change_request_id), P_TEXT(user_id) };
	int64_t changes = 0;
	int rc = st_exec(tx, "DELETE FROM cr_requested_reviewers WHERE change_request_id = $1 AND user_id = $2", p,
			 NP(p), &changes);

	*removed = changes > 0;
	return rc;
}
