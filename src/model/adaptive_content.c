/*
 * adaptive_content.c - a page's {% if %} blocks and {{ }} expressions
 * decided for one visitor (adaptive.h, "adaptive content of a page").
 *
 * DESIGN
 * Content a condition hides must never leave docsd for a visitor who does
 * not match (DESIGN.md, "Published sites"). So the decision is made once,
 * on the markdown text, before any consumer sees it: the HTML renderer, the
 * .md twin, llms-full.txt, search excerpts and the PDF all read the text
 * this file returns, and none of them needs to know what a condition is.
 *
 * What is code is cmark-gfm's answer, not ours: the text (past its
 * frontmatter) is parsed once with the renderer's parser setup
 * (format/markdown.h md_parse) and every code block (fenced or indented, in
 * any container: "1. ```bash", a fence indented with a tab, in a quote, an
 * unclosed fence running to the end of its container) marks its lines as
 * code, every code span the bytes from its opening to its closing backtick
 * run (see code_map). A second model of fences, as this file once had, is
 * exactly how hidden text used to reach every visitor: where the two
 * disagreed, the tags of a block were taken for code and printed.
 *
 * Outside code, "{%" up to the first "%}" on the same line is a tag; if /
 * elsif / elseif / else if / else / endif drive a stack of frames {parent
 * shown, this branch shown, a branch already taken}; every other tag and
 * all text are copied while the innermost frame is shown. An if-family tag
 * that does not close on its line (split over two lines, or never closed)
 * cannot be decided: an if opens a hidden block, an elsif / else / endif
 * hides the rest of the block it is in, and adapt_check refuses it at write.
 * "{{" up to the first "}}" on the line is an expression, replaced by its
 * escaped value. Deeper nesting than ADAPT_MAX_DEPTH hides the whole deeper
 * block (counted so its endif still matches). Hiding is the failure mode
 * everywhere: a condition that does not parse, an unclosed block, a text
 * cmark cannot parse (out of memory: nothing is shown).
 *
 * adapt_markdown and adapt_check are one walk (struct ad), so what the
 * check accepts is exactly what the renderer decides.
 */
#include "model/adaptive.h"

#include "format/markdown.h"
#include "json/jsonw.h"
#include "model/condition.h"
#include "util/err.h"

#include <cmark-gfm.h>
#include <stdio.h>
#include <string.h>

#define ADAPT_MAX_VALUE 1024 /* bytes of one {{ }} value written */

struct frame {
	bool parent; /* the enclosing content is shown */
	bool on;     /* this branch is shown */
	bool taken;  /* a branch of this block was true */
};

struct ad {
	struct jw out;
	struct arena *a;
	const struct adapt_ctx *ctx;
	const char *md;            /* the whole text, md[0..len) */
	size_t len;
	const unsigned char *code; /* code[i]: md[i] is code (code_map) */
	struct frame st[ADAPT_MAX_DEPTH];
	int depth;
	int overflow; /* blocks opened past the limit: hidden */
	int line;     /* 1-based line of the text being read */
	/* adapt_check: conditions are parsed in every branch, the first
	 * problem is kept (rc, with the thread's error message set) */
	bool check;
	const char *field;
	int rc;
};

enum atag { AT_NONE, AT_IF, AT_ELSIF, AT_ELSE, AT_ENDIF };

/* jw_put of n bytes; nothing for none (an empty buffer has no memory yet). */
static void out_put(struct jw *o, const char *s, size_t n)
{
	if (n)
		jw_put(o, s, n);
}

