/*
 * revisions.c - revisions, page bodies and file bytes, and the revision cache.
 *
 * A revision row's manifest is a snapshot or a delta against parent_id
 * (model/revision.h). Reading one walks back to the nearest snapshot, or to a
 * revision already in the cache, and applies the deltas newest first: the
 * first entry seen for an id wins, so the walk costs the chain's rows plus one
 * pass over the base, however long the chain. A new revision is a delta until
 * the chain reaches REV_MAX_CHAIN or its deltas weigh as much as a snapshot.
 *
 * The revision cache (struct revcache, owned by the server context) holds
 * built revisions, which are immutable, for every transaction of the stores
 * it is given to. It is bounded in bytes (revision_heap_bytes). A revision
 * has a reference count under the cache's mutex: one for the cache while it
 * is cached, one for each transaction that holds it (struct store_tx.held,
 * one entry per distinct revision, as many as the transaction reads). The
 * cache keeps an index by id (chained hash) and a recency list; to admit a
 * revision it evicts from the least recently used end the revisions nobody
 * else holds (refs == 1) until the new one fits. When it cannot fit (larger
 * than the budget, or the room is held by open transactions) it is served
 * uncached: the transaction's reference is its only one and frees it at the
 * end. So the cache never exceeds its budget and never frees a revision a
 * transaction is using.
 */
#include "model/revision.h"
#include "store/internal.h"
#include "util/alloc.h"
#include "util/base64.h"
#include "util/log.h"
#include "util/util.h"
#include "util/fnv.h"
#include "util/lru.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REV_MAX_CHAIN 256

struct rc_entry {
	struct revision *rv;
	struct rc_entry *hnext;       /* index chain */
	struct lru_node lru;          /* recency; cost: the revision's heap bytes */
};

struct revcache {
	pthread_mutex_t mu;
	struct lru lru;            /* util/lru.h: the budget and the recency */
	struct rc_entry **buckets; /* power of two */
	size_t nbuckets, n;
	int64_t hits, misses, evictions;
};

int revcache_new(struct revcache **out, size_t max_bytes)
{
	struct revcache *c = xcalloc(1, sizeof(*c));

	*out = NULL;
	c->nbuckets = 256;
	c->buckets = xcalloc(c->nbuckets, sizeof(*c->buckets));
	if (pthread_mutex_init(&c->mu, NULL)) {
		free(c->buckets);
		free(c);
		return err_set(ERR_INTERNAL, "cannot create the revision cache's mutex");
	}
	lru_init(&c->lru, max_bytes);
	*out = c;
	return 0;
}

void revcache_free(struct revcache *c)
{
	if (!c)
		return;
	for (struct lru_node *n; (n = lru_oldest(&c->lru));) {
		struct rc_entry *e = LRU_ENTRY(n, struct rc_entry, lru);
		lru_remove(&c->lru, n);
		/* Every transaction has ended: the cache's reference is the last. */
		if (--e->rv->refs == 0)
			revision_free(e->rv);
		free(e);
	}
	pthread_mutex_destroy(&c->mu);
	free(c->buckets);
	free(c);
}

void revcache_stats(struct revcache *c, struct revcache_stats *out)
{
	pthread_mutex_lock(&c->mu);
	*out = (struct revcache_stats){ .bytes = c->lru.bytes, .max_bytes = c->lru.max_bytes, .entries = (int64_t)c->n,
					.hits = c->hits, .misses = c->misses, .evictions = c->evictions };
	pthread_mutex_unlock(&c->mu);
}

static struct rc_entry **rc_slot(struct revcache *c, const char *id)
{
	struct rc_entry **at = &c->buckets[fnv1a_str(id) & (c->nbuckets - 1)];

	while (*at && strcmp((*at)->rv->id, id) != 0)
		at = &(*at)->hnext;
	return at;
}

/* Twice the buckets when the index is full, up to 2^26. */
static void rc_grow(struct revcache *c)
{
	size_t nb = c->nbuckets * 2;
	struct rc_entry **b;

	if (c->n < c->nbuckets || nb > ((size_t)1 << 26))
		return;
	b = xcalloc(nb, sizeof(*b));
	for (size_t i = 0; i < c->nbuckets; i++)
		for (struct rc_entry *e = c->buckets[i], *next; e; e = next) {
			next = e->hnext;
			struct rc_entry **at = &b[fnv1a_str(e->rv->id) & (nb - 1)];
			e->hnext = *at;
			*at = e;
		}
	free(c->buckets);
	c->buckets = b;
	c->nbuckets = nb;
}

