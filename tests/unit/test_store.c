/*
 * The store, run the same way on SQLite (a temporary file) and on PostgreSQL
 * (DOCSD_TEST_PG_URL; scripts/test.sh starts a throwaway cluster and sets it).
 */
#include "jobs/jobs.h"
#include "store/store.h"
#include "unit.h"
#include "util/err.h"
#include "util/util.h"

#include <stdlib.h>
#include <unistd.h>

static void email(char *out, size_t n, const char *who)
{
	char r[9];

	random_alnum(r, 8);
	snprintf(out, n, "%s-%s@example.com", who, r);
}

static void store_suite(struct store *s)
{
	struct arena a;
	struct store_tx tx;
	struct user alice, bob, got;
	struct org org = { 0 };
	struct membership ms;
	struct member *members;
	struct team team = { 0 }, *teams;
	struct invite inv = { 0 }, inv2;
	struct list_req lr = { .limit = 1, .desc = 1 };
	struct cursor cur;
	char e1[64], e2[64], hash[65], *next;
	const char *uid;
	bool flag;
	int n, seen = 0;

	arena_init(&a);
	email(e1, sizeof(e1), "alice");
	email(e2, sizeof(e2), "bob");
	sha256_hex(hash, e1, strlen(e1)); /* unique per run: the database may hold earlier runs */
	CHECK(store_tx_begin(s, &tx, 1, &a) == 0);
	CHECK(store_user_create(&tx, e1, "Alice", &alice) == 0);
	CHECK(store_user_create(&tx, e2, "Bob", &bob) == 0);
	CHECK(store_token_create(&tx, alice.id, hash) == 0);
	CHECK(store_tx_commit(&tx) == 0);

	/* a unique email: conflict, and the transaction is rolled back whole */
	CHECK(store_tx_begin(s, &tx, 1, &a) == 0);
	CHECK(store_user_create(&tx, e1, "Again", &got) == ERR_CONFLICT);
	store_tx_rollback(&tx);

	CHECK(store_tx_begin(s, &tx, 1, &a) == 0);
	CHECK(store_user_get_by_email(&tx, e1, &got) == 0);
	CHECK_STR(got.id, alice.id);
	org.title = "Acme";
	org.email_domains = "[\"example.com\"]";
	org.default_role = ROLE_READ;
	CHECK(store_org_create(&tx, &org, alice.id) == 0);
	CHECK(store_membership(&tx, org.id, alice.id, &ms) == 0 && ms.role == ROLE_ADMIN);
	CHECK(store_membership(&tx, org.id, bob.id, &ms) == 0 && ms.role == ROLE_NONE);
	CHECK(store_member_add(&tx, org.id, bob.id, ROLE_GUEST, 0, &flag) == 0 && flag);
	CHECK(store_member_add(&tx, org.id, bob.id, ROLE_EDIT, 0, &flag) == 0 && !flag);
	CHECK(store_membership(&tx, org.id, bob.id, &ms) == 0 && ms.role == ROLE_GUEST);
	CHECK(store_tx_commit(&tx) == 0);

	/* walk the member list one by one: both members, no duplicates */
	CHECK(store_tx_begin(s, &tx, 0, &a) == 0);
	struct member_filter f = { 0 };
	lr.after = NULL;
	for (int page = 0; page < 5; page++) {
		CHECK(store_members_list(&tx, org.id, &f, &lr, &members, &n, &next) == 0);
		CHECK(n <= 1);
		seen += n;
		if (!next)
			break;
		CHECK(cursor_decode(&a, next, &cur) == 0);
		lr.after = &cur;
	}
	CHECK(seen == 2);
	f.role = "guest";
	lr.after = NULL;
	lr.limit = 10;
	CHECK(store_members_list(&tx, org.id, &f, &lr, &members, &n, &next) == 0);
	CHECK(n == 1 && strcmp(members[0].user.id, bob.id) == 0 && members[0].role == ROLE_GUEST);
	f.role = NULL;
	f.search = "ALICE";
	CHECK(store_members_list(&tx, org.id, &f, &lr, &members, &n, &next) == 0);
	CHECK(n == 1 && strcmp(members[0].user.id, alice.id) == 0);
	f.search = "%";
	CHECK(store_members_list(&tx, org.id, &f, &lr, &members, &n, &next) == 0);
	CHECK(n == 0);
	f.search = NULL;
	f.by_last_seen = 1;
	CHECK(store_members_list(&tx, org.id, &f, &lr, &members, &n, &next) == 0);
	CHECK(n == 0);
	CHECK(store_token_user(&tx, hash, &uid) == 0 && strcmp(uid, alice.id) == 0);
	store_tx_rollback(&tx);

	/* teams: counts follow memberships; removing the member removes them */
	CHECK(store_tx_begin(s, &tx, 1, &a) == 0);
	team.org_id = org.id;
	team.title = "Writers";
	CHECK(store_team_create(&tx, &team) == 0);
	CHECK(store_team_member_set(&tx, team.id, org.id, bob.id, TEAM_OWNER) == 0);
	CHECK(store_team_member_set(&tx, team.id, org.id, alice.id, TEAM_MEMBER) == 0);
	CHECK(store_team_get(&tx, org.id, team.id, &team) == 0 && team.members == 2);
	CHECK(store_membership(&tx, org.id, bob.id, &ms) == 0 && ms.owns_team);
	struct team_filter tf = { .title = "rit" };
	lr.after = NULL;
	CHECK(store_teams_list(&tx, org.id, &tf, &lr, &teams, &n, &next) == 0 && n == 1);
	tf.title = "zzz";
	CHECK(store_teams_list(&tx, org.id, &tf, &lr, &teams, &n, &next) == 0 && n == 0);
	tf.title = NULL;
	tf.owner = bob.id;
	CHECK(store_teams_list(&tx, org.id, &tf, &lr, &teams, &n, &next) == 0 && n == 1);
	CHECK(store_member_remove(&tx, org.id, bob.id, &flag) == 0 && flag);
	CHECK(store_member_remove(&tx, org.id, bob.id, &flag) == 0 && !flag);
	CHECK(store_team_get(&tx, org.id, team.id, &team) == 0 && team.members == 1);
	CHECK(store_team_delete(&tx, org.id, team.id, &flag) == 0 && flag);
	CHECK(store_team_get(&tx, org.id, team.id, &team) == ERR_NOT_FOUND);
	CHECK(store_tx_commit(&tx) == 0);

	/* invites */
	CHECK(store_tx_begin(s, &tx, 1, &a) == 0);
	inv.org_id = org.id;
	inv.role = ROLE_EDIT;
	CHECK(store_invite_create(&tx, &inv) == 0);
	CHECK(store_invite_set_role(&tx, org.id, inv.id, ROLE_GUEST) == 0);
	CHECK(store_invite_get(&tx, org.id, inv.id, &inv2) == 0 && inv2.role == ROLE_GUEST);
	CHECK(store_invite_delete(&tx, org.id, inv.id, &flag) == 0 && flag);
	CHECK(store_invite_get(&tx, org.id, inv.id, &inv2) == ERR_NOT_FOUND);
	CHECK(store_org_hostname_check(&tx, "acme-unused-host", org.id) == 0);
	CHECK(store_tx_commit(&tx) == 0);
	arena_free(&a);
}

