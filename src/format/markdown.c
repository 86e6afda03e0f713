/*
 * markdown.c - the page's markdown read through cmark-gfm.
 *
 * DESIGN
 *
 * Every reader parses the body (the text after any frontmatter) into cmark's
 * tree and walks it. Walks over inline content and plain text use cmark's
 * iterator, so they cost no C stack however deep the input nests; the block
 * walk of md_to_document recurses, but stops at MD_MAX_DEPTH nested
 * containers and writes what lies deeper as one paragraph of plain text.
 *
 * Heading anchors are computed once per parse, in document order over every
 * heading (assign_anchors), and hung on the heading nodes as user data, so the
 * document's heading meta.id and the search sections' ids always agree.
 *
 * md_rewrite_links must copy the text byte for byte, so it cannot re-render
 * cmark's tree; and cmark-gfm's positions for inline nodes are wrong for links
 * that span lines. So cmark says which lines hold inline content (paragraphs,
 * headings and tables: their line ranges are exact) and which destinations the
 * page's links have; a scanner of `[...](dest "title")` forms, skipping code
 * spans, escapes, autolinks and HTML tags, finds where each destination is
 * written. A destination is replaced only when its decoded text matches a link
 * cmark found and has not yet been matched (a multiset, so a `](x)` that cmark
 * does not read as a link can at worst be rewritten instead of an equal real
 * one, with the same replacement).
 *
 * Allocation: cmark aborts the process when malloc fails (it has no error
 * path), and so do ours (util/alloc.h); the NULL checks left on cmark's
 * calls are its own. Temporary text is built in a struct jw used as a byte
 * buffer (bput), whose oom flag (past SIZE_MAX / 2 bytes) is checked once.
 */
#include "format/markdown.h"
#include "format/gitbook_yaml.h"
#include "util/alloc.h"
#include "util/err.h"
#include "util/text.h"
#include "util/util.h"
#include "util/fnv.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <ctype.h>
#include <jansson.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Containers (quotes, lists) nested deeper than this become plain paragraphs. */
#define MD_MAX_DEPTH 32

/* ---------------------------------------------------------------- parsing */

static pthread_once_t ext_once = PTHREAD_ONCE_INIT;

static void ext_register(void)
{
	cmark_gfm_core_extensions_ensure_registered();
}

static cmark_node *parse_opts(const char *md, size_t len, int options);

static cmark_node *parse(const char *md, size_t len)
{
	return parse_opts(md, len, 0);
}

struct cmark_node *md_parse(const char *md, size_t len)
{
	return parse(md, len);
}

struct cmark_node *md_parse_opts(const char *md, size_t len, int options)
{
	return parse_opts(md, len, options);
}

/* The tree of md[0..len) with GFM's extensions; NULL only if cmark fails. */
static cmark_node *parse_opts(const char *md, size_t len, int options)
{
	static const char *const exts[] = { "table", "strikethrough", "tasklist", "autolink" };
	cmark_parser *p;
	cmark_node *doc;

	pthread_once(&ext_once, ext_register);
	p = cmark_parser_new(CMARK_OPT_VALIDATE_UTF8 | options);
	if (!p)
		return NULL;
	for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		cmark_syntax_extension *e = cmark_find_syntax_extension(exts[i]);

		if (e)
			cmark_parser_attach_syntax_extension(p, e);
	}
	if (len)
		cmark_parser_feed(p, md, len);
	doc = cmark_parser_finish(p);
	cmark_parser_free(p);
	return doc;
}

static bool is_type(cmark_node *n, const char *name)
{
	const char *t = cmark_node_get_type_string(n);

	return t && strcmp(t, name) == 0;
}

static const char *literal(cmark_node *n)
{
	const char *s = cmark_node_get_literal(n);

	return s ? s : "";
}

/* cmark returned NULL (its own allocation), or a buffer passed SIZE_MAX / 2. */
static int md_fail(void)
{
	return err_set(ERR_INTERNAL, "markdown: cmark failed or the text is too large");
}

/* ---------------------------------------------------------------- buffers */

/* Append n bytes to a jw used as a plain byte buffer. */
static void bput(struct jw *b, const char *s, size_t n)
{
	if (n)
		jw_put(b, s, n);
}

static void bputs(struct jw *b, const char *s)
{
	bput(b, s, strlen(s));
}

static const char *bdata(const struct jw *b)
{
	return b->buf ? b->buf : "";
}

static bool is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* The buffer's text without leading and trailing white space, copied into a. */
static char *bdup_trim(struct arena *a, const struct jw *b)
{
	const char *s = bdata(b);
	size_t i = 0, n = b->len;

	while (i < n && is_ws(s[i]))
		i++;
	while (n > i && is_ws(s[n - 1]))
		n--;
	return arena_strndup(a, s + i, n - i);
}

/* Trims white space from the buffer's end. */
static void btrim_end(struct jw *b)
{
	while (b->len && is_ws(b->buf[b->len - 1]))
		b->len--;
}

/* ------------------------------------------------------------ frontmatter */

/* End of the line starting at i (the index of its '\n', or len). */
static size_t line_end(const char *s, size_t len, size_t i)
{
	const char *nl = i < len ? memchr(s + i, '\n', len - i) : NULL;

	return nl ? (size_t)(nl - s) : len;
}

/* s[b..e) without trailing spaces, tabs and '\r'. */
static size_t rtrim(const char *s, size_t b, size_t e)
{
	while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r'))
		e--;
	return e;
}

static bool fm_delim(const char *s, size_t b, size_t e, bool closing)
{
	e = rtrim(s, b, e);
	if (e - b != 3)
		return false;
	return memcmp(s + b, "---", 3) == 0 || (closing && memcmp(s + b, "...", 3) == 0);
}

/* Whether a line inside the block may belong to YAML frontmatter. */
static bool fm_line_ok(const char *s, size_t b, size_t e)
{
	e = rtrim(s, b, e);
	if (b == e || s[b] == ' ' || s[b] == '\t' || s[b] == '#' || s[b] == '"' || s[b] == '\'')
		return true;
	if (s[b] == '-' && (b + 1 == e || s[b + 1] == ' '))
		return true;
	/* "key: value" or "key:", the key possibly with spaces ("my key: v"). */
	for (size_t i = b + 1; i < e; i++)
		if (s[i] == ':' && (i + 1 == e || s[i + 1] == ' ' || s[i + 1] == '\t'))
			return true;
	return false;
}

/* Finds a frontmatter block: its content s[*cb..*ce) and where the body starts. */
static bool fm_find(const char *s, size_t len, size_t *cb, size_t *ce, size_t *body)
{
	size_t i = 0, e;

	if (len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
		i = 3;
	e = line_end(s, len, i);
	if (e >= len || !fm_delim(s, i, e, false))
		return false;
	*cb = e + 1;
	for (i = e + 1; i < len; i = e + 1) {
		e = line_end(s, len, i);
		if (fm_delim(s, i, e, true)) {
			*ce = i;
			*body = e < len ? e + 1 : len;
			return true;
		}
		if (!fm_line_ok(s, i, e) || e >= len)
			return false;
	}
	return false;
}

static size_t body_offset(const char *s, size_t len)
{
	size_t cb, ce, body;

	return fm_find(s, len, &cb, &ce, &body) ? body : 0;
}

/* 1-based line counting as cmark does: "\n", "\r\n" and "\r" end lines. */
static int count_lines(const char *s, size_t n)
{
	int lines = 0;

	for (size_t i = 0; i < n; i++)
		if (s[i] == '\n' || (s[i] == '\r' && (i + 1 >= n || s[i + 1] != '\n')))
			lines++;
	return lines;
}

/* A numeric character reference's code point; CommonMark (6.2) reads 0,
 * surrogates and anything past U+10FFFF as U+FFFD. */
static void put_utf8(struct jw *b, unsigned long cp)
{
	char u[4];
	size_t k = cp ? utf8_encode(u, cp) : 0;

	if (!k)
		k = utf8_encode(u, 0xFFFD);
	bput(b, u, k);
}

/*
 * The frontmatter's YAML is read by libyaml through format/gitbook_yaml.h's
 * bounded loader; fm_find above only locates the block, so every reader
 * skips the same bytes whether or not the YAML inside is valid.
 */

/* A string field: NULL when null or empty; an error for a non-scalar. */
static int fm_string(struct arena *a, yaml_node_t *n, const char *key, char **out, char **error)
{
	*out = NULL;
	if (!n || yaml_is_null(n))
		return 0;
	if (n->type != YAML_SCALAR_NODE) {
		*error = arena_printf(a, "line %d, column %d: %s must be a string", (int)n->start_mark.line + 1,
				      (int)n->start_mark.column + 1, key);
		return 0;
	}
	if (n->data.scalar.length == 0)
		return 0;
	*out = arena_strndup(a, (const char *)n->data.scalar.value, n->data.scalar.length);
	return 0;
}

/* layout.<key>.visible: -1 when absent or not a boolean. */
static int fm_visible(yaml_document_t *doc, yaml_node_t *layout, const char *key)
{
	yaml_node_t *v = yaml_map_get(doc, yaml_map_get(doc, layout, key), "visible");
	bool ok, b = yaml_bool(v, &ok);

	return ok ? (int)b : -1;
}

static int fm_read(struct arena *a, yaml_document_t *doc, int first_line, struct md_front *out)
{
	yaml_node_t *root = yaml_document_get_root_node(doc), *n;
	char *error = NULL;
	bool ok;
	struct {
		const char *key;
		char **slot;
	} strings[] = {
		{ "title", &out->title },
		{ "description", &out->description },
		{ "icon", &out->icon },
		{ "emoji", &out->emoji },
		{ "if", &out->cond },
		{ "cover", &out->cover },
	};

	if (!root || yaml_is_null(root))
		return 0;
	if (root->type != YAML_MAPPING_NODE) {
		out->error = arena_printf(a, "line %d, column %d: frontmatter must be a mapping of key: value",
					  (int)root->start_mark.line + first_line, (int)root->start_mark.column + 1);
		return 0;
	}
	for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++) {
		if (fm_string(a, yaml_map_get(doc, root, strings[i].key), strings[i].key, strings[i].slot, &error))
			return -1;
		if (error)
			break;
	}
	if (error) {
		/* Positions of the node are relative to the block; shift them. */
		int line = 0, col = 0;

		if (sscanf(error, "line %d, column %d", &line, &col) == 2)
			error = arena_printf(a, "line %d, column %d%s", line - 1 + first_line, col,
					     strchr(error, ':') ? strchr(error, ':') : "");
		out->title = out->description = out->icon = out->emoji = out->cond = out->cover = NULL;
		out->error = error;
		return 0;
	}
	out->hidden = yaml_bool(yaml_map_get(doc, root, "hidden"), &ok);
	/* GitBook's page variables: vars: {name: value} of scalars (true,
	 * false and numbers as written plainly keep their type), as a JSON
	 * object; other values are left out. */
	n = yaml_map_get(doc, root, "coverY");
	if (n && n->type == YAML_SCALAR_NODE && n->data.scalar.length && n->data.scalar.length < 32) {
		char num[32], *end;
		memcpy(num, n->data.scalar.value, n->data.scalar.length);
		num[n->data.scalar.length] = '\0';
		double y = strtod(num, &end);
		if (!*end && y == y && y > -1e6 && y < 1e6)
			out->cover_y = y;
	}
	n = yaml_map_get(doc, root, "vars");
	if (n && n->type == YAML_MAPPING_NODE) {
		json_t *o = json_object();
		for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
			yaml_node_t *k = yaml_document_get_node(doc, pr->key), *v = yaml_document_get_node(doc, pr->value);
			char *key, *val, *end;
			json_t *jv;
			if (!k || !v || k->type != YAML_SCALAR_NODE || v->type != YAML_SCALAR_NODE || yaml_is_null(v) ||
			    k->data.scalar.length == 0 || k->data.scalar.length > 64 || v->data.scalar.length > 256)
				continue;
			key = arena_strndup(a, (const char *)k->data.scalar.value, k->data.scalar.length);
			val = arena_strndup(a, (const char *)v->data.scalar.value, v->data.scalar.length);
			if (v->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
				jv = json_string(val);
			else if (!strcmp(val, "true") || !strcmp(val, "false"))
				jv = json_boolean(!strcmp(val, "true"));
			else if (*val && (strtod(val, &end), !*end) && strspn(val, "0123456789.-+eE") == strlen(val))
				jv = json_real(strtod(val, NULL));
			else
				jv = json_string(val);
			if (jv)
				json_object_set_new(o, key, jv);
		}
		if (json_object_size(o)) {
			char *t = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
			if (t)
				out->vars = arena_strdup(a, t);
			free(t);
		}
		json_decref(o);
	}
	n = yaml_map_get(doc, root, "layout");
	if (n && n->type == YAML_MAPPING_NODE) {
		yaml_node_t *w = yaml_map_get(doc, n, "width");

		out->layout.present = true;
		if (w && w->type == YAML_SCALAR_NODE && w->data.scalar.length > 0 && !yaml_is_null(w))
			out->layout.width = arena_strndup(a, (const char *)w->data.scalar.value, w->data.scalar.length);
		out->layout.title = fm_visible(doc, n, "title");
		out->layout.description = fm_visible(doc, n, "description");
		out->layout.table_of_contents = fm_visible(doc, n, "tableOfContents");
		out->layout.outline = fm_visible(doc, n, "outline");
		out->layout.pagination = fm_visible(doc, n, "pagination");
		out->layout.metadata = fm_visible(doc, n, "metadata");
	}
	return 0;
}

