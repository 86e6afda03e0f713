/*
 * site.h - the published-site renderer (DESIGN.md, "Published sites").
 *
 * DESIGN
 * A published site is served by docsd itself, as server-rendered HTML:
 *
 *   {root}                       = {--site-url}/sites/{basename or id} (the
 *                                  sites' own origin, a second listener:
 *                                  README "Two origins"; the main origin
 *                                  answers /sites/... with a 308 there),
 *                                  or "/" of the site's own hostname
 *   {root}/~share/{key}/...      the same pages through a share link (links
 *                                  on such pages keep the prefix); ?share={key}
 *                                  redirects to this form
 *   {root}[/{section}][/{siteSpace}][/{page path}]
 *                                  the default section and the default site
 *                                  space sit at the root of their parent
 *   {page URL}.md                the page's markdown twin
 *   {root}/llms.txt, /sitemap.xml (public sites), /robots.txt
 *   {root}/~search?q=            search over the visitor's visible spaces
 *   {root}/~file/{siteSpace}/{file}   302 to the file's signed URL
 *   {root}/~assets/site.css      the one stylesheet (long-lived caching)
 *   ?jwt_token=<JWT>             visitor-auth: checked, kept in a cookie
 *                                  (HttpOnly, Path=root), then a redirect
 *
 * Three parts: serve.c is the HTTP glue (resolves the site through
 * domain/site_visit.c, enforces visibility, picks the page, answers from the
 * render cache or renders); render.c, md_html.c and html.c are pure functions
 * from a struct site_view to HTML or text (no SQL, no HTTP: unit-tested with
 * hand-built views); cache.c keeps rendered pages, bounded in bytes, in the
 * server context.
 */
#ifndef DOCSD_SITE_SITE_H
#define DOCSD_SITE_SITE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json/jsonw.h"
#include "model/model.h"
#include "model/revision.h"
#include "util/arena.h"

/* ---- HTML text (html.c) ---- */

/* s[0..n) escaped for HTML text and attribute values (& < > " '). */
void html_escn(struct jw *b, const char *s, size_t n);
static inline void html_esc(struct jw *b, const char *s)
{
	if (s)
		html_escn(b, s, strlen(s));
}
static inline void html_raw(struct jw *b, const char *s)
{
	if (s && *s)
		jw_put(b, s, strlen(s));
}
/* A URL for an href/src attribute: javascript:, vbscript: and data: (other
 * than images) are replaced by "#"; the rest is escaped. */
void html_url(struct jw *b, const char *url);
/* Percent-encode a path segment's bytes that may not appear in a URL path. */
void url_path_enc(struct jw *b, const char *s);
/* The Location of a redirect built from a request path: prefix (a site root,
 * trusted) + path (from the request), percent-encoded like url_path_enc,
 * and always a path on this origin: exactly one leading '/', never "//" or
 * "/\" (which browsers read as another host), whatever the request sent.
 * Every redirect to a request path goes through it. NULL only for a location
 * past SIZE_MAX / 2 bytes (json/jsonw.h). */
const char *site_location(struct arena *a, const char *prefix, const char *path);
/* An emoji as GitBook stores it (the characters, or code points in hex
 * joined by '-') as HTML text. */
void html_emoji(struct jw *b, const char *emoji);
/* A CSS color "#rgb", "#rrggbb" or "#rrggbbaa"; anything else is refused (false). */
bool css_color_ok(const char *s);
/* GitHub's anchor of a heading text (format/markdown.h md_sections): lower-cased,
 * spaces to '-', other characters but [a-z0-9_-] dropped. */
char *html_anchor(struct arena *a, const char *text);

/* ---- markdown to HTML (md_html.c) ---- */

/* Where a link of the page leads: NULL keeps the target as written. */
typedef const char *(*md_link_fn)(void *ctx, const char *target);

/* The page's markdown (frontmatter skipped) as HTML: cmark-gfm with tables,
 * task lists, strikethrough and autolinks; raw HTML is not passed through;
 * headings get ids; GitBook's blocks become HTML:
 *   {% hint style="info|warning|danger|success" %} ... {% endhint %}   callout
 *   {% tabs %}{% tab title="A" %} ... {% endtab %}{% endtabs %}       tabs (CSS only)
 *   {% code title="x" %} ```...``` {% endcode %}                       titled code
 *   {% embed url="..." %}                                               a link
 *   any other {% x %} ... {% endx %}                                    its content
 * link (may be NULL) rewrites link and image destinations first. */
