/* http/tokens.c: the token cache and its flush on revocation (domain/tokens.h) */
#include "http/services.h"
#include "domain/tokens.h"
#include "store/store.h"
#include "unit.h"
#include "util/err.h"
#include "util/util.h"

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

/* The cache against the store (issue 30 item 6b): an entry is believed only
 * while the user's token generation is the one it was filled under, so a
 * revocation committed by another process (here: the same store, the cache
 * not flushed) fails the token at its next lookup. */
static void cache_generation_suite(struct store *s)
{
	struct token_cache *tc = NULL;
	struct arena a;
	struct store_tx tx;
	struct user u, row;
	char t1[TOKEN_LEN + 1], t2[TOKEN_LEN + 1], h1[65], h2[65];
	const char *uid = NULL, *integ = NULL, *inst = NULL;
	int64_t pending = -1, gen = -1;

	arena_init(&a);
	CHECK(token_cache_new(&tc) == 0);
	CHECK(store_tx_begin(s, &tx, 1, &a) == 0);
	unit_new_user(&tx, "tokgen", NULL, &u);
	CHECK(token_issue(&tx, u.id, t1) == 0 && token_issue(&tx, u.id, t2) == 0);
	CHECK(sha256_hex(h1, t1, strlen(t1)) == 0 && sha256_hex(h2, t2, strlen(t2)) == 0);

	/* a miss reads the store (the caller's row with it) and fills the cache */
	CHECK(token_authenticate(tc, &tx, h1, &uid, &integ, &inst, &row, &pending) == 0);
	CHECK_STR(uid, u.id);
	CHECK(row.id && strcmp(row.id, u.id) == 0 && inst == NULL && pending == -1);
	CHECK(token_authenticate(tc, &tx, h2, &uid, &integ, &inst, &row, NULL) == 0);
	/* a hit: deferred, with the generation to confirm */
	CHECK(token_authenticate(tc, &tx, h1, &uid, &integ, &inst, &row, &pending) == 0);
	CHECK_STR(uid, u.id);
	CHECK(pending >= 0 && row.id == NULL);
	CHECK(store_token_gen(&tx, u.id, &row, &gen) == 0 && gen == pending);
	CHECK(token_confirm(tc, &tx, h1, u.id, pending, gen, &row) == 0);
	CHECK(token_confirm(tc, &tx, h1, u.id, pending, -1, &row) == 0); /* nothing seen: read */

	/* revoked without a flush (another process did it): the next lookup fails */
	CHECK(store_token_delete(&tx, u.id, (char[17]){ h1[0], h1[1], h1[2], h1[3], h1[4], h1[5], h1[6], h1[7], h1[8],
							 h1[9], h1[10], h1[11], h1[12], h1[13], h1[14], h1[15], 0 }) == 0);
	CHECK(store_token_gen(&tx, u.id, &row, &gen) == 0 && gen != pending);
	CHECK(token_confirm(tc, &tx, h1, u.id, pending, gen, &row) == ERR_UNAUTHORIZED);
	CHECK(token_authenticate(tc, &tx, h1, &uid, &integ, &inst, &row, NULL) == ERR_UNAUTHORIZED);
	/* the user's other token, cached under the old generation, is looked up
	 * again and refreshed */
	CHECK(token_authenticate(tc, &tx, h2, &uid, &integ, &inst, &row, &pending) == 0 && pending >= 0 && pending != gen);
	CHECK(token_confirm(tc, &tx, h2, u.id, pending, gen, &row) == 0);
	CHECK(token_authenticate(tc, &tx, h2, &uid, &integ, &inst, &row, &pending) == 0 && pending == gen);
	/* a password reset revokes it too */
	CHECK(store_tokens_revoke_user(&tx, u.id, NULL) == 0);
	CHECK(store_token_gen(&tx, u.id, &row, &gen) == 0 && gen != pending);
	CHECK(token_confirm(tc, &tx, h2, u.id, pending, gen, &row) == ERR_UNAUTHORIZED);
	/* an unknown token */
	CHECK(token_authenticate(tc, &tx, HASH_B, &uid, &integ, &inst, &row, NULL) == ERR_UNAUTHORIZED);
	store_tx_rollback(&tx);
	token_cache_free(tc);
	arena_free(&a);
}

UNIT_TEST_ON_ENGINES(token_cache_generation, cache_generation_suite)
