/*
 * http.h - a request as every layer above libmicrohttpd sees it.
 *
 * DESIGN
 * listener.c owns the libmicrohttpd daemon and turns each connection's request
 * into a struct req; router.c matches it against the route table
 * (api/routes.c), performs what the route's flags ask (authentication, rate
 * limit, JSON body, transaction, organization access) and only then calls the
 * handler. A handler reads its input through the req_* / body_* helpers, calls
 * the store and the domain layer, and writes its answer with the resp_*
 * helpers; it returns 0, or an error code from util/err.h that the router turns
 * into GitBook's error envelope.
 *
 * Lifetime: everything a request allocates lives in req->arena, which is freed
 * with the request when libmicrohttpd reports it completed.
 */
#ifndef DOCSD_HTTP_HTTP_H
#define DOCSD_HTTP_HTTP_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "json/jsonw.h"

#include "model/access.h"
#include "model/model.h"
#include "domain/domain.h"
#include "server.h"
#include "store/store.h"
#include "util/arena.h"

struct MHD_Connection;
struct route;
struct fetched_files; /* domain/content.h */
struct import_crawl;  /* domain/import.h */
struct ct_conn;

#define REQ_MAX_PARAMS 6
#define REQ_MAX_HEADERS 6

/* How far router_dispatch has taken a request (listener.c draws the states). */
enum req_stage {
	REQ_RECEIVED = 0,   /* read whole, not dispatched yet */
	REQ_AUTHENTICATED,  /* its route's prefetch step is next, with nothing held */
	REQ_PREFETCHING,    /* a fetch thread owns it; the connection is suspended */
	REQ_PREFETCHED,     /* back on its worker: the transaction and handler are next */
	REQ_DISPATCHED,     /* it has its response */
};

struct req {
	struct server *srv;
	struct MHD_Connection *conn;
	struct ct_conn *ct;           /* the connection's deadlines (conntrack.h) */
	struct arena arena;
	const char *method;
	const char *url;
	int64_t start_ns;
	long id;
	/* Arrived on the published sites' listener (--site-listen): the other
	 * origin, which serves no app or API route and reads no session. */
	bool site_origin;
	/* Arrived on the integrations' callback listener (listener_start_runtime):
	 * the API only, and only with the server's runtime secret. */
	bool runtime_origin;

	/* routing */
	const struct route *route;
	int route_index;              /* -1 when no route matched */
	int nparams;
	const char *param_names[REQ_MAX_PARAMS];
	const char *param_values[REQ_MAX_PARAMS];

	/* body */
	char *body;
	size_t body_len;
	size_t body_cap;
	int body_too_large;
	int query_cut;                /* the query had too many parameters for the pool (listener.c, on_uri) */
	size_t body_discarded;        /* bytes of an oversized body read and dropped */
	json_t *json;                 /* parsed body object, or NULL */
	/* what the route's prefetch step fetched before the transaction (a
	 * content batch's URLs), or NULL */
	const struct fetched_files *fetched;
	/* what a website import's prefetch step crawled, or NULL */
	const struct import_crawl *crawl;
	/* what an integration's site script fetch (a delivery to its worker)
	 * answered in the prefetch step, or NULL */
	const struct delivery_answer *site_script;
	enum req_stage stage;
	bool pooled;                  /* handed to the fetch pool (listener.c) */
	int prefetch_rc;              /* the prefetch step's err.h code, */
	const char *prefetch_msg;     /* and its message (set on another thread) */

	/* caller */
	const char *client_addr;      /* req_client_addr's answer, once computed */
	const char *token_hash;
	const char *caller_id;
	const char *caller_installation; /* an installation token's (http/tokens.c) */
	const char *caller_integration;  /* an integration or installation token's integration */
	struct user caller;
	int caller_loaded;
	/* A token cache hit not yet confirmed against the store: the entry's
	 * token generation (run_tx confirms it, http/tokens.c); -1 none. */
	int64_t token_unconfirmed;

	struct store_tx tx;
	/* The domain context: the transaction, the arena and the caller as actor
	 * (dom.actor.org: the caller's standing in {organizationId}). */
	struct dom dom;

