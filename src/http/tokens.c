/*
 * tokens.c - API tokens and the cache in front of their lookup.
 *
 * A token is "gb_api_" + 39 random alphanumerics (the prefix keeps GitBook's
 * look, so secret scanners that know GitBook tokens flag ours too). Only its
 * SHA-256 is stored. The cache maps hashes to user ids for a minute so a hot
 * client does not cost a query per request; tokens are never reassigned to
 * another user, so a cached entry can only be stale by still naming a user
 * who has since lost the token (none can today: there is no revocation yet).
 *
 * Integration and installation tokens (domain/integrations.h) are a second
 * table, looked up after API tokens and never cached: an uninstall revokes
 * them in its transaction, and the next request already fails.
 */
#include "http/services.h"
#include "store/integrations.h"
#include "store/store.h"
#include "util/alloc.h"
#include "util/err.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define TC_SLOTS 4096
#define TC_STRIPES 16
#define TC_TTL_MS 60000
#define TOKEN_PREFIX "gb_api_"

struct tc_slot {
	char hash[65];
	char user[ID_LEN + 1];
	int64_t until;
};

struct token_cache {
	pthread_mutex_t mu[TC_STRIPES];
	struct tc_slot slots[TC_SLOTS];
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

int token_cache_get(struct token_cache *tc, const char *hash, char out[ID_LEN + 1])
{
	unsigned s = slot_of(hash);
	pthread_mutex_t *mu = &tc->mu[s % TC_STRIPES];
	int hit = 0;

	pthread_mutex_lock(mu);
	if (tc->slots[s].until > clock_now_ms() && strcmp(tc->slots[s].hash, hash) == 0) {
		memcpy(out, tc->slots[s].user, ID_LEN + 1);
		hit = 1;
	}
	pthread_mutex_unlock(mu);
	return hit;
}

void token_cache_put(struct token_cache *tc, const char *hash, const char *user_id)
{
	unsigned s = slot_of(hash);
	pthread_mutex_t *mu = &tc->mu[s % TC_STRIPES];

	size_t n = strlen(user_id);

	if (n > ID_LEN)
		return;
	pthread_mutex_lock(mu);
	memcpy(tc->slots[s].hash, hash, 65);
	memcpy(tc->slots[s].user, user_id, n + 1);
	tc->slots[s].until = clock_now_ms() + TC_TTL_MS;
	pthread_mutex_unlock(mu);
}

int token_issue(struct store_tx *tx, const char *user_id, char out[TOKEN_LEN + 1])
{
	char hash[65];
	size_t plen = strlen(TOKEN_PREFIX);

	memcpy(out, TOKEN_PREFIX, plen);
	if (random_alnum(out + plen, TOKEN_LEN - plen))
		return err_set(ERR_INTERNAL, "getrandom failed");
	if (sha256_hex(hash, out, TOKEN_LEN))
		return err_set(ERR_INTERNAL, "sha256 failed");
	return store_token_create(tx, user_id, hash);
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

int token_lookup(struct store_tx *tx, const char *hash, const char **user_id, const char **installation_id,
		 bool *cacheable)
{
	int rc = store_token_user(tx, hash, user_id);

	*installation_id = NULL;
	*cacheable = rc == 0;
	if (rc != ERR_NOT_FOUND)
		return rc;
	return store_integration_token_lookup(tx, hash, user_id, installation_id);
}
