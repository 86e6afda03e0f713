/*
 * gitbook_render.c - what Git sync's export writes for a page and for
 * SUMMARY.md, and the path helpers of the layout (see gitbook_render.h).
 *
 * Everything here is a pure function of its arguments: the same page, body and
 * paths always give the same bytes, which is what byte stability compares.
 */
#include "format/gitbook_render.h"
#include "format/gitbook_layout.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/buf.h"
#include "util/err.h"
#include "util/text.h"
#include "util/util.h"
#include "util/fnv.h"

/* ------------------------------------------------------------------- map */

static uint64_t hash_key(const char *s, bool fold)
{
	uint64_t h = FNV1A_BASIS;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (fold && c >= 'A' && c <= 'Z')
			c = (unsigned char)(c - 'A' + 'a');
		h = fnv1a_step(h, c);
	}
	return h;
}

static bool key_eq(const char *a, const char *b, bool fold)
{
	return fold ? strcasecmp(a, b) == 0 : strcmp(a, b) == 0;
}

void lay_map_init(struct lay_map *m, struct arena *a, size_t n, bool fold)
{
	size_t cap = 16;

	while (cap < 2 * n + 16)
		cap *= 2;
	m->keys = arena_alloc(a, cap * sizeof(*m->keys));
	m->vals = arena_alloc(a, cap * sizeof(*m->vals));
	memset(m->keys, 0, cap * sizeof(*m->keys));
	m->cap = cap;
	m->n = 0;
	m->fold = fold;
}

int lay_map_put(struct lay_map *m, const char *key, int val)
{
	size_t i;

	if (m->n + 1 >= m->cap)
		return -1;
	for (i = hash_key(key, m->fold) & (m->cap - 1); m->keys[i]; i = (i + 1) & (m->cap - 1))
		if (key_eq(m->keys[i], key, m->fold))
			return 1;
	m->keys[i] = key;
	m->vals[i] = val;
	m->n++;
	return 0;
}

int lay_map_get(const struct lay_map *m, const char *key)
{
	if (!m->cap || !key)
		return -1;
	for (size_t i = hash_key(key, m->fold) & (m->cap - 1); m->keys[i]; i = (i + 1) & (m->cap - 1))
		if (key_eq(m->keys[i], key, m->fold))
			return m->vals[i];
	return -1;
}

/* ----------------------------------------------------------------- paths */

char *lay_dirname(struct arena *a, const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? arena_strndup(a, path, (size_t)(slash - path)) : arena_strdup(a, "");
}

char *lay_join(struct arena *a, const char *dir, const char *rel)
{
	size_t dl = strlen(dir), rl = strlen(rel), k = 0;
	char *in = arena_alloc(a, dl + rl + 2), *out = arena_alloc(a, dl + rl + 2);
	bool trailing = rl > 0 && rel[rl - 1] == '/';

	snprintf(in, dl + rl + 2, "%s%s%s", dir, dl ? "/" : "", rel);
	for (char *seg = in, *end; *seg; seg = *end ? end + 1 : end) {
		end = strchr(seg, '/');
		if (!end)
			end = seg + strlen(seg);
		size_t n = (size_t)(end - seg);
		if (n == 0 || (n == 1 && seg[0] == '.'))
			continue;
		if (n == 2 && seg[0] == '.' && seg[1] == '.') {
			if (k == 0)
				return NULL; /* leaves the repository */
			while (k > 0 && out[k - 1] != '/')
				k--;
			if (k > 0)
				k--; /* the '/' before the dropped segment */
			continue;
		}
		if (k)
			out[k++] = '/';
		memcpy(out + k, seg, n);
		k += n;
	}
	if (trailing && k)
		out[k++] = '/';
	out[k] = '\0';
	return out;
}

char *lay_relative(struct arena *a, const char *from, const char *to)
{
	size_t common = 0, ups = 0, k = 0, rest;
	char *out;

	/* The longest common run of whole folders ("a/b/" of "a/b/c.md" and "a/b/d/e.md"). */
	for (size_t i = 0; from[i] && from[i] == to[i]; i++)
		if (from[i] == '/')
			common = i + 1;
	for (const char *s = from + common; *s; s++)
		if (*s == '/')
			ups++;
	rest = strlen(to + common);
	out = arena_alloc(a, ups * 3 + rest + 1);
	for (size_t i = 0; i < ups; i++, k += 3)
		memcpy(out + k, "../", 3);
	memcpy(out + k, to + common, rest + 1); /* with its NUL */
	return out;
}

