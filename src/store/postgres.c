/*
 * postgres.c - the PostgreSQL engine under the store (libpq).
 *
 * DESIGN
 * One db_conn wraps one PGconn. Every statement with parameters, and every
 * query, runs as a server-side prepared statement: the first use of a SQL text
 * PQprepare()s it under a name generated per connection ("s1", "s2", ...) and
 * later uses only PQexecPrepared() it (PostgreSQL-only clauses uncommented
 * first: driver.h, "Engine-only SQL"). The cache is keyed by the SQL text's
 * address (driver.h requires SQL to live for the program's life), in an
 * open-addressing table with linear probing kept at most half full, so a
 * lookup is a multiply and a probe or two for the ~200 statements the store has.
 * Parameter types are left to the server (0), all values travel as text, and
 * results come back as text.
 *
 * A query materializes its whole PGresult; a db_rows is allocated per query and
 * owns it until done(). Several row sets can therefore be open at once on one
 * connection (a nested query while iterating), and libpq is never left in the
 * middle of a result when control returns to the caller.
 *
 * Booleans: the store keeps booleans as 0/1 integers, but a PostgreSQL
 * expression such as EXISTS(...) or a = b yields a bool column ('t'/'f') where
 * SQLite yields 1/0. text() and integer() report bool columns as "1"/"0" and 1/0
 * so the same SQL reads the same on both engines.
 *
 * Broken connections: a statement on a dead connection fails with
 * ERR_UNAVAILABLE. The next begin() - or the next statement, provided the last
 * thing the server told us is that no transaction was open - tries PQreset()
 * once. A reset starts a new server session, so the statement cache is emptied
 * (the server forgot those names) and the session settings are applied again.
 * A reset is never attempted inside a transaction: the statements after it
 * would silently run in autocommit, detached from those before.
 *
 * Secrets: libpq quotes the whole URL in some of its syntax errors, so the
 * target is parsed with PQconninfoParse() first and such errors are reported
 * without detail; connection errors are flattened to one line with any
 * occurrence of the password replaced by "***". The target itself is never
 * put in a message.
 */
#include "store/driver.h"
#include "util/alloc.h"
#include "util/err.h"
#include "util/log.h"

#include <libpq-fe.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	STMT_CACHE_MIN = 64,   /* initial slots; a power of two */
	STMT_NAME_MAX = 16,    /* "s" + up to 10 digits + NUL */
	PARAMS_INLINE = 16,    /* parameters formatted on the stack; more go to the heap */
	INT_TEXT_MAX = 24,     /* "-9223372036854775808" + NUL fits */
	PG_MAX_PARAMS = 65535, /* protocol limit (Bind's count is an int16) */
	MSG_MAX = 384,         /* a flattened error line; err.c's buffer is 512 */
};

/* pg_type.oid of bool: fixed in the catalog (pg_type.dat), not exported by libpq-fe.h. */
#define PG_BOOL_OID ((Oid)16)

#define SQLSTATE_UNIQUE_VIOLATION "23505"

/* Session settings applied on open and again after every PQreset(). UTF8 so text
 * reaches the caller in the encoding SQLite stores, whatever the database's. */
static const char session_sql[] =
	"SET client_min_messages = warning; SET client_encoding = 'UTF8'";

struct stmt_slot {
	const char *sql; /* NULL: empty slot */
	unsigned id;     /* the statement is named "s<id>" on the server */
	int nparams;     /* parameters the statement uses ($1..$nparams) */
};

struct db_conn {
	PGconn *pg;
	/* Prepared-statement cache. Invariant: every entry names a statement that
	 * exists in the current server session, used * 2 <= cap, and cap is 0 or a
	 * power of two. Entries are never removed singly, only all at once on reset. */
	struct stmt_slot *slots;
	size_t cap;
	size_t used;
	/* Statement names are never reused on a connection, so a name can't clash
	 * with one prepared by an attempt whose outcome we never learnt. */
	unsigned next_id;
	/* The last transaction status the server reported: 1 = no transaction open.
	 * Kept because PQtransactionStatus() says only "unknown" once the
	 * connection is gone, and we need to know whether a reset could lose work. */
	int idle;
	int unique; /* the last failure was SQLSTATE 23505 */
};

