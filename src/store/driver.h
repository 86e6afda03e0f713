/*
 * driver.h - the engine interface under the store.
 *
 * DESIGN
 * The store's SQL is written once (the store's domain files), in the dialect SQLite 3.40 and
 * PostgreSQL 15 both accept, with $1-style bound parameters. What differs between
 * the engines is only how a statement is prepared, bound, stepped and how a
 * transaction starts; that is this table of functions, filled by sqlite.c and
 * postgres.c (as libgit2's refdb backends fill git_refdb_backend).
 *
 * Values cross this boundary as text or 64-bit integers. Booleans are stored as
 * integers 0/1 and timestamps as integer milliseconds since the epoch on both
 * engines, so no conversion is ever dialect-specific.
 *
 * Ownership: a db_conn belongs to one thread at a time (the pool hands it out);
 * rows returned by db_query are valid until the next call on the same
 * connection; the caller copies what it keeps (usually into its arena).
 */
#ifndef DOCSD_STORE_DRIVER_H
#define DOCSD_STORE_DRIVER_H

#include <stddef.h>
#include <stdint.h>

enum db_type { DB_NULL = 0, DB_TEXT, DB_INT };

struct db_param {
	enum db_type type;
	const char *s;   /* DB_TEXT: NUL-terminated */
	int64_t i;       /* DB_INT */
};

/* A NULL string binds SQL NULL. */
static inline struct db_param db_text(const char *v)
{
	return (struct db_param){ .type = v ? DB_TEXT : DB_NULL, .s = v };
}

static inline struct db_param db_int(int64_t v)
{
	return (struct db_param){ .type = DB_INT, .i = v };
}

/*
 * Engine-only SQL. A few clauses exist on one engine only (SQLite's WITHOUT
 * ROWID tables, PostgreSQL's row locks). They are written in the shared SQL
 * inside a comment that names the engine; that engine's driver uncomments them
 * whenever it prepares or runs the text (db_sql_for), and the other engine
 * reads a comment. Uncommenting turns the markers into spaces, so the text
 * keeps its length.
 */
#define DB_ENGINE_SQLITE "sqlite"
#define DB_ENGINE_POSTGRES "postgres"
#define DB_SQLITE_ONLY(clause) "/*" DB_ENGINE_SQLITE ":" clause "*/"
#define DB_POSTGRES_ONLY(clause) "/*" DB_ENGINE_POSTGRES ":" clause "*/"

/* The end of a SELECT that reads a row in order to change it (a read-modify-
 * write): on PostgreSQL the row stays locked until the transaction ends, so a
 * concurrent transaction doing the same waits, then reads what this one wrote.
 * NO KEY UPDATE is the lock an UPDATE of non-key columns takes: it does not
 * wait for, nor block, the inserts that reference the row (foreign keys take
 * KEY SHARE). SQLite needs nothing: its writers are serialized (BEGIN
 * IMMEDIATE and the store's writer mutex). LOCK_ROW_OF names the table (its
 * alias) whose row is locked when the SELECT joins others. */
#define DB_LOCK_ROW DB_POSTGRES_ONLY(" FOR NO KEY UPDATE")
#define DB_LOCK_ROW_OF(alias) DB_POSTGRES_ONLY(" FOR NO KEY UPDATE OF " alias)

/* sql as `engine` runs it: *out = a malloc'd copy with that engine's
 * fragments uncommented, or NULL when sql has none (run sql itself). */
int db_sql_for(const char *sql, const char *engine, char **out);

#define P_TEXT(v) db_text(v)
#define P_INT(v) db_int((int64_t)(v))
#define P_BOOL(v) db_int((v) ? 1 : 0)
#define P_NULL ((struct db_param){ .type = DB_NULL })

struct db_conn;

/*
 * A statement in progress. db_query() prepares (from a per-connection cache keyed
 * by the SQL text's address, so SQL must be a string literal or otherwise live for
 * the program's life), binds and runs it; db_next() then yields rows.
 */
struct db_rows;

struct db_driver {
	const char *name; /* "sqlite" or "postgres" */
	/* The engine admits one writer at a time (SQLite). The store then queues
	 * writers on a mutex before they begin: SQLite's own busy handler waits by
	 * sleeping 1, 2, 5 ... 100 ms, which under contention cost 100 ms p99. */
	int single_writer;

	/* Open one connection. `target` is a file path (sqlite) or a conninfo URL. */
	int (*open)(struct db_conn **out, const char *target);
	void (*close)(struct db_conn *c);

	/* write != 0 takes the write lock at once (SQLite BEGIN IMMEDIATE). */
	int (*begin)(struct db_conn *c, int write);
	int (*commit)(struct db_conn *c);
	int (*rollback)(struct db_conn *c);

	/* Run a statement with no result rows wanted (DDL, or DML without RETURNING).
	 * Several ;-separated statements are allowed only when nparams == 0. */
	int (*exec)(struct db_conn *c, const char *sql, const struct db_param *p, int np, int64_t *changes);

	/* Start a query; rows are then read with next(). Always call done(). */
	int (*query)(struct db_conn *c, struct db_rows **out, const char *sql, const struct db_param *p, int np);
	/* 1 = a row is ready, 0 = no more rows, <0 = error */
	int (*next)(struct db_rows *r);
	int (*is_null)(struct db_rows *r, int col);
	const char *(*text)(struct db_rows *r, int col);  /* NULL for SQL NULL */
	int64_t (*integer)(struct db_rows *r, int col);   /* 0 for SQL NULL */
	void (*done)(struct db_rows *r);

	/* Serialize this transaction with every other one taking the same key,
	 * until commit or rollback (invariants spanning rows, such as "an
	 * organization keeps an admin"). SQLite needs nothing: BEGIN IMMEDIATE
	 * already serializes writers. PostgreSQL takes pg_advisory_xact_lock. */
	int (*lock)(struct db_conn *c, int64_t key);

	/* Background upkeep, run every MAINTAIN_INTERVAL_MS by the store's own
	 * thread on its own connection; NULL when the engine needs none. SQLite
	 * copies committed WAL frames into the database here (a PASSIVE
	 * checkpoint), so the writer whose commit crosses the auto-checkpoint
	 * threshold finds little left to copy and requests do not pay for it. */
	int (*maintain)(struct db_conn *c);

	/* 1 if the last error was a unique-constraint violation */
	int (*is_unique_violation)(struct db_conn *c);
};

extern const struct db_driver db_sqlite_driver;
extern const struct db_driver db_postgres_driver;

#endif
