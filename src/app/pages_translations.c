/*
 * pages_translations.c - an organization's translations in the web
 * interface (issue 25, "translations" and "progress for long operations"):
 * /o/{organizationId}/translations (the list and a form to create one) and
 * /o/{organizationId}/translations/{translationId} (one translation, its
 * last run's state, Run now, Delete).
 *
 * Every read and write is the API's domain function (domain/translations.h):
 * dom_translations_list (the translations whose source space the actor
 * reads), dom_translation_get, dom_translation_create (the source space of
 * the organization, the languages, the pair reachable by the engine: its
 * 400 names what is reachable), dom_translation_run (queues the run's job)
 * and dom_translation_delete. The forms are shown when the translation's
 * `editable` (the API's permissions.edit: the create role in the
 * organization) says so, and the create form when the actor's organization
 * role is create or more; the domain decides either way. A refusal is rolled
 * back and the form shown again with the message.
 *
 * The language selects offer what the server's engine has: the sources and
 * targets of its installed pairs (a target may be reached through a chain;
 * the domain checks the pair chosen), each a GitBook TranslationLanguage.
 *
 * Instructions (GitBook's glossary): the translation's page shows the
 * glossary the next run reads from them and, where the translation is
 * editable, a textarea of the instructions' JSON document with Save
 * (dom_translation_update, updateTranslation's domain function, which
 * checks the document node by node and its 64 KB bound). JSON, not a
 * friendlier format: docsd has no document-to-markdown writer, and a
 * document set through the API must come back unchanged when saved.
 *
 * Progress: a translation's status is the API's (pending, running,
 * completed: model/translation.h). Its page reloads itself every 2 seconds
 * while the run runs, and while a run asked for less than a minute ago has
 * not been applied yet (a worker normally claims it within a second).
 * GitBook's status has no "failed": a failed run leaves the translation
 * pending, as does one still queued. The run's job state and last error
 * (model/translation.h job_state, job_error) tell them apart: the page
 * follows a queued or running job, and shows a failed one's reason (or
 * the reason of an attempt that will be retried). Without a job row (pruned)
 * a run asked for less than a minute ago is followed, then the page says
 * only that it has not completed.
 */
#include "app/app.h"
#include "app/pages.h"
#include "domain/orgs.h"
#include "domain/spaces.h"
#include "domain/translations.h"
#include "http/form.h"
#include "model/translation.h"
#include "site/site.h"
#include "translate/engine.h"
#include "util/err.h"
#include "util/text.h"
#include "util/util.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#define TR_REFRESH_S 2
/* A pending run asked for this recently is followed (reloads). */
#define TR_FOLLOW_MS (60 * 1000)

static const char *org_id_of(struct app_page *p)
{
	return req_param(p->r, "organizationId");
}

static const char *list_path(struct app_page *p)
{
	return app_path(p, "/o/", org_id_of(p), "/translations");
}

static const char *tr_path(struct app_page *p, const char *id, const char *suffix)
{
	return app_path2(p, "/o/", org_id_of(p), "/translations/", id, suffix);
}

static void status_badge(struct jw *b, const char *status)
{
	html_raw(b, "<span class=\"badge ");
	html_raw(b, status && strcmp(status, "completed") == 0 ? "st-open" : "st-draft");
	html_raw(b, "\" data-status=\"");
	app_text(b, status ? status : "");
	html_raw(b, "\">");
	app_text(b, status ? status : "unknown");
	html_raw(b, "</span>");
}

static void route_text(struct jw *b, const struct translation *t)
{
	if (t->route_n == 0) {
		html_raw(b, "<span class=\"mute\">not reachable by the engine now</span>");
		return;
	}
	for (int i = 0; i < t->route_n; i++) {
		if (i)
			html_raw(b, " → ");
		app_text(b, t->route[i]);
	}
	if (t->route_engine) {
		html_raw(b, " <span class=\"mute\">(");
		app_text(b, t->route_engine);
		html_raw(b, ")</span>");
	}
	if (t->route_note) {
		html_raw(b, " <span class=\"mute\">");
		app_text(b, t->route_note);
		html_raw(b, "</span>");
	}
}