struct db_rows {
	PGresult *res;
	int row; /* current row; -1 before the first next(), nrows after the last */
	int nrows;
	int ncols;
};

static void pg_close(struct db_conn *c);

/* --- messages ------------------------------------------------------------ */

/* Copy src to dst as a single line with runs of whitespace collapsed (libpq
 * messages end in '\n' and may span several lines, one per host tried),
 * replacing each occurrence of either secret (NULL or "" for none) with "***".
 * Both secrets are matched in the same pass over the full message, the longer
 * first, so neither truncation nor one secret being a prefix of the other can
 * let part of one through. Always NUL-terminates. */
static void copy_line(char *dst, size_t n, const char *src, const char *secret1, const char *secret2)
{
	const char *sec[2] = { secret1 ? secret1 : "", secret2 ? secret2 : "" };
	size_t len[2] = { strlen(sec[0]), strlen(sec[1]) };
	size_t o = 0;

	if (len[1] > len[0]) {
		const char *t = sec[0];
		size_t tl = len[0];

		sec[0] = sec[1], len[0] = len[1];
		sec[1] = t, len[1] = tl;
	}
	if (!src)
		src = "";
	while (*src && o + 1 < n) {
		int hit = -1;

		for (int k = 0; k < 2 && hit < 0; k++)
			if (len[k] && strncmp(src, sec[k], len[k]) == 0)
				hit = k;
		if (hit >= 0) {
			for (const char *m = "***"; *m && o + 1 < n; m++)
				dst[o++] = *m;
			src += len[hit];
			continue;
		}
		if (*src == '\n' || *src == '\r' || *src == '\t' || *src == ' ') {
			if (o > 0 && dst[o - 1] != ' ')
				dst[o++] = ' ';
		} else {
			dst[o++] = *src;
		}
		src++;
	}
	while (o > 0 && dst[o - 1] == ' ')
		o--;
	dst[o] = '\0';
	if (o == 0)
		snprintf(dst, n, "unknown error");
}

/* PQerrorMessage() of a connection that failed to (re)connect, scrubbed of
 * both the password we were given and the one libpq settled on (PGPASSWORD,
 * ~/.pgpass). */
static void connect_message(char *dst, size_t n, PGconn *pg, const char *password)
{
	if (!pg) {
		snprintf(dst, n, "out of memory");
		return;
	}
	copy_line(dst, n, PQerrorMessage(pg), password, PQpass(pg));
}

/* A failure that did not come from the server. It is still "the last error". */
static int local_fail(struct db_conn *c, int code, const char *msg)
{
	c->unique = 0;
	return err_set(code, "postgres: %s", msg);
}

/* A failed command: res may be NULL (libpq ran out of memory or lost the
 * connection before producing a result). */
static int server_fail(struct db_conn *c, const PGresult *res)
{
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	const char *msg = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
	char line[MSG_MAX];
	int code;

	c->unique = state && strcmp(state, SQLSTATE_UNIQUE_VIOLATION) == 0;
	if (c->unique)
		return err_set(ERR_CONFLICT, "already exists");
	/* Client-side errors carry no fields, only the whole message. */
	if (!msg && res)
		msg = PQresultErrorMessage(res);
	if (!msg || !*msg)
		msg = PQerrorMessage(c->pg);
	copy_line(line, sizeof(line), msg, NULL, NULL);
	code = PQstatus(c->pg) == CONNECTION_BAD ? ERR_UNAVAILABLE : ERR_INTERNAL;
	if (state)
		return err_set(code, "postgres: %s (SQLSTATE %s)", line, state);
	return err_set(code, "postgres: %s", line);
}

/* --- results ------------------------------------------------------------- */

/* Leave COPY mode so the connection stays usable; the store never uses COPY. */
static void abandon_copy(PGconn *pg, ExecStatusType st)
{
	PGresult *r;
	char *buf;

	if (st == PGRES_COPY_IN || st == PGRES_COPY_BOTH)
		(void)PQputCopyEnd(pg, "COPY is not supported by docsd");
	else
		while (PQgetCopyData(pg, &buf, 0) > 0)
			PQfreemem(buf);
	while ((r = PQgetResult(pg)) != NULL)
		PQclear(r);
}

/* Record the server's transaction status after a round trip (see db_conn.idle). */
static void track(struct db_conn *c)
{
	if (PQstatus(c->pg) == CONNECTION_OK)
		c->idle = PQtransactionStatus(c->pg) == PQTRANS_IDLE;
}

