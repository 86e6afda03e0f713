/*
 * serialize_cr.c - content batch and merge results, links and locations.
 */
#include "json/serialize_cr.h"
#include "json/serialize.h"

#include <stdio.h>
#include <string.h>

void cr_content_result_to_json(struct jw *g, const char *base, const struct change_request *cr,
			       const char *space_revision, const struct content_outcome *o)
{
	char url[1024];

	jw_obj_open(g);
	jw_key(g, "changeRequest");
	change_request_to_json(g, base, cr, space_revision);
	jw_key(g, "changes");
	jw_arr_open(g);
	for (int i = 0; i < o->n; i++) {
		const struct content_change *c = &o->items[i];
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
			snprintf(url, sizeof(url), "%s/v1/spaces/%s/change-requests/%s/content/page/%s", base,
				 cr->space_id, cr->id, c->page_id);
			jw_kstr(g, "location", url);
			jw_obj_close(g);
			jw_obj_close(g);
		}
		jw_obj_close(g);
	}
	jw_arr_close(g);
	jw_key(g, "insertedFiles");
	jw_arr_open(g);
	for (int i = 0; i < o->nfiles; i++)
		file_to_json(g, &o->files[i], o->file_urls[i]);
	jw_arr_close(g);
	jw_obj_close(g);
}

void cr_merge_result_to_json(struct jw *g, const struct cr_merge_result *m)
{
	jw_obj_open(g);
	jw_kstr(g, "revision", m->revision);
	jw_kstr(g, "result", m->result);
	if (m->nconflicts) {
		jw_key(g, "conflicts");
		jw_arr_open(g);
		for (int i = 0; i < m->nconflicts; i++) {
			jw_obj_open(g);
			jw_kstr(g, m->conflicts[i].file ? "file" : "page", m->conflicts[i].page_id);
			jw_kstr(g, "reason", m->conflicts[i].reason);
			jw_obj_close(g);
		}
		jw_arr_close(g);
	}
	jw_obj_close(g);
}

static const char *page_type_name(enum page_type t)
{
	return t == PAGE_GROUP ? "group" : t == PAGE_LINK ? "link" : t == PAGE_COMPUTED ? "computed" : "document";
}

/* ChangedRevisionPage */
static void changed_page(struct jw *g, const struct rev_page *p)
{
	jw_obj_open(g);
	jw_kstr(g, "id", p->id);
	jw_kstr(g, "type", page_type_name(p->type));
	jw_kstr(g, "title", p->title ? p->title : "");
	if (p->path)
		jw_kstr(g, "path", p->path);
	jw_obj_close(g);
}

static bool differ(const char *a, const char *b)
{
	return (a == NULL) != (b == NULL) || (a && strcmp(a, b) != 0);
}

/* A ChangeAttributeString when before and after differ (unset sides left out). */
static void attr_str(struct jw *g, const char *key, const char *before, const char *after)
{
	if (!differ(before, after))
		return;
	jw_key(g, key);
	jw_obj_open(g);
	if (before)
		jw_kstr(g, "before", before);
	if (after)
		jw_kstr(g, "after", after);
	jw_obj_close(g);
}

static void url_ref(struct jw *g, const char *key, const char *url)
{
	if (!url)
		return;
	jw_key(g, key);
	jw_obj_open(g);
	jw_kstr(g, "kind", "url");
	jw_kstr(g, "url", url);
	jw_obj_close(g);
}

/* The attributes of a page edit the page's type shows. */
static void page_attributes(struct jw *g, const struct rev_page *was, const struct rev_page *now)
{
	jw_obj_open(g);
	attr_str(g, "title", was->title, now->title);
	attr_str(g, "emoji", was->emoji, now->emoji);
	if (now->type != PAGE_LINK)
		attr_str(g, "slug", was->slug, now->slug);
	if (now->type == PAGE_DOCUMENT) {
		attr_str(g, "description", was->description, now->description);
		attr_str(g, "document", was->body, now->body);
	}
	if (now->type == PAGE_LINK && differ(was->href, now->href)) {
		jw_key(g, "target");
		jw_obj_open(g);
		url_ref(g, "before", was->href);
		url_ref(g, "after", now->href);
		jw_obj_close(g);
	}
	jw_obj_close(g);
}

