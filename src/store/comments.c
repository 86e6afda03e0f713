/*
 * comments.c - comments, replies, reactions and commenters (store/comments.h).
 *
 * Counters are kept by conditional statements whose row count says whether
 * the state changed ("UPDATE ... WHERE status = 'open'" affects one row or
 * none), so two requests racing on the same comment count it once on both
 * engines: PostgreSQL re-checks the WHERE of an UPDATE or DELETE on a row that
 * a concurrent transaction changed, and SQLite has one writer at a time.
 *
 * Places: the statements of a space's own comments and of a change request's
 * differ only in the change_request_id condition, so each list comes in two
 * tables picked by the place (own: "IS NULL", the $n of the change request
 * still used once through CAST($n AS TEXT) IS NULL, as PostgreSQL wants every
 * parameter up to the highest one used).
 */
#include "store/internal.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

#define COMMENT_COLS \
	"c.id, c.space_id, c.change_request_id, c.parent_id, c.posted_at, c.edited_at, c.markdown, c.status, " \
	"c.resolved_at, c.revision, c.target_page, c.target_node, c.target_preview, c.target_table_cell, c.replies, " \
	"pu.id, pu.email, pu.display_name, pu.photo_url, pu.created_at, " \
	"ru.id, ru.email, ru.display_name, ru.photo_url, ru.created_at, " \
	"(SELECT v.id FROM cr_reviews v WHERE v.comment_id = c.id)"
#define COMMENT_FROM " FROM comments c JOIN users pu ON pu.id = c.posted_by LEFT JOIN users ru ON ru.id = c.resolved_by "

static int fill_comment(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct comment *c = out;
	int rc;

	c->id = st_str(tx, r, 0);
	c->space_id = st_str(tx, r, 1);
	c->change_request_id = st_str(tx, r, 2);
	c->parent_id = st_str(tx, r, 3);
	c->posted_at = st_int(tx, r, 4);
	c->edited_at = st_int(tx, r, 5);
	c->markdown = st_str(tx, r, 6);
	c->status = st_str(tx, r, 7);
	c->resolved_at = st_int(tx, r, 8);
	c->revision = st_str(tx, r, 9);
	c->target_page = st_str(tx, r, 10);
	c->target_node = st_str(tx, r, 11);
	c->target_preview = st_str(tx, r, 12);
	c->target_table_cell = st_str(tx, r, 13);
	c->replies = st_int(tx, r, 14);
	c->target_review = st_str(tx, r, 25);
	c->reactions = NULL;
	c->nreactions = 0;
	if ((rc = store_fill_user(tx, r, 15, &c->posted_by)))
		return rc;
	return store_fill_user(tx, r, 20, &c->resolved_by);
}

static void comment_key(const void *item, int64_t *key, const char **id)
{
	const struct comment *c = item;

	*key = c->posted_at;
	*id = c->id;
}

/* Add delta to the open-comment count of the place. */
static int count_open(struct store_tx *tx, const struct comment_place *pl, int delta)
{
	int rc;

	if (pl->change_request_id) {
		struct db_param p[] = { P_TEXT(pl->change_request_id), P_INT(delta) };
		return st_exec(tx, "UPDATE change_requests SET comments = comments + $2 WHERE id = $1", p, NP(p), NULL);
	}
	struct db_param p[] = { P_TEXT(pl->space_id), P_INT(delta) };
	if ((rc = st_exec(tx, "UPDATE spaces SET comments = comments + $2 WHERE id = $1", p, NP(p), NULL)))
		return rc;
	return store_org_bump(tx, pl->org_id);
}

/* Add delta to a comment's replies; ERR_NOT_FOUND when the comment went
 * (deleted by a request that committed after this one read it). */
