/*
 * lru.h - the recency list and byte budget of docsd's bounded caches (the
 * published-site page cache, site/cache.c; the revision cache,
 * store/revisions.c; the PDF cache, domain/pdf.c).
 *
 * DESIGN: each cache keeps its own lookup (a hash table, a list) and lock;
 * what they share is this: an intrusive doubly linked list, most recent
 * first, around a sentinel, and the sum of the entries' costs (bytes) against
 * a budget. An entry embeds a struct lru_node and is found back from it with
 * LRU_ENTRY. Nothing here allocates or locks: the cache calls it under its
 * own mutex. Eviction is the cache's loop (some entries may be pinned):
 *   while (!lru_fits(&c->lru, cost) && (n = lru_oldest(&c->lru))) evict(n);
 */
#ifndef DOCSD_UTIL_LRU_H
#define DOCSD_UTIL_LRU_H

#include <stdbool.h>
#include <stddef.h>

struct lru_node {
	struct lru_node *prev, *next; /* prev: more recent; next: older */
	size_t cost;
};

struct lru {
	struct lru_node head; /* sentinel: head.next is the most recent, head.prev the oldest */
	size_t bytes;         /* the sum of the costs of the entries in the list */
	size_t max_bytes;
};

#define LRU_ENTRY(node, type, member) ((type *)(void *)((char *)(node) - offsetof(type, member)))

static inline void lru_init(struct lru *l, size_t max_bytes)
{
	l->head.prev = l->head.next = &l->head;
	l->head.cost = 0;
	l->bytes = 0;
	l->max_bytes = max_bytes;
}

/* Would an entry of cost more fit in the budget? */
static inline bool lru_fits(const struct lru *l, size_t cost)
{
	return cost <= l->max_bytes && l->bytes <= l->max_bytes - cost;
}

/* n (not in the list) becomes the most recent entry, costing cost bytes. */
static inline void lru_push(struct lru *l, struct lru_node *n, size_t cost)
{
	n->cost = cost;
	n->prev = &l->head;
	n->next = l->head.next;
	l->head.next->prev = n;
	l->head.next = n;
	l->bytes += cost;
}

/* n (in the list) leaves it; its cost is given back. */
static inline void lru_remove(struct lru *l, struct lru_node *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	n->prev = n->next = NULL;
	l->bytes -= n->cost;
}

/* n (in the list) becomes the most recent entry. */
static inline void lru_touch(struct lru *l, struct lru_node *n)
{
	size_t cost = n->cost;

	lru_remove(l, n);
	lru_push(l, n, cost);
}

/* The least recently used entry, NULL when the list is empty. */
static inline struct lru_node *lru_oldest(const struct lru *l)
{
	return l->head.prev == &l->head ? NULL : l->head.prev;
}

/* The most recently used entry, NULL when the list is empty. */
static inline struct lru_node *lru_newest(const struct lru *l)
{
	return l->head.next == &l->head ? NULL : l->head.next;
}

/* The entry used before n (walking from the most recent), NULL past the oldest. */
static inline struct lru_node *lru_older(const struct lru *l, const struct lru_node *n)
{
	return n->next == &l->head ? NULL : n->next;
}

/* The entry used just after n (walking from the oldest to the most
 * recent), NULL past the most recent. */
static inline struct lru_node *lru_newer(const struct lru *l, const struct lru_node *n)
{
	return n->prev == &l->head ? NULL : n->prev;
}

#endif
