/*
 * change_requests.c - change requests: open, list (a space's, an
 * organization's), read, edit (subject, status, description), contributors,
 * what they change against their base, content batches, merge into the space
 * and update from it (state diagram in content.h). Merge and update are three-way merges (model/tree_merge.c)
 * against the change request's base: revisionMergedAncestor after an update,
 * else revisionInitial. A merge with conflicts writes nothing.
 *
 * A merge checks the merge rules (domain/merge_rules.h), then moves the
 * space with dom_space_advance_by (domain/spaces.c); what else happens after
 * a merge (Git sync's export) subscribes to that advance (domain/events.h)
 * instead of being called from here.
 */
#include "domain/content.h"
#include "domain/events.h"
#include "domain/merge_rules.h"
#include "domain/spaces.h"
#include "format/document.h"
#include "util/err.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

static const char *const statuses[] = { "draft", "open", "archived", "merged", NULL };

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Content batches, merges and updates need a change request still at work. */
static int require_active(const struct change_request *cr, const char *what)
{
	if (strcmp(cr->status, "merged") == 0)
		return err_set(ERR_CONFLICT, "the change request is merged: %s is refused", what);
	if (strcmp(cr->status, "archived") == 0)
		return err_set(ERR_CONFLICT, "the change request is archived: reopen it (status open or draft) first");
	return 0;
}

/* The space (actor needs `need`) and one of its change requests. */
static int load(struct dom *d, const char *space_id, const char *cr_key, enum role need, struct space *s,
		struct change_request *cr)
{
	int rc = dom_space_get(d, space_id, need, s);

	return rc ? rc : dom_change_request_get(d, s, cr_key, cr);
}

/* The same for a write: the space's row, then the change request's, stay
 * locked until the transaction ends (always in that order), so concurrent
 * merges, batches and edits of one space wait for each other and each sees
 * the one before (PostgreSQL; SQLite serializes writers anyway). */
static int load_locked(struct dom *d, const char *space_id, const char *cr_key, enum role need, struct space *s,
		       struct change_request *cr)
{
	int rc = dom_space_get_locked(d, space_id, need, s);

	if (rc || (rc = dom_change_request_get(d, s, cr_key, cr)))
		return rc;
	return store_cr_get_locked(d->tx, s->id, cr->id, cr);
}

/* ---- descriptions: GitBook's JSONDocument (format/document.h) ---- */

int dom_cr_description_text(struct dom *d, json_t *doc, const char **out)
{
	return document_text(d->arena, "description", doc, CR_DESCRIPTION_MAX, out);
}

int dom_cr_create(struct dom *d, const char *space_id, const struct cr_new *in, struct space *s,
		  struct change_request *out)
{
	struct user me;
	const char *description = NULL;
	int rc;

	if (in->description && !json_is_null(in->description) &&
	    (rc = dom_cr_description_text(d, in->description, &description)))
		return rc;
	if ((rc = dom_space_get(d, space_id, ROLE_EDIT, s)) || (rc = dom_space_editable(s)))
		return rc;
	if (!d->actor.user_id)
		return err_set(ERR_INVALID, "a change request needs a user as its author");
	if ((rc = store_user_get(d->tx, d->actor.user_id, &me)))
		return rc;
	memset(out, 0, sizeof(*out));
	out->status = "draft";
	out->space_id = s->id;
	out->subject = in->subject ? in->subject : "";
	out->agent_task_id = in->agent_task_id;
	out->description = description;
	out->created_by = me;
	out->revision = out->revision_initial = s->revision;
	if ((rc = store_cr_create(d->tx, out)))
		return rc;
	/* The space's counts changed with it. */
	return store_space_get(d->tx, s->id, s);
}

int dom_cr_list(struct dom *d, const char *space_id, const struct cr_filter *f, const struct list_req *lr,
		struct space *s, struct change_request **items, int *n, char **next)
{
	int rc = dom_space_get(d, space_id, ROLE_READ, s);

	return rc ? rc : store_crs_list(d->tx, s->id, f, lr, items, n, next);
}

int dom_cr_get(struct dom *d, const char *space_id, const char *cr_key, struct space *s, struct change_request *out)
{
	return load(d, space_id, cr_key, ROLE_READ, s, out);
}

