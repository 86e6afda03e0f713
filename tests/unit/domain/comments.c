/*
 * The comment and search operations of the domain layer (domain/comments.h),
 * in-process, without sockets: a store on SQLite (a temporary file) and on
 * PostgreSQL (DOCSD_TEST_PG_URL), an organization, users and spaces made
 * through store_* calls, then the domain functions called with a struct dom
 * for each actor, asserting results, error codes and the state that follows.
 *
 * The actors: an organization admin; bob and carol, members with the comment
 * role on the space; dave, a reader; eve, not a member; frank, with create on
 * the space (GitBook's content-level admin); docsd itself (user NULL). Each
 * has an explicit grant on the space, so the cases hold whatever the
 * organization role alone would give.
 */
#include "model/revision.h"
#include "domain/comments.h"
#include "domain/content.h"
#include "unit.h"
#include "util/err.h"
#include "util/util.h"

#include <stdlib.h>
#include <unistd.h>

struct fx {
	struct store *s;
	struct arena a;
	struct store_tx tx;
	struct dom d;
	struct user admin, bob, carol, dave, eve, frank;
	struct org org;
	struct space sp, secret;
	struct change_request cr;
	const char *page_id; /* a page of the change request's head, not of the space's revision */
};

static void new_user(struct fx *f, const char *who, struct user *u)
{
	unit_new_user(&f->tx, who, NULL, u);
}

/* A domain context for u (NULL: docsd itself) on the open transaction; its
 * loaded standing starts empty, as in a new request. */
static struct dom *as(struct fx *f, const struct user *u)
{
	dom_init(&f->d, NULL, &f->tx, &f->a, u ? u->id : NULL);
	return &f->d;
}

static void fx_open(struct fx *f, struct store *s)
{
	struct user *members[] = { &f->bob, &f->carol, &f->dave, &f->frank };
	const enum role org_roles[] = { ROLE_COMMENT, ROLE_COMMENT, ROLE_READ, ROLE_READ };
	const enum role grants[] = { ROLE_COMMENT, ROLE_COMMENT, ROLE_READ, ROLE_CREATE };
	struct rev_page page = { .id = "pg-guide", .type = PAGE_GROUP, .title = "Guide", .slug = "guide", .pos = 1 };
	struct revision_new nr = { 0 };
	const struct revision *rv = NULL;
	bool added;

	memset(f, 0, sizeof(*f));
	f->s = s;
	arena_init(&f->a);
	CHECK(store_tx_begin(s, &f->tx, 1, &f->a) == 0);
	new_user(f, "admin", &f->admin);
	new_user(f, "bob", &f->bob);
	new_user(f, "carol", &f->carol);
	new_user(f, "dave", &f->dave);
	new_user(f, "eve", &f->eve);
	new_user(f, "frank", &f->frank);
	f->org = (struct org){ .title = "Comments", .email_domains = "[]", .default_role = ROLE_READ };
	CHECK(store_org_create(&f->tx, &f->org, f->admin.id) == 0);
	f->sp = (struct space){ .org_id = f->org.id, .title = "Docs", .default_level = LEVEL_INHERIT };
	f->secret = (struct space){ .org_id = f->org.id, .title = "Secret", .default_level = ROLE_GUEST };
	CHECK(store_space_create(&f->tx, &f->sp) == 0);
	CHECK(store_space_create(&f->tx, &f->secret) == 0);
	for (int i = 0; i < 4; i++) {
		CHECK(store_member_add(&f->tx, f->org.id, members[i]->id, org_roles[i], 0, &added) == 0 && added);
		CHECK(store_grant_set(&f->tx, f->org.id, f->sp.id, NULL, GRANT_USER, members[i]->id, grants[i]) == 0);
	}

	/* A change request whose head has a page the space's content lacks. */
	nr.space_id = f->sp.id;
	nr.parent_id = f->sp.revision;
	nr.parents = arena_printf(&f->a, "[\"%s\"]", f->sp.revision);
	nr.type = "edits";
	nr.created_by = f->admin.id;
	nr.pages = &page;
	nr.npages = 1;
	CHECK(store_revision_create(&f->tx, &nr, &rv) == 0 && rv);
	f->page_id = "pg-guide";
	f->cr = (struct change_request){ .space_id = f->sp.id, .status = "open", .subject = "Add a guide" };
	f->cr.created_by.id = f->admin.id;
	f->cr.revision = rv ? arena_strdup(&f->a, rv->id) : NULL; /* rv is released with the transaction */
	f->cr.revision_initial = f->sp.revision;
	CHECK(store_cr_create(&f->tx, &f->cr) == 0);
	CHECK(store_tx_commit(&f->tx) == 0);
}

