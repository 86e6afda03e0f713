/*
 * job.c - one translation run (translate/job.h; the steps and their
 * guarantees are drawn in domain/translations.h).
 *
 *   read transaction    dom_translation_plan: the pages that changed
 *   no transaction      md_tr_parse each page, the engine translates every
 *                       segment of the run (it batches them), md_tr_render
 *   write transaction   dom_translation_apply: the result revision, the page
 *                       keys, the stats and applied_run, together
 *
 * Idempotence (jobs.h's contract for own-transaction handlers): the only
 * effect is the write transaction, keyed by the job's id (applied_run) and
 * guarded by the result it read; a job run again after a crash re-plans and
 * finds its result written, or finds nothing written and writes it once.
 *
 * Failures: a pair that is not installed (any more) is ERR_PRECONDITION,
 * failed at once; an engine that crashed or timed out is ERR_UNAVAILABLE,
 * retried with backoff; either way the job's row keeps the reason and the
 * translation shows pending once the job failed for good. A page whose
 * translation would not keep its markdown structure keeps its source text
 * (logged), rather than failing the run.
 *
 * DOCSD_TEST_TRANSLATE_PAUSE=before-write:MS or after-write:MS (tests only)
 * sleeps MS milliseconds just before the write transaction begins, or just
 * after it committed, after logging "translation <id>: pausing", so that a
 * test can kill the process at either point.
 */
#include "translate/job.h"
#include "format/md_translate.h"
#include "domain/translations.h"
#include "domain/job.h"
#include "store/store.h"
#include "translate/engine.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Where a page's texts sit among the run's segments (-1: none). */
struct page_segs {
	int title, description, body, nbody;
	struct md_tr *md;
};

struct segs {
	const char **v;
	int n, cap;
	int64_t words;
};

static int seg_add(struct arena *a, struct segs *s, const char *text, int *at)
{
	if (s->n == s->cap) {
		int cap = s->cap ? 2 * s->cap : 256;
		const char **grown = arena_alloc(a, sizeof(*grown) * (size_t)cap);
		if (s->n)
			memcpy(grown, s->v, sizeof(*grown) * (size_t)s->n);
		s->v = grown;
		s->cap = cap;
	}
	if (at)
		*at = s->n;
	s->v[s->n++] = text;
	s->words += md_tr_words(text);
	return 0;
}

/* A plain text (title, description) as one segment when worth translating. */
static int plain_add(struct arena *a, struct segs *s, const char *text, int *at)
{
	*at = -1;
	return text && md_tr_translatable(text, strlen(text)) ? seg_add(a, s, text, at) : 0;
}

/* Translate the pages the plan marks; their title, description and body_md
 * are set. *words: the words sent to the engine. */
static int translate_pages(struct arena *a, const struct tr_engine *engine, struct tr_run *run, int64_t *words)
{
	struct page_segs *ps = arena_alloc(a, sizeof(*ps) * (size_t)(run->npages + 1));
	struct segs s = { 0 };
	const char **out = NULL;
	int rc = 0;

	*words = 0;
	memset(ps, 0, sizeof(*ps) * (size_t)(run->npages + 1));
	for (int i = 0; i < run->npages && rc == 0; i++) {
		struct tr_run_page *p = &run->pages[i];

		ps[i].title = ps[i].description = ps[i].body = -1;
		if (!p->translate)
			continue;
		if ((rc = plain_add(a, &s, p->page.title, &ps[i].title)) ||
		    (rc = plain_add(a, &s, p->page.description, &ps[i].description)) || !p->markdown)
			continue;
		if ((rc = md_tr_parse(a, p->markdown, strlen(p->markdown), &ps[i].md)))
			break;
		ps[i].body = s.n;
		ps[i].nbody = md_tr_count(ps[i].md);
		for (int k = 0; k < ps[i].nbody && rc == 0; k++)
			rc = seg_add(a, &s, md_tr_segment(ps[i].md, k), NULL);
	}
	if (rc == 0 && s.n)
		rc = engine->ops->translate(engine, a, run->t.source_language, run->t.language, s.v, s.n, &out);
	for (int i = 0; i < run->npages && rc == 0; i++) {
		struct tr_run_page *p = &run->pages[i];

		if (ps[i].title >= 0)
			p->title = out[ps[i].title];
		if (ps[i].description >= 0)
			p->description = out[ps[i].description];
		if (!ps[i].md)
			continue;
		rc = md_tr_render(ps[i].md, ps[i].nbody ? out + ps[i].body : NULL, (char **)&p->body_md);
		if (rc == ERR_INVALID) {
			log_info("translation %s: page %s keeps its source text: %s", run->t.id, p->page.id, err_message());
			p->body_md = p->markdown;
			rc = 0;
		}
	}
	for (int i = 0; i < run->npages; i++)
		md_tr_free(ps[i].md);
	*words = s.words;
	return rc;
}