/* Drop a cached revision nobody else holds (under the mutex). */
static void rc_evict(struct revcache *c, struct rc_entry *e)
{
	struct rc_entry **at = rc_slot(c, e->rv->id);

	*at = e->hnext;
	lru_remove(&c->lru, &e->lru);
	c->n--;
	c->evictions++;
	if (--e->rv->refs == 0)
		revision_free(e->rv);
	free(e);
}

/* Drop one reference; the revision goes with its last. */
static void rev_unref(struct revcache *c, struct revision *rv)
{
	if (!rv)
		return;
	if (!c) {
		/* Without a cache nobody shares it: the transaction's is the only one. */
		if (--rv->refs == 0)
			revision_free(rv);
		return;
	}
	pthread_mutex_lock(&c->mu);
	if (--rv->refs == 0)
		revision_free(rv);
	pthread_mutex_unlock(&c->mu);
}

/* A +1 reference to a cached revision, or NULL. count: a lookup of the
 * revision asked for (counted as a hit or a miss), not of a base. */
static struct revision *cache_find(struct revcache *c, const char *id, int count)
{
	struct rc_entry *e;
	struct revision *rv = NULL;

	if (!c)
		return NULL;
	pthread_mutex_lock(&c->mu);
	if ((e = *rc_slot(c, id))) {
		rv = e->rv;
		rv->refs++;
		lru_touch(&c->lru, &e->lru);
	}
	if (count) {
		if (rv)
			c->hits++;
		else
			c->misses++;
	}
	pthread_mutex_unlock(&c->mu);
	return rv;
}

/* Cache rv (the caller keeps its own reference) when it fits in the budget,
 * evicting the least recently used revisions no transaction holds. */
static void cache_add(struct revcache *c, struct revision *rv)
{
	size_t bytes, freeable = 0, max;
	struct rc_entry *e, **at;
	struct lru_node *v;

	if (!c || c->lru.max_bytes == 0)
		return;
	max = c->lru.max_bytes;
	bytes = revision_heap_bytes(rv) + sizeof(*e);
	if (bytes > max)
		return;
	e = xcalloc(1, sizeof(*e));
	e->rv = rv;
	pthread_mutex_lock(&c->mu);
	if (*rc_slot(c, rv->id))
		goto uncached; /* another transaction built it first */
	/* First see whether evicting can make room: when the room is held by
	 * open transactions, nothing is evicted for nothing. */
	for (v = lru_oldest(&c->lru); c->lru.bytes - freeable + bytes > max && v; v = lru_newer(&c->lru, v))
		if (LRU_ENTRY(v, struct rc_entry, lru)->rv->refs == 1)
			freeable += v->cost;
	if (c->lru.bytes - freeable + bytes > max)
		goto uncached;
	for (v = lru_oldest(&c->lru); c->lru.bytes + bytes > max;) {
		struct lru_node *next = lru_newer(&c->lru, v);
		struct rc_entry *old = LRU_ENTRY(v, struct rc_entry, lru);
		if (old->rv->refs == 1)
			rc_evict(c, old);
		v = next;
	}
	rc_grow(c);
	at = rc_slot(c, rv->id);
	e->hnext = *at;
	*at = e;
	lru_push(&c->lru, &e->lru, bytes);
	c->n++;
	rv->refs++;
	pthread_mutex_unlock(&c->mu);
	return;
uncached:
	pthread_mutex_unlock(&c->mu);
	free(e);
}

/* The transaction takes rv's reference (already counted); on failure it is
 * dropped. */
static int tx_hold(struct store_tx *tx, struct revision *rv)
{
	if (tx->nheld == tx->held_cap) {
		if (tx->held_cap > INT_MAX / 2) {
			rev_unref(tx->revcache, rv);
			return err_set(ERR_INTERNAL, "too many revisions held");
		}
		int cap = tx->held_cap ? tx->held_cap * 2 : 16;
		tx->held = xrealloc(tx->held, sizeof(*tx->held) * (size_t)cap);
		tx->held_cap = cap;
	}
	tx->held[tx->nheld++] = rv;
	return 0;
}

int store_tx_hold_revision(struct store_tx *tx, struct revision *rv)
{
	return tx_hold(tx, rv);
}

