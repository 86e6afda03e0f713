/*
 * markdown.h - a page's stored markdown, read the ways the rest of docsd needs it.
 *
 * Markdown (CommonMark plus GFM tables, strikethrough, task lists and
 * autolinks, parsed by cmark-gfm) is the stored form of a documentation page.
 * These are pure functions of the text: no HTTP, no SQL, no globals beyond
 * cmark's once-only extension registration.
 *
 * Every function accepts any bytes (empty, binary, invalid UTF-8, deep
 * nesting) without crashing; strings it returns are valid UTF-8 except those
 * copied verbatim from the input (frontmatter values, md_rewrite_links).
 * A leading frontmatter block (see md_frontmatter) is metadata, not content:
 * every function below skips it; line numbers still count from the start of
 * the whole text.
 *
 * Results come from the caller's arena; out of memory stops the process
 * (util/alloc.h). "-1 (or NULL) when cmark fails" below: cmark-gfm returned
 * NULL or a text passed SIZE_MAX / 2 bytes, with the thread's error set
 * (util/err.h).
 */
#ifndef DOCSD_FORMAT_MARKDOWN_H
#define DOCSD_FORMAT_MARKDOWN_H

#include <stdbool.h>
#include <stddef.h>

#include "json/jsonw.h"
#include "util/arena.h"

/*
 * Writes GitBook's JSON document for the page into w as one value (jw's comma
 * logic applies): {"object":"document","data":{},"nodes":[...]} valid against
 * the JSONDocument schema of GitBook's OpenAPI spec.
 *
 * Blocks: paragraph, heading-1..3 (deeper headings become heading-3; meta.id
 * is the heading's anchor, as md_sections computes it), list-ordered (data.start
 * when not 1), list-unordered, list-tasks (a list with a task item; each item has
 * data.checked), list-item, blockquote, code (data.syntax from the first word of
 * the info string) of code-line blocks, divider, table (a grid view of text
 * columns, one fragment per cell), images (a top-level paragraph holding only
 * images). Where the schema forbids a block (a code block or table inside a
 * quote, images inside a list) it degrades to paragraphs; HTML blocks become
 * paragraphs of their text; containers nested deeper than 32 become a paragraph
 * of their plain text. Inlines: text with leaves and bold/italic/code/
 * strikethrough marks, link, inline-image; inline HTML <b>/<strong>, <i>/<em>,
 * <s>/<del>, <code> and <kbd> become marks (keyboard for <kbd>), <br> a line
 * break, other tags are dropped. References: /files/<id> ->
 * {kind:"file"}, /pages/<id> -> {kind:"page"}, /pages/<id>#a and #a ->
 * {kind:"anchor"} (links only), anything else {kind:"url"}. Keys are "b1",
 * "b2"... in document order, unique in the document. Soft line breaks become
 * spaces, hard ones "\n". An empty page is one empty paragraph.
 *
 * Returns 0, or -1 when cmark fails (w may then hold a partial value).
 */
int md_to_document(struct jw *w, const char *md, size_t len);

/* The cmark-gfm tree of md[0..len) with GFM's extensions (table,
 * strikethrough, tasklist, autolink), invalid UTF-8 replaced: the one parser
 * setup every reader of pages shares (this file, translations, PDFs), so a
 * page is read alike everywhere. Free it with cmark_node_free; NULL when
 * cmark fails (memory). Frontmatter is NOT skipped here. */
struct cmark_node;
struct cmark_node *md_parse(const char *md, size_t len);
/* md_parse with more cmark options (CMARK_OPT_FOOTNOTES: translations read
 * footnotes as footnotes, so their definitions' text is text). */
struct cmark_node *md_parse_opts(const char *md, size_t len, int options);

/* One search section: the text from one heading to the next. */
struct md_section {
	char *id;    /* the heading's anchor; "" for the text before the first heading */
	char *title; /* the heading's plain text; "" before the first heading */
	char *body;  /* plain text (see md_plain_text), blocks separated by "\n" */
};

/*
 * Splits the page at its top-level headings of levels 1-3. Text before the
 * first heading, when there is any, is a section with empty id and title.
 * Anchors follow GitHub: the heading's plain text lower-cased, spaces to '-',
 * every character but [a-z0-9_-] dropped; a repeated anchor gets -1, -2...
 * (every heading of the page counts, in document order).
 * *out (an arena array of *n sections, NULL when there are none) belongs to a.
 */
int md_sections(struct arena *a, const char *md, size_t len, struct md_section **out, size_t *n);

/* A link or image destination and the 1-based line it starts on. */
struct md_link {
	char *target; /* as cmark resolved it: escapes and entities decoded;
	               * reference links give their definition's destination,
	               * www. autolinks get "http://" */
	int line;
};

/* Every link and image of the page (inline, reference and autolinks) in
 * document order (a link before the image it contains). *out belongs to a. */
