/*
 * The member, team and user operations of the domain layer
 * (domain/members.h), in-process, without sockets: a store on SQLite (a
 * temporary file) and on PostgreSQL (DOCSD_TEST_PG_URL), an organization and
 * users made through store_* calls, then the domain functions called with a
 * struct dom for each actor, asserting results, error codes, messages and the
 * state that follows.
 *
 * The actors: alice, the organization's only admin; bob, a member with the
 * read role; carol (edit), owner of the team "Writers"; dave, a guest who
 * owns the team "Guests"; eve, a user of no organization; docsd itself (user
 * NULL). The team "Core" has bob in it and no owner.
 */
#include "domain/members.h"
#include "unit.h"
#include "util/err.h"
#include "util/util.h"

#include <stdlib.h>
#include <unistd.h>

struct fx {
	struct store *s;
	struct arena a;
	struct store_tx tx;
	struct dom d;
	struct user alice, bob, carol, dave, eve;
	struct org org;
	struct team core, writers, guests;
};

static void new_user(struct fx *f, const char *who, struct user *u)
{
	unit_new_user(&f->tx, who, NULL, u);
}

/* A domain context for u (NULL: docsd itself) on the open transaction; its
 * loaded standing starts empty, as in a new request. */
static struct dom *as(struct fx *f, const struct user *u)
{
	dom_init(&f->d, NULL, &f->tx, &f->a, u ? u->id : NULL);
	return &f->d;
}

static void new_team(struct fx *f, const char *title, struct team *t)
{
	*t = (struct team){ .org_id = f->org.id, .title = title };
	CHECK(store_team_create(&f->tx, t) == 0);
}

static void fx_open(struct fx *f, struct store *s)
{
	bool added;

	memset(f, 0, sizeof(*f));
	f->s = s;
	arena_init(&f->a);
	CHECK(store_tx_begin(s, &f->tx, 1, &f->a) == 0);
	new_user(f, "alice", &f->alice);
	new_user(f, "bob", &f->bob);
	new_user(f, "carol", &f->carol);
	new_user(f, "dave", &f->dave);
	new_user(f, "eve", &f->eve);
	f->org = (struct org){ .title = "Members", .email_domains = "[]", .default_role = ROLE_READ };
	CHECK(store_org_create(&f->tx, &f->org, f->alice.id) == 0);
	CHECK(store_member_add(&f->tx, f->org.id, f->bob.id, ROLE_READ, 0, &added) == 0 && added);
	CHECK(store_member_add(&f->tx, f->org.id, f->carol.id, ROLE_EDIT, 0, &added) == 0 && added);
	CHECK(store_member_add(&f->tx, f->org.id, f->dave.id, ROLE_GUEST, 0, &added) == 0 && added);
	new_team(f, "Core", &f->core);
	new_team(f, "Writers", &f->writers);
	new_team(f, "Guests", &f->guests);
	CHECK(store_team_member_set(&f->tx, f->core.id, f->org.id, f->bob.id, TEAM_MEMBER) == 0);
	CHECK(store_team_member_set(&f->tx, f->writers.id, f->org.id, f->carol.id, TEAM_OWNER) == 0);
	CHECK(store_team_member_set(&f->tx, f->guests.id, f->org.id, f->dave.id, TEAM_OWNER) == 0);
	CHECK(store_tx_commit(&f->tx) == 0);
}

static enum role role_of(struct fx *f, const struct user *u)
{
	struct membership m;

	CHECK(store_membership(&f->tx, f->org.id, u->id, &m) == 0);
	return m.role;
}

static int team_role_of(struct fx *f, const struct team *t, const struct user *u)
{
	int role = -2;

	CHECK(store_team_member_role(&f->tx, t->id, u->id, &role) == 0);
	return role;
}

static bool message_is(const char *want)
{
	return strcmp(err_message(), want) == 0;
}

