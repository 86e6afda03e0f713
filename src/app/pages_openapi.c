/*
 * pages_openapi.c - an organization's OpenAPI specifications in the web
 * interface (issue 25, "OpenAPI specs"): /o/{organizationId}/openapi and
 * /o/{organizationId}/openapi/{specSlug}.
 *
 * The list shows each spec (dom_openapi_list: slug, processing state, last
 * error, visibility, published URL) and a form to add one
 * (dom_openapi_create, createOpenAPISpec's domain function) by URL, by
 * pasting its text (a textarea of an urlencoded form) or by uploading its
 * file (a multipart form, app_multipart). A spec's page shows its versions
 * (dom_openapi_versions) and the errors of its last run, and lets an editor
 * replace the source (dom_openapi_put on a spec that exists), change the
 * visibility (dom_openapi_set_visibility) or delete it (dom_openapi_delete).
 * While a run is pending or in progress the page refreshes itself every two
 * seconds (p->refresh: a meta refresh in the head, no script).
 *
 * Rules for the input: the domain checks the slug, the source (exactly one
 * of a URL and a text; the URL's length and scheme; the text's size) and
 * access; a URL is fetched by the processing job, through util/fetch's
 * private-network rules, never by this page. The page only reads the form:
 * an empty field is an absent one, an uploaded file must be UTF-8 text
 * without NUL bytes (a C string for the domain), and a body over
 * --max-body (r->body_too_large) is a 413 shown on the form. The POSTs that
 * take a source read multipart bodies, so their routes are APP_CSRF_SELF
 * and check the token here (an urlencoded body's field or header through
 * app_csrf_ok, a multipart body's "csrf" part) before anything is written.
 * Forms are shown when permissions.edit (the create role, as the
 * serializer's openapi permissions) says so; the domain decides anyway.
 */
#include "app/app.h"
#include "app/pages.h"
#include "app/pages_write.h"
#include "app/session.h"
#include "domain/openapi.h"
#include "domain/orgs.h"
#include "http/form.h"
#include "http/services.h"
#include "json/serialize_openapi.h"
#include "site/site.h"
#include "util/err.h"
#include "util/text.h"

#include <jansson.h>
#include <string.h>
#include <strings.h>

/* The fields of an add or replace form: NULL when absent or empty. */
struct src_form {
	const char *slug, *url, *text;
	bool file;    /* the text came from an uploaded file */
	bool csrf_ok; /* its token matched the session's */
};

/* The most parts the upload form sends (csrf, slug, file; some slack). */
#define OPENAPI_FORM_PARTS 8
/* A refused paste is shown again in its textarea up to this size. */
#define OPENAPI_ECHO_MAX 65536

static const char *org_path(struct app_page *p, const char *suffix)
{
	return app_path(p, "/o/", req_param(p->r, "organizationId"), suffix);
}

static const char *spec_path(struct app_page *p, const char *slug, const char *suffix)
{
	return app_path2(p, "/o/", req_param(p->r, "organizationId"), "/openapi/", slug, suffix);
}

static bool may_edit(const struct dom_org *o)
{
	struct org_permissions perm;

	org_permissions(&perm, o->actor.role, o->actor.owns_team);
	return perm.create_openapi_spec;
}

static void state_badge(struct jw *b, const struct openapi_spec *s)
{
	if (strcmp(s->processing_state, "complete") != 0)
		html_raw(b, "<span class=\"badge st-draft\">processing</span>");
	else if (s->last_error_code)
		html_raw(b, "<span class=\"badge st-archived\">failed</span>");
	else
		html_raw(b, "<span class=\"badge st-open\">processed</span>");
}

/* The source fields of a form: `action` is where it posts, `replace` a
 * spec's page (no slug field). */
