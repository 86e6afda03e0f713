/*
 * import.c - website, HTML page and markdown file import (import.h draws the
 * two steps and lists the rules and limits).
 *
 * The crawl keeps everything in the request's arena: the URLs found (a
 * breadth-first queue with their depth), the pages converted (their markdown
 * with absolute URLs), then the images fetched. Only when the crawl is over
 * is it known which pages and images made it, so links are mapped last: each
 * page's markdown goes through md_rewrite_links once, a link to an imported
 * page becoming "./import-page-<k>[#anchor]" and an imported image
 * "./import-file-<k>", the refs of the batch dom_import writes (whose
 * content_changes.c turns them into /pages/<id> and /files/<id>).
 */
#include "domain/import.h"
#include "format/html_markdown.h"
#include "format/markdown.h"
#include "model/validate.h"
#include "format/weburl.h"
#include "domain/merge_rules.h"
#include "util/err.h"
#include "util/fetch.h"
#include "util/image.h"
#include "util/util.h"
#include "util/fnv.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PAGE_REF "import-page-"
#define FILE_REF "import-file-"
#define TITLE_MAX 256   /* insert_page's title limit, in characters */
#define SUBJECT_MAX 100 /* a change request's subject */
#define FILES_PER_CHANGE 20

/* GitBook's ImportContentSource, and which of them docsd imports. */
static const char *const all_sources[] = { "website", "docx",       "markdown", "html",        "zip",
					   "confluence", "github-wiki", "notion", "google-docs", NULL };

int dom_import_args(struct arena *a, const char *url, const char *source, struct import_args *out)
{
	struct weburl w;
	char *norm;
	bool known = false;

	memset(out, 0, sizeof(*out));
	if (!url || !*url)
		return err_set(ERR_INVALID, "url: is required");
	if (strlen(url) > IMPORT_MAX_URL)
		return err_set(ERR_INVALID, "url: at most %d characters", IMPORT_MAX_URL);
	if (!(norm = weburl_normalize(a, url, &w)))
		return err_set(ERR_INVALID, "url: must be an absolute http or https URL");
	if (w.has_userinfo)
		return err_set(ERR_INVALID, "url: must not contain a user name or password");
	out->url = weburl_strip_fragment(a, norm);
	if (!source)
		return err_set(ERR_INVALID, "source: is required");
	for (int i = 0; all_sources[i]; i++)
		known = known || strcmp(source, all_sources[i]) == 0;
	if (!known)
		return err_set(ERR_INVALID, "source: must be one of website, docx, markdown, html, zip, confluence, "
					    "github-wiki, notion, google-docs");
	if (strcmp(source, "website") == 0)
		out->source = IMPORT_WEBSITE;
	else if (strcmp(source, "html") == 0)
		out->source = IMPORT_HTML;
	else if (strcmp(source, "markdown") == 0)
		out->source = IMPORT_MARKDOWN;
	else
		return err_set(ERR_INVALID, "source: \"%s\" is not supported by this server; supported: website, html, markdown",
			       source);
	return 0;
}

/* ---- a string map (URL -> index), open addressing, in the arena ---- */

#define MAP_CAP 4096 /* twice what it may hold: IMPORT_MAX_FOUND pages and aliases, or images */

struct strmap {
	const char *keys[MAP_CAP];
	int vals[MAP_CAP];
	int n;
};

static size_t map_slot(const struct strmap *m, const char *k)
{
	uint64_t h = fnv1a_str(k);
	size_t i;

	for (i = (size_t)(h & (MAP_CAP - 1)); m->keys[i] && strcmp(m->keys[i], k) != 0; i = (i + 1) & (MAP_CAP - 1))
		;
	return i;
}

/* The value of k, or -1. */
static int map_get(const struct strmap *m, const char *k)
{
	size_t i = map_slot(m, k);

	return m->keys[i] ? m->vals[i] : -1;
}

