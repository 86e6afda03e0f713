/*
 * content.h - the content operations: writing revisions, change requests
 * (create, edit, content batches, merge, update), templates, links, signed
 * URLs and PDFs. Everything here takes a struct dom (domain.h) and checks
 * the actor's access once per operation.
 *
 * Roles (GitBook's): reading needs read; opening a change request and
 * changing its content need edit; merging it and updating it from the space
 * need review (permissions.merge); a locked or deleted space takes no content
 * changes (dom_space_editable).
 *
 * Change request states:
 *
 *        create            PATCH status            merge (review)
 *   ---> draft <-------------> open ----------------------> merged (final)
 *          |  \               /  ^                            ^
 *          |   `--> archived <---'  (PATCH: reopen)           |
 *          `---------------------------------------------------'
 *
 * dom_cr_update() moves between draft, open and archived; only dom_cr_merge()
 * reaches merged, and nothing leaves it (409). Content batches, merges and
 * updates refuse archived and merged change requests (409).
 */
#ifndef DOCSD_DOMAIN_CONTENT_H
#define DOCSD_DOMAIN_CONTENT_H

#include <jansson.h>

#include "model/revision.h"
#include "model/tree_edit.h"
#include "model/comment_view.h"
#include "model/content_results.h"
#include "model/tree_merge.h"
#include "domain/domain.h"

/* ---- reading ---- */
/* Reads load the page bodies their answer shows, and serializers take them as
 * data (json/serialize_content.h, page_json.bodies): an array parallel to
 * rv->pages, in d->arena, holding the markdown of each document page shown
 * ("" for one without a body) and NULL for the others. A body is read once
 * per page with dom_page_body; a missing row fails the read (ERR_INTERNAL)
 * before anything is written. */

/* A revision as getRevisionById and its twins answer it: the content source
 * (domain.h), for a merge revision the change request it came from
 * (have_origin = 0 when none or gone), the download URL of each of the
 * revision's files (dom_file_url), in the order of src.rv->files, and the
 * bodies of the page tree's document pages. */
struct dom_revision {
	struct content_src src;
	struct change_request origin;
	int have_origin;
	const char **file_urls;
	const char **bodies;
};
int dom_revision_get(struct dom *d, const char *space_id, const char *cr_key, const char *revision_id,
		     struct dom_revision *out);

/* listPages and its twins: the content source and the bodies of the page
 * tree's document pages. */
struct dom_pages {
	struct content_src src;
	const char **bodies;
};
int dom_pages_get(struct dom *d, const char *space_id, const char *cr_key, const char *revision_id,
		  struct dom_pages *out);

/* getPageById (page_id) and getPageByPath (page_path, page_id NULL): one page
 * of the content a route addresses (ERR_NOT_FOUND: none), with, when load is
 * true, its markdown (a document's body; a computed page's API reference
 * unless computed is false: dom_openapi_page_markdown; else NULL) and the
 * bodies of the document pages below it. load false reads nothing more
 * (the caller refuses the request once the page is found). */
struct dom_page {
	struct content_src src;
	const struct rev_page *page;
	const char *markdown;
	const char **bodies;
};
int dom_page_get(struct dom *d, const char *space_id, const char *cr_key, const char *revision_id,
		 const char *page_id, const char *page_path, bool computed, bool load, struct dom_page *out);

/* A page body by hash (NULL: "", read from nowhere); a missing row is a
 * broken revision (ERR_INTERNAL), never an empty page. */
int dom_page_body(struct dom *d, const char *hash, const char **out);
/* Store a page body once in tx (store_body_insert): *hash gets its SHA-256
 * (hex); the first time it is stored its links are read here (md_links) and
 * stored with it. The store never parses markdown: what it keeps of a body
 * comes from the domain. */
int dom_body_put(struct store_tx *tx, const char *markdown, const char **hash);
/* Index a page for search in tx: its sections (md_sections, split at
 * headings) handed to store_search_put_page. */
int dom_search_put_page(struct store_tx *tx, const char *org_id, const char *space_id, const char *page_id,
			const char *title, const char *path, const char *markdown);