static void source_forms(struct app_page *p, const char *action, bool replace, const struct src_form *sent)
{
	struct jw *b = p->out;
	const char *id = replace ? "r" : "n";

	html_raw(b, "<h3>From a URL or a pasted text</h3><form class=\"stack\" method=\"post\" action=\"");
	app_text(b, action);
	html_raw(b, "\">");
	app_hidden_csrf(p);
	if (!replace) {
		html_raw(b, "<label for=\"slug-n\">Slug (lower-case letters, digits and dashes)</label><input id=\"slug-n\" "
			    "name=\"slug\" type=\"text\" required maxlength=\"100\" pattern=\"[a-z0-9]+(-[a-z0-9]+)*\" value=\"");
		app_text(b, sent && sent->slug ? sent->slug : "");
		html_raw(b, "\">");
	}
	html_raw(b, "<label for=\"url-");
	app_text(b, id);
	html_raw(b, "\">The specification's URL (fetched again every six hours)</label><input id=\"url-");
	app_text(b, id);
	html_raw(b, "\" name=\"url\" type=\"text\" inputmode=\"url\" maxlength=\"2048\" placeholder=\"https://\" value=\"");
	app_text(b, sent && sent->url ? sent->url : "");
	html_raw(b, "\"><label for=\"text-");
	app_text(b, id);
	html_raw(b, "\">Or its text (YAML or JSON)</label><textarea id=\"text-");
	app_text(b, id);
	html_raw(b, "\" name=\"text\" rows=\"10\" cols=\"80\" spellcheck=\"false\">");
	if (sent && sent->text && !sent->file && strlen(sent->text) <= OPENAPI_ECHO_MAX)
		app_text(b, sent->text);
	html_raw(b, "</textarea><button type=\"submit\" class=\"primary\">");
	if (replace)
		html_raw(b, "Replace the source");
	else
		html_raw(b, "Add specification");
	html_raw(b, "</button></form>");

	html_raw(b, "<h3>From a file</h3><form class=\"stack\" method=\"post\" enctype=\"multipart/form-data\" "
		    "action=\"");
	app_text(b, action);
	html_raw(b, "\">");
	app_hidden_csrf(p);
	if (!replace) {
		html_raw(b, "<label for=\"slug-u\">Slug</label><input id=\"slug-u\" name=\"slug\" type=\"text\" required "
			    "maxlength=\"100\" pattern=\"[a-z0-9]+(-[a-z0-9]+)*\" value=\"");
		app_text(b, sent && sent->slug ? sent->slug : "");
		html_raw(b, "\">");
	}
	html_raw(b, "<label for=\"file-");
	app_text(b, id);
	html_raw(b, "\">The specification's file (.yaml, .yml or .json)</label><input id=\"file-");
	app_text(b, id);
	html_raw(b, "\" name=\"file\" type=\"file\" required accept=\".yaml,.yml,.json,application/json,application/yaml,"
		    "text/yaml\"><button type=\"submit\">Upload</button></form>");
}

/* ---- the list ---- */

