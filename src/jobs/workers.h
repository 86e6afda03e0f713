/*
 * workers.h - the workers of the kinds in job_kinds[] (kinds.c), one file
 * each under src/jobs/, and the adapter from the queue's struct job_run to
 * the struct dom_job (domain/job.h) the modules doing the work take.
 */
#ifndef DOCSD_JOBS_WORKERS_H
#define DOCSD_JOBS_WORKERS_H

#include "domain/job.h"
#include "jobs/jobs.h"

int job_purge(struct dom *d, struct job_run *run);           /* purge.c */
int job_gc(struct dom *d, struct job_run *run);              /* gc.c */
int job_git_import(struct dom *d, struct job_run *run);      /* git_sync.c */
int job_git_export(struct dom *d, struct job_run *run);      /* git_sync.c */
int job_openapi_process(struct dom *d, struct job_run *run); /* openapi.c */
int job_translation_run(struct dom *d, struct job_run *run); /* translation.c */
int job_test_sleep(struct dom *d, struct job_run *run);      /* test_sleep.c */
int job_integration_deliver(struct dom *d, struct job_run *run); /* integration_delivery.c */

/* The domain's view of a claimed job. */
static inline struct dom_job job_dom_in(const struct job_run *run)
{
	return (struct dom_job){ .job = run->job, .store = run->store };
}

/* What the domain function set, back into the run; returns rc. */
static inline int job_dom_out(struct job_run *run, const struct dom_job *dj, int rc)
{
	run->result = dj->result;
	run->defer_ms = dj->defer_ms;
	return rc;
}

#endif
