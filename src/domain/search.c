/*
 * search.c - searchSpaceContent and searchOrganizationContent as operations
 * (domain/comments.h). The store ranks and pages the results (store/search.h);
 * this file checks the actor's access, the query text, and which spaces an
 * organization search may look into.
 */
#include "domain/comments.h"
#include "util/err.h"

#include <string.h>

/* query: required, 1..SEARCH_QUERY_MAX bytes, not only white space. */
static int check_query(const char *q)
{
	if (!q || !q[strspn(q, " \t\r\n")])
		return err_set(ERR_INVALID, "query: required");
	if (strlen(q) > SEARCH_QUERY_MAX)
		return err_set(ERR_INVALID, "query: at most %d characters", SEARCH_QUERY_MAX);
	return 0;
}

int dom_search_space(struct dom *d, const char *space_id, const char *query, const struct list_req *lr,
		     struct search_page **items, int *n, char **next)
{
	struct space s;
	int rc;

	if ((rc = dom_space_get(d, space_id, ROLE_READ, &s)) || (rc = check_query(query)))
		return rc;
	return store_search_space(d->tx, s.id, query, lr, items, n, next);
}

/* The ids of the organization's spaces the actor reads, through the space
 * list's own filter (dom_keep_space), a page of 1000 at a time. */
static int readable_spaces(struct dom *d, const struct access_ctx *ctx, const char *org_id, const char ***ids,
			   int *n)
{
	struct dom_list cl;
	struct list_req lr = { .limit = 1000 };
	struct cursor cur;
	struct space *items;
	char *next;
	int got, cap = 0, rc;

	*ids = NULL;
	*n = 0;
	if ((rc = dom_list_init(d, ctx, org_id, &cl)))
		return rc;
	do {
		if ((rc = store_spaces_list(d->tx, SPACES_OF_ORG, org_id, NULL, &lr, dom_keep_space, &cl, &items, &got,
					    &next)))
			return rc;
		if (*n + got > cap) {
			const char **bigger;
			cap = 2 * (*n + got);
			bigger = arena_alloc(d->arena, (size_t)cap * sizeof(*bigger));
			if (*n)
				memcpy(bigger, *ids, (size_t)*n * sizeof(*bigger));
			*ids = bigger;
		}
		for (int i = 0; i < got; i++)
			(*ids)[(*n)++] = items[i].id;
		if (next && (rc = cursor_decode(d->arena, next, &cur)))
			return rc;
		lr.after = &cur;
	} while (next);
	return 0;
}

int dom_search_org(struct dom *d, const char *org_id, const char *query, const struct list_req *lr,
		   struct search_space **items, int *n, char **next)
{
	const struct access_ctx *ctx;
	const char **ids = NULL;
	int nids = 0, rc;

	*items = NULL;
	*n = 0;
	*next = NULL;
	if ((rc = dom_actor_access(d, org_id, &ctx)) || (rc = org_access_check(ctx->org_role, ORG_ACCESS_VIEW)) ||
	    (rc = check_query(query)))
		return rc;
	/* Admins read every space: no list to pass. */
	if (ctx->org_role == ROLE_ADMIN)
		return store_search_org(d->tx, org_id, NULL, 0, query, lr, items, n, next);
	if ((rc = readable_spaces(d, ctx, org_id, &ids, &nids)) || nids == 0)
		return rc;
	return store_search_org(d->tx, org_id, ids, nids, query, lr, items, n, next);
}