	/* response */
	int status;
	struct jw *gen;               /* &out while the body is JSON, else NULL */
	struct jw out;
	int nheaders;
	const char *header_names[REQ_MAX_HEADERS];
	const char *header_values[REQ_MAX_HEADERS];
	const char *raw_body;        /* a non-JSON body (resp_text) */
	size_t raw_len;
	const char *content_type;
	int rl_limit;
	int rl_remaining;
	int64_t rl_reset;
	int responded;
};

/* ---- input ---- */
const char *req_param(const struct req *r, const char *name);
const char *req_query(struct req *r, const char *name);
const char *req_header(const struct req *r, const char *name);
/* The value of cookie `name` in the request's Cookie header (into r's
 * arena, without surrounding spaces), or NULL. */
const char *req_cookie(struct req *r, const char *name);
/* The client's address as canonical text ("127.0.0.1", "::1"; "?" unknown),
 * the one every rule keyed by client uses (the sign-in throttle, SAML's
 * limiter). The TCP peer, unless the peer is in --trusted-proxy: then the
 * right-most X-Forwarded-For entry that is not itself a trusted proxy (all
 * trusted: the left-most; a malformed entry: the trusted hop that added
 * it). Per-connection limits (conntrack, --max-connections-per-ip) stay on
 * the peer. */
const char *req_client_addr(struct req *r);

/* An integer written in decimal digits only (no sign, space, exponent, hex or
 * fraction), at most max: 0 with *out set, or -1. Every integer read from a
 * request goes through this. */
int parse_decimal(const char *s, uint64_t max, uint64_t *out);
/* The query parameter `name` as an integer in min..max: 1 with *out set, 0 when
 * absent, or ERR_INVALID naming the parameter. */
int req_query_int(struct req *r, const char *name, long min, long max, long *out);

/* Read `limit` (1..1000, default 100) and `page` into lr. order_param: when
 * non-NULL, also read that query parameter as asc|desc (default_desc applies
 * when absent). */
int req_list(struct req *r, struct list_req *lr, struct cursor *cur, const char *order_param, int default_desc);
/* req_list for a list that answers its total (store.h, "List totals"): the
 * list functions store it in *total (0 until they do). */
int req_list_total(struct req *r, struct list_req *lr, struct cursor *cur, const char *order_param, int default_desc,
		   int64_t *total);
/* A query parameter that must be one of `allowed` (NULL-terminated); *out =
 * index, or -1 when absent. */
int req_query_enum(struct req *r, const char *name, const char *const *allowed, int *out);

/* Body fields. Each returns 1 when the field is present (value or null), 0 when
 * absent, or ERR_INVALID naming the field. */
#define F_REQUIRED 1
#define F_NULLABLE 2
int body_string(struct req *r, const char *field, int flags, long minlen, long maxlen, const char **out);
int body_bool(struct req *r, const char *field, int flags, int *out);
int body_role(struct req *r, const char *field, int flags, enum role *out);
/* An array of strings (each 1..maxlen long, at most max_items). */
int body_string_array(struct req *r, const char *field, int flags, int max_items, long maxlen,
		      const char ***out, int *n);
json_t *body_field(struct req *r, const char *field);

/* The caller, loaded on first use. */
int req_caller(struct req *r, const struct user **out);

/* ---- output ---- */
/* Start a JSON response; returns the generator (never NULL). */
struct jw *resp_json(struct req *r, int status);
int resp_empty(struct req *r, int status);
/* A text body (copied into the arena) with its content type. */
int resp_text(struct req *r, int status, const char *content_type, const char *text, size_t len);
/* A binary body the request's arena (or something outliving it) owns. */
int resp_bytes(struct req *r, int status, const char *content_type, const void *data, size_t len);
int resp_header(struct req *r, const char *name, const char *value);
/* {"items": [ ... ], "count": total, "next": {"page": next}} around items
 * written between the two calls. count is GitBook's List.count, the "Total
 * count of objects in the list" the caller can see across every page, not
 * the number of items on this page: the list's function computes it
 * (req_list_total; store.h, "List totals"). */
struct jw *resp_list_begin(struct req *r);
int resp_list_end(struct req *r, int64_t total, const char *next);
/* Like resp_list_end, when the caller closed the items and added keys of its own. */
int resp_list_end_open(struct req *r, int64_t total, const char *next);

/* Map an err.h code to its HTTP status. */
int err_status(int code);
/* GitBook's error envelope {"error":{"code":status,"message":msg}} into w. */
void http_error_json(struct jw *w, int status, const char *msg);

#endif