static int render_list(struct app_page *p, const char *error, const struct src_form *sent)
{
	const char *org_id = req_param(p->r, "organizationId");
	struct list_req lr;
	struct cursor cur;
	struct openapi_spec *items = NULL;
	struct dom_org o;
	char *next = NULL;
	int n = 0, rc;
	struct jw *b = p->out;

	if ((rc = dom_org_get(p->d, org_id, &o)) || (rc = app_list(p, &lr, &cur, 0)) ||
	    (rc = dom_openapi_list(p->d, org_id, &lr, &items, &n, &next)))
		return rc;
	{
		struct app_crumb crumbs[] = { { "Home", "/" }, { o.org.title, org_path(p, "") }, { "OpenAPI", NULL } };
		app_frame_begin(p, "OpenAPI specifications", crumbs, 3);
	}
	html_raw(b, "<h1>OpenAPI specifications</h1>");
	app_error_box(b, error);
	if (n == 0) {
		html_raw(b, "<p class=\"empty\">No OpenAPI specification yet.</p>");
	} else {
		html_raw(b, "<div class=\"scroll-x\"><table><thead><tr><th scope=\"col\">Slug</th><th scope=\"col\">State</th>"
			    "<th scope=\"col\">Current version</th><th scope=\"col\">Visibility</th>"
			    "<th scope=\"col\">Updated</th></tr></thead><tbody>");
		for (int i = 0; i < n; i++) {
			const struct openapi_spec *s = &items[i];
			html_raw(b, "<tr><td><a href=\"");
			app_text(b, spec_path(p, s->slug, ""));
			html_raw(b, "\">");
			app_text(b, s->slug);
			html_raw(b, "</a></td><td>");
			state_badge(b, s);
			if (s->last_error_code) {
				html_raw(b, " <span class=\"mute\">");
				app_text(b, s->last_error_code);
				html_raw(b, "</span>");
			}
			html_raw(b, "</td><td>");
			if (s->last_version) {
				html_raw(b, "<code>");
				app_text(b, s->last_version);
				html_raw(b, "</code>");
			} else {
				html_raw(b, "<span class=\"mute\">none yet</span>");
			}
			html_raw(b, "</td><td>");
			app_text(b, s->visibility);
			if (strcmp(s->visibility, "public") == 0) {
				const char *url = openapi_published_url(&p->r->arena, dom_base_url(p->d), s);
				if (url) {
					html_raw(b, "<br><a href=\"");
					html_url(b, url);
					html_raw(b, "\">");
					app_text(b, url);
					html_raw(b, "</a>");
				}
			}
			html_raw(b, "</td><td>");
			app_date(b, s->updated_at);
			html_raw(b, "</td></tr>");
		}
		html_raw(b, "</tbody></table></div>");
		app_pager(p, org_path(p, "/openapi"), NULL, next, "More specifications");
	}
	if (!may_edit(&o)) {
		html_raw(b, "<p class=\"mute\">Members with the create role add and change specifications.</p>");
		app_frame_end(p);
		return 0;
	}
	html_raw(b, "<h2>Add a specification</h2>");
	source_forms(p, org_path(p, "/openapi"), false, sent);
	app_frame_end(p);
	return 0;
}

int page_openapi_list(struct app_page *p)
{
	return render_list(p, NULL, NULL);
}

/* ---- the spec's page ---- */

/* The messages of a failed run (last_errors: a JSON array of {message, code?}). */
static void run_errors(struct jw *b, const struct openapi_spec *s)
{
	json_t *a = s->last_errors ? json_loads(s->last_errors, 0, NULL) : NULL, *e;
	size_t i;

	html_raw(b, "<div class=\"hint hint-danger\" role=\"alert\"><p>The last run failed (");
	app_text(b, s->last_error_code);
	html_raw(b, s->last_version ? "); the last good version is still served.</p>" : ").</p>");
	if (json_is_array(a) && json_array_size(a) > 0) {
		html_raw(b, "<ul>");
		json_array_foreach(a, i, e)
		{
			const char *m = json_string_value(json_object_get(e, "message"));
			if (i >= 50)
				break;
			html_raw(b, "<li>");
			app_text(b, m ? m : "(no message)");
			html_raw(b, "</li>");
		}
		html_raw(b, "</ul>");
	}
	html_raw(b, "</div>");
	json_decref(a);
}

