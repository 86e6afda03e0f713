/*
 * merge_rules.h - the merge rules enforced when a change request is merged
 * (domain/merge_rules.c; the rules themselves are model/merge_rules.h).
 *
 * dom_merge_rules_check runs inside dom_cr_merge after the space and change
 * request are locked and before anything is written, and in the website
 * import's check before it fetches anything (domain/import.c). A rule docsd
 * cannot evaluate (require_agent_review, custom) answers 400 naming it;
 * unmet rules answer 409 naming each; an allow_bypass rule listing the actor
 * lets the merge through.
 *
 * It reads the change request's current reviews from the store; it sits
 * below both change_requests.c (which merges) and reviews.c (which records
 * reviews), so neither of those includes the other's header for it.
 */
#ifndef DOCSD_DOMAIN_MERGE_RULES_H
#define DOCSD_DOMAIN_MERGE_RULES_H

#include "domain/domain.h"

/* The merge rules in force on s (the space's, or its organization's on
 * inherit), evaluated for the actor merging cr. 0 when the merge may go on. */
int dom_merge_rules_check(struct dom *d, const struct space *s, const struct change_request *cr);

#endif
