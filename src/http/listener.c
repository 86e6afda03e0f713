/*
 * listener.c - libmicrohttpd glue: the daemon, the per-request lifecycle, and
 * turning a finished struct req into bytes on the wire.
 *
 * libmicrohttpd calls the access handler several times per request:
 *   1st call: headers only. We allocate the req and return. Queueing a response
 *            here would turn keep-alive off (measured: 23k instead of ~120k
 *            requests/s), so we never do.
 *   next calls: body chunks, appended up to --max-body; past it the rest is
 *            read and dropped, and the last call answers 413.
 *   last call: *upload_data_size == 0; we route, run and queue the response.
 * The completion callback frees the req and everything it owns.
 *
 * Slow clients: libmicrohttpd's connection timeout restarts on every byte, so
 * conntrack.c adds a deadline for a whole request head and a minimum body
 * rate; the phases are set here (head complete on the first call, request
 * complete on the last, response sent on completion). Per-address and total
 * connection limits are libmicrohttpd's own, the total capped by the open-file
 * limit, which listener_start raises as far as the hard limit allows.
 *
 * libmicrohttpd's own error pages: it answers some requests by itself (a
 * malformed request line or header, a head larger than its buffer: 400, 414,
 * 431, 413, 505) with fixed HTML bodies that no option replaces. docsd defines
 * MHD_queue_response, which the library calls through its PLT for exactly
 * these pages (connection.c transmit_error_response_len in 0.9.75), and queues
 * GitBook's JSON envelope with the same status instead. docsd's own responses
 * go to the library's function directly (real_queue), so only the library's
 * pages pass through the substitute. tests/api/errors.test.mjs checks each one
 * on a raw socket.
 *
 * Prefetch steps (a content batch's file URLs, routes.h) run on FETCH_THREADS
 * fetch threads, never on a worker: a worker serves every connection it
 * accepted (keep-alive connections stay with it), so a fetch there would hold
 * them all. The worker suspends the connection (MHD_suspend_connection), a
 * fetch thread runs the step and resumes it, and libmicrohttpd calls the
 * access handler again, which goes on where the request stopped:
 *
 *   RECEIVED ──router_dispatch──> DISPATCHED (answered; no prefetch step, or an error)
 *      │ router_dispatch returns 1: checked, authenticated, nothing held
 *      v
 *   AUTHENTICATED ──fetch_submit refuses (queue full, stopping)──┐
 *      │ fetch_submit: suspend, queue                            │ router_prefetch(r, 503)
 *      v                                                         v
 *   PREFETCHING ──fetch thread: router_prefetch, resume──> PREFETCHED
 *   (suspended)   (fetch_stop: router_prefetch(r, 503), resume)  │ access handler,
 *                                                                │ router_dispatch
 *                                                                v
 *                                   responded <──send_response── DISPATCHED
 *
 * Ownership: the worker owns r, except in PREFETCHING, when the fetch thread
 * (or fetch_stop) does; the hand-overs are the pool's mutex and
 * MHD_resume_connection (the library's own mutex), after which the fetch
 * thread never touches r. A suspended connection is not read, timed out or
 * closed by libmicrohttpd, so r lives until it is resumed; a client that left
 * meanwhile is seen after the resume and its r freed by on_completed as usual.
 * conntrack.c keeps the connection BUSY (no deadline) throughout. The daemon
 * must not stop with a suspended connection: listener_stop runs fetch_stop
 * first, which answers queued requests 503, waits for the running fetches
 * (bounded by their own time budget; a website import's crawl, whose budget
 * is 30 s, stops at its next fetch once server.stopping is set) and then for
 * every resumed request to be
 * answered, for a few seconds at most.
 */
#include "api/routes.h"
#include "http/http.h"
#include "http/listener.h"
#include "http/router.h"
#include "http/services.h"
#include "http/conntrack.h"
#include "util/alloc.h"
#include "util/err.h"
#include "util/log.h"
#include "util/text.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <limits.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define DISCARD_MAX ((size_t)64 << 20)
/* Prefetch steps run at once, and waiting (each suspended with its body, up to
 * --max-body): more is 503. */
#define FETCH_THREADS 4
#define FETCH_QUEUE 64
/* How long shutdown waits for resumed requests to be answered. */
#define FETCH_DRAIN_MS 5000
/* Descriptors kept for everything but client connections: the listening
 * socket, epoll and wake-up descriptors, database files and connections,
 * outgoing fetches, job workers. */
#define FD_RESERVE(threads) (256 + 8 * (threads))

/* ---- libmicrohttpd's own error pages, as JSON ---- */

typedef enum MHD_Result (*queue_fn)(struct MHD_Connection *, unsigned int, struct MHD_Response *);
static queue_fn real_queue;          /* set once, then constant */
static pthread_once_t real_queue_once = PTHREAD_ONCE_INIT;