bool lay_ends_with(const char *s, const char *sfx)
{
	size_t n = strlen(s), m = strlen(sfx);

	return n >= m && strcasecmp(s + n - m, sfx) == 0;
}

/* ------------------------------------------------------------------ text */

/* Length of the valid UTF-8 sequence at s[0..n) (no overlongs, surrogates or
 * code points past U+10FFFF), 0 when invalid. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t len;
	unsigned long cp;

	if (c < 0x80)
		return c ? 1 : 0;
	if (c >= 0xC2 && c <= 0xDF)
		len = 2, cp = c & 0x1F;
	else if (c >= 0xE0 && c <= 0xEF)
		len = 3, cp = c & 0x0F;
	else if (c >= 0xF0 && c <= 0xF4)
		len = 4, cp = c & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
		return 0;
	return len;
}

char *lay_utf8_clean(struct arena *a, const unsigned char *data, size_t len, bool *changed)
{
	size_t bad = 0, i, k = 0;
	char *out;

	*changed = false;
	for (i = 0; i < len;) {
		size_t l = utf8_seq(data + i, len - i);
		if (!l)
			bad++, i++;
		else
			i += l;
	}
	if (len > SIZE_MAX / 4)
		return NULL;
	out = arena_alloc(a, len + bad * 2 + 1);
	for (i = 0; i < len;) {
		size_t l = utf8_seq(data + i, len - i);
		if (!l) {
			memcpy(out + k, "\xEF\xBF\xBD", 3);
			k += 3, i++;
			*changed = true;
		} else {
			memcpy(out + k, data + i, l);
			k += l, i += l;
		}
	}
	out[k] = '\0';
	return out;
}

/* ---------------------------------------------------------------- layout */

/* GitBook's RevisionPageLayoutOptions: every field is required; these are the
 * defaults docsd serializes for a page without a layout (serialize_content.c). */
static const char *const visible_keys[] = { "title", "description", "tableOfContents", "outline", "pagination",
					    "metadata" };
#define NVISIBLE (sizeof(visible_keys) / sizeof(visible_keys[0]))

void lay_layout_json(struct arena *a, const struct md_layout *l, const char **out)
{
	const int v[NVISIBLE] = { l->title, l->description, l->table_of_contents, l->outline, l->pagination,
				  l->metadata };
	bool wide = l->width && strcmp(l->width, "wide") == 0, dflt = !wide;

	*out = NULL;
	for (size_t i = 0; i < NVISIBLE; i++)
		if (v[i] == 0)
			dflt = false;
	if (!l->present || dflt)
		return;
	*out = arena_printf(a,
			 "{\"width\":\"%s\",\"cover\":false,\"coverSize\":\"hero\",\"title\":%s,\"description\":%s,"
			 "\"tableOfContents\":%s,\"outline\":%s,\"pagination\":%s,\"metadata\":%s}",
			 wide ? "wide" : "default", v[0] ? "true" : "false", v[1] ? "true" : "false",
			 v[2] ? "true" : "false", v[3] ? "true" : "false", v[4] ? "true" : "false",
			 v[5] ? "true" : "false");
}

/* ------------------------------------------------------------ YAML writer */

static void put(struct buf *b, const char *s)
{
	buf_put(b, s, strlen(s));
}

/* A YAML scalar that reads back as exactly s: plain when that is unambiguous,
 * else double-quoted with escapes. */
static bool plain_ok(const char *s)
{
	static const char *const words[] = { "null", "~", "true", "false", "yes", "no", "on", "off", "y", "n" };
	size_t n = strlen(s);
	unsigned char c0 = (unsigned char)s[0];

	if (!n || !((c0 >= 'a' && c0 <= 'z') || (c0 >= 'A' && c0 <= 'Z') || (c0 >= '0' && c0 <= '9') || c0 >= 0x80))
		return false;
	if (s[n - 1] == ' ' || s[n - 1] == ':')
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c == 0x7f)
			return false;
		if ((c == ':' && s[i + 1] == ' ') || (c == ' ' && s[i + 1] == '#'))
			return false;
	}
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcasecmp(s, words[i]) == 0)
			return false;
	return true;
}

