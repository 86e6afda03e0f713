/*
 * test_merge_rules.c - the pure evaluation of merge rules (model/merge_rules.c):
 * the configuration in force (inherit / none / rules), each rule failing and
 * passing, outdated reviews not counting, every unmet rule named, bypass, and
 * the rules docsd cannot evaluate.
 */
#include "model/merge_rules.h"
#include "unit.h"
#include "util/err.h"

#include <string.h>

static const struct mr_review no_reviews[1];

/* Evaluate config against f; returns the outcome (strings live in a static arena). */
static struct mr_outcome eval(const char *config, const struct mr_facts *f)
{
	static struct arena a;
	static int init;
	struct mr_outcome out;

	if (!init) {
		arena_init(&a);
		init = 1;
	}
	CHECK(merge_rules_eval(&a, config, f, &out) == 0);
	return out;
}

static bool passes(const char *config, const struct mr_facts *f)
{
	struct mr_outcome o = eval(config, f);

	return o.bypassed || (o.nunmet == 0 && o.nunsupported == 0);
}

static struct mr_facts base_facts(void)
{
	return (struct mr_facts){ .actor_id = "admin", .subject = "Subject", .description = "Text", .up_to_date = true,
				  .reviews = no_reviews, .nreviews = 0 };
}

UNIT_TEST(merge_rules_effective_configuration)
{
	const char *org = "{\"type\":\"rules\",\"rules\":[{\"rule\":\"require_at_least_one_review\"}]}";
	const char *own = "{\"type\":\"rules\",\"rules\":[]}";

	CHECK_STR(merge_rules_effective("{\"type\":\"inherit\"}", org), org);
	CHECK_STR(merge_rules_effective(NULL, org), org);
	CHECK_STR(merge_rules_effective(own, org), own);
	CHECK_STR(merge_rules_effective("{\"type\":\"none\"}", org), "{\"type\":\"none\"}");
	CHECK_STR(merge_rules_effective("{\"type\":\"inherit\"}", NULL), "{\"type\":\"none\"}");
	CHECK(merge_rules_active(org));
	CHECK(merge_rules_active(own));
	CHECK(!merge_rules_active("{\"type\":\"none\"}"));
	CHECK(!merge_rules_active(NULL));
	CHECK(!merge_rules_active("{"));
}

UNIT_TEST(merge_rules_none_and_empty_pass)
{
	struct mr_facts f = base_facts();

	f.subject = "";
	f.up_to_date = false;
	CHECK(passes("{\"type\":\"none\"}", &f));
	CHECK(passes("{\"type\":\"rules\",\"rules\":[]}", &f));
}

UNIT_TEST(merge_rules_each_rule)
{
	struct mr_review rv[3];
	struct mr_facts f = base_facts();
	const char *one = "{\"type\":\"rules\",\"rules\":[{\"rule\":\"require_at_least_one_review\"}]}";
	const char *all = "{\"type\":\"rules\",\"rules\":[{\"rule\":\"require_all_reviews_approved\"}]}";
	const char *specific =
		"{\"type\":\"rules\",\"rules\":[{\"rule\":\"require_specific_reviewers\",\"users\":[\"bob\",\"carol\"]}]}";
	const char *one_of =
		"{\"type\":\"rules\",\"rules\":[{\"rule\":\"require_one_of_specific_reviewers\",\"users\":[\"carol\",\"erin\"]}]}";
	const char *fresh = "{\"type\":\"rules\",\"rules\":[{\"rule\":\"require_up_to_date_change_request\"}]}";
	const char *subject = "{\"type\":\"rules\",\"rules\":[{\"rule\":\"require_change_request_subject\"}]}";
	const char *descr = "{\"type\":\"rules\",\"rules\":[{\"rule\":\"require_change_request_description\"}]}";

	/* No reviews: at-least-one and specific fail; all-approved holds vacuously. */
	CHECK(!passes(one, &f));
	CHECK(passes(all, &f));
	CHECK(!passes(specific, &f));
	CHECK(!passes(one_of, &f));

	f.reviews = rv;
	rv[0] = (struct mr_review){ "bob", "approved", true }; /* outdated: does not count */
	f.nreviews = 1;
	CHECK(!passes(one, &f));
	rv[0].outdated = false;
	CHECK(passes(one, &f));
	CHECK(!passes(specific, &f));
	CHECK(!passes(one_of, &f));

	rv[1] = (struct mr_review){ "carol", "changes-requested", false };
	f.nreviews = 2;
	CHECK(passes(one, &f));
	CHECK(!passes(all, &f));
	CHECK(!passes(specific, &f));
	rv[1].outdated = true; /* superseded or a new head */
	CHECK(passes(all, &f));
	rv[2] = (struct mr_review){ "carol", "approved", false };
	f.nreviews = 3;
	CHECK(passes(specific, &f));
	CHECK(passes(one_of, &f));

	CHECK(passes(fresh, &f));
	f.up_to_date = false;
	CHECK(!passes(fresh, &f));

	CHECK(passes(subject, &f));
	f.subject = " \t\n";
	CHECK(!passes(subject, &f));
	f.subject = NULL;
	CHECK(!passes(subject, &f));

	CHECK(passes(descr, &f));
	f.description = "";
	CHECK(!passes(descr, &f));
	/* A description is a document: blank unless some text leaf has text. */
	f.description = "{\"object\":\"document\",\"nodes\":[{\"object\":\"block\",\"type\":\"paragraph\","
			"\"nodes\":[{\"object\":\"text\",\"leaves\":[{\"text\":\"  \"}]}]}]}";
	CHECK(!passes(descr, &f));
	f.description = "{\"object\":\"document\",\"nodes\":[{\"object\":\"block\",\"type\":\"paragraph\","
			"\"nodes\":[{\"object\":\"text\",\"leaves\":[{\"text\":\"Why\"}]}]}]}";
	CHECK(passes(descr, &f));
}

