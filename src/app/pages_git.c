/*
 * pages_git.c - a space's Git sync in the web interface (issue 25, "Git
 * sync (link, import, export, last operation and its error)" and "progress
 * for long operations"): /s/{spaceId}/~/git.
 *
 * The page shows the space's link and its last operation as the API's
 * getGitInfo does (dom_git_info: GitSyncState, with the operation's
 * direction, state, stage, tasks, times, commit, note and error). For
 * whoever may trigger a sync (the space's permissions.triggerGitSync, from
 * the same space_permissions the API serializes) it has an Import form and
 * an Export form, each one call of dom_git_sync_start, importGitRepository's
 * and exportToGitRepository's domain function, which checks the fields and
 * the role and queues the job; for the space's admins an Unlink button
 * (dom_git_link_remove, the legacy installation's DELETE). A refusal (400,
 * 403, 409) is rolled back and the form shown again with the message.
 *
 * Progress: while the operation is running the page reloads itself every 2
 * seconds (<meta http-equiv="refresh">, no script) and says so; once it is
 * a success or a failure it does not.
 *
 * Credentials: the repository URL may hold user:token (the domain seals
 * them and keeps the URL without them). The page never writes back what was
 * typed in the URL field, not even on a refusal (the field comes back
 * empty), and shows only the domain's state, which never holds them.
 */
#include "app/app.h"
#include "app/pages.h"
#include "domain/git_sync.h"
#include "domain/spaces.h"
#include "http/form.h"
#include "model/access.h"
#include "model/git_sync.h"
#include "site/site.h"
#include "util/err.h"
#include "util/text.h"

#include <jansson.h>
#include <string.h>

/* How often a page following a running operation reloads itself. */
#define GIT_REFRESH_S 2

/* What a refused form had (never its URL), to show it again. */
struct git_form {
	const char *ref, *dir, *message, *tree_url, *commit_url;
	bool standalone, force;
};

static const char *jstr(json_t *o, const char *k)
{
	const char *v = json_string_value(json_object_get(o, k));

	return v && *v ? v : NULL;
}

static void meta_row(struct jw *b, const char *dt, const char *dd)
{
	if (!dd)
		return;
	html_raw(b, "<dt>");
	html_raw(b, dt);
	html_raw(b, "</dt><dd>");
	app_text(b, dd);
	html_raw(b, "</dd>");
}

/* A GitSyncState time (RFC 3339) as the app shows dates. */
static void meta_date(struct jw *b, const char *dt, const char *iso)
{
	int64_t ms;

	if (!iso)
		return;
	if (gs_timestamp_parse(iso, &ms)) {
		meta_row(b, dt, iso);
		return;
	}
	html_raw(b, "<dt>");
	html_raw(b, dt);
	html_raw(b, "</dt><dd>");
	app_date(b, ms);
	html_raw(b, "</dd>");
}

/* The link and its last operation from GitSyncState's JSON text; sets
 * p->refresh while the operation runs. */
static int link_state(struct app_page *p, const char *text)
{
	struct jw *b = p->out;
	json_t *root = json_loads(text, 0, NULL), *op;

	if (!root)
		return err_set(ERR_INTERNAL, "unreadable Git sync state");
	html_raw(b, "<h2>Link</h2><dl class=\"meta\">");
	meta_row(b, "Repository", jstr(root, "url"));
	meta_row(b, "Name", jstr(root, "repoName"));
	meta_row(b, "Provider", jstr(root, "installationProvider"));
	meta_date(b, "Linked or changed", jstr(root, "updatedAt"));
	html_raw(b, "</dl><h2>Last operation</h2>");
	op = json_object_get(root, "operation");
	if (!json_is_object(op)) {
		html_raw(b, "<p class=\"empty\">No operation yet.</p>");
		json_decref(root);
		return 0;
	}
	{
		const char *state = jstr(op, "state"), *err = jstr(op, "error");
		bool running = state && strcmp(state, "running") == 0;
		char tasks[64];

		snprintf(tasks, sizeof(tasks), "%lld of %lld",
			 (long long)json_integer_value(json_object_get(op, "completedTasks")),
			 (long long)json_integer_value(json_object_get(op, "dispatchedTasks")));
		html_raw(b, "<dl class=\"meta\" id=\"git-operation\"><dt>Direction</dt><dd>");
		app_text(b, jstr(op, "direction") ? jstr(op, "direction") : "import");
		html_raw(b, "</dd><dt>State</dt><dd><span class=\"badge ");
		html_raw(b, state && strcmp(state, "failure") == 0 ? "st-draft" : "st-open");
		html_raw(b, "\" id=\"git-state\">");
		app_text(b, state ? state : "unknown");
		html_raw(b, "</span>");
		if (running)
			html_raw(b, " <span class=\"mute\">(this page reloads itself until it is done)</span>");
		html_raw(b, "</dd>");
		if (running)
			meta_row(b, "Stage", jstr(op, "stage"));
		meta_row(b, "Steps done", tasks);
		meta_date(b, "Started", jstr(op, "startedAt"));
		meta_date(b, "Updated", jstr(op, "updatedAt"));
		meta_date(b, "Completed", jstr(op, "completedAt"));
		meta_row(b, "Commit", jstr(op, "commit"));
		meta_row(b, "Note", jstr(op, "note"));
		html_raw(b, "</dl>");
		if (err) {
			html_raw(b, "<div class=\"hint hint-danger\" id=\"git-error\"><p><strong>Error:</strong> ");
			app_text(b, err);
			html_raw(b, "</p></div>");
		}
		if (running)
			p->refresh = GIT_REFRESH_S;
	}
	json_decref(root);
	return 0;
}

