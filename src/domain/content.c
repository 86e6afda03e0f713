/*
 * content.c - what content operations share: the change request and the
 * revision a route addresses, and summaries of pages.
 */
#include "domain/domain.h"
#include "core/revision.h"
#include "util/err.h"

#include <stdlib.h>
#include <string.h>

int dom_change_request_get(struct dom *d, const struct space *s, const char *key, struct change_request *out)
{
	char *end;
	long long num = strtoll(key, &end, 10);
	int rc = store_cr_get(d->tx, s->id, key, out);

	if (rc == ERR_NOT_FOUND && *key && !*end && num > 0)
		rc = store_cr_get_by_number(d->tx, s->id, num, out);
	return rc;
}

int dom_content_source(struct dom *d, const char *space_id, const char *cr_key, const char *revision_id,
		       enum role need, struct content_src *src)
{
	const char *rev_id = revision_id;
	int rc;

	memset(src, 0, sizeof(*src));
	if ((rc = dom_space_get(d, space_id, need, &src->space)))
		return rc;
	if (cr_key) {
		if ((rc = dom_change_request_get(d, &src->space, cr_key, &src->cr)))
			return rc;
		src->has_cr = 1;
		rev_id = src->cr.revision;
	} else if (!rev_id) {
		rev_id = src->space.revision;
	}
	rc = store_revision_get(d->tx, rev_id, &src->rv);
	if (rc == ERR_NOT_FOUND || (!rc && strcmp(src->rv->space_id, src->space.id) != 0))
		return err_set(ERR_NOT_FOUND, "revision not found");
	return rc;
}

int dom_page_summary(struct dom *d, const char *revision_id, const char *page_id, struct page_summary *out)
{
	const struct revision *rv;
	const struct rev_page *p;
	int rc = store_revision_get(d->tx, revision_id, &rv);

	if (rc)
		return rc;
	if (!(p = revision_page(rv, page_id)))
		return err_set(ERR_NOT_FOUND, "page not found");
	out->id = p->id;
	out->title = p->title && *p->title ? p->title : "Untitled";
	out->emoji = p->emoji;
	out->icon = p->icon;
	out->path = p->path ? p->path : p->slug;
	out->created_at = p->created_at;
	out->updated_at = p->updated_at;
	return 0;
}
