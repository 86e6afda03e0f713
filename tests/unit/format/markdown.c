/* markdown: GitBook documents, sections, links, title, frontmatter, rewriting */
#include "format/markdown.h"
#include "util/arena.h"
#include "unit.h"

#include <jansson.h>
#include <stdlib.h>

/* The document of md parsed back with jansson (NULL if it is not JSON). */
static json_t *doc_of(const char *md)
{
	struct jw w;
	json_error_t e;
	json_t *v = NULL;

	jw_init(&w);
	if (md_to_document(&w, md, strlen(md)) == 0 && jw_ok(&w))
		v = json_loadb(w.buf, w.len, 0, &e);
	jw_free(&w);
	return v;
}

/* Appends "type," for every block and inline below v, depth first. */
static void types_of(json_t *v, char *out, size_t cap)
{
	json_t *nodes = json_object_get(v, "nodes"), *n;
	size_t i;

	json_array_foreach(nodes, i, n) {
		const char *obj = json_string_value(json_object_get(n, "object"));

		if (obj && (!strcmp(obj, "block") || !strcmp(obj, "inline"))) {
			size_t l = strlen(out);

			snprintf(out + l, cap - l, "%s,", json_string_value(json_object_get(n, "type")));
		}
		types_of(n, out, cap);
	}
}

/* Counts "key" members below v and checks each is unique (keys[] collects them). */
static int keys_unique(json_t *v, json_t *seen)
{
	const char *k;
	json_t *x;
	size_t i;
	int ok = 1;

	if (json_is_object(v)) {
		json_t *key = json_object_get(v, "key");

		if (json_is_string(key)) {
			if (json_object_get(seen, json_string_value(key)))
				ok = 0;
			json_object_set_new(seen, json_string_value(key), json_true());
		}
		json_object_foreach(v, k, x) ok &= keys_unique(x, seen);
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, x) ok &= keys_unique(x, seen);
	}
	return ok;
}

/* The concatenated leaf text below v. */
static void text_of(json_t *v, char *out, size_t cap)
{
	json_t *x;
	size_t i;

	if (json_is_object(v)) {
		const char *obj = json_string_value(json_object_get(v, "object"));

		if (obj && !strcmp(obj, "leaf")) {
			size_t l = strlen(out);

			snprintf(out + l, cap - l, "%s", json_string_value(json_object_get(v, "text")));
			return;
		}
		text_of(json_object_get(v, "leaves"), out, cap);
		text_of(json_object_get(v, "nodes"), out, cap);
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, x) text_of(x, out, cap);
	}
}

/* CHECK_STR for long strings: prints both in full when they differ. */
static int same(const char *got, const char *want)
{
	if (got && want && !strcmp(got, want))
		return 1;
	fprintf(stderr, "  got:  \"%s\"\n  want: \"%s\"\n", got ? got : "(null)", want);
	return 0;
}

static json_t *node_at(json_t *doc, size_t i)
{
	return json_array_get(json_object_get(doc, "nodes"), i);
}

static const char *str_at(json_t *v, const char *path)
{
	char buf[256], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (tok = strtok_r(buf, ".", &save); tok && v; tok = strtok_r(NULL, ".", &save)) {
		if (tok[0] >= '0' && tok[0] <= '9')
			v = json_array_get(v, strtoul(tok, NULL, 10));
		else
			v = json_object_get(v, tok);
	}
	return json_string_value(v);
}

static const char rich_md[] =
	"---\ntitle: Front\n---\n"
	"# Getting started\n"
	"\n"
	"Some **bold _both_** and `code` and ~~gone~~ text with a [page](/pages/abc123),\n"
	"a [file](/files/f1), an [anchor](#setup), [x](/pages/p9#intro) and [web](https://example.com).\n"
	"\n"
	"![Logo](/files/logo1 \"The logo\")\n"
	"\n"
	"## Setup\n"
	"\n"
	"1. first\n"
	"2. second\n"
	"\n"
	"- [ ] todo\n"
	"- [x] done\n"
	"\n"
	"* plain ![inline](https://img/x.png) item\n"
	"\n"
	"> quoted\n"
	"\n"
	"```js title\n"
	"let a = 1;\n"
	"\n"
	"let b = 2;\n"
	"```\n"
	"\n"
	"---\n"
	"\n"
	"| Name | Value |\n"
	"|:-----|------:|\n"
	"| a    | **1** |\n"
	"| b    |       |\n"
	"\n"
	"#### Deep heading\n"
	"\n"
	"# Setup\n";