void st_release_revisions(struct store_tx *tx)
{
	struct revcache *c = tx->revcache;

	if (c)
		pthread_mutex_lock(&c->mu);
	for (int i = 0; i < tx->nheld; i++)
		if (--tx->held[i]->refs == 0)
			revision_free(tx->held[i]);
	if (c)
		pthread_mutex_unlock(&c->mu);
	free(tx->held);
	tx->held = NULL;
	tx->nheld = tx->held_cap = 0;
}

/* ---- reading ---- */

struct rev_row {
	const char *id, *space_id, *parent_id, *parents, *type, *merged_from, *created_by, *manifest, *git;
	int64_t created_at, chain, chain_bytes;
};

static int fill_rev_row(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct rev_row *row = out;

	row->id = st_str(tx, r, 0);
	row->space_id = st_str(tx, r, 1);
	row->parent_id = st_str(tx, r, 2);
	row->parents = st_str(tx, r, 3);
	row->type = st_str(tx, r, 4);
	row->merged_from = st_str(tx, r, 5);
	row->created_by = st_str(tx, r, 6);
	row->created_at = st_int(tx, r, 7);
	row->chain = st_int(tx, r, 8);
	row->chain_bytes = st_int(tx, r, 9);
	row->manifest = st_str(tx, r, 10);
	row->git = st_str(tx, r, 11);
	return 0;
}

static int rev_row_get(struct store_tx *tx, const char *id, struct rev_row *out)
{
	struct db_param p[] = { P_TEXT(id) };

	return st_one(tx,
		      "SELECT id, space_id, parent_id, parents, type, merged_from, created_by, created_at, chain, "
		      "chain_bytes, manifest, git FROM revisions WHERE id = $1",
		      p, NP(p), fill_rev_row, out);
}

/* Open-addressing set of ids seen while folding deltas, newest first. */
struct seen {
	const char **keys;
	size_t cap;
};

static void seen_init(struct arena *a, struct seen *s, size_t n)
{
	s->cap = 16;
	while (s->cap < n * 2)
		s->cap *= 2;
	s->keys = arena_alloc(a, sizeof(char *) * s->cap);
	memset(s->keys, 0, sizeof(char *) * s->cap);
}

/* 1 when id was new (and is now in the set). */
static int seen_add(struct seen *s, const char *id)
{
	size_t i = fnv1a_str(id) & (s->cap - 1);

	while (s->keys[i]) {
		if (strcmp(s->keys[i], id) == 0)
			return 0;
		i = (i + 1) & (s->cap - 1);
	}
	s->keys[i] = id;
	return 1;
}

static int seen_has(const struct seen *s, const char *id)
{
	size_t i = fnv1a_str(id) & (s->cap - 1);

	while (s->keys[i]) {
		if (strcmp(s->keys[i], id) == 0)
			return 1;
		i = (i + 1) & (s->cap - 1);
	}
	return 0;
}

/* Build revision `id`: rows[0] is it, rows[k] the parent of rows[k-1]; the last
 * row is a snapshot, or base (a cached revision) is the parent of the last. */
static int fold_chain(struct store_tx *tx, struct arena *a, struct rev_row *rows, int nrows,
		      const struct revision *base, struct revision **out)
{
	struct manifest *m = arena_alloc(a, sizeof(*m) * (size_t)nrows);
	size_t total_p = base ? (size_t)base->npages : 0, total_f = base ? (size_t)base->nfiles : 0;
	struct seen sp, sf;
	struct rev_page *P;
	struct rev_file *F;
	int np = 0, nf = 0, rc;

	for (int k = 0; k < nrows; k++) {
		if ((rc = manifest_parse(a, rows[k].manifest, &m[k])))
			return rc;
		total_p += (size_t)m[k].npages + (size_t)m[k].ndel_pages;
		total_f += (size_t)m[k].nfiles + (size_t)m[k].ndel_files;
	}
	seen_init(a, &sp, total_p);
	seen_init(a, &sf, total_f);
	P = arena_alloc(a, sizeof(*P) * (total_p + 1));
	F = arena_alloc(a, sizeof(*F) * (total_f + 1));
	/* Newest first: an id's first appearance (entry or deletion) decides it. */
	for (int k = 0; k < nrows; k++) {
		for (int i = 0; i < m[k].npages; i++)
			if (seen_add(&sp, m[k].pages[i].id))
				P[np++] = m[k].pages[i];
		for (int i = 0; i < m[k].ndel_pages; i++)
			seen_add(&sp, m[k].del_pages[i]);
		for (int i = 0; i < m[k].nfiles; i++)
			if (seen_add(&sf, m[k].files[i].id))
				F[nf++] = m[k].files[i];
		for (int i = 0; i < m[k].ndel_files; i++)
			seen_add(&sf, m[k].del_files[i]);
	}
	if (base) {
		for (int i = 0; i < base->npages; i++)
			if (!seen_has(&sp, base->pages[i].id))
				P[np++] = base->pages[i];
		for (int i = 0; i < base->nfiles; i++)
			if (!seen_has(&sf, base->files[i].id))
				F[nf++] = base->files[i];
	}
	struct revision_new nr = {
		.space_id = rows[0].space_id, .parent_id = rows[0].parent_id, .parents = rows[0].parents,
		.type = rows[0].type, .merged_from = rows[0].merged_from, .created_by = rows[0].created_by,
		.git = rows[0].git, .pages = P, .npages = np, .files = F, .nfiles = nf,
	};
	*out = revision_build(rows[0].id, &nr, rows[0].created_at);
	(*out)->chain = (int)rows[0].chain;
	(*out)->chain_bytes = rows[0].chain_bytes;
	(void)tx;
	return 0;
}

