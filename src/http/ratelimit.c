/*
 * ratelimit.c - per-token request limits in one-minute windows, as GitBook
 * announces them: X-RateLimit-Limit, -Remaining and -Reset (epoch seconds when
 * the window ends).
 *
 * DESIGN
 * Each key (the full SHA-256 of a token) has its own count and window, which
 * starts with its first request and lasts RL_WINDOW_MS; no two keys ever share
 * a count. The table is bounded: set-associative, RL_WAYS entries per bucket,
 * the bucket chosen by a hash seeded at random when the server starts (so a
 * client cannot aim its tokens at another's bucket). A new key takes, in this
 * order, an empty entry, an entry whose window has ended (which holds nothing
 * worth keeping), or, when all RL_WAYS keys of the bucket are inside their
 * window, the one with the fewest requests: a flood of new tokens evicts
 * itself, never the busy keys that are being limited.
 */
#include "http/services.h"
#include "util/alloc.h"
#include "util/err.h"
#include "util/fnv.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#define RL_BUCKETS 4096 /* a power of two */
#define RL_WAYS 8
#define RL_STRIPES 64
#define RL_WINDOW_MS 60000
#define RL_KEY_MAX 64

struct rl_entry {
	char key[RL_KEY_MAX + 1]; /* "" = free */
	int64_t window_start;
	int count;
};

struct ratelimit {
	int limit;
	uint64_t seed;
	pthread_mutex_t mu[RL_STRIPES];
	struct rl_entry entries[RL_BUCKETS][RL_WAYS];
};

int ratelimit_new(struct ratelimit **out, int per_minute)
{
	struct ratelimit *rl = xcalloc(1, sizeof(*rl));

	if (getrandom(&rl->seed, sizeof(rl->seed), 0) != (ssize_t)sizeof(rl->seed)) {
		free(rl);
		return err_set(ERR_INTERNAL, "getrandom failed");
	}
	rl->limit = per_minute;
	for (int i = 0; i < RL_STRIPES; i++)
		pthread_mutex_init(&rl->mu[i], NULL);
	*out = rl;
	return 0;
}

void ratelimit_free(struct ratelimit *rl)
{
	if (!rl)
		return;
	for (int i = 0; i < RL_STRIPES; i++)
		pthread_mutex_destroy(&rl->mu[i]);
	free(rl);
}

static unsigned bucket_of(const struct ratelimit *rl, const char *key, size_t n)
{
	uint64_t h = fnv1a_from(FNV1A_BASIS ^ rl->seed, key, n);

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return (unsigned)(h & (RL_BUCKETS - 1));
}

/* The entry of key in its bucket, taking one over when key has none. */
static struct rl_entry *entry_for(struct rl_entry *b, const char *key, size_t n, int64_t now)
{
	struct rl_entry *victim = NULL;

	for (int i = 0; i < RL_WAYS; i++)
		if (strncmp(b[i].key, key, RL_KEY_MAX + 1) == 0)
			return &b[i];
	for (int i = 0; i < RL_WAYS && !victim; i++)
		if (!b[i].key[0] || now - b[i].window_start >= RL_WINDOW_MS)
			victim = &b[i];
	if (!victim) {
		victim = &b[0];
		for (int i = 1; i < RL_WAYS; i++)
			if (b[i].count < victim->count ||
			    (b[i].count == victim->count && b[i].window_start < victim->window_start))
				victim = &b[i];
	}
	memcpy(victim->key, key, n);
	victim->key[n] = '\0';
	victim->window_start = now;
	victim->count = 0;
	return victim;
}

int ratelimit_take(struct ratelimit *rl, const char *key, int *limit, int *remaining, int64_t *reset)
{
	size_t n = strlen(key);
	unsigned b;
	struct rl_entry *e;
	int64_t now = clock_now_ms();
	int rc = 0;

	if (n > RL_KEY_MAX)
		return err_set(ERR_INTERNAL, "rate limit key longer than %d bytes", RL_KEY_MAX);
	b = bucket_of(rl, key, n);
	pthread_mutex_lock(&rl->mu[b % RL_STRIPES]);
	e = entry_for(rl->entries[b], key, n, now);
	if (now - e->window_start >= RL_WINDOW_MS || now < e->window_start) {
		e->window_start = now; /* a new window (or the clock went back) */
		e->count = 0;
	}
	if (e->count >= rl->limit)
		rc = ERR_RATE_LIMITED;
	else
		e->count++;
	*limit = rl->limit;
	*remaining = rl->limit - e->count;
	*reset = (e->window_start + RL_WINDOW_MS + 999) / 1000;
	pthread_mutex_unlock(&rl->mu[b % RL_STRIPES]);
	if (rc)
		return err_set(ERR_RATE_LIMITED, "rate limit of %d requests per minute exceeded", rl->limit);
	return 0;
}
