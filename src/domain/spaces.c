/*
 * spaces.c - spaces: create, settings, restore, duplicate, and the lists of
 * them (domain/spaces.h). Deleting, moving and transferring are shared with
 * collections (domain/collections.c).
 *
 * A deleted space answers reads and can be restored for SPACE_RETENTION_MS;
 * every other change to it is a conflict until it is restored.
 *
 * A space's current revision moves only through dom_space_advance_by, which
 * keeps the search index on it and tells the subscribers of "the space's
 * content advanced" (domain/events.h draws who calls it and who listens).
 */
#include "domain/content.h"
#include "domain/integrations.h"
#include "domain/spaces.h"
#include "model/revision.h"
#include "model/validate.h"
#include "domain/events.h"
#include "domain/integration_events.h"
#include "util/err.h"
#include "util/util.h"

#include <string.h>

static int require_live(const struct space *s)
{
	return s->deleted_at ? err_set(ERR_CONFLICT, "the space is deleted; restore it first") : 0;
}

/* A space's emoji is one emoji (model/validate.h), or absent / null. */
static int check_emoji(const struct space_input *in)
{
	if (in->has_emoji && in->emoji && !valid_emoji(in->emoji))
		return err_set(ERR_INVALID, "emoji: must be one emoji, as a character (\"\xF0\x9F\x9A\x80\") or its code "
					    "points in hex (\"1f680\")");
	return 0;
}

/* Load space id again after a change, with the actor's role as it is now. */
static int space_fresh(struct dom *d, const char *id, struct space *out)
{
	int rc = store_space_get(d->tx, id, out);

	dom_access_changed(d);
	return rc ? rc : dom_space_role(d, out, &out->access);
}

int dom_space_create(struct dom *d, const char *org_id, const struct space_input *in, struct space *out)
{
	struct space s = {
		.org_id = org_id,
		.parent_id = in->parent_id,
		.title = in->title ? in->title : "",
		.emoji = in->has_emoji ? in->emoji : NULL,
		.language = in->language,
		.edit_mode = in->edit_mode,
		.default_level = LEVEL_INHERIT,
	};
	int rc;

	if ((rc = check_emoji(in)) || (rc = dom_parent_check(d, org_id, s.parent_id)) ||
	    (rc = dom_may_create(d, org_id, s.parent_id, "create a space")) || (rc = store_space_create(d->tx, &s)) ||
	    (rc = dom_grant_creator(d, org_id, s.id, NULL)))
		return rc;
	return space_fresh(d, s.id, out);
}

/* A setting the request gives (v) replaces the space's; NULL keeps it. */
static void keep_or_set(const char **field, const char *v)
{
	if (v)
		*field = v;
}

int dom_space_update(struct dom *d, const char *space_id, const struct space_input *in, struct space *out)
{
	struct space s;
	int rc;

	/* Settings are written back whole: read the row locked (PostgreSQL) so
	 * that two PATCHes at once cannot lose one another's fields. */
	/* The role it needs is known once the actor's standing is loaded
	 * (dom_space_settings_need: an installation token's scopes). */
	if ((rc = check_emoji(in)) || (rc = dom_space_get_locked(d, space_id, ROLE_READ, &s)) ||
	    (rc = access_check(s.access, dom_space_settings_need(d), "space")) || (rc = require_live(&s)))
		return rc;
	/* space:metadata:write changes a space's settings, not who reads it:
	 * its defaultLevel and visibility are permissions (integration_access.c). */
	if ((in->has_level || in->visibility) && (rc = dom_content_manage_check(d)))
		return rc;
	keep_or_set(&s.edit_mode, in->edit_mode);
	keep_or_set(&s.title, in->title);
	keep_or_set(&s.language, in->language);
	const char *previous_visibility = s.visibility; /* integrations' space_visibility_updated */
	keep_or_set(&s.visibility, in->visibility);
	keep_or_set(&s.merge_rules, in->merge_rules);
	if (in->has_level)
		s.default_level = in->default_level;
	/* emoji and icon: a value, or null to remove it; setting one removes the other. */
	if (in->has_emoji && in->has_icon && in->emoji && in->icon)
		return err_set(ERR_INVALID, "give either emoji or icon, not both");
	if (in->has_emoji) {
		s.emoji = in->emoji;
		if (in->emoji)
			s.icon = NULL;
	}
	if (in->has_icon) {
		s.icon = in->icon;
		if (in->icon)
			s.emoji = NULL;
	}
	if (strcmp(s.visibility, "in-collection") == 0 && !s.parent_id)
		return err_set(ERR_INVALID, "visibility: 'in-collection' is only for spaces in a collection");
	if ((rc = store_space_update(d->tx, &s)) ||
	    (in->visibility && (rc = dom_integrations_visibility_updated(d, &s, previous_visibility, s.visibility))))
		return rc;
	return space_fresh(d, s.id, out);
}