/* A +1 reference to revision id, from the cache or built from its rows. */
static int rev_load(struct store_tx *tx, const char *id, struct revision **out)
{
	struct arena a;
	struct rev_row *rows = NULL;
	struct revision *base = NULL;
	int nrows = 0, cap = 0, rc = 0;

	if ((*out = cache_find(tx->revcache, id, 1)))
		return 0;
	arena_init(&a);
	for (const char *at = id;;) {
		if (nrows == cap) {
			int ncap = cap ? cap * 2 : 8;
			struct rev_row *nr = arena_alloc(&a, sizeof(*nr) * (size_t)ncap);
			if (nrows)
				memcpy(nr, rows, sizeof(*nr) * (size_t)nrows);
			rows = nr;
			cap = ncap;
		}
		if ((rc = rev_row_get(tx, at, &rows[nrows]))) {
			if (rc == ERR_NOT_FOUND && nrows > 0)
				rc = err_set(ERR_INTERNAL, "revision %s: parent %s is missing", id, at);
			goto out;
		}
		at = rows[nrows++].parent_id;
		if (!at)
			break;
		if ((base = cache_find(tx->revcache, at, 0)))
			break;
		if (nrows > REV_MAX_CHAIN + 1) {
			rc = err_set(ERR_INTERNAL, "revision %s: delta chain too long", id);
			goto out;
		}
	}
	rc = fold_chain(tx, &a, rows, nrows, base, out);
	if (!rc)
		cache_add(tx->revcache, *out);
out:
	rev_unref(tx->revcache, base);
	arena_free(&a);
	return rc;
}

int store_revision_get(struct store_tx *tx, const char *id, const struct revision **out)
{
	struct revision *rv;
	int rc;

	if (!id)
		return err_set(ERR_NOT_FOUND, "no such revision");
	/* One reference per distinct revision and transaction: a list that reads
	 * the same revision for every item holds it once. */
	for (int i = 0; i < tx->nheld; i++)
		if (strcmp(tx->held[i]->id, id) == 0) {
			*out = tx->held[i];
			return 0;
		}
	if ((rc = rev_load(tx, id, &rv)))
		return rc;
	if ((rc = tx_hold(tx, rv)))
		return rc;
	*out = rv;
	return 0;
}

/* ---- writing ---- */

