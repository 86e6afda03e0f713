/*
 * md_html.c - a page's markdown as the published site's HTML (site.h).
 *
 * GitBook's block tags ({% hint %}, {% tabs %}, {% code %} ...) stand on
 * lines of their own. The text is cut at those lines (outside fenced code):
 * the markdown between two tags is rendered by cmark-gfm on its own, and each
 * tag opens or closes the HTML around it, on a stack (at most MDH_DEPTH
 * deep; deeper tags are dropped). Unclosed blocks are closed at the end.
 */
#include "site/site.h"

#include "format/gitbook_tags.h"
#include "format/html_allow.h"
#include "format/markdown.h"
#include "util/err.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm.h>
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MDH_DEPTH 16
#define MDH_ANCHORS 256

struct mdh_frame {
	char name[24];
	int ntabs; /* tabs: the tabs opened so far */
	int seq;   /* tabs: this group's number in the page */
};

struct mdh {
	struct jw *out;
	struct arena *a;
	struct mdh_frame stack[MDH_DEPTH];
	int depth;
	int tabs_seq;
	const char *anchors[MDH_ANCHORS];
	int nanchors;
	struct md_headings *toc;
	const char *skip_title; /* cleared once the first block is seen */
	int oom; /* cmark-gfm could not allocate */
	md_link_fn link;        /* the page's link map, also for URLs in raw HTML */
	void *link_ctx;
};

static pthread_once_t ext_once = PTHREAD_ONCE_INIT;

static void ext_register(void)
{
	cmark_gfm_core_extensions_ensure_registered();
}

/* The plain text of a heading (text and code literals). */
static void heading_text(cmark_node *h, struct jw *t)
{
	cmark_iter *it = cmark_iter_new(h);
	cmark_event_type ev;

	if (!it)
		return;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		cmark_node_type ty = cmark_node_get_type(n);
		if (ev == CMARK_EVENT_ENTER && (ty == CMARK_NODE_TEXT || ty == CMARK_NODE_CODE)) {
			const char *s = cmark_node_get_literal(n);
			if (s)
				jw_put(t, s, strlen(s));
		}
	}
	cmark_iter_free(it);
}

/* A unique anchor for heading text in this page (GitHub's -1, -2 ...). */
static const char *unique_anchor(struct mdh *m, const char *text)
{
	char *base = html_anchor(m->a, text);
	const char *cand = base;

	for (int k = 1;; k++) {
		int used = 0;
		for (int i = 0; i < m->nanchors && !used; i++)
			used = strcmp(m->anchors[i], cand) == 0;
		if (!used)
			break;
		cand = arena_printf(m->a, "%s-%d", base, k);
	}
	if (m->nanchors < MDH_ANCHORS)
		m->anchors[m->nanchors++] = cand;
	return cand;
}

/* Whether the tree holds raw HTML (a block or inline). */
static bool has_raw_html(cmark_node *doc)
{
	cmark_iter *it = cmark_iter_new(doc);
	cmark_event_type ev;
	bool found = false;

	if (!it)
		return true; /* cannot tell: take the allowlist path */
	while (!found && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node_type ty = cmark_node_get_type(cmark_iter_get_node(it));
		found = ev == CMARK_EVENT_ENTER && (ty == CMARK_NODE_HTML_BLOCK || ty == CMARK_NODE_HTML_INLINE);
	}
	cmark_iter_free(it);
	return found;
}

/* URLs in raw HTML go through the page's link map when they are what the
 * markdown's own links were before md_rewrite_links: relative paths (a
 * Git-synced ".gitbook/assets/x.png", "other.md") and docsd's /pages/ and
 * /files/ references. Site URLs (from cmark's rewritten links) are left. */
static const char *raw_html_url(void *ctx, const char *url)
{
	struct mdh *m = ctx;

	if (!m->link || (url[0] == '/' && strncmp(url, "/pages/", 7) != 0 && strncmp(url, "/files/", 7) != 0))
		return NULL;
	return m->link(m->link_ctx, url);
}

/* Render md[0..len) with cmark-gfm into m->out. Raw HTML is kept only
 * through the allowlist (format/html_allow.h): when the text has any, the
 * whole segment is rendered with it and then parsed and rewritten by the
 * allowlist (a <details> opened in one HTML block and closed in another,
 * with markdown between, stays one element); without any, cmark's own
 * output is written as it is. */
