/*
 * pages_space.c - a space (/s/{spaceId}) and its pages
 * (/s/{spaceId}/{page path}: a page's `urls.app`, serialize_content.c):
 * the page tree in a sidebar and the page rendered by the published site's
 * markdown renderer (site/md_html.c).
 *
 * The content is read through getPageByPath's domain function
 * (dom_page_get), so the access check, the computed pages' markdown and
 * the revision cache are the API's. The space's root shows its first page,
 * as the published site does.
 *
 * A change request's head is read the same way under its own URL,
 * /s/{spaceId}/~/changes/{number}/{page path} (dom_page_get with the change
 * request: its access rules are the API's too).
 *
 * The space's own screens sit under "~/" (GitBook's reserved prefix, which
 * no page path takes): ~/changes (change requests, pages_cr.c) and
 * ~/history. /s/{id}/change-requests[/...] and /s/{id}/history, when no
 * page has that path, redirect there.
 */
#include "app/pages.h"
#include "app/pages_write.h"
#include "domain/content.h"
#include "domain/orgs.h"
#include "domain/spaces.h"
#include "http/services.h"
#include "json/serialize_cr.h"
#include "site/site.h"
#include "util/err.h"

#include <stdio.h>
#include <string.h>

/* Sidebar nesting shown (deeper pages are reached from their parent). */
#define SIDEBAR_MAX_DEPTH 12

static const char *space_href(struct app_page *p, const char *space_id, const char *tail)
{
	struct jw h;
	const char *out;

	jw_init(&h);
	app_href(&h, "/s/", space_id);
	html_raw(&h, tail);
	out = jw_take(&h, &p->r->arena, NULL);
	return out;
}

/* Where the pages of the content shown live: "/s/{id}" for the space,
 * "/s/{id}/~/changes/{number}" for a change request's head (GitBook's
 * form), percent-encoded. */
static const char *content_base(struct app_page *p, const char *space_id, const char *cr)
{
	struct jw h;
	const char *out;

	jw_init(&h);
	html_raw(&h, "/s/");
	url_path_enc(&h, space_id);
	if (cr) {
		html_raw(&h, "/~/changes/");
		url_path_enc(&h, cr);
	}
	out = jw_take(&h, &p->r->arena, NULL);
	return out;
}

/* The URL path of a page under base (content_base). */
static void page_url(struct jw *b, const char *base, const struct rev_page *pg)
{
	html_raw(b, base);
	html_raw(b, "/");
	url_path_enc(b, pg->path ? pg->path : pg->slug);
}

/* The same, escaped for an attribute. */
static void page_href(struct jw *b, const char *base, const struct rev_page *pg)
{
	struct jw t;

	jw_init(&t);
	page_url(&t, base, pg);
	if (t.len)
		html_escn(b, t.buf, t.len);
	if (!jw_ok(&t))
		b->oom = true;
	jw_free(&t);
}

static void sidebar_level(struct jw *b, const char *base, const struct revision *rv, int first, int depth)
{
	if (first < 0)
		return;
	html_raw(b, "<ul>");
	for (int i = first; i >= 0; i = rv->pages[i].next_sibling) {
		const struct rev_page *pg = &rv->pages[i];
		if (pg->hidden)
			continue;
		html_raw(b, "<li>");
		if (pg->type == PAGE_GROUP) {
			html_raw(b, "<div class=\"group\">");
			app_text(b, pg->title);
			html_raw(b, "</div>");
		} else if (pg->type == PAGE_LINK) {
			html_raw(b, "<a href=\"");
			html_url(b, pg->href);
			html_raw(b, "\" rel=\"noopener\">");
			app_emoji(b, pg->emoji);
			app_text(b, pg->title);
			html_raw(b, " ↗</a>");
		} else {
			html_raw(b, "<a href=\"");
			page_href(b, base, pg);
			html_raw(b, "\">");
			app_emoji(b, pg->emoji);
			app_text(b, pg->title && *pg->title ? pg->title : "Untitled");
			html_raw(b, "</a>");
		}
		if (depth < SIDEBAR_MAX_DEPTH)
			sidebar_level(b, base, rv, pg->first_child, depth + 1);
		html_raw(b, "</li>");
	}
	html_raw(b, "</ul>");
}

