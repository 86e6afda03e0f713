/*
 * change_requests.c - change requests: create, list, read, edit, content
 * changes, merge into the space, and update from it.
 *
 * Statuses: draft and open are the working states and can be exchanged;
 * archived sets a change request aside (and can be reopened); merged is
 * reached only by merging and is final. Content changes and merges need edit
 * on the space and a space whose editMode is not locked. Merge and update are
 * three-way merges (core/tree_merge.c) against the change request's base:
 * revisionMergedAncestor after an update, else revisionInitial. A conflict is
 * answered as `result: "conflicts"` with the conflicting pages listed, and
 * nothing is written.
 */
#include "api/content.h"
#include "core/serialize_content.h"
#include "core/tree_merge.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

static const char *const statuses[] = { "draft", "open", "archived", "merged", NULL };

static int send_cr(struct req *r, int status, const struct change_request *cr, const struct space *s)
{
	struct jw *g = resp_json(r, status);

	if (!g)
		return err_set(ERR_INTERNAL, "out of memory");
	change_request_to_json(g, api_base(r), cr, s->revision);
	return 0;
}

static int require_active(const struct change_request *cr, const char *what)
{
	if (strcmp(cr->status, "merged") == 0)
		return err_set(ERR_CONFLICT, "the change request is merged: %s is refused", what);
	if (strcmp(cr->status, "archived") == 0)
		return err_set(ERR_CONFLICT, "the change request is archived: reopen it (status open or draft) first");
	return 0;
}

/* {changeRequestId} is an id, or the change request's number in the space. */
static int load_cr(struct req *r, const struct space *s, struct change_request *cr)
{
	return dom_change_request_get(&r->dom, s, req_param(r, "changeRequestId"), cr);
}

int cr_create(struct req *r)
{
	struct space s;
	struct change_request cr = { .status = "draft", .subject = "" };
	const char *subject = NULL, *task = NULL;
	const struct user *me;
	int rc;

	if ((rc = dom_space_get(&r->dom, req_param(r, "spaceId"), ROLE_EDIT, &s)) || (rc = dom_space_editable(&s)) || (rc = req_caller(r, &me)))
		return rc;
	if ((rc = body_string(r, "subject", F_NULLABLE, 0, 100, &subject)) < 0 ||
	    (rc = body_string(r, "agentTaskId", F_NULLABLE, 1, 100, &task)) < 0)
		return rc;
	cr.space_id = s.id;
	cr.subject = subject ? subject : "";
	cr.agent_task_id = task;
	cr.created_by = *me;
	cr.revision = cr.revision_initial = s.revision;
	if ((rc = store_cr_create(&r->tx, &cr)) || (rc = store_space_get(&r->tx, s.id, &s)))
		return rc;
	resp_header(r, "Location",
		    arena_printf(&r->arena, "%s/v1/spaces/%s/change-requests/%s", api_base(r), s.id, cr.id));
	return send_cr(r, 201, &cr, &s);
}

int cr_list(struct req *r)
{
	struct space s;
	struct list_req lr;
	struct cursor cur;
	struct cr_filter f = { .status = "open" };
	struct change_request *items;
	int n, rc, st;
	char *next;

	if ((rc = dom_space_get(&r->dom, req_param(r, "spaceId"), ROLE_READ, &s)) || (rc = req_list(r, &lr, &cur, NULL, 1)) ||
	    (rc = req_query_enum(r, "status", statuses, &st)))
		return rc;
	if (st >= 0)
		f.status = statuses[st];
	f.contributor = req_query(r, "contributor");
	if (f.contributor && !*f.contributor)
		f.contributor = NULL;
	if ((rc = store_crs_list(&r->tx, s.id, &f, &lr, &items, &n, &next)))
		return rc;
	struct jw *g = resp_list_begin(r);
	if (!g)
		return err_set(ERR_INTERNAL, "out of memory");
	for (int i = 0; i < n; i++)
		change_request_to_json(g, api_base(r), &items[i], s.revision);
	return resp_list_end(r, n, next);
}