/* 0 if res is a successful command or query result. Does not free res. */
static int check(struct db_conn *c, PGresult *res)
{
	ExecStatusType st;

	if (!res)
		return server_fail(c, NULL);
	st = PQresultStatus(res);
	switch (st) {
	case PGRES_COMMAND_OK:
	case PGRES_TUPLES_OK:
	case PGRES_EMPTY_QUERY: /* an empty migration, or one of only comments */
		return 0;
	case PGRES_COPY_IN:
	case PGRES_COPY_OUT:
	case PGRES_COPY_BOTH:
		abandon_copy(c->pg, st);
		return local_fail(c, ERR_INTERNAL, "COPY is not supported");
	default:
		return server_fail(c, res);
	}
}

/* PQexec() a parameterless command (possibly several), result discarded. */
static int simple(struct db_conn *c, const char *sql)
{
	PGresult *res = PQexec(c->pg, sql);
	int rc;

	track(c);
	rc = check(c, res);
	PQclear(res);
	return rc;
}

/* --- connection ---------------------------------------------------------- */

static int session_setup(struct db_conn *c)
{
	return simple(c, session_sql);
}

/* Make sure c->pg is usable, resetting it once if allowed (see DESIGN). */
static int ready(struct db_conn *c, int may_reset)
{
	char msg[MSG_MAX];

	if (PQstatus(c->pg) == CONNECTION_OK)
		return 0;
	if (!may_reset)
		return local_fail(c, ERR_UNAVAILABLE, "connection lost inside a transaction");
	PQreset(c->pg);
	/* Whether or not the reset worked, the old session and its prepared
	 * statements are gone. Keep the table's memory; empty it. */
	if (c->slots)
		memset(c->slots, 0, c->cap * sizeof(*c->slots));
	c->used = 0;
	c->idle = 1;
	if (PQstatus(c->pg) != CONNECTION_OK) {
		connect_message(msg, sizeof(msg), c->pg, NULL);
		c->unique = 0;
		return err_set(ERR_UNAVAILABLE, "postgres: reconnect failed: %s", msg);
	}
	return session_setup(c);
}

/* Server notices (warnings) go to docsd's log rather than raw to stderr. */
static void pg_notice(void *arg, const char *message)
{
	char line[512];
	size_t n;

	(void)arg;
	snprintf(line, sizeof(line), "%s", message ? message : "");
	n = strlen(line);
	while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == ' '))
		line[--n] = '\0';
	log_error("postgres: %s", line);
}

static int pg_open(struct db_conn **out, const char *target)
{
	struct db_conn *c = NULL;
	PQconninfoOption *opts = NULL;
	char *perr = NULL;
	const char *password = NULL;
	char msg[MSG_MAX];
	int rc = 0;

	*out = NULL;
	if (!target)
		return err_set(ERR_INTERNAL, "postgres: no connection URL");
	/* libpq's URL syntax errors quote the URL, password included: show none. */
	opts = PQconninfoParse(target, &perr);
	if (!opts) {
		rc = err_set(ERR_INTERNAL, "postgres: %s",
			perr ? "invalid connection URL (expected postgres://user:password@host:port/dbname)"
			     : "out of memory");
		goto cleanup;
	}
	for (const PQconninfoOption *o = opts; o->keyword; o++)
		if (strcmp(o->keyword, "password") == 0 && o->val && *o->val)
			password = o->val;

	c = xcalloc(1, sizeof(*c));
	c->idle = 1;
	c->pg = PQconnectdb(target);
	if (!c->pg) {
		rc = err_set(ERR_INTERNAL, "postgres: out of memory");
		goto cleanup;
	}
	if (PQstatus(c->pg) != CONNECTION_OK) {
		connect_message(msg, sizeof(msg), c->pg, password);
		rc = err_set(ERR_UNAVAILABLE, "postgres: cannot connect: %s", msg);
		goto cleanup;
	}
	PQsetNoticeProcessor(c->pg, pg_notice, NULL);
	if ((rc = session_setup(c)) != 0)
		goto cleanup;
	*out = c;
	c = NULL;
cleanup:
	pg_close(c);
	PQconninfoFree(opts);
	PQfreemem(perr);
	return rc;
}