/* A bodies array for rv, every entry NULL. */
int dom_page_bodies_new(struct dom *d, const struct revision *rv, const char ***out);
/* Load the body of p (one of rv->pages) into bodies when it is a document
 * page whose body is not loaded yet. */
int dom_page_bodies_one(struct dom *d, const struct revision *rv, const struct rev_page *p, const char **bodies);
/* Load the bodies of the pages page_to_json writes from rv->pages[first] on:
 * it, its next siblings and, below document and group pages, their
 * children, recursively (first < 0: none). */
int dom_page_bodies_tree(struct dom *d, const struct revision *rv, int first, const char **bodies);

/* ---- writing revisions (content_changes.c, content.c) ---- */

/* A file of a batch: at most CONTENT_FILE_MAX_BYTES, base64 or fetched. */
#define CONTENT_FILE_MAX_BYTES ((size_t)1 << 20)

/*
 * insert_files entries with a `url` are fetched BEFORE the request's write
 * transaction begins (no network I/O while a writer waits on us: DESIGN.md),
 * by dom_content_prefetch(), and dom_apply_changes() then only stores the
 * bytes. One request's fetches together are bounded:
 *   CONTENT_FETCH_MAX_URLS   distinct URLs (more: 400 before any fetch)
 *   CONTENT_FETCH_MAX_BYTES  bytes in all (each file also <= 1 MB)
 *   CONTENT_FETCH_BUDGET_MS  time in all (each URL also <= CONTENT_FETCH_TIMEOUT_MS)
 * with util/fetch.h's rules for each (http/https only, private addresses
 * refused unless --allow-private-network, at most 3 redirects).
 */
#define CONTENT_FETCH_MAX_URLS 20
#define CONTENT_FETCH_MAX_BYTES ((size_t)8 << 20)
#define CONTENT_FETCH_BUDGET_MS 20000L
#define CONTENT_FETCH_TIMEOUT_MS 10000L

/* The outcome of fetching one URL; everything lives in the arena. */
struct fetched_file {
	const char *url;
	const unsigned char *data; /* NULL when the fetch failed */
	size_t len;
	const char *content_type;  /* the response's type when a valid media type, else NULL */
	int error;                 /* 0, or the util/err.h code of the failure */
	const char *message;       /* with error: why, for "changes[i].files[k].url: <message>" */
};
struct fetched_files {
	const struct fetched_file *items;
	int n;
};

/* Fetch every insert_files `url` of `changes` (GitBook's batch, as sent) in
 * order, each distinct URL once, into out (d->arena). Runs with no
 * transaction: it uses only d->srv (--allow-private-network) and d->arena,
 * and d->tx may be NULL. A failed fetch is recorded, not returned, and ends
 * the fetching (dom_apply_changes reports it where the batch reaches it,
 * after the access checks); entries the batch would refuse anyway (not an
 * insert_files change of 1..20 files, both url and base64, a url over 2048
 * characters) are skipped. Returns ERR_INVALID when the batch names more than
 * CONTENT_FETCH_MAX_URLS URLs, ERR_INTERNAL when memory fails, else 0. */
int dom_content_prefetch(struct dom *d, json_t *changes, struct fetched_files *out);

/* The most changes one batch holds (GitBook's updateChangeRequestContent). */
#define CONTENT_MAX_CHANGES 50

/* struct content_outcome (what a batch did) is json/serialize_cr.h's. */
/* Apply a batch of changes (GitBook's updateChangeRequestContent `changes`)
 * to the working copy w. revert_base: revert_page's default revision. refs
 * (may be NULL): a JSON object of extra link refs, name -> "/files/<id>".
 * fetched (may be NULL): the batch's URLs, fetched by dom_content_prefetch();
 * a url it does not hold is an internal error (nothing is fetched here).
 * out (may be NULL) lists what the batch touched. ERR_INVALID names the
 * change ("changes[3].page: ..."). Nothing but page bodies and file blobs is
 * written (content-addressed, harmless when the caller then fails). */
int dom_apply_changes(struct dom *d, struct tree_work *w, json_t *changes, const struct revision *revert_base,
		      json_t *refs, const struct fetched_files *fetched, struct content_outcome *out);
