/*
 * html_markdown.c - an HTML page's main content as markdown (html_markdown.h
 * lists what becomes what).
 *
 * DESIGN
 * libxml2 builds the tree; two walks read it. links_collect() walks the whole
 * document without recursion and lists every <a href> (a crawl follows the
 * navigation too). The conversion walks only the main content, recursively,
 * with two kinds of output:
 *   blocks()  a container's children as blocks, joined by blank lines; runs
 *             of inline children between block children become paragraphs;
 *   a run     inline text being built (struct run): whitespace collapsed
 *             (a space is only written when text follows, so runs never
 *             start or end with one), markdown punctuation escaped.
 * Lists, quotes and list items render their children into a buffer of
 * their own and then prefix its lines (marker, indentation, "> ").
 *
 * Invariants: every buffer holds at most HTML_MD_MAX_BYTES (past it the
 * conversion sets `full` and drops output; the result is flagged truncated);
 * recursion is bounded by HTML_MD_MAX_DEPTH for blocks and INLINE_MAX_DEPTH
 * for inlines, past which a node's text (libxml2's iterative
 * xmlNodeGetContent) stands for it. Out of memory stops the process
 * (util/alloc.h).
 */
#include "format/html_markdown.h"
#include "format/weburl.h"
#include "util/alloc.h"
#include "util/err.h"

#include <ctype.h>
#include <libxml/HTMLparser.h>
#include <libxml/encoding.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define INLINE_MAX_DEPTH 64
#define TABLE_MAX_COLS 64

/* xmlInitParser must run once before threads parse (libxml2 2.9). */
static pthread_once_t xml_once = PTHREAD_ONCE_INIT;

static void xml_init(void)
{
	xmlInitParser();
}

/* ---- buffers ---- */

struct sb {
	char *p;
	size_t len, cap;
};

struct conv {
	struct arena *a;
	const char *base;     /* URLs resolve against this */
	const char **images;
	size_t nimages, capimages;
	char *h1;             /* plain text of the first h1 met */
	bool full;
	int depth;            /* containers open (blocks) */
	int idepth;           /* inline elements open */
};

static void sb_free(struct sb *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

static void sb_put(struct conv *c, struct sb *b, const char *s, size_t n)
{
	if (n == 0)
		return;
	if (n > HTML_MD_MAX_BYTES - b->len || b->len > HTML_MD_MAX_BYTES) {
		c->full = true;
		return;
	}
	if (b->cap - b->len < n + 1) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap - b->len < n + 1)
			cap *= 2; /* bounded: len + n <= HTML_MD_MAX_BYTES */
		b->p = xrealloc(b->p, cap);
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void sb_puts(struct conv *c, struct sb *b, const char *s)
{
	sb_put(c, b, s, strlen(s));
}

static void sb_putc(struct conv *c, struct sb *b, char ch)
{
	sb_put(c, b, &ch, 1);
}

/* ---- nodes ---- */

static const char *name_of(xmlNodePtr n)
{
	return n && n->type == XML_ELEMENT_NODE && n->name ? (const char *)n->name : "";
}

static bool is(xmlNodePtr n, const char *name)
{
	return strcmp(name_of(n), name) == 0;
}

static bool in_list(const char *name, const char *const *list)
{
	for (int i = 0; list[i]; i++)
		if (strcmp(name, list[i]) == 0)
			return true;
	return false;
}

static const char *const block_names[] = {
	"address", "article", "aside", "blockquote", "body", "caption", "center", "dd", "details", "dialog", "dir",
	"div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6",
	"header", "hgroup", "hr", "html", "legend", "li", "main", "menu", "ol", "p", "pre", "section", "summary",
	"table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul", NULL,
};

static const char *const skip_names[] = {
	"nav", "script", "style", "template", "noscript", "iframe", "object", "embed", "svg", "canvas", "math",
	"head", "title", "meta", "link", "input", "select", "textarea", "button", "option", "datalist", "audio",
	"video", "map", NULL,
};

static bool is_block(xmlNodePtr n)
{
	return n->type == XML_ELEMENT_NODE && in_list(name_of(n), block_names);
}

/* An attribute's value in the arena; NULL when absent. */
static char *attr(struct conv *c, xmlNodePtr n, const char *name)
{
	xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
	char *out;

	if (!v)
		return NULL;
	out = arena_strdup(c->a, (const char *)v);
	xmlFree(v);
	return out;
}

static bool has_attr(xmlNodePtr n, const char *name)
{
	return xmlHasProp(n, (const xmlChar *)name) != NULL;
}

/* Whether n is inside an <article> or <main> (a header there is the content's own). */
static bool within_content(xmlNodePtr n)
{
	for (xmlNodePtr p = n->parent; p && p->type == XML_ELEMENT_NODE; p = p->parent)
		if (is(p, "article") || is(p, "main"))
			return true;
	return false;
}

static bool skipped(struct conv *c, xmlNodePtr n)
{
	const char *name = name_of(n);
	char *aria;

	if (n->type != XML_ELEMENT_NODE)
		return false;
	if (in_list(name, skip_names) || has_attr(n, "hidden"))
		return true;
	if ((strcmp(name, "header") == 0 || strcmp(name, "footer") == 0) && !within_content(n))
		return true;
	aria = attr(c, n, "aria-hidden");
	return aria && strcasecmp(aria, "true") == 0;
}

/* A node's text (iterative in libxml2), whitespace collapsed and trimmed. */
static char *plain_text(struct conv *c, xmlNodePtr n)
{
	xmlChar *t = xmlNodeGetContent(n);
	char *out, *o;
	bool space = false;

	if (!t)
		return NULL;
	out = arena_alloc(c->a, strlen((const char *)t) + 1);
	o = out;
	for (const char *s = (const char *)t; *s; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f') {
			space = o != out;
			continue;
		}
		if (space)
			*o++ = ' ';
		space = false;
		*o++ = *s;
	}
	*o = '\0';
	xmlFree(t);
	return out;
}

