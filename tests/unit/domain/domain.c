/*
 * The content domain in process, without sockets: change requests, content
 * batches, merges and updates, links, and who may do which, on SQLite and
 * on PostgreSQL (DOCSD_TEST_PG_URL).
 */
#include "domain/content.h"
#include "fixtures.h"
#include "unit.h"
#include "util/err.h"
#include "util/util.h"

#include <jansson.h>
#include <stdlib.h>
#include <unistd.h>

struct world {
	struct store *s;
	struct arena a;
	struct store_tx tx;
	struct dom d;
	struct org org;
	struct user admin, editor, commenter, reviewer, outsider;
	struct space space;
};

/* Begin a write transaction acting as user (NULL: docsd itself). */
static void as(struct world *w, const struct user *u)
{
	fx_as(&w->d, NULL, w->s, &w->tx, &w->a, u);
}

static json_t *insert_page(const char *title, const char *markdown)
{
	return json_pack("[{s:s, s:s, s:{s:s}}]", "operation", "insert_page", "title", title, "document", "markdown",
			 markdown);
}

/* A change request by `u` with one new page; returns its id. */
static const char *cr_with_page(struct world *w, const struct user *u, const char *title, const char *md)
{
	struct cr_new in = { .subject = title };
	struct change_request cr;
	struct content_outcome out;
	struct space s;
	json_t *changes = insert_page(title, md);
	const char *id = NULL;

	as(w, u);
	CHECK(dom_cr_create(&w->d, w->space.id, &in, &s, &cr) == 0);
	CHECK(dom_cr_content(&w->d, w->space.id, cr.id, changes, &s, &cr, &out) == 0);
	CHECK(out.n == 1 && strcmp(out.items[0].kind, "created_page") == 0);
	id = arena_strdup(&w->a, cr.id);
	fx_done(&w->tx, 1);
	json_decref(changes);
	return id;
}

static const struct rev_page *page_titled(const struct revision *rv, const char *title)
{
	for (int i = 0; i < rv->npages; i++)
		if (strcmp(rv->pages[i].title, title) == 0)
			return &rv->pages[i];
	return NULL;
}