static void pg_close(struct db_conn *c)
{
	if (!c)
		return;
	/* Ending the session drops its prepared statements on the server. */
	PQfinish(c->pg);
	free(c->slots);
	free(c);
}

/* --- prepared-statement cache -------------------------------------------- */

static size_t slot_hash(const char *sql)
{
	/* Fibonacci hashing: the multiply spreads the pointer's bits (whose low
	 * ones are mostly alignment) into the high half, which we keep. */
	uint64_t h = (uint64_t)(uintptr_t)sql * UINT64_C(0x9E3779B97F4A7C15);

	return (size_t)(h >> 32);
}

/* The slot holding sql, or the empty slot where it belongs. Terminates because
 * the table is never more than half full. Requires cap > 0. */
static struct stmt_slot *cache_find(struct db_conn *c, const char *sql)
{
	size_t mask = c->cap - 1;
	size_t i = slot_hash(sql) & mask;

	while (c->slots[i].sql && c->slots[i].sql != sql)
		i = (i + 1) & mask;
	return &c->slots[i];
}

/* Ensure one more entry fits while keeping used * 2 <= cap. */
static int cache_reserve(struct db_conn *c)
{
	struct stmt_slot *old = c->slots;
	size_t ocap = c->cap;
	size_t ncap;
	struct stmt_slot *ns;

	if (c->cap && (c->used + 1) * 2 <= c->cap)
		return 0;
	ncap = c->cap ? c->cap * 2 : STMT_CACHE_MIN;
	ns = xcalloc(ncap, sizeof(*ns));
	c->slots = ns;
	c->cap = ncap;
	for (size_t i = 0; i < ocap; i++)
		if (old[i].sql)
			*cache_find(c, old[i].sql) = old[i];
	free(old);
	return 0;
}

static void stmt_name(char name[STMT_NAME_MAX], unsigned id)
{
	snprintf(name, STMT_NAME_MAX, "s%u", id);
}

/* Fill `name` with the server-side name of sql, preparing it on first use. */
static int prepare(struct db_conn *c, const char *sql, char name[STMT_NAME_MAX], int *nparams)
{
	struct stmt_slot *s;
	PGresult *res = NULL, *desc = NULL;
	char *own = NULL;
	unsigned id;
	int rc, np;

	if (c->cap) {
		s = cache_find(c, sql);
		if (s->sql) {
			stmt_name(name, s->id);
			*nparams = s->nparams;
			return 0;
		}
	}
	/* Make room first, so that a statement the server accepted is always
	 * recorded. */
	if ((rc = cache_reserve(c)) != 0)
		return rc;
	if ((rc = db_sql_for(sql, DB_ENGINE_POSTGRES, &own)) != 0) {
		c->unique = 0;
		return rc;
	}
	id = ++c->next_id;
	stmt_name(name, id);
	/* A protocol-level prepared statement belongs to the session, not to the
	 * transaction: a later ROLLBACK does not drop it, so caching it is safe. */
	res = PQprepare(c->pg, name, own ? own : sql, 0, NULL);
	free(own);
	track(c);
	if ((rc = check(c, res)) != 0)
		goto cleanup;
	/* Callers may pass more parameters than a statement uses (list variants
	 * share one parameter array; the first page does not use the cursor's), and
	 * PostgreSQL refuses a bind with extra values: remember the count. */
	desc = PQdescribePrepared(c->pg, name);
	track(c);
	if ((rc = check(c, desc)) != 0)
		goto cleanup;
	np = PQnparams(desc);
	s = cache_find(c, sql);
	s->sql = sql;
	s->id = id;
	s->nparams = np;
	*nparams = np;
	c->used++;
cleanup:
	PQclear(desc);
	PQclear(res);
	return rc;
}

/* --- parameters ---------------------------------------------------------- */

struct params {
	const char **v; /* PQexecPrepared's paramValues; NULL entries are SQL NULL */
	char (*num)[INT_TEXT_MAX];
	void *heap; /* v and num when np > PARAMS_INLINE, else NULL */
	const char *inline_v[PARAMS_INLINE];
	char inline_num[PARAMS_INLINE][INT_TEXT_MAX];
};