/* ---- inline runs ---- */

struct run {
	struct sb b;
	bool space;       /* whitespace met and not written yet */
	bool lead;        /* whitespace came before the first character */
	bool line_start;  /* the next character starts a line: block markers are escaped */
	bool single_line; /* headings and table cells: <br> is a space */
	bool in_link;     /* links inside a link keep only their text */
	bool in_cell;     /* a table cell: '|' is escaped in code spans too (GFM) */
};

static bool is_ws(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f';
}

static bool is_alnum(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

/* "&name;" or "&#123;" / "&#x1F;" at s: an entity markdown would decode. */
static bool entity_like(const char *s)
{
	const char *p = s + 1;

	if (*p == '#') {
		p++;
		if (*p == 'x' || *p == 'X')
			p++;
		if (!is_alnum(*p))
			return false;
	} else if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))) {
		return false;
	}
	while (is_alnum(*p))
		p++;
	return *p == ';';
}

/* Write what is pending (a space between words) before more output. */
static void run_pending(struct conv *c, struct run *r)
{
	if (r->space && r->b.len > 0 && !r->line_start)
		sb_putc(c, &r->b, ' ');
	r->space = false;
}

/* Markdown written as is. */
static void run_raw(struct conv *c, struct run *r, const char *s, size_t n)
{
	if (n == 0)
		return;
	run_pending(c, r);
	sb_put(c, &r->b, s, n);
	r->line_start = false;
}

static void run_rawz(struct conv *c, struct run *r, const char *s)
{
	run_raw(c, r, s, strlen(s));
}

/* Text, collapsed and escaped. */
static void run_text(struct conv *c, struct run *r, const char *s)
{
	for (size_t i = 0; s[i]; i++) {
		char ch = s[i];
		if (is_ws(ch)) {
			if (r->b.len == 0)
				r->lead = true;
			r->space = true;
			continue;
		}
		run_pending(c, r);
		if (r->line_start && ch >= '0' && ch <= '9') {
			/* "1." / "1)" would start an ordered list */
			size_t j = i;
			while (s[j] >= '0' && s[j] <= '9')
				j++;
			if (s[j] == '.' || s[j] == ')') {
				sb_put(c, &r->b, s + i, j - i);
				sb_putc(c, &r->b, '\\');
				sb_putc(c, &r->b, s[j]);
				i = j;
				r->line_start = false;
				continue;
			}
		}
		bool esc = strchr("\\`*[]<|~", ch) != NULL;
		if (ch == '_') /* intraword underscores never emphasize */
			esc = !(r->b.len > 0 && is_alnum(r->b.p[r->b.len - 1]) && is_alnum(s[i + 1]));
		else if (ch == '&')
			esc = entity_like(s + i);
		else if (r->line_start)
			esc = esc || strchr("#-+=>", ch) != NULL;
		if (esc)
			sb_putc(c, &r->b, '\\');
		sb_putc(c, &r->b, ch);
		r->line_start = false;
	}
}

/* A URL as a link destination: md_links reads back exactly url. */
static void run_dest(struct conv *c, struct run *r, const char *url)
{
	run_pending(c, r);
	for (const char *p = url; *p; p++) {
		/* cmark decodes entities in destinations even after a backslash */
		if (*p == '&' && entity_like(p)) {
			sb_puts(c, &r->b, "&amp;");
			continue;
		}
		if (*p == '(' || *p == ')')
			sb_putc(c, &r->b, '\\');
		sb_putc(c, &r->b, *p);
	}
	r->line_start = false;
}

/* A finished sub-run (emphasis, link text) into r between open and close. */
static void run_wrap(struct conv *c, struct run *r, struct run *sub, const char *open, const char *close)
{
	if (sub->lead)
		r->space = true;
	if (sub->b.len) {
		run_rawz(c, r, open);
		run_raw(c, r, sub->b.p, sub->b.len);
		run_rawz(c, r, close);
	}
	if (sub->space)
		r->space = true;
	sb_free(&sub->b);
}

static void inline_node(struct conv *c, xmlNodePtr n, struct run *r);