static void space_link(struct app_page *p, const char *id, const char *title)
{
	struct jw *b = p->out;

	html_raw(b, "<a href=\"");
	app_text(b, app_path(p, "/s/", id, ""));
	html_raw(b, "\">");
	app_text(b, title && *title ? title : "Untitled space");
	html_raw(b, "</a>");
}

/* A POST button to suffix of translation id (Run now, Delete). */
static void button_form(struct app_page *p, const char *id, const char *suffix, const char *label, const char *aria)
{
	struct jw *b = p->out;

	html_raw(b, "<form class=\"inline\" method=\"post\" action=\"");
	app_text(b, tr_path(p, id, suffix));
	html_raw(b, "\">");
	app_hidden_csrf(p);
	html_raw(b, "<button type=\"submit\"");
	if (aria) {
		html_raw(b, " aria-label=\"");
		app_text(b, aria);
		html_raw(b, "\"");
	}
	html_raw(b, ">");
	app_text(b, label);
	html_raw(b, "</button></form>");
}

/* The distinct sources and targets of the engine's pairs (one pairs() call),
 * each in GitBook's order of languages; none without an engine or when its
 * pairs() fails (the create form then says so). */
static int engine_languages(struct app_page *p, const char ***froms, int *nf, const char ***tos, int *nt)
{
	const struct tr_engine *e = p->d->srv ? p->d->srv->translator : NULL;
	struct tr_pair *pairs = NULL;
	int np = 0, nl = 0;

	*froms = *tos = NULL;
	*nf = *nt = 0;
	if (!e || e->ops->pairs(e, p->d->arena, &pairs, &np)) {
		err_clear();
		return 0;
	}
	while (translation_languages[nl])
		nl++;
	*froms = arena_alloc(p->d->arena, sizeof(**froms) * (size_t)(nl + 1));
	*tos = arena_alloc(p->d->arena, sizeof(**tos) * (size_t)(nl + 1));
	if (!*froms || !*tos)
		return err_set(ERR_INTERNAL, "out of memory");
	for (int i = 0; i < nl; i++) {
		bool from = false, to = false;
		for (int j = 0; j < np; j++) {
			from |= strcmp(pairs[j].from, translation_languages[i]) == 0;
			to |= strcmp(pairs[j].to, translation_languages[i]) == 0;
		}
		if (from)
			(*froms)[(*nf)++] = translation_languages[i];
		if (to)
			(*tos)[(*nt)++] = translation_languages[i];
	}
	return 0;
}

static void language_select(struct jw *b, const char *id, const char *name, const char *label, const char **langs,
			    int n, const char *selected)
{
	html_raw(b, "<p><label for=\"");
	html_raw(b, id);
	html_raw(b, "\">");
	html_raw(b, label);
	html_raw(b, "</label><br><select id=\"");
	html_raw(b, id);
	html_raw(b, "\" name=\"");
	html_raw(b, name);
	html_raw(b, "\" required>");
	for (int i = 0; i < n; i++) {
		html_raw(b, "<option value=\"");
		app_text(b, langs[i]);
		html_raw(b, "\"");
		if (selected && strcmp(selected, langs[i]) == 0)
			html_raw(b, " selected");
		html_raw(b, ">");
		app_text(b, langs[i]);
		html_raw(b, "</option>");
	}
	html_raw(b, "</select></p>");
}

/* What a refused create form had, to show it again. */
struct tr_form {
	const char *space, *source_language, *language;
};

