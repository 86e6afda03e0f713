/*
 * serialize_content.h - JSON of revisions, pages, files and change requests:
 * the one place each of these shapes is built.
 */
#ifndef DOCSD_CORE_SERIALIZE_CONTENT_H
#define DOCSD_CORE_SERIALIZE_CONTENT_H

#include "core/jsonw.h"
#include "core/model.h"
#include "core/revision.h"

/* outdated: the space's current revision differs from the change request's base. */
void change_request_to_json(struct jw *g, const char *base, const struct change_request *cr,
			    const char *space_revision);

/* download_url: a signed URL the caller made (api/revisions.c). */
void file_to_json(struct jw *g, const struct rev_file *f, const char *download_url);

struct page_json {
	const char *base;      /* public URL */
	const char *space_id;
	const char *markdown;  /* the page's body: written as markdown, or as a document */
	int as_document;       /* format=document */
	int children;          /* write child pages, recursively */
	/* The markdown of pages other than the one given above (children, list
	 * items): GitBook's page schema requires each document page to carry it. */
	const char *(*body)(void *ctx, const char *hash);
	void *body_ctx;
};
void page_to_json(struct jw *g, const struct revision *rv, const struct rev_page *p, const struct page_json *o);

/* The revision with its page tree and files. merged_from: the change request
 * a merge revision came from (NULL otherwise); file_url makes download URLs. */
typedef const char *(*file_url_fn)(void *ctx, const struct rev_file *f);
void revision_to_json(struct jw *g, const char *base, const struct revision *rv,
		      const struct change_request *merged_from, const char *merged_space_revision,
		      file_url_fn file_url, const struct page_json *pages_opts, void *ctx);

#endif
