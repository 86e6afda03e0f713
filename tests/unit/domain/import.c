/*
 * Imports in the domain layer (domain/import.h), in process on SQLite and
 * PostgreSQL, from a tiny HTTP server on 127.0.0.1 (so the server context
 * allows private addresses, as --allow-private-network does): the request's
 * url and source checked (400 naming the field); who may import into a space
 * (review, an editable space, merge rules a new change request passes) or a
 * change request (edit, an active change request), checked before anything is
 * fetched; a markdown file, an HTML page and a website crawl written as pages
 * and files, into the space through a merged change request or into a change
 * request's head; the start page's failures (HTTP errors, the wrong kind of
 * content, bad frontmatter, text that is not UTF-8, a refused address, a
 * stopping server) failing the import with the reason and writing nothing.
 *
 * The actors: ada, admin of the organization; rev, with review; ed, with
 * edit; rod, with read; sam, not a member.
 */
#include "domain/content.h"
#include "domain/import.h"
#include "fixtures.h"
#include "unit.h"
#include "util/err.h"
#include "util/util.h"

#include <jansson.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* ---- the site: a route table served over HTTP/1.0, one connection at a time ---- */

static const unsigned char PNG[] = "\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00\x00\x01"
				   "\x00\x00\x00\x01\x08\x02\x00\x00\x00\x90\x77\x53\xde\x00\x00\x00\x0c\x49\x44\x41"
				   "\x54\x78\x9c\x63\xf8\xcf\xc0\x00\x00\x03\x01\x01\x00\xc9\xfe\x92\xef\x00\x00\x00"
				   "\x00\x49\x45\x4e\x44\xae\x42\x60\x82";

struct route {
	const char *path, *status, *type;
	const char *body;
	size_t len; /* 0: strlen(body) */
};

static const struct route routes[] = {
	{ "/md/guide.md", "200 OK", "text/markdown", "# Guide\n\nHello from *markdown*.\n", 0 },
	{ "/md/front.md", "200 OK", "text/markdown", "---\ndescription: Front\n---\n# Fronted\n\nBody.\n", 0 },
	{ "/md/bad-front.md", "200 OK", "text/markdown", "---\ntitle: [1, 2]\n---\n# Bad\n", 0 },
	{ "/md/latin1.md", "200 OK", "text/plain", "# Caf\xe9\n", 0 },
	{ "/text.txt", "200 OK", "text/plain", "just text\n", 0 },
	{ "/site/index.html", "200 OK", "text/html; charset=utf-8",
	  "<html><head><title>Site title</title></head><body><h1>Welcome</h1>"
	  "<p>See <a href=\"guide/\">the guide</a>, <a href=\"about.html\">about</a>, "
	  "<a href=\"/other/out.html\">elsewhere</a>.</p><p><img src=\"logo.png\" alt=\"Logo\"></p></body></html>", 0 },
	{ "/site/guide/", "200 OK", "text/html",
	  "<html><body><h1>Guide</h1><p><a href=\"install.html\">Install</a> <a href=\"../index.html\">home</a></p>"
	  "</body></html>", 0 },
	{ "/site/guide/install.html", "200 OK", "text/html",
	  "<html><body><h1>Install</h1><p>Run it. <a href=\"missing.html\">missing</a></p></body></html>", 0 },
	{ "/site/about.html", "200 OK", "text/html", "<html><head><title>About us</title></head><body><p>We write.</p></body></html>", 0 },
	{ "/site/logo.png", "200 OK", "image/png", (const char *)PNG, sizeof(PNG) - 1 },
	{ "/other/out.html", "200 OK", "text/html", "<html><body><h1>Out</h1></body></html>", 0 },
};

