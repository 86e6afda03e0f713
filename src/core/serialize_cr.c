/*
 * serialize_cr.c - content batch and merge results, links and locations.
 */
#include "core/serialize_cr.h"
#include "core/serialize.h"

#include <stdio.h>
#include <string.h>

int cr_content_result_to_json(struct jw *g, const char *base, const struct change_request *cr,
			       const char *space_revision, const struct content_outcome *o, file_url_fn file_url,
			       void *ctx)
{
	char url[1024];
	const char *download;
	int rc;

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
	for (int i = 0; i < o->nfiles; i++) {
		if ((rc = file_url(ctx, &o->files[i], &download)))
			return rc;
		file_to_json(g, &o->files[i], download);
	}
	jw_arr_close(g);
	jw_obj_close(g);
	return 0;
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

int location_to_json(struct jw *g, const struct location_ctx *lc, const struct rev_page *p, const struct rev_file *f,
		     const char *url)
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
		const char *download;
		if ((rc = lc->file_url(lc->file_url_ctx, f, &download)))
			return rc;
		jw_key(g, "file");
		file_to_json(g, f, download);
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
	if ((rc = location_to_json(g, lc, t->page, t->file, t->url)))
		return rc;
	jw_key(g, "locationReferences");
	jw_arr_open(g);
	if ((rc = location_to_json(g, lc, from, NULL, NULL)))
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
