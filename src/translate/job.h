/*
 * job.h - the translation run, the work of a job of the durable queue
 * (kind JOB_KIND_TRANSLATION, "translation.run"; subject the translation's
 * id; queued by dom_translation_run; its worker is jobs/translation.c).
 */
#ifndef DOCSD_TRANSLATE_JOB_H
#define DOCSD_TRANSLATE_JOB_H

struct dom;
struct dom_job;

/* One run, in transactions of its own on run->store (d->tx is NULL: the
 * engine runs for seconds and must not hold the writer). */
int tr_job_run(struct dom *d, struct dom_job *run);

#endif
