/*
 * job.h - what a domain operation run as a job of the durable queue sees
 * (its worker, under src/jobs/, adapts the queue's struct job_run to it).
 *
 * The domain layer does not include the queue's headers (jobs/jobs.h): the
 * queue calls the domain, never the reverse. A domain function that does a
 * job's work (dom_git_job_run, dom_openapi_job_process, dom_translation_job_run) takes
 * this context; domain code that only queues a job uses store/jobs.h (the
 * rows) in its own transaction. The contract of such a function, whether it
 * ran in the worker's transaction or its own, is jobs/jobs.h's (idempotence,
 * which errors are permanent).
 */
#ifndef DOCSD_DOMAIN_JOB_H
#define DOCSD_DOMAIN_JOB_H

#include <stdint.h>

struct job;
struct store;

struct dom_job {
	const struct job *job; /* the claimed row (store/jobs.h): id, subject, payload */
	/* Work that must not hold the writer opens its own transactions here
	 * (the kind's row says own_tx; the struct dom then has no tx). */
	struct store *store;
	/* Out: JSON text (in the dom's arena) kept in the job's row when done. */
	const char *result;
	/* Out: > 0 with an error return: run again this much later, the attempt
	 * not counted (an older job it must follow is unfinished). */
	int64_t defer_ms;
};

#endif