struct md_headings {
	struct md_heading {
		int level;        /* 2 or 3 */
		const char *id;   /* the anchor */
		const char *text; /* plain text */
	} items[64];
	int n;
	/* When set (by the caller): a level-1 heading that opens the page with
	 * this text is left out (the layout shows the title already). */
	const char *skip_title;
};
int md_to_html(struct jw *out, struct arena *a, const char *md, size_t len, md_link_fn link, void *ctx);
/* The same, also listing the page's level-2 and level-3 headings into h
 * (the first 64; "On this page"). */
int md_to_html_toc(struct jw *out, struct arena *a, const char *md, size_t len, md_link_fn link, void *ctx,
		   struct md_headings *h);

/* ---- the view of a site a render needs (built by serve.c) ---- */

struct sv_space {
	const struct site_space *ss;
	const char *url;              /* its root URL (no trailing slash; "" at "/") */
	const struct revision *rv;    /* its space's current revision (NULL: empty) */
	const char *title;            /* the space's title */
};

struct sv_section {
	const struct site_section *sec; /* NULL for a site without sections */
	const char *url;
	struct sv_space *spaces;      /* visible, in order */
	int nspaces;
	int def;                      /* index of the default among spaces */
};

struct site_view {
	const struct site *site;
	json_t *custom;               /* the full customization (defaults applied) */
	const char *root;             /* URL path of the site root, no trailing slash ("" for "/") */
	const char *base;             /* scheme://host of absolute URLs (sitemap, llms.txt) */
	const char *css_url;          /* the stylesheet */
	struct sv_section *sections;  /* visible, in order (one with sec NULL when the site has none) */
	int nsections;
	int def;                      /* index of the default section */
	const struct site_section_group *groups;
	int ngroups;
	bool noindex;                 /* unlisted, share-link and visitor-auth sites */
	const char *theme;            /* the visitor's theme (cookie): light, dark, system; NULL: the site's */
	const char *here;             /* the path asked for, under the root (the theme links come back to it) */
	const char *js_url;           /* docsd's script (seo.c); NULL: none */
	/* The web interface's edit-link endpoint (app/edit_link.c), an
	 * absolute URL on the app's origin: set only for sites served under
	 * the site URL (not their own hostname). Each page carries a plain
	 * "Edit" link to it, the same for every visitor (the cache); the app
	 * decides there, as a navigation, with the visitor's session. No
	 * script asks it: the site origin never reaches the app with the
	 * session (README, "Two origins"). */
	const char *edit_url;
	/* Integration scripts (their URLs) that a site installation with
	 * site:script:inject allows: loaded after docsd's own (seo.c); the
	 * page's CSP then comes from site_csp_with_scripts (csp.c). */
	const char *const *scripts;
	int nscripts;
	const json_t *visitor;        /* {"claims": {...}} or NULL */
};

/* What one page render shows. */
struct sv_page {
	int section, space;           /* indices into the view */
	const struct rev_page *page;  /* NULL: the 404 page, or a search page */
	const char *body_md;          /* the page's markdown */
	const char *search_q;         /* a search page: the query (results below) */
	const struct sv_hit *hits;
	int nhits;
	/* hreflang: the page in its space's translations that the site shows
	 * (and in its own language), URL paths from the root of the origin. */
	const struct sv_alt {
		const char *lang, *url;
	} *alts;
	int nalts;
};

struct sv_hit {
	const char *url, *title, *section, *excerpt, *space;
};

/* A page that is shown with a body: a document, or a computed page (an
 * OpenAPI reference, whose markdown serve.c has made). */
static inline bool sv_page_readable(const struct rev_page *p)
{
	return p->type == PAGE_DOCUMENT || p->type == PAGE_COMPUTED;
}

/* URL path of page p of space sp (the first page of a space is its root). */
const char *sv_page_url(struct arena *a, const struct sv_space *sp, const struct rev_page *p);
/* The URL path of page p's markdown twin: its URL + ".md", or for the
 * first page of a space (shown at the space's root) the root + "/index.md". */
