/* Unit tests: format/gitbook_yaml (.gitbook.yaml and the bounded YAML loader). */
#include "format/gitbook_yaml.h"
#include "format/markdown.h"
#include "util/arena.h"
#include "util/err.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

static int parse(struct arena *a, const char *s, struct gitbook_yaml *g)
{
	return gitbook_yaml_parse(a, s, s ? strlen(s) : 0, g);
}

UNIT_TEST(gitbook_yaml_defaults_and_docs_examples)
{
	struct arena a;
	struct gitbook_yaml g;

	arena_init(&a);
	/* No file, an empty file, a file of comments: every default. */
	CHECK(parse(&a, NULL, &g) == 0);
	CHECK_STR(g.root, "");
	CHECK_STR(g.readme, "README.md");
	CHECK_STR(g.summary, "SUMMARY.md");
	CHECK(g.n_redirects == 0 && g.redirects == NULL);
	CHECK(parse(&a, "", &g) == 0 && !strcmp(g.readme, "README.md"));
	CHECK(parse(&a, "# just a comment\n", &g) == 0 && !strcmp(g.summary, "SUMMARY.md"));
	CHECK(parse(&a, "~\n", &g) == 0 && !strcmp(g.root, ""));

	/* GitBook's documented example. */
	CHECK(parse(&a,
		    "root: ./\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n\n"
		    "redirects:\n  previous/page: new-folder/page.md\n",
		    &g) == 0);
	CHECK_STR(g.root, "");
	CHECK_STR(g.readme, "README.md");
	CHECK_STR(g.summary, "SUMMARY.md");
	CHECK(g.n_redirects == 1);
	CHECK_STR(g.redirects[0].from, "previous/page");
	CHECK_STR(g.redirects[0].to, "new-folder/page.md");

	/* root: ./docs/ and structure in a product folder. */
	CHECK(parse(&a, "root: ./docs/\nstructure:\n  readme: ./product/README.md\n  summary: ./product/SUMMARY.md\n",
		    &g) == 0);
	CHECK_STR(g.root, "docs");
	CHECK_STR(g.readme, "product/README.md");
	CHECK_STR(g.summary, "product/SUMMARY.md");

	/* Only one structure key: the other keeps its default; unknown keys ignored. */
	CHECK(parse(&a, "structure:\n  summary: toc.md\nextra: [1, 2]\n", &g) == 0);
	CHECK_STR(g.readme, "README.md");
	CHECK_STR(g.summary, "toc.md");
	CHECK(parse(&a, "structure:\n", &g) == 0 && !strcmp(g.summary, "SUMMARY.md"));

	/* Redirects: a leading '/' on the source is a URL path; several entries, in order. */
	CHECK(parse(&a, "redirects:\n  /help: support.md\n  old/a: ./new//b/../a.md\n  \"x y\": 'z w.md'\n", &g) == 0);
	CHECK(g.n_redirects == 3);
	CHECK_STR(g.redirects[0].from, "help");
	CHECK_STR(g.redirects[0].to, "support.md");
	CHECK_STR(g.redirects[1].from, "old/a");
	CHECK_STR(g.redirects[1].to, "new/a.md");
	CHECK_STR(g.redirects[2].from, "x y");
	CHECK_STR(g.redirects[2].to, "z w.md");

	/* A flow-style file; CRLF; an alias reuses a path. */
	CHECK(parse(&a, "{root: docs, structure: {readme: a.md}}", &g) == 0);
	CHECK_STR(g.root, "docs");
	CHECK_STR(g.readme, "a.md");
	CHECK(parse(&a, "root: docs\r\nstructure:\r\n  readme: &r intro.md\r\nredirects:\r\n  start: *r\r\n", &g) == 0);
	CHECK_STR(g.readme, "intro.md");
	CHECK_STR(g.redirects[0].to, "intro.md");
	arena_free(&a);
}