static void resolve_real_queue(void)
{
	void *sym = dlsym(RTLD_NEXT, "MHD_queue_response");

	memcpy(&real_queue, &sym, sizeof(real_queue));
}

static const char *library_error_message(unsigned status)
{
	switch (status) {
	case 400: return "malformed HTTP request";
	case 413: return "request body is too large";
	case 414: return "request URI is too long";
	case 431: return "request headers are too large";
	case 505: return "HTTP version not supported";
	case 500: return "internal error";
	default: return "request refused";
	}
}

/* A JSON error response with this status, or NULL when libmicrohttpd cannot
 * make one. */
static struct MHD_Response *json_error_response(unsigned status)
{
	struct MHD_Response *resp = NULL;
	struct jw w;

	jw_init(&w);
	http_error_json(&w, (int)status, library_error_message(status));
	jw_put(&w, "\n", 1);
	if (jw_ok(&w))
		resp = MHD_create_response_from_buffer(w.len, w.buf, MHD_RESPMEM_MUST_COPY);
	jw_free(&w);
	if (resp && MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json; charset=utf-8") != MHD_YES) {
		MHD_destroy_response(resp);
		resp = NULL;
	}
	return resp;
}

/* Reached only by libmicrohttpd's own calls (see the top of this file). */
enum MHD_Result MHD_queue_response(struct MHD_Connection *connection, unsigned int status_code,
				   struct MHD_Response *response)
{
	struct MHD_Response *json;
	enum MHD_Result ret;

	pthread_once(&real_queue_once, resolve_real_queue);
	if (!real_queue)
		abort(); /* listener_start checked it already */
	if (status_code < 400 || !(json = json_error_response(status_code)))
		return real_queue(connection, status_code, response);
	ret = real_queue(connection, status_code, json);
	MHD_destroy_response(json);
	return ret;
}

/* ---- queries with too many parameters ----
 *
 * libmicrohttpd 0.9.75 stores each query parameter as a record in the
 * connection's pool (MHD_OPTION_CONNECTION_MEMORY_LIMIT below) while it reads
 * the request line, before any callback of ours but the URI log one: about 500
 * of them ("?a&a&a...", 1 KB of URL) fill the pool, and the library then cannot
 * build even its own 431: the client gets a closed connection and no answer
 * (tests/api/bad-input.test.mjs). The URI log callback runs before that
 * parsing: for a query of more than QUERY_MAX_PARAMS parameters (fewer in a
 * long request line: QUERY_POOL_BUDGET) it ends the
 * query right after its '?' (so the parser stores none) and returns the marker
 * below as the request's context; on_request turns it into a request whose
 * router answers 400. 128 records and the longest request line the pool takes
 * leave room for the response; no operation has a tenth of that many. */
#define QUERY_MAX_PARAMS 128
/* The request line and the records share the pool: a long line leaves room
 * for fewer (a record is about 64 bytes with its alignment; 24 KiB of line and
 * records leave the headers and the response the rest of the 32 KiB). */
#define QUERY_RECORD_BYTES 64
#define QUERY_POOL_BUDGET (24 * 1024)
static const char query_cut_marker; /* its address only */

static void *on_uri(void *cls, const char *uri, struct MHD_Connection *conn)
{
	const char *q = strchr(uri, '?');
	size_t n = 1;

	(void)cls;
	(void)conn;
	if (!q)
		return NULL;
	for (const char *s = q + 1; *s; s++)
		n += *s == '&';
	if (n <= QUERY_MAX_PARAMS && (n == 1 || strlen(uri) + n * QUERY_RECORD_BYTES <= QUERY_POOL_BUDGET))
		return NULL;
	/* The request line is in the library's read buffer, which its own
	 * parser writes NULs into next: writable, and ours to shorten here. */
	((char *)q)[1] = '\0';
	return (void *)&query_cut_marker;
}

/* ---- the fetch pool ---- */

struct fetchpool {
	pthread_mutex_t mu;          /* everything below but pending and threads */
	pthread_cond_t work;         /* a request queued, or stopping */
	struct req *queue[FETCH_QUEUE]; /* a ring of PREFETCHING requests */
	unsigned head, n;
	bool stopping;
	atomic_uint pending;         /* handed to the pool and not yet freed */
	pthread_t threads[FETCH_THREADS];
	int nthreads;
};

