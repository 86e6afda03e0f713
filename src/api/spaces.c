/*
 * spaces.c - spaces: create, read, settings, the lifecycle (delete, restore,
 * purge), duplicate, move, transfer, and the lists of them.
 *
 * Access (api/content.c): reads need read, settings and the lifecycle need
 * admin on the space; creating, duplicating or moving into a place needs
 * create there. A deleted space answers GET (with deletedAt) and DELETE, and
 * can be restored; everything else on it is a conflict until it is restored.
 */
#include "api/content.h"
#include "core/validate.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const edit_modes[] = { "live", "locked", NULL };
static const char *const visibilities[] = { "public", "unlisted", "share-link", "visitor-auth", "in-collection",
					    "private", NULL };
/* GitBook's TranslationLanguage. */
static const char *const languages[] = {
	"en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "yue", "ko", "ar", "hi", "nl", "pl", "tr",
	"sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms", "he", "uk", "sk", "bg", "hr",
	"lt", "lv", "et", "sl", NULL,
};

static int one_of(const char *v, const char *const *allowed)
{
	for (int i = 0; allowed[i]; i++)
		if (strcmp(v, allowed[i]) == 0)
			return 1;
	return 0;
}

/* A string field that must be one of `allowed`; 1 when present. */
static int body_enum(struct req *r, const char *field, const char *const *allowed, const char **out)
{
	int rc = body_string(r, field, 0, 1, 32, out);

	if (rc == 1 && !one_of(*out, allowed)) {
		char list[256] = "";
		size_t len = 0;
		for (int i = 0; allowed[i] && len < sizeof(list) - 40; i++)
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", i ? ", " : "", allowed[i]);
		return err_set(ERR_INVALID, "%s: must be one of %s", field, list);
	}
	return rc;
}

static int send_space(struct req *r, int status, const struct space *s)
{
	struct jw *g = resp_json(r, status);

	if (!g)
		return err_set(ERR_INTERNAL, "out of memory");
	space_to_json(g, api_base(r), s, s->access);
	return 0;
}

/* Reload a space after a change and answer it with the caller's role. */
static int send_space_fresh(struct req *r, int status, const char *id)
{
	struct space s;
	int rc = store_space_get(&r->tx, id, &s);

	dom_access_changed(&r->dom);
	if (rc || (rc = dom_space_role(&r->dom, &s, &s.access)))
		return rc;
	return send_space(r, status, &s);
}

static int require_live(const struct space *s)
{
	return s->deleted_at ? err_set(ERR_CONFLICT, "the space is deleted; restore it first") : 0;
}

int space_create(struct req *r)
{
	struct space s = { .org_id = r->dom.actor.org_id, .default_level = LEVEL_INHERIT, .title = "" };
	enum role role;
	int rc;

	if (body_field(r, "template") || body_field(r, "computedSource"))
		return err_set(ERR_INVALID, "spaces from templates or computed sources are not supported");
	if ((rc = body_string(r, "title", 0, 0, 50, &s.title)) < 0 || (rc = body_string(r, "emoji", F_NULLABLE, 1, 50, &s.emoji)) < 0 ||
	    (rc = body_enum(r, "language", languages, &s.language)) < 0 ||
	    (rc = body_enum(r, "editMode", edit_modes, &s.edit_mode)) < 0 || (rc = body_parent(r, r->dom.actor.org_id, &s.parent_id)) < 0)
		return rc;
	if (!s.title)
		s.title = "";
	if ((rc = dom_role_at(&r->dom, r->dom.actor.org_id, s.parent_id, &role)))
		return rc;
	if (role < ROLE_READ && s.parent_id)
		return err_set(ERR_INVALID, "parent: no collection '%s' in this organization", s.parent_id);
	if (role < ROLE_CREATE)
		return err_set(ERR_FORBIDDEN, "you need the create role %s to create a space",
			       s.parent_id ? "on the collection" : "in the organization");
	if ((rc = store_space_create(&r->tx, &s)) || (rc = content_grant_creator(r, s.org_id, s.id, NULL)))
		return rc;
	return send_space_fresh(r, 201, s.id);
}

int space_get(struct req *r)
{
	struct space s;
	int rc = dom_space_get(&r->dom, req_param(r, "spaceId"), ROLE_READ, &s);

	/* shareKey resolves published URLs of share-link sites; spaces' URLs do not depend on it. */
	return rc ? rc : send_space(r, 200, &s);
}

