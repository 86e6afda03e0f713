/*
 * totals.c - list totals (store.h, "List totals"): st_total and
 * st_total_keep (store/internal.h), and the count cache in front of them.
 * It left store.c (the pool, transactions and migrations) as a job of its own.
 */
#include "store/internal.h"
#include "util/alloc.h"
#include "util/fnv.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The count cache: list totals of organizations' lists (store.h, "List
 * totals"), direct-mapped, a new key taking its slot over. An entry is
 * (key, generation, total); the key names the statement (its address: one
 * per list and filter shape), its parameters and whose access filtered the
 * rows. It is used only when the generation the caller read in its own
 * transaction equals the entry's, so a total is never older than that
 * transaction's view of the organization. On PostgreSQL (READ COMMITTED) the
 * count's statement may see a write committed after the generation was read:
 * the entry is then filed under the older generation with a newer total, so a
 * total can be newer than the generation it is served for, never older.
 * Bounded: COUNT_SLOTS entries of at most COUNT_KEY_MAX key bytes (longer keys
 * are not cached), ~2 MB. A miss costs one COUNT(*) over the filtered rows
 * (~50 ms for 50,000 spaces on SQLite here) or, for an access-filtered list,
 * a read of every row (~100 ms for 50,000): paid by the first request after
 * each write to the organization, per viewer and filter.
 */
#define COUNT_SLOTS 4096
#define COUNT_KEY_MAX 480

struct count_slot {
	pthread_mutex_t mu;
	int64_t generation; /* 0: empty */
	int64_t total;
	size_t klen;
	char key[COUNT_KEY_MAX];
};

struct count_cache {
	struct count_slot slots[COUNT_SLOTS];
};

struct count_cache *count_cache_new(void)
{
	struct count_cache *c = xcalloc(1, sizeof(*c));

	for (int i = 0; i < COUNT_SLOTS; i++)
		pthread_mutex_init(&c->slots[i].mu, NULL);
	return c;
}

void count_cache_free(struct count_cache *c)
{
	if (!c)
		return;
	for (int i = 0; i < COUNT_SLOTS; i++)
		pthread_mutex_destroy(&c->slots[i].mu);
	free(c);
}

struct count_key {
	char buf[COUNT_KEY_MAX];
	size_t len;
	int ok; /* fits, and the list may be cached (lr->generation > 0) */
};

static void key_add(struct count_key *k, const void *data, size_t n)
{
	if (!k->ok || n > sizeof(k->buf) - k->len) {
		k->ok = 0;
		return;
	}
	memcpy(k->buf + k->len, data, n);
	k->len += n;
}

/* The key of a list's total: the statement's address, the parameters that
 * select rows (skip_from..: the LIMIT and cursor are not part of it) and the
 * viewer. Each part is length-prefixed so no two lists share a key. */
static void count_key_build(struct count_key *k, const struct list_req *lr, const void *stmt,
			    const struct db_param *p, int np, int skip)
{
	k->len = 0;
	k->ok = lr->generation > 0;
	key_add(k, &stmt, sizeof(stmt));
	for (int i = 0; i < np; i++) {
		uint32_t n;

		if (i == skip)
			continue;
		key_add(k, &p[i].type, sizeof(p[i].type));
		if (p[i].type == DB_TEXT) {
			n = (uint32_t)strlen(p[i].s);
			key_add(k, &n, sizeof(n));
			key_add(k, p[i].s, n);
		} else if (p[i].type == DB_INT) {
			key_add(k, &p[i].i, sizeof(p[i].i));
		}
	}
	if (lr->count_who) {
		uint32_t n = (uint32_t)strlen(lr->count_who);
		key_add(k, "w", 1);
		key_add(k, &n, sizeof(n));
		key_add(k, lr->count_who, n);
	}
}

static struct count_slot *count_slot(struct count_cache *c, const struct count_key *k)
{
	return &c->slots[fnv1a(k->buf, k->len) % COUNT_SLOTS];
}

