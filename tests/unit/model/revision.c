/*
 * test_revision.c - revisions (tree building, paths, manifests as snapshot
 * and delta), three-way merges of page trees, and the revision cache.
 */
#include "model/revision.h"
#include "model/tree_edit.h"
#include "model/tree_merge.h"
#include "store/store.h"
#include "unit.h"
#include "util/err.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct rev_page page(const char *id, const char *parent, int64_t pos, const char *slug, const char *body)
{
	return (struct rev_page){ .id = id, .parent = parent, .pos = pos, .type = PAGE_DOCUMENT, .title = slug,
				  .slug = slug, .body = body, .created_at = 1, .updated_at = 1 };
}

static struct revision *build(const char *id, struct rev_page *pages, int n)
{
	struct revision_new nr = { .space_id = "space", .pages = pages, .npages = n };

	return revision_build(id, &nr, 1);
}

UNIT_TEST(revision_builds_tree_paths_and_order)
{
	struct rev_page p[] = {
		page("c", "a", 2048, "second", "h2"), page("a", NULL, 1024, "guide", "h1"),
		page("b", "a", 1024, "first", "h3"), page("d", NULL, 512, "intro", "h4"),
		page("x", "missing", 1, "orphan", "h5"), page("y", "z", 1, "loop-y", NULL), page("z", "y", 1, "loop-z", NULL),
	};
	struct revision *rv = build("r1", p, 7);

	CHECK(rv != NULL);
	CHECK_STR(revision_page(rv, "b")->path, "guide/first");
	CHECK_STR(revision_page(rv, "c")->path, "guide/second");
	CHECK(revision_page_by_path(rv, "guide/second") == revision_page(rv, "c"));
	CHECK(revision_page_by_path(rv, "/guide/first/") == revision_page(rv, "b"));
	CHECK(revision_page_by_path(rv, "guide/none") == NULL);
	/* roots in position order: intro (512), guide (1024); the orphan is kept at the top */
	CHECK_STR(rv->pages[rv->first_root].id, "x");
	CHECK(revision_page(rv, "x")->parent_idx == -1);
	const struct rev_page *a = revision_page(rv, "a");
	CHECK_STR(rv->pages[a->first_child].id, "b");
	CHECK_STR(rv->pages[rv->pages[a->first_child].next_sibling].id, "c");
	/* a cycle does not hang and leaves both pages reachable */
	CHECK(revision_page(rv, "y")->path != NULL && revision_page(rv, "z")->path != NULL);
	revision_free(rv);
}

UNIT_TEST(revision_delta_round_trips_through_a_manifest)
{
	struct rev_page p1[] = { page("a", NULL, 1, "a", "h1"), page("b", NULL, 2, "b", "h2"), page("c", NULL, 3, "c", "h3") };
	struct rev_page p2[] = { page("a", NULL, 1, "a", "h1"), page("c", NULL, 3, "c", "h3-new"), page("d", "a", 1, "d", "h4") };
	struct revision *r1 = build("r1", p1, 3), *r2 = build("r2", p2, 3);
	struct jw w;
	struct arena a;
	struct manifest m;
	struct rev_page *pages;
	struct rev_file *files;
	int np, nf;

	arena_init(&a);
	jw_init(&w);
	revision_delta_write(&w, r1, r2);
	jw_put(&w, "", 1);
	CHECK(jw_ok(&w));
	/* only what changed: c changed, d added, b removed; a is not written */
	CHECK(strstr(w.buf, "\"h3-new\"") != NULL);
	CHECK(strstr(w.buf, "\"h4\"") != NULL);
	CHECK(strstr(w.buf, "\"h1\"") == NULL);
	CHECK(manifest_parse(&a, w.buf, &m) == 0);
	CHECK(m.is_delta == 1);
	CHECK(m.ndel_pages == 1 && strcmp(m.del_pages[0], "b") == 0);
	CHECK(manifest_apply(&a, r1, &m, &pages, &np, &files, &nf) == 0);
	struct revision_new nr = { .space_id = "space", .pages = pages, .npages = np };
	struct revision *r3 = revision_build("r3", &nr, 1);
	CHECK(r3 && r3->npages == 3);
	for (int i = 0; r3 && i < 3; i++)
		CHECK(rev_page_same(&r3->pages[i], &r2->pages[i]));
	CHECK(manifest_parse(&a, "{not json", &m) != 0);
	CHECK(manifest_parse(&a, "{\"pages\":[{\"t\":\"document\"}]}", &m) != 0);
	revision_free(r1);
	revision_free(r2);
	revision_free(r3);
	jw_free(&w);
	arena_free(&a);
}

