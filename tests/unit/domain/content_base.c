/*
 * dom_cr_content_on_base (domain/content.h): a batch made on a known revision
 * of a change request never silently replaces an edit made after it. On the
 * head: as sent. On an older revision of the change request's line: each
 * update_page document merged line by line with what changed since, or a
 * conflict that writes nothing. Not a revision of the space: ERR_INVALID. On
 * SQLite and on PostgreSQL (DOCSD_TEST_PG_URL).
 */
#include "domain/content.h"
#include "fixtures.h"
#include "unit.h"
#include "util/err.h"

#include <jansson.h>
#include <string.h>

struct world {
	struct store *s;
	struct arena a;
	struct store_tx tx;
	struct dom d;
	struct org org, other;
	struct user admin, editor, stranger;
	struct space space, elsewhere;
	const char *cr, *page;
};

static void as(struct world *w, const struct user *u)
{
	fx_as(&w->d, NULL, w->s, &w->tx, &w->a, u);
}

static json_t *update(const char *page, const char *md)
{
	return json_pack("[{s:s, s:s, s:{s:s}}]", "operation", "update_page", "page", page, "document", "markdown", md);
}

/* The change request's head (its own transaction). */
static const char *head(struct world *w)
{
	struct space s;
	struct change_request cr;
	const char *out;

	as(w, &w->admin);
	CHECK(dom_cr_get(&w->d, w->space.id, w->cr, &s, &cr) == 0);
	out = arena_strdup(&w->a, cr.revision);
	fx_done(&w->tx, 0);
	return out;
}

/* The page's markdown in the change request (its own transaction). */
static const char *body(struct world *w)
{
	struct dom_page dp;
	const char *out;

	as(w, &w->admin);
	CHECK(dom_page_get(&w->d, w->space.id, w->cr, NULL, w->page, NULL, false, true, &dp) == 0);
	out = arena_strdup(&w->a, dp.markdown);
	fx_done(&w->tx, 0);
	return out;
}

/* Save md on base as u: the domain's answer; committed when it is 0. */
static int save(struct world *w, const struct user *u, const char *base, const char *md, struct content_base_outcome *bo)
{
	struct space s;
	struct change_request cr;
	struct content_outcome out;
	json_t *c = update(w->page, md);
	int rc;

	as(w, u);
	rc = dom_cr_content_on_base(&w->d, w->space.id, w->cr, base, c, NULL, false, &s, &cr, &out, bo);
	fx_done(&w->tx, rc == 0);
	json_decref(c);
	return rc;
}