int md_frontmatter(struct arena *a, const char *md, size_t len, struct md_front *out)
{
	yaml_document_t doc;
	size_t cb, ce, body;
	int first_line, rc;

	memset(out, 0, sizeof(*out));
	out->layout.title = out->layout.description = out->layout.table_of_contents = -1;
	out->layout.outline = out->layout.pagination = out->layout.metadata = -1;
	if (!md || !fm_find(md, len, &cb, &ce, &body))
		return 0;
	out->present = true;
	out->body = body;
	first_line = count_lines(md, cb) + 1;
	rc = yaml_load_bounded(&doc, md + cb, ce - cb, first_line);
	if (rc == ERR_INVALID) {
		out->error = arena_strdup(a, err_message());
		err_clear();
		return 0;
	}
	if (rc)
		return -1;
	rc = fm_read(a, &doc, first_line, out);
	yaml_document_delete(&doc);
	return rc;
}

/* ------------------------------------------------------------- plain text */

static bool is_br(const char *html)
{
	return !strncmp(html, "<br", 3) && (html[3] == '>' || html[3] == '/' || html[3] == ' ');
}

static void plain_nl(struct jw *b)
{
	if (b->len && b->buf[b->len - 1] != '\n')
		bput(b, "\n", 1);
}

/* HTML's text with its tags removed. */
static void strip_tags(struct jw *b, const char *s)
{
	size_t i = 0, run;

	while (s[i]) {
		run = strcspn(s + i, "<");
		bput(b, s + i, run);
		i += run;
		if (s[i] == '<') {
			const char *gt = strchr(s + i, '>');

			if (!gt) {
				bputs(b, s + i);
				return;
			}
			i = (size_t)(gt - s) + 1;
		}
	}
}

/* Appends the plain text of root's subtree (root itself included). */
static void plain_append(struct jw *b, cmark_node *root)
{
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;

	if (!it) {
		b->oom = true;
		return;
	}
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		bool enter = ev == CMARK_EVENT_ENTER;
		const char *lit;

		switch (cmark_node_get_type(n)) {
		case CMARK_NODE_TEXT:
		case CMARK_NODE_CODE:
			bputs(b, literal(n));
			break;
		case CMARK_NODE_SOFTBREAK:
			bput(b, " ", 1);
			break;
		case CMARK_NODE_LINEBREAK:
			bput(b, "\n", 1);
			break;
		case CMARK_NODE_HTML_INLINE:
			if (is_br(literal(n)))
				bput(b, "\n", 1);
			break;
		case CMARK_NODE_CODE_BLOCK:
			plain_nl(b);
			lit = literal(n);
			bput(b, lit, strlen(lit));
			plain_nl(b);
			break;
		case CMARK_NODE_HTML_BLOCK:
			plain_nl(b);
			strip_tags(b, literal(n));
			plain_nl(b);
			break;
		case CMARK_NODE_PARAGRAPH:
		case CMARK_NODE_HEADING:
			if (!enter)
				plain_nl(b);
			break;
		default:
			if (enter && n != root && is_type(n, "table_cell") && cmark_node_previous(n))
				bput(b, " | ", 3);
			else if (!enter && (is_type(n, "table_row") || is_type(n, "table_header")))
				plain_nl(b);
			break;
		}
	}
	cmark_iter_free(it);
}

/* The trimmed plain text of a subtree, into a. */
static char *plain_dup(struct arena *a, struct jw *tmp, cmark_node *n)
{
	jw_reset(tmp);
	plain_append(tmp, n);
	return tmp->oom ? NULL : bdup_trim(a, tmp);
}

/* ---------------------------------------------------------------- anchors */

/* github-slugger's bookkeeping: how often each anchor's base was repeated. */
struct slugs {
	struct arena *a;
	char **keys;
	unsigned *count;
	size_t cap, n;
};

static size_t slug_hash(const char *s)
{
	return (size_t)fnv1a_str(s);
}

static unsigned *slug_find(struct slugs *t, const char *k)
{
	if (!t->cap)
		return NULL;
	for (size_t i = slug_hash(k) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
		if (!t->keys[i])
			return NULL;
		if (!strcmp(t->keys[i], k))
			return &t->count[i];
	}
}

static int slug_insert(struct slugs *t, char *k)
{
	size_t i;

	if ((t->n + 1) * 2 > t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 64;
		char **nkeys;
		unsigned *ncount;

		if (ncap > SIZE_MAX / sizeof(char *))
			return -1;
		nkeys = arena_alloc(t->a, ncap * sizeof(*nkeys));
		ncount = arena_alloc(t->a, ncap * sizeof(*ncount));
		memset(nkeys, 0, ncap * sizeof(*nkeys));
		for (size_t j = 0; j < t->cap; j++) {
			if (!t->keys[j])
				continue;
			for (i = slug_hash(t->keys[j]) & (ncap - 1); nkeys[i]; i = (i + 1) & (ncap - 1))
				;
			nkeys[i] = t->keys[j];
			ncount[i] = t->count[j];
		}
		t->keys = nkeys;
		t->count = ncount;
		t->cap = ncap;
	}
	for (i = slug_hash(k) & (t->cap - 1); t->keys[i]; i = (i + 1) & (t->cap - 1))
		;
	t->keys[i] = k;
	t->count[i] = 0;
	t->n++;
	return 0;
}

/* The anchor of a heading whose plain text is text, unique among those before. */
static char *slug_unique(struct slugs *t, const char *text)
{
	size_t n = strlen(text), k = 0;
	char *base = arena_alloc(t->a, n + 1), *res;
	unsigned *c;

	for (size_t i = 0; i < n; i++) {
		char ch = text[i];

		if (ch >= 'A' && ch <= 'Z')
			ch = (char)(ch - 'A' + 'a');
		if (ch == ' ')
			base[k++] = '-';
		else if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-' || ch == '_')
			base[k++] = ch;
	}
	base[k] = '\0';
	res = base;
	while (slug_find(t, res)) {
		c = slug_find(t, base);
		(*c)++;
		res = arena_printf(t->a, "%s-%u", base, *c);
	}
	return slug_insert(t, res) < 0 ? NULL : res;
}

/* Hangs each heading's anchor (an arena string) on it as user data. */
static int assign_anchors(struct arena *a, cmark_node *root)
{
	struct slugs t = { .a = a };
	struct jw tmp;
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	int rc = 0;

	jw_init(&tmp);
	if (!it)
		return -1;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		char *text, *anchor;

		if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(n) != CMARK_NODE_HEADING)
			continue;
		text = plain_dup(a, &tmp, n);
		anchor = text ? slug_unique(&t, text) : NULL;
		if (!anchor) {
			rc = -1;
			break;
		}
		cmark_node_set_user_data(n, anchor);
	}
	cmark_iter_free(it);
	jw_free(&tmp);
	return rc;
}

/* -------------------------------------------------------------- documents */

