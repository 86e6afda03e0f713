/*
 * kinds.c - the kinds of job docsd runs: one constant row each (jobs.h,
 * struct job_kind), read by jobs.c when it claims and runs a job.
 *
 * To add a kind: write its worker in src/jobs/<kind>.c (a few lines: adapt
 * the struct job_run with job_dom_in / job_dom_out, workers.h, and call the
 * exported function of the module that does the work), declare it in
 * workers.h, and add its row here. The row says how many times the queue
 * tries it (JOB_MAX_ATTEMPTS unless the kind has a reason to differ) and
 * whether it runs in the worker's write transaction (own_tx false: effect
 * and `done` commit together) or opens its own (own_tx true: long work or
 * network I/O, which must not hold the writer; its effects must then be
 * idempotent by themselves). Code that queues the kind names the same kind
 * string (store_job_enqueue); nothing is registered at run time.
 */
#include "jobs/jobs.h"
#include "domain/git_sync.h"
#include "domain/integration_events.h"
#include "domain/openapi.h"
#include "domain/translations.h"
#include "jobs/workers.h"

const struct job_kind job_kinds[] = {
	/* kind                  worker               max attempts      own_tx test_only */
	{ JOB_KIND_PURGE,        job_purge,           JOB_MAX_ATTEMPTS, true,  false },
	{ JOB_KIND_GC,           job_gc,              JOB_MAX_ATTEMPTS, true,  false },
	{ JOB_KIND_GIT_IMPORT,   job_git_import,      JOB_MAX_ATTEMPTS, true,  false },
	{ JOB_KIND_GIT_EXPORT,   job_git_export,      JOB_MAX_ATTEMPTS, true,  false },
	{ JOB_KIND_OPENAPI,      job_openapi_process, JOB_MAX_ATTEMPTS, true,  false },
	{ JOB_KIND_TRANSLATION,  job_translation_run, JOB_MAX_ATTEMPTS, true,  false },
	/* Network I/O (dev tunnel, workerd): own transactions; domain/integration_events.h. */
	{ INTEGRATION_DELIVER_KIND, job_integration_deliver, JOB_MAX_ATTEMPTS, true, false },
	/* In the worker's transaction: a kill mid-sleep must not count twice. */
	{ JOB_KIND_TEST,         job_test_sleep,      JOB_MAX_ATTEMPTS, false, true },
};

const size_t job_kinds_count = sizeof(job_kinds) / sizeof(job_kinds[0]);
