/*
 * integration_events.h - recording GitBook's integration events and
 * building their delivery (domain/integration_events.c).
 *
 * DESIGN
 * An event is a row (store_event_create) and a job of kind
 * INTEGRATION_DELIVER_KIND, written in the transaction of the change that
 * caused it: the event exists iff the change committed. The job
 * (jobs/integration_delivery.c) calls, in order:
 *
 *   dom_delivery_prepare   (write tx: read the event, its integration and
 *                           installation; mint the two API tokens the
 *                           environment carries; build the multipart body)
 *        |                 out->wait when an older event of the same
 *        |                 installation is still pending (in order)
 *        v
 *   POST {target}/v1       (no transaction: the dev tunnel through
 *        |                  util/fetch.c's guarded fetch_post, or workerd
 *        |                  through runtime/runtime.h)
 *        v
 *   dom_delivery_record    (write tx: the attempt's trace lines and the
 *                           event's status: pending while it will be
 *                           retried, success (2xx) or failed)
 *
 * The event's states: pending -> success | failed. It is listed (GET
 * .../events) once it left pending, as GitBook lists processed events.
 *
 * The body is what @gitbook/runtime@0.23.3 reads (src/integrations.ts):
 * multipart/form-data with the part `event` (the Event JSON), `environment`
 * (IntegrationEnvironment: apiEndpoint = the public URL WITHOUT /v1, since
 * GitBook's client appends it; apiTokens {integration, installation};
 * integration; installation; spaceInstallation / siteInstallation where the
 * event is about one; signingSecrets; secrets, opened from their seal) and,
 * for fetch events only, `fetch-body`.
 */
#ifndef DOCSD_DOMAIN_INTEGRATION_EVENTS_H
#define DOCSD_DOMAIN_INTEGRATION_EVENTS_H

#include <stdbool.h>

#include "domain/domain.h"
#include "domain/events.h"
#include "store/integrations.h"

#define INTEGRATION_DELIVER_KIND "integration.deliver"

/* Record an event of integration `it` for installation_id (in org_id) with
 * GitBook's payload: `fields` is the JSON object text of the type's fields
 * beyond eventId, type and installationId (NULL: none). Queues its
 * delivery. */
int dom_event_record(struct dom *d, const struct integration *it, const char *installation_id, const char *org_id,
		     const char *type, const char *fields);
/* The same, delivered no earlier than run_after (clock ms; 0: now). */
int dom_event_record_at(struct dom *d, const struct integration *it, const char *installation_id, const char *org_id,
			const char *type, const char *fields, int64_t run_after);

/* The same for every active installation of the integrations installed on
 * a space (and, space_selection "all", on its organization). */
int dom_event_for_space(struct dom *d, const struct space *s, const char *type, const char *fields);

/* The hooks of other modules (one line each where they happen). */
/* domain/events.c's subscriber: space_content_updated after a merge or a Git import. */
int dom_integrations_on_space_advanced(struct dom *d, const struct space_advanced *ev);
/* domain/spaces.c: a space's visibility changed. */
int dom_integrations_visibility_updated(struct dom *d, const struct space *s, const char *previous,
					const char *visibility);
/* domain/git_sync.c: a Git sync started / completed (state "success" | "failure"). */
int dom_integrations_gitsync(struct dom *d, const struct space *s, bool completed, const char *state,
			     const char *revision_id, const char *commit_id);

/* ---- delivery ---- */
struct delivery {
	const char *event_id;
	const char *integration_id;
	int64_t version;
	const char *url;          /* the dev tunnel's POST URL ({tunnel}/v1), or NULL: the runtime */
	const char *script;       /* the version's script (runtime deliveries) */
	const char *script_key;   /* "<integration id>-<version>" */
	const char *body;         /* multipart/form-data */
	size_t body_len;
	const char *content_type; /* with its boundary */
	int64_t attempts;         /* done before this one */
	bool done;                /* the event is no longer pending: nothing to do */
	bool wait;                /* an older event of its installation is pending: later */
};
int dom_delivery_prepare(struct dom *d, const char *event_id, struct delivery *out);

struct delivery_line {
	const char *level, *message;
	int64_t ts;
};

/* What the integration answered to one POST. */
struct delivery_answer {
	int status;               /* 0: no answer (error says why) */
	const char *body;         /* the answer (into the arena), NUL-terminated */
	size_t body_len;
	const char *content_type; /* NULL when none */
	const char *error;
	bool final;               /* retrying cannot help (a refused address, no runtime) */
	struct delivery_line *lines; /* the script's console lines (workerd) */
	int nlines;
};
/* POST dl's body to its target: the dev tunnel (util/fetch.c's guarded
 * fetch_post: loopback only with --allow-private-network) or the script in
 * workerd (runtime/runtime.h). Network I/O: call it with no transaction
 * open. Never fails: the answer says what happened. */
void dom_delivery_send(const struct server *srv, const struct delivery *dl, struct arena *a,
		       struct delivery_answer *out);

/* The published script of a site installation (what a SiteIntegrationScript
 * URL serves): a fetch_published_script event delivered at once, its answer
 * returned (not recorded). Opens its own transactions on st. 404 unless the
 * installation is active on the site and the integration has
 * site:script:inject. */
int dom_site_script(const struct server *srv, struct store *st, struct arena *a, const char *name,
		    const char *installation_id, const char *site_id, struct delivery_answer *out);
/* Bounds of what events keep (issue 31): an event's trace over all its
 * attempts, lines and bytes of messages; finished events are deleted
 * EVENT_RETENTION_MS after they finished, and an integration keeps at most
 * EVENTS_PER_INTEGRATION of them (dom_events_prune, run by the periodic
 * purge): at most 512 MiB of trace per integration, however chatty. */
#define EVENT_LOG_LINES 1000
#define EVENT_LOG_BYTES (256 * 1024)
#define EVENT_RETENTION_MS (30LL * 24 * 60 * 60 * 1000)
#define EVENTS_PER_INTEGRATION 2000
int dom_events_prune(struct dom *d, int64_t *removed);
/* Record an attempt: its lines, and the event's status ("pending": it will
 * be retried; "success"; "failed"). */
int dom_delivery_record(struct dom *d, const char *event_id, int64_t attempts, const char *status,
			const struct delivery_line *lines, int n);

#endif
