/* model/access.c: the effective-role table, one row per precedence step, and
 * the permissions booleans read from the same role; then the space,
 * collection and grant operations of the domain (domain/spaces.h) in
 * process, on SQLite and (DOCSD_TEST_PG_URL) PostgreSQL. */
#include "model/access.h"
#include "domain/spaces.h"
#include "unit.h"
#include "util/err.h"
#include "util/util.h"

#include <stdlib.h>
#include <unistd.h>

#define I LEVEL_INHERIT
#define NO ROLE_GUEST /* no grant / defaultLevel null */

UNIT_TEST(access_precedence)
{
	/* Space s1 in collection c2 inside collection c1. Each row: the member's
	 * org role, the defaultLevels of s1, c2, c1, the caller's grant on each
	 * (the highest of their own and their teams', as the store loads them),
	 * and the role wanted on s1 and on c2. */
	static const struct {
		const char *what;
		enum role org;
		int s1, c2, c1;
		enum role gs1, gc2, gc1;
		enum role want, want_c2;
	} rows[] = {
		/* 1. admins everywhere, outsiders nowhere */
		{ "org admin over a lower grant and a null level", ROLE_ADMIN, NO, NO, NO, ROLE_READ, NO, NO, ROLE_ADMIN, ROLE_ADMIN },
		{ "non-member with grants", ROLE_NONE, ROLE_ADMIN, I, I, ROLE_ADMIN, ROLE_ADMIN, ROLE_ADMIN, ROLE_NONE, ROLE_NONE },
		/* 2. the space's own grant wins over everything below it */
		{ "grant raises", ROLE_READ, I, I, I, ROLE_EDIT, NO, NO, ROLE_EDIT, ROLE_READ },
		{ "grant lowers the org role", ROLE_EDIT, I, I, I, ROLE_READ, NO, NO, ROLE_READ, ROLE_EDIT },
		{ "grant lowers the space level", ROLE_READ, ROLE_EDIT, I, I, ROLE_READ, NO, NO, ROLE_READ, ROLE_READ },
		{ "grant opens a null level", ROLE_READ, NO, I, I, ROLE_COMMENT, NO, NO, ROLE_COMMENT, ROLE_READ },
		{ "grant over a higher collection grant", ROLE_CREATE, I, I, I, ROLE_COMMENT, ROLE_ADMIN, NO, ROLE_COMMENT, ROLE_ADMIN },
		/* 3. the space's level, when not inherit */
		{ "level raises", ROLE_READ, ROLE_REVIEW, I, I, NO, NO, NO, ROLE_REVIEW, ROLE_READ },
		{ "level lowers", ROLE_CREATE, ROLE_COMMENT, I, I, NO, NO, NO, ROLE_COMMENT, ROLE_CREATE },
		{ "level null hides", ROLE_CREATE, NO, I, I, NO, NO, NO, NO, ROLE_CREATE },
		{ "a level stops a collection grant", ROLE_READ, ROLE_COMMENT, I, I, NO, ROLE_ADMIN, NO, ROLE_COMMENT, ROLE_ADMIN },
		{ "null stops a collection grant", ROLE_READ, NO, I, I, NO, ROLE_ADMIN, NO, NO, ROLE_ADMIN },
		{ "a level stops a collection level", ROLE_READ, ROLE_EDIT, ROLE_ADMIN, I, NO, NO, NO, ROLE_EDIT, ROLE_ADMIN },
		/* 4. the parents, nearest first */
		{ "collection grant reaches an inheriting space", ROLE_READ, I, I, I, NO, ROLE_REVIEW, NO, ROLE_REVIEW, ROLE_REVIEW },
		{ "collection grant lowers", ROLE_EDIT, I, I, I, NO, ROLE_COMMENT, NO, ROLE_COMMENT, ROLE_COMMENT },
		{ "collection level reaches", ROLE_READ, I, ROLE_CREATE, I, NO, NO, NO, ROLE_CREATE, ROLE_CREATE },
		{ "collection null hides", ROLE_EDIT, I, NO, I, NO, NO, NO, NO, NO },
		{ "nearest grant before a farther one", ROLE_EDIT, I, I, I, NO, ROLE_READ, ROLE_ADMIN, ROLE_READ, ROLE_READ },
		{ "nearest level before a farther grant", ROLE_EDIT, I, ROLE_COMMENT, I, NO, NO, ROLE_ADMIN, ROLE_COMMENT, ROLE_COMMENT },
		{ "nearest grant before a farther level", ROLE_READ, I, I, NO, NO, ROLE_EDIT, NO, ROLE_EDIT, ROLE_EDIT },
		{ "grant two levels up", ROLE_READ, I, I, I, NO, NO, ROLE_CREATE, ROLE_CREATE, ROLE_CREATE },
		{ "level two levels up", ROLE_EDIT, I, I, ROLE_READ, NO, NO, NO, ROLE_READ, ROLE_READ },
		{ "null two levels up, grant on the space", ROLE_EDIT, I, I, NO, ROLE_COMMENT, NO, NO, ROLE_COMMENT, NO },
		/* 5. the member's own role */
		{ "org role edit", ROLE_EDIT, I, I, I, NO, NO, NO, ROLE_EDIT, ROLE_EDIT },
		{ "org role comment", ROLE_COMMENT, I, I, I, NO, NO, NO, ROLE_COMMENT, ROLE_COMMENT },
		{ "org role create", ROLE_CREATE, I, I, I, NO, NO, NO, ROLE_CREATE, ROLE_CREATE },
		{ "org role review", ROLE_REVIEW, I, I, I, NO, NO, NO, ROLE_REVIEW, ROLE_REVIEW },
		{ "org role read", ROLE_READ, I, I, I, NO, NO, NO, ROLE_READ, ROLE_READ },
		/* guests: grants only; a level gives them nothing but still ends the walk */
		{ "guest, nothing", ROLE_GUEST, I, I, I, NO, NO, NO, NO, NO },
		{ "guest, space level", ROLE_GUEST, ROLE_EDIT, I, I, NO, NO, NO, NO, NO },
		{ "guest, space grant", ROLE_GUEST, NO, I, I, ROLE_READ, NO, NO, ROLE_READ, NO },
		{ "guest, collection grant", ROLE_GUEST, I, I, I, NO, NO, ROLE_COMMENT, ROLE_COMMENT, ROLE_COMMENT },
		{ "guest, collection grant past a level", ROLE_GUEST, ROLE_EDIT, I, I, NO, NO, ROLE_COMMENT, NO, ROLE_COMMENT },
		{ "guest, collection grant past a collection level", ROLE_GUEST, I, ROLE_ADMIN, I, NO, NO, ROLE_EDIT, NO, NO },
	};

	for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct access_grant grants[3];
		int n = 0;
		/* sorted by target: c1 < c2 < s1 */
		if (rows[i].gc1 != NO)
			grants[n++] = (struct access_grant){ "c1", rows[i].gc1 };
		if (rows[i].gc2 != NO)
			grants[n++] = (struct access_grant){ "c2", rows[i].gc2 };
		if (rows[i].gs1 != NO)
			grants[n++] = (struct access_grant){ "s1", rows[i].gs1 };
		struct access_ctx c = { .org_role = rows[i].org, .grants = grants, .ngrants = n };
		struct access_node chain[] = { { "s1", rows[i].s1 }, { "c2", rows[i].c2 }, { "c1", rows[i].c1 } };
		enum role got = access_role(&c, chain, 3), got_c2 = access_role(&c, chain + 1, 2);
		if (got != rows[i].want || got_c2 != rows[i].want_c2) {
			printf("  row %u (%s): space %d want %d, collection %d want %d\n", i, rows[i].what, got,
			       rows[i].want, got_c2, rows[i].want_c2);
			CHECK(!"access_role row");
		}
	}
	/* a space at the top level: the org role, or its own grant or level */
	struct access_grant g = { "s1", ROLE_COMMENT };
	struct access_ctx c = { .org_role = ROLE_EDIT };
	struct access_node top = { "s1", LEVEL_INHERIT };
	CHECK(access_role(&c, &top, 1) == ROLE_EDIT);
	c.grants = &g;
	c.ngrants = 1;
	CHECK(access_role(&c, &top, 1) == ROLE_COMMENT);
	c.ngrants = 0;
	top.level = ROLE_GUEST;
	CHECK(access_role(&c, &top, 1) == ROLE_GUEST);

	CHECK(access_check(ROLE_NONE, ROLE_READ, "space") == ERR_NOT_FOUND);
	CHECK(access_check(ROLE_GUEST, ROLE_READ, "space") == ERR_NOT_FOUND);
	CHECK(access_check(ROLE_READ, ACCESS_MANAGE, "space") == ERR_FORBIDDEN);
	CHECK(access_check(ROLE_REVIEW, ACCESS_MANAGE, "space") == ERR_FORBIDDEN);
	CHECK(access_check(ROLE_CREATE, ACCESS_MANAGE, "space") == 0);
	CHECK(access_check(ROLE_EDIT, ACCESS_MERGE, "space") == ERR_FORBIDDEN);
	CHECK(access_check(ROLE_REVIEW, ACCESS_MERGE, "space") == 0);
}