static bool shown(const struct ad *d)
{
	return !d->overflow && (d->depth == 0 || d->st[d->depth - 1].on);
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* The end of the tag opened at s[at] ("{%" or "{{"): the index past the
 * first closer ("%}" or "}}") on the same line s[..n) that is not code, or
 * 0 when it has none. */
static size_t tag_end(const struct ad *d, const char *s, size_t n, size_t at, char close)
{
	size_t base = (size_t)(s - d->md);

	for (size_t k = at + 2; k + 1 < n; k++)
		if (s[k] == close && s[k + 1] == '}' && !d->code[base + k] && !d->code[base + k + 1])
			return k + 2;
	return 0;
}

static bool word_is(const char *s, size_t n, const char *w)
{
	size_t wl = strlen(w);

	return n >= wl && memcmp(s, w, wl) == 0 && (n == wl || !((s[wl] >= 'a' && s[wl] <= 'z') || s[wl] == '_'));
}

/* What the block tag s[0..n) ("{%" ... "%}") is; *cond, *clen its condition
 * for if and elsif. */
static enum atag classify(const char *s, size_t n, const char **cond, size_t *clen)
{
	size_t i = 2, e = n - 2;
	enum atag k = AT_ELSIF;

	*cond = NULL;
	*clen = 0;
	if (i < e && s[i] == '-') /* Liquid's whitespace control: {%- ... -%} */
		i++;
	if (e > i && s[e - 1] == '-')
		e--;
	if (e < i) /* "{%-%}" */
		e = i;
	while (i < e && blank(s[i]))
		i++;
	while (e > i && blank(s[e - 1]))
		e--;
	if (word_is(s + i, e - i, "endif"))
		return AT_ENDIF;
	if (word_is(s + i, e - i, "if")) {
		k = AT_IF;
		i += 2;
	} else if (word_is(s + i, e - i, "elsif")) {
		i += 5;
	} else if (word_is(s + i, e - i, "elseif")) {
		i += 6;
	} else if (word_is(s + i, e - i, "else")) {
		size_t j = i + 4;
		while (j < e && blank(s[j]))
			j++;
		if (!word_is(s + j, e - j, "if"))
			return AT_ELSE;
		i = j + 2;
	} else {
		return AT_NONE;
	}
	while (i < e && blank(s[i]))
		i++;
	*cond = s + i;
	*clen = e - i;
	return k;
}

/* Whether the condition cond[0..clen) holds for the visitor; NULL (a tag
 * that cannot be read) never does. */
static bool decide(struct ad *d, const char *cond, size_t clen)
{
	const char *src;

	if (!cond)
		return false;
	src = arena_strndup(d->a, cond, clen);

	return *src && cond_visible(src, d->ctx->visitor);
}

static void block_tag(struct ad *d, enum atag k, const char *cond, size_t clen)
{
	struct frame *f;

	switch (k) {
	case AT_IF:
		if (d->overflow || d->depth == ADAPT_MAX_DEPTH) {
			d->overflow++;
			return;
		}
		f = &d->st[d->depth];
		f->parent = shown(d);
		f->on = f->parent && decide(d, cond, clen);
		f->taken = f->on;
		d->depth++;
		return;
	case AT_ELSIF:
	case AT_ELSE:
		if (d->overflow || !d->depth)
			return; /* inside a hidden overflow block, or stray */
		f = &d->st[d->depth - 1];
		if (f->taken || !f->parent) {
			f->on = false;
			return;
		}
		f->on = k == AT_ELSE || decide(d, cond, clen);
		f->taken = f->on;
		return;
	case AT_ENDIF:
		if (d->overflow)
			d->overflow--;
		else if (d->depth)
			d->depth--;
		return;
	case AT_NONE:
		return;
	}
}

/* ---- {{ expressions }} ---- */

/* Markdown text of a value: ASCII punctuation backslash-escaped (CommonMark
 * reads "\x" as the character x for any punctuation, so no markup, link,
 * HTML or entity can start), line breaks as spaces. */
static void put_escaped(struct jw *o, const char *s, size_t n)
{
	static const char punct[] = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

	if (n > ADAPT_MAX_VALUE)
		n = ADAPT_MAX_VALUE;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '\n' || c == '\r' || c == '\0')
			c = ' ';
		if (strchr(punct, c) && c)
			out_put(o, "\\", 1);
		out_put(o, &c, 1);
	}
}

static void put_scalar(struct jw *o, const json_t *v)
{
	char num[40];

	switch (json_typeof(v)) {
	case JSON_STRING:
		put_escaped(o, json_string_value(v), json_string_length(v));
		return;
	case JSON_INTEGER:
		snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(v));
		put_escaped(o, num, strlen(num));
		return;
	case JSON_REAL:
		snprintf(num, sizeof(num), "%.15g", json_real_value(v));
		put_escaped(o, num, strlen(num));
		return;
	case JSON_TRUE:
		out_put(o, "true", 4);
		return;
	case JSON_FALSE:
		out_put(o, "false", 5);
		return;
	default:
		return; /* null, objects: nothing */
	}
}

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
}