static void serve(struct fx_http *s, int fd, const char *req, const char *path)
{
	char head[512];
	const struct route *r = NULL;
	size_t len;

	for (size_t i = 0; i < sizeof(routes) / sizeof(routes[0]) && !r; i++)
		if (strcmp(routes[i].path, path) == 0)
			r = &routes[i];
	if (!r) {
		static const char nf[] = "HTTP/1.0 404 Not Found\r\nContent-Type: text/html\r\nContent-Length: 9\r\n"
					 "Connection: close\r\n\r\nnot found";
		fx_send_all(fd, nf, sizeof(nf) - 1);
		return;
	}
	len = r->len ? r->len : strlen(r->body);
	snprintf(head, sizeof(head), "HTTP/1.0 %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n",
		 r->status, r->type, len);
	fx_send_all(fd, head, strlen(head));
	fx_send_all(fd, r->body, len);
}

/* ---- url and source (no store) ---- */

UNIT_TEST(import_args_checks)
{
	struct arena a;
	struct import_args ia;
	char longurl[IMPORT_MAX_URL + 32];

	arena_init(&a);
	CHECK(dom_import_args(&a, "https://Example.COM/docs/#intro", "website", &ia) == 0);
	CHECK(ia.source == IMPORT_WEBSITE);
	CHECK(strstr(ia.url, "#") == NULL && strncmp(ia.url, "https://example.com/docs/", 25) == 0);
	CHECK(dom_import_args(&a, "http://example.com/a.html", "html", &ia) == 0 && ia.source == IMPORT_HTML);
	CHECK(dom_import_args(&a, "http://example.com/a.md", "markdown", &ia) == 0 && ia.source == IMPORT_MARKDOWN);

	CHECK(dom_import_args(&a, NULL, "website", &ia) == ERR_INVALID);
	CHECK_STR(err_message(), "url: is required");
	CHECK(dom_import_args(&a, "", "website", &ia) == ERR_INVALID);
	CHECK_STR(err_message(), "url: is required");
	memcpy(longurl, "https://example.com/", 20);
	memset(longurl + 20, 'a', sizeof(longurl) - 21);
	longurl[sizeof(longurl) - 1] = '\0';
	CHECK(dom_import_args(&a, longurl, "website", &ia) == ERR_INVALID);
	CHECK_STR(err_message(), "url: at most 2048 characters");
	static const char *const bad[] = { "ftp://example.com/x", "file:///etc/passwd", "example.com/docs", "/docs",
					   "javascript:alert(1)", "https://" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(dom_import_args(&a, bad[i], "website", &ia) == ERR_INVALID);
		CHECK_STR(err_message(), "url: must be an absolute http or https URL");
	}
	CHECK(dom_import_args(&a, "https://bob:s3cret@example.com/", "website", &ia) == ERR_INVALID);
	CHECK_STR(err_message(), "url: must not contain a user name or password");
	CHECK(strstr(err_message(), "s3cret") == NULL);

	/* the source: required, one of GitBook's, and of those the three docsd imports */
	CHECK(dom_import_args(&a, "https://example.com/", NULL, &ia) == ERR_INVALID);
	CHECK_STR(err_message(), "source: is required");
	CHECK(dom_import_args(&a, "https://example.com/", "pdf", &ia) == ERR_INVALID);
	CHECK(strncmp(err_message(), "source: must be one of website, docx, markdown, html", 51) == 0);
	CHECK(dom_import_args(&a, "https://example.com/", "Website", &ia) == ERR_INVALID);
	CHECK(dom_import_args(&a, "https://example.com/", "docx", &ia) == ERR_INVALID);
	CHECK_STR(err_message(), "source: \"docx\" is not supported by this server; supported: website, html, markdown");
	CHECK(dom_import_args(&a, "https://example.com/", "notion", &ia) == ERR_INVALID);
	CHECK(strstr(err_message(), "\"notion\" is not supported") != NULL);
	arena_free(&a);
}

/* ---- in the store ---- */

struct world {
	struct store *s;
	struct server srv;
	struct fx_http site;
	struct arena a;
	struct store_tx tx;
	struct dom d;
	struct org org;
	struct user ada, rev, ed, rod, sam;
	struct space space;
};

static struct dom *as(struct world *w, const struct user *u)
{
	return fx_as(&w->d, &w->srv, w->s, &w->tx, &w->a, u);
}