/* The fields the two forms share (prefix: "imp" or "exp", for the ids). */
static void common_fields(struct app_page *p, const char *prefix, const struct git_form *f)
{
	struct jw *b = p->out;

	html_raw(b, "<p><label for=\"");
	html_raw(b, prefix);
	html_raw(b, "-url\">Repository URL (https, http; credentials as https://user:token@host/…, never shown "
		    "again)</label><br><input id=\"");
	html_raw(b, prefix);
	html_raw(b, "-url\" name=\"url\" type=\"text\" inputmode=\"url\" autocomplete=\"off\" spellcheck=\"false\" "
		    "required maxlength=\"2048\" value=\"\"></p><p><label for=\"");
	html_raw(b, prefix);
	html_raw(b, "-ref\">Branch (main, or refs/heads/main)</label><br><input id=\"");
	html_raw(b, prefix);
	html_raw(b, "-ref\" name=\"ref\" type=\"text\" required maxlength=\"255\" value=\"");
	app_text(b, f && f->ref ? f->ref : "main");
	html_raw(b, "\"></p><p><label for=\"");
	html_raw(b, prefix);
	html_raw(b, "-dir\">Project directory in the repository (empty: its root)</label><br><input id=\"");
	html_raw(b, prefix);
	html_raw(b, "-dir\" name=\"dir\" type=\"text\" maxlength=\"1024\" value=\"");
	app_text(b, f && f->dir ? f->dir : "");
	html_raw(b, "\"></p>");
	/* repoTreeURL and repoCommitURL: where people browse the repository
	 * (getGitInfo's url shows the tree) and, with a commit's id appended,
	 * one commit (a revision's git.url). The other fields of the API's
	 * body are a machine's, left out: repoCacheID (GitBook's cache key),
	 * timestamp (when GitBook's integration saw the push), gitInfo
	 * (the provider integration's own link). */
	html_raw(b, "<details");
	if (f && (f->tree_url || f->commit_url))
		html_raw(b, " open");
	html_raw(b, "><summary>Links to the repository's web pages (optional)</summary><p><label for=\"");
	html_raw(b, prefix);
	html_raw(b, "-tree\">Tree URL: the branch as the Git host shows it, e.g. https://github.com/o/r/tree/main "
		    "(empty: none; each sync sets it again)</label><br><input id=\"");
	html_raw(b, prefix);
	html_raw(b, "-tree\" name=\"repoTreeURL\" type=\"url\" inputmode=\"url\" spellcheck=\"false\" "
		    "maxlength=\"2048\" value=\"");
	app_text(b, f && f->tree_url ? f->tree_url : "");
	html_raw(b, "\"></p><p><label for=\"");
	html_raw(b, prefix);
	html_raw(b, "-commit\">Commit URL: a commit's id is appended to it, e.g. https://github.com/o/r/commit/"
		    "</label><br><input id=\"");
	html_raw(b, prefix);
	html_raw(b, "-commit\" name=\"repoCommitURL\" type=\"url\" inputmode=\"url\" spellcheck=\"false\" "
		    "maxlength=\"2048\" value=\"");
	app_text(b, f && f->commit_url ? f->commit_url : "");
	html_raw(b, "\"></p></details>");
}

