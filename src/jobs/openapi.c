/*
 * openapi.c - the worker of openapi.process (domain/openapi.h does the
 * work: fetch and check a spec's source, record a version).
 */
#include "domain/openapi.h"
#include "jobs/workers.h"

int job_openapi_process(struct dom *d, struct job_run *run)
{
	struct dom_job dj = job_dom_in(run);

	return job_dom_out(run, &dj, dom_openapi_job_process(d, &dj));
}