/* Set k (which must outlive the map); false when the map is full. */
static bool map_put(struct strmap *m, const char *k, int v)
{
	size_t i = map_slot(m, k);

	if (!m->keys[i]) {
		if (m->n >= MAP_CAP / 2)
			return false;
		m->keys[i] = k;
		m->n++;
	}
	m->vals[i] = v;
	return true;
}

/* ---- the crawl ---- */

struct found {
	const char *url; /* no fragment */
	int depth;
};

struct cpage {
	const char *url, *title, *markdown;
	size_t len;
	const char **images;
	size_t nimages;
};

struct crawl {
	const struct server *srv;
	struct arena *a;
	int64_t deadline_ns;
	size_t bytes_left;
	struct weburl scope;   /* the start page's scheme, host and port */
	const char *dir;       /* and directory ("/docs/"): pages must be under it */
	struct strmap *seen;   /* page URLs found -> index in found[] */
	struct found *found;
	int nfound;
	struct strmap *by_url; /* page URLs (and URLs that redirected to them) -> index in pages[] */
	struct cpage *pages;
	int npages;
	struct strmap *images; /* image URLs considered -> index in the fetched images, or -1 */
	struct fetched_file *fetched;
	const char **names;
	int nfetched, considered;
};

/* Fetch url within what is left of the import's bytes and time (and at most
 * max bytes): 0 with *fr filled, else the fetch's err.h code with fr->error
 * saying why. */
static int fetch(struct crawl *c, const char *url, size_t max, struct fetch_result *fr)
{
	int64_t left_ms = (c->deadline_ns - clock_mono_ns()) / 1000000;
	struct fetch_opts fo = {
		.max_bytes = max < c->bytes_left ? max : c->bytes_left,
		.timeout_ms = left_ms < IMPORT_FETCH_TIMEOUT_MS ? (long)left_ms : IMPORT_FETCH_TIMEOUT_MS,
		.allow_private = c->srv && c->srv->cfg.allow_private_network,
	};
	int rc;

	/* A stopping server waits for its prefetch steps: no new fetch. */
	if (c->srv && atomic_load(&c->srv->stopping)) {
		memset(fr, 0, sizeof(*fr));
		snprintf(fr->error, sizeof(fr->error), "the server is stopping");
		return err_set(ERR_UNAVAILABLE, "%s", fr->error);
	}
	if (fo.max_bytes == 0 || fo.timeout_ms <= 0) {
		memset(fr, 0, sizeof(*fr));
		snprintf(fr->error, sizeof(fr->error), "url: the import's budget (%zu MB, %ld s in all) is used up",
			 IMPORT_MAX_BYTES >> 20, IMPORT_BUDGET_MS / 1000);
		return err_set(ERR_INVALID, "%s", fr->error);
	}
	if ((rc = fetch_url(url, &fo, fr)) == 0)
		c->bytes_left -= fr->len;
	return rc;
}

static bool is_html_type(const char *ct)
{
	return !*ct || strcmp(ct, "text/html") == 0 || strcmp(ct, "application/xhtml+xml") == 0;
}

/* The URL of a page, in the normal form, without its fragment; NULL when it
 * is not an http(s) URL. */
static const char *page_url(struct crawl *c, const char *url, struct weburl *parts)
{
	char *n = weburl_normalize(c->a, url, parts);

	return n ? weburl_strip_fragment(c->a, n) : NULL;
}

/* Same scheme, host and port as the start page, and under its directory. */
static bool in_scope(const struct crawl *c, const struct weburl *u)
{
	return strcmp(u->scheme, c->scope.scheme) == 0 && strcmp(u->host, c->scope.host) == 0 &&
	       u->port == c->scope.port && strncmp(u->path, c->dir, strlen(c->dir)) == 0;
}

