/* util/buf, util/fnv and util/lru: the buffer, hash and recency list the
 * writers and caches share (issue 33 §2, §3). */
#include "json/jsonw.h"
#include "unit.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/fnv.h"
#include "util/lru.h"

#include <string.h>

UNIT_TEST(buf_take_copies_into_the_arena_and_frees)
{
	struct arena a;
	struct buf b;
	const char *s;

	arena_init(&a);
	buf_init(&b);
	CHECK_STR(buf_take(&b, &a, "fallback"), ""); /* an empty buffer is "" */
	buf_puts(&b, "hello ");
	buf_put(&b, "world!", 5);
	s = buf_take(&b, &a, NULL);
	CHECK_STR(s, "hello world");
	CHECK(b.buf == NULL && b.len == 0 && b.cap == 0);
	/* Past SIZE_MAX / 2 the buffer refuses, keeps refusing, and take falls back. */
	CHECK(!buf_reserve(&b, SIZE_MAX / 2 + 1));
	buf_puts(&b, "more");
	CHECK(!buf_ok(&b) && b.len == 0);
	CHECK_STR(buf_take(&b, &a, "too big"), "too big");
	CHECK(buf_ok(&b));
	arena_free(&a);
}

UNIT_TEST(jw_is_built_on_buf)
{
	struct arena a;
	struct jw w;

	arena_init(&a);
	jw_init(&w);
	jw_obj_open(&w);
	jw_kstr(&w, "a", "x\"y");
	jw_kint(&w, "n", 3);
	jw_obj_close(&w);
	CHECK(w.b.buf == w.buf && w.b.len == w.len); /* the same bytes by either name */
	CHECK_STR(jw_take(&w, &a, NULL), "{\"a\":\"x\\\"y\",\"n\":3}");
	CHECK(w.buf == NULL && !w.comma);
	arena_free(&a);
}

UNIT_TEST(fnv1a_is_the_standard_64_bit_hash)
{
	/* Published FNV-1a 64 test vectors. */
	CHECK(fnv1a_str("") == 0xcbf29ce484222325ull);
	CHECK(fnv1a_str("a") == 0xaf63dc4c8601ec8cull);
	CHECK(fnv1a_str("foobar") == 0x85944171f73967e8ull);
	CHECK(fnv1a("foobar", 3) == fnv1a_str("foo"));
	CHECK(fnv1a_from(fnv1a_str("foo"), "bar", 3) == fnv1a_str("foobar"));
}

struct item {
	int id;
	struct lru_node lru;
};

UNIT_TEST(lru_keeps_recency_and_the_byte_budget)
{
	struct lru l;
	struct item it[3] = { { .id = 0 }, { .id = 1 }, { .id = 2 } };
	struct lru_node *n;

	lru_init(&l, 100);
	CHECK(lru_oldest(&l) == NULL && lru_newest(&l) == NULL);
	CHECK(lru_fits(&l, 100) && !lru_fits(&l, 101));
	for (int i = 0; i < 3; i++)
		lru_push(&l, &it[i].lru, 30);
	CHECK(l.bytes == 90);
	CHECK(!lru_fits(&l, 11) && lru_fits(&l, 10));
	CHECK(LRU_ENTRY(lru_oldest(&l), struct item, lru)->id == 0);
	CHECK(LRU_ENTRY(lru_newest(&l), struct item, lru)->id == 2);
	lru_touch(&l, &it[0].lru); /* 1, 2, 0 from the oldest */
	CHECK(l.bytes == 90);
	n = lru_oldest(&l);
	CHECK(LRU_ENTRY(n, struct item, lru)->id == 1);
	n = lru_newer(&l, n);
	CHECK(LRU_ENTRY(n, struct item, lru)->id == 2);
	n = lru_newer(&l, n);
	CHECK(LRU_ENTRY(n, struct item, lru)->id == 0);
	CHECK(lru_newer(&l, n) == NULL);
	CHECK(lru_older(&l, lru_newest(&l)) == &it[2].lru);
	/* Evicting as the caches do: oldest first until the new cost fits. */
	while (!lru_fits(&l, 50) && (n = lru_oldest(&l)))
		lru_remove(&l, n);
	CHECK(l.bytes == 30 && lru_oldest(&l) == &it[0].lru && lru_newest(&l) == &it[0].lru);
	lru_remove(&l, &it[0].lru);
	CHECK(l.bytes == 0 && lru_oldest(&l) == NULL);
	/* A cost above the whole budget never fits (no overflow in the check). */
	CHECK(!lru_fits(&l, SIZE_MAX));
}