int store_revision_create(struct store_tx *tx, const struct revision_new *nr, const struct revision **out)
{
	char id[ID_LEN + 1];
	const struct revision *parent = NULL;
	struct revision *rv;
	struct jw w;
	int chain = 0, rc;
	int64_t chain_bytes = 0, now = clock_now_ms();

	if (id_new(id))
		return err_set(ERR_INTERNAL, "cannot make an id");
	if (nr->parent_id && (rc = store_revision_get(tx, nr->parent_id, &parent)))
		return rc;
	rv = revision_build(id, nr, now);
	jw_init(&w);
	if (parent && parent->space_id && strcmp(parent->space_id, nr->space_id) == 0 &&
	    parent->chain + 1 < REV_MAX_CHAIN) {
		revision_delta_write(&w, parent, rv);
		chain = parent->chain + 1;
		chain_bytes = parent->chain_bytes + (int64_t)w.len;
		/* Deltas that weigh as much as a snapshot are not worth their reads. */
		if (chain_bytes > (int64_t)rv->npages * 160 + 4096) {
			jw_reset(&w);
			chain = 0;
			chain_bytes = 0;
		}
	}
	if (chain == 0)
		revision_snapshot_write(&w, rv->pages, rv->npages, rv->files, rv->nfiles);
	jw_put(&w, "", 1);
	if (!jw_ok(&w)) {
		jw_free(&w);
		revision_free(rv);
		return err_set(ERR_INTERNAL, "revision manifest too large");
	}
	rv->parent_id = chain ? rv->parent_id : NULL;
	rv->chain = chain;
	rv->chain_bytes = chain_bytes;
	struct db_param p[] = {
		P_TEXT(rv->id), P_TEXT(nr->space_id), P_TEXT(chain ? nr->parent_id : NULL), P_TEXT(rv->parents),
		P_TEXT(rv->type), P_TEXT(nr->merged_from), P_TEXT(nr->created_by), P_INT(now), P_INT(chain),
		P_INT(chain_bytes), P_TEXT(w.buf), P_TEXT(nr->git),
	};
	rc = st_exec(tx,
		     "INSERT INTO revisions (id, space_id, parent_id, parents, type, merged_from, created_by, "
		     "created_at, chain, chain_bytes, manifest, git) "
		     "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
		     p, NP(p), NULL);
	jw_free(&w);
	if (rc) {
		revision_free(rv);
		return rc;
	}
	cache_add(tx->revcache, rv);
	if ((rc = tx_hold(tx, rv)))
		return rc;
	*out = rv;
	return 0;
}

int st_revision_first(struct store_tx *tx, const char *space_id, const char *rev_id, const char *copy_of)
{
	const struct revision *src = NULL;
	struct jw w;
	int rc;

	if (copy_of && (rc = store_revision_get(tx, copy_of, &src)))
		return rc;
	jw_init(&w);
	if (src)
		revision_snapshot_write(&w, src->pages, src->npages, src->files, src->nfiles);
	else
		revision_snapshot_write(&w, NULL, 0, NULL, 0);
	jw_put(&w, "", 1);
	if (!jw_ok(&w)) {
		jw_free(&w);
		return err_set(ERR_INTERNAL, "revision manifest too large");
	}
	struct db_param p[] = { P_TEXT(rev_id), P_TEXT(space_id), P_INT(clock_now_ms()), P_TEXT(w.buf) };
	rc = st_exec(tx,
		     "INSERT INTO revisions (id, space_id, parents, type, created_at, manifest) "
		     "VALUES ($1, $2, '[]', 'edits', $3, $4)",
		     p, NP(p), NULL);
	jw_free(&w);
	return rc;
}

int store_space_set_revision(struct store_tx *tx, const struct space *s, const char *revision_id)
{
	struct db_param p[] = { P_TEXT(s->id), P_TEXT(revision_id), P_INT(clock_now_ms()), P_TEXT(s->revision) };
	int64_t changes = 0;
	/* PostgreSQL re-reads the WHERE on a row a concurrent transaction changed
	 * (READ COMMITTED): a revision moved since s was read matches nothing. */
	int rc = st_exec(tx, "UPDATE spaces SET revision = $2, updated_at = $3 WHERE id = $1 AND revision = $4", p,
			 NP(p), &changes);

	if (rc == 0 && changes == 0)
		return err_set(ERR_CONFLICT, "the space's content changed while this request ran; try again");
	return rc ? rc : store_org_bump(tx, s->org_id);
}

/* ---- page bodies ---- */

static int fill_int0(struct store_tx *tx, struct db_rows *r, void *out)
{
	*(int64_t *)out = st_int(tx, r, 0);
	return 0;
}

/* Make the row of `hash` in table (page_bodies or file_blobs) count as
 * stored now, for the collector (store.h, "garbage"): *have = 1 when it
 * exists and is safe from collection until the transaction ends, 0 when the
 * caller is to insert it. A row stored less than STORE_CONTENT_TOUCH_MS ago
 * is left as it is (no write); an older one gets the current time, and on
 * PostgreSQL that UPDATE locks it, so a concurrent collector's DELETE waits
 * and then finds it young. */