/* DOCSD_TEST_TRANSLATE_PAUSE (tests only): pause at `when`. */
static void test_pause(const char *translation_id, const char *when)
{
	const char *v = getenv("DOCSD_TEST_TRANSLATE_PAUSE");
	size_t k = strlen(when);
	long ms;

	if (!v || strncmp(v, when, k) != 0 || v[k] != ':' || (ms = strtol(v + k + 1, NULL, 10)) <= 0 || ms > 600000)
		return;
	log_info("translation %s: pausing %ld ms %s (DOCSD_TEST_TRANSLATE_PAUSE)", translation_id, ms, when);
	nanosleep(&(struct timespec){ ms / 1000, (ms % 1000) * 1000000 }, NULL);
}

int tr_job_run(struct dom *d, struct dom_job *run)
{
	const struct server *srv = d->srv;
	const struct tr_engine *engine = srv ? srv->translator : NULL;
	struct tr_run plan;
	struct store_tx tx;
	struct dom step;
	int64_t start = clock_mono_ns(), words = 0, seconds;
	int rc;

	if (!engine)
		return err_set(ERR_PRECONDITION, "no translation engine is configured");
	if ((rc = store_tx_begin(run->store, &tx, 0, d->arena)))
		return rc;
	dom_init(&step, srv, &tx, d->arena, NULL);
	rc = dom_translation_plan(&step, run->job->subject, run->job->id, &plan);
	store_tx_rollback(&tx);
	if (rc == ERR_NOT_FOUND) {
		run->result = "{\"skipped\":\"the translation no longer exists\"}";
		return 0;
	}
	if (rc)
		return rc;
	if (plan.applied) {
		run->result = "{\"skipped\":\"already applied\"}";
		return 0;
	}
	/* The pair must still be there, even when no page changed: a run on a
	 * machine that lost it says so (for good) rather than "completed". */
	if ((rc = tr_engine_check_pair(engine, d->arena, plan.t.source_language, plan.t.language)))
		return rc == ERR_INVALID ? err_set(ERR_PRECONDITION, "%s", arena_strdup(d->arena, err_message())) : rc;
	if ((rc = translate_pages(d->arena, engine, &plan, &words)))
		return rc;
	test_pause(plan.t.id, "before-write");
	/* Whole seconds, rounded up: a run that did anything took some time. */
	seconds = (clock_mono_ns() - start + 999999999) / 1000000000;
	if ((rc = store_tx_begin(run->store, &tx, 1, d->arena)))
		return rc;
	dom_init(&step, srv, &tx, d->arena, NULL);
	if ((rc = dom_translation_apply(&step, &plan, words, seconds)) == 0)
		rc = store_tx_commit(&tx);
	else
		store_tx_rollback(&tx);
	if (rc)
		return rc;
	test_pause(plan.t.id, "after-write");
	run->result = arena_printf(d->arena, "{\"words\":%lld,\"seconds\":%lld}", (long long)words, (long long)seconds);
	return 0;
}
