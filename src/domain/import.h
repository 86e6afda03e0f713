/*
 * import.h - importing content from the web (importContent,
 * importContentInChangeRequest): a website crawled into pages, one HTML page,
 * or one markdown file.
 *
 * Two steps, so that no write transaction waits on the network (DESIGN.md):
 *
 *   prefetch step (routes.h; a fetch thread, no transaction held)
 *     dom_import_prefetch: the caller's access, checked in a short read
 *     transaction of its own (nobody without it causes a fetch), then the
 *     crawl: pages fetched with util/fetch.h's rules, converted to markdown
 *     (format/html_markdown.h), links between them and to their images mapped
 *     to batch refs, images fetched -> struct import_crawl in the arena
 *   handler (one write transaction)
 *     dom_import: the pages and images as one batch of insert_files and
 *     insert_page changes (domain/content_changes.c, the updateChangeRequest-
 *     Content machinery): into the change request's head; or, for the space,
 *     into a new change request that is merged at once (so it needs the
 *     merge's role, review, and the space's merge rules must let it through)
 *
 * The crawl (source "website"): breadth first from the start URL, following
 * <a href> (navigation included) to pages of the same site - same scheme,
 * host and port as the start page (after its redirects) and under its
 * directory - at most IMPORT_MAX_DEPTH links away; fragments are ignored, each
 * URL is fetched once, links to files that are not pages by their extension
 * (images, PDFs, archives, scripts...) are not followed. Only text/html
 * (or XHTML) responses become pages; a page whose markdown is that of a page
 * imported already (/docs/ and /docs/index.html) is that page: links to
 * either URL lead to it. Limits, for the whole import:
 *   IMPORT_MAX_PAGES        pages imported
 *   IMPORT_MAX_DEPTH        links from the start page
 *   IMPORT_PAGE_MAX_BYTES   one page's HTML; a page whose markdown passes
 *                           1 MB (HTML_MD_MAX_BYTES) is skipped
 *   IMPORT_MAX_IMAGES       images considered (CONTENT_FILE_MAX_BYTES each)
 *   IMPORT_MAX_BYTES        everything fetched
 *   IMPORT_BUDGET_MS        time, all fetches together (each at most
 *                           IMPORT_FETCH_TIMEOUT_MS)
 * A server that begins to stop (server.stopping) ends the crawl at its next
 * fetch: 503, nothing written.
 * A page or image that fails (HTTP error, too large, refused address, not
 * HTML / not an image) is left out and counted; the start page failing fails
 * the import (400, the reason named). Images may come from any host (CDNs),
 * under the same fetch rules; one not imported keeps its absolute URL.
 *
 * The pages: the start page first, then the others in crawl order; a page
 * goes under the imported page whose URL path is the nearest ancestor of its
 * own below the start directory (/guide/install.html under /guide/ or
 * /guide.html), else at the top level; all after the existing pages. Titles:
 * the content's <h1>, else <title>. totalResources counts the pages found
 * (fetched or not) and the images considered; importedResources those
 * imported.
 */
#ifndef DOCSD_DOMAIN_IMPORT_H
#define DOCSD_DOMAIN_IMPORT_H

#include "domain/content.h"

#define IMPORT_MAX_PAGES 50
#define IMPORT_MAX_DEPTH 3
#define IMPORT_PAGE_MAX_BYTES ((size_t)2 << 20)
#define IMPORT_MAX_IMAGES 100
#define IMPORT_MAX_BYTES ((size_t)24 << 20)
#define IMPORT_BUDGET_MS 30000L
#define IMPORT_FETCH_TIMEOUT_MS 10000L
/* Distinct page URLs tracked (found); links past it are not counted. */
#define IMPORT_MAX_FOUND 1000
#define IMPORT_MAX_URL 2048

enum import_source {
	IMPORT_WEBSITE,  /* the crawl */
	IMPORT_HTML,     /* the one page at url, with its images */
	IMPORT_MARKDOWN, /* the one markdown file at url, as is */
};

struct import_args {
	const char *url; /* weburl's normal form */
	enum import_source source;
};

/* The request body's url and source, checked: ERR_INVALID naming the field
 * (url: an absolute http(s) URL of at most IMPORT_MAX_URL characters without
 * credentials; source: one of GitBook's ImportContentSource values, and of
 * those website, html or markdown). */
int dom_import_args(struct arena *a, const char *url, const char *source, struct import_args *out);

struct import_page {
	const char *url;      /* where it came from (after redirects), no fragment */
	const char *title;    /* NULL: the batch's default (first heading, else "Untitled") */
	const char *markdown; /* links to imported pages and images as batch refs */
	int parent;           /* index of its parent in pages[], or -1 */
};

struct import_crawl {
	struct import_args args;
	struct import_page *pages;   /* parents before children; [0] is the start page */
	int npages;
	struct fetched_files images; /* fetched images by URL, for insert_files */
	const char **image_names;    /* file name of images.items[i] */
	int total;                   /* pages found + images considered */
	int imported;                /* pages + images imported */
};

/* Check that user_id may import into the change request (cr_key: the
 * changes of dom_cr_content_check) or into the space (cr_key NULL: review
 * on it, editable, and merge rules that let a new change request through),
 * in a read transaction of its own, then crawl with nothing held. Runs on
 * any thread; uses srv (the store, --allow-private-network) and a only. */
int dom_import_prefetch(const struct server *srv, struct arena *a, const char *user_id, const char *space_id,
			const char *cr_key, const struct import_args *args, struct import_crawl *out);

struct import_result {
	const char *space_id;
	const char *revision; /* the change request's new head, or the space's merged revision */
	int imported, total;
};

/* Write what dom_import_prefetch crawled (access checked again, with the
 * rows locked): into the change request cr_key, or through a merged change
 * request into the space. */
int dom_import(struct dom *d, const char *space_id, const char *cr_key, const struct import_crawl *crawl,
	       struct import_result *out);

#endif
