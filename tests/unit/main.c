#include "unit.h"

#include <stdlib.h>

#define MAX_CASES 1024

static struct unit_case cases[MAX_CASES];
static int ncases;
int unit_case_failed;

void unit_register(const char *name, void (*fn)(void))
{
	/* More cases than room is a failed run, never a silently skipped test. */
	if (ncases == MAX_CASES) {
		fprintf(stderr, "unit tests: more than %d cases: raise MAX_CASES (tests/unit/main.c)\n", MAX_CASES);
		exit(1);
	}
	cases[ncases++] = (struct unit_case){ name, fn };
}

void unit_fail(const char *file, int line, const char *expr)
{
	fprintf(stderr, "  %s:%d: check failed: %s\n", file, line, expr);
	unit_case_failed = 1;
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0;
	const char *only = argc > 1 ? argv[1] : NULL;

	/* Line by line: the closing "N passed, N failed" line must not be cut by
	 * what the sanitizers print on stderr at exit (test.sh reads it). */
	setvbuf(stdout, NULL, _IOLBF, 0);

	for (int i = 0; i < ncases; i++) {
		if (only && !strstr(cases[i].name, only))
			continue;
		unit_case_failed = 0;
		cases[i].fn();
		printf("%s %s\n", unit_case_failed ? "FAIL" : "ok  ", cases[i].name);
		if (unit_case_failed)
			failed++;
		else
			passed++;
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
