/*
 * script_cache.c - the answers of site scripts (a SiteIntegrationScript's
 * script.js, GitBook's fetch_published_script), kept per key for a while,
 * and a bound on how many of one integration are being fetched at once
 * (runtime.h, "site scripts").
 *
 * Why: script.js is loaded by every visitor of a published page, without a
 * token. Delivered on every request, an integration's script (or a slow
 * one) held the fetch pool that other organizations' requests share, and
 * each delivery minted tokens. GitBook caches the answer per installation
 * and version; so does docsd, for SCRIPT_TTL_NS, and a cache miss waits for
 * at most SCRIPT_INFLIGHT deliveries of its integration (2): past that it is
 * refused at once (503), never queued behind them.
 *
 * The cache is bounded in entries and bytes (the oldest goes first); it and
 * the in-flight table live under one mutex of their own (the lookups are
 * short copies; no delivery runs under it).
 */
#include "runtime/runtime.h"
#include "util/alloc.h"
#include "util/arena.h"
#include "util/err.h"
#include "util/util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCRIPT_ENTRIES 256
#define SCRIPT_BYTES ((size_t)16 << 20)
#define SCRIPT_ENTRY_MAX ((size_t)1 << 20)
#define SCRIPT_TTL_NS (60LL * 1000 * 1000 * 1000)
/* Half of the fetch pool (http/listener.c, FETCH_THREADS 4): one
 * integration never holds all of it. */
#define SCRIPT_INFLIGHT 2
#define SCRIPT_INTEGRATIONS 64

struct script_entry {
	char *key, *body, *content_type;
	size_t len;
	int64_t until_ns;
};

struct inflight {
	char id[48];
	int n;
};

struct script_cache {
	pthread_mutex_t mu;
	struct script_entry e[SCRIPT_ENTRIES];
	size_t bytes;
	struct inflight busy[SCRIPT_INTEGRATIONS];
	int64_t hits, misses, refused;
};

struct script_cache *script_cache_new(void)
{
	struct script_cache *c = xcalloc(1, sizeof(*c));

	pthread_mutex_init(&c->mu, NULL);
	return c;
}

static void entry_clear(struct script_cache *c, struct script_entry *e)
{
	c->bytes -= e->len;
	free(e->key);
	free(e->body);
	free(e->content_type);
	memset(e, 0, sizeof(*e));
}

void script_cache_free(struct script_cache *c)
{
	if (!c)
		return;
	for (int i = 0; i < SCRIPT_ENTRIES; i++)
		if (c->e[i].key)
			entry_clear(c, &c->e[i]);
	pthread_mutex_destroy(&c->mu);
	free(c);
}

int runtime_script_cached(struct runtime *rt, const char *key, struct arena *a, struct runtime_result *out)
{
	struct script_cache *c = runtime_scripts(rt);
	int64_t now = clock_mono_ns();
	int found = 0;

	if (!c || !key)
		return 0;
	pthread_mutex_lock(&c->mu);
	for (int i = 0; i < SCRIPT_ENTRIES; i++) {
		struct script_entry *e = &c->e[i];
		if (!e->key || strcmp(e->key, key) != 0)
			continue;
		if (e->until_ns <= now) {
			entry_clear(c, e);
			break;
		}
		memset(out, 0, sizeof(*out));
		out->status = 200;
		out->body = arena_strndup(a, e->body, e->len);
		out->body_len = e->len;
		out->content_type = e->content_type ? arena_strdup(a, e->content_type) : NULL;
		found = 1;
		break;
	}
	if (found)
		c->hits++;
	else
		c->misses++;
	pthread_mutex_unlock(&c->mu);
	return found;
}

void runtime_script_put(struct runtime *rt, const char *key, const char *body, size_t len, const char *content_type)
{
	struct script_cache *c = runtime_scripts(rt);
	struct script_entry *slot = NULL;
	int64_t now = clock_mono_ns();

	if (!c || !key || len > SCRIPT_ENTRY_MAX)
		return;
	pthread_mutex_lock(&c->mu);
	for (int i = 0; i < SCRIPT_ENTRIES; i++) /* the same key, expired ones: replaced */
		if (c->e[i].key && (strcmp(c->e[i].key, key) == 0 || c->e[i].until_ns <= now))
			entry_clear(c, &c->e[i]);
	for (;;) {
		struct script_entry *oldest = NULL;
		slot = NULL;
		for (int i = 0; i < SCRIPT_ENTRIES; i++) {
			if (!c->e[i].key) {
				if (!slot)
					slot = &c->e[i];
			} else if (!oldest || c->e[i].until_ns < oldest->until_ns)
				oldest = &c->e[i];
		}
		if (slot && c->bytes + len <= SCRIPT_BYTES)
			break;
		if (!oldest)
			break;
		entry_clear(c, oldest);
	}
	if (slot) {
		slot->key = xstrdup(key);
		slot->body = xmalloc(len + 1);
		memcpy(slot->body, body ? body : "", len);
		slot->body[len] = '\0';
		slot->len = len;
		slot->content_type = content_type ? xstrdup(content_type) : NULL;
		slot->until_ns = now + SCRIPT_TTL_NS;
		c->bytes += len;
	}
	pthread_mutex_unlock(&c->mu);
}

int runtime_script_begin(struct runtime *rt, const char *integration_id)
{
	struct script_cache *c = runtime_scripts(rt);
	struct inflight *free_slot = NULL, *mine = NULL;
	int rc = 0;

	if (!c)
		return 0;
	if (!integration_id || strlen(integration_id) >= sizeof(c->busy[0].id))
		return err_set(ERR_INTERNAL, "runtime_script_begin: bad integration id");
	pthread_mutex_lock(&c->mu);
	for (int i = 0; i < SCRIPT_INTEGRATIONS && !mine; i++) {
		if (c->busy[i].n > 0 && strcmp(c->busy[i].id, integration_id) == 0)
			mine = &c->busy[i];
		else if (c->busy[i].n == 0 && !free_slot)
			free_slot = &c->busy[i];
	}
	if (!mine && free_slot) {
		mine = free_slot;
		snprintf(mine->id, sizeof(mine->id), "%s", integration_id);
	}
	if (!mine || mine->n >= SCRIPT_INFLIGHT) {
		c->refused++;
		rc = err_set(ERR_UNAVAILABLE, "the integration is busy answering other visitors; try again");
	} else
		mine->n++;
	pthread_mutex_unlock(&c->mu);
	return rc;
}

void runtime_script_end(struct runtime *rt, const char *integration_id)
{
	struct script_cache *c = runtime_scripts(rt);

	if (!c || !integration_id)
		return;
	pthread_mutex_lock(&c->mu);
	for (int i = 0; i < SCRIPT_INTEGRATIONS; i++)
		if (c->busy[i].n > 0 && strcmp(c->busy[i].id, integration_id) == 0) {
			c->busy[i].n--;
			break;
		}
	pthread_mutex_unlock(&c->mu);
}

void script_cache_stats(struct script_cache *c, int64_t *hits, int64_t *misses, int64_t *refused)
{
	*hits = *misses = *refused = 0;
	if (!c)
		return;
	pthread_mutex_lock(&c->mu);
	*hits = c->hits;
	*misses = c->misses;
	*refused = c->refused;
	pthread_mutex_unlock(&c->mu);
}