UNIT_TEST(merge_rules_names_each_unmet_rule)
{
	struct mr_facts f = base_facts();
	const char *cfg = "{\"type\":\"rules\",\"rules\":[{\"rule\":\"require_at_least_one_review\"},"
			  "{\"rule\":\"require_change_request_subject\"},{\"rule\":\"require_up_to_date_change_request\"},"
			  "{\"rule\":\"require_change_request_description\"},"
			  "{\"rule\":\"require_specific_reviewers\",\"users\":[\"bob\"]},"
			  "{\"rule\":\"require_one_of_specific_reviewers\",\"users\":[\"bob\"]},"
			  "{\"rule\":\"require_all_reviews_approved\"}]}";
	struct mr_outcome o;

	f.subject = "";
	f.description = NULL;
	f.up_to_date = false;
	o = eval(cfg, &f);
	CHECK(!o.bypassed);
	CHECK(o.nunmet == 6);
	CHECK(o.nunsupported == 0);
	CHECK(o.unmet && strstr(o.unmet, "require_at_least_one_review ("));
	CHECK(o.unmet && strstr(o.unmet, "require_change_request_subject ("));
	CHECK(o.unmet && strstr(o.unmet, "require_up_to_date_change_request ("));
	CHECK(o.unmet && strstr(o.unmet, "require_change_request_description ("));
	CHECK(o.unmet && strstr(o.unmet, "require_specific_reviewers ("));
	CHECK(o.unmet && strstr(o.unmet, "require_one_of_specific_reviewers ("));
	CHECK(o.unmet && !strstr(o.unmet, "require_all_reviews_approved"));
	/* The whole list fits an error message (util/err.c keeps 512 bytes). */
	CHECK(o.unmet && strlen(o.unmet) + 40 < 512);
}

UNIT_TEST(merge_rules_bypass)
{
	struct mr_facts f = base_facts();
	const char *cfg = "{\"type\":\"rules\",\"rules\":[{\"rule\":\"require_at_least_one_review\"},"
			  "{\"rule\":\"allow_bypass\",\"users\":[\"bob\"]}]}";
	struct mr_outcome o;

	f.actor_id = "alice";
	o = eval(cfg, &f);
	CHECK(!o.bypassed && o.nunmet == 1);
	f.actor_id = "bob";
	o = eval(cfg, &f);
	CHECK(o.bypassed);
	f.actor_id = NULL; /* docsd itself is not listed */
	o = eval(cfg, &f);
	CHECK(!o.bypassed);
}

UNIT_TEST(merge_rules_unsupported)
{
	struct mr_facts f = base_facts();
	struct mr_outcome o = eval("{\"type\":\"rules\",\"rules\":[{\"rule\":\"require_agent_review\"},"
				   "{\"rule\":\"custom\",\"expression\":\"true\"},"
				   "{\"rule\":\"require_change_request_subject\"}]}",
				   &f);

	CHECK(o.nunsupported == 2);
	CHECK_STR(o.unsupported, "require_agent_review, custom");
	CHECK(o.nunmet == 0);
}

UNIT_TEST(merge_rules_bad_text)
{
	struct arena a;
	struct mr_outcome o;
	struct mr_facts f = base_facts();

	arena_init(&a);
	CHECK(merge_rules_eval(&a, "not json", &f, &o) == ERR_INTERNAL);
	CHECK(merge_rules_eval(&a, NULL, &f, &o) == ERR_INTERNAL);
	arena_free(&a);
}
