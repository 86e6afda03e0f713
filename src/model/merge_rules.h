/*
 * merge_rules.h - which merge rules a change request fails (pure).
 *
 * GitBook's MergeRulesSpaceConfiguration ({type: inherit | none | rules,
 * rules: [MergeRule]}) is stored as JSON text on the space and on its
 * organization (already validated when written). A space's `inherit` takes
 * the organization's configuration; `none` disables every rule. All rules of
 * the configuration must pass; an `allow_bypass` rule listing the actor lets
 * the merge through whatever the others say (GitBook: "a bypass rule that
 * evaluates to true allows the merge even if other rules fail").
 *
 * Reviews count only while current: a review is outdated once the change
 * request's head moved past the revision it was made against, or once the
 * same reviewer submitted a newer one (or was requested again).
 */
#ifndef DOCSD_MODEL_MERGE_RULES_H
#define DOCSD_MODEL_MERGE_RULES_H

#include <stdbool.h>

#include <stdint.h>

#include "model/model.h"
#include "util/arena.h"

/* A review of a change request (ChangeRequestReview; store/reviews.h). */
struct cr_review {
	const char *id;
	const char *change_request_id;
	struct user reviewer;
	struct user requested_by; /* id NULL when the review was not requested */
	const char *status;       /* approved | changes-requested */
	const char *revision;     /* the head it was made against */
	bool outdated;            /* head moved on, or superseded by the reviewer */
	const char *comment_id;   /* the comment posted with it, or NULL */
	int64_t position;         /* order in the change request (1, 2, ...) */
	int64_t created_at;
	int64_t updated_at;
};

/* A reviewer requested on a change request (ChangeRequestRequestedReviewer, kind user). */
struct cr_requested_reviewer {
	struct user user;
	struct user requested_by;
	const char *revision; /* the head when requested */
	int64_t position;     /* order in the change request (1, 2, ...) */
	int64_t created_at;
};

struct mr_review {
	const char *reviewer_id;
	const char *status; /* approved | changes-requested */
	bool outdated;
};

/* The facts of one merge attempt. */
struct mr_facts {
	const char *actor_id;    /* who merges (NULL: docsd itself) */
	const char *subject;     /* NULL or "" : none */
	const char *description; /* the JSONDocument text; NULL, "" or a document without text: none */
	bool up_to_date;         /* the change request's base is the space's revision */
	const struct mr_review *reviews;
	int nreviews;
};

struct mr_outcome {
	bool bypassed;           /* an allow_bypass rule lists the actor */
	int nunmet;              /* rules that failed */
	int nunsupported;        /* rules docsd cannot evaluate (require_agent_review, custom) */
	const char *unmet;       /* "rule (why); rule (why)", or NULL */
	const char *unsupported; /* "rule, rule", or NULL */
};

/* The configuration in force: the space's, or the organization's when the
 * space's type is inherit (or absent). NULL text counts as the default
 * (space: inherit; organization: none). */
const char *merge_rules_effective(const char *space_rules, const char *org_rules);

/* Whether a configuration has rules to evaluate (its type is rules). */
bool merge_rules_active(const char *config);

/* Evaluate the configuration text against f. 0 with *out filled (nothing
 * failed when out->nunmet and out->nunsupported are 0), or ERR_INTERNAL when
 * the stored text is not a configuration (it is validated on write). */
int merge_rules_eval(struct arena *a, const char *config, const struct mr_facts *f, struct mr_outcome *out);

#endif