static int count_reply(struct store_tx *tx, const char *parent_id, int delta)
{
	struct db_param p[] = { P_TEXT(parent_id), P_INT(delta) };
	int64_t changes = 0;
	int rc = st_exec(tx, "UPDATE comments SET replies = replies + $2 WHERE id = $1", p, NP(p), &changes);

	return rc || changes ? rc : err_set(ERR_NOT_FOUND, "comment not found");
}

int store_comment_create(struct store_tx *tx, const struct comment_place *pl, struct comment *c)
{
	char id[ID_LEN + 1];
	int rc;

	if (id_new(id))
		return err_set(ERR_INTERNAL, "getrandom failed");
	c->id = arena_strdup(tx->arena, id);
	c->space_id = pl->space_id;
	c->change_request_id = pl->change_request_id;
	c->posted_at = clock_now_ms();
	c->edited_at = 0;
	c->status = "open";
	c->resolved_at = 0;
	memset(&c->resolved_by, 0, sizeof(c->resolved_by));
	c->replies = 0;
	c->reactions = NULL;
	c->nreactions = 0;

	struct db_param p[] = {
		P_TEXT(c->id), P_TEXT(c->space_id), P_TEXT(c->change_request_id), P_TEXT(c->parent_id),
		P_TEXT(c->posted_by.id), P_INT(c->posted_at), P_TEXT(c->markdown), P_TEXT(c->revision),
		P_TEXT(c->target_page), P_TEXT(c->target_node), P_TEXT(c->target_preview), P_TEXT(c->target_table_cell),
	};
	/* A reply counts on its comment first: the comment's row is then locked
	 * before the reply's, the order a DELETE of the comment (cascading to its
	 * replies) takes them in, so the two cannot deadlock on PostgreSQL. */
	if (c->parent_id && (rc = count_reply(tx, c->parent_id, 1)))
		return rc;
	rc = st_exec(tx,
		     "INSERT INTO comments (id, space_id, change_request_id, parent_id, posted_by, posted_at, markdown, "
		     "status, revision, target_page, target_node, target_preview, target_table_cell) "
		     "VALUES ($1, $2, $3, $4, $5, $6, $7, 'open', $8, $9, $10, $11, $12)",
		     p, NP(p), NULL);
	if (rc || c->parent_id)
		return rc;
	return count_open(tx, pl, 1);
}

int store_comment_get(struct store_tx *tx, const struct comment_place *pl, const char *parent_id, const char *id,
		      struct comment *out)
{
	struct db_param p[] = {
		P_TEXT(id), P_TEXT(pl->space_id), P_TEXT(pl->change_request_id ? pl->change_request_id : ""),
		P_TEXT(parent_id ? parent_id : ""),
	};
	int rc = st_one(tx,
			"SELECT " COMMENT_COLS COMMENT_FROM "WHERE c.id = $1 AND c.space_id = $2 AND "
			"COALESCE(c.change_request_id, '') = $3 AND COALESCE(c.parent_id, '') = $4",
			p, NP(p), fill_comment, out);

	if (rc == ERR_NOT_FOUND)
		return err_set(ERR_NOT_FOUND, parent_id ? "comment reply not found" : "comment not found");
	return rc;
}

int store_comment_set_body(struct store_tx *tx, const char *id, const char *markdown)
{
	struct db_param p[] = { P_TEXT(id), P_TEXT(markdown), P_INT(clock_now_ms()) };

	return st_exec(tx, "UPDATE comments SET markdown = $2, edited_at = $3 WHERE id = $1", p, NP(p), NULL);
}