static void fx_close(struct fx *f)
{
	arena_free(&f->a);
}

static int64_t open_count(struct fx *f, const struct comment_at *at)
{
	struct space s;
	struct change_request cr;

	if (at->cr_key) {
		CHECK(store_cr_get(&f->tx, f->sp.id, f->cr.id, &cr) == 0);
		return cr.comments;
	}
	CHECK(store_space_get(&f->tx, f->sp.id, &s) == 0);
	return s.comments;
}

static bool perms_are(const struct comment_permissions *p, bool view, bool edit, bool reply, bool del)
{
	return p->view == view && p->edit == edit && p->reply == reply && p->del == del;
}

/* Who may post, read, edit, resolve, react and delete, on the space's own
 * comments or a change request's (at). */
static void access_and_state(struct fx *f, const struct comment_at *at)
{
	struct comment_new in = { .markdown = "Please fix the typo" };
	struct comment_edit e = { .resolved = -1 };
	struct dom_comment c, r, got, *items;
	struct list_req lr = { .limit = 100, .desc = 1 };
	struct comment_filter filter = { 0 };
	struct member *members;
	char *next;
	bool removed;
	int n;
	int64_t base;

	CHECK(store_tx_begin(f->s, &f->tx, 1, &f->a) == 0);
	base = open_count(f, at);

	/* posting: comment role; a reader is refused, a non-member does not see the space */
	CHECK(dom_comment_post(as(f, &f->dave), at, &in, &c) == ERR_FORBIDDEN);
	CHECK(dom_comment_post(as(f, &f->eve), at, &in, &c) == ERR_NOT_FOUND);
	CHECK(dom_comment_post(as(f, &f->bob), at, &in, &c) == 0);
	CHECK_STR(c.c.posted_by.id, f->bob.id);
	CHECK_STR(c.c.status, "open");
	CHECK_STR(c.c.markdown, "Please fix the typo");
	CHECK_STR(c.c.revision, at->cr_key ? f->cr.revision : f->sp.revision);
	CHECK(perms_are(&c.view.perms, true, true, true, true));
	CHECK(c.view.format == COMMENT_MARKDOWN && c.view.with_email && c.view.page == NULL);
	CHECK(open_count(f, at) == base + 1);

	/* reading: each actor gets their own permissions; a non-member gets 404 */
	CHECK(dom_comment_get(as(f, &f->dave), at, c.c.id, NULL, COMMENT_DOCUMENT, &got) == 0);
	CHECK_STR(got.c.id, c.c.id);
	CHECK(got.view.format == COMMENT_DOCUMENT);
	CHECK(perms_are(&got.view.perms, true, false, false, false));
	CHECK(dom_comment_get(as(f, &f->carol), at, c.c.id, NULL, COMMENT_MARKDOWN, &got) == 0);
	CHECK(perms_are(&got.view.perms, true, false, true, false));
	CHECK(dom_comment_get(as(f, &f->frank), at, c.c.id, NULL, COMMENT_MARKDOWN, &got) == 0);
	CHECK(perms_are(&got.view.perms, true, false, true, true));
	CHECK(dom_comment_get(as(f, &f->admin), at, c.c.id, NULL, COMMENT_MARKDOWN, &got) == 0);
	CHECK(perms_are(&got.view.perms, true, false, true, true));
	CHECK(dom_comment_get(as(f, &f->eve), at, c.c.id, NULL, COMMENT_MARKDOWN, &got) == ERR_NOT_FOUND);
	CHECK(dom_comment_get(as(f, &f->bob), at, "nosuchcomment", NULL, COMMENT_MARKDOWN, &got) == ERR_NOT_FOUND);
	CHECK(dom_comments_list(as(f, &f->eve), at, &filter, &lr, COMMENT_MARKDOWN, &items, &n, &next) == ERR_NOT_FOUND);
	CHECK(dom_comments_list(as(f, &f->dave), at, &filter, &lr, COMMENT_MARKDOWN, &items, &n, &next) == 0);
	CHECK(n == 1 && strcmp(items[0].c.id, c.c.id) == 0 && !items[0].view.perms.reply);

	/* editing the body: the author only, not even an admin */
	e.markdown = "Hijacked";
	CHECK(dom_comment_update(as(f, &f->carol), at, c.c.id, NULL, &e, &got) == ERR_FORBIDDEN);
	CHECK(dom_comment_update(as(f, &f->admin), at, c.c.id, NULL, &e, &got) == ERR_FORBIDDEN);
	CHECK(dom_comment_update(as(f, &f->dave), at, c.c.id, NULL, &e, &got) == ERR_FORBIDDEN);
	e.markdown = "Second draft";
	CHECK(dom_comment_update(as(f, &f->bob), at, c.c.id, NULL, &e, &got) == 0);
	CHECK_STR(got.c.markdown, "Second draft");
	CHECK(got.c.edited_at > 0);
	e.markdown = " \n\t";
	CHECK(dom_comment_update(as(f, &f->bob), at, c.c.id, NULL, &e, &got) == ERR_INVALID);
	e.markdown = NULL;

	/* open -> resolved (a commenter who is not the author) -> open */
	e.resolved = 1;
	CHECK(dom_comment_update(as(f, &f->dave), at, c.c.id, NULL, &e, &got) == ERR_FORBIDDEN);
	CHECK(dom_comment_update(as(f, &f->carol), at, c.c.id, NULL, &e, &got) == 0);
	CHECK_STR(got.c.status, "resolved");
	CHECK_STR(got.c.resolved_by.id, f->carol.id);
	CHECK(got.c.resolved_at > 0);
	CHECK(open_count(f, at) == base);
	e.resolved = 0;
	CHECK(dom_comment_update(as(f, &f->bob), at, c.c.id, NULL, &e, &got) == 0);
	CHECK_STR(got.c.status, "open");
	CHECK(got.c.resolved_by.id == NULL);
	CHECK(open_count(f, at) == base + 1);
	e.resolved = -1;

	/* reactions: the comment role; checked before anything is applied */
	const char *thumbs[] = { "\xF0\x9F\x91\x8D" }, *bad[] = { "a b" };
	e.added = thumbs;
	e.nadded = 1;
	CHECK(dom_comment_update(as(f, &f->dave), at, c.c.id, NULL, &e, &got) == ERR_FORBIDDEN);
	e.removed = thumbs;
	e.nremoved = 1;
	CHECK(dom_comment_update(as(f, &f->carol), at, c.c.id, NULL, &e, &got) == ERR_INVALID); /* both ways at once */
	e.removed = bad;
	CHECK(dom_comment_update(as(f, &f->carol), at, c.c.id, NULL, &e, &got) == ERR_INVALID);
	e.nremoved = 0;
	CHECK(dom_comment_update(as(f, &f->carol), at, c.c.id, NULL, &e, &got) == 0);
	CHECK(got.c.nreactions == 1 && strcmp(got.c.reactions[0].user.id, f->carol.id) == 0);
	e.nadded = 0;

	/* replies: posted with the comment role, edited by their author */
	CHECK(dom_reply_post(as(f, &f->dave), at, c.c.id, "Me too", &r) == ERR_FORBIDDEN);
	CHECK(dom_reply_post(as(f, &f->carol), at, "nosuchcomment", "Me too", &r) == ERR_NOT_FOUND);
	CHECK(dom_reply_post(as(f, &f->carol), at, c.c.id, "", &r) == ERR_INVALID);
	CHECK(dom_reply_post(as(f, &f->carol), at, c.c.id, "Me too", &r) == 0);
	CHECK_STR(r.c.parent_id, c.c.id);
	CHECK(perms_are(&r.view.perms, true, true, true, true));
	CHECK(dom_comment_get(as(f, &f->bob), at, c.c.id, r.c.id, COMMENT_MARKDOWN, &got) == 0);
	CHECK(perms_are(&got.view.perms, true, false, true, false));
	CHECK(dom_comment_get(as(f, &f->bob), at, c.c.id, NULL, COMMENT_MARKDOWN, &got) == 0 && got.c.replies == 1);
	e.markdown = "Edited reply";
	CHECK(dom_comment_update(as(f, &f->bob), at, c.c.id, r.c.id, &e, &got) == ERR_FORBIDDEN);
	CHECK(dom_comment_update(as(f, &f->carol), at, c.c.id, r.c.id, &e, &got) == 0);
	CHECK_STR(got.c.markdown, "Edited reply");
	e.markdown = NULL;
	/* a reply has no state: a space's reply refuses `resolved`, a change request's ignores it */
	e.resolved = 1;
	CHECK(dom_comment_update(as(f, &f->carol), at, c.c.id, r.c.id, &e, &got) == (at->cr_key ? 0 : ERR_INVALID));
	CHECK(dom_comment_get(as(f, &f->bob), at, c.c.id, NULL, COMMENT_MARKDOWN, &got) == 0);
	CHECK_STR(got.c.status, "open");
	e.resolved = -1;
	CHECK(dom_replies_list(as(f, &f->dave), at, c.c.id, &lr, COMMENT_MARKDOWN, &items, &n, &next) == 0);
	CHECK(n == 1 && strcmp(items[0].c.id, r.c.id) == 0);

	/* commenters: bob and carol (by their first post, which may be the same millisecond here) */
	CHECK(dom_commenters_list(as(f, &f->eve), at, &lr, &members, &n, &next) == ERR_NOT_FOUND);
	CHECK(dom_commenters_list(as(f, &f->dave), at, &lr, &members, &n, &next) == 0);
	CHECK(n == 2);
	for (int i = 0; i < n && i < 2; i++)
		CHECK(strcmp(members[i].user.id, f->bob.id) == 0 || strcmp(members[i].user.id, f->carol.id) == 0);
	CHECK(n < 2 || strcmp(members[0].user.id, members[1].user.id) != 0);

	/* deleting: the author or the create role; what is not there succeeds */
	CHECK(dom_comment_delete(as(f, &f->bob), at, c.c.id, r.c.id, &removed) == ERR_FORBIDDEN);
	CHECK(dom_comment_delete(as(f, &f->carol), at, c.c.id, NULL, &removed) == ERR_FORBIDDEN);
	CHECK(dom_comment_delete(as(f, &f->dave), at, "nosuchcomment", NULL, &removed) == ERR_FORBIDDEN);
	CHECK(dom_comment_delete(as(f, &f->eve), at, c.c.id, NULL, &removed) == ERR_NOT_FOUND);
	CHECK(dom_comment_delete(as(f, &f->carol), at, c.c.id, r.c.id, &removed) == 0 && removed);
	CHECK(dom_comment_delete(as(f, &f->carol), at, c.c.id, r.c.id, &removed) == 0 && !removed);
	CHECK(dom_comment_delete(as(f, &f->frank), at, c.c.id, NULL, &removed) == 0 && removed);
	CHECK(dom_comment_get(as(f, &f->bob), at, c.c.id, NULL, COMMENT_MARKDOWN, &got) == ERR_NOT_FOUND);
	CHECK(dom_comment_delete(as(f, &f->bob), at, c.c.id, NULL, &removed) == 0 && !removed);
	CHECK(open_count(f, at) == base);
	CHECK(store_tx_commit(&f->tx) == 0);
}

