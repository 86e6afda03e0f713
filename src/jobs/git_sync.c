/*
 * git_sync.c - the workers of git.import and git.export (domain/git_sync.h
 * does the work: fetch, layout, finalize, in transactions of its own).
 */
#include "domain/git_sync.h"
#include "jobs/workers.h"

int job_git_import(struct dom *d, struct job_run *run)
{
	struct dom_job dj = job_dom_in(run);

	return job_dom_out(run, &dj, dom_git_job_run(d, &dj, GIT_IMPORT));
}

int job_git_export(struct dom *d, struct job_run *run)
{
	struct dom_job dj = job_dom_in(run);

	return job_dom_out(run, &dj, dom_git_job_run(d, &dj, GIT_EXPORT));
}