/* dom_apply_changes for a batch docsd built itself (website import), which
 * may hold up to max_changes changes instead of CONTENT_MAX_CHANGES. */
int dom_apply_changes_n(struct dom *d, struct tree_work *w, json_t *changes, int max_changes,
			const struct revision *revert_base, json_t *refs, const struct fetched_files *fetched,
			struct content_outcome *out);
/* The working copy's entries as the pages and files of a new revision. */
void dom_revision_new(const struct tree_work *w, struct revision_new *nr);
/* Write w as an `edits` revision of s whose parent is parent. */
int dom_write_edits(struct dom *d, const struct space *s, const struct tree_work *w, const struct revision *parent,
		    const struct revision **out);
/* Making a revision the space's current one: dom_space_advance_by (domain/spaces.h). */

/* ---- change requests (change_requests.c) ---- */

struct cr_new {
	const char *subject;       /* NULL: "" */
	const char *agent_task_id; /* NULL: none */
	json_t *description;       /* a JSONDocument, or NULL (dom_cr_update) */
};
int dom_cr_create(struct dom *d, const char *space_id, const struct cr_new *in, struct space *s,
		  struct change_request *out);
int dom_cr_list(struct dom *d, const char *space_id, const struct cr_filter *f, const struct list_req *lr,
		struct space *s, struct change_request **items, int *n, char **next);
int dom_cr_get(struct dom *d, const char *space_id, const char *cr_key, struct space *s, struct change_request *out);
/* What PATCH changes: NULL fields are unchanged. description is a
 * JSONDocument ({object: "document", data, nodes}: its shape is checked node
 * by node, at most CR_DESCRIPTION_MAX bytes as compact JSON) or JSON null,
 * which removes it. */
#define CR_DESCRIPTION_MAX 65536
struct cr_edit {
	const char *subject;
	const char *status;
	json_t *description;
};
/* A change request description (GitBook's JSONDocument) checked node by node,
 * as compact JSON text in the arena; ERR_INVALID naming `description`. */
int dom_cr_description_text(struct dom *d, json_t *doc, const char **out);
int dom_cr_update(struct dom *d, const char *space_id, const char *cr_key, const struct cr_edit *in,
		  struct space *s, struct change_request *out);
/* listChangeRequestsForOrganization: the change requests of the
 * organization's live spaces the actor reads, newest first. */
int dom_cr_list_org(struct dom *d, const char *org_id, const struct cr_filter *f, const struct list_req *lr,
		    struct cr_in_space **items, int *n, char **next);
/* getContributorsByChangeRequestId. */
int dom_cr_contributors(struct dom *d, const char *space_id, const char *cr_key, const struct list_req *lr,
			struct cr_contributor **items, int *n, char **next);
/* getChangeRequestChanges: the pages and files that differ between the
 * change request's base and its head, the first `limit` of them (pages in
 * the head's tree order, then deleted pages, then files). */
int dom_cr_changes(struct dom *d, const char *space_id, const char *cr_key, int limit, struct cr_changes *out);
/* Apply a batch of changes to the change request's head; fetched: the
 * batch's URLs, fetched before the transaction (dom_content_prefetch). */
int dom_cr_content_fetched(struct dom *d, const char *space_id, const char *cr_key, json_t *changes,
			   const struct fetched_files *fetched, struct space *s, struct change_request *out,
			   struct content_outcome *outcome);
/* dom_cr_content_fetched for a batch docsd built itself: up to max_changes
 * changes (dom_apply_changes_n). */
int dom_cr_content_batch(struct dom *d, const char *space_id, const char *cr_key, json_t *changes, int max_changes,
			 const struct fetched_files *fetched, struct space *s, struct change_request *out,
			 struct content_outcome *outcome);
/* Whether the actor may change the change request's content now: edit on
 * the space, the space editable, the change request active (the errors of
 * dom_cr_content_fetched). Reads only: for checks before a transaction that
 * writes (a prefetch step's own read transaction). */