static int create_form(struct app_page *p, const struct tr_form *f)
{
	struct list_req lr = { .limit = 100 };
	struct space *spaces = NULL;
	const char **froms, **tos;
	char *next = NULL;
	int n = 0, nf = 0, nt = 0, rc;
	struct jw *b = p->out;

	if ((rc = dom_spaces_list(p->d, org_id_of(p), NULL, &lr, &spaces, &n, &next)) ||
	    (rc = engine_languages(p, &froms, &nf, &tos, &nt)))
		return rc;
	html_raw(b, "<h2 id=\"new\">New translation</h2>");
	if (n == 0 || nf == 0) {
		html_raw(b, n == 0 ? "<p class=\"empty\">There is no space to translate.</p>"
				   : "<p class=\"empty\">The server's translation engine has no language pair installed."
				     "</p>");
		return 0;
	}
	html_raw(b, "<form method=\"post\" action=\"");
	app_text(b, list_path(p));
	html_raw(b, "\">");
	app_hidden_csrf(p);
	html_raw(b, "<p><label for=\"tr-space\">Source space</label><br><select id=\"tr-space\" name=\"space\" "
		    "required>");
	for (int i = 0; i < n; i++) {
		html_raw(b, "<option value=\"");
		app_text(b, spaces[i].id);
		html_raw(b, "\"");
		if (f && f->space && strcmp(f->space, spaces[i].id) == 0)
			html_raw(b, " selected");
		html_raw(b, ">");
		app_text(b, spaces[i].title && *spaces[i].title ? spaces[i].title : "Untitled space");
		html_raw(b, "</option>");
	}
	html_raw(b, "</select></p>");
	language_select(b, "tr-from", "sourceLanguage", "The source space's language", froms, nf,
			f && f->source_language ? f->source_language : "en");
	language_select(b, "tr-to", "language", "Translate into", tos, nt, f ? f->language : NULL);
	html_raw(b, "<p class=\"mute\">The engine's pairs: ");
	{
		const char *pairs = tr_engine_pairs_text(p->d->srv->translator, p->d->arena);
		if (!pairs)
			err_clear();
		app_text(b, pairs ? pairs : "unknown");
	}
	html_raw(b, ". A target may be reached through other languages.</p>"
		    "<p><button type=\"submit\">Create translation</button></p></form>");
	if (next)
		html_raw(b, "<p class=\"mute\">Only the first 100 spaces are offered.</p>");
	return 0;
}

static int render_list(struct app_page *p, const char *error, const struct tr_form *f)
{
	const char *org_id = org_id_of(p);
	struct list_req lr = { .limit = 100 };
	struct translation *items = NULL;
	struct dom_org o;
	char *next = NULL;
	int n = 0, rc;
	struct jw *b = p->out;

	if ((rc = dom_org_get(p->d, org_id, &o)) || (rc = dom_translations_list(p->d, org_id, &lr, &items, &n, &next)))
		return rc;
	{
		struct app_crumb crumbs[] = { { "Home", "/" },
					      { o.org.title, app_path(p, "/o/", org_id, "") },
					      { "Translations", NULL } };
		app_frame_begin(p, "Translations", crumbs, 3);
	}
	html_raw(b, "<h1>Translations</h1>");
	app_error_box(b, error);
	if (n == 0) {
		html_raw(b, "<p class=\"empty\">No translation of a space you can read.</p>");
	} else {
		html_raw(b, "<div class=\"scroll-x\"><table><thead><tr><th scope=\"col\">Source space</th>"
			    "<th scope=\"col\">Languages</th><th scope=\"col\">Translated space</th>"
			    "<th scope=\"col\">Last run</th><th scope=\"col\">Route</th>"
			    "<th scope=\"col\"><span class=\"mute\">Actions</span></th></tr></thead><tbody>");
		for (int i = 0; i < n; i++) {
			const struct translation *t = &items[i];
			html_raw(b, "<tr><td>");
			space_link(p, t->source_space, t->source.title);
			html_raw(b, "</td><td>");
			app_text(b, t->source_language);
			html_raw(b, " → ");
			app_text(b, t->language);
			html_raw(b, "</td><td>");
			if (t->result_space)
				space_link(p, t->result_space, "Open");
			else
				html_raw(b, "<span class=\"mute\">none yet</span>");
			html_raw(b, "</td><td>");
			status_badge(b, t->status);
			html_raw(b, "</td><td>");
			route_text(b, t);
			html_raw(b, "</td><td><a href=\"");
			app_text(b, tr_path(p, t->id, ""));
			html_raw(b, "\">Details</a>");
			if (t->editable)
				button_form(p, t->id, "/run", "Run now",
					    arena_printf(p->d->arena, "Run the translation of %s into %s",
							 t->source.title && *t->source.title ? t->source.title : "Untitled space",
							 t->language));
			html_raw(b, "</td></tr>");
		}
		html_raw(b, "</tbody></table></div>");
		if (next)
			html_raw(b, "<p class=\"mute\">Only the first 100 translations are shown.</p>");
	}
	if (o.actor.role >= ROLE_CREATE) {
		if ((rc = create_form(p, f)))
			return rc;
	} else {
		html_raw(b, "<p class=\"mute\">Creating, running and deleting translations needs the create role in "
			    "the organization.</p>");
	}
	app_frame_end(p);
	return 0;
}

