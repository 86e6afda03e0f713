/*
 * tokens.c - the cache in front of API tokens' lookup, and the header parse.
 *
 * Issuing a token and asking the store whose a hash is are the domain's
 * (domain/tokens.c: token_issue, token_lookup); this file decides when the
 * store must be asked.
 *
 * DESIGN: the cache and revocation (issue 30 item 6b)
 * The cache maps hashes to (user id, the user's token generation) for a
 * minute. Tokens are never reassigned to another user, so an entry can only
 * be stale by still naming a user whose token has since been revoked. Every
 * revocation (the web interface's revoke, a password reset) bumps
 * users.token_gen in its own transaction; a cache hit is believed only after
 * the request's own transaction reads the user's generation and finds the
 * one the entry was filled under. On a route inside an organization the
 * generation comes with the membership's row (store_membership: a subquery,
 * no round trip of its own; the router confirms before the access check, so
 * a revoked token is a 401, not the organization's 404); elsewhere it is one
 * primary-key read that also gives the caller's row. So a revocation
 * committed through any docsd process, or by the CLI, fails the token at
 * the next request on every process sharing the store, not after the
 * cache's minute: the revoking transaction committed before the request's
 * began, so the request reads the new generation (or, the user deleted,
 * none). What a hit saves over a miss is the token's own row and its join:
 * on an organization's route, the whole query.
 * Within one process, a committed revocation also moves the cache's epoch
 * on (token_cache_flush): a lookup whose store read began before the flush
 * (its epoch, taken before the read, is older) caches nothing.
 *
 * Integration and installation tokens (domain/integrations.h) are a second
 * table, looked up after API tokens and never cached: an uninstall or an
 * unpublish revokes them in its transaction, and the next request already
 * fails.
 */
#include "http/services.h"
#include "domain/tokens.h"
#include "store/store.h"
#include "util/alloc.h"
#include "util/err.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define TC_SLOTS 4096
#define TC_STRIPES 16
#define TC_TTL_MS 60000

struct tc_slot {
	char hash[65];
	char user[ID_LEN + 1];
	int64_t gen; /* the user's token generation when filled */
	int64_t until;
	uint64_t epoch;
};

struct token_cache {
	pthread_mutex_t mu[TC_STRIPES];
	struct tc_slot slots[TC_SLOTS];
	_Atomic uint64_t epoch;
};

int token_cache_new(struct token_cache **out)
{
	struct token_cache *tc = xcalloc(1, sizeof(*tc));

	for (int i = 0; i < TC_STRIPES; i++)
		pthread_mutex_init(&tc->mu[i], NULL);
	*out = tc;
	return 0;
}

void token_cache_free(struct token_cache *tc)
{
	if (!tc)
		return;
	for (int i = 0; i < TC_STRIPES; i++)
		pthread_mutex_destroy(&tc->mu[i]);
	free(tc);
}

static unsigned slot_of(const char *hash)
{
	return (unsigned)strtoul((char[9]){ hash[0], hash[1], hash[2], hash[3], hash[4], hash[5], hash[6], hash[7], 0 },
				 NULL, 16) % TC_SLOTS;
}

int token_cache_get(struct token_cache *tc, const char *hash, char out[ID_LEN + 1], int64_t *gen, uint64_t *epoch)
{
	unsigned s = slot_of(hash);
	pthread_mutex_t *mu = &tc->mu[s % TC_STRIPES];
	int hit = 0;

	*epoch = atomic_load(&tc->epoch);
	pthread_mutex_lock(mu);
	if (tc->slots[s].until > clock_now_ms() && tc->slots[s].epoch == *epoch &&
	    strcmp(tc->slots[s].hash, hash) == 0) {
		memcpy(out, tc->slots[s].user, ID_LEN + 1);
		*gen = tc->slots[s].gen;
		hit = 1;
	}
	pthread_mutex_unlock(mu);
	return hit;
}

void token_cache_put(struct token_cache *tc, const char *hash, const char *user_id, int64_t gen, uint64_t epoch)
{
	unsigned s = slot_of(hash);
	pthread_mutex_t *mu = &tc->mu[s % TC_STRIPES];

	size_t n = strlen(user_id);

	if (n > ID_LEN)
		return;
	pthread_mutex_lock(mu);
	/* Under the lock: a flush after this check makes the entry old. */
	if (atomic_load(&tc->epoch) != epoch) {
		pthread_mutex_unlock(mu);
		return;
	}
	tc->slots[s].epoch = epoch;
	tc->slots[s].gen = gen;
	memcpy(tc->slots[s].hash, hash, 65);
	memcpy(tc->slots[s].user, user_id, n + 1);
	tc->slots[s].until = clock_now_ms() + TC_TTL_MS;
	pthread_mutex_unlock(mu);
}

