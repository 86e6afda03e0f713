/*
 * site_seo.c - what readers and search engines get (site/seo.c) from a
 * hand-built view, and the redirect source rule (domain/site_redirects.h).
 */
#include "site/site.h"

#include "domain/site_redirects.h"
#include "unit.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *text(struct jw *out)
{
	jw_put(out, "", 1);
	out->len--;
	return out->buf ? out->buf : "";
}

/* Intro (first), Guides with child Auth "<&>"; updated at 2024-05-01T10:00:00Z. */
static struct revision *rev(void)
{
	struct rev_page p[] = {
		{ .id = "p1", .pos = 1, .type = PAGE_DOCUMENT, .title = "Intro", .slug = "intro", .body = "h1",
		  .updated_at = 1714557600000 },
		{ .id = "p2", .pos = 2, .type = PAGE_DOCUMENT, .title = "Guides", .slug = "guides", .body = "h2" },
		{ .id = "p3", .parent = "p2", .pos = 1, .type = PAGE_DOCUMENT, .title = "Auth <&>", .slug = "auth",
		  .body = "h3", .updated_at = 1714557600000, .no_index = false },
		{ .id = "p4", .pos = 3, .type = PAGE_DOCUMENT, .title = "Draft", .slug = "draft", .body = "h4",
		  .no_index = true },
	};
	struct revision_new nr = { .space_id = "sp", .pages = p, .npages = 4 };

	return revision_build("rev1", &nr, 1700000000000);
}

struct view {
	struct site site;
	struct site_space ss;
	struct sv_space sv;
	struct sv_section sec;
	struct site_view v;
};

static void view(struct view *w, struct revision *rv, const char *custom)
{
	memset(w, 0, sizeof(*w));
	w->site = (struct site){ .id = "site1", .title = "Acme \"Docs\"", .visibility = "public", .published = 1 };
	w->ss = (struct site_space){ .id = "ss1", .path = "main", .is_default = 1, .space_id = "sp" };
	w->sv = (struct sv_space){ &w->ss, "/sites/acme", rv, "Main" };
	w->sec = (struct sv_section){ NULL, "/sites/acme", &w->sv, 1, 0 };
	w->v.site = &w->site;
	w->v.custom = json_loads(custom, 0, NULL);
	w->v.root = "/sites/acme";
	w->v.base = "http://h";
	w->v.sections = &w->sec;
	w->v.nsections = 1;
	w->v.js_url = "/sites/acme/~assets/site.js?v=1";
}

UNIT_TEST(site_redirect_sources_are_gitbook_paths)
{
	CHECK(redirect_source_ok("/a"));
	CHECK(redirect_source_ok("/old/page-1.html"));
	CHECK(redirect_source_ok("/caf%C3%A9/~x_y"));
	CHECK(!redirect_source_ok(NULL));
	CHECK(!redirect_source_ok(""));
	CHECK(!redirect_source_ok("/"));
	CHECK(!redirect_source_ok("a/b"));
	CHECK(!redirect_source_ok("/a/"));
	CHECK(!redirect_source_ok("/a//b"));
	CHECK(!redirect_source_ok("//evil.example"));
	CHECK(!redirect_source_ok("/a b"));
	CHECK(!redirect_source_ok("/a?b"));
	CHECK(!redirect_source_ok("/%zz"));
	CHECK(!redirect_source_ok("/%4"));
	CHECK(!redirect_source_ok("/\\evil"));
	char *longest = malloc(REDIRECT_SOURCE_MAX + 2);
	longest[0] = '/';
	memset(longest + 1, 'a', REDIRECT_SOURCE_MAX - 1);
	longest[REDIRECT_SOURCE_MAX] = '\0';
	CHECK(redirect_source_ok(longest));
	longest[REDIRECT_SOURCE_MAX] = 'a';
	longest[REDIRECT_SOURCE_MAX + 1] = '\0';
	CHECK(!redirect_source_ok(longest));
	free(longest);
}

