/*
 * store.c - the connection pool, transactions, migrations and shared helpers.
 *
 * The pool hands a connection to one request at a time (store_tx_begin) and
 * takes it back at commit or rollback; a request never holds two. A connection
 * whose engine reported it unusable is closed and reopened on its next lease.
 */
#include "store/internal.h"
#include "store/migrations.h"
#include "util/alloc.h"
#include "util/log.h"
#include "util/util.h"
#include "util/fnv.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAINTAIN_INTERVAL_MS 100

struct store {
	const struct db_driver *drv;
	char *target;
	/* upkeep thread (driver.h maintain), with its own connection */
	pthread_t maint;
	int maint_running;
	pthread_mutex_t maint_mu;
	pthread_cond_t maint_cv;
	int maint_stop;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_mutex_t write_mu; /* held from begin to end of a write tx when drv->single_writer */
	int n;
	int nfree;
	struct db_conn **free;
	struct revcache *revcache; /* not owned (store_set_revision_cache) */
	struct count_cache *counts; /* list totals (st_total: store/totals.c) */
};

const char *store_engine(const struct store *s)
{
	return s->drv->name;
}

void store_set_revision_cache(struct store *s, struct revcache *c)
{
	s->revcache = c;
}

static void *maintain_thread(void *arg)
{
	struct store *s = arg;
	struct db_conn *c = NULL;
	struct timespec until;
	int stop = 0;

	if (s->drv->open(&c, s->target)) {
		log_error("store upkeep disabled: %s", err_message());
		return NULL;
	}
	while (!stop) {
		if (s->drv->maintain(c))
			log_error("store upkeep: %s", err_message());
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += MAINTAIN_INTERVAL_MS * 1000000L;
		until.tv_sec += until.tv_nsec / 1000000000L;
		until.tv_nsec %= 1000000000L;
		pthread_mutex_lock(&s->maint_mu);
		while (!s->maint_stop && pthread_cond_timedwait(&s->maint_cv, &s->maint_mu, &until) == 0)
			;
		stop = s->maint_stop;
		pthread_mutex_unlock(&s->maint_mu);
	}
	s->drv->close(c);
	return NULL;
}

int store_open(struct store **out, const char *sqlite_path, const char *pg_url, int nconn)
{
	struct store *s = xcalloc(1, sizeof(*s));
	int rc;

	if (nconn < 1)
		nconn = 1;
	s->drv = pg_url ? &db_postgres_driver : &db_sqlite_driver;
	s->target = xstrdup(pg_url ? pg_url : sqlite_path);
	s->free = xcalloc((size_t)nconn, sizeof(*s->free));
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
	pthread_mutex_init(&s->write_mu, NULL);
	s->counts = count_cache_new();
	s->n = nconn;
	/* Open the first connection now so a bad target fails at start. */
	rc = s->drv->open(&s->free[0], s->target);
	if (rc)
		goto fail;
	s->nfree = 1;
	for (int i = 1; i < nconn; i++)
		s->free[s->nfree++] = NULL; /* opened lazily */
	rc = store_migrate(s);
	if (rc)
		goto fail;
	pthread_mutex_init(&s->maint_mu, NULL);
	pthread_cond_init(&s->maint_cv, NULL);
	if (s->drv->maintain && pthread_create(&s->maint, NULL, maintain_thread, s) == 0)
		s->maint_running = 1;
	*out = s;
	return 0;
fail:
	store_close(s);
	return rc;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	if (s->maint_running) {
		pthread_mutex_lock(&s->maint_mu);
		s->maint_stop = 1;
		pthread_cond_signal(&s->maint_cv);
		pthread_mutex_unlock(&s->maint_mu);
		pthread_join(s->maint, NULL);
		pthread_mutex_destroy(&s->maint_mu);
		pthread_cond_destroy(&s->maint_cv);
	}
	for (int i = 0; i < s->nfree; i++)
		if (s->free[i])
			s->drv->close(s->free[i]);
	count_cache_free(s->counts);
	free(s->free);
	free(s->target);
	free(s);
}

