/*
 * summary.c - GitBook's SUMMARY.md into a table of contents (see summary.h).
 *
 * cmark-gfm parses the text; the walk reads headings and lists of links and
 * reports everything else as a problem, bounded in depth and item count.
 * Items are gathered in malloc'd vectors and copied into the arena.
 */
#include "format/summary.h"

#include <cmark-gfm.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/gitbook_yaml.h"
#include "util/alloc.h"
#include "util/err.h"
#include "util/text.h"

struct vec {
	struct summary_item *v;
	size_t n, cap;
};

struct ctx {
	struct arena *a;
	const char *base;
	struct summary *out;
	struct summary_problem *probs;
	size_t n_items;
	/* every page path seen, with its line, for duplicates */
	char **seen;
	int *seen_line;
	size_t n_seen, cap_seen;
};

static void vec_push(struct vec *v, const struct summary_item *it)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? v->cap * 2 : 8;
		v->v = xrealloc(v->v, v->cap * sizeof(*v->v));
	}
	v->v[v->n++] = *it;
}

/* Moves the vector into the arena. */
static void vec_to_arena(struct ctx *c, struct vec *v, struct summary_item **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	if (v->n) {
		*out = arena_alloc(c->a, v->n * sizeof(**out));
		memcpy(*out, v->v, v->n * sizeof(**out));
		*n = v->n;
	}
	free(v->v);
	memset(v, 0, sizeof(*v));
}