static void yaml_scalar(struct buf *b, const char *s)
{
	if (plain_ok(s)) {
		put(b, s);
		return;
	}
	put(b, "\"");
	for (const char *p = s; *p; p++) {
		unsigned char c = (unsigned char)*p;
		char esc[8];
		if (c == '"' || c == '\\') {
			esc[0] = '\\', esc[1] = (char)c, esc[2] = '\0';
			put(b, esc);
		} else if (c == '\n') {
			put(b, "\\n");
		} else if (c == '\t') {
			put(b, "\\t");
		} else if (c < 0x20 || c == 0x7f) {
			snprintf(esc, sizeof(esc), "\\x%02x", c);
			put(b, esc);
		} else {
			buf_put(b, p, 1);
		}
	}
	put(b, "\"");
}

static void yaml_key(struct buf *b, const char *key, const char *val)
{
	put(b, key);
	put(b, ": ");
	yaml_scalar(b, val);
	put(b, "\n");
}

/* A page's variables (a JSON object's text) as front matter "vars:" lines. */
static void yaml_vars(struct buf *b, const char *vars)
{
	json_t *j = vars ? json_loads(vars, 0, NULL) : NULL;
	const char *k;
	json_t *v;
	char num[40];

	if (json_is_object(j) && json_object_size(j)) {
		put(b, "vars:\n");
		json_object_foreach(j, k, v) {
			put(b, "  ");
			yaml_scalar(b, k);
			put(b, ": ");
			if (json_is_string(v)) {
				yaml_scalar(b, json_string_value(v));
			} else if (json_is_boolean(v)) {
				put(b, json_is_true(v) ? "true" : "false");
			} else {
				snprintf(num, sizeof(num), "%.15g", json_number_value(v));
				put(b, num);
			}
			put(b, "\n");
		}
	}
	json_decref(j);
}

/* The layout options that differ from the defaults, as front matter lines. */
static void yaml_layout(struct buf *b, const char *layout)
{
	json_t *j = layout ? json_loads(layout, 0, NULL) : NULL;
	json_t *w = json_object_get(j, "width");
	bool wide = json_is_string(w) && strcmp(json_string_value(w), "wide") == 0, any = wide;

	for (size_t i = 0; i < NVISIBLE; i++)
		if (json_is_false(json_object_get(j, visible_keys[i])))
			any = true;
	if (any) {
		put(b, "layout:\n");
		if (wide)
			put(b, "  width: wide\n");
		for (size_t i = 0; i < NVISIBLE; i++)
			if (json_is_false(json_object_get(j, visible_keys[i]))) {
				put(b, "  ");
				put(b, visible_keys[i]);
				put(b, ":\n    visible: false\n");
			}
	}
	json_decref(j);
}

/* ------------------------------------------------------------------ links */

/* A path as a link destination: bytes that markdown or the link parsers would
 * read differently are percent-encoded (import decodes them). */
static char *url_path(struct arena *a, const char *path)
{
	size_t n = strlen(path), k = 0;
	char *out = arena_alloc(a, n * 3 + 1);

	for (const char *p = path; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c <= 0x20 || c == 0x7f || strchr("%#?()<>\\\"'[]`", c)) {
			pct_encode_byte(out + k, c);
			k += 3;
		} else {
			out[k++] = (char)c;
		}
	}
	out[k] = '\0';
	return out;
}

struct page_ctx {
	struct arena *a;
	const char *self;
	const struct lay_paths *paths;
};

/* /pages/<id>[#anchor] and /files/<id> to paths relative to the page. */
static const char *map_link(void *vctx, const char *target)
{
	struct page_ctx *c = vctx;
	const char *id, *hash = NULL, *path = NULL;
	char *u;
	bool page = strncmp(target, "/pages/", 7) == 0;

	if (!page && strncmp(target, "/files/", 7) != 0)
		return NULL;
	hash = page ? strchr(target + 7, '#') : NULL;
	id = hash ? arena_strndup(c->a, target + 7, (size_t)(hash - target - 7)) : target + 7;
	path = page ? (c->paths->page ? c->paths->page(c->paths->ctx, id) : NULL)
		    : (c->paths->file ? c->paths->file(c->paths->ctx, id) : NULL);
	if (!path)
		return NULL;
	u = url_path(c->a, lay_relative(c->a, c->self, path));
	return hash ? arena_printf(c->a, "%s%s", u, hash) : u;
}

