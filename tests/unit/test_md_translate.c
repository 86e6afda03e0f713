/*
 * md_translate: the segments of a page and the page put back together with
 * their translations, through a fake engine (upper-casing, or wrapping each
 * segment in markup-looking text), so the structure is checked without
 * Apertium: code, links, images, HTML, tables, task lists, template tags and
 * frontmatter come out as they went in.
 */
#include "core/md_translate.h"
#include "util/arena.h"
#include "util/err.h"
#include "unit.h"

#include <ctype.h>
#include <stdlib.h>

/* The fake engine: every segment upper-cased (ASCII). */
static const char **upper(struct arena *a, const struct md_tr *t)
{
	int n = md_tr_count(t);
	const char **out = arena_alloc(a, sizeof(*out) * (size_t)(n + 1));

	for (int i = 0; out && i < n; i++) {
		char *s = arena_strdup(a, md_tr_segment(t, i));
		for (char *p = s; p && *p; p++)
			*p = (char)toupper((unsigned char)*p);
		out[i] = s;
	}
	return out;
}

/* md translated by f; NULL when md_tr_* failed (the code in *rc). */
static char *translate(struct arena *a, const char *md, const char **(*f)(struct arena *, const struct md_tr *),
		       int *rc)
{
	struct md_tr *t = NULL;
	char *out = NULL;

	*rc = md_tr_parse(a, md, strlen(md), &t);
	if (*rc == 0)
		*rc = md_tr_render(t, f(a, t), &out);
	md_tr_free(t);
	return out;
}

static const char page[] =
	"---\n"
	"description: Keep me as I am\n"
	"---\n"
	"# Getting started\n"
	"\n"
	"Welcome to the **guide**. See [the setup page](./setup.md \"Setup title\") and https://example.com/a_b?x=1&y=2.\n"
	"Use `make install` with a ![flow diagram](https://img.example.com/flow.png).\n"
	"\n"
	"{% hint style=\"info\" %}\n"
	"A hint with a [link](/pages/abc123).\n"
	"{% endhint %}\n"
	"\n"
	"* first item\n"
	"* second _item_\n"
	"  1. nested one\n"
	"  2. nested two\n"
	"\n"
	"- [x] done task\n"
	"- [ ] open task\n"
	"\n"
	"> A quote.\n"
	"\n"
	"| Name | Description |\n"
	"| --- | --- |\n"
	"| cat | The animal |\n"
	"\n"
	"```bash\n"
	"echo \"hello world\" # not translated\n"
	"```\n"
	"\n"
	"<div class=\"note\">raw html stays</div>\n"
	"\n"
	"Mail me@example.com or visit www.example.org, 42 times: 3.14.\n";

UNIT_TEST(md_translate_segments)
{
	struct arena a;
	struct md_tr *t = NULL;

	arena_init(&a);
	CHECK(md_tr_parse(&a, page, strlen(page), &t) == 0);
	if (t) {
		static const char *const want[] = {
			"Getting started", "Welcome to the", "guide", ". See", "the setup page", "and",
			"Use", "with a", "flow diagram", "A hint with a", "link", "first item", "second",
			"item", "nested one", "nested two", "done task", "open task", "A quote.", "Name",
			"Description", "cat", "The animal", "raw html stays" /* no: an HTML block is not text */,
		};
		int n = md_tr_count(t);
		/* The list above up to "The animal" (23), then "Mail", "or visit", ", 42 times: 3.14." */
		CHECK(n == 26);
		for (int i = 0; i < 23 && i < n; i++)
			CHECK_STR(md_tr_segment(t, i), want[i]);
		CHECK_STR(md_tr_segment(t, 23), "Mail");
		CHECK_STR(md_tr_segment(t, 24), "or visit");
		CHECK_STR(md_tr_segment(t, 25), ", 42 times: 3.14.");
		CHECK(md_tr_segment(t, 26) == NULL);
	}
	md_tr_free(t);
	arena_free(&a);
}

UNIT_TEST(md_translate_keeps_structure)
{
	struct arena a;
	int rc;
	char *out;

	arena_init(&a);
	out = translate(&a, page, upper, &rc);
	CHECK(rc == 0);
	if (out) {
		/* frontmatter verbatim */
		CHECK(strncmp(out, "---\ndescription: Keep me as I am\n---\n", 37) == 0);
		CHECK(strstr(out, "# GETTING STARTED\n") != NULL);
		CHECK(strstr(out, "WELCOME TO THE **GUIDE**") != NULL);
		CHECK(strstr(out, "[THE SETUP PAGE](./setup.md \"Setup title\")") != NULL);
		CHECK(strstr(out, "https://example.com/a_b?x=1&y=2") != NULL);
		CHECK(strstr(out, "`make install`") != NULL);
		CHECK(strstr(out, "![FLOW DIAGRAM](https://img.example.com/flow.png)") != NULL);
		CHECK(strstr(out, "{% hint style=\"info\" %}") != NULL);
		CHECK(strstr(out, "{% endhint %}") != NULL);
		CHECK(strstr(out, "[LINK](/pages/abc123)") != NULL);
		CHECK(strstr(out, "FIRST ITEM") != NULL);
		CHECK(strstr(out, "*ITEM*") != NULL);
		CHECK(strstr(out, "[x] DONE TASK") != NULL);
		CHECK(strstr(out, "[ ] OPEN TASK") != NULL);
		CHECK(strstr(out, "> A QUOTE.") != NULL);
		CHECK(strstr(out, "| CAT | THE ANIMAL |") != NULL);
		CHECK(strstr(out, "echo \"hello world\" # not translated\n") != NULL);
		CHECK(strstr(out, "<div class=\"note\">raw html stays</div>") != NULL);
		CHECK(strstr(out, "me@example.com") != NULL);
		CHECK(strstr(out, "www.example.org") != NULL);
		CHECK(strstr(out, "MAIL") != NULL);
	}
	arena_free(&a);
}

