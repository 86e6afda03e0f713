/*
 * md_translate: the segments of a page and the page put back together with
 * their translations, through a fake engine (upper-casing, or wrapping each
 * segment in markup-looking text), so the structure is checked without
 * Apertium: code, links, images, HTML, tables, task lists, template tags and
 * frontmatter come out as they went in. The page is the source with its
 * words replaced, so an identity engine gives it back byte for byte, and
 * footnotes, reference links, entities and control characters survive
 * (issue 19, 7b: "[^1]: note" came back as an inline link, U+0001 as
 * "&#1;").
 */
#include "format/md_translate.h"
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

/* md, translated by f, renders as want (checked at the caller's line). */
#define CHECK_TRANSLATES(a, md, f, want)                      \
	do {                                                  \
		int rc_;                                      \
		char *out_ = translate((a), (md), (f), &rc_); \
		CHECK(rc_ == 0 && out_);                      \
		if (out_)                                     \
			CHECK_STR(out_, (want));              \
	} while (0)

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
		CHECK(strstr(out, "* SECOND _ITEM_\n") != NULL);
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
	/* (The page's last line is left out: a translation written right
	 * after an autolink would extend it, see md_translate_refuses_...) */
	out = translate(&a, arena_strndup(&a, page, (size_t)(strstr(page, "Mail me@") - page)), hostile, &rc);
	CHECK(rc == 0);
	CHECK(out != NULL);
	if (out) {
		CHECK(strstr(out, "\\[x\\]") != NULL && strstr(out, "[x](") == NULL);
		CHECK(strstr(out, "echo \"hello world\" # not translated\n") != NULL);
		/* a '|' in a table cell is escaped; the heading stays one */
		CHECK(strstr(out, "| \\| pipe \\| |") != NULL || strstr(out, "\\| pipe \\|") != NULL);
		CHECK(strstr(out, "\n# ") != NULL || strncmp(out + 37, "# ", 2) == 0);
		/* a translation that reads as a list, a quote or a heading at the
		 * start of a line is escaped */
		CHECK(strstr(out, "\n- item") == NULL && strstr(out, "\n> quote") == NULL);
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

/* The text after an autolink becomes "more": written right after the
 * link, it would become part of its address. */
static const char **more(struct arena *a, const struct md_tr *t)
{
	int n = md_tr_count(t);
	const char **out = arena_alloc(a, sizeof(*out) * (size_t)(n + 1));

	for (int i = 0; out && i < n; i++)
		out[i] = i == n - 1 ? "more" : md_tr_segment(t, i);
	return out;
}

static const char **hostile_entity(struct arena *a, const struct md_tr *t)
{
	int n = md_tr_count(t);
	const char **out = arena_alloc(a, sizeof(*out) * (size_t)(n + 1));

	for (int i = 0; out && i < n; i++)
		out[i] = "&copy; _x_";
	return out;
}

UNIT_TEST(md_translate_refuses_a_changed_structure)
{
	struct arena a;
	int rc;

	arena_init(&a);
	/* A URL in a translation stays text: escaped, it is no autolink. */
	CHECK_TRANSLATES(&a, "Hello world.\n", url, "see https\\:\\/\\/evil\\.example\\.com now\n");
	CHECK(translate(&a, "See www.example.org, then\n", more, &rc) == NULL);
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
	/* the page itself, byte for byte */
	if (once)
		CHECK_STR(once, page);
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
	/* invalid UTF-8 and binary do not crash; what cmark would replace
	 * stays as it was */
	out = translate(&a, "bad \xff\xfe bytes \x01 here\n", upper, &rc);
	CHECK(rc == 0 && out && strcmp(out, "BAD \xff\xfe BYTES \x01 HERE\n") == 0);
	out = translate(&a, "cut \xe2\x82 short, real \xef\xbf\xbd one\n", upper, &rc);
	CHECK(rc == 0 && out && strcmp(out, "CUT \xe2\x82 SHORT, REAL \xef\xbf\xbd ONE\n") == 0);
	/* CRLF and a lone CR end lines */
	out = translate(&a, "one line\r\ntwo line\rthree\r\n", upper, &rc);
	CHECK(rc == 0 && out && strcmp(out, "ONE LINE\r\nTWO LINE\rTHREE\r\n") == 0);
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

static const char gfm_page[] =
	"Setext title\n"
	"============\n"
	"\n"
	"Intro with a footnote[^note] and another[^2].\n"
	"   An indented continuation line with *emphasis* here.\n"
	"A hard break follows  \n"
	"and a backslash break\\\n"
	"ends it.\n"
	"\n"
	"[^note]: The footnote text.\n"
	"[^2]: Second note with `code` inside.\n"
	"\n"
	"| Left | Center | Right |\n"
	"|:-----|:------:|------:|\n"
	"| one \\| pipe | two | `three` |\n"
	"\n"
	"- [x] done task\n"
	"- [ ] open ~~old~~ task\n"
	"\n"
	"1) ordered item\n"
	"2) second item\n"
	"   + nested plus item\n"
	"\n"
	"> Quote line\n"
	"lazy continuation\n"
	">   indented quote text\n"
	"\n"
	"Links: [inline](https://x.example/a \"T\"), [ref link][ref], <https://auto.example/b>, www.example.org and https://bare.example/c.\n"
	"\n"
	"[ref]: https://ref.example/r \"Ref title\"\n"
	"\n"
	"<details>\n"
	"<summary>Raw summary</summary>\n"
	"Raw body\n"
	"</details>\n"
	"\n"
	"Inline <span class=\"k\">html span</span> text.\n"
	"\n"
	"    indented code block\n"
	"\n"
	"~~~ python\n"
	"print(\"fenced\")\n"
	"~~~\n"
	"\n"
	"{% hint style=\"warning\" %}\n"
	"Hint body text.\n"
	"{% endhint %}\n"
	"\n"
	"{% tabs %}\n"
	"{% tab title=\"First tab\" %}\n"
	"Tab body.\n"
	"{% endtab %}\n"
	"{% endtabs %}\n"
	"\n"
	"Entities &copy; and &amp; stay, escaped \\*stars\\* too.\n"
	"Control chars aab\x01" "cd\x7f" " done\r\n"
	"Windows line\r\n";

static const char gfm_page_upper[] =
	"SETEXT TITLE\n"
	"============\n"
	"\n"
	"INTRO WITH A FOOTNOTE[^note] AND ANOTHER[^2].\n"
	"   AN INDENTED CONTINUATION LINE WITH *EMPHASIS* HERE.\n"
	"A HARD BREAK FOLLOWS  \n"
	"AND A BACKSLASH BREAK\\\n"
	"ENDS IT.\n"
	"\n"
	"[^note]: THE FOOTNOTE TEXT.\n"
	"[^2]: SECOND NOTE WITH `code` INSIDE.\n"
	"\n"
	"| LEFT | CENTER | RIGHT |\n"
	"|:-----|:------:|------:|\n"
	"| ONE \\| PIPE | TWO | `three` |\n"
	"\n"
	"- [x] DONE TASK\n"
	"- [ ] OPEN ~~OLD~~ TASK\n"
	"\n"
	"1) ORDERED ITEM\n"
	"2) SECOND ITEM\n"
	"   + NESTED PLUS ITEM\n"
	"\n"
	"> QUOTE LINE\n"
	"LAZY CONTINUATION\n"
	">   INDENTED QUOTE TEXT\n"
	"\n"
	"LINKS: [INLINE](https://x.example/a \"T\"), [REF LINK][ref], <https://auto.example/b>, www.example.org AND https://bare.example/c.\n"
	"\n"
	"[ref]: https://ref.example/r \"Ref title\"\n"
	"\n"
	"<details>\n"
	"<summary>Raw summary</summary>\n"
	"Raw body\n"
	"</details>\n"
	"\n"
	"INLINE <span class=\"k\">HTML SPAN</span> TEXT.\n"
	"\n"
	"    indented code block\n"
	"\n"
	"~~~ python\n"
	"print(\"fenced\")\n"
	"~~~\n"
	"\n"
	"{% hint style=\"warning\" %}\n"
	"HINT BODY TEXT.\n"
	"{% endhint %}\n"
	"\n"
	"{% tabs %}\n"
	"{% tab title=\"First tab\" %}\n"
	"TAB BODY.\n"
	"{% endtab %}\n"
	"{% endtabs %}\n"
	"\n"
	"ENTITIES \xc2" "\xa9" " AND & STAY, ESCAPED \\*STARS\\* TOO.\n"
	"CONTROL CHARS AAB\x01" "CD\x7f" " DONE\r\n"
	"WINDOWS LINE\r\n";

/* Every GFM structure of the page comes back as it was written: only the
 * words changed (setext heading, footnotes, continuation lines, hard breaks,
 * aligned table with an escaped pipe, task lists, strikethrough, ')' lists,
 * lazy quote, links by reference, autolinks, HTML blocks and inline HTML,
 * indented and '~~~' code, GitBook blocks, entities, escapes, control
 * characters, CRLF). */
UNIT_TEST(md_translate_keeps_every_gfm_structure)
{
	struct arena a;

	arena_init(&a);
	CHECK_TRANSLATES(&a, gfm_page, upper, gfm_page_upper);
	CHECK_TRANSLATES(&a, gfm_page, same, gfm_page);
	arena_free(&a);
}

/* Issue 19, 7b: a footnote stays a footnote (its definition's text is
 * translated), a control character stays that character. */
UNIT_TEST(md_translate_footnotes_and_control_characters)
{
	struct arena a;
	struct md_tr *t = NULL;

	arena_init(&a);
	CHECK_TRANSLATES(&a, "c[^1]\n\n[^1]: note\n", upper, "C[^1]\n\n[^1]: NOTE\n");
	CHECK_TRANSLATES(&a, "c[^1]\n\n[^1]: note\n", same, "c[^1]\n\n[^1]: note\n");
	/* a footnote with several paragraphs, referenced twice */
	CHECK_TRANSLATES(&a, "a[^n] b[^n]\n\n[^n]: first\n\n    second para\n", upper,
			 "A[^n] B[^n]\n\n[^n]: FIRST\n\n    SECOND PARA\n");

	CHECK_TRANSLATES(&a, "x\x01y\n", upper, "X\x01Y\n");
	/* control characters are never sent to the engine */
	CHECK(md_tr_parse(&a, "Hello\x01world and\x7f more \xc2\x85 text\n", 30, &t) == 0);
	if (t) {
		CHECK(md_tr_count(t) == 4);
		CHECK_STR(md_tr_segment(t, 0), "Hello");
		CHECK_STR(md_tr_segment(t, 1), "world and");
		CHECK_STR(md_tr_segment(t, 2), "more");
		CHECK_STR(md_tr_segment(t, 3), "text");
	}
	md_tr_free(t);
	CHECK_TRANSLATES(&a, "Hello\x01world and\x7f more \xc2\x85 text\n", upper,
			 "HELLO\x01WORLD AND\x7f MORE \xc2\x85 TEXT\n");
	/* written as an entity, it stays the entity */
	CHECK_TRANSLATES(&a, "a &#1; b c\n", upper, "A &#1; B C\n");
	arena_free(&a);
}

/* Text whose source is escapes and entities is found and replaced whole. */
UNIT_TEST(md_translate_escapes_and_entities)
{
	struct arena a;

	arena_init(&a);
	CHECK_TRANSLATES(&a, "Caf&eacute; \\*not em\\* &amp; more\n", upper, "CAF\xc3\xa9 \\*NOT EM\\* & MORE\n");
	/* a translation holding "&copy;" is written so that it reads "&copy;" */
	CHECK_TRANSLATES(&a, "Hello\n", hostile_entity, "\\&copy; \\_x\\_\n");
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