/* Links to these are files, not pages: not followed. */
static bool page_like(const char *path)
{
	static const char *const files[] = { ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".ico", ".bmp",
					     ".css", ".js",  ".mjs",  ".json", ".xml", ".pdf",  ".zip", ".gz",
					     ".tgz", ".tar", ".bz2",  ".xz",   ".7z",  ".exe",  ".dmg", ".deb",
					     ".rpm", ".mp3", ".mp4",  ".webm", ".ogg", ".wav",  ".avi", ".mov",
					     ".woff", ".woff2", ".ttf", ".otf", ".eot", ".txt", ".csv", ".md",
					     ".doc", ".docx", ".xls", ".xlsx", ".ppt", ".pptx", NULL };
	const char *seg = strrchr(path, '/'), *dot;

	dot = strrchr(seg ? seg : path, '.');
	if (!dot)
		return true;
	for (int i = 0; files[i]; i++)
		if (strcasecmp(dot, files[i]) == 0)
			return false;
	return true;
}

/* A link found on a page at depth `depth`: one more URL found (and queued)
 * when it is a page of the site not seen before. */
static void discover(struct crawl *c, const char *link, int depth)
{
	struct weburl u;
	const char *url;

	if (c->nfound >= IMPORT_MAX_FOUND || strlen(link) > IMPORT_MAX_URL || !(url = page_url(c, link, &u)))
		return;
	if (!in_scope(c, &u) || !page_like(u.path) || map_get(c->seen, url) >= 0)
		return;
	if (!map_put(c->seen, url, c->nfound))
		return;
	c->found[c->nfound++] = (struct found){ url, depth };
}

/* Up to TITLE_MAX characters of t (UTF-8), or NULL when empty. */
static const char *title_of(struct crawl *c, const char *t)
{
	size_t i = 0;
	int chars = 0;

	if (!t || !*t)
		return NULL;
	while (t[i] && chars < TITLE_MAX) {
		i++;
		while ((t[i] & 0xC0) == 0x80)
			i++;
		chars++;
	}
	return arena_strndup(c->a, t, i);
}

/* A title from the URL's last segment ("getting-started.html" ->
 * "getting-started"), for a page without one. */
static const char *title_from_url(struct crawl *c, const char *url)
{
	struct weburl u;
	const char *seg, *dot;
	size_t n;

	if (!weburl_normalize(c->a, url, &u))
		return NULL;
	n = strlen(u.path);
	while (n > 1 && u.path[n - 1] == '/')
		n--;
	seg = u.path;
	for (size_t i = 0; i < n; i++)
		if (u.path[i] == '/')
			seg = u.path + i + 1;
	n -= (size_t)(seg - u.path);
	dot = memchr(seg, '.', n);
	if (dot && dot > seg)
		n = (size_t)(dot - seg);
	return n ? title_of(c, arena_strndup(c->a, seg, n)) : title_of(c, u.host);
}

/* Add a converted page; its links are found at depth + 1. */
static int add_page(struct crawl *c, const char *url, const char *requested, const struct html_md *md, int depth,
		    bool follow)
{
	struct cpage *p = &c->pages[c->npages];

	p->url = url;
	p->markdown = md->markdown;
	p->len = md->len;
	p->images = md->images;
	p->nimages = md->nimages;
	p->title = title_of(c, md->title);
	if (!map_put(c->by_url, url, c->npages) || (requested && !map_put(c->by_url, requested, c->npages)))
		return err_set(ERR_INTERNAL, "import: too many URLs");
	c->npages++;
	for (size_t i = 0; follow && i < md->nlinks; i++)
		discover(c, md->links[i], depth + 1);
	return 0;
}

/* The site is where the start page is (after its redirects): its scheme,
 * host, port and directory. */
static int set_scope(struct crawl *c, const struct weburl *u)
{
	const char *slash = strrchr(u->path, '/'); /* a normal-form path starts with '/' */

	c->scope = *u;
	c->dir = arena_strndup(c->a, u->path, (size_t)(slash - u->path) + 1);
	return 0;
}

