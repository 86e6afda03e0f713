/*
 * summary.c - libFuzzer target for SUMMARY.md (format/summary.h, Git
 * import's table of contents): any bytes are parsed under a base folder
 * picked by the first byte. Checked: the limits the header states (depth,
 * items, problems recorded), page paths normalized (relative, no "." or
 * ".." segment, no "//"), line numbers inside the text. `make fuzz` builds it.
 */
#include "format/summary.h"
#include "util/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void path_ok(const char *p)
{
	if (!p || p[0] == '/' || strstr(p, "//"))
		abort();
	for (const char *s = p; *s;) {
		size_t n = strcspn(s, "/");
		if ((n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
			abort();
		s += n + (s[n] == '/');
	}
}

static size_t walk(const struct summary_item *it, size_t n, int depth, int lines)
{
	size_t count = n;

	if (depth > SUMMARY_MAX_DEPTH + 2)
		abort();
	for (size_t i = 0; i < n; i++) {
		if (!it[i].title || it[i].line < 1 || it[i].line > lines)
			abort();
		if (it[i].kind == SUMMARY_PAGE)
			path_ok(it[i].path);
		if (it[i].kind == SUMMARY_LINK && !it[i].url)
			abort();
		count += walk(it[i].children, it[i].n_children, depth + 1, lines);
	}
	return count;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const bases[] = { "", "docs", "a/b" };
	struct arena a;
	struct summary s;
	int lines = 1;

	if (size < 1)
		return 0;
	for (size_t i = 1; i < size; i++)
		lines += data[i] == '\n' || data[i] == '\r';
	arena_init(&a);
	if (summary_parse(&a, (const char *)data + 1, size - 1, bases[data[0] % 3], &s) == 0) {
		if (walk(s.items, s.n_items, 0, lines) > SUMMARY_MAX_ITEMS)
			abort();
		if (s.n_problems > SUMMARY_MAX_PROBLEMS || s.n_problems > s.n_problems_total)
			abort();
		for (size_t i = 0; i < s.n_problems; i++)
			if (!s.problems[i].message || s.problems[i].line < 0 || s.problems[i].line > lines)
				abort();
	}
	arena_free(&a);
	return 0;
}