static int content_touch(struct store_tx *tx, const char *const sql[2], const char *hash, int64_t now, int *have)
{
	struct db_param p[] = { P_TEXT(hash), P_INT(now) };
	int64_t at = 0, changes = 0;
	int rc = st_one(tx, sql[0], p, 1, fill_int0, &at);

	*have = 0;
	if (rc == ERR_NOT_FOUND)
		return 0;
	if (rc)
		return rc;
	if (at >= now - STORE_CONTENT_TOUCH_MS) {
		*have = 1;
		return 0;
	}
	/* No row changed: it was collected meanwhile (or made younger by
	 * another writer): the caller's INSERT .. ON CONFLICT DO NOTHING settles it. */
	if ((rc = st_exec(tx, sql[1], p, NP(p), &changes)))
		return rc;
	*have = changes == 1;
	return 0;
}

static const char *const body_touch_sql[2] = {
	"SELECT created_at FROM page_bodies WHERE hash = $1",
	"UPDATE page_bodies SET created_at = $2 WHERE hash = $1 AND created_at < $2",
};
static const char *const blob_touch_sql[2] = {
	"SELECT created_at FROM file_blobs WHERE hash = $1",
	"UPDATE file_blobs SET created_at = $2 WHERE hash = $1 AND created_at < $2",
};

int store_body_insert(struct store_tx *tx, const char *markdown, const char **hash, bool *fresh)
{
	char h[65];
	size_t len = strlen(markdown);
	int64_t changes = 0, now = clock_now_ms();
	int rc, have;

	if (sha256_hex(h, markdown, len))
		return err_set(ERR_INTERNAL, "hash failed");
	*hash = arena_strdup(tx->arena, h);
	*fresh = false;
	if ((rc = content_touch(tx, body_touch_sql, h, now, &have)) || have)
		return rc;
	struct db_param p[] = { P_TEXT(h), P_TEXT(markdown), P_INT(now) };
	rc = st_exec(tx,
		     "INSERT INTO page_bodies (hash, markdown, created_at) VALUES ($1, $2, $3) "
		     "ON CONFLICT (hash) DO NOTHING",
		     p, NP(p), &changes);
	*fresh = rc == 0 && changes != 0;
	return rc;
}

int store_body_links_put(struct store_tx *tx, const char *hash, const struct body_link *links, int n)
{
	int rc = 0;

	for (int i = 0; i < n && rc == 0; i++) {
		struct db_param lp[] = { P_TEXT(hash), P_INT(i), P_TEXT(links[i].target), P_INT(links[i].line) };
		rc = st_exec(tx, "INSERT INTO page_links (body_hash, seq, target, line) VALUES ($1, $2, $3, $4)", lp,
			     NP(lp), NULL);
	}
	return rc;
}

static int fill_text0(struct store_tx *tx, struct db_rows *r, void *out)
{
	*(const char **)out = st_str(tx, r, 0);
	return 0;
}

int store_body_get(struct store_tx *tx, const char *hash, const char **markdown)
{
	struct db_param p[] = { P_TEXT(hash) };

	*markdown = "";
	if (!hash)
		return 0;
	return st_one(tx, "SELECT markdown FROM page_bodies WHERE hash = $1", p, NP(p), fill_text0, markdown);
}

static int fill_link(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct body_link *l = out;

	l->target = st_str(tx, r, 0);
	l->line = (int)st_int(tx, r, 1);
	return 0;
}

int store_body_links(struct store_tx *tx, const char *hash, struct body_link **out, int *n)
{
	struct db_param p[] = { P_TEXT(hash) };

	*out = NULL;
	*n = 0;
	if (!hash)
		return 0;
	return st_all(tx, "SELECT target, line FROM page_links WHERE body_hash = $1 ORDER BY seq", p, NP(p), fill_link,
		      sizeof(struct body_link), (void **)out, n);
}

int store_bodies_linking(struct store_tx *tx, const char *target, const char ***hashes, int *n)
{
	struct db_param p[] = { P_TEXT(target) };

	return st_all(tx, "SELECT DISTINCT body_hash FROM page_links WHERE target = $1", p, NP(p), fill_text0,
		      sizeof(char *), (void **)hashes, n);
}

/* ---- file bytes ---- */