/* Fetch found[i] and, when it is a page of the site not imported yet, add
 * it. For the start page (i == 0) every failure is the import's; for the
 * others it only leaves the page out. */
static int crawl_page(struct crawl *c, int i, enum import_source source)
{
	struct fetch_result fr;
	struct html_md md;
	struct weburl u;
	const char *url = c->found[i].url, *final;
	int rc;

	if ((rc = fetch(c, url, IMPORT_PAGE_MAX_BYTES, &fr))) {
		if (i == 0 || rc == ERR_INTERNAL || rc == ERR_UNAVAILABLE)
			return err_set(rc, "%s", fr.error[0] ? fr.error : "url: the fetch failed");
		return 0;
	}
	/* Relative links resolve against where the page really is. */
	if (!(final = fr.url ? page_url(c, fr.url, &u) : NULL))
		final = page_url(c, url, &u);
	if (!final) {
		rc = i == 0 ? err_set(ERR_INVALID, "url: redirected to a URL that is not http or https") : 0;
		goto out;
	}
	if (i == 0) {
		if ((rc = set_scope(c, &u)))
			goto out;
	} else if (!in_scope(c, &u) || map_get(c->by_url, final) >= 0) {
		goto out; /* redirected off the site, or to a page imported already */
	}
	if (!is_html_type(fr.content_type)) {
		if (i == 0)
			rc = err_set(ERR_INVALID, "url: not an HTML page (Content-Type: %s)%s", fr.content_type,
				     source == IMPORT_WEBSITE ? "" : "; use source \"markdown\" for a markdown file");
		goto out;
	}
	if ((rc = html_to_markdown(c->a, (const char *)fr.data, fr.len, final, &md))) {
		/* A later page whose text cannot be decoded is left out, as a
		 * page that is not HTML is; the first one is the caller's 400. */
		if (rc == ERR_INVALID && i > 0)
			rc = 0;
		goto out;
	}
	if (md.truncated) { /* a page longer than a page may be */
		if (i == 0)
			rc = err_set(ERR_INVALID, "url: the page's markdown would pass %zu bytes", HTML_MD_MAX_BYTES);
		goto out;
	}
	if (!map_put(c->seen, final, i)) {
		rc = err_set(ERR_INTERNAL, "import: too many URLs");
		goto out;
	}
	/* The same content under another URL (/docs/ and /docs/index.html): one
	 * page, which links to either URL lead to. */
	for (int j = 0; j < c->npages; j++)
		if (c->pages[j].len == md.len && memcmp(c->pages[j].markdown, md.markdown, md.len) == 0) {
			if (!map_put(c->by_url, final, j) || !map_put(c->by_url, url, j))
				rc = err_set(ERR_INTERNAL, "import: too many URLs");
			goto out;
		}
	/* Links of a page at the last depth are found (counted), not fetched. */
	rc = add_page(c, final, strcmp(final, url) ? url : NULL, &md, c->found[i].depth, source == IMPORT_WEBSITE);
out:
	fetch_result_free(&fr);
	return rc;
}