/* Render p as text. On success the caller frees pb->heap. */
static int params_build(struct db_conn *c, struct params *pb, const struct db_param *p, int np)
{
	pb->v = NULL;
	pb->heap = NULL;
	if (np < 0 || np > PG_MAX_PARAMS || (np > 0 && !p))
		return local_fail(c, ERR_INTERNAL, "bad parameter count");
	if (np <= PARAMS_INLINE) {
		pb->v = pb->inline_v;
		pb->num = pb->inline_num;
	} else {
		/* One block: the pointer array, then the digit buffers (whose
		 * alignment, 1, any offset satisfies). np is bounded above, so the
		 * size cannot overflow. */
		pb->heap = xmalloc((size_t)np * (sizeof(*pb->v) + sizeof(*pb->num)));
		pb->v = pb->heap;
		pb->num = (char (*)[INT_TEXT_MAX])(pb->v + np);
	}
	for (int i = 0; i < np; i++) {
		switch (p[i].type) {
		case DB_NULL:
			pb->v[i] = NULL;
			break;
		case DB_TEXT:
			pb->v[i] = p[i].s; /* P_TEXT(NULL) is already DB_NULL; NULL s means NULL too */
			break;
		case DB_INT:
			snprintf(pb->num[i], INT_TEXT_MAX, "%" PRId64, p[i].i);
			pb->v[i] = pb->num[i];
			break;
		default:
			free(pb->heap);
			pb->heap = NULL;
			return local_fail(c, ERR_INTERNAL, "bad parameter type");
		}
	}
	return 0;
}

/* --- statements ---------------------------------------------------------- */

/* Prepare (or reuse), bind and execute sql; on success *out owns the result. */
static int run(struct db_conn *c, const char *sql, const struct db_param *p, int np, PGresult **out)
{
	struct params pb;
	char name[STMT_NAME_MAX];
	PGresult *res = NULL;
	int rc, nparams = 0;

	*out = NULL;
	if (!sql)
		return local_fail(c, ERR_INTERNAL, "no SQL");
	if ((rc = ready(c, c->idle)) != 0)
		return rc;
	if ((rc = params_build(c, &pb, p, np)) != 0)
		return rc;
	if ((rc = prepare(c, sql, name, &nparams)) != 0)
		goto cleanup;
	if (nparams > np) {
		rc = local_fail(c, ERR_INTERNAL, "statement needs more parameters than given");
		goto cleanup;
	}
	res = PQexecPrepared(c->pg, name, nparams, pb.v, NULL, NULL, 0);
	track(c);
	if ((rc = check(c, res)) != 0)
		goto cleanup;
	*out = res;
	res = NULL;
cleanup:
	PQclear(res);
	free(pb.heap);
	return rc;
}

static int pg_exec(struct db_conn *c, const char *sql, const struct db_param *p, int np, int64_t *changes)
{
	PGresult *res = NULL;
	char *own = NULL;
	int rc;

	if (changes)
		*changes = 0;
	if (np == 0) {
		/* The simple-query protocol: several statements allowed, run as one
		 * implicit transaction unless they contain their own BEGIN/COMMIT. */
		if (!sql)
			return local_fail(c, ERR_INTERNAL, "no SQL");
		if ((rc = ready(c, c->idle)) != 0)
			return rc;
		if ((rc = db_sql_for(sql, DB_ENGINE_POSTGRES, &own)) != 0) {
			c->unique = 0;
			return rc;
		}
		res = PQexec(c->pg, own ? own : sql);
		free(own);
		track(c);
		if ((rc = check(c, res)) != 0)
			goto cleanup;
	} else if ((rc = run(c, sql, p, np, &res)) != 0) {
		goto cleanup;
	}
	/* "" for commands that report no count; the last statement's count. */
	if (changes)
		*changes = strtoll(PQcmdTuples(res), NULL, 10);
cleanup:
	PQclear(res);
	return rc;
}

static int pg_query(struct db_conn *c, struct db_rows **out, const char *sql, const struct db_param *p, int np)
{
	struct db_rows *r;
	PGresult *res = NULL;
	int rc;

	*out = NULL;
	r = xmalloc(sizeof(*r));
	if ((rc = run(c, sql, p, np, &res)) != 0)
		goto cleanup;
	r->res = res;
	r->row = -1;
	r->nrows = PQntuples(res);
	r->ncols = PQnfields(res);
	*out = r;
	r = NULL;
cleanup:
	free(r);
	return rc;
}

