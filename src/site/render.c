/*
 * render.c - a published site's pages, llms.txt, sitemap.xml and robots.txt
 * from a struct site_view (site.h). Pure: no SQL, no HTTP; every string from
 * the site, its customization, its content or the visitor goes through
 * html.c's escaping.
 */
#include "site/site.h"

#include "model/condition.h"
#include "domain/content.h"
#include "util/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAV_MAX_DEPTH 24

/* ---- customization ---- */

/* The string at a dotted path of the customization, or NULL. */
static const char *cz_str(const json_t *c, const char *path)
{
	char key[64];
	const json_t *v = c;

	while (v && *path) {
		size_t n = strcspn(path, ".");
		snprintf(key, sizeof(key), "%.*s", (int)(n < sizeof(key) ? n : sizeof(key) - 1), path);
		v = json_is_object(v) ? json_object_get(v, key) : NULL;
		path += n + (path[n] == '.');
	}
	return json_is_string(v) && *json_string_value(v) ? json_string_value(v) : NULL;
}

static const json_t *cz_get(const json_t *c, const char *path)
{
	char key[64];
	const json_t *v = c;

	while (v && *path) {
		size_t n = strcspn(path, ".");
		snprintf(key, sizeof(key), "%.*s", (int)(n < sizeof(key) ? n : sizeof(key) - 1), path);
		v = json_is_object(v) ? json_object_get(v, key) : NULL;
		path += n + (path[n] == '.');
	}
	return v;
}

/* A ContentRef's URL: kind url only (others lead to the site root). */
static const char *ref_url(const struct site_view *v, const json_t *to)
{
	const char *kind = json_string_value(json_object_get(to, "kind"));
	const char *url = json_string_value(json_object_get(to, "url"));

	if (kind && strcmp(kind, "url") == 0 && url)
		return url;
	return *v->root ? v->root : "/";
}

static const char *site_title(const struct site_view *v)
{
	const char *t = cz_str(v->custom, "title");

	return t ? t : v->site->title;
}

/* ---- URLs ---- */

const struct rev_page *sv_first_page(const struct revision *rv)
{
	int stack[NAV_MAX_DEPTH], sp = 0, i;

	if (!rv)
		return NULL;
	for (i = rv->first_root; i >= 0 || sp > 0;) {
		if (i < 0) {
			i = stack[--sp];
			continue;
		}
		const struct rev_page *p = &rv->pages[i];
		if (sv_page_readable(p))
			return p;
		if (p->type == PAGE_GROUP && p->first_child >= 0 && sp < NAV_MAX_DEPTH) {
			stack[sp++] = p->next_sibling;
			i = p->first_child;
			continue;
		}
		i = p->next_sibling;
	}
	return NULL;
}

static void order_walk(const struct revision *rv, int i, int depth, const struct rev_page **out, int *n)
{
	for (; i >= 0; i = rv->pages[i].next_sibling) {
		const struct rev_page *p = &rv->pages[i];
		if (p->hidden || p->type == PAGE_LINK)
			continue;
		if (sv_page_readable(p))
			out[(*n)++] = p;
		if (p->first_child >= 0 && depth < NAV_MAX_DEPTH)
			order_walk(rv, p->first_child, depth + 1, out, n);
	}
}

int sv_reading_order(struct arena *a, const struct revision *rv, const struct rev_page ***out, int *n)
{
	*n = 0;
	*out = NULL;
	if (!rv || rv->npages == 0)
		return 0;
	*out = arena_alloc(a, sizeof(**out) * (size_t)rv->npages);
	order_walk(rv, rv->first_root, 0, *out, n);
	return 0;
}

const char *sv_page_url(struct arena *a, const struct sv_space *sp, const struct rev_page *p)
{
	struct jw b;

	if (!p || p == sv_first_page(sp->rv))
		return *sp->url ? sp->url : "/";
	jw_init(&b);
	html_raw(&b, sp->url);
	jw_put(&b, "/", 1);
	url_path_enc(&b, p->path);
	return jw_take(&b, a, NULL);
}

const char *sv_twin_url(struct arena *a, const struct sv_space *sp, const struct rev_page *p)
{
	if (!p || p == sv_first_page(sp->rv))
		return arena_printf(a, "%s/index.md", sp->url);
	return arena_printf(a, "%s.md", sv_page_url(a, sp, p));
}

