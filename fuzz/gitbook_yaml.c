/*
 * gitbook_yaml.c - libFuzzer target for `.gitbook.yaml` (format/gitbook_yaml.h,
 * Git sync's configuration): any bytes are parsed; every path it gives
 * (root, readme, summary, redirects) is normalized - relative, no "." or
 * ".." segment, no "//" - so none can leave the repository's folder.
 * `make fuzz` builds it.
 */
#include "format/gitbook_yaml.h"
#include "util/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void path_ok(const char *p, int may_be_empty)
{
	if (!p || (!may_be_empty && !p[0]) || p[0] == '/' || strstr(p, "//"))
		abort();
	for (const char *s = p; *s;) {
		size_t n = strcspn(s, "/");
		if ((n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
			abort();
		s += n + (s[n] == '/');
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	struct gitbook_yaml y;

	if (size > 2 * YAML_MAX_BYTES)
		return 0;
	arena_init(&a);
	if (gitbook_yaml_parse(&a, (const char *)data, size, &y) == 0) {
		path_ok(y.root, 1);
		path_ok(y.readme, 0);
		path_ok(y.summary, 0);
		for (size_t i = 0; i < y.n_redirects; i++) {
			path_ok(y.redirects[i].from, 0);
			path_ok(y.redirects[i].to, 0);
		}
	}
	arena_free(&a);
	return 0;
}