int dom_cr_content_check(struct dom *d, const char *space_id, const char *cr_key);
/* Whether a batch has insert_files entries with a url (to prefetch). */
bool dom_content_has_urls(json_t *changes);
/* Before the write transaction of dom_cr_content_fetched: check in a short
 * read transaction of its own that user_id may change the change request's
 * content (edit, an editable space, an active change request: the same
 * errors), then fetch the batch's URLs with no transaction held
 * (dom_content_prefetch). A caller without access causes no fetch. */
int dom_cr_content_prefetch(const struct server *srv, struct arena *a, const char *user_id, const char *space_id,
			    const char *cr_key, json_t *changes, struct fetched_files *out);
/* dom_cr_content_fetched with nothing fetched: for batches without URLs. */
int dom_cr_content(struct dom *d, const char *space_id, const char *cr_key, json_t *changes, struct space *s,
		   struct change_request *out, struct content_outcome *outcome);

int dom_cr_merge(struct dom *d, const char *space_id, const char *cr_key, struct cr_merge_result *out);
int dom_cr_update_from_space(struct dom *d, const char *space_id, const char *cr_key, struct cr_merge_result *out);

/* ---- templates (templates.c) ---- */
/* Apply built-in template `id` to the space as a new revision; params (may
 * be NULL): GitBook's {contentRefs: {name: {kind: "file", file}}}. */
int dom_template_apply(struct dom *d, const char *space_id, const char *id, json_t *params);

/* ---- links (links.c) ---- */
/* Resolve a link as written in page `from` of rv: /pages/<id>, /files/<id>,
 * a path relative to the page (./x.md, ../y), an absolute URL, or #anchor.
 * base: the public URL (links into it are "in-app"). */
void link_resolve(const char *base, const struct revision *rv, const struct rev_page *from, const char *target,
		  struct link_target *out);

/* A link of a revision: where it is written and what it points at. */
struct link_item {
	const struct rev_page *from;
	struct link_target t;
};
struct link_list {
	struct content_src src;
	struct org org;            /* the space's organization (for locations) */
	struct link_item *items;   /* after the status filter */
	int n;
	int total;                 /* every link but anchors, before the filter */
	int broken;
	int start, shown;          /* the page of the list answered: items[start .. start + shown - 1] */
	const char **bodies;       /* of the pages the shown items name (page_json.bodies) */
};
/* Links lists page by index: lr->after's id is the index of the page's first
 * item (decimal, at most n; else ERR_INVALID), at most lr->limit shown. */
/* status: "ok" | "broken" | "in-app" | NULL (all). page_id NULL: every page
 * of the revision (the space's links). */
int dom_links(struct dom *d, const char *space_id, const char *cr_key, const char *revision_id, const char *page_id,
	      const char *status, const struct list_req *lr, struct link_list *out);
/* Pages of the revision linking to a page (file = 0) or a file (file = 1),
 * paged like links, with the bodies of those shown. */
struct backlink_list {
	struct content_src src;
	struct org org;
	const struct rev_page **pages;
	int n;
	int start, shown;
	const char **bodies;
};
int dom_backlinks(struct dom *d, const char *space_id, const char *cr_key, const char *revision_id, int file,
		  const char *target_id, const struct list_req *lr, struct backlink_list *out);

/* ---- signed URLs and PDFs (content.c, pdf.c) ----
 *
 * URLs served without a token, signed with the server's secret (HMAC-SHA256,
 * 128 bits shown):
 *
 *   /files/<space>.<revision>.<file>.<expires>.<sig>      a file entry's bytes
 *   /pdf/<space>.<revision>.<selection>.<expires>.<sig>.pdf  a rendered PDF
 *
 * <expires> is the epoch second after which the URL answers 404. A URL made
 * now lives DOM_URL_LIFETIME_S (one hour, like GitBook's short-lived download
 * URLs) rounded up to the next DOM_URL_STEP_S (five minutes), so every request
 * in one five-minute window gets the same URL (caches keep it): 60 to 65
 * minutes in all. A URL also answers 404 once its space is deleted (restoring
 * the space revives it until it expires) or purged, when the revision is not
 * one of that space's, when the file is not in that revision, and when one
 * character of it is changed. The file URL names the revision's file entry,
 * so its name and media type are served, not the first uploader's (bytes are
 * stored once per SHA-256 for everybody). Everything is read through the clock
 * (clock_now_ms), so tests move it with --clock-offset-ms. */