static void domain_suite(struct store *st)
{
	struct world w = { .s = st };
	struct content_src src;
	struct cr_merge_result m;
	struct change_request cr;
	struct space s;
	struct cr_new in = { 0 };
	const char *a, *b, *c, *md;
	json_t *changes;

	arena_init(&w.a);
	as(&w, NULL);
	fx_org(&w.tx, "Domain",
	       (const struct fx_person[]){ { "admin", ROLE_ADMIN, &w.admin }, { "editor", ROLE_EDIT, &w.editor },
					   { "commenter", ROLE_COMMENT, &w.commenter },
					   { "reviewer", ROLE_REVIEW, &w.reviewer },
					   { "outsider", ROLE_NONE, &w.outsider }, { NULL } },
	       &w.org);
	fx_space(&w.tx, &w.org, "Docs", &w.space);
	fx_done(&w.tx, 1);

	/* Access, once per operation: outsiders learn nothing (404), a
	 * commenter may not open a change request (403), an editor may. */
	as(&w, &w.outsider);
	CHECK(dom_cr_create(&w.d, w.space.id, &in, &s, &cr) == ERR_NOT_FOUND);
	fx_done(&w.tx, 0);
	as(&w, &w.commenter);
	CHECK(dom_cr_create(&w.d, w.space.id, &in, &s, &cr) == ERR_FORBIDDEN);
	fx_done(&w.tx, 0);

	/* Content writes: an editor's batch lands in the change request's head
	 * only; a bad batch names the change and writes nothing. */
	a = cr_with_page(&w, &w.editor, "Alpha", "# Alpha\n\nSee [beta](./beta.md) and [gone](/pages/nope).\n");
	as(&w, &w.editor);
	CHECK(dom_content_source(&w.d, w.space.id, a, NULL, ROLE_READ, &src) == 0);
	CHECK(page_titled(src.rv, "Alpha") != NULL);
	CHECK(dom_content_source(&w.d, w.space.id, NULL, NULL, ROLE_READ, &src) == 0);
	CHECK(page_titled(src.rv, "Alpha") == NULL);
	changes = json_pack("[{s:s, s:s}]", "operation", "delete_page", "page", "no-such-page");
	CHECK(dom_cr_content(&w.d, w.space.id, a, changes, &s, &cr, NULL) == ERR_INVALID);
	CHECK(strstr(err_message(), "changes[0]") != NULL);
	json_decref(changes);
	/* Merging needs review: an editor gets 403. */
	CHECK(dom_cr_merge(&w.d, w.space.id, a, &m) == ERR_FORBIDDEN);
	fx_done(&w.tx, 0);

	/* Two change requests on different pages merge one after the other;
	 * the second merges on top of the first (both pages present). */
	b = cr_with_page(&w, &w.editor, "Beta", "# Beta\n\nBack to [alpha](./alpha.md).\n");
	as(&w, &w.reviewer);
	CHECK(dom_cr_merge(&w.d, w.space.id, a, &m) == 0);
	CHECK_STR(m.result, "merge");
	CHECK(dom_cr_merge(&w.d, w.space.id, b, &m) == 0);
	CHECK_STR(m.result, "merge");
	const char *merged = m.revision;
	CHECK(dom_cr_merge(&w.d, w.space.id, b, &m) == ERR_CONFLICT); /* merged: final */
	CHECK(dom_content_source(&w.d, w.space.id, NULL, NULL, ROLE_READ, &src) == 0);
	CHECK(page_titled(src.rv, "Alpha") && page_titled(src.rv, "Beta"));
	CHECK_STR(src.rv->id, merged);
	fx_done(&w.tx, 1);

	/* Links are resolved against the revision read: Alpha -> beta is ok,
	 * /pages/nope is broken. */
	{
		struct link_list l;
		struct list_req lr = { .limit = 100 };
		as(&w, &w.commenter);
		CHECK(dom_links(&w.d, w.space.id, NULL, NULL, NULL, NULL, &lr, &l) == 0);
		CHECK(l.total == 3 && l.broken == 1);
		CHECK(dom_links(&w.d, w.space.id, NULL, NULL, NULL, "broken", &lr, &l) == 0);
		CHECK(l.n == 1 && l.items[0].t.kind == LINK_PAGE && !l.items[0].t.page);
		fx_done(&w.tx, 0);
	}

	/* The same line changed on both sides conflicts, and nothing changes:
	 * the space keeps its revision and the change request stays open. */
	{
		const struct rev_page *alpha;
		struct content_outcome out;
		const char *before;
		as(&w, &w.editor);
		CHECK(dom_content_source(&w.d, w.space.id, NULL, NULL, ROLE_READ, &src) == 0);
		alpha = page_titled(src.rv, "Alpha");
		CHECK(alpha != NULL);
		const char *alpha_id = arena_strdup(&w.a, alpha->id);
		CHECK(dom_cr_create(&w.d, w.space.id, &in, &s, &cr) == 0);
		c = arena_strdup(&w.a, cr.id);
		changes = json_pack("[{s:s, s:s, s:{s:s}}]", "operation", "update_page", "page", alpha_id, "document",
				    "markdown", "# Alpha\n\nOurs.\n");
		CHECK(dom_cr_content(&w.d, w.space.id, c, changes, &s, &cr, &out) == 0);
		json_decref(changes);
		fx_done(&w.tx, 1);
		/* the same line on the space, through another change request */
		as(&w, &w.editor);
		CHECK(dom_cr_create(&w.d, w.space.id, &in, &s, &cr) == 0);
		const char *other = arena_strdup(&w.a, cr.id);
		changes = json_pack("[{s:s, s:s, s:{s:s}}]", "operation", "update_page", "page", alpha_id, "document",
				    "markdown", "# Alpha\n\nTheirs.\n");
		CHECK(dom_cr_content(&w.d, w.space.id, other, changes, &s, &cr, &out) == 0);
		json_decref(changes);
		fx_done(&w.tx, 1);
		as(&w, &w.admin);
		CHECK(dom_cr_merge(&w.d, w.space.id, other, &m) == 0);
		CHECK_STR(m.result, "merge");
		fx_done(&w.tx, 1);
		as(&w, &w.reviewer);
		CHECK(dom_space_get(&w.d, w.space.id, ROLE_READ, &s) == 0);
		before = arena_strdup(&w.a, s.revision);
		CHECK(dom_cr_merge(&w.d, w.space.id, c, &m) == 0);
		CHECK_STR(m.result, "conflicts");
		CHECK(m.nconflicts == 1);
		CHECK_STR(m.conflicts[0].page_id, alpha_id);
		CHECK(dom_cr_update_from_space(&w.d, w.space.id, c, &m) == 0);
		CHECK_STR(m.result, "conflicts");
		fx_done(&w.tx, 1);
		as(&w, &w.reviewer);
		CHECK(dom_cr_get(&w.d, w.space.id, c, &s, &cr) == 0);
		CHECK_STR(s.revision, before);
		CHECK_STR(cr.status, "draft");
		CHECK(dom_content_source(&w.d, w.space.id, NULL, NULL, ROLE_READ, &src) == 0);
		CHECK(store_body_get(&w.tx, page_titled(src.rv, "Alpha")->body, &md) == 0);
		CHECK(strstr(md, "Theirs.") != NULL);
		fx_done(&w.tx, 0);
	}

	/* A locked space takes no content changes, even from an admin. */
	as(&w, &w.admin);
	CHECK(dom_space_get(&w.d, w.space.id, ROLE_READ, &s) == 0);
	s.edit_mode = "locked";
	CHECK(store_space_update(&w.tx, &s) == 0);
	CHECK(dom_cr_create(&w.d, w.space.id, &in, &s, &cr) == ERR_FORBIDDEN);
	CHECK(dom_template_apply(&w.d, w.space.id, "blank", NULL) == ERR_FORBIDDEN);
	fx_done(&w.tx, 0);

	/* docsd itself (jobs, the CLI) acts as an admin: a template applies. */
	as(&w, NULL);
	CHECK(dom_template_apply(&w.d, w.space.id, "nope", NULL) == ERR_INVALID);
	CHECK(dom_template_apply(&w.d, w.space.id, "changelog", NULL) == 0);
	CHECK(dom_content_source(&w.d, w.space.id, NULL, NULL, ROLE_READ, &src) == 0);
	CHECK(page_titled(src.rv, "Alpha") != NULL && src.rv->npages > 2);
	fx_done(&w.tx, 1);
	arena_free(&w.a);
}

UNIT_TEST_ON_ENGINES(domain_content, domain_suite)
