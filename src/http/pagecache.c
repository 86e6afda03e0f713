/*
 * pagecache.c - rendered list pages, keyed by request and validated by the
 * organization's generation.
 *
 * DESIGN
 * A route flagged ROUTE_CACHE returns a body that depends only on one
 * organization's data and the query (never on who asks, beyond passing the
 * route's access check). Every store function that changes what such a page
 * shows bumps orgs.generation in the same transaction (store_org_bump), and the
 * router reads the generation with the caller's membership, in the request's
 * own transaction. An entry is served only when its generation equals the one
 * just read, so a page is never older than the transaction that serves it; on
 * PostgreSQL the generation lives in the shared database, so this holds across
 * several docsd processes too.
 *
 * The table is direct-mapped (a new key takes its slot over) with a mutex per
 * slot; bodies larger than max_entry are not kept.
 */
#include "json/jsonw.h"
#include "http/services.h"
#include "util/alloc.h"
#include "util/err.h"
#include "util/fnv.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct pc_slot {
	pthread_mutex_t mu;
	char *key;
	size_t klen;
	int64_t generation;
	char *body;
	size_t len;
};

struct pagecache {
	int nslots;
	size_t max_entry;
	atomic_ulong hits, misses;
	struct pc_slot slots[];
};

int pagecache_new(struct pagecache **out, int nslots, size_t max_entry)
{
	struct pagecache *pc = xcalloc(1, sizeof(*pc) + (size_t)nslots * sizeof(struct pc_slot));

	pc->nslots = nslots;
	pc->max_entry = max_entry;
	for (int i = 0; i < nslots; i++)
		pthread_mutex_init(&pc->slots[i].mu, NULL);
	*out = pc;
	return 0;
}

void pagecache_free(struct pagecache *pc)
{
	if (!pc)
		return;
	for (int i = 0; i < pc->nslots; i++) {
		pthread_mutex_destroy(&pc->slots[i].mu);
		free(pc->slots[i].key);
		free(pc->slots[i].body);
	}
	free(pc);
}

static struct pc_slot *slot_for(struct pagecache *pc, const char *key, size_t klen)
{
	return &pc->slots[fnv1a(key, klen) % (uint64_t)pc->nslots];
}

int pagecache_get(struct pagecache *pc, const char *key, size_t klen, int64_t generation, struct jw *w)
{
	struct pc_slot *s = slot_for(pc, key, klen);
	int hit = 0;

	pthread_mutex_lock(&s->mu);
	if (s->key && s->klen == klen && s->generation == generation && memcmp(s->key, key, klen) == 0) {
		jw_rawn(w, s->body, s->len);
		hit = jw_ok(w);
	}
	pthread_mutex_unlock(&s->mu);
	atomic_fetch_add_explicit(hit ? &pc->hits : &pc->misses, 1, memory_order_relaxed);
	return hit;
}

void pagecache_put(struct pagecache *pc, const char *key, size_t klen, int64_t generation, const char *body, size_t len)
{
	struct pc_slot *s = slot_for(pc, key, klen);
	char *k, *b;

	if (len > pc->max_entry)
		return;
	k = xmalloc(klen);
	b = xmalloc(len ? len : 1);
	memcpy(k, key, klen);
	memcpy(b, body, len);
	pthread_mutex_lock(&s->mu);
	free(s->key);
	free(s->body);
	s->key = k;
	s->klen = klen;
	s->generation = generation;
	s->body = b;
	s->len = len;
	pthread_mutex_unlock(&s->mu);
}

void pagecache_stats(struct pagecache *pc, unsigned long *hits, unsigned long *misses)
{
	*hits = atomic_load_explicit(&pc->hits, memory_order_relaxed);
	*misses = atomic_load_explicit(&pc->misses, memory_order_relaxed);
}