/* Where rest leads: section, space and page path (the rest of it). */
void sv_resolve(const struct site_view *v, const char *rest, int *sec, int *sp, const char **path)
{
	size_t n = strcspn(rest, "/");

	*sec = v->def;
	for (int s = 0; n && s < v->nsections; s++) {
		const struct site_section *x = v->sections[s].sec;
		if (x && !x->is_default && strlen(x->path) == n && strncmp(x->path, rest, n) == 0) {
			*sec = s;
			rest += n + (rest[n] == '/');
			break;
		}
	}
	n = strcspn(rest, "/");
	*sp = v->sections[*sec].def;
	for (int k = 0; n && k < v->sections[*sec].nspaces; k++) {
		const struct site_space *x = v->sections[*sec].spaces[k].ss;
		if (!x->is_default && strlen(x->path) == n && strncmp(x->path, rest, n) == 0) {
			*sp = k;
			rest += n + (rest[n] == '/');
			break;
		}
	}
	*path = rest;
}

/* The document a path shows: a group shows its first document. */
const struct rev_page *sv_page_at(const struct revision *rv, const char *path)
{
	const struct rev_page *p;

	if (!*path)
		return sv_first_page(rv);
	p = revision_page_by_path(rv, path);
	for (int guard = 0; p && p->type == PAGE_GROUP && guard < 32; guard++)
		p = p->first_child >= 0 ? &rv->pages[p->first_child] : NULL;
	return p && sv_page_readable(p) ? p : NULL;
}

/* ---- content links ---- */

struct link_ctx {
	const struct site_view *v;
	const struct sv_space *sp;
	const struct rev_page *from;
	struct arena *a;
};

static const char *content_link(void *ctx, const char *target)
{
	struct link_ctx *l = ctx;
	struct link_target t;
	const char *hash;

	if (!l->sp->rv)
		return NULL;
	link_resolve("", l->sp->rv, l->from, target, &t);
	switch (t.kind) {
	case LINK_PAGE:
		if (!t.page)
			return NULL;
		hash = strchr(target, '#');
		return arena_printf(l->a, "%s%s", sv_page_url(l->a, l->sp, t.page), hash ? hash : "");
	case LINK_FILE:
		if (!t.file)
			return NULL;
		return arena_printf(l->a, "%s/~file/%s/%s", l->v->root, l->sp->ss->id, t.file->id);
	default:
		if (t.kind != LINK_URL && t.page)
			return sv_page_url(l->a, l->sp, t.page);
		return NULL;
	}
}

/* The name a page has in navigation (the sidebar, previous/next): the
 * title SUMMARY.md gave it ([Title](p.md "Nav title")), else its title. */
static const char *nav_name(const struct rev_page *p)
{
	return p->nav_title && *p->nav_title ? p->nav_title : p->title;
}

/* GitBook's page layout options (RevisionPageLayoutOptions, front matter
 * layout:): each shown unless set to false; width "wide". */
struct page_layout {
	bool title, description, outline, pagination, wide, cover;
};

static struct page_layout page_layout(const struct rev_page *p)
{
	struct page_layout l = { true, true, true, true, false, true };
	json_t *j = p && p->layout ? json_loads(p->layout, 0, NULL) : NULL;

	if (json_is_object(j)) {
		l.title = !json_is_false(json_object_get(j, "title"));
		l.description = !json_is_false(json_object_get(j, "description"));
		l.outline = !json_is_false(json_object_get(j, "outline"));
		l.pagination = !json_is_false(json_object_get(j, "pagination"));
		l.cover = !json_is_false(json_object_get(j, "cover"));
		l.wide = json_is_string(json_object_get(j, "width")) &&
			 strcmp(json_string_value(json_object_get(j, "width")), "wide") == 0;
	}
	json_decref(j);
	return l;
}

/* A page's cover (GitBook's RevisionPageDocumentCover: a file of the space
 * or a URL, yPos its vertical offset in pixels) above the title. */
