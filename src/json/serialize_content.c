/*
 * serialize_content.c - revisions, pages, files, change requests.
 *
 * Shapes follow GitBook's schemas (RevisionPageDocument / Group / Link,
 * RevisionFile, ChangeRequest, Revision*): a document page always carries
 * its layout and the deprecated `kind`, which the schema still requires.
 * Git sync's metadata (a page's and a file's GitSyncBlob, a revision's
 * GitSyncCommit) is written when the entry has it, unless the read asked
 * for metadata=false (page_json.no_git).
 */
#include "json/serialize_content.h"
#include "format/markdown.h"
#include "json/serialize.h"
#include "util/err.h"

#include <stdio.h>
#include <string.h>

void change_request_to_json(struct jw *g, const char *base, const struct change_request *cr,
			    const char *space_revision)
{
	char num[24];

	jw_obj_open(g);
	jw_kstr(g, "object", "change-request");
	jw_kstr(g, "id", cr->id);
	jw_kint(g, "number", cr->number);
	jw_kstr(g, "status", cr->status);
	jw_kstr(g, "subject", cr->subject ? cr->subject : "");
	if (cr->description) { /* stored as compact JSON (domain/change_requests.c) */
		jw_key(g, "description");
		jw_raw(g, cr->description);
	}
	jw_key(g, "createdBy");
	user_to_json(g, base, &cr->created_by, false);
	jw_kts(g, "createdAt", cr->created_at);
	jw_kts(g, "updatedAt", cr->updated_at);
	jw_kstr(g, "space", cr->space_id);
	jw_kstr(g, "revision", cr->revision);
	jw_kstr(g, "revisionInitial", cr->revision_initial);
	jw_kstr_opt(g, "revisionMergedAncestor", cr->revision_merged_ancestor);
	jw_kstr_opt(g, "revisionMerged", cr->revision_merged);
	jw_kint(g, "comments", cr->comments);
	/* A merged change request is never outdated: it is part of the space. */
	jw_kbool(g, "outdated", strcmp(cr->status, "merged") != 0 && space_revision &&
					strcmp(space_revision, change_request_base(cr)) != 0);
	if (cr->agent_task_id)
		jw_kstr(g, "agentTaskId", cr->agent_task_id);
	jw_key(g, "urls");
	jw_obj_open(g);
	snprintf(num, sizeof(num), "%lld", (long long)cr->number);
	jw_key(g, "app");
	{
		char *u = NULL;
		size_t need = strlen(base) + strlen(cr->space_id) + strlen(num) + 32;
		char buf[512];
		if (need < sizeof(buf)) {
			snprintf(buf, sizeof(buf), "%s/s/%s/~/changes/%s", base, cr->space_id, num);
			u = buf;
		}
		jw_str(g, u ? u : base);
	}
	jw_key(g, "location");
	{
		char buf[512];
		snprintf(buf, sizeof(buf), "%s/v1/spaces/%s/change-requests/%s", base, cr->space_id, cr->id);
		jw_str(g, buf);
	}
	jw_obj_close(g);
	jw_obj_close(g);
}

/* GitBook's GitSyncBlob: both fields are required. */
static void git_blob_json(struct jw *g, const char *oid, const char *path)
{
	if (!oid || !path)
		return;
	jw_key(g, "git");
	jw_obj_open(g);
	jw_kstr(g, "oid", oid);
	jw_kstr(g, "path", path);
	jw_obj_close(g);
}

void file_to_json(struct jw *g, const struct rev_file *f, const char *download_url)
{
	file_to_json_meta(g, f, download_url, 1);
}

void file_to_json_meta(struct jw *g, const struct rev_file *f, const char *download_url, int git)
{
	jw_obj_open(g);
	jw_kstr(g, "id", f->id);
	jw_kstr(g, "name", f->name ? f->name : "");
	jw_kstr(g, "contentType", f->content_type ? f->content_type : "application/octet-stream");
	jw_kstr(g, "downloadURL", download_url ? download_url : "");
	jw_kint(g, "size", f->size);
	if (f->width > 0 && f->height > 0) {
		jw_key(g, "dimensions");
		jw_obj_open(g);
		jw_kint(g, "width", f->width);
		jw_kint(g, "height", f->height);
		jw_obj_close(g);
	}
	if (git)
		git_blob_json(g, f->git_oid, f->git_path);
	jw_obj_close(g);
}