/* The value the expression e[0..n) names, or NULL. */
static const json_t *lookup(const struct adapt_ctx *ctx, const char *e, size_t n)
{
	const json_t *j;
	size_t i;

	while (n && blank(*e))
		e++, n--;
	while (n && blank(e[n - 1]))
		n--;
	if (n >= 9 && !memcmp(e, "page.vars", 9))
		j = ctx->page_vars, i = 9;
	else if (n >= 10 && !memcmp(e, "space.vars", 10))
		j = ctx->space_vars, i = 10;
	else if (n >= 14 && !memcmp(e, "visitor.claims", 14))
		j = ctx->visitor ? json_object_get(ctx->visitor, "claims") : NULL, i = 14;
	else
		return NULL;
	if (i < n && ident_char(e[i]))
		return NULL; /* page.variables ... */
	while (j && i < n) {
		if (e[i] == '?' && i + 1 < n && e[i + 1] == '.')
			i++;
		if (e[i] == '.') {
			size_t s = ++i;
			while (i < n && ident_char(e[i]))
				i++;
			if (i == s)
				return NULL;
			j = json_is_object(j) ? json_object_getn(j, e + s, i - s) : NULL;
		} else if (e[i] == '[' && i + 1 < n && (e[i + 1] == '"' || e[i + 1] == '\'')) {
			char q = e[i + 1];
			size_t s = i + 2, k = s;
			while (k < n && e[k] != q && e[k] != '\\')
				k++;
			if (k + 1 >= n || e[k] != q || e[k + 1] != ']')
				return NULL;
			j = json_is_object(j) ? json_object_getn(j, e + s, k - s) : NULL;
			i = k + 2;
		} else if (e[i] == '[') {
			size_t idx = 0, k = i + 1;
			while (k < n && e[k] >= '0' && e[k] <= '9' && idx < 1000000)
				idx = idx * 10 + (size_t)(e[k++] - '0');
			if (k == i + 1 || k >= n || e[k] != ']')
				return NULL;
			j = json_is_array(j) ? json_array_get(j, idx) : NULL;
			i = k + 1;
		} else {
			return NULL;
		}
	}
	return j;
}

static void expression(struct ad *d, const char *e, size_t n)
{
	const json_t *v = lookup(d->ctx, e, n);
	size_t i;
	const json_t *x;

	if (!v)
		return;
	if (json_is_array(v)) {
		/* JavaScript's String(array): the elements joined by ",". */
		json_array_foreach(v, i, x) {
			if (i)
				out_put(&d->out, "\\,", 2);
			put_scalar(&d->out, x);
		}
		return;
	}
	put_scalar(&d->out, v);
}

/* ---- what is code: cmark-gfm's parse ---- */

struct cmap {
	const char *md;
	size_t len;
	size_t *ls;          /* ls[l - 1]: where line l starts; ls[nlines] = len */
	int nlines;
	int line0;           /* lines before the body (frontmatter) */
	unsigned char *code; /* len + 1 bytes */
	size_t cursor;       /* past the last code span found */
	int unsure;          /* the line of the first code span not found in the text, or 0 */
};

static bool eol(const char *s, size_t n, size_t i)
{
	return s[i] == '\n' || (s[i] == '\r' && (i + 1 >= n || s[i + 1] != '\n'));
}

/* Line starts of md[0..len) by CommonMark's line endings (\n, \r\n, \r):
 * the numbering of cmark's source positions. */
static void line_starts(struct arena *a, struct cmap *m)
{
	size_t cnt = 1, k = 1;

	for (size_t i = 0; i < m->len; i++)
		cnt += eol(m->md, m->len, i);
	m->ls = arena_alloc(a, sizeof(*m->ls) * (cnt + 1));
	m->ls[0] = 0;
	for (size_t i = 0; i < m->len; i++)
		if (eol(m->md, m->len, i))
			m->ls[k++] = i + 1;
	m->ls[cnt] = m->len;
	m->nlines = (int)cnt;
}

/* Lines from..to (of the whole text) are code. */
static void mark_lines(struct cmap *m, int from, int to)
{
	if (from < 1)
		from = 1;
	if (to > m->nlines)
		to = m->nlines;
	if (from <= to)
		memset(m->code + m->ls[from - 1], 1, m->ls[to] - m->ls[from - 1]);
}

static size_t run_at(const char *s, size_t n, size_t p)
{
	size_t k = p;

	while (k < n && s[k] == '`')
		k++;
	return k - p;
}

/* Whether a[0..an) is lit (whole) or starts it (!whole), "\|" read as "|"
 * (GFM tables unescape it before a cell's code span is read). */