/* The rules on what a new comment says and targets. */
static void targets(struct fx *f)
{
	struct comment_at own = { f->sp.id, NULL }, in_cr = { f->sp.id, f->cr.id }, by_number = { f->sp.id, "1" };
	struct comment_new in = { .markdown = "On a cell", .node = "node-1", .cell_record = "rec\"1",
				  .cell_definition = "def1" };
	struct dom_comment c, got;
	char long_md[COMMENT_MARKDOWN_MAX + 2];
	bool removed;

	CHECK(store_tx_begin(f->s, &f->tx, 1, &f->a) == 0);
	CHECK(dom_comment_post(as(f, &f->bob), &own, &in, &c) == 0);
	CHECK_STR(c.c.target_node, "node-1");
	CHECK_STR(c.c.target_table_cell, "{\"record\":\"rec\\\"1\",\"definition\":\"def1\"}");
	CHECK(dom_comment_delete(as(f, &f->bob), &own, c.c.id, NULL, &removed) == 0 && removed);

	/* a table cell needs both halves; ids are 1..COMMENT_TARGET_MAX characters */
	in.cell_definition = NULL;
	CHECK(dom_comment_post(as(f, &f->bob), &own, &in, &c) == ERR_INVALID);
	in.cell_record = NULL;
	in.node = "";
	CHECK(dom_comment_post(as(f, &f->bob), &own, &in, &c) == ERR_INVALID);
	in.node = NULL;
	memset(long_md, 'x', sizeof(long_md) - 1);
	long_md[sizeof(long_md) - 1] = '\0';
	in.markdown = long_md;
	CHECK(dom_comment_post(as(f, &f->bob), &own, &in, &c) == ERR_INVALID);
	long_md[COMMENT_MARKDOWN_MAX] = '\0';
	CHECK(dom_comment_post(as(f, &f->bob), &own, &in, &c) == 0);
	CHECK(strlen(c.c.markdown) == COMMENT_MARKDOWN_MAX);
	in.markdown = NULL;
	CHECK(dom_comment_post(as(f, &f->bob), &own, &in, &c) == ERR_INVALID);
	/* docsd itself reads everything but cannot be an author */
	in.markdown = "From docsd";
	CHECK(dom_comment_post(as(f, NULL), &own, &in, &c) == ERR_INVALID);

	/* a page target must be a page of the place's content */
	in.markdown = "About the guide";
	in.page = f->page_id;
	CHECK(dom_comment_post(as(f, &f->bob), &own, &in, &c) == ERR_INVALID);
	CHECK(dom_comment_post(as(f, &f->bob), &in_cr, &in, &c) == 0);
	CHECK(c.view.page != NULL);
	if (c.view.page) {
		CHECK_STR(c.view.page->id, f->page_id);
		CHECK_STR(c.view.page->title, "Guide");
		CHECK(!c.view.page->outdated);
	}
	/* the change request by its number; the comment is the change request's, not the space's */
	CHECK(dom_comment_get(as(f, &f->dave), &by_number, c.c.id, NULL, COMMENT_MARKDOWN, &got) == 0);
	CHECK_STR(got.c.change_request_id, f->cr.id);
	CHECK(dom_comment_get(as(f, &f->dave), &own, c.c.id, NULL, COMMENT_MARKDOWN, &got) == ERR_NOT_FOUND);
	in.page = "nosuchpage";
	CHECK(dom_comment_post(as(f, &f->bob), &in_cr, &in, &c) == ERR_INVALID);
	struct comment_at no_cr = { f->sp.id, "nosuchcr" };
	CHECK(dom_comment_post(as(f, &f->bob), &no_cr, &in, &c) == ERR_NOT_FOUND);
	store_tx_rollback(&f->tx);
}