/* eve belongs to no organization: every operation on it is "not found". */
static void outsiders(struct fx *f)
{
	struct list_req lr = { .limit = 100, .desc = 1 };
	struct member_filter mf = { 0 };
	struct team_filter tf = { 0 };
	struct member_input in = { .has_role = true, .role = ROLE_ADMIN };
	struct team_members_input tin = { 0 };
	const char *add[] = { NULL };
	struct member *members, m;
	struct dom_team *teams, t;
	struct team_member_row *rows;
	const char *jwt;
	char *next;
	bool removed;
	int n;

	add[0] = f->eve.id;
	tin.add = add;
	tin.nadd = 1;
	CHECK(store_tx_begin(f->s, &f->tx, 1, &f->a) == 0);
	CHECK(dom_members_list(as(f, &f->eve), f->org.id, &mf, &lr, &members, &n, &next) == ERR_NOT_FOUND);
	CHECK(dom_member_get(as(f, &f->eve), f->org.id, f->bob.id, &m) == ERR_NOT_FOUND);
	CHECK(dom_member_update(as(f, &f->eve), f->org.id, f->eve.id, &in, &m) == ERR_NOT_FOUND);
	CHECK(dom_member_remove(as(f, &f->eve), f->org.id, f->bob.id, &removed) == ERR_NOT_FOUND && !removed);
	CHECK(dom_member_set_sso(as(f, &f->eve), f->org.id, f->eve.id, &m) == ERR_NOT_FOUND);
	CHECK(dom_member_ping(as(f, &f->eve), f->org.id, &jwt) == ERR_NOT_FOUND && !jwt);
	CHECK(dom_member_teams(as(f, &f->eve), f->org.id, f->bob.id, NULL, &lr, &teams, &n, &next) == ERR_NOT_FOUND);
	CHECK(dom_teams_list(as(f, &f->eve), f->org.id, &tf, &lr, &teams, &n, &next) == ERR_NOT_FOUND);
	CHECK(dom_team_get(as(f, &f->eve), f->org.id, f->core.id, &t) == ERR_NOT_FOUND);
	CHECK(dom_team_members(as(f, &f->eve), f->org.id, f->core.id, &lr, &rows, &n, &next) == ERR_NOT_FOUND);
	CHECK(dom_team_create(as(f, &f->eve), f->org.id, "Mine", NULL, 0, &t) == ERR_NOT_FOUND);
	CHECK(dom_team_members_update(as(f, &f->eve), f->org.id, f->core.id, &tin) == ERR_NOT_FOUND);
	CHECK(dom_team_member_set(as(f, &f->eve), f->org.id, f->core.id, f->eve.id, TEAM_OWNER) == ERR_NOT_FOUND);
	CHECK(dom_team_member_remove(as(f, &f->eve), f->org.id, f->core.id, f->bob.id, &removed) == ERR_NOT_FOUND);
	CHECK(message_is("organization not found"));
	/* Nothing changed. */
	CHECK(role_of(f, &f->eve) == ROLE_NONE);
	CHECK(role_of(f, &f->bob) == ROLE_READ);
	CHECK(team_role_of(f, &f->core, &f->bob) == TEAM_MEMBER);
	CHECK(team_role_of(f, &f->core, &f->eve) == -1);
	CHECK(store_tx_commit(&f->tx) == 0);
}

/* Members below admin read members and teams but change neither; guests
 * read neither. */