static void *fetch_main(void *arg)
{
	struct fetchpool *p = arg;
	struct req *r;
	struct MHD_Connection *conn;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (!p->n && !p->stopping)
			pthread_cond_wait(&p->work, &p->mu);
		if (!p->n)
			break; /* stopping: fetch_stop took what was queued */
		r = p->queue[p->head];
		p->head = (p->head + 1) % FETCH_QUEUE;
		p->n--;
		pthread_mutex_unlock(&p->mu);
		conn = r->conn;
		router_prefetch(r, 0);
		MHD_resume_connection(conn); /* r is the worker's again */
		pthread_mutex_lock(&p->mu);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

static void fetch_free(struct fetchpool *p)
{
	if (!p)
		return;
	pthread_cond_destroy(&p->work);
	pthread_mutex_destroy(&p->mu);
	free(p);
}

static int fetch_new(struct fetchpool **out)
{
	struct fetchpool *p = xcalloc(1, sizeof(*p));

	atomic_init(&p->pending, 0);
	if (pthread_mutex_init(&p->mu, NULL) != 0) {
		free(p);
		return err_set(ERR_INTERNAL, "cannot create the fetch pool's mutex");
	}
	if (pthread_cond_init(&p->work, NULL) != 0) {
		pthread_mutex_destroy(&p->mu);
		free(p);
		return err_set(ERR_INTERNAL, "cannot create the fetch pool's condition variable");
	}
	for (; p->nthreads < FETCH_THREADS; p->nthreads++)
		if (pthread_create(&p->threads[p->nthreads], NULL, fetch_main, p) != 0)
			break;
	if (p->nthreads < FETCH_THREADS) {
		pthread_mutex_lock(&p->mu);
		p->stopping = true;
		pthread_cond_broadcast(&p->work);
		pthread_mutex_unlock(&p->mu);
		for (int i = 0; i < p->nthreads; i++)
			pthread_join(p->threads[i], NULL);
		fetch_free(p);
		return err_set(ERR_INTERNAL, "cannot start the fetch threads");
	}
	*out = p;
	return 0;
}

/* Hand an AUTHENTICATED request to the pool and suspend its connection (on its
 * worker, in the access handler); ERR_UNAVAILABLE when the queue is full or
 * the server is stopping, with nothing done. The connection is suspended
 * before a fetch thread can see r, so that its resume never comes first. */
static int fetch_submit(struct fetchpool *p, struct req *r)
{
	int rc = 0;

	pthread_mutex_lock(&p->mu);
	if (p->stopping) {
		rc = err_set(ERR_UNAVAILABLE, "the server is stopping");
	} else if (p->n == FETCH_QUEUE) {
		rc = err_set(ERR_UNAVAILABLE, "too many requests are fetching URLs");
	} else {
		r->stage = REQ_PREFETCHING;
		r->pooled = true;
		atomic_fetch_add(&p->pending, 1);
		MHD_suspend_connection(r->conn);
		p->queue[(p->head + p->n) % FETCH_QUEUE] = r;
		p->n++;
		pthread_cond_signal(&p->work);
	}
	pthread_mutex_unlock(&p->mu);
	return rc;
}

/* Before the daemon stops: no suspended connection may be left (libmicrohttpd
 * panics), and requests in flight are finished. Queued requests answer 503;
 * running fetches end (their time budget bounds them); then the resumed
 * requests are answered, within FETCH_DRAIN_MS. */
static void fetch_stop(struct fetchpool *p)
{
	struct req *cancelled[FETCH_QUEUE];
	unsigned n;

	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->stopping = true;
	for (n = 0; p->n; n++, p->n--, p->head = (p->head + 1) % FETCH_QUEUE)
		cancelled[n] = p->queue[p->head];
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->mu);
	for (unsigned i = 0; i < n; i++) {
		struct MHD_Connection *conn = cancelled[i]->conn;
		router_prefetch(cancelled[i], err_set(ERR_UNAVAILABLE, "the server is stopping"));
		MHD_resume_connection(conn);
	}
	for (int i = 0; i < p->nthreads; i++)
		pthread_join(p->threads[i], NULL);
	p->nthreads = 0;
	for (int ms = 0; atomic_load(&p->pending) && ms < FETCH_DRAIN_MS; ms += 10)
		(void)nanosleep(&(struct timespec){ 0, 10 * 1000000L }, NULL);
}

/* ---- requests ---- */

/* Which listener a request arrived on. */
enum origin { ORIGIN_MAIN, ORIGIN_SITE, ORIGIN_RUNTIME };

static struct req *req_new(struct server *srv, struct MHD_Connection *conn, const char *url, const char *method,
			   enum origin origin)
{
	struct req *r = xcalloc(1, sizeof(*r));

	r->site_origin = origin == ORIGIN_SITE;
	r->runtime_origin = origin == ORIGIN_RUNTIME;