static int pool_get(struct store *s, struct db_conn **out)
{
	struct db_conn *c;
	int rc = 0;

	pthread_mutex_lock(&s->mu);
	while (s->nfree == 0)
		pthread_cond_wait(&s->cv, &s->mu);
	c = s->free[--s->nfree];
	pthread_mutex_unlock(&s->mu);
	if (!c)
		rc = s->drv->open(&c, s->target);
	if (rc) {
		pthread_mutex_lock(&s->mu);
		s->free[s->nfree++] = NULL;
		pthread_cond_signal(&s->cv);
		pthread_mutex_unlock(&s->mu);
		return rc;
	}
	*out = c;
	return 0;
}

static void pool_put(struct store *s, struct db_conn *c)
{
	pthread_mutex_lock(&s->mu);
	s->free[s->nfree++] = c;
	pthread_cond_signal(&s->cv);
	pthread_mutex_unlock(&s->mu);
}

static void tx_release_writer(struct store_tx *tx)
{
	if (tx->serialized) {
		tx->serialized = 0;
		pthread_mutex_unlock(&tx->store->write_mu);
	}
}

int store_tx_begin(struct store *s, struct store_tx *tx, int write, struct arena *a)
{
	int rc;

	memset(tx, 0, sizeof(*tx));
	tx->store = s;
	tx->drv = s->drv;
	tx->arena = a;
	tx->write = write;
	tx->revcache = s->revcache;
	rc = pool_get(s, &tx->conn);
	if (rc)
		return rc;
	tx->serialized = write && s->drv->single_writer;
	if (tx->serialized)
		pthread_mutex_lock(&s->write_mu);
	rc = s->drv->begin(tx->conn, write);
	if (rc) {
		/* A connection that cannot begin is suspect: replace it. */
		tx_release_writer(tx);
		s->drv->close(tx->conn);
		pool_put(s, NULL);
		tx->conn = NULL;
		return rc;
	}
	tx->open = 1;
	return 0;
}

int store_tx_run(struct store *s, int write, struct arena *a, int (*fn)(struct store_tx *tx, void *arg), void *arg)
{
	struct store_tx tx;
	int rc = store_tx_begin(s, &tx, write, a);

	if (rc)
		return rc;
	rc = fn(&tx, arg);
	if (rc == 0 && write)
		return store_tx_commit(&tx);
	store_tx_rollback(&tx);
	return rc;
}

int store_tx_commit(struct store_tx *tx)
{
	int rc;

	st_release_revisions(tx);
	if (!tx->open)
		return 0;
	rc = tx->drv->commit(tx->conn);
	if (rc) {
		tx->drv->rollback(tx->conn);
	}
	tx_release_writer(tx);
	tx->open = 0;
	pool_put(tx->store, tx->conn);
	tx->conn = NULL;
	return rc;
}

void store_tx_rollback(struct store_tx *tx)
{
	st_release_revisions(tx);
	if (!tx->open)
		return;
	if (tx->drv->rollback(tx->conn)) {
		log_error("rollback failed: %s", err_message());
		tx->drv->close(tx->conn);
		tx->conn = NULL;
	}
	tx_release_writer(tx);
	tx->open = 0;
	pool_put(tx->store, tx->conn);
	tx->conn = NULL;
}