static void members_and_guests(struct fx *f)
{
	struct list_req lr = { .limit = 100, .desc = 1 };
	struct member_filter mf = { 0 };
	struct team_filter tf = { 0 };
	struct member_input promote = { .has_role = true, .role = ROLE_ADMIN };
	struct member *members, m;
	struct dom_team *teams, t;
	char *next;
	bool removed;
	int n;

	CHECK(store_tx_begin(f->s, &f->tx, 1, &f->a) == 0);
	CHECK(dom_members_list(as(f, &f->bob), f->org.id, &mf, &lr, &members, &n, &next) == 0 && n == 4);
	CHECK(dom_member_get(as(f, &f->bob), f->org.id, f->carol.id, &m) == 0 && m.role == ROLE_EDIT);
	CHECK_STR(m.user.id, f->carol.id);
	CHECK(dom_member_get(as(f, &f->bob), f->org.id, f->eve.id, &m) == ERR_NOT_FOUND);
	CHECK(dom_teams_list(as(f, &f->bob), f->org.id, &tf, &lr, &teams, &n, &next) == 0 && n == 3);
	for (int i = 0; i < n; i++)
		CHECK(!teams[i].actor_owns);

	CHECK(dom_member_update(as(f, &f->bob), f->org.id, f->bob.id, &promote, &m) == ERR_FORBIDDEN);
	CHECK(message_is("only organization admins can do this"));
	CHECK(dom_member_update(as(f, &f->carol), f->org.id, f->dave.id, &promote, &m) == ERR_FORBIDDEN);
	CHECK(dom_member_remove(as(f, &f->bob), f->org.id, f->carol.id, &removed) == ERR_FORBIDDEN && !removed);
	CHECK(dom_member_set_sso(as(f, &f->bob), f->org.id, f->bob.id, &m) == ERR_FORBIDDEN);
	CHECK(dom_team_create(as(f, &f->bob), f->org.id, "Mine", NULL, 0, &t) == ERR_FORBIDDEN);
	CHECK(dom_team_rename(as(f, &f->bob), f->org.id, f->core.id, "Renamed", &t) == ERR_FORBIDDEN);
	CHECK(dom_team_delete(as(f, &f->bob), f->org.id, f->core.id, &removed) == ERR_FORBIDDEN && !removed);
	/* A team owner is no admin: renaming and deleting their team is not theirs. */
	CHECK(dom_team_rename(as(f, &f->carol), f->org.id, f->writers.id, "Renamed", &t) == ERR_FORBIDDEN);
	CHECK(dom_team_delete(as(f, &f->carol), f->org.id, f->writers.id, &removed) == ERR_FORBIDDEN);

	/* Guests (dave) may not list members or teams. */
	CHECK(dom_members_list(as(f, &f->dave), f->org.id, &mf, &lr, &members, &n, &next) == ERR_FORBIDDEN);
	CHECK(dom_teams_list(as(f, &f->dave), f->org.id, &tf, &lr, &teams, &n, &next) == ERR_FORBIDDEN);
	CHECK(dom_member_update(as(f, &f->dave), f->org.id, f->dave.id, &promote, &m) == ERR_FORBIDDEN);

	/* Nothing changed. */
	CHECK(role_of(f, &f->bob) == ROLE_READ);
	CHECK(role_of(f, &f->carol) == ROLE_EDIT);
	CHECK(role_of(f, &f->dave) == ROLE_GUEST);
	CHECK(dom_team_get(as(f, &f->alice), f->org.id, f->writers.id, &t) == 0);
	CHECK_STR(t.team.title, "Writers");
	CHECK(dom_teams_list(as(f, &f->alice), f->org.id, &tf, &lr, &teams, &n, &next) == 0 && n == 3);
	CHECK(store_member_get(&f->tx, f->org.id, f->bob.id, &m) == 0 && !m.sso);
	CHECK(store_tx_commit(&f->tx) == 0);
}

/* The organization keeps an admin: the last one can be neither demoted nor
 * removed; with a second admin, the first steps down. */
