/*
 * cache.c - rendered published-site pages (site.h), in the server context.
 *
 * DESIGN
 * The key names everything a rendering depends on (serve.c builds it: the
 * site id and generation, the revision of every visible site space, the
 * visible set, the URL path and the share prefix), so an entry never goes
 * stale: it is only evicted. A hash table of chained entries with one LRU
 * list, bounded in bytes (keys, bodies and bookkeeping); the least recently
 * used entries go first; a body larger than an eighth of the budget is not
 * kept. One mutex: a hit copies the body into the request's arena while it
 * is held (a memcpy of a few tens of KiB).
 */
#include "site/site.h"

#include "util/alloc.h"
#include "util/err.h"
#include "util/fnv.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define NBUCKETS 4096

struct sc_entry {
	struct sc_entry *next;            /* bucket chain */
	struct sc_entry *lru_prev, *lru_next;
	uint64_t hash;
	char *key;
	char *body;
	size_t len, cost;
	int status;
	const char *ctype;                /* a static string */
};

struct sitecache {
	pthread_mutex_t mu;
	size_t max_bytes, bytes;
	struct sc_entry *buckets[NBUCKETS];
	struct sc_entry *head, *tail;     /* most recent first */
};

int sitecache_new(struct sitecache **out, size_t max_bytes)
{
	struct sitecache *c = xcalloc(1, sizeof(*c));

	if (pthread_mutex_init(&c->mu, NULL) != 0) {
		free(c);
		return err_set(ERR_INTERNAL, "cannot create the site cache's mutex");
	}
	c->max_bytes = max_bytes;
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
	for (struct sc_entry *e = c->head, *n; e; e = n) {
		n = e->lru_next;
		entry_free(e);
	}
	pthread_mutex_destroy(&c->mu);
	free(c);
}

static void lru_unlink(struct sitecache *c, struct sc_entry *e)
{
	if (e->lru_prev)
		e->lru_prev->lru_next = e->lru_next;
	else
		c->head = e->lru_next;
	if (e->lru_next)
		e->lru_next->lru_prev = e->lru_prev;
	else
		c->tail = e->lru_prev;
	e->lru_prev = e->lru_next = NULL;
}

static void lru_front(struct sitecache *c, struct sc_entry *e)
{
	e->lru_next = c->head;
	e->lru_prev = NULL;
	if (c->head)
		c->head->lru_prev = e;
	c->head = e;
	if (!c->tail)
		c->tail = e;
}

static void remove_entry(struct sitecache *c, struct sc_entry *e)
{
	struct sc_entry **pp = &c->buckets[e->hash % NBUCKETS];

	while (*pp && *pp != e)
		pp = &(*pp)->next;
	if (*pp)
		*pp = e->next;
	lru_unlink(c, e);
	c->bytes -= e->cost;
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

	if (!c || !c->max_bytes)
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
		lru_unlink(c, e);
		lru_front(c, e);
	}
	pthread_mutex_unlock(&c->mu);
	return copy != NULL;
}

void sitecache_put(struct sitecache *c, const char *key, const char *body, size_t len, int status,
		   const char *ctype)
{
	uint64_t h = fnv1a_str(key);
	struct sc_entry *e, *old;
	size_t klen = strlen(key), cost = sizeof(*e) + klen + 1 + len;

	if (!c || cost > c->max_bytes / 8)
		return;
	e = xcalloc(1, sizeof(*e));
	e->key = xmalloc(klen + 1);
	e->body = xmalloc(len ? len : 1);
	memcpy(e->key, key, klen + 1);
	memcpy(e->body, body, len);
	e->hash = h;
	e->len = len;
	e->cost = cost;
	e->status = status;
	e->ctype = ctype;
	pthread_mutex_lock(&c->mu);
	if ((old = find(c, key, h)))
		remove_entry(c, old);
	while (c->tail && c->bytes + cost > c->max_bytes)
		remove_entry(c, c->tail);
	e->next = c->buckets[h % NBUCKETS];
	c->buckets[h % NBUCKETS] = e;
	lru_front(c, e);
	c->bytes += cost;
	pthread_mutex_unlock(&c->mu);
}