int dom_space_restore(struct dom *d, const char *space_id, struct space *out)
{
	struct space s;
	int rc = dom_space_get(d, space_id, ACCESS_MANAGE, &s);

	if (rc || (rc = dom_content_manage_check(d)))
		return rc;
	if (!s.deleted_at)
		return err_set(ERR_CONFLICT, "the space is not deleted");
	/* The purge job removes it soon; from now on it is gone either way. */
	if (clock_now_ms() - s.deleted_at > SPACE_RETENTION_MS)
		return err_set(ERR_NOT_FOUND, "space not found: deleted more than 7 days ago");
	if ((rc = store_space_restore(d->tx, &s)))
		return rc;
	return space_fresh(d, s.id, out);
}

/* "Copy of <title>" as GitBook names a duplicate, cut to the 50 characters
 * a space title may have (at a character boundary). */
static const char *copy_title(struct arena *a, const char *title)
{
	char *t = arena_printf(a, "Copy of %s", title);
	long chars = 0;

	for (char *p = t; *p; p++) {
		if (((unsigned char)*p & 0xC0) != 0x80 && ++chars > 50) {
			*p = '\0';
			break;
		}
	}
	return t;
}

int dom_space_duplicate(struct dom *d, const char *space_id, struct space *out)
{
	struct space s, copy;
	int rc;

	if ((rc = dom_space_get(d, space_id, ROLE_READ, &s)) || (rc = require_live(&s)) ||
	    (rc = dom_may_create(d, s.org_id, s.parent_id, "duplicate this space")))
		return rc;
	s.title = copy_title(d->arena, s.title);
	if ((rc = store_space_duplicate(d->tx, &s, &copy)) || (rc = dom_grant_creator(d, s.org_id, copy.id, NULL)))
		return rc;
	return space_fresh(d, copy.id, out);
}

int dom_spaces_list(struct dom *d, const char *org_id, const char *collection_id, const struct list_req *lr,
		    struct space **items, int *n, char **next)
{
	enum space_scope scope = SPACES_OF_ORG;
	const struct access_ctx *ctx;
	struct collection c;
	struct dom_list cl;
	struct list_req l;
	bool admin;
	int rc;

	if (collection_id) {
		if ((rc = dom_collection_get(d, collection_id, ROLE_READ, &c)))
			return rc;
		org_id = c.org_id;
		scope = SPACES_IN_COLLECTION;
	}
	if ((rc = dom_actor_access(d, org_id, &ctx)) || (rc = org_access_check(ctx->org_role, ORG_ACCESS_VIEW)) ||
	    (rc = dom_list_init(d, ctx, org_id, &cl)))
		return rc;
	admin = ctx->org_role == ROLE_ADMIN;
	l = dom_list_counted(d, lr, org_id, admin ? NULL : d->actor.user_id);
	if ((rc = store_spaces_list(d->tx, scope, org_id, collection_id, &l, admin ? NULL : dom_keep_space, &cl, items,
				    n, next)))
		return rc;
	for (int i = 0; admin && i < *n; i++)
		(*items)[i].access = ROLE_ADMIN;
	return 0;
}

int dom_member_spaces(struct dom *d, const char *org_id, const char *user_id, const struct list_req *lr,
		      struct member_space **items, int *n, char **next)
{
	struct membership m;
	struct access_ctx ctx;
	struct dom_list cl;
	struct list_req l;
	struct space *spaces;
	bool admin;
	int rc;