UNIT_TEST(markdown_document_blocks)
{
	json_t *doc = doc_of(rich_md), *seen = json_object(), *n, *t;
	char types[2048] = "", text[1024] = "";

	CHECK(doc != NULL);
	if (!doc)
		return;
	CHECK_STR(str_at(doc, "object"), "document");
	CHECK(json_is_object(json_object_get(doc, "data")));
	types_of(doc, types, sizeof(types));
	CHECK(same(types, "heading-1,paragraph,link,link,link,link,link,images,image,heading-2,"
			 "list-ordered,list-item,paragraph,list-item,paragraph,"
			 "list-tasks,list-item,paragraph,list-item,paragraph,"
			 "list-unordered,list-item,paragraph,inline-image,"
			 "blockquote,paragraph,code,code-line,code-line,code-line,divider,table,heading-3,heading-1,"));
	CHECK(keys_unique(doc, seen));
	json_decref(seen);

	/* Heading: data, anchor in meta, text. */
	n = node_at(doc, 0);
	CHECK_STR(str_at(n, "meta.id"), "getting-started");
	CHECK(json_is_object(json_object_get(n, "data")));
	text_of(n, text, sizeof(text));
	CHECK_STR(text, "Getting started");
	CHECK_STR(str_at(node_at(doc, 3), "meta.id"), "setup");
	CHECK_STR(str_at(node_at(doc, 12), "meta.id"), "setup-1");

	/* Paragraph: leaves and marks, links with their refs. */
	n = node_at(doc, 1);
	text[0] = '\0';
	text_of(n, text, sizeof(text));
	CHECK_STR(text, "Some bold both and code and gone text with a page, a file, an anchor, x and web.");
	t = json_array_get(json_object_get(n, "nodes"), 0);
	CHECK_STR(str_at(t, "object"), "text");
	CHECK_STR(str_at(t, "leaves.0.text"), "Some ");
	CHECK(json_array_size(json_object_get(json_array_get(json_object_get(t, "leaves"), 0), "marks")) == 0);
	CHECK_STR(str_at(t, "leaves.1.text"), "bold ");
	CHECK_STR(str_at(t, "leaves.1.marks.0.type"), "bold");
	CHECK_STR(str_at(t, "leaves.2.text"), "both");
	CHECK_STR(str_at(t, "leaves.2.marks.0.type"), "bold");
	CHECK_STR(str_at(t, "leaves.2.marks.1.type"), "italic");
	CHECK_STR(str_at(t, "leaves.4.text"), "code");
	CHECK_STR(str_at(t, "leaves.4.marks.0.type"), "code");
	CHECK_STR(str_at(t, "leaves.6.marks.0.type"), "strikethrough");
	CHECK_STR(str_at(n, "nodes.1.type"), "link");
	CHECK_STR(str_at(n, "nodes.1.data.ref.kind"), "page");
	CHECK_STR(str_at(n, "nodes.1.data.ref.page"), "abc123");
	CHECK_STR(str_at(n, "nodes.1.nodes.0.leaves.0.text"), "page");
	CHECK_STR(str_at(n, "nodes.3.data.ref.kind"), "file");
	CHECK_STR(str_at(n, "nodes.3.data.ref.file"), "f1");
	CHECK_STR(str_at(n, "nodes.5.data.ref.kind"), "anchor");
	CHECK_STR(str_at(n, "nodes.5.data.ref.anchor"), "setup");
	CHECK_STR(str_at(n, "nodes.7.data.ref.kind"), "anchor");
	CHECK_STR(str_at(n, "nodes.7.data.ref.page"), "p9");
	CHECK_STR(str_at(n, "nodes.7.data.ref.anchor"), "intro");
	CHECK_STR(str_at(n, "nodes.9.data.ref.kind"), "url");
	CHECK_STR(str_at(n, "nodes.9.data.ref.url"), "https://example.com");
	/* Texts around every inline, ending with a text. */
	CHECK_STR(str_at(n, "nodes.10.object"), "text");
	CHECK(json_array_size(json_object_get(n, "nodes")) == 11);

	/* An image alone in a paragraph: an images block with a file ref. */
	{
		json_t *img = NULL, *x;
		size_t i;

		json_array_foreach(json_object_get(doc, "nodes"), i, x) if (!strcmp(str_at(x, "type"), "images"))
			img = x;
		CHECK(img != NULL);
		CHECK_STR(str_at(img, "nodes.0.type"), "image");
		CHECK_STR(str_at(img, "nodes.0.data.ref.kind"), "file");
		CHECK_STR(str_at(img, "nodes.0.data.ref.file"), "logo1");
		CHECK_STR(str_at(img, "nodes.0.data.alt"), "Logo");
		CHECK_STR(str_at(img, "nodes.0.fragments.0.fragment"), "caption");
		CHECK_STR(str_at(img, "nodes.0.fragments.0.nodes.0.nodes.0.leaves.0.text"), "The logo");
		CHECK(json_is_true(json_object_get(json_array_get(json_object_get(img, "nodes"), 0), "isVoid")));
	}

	/* Lists. */
	n = node_at(doc, 4);
	CHECK_STR(str_at(n, "type"), "list-ordered");
	CHECK(json_object_get(json_object_get(n, "data"), "start") == NULL);
	n = node_at(doc, 5);
	CHECK_STR(str_at(n, "type"), "list-tasks");
	CHECK(json_is_false(json_object_get(json_object_get(json_array_get(json_object_get(n, "nodes"), 0), "data"), "checked")));
	CHECK(json_is_true(json_object_get(json_object_get(json_array_get(json_object_get(n, "nodes"), 1), "data"), "checked")));
	n = node_at(doc, 6);
	CHECK_STR(str_at(n, "nodes.0.nodes.0.nodes.1.type"), "inline-image");
	CHECK_STR(str_at(n, "nodes.0.nodes.0.nodes.1.data.ref.url"), "https://img/x.png");

	/* Code: syntax from the info string, one code-line per line. */
	n = node_at(doc, 8);
	CHECK_STR(str_at(n, "type"), "code");
	CHECK_STR(str_at(n, "data.syntax"), "js");
	CHECK_STR(str_at(n, "nodes.0.nodes.0.leaves.0.text"), "let a = 1;");
	CHECK_STR(str_at(n, "nodes.1.nodes.0.leaves.0.text"), "");
	CHECK_STR(str_at(n, "nodes.2.nodes.0.leaves.0.text"), "let b = 2;");
	CHECK_STR(str_at(node_at(doc, 9), "type"), "divider");
	CHECK(json_is_true(json_object_get(node_at(doc, 9), "isVoid")));

	/* Table: columns, titles and alignment, records in order, cell fragments. */
	n = node_at(doc, 10);
	CHECK_STR(str_at(n, "type"), "table");
	{
		json_t *data = json_object_get(n, "data"), *cols = json_object_get(json_object_get(data, "view"), "columns");
		const char *c0 = json_string_value(json_array_get(cols, 0)), *c1 = json_string_value(json_array_get(cols, 1));
		json_t *def = json_object_get(data, "definition"), *recs = json_object_get(data, "records"), *r;
		const char *rk, *frag;
		int found = 0;

		CHECK(json_array_size(cols) == 2);
		CHECK_STR(str_at(json_object_get(def, c0), "title"), "Name");
		CHECK_STR(str_at(json_object_get(def, c0), "textAlignment"), "left");
		CHECK_STR(str_at(json_object_get(def, c1), "title"), "Value");
		CHECK_STR(str_at(json_object_get(def, c1), "textAlignment"), "right");
		CHECK_STR(str_at(json_object_get(def, c1), "type"), "text");
		CHECK(json_object_size(recs) == 2);
		json_object_foreach(recs, rk, r) {
			const char *oi = str_at(r, "orderIndex");

			if (oi && !strcmp(oi, "a0")) {
				frag = json_string_value(json_object_get(json_object_get(r, "values"), c1));
				json_t *f, *fs = json_object_get(n, "fragments");
				size_t i;

				json_array_foreach(fs, i, f) if (frag && !strcmp(str_at(f, "fragment"), frag)) {
					CHECK_STR(str_at(f, "nodes.0.type"), "paragraph");
					CHECK_STR(str_at(f, "nodes.0.nodes.0.leaves.0.text"), "1");
					CHECK_STR(str_at(f, "nodes.0.nodes.0.leaves.0.marks.0.type"), "bold");
					found = 1;
				}
			}
		}
		CHECK(found);
		CHECK(json_array_size(json_object_get(n, "fragments")) == 4);
	}
	CHECK_STR(str_at(node_at(doc, 11), "type"), "heading-3");
	json_decref(doc);
}