static void page_app_url(struct jw *g, const struct page_json *o, const struct rev_page *p)
{
	char buf[1024];

	snprintf(buf, sizeof(buf), "%s/s/%s/%s", o->base, o->space_id, p->path ? p->path : p->slug);
	jw_key(g, "urls");
	jw_obj_open(g);
	jw_kstr(g, "app", buf);
	jw_obj_close(g);
}

/* GitBook's RevisionPageLayoutOptions, every field of which is required: the
 * page's own (stored whole, as JSON text, by whoever set it: Git sync's
 * import fills the defaults) or the defaults. */
static void layout_json(struct jw *g, const char *layout)
{
	jw_key(g, "layout");
	if (layout && *layout == '{') {
		jw_raw(g, layout);
		return;
	}
	jw_obj_open(g);
	jw_kstr(g, "width", "default");
	jw_kbool(g, "cover", false);
	jw_kstr(g, "coverSize", "hero");
	jw_kbool(g, "title", true);
	jw_kbool(g, "description", true);
	jw_kbool(g, "tableOfContents", true);
	jw_kbool(g, "outline", true);
	jw_kbool(g, "pagination", true);
	jw_kbool(g, "metadata", true);
	jw_obj_close(g);
}

/* The rest of a computed page (GitBook's RevisionPageComputed: its source,
 * no child pages), and its markdown or document when the caller computed
 * one (o->markdown: the API reference of an OpenAPI page). */
static int computed_page_json(struct jw *g, const struct rev_page *p, const struct page_json *o)
{
	if (o->computed_as_document) {
		jw_kstr(g, "kind", "sheet");
		jw_kstr(g, "type", "document");
	} else {
		jw_kstr(g, "type", "computed");
		jw_key(g, "computed");
		jw_raw(g, p->computed && *p->computed ? p->computed : "{}");
	}
	jw_kstr(g, "slug", p->slug);
	jw_kstr(g, "path", p->path ? p->path : p->slug);
	jw_kbool(g, "hidden", p->hidden);
	jw_kbool(g, "noIndex", p->no_index);
	jw_kbool(g, "noRobotsIndex", p->no_robots_index);
	page_app_url(g, o, p);
	jw_kstr_opt(g, "description", p->description);
	if (o->computed_as_document) {
		layout_json(g, p->layout);
		jw_key(g, "pages");
		jw_arr_open(g);
		jw_arr_close(g);
	}
	if (o->markdown && o->as_document) {
		jw_key(g, "document");
		if (md_to_document(g, o->markdown, strlen(o->markdown)) < 0)
			return err_set(ERR_INTERNAL, "out of memory");
	} else if (o->markdown) {
		jw_kstr(g, "markdown", o->markdown);
	}
	jw_obj_close(g);
	return 0;
}

