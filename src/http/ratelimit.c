/*
 * ratelimit.c - per-token request limits in fixed one-minute windows, as
 * GitBook announces them: X-RateLimit-Limit, -Remaining and -Reset (epoch
 * seconds when the window ends). The table is direct-mapped by token hash; a
 * colliding token takes the slot over and starts a fresh window, which can only
 * ever let a request through, never refuse one wrongly.
 */
#include "http/services.h"
#include "util/err.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RL_SLOTS 16384
#define RL_STRIPES 16
#define RL_WINDOW_MS 60000

struct rl_slot {
	char key[65];
	int64_t window_start;
	int count;
};

struct ratelimit {
	int limit;
	pthread_mutex_t mu[RL_STRIPES];
	struct rl_slot slots[RL_SLOTS];
};

int ratelimit_new(struct ratelimit **out, int per_minute)
{
	struct ratelimit *rl = calloc(1, sizeof(*rl));

	if (!rl)
		return err_set(ERR_INTERNAL, "out of memory");
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

int ratelimit_take(struct ratelimit *rl, const char *key, int *limit, int *remaining, int64_t *reset)
{
	unsigned h = 2166136261u;
	struct rl_slot *s;
	int64_t now = clock_now_ms();
	int rc = 0;

	for (const char *p = key; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	s = &rl->slots[h % RL_SLOTS];
	pthread_mutex_lock(&rl->mu[h % RL_STRIPES]);
	if (strcmp(s->key, key) != 0 || now - s->window_start >= RL_WINDOW_MS) {
		snprintf(s->key, sizeof(s->key), "%s", key);
		s->window_start = now - now % RL_WINDOW_MS;
		s->count = 0;
	}
	if (s->count >= rl->limit)
		rc = ERR_RATE_LIMITED;
	else
		s->count++;
	*limit = rl->limit;
	*remaining = rl->limit - s->count;
	*reset = (s->window_start + RL_WINDOW_MS) / 1000;
	pthread_mutex_unlock(&rl->mu[h % RL_STRIPES]);
	if (rc)
		return err_set(ERR_RATE_LIMITED, "rate limit of %d requests per minute exceeded", rl->limit);
	return 0;
}