static void inline_children(struct conv *c, xmlNodePtr n, struct run *r)
{
	for (xmlNodePtr k = n->children; k; k = k->next)
		inline_node(c, k, r);
}

static struct run sub_run(const struct run *r)
{
	return (struct run){ .single_line = r->single_line, .in_link = r->in_link, .in_cell = r->in_cell };
}

static void add_image(struct conv *c, const char *url)
{
	for (size_t i = 0; i < c->nimages; i++)
		if (strcmp(c->images[i], url) == 0)
			return;
	if (c->nimages >= HTML_MD_MAX_IMAGES)
		return;
	if (c->nimages == c->capimages) {
		size_t cap = c->capimages ? c->capimages * 2 : 16;
		const char **p = arena_alloc(c->a, sizeof(*p) * cap);
		if (c->nimages)
			memcpy(p, c->images, sizeof(*p) * c->nimages);
		c->images = p;
		c->capimages = cap;
	}
	c->images[c->nimages++] = url;
}

static void image(struct conv *c, xmlNodePtr n, struct run *r)
{
	char *src = attr(c, n, "src"), *alt, *url;
	struct run sub = sub_run(r);

	if (!src || !*src)
		src = attr(c, n, "data-src"); /* lazy-loading pages */
	if (!src || !(url = weburl_resolve(c->a, c->base, src)))
		return; /* data:, javascript:, nothing: no image */
	add_image(c, url);
	sub.single_line = true;
	if ((alt = attr(c, n, "alt")))
		run_text(c, &sub, alt);
	run_rawz(c, r, "![");
	run_raw(c, r, sub.b.p ? sub.b.p : "", sub.b.len);
	run_rawz(c, r, "](");
	run_dest(c, r, url);
	run_rawz(c, r, ")");
	sb_free(&sub.b);
}

/* A mailto: href that can stand bare as a destination. */
static bool plain_mailto(const char *href)
{
	if (strncasecmp(href, "mailto:", 7) != 0 || !href[7])
		return false;
	for (const char *p = href; *p; p++)
		if ((unsigned char)*p <= 0x20 || strchr("<>()\\", *p))
			return false;
	return true;
}

static void link(struct conv *c, xmlNodePtr n, struct run *r)
{
	char *href = attr(c, n, "href"), *url = NULL;
	struct run sub = sub_run(r);

	if (href && !(url = weburl_resolve(c->a, c->base, href)) && plain_mailto(href))
		url = href;
	sub.in_link = true;
	inline_children(c, n, &sub);
	if (!url || r->in_link) {
		run_wrap(c, r, &sub, "", "");
		return;
	}
	if (!sub.b.len) /* a link without text shows its URL */
		run_text(c, &sub, url);
	if (sub.lead)
		r->space = true;
	run_rawz(c, r, "[");
	run_raw(c, r, sub.b.p, sub.b.len);
	run_rawz(c, r, "](");
	run_dest(c, r, url);
	run_rawz(c, r, ")");
	if (sub.space)
		r->space = true;
	sb_free(&sub.b);
}