enum { M_BOLD = 1, M_ITALIC = 2, M_STRIKE = 4, M_CODE = 8, M_KBD = 16, M_COUNT = 5 };
static const char *const mark_names[M_COUNT] = { "bold", "italic", "strikethrough", "code", "keyboard" };

/* Inline HTML tags that carry a mark; other tags are dropped. */
static const struct {
	const char *tag;
	unsigned mark;
} html_marks[] = {
	{ "b", M_BOLD }, { "strong", M_BOLD }, { "i", M_ITALIC }, { "em", M_ITALIC }, { "s", M_STRIKE },
	{ "del", M_STRIKE }, { "strike", M_STRIKE }, { "code", M_CODE }, { "kbd", M_KBD },
};

/* Where a block is written: GitBook allows different children in each. */
enum where { AT_TOP, IN_ITEM, IN_QUOTE };

struct doc {
	struct jw *w;
	unsigned long key;
	/* Inline state: a text node is open; pending leaf text and its marks. */
	bool text_open;
	bool has_pend;
	unsigned pend_marks;
	struct jw pend;
	int bold, italic, strike;
	int html[M_COUNT]; /* open inline HTML tags per mark, within one container */
	cmark_node *link;  /* the link being written */
	struct jw tmp;    /* plain text scratch */
};

static void write_key(struct doc *d)
{
	char k[32];

	snprintf(k, sizeof(k), "b%lu", ++d->key);
	jw_kstr(d->w, "key", k);
}

/* Opens {"object":object,"type":type,"key":...  (type may be NULL). */
static void obj_begin(struct doc *d, const char *object, const char *type)
{
	jw_obj_open(d->w);
	jw_kstr(d->w, "object", object);
	if (type)
		jw_kstr(d->w, "type", type);
	write_key(d);
}

static void empty_data(struct doc *d)
{
	jw_key(d->w, "data");
	jw_obj_open(d->w);
	jw_obj_close(d->w);
}

/* A block with children: object, type, key, isVoid:false, data:{}, "nodes":[ */
static void container_begin(struct doc *d, const char *type, bool data)
{
	obj_begin(d, "block", type);
	jw_kbool(d->w, "isVoid", false);
	if (data)
		empty_data(d);
	jw_key(d->w, "nodes");
	jw_arr_open(d->w);
}

static void container_close(struct doc *d)
{
	jw_arr_close(d->w);
	jw_obj_close(d->w);
}

static unsigned cur_marks(const struct doc *d)
{
	unsigned m = (d->bold > 0 ? M_BOLD : 0) | (d->italic > 0 ? M_ITALIC : 0) | (d->strike > 0 ? M_STRIKE : 0);

	for (unsigned i = 0; i < M_COUNT; i++)
		if (d->html[i] > 0)
			m |= 1u << i;
	return m;
}

static void add_text(struct doc *d, const char *s, size_t n, unsigned marks);

/* An inline HTML tag: <br> is a line break, <b>, </em>... open and close marks. */
static void html_inline(struct doc *d, const char *lit)
{
	bool closing = lit[0] == '<' && lit[1] == '/';
	const char *name = lit + 1 + closing;
	size_t n = 0;

	if (lit[0] != '<')
		return;
	if (is_br(lit)) {
		add_text(d, "\n", 1, cur_marks(d));
		return;
	}
	while ((name[n] >= 'a' && name[n] <= 'z') || (name[n] >= 'A' && name[n] <= 'Z'))
		n++;
	if (name[n] != '>' && name[n] != ' ' && name[n] != '\t' && name[n] != '\n')
		return;
	for (size_t i = 0; i < sizeof(html_marks) / sizeof(html_marks[0]); i++) {
		unsigned bit = 0;

		if (strlen(html_marks[i].tag) != n || strncasecmp(html_marks[i].tag, name, n) != 0)
			continue;
		while (!(html_marks[i].mark & (1u << bit)))
			bit++;
		if (closing && d->html[bit] > 0)
			d->html[bit]--;
		else if (!closing && lit[strlen(lit) - 2] != '/')
			d->html[bit]++;
		return;
	}
}

static void leaf(struct doc *d, const char *s, size_t n, unsigned marks)
{
	struct jw *w = d->w;

	if (!d->text_open) {
		obj_begin(d, "text", NULL);
		jw_key(w, "leaves");
		jw_arr_open(w);
		d->text_open = true;
	}
	jw_obj_open(w);
	jw_kstr(w, "object", "leaf");
	jw_key(w, "text");
	jw_strn(w, s, n);
	jw_key(w, "marks");
	jw_arr_open(w);
	for (unsigned i = 0; i < M_COUNT; i++) {
		if (!(marks & (1u << i)))
			continue;
		jw_obj_open(w);
		jw_kstr(w, "object", "mark");
		jw_kstr(w, "type", mark_names[i]);
		jw_obj_close(w);
	}
	jw_arr_close(w);
	jw_obj_close(w);
}

static void flush(struct doc *d)
{
	if (!d->has_pend)
		return;
	leaf(d, bdata(&d->pend), d->pend.len, d->pend_marks);
	d->has_pend = false;
	jw_reset(&d->pend);
}

/* Text with marks; runs with the same marks merge into one leaf. */
static void add_text(struct doc *d, const char *s, size_t n, unsigned marks)
{
	if (!n)
		return;
	if (d->has_pend && d->pend_marks != marks)
		flush(d);
	bput(&d->pend, s, n);
	d->has_pend = true;
	d->pend_marks = marks;
}

static void text_close(struct doc *d)
{
	flush(d);
	if (d->text_open) {
		jw_arr_close(d->w);
		jw_obj_close(d->w);
		d->text_open = false;
	}
}

/* Slate's rule: an inline has a text node on each side, a container has one. */
static void before_inline(struct doc *d)
{
	flush(d);
	if (!d->text_open)
		leaf(d, "", 0, 0);
	text_close(d);
}

static void inlines_end(struct doc *d)
{
	before_inline(d);
}

/* The id in "<prefix><id>[#anchor]" when the rest is a valid docsd id. */
static bool path_id(const char *url, const char *prefix, size_t *id_len, const char **anchor)
{
	size_t pl = strlen(prefix), n;
	char id[65];

	if (strncmp(url, prefix, pl) != 0)
		return false;
	n = strcspn(url + pl, "#");
	if (n == 0 || n > 64)
		return false;
	memcpy(id, url + pl, n);
	id[n] = '\0';
	if (!id_valid(id))
		return false;
	*id_len = n;
	*anchor = url[pl + n] == '#' ? url + pl + n + 1 : NULL;
	return true;
}

/* "ref": the ContentRef of a destination. Images take only file and url refs. */
static void write_ref(struct jw *w, const char *url, bool image)
{
	const char *anchor;
	size_t n;

	if (!url)
		url = "";
	jw_key(w, "ref");
	jw_obj_open(w);
	if (path_id(url, "/files/", &n, &anchor) && !anchor) {
		jw_kstr(w, "kind", "file");
		jw_key(w, "file");
		jw_strn(w, url + 7, n);
	} else if (!image && path_id(url, "/pages/", &n, &anchor)) {
		if (anchor && *anchor) {
			jw_kstr(w, "kind", "anchor");
			jw_kstr(w, "anchor", anchor);
		} else {
			jw_kstr(w, "kind", "page");
		}
		jw_key(w, "page");
		jw_strn(w, url + 7, n);
	} else if (!image && url[0] == '#' && url[1]) {
		jw_kstr(w, "kind", "anchor");
		jw_kstr(w, "anchor", url + 1);
	} else {
		jw_kstr(w, "kind", "url");
		jw_kstr(w, "url", url);
	}
	jw_obj_close(w);
}

/* An image's data: its ref and, when it has any, its alt text. */
static void image_data(struct doc *d, cmark_node *img)
{
	struct jw *w = d->w;

	jw_key(w, "data");
	jw_obj_open(w);
	write_ref(w, cmark_node_get_url(img), true);
	jw_reset(&d->tmp);
	for (cmark_node *c = cmark_node_first_child(img); c; c = cmark_node_next(c))
		plain_append(&d->tmp, c);
	btrim_end(&d->tmp);
	if (d->tmp.len) {
		jw_key(w, "alt");
		jw_strn(w, bdata(&d->tmp), d->tmp.len);
	}
	jw_obj_close(w);
}

static void inline_image(struct doc *d, cmark_node *img)
{
	before_inline(d);
	obj_begin(d, "inline", "inline-image");
	jw_kbool(d->w, "isVoid", true);
	image_data(d, img);
	jw_obj_close(d->w);
}

/* Writes the inline content of parent's children (not closing the run). */
static void inlines(struct doc *d, cmark_node *parent)
{
	cmark_iter *it = cmark_iter_new(parent);
	cmark_node *skip = NULL;
	cmark_event_type ev;

	if (!it) {
		d->pend.oom = true;
		return;
	}
	memset(d->html, 0, sizeof(d->html));
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		bool enter = ev == CMARK_EVENT_ENTER;
		const char *lit;

		if (n == parent)
			continue;
		if (skip) {
			if (n == skip && !enter)
				skip = NULL;
			continue;
		}
		switch (cmark_node_get_type(n)) {
		case CMARK_NODE_TEXT:
			lit = literal(n);
			add_text(d, lit, strlen(lit), cur_marks(d));
			break;
		case CMARK_NODE_CODE:
			lit = literal(n);
			add_text(d, lit, strlen(lit), cur_marks(d) | M_CODE);
			break;
		case CMARK_NODE_SOFTBREAK:
			add_text(d, " ", 1, cur_marks(d));
			break;
		case CMARK_NODE_LINEBREAK:
			add_text(d, "\n", 1, cur_marks(d));
			break;
		case CMARK_NODE_HTML_INLINE:
			html_inline(d, literal(n));
			break;
		case CMARK_NODE_EMPH:
			d->italic += enter ? 1 : -1;
			break;
		case CMARK_NODE_STRONG:
			d->bold += enter ? 1 : -1;
			break;
		case CMARK_NODE_LINK:
			if (enter && !d->link) {
				before_inline(d);
				obj_begin(d, "inline", "link");
				jw_kbool(d->w, "isVoid", false);
				jw_key(d->w, "data");
				jw_obj_open(d->w);
				write_ref(d->w, cmark_node_get_url(n), false);
				jw_obj_close(d->w);
				jw_key(d->w, "nodes");
				jw_arr_open(d->w);
				d->link = n;
			} else if (!enter && d->link == n) {
				inlines_end(d);
				container_close(d);
				d->link = NULL;
			}
			break;
		case CMARK_NODE_IMAGE:
			if (enter) {
				inline_image(d, n);
				skip = n;
			}
			break;
		default:
			if (is_type(n, "strikethrough"))
				d->strike += enter ? 1 : -1;
			break;
		}
	}
	cmark_iter_free(it);
	memset(d->html, 0, sizeof(d->html));
}