UNIT_TEST(site_theme_follows_the_cookie_then_the_site)
{
	struct revision *rv = rev();
	struct view w;
	struct jw b;

	view(&w, rv, "{\"themes\":{\"default\":\"dark\",\"toggeable\":true}}");
	CHECK_STR(site_theme_attr(&w.v), "auto");
	w.v.theme = "dark";
	CHECK_STR(site_theme_attr(&w.v), "dark");
	w.v.theme = "light";
	CHECK_STR(site_theme_attr(&w.v), "light");
	w.v.theme = "system";
	CHECK_STR(site_theme_attr(&w.v), "auto");
	/* The toggle's links come back to the page asked for, encoded. */
	w.v.theme = NULL;
	w.v.here = "a b/\"x\"";
	jw_init(&b);
	site_theme_toggle(&b, &w.v);
	CHECK(strstr(text(&b), "href=\"/sites/acme/~theme/dark?to=a%20b/%22x%22\" class=\"theme-dark\" title=\"Dark theme\">") != NULL);
	CHECK(strstr(text(&b), "class=\"theme-system\" aria-current=\"true\"") != NULL);
	jw_free(&b);
	json_decref(w.v.custom);
	/* Not toggeable: the site's default, no toggle. */
	view(&w, rv, "{\"themes\":{\"default\":\"dark\",\"toggeable\":false}}");
	CHECK_STR(site_theme_attr(&w.v), "dark");
	w.v.theme = "light"; /* a cookie left from when it was toggeable */
	CHECK_STR(site_theme_attr(&w.v), "dark");
	w.v.theme = NULL;
	jw_init(&b);
	site_theme_toggle(&b, &w.v);
	CHECK_STR(text(&b), "");
	jw_free(&b);
	json_decref(w.v.custom);
	revision_free(rv);
}

UNIT_TEST(site_head_names_the_canonical_url_and_social_tags)
{
	struct revision *rv = rev();
	struct view w;
	struct arena a;
	struct jw b;
	struct sv_page pg = { 0 };
	struct sv_alt alts[] = { { "en", "/sites/acme/guides/auth" }, { "es", "/sites/acme/es/guides/auth" } };

	arena_init(&a);
	view(&w, rv, "{\"title\":\"Acme <Docs>\",\"socialPreview\":{\"url\":\"https://cdn/p.png?a=1&b=2\"}}");
	pg.page = revision_page(rv, "p3");
	pg.alts = alts;
	pg.nalts = 2;
	jw_init(&b);
	site_head_meta(&b, &a, &w.v, &pg, "Auth <&>", "About \"auth\"");
	const char *h = text(&b);
	CHECK(strstr(h, "<link rel=\"canonical\" href=\"http://h/sites/acme/guides/auth\">\n") != NULL);
	CHECK(strstr(h, "<link rel=\"alternate\" hreflang=\"es\" href=\"http://h/sites/acme/es/guides/auth\">") != NULL);
	CHECK(strstr(h, "<meta property=\"og:site_name\" content=\"Acme &lt;Docs&gt;\">") != NULL);
	CHECK(strstr(h, "<meta property=\"og:title\" content=\"Auth &lt;&amp;&gt;\">") != NULL);
	CHECK(strstr(h, "<meta property=\"og:description\" content=\"About &quot;auth&quot;\">") != NULL);
	CHECK(strstr(h, "<meta property=\"og:image\" content=\"https://cdn/p.png?a=1&amp;b=2\">") != NULL);
	CHECK(strstr(h, "<meta name=\"twitter:card\" content=\"summary_large_image\">") != NULL);
	CHECK(strstr(h, "<script defer src=\"/sites/acme/~assets/site.js?v=1\"></script>") != NULL);
	/* A noindex site names no canonical URL and no alternates. */
	jw_reset(&b);
	w.v.noindex = true;
	site_head_meta(&b, &a, &w.v, &pg, "Auth", NULL);
	h = text(&b);
	CHECK(strstr(h, "canonical") == NULL && strstr(h, "hreflang") == NULL && strstr(h, "og:url") == NULL);
	CHECK(strstr(h, "og:description") == NULL);
	jw_free(&b);
	json_decref(w.v.custom);
	revision_free(rv);
	arena_free(&a);
}