static const char *url(struct world *w, const char *path)
{
	return arena_printf(&w->a, "http://127.0.0.1:%d%s", w->site.port, path);
}

static struct import_args args(struct world *w, const char *path, const char *source)
{
	struct import_args ia = { 0 };

	CHECK(dom_import_args(&w->a, url(w, path), source, &ia) == 0);
	return ia;
}

/* Prefetch as u (no transaction held) and, when that succeeds, write. */
static int import(struct world *w, const struct user *u, const char *cr_key, const char *path, const char *source,
		  struct import_result *out)
{
	struct import_args ia = args(w, path, source);
	struct import_crawl crawl;
	int rc = dom_import_prefetch(&w->srv, &w->a, u ? u->id : NULL, w->space.id, cr_key, &ia, &crawl);

	memset(out, 0, sizeof(*out));
	if (rc)
		return rc;
	rc = dom_import(as(w, u), w->space.id, cr_key, &crawl, out);
	/* out->revision lives as long as the transaction's revisions */
	out->revision = out->revision ? arena_strdup(&w->a, out->revision) : NULL;
	out->space_id = out->space_id ? arena_strdup(&w->a, out->space_id) : NULL;
	fx_done(&w->tx, rc == 0);
	return rc;
}

/* Open a read transaction as ada and return the content of the space (cr_key
 * NULL) or of a change request: valid until fx_done(&w->tx, 0). */
static const struct revision *look(struct world *w, const char *cr_key)
{
	struct content_src src;

	CHECK(store_tx_begin(w->s, &w->tx, 0, &w->a) == 0);
	dom_init(&w->d, &w->srv, &w->tx, &w->a, w->ada.id);
	CHECK(dom_content_source(&w->d, w->space.id, cr_key, NULL, ROLE_READ, &src) == 0);
	return src.rv;
}

/* The id of that revision. */
static const char *head_id(struct world *w, const char *cr_key)
{
	const char *id = arena_strdup(&w->a, look(w, cr_key)->id);

	fx_done(&w->tx, 0);
	return id;
}

static const struct rev_page *titled(const struct revision *rv, const char *title)
{
	for (int i = 0; rv && i < rv->npages; i++)
		if (rv->pages[i].title && strcmp(rv->pages[i].title, title) == 0)
			return &rv->pages[i];
	return NULL;
}

/* A page's markdown, in the transaction look() opened. */
static const char *body(struct world *w, const struct rev_page *p)
{
	const char *md = NULL;

	CHECK(p && p->body);
	if (!p || !p->body)
		return "";
	CHECK(store_body_get(&w->tx, p->body, &md) == 0);
	return md ? md : "";
}

static void set_space(struct world *w, const char *edit_mode, const char *merge_rules)
{
	struct space s;

	as(w, NULL);
	CHECK(store_space_get(&w->tx, w->space.id, &s) == 0);
	s.edit_mode = edit_mode;
	s.merge_rules = merge_rules;
	CHECK(store_space_update(&w->tx, &s) == 0);
	fx_done(&w->tx, 1);
}

static const char *new_cr(struct world *w, const struct user *u, const char *subject)
{
	struct cr_new in = { .subject = subject };
	struct change_request cr;
	struct space s;
	const char *id;

	CHECK(dom_cr_create(as(w, u), w->space.id, &in, &s, &cr) == 0);
	id = arena_strdup(&w->a, cr.id);
	fx_done(&w->tx, 1);
	return id;
}