void token_cache_flush(struct token_cache *tc)
{
	atomic_fetch_add(&tc->epoch, 1);
}

int token_hash_header(const char *authorization, char hash[65])
{
	const char *t;
	size_t n;

	if (!authorization)
		return err_set(ERR_UNAUTHORIZED, "missing Authorization header");
	if (strncasecmp(authorization, "Bearer ", 7) != 0)
		return err_set(ERR_UNAUTHORIZED, "the Authorization header is not 'Bearer <token>'");
	t = authorization + 7;
	while (*t == ' ')
		t++;
	n = strlen(t);
	while (n > 0 && t[n - 1] == ' ')
		n--;
	if (n == 0 || n > 256)
		return err_set(ERR_UNAUTHORIZED, "invalid API token");
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)t[i] <= 0x20 || (unsigned char)t[i] >= 0x7f)
			return err_set(ERR_UNAUTHORIZED, "invalid API token");
	if (sha256_hex(hash, t, n))
		return err_set(ERR_INTERNAL, "sha256 failed");
	return 0;
}

/* The store's answer for a cache entry (user_id, cached) in tx: 0 when the
 * token is still user_id's, refreshing the entry after a generation change
 * (another of the user's tokens revoked); ERR_UNAUTHORIZED when revoked. */
static int confirm(struct token_cache *tc, struct store_tx *tx, const char *hash, const char *user_id,
		   int64_t cached, struct user *user)
{
	const char *uid = NULL, *integ = NULL, *inst = NULL;
	int64_t gen = 0, g2 = 0;
	uint64_t epoch = 0;
	char ignored[ID_LEN + 1];
	int rc = store_token_gen(tx, user_id, user, &gen);

	if (rc == 0 && gen == cached)
		return 0;
	if (rc && rc != ERR_NOT_FOUND)
		return rc;
	/* A revocation since (or the user gone): the token's own row decides. */
	err_clear();
	/* The epoch before the read whose answer is cached (a flush racing
	 * it makes the put a no-op). */
	(void)token_cache_get(tc, hash, ignored, &g2, &epoch);
	rc = token_lookup(tx, hash, &uid, &integ, &inst, user, &gen);
	if (rc == ERR_NOT_FOUND || (rc == 0 && (!user->id || strcmp(uid, user_id) != 0)))
		return err_set(ERR_UNAUTHORIZED, "invalid API token");
	if (rc == 0)
		token_cache_put(tc, hash, user->id, gen, epoch);
	return rc;
}

int token_authenticate(struct token_cache *tc, struct store_tx *tx, const char *hash, const char **user_id,
		       const char **integration_id, const char **installation_id, struct user *user,
		       int64_t *unconfirmed)
{
	char cached_user[ID_LEN + 1];
	int64_t cached = 0, gen = 0;
	uint64_t epoch;
	int rc;

	*integration_id = NULL;
	*installation_id = NULL;
	user->id = NULL;
	if (unconfirmed)
		*unconfirmed = -1;
	if (token_cache_get(tc, hash, cached_user, &cached, &epoch)) {
		*user_id = arena_strdup(tx->arena, cached_user); /* never NULL (util/alloc.h) */
		if (unconfirmed) {
			/* The caller reads the generation with the membership. */
			*unconfirmed = cached;
			return 0;
		}
		return confirm(tc, tx, hash, *user_id, cached, user);
	}
	rc = token_lookup(tx, hash, user_id, integration_id, installation_id, user, &gen);
	if (rc == ERR_NOT_FOUND)
		return err_set(ERR_UNAUTHORIZED, "invalid API token");
	/* Only API tokens are cached: integration and installation tokens
	 * (user->id NULL) are looked up every time. */
	if (rc == 0 && user->id)
		token_cache_put(tc, hash, user->id, gen, epoch);
	return rc;
}

int token_confirm(struct token_cache *tc, struct store_tx *tx, const char *hash, const char *user_id, int64_t cached,
		  int64_t seen, struct user *user)
{
	if (seen >= 0 && seen == cached)
		return 0;
	return confirm(tc, tx, hash, user_id, cached, user);
}