int cr_get(struct req *r)
{
	struct space s;
	struct change_request cr;
	int rc;

	if ((rc = dom_space_get(&r->dom, req_param(r, "spaceId"), ROLE_READ, &s)) || (rc = load_cr(r, &s, &cr)))
		return rc;
	return send_cr(r, 200, &cr, &s);
}

int cr_update(struct req *r)
{
	struct space s;
	struct change_request cr;
	const char *subject = NULL, *status = NULL, *old;
	int rc;

	if ((rc = dom_space_get(&r->dom, req_param(r, "spaceId"), ROLE_EDIT, &s)) || (rc = load_cr(r, &s, &cr)))
		return rc;
	if ((rc = body_string(r, "subject", 0, 0, 100, &subject)) < 0 ||
	    (rc = body_string(r, "status", 0, 1, 32, &status)) < 0)
		return rc;
	if (status) {
		int known = 0;
		for (int i = 0; statuses[i]; i++)
			known |= strcmp(status, statuses[i]) == 0;
		if (!known)
			return err_set(ERR_INVALID, "status: must be one of draft, open, archived");
		if (strcmp(status, "merged") == 0)
			return err_set(ERR_INVALID, "status: merged is reached by merging (POST .../merge)");
		if (strcmp(cr.status, "merged") == 0 && strcmp(status, "merged") != 0)
			return err_set(ERR_CONFLICT, "the change request is merged; its status cannot change");
	}
	old = cr.status;
	if (subject)
		cr.subject = subject;
	if (status)
		cr.status = status;
	if ((rc = store_cr_update(&r->tx, &cr, old)) || (rc = load_cr(r, &s, &cr)))
		return rc;
	return send_cr(r, 200, &cr, &s);
}

/* ---- content ---- */

static int body_get(void *ctx, const char *hash, const char **md)
{
	return store_body_get(&((struct req *)ctx)->tx, hash, md);
}

static int body_put(void *ctx, const char *md, const char **hash)
{
	return store_body_put(&((struct req *)ctx)->tx, md, hash);
}

/* Keep the search index on the space's current revision: pages added or
 * changed (body, title or path) are indexed again, removed pages dropped. */
static int index_sync(struct req *r, const struct space *s, const struct revision *old, const struct revision *now)
{
	int rc;

	for (int i = 0; i < now->npages; i++) {
		const struct rev_page *p = &now->pages[i], *was = old ? revision_page(old, p->id) : NULL;
		const char *md = "";
		if (p->type == PAGE_LINK)
			continue;
		if (was && was->type == p->type && ((!was->body && !p->body) || (was->body && p->body && strcmp(was->body, p->body) == 0)) &&
		    strcmp(was->title, p->title) == 0 && strcmp(was->path, p->path) == 0 && was->no_index == p->no_index)
			continue;
		if (p->no_index) {
			if ((rc = store_search_remove_page(&r->tx, s->id, p->id)))
				return rc;
			continue;
		}
		if ((p->body && (rc = store_body_get(&r->tx, p->body, &md))) ||
		    (rc = store_search_put_page(&r->tx, s->org_id, s->id, p->id, p->title, p->path, md)))
			return rc;
	}
	for (int i = 0; old && i < old->npages; i++)
		if (!revision_page(now, old->pages[i].id) &&
		    (rc = store_search_remove_page(&r->tx, s->id, old->pages[i].id)))
			return rc;
	return 0;
}

int content_space_advance(struct req *r, const struct space *s, const struct revision *now)
{
	const struct revision *old = NULL;
	int rc = store_revision_get(&r->tx, s->revision, &old);

	if (rc && rc != ERR_NOT_FOUND)
		return rc;
	if ((rc = store_space_set_revision(&r->tx, s, now->id)))
		return rc;
	return index_sync(r, s, rc ? NULL : old, now);
}