/* The page tree of rv under base, the current page marked. The tree of a
 * revision is the same for every reader of the space (revisions are
 * immutable; hidden pages are left out for everyone; no per-visitor
 * condition applies in the interface), and a 1,000-page tree is most of a
 * page's cost: it is rendered once per (revision, base) without a mark,
 * kept in the server's bounded render cache (site/cache.c) under a key no
 * published page uses, and the mark is spliced in after the current page's
 * unique href. */
static void sidebar(struct app_page *p, const char *base, const struct revision *rv, const struct rev_page *current)
{
	struct jw *b = p->out, t, h;
	const char *tree = NULL, *ctype, *at = NULL;
	char *key;
	size_t len = 0;
	int status;

	key = rv->id ? arena_printf(&p->r->arena, "app-tree\x1f%s\x1f%s", rv->id, base) : NULL;
	if (!key || !sitecache_get(p->r->srv->sites, key, &p->r->arena, &tree, &len, &status, &ctype)) {
		jw_init(&t);
		sidebar_level(&t, base, rv, rv->first_root, 0);
		if (!jw_ok(&t)) {
			b->oom = true;
			jw_free(&t);
			return;
		}
		if (key)
			sitecache_put(p->r->srv->sites, key, t.buf, t.len, 200, "text/html");
		tree = arena_strndup(&p->r->arena, t.buf, t.len);
		len = t.len;
		jw_free(&t);
		if (!tree) {
			b->oom = true;
			return;
		}
	}
	/* The current page's link: <a href="URL"> appears once (paths are
	 * unique within a revision). */
	if (current) {
		jw_init(&h);
		html_raw(&h, "<a href=\"");
		page_href(&h, base, current);
		html_raw(&h, "\">");
		if (jw_ok(&h) && h.len < len) {
			char *needle = arena_strndup(&p->r->arena, h.buf, h.len);
			at = needle ? strstr(tree, needle) : NULL;
			if (at)
				at += h.len - 1; /* before the '>' */
		}
		jw_free(&h);
	}
	if (!at) {
		jw_put(b, tree, len);
		return;
	}
	jw_put(b, tree, (size_t)(at - tree));
	html_raw(b, " aria-current=\"page\"");
	jw_put(b, at, len - (size_t)(at - tree));
}

/* The frame, the breadcrumbs (organization, space) and the space's
 * actions. */
static int space_head(struct app_page *p, const struct space *s, const char *title)
{
	struct jw h;
	const char *org_href;
	struct dom_org o;
	int rc;

	/* The organization's title for the trail (the actor reads the space,
	 * so it is a member or a guest there). */
	if ((rc = dom_org_get(p->d, s->org_id, &o)))
		return rc;
	jw_init(&h);
	app_href(&h, "/o/", s->org_id);
	org_href = jw_take(&h, &p->r->arena, "/");
	struct app_crumb crumbs[] = {
		{ "Home", "/" },
		{ o.org.title && *o.org.title ? o.org.title : "Organization", org_href },
		{ s->title && *s->title ? s->title : "Untitled space", title ? space_href(p, s->id, "") : NULL },
	};
	app_frame_begin(p, title ? title : crumbs[2].label, crumbs, 3);
	return 0;
}

static void space_actions(struct app_page *p, const struct space *s)
{
	struct jw *b = p->out;
	char num[32];

	html_raw(b, "<nav class=\"actions\" aria-label=\"Space\"><a href=\"");
	app_href(b, "/s/", s->id);
	html_raw(b, "/~/changes\">Change requests");
	if (s->change_requests_open > 0) {
		snprintf(num, sizeof(num), " (%lld open)", (long long)s->change_requests_open);
		html_raw(b, num);
	}
	html_raw(b, "</a><a href=\"");
	app_href(b, "/s/", s->id);
	html_raw(b, "/~/history\">History</a><a href=\"");
	app_href(b, "/s/", s->id);
	html_raw(b, "/~/settings\">Settings</a></nav>"); /* pages_admin_space.c */
}

