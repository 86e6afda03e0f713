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
#include "util/alloc.h"
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
	const char *close; /* the HTML that closes it */
	bool line_numbers; /* code: lineNumbers="true" */
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

static bool line_numbers(const struct mdh *m);

/* Byte offset in s[0..n) of cmark's 1-based line and column. */
static size_t src_offset(const char *s, size_t n, int line, int col)
{
	size_t o = 0;

	for (int l = 1; l < line && o < n; l++) {
		const char *nl = memchr(s + o, '\n', n - o);
		o = nl ? (size_t)(nl - s) + 1 : n;
	}
	o += col > 0 ? (size_t)col - 1 : 0;
	return o < n ? o : n;
}

/* A paragraph that is only $$...$$ (GitBook's math block): written as
 * <div class="math math-display"> with the TeX as text (KaTeX, when the
 * server has it, renders it; without script it reads as TeX). Read from
 * the source, as cmark would take _ and * in TeX for emphasis. */
static bool display_math(struct mdh *m, cmark_node *n, const char *md, size_t len)
{
	size_t a, b;

	if (cmark_node_get_type(n) != CMARK_NODE_PARAGRAPH)
		return false;
	a = src_offset(md, len, cmark_node_get_start_line(n), cmark_node_get_start_column(n));
	b = src_offset(md, len, cmark_node_get_end_line(n), cmark_node_get_end_column(n) + 1);
	while (b > a && isspace((unsigned char)md[b - 1]))
		b--;
	if (b - a < 5 || strncmp(md + a, "$$", 2) != 0 || strncmp(md + b - 2, "$$", 2) != 0)
		return false;
	for (size_t i = a + 2; i + 2 < b - 1; i++)
		if (md[i] == '$' && md[i + 1] == '$')
			return false; /* two inline formulas, not one block */
	html_raw(m->out, "<div class=\"math math-display\">");
	html_escn(m->out, md + a + 2, b - a - 4);
	html_raw(m->out, "</div>\n");
	return true;
}

/* Inline $$...$$ in text: <span class="math">TeX</span> (a custom inline
 * node whose TeX child cmark escapes). Text inside code is code. */
static void inline_math(cmark_node *doc)
{
	cmark_iter *it = cmark_iter_new(doc);
	cmark_node *texts[256];
	int nt = 0;
	cmark_event_type ev;

	if (!it)
		return;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE && nt < 256) {
		cmark_node *x = cmark_iter_get_node(it);
		const char *lit;
		if (ev == CMARK_EVENT_ENTER && cmark_node_get_type(x) == CMARK_NODE_TEXT &&
		    (lit = cmark_node_get_literal(x)) && strstr(lit, "$$"))
			texts[nt++] = x;
	}
	cmark_iter_free(it);
	for (int i = 0; i < nt; i++) {
		const char *s = cmark_node_get_literal(texts[i]), *o, *c;
		char *copy = xstrdup(s), *p = copy;
		bool changed = false;
		while ((o = strstr(p, "$$")) && (c = strstr(o + 2, "$$")) && c > o + 2) {
			cmark_node *before = cmark_node_new(CMARK_NODE_TEXT), *math = cmark_node_new(CMARK_NODE_CUSTOM_INLINE),
				   *tex = cmark_node_new(CMARK_NODE_TEXT);
			if (!before || !math || !tex) {
				cmark_node_free(before);
				cmark_node_free(math);
				cmark_node_free(tex);
				break;
			}
			copy[o - copy] = '\0';
			cmark_node_set_literal(before, p);
			copy[c - copy] = '\0';
			cmark_node_set_literal(tex, o + 2);
			cmark_node_set_on_enter(math, "<span class=\"math\">");
			cmark_node_set_on_exit(math, "</span>");
			cmark_node_append_child(math, tex);
			cmark_node_insert_before(texts[i], before);
			cmark_node_insert_before(texts[i], math);
			p = (char *)c + 2;
			changed = true;
		}
		if (changed)
			cmark_node_set_literal(texts[i], p);
		free(copy);
	}
}

