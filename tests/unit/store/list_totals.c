/*
 * List totals (store.h, "List totals") on both engines: a list's total is the
 * whole list's for its filters on every page; with a generation it is cached
 * and reused while the generation is the one given, recomputed for another;
 * access-filtered totals (st_total_keep) count the rows the keep function
 * keeps and are cached per viewer (count_who).
 */
#include "store/store.h"
#include "unit.h"
#include "util/err.h"

#include <string.h>

static enum role keep_none(void *ctx, void *item)
{
	(void)ctx;
	(void)item;
	return ROLE_GUEST;
}

static enum role keep_titled_b(void *ctx, void *item)
{
	const struct space *s = item;

	(void)ctx;
	return s->title && s->title[0] == 'B' ? ROLE_READ : ROLE_GUEST;
}

static void totals_suite(struct store *s)
{
	struct arena a;
	struct store_tx tx;
	struct user alice, bob, carol;
	struct org org = { 0 };
	struct member_filter f = { 0 };
	struct member *members;
	struct space *spaces;
	int64_t total = -1;
	struct list_req lr = { .limit = 1, .total = &total };
	char *next;
	bool added;
	int n;

	arena_init(&a);
	CHECK(store_tx_begin(s, &tx, 1, &a) == 0);
	unit_new_user(&tx, "alice", NULL, &alice);
	unit_new_user(&tx, "bob", NULL, &bob);
	unit_new_user(&tx, "carol", NULL, &carol);
	org.title = "Totals";
	org.email_domains = "[]";
	org.default_role = ROLE_READ;
	CHECK(store_org_create(&tx, &org, alice.id) == 0);
	CHECK(store_member_add(&tx, org.id, bob.id, ROLE_READ, 0, &added) == 0 && added);
	CHECK(store_tx_commit(&tx) == 0);

	/* Uncached: the total of the list, not the page. */
	CHECK(store_tx_begin(s, &tx, 0, &a) == 0);
	CHECK(store_members_list(&tx, org.id, &f, &lr, &members, &n, &next) == 0);
	CHECK(n == 1 && next != NULL && total == 2);
	f.role = "read";
	CHECK(store_members_list(&tx, org.id, &f, &lr, &members, &n, &next) == 0);
	CHECK(n == 1 && total == 1);
	f.role = NULL;
	/* Cached at generation 7 (any value the caller read). */
	lr.generation = 7;
	CHECK(store_members_list(&tx, org.id, &f, &lr, &members, &n, &next) == 0);
	CHECK(total == 2);
	store_tx_rollback(&tx);

	CHECK(store_tx_begin(s, &tx, 1, &a) == 0);
	CHECK(store_member_add(&tx, org.id, carol.id, ROLE_EDIT, 0, &added) == 0 && added);
	CHECK(store_tx_commit(&tx) == 0);

	CHECK(store_tx_begin(s, &tx, 0, &a) == 0);
	/* The same generation: the cached total (a real write bumps it). */
	CHECK(store_members_list(&tx, org.id, &f, &lr, &members, &n, &next) == 0);
	CHECK(total == 2);
	/* Another generation: counted again. */
	lr.generation = 8;
	CHECK(store_members_list(&tx, org.id, &f, &lr, &members, &n, &next) == 0);
	CHECK(total == 3);
	/* Another filter is another key. */
	f.role = "edit";
	CHECK(store_members_list(&tx, org.id, &f, &lr, &members, &n, &next) == 0);
	CHECK(total == 1);
	f.role = NULL;
	/* No total wanted: nothing written. */
	lr.total = NULL;
	total = -1;
	CHECK(store_members_list(&tx, org.id, &f, &lr, &members, &n, &next) == 0);
	CHECK(total == -1);
	lr.total = &total;
	store_tx_rollback(&tx);

	/* Spaces kept by a filter: counted over every row, across batches of rows. */
	CHECK(store_tx_begin(s, &tx, 1, &a) == 0);
	for (int i = 0; i < 5; i++) {
		struct space sp = { 0 };
		sp.org_id = org.id;
		sp.title = i < 3 ? "B space" : "A space";
		sp.visibility = "private";
		sp.edit_mode = "live";
		CHECK(store_space_create(&tx, &sp) == 0);
	}
	CHECK(store_tx_commit(&tx) == 0);
	CHECK(store_tx_begin(s, &tx, 0, &a) == 0);
	lr.generation = 0;
	CHECK(store_spaces_list(&tx, SPACES_OF_ORG, org.id, NULL, &lr, NULL, NULL, &spaces, &n, &next) == 0);
	CHECK(n == 1 && total == 5);
	CHECK(store_spaces_list(&tx, SPACES_OF_ORG, org.id, NULL, &lr, keep_titled_b, NULL, &spaces, &n, &next) == 0);
	CHECK(n == 1 && total == 3);
	/* Per viewer: bob's cached total is not carol's. */
	lr.generation = 9;
	lr.count_who = bob.id;
	CHECK(store_spaces_list(&tx, SPACES_OF_ORG, org.id, NULL, &lr, keep_titled_b, NULL, &spaces, &n, &next) == 0);
	CHECK(total == 3);
	lr.count_who = carol.id;
	CHECK(store_spaces_list(&tx, SPACES_OF_ORG, org.id, NULL, &lr, keep_none, NULL, &spaces, &n, &next) == 0);
	CHECK(n == 0 && total == 0);
	lr.count_who = bob.id;
	CHECK(store_spaces_list(&tx, SPACES_OF_ORG, org.id, NULL, &lr, keep_none, NULL, &spaces, &n, &next) == 0);
	CHECK(total == 3); /* bob's, cached at generation 9 */
	store_tx_rollback(&tx);
	arena_free(&a);
}

UNIT_TEST_ON_ENGINES(store_list_totals, totals_suite)