/* Links of a page, as the published site rewrites them (site/render.c's
 * content_link): a link to another page of the revision goes to that
 * page's app URL, a file to its signed download URL (dom_file_url, the
 * API's downloadURL); anything else is left as written. */
struct app_link {
	struct app_page *p;
	const struct revision *rv;
	const struct rev_page *from;
	const char *base; /* content_base */
};

static const char *app_content_link(void *ctx, const char *target)
{
	struct app_link *l = ctx;
	struct arena *a = &l->p->r->arena;
	struct link_target t;
	const char *hash, *url = NULL;
	struct jw h;

	link_resolve("", l->rv, l->from, target, &t);
	if (t.kind == LINK_FILE) {
		if (!t.file || dom_file_url(l->p->d, l->rv->space_id, l->rv->id, t.file->id, &url))
			return NULL;
		return url;
	}
	if (!t.page || t.kind == LINK_URL)
		return NULL;
	hash = t.kind == LINK_PAGE ? strchr(target, '#') : NULL;
	jw_init(&h);
	page_url(&h, l->base, t.page);
	if (hash)
		html_raw(&h, hash);
	url = jw_take(&h, a, NULL);
	return url;
}

/* The page, or for a group the list of its pages. */
static int page_body(struct app_page *p, const struct dom_page *dp, const char *base)
{
	struct jw *b = p->out;
	const struct rev_page *pg = dp->page;
	const struct revision *rv = dp->src.rv;
	struct md_headings h = { .skip_title = pg->title };
	struct app_link lc = { p, rv, pg, base };

	html_raw(b, "<h1>");
	app_emoji(b, pg->emoji);
	app_text(b, pg->title && *pg->title ? pg->title : "Untitled");
	html_raw(b, "</h1>");
	if (pg->description && *pg->description) {
		html_raw(b, "<p class=\"mute\">");
		app_text(b, pg->description);
		html_raw(b, "</p>");
	}
	if (pg->type == PAGE_GROUP || !dp->markdown) {
		int shown = 0;
		for (int i = pg->first_child; i >= 0; i = rv->pages[i].next_sibling) {
			if (rv->pages[i].type == PAGE_LINK)
				continue;
			if (!shown++)
				html_raw(b, "<ul class=\"list\">");
			html_raw(b, "<li><a href=\"");
			page_href(b, base, &rv->pages[i]);
			html_raw(b, "\">");
			app_text(b, rv->pages[i].title);
			html_raw(b, "</a></li>");
		}
		html_raw(b, shown ? "</ul>" : "<p class=\"empty\">This page is empty.</p>");
		return 0;
	}
	if (!*dp->markdown) {
		html_raw(b, "<p class=\"empty\">This page is empty.</p>");
		return 0;
	}
	/* The published site's renderer: the same HTML (and the same
	 * allowlist for raw HTML) as the reader sees once published. */
	if (md_to_html_toc(b, &p->r->arena, dp->markdown, strlen(dp->markdown), app_content_link, &lc, &h) < 0)
		return err_set(ERR_INTERNAL, "markdown rendering failed");
	return 0;
}

