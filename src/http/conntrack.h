/*
 * conntrack.h - deadlines for slow clients: a whole request head within
 * --head-timeout, a body at --body-min-rate.
 *
 * libmicrohttpd 0.9.75's connection timeout restarts on every byte, so a
 * client that trickles one header byte per second would hold its connection
 * for ever. conntrack.c follows every connection (from libmicrohttpd's
 * connection notifications) through the phases of its requests and shuts down
 * the socket of one whose head or body is overdue; libmicrohttpd then sees the
 * socket end and closes the connection itself.
 *
 * Phases (each set by the connection's own thread; the reaper thread reads
 * them):
 *
 *   conntrack_open ──> WAIT_HEAD ──conntrack_head_done──> BODY
 *                         ^                                 │ conntrack_busy
 *                         └──────── conntrack_idle ─────── BUSY
 *
 * WAIT_HEAD: waiting for a request head. A connection that has sent nothing
 *   is idle, not slow: only libmicrohttpd's --connection-timeout applies. From
 *   the first byte of a head on, the whole head must arrive within
 *   --head-timeout. The first byte is seen in the kernel's count of bytes
 *   received (TCP_INFO), sampled by the reaper, never on the request path.
 * BODY: the head is complete; the body must be complete within --head-timeout
 *   plus its announced length (Content-Length; --max-body for a chunked body)
 *   at --body-min-rate.
 * BUSY: the request is handled and answered; no deadline (the handler and
 *   the write of the response are bounded elsewhere). This includes the time
 *   a request spends suspended while a fetch thread runs its route's prefetch
 *   step (listener.c), bounded by the step's own time budget.
 */
#ifndef DOCSD_HTTP_CONNTRACK_H
#define DOCSD_HTTP_CONNTRACK_H

#include <stddef.h>
#include <stdint.h>

struct conntrack;
struct ct_conn;

/* Start the reaper thread. head_timeout_s >= 1; body_min_rate in bytes per
 * second (>= 1). */
int conntrack_new(struct conntrack **out, int head_timeout_s, long body_min_rate);
/* Stop the reaper and free. Call after the daemon stopped (every connection
 * closed); accepts NULL. */
void conntrack_free(struct conntrack *ct);

/* A new connection on socket fd; NULL when the table cannot grow past
 * SIZE_MAX / 2 bytes (the caller then drops the connection). */
struct ct_conn *conntrack_open(struct conntrack *ct, int fd);
/* The connection is closed (before its socket is): after this the reaper
 * never touches fd again. Frees c; accepts NULL. */
void conntrack_close(struct conntrack *ct, struct ct_conn *c);

/* The request head is complete; body_len: the body's announced length. */
void conntrack_head_done(struct conntrack *ct, struct ct_conn *c, uint64_t body_len);
/* The request (body included) is complete and being handled. */
void conntrack_busy(struct ct_conn *c);
/* The response was sent: waiting for the next request head. */
void conntrack_idle(struct conntrack *ct, struct ct_conn *c);

/* Requests in flight now: connections reading a body or handling and
 * answering a request, and connections waiting for a head whose bytes the
 * kernel holds unread (a request on its way in). Idle keep-alive connections
 * are not counted, nor a head libmicrohttpd has read in part (a trickler:
 * --head-timeout bounds it). For draining at shutdown (listener_quiesce). */
size_t conntrack_in_flight(struct conntrack *ct);

/* Connections shut down for an overdue head or body since the start. */
unsigned long conntrack_reaped(struct conntrack *ct);

#endif
