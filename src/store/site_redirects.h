/*
 * site_redirects.h - the storage of a published site's redirects (migration
 * 16, store/site_redirects.c): GitBook's site redirects, the old paths of a
 * space's pages, and .gitbook.yaml's redirects of an imported revision.
 */
#ifndef DOCSD_STORE_SITE_REDIRECTS_H
#define DOCSD_STORE_SITE_REDIRECTS_H

#include <stdbool.h>
#include <stdint.h>

#include "model/site_redirect.h"
#include "store/store.h"

/* Oldest first; search (NULL: all) keeps those whose source contains it,
 * without regard to case. */
int store_site_redirects_list(struct store_tx *tx, const char *site_id, const char *search,
			      const struct list_req *lr, struct site_redirect **items, int *n, char **next);
/* ERR_NOT_FOUND "site redirect not found". */
int store_site_redirect_get(struct store_tx *tx, const char *site_id, const char *id, struct site_redirect *out);
int store_site_redirect_by_source(struct store_tx *tx, const char *site_id, const char *source,
				  struct site_redirect *out);
/* Insert r (site_id, source and the destination set), filling id and
 * created_at. A source the site has already: ERR_CONFLICT. */
int store_site_redirect_create(struct store_tx *tx, struct site_redirect *r);
int store_site_redirect_update(struct store_tx *tx, const struct site_redirect *r);
int store_site_redirect_delete(struct store_tx *tx, const char *site_id, const char *id, bool *deleted);

/* A page of space_id was at path (before a revision moved it): remember it
 * (the latest page to leave a path wins). */
int store_space_page_path_put(struct store_tx *tx, const char *space_id, const char *path, const char *page_id);
/* The page that was last at path in space_id: 0 with *page_id, or ERR_NOT_FOUND. */
int store_space_page_path_get(struct store_tx *tx, const char *space_id, const char *path, const char **page_id);

/* .gitbook.yaml's redirects of an imported revision: source (a page path
 * under the space's root) to target (a repository path of a page file). */
int store_revision_redirect_put(struct store_tx *tx, const char *revision_id, const char *source, const char *target);
int store_revision_redirect_get(struct store_tx *tx, const char *revision_id, const char *source,
				const char **target);
/* Give revision `to` the redirects of revision `from` (those it has not). */
int store_revision_redirects_copy(struct store_tx *tx, const char *from, const char *to);

/* A translation both of whose spaces a site shows (hreflang). */
struct site_translation {
	const char *source_space, *source_language;
	const char *result_space, *language;
};
/* The translations whose source and result spaces are both site spaces of
 * site_id (at most 200). */
int store_site_translations(struct store_tx *tx, const char *site_id, struct site_translation **out, int *n);

#endif