static bool reserved(const char *path, const char *name)
{
	size_t n = strlen(name);

	return strncmp(path, name, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* /s/{id}/change-requests[/x] and /s/{id}/history: the ~/ screens. */
static const char *alias(struct app_page *p, const char *space_id, const char *path)
{
	struct jw h;
	const char *out = NULL;

	jw_init(&h);
	if (reserved(path, "change-requests")) {
		html_raw(&h, "/s/");
		url_path_enc(&h, space_id);
		html_raw(&h, "/~/changes");
		url_path_enc(&h, path + strlen("change-requests"));
	} else if (strcmp(path, "history") == 0) {
		html_raw(&h, "/s/");
		url_path_enc(&h, space_id);
		html_raw(&h, "/~/history");
	}
	if (h.len && jw_ok(&h))
		out = arena_strndup(&p->r->arena, h.buf, h.len);
	jw_free(&h);
	return out;
}

/* A change request's head is shown under a banner naming it, with a link
 * back to the change request. */
static void cr_banner(struct app_page *p, const struct content_src *src)
{
	struct jw *b = p->out;
	char num[32];

	snprintf(num, sizeof(num), "%lld", (long long)src->cr.number);
	html_raw(b, "<p class=\"banner\" role=\"note\">You are reading change request <a href=\"");
	app_href(b, "/s/", src->space.id);
	html_raw(b, "/~/changes/");
	html_raw(b, num);
	html_raw(b, "\">#");
	html_raw(b, num);
	html_raw(b, " ");
	app_text(b, src->cr.subject && *src->cr.subject ? src->cr.subject : "Untitled change request");
	html_raw(b, "</a> <span class=\"badge st-");
	app_text(b, src->cr.status);
	html_raw(b, "\">");
	app_text(b, src->cr.status);
	html_raw(b, "</span>, not the space as it is.</p>");
}

/* The space's content (cr NULL) or a change request's head (cr: its
 * number), at path (NULL: the first page). */
static int show(struct app_page *p, const char *path, const char *cr)
{
	const char *id = req_param(p->r, "spaceId"), *base = content_base(p, id, cr);
	struct content_src src;
	struct dom_page dp;
	const struct rev_page *first;
	struct jw *b = p->out;
	int rc;

	if (!base)
		return err_set(ERR_INTERNAL, "out of memory");
	/* Only a number names a change request in these URLs (its urls.app). */
	for (const char *c = cr; c && *c; c++)
		if (*c < '0' || *c > '9')
			return err_set(ERR_NOT_FOUND, "not found");
	if (path) {
		rc = dom_page_get(p->d, id, cr, NULL, NULL, path, true, true, &dp);
		if (rc == ERR_NOT_FOUND && !cr && (p->location = alias(p, id, path)))
			return 0;
		if (rc)
			return rc;
	} else {
		/* The root: the first page, as the published site shows it. */
		if ((rc = dom_content_source(p->d, id, cr, NULL, ROLE_READ, &src)))
			return rc;
		first = src.rv ? sv_first_page(src.rv) : NULL;
		if (!first) {
			if ((rc = space_head(p, &src.space, NULL)))
				return rc;
			html_raw(b, "<h1>");
			app_emoji(b, src.space.emoji);
			app_text(b, src.space.title && *src.space.title ? src.space.title : "Untitled space");
			html_raw(b, "</h1>");
			if (cr)
				cr_banner(p, &src);
			space_actions(p, &src.space);
			if (!cr)
				app_write_space_form(p, &src.space); /* editors only (pages_write.c) */
			html_raw(b, "<p class=\"empty\">This space has no pages yet.</p>");
			app_frame_end(p);
			return 0;
		}
		if ((rc = dom_page_get(p->d, id, cr, NULL, first->id, NULL, true, true, &dp)))
			return rc;
	}
	if ((rc = space_head(p, &dp.src.space, dp.page->title)))
		return rc;
	html_raw(b, "<div class=\"cols\"><aside class=\"tree\" aria-label=\"Pages\"><p><strong>");
	app_emoji(b, dp.src.space.emoji);
	app_text(b, dp.src.space.title && *dp.src.space.title ? dp.src.space.title : "Untitled space");
	html_raw(b, "</strong></p>");
	sidebar(p, base, dp.src.rv, dp.page);
	html_raw(b, "</aside><article class=\"page\">");
	if (cr)
		cr_banner(p, &dp.src);
	space_actions(p, &dp.src.space);
	if (cr)
		app_write_page_link(p, &dp.src, dp.page); /* editors only (pages_write.c) */
	if (!cr)
		app_write_space_form(p, &dp.src.space); /* editors only (pages_write.c) */
	if ((rc = page_body(p, &dp, base)))
		return rc;
	html_raw(b, "</article></div>");
	app_frame_end(p);
	return 0;
}

int page_space(struct app_page *p)
{
	return show(p, NULL, NULL);
}

int page_space_path(struct app_page *p)
{
	return show(p, req_param(p->r, "path"), NULL);
}

int page_cr_page(struct app_page *p)
{
	return show(p, req_param(p->r, "path"), req_param(p->r, "number"));
}
