/*
 * search.c - searchSpaceContent and searchOrganizationContent: read the query
 * and the page, call the domain (domain/search.c), write GitBook's shapes
 * (json/serialize_search.c).
 */
#include "api/api.h"
#include "json/serialize_search.h"
#include "domain/comments.h"

int api_search_space(struct req *r)
{
	struct list_req lr;
	struct cursor cur;
	struct search_page *items;
	char *next;
	struct jw *g;
	int n, rc;

	if ((rc = req_list(r, &lr, &cur, NULL, 0)) ||
	    (rc = dom_search_space(&r->dom, req_param(r, "spaceId"), req_query(r, "query"), &lr, &items, &n, &next)))
		return rc;
	g = resp_list_begin(r);
	for (int i = 0; i < n; i++)
		search_page_to_json(g, api_base(r), &items[i]);
	return resp_list_end(r, n, next);
}

int api_search_org(struct req *r)
{
	struct list_req lr;
	struct cursor cur;
	struct search_space *items;
	char *next;
	struct jw *g;
	int n, rc;

	if ((rc = req_list(r, &lr, &cur, NULL, 0)) ||
	    (rc = dom_search_org(&r->dom, req_param(r, "organizationId"), req_query(r, "query"), &lr, &items, &n,
				 &next)))
		return rc;
	g = resp_list_begin(r);
	for (int i = 0; i < n; i++)
		search_space_to_json(g, api_base(r), &items[i]);
	return resp_list_end(r, n, next);
}
