/*
 * job.h - the translation run as a job of the durable queue (jobs/jobs.h):
 * kind JOB_KIND_TRANSLATION ("translation.run"), subject the translation's
 * id, queued by dom_translation_run.
 */
#ifndef DOCSD_TRANSLATE_JOB_H
#define DOCSD_TRANSLATE_JOB_H

/* Register the handler (own transactions: the engine runs for seconds and
 * must not hold the writer). Before jobs_start. */
int translation_jobs_register(void);

#endif