/* The instructions (GitBook's JSONDocument) and the glossary the next run
 * reads from them (tr_glossary_parse, the run's own parse): for whoever
 * may change the translation a textarea of the document's JSON,
 * pretty-printed (draft: what a refused form had), and Save. */
static int instructions_section(struct app_page *p, const struct translation *t, const char *draft)
{
	struct tr_glossary g;
	json_t *doc = t->instructions ? json_loads(t->instructions, 0, NULL) : NULL;
	char *pretty = doc ? json_dumps(doc, JSON_INDENT(2)) : NULL;
	struct jw *b = p->out;

	json_decref(doc);
	tr_glossary_parse(p->d->arena, t->instructions, &g);
	html_raw(b, "<h2 id=\"instructions\">Instructions and glossary</h2><p class=\"mute\">A table in the "
		    "instructions whose first two columns are a source term and its translation is the glossary: "
		    "each run keeps those terms as written there.</p>");
	if (g.n == 0) {
		html_raw(b, "<p class=\"empty\">No glossary: the instructions hold no table of terms.</p>");
	} else {
		html_raw(b, "<div class=\"scroll-x\"><table id=\"tr-glossary\"><thead><tr><th scope=\"col\">Term"
			    "</th><th scope=\"col\">Translated as</th></tr></thead><tbody>");
		for (int i = 0; i < g.n; i++) {
			html_raw(b, "<tr><td>");
			app_text(b, g.from[i]);
			html_raw(b, "</td><td>");
			app_text(b, g.to[i]);
			html_raw(b, "</td></tr>");
		}
		html_raw(b, "</tbody></table></div>");
	}
	if (t->editable) {
		html_raw(b, "<form method=\"post\" action=\"");
		app_text(b, tr_path(p, t->id, "/instructions"));
		html_raw(b, "\">");
		app_hidden_csrf(p);
		html_raw(b, "<p><label for=\"tr-instructions\">Instructions: a GitBook document as JSON "
			    "(<code>{\"object\": \"document\", \"data\": {}, \"nodes\": [...]}</code>, at most 64 KB)"
			    "</label><br><textarea id=\"tr-instructions\" name=\"instructions\" rows=\"16\" cols=\"80\" "
			    "spellcheck=\"false\">");
		app_text(b, draft ? draft : pretty ? pretty : "");
		html_raw(b, "</textarea></p><p><button type=\"submit\">Save instructions</button></p></form>");
	}
	free(pretty);
	return 0;
}

