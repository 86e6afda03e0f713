/* Unit tests: format/summary (GitBook's SUMMARY.md). */
#include "format/summary.h"
#include "util/arena.h"
#include "util/err.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse(struct arena *a, const char *md, const char *base, struct summary *s)
{
	return summary_parse(a, md, md ? strlen(md) : 0, base, s);
}

/* Whether some recorded problem is on line and contains what. */
static int has_problem(const struct summary *s, int line, const char *what)
{
	for (size_t i = 0; i < s->n_problems; i++)
		if (s->problems[i].line == line && strstr(s->problems[i].message, what))
			return 1;
	return 0;
}

UNIT_TEST(summary_gitbook_docs_example)
{
	struct arena a;
	struct summary s;
	const struct summary_item *g, *p;

	arena_init(&a);
	/* The structure GitBook's content configuration documents. */
	CHECK(parse(&a,
		    "# Summary\n"
		    "\n"
		    "## Use headings to create page groups like this one\n"
		    "\n"
		    "* [First page's title](page1/README.md)\n"
		    "    * [Some child page](page1/page1-1.md)\n"
		    "    * [Some other child page](part1/page1-2.md)\n"
		    "\n"
		    "* [Second page's title](page2/README.md)\n"
		    "    * [Some child page](page2/page2-1.md)\n"
		    "    * [Some other child page](part2/page2-2.md)\n"
		    "\n"
		    "## A second-page group\n"
		    "\n"
		    "* [Yet another page](another-page.md)\n",
		    NULL, &s) == 0);
	CHECK(s.n_problems == 0 && s.n_problems_total == 0);
	CHECK(s.n_items == 2);
	if (s.n_items != 2)
		goto out;
	g = &s.items[0];
	CHECK(g->kind == SUMMARY_GROUP && g->line == 3);
	CHECK_STR(g->title, "Use headings to create page groups like this one");
	CHECK(g->n_children == 2);
	if (g->n_children == 2) {
		p = &g->children[0];
		CHECK(p->kind == SUMMARY_PAGE && p->line == 5 && p->n_children == 2 && !p->nav_title && !p->anchor);
		CHECK_STR(p->title, "First page's title");
		CHECK_STR(p->path, "page1/README.md");
		CHECK_STR(p->children[1].path, "part1/page1-2.md");
		CHECK(p->children[1].line == 7 && p->children[1].n_children == 0);
		CHECK_STR(g->children[1].children[0].title, "Some child page");
		CHECK_STR(g->children[1].children[0].path, "page2/page2-1.md");
	}
	g = &s.items[1];
	CHECK(g->kind == SUMMARY_GROUP && g->n_children == 1);
	CHECK_STR(g->title, "A second-page group");
	CHECK_STR(g->children[0].path, "another-page.md");
out:
	arena_free(&a);
}