int store_comment_set_resolved(struct store_tx *tx, const struct comment_place *pl, const char *id, bool resolved,
			       const char *user_id, bool *changed)
{
	int64_t changes = 0;
	int rc;

	*changed = false;
	if (resolved) {
		struct db_param p[] = { P_TEXT(id), P_INT(clock_now_ms()), P_TEXT(user_id) };
		rc = st_exec(tx,
			     "UPDATE comments SET status = 'resolved', resolved_at = $2, resolved_by = $3 "
			     "WHERE id = $1 AND parent_id IS NULL AND status = 'open'",
			     p, NP(p), &changes);
	} else {
		struct db_param p[] = { P_TEXT(id) };
		rc = st_exec(tx,
			     "UPDATE comments SET status = 'open', resolved_at = NULL, resolved_by = NULL "
			     "WHERE id = $1 AND parent_id IS NULL AND status = 'resolved'",
			     p, NP(p), &changes);
	}
	if (rc || changes == 0)
		return rc;
	*changed = true;
	return count_open(tx, pl, resolved ? -1 : 1);
}

int store_comment_react(struct store_tx *tx, const char *id, const char *user_id, const char *const *added,
			int nadded, const char *const *removed, int nremoved)
{
	int64_t now = clock_now_ms();
	int rc = 0;

	for (int i = 0; i < nadded && rc == 0; i++) {
		struct db_param p[] = { P_TEXT(id), P_TEXT(added[i]), P_TEXT(user_id), P_INT(now) };
		rc = st_exec(tx,
			     "INSERT INTO comment_reactions (comment_id, emoji, user_id, reacted_at) VALUES ($1, $2, $3, $4) "
			     "ON CONFLICT (comment_id, emoji, user_id) DO NOTHING",
			     p, NP(p), NULL);
	}
	for (int i = 0; i < nremoved && rc == 0; i++) {
		struct db_param p[] = { P_TEXT(id), P_TEXT(removed[i]), P_TEXT(user_id) };
		rc = st_exec(tx, "DELETE FROM comment_reactions WHERE comment_id = $1 AND emoji = $2 AND user_id = $3", p,
			     NP(p), NULL);
	}
	return rc;
}

int store_comment_delete(struct store_tx *tx, const struct comment_place *pl, const char *parent_id, const char *id,
			 bool *removed)
{
	int64_t changes = 0;
	int rc;

	*removed = false;
	if (parent_id) {
		/* The comment's row first (see store_comment_create), then the reply. */
		struct db_param p[] = { P_TEXT(id), P_TEXT(parent_id) };
		rc = count_reply(tx, parent_id, 0);
		if (rc == ERR_NOT_FOUND) /* went with its comment */
			return 0;
		if (rc || (rc = st_exec(tx, "DELETE FROM comments WHERE id = $1 AND parent_id = $2", p, NP(p), &changes)) ||
		    changes == 0)
			return rc;
		*removed = true;
		return count_reply(tx, parent_id, -1);
	}
	/* Replies and reactions go with the comment (ON DELETE CASCADE). An open
	 * comment first, so the count drops exactly when an open one went. */
	struct db_param p[] = {
		P_TEXT(id), P_TEXT(pl->space_id), P_TEXT(pl->change_request_id ? pl->change_request_id : ""),
	};
	rc = st_exec(tx,
		     "DELETE FROM comments WHERE id = $1 AND space_id = $2 AND COALESCE(change_request_id, '') = $3 "
		     "AND parent_id IS NULL AND status = 'open'",
		     p, NP(p), &changes);
	if (rc)
		return rc;
	if (changes > 0) {
		*removed = true;
		return count_open(tx, pl, -1);
	}
	rc = st_exec(tx,
		     "DELETE FROM comments WHERE id = $1 AND space_id = $2 AND COALESCE(change_request_id, '') = $3 "
		     "AND parent_id IS NULL",
		     p, NP(p), &changes);
	*removed = changes > 0;
	return rc;
}

/* ---- reactions ---- */

struct reaction_row {
	const char *comment_id;
	struct comment_reaction rx;
};

static int fill_reaction(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct reaction_row *row = out;

	row->comment_id = st_str(tx, r, 0);
	row->rx.emoji = st_str(tx, r, 1);
	row->rx.reacted_at = st_int(tx, r, 2);
	return store_fill_user(tx, r, 3, &row->rx.user);
}