UNIT_TEST(markdown_document_degrades_where_gitbook_forbids)
{
	json_t *doc = doc_of("> ```\n> code\n> ```\n>\n> | a |\n> |---|\n> | b |\n>\n> ![i](/files/x)\n\n"
			     "- ![only](/files/y)\n\n<div>html <b>block</b></div>\n\n-\n\n>\n");
	char types[1024] = "", text[256] = "";

	CHECK(doc != NULL);
	if (!doc)
		return;
	types_of(doc, types, sizeof(types));
	CHECK_STR(types, "blockquote,paragraph,paragraph,paragraph,paragraph,inline-image,"
			 "list-unordered,list-item,paragraph,inline-image,paragraph,"
			 "list-unordered,list-item,paragraph,blockquote,paragraph,");
	CHECK_STR(str_at(node_at(doc, 0), "nodes.0.nodes.0.leaves.0.text"), "code");
	CHECK_STR(str_at(node_at(doc, 0), "nodes.0.nodes.0.leaves.0.marks.0.type"), "code");
	text_of(json_array_get(json_object_get(node_at(doc, 0), "nodes"), 2), text, sizeof(text));
	CHECK_STR(text, "b");
	text[0] = '\0';
	text_of(node_at(doc, 2), text, sizeof(text));
	CHECK_STR(text, "html block");
	json_decref(doc);
}