	arena_init(&r->arena);
	r->srv = srv;
	r->conn = conn;
	r->start_ns = clock_mono_ns();
	r->id = atomic_fetch_add(&srv->request_seq, 1) + 1;
	r->route_index = -1;
	r->url = arena_strdup(&r->arena, url);
	r->method = arena_strdup(&r->arena, method);
	return r;
}

static void req_free(struct req *r)
{
	if (!r)
		return;
	/* (never PREFETCHING: a suspended connection does not complete) */
	if (r->pooled)
		atomic_fetch_sub(&r->srv->fetches->pending, 1);
	store_tx_rollback(&r->tx);
	if (r->json)
		json_decref(r->json);
	jw_free(&r->out);
	free(r->body);
	arena_free(&r->arena);
	free(r);
}

static void access_log(struct req *r, int status)
{
	char line[1024], path[512];
	int64_t dur_ns = clock_mono_ns() - r->start_ns;
	int n;

	metrics_request(r->srv->metrics, r->route_index, status, dur_ns);
	if (log_get_level() < LOG_INFO)
		return;
	json_escape(path, sizeof(path), r->url);
	n = snprintf(line, sizeof(line),
		     "{\"level\":\"info\",\"msg\":\"request\",\"id\":%ld,\"method\":\"%s\",\"path\":\"%s\","
		     "\"route\":\"%s\",\"status\":%d,\"duration_ms\":%.3f}",
		     r->id, r->method, path, r->route ? r->route->name : "", status, (double)dur_ns / 1e6);
	if (n > 0)
		log_json_line(line, n < (int)sizeof(line) ? n : (int)sizeof(line) - 1);
}

static enum MHD_Result send_response(struct req *r)
{
	struct MHD_Response *resp;
	const unsigned char *buf = NULL;
	size_t len = 0;
	char num[32];
	enum MHD_Result ret;

	if (r->raw_body) {
		buf = (const unsigned char *)r->raw_body;
		len = r->raw_len;
	} else if (r->gen) {
		/* JSON bodies end with a newline, so that a terminal prompt does not
		 * run into them (the page cache keeps bodies without it). */
		jw_put(r->gen, "\n", 1);
		if (!jw_ok(r->gen))
			return MHD_NO; /* a body past SIZE_MAX / 2: drop the connection */
		buf = (const unsigned char *)r->gen->buf;
		len = r->gen->len;
	}
	/* A raw body lives in the request's arena (or longer), which is freed only
	 * when the request completes, after its last byte is sent: no copy. */
	if (buf && len)
		resp = MHD_create_response_from_buffer(len, (void *)buf,
						       r->raw_body ? MHD_RESPMEM_PERSISTENT : MHD_RESPMEM_MUST_COPY);
	else
		resp = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
	if (!resp)
		return MHD_NO;
	if (buf && len)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE,
					r->content_type ? r->content_type : "application/json; charset=utf-8");
	bool nosniff = false;
	for (int i = 0; i < r->nheaders; i++)
		if (r->header_names[i] && r->header_values[i]) {
			MHD_add_response_header(resp, r->header_names[i], r->header_values[i]);
			nosniff = nosniff || strcasecmp(r->header_names[i], "X-Content-Type-Options") == 0;
		}
	/* Every answer: no body is ever read as another type than it says
	 * (an API answer with a user's text as script or HTML). */
	if (!nosniff)
		MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
	if (r->rl_limit > 0) {
		snprintf(num, sizeof(num), "%d", r->rl_limit);
		MHD_add_response_header(resp, "X-RateLimit-Limit", num);
		snprintf(num, sizeof(num), "%d", r->rl_remaining);
		MHD_add_response_header(resp, "X-RateLimit-Remaining", num);
		snprintf(num, sizeof(num), "%lld", (long long)r->rl_reset);
		MHD_add_response_header(resp, "X-RateLimit-Reset", num);
	}
	snprintf(num, sizeof(num), "%ld", r->id);
	MHD_add_response_header(resp, "X-Request-Id", num);
	/* Draining: a keep-alive client must not send its next request on a
	 * connection the stop is about to close. */
	if (atomic_load(&r->srv->draining))
		MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
	ret = real_queue(r->conn, (unsigned)r->status, resp);
	MHD_destroy_response(resp);
	access_log(r, r->status);
	return ret;
}

/* Dispatch r and queue its response; or, when its route has a prefetch step,
 * suspend the connection and hand r to the fetch pool: the access handler's
 * next call (after the resume) dispatches it again, and answers. */
static enum MHD_Result dispatch(struct req *r)
{
	int rc;

	conntrack_busy(r->ct);
	if (router_dispatch(r)) {
		if ((rc = fetch_submit(r->srv->fetches, r)) == 0)
			return MHD_YES;
		router_prefetch(r, rc); /* 503 */
		router_dispatch(r);
	}
	return send_response(r);
}

