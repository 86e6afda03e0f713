/*
 * events.h - "a space's content advanced": the one hook the modules that
 * react to new content subscribe to (domain/events.c lists them).
 *
 * DESIGN
 * Whatever makes a revision a space's current one (a change request's merge,
 * a Git import, a template, a translation run) calls dom_space_advance_by
 * (domain/spaces.h). It moves the space, brings the search index along and
 * then publishes one `struct space_advanced` to every subscriber, in the
 * order of the table in events.c, inside the caller's transaction:
 *
 *   change_requests.c  dom_cr_merge ----------+
 *   git_sync.c         import finalize -------+
 *   templates.c        dom_template_apply ----+--> spaces.c dom_space_advance_by
 *   translation_run.c  a run's result --------+      1. store_space_set_revision
 *                                                    2. the search index (index_sync)
 *                                                    3. dom_space_advanced_publish
 *                                                            | (events.c, static table)
 *                                                            v
 *                                     git_sync.c  dom_git_on_space_advanced
 *                                       (merge: enqueue the Git export)
 *                                     translations.c  dom_translation_on_space_advanced
 *                                       (merge, import: queue a re-run)
 *                                     integration_events.c: record events
 *
 * Rules for a subscriber:
 *  - It runs in the transaction that moved the space: what it writes (a job
 *    row, a link's state) commits or rolls back with the new revision, and a
 *    non-zero return fails the whole operation (the caller's error, passed up
 *    unchanged). So it does no network or disk-heavy work: it enqueues a job.
 *  - It reads `ev`, never changes it, and decides from ev->cause whether the
 *    advance concerns it.
 *  - It does not advance a space itself (a loop: the hook would fire again).
 *
 * Include graph: this header needs only domain.h. spaces.c and the modules
 * that define a subscriber include it; events.c includes nothing of the
 * subscribers' modules but this header, which declares each subscriber: so
 * the modules that advance a space (change_requests, git_sync, templates,
 * translation_run) never include each other to notify one another.
 */
#ifndef DOCSD_DOMAIN_EVENTS_H
#define DOCSD_DOMAIN_EVENTS_H

#include "domain/domain.h"

/* Why a space's content advanced. */
enum space_advance_cause {
	SPACE_ADVANCED_BY_EDITS,       /* content written straight into the space */
	SPACE_ADVANCED_BY_MERGE,       /* a change request merged (dom_cr_merge) */
	SPACE_ADVANCED_BY_IMPORT,      /* a Git import applied (domain/git_sync.c) */
	SPACE_ADVANCED_BY_TEMPLATE,    /* a template applied (domain/templates.c) */
	SPACE_ADVANCED_BY_TRANSLATION, /* a translation run's result (domain/translation_run.c) */
};

/* The event. Everything it points to belongs to the publisher and lives as
 * long as the call. */
struct space_advanced {
	const struct space *space;         /* as read before the advance (locked) */
	const char *old_revision;          /* space->revision: the revision it left */
	const struct revision *revision;   /* its current revision now */
	enum space_advance_cause cause;
	const struct change_request *cr;   /* SPACE_ADVANCED_BY_MERGE: the change request
					    * merged (status merged); NULL otherwise */
};

typedef int (*space_advanced_fn)(struct dom *d, const struct space_advanced *ev);

/* Call every subscriber with ev, in the table's order; the first non-zero
 * return stops and is returned. Called by dom_space_advance_by only. */
int dom_space_advanced_publish(struct dom *d, const struct space_advanced *ev);

/* ---- the subscribers (each defined in its own module) ---- */

/* domain/git_sync.c: after a merge into a space linked to a Git repository,
 * enqueue an export of the new content with the message
 * "GITBOOK-{number}: {subject}". */
int dom_git_on_space_advanced(struct dom *d, const struct space_advanced *ev);

/* domain/translations.c: after a merge or a Git import into a space, queue
 * a run of each translation whose source it is (at most one queued run per
 * translation: a run already waiting is that run). */
int dom_translation_on_space_advanced(struct dom *d, const struct space_advanced *ev);

/* domain/site_redirects.c: remember the old path of every page the new
 * revision renamed or moved, so published sites answer it with a 301. */
int dom_redirects_on_space_advanced(struct dom *d, const struct space_advanced *ev);

/* domain/integration_events.c: after a merge or a Git import, record
 * space_content_updated for every integration installed on the space. */
int dom_integrations_on_space_advanced(struct dom *d, const struct space_advanced *ev);

#endif
