/*
 * members.h - an organization's members, its teams and their memberships, and
 * users: the operations of domain/members.c, domain/teams.c and
 * domain/users.c.
 *
 * DESIGN
 * Access is the actor's organization role (model/roles.h), checked by each
 * function once, with dom_org_require (the standing is loaded once per
 * transaction: no query when the dispatcher loaded it already):
 *   - reading members, teams and team memberships needs a member with a role
 *     (ORG_ACCESS_MEMBER: guests get 403, outsiders 404);
 *   - changing a member (role, removal, SSO) and creating, renaming or
 *     deleting a team needs an admin;
 *   - a team's memberships are changed by admins and by that team's owners
 *     (team_can_manage), guests included when they own it;
 *   - any member, guests included, may ping (lastSeenAt, visitor claims).
 * docsd itself (actor user_id NULL: jobs, the CLI) is admin everywhere.
 *
 * The organization keeps at least one admin: demoting or removing the last
 * one is ERR_INVALID ("the organization must keep at least one admin"); the
 * check holds the organization's lock (store_org_lock) so that two admins
 * demoting each other at once cannot leave none.
 *
 * Users are visible to themselves and to the members of the organizations
 * they belong to; to anyone else a user does not exist (404).
 *
 * Every store function that changes a member or a team membership bumps the
 * organization's generation (store_org_bump), which the page cache of the
 * member list is keyed on.
 */
#ifndef DOCSD_DOMAIN_MEMBERS_H
#define DOCSD_DOMAIN_MEMBERS_H

#include <stdbool.h>

#include "domain/domain.h"


/* ---- members (domain/members.c) ---- */

/* Members of org_id, filtered and sorted (store's member_filter). */
int dom_members_list(struct dom *d, const char *org_id, const struct member_filter *f, const struct list_req *lr,
		     struct member **items, int *n, char **next);
/* ERR_NOT_FOUND when user_id is not a member. */
int dom_member_get(struct dom *d, const char *org_id, const char *user_id, struct member *out);

/* What a change of a member sets: has_role false leaves the member as it is
 * (the member is still looked up). role ROLE_GUEST makes them a guest. */
struct member_input {
	bool has_role;
	enum role role;
};
int dom_member_update(struct dom *d, const char *org_id, const char *user_id, const struct member_input *in,
		      struct member *out);
/* Remove a member and their team memberships in org_id; *removed = false (and
 * 0) when user_id was not a member. */
int dom_member_remove(struct dom *d, const char *org_id, const char *user_id, bool *removed);
/* Mark user_id an SSO member of org_id; a user who is not a member yet joins
 * with the organization's defaultRole. ERR_NOT_FOUND for an unknown user. */
int dom_member_set_sso(struct dom *d, const char *org_id, const char *user_id, struct member *out);
/* Record that the actor was seen in org_id now, and sign a short-lived
 * HS256 JWT naming them (sub, org, role, iat, exp: one hour) with the
 * server's "jwt" secret: GitBook's visitor claims. docsd itself cannot (ERR_INVALID). */
int dom_member_ping(struct dom *d, const char *org_id, const char **jwt);

/* ---- teams (domain/teams.c) ---- */

/* A team with what the actor may do with it. */
struct dom_team {
	struct team team;
	enum team_role role; /* the member's role in it (dom_member_teams) */
	bool actor_owns;     /* the actor is one of its owners (admins are not asked) */
};
/* The teams member user_id of org_id is in (title: a case-insensitive
 * filter, or NULL). ERR_NOT_FOUND when user_id is not a member. */
int dom_member_teams(struct dom *d, const char *org_id, const char *user_id, const char *title,
		     const struct list_req *lr, struct dom_team **items, int *n, char **next);

int dom_teams_list(struct dom *d, const char *org_id, const struct team_filter *f, const struct list_req *lr,
		   struct dom_team **items, int *n, char **next);
int dom_team_get(struct dom *d, const char *org_id, const char *team_id, struct dom_team *out);
/* A team titled `title` with members[0..nmembers) (user ids or emails of
 * members of org_id: else ERR_INVALID naming members[i], and no team). */
int dom_team_create(struct dom *d, const char *org_id, const char *title, const char *const *members, int nmembers,
		    struct dom_team *out);
int dom_team_rename(struct dom *d, const char *org_id, const char *team_id, const char *title, struct dom_team *out);
/* 0 whether or not the team existed (*removed says which). */
int dom_team_delete(struct dom *d, const char *org_id, const char *team_id, bool *removed);
/* The members of a team, with their role in it. */
int dom_team_members(struct dom *d, const char *org_id, const char *team_id, const struct list_req *lr,
		     struct team_member_row **items, int *n, char **next);

/* A change of a team's memberships (updateMembersInOrganizationTeam). Users
 * are given by id or by email and must be members of the organization (else
 * ERR_INVALID naming the field and index). add: join as a member (someone
 * already in the team keeps their role); set: join or change role; remove:
 * leave. Applied in that order. */
struct team_membership {
	const char *user; /* id or email */
	enum team_role role;
};
struct team_members_input {
	const char *const *add;
	int nadd;
	const struct team_membership *set;
	int nset;
	const char *const *remove;
	int nremove;
};
int dom_team_members_update(struct dom *d, const char *org_id, const char *team_id,
			    const struct team_members_input *in);
/* Put member `user` (id or email; not a member of org_id: ERR_NOT_FOUND) in
 * the team with `role`, or change their role there. */
int dom_team_member_set(struct dom *d, const char *org_id, const char *team_id, const char *user, enum team_role role);
/* *removed = false (and 0) when user_id was not in the team. */
int dom_team_member_remove(struct dom *d, const char *org_id, const char *team_id, const char *user_id,
			   bool *removed);

/* ---- users (domain/users.c) ---- */

/* The actor's own user. ERR_UNAUTHORIZED when it no longer exists; docsd
 * itself has none (ERR_NOT_FOUND). */
int dom_user_self(struct dom *d, struct user *out);
/* A user the actor may see: themselves, or someone sharing an organization
 * with them (docsd itself sees everyone); else ERR_NOT_FOUND. */
int dom_user_get(struct dom *d, const char *user_id, struct user *out);

#endif
