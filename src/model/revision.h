/*
 * revision.h - a space's content at one point: an immutable tree of pages and
 * a set of files (DESIGN.md, "Content model").
 *
 * Storage form (store/revisions.c): a revision row holds a manifest, either a
 * snapshot of every entry or a delta of the entries that changed against its
 * parent revision. An entry names its page body by hash (page_bodies), so a
 * revision that edits one page of 10,000 stores one entry and one body.
 *
 * Memory form: struct revision, built once and shared read-only through the
 * revision cache. Pages are sorted by id (bsearch); the tree is kept as index
 * links (parent, first child, next sibling, children in position order), and
 * every page's path (the slugs of its ancestors and its own, joined by '/') is
 * computed when the revision is built.
 */
#ifndef DOCSD_MODEL_REVISION_H
#define DOCSD_MODEL_REVISION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json/jsonw.h"
#include "util/arena.h"

/* PAGE_COMPUTED: a page whose document is produced from a source (GitBook's
 * RevisionPageComputed), e.g. an OpenAPI specification; `computed` holds the
 * source as JSON text. */
enum page_type { PAGE_DOCUMENT, PAGE_GROUP, PAGE_LINK, PAGE_COMPUTED };

struct rev_page {
	const char *id;
	const char *parent; /* page id; NULL at the top level */
	int64_t pos;        /* order among siblings (gapped integers) */
	enum page_type type;
	const char *title;
	const char *emoji;       /* NULL when unset */
	const char *icon;        /* NULL when unset */
	const char *slug;
	const char *description; /* NULL when unset */
	const char *body;        /* hash of the markdown (documents); NULL otherwise */
	const char *href;        /* link pages: the URL */
	const char *layout;      /* GitBook's RevisionPageLayoutOptions as JSON text; NULL: the defaults */
	const char *computed;    /* computed pages: GitBook's ComputedContentSource as JSON text */
	/* Where the page came from or went to in a Git-synced repository (GitBook's
	 * GitSyncBlob): the blob's SHA-1 hex and its path; NULL when never synced.
	 * git_hash is docsd's fingerprint of what was written for that blob (the
	 * Git sync layout decides it), so an unchanged page is exported byte for
	 * byte by reusing the blob. */
	const char *git_oid, *git_path, *git_hash;
	/* The table-of-contents title SUMMARY.md gave it ([Title](p.md "Nav title")),
	 * written back when SUMMARY.md is regenerated; NULL when none. */
	const char *nav_title;
	/* GitBook's page condition (front matter "if:", Git sync): the page
	 * and its children are shown only to visitors it holds for
	 * (model/condition.h; NULL: always). */
	const char *cond;
	/* GitBook's page variables ({{ page.vars.x }}): a JSON object's text
	 * (front matter "vars:"); NULL: none. */
	const char *vars;
	/* GitBook's RevisionPageDocumentCover as JSON text ({"ref": {"kind":
	 * "file", "file": id} or {"kind": "url", "url"}, "yPos": n}); NULL: none. */
	const char *cover;
	bool hidden, no_index, no_robots_index;
	int64_t created_at;
	int64_t updated_at;
	/* Derived when a revision is built (revision_build): */
	const char *path;
	int parent_idx;   /* -1 at the top level */
	int first_child;  /* -1 when none; children follow next_sibling in position order */
	int next_sibling; /* -1 when last */
	int depth;
};

struct rev_file {
	const char *id;
	const char *name;
	const char *content_type;
	const char *blob; /* hash of the bytes (file_blobs) */
	int64_t size;
	int width, height; /* 0 when not an image */
	const char *git_oid, *git_path; /* GitSyncBlob; NULL when never synced */
};

struct revision {
	const char *id;
	const char *space_id;
	const char *parent_id; /* the revision this one's manifest is a delta of; NULL: snapshot */
	const char *parents;   /* JSON array text */
	const char *type;      /* edits | merge | update */
	const char *merged_from; /* change request id (merge); NULL otherwise */
	const char *created_by;
	const char *git;       /* GitBook's GitSyncCommit as JSON text; NULL when not from/to Git */
	int64_t created_at;
	int chain;             /* deltas since the nearest snapshot */
	int64_t chain_bytes;   /* their manifest bytes */
	struct rev_page *pages; /* sorted by id */
	int npages;
	int nconds;             /* pages with a condition (cond): 0 spares the site a walk */
	int first_root;         /* -1 when empty; roots follow next_sibling */
	struct rev_file *files; /* sorted by id */
	int nfiles;
	struct arena arena;     /* owns everything above */
	int refs;               /* held by the cache and by transactions (store/revisions.c) */
};

/* The parts of a revision about to be written: its pages and files (any
 * order; strings may point anywhere until revision_build copies them). */
struct revision_new {
	const char *space_id;
	const char *parent_id; /* the revision it derives from (NULL for a first one) */
	const char *parents;   /* JSON array text */
	const char *type;
	const char *merged_from;
	const char *created_by;
	const char *git; /* GitSyncCommit JSON text or NULL */
	const struct rev_page *pages;
	int npages;
	const struct rev_file *files;
	int nfiles;
};

/* Build a revision (own arena, refs 1) from entries; sorts them, links the
 * tree and computes paths. Pages whose parent is missing, or that sit in a
 * cycle, are placed at the top level rather than lost. Never NULL. */
struct revision *revision_build(const char *id, const struct revision_new *nr, int64_t created_at);
void revision_free(struct revision *rv);
/* Approximately the heap a built revision holds: the struct, its page and
 * file arrays, every string (ids, titles, slugs, paths, hashes...) with its
 * allocation rounding. What the revision cache counts against its budget. */
size_t revision_heap_bytes(const struct revision *rv);

const struct rev_page *revision_page(const struct revision *rv, const char *id);
int revision_page_index(const struct revision *rv, const char *id); /* -1 when absent */
/* By path ("guides/setup"); a trailing '/' or a leading '/' is ignored. */
const struct rev_page *revision_page_by_path(const struct revision *rv, const char *path);
const struct rev_file *revision_file(const struct revision *rv, const char *id);

/* Equality of everything stored for an entry (not the derived fields). */
bool rev_page_same(const struct rev_page *a, const struct rev_page *b);
bool rev_file_same(const struct rev_file *a, const struct rev_file *b);

/* Manifests. A snapshot lists every entry; a delta lists the entries of
 * `next` that differ from `base` and the ids `base` had that `next` lacks. */
void revision_snapshot_write(struct jw *w, const struct rev_page *pages, int np, const struct rev_file *files,
			     int nf);
void revision_delta_write(struct jw *w, const struct revision *base, const struct revision *next);

/* Parse a manifest into entries allocated from a. For a delta, *del_pages and
 * *del_files get the removed ids and *is_delta = 1. Negative on malformed
 * input (err_set). */
struct manifest {
	int is_delta;
	struct rev_page *pages;
	int npages;
	struct rev_file *files;
	int nfiles;
	const char **del_pages;
	int ndel_pages;
	const char **del_files;
	int ndel_files;
};
int manifest_parse(struct arena *a, const char *json, struct manifest *out);

/* Apply a delta manifest to a base revision's entries: the result (into a,
 * pointing into base and m) as arrays for a revision_new. */
int manifest_apply(struct arena *a, const struct revision *base, const struct manifest *m, struct rev_page **pages,
		   int *np, struct rev_file **files, int *nf);

/* A slug from a title: lowercase ASCII letters, digits and '-', other runs
 * collapsed to one '-', trimmed; "page" when nothing is left. */
char *slugify(struct arena *a, const char *title);

#endif