/* $1 space, $2 change request or parent, $3..$4 posted_at range of the items */
#define REACTIONS(where) \
	"SELECT r.comment_id, r.emoji, r.reacted_at, u.id, u.email, u.display_name, u.photo_url, u.created_at " \
	"FROM comment_reactions r JOIN comments c ON c.id = r.comment_id JOIN users u ON u.id = r.user_id " \
	"WHERE c.space_id = $1 AND " where " AND c.posted_at BETWEEN $3 AND $4 " \
	"ORDER BY r.reacted_at, r.user_id, r.emoji"

static int by_id(const void *a, const void *b)
{
	return strcmp((*(struct comment *const *)a)->id, (*(struct comment *const *)b)->id);
}

int store_comment_reactions(struct store_tx *tx, struct comment *items, int n)
{
	struct reaction_row *rows;
	struct comment **index, key, *keyp = &key;
	int nrows, rc;
	int64_t lo, hi;
	const char *sql, *place;

	if (n <= 0)
		return 0;
	/* The items are of one place; their reactions are those of the place's
	 * comments posted in the items' time range (others are skipped below). */
	lo = hi = items[0].posted_at;
	for (int i = 1; i < n; i++) {
		if (items[i].posted_at < lo)
			lo = items[i].posted_at;
		if (items[i].posted_at > hi)
			hi = items[i].posted_at;
	}
	if (items[0].parent_id) {
		sql = REACTIONS("c.parent_id = $2");
		place = items[0].parent_id;
	} else if (items[0].change_request_id) {
		sql = REACTIONS("c.change_request_id = $2 AND c.parent_id IS NULL");
		place = items[0].change_request_id;
	} else {
		sql = REACTIONS("c.change_request_id IS NULL AND CAST($2 AS TEXT) IS NULL AND c.parent_id IS NULL");
		place = NULL;
	}
	struct db_param p[] = { P_TEXT(items[0].space_id), P_TEXT(place), P_INT(lo), P_INT(hi) };
	if ((rc = st_all(tx, sql, p, NP(p), fill_reaction, sizeof(*rows), (void **)&rows, &nrows)))
		return rc;
	if (nrows == 0)
		return 0;

	index = arena_alloc(tx->arena, sizeof(*index) * (size_t)n);
	for (int i = 0; i < n; i++) {
		items[i].nreactions = 0;
		index[i] = &items[i];
	}
	qsort(index, (size_t)n, sizeof(*index), by_id);
	/* Two passes: count per item, then place each row (in the query's order). */
	struct comment **owner = arena_alloc(tx->arena, sizeof(*owner) * (size_t)nrows);
	for (int i = 0; i < nrows; i++) {
		struct comment **hit;
		key.id = rows[i].comment_id;
		hit = bsearch(&keyp, index, (size_t)n, sizeof(*index), by_id);
		owner[i] = hit ? *hit : NULL;
		if (hit)
			(*hit)->nreactions++;
	}
	for (int i = 0; i < n; i++) {
		struct comment_reaction *arr = NULL;
		if (items[i].nreactions)
			arr = arena_alloc(tx->arena, sizeof(*arr) * (size_t)items[i].nreactions);
		items[i].reactions = arr;
		items[i].nreactions = 0;
	}
	for (int i = 0; i < nrows; i++) {
		struct comment *c = owner[i];
		if (c)
			((struct comment_reaction *)c->reactions)[c->nreactions++] = rows[i].rx;
	}
	return 0;
}

/* ---- lists ---- */

/* $1 space, $2 change request, $3 status, $4 target page, $5 limit, $6/$7 cursor */
#define COMMENTS(place, cmp, dir) \
	"SELECT " COMMENT_COLS COMMENT_FROM "WHERE c.space_id = $1 AND " place " AND c.parent_id IS NULL " \
	"AND (CAST($3 AS TEXT) IS NULL OR c.status = $3) AND (CAST($4 AS TEXT) IS NULL OR c.target_page = $4) " cmp \
	"ORDER BY c.posted_at " dir ", c.id " dir " LIMIT $5"