/* One markdown file, as is. */
static int crawl_markdown(struct crawl *c, const char *url)
{
	struct fetch_result fr;
	struct html_md md = { 0 };
	struct weburl u;
	const char *final;
	int rc;

	if ((rc = fetch(c, url, HTML_MD_MAX_BYTES, &fr)))
		return err_set(rc, "%s", fr.error[0] ? fr.error : "url: the fetch failed");
	if (!(final = fr.url ? page_url(c, fr.url, &u) : NULL))
		final = page_url(c, url, &u);
	if (!final)
		rc = err_set(ERR_INVALID, "url: redirected to a URL that is not http or https");
	else if (strcmp(fr.content_type, "text/html") == 0 || strcmp(fr.content_type, "application/xhtml+xml") == 0)
		rc = err_set(ERR_INVALID, "url: an HTML page, not a markdown file; use source \"html\" or \"website\"");
	else if (strlen((const char *)fr.data) != fr.len || utf8_len((const char *)fr.data) < 0)
		rc = err_set(ERR_INVALID, "url: not a text file in UTF-8");
	else
		md.markdown = arena_strndup(c->a, (const char *)fr.data, fr.len);
	fetch_result_free(&fr);
	if (rc || (rc = set_scope(c, &u))) /* the page tree needs a start directory */
		return rc;
	md.len = strlen(md.markdown);
	/* The batch would refuse bad frontmatter naming changes[i]: name the url. */
	struct md_front fm;
	if (md_frontmatter(c->a, md.markdown, md.len, &fm))
		return err_set(ERR_INTERNAL, "out of memory");
	if (fm.present && fm.error)
		return err_set(ERR_INVALID, "url: the file's frontmatter: %s", fm.error);
	if (fm.present && fm.emoji && *fm.emoji && !valid_emoji(fm.emoji))
		return err_set(ERR_INVALID, "url: the file's frontmatter emoji is not one emoji");
	return add_page(c, final, strcmp(final, url) ? url : NULL, &md, 0, false);
}

/* The images of the pages, in page order, each URL once. */
static int crawl_images(struct crawl *c)
{
	for (int p = 0; p < c->npages; p++) {
		for (size_t k = 0; k < c->pages[p].nimages; k++) {
			const char *url = c->pages[p].images[k], *type = NULL, *name;
			struct fetch_result fr;
			int width, height, rc;
			if (map_get(c->images, url) != -1 || c->considered >= IMPORT_MAX_IMAGES)
				continue;
			if (!map_put(c->images, url, -2))
				return err_set(ERR_INTERNAL, "import: too many URLs");
			c->considered++;
			if ((rc = fetch(c, url, CONTENT_FILE_MAX_BYTES, &fr))) {
				if (rc == ERR_INTERNAL || rc == ERR_UNAVAILABLE)
					return err_set(rc, "%s", fr.error);
				continue;
			}
			/* An image by its type, or by its bytes when the server says nothing useful. */
			if (strncmp(fr.content_type, "image/", 6) == 0 && valid_media_type(fr.content_type))
				type = fr.content_type;
			if (!type && image_dimensions(fr.data, fr.len, &width, &height, &type) != 0)
				type = NULL;
			if (!type) {
				fetch_result_free(&fr);
				continue;
			}
			struct fetched_file *ff = &c->fetched[c->nfetched];
			unsigned char *copy = arena_alloc(c->a, fr.len + 1);
			const char *slash = strrchr(url, '/');
			size_t q = slash ? strcspn(slash + 1, "?#") : 0;
			name = q && q <= 200 ? arena_strndup(c->a, slash + 1, q) : arena_strdup(c->a, "image");
			*ff = (struct fetched_file){ .url = url, .data = copy, .len = fr.len,
						     .content_type = arena_strdup(c->a, type) };
			memcpy(copy, fr.data, fr.len);
			fetch_result_free(&fr);
			c->names[c->nfetched] = name;
			map_put(c->images, url, c->nfetched++);
		}
	}
	return 0;
}

/* ---- the pages' tree and links ---- */

/* A page's place in the site: its path without a trailing "/", "index.html"
 * or ".html" ("/docs/guide/", "/docs/guide.html" -> "/docs/guide"). */
static char *path_key(struct crawl *c, const char *url)
{
	struct weburl u;
	char *k;
	size_t n;

	if (!weburl_normalize(c->a, url, &u))
		return NULL;
	k = arena_strdup(c->a, u.path);
	n = strlen(k);
	if (n >= 10 && strcmp(k + n - 10, "index.html") == 0)
		n -= 10;
	else if (n >= 9 && strcmp(k + n - 9, "index.htm") == 0)
		n -= 9;
	while (n > 0 && k[n - 1] == '/')
		n--;
	if (n >= 5 && strcmp(k + n - 5, ".html") == 0)
		n -= 5;
	else if (n >= 4 && strcmp(k + n - 4, ".htm") == 0)
		n -= 4;
	k[n] = '\0';
	return k;
}

