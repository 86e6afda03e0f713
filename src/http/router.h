#ifndef DOCSD_HTTP_ROUTER_H
#define DOCSD_HTTP_ROUTER_H

struct req;

/* Route, check and run one request; always leaves a response in r. */
void router_dispatch(struct req *r);

#endif