#define OWN "c.change_request_id IS NULL AND CAST($2 AS TEXT) IS NULL"
#define IN_CR "c.change_request_id = $2"
#define AFTER(a, b) "AND (c.posted_at, c.id) > (" a ", " b ") "
#define BEFORE(a, b) "AND (c.posted_at, c.id) < (" a ", " b ") "

static const char *const own_comments_sql[2][2] = {
	[0][0] = COMMENTS(OWN, "", "ASC"),
	[0][1] = COMMENTS(OWN, AFTER("$6", "$7"), "ASC"),
	[1][0] = COMMENTS(OWN, "", "DESC"),
	[1][1] = COMMENTS(OWN, BEFORE("$6", "$7"), "DESC"),
};

static const char *const cr_comments_sql[2][2] = {
	[0][0] = COMMENTS(IN_CR, "", "ASC"),
	[0][1] = COMMENTS(IN_CR, AFTER("$6", "$7"), "ASC"),
	[1][0] = COMMENTS(IN_CR, "", "DESC"),
	[1][1] = COMMENTS(IN_CR, BEFORE("$6", "$7"), "DESC"),
};

/* The totals: $1..$4 as in COMMENTS. */
#define COMMENTS_COUNT(place) \
	"SELECT COUNT(*) FROM comments c WHERE c.space_id = $1 AND " place " AND c.parent_id IS NULL " \
	"AND (CAST($3 AS TEXT) IS NULL OR c.status = $3) AND (CAST($4 AS TEXT) IS NULL OR c.target_page = $4)"

/* The authors filter: any number of ids, so it runs on the rows (st_list_keep)
 * rather than as a variable-length IN list. */
static enum role keep_author(void *ctx, void *item)
{
	const struct comment_filter *f = ctx;
	const struct comment *c = item;

	for (int i = 0; i < f->nauthors; i++)
		if (strcmp(f->authors[i], c->posted_by.id) == 0)
			return ROLE_READ;
	return ROLE_GUEST;
}

int store_comments_list(struct store_tx *tx, const struct comment_place *pl, const struct comment_filter *f,
			const struct list_req *lr, struct comment **items, int *n, char **next)
{
	struct db_param p[7] = {
		P_TEXT(pl->space_id), P_TEXT(pl->change_request_id), P_TEXT(f->status), P_TEXT(f->target_page),
	};

	const char *const(*sql)[2] = pl->change_request_id ? cr_comments_sql : own_comments_sql;
	int rc = st_list_keep(tx, sql, p, NP(p), 4, lr, fill_comment, sizeof(struct comment), comment_key,
			      f->nauthors ? keep_author : NULL, (void *)f, (void **)items, n, next);

	if (rc)
		return rc;
	/* With authors, the rows of the space's (filtered) comments are read:
	 * one space's comments, never cached (the authors are not in the key). */
	if (f->nauthors)
		return st_total_keep(tx, lr, sql, p, NP(p), 4, fill_comment, sizeof(struct comment), comment_key,
				     keep_author, (void *)f);
	return st_total(tx, lr, pl->change_request_id ? COMMENTS_COUNT(IN_CR) : COMMENTS_COUNT(OWN), p, 4);
}

/* $1 parent, $2 limit, $3/$4 cursor */
#define REPLIES(cmp) \
	"SELECT " COMMENT_COLS COMMENT_FROM "WHERE c.parent_id = $1 " cmp "ORDER BY c.posted_at, c.id LIMIT $2"

