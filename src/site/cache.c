/*
 * cache.c - rendered published-site pages (site.h), in the server context.
 *
 * DESIGN
 * The key names everything a rendering depends on (serve.c builds it: the
 * site id and generation, the revision of every visible site space, the
 * visible set, the URL path and the share prefix), so an entry never goes
 * stale: it is only evicted. A hash table of chained entries with one LRU
 * list (util/lru.h), bounded in bytes (keys, bodies and bookkeeping); the
 * least recently used entries go first; a body larger than an eighth of the budget is not
 * kept. One mutex: a hit copies the body into the request's arena while it
 * is held (a memcpy of a few tens of KiB).
 */
#include "site/site.h"

#include "util/alloc.h"
#include "util/err.h"
#include "util/fnv.h"
#include "util/lru.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define NBUCKETS 4096

struct sc_entry {
	struct sc_entry *next;            /* bucket chain */
	struct lru_node lru;
	uint64_t hash;
	char *key;
	char *body;
	size_t len;
	int status;
	const char *ctype;                /* a static string */
};

struct sitecache {
	pthread_mutex_t mu;
	struct lru lru;
	struct sc_entry *buckets[NBUCKETS];
};

int sitecache_new(struct sitecache **out, size_t max_bytes)
{
	struct sitecache *c = xcalloc(1, sizeof(*c));

	if (pthread_mutex_init(&c->mu, NULL) != 0) {
		free(c);
		return err_set(ERR_INTERNAL, "cannot create the site cache's mutex");
	}
	lru_init(&c->lru, max_bytes);
	*out = c;
	return 0;
}

static void entry_free(struct sc_entry *e)
{
	free(e->key);
	free(e->body);
	free(e);
}

void sitecache_free(struct sitecache *c)
{
	if (!c)
		return;
	for (struct lru_node *n; (n = lru_oldest(&c->lru));) {
		lru_remove(&c->lru, n);
		entry_free(LRU_ENTRY(n, struct sc_entry, lru));
	}
	pthread_mutex_destroy(&c->mu);
	free(c);
}

static void remove_entry(struct sitecache *c, struct sc_entry *e)
{
	struct sc_entry **pp = &c->buckets[e->hash % NBUCKETS];

	while (*pp && *pp != e)
		pp = &(*pp)->next;
	if (*pp)
		*pp = e->next;
	lru_remove(&c->lru, &e->lru);
	entry_free(e);
}

static struct sc_entry *find(struct sitecache *c, const char *key, uint64_t h)
{
	for (struct sc_entry *e = c->buckets[h % NBUCKETS]; e; e = e->next)
		if (e->hash == h && strcmp(e->key, key) == 0)
			return e;
	return NULL;
}

int sitecache_get(struct sitecache *c, const char *key, struct arena *a, const char **body, size_t *len,
		  int *status, const char **ctype)
{
	uint64_t h = fnv1a_str(key);
	struct sc_entry *e;
	char *copy = NULL;

	if (!c || !c->lru.max_bytes)
		return 0;
	pthread_mutex_lock(&c->mu);
	if ((e = find(c, key, h))) {
		copy = arena_alloc(a, e->len + 1);
		memcpy(copy, e->body, e->len);
		copy[e->len] = '\0';
		*body = copy;
		*len = e->len;
		*status = e->status;
		*ctype = e->ctype;
		lru_touch(&c->lru, &e->lru);
	}
	pthread_mutex_unlock(&c->mu);
	return copy != NULL;
}

void sitecache_put(struct sitecache *c, const char *key, const char *body, size_t len, int status,
		   const char *ctype)
{
	uint64_t h = fnv1a_str(key);
	struct sc_entry *e, *old;
	struct lru_node *n;
	size_t klen = strlen(key), cost = sizeof(*e) + klen + 1 + len;

	if (!c || cost > c->lru.max_bytes / 8)
		return;
	e = xcalloc(1, sizeof(*e));
	e->key = xmalloc(klen + 1);
	e->body = xmalloc(len ? len : 1);
	memcpy(e->key, key, klen + 1);
	memcpy(e->body, body, len);
	e->hash = h;
	e->len = len;
	e->status = status;
	e->ctype = ctype;
	pthread_mutex_lock(&c->mu);
	if ((old = find(c, key, h)))
		remove_entry(c, old);
	while (!lru_fits(&c->lru, cost) && (n = lru_oldest(&c->lru)))
		remove_entry(c, LRU_ENTRY(n, struct sc_entry, lru));
	e->next = c->buckets[h % NBUCKETS];
	c->buckets[h % NBUCKETS] = e;
	lru_push(&c->lru, &e->lru, cost);
	pthread_mutex_unlock(&c->mu);
}