static enum role keep_cr_space(void *list, void *item)
{
	return dom_keep_space(list, &((struct cr_in_space *)item)->space);
}

int dom_cr_list_org(struct dom *d, const char *org_id, const struct cr_filter *f, const struct list_req *lr,
		    struct cr_in_space **items, int *n, char **next)
{
	const struct access_ctx *ctx;
	struct dom_list cl;
	bool admin;
	int rc;

	if ((rc = dom_actor_access(d, org_id, &ctx)) || (rc = org_access_check(ctx->org_role, ORG_ACCESS_VIEW)) ||
	    (rc = dom_list_init(d, ctx, org_id, &cl)))
		return rc;
	admin = ctx->org_role == ROLE_ADMIN;
	return store_crs_list_org(d->tx, org_id, f, lr, admin ? NULL : keep_cr_space, &cl, items, n, next);
}

int dom_cr_contributors(struct dom *d, const char *space_id, const char *cr_key, const struct list_req *lr,
			struct cr_contributor **items, int *n, char **next)
{
	struct space s;
	struct change_request cr;
	int rc = load(d, space_id, cr_key, ROLE_READ, &s, &cr);

	return rc ? rc : store_cr_contributors(d->tx, cr.id, lr, items, n, next);
}

/* ---- what a change request changes ---- */

struct changes_run {
	struct dom *d;
	const struct space *s;
	const struct revision *base, *head;
	int limit;
	struct cr_changes *out;
};

/* Count every change; keep the first `limit`. */
static struct cr_change *change_add(struct changes_run *c, enum cr_change_kind kind)
{
	struct cr_change *x;

	if (c->out->n >= c->limit) {
		c->out->more++;
		return NULL;
	}
	x = &c->out->items[c->out->n++];
	memset(x, 0, sizeof(*x));
	x->kind = kind;
	return x;
}

/* Pages in tree order: first child, else next sibling, else up. */
static int preorder_next(const struct revision *rv, int i)
{
	if (rv->pages[i].first_child >= 0)
		return rv->pages[i].first_child;
	for (; i >= 0; i = rv->pages[i].parent_idx)
		if (rv->pages[i].next_sibling >= 0)
			return rv->pages[i].next_sibling;
	return -1;
}

/* A page that is in both revisions under the same parent. */
static bool stays(const struct rev_page *p, const struct revision *other)
{
	const struct rev_page *q = revision_page(other, p->id);

	return q && same_str(q->parent, p->parent);
}

/* rank[i]: page i's place among its siblings that stay (in both revisions
 * under the same parent), so a sibling added, removed or renumbered does not
 * make a page look moved; -1 for the others. */
static int sibling_ranks(struct dom *d, const struct revision *rv, const struct revision *other, int **out)
{
	int *rank = arena_alloc(d->arena, sizeof(int) * (size_t)(rv->npages + 1));

	for (int i = 0; i < rv->npages; i++)
		rank[i] = -1;
	for (int i = -1; i < rv->npages; i++) {
		int k = 0, c = i < 0 ? rv->first_root : rv->pages[i].first_child;
		for (; c >= 0; c = rv->pages[c].next_sibling)
			if (stays(&rv->pages[c], other))
				rank[c] = k++;
	}
	*out = rank;
	return 0;
}

static bool page_edited(const struct rev_page *a, const struct rev_page *b)
{
	return !same_str(a->title, b->title) || !same_str(a->emoji, b->emoji) || !same_str(a->slug, b->slug) ||
	       !same_str(a->description, b->description) || !same_str(a->body, b->body) ||
	       !same_str(a->href, b->href) || !same_str(a->computed, b->computed);
}