UNIT_TEST(summary_titles_links_folders_and_base)
{
	struct arena a;
	struct summary s;
	const struct summary_item *it;

	arena_init(&a);
	CHECK(parse(&a,
		    "# Table of contents\n"
		    "* [Introduction](README.md)\n"
		    "* [Page main title](page.md \"Page link title\")\n"
		    "* [GitHub](https://github.com/org/repo)\n"
		    "* [Mail](mailto:a@example.com)\n"
		    "- [Guide](guide/)\n"
		    "+ [**Bold** `code` title](a%20b.md#section-2)\n"
		    "1. [Numbered](./x/../y.md)\n"
		    "* [Rooted](/top.md)\n",
		    "docs/product", &s) == 0);
	CHECK(s.n_problems == 0);
	CHECK(s.n_items == 8);
	if (s.n_items != 8)
		goto out;
	it = s.items;
	CHECK(it[0].kind == SUMMARY_PAGE);
	CHECK_STR(it[0].path, "docs/product/README.md");
	CHECK_STR(it[1].title, "Page main title");
	CHECK_STR(it[1].nav_title, "Page link title");
	CHECK_STR(it[1].path, "docs/product/page.md");
	CHECK(it[2].kind == SUMMARY_LINK && !it[2].path);
	CHECK_STR(it[2].url, "https://github.com/org/repo");
	CHECK(it[3].kind == SUMMARY_LINK);
	CHECK_STR(it[4].path, "docs/product/guide/README.md");
	CHECK_STR(it[5].title, "Bold code title");
	CHECK_STR(it[5].path, "docs/product/a b.md");
	CHECK_STR(it[5].anchor, "section-2");
	CHECK_STR(it[6].path, "docs/product/y.md");
	CHECK_STR(it[7].path, "top.md");

	/* Legacy GitBook: "### Part" headings and horizontal rules; anchors into one file
	 * are distinct entries only when the file differs. */
	CHECK(parse(&a, "# Summary\n\n### Part I\n\n* [Writing](part1/writing.md)\n\n---\n\n### Part II\n\n"
			"* [Feedback](part2/feedback.md)\n<!-- a comment -->\n",
		    NULL, &s) == 0);
	CHECK(s.n_problems == 0 && s.n_items == 2);
	CHECK(s.n_items == 2 && s.items[1].kind == SUMMARY_GROUP && s.items[1].n_children == 1);
	/* Empty input: nothing, no problem. */
	CHECK(parse(&a, "", NULL, &s) == 0 && s.n_items == 0 && s.n_problems == 0);
	CHECK(parse(&a, NULL, NULL, &s) == 0 && s.n_items == 0);
	CHECK(parse(&a, "# Summary\n", NULL, &s) == 0 && s.n_items == 0 && s.n_problems == 0);
	/* A group with no pages. */
	CHECK(parse(&a, "## Empty\n## Full\n* [a](a.md)\n", NULL, &s) == 0 && s.n_items == 2 &&
	      s.items[0].n_children == 0 && s.items[1].n_children == 1);
out:
	arena_free(&a);
}

UNIT_TEST(summary_reports_unparsable_lines)
{
	struct arena a;
	struct summary s;

	arena_init(&a);
	CHECK(parse(&a,
		    "# Summary\n"                      /* 1 */
		    "Some prose.\n"                    /* 2 */
		    "* Plain item\n"                   /* 3 */
		    "* [a](a.md) and more\n"           /* 4 */
		    "* [b](../outside.md)\n"           /* 5 */
		    "* [c]()\n"                        /* 6 */
		    "* [d](#only-anchor)\n"            /* 7 */
		    "* [e](a.md)\n"                    /* 8: duplicate of nothing yet? a.md skipped on 4 */
		    "* [f](./a.md)\n"                  /* 9: duplicate of 8 */
		    "* [g](g.md)\n"                    /* 10 */
		    "\n"
		    "  ```\n  code\n  ```\n"           /* 12: code in an item */
		    "```\nfenced\n```\n",              /* 15 */
		    NULL, &s) == 0);
	CHECK(has_problem(&s, 2, "expected a \"## Group\""));
	CHECK(has_problem(&s, 3, "one link"));
	CHECK(has_problem(&s, 4, "one link"));
	CHECK(has_problem(&s, 5, "leaves its root"));
	CHECK(has_problem(&s, 6, "no destination"));
	CHECK(has_problem(&s, 7, "names no file"));
	CHECK(has_problem(&s, 9, "already listed at line 8"));
	CHECK(has_problem(&s, 12, "nested list"));
	CHECK(has_problem(&s, 15, "expected"));
	CHECK(s.n_items == 2);
	if (s.n_items == 2) {
		CHECK_STR(s.items[0].path, "a.md");
		CHECK_STR(s.items[1].path, "g.md");
	}
	CHECK(s.n_problems == s.n_problems_total);
	arena_free(&a);
}