int space_update(struct req *r)
{
	struct space s;
	int rc;

	if ((rc = dom_space_get_locked(&r->dom, req_param(r, "spaceId"), ROLE_ADMIN, &s)) || (rc = require_live(&s)))
		return rc;
	/* body_string clears its output when the field is absent: read into temporaries. */
	const char *edit_mode, *title, *language, *visibility;
	if ((rc = body_enum(r, "editMode", edit_modes, &edit_mode)) < 0 ||
	    (rc = body_string(r, "title", 0, 0, 50, &title)) < 0 || (rc = body_level(r, "defaultLevel", &s.default_level)) < 0 ||
	    (rc = body_enum(r, "language", languages, &language)) < 0 ||
	    (rc = body_enum(r, "visibility", visibilities, &visibility)) < 0)
		return rc;
	if (edit_mode)
		s.edit_mode = edit_mode;
	if (title)
		s.title = title;
	if (language)
		s.language = language;
	if (visibility)
		s.visibility = visibility;
	/* emoji and icon: a value, or null to remove it. */
	if (body_field(r, "emoji") && (rc = body_string(r, "emoji", F_NULLABLE, 1, 50, &s.emoji)) < 0)
		return rc;
	if (body_field(r, "icon")) {
		if ((rc = body_string(r, "icon", F_NULLABLE, 1, 2048, &s.icon)) < 0)
			return rc;
		if (s.icon && !valid_url(s.icon))
			return err_set(ERR_INVALID, "icon: must be an absolute http(s) URL");
	}
	if (s.emoji && s.icon && body_field(r, "emoji") && body_field(r, "icon"))
		return err_set(ERR_INVALID, "give either emoji or icon, not both");
	if (body_field(r, "emoji") && s.emoji)
		s.icon = NULL;
	else if (body_field(r, "icon") && s.icon)
		s.emoji = NULL;
	if (strcmp(s.visibility, "in-collection") == 0 && !s.parent_id)
		return err_set(ERR_INVALID, "visibility: 'in-collection' is only for spaces in a collection");
	if ((rc = body_merge_rules(r, true, &s.merge_rules)) < 0)
		return rc;
	if ((rc = store_space_update(&r->tx, &s)))
		return rc;
	return send_space_fresh(r, 200, s.id);
}

int space_delete(struct req *r)
{
	struct space s;
	bool deleted;
	int rc = store_space_get(&r->tx, req_param(r, "spaceId"), &s);

	if (rc == ERR_NOT_FOUND)
		return resp_empty(r, 204); /* did not exist: the seed's contract */
	if (rc || (rc = dom_space_role(&r->dom, &s, &s.access)) || (rc = access_check(s.access, ROLE_ADMIN, "space")) ||
	    (rc = store_space_delete(&r->tx, &s, &deleted)))
		return rc;
	return resp_empty(r, 204);
}

int space_restore(struct req *r)
{
	struct space s;
	int rc = dom_space_get(&r->dom, req_param(r, "spaceId"), ROLE_ADMIN, &s);

	if (rc)
		return rc;
	if (!s.deleted_at)
		return err_set(ERR_CONFLICT, "the space is not deleted");
	/* The purge job removes it soon; from now on it is gone either way. */
	if (clock_now_ms() - s.deleted_at > SPACE_RETENTION_MS)
		return err_set(ERR_NOT_FOUND, "space not found: deleted more than 7 days ago");
	if ((rc = store_space_restore(&r->tx, &s)))
		return rc;
	return send_space_fresh(r, 200, s.id);
}

int space_duplicate(struct req *r)
{
	struct space s, copy;
	enum role role;
	int rc;

	if ((rc = dom_space_get(&r->dom, req_param(r, "spaceId"), ROLE_READ, &s)) || (rc = require_live(&s)) ||
	    (rc = dom_role_at(&r->dom, s.org_id, s.parent_id, &role)))
		return rc;
	if (role < ROLE_CREATE)
		return err_set(ERR_FORBIDDEN, "you need the create role %s to duplicate this space",
			       s.parent_id ? "on its collection" : "in the organization");
	if ((rc = store_space_duplicate(&r->tx, &s, &copy)) || (rc = content_grant_creator(r, s.org_id, copy.id, NULL)))
		return rc;
	/* The seed answers 200 (GitBook's document says 201). */
	return send_space_fresh(r, 200, copy.id);
}

int space_move(struct req *r)
{
	struct space s;
	struct placement pl;
	int rc;

	if ((rc = dom_space_get(&r->dom, req_param(r, "spaceId"), ROLE_ADMIN, &s)) || (rc = require_live(&s)) ||
	    (rc = content_placement(r, s.org_id, s.id, s.parent_id, &pl)) ||
	    (rc = store_space_place(&r->tx, &s, pl.parent_id, pl.position)))
		return rc;
	return send_space_fresh(r, 200, s.id);
}

