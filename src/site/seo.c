/*
 * seo.c - what readers and search engines expect of a docs site (issue 24,
 * section 4), as pure functions of a struct site_view (site.h): the head's
 * canonical link, Open Graph and Twitter tags and hreflang alternates;
 * breadcrumbs; "last updated"; the theme toggle (links, no script); the
 * sitemap index and each site space's sitemap; the search endpoint's JSON.
 * Every string from the site, its content or the visitor goes through
 * html.c's escaping (or the JSON writer).
 */
#include "site/site.h"

#include "util/text.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

/* The string at a dotted path of the customization, or NULL. */
static const char *cz(const json_t *c, const char *a, const char *b)
{
	const json_t *v = json_object_get(json_object_get(c, a), b);

	return json_is_string(v) && *json_string_value(v) ? json_string_value(v) : NULL;
}

const char *site_theme_attr(const struct site_view *v)
{
	const char *def = cz(v->custom, "themes", "default");
	bool toggeable = json_is_true(json_object_get(json_object_get(v->custom, "themes"), "toggeable"));

	/* The visitor's choice counts only where the site offers one. */
	if (!toggeable)
		return def && strcmp(def, "dark") == 0 ? "dark" : "light";
	if (v->theme && strcmp(v->theme, "light") == 0)
		return "light";
	if (v->theme && strcmp(v->theme, "dark") == 0)
		return "dark";
	return "auto"; /* system, or no choice: the device's */
}

static void meta(struct jw *b, const char *attr, const char *name, const char *content)
{
	if (!content || !*content)
		return;
	html_raw(b, "<meta ");
	html_raw(b, attr);
	html_raw(b, "=\"");
	html_raw(b, name);
	html_raw(b, "\" content=\"");
	html_esc(b, content);
	html_raw(b, "\">\n");
}

void site_head_meta(struct jw *b, struct arena *a, const struct site_view *v, const struct sv_page *pg,
		    const char *title, const char *desc)
{
	const struct sv_space *sp = v->nsections && v->sections[pg->section].nspaces
					    ? &v->sections[pg->section].spaces[pg->space]
					    : NULL;
	const char *canonical = NULL;
	const char *image = cz(v->custom, "socialPreview", "url");

	if (pg->page && sp)
		canonical = arena_printf(a, "%s%s", v->base, sv_page_url(a, sp, pg->page));
	/* A canonical URL only where search engines are welcome: an unlisted
	 * or share-link page must not name itself to them. */
	if (canonical && !v->noindex) {
		html_raw(b, "<link rel=\"canonical\" href=\"");
		html_esc(b, canonical);
		html_raw(b, "\">\n");
		/* The same page in the other languages of its space (translations
		 * shown by the site), and itself. */
		for (int i = 0; i < pg->nalts; i++) {
			html_raw(b, "<link rel=\"alternate\" hreflang=\"");
			html_esc(b, pg->alts[i].lang);
			html_raw(b, "\" href=\"");
			html_esc(b, v->base);
			html_esc(b, pg->alts[i].url);
			html_raw(b, "\">\n");
		}
	}
	meta(b, "property", "og:type", "website");
	{
		const json_t *t = json_object_get(v->custom, "title");
		meta(b, "property", "og:site_name",
		     json_is_string(t) && *json_string_value(t) ? json_string_value(t) : v->site->title);
	}
	meta(b, "property", "og:title", title);
	meta(b, "property", "og:description", desc);
	if (canonical && !v->noindex)
		meta(b, "property", "og:url", canonical);
	meta(b, "property", "og:image", image);
	meta(b, "name", "twitter:card", image ? "summary_large_image" : "summary");
	meta(b, "name", "twitter:title", title);
	meta(b, "name", "twitter:description", desc);
	meta(b, "name", "twitter:image", image);
	/* docsd's own script (search as you type, Ctrl/Cmd+K, the outline):
	 * the page works without it. */
	if (v->js_url) {
		html_raw(b, "<script defer src=\"");
		html_esc(b, v->js_url);
		html_raw(b, "\"></script>\n");
	}
	/* Then the site's integration scripts (site:script:inject), by URL,
	 * never inline and never from content. */
	for (int i = 0; i < v->nscripts; i++) {
		html_raw(b, "<script defer src=\"");
		html_url(b, v->scripts[i]);
		html_raw(b, "\"></script>\n");
	}
}

