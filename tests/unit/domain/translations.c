/*
 * Translations in process, on SQLite and on PostgreSQL, with a fake engine
 * (upper-cases every segment, or fails when told): who may do what, a run
 * through the job queue (jobs_run_one) and its result space, a second run
 * that translates only what changed, a run applied once whatever happens
 * after its commit, a failing engine retried until the last attempt (the
 * translation is pending again, the reason on the job), and a pair that is
 * gone (failed at once).
 */
#include "domain/content.h"
#include "domain/spaces.h"
#include "domain/events.h"
#include "domain/translations.h"
#include "jobs/jobs.h"
#include "translate/engine.h"
#include "fixtures.h"
#include "unit.h"
#include "util/err.h"
#include "util/util.h"

#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>

/* ---- the fake engine ---- */

struct fake {
	int fail;      /* 1: ERR_UNAVAILABLE (retried), 2: ERR_PRECONDITION (the pair is gone) */
	int calls;
	int segments;
};

static int fake_pairs(const struct tr_engine *e, struct arena *a, struct tr_pair **out, int *n)
{
	static struct tr_pair pairs[] = { { "en", "es" }, { "es", "en" } };
	const struct fake *f = e->impl;

	*out = pairs;
	*n = f->fail == 2 ? 0 : 2;
	return 0;
}

static int fake_translate(const struct tr_engine *e, struct arena *a, const char *from, const char *to,
			  const char *const *in, int n, const char ***out)
{
	struct fake *f = e->impl;
	const char **res = arena_alloc(a, sizeof(*res) * (size_t)(n + 1));

	f->calls++;
	if (f->fail == 1)
		return err_set(ERR_UNAVAILABLE, "fake engine crashed");
	if (f->fail == 2)
		return err_set(ERR_PRECONDITION, "no fake pair from %s to %s", from, to);
	for (int i = 0; res && i < n; i++) {
		char *s = arena_strdup(a, in[i]);
		for (char *p = s; p && *p; p++)
			*p = (char)toupper((unsigned char)*p);
		res[i] = s;
	}
	f->segments += n;
	*out = res;
	return res ? 0 : err_set(ERR_INTERNAL, "out of memory");
}

static void fake_free(struct tr_engine *e)
{
}

static const struct tr_engine_ops fake_ops = { "fake", fake_pairs, fake_translate, fake_free };

/* ---- the world ---- */

struct world {
	struct store *s;
	struct server srv;
	struct tr_engine engine;
	struct fake fake;
	struct arena a;
	struct store_tx tx;
	struct dom d;
	struct org org;
	struct user admin, reader, outsider;
	struct space space;
};

static void as(struct world *w, const struct user *u)
{
	fx_as(&w->d, &w->srv, w->s, &w->tx, &w->a, u);
}

static struct translation get(struct world *w, const char *id)
{
	struct translation t = { 0 };

	as(w, &w->admin);
	CHECK(dom_translation_get(&w->d, w->org.id, id, &t) == 0);
	fx_done(&w->tx, 0);
	return t;
}

/* Run every due translation job: how many ran. */
static int run_jobs(struct world *w)
{
	int n = 0, rc;

	while ((rc = jobs_run_one(w->s, &w->srv, "unit-worker", JOB_KIND_TRANSLATION)) == 1)
		n++;
	CHECK(rc == 0);
	return n;
}

static void queue_run(struct world *w, const char *id)
{
	as(w, &w->admin);
	CHECK(dom_translation_run(&w->d, w->org.id, id) == 0);
	fx_done(&w->tx, 1);
}

/* The result space's current revision (read in a transaction left open in w). */
static const struct revision *result(struct world *w, const struct translation *t)
{
	const struct revision *rv = NULL;
	struct space rs;

	as(w, NULL);
	CHECK(store_space_get(&w->tx, t->result_space, &rs) == 0);
	CHECK(store_revision_get(&w->tx, rs.revision, &rv) == 0);
	return rv;
}

static const char *body_of(struct world *w, const struct rev_page *p)
{
	const char *md = NULL;

	CHECK(store_body_get(&w->tx, p->body, &md) == 0);
	return md ? md : "";
}

/* The job of the translation's latest run. */
static struct job last_job(struct world *w, const char *translation_id)
{
	struct translation t = get(w, translation_id);
	struct job j = { 0 };

