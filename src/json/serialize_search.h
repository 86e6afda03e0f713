/*
 * serialize_search.h - GitBook's search results: SearchPageResult (a space
 * search's items, and the pages of an organization search's items) and
 * SearchSpaceResult ({id, title, pages}).
 *
 * App URLs are <base>/s/<space>/<page path>[#<section anchor>], the path and
 * anchor percent-encoded but for [A-Za-z0-9-._~/]. A section before the
 * page's first heading has no anchor: its id is the page's and its path the
 * page's path.
 */
#ifndef DOCSD_JSON_SERIALIZE_SEARCH_H
#define DOCSD_JSON_SERIALIZE_SEARCH_H

#include "json/jsonw.h"

/* The result rows are store/search.h's (a type only: no call into the store). */
struct search_page;
struct search_space;

/* base: the public URL, no trailing slash. */
void search_page_to_json(struct jw *g, const char *base, const struct search_page *p);
void search_space_to_json(struct jw *g, const char *base, const struct search_space *s);

#endif
