/*
 * runtime.h - running published integration scripts (GitBook's "v2"
 * runtime: a Cloudflare-Workers-style ES module whose default export has
 * fetch(request, env, ctx)) in Cloudflare's open-source runtime workerd.
 *
 * DESIGN
 * One workerd process per published version of an integration, started on
 * demand on 127.0.0.1:0 (--control-fd reports the port), stopped when idle,
 * restarted after a crash. The script is wrapped in a generated entry
 * module that captures console.* per request and returns the lines to
 * docsd beside the script's answer. Outbound requests of the script go
 * through a small router worker (its globalOutbound): docsd's own API
 * origin reaches docsd's callback listener (api_connect, with api_secret
 * in a header), everything else the public
 * network only (private too with --allow-private-network).
 *
 * The runtime is called by the delivery job (jobs/), outside any
 * transaction, from several job workers at once: it serializes what must
 * be serialized itself. It owns no store and no domain state.
 */
#ifndef DOCSD_RUNTIME_RUNTIME_H
#define DOCSD_RUNTIME_RUNTIME_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

struct arena;
struct runtime;

struct runtime_config {
	const char *binary;      /* workerd's path (--integration-runtime); NULL: no runtime */
	const char *work_dir;    /* where generated configs and scripts live (data_dir/runtime) */
	const char *api_origin;  /* docsd's public API origin as scripts see it, "http://127.0.0.1:8080" */
	const char *api_connect; /* where that origin really is: docsd's callback listener, "127.0.0.1:41234" */
	const char *api_secret;  /* RUNTIME_CALLBACK_HEADER's value (workerd.h), added by the router to each callback; NULL: none */
	bool allow_private_network;
	int heap_mb;             /* V8 --max-old-space-size per process */
	int timeout_ms;          /* one delivery, wall clock; the process is killed past it */
	int idle_ms;             /* a process idle this long is stopped */
	int max_processes;       /* at most this many versions running; the least recently used stops */
};

/* One console line of the script, GitBook's IntegrationLogLevel. */
struct runtime_log {
	const char *level;   /* "debug" | "info" | "warn" | "error" */
	const char *message;
	int64_t timestamp_ms;
};

struct runtime_result {
	int status;              /* the script's HTTP status; 0 when it did not answer */
	const char *body;        /* its body (into the arena) */
	size_t body_len;
	const char *content_type;
	struct runtime_log *logs; /* in order (into the arena) */
	size_t nlogs;
	const char *error;       /* why there is no answer: "timed out after 10 s", "process exited (code 134)" */
};

/* A runtime; cfg->binary NULL gives one whose deliveries fail with
 * ERR_PRECONDITION "no integration runtime (--integration-runtime)". */
int runtime_new(struct runtime **out, const struct runtime_config *cfg);
void runtime_free(struct runtime *rt); /* stops every process; accepts NULL */
bool runtime_available(const struct runtime *rt);

/* The script of one published version. `key` names it uniquely and never
 * changes meaning ("<integration id>-<version>"): a process started for a
 * key runs that script until it stops. */
struct runtime_script {
	const char *key;
	const char *source; /* the ES module GitBook's CLI published */
	size_t source_len;
};

/* POST body (content_type, typically multipart/form-data) to path ("/v1")
 * of the script's worker, starting its process when needed, and wait for
 * the answer at most cfg->timeout_ms. 0 when the request was made (whatever
 * the status: res->status says it, res->logs hold the console lines);
 * ERR_UNAVAILABLE when it could not be (timeout, crash, spawn failure:
 * res->error says which, and the logs captured so far are kept);
 * ERR_PRECONDITION without a runtime. */
int runtime_deliver(struct runtime *rt, const struct runtime_script *script, const char *path,
		    const char *content_type, const char *body, size_t body_len, struct arena *a,
		    struct runtime_result *res);

/* Counters for /metrics and the benchmark: processes running, started,
 * killed at the timeout, crashed. */
struct runtime_stats {
	int running;
	int64_t started, timeouts, crashes;
	int64_t memory_kills;                   /* processes killed past the memory bound */
	int64_t script_hits, script_misses, script_refused; /* site scripts (below) */
};
void runtime_stats(const struct runtime *rt, struct runtime_stats *out);

/* Site scripts (script_cache.c): a SiteIntegrationScript's answer kept per
 * key (installation, site, integration version) for 60 s, at most 1 MiB
 * each, 16 MiB in all; and at most 2 deliveries of one integration's site
 * script at a time. A runtime without workerd has them too (the dev tunnel
 * uses the bound). rt may be NULL (no cache, no bound). */
struct arena;
/* 1 and *out filled (status 200, into a) when key is cached and fresh. */
int runtime_script_cached(struct runtime *rt, const char *key, struct arena *a, struct runtime_result *out);
void runtime_script_put(struct runtime *rt, const char *key, const char *body, size_t len, const char *content_type);
/* Take one of the integration's delivery slots: ERR_UNAVAILABLE when its
 * slots are all taken (refused, not queued); runtime_script_end gives it
 * back. */
int runtime_script_begin(struct runtime *rt, const char *integration_id);
void runtime_script_end(struct runtime *rt, const char *integration_id);

/* Inside the runtime (runtime.c owns the cache; script_cache.c is it). */
struct script_cache;
struct script_cache *runtime_scripts(struct runtime *rt);
struct script_cache *script_cache_new(void);
void script_cache_free(struct script_cache *c);
void script_cache_stats(struct script_cache *c, int64_t *hits, int64_t *misses, int64_t *refused);

#endif