/* A deleted space's comments can be read, not changed. */
static void deleted_space(struct fx *f)
{
	struct comment_at own = { f->sp.id, NULL };
	struct comment_new in = { .markdown = "Before" };
	struct comment_edit e = { .resolved = 1 };
	struct dom_comment c, got;
	struct space s;
	bool flag;

	CHECK(store_tx_begin(f->s, &f->tx, 1, &f->a) == 0);
	CHECK(dom_comment_post(as(f, &f->bob), &own, &in, &c) == 0);
	CHECK(store_space_get(&f->tx, f->sp.id, &s) == 0);
	CHECK(store_space_delete(&f->tx, &s, &flag) == 0 && flag);
	CHECK(dom_comment_get(as(f, &f->bob), &own, c.c.id, NULL, COMMENT_MARKDOWN, &got) == 0);
	CHECK(dom_comment_post(as(f, &f->bob), &own, &in, &got) == ERR_CONFLICT);
	CHECK(dom_comment_update(as(f, &f->bob), &own, c.c.id, NULL, &e, &got) == ERR_CONFLICT);
	CHECK(dom_comment_delete(as(f, &f->bob), &own, c.c.id, NULL, &flag) == ERR_CONFLICT);
	store_tx_rollback(&f->tx);
}

/* A space search finds a page only for actors who read its space; an
 * organization search looks only into those spaces. */
