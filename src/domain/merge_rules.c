/*
 * merge_rules.c - the merge rules of a change request's merge
 * (domain/merge_rules.h).
 */
#include "domain/merge_rules.h"
#include "model/merge_rules.h"
#include "model/model.h"
#include "util/err.h"
#include "util/util.h"

#include <string.h>

int dom_merge_rules_check(struct dom *d, const struct space *s, const struct change_request *cr)
{
	struct org o;
	struct cr_review *reviews;
	struct mr_review *facts_reviews;
	struct mr_facts f = { 0 };
	struct mr_outcome out;
	const char *config;
	int n, rc;

	if ((rc = store_org_get(d->tx, s->org_id, &o)))
		return rc;
	config = merge_rules_effective(s->merge_rules, o.merge_rules);
	if (!merge_rules_active(config)) /* none: nothing to read */
		return 0;
	if ((rc = store_reviews_current(d->tx, cr->id, &reviews, &n)))
		return rc;
	facts_reviews = arena_alloc(d->arena, sizeof(*facts_reviews) * (size_t)(n ? n : 1));
	for (int i = 0; i < n; i++)
		facts_reviews[i] = (struct mr_review){ reviews[i].reviewer.id, reviews[i].status, reviews[i].outdated };
	f.actor_id = d->actor.user_id;
	f.subject = cr->subject;
	f.description = cr->description;
	f.up_to_date = strcmp(change_request_base(cr), s->revision) == 0;
	f.reviews = facts_reviews;
	f.nreviews = n;
	if ((rc = merge_rules_eval(d->arena, config, &f, &out)))
		return rc;
	if (out.bypassed)
		return 0;
	if (out.nunsupported)
		return err_set(ERR_INVALID, "merge rules not supported by this server: %s", out.unsupported);
	if (out.nunmet)
		return err_set(ERR_CONFLICT, "merge blocked by merge rules: %s", out.unmet);
	return 0;
}
