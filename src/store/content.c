/*
 * content.c - what spaces and collections share: the caller's grants, chains of
 * parent collections, and the order of the items under one parent.
 *
 * Positions: the items of one parent (live spaces and collections together)
 * are ordered by (position, id). New and moved items take a position between
 * their neighbours, so a move writes one row; only when two neighbours have no
 * integer left between them are that parent's items renumbered.
 *
 * A position is read from the siblings and written later in the transaction,
 * so computing one takes the organization's lock (store_org_lock) first: on
 * PostgreSQL two creates or moves in one organization then take turns, and
 * the second reads the siblings as the first left them (two items never get
 * one position, a renumbering never races a placement). Callers compute the
 * position before any other write of theirs in the organization.
 */
#include "store/internal.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

#define POSITION_STEP 1024

static int grant_sort(const void *a, const void *b)
{
	return strcmp(((const struct access_grant *)a)->target, ((const struct access_grant *)b)->target);
}

static int fill_access_grant(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct access_grant *g = out;

	g->target = st_str(tx, r, 0);
	g->role = (enum role)st_int(tx, r, 1);
	return 0;
}

int store_access_grants(struct store_tx *tx, const char *org_id, const char *user_id,
			struct access_grant **out, int *n)
{
	struct db_param p[] = { P_TEXT(org_id), P_TEXT(user_id) };
	int rc = st_all(tx,
			"SELECT target_id, MAX(role) FROM grants WHERE org_id = $1 AND (principal_id = $2 OR principal_id IN "
			"(SELECT team_id FROM team_members WHERE org_id = $1 AND user_id = $2)) GROUP BY target_id",
			p, NP(p), fill_access_grant, sizeof(**out), (void **)out, n);

	/* Sorted here, not by SQL: PostgreSQL's collation need not be strcmp's. */
	if (rc == 0 && *n > 1)
		qsort(*out, (size_t)*n, sizeof(**out), grant_sort);
	return rc;
}

int store_collection_chain(struct store_tx *tx, const char *collection_id, struct access_node *out, int *n)
{
	struct db_param p[] = { P_TEXT(collection_id), P_INT(ACCESS_MAX_DEPTH - 1) };
	struct db_rows *r;
	int count = 0, rc;

	*n = 0;
	rc = st_query(tx, &r,
		      "WITH RECURSIVE chain(id, parent_id, level, depth) AS ("
		      "  SELECT id, parent_id, default_level, 0 FROM collections WHERE id = $1"
		      "  UNION ALL SELECT c.id, c.parent_id, c.default_level, chain.depth + 1"
		      "  FROM collections c JOIN chain ON c.id = chain.parent_id WHERE chain.depth < $2) "
		      "SELECT id, level FROM chain ORDER BY depth",
		      p, NP(p));
	if (rc)
		return rc;
	while (count < ACCESS_MAX_DEPTH && (rc = st_next(tx, r)) == 1) {
		out[count].id = st_str(tx, r, 0);
		out[count].level = (int)st_int(tx, r, 1);
		count++;
	}
	st_done(tx, r);
	if (rc < 0)
		return rc;
	*n = count;
	return 0;
}

static int node_sort(const void *a, const void *b)
{
	return strcmp(((const struct collection_node *)a)->id, ((const struct collection_node *)b)->id);
}

static int fill_node(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct collection_node *c = out;

	c->id = st_str(tx, r, 0);
	c->parent_id = st_str(tx, r, 1);
	c->level = (int)st_int(tx, r, 2);
	return 0;
}

int store_collection_nodes(struct store_tx *tx, const char *org_id, struct collection_node **out, int *n)
{
	struct db_param p[] = { P_TEXT(org_id) };
	int rc = st_all(tx, "SELECT id, parent_id, default_level FROM collections WHERE org_id = $1", p, NP(p), fill_node,
			sizeof(**out), (void **)out, n);

	if (rc == 0 && *n > 1)
		qsort(*out, (size_t)*n, sizeof(**out), node_sort);
	return rc;
}

/* The items of one parent. $1 org, $2 parent (NULL: top level). */
#define SIBLINGS(cond) \
	"SELECT id, position, 'c' FROM collections WHERE org_id = $1 AND " cond \
	" UNION ALL SELECT id, position, 's' FROM spaces WHERE org_id = $1 AND " cond " AND deleted_at IS NULL"
#define AT_TOP "parent_id IS NULL AND CAST($2 AS TEXT) IS NULL"
#define IN_PARENT "parent_id = $2"

static const char *const siblings_sql[2] = {
	SIBLINGS(AT_TOP) " ORDER BY 2, 1",
	SIBLINGS(IN_PARENT) " ORDER BY 2, 1",
};
/* One MAX per table, each answered from the end of its (org, parent, position)
 * index; a MAX over the UNION would read every sibling. [in a collection][table] */
static const char *const last_position_sql[2][2] = {
	{ "SELECT MAX(position) FROM collections WHERE org_id = $1 AND parent_id IS NULL",
	  "SELECT MAX(position) FROM spaces WHERE org_id = $1 AND parent_id IS NULL AND deleted_at IS NULL" },
	{ "SELECT MAX(position) FROM collections WHERE org_id = $1 AND parent_id = $2",
	  "SELECT MAX(position) FROM spaces WHERE org_id = $1 AND parent_id = $2 AND deleted_at IS NULL" },
};