/* Bodies for merges: a body's "hash" is "#" + its markdown, so a test can
 * tell a hash from a text. The merge gets exactly the bodies it asks for
 * (tree_merge_needs); the bodies it makes are "stored" by naming them. */
static const char *hash_of(struct arena *a, const char *md)
{
	return arena_printf(a, "#%s", md);
}

static struct rev_page hpage(struct arena *a, const char *id, const char *parent, int64_t pos, const char *slug,
			     const char *md)
{
	return page(id, parent, pos, slug, md ? hash_of(a, md) : NULL);
}

struct merged {
	struct tree_merge_result res;
	const char **needed;
	int nneeded;
};

static int merge(struct arena *a, struct revision *b, struct revision *o, struct revision *t, struct merged *m)
{
	struct merge_body *bodies;
	int rc;

	if ((rc = tree_merge_needs(a, b, o, t, &m->needed, &m->nneeded)))
		return rc;
	bodies = arena_alloc(a, sizeof(*bodies) * (size_t)(m->nneeded + 1));
	if (!bodies)
		return -1;
	for (int i = 0; i < m->nneeded; i++)
		bodies[i] = (struct merge_body){ m->needed[i], m->needed[i] + 1 };
	if ((rc = tree_merge(a, b, o, t, bodies, m->nneeded, 5, &m->res)))
		return rc;
	for (int i = 0; i < m->res.nbodies; i++)
		m->res.work.pages[m->res.bodies[i].page].body = hash_of(a, m->res.bodies[i].markdown);
	return 0;
}

static const struct rev_page *merged_page(const struct merged *m, const char *id)
{
	for (int i = 0; i < m->res.work.n; i++)
		if (strcmp(m->res.work.pages[i].id, id) == 0)
			return &m->res.work.pages[i];
	return NULL;
}

UNIT_TEST(tree_merge_clean_and_conflicting_cases)
{
	struct arena a;
	struct merged m;

	arena_init(&a);
	struct rev_page base[] = { hpage(&a, "p", NULL, 1, "p", "l1\nl2\nl3\n"), hpage(&a, "q", NULL, 2, "q", "q\n") };
	struct rev_page ours[] = { hpage(&a, "p", NULL, 1, "p", "l1 ours\nl2\nl3\n"), hpage(&a, "q", NULL, 2, "q", "q\n") };
	struct rev_page theirs[] = { hpage(&a, "p", NULL, 1, "p", "l1\nl2\nl3 theirs\n"), hpage(&a, "q", NULL, 2, "q", "q\n"),
				     hpage(&a, "r", "q", 1, "r", "new\n") };
	struct rev_page same_line[] = { hpage(&a, "p", NULL, 1, "p", "l1 other\nl2\nl3\n"), hpage(&a, "q", NULL, 2, "q", "q\n") };
	struct rev_page no_q[] = { hpage(&a, "p", NULL, 1, "p", "l1\nl2\nl3\n") };
	struct revision *B = build("b", base, 2), *O = build("o", ours, 2), *T = build("t", theirs, 3),
			*S = build("s", same_line, 2), *D = build("d", no_q, 1);

	/* different lines of one page, plus a page added on one side: clean */
	CHECK(merge(&a, B, O, T, &m) == 0);
	CHECK(m.res.nconflicts == 0);
	CHECK(m.res.work.n == 3);
	/* it asked for the three versions of p's body, and nothing of q or r */
	CHECK(m.nneeded == 3);
	/* the merged body of p comes back as text, for the caller to store */
	CHECK(m.res.nbodies == 1);
	CHECK_STR(m.res.bodies[0].page_id, "p");
	CHECK_STR(m.res.bodies[0].markdown, "l1 ours\nl2\nl3 theirs\n");
	CHECK(merged_page(&m, "p") && merged_page(&m, "p")->body);
	CHECK_STR(merged_page(&m, "p")->body, "#l1 ours\nl2\nl3 theirs\n");
	CHECK_STR(merged_page(&m, "r")->body, "#new\n");
	/* the same line changed differently: a conflict, and no body to write */
	CHECK(merge(&a, B, O, S, &m) == 0);
	CHECK(m.res.nconflicts == 1);
	CHECK(m.res.nbodies == 0);
	/* a page inserted under q on one side while q is deleted on the other */
	CHECK(merge(&a, B, D, T, &m) == 0);
	CHECK(m.res.nconflicts >= 1);
	/* nothing changed on one side: the other side wins as it is, no body read */
	CHECK(merge(&a, B, B, T, &m) == 0);
	CHECK(m.res.nconflicts == 0 && m.res.work.n == 3);
	CHECK(m.nneeded == 0 && m.res.nbodies == 0);
	revision_free(B);
	revision_free(O);
	revision_free(T);
	revision_free(S);
	revision_free(D);
	arena_free(&a);
}