/* Who may import, checked before anything is fetched. */
static void who_may_import(struct world *w)
{
	struct import_result r;
	const char *cr = new_cr(w, &w->ed, "Imports here");
	const char *rev0 = head_id(w, NULL);
	int before = atomic_load(&w->site.accepted);

	/* into the space: review (the import is a merged change request) */
	CHECK(import(w, &w->sam, NULL, "/md/guide.md", "markdown", &r) == ERR_NOT_FOUND);
	CHECK(import(w, &w->rod, NULL, "/md/guide.md", "markdown", &r) == ERR_FORBIDDEN);
	CHECK(import(w, &w->ed, NULL, "/md/guide.md", "markdown", &r) == ERR_FORBIDDEN);
	/* into a change request: edit */
	CHECK(import(w, &w->sam, cr, "/md/guide.md", "markdown", &r) == ERR_NOT_FOUND);
	CHECK(import(w, &w->rod, cr, "/md/guide.md", "markdown", &r) == ERR_FORBIDDEN);
	CHECK(import(w, &w->ed, "nosuchcr", "/md/guide.md", "markdown", &r) == ERR_NOT_FOUND);
	/* merge rules a new change request fails: 409 naming them */
	set_space(w, "live", "{\"type\":\"rules\",\"rules\":[{\"rule\":\"require_at_least_one_review\"}]}");
	CHECK(import(w, &w->rev, NULL, "/md/guide.md", "markdown", &r) == ERR_CONFLICT);
	CHECK(strstr(err_message(), "require_at_least_one_review") != NULL);
	/* a locked space: nobody imports, not even an admin */
	set_space(w, "locked", "{\"type\":\"none\"}");
	CHECK(import(w, &w->ada, NULL, "/md/guide.md", "markdown", &r) == ERR_FORBIDDEN);
	CHECK(import(w, &w->ada, cr, "/md/guide.md", "markdown", &r) == ERR_FORBIDDEN);
	set_space(w, "live", "{\"type\":\"inherit\"}");
	/* an archived change request takes no content */
	{
		struct change_request c;
		struct space s;
		CHECK(dom_cr_update(as(w, &w->ed), w->space.id, cr, &(struct cr_edit){ .status = "archived" }, &s, &c) == 0);
		fx_done(&w->tx, 1);
		CHECK(import(w, &w->ed, cr, "/md/guide.md", "markdown", &r) == ERR_CONFLICT);
		CHECK(dom_cr_update(as(w, &w->ed), w->space.id, cr, &(struct cr_edit){ .status = "open" }, &s, &c) == 0);
		fx_done(&w->tx, 1);
	}
	/* nobody without access caused a fetch; the space did not move */
	CHECK(atomic_load(&w->site.accepted) == before);
	CHECK_STR(head_id(w, NULL), rev0);

	/* the write checks again: a crawl made for a reviewer, written by an
	 * editor into the space, is refused and writes nothing */
	{
		struct import_args ia = args(w, "/md/guide.md", "markdown");
		struct import_crawl crawl;
		CHECK(dom_import_prefetch(&w->srv, &w->a, w->rev.id, w->space.id, NULL, &ia, &crawl) == 0);
		CHECK(atomic_load(&w->site.accepted) == before + 1);
		CHECK(dom_import(as(w, &w->ed), w->space.id, NULL, &crawl, &r) == ERR_FORBIDDEN);
		fx_done(&w->tx, 0);
		CHECK_STR(head_id(w, NULL), rev0);
	}
}

