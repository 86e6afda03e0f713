/*
 * test_revision.c - revisions (tree building, paths, manifests as snapshot
 * and delta) and three-way merges of page trees.
 */
#include "core/revision.h"
#include "core/tree_edit.h"
#include "core/tree_merge.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

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

/* Bodies for merges: "hash" is the markdown itself. */
static int body_get(void *ctx, const char *hash, const char **md)
{
	(void)ctx;
	*md = hash;
	return 0;
}

static int body_put(void *ctx, const char *md, const char **hash)
{
	*hash = arena_strdup(ctx, md);
	return *hash ? 0 : -1;
}

static int merge(struct arena *a, struct revision *b, struct revision *o, struct revision *t, struct tree_work *w,
		 int *nconf)
{
	struct tree_merge_io io = { body_get, body_put, a };
	struct merge_conflict *c;

	return tree_merge(a, b, o, t, &io, 5, w, &c, nconf);
}

UNIT_TEST(tree_merge_clean_and_conflicting_cases)
{
	struct arena a;
	struct tree_work w;
	int n;
	struct rev_page base[] = { page("p", NULL, 1, "p", "l1\nl2\nl3\n"), page("q", NULL, 2, "q", "q\n") };
	struct rev_page ours[] = { page("p", NULL, 1, "p", "l1 ours\nl2\nl3\n"), page("q", NULL, 2, "q", "q\n") };
	struct rev_page theirs[] = { page("p", NULL, 1, "p", "l1\nl2\nl3 theirs\n"), page("q", NULL, 2, "q", "q\n"),
				     page("r", "q", 1, "r", "new\n") };
	struct rev_page same_line[] = { page("p", NULL, 1, "p", "l1 other\nl2\nl3\n"), page("q", NULL, 2, "q", "q\n") };
	struct rev_page no_q[] = { page("p", NULL, 1, "p", "l1\nl2\nl3\n") };
	struct revision *B = build("b", base, 2), *O = build("o", ours, 2), *T = build("t", theirs, 3),
			*S = build("s", same_line, 2), *D = build("d", no_q, 1);

	arena_init(&a);
	/* different lines of one page, plus a page added on one side: clean */
	CHECK(merge(&a, B, O, T, &w, &n) == 0);
	CHECK(n == 0);
	CHECK(w.n == 3);
	for (int i = 0; i < w.n; i++)
		if (strcmp(w.pages[i].id, "p") == 0)
			CHECK_STR(w.pages[i].body, "l1 ours\nl2\nl3 theirs\n");
	/* the same line changed differently: a conflict */
	CHECK(merge(&a, B, O, S, &w, &n) == 0);
	CHECK(n == 1);
	/* a page inserted under q on one side while q is deleted on the other */
	CHECK(merge(&a, B, D, T, &w, &n) == 0);
	CHECK(n >= 1);
	/* nothing changed on one side: the other side wins as it is */
	CHECK(merge(&a, B, B, T, &w, &n) == 0);
	CHECK(n == 0 && w.n == 3);
	revision_free(B);
	revision_free(O);
	revision_free(T);
	revision_free(S);
	revision_free(D);
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