static void paragraph_begin(struct doc *d)
{
	container_begin(d, "paragraph", true);
	d->text_open = false;
}

static void paragraph_end(struct doc *d)
{
	inlines_end(d);
	container_close(d);
}

static void text_paragraph(struct doc *d, const char *s, size_t n, unsigned marks)
{
	paragraph_begin(d);
	add_text(d, s, n, marks);
	paragraph_end(d);
}

/* A paragraph of the subtree's plain text; 0 blocks when it has none. */
static size_t plain_paragraph(struct doc *d, cmark_node *n)
{
	jw_reset(&d->tmp);
	plain_append(&d->tmp, n);
	btrim_end(&d->tmp);
	if (!d->tmp.len)
		return 0;
	text_paragraph(d, bdata(&d->tmp), d->tmp.len, 0);
	return 1;
}

static bool images_only(cmark_node *p)
{
	bool any = false;

	for (cmark_node *c = cmark_node_first_child(p); c; c = cmark_node_next(c)) {
		switch (cmark_node_get_type(c)) {
		case CMARK_NODE_IMAGE:
			any = true;
			break;
		case CMARK_NODE_SOFTBREAK:
		case CMARK_NODE_LINEBREAK:
			break;
		case CMARK_NODE_TEXT:
			for (const char *s = literal(c); *s; s++)
				if (!is_ws(*s))
					return false;
			break;
		default:
			return false;
		}
	}
	return any;
}

static void images_block(struct doc *d, cmark_node *p)
{
	struct jw *w = d->w;

	container_begin(d, "images", true);
	for (cmark_node *c = cmark_node_first_child(p); c; c = cmark_node_next(c)) {
		const char *title;

		if (cmark_node_get_type(c) != CMARK_NODE_IMAGE)
			continue;
		obj_begin(d, "block", "image");
		jw_kbool(w, "isVoid", true);
		image_data(d, c);
		jw_key(w, "fragments");
		jw_arr_open(w);
		title = cmark_node_get_title(c);
		if (title && *title) {
			obj_begin(d, "fragment", NULL);
			jw_kstr(w, "fragment", "caption");
			jw_key(w, "nodes");
			jw_arr_open(w);
			text_paragraph(d, title, strlen(title), 0);
			jw_arr_close(w);
			jw_obj_close(w);
		}
		jw_arr_close(w);
		jw_obj_close(w);
	}
	container_close(d);
}

static void heading(struct doc *d, cmark_node *n)
{
	static const char *const types[] = { "heading-1", "heading-2", "heading-3" };
	int level = cmark_node_get_heading_level(n);
	const char *anchor = cmark_node_get_user_data(n);

	level = level < 1 ? 1 : level > 3 ? 3 : level;
	obj_begin(d, "block", types[level - 1]);
	jw_kbool(d->w, "isVoid", false);
	empty_data(d);
	if (anchor && *anchor) {
		jw_key(d->w, "meta");
		jw_obj_open(d->w);
		jw_kstr(d->w, "id", anchor);
		jw_obj_close(d->w);
	}
	jw_key(d->w, "nodes");
	jw_arr_open(d->w);
	d->text_open = false;
	inlines(d, n);
	inlines_end(d);
	container_close(d);
}

/* A code block's text without its final line ending. */
static size_t code_text(cmark_node *n, const char **s)
{
	size_t len;

	*s = literal(n);
	len = strlen(*s);
	if (len && (*s)[len - 1] == '\n')
		len--;
	return len;
}

static void code_block(struct doc *d, cmark_node *n)
{
	struct jw *w = d->w;
	const char *info = cmark_node_get_fence_info(n), *s;
	size_t len = code_text(n, &s), i = 0;

	obj_begin(d, "block", "code");
	jw_kbool(w, "isVoid", false);
	jw_key(w, "data");
	jw_obj_open(w);
	if (info) {
		info += strspn(info, " \t");
		if (*info) {
			jw_key(w, "syntax");
			jw_strn(w, info, strcspn(info, " \t"));
		}
	}
	jw_obj_close(w);
	jw_key(w, "nodes");
	jw_arr_open(w);
	for (;;) {
		const char *nl = i < len ? memchr(s + i, '\n', len - i) : NULL;
		size_t e = nl ? (size_t)(nl - s) : len, le = e;

		if (le > i && s[le - 1] == '\r')
			le--;
		container_begin(d, "code-line", true);
		d->text_open = false;
		leaf(d, s + i, le - i, 0);
		text_close(d);
		container_close(d);
		if (!nl)
			break;
		i = e + 1;
	}
	jw_arr_close(w);
	jw_obj_close(w);
}

/* fractional-indexing keys: "a0".."az", "b00".."bzz", ... in ASCII order. */
static void order_index(char out[16], size_t i)
{
	static const char digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
	size_t count = 62;
	int width = 1;

	while (i >= count && width < 12) {
		i -= count;
		count *= 62;
		width++;
	}
	out[0] = (char)('a' + width - 1);
	for (int k = width; k >= 1; k--) {
		out[k] = digits[i % 62];
		i /= 62;
	}
	out[width + 1] = '\0';
}

/*
 * A GitBook table: a grid view of text columns, one record per body row, the
 * header row giving the column titles, and each cell's content in a fragment
 * the record names. Column ids "<key>c<j>", record ids "<key>r<i>", fragment
 * names "<key>r<i>c<j>", where <key> is the table block's key.
 */
static void table(struct doc *d, cmark_node *t)
{
	struct jw *w = d->w;
	unsigned ncols = cmark_gfm_extensions_get_table_columns(t);
	const uint8_t *align = cmark_gfm_extensions_get_table_alignments(t);
	cmark_node *head = cmark_node_first_child(t), *row, *cell;
	char tk[32], id[96], oi[16];
	size_t i;

	if (head && !is_type(head, "table_header"))
		head = NULL;
	obj_begin(d, "block", "table");
	snprintf(tk, sizeof(tk), "b%lu", d->key);
	jw_kbool(w, "isVoid", true);
	jw_key(w, "data");
	jw_obj_open(w);

	jw_key(w, "view");
	jw_obj_open(w);
	jw_kstr(w, "type", "grid");
	jw_key(w, "columns");
	jw_arr_open(w);
	for (unsigned j = 0; j < ncols; j++) {
		snprintf(id, sizeof(id), "%sc%u", tk, j);
		jw_str(w, id);
	}
	jw_arr_close(w);
	jw_kbool(w, "hideHeader", false);
	jw_obj_close(w);

	jw_key(w, "definition");
	jw_obj_open(w);
	cell = head ? cmark_node_first_child(head) : NULL;
	for (unsigned j = 0; j < ncols; j++, cell = cell ? cmark_node_next(cell) : NULL) {
		char a = align ? (char)align[j] : 0;

		snprintf(id, sizeof(id), "%sc%u", tk, j);
		jw_key(w, id);
		jw_obj_open(w);
		jw_kstr(w, "id", id);
		jw_kstr(w, "type", "text");
		jw_reset(&d->tmp);
		if (cell)
			plain_append(&d->tmp, cell);
		btrim_end(&d->tmp);
		jw_key(w, "title");
		jw_strn(w, bdata(&d->tmp), d->tmp.len);
		jw_kstr(w, "textAlignment", a == 'c' ? "center" : a == 'r' ? "right" : "left");
		jw_obj_close(w);
	}
	jw_obj_close(w);

	jw_key(w, "records");
	jw_obj_open(w);
	i = 0;
	for (row = cmark_node_first_child(t); row; row = cmark_node_next(row)) {
		if (row == head)
			continue;
		snprintf(id, sizeof(id), "%sr%zu", tk, i);
		jw_key(w, id);
		jw_obj_open(w);
		order_index(oi, i);
		jw_kstr(w, "orderIndex", oi);
		jw_key(w, "values");
		jw_obj_open(w);
		cell = cmark_node_first_child(row);
		for (unsigned j = 0; j < ncols && cell; j++, cell = cmark_node_next(cell)) {
			snprintf(id, sizeof(id), "%sc%u", tk, j);
			jw_key(w, id);
			snprintf(id, sizeof(id), "%sr%zuc%u", tk, i, j);
			jw_str(w, id);
		}
		jw_obj_close(w);
		jw_obj_close(w);
		i++;
	}
	jw_obj_close(w);
	jw_obj_close(w); /* data */

	jw_key(w, "fragments");
	jw_arr_open(w);
	i = 0;
	for (row = cmark_node_first_child(t); row; row = cmark_node_next(row)) {
		if (row == head)
			continue;
		cell = cmark_node_first_child(row);
		for (unsigned j = 0; j < ncols && cell; j++, cell = cmark_node_next(cell)) {
			obj_begin(d, "fragment", NULL);
			snprintf(id, sizeof(id), "%sr%zuc%u", tk, i, j);
			jw_kstr(w, "fragment", id);
			jw_key(w, "nodes");
			jw_arr_open(w);
			paragraph_begin(d);
			inlines(d, cell);
			paragraph_end(d);
			jw_arr_close(w);
			jw_obj_close(w);
		}
		i++;
	}
	jw_arr_close(w);
	jw_obj_close(w);
}

/* Where a table may not go: one paragraph per row, cells joined by " | ". */
static size_t table_paragraphs(struct doc *d, cmark_node *t)
{
	size_t k = 0;

	for (cmark_node *row = cmark_node_first_child(t); row; row = cmark_node_next(row), k++) {
		paragraph_begin(d);
		for (cmark_node *cell = cmark_node_first_child(row); cell; cell = cmark_node_next(cell)) {
			if (cell != cmark_node_first_child(row))
				add_text(d, " | ", 3, 0);
			inlines(d, cell);
		}
		paragraph_end(d);
	}
	return k;
}

