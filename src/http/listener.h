#ifndef DOCSD_HTTP_LISTENER_H
#define DOCSD_HTTP_LISTENER_H

#include "server.h"

int listener_start(struct server *srv);
/* Two daemons: the API and the web interface on --listen, published sites
 * (and the other bytes users and integrations choose) on --site-listen. */
int listener_port(struct server *srv);
int listener_site_port(struct server *srv);
/* A third, for the integrations' callbacks only (listener.c explains):
 * 127.0.0.1 on an ephemeral port, its own connection limit, /v1 only and
 * only with srv->runtime_secret. After listener_start; listener_stop stops
 * it too. */
int listener_start_runtime(struct server *srv);
void listener_stop_runtime(struct server *srv);
int listener_runtime_port(struct server *srv); /* 0 when not started */
/* Stop accepting new connections; requests in flight go on. */
void listener_quiesce(struct server *srv);
/* Finish requests in flight and stop all threads. */
void listener_stop(struct server *srv);

#endif