int store_blob_put(struct store_tx *tx, const unsigned char *data, size_t len, const char *content_type,
		   const char **hash)
{
	char h[65];
	char *b64;
	int64_t now = clock_now_ms();
	int rc, have;

	if (sha256_hex(h, data, len))
		return err_set(ERR_INTERNAL, "hash failed");
	*hash = arena_strdup(tx->arena, h);
	if ((rc = content_touch(tx, blob_touch_sql, h, now, &have)) || have)
		return rc;
	b64 = xmalloc(base64_encoded_len(len) + 1);
	base64_encode(b64, data, len);
	/* content_type is the first uploader's and serves nobody: a file's type
	 * is its entry's in the revision (struct rev_file). */
	struct db_param p[] = { P_TEXT(h), P_INT((int64_t)len), P_TEXT(content_type), P_TEXT(b64), P_INT(now) };
	rc = st_exec(tx,
		     "INSERT INTO file_blobs (hash, size, content_type, data, created_at) VALUES ($1, $2, $3, $4, $5) "
		     "ON CONFLICT (hash) DO NOTHING",
		     p, NP(p), NULL);
	free(b64);
	return rc;
}

struct blob_row {
	const char *type, *data;
};

static int fill_blob(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct blob_row *b = out;

	b->type = st_str(tx, r, 0);
	b->data = st_str(tx, r, 1);
	return 0;
}

int store_blob_get(struct store_tx *tx, const char *hash, unsigned char **data, size_t *len,
		   const char **content_type)
{
	struct db_param p[] = { P_TEXT(hash) };
	struct blob_row b;
	int rc = st_one(tx, "SELECT content_type, data FROM file_blobs WHERE hash = $1", p, NP(p), fill_blob, &b);
	size_t n;
	long got;

	if (rc)
		return rc;
	n = strlen(b.data);
	*data = arena_alloc(tx->arena, base64_decoded_max(n) + 1);
	got = base64_decode(*data, b.data, n);
	if (got < 0)
		return err_set(ERR_INTERNAL, "blob %s is corrupt", hash);
	*len = (size_t)got;
	*content_type = b.type;
	return 0;
}

/* ---- garbage ----
 *
 * Mark and sweep. The mark reads every revision's manifest (snapshot or
 * delta: the union of their entries is exactly what the revisions
 * reference) in pages of GC_BATCH rows, and keeps the body and blob hashes
 * in a set; the sweep lists the rows stored before the cutoff that are not
 * in it. A revision written after the mark references only bodies and blobs
 * that its transaction stored (young: content_touch) or that a revision seen
 * by the mark references, so nothing it needs is listed; the DELETE checks
 * the age again, for the rows stored since the listing. */
#define GC_BATCH 256

struct hset {
	const char **keys;
	size_t cap, n;
	struct arena a; /* the keys' text */
};

static void hset_init(struct hset *h)
{
	arena_init(&h->a);
	h->n = 0;
	h->cap = 1024;
	h->keys = xcalloc(h->cap, sizeof(*h->keys));
}

static void hset_free(struct hset *h)
{
	free(h->keys);
	arena_free(&h->a);
}

static int hset_has(const struct hset *h, const char *k)
{
	for (size_t i = fnv1a_str(k) & (h->cap - 1); h->keys[i]; i = (i + 1) & (h->cap - 1))
		if (strcmp(h->keys[i], k) == 0)
			return 1;
	return 0;
}

static void hset_place(const char **keys, size_t cap, const char *k)
{
	size_t i = fnv1a_str(k) & (cap - 1);

	while (keys[i])
		i = (i + 1) & (cap - 1);
	keys[i] = k;
}

static void hset_add(struct hset *h, const char *k)
{
	if (!k || hset_has(h, k))
		return;
	if (2 * (h->n + 1) > h->cap) {
		size_t cap = h->cap * 2;
		const char **keys = xcalloc(cap, sizeof(*keys));
		for (size_t i = 0; i < h->cap; i++)
			if (h->keys[i])
				hset_place(keys, cap, h->keys[i]);
		free(h->keys);
		h->keys = keys;
		h->cap = cap;
	}
	hset_place(h->keys, h->cap, arena_strdup(&h->a, k));
	h->n++;
}