int md_links(struct arena *a, const char *md, size_t len, struct md_link **out, size_t *n);

/* The plain text of a leading level-1 heading (ATX or setext, the first block
 * after any frontmatter), or NULL when there is none or it is empty (or cmark
 * fails). */
char *md_title(struct arena *a, const char *md, size_t len);

/* A leading frontmatter block: a "---" line, YAML, a "---" (or "...") line. */
struct md_layout {
	bool present; /* a "layout" mapping was given */
	char *width;  /* layout.width as written ("default", "wide"); NULL when absent */
	/* layout.<block>.visible: 1 true, 0 false, -1 absent or not a boolean */
	int title, description, table_of_contents, outline, pagination, metadata;
};

struct md_front {
	bool present;      /* a frontmatter block was found */
	char *error;       /* malformed YAML in it: a readable reason ("line L, column C: ...",
	                    * lines of the whole text); every other field but body is then empty */
	char *title;       /* NULL when absent, empty or null */
	char *description;
	char *icon;
	char *emoji;
	char *cond;        /* GitBook's page condition "if: <expression>" (model/condition.h), as written */
	char *vars;        /* GitBook's page variables "vars: {name: value}" as a JSON object; NULL: none */
	char *cover;       /* GitBook's page cover "cover: <path or URL>", as written; NULL: none */
	double cover_y;    /* "coverY: <number>" (its vertical position); 0 when absent */
	bool hidden;       /* "hidden: true" (also yes/on); false otherwise */
	struct md_layout layout; /* GitBook's page layout options */
	size_t body;       /* byte offset where the markdown body starts (0 if none) */
};

/*
 * Reads the frontmatter with libyaml (YAML 1.1; GitBook's fields title,
 * description, icon, emoji, hidden and layout: {width, title, description,
 * tableOfContents, outline, pagination, metadata: {visible}}; other keys are
 * ignored). A block is found by its delimiter lines; one whose lines are not
 * all YAML-looking (key: value lines, their indented continuations, list
 * items, comments, blank lines) is not frontmatter. YAML that does not parse,
 * is over 64 KiB, nests deeper than 32, has more than 64 aliases, is not a
 * mapping, or gives a non-string title/description/icon/emoji sets error
 * (present stays true and body still skips the block). Strings belong to a.
 * Returns 0 (also when there is no frontmatter or it is malformed) or -1 when
 * libyaml fails.
 */
int md_frontmatter(struct arena *a, const char *md, size_t len, struct md_front *out);

/*
 * Returns a copy of the markdown (NUL-terminated, from a) in which the
 * destination of each inline link and image `[text](dest "title")` for which
 * map(ctx, target) returns non-NULL is replaced by the returned string; every
 * other byte is copied unchanged. target is the destination as md_links gives
 * it; the string map returns must stay valid until md_rewrite_links returns.
 * The replacement is written bare when it can be (no spaces, controls, angle
 * brackets, backslashes or unbalanced parentheses), else as <...> with '<',
 * '>' and '\' escaped. Reference definitions, autolinks and links
 * inside code are left alone. NULL when cmark fails.
 */
char *md_rewrite_links(struct arena *a, const char *md, size_t len,
		       const char *(*map)(void *ctx, const char *target), void *ctx);

/* A copy of md (NUL-terminated, from a) in which each URL attribute (src,
 * href, srcset candidates, poster) of a raw HTML tag, outside fenced code
 * and code spans, for which map(ctx, url) returns non-NULL is replaced by
 * it; every other byte is copied. Tags are read on one line (GitBook writes
 * them so). What Git import does to <img src=".gitbook/assets/x.png">, as
 * md_rewrite_links does to markdown images. NULL past SIZE_MAX / 2. */
char *md_rewrite_html_urls(struct arena *a, const char *md, size_t len,
			   const char *(*map)(void *ctx, const char *target), void *ctx);

/* GitBook's block tags given their plain-markdown meaning, for readers of
 * markdown (the site's .md twins, llms-full.txt): {% hint %} a blockquote
 * opening with **Note** / **Warning** / **Danger** / **Success**, each
 * {% tab title %} a bold title before its content, each {% step %}
 * **Step N**, {% code title %} the title before the code, {% embed url %}
 * and {% file src %} links, and the other block tags (tabs, stepper,
 * columns, content-ref, ...) nothing but their content. Fenced code is
 * kept as it is (inside a hint, quoted). From a; NULL past SIZE_MAX / 2. */
char *md_plain_meaning(struct arena *a, const char *md, size_t len);

/* The plain text of the whole page: markup and HTML tags removed, code and
 * image alt text kept, one block per line, table cells joined by " | ".
 * "" for an empty page; NULL when cmark fails. */
char *md_plain_text(struct arena *a, const char *md, size_t len);

#endif
