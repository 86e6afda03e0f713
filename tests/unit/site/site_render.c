/*
 * test_site_render.c - the published-site renderer (site/): escaping,
 * GitBook blocks as HTML, link rewriting, URL resolution, navigation, the
 * layout from a hand-built view, visitor tokens and the render cache.
 */
#include "site/site.h"

#include "unit.h"
#include "util/err.h"
#include "util/util.h"

#include <openssl/hmac.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* out's text as a NUL-terminated string (owned by out). */
static const char *text(struct jw *out)
{
	jw_put(out, "", 1);
	out->len--;
	return out->buf ? out->buf : "";
}

static const char *md(struct arena *a, const char *src)
{
	struct jw out;
	const char *s;

	jw_init(&out);
	CHECK(md_to_html(&out, a, src, strlen(src), NULL, NULL) == 0);
	s = arena_strdup(a, text(&out));
	jw_free(&out);
	return s;
}

UNIT_TEST(site_html_escapes_text_and_refuses_script_urls)
{
	struct jw b;

	jw_init(&b);
	html_esc(&b, "<a href=\"x\">&'</a>");
	CHECK_STR(text(&b), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
	jw_reset(&b);
	html_url(&b, "javascript:alert(1)");
	html_url(&b, " JaVa\tScRiPt:alert(1)");
	html_url(&b, "data:text/html,<script>");
	html_url(&b, "vbscript:x");
	CHECK_STR(text(&b), "####");
	jw_reset(&b);
	html_url(&b, "https://e.com/?a=1&b=\"2\"");
	CHECK_STR(text(&b), "https://e.com/?a=1&amp;b=&quot;2&quot;");
	jw_reset(&b);
	url_path_enc(&b, "a b/c\"d<e>");
	CHECK_STR(text(&b), "a%20b/c%22d%3Ce%3E");
	jw_reset(&b);
	html_emoji(&b, "1f4d8");
	html_emoji(&b, "<b>");
	CHECK_STR(text(&b), "\xF0\x9F\x93\x98&lt;b&gt;");
	jw_free(&b);
	CHECK(css_color_ok("#346DDB") && css_color_ok("#abc") && !css_color_ok("red;}body{") && !css_color_ok("#12345"));
}

UNIT_TEST(site_markdown_gitbook_blocks)
{
	struct arena a;
	const char *h;

	arena_init(&a);
	h = md(&a, "{% hint style=\"warning\" %}\nCareful **now**\n{% endhint %}\n");
	CHECK(strstr(h, "<div class=\"hint hint-warning\" role=\"note\">\n<p>Careful <strong>now</strong></p>\n</div>") != NULL);
	/* An unknown style is info; a style cannot inject markup. */
	h = md(&a, "{% hint style=\"x\\\"><script>\" %}\nA\n{% endhint %}\n");
	CHECK(strstr(h, "hint hint-info") != NULL && !strstr(h, "<script"));
	h = md(&a, "{% tabs %}\n{% tab title=\"JS <1>\" %}\n```js\nlet a;\n```\n{% endtab %}\n{% tab title=\"Py\" %}\nprint()\n{% endtab %}\n{% endtabs %}\n");
	CHECK(strstr(h, "<div class=\"tabs\">") != NULL);
	CHECK(strstr(h, "<input type=\"radio\" name=\"tabs-1\" id=\"tabs-1-0\" checked><label for=\"tabs-1-0\">JS &lt;1&gt;</label><div class=\"tab-panel\">") != NULL);
	CHECK(strstr(h, "id=\"tabs-1-1\"><label for=\"tabs-1-1\">Py</label>") != NULL);
	CHECK(strstr(h, "<code class=\"language-js\">let a;") != NULL);
	h = md(&a, "{% code title=\"app.js\" %}\n```js\nx()\n```\n{% endcode %}\n");
	CHECK(strstr(h, "<figure class=\"code-block\"><figcaption>app.js</figcaption>") != NULL && strstr(h, "</pre>\n</figure>") != NULL);
	/* Tags inside fenced code are code. */
	h = md(&a, "```\n{% hint %}\n```\n");
	CHECK(strstr(h, "{% hint %}") != NULL && !strstr(h, "class=\"hint"));
	/* Unclosed blocks close at the end; stray end tags are dropped. */
	h = md(&a, "{% endhint %}\n{% hint style=\"info\" %}\nopen\n");
	CHECK(strstr(h, "<div class=\"hint hint-info\" role=\"note\">\n<p>open</p>\n</div>") != NULL);
	h = md(&a, "{% embed url=\"javascript:alert(1)\" %}\n");
	CHECK(strstr(h, "href=\"#\"") != NULL);
	arena_free(&a);
}

UNIT_TEST(site_markdown_gfm_headings_and_no_raw_html)
{
	struct arena a;
	const char *h;

	arena_init(&a);
	h = md(&a, "---\ntitle: T\n---\n# Setup\n\n## Setup\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n\n~~old~~ "
		   "<script>alert(1)</script> https://e.com\n");
	CHECK(strstr(h, "title: T") == NULL);
	CHECK(strstr(h, "<h1 id=\"setup\">Setup</h1>") != NULL);
	CHECK(strstr(h, "<h2 id=\"setup-1\">Setup</h2>") != NULL);
	CHECK(strstr(h, "<table>") != NULL && strstr(h, "<td>1</td>") != NULL);
	CHECK(strstr(h, "type=\"checkbox\" checked") != NULL);
	CHECK(strstr(h, "<del>old</del>") != NULL);
	CHECK(strstr(h, "<script>") == NULL);
	CHECK(strstr(h, "<a href=\"https://e.com\">") != NULL);
	/* The headings of levels 2 and 3 for "On this page". */
	struct md_headings toc;
	struct jw out;
	const char *src = "# T\n\n## A & b\n\n### B\n\n#### C\n\n## A & b\n";
	jw_init(&out);
	CHECK(md_to_html_toc(&out, &a, src, strlen(src), NULL, NULL, &toc) == 0);
	CHECK(toc.n == 3);
	CHECK(toc.n == 3 && toc.items[0].level == 2 && strcmp(toc.items[0].id, "a--b") == 0 && strcmp(toc.items[0].text, "A & b") == 0);
	CHECK(toc.n == 3 && toc.items[1].level == 3 && strcmp(toc.items[1].id, "b") == 0);
	CHECK(toc.n == 3 && strcmp(toc.items[2].id, "a--b-1") == 0);
	jw_free(&out);
	arena_free(&a);
}

/* A revision: intro (first), guides (with child auth), hidden, group G with child faq, link L. */
static struct revision *demo_revision(void)
{
	struct rev_page p[] = {
		{ .id = "p1", .pos = 1, .type = PAGE_DOCUMENT, .title = "Intro", .slug = "intro", .body = "h1" },
		{ .id = "p2", .pos = 2, .type = PAGE_DOCUMENT, .title = "Guides", .slug = "guides", .body = "h2" },
		{ .id = "p3", .parent = "p2", .pos = 1, .type = PAGE_DOCUMENT, .title = "Auth <&>", .slug = "auth", .body = "h3" },
		{ .id = "p4", .pos = 3, .type = PAGE_DOCUMENT, .title = "Secret", .slug = "secret", .body = "h4", .hidden = true },
		{ .id = "p5", .pos = 4, .type = PAGE_GROUP, .title = "More", .slug = "more" },
		{ .id = "p6", .parent = "p5", .pos = 1, .type = PAGE_DOCUMENT, .title = "FAQ", .slug = "faq", .body = "h6" },
		{ .id = "p7", .pos = 5, .type = PAGE_LINK, .title = "Status", .slug = "status", .href = "https://status.example" },
	};
	struct rev_file f[] = { { .id = "f1", .name = "a.png", .content_type = "image/png", .blob = "b1", .size = 3 } };
	struct revision_new nr = { .space_id = "sp", .pages = p, .npages = 7, .files = f, .nfiles = 1 };

	return revision_build("rev1", &nr, 1);
}

struct demo {
	struct site site;
	struct site_section secs[2];
	struct site_space ss[3];
	struct sv_space sv[3];
	struct sv_section svs[2];
	struct site_view v;
};

/* A site with two sections: "Docs" (default; spaces main (default) and v1)
 * and "API" at /api (space api). */
static void demo_view(struct demo *d, struct revision *rv)
{
	memset(d, 0, sizeof(*d));
	d->site = (struct site){ .id = "site1", .title = "Acme <Docs>", .visibility = "public", .published = 1 };
	d->secs[0] = (struct site_section){ .id = "s1", .title = "Docs", .path = "docs", .is_default = 1 };
	d->secs[1] = (struct site_section){ .id = "s2", .title = "API", .path = "api" };
	d->ss[0] = (struct site_space){ .id = "ss1", .path = "main", .is_default = 1, .space_id = "sp" };
	d->ss[1] = (struct site_space){ .id = "ss2", .path = "v1", .space_id = "sp" };
	d->ss[2] = (struct site_space){ .id = "ss3", .path = "ref", .is_default = 1, .space_id = "sp" };
	d->sv[0] = (struct sv_space){ &d->ss[0], "/sites/acme", rv, "Main" };
	d->sv[1] = (struct sv_space){ &d->ss[1], "/sites/acme/v1", rv, "V1" };
	d->sv[2] = (struct sv_space){ &d->ss[2], "/sites/acme/api", rv, "Ref" };
	d->svs[0] = (struct sv_section){ &d->secs[0], "/sites/acme", &d->sv[0], 2, 0 };
	d->svs[1] = (struct sv_section){ &d->secs[1], "/sites/acme/api", &d->sv[2], 1, 0 };
	d->v.site = &d->site;
	d->v.custom = json_loads("{\"styling\":{\"primaryColor\":{\"light\":\"#ff0000\",\"dark\":\"red;}\"}},"
				 "\"header\":{\"links\":[{\"title\":\"Pro <only>\",\"to\":{\"kind\":\"url\",\"url\":\"https://p\"},"
				 "\"links\":[],\"condition\":\"visitor.claims.plan == \\\"pro\\\"\"},"
				 "{\"title\":\"Blog\",\"to\":{\"kind\":\"url\",\"url\":\"javascript:x\"},\"links\":[]}]},"
				 "\"footer\":{\"groups\":[{\"title\":\"Company\",\"links\":[{\"title\":\"About\",\"to\":"
				 "{\"kind\":\"url\",\"url\":\"https://about\"}}]}],\"copyright\":\"(c) Acme & co\"},"
				 "\"announcement\":{\"enabled\":true,\"message\":\"New <v2>\",\"style\":\"warning\"},"
				 "\"favicon\":{\"emoji\":\"1f680\"},"
				 "\"themes\":{\"default\":\"dark\",\"toggeable\":false}}",
				 0, NULL);
	d->v.root = "/sites/acme";
	d->v.base = "http://h";
	d->v.css_url = "/sites/acme/~assets/site.css?v=1";
	d->v.sections = d->svs;
	d->v.nsections = 2;
	d->v.def = 0;
}

UNIT_TEST(site_urls_resolve_sections_spaces_and_pages)
{
	struct revision *rv = demo_revision();
	struct demo d;
	struct arena a;
	int sec, sp;
	const char *path;

	arena_init(&a);
	demo_view(&d, rv);
	sv_resolve(&d.v, "", &sec, &sp, &path);
	CHECK(sec == 0 && sp == 0 && strcmp(path, "") == 0);
	sv_resolve(&d.v, "guides/auth", &sec, &sp, &path);
	CHECK(sec == 0 && sp == 0 && strcmp(path, "guides/auth") == 0);
	sv_resolve(&d.v, "v1/guides", &sec, &sp, &path);
	CHECK(sec == 0 && sp == 1 && strcmp(path, "guides") == 0);
	sv_resolve(&d.v, "api/intro", &sec, &sp, &path);
	CHECK(sec == 1 && sp == 0 && strcmp(path, "intro") == 0);
	/* The default section's and space's own paths are not URL segments. */
	sv_resolve(&d.v, "docs/main", &sec, &sp, &path);
	CHECK(sec == 0 && sp == 0 && strcmp(path, "docs/main") == 0);
	CHECK(sv_page_at(rv, "") == revision_page(rv, "p1"));
	CHECK(sv_page_at(rv, "guides/auth") == revision_page(rv, "p3"));
	CHECK(sv_page_at(rv, "more") == revision_page(rv, "p6")); /* a group shows its first document */
	CHECK(sv_page_at(rv, "status") == NULL && sv_page_at(rv, "nope") == NULL);
	CHECK_STR(sv_page_url(&a, &d.sv[0], revision_page(rv, "p1")), "/sites/acme");
	CHECK_STR(sv_page_url(&a, &d.sv[1], revision_page(rv, "p3")), "/sites/acme/v1/guides/auth");
	CHECK_STR(sv_twin_url(&a, &d.sv[1], revision_page(rv, "p1")), "/sites/acme/v1/index.md");
	CHECK_STR(sv_twin_url(&a, &d.sv[0], revision_page(rv, "p3")), "/sites/acme/guides/auth.md");
	json_decref(d.v.custom);
	revision_free(rv);
	arena_free(&a);
}

UNIT_TEST(site_page_layout_navigation_and_links)
{
	struct revision *rv = demo_revision();
	struct demo d;
	struct arena a;
	struct jw out;
	const char *h;
	struct sv_page pg = { 0 };

	arena_init(&a);
	demo_view(&d, rv);
	pg.page = revision_page(rv, "p3");
	pg.body_md = "See [intro](/pages/p1), [sibling](../guides.md#top), ![img](/files/f1), [ext](https://e.com) and "
		     "[gone](/pages/nope).\n";
	jw_init(&out);
	CHECK(site_render_page(&out, &a, &d.v, &pg) == 0);
	h = text(&out);
	CHECK(strstr(h, "<title>Auth &lt;&amp;&gt; | Acme &lt;Docs&gt;</title>") != NULL);
	CHECK(strstr(h, "data-theme=\"dark\"") != NULL);
	CHECK(strstr(h, "<link rel=\"icon\" href=\"data:image/svg+xml,") != NULL && strstr(h, "\xF0\x9F\x9A\x80%3C/text%3E") != NULL);
	CHECK(strstr(h, ":root{--primary:#ff0000}") != NULL && strstr(h, "red;}") == NULL);
	CHECK(strstr(h, "noindex") == NULL);
	/* links rewritten to site URLs */
	CHECK(strstr(h, "<a href=\"/sites/acme\">intro</a>") != NULL);
	CHECK(strstr(h, "<a href=\"/sites/acme/guides#top\">sibling</a>") != NULL);
	CHECK(strstr(h, "<img src=\"/sites/acme/~file/ss1/f1\" alt=\"img\"") != NULL);
	CHECK(strstr(h, "<a href=\"https://e.com\">ext</a>") != NULL);
	CHECK(strstr(h, "href=\"/pages/nope\"") != NULL);
	/* navigation: current page, its ancestors open, hidden pages left out, groups and links */
	CHECK(strstr(h, "<details open><summary><a href=\"/sites/acme/guides\">Guides</a>") != NULL);
	CHECK(strstr(h, "<a href=\"/sites/acme/guides/auth\" aria-current=\"page\">Auth &lt;&amp;&gt;</a>") != NULL);
	CHECK(strstr(h, "Secret") == NULL);
	CHECK(strstr(h, "<div class=\"nav-group-title\">More</div>") != NULL);
	CHECK(strstr(h, "<a class=\"external\" href=\"https://status.example\">Status") != NULL);
	/* sections, variants, previous / next */
	CHECK(strstr(h, "<a href=\"/sites/acme\" aria-current=\"page\">Docs</a><a href=\"/sites/acme/api\">API</a>") != NULL);
	CHECK(strstr(h, "<a href=\"/sites/acme\" aria-current=\"true\">Main</a><a href=\"/sites/acme/v1\">V1</a>") != NULL);
	CHECK(strstr(h, "rel=\"prev\" href=\"/sites/acme/guides\"") != NULL);
	CHECK(strstr(h, "rel=\"next\" href=\"/sites/acme/more/faq\"") != NULL);
	/* customization strings escaped; a header link's condition hides it from an anonymous visitor */
	CHECK(strstr(h, "Pro &lt;only&gt;") == NULL);
	CHECK(strstr(h, "<a href=\"#\">Blog</a>") != NULL);
	CHECK(strstr(h, "New &lt;v2&gt;") != NULL && strstr(h, "announcement-warning") != NULL);
	CHECK(strstr(h, "(c) Acme &amp; co") != NULL && strstr(h, "<a href=\"https://about\">About</a>") != NULL);
	CHECK(strstr(h, "<link rel=\"alternate\" type=\"text/markdown\" href=\"/sites/acme/guides/auth.md\">") != NULL);

	/* A visitor whose claims satisfy the condition sees the link. */
	json_t *vis = json_loads("{\"claims\":{\"plan\":\"pro\"}}", 0, NULL);
	d.v.visitor = vis;
	d.v.noindex = true;
	jw_reset(&out);
	CHECK(site_render_page(&out, &a, &d.v, &pg) == 0);
	h = text(&out);
	CHECK(strstr(h, "Pro &lt;only&gt;") != NULL);
	CHECK(strstr(h, "<meta name=\"robots\" content=\"noindex, nofollow\">") != NULL);
	json_decref(vis);
	d.v.visitor = NULL;

	/* Sections of a group are listed under it. */
	struct site_section_group grp = { .id = "g1", .title = "More <docs>" };
	d.secs[1].group_id = "g1";
	d.v.groups = &grp;
	d.v.ngroups = 1;
	jw_reset(&out);
	CHECK(site_render_page(&out, &a, &d.v, &pg) == 0);
	h = text(&out);
	CHECK(strstr(h, "<details class=\"dropdown\"><summary>More &lt;docs&gt;</summary><div class=\"dropdown-menu\">"
			"<a href=\"/sites/acme/api\">API</a></div></details>") != NULL);
	d.secs[1].group_id = NULL;
	d.v.ngroups = 0;

	/* A leading level-1 heading equal to the title is not shown twice. */
	struct sv_page first = { .page = revision_page(rv, "p1"), .body_md = "# Intro\n\nHello.\n\n# Intro\n" };
	jw_reset(&out);
	CHECK(site_render_page(&out, &a, &d.v, &first) == 0);
	h = text(&out);
	CHECK(strstr(h, "<h1>Intro</h1>\n<p>Hello.</p>\n<h1 id=\"intro\">Intro</h1>") != NULL);

	/* The 404 page keeps the site's layout. */
	memset(&pg, 0, sizeof(pg));
	jw_reset(&out);
	CHECK(site_render_page(&out, &a, &d.v, &pg) == 0);
	h = text(&out);
	CHECK(strstr(h, "<h1>Page not found</h1>") != NULL && strstr(h, "class=\"sidebar\"") != NULL);

	/* A search page escapes the query and the results. */
	struct sv_hit hit = { "/sites/acme/guides/auth#tokens", "Auth", "Tokens", "use <token>", NULL };
	pg.search_q = "<q>";
	pg.hits = &hit;
	pg.nhits = 1;
	jw_reset(&out);
	CHECK(site_render_page(&out, &a, &d.v, &pg) == 0);
	h = text(&out);
	CHECK(strstr(h, "1 result for \xe2\x80\x9c&lt;q&gt;") != NULL);
	CHECK(strstr(h, "value=\"&lt;q&gt;\"") != NULL);
	CHECK(strstr(h, "<a href=\"/sites/acme/guides/auth#tokens\">Auth &rsaquo; Tokens</a>") != NULL);
	CHECK(strstr(h, "<p>use &lt;token&gt;</p>") != NULL);
	jw_free(&out);
	json_decref(d.v.custom);
	revision_free(rv);
	arena_free(&a);
}

UNIT_TEST(site_llms_sitemap_robots)
{
	struct revision *rv = demo_revision();
	struct demo d;
	struct arena a;
	struct jw out;
	const char *h;

	arena_init(&a);
	demo_view(&d, rv);
	jw_init(&out);
	CHECK(site_render_llms(&out, &a, &d.v) == 0);
	h = text(&out);
	CHECK(strncmp(h, "# Acme <Docs>\n", 14) == 0);
	CHECK(strstr(h, "## Docs / Main\n\n- [Intro](http://h/sites/acme/index.md)\n") != NULL);
	CHECK(strstr(h, "- [Auth <&>](http://h/sites/acme/guides/auth.md)\n") != NULL);
	CHECK(strstr(h, "Secret") == NULL);
	CHECK(strstr(h, "## API\n") != NULL);
	jw_reset(&out);
	CHECK(site_render_sitemap(&out, &a, &d.v) == 0);
	h = text(&out);
	CHECK(strstr(h, "<url><loc>http://h/sites/acme/v1/more/faq</loc></url>") != NULL);
	CHECK(strstr(h, "secret") == NULL);
	jw_reset(&out);
	site_render_robots(&out, &d.v);
	CHECK_STR(text(&out), "User-agent: *\nAllow: /\n\nSitemap: http://h/sites/acme/sitemap.xml\n");
	d.v.noindex = true;
	jw_reset(&out);
	site_render_robots(&out, &d.v);
	CHECK_STR(text(&out), "User-agent: *\nDisallow: /\n");
	jw_free(&out);
	json_decref(d.v.custom);
	revision_free(rv);
	arena_free(&a);
}

static char *sign(const char *key, const char *header, const char *claims)
{
	char h[256], c[512], *tok = malloc(1024);
	unsigned char mac[32];
	unsigned int ml = 32;

	base64url_encode(h, header, strlen(header));
	base64url_encode(c, claims, strlen(claims));
	snprintf(tok, 1024, "%s.%s", h, c);
	HMAC(EVP_sha256(), key, (int)strlen(key), (unsigned char *)tok, strlen(tok), mac, &ml);
	strcat(tok, ".");
	base64url_encode(tok + strlen(tok), mac, 32);
	return tok;
}

UNIT_TEST(site_visitor_tokens)
{
	const char *hs = "{\"alg\":\"HS256\",\"typ\":\"JWT\"}";
	char *ok = sign("k1", hs, "{\"plan\":\"pro\",\"exp\":2000}");
	char *expired = sign("k1", hs, "{\"plan\":\"pro\",\"exp\":1000}");
	char *none = sign("k1", "{\"alg\":\"none\"}", "{\"plan\":\"pro\"}");
	char *bad_exp = sign("k1", hs, "{\"exp\":\"soon\"}");
	json_t *claims = NULL;

	CHECK(visitor_jwt_verify(ok, "k1", 1500, &claims) == 0);
	CHECK(claims && strcmp(json_string_value(json_object_get(claims, "plan")), "pro") == 0);
	json_decref(claims);
	CHECK(visitor_jwt_verify(ok, "k2", 1500, &claims) != 0 && claims == NULL);
	CHECK(visitor_jwt_verify(ok, "k1", 2000, &claims) != 0);
	CHECK(visitor_jwt_verify(expired, "k1", 1500, &claims) != 0);
	CHECK(visitor_jwt_verify(none, "k1", 1500, &claims) != 0);
	CHECK(visitor_jwt_verify(bad_exp, "k1", 1500, &claims) != 0);
	CHECK(visitor_jwt_verify("a.b", "k1", 1500, &claims) != 0);
	CHECK(visitor_jwt_verify("a.b.c.d", "k1", 1500, &claims) != 0);
	ok[strlen(ok) - 2] ^= 1;
	CHECK(visitor_jwt_verify(ok, "k1", 1500, &claims) != 0);
	free(ok);
	free(expired);
	free(none);
	free(bad_exp);
}

/* Tokens that would never expire, or carry extensions docsd does not know,
 * are refused (issue 19, item 4). */
UNIT_TEST(site_visitor_tokens_bounded)
{
	static const struct {
		const char *header, *claims;
		int rc; /* 0: accepted */
	} cases[] = {
		{ "{\"alg\":\"HS256\"}", "{\"exp\":1600}", 0 },
		{ "{\"alg\":\"HS256\"}", "{\"exp\":2593500}", 0 },        /* now + 30 days, to the second */
		{ "{\"alg\":\"HS256\"}", "{\"exp\":2593501}", ERR_UNAUTHORIZED }, /* one second more */
		{ "{\"alg\":\"HS256\"}", "{\"plan\":\"pro\"}", ERR_UNAUTHORIZED }, /* no exp */
		{ "{\"alg\":\"HS256\"}", "{\"exp\":1e308}", ERR_UNAUTHORIZED },
		{ "{\"alg\":\"HS256\"}", "{\"exp\":null}", ERR_UNAUTHORIZED },
		{ "{\"alg\":\"HS256\"}", "{\"exp\":1600,\"nbf\":1400}", 0 },
		{ "{\"alg\":\"HS256\"}", "{\"exp\":1600,\"nbf\":1501}", ERR_UNAUTHORIZED },
		{ "{\"alg\":\"HS256\",\"crit\":[\"exp\"]}", "{\"exp\":1600}", ERR_UNAUTHORIZED },
		{ "{\"alg\":\"HS256\",\"crit\":[]}", "{\"exp\":1600}", ERR_UNAUTHORIZED },
		{ "{\"alg\":\"HS256\",\"crit\":null}", "{\"exp\":1600}", ERR_UNAUTHORIZED },
	};
	json_t *claims;

	CHECK(VISITOR_TOKEN_MAX_LIFETIME == 30 * 24 * 3600);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *tok = sign("k1", cases[i].header, cases[i].claims);
		int rc = visitor_jwt_verify(tok, "k1", 1500, &claims);
		if (rc != cases[i].rc)
			fprintf(stderr, "  token %s %s: %d, expected %d\n", cases[i].header, cases[i].claims, rc, cases[i].rc);
		CHECK(rc == cases[i].rc);
		CHECK(rc ? claims == NULL : claims != NULL);
		json_decref(claims);
		free(tok);
	}
}