UNIT_TEST(access_permissions)
{
	/* Every role's booleans, and each one agrees with the check of the
	 * operation it stands for. */
	for (int r = ROLE_NONE; r <= ROLE_ADMIN; r++) {
		enum role role = (enum role)r;
		struct space_permissions p, lp;
		struct collection_permissions cp;

		space_permissions(&p, role, false);
		space_permissions(&lp, role, true);
		collection_permissions(&cp, role);
		CHECK(p.view == (access_check(role, ROLE_READ, "space") == 0));
		CHECK(p.access == p.view);
		CHECK(p.comment == (access_check(role, ROLE_COMMENT, "space") == 0));
		CHECK(p.edit == (access_check(role, ROLE_EDIT, "space") == 0));
		CHECK(p.trigger_git_sync == p.edit);
		CHECK(p.merge == (access_check(role, ACCESS_MERGE, "space") == 0));
		CHECK(p.review == p.merge);
		CHECK(p.admin == (access_check(role, ACCESS_MANAGE, "space") == 0));
		CHECK(p.view_invite_links == p.admin);
		CHECK(p.install_integration == (role == ROLE_ADMIN));
		/* locked: no edits or merges from anyone; the rest as unlocked */
		CHECK(!lp.edit && !lp.trigger_git_sync && !lp.merge);
		CHECK(lp.view == p.view && lp.comment == p.comment && lp.review == p.review && lp.admin == p.admin);
		CHECK(cp.view == p.view);
		CHECK(cp.admin == (access_check(role, ACCESS_MANAGE, "collection") == 0));
		CHECK(cp.view_invite_links == cp.admin);
		CHECK(cp.create == (role >= ROLE_CREATE));
	}
	struct space_permissions p;
	space_permissions(&p, ROLE_CREATE, false);
	CHECK(p.admin && p.merge && p.edit && !p.install_integration);
	space_permissions(&p, ROLE_REVIEW, false);
	CHECK(p.merge && p.review && !p.admin);
	space_permissions(&p, ROLE_EDIT, false);
	CHECK(p.edit && p.comment && !p.merge && !p.review);
	space_permissions(&p, ROLE_COMMENT, false);
	CHECK(p.comment && !p.edit);
	space_permissions(&p, ROLE_READ, false);
	CHECK(p.view && !p.comment);
	space_permissions(&p, ROLE_GUEST, false);
	CHECK(!p.view && !p.access);
}

