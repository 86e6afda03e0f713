/*
 * Reviews of change requests in the domain layer (domain/reviews.h), in
 * process on SQLite and PostgreSQL: who may submit a review (review role, not
 * the author), the two statuses, merged and archived change requests refused,
 * reviews going outdated (a new head, a newer review by the same reviewer, the
 * reviewer requested again), requested reviewers (checks, duplicates, the
 * subject and description set with the request, removal), and the merge
 * rules dom_cr_merge enforces, as far as they count reviews.
 *
 * The actors: ada, admin of the organization; rita, with review, who writes
 * change requests; rev and rex, with review; ed, with edit; rod, with read;
 * sam, not a member.
 */
#include "domain/content.h"
#include "domain/reviews.h"
#include "fixtures.h"
#include "unit.h"
#include "util/err.h"
#include "util/util.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

struct world {
	struct store *s;
	struct arena a;
	struct store_tx tx;
	struct dom d;
	struct org org;
	struct user ada, rita, rev, rex, ed, rod, sam;
	struct space space;
};

/* Begin a write transaction acting as user (NULL: docsd itself). */
static struct dom *as(struct world *w, const struct user *u)
{
	return fx_as(&w->d, NULL, w->s, &w->tx, &w->a, u);
}

/* A change request by u with one new page; its id. */
static const char *cr_with_page(struct world *w, const struct user *u, const char *title)
{
	struct cr_new in = { .subject = title };
	struct change_request cr;
	struct space s;
	json_t *changes = json_pack("[{s:s, s:s, s:{s:s}}]", "operation", "insert_page", "title", title, "document",
				    "markdown", "Some text.\n");
	const char *id;

	CHECK(dom_cr_create(as(w, u), w->space.id, &in, &s, &cr) == 0);
	CHECK(dom_cr_content(&w->d, w->space.id, cr.id, changes, &s, &cr, NULL) == 0);
	id = arena_strdup(&w->a, cr.id);
	fx_done(&w->tx, 1);
	json_decref(changes);
	return id;
}

/* Move the change request's head: one more page, by u. Returns the new head. */
static const char *move_head(struct world *w, const struct user *u, const char *cr_id, const char *title)
{
	struct change_request cr;
	struct space s;
	json_t *changes = json_pack("[{s:s, s:s, s:{s:s}}]", "operation", "insert_page", "title", title, "document",
				    "markdown", "More text.\n");
	const char *head;

	CHECK(dom_cr_content(as(w, u), w->space.id, cr_id, changes, &s, &cr, NULL) == 0);
	head = arena_strdup(&w->a, cr.revision);
	fx_done(&w->tx, 1);
	json_decref(changes);
	return head;
}

/* How many reviews of cr_id: outdated -1 all, 0 current, 1 outdated. */
static int nreviews(struct world *w, const char *cr_id, int outdated, struct dom_review **items)
{
	struct list_req lr = { .limit = 100 };
	struct dom_review *it = NULL;
	char *next = NULL;
	int n = -1;

	CHECK(dom_reviews_list(as(w, &w->rod), w->space.id, cr_id, outdated, &lr, COMMENT_MARKDOWN, &it, &n, &next) == 0);
	CHECK(next == NULL);
	fx_done(&w->tx, 0);
	if (items)
		*items = n > 0 ? it : NULL;
	return n;
}

static void set_merge_rules(struct world *w, const char *rules)
{
	struct space s;

	as(w, NULL);
	CHECK(store_space_get(&w->tx, w->space.id, &s) == 0);
	s.merge_rules = rules;
	CHECK(store_space_update(&w->tx, &s) == 0);
	fx_done(&w->tx, 1);
}

