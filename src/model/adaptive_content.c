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
 * The text is read line by line. Fenced code (``` or ~~~, up to three
 * spaces in, closed by the same character at least as long: the rule
 * site/md_html.c uses) is code: copied as it is (when shown) and never
 * searched for tags. Elsewhere, "{%" up to the first "%}" on the same line
 * is a tag; if / elsif / elseif / else if / else / endif drive a stack of
 * frames {parent shown, this branch shown, a branch already taken}; every
 * other tag and all text are copied while the innermost frame is shown.
 * "{{" up to the first "}}" on the line is an expression, replaced by its
 * escaped value. Deeper nesting than ADAPT_MAX_DEPTH hides the whole deeper
 * block (counted so its endif still matches). Hiding is the failure mode
 * everywhere: a condition that does not parse, an unclosed block.
 */
#include "model/adaptive.h"

#include "json/jsonw.h"
#include "model/condition.h"
#include "util/err.h"

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
	struct frame st[ADAPT_MAX_DEPTH];
	int depth;
	int overflow; /* blocks opened past the limit: hidden */
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

/* The length of a code fence opening line[0..n) (``` or ~~~, up to three
 * spaces in), or 0; *ch its character. */
static size_t fence_len(const char *line, size_t n, char *ch)
{
	size_t i = 0, k;

	while (i < n && i < 3 && line[i] == ' ')
		i++;
	if (i >= n || (line[i] != '`' && line[i] != '~'))
		return 0;
	for (k = i; k < n && line[k] == line[i]; k++)
		;
	if (k - i < 3)
		return 0;
	*ch = line[i];
	return k - i;
}

/* The end of the tag opened by o[0] o[1] at s[at] ("{%" or "{{"): the index
 * past its closer on the same line s[..n), or 0 when it has none. */
