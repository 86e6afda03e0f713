/*
 * site_visit.c - what a visitor of a published site reads (domain/sites.h,
 * "visits"). The renderer runs as docsd itself; these functions are where
 * "published" and "not deleted" are decided, once.
 */
#include "domain/comments.h"
#include "domain/sites.h"

#include "model/revision.h"
#include "store/search.h"
#include "store/sites.h"
#include "util/err.h"

#include <string.h>

int dom_site_visit(struct dom *d, const char *name, const char *hostname, struct site *out)
{
	int rc = name ? store_site_by_name(d->tx, name, out) : store_site_by_hostname(d->tx, hostname, out);

	if (rc)
		return rc;
	if (!out->published)
		return err_set(ERR_NOT_FOUND, "site not found");
	out->access = ROLE_READ;
	return 0;
}

int dom_site_visit_share(struct dom *d, const struct site *s, const char *key)
{
	struct site_share_link l;

	if (!key || !*key)
		return err_set(ERR_NOT_FOUND, "share link not found");
	return store_site_share_link_by_key(d->tx, s->id, key, &l);
}

int dom_site_visit_revision(struct dom *d, const struct site_space *ss, const struct revision **out)
{
	int rc;

	*out = NULL;
	if (ss->space.deleted_at || !ss->space.revision || !*ss->space.revision)
		return 0;
	rc = store_revision_get(d->tx, ss->space.revision, out);
	if (rc == ERR_NOT_FOUND) {
		*out = NULL;
		return 0;
	}
	return rc;
}

int dom_site_visit_search(struct dom *d, const struct site_space *ss, const char *query, int limit,
			  struct search_page **items, int *n)
{
	struct list_req lr = { .limit = limit };
	char *next = NULL;

	*items = NULL;
	*n = 0;
	if (ss->space.deleted_at)
		return 0;
	return dom_search_space(d, ss->space_id, query, &lr, items, n, &next);
}
