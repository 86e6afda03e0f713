/*
 * search.h - full-text search over the pages of spaces' current revisions
 * (store/search.c): SQLite FTS5 / PostgreSQL tsvector behind one interface.
 * Included by store.h.
 */
#ifndef DOCSD_STORE_SEARCH_H
#define DOCSD_STORE_SEARCH_H

/* Index a page (replacing what was indexed for it): its title, path, and
 * the sections of its markdown (split at headings). */
int store_search_put_page(struct store_tx *tx, const char *org_id, const char *space_id, const char *page_id,
			  const char *title, const char *path, const char *markdown);
int store_search_remove_page(struct store_tx *tx, const char *space_id, const char *page_id);

struct search_hit {
	const char *space_id;
	const char *page_id;
	const char *title;
	const char *path;
	const char *sections; /* JSON [{id, title, body}] */
	int matched;          /* query words the page holds */
	double rank;          /* lower is better */
};

/* Pages of one space (space_id) or of an organization's live spaces
 * (space_id NULL), best first: pages holding every word, then most words,
 * then by BM25 / ts_rank. words: lowercase, [a-z0-9] and UTF-8 only; the
 * last also matches as a prefix. At most max hits. */
int store_search(struct store_tx *tx, const char *org_id, const char *space_id, const char *const *words,
		 int nwords, int max, struct search_hit **out, int *n);

#endif