static void page_cover(struct jw *out, struct arena *a, const struct site_view *v, const struct sv_space *sp,
		       const struct rev_page *p)
{
	json_t *c = p->cover ? json_loads(p->cover, 0, NULL) : NULL;
	const json_t *ref = json_object_get(c, "ref");
	const char *kind = json_string_value(json_object_get(ref, "kind")), *url = NULL;
	char y[48];

	if (kind && !strcmp(kind, "file") && json_string_value(json_object_get(ref, "file")) &&
	    revision_file(sp->rv, json_string_value(json_object_get(ref, "file"))))
		url = arena_printf(a, "%s/~file/%s/%s", v->root, sp->ss->id, json_string_value(json_object_get(ref, "file")));
	else if (kind && !strcmp(kind, "url"))
		url = json_string_value(json_object_get(ref, "url"));
	if (url) {
		snprintf(y, sizeof(y), "%.0f", json_number_value(json_object_get(c, "yPos")));
		html_raw(out, "<img class=\"page-cover\" alt=\"\" src=\"");
		html_url(out, url);
		html_raw(out, "\" style=\"object-position:50% calc(50% + ");
		html_raw(out, y);
		html_raw(out, "px)\">\n");
	}
	json_decref(c);
}

/* ---- the layout ---- */

static void head(struct jw *b, struct arena *a, const struct site_view *v, const struct sv_page *pg,
		 const char *title, const char *desc, const char *md_url, bool noindex)
{
	const char *pl = cz_str(v->custom, "styling.primaryColor.light");
	const char *pd = cz_str(v->custom, "styling.primaryColor.dark");
	const char *fav = cz_str(v->custom, "favicon.icon.light");

	html_raw(b, "<!doctype html>\n<html lang=\"");
	html_esc(b, cz_str(v->custom, "internationalization.locale") ? cz_str(v->custom, "internationalization.locale")
								     : "en");
	html_raw(b, "\" data-theme=\"");
	html_raw(b, site_theme_attr(v)); /* the visitor's choice, else the site's */
	html_raw(b, "\">\n<head>\n<meta charset=\"utf-8\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
	if (title) {
		html_esc(b, title);
		html_raw(b, " | ");
	}
	html_esc(b, site_title(v));
	html_raw(b, "</title>\n");
	if (v->noindex || noindex)
		html_raw(b, "<meta name=\"robots\" content=\"noindex, nofollow\">\n");
	if (desc) {
		html_raw(b, "<meta name=\"description\" content=\"");
		html_esc(b, desc);
		html_raw(b, "\">\n");
	}
	html_raw(b, "<link rel=\"stylesheet\" href=\"");
	html_esc(b, v->css_url);
	html_raw(b, "\">\n");
	if (fav) {
		html_raw(b, "<link rel=\"icon\" href=\"");
		html_url(b, fav);
		html_raw(b, "\">\n");
	} else if (cz_str(v->custom, "favicon.emoji")) {
		/* An emoji favicon: an SVG of it (the emoji's characters are escaped). */
		html_raw(b, "<link rel=\"icon\" href=\"data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 "
			    "viewBox=%220 0 100 100%22%3E%3Ctext y=%22.9em%22 font-size=%2290%22%3E");
		html_emoji(b, cz_str(v->custom, "favicon.emoji"));
		html_raw(b, "%3C/text%3E%3C/svg%3E\">\n");
	}
	if (md_url) {
		html_raw(b, "<link rel=\"alternate\" type=\"text/markdown\" href=\"");
		html_esc(b, md_url);
		html_raw(b, "\">\n");
	}
	if (css_color_ok(pl) || css_color_ok(pd)) {
		html_raw(b, "<style>");
		if (css_color_ok(pl)) {
			html_raw(b, ":root{--primary:");
			html_raw(b, pl);
			html_raw(b, "}");
		}
		if (css_color_ok(pd)) {
			html_raw(b, "[data-theme=dark]{--primary:");
			html_raw(b, pd);
			html_raw(b, "}@media (prefers-color-scheme:dark){[data-theme=auto]{--primary:");
			html_raw(b, pd);
			html_raw(b, "}}");
		}
		html_raw(b, "</style>\n");
	}
	site_head_meta(b, a, v, pg, title, desc);
	html_raw(b, v->nsections > 1 || (v->nsections == 1 && v->sections[0].sec) ? "</head>\n<body class=\"has-sections\">\n"
										  : "</head>\n<body>\n");
	html_raw(b, "<a class=\"skip\" href=\"#content\">Skip to content</a>\n");
}

static void link_item(struct jw *b, const struct site_view *v, const json_t *l, const char *cls)
{
	html_raw(b, "<a");
	if (cls) {
		html_raw(b, " class=\"");
		html_raw(b, cls);
		html_raw(b, "\"");
	}
	html_raw(b, " href=\"");
	html_url(b, ref_url(v, json_object_get(l, "to")));
	html_raw(b, "\">");
	html_esc(b, json_string_value(json_object_get(l, "title")));
	html_raw(b, "</a>");
}

static void announcement(struct jw *b, const struct site_view *v)
{
	const json_t *an = cz_get(v->custom, "announcement");
	const char *msg = cz_str(v->custom, "announcement.message");
	const char *style = cz_str(v->custom, "announcement.style");
	const json_t *link = json_object_get(an, "link");

	if (!json_is_true(json_object_get(an, "enabled")) || !msg)
		return;
	if (!style || (strcmp(style, "warning") && strcmp(style, "danger") && strcmp(style, "success")))
		style = "info";
	html_raw(b, "<div class=\"announcement announcement-");
	html_raw(b, style);
	html_raw(b, "\" role=\"status\">");
	html_esc(b, msg);
	if (json_is_object(link)) {
		html_raw(b, " ");
		link_item(b, v, link, NULL);
	}
	html_raw(b, "</div>\n");
}

static void section_tab(struct jw *b, const struct site_view *v, int i, int cur)
{
	html_raw(b, "<a href=\"");
	html_esc(b, *v->sections[i].url ? v->sections[i].url : "/");
	html_raw(b, i == cur ? "\" aria-current=\"page\">" : "\">");
	html_esc(b, v->sections[i].sec->title);
	html_raw(b, "</a>");
}

static void header(struct jw *b, const struct site_view *v, int cur_section, const char *q)
{
	const char *logo = cz_str(v->custom, "header.logo.light");
	const char *logo_dark = cz_str(v->custom, "header.logo.dark");
	const json_t *links = cz_get(v->custom, "header.links");
	size_t i;
	const json_t *l;

	announcement(b, v);
	html_raw(b, "<header class=\"site-header\">\n<div class=\"header-inner\">\n"
		    "<label for=\"nav-toggle\" class=\"nav-button\" aria-label=\"Menu\">&#9776;</label>\n"
		    "<a class=\"site-title\" href=\"");
	html_esc(b, *v->root ? v->root : "/");
	html_raw(b, "\">");
	if (logo) {
		html_raw(b, "<img class=\"logo logo-light\" alt=\"\" src=\"");
		html_url(b, logo);
		html_raw(b, "\">");
		if (logo_dark) {
			html_raw(b, "<img class=\"logo logo-dark\" alt=\"\" src=\"");
			html_url(b, logo_dark);
			html_raw(b, "\">");
		}
	}
	html_raw(b, "<span>");
	html_esc(b, site_title(v));
	html_raw(b, "</span></a>\n<nav class=\"header-links\" aria-label=\"Links\">");
	json_array_foreach(links, i, l) {
		const json_t *sub = json_object_get(l, "links");
		const char *style = json_string_value(json_object_get(l, "style"));
		if (!cond_visible(json_string_value(json_object_get(l, "condition")), v->visitor))
			continue;
		if (json_array_size(sub) > 0) {
			size_t k;
			const json_t *s;
			html_raw(b, "<details class=\"dropdown\"><summary>");
			html_esc(b, json_string_value(json_object_get(l, "title")));
			html_raw(b, "</summary><div class=\"dropdown-menu\">");
			json_array_foreach(sub, k, s) link_item(b, v, s, NULL);
			html_raw(b, "</div></details>");
		} else {
			link_item(b, v, l,
				  style && strcmp(style, "button-primary") == 0     ? "button primary"
				  : style && strcmp(style, "button-secondary") == 0 ? "button"
										    : NULL);
		}
	}
	html_raw(b, "</nav>\n<form class=\"search\" role=\"search\" method=\"get\" action=\"");
	html_esc(b, v->root);
	html_raw(b, "/~search\"><input type=\"search\" name=\"q\" placeholder=\"Search\xe2\x80\xa6\" aria-label=\"Search\"");
	if (q) {
		html_raw(b, " value=\"");
		html_esc(b, q);
		html_raw(b, "\"");
	}
	html_raw(b, "></form>\n");
	site_theme_toggle(b, v);
	html_raw(b, "</div>\n");
	if (v->nsections > 1 || (v->nsections == 1 && v->sections[0].sec)) {
		html_raw(b, "<nav class=\"sections\" aria-label=\"Sections\">");
		for (int s = 0; s < v->nsections; s++) {
			const char *gid = v->sections[s].sec->group_id;
			const struct site_section_group *g = NULL;
			int first = 1;
			for (int k = 0; gid && k < v->ngroups; k++)
				if (strcmp(v->groups[k].id, gid) == 0)
					g = &v->groups[k];
			if (!g) {
				section_tab(b, v, s, cur_section);
				continue;
			}
			/* A group shows where its first visible section is. */
			for (int k = 0; k < s && first; k++)
				if (v->sections[k].sec->group_id && strcmp(v->sections[k].sec->group_id, gid) == 0)
					first = 0;
			if (!first)
				continue;
			html_raw(b, "<details class=\"dropdown\"><summary>");
			html_esc(b, g->title);
			html_raw(b, "</summary><div class=\"dropdown-menu\">");
			for (int k = s; k < v->nsections; k++)
				if (v->sections[k].sec->group_id && strcmp(v->sections[k].sec->group_id, gid) == 0)
					section_tab(b, v, k, cur_section);
			html_raw(b, "</div></details>");
		}
		html_raw(b, "</nav>\n");
	}
	html_raw(b, "</header>\n");
}

struct nav {
	struct jw *b;
	struct arena *a;
	const struct sv_space *sp;
	const struct rev_page *cur;
	const bool *open; /* by page index: the current page and its ancestors */
};

static void nav_list(struct nav *n, int i, int depth)
{
	const struct revision *rv = n->sp->rv;

	html_raw(n->b, "<ul>");
	for (; i >= 0; i = rv->pages[i].next_sibling) {
		const struct rev_page *p = &rv->pages[i];
		bool kids = p->first_child >= 0 && depth < NAV_MAX_DEPTH;
		if (p->hidden)
			continue;
		if (p->type == PAGE_GROUP) {
			html_raw(n->b, "<li class=\"nav-group\"><div class=\"nav-group-title\">");
			html_esc(n->b, p->title);
			html_raw(n->b, "</div>");
			if (kids)
				nav_list(n, p->first_child, depth + 1);
			html_raw(n->b, "</li>");
			continue;
		}
		if (p->type == PAGE_LINK) {
			html_raw(n->b, "<li><a class=\"external\" href=\"");
			html_url(n->b, p->href);
			html_raw(n->b, "\">");
			html_esc(n->b, p->title);
			html_raw(n->b, " <span aria-hidden=\"true\">&#8599;</span></a></li>");
			continue;
		}
		html_raw(n->b, "<li>");
		if (kids)
			html_raw(n->b, n->open[i] ? "<details open><summary>" : "<details><summary>");
		html_raw(n->b, "<a href=\"");
		html_esc(n->b, sv_page_url(n->a, n->sp, p));
		html_raw(n->b, p == n->cur ? "\" aria-current=\"page\">" : "\">");
		if (p->emoji && *p->emoji) {
			html_emoji(n->b, p->emoji);
			html_raw(n->b, " ");
		}
		html_esc(n->b, nav_name(p)); /* SUMMARY.md's nav title, when it gave one */
		html_raw(n->b, "</a>");
		if (kids) {
			html_raw(n->b, "</summary>");
			nav_list(n, p->first_child, depth + 1);
			html_raw(n->b, "</details>");
		}
		html_raw(n->b, "</li>");
	}
	html_raw(n->b, "</ul>");
}

static int sidebar(struct jw *b, struct arena *a, const struct site_view *v, const struct sv_page *pg)
{
	const struct sv_section *sec = &v->sections[pg->section];
	const struct sv_space *sp = &sec->spaces[pg->space];
	struct nav n = { .b = b, .a = a, .sp = sp, .cur = pg->page };
	bool *open;

	html_raw(b, "<input type=\"checkbox\" id=\"nav-toggle\" class=\"nav-toggle\">\n<aside class=\"sidebar\">\n"
		    "<label for=\"nav-toggle\" class=\"nav-close\" aria-label=\"Close the menu\">&times;</label>\n");
	if (sec->nspaces > 1) {
		html_raw(b, "<nav class=\"variants\" aria-label=\"Variants\">");
		for (int i = 0; i < sec->nspaces; i++) {
			html_raw(b, "<a href=\"");
			html_esc(b, *sec->spaces[i].url ? sec->spaces[i].url : "/");
			html_raw(b, i == pg->space ? "\" aria-current=\"true\">" : "\">");
			html_esc(b, sec->spaces[i].title);
			html_raw(b, "</a>");
		}
		html_raw(b, "</nav>\n");
	}
	html_raw(b, "<nav class=\"tree\" aria-label=\"Pages\">");
	if (sp->rv && sp->rv->npages) {
		open = arena_alloc(a, (size_t)sp->rv->npages);
		memset(open, 0, (size_t)sp->rv->npages);
		if (pg->page)
			for (int i = (int)(pg->page - sp->rv->pages); i >= 0; i = sp->rv->pages[i].parent_idx)
				open[i] = true;
		n.open = open;
		nav_list(&n, sp->rv->first_root, 0);
	}
	html_raw(b, "</nav>\n</aside>\n<label for=\"nav-toggle\" class=\"nav-backdrop\" aria-hidden=\"true\"></label>\n");
	return 0;
}

static void footer(struct jw *b, const struct site_view *v)
{
	const json_t *groups = cz_get(v->custom, "footer.groups");
	const char *copy = cz_str(v->custom, "footer.copyright");
	size_t i, k;
	const json_t *g, *l;

	html_raw(b, "<footer class=\"site-footer\"><div class=\"footer-inner\">");
	if (json_array_size(groups)) {
		html_raw(b, "<div class=\"footer-groups\">");
		json_array_foreach(groups, i, g) {
			html_raw(b, "<div class=\"footer-group\"><h2>");
			html_esc(b, json_string_value(json_object_get(g, "title")));
			html_raw(b, "</h2><ul>");
			json_array_foreach(json_object_get(g, "links"), k, l) {
				html_raw(b, "<li>");
				link_item(b, v, l, NULL);
				html_raw(b, "</li>");
			}
			html_raw(b, "</ul></div>");
		}
		html_raw(b, "</div>");
	}
	html_raw(b, "<p class=\"copyright\">");
	if (copy) {
		html_esc(b, copy);
		html_raw(b, " &middot; ");
	}
	html_raw(b, "Published with docsd</p></div></footer>\n");
}

static void pager(struct jw *b, struct arena *a, const struct sv_space *sp, const struct rev_page *cur)
{
	const struct rev_page **order;
	int n, at = -1;

	if (sv_reading_order(a, sp->rv, &order, &n))
		return;
	for (int i = 0; i < n; i++)
		if (order[i] == cur)
			at = i;
	if (at < 0)
		return;
	html_raw(b, "<nav class=\"pager\" aria-label=\"Previous and next\">");
	if (at > 0) {
		html_raw(b, "<a class=\"prev\" rel=\"prev\" href=\"");
		html_esc(b, sv_page_url(a, sp, order[at - 1]));
		html_raw(b, "\"><small>Previous</small><span>");
		html_esc(b, nav_name(order[at - 1]));
		html_raw(b, "</span></a>");
	}
	if (at + 1 < n) {
		html_raw(b, "<a class=\"next\" rel=\"next\" href=\"");
		html_esc(b, sv_page_url(a, sp, order[at + 1]));
		html_raw(b, "\"><small>Next</small><span>");
		html_esc(b, nav_name(order[at + 1]));
		html_raw(b, "</span></a>");
	}
	html_raw(b, "</nav>\n");
}

static void search_results(struct jw *b, const struct sv_page *pg)
{
	html_raw(b, "<h1>Search</h1>\n");
	if (!pg->search_q || !*pg->search_q) {
		html_raw(b, "<p>Type words to find in the search box above.</p>\n");
		return;
	}
	html_raw(b, "<p class=\"lead\">");
	if (pg->nhits == 0) {
		html_raw(b, "No results for \xe2\x80\x9c");
	} else {
		char n[32];
		snprintf(n, sizeof(n), "%d result%s for \xe2\x80\x9c", pg->nhits, pg->nhits == 1 ? "" : "s");
		html_raw(b, n);
	}
	html_esc(b, pg->search_q);
	html_raw(b, "\xe2\x80\x9d</p>\n<ol class=\"results\">");
	for (int i = 0; i < pg->nhits; i++) {
		const struct sv_hit *h = &pg->hits[i];
		html_raw(b, "<li><a href=\"");
		html_esc(b, h->url);
		html_raw(b, "\">");
		html_esc(b, h->title);
		if (h->section && *h->section) {
			html_raw(b, " &rsaquo; ");
			html_esc(b, h->section);
		}
		html_raw(b, "</a>");
		if (h->space) {
			html_raw(b, "<span class=\"result-space\">");
			html_esc(b, h->space);
			html_raw(b, "</span>");
		}
		if (h->excerpt) {
			html_raw(b, "<p>");
			html_esc(b, h->excerpt);
			html_raw(b, "</p>");
		}
		html_raw(b, "</li>");
	}
	html_raw(b, "</ol>\n");
}

int site_render_page(struct jw *out, struct arena *a, const struct site_view *v, const struct sv_page *pg)
{
	const struct sv_section *sec = v->nsections ? &v->sections[pg->section] : NULL;
	const struct sv_space *sp = sec && sec->nspaces ? &sec->spaces[pg->space] : NULL;
	const struct rev_page *p = pg->page;
	const char *md_url = NULL;
	struct md_headings *toc = arena_alloc(a, sizeof(*toc));
	struct page_layout lay = page_layout(p);
	int rc = 0;

	toc->n = 0;
	toc->skip_title = NULL;

	if (p && sp)
		md_url = sv_twin_url(a, sp, p);
	head(out, a, v, pg, p ? p->title : pg->search_q ? "Search" : "Page not found", p ? p->description : NULL, md_url,
	     p && (p->no_index || p->no_robots_index));
	header(out, v, pg->section, pg->search_q);
	html_raw(out, "<div class=\"layout\">\n");
	if (sp && (rc = sidebar(out, a, v, pg)))
		return rc;
	html_raw(out, lay.wide ? "<main class=\"content wide\" id=\"content\">\n<article>\n"
			       : "<main class=\"content\" id=\"content\">\n<article>\n");
	if (pg->search_q) {
		search_results(out, pg);
	} else if (p && sp) {
		struct link_ctx lc = { v, sp, p, a };
		if (p->cover && lay.cover)
			page_cover(out, a, v, sp, p);
		/* A plain link into the web interface, which checks the
		 * visitor's session there (app/edit_link.c); nofollow. */
		if (v->edit_url) {
			html_raw(out, "<a class=\"edit-link\" rel=\"nofollow\" aria-label=\"Edit this page in docsd\" href=\"");
			html_url(out, arena_printf(a, "%s?space=%s&page=%s", v->edit_url, sp->ss->space_id, p->id));
			html_raw(out, "\">Edit</a>\n");
		}
		site_breadcrumbs(out, a, v, pg);
		/* Layout options hide the title, description, outline or
		 * pagination of this page (GitBook's toggles). */
		html_raw(out, lay.title ? "<h1>" : "<h1 class=\"visually-hidden\">");
		if (p->emoji && *p->emoji) {
			html_emoji(out, p->emoji);
			html_raw(out, " ");
		}
		html_esc(out, p->title);
		html_raw(out, "</h1>\n");
		if (p->description && lay.description) {
			html_raw(out, "<p class=\"lead\">");
			html_esc(out, p->description);
			html_raw(out, "</p>\n");
		}
		size_t body_at = out->len;
		toc->skip_title = p->title;
		if (pg->body_md && (rc = md_to_html_toc(out, a, pg->body_md, strlen(pg->body_md), content_link, &lc, toc)))
			return rc;
		/* Math and code get KaTeX and highlight.js when the server has them. */
		if (jw_ok(out))
			site_vendor_tags(out, v, memmem(out->buf + body_at, out->len - body_at, "class=\"math", 11) != NULL,
					 memmem(out->buf + body_at, out->len - body_at, "<code class=\"language-", 22) != NULL);
		site_last_updated(out, sp, p);
	} else if (sp && !sv_first_page(sp->rv)) {
		html_raw(out, "<h1>");
		html_esc(out, sp->title);
		html_raw(out, "</h1>\n<p class=\"lead\">This space has no pages yet.</p>\n");
	} else {
		html_raw(out, "<h1>Page not found</h1>\n<p class=\"lead\">The page you are looking for does not exist "
			      "or has moved.</p>\n<p><a class=\"button primary\" href=\"");
		html_esc(out, *v->root ? v->root : "/");
		html_raw(out, "\">Go to the home page</a></p>\n");
	}
	html_raw(out, "</article>\n");
	if (p && sp && lay.pagination)
		pager(out, a, sp, p);
	html_raw(out, "</main>\n");
	if (toc->n > 1 && lay.outline) {
		html_raw(out, "<aside class=\"toc\" aria-label=\"On this page\"><p class=\"toc-title\">On this page</p><ul>");
		for (int i = 0; i < toc->n; i++) {
			html_raw(out, toc->items[i].level == 3 ? "<li class=\"toc-sub\"><a href=\"#" : "<li><a href=\"#");
			html_esc(out, toc->items[i].id);
			html_raw(out, "\">");
			html_esc(out, toc->items[i].text);
			html_raw(out, "</a></li>");
		}
		html_raw(out, "</ul></aside>\n");
	}
	html_raw(out, "</div>\n");
	footer(out, v);
	html_raw(out, "</body>\n</html>\n");
	return jw_ok(out) ? 0 : err_set(ERR_INTERNAL, "rendered page too large");
}

/* ---- text renditions ---- */

static void llms_pages(struct jw *b, struct arena *a, const struct site_view *v, const struct sv_space *sp)
{
	const struct rev_page **order;
	int n;

	if (sv_reading_order(a, sp->rv, &order, &n))
		return;
	for (int i = 0; i < n; i++) {
		jw_put(b, "- [", 3);
		html_raw(b, order[i]->title);
		jw_put(b, "](", 2);
		html_raw(b, v->base);
		html_raw(b, sv_twin_url(a, sp, order[i]));
		jw_put(b, ")", 1);
		if (order[i]->description) {
			jw_put(b, ": ", 2);
			html_raw(b, order[i]->description);
		}
		jw_put(b, "\n", 1);
	}
}

int site_render_llms(struct jw *out, struct arena *a, const struct site_view *v)
{
	jw_put(out, "# ", 2);
	html_raw(out, site_title(v));
	jw_put(out, "\n", 1);
	for (int s = 0; s < v->nsections; s++) {
		const struct sv_section *sec = &v->sections[s];
		for (int k = 0; k < sec->nspaces; k++) {
			jw_put(out, "\n## ", 4);
			if (sec->sec) {
				html_raw(out, sec->sec->title);
				if (sec->nspaces > 1)
					jw_put(out, " / ", 3);
			}
			if (!sec->sec || sec->nspaces > 1)
				html_raw(out, sec->spaces[k].title);
			jw_put(out, "\n\n", 2);
			llms_pages(out, a, v, &sec->spaces[k]);
		}
	}
	return jw_ok(out) ? 0 : err_set(ERR_INTERNAL, "rendered page too large");
}

int site_render_sitemap(struct jw *out, struct arena *a, const struct site_view *v)
{
	html_raw(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
	for (int s = 0; s < v->nsections; s++) {
		for (int k = 0; k < v->sections[s].nspaces; k++) {
			const struct sv_space *sp = &v->sections[s].spaces[k];
			const struct rev_page **order;
			int n;
			if (sv_reading_order(a, sp->rv, &order, &n))
				return -1;
			for (int i = 0; i < n; i++) {
				if (order[i]->no_index || order[i]->no_robots_index)
					continue;
				html_raw(out, "<url><loc>");
				html_esc(out, v->base);
				html_esc(out, sv_page_url(a, sp, order[i]));
				html_raw(out, "</loc></url>\n");
			}
		}
	}
	html_raw(out, "</urlset>\n");
	return jw_ok(out) ? 0 : err_set(ERR_INTERNAL, "rendered page too large");
}

void site_render_robots(struct jw *out, const struct site_view *v)
{
	if (v->noindex) {
		html_raw(out, "User-agent: *\nDisallow: /\n");
		return;
	}
	html_raw(out, "User-agent: *\nAllow: /\n\nSitemap: ");
	html_raw(out, v->base);
	html_raw(out, *v->root ? v->root : "");
	html_raw(out, "/sitemap.xml\n");
}
