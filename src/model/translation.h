/*
 * translation.h - a translation of a space (GitBook's Translation) and the
 * languages GitBook names (TranslationLanguage).
 *
 * A translation reads its source space in source_language and writes the
 * result, every page translated into `language`, as a revision of its
 * result space (created by the first run). Its status as the API shows it:
 *
 *   created ----> pending --(a run's job is claimed)--> running
 *                   ^  ^                                   |  |
 *                   |  '--(the job fails for good, or  ----'  |
 *                   |      waits to be retried)               | (the result and `completed`
 *      runTranslation                                          |  are written in one
 *                   |                                          v  transaction)
 *                   '-------------------------------------- completed
 *
 * The job's own row decides while a run is queued, running or failed
 * (store/translations.c reads it); the translation's row keeps what its
 * last run left (pending, or completed with the result). GitBook's enum has
 * no failed value: a failed run leaves the translation pending (the reason
 * is on the job and in the log) so that it can be run again.
 */
#ifndef DOCSD_MODEL_TRANSLATION_H
#define DOCSD_MODEL_TRANSLATION_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"

/* GitBook's TranslationLanguage, NULL-terminated (also a space's language). */
extern const char *const translation_languages[];
bool translation_language_valid(const char *code);

/* Stats of the runs (GitBook's Translation.stats; durations in seconds). */
struct translation_stats {
	int64_t runs, total_words, total_pages, total_duration, latest_run_duration, latest_pages, latest_words;
};

struct translation {
	const char *id;
	const char *org_id;
	const char *source_space;
	const char *source_language;
	const char *language;
	const char *instructions;    /* a JSONDocument, compact JSON text */
	const char *status;          /* pending | running | completed: as the API shows it */
	const char *job_id;          /* the latest run's job; NULL before the first run */
	/* That job's state (queued, running, done, failed; NULL once pruned
	 * or before the first run) and its last error (a failed or retried
	 * run: why), for the web interface: GitBook's status has no failed. */
	const char *job_state, *job_error;
	const char *applied_run;     /* the job whose result is written: a run applies once */
	const char *result_space;    /* NULL until a run wrote a result (or when that space is gone) */
	const char *result_revision;
	const char *source_revision; /* the source's revision the result was made from */
	const char *created_by;
	struct translation_stats stats;
	int64_t created_at, updated_at;
	struct space source;         /* the source space's row; source.access is the caller's role on it */
	bool editable;               /* the caller may change, run or delete it (permissions.edit) */
	/* docsd's own field `route` (the domain fills it from the engine):
	 * the engine's name, the chain of languages a run takes (route_n of
	 * them, 0: none reachable now) and a note when pt stands for pt-br. */
	const char *route_engine;
	const char *route[4];
	int route_n;
	const char *route_note;
};

#endif
