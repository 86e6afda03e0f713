/*
 * router.h - matching paths against the route table, and dispatching.
 */
#ifndef DOCSD_HTTP_ROUTER_H
#define DOCSD_HTTP_ROUTER_H

#include "http/http.h"

struct route_match {
	int index;                         /* into routes[] */
	int nparams;
	const char *names[REQ_MAX_PARAMS];
	const char *values[REQ_MAX_PARAMS];
	char allow[128];                   /* methods of the path, for 405 */
};

/* 1 when path fits the template, else 0; with an arena, the parameters are
 * copied into m. */
int route_template_match(const char *tpl, const char *path, struct arena *a, struct route_match *m);
/* 0 with m filled; ERR_NOT_FOUND; or ERR_METHOD with m->allow listing the
 * path's methods. */
int route_find(const char *method, const char *path, struct arena *a, struct route_match *m);

/* Route, check and run one request, and return 0 with a response in r; or,
 * when the route has a prefetch step, return 1 with r authenticated
 * (REQ_AUTHENTICATED), no response and nothing held: the caller then calls
 * router_prefetch(r) and router_dispatch(r) again, which answers. */
int router_dispatch(struct req *r);
/* The prefetch step of a REQ_AUTHENTICATED request: run the route's hook (on
 * any thread, one at a time; no transaction or lock), or record `refused` (an
 * err.h code whose message this thread set) instead. r is then REQ_PREFETCHED
 * and its next router_dispatch answers with the outcome. */
void router_prefetch(struct req *r, int refused);

#endif