/* Every body and blob hash a revision's manifest names. */
static int gc_mark(struct store_tx *tx, struct hset *bodies, struct hset *blobs)
{
	char after[128] = "";
	int rows;

	do {
		struct db_param p[] = { P_TEXT(after), P_INT(GC_BATCH) };
		struct db_rows *r;
		struct arena scratch;
		int rc = st_query(tx, &r, "SELECT id, manifest FROM revisions WHERE id > $1 ORDER BY id LIMIT $2", p,
				  NP(p));
		if (rc)
			return rc;
		rows = 0;
		arena_init(&scratch);
		while (rc == 0 && (rc = st_next(tx, r)) == 1) {
			const char *id = tx->drv->text(r, 0), *text = tx->drv->text(r, 1);
			struct manifest m;
			rc = 0;
			rows++;
			if (!id || strlen(id) >= sizeof(after)) {
				rc = err_set(ERR_INTERNAL, "revision id too long");
				break;
			}
			snprintf(after, sizeof(after), "%s", id);
			/* A manifest that cannot be read stops the collection: what it
			 * references is unknown. */
			if (!text) {
				rc = err_set(ERR_INTERNAL, "revision %s has no manifest", after);
				break;
			}
			if ((rc = manifest_parse(&scratch, text, &m)))
				break;
			for (int i = 0; i < m.npages; i++)
				hset_add(bodies, m.pages[i].body);
			for (int i = 0; i < m.nfiles; i++)
				hset_add(blobs, m.files[i].blob);
		}
		st_done(tx, r);
		arena_free(&scratch);
		if (rc < 0)
			return rc;
	} while (rows == GC_BATCH);
	return 0;
}

/* Hashes of table's rows stored before cutoff and not in the set. */
static int gc_list(struct store_tx *tx, const char *sql, int64_t cutoff, const struct hset *live, const char ***out,
		   int *n)
{
	char after[80] = "";
	const char **items = NULL;
	int rows, count = 0, cap = 0;

	do {
		struct db_param p[] = { P_INT(cutoff), P_TEXT(after), P_INT(GC_BATCH) };
		struct db_rows *r;
		int rc = st_query(tx, &r, sql, p, NP(p));
		if (rc)
			return rc;
		rows = 0;
		while ((rc = st_next(tx, r)) == 1) {
			const char *h = tx->drv->text(r, 0);
			rc = 0;
			rows++;
			if (!h || strlen(h) >= sizeof(after)) {
				rc = err_set(ERR_INTERNAL, "bad content hash");
				break;
			}
			snprintf(after, sizeof(after), "%s", h);
			if (hset_has(live, h))
				continue;
			if (count == cap) {
				int ncap = cap ? cap * 2 : 64;
				if (ncap <= cap) {
					rc = err_set(ERR_INTERNAL, "too many unused hashes");
					break;
				}
				const char **grown = arena_alloc(tx->arena, sizeof(*grown) * (size_t)ncap);
				if (count)
					memcpy(grown, items, sizeof(*grown) * (size_t)count);
				items = grown;
				cap = ncap;
			}
			items[count++] = arena_strdup(tx->arena, h);
		}
		st_done(tx, r);
		if (rc < 0)
			return rc;
	} while (rows == GC_BATCH);
	*out = items;
	*n = count;
	return 0;
}

int store_garbage_find(struct store_tx *tx, int64_t cutoff, struct store_garbage *out)
{
	struct hset bodies, blobs;
	int rc;

	memset(out, 0, sizeof(*out));
	hset_init(&bodies);
	hset_init(&blobs);
	rc = gc_mark(tx, &bodies, &blobs);
	if (!rc)
		rc = gc_list(tx,
			     "SELECT hash FROM page_bodies WHERE created_at < $1 AND hash > $2 ORDER BY hash LIMIT $3",
			     cutoff, &bodies, &out->bodies, &out->nbodies);
	if (!rc)
		rc = gc_list(tx,
			     "SELECT hash FROM file_blobs WHERE created_at < $1 AND hash > $2 ORDER BY hash LIMIT $3",
			     cutoff, &blobs, &out->blobs, &out->nblobs);
	hset_free(&bodies);
	hset_free(&blobs);
	return rc;
}

int store_garbage_delete(struct store_tx *tx, bool blobs, const char *const *hashes, int n, int64_t cutoff,
			 int64_t *deleted)
{
	/* page_links go with their body (ON DELETE CASCADE). */
	const char *sql = blobs ? "DELETE FROM file_blobs WHERE hash = $1 AND created_at < $2"
				: "DELETE FROM page_bodies WHERE hash = $1 AND created_at < $2";

	*deleted = 0;
	for (int i = 0; i < n; i++) {
		struct db_param p[] = { P_TEXT(hashes[i]), P_INT(cutoff) };
		int64_t changes = 0;
		int rc = st_exec(tx, sql, p, NP(p), &changes);
		if (rc)
			return rc;
		*deleted += changes;
	}
	return 0;
}