UNIT_TEST(markdown_document_inline_html)
{
	json_t *doc = doc_of("a <b>bold <em>both</em></b><br>x <kbd>K</kbd> <span>y</span></i> <!-- c -->z");
	json_t *leaves;

	CHECK(doc != NULL);
	if (!doc)
		return;
	leaves = json_object_get(json_array_get(json_object_get(node_at(doc, 0), "nodes"), 0), "leaves");
	CHECK(json_array_size(leaves) == 6);
	CHECK_STR(str_at(leaves, "0.text"), "a ");
	CHECK_STR(str_at(leaves, "1.text"), "bold ");
	CHECK_STR(str_at(leaves, "1.marks.0.type"), "bold");
	CHECK_STR(str_at(leaves, "2.text"), "both");
	CHECK_STR(str_at(leaves, "2.marks.1.type"), "italic");
	CHECK_STR(str_at(leaves, "3.text"), "\nx ");
	CHECK_STR(str_at(leaves, "4.text"), "K");
	CHECK_STR(str_at(leaves, "4.marks.0.type"), "keyboard");
	CHECK_STR(str_at(leaves, "5.text"), " y z");
	json_decref(doc);
}

UNIT_TEST(markdown_document_empty_junk_and_depth)
{
	char types[256] = "";
	json_t *doc = doc_of("");
	struct jw w;
	json_error_t e;
	json_t *v;
	char *deep;
	unsigned seed = 12345;

	CHECK(doc != NULL);
	types_of(doc, types, sizeof(types));
	CHECK_STR(types, "paragraph,");
	json_decref(doc);

	/* Two documents in one array: jw's commas. */
	jw_init(&w);
	jw_arr_open(&w);
	CHECK(md_to_document(&w, "a", 1) == 0);
	CHECK(md_to_document(&w, "# b", 3) == 0);
	jw_arr_close(&w);
	v = json_loadb(w.buf, w.len, 0, &e);
	CHECK(v && json_array_size(v) == 2);
	json_decref(v);
	jw_free(&w);

	/* 100,000 nested quotes and lists, and binary junk: valid JSON (and UTF-8). */
	deep = malloc(400001);
	CHECK(deep != NULL);
	if (!deep)
		return;
	for (int kind = 0; kind < 4; kind++) {
		size_t n = 0;

		for (int i = 0; i < 100000; i++) {
			if (kind == 0)
				deep[n++] = '>';
			else if (kind == 1) {
				memcpy(deep + n, "  - ", 4);
				n += i ? 4 : 2;
				if (!i)
					memcpy(deep, "- ", 2);
			} else if (kind == 2)
				deep[n++] = i < 50000 ? '[' : ']';
			else
				deep[n++] = (char)(rand_r(&seed) & 0xff);
		}
		deep[n] = '\0';
		jw_init(&w);
		CHECK(md_to_document(&w, deep, n) == 0);
		v = json_loadb(w.buf, w.len, 0, &e);
		CHECK(v != NULL);
		json_decref(v);
		jw_free(&w);
	}
	free(deep);
}

UNIT_TEST(markdown_sections_split_at_headings)
{
	struct arena a;
	struct md_section *s;
	size_t n;
	const char *md = "Intro *text*.\n\n# Hello, World!\n\nPara one.\n\nPara `two`.\n\n"
			 "## Hello World\n\n- a\n- b\n\n#### Deeper\n\ninside\n\n### Hello World\n\n"
			 "```\ncode kept\n```\n\n# Ünïcode & Co\n";

	arena_init(&a);
	CHECK(md_sections(&a, md, strlen(md), &s, &n) == 0);
	CHECK(n == 5);
	if (n == 5) {
		CHECK_STR(s[0].id, "");
		CHECK_STR(s[0].title, "");
		CHECK_STR(s[0].body, "Intro text.");
		CHECK_STR(s[1].id, "hello-world");
		CHECK_STR(s[1].title, "Hello, World!");
		CHECK_STR(s[1].body, "Para one.\nPara two.");
		CHECK_STR(s[2].id, "hello-world-1");
		CHECK_STR(s[2].body, "a\nb\nDeeper\ninside");
		CHECK_STR(s[3].id, "hello-world-2");
		CHECK_STR(s[3].body, "code kept");
		CHECK_STR(s[4].id, "ncode--co");
		CHECK_STR(s[4].title, "\xc3\x9c" "n\xc3\xaf" "code & Co");
		CHECK_STR(s[4].body, "");
	}
	/* No preamble when the page starts with a heading; nothing for an empty page. */
	CHECK(md_sections(&a, "# A\nx", 5, &s, &n) == 0 && n == 1 && !strcmp(s[0].id, "a"));
	CHECK(md_sections(&a, "", 0, &s, &n) == 0 && n == 0 && s == NULL);
	/* github-slugger's dedup: an explicit "a-1" before two "a"s. */
	CHECK(md_sections(&a, "# a-1\n# a\n# a\n", 14, &s, &n) == 0 && n == 3);
	if (n == 3) {
		CHECK_STR(s[0].id, "a-1");
		CHECK_STR(s[1].id, "a");
		CHECK_STR(s[2].id, "a-2");
	}
	arena_free(&a);
}

