/*
 * serialize_content.h - JSON of revisions, pages, files and change requests:
 * the one place each of these shapes is built.
 */
#ifndef DOCSD_JSON_SERIALIZE_CONTENT_H
#define DOCSD_JSON_SERIALIZE_CONTENT_H

#include "json/jsonw.h"
#include "model/model.h"
#include "model/revision.h"

/* outdated: the space's current revision differs from the change request's base. */
void change_request_to_json(struct jw *g, const char *base, const struct change_request *cr,
			    const char *space_revision);

/* download_url: a signed URL the caller made (api/revisions.c). The file's
 * Git blob (GitBook's GitSyncBlob `git`: oid and path) is written when it has
 * one; file_to_json_meta leaves it out when git is 0 (a content read's
 * `metadata=false`). */
void file_to_json(struct jw *g, const struct rev_file *f, const char *download_url);
void file_to_json_meta(struct jw *g, const struct rev_file *f, const char *download_url, int git);

struct page_json {
	const char *base;      /* public URL */
	const char *space_id;
	const char *markdown;  /* the page's body: written as markdown, or as a document */
	int as_document;       /* format=document */
	/* A computed page is written as the document page it computes to
	 * (getPageByPath's schema has no computed pages), not as
	 * RevisionPageComputed. */
	int computed_as_document;
	int children;          /* write child pages, recursively */
	/* A content read's `metadata=false`: leave out the Git metadata (a
	 * page's and a file's `git` blob, a revision's `git` commit), which
	 * GitBook's reads include by default. */
	int no_git;
	/* The markdown of pages other than the one given above (children, list
	 * items, locations), which GitBook's page schema requires of each
	 * document page: bodies[i] is that of rv->pages[i], loaded by the domain
	 * for the document pages the response shows ("" for one without a
	 * body: dom_page_bodies_tree in domain/content.h), NULL for the others.
	 * A document page without an entry (or with bodies NULL) is written
	 * without markdown. */
	const char *const *bodies;
};
/* p is one of rv->pages. 0, or ERR_INTERNAL when memory fails (the JSON
 * written so far is to be discarded: the caller answers the error instead). */
int page_to_json(struct jw *g, const struct revision *rv, const struct rev_page *p, const struct page_json *o);

/* The revision with its page tree and files (pages_opts->no_git also leaves
 * out the revision's and the files' Git metadata). merged_from: the change request
 * a merge revision came from (NULL otherwise); file_urls: the download URL of
 * each of rv->files, in order (the domain signs them: dom_revision_get).
 * 0, or ERR_INTERNAL when memory fails. */
int revision_to_json(struct jw *g, const char *base, const struct revision *rv,
		     const struct change_request *merged_from, const char *merged_space_revision,
		     const char *const *file_urls, const struct page_json *pages_opts);

/* ImportContentResult: the revision an import made, how many resources it
 * imported of those it found. */
void import_result_to_json(struct jw *g, const char *revision, int imported, int total);

#endif