/* A page's cover (GitBook's RevisionPageDocumentCover as JSON text) as
 * front matter "cover:" (the file's path in the repository, or the URL)
 * and "coverY:" lines. */
static void yaml_cover(struct buf *b, struct page_ctx *c, const char *cover)
{
	json_t *j = cover ? json_loads(cover, 0, NULL) : NULL;
	const json_t *ref = json_object_get(j, "ref");
	const char *kind = json_string_value(json_object_get(ref, "kind")), *where = NULL;
	char num[40];

	if (kind && !strcmp(kind, "file") && json_string_value(json_object_get(ref, "file")))
		where = map_link(c, arena_printf(c->a, "/files/%s", json_string_value(json_object_get(ref, "file"))));
	else if (kind && !strcmp(kind, "url"))
		where = json_string_value(json_object_get(ref, "url"));
	if (where) {
		yaml_key(b, "cover", where);
		snprintf(num, sizeof(num), "%.15g", json_number_value(json_object_get(j, "yPos")));
		put(b, "coverY: ");
		put(b, num);
		put(b, "\n");
	}
	json_decref(j);
}

int lay_render_page(struct arena *a, const struct rev_page *p, const char *body, const char *self,
		    const struct lay_paths *paths, const unsigned char **data, size_t *len)
{
	struct page_ctx c = { a, self, paths };
	struct buf b;
	const char *md, *heading;
	struct md_front fm;
	char *copy;
	int rc = -1;

	buf_init(&b);
	if (!body)
		body = "";
	md = md_rewrite_links(a, body, strlen(body), map_link, &c);
	if (!md)
		goto done; /* the error is set */
	/* /files/<id> and /pages/<id> in raw HTML go back to repository paths. */
	md = md_rewrite_html_urls(a, md, strlen(md), map_link, &c);
	if (!md)
		goto done; /* the error is set */
	heading = md_title(a, md, strlen(md));
	bool title = p->title && *p->title && (!heading || strcmp(heading, p->title) != 0);
	if (title || p->description || p->icon || p->emoji || p->hidden || p->layout || p->cond || p->vars || p->cover) {
		size_t mark;
		put(&b, "---\n");
		mark = b.len;
		if (title)
			yaml_key(&b, "title", p->title);
		if (p->description)
			yaml_key(&b, "description", p->description);
		if (p->icon)
			yaml_key(&b, "icon", p->icon);
		if (p->emoji)
			yaml_key(&b, "emoji", p->emoji);
		if (p->hidden)
			put(&b, "hidden: true\n");
		if (p->cond) /* GitBook's page condition, kept through a round trip */
			yaml_key(&b, "if", p->cond);
		yaml_vars(&b, p->vars);
		yaml_cover(&b, &c, p->cover);
		yaml_layout(&b, p->layout);
		if (b.len == mark) /* only default layout options: no block */
			b.len = 0;
		else
			put(&b, "---\n");
	}
	if (b.len == 0) {
		if (md_frontmatter(a, md, strlen(md), &fm))
			goto done; /* the error is set */
		if (fm.present) /* keep the body from being read as metadata */
			put(&b, "---\n---\n");
	}
	put(&b, md);
	if (!buf_ok(&b)) {
		err_set(ERR_INTERNAL, "page file too large");
		goto done;
	}
	copy = arena_alloc(a, b.len + 1);
	memcpy(copy, b.buf ? b.buf : "", b.len);
	copy[b.len] = '\0';
	*data = (const unsigned char *)copy;
	*len = b.len;
	rc = 0;
done:
	buf_free(&b);
	return rc;
}

/* --------------------------------------------------------------- summary */

/* Link text or heading text: ASCII punctuation markdown reads is escaped,
 * line breaks become spaces. */
static void md_text(struct buf *b, const char *s)
{
	if (!s || !*s)
		s = "Untitled";
	for (const char *p = s; *p; p++) {
		char c = *p;
		if (c == '\n' || c == '\r' || c == '\t') {
			put(b, " ");
			continue;
		}
		if (strchr("\\`*_[]<>&!#~|", c))
			put(b, "\\");
		buf_put(b, p, 1);
	}
}