/* parent[i]: the page whose key is the longest proper ancestor of page i's
 * below the start directory, or -1. Keys only get shorter going up: no cycle. */
static int tree_parents(struct crawl *c, int *parent)
{
	char **keys = arena_alloc(c->a, sizeof(char *) * (size_t)c->npages);
	size_t root = strlen(c->dir) - 1; /* "/docs/" -> keys longer than "/docs" */

	for (int i = 0; i < c->npages; i++)
		if (!(keys[i] = path_key(c, c->pages[i].url)))
			return err_set(ERR_INTERNAL, "out of memory");
	for (int i = 0; i < c->npages; i++) {
		char *prefix = arena_strdup(c->a, keys[i]), *slash;
		parent[i] = -1;
		while (parent[i] < 0 && (slash = strrchr(prefix, '/')) && (size_t)(slash - prefix) > root) {
			*slash = '\0';
			for (int j = 0; j < c->npages && parent[i] < 0; j++)
				if (j != i && strcmp(keys[j], prefix) == 0)
					parent[i] = j;
		}
	}
	return 0;
}

/* Pages in the order of the batch: each root (crawl order), then its
 * descendants depth first, children in crawl order. */
static void preorder(int n, const int *parent, int at, int *order, int *k)
{
	for (int i = 0; i < n; i++)
		if (parent[i] == at) {
			order[(*k)++] = i;
			preorder(n, parent, i, order, k);
		}
}

struct relink {
	struct crawl *c;
	const int *place; /* crawl index -> index in the batch */
};

/* md_rewrite_links: imported pages and images to batch refs. */
static const char *relink(void *ctx, const char *target)
{
	struct relink *r = ctx;
	const char *hash = strchr(target, '#'), *url = target;
	int i;

	if (hash)
		url = arena_strndup(r->c->a, target, (size_t)(hash - target));
	if ((i = map_get(r->c->by_url, url)) >= 0)
		return arena_printf(r->c->a, "./" PAGE_REF "%d%s", r->place[i], hash ? hash : "");
	if ((i = map_get(r->c->images, target)) >= 0)
		return arena_printf(r->c->a, "./" FILE_REF "%d", i);
	return NULL;
}

static int finish(struct crawl *c, struct import_crawl *out)
{
	int *parent = arena_alloc(c->a, sizeof(int) * (size_t)c->npages);
	int *order = arena_alloc(c->a, sizeof(int) * (size_t)c->npages);
	int *place = arena_alloc(c->a, sizeof(int) * (size_t)c->npages);
	struct relink r = { c, place };
	int k = 0, rc;

	out->pages = arena_alloc(c->a, sizeof(*out->pages) * (size_t)c->npages);
	if ((rc = tree_parents(c, parent)))
		return rc;
	preorder(c->npages, parent, -1, order, &k);
	for (int i = 0; i < k; i++)
		place[order[i]] = i;
	for (int i = 0; i < k; i++) {
		const struct cpage *p = &c->pages[order[i]];
		struct import_page *o = &out->pages[i];
		o->url = p->url;
		o->parent = parent[order[i]] >= 0 ? place[parent[order[i]]] : -1;
		o->title = p->title;
		if (!o->title && !md_title(c->a, p->markdown, p->len))
			o->title = title_from_url(c, p->url);
		if (!(o->markdown = md_rewrite_links(c->a, p->markdown, p->len, relink, &r)))
			return err_set(ERR_INTERNAL, "out of memory");
	}
	out->npages = k;
	out->images = (struct fetched_files){ c->fetched, c->nfetched };
	out->image_names = c->names;
	out->imported = k + c->nfetched;
	out->total = (out->args.source == IMPORT_WEBSITE ? c->nfound : k) + c->considered;
	return 0;
}