static void render_md(struct mdh *m, const char *md, size_t len)
{
	static const char *const exts[] = { "table", "strikethrough", "tasklist", "autolink" };
	int opts = CMARK_OPT_VALIDATE_UTF8;
	cmark_parser *p;
	cmark_node *doc, *n;
	struct jw *final = m->out, seg;
	bool raw_html;

	while (len && isspace((unsigned char)*md)) {
		md++;
		len--;
	}
	if (!len)
		return;
	pthread_once(&ext_once, ext_register);
	if (!(p = cmark_parser_new(opts))) {
		m->oom = 1;
		return;
	}
	for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		cmark_syntax_extension *e = cmark_find_syntax_extension(exts[i]);
		if (e)
			cmark_parser_attach_syntax_extension(p, e);
	}
	cmark_parser_feed(p, md, len);
	doc = cmark_parser_finish(p);
	raw_html = doc && has_raw_html(doc);
	if (raw_html) {
		opts |= CMARK_OPT_UNSAFE; /* the allowlist below decides */
		jw_init(&seg);
		m->out = &seg;
	}
	for (n = doc ? cmark_node_first_child(doc) : NULL; n; n = cmark_node_next(n)) {
		if (m->skip_title) {
			const char *title = m->skip_title;
			m->skip_title = NULL;
			if (cmark_node_get_type(n) == CMARK_NODE_HEADING && cmark_node_get_heading_level(n) == 1) {
				struct jw t;
				int same;
				jw_init(&t);
				heading_text(n, &t);
				jw_put(&t, "", 1);
				same = jw_ok(&t) && strcmp(t.buf, title) == 0;
				jw_free(&t);
				if (same)
					continue;
			}
		}
		char *html = cmark_render_html(n, opts, cmark_parser_get_syntax_extensions(p));
		if (!html) {
			m->oom = 1;
			break;
		}
		if (cmark_node_get_type(n) == CMARK_NODE_HEADING && html[0] == '<' && html[1] == 'h' && html[3] == '>') {
			struct jw t;
			const char *id;
			jw_init(&t);
			heading_text(n, &t);
			jw_put(&t, "", 1);
			id = jw_ok(&t) ? unique_anchor(m, t.buf) : NULL;
			int level = cmark_node_get_heading_level(n);
			if (id && *id && m->toc && (level == 2 || level == 3) && m->toc->n < 64) {
				struct md_heading *hd = &m->toc->items[m->toc->n];
				hd->text = arena_strdup(m->a, t.buf);
				hd->id = id;
				hd->level = level;
				m->toc->n++;
			}
			jw_free(&t);
			jw_put(m->out, html, 3);
			if (id && *id) {
				jw_put(m->out, " id=\"", 5);
				html_esc(m->out, id);
				jw_put(m->out, "\"", 1);
			}
			html_raw(m->out, html + 3);
		} else {
			html_raw(m->out, html);
		}
		free(html);
	}
	if (doc)
		cmark_node_free(doc);
	cmark_parser_free(p);
	if (raw_html) {
		m->out = final;
		if (!jw_ok(&seg) || html_allow(final, seg.buf ? seg.buf : "", seg.len, raw_html_url, m))
			m->oom = 1; /* nothing of the segment is written */
		jw_free(&seg);
	}
}

static struct mdh_frame *push(struct mdh *m, const char *name)
{
	struct mdh_frame *f;

	if (m->depth >= MDH_DEPTH)
		return NULL;
	f = &m->stack[m->depth++];
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", name);
	return f;
}

static void close_frame(struct mdh *m)
{
	struct mdh_frame *f = &m->stack[--m->depth];

	if (strcmp(f->name, "code") == 0)
		html_raw(m->out, "</figure>\n");
	else
		html_raw(m->out, "</div>\n");
}