/* Collections, spaces, grants, positions, and the purge of deleted spaces. */
static void content_suite(struct store *s)
{
	struct arena a;
	struct store_tx tx;
	struct user u;
	struct org org = { .title = "Content", .email_domains = "[]", .default_role = ROLE_READ };
	struct collection top = { .title = "Top", .default_level = LEVEL_INHERIT }, inner = { .title = "Inner", .default_level = ROLE_GUEST };
	struct space s1 = { .title = "One", .default_level = LEVEL_INHERIT }, s2 = { .title = "Two", .default_level = LEVEL_INHERIT }, got;
	struct access_node chain[ACCESS_MAX_DEPTH];
	struct access_grant *grants;
	struct grant_row *rows;
	struct space *spaces;
	struct list_req lr = { .limit = 10 };
	char e[64], *next;
	int64_t pos, removed;
	bool flag;
	int n, already;

	arena_init(&a);
	email(e, sizeof(e), "carol");
	CHECK(store_tx_begin(s, &tx, 1, &a) == 0);
	CHECK(store_user_create(&tx, e, "Carol", &u) == 0);
	CHECK(store_org_create(&tx, &org, u.id) == 0);
	top.org_id = inner.org_id = s1.org_id = s2.org_id = org.id;
	CHECK(store_collection_create(&tx, &top) == 0);
	inner.parent_id = top.id;
	CHECK(store_collection_create(&tx, &inner) == 0);
	s1.parent_id = s2.parent_id = inner.id;
	CHECK(store_space_create(&tx, &s1) == 0);
	CHECK(store_space_create(&tx, &s2) == 0);

	/* the chain of the inner collection, nearest first */
	CHECK(store_collection_chain(&tx, inner.id, chain, &n) == 0 && n == 2);
	CHECK_STR(chain[0].id, inner.id);
	CHECK(chain[0].level == ROLE_GUEST && chain[1].level == LEVEL_INHERIT);

	/* positions: s2 before s1, then s2 is already there */
	CHECK(store_position_for(&tx, org.id, inner.id, s1.id, 0, s2.id, &pos, &already) == 0 && !already);
	CHECK(store_space_place(&tx, &s2, inner.id, pos) == 0);
	CHECK(store_position_for(&tx, org.id, inner.id, s1.id, 0, s2.id, &pos, &already) == 0 && already);
	CHECK(store_spaces_list(&tx, SPACES_IN_COLLECTION, org.id, inner.id, &lr, NULL, NULL, &spaces, &n, &next) == 0);
	CHECK(n == 2 && strcmp(spaces[0].id, s2.id) == 0 && strcmp(spaces[1].id, s1.id) == 0);
	CHECK(store_position_for(&tx, org.id, NULL, s1.id, 0, NULL, &pos, NULL) == ERR_INVALID);

	/* grants: the caller's highest role per target */
	CHECK(store_grant_set(&tx, org.id, s1.id, NULL, GRANT_USER, u.id, ROLE_COMMENT) == 0);
	CHECK(store_grant_set(&tx, org.id, s1.id, NULL, GRANT_USER, u.id, ROLE_EDIT) == 0);
	CHECK(store_access_grants(&tx, org.id, u.id, &grants, &n) == 0 && n == 1 && grants[0].role == ROLE_EDIT);
	CHECK(store_grants_list(&tx, s1.id, GRANT_USER, &lr, &rows, &n, &next) == 0 && n == 1);
	CHECK_STR(rows[0].user.id, u.id);

	/* deleting the top collection deletes the inner one and their spaces */
	CHECK(store_collection_delete(&tx, top.id, &flag) == 0 && flag);
	CHECK(store_collection_get(&tx, inner.id, &inner) == ERR_NOT_FOUND);
	CHECK(store_space_get(&tx, s1.id, &got) == 0 && got.deleted_at > 0 && got.parent_id == NULL);
	CHECK(store_tx_commit(&tx) == 0);

	/* the purge removes spaces deleted more than 7 days ago, with their grants */
	CHECK(jobs_purge_spaces(s, &removed) == 0);
	CHECK(store_tx_begin(s, &tx, 0, &a) == 0);
	CHECK(store_space_get(&tx, s1.id, &got) == 0);
	store_tx_rollback(&tx);
	clock_set_offset(SPACE_RETENTION_MS + 3600 * 1000);
	CHECK(jobs_purge_spaces(s, &removed) == 0 && removed >= 2);
	clock_set_offset(0);
	CHECK(store_tx_begin(s, &tx, 0, &a) == 0);
	CHECK(store_space_get(&tx, s1.id, &got) == ERR_NOT_FOUND);
	CHECK(store_space_get(&tx, s2.id, &got) == ERR_NOT_FOUND);
	CHECK(store_grants_list(&tx, s1.id, GRANT_USER, &lr, &rows, &n, &next) == 0 && n == 0);
	store_tx_rollback(&tx);
	arena_free(&a);
}