static void check(struct jw *b, const char *id, const char *name, const char *label, bool on)
{
	html_raw(b, "<p><input type=\"checkbox\" id=\"");
	html_raw(b, id);
	html_raw(b, "\" name=\"");
	html_raw(b, name);
	html_raw(b, "\" value=\"1\"");
	if (on)
		html_raw(b, " checked");
	html_raw(b, "> <label for=\"");
	html_raw(b, id);
	html_raw(b, "\">");
	html_raw(b, label);
	html_raw(b, "</label></p>");
}

/* which: the form a refusal came from (GIT_IMPORT / GIT_EXPORT), -1 none. */
static int render(struct app_page *p, const char *error, int which, const struct git_form *f)
{
	const char *id = req_param(p->r, "spaceId"), *text = NULL;
	struct space_permissions perm;
	struct space s;
	struct jw *b = p->out;
	int rc;

	if ((rc = dom_space_get(p->d, id, ROLE_READ, &s)))
		return rc;
	space_permissions(&perm, s.access, s.edit_mode && strcmp(s.edit_mode, "locked") == 0);
	rc = dom_git_info(p->d, s.id, &text);
	if (rc && rc != ERR_NOT_FOUND)
		return rc;
	if (rc) {
		err_clear();
		text = NULL;
	}
	{
		/* app_frame_begin writes the head: the state (and p->refresh)
		 * is read first, into a buffer of its own. */
		struct jw *page = p->out, state;
		jw_init(&state);
		p->out = &state;
		rc = text ? link_state(p, text) : 0;
		p->out = page;
		if (rc || !jw_ok(&state)) {
			jw_free(&state);
			return rc ? rc : err_set(ERR_INTERNAL, "out of memory");
		}
		struct app_crumb crumbs[] = { { "Home", "/" },
					      { s.title && *s.title ? s.title : "Untitled space", app_path(p, "/s/", s.id, "") },
					      { "Settings", app_path(p, "/s/", s.id, "/~/settings") },
					      { "Git sync", NULL } };
		app_frame_begin(p, "Git sync", crumbs, 4);
		html_raw(b, "<h1>Git sync</h1>");
		app_error_box(b, error);
		if (!text)
			html_raw(b, "<p class=\"empty\">This space is not linked to a Git repository.</p>");
		else
			jw_put(b, state.buf, state.len);
		jw_free(&state);
	}
	if (!perm.trigger_git_sync) {
		html_raw(b, "<p class=\"mute\">Only an editor of this space can import from or export to a Git "
			    "repository.</p>");
		app_frame_end(p);
		return 0;
	}
	/* Import */
	html_raw(b, "<h2 id=\"import\">Import from Git</h2><p class=\"mute\">The branch's content replaces the "
		    "space's (GitBook's layout: README.md, SUMMARY.md, .gitbook.yaml).</p><form method=\"post\" "
		    "action=\"");
	app_text(b, app_path(p, "/s/", s.id, "/~/git/import"));
	html_raw(b, "\">");
	app_hidden_csrf(p);
	common_fields(p, "imp", which == GIT_IMPORT ? f : NULL);
	check(b, "imp-standalone", "standalone", "Standalone (a revision of its own; the space's content stays)",
	      which == GIT_IMPORT && f && f->standalone);
	check(b, "imp-force", "force", "Force (even when this commit was imported already)",
	      which == GIT_IMPORT && f && f->force);
	html_raw(b, "<p><button type=\"submit\">Import</button></p></form>");
	/* Export */
	html_raw(b, "<h2 id=\"export\">Export to Git</h2><p class=\"mute\">The space's content is committed onto "
		    "the branch and pushed.</p><form method=\"post\" action=\"");
	app_text(b, app_path(p, "/s/", s.id, "/~/git/export"));
	html_raw(b, "\">");
	app_hidden_csrf(p);
	common_fields(p, "exp", which == GIT_EXPORT ? f : NULL);
	html_raw(b, "<p><label for=\"exp-message\">Commit message</label><br><input id=\"exp-message\" "
		    "name=\"commitMessage\" type=\"text\" required value=\"");
	app_text(b, which == GIT_EXPORT && f && f->message ? f->message : "Update from docsd");
	html_raw(b, "\"></p>");
	check(b, "exp-force", "force", "Force", which == GIT_EXPORT && f && f->force);
	html_raw(b, "<p><button type=\"submit\">Export</button></p></form>");
	if (text && perm.admin) {
		html_raw(b, "<h2>Unlink</h2><p class=\"mute\">The space keeps its content; the repository is "
			    "not changed.</p><form method=\"post\" action=\"");
		app_text(b, app_path(p, "/s/", s.id, "/~/git/unlink"));
		html_raw(b, "\">");
		app_hidden_csrf(p);
		html_raw(b, "<button type=\"submit\">Unlink the repository</button></form>");
	}
	app_frame_end(p);
	return 0;
}