	if ((rc = dom_enter_org(d, org_id)) || (rc = org_access_check(d->actor.org.role, ORG_ACCESS_VIEW)))
		return rc;
	/* An integration principal is no member: the memberships and grants an
	 * admin gave its user would list spaces beyond its selection. */
	if ((rc = dom_member_check(d)))
		return rc;
	admin = d->actor.org.role == ROLE_ADMIN;
	if (!admin && strcmp(user_id, d->actor.user_id) != 0)
		return err_set(ERR_FORBIDDEN, "only organization admins can list another member's spaces");
	if ((rc = store_membership(d->tx, org_id, user_id, &m)))
		return rc;
	if (m.role == ROLE_NONE)
		return err_set(ERR_NOT_FOUND, "member not found");
	/* The member's access, not the actor's. */
	ctx = (struct access_ctx){ .org_role = m.role };
	if (m.role != ROLE_ADMIN &&
	    (rc = store_access_grants(d->tx, org_id, user_id, (struct access_grant **)&ctx.grants, &ctx.ngrants)))
		return rc;
	/* Counted (and cached) as the member sees them. */
	l = dom_list_counted(d, lr, org_id, user_id);
	if ((rc = dom_list_init(d, &ctx, org_id, &cl)) ||
	    (rc = store_spaces_list(d->tx, SPACES_OF_ORG, org_id, NULL, &l, dom_keep_space, &cl, &spaces, n, next)))
		return rc;
	*items = arena_alloc(d->arena, sizeof(**items) * (size_t)(*n ? *n : 1));
	for (int i = 0; i < *n; i++) {
		(*items)[i].space = spaces[i];
		(*items)[i].permission = spaces[i].access;
		/* The actor is an admin, or the member. */
		if (admin)
			(*items)[i].space.access = ROLE_ADMIN;
	}
	return 0;
}

/* ---- the space's current revision and the search index ---- */

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Keep the search index on the space's current revision: pages added or
 * changed (body, title or path) are indexed again, removed pages dropped. */
static int index_sync(struct dom *d, const struct space *s, const struct revision *old, const struct revision *now)
{
	int rc;

	for (int i = 0; i < now->npages; i++) {
		const struct rev_page *p = &now->pages[i], *was = old ? revision_page(old, p->id) : NULL;
		const char *md = "";
		if (p->type == PAGE_LINK)
			continue;
		if (was && was->type == p->type && same_str(was->body, p->body) && strcmp(was->title, p->title) == 0 &&
		    strcmp(was->path, p->path) == 0 && was->no_index == p->no_index)
			continue;
		if (p->no_index) {
			if ((rc = store_search_remove_page(d->tx, s->id, p->id)))
				return rc;
			continue;
		}
		if ((p->body && (rc = store_body_get(d->tx, p->body, &md))) ||
		    (rc = dom_search_put_page(d->tx, s->org_id, s->id, p->id, p->title, p->path, md)))
			return rc;
	}
	for (int i = 0; old && i < old->npages; i++)
		if (!revision_page(now, old->pages[i].id) &&
		    (rc = store_search_remove_page(d->tx, s->id, old->pages[i].id)))
			return rc;
	return 0;
}

/*
 *   caller (locked s) --> store_space_set_revision --> index_sync --> dom_space_advanced_publish
 *                         (compare on s->revision:     (pages of      (events.c: each subscriber,
 *                          ERR_CONFLICT if it moved)    old vs now)    same transaction)
 *
 * Any failure returns at once; the caller's transaction then rolls back all
 * three steps together.
 */
int dom_space_advance_by(struct dom *d, const struct space *s, const struct revision *now,
			 enum space_advance_cause cause, const struct change_request *cr)
{
	const struct revision *old = NULL;
	struct space_advanced ev = { .space = s, .old_revision = s->revision, .revision = now, .cause = cause, .cr = cr };
	int rc = store_revision_get(d->tx, s->revision, &old), missing = rc == ERR_NOT_FOUND;

	if (rc && !missing) /* missing: the index is built from scratch */
		return rc;
	if ((rc = store_space_set_revision(d->tx, s, now->id)) || (rc = index_sync(d, s, missing ? NULL : old, now)))
		return rc;
	return dom_space_advanced_publish(d, &ev);
}

int dom_space_advance(struct dom *d, const struct space *s, const struct revision *now)
{
	return dom_space_advance_by(d, s, now, SPACE_ADVANCED_BY_EDITS, NULL);
}