/* A markdown file: into the change request's head, then into the space. */
static void markdown(struct world *w)
{
	struct import_result r;
	const struct revision *rv;
	const struct rev_page *p;
	const char *cr = new_cr(w, &w->ed, "Markdown"), *rev0 = head_id(w, NULL);

	CHECK(import(w, &w->ed, cr, "/md/guide.md", "markdown", &r) == 0);
	CHECK(r.imported == 1 && r.total == 1);
	CHECK_STR(r.space_id, w->space.id);
	rv = look(w, cr);
	CHECK_STR(r.revision, rv->id); /* the change request's new head */
	CHECK((p = titled(rv, "Guide")) != NULL);
	CHECK(strstr(body(w, p), "Hello from *markdown*.") != NULL);
	CHECK(p && p->parent == NULL);
	fx_done(&w->tx, 0);
	CHECK_STR(head_id(w, NULL), rev0); /* the space did not move */

	/* into the space: a change request, merged at once */
	CHECK(import(w, &w->rev, NULL, "/md/front.md", "markdown", &r) == 0);
	rv = look(w, NULL);
	CHECK_STR(r.revision, rv->id);
	CHECK(strcmp(rv->id, rev0) != 0);
	CHECK((p = titled(rv, "Fronted")) != NULL);
	CHECK(p && p->description && strcmp(p->description, "Front") == 0);
	CHECK(titled(rv, "Guide") == NULL); /* the change request's page is still its own */
	fx_done(&w->tx, 0);
	{
		struct cr_filter f = { 0 };
		struct list_req lr = { .limit = 100 };
		struct change_request *items;
		struct space s;
		char *next, *subject = arena_printf(&w->a, "Import of %s", url(w, "/md/front.md"));
		int n, found = 0;
		CHECK(dom_cr_list(as(w, &w->ada), w->space.id, &f, &lr, &s, &items, &n, &next) == 0);
		for (int i = 0; i < n; i++)
			if (strcmp(items[i].subject, subject) == 0) {
				found++;
				CHECK_STR(items[i].status, "merged");
				CHECK_STR(items[i].created_by.id, w->rev.id);
			}
		CHECK(found == 1);
		fx_done(&w->tx, 0);
	}
}

/* An HTML page with its image; a website crawled into a tree of pages. */
static void html_and_website(struct world *w)
{
	struct import_result r;
	const struct revision *rv;
	const struct rev_page *welcome, *guide, *install, *about;
	const char *md, *cr = new_cr(w, &w->ed, "Site");

	/* one page: the image comes along, links to other pages stay absolute */
	CHECK(import(w, &w->ed, cr, "/site/index.html", "html", &r) == 0);
	CHECK(r.imported == 2 && r.total == 2);
	rv = look(w, cr);
	CHECK(rv->nfiles == 1);
	CHECK((welcome = titled(rv, "Welcome")) != NULL);
	CHECK(titled(rv, "Guide") == NULL);
	if (rv->nfiles == 1) {
		CHECK_STR(rv->files[0].name, "logo.png");
		CHECK_STR(rv->files[0].content_type, "image/png");
		CHECK(rv->files[0].width == 1 && rv->files[0].height == 1);
		md = body(w, welcome);
		CHECK(strstr(md, arena_printf(&w->a, "/files/%s", rv->files[0].id)) != NULL);
		CHECK(strstr(md, url(w, "/site/guide/")) != NULL);
	}
	fx_done(&w->tx, 0);

	/* the website: four pages (a 404 left out, another site's page not
	 * followed), the guide's page under the guide */
	CHECK(import(w, &w->rev, NULL, "/site/index.html", "website", &r) == 0);
	CHECK(r.imported == 5); /* 4 pages and the image */
	CHECK(r.total == 6);    /* 5 pages found (missing.html too) and the image */
	rv = look(w, NULL);
	CHECK_STR(r.revision, rv->id);
	welcome = titled(rv, "Welcome");
	guide = titled(rv, "Guide");
	install = titled(rv, "Install");
	about = titled(rv, "About us"); /* no <h1>: the <title> */
	CHECK(welcome && guide && install && about);
	CHECK(titled(rv, "Out") == NULL);
	if (welcome && guide && install && about) {
		CHECK(welcome->parent == NULL && guide->parent == NULL && about->parent == NULL);
		CHECK_STR(install->parent, guide->id);
		CHECK(welcome->pos < guide->pos && guide->pos < about->pos);
		/* links between imported pages point at the pages; others stay URLs */
		md = body(w, welcome);
		CHECK(strstr(md, arena_printf(&w->a, "/pages/%s", guide->id)) != NULL);
		CHECK(strstr(md, arena_printf(&w->a, "/pages/%s", about->id)) != NULL);
		CHECK(strstr(md, url(w, "/other/out.html")) != NULL);
		md = body(w, guide);
		CHECK(strstr(md, arena_printf(&w->a, "/pages/%s", install->id)) != NULL);
		CHECK(strstr(md, arena_printf(&w->a, "/pages/%s", welcome->id)) != NULL);
		md = body(w, install);
		CHECK(strstr(md, url(w, "/site/guide/missing.html")) != NULL);
	}
	fx_done(&w->tx, 0);
}