static int page_changes(struct changes_run *c)
{
	const struct revision *base = c->base, *head = c->head;
	int *rank_base, *rank_head, rc;
	struct cr_change *x;

	if ((rc = sibling_ranks(c->d, base, head, &rank_base)) || (rc = sibling_ranks(c->d, head, base, &rank_head)))
		return rc;
	for (int i = head->first_root; i >= 0; i = preorder_next(head, i)) {
		const struct rev_page *p = &head->pages[i];
		int j = revision_page_index(base, p->id);
		if (j < 0) {
			if ((x = change_add(c, CR_PAGE_CREATED)))
				x->page = p;
			continue;
		}
		if (page_edited(&base->pages[j], p) && (x = change_add(c, CR_PAGE_EDITED))) {
			x->page = p;
			x->was = &base->pages[j];
		}
		if ((!same_str(base->pages[j].parent, p->parent) || rank_base[j] != rank_head[i]) &&
		    (x = change_add(c, CR_PAGE_MOVED))) {
			x->page = p;
			x->was = &base->pages[j];
			x->parent_before = base->pages[j].parent ? revision_page(base, base->pages[j].parent) : NULL;
			x->parent_after = p->parent ? revision_page(head, p->parent) : NULL;
		}
	}
	for (int i = base->first_root; i >= 0; i = preorder_next(base, i))
		if (!revision_page(head, base->pages[i].id) && (x = change_add(c, CR_PAGE_DELETED)))
			x->page = &base->pages[i];
	return 0;
}

static int file_url(struct changes_run *c, const struct revision *rv, const struct rev_file *f, const char **out)
{
	return dom_file_url(c->d, c->s->id, rv->id, f->id, out);
}

static int file_changes(struct changes_run *c)
{
	struct cr_change *x;
	int rc;

	for (int i = 0; i < c->head->nfiles; i++) {
		const struct rev_file *f = &c->head->files[i], *was = revision_file(c->base, f->id);
		if (was && rev_file_same(was, f))
			continue;
		if (!(x = change_add(c, was ? CR_FILE_EDITED : CR_FILE_CREATED)))
			continue;
		x->file = f;
		x->file_was = was;
		if ((rc = file_url(c, c->head, f, &x->url)) || (was && (rc = file_url(c, c->base, was, &x->url_was))))
			return rc;
	}
	for (int i = 0; i < c->base->nfiles; i++) {
		const struct rev_file *f = &c->base->files[i];
		if (revision_file(c->head, f->id) || !(x = change_add(c, CR_FILE_DELETED)))
			continue;
		x->file = f;
		if ((rc = file_url(c, c->base, f, &x->url)))
			return rc;
	}
	return 0;
}

int dom_cr_changes(struct dom *d, const char *space_id, const char *cr_key, int limit, struct cr_changes *out)
{
	struct space s;
	struct change_request cr;
	struct changes_run c = { .d = d, .s = &s, .limit = limit, .out = out };
	int rc;

	memset(out, 0, sizeof(*out));
	if (limit < 1 || limit > 1000)
		return err_set(ERR_INVALID, "limit: must be between 1 and 1000");
	if ((rc = load(d, space_id, cr_key, ROLE_READ, &s, &cr)) ||
	    (rc = store_revision_get(d->tx, change_request_base(&cr), &c.base)) ||
	    (rc = store_revision_get(d->tx, cr.revision, &c.head)))
		return rc;
	out->items = arena_alloc(d->arena, sizeof(*out->items) * (size_t)limit);
	if ((rc = page_changes(&c)))
		return rc;
	return file_changes(&c);
}

int dom_cr_update(struct dom *d, const char *space_id, const char *cr_key, const struct cr_edit *in,
		  struct space *s, struct change_request *cr)
{
	const char *old, *subject = in->subject, *status = in->status, *description = NULL;
	int rc, known = 0;

	if (in->description && !json_is_null(in->description) &&
	    (rc = dom_cr_description_text(d, in->description, &description)))
		return rc;
	if ((rc = load_locked(d, space_id, cr_key, ROLE_EDIT, s, cr)))
		return rc;
	if (status) {
		for (int i = 0; statuses[i]; i++)
			known |= strcmp(status, statuses[i]) == 0;
		if (!known)
			return err_set(ERR_INVALID, "status: must be one of draft, open, archived");
		if (strcmp(status, "merged") == 0)
			return err_set(ERR_INVALID, "status: merged is reached by merging (POST .../merge)");
		if (strcmp(cr->status, "merged") == 0)
			return err_set(ERR_CONFLICT, "the change request is merged; its status cannot change");
	}
	old = cr->status;
	if (subject)
		cr->subject = subject;
	if (status)
		cr->status = status;
	if (in->description)
		cr->description = description; /* NULL for JSON null: removed */
	if ((rc = store_cr_update(d->tx, cr, old, cr->revision)))
		return rc;
	return dom_change_request_get(d, s, cr->id, cr);
}