UNIT_TEST(markdown_links_lines_and_order)
{
	struct arena a;
	struct md_link *l;
	size_t n;
	const char *md = "---\ntitle: t\n---\n"
			 "See [one](a.md) and ![img](./logo.png).\n"
			 "\n"
			 "> [two](</x y>)\n"
			 "\n"
			 "A link [across\nlines](multi)\n"
			 "[![inner](i.png)](outer) <https://auto.example> [ref][r]\n"
			 "`[not](code)`\n"
			 "\n"
			 "[r]: /refd\n";

	arena_init(&a);
	CHECK(md_links(&a, md, strlen(md), &l, &n) == 0);
	CHECK(n == 8);
	if (n == 8) {
		CHECK_STR(l[0].target, "a.md");
		CHECK(l[0].line == 4);
		CHECK_STR(l[1].target, "./logo.png");
		CHECK(l[1].line == 4);
		CHECK_STR(l[2].target, "/x y");
		CHECK(l[2].line == 6);
		CHECK_STR(l[3].target, "multi");
		CHECK(l[3].line == 8);
		CHECK_STR(l[4].target, "outer");
		CHECK_STR(l[5].target, "i.png");
		CHECK(l[5].line == 10);
		CHECK_STR(l[6].target, "https://auto.example");
		CHECK_STR(l[7].target, "/refd");
		CHECK(l[7].line == 10);
	}
	CHECK(md_links(&a, "no links", 8, &l, &n) == 0 && n == 0 && l == NULL);
	arena_free(&a);
}

UNIT_TEST(markdown_title)
{
	struct arena a;

	arena_init(&a);
	CHECK_STR(md_title(&a, "# The *Title*\n\nbody", 19), "The Title");
	CHECK_STR(md_title(&a, "---\ndescription: d\n---\n\nSetext\n======\n", 38), "Setext");
	CHECK(md_title(&a, "## Second level\n", 16) == NULL);
	CHECK(md_title(&a, "text\n\n# Later\n", 14) == NULL);
	CHECK(md_title(&a, "#\n", 2) == NULL);
	CHECK(md_title(&a, "", 0) == NULL);
	arena_free(&a);
}

UNIT_TEST(markdown_frontmatter)
{
	struct arena a;
	struct md_front f;
	const char *md = "---\n"
			 "title: \"Quoted \\\"title\\\" \\u00e9\"\n"
			 "description: >-\n"
			 "  Folded long\n"
			 "  description\n"
			 "\n"
			 "  second para\n"
			 "icon: book-open   # a comment\n"
			 "emoji: '1f600'\n"
			 "hidden: true\n"
			 "my key: with spaces\n"
			 "layout:\n"
			 "  title:\n"
			 "    visible: false\n"
			 "---\n"
			 "# Body\n";

	arena_init(&a);
	CHECK(md_frontmatter(&a, md, strlen(md), &f) == 0);
	CHECK(f.present);
	CHECK_STR(f.title, "Quoted \"title\" \xc3\xa9");
	CHECK_STR(f.description, "Folded long description\nsecond para");
	CHECK_STR(f.icon, "book-open");
	CHECK_STR(f.emoji, "1f600");
	CHECK(f.hidden);
	CHECK(f.body == strlen(md) - strlen("# Body\n"));
	CHECK_STR(md_title(&a, md, strlen(md)), "Body");

	md = "---\r\ntitle: Plain value\r\ndescription: |\r\n  line 1\r\n  line 2\r\nhidden: no\r\n...\r\nrest";
	CHECK(md_frontmatter(&a, md, strlen(md), &f) == 0);
	CHECK(f.present);
	CHECK_STR(f.title, "Plain value");
	CHECK_STR(f.description, "line 1\nline 2\n");
	CHECK(!f.hidden && f.icon == NULL && f.emoji == NULL);
	CHECK_STR(md + f.body, "rest");

	/* Not frontmatter: no closing line, prose lines, no newline after ---. */
	CHECK(md_frontmatter(&a, "---\ntitle: x\n", 13, &f) == 0 && !f.present && f.body == 0);
	CHECK(md_frontmatter(&a, "---\nJust prose here\n---\n", 24, &f) == 0 && !f.present);
	CHECK(md_frontmatter(&a, "---", 3, &f) == 0 && !f.present);
	CHECK(md_frontmatter(&a, "", 0, &f) == 0 && !f.present);
	CHECK(md_frontmatter(&a, "---\n---\n", 8, &f) == 0 && f.present && f.body == 8 && !f.title);
	CHECK(md_frontmatter(&a, "---\ntitle: ~\nicon: ''\n---", 25, &f) == 0 && f.present && !f.title && !f.icon);
	arena_free(&a);
}