/* The start page failing fails the import, with the reason; nothing is written. */
static void failures(struct world *w)
{
	struct import_result r;
	const char *cr = new_cr(w, &w->ed, "Failures");
	const char *head = head_id(w, cr), *rev0 = head_id(w, NULL);

	CHECK(import(w, &w->rev, NULL, "/nothing-here.html", "website", &r) == ERR_INVALID);
	CHECK_STR(err_message(), "url: HTTP 404");
	CHECK(import(w, &w->ed, cr, "/md/none.md", "markdown", &r) == ERR_INVALID);
	CHECK_STR(err_message(), "url: HTTP 404");
	CHECK(import(w, &w->ed, cr, "/site/about.html", "markdown", &r) == ERR_INVALID);
	CHECK_STR(err_message(), "url: an HTML page, not a markdown file; use source \"html\" or \"website\"");
	CHECK(import(w, &w->ed, cr, "/text.txt", "html", &r) == ERR_INVALID);
	CHECK_STR(err_message(), "url: not an HTML page (Content-Type: text/plain); use source \"markdown\" for a markdown file");
	CHECK(import(w, &w->ed, cr, "/site/logo.png", "website", &r) == ERR_INVALID);
	CHECK_STR(err_message(), "url: not an HTML page (Content-Type: image/png)");
	CHECK(import(w, &w->ed, cr, "/md/latin1.md", "markdown", &r) == ERR_INVALID);
	CHECK_STR(err_message(), "url: not a text file in UTF-8");
	CHECK(import(w, &w->ed, cr, "/md/bad-front.md", "markdown", &r) == ERR_INVALID);
	CHECK(strncmp(err_message(), "url: the file's frontmatter: ", 29) == 0);

	/* a loopback address without --allow-private-network: refused before
	 * connecting, the address not named */
	int before = atomic_load(&w->site.accepted);
	w->srv.cfg.allow_private_network = false;
	CHECK(import(w, &w->ed, cr, "/md/guide.md", "markdown", &r) == ERR_INVALID);
	CHECK_STR(err_message(), "url: the URL's host is not allowed (private, loopback or reserved address)");
	CHECK(import(w, &w->rev, NULL, "/site/index.html", "website", &r) == ERR_INVALID);
	w->srv.cfg.allow_private_network = true;
	/* a server that begins to stop fetches nothing more: 503 */
	atomic_store(&w->srv.stopping, true);
	CHECK(import(w, &w->ed, cr, "/md/guide.md", "markdown", &r) == ERR_UNAVAILABLE);
	CHECK_STR(err_message(), "the server is stopping");
	atomic_store(&w->srv.stopping, false);
	CHECK(atomic_load(&w->site.accepted) == before);

	CHECK_STR(head_id(w, cr), head);
	CHECK_STR(head_id(w, NULL), rev0);
}

static void import_suite(struct store *st)
{
	struct world w = { .s = st };

	arena_init(&w.a);
	w.srv.store = st;
	w.srv.cfg.allow_private_network = true;
	CHECK(fx_http_start(&w.site, serve));
	as(&w, NULL);
	fx_org(&w.tx, "Imports",
	       (const struct fx_person[]){ { "ada", ROLE_ADMIN, &w.ada }, { "rev", ROLE_REVIEW, &w.rev },
					   { "ed", ROLE_EDIT, &w.ed }, { "rod", ROLE_READ, &w.rod },
					   { "sam", ROLE_NONE, &w.sam }, { NULL } },
	       &w.org);
	fx_space(&w.tx, &w.org, "Imported", &w.space);
	fx_done(&w.tx, 1);

	who_may_import(&w);
	markdown(&w);
	html_and_website(&w);
	failures(&w);
	fx_http_stop(&w.site);
	arena_free(&w.a);
}

UNIT_TEST_ON_ENGINES(domain_import, import_suite)
