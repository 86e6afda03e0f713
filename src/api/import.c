/*
 * import.c - importContent and importContentInChangeRequest: the body read,
 * the crawl in the route's prefetch step (no transaction held: the
 * connection waits suspended while a fetch thread crawls), the pages written
 * in the handler's transaction (domain/import.h).
 */
#include "api/api.h"
#include "json/serialize_content.h"
#include "domain/import.h"

/* {url, source}: GitBook's ImportContent. */
static int read_args(struct req *r, struct import_args *out)
{
	const char *url = NULL, *source = NULL;
	int rc;

	if ((rc = body_string(r, "url", F_REQUIRED, 1, IMPORT_MAX_URL, &url)) < 0 ||
	    (rc = body_string(r, "source", F_REQUIRED, 1, 64, &source)) < 0)
		return rc;
	return dom_import_args(&r->arena, url, source, out);
}

int api_content_import_prefetch(struct req *r)
{
	struct import_crawl *c = arena_alloc(&r->arena, sizeof(*c));
	struct import_args args;
	int rc;

	if ((rc = read_args(r, &args)) ||
	    (rc = dom_import_prefetch(r->srv, &r->arena, r->caller_id, req_param(r, "spaceId"),
				      req_param(r, "changeRequestId"), &args, c)))
		return rc;
	r->crawl = c;
	return 0;
}

int api_content_import(struct req *r)
{
	struct import_result res;
	struct jw *g;
	int rc;

	/* The route always takes its prefetch step, which answers bad bodies. */
	if (!r->crawl)
		return err_set(ERR_INTERNAL, "the import was not crawled before its transaction");
	if ((rc = dom_import(&r->dom, req_param(r, "spaceId"), req_param(r, "changeRequestId"), r->crawl, &res)))
		return rc;
	resp_header(r, "Location",
		    arena_printf(&r->arena, "%s/v1/spaces/%s/revisions/%s", api_base(r), res.space_id, res.revision));
	/* 200 as the seed says (GitBook's document says 201). */
	g = resp_json(r, 200);
	import_result_to_json(g, res.revision, res.imported, res.total);
	return 0;
}