UNIT_TEST(markdown_frontmatter_gitbook_layout_and_errors)
{
	struct arena a;
	struct md_front f;
	const char *md;
	char *big;
	size_t n;

	arena_init(&a);
	/* GitBook's Git Sync export of a page with every layout option. */
	md = "---\n"
	     "description: >-\n"
	     "  A page\n"
	     "icon: gear\n"
	     "hidden: yes\n"
	     "layout:\n"
	     "  width: wide\n"
	     "  title:\n"
	     "    visible: true\n"
	     "  description:\n"
	     "    visible: false\n"
	     "  tableOfContents:\n"
	     "    visible: true\n"
	     "  outline:\n"
	     "    visible: false\n"
	     "  pagination:\n"
	     "    visible: true\n"
	     "---\n"
	     "# Page\n";
	CHECK(md_frontmatter(&a, md, strlen(md), &f) == 0);
	CHECK(f.present && !f.error && f.hidden);
	CHECK_STR(f.description, "A page");
	CHECK_STR(f.icon, "gear");
	CHECK(f.layout.present);
	CHECK_STR(f.layout.width, "wide");
	CHECK(f.layout.title == 1 && f.layout.description == 0 && f.layout.table_of_contents == 1);
	CHECK(f.layout.outline == 0 && f.layout.pagination == 1 && f.layout.metadata == -1);
	CHECK_STR(md + f.body, "# Page\n");

	/* No layout: every flag absent. */
	CHECK(md_frontmatter(&a, "---\ntitle: T\nhidden: false\n---\nx", 33, &f) == 0);
	CHECK(f.present && !f.error && !f.hidden && !f.layout.present && !f.layout.width);
	CHECK(f.layout.title == -1 && f.layout.outline == -1);
	CHECK_STR(f.title, "T");
	/* A layout that is no mapping, a visible that is no boolean: ignored. */
	md = "---\nlayout: wide\n---\n";
	CHECK(md_frontmatter(&a, md, strlen(md), &f) == 0 && f.present && !f.error && !f.layout.present);
	md = "---\nlayout:\n  title:\n    visible: maybe\n---\n";
	CHECK(md_frontmatter(&a, md, strlen(md), &f) == 0 && f.layout.present && f.layout.title == -1);

	/* Anchors and aliases are YAML: an alias gives the anchored value. */
	md = "---\ntitle: &t Shared\ndescription: *t\n---\n";
	CHECK(md_frontmatter(&a, md, strlen(md), &f) == 0 && !f.error);
	CHECK_STR(f.title, "Shared");
	CHECK_STR(f.description, "Shared");
	/* Numbers and booleans read as their text in string fields. */
	md = "---\ntitle: 2024\nicon: true\n---\n";
	CHECK(md_frontmatter(&a, md, strlen(md), &f) == 0 && !f.error);
	CHECK_STR(f.title, "2024");
	CHECK_STR(f.icon, "true");

	/* Malformed YAML: a reason with the line (of the whole text) and column;
	 * the block is still skipped. */
	md = "---\ntitle: ok\ndescription: \"unterminated\n---\n# Body\n";
	CHECK(md_frontmatter(&a, md, strlen(md), &f) == 0);
	CHECK(f.present && f.error && !f.title && !f.description);
	CHECK(f.error && strstr(f.error, "line 3") != NULL);
	CHECK_STR(md + f.body, "# Body\n");
	md = "---\ntitle: [a, b\n---\n";
	CHECK(md_frontmatter(&a, md, strlen(md), &f) == 0 && f.error && strstr(f.error, "line ") && strstr(f.error, "column "));
	md = "---\ntitle: a\n  bad: indent\n---\n";
	CHECK(md_frontmatter(&a, md, strlen(md), &f) == 0 && f.error && !f.title);
	/* After a BOM and CRLF the line count still holds. */
	md = "\xEF\xBB\xBF---\r\ntitle: x\r\nicon: \"a\r\n---\r\n";
	CHECK(md_frontmatter(&a, md, strlen(md), &f) == 0 && f.error && strstr(f.error, "line 3"));
	/* A non-string value for a string field. */
	md = "---\ntitle: ok\nicon:\n  - a\n  - b\n---\n";
	CHECK(md_frontmatter(&a, md, strlen(md), &f) == 0 && f.error && !f.title);
	CHECK(f.error && strstr(f.error, "icon must be a string") && strstr(f.error, "line 4"));
	/* A list is not a mapping. */
	md = "---\n- a\n- b\n---\n";
	CHECK(md_frontmatter(&a, md, strlen(md), &f) == 0 && f.present && f.error && strstr(f.error, "mapping"));
	/* Two documents, tabs as indentation, control bytes, invalid UTF-8. */
	md = "---\ntitle: a\n--- \n";
	CHECK(md_frontmatter(&a, md, strlen(md), &f) == 0);
	md = "---\ntitle: a\n\tx: y\n---\n";
	CHECK(md_frontmatter(&a, md, strlen(md), &f) == 0 && f.error);
	CHECK(md_frontmatter(&a, "---\ntitle: a\x01z\n---\n", 19, &f) == 0 && f.error);
	CHECK(md_frontmatter(&a, "---\ntitle: a\xff\xfez\n---\n", 20, &f) == 0 && f.error);
	CHECK(md_frontmatter(&a, "---\ntitle: a\0z\n---\n", 18, &f) == 0 && f.present);

	/* Bounds: depth, aliases, size. */
	big = malloc(200000);
	CHECK(big != NULL);
	if (big) {
		/* 40 nested flow mappings. */
		n = (size_t)sprintf(big, "---\nlayout: ");
		for (int i = 0; i < 40; i++)
			n += (size_t)sprintf(big + n, "{a: ");
		n += (size_t)sprintf(big + n, "1");
		for (int i = 0; i < 40; i++)
			big[n++] = '}';
		n += (size_t)sprintf(big + n, "\n---\n");
		CHECK(md_frontmatter(&a, big, n, &f) == 0 && f.error && strstr(f.error, "deeper"));
		/* A billion-laughs shape: many aliases. */
		n = (size_t)sprintf(big, "---\na: &a [x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n");
		for (int i = 0; i < 10; i++)
			n += (size_t)sprintf(big + n, "c%d: [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n", i);
		n += (size_t)sprintf(big + n, "title: T\n---\n");
		CHECK(md_frontmatter(&a, big, n, &f) == 0 && f.error && strstr(f.error, "aliases"));
		/* 70 KiB of YAML. */
		n = (size_t)sprintf(big, "---\n");
		while (n < 70000)
			n += (size_t)sprintf(big + n, "k%zu: v\n", n);
		n += (size_t)sprintf(big + n, "---\nbody");
		CHECK(md_frontmatter(&a, big, n, &f) == 0 && f.present && f.error && strstr(f.error, "larger"));
		CHECK(f.body == n - 4);
		free(big);
	}
	arena_free(&a);
}

