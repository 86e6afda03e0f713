/*
 * services.h - the per-server shared state the HTTP layer keeps in memory:
 * the token cache, the per-token rate limiter and the metrics counters. Each is
 * created by server_start() and hangs off struct server.
 */
#ifndef DOCSD_HTTP_SERVICES_H
#define DOCSD_HTTP_SERVICES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

/* ---- token cache: sha256(token) -> (user id, token generation), kept for a minute ---- */
struct token_cache;
int token_cache_new(struct token_cache **out);
void token_cache_free(struct token_cache *tc);
/* 1 with the user id copied to out and *gen the user's token generation
 * when it was filled (http/tokens.c: believed only while the store's is the
 * same); 0 when not cached. */
/* *epoch: the cache's epoch at the lookup, read BEFORE the store is asked;
 * put stores nothing when a flush came in between (the store's answer may
 * predate a revocation). */
int token_cache_get(struct token_cache *tc, const char *hash, char out[ID_LEN + 1], int64_t *gen, uint64_t *epoch);
void token_cache_put(struct token_cache *tc, const char *hash, const char *user_id, int64_t gen, uint64_t epoch);
/* Forget every entry: after a revocation is committed (tokens are revoked
 * rarely; one flush is simpler than finding the entry of a hash). */
void token_cache_flush(struct token_cache *tc);

/* API tokens are issued and looked up in the domain (domain/tokens.h:
 * token_issue, token_lookup); the cache in front of the lookup is here. */
struct store_tx;
struct user;
/* Who the token of hash is, in the request's transaction tx: 0 with
 * *user_id (in tx's arena), *installation_id (NULL but for installation
 * tokens) and, when the store was read, *user (the caller's row; user->id
 * NULL otherwise); ERR_UNAUTHORIZED when it names nothing. A cache entry is
 * believed only while the user's token generation in the store is the one
 * it was filled under: with unconfirmed NULL that is read now; else a hit
 * returns at once with *unconfirmed = the entry's generation (-1: nothing
 * to confirm), and the caller must call token_confirm in the same
 * transaction before anything runs for the caller. */
int token_authenticate(struct token_cache *tc, struct store_tx *tx, const char *hash, const char **user_id,
		       const char **integration_id, const char **installation_id, struct user *user,
		       int64_t *unconfirmed);
/* Confirm a hit of token_authenticate: 0 when seen (the generation read
 * with something else, store_membership's; -1 none) equals cached, else
 * the store decides (one more read); ERR_UNAUTHORIZED when revoked. */
int token_confirm(struct token_cache *tc, struct store_tx *tx, const char *hash, const char *user_id, int64_t cached,
		  int64_t seen, struct user *user);
/* Parse "Bearer <token>"; writes sha256 hex of the token; ERR_UNAUTHORIZED if malformed. */
int token_hash_header(const char *authorization, char hash[65]);

/* ---- rate limiter: one-minute windows per token (the full hash), never shared ---- */
struct ratelimit;
int ratelimit_new(struct ratelimit **out, int per_minute);
void ratelimit_free(struct ratelimit *rl);
/* Count one request; 0 when allowed, ERR_RATE_LIMITED when over. Always fills
 * the header values (limit, remaining, reset as epoch seconds). */
int ratelimit_take(struct ratelimit *rl, const char *key, int *limit, int *remaining, int64_t *reset);

/* ---- rendered pages of ROUTE_CACHE routes (pagecache.c) ---- */
struct pagecache;
struct jw;
int pagecache_new(struct pagecache **out, int nslots, size_t max_entry);
void pagecache_free(struct pagecache *pc);
/* 1 and the body appended to w when the key is cached at this generation. */
int pagecache_get(struct pagecache *pc, const char *key, size_t klen, int64_t generation, struct jw *w);
void pagecache_put(struct pagecache *pc, const char *key, size_t klen, int64_t generation, const char *body, size_t len);
void pagecache_stats(struct pagecache *pc, unsigned long *hits, unsigned long *misses);

/* ---- metrics ---- */
struct metrics;
int metrics_new(struct metrics **out, int nroutes);
void metrics_free(struct metrics *m);
/* route -1 = unmatched */
void metrics_request(struct metrics *m, int route, int status, int64_t duration_ns);
void metrics_connection(struct metrics *m, int delta);
/* Prometheus text exposition; returns malloc'd text. */
struct metrics_extra {
	unsigned long page_cache_hits, page_cache_misses;
	unsigned long slow_connections_closed;
};
/* Count the job queue's rows by kind and state in each rendering. */
struct store;
void metrics_set_store(struct metrics *m, struct store *s);
/* The integrations' runtime whose counters /metrics reports (docsd_runtime_*);
 * NULL: none. */
struct runtime;
void metrics_set_runtime(struct metrics *m, struct runtime *rt);
/* The text, malloc'd (the caller frees it), its length in *len; NULL only
 * when vsnprintf refuses a line. */
char *metrics_render(struct metrics *m, const char *const *route_names, int nroutes,
		     const struct metrics_extra *extra, size_t *len);

#endif