UNIT_TEST(gitbook_yaml_rejects_bad_paths_and_types)
{
	struct arena a;
	struct gitbook_yaml g;

	arena_init(&a);
	CHECK(parse(&a, "root: /etc\n", &g) == ERR_INVALID);
	CHECK(strstr(err_message(), "root") && strstr(err_message(), "absolute"));
	CHECK(parse(&a, "root: ../outside\n", &g) == ERR_INVALID && strstr(err_message(), "root"));
	CHECK(parse(&a, "root: docs/../../x\n", &g) == ERR_INVALID);
	CHECK(parse(&a, "root: docs/..\n", &g) == 0 && !strcmp(g.root, ""));
	CHECK(parse(&a, "structure:\n  readme: ../README.md\n", &g) == ERR_INVALID &&
	      strstr(err_message(), "structure.readme"));
	CHECK(parse(&a, "structure:\n  summary: /SUMMARY.md\n", &g) == ERR_INVALID &&
	      strstr(err_message(), "structure.summary"));
	CHECK(parse(&a, "structure:\n  summary: ./\n", &g) == ERR_INVALID && strstr(err_message(), "must name a file"));
	CHECK(parse(&a, "redirects:\n  a: ../../etc/passwd\n", &g) == ERR_INVALID &&
	      strstr(err_message(), "redirects target"));
	CHECK(parse(&a, "redirects:\n  a/../..: b.md\n", &g) == ERR_INVALID && strstr(err_message(), "redirects key"));
	CHECK(parse(&a, "redirects:\n  /: b.md\n", &g) == ERR_INVALID && strstr(err_message(), "empty"));

	/* Wrong types, with their position. */
	CHECK(parse(&a, "root: [a]\n", &g) == ERR_INVALID && strstr(err_message(), "root must be a string"));
	CHECK(parse(&a, "root: docs\nstructure: README.md\n", &g) == ERR_INVALID &&
	      strstr(err_message(), "structure must be a mapping") && strstr(err_message(), "line 2, column 12"));
	CHECK(parse(&a, "redirects:\n  - a\n", &g) == ERR_INVALID && strstr(err_message(), "redirects must be a mapping"));
	CHECK(parse(&a, "redirects:\n  a: {b: c}\n", &g) == ERR_INVALID && strstr(err_message(), "line 2"));
	CHECK(parse(&a, "redirects:\n  a:\n", &g) == ERR_INVALID);
	CHECK(parse(&a, "- root\n", &g) == ERR_INVALID && strstr(err_message(), "mapping"));
	CHECK(parse(&a, "just text\n", &g) == ERR_INVALID);

	/* Syntax errors: libyaml's reason with line and column. */
	CHECK(parse(&a, "root: docs\nstructure:\n  readme: \"open\n", &g) == ERR_INVALID);
	CHECK(strstr(err_message(), "line 3") && strstr(err_message(), "column "));
	CHECK(parse(&a, "root: docs\n structure: x\n", &g) == ERR_INVALID && strstr(err_message(), "line 2"));
	CHECK(parse(&a, "root: a\n---\nroot: b\n", &g) == ERR_INVALID && strstr(err_message(), "more than one"));
	CHECK(gitbook_yaml_parse(&a, "root: a\0b\n", 10, &g) == ERR_INVALID);
	CHECK(parse(&a, "root: \xff\n", &g) == ERR_INVALID);
	err_clear();
	arena_free(&a);
}