static void last_admin(struct fx *f)
{
	struct member_input demote = { .has_role = true, .role = ROLE_READ };
	struct member_input guest = { .has_role = true, .role = ROLE_GUEST };
	struct member_input admin = { .has_role = true, .role = ROLE_ADMIN };
	struct member_input nothing = { 0 };
	struct member m;
	bool removed;

	CHECK(store_tx_begin(f->s, &f->tx, 1, &f->a) == 0);
	CHECK(dom_member_update(as(f, &f->alice), f->org.id, f->alice.id, &demote, &m) == ERR_INVALID);
	CHECK(message_is("the organization must keep at least one admin"));
	CHECK(dom_member_update(as(f, &f->alice), f->org.id, f->alice.id, &guest, &m) == ERR_INVALID);
	CHECK(message_is("the organization must keep at least one admin"));
	CHECK(dom_member_remove(as(f, &f->alice), f->org.id, f->alice.id, &removed) == ERR_INVALID && !removed);
	CHECK(message_is("the organization must keep at least one admin"));
	/* docsd itself is held to the same rule. */
	CHECK(dom_member_update(as(f, NULL), f->org.id, f->alice.id, &demote, &m) == ERR_INVALID);
	CHECK(dom_member_remove(as(f, NULL), f->org.id, f->alice.id, &removed) == ERR_INVALID);
	/* Making an admin an admin again is no demotion. */
	CHECK(dom_member_update(as(f, &f->alice), f->org.id, f->alice.id, &admin, &m) == 0 && m.role == ROLE_ADMIN);
	/* No role given: the member as it is. */
	CHECK(dom_member_update(as(f, &f->alice), f->org.id, f->bob.id, &nothing, &m) == 0 && m.role == ROLE_READ);
	CHECK(dom_member_update(as(f, &f->alice), f->org.id, f->eve.id, &nothing, &m) == ERR_NOT_FOUND);
	CHECK(dom_member_update(as(f, &f->alice), f->org.id, f->eve.id, &demote, &m) == ERR_NOT_FOUND);
	CHECK(role_of(f, &f->alice) == ROLE_ADMIN);

	/* With bob an admin too, alice steps down, and then bob is the last. */
	CHECK(dom_member_update(as(f, &f->alice), f->org.id, f->bob.id, &admin, &m) == 0 && m.role == ROLE_ADMIN);
	CHECK_STR(m.user.id, f->bob.id);
	CHECK(dom_member_update(as(f, &f->alice), f->org.id, f->alice.id, &demote, &m) == 0 && m.role == ROLE_READ);
	CHECK(role_of(f, &f->alice) == ROLE_READ);
	CHECK(dom_member_remove(as(f, &f->bob), f->org.id, f->bob.id, &removed) == ERR_INVALID);
	CHECK(message_is("the organization must keep at least one admin"));
	CHECK(role_of(f, &f->bob) == ROLE_ADMIN);

	/* Back as it was: alice the only admin, bob a reader. */
	CHECK(dom_member_update(as(f, &f->bob), f->org.id, f->alice.id, &admin, &m) == 0);
	CHECK(dom_member_update(as(f, &f->alice), f->org.id, f->bob.id, &demote, &m) == 0 && m.role == ROLE_READ);
	CHECK(role_of(f, &f->alice) == ROLE_ADMIN && role_of(f, &f->bob) == ROLE_READ);
	CHECK(store_tx_commit(&f->tx) == 0);
}

static bool team_has(struct fx *f, const struct team *t, const struct user *u, int role)
{
	return team_role_of(f, t, u) == role;
}

