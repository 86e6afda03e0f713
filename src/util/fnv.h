/*
 * fnv.h - FNV-1a, the one string hash of docsd's in-memory tables (the site
 * and page caches, the count and revision caches, the rate limiter's buckets,
 * the import's and the renderer's maps, merge3's line ids, slugs) and of the
 * per-organization advisory lock key (store_org_lock).
 *
 * Not for anything an attacker must not steer: a table keyed by request text
 * mixes a per-process seed in first (fnv1a_from(FNV1A_BASIS ^ seed, ...), as
 * http/ratelimit.c does) or bounds its chains. 64-bit FNV-1a, standard basis
 * and prime (Fowler, Noll, Vo).
 */
#ifndef DOCSD_UTIL_FNV_H
#define DOCSD_UTIL_FNV_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define FNV1A_BASIS 14695981039346656037ull
#define FNV1A_PRIME 1099511628211ull

/* One byte more of a hash: for callers that fold or skip bytes as they go. */
static inline uint64_t fnv1a_step(uint64_t h, unsigned char c)
{
	return (h ^ c) * FNV1A_PRIME;
}

/* The hash h continued over n bytes at p. */
static inline uint64_t fnv1a_from(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;

	for (size_t i = 0; i < n; i++)
		h = fnv1a_step(h, s[i]);
	return h;
}

static inline uint64_t fnv1a(const void *p, size_t n)
{
	return fnv1a_from(FNV1A_BASIS, p, n);
}

static inline uint64_t fnv1a_str(const char *s)
{
	return fnv1a(s, strlen(s));
}

#endif