/* Submitting: the checks, in the order a caller meets them, and what a review records. */
static void submit(struct world *w)
{
	struct dom_review r, r2;
	struct dom_review *items;
	struct change_request cr;
	struct space s;
	const char *a = cr_with_page(w, &w->rita, "Alpha"), *head;
	char num[32];

	/* the status first: 400 naming it, for anybody */
	CHECK(dom_review_submit(as(w, &w->rev), w->space.id, a, "lgtm", NULL, &s, &cr, &r) == ERR_INVALID);
	CHECK_STR(err_message(), "status: must be approved or changes-requested");
	CHECK(dom_review_submit(&w->d, w->space.id, a, NULL, NULL, &s, &cr, &r) == ERR_INVALID);
	CHECK(dom_review_submit(&w->d, w->space.id, a, "Approved", NULL, &s, &cr, &r) == ERR_INVALID);
	fx_done(&w->tx, 0);
	/* access: outsiders learn nothing; read and edit are below review */
	CHECK(dom_review_submit(as(w, &w->sam), w->space.id, a, "approved", NULL, &s, &cr, &r) == ERR_NOT_FOUND);
	fx_done(&w->tx, 0);
	CHECK(dom_review_submit(as(w, &w->rod), w->space.id, a, "approved", NULL, &s, &cr, &r) == ERR_FORBIDDEN);
	fx_done(&w->tx, 0);
	CHECK(dom_review_submit(as(w, &w->ed), w->space.id, a, "approved", NULL, &s, &cr, &r) == ERR_FORBIDDEN);
	fx_done(&w->tx, 0);
	CHECK(dom_review_submit(as(w, &w->rev), w->space.id, "nosuchcr", "approved", NULL, &s, &cr, &r) == ERR_NOT_FOUND);
	fx_done(&w->tx, 0);
	/* the author, though a reviewer, may not review her own change request */
	CHECK(dom_review_submit(as(w, &w->rita), w->space.id, a, "approved", NULL, &s, &cr, &r) == ERR_FORBIDDEN);
	CHECK_STR(err_message(), "the author of a change request cannot review it");
	fx_done(&w->tx, 0);
	/* docsd itself is no reviewer */
	CHECK(dom_review_submit(as(w, NULL), w->space.id, a, "approved", NULL, &s, &cr, &r) == ERR_INVALID);
	CHECK_STR(err_message(), "a review needs a user as its reviewer");
	fx_done(&w->tx, 0);
	CHECK(nreviews(w, a, -1, NULL) == 0);

	/* approved, with a comment posted on the change request */
	CHECK(dom_review_submit(as(w, &w->rev), w->space.id, a, "approved", "Looks good.", &s, &cr, &r) == 0);
	CHECK_STR(r.r.status, "approved");
	CHECK_STR(r.r.reviewer.id, w->rev.id);
	CHECK_STR(r.r.change_request_id, a);
	CHECK_STR(r.r.revision, cr.revision); /* the head it was made against */
	CHECK(!r.r.outdated && r.r.requested_by.id == NULL && r.r.position == 1);
	CHECK(r.comment != NULL && r.r.comment_id != NULL);
	if (r.comment) {
		CHECK_STR(r.comment->c.markdown, "Looks good.");
		CHECK_STR(r.comment->c.change_request_id, a);
		CHECK_STR(r.comment->c.posted_by.id, w->rev.id);
	}
	head = arena_strdup(&w->a, cr.revision);
	const char *first = arena_strdup(&w->a, r.r.id);
	/* a blank comment is the comment's 400, and no review is written */
	CHECK(dom_review_submit(&w->d, w->space.id, a, "approved", "   ", &s, &cr, &r2) == ERR_INVALID);
	fx_done(&w->tx, 1);
	/* changes-requested, without a comment, by number */
	snprintf(num, sizeof(num), "%lld", (long long)cr.number);
	CHECK(dom_review_submit(as(w, &w->rex), w->space.id, num, "changes-requested", NULL, &s, &cr, &r2) == 0);
	CHECK_STR(r2.r.status, "changes-requested");
	CHECK_STR(r2.r.reviewer.id, w->rex.id);
	CHECK(r2.comment == NULL && r2.r.comment_id == NULL && r2.r.position == 2);
	fx_done(&w->tx, 1);
	CHECK(nreviews(w, a, -1, &items) == 2);
	if (items) {
		CHECK_STR(items[0].r.id, first);
		CHECK(items[0].comment != NULL);
		CHECK_STR(items[1].r.status, "changes-requested");
	}
	CHECK(nreviews(w, a, 0, NULL) == 2 && nreviews(w, a, 1, NULL) == 0);
	/* outsiders do not list them */
	{
		struct list_req lr = { .limit = 100 };
		struct dom_review *it;
		char *next;
		int n;
		CHECK(dom_reviews_list(as(w, &w->sam), w->space.id, a, -1, &lr, COMMENT_MARKDOWN, &it, &n, &next) ==
		      ERR_NOT_FOUND);
		fx_done(&w->tx, 0);
	}

	/* a newer review by the same reviewer outdates the earlier one */
	CHECK(dom_review_submit(as(w, &w->rev), w->space.id, a, "changes-requested", NULL, &s, &cr, &r) == 0);
	fx_done(&w->tx, 1);
	CHECK(nreviews(w, a, -1, NULL) == 3);
	CHECK(nreviews(w, a, 1, &items) == 1);
	if (items) {
		CHECK_STR(items[0].r.id, first);
		CHECK(items[0].r.outdated);
	}
	CHECK(nreviews(w, a, 0, NULL) == 2);

	/* the head moves: every review is outdated; a new one records the new head */
	const char *moved = move_head(w, &w->rita, a, "Beta");
	CHECK(strcmp(moved, head) != 0);
	CHECK(nreviews(w, a, 0, NULL) == 0);
	CHECK(nreviews(w, a, 1, NULL) == 3);
	CHECK(dom_review_submit(as(w, &w->rev), w->space.id, a, "approved", NULL, &s, &cr, &r) == 0);
	CHECK_STR(r.r.revision, moved);
	CHECK(!r.r.outdated);
	fx_done(&w->tx, 1);
	CHECK(nreviews(w, a, 0, &items) == 1);
	if (items)
		CHECK_STR(items[0].r.revision, moved);

	/* archived, then merged: reviews refused with 409 naming the status */
	CHECK(dom_cr_update(as(w, &w->rita), w->space.id, a, &(struct cr_edit){ .status = "archived" }, &s, &cr) == 0);
	fx_done(&w->tx, 1);
	CHECK(dom_review_submit(as(w, &w->rev), w->space.id, a, "approved", NULL, &s, &cr, &r) == ERR_CONFLICT);
	CHECK_STR(err_message(), "the change request is archived: reviewing it is refused");
	fx_done(&w->tx, 0);
	CHECK(dom_cr_update(as(w, &w->rita), w->space.id, a, &(struct cr_edit){ .status = "open" }, &s, &cr) == 0);
	fx_done(&w->tx, 1);
	{
		struct cr_merge_result m;
		CHECK(dom_cr_merge(as(w, &w->rev), w->space.id, a, &m) == 0);
		CHECK_STR(m.result, "merge");
		fx_done(&w->tx, 1);
	}
	CHECK(dom_review_submit(as(w, &w->rex), w->space.id, a, "approved", NULL, &s, &cr, &r) == ERR_CONFLICT);
	CHECK_STR(err_message(), "the change request is merged: reviewing it is refused");
	fx_done(&w->tx, 0);
	{
		const char *users[] = { w->rev.id };
		struct cr_requested_reviewer *out;
		int nout;
		CHECK(dom_reviewers_request(as(w, &w->ed), w->space.id, a, users, 1, NULL, NULL, &out, &nout) ==
		      ERR_CONFLICT);
		CHECK_STR(err_message(), "the change request is merged: requesting reviews is refused");
		fx_done(&w->tx, 0);
	}
	/* the merged change request keeps its reviews, readable */
	CHECK(nreviews(w, a, -1, NULL) == 4);
}

