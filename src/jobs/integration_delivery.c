/*
 * integration_delivery.c - integration.deliver: one integration event to
 * its integration (domain/integration_events.h draws the steps).
 *
 * One job per event, subject the installation. At least once: the event
 * stays pending until an attempt's outcome is recorded, so a process killed
 * mid-delivery delivers it again after the restart (the job's lease
 * passes). In order per installation: the events' jobs share an order key
 * (dom_event_record_at), so the queue claims an event's job only once the
 * previous event's job has finished; the next one is claimable in the
 * transaction that ends the previous one, with no push-back or polling.
 * An event that still finds an older one pending (a job queued before the
 * order keys existed, or one whose job failed outside a delivery) waits,
 * deferred and not counted, as before.
 *
 * An attempt's outcome:
 *   2xx                            -> success
 *   406 (no handler), other 4xx    -> failed, final
 *   5xx, connection error, timeout -> retried with the queue's backoff
 *                                     (jobs.h), failed after the last attempt
 * Each attempt writes its trace lines: where it went and what came back,
 * then the script's console lines (workerd), in the event's trace.logs.
 *
 * Own transactions (the kind's row: own_tx): the POST is network I/O and
 * must not hold the writer; preparing (tokens minted) and recording are
 * short write transactions of their own.
 */
#include "domain/integration_events.h"
#include "jobs/workers.h"
#include "store/jobs.h"
#include "util/err.h"
#include "util/util.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

struct step {
	const struct server *srv;
	struct arena *a;
	const char *event_id;
	struct delivery dl;
	int64_t attempts;
	const char *status;
	struct delivery_line *lines;
	int nlines;
};

static int prepare(struct store_tx *tx, void *arg)
{
	struct step *s = arg;
	struct dom d;

	dom_init(&d, s->srv, tx, s->a, NULL);
	return dom_delivery_prepare(&d, s->event_id, &s->dl);
}

static int record(struct store_tx *tx, void *arg)
{
	struct step *s = arg;
	struct dom d;

	dom_init(&d, s->srv, tx, s->a, NULL);
	return dom_delivery_record(&d, s->event_id, s->attempts, s->status, s->lines, s->nlines);
}

static void line_at(struct step *s, const char *level, const char *message, int64_t ts)
{
	struct delivery_line *l = arena_alloc(s->a, sizeof(*l) * (size_t)(s->nlines + 1));

	if (s->nlines)
		memcpy(l, s->lines, sizeof(*l) * (size_t)s->nlines);
	l[s->nlines] = (struct delivery_line){ level, arena_strdup(s->a, message), ts };
	s->lines = l;
	s->nlines++;
}

static void line(struct step *s, const char *level, const char *message)
{
	line_at(s, level, message, clock_now_ms());
}

int job_integration_deliver(struct dom *d, struct job_run *run)
{
	struct step s = { .srv = d->srv, .a = d->arena };
	json_t *p = json_loads(run->job->payload, 0, NULL);
	const char *id = json_string_value(json_object_get(p, "event"));
	const struct job_kind *k = jobs_kind_find(job_kinds, job_kinds_count, run->job->kind);
	int max = k ? k->max_attempts : JOB_MAX_ATTEMPTS;
	int status = 0, rc;
	bool final = false;
	const char *err = NULL, *where;

	s.event_id = arena_strdup(d->arena, id);
	json_decref(p);
	if (!s.event_id)
		return err_set(ERR_INVALID, "integration.deliver: the payload names no event");
	if ((rc = store_tx_run(run->store, 1, d->arena, prepare, &s))) {
		/* A delivery that cannot even be prepared for good would leave its
		 * event pending, and every later event of the installation waiting
		 * behind it: the event fails, with the reason. */
		bool permanent = rc == ERR_INVALID || rc == ERR_NOT_FOUND || rc == ERR_FORBIDDEN || rc == ERR_PRECONDITION;
		if (permanent || run->job->attempts >= max) {
			s.status = "failed";
			s.attempts = run->job->attempts;
			line(&s, "error", arena_printf(d->arena, "delivery could not be prepared: %s", err_message()));
			if (store_tx_run(run->store, 1, d->arena, record, &s) == 0)
				return 0;
		}
		return rc;
	}
	if (s.dl.done)
		return 0;
	if (s.dl.wait) {
		run->defer_ms = 2000;
		return err_set(ERR_UNAVAILABLE, "an older event of the installation is not delivered yet");
	}
	s.attempts = s.dl.attempts + 1;
	where = s.dl.url ? "the development tunnel" : "the integration's script (workerd)";
	{
		struct delivery_answer ans;
		dom_delivery_send(s.srv, &s.dl, d->arena, &ans);
		status = ans.status;
		err = ans.error;
		final = ans.final;
		for (int i = 0; i < ans.nlines; i++)
			line_at(&s, ans.lines[i].level, ans.lines[i].message, ans.lines[i].ts);
	}

	bool retry = status == 0 || status >= 500;
	bool last = run->job->attempts >= max || final;
	if (status >= 200 && status < 300) {
		s.status = "success";
	} else if (retry && !last) {
		s.status = "pending";
	} else {
		s.status = "failed";
	}
	{
		char msg[768];
		if (status)
			snprintf(msg, sizeof(msg), "delivery attempt %lld to %s: HTTP %d%s", (long long)s.attempts, where,
				 status,
				 status == 406 ? " (the integration has no handler for this event)"
				 : retry && !last ? ", will retry"
						  : "");
		else
			snprintf(msg, sizeof(msg), "delivery attempt %lld to %s failed: %s%s", (long long)s.attempts, where,
				 err ? err : "no answer", retry && !last ? ", will retry" : "");
		/* The attempt's line goes before the script's console lines. */
		struct delivery_line *script_lines = s.lines;
		int nscript = s.nlines;
		s.lines = NULL;
		s.nlines = 0;
		line(&s, strcmp(s.status, "success") == 0 ? "info" : strcmp(s.status, "pending") == 0 ? "warn" : "error",
		     msg);
		for (int i = 0; i < nscript; i++)
			line_at(&s, script_lines[i].level, script_lines[i].message, script_lines[i].ts);
	}
	if ((rc = store_tx_run(run->store, 1, d->arena, record, &s)))
		return rc;
	if (strcmp(s.status, "pending") == 0)
		return err_set(ERR_UNAVAILABLE, "integration event %s: %s", s.event_id, err ? err : "HTTP 5xx");
	return 0;
}
