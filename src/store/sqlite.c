/*
 * sqlite.c - the SQLite engine behind driver.h.
 *
 * DESIGN
 * One connection per pool slot, opened with WAL, foreign keys and a busy
 * timeout; synchronous=NORMAL, which in WAL mode keeps every committed
 * transaction across a crash of the process (only a power loss can undo the
 * last ones). Statements are prepared once per connection and cached by the
 * address of their SQL text. The SQL uses PostgreSQL's $N placeholders; SQLite
 * reads "$1" as a named parameter, so at prepare time we map each $N to
 * SQLite's own parameter index once, and uncomment the SQLite-only clauses
 * (driver.h, "Engine-only SQL").
 *
 * Invariant: a cached statement is reset before it is handed out again, and at
 * most one db_rows per statement is live (nested queries use other statements).
 */
#include "store/driver.h"
#include "util/alloc.h"
#include "util/err.h"
#include "util/log.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PARAMS 32
#define CACHE_SLOTS 512 /* power of two, > 2x the statements docsd has */

struct db_rows {
	sqlite3_stmt *st;
	struct db_conn *c;
};

struct stmt_entry {
	const char *sql;
	sqlite3_stmt *st;
	unsigned char index[MAX_PARAMS + 1]; /* $N -> sqlite index, 0 = unused */
	struct db_rows rows;
};

struct db_conn {
	sqlite3 *db;
	int last_rc;
	int last_extended;
	int in_tx;
	struct stmt_entry cache[CACHE_SLOTS];
};

static int sq_fail(struct db_conn *c, int rc, const char *what)
{
	c->last_rc = rc & 0xff;
	c->last_extended = sqlite3_extended_errcode(c->db);
	if (c->last_extended == SQLITE_CONSTRAINT_UNIQUE || c->last_extended == SQLITE_CONSTRAINT_PRIMARYKEY)
		return err_set(ERR_CONFLICT, "already exists");
	if (c->last_rc == SQLITE_BUSY)
		return err_set(ERR_UNAVAILABLE, "database is busy");
	return err_set(ERR_INTERNAL, "sqlite %s: %s", what, sqlite3_errmsg(c->db));
}

/* Process-wide SQLite settings, applied once before the library initializes.
 * Memory statistics take a global mutex around every allocation: with one
 * connection per worker thread that mutex was the main point of contention. */
static pthread_once_t sq_once = PTHREAD_ONCE_INIT;

static void sq_configure(void)
{
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	sqlite3_initialize();
}

static int sq_open(struct db_conn **out, const char *path)
{
	static const char pragmas[] =
		"PRAGMA journal_mode=WAL;"
		"PRAGMA synchronous=NORMAL;"
		"PRAGMA foreign_keys=ON;"
		"PRAGMA cache_size=-4000;" /* 4 MB per connection; the OS caches the rest */
		"PRAGMA temp_store=MEMORY;";
	struct db_conn *c = xcalloc(1, sizeof(*c));
	char *msg = NULL;
	int rc;

	pthread_once(&sq_once, sq_configure);
	rc = sqlite3_open_v2(path, &c->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		err_set(ERR_UNAVAILABLE, "cannot open database %s: %s", path, c->db ? sqlite3_errmsg(c->db) : sqlite3_errstr(rc));
		goto fail;
	}
	sqlite3_busy_timeout(c->db, 10000);
	rc = sqlite3_exec(c->db, pragmas, NULL, NULL, &msg);
	if (rc != SQLITE_OK) {
		err_set(ERR_UNAVAILABLE, "cannot configure database: %s", msg ? msg : sqlite3_errstr(rc));
		sqlite3_free(msg);
		goto fail;
	}
	*out = c;
	return 0;
fail:
	sqlite3_close(c->db);
	free(c);
	return err_code();
}

static void sq_close(struct db_conn *c)
{
	if (!c)
		return;
	for (int i = 0; i < CACHE_SLOTS; i++)
		if (c->cache[i].st)
			sqlite3_finalize(c->cache[i].st);
	sqlite3_close(c->db);
	free(c);
}

static int sq_simple(struct db_conn *c, const char *sql)
{
	char *msg = NULL, *own = NULL;
	int rc;

	if (db_sql_for(sql, DB_ENGINE_SQLITE, &own))
		return err_code();
	rc = sqlite3_exec(c->db, own ? own : sql, NULL, NULL, &msg);
	free(own);
	if (rc != SQLITE_OK) {
		sqlite3_free(msg);
		return sq_fail(c, rc, sql);
	}
	return 0;
}

static int sq_begin(struct db_conn *c, int write)
{
	int rc = sq_simple(c, write ? "BEGIN IMMEDIATE" : "BEGIN");

	if (rc == 0)
		c->in_tx = 1;
	return rc;
}

static int sq_commit(struct db_conn *c)
{
	int rc = sq_simple(c, "COMMIT");

	if (rc == 0)
		c->in_tx = 0;
	return rc;
}

static int sq_rollback(struct db_conn *c)
{
	c->in_tx = 0;
	if (sqlite3_get_autocommit(c->db))
		return 0;
	return sq_simple(c, "ROLLBACK");
}

static struct stmt_entry *sq_prepare(struct db_conn *c, const char *sql)
{
	uintptr_t h = ((uintptr_t)sql >> 3) * 0x9E3779B97F4A7C15ull;
	unsigned slot = (unsigned)(h >> 40) & (CACHE_SLOTS - 1);
	struct stmt_entry *e;
	char *own = NULL;
	int rc, n;