static int render_one(struct app_page *p, const char *error, const char *draft)
{
	const char *org_id = org_id_of(p), *id = req_param(p->r, "translationId");
	struct translation t;
	struct dom_org o;
	bool following, unapplied, failed;
	struct jw *b = p->out;
	int rc;

	if ((rc = dom_org_get(p->d, org_id, &o)) || (rc = dom_translation_get(p->d, org_id, id, &t)))
		return rc;
	/* Running; or a run asked for lately that has not been applied yet. */
	unapplied = t.status && strcmp(t.status, "pending") == 0 && t.job_id &&
		    (!t.applied_run || strcmp(t.applied_run, t.job_id) != 0);
	failed = unapplied && t.job_state && strcmp(t.job_state, "failed") == 0;
	following = (t.status && strcmp(t.status, "running") == 0) ||
		    (unapplied && t.job_state &&
		     (strcmp(t.job_state, "queued") == 0 || strcmp(t.job_state, "running") == 0)) ||
		    (unapplied && !t.job_state && clock_now_ms() - t.updated_at < TR_FOLLOW_MS);
	if (following)
		p->refresh = TR_REFRESH_S;
	{
		const char *title = arena_printf(p->d->arena, "%s into %s",
						 t.source.title && *t.source.title ? t.source.title : "Untitled space",
						 t.language);
		struct app_crumb crumbs[] = { { "Home", "/" },
					      { o.org.title, app_path(p, "/o/", org_id, "") },
					      { "Translations", list_path(p) },
					      { title ? title : "Translation", NULL } };
		app_frame_begin(p, title ? title : "Translation", crumbs, 4);
		html_raw(b, "<h1>");
		app_text(b, title ? title : "Translation");
		html_raw(b, "</h1>");
	}
	app_error_box(b, error);
	html_raw(b, "<dl class=\"meta\"><dt>Source space</dt><dd>");
	space_link(p, t.source_space, t.source.title);
	html_raw(b, "</dd><dt>Languages</dt><dd>");
	app_text(b, t.source_language);
	html_raw(b, " → ");
	app_text(b, t.language);
	html_raw(b, "</dd><dt>Route</dt><dd>");
	route_text(b, &t);
	html_raw(b, "</dd><dt>Status</dt><dd id=\"tr-status\">");
	status_badge(b, t.status);
	if (following)
		html_raw(b, " <span class=\"mute\">(this page reloads itself until the run is done)</span>");
	html_raw(b, "</dd><dt>Translated space</dt><dd>");
	if (t.result_space)
		space_link(p, t.result_space, "Open the translated space");
	else
		html_raw(b, "<span class=\"mute\">none yet: the first run creates it</span>");
	html_raw(b, "</dd>");
	{
		char line[160];
		snprintf(line, sizeof(line), "%lld", (long long)t.stats.runs);
		html_raw(b, "<dt>Runs completed</dt><dd>");
		app_text(b, line);
		html_raw(b, "</dd>");
		if (t.stats.runs > 0) {
			snprintf(line, sizeof(line), "%lld pages, %lld words sent, %lld s", (long long)t.stats.latest_pages,
				 (long long)t.stats.latest_words, (long long)t.stats.latest_run_duration);
			html_raw(b, "<dt>Last completed run</dt><dd>");
			app_text(b, line);
			html_raw(b, "</dd>");
		}
	}
	html_raw(b, "<dt>Created</dt><dd>");
	app_date(b, t.created_at);
	html_raw(b, "</dd><dt>Updated</dt><dd>");
	app_date(b, t.updated_at);
	html_raw(b, "</dd></dl>");
	if (failed) {
		html_raw(b, "<div class=\"hint hint-danger\" id=\"tr-error\" role=\"alert\"><p><strong>The last run "
			    "failed.</strong> ");
		app_text(b, t.job_error && *t.job_error ? t.job_error : "No reason was recorded.");
		html_raw(b, "</p><p>Run it again once the cause is fixed.</p></div>");
	} else if (following && t.job_error && *t.job_error) {
		html_raw(b, "<div class=\"hint hint-warning\" id=\"tr-retry\"><p>An attempt failed and will be "
			    "retried: ");
		app_text(b, t.job_error);
		html_raw(b, "</p></div>");
	} else if (unapplied && !following) {
		html_raw(b, "<div class=\"hint hint-danger\" id=\"tr-error\"><p>The last run has not completed. Its "
			    "job is no longer recorded; see the server's log. Run it again.</p></div>");
	}
	if ((rc = instructions_section(p, &t, draft)))
		return rc;
	if (!t.editable) {
		html_raw(b, "<p class=\"mute\">Running and deleting translations needs the create role in the "
			    "organization.</p>");
	} else {
		html_raw(b, "<p class=\"actions\">");
		button_form(p, t.id, "/run", "Run now", NULL);
		button_form(p, t.id, "/delete", "Delete this translation", NULL);
		html_raw(b, "</p><p class=\"mute\">Deleting the translation keeps the translated space.</p>");
	}
	app_frame_end(p);
	return 0;
}

int page_translations(struct app_page *p)
{
	return render_list(p, NULL, NULL);
}

int page_translation(struct app_page *p)
{
	return render_one(p, NULL, NULL);
}