static int fill_int(struct store_tx *tx, struct db_rows *r, void *out)
{
	*(int64_t *)out = st_int(tx, r, 0);
	return 0;
}

/* st_position_append, under the organization's lock already taken. */
static int position_append(struct store_tx *tx, const char *org_id, const char *parent_id, int64_t *out)
{
	struct db_param p[] = { P_TEXT(org_id), P_TEXT(parent_id) };
	int64_t last = 0, in_table;
	int rc;

	for (int t = 0; t < 2; t++) {
		in_table = 0;
		rc = st_one(tx, last_position_sql[parent_id != NULL][t], p, parent_id ? 2 : 1, fill_int, &in_table);
		if (rc && rc != ERR_NOT_FOUND)
			return rc;
		if (in_table > last)
			last = in_table;
	}
	*out = last + POSITION_STEP;
	return 0;
}

int st_position_append(struct store_tx *tx, const char *org_id, const char *parent_id, int64_t *out)
{
	int rc = store_org_lock(tx, org_id);

	return rc ? rc : position_append(tx, org_id, parent_id, out);
}

struct sibling {
	const char *id;
	int64_t position;
	char kind;
};

static int fill_sibling(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct sibling *s = out;
	const char *k = tx->drv->text(r, 2);

	s->id = st_str(tx, r, 0);
	s->position = st_int(tx, r, 1);
	s->kind = k ? k[0] : 's';
	return 0;
}

static int load_siblings(struct store_tx *tx, const char *org_id, const char *parent_id, struct sibling **out, int *n)
{
	struct db_param p[] = { P_TEXT(org_id), P_TEXT(parent_id) };

	return st_all(tx, siblings_sql[parent_id != NULL], p, NP(p), fill_sibling, sizeof(**out), (void **)out, n);
}

/* Spread the items of one parent out again, in their current order. */
static int renumber(struct store_tx *tx, struct sibling *sib, int n)
{
	for (int i = 0; i < n; i++) {
		struct db_param p[] = { P_TEXT(sib[i].id), P_INT((int64_t)(i + 1) * POSITION_STEP) };
		int rc = st_exec(tx,
				 sib[i].kind == 'c' ? "UPDATE collections SET position = $2 WHERE id = $1"
						    : "UPDATE spaces SET position = $2 WHERE id = $1",
				 p, NP(p), NULL);
		if (rc)
			return rc;
		sib[i].position = (int64_t)(i + 1) * POSITION_STEP;
	}
	return 0;
}

/* A position next to sib[at]: between it and its neighbour on that side, or a
 * step beyond it when it has none. 1 when the neighbours leave no room. */
static int between(const struct sibling *sib, int n, int at, int after, int64_t *out)
{
	int64_t ref = sib[at].position;

	if (after ? at + 1 >= n : at == 0) {
		*out = after ? ref + POSITION_STEP : ref - POSITION_STEP;
		return 0;
	}
	int64_t other = sib[after ? at + 1 : at - 1].position;
	int64_t lo = after ? ref : other, hi = after ? other : ref;
	if (hi - lo < 2)
		return 1;
	*out = lo + (hi - lo) / 2;
	return 0;
}

int store_position_for(struct store_tx *tx, const char *org_id, const char *parent_id, const char *ref_id,
		       int after, const char *self_id, int64_t *out, int *already)
{
	struct sibling *sib = NULL;
	int n = 0, m = 0, at = -1, self_at = -1, ref_at = -1, rc;

	if (already)
		*already = 0;
	if (self_id && ref_id && strcmp(ref_id, self_id) == 0)
		return err_set(ERR_INVALID, "position: an item cannot be placed relative to itself");
	if ((rc = store_org_lock(tx, org_id)))
		return rc;
	if (!ref_id)
		return position_append(tx, org_id, parent_id, out);
	if ((rc = load_siblings(tx, org_id, parent_id, &sib, &n)))
		return rc;
	/* The item being placed is not its own neighbour. */
	for (int i = 0; i < n; i++) {
		if (self_id && strcmp(sib[i].id, self_id) == 0) {
			self_at = i;
			continue;
		}
		if (strcmp(sib[i].id, ref_id) == 0) {
			at = m;
			ref_at = i;
		}
		sib[m++] = sib[i];
	}
	if (already && self_at >= 0 && ref_at >= 0)
		*already = after ? self_at == ref_at + 1 : self_at == ref_at - 1;
	if (at < 0)
		return err_set(ERR_INVALID, "position: '%s' is not a live space or collection %s", ref_id,
			       parent_id ? "in the target collection" : "at the top level of the organization");
	if (between(sib, m, at, after, out) == 0)
		return 0;
	if ((rc = renumber(tx, sib, m)))
		return rc;
	return between(sib, m, at, after, out) ? err_set(ERR_INTERNAL, "no position after renumbering") : 0;
}