int space_transfer(struct req *r)
{
	struct space s;
	struct membership target;
	const char *org_id, *parent = NULL;
	int64_t position;
	int rc;

	if ((rc = dom_space_get(&r->dom, req_param(r, "spaceId"), ROLE_ADMIN, &s)))
		return rc;
	if ((rc = body_string(r, "organization", F_REQUIRED, 1, 64, &org_id)) < 0 ||
	    (rc = body_parent(r, org_id, &parent)) < 0)
		return rc;
	/* GitBook names the new place "collection" in later versions of transferSpace. */
	if (!parent && body_field(r, "collection")) {
		json_t *saved = json_incref(body_field(r, "collection"));
		json_object_set_new(r->json, "parent", saved);
		if ((rc = body_parent(r, org_id, &parent)) < 0)
			return rc == ERR_INVALID ? err_set(ERR_INVALID, "collection: no collection in the target organization") : rc;
	}
	if (s.deleted_at)
		return err_set(ERR_PRECONDITION, "a deleted space cannot be transferred; restore it first");
	if ((rc = store_membership(&r->tx, org_id, r->caller_id, &target)))
		return rc;
	if (target.role == ROLE_NONE)
		return err_set(ERR_NOT_FOUND, "organization not found");
	if (target.role != ROLE_ADMIN)
		return err_set(ERR_FORBIDDEN, "you must be an admin of the target organization");
	if (strcmp(org_id, s.org_id) == 0 && (!parent || (s.parent_id && strcmp(parent, s.parent_id) == 0)))
		return err_set(ERR_CONFLICT, "the transfer would not change anything");
	/* Within the organization a transfer is a move: its teams and members, and so their grants, stay. */
	if ((rc = store_position_for(&r->tx, org_id, parent, NULL, 0, NULL, &position, NULL)) ||
	    (rc = strcmp(org_id, s.org_id) == 0 ? store_space_place(&r->tx, &s, parent, position)
						: store_space_transfer(&r->tx, &s, org_id, parent, position)))
		return rc;
	return send_space_fresh(r, 200, s.id);
}

/* ---- lists ---- */

static int send_space_list(struct req *r, enum space_scope scope, const char *org_id, const char *collection_id)
{
	struct list_req lr;
	struct cursor cur;
	struct dom_list cl;
	const struct access_ctx *ctx;
	struct space *items;
	char *next;
	struct jw *g;
	int n, rc;

	if ((rc = req_list(r, &lr, &cur, NULL, 0)) || (rc = dom_actor_access(&r->dom, org_id, &ctx)) ||
	    (rc = dom_list_init(&r->dom, ctx, org_id, &cl)))
		return rc;
	if ((rc = store_spaces_list(&r->tx, scope, org_id, collection_id, &lr,
				    r->dom.actor.org.role == ROLE_ADMIN ? NULL : dom_keep_space, &cl, &items, &n, &next)))
		return rc;
	if (!(g = resp_list_begin(r)))
		return err_set(ERR_INTERNAL, "out of memory");
	for (int i = 0; i < n; i++)
		space_to_json(g, api_base(r), &items[i], r->dom.actor.org.role == ROLE_ADMIN ? ROLE_ADMIN : items[i].access);
	return resp_list_end(r, n, next);
}

int org_spaces_list(struct req *r)
{
	return send_space_list(r, SPACES_OF_ORG, r->dom.actor.org_id, NULL);
}

int collection_spaces_list(struct req *r)
{
	struct collection c;
	int rc = dom_collection_get(&r->dom, req_param(r, "collectionId"), ROLE_READ, &c);

	return rc ? rc : send_space_list(r, SPACES_IN_COLLECTION, c.org_id, c.id);
}

/* The spaces a member can access, with the role that gives it (permission);
 * the embedded space's permissions are the caller's. */
int member_spaces_list(struct req *r)
{
	const char *user_id = req_param(r, "userId");
	struct membership m;
	struct access_ctx ctx;
	struct dom_list cl;
	struct list_req lr;
	struct cursor cur;
	struct space *items;
	char *next;
	struct jw *g;
	int n, rc;

	if (r->dom.actor.org.role != ROLE_ADMIN && strcmp(user_id, r->caller_id) != 0)
		return err_set(ERR_FORBIDDEN, "only organization admins can list another member's spaces");
	if ((rc = req_list(r, &lr, &cur, "order", 1)) || (rc = store_membership(&r->tx, r->dom.actor.org_id, user_id, &m)))
		return rc;
	if (m.role == ROLE_NONE)
		return err_set(ERR_NOT_FOUND, "member not found");
	ctx = (struct access_ctx){ .org_role = m.role, .org_default = m.org_default };
	if (m.role != ROLE_ADMIN &&
	    (rc = store_access_grants(&r->tx, r->dom.actor.org_id, user_id, (struct access_grant **)&ctx.grants, &ctx.ngrants)))
		return rc;
	if ((rc = dom_list_init(&r->dom, &ctx, r->dom.actor.org_id, &cl)) ||
	    (rc = store_spaces_list(&r->tx, SPACES_OF_ORG, r->dom.actor.org_id, NULL, &lr, dom_keep_space, &cl, &items, &n, &next)))
		return rc;
	if (!(g = resp_list_begin(r)))
		return err_set(ERR_INTERNAL, "out of memory");
	for (int i = 0; i < n; i++) {
		enum role mine = items[i].access; /* the member's, or the caller's when they are the member */
		if (r->dom.actor.org.role == ROLE_ADMIN)
			mine = ROLE_ADMIN;
		jw_obj_open(g);
		jw_key(g, "permission");
		jw_str(g, role_name(items[i].access));
		jw_key(g, "space");
		space_to_json(g, api_base(r), &items[i], mine);
		jw_obj_close(g);
	}
	return resp_list_end(r, n, next);
}