/* The length of the body the head announces: Content-Length, or --max-body for
 * a chunked body (capped at what we would read at all). */
static uint64_t announced_body(const struct server *srv, struct MHD_Connection *conn)
{
	const char *cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
	uint64_t n, cap = (uint64_t)srv->cfg.max_body + DISCARD_MAX;

	if (cl && parse_decimal(cl, UINT64_MAX, &n) == 0)
		return n < cap ? n : cap;
	if (MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING))
		return srv->cfg.max_body;
	return 0;
}

/* Every listener's access handler; origin: which one. */
static enum MHD_Result handle(struct server *srv, enum origin origin, struct MHD_Connection *conn, const char *url,
			      const char *method, const char *upload_data, size_t *upload_data_size, void **con_cls)
{
	struct req *r = *con_cls == &query_cut_marker ? NULL : *con_cls;
	bool cut = *con_cls == &query_cut_marker;

	if (!r) {
		const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
		uint64_t body_len = announced_body(srv, conn);
		r = req_new(srv, conn, url, method, origin);
		*con_cls = r;
		r->ct = ci ? ci->socket_context : NULL;
		conntrack_head_done(srv->conns, r->ct, body_len);
		r->query_cut = cut;
		/* A client that waits for "100 Continue" before sending an oversized
		 * body gets the 413 instead, and never sends it. (Answering in the first
		 * call costs keep-alive, which does not matter for a refused request.) */
		if (body_len > srv->cfg.max_body &&
		    MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_EXPECT)) {
			r->body_too_large = 1;
			return dispatch(r);
		}
		return MHD_YES;
	}
	if (*upload_data_size) {
		size_t n = *upload_data_size;
		*upload_data_size = 0;
		if (r->body_too_large) {
			/* Read and drop the rest so that the 413 reaches the client: closing
			 * with unread data would reset the connection and lose the answer.
			 * Past DISCARD_MAX we answer at once and let the connection go. */
			r->body_discarded += n;
			if (r->body_discarded > DISCARD_MAX && !r->responded)
				return dispatch(r);
			return MHD_YES;
		}
		if (n > srv->cfg.max_body - r->body_len) {
			r->body_too_large = 1;
			r->body_discarded = r->body_len + n;
			free(r->body);
			r->body = NULL;
			r->body_len = r->body_cap = 0;
			return MHD_YES;
		}
		if (r->body_len + n + 1 > r->body_cap) {
			size_t cap = r->body_cap ? r->body_cap : 1024;
			while (cap < r->body_len + n + 1)
				cap *= 2;
			if (cap > srv->cfg.max_body + 1)
				cap = srv->cfg.max_body + 1;
			r->body = xrealloc(r->body, cap);
			r->body_cap = cap;
		}
		memcpy(r->body + r->body_len, upload_data, n);
		r->body_len += n;
		r->body[r->body_len] = '\0';
		return MHD_YES;
	}
	if (r->responded)
		return MHD_YES; /* already answered (413 during upload) */
	return dispatch(r); /* the last call, or the first after a resume */
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
				  const char *version, const char *upload_data, size_t *upload_data_size, void **con_cls)
{
	(void)version;
	return handle(cls, ORIGIN_MAIN, conn, url, method, upload_data, upload_data_size, con_cls);
}

static enum MHD_Result on_site_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
				       const char *version, const char *upload_data, size_t *upload_data_size,
				       void **con_cls)
{
	(void)version;
	return handle(cls, ORIGIN_SITE, conn, url, method, upload_data, upload_data_size, con_cls);
}

static enum MHD_Result on_runtime_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
					  const char *version, const char *upload_data, size_t *upload_data_size,
					  void **con_cls)
{
	(void)version;
	return handle(cls, ORIGIN_RUNTIME, conn, url, method, upload_data, upload_data_size, con_cls);
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls, enum MHD_RequestTerminationCode toe)
{
	struct server *srv = cls;
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	(void)toe;
	/* The response is sent: the connection waits for its next request. */
	if (ci)
		conntrack_idle(srv->conns, ci->socket_context);
	/* (the marker of on_uri when the request ended before on_request ran) */
	if (*con_cls != &query_cut_marker)
		req_free(*con_cls);
	*con_cls = NULL;
}

static void on_connection(void *cls, struct MHD_Connection *conn, void **socket_context, enum MHD_ConnectionNotificationCode toe)
{
	struct server *srv = cls;
	const union MHD_ConnectionInfo *ci;

	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		metrics_connection(srv->metrics, 1);
		ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
		*socket_context = ci ? conntrack_open(srv->conns, ci->connect_fd) : NULL;
		/* A connection no deadline can watch is not served. */
		if (!*socket_context && ci)
			(void)shutdown(ci->connect_fd, SHUT_RDWR);
	} else {
		metrics_connection(srv->metrics, -1);
		conntrack_close(srv->conns, *socket_context);
		*socket_context = NULL;
	}
}