	as(w, NULL);
	CHECK(t.job_id && store_job_get(&w->tx, t.job_id, &j) == 0);
	fx_done(&w->tx, 0);
	return j;
}

static void translations_suite(struct store *st)
{
	struct world w = { .s = st };
	struct translation t, other, *items;
	struct translation_input in = { 0 };
	const struct revision *rv;
	int64_t offset = 0;
	struct list_req lr = { .limit = 100 };
	int64_t total = 0;
	char *next;
	bool removed;
	int n;

	arena_init(&w.a);
	w.engine = (struct tr_engine){ &fake_ops, &w.fake };
	w.srv.translator = &w.engine;

	as(&w, NULL);
	fx_org(&w.tx, "Translations",
	       (const struct fx_person[]){ { "admin", ROLE_ADMIN, &w.admin }, { "reader", ROLE_READ, &w.reader },
					   { "outsider", ROLE_NONE, &w.outsider }, { NULL } },
	       &w.org);
	fx_space(&w.tx, &w.org, "Handbook", &w.space);
	CHECK(dom_template_apply(&w.d, w.space.id, "api-reference", NULL) == 0);
	fx_done(&w.tx, 1);

	/* Create: the pair must be installed, the languages differ, the
	 * source is a space of the organization; a reader may not. */
	in = (struct translation_input){ w.space.id, "en", "es", NULL };
	as(&w, &w.reader);
	CHECK(dom_translation_create(&w.d, w.org.id, &in, &t) == ERR_FORBIDDEN);
	fx_done(&w.tx, 0);
	as(&w, &w.admin);
	in.language = "fr";
	CHECK(dom_translation_create(&w.d, w.org.id, &in, &t) == ERR_INVALID);
	CHECK(strncmp(err_message(), "language: no fake translation pair or chain", 43) == 0);
	CHECK(strstr(err_message(), "from en to fr is installed; reachable from en: es (en\xe2\x86\x92" "es)") != NULL);
	in.language = "en";
	CHECK(dom_translation_create(&w.d, w.org.id, &in, &t) == ERR_INVALID);
	in = (struct translation_input){ "nosuchspace", "en", "es", NULL };
	CHECK(dom_translation_create(&w.d, w.org.id, &in, &t) == ERR_INVALID);
	in = (struct translation_input){ w.space.id, "en", "es", NULL };
	CHECK(dom_translation_create(&w.d, w.org.id, &in, &t) == 0);
	CHECK_STR(t.status, "pending");
	CHECK_STR(t.instructions, "{\"object\":\"document\",\"data\":{},\"nodes\":[]}");
	CHECK(t.editable && !t.result_space && t.stats.runs == 0);
	t.id = arena_strdup(&w.a, t.id);
	fx_done(&w.tx, 1);

	/* Who sees what: a reader sees it (no edit), an outsider nothing. */
	as(&w, &w.reader);
	CHECK(dom_translation_get(&w.d, w.org.id, t.id, &other) == 0 && !other.editable);
	CHECK(dom_translation_run(&w.d, w.org.id, t.id) == ERR_FORBIDDEN);
	CHECK(dom_translation_delete(&w.d, w.org.id, t.id, &removed) == ERR_FORBIDDEN);
	CHECK(dom_translations_list(&w.d, w.org.id, &lr, &items, &n, &next) == 0 && n == 1);
	fx_done(&w.tx, 0);
	as(&w, &w.outsider);
	CHECK(dom_translation_get(&w.d, w.org.id, t.id, &other) == ERR_NOT_FOUND);
	fx_done(&w.tx, 0);

	/* A run through the queue: every page translated into a new space
	 * beside the source, ids and tree kept, code left alone. */
	queue_run(&w, t.id);
	CHECK_STR(get(&w, t.id).status, "pending");
	CHECK(run_jobs(&w) == 1);
	t = get(&w, t.id);
	CHECK_STR(t.status, "completed");
	CHECK(t.result_space && t.result_revision);
	CHECK(t.stats.runs == 1 && t.stats.latest_pages == 5 && t.stats.total_pages == 5);
	CHECK(t.stats.latest_words > 20 && t.stats.total_words == t.stats.latest_words);
	rv = result(&w, &t);
	CHECK(rv && rv->npages == 5 && strcmp(rv->id, t.result_revision) == 0);
	for (int i = 0; rv && i < rv->npages; i++) {
		const struct rev_page *p = &rv->pages[i];
		if (strcmp(p->slug, "authentication") == 0) {
			CHECK_STR(p->title, "AUTHENTICATION");
			CHECK(strstr(body_of(&w, p), "SEND YOUR TOKEN IN THE `Authorization` HEADER") != NULL);
			CHECK(strstr(body_of(&w, p), "Authorization: Bearer <token>\n") != NULL);
		}
		if (strcmp(p->slug, "users") == 0)
			CHECK(p->parent && revision_page(rv, p->parent) &&
			      strcmp(revision_page(rv, p->parent)->title, "ENDPOINTS") == 0);
	}
	fx_done(&w.tx, 0);
	{
		struct space rs;
		as(&w, NULL);
		CHECK(store_space_get(&w.tx, t.result_space, &rs) == 0);
		CHECK_STR(rs.title, "Handbook (es)");
		CHECK_STR(rs.language, "es");
		CHECK_STR(rs.org_id, w.org.id);
		fx_done(&w.tx, 0);
	}

	/* Nothing changed: no page translated, no new revision. */
	w.fake.segments = 0;
	queue_run(&w, t.id);
	CHECK(run_jobs(&w) == 1);
	other = get(&w, t.id);
	CHECK_STR(other.status, "completed");
	CHECK(other.stats.runs == 2 && other.stats.latest_pages == 0 && other.stats.latest_words == 0);
	CHECK(other.stats.total_pages == 5);
	CHECK_STR(other.result_revision, t.result_revision);
	CHECK(w.fake.segments == 0);

	/* One page changes: only it is translated again. */
	{
		struct space s;
		const struct revision *cur;
		const struct rev_page *auth = NULL;
		struct tree_work tw;
		const struct revision *edited;
		const char *hash;

		as(&w, &w.admin);
		CHECK(dom_space_get_locked(&w.d, w.space.id, ROLE_EDIT, &s) == 0);
		CHECK(store_revision_get(&w.tx, s.revision, &cur) == 0);
		CHECK(tree_work_init(&tw, &w.a, cur, clock_now_ms()) == 0);
		for (int i = 0; i < tw.n; i++)
			if (strcmp(tw.pages[i].slug, "authentication") == 0) {
				CHECK(dom_body_put(&w.tx, "# Authentication\n\nTokens expire after one hour.\n", &hash) == 0);
				tw.pages[i].body = hash;
				auth = &tw.pages[i];
			}
		CHECK(auth != NULL);
		CHECK(dom_write_edits(&w.d, &s, &tw, cur, &edited) == 0 && dom_space_advance(&w.d, &s, edited) == 0);
		fx_done(&w.tx, 1);
	}
	queue_run(&w, t.id);
	CHECK(run_jobs(&w) == 1);
	other = get(&w, t.id);
	CHECK(other.stats.runs == 3 && other.stats.latest_pages == 1 && other.stats.total_pages == 5);
	CHECK(other.stats.latest_words == 7); /* "Authentication" twice, "Tokens expire after one hour." */
	CHECK(strcmp(other.result_revision, t.result_revision) != 0);
	CHECK_STR(other.result_space, t.result_space);
	rv = result(&w, &other);
	for (int i = 0; rv && i < rv->npages; i++)
		if (strcmp(rv->pages[i].slug, "authentication") == 0)
			CHECK(strstr(body_of(&w, &rv->pages[i]), "TOKENS EXPIRE AFTER ONE HOUR.") != NULL);
	fx_done(&w.tx, 0);
	t = other;

	/* Applied once: the same job's plan after its commit finds it written,
	 * and an apply of it writes nothing more. */
	{
		struct tr_run plan;
		struct job j = last_job(&w, t.id);
		CHECK_STR(j.state, "done");
		as(&w, NULL);
		CHECK(dom_translation_plan(&w.d, t.id, j.id, &plan) == 0 && plan.applied);
		fx_done(&w.tx, 0);
		/* A plan made before another run's commit conflicts. */
		as(&w, NULL);
		CHECK(dom_translation_plan(&w.d, t.id, "a-new-job", &plan) == 0 && !plan.applied);
		fx_done(&w.tx, 0);
		plan.t.result_revision = "an-older-result";
		as(&w, NULL);
		CHECK(dom_translation_apply(&w.d, &plan, 0, 1) == ERR_CONFLICT);
		fx_done(&w.tx, 0);
	}

	/* A failing engine: retried with backoff, then the translation is
	 * pending again with the reason on the job (a second translation of the
	 * space, so that its run has pages to translate). */
	in = (struct translation_input){ w.space.id, "en", "es", NULL };
	as(&w, &w.admin);
	CHECK(dom_translation_create(&w.d, w.org.id, &in, &other) == 0);
	other.id = arena_strdup(&w.a, other.id);
	fx_done(&w.tx, 1);
	w.fake.fail = 1;
	queue_run(&w, other.id);
	for (int attempt = 1; attempt <= JOB_MAX_ATTEMPTS; attempt++) {
		struct job j;
		CHECK(run_jobs(&w) == 1);
		j = last_job(&w, other.id);
		CHECK(j.attempts == attempt);
		CHECK(strstr(j.last_error ? j.last_error : "", "fake engine crashed") != NULL);
		CHECK_STR(j.state, attempt < JOB_MAX_ATTEMPTS ? "queued" : "failed");
		CHECK_STR(get(&w, other.id).status, "pending");
		offset += jobs_backoff_ms(attempt) + 1000; /* past the backoff */
		clock_set_offset(offset);
	}
	clock_set_offset(0);
	CHECK(run_jobs(&w) == 0);
	other = get(&w, other.id);
	CHECK(other.stats.runs == 0 && !other.result_space);
	/* ... and runs again once the engine works. */
	w.fake.fail = 0;
	queue_run(&w, other.id);
	CHECK(run_jobs(&w) == 1);
	other = get(&w, other.id);
	CHECK_STR(other.status, "completed");
	CHECK(other.stats.runs == 1 && other.stats.latest_pages == 5);
	/* Each translation has its own result space. */
	CHECK(strcmp(other.result_space, t.result_space) != 0);

	/* A pair that is gone fails at once, even with nothing to translate;
	 * a new run then completes. */
	w.fake.fail = 2;
	queue_run(&w, t.id);
	CHECK(run_jobs(&w) == 1);
	CHECK_STR(last_job(&w, t.id).state, "failed");
	CHECK(last_job(&w, t.id).attempts == 1);
	CHECK(strstr(last_job(&w, t.id).last_error, "es") != NULL);
	CHECK_STR(get(&w, t.id).status, "pending");
	w.fake.fail = 0;
	queue_run(&w, t.id);
	CHECK(run_jobs(&w) == 1);
	CHECK_STR(get(&w, t.id).status, "completed");
	CHECK(get(&w, t.id).stats.runs == 4);

	/* The result space deleted: the next run makes a new one, every page
	 * translated again. */
	{
		struct space rs;
		bool deleted;
		as(&w, NULL);
		CHECK(store_space_get(&w.tx, t.result_space, &rs) == 0);
		CHECK(store_space_delete(&w.tx, &rs, &deleted) == 0 && deleted);
		fx_done(&w.tx, 1);
		queue_run(&w, t.id);
		CHECK(run_jobs(&w) == 1);
		other = get(&w, t.id);
		CHECK_STR(other.status, "completed");
		CHECK(strcmp(other.result_space, t.result_space) != 0);
		CHECK(other.stats.latest_pages == 5 && other.stats.total_pages == 5);
		t = other;
	}

	/* The source space deleted: a run is refused (412), and one already
	 * queued fails for good. */
	{
		struct space src;
		bool deleted;
		char job[ID_LEN + 1];
		as(&w, NULL);
		CHECK(store_space_get(&w.tx, w.space.id, &src) == 0);
		CHECK(store_space_delete(&w.tx, &src, &deleted) == 0 && deleted);
		CHECK(store_job_enqueue(&w.tx, JOB_KIND_TRANSLATION, t.id, NULL, 0, job) == 0);
		CHECK(store_translation_queue_run(&w.tx, t.id, job) == 0);
		fx_done(&w.tx, 1);
		as(&w, &w.admin);
		CHECK(dom_translation_run(&w.d, w.org.id, t.id) == ERR_PRECONDITION);
		in = (struct translation_input){ w.space.id, "en", "es", NULL };
		CHECK(dom_translation_create(&w.d, w.org.id, &in, &other) == ERR_INVALID);
		fx_done(&w.tx, 0);
		CHECK(run_jobs(&w) == 1);
		CHECK_STR(last_job(&w, t.id).state, "failed");
		CHECK_STR(get(&w, t.id).status, "pending");
		as(&w, &w.admin);
		CHECK(dom_space_restore(&w.d, w.space.id, &src) == 0);
		fx_done(&w.tx, 1);
	}

	/* Instructions: a document, or 400. */
	{
		json_error_t e;
		json_t *good = json_loads("{\"object\":\"document\",\"data\":{\"schemaVersion\":1},\"nodes\":[{\"object\":"
					  "\"block\",\"type\":\"paragraph\",\"nodes\":[{\"object\":\"text\",\"leaves\":[{"
					  "\"object\":\"leaf\",\"text\":\"Formal tone\",\"marks\":[]}]}]}]}",
					  0, &e);
		json_t *bad = json_loads("{\"object\":\"document\",\"data\":{},\"nodes\":[{\"object\":\"text\"}]}", 0, &e);
		as(&w, &w.admin);
		CHECK(dom_translation_update(&w.d, w.org.id, t.id, bad, &other) == ERR_INVALID);
		CHECK(strncmp(err_message(), "instructions:", 13) == 0);
		CHECK(dom_translation_update(&w.d, w.org.id, t.id, good, &other) == 0);
		CHECK(strstr(other.instructions, "Formal tone") != NULL);
		fx_done(&w.tx, 1);
		json_decref(good);
		json_decref(bad);
	}

	/* New source content: a merge or an import queues one run of each
	 * translation of the space, coalesced while queued; edits written into
	 * the space and a translation's own result queue none (issue 23). */
	{
		struct space src;
		struct space_advanced ev = { 0 };
		const char **ids;
		int nids = 0;

		run_jobs(&w);
		as(&w, NULL);
		CHECK(store_space_get(&w.tx, w.space.id, &src) == 0);
		CHECK(store_translations_of_source(&w.tx, w.space.id, &ids, &nids) == 0 && nids >= 1);
		ev.space = &src;
		ev.cause = SPACE_ADVANCED_BY_EDITS;
		CHECK(dom_translation_on_space_advanced(&w.d, &ev) == 0);
		ev.cause = SPACE_ADVANCED_BY_TRANSLATION;
		CHECK(dom_translation_on_space_advanced(&w.d, &ev) == 0);
		fx_done(&w.tx, 1);
		CHECK(run_jobs(&w) == 0);
		as(&w, NULL);
		CHECK(store_space_get(&w.tx, w.space.id, &src) == 0);
		ev.space = &src;
		ev.cause = SPACE_ADVANCED_BY_IMPORT;
		CHECK(dom_translation_on_space_advanced(&w.d, &ev) == 0);
		CHECK(dom_translation_on_space_advanced(&w.d, &ev) == 0);
		ev.cause = SPACE_ADVANCED_BY_MERGE;
		CHECK(dom_translation_on_space_advanced(&w.d, &ev) == 0);
		fx_done(&w.tx, 1);
		CHECK(run_jobs(&w) == nids);
	}

	/* List, then delete (twice: the second finds nothing). */
	lr.total = &total;
	as(&w, &w.admin);
	CHECK(dom_translations_list(&w.d, w.org.id, &lr, &items, &n, &next) == 0 && n == 2 && total == 2);
	CHECK(dom_translation_delete(&w.d, w.org.id, t.id, &removed) == 0 && removed);
	CHECK(dom_translation_delete(&w.d, w.org.id, t.id, &removed) == 0 && !removed);
	fx_done(&w.tx, 1);
	/* A run queued for a deleted translation does nothing. */
	as(&w, NULL);
	{
		char id[ID_LEN + 1];
		CHECK(store_job_enqueue(&w.tx, JOB_KIND_TRANSLATION, t.id, NULL, 0, id) == 0);
	}
	fx_done(&w.tx, 1);
	CHECK(run_jobs(&w) == 1);
	arena_free(&w.a);
}

UNIT_TEST_ON_ENGINES(translations, translations_suite)
