/*
 * search.h - full-text search over the pages of spaces' current revisions
 * (store/search.c): SQLite FTS5 / PostgreSQL tsvector behind one interface.
 * Included by store.h.
 */
#ifndef DOCSD_STORE_SEARCH_H
#define DOCSD_STORE_SEARCH_H

#endif
