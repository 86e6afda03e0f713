/* http/tokens.c: the token cache and its flush on revocation (domain/tokens.h) */
#include "http/services.h"
#include "unit.h"

#include <string.h>

#define HASH_A "aaaaaaaa00000000000000000000000000000000000000000000000000000001"
#define HASH_B "bbbbbbbb00000000000000000000000000000000000000000000000000000002"

UNIT_TEST(token_cache_hit_after_put)
{
	struct token_cache *tc = NULL;
	char user[ID_LEN + 1];
	int64_t gen = 0;
	uint64_t epoch;

	CHECK(token_cache_new(&tc) == 0);
	CHECK(token_cache_get(tc, HASH_A, user, &gen, &epoch) == 0);
	token_cache_put(tc, HASH_A, "user1", 7, epoch);
	CHECK(token_cache_get(tc, HASH_A, user, &gen, &epoch) == 1);
	CHECK_STR(user, "user1");
	CHECK(gen == 7); /* the generation it was filled under comes back */
	CHECK(token_cache_get(tc, HASH_B, user, &gen, &epoch) == 0);
	token_cache_free(tc);
}

UNIT_TEST(token_cache_flush_forgets_every_entry)
{
	struct token_cache *tc = NULL;
	char user[ID_LEN + 1];
	int64_t gen = 0;
	uint64_t ea, eb;

	CHECK(token_cache_new(&tc) == 0);
	CHECK(token_cache_get(tc, HASH_A, user, &gen, &ea) == 0);
	token_cache_put(tc, HASH_A, "user1", 7, ea);
	CHECK(token_cache_get(tc, HASH_B, user, &gen, &eb) == 0);
	token_cache_put(tc, HASH_B, "user2", 7, eb);
	token_cache_flush(tc);
	CHECK(token_cache_get(tc, HASH_A, user, &gen, &ea) == 0);
	CHECK(token_cache_get(tc, HASH_B, user, &gen, &eb) == 0);
	/* Looked up again after the flush: cached again. */
	token_cache_put(tc, HASH_A, "user1", 7, ea);
	CHECK(token_cache_get(tc, HASH_A, user, &gen, &ea) == 1);
	token_cache_free(tc);
}

UNIT_TEST(token_cache_put_of_a_lookup_older_than_a_flush_is_dropped)
{
	struct token_cache *tc = NULL;
	char user[ID_LEN + 1];
	int64_t gen = 0;
	uint64_t epoch, now;

	CHECK(token_cache_new(&tc) == 0);
	/* A request misses, reads the store (the token still there), and
	 * meanwhile a revocation commits and flushes: its answer is not kept. */
	CHECK(token_cache_get(tc, HASH_A, user, &gen, &epoch) == 0);
	token_cache_flush(tc);
	token_cache_put(tc, HASH_A, "user1", 7, epoch);
	CHECK(token_cache_get(tc, HASH_A, user, &gen, &now) == 0);
	CHECK(now != epoch);
	token_cache_free(tc);
}