/* Every redirect built from a request path stays on the site (issue 19,
 * item 3): one leading '/', never "//" or "/\\". */
UNIT_TEST(site_location_stays_on_the_site)
{
	static const struct {
		const char *prefix, *path, *want;
	} cases[] = {
		{ "", "//evil.example", "/evil.example" },
		{ "", "///evil.example/a", "/evil.example/a" },
		{ "", "/\\evil.example", "/%5Cevil.example" },
		{ "", "\\\\evil.example", "/%5C%5Cevil.example" },
		{ "/", "/evil.example", "/evil.example" },
		{ "/", "", "/" },
		{ "", "", "/" },
		{ "/", "installation", "/installation" },
		{ "/sites/docs/", "/evil.example", "/sites/docs//evil.example" },
		{ "/~share/abc/", "/x y\"", "/~share/abc//x%20y%22" },
		{ "", "/\t/evil.example", "/%09/evil.example" },
		{ "/sites/docs/", "guide/intro", "/sites/docs/guide/intro" },
	};
	struct arena a;

	arena_init(&a);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *loc = site_location(&a, cases[i].prefix, cases[i].path);
		CHECK(loc != NULL);
		if (loc)
			CHECK_STR(loc, cases[i].want);
	}
	arena_free(&a);
}

UNIT_TEST(site_render_cache_bounded)
{
	struct sitecache *c;
	struct arena a;
	const char *body, *ct;
	size_t len;
	int status;
	char big[4000], key[32];

	arena_init(&a);
	CHECK(sitecache_new(&c, 64 * 1024) == 0);
	CHECK(sitecache_get(c, "k", &a, &body, &len, &status, &ct) == 0);
	sitecache_put(c, "k", "hello", 5, 200, "text/html");
	CHECK(sitecache_get(c, "k", &a, &body, &len, &status, &ct) == 1);
	CHECK(len == 5 && memcmp(body, "hello", 5) == 0 && status == 200 && strcmp(ct, "text/html") == 0);
	/* Too large for an entry (over an eighth of the budget): not kept. */
	char *huge = calloc(1, 9000);
	sitecache_put(c, "huge", huge, 9000, 200, "x");
	CHECK(sitecache_get(c, "huge", &a, &body, &len, &status, &ct) == 0);
	free(huge);
	/* Filling it evicts the least recently used. */
	memset(big, 'x', sizeof(big));
	for (int i = 0; i < 40; i++) {
		snprintf(key, sizeof(key), "e%d", i);
		sitecache_put(c, key, big, sizeof(big), 404, "t");
	}
	CHECK(sitecache_get(c, "k", &a, &body, &len, &status, &ct) == 0);
	CHECK(sitecache_get(c, "e0", &a, &body, &len, &status, &ct) == 0);
	CHECK(sitecache_get(c, "e39", &a, &body, &len, &status, &ct) == 1 && status == 404);
	sitecache_free(c);
	arena_free(&a);
}