static size_t tag_end(const char *s, size_t n, size_t at, char close)
{
	for (size_t k = at + 2; k + 1 < n; k++)
		if (s[k] == close && s[k + 1] == '}')
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

static bool decide(struct ad *d, const char *cond, size_t clen)
{
	const char *src = arena_strndup(d->a, cond, clen);

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

/* ---- lines ---- */

/* Whether line[0..n) holds nothing but adaptive block tags and blanks
 * (then it goes whole, newline included). */
static bool tags_only(const char *line, size_t n)
{
	size_t i = 0, e;
	int ntags = 0;
	const char *c;
	size_t cl;

	while (i < n) {
		if (blank(line[i])) {
			i++;
			continue;
		}
		if (line[i] != '{' || i + 1 >= n || line[i + 1] != '%' || !(e = tag_end(line, n, i, '%')))
			return false;
		if (classify(line + i, e - i, &c, &cl) == AT_NONE)
			return false;
		ntags++;
		i = e;
	}
	return ntags > 0;
}

static void line_out(struct ad *d, const char *line, size_t n, bool nl)
{
	size_t i = 0, seg = 0, e;
	const char *c;
	size_t cl;

	if (tags_only(line, n)) {
		while (i < n) {
			if (line[i] == '{' && (e = tag_end(line, n, i, '%'))) {
				/* classify() first: it sets c and cl, which the call reads. */
				enum atag k = classify(line + i, e - i, &c, &cl);
				block_tag(d, k, c, cl);
				i = e;
			} else {
				i++;
			}
		}
		return;
	}
	while (i + 1 < n) {
		if (line[i] != '{' || (line[i + 1] != '%' && line[i + 1] != '{')) {
			i++;
			continue;
		}
		e = tag_end(line, n, i, line[i + 1] == '%' ? '%' : '}');
		if (!e) {
			i++;
			continue;
		}
		if (shown(d))
			out_put(&d->out, line + seg, i - seg);
		if (line[i + 1] == '{') {
			if (shown(d))
				expression(d, line + i + 2, e - i - 4);
		} else {
			enum atag k = classify(line + i, e - i, &c, &cl);
			if (k == AT_NONE) {
				if (shown(d))
					out_put(&d->out, line + i, e - i);
			} else {
				block_tag(d, k, c, cl);
			}
		}
		i = seg = e;
	}
	if (shown(d)) {
		out_put(&d->out, line + seg, n - seg);
		if (nl)
			out_put(&d->out, "\n", 1);
	}
}

bool adapt_present(const char *md, size_t len)
{
	const char *p = md, *end = md + len;

	while (p < end && (p = memchr(p, '{', (size_t)(end - p))) && p + 1 < end) {
		if (p[1] == '{')
			return true;
		if (p[1] == '%') {
			const char *q = p + 2;
			while (q < end && (*q == '-' || blank(*q)))
				q++;
			if (q + 2 <= end && (!memcmp(q, "if", 2) || !memcmp(q, "el", 2) || !memcmp(q, "en", 2)))
				return true;
		}
		p++;
	}
	return false;
}

const char *adapt_markdown(struct arena *a, const char *md, size_t len, const struct adapt_ctx *ctx,
			   size_t *out_len)
{
	struct ad d = { .a = a, .ctx = ctx };
	const char *p = md, *end = md + len;
	size_t fence = 0;
	char fch = 0, *res;

	jw_init(&d.out);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		size_t ll = (size_t)(le - p);
		char c;
		size_t fl = fence_len(p, ll, &c);

		if (fence) {
			if (fl >= fence && c == fch)
				fence = 0;
			if (shown(&d))
				out_put(&d.out, p, ll + (nl != NULL));
		} else if (fl) {
			fence = fl;
			fch = c;
			if (shown(&d))
				out_put(&d.out, p, ll + (nl != NULL));
		} else {
			line_out(&d, p, ll, nl != NULL);
		}
		p = nl ? nl + 1 : end;
	}
	/* jw grows with xrealloc: only a text past SIZE_MAX / 2 fails, which a
	 * page (bounded far below) cannot reach; then nothing is shown. */
	res = arena_alloc(a, (jw_ok(&d.out) ? d.out.len : 0) + 1);
	if (jw_ok(&d.out) && d.out.len)
		memcpy(res, d.out.buf, d.out.len);
	res[jw_ok(&d.out) ? d.out.len : 0] = '\0';
	*out_len = jw_ok(&d.out) ? d.out.len : 0;
	jw_free(&d.out);
	return res;
}

int adapt_check(const char *field, const char *md, size_t len)
{
	const char *p = md, *end = md + len;
	size_t fence = 0;
	int line = 0, rc = 0;
	char fch = 0;
	struct arena a;

	arena_init(&a);
	while (p < end && !rc) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		size_t ll = (size_t)(le - p), i = 0, e;
		char c;
		size_t fl = fence_len(p, ll, &c);

		line++;
		if (fence) {
			if (fl >= fence && c == fch)
				fence = 0;
		} else if (fl) {
			fence = fl;
			fch = c;
		} else {
			for (; !rc && i + 1 < ll; i++) {
				const char *cond;
				size_t cl;
				enum atag k;
				const struct cond *tree;
				struct cond_error ce;

				if (p[i] != '{' || p[i + 1] != '%' || !(e = tag_end(p, ll, i, '%')))
					continue;
				k = classify(p + i, e - i, &cond, &cl);
				if (k == AT_IF || k == AT_ELSIF) {
					const char *src = arena_strndup(&a, cond, cl);
					if (!*src)
						rc = err_set(ERR_INVALID, "%s: line %d: condition: empty expression", field,
							     line);
					else if (cond_parse(&a, src, &tree, &ce))
						rc = err_set(ERR_INVALID, "%s: line %d: condition: %s at position %d", field,
							     line, ce.message, ce.position);
				}
				i = e - 1;
			}
		}
		p = nl ? nl + 1 : end;
	}
	arena_free(&a);
	return rc;
}