	for (int probe = 0; probe < CACHE_SLOTS; probe++, slot = (slot + 1) & (CACHE_SLOTS - 1)) {
		e = &c->cache[slot];
		if (e->sql == sql)
			return e;
		if (!e->sql)
			break;
	}
	if (e->sql) {
		err_set(ERR_INTERNAL, "statement cache full");
		return NULL;
	}
	if (db_sql_for(sql, DB_ENGINE_SQLITE, &own))
		return NULL;
	rc = sqlite3_prepare_v3(c->db, own ? own : sql, -1, SQLITE_PREPARE_PERSISTENT, &e->st, NULL);
	free(own);
	if (rc != SQLITE_OK) {
		sq_fail(c, rc, "prepare");
		e->st = NULL;
		return NULL;
	}
	memset(e->index, 0, sizeof(e->index));
	n = sqlite3_bind_parameter_count(e->st);
	for (int i = 1; i <= n; i++) {
		const char *name = sqlite3_bind_parameter_name(e->st, i);
		long num = name && name[0] == '$' ? strtol(name + 1, NULL, 10) : 0;
		if (num < 1 || num > MAX_PARAMS || i > 255) {
			err_set(ERR_INTERNAL, "sqlite: bad parameter %s in statement", name ? name : "?");
			sqlite3_finalize(e->st);
			e->st = NULL;
			return NULL;
		}
		e->index[num] = (unsigned char)i;
	}
	e->sql = sql;
	e->rows.st = e->st;
	e->rows.c = c;
	return e;
}

static int sq_bind(struct db_conn *c, struct stmt_entry *e, const struct db_param *p, int np)
{
	int rc = SQLITE_OK;

	if (np > MAX_PARAMS)
		return err_set(ERR_INTERNAL, "too many parameters");
	for (int i = 0; i < np && rc == SQLITE_OK; i++) {
		int idx = e->index[i + 1];
		if (!idx)
			continue; /* the statement does not use $i+1 */
		switch (p[i].type) {
		case DB_TEXT:
			rc = sqlite3_bind_text(e->st, idx, p[i].s, -1, SQLITE_STATIC);
			break;
		case DB_INT:
			rc = sqlite3_bind_int64(e->st, idx, p[i].i);
			break;
		default:
			rc = sqlite3_bind_null(e->st, idx);
		}
	}
	if (rc != SQLITE_OK)
		return sq_fail(c, rc, "bind");
	return 0;
}

static int sq_query(struct db_conn *c, struct db_rows **out, const char *sql, const struct db_param *p, int np)
{
	struct stmt_entry *e = sq_prepare(c, sql);
	int rc;

	if (!e)
		return err_code();
	sqlite3_reset(e->st);
	sqlite3_clear_bindings(e->st);
	rc = sq_bind(c, e, p, np);
	if (rc)
		return rc;
	*out = &e->rows;
	return 0;
}

static int sq_next(struct db_rows *r)
{
	int rc = sqlite3_step(r->st);

	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return sq_fail(r->c, rc, "step");
}

static int sq_is_null(struct db_rows *r, int col)
{
	return sqlite3_column_type(r->st, col) == SQLITE_NULL;
}

static const char *sq_text(struct db_rows *r, int col)
{
	return (const char *)sqlite3_column_text(r->st, col);
}

static int64_t sq_integer(struct db_rows *r, int col)
{
	return sqlite3_column_int64(r->st, col);
}

static void sq_done(struct db_rows *r)
{
	sqlite3_reset(r->st);
}

static int sq_exec(struct db_conn *c, const char *sql, const struct db_param *p, int np, int64_t *changes)
{
	struct db_rows *r;
	int rc;

	if (np == 0 && strchr(sql, ';')) {
		rc = sq_simple(c, sql);
	} else {
		rc = sq_query(c, &r, sql, p, np);
		if (rc)
			return rc;
		while ((rc = sq_next(r)) == 1)
			;
		sq_done(r);
	}
	if (rc == 0 && changes)
		*changes = sqlite3_changes64(c->db);
	return rc;
}

static int sq_lock(struct db_conn *c, int64_t key)
{
	(void)c;
	(void)key;
	return 0;
}

static int sq_maintain(struct db_conn *c)
{
	int rc = sqlite3_wal_checkpoint_v2(c->db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);

	/* BUSY: a writer or another checkpoint holds the lock; try again next time. */
	if (rc != SQLITE_OK && rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
		return sq_fail(c, rc, "checkpoint");
	return 0;
}

static int sq_is_unique_violation(struct db_conn *c)
{
	return c->last_extended == SQLITE_CONSTRAINT_UNIQUE || c->last_extended == SQLITE_CONSTRAINT_PRIMARYKEY;
}

const struct db_driver db_sqlite_driver = {
	.name = "sqlite",
	.single_writer = 1,
	.open = sq_open,
	.close = sq_close,
	.begin = sq_begin,
	.commit = sq_commit,
	.rollback = sq_rollback,
	.exec = sq_exec,
	.query = sq_query,
	.next = sq_next,
	.is_null = sq_is_null,
	.text = sq_text,
	.integer = sq_integer,
	.done = sq_done,
	.lock = sq_lock,
	.maintain = sq_maintain,
	.is_unique_violation = sq_is_unique_violation,
};