/* ---- the domain operations, in process ---- */

static struct user new_user(struct store_tx *tx, const char *who)
{
	struct user u = { 0 };

	unit_new_user(tx, who, NULL, &u);
	return u;
}

static void domain_suite(struct store *st)
{
	struct arena a;
	struct store_tx tx;
	struct dom d;
	struct user admin, creator, editor, reader, stranger;
	struct org org = { .title = "Domain", .email_domains = "[]", .default_role = ROLE_READ };
	struct org other = { .title = "Domain target", .email_domains = "[]", .default_role = ROLE_READ };
	struct space s, got, *items;
	struct collection c, cgot;
	struct dom_object o;
	struct list_req lr = { .limit = 100 };
	char *next;
	bool added;
	int n;

	arena_init(&a);
	CHECK(store_tx_begin(st, &tx, 1, &a) == 0);
	admin = new_user(&tx, "admin");
	creator = new_user(&tx, "creator");
	editor = new_user(&tx, "editor");
	reader = new_user(&tx, "reader");
	stranger = new_user(&tx, "stranger");
	CHECK(store_org_create(&tx, &org, admin.id) == 0);
	CHECK(store_org_create(&tx, &other, admin.id) == 0);
	CHECK(store_member_add(&tx, org.id, creator.id, ROLE_CREATE, 0, &added) == 0);
	CHECK(store_member_add(&tx, org.id, editor.id, ROLE_EDIT, 0, &added) == 0);
	CHECK(store_member_add(&tx, org.id, reader.id, ROLE_READ, 0, &added) == 0);
	CHECK(store_member_add(&tx, other.id, creator.id, ROLE_REVIEW, 0, &added) == 0);
#define AS(user_id) dom_init(&d, NULL, &tx, &a, user_id)

	/* creating at the top level needs create in the organization; the creator gets an admin grant */
	AS(editor.id);
	CHECK(dom_space_create(&d, org.id, &(struct space_input){ .title = "No" }, &s) == ERR_FORBIDDEN);
	AS(creator.id);
	CHECK(dom_space_create(&d, org.id, &(struct space_input){ .title = "Top" }, &s) == 0);
	CHECK(s.access == ROLE_ADMIN && s.default_level == LEVEL_INHERIT);
	/* everyone else: their org role; outsiders nothing; docsd itself admin */
	AS(editor.id);
	CHECK(dom_space_get(&d, s.id, ROLE_READ, &got) == 0 && got.access == ROLE_EDIT);
	AS(reader.id);
	CHECK(dom_space_get(&d, s.id, ACCESS_MANAGE, &got) == ERR_FORBIDDEN);
	AS(stranger.id);
	CHECK(dom_space_get(&d, s.id, ROLE_READ, &got) == ERR_NOT_FOUND);
	AS(NULL);
	CHECK(dom_space_get(&d, s.id, ACCESS_MANAGE, &got) == 0 && got.access == ROLE_ADMIN);

	/* a direct grant lowers; below create no settings */
	AS(creator.id);
	CHECK(dom_grants_invite(&d, DOM_SPACE, s.id, ROLE_READ, (const char *[]){ editor.id }, 1, NULL, 0) == 0);
	AS(editor.id);
	CHECK(dom_space_get(&d, s.id, ROLE_READ, &got) == 0 && got.access == ROLE_READ);
	CHECK(dom_space_update(&d, s.id, &(struct space_input){ .title = "No" }, &got) == ERR_FORBIDDEN);
	CHECK(dom_grants_invite(&d, DOM_SPACE, s.id, ROLE_ADMIN, (const char *[]){ editor.id }, 1, NULL, 0) == ERR_FORBIDDEN);
	/* an unknown user grants nothing */
	AS(creator.id);
	CHECK(dom_grants_invite(&d, DOM_SPACE, s.id, ROLE_READ, (const char *[]){ "nosuchuser" }, 1, NULL, 0) == ERR_INVALID);

	/* the level: null hides the space from members without a grant */
	CHECK(dom_space_update(&d, s.id, &(struct space_input){ .title = "Renamed", .has_level = true, .default_level = ROLE_GUEST },
			       &got) == 0);
	CHECK(strcmp(got.title, "Renamed") == 0 && got.default_level == ROLE_GUEST && got.access == ROLE_ADMIN);
	AS(reader.id);
	CHECK(dom_space_get(&d, s.id, ROLE_READ, &got) == ERR_NOT_FOUND);
	AS(editor.id);
	CHECK(dom_space_get(&d, s.id, ROLE_READ, &got) == 0 && got.access == ROLE_READ);

	/* moves: create on the item and at the destination */
	AS(admin.id);
	CHECK(dom_collection_create(&d, org.id,
				    &(struct collection_input){ .has_title = true, .title = "Read only", .has_level = true,
								.default_level = ROLE_READ },
				    &c) == 0);
	CHECK(c.access == ROLE_ADMIN);
	struct dom_place into = { .has_parent = true, .parent_id = c.id };
	AS(creator.id);
	CHECK(dom_object_move(&d, DOM_SPACE, s.id, &into, &o) == ERR_FORBIDDEN); /* read on the collection */
	CHECK(dom_collection_get(&d, c.id, ROLE_READ, &cgot) == 0 && cgot.access == ROLE_READ);
	AS(admin.id);
	CHECK(dom_object_move(&d, DOM_SPACE, s.id, &into, &o) == 0 && o.parent_id && strcmp(o.parent_id, c.id) == 0);
	CHECK(dom_object_move(&d, DOM_SPACE, s.id, &into, &o) == ERR_CONFLICT);
	CHECK(dom_object_move(&d, DOM_SPACE, s.id, &(struct dom_place){ 0 }, &o) == ERR_INVALID);
	CHECK(dom_object_move(&d, DOM_COLLECTION, c.id, &(struct dom_place){ .has_parent = true, .parent_id = c.id }, &o) ==
	      ERR_INVALID);

	/* lists: each item with the actor's role, hidden ones left out */
	AS(reader.id);
	CHECK(dom_spaces_list(&d, NULL, c.id, &lr, &items, &n, &next) == 0 && n == 0);
	AS(editor.id);
	CHECK(dom_spaces_list(&d, NULL, c.id, &lr, &items, &n, &next) == 0 && n == 1 && items[0].access == ROLE_READ);
	AS(admin.id);
	CHECK(dom_spaces_list(&d, org.id, NULL, &lr, &items, &n, &next) == 0 && n == 1 && items[0].access == ROLE_ADMIN);
	struct member_space *ms;
	CHECK(dom_member_spaces(&d, org.id, editor.id, &lr, &ms, &n, &next) == 0 && n == 1);
	CHECK(ms[0].permission == ROLE_READ && ms[0].space.access == ROLE_ADMIN);
	AS(reader.id);
	CHECK(dom_member_spaces(&d, org.id, editor.id, &lr, &ms, &n, &next) == ERR_FORBIDDEN);

	/* transfers: create in the target organization too; the creator's grant goes along */
	AS(creator.id);
	CHECK(dom_object_transfer(&d, DOM_SPACE, s.id, other.id, NULL, &o) == ERR_FORBIDDEN); /* review there */
	CHECK(store_member_set_role(&tx, other.id, creator.id, ROLE_CREATE) == 0);
	AS(creator.id);
	CHECK(dom_object_transfer(&d, DOM_SPACE, s.id, other.id, NULL, &o) == 0);
	CHECK(strcmp(o.org_id, other.id) == 0 && !o.parent_id && o.access == ROLE_ADMIN);
	CHECK(dom_object_transfer(&d, DOM_SPACE, s.id, other.id, NULL, &o) == ERR_CONFLICT);
	AS(editor.id);
	CHECK(dom_space_get(&d, s.id, ROLE_READ, &got) == ERR_NOT_FOUND); /* not a member there */

	/* delete: create needed; an unknown id is no error */
	AS(reader.id);
	CHECK(dom_object_delete(&d, DOM_COLLECTION, "nosuchcollection000") == 0);
	CHECK(dom_object_delete(&d, DOM_COLLECTION, c.id) == ERR_FORBIDDEN);
	AS(creator.id);
	CHECK(dom_object_delete(&d, DOM_COLLECTION, c.id) == ERR_FORBIDDEN); /* its read level lowers a create member */
	CHECK(dom_collection_update(&d, c.id, &(struct collection_input){ .has_level = true, .default_level = LEVEL_INHERIT },
				    &cgot) == ERR_FORBIDDEN);
	AS(admin.id);
	CHECK(dom_collection_update(&d, c.id, &(struct collection_input){ .has_level = true, .default_level = LEVEL_INHERIT },
				    &cgot) == 0);
	CHECK(strcmp(cgot.title, "Read only") == 0 && cgot.default_level == LEVEL_INHERIT);
	AS(creator.id);
	CHECK(dom_object_delete(&d, DOM_COLLECTION, c.id) == 0); /* inherit: create from the org role */
	CHECK(dom_collection_get(&d, c.id, ROLE_READ, &cgot) == ERR_NOT_FOUND);
#undef AS
	store_tx_rollback(&tx);
	arena_free(&a);
}

UNIT_TEST_ON_ENGINES(access_domain, domain_suite)
