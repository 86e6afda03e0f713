/*
 * pages_write.c - writing through change requests in the web interface
 * (issue 25, "Writing"): start a change request from a space, edit a page's
 * markdown and title with a preview, create, move and delete pages.
 *
 * DESIGN
 * Every save is ONE updateChangeRequestContent batch built here and given
 * to the same domain function the API's handler calls
 * (dom_cr_content_apply, api/change_requests.c's cr_content_update), in the
 * dispatcher's one write transaction (APP_WRITE: the CSRF token is checked
 * before the handler runs). So the API and the interface see the same
 * revisions and the same refusals: access, a locked space, a merged or
 * archived change request, a bad title are the domain's errors, shown on
 * the form's page with their message and status (never a 500), never a
 * rule of this file. Starting a change request is createChangeRequest's
 * dom_cr_create.
 *
 * No silent lost update (issue 30, item 4): the editor's form names the
 * change request's head it was rendered from (hidden "base"), and a save is
 * dom_cr_content_on_base: over a newer head the page's markdown is merged
 * line by line (the API's merge3), and a conflict writes nothing and comes
 * back as a 409 page with both sides and a form made on the new head. A
 * preview or a refusal keeps the base the form was sent with, so the save
 * after it still merges with whatever came in between.
 *
 * The controls are hidden from a member whose role does not allow editing
 * (space_permissions(...).edit, the `permissions.edit` the API serializes);
 * hiding is a courtesy only: the domain refuses anyway.
 *
 * URLs (under a change request's urls.app, /s/{id}/~/changes/{number}; "~"
 * is GitBook's reserved prefix, which no page path takes):
 *   POST /s/{id}/~/changes/new                      start one (303 to its editor)
 *   GET  /s/{id}/~/changes/{n}/~/edit               its pages, a new-page form
 *   POST /s/{id}/~/changes/{n}/~/pages              create a page
 *   GET  /s/{id}/~/changes/{n}/~/edit/{pageId}      the editor
 *   POST /s/{id}/~/changes/{n}/~/edit/{pageId}      save (or, action=preview, render)
 *   POST /s/{id}/~/changes/{n}/~/move/{pageId}      move (parent, position)
 *   POST /s/{id}/~/changes/{n}/~/delete/{pageId}    delete
 *   POST /s/{id}/~/preview                          markdown -> HTML fragment (edit.js)
 *
 * The preview renders with the published site's renderer (md_to_html_toc),
 * so what the writer sees is what readers get; links are left as written.
 * Without script the editor's "Preview" button posts the form and the same
 * page comes back with the preview filled in (nothing is saved).
 */
#include "app/app.h"
#include "app/pages.h"
#include "app/pages_write.h"
#include "app/session.h"
#include "domain/content.h"
#include "domain/spaces.h"
#include "http/form.h"
#include "model/access.h"
#include "site/site.h"
#include "store/store.h"
#include "util/err.h"
#include "util/base64.h"
#include "util/text.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Form field limits (the domain's own limits are checked again there; these
 * only bound what this file copies and echoes back). */
#define TITLE_MAX 256
#define MD_MAX (1024 * 1024)

/* ---- small helpers ---- */

