/*
 * engines.c - run a store-level suite on SQLite (a fresh file in a temporary
 * directory) and on PostgreSQL (DOCSD_TEST_PG_URL; scripts/test.sh starts a
 * throwaway cluster, and DOCSD_TEST_REQUIRE_PG makes its absence a failure).
 */
#include "store/store.h"
#include "unit.h"
#include "util/err.h"
#include "util/util.h"

#include <stdlib.h>
#include <unistd.h>

void unit_on_sqlite(void (*suite)(struct store *s))
{
	char dir[] = "/tmp/docsd-unit-XXXXXX", path[128];
	static const char *const files[] = { "docsd.db", "docsd.db-wal", "docsd.db-shm" };
	struct store *s = NULL;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/docsd.db", dir);
	CHECK(store_open(&s, path, NULL, 2) == 0);
	if (s) {
		suite(s);
		store_close(s);
		/* reopening the same file runs no migration twice */
		s = NULL;
		CHECK(store_open(&s, path, NULL, 1) == 0);
		store_close(s);
	} else {
		fprintf(stderr, "  %s\n", err_message());
	}
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
}

void unit_on_postgres(const char *name, void (*suite)(struct store *s))
{
	const char *url = getenv("DOCSD_TEST_PG_URL");
	struct store *s = NULL;

	if (!url || !*url) {
		if (getenv("DOCSD_TEST_REQUIRE_PG"))
			CHECK(!"DOCSD_TEST_PG_URL is required");
		else
			printf("skip %s: DOCSD_TEST_PG_URL is not set\n", name);
		return;
	}
	CHECK(store_open(&s, NULL, url, 2) == 0);
	if (!s) {
		fprintf(stderr, "  %s\n", err_message());
		return;
	}
	suite(s);
	store_close(s);
}

void unit_new_user(struct store_tx *tx, const char *who, const char *domain, struct user *out)
{
	char email[128], r[9];

	random_alnum(r, 8);
	snprintf(email, sizeof(email), "%s-%s@%s", who, r, domain ? domain : "example.com");
	CHECK(store_user_create(tx, email, who, out) == 0);
}
