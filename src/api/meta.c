/*
 * meta.c - API information, health, metrics and users.
 */
#include "api/api.h"
#include "json/serialize_meta.h"
#include "domain/members.h"
#include "http/conntrack.h"
#include "http/services.h"
#include "site/site.h"

#include <stdlib.h>
#include <string.h>

int api_info(struct req *r)
{
	struct jw *g = resp_json(r, 200);

	api_info_to_json(g, DOCSD_VERSION, DOCSD_BUILD_DATE);
	return 0;
}

int api_home(struct req *r)
{
	struct jw *g;

	/* "/" on another host than docsd's own is a site's hostname that showed
	 * nothing (unknown, unpublished): not the API's home page. */
	if (site_request(r))
		return err_set(ERR_NOT_FOUND, "no such endpoint: GET /");
	g = resp_json(r, 200);
	home_to_json(g, r->srv->public_url, server_site_url(r->srv), DOCSD_VERSION);
	return 0;
}

int api_healthz(struct req *r)
{
	struct jw *g;

	if (!atomic_load(&r->srv->ready))
		return err_set(ERR_UNAVAILABLE, "starting");
	/* A load balancer's health check takes a stopping process out of
	 * rotation (README, Running several processes). */
	if (atomic_load(&r->srv->draining))
		return err_set(ERR_UNAVAILABLE, "draining");
	g = resp_json(r, 200);
	health_to_json(g, r->srv->engine);
	return 0;
}

int api_metrics(struct req *r)
{
	const char *names[256];
	struct metrics_extra extra;
	size_t len = 0;
	char *text;
	int rc, n = routes_count < 256 ? routes_count : 256;

	for (int i = 0; i < n; i++)
		names[i] = routes[i].name;
	pagecache_stats(r->srv->pages, &extra.page_cache_hits, &extra.page_cache_misses);
	extra.slow_connections_closed = conntrack_reaped(r->srv->conns);
	text = metrics_render(r->srv->metrics, names, n, &extra, &len);
	if (!text)
		return err_set(ERR_INTERNAL, "metrics: a line could not be formatted");
	rc = resp_text(r, 200, "text/plain; version=0.0.4", text, len);
	free(text);
	return rc;
}

static int send_user(struct req *r, const struct user *u)
{
	struct jw *g = resp_json(r, 200);

	user_to_json(g, api_base(r), u, true);
	return 0;
}

int api_user_get_self(struct req *r)
{
	struct user u;
	int rc = dom_user_self(&r->dom, &u);

	return rc ? rc : send_user(r, &u);
}

int api_user_get(struct req *r)
{
	struct user u;
	int rc = dom_user_get(&r->dom, req_param(r, "userId"), &u);

	return rc ? rc : send_user(r, &u);
}