/* A team's owners manage its memberships, and no other team's. */
static void team_owners(struct fx *f)
{
	struct list_req lr = { .limit = 100, .desc = 1 };
	struct team_filter tf = { 0 };
	const char *bob_by_email[] = { f->bob.email }, *eve_only[] = { f->eve.id }, *bob_only[] = { f->bob.id };
	struct team_membership own = { f->bob.id, TEAM_OWNER };
	struct team_members_input add_bob = { .add = bob_by_email, .nadd = 1 };
	struct team_members_input add_eve = { .add = eve_only, .nadd = 1 };
	struct team_members_input set_owner = { .set = &own, .nset = 1 };
	struct team_members_input remove_bob = { .remove = bob_only, .nremove = 1 };
	struct dom_team t, *teams;
	char *next;
	bool removed;
	int n;

	CHECK(store_tx_begin(f->s, &f->tx, 1, &f->a) == 0);
	/* The permission the team shows: carol owns Writers, not Core. */
	CHECK(dom_team_get(as(f, &f->carol), f->org.id, f->writers.id, &t) == 0 && t.actor_owns);
	CHECK(dom_team_get(as(f, &f->carol), f->org.id, f->core.id, &t) == 0 && !t.actor_owns);
	CHECK(dom_teams_list(as(f, &f->carol), f->org.id, &tf, &lr, &teams, &n, &next) == 0 && n == 3);
	for (int i = 0; i < n; i++)
		CHECK(teams[i].actor_owns == (strcmp(teams[i].team.id, f->writers.id) == 0));

	/* carol adds bob (by email) to Writers, makes him an owner, removes him. */
	CHECK(dom_team_members_update(as(f, &f->carol), f->org.id, f->writers.id, &add_bob) == 0);
	CHECK(team_has(f, &f->writers, &f->bob, TEAM_MEMBER));
	CHECK(dom_team_members_update(as(f, &f->carol), f->org.id, f->writers.id, &set_owner) == 0);
	CHECK(team_has(f, &f->writers, &f->bob, TEAM_OWNER));
	/* Adding someone already in the team keeps their role. */
	CHECK(dom_team_members_update(as(f, &f->carol), f->org.id, f->writers.id, &add_bob) == 0);
	CHECK(team_has(f, &f->writers, &f->bob, TEAM_OWNER));
	CHECK(dom_team_members_update(as(f, &f->carol), f->org.id, f->writers.id, &remove_bob) == 0);
	CHECK(team_has(f, &f->writers, &f->bob, -1));
	CHECK(dom_team_member_set(as(f, &f->carol), f->org.id, f->writers.id, f->bob.id, TEAM_MEMBER) == 0);
	CHECK(team_has(f, &f->writers, &f->bob, TEAM_MEMBER));
	CHECK(dom_team_member_remove(as(f, &f->carol), f->org.id, f->writers.id, f->bob.id, &removed) == 0 && removed);
	CHECK(dom_team_member_remove(as(f, &f->carol), f->org.id, f->writers.id, f->bob.id, &removed) == 0 && !removed);
	CHECK(team_has(f, &f->writers, &f->bob, -1));

	/* A user who is not a member of the organization joins no team. */
	CHECK(dom_team_members_update(as(f, &f->carol), f->org.id, f->writers.id, &add_eve) == ERR_INVALID);
	CHECK(strstr(err_message(), "add[0]") && strstr(err_message(), "is not a member of the organization"));
	CHECK(dom_team_member_set(as(f, &f->carol), f->org.id, f->writers.id, f->eve.id, TEAM_MEMBER) == ERR_NOT_FOUND);
	CHECK(team_has(f, &f->writers, &f->eve, -1));

	/* Core is not carol's: every change of it is forbidden, and nothing changes. */
	CHECK(dom_team_members_update(as(f, &f->carol), f->org.id, f->core.id, &add_bob) == ERR_FORBIDDEN);
	CHECK(message_is("only organization admins and the team's owners can change its members"));
	CHECK(dom_team_members_update(as(f, &f->carol), f->org.id, f->core.id, &remove_bob) == ERR_FORBIDDEN);
	CHECK(dom_team_member_set(as(f, &f->carol), f->org.id, f->core.id, f->carol.id, TEAM_OWNER) == ERR_FORBIDDEN);
	CHECK(dom_team_member_remove(as(f, &f->carol), f->org.id, f->core.id, f->bob.id, &removed) == ERR_FORBIDDEN &&
	      !removed);
	CHECK(team_has(f, &f->core, &f->bob, TEAM_MEMBER));
	CHECK(team_has(f, &f->core, &f->carol, -1));
	/* bob, a plain member of Core, does not manage it either. */
	CHECK(dom_team_member_set(as(f, &f->bob), f->org.id, f->core.id, f->carol.id, TEAM_MEMBER) == ERR_FORBIDDEN);
	CHECK(team_has(f, &f->core, &f->carol, -1));
	/* An unknown team is not found, for its owner-to-be as for the admin. */
	CHECK(dom_team_member_set(as(f, &f->carol), f->org.id, "nosuchteam0000000000", f->bob.id, TEAM_MEMBER) ==
	      ERR_NOT_FOUND);
	CHECK(dom_team_members_update(as(f, &f->alice), f->org.id, "nosuchteam0000000000", &add_bob) == ERR_NOT_FOUND);

	/* dave, a guest, manages the team he owns. */
	CHECK(dom_team_member_set(as(f, &f->dave), f->org.id, f->guests.id, f->bob.id, TEAM_MEMBER) == 0);
	CHECK(team_has(f, &f->guests, &f->bob, TEAM_MEMBER));
	CHECK(dom_team_member_remove(as(f, &f->dave), f->org.id, f->guests.id, f->bob.id, &removed) == 0 && removed);
	CHECK(dom_team_member_set(as(f, &f->dave), f->org.id, f->core.id, f->dave.id, TEAM_MEMBER) == ERR_FORBIDDEN);

	/* The admin manages every team. */
	CHECK(dom_team_member_set(as(f, &f->alice), f->org.id, f->core.id, f->carol.id, TEAM_OWNER) == 0);
	CHECK(team_has(f, &f->core, &f->carol, TEAM_OWNER));
	CHECK(dom_team_member_remove(as(f, &f->alice), f->org.id, f->core.id, f->carol.id, &removed) == 0 && removed);
	CHECK(store_tx_commit(&f->tx) == 0);
}

/* Users are visible to themselves and to those they share an organization
 * with. */