int store_replies_list(struct store_tx *tx, const char *parent_id, const struct list_req *lr, struct comment **items,
		       int *n, char **next)
{
	/* One order (oldest first, as a conversation reads). */
	static const char *const sql[2][2] = {
		{ REPLIES(""), REPLIES(AFTER("$3", "$4")) },
		{ REPLIES(""), REPLIES(AFTER("$3", "$4")) },
	};
	struct db_param p[4] = { P_TEXT(parent_id) };

	int rc = st_list_keep(tx, sql, p, NP(p), 1, lr, fill_comment, sizeof(struct comment), comment_key, NULL, NULL,
			      (void **)items, n, next);

	return rc ? rc : st_total(tx, lr, "SELECT COUNT(*) FROM comments c WHERE c.parent_id = $1", p, 1);
}

struct commenter_row {
	struct member member;
	int64_t first; /* the first post's time: the sort key */
};

static int fill_commenter(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct commenter_row *c = out;

	c->first = st_int(tx, r, MEMBER_NCOLS);
	return store_fill_member(tx, r, 0, &c->member);
}

static void commenter_key(const void *item, int64_t *key, const char **id)
{
	const struct commenter_row *c = item;

	*key = c->first;
	*id = c->member.user.id;
}

/* $1 org, $2 space, $3 change request, $4 limit, $5/$6 cursor */
#define COMMENTERS(place, cmp) \
	"SELECT " MEMBER_COLS ", x.first_at FROM (SELECT c.posted_by AS user_id, MIN(c.posted_at) AS first_at " \
	"FROM comments c WHERE c.space_id = $2 AND " place " GROUP BY c.posted_by) x " \
	"JOIN members m ON m.org_id = $1 AND m.user_id = x.user_id JOIN users u ON u.id = m.user_id " cmp \
	"ORDER BY x.first_at, x.user_id LIMIT $4"
#define OWN3 "c.change_request_id IS NULL AND CAST($3 AS TEXT) IS NULL"
#define IN_CR3 "c.change_request_id = $3"
#define FIRST_AFTER "WHERE (x.first_at, x.user_id) > ($5, $6) "

#define COMMENTERS_COUNT(place) \
	"SELECT COUNT(*) FROM (SELECT DISTINCT c.posted_by AS user_id FROM comments c " \
	"WHERE c.space_id = $2 AND " place ") x JOIN members m ON m.org_id = $1 AND m.user_id = x.user_id"

static const char *const own_commenters_sql[2][2] = {
	{ COMMENTERS(OWN3, ""), COMMENTERS(OWN3, FIRST_AFTER) },
	{ COMMENTERS(OWN3, ""), COMMENTERS(OWN3, FIRST_AFTER) },
};

static const char *const cr_commenters_sql[2][2] = {
	{ COMMENTERS(IN_CR3, ""), COMMENTERS(IN_CR3, FIRST_AFTER) },
	{ COMMENTERS(IN_CR3, ""), COMMENTERS(IN_CR3, FIRST_AFTER) },
};

int store_commenters_list(struct store_tx *tx, const struct comment_place *pl, const struct list_req *lr,
			  struct member **items, int *n, char **next)
{
	struct db_param p[6] = { P_TEXT(pl->org_id), P_TEXT(pl->space_id), P_TEXT(pl->change_request_id) };
	struct commenter_row *rows;
	struct member *members;
	int rc = st_list_keep(tx, pl->change_request_id ? cr_commenters_sql : own_commenters_sql, p, NP(p), 3, lr,
			      fill_commenter, sizeof(*rows), commenter_key, NULL, NULL, (void **)&rows, n, next);

	if (rc || (rc = st_total(tx, lr,
				 pl->change_request_id ? COMMENTERS_COUNT(IN_CR3) : COMMENTERS_COUNT(OWN3), p, 3)))
		return rc;
	members = arena_alloc(tx->arena, sizeof(*members) * (size_t)(*n ? *n : 1));
	for (int i = 0; i < *n; i++)
		members[i] = rows[i].member;
	*items = members;
	return 0;
}