/* Translations that look like markup are escaped, never read as markup. */
static const char **hostile(struct arena *a, const struct md_tr *t)
{
	static const char *const forms[] = { "*a* [x](evil.md) `c`", "# not a heading", "1. not a list",
					     "<b>html</b> & <!-- c -->", "line\nbreak", "| pipe |", "> quote",
					     "{% raw %}", "- item", "![i](x.png)" };
	int n = md_tr_count(t);
	const char **out = arena_alloc(a, sizeof(*out) * (size_t)(n + 1));

	for (int i = 0; out && i < n; i++)
		out[i] = forms[i % (int)(sizeof(forms) / sizeof(forms[0]))];
	return out;
}

UNIT_TEST(md_translate_escapes_markup_in_translations)
{
	struct arena a;
	int rc;
	char *out;

	arena_init(&a);
	out = translate(&a, page, hostile, &rc);
	CHECK(rc == 0);
	CHECK(out != NULL);
	if (out) {
		CHECK(strstr(out, "\\[x\\](evil.md)") != NULL);
		CHECK(strstr(out, "echo \"hello world\" # not translated\n") != NULL);
	}
	arena_free(&a);
}

/* Translating a translation changes nothing more: an identity engine gives a
 * page that parses to the same text. */
static const char **same(struct arena *a, const struct md_tr *t)
{
	int n = md_tr_count(t);
	const char **out = arena_alloc(a, sizeof(*out) * (size_t)(n + 1));

	for (int i = 0; out && i < n; i++)
		out[i] = md_tr_segment(t, i);
	return out;
}

/* A translation that holds a URL would become a link (GFM autolinks): the
 * page is refused rather than given a link its source does not have. */
static const char **url(struct arena *a, const struct md_tr *t)
{
	int n = md_tr_count(t);
	const char **out = arena_alloc(a, sizeof(*out) * (size_t)(n + 1));

	for (int i = 0; out && i < n; i++)
		out[i] = "see https://evil.example.com now";
	return out;
}

UNIT_TEST(md_translate_refuses_a_changed_structure)
{
	struct arena a;
	int rc;

	arena_init(&a);
	CHECK(translate(&a, "Hello world.\n", url, &rc) == NULL);
	CHECK(rc == ERR_INVALID);
	arena_free(&a);
}

UNIT_TEST(md_translate_identity_is_stable)
{
	struct arena a;
	int rc;
	char *once, *twice;

	arena_init(&a);
	once = translate(&a, page, same, &rc);
	CHECK(rc == 0 && once);
	twice = once ? translate(&a, once, same, &rc) : NULL;
	CHECK(rc == 0 && twice);
	if (once && twice)
		CHECK_STR(once, twice);
	arena_free(&a);
}

UNIT_TEST(md_translate_edges)
{
	struct arena a;
	int rc;
	char *out;

	arena_init(&a);
	out = translate(&a, "", upper, &rc);
	CHECK(rc == 0 && out && strcmp(out, "") == 0);
	/* nothing to translate: the bytes as they were */
	out = translate(&a, "* 1\n* 2\n\n```\nx\n```\n", upper, &rc);
	CHECK(rc == 0 && out && strcmp(out, "* 1\n* 2\n\n```\nx\n```\n") == 0);
	out = translate(&a, "```\nonly code\n```\n", upper, &rc);
	CHECK(rc == 0 && out && strstr(out, "only code"));
	out = translate(&a, "{{ variable }} and {% unclosed tag\n", upper, &rc);
	CHECK(rc == 0 && out && strstr(out, "{{ variable }} AND {% UNCLOSED TAG"));
	/* invalid UTF-8 and binary do not crash */
	out = translate(&a, "bad \xff\xfe bytes \x01 here\n", upper, &rc);
	CHECK(rc == 0 && out);
	/* deep nesting */
	{
		char deep[4096];
		size_t k = 0;
		for (int i = 0; i < 1000; i++)
			deep[k++] = '>';
		memcpy(deep + k, " deep text\n", 12);
		out = translate(&a, deep, upper, &rc);
		CHECK(rc == 0 && out && strstr(out, "DEEP TEXT"));
	}
	arena_free(&a);
}

UNIT_TEST(md_translate_rules)
{
	CHECK(md_tr_translatable("Hello", 5));
	CHECK(md_tr_translatable("caf\xc3\xa9", 5));
	CHECK(!md_tr_translatable("42, 3.14", 8));
	CHECK(!md_tr_translatable("https://x.org/a", 15));
	CHECK(!md_tr_translatable("www.x.org", 9));
	CHECK(!md_tr_translatable("me@example.com", 14));
	CHECK(md_tr_translatable("write to me @ home.", 19));
	CHECK(md_tr_words("") == 0);
	CHECK(md_tr_words("Hello, world! 42 caf\xc3\xa9s") == 4);
	CHECK(md_tr_words("  one  ") == 1);
}