static size_t block(struct doc *d, cmark_node *n, enum where where, int depth);

/* Writes the children of parent; a quote or list item is never left empty. */
static void children(struct doc *d, cmark_node *parent, enum where where, int depth)
{
	size_t k = 0;

	for (cmark_node *c = cmark_node_first_child(parent); c; c = cmark_node_next(c))
		k += block(d, c, where, depth);
	if (k == 0)
		text_paragraph(d, "", 0, 0);
}

static void list(struct doc *d, cmark_node *n, int depth)
{
	struct jw *w = d->w;
	bool tasks = false, ordered = cmark_node_get_list_type(n) == CMARK_ORDERED_LIST;
	int start = cmark_node_get_list_start(n);

	for (cmark_node *it = cmark_node_first_child(n); it; it = cmark_node_next(it))
		if (is_type(it, "tasklist"))
			tasks = true;
	obj_begin(d, "block", tasks ? "list-tasks" : ordered ? "list-ordered" : "list-unordered");
	jw_kbool(w, "isVoid", false);
	jw_key(w, "data");
	jw_obj_open(w);
	if (ordered && !tasks && start != 1)
		jw_kint(w, "start", start);
	jw_obj_close(w);
	jw_key(w, "nodes");
	jw_arr_open(w);
	for (cmark_node *it = cmark_node_first_child(n); it; it = cmark_node_next(it)) {
		obj_begin(d, "block", "list-item");
		jw_kbool(w, "isVoid", false);
		jw_key(w, "data");
		jw_obj_open(w);
		if (tasks)
			jw_kbool(w, "checked",
				 is_type(it, "tasklist") && cmark_gfm_extensions_get_tasklist_item_checked(it));
		jw_obj_close(w);
		jw_key(w, "nodes");
		jw_arr_open(w);
		children(d, it, IN_ITEM, depth + 1);
		container_close(d);
	}
	container_close(d);
}

/* Writes one cmark block as GitBook blocks; returns how many it wrote. */
static size_t block(struct doc *d, cmark_node *n, enum where where, int depth)
{
	const char *s;
	size_t len;

	switch (cmark_node_get_type(n)) {
	case CMARK_NODE_PARAGRAPH:
		if (where == AT_TOP && images_only(n)) {
			images_block(d, n);
			return 1;
		}
		paragraph_begin(d);
		inlines(d, n);
		paragraph_end(d);
		return 1;
	case CMARK_NODE_HEADING:
		heading(d, n);
		return 1;
	case CMARK_NODE_THEMATIC_BREAK:
		obj_begin(d, "block", "divider");
		jw_kbool(d->w, "isVoid", true);
		empty_data(d);
		jw_obj_close(d->w);
		return 1;
	case CMARK_NODE_CODE_BLOCK:
		if (where == IN_QUOTE) {
			len = code_text(n, &s);
			text_paragraph(d, s, len, M_CODE);
		} else {
			code_block(d, n);
		}
		return 1;
	case CMARK_NODE_HTML_BLOCK:
		return plain_paragraph(d, n);
	case CMARK_NODE_BLOCK_QUOTE:
		if (depth >= MD_MAX_DEPTH)
			return plain_paragraph(d, n);
		container_begin(d, "blockquote", true);
		children(d, n, IN_QUOTE, depth + 1);
		container_close(d);
		return 1;
	case CMARK_NODE_LIST:
		if (depth >= MD_MAX_DEPTH)
			return plain_paragraph(d, n);
		list(d, n, depth);
		return 1;
	default:
		if (is_type(n, "table")) {
			if (where == IN_QUOTE)
				return table_paragraphs(d, n);
			table(d, n);
			return 1;
		}
		return plain_paragraph(d, n);
	}
}

int md_to_document(struct jw *w, const char *md, size_t len)
{
	struct arena a;
	struct doc d;
	cmark_node *root = NULL;
	size_t body;
	int rc = -1;

	if (!md)
		md = "", len = 0;
	arena_init(&a);
	memset(&d, 0, sizeof(d));
	d.w = w;
	jw_init(&d.pend);
	jw_init(&d.tmp);
	body = body_offset(md, len);
	root = parse(md + body, len - body);
	if (!root || assign_anchors(&a, root) < 0)
		goto cleanup;
	jw_obj_open(w);
	jw_kstr(w, "object", "document");
	jw_key(w, "data");
	jw_obj_open(w);
	jw_obj_close(w);
	jw_key(w, "nodes");
	jw_arr_open(w);
	children(&d, root, AT_TOP, 0);
	jw_arr_close(w);
	jw_obj_close(w);
	if (jw_ok(w) && !d.pend.oom && !d.tmp.oom)
		rc = 0;
cleanup:
	if (root)
		cmark_node_free(root);
	jw_free(&d.pend);
	jw_free(&d.tmp);
	arena_free(&a);
	return rc < 0 ? md_fail() : 0;
}

/* --------------------------------------------------- sections, title, text */

int md_sections(struct arena *a, const char *md, size_t len, struct md_section **out, size_t *n)
{
	cmark_node *root = NULL;
	struct md_section *secs = NULL, cur = { "", "", NULL };
	struct jw body, tmp;
	size_t count = 1, k = 0, off;
	bool preamble = true;
	int rc = -1;

	*out = NULL;
	*n = 0;
	if (!md)
		md = "", len = 0;
	jw_init(&body);
	jw_init(&tmp);
	off = body_offset(md, len);
	root = parse(md + off, len - off);
	if (!root || assign_anchors(a, root) < 0)
		goto cleanup;
	for (cmark_node *c = cmark_node_first_child(root); c; c = cmark_node_next(c))
		if (cmark_node_get_type(c) == CMARK_NODE_HEADING && cmark_node_get_heading_level(c) <= 3)
			count++;
	if (count > SIZE_MAX / sizeof(*secs))
		goto cleanup;
	secs = arena_alloc(a, count * sizeof(*secs));
	for (cmark_node *c = cmark_node_first_child(root);; c = cmark_node_next(c)) {
		bool split = !c || (cmark_node_get_type(c) == CMARK_NODE_HEADING &&
				    cmark_node_get_heading_level(c) <= 3);

		if (split) {
			/* Close the current section; the preamble only when it has text. */
			cur.body = bdup_trim(a, &body);
			if (body.oom)
				goto cleanup;
			if (!preamble || *cur.body)
				secs[k++] = cur;
			preamble = false;
			if (!c)
				break;
			jw_reset(&body);
			cur.id = cmark_node_get_user_data(c);
			cur.title = plain_dup(a, &tmp, c);
			if (!cur.id || !cur.title)
				goto cleanup;
			continue;
		}
		plain_append(&body, c);
	}
	*out = k ? secs : NULL;
	*n = k;
	rc = 0;
cleanup:
	if (root)
		cmark_node_free(root);
	jw_free(&body);
	jw_free(&tmp);
	return rc < 0 ? md_fail() : 0;
}

char *md_title(struct arena *a, const char *md, size_t len)
{
	cmark_node *root, *first;
	struct jw tmp;
	char *title = NULL;
	size_t off;

	if (!md)
		md = "", len = 0;
	off = body_offset(md, len);
	root = parse(md + off, len - off);
	if (!root) {
		md_fail();
		return NULL;
	}
	first = cmark_node_first_child(root);
	if (first && cmark_node_get_type(first) == CMARK_NODE_HEADING && cmark_node_get_heading_level(first) == 1) {
		jw_init(&tmp);
		title = plain_dup(a, &tmp, first);
		if (!title)
			md_fail();
		else if (!*title)
			title = NULL;
		jw_free(&tmp);
	}
	cmark_node_free(root);
	return title;
}

char *md_plain_text(struct arena *a, const char *md, size_t len)
{
	cmark_node *root;
	struct jw tmp;
	char *text;
	size_t off;

	if (!md)
		md = "", len = 0;
	off = body_offset(md, len);
	root = parse(md + off, len - off);
	if (!root) {
		md_fail();
		return NULL;
	}
	jw_init(&tmp);
	text = plain_dup(a, &tmp, root);
	jw_free(&tmp);
	cmark_node_free(root);
	if (!text)
		md_fail();
	return text;
}

/* ------------------------------------------------------------------ links */

/* The line a link starts on: cmark-gfm gives a link spanning lines the line
 * it ends on, but its first child's line is right. */
static int link_line(cmark_node *n)
{
	int line = cmark_node_get_start_line(n);
	cmark_node *c = cmark_node_first_child(n), *p;

	if (c && cmark_node_get_start_line(c) > 0 && cmark_node_get_start_line(c) < line)
		line = cmark_node_get_start_line(c);
	for (p = cmark_node_parent(n); line <= 0 && p; p = cmark_node_parent(p))
		line = cmark_node_get_start_line(p);
	return line > 0 ? line : 1;
}

static bool is_link(cmark_node *n)
{
	cmark_node_type t = cmark_node_get_type(n);

	return t == CMARK_NODE_LINK || t == CMARK_NODE_IMAGE;
}

int md_links(struct arena *a, const char *md, size_t len, struct md_link **out, size_t *n)
{
	cmark_node *root;
	cmark_iter *it;
	cmark_event_type ev;
	struct md_link *links = NULL;
	size_t count = 0, k = 0, off;
	int fm_lines, rc = -1;

	*out = NULL;
	*n = 0;
	if (!md)
		md = "", len = 0;
	off = body_offset(md, len);
	fm_lines = count_lines(md, off);
	root = parse(md + off, len - off);
	if (!root)
		return md_fail();
	for (int pass = 0; pass < 2; pass++) {
		it = cmark_iter_new(root);
		if (!it)
			goto cleanup;
		while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
			cmark_node *x = cmark_iter_get_node(it);

			if (ev != CMARK_EVENT_ENTER || !is_link(x))
				continue;
			if (pass == 0) {
				count++;
				continue;
			}
			links[k].target = arena_strdup(a, cmark_node_get_url(x) ? cmark_node_get_url(x) : "");
			links[k++].line = link_line(x) + fm_lines;
		}
		cmark_iter_free(it);
		if (pass == 0) {
			if (!count)
				break;
			if (count > SIZE_MAX / sizeof(*links))
				goto cleanup;
			links = arena_alloc(a, count * sizeof(*links));
		} else if (k < count) {
			goto cleanup;
		}
	}
	*out = count ? links : NULL;
	*n = count;
	rc = 0;