/* One tag {% name args %}. */
static void tag(struct mdh *m, const struct gb_tag *t)
{
	char nm[24];
	size_t nl = t->name_len;
	struct mdh_frame *f, *top = m->depth ? &m->stack[m->depth - 1] : NULL;

	snprintf(nm, sizeof(nm), "%.*s", (int)(nl < sizeof(nm) ? nl : sizeof(nm) - 1), t->name);
	if (strncmp(nm, "end", 3) == 0) {
		/* Close up to the matching block; a stray end tag is dropped. */
		for (int i = m->depth - 1; i >= 0; i--) {
			if (strcmp(m->stack[i].name, nm + 3) == 0) {
				while (m->depth > i)
					close_frame(m);
				break;
			}
		}
		return;
	}
	if (strcmp(nm, "hint") == 0) {
		const char *style = gb_tag_arg(m->a, t, "style");
		static const char *const ok[] = { "info", "warning", "danger", "success" };
		const char *cls = "info";
		for (size_t i = 0; style && i < 4; i++)
			if (strcmp(style, ok[i]) == 0)
				cls = ok[i];
		if (!push(m, nm))
			return;
		html_raw(m->out, "<div class=\"hint hint-");
		html_raw(m->out, cls);
		html_raw(m->out, "\" role=\"note\">\n");
	} else if (strcmp(nm, "tabs") == 0) {
		if (!(f = push(m, nm)))
			return;
		f->seq = ++m->tabs_seq;
		html_raw(m->out, "<div class=\"tabs\">\n");
	} else if (strcmp(nm, "tab") == 0 && top && strcmp(top->name, "tabs") == 0) {
		const char *title = gb_tag_arg(m->a, t, "title");
		int seq = top->seq, k = top->ntabs++;
		char id[64];
		if (!push(m, nm))
			return;
		snprintf(id, sizeof(id), "tabs-%d-%d", seq, k);
		char num[16];
		html_raw(m->out, "<input type=\"radio\" name=\"tabs-");
		snprintf(num, sizeof(num), "%d", seq);
		html_raw(m->out, num);
		html_raw(m->out, "\" id=\"");
		html_raw(m->out, id);
		html_raw(m->out, k == 0 ? "\" checked>" : "\">");
		html_raw(m->out, "<label for=\"");
		html_raw(m->out, id);
		html_raw(m->out, "\">");
		html_esc(m->out, title && *title ? title : "Tab");
		html_raw(m->out, "</label><div class=\"tab-panel\">\n");
	} else if (strcmp(nm, "code") == 0) {
		const char *title = gb_tag_arg(m->a, t, "title");
		if (!push(m, nm))
			return;
		html_raw(m->out, "<figure class=\"code-block\">");
		if (title && *title) {
			html_raw(m->out, "<figcaption>");
			html_esc(m->out, title);
			html_raw(m->out, "</figcaption>");
		}
		html_raw(m->out, "\n");
	} else if (strcmp(nm, "embed") == 0) {
		const char *url = gb_tag_arg(m->a, t, "url");
		if (url) {
			html_raw(m->out, "<p class=\"embed\"><a href=\"");
			html_url(m->out, url);
			html_raw(m->out, "\">");
			html_esc(m->out, url);
			html_raw(m->out, "</a></p>\n");
		}
		/* {% embed %} may or may not have an {% endembed %}: nothing to close. */
	} else {
		if (!push(m, nm))
			return;
		html_raw(m->out, "<div class=\"block-");
		for (const char *c = nm; *c; c++)
			if (isalnum((unsigned char)*c) || *c == '-')
				jw_put(m->out, c, 1);
		html_raw(m->out, "\">\n");
	}
}

/* The tag after the blanks at line[*at], into *t, *at moved past it: 1; 0 at
 * the line's end; -1 when anything else stands there. */
static int line_tag(const char *line, size_t n, size_t *at, struct gb_tag *t)
{
	while (*at < n && isspace((unsigned char)line[*at]))
		(*at)++;
	if (*at == n)
		return 0;
	if (!gb_tag_at(line, n, *at, t))
		return -1;
	*at = t->end;
	return 1;
}

/* When line[0..n) is nothing but {% tags %} (and spaces), handle them and
 * return 1; else 0 (nothing done). */
static int tag_line(struct mdh *m, const char *line, size_t n, const char *flush_from, const char *flush_to)
{
	struct gb_tag t;
	size_t at = 0;
	int rc, ntags = 0;

	/* First pass: is the whole line tags? Nothing is written before we know. */
	while ((rc = line_tag(line, n, &at, &t)) > 0)
		ntags++;
	if (rc < 0 || !ntags)
		return 0;
	render_md(m, flush_from, (size_t)(flush_to - flush_from));
	for (at = 0; line_tag(line, n, &at, &t) > 0;)
		tag(m, &t);
	return 1;
}

/* The length of a code fence opening at line (``` or ~~~, up to 3 spaces in), or 0. */
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

int md_to_html(struct jw *out, struct arena *a, const char *md, size_t len, md_link_fn link, void *ctx)
{
	return md_to_html_toc(out, a, md, len, link, ctx, NULL);
}

int md_to_html_toc(struct jw *out, struct arena *a, const char *md, size_t len, md_link_fn link, void *ctx,
		   struct md_headings *h)
{
	struct mdh m = { .out = out, .a = a, .toc = h, .skip_title = h ? h->skip_title : NULL, .link = link,
			 .link_ctx = ctx };
	struct md_front fm;
	const char *text, *p, *end, *seg;
	size_t tl, fence = 0;
	char fch = 0;

	if (h)
		h->n = 0;
	if (md_frontmatter(a, md, len, &fm))
		return -1;
	md += fm.body;
	len -= fm.body;
	if (link) {
		char *rw = md_rewrite_links(a, md, len, link, ctx);
		if (!rw)
			return -1;
		text = rw;
		tl = strlen(rw);
	} else {
		text = md;
		tl = len;
	}
	seg = p = text;
	end = text + tl;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *next = nl ? nl + 1 : end;
		size_t ll = (size_t)(le - p);
		char c;
		size_t fl = fence_len(p, ll, &c);

		if (fence) {
			if (fl >= fence && c == fch)
				fence = 0;
		} else if (fl) {
			fence = fl;
			fch = c;
		} else if (memchr(p, '{', ll) && tag_line(&m, p, ll, seg, p)) {
			seg = next;
		}
		p = next;
	}
	render_md(&m, seg, (size_t)(end - seg));
	while (m.depth)
		close_frame(&m);
	if (m.oom)
		return err_set(ERR_INTERNAL, "out of memory"); /* inside cmark-gfm */
	return jw_ok(out) ? 0 : err_set(ERR_INTERNAL, "rendered page too large");
}