UNIT_TEST(gitbook_yaml_bounds)
{
	struct arena a;
	struct gitbook_yaml g;
	yaml_document_t doc;
	char *big = malloc(100000);
	size_t n = 0;

	CHECK(big != NULL);
	if (!big)
		return;
	arena_init(&a);
	for (int i = 0; i < 33; i++)
		big[n++] = '[';
	for (int i = 0; i < 33; i++)
		big[n++] = ']';
	CHECK(gitbook_yaml_parse(&a, big, n, &g) == ERR_INVALID && strstr(err_message(), "deeper"));
	/* 32 levels is allowed (by the loader: not a mapping for .gitbook.yaml). */
	CHECK(yaml_load_bounded(&doc, big + 1, n - 2, 1) == 0);
	yaml_document_delete(&doc);
	n = (size_t)sprintf(big, "a: &a x\nb: [");
	for (int i = 0; i < 65; i++)
		n += (size_t)sprintf(big + n, "*a, ");
	n += (size_t)sprintf(big + n, "*a]\n");
	CHECK(gitbook_yaml_parse(&a, big, n, &g) == ERR_INVALID && strstr(err_message(), "aliases"));
	memset(big, ' ', 70000);
	CHECK(gitbook_yaml_parse(&a, big, 70000, &g) == ERR_INVALID && strstr(err_message(), "larger"));
	/* An undefined alias is an error, not a crash. */
	CHECK(parse(&a, "root: *nope\n", &g) == ERR_INVALID);
	err_clear();
	free(big);
	arena_free(&a);
}

/* Levels of ten aliases over a string of w bytes, as YAML: `prefix` first
 * (e.g. "---\n" for front matter), then a: &a "xxx", b: &b [*a x10], ... Each
 * level multiplies the expanded size by ten; the text stays tiny. */
static size_t alias_levels(char *buf, const char *prefix, int levels, size_t w)
{
	size_t n = (size_t)sprintf(buf, "%sl0: &l0 \"", prefix);

	memset(buf + n, 'x', w);
	n += w;
	n += (size_t)sprintf(buf + n, "\"\n");
	for (int l = 1; l <= levels; l++) {
		n += (size_t)sprintf(buf + n, "l%d: &l%d [", l, l);
		for (int k = 0; k < 10; k++)
			n += (size_t)sprintf(buf + n, "%s*l%d", k ? ", " : "", l - 1);
		n += (size_t)sprintf(buf + n, "]\n");
	}
	return n;
}

/* Aliases are bounded by the bytes they expand to, not only by their number:
 * four levels of ten over 1,000 bytes is 10 MB written out, from 400 bytes. */
UNIT_TEST(gitbook_yaml_expansion_is_bounded_in_bytes)
{
	struct arena a;
	struct gitbook_yaml g;
	struct md_front fm;
	yaml_document_t doc;
	char *buf = malloc(8192), msg[64];
	size_t n, used = 0;

	CHECK(buf != NULL);
	if (!buf)
		return;
	arena_init(&a);
	snprintf(msg, sizeof(msg), "expands to more than %zu bytes", YAML_MAX_EXPANDED_BYTES);
	/* 40 aliases (under YAML_MAX_ALIASES), past the byte budget: refused, naming it */
	n = alias_levels(buf, "", 4, 1000);
	CHECK(gitbook_yaml_parse(&a, buf, n, &g) == ERR_INVALID);
	CHECK(strstr(err_message(), msg) != NULL);
	CHECK(strstr(err_message(), "line 4") != NULL); /* the alias that went past it */
	/* two levels (~100 KB written out) are under it */
	n = alias_levels(buf, "", 2, 1000);
	CHECK(gitbook_yaml_parse(&a, buf, n, &g) == 0);
	/* the count: a scalar is its length + 1, a collection 1, an alias what it repeats */
	CHECK(yaml_load_sized(&doc, "a: b", 4, 1, 100, 100, &used) == 0 && used == 5);
	yaml_document_delete(&doc);
	CHECK(yaml_load_sized(&doc, "a: &x [b]\nc: *x\n", 16, 1, 100, 100, &used) == 0 && used == 1 + 2 + 3 + 2 + 3);
	yaml_document_delete(&doc);
	CHECK(yaml_load_sized(&doc, "a: &x [b]\nc: *x\n", 16, 1, 100, 10, &used) == ERR_INVALID);
	CHECK(strstr(err_message(), "more than 10 bytes") && strstr(err_message(), "line 2"));
	/* empty collections cost something too: [] aliased is not free */
	CHECK(yaml_load_sized(&doc, "a: &x []\nb: [*x, *x, *x]\n", 25, 1, 100, 8, &used) == ERR_INVALID);
	/* a recursive alias (an infinite document) is refused */
	CHECK(gitbook_yaml_parse(&a, "a: &a [x, *a]\n", 14, &g) == ERR_INVALID && strstr(err_message(), "recursive"));
	CHECK(gitbook_yaml_parse(&a, "a: &a {b: *a}\n", 14, &g) == ERR_INVALID && strstr(err_message(), "recursive"));
	/* front matter goes through the same loader: an error in the page, not a crash */
	n = alias_levels(buf, "---\n", 4, 1000);
	n += (size_t)sprintf(buf + n, "---\n# Page\n");
	CHECK(md_frontmatter(&a, buf, n, &fm) == 0);
	CHECK(fm.present && fm.error && strstr(fm.error, msg));
	n = alias_levels(buf, "---\ntitle: ok\n", 2, 1000);
	n += (size_t)sprintf(buf + n, "---\n# Page\n");
	CHECK(md_frontmatter(&a, buf, n, &fm) == 0 && !fm.error && fm.title && strcmp(fm.title, "ok") == 0);
	err_clear();
	free(buf);
	arena_free(&a);
}

