/*
 * test_sleep.c - test.sleep-then-write, the test-only kind (its row is
 * test_only: it runs only with DOCSD_TEST_JOBS=1).
 */
#include "jobs/workers.h"
#include "domain/domain.h"
#include "store/store.h"
#include "util/alloc.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* test.sleep-then-write (DOCSD_TEST_JOBS=1 only): sleeps the payload's "ms"
 * (default 2000) inside the worker's transaction, then adds 1 to the counter
 * settings["test.sleep-then-write:<subject>"]. In-transaction: the counter
 * and `done` commit together, so a job killed mid-sleep and run again counts
 * 1, never 2. The result is {"count": the counter after this run}. */
int job_test_sleep(struct dom *d, struct job_run *run)
{
	const char *ms = strstr(run->job->payload, "\"ms\":");
	long n = ms ? strtol(ms + 5, NULL, 10) : 2000;
	int64_t count = 0;
	int rc;

	if (n > 0 && n <= 60000)
		usleep((useconds_t)n * 1000);
	rc = store_job_test_mark(d->tx, arena_printf(d->arena, "%s:%s", JOB_KIND_TEST, run->job->subject), &count);
	if (rc == 0)
		run->result = arena_printf(d->arena, "{\"count\":%lld}", (long long)count);
	return rc;
}