int store_migrate(struct store *s)
{
	struct arena a;
	struct store_tx tx;
	struct db_rows *r;
	int rc;

	arena_init(&a);
	rc = store_tx_begin(s, &tx, 1, &a);
	if (rc)
		goto out;
	rc = st_exec(&tx, "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)", NULL, 0, NULL);
	if (rc)
		goto fail;
	/* Every migration not yet recorded, in the table's order: numbers are
	 * reserved by branches developed side by side, so a database may have
	 * a later number before an earlier one lands (not "all up to the
	 * highest applied"). */
	for (int i = 0; i < migrations_count; i++) {
		struct db_param q[] = { P_INT(migrations[i].version) };
		int64_t have = 0;

		if ((rc = st_query(&tx, &r, "SELECT COUNT(*) FROM schema_migrations WHERE version = $1", q, NP(q))))
			goto fail;
		if ((rc = st_next(&tx, r)) == 1)
			have = st_int(&tx, r, 0);
		st_done(&tx, r);
		if (rc < 0)
			goto fail;
		if (have)
			continue;
		/* The driver uncomments the engine's own clauses (WITHOUT ROWID). */
		rc = st_exec(&tx, migrations[i].sql, NULL, 0, NULL);
		{
			const char *own = s->drv == &db_sqlite_driver ? migrations[i].sqlite_sql : migrations[i].postgres_sql;
			if (rc == 0 && own)
				rc = st_exec(&tx, own, NULL, 0, NULL);
		}
		if (rc == 0) {
			struct db_param p[] = { P_INT(migrations[i].version), P_TEXT(migrations[i].name), P_INT(clock_now_ms()) };
			rc = st_exec(&tx, "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)", p, NP(p), NULL);
		}
		if (rc) {
			log_error("migration %d (%s) failed: %s", migrations[i].version, migrations[i].name, err_message());
			goto fail;
		}
		log_info("applied migration %d (%s)", migrations[i].version, migrations[i].name);
	}
	rc = store_tx_commit(&tx);
	goto out;
fail:
	store_tx_rollback(&tx);
out:
	arena_free(&a);
	return rc;
}

int store_org_lock(struct store_tx *tx, const char *org_id)
{
	uint64_t h = fnv1a_str(org_id); /* a stable key per organization */

	return tx->drv->lock(tx->conn, (int64_t)(h >> 1));
}

/* ---- shared helpers ---- */

const char *st_str(struct store_tx *tx, struct db_rows *r, int col)
{
	return arena_strdup(tx->arena, tx->drv->text(r, col));
}

int st_one(struct store_tx *tx, const char *sql, const struct db_param *p, int np, st_row_fn fill, void *out)
{
	struct db_rows *r;
	int rc = st_query(tx, &r, sql, p, np);

	if (rc)
		return rc;
	rc = st_next(tx, r);
	if (rc == 1)
		rc = fill ? fill(tx, r, out) : 0;
	else if (rc == 0)
		rc = err_set(ERR_NOT_FOUND, "not found");
	st_done(tx, r);
	return rc;
}

int st_list(struct store_tx *tx, const char *sql, const struct db_param *p, int np, int limit,
	    st_row_fn fill, size_t size, void **items, int *n, int *more)
{
	struct db_rows *r;
	char *arr;
	int rc, count = 0;

	*more = 0;
	*n = 0;
	if (limit < 1 || limit > 1000)
		return err_set(ERR_INVALID, "limit: must be between 1 and 1000");
	arr = arena_alloc(tx->arena, size * (size_t)limit);
	rc = st_query(tx, &r, sql, p, np);
	if (rc)
		return rc;
	while ((rc = st_next(tx, r)) == 1) {
		if (count == limit) {
			*more = 1;
			break;
		}
		memset(arr + size * (size_t)count, 0, size);
		rc = fill(tx, r, arr + size * (size_t)count);
		if (rc)
			break;
		count++;
	}
	st_done(tx, r);
	if (rc < 0)
		return rc;
	*items = arr;
	*n = count;
	return 0;
}

int st_all(struct store_tx *tx, const char *sql, const struct db_param *p, int np, st_row_fn fill, size_t size,
	   void **items, int *n)
{
	struct db_rows *r;
	char *arr = NULL;
	int cap = 0, count = 0, rc;

	*items = NULL;
	*n = 0;
	if ((rc = st_query(tx, &r, sql, p, np)))
		return rc;
	while ((rc = st_next(tx, r)) == 1) {
		if (count == cap) {
			int ncap = cap ? cap * 2 : 16;
			char *bigger = arena_alloc(tx->arena, size * (size_t)ncap);
			if (count)
				memcpy(bigger, arr, size * (size_t)count);
			arr = bigger;
			cap = ncap;
		}
		memset(arr + size * (size_t)count, 0, size);
		if ((rc = fill(tx, r, arr + size * (size_t)count)))
			break;
		count++;
	}
	st_done(tx, r);
	if (rc < 0)
		return rc;
	*items = arr;
	*n = count;
	return 0;
}