UNIT_TEST(site_breadcrumbs_last_updated_and_sitemaps)
{
	struct revision *rv = rev();
	struct view w;
	struct arena a;
	struct jw b;
	struct sv_page pg = { 0 };

	arena_init(&a);
	view(&w, rv, "{}");
	pg.page = revision_page(rv, "p3");
	jw_init(&b);
	site_breadcrumbs(&b, &a, &w.v, &pg);
	CHECK_STR(text(&b), "<nav class=\"breadcrumbs\" aria-label=\"Breadcrumbs\"><ol><li><a href=\"/sites/acme/guides\">"
			    "Guides</a></li></ol></nav>\n");
	jw_reset(&b);
	pg.page = revision_page(rv, "p2"); /* top level, one space, no sections: none */
	site_breadcrumbs(&b, &a, &w.v, &pg);
	CHECK_STR(text(&b), "");
	site_last_updated(&b, &w.sv, revision_page(rv, "p3"));
	CHECK_STR(text(&b), "<p class=\"last-updated\">Last updated <time datetime=\"2024-05-01T10:00:00Z\">May 1, 2024"
			    "</time></p>\n");
	jw_reset(&b);
	site_last_updated(&b, &w.sv, revision_page(rv, "p2")); /* no updatedAt: the revision's time */
	CHECK(strstr(text(&b), "datetime=\"2023-11-14T22:13:20Z\">November 14, 2023<") != NULL);
	jw_reset(&b);
	{
		/* A time gmtime cannot say shows nothing. */
		struct rev_page odd = *revision_page(rv, "p3");
		odd.updated_at = INT64_MAX;
		site_last_updated(&b, &w.sv, &odd);
		CHECK_STR(text(&b), "");
	}
	jw_reset(&b);
	CHECK(site_render_sitemap_index(&b, &w.v) == 0);
	CHECK(strstr(text(&b), "<sitemap><loc>http://h/sites/acme/~sitemap/ss1.xml</loc><lastmod>2024-05-01T10:00:00Z"
			       "</lastmod></sitemap>") != NULL);
	jw_reset(&b);
	CHECK(site_render_sitemap_space(&b, &a, &w.v, "ss1") == 0);
	CHECK(strstr(text(&b), "<url><loc>http://h/sites/acme</loc><lastmod>2024-05-01T10:00:00Z</lastmod></url>") != NULL);
	CHECK(strstr(text(&b), "<url><loc>http://h/sites/acme/guides</loc></url>") != NULL);
	CHECK(strstr(text(&b), "draft") == NULL);
	jw_reset(&b);
	CHECK(site_render_sitemap_space(&b, &a, &w.v, "nosuch") == 1);
	jw_free(&b);
	json_decref(w.v.custom);
	revision_free(rv);
	arena_free(&a);
}

UNIT_TEST(site_search_json_escapes_every_field)
{
	struct sv_hit hits[] = { { "/s/a#x", "A \"quoted\" <title>", "Sec\n", "line1\nline2", NULL },
				 { "/s/b", "B", "", NULL, "Space" } };
	struct sv_page pg = { .search_q = "q\"", .hits = hits, .nhits = 2 };
	struct jw b;

	jw_init(&b);
	site_search_json(&b, &pg);
	CHECK_STR(text(&b), "{\"query\":\"q\\\"\",\"results\":[{\"title\":\"A \\\"quoted\\\" <title>\",\"url\":\"/s/a#x\","
			    "\"section\":\"Sec\\n\",\"excerpt\":\"line1\\nline2\"},{\"title\":\"B\",\"url\":\"/s/b\","
			    "\"space\":\"Space\"}]}");
	jw_free(&b);
}