/* A merge whose lines merge cleanly on one page but conflict on another
 * answers the conflict and returns no body at all: nothing of it is stored. */
UNIT_TEST(tree_merge_with_conflicts_returns_no_bodies_to_write)
{
	struct arena a;
	struct merged m;

	arena_init(&a);
	struct rev_page base[] = { hpage(&a, "clean", NULL, 1, "clean", "a\nb\nc\n"),
				   hpage(&a, "clash", NULL, 2, "clash", "x\ny\nz\n") };
	struct rev_page ours[] = { hpage(&a, "clean", NULL, 1, "clean", "a ours\nb\nc\n"),
				   hpage(&a, "clash", NULL, 2, "clash", "x ours\ny\nz\n") };
	struct rev_page theirs[] = { hpage(&a, "clean", NULL, 1, "clean", "a\nb\nc theirs\n"),
				     hpage(&a, "clash", NULL, 2, "clash", "x theirs\ny\nz\n") };
	struct revision *B = build("b", base, 2), *O = build("o", ours, 2), *T = build("t", theirs, 2);

	CHECK(merge(&a, B, O, T, &m) == 0);
	CHECK(m.nneeded == 6);
	CHECK(m.res.nconflicts == 1);
	CHECK(m.res.nconflicts == 1 && strcmp(m.res.conflicts[0].page_id, "clash") == 0);
	CHECK(m.res.nbodies == 0 && m.res.bodies == NULL);
	/* without the conflicting page the same merge is clean and returns the body */
	struct revision *B1 = build("b1", base, 1), *O1 = build("o1", ours, 1), *T1 = build("t1", theirs, 1);
	CHECK(merge(&a, B1, O1, T1, &m) == 0);
	CHECK(m.res.nconflicts == 0 && m.res.nbodies == 1);
	CHECK_STR(m.res.bodies[0].markdown, "a ours\nb\nc theirs\n");
	/* a body the merge needs but was not given is an error, not an empty page */
	struct tree_merge_result res;
	CHECK(tree_merge(&a, B1, O1, T1, NULL, 0, 5, &res) == ERR_INTERNAL);
	revision_free(B);
	revision_free(O);
	revision_free(T);
	revision_free(B1);
	revision_free(O1);
	revision_free(T1);
	arena_free(&a);
}