int cr_content_update(struct req *r)
{
	struct space s;
	struct change_request cr;
	const struct revision *head, *base, *next;
	const struct user *me;
	struct tree_work w;
	struct content_outcome *out;
	const char *compat = req_query(r, "compat");
	int rc;

	if ((rc = dom_space_get(&r->dom, req_param(r, "spaceId"), ROLE_EDIT, &s)) || (rc = dom_space_editable(&s)) || (rc = load_cr(r, &s, &cr)) ||
	    (rc = require_active(&cr, "changing its content")) || (rc = req_caller(r, &me)))
		return rc;
	if (compat && strcmp(compat, "true") != 0 && strcmp(compat, "false") != 0)
		return err_set(ERR_INVALID, "compat: must be true or false");
	if ((rc = store_revision_get(&r->tx, cr.revision, &head)) ||
	    (rc = store_revision_get(&r->tx, change_request_base(&cr), &base)))
		return rc;
	if (!(out = arena_alloc(&r->arena, sizeof(*out))))
		return err_set(ERR_INTERNAL, "out of memory");
	if ((rc = tree_work_init(&w, &r->arena, head, clock_now_ms())) ||
	    (rc = content_apply_changes(r, &w, json_object_get(r->json, "changes"), base, NULL, out)))
		return rc;
	if ((rc = content_write_edits(r, &s, &w, head, &next)))
		return rc;
	cr.revision = next->id;
	if ((rc = store_cr_update(&r->tx, &cr, cr.status)) || (rc = store_cr_add_contributor(&r->tx, cr.id, me->id)) ||
	    (rc = load_cr(r, &s, &cr)))
		return rc;
	if (!compat || strcmp(compat, "true") == 0)
		return send_cr(r, 200, &cr, &s);
	struct jw *g = resp_json(r, 200);
	if (!g)
		return err_set(ERR_INTERNAL, "out of memory");
	jw_obj_open(g);
	jw_key(g, "changeRequest");
	change_request_to_json(g, api_base(r), &cr, s.revision);
	jw_key(g, "changes");
	jw_arr_open(g);
	for (int i = 0; i < out->n; i++) {
		const struct content_change *c = &out->items[i];
		jw_obj_open(g);
		jw_kstr(g, "object", c->kind);
		if (strcmp(c->kind, "deleted_page") == 0) {
			jw_kstr(g, "page", c->page_id);
		} else {
			if (c->ref)
				jw_kstr(g, "ref", c->ref);
			jw_key(g, "page");
			jw_obj_open(g);
			jw_kstr(g, "object", "page");
			jw_kstr(g, "id", c->page_id);
			jw_key(g, "urls");
			jw_obj_open(g);
			jw_kstr(g, "location", arena_printf(&r->arena, "%s/v1/spaces/%s/change-requests/%s/content/page/%s",
							    api_base(r), s.id, cr.id, c->page_id));
			jw_obj_close(g);
			jw_obj_close(g);
		}
		jw_obj_close(g);
	}
	jw_arr_close(g);
	jw_key(g, "insertedFiles");
	jw_arr_open(g);
	for (int i = 0; i < out->nfiles; i++)
		file_to_json(g, &out->files[i], content_file_url(r, out->files[i].blob, out->files[i].name));
	jw_arr_close(g);
	jw_obj_close(g);
	return 0;
}

/* ---- merge and update ---- */

static int send_conflicts(struct req *r, const char *revision, const struct merge_conflict *c, int n)
{
	struct jw *g = resp_json(r, 200);

	if (!g)
		return err_set(ERR_INTERNAL, "out of memory");
	jw_obj_open(g);
	jw_kstr(g, "revision", revision);
	jw_kstr(g, "result", "conflicts");
	jw_key(g, "conflicts");
	jw_arr_open(g);
	for (int i = 0; i < n; i++) {
		jw_obj_open(g);
		jw_kstr(g, c[i].file ? "file" : "page", c[i].page_id);
		jw_kstr(g, "reason", c[i].reason);
		jw_obj_close(g);
	}
	jw_arr_close(g);
	jw_obj_close(g);
	return 0;
}