const char *sv_twin_url(struct arena *a, const struct sv_space *sp, const struct rev_page *p);
/* The first readable page (sv_page_readable) of a revision in tree order, or NULL. */
const struct rev_page *sv_first_page(const struct revision *rv);
/* The document pages in reading order (for previous/next): *out from a. */
int sv_reading_order(struct arena *a, const struct revision *rv, const struct rev_page ***out, int *n);

/* Where rest (the path under the root, no leading '/') leads: a visible
 * section by its path (else the default), then a site space of it by its
 * path (else the default), and *path the page path left. */
void sv_resolve(const struct site_view *v, const char *rest, int *sec, int *sp, const char **path);
/* The document a page path shows ("": the first page; a group: its first
 * document), or NULL. */
const struct rev_page *sv_page_at(const struct revision *rv, const char *path);

/* The whole HTML page (layout, navigation, content) into out. status 404:
 * the site's not-found page. */
int site_render_page(struct jw *out, struct arena *a, const struct site_view *v, const struct sv_page *pg);
/* llms.txt: the site's title, and a list of its pages' markdown twins. */
int site_render_llms(struct jw *out, struct arena *a, const struct site_view *v);
/* The markdown twin of page p of space sp ({page URL}.md, and each page of
 * llms-full.txt): "# title", the description, and md (already decided for
 * the visitor) with GitBook's blocks as plain markdown and every page and
 * file link absolute (twin.c). */
int site_render_twin(struct jw *out, struct arena *a, const struct site_view *v, const struct sv_space *sp,
		     const struct rev_page *p, const char *md);
/* sitemap.xml of every visible page. */
int site_render_sitemap(struct jw *out, struct arena *a, const struct site_view *v);
/* robots.txt: everything allowed (public) or disallowed. */
void site_render_robots(struct jw *out, const struct site_view *v);

/* ---- readers and search engines (seo.c) ---- */

/* The html element's data-theme: light, dark or auto (the system's). */
const char *site_theme_attr(const struct site_view *v);
/* In the head: canonical link, hreflang alternates, Open Graph and Twitter
 * tags (title, description, the site's social preview image), the script. */
void site_head_meta(struct jw *b, struct arena *a, const struct site_view *v, const struct sv_page *pg,
		    const char *title, const char *desc);
/* Light / Dark / System links ({root}/~theme/{mode}?to={here}): a cookie,
 * no script. Nothing when the site's theme is not toggeable. */
void site_theme_toggle(struct jw *b, const struct site_view *v);
/* The section, the site space (when the section has several) and the
 * page's ancestors above its title. */
void site_breadcrumbs(struct jw *b, struct arena *a, const struct site_view *v, const struct sv_page *pg);
/* "Last updated <date>": the page's updatedAt, else its revision's time. */
void site_last_updated(struct jw *b, const struct sv_space *sp, const struct rev_page *p);
/* sitemap.xml: an index of one sitemap per visible site space
 * ({root}/~sitemap/{siteSpaceId}.xml) with its lastmod. */
int site_render_sitemap_index(struct jw *out, const struct site_view *v);
/* One site space's sitemap: 0, 1 when the view has no such site space. */
int site_render_sitemap_space(struct jw *out, struct arena *a, const struct site_view *v, const char *site_space_id);
/* The search endpoint's JSON: {query, results: [{title, url, section?, excerpt?, space?}]}. */
void site_search_json(struct jw *out, const struct sv_page *pg);

/* ---- GitBook's API blocks in a page (api_blocks.c) ---- */
struct dom;
/* md with each {% openapi %}, {% openapi-operation %} and spec-based
 * {% swagger %} block replaced by its operation's markdown from org_id's
 * specs (*out is md itself when it has none); from a. */
int site_api_blocks(struct dom *d, const char *org_id, struct arena *a, const char *md, const char **out);

struct req;
/* ---- KaTeX and highlight.js, when the server has them (vendor.c) ---- */
/* The stylesheet and scripts a page with math (math) or code (code) loads,
 * for those of Debian's libjs-katex and libjs-highlight.js that are
 * installed; nothing when neither is (the page reads without them). */
void site_vendor_tags(struct jw *out, const struct site_view *v, bool math, bool code);
/* Answer {root}/~assets/vendor/<path>: a file of those packages, or
 * docsd's enhance.js; 404 for anything else. */
int site_vendor_serve(struct req *r, const char *path);

