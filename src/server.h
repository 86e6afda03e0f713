/*
 * server.h - the server context passed to every layer that needs it.
 *
 * There are no mutable globals in docsd: the listener, the store, the caches
 * and the counters hang off one struct server created by server_start().
 */
#ifndef DOCSD_SERVER_H
#define DOCSD_SERVER_H

#include "domain/secrets.h"
#include "util/netaddr.h"
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store;
struct ratelimit;
struct token_cache;
struct metrics;
struct pagecache;
struct revcache;
struct pdfcache;
struct conntrack;
struct fetchpool;
struct sitecache;
struct tr_engine;
struct runtime;

/* The header of the runtime's callbacks that carries srv->runtime_secret:
 * runtime/workerd.h's RUNTIME_CALLBACK_HEADER (the layers keep http/ from
 * including runtime/; tests/api/integrations-runtime.test.mjs fails when the
 * two differ). */
#define SERVER_RUNTIME_CALLBACK_HEADER "X-Docsd-Callback-Secret"

struct config {
	const char *listen;       /* host:port */
	const char *data_dir;     /* SQLite at data_dir/docsd.db */
	const char *database_url; /* PostgreSQL instead, when set */
	const char *public_url;   /* base of every URL in `urls` */
	const char *site_listen;  /* host:port of the published sites' listener; NULL: listen's port + 1 */
	const char *site_url;     /* base of urls.published; NULL: from site_listen (server.c) */
	int threads;
	int rate_limit;           /* requests per minute per token; 0 = unlimited */
	size_t max_body;          /* bytes; larger bodies are 413 */
	int max_connections;      /* at most; lowered to what the open file limit allows */
	int max_connections_per_ip; /* 0 = no limit */
	int connection_timeout;   /* seconds a connection may stay idle */
	int head_timeout;         /* seconds from a request head's first byte to its end */
	long body_min_rate;       /* bytes per second a request body must average */
	int log_level;            /* 0 off, 1 errors, 2 info (access log) */
	int64_t clock_offset_ms;  /* tests move time with this */
	bool allow_private_network; /* insert_files may fetch loopback/private URLs */
	int cache_mb;             /* the revision cache's budget in MiB; 0 = no cache */
	int pdf_cache_mb;         /* rendered PDFs kept, in MiB; 0 = none */
	int pdf_renders;          /* PDFs rendered at once at most */
	int pdf_wait_ms;          /* how long a fetch waits for a turn to render before a 503 */
	int site_cache_mb;        /* rendered published-site pages kept, in MiB; 0 = none */
	int job_workers;          /* threads running queued jobs (jobs/jobs.h); 0 = none */
	const char *translation_engine; /* translate/engine.h: "apertium", "libretranslate", "deepl" or "off" */
	const char *translation_url;     /* libretranslate, deepl: the server's base URL */
	const char *translation_api_key; /* libretranslate, deepl: never logged */
	const char *apertium_dir; /* Apertium's data directories, ':'-separated (each modes/ lists pairs) */
	int translation_timeout;  /* seconds one engine process may run */
	const char *integration_runtime; /* workerd's binary (runtime/runtime.h); NULL: none */
	int integration_timeout;  /* seconds one delivery to a script may take */
	int runtime_callback_connections; /* the scripts' callback listener's connections at most */
	int sso_rate_limit;       /* SAML start/ACS requests per minute per client address; 0 = unlimited */
	const char *domain_verification_base; /* tests: where email domains' proofs are fetched (domain/saml_sso.h) */
	const char *trusted_proxy; /* CIDR[,CIDR...] whose X-Forwarded-For is believed; NULL: none */
};

struct server {
	struct config cfg;
	char public_url[512];     /* without a trailing slash */
	/* The published sites' base (without a trailing slash): another origin
	 * than public_url, served by the second listener (site_daemon). */
	char site_url[512];
	struct store *store;
	const char *engine;       /* "sqlite" or "postgres": the store's, fixed at start (/healthz) */
	struct token_cache *tokens;
	struct ratelimit *rl;
	struct ratelimit *sso_rl; /* --sso-rate-limit, per client address (app/saml.c) */
	struct metrics *metrics;
	struct pagecache *pages;
	struct revcache *revisions; /* built revisions, shared by the store's transactions */
	struct pdfcache *pdfs;    /* rendered PDFs and the limit on renders (domain/pdf.c) */
	struct sitecache *sites;  /* rendered published-site pages (site/cache.c) */
	struct jobs *jobs;
	/* Every secret of the server (domain/secrets.h), read once at start. */
	struct dom_secrets secrets;
	struct tr_engine *translator; /* translate/engine.h */
	struct runtime *runtime;  /* integrations' scripts in workerd (runtime/runtime.h) */
	void *daemon;             /* struct MHD_Daemon: the API and the web interface */
	void *site_daemon;        /* struct MHD_Daemon: published sites, scripts, uploads */
	void *runtime_daemon;     /* struct MHD_Daemon: the scripts' API callbacks; NULL without a runtime */
	/* What the runtime's router adds to every callback (in the header
	 * SERVER_RUNTIME_CALLBACK_HEADER), drawn at start; the callback listener
	 * serves nothing without it. */
	char runtime_secret[40];
	struct conntrack *conns;  /* slow-client deadlines (http/conntrack.h) */
	struct fetchpool *fetches; /* prefetch steps off the HTTP workers (http/listener.c) */
	atomic_int ready;
	/* Set when the server begins to stop: long prefetch steps (a website
	 * import's crawl) end at their next fetch instead of using their budget. */
	atomic_bool stopping;
	/* Set when SIGTERM begins the drain (listener_quiesce): /healthz answers
	 * 503 and every response closes its connection. */
	atomic_bool draining;
	/* The listening socket MHD_quiesce_daemon handed back: shut down at
	 * once, closed only after MHD_stop_daemon (libmicrohttpd's rule for
	 * threaded daemons). */
	int quiesced_fd[2];      /* the main and the site listener */
	bool has_quiesced_fd[2];
	atomic_long request_seq;
	/* Password hashes and checks running now (app/signin.c): each holds
	 * 64 MiB for ~100 ms, so at most APP_PASSWORD_WORK_MAX run at once. */
	atomic_int password_work;
	/* --trusted-proxy, parsed at start (http/request.c, req_client_addr). */
	struct net_range trusted_proxies[NET_RANGES_MAX];
	int ntrusted_proxies;
};

/* The base of published sites' URLs (srv->site_url); "" without a server
 * (unit tests). */
static inline const char *server_site_url(const struct server *srv)
{
	return srv ? srv->site_url : "";
}

/* Open the store (running migrations), then listen. */
int server_start(struct server **out, const struct config *cfg);
/* Stop accepting, finish requests in flight, free everything. */
void server_stop(struct server *s);

/* Open just the store for command-line tools (user create, token create). */
int server_open_store(struct store **out, const struct config *cfg, int nconn);

/* A job was just queued in this process (store/jobs.h, in the caller's
 * transaction): wake the idle job workers (jobs_kick). So the domain layer
 * reaches the queue's threads without including the queue's headers. srv
 * may be NULL (unit tests): nothing to wake. */
void server_kick_jobs(const struct server *srv);

#endif