static bool same_text(const char *a, size_t an, const char *lit, bool whole)
{
	size_t i = 0, j = 0, ll = strlen(lit);

	while (i < an) {
		if (a[i] == '\\' && i + 1 < an && a[i + 1] == '|' && j < ll && lit[j] == '|')
			i += 2, j++;
		else if (j < ll && a[i] == lit[j])
			i++, j++;
		else
			return false;
	}
	return !whole || j == ll;
}

/* Whether the content c[0..n) of a span is what cmark read as lit: one
 * line whole (one space stripped at both ends when both are there), a span
 * over lines by its first line (later lines carry container prefixes). */
static bool span_matches(const char *c, size_t n, const char *lit)
{
	size_t e = 0;
	bool all_sp = true;

	for (; e < n && c[e] != '\n' && c[e] != '\r'; e++)
		if (c[e] != ' ')
			all_sp = false;
	if (e < n)
		return same_text(c, e, lit, false) || (e && c[0] == ' ' && same_text(c + 1, e - 1, lit, false));
	if (same_text(c, n, lit, true))
		return true;
	return n >= 2 && !all_sp && c[0] == ' ' && c[n - 1] == ' ' && same_text(c + 1, n - 2, lit, true);
}

/* The bytes md[*os..*oe) of the code span cmark read as lit, starting on
 * line (past m->cursor) and ending by line last: an opening backtick run
 * (not backslash-escaped) and the next run of the same length. exact: its
 * content must read as lit (this skips backticks of raw HTML or autolinks
 * before it); otherwise the first such pair. */
static bool find_span(const struct cmap *m, int line, int last, const char *lit, bool exact, size_t *os,
		      size_t *oe)
{
	size_t from, lim, p, r;

	if (line < 1 || line > m->nlines)
		return false;
	if (last < line)
		last = line;
	if (last > m->nlines)
		last = m->nlines;
	from = m->ls[line - 1] > m->cursor ? m->ls[line - 1] : m->cursor;
	lim = m->ls[last];
	for (p = from; p < lim; p += r) {
		size_t o = p, orun, q, bs = 0;

		if (m->md[p] != '`') {
			r = 1;
			continue;
		}
		r = run_at(m->md, lim, p);
		while (p > bs && m->md[p - 1 - bs] == '\\')
			bs++;
		orun = r;
		if (bs % 2)
			o++, orun--;
		if (!orun)
			continue;
		for (q = o + orun; q < lim;) {
			size_t cr;
			if (m->md[q] != '`') {
				q++;
				continue;
			}
			if ((cr = run_at(m->md, lim, q)) == orun)
				break;
			q += cr;
		}
		if (q < lim && (!exact || span_matches(m->md + o + orun, q - o - orun, lit))) {
			*os = o;
			*oe = q + orun;
			return true;
		}
	}
	return false;
}

/* m->code for md[0..len): 1 for every byte cmark-gfm reads as code. Code
 * blocks are taken by their lines (cmark's block positions are exact; what
 * shares a block's first line is only container markers such as "1. " or
 * "> "). Code spans are located from their start line and literal (cmark's
 * inline columns are off on lazy and tab-indented lines, its lines are not).
 * -1 when cmark cannot parse the text (memory). */
static int code_map(struct arena *a, const char *md, size_t len, struct cmap *m)
{
	struct md_front fm;
	size_t body = 0;
	cmark_node *doc;
	cmark_iter *it;
	cmark_event_type ev;

	memset(m, 0, sizeof(*m));
	m->md = md;
	m->len = len;
	line_starts(a, m);
	m->code = arena_alloc(a, len + 1);
	memset(m->code, 0, len + 1);
	/* The renderer skips frontmatter; its lines are read as text here. */
	if (md_frontmatter(a, md, len, &fm) == 0 && fm.present && fm.body <= len)
		body = fm.body;
	while (m->line0 < m->nlines && m->ls[m->line0] < body)
		m->line0++;
	if (!(doc = md_parse(md + body, len - body)))
		return -1;
	if (!(it = cmark_iter_new(doc))) {
		cmark_node_free(doc);
		return -1;
	}
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it), *b;
		int line, last;
		size_t os, oe;
		const char *lit;

		if (ev != CMARK_EVENT_ENTER)
			continue;
		if (cmark_node_get_type(n) == CMARK_NODE_CODE_BLOCK) {
			mark_lines(m, m->line0 + cmark_node_get_start_line(n), m->line0 + cmark_node_get_end_line(n));
			continue;
		}
		if (cmark_node_get_type(n) != CMARK_NODE_CODE)
			continue;
		line = last = m->line0 + cmark_node_get_start_line(n);
		for (b = cmark_node_parent(n); b; b = cmark_node_parent(b))
			if ((cmark_node_get_type(b) & CMARK_NODE_TYPE_MASK) == CMARK_NODE_TYPE_BLOCK) {
				last = m->line0 + cmark_node_get_end_line(b);
				break;
			}
		lit = cmark_node_get_literal(n);
		if (!lit)
			lit = "";
		if (find_span(m, line, last, lit, true, &os, &oe) || find_span(m, line, last, lit, false, &os, &oe)) {
			memset(m->code + os, 1, oe - os);
			m->cursor = oe;
		} else if (!m->unsure) {
			m->unsure = line;
		}
	}
	cmark_iter_free(it);
	cmark_node_free(doc);
	return 0;
}