static void search(struct fx *f)
{
	struct list_req lr = { .limit = 10 };
	struct search_page *pages;
	struct search_space *spaces;
	char *next;
	int n;

	CHECK(store_tx_begin(f->s, &f->tx, 1, &f->a) == 0);
	CHECK(dom_search_put_page(&f->tx, f->org.id, f->sp.id, "p-open", "Hatching", "hatching",
				    "# Hatch patterns\n\nCustom hatch patterns.\n") == 0);
	CHECK(dom_search_put_page(&f->tx, f->org.id, f->secret.id, "p-secret", "Hidden", "hidden",
				    "Secret hatch patterns.\n") == 0);
	CHECK(store_tx_commit(&f->tx) == 0);

	CHECK(store_tx_begin(f->s, &f->tx, 0, &f->a) == 0);
	CHECK(dom_search_space(as(f, &f->dave), f->sp.id, "hatch", &lr, &pages, &n, &next) == 0);
	CHECK(n == 1 && strcmp(pages[0].id, "p-open") == 0);
	CHECK(dom_search_space(as(f, &f->dave), f->secret.id, "hatch", &lr, &pages, &n, &next) == ERR_NOT_FOUND);
	CHECK(dom_search_space(as(f, &f->eve), f->sp.id, "hatch", &lr, &pages, &n, &next) == ERR_NOT_FOUND);
	CHECK(dom_search_space(as(f, &f->admin), f->secret.id, "hatch", &lr, &pages, &n, &next) == 0);
	CHECK(n == 1 && strcmp(pages[0].id, "p-secret") == 0);
	CHECK(dom_search_space(as(f, &f->dave), f->sp.id, "  ", &lr, &pages, &n, &next) == ERR_INVALID);
	CHECK(dom_search_space(as(f, &f->dave), f->sp.id, NULL, &lr, &pages, &n, &next) == ERR_INVALID);

	CHECK(dom_search_org(as(f, &f->dave), f->org.id, "hatch", &lr, &spaces, &n, &next) == 0);
	CHECK(n == 1 && strcmp(spaces[0].id, f->sp.id) == 0);
	CHECK(dom_search_org(as(f, &f->admin), f->org.id, "hatch", &lr, &spaces, &n, &next) == 0);
	CHECK(n == 2);
	CHECK(dom_search_org(as(f, NULL), f->org.id, "hatch", &lr, &spaces, &n, &next) == 0 && n == 2);
	CHECK(dom_search_org(as(f, &f->eve), f->org.id, "hatch", &lr, &spaces, &n, &next) == ERR_NOT_FOUND);
	CHECK(dom_search_org(as(f, &f->dave), f->org.id, "", &lr, &spaces, &n, &next) == ERR_INVALID);
	CHECK(dom_search_org(as(f, &f->dave), f->org.id, "zebra", &lr, &spaces, &n, &next) == 0 && n == 0);
	store_tx_rollback(&f->tx);
}

static void domain_comments_suite(struct store *s)
{
	struct fx f;
	struct comment_at own, in_cr;

	fx_open(&f, s);
	own = (struct comment_at){ f.sp.id, NULL };
	in_cr = (struct comment_at){ f.sp.id, f.cr.id };
	access_and_state(&f, &own);
	access_and_state(&f, &in_cr);
	targets(&f);
	search(&f);
	deleted_space(&f);
	fx_close(&f);
}

UNIT_TEST_ON_ENGINES(domain_comments, domain_comments_suite)