UNIT_TEST(tree_edit_positions_slugs_and_subtree_delete)
{
	struct arena a;
	struct tree_work w;
	struct rev_page p[] = { page("a", NULL, 1024, "a", NULL), page("b", NULL, 1025, "b", NULL),
				page("c", "a", 1024, "c", NULL), page("d", "c", 1024, "d", NULL) };
	struct revision *rv = build("r", p, 4);
	int64_t pos;

	arena_init(&a);
	CHECK(tree_work_init(&w, &a, rv, 1) == 0);
	/* no gap between a (1024) and b (1025): inserting at 1 renumbers */
	CHECK(tree_position(&w, NULL, 1, NULL, &pos) == 0);
	CHECK(pos > w.pages[tree_find(&w, "a")].pos && pos < w.pages[tree_find(&w, "b")].pos);
	CHECK(!tree_slug_free(&w, NULL, "a", NULL));
	CHECK(tree_slug_free(&w, NULL, "a", "a"));
	CHECK_STR(tree_slug_unique(&w, NULL, "a", NULL), "a-2");
	CHECK(tree_is_descendant(&w, "d", "a"));
	CHECK(!tree_is_descendant(&w, "a", "d"));
	CHECK(tree_delete(&w, "a") == 0);
	CHECK(w.n == 1 && strcmp(w.pages[0].id, "b") == 0);
	revision_free(rv);
	arena_free(&a);
}

/* ---- the revision cache, through a store (SQLite; PostgreSQL too when
 * DOCSD_TEST_PG_URL is set) ---- */

#define RC_REVS 12
#define RC_PAGES 16

/* RC_REVS revisions of a new space, each with RC_PAGES pages whose 1 KB
 * descriptions name the revision: about 24 KB each in memory. */
static void rc_make_space(struct store *s, struct arena *a, const char **ids)
{
	struct store_tx tx;
	struct user u;
	struct org org = { .title = "Cache", .email_domains = "[]", .default_role = ROLE_READ };
	struct space sp = { .title = "Cached", .default_level = LEVEL_INHERIT };
	char e[64], r[9], pad[1001];

	memset(pad, 'x', 1000);
	pad[1000] = '\0';
	random_alnum(r, 8);
	snprintf(e, sizeof(e), "cache-%s@example.com", r);
	CHECK(store_tx_begin(s, &tx, 1, a) == 0);
	CHECK(store_user_create(&tx, e, "Cache", &u) == 0);
	CHECK(store_org_create(&tx, &org, u.id) == 0);
	sp.org_id = org.id;
	CHECK(store_space_create(&tx, &sp) == 0);
	const char *parent = sp.revision;
	for (int k = 0; k < RC_REVS; k++) {
		struct rev_page pages[RC_PAGES];
		for (int i = 0; i < RC_PAGES; i++) {
			pages[i] = page(arena_printf(a, "p%02d", i), NULL, i, arena_printf(a, "s%02d", i), NULL);
			pages[i].description = arena_printf(a, "rev %d page %d %s", k, i, pad);
		}
		struct revision_new nr = { .space_id = sp.id, .parent_id = parent, .pages = pages, .npages = RC_PAGES };
		const struct revision *rv = NULL;
		CHECK(store_revision_create(&tx, &nr, &rv) == 0);
		ids[k] = parent = rv ? arena_strdup(a, rv->id) : NULL;
	}
	CHECK(store_tx_commit(&tx) == 0);
}

static bool rc_intact(const struct revision *rv, int k)
{
	char want[32];

	if (!rv || rv->npages != RC_PAGES)
		return false;
	for (int i = 0; i < RC_PAGES; i++) {
		snprintf(want, sizeof(want), "rev %d page %d ", k, i);
		if (!rv->pages[i].description || strncmp(rv->pages[i].description, want, strlen(want)) != 0)
			return false;
	}
	return true;
}