static int render_spec(struct app_page *p, const char *error, const struct src_form *sent)
{
	const char *org_id = req_param(p->r, "organizationId"), *slug = req_param(p->r, "specSlug");
	struct list_req lr;
	struct cursor cur;
	struct openapi_version *vs = NULL;
	struct openapi_spec s;
	struct dom_org o;
	char *next = NULL;
	int n = 0, rc;
	bool busy;
	struct jw *b = p->out;

	if ((rc = dom_org_get(p->d, org_id, &o)) || (rc = app_list(p, &lr, &cur, 0)) ||
	    (rc = dom_openapi_versions(p->d, org_id, slug, &lr, &s, &vs, &n, &next)))
		return rc;
	busy = strcmp(s.processing_state, "complete") != 0;
	/* Processed by a job: the page looks again in two seconds. Not on a
	 * refused form's answer, whose URL is the form's (a reload would GET
	 * it) and whose message is being read. */
	if (busy && !error)
		p->refresh = 2;
	{
		struct app_crumb crumbs[] = { { "Home", "/" },
					      { o.org.title, org_path(p, "") },
					      { "OpenAPI", org_path(p, "/openapi") },
					      { s.slug, NULL } };
		app_frame_begin(p, s.slug, crumbs, 4);
	}
	html_raw(b, "<h1>");
	app_text(b, s.slug);
	html_raw(b, "</h1>");
	app_error_box(b, error);
	html_raw(b, "<dl class=\"meta\"><dt>State</dt><dd>");
	state_badge(b, &s);
	if (busy)
		html_raw(b, " <span class=\"mute\">(");
	if (busy)
		app_text(b, s.processing_state);
	if (busy)
		html_raw(b, "; this page refreshes itself)</span>");
	html_raw(b, "</dd><dt>Source</dt><dd>");
	if (s.source_url) {
		html_raw(b, "<code>");
		app_text(b, s.source_url);
		html_raw(b, "</code>");
	} else {
		html_raw(b, "a pasted or uploaded text");
	}
	html_raw(b, "</dd><dt>Last processed</dt><dd>");
	if (s.last_processed_at > 0)
		app_date(b, s.last_processed_at);
	else
		html_raw(b, "never");
	html_raw(b, "</dd><dt>Visibility</dt><dd>");
	app_text(b, s.visibility);
	html_raw(b, "</dd>");
	if (strcmp(s.visibility, "public") == 0) {
		const char *url = openapi_published_url(&p->r->arena, dom_base_url(p->d), &s);
		if (url) {
			html_raw(b, "<dt>Published at</dt><dd><a href=\"");
			html_url(b, url);
			html_raw(b, "\">");
			app_text(b, url);
			html_raw(b, "</a></dd>");
		}
	}
	html_raw(b, "</dl>");
	if (s.last_error_code)
		run_errors(b, &s);
	html_raw(b, "<h2>Versions</h2>");
	if (n == 0) {
		html_raw(b, busy ? "<p class=\"empty\">The first version is being processed.</p>"
				 : "<p class=\"empty\">No version: the source has not been processed successfully.</p>");
	} else {
		html_raw(b, "<div class=\"scroll-x\"><table><thead><tr><th scope=\"col\">Version</th>"
			    "<th scope=\"col\">Created</th><th scope=\"col\">URL</th></tr></thead><tbody>");
		for (int i = 0; i < n; i++) {
			html_raw(b, "<tr><td><code>");
			app_text(b, vs[i].id);
			html_raw(b, "</code>");
			if (s.last_version && strcmp(s.last_version, vs[i].id) == 0)
				html_raw(b, " <span class=\"kind\">latest</span>");
			html_raw(b, "</td><td>");
			app_date(b, vs[i].created_at);
			html_raw(b, "</td><td>");
			app_text(b, vs[i].url);
			html_raw(b, "</td></tr>");
		}
		html_raw(b, "</tbody></table></div>");
		app_pager(p, app_path2(p, "/o/", org_id, "/openapi/", slug, ""), NULL, next, "Older versions");
	}
	if (!may_edit(&o)) {
		app_frame_end(p);
		return 0;
	}
	html_raw(b, "<h2>Visibility</h2><form class=\"search\" method=\"post\" action=\"");
	app_text(b, spec_path(p, s.slug, "/visibility"));
	html_raw(b, "\">");
	app_hidden_csrf(p);
	html_raw(b, "<label for=\"visibility\">Who may read its published document</label><select id=\"visibility\" "
		    "name=\"visibility\"><option value=\"private\"");
	html_raw(b, strcmp(s.visibility, "private") == 0 ? " selected" : "");
	html_raw(b, ">private: members only, through the API</option><option value=\"public\"");
	html_raw(b, strcmp(s.visibility, "public") == 0 ? " selected" : "");
	html_raw(b, ">public: anyone, at its published URL</option></select><button type=\"submit\">Save visibility"
		    "</button></form><h2>Replace the source</h2>");
	source_forms(p, spec_path(p, s.slug, "/source"), true, sent);
	html_raw(b, "<h2>Delete</h2><p class=\"hint hint-danger\">Deleting the specification deletes its versions; "
		    "pages that show it say it is missing.</p><form class=\"inline\" method=\"post\" action=\"");
	app_text(b, spec_path(p, s.slug, "/delete"));
	html_raw(b, "\">");
	app_hidden_csrf(p);
	html_raw(b, "<button type=\"submit\">Delete this specification</button></form>");
	app_frame_end(p);
	return 0;
}