/* Random YAML-ish frontmatter: never a crash, always 0, body within the text. */
UNIT_TEST(markdown_frontmatter_fuzz)
{
	static const char *const pieces[] = {
		"title: ", "description: ", "layout:\n", "  title:\n", "    visible: ", "true", "no", "\n", "  ",
		"- ", "&a ", "*a ", "*b ", "[", "]", "{", "}", ", ", "\"", "'", "\\u00e9", ">-\n", "|\n", "# c\n",
		"---\n", "...\n", "? ", ": ", "!!str ", "!tag ", "%YAML 1.1\n", "\t", "\r\n", "\xc3", "\xff", "x",
		"\x00", "~", "key: value\n", "&b [*a, *a]\n",
	};
	unsigned seed = 13;
	char md[800];

	for (int round = 0; round < 3000; round++) {
		struct arena a;
		struct md_front f;
		size_t n = (size_t)snprintf(md, sizeof(md), "---\n");
		size_t want = 20 + (size_t)(rand_r(&seed) % 600);

		while (n < want) {
			const char *p = pieces[rand_r(&seed) % (sizeof(pieces) / sizeof(pieces[0]))];
			size_t pl = p[0] ? strlen(p) : 1;

			memcpy(md + n, p, pl);
			n += pl;
		}
		if (round % 2)
			n += (size_t)snprintf(md + n, sizeof(md) - n, "\n---\nbody");
		arena_init(&a);
		CHECK(md_frontmatter(&a, md, n, &f) == 0);
		CHECK(f.body <= n);
		CHECK(!f.error || f.present);
		arena_free(&a);
	}
}

/* The map of the rewrite tests: ./x and x.png to /files/<...>. */
static const char *map_files(void *ctx, const char *target)
{
	struct arena *a = ctx;

	if (!strcmp(target, "./logo.png"))
		return "/files/LOGO1";
	if (!strcmp(target, "./odd"))
		return "/files/with space(1";
	if (!strcmp(target, "page.md"))
		return "/pages/P1";
	if (!strncmp(target, "./", 2))
		return arena_printf(a, "/files/%s", target + 2);
	return NULL;
}

