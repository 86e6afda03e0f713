/*
 * translation.c - the worker of translation.run (dom_translation_job_run in
 * domain/translations.h does the work: plan, run the engine with no
 * transaction held, apply).
 */
#include "jobs/workers.h"
#include "domain/translations.h"

int job_translation_run(struct dom *d, struct job_run *run)
{
	struct dom_job dj = job_dom_in(run);

	return job_dom_out(run, &dj, dom_translation_job_run(d, &dj));
}