static int crawl(const struct server *srv, struct arena *a, struct import_crawl *out)
{
	struct crawl c = { .srv = srv, .a = a, .bytes_left = IMPORT_MAX_BYTES };
	int rc;

	c.deadline_ns = clock_mono_ns() + IMPORT_BUDGET_MS * 1000000;
	c.seen = arena_alloc(a, sizeof(*c.seen));
	c.by_url = arena_alloc(a, sizeof(*c.by_url));
	c.images = arena_alloc(a, sizeof(*c.images));
	c.found = arena_alloc(a, sizeof(*c.found) * IMPORT_MAX_FOUND);
	c.pages = arena_alloc(a, sizeof(*c.pages) * IMPORT_MAX_PAGES);
	c.fetched = arena_alloc(a, sizeof(*c.fetched) * IMPORT_MAX_IMAGES);
	c.names = arena_alloc(a, sizeof(*c.names) * IMPORT_MAX_IMAGES);
	memset(c.seen, 0, sizeof(*c.seen));
	memset(c.by_url, 0, sizeof(*c.by_url));
	memset(c.images, 0, sizeof(*c.images));
	if (out->args.source == IMPORT_MARKDOWN) {
		if ((rc = crawl_markdown(&c, out->args.url)))
			return rc;
		return finish(&c, out);
	}
	c.found[c.nfound++] = (struct found){ out->args.url, 0 };
	map_put(c.seen, out->args.url, 0);
	if ((rc = crawl_page(&c, 0, out->args.source)))
		return rc;
	/* Breadth first: found[] is the queue, in the order links were met. */
	for (int i = 1; i < c.nfound && c.npages < IMPORT_MAX_PAGES; i++) {
		if (c.found[i].depth > IMPORT_MAX_DEPTH)
			continue; /* found, counted, not fetched */
		if (clock_mono_ns() >= c.deadline_ns || c.bytes_left == 0)
			break;
		if ((rc = crawl_page(&c, i, out->args.source)))
			return rc;
	}
	if ((rc = crawl_images(&c)))
		return rc;
	return finish(&c, out);
}

/* ---- access ---- */

static void import_subject(const char *url, char out[SUBJECT_MAX + 1])
{
	/* The URL is ASCII (weburl's normal form): bytes are characters. */
	snprintf(out, SUBJECT_MAX + 1, "Import of %s", url);
}

/* Whether the actor may import into the space through a merged change
 * request: the merge's role, an editable space, and merge rules that a new
 * change request without reviews passes. */
static int space_import_check(struct dom *d, const char *space_id, const char *subject, bool locked, struct space *s)
{
	struct change_request cr = { 0 };
	int rc = locked ? dom_space_get_locked(d, space_id, ROLE_REVIEW, s) : dom_space_get(d, space_id, ROLE_REVIEW, s);

	if (rc || (rc = dom_space_editable(s)))
		return rc;
	cr.id = "";
	cr.space_id = s->id;
	cr.subject = subject;
	cr.revision = cr.revision_initial = s->revision;
	return dom_merge_rules_check(d, s, &cr);
}

int dom_import_prefetch(const struct server *srv, struct arena *a, const char *user_id, const char *space_id,
			const char *cr_key, const struct import_args *args, struct import_crawl *out)
{
	struct store_tx tx;
	struct space s;
	struct dom d;
	char subject[SUBJECT_MAX + 1];
	int rc;

	memset(out, 0, sizeof(*out));
	out->args = *args;
	if ((rc = store_tx_begin(srv->store, &tx, 0, a)))
		return rc;
	dom_init(&d, srv, &tx, a, user_id);
	import_subject(args->url, subject);
	rc = cr_key ? dom_cr_content_check(&d, space_id, cr_key) : space_import_check(&d, space_id, subject, false, &s);
	store_tx_rollback(&tx); /* read only; nothing is held while crawling */
	if (rc)
		return rc;
	return crawl(srv, a, out);
}

