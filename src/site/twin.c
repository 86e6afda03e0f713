/*
 * twin.c - a page's markdown twin ({page URL}.md) and its part of
 * llms-full.txt (site.h): what a tool or an agent reads instead of the HTML.
 *
 * The markdown has already been decided for the visitor (model/adaptive.h:
 * what a condition hides is gone). Here GitBook's block tags become their
 * plain-markdown meaning (format/markdown.h md_plain_meaning) and every
 * link and image, in markdown and in raw HTML, becomes an absolute URL: a
 * page's its twin's (.md), a file's the site's ~file URL; other targets
 * (external URLs, anchors) stay as written.
 */
#include "site/site.h"

#include "domain/content.h"
#include "format/markdown.h"

#include <string.h>

struct twin_ctx {
	struct arena *a;
	const struct site_view *v;
	const struct sv_space *sp;
	const struct rev_page *from;
};

static const char *twin_link(void *vctx, const char *target)
{
	struct twin_ctx *c = vctx;
	struct link_target t;
	const char *hash;

	if (!c->sp->rv)
		return NULL;
	link_resolve("", c->sp->rv, c->from, target, &t);
	switch (t.kind) {
	case LINK_PAGE:
		if (!t.page)
			return NULL;
		hash = strchr(target, '#');
		return arena_printf(c->a, "%s%s%s", c->v->base, sv_twin_url(c->a, c->sp, t.page), hash ? hash : "");
	case LINK_FILE:
		if (!t.file)
			return NULL;
		return arena_printf(c->a, "%s%s/~file/%s/%s", c->v->base, c->v->root, c->sp->ss->id, t.file->id);
	default:
		return NULL;
	}
}

int site_render_twin(struct jw *out, struct arena *a, const struct site_view *v, const struct sv_space *sp,
		     const struct rev_page *p, const char *md)
{
	struct twin_ctx c = { a, v, sp, p };
	const char *body;

	jw_put(out, "# ", 2);
	html_raw(out, p->title);
	jw_put(out, "\n\n", 2);
	if (p->description) {
		html_raw(out, p->description);
		jw_put(out, "\n\n", 2);
	}
	if (!(body = md_plain_meaning(a, md, strlen(md))) || !(body = md_rewrite_links(a, body, strlen(body), twin_link, &c)) ||
	    !(body = md_rewrite_html_urls(a, body, strlen(body), twin_link, &c)))
		return -1; /* the error is set */
	html_raw(out, body);
	return 0;
}