static void users(struct fx *f)
{
	struct user u;

	CHECK(store_tx_begin(f->s, &f->tx, 0, &f->a) == 0);
	CHECK(dom_user_get(as(f, &f->bob), f->eve.id, &u) == ERR_NOT_FOUND);
	CHECK(message_is("user not found"));
	CHECK(dom_user_get(as(f, &f->eve), f->bob.id, &u) == ERR_NOT_FOUND);
	CHECK(dom_user_get(as(f, &f->bob), "nosuchuser0000000000", &u) == ERR_NOT_FOUND);
	CHECK(dom_user_get(as(f, &f->bob), f->alice.id, &u) == 0);
	CHECK_STR(u.id, f->alice.id);
	CHECK_STR(u.email, f->alice.email);
	CHECK(dom_user_get(as(f, &f->dave), f->carol.id, &u) == 0);
	CHECK_STR(u.id, f->carol.id);
	CHECK(dom_user_get(as(f, &f->eve), f->eve.id, &u) == 0);
	CHECK_STR(u.id, f->eve.id);
	CHECK(dom_user_self(as(f, &f->eve), &u) == 0);
	CHECK_STR(u.email, f->eve.email);
	/* docsd itself sees every user and is none. */
	CHECK(dom_user_get(as(f, NULL), f->eve.id, &u) == 0);
	CHECK_STR(u.id, f->eve.id);
	CHECK(dom_user_self(as(f, NULL), &u) == ERR_NOT_FOUND);
	store_tx_rollback(&f->tx);
}

/* docsd itself (jobs, the CLI) acts as an organization admin. */
static void docsd_itself(struct fx *f)
{
	struct list_req lr = { .limit = 100, .desc = 1 };
	struct member_filter mf = { .role = "guest" };
	struct member_input edit = { .has_role = true, .role = ROLE_EDIT }, guest = { .has_role = true, .role = ROLE_GUEST };
	const char *members[] = { f->carol.id, f->dave.email };
	struct member *items, m;
	struct dom_team t, *teams;
	struct team_member_row *rows;
	const char *jwt;
	char *next;
	bool removed;
	int n;

	CHECK(store_tx_begin(f->s, &f->tx, 1, &f->a) == 0);
	CHECK(dom_members_list(as(f, NULL), f->org.id, &mf, &lr, &items, &n, &next) == 0 && n == 1);
	CHECK_STR(items[0].user.id, f->dave.id);
	CHECK(dom_member_update(as(f, NULL), f->org.id, f->dave.id, &edit, &m) == 0 && m.role == ROLE_EDIT);
	CHECK(role_of(f, &f->dave) == ROLE_EDIT);
	CHECK(dom_member_update(as(f, NULL), f->org.id, f->dave.id, &guest, &m) == 0 && m.role == ROLE_GUEST);
	CHECK(dom_member_set_sso(as(f, NULL), f->org.id, f->carol.id, &m) == 0 && m.sso && m.role == ROLE_EDIT);

	CHECK(dom_team_create(as(f, NULL), f->org.id, "By docsd", members, 2, &t) == 0);
	CHECK_STR(t.team.title, "By docsd");
	CHECK(t.team.members == 2 && !t.actor_owns);
	CHECK(dom_team_members(as(f, NULL), f->org.id, t.team.id, &lr, &rows, &n, &next) == 0 && n == 2);
	CHECK(team_has(f, &t.team, &f->dave, TEAM_MEMBER));
	CHECK(dom_team_rename(as(f, NULL), f->org.id, t.team.id, "Renamed", &t) == 0);
	CHECK_STR(t.team.title, "Renamed");
	CHECK(dom_member_teams(as(f, NULL), f->org.id, f->dave.id, NULL, &lr, &teams, &n, &next) == 0 && n == 2);
	CHECK(dom_team_delete(as(f, NULL), f->org.id, t.team.id, &removed) == 0 && removed);
	CHECK(dom_team_get(as(f, NULL), f->org.id, t.team.id, &t) == ERR_NOT_FOUND);
	CHECK(dom_team_delete(as(f, NULL), f->org.id, t.team.id, &removed) == 0 && !removed);
	/* docsd has no membership to record or sign. */
	CHECK(dom_member_ping(as(f, NULL), f->org.id, &jwt) == ERR_INVALID && !jwt);

	/* A team whose members do not all resolve is not created. */
	members[1] = f->eve.email;
	CHECK(dom_team_create(as(f, NULL), f->org.id, "Half", members, 2, &t) == ERR_INVALID);
	CHECK(strstr(err_message(), "members[1]") != NULL);
	CHECK(dom_teams_list(as(f, NULL), f->org.id, &(struct team_filter){ .title = "Half" }, &lr, &teams, &n,
			     &next) == 0 &&
	      n == 0);
	CHECK(store_tx_commit(&f->tx) == 0);
}