/* ---- the walk ---- */

static bool space(char c)
{
	return blank(c) || c == '\n' || c == '\f' || c == '\v';
}

/* Whether an if-family keyword follows the "{%" at s[at] (past Liquid's '-'
 * and any blanks, line breaks included). */
static bool if_family_at(const char *s, size_t n, size_t at)
{
	size_t i = at + 2;

	if (i < n && s[i] == '-')
		i++;
	while (i < n && space(s[i]))
		i++;
	return word_is(s + i, n - i, "if") || word_is(s + i, n - i, "elsif") || word_is(s + i, n - i, "elseif") ||
	       word_is(s + i, n - i, "else") || word_is(s + i, n - i, "endif");
}

/* adapt_check: the condition of an if / elsif tag must parse. */
static void check_cond(struct ad *d, enum atag k, const char *cond, size_t cl)
{
	const struct cond *tree;
	struct cond_error ce;
	const char *src;

	if (!d->check || d->rc || (k != AT_IF && k != AT_ELSIF))
		return;
	src = arena_strndup(d->a, cond, cl);
	if (!*src)
		d->rc = err_set(ERR_INVALID, "%s: line %d: condition: empty expression", d->field, d->line);
	else if (cond_parse(d->a, src, &tree, &ce))
		d->rc = err_set(ERR_INVALID, "%s: line %d: condition: %s at position %d", d->field, d->line, ce.message,
				ce.position);
}

/* The tag s[0..n) ("{%" ... "%}"), found outside code. */
static void tag_out(struct ad *d, const char *s, size_t n)
{
	const char *c;
	size_t cl;
	enum atag k = classify(s, n, &c, &cl);

	if (k == AT_NONE) {
		if (shown(d))
			out_put(&d->out, s, n);
		return;
	}
	check_cond(d, k, c, cl);
	block_tag(d, k, c, cl);
}

/* An if-family "{%" with no "%}" after it on its line: it cannot be read,
 * so it hides. An if opens a hidden block (its endif still closes it);
 * elsif, else and endif hide the rest of the block they are in. */
static void open_tag(struct ad *d, const char *s, size_t n)
{
	size_t i = 2;

	if (d->check && !d->rc)
		d->rc = err_set(ERR_INVALID,
				"%s: line %d: {%% %%} tag not closed on its line (an if, elsif, else or endif tag must "
				"end with %%} on the line it starts)",
				d->field, d->line);
	if (i < n && s[i] == '-')
		i++;
	while (i < n && space(s[i]))
		i++;
	block_tag(d, word_is(s + i, n - i, "if") ? AT_IF : AT_ELSIF, NULL, 0);
}

/* Whether line[0..n) holds nothing but adaptive block tags and blanks
 * (then it goes whole, line ending included). */
static bool tags_only(const struct ad *d, const char *line, size_t n)
{
	size_t i = 0, e, base = (size_t)(line - d->md);
	int ntags = 0;
	const char *c;
	size_t cl;

	while (i < n) {
		if (blank(line[i])) {
			i++;
			continue;
		}
		if (line[i] != '{' || i + 1 >= n || line[i + 1] != '%' || d->code[base + i] ||
		    !(e = tag_end(d, line, n, i, '%')))
			return false;
		if (classify(line + i, e - i, &c, &cl) == AT_NONE)
			return false;
		ntags++;
		i = e;
	}
	return ntags > 0;
}

