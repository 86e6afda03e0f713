#ifndef DOCSD_STORE_MIGRATIONS_H
#define DOCSD_STORE_MIGRATIONS_H

struct migration {
	int version;
	const char *name;
	const char *sql; /* several ;-separated statements, no parameters */
};

/* The storage hint in a migration's SQL that only SQLite acts on. */
#define MIGRATION_ROWID_HINT "/*WITHOUT ROWID*/"

extern const struct migration migrations[];
extern const int migrations_count;

#endif