int page_openapi_spec(struct app_page *p)
{
	return render_spec(p, NULL, NULL);
}

/* ---- the forms ---- */

/* A refusal: rolled back and the page drawn again with why (list: the add
 * form; otherwise the spec's page). */
static int refused(struct app_page *p, int rc, bool list, const struct src_form *sent)
{
	const char *msg = NULL;

	if ((rc = app_form_refused(p, rc, &msg)))
		return rc;
	return list ? render_list(p, msg, sent) : render_spec(p, msg, sent);
}

/* A part's bytes as a C string in *out: 0, or ERR_INVALID naming it when
 * they hold a NUL byte or are not UTF-8. */
static int part_text(struct app_page *p, const struct app_part *pt, const char **out)
{
	char *s;

	if (memchr(pt->data, '\0', pt->len))
		return err_set(ERR_INVALID, "%s: must be UTF-8 text without NUL bytes", pt->name);
	if (!(s = arena_strndup(&p->r->arena, pt->data, pt->len)))
		return err_set(ERR_INTERNAL, "out of memory");
	if (utf8_len(s) < 0)
		return err_set(ERR_INVALID, "%s: must be UTF-8 text without NUL bytes", pt->name);
	*out = s;
	return 0;
}

/* An urlencoded field: 0 absent or empty, 1 present, ERR_INVALID malformed. */
static int url_field(struct app_page *p, const char *name, const char **out)
{
	struct req *r = p->r;
	int rc = form_field(&r->arena, r->body ? r->body : "", r->body ? r->body_len : 0, name, out);

	if (rc < 0)
		return err_set(ERR_INVALID, "%s: not valid form data (bad escape, NUL or invalid UTF-8)", name);
	if (rc == 0 || !**out) {
		*out = NULL;
		return 0;
	}
	return 1;
}

/* The form's fields and whether its token matched; 0, or ERR_INVALID with
 * the message for the form (f->csrf_ok set either way when it could be
 * read). */
static int read_form(struct app_page *p, struct src_form *f)
{
	struct req *r = p->r;
	const char *ct = req_header(r, "Content-Type");
	struct app_part parts[OPENAPI_FORM_PARTS];
	const char *sent = NULL;
	int n = 0, rc;

	memset(f, 0, sizeof(*f));
	if (ct && strncasecmp(ct, "multipart/form-data", 19) == 0) {
		rc = app_multipart(p, parts, OPENAPI_FORM_PARTS, &n);
		for (int i = 0; i < n; i++)
			if (!parts[i].filename && strcmp(parts[i].name, APP_CSRF_FIELD) == 0 && !sent)
				sent = arena_strndup(&r->arena, parts[i].data, parts[i].len);
		if (!sent)
			sent = req_header(r, "X-CSRF-Token");
		f->csrf_ok = app_token_eq(p->csrf, sent) != 0;
		if (rc || !f->csrf_ok)
			return rc;
		for (int i = 0; i < n; i++) {
			const struct app_part *pt = &parts[i];
			const char **to = NULL;
			if (strcmp(pt->name, "slug") == 0)
				to = &f->slug;
			else if (strcmp(pt->name, "url") == 0)
				to = &f->url;
			else if (strcmp(pt->name, "text") == 0 || strcmp(pt->name, "file") == 0)
				to = &f->text;
			if (!to || *to || pt->len == 0)
				continue; /* unknown, repeated, or empty ("no file chosen") */
			if ((rc = part_text(p, pt, to)))
				return rc;
			if (strcmp(pt->name, "file") == 0)
				f->file = true;
		}
		return 0;
	}
	f->csrf_ok = app_csrf_ok(r, p->csrf);
	if (!f->csrf_ok)
		return 0;
	if ((rc = url_field(p, "slug", &f->slug)) < 0 || (rc = url_field(p, "url", &f->url)) < 0 ||
	    (rc = url_field(p, "text", &f->text)) < 0)
		return rc;
	return 0;
}

