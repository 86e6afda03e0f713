#ifndef DOCSD_HTTP_LISTENER_H
#define DOCSD_HTTP_LISTENER_H

#include "server.h"

int listener_start(struct server *srv);
/* Two daemons: the API and the web interface on --listen, published sites
 * (and the other bytes users and integrations choose) on --site-listen. */
int listener_port(struct server *srv);
int listener_site_port(struct server *srv);
/* Stop accepting new connections; requests in flight go on. */
void listener_quiesce(struct server *srv);
/* Finish requests in flight and stop all threads. */
void listener_stop(struct server *srv);

#endif