static void on_panic(void *cls, const char *file, unsigned int line, const char *reason)
{
	(void)cls;
	log_error("libmicrohttpd panic at %s:%u: %s", file ? file : "?", line, reason ? reason : "");
	abort();
}

/* Percent-decoding of the path and of query arguments. libmicrohttpd's own
 * decoder turns %2F into a separator and %00 into the end of the string, so
 * "/v1/orgs/%00" would name /v1/orgs and "/v1/orgs/x%2Fmembers" another route.
 * We decode everything except those two, which stay encoded: inside a path
 * segment they are then part of an (unknown) id, and req_query() decodes %2F in
 * query values itself. Invalid escapes are kept as they are. */
static size_t on_unescape(void *cls, struct MHD_Connection *conn, char *s)
{
	(void)cls;
	(void)conn;
	/* Without PCT_STRICT the decode cannot fail: the length is >= 0. */
	return (size_t)pct_decode(s, s, strlen(s), PCT_KEEP_NUL | PCT_KEEP_SLASH);
}

static int parse_listen(const char *opt, const char *listen, struct sockaddr_in *sa)
{
	char host[256];
	const char *colon = strrchr(listen, ':');
	char *end;
	long port;
	size_t hl;

	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	if (!colon)
		return err_set(ERR_INVALID, "--%s must be HOST:PORT", opt);
	hl = (size_t)(colon - listen);
	if (hl >= sizeof(host))
		return err_set(ERR_INVALID, "--%s host too long", opt);
	memcpy(host, listen, hl);
	host[hl] = '\0';
	port = strtol(colon + 1, &end, 10);
	if (*end || port < 0 || port > 65535)
		return err_set(ERR_INVALID, "--%s port must be 0..65535", opt);
	if (hl == 0 || strcmp(host, "0.0.0.0") == 0 || strcmp(host, "*") == 0)
		sa->sin_addr.s_addr = htonl(INADDR_ANY);
	else if (strcmp(host, "localhost") == 0)
		sa->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	else if (inet_pton(AF_INET, host, &sa->sin_addr) != 1)
		return err_set(ERR_INVALID, "--%s host must be an IPv4 address", opt);
	sa->sin_port = htons((uint16_t)port);
	return 0;
}

/* Raise the soft open-file limit as far as the hard limit allows; return the
 * number of client connections it leaves room for (UINT_MAX: no limit known). */
static unsigned fd_room(unsigned threads)
{
	struct rlimit rl;
	rlim_t want, reserve = FD_RESERVE(threads);

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return UINT_MAX;
	want = rl.rlim_max == RLIM_INFINITY ? (rlim_t)1 << 20 : rl.rlim_max;
	if (rl.rlim_cur < want) {
		struct rlimit up = { want, rl.rlim_max };
		if (setrlimit(RLIMIT_NOFILE, &up) == 0)
			rl.rlim_cur = want;
		else
			log_error("cannot raise the open file limit from %llu to %llu", (unsigned long long)rl.rlim_cur,
				  (unsigned long long)want);
	}
	if (rl.rlim_cur < reserve + 16)
		return 16;
	return rl.rlim_cur - reserve < UINT_MAX ? (unsigned)(rl.rlim_cur - reserve) : UINT_MAX;
}

/* One daemon on sa, with on_request for the API and the app,
 * on_site_request for published sites or on_runtime_request for the
 * scripts' callbacks; all share the connection tracker, the fetch pool and
 * the timeouts; per_ip is the per-address connection limit (0: none). */
static struct MHD_Daemon *daemon_start(struct server *srv, struct sockaddr_in *sa, MHD_AccessHandlerCallback handler,
				       unsigned threads, unsigned max_conn, unsigned per_ip)
{
	/* Several epoll threads, and always a connection timeout: libmicrohttpd
	 * 0.9.75 can wait on a full 128-event epoll buffer until the next timeout
	 * (DESIGN.md; bench/conns.sh drives exactly 128, 256 and 512 connections). */
	return MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_TURBO | MHD_USE_ITC |
					MHD_ALLOW_SUSPEND_RESUME,
				0, NULL, NULL,
				handler, srv,
				MHD_OPTION_SOCK_ADDR, (struct sockaddr *)sa,
				MHD_OPTION_THREAD_POOL_SIZE, threads,
				MHD_OPTION_CONNECTION_LIMIT, max_conn,
				MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)srv->cfg.connection_timeout,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)32 * 1024,
				MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u,
				MHD_OPTION_LISTENING_ADDRESS_REUSE, 1u, /* restart at once after a crash */
				MHD_OPTION_UNESCAPE_CALLBACK, on_unescape, NULL,
				MHD_OPTION_URI_LOG_CALLBACK, on_uri, NULL,
				MHD_OPTION_NOTIFY_COMPLETED, on_completed, srv,
				MHD_OPTION_NOTIFY_CONNECTION, on_connection, srv,
				MHD_OPTION_END);
}

