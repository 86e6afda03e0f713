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

/* 1 when path fits the template; with an arena, the parameters are copied
 * into m. -1 on allocation failure. */
int route_template_match(const char *tpl, const char *path, struct arena *a, struct route_match *m);
/* 0 with m filled; ERR_NOT_FOUND; or ERR_METHOD with m->allow listing the
 * path's methods. */
int route_find(const char *method, const char *path, struct arena *a, struct route_match *m);

/* Route, check and run one request; always leaves a response in r. */
void router_dispatch(struct req *r);

#endif