UNIT_TEST(store_on_sqlite)
{
	char dir[] = "/tmp/docsd-unit-XXXXXX", path[128];
	struct store *s = NULL;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/docsd.db", dir);
	CHECK(store_open(&s, path, NULL, 2) == 0);
	if (s) {
		store_suite(s);
		content_suite(s);
		store_close(s);
	}
	/* reopening runs no migration twice */
	CHECK(store_open(&s, path, NULL, 1) == 0);
	store_close(s);
	unlink(path);
	snprintf(path, sizeof(path), "%s/docsd.db-wal", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/docsd.db-shm", dir);
	unlink(path);
	rmdir(dir);
}

UNIT_TEST(store_on_postgres)
{
	const char *url = getenv("DOCSD_TEST_PG_URL");
	struct store *s = NULL;

	if (!url || !*url) {
		if (getenv("DOCSD_TEST_REQUIRE_PG"))
			CHECK(!"DOCSD_TEST_PG_URL is required");
		else
			printf("skip store_on_postgres: DOCSD_TEST_PG_URL is not set\n");
		return;
	}
	CHECK(store_open(&s, NULL, url, 2) == 0);
	if (!s) {
		fprintf(stderr, "  %s\n", err_message());
		return;
	}
	store_suite(s);
	content_suite(s);
	store_close(s);
}
