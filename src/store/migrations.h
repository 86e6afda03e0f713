#ifndef DOCSD_STORE_MIGRATIONS_H
#define DOCSD_STORE_MIGRATIONS_H

struct migration {
	int version;
	const char *name;
	const char *sql; /* several ;-separated statements, no parameters */
	/* Engine-specific statements run after sql (full-text search: FTS5 on
	 * SQLite, tsvector on PostgreSQL); NULL when none. */
	const char *sqlite_sql;
	const char *postgres_sql;
};

#include "store/driver.h"

/* The storage clause of a migration's CREATE TABLE that only SQLite has
 * (driver.h, "Engine-only SQL"). */
#define MIGRATION_ROWID_HINT DB_SQLITE_ONLY(" WITHOUT ROWID")

extern const struct migration migrations[];
extern const int migrations_count;

#endif