/* ChangedRevisionFile */
static void changed_file(struct jw *g, const struct rev_file *f, const char *url)
{
	jw_obj_open(g);
	jw_kstr(g, "id", f->id);
	jw_kstr(g, "name", f->name ? f->name : "");
	jw_kstr(g, "contentType", f->content_type ? f->content_type : "application/octet-stream");
	jw_kstr(g, "downloadURL", url ? url : "");
	jw_obj_close(g);
}

static void dimensions(struct jw *g, const struct rev_file *f)
{
	if (f->width <= 0 || f->height <= 0)
		return;
	jw_obj_open(g);
	jw_kint(g, "width", f->width);
	jw_kint(g, "height", f->height);
	jw_obj_close(g);
}

static void file_attributes(struct jw *g, const struct cr_change *c)
{
	const struct rev_file *a = c->file_was, *b = c->file;

	jw_obj_open(g);
	attr_str(g, "name", a->name, b->name);
	if (differ(a->blob, b->blob))
		attr_str(g, "downloadURL", c->url_was, c->url);
	if (a->size != b->size) {
		jw_key(g, "size");
		jw_obj_open(g);
		jw_kint(g, "before", a->size);
		jw_kint(g, "after", b->size);
		jw_obj_close(g);
	}
	attr_str(g, "contentType", a->content_type, b->content_type);
	if (a->width != b->width || a->height != b->height) {
		jw_key(g, "dimensions");
		jw_obj_open(g);
		if (a->width > 0 && a->height > 0) {
			jw_key(g, "before");
			dimensions(g, a);
		}
		if (b->width > 0 && b->height > 0) {
			jw_key(g, "after");
			dimensions(g, b);
		}
		jw_obj_close(g);
	}
	jw_obj_close(g);
}

void cr_changes_to_json(struct jw *g, const struct cr_changes *c)
{
	static const char *const names[] = {
		[CR_PAGE_CREATED] = "page_created", [CR_PAGE_EDITED] = "page_edited",
		[CR_PAGE_DELETED] = "page_deleted", [CR_PAGE_MOVED] = "page_moved",
		[CR_FILE_CREATED] = "file_created", [CR_FILE_EDITED] = "file_edited",
		[CR_FILE_DELETED] = "file_deleted",
	};

	jw_obj_open(g);
	jw_key(g, "changes");
	jw_arr_open(g);
	for (int i = 0; i < c->n; i++) {
		const struct cr_change *x = &c->items[i];
		jw_obj_open(g);
		jw_kstr(g, "type", names[x->kind]);
		if (x->page) {
			jw_key(g, "page");
			changed_page(g, x->page);
		} else {
			jw_key(g, "file");
			changed_file(g, x->file, x->url);
		}
		if (x->kind == CR_PAGE_EDITED) {
			jw_key(g, "attributes");
			page_attributes(g, x->was, x->page);
		} else if (x->kind == CR_FILE_EDITED) {
			jw_key(g, "attributes");
			file_attributes(g, x);
		} else if (x->kind == CR_PAGE_MOVED) {
			jw_key(g, "parent");
			jw_obj_open(g);
			if (x->parent_before) {
				jw_key(g, "before");
				changed_page(g, x->parent_before);
			}
			if (x->parent_after) {
				jw_key(g, "after");
				changed_page(g, x->parent_after);
			}
			jw_obj_close(g);
		}
		jw_obj_close(g);
	}
	jw_arr_close(g);
	jw_kint(g, "more", c->more);
	jw_obj_close(g);
}

void cr_contributor_to_json(struct jw *g, const char *base, const struct user *u, const char *action, int64_t count,
			    int64_t updated_at)
{
	jw_obj_open(g);
	jw_kts(g, "updatedAt", updated_at);
	jw_kint(g, "count", count);
	jw_key(g, "user");
	user_to_json(g, base, u, false);
	jw_kstr(g, "actionType", action);
	jw_obj_close(g);
}

