/*
 * events.c - the subscribers of "a space's content advanced" (events.h draws
 * the flow and states the rules a subscriber follows).
 *
 * The table is constant and the one place that says who reacts to new
 * content: a module subscribes by declaring its function in events.h and
 * adding a row here, and the modules that advance a space do not change.
 * Rows run in order; the order is part of the behaviour (what a later
 * subscriber sees written by an earlier one in the same transaction).
 */
#include "domain/events.h"

static const space_advanced_fn space_advanced_subscribers[] = {
	/* Git sync: a merge into a linked space queues its export. */
	dom_git_on_space_advanced,
	/* Published sites: old paths of renamed and moved pages (301s). */
	dom_redirects_on_space_advanced,
	/* Translations: a merge or a Git import into a source space queues a
	 * run of each of its translations (coalesced: one queued run each). */
	dom_translation_on_space_advanced,
	/* Integrations: a merge or a Git import records space_content_updated
	 * for each installation on ev->space, delivered as a job. */
	dom_integrations_on_space_advanced,
	NULL,
};

int dom_space_advanced_publish(struct dom *d, const struct space_advanced *ev)
{
	int rc;

	for (const space_advanced_fn *fn = space_advanced_subscribers; *fn; fn++)
		if ((rc = (*fn)(d, ev)))
			return rc;
	return 0;
}