/* Requested reviewers: the checks, duplicates, subject and description, removal. */
static void requested(struct world *w)
{
	const char *b = cr_with_page(w, &w->rita, "Gamma");
	struct cr_requested_reviewer *out, *items;
	struct list_req lr = { .limit = 100 };
	struct change_request cr;
	struct space s;
	struct dom_review r;
	char *next;
	int nout, n;
	bool removed;

	{
		const char *one[] = { w->rev.id };
		const char *many[REVIEWERS_MAX + 1];
		for (int i = 0; i <= REVIEWERS_MAX; i++)
			many[i] = w->rev.id;
		CHECK(dom_reviewers_request(as(w, &w->ed), w->space.id, b, one, 0, NULL, NULL, &out, &nout) == ERR_INVALID);
		CHECK_STR(err_message(), "users: must name 1 to 50 users");
		CHECK(dom_reviewers_request(&w->d, w->space.id, b, many, REVIEWERS_MAX + 1, NULL, NULL, &out, &nout) ==
		      ERR_INVALID);
		CHECK(dom_reviewers_request(&w->d, w->space.id, b, many, REVIEWERS_MAX, NULL, NULL, &out, &nout) == 0);
		CHECK(nout == 1); /* fifty times the same user: one request */
		fx_done(&w->tx, 0);
		/* edit is needed: read is 403, outsiders 404 */
		CHECK(dom_reviewers_request(as(w, &w->rod), w->space.id, b, one, 1, NULL, NULL, &out, &nout) == ERR_FORBIDDEN);
		fx_done(&w->tx, 0);
		CHECK(dom_reviewers_request(as(w, &w->sam), w->space.id, b, one, 1, NULL, NULL, &out, &nout) == ERR_NOT_FOUND);
		fx_done(&w->tx, 0);
	}
	{
		/* the author; a user who cannot read the space; no such user: 400 naming users[i] */
		const char *author[] = { w->rev.id, w->rita.id };
		const char *outsider[] = { w->rev.id, w->sam.id };
		const char *nobody[] = { "nosuchuser" };
		CHECK(dom_reviewers_request(as(w, &w->ed), w->space.id, b, author, 2, NULL, NULL, &out, &nout) ==
		      ERR_INVALID);
		CHECK_STR(err_message(), "users[1]: the author cannot review their own change request");
		CHECK(dom_reviewers_request(&w->d, w->space.id, b, outsider, 2, NULL, NULL, &out, &nout) == ERR_INVALID);
		CHECK(strncmp(err_message(), "users[1]: ", 10) == 0 && strstr(err_message(), "is not a member who can read"));
		CHECK(dom_reviewers_request(&w->d, w->space.id, b, nobody, 1, NULL, NULL, &out, &nout) == ERR_INVALID);
		CHECK_STR(err_message(), "users[0]: 'nosuchuser' is not a member who can read the space");
		/* a bad description: 400 naming it, nothing written */
		json_t *bad = json_pack("{s:s}", "object", "nonsense");
		CHECK(dom_reviewers_request(&w->d, w->space.id, b, author, 1, "S", bad, &out, &nout) == ERR_INVALID);
		CHECK(strstr(err_message(), "description") != NULL);
		json_decref(bad);
		fx_done(&w->tx, 0);
		CHECK(dom_reviewers_list(as(w, &w->rod), w->space.id, b, &lr, &items, &n, &next) == 0 && n == 0);
		fx_done(&w->tx, 0);
	}

	/* rev approves first; then rev and rex are requested (rev twice), with a
	 * new subject and a description */
	CHECK(dom_review_submit(as(w, &w->rev), w->space.id, b, "approved", NULL, &s, &cr, &r) == 0);
	fx_done(&w->tx, 1);
	CHECK(nreviews(w, b, 0, NULL) == 1);
	{
		const char *users[] = { w->rev.id, w->rex.id, w->rev.id };
		json_t *descr = json_loads("{\"object\":\"document\",\"data\":{},\"nodes\":[{\"object\":\"block\",\"type\":"
					   "\"paragraph\",\"nodes\":[{\"object\":\"text\",\"leaves\":[{\"object\":\"leaf\",\"text\":\"Why\",\"marks\":[]}]}]}]}",
					   0, NULL);
		CHECK(descr != NULL);
		CHECK(dom_reviewers_request(as(w, &w->ed), w->space.id, b, users, 3, "Please review", descr, &out, &nout) == 0);
		json_decref(descr);
		CHECK(nout == 2);
		CHECK(dom_cr_get(&w->d, w->space.id, b, &s, &cr) == 0);
		if (nout == 2) {
			CHECK_STR(out[0].user.id, w->rev.id);
			CHECK_STR(out[1].user.id, w->rex.id);
			CHECK_STR(out[0].requested_by.id, w->ed.id);
			CHECK(out[0].position < out[1].position);
			CHECK_STR(out[0].revision, cr.revision);
		}
		CHECK_STR(cr.subject, "Please review");
		CHECK(cr.description && strstr(cr.description, "Why"));
		fx_done(&w->tx, 1);
	}
	/* requested again, rev's approval is outdated */
	CHECK(nreviews(w, b, 0, NULL) == 0);
	CHECK(nreviews(w, b, 1, NULL) == 1);
	/* a review by a requested reviewer records who asked */
	CHECK(dom_review_submit(as(w, &w->rex), w->space.id, b, "approved", NULL, &s, &cr, &r) == 0);
	CHECK_STR(r.r.requested_by.id, w->ed.id);
	fx_done(&w->tx, 1);
	/* JSON null removes the description; the subject stays when not given */
	{
		const char *users[] = { w->rex.id };
		json_t *null = json_null();
		CHECK(dom_reviewers_request(as(w, &w->ed), w->space.id, b, users, 1, NULL, null, &out, &nout) == 0);
		CHECK(dom_cr_get(&w->d, w->space.id, b, &s, &cr) == 0);
		CHECK(cr.description == NULL);
		CHECK_STR(cr.subject, "Please review");
		fx_done(&w->tx, 1);
		json_decref(null);
	}
	CHECK(dom_reviewers_list(as(w, &w->rod), w->space.id, b, &lr, &items, &n, &next) == 0);
	CHECK(n == 2);
	if (n == 2) {
		CHECK_STR(items[0].user.id, w->rev.id);
		CHECK_STR(items[1].user.id, w->rex.id);
	}
	fx_done(&w->tx, 0);
	CHECK(dom_reviewers_list(as(w, &w->sam), w->space.id, b, &lr, &items, &n, &next) == ERR_NOT_FOUND);
	fx_done(&w->tx, 0);

	/* removal: edit; false the second time */
	CHECK(dom_reviewer_remove(as(w, &w->rod), w->space.id, b, w->rex.id, &removed) == ERR_FORBIDDEN);
	fx_done(&w->tx, 0);
	CHECK(dom_reviewer_remove(as(w, &w->ed), w->space.id, b, w->rex.id, &removed) == 0 && removed);
	CHECK(dom_reviewer_remove(&w->d, w->space.id, b, w->rex.id, &removed) == 0 && !removed);
	CHECK(dom_reviewer_remove(&w->d, w->space.id, b, "nosuchuser", &removed) == 0 && !removed);
	CHECK(dom_reviewers_list(&w->d, w->space.id, b, &lr, &items, &n, &next) == 0 && n == 1);
	if (n == 1)
		CHECK_STR(items[0].user.id, w->rev.id);
	fx_done(&w->tx, 1);
}