UNIT_TEST(markdown_rewrite_links)
{
	struct arena a;
	const char *md, *out;

	arena_init(&a);
	md = "---\nicon: ./logo.png\n---\n"
	     "![Logo](./logo.png \"title\") and [doc]( page.md ) and [keep](https://x.y)\n"
	     "`![code](./logo.png)` \\[esc](./logo.png) [![img](./logo.png)](page.md)\n"
	     "\n"
	     "    [indented](./logo.png)\n"
	     "\n"
	     "```\n[fenced](./logo.png)\n```\n"
	     "[ref][r] <./logo.png> [pointy](<./logo.png>) [odd](./odd) [multi\nline](./m 'x')\n"
	     "\n"
	     "| [cell](./c) | b |\n|---|---|\n\n"
	     "[r]: ./logo.png\n";
	out = md_rewrite_links(&a, md, strlen(md), map_files, &a);
	CHECK(same(out, "---\nicon: ./logo.png\n---\n"
		       "![Logo](/files/LOGO1 \"title\") and [doc]( /pages/P1 ) and [keep](https://x.y)\n"
		       "`![code](./logo.png)` \\[esc](./logo.png) [![img](/files/LOGO1)](/pages/P1)\n"
		       "\n"
		       "    [indented](./logo.png)\n"
		       "\n"
		       "```\n[fenced](./logo.png)\n```\n"
		       "[ref][r] <./logo.png> [pointy](</files/LOGO1>) [odd](</files/with space(1>) "
		       "[multi\nline](/files/m 'x')\n"
		       "\n"
		       "| [cell](/files/c) | b |\n|---|---|\n\n"
		       "[r]: ./logo.png\n"));
	/* Nothing mapped: a byte-exact copy, NUL bytes and all. */
	{
		static const char junk[] = "a\0b [x](y)\r\n\xff\xfe";
		char *copy = md_rewrite_links(&a, junk, sizeof(junk) - 1, map_files, &a);

		CHECK(copy && memcmp(copy, junk, sizeof(junk)) == 0);
	}
	CHECK_STR(md_rewrite_links(&a, "", 0, map_files, &a), "");
	/* HTML and autolinks hide what looks like links; nested brackets do not. */
	md = "<a title=\"[t](./h)\">x</a> <http://a/[b](./c)> [[in](./in)](./out)";
	CHECK_STR(md_rewrite_links(&a, md, strlen(md), map_files, &a),
		  "<a title=\"[t](./h)\">x</a> <http://a/[b](./c)> [[in](/files/in)](./out)");
	arena_free(&a);
}

UNIT_TEST(markdown_plain_text)
{
	struct arena a;
	const char *md = "---\ntitle: x\n---\n# Title\n\nA *para*\nwrapped.  \nbreak\n\n- item <b>one</b>\n\n"
			 "```\ncode\n```\n\n| h1 | h2 |\n|---|---|\n| c1 | c2 |\n\n![alt text](i.png)\n";

	arena_init(&a);
	CHECK_STR(md_plain_text(&a, md, strlen(md)),
		  "Title\nA para wrapped.\nbreak\nitem one\ncode\nh1 | h2\nc1 | c2\nalt text");
	CHECK_STR(md_plain_text(&a, "", 0), "");
	CHECK_STR(md_plain_text(&a, NULL, 0), "");
	arena_free(&a);
}

static const char *map_all(void *ctx, const char *target)
{
	(void)ctx;
	return target[0] ? "/files/abc" : "x y";
}

UNIT_TEST(markdown_survives_random_input)
{
	static const char *const pieces[] = { "[", "]", "(", ")", "![", "<", ">", "`", "``", "\\", "*", "_", "~~",
					      "\n", "\n\n", "> ", "- ", "1. ", "# ", "| a | b |\n|---|---|\n",
					      "```\n", "---\n", "http://x ", "www.y.z ", "&amp;", "\"t\"", " ", "x",
					      "- [ ] ", "\t", "\r", "\xc3", "\xff", "<!--", "-->", "<b>", "title: v\n" };
	unsigned seed = 99;
	struct arena a;

	for (int round = 0; round < 300; round++) {
		char md[600];
		size_t n = 0;
		struct md_section *s;
		struct md_link *l;
		struct md_front f;
		size_t k;
		struct jw w;
		json_t *v;
		json_error_t e;
		char *out;

		if (round % 2)
			n = (size_t)snprintf(md, sizeof(md), "---\n");
		while (n < 500) {
			const char *p = pieces[rand_r(&seed) % (sizeof(pieces) / sizeof(pieces[0]))];
			size_t pl = strlen(p);

			memcpy(md + n, p, pl);
			n += pl;
		}
		arena_init(&a);
		jw_init(&w);
		CHECK(md_to_document(&w, md, n) == 0);
		v = json_loadb(w.buf, w.len, 0, &e);
		CHECK(v != NULL);
		json_decref(v);
		jw_free(&w);
		CHECK(md_sections(&a, md, n, &s, &k) == 0);
		CHECK(md_links(&a, md, n, &l, &k) == 0);
		CHECK(md_frontmatter(&a, md, n, &f) == 0);
		CHECK(md_plain_text(&a, md, n) != NULL);
		(void)md_title(&a, md, n);
		out = md_rewrite_links(&a, md, n, map_all, NULL);
		CHECK(out != NULL);
		/* Rewriting everything keeps every link a link. */
		if (out) {
			struct md_link *l2;
			size_t k2;

			CHECK(md_links(&a, out, strlen(out), &l2, &k2) == 0);
			CHECK(k2 == k);
		}
		arena_free(&a);
	}
}