static int send_result(struct req *r, const char *revision, const char *result)
{
	struct jw *g = resp_json(r, 200);

	if (!g)
		return err_set(ERR_INTERNAL, "out of memory");
	jw_obj_open(g);
	jw_kstr(g, "revision", revision);
	jw_kstr(g, "result", result);
	jw_obj_close(g);
	return 0;
}

/* Three-way merge of ours and theirs over base into a new revision of s;
 * *conflicts > 0 leaves nothing written. */
static int merge_into(struct req *r, const struct space *s, const struct revision *base, const struct revision *ours,
		      const struct revision *theirs, const char *type, const char *merged_from,
		      const struct revision **out, struct merge_conflict **conflicts, int *nconflicts)
{
	struct tree_merge_io io = { body_get, body_put, r };
	struct tree_work w;
	struct revision_new nr = { 0 };
	const struct user *me;
	int rc;

	if ((rc = req_caller(r, &me)) ||
	    (rc = tree_merge(&r->arena, base, ours, theirs, &io, clock_now_ms(), &w, conflicts, nconflicts)) ||
	    *nconflicts)
		return rc;
	content_revision_new(&w, &nr);
	nr.space_id = s->id;
	nr.parent_id = ours->id;
	nr.parents = arena_printf(&r->arena, "[\"%s\",\"%s\"]", ours->id, theirs->id);
	nr.type = type;
	nr.merged_from = merged_from;
	nr.created_by = me->id;
	return store_revision_create(&r->tx, &nr, out);
}

int cr_merge(struct req *r)
{
	struct space s;
	struct change_request cr;
	const struct revision *base, *main, *head, *merged;
	struct merge_conflict *conflicts;
	int n, rc;

	if ((rc = dom_space_get(&r->dom, req_param(r, "spaceId"), ROLE_REVIEW, &s)) || (rc = dom_space_editable(&s)) || (rc = load_cr(r, &s, &cr)) ||
	    (rc = require_active(&cr, "merging it again")))
		return rc;
	if ((rc = store_revision_get(&r->tx, change_request_base(&cr), &base)) ||
	    (rc = store_revision_get(&r->tx, s.revision, &main)) ||
	    (rc = store_revision_get(&r->tx, cr.revision, &head)))
		return rc;
	if ((rc = merge_into(r, &s, base, main, head, "merge", cr.id, &merged, &conflicts, &n)))
		return rc;
	if (n)
		return send_conflicts(r, cr.revision, conflicts, n);
	const char *old = cr.status;
	cr.status = "merged";
	cr.revision_merged = merged->id;
	if ((rc = content_space_advance(r, &s, merged)) || (rc = store_cr_update(&r->tx, &cr, old)))
		return rc;
	return send_result(r, merged->id, "merge");
}

int cr_update_from_main(struct req *r)
{
	struct space s;
	struct change_request cr;
	const struct revision *base, *main, *head, *updated;
	struct merge_conflict *conflicts;
	int n, rc;

	if ((rc = dom_space_get(&r->dom, req_param(r, "spaceId"), ROLE_REVIEW, &s)) || (rc = load_cr(r, &s, &cr)) ||
	    (rc = require_active(&cr, "updating it")))
		return rc;
	if (strcmp(change_request_base(&cr), s.revision) == 0)
		return send_result(r, cr.revision, "update"); /* already up to date */
	if ((rc = store_revision_get(&r->tx, change_request_base(&cr), &base)) ||
	    (rc = store_revision_get(&r->tx, s.revision, &main)) ||
	    (rc = store_revision_get(&r->tx, cr.revision, &head)))
		return rc;
	if ((rc = merge_into(r, &s, base, head, main, "update", NULL, &updated, &conflicts, &n)))
		return rc;
	if (n)
		return send_conflicts(r, cr.revision, conflicts, n);
	cr.revision = updated->id;
	cr.revision_merged_ancestor = s.revision;
	if ((rc = store_cr_update(&r->tx, &cr, cr.status)))
		return rc;
	return send_result(r, updated->id, "update");
}