/* The merge rules dom_cr_merge enforces, as reviews feed them: unmet rules
 * 409 naming each, rules docsd cannot evaluate 400, a bypass lets the
 * listed user through; only current approvals count. */
static void merge_rules(struct world *w)
{
	struct cr_merge_result m;
	struct change_request cr;
	struct space s;
	struct dom_review r;
	const char *c = cr_with_page(w, &w->rita, "Delta");
	char *rules;

	set_merge_rules(w, "{\"type\":\"rules\",\"rules\":[{\"rule\":\"require_at_least_one_review\"}]}");
	CHECK(dom_cr_merge(as(w, &w->rev), w->space.id, c, &m) == ERR_CONFLICT);
	CHECK_STR(err_message(), "merge blocked by merge rules: require_at_least_one_review (no current approval)");
	fx_done(&w->tx, 0);
	/* changes requested is no approval */
	CHECK(dom_review_submit(as(w, &w->rex), w->space.id, c, "changes-requested", NULL, &s, &cr, &r) == 0);
	CHECK(dom_cr_merge(&w->d, w->space.id, c, &m) == ERR_CONFLICT);
	fx_done(&w->tx, 1);
	/* an approval made outdated by a new head does not count */
	CHECK(dom_review_submit(as(w, &w->rev), w->space.id, c, "approved", NULL, &s, &cr, &r) == 0);
	fx_done(&w->tx, 1);
	move_head(w, &w->rita, c, "Epsilon");
	CHECK(dom_cr_merge(as(w, &w->rev), w->space.id, c, &m) == ERR_CONFLICT);
	fx_done(&w->tx, 0);
	/* two rules, both named when both fail */
	set_merge_rules(w, "{\"type\":\"rules\",\"rules\":[{\"rule\":\"require_at_least_one_review\"},"
			   "{\"rule\":\"require_change_request_description\"}]}");
	CHECK(dom_cr_merge(as(w, &w->rev), w->space.id, c, &m) == ERR_CONFLICT);
	CHECK_STR(err_message(), "merge blocked by merge rules: require_at_least_one_review (no current approval); "
				 "require_change_request_description (empty description)");
	fx_done(&w->tx, 0);
	/* a rule docsd cannot evaluate: 400 naming it */
	set_merge_rules(w, "{\"type\":\"rules\",\"rules\":[{\"rule\":\"custom\"}]}");
	CHECK(dom_cr_merge(as(w, &w->rev), w->space.id, c, &m) == ERR_INVALID);
	CHECK_STR(err_message(), "merge rules not supported by this server: custom");
	fx_done(&w->tx, 0);
	/* a bypass listing the merger lets the merge through the other rules */
	rules = arena_printf(&w->a, "{\"type\":\"rules\",\"rules\":[{\"rule\":\"require_at_least_one_review\"},"
				    "{\"rule\":\"allow_bypass\",\"users\":[\"%s\"]}]}", w->ada.id);
	set_merge_rules(w, rules);
	CHECK(dom_cr_merge(as(w, &w->rev), w->space.id, c, &m) == ERR_CONFLICT); /* rev is not listed */
	fx_done(&w->tx, 0);
	/* a current approval passes the rule */
	set_merge_rules(w, "{\"type\":\"rules\",\"rules\":[{\"rule\":\"require_at_least_one_review\"}]}");
	CHECK(dom_review_submit(as(w, &w->rev), w->space.id, c, "approved", NULL, &s, &cr, &r) == 0);
	fx_done(&w->tx, 1);
	/* the bypass: a new change request without reviews, merged by ada */
	const char *e = cr_with_page(w, &w->rita, "Zeta");
	set_merge_rules(w, rules);
	CHECK(dom_cr_merge(as(w, &w->ada), w->space.id, e, &m) == 0);
	CHECK_STR(m.result, "merge");
	fx_done(&w->tx, 1);
	CHECK(dom_cr_merge(as(w, &w->rev), w->space.id, c, &m) == 0);
	CHECK_STR(m.result, "merge");
	fx_done(&w->tx, 1);
	set_merge_rules(w, "{\"type\":\"none\"}");
}

static void reviews_suite(struct store *st)
{
	struct world w = { .s = st };

	arena_init(&w.a);
	as(&w, NULL);
	fx_org(&w.tx, "Reviews",
	       (const struct fx_person[]){ { "ada", ROLE_ADMIN, &w.ada }, { "rita", ROLE_REVIEW, &w.rita },
					   { "rev", ROLE_REVIEW, &w.rev }, { "rex", ROLE_REVIEW, &w.rex },
					   { "ed", ROLE_EDIT, &w.ed }, { "rod", ROLE_READ, &w.rod },
					   { "sam", ROLE_NONE, &w.sam }, { NULL } },
	       &w.org);
	fx_space(&w.tx, &w.org, "Reviewed", &w.space);
	fx_done(&w.tx, 1);

	submit(&w);
	requested(&w);
	merge_rules(&w);
	arena_free(&w.a);
}

UNIT_TEST_ON_ENGINES(domain_reviews, reviews_suite)