UNIT_TEST(gitbook_yaml_fuzz)
{
	static const char *const pieces[] = {
		"root: ", "structure:\n", "  readme: ", "  summary: ", "redirects:\n", "  ", "a/b.md", "../",
		"/", "./", "\n", "- ", "&a ", "*a ", "[", "]", "{", "}", ", ", "\"", "'", "? ", ": ", "\t", "\r\n",
		"\xc3\xa9", "\xff", "\x00", "~", "---\n", "!!map ", "%TAG ! x\n", ">\n", "|-\n", "#",
	};
	unsigned seed = 1913;
	char s[600];

	for (int round = 0; round < 3000; round++) {
		struct arena a;
		struct gitbook_yaml g;
		size_t n = 0, want = (size_t)(rand_r(&seed) % 500);
		int rc;

		while (n < want) {
			const char *p = pieces[rand_r(&seed) % (sizeof(pieces) / sizeof(pieces[0]))];
			size_t pl = p[0] ? strlen(p) : 1;

			memcpy(s + n, p, pl);
			n += pl;
		}
		arena_init(&a);
		rc = gitbook_yaml_parse(&a, s, n, &g);
		CHECK(rc == 0 || rc == ERR_INVALID);
		if (rc == 0) {
			CHECK(g.root && g.readme && g.summary && *g.readme && *g.summary);
			CHECK(g.root[0] != '/' && strncmp(g.root, "..", 2) != 0 && strncmp(g.readme, "..", 2) != 0);
			for (size_t i = 0; i < g.n_redirects; i++)
				CHECK(g.redirects[i].to[0] != '/' && !strstr(g.redirects[i].to, "../"));
		} else {
			CHECK(err_message()[0] != '\0');
		}
		err_clear();
		arena_free(&a);
	}
}

UNIT_TEST(gitbook_yaml_error_messages_name_key_and_position)
{
	struct arena a;
	struct gitbook_yaml g;

	arena_init(&a);
	CHECK(parse(&a, "root: docs\nredirects:\n  a: ../../x\n", &g) == ERR_INVALID);
	CHECK_STR(err_message(), "redirects target: the path leaves its root (\"..\") (line 3, column 6)");
	CHECK(parse(&a, "root: /abs\n", &g) == ERR_INVALID);
	CHECK_STR(err_message(), "root: must be a relative path, not an absolute one (line 1, column 7)");
	CHECK(parse(&a, "root: docs\n structure: x\n", &g) == ERR_INVALID);
	CHECK_STR(err_message(), "line 2, column 11: mapping values are not allowed in this context");
	CHECK(parse(&a, "root: docs\nstructure:\n  readme: \"open\n", &g) == ERR_INVALID);
	CHECK_STR(err_message(),
		  "line 4, column 1: found unexpected end of stream (while scanning a quoted scalar started at line 3)");
	err_clear();
	arena_free(&a);
}