void site_theme_toggle(struct jw *b, const struct site_view *v)
{
	static const char *const modes[][3] = { { "light", "Light", "\xe2\x98\x80" },
						{ "dark", "Dark", "\xe2\x98\xbe" },
						{ "system", "System", "\xe2\x97\x90" } };
	/* Without a choice, the site's default: the system's when toggeable. */
	const char *cur = v->theme ? v->theme : "system";

	if (!json_is_true(json_object_get(json_object_get(v->custom, "themes"), "toggeable")))
		return;
	html_raw(b, "<nav class=\"theme-toggle\" aria-label=\"Theme\">");
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		html_raw(b, "<a rel=\"nofollow\" href=\"");
		html_esc(b, v->root);
		html_raw(b, "/~theme/");
		html_raw(b, modes[i][0]);
		html_raw(b, "?to=");
		/* the page to come back to, under the root */
		for (const char *c = v->here ? v->here : ""; *c; c++) {
			unsigned char ch = (unsigned char)*c;
			if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
			    strchr("-._~/", ch)) {
				jw_put(b, c, 1);
			} else {
				char e[3];
				pct_encode_byte(e, ch);
				jw_put(b, e, 3);
			}
		}
		html_raw(b, "\" class=\"theme-");
		html_raw(b, modes[i][0]);
		html_raw(b, strcmp(cur, modes[i][0]) == 0 ? "\" aria-current=\"true\" title=\"" : "\" title=\"");
		html_raw(b, modes[i][1]);
		html_raw(b, " theme\"><span class=\"ti\" aria-hidden=\"true\">");
		html_raw(b, modes[i][2]);
		html_raw(b, "</span><span class=\"tl\">");
		html_raw(b, modes[i][1]);
		html_raw(b, "</span></a>");
	}
	html_raw(b, "</nav>\n");
}

void site_breadcrumbs(struct jw *b, struct arena *a, const struct site_view *v, const struct sv_page *pg)
{
	const struct sv_section *sec = &v->sections[pg->section];
	const struct sv_space *sp = &sec->spaces[pg->space];
	const struct rev_page *chain[32];
	int n = 0;

	for (int i = pg->page->parent_idx; i >= 0 && n < 32; i = sp->rv->pages[i].parent_idx)
		chain[n++] = &sp->rv->pages[i];
	if (!n && !sec->sec && sec->nspaces < 2)
		return;
	html_raw(b, "<nav class=\"breadcrumbs\" aria-label=\"Breadcrumbs\"><ol>");
	if (sec->sec) {
		html_raw(b, "<li><a href=\"");
		html_esc(b, *sec->url ? sec->url : "/");
		html_raw(b, "\">");
		html_esc(b, sec->sec->title);
		html_raw(b, "</a></li>");
	}
	if (sec->nspaces > 1) {
		html_raw(b, "<li><a href=\"");
		html_esc(b, *sp->url ? sp->url : "/");
		html_raw(b, "\">");
		html_esc(b, sp->title);
		html_raw(b, "</a></li>");
	}
	while (n-- > 0) {
		const struct rev_page *p = chain[n];
		html_raw(b, "<li>");
		if (sv_page_readable(p)) {
			html_raw(b, "<a href=\"");
			html_esc(b, sv_page_url(a, sp, p));
			html_raw(b, "\">");
			html_esc(b, p->title);
			html_raw(b, "</a>");
		} else {
			html_esc(b, p->title);
		}
		html_raw(b, "</li>");
	}
	html_raw(b, "</ol></nav>\n");
}

/* ms since the epoch as "2026-11-26T11:38:19Z" and "November 26, 2026";
 * false for a time outside what gmtime can say (then nothing is shown). */