static int count_get(struct store_tx *tx, const struct list_req *lr, const struct count_key *k)
{
	struct count_slot *sl;
	int hit = 0;

	if (!k->ok)
		return 0;
	sl = count_slot(st_count_cache(tx), k);
	pthread_mutex_lock(&sl->mu);
	if (sl->generation == lr->generation && sl->klen == k->len && memcmp(sl->key, k->buf, k->len) == 0) {
		*lr->total = sl->total;
		hit = 1;
	}
	pthread_mutex_unlock(&sl->mu);
	return hit;
}

static void count_put(struct store_tx *tx, const struct list_req *lr, const struct count_key *k)
{
	struct count_slot *sl;

	if (!k->ok)
		return;
	sl = count_slot(st_count_cache(tx), k);
	pthread_mutex_lock(&sl->mu);
	sl->generation = lr->generation;
	sl->total = *lr->total;
	sl->klen = k->len;
	memcpy(sl->key, k->buf, k->len);
	pthread_mutex_unlock(&sl->mu);
}

int st_total(struct store_tx *tx, const struct list_req *lr, const char *count_sql, const struct db_param *p, int np)
{
	struct count_key k;
	struct db_rows *r;
	int rc;

	if (!lr->total)
		return 0;
	count_key_build(&k, lr, count_sql, p, np, -1);
	if (count_get(tx, lr, &k))
		return 0;
	if ((rc = st_query(tx, &r, count_sql, p, np)))
		return rc;
	rc = st_next(tx, r);
	*lr->total = rc == 1 ? st_int(tx, r, 0) : 0;
	st_done(tx, r);
	if (rc < 0)
		return rc;
	count_put(tx, lr, &k);
	return 0;
}

int st_total_keep(struct store_tx *tx, const struct list_req *lr, const char *const sql[2][2], struct db_param *p,
		  int np, int limit_idx, st_row_fn fill, size_t size, st_key_fn key, store_keep_fn keep, void *ctx)
{
	struct arena scratch, *own = tx->arena;
	struct count_key k;
	char *row, last_id[128];
	int64_t total = 0, last_key = 0;
	int cursor = 0, rc = 0;

	if (!lr->total)
		return 0;
	count_key_build(&k, lr, sql, p, np - 2, limit_idx);
	if (count_get(tx, lr, &k))
		return 0;
	/* Rows are read in batches in ascending order, each batch's strings in a
	 * scratch arena freed before the next, so counting a large list costs
	 * its rows' time but not their memory. */
	row = arena_alloc(own, size);
	arena_init(&scratch);
	tx->arena = &scratch;
	p[limit_idx] = P_INT(1000);
	p[np - 2] = P_NULL;
	p[np - 1] = P_NULL;
	for (;;) {
		struct db_rows *r;
		int got = 0;
		const char *id = NULL;

		if ((rc = st_query(tx, &r, sql[0][cursor], p, np)))
			break;
		while ((rc = st_next(tx, r)) == 1) {
			got++;
			memset(row, 0, size);
			if ((rc = fill(tx, r, row)))
				break;
			key(row, &last_key, &id);
			if (!keep || keep(ctx, row) >= ROLE_READ)
				total++;
		}
		st_done(tx, r);
		if (rc < 0 || got < 1000)
			break;
		if (!id || strlen(id) >= sizeof(last_id)) {
			rc = err_set(ERR_INTERNAL, "list total: row id too long");
			break;
		}
		snprintf(last_id, sizeof(last_id), "%s", id);
		arena_free(&scratch);
		arena_init(&scratch);
		p[np - 2] = P_INT(last_key);
		p[np - 1] = P_TEXT(last_id);
		cursor = 1;
	}
	tx->arena = own;
	arena_free(&scratch);
	if (rc < 0)
		return rc;
	*lr->total = total;
	count_put(tx, lr, &k);
	return 0;
}