/* One line line[0..n) and its ending line[n..n + tn). */
static void line_out(struct ad *d, const char *line, size_t n, size_t tn)
{
	size_t i = 0, seg = 0, e, base = (size_t)(line - d->md);

	if (tags_only(d, line, n)) {
		while (i < n) {
			if (line[i] == '{' && (e = tag_end(d, line, n, i, '%'))) {
				tag_out(d, line + i, e - i);
				i = e;
			} else {
				i++;
			}
		}
		return;
	}
	while (i + 1 < n) {
		if (line[i] != '{' || (line[i + 1] != '%' && line[i + 1] != '{') || d->code[base + i]) {
			i++;
			continue;
		}
		e = tag_end(d, line, n, i, line[i + 1] == '%' ? '%' : '}');
		if (!e) {
			if (line[i + 1] == '%' && if_family_at(d->md, d->len, base + i)) {
				if (shown(d))
					out_put(&d->out, line + seg, i - seg);
				open_tag(d, d->md + base + i, d->len - base - i);
				seg = i; /* still shown only for a stray else or endif */
				i += 2;
				continue;
			}
			i++;
			continue;
		}
		if (shown(d))
			out_put(&d->out, line + seg, i - seg);
		if (line[i + 1] == '{') {
			if (shown(d))
				expression(d, line + i + 2, e - i - 4);
		} else {
			tag_out(d, line + i, e - i);
		}
		i = seg = e;
	}
	if (shown(d))
		out_put(&d->out, line + seg, n - seg + tn);
}

/* Reads md[0..len) into d (d->a, ctx, check set by the caller): 0, or -1
 * when cmark cannot parse the text. m->unsure tells the caller whether
 * every code span was found. */
static int walk(struct ad *d, const char *md, size_t len, struct cmap *m)
{
	d->md = md;
	d->len = len;
	if (code_map(d->a, md, len, m))
		return -1;
	d->code = m->code;
	for (int l = 1; l <= m->nlines && !d->rc; l++) {
		size_t s = m->ls[l - 1], e = m->ls[l], ce = e;
		if (ce > s && md[ce - 1] == '\n')
			ce--;
		if (ce > s && md[ce - 1] == '\r')
			ce--;
		d->line = l;
		line_out(d, md + s, ce - s, e - ce);
	}
	return 0;
}

bool adapt_present(const char *md, size_t len)
{
	const char *p = md, *end = md + len;

	while (p < end && (p = memchr(p, '{', (size_t)(end - p))) && p + 1 < end) {
		if (p[1] == '{')
			return true;
		if (p[1] == '%' && if_family_at(md, len, (size_t)(p - md)))
			return true;
		p++;
	}
	return false;
}

const char *adapt_markdown(struct arena *a, const char *md, size_t len, const struct adapt_ctx *ctx,
			   size_t *out_len)
{
	struct ad d = { .a = a, .ctx = ctx };
	struct cmap m;
	char *res;
	bool ok;

	jw_init(&d.out);
	/* A text cmark cannot parse (out of memory) shows nothing: what is code
	 * cannot be told. jw grows with xrealloc: only a text past SIZE_MAX / 2
	 * fails, which a page (bounded far below) cannot reach. */
	ok = walk(&d, md, len, &m) == 0 && jw_ok(&d.out);
	*out_len = ok ? d.out.len : 0;
	res = arena_alloc(a, *out_len + 1);
	if (*out_len)
		memcpy(res, d.out.buf, *out_len);
	res[*out_len] = '\0';
	jw_free(&d.out);
	return res;
}

int adapt_check(const char *field, const char *md, size_t len)
{
	struct arena a;
	struct ad d = { .ctx = &(struct adapt_ctx){ 0 }, .check = true, .field = field };
	struct cmap m;
	int rc;

	arena_init(&a);
	d.a = &a;
	jw_init(&d.out);
	if (walk(&d, md, len, &m))
		rc = err_set(ERR_INTERNAL, "%s: the markdown cannot be parsed (out of memory)", field);
	else if (!(rc = d.rc) && m.unsure && adapt_present(md, len))
		/* Never expected (cmark's lines are exact): a code span this file
		 * cannot find would leave its tags to chance. */
		rc = err_set(ERR_INVALID, "%s: line %d: cannot tell where a code span ends; adaptive tags need it",
			     field, m.unsure);
	jw_free(&d.out);
	arena_free(&a);
	return rc;
}
