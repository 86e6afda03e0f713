#ifndef DOCSD_HTTP_LISTENER_H
#define DOCSD_HTTP_LISTENER_H

#include "server.h"

int listener_start(struct server *srv);
int listener_port(struct server *srv);
/* Stop accepting new connections; requests in flight go on. */
void listener_quiesce(struct server *srv);
/* Finish requests in flight and stop all threads. */
void listener_stop(struct server *srv);

#endif
