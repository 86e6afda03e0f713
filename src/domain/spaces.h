/*
 * spaces.h - spaces, collections and the grants on them: the operations of
 * domain/spaces.c, domain/collections.c and domain/grants.c.
 *
 * DESIGN
 * Access follows model/access.h. Reading needs read on the object. Its
 * settings, its lifecycle (delete, restore), moving it, transferring it and
 * managing its permissions need ACCESS_MANAGE (the create role: a content
 * admin) on it. Creating, duplicating, moving or transferring into a place
 * needs create there: on the collection, or in the organization (the
 * member's own role) at the top level; a transfer needs it in the target
 * organization. Each function checks once, for the operation as a whole,
 * then applies the rules and calls the store.
 *
 * Requests arrive parsed (api/ checks the shape of each field); these
 * functions check what needs the store (a parent is a collection of the
 * organization, a position names a sibling, nesting depth, cycles) and what
 * depends on the object (a deleted space takes no change but restore).
 * Results are reloaded after the change, with the actor's role on them in
 * `access` (dom_access_changed: a creator's grant changes it).
 */
#ifndef DOCSD_DOMAIN_SPACES_H
#define DOCSD_DOMAIN_SPACES_H

#include <stdbool.h>

#include "domain/domain.h"
#include "domain/events.h"

/* ---- what spaces and collections share (domain/collections.c) ---- */

enum dom_kind { DOM_SPACE, DOM_COLLECTION };

/* A space or a collection with the actor's role on it. */
struct dom_object {
	enum dom_kind kind;
	const char *id;
	const char *org_id;
	const char *parent_id; /* NULL at the top level */
	enum role access;
	struct space space;           /* kind DOM_SPACE */
	struct collection collection; /* kind DOM_COLLECTION */
};

/* parent_id (NULL: the top level) is a collection of org_id: else ERR_INVALID. */
int dom_parent_check(struct dom *d, const char *org_id, const char *parent_id);
/* The actor has create in parent_id of org_id (NULL: the organization's top
 * level) to do `what` there: ERR_FORBIDDEN, or ERR_INVALID for a collection
 * the actor does not read (as for one that does not exist). */
int dom_may_create(struct dom *d, const char *org_id, const char *parent_id, const char *what);

/* Load a space or collection and require `need` on it (404 without read, 403
 * below need). A deleted space loads. */
int dom_object_get(struct dom *d, enum dom_kind kind, const char *id, enum role need, struct dom_object *out);

/* Delete a space (it becomes a deleted space, restorable for 7 days) or a
 * collection (with the collections in it; its spaces become deleted spaces).
 * 0 also when there is no such object: the seed answers 204 either way. */
int dom_object_delete(struct dom *d, enum dom_kind kind, const char *id);

/* Where a move puts an item: a parent (has_parent; parent_id NULL is the top
 * level) and/or a sibling it goes before or after (ref_id, a space or
 * collection; its parent is the parent when none is given). */
struct dom_place {
	bool has_parent;
	const char *parent_id;
	const char *ref_id;
	bool after;
};

/* Move an item within its organization. ERR_INVALID when the place is not
 * one (unknown parent or sibling, a collection into itself or below itself,
 * nesting deeper than ACCESS_MAX_DEPTH), ERR_CONFLICT when the move changes
 * nothing. out: the item after the move. */
int dom_object_move(struct dom *d, enum dom_kind kind, const char *id, const struct dom_place *p,
		     struct dom_object *out);

/* Transfer an item to the top level of organization org_id, or for a space
 * into parent_id there (NULL for a collection). Within the item's own
 * organization a space's transfer is a move (grants stay); to another
 * organization, team grants and the grants of users who are not members there
 * stay behind. 404 when the actor is not a member of org_id, 403 without
 * create there, 412 for a deleted space, 409 when nothing would change. */
int dom_object_transfer(struct dom *d, enum dom_kind kind, const char *id, const char *org_id,
			const char *parent_id, struct dom_object *out);

/* ---- spaces (domain/spaces.c) ---- */

/* The settings of a space a request sets. NULL strings and false has_* leave
 * a field unchanged (on create: its default). */
/* updateSpaceById's and updateCollectionById's bounds, shared by the API's
 * parse (api/spaces.c, api/collections.c) and the web interface's settings
 * forms. */
#define SPACE_TITLE_MAX 50
#define SPACE_EMOJI_MAX 50
#define COLLECTION_TITLE_MAX 50
#define COLLECTION_DESCRIPTION_MAX 100

