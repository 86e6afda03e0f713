/*
 * translation.c - the worker of translation.run (translate/job.h does the
 * work: plan, run the engine with no transaction held, apply).
 */
#include "jobs/workers.h"
#include "translate/job.h"

int job_translation_run(struct dom *d, struct job_run *run)
{
	struct dom_job dj = job_dom_in(run);

	return job_dom_out(run, &dj, tr_job_run(d, &dj));
}
