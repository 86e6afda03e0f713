/*
 * translations.h - translations of spaces (GitBook's Translations: create,
 * list, get, update the instructions, delete, run) and the two halves of a
 * run, and the run itself (domain/translation_run.c: dom_translation_job_run,
 * the work of the job; translate/ only holds the engines).
 *
 * Access: a translation is visible to whoever reads its source space (else
 * 404, as for one that does not exist); creating, changing, running and
 * deleting one need the create role in the organization as well
 * (permissions.edit), since a run creates a space there. docsd itself (jobs)
 * may do everything.
 *
 * A run (states in model/translation.h):
 *   dom_translation_run      queues the job "translation.run" (subject: the
 *                            translation's id), deduplicated while queued;
 *   dom_translation_plan     (any transaction) what the run has to do: the
 *                            source's pages, which of them changed since the
 *                            last run (their key: type, title, description,
 *                            body, link), the rest taken from the last result;
 *   -- the job translates the changed pages, with no transaction held --
 *   dom_translation_apply    (one write transaction) the result space (made
 *                            by the first run, in the source's organization
 *                            and collection), a revision of it holding every
 *                            page (none when nothing differs from its current
 *                            content), the page keys, the stats, `completed`,
 *                            and applied_run = the job: a job that runs again
 *                            after this commit (its process died before the
 *                            job was marked done) finds its result written and
 *                            writes nothing. A result that moved since the plan
 *                            (another run) is ERR_CONFLICT: the job is retried.
 * Page ids, slugs and positions are the source's, so links between pages
 * keep working and the next run updates the same pages.
 */
#ifndef DOCSD_DOMAIN_TRANSLATIONS_H
#define DOCSD_DOMAIN_TRANSLATIONS_H

#include <jansson.h>
#include <stdbool.h>

#include "model/revision.h"
#include "model/translation.h"
#include "domain/domain.h"
#include "store/translations.h"

#define JOB_KIND_TRANSLATION "translation.run"
/* instructions, as compact JSON, at most this many bytes. */
#define TRANSLATION_INSTRUCTIONS_MAX 65536

struct translation_input {
	const char *source_space;
	const char *source_language; /* GitBook's TranslationLanguage (checked by the handler) */
	const char *language;
	json_t *instructions;        /* a JSONDocument; NULL: an empty one */
};

int dom_translation_create(struct dom *d, const char *org_id, const struct translation_input *in,
			   struct translation *out);
int dom_translation_get(struct dom *d, const char *org_id, const char *id, struct translation *out);
/* The organization's translations the actor sees, oldest first. */
int dom_translations_list(struct dom *d, const char *org_id, const struct list_req *lr, struct translation **items,
			  int *n, char **next);
int dom_translation_update(struct dom *d, const char *org_id, const char *id, json_t *instructions,
			   struct translation *out);
/* 0 also when there is no such translation (*removed false). */
int dom_translation_delete(struct dom *d, const char *org_id, const char *id, bool *removed);
/* Queue a run (runTranslation). 412 when the source space is deleted. */
int dom_translation_run(struct dom *d, const char *org_id, const char *id);

/* ---- a run (domain/translation_run.c) ---- */

/* A page of the source and what the result gets for it. Strings live in the
 * run's arena, not in a transaction's revisions. */
struct tr_run_page {
	struct rev_page page;    /* the source page */
	const char *key;         /* its key (what is translated of it, hashed) */
	bool translate;          /* changed since the last run, or never translated */
	bool known;              /* a run translated this page before */
	const char *markdown;    /* the body to translate (a document's) */
	/* The result page's text: from the last result for a page that did not
	 * change (body_hash), from the engine for one that did (body_md). NULL
	 * title or description: the source's. */
	const char *title, *description;
	const char *body_hash;
	const char *body_md;
	int64_t updated_at;      /* of the last result's page, when reused */
};

/* The glossary of a translation's instructions (GitBook's behaviour): a
 * table anywhere in the document whose first two columns are source term |
 * translated term, one row a term: GitBook's own table block (data.view.
 * columns, data.records by orderIndex, text cells in its fragments; the
 * column titles are the header) or rows of cells (a first row reading
 * "source", "term" or "original" is a header). The plan swaps each source term in the text sent to the
 * engine (segments only: code, links and markup are never touched) for a
 * token the engines pass through unchanged ("zqg<i>z", a word no
 * dictionary knows), longest term first, whole words, case as written; the
 * result gets the translated term in place of each token. */
struct tr_glossary {
	const char **from, **to;
	int n;
};
/* From instructions (compact JSON text); n 0 when it has no such table. */
void tr_glossary_parse(struct arena *a, const char *instructions, struct tr_glossary *out);
/* text with the glossary's source terms swapped for tokens (text itself when none). */
const char *tr_glossary_protect(struct arena *a, const struct tr_glossary *g, const char *text);
/* text with the tokens swapped for the translated terms (any case of the
 * token: an engine may change it). */
const char *tr_glossary_restore(struct arena *a, const struct tr_glossary *g, const char *text);

struct tr_run {
	struct translation t;    /* as the plan read it */
	struct tr_glossary glossary; /* from t.instructions */
	const char *job_id;
	bool applied;            /* this job's result is already written: nothing to do */
	const char *source_revision;
	struct tr_run_page *pages;
	int npages;
	struct rev_file *files;  /* the source's files, kept as they are */
	int nfiles;
};

/* ERR_NOT_FOUND when the translation is gone (deleted: nothing to run);
 * ERR_PRECONDITION when its source space is deleted. */
int dom_translation_plan(struct dom *d, const char *id, const char *job_id, struct tr_run *out);
/* words: the words sent to the engine; duration_s: the run's. */
int dom_translation_apply(struct dom *d, const struct tr_run *run, int64_t words, int64_t duration_s);

/* One run (kind JOB_KIND_TRANSLATION, "translation.run"; subject the
 * translation's id; queued by dom_translation_run; its worker is
 * jobs/translation.c), in transactions of its own on run->store (d->tx is
 * NULL: the engine runs for seconds and must not hold the writer). */
struct dom_job;
int dom_translation_job_run(struct dom *d, struct dom_job *run);

#endif