int page_to_json(struct jw *g, const struct revision *rv, const struct rev_page *p, const struct page_json *o)
{
	static const char *const kinds[] = { "sheet", "group", "link" };
	static const char *const types[] = { "document", "group", "link" };
	int rc;

	jw_obj_open(g);
	jw_kstr(g, "id", p->id);
	jw_kstr(g, "title", p->title && *p->title ? p->title : "Untitled");
	jw_kstr_opt(g, "emoji", p->emoji);
	jw_kstr_opt(g, "icon", p->icon);
	jw_kts(g, "createdAt", p->created_at);
	jw_kts(g, "updatedAt", p->updated_at);
	if (p->type == PAGE_COMPUTED)
		return computed_page_json(g, p, o);
	jw_kstr(g, "kind", kinds[p->type]);
	jw_kstr(g, "type", types[p->type]);
	if (p->type == PAGE_LINK) {
		jw_key(g, "target");
		jw_obj_open(g);
		jw_kstr(g, "kind", "url");
		jw_kstr(g, "url", p->href ? p->href : "");
		jw_obj_close(g);
		jw_kstr(g, "href", p->href ? p->href : "");
		jw_kbool(g, "hidden", p->hidden);
		jw_obj_close(g);
		return 0;
	}
	jw_kstr(g, "slug", p->slug);
	jw_kstr(g, "path", p->path ? p->path : p->slug);
	jw_kbool(g, "hidden", p->hidden);
	jw_kbool(g, "noIndex", p->no_index);
	jw_kbool(g, "noRobotsIndex", p->no_robots_index);
	if (p->type == PAGE_DOCUMENT) {
		page_app_url(g, o, p);
		if (p->description)
			jw_kstr(g, "description", p->description);
		layout_json(g, p->layout);
		/* GitBook's page variables ({{ page.vars.x }}): an object of
		 * strings, numbers and booleans docsd wrote itself (front matter
		 * vars:, format/markdown.c). */
		if (p->vars && *p->vars == '{') {
			jw_key(g, "variables");
			jw_raw(g, p->vars);
		}
		/* GitBook's RevisionPageDocumentCover, as Git import made it. */
		if (p->cover && *p->cover == '{') {
			jw_key(g, "cover");
			jw_raw(g, p->cover);
		}
		if (!o->no_git)
			git_blob_json(g, p->git_oid, p->git_path);
		const char *md = o->markdown;
		if (!md && o->bodies && p >= rv->pages && p < rv->pages + rv->npages)
			md = o->bodies[p - rv->pages];
		if (md && o->as_document) {
			jw_key(g, "document");
			if (md_to_document(g, md, strlen(md)) < 0)
				return err_set(ERR_INTERNAL, "out of memory");
		} else if (md) {
			jw_kstr(g, "markdown", md);
		}
	}
	jw_key(g, "pages");
	jw_arr_open(g);
	if (o->children) {
		struct page_json child = *o;
		child.markdown = NULL;
		child.as_document = 0;
		for (int c = p->first_child; c >= 0; c = rv->pages[c].next_sibling)
			if ((rc = page_to_json(g, rv, &rv->pages[c], &child)))
				return rc;
	}
	jw_arr_close(g);
	jw_obj_close(g);
	return 0;
}

int revision_to_json(struct jw *g, const char *base, const struct revision *rv,
		     const struct change_request *merged_from, const char *merged_space_revision,
		     const char *const *file_urls, const struct page_json *pages_opts)
{
	struct page_json o = *pages_opts;
	int merge = merged_from && strcmp(rv->type, "merge") == 0, rc;

	jw_obj_open(g);
	jw_kstr(g, "object", "revision");
	jw_kstr(g, "id", rv->id);
	jw_key(g, "parents");
	jw_raw(g, rv->parents ? rv->parents : "[]");
	jw_kstr(g, "type", merge ? "merge" : strcmp(rv->type, "update") == 0 ? "update" : "edits");
	if (merge) {
		jw_key(g, "mergedFrom");
		change_request_to_json(g, base, merged_from, merged_space_revision);
	}
	jw_kts(g, "createdAt", rv->created_at);
	if (rv->git && *rv->git == '{' && !o.no_git) { /* GitSyncCommit, stored as JSON text */
		jw_key(g, "git");
		jw_raw(g, rv->git);
	}
	jw_key(g, "pages");
	jw_arr_open(g);
	for (int c = rv->first_root; c >= 0; c = rv->pages[c].next_sibling)
		if ((rc = page_to_json(g, rv, &rv->pages[c], &o)))
			return rc;
	jw_arr_close(g);
	jw_key(g, "files");
	jw_arr_open(g);
	for (int i = 0; i < rv->nfiles; i++)
		file_to_json_meta(g, &rv->files[i], file_urls[i], !o.no_git);
	jw_arr_close(g);
	jw_key(g, "reusableContents");
	jw_arr_open(g);
	jw_arr_close(g);
	jw_key(g, "variables");
	jw_obj_open(g);
	jw_obj_close(g);
	jw_key(g, "urls");
	jw_obj_open(g);
	jw_kurl(g, "app", base, "/s/", rv->space_id);
	jw_obj_close(g);
	jw_obj_close(g);
	return 0;
}

void import_result_to_json(struct jw *g, const char *revision, int imported, int total)
{
	jw_obj_open(g);
	jw_kstr(g, "revision", revision);
	jw_kint(g, "importedResources", imported);
	jw_kint(g, "totalResources", total);
	jw_obj_close(g);
}