int location_to_json(struct jw *g, const struct location_ctx *lc, const struct rev_page *p, const struct rev_file *f,
		     const char *download, const char *url)
{
	int rc;

	jw_obj_open(g);
	if (!p && !f) {
		jw_kstr(g, "kind", "url");
		jw_kstr(g, "url", url ? url : "");
		jw_obj_close(g);
		return 0;
	}
	jw_kstr(g, "kind", p ? "page" : "file");
	jw_key(g, "organization");
	org_to_json(g, lc->base, lc->org, lc->standing);
	jw_key(g, "space");
	space_to_json(g, lc->base, lc->space, lc->space->access);
	/* versionContext is left out: GitBook's schema wants the whole Revision
	 * or ChangeRequest there, repeated in every item. */
	if (p) {
		jw_key(g, "page");
		if ((rc = page_to_json(g, lc->rv, p, &lc->pages)))
			return rc;
	} else {
		jw_key(g, "file");
		file_to_json_meta(g, f, download, !lc->pages.no_git);
	}
	jw_obj_close(g);
	return 0;
}

int link_to_json(struct jw *g, const struct location_ctx *lc, const struct rev_page *from,
		 const struct link_target *t)
{
	int rc;

	jw_obj_open(g);
	jw_kstr(g, "status", t->status);
	jw_kstr(g, "relation", "reference");
	jw_key(g, "targetReference");
	if ((rc = location_to_json(g, lc, t->page, t->file, t->file_url, t->url)))
		return rc;
	jw_key(g, "locationReferences");
	jw_arr_open(g);
	if ((rc = location_to_json(g, lc, from, NULL, NULL, NULL)))
		return rc;
	jw_arr_close(g);
	jw_obj_close(g);
	return 0;
}

void link_stats_to_json(struct jw *g, int total, int broken, bool with_cr)
{
	jw_arr_close(g);
	jw_key(g, "stats");
	jw_obj_open(g);
	jw_kint(g, "total", total);
	jw_key(g, "broken");
	jw_obj_open(g);
	jw_kint(g, "total", broken);
	if (with_cr)
		jw_kint(g, "changeRequest", 0);
	jw_obj_close(g);
	jw_obj_close(g);
}

void url_to_json(struct jw *g, const char *url)
{
	jw_obj_open(g);
	jw_kstr(g, "url", url);
	jw_obj_close(g);
}

int pages_to_json(struct jw *g, const struct revision *rv, const struct page_json *o)
{
	int rc;

	jw_obj_open(g);
	jw_key(g, "pages");
	jw_arr_open(g);
	for (int c = rv->first_root; c >= 0; c = rv->pages[c].next_sibling)
		if ((rc = page_to_json(g, rv, &rv->pages[c], o)))
			return rc;
	jw_arr_close(g);
	jw_obj_close(g);
	return 0;
}

/* ---- reviews (domain/reviews.h) ---- */

void cr_review_to_json(struct jw *g, const char *base, const struct cr_review *r, bool with_email,
		       const struct comment *c, const struct comment_view *v)
{
	jw_obj_open(g);
	jw_kstr(g, "object", "change-request-review");
	jw_kstr(g, "id", r->id);
	jw_kstr(g, "revision", r->revision);
	jw_key(g, "reviewer");
	user_to_json(g, base, &r->reviewer, with_email);
	if (r->requested_by.id) {
		jw_key(g, "requestedBy");
		user_to_json(g, base, &r->requested_by, with_email);
	}
	jw_kstr(g, "status", r->status);
	jw_kbool(g, "outdated", r->outdated);
	if (c) {
		jw_key(g, "comment");
		comment_to_json(g, c, v);
	}
	jw_kts(g, "createdAt", r->created_at);
	jw_kts(g, "updatedAt", r->updated_at);
	jw_obj_close(g);
}

void cr_requested_reviewer_to_json(struct jw *g, const char *base, const struct cr_requested_reviewer *q,
				   bool with_email)
{
	jw_obj_open(g);
	jw_kstr(g, "object", "change-request-requested-reviewer");
	jw_kstr(g, "kind", "user");
	jw_key(g, "user");
	user_to_json(g, base, &q->user, with_email);
	jw_kstr(g, "revision", q->revision);
	jw_key(g, "requestedBy");
	user_to_json(g, base, &q->requested_by, with_email);
	jw_kts(g, "createdAt", q->created_at);
	jw_obj_close(g);
}

void cr_requested_reviewers_to_json(struct jw *g, const char *base, const struct cr_requested_reviewer *items,
				    int n, bool with_email)
{
	jw_obj_open(g);
	jw_key(g, "users");
	jw_arr_open(g);
	for (int i = 0; i < n; i++)
		cr_requested_reviewer_to_json(g, base, &items[i], with_email);
	jw_arr_close(g);
	jw_obj_close(g);
}