static void revcache_suite(struct store *s)
{
	struct revcache *c = NULL;
	struct revcache_stats st, st2;
	struct store_tx tx, held_tx;
	struct arena a;
	const char *ids[RC_REVS];
	const struct revision *rv, *kept, *all[RC_REVS];

	arena_init(&a);
	CHECK(revcache_new(&c, 64 * 1024) == 0);
	if (!c)
		return;
	store_set_revision_cache(s, c);
	rc_make_space(s, &a, ids);
	CHECK(ids[RC_REVS - 1] != NULL);
	if (!ids[RC_REVS - 1])
		goto out;
	/* Each is about 24 KB: the budget holds two, never more bytes than it allows. */
	revcache_stats(c, &st);
	CHECK(st.max_bytes == 64 * 1024 && st.bytes <= st.max_bytes && st.entries >= 1 && st.entries <= 3);

	/* One transaction holds all twelve: the ones that do not fit are served
	 * uncached, and every one stays intact until the transaction ends. */
	CHECK(store_tx_begin(s, &tx, 0, &a) == 0);
	for (int k = 0; k < RC_REVS; k++)
		CHECK(store_revision_get(&tx, ids[k], &all[k]) == 0);
	for (int k = 0; k < RC_REVS; k++)
		CHECK(rc_intact(all[k], k));
	/* read again in the same transaction: the same revision, held once */
	CHECK(store_revision_get(&tx, ids[0], &rv) == 0 && rv == all[0]);
	CHECK(tx.nheld == RC_REVS);
	revcache_stats(c, &st);
	CHECK(st.bytes <= st.max_bytes);
	CHECK(store_tx_commit(&tx) == 0);
	CHECK(tx.nheld == 0 && tx.held == NULL);

	/* One at a time: the least recently used are evicted to make room. */
	revcache_stats(c, &st);
	for (int k = 0; k < RC_REVS; k++) {
		CHECK(store_tx_begin(s, &tx, 0, &a) == 0);
		CHECK(store_revision_get(&tx, ids[k], &rv) == 0 && rc_intact(rv, k));
		CHECK(store_tx_commit(&tx) == 0);
	}
	revcache_stats(c, &st2);
	CHECK(st2.evictions > st.evictions);
	CHECK(st2.bytes <= st2.max_bytes && st2.entries >= 1 && st2.entries <= 3);
	/* the last one read is cached: reading it again is a hit */
	CHECK(store_tx_begin(s, &tx, 0, &a) == 0);
	CHECK(store_revision_get(&tx, ids[RC_REVS - 1], &rv) == 0 && rc_intact(rv, RC_REVS - 1));
	CHECK(store_tx_commit(&tx) == 0);
	revcache_stats(c, &st);
	CHECK(st.hits == st2.hits + 1);

	/* A revision held by an open transaction is never evicted under it,
	 * however much another transaction reads meanwhile. */
	CHECK(store_tx_begin(s, &held_tx, 0, &a) == 0);
	CHECK(store_revision_get(&held_tx, ids[RC_REVS - 1], &kept) == 0);
	for (int k = 0; k < RC_REVS - 1; k++) {
		CHECK(store_tx_begin(s, &tx, 0, &a) == 0);
		CHECK(store_revision_get(&tx, ids[k], &rv) == 0 && rc_intact(rv, k));
		CHECK(store_tx_commit(&tx) == 0);
	}
	CHECK(rc_intact(kept, RC_REVS - 1));
	revcache_stats(c, &st2);
	CHECK(st2.bytes <= st2.max_bytes);
	/* still cached: another transaction finds the same one */
	CHECK(store_tx_begin(s, &tx, 0, &a) == 0);
	CHECK(store_revision_get(&tx, ids[RC_REVS - 1], &rv) == 0 && rv == kept);
	CHECK(store_tx_commit(&tx) == 0);
	CHECK(store_tx_commit(&held_tx) == 0);
out:
	store_set_revision_cache(s, NULL);
	revcache_free(c);

	/* With a budget smaller than one revision, and without a cache, every
	 * transaction builds its own and frees it when it ends. */
	CHECK(revcache_new(&c, 1024) == 0);
	store_set_revision_cache(s, c);
	for (int pass = 0; pass < 2 && ids[RC_REVS - 1]; pass++) {
		CHECK(store_tx_begin(s, &tx, 0, &a) == 0);
		for (int k = 0; k < RC_REVS; k++)
			CHECK(store_revision_get(&tx, ids[k], &all[k]) == 0 && rc_intact(all[k], k));
		CHECK(store_tx_commit(&tx) == 0);
		store_set_revision_cache(s, NULL);
	}
	revcache_stats(c, &st);
	CHECK(st.entries == 0 && st.bytes == 0);
	revcache_free(c);
	arena_free(&a);
}

UNIT_TEST_ON_ENGINES(revision_cache, revcache_suite)