int page_git(struct app_page *p)
{
	return render(p, NULL, -1, NULL);
}

static int refused(struct app_page *p, int rc, int which, const struct git_form *f)
{
	const char *msg = NULL;

	if ((rc = app_form_refused(p, rc, &msg)))
		return rc;
	return render(p, msg, which, f);
}

static int field(struct app_page *p, const char *name, const char **out)
{
	int f = form_field(&p->r->arena, p->r->body, p->r->body_len, name, out);

	if (f != 1)
		*out = NULL;
	return f;
}

/* A form's fields into rq (the form's names; a bare branch name becomes
 * refs/heads/<name>): 0, or ERR_INVALID naming the malformed field. The
 * domain checks the values. */
static int read_form(struct app_page *p, enum git_direction dir, struct dom_git_request *rq, struct git_form *f)
{
	const char *standalone = NULL, *force = NULL;
	static const char *const names[] = { "url", "ref", "dir", "commitMessage", "standalone", "force",
					     "repoTreeURL", "repoCommitURL" };
	const char **outs[] = { &rq->url, &f->ref, &f->dir, &f->message, &standalone, &force, &f->tree_url,
				&f->commit_url };

	memset(rq, 0, sizeof(*rq));
	memset(f, 0, sizeof(*f));
	rq->direction = dir;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (field(p, names[i], outs[i]) < 0)
			return err_set(ERR_INVALID, "%s: malformed form data", names[i]);
	f->standalone = standalone && strcmp(standalone, "1") == 0;
	f->force = force && strcmp(force, "1") == 0;
	if (!rq->url || !*rq->url)
		return err_set(ERR_INVALID, "url: required");
	if (strlen(rq->url) > GS_MAX_URL)
		return err_set(ERR_INVALID, "url: at most %d characters", GS_MAX_URL);
	if (!f->ref || !*f->ref)
		return err_set(ERR_INVALID, "ref: required");
	if (strlen(f->ref) > GS_MAX_REF)
		return err_set(ERR_INVALID, "ref: at most %d characters", GS_MAX_REF);
	if (f->dir && strlen(f->dir) > 1024)
		return err_set(ERR_INVALID, "dir: at most 1024 characters");
	/* The API's bounds (1..GS_MAX_URL; empty is absent here); the domain
	 * checks they are http(s) URLs. */
	if (f->tree_url && strlen(f->tree_url) > GS_MAX_URL)
		return err_set(ERR_INVALID, "repoTreeURL: at most %d characters", GS_MAX_URL);
	if (f->commit_url && strlen(f->commit_url) > GS_MAX_URL)
		return err_set(ERR_INVALID, "repoCommitURL: at most %d characters", GS_MAX_URL);
	rq->tree_url = f->tree_url && *f->tree_url ? f->tree_url : NULL;
	rq->commit_url = f->commit_url && *f->commit_url ? f->commit_url : NULL;
	rq->ref = strncmp(f->ref, "refs/", 5) == 0 ? f->ref : arena_printf(&p->r->arena, "refs/heads/%s", f->ref);
	if (!rq->ref)
		return err_set(ERR_INTERNAL, "out of memory");
	rq->project_dir = f->dir && *f->dir ? f->dir : NULL;
	if (dir == GIT_EXPORT)
		rq->commit_message = f->message;
	rq->standalone = dir == GIT_IMPORT && f->standalone;
	rq->force = f->force;
	return 0;
}

static int start(struct app_page *p, enum git_direction dir)
{
	struct dom_git_request rq;
	struct git_form f;
	int rc;

	if ((rc = read_form(p, dir, &rq, &f)) || (rc = dom_git_sync_start(p->d, req_param(p->r, "spaceId"), &rq)))
		return refused(p, rc, dir, &f);
	p->location = app_path(p, "/s/", req_param(p->r, "spaceId"), "/~/git");
	return 0;
}

int page_git_import(struct app_page *p)
{
	return start(p, GIT_IMPORT);
}

int page_git_export(struct app_page *p)
{
	return start(p, GIT_EXPORT);
}

int page_git_unlink(struct app_page *p)
{
	bool removed = false;
	int rc = dom_git_link_remove(p->d, req_param(p->r, "spaceId"), &removed);

	if (rc)
		return refused(p, rc, -1, NULL);
	p->location = app_path(p, "/s/", req_param(p->r, "spaceId"), "/~/git");
	return 0;
}