struct space_input {
	const char *title;
	const char *language;
	const char *edit_mode;   /* live | locked */
	const char *visibility;  /* update only */
	const char *merge_rules; /* compact JSON (update only) */
	bool has_emoji, has_icon, has_level;
	const char *emoji; /* with has_emoji: NULL removes it */
	const char *icon;  /* with has_icon: NULL removes it; an emoji and an icon exclude each other */
	int default_level; /* with has_level (update only) */
	const char *parent_id; /* create only: the collection, NULL for the top level */
};

/* Create a space in org_id; the actor, unless an organization admin, gets an
 * admin grant on it. */
int dom_space_create(struct dom *d, const char *org_id, const struct space_input *in, struct space *out);
int dom_space_update(struct dom *d, const char *space_id, const struct space_input *in, struct space *out);
/* ERR_CONFLICT when not deleted, ERR_NOT_FOUND when deleted past the retention. */
int dom_space_restore(struct dom *d, const char *space_id, struct space *out);
/* A copy placed right after the space, with its settings and grants; the
 * duplicator needs read on it and create where it lives. */
int dom_space_duplicate(struct dom *d, const char *space_id, struct space *out);

/* Live spaces of organization org_id (collection_id NULL; sorted by creation)
 * or of a collection the actor reads (org_id ignored; by position), the ones
 * the actor reads, each with the actor's role in `access`. */
int dom_spaces_list(struct dom *d, const char *org_id, const char *collection_id, const struct list_req *lr,
		    struct space **items, int *n, char **next);

/* The spaces member user_id of org_id reads, with their role on each
 * (`permission`); space.access is the actor's role. Only organization admins
 * may ask about another member. */
struct member_space {
	struct space space;
	enum role permission;
};
int dom_member_spaces(struct dom *d, const char *org_id, const char *user_id, const struct list_req *lr,
		      struct member_space **items, int *n, char **next);

/* ---- a space's current revision (domain/spaces.c) ---- */

/* Make `now` the current revision of s (read locked: s->revision is the one
 * it replaces; ERR_CONFLICT when it moved since) and bring the search index
 * along, then publish "the space's content advanced" (domain/events.h) with
 * `cause` and, for a merge, the change request merged (else NULL): the
 * subscribers write in the caller's transaction. */
int dom_space_advance_by(struct dom *d, const struct space *s, const struct revision *now,
			 enum space_advance_cause cause, const struct change_request *cr);
/* dom_space_advance_by for content written straight into the space
 * (SPACE_ADVANCED_BY_EDITS). */
int dom_space_advance(struct dom *d, const struct space *s, const struct revision *now);

/* ---- collections (domain/collections.c) ---- */

struct collection_input {
	bool has_title, has_description, has_level;
	const char *title;
	const char *description; /* NULL removes it */
	int default_level;
	const char *parent_id; /* create only: NULL for the top level */
};

/* Create a collection in org_id; the actor, unless an organization admin,
 * gets an admin grant on it. */
int dom_collection_create(struct dom *d, const char *org_id, const struct collection_input *in,
			  struct collection *out);
int dom_collection_update(struct dom *d, const char *collection_id, const struct collection_input *in,
			  struct collection *out);
/* The organization's collections the actor reads (nested false: the top
 * level only), sorted by creation, each with the actor's role in `access`. */
int dom_collections_list(struct dom *d, const char *org_id, bool nested, const struct list_req *lr,
			 struct collection **items, int *n, char **next);

/* ---- grants (domain/grants.c) ---- */

/* Grant `role` on a space or collection to users (one who is not a member of
 * its organization becomes a guest) and teams of its organization. An unknown
 * user or team is ERR_INVALID naming it, and nothing is granted. */
int dom_grants_invite(struct dom *d, enum dom_kind kind, const char *id, enum role role, const char *const *users,
		      int nusers, const char *const *teams, int nteams);
/* The grants to users or to teams of a space or collection the actor reads. */
int dom_grants_list(struct dom *d, enum dom_kind kind, const char *id, enum grant_kind gk, const struct list_req *lr,
		    struct grant_row **items, int *n, char **next);
/* ERR_NOT_FOUND when principal_id has no grant there. */
int dom_grant_update(struct dom *d, enum dom_kind kind, const char *id, enum grant_kind gk, const char *principal_id,
		     enum role role);
/* *removed = false when there was no such grant. */
int dom_grant_remove(struct dom *d, enum dom_kind kind, const char *id, enum grant_kind gk, const char *principal_id,
		     bool *removed);
/* Give the actor an admin grant on a space or collection they created, unless
 * they are an organization admin (or docsd itself). */
int dom_grant_creator(struct dom *d, const char *org_id, const char *space_id, const char *collection_id);

#endif