#define DOM_URL_LIFETIME_S 3600
#define DOM_URL_STEP_S 300

/* The key is the store's "files" secret (domain/secrets.h: one for every
 * docsd process on the store), read once by server_start and kept in the
 * server context: signing and checking a URL run no query, and no request
 * creates the secret. Without a started server (unit tests, tools) it is read
 * from d->tx on each use. */

/* A file entry's download URL. */
int dom_file_url(struct dom *d, const char *space_id, const char *revision_id, const char *file_id,
		 const char **out);
/* getFileById and its twins: one file of the content a route addresses
 * (dom_content_source, read), with its download URL. */
struct dom_file {
	struct content_src src;
	const struct rev_file *file;
	const char *url;
};
int dom_file_get(struct dom *d, const char *space_id, const char *cr_key, const char *revision_id,
		 const char *file_id, struct dom_file *out);
/* listFiles and its twins: one page of the content's files, sorted by id,
 * after lr->after's id, at most lr->limit of them (files[0..n-1], pointing
 * into src.rv->files), each with its download URL (urls[i]); more when files
 * follow the page. */
struct dom_file_list {
	struct content_src src;
	const struct rev_file *files;
	const char **urls;
	int n;
	bool more;
};
int dom_files_list(struct dom *d, const char *space_id, const char *cr_key, const char *revision_id,
		   const struct list_req *lr, struct dom_file_list *out);
/* updateChangeRequestContent: dom_cr_content_fetched, and with urls the
 * download URL of each inserted file (in the change request's new head) in
 * outcome->file_urls, for the answer that lists them (compat=false). */
int dom_cr_content_apply(struct dom *d, const char *space_id, const char *cr_key, json_t *changes,
			 const struct fetched_files *fetched, bool urls, struct space *s, struct change_request *cr,
			 struct content_outcome *outcome);

/*
 * A batch made on a known revision: no silent lost update (issue 30, item 4).
 *
 * The web editor's form names the change request's head it was rendered
 * from (its "base"); a save that arrives after somebody else's must not
 * replace their edit. dom_cr_content_on_base() locks the space and the change
 * request (as every content batch does, so concurrent saves take turns) and
 * compares the base with the head INSIDE the write transaction:
 *   - base NULL or base == head: the batch as given (GitBook's semantics);
 *   - else, for each update_page of the batch, against that page in base and
 *     in head: a document the head did not change since base is written as
 *     sent; one it did change is merged line by line with the API's own
 *     three-way merge (model/merge3.h: base, yours = the batch's, theirs =
 *     the head's) and the merged text is written instead; a title changed on
 *     both sides to different values, a document whose merge conflicts, or a
 *     page the head no longer has is a conflict;
 *   - any conflict: nothing is written, ERR_CONFLICT, and bo lists each side
 *     and the head to resolve on (the new base).
 * A base that is not a revision of this space is ERR_INVALID ("base: ...");
 * one of this space but not found walking back from the head along the
 * change request's line (first parents, at most CONTENT_BASE_WALK revisions,
 * stopping at its initial revision) -- another change request's revision, or
 * one too old -- cannot be merged from, so every document it would change
 * that differs from the head is a conflict: never an overwrite.
 */
#define CONTENT_BASE_WALK 64
#define CONTENT_BASE_AUTHORS 4
struct content_conflict {
	int change;             /* index in the batch */
	const char *page_id;
	const char *theirs;     /* the page's markdown in the head; NULL: the head has no such page */
	const char *yours;      /* the markdown the batch sent (NULL: it sent none) */
	const char *theirs_title, *yours_title; /* set when the titles conflict */
	/* What a form resolving it starts from, to be saved on the head: the
	 * title picked three-way (yours when both changed it), the markdown
	 * merged when only the title conflicts, else yours. */
	const char *form_title, *form_md;
};
struct content_base_outcome {
	const char *head;       /* the head the batch was checked against (resolve on it) */
	bool stale;             /* base was not the head */
	int merged;             /* documents merged with edits made since base */
	const char *authors[CONTENT_BASE_AUTHORS]; /* display names of those edits' authors but the actor */
	int nauthors;
	struct content_conflict conflicts[CONTENT_MAX_CHANGES];
	int nconflicts;
};
int dom_cr_content_on_base(struct dom *d, const char *space_id, const char *cr_key, const char *base,
			   json_t *changes, const struct fetched_files *fetched, bool urls, struct space *s,
			   struct change_request *cr, struct content_outcome *outcome, struct content_base_outcome *bo);