int dom_cr_content_check(struct dom *d, const char *space_id, const char *cr_key)
{
	struct space s;
	struct change_request cr;
	int rc;

	if ((rc = load(d, space_id, cr_key, ROLE_EDIT, &s, &cr)) || (rc = dom_space_editable(&s)))
		return rc;
	return require_active(&cr, "changing its content");
}

int dom_cr_content_prefetch(const struct server *srv, struct arena *a, const char *user_id, const char *space_id,
			    const char *cr_key, json_t *changes, struct fetched_files *out)
{
	struct store_tx tx;
	struct dom d;
	int rc;

	if ((rc = store_tx_begin(srv->store, &tx, 0, a)))
		return rc;
	dom_init(&d, srv, &tx, a, user_id);
	rc = dom_cr_content_check(&d, space_id, cr_key);
	store_tx_rollback(&tx); /* read only; nothing is held while fetching */
	if (rc)
		return rc;
	dom_init(&d, srv, NULL, a, user_id);
	return dom_content_prefetch(&d, changes, out);
}

int dom_cr_content(struct dom *d, const char *space_id, const char *cr_key, json_t *changes, struct space *s,
		   struct change_request *cr, struct content_outcome *outcome)
{
	return dom_cr_content_fetched(d, space_id, cr_key, changes, NULL, s, cr, outcome);
}

int dom_cr_content_fetched(struct dom *d, const char *space_id, const char *cr_key, json_t *changes,
			   const struct fetched_files *fetched, struct space *s, struct change_request *cr,
			   struct content_outcome *outcome)
{
	return dom_cr_content_batch(d, space_id, cr_key, changes, CONTENT_MAX_CHANGES, fetched, s, cr, outcome);
}

int dom_cr_content_batch(struct dom *d, const char *space_id, const char *cr_key, json_t *changes, int max_changes,
			 const struct fetched_files *fetched, struct space *s, struct change_request *cr,
			 struct content_outcome *outcome)
{
	const struct revision *head, *base, *next;
	struct tree_work w;
	int rc;

	if ((rc = load_locked(d, space_id, cr_key, ROLE_EDIT, s, cr)) || (rc = dom_space_editable(s)) ||
	    (rc = require_active(cr, "changing its content")))
		return rc;
	if ((rc = store_revision_get(d->tx, cr->revision, &head)) ||
	    (rc = store_revision_get(d->tx, change_request_base(cr), &base)))
		return rc;
	if ((rc = tree_work_init(&w, d->arena, head, clock_now_ms())) ||
	    (rc = dom_apply_changes_n(d, &w, changes, max_changes, base, NULL, fetched, outcome)) ||
	    (rc = dom_write_edits(d, s, &w, head, &next)))
		return rc;
	cr->revision = next->id;
	if ((rc = store_cr_update(d->tx, cr, cr->status, head->id)) ||
	    (d->actor.user_id && (rc = store_cr_add_contributor(d->tx, cr->id, d->actor.user_id))))
		return rc;
	return dom_change_request_get(d, s, cr->id, cr);
}

/* ---- merge and update ---- */

/* The tree merge is pure (model/tree_merge.c): load the bodies it will read,
 * merge, and store the bodies it made only when nothing conflicts. */
static int merge_trees(struct dom *d, const struct revision *base, const struct revision *ours,
		       const struct revision *theirs, struct tree_merge_result *res)
{
	const char **hashes;
	struct merge_body *bodies;
	int n, rc;

	if ((rc = tree_merge_needs(d->arena, base, ours, theirs, &hashes, &n)))
		return rc;
	bodies = arena_alloc(d->arena, sizeof(*bodies) * (size_t)(n + 1));
	for (int i = 0; i < n; i++) {
		bodies[i].hash = hashes[i];
		rc = store_body_get(d->tx, hashes[i], &bodies[i].markdown);
		if (rc == ERR_NOT_FOUND)
			return err_set(ERR_INTERNAL, "page body %s is missing", hashes[i]);
		if (rc)
			return rc;
	}
	if ((rc = tree_merge(d->arena, base, ours, theirs, bodies, n, clock_now_ms(), res)))
		return rc;
	for (int i = 0; i < res->nbodies; i++) /* none when there are conflicts */
		if ((rc = dom_body_put(d->tx, res->bodies[i].markdown, &res->work.pages[res->bodies[i].page].body)))
			return rc;
	return 0;
}