/* --- rows ---------------------------------------------------------------- */

static int pg_next(struct db_rows *r)
{
	if (!r)
		return err_set(ERR_INTERNAL, "postgres: next() without a query");
	if (r->row < r->nrows)
		r->row++;
	return r->row < r->nrows;
}

/* Is (current row, col) a cell? Out-of-range access reads as NULL rather than
 * reaching libpq, which would complain through the notice processor. */
static int cell_ok(const struct db_rows *r, int col)
{
	return r && r->row >= 0 && r->row < r->nrows && col >= 0 && col < r->ncols;
}

static int pg_is_null(struct db_rows *r, int col)
{
	return !cell_ok(r, col) || PQgetisnull(r->res, r->row, col);
}

static const char *pg_text(struct db_rows *r, int col)
{
	const char *v;

	if (pg_is_null(r, col))
		return NULL;
	v = PQgetvalue(r->res, r->row, col);
	if (PQftype(r->res, col) == PG_BOOL_OID)
		return v[0] == 't' ? "1" : "0";
	return v;
}

static int64_t pg_integer(struct db_rows *r, int col)
{
	const char *v = pg_text(r, col);

	/* Like SQLite's column_int64 on text: leading digits, 0 if none. */
	return v ? (int64_t)strtoll(v, NULL, 10) : 0;
}

static void pg_done(struct db_rows *r)
{
	if (!r)
		return;
	PQclear(r->res);
	free(r);
}

/* --- transactions -------------------------------------------------------- */

static int pg_begin(struct db_conn *c, int write)
{
	int rc;

	/* `write` is ignored: PostgreSQL locks rows as statements write them and
	 * has no database-wide write lock like SQLite's BEGIN IMMEDIATE. So under
	 * READ COMMITTED a read followed by a dependent write is NOT serialized
	 * against other connections the way it is on SQLite. */
	(void)write;
	if ((rc = ready(c, 1)) != 0)
		return rc;
	return simple(c, "BEGIN");
}

static int pg_commit(struct db_conn *c)
{
	PGresult *res = PQexec(c->pg, "COMMIT");
	int rc;

	track(c);
	/* Whatever happened, no transaction is open any more: a failed COMMIT
	 * rolls back, and a lost connection takes the transaction with it. */
	if (PQstatus(c->pg) != CONNECTION_OK)
		c->idle = 1;
	if ((rc = check(c, res)) != 0)
		goto cleanup;
	/* COMMIT of a transaction an earlier error aborted "succeeds" with the
	 * tag ROLLBACK. The caller must not believe its writes were kept. The
	 * unique flag is left alone: it still describes that earlier error. */
	if (strcmp(PQcmdStatus(res), "ROLLBACK") == 0)
		rc = err_set(ERR_INTERNAL, "postgres: transaction rolled back: an earlier statement in it failed");
cleanup:
	PQclear(res);
	return rc;
}

static int pg_rollback(struct db_conn *c)
{
	/* The server discards an open transaction when the session ends, so on a
	 * dead connection the rollback has already happened. */
	if (PQstatus(c->pg) != CONNECTION_OK) {
		c->idle = 1;
		return 0;
	}
	return simple(c, "ROLLBACK");
}

/* Transaction-scoped advisory lock: released by COMMIT or ROLLBACK. */
static int pg_lock(struct db_conn *c, int64_t key)
{
	static const char sql[] = "SELECT pg_advisory_xact_lock(CAST($1 AS BIGINT))";
	struct db_param p = db_int(key);
	PGresult *res = NULL;
	int rc = run(c, sql, &p, 1, &res);

	PQclear(res);
	return rc;
}

static int pg_is_unique_violation(struct db_conn *c)
{
	return c->unique;
}

const struct db_driver db_postgres_driver = {
	.name = "postgres",
	.open = pg_open,
	.close = pg_close,
	.begin = pg_begin,
	.commit = pg_commit,
	.rollback = pg_rollback,
	.exec = pg_exec,
	.query = pg_query,
	.next = pg_next,
	.is_null = pg_is_null,
	.text = pg_text,
	.integer = pg_integer,
	.done = pg_done,
	.lock = pg_lock,
	.is_unique_violation = pg_is_unique_violation,
};
