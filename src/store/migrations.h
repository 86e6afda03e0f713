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

/* The storage hint in a migration's SQL that only SQLite acts on. */
#define MIGRATION_ROWID_HINT "/*WITHOUT ROWID*/"

extern const struct migration migrations[];
extern const int migrations_count;

#endif