/* Three-way merge of ours and theirs over base into a new revision of s;
 * with conflicts (out->nconflicts > 0) nothing is written. */
static int merge_into(struct dom *d, const struct space *s, const struct revision *base, const struct revision *ours,
		      const struct revision *theirs, const char *type, const char *merged_from,
		      const struct revision **merged, struct cr_merge_result *out)
{
	struct tree_merge_result res;
	struct revision_new nr = { 0 };
	int rc;

	*merged = NULL;
	if ((rc = merge_trees(d, base, ours, theirs, &res)))
		return rc;
	out->conflicts = res.conflicts;
	out->nconflicts = res.nconflicts;
	if (res.nconflicts)
		return 0;
	dom_revision_new(&res.work, &nr);
	nr.space_id = s->id;
	nr.parent_id = ours->id;
	nr.parents = arena_printf(d->arena, "[\"%s\",\"%s\"]", ours->id, theirs->id);
	nr.type = type;
	nr.merged_from = merged_from;
	nr.created_by = d->actor.user_id;
	return store_revision_create(d->tx, &nr, merged);
}

/* The three revisions of a change request's merge or update. */
static int merge_sides(struct dom *d, const struct space *s, const struct change_request *cr,
		       const struct revision **base, const struct revision **main, const struct revision **head)
{
	int rc;

	if ((rc = store_revision_get(d->tx, change_request_base(cr), base)) ||
	    (rc = store_revision_get(d->tx, s->revision, main)))
		return rc;
	return store_revision_get(d->tx, cr->revision, head);
}

int dom_cr_merge(struct dom *d, const char *space_id, const char *cr_key, struct cr_merge_result *out)
{
	struct space s;
	struct change_request cr;
	const struct revision *base, *main, *head, *merged;
	const char *old;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = load_locked(d, space_id, cr_key, ROLE_REVIEW, &s, &cr)) || (rc = dom_space_editable(&s)) ||
	    (rc = require_active(&cr, "merging it again")) || (rc = dom_merge_rules_check(d, &s, &cr)) ||
	    (rc = merge_sides(d, &s, &cr, &base, &main, &head)) ||
	    (rc = merge_into(d, &s, base, main, head, "merge", cr.id, &merged, out)))
		return rc;
	if (out->nconflicts) {
		out->revision = cr.revision;
		out->result = "conflicts";
		return 0;
	}
	old = cr.status;
	cr.status = "merged";
	cr.revision_merged = merged->id;
	/* The change request is stored merged first, so the subscribers of the
	 * space's advance (domain/events.h: Git sync queues the export) find it
	 * as they are told it is. */
	if ((rc = store_cr_update(d->tx, &cr, old, cr.revision)) ||
	    (rc = dom_space_advance_by(d, &s, merged, SPACE_ADVANCED_BY_MERGE, &cr)))
		return rc;
	out->revision = merged->id;
	out->result = "merge";
	return 0;
}

int dom_cr_update_from_space(struct dom *d, const char *space_id, const char *cr_key, struct cr_merge_result *out)
{
	struct space s;
	struct change_request cr;
	const struct revision *base, *main, *head, *updated;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = load_locked(d, space_id, cr_key, ROLE_REVIEW, &s, &cr)) || (rc = require_active(&cr, "updating it")))
		return rc;
	out->result = "update";
	if (strcmp(change_request_base(&cr), s.revision) == 0) {
		out->revision = cr.revision; /* already up to date */
		return 0;
	}
	if ((rc = merge_sides(d, &s, &cr, &base, &main, &head)) ||
	    (rc = merge_into(d, &s, base, head, main, "update", NULL, &updated, out)))
		return rc;
	if (out->nconflicts) {
		out->revision = cr.revision;
		out->result = "conflicts";
		return 0;
	}
	cr.revision = updated->id;
	cr.revision_merged_ancestor = s.revision;
	if ((rc = store_cr_update(d->tx, &cr, cr.status, head->id)))
		return rc;
	out->revision = updated->id;
	return 0;
}
