/*
 * search.h - full-text search over the pages of spaces' current revisions
 * (store/search.c): SQLite FTS5 / PostgreSQL tsvector behind one interface.
 * Included by store.h.
 *
 * The index holds one row per page of a space's current revision: the page's
 * title, path, and its sections (md_sections: split at headings, by the domain). Whoever
 * moves a space's current revision (merge, template, import) keeps it in step
 * with store_search_put_page / store_search_remove_page in the same
 * transaction. Rows go with their space (purge) and follow it to another
 * organization (transfer) by themselves; a deleted space is never searched.
 *
 * A query is user text. It is split into words (letters and digits); English
 * stop words are dropped when other words remain; the last word also matches
 * as a prefix unless the text ends after it (a space: the word is complete) or
 * it is one character long. Words reach the engine only as quoted FTS5 strings
 * or tsquery lexemes, in bound parameters. A text without any word is
 * ERR_INVALID.
 *
 * Order: pages holding every word first, then pages holding fewer words (most
 * first); within each group by relevance (BM25 on SQLite, ts_rank on
 * PostgreSQL; a title hit weighs more than a body hit), then page id. To keep
 * a query's cost bounded whatever the words, each group is ranked from at most
 * SEARCH_CANDIDATES matching pages (the first ones in storage order).
 */
#ifndef DOCSD_STORE_SEARCH_H
#define DOCSD_STORE_SEARCH_H

#define SEARCH_QUERY_MAX 512    /* bytes of query text (the spec's maxLength) */
#define SEARCH_MAX_WORDS 8      /* words taken from a query: the first 7 and the last */
#define SEARCH_CANDIDATES 2000  /* pages ranked per group (all words / some words) */
#define SEARCH_SECTIONS 5       /* sections shown per page */
#define SEARCH_ORG_PAGES 5      /* pages shown per space in an organization search */
#define SEARCH_EXCERPT 200      /* characters of a section's excerpt */

#include "model/model.h" /* struct search_section, search_page, search_space */

/* Index a page (replacing what was indexed for it): its title, path, and the
 * n sections of its markdown, which the domain split (dom_search_put_page in
 * domain/content.h: the store does not read markdown). */
int store_search_put_page(struct store_tx *tx, const char *org_id, const char *space_id, const char *page_id,
			  const char *title, const char *path, const struct search_section *secs, int n);
/* Drop a page from the index (nothing happens when it is not indexed). */
int store_search_remove_page(struct store_tx *tx, const char *space_id, const char *page_id);
/* Index to_space_id's pages as from_space_id's (a duplicate of its content). */
int store_search_copy_space(struct store_tx *tx, const char *from_space_id, const char *to_space_id);

/* Pages of a live space, best first, keyset-paginated (lr->desc is ignored).
 * *next (NULL on the last page) continues the same query. */
int store_search_space(struct store_tx *tx, const char *space_id, const char *query, const struct list_req *lr,
		       struct search_page **items, int *n, char **next);

/* Live spaces of an organization holding matching pages, ordered by their best
 * page; lr->limit counts spaces. space_ids (nspace_ids of them) limits the
 * search to those spaces (the ones the caller reads); NULL searches every
 * space of the organization. */
int store_search_org(struct store_tx *tx, const char *org_id, const char *const *space_ids, int nspace_ids,
		     const char *query, const struct list_req *lr, struct search_space **items, int *n, char **next);

#endif