/* ---- writing ---- */

/* The crawl as one batch: the images (20 to an insert_files change), then
 * the pages, each after its parent. */
static int import_changes(const struct import_crawl *c, json_t **out, int *n)
{
	json_t *changes = json_array(), *files = NULL;
	int rc = 0;

	*out = NULL;
	*n = 0;
	if (!changes)
		return err_set(ERR_INTERNAL, "out of memory");
	for (int i = 0; i < c->images.n && !rc; i++) {
		char ref[32];
		snprintf(ref, sizeof(ref), FILE_REF "%d", i);
		if (i % FILES_PER_CHANGE == 0) {
			files = json_array();
			if (!files || json_array_append_new(changes, json_pack("{s:s,s:o}", "operation", "insert_files", "files",
										files)))
				rc = err_set(ERR_INTERNAL, "out of memory");
		}
		if (!rc && json_array_append_new(files, json_pack("{s:s,s:s,s:s}", "ref", ref, "name", c->image_names[i],
								    "url", c->images.items[i].url)))
			rc = err_set(ERR_INTERNAL, "out of memory");
	}
	for (int i = 0; i < c->npages && !rc; i++) {
		const struct import_page *p = &c->pages[i];
		char ref[32], into[32];
		json_t *ch;
		snprintf(ref, sizeof(ref), PAGE_REF "%d", i);
		snprintf(into, sizeof(into), PAGE_REF "%d", p->parent);
		ch = json_pack("{s:s,s:s,s:{s:s}}", "operation", "insert_page", "ref", ref, "document", "markdown",
			       p->markdown);
		/* jansson refuses text that is not UTF-8: such a title is left out. */
		if (ch && p->title)
			json_object_set_new(ch, "title", json_string(p->title));
		if (!ch || (p->parent >= 0 && json_object_set_new(ch, "into", json_string(into))) ||
		    json_array_append_new(changes, ch))
			rc = err_set(ERR_INTERNAL, "page %d of the import could not be written as JSON", i);
	}
	if (rc) {
		json_decref(changes);
		return rc;
	}
	*out = changes;
	*n = (int)json_array_size(changes);
	return 0;
}

int dom_import(struct dom *d, const char *space_id, const char *cr_key, const struct import_crawl *crawl,
	       struct import_result *out)
{
	struct space s;
	struct change_request cr;
	struct cr_merge_result m;
	struct cr_new in = { 0 };
	char subject[SUBJECT_MAX + 1];
	json_t *changes = NULL;
	int n, rc;

	memset(out, 0, sizeof(*out));
	memset(&s, 0, sizeof(s));
	if ((rc = import_changes(crawl, &changes, &n)))
		return rc;
	if (cr_key) {
		rc = dom_cr_content_batch(d, space_id, cr_key, changes, n, &crawl->images, &s, &cr, NULL);
		out->revision = cr.revision;
		goto done;
	}
	/* The space: its row locked first (no other merge in between), then a
	 * change request that holds the import, merged. */
	import_subject(crawl->args.url, subject);
	in.subject = subject;
	if ((rc = space_import_check(d, space_id, subject, true, &s)) || (rc = dom_cr_create(d, s.id, &in, &s, &cr)) ||
	    (rc = dom_cr_content_batch(d, s.id, cr.id, changes, n, &crawl->images, &s, &cr, NULL)) ||
	    (rc = dom_cr_merge(d, s.id, cr.id, &m)))
		goto done;
	if (m.nconflicts) {
		rc = err_set(ERR_CONFLICT, "the imported pages conflict with the space's content; import into a change "
					   "request instead");
		goto done;
	}
	out->revision = m.revision;
done:
	json_decref(changes);
	out->space_id = s.id;
	out->imported = crawl->imported;
	out->total = crawl->total;
	return rc;
}