static int field(struct app_page *p, const char *name, const char **out)
{
	int f = form_field(&p->r->arena, p->r->body, p->r->body_len, name, out);

	if (f != 1)
		*out = NULL;
	return f;
}

int page_translation_create(struct app_page *p)
{
	struct translation_input in = { 0 };
	struct tr_form f = { 0 };
	struct translation t;
	const char *msg = NULL;
	int rc;

	if (field(p, "space", &f.space) < 0 || field(p, "sourceLanguage", &f.source_language) < 0 ||
	    field(p, "language", &f.language) < 0)
		rc = err_set(ERR_INVALID, "malformed form data");
	else if (!f.space || !*f.space || strlen(f.space) > 64)
		rc = err_set(ERR_INVALID, "source.space: must be the id of a space");
	else if (!translation_language_valid(f.source_language))
		rc = err_set(ERR_INVALID, "source.language: must be one of GitBook's translation languages");
	else if (!translation_language_valid(f.language))
		rc = err_set(ERR_INVALID, "language: must be one of GitBook's translation languages");
	else {
		in.source_space = f.space;
		in.source_language = f.source_language;
		in.language = f.language;
		rc = dom_translation_create(p->d, org_id_of(p), &in, &t);
	}
	if (rc) {
		if ((rc = app_form_refused(p, rc, &msg)))
			return rc;
		return render_list(p, msg, &f);
	}
	p->location = tr_path(p, t.id, "");
	return 0;
}

static int refused_one(struct app_page *p, int rc, const char *draft)
{
	const char *msg = NULL;

	if ((rc = app_form_refused(p, rc, &msg)))
		return rc;
	return render_one(p, msg, draft);
}

int page_translation_run(struct app_page *p)
{
	const char *id = req_param(p->r, "translationId");
	int rc = dom_translation_run(p->d, org_id_of(p), id);

	if (rc)
		return refused_one(p, rc, NULL);
	p->location = tr_path(p, id, "");
	return 0;
}

int page_translation_delete(struct app_page *p)
{
	bool removed = false;
	int rc = dom_translation_delete(p->d, org_id_of(p), req_param(p->r, "translationId"), &removed);

	if (rc)
		return refused_one(p, rc, NULL);
	/* The domain answers 0 for an id the actor does not see (GitBook's
	 * 204): the app's one 404 page, nothing deleted. */
	if (!removed)
		return err_set(ERR_NOT_FOUND, "no such translation");
	p->location = list_path(p);
	return 0;
}

/* The instructions form (updateTranslation's body): the textarea's JSON,
 * parsed here as the API's body is (a form larger than the domain's bound
 * is refused before it is parsed), then dom_translation_update, which
 * checks the document and its size (400s naming "instructions"). A
 * refusal shows the form again with what was typed. */
int page_translation_instructions(struct app_page *p)
{
	const char *text = NULL, *draft = NULL;
	struct translation t;
	json_error_t jerr;
	json_t *doc = NULL;
	int rc, f;

	/* The form may carry the document pretty-printed (and CRLF line
	 * breaks): a few times the domain's bound before it is compact. */
	if (p->r->body_len > 4 * TRANSLATION_INSTRUCTIONS_MAX)
		rc = err_set(ERR_INVALID, "instructions: at most %d bytes of JSON", TRANSLATION_INSTRUCTIONS_MAX);
	else if ((f = field(p, "instructions", &text)) <= 0)
		rc = err_set(ERR_INVALID, f < 0 ? "instructions: malformed form data" : "instructions: is required");
	else if (!(doc = json_loads(draft = text, JSON_REJECT_DUPLICATES, &jerr))) /* as the router reads a body */
		rc = err_set(ERR_INVALID, "instructions: not JSON (line %d: %s)", jerr.line, jerr.text);
	else if (!json_is_object(doc))
		rc = err_set(ERR_INVALID, "instructions: must be a document ({object: \"document\", data, nodes})");
	else
		rc = dom_translation_update(p->d, org_id_of(p), req_param(p->r, "translationId"), doc, &t);
	json_decref(doc);
	if (rc)
		return refused_one(p, rc, draft);
	p->location = tr_path(p, t.id, "#instructions");
	return 0;
}