static bool href_bare(const char *s)
{
	int depth = 0;

	for (const char *p = s; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c <= 0x20 || c == 0x7f || c == '<' || c == '>' || c == '\\')
			return false;
		if (c == '(')
			depth++;
		else if (c == ')' && --depth < 0)
			return false;
	}
	return depth == 0;
}

struct sum_ctx {
	struct arena *a;
	const struct revision *rv;
	const char *summary_path;
	const struct lay_paths *paths;
	struct buf *b;
};

/* A link's title: ` "Nav title"`, '"' and '\\' escaped, line breaks as spaces
 * (SUMMARY.md's nav title, format/summary.h). */
static void nav_title(struct buf *b, const char *t)
{
	if (!t || !*t)
		return;
	put(b, " \"");
	for (const char *s = t; *s; s++) {
		if (*s == '"' || *s == '\\')
			put(b, "\\");
		buf_put(b, *s == '\n' || *s == '\r' ? " " : s, 1);
	}
	put(b, "\"");
}

static void sum_item(struct sum_ctx *c, const struct rev_page *p, int depth)
{
	const char *path = NULL;

	if (p->type == PAGE_COMPUTED || p->type == PAGE_GROUP || depth > 64)
		return;
	if (p->type == PAGE_LINK) {
		if (!p->href || !*p->href)
			return;
	} else if (!(path = c->paths->page(c->paths->ctx, p->id))) {
		return;
	}
	for (int i = 0; i < depth; i++)
		put(c->b, "  ");
	put(c->b, "* [");
	md_text(c->b, p->title);
	put(c->b, "](");
	if (p->type == PAGE_LINK) {
		if (href_bare(p->href)) {
			put(c->b, p->href);
		} else {
			put(c->b, "<");
			for (const char *s = p->href; *s; s++) {
				if (*s == '<' || *s == '>' || *s == '\\')
					put(c->b, "\\");
				buf_put(c->b, *s == '\n' || *s == '\r' ? " " : s, 1);
			}
			put(c->b, ">");
		}
		nav_title(c->b, p->nav_title);
		put(c->b, ")\n");
		return;
	}
	put(c->b, url_path(c->a, lay_relative(c->a, c->summary_path, path)));
	nav_title(c->b, p->nav_title);
	put(c->b, ")\n");
	for (int k = p->first_child; k >= 0; k = c->rv->pages[k].next_sibling)
		sum_item(c, &c->rv->pages[k], depth + 1);
}

int lay_render_summary(struct arena *a, const struct revision *rv, const char *summary_path,
		       const struct lay_paths *paths, const unsigned char **data, size_t *len)
{
	struct buf b;
	struct sum_ctx c = { a, rv, summary_path, paths, &b };
	char *copy;

	buf_init(&b);
	put(&b, "# Table of contents\n\n");
	for (int i = rv->first_root; i >= 0; i = rv->pages[i].next_sibling)
		sum_item(&c, &rv->pages[i], 0);
	for (int i = rv->first_root; i >= 0; i = rv->pages[i].next_sibling) {
		const struct rev_page *g = &rv->pages[i];
		if (g->type != PAGE_GROUP)
			continue;
		put(&b, "\n## ");
		md_text(&b, g->title);
		put(&b, "\n\n");
		for (int k = g->first_child; k >= 0; k = rv->pages[k].next_sibling)
			sum_item(&c, &rv->pages[k], 0);
	}
	if (!buf_ok(&b)) {
		buf_free(&b);
		return err_set(ERR_INTERNAL, "SUMMARY.md too large");
	}
	copy = arena_alloc(a, b.len + 1);
	memcpy(copy, b.buf ? b.buf : "", b.len);
	copy[b.len] = '\0';
	*data = (const unsigned char *)copy;
	*len = b.len;
	buf_free(&b);
	return 0;
}

const char *layout_page_fingerprint(struct arena *a, const unsigned char *data, size_t len)
{
	char h[65];

	if (sha256_hex(h, data ? (const void *)data : "", len))
		return NULL;
	return arena_strdup(a, h);
}