UNIT_TEST(summary_bounds)
{
	struct arena a;
	struct summary s;
	size_t cap = 2 * 1024 * 1024, n = 0;
	char *md = malloc(cap);
	const struct summary_item *it;
	int depth = 0;

	CHECK(md != NULL);
	if (!md)
		return;
	arena_init(&a);
	/* 40 nested levels: 16 kept, the rest reported. */
	for (int i = 0; i < 40; i++) {
		for (int k = 0; k < i * 2; k++)
			md[n++] = ' ';
		n += (size_t)sprintf(md + n, "* [L%d](l%d.md)\n", i, i);
	}
	CHECK(summary_parse(&a, md, n, NULL, &s) == 0);
	CHECK(has_problem(&s, 17, "deeper than 16"));
	for (it = s.n_items ? &s.items[0] : NULL; it; it = it->n_children ? &it->children[0] : NULL)
		depth++;
	CHECK(depth == 16);
	/* Too many items. */
	n = 0;
	for (int i = 0; i < 10010; i++)
		n += (size_t)sprintf(md + n, "* [p](p%d.md)\n", i);
	CHECK(summary_parse(&a, md, n, NULL, &s) == 0 && s.n_items == 10000);
	CHECK(s.n_problems == 10 && has_problem(&s, 10001, "more than 10000"));
	/* Many problems: 100 recorded, all counted. */
	n = 0;
	for (int i = 0; i < 300; i++)
		n += (size_t)sprintf(md + n, "* nolink\n");
	CHECK(summary_parse(&a, md, n, NULL, &s) == 0 && s.n_problems == 100 && s.n_problems_total == 300);
	/* Over 1 MiB. */
	memset(md, '*', cap);
	CHECK(summary_parse(&a, md, cap, NULL, &s) == ERR_INVALID);
	err_clear();
	/* Deep inline nesting in a title. */
	n = (size_t)sprintf(md, "* [");
	for (int i = 0; i < 5000; i++)
		n += (size_t)sprintf(md + n, "*a ");
	n += (size_t)sprintf(md + n, "](x.md)\n## ");
	for (int i = 0; i < 5000; i++)
		md[n++] = '[';
	CHECK(summary_parse(&a, md, n, NULL, &s) == 0);
	free(md);
	arena_free(&a);
}

UNIT_TEST(summary_fuzz)
{
	static const char *const pieces[] = {
		"# Summary\n", "## G\n", "* ", "- ", "1. ", "    ", "  ", "[", "]", "(", ")", "a.md", "b/", "../",
		"/", "#x", "%20", "%", "https://x.y", " \"t\"", "\n", "\n\n", "**", "`", "<", ">", "\\", "---\n",
		"\x00", "\xff", "\xc3\xa9", "\t", "\r\n", "```\n", "> ", "<!-- ", "[x]: y.md\n", "[x]",
	};
	unsigned seed = 2026;
	char md[1200];

	for (int round = 0; round < 3000; round++) {
		struct arena a;
		struct summary s;
		size_t n = 0, want = (size_t)(rand_r(&seed) % 1000);

		while (n < want) {
			const char *p = pieces[rand_r(&seed) % (sizeof(pieces) / sizeof(pieces[0]))];
			size_t pl = p[0] ? strlen(p) : 1;

			memcpy(md + n, p, pl);
			n += pl;
		}
		arena_init(&a);
		CHECK(summary_parse(&a, md, n, round % 3 ? NULL : "docs", &s) == 0);
		CHECK(s.n_problems <= SUMMARY_MAX_PROBLEMS && s.n_problems <= s.n_problems_total);
		for (size_t i = 0; i < s.n_items; i++) {
			const struct summary_item *it = &s.items[i];

			CHECK(it->title != NULL);
			if (it->kind == SUMMARY_PAGE)
				CHECK(it->path && *it->path && it->path[0] != '/' && strncmp(it->path, "..", 2) != 0);
			if (it->kind == SUMMARY_LINK)
				CHECK(it->url && !it->path);
		}
		arena_free(&a);
	}
}