cleanup:
	cmark_node_free(root);
	return rc < 0 ? md_fail() : 0;
}

/* ------------------------------------------------------------- rewriting */

/* The destinations cmark found, sorted, each matched at most once. */
struct dest {
	const char *url;
	size_t order;
};

struct dests {
	struct dest *v;
	size_t *next; /* next[first index of a run of equal urls]: next unmatched */
	size_t n;
};

static int dest_cmp(const void *x, const void *y)
{
	const struct dest *a = x, *b = y;
	int c = strcmp(a->url, b->url);

	return c ? c : (a->order > b->order) - (a->order < b->order);
}

/* The first unmatched destination equal to url (now matched), or NULL. */
static const char *dests_take(struct dests *t, const char *url)
{
	size_t lo = 0, hi = t->n, i;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(t->v[mid].url, url) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= t->n || strcmp(t->v[lo].url, url) != 0)
		return NULL;
	i = t->next[lo];
	if (i >= t->n || strcmp(t->v[i].url, url) != 0)
		return NULL;
	t->next[lo] = i + 1;
	return t->v[i].url;
}

static bool is_punct(char c)
{
	return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') || (c >= '{' && c <= '~');
}

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* c is one of set's characters (never the NUL byte). */
static bool in_set(char c, const char *set)
{
	return c && strchr(set, c);
}

/* A backtick run: closers for code spans are raw runs of equal length. */
struct run {
	size_t pos, len;
};

static int run_cmp(const void *x, const void *y)
{
	const struct run *a = x, *b = y;

	if (a->len != b->len)
		return (a->len > b->len) - (a->len < b->len);
	return (a->pos > b->pos) - (a->pos < b->pos);
}

struct scan {
	const char *s;
	size_t end;
	struct run *runs; /* sorted by (len, pos) */
	size_t nruns;
};

/* Where a code span opened by the run s[p..p+len) ends, or 0 if it does not close. */
static size_t code_span_end(const struct scan *sc, size_t p, size_t len)
{
	size_t lo = 0, hi = sc->nruns;
	struct run key = { p + len, len };

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (run_cmp(&sc->runs[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < sc->nruns && sc->runs[lo].len == len)
		return sc->runs[lo].pos + len;
	return 0;
}

/* After an autolink or an HTML tag or comment at s[i] == '<'; 0 if none. */
static size_t skip_angle(const char *s, size_t i, size_t end)
{
	size_t j = i + 1, k;

	/* <scheme:...> */
	k = j;
	while (k < end && (is_alpha(s[k]) || is_digit(s[k]) || s[k] == '+' || s[k] == '.' || s[k] == '-'))
		k++;
	if (k - j >= 2 && k - j <= 32 && is_alpha(s[j]) && k < end && s[k] == ':') {
		for (k++; k < end && s[k] != '>' && s[k] != '<' && (unsigned char)s[k] > 0x20; k++)
			;
		if (k < end && s[k] == '>')
			return k + 1;
	}
	/* <user@host> */
	k = j;
	while (k < end && (is_alpha(s[k]) || is_digit(s[k]) || in_set(s[k], ".!#$%&'*+/=?^_`{|}~-")))
		k++;
	if (k > j && k < end && s[k] == '@') {
		for (k++; k < end && (is_alpha(s[k]) || is_digit(s[k]) || s[k] == '-' || s[k] == '.'); k++)
			;
		if (k < end && s[k] == '>' && s[k - 1] != '@')
			return k + 1;
	}
	/* <!-- comment --> */
	if (end - j >= 3 && !memcmp(s + j, "!--", 3)) {
		for (k = j + 3; k + 2 < end; k++)
			if (!memcmp(s + k, "-->", 3))
				return k + 3;
		return 0;
	}
	/* </tag> or <tag attr="v" ...> */
	k = j;
	if (k < end && s[k] == '/')
		k++;
	if (k >= end || !is_alpha(s[k]))
		return 0;
	while (k < end && (is_alpha(s[k]) || is_digit(s[k]) || s[k] == '-'))
		k++;
	for (;;) {
		size_t ws = k;

		while (k < end && (s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r'))
			k++;
		if (k < end && s[k] == '>')
			return k + 1;
		if (k + 1 < end && s[k] == '/' && s[k + 1] == '>' && s[j] != '/')
			return k + 2;
		if (k == ws || s[j] == '/' || k >= end ||
		    !(is_alpha(s[k]) || s[k] == '_' || s[k] == ':'))
			return 0;
		while (k < end && (is_alpha(s[k]) || is_digit(s[k]) || in_set(s[k], "_.:-")))
			k++;
		ws = k;
		while (k < end && (s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r'))
			k++;
		if (k >= end || s[k] != '=') {
			k = ws;
			continue;
		}
		for (k++; k < end && (s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r'); k++)
			;
		if (k < end && (s[k] == '"' || s[k] == '\'')) {
			const char *q = memchr(s + k + 1, s[k], end - k - 1);

			if (!q)
				return 0;
			k = (size_t)(q - s) + 1;
		} else {
			size_t v = k;

			while (k < end && s[k] && !in_set(s[k], " \t\r\n\"'=<>`"))
				k++;
			if (k == v)
				return 0;
		}
	}
}

/* Spaces and tabs, at most one line ending, spaces and tabs. */
static size_t skip_ws_nl(const char *s, size_t i, size_t end)
{
	while (i < end && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i < end && s[i] == '\r')
		i++;
	if (i < end && s[i] == '\n')
		i++;
	while (i < end && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

struct cand {
	size_t b, e;  /* the destination s[b..e) */
	bool pointy;  /* written <...> */
	size_t after; /* after the closing ')' */
};

/* An inline link's "(dest "title")" at s[i] (just after the '('). */
static bool parse_tail(const char *s, size_t i, size_t end, struct cand *c)
{
	size_t j, k;

	i = skip_ws_nl(s, i, end);
	if (i < end && s[i] == '<') {
		for (j = i + 1; j < end && s[j] != '>'; j++) {
			if (s[j] == '\n' || s[j] == '\r' || s[j] == '<')
				return false;
			if (s[j] == '\\' && j + 1 < end && is_punct(s[j + 1]))
				j++;
		}
		if (j >= end)
			return false;
		c->b = i + 1;
		c->e = j;
		c->pointy = true;
		i = j + 1;
	} else {
		int depth = 0;

		for (j = i; j < end; j++) {
			if (s[j] == '\\' && j + 1 < end && is_punct(s[j + 1])) {
				j++;
				continue;
			}
			if ((unsigned char)s[j] <= 0x20 || s[j] == 0x7f)
				break;
			if (s[j] == '(' && ++depth > 32)
				return false;
			if (s[j] == ')' && depth-- == 0)
				break;
		}
		if (depth > 0)
			return false;
		c->b = i;
		c->e = j;
		c->pointy = false;
		i = j;
	}
	k = skip_ws_nl(s, i, end);
	if (k < end && s[k] == ')') {
		c->after = k + 1;
		return true;
	}
	if (k == i || k >= end || !(s[k] == '"' || s[k] == '\'' || s[k] == '('))
		return false;
	{
		char open = s[k], close = open == '(' ? ')' : open;

		for (j = k + 1; j < end && s[j] != close; j++) {
			if (s[j] == '\\' && j + 1 < end && is_punct(s[j + 1]))
				j++;
			else if (open == '(' && s[j] == '(')
				return false;
		}
		if (j >= end)
			return false;
	}
	k = skip_ws_nl(s, j + 1, end);
	if (k >= end || s[k] != ')')
		return false;
	c->after = k + 1;
	return true;
}

/* The destination decoded as cmark decodes it (the entities docs use). */
static void clean_dest(struct jw *b, const char *s, size_t n)
{
	static const struct {
		const char *name;
		const char *text;
	} ents[] = { { "amp;", "&" }, { "lt;", "<" }, { "gt;", ">" }, { "quot;", "\"" }, { "apos;", "'" } };

	jw_reset(b);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n && is_punct(s[i + 1])) {
			bput(b, s + ++i, 1);
			continue;
		}
		if (s[i] == '&') {
			bool done = false;

			for (size_t k = 0; k < sizeof(ents) / sizeof(ents[0]) && !done; k++) {
				size_t el = strlen(ents[k].name);

				if (n - i - 1 >= el && !memcmp(s + i + 1, ents[k].name, el)) {
					bputs(b, ents[k].text);
					i += el;
					done = true;
				}
			}
			if (!done && i + 2 < n && s[i + 1] == '#') {
				bool hex = s[i + 2] == 'x' || s[i + 2] == 'X';
				size_t k = i + 2 + hex, digits = 0;
				unsigned long cp = 0;

				for (; k < n && digits < 8 && (hex ? hex_digit(s[k]) >= 0 : is_digit(s[k])); k++, digits++)
					cp = cp * (hex ? 16 : 10) + (unsigned long)(hex ? hex_digit(s[k]) : s[k] - '0');
				if (digits && digits <= (hex ? 6u : 7u) && k < n && s[k] == ';') {
					put_utf8(b, cp);
					i = k;
					done = true;
				}
			}
			if (done)
				continue;
		}
		bput(b, s + i, 1);
	}
}

struct edit {
	size_t b, e;
	bool pointy;
	const char *repl;
};

struct edits {
	struct edit *v;
	size_t n, cap;
};

static int edits_add(struct edits *t, struct edit e)
{
	if (t->n == t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 16;
		struct edit *nv;

		if (ncap > SIZE_MAX / sizeof(*nv))
			return -1;
		nv = xrealloc(t->v, ncap * sizeof(*nv));
		t->v = nv;
		t->cap = ncap;
	}
	t->v[t->n++] = e;
	return 0;
}

struct rewrite {
	const char *s; /* the body */
	struct dests dests;
	struct edits edits;
	struct jw clean;
	char *stack; /* per open bracket: 1 for "![" */
	const char *(*map)(void *ctx, const char *target);
	void *ctx;
};

/* Backtick runs of s[b..e), sorted for code_span_end. */
static int collect_runs(struct scan *sc, size_t b)
{
	size_t n = 0, k = 0;

	for (size_t i = b; i < sc->end; i++)
		if (sc->s[i] == '`' && (i == b || sc->s[i - 1] != '`'))
			n++;
	sc->nruns = n;
	sc->runs = NULL;
	if (!n)
		return 0;
	if (n > SIZE_MAX / sizeof(*sc->runs))
		return -1;
	sc->runs = xmalloc(n * sizeof(*sc->runs));
	for (size_t i = b; i < sc->end;) {
		size_t j = i;

		if (sc->s[i] != '`') {
			i++;
			continue;
		}
		while (j < sc->end && sc->s[j] == '`')
			j++;
		sc->runs[k++] = (struct run){ i, j - i };
		i = j;
	}
	qsort(sc->runs, n, sizeof(*sc->runs), run_cmp);
	return 0;
}

/* Finds the inline links of the body's bytes [b, e) and records the edits. */
static int scan_range(struct rewrite *r, size_t b, size_t e)
{
	struct scan sc = { .s = r->s, .end = e };
	const char *s = r->s;
	size_t depth = 0, inactive_below = 0, i = b;
	int rc = -1;

	if (collect_runs(&sc, b) < 0)
		return -1;
	while (i < e) {
		char c = s[i];
		struct cand cand;

		if (c == '\\') {
			i += i + 1 < e && is_punct(s[i + 1]) ? 2 : 1;
		} else if (c == '`') {
			size_t j = i, close;

			while (j < e && s[j] == '`')
				j++;
			close = code_span_end(&sc, i, j - i);
			i = close ? close : j;
		} else if (c == '<') {
			size_t j = skip_angle(s, i, e);

			i = j ? j : i + 1;
		} else if (c == '[' || (c == '!' && i + 1 < e && s[i + 1] == '[')) {
			if (depth < inactive_below)
				inactive_below = depth;
			r->stack[depth++] = c == '!';
			i += c == '!' ? 2 : 1;
		} else if (c == ']' && depth > 0) {
			bool image = r->stack[--depth];

			if ((!image && depth < inactive_below) || i + 1 >= e || s[i + 1] != '(' ||
			    !parse_tail(s, i + 2, e, &cand)) {
				i++;
				continue;
			}
			clean_dest(&r->clean, s + cand.b, cand.e - cand.b);
			if (r->clean.oom)
				goto cleanup;
			{
				const char *url = NULL, *repl;

				/* NUL-terminated for the comparison; cmark has no NUL in urls. */
				bput(&r->clean, "", 1);
				if (!r->clean.oom && !memchr(r->clean.buf, '\0', r->clean.len - 1))
					url = dests_take(&r->dests, r->clean.buf);

				repl = url ? r->map(r->ctx, url) : NULL;
				if (repl && edits_add(&r->edits, (struct edit){ cand.b, cand.e, cand.pointy, repl }) < 0)
					goto cleanup;
			}
			if (!image)
				inactive_below = depth;
			i = cand.after;
		} else {
			i++;
		}
	}
	rc = 0;
cleanup:
	free(sc.runs);
	return rc;
}

/* A replacement may be written bare: no blanks, controls, <, >, \ or unbalanced ( ). */
static bool bare_ok(const char *s)
{
	int depth = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c <= 0x20 || c == 0x7f || c == '<' || c == '>' || c == '\\')
			return false;
		if (c == '(')
			depth++;
		else if (c == ')' && depth-- == 0)
			return false;
	}
	return depth == 0;
}

/* The replacement as written inside <...>. */
static void put_pointy(struct jw *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '<' || *s == '>' || *s == '\\') {
			bput(b, "\\", 1);
			bput(b, s, 1);
		} else if (*s == '\n') {
			bput(b, "%0A", 3);
		} else if (*s == '\r') {
			bput(b, "%0D", 3);
		} else {
			bput(b, s, 1);
		}
	}
}

char *md_rewrite_links(struct arena *a, const char *md, size_t len,
		       const char *(*map)(void *ctx, const char *target), void *ctx)
{
	struct rewrite r;
	cmark_node *root = NULL;
	cmark_iter *it = NULL;
	cmark_event_type ev;
	size_t *line_start = NULL, nlines = 1, off, blen, k = 0, prev_end = 0, pos = 0;
	struct jw out;
	char *result = NULL;
	bool fail = true;

	memset(&r, 0, sizeof(r));
	jw_init(&r.clean);
	jw_init(&out);
	if (!md)
		md = "", len = 0;
	off = body_offset(md, len);
	r.s = md + off;
	r.map = map;
	r.ctx = ctx;
	blen = len - off;
	root = parse(r.s, blen);
	if (!root)
		goto cleanup;

	/* The destinations cmark found. */
	for (int pass = 0; pass < 2; pass++) {
		if (!(it = cmark_iter_new(root)))
			goto cleanup;
		while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
			cmark_node *x = cmark_iter_get_node(it);

			if (ev != CMARK_EVENT_ENTER || !is_link(x))
				continue;
			if (pass == 1) {
				r.dests.v[k] = (struct dest){ cmark_node_get_url(x) ? cmark_node_get_url(x) : "", k };
				r.dests.next[k] = k;
			}
			k++;
		}
		cmark_iter_free(it);
		it = NULL;
		if (pass == 0) {
			r.dests.n = k;
			k = 0;
			if (r.dests.n > SIZE_MAX / sizeof(struct dest))
				goto cleanup;
			r.dests.v = xmalloc((r.dests.n + 1) * sizeof(struct dest));
			r.dests.next = xmalloc((r.dests.n + 1) * sizeof(size_t));
		}
	}
	qsort(r.dests.v, r.dests.n, sizeof(struct dest), dest_cmp);

	/* Where each line of the body starts (cmark's line endings). */
	for (size_t i = 0; i < blen; i++)
		if (r.s[i] == '\n' || (r.s[i] == '\r' && (i + 1 >= blen || r.s[i + 1] != '\n')))
			nlines++;
	if (nlines > SIZE_MAX / sizeof(size_t) - 1)
		goto cleanup;
	line_start = xmalloc((nlines + 1) * sizeof(size_t));
	r.stack = xmalloc(blen + 1);
	line_start[0] = 0;
	k = 1;
	for (size_t i = 0; i < blen; i++)
		if (r.s[i] == '\n' || (r.s[i] == '\r' && (i + 1 >= blen || r.s[i + 1] != '\n')))
			line_start[k++] = i + 1;
	line_start[nlines] = blen;

	/* Scan the lines of each block that holds inline content. */
	if (!(it = cmark_iter_new(root)))
		goto cleanup;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *x = cmark_iter_get_node(it);
		cmark_node_type t = cmark_node_get_type(x);
		int sl, el;
		size_t b, e;

		if (ev != CMARK_EVENT_ENTER ||
		    !(t == CMARK_NODE_PARAGRAPH || t == CMARK_NODE_HEADING || is_type(x, "table")))
			continue;
		sl = cmark_node_get_start_line(x);
		el = cmark_node_get_end_line(x);
		if (sl < 1 || (size_t)sl > nlines)
			continue;
		if (el < sl)
			el = sl;
		if ((size_t)el > nlines)
			el = (int)nlines;
		b = line_start[sl - 1];
		e = line_start[el];
		if (b < prev_end)
			b = prev_end;
		if (b < e && scan_range(&r, b, e) < 0)
			goto cleanup;
		prev_end = e > prev_end ? e : prev_end;
	}

	/* The copy: the frontmatter, then the body with the edits. */
	bput(&out, md, off);
	for (size_t i = 0; i < r.edits.n; i++) {
		struct edit *ed = &r.edits.v[i];

		bput(&out, r.s + pos, ed->b - pos);
		if (ed->pointy || !bare_ok(ed->repl)) {
			if (!ed->pointy)
				bput(&out, "<", 1);
			put_pointy(&out, ed->repl);
			if (!ed->pointy)
				bput(&out, ">", 1);
		} else {
			bputs(&out, ed->repl);
		}
		pos = ed->e;
	}
	bput(&out, r.s + pos, blen - pos);
	if (!out.oom && !r.clean.oom) {
		result = arena_strndup(a, bdata(&out), out.len);
		fail = false;
	}
cleanup:
	if (it)
		cmark_iter_free(it);
	if (root)
		cmark_node_free(root);
	free(r.dests.v);
	free(r.dests.next);
	free(r.edits.v);
	free(r.stack);
	free(line_start);
	jw_free(&r.clean);
	jw_free(&out);
	if (fail)
		md_fail();
	return fail ? NULL : result;
}

/* ---- URLs inside raw HTML (Git-synced pages: <img src=".gitbook/assets/x.png">) ---- */

/* jw_put of n bytes; nothing for none (an empty buffer has no memory yet,
 * and memcpy's arguments must not be NULL). */
static void mput(struct jw *b, const char *s, size_t n)
{
	if (n)
		jw_put(b, s, n);
}

/* The length of a code fence opening line[0..n) (``` or ~~~, up to three
 * spaces in), or 0; *ch its character. */
static size_t html_fence_len(const char *line, size_t n, char *ch)
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

static bool html_url_attr(const char *name, size_t n)
{
	static const char *const names[] = { "src", "href", "srcset", "poster" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == n && strncasecmp(name, names[i], n) == 0)
			return true;
	return false;
}

/* One attribute value v[0..n) (srcset: each candidate's URL) mapped into b. */
static void html_map_value(struct jw *b, struct arena *a, const char *v, size_t n, bool srcset,
			   const char *(*map)(void *ctx, const char *target), void *ctx)
{
	size_t i = 0;

	while (i < n) {
		size_t s = i, e;
		if (srcset)
			while (s < n && (v[s] == ' ' || v[s] == ',' || v[s] == '\t'))
				s++;
		mput(b, v + i, s - i);
		e = s;
		while (e < n && (!srcset || (v[e] != ' ' && v[e] != ',' && v[e] != '\t')))
			e++;
		if (e > s) {
			const char *m = map(ctx, arena_strndup(a, v + s, e - s));
			if (m)
				mput(b, m, strlen(m));
			else
				mput(b, v + s, e - s);
		}
		i = e;
		if (srcset) /* the descriptor up to the next comma stays */
			while (i < n && v[i] != ',') {
				mput(b, v + i, 1);
				i++;
			}
	}
}

/* One line outside fenced code: tags' URL attributes mapped, code spans kept. */
static void html_line(struct jw *b, struct arena *a, const char *s, size_t n,
		      const char *(*map)(void *ctx, const char *target), void *ctx)
{
	size_t i = 0;

	while (i < n) {
		if (s[i] == '`') {
			/* A code span: up to the same run of backticks (or the line's end). */
			size_t r = i, k;
			while (r < n && s[r] == '`')
				r++;
			size_t run = r - i;
			for (k = r; k < n; k++) {
				size_t q = k;
				while (q < n && s[q] == '`')
					q++;
				if (q - k == run)
					break;
				if (q > k)
					k = q - 1;
			}
			k = k < n ? k + run : n;
			mput(b, s + i, k - i);
			i = k;
			continue;
		}
		if (s[i] != '<' || i + 1 >= n || !isalpha((unsigned char)s[i + 1])) {
			mput(b, s + i, 1);
			i++;
			continue;
		}
		/* A tag: its name, then attributes up to '>'. */
		size_t k = i + 1;
		while (k < n && (isalnum((unsigned char)s[k]) || s[k] == '-'))
			k++;
		mput(b, s + i, k - i);
		while (k < n && s[k] != '>') {
			size_t ns = k, ne, vs, ve;
			char q = 0;
			if (!(isalpha((unsigned char)s[k]) || s[k] == '_' || s[k] == ':')) {
				mput(b, s + k, 1);
				k++;
				continue;
			}
			while (k < n && (isalnum((unsigned char)s[k]) || s[k] == '-' || s[k] == '_' || s[k] == ':'))
				k++;
			ne = k;
			while (k < n && s[k] == ' ')
				k++;
			if (k >= n || s[k] != '=') {
				mput(b, s + ns, k - ns);
				continue;
			}
			k++;
			while (k < n && s[k] == ' ')
				k++;
			if (k < n && (s[k] == '"' || s[k] == '\''))
				q = s[k++];
			vs = k;
			while (k < n && (q ? s[k] != q : !(s[k] == ' ' || s[k] == '>')))
				k++;
			ve = k;
			mput(b, s + ns, vs - ns);
			if (html_url_attr(s + ns, ne - ns))
				html_map_value(b, a, s + vs, ve - vs, ne - ns == 6, map, ctx);
			else
				mput(b, s + vs, ve - vs);
			if (q && k < n)
				mput(b, s + k++, 1);
		}
		i = k;
	}
}

char *md_rewrite_html_urls(struct arena *a, const char *md, size_t len,
			   const char *(*map)(void *ctx, const char *target), void *ctx)
{
	struct jw b;
	const char *p = md, *end = md + len;
	size_t fence = 0;
	char fch = 0, *out;

	if (!memchr(md, '<', len)) {
		out = arena_alloc(a, len + 1);
		memcpy(out, md, len);
		out[len] = '\0';
		return out;
	}
	jw_init(&b);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = (size_t)((nl ? nl : end) - p);
		char c;
		size_t fl = html_fence_len(p, ll, &c);
		if (fence) {
			if (fl >= fence && c == fch)
				fence = 0;
			mput(&b, p, ll);
		} else if (fl) {
			fence = fl;
			fch = c;
			mput(&b, p, ll);
		} else {
			html_line(&b, a, p, ll, map, ctx);
		}
		if (nl)
			mput(&b, "\n", 1);
		p = nl ? nl + 1 : end;
	}
	if (!jw_ok(&b)) {
		jw_free(&b);
		err_set(ERR_INTERNAL, "page too large");
		return NULL;
	}
	out = arena_alloc(a, b.len + 1);
	if (b.len)
		memcpy(out, b.buf, b.len);
	out[b.len] = '\0';
	jw_free(&b);
	return out;
}

/* ---- GitBook's blocks as plain markdown (twins, llms-full.txt) ---- */

#define PLAIN_MAX_DEPTH 16

/* What each open block put before its lines ("> " for a hint). */
struct plain {
	struct jw *b;
	struct arena *a;
	const char *prefix[PLAIN_MAX_DEPTH];
	char name[PLAIN_MAX_DEPTH][16];
	int depth;
	int steps[PLAIN_MAX_DEPTH];
};

static void plain_prefix(struct plain *p)
{
	for (int i = 0; i < p->depth; i++)
		if (p->prefix[i])
			mput(p->b, p->prefix[i], strlen(p->prefix[i]));
}

static void plain_line(struct plain *p, const char *s, size_t n)
{
	plain_prefix(p);
	mput(p->b, s, n);
	mput(p->b, "\n", 1);
}

/* The value of key="v" in a tag's text t[0..n), or NULL. */
static const char *plain_arg(struct arena *a, const char *t, size_t n, const char *key)
{
	size_t kl = strlen(key);

	for (size_t i = 0; i + kl + 1 < n; i++) {
		if ((i == 0 || t[i - 1] == ' ') && !strncmp(t + i, key, kl) && t[i + kl] == '=') {
			size_t j = i + kl + 1, e;
			char q = t[j];
			if (q == '"' || q == '\'') {
				for (e = j + 1; e < n && t[e] != q; e++)
					;
				return arena_strndup(a, t + j + 1, e - j - 1);
			}
			for (e = j; e < n && t[e] != ' ' && t[e] != '%'; e++)
				;
			return arena_strndup(a, t + j, e - j);
		}
	}
	return NULL;
}

/* One tag line's meaning: 1 when line[0..n) was a lone {% tag %}. */
static int plain_tag(struct plain *p, const char *line, size_t n)
{
	size_t i = 0, e, ns;
	char name[16];

	while (i < n && (line[i] == ' ' || line[i] == '\t'))
		i++;
	if (i + 1 >= n || line[i] != '{' || line[i + 1] != '%')
		return 0;
	for (e = i + 2; e + 1 < n && !(line[e] == '%' && line[e + 1] == '}'); e++)
		;
	if (e + 1 >= n)
		return 0;
	for (size_t k = e + 2; k < n; k++)
		if (line[k] != ' ' && line[k] != '\t' && line[k] != '\r')
			return 0;
	for (ns = i + 2; ns < e && (line[ns] == ' ' || line[ns] == '-'); ns++)
		;
	size_t nl = 0;
	while (ns + nl < e && nl < sizeof(name) - 1 && (isalnum((unsigned char)line[ns + nl]) || line[ns + nl] == '-'))
		nl++;
	memcpy(name, line + ns, nl);
	name[nl] = '\0';
	const char *args = line + ns + nl;
	size_t al = e - (ns + nl);

	if (!strncmp(name, "end", 3)) {
		for (int k = p->depth - 1; k >= 0; k--)
			if (!strcmp(p->name[k], name + 3)) {
				p->depth = k;
				break;
			}
		if (!strcmp(name, "endhint")) {
			plain_prefix(p);
			mput(p->b, "\n", 1);
		}
		return 1;
	}
	if (!strcmp(name, "embed")) {
		const char *u = plain_arg(p->a, args, al, "url");
		if (u) {
			char *l = arena_printf(p->a, "[%s](%s)", u, u);
			plain_line(p, l, strlen(l));
		}
		return 1;
	}
	if (p->depth >= PLAIN_MAX_DEPTH)
		return 1;
	p->prefix[p->depth] = NULL;
	p->steps[p->depth] = 0;
	snprintf(p->name[p->depth], sizeof(p->name[0]), "%s", name);
	if (!strcmp(name, "hint")) {
		const char *st = plain_arg(p->a, args, al, "style");
		const char *label = st && !strcmp(st, "warning") ? "Warning" : st && !strcmp(st, "danger") ? "Danger"
				    : st && !strcmp(st, "success") ? "Success" : "Note";
		p->depth++;
		p->prefix[p->depth - 1] = "> ";
		char *l = arena_printf(p->a, "**%s**", label);
		plain_line(p, l, strlen(l));
		plain_line(p, "", 0);
		return 1;
	}
	if (!strcmp(name, "tab") || !strcmp(name, "step")) {
		const char *t = plain_arg(p->a, args, al, "title");
		char *l;
		if (!strcmp(name, "step")) {
			int k = p->depth ? ++p->steps[p->depth - 1] : 1;
			l = arena_printf(p->a, "**Step %d**", k);
		} else {
			l = arena_printf(p->a, "**%s**", t && *t ? t : "Tab");
		}
		p->depth++;
		plain_line(p, l, strlen(l));
		plain_line(p, "", 0);
		return 1;
	}
	if (!strcmp(name, "code")) {
		const char *t = plain_arg(p->a, args, al, "title");
		p->depth++;
		if (t && *t) {
			char *l = arena_printf(p->a, "`%s`:", t);
			plain_line(p, l, strlen(l));
			plain_line(p, "", 0);
		}
		return 1;
	}
	if (!strcmp(name, "file")) {
		const char *s = plain_arg(p->a, args, al, "src");
		p->depth++;
		if (s) {
			const char *b = strrchr(s, '/');
			char *l = arena_printf(p->a, "[%s](%s)", b && b[1] ? b + 1 : s, s);
			plain_line(p, l, strlen(l));
			plain_line(p, "", 0);
		}
		return 1;
	}
	/* tabs, stepper, columns, column, content-ref and any other block:
	 * their content as it is. */
	p->depth++;
	return 1;
}

char *md_plain_meaning(struct arena *a, const char *md, size_t len)
{
	struct jw b;
	struct plain p = { .b = &b, .a = a };
	const char *s = md, *end = md + len;
	size_t fence = 0;
	char fch = 0, *out;

	jw_init(&b);
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t ll = (size_t)((nl ? nl : end) - s);
		char c;
		size_t fl = html_fence_len(s, ll, &c);
		if (fence) {
			if (fl >= fence && c == fch)
				fence = 0;
			plain_line(&p, s, ll);
		} else if (fl) {
			fence = fl;
			fch = c;
			plain_line(&p, s, ll);
		} else if (!memchr(s, '{', ll) || !plain_tag(&p, s, ll)) {
			plain_line(&p, s, ll);
		}
		s = nl ? nl + 1 : end;
	}
	if (!jw_ok(&b)) {
		jw_free(&b);
		err_set(ERR_INTERNAL, "page too large");
		return NULL;
	}
	out = arena_alloc(a, b.len + 1);
	if (b.len)
		memcpy(out, b.buf, b.len);
	out[b.len] = '\0';
	jw_free(&b);
	return out;
}
