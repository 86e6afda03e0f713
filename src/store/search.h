/*
 * search.h - full-text search over the pages of spaces' current revisions
 * (store/search.c): SQLite FTS5 / PostgreSQL tsvector behind one interface.
 * Included by store.h.
 */
#ifndef DOCSD_STORE_SEARCH_H
#define DOCSD_STORE_SEARCH_H

/* (interface agreed with the search work; implemented in store/search.c) */
int store_search_put_page(struct store_tx *tx, const char *org_id, const char *space_id, const char *page_id,
			  const char *title, const char *path, const char *markdown);
int store_search_remove_page(struct store_tx *tx, const char *space_id, const char *page_id);

#endif
