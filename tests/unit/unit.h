/*
 * unit.h - a minimal test harness. Each test file registers its cases with
 * UNIT_TEST(); main.c runs them all and prints "N passed, N failed".
 */
#ifndef DOCSD_TESTS_UNIT_H
#define DOCSD_TESTS_UNIT_H

#include <stdio.h>
#include <string.h>

struct unit_case {
	const char *name;
	void (*fn)(void);
};

void unit_register(const char *name, void (*fn)(void));
void unit_fail(const char *file, int line, const char *expr);
extern int unit_case_failed;

#define UNIT_TEST(name)                                                              \
	static void test_##name(void);                                               \
	__attribute__((constructor)) static void register_##name(void)               \
	{                                                                            \
		unit_register(#name, test_##name);                                   \
	}                                                                            \
	static void test_##name(void)

/* A store-level suite on both engines (engines.c): name_on_sqlite and
 * name_on_postgres. */
struct store;
struct store_tx;
struct user;
void unit_on_sqlite(void (*suite)(struct store *s));
void unit_on_postgres(const char *name, void (*suite)(struct store *s));
/* A new user named who, with the unique email who-<random>@<domain> (NULL:
 * example.com): the PostgreSQL database keeps earlier runs' users. */
void unit_new_user(struct store_tx *tx, const char *who, const char *domain, struct user *out);
#define UNIT_TEST_ON_ENGINES(name, suite)                                      \
	UNIT_TEST(name##_on_sqlite) { unit_on_sqlite(suite); }                 \
	UNIT_TEST(name##_on_postgres) { unit_on_postgres(#name "_on_postgres", suite); }

#define CHECK(expr)                                          \
	do {                                                 \
		if (!(expr))                                 \
			unit_fail(__FILE__, __LINE__, #expr); \
	} while (0)

#define CHECK_STR(a, b)                                                                     \
	do {                                                                                \
		const char *a_ = (a), *b_ = (b);                                            \
		if (!a_ || !b_ || strcmp(a_, b_) != 0) {                                    \
			char m_[1024];                                                      \
			snprintf(m_, sizeof(m_), "%.200s == %.200s (\"%.250s\" vs \"%.250s\")", #a, #b, \
				 a_ ? a_ : "(null)", b_ ? b_ : "(null)");                   \
			unit_fail(__FILE__, __LINE__, m_);                                  \
		}                                                                           \
	} while (0)

#endif
