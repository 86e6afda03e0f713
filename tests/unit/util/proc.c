/*
 * util/proc: a child process fed and read through pipes without deadlock,
 * its failures reported, its whole process group killed at the deadline.
 */
#include "util/arena.h"
#include "util/err.h"
#include "util/proc.h"
#include "util/util.h"
#include "unit.h"

#include <stdlib.h>

UNIT_TEST(proc_round_trip_of_a_large_input)
{
	struct arena a;
	struct proc_result r;
	size_t n = 3u << 20; /* far more than a pipe holds: writing and reading must interleave */
	char *in = malloc(n);
	const char *const argv[] = { "cat", NULL };

	arena_init(&a);
	CHECK(in != NULL);
	if (in) {
		for (size_t i = 0; i < n; i++)
			in[i] = (char)('a' + i % 26);
		CHECK(proc_run(&a, argv, in, n, n, 10000, &r) == 0);
		CHECK(r.out_len == n && r.out && memcmp(r.out, in, n) == 0);
	}
	free(in);
	arena_free(&a);
}

UNIT_TEST(proc_failures)
{
	struct arena a;
	struct proc_result r;
	const char *const fails[] = { "sh", "-c", "echo oops >&2; exit 3", NULL };
	const char *const missing[] = { "docsd-no-such-program", NULL };
	const char *const deaf[] = { "true", NULL };
	const char *const chatty[] = { "yes", NULL };
	char big[200000];

	arena_init(&a);
	CHECK(proc_run(&a, fails, NULL, 0, 1000, 5000, &r) == ERR_UNAVAILABLE);
	CHECK(strstr(err_message(), "status 3") && strstr(err_message(), "oops"));
	CHECK(proc_run(&a, missing, NULL, 0, 1000, 5000, &r) == ERR_UNAVAILABLE);
	/* a child that reads nothing: the write fails with EPIPE, nobody dies of SIGPIPE */
	memset(big, 'x', sizeof(big));
	CHECK(proc_run(&a, deaf, big, sizeof(big), 1000, 5000, &r) == 0);
	CHECK(proc_run(&a, chatty, NULL, 0, 10000, 5000, &r) == ERR_UNAVAILABLE);
	CHECK(strstr(err_message(), "more than 10000 bytes") != NULL);
	arena_free(&a);
}

UNIT_TEST(proc_deadline_kills_the_group)
{
	struct arena a;
	struct proc_result r;
	/* A shell whose child keeps the pipes open: killing the shell alone
	 * would leave the reader waiting for the sleep. */
	const char *const slow[] = { "sh", "-c", "sleep 30 & wait", NULL };
	int64_t t0 = clock_mono_ns();

	arena_init(&a);
	CHECK(proc_run(&a, slow, NULL, 0, 1000, 300, &r) == ERR_UNAVAILABLE);
	CHECK(strstr(err_message(), "did not finish") != NULL);
	CHECK(clock_mono_ns() - t0 < 5000000000LL);
	arena_free(&a);
}