/* sel: NULL (all pages), "<page>" (just it) or "+<page>" (from it on). */
int dom_pdf_url(struct dom *d, const char *space_id, const char *revision_id, const char *page_sel,
		const char **out);
/* getSpacePDF / getChangeRequestPDF: the signed URL of the PDF of the
 * space's (or the change request's) content, all of it, from `page` on, or
 * (only) just that page. */
int dom_pdf_link(struct dom *d, const char *space_id, const char *cr_key, const char *page, bool only,
		 const char **url);

/* What a signed URL answers, with the headers that make it safe to serve
 * from the API's own origin: nosniff always, a Content-Security-Policy that
 * forbids script, and Content-Disposition: attachment for every type a
 * browser would render as a document (HTML, XHTML, SVG, XML, PDF uploads,
 * anything unknown or malformed); raster images (PNG, JPEG, GIF, WebP) and
 * text/plain (with a charset) are inline. */
struct dom_download {
	const unsigned char *data;
	size_t len;
	const char *content_type;
	const char *disposition; /* Content-Disposition (RFC 6266, filename* for non-ASCII names) */
	const char *csp;         /* Content-Security-Policy */
	int64_t max_age;         /* seconds until the URL expires (Cache-Control) */
	bool cached;             /* a PDF from the render cache */
};
/* The bytes of the file entry a /files/ URL's last segment names. */
int dom_file_download(struct dom *d, const char *name, struct dom_download *out);
/* The PDF a /pdf/ URL's last segment names: from the server's PDF cache, or
 * rendered (at most cfg.pdf_renders at once; ERR_UNAVAILABLE after waiting
 * cfg.pdf_wait_ms for a turn) and then cached. */
int dom_pdf_render(struct dom *d, const char *name, struct dom_download *out);

/* A signed URL's last segment, checked (content.c; for pdf.c): its
 * signature (kind "file" or "pdf"), its expiry, its space (not deleted) and
 * its revision (one of that space's). what: the file id or the selection.
 * ERR_NOT_FOUND for anything wrong. */
struct signed_target {
	struct space space;
	const struct revision *rv;
	const char *what;
	int64_t expires; /* epoch seconds */
};
int dom_signed_open(struct dom *d, const char *kind, const char *name, const char *suffix,
		    struct signed_target *out);

/* How Content-Type and Content-Disposition are chosen for an upload of
 * media type `type` named `name` (exposed for tests): out->content_type,
 * out->disposition and out->csp are set. */
int dom_download_headers(struct arena *a, const char *type, const char *name, struct dom_download *out);

/* ---- the PDF cache (pdf.c): rendered PDFs by revision, selection and
 * title, bounded in bytes (LRU), owned by the server context; it also
 * limits how many PDFs render at once. ---- */
struct pdfcache;
int pdfcache_new(struct pdfcache **out, size_t max_bytes, int max_renders, int wait_ms);
void pdfcache_free(struct pdfcache *c); /* accepts NULL */
/* 1 and a copy of the bytes in a when key is cached. 0 when the caller is to
 * render it: it holds one of the max_renders turns and must call
 * pdfcache_end(). While another caller renders the same key, waits for its
 * result. ERR_UNAVAILABLE when no turn came within wait_ms. */
int pdfcache_begin(struct pdfcache *c, const char *key, struct arena *a, const unsigned char **data, size_t *len);
/* Give the turn back; data NULL when the rendering failed (nothing cached). */
void pdfcache_end(struct pdfcache *c, const char *key, const unsigned char *data, size_t len);
struct pdfcache_stats {
	size_t bytes;
	int64_t entries, hits, renders, rejected;
	int rendering, peak; /* now, and the most at once */
};
void pdfcache_stats(struct pdfcache *c, struct pdfcache_stats *out);

#endif