static bool dates(int64_t ms, char *iso, size_t ni, char *human, size_t nh)
{
	static const char *const months[] = { "January", "February", "March",	  "April",   "May",	 "June",
					      "July",	 "August",   "September", "October", "November", "December" };
	time_t t = (time_t)(ms / 1000);
	struct tm tm;

	if (ms <= 0 || !gmtime_r(&t, &tm) || tm.tm_year > 9999 - 1900 ||
	    strftime(iso, ni, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		return false;
	snprintf(human, nh, "%s %d, %d", months[tm.tm_mon % 12], tm.tm_mday, tm.tm_year + 1900);
	return true;
}

void site_last_updated(struct jw *b, const struct sv_space *sp, const struct rev_page *p)
{
	int64_t ms = p->updated_at ? p->updated_at : sp->rv ? sp->rv->created_at : 0;
	char iso[32], human[48];

	if (!dates(ms, iso, sizeof(iso), human, sizeof(human)))
		return;
	html_raw(b, "<p class=\"last-updated\">Last updated <time datetime=\"");
	html_raw(b, iso);
	html_raw(b, "\">");
	html_raw(b, human);
	html_raw(b, "</time></p>\n");
}

/* ---- sitemaps ---- */

static int64_t space_lastmod(const struct sv_space *sp)
{
	int64_t m = sp->rv ? sp->rv->created_at : 0;

	for (int i = 0; sp->rv && i < sp->rv->npages; i++)
		if (sp->rv->pages[i].updated_at > m)
			m = sp->rv->pages[i].updated_at;
	return m;
}

int site_render_sitemap_index(struct jw *out, const struct site_view *v)
{
	html_raw(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		      "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
	for (int s = 0; s < v->nsections; s++) {
		for (int k = 0; k < v->sections[s].nspaces; k++) {
			const struct sv_space *sp = &v->sections[s].spaces[k];
			int64_t m = space_lastmod(sp);
			char iso[32], human[48];
			html_raw(out, "<sitemap><loc>");
			html_esc(out, v->base);
			html_esc(out, v->root);
			html_raw(out, "/~sitemap/");
			html_esc(out, sp->ss->id);
			html_raw(out, ".xml</loc>");
			if (dates(m, iso, sizeof(iso), human, sizeof(human))) {
				html_raw(out, "<lastmod>");
				html_raw(out, iso);
				html_raw(out, "</lastmod>");
			}
			html_raw(out, "</sitemap>\n");
		}
	}
	html_raw(out, "</sitemapindex>\n");
	return jw_ok(out) ? 0 : -1;
}

int site_render_sitemap_space(struct jw *out, struct arena *a, const struct site_view *v, const char *site_space_id)
{
	for (int s = 0; s < v->nsections; s++) {
		for (int k = 0; k < v->sections[s].nspaces; k++) {
			const struct sv_space *sp = &v->sections[s].spaces[k];
			const struct rev_page **order;
			int n;
			if (strcmp(sp->ss->id, site_space_id) != 0)
				continue;
			if (sv_reading_order(a, sp->rv, &order, &n))
				return -1;
			html_raw(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
				      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
			for (int i = 0; i < n; i++) {
				char iso[32], human[48];
				if (order[i]->no_index || order[i]->no_robots_index)
					continue;
				html_raw(out, "<url><loc>");
				html_esc(out, v->base);
				html_esc(out, sv_page_url(a, sp, order[i]));
				html_raw(out, "</loc>");
				if (dates(order[i]->updated_at, iso, sizeof(iso), human, sizeof(human))) {
					html_raw(out, "<lastmod>");
					html_raw(out, iso);
					html_raw(out, "</lastmod>");
				}
				html_raw(out, "</url>\n");
			}
			html_raw(out, "</urlset>\n");
			return jw_ok(out) ? 0 : -1;
		}
	}
	return 1;
}

/* ---- search as you type ---- */

void site_search_json(struct jw *out, const struct sv_page *pg)
{
	jw_obj_open(out);
	jw_kstr(out, "query", pg->search_q ? pg->search_q : "");
	jw_key(out, "results");
	jw_arr_open(out);
	for (int i = 0; i < pg->nhits; i++) {
		const struct sv_hit *h = &pg->hits[i];
		jw_obj_open(out);
		jw_kstr(out, "title", h->title ? h->title : "");
		jw_kstr(out, "url", h->url ? h->url : "");
		jw_kstr_opt(out, "section", h->section && *h->section ? h->section : NULL);
		jw_kstr_opt(out, "excerpt", h->excerpt);
		jw_kstr_opt(out, "space", h->space);
		jw_obj_close(out);
	}
	jw_arr_close(out);
	jw_obj_close(out);
}