static void code_span(struct conv *c, xmlNodePtr n, struct run *r)
{
	xmlChar *t = xmlNodeGetContent(n);
	const char *s = (const char *)t;
	size_t len, run = 0, longest = 0;
	char fence[64];
	bool pad;

	if (!t)
		return;
	/* Line breaks are spaces in a code span; blank text is just a space. */
	for (char *p = (char *)t; *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t' || *p == '\f')
			*p = ' ';
	len = strlen(s);
	if (strspn(s, " ") == len) {
		if (len)
			r->space = true;
		xmlFree(t);
		return;
	}
	for (size_t i = 0; i < len; i++) {
		run = s[i] == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	if (longest + 1 >= sizeof(fence))
		longest = sizeof(fence) - 2;
	memset(fence, '`', longest + 1);
	fence[longest + 1] = '\0';
	pad = s[0] == '`' || s[len - 1] == '`' || (s[0] == ' ' && s[len - 1] == ' ');
	run_rawz(c, r, fence);
	if (pad)
		run_rawz(c, r, " ");
	if (r->in_cell) {
		for (size_t i = 0; i < len; i++) {
			if (s[i] == '|')
				sb_putc(c, &r->b, '\\');
			sb_putc(c, &r->b, s[i]);
		}
	} else {
		sb_put(c, &r->b, s, len);
	}
	if (pad)
		sb_putc(c, &r->b, ' ');
	sb_puts(c, &r->b, fence);
	xmlFree(t);
}

static void emphasis(struct conv *c, xmlNodePtr n, struct run *r, const char *marker)
{
	struct run sub = sub_run(r);

	inline_children(c, n, &sub);
	run_wrap(c, r, &sub, marker, marker);
}

static void inline_node(struct conv *c, xmlNodePtr n, struct run *r)
{
	const char *name;

	if (n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE) {
		if (n->content)
			run_text(c, r, (const char *)n->content);
		return;
	}
	if (n->type != XML_ELEMENT_NODE || skipped(c, n))
		return;
	if (c->idepth >= INLINE_MAX_DEPTH) {
		char *t = plain_text(c, n);
		if (t) {
			r->space = true;
			run_text(c, r, t);
		}
		return;
	}
	c->idepth++;
	name = name_of(n);
	if (strcmp(name, "br") == 0) {
		if (r->single_line || r->b.len == 0) {
			r->space = true;
		} else {
			r->space = false;
			sb_puts(c, &r->b, "\\\n");
			r->line_start = true;
		}
	} else if (strcmp(name, "img") == 0) {
		image(c, n, r);
	} else if (strcmp(name, "a") == 0) {
		link(c, n, r);
	} else if (!strcmp(name, "em") || !strcmp(name, "i") || !strcmp(name, "cite") || !strcmp(name, "var") ||
		   !strcmp(name, "dfn")) {
		emphasis(c, n, r, "*");
	} else if (!strcmp(name, "strong") || !strcmp(name, "b")) {
		emphasis(c, n, r, "**");
	} else if (!strcmp(name, "del") || !strcmp(name, "s") || !strcmp(name, "strike")) {
		emphasis(c, n, r, "~~");
	} else if (!strcmp(name, "code") || !strcmp(name, "kbd") || !strcmp(name, "samp") || !strcmp(name, "tt")) {
		code_span(c, n, r);
	} else if (is_block(n)) {
		/* A block where only inlines fit (a table cell, a link): its text
		 * with a space on both sides. */
		r->space = true;
		inline_children(c, n, r);
		r->space = true;
	} else {
		inline_children(c, n, r);
	}
	c->idepth--;
}

/* ---- blocks ---- */

/* Append a block to out: after a blank line, or after a line break when tight. */
static void add_block(struct conv *c, struct sb *out, const char *s, size_t n, bool tight)
{
	if (n == 0)
		return;
	if (out->len)
		sb_puts(c, out, tight ? "\n" : "\n\n");
	sb_put(c, out, s, n);
}

static void flush_para(struct conv *c, struct run *r, struct sb *out)
{
	/* A hard break ends no paragraph: a trailing one would be a literal "\\". */
	while (r->b.len >= 2 && r->b.p[r->b.len - 1] == '\n' && r->b.p[r->b.len - 2] == '\\')
		r->b.len -= 2;
	add_block(c, out, r->b.p, r->b.len, false);
	sb_free(&r->b);
	*r = (struct run){ .line_start = true };
}

static void block_node(struct conv *c, xmlNodePtr n, struct sb *out, bool in_li);

/* The children of parent as blocks; in_li: inside a list item, where a
 * nested list follows its text on the next line (a tight list). */
static void blocks(struct conv *c, xmlNodePtr parent, struct sb *out, bool in_li)
{
	struct run r = { .line_start = true };

	for (xmlNodePtr n = parent->children; n; n = n->next) {
		if (n->type == XML_ELEMENT_NODE && skipped(c, n))
			continue;
		if (n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE ||
		    (n->type == XML_ELEMENT_NODE && !is_block(n))) {
			inline_node(c, n, &r);
			continue;
		}
		if (n->type != XML_ELEMENT_NODE)
			continue;
		flush_para(c, &r, out);
		block_node(c, n, out, in_li);
	}
	flush_para(c, &r, out);
}

/* Every line of s prefixed: the first with first, the others with rest
 * (blank lines with rest_blank). */
static void prefix_lines(struct conv *c, struct sb *out, const struct sb *s, const char *first, const char *rest,
			 const char *rest_blank)
{
	const char *p = s->p ? s->p : "", *end = p + s->len;
	bool first_line = true;

	if (s->len == 0) {
		sb_puts(c, out, first);
		return;
	}
	while (p <= end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (!first_line)
			sb_putc(c, out, '\n');
		sb_puts(c, out, first_line ? first : n ? rest : rest_blank);
		sb_put(c, out, p, n);
		first_line = false;
		if (!nl)
			break;
		p = nl + 1;
	}
}

static void heading(struct conv *c, xmlNodePtr n, struct sb *out, int level)
{
	struct run r = { .single_line = true };
	struct sb line = { 0 };

	if (level == 1 && !c->h1) {
		char *t = plain_text(c, n);
		if (t && *t)
			c->h1 = t;
	}
	inline_children(c, n, &r);
	if (r.b.len) {
		sb_put(c, &line, "######", (size_t)level);
		sb_putc(c, &line, ' ');
		sb_put(c, &line, r.b.p, r.b.len);
		add_block(c, out, line.p, line.len, false);
	}
	sb_free(&r.b);
	sb_free(&line);
}

/* "language-x" / "lang-x" in n's class: x (letters, digits, _+#.-), or NULL. */
static char *code_language(struct conv *c, xmlNodePtr n)
{
	char *cls = n ? attr(c, n, "class") : NULL, *save = NULL;

	for (char *t = cls ? strtok_r(cls, " \t\n\r\f", &save) : NULL; t; t = strtok_r(NULL, " \t\n\r\f", &save)) {
		char *lang = strncmp(t, "language-", 9) == 0 ? t + 9 : strncmp(t, "lang-", 5) == 0 ? t + 5 : NULL;
		size_t len = lang ? strlen(lang) : 0;
		if (len == 0 || len > 32)
			continue;
		if (strspn(lang, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_+#.-") == len)
			return lang;
	}
	return NULL;
}

static void code_block(struct conv *c, xmlNodePtr n, struct sb *out)
{
	xmlChar *t = xmlNodeGetContent(n);
	char *s, *lang = code_language(c, n), fence[64];
	size_t len, k = 0, run = 0, longest = 0;
	struct sb b = { 0 };
	xmlNodePtr code = NULL;

	if (!t)
		return;
	for (xmlNodePtr k2 = n->children; k2 && !code; k2 = k2->next)
		if (k2->type == XML_ELEMENT_NODE)
			code = k2;
	if (!lang && code && is(code, "code"))
		lang = code_language(c, code);
	/* "\r\n" -> "\n"; one leading newline (HTML drops it) and trailing blank lines go. */
	s = (char *)t;
	for (size_t i = 0; s[i]; i++)
		if (s[i] != '\r')
			s[k++] = s[i];
	s[k] = '\0';
	if (*s == '\n')
		s++;
	len = strlen(s);
	while (len > 0 && (s[len - 1] == '\n' || s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	for (size_t i = 0; i < len; i++) {
		run = s[i] == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	if (longest < 2)
		longest = 2;
	if (longest + 1 >= sizeof(fence))
		longest = sizeof(fence) - 2;
	memset(fence, '`', longest + 1);
	fence[longest + 1] = '\0';
	sb_puts(c, &b, fence);
	if (lang)
		sb_puts(c, &b, lang);
	sb_putc(c, &b, '\n');
	if (len) {
		sb_put(c, &b, s, len);
		sb_putc(c, &b, '\n');
	}
	sb_puts(c, &b, fence);
	add_block(c, out, b.p, b.len, false);
	sb_free(&b);
	xmlFree(t);
}

static void list(struct conv *c, xmlNodePtr n, struct sb *out, bool ordered, bool tight_after)
{
	struct sb items = { 0 }, item = { 0 };
	long num = 1;
	char *start = ordered ? attr(c, n, "start") : NULL, marker[32], indent[32];
	bool loose = false;
	int count = 0;

	if (start) {
		char *end;
		long v = strtol(start, &end, 10);
		if (end != start && v >= 0 && v < 1000000000L)
			num = v;
	}
	/* Items, loose when one of them holds a blank line. */
	struct sb *parts = NULL;
	size_t nparts = 0;
	for (xmlNodePtr k = n->children; k; k = k->next) {
		if (k->type == XML_TEXT_NODE && (!k->content || !*k->content || strspn((const char *)k->content, " \t\n\r\f") ==
									    strlen((const char *)k->content)))
			continue;
		if (k->type != XML_ELEMENT_NODE && k->type != XML_TEXT_NODE)
			continue;
		if (k->type == XML_ELEMENT_NODE && skipped(c, k))
			continue;
		item = (struct sb){ 0 };
		if (is(k, "li")) {
			blocks(c, k, &item, true);
		} else if ((is(k, "ul") || is(k, "ol")) && nparts > 0) {
			/* a list right inside a list: the previous item's sublist */
			block_node(c, k, &parts[nparts - 1], true);
			continue;
		} else {
			struct run r = { .line_start = true };
			if (is_block(k)) {
				block_node(c, k, &item, true);
			} else {
				inline_node(c, k, &r);
				flush_para(c, &r, &item);
			}
		}
		parts = xrealloc(parts, sizeof(*parts) * (nparts + 1));
		parts[nparts++] = item;
	}
	for (size_t i = 0; i < nparts; i++)
		if (parts[i].len && memmem(parts[i].p, parts[i].len, "\n\n", 2))
			loose = true;
	for (size_t i = 0; i < nparts; i++) {
		if (ordered)
			snprintf(marker, sizeof(marker), "%ld. ", num + (long)i);
		else
			snprintf(marker, sizeof(marker), "- ");
		memset(indent, ' ', strlen(marker));
		indent[strlen(marker)] = '\0';
		if (count++)
			sb_puts(c, &items, loose ? "\n\n" : "\n");
		prefix_lines(c, &items, &parts[i], marker, indent, "");
	}
	for (size_t i = 0; i < nparts; i++)
		sb_free(&parts[i]);
	free(parts);
	add_block(c, out, items.p, items.len, tight_after);
	sb_free(&items);
}

static void quote(struct conv *c, xmlNodePtr n, struct sb *out)
{
	struct sb inner = { 0 }, q = { 0 };

	blocks(c, n, &inner, false);
	if (inner.len) {
		prefix_lines(c, &q, &inner, "> ", "> ", ">");
		add_block(c, out, q.p, q.len, false);
	}
	sb_free(&inner);
	sb_free(&q);
}

/* ---- tables ---- */

struct cell_row {
	char **cells; /* malloc'd strings (markdown of each cell) */
	int n;
};

static void row_free(struct cell_row *r)
{
	for (int i = 0; i < r->n; i++)
		free(r->cells[i]);
	free(r->cells);
}

static void row_add(struct conv *c, struct cell_row *r, const char *s, size_t n)
{
	char *copy;

	if (r->n >= TABLE_MAX_COLS)
		return;
	r->cells = xrealloc(r->cells, sizeof(*r->cells) * (size_t)(r->n + 1));
	copy = xmalloc(n + 1);
	memcpy(copy, s, n);
	copy[n] = '\0';
	r->cells[r->n++] = copy;
}

static void table_row(struct conv *c, xmlNodePtr tr, struct cell_row *row)
{
	for (xmlNodePtr k = tr->children; k; k = k->next) {
		if (!is(k, "td") && !is(k, "th"))
			continue;
		struct run r = { .single_line = true, .in_cell = true };
		char *span = attr(c, k, "colspan");
		long extra = span ? strtol(span, NULL, 10) - 1 : 0;
		inline_children(c, k, &r);
		row_add(c, row, r.b.p ? r.b.p : "", r.b.len);
		sb_free(&r.b);
		for (long i = 0; i < extra && i < TABLE_MAX_COLS; i++)
			row_add(c, row, "", 0);
	}
}

static void table(struct conv *c, xmlNodePtr n, struct sb *out)
{
	struct cell_row *rows = NULL;
	int nrows = 0, ncols = 0;
	struct sb b = { 0 };

	for (xmlNodePtr k = n->children; k; k = k->next) {
		if (is(k, "caption")) {
			struct run r = { .line_start = true };
			inline_children(c, k, &r);
			flush_para(c, &r, out);
			continue;
		}
		xmlNodePtr first = is(k, "tr") ? k : (is(k, "thead") || is(k, "tbody") || is(k, "tfoot")) ? k->children : NULL;
		for (xmlNodePtr tr = first; tr; tr = tr == k ? NULL : tr->next) {
			if (!is(tr, "tr"))
				continue;
			rows = xrealloc(rows, sizeof(*rows) * (size_t)(nrows + 1));
			rows[nrows] = (struct cell_row){ 0 };
			table_row(c, tr, &rows[nrows]);
			if (rows[nrows].n > ncols)
				ncols = rows[nrows].n;
			nrows++;
		}
	}
	if (nrows && ncols) {
		for (int i = 0; i < nrows; i++) {
			if (i)
				sb_putc(c, &b, '\n');
			sb_puts(c, &b, "|");
			for (int j = 0; j < ncols; j++) {
				sb_puts(c, &b, " ");
				if (j < rows[i].n)
					sb_puts(c, &b, rows[i].cells[j]);
				sb_puts(c, &b, " |");
			}
			if (i == 0) {
				sb_puts(c, &b, "\n|");
				for (int j = 0; j < ncols; j++)
					sb_puts(c, &b, " --- |");
			}
		}
		add_block(c, out, b.p, b.len, false);
	}
	for (int i = 0; i < nrows; i++)
		row_free(&rows[i]);
	free(rows);
	sb_free(&b);
}

static void block_node(struct conv *c, xmlNodePtr n, struct sb *out, bool in_li)
{
	const char *name = name_of(n);

	if (c->depth >= HTML_MD_MAX_DEPTH) {
		struct run r = { .line_start = true };
		char *t = plain_text(c, n);
		if (t)
			run_text(c, &r, t);
		flush_para(c, &r, out);
		return;
	}
	c->depth++;
	if (name[0] == 'h' && name[1] >= '1' && name[1] <= '6' && !name[2]) {
		heading(c, n, out, name[1] - '0');
	} else if (strcmp(name, "p") == 0 || strcmp(name, "dt") == 0 || strcmp(name, "dd") == 0 ||
		   strcmp(name, "figcaption") == 0 || strcmp(name, "summary") == 0 || strcmp(name, "legend") == 0) {
		/* Blocks inside (bad HTML libxml2 kept) are flattened into the paragraph. */
		struct run r = { .line_start = true };
		inline_children(c, n, &r);
		flush_para(c, &r, out);
	} else if (strcmp(name, "pre") == 0) {
		code_block(c, n, out);
	} else if (strcmp(name, "ul") == 0 || strcmp(name, "menu") == 0 || strcmp(name, "dir") == 0) {
		list(c, n, out, false, in_li);
	} else if (strcmp(name, "ol") == 0) {
		list(c, n, out, true, in_li);
	} else if (strcmp(name, "blockquote") == 0) {
		quote(c, n, out);
	} else if (strcmp(name, "hr") == 0) {
		add_block(c, out, "---", 3, false);
	} else if (strcmp(name, "table") == 0) {
		table(c, n, out);
	} else {
		/* div, section, article, figure, li outside a list, ...: a container */
		blocks(c, n, out, in_li);
	}
	c->depth--;
}

/* ---- the document ---- */

/* The next node of a depth-first walk of the subtree under top, or NULL. */
static xmlNodePtr walk_next(xmlNodePtr n, xmlNodePtr top)
{
	if (n->children && n->type == XML_ELEMENT_NODE)
		return n->children;
	while (n && n != top) {
		if (n->next)
			return n->next;
		n = n->parent;
	}
	return NULL;
}

/* The first element under top matching pred, in document order. */
static xmlNodePtr find_first(xmlNodePtr top, bool (*pred)(struct conv *, xmlNodePtr), struct conv *c)
{
	for (xmlNodePtr n = top; n; n = walk_next(n, top))
		if (n->type == XML_ELEMENT_NODE && pred(c, n))
			return n;
	return NULL;
}

static bool is_main(struct conv *c, xmlNodePtr n)
{
	char *role;

	if (is(n, "main"))
		return true;
	role = attr(c, n, "role");
	return role && strcasecmp(role, "main") == 0;
}

static bool is_article(struct conv *c, xmlNodePtr n)
{
	(void)c;
	return is(n, "article");
}

static bool is_body(struct conv *c, xmlNodePtr n)
{
	(void)c;
	return is(n, "body");
}

static bool is_title(struct conv *c, xmlNodePtr n)
{
	(void)c;
	return is(n, "title");
}

static bool is_base(struct conv *c, xmlNodePtr n)
{
	(void)c;
	return is(n, "base") && has_attr(n, "href");
}

/* Every <a href> of the document that resolves to http(s). */
static void links_collect(struct conv *c, xmlNodePtr root, struct html_md *out)
{
	size_t cap = 0;

	for (xmlNodePtr n = root; n && out->nlinks < HTML_MD_MAX_LINKS; n = walk_next(n, root)) {
		char *href, *url;
		if (!is(n, "a") || !(href = attr(c, n, "href")) || !(url = weburl_resolve(c->a, c->base, href)))
			continue;
		if (out->nlinks == cap) {
			size_t ncap = cap ? cap * 2 : 32;
			const char **p = arena_alloc(c->a, sizeof(*p) * ncap);
			if (out->nlinks)
				memcpy(p, out->links, sizeof(*p) * out->nlinks);
			out->links = p;
			cap = ncap;
		}
		out->links[out->nlinks++] = url;
	}
}

static bool utf8_ok(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0; i < len;) {
		unsigned char b = p[i];
		size_t n = b < 0x80 ? 1 : (b & 0xE0) == 0xC0 ? 2 : (b & 0xF0) == 0xE0 ? 3 : (b & 0xF8) == 0xF0 ? 4 : 0;
		if (n == 0 || i + n > len || (n == 2 && b < 0xC2) || (n == 4 && b > 0xF4))
			return false;
		for (size_t k = 1; k < n; k++)
			if ((p[i + k] & 0xC0) != 0x80)
				return false;
		/* overlong 3- and 4-byte forms, surrogates, past U+10FFFF */
		if ((n == 3 && ((b == 0xE0 && p[i + 1] < 0xA0) || (b == 0xED && p[i + 1] >= 0xA0))) ||
		    (n == 4 && ((b == 0xF0 && p[i + 1] < 0x90) || (b == 0xF4 && p[i + 1] >= 0x90))))
			return false;
		i += n;
	}
	return true;
}

/* The charset the page declares in its first 4096 bytes (<meta
 * charset="x">, or "charset=x" in a <meta http-equiv> content), into
 * buf[0..bufsz): true when there is one. */
static bool declared_charset(const char *s, size_t len, char *buf, size_t bufsz)
{
	size_t head = len < 4096 ? len : 4096;

	for (size_t i = 0; i + 7 <= head; i++) {
		size_t j = i + 7, k = 0;
		if (strncasecmp(s + i, "charset", 7) != 0)
			continue;
		while (j < head && isspace((unsigned char)s[j]))
			j++;
		if (j >= head || s[j] != '=')
			continue;
		for (j++; j < head && isspace((unsigned char)s[j]); j++)
			;
		if (j < head && (s[j] == '"' || s[j] == '\''))
			j++;
		while (j < head && k + 1 < bufsz && (isalnum((unsigned char)s[j]) || strchr("-_.:", s[j])))
			buf[k++] = s[j++];
		if (!k)
			continue;
		buf[k] = '\0';
		return true;
	}
	return false;
}

/* windows-1252, or ISO-8859-1 when the bytes hold one of the five that
 * windows-1252 leaves undefined (iconv stops there; browsers read them as
 * the C1 controls ISO-8859-1 has). */
static const char *cp1252_or_latin1(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char b = (unsigned char)s[i];
		if (b == 0x81 || b == 0x8D || b == 0x8F || b == 0x90 || b == 0x9D)
			return "ISO-8859-1";
	}
	return "windows-1252";
}

/*
 * The encoding the page is read with, in the HTML standard's order: a BOM
 * (*enc NULL: libxml2 reads it), the charset the page declares, else UTF-8
 * when the bytes are valid UTF-8, else windows-1252 (what browsers read a
 * page that says nothing in). libxml2 2.9 left alone guesses, and when it
 * guesses wrong it copies bytes of an entity-like "&\xe9" into the text
 * undecoded: markdown that is not UTF-8, which no JSON or store takes.
 * Given the encoding, it converts the whole input first. ERR_INVALID when
 * the declared charset is not one this system can decode.
 */
static int page_encoding(const char *s, size_t len, char *buf, size_t bufsz, const char **enc)
{
	static const char *const latin1[] = { "iso-8859-1", "iso8859-1", "latin1", "l1", "us-ascii", "ascii",
					       "cp1252", "x-cp1252", "iso_8859-1", "cp819" };
	const unsigned char *p = (const unsigned char *)s;
	xmlCharEncodingHandlerPtr h;

	*enc = NULL;
	if (len >= 2 && ((p[0] == 0xFE && p[1] == 0xFF) || (p[0] == 0xFF && p[1] == 0xFE)))
		return 0;
	if (len >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) {
		*enc = "UTF-8";
		return 0;
	}
	if (!declared_charset(s, len, buf, bufsz)) {
		*enc = utf8_ok(s, len) ? "UTF-8" : cp1252_or_latin1(s, len);
		return 0;
	}
	*enc = buf;
	/* The standard's labels: Latin-1 and ASCII mean windows-1252, and a
	 * declaration readable as ASCII cannot be in UTF-16. */
	for (size_t i = 0; i < sizeof(latin1) / sizeof(latin1[0]); i++)
		if (strcasecmp(buf, latin1[i]) == 0)
			*enc = "windows-1252";
	if (strncasecmp(buf, "utf-16", 6) == 0 || strcasecmp(buf, "utf8") == 0 || strcasecmp(buf, "utf-8") == 0)
		*enc = "UTF-8";
	if (strcasecmp(*enc, "windows-1252") == 0)
		*enc = cp1252_or_latin1(s, len);
	if (!(h = xmlFindCharEncodingHandler(*enc)))
		return err_set(ERR_INVALID, "url: the page's charset '%s' is not one docsd can decode", buf);
	xmlCharEncCloseFunc(h);
	return 0;
}

int html_to_markdown(struct arena *a, const char *html, size_t len, const char *url, struct html_md *out)
{
	struct conv c = { .a = a, .base = url };
	htmlDocPtr doc = NULL;
	xmlNodePtr root, content, node;
	struct sb md = { 0 };
	char charset[40];
	const char *enc;
	int rc;

	memset(out, 0, sizeof(*out));
	if (pthread_once(&xml_once, xml_init) != 0)
		return err_set(ERR_INTERNAL, "libxml2 could not be initialized");
	if (len > INT_MAX)
		return err_set(ERR_INVALID, "the page is too large to parse");
	if ((rc = page_encoding(html, len, charset, sizeof(charset), &enc)))
		return rc;
	doc = htmlReadMemory(html, (int)len, url, enc,
			     HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
	if (!doc || !(root = xmlDocGetRootElement(doc))) {
		/* An empty or textless body parses to nothing: an empty page. */
		xmlFreeDoc(doc);
		out->markdown = arena_strdup(a, "");
		return 0;
	}
	/* <base href> changes what relative URLs mean. */
	if ((node = find_first(root, is_base, &c))) {
		char *href = attr(&c, node, "href"), *b = href ? weburl_resolve(a, url, href) : NULL;
		if (b)
			c.base = weburl_strip_fragment(a, b);
	}
	links_collect(&c, root, out);
	if (!(content = find_first(root, is_main, &c)) && !(content = find_first(root, is_article, &c)) &&
	    !(content = find_first(root, is_body, &c)))
		content = root;
	blocks(&c, content, &md, false);
	out->title = c.h1;
	if (!out->title && (node = find_first(root, is_title, &c))) {
		char *t = plain_text(&c, node);
		out->title = t && *t ? t : NULL;
	}
	if (md.len >= 3 && strncmp(md.p, "---", 3) == 0)
		memcpy(md.p, "***", 3); /* "---" first would open frontmatter */
	if (md.len)
		sb_putc(&c, &md, '\n');
	/* Decoding gave UTF-8 unless the page's bytes are not what it says
	 * (a page declaring UTF-8 that is not): refused, never passed on. */
	if (!utf8_ok(md.p ? md.p : "", md.len) || (out->title && !utf8_ok(out->title, strlen(out->title)))) {
		sb_free(&md);
		xmlFreeDoc(doc);
		memset(out, 0, sizeof(*out));
		return err_set(ERR_INVALID, "url: the page's text is not valid %s", enc ? enc : "in its charset");
	}
	out->truncated = c.full;
	out->len = md.len;
	out->markdown = arena_strndup(a, md.p ? md.p : "", md.len);
	out->images = c.images;
	out->nimages = c.nimages;
	sb_free(&md);
	xmlFreeDoc(doc);
	return 0;
}