/* --site-listen, or by default the --listen address with the next port
 * (port 0 stays 0: any free port). */
static int site_listen_addr(const struct server *srv, const struct sockaddr_in *main_sa, struct sockaddr_in *sa)
{
	uint16_t port;

	if (srv->cfg.site_listen)
		return parse_listen("site-listen", srv->cfg.site_listen, sa);
	*sa = *main_sa;
	port = ntohs(main_sa->sin_port);
	if (port == 65535)
		return err_set(ERR_INVALID, "--listen port 65535 leaves no next port for the sites: give --site-listen");
	sa->sin_port = htons(port ? (uint16_t)(port + 1) : 0);
	return 0;
}

int listener_start(struct server *srv)
{
	struct sockaddr_in sa, site_sa;
	struct MHD_Daemon *d;
	int rc = parse_listen("listen", srv->cfg.listen, &sa);
	unsigned threads = srv->cfg.threads > 0 ? (unsigned)srv->cfg.threads : 2;
	unsigned max_conn = (unsigned)srv->cfg.max_connections, room;

	if (rc || (rc = site_listen_addr(srv, &sa, &site_sa)))
		return rc;
	pthread_once(&real_queue_once, resolve_real_queue);
	if (!real_queue)
		return err_set(ERR_INTERNAL, "cannot find libmicrohttpd's MHD_queue_response");
	room = fd_room(2 * threads);
	if (max_conn > room) {
		log_info("--max-connections %u lowered to %u by the open file limit", max_conn, room);
		max_conn = room;
	}
	if (max_conn < threads)
		max_conn = threads;
	rc = conntrack_new(&srv->conns, srv->cfg.head_timeout, srv->cfg.body_min_rate);
	if (rc)
		return rc;
	if ((rc = fetch_new(&srv->fetches))) {
		conntrack_free(srv->conns);
		srv->conns = NULL;
		return rc;
	}
	MHD_set_panic_func(on_panic, NULL);
	d = daemon_start(srv, &sa, on_request, threads, max_conn, (unsigned)srv->cfg.max_connections_per_ip);
	if (d) {
		srv->daemon = d;
		d = daemon_start(srv, &site_sa, on_site_request, threads, max_conn,
				 (unsigned)srv->cfg.max_connections_per_ip);
		srv->site_daemon = d;
	}
	if (!d) {
		int site = srv->daemon != NULL;
		if (srv->daemon)
			MHD_stop_daemon(srv->daemon);
		srv->daemon = NULL;
		fetch_stop(srv->fetches);
		fetch_free(srv->fetches);
		srv->fetches = NULL;
		conntrack_free(srv->conns);
		srv->conns = NULL;
		if (site && srv->cfg.site_listen)
			return err_set(ERR_UNAVAILABLE, "cannot listen on --site-listen %s", srv->cfg.site_listen);
		if (site)
			return err_set(ERR_UNAVAILABLE, "cannot listen on the published sites' port (--listen's + 1): "
							"give --site-listen HOST:PORT");
		return err_set(ERR_UNAVAILABLE, "cannot listen on %s", srv->cfg.listen);
	}
	return 0;
}

static int daemon_port(void *daemon)
{
	const union MHD_DaemonInfo *info = daemon ? MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT) : NULL;

	return info ? info->port : 0;
}

/*
 * The scripts' callbacks (README, "Integrations runtime", Limits): workerd
 * connects from 127.0.0.1, like every local client of the main listener, and
 * libmicrohttpd counts --max-connections-per-ip at accept, before any header:
 * a script with many fetches in flight took the whole budget of 127.0.0.1
 * and local clients were refused (and the other way round). So callbacks
 * come to a listener of their own, on loopback and an ephemeral port, with
 * its own limit (--runtime-callback-connections, for all connections and per
 * address alike: only workerd connects). The router refuses anything on it
 * without the server's callback secret and serves only /v1 there, so that
 * nothing else on the machine uses it to dodge the main listener's limits.
 */