static void base_suite(struct store *st)
{
	static struct content_base_outcome bo; /* large: not on the stack */
	struct world w = { .s = st };
	struct cr_new in = { .subject = "together" };
	struct change_request cr;
	struct content_outcome out;
	struct space s;
	const char *h0, *h1;
	json_t *c;

	arena_init(&w.a);
	as(&w, NULL);
	fx_org(&w.tx, "Base", (const struct fx_person[]){ { "admin", ROLE_ADMIN, &w.admin }, { "editor", ROLE_EDIT, &w.editor }, { NULL } },
	       &w.org);
	fx_space(&w.tx, &w.org, "Docs", &w.space);
	fx_org(&w.tx, "Other", (const struct fx_person[]){ { "stranger", ROLE_ADMIN, &w.stranger }, { NULL } }, &w.other);
	fx_space(&w.tx, &w.other, "Theirs", &w.elsewhere);
	fx_done(&w.tx, 1);

	as(&w, &w.admin);
	CHECK(dom_cr_create(&w.d, w.space.id, &in, &s, &cr) == 0);
	c = json_pack("[{s:s, s:s, s:{s:s}}]", "operation", "insert_page", "title", "Page", "document", "markdown",
		      "a\nb\nc\nd\ne\n");
	CHECK(dom_cr_content(&w.d, w.space.id, cr.id, c, &s, &cr, &out) == 0);
	json_decref(c);
	w.cr = arena_strdup(&w.a, cr.id);
	w.page = arena_strdup(&w.a, out.items[0].page_id);
	fx_done(&w.tx, 1);

	/* On the head: as sent. */
	h0 = head(&w);
	CHECK(save(&w, &w.admin, h0, "A\nb\nc\nd\ne\n", &bo) == 0);
	CHECK(!bo.stale && bo.merged == 0 && bo.nconflicts == 0);
	CHECK_STR(bo.head, h0);
	h1 = head(&w);
	/* On the older head, another line: merged, the other author named. */
	CHECK(save(&w, &w.editor, h0, "a\nb\nc\nd\nE\n", &bo) == 0);
	CHECK(bo.stale && bo.merged == 1 && bo.nconflicts == 0);
	CHECK(bo.nauthors == 1 && strcmp(bo.authors[0], w.admin.display_name) == 0);
	CHECK_STR(body(&w), "A\nb\nc\nd\nE\n");
	/* On the older head, the same line: a conflict with both sides, nothing written. */
	const char *h2 = head(&w);
	CHECK(save(&w, &w.editor, h0, "a2\nb\nc\nd\ne\n", &bo) == ERR_CONFLICT);
	CHECK(bo.nconflicts == 1);
	CHECK_STR(bo.conflicts[0].page_id, w.page);
	CHECK_STR(bo.conflicts[0].theirs, "A\nb\nc\nd\nE\n");
	CHECK_STR(bo.conflicts[0].yours, "a2\nb\nc\nd\ne\n");
	CHECK_STR(bo.conflicts[0].form_md, "a2\nb\nc\nd\ne\n");
	CHECK_STR(bo.head, h2);
	CHECK_STR(head(&w), h2);
	CHECK_STR(body(&w), "A\nb\nc\nd\nE\n");
	/* Resolved on the head the conflict named: as sent. */
	CHECK(save(&w, &w.editor, h2, "A a2\nb\nc\nd\nE\n", &bo) == 0 && !bo.stale);
	CHECK_STR(body(&w), "A a2\nb\nc\nd\nE\n");
	(void)h1;

	/* Not a revision of this space: refused, whatever it looks like. */
	const char *bad[] = { "", "nope", "../../x", "a'b", w.elsewhere.revision, NULL };
	for (int i = 0; bad[i]; i++) {
		CHECK(save(&w, &w.editor, bad[i], "overwritten\n", &bo) == ERR_INVALID);
		CHECK_STR(err_message(), "base: not a revision of this change request");
	}
	/* The space's revision from before the change request: not on its
	 * line (the walk stops at the initial revision, which is the space's
	 * current one here, so use another change request's head). */
	as(&w, &w.admin);
	CHECK(dom_cr_create(&w.d, w.space.id, &in, &s, &cr) == 0);
	c = json_pack("[{s:s, s:s, s:{s:s}}]", "operation", "insert_page", "title", "Other", "document", "markdown", "o\n");
	CHECK(dom_cr_content(&w.d, w.space.id, cr.id, c, &s, &cr, &out) == 0);
	json_decref(c);
	const char *foreign = arena_strdup(&w.a, cr.revision);
	fx_done(&w.tx, 1);
	CHECK(save(&w, &w.editor, foreign, "overwritten\n", &bo) == ERR_CONFLICT);
	CHECK(bo.nconflicts == 1);
	CHECK_STR(body(&w), "A a2\nb\nc\nd\nE\n");
	/* Another organization's member: not found, base or not. */
	CHECK(save(&w, &w.stranger, head(&w), "evil\n", &bo) == ERR_NOT_FOUND);
	/* No base: as sent (GitBook's semantics). */
	CHECK(save(&w, &w.editor, NULL, "plain\n", &bo) == 0);
	CHECK_STR(body(&w), "plain\n");
	arena_free(&w.a);
}

UNIT_TEST_ON_ENGINES(content_base, base_suite)