/* Removing members: 0 with removed false for someone who is not one; their
 * team memberships go with them. */
static void removal(struct fx *f)
{
	struct member m;
	struct user frank;
	bool removed, added;

	CHECK(store_tx_begin(f->s, &f->tx, 1, &f->a) == 0);
	new_user(f, "frank", &frank);
	CHECK(store_member_add(&f->tx, f->org.id, frank.id, ROLE_EDIT, 0, &added) == 0 && added);
	CHECK(store_team_member_set(&f->tx, f->core.id, f->org.id, frank.id, TEAM_OWNER) == 0);
	CHECK(dom_member_remove(as(f, &f->alice), f->org.id, frank.id, &removed) == 0 && removed);
	CHECK(role_of(f, &frank) == ROLE_NONE);
	CHECK(team_has(f, &f->core, &frank, -1));
	CHECK(dom_member_get(as(f, &f->alice), f->org.id, frank.id, &m) == ERR_NOT_FOUND);
	CHECK(dom_member_remove(as(f, &f->alice), f->org.id, frank.id, &removed) == 0 && !removed);
	CHECK(dom_member_remove(as(f, &f->alice), f->org.id, "nosuchuser0000000000", &removed) == 0 && !removed);
	CHECK(store_tx_commit(&f->tx) == 0);
}

/* A ping records lastSeenAt and signs the member's visitor claims with the
 * server's secret. */
static void ping(struct fx *f)
{
	const char *jwt, *secret, *dot1, *dot2;
	unsigned char mac[32], payload[512];
	char sig[64], *want;
	struct member m;
	int64_t t0 = clock_now_ms();
	long len;

	CHECK(store_tx_begin(f->s, &f->tx, 1, &f->a) == 0);
	CHECK(store_member_get(&f->tx, f->org.id, f->dave.id, &m) == 0 && m.last_seen_at == 0);
	CHECK(dom_member_ping(as(f, &f->dave), f->org.id, &jwt) == 0 && jwt);
	CHECK(store_member_get(&f->tx, f->org.id, f->dave.id, &m) == 0 && m.last_seen_at >= t0);
	dot1 = jwt ? strchr(jwt, '.') : NULL;
	dot2 = dot1 ? strchr(dot1 + 1, '.') : NULL;
	CHECK(dot1 && dot2 && !strchr(dot2 + 1, '.'));
	if (dot1 && dot2) {
		len = base64url_decode(payload, dot1 + 1, (size_t)(dot2 - dot1 - 1));
		CHECK(len > 0 && len < (long)sizeof(payload) - 1);
		if (len > 0 && len < (long)sizeof(payload) - 1) {
			payload[len] = '\0';
			want = arena_printf(&f->a, "{\"sub\":\"%s\",\"org\":\"%s\",\"role\":\"guest\",", f->dave.id,
					    f->org.id);
			CHECK(want && strncmp((const char *)payload, want, strlen(want)) == 0);
			CHECK(strstr((const char *)payload, "\"exp\":") != NULL);
		}
		/* The signature is HMAC-SHA256 of header.payload with the "jwt" secret. */
		CHECK(store_secret_get(&f->tx, "jwt", &secret) == 0);
		CHECK(hmac_sha256(mac, secret, strlen(secret), jwt, (size_t)(dot2 - jwt)) == 0);
		base64url_encode(sig, mac, sizeof(mac));
		CHECK_STR(dot2 + 1, sig);
	}
	CHECK(store_tx_commit(&f->tx) == 0);
}

static void domain_members_suite(struct store *s)
{
	struct fx f;

	fx_open(&f, s);
	outsiders(&f);
	members_and_guests(&f);
	last_admin(&f);
	team_owners(&f);
	users(&f);
	docsd_itself(&f);
	removal(&f);
	ping(&f);
	arena_free(&f.a);
}

UNIT_TEST_ON_ENGINES(domain_members, domain_members_suite)