/* ---- the stylesheet (assets.c) ---- */
extern const char site_css[];
extern const size_t site_css_len;
/* A short hash of site_css for its URL (?v=). */
const char *site_css_version(void);
/* docsd's one script (search as you type, Ctrl/Cmd+K, the outline's
 * current section), served at {root}/~assets/site.js?v=<hash>. */
extern const char site_js[];
extern const size_t site_js_len;
const char *site_js_version(void);

/* ---- visitor tokens (visitor.c) ---- */

/* The longest a visitor token may stay valid: its exp at most this far past
 * now. A backend issues short-lived tokens; one without exp, or valid for
 * longer, would be a password that can never be revoked but by changing the
 * site's key. */
#define VISITOR_TOKEN_MAX_LIFETIME (30 * 24 * 3600)

/* Verify an HS256 JWT with key at time now (epoch seconds): the signature,
 * alg HS256, no crit header (RFC 7515 4.1.11: docsd understands no
 * extension), exp present, numeric, after now and at most
 * VISITOR_TOKEN_MAX_LIFETIME after it, nbf (when present) not after now.
 * 0 with *claims (a new reference) set, or ERR_UNAUTHORIZED. */
int visitor_jwt_verify(const char *token, const char *key, int64_t now, json_t **claims);

struct req;
/* GitBook's unsigned claims of request r: the gitbook-visitor-public
 * cookie's JSON object (public_cookie, percent-encoded; NULL when none) with
 * the ?visitor.<name>= parameters over it. A new reference, or NULL when
 * there are none. */
json_t *visitor_unsigned_claims(struct req *r, const char *public_cookie);
/* What conditions read: {"claims": jwt_claims + {"unsigned": unsigned}}
 * (a new reference; unsigned_claims is taken over), or NULL for an
 * anonymous visitor. Only the JWT opens visitor-auth content; this is for
 * conditions and adaptive content. */
json_t *visitor_json_of(const json_t *jwt_claims, json_t *unsigned_claims);
/* The render-cache and ETag part of a visitor: "-" for none, else the
 * SHA-256 of its claims in a canonical form (sorted keys), so visitors
 * with different claims never share a render. NULL when it cannot be
 * computed (the caller must not serve from the cache then). */
const char *visitor_cache_key(struct arena *a, const json_t *visitor);

/* ---- the render cache (cache.c), owned by the server context ---- */
struct sitecache;
int sitecache_new(struct sitecache **out, size_t max_bytes);
void sitecache_free(struct sitecache *c); /* accepts NULL */
/* 1 with a copy of the entry in a when key is cached. */
int sitecache_get(struct sitecache *c, const char *key, struct arena *a, const char **body, size_t *len,
		  int *status, const char **ctype);
void sitecache_put(struct sitecache *c, const char *key, const char *body, size_t len, int status,
		   const char *ctype);

/* ---- the HTTP entry (serve.c) ---- */
struct req;
/* Whether r is a published-site request: its path is under /sites/, or its
 * Host header is not the public URL's host and names a site. */
bool site_request(struct req *r);

/* The two origins (README, "Two origins"). The API's integration script
 * route (api/routes.c getIntegrationSiteScript): served on the site origin
 * only, like every byte a user or an integration chooses. */
#define SITE_SCRIPT_ROUTE "/v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}/script.js"
/* On the site listener: a site's page (0, answered), one of the few API
 * routes it serves (1: the router goes on with it: /healthz, /files/,
 * /pdf/, SITE_SCRIPT_ROUTE), or 404 for everything else (0): no API
 * route, no web interface page, no session. */
int site_origin_serve(struct req *r);
/* On the main listener: a path that lives on the site origin now
 * ({prefix}/sites/..., SITE_SCRIPT_ROUTE). */
bool site_main_moved_path(struct req *r);
/* Answer r with a 308 to the same path and query on the site origin. */
int site_moved_to_site_origin(struct req *r);
/* Answer a published-site request (always responds; returns 0). */
int site_serve(struct req *r);

/* The CSP of a page loading integration scripts (csp.c): the base policy
 * plus script_origin (where docsd serves the scripts) in script-src, plus
 * the plain host and scheme sources of each integration's declared policy
 * in the fetch directives it names (keywords, nonces, hashes and a bare *
 * in script-src dropped); into a. */
const char *site_csp_with_scripts(struct arena *a, const char *script_origin, const char *const *policies, int n);

#endif