/* The answer to a form whose token is missing or stale: nothing ran. */
static int out_of_date(struct app_page *p)
{
	app_error_page(p, 403, "This form is out of date", "The form is out of date: reload the page and try again.");
	return 0;
}

/* The common start of the two source forms: 0 with *f read and its token
 * checked, or 1 when the page has been answered (a 403 or 413, or a 400
 * shown on the form). */
static int source_form(struct app_page *p, bool list, struct src_form *f, int *rc)
{
	struct req *r = p->r;
	const char *msg;

	*rc = 0;
	if (r->body_too_large) {
		/* The token cannot be read from a body that was dropped; nothing
		 * is written, the form is shown again. */
		msg = arena_printf(&r->arena, "The form is too large: the server accepts at most %zu bytes (--max-body).",
				   r->srv->cfg.max_body);
		p->status = 413;
		*rc = list ? render_list(p, msg, NULL) : render_spec(p, msg, NULL);
		return 1;
	}
	if ((*rc = read_form(p, f)) == 0 && f->csrf_ok)
		return 0;
	if (!f->csrf_ok) {
		err_clear();
		*rc = out_of_date(p);
		return 1;
	}
	if (err_status(*rc) == 400) {
		msg = arena_strdup(&r->arena, err_message());
		err_clear();
		p->status = 400;
		*rc = list ? render_list(p, msg, f) : render_spec(p, msg, f);
	}
	return 1;
}

int page_openapi_create(struct app_page *p)
{
	struct openapi_source src;
	struct openapi_spec s;
	struct src_form f;
	int rc;

	if (source_form(p, true, &f, &rc))
		return rc;
	src = (struct openapi_source){ .url = f.url, .text = f.text };
	rc = dom_openapi_create(p->d, req_param(p->r, "organizationId"), f.slug ? f.slug : "", &src, &s);
	if (rc)
		return refused(p, rc, true, &f);
	p->location = spec_path(p, s.slug, "");
	return 0;
}

int page_openapi_source(struct app_page *p)
{
	const char *org_id = req_param(p->r, "organizationId"), *slug = req_param(p->r, "specSlug");
	struct openapi_source src;
	struct openapi_spec s;
	struct src_form f;
	bool created = false;
	int rc;

	if (source_form(p, false, &f, &rc))
		return rc;
	/* Replace only: PUT would create a spec that is not there. */
	if ((rc = dom_openapi_get(p->d, org_id, slug, &s)))
		return rc;
	src = (struct openapi_source){ .url = f.url, .text = f.text };
	if ((rc = dom_openapi_put(p->d, org_id, slug, &src, &s, &created)))
		return refused(p, rc, false, &f);
	p->location = spec_path(p, s.slug, "");
	return 0;
}

int page_openapi_visibility(struct app_page *p)
{
	struct req *r = p->r;
	const char *v = NULL;
	struct openapi_spec s;
	int rc;

	if (url_field(p, "visibility", &v) < 0 || !v) {
		err_clear();
		p->status = 400;
		return render_spec(p, "visibility: must be 'private' or 'public'", NULL);
	}
	rc = dom_openapi_set_visibility(p->d, req_param(r, "organizationId"), req_param(r, "specSlug"), v, &s);
	if (rc)
		return refused(p, rc, false, NULL);
	p->location = spec_path(p, s.slug, "");
	return 0;
}

int page_openapi_delete(struct app_page *p)
{
	bool removed = false;
	int rc = dom_openapi_delete(p->d, req_param(p->r, "organizationId"), req_param(p->r, "specSlug"), &removed);

	if (rc)
		return refused(p, rc, false, NULL);
	if (!removed)
		return err_set(ERR_NOT_FOUND, "no such OpenAPI specification");
	p->location = org_path(p, "/openapi");
	return 0;
}