int st_cursor_int_param(const struct list_req *lr, struct db_param *key, struct db_param *id)
{
	int64_t k;
	int rc;

	if (!lr->after) {
		*key = P_NULL;
		*id = P_NULL;
		return 0;
	}
	rc = cursor_key_int(lr->after, &k);
	if (rc)
		return rc;
	*key = P_INT(k);
	*id = P_TEXT(lr->after->id);
	return 0;
}

int st_list_keep(struct store_tx *tx, const char *const sql[2][2], struct db_param *p, int np, int limit_idx,
		 const struct list_req *lr, st_row_fn fill, size_t size, st_key_fn key, store_keep_fn keep,
		 void *ctx, void **items, int *n, char **next)
{
	int limit = lr->limit, count = 0, more = 0, cursor = lr->after != NULL, rc;
	char *arr, *row;
	int64_t k = 0;
	const char *id = NULL;

	*n = 0;
	*next = NULL;
	if (limit < 1 || limit > 1000)
		return err_set(ERR_INVALID, "limit: must be between 1 and 1000");
	arr = arena_alloc(tx->arena, size * (size_t)limit);
	row = arena_alloc(tx->arena, size);
	if ((rc = st_cursor_int_param(lr, &p[np - 2], &p[np - 1])))
		return rc;
	for (;;) {
		/* Unfiltered: exactly one row more than the page. Filtered: read ahead. */
		int batch = keep ? 2 * (limit - count + 1) : limit + 1, got = 0;
		struct db_rows *r;

		if (keep && batch < 64)
			batch = 64;
		if (batch > 1001)
			batch = 1001;
		p[limit_idx] = P_INT(batch);
		if ((rc = st_query(tx, &r, sql[lr->desc != 0][cursor], p, np)))
			return rc;
		while ((rc = st_next(tx, r)) == 1) {
			got++;
			memset(row, 0, size);
			if ((rc = fill(tx, r, row)))
				break;
			key(row, &k, &id);
			if (keep && keep(ctx, row) < ROLE_READ)
				continue;
			if (count == limit) {
				more = 1;
				break;
			}
			memcpy(arr + size * (size_t)count++, row, size);
		}
		st_done(tx, r);
		if (rc < 0)
			return rc;
		if (more || got < batch)
			break;
		/* Go on after the last row read, kept or not. */
		p[np - 2] = P_INT(k);
		p[np - 1] = P_TEXT(id);
		cursor = 1;
	}
	*items = arr;
	*n = count;
	if (more && count > 0) {
		key(arr + size * (size_t)(count - 1), &k, &id);
		if (!(*next = cursor_encode_int(tx->arena, k, id)))
			return err_set(ERR_INTERNAL, "cannot encode the page cursor");
	}
	return 0;
}

struct count_cache *st_count_cache(struct store_tx *tx)
{
	return tx->store->counts;
}

char *st_like_pattern(struct store_tx *tx, const char *s)
{
	size_t n = strlen(s);
	char *d = arena_alloc(tx->arena, 2 * n + 3), *o = d;

	*o++ = '%';
	for (; *s; s++) {
		if (*s == '%' || *s == '_' || *s == '\\')
			*o++ = '\\';
		*o++ = (char)tolower((unsigned char)*s);
	}
	*o++ = '%';
	*o = '\0';
	return d;
}

static int fill_secret(struct store_tx *tx, struct db_rows *r, void *out)
{
	*(const char **)out = st_str(tx, r, 0);
	return 0;
}

int store_secret_get(struct store_tx *tx, const char *name, const char **out)
{
	static const char sel[] = "SELECT value FROM settings WHERE name = $1";
	struct db_param p[] = { P_TEXT(name), P_NULL };
	char value[65];
	int rc = st_one(tx, sel, p, 1, fill_secret, out);

	if (rc != ERR_NOT_FOUND)
		return rc;
	if (random_alnum(value, 64))
		return err_set(ERR_INTERNAL, "getrandom failed");
	p[1] = P_TEXT(value);
	rc = st_exec(tx, "INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING", p, 2, NULL);
	if (rc)
		return rc;
	return st_one(tx, sel, p, 1, fill_secret, out);
}