static bool all_digits(const char *s)
{
	if (!s || !*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* "/s/{id}/~/changes/{n}" + tail, percent-encoded (not escaped). */
static const char *cr_url(struct app_page *p, const char *space_id, const char *num, const char *tail,
			  const char *page_id)
{
	struct jw h;
	const char *out;

	jw_init(&h);
	html_raw(&h, "/s/");
	url_path_enc(&h, space_id);
	html_raw(&h, "/~/changes/");
	url_path_enc(&h, num);
	html_raw(&h, tail);
	if (page_id)
		url_path_enc(&h, page_id);
	out = jw_take(&h, &p->r->arena, NULL);
	return out;
}

/* A form field: 1 found, 0 absent, ERR_INVALID (naming it) when malformed
 * or longer than max bytes. */
static int field(struct app_page *p, const char *name, size_t max, const char **out)
{
	struct req *r = p->r;
	int rc;

	*out = NULL;
	if (r->body_too_large)
		return err_set(ERR_INVALID, "the form is too large");
	rc = form_field(&r->arena, r->body ? r->body : "", r->body ? r->body_len : 0, name, out);
	if (rc < 0)
		return err_set(ERR_INVALID, "%s: not valid form data (bad escape, NUL or invalid UTF-8)", name);
	if (rc == 1 && strlen(*out) > max)
		return err_set(ERR_INVALID, "%s: longer than %zu bytes", name, max);
	return rc;
}

/* The form's body is urlencoded (the dispatcher's CSRF check read it so). */
static int form_body(struct app_page *p)
{
	const char *ct = req_header(p->r, "Content-Type");

	if (!ct || strncmp(ct, "application/x-www-form-urlencoded", 33) != 0)
		return err_set(ERR_INVALID, "the form must be sent as application/x-www-form-urlencoded");
	return 0;
}

/* Whether the actor may edit the space (permissions.edit, as the API
 * serializes it). */
static bool may_edit(struct app_page *p, const struct space *s)
{
	struct space_permissions perm;
	enum role role;

	if (!p->d || dom_space_role(p->d, s, &role))
		return false;
	space_permissions(&perm, role, s->edit_mode && strcmp(s->edit_mode, "locked") == 0);
	return perm.edit;
}

/* An open or draft change request takes edits (the domain's rule for
 * updateChangeRequestContent; this only decides what to show). */
static bool cr_active(const struct change_request *cr)
{
	return strcmp(cr->status, "open") == 0 || strcmp(cr->status, "draft") == 0;
}

/* The trail: Home, the space, the change request, then title. */
static void frame(struct app_page *p, const struct content_src *src, const char *num, const char *title)
{
	struct jw h;
	const char *space_href, *cr_href;
	char label[64];

	jw_init(&h);
	app_href(&h, "/s/", src->space.id);
	space_href = jw_take(&h, &p->r->arena, "/");
	cr_href = cr_url(p, src->space.id, num, "", NULL);
	snprintf(label, sizeof(label), "Change request #%s", num);
	struct app_crumb crumbs[] = {
		{ "Home", "/" },
		{ src->space.title && *src->space.title ? src->space.title : "Untitled space", space_href },
		{ arena_strdup(&p->r->arena, label), cr_href ? cr_href : "/" },
		{ title, NULL },
	};
	app_frame_begin(p, title, crumbs, 4);
	html_raw(p->out, "<link rel=\"stylesheet\" href=\"");
	app_text(p->out, app_write_css_url());
	html_raw(p->out, "\">");
}

static void script_tag(struct app_page *p)
{
	html_raw(p->out, "<script src=\"");
	app_text(p->out, app_edit_js_url());
	html_raw(p->out, "\" defer></script>");
}

static void error_note(struct app_page *p, const char *msg)
{
	if (!msg)
		return;
	html_raw(p->out, "<p class=\"form-error\" role=\"alert\">");
	app_text(p->out, msg);
	html_raw(p->out, "</p>");
}

/* A domain error shown on the form's page: its status and message. A 404
 * keeps the dispatcher's one 404 page (another organization's ids look
 * missing); a 403 is shown (the member reads the change request, only the
 * role is short, and the page then shows no controls). */
static int form_error(int rc, int *status, const char **msg, struct app_page *p)
{
	if ((rc = app_form_refused(p, rc, msg)))
		return rc;
	*status = p->status;
	return 0;
}

/* ---- the markdown preview ---- */

/* Links of a preview: a file of the content shown (/files/{id}, what an
 * upload's snippet writes) becomes its signed download URL, as the page's
 * own view does; anything else is left as written. */
struct preview_links {
	struct app_page *p;
	const struct revision *rv;
};

static const char *preview_link(void *ctx, const char *target)
{
	struct preview_links *l = ctx;
	struct link_target t;
	const char *url = NULL;

	if (!l->rv)
		return NULL;
	link_resolve("", l->rv, NULL, target, &t);
	if (t.kind != LINK_FILE || !t.file || dom_file_url(l->p->d, l->rv->space_id, l->rv->id, t.file->id, &url))
		return NULL;
	return url;
}

static int preview_html(struct app_page *p, const char *md, const struct revision *rv)
{
	struct md_headings h = { 0 };
	struct preview_links l = { p, rv };

	if (md_to_html_toc(p->out, &p->r->arena, md, strlen(md), preview_link, &l, &h) < 0)
		return err_set(ERR_INTERNAL, "markdown rendering failed");
	return 0;
}

int write_preview(struct app_page *p)
{
	const char *md, *cr;
	struct content_src src;
	int rc;

	/* Not state-changing, so a read transaction; the token still keeps
	 * other sites from using a member's session to render. */
	if (!app_csrf_ok(p->r, p->csrf)) {
		/* The dispatcher's answer for a stale token (app.c), as a page. */
		app_error_page(p, 403, "This form is out of date", "The form is out of date: reload the page and try again.");
		return 0;
	}
	if ((rc = form_body(p)) || (rc = field(p, "markdown", MD_MAX, &md)) < 0 ||
	    (rc = field(p, "cr", 20, &cr)) < 0)
		return rc;
	if (!md)
		md = "";
	if (cr && !all_digits(cr))
		return err_set(ERR_NOT_FOUND, "not found");
	/* The reader's access to the space (or the change request) first:
	 * its files resolve the preview's images. */
	if ((rc = dom_content_source(p->d, req_param(p->r, "spaceId"), cr, NULL, ROLE_READ, &src)))
		return rc;
	/* A fragment (no frame): edit.js puts it in the preview's box. */
	return preview_html(p, md, src.rv);
}

/* ---- starting a change request ---- */

int write_cr_new(struct app_page *p)
{
	const char *id = req_param(p->r, "spaceId"), *subject;
	struct cr_new in = { 0 };
	struct change_request cr;
	struct space s;
	char num[32];
	int rc;

	if ((rc = form_body(p)) || (rc = field(p, "subject", 100, &subject)) < 0)
		return rc;
	in.subject = subject && *subject ? subject : NULL;
	if ((rc = dom_cr_create(p->d, id, &in, &s, &cr)))
		return rc;
	snprintf(num, sizeof(num), "%lld", (long long)cr.number);
	p->location = cr_url(p, s.id, num, "/~/edit", NULL);
	return p->location ? 0 : err_set(ERR_INTERNAL, "out of memory");
}

/* ---- the change request's pages ---- */

static void tree_rows(struct app_page *p, const struct revision *rv, int first, const char *num, int depth)
{
	struct jw *b = p->out;

	if (first < 0 || depth > 12)
		return;
	html_raw(b, "<ul class=\"write-tree\">");
	for (int i = first; i >= 0; i = rv->pages[i].next_sibling) {
		const struct rev_page *pg = &rv->pages[i];
		bool movable = pg->type == PAGE_DOCUMENT || pg->type == PAGE_GROUP;
		/* edit.js: drag a page (data-move: its move form's action) onto
		 * another (data-page) to move it there. */
		html_raw(b, "<li data-page=\"");
		app_text(b, pg->id);
		if (movable) {
			const char *m = cr_url(p, rv->space_id, num, "/~/move/", pg->id);
			html_raw(b, "\" data-move=\"");
			app_text(b, m ? m : "/");
		}
		html_raw(b, "\"><span>");
		app_emoji(b, pg->emoji);
		app_text(b, pg->title && *pg->title ? pg->title : "Untitled");
		html_raw(b, "</span>");
		if (movable) {
			const char *u = cr_url(p, rv->space_id, num, "/~/edit/", pg->id);
			html_raw(b, " <a href=\"");
			app_text(b, u ? u : "/");
			html_raw(b, "\">Edit<span class=\"sr\"> ");
			app_text(b, pg->title);
			html_raw(b, "</span></a>");
		}
		tree_rows(p, rv, pg->first_child, num, depth + 1);
		html_raw(b, "</li>");
	}
	html_raw(b, "</ul>");
}

/* <option>s for a parent: the top level and every document or group page
 * that is not `self` or below it. */
static void parent_options(struct app_page *p, const struct revision *rv, int first, const char *self,
			   const char *selected, int depth)
{
	struct jw *b = p->out;

	if (depth > 12)
		return;
	for (int i = first; i >= 0; i = rv->pages[i].next_sibling) {
		const struct rev_page *pg = &rv->pages[i];
		if (self && strcmp(pg->id, self) == 0)
			continue;
		if (pg->type != PAGE_DOCUMENT && pg->type != PAGE_GROUP)
			continue;
		html_raw(b, "<option value=\"");
		app_text(b, pg->id);
		html_raw(b, "\"");
		if (selected && strcmp(selected, pg->id) == 0)
			html_raw(b, " selected");
		html_raw(b, ">");
		for (int k = 0; k < depth; k++)
			html_raw(b, "— ");
		app_text(b, pg->title && *pg->title ? pg->title : "Untitled");
		html_raw(b, "</option>");
		parent_options(p, rv, pg->first_child, self, selected, depth + 1);
	}
}

static int show_index(struct app_page *p, const char *msg, int status)
{
	const char *id = req_param(p->r, "spaceId"), *num = req_param(p->r, "number"), *u;
	struct content_src src;
	struct jw *b = p->out;
	int rc;

	if (!all_digits(num))
		return err_set(ERR_NOT_FOUND, "not found");
	if ((rc = dom_content_source(p->d, id, num, NULL, ROLE_READ, &src)))
		return rc;
	p->out->len = 0;
	p->status = status;
	frame(p, &src, num, "Edit pages");
	html_raw(b, "<h1>Edit pages</h1><p class=\"banner\" role=\"note\">Change request <a href=\"");
	app_text(b, (u = cr_url(p, id, num, "", NULL)) ? u : "/");
	html_raw(b, "\">#");
	app_text(b, num);
	html_raw(b, " ");
	app_text(b, src.cr.subject && *src.cr.subject ? src.cr.subject : "Untitled change request");
	html_raw(b, "</a> <span class=\"badge st-");
	app_text(b, src.cr.status);
	html_raw(b, "\">");
	app_text(b, src.cr.status);
	html_raw(b, "</span>: every save is one revision of this change request; the space changes when it is "
		    "merged.</p>");
	error_note(p, msg);
	if (!cr_active(&src.cr)) {
		html_raw(b, "<p class=\"empty\">This change request is ");
		app_text(b, src.cr.status);
		html_raw(b, ": it takes no more edits.</p>");
		app_frame_end(p);
		return 0;
	}
	if (!may_edit(p, &src.space)) {
		html_raw(b, "<p class=\"empty\">You may read this change request but not edit it.</p>");
		app_frame_end(p);
		return 0;
	}
	if (!src.rv || src.rv->first_root < 0) {
		html_raw(b, "<p class=\"empty\">No pages yet: create the first one below.</p>");
	} else {
		/* Shown by edit.js, which makes the rows draggable; without it
		 * (and from the keyboard) each editor's Move form moves a page. */
		html_raw(b, "<p class=\"mute\" id=\"dnd-hint\" hidden>Drag a page onto another to put it inside, or onto "
			    "the top or bottom edge of one to put it before or after. From the keyboard, use Move in a "
			    "page's editor.</p>");
		tree_rows(p, src.rv, src.rv->first_root, num, 0);
	}
	html_raw(b, "<h2 id=\"new\">New page</h2><form class=\"write\" method=\"post\" action=\"");
	app_text(b, (u = cr_url(p, id, num, "/~/pages", NULL)) ? u : "/");
	html_raw(b, "\">");
	app_hidden_csrf(p);
	html_raw(b, "<label for=\"new-title\">Title</label><input id=\"new-title\" name=\"title\" required "
		    "maxlength=\"256\"><label for=\"new-parent\">Inside</label><select id=\"new-parent\" "
		    "name=\"parent\"><option value=\"\">(top level)</option>");
	if (src.rv)
		parent_options(p, src.rv, src.rv->first_root, NULL, NULL, 0);
	html_raw(b, "</select><div><button type=\"submit\">Create page</button></div></form>");
	/* Files: what the change request holds, the markdown that shows each,
	 * and the upload form (multipart; the token is its first part). */
	html_raw(b, "<h2 id=\"files\">Images and files</h2>");
	if (!src.rv || src.rv->nfiles == 0) {
		html_raw(b, "<p class=\"empty\">No files yet.</p>");
	} else {
		html_raw(b, "<ul class=\"files list\">");
		for (int i = 0; i < src.rv->nfiles; i++) {
			const struct rev_file *f = &src.rv->files[i];
			bool image = f->content_type && strncmp(f->content_type, "image/", 6) == 0;
			html_raw(b, "<li>");
			app_text(b, f->name);
			html_raw(b, " <span class=\"mute\">");
			app_text(b, f->content_type);
			html_raw(b, "</span><br><code>");
			html_raw(b, image ? "![" : "[");
			app_text(b, f->name);
			html_raw(b, "](/files/");
			app_text(b, f->id);
			html_raw(b, ")</code></li>");
		}
		html_raw(b, "</ul>");
	}
	html_raw(b, "<form class=\"write\" method=\"post\" enctype=\"multipart/form-data\" action=\"");
	app_text(b, (u = cr_url(p, id, num, "/~/upload", NULL)) ? u : "/");
	html_raw(b, "\">");
	app_hidden_csrf(p);
	html_raw(b, "<label for=\"upload\">Upload images or files (1 MB each, up to 20)</label>"
		    "<input id=\"upload\" name=\"file\" type=\"file\" multiple required>"
		    "<div><button type=\"submit\">Upload</button></div></form>");
	script_tag(p);
	app_frame_end(p);
	return 0;
}

int write_edit_index(struct app_page *p)
{
	return show_index(p, NULL, 200);
}

/* One change applied to the change request, made on revision base (NULL:
 * none, the batch as given); bo (may be NULL when base is) says what a stale
 * base led to. ERR_* from the domain. */
static int apply_on(struct app_page *p, json_t *change, const char *base, struct content_base_outcome *bo,
		    struct content_outcome **outcome)
{
	const char *id = req_param(p->r, "spaceId"), *num = req_param(p->r, "number");
	struct space s;
	struct change_request cr;
	json_t *changes;
	int rc;

	if (!change)
		return err_set(ERR_INTERNAL, "out of memory");
	changes = json_array();
	if (!changes || json_array_append_new(changes, change)) {
		json_decref(changes);
		return err_set(ERR_INTERNAL, "out of memory");
	}
	*outcome = arena_alloc(&p->r->arena, sizeof(**outcome));
	if (!*outcome) {
		json_decref(changes);
		return err_set(ERR_INTERNAL, "out of memory");
	}
	memset(*outcome, 0, sizeof(**outcome));
	/* updateChangeRequestContent's domain function, as the API calls it;
	 * with a base, the same batch checked against the head first. */
	if (bo)
		rc = dom_cr_content_on_base(p->d, id, num, base, changes, NULL, false, &s, &cr, *outcome, bo);
	else
		rc = dom_cr_content_apply(p->d, id, num, changes, NULL, false, &s, &cr, *outcome);
	json_decref(changes);
	return rc;
}

static int apply(struct app_page *p, json_t *change, struct content_outcome **outcome)
{
	return apply_on(p, change, NULL, NULL, outcome);
}

int write_page_new(struct app_page *p)
{
	const char *num = req_param(p->r, "number"), *title, *parent, *msg = NULL;
	struct content_outcome *o;
	json_t *c;
	int rc, status = 200;

	if (!all_digits(num))
		return err_set(ERR_NOT_FOUND, "not found");
	if ((rc = form_body(p)) || (rc = field(p, "title", TITLE_MAX, &title)) < 0 ||
	    (rc = field(p, "parent", 64, &parent)) < 0)
		return rc;
	if (!title || !*title)
		return show_index(p, "title: required", 400);
	c = json_pack("{s:s,s:s,s:{s:s}}", "operation", "insert_page", "title", title, "document", "markdown", "");
	if (c && parent && *parent && json_object_set_new(c, "into", json_string(parent))) {
		json_decref(c);
		c = NULL;
	}
	rc = apply(p, c, &o);
	if (rc && (rc = form_error(rc, &status, &msg, p)) == 0)
		return show_index(p, msg, status);
	if (rc)
		return rc;
	if (o->n < 1 || !o->items[0].page_id)
		return err_set(ERR_INTERNAL, "the new page was not reported");
	p->location = cr_url(p, req_param(p->r, "spaceId"), num, "/~/edit/", o->items[0].page_id);
	return p->location ? 0 : err_set(ERR_INTERNAL, "out of memory");
}

/* ---- the editor ---- */

/* What the editor shows besides the page (every field may be NULL/0):
 *   title, md   the form's values (NULL: the page's own);
 *   base        the revision the form names as the one it was made on. NULL:
 *               the change request's head, for a fresh form. A form shown
 *               again (a preview, a refusal) keeps the base it was sent
 *               with, so its next save still merges with whatever came in
 *               between; a conflict's form names the head it was found on;
 *   preview     the preview is rendered from md (else from the page);
 *   msg, note   a refusal (role=alert) and a notice (role=status) above it;
 *   conflict    both sides of a save that could not be merged;
 *   status      the page's HTTP status. */
struct editor_view {
	const char *title, *md, *base, *msg, *note;
	bool preview;
	const struct content_conflict *conflict;
	int status;
};

/* A conflict's sides are shown cut, as the review pages cut theirs
 * (pages_review.c, REVIEW_CONFLICT_BYTES); the form holds yours whole. */
#define CONFLICT_SIDE_BYTES (64 * 1024)

static void conflict_side(struct app_page *p, const char *h, const char *md)
{
	struct jw *b = p->out;
	size_t len = md ? strlen(md) : 0, cut = len;

	if (cut > CONFLICT_SIDE_BYTES) {
		cut = CONFLICT_SIDE_BYTES;
		while (cut > 0 && ((unsigned char)md[cut] & 0xc0) == 0x80)
			cut--; /* not inside a UTF-8 sequence */
	}
	html_raw(b, "<div><h3>");
	html_raw(b, h);
	html_raw(b, "</h3><pre>");
	app_text(b, cut < len ? arena_strndup(&p->r->arena, md, cut) : md ? md : "");
	html_raw(b, cut < len ? "\xe2\x80\xa6</pre><p class=\"mute cut\">Cut here.</p></div>" : "</pre></div>");
}

/* A save that could not be merged: nothing was written; both sides, then
 * the form (yours, on the head the conflict was found on). */
static void conflict_box(struct app_page *p, const struct content_conflict *c)
{
	struct jw *b = p->out;

	html_raw(b, "<section class=\"conflict\" aria-labelledby=\"cf-h\"><h2 id=\"cf-h\">This page changed while you "
		    "edited it</h2><p role=\"alert\">Your save was not made: the page was changed in the change request "
		    "since you opened it, on the same lines or the same title. Both versions are below and the form holds "
		    "yours: bring in what you want to keep of the other edit, then save again.</p>");
	if (c->theirs_title) {
		html_raw(b, "<p>Title now: <strong>");
		app_text(b, c->theirs_title);
		html_raw(b, "</strong>; yours: <strong>");
		app_text(b, c->yours_title ? c->yours_title : "");
		html_raw(b, "</strong>.</p>");
	}
	if (c->yours) {
		html_raw(b, "<div class=\"sides\">");
		conflict_side(p, "Now in the change request", c->theirs);
		conflict_side(p, "Yours", c->yours);
		html_raw(b, "</div>");
	}
	html_raw(b, "</section>");
}

/* The editor of page_id, as v says. */
static int show_editor(struct app_page *p, const struct editor_view *v)
{
	const char *id = req_param(p->r, "spaceId"), *num = req_param(p->r, "number");
	const char *pid = req_param(p->r, "pageId"), *u, *title = v->title, *md = v->md, *msg = v->msg;
	struct dom_page dp;
	struct jw *b = p->out;
	const struct rev_page *pg;
	bool preview = v->preview;
	int rc, at = 0;

	if (!all_digits(num))
		return err_set(ERR_NOT_FOUND, "not found");
	if ((rc = dom_page_get(p->d, id, num, NULL, pid, NULL, false, true, &dp)))
		return rc;
	pg = dp.page;
	if (!title)
		title = pg->title ? pg->title : "";
	if (!md)
		md = dp.markdown ? dp.markdown : "";
	p->out->len = 0;
	p->status = v->status;
	frame(p, &dp.src, num, pg->title && *pg->title ? pg->title : "Untitled");
	html_raw(b, "<h1>Edit “");
	app_text(b, pg->title && *pg->title ? pg->title : "Untitled");
	html_raw(b, "”</h1><nav class=\"actions\" aria-label=\"Change request\"><a href=\"");
	app_text(b, (u = cr_url(p, id, num, "/~/edit", NULL)) ? u : "/");
	html_raw(b, "\">All pages of #");
	app_text(b, num);
	html_raw(b, "</a><a href=\"");
	app_text(b, (u = cr_url(p, id, num, "", NULL)) ? u : "/");
	html_raw(b, "\">The change request</a></nav>");
	error_note(p, msg);
	if (v->note) {
		html_raw(b, "<p class=\"banner\" role=\"status\">");
		app_text(b, v->note);
		html_raw(b, "</p>");
	}
	if (preview && !msg && !v->conflict && !v->note)
		html_raw(b, "<p class=\"banner\" role=\"status\">This preview is not saved yet: press Save to keep "
			    "it.</p>");
	if (!cr_active(&dp.src.cr) || !may_edit(p, &dp.src.space) ||
	    (pg->type != PAGE_DOCUMENT && pg->type != PAGE_GROUP)) {
		const char *why = "<p class=\"empty\">You may read this change request but not edit it.</p>";
		if (!cr_active(&dp.src.cr))
			why = "<p class=\"empty\">This change request takes no more edits.</p>";
		else if (may_edit(p, &dp.src.space))
			why = "<p class=\"empty\">Only document pages and groups are edited here.</p>";
		html_raw(b, why);
		app_frame_end(p);
		return 0;
	}
	/* Save and preview: one form, the button says which. */
	html_raw(b, "<form class=\"write editor\" method=\"post\" action=\"");
	app_text(b, (u = cr_url(p, id, num, "/~/edit/", pid)) ? u : "/");
	html_raw(b, "\" data-preview=\"");
	app_href(b, "/s/", id);
	html_raw(b, "/~/preview\">");
	if (v->conflict)
		conflict_box(p, v->conflict);
	app_hidden_csrf(p);
	html_raw(b, "<input type=\"hidden\" name=\"cr\" value=\"");
	app_text(b, num);
	/* The revision this form is made on: a save after somebody else's is
	 * merged with it, or shown as a conflict, never a silent overwrite. */
	html_raw(b, "\"><input type=\"hidden\" name=\"base\" value=\"");
	app_text(b, v->base ? v->base : dp.src.cr.revision);
	html_raw(b, "\">");
	html_raw(b, "<label for=\"title\">Title</label><input id=\"title\" name=\"title\" required maxlength=\"256\" "
		    "value=\"");
	app_text(b, title);
	html_raw(b, "\">");
	if (pg->type == PAGE_GROUP) {
		/* A group has a title and pages, no document. */
		html_raw(b, "<div class=\"buttons\"><button type=\"submit\" name=\"action\" value=\"save\" "
			    "class=\"primary\">Save</button></div></form>");
		goto move;
	}
	/* The keys edit.js adds (shown by it; without script the textarea is
	 * a plain one and Tab leaves it). */
	html_raw(b, "<div class=\"split\"><div><label for=\"markdown\">Markdown</label>"
		    "<textarea id=\"markdown\" name=\"markdown\" rows=\"22\" spellcheck=\"true\" "
		    "aria-describedby=\"md-keys\">");
	app_text(b, md);
	html_raw(b, "</textarea><p class=\"keys mute\" id=\"md-keys\" hidden>Tab and Shift+Tab indent and outdent "
		    "the selected lines; Escape then Tab leaves the text. Enter continues a list. Ctrl+S "
		    "(\xe2\x8c\x98S) saves.</p></div><section aria-labelledby=\"pv-h\"><h2 id=\"pv-h\" class=\"pv-h\">Preview</h2>"
		    "<div id=\"preview\" class=\"page preview\" aria-live=\"polite\">");
	if ((rc = preview_html(p, md, dp.src.rv)))
		return rc;
	html_raw(b, "</div></section></div><div class=\"buttons\"><button type=\"submit\" name=\"action\" "
		    "value=\"save\" class=\"primary\">Save</button> <button type=\"submit\" name=\"action\" "
		    "value=\"preview\" class=\"pv-button\">Preview</button></div></form>");
move:
	/* Move: a parent and a position among its pages. */
	for (int i = pg->parent ? -1 : dp.src.rv->first_root, k = 0; i >= 0; i = dp.src.rv->pages[i].next_sibling, k++)
		if (&dp.src.rv->pages[i] == pg)
			at = k;
	if (pg->parent) {
		for (int i = 0; i < dp.src.rv->npages; i++)
			if (strcmp(dp.src.rv->pages[i].id, pg->parent) == 0) {
				int k = 0;
				for (int j = dp.src.rv->pages[i].first_child; j >= 0; j = dp.src.rv->pages[j].next_sibling, k++)
					if (&dp.src.rv->pages[j] == pg)
						at = k;
			}
	}
	html_raw(b, "<h2>Move</h2><form class=\"write row\" method=\"post\" action=\"");
	app_text(b, (u = cr_url(p, id, num, "/~/move/", pid)) ? u : "/");
	html_raw(b, "\">");
	app_hidden_csrf(p);
	html_raw(b, "<label for=\"parent\">Inside</label><select id=\"parent\" name=\"parent\">"
		    "<option value=\"\">(top level)</option>");
	parent_options(p, dp.src.rv, dp.src.rv->first_root, pg->id, pg->parent, 0);
	char pos[32];
	snprintf(pos, sizeof(pos), "%d", at + 1);
	html_raw(b, "</select><label for=\"position\">Position (1 is first)</label><input id=\"position\" "
		    "name=\"position\" type=\"number\" min=\"1\" max=\"100000\" value=\"");
	html_raw(b, pos);
	html_raw(b, "\"><button type=\"submit\">Move page</button></form>");
	html_raw(b, "<h2>Delete</h2><form class=\"write row\" method=\"post\" action=\"");
	app_text(b, (u = cr_url(p, id, num, "/~/delete/", pid)) ? u : "/");
	html_raw(b, "\">");
	app_hidden_csrf(p);
	html_raw(b, "<p class=\"mute\">Deletes this page and the pages inside it from the change request.</p>"
		    "<button type=\"submit\" class=\"danger\">Delete page</button></form>");
	script_tag(p);
	app_frame_end(p);
	return 0;
}

int write_edit(struct app_page *p)
{
	return show_editor(p, &(struct editor_view){ .status = 200 });
}

/* The editor, with the page's own values, under a refusal's message (the
 * move and delete forms, whose fields are not the editor's). */
static int editor_again(struct app_page *p, const char *msg, int status)
{
	return show_editor(p, &(struct editor_view){ .msg = msg, .status = status });
}

/* Where a page of the change request is read after a change. */
static int to_page(struct app_page *p, const char *page_id)
{
	const char *id = req_param(p->r, "spaceId"), *num = req_param(p->r, "number");
	struct dom_page dp;
	struct jw h;
	int rc;

	if ((rc = dom_page_get(p->d, id, num, NULL, page_id, NULL, false, false, &dp)))
		return rc;
	jw_init(&h);
	html_raw(&h, "/s/");
	url_path_enc(&h, id);
	html_raw(&h, "/~/changes/");
	url_path_enc(&h, num);
	html_raw(&h, "/");
	url_path_enc(&h, dp.page->path ? dp.page->path : dp.page->slug);
	p->location = jw_take(&h, &p->r->arena, NULL);
	return p->location ? 0 : err_set(ERR_INTERNAL, "out of memory");
}

/* "Saved: merged line by line with the edit of A and B made since you
 * opened this page." */
static const char *merged_note(struct app_page *p, const struct content_base_outcome *bo)
{
	struct jw h;
	const char *out;

	jw_init(&h);
	html_raw(&h, "Saved. Somebody else changed this page since you opened it: your edit was merged line by line with ");
	if (bo->nauthors == 0)
		html_raw(&h, "theirs");
	for (int i = 0; i < bo->nauthors; i++) {
		if (i > 0)
			html_raw(&h, i + 1 == bo->nauthors ? " and " : ", ");
		html_raw(&h, bo->authors[i]);
	}
	html_raw(&h, bo->nauthors ? "'s edit" : "");
	html_raw(&h, ". Check the result below.");
	out = jw_take(&h, &p->r->arena, "Saved, merged with another edit.");
	return out;
}

/* A save whose page was deleted from the change request meanwhile: nothing
 * was written and there is no page to save on; what was typed is shown, to
 * copy. */
static int show_deleted(struct app_page *p, const struct content_conflict *c)
{
	const char *id = req_param(p->r, "spaceId"), *num = req_param(p->r, "number"), *u;
	struct content_src src;
	struct jw *b = p->out;
	int rc;

	if ((rc = dom_content_source(p->d, id, num, NULL, ROLE_READ, &src)))
		return rc;
	p->out->len = 0;
	p->status = 409;
	frame(p, &src, num, "Page deleted");
	html_raw(b, "<h1>This page was deleted</h1><p role=\"alert\">Your save was not made: the page was deleted "
		    "from the change request after you opened it. Your text is below, to copy into another page.</p>");
	if (c->yours) {
		html_raw(b, "<label for=\"markdown\">Yours</label><textarea id=\"markdown\" rows=\"22\" readonly>");
		app_text(b, c->yours);
		html_raw(b, "</textarea>");
	}
	html_raw(b, "<p><a href=\"");
	app_text(b, (u = cr_url(p, id, num, "/~/edit", NULL)) ? u : "/");
	html_raw(b, "\">All pages of #");
	app_text(b, num);
	html_raw(b, "</a></p>");
	app_frame_end(p);
	return 0;
}

int write_save(struct app_page *p)
{
	const char *pid = req_param(p->r, "pageId"), *title, *md, *action, *base, *msg = NULL;
	struct content_outcome *o;
	struct content_base_outcome *bo;
	json_t *c;
	int rc, status = 200;

	if ((rc = form_body(p)) || (rc = field(p, "title", TITLE_MAX, &title)) < 0 ||
	    (rc = field(p, "markdown", MD_MAX, &md)) < 0 || (rc = field(p, "action", 16, &action)) < 0 ||
	    (rc = field(p, "base", 64, &base)) < 0)
		return rc;
	/* A form without a base (made before docsd sent one, or a script's)
	 * saves as the API's batch does: as given. */
	if (base && !*base)
		base = NULL;
	/* A browser sends a textarea's line breaks as CRLF (HTML's form
	 * encoding): the page keeps the LF its markdown has everywhere else. */
	if (md && strchr(md, '\r')) {
		char *lf = arena_strdup(&p->r->arena, md), *w = lf;
		if (!lf)
			return err_set(ERR_INTERNAL, "out of memory");
		for (const char *k = md; *k; k++)
			if (!(k[0] == '\r' && k[1] == '\n'))
				*w++ = *k;
		*w = '\0';
		md = lf;
	}
	if (md && action && strcmp(action, "preview") == 0)
		return show_editor(p, &(struct editor_view){ .title = title, .md = md, .base = base, .preview = true,
							     .status = 200 });
	/* A group's form has no markdown (the domain refuses a document on
	 * anything but a document page, and a save with neither changes
	 * nothing but the title). */
	if (md)
		c = json_pack("{s:s,s:s,s:{s:s}}", "operation", "update_page", "page", pid, "document", "markdown", md);
	else if (title && *title)
		c = json_pack("{s:s,s:s}", "operation", "update_page", "page", pid);
	else
		return show_editor(p, &(struct editor_view){ .title = title, .base = base, .msg = "markdown: required",
							     .status = 400 });
	/* An empty title keeps the page's (the domain refuses ""). */
	if (c && title && *title && json_object_set_new(c, "title", json_string(title))) {
		json_decref(c);
		c = NULL;
	}
	bo = arena_alloc(&p->r->arena, sizeof(*bo));
	if (!bo) {
		json_decref(c);
		return err_set(ERR_INTERNAL, "out of memory");
	}
	rc = apply_on(p, c, base, bo, &o);
	if (rc == ERR_CONFLICT && bo->nconflicts > 0) {
		/* Nothing was written (the refusal rolls the transaction back
		 * anyway); the form is made on the head the conflict was found
		 * on, so its next save applies over exactly what was shown. */
		const struct content_conflict *k = &bo->conflicts[0];
		const char *head = bo->head;
		if ((rc = form_error(rc, &status, &msg, p)))
			return rc;
		if (!k->theirs)
			return show_deleted(p, k);
		return show_editor(p, &(struct editor_view){ .title = k->form_title, .md = k->form_md, .base = head,
							     .preview = k->form_md != NULL, .conflict = k,
							     .status = 409 });
	}
	if (rc && (rc = form_error(rc, &status, &msg, p)) == 0)
		return show_editor(p, &(struct editor_view){ .title = title, .md = md, .base = base, .preview = true,
							     .msg = msg, .status = status });
	if (rc)
		return rc;
	/* Merged with an edit made meanwhile: the editor again, saying so and
	 * showing the merged page (made on the new head). */
	if (bo->merged)
		return show_editor(p, &(struct editor_view){ .note = merged_note(p, bo), .status = 200 });
	return to_page(p, pid);
}

int write_move(struct app_page *p)
{
	const char *pid = req_param(p->r, "pageId"), *parent, *pos, *back, *msg = NULL;
	struct content_outcome *o;
	json_t *c;
	long at = 0;
	int rc, status = 200;
	bool to_index;

	if ((rc = form_body(p)) || (rc = field(p, "parent", 64, &parent)) < 0 ||
	    (rc = field(p, "position", 16, &pos)) < 0 || (rc = field(p, "back", 16, &back)) < 0)
		return rc;
	/* back=index: the move came from the pages list (edit.js's drag and
	 * drop), which it returns to, refusals included. */
	to_index = back && strcmp(back, "index") == 0;
	if (pos && *pos) {
		char *end;
		at = strtol(pos, &end, 10);
		if (*end || at < 1 || at > 100000)
			return to_index ? show_index(p, "position: a number from 1", 400)
					: editor_again(p, "position: a number from 1", 400);
	}
	c = json_pack("{s:s,s:s}", "operation", "update_page", "page", pid);
	if (c && json_object_set_new(c, "into", parent && *parent ? json_string(parent) : json_null())) {
		json_decref(c);
		c = NULL;
	}
	if (c && at > 0 && json_object_set_new(c, "at", json_integer(at - 1))) {
		json_decref(c);
		c = NULL;
	}
	rc = apply(p, c, &o);
	if (rc && (rc = form_error(rc, &status, &msg, p)) == 0)
		return to_index ? show_index(p, msg, status) : editor_again(p, msg, status);
	if (rc)
		return rc;
	if (to_index) {
		p->location = cr_url(p, req_param(p->r, "spaceId"), req_param(p->r, "number"), "/~/edit", NULL);
		return p->location ? 0 : err_set(ERR_INTERNAL, "out of memory");
	}
	return to_page(p, pid);
}

int write_delete(struct app_page *p)
{
	const char *pid = req_param(p->r, "pageId"), *num = req_param(p->r, "number"), *msg = NULL;
	struct content_outcome *o;
	int rc, status = 200;

	if (!all_digits(num))
		return err_set(ERR_NOT_FOUND, "not found");
	if ((rc = form_body(p)))
		return rc;
	rc = apply(p, json_pack("{s:s,s:s}", "operation", "delete_page", "page", pid), &o);
	if (rc && (rc = form_error(rc, &status, &msg, p)) == 0)
		return editor_again(p, msg, status);
	if (rc)
		return rc;
	p->location = cr_url(p, req_param(p->r, "spaceId"), num, "/~/edit", NULL);
	return p->location ? 0 : err_set(ERR_INTERNAL, "out of memory");
}


/* ---- uploads (multipart/form-data) ---- */

/* The most files one upload form sends (the batch's insert_files takes 1
 * to 20; the domain checks each one's size, 1 MB, and type). */
#define UPLOAD_MAX_FILES 20

/* A quoted or bare parameter value of a header line (name="x" or name=x),
 * ASCII-case-insensitive name; NULL when absent. The value may not hold a
 * quote or a backslash (browsers percent-encode those). */
static const char *header_param(struct arena *a, const char *h, size_t hl, const char *name)
{
	size_t nl = strlen(name);

	for (size_t i = 0; i + nl + 1 <= hl; i++) {
		if ((i > 0 && h[i - 1] != ';' && h[i - 1] != ' ') || strncasecmp(h + i, name, nl) != 0 || h[i + nl] != '=')
			continue;
		const char *v = h + i + nl + 1, *end = h + hl, *e;
		if (v < end && *v == '"') {
			v++;
			for (e = v; e < end && *e != '"'; e++)
				if (*e == '\\')
					return NULL;
			if (e >= end)
				return NULL;
		} else {
			for (e = v; e < end && *e != ';' && *e != ' '; e++)
				;
		}
		return arena_strndup(a, v, (size_t)(e - v));
	}
	return NULL;
}

/* Split a multipart/form-data body into at most max parts: 0, or
 * ERR_INVALID when it is not one (pages_write.h: the OpenAPI upload uses it too). */
int app_multipart(struct app_page *p, struct app_part *parts, int max, int *n)
{
	struct req *r = p->r;
	struct arena *a = &r->arena;
	const char *ct = req_header(r, "Content-Type"), *bnd, *body = r->body, *end, *cur;
	char delim[80];
	size_t dl;

	*n = 0;
	if (r->body_too_large)
		return err_set(ERR_INVALID, "the upload is too large");
	if (!ct || strncasecmp(ct, "multipart/form-data", 19) != 0 ||
	    !(bnd = header_param(a, ct, strlen(ct), "boundary")) || !*bnd || strlen(bnd) > 70)
		return err_set(ERR_INVALID, "the form must be sent as multipart/form-data");
	if (!body)
		return err_set(ERR_INVALID, "file: required");
	dl = (size_t)snprintf(delim, sizeof(delim), "--%s", bnd);
	end = body + r->body_len;
	if ((size_t)(end - body) < dl || memcmp(body, delim, dl) != 0)
		return err_set(ERR_INVALID, "the upload is not valid multipart/form-data");
	cur = body + dl;
	for (;;) {
		if (end - cur >= 2 && cur[0] == '-' && cur[1] == '-')
			return 0; /* the closing delimiter */
		if (end - cur < 2 || cur[0] != '\r' || cur[1] != '\n')
			return err_set(ERR_INVALID, "the upload is not valid multipart/form-data");
		cur += 2;
		const char *hend = memmem(cur, (size_t)(end - cur), "\r\n\r\n", 4);
		if (!hend)
			return err_set(ERR_INVALID, "the upload is not valid multipart/form-data");
		struct app_part pt = { 0 };
		for (const char *l = cur; l < hend;) {
			const char *le = memmem(l, (size_t)(hend - l), "\r\n", 2);
			size_t ll = le ? (size_t)(le - l) : (size_t)(hend - l);
			if (ll > 20 && strncasecmp(l, "Content-Disposition:", 20) == 0) {
				pt.name = header_param(a, l, ll, "name");
				pt.filename = header_param(a, l, ll, "filename");
			} else if (ll > 13 && strncasecmp(l, "Content-Type:", 13) == 0) {
				const char *v = l + 13;
				while (v < l + ll && *v == ' ')
					v++;
				pt.type = arena_strndup(a, v, (size_t)(l + ll - v));
			}
			l += ll + 2;
		}
		const char *data = hend + 4;
		/* The part ends at CRLF + delimiter. */
		const char *next = NULL;
		for (const char *s = data; s + dl + 2 <= end; s++) {
			s = memmem(s, (size_t)(end - s), "\r\n", 2);
			if (!s || (size_t)(end - s) < dl + 2)
				break;
			if (memcmp(s + 2, delim, dl) == 0) {
				next = s;
				break;
			}
		}
		if (!next || !pt.name)
			return err_set(ERR_INVALID, "the upload is not valid multipart/form-data");
		pt.data = data;
		pt.len = (size_t)(next - data);
		if (*n >= max)
			return err_set(ERR_INVALID, "file: at most %d files at once", UPLOAD_MAX_FILES);
		parts[(*n)++] = pt;
		cur = next + 2 + dl;
	}
}

int write_upload(struct app_page *p)
{
	const char *num = req_param(p->r, "number"), *sent = NULL, *msg = NULL;
	struct app_part parts[UPLOAD_MAX_FILES + 4];
	struct content_outcome *o;
	json_t *files, *c;
	int n = 0, rc, status = 200;

	if (!all_digits(num))
		return err_set(ERR_NOT_FOUND, "not found");
	/* A multipart form: the dispatcher's CSRF check reads urlencoded
	 * bodies only (APP_CSRF_SELF), so the token is the form's own "csrf"
	 * part, checked here before anything else. */
	rc = app_multipart(p, parts, UPLOAD_MAX_FILES + 4, &n);
	for (int i = 0; rc == 0 && i < n; i++)
		if (!parts[i].filename && strcmp(parts[i].name, APP_CSRF_FIELD) == 0 && !sent)
			sent = arena_strndup(&p->r->arena, parts[i].data, parts[i].len);
	if (!sent)
		sent = req_header(p->r, "X-CSRF-Token");
	if (!app_token_eq(p->csrf, sent)) {
		err_clear();
		app_error_page(p, 403, "This form is out of date", "The form is out of date: reload the page and try again.");
		return 0;
	}
	if (rc) {
		/* Copied: the page's own reads reuse the error buffer. */
		const char *why = arena_strdup(&p->r->arena, err_message());
		err_clear();
		return show_index(p, why, 400);
	}
	if (!(files = json_array()))
		return err_set(ERR_INTERNAL, "out of memory");
	for (int i = 0; i < n; i++) {
		const struct app_part *pt = &parts[i];
		if (!pt->filename || strcmp(pt->name, "file") != 0)
			continue;
		if (!*pt->filename && pt->len == 0)
			continue; /* the browser's "no file chosen" */
		char *b64 = arena_alloc(&p->r->arena, base64_encoded_len(pt->len) + 1);
		if (!b64) {
			json_decref(files);
			return err_set(ERR_INTERNAL, "out of memory");
		}
		base64_encode(b64, pt->data, pt->len);
		/* The type the browser named; the domain sniffs images itself and
		 * refuses a malformed media type with a 400 naming it. */
		json_t *f = json_pack("{s:s,s:s,s:s}", "name", *pt->filename ? pt->filename : "file", "base64", b64,
				      "contentType", pt->type && *pt->type ? pt->type : "application/octet-stream");
		if (!f || json_array_append_new(files, f)) {
			json_decref(files);
			return err_set(ERR_INTERNAL, "out of memory");
		}
	}
	if (json_array_size(files) == 0) {
		json_decref(files);
		return show_index(p, "file: choose a file to upload", 400);
	}
	c = json_pack("{s:s,s:o}", "operation", "insert_files", "files", files);
	rc = apply(p, c, &o);
	if (rc && (rc = form_error(rc, &status, &msg, p)) == 0)
		return show_index(p, msg, status);
	if (rc)
		return rc;
	p->location = cr_url(p, req_param(p->r, "spaceId"), num, "/~/edit#files", NULL);
	return p->location ? 0 : err_set(ERR_INTERNAL, "out of memory");
}

/* ---- controls other pages show ---- */

void app_write_space_form(struct app_page *p, const struct space *s)
{
	struct jw *b = p->out;

	if (!may_edit(p, s))
		return;
	html_raw(b, "<link rel=\"stylesheet\" href=\"");
	app_text(b, app_write_css_url());
	html_raw(b, "\">");
	html_raw(b, "<form class=\"write row\" method=\"post\" action=\"");
	app_href(b, "/s/", s->id);
	html_raw(b, "/~/changes/new\">");
	app_hidden_csrf(p);
	html_raw(b, "<label for=\"cr-subject\">New change request</label><input id=\"cr-subject\" name=\"subject\" "
		    "maxlength=\"100\" placeholder=\"What it changes\"><button type=\"submit\">Start</button></form>");
}

void app_write_cr_link(struct app_page *p, const struct space *s, const struct change_request *cr)
{
	char num[32];
	const char *u;

	if (!cr_active(cr) || !may_edit(p, s))
		return;
	snprintf(num, sizeof(num), "%lld", (long long)cr->number);
	html_raw(p->out, "<p class=\"actions\"><a class=\"button\" href=\"");
	app_text(p->out, (u = cr_url(p, s->id, num, "/~/edit", NULL)) ? u : "/");
	html_raw(p->out, "\">Edit pages</a></p>");
}

void app_write_page_link(struct app_page *p, const struct content_src *src, const struct rev_page *pg)
{
	char num[32];
	const char *u;

	if (!src->has_cr || pg->type != PAGE_DOCUMENT || !cr_active(&src->cr) || !may_edit(p, &src->space))
		return;
	snprintf(num, sizeof(num), "%lld", (long long)src->cr.number);
	html_raw(p->out, "<p class=\"actions\"><a class=\"button\" href=\"");
	app_text(p->out, (u = cr_url(p, src->space.id, num, "/~/edit/", pg->id)) ? u : "/");
	html_raw(p->out, "\">Edit this page</a></p>");
}
