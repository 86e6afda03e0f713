/*
 * The store, run the same way on SQLite (a temporary file) and on PostgreSQL
 * (DOCSD_TEST_PG_URL; scripts/test.sh starts a throwaway cluster and sets it).
 */
#include "jobs/jobs.h"
#include "store/store.h"
#include "unit.h"
#include "util/err.h"
#include "util/util.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>
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

/* A second writer, on its own thread and connection, started while the main
 * thread's transaction holds a lock; it records what it read. */
struct rival {
	struct store *s;
	const char *org_id, *space_id;
	int which; /* 0: read the space locked; 1: create a space in the org */
	int rc;
	char revision[64];
	int64_t position;
};

static void *rival_run(void *arg)
{
	struct rival *rv = arg;
	struct arena a;
	struct store_tx tx;
	struct space got = { .title = "Rival", .default_level = LEVEL_INHERIT };

	arena_init(&a);
	if ((rv->rc = store_tx_begin(rv->s, &tx, 1, &a)) == 0) {
		if (rv->which == 0) {
			if ((rv->rc = store_space_get_locked(&tx, rv->space_id, &got)) == 0)
				snprintf(rv->revision, sizeof(rv->revision), "%s", got.revision);
		} else {
			got.org_id = rv->org_id;
			if ((rv->rc = store_space_create(&tx, &got)) == 0)
				rv->position = got.position;
		}
		if (rv->rc == 0)
			rv->rc = store_tx_commit(&tx);
		else
			store_tx_rollback(&tx);
	}
	arena_free(&a);
	return NULL;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Read-modify-writes of a space and its change requests: writes compare with
 * what was read (ERR_CONFLICT when it moved), locked reads make a second
 * writer wait for the first and read its result, positions are computed
 * under the organization's lock. */
static void concurrency_suite(struct store *s)
{
	struct arena a;
	struct store_tx tx;
	struct user u;
	struct org org = { .title = "Races", .email_domains = "[]", .default_role = ROLE_READ };
	struct space sp = { .title = "Raced", .default_level = LEVEL_INHERIT }, read1, read2, got;
	struct change_request cr = { .status = "draft", .subject = "Race" }, cr1, cr2;
	struct rival rv = { .s = s };
	pthread_t th;
	char e[64];

	arena_init(&a);
	email(e, sizeof(e), "dave");
	CHECK(store_tx_begin(s, &tx, 1, &a) == 0);
	CHECK(store_user_create(&tx, e, "Dave", &u) == 0);
	CHECK(store_org_create(&tx, &org, u.id) == 0);
	sp.org_id = org.id;
	CHECK(store_space_create(&tx, &sp) == 0);
	cr.space_id = sp.id;
	cr.created_by = u;
	cr.revision = cr.revision_initial = sp.revision;
	CHECK(store_cr_create(&tx, &cr) == 0);
	CHECK(store_tx_commit(&tx) == 0);

	/* the space's revision moves only from the revision read */
	CHECK(store_tx_begin(s, &tx, 1, &a) == 0);
	CHECK(store_space_get(&tx, sp.id, &read1) == 0);
	read2 = read1;
	CHECK(store_space_set_revision(&tx, &read1, "race-rev-1") == 0);
	CHECK(store_space_set_revision(&tx, &read2, "race-rev-2") == ERR_CONFLICT);
	CHECK(store_space_get_locked(&tx, sp.id, &got) == 0);
	CHECK_STR(got.revision, "race-rev-1");
	CHECK(store_space_set_revision(&tx, &got, "race-rev-2") == 0);
	CHECK(store_tx_commit(&tx) == 0);
	CHECK(store_tx_begin(s, &tx, 0, &a) == 0);
	CHECK(store_space_get(&tx, sp.id, &got) == 0);
	CHECK_STR(got.revision, "race-rev-2");
	store_tx_rollback(&tx);

	/* a change request's head and status move only from the ones read */
	CHECK(store_tx_begin(s, &tx, 1, &a) == 0);
	CHECK(store_cr_get_locked(&tx, sp.id, cr.id, &cr1) == 0);
	CHECK_STR(cr1.status, "draft");
	cr2 = cr1;
	cr1.revision = "race-head-1";
	CHECK(store_cr_update(&tx, &cr1, "draft", cr.revision) == 0);
	cr2.revision = "race-head-2"; /* built on the head read before: refused */
	CHECK(store_cr_update(&tx, &cr2, "draft", cr.revision) == ERR_CONFLICT);
	cr2 = cr1;
	cr2.status = "open";
	CHECK(store_cr_update(&tx, &cr2, "open", cr1.revision) == ERR_CONFLICT); /* the status read was not "open" */
	CHECK(store_cr_update(&tx, &cr2, "draft", cr1.revision) == 0);
	CHECK(store_cr_get(&tx, sp.id, cr.id, &cr1) == 0);
	CHECK_STR(cr1.revision, "race-head-1");
	CHECK_STR(cr1.status, "open");
	cr1.status = "merged";
	CHECK(store_cr_update(&tx, &cr1, "draft", "race-head-1") == ERR_CONFLICT); /* merged twice: the second read "draft" */
	CHECK(store_cr_update(&tx, &cr1, "open", "race-head-1") == 0);
	CHECK(store_cr_update(&tx, &cr1, "open", "race-head-1") == ERR_CONFLICT);
	CHECK(store_space_get(&tx, sp.id, &got) == 0);
	CHECK(got.change_requests == 1 && got.change_requests_open == 0 && got.change_requests_draft == 0);
	CHECK(store_tx_commit(&tx) == 0);

	/* a locked read waits for the writer holding the row, then reads its write */
	CHECK(store_tx_begin(s, &tx, 1, &a) == 0);
	CHECK(store_space_get_locked(&tx, sp.id, &read1) == 0);
	rv.space_id = sp.id;
	rv.which = 0;
	CHECK(pthread_create(&th, NULL, rival_run, &rv) == 0);
	sleep_ms(150); /* the rival reaches its locked read (or its begin) and waits */
	CHECK(store_space_set_revision(&tx, &read1, "race-rev-3") == 0);
	CHECK(store_tx_commit(&tx) == 0);
	pthread_join(th, NULL);
	CHECK(rv.rc == 0);
	CHECK_STR(rv.revision, "race-rev-3");

	/* two spaces created at once at one place get different positions */
	CHECK(store_tx_begin(s, &tx, 1, &a) == 0);
	struct space first = { .title = "First", .default_level = LEVEL_INHERIT, .org_id = org.id };
	CHECK(store_space_create(&tx, &first) == 0);
	rv.org_id = org.id;
	rv.which = 1;
	CHECK(pthread_create(&th, NULL, rival_run, &rv) == 0);
	sleep_ms(150);
	CHECK(store_tx_commit(&tx) == 0);
	pthread_join(th, NULL);
	CHECK(rv.rc == 0);
	CHECK(rv.position > first.position);
	arena_free(&a);
}

static void all_suites(struct store *s)
{
	store_suite(s);
	content_suite(s);
	concurrency_suite(s);
}

UNIT_TEST_ON_ENGINES(store, all_suites)