/* Code blocks docsd writes itself: Mermaid (no renderer: its source,
 * labelled as a diagram) and {% code lineNumbers="true" %} (one span per
 * line, numbered by CSS). false: cmark's own rendering. */
static bool special_code(struct mdh *m, cmark_node *n)
{
	const char *info = cmark_node_get_fence_info(n), *lit = cmark_node_get_literal(n);
	size_t il = info ? strcspn(info, " \t{") : 0;
	bool mermaid = il == 7 && strncmp(info, "mermaid", 7) == 0, numbered = line_numbers(m);

	if (cmark_node_get_type(n) != CMARK_NODE_CODE_BLOCK || (!mermaid && !numbered))
		return false;
	if (!lit)
		lit = "";
	if (mermaid)
		html_raw(m->out, "<figure class=\"diagram\"><figcaption>Diagram (Mermaid)</figcaption>");
	html_raw(m->out, "<pre><code");
	if (il) {
		html_raw(m->out, " class=\"language-");
		html_escn(m->out, info, il);
		html_raw(m->out, "\"");
	}
	html_raw(m->out, ">");
	for (const char *l = lit; *l;) {
		size_t k = strcspn(l, "\n");
		html_raw(m->out, "<span class=\"line\">");
		html_escn(m->out, l, k);
		/* Numbered lines are blocks (CSS): a newline would add an empty one. */
		html_raw(m->out, numbered ? "</span>" : "</span>\n");
		l += k + (l[k] == '\n');
	}
	html_raw(m->out, "</code></pre>");
	html_raw(m->out, mermaid ? "</figure>\n" : "\n");
	return true;
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
	bool math = memmem(md, len, "$$", 2) != NULL;
	if (doc && math)
		inline_math(doc);
	for (n = doc ? cmark_node_first_child(doc) : NULL; n; n = cmark_node_next(n)) {
		if (special_code(m, n) || (math && display_math(m, n, md, len))) {
			m->skip_title = NULL;
			continue;
		}
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
		if (!jw_ok(&seg) || html_allow(&final->b, seg.buf ? seg.buf : "", seg.len, raw_html_url, m))
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
	f->close = "</div>\n";
	return f;
}

static void close_frame(struct mdh *m)
{
	struct mdh_frame *f = &m->stack[--m->depth];

	html_raw(m->out, f->close);
}

/* Whether the innermost {% code %} block asked for line numbers. */
static bool line_numbers(const struct mdh *m)
{
	for (int i = m->depth - 1; i >= 0; i--)
		if (strcmp(m->stack[i].name, "code") == 0)
			return m->stack[i].line_numbers;
	return false;
}

/* The provider GitBook's embed cards name, from a URL's host. */
static const char *embed_provider(struct arena *a, const char *url)
{
	static const struct {
		const char *host, *name;
	} known[] = {
		{ "youtube.com", "YouTube" }, { "youtu.be", "YouTube" },   { "vimeo.com", "Vimeo" },
		{ "loom.com", "Loom" },       { "github.com", "GitHub" },  { "gitlab.com", "GitLab" },
		{ "figma.com", "Figma" },     { "codepen.io", "CodePen" }, { "twitter.com", "X" },
		{ "x.com", "X" },             { "docs.google.com", "Google Docs" },
	};
	const char *h = strstr(url, "://");
	size_t n;
	char *host;

	h = h ? h + 3 : url;
	n = strcspn(h, "/?#:");
	host = arena_strndup(a, h, n);
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		size_t kl = strlen(known[i].host);
		if (n >= kl && strcmp(host + n - kl, known[i].host) == 0 && (n == kl || host[n - kl - 1] == '.'))
			return known[i].name;
	}
	return strncmp(host, "www.", 4) == 0 ? host + 4 : host;
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
		const char *title = gb_tag_arg(m->a, t, "title"), *ov = gb_tag_arg(m->a, t, "overflow");
		const char *ln = gb_tag_arg(m->a, t, "lineNumbers");
		if (!(f = push(m, nm)))
			return;
		f->close = "</figure>\n";
		f->line_numbers = ln && strcmp(ln, "true") == 0;
		html_raw(m->out, "<figure class=\"code-block");
		if (ov && strcmp(ov, "wrap") == 0)
			html_raw(m->out, " wrap");
		if (f->line_numbers)
			html_raw(m->out, " line-numbers");
		html_raw(m->out, "\">");
		if (title && *title) {
			html_raw(m->out, "<figcaption>");
			html_esc(m->out, title);
			html_raw(m->out, "</figcaption>");
		}
		html_raw(m->out, "\n");
	} else if (strcmp(nm, "embed") == 0) {
		const char *url = gb_tag_arg(m->a, t, "url");
		if (url) {
			/* A link card (title and provider): the site's CSP loads no
			 * frames, so videos are links too. */
			html_raw(m->out, "<p class=\"embed\"><a class=\"embed-card\" href=\"");
			html_url(m->out, url);
			html_raw(m->out, "\"><span class=\"embed-provider\">");
			html_esc(m->out, embed_provider(m->a, url));
			html_raw(m->out, "</span><span class=\"embed-url\">");
			html_esc(m->out, url);
			html_raw(m->out, "</span></a></p>\n");
		}
		/* {% embed %} may or may not have an {% endembed %} (its caption
		 * then follows as text): nothing to close. */
	} else if (strcmp(nm, "stepper") == 0) {
		if (!(f = push(m, nm)))
			return;
		f->close = "</ol>\n";
		html_raw(m->out, "<ol class=\"stepper\">\n");
	} else if (strcmp(nm, "step") == 0 && top && strcmp(top->name, "stepper") == 0) {
		if (!(f = push(m, nm)))
			return;
		f->close = "</div></li>\n";
		html_raw(m->out, "<li class=\"step\"><div class=\"step-body\">\n");
	} else if (strcmp(nm, "columns") == 0) {
		if (!push(m, nm))
			return;
		html_raw(m->out, "<div class=\"columns\">\n");
	} else if (strcmp(nm, "column") == 0 && top && strcmp(top->name, "columns") == 0) {
		const char *w = gb_tag_arg(m->a, t, "width");
		if (!push(m, nm))
			return;
		html_raw(m->out, "<div class=\"column\"");
		/* width="40%": a number of percent, nothing else reaches the style. */
		if (w && strlen(w) <= 7 && strspn(w, "0123456789.") == strlen(w) - 1 && w[strlen(w) - 1] == '%' &&
		    strlen(w) > 1) {
			html_raw(m->out, " style=\"flex:0 1 ");
			html_raw(m->out, w);
			html_raw(m->out, "\"");
		}
		html_raw(m->out, ">\n");
	} else if (strcmp(nm, "content-ref") == 0) {
		if (!push(m, nm))
			return;
		html_raw(m->out, "<div class=\"content-ref\">\n");
	} else if (strcmp(nm, "file") == 0) {
		const char *src = gb_tag_arg(m->a, t, "src"), *href = NULL, *base;
		if (!(f = push(m, nm)))
			return;
		f->close = "</div></div>\n";
		if (src && m->link)
			href = m->link(m->link_ctx, src);
		base = src ? strrchr(src, '/') : NULL;
		html_raw(m->out, "<div class=\"file-block\"><a class=\"file-link\" href=\"");
		html_url(m->out, href ? href : src ? src : "#");
		html_raw(m->out, "\">");
		/* A Git-synced path names the file; docsd's /files/<id> does not. */
		html_esc(m->out, !src || !strncmp(src, "/files/", 7) ? "Download the file" : base ? base + 1 : src);
		html_raw(m->out, "</a><div class=\"file-caption\">\n");
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