int listener_start_runtime(struct server *srv)
{
	struct sockaddr_in sa;
	unsigned n = srv->cfg.runtime_callback_connections > 0 ? (unsigned)srv->cfg.runtime_callback_connections : 64;
	unsigned threads = srv->cfg.threads > 0 ? (unsigned)srv->cfg.threads : 2;

	if (!srv->conns || !srv->fetches)
		return err_set(ERR_INTERNAL, "the runtime's listener starts after the others");
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sa.sin_port = 0;
	/* libmicrohttpd wants at least one connection per thread. */
	if (threads > n)
		threads = n;
	srv->runtime_daemon = daemon_start(srv, &sa, on_runtime_request, threads, n, n);
	if (!srv->runtime_daemon)
		return err_set(ERR_UNAVAILABLE, "cannot listen on 127.0.0.1 for the integrations' callbacks");
	log_info("runtime callbacks listen on 127.0.0.1:%d", listener_runtime_port(srv));
	return 0;
}

void listener_stop_runtime(struct server *srv)
{
	if (srv->runtime_daemon)
		MHD_stop_daemon(srv->runtime_daemon);
	srv->runtime_daemon = NULL;
}

int listener_runtime_port(struct server *srv)
{
	return daemon_port(srv->runtime_daemon);
}

int listener_port(struct server *srv)
{
	return daemon_port(srv->daemon);
}

int listener_site_port(struct server *srv)
{
	return daemon_port(srv->site_daemon);
}

/*
 * SIGTERM's drain: stop accepting, then let the requests in flight finish
 * before listener_stop closes every connection. Without the wait,
 * MHD_stop_daemon dropped a request that had arrived and not been answered
 * yet ("socket hang up" at the client: tests/api/multiprocess.test.mjs, the
 * rolling restart). The listening socket is shut down at once, so a new
 * connection is refused (a balancer or client retries elsewhere) rather than
 * left in the backlog until the stop resets it. /healthz answers 503 from
 * now on and each response closes its connection. The wait ends when no
 * request was in flight for DRAIN_QUIET_TICKS ticks in a row (a request sent
 * just before the balancer took the process out is still on its way), or
 * after DRAIN_MS (a handler stuck longer is cut, as before).
 */
#define DRAIN_MS 8000
#define DRAIN_TICK_MS 20
#define DRAIN_QUIET_TICKS 5

void listener_quiesce(struct server *srv)
{
	const struct timespec tick = { 0, DRAIN_TICK_MS * 1000000L };
	/* Not the runtime's listener: a delivery in flight (which the drain
	 * waits for) still calls back docsd; listener_stop stops it. */
	struct MHD_Daemon *daemons[2] = { srv->daemon, srv->site_daemon };
	int quiet = 0, waited = 0;
	size_t busy = 0;

	if (!srv->daemon)
		return;
	atomic_store(&srv->draining, true);
	for (int i = 0; i < 2; i++) {
		MHD_socket fd = daemons[i] ? MHD_quiesce_daemon(daemons[i]) : MHD_INVALID_SOCKET;
		if (fd == MHD_INVALID_SOCKET)
			continue;
		/* Linux stops listening on shutdown(): new connections are
		 * refused; the descriptor stays allocated until listener_stop
		 * (a daemon thread may still hold it). */
		(void)shutdown(fd, SHUT_RDWR);
		srv->quiesced_fd[i] = fd;
		srv->has_quiesced_fd[i] = true;
	}
	/* The fetch pool's shutdown rule holds during the drain too: what
	 * waits in its queue is answered 503 now, and a crawl ends at its
	 * next fetch (server.stopping); the fetches running finish. Called
	 * again by listener_stop, where it has nothing left to do. */
	atomic_store(&srv->stopping, true);
	fetch_stop(srv->fetches);
	for (; waited < DRAIN_MS && quiet < DRAIN_QUIET_TICKS; waited += DRAIN_TICK_MS) {
		busy = conntrack_in_flight(srv->conns);
		quiet = busy ? 0 : quiet + 1;
		(void)nanosleep(&tick, NULL);
	}
	if (busy)
		log_error("stopping with %zu requests still in flight after %d ms", busy, DRAIN_MS);
}

void listener_stop(struct server *srv)
{
	/* No connection may be suspended when the daemon stops. */
	atomic_store(&srv->stopping, true);
	fetch_stop(srv->fetches);
	if (srv->daemon)
		MHD_stop_daemon(srv->daemon);
	if (srv->site_daemon)
		MHD_stop_daemon(srv->site_daemon);
	srv->daemon = srv->site_daemon = NULL;
	listener_stop_runtime(srv);
	for (int i = 0; i < 2; i++)
		if (srv->has_quiesced_fd[i]) {
			(void)close(srv->quiesced_fd[i]);
			srv->has_quiesced_fd[i] = false;
		}
	fetch_free(srv->fetches);
	srv->fetches = NULL;
	/* every connection is closed now: nothing refers to the tracker */
	conntrack_free(srv->conns);
	srv->conns = NULL;
}