static void problem(struct ctx *c, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void problem(struct ctx *c, int line, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	c->out->n_problems_total++;
	if (c->out->n_problems >= SUMMARY_MAX_PROBLEMS)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	c->probs[c->out->n_problems].line = line;
	c->probs[c->out->n_problems].message = arena_strdup(c->a, buf);
	c->out->n_problems++;
}

/* Plain text of inline children: text and code, breaks as spaces. */
static void text_of(cmark_node *n, char *buf, size_t cap, size_t *len, int depth)
{
	if (depth > 64)
		return;
	for (cmark_node *ch = cmark_node_first_child(n); ch; ch = cmark_node_next(ch)) {
		cmark_node_type t = cmark_node_get_type(ch);
		const char *s = NULL;

		if (t == CMARK_NODE_TEXT || t == CMARK_NODE_CODE || t == CMARK_NODE_HTML_INLINE)
			s = cmark_node_get_literal(ch);
		else if (t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK)
			s = " ";
		if (s && t != CMARK_NODE_HTML_INLINE) {
			size_t l = strlen(s);

			if (l > cap - 1 - *len)
				l = cap - 1 - *len;
			memcpy(buf + *len, s, l);
			*len += l;
		}
		text_of(ch, buf, cap, len, depth + 1);
	}
	buf[*len] = '\0';
}

static char *plain(struct ctx *c, cmark_node *n)
{
	char buf[1024];
	size_t len = 0, b = 0;

	buf[0] = '\0';
	text_of(n, buf, sizeof(buf), &len, 0);
	while (b < len && (buf[b] == ' ' || buf[b] == '\t'))
		b++;
	while (len > b && (buf[len - 1] == ' ' || buf[len - 1] == '\t'))
		len--;
	return arena_strndup(c->a, buf + b, len - b);
}

/* A destination with a URL scheme ("https:", "mailto:") or "//host". */
static bool is_external(const char *d)
{
	size_t i = 0;

	if (d[0] == '/' && d[1] == '/')
		return true;
	if (!((d[0] >= 'a' && d[0] <= 'z') || (d[0] >= 'A' && d[0] <= 'Z')))
		return false;
	while ((d[i] >= 'a' && d[i] <= 'z') || (d[i] >= 'A' && d[i] <= 'Z') || (d[i] >= '0' && d[i] <= '9') ||
	       d[i] == '+' || d[i] == '-' || d[i] == '.')
		i++;
	return d[i] == ':' && i > 1; /* "c:" would be a Windows drive: not a scheme */
}

/* Percent-decodes s[0..n) into a malloc'd string (%00 stays as written). */
static char *dest_decode(const char *s, size_t n)
{
	char *o = xmalloc(n + 1);

	pct_decode(o, s, n, PCT_KEEP_NUL); /* lenient: cannot fail */
	return o;
}

static bool seen_before(struct ctx *c, const char *path, int line, int *first)
{
	for (size_t i = 0; i < c->n_seen; i++)
		if (strcmp(c->seen[i], path) == 0) {
			*first = c->seen_line[i];
			return true;
		}
	if (c->n_seen == c->cap_seen) {
		size_t cap = c->cap_seen ? c->cap_seen * 2 : 32;

		c->seen = xrealloc(c->seen, cap * sizeof(*c->seen));
		c->seen_line = xrealloc(c->seen_line, cap * sizeof(*c->seen_line));
		c->cap_seen = cap;
	}
	c->seen[c->n_seen] = (char *)path;
	c->seen_line[c->n_seen++] = line;
	return false;
}

/* Fills it from a link node; 0, or 1 when the item is skipped (problem reported). */
static int from_link(struct ctx *c, cmark_node *link, int line, struct summary_item *it)
{
	const char *dest = cmark_node_get_url(link), *title = cmark_node_get_title(link), *hash;
	char *joined, *dec, *path;
	size_t pl;
	int first;

	it->title = plain(c, link);
	if (title && *title)
		it->nav_title = arena_strdup(c->a, title);
	if (!dest || !*dest) {
		problem(c, line, "the link [%s]() has no destination: expected [Title](path.md)",
			it->title ? it->title : "");
		return 1;
	}
	if (is_external(dest)) {
		it->kind = SUMMARY_LINK;
		it->url = arena_strdup(c->a, dest);
		return 0;
	}
	it->kind = SUMMARY_PAGE;
	hash = strchr(dest, '#');
	pl = hash ? (size_t)(hash - dest) : strlen(dest);
	if (hash && hash[1])
		it->anchor = arena_strdup(c->a, hash + 1);
	if (pl == 0) {
		problem(c, line, "\"%s\" names no file: expected [Title](path.md)", dest);
		return 1;
	}
	dec = dest_decode(dest, pl);
	/* A leading '/' is the root; otherwise relative to the summary's folder.
	 * A folder ("guide/", "/") means its README.md. */
	{
		const char *d = dec;
		bool rooted = false, folder;

		while (*d == '/')
			d++, rooted = true;
		folder = !*d || d[strlen(d) - 1] == '/';
		if (c->base && !rooted)
			joined = arena_printf(c->a, "%s/%s%s", c->base, d, folder ? "README.md" : "");
		else
			joined = arena_printf(c->a, "%s%s", d, folder ? "README.md" : "");
	}
	free(dec);
	path = gitbook_path_normalize(c->a, joined, strlen(joined), "link");
	if (!path) {
		problem(c, line, "\"%s\": %s", dest, err_message());
		err_clear();
		return 1;
	}
	if (!*path) {
		problem(c, line, "\"%s\" names no file: expected [Title](path.md)", dest);
		return 1;
	}
	it->path = path;
	if (seen_before(c, path, line, &first)) {
		problem(c, line, "%s is already listed at line %d: a file can be one page only", path, first);
		return 1;
	}
	return 0;
}

/* The single link of an item's paragraph (whitespace around it allowed), or NULL. */
static cmark_node *only_link(cmark_node *para)
{
	cmark_node *link = NULL;

	for (cmark_node *ch = cmark_node_first_child(para); ch; ch = cmark_node_next(ch)) {
		cmark_node_type t = cmark_node_get_type(ch);

		if (t == CMARK_NODE_LINK && !link) {
			link = ch;
			continue;
		}
		if (t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK)
			continue;
		if (t == CMARK_NODE_TEXT) {
			const char *s = cmark_node_get_literal(ch);

			while (s && (*s == ' ' || *s == '\t'))
				s++;
			if (!s || !*s)
				continue;
		}
		return NULL;
	}
	return link;
}

static int read_list(struct ctx *c, cmark_node *list, int depth, struct vec *into);

static int read_item(struct ctx *c, cmark_node *item, int depth, struct vec *into)
{
	struct summary_item it = { .line = cmark_node_get_start_line(item) };
	cmark_node *first = cmark_node_first_child(item), *link;
	struct vec kids = { 0 };
	int rc;

	if (c->n_items >= SUMMARY_MAX_ITEMS) {
		problem(c, it.line, "more than %d entries: the rest is skipped", SUMMARY_MAX_ITEMS);
		return 0;
	}
	link = first && cmark_node_get_type(first) == CMARK_NODE_PARAGRAPH ? only_link(first) : NULL;
	if (!link) {
		problem(c, it.line, "a list item must be one link: [Title](path.md)");
		return 0;
	}
	rc = from_link(c, link, it.line, &it);
	if (rc < 0)
		return -1;
	if (rc > 0)
		return 0;
	c->n_items++;
	for (cmark_node *ch = cmark_node_next(first); ch; ch = cmark_node_next(ch)) {
		if (cmark_node_get_type(ch) == CMARK_NODE_LIST) {
			if (read_list(c, ch, depth + 1, &kids)) {
				free(kids.v);
				return -1;
			}
		} else {
			problem(c, cmark_node_get_start_line(ch), "only a nested list may follow a page's link");
		}
	}
	vec_to_arena(c, &kids, &it.children, &it.n_children);
	vec_push(into, &it);
	return 0;
}

static int read_list(struct ctx *c, cmark_node *list, int depth, struct vec *into)
{
	if (depth > SUMMARY_MAX_DEPTH) {
		problem(c, cmark_node_get_start_line(list), "lists nested deeper than %d levels are skipped",
			SUMMARY_MAX_DEPTH);
		return 0;
	}
	for (cmark_node *item = cmark_node_first_child(list); item; item = cmark_node_next(item))
		if (read_item(c, item, depth, into))
			return -1;
	return 0;
}

static int walk(struct ctx *c, cmark_node *doc)
{
	struct vec top = { 0 }, group = { 0 };
	struct summary_item g = { 0 };
	bool in_group = false;
	int rc = 0;

	for (cmark_node *b = cmark_node_first_child(doc); b && rc == 0; b = cmark_node_next(b)) {
		cmark_node_type t = cmark_node_get_type(b);
		int line = cmark_node_get_start_line(b);

		if (t == CMARK_NODE_HEADING && cmark_node_get_heading_level(b) == 1)
			continue; /* "# Table of contents" / "# Summary" */
		if (t == CMARK_NODE_HEADING) {
			if (in_group) {
				vec_to_arena(c, &group, &g.children, &g.n_children);
				vec_push(&top, &g);
			}
			memset(&g, 0, sizeof(g));
			g.kind = SUMMARY_GROUP;
			g.line = line;
			g.title = plain(c, b);
			in_group = true;
			c->n_items++;
		} else if (t == CMARK_NODE_LIST) {
			rc = read_list(c, b, 1, in_group ? &group : &top);
		} else if (t == CMARK_NODE_THEMATIC_BREAK || t == CMARK_NODE_HTML_BLOCK) {
			/* a separator or a comment: nothing */
		} else {
			problem(c, line, "expected a \"## Group\" heading or a list of links \"* [Title](path.md)\"");
		}
	}
	if (rc == 0 && in_group) {
		vec_to_arena(c, &group, &g.children, &g.n_children);
		vec_push(&top, &g);
	}
	free(group.v);
	if (rc == 0)
		vec_to_arena(c, &top, &c->out->items, &c->out->n_items);
	else
		free(top.v);
	return rc;
}

int summary_parse(struct arena *a, const char *md, size_t len, const char *base, struct summary *out)
{
	struct ctx c = { .a = a, .out = out };
	cmark_node *doc;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!md)
		md = "", len = 0;
	if (len > SUMMARY_MAX_BYTES)
		return err_set(ERR_INVALID, "SUMMARY.md is larger than %d bytes", SUMMARY_MAX_BYTES);
	c.base = base && *base ? base : NULL;
	c.probs = arena_alloc(a, SUMMARY_MAX_PROBLEMS * sizeof(*c.probs));
	out->problems = c.probs;
	doc = cmark_parse_document(md, len, CMARK_OPT_DEFAULT);
	if (!doc) /* cmark's own allocation */
		return err_set(ERR_INTERNAL, "out of memory");
	rc = walk(&c, doc);
	cmark_node_free(doc);
	free(c.seen);
	free(c.seen_line);
	return rc; /* -1 only with the error set (gitbook_path_normalize) */
}
