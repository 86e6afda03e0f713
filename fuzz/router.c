/*
 * router.c - libFuzzer target for the listener's percent-decoding
 * (util/text.h pct_decode with the listener's flags) and the router
 * (http/router.h route_find) on any request line. The first byte picks the
 * method, the rest is the raw path as a client sends it.
 *
 * Checked: the decode never grows the text, leaves no NUL and no '/' made of
 * %2F (the flags the listener uses, so an escape can never split a path
 * segment); a route that matches returns non-empty parameters,
 * and a 405 names the allowed methods. `make fuzz` builds it.
 */
#include "http/router.h"
#include "util/arena.h"
#include "util/text.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const methods[] = { "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "BREW" };
	struct arena a;
	struct route_match m;
	char *path, *strict;
	long n;
	size_t slashes = 0;
	int rc;

	if (size < 1 || size > 64 * 1024)
		return 0;
	path = malloc(size);
	strict = malloc(size);
	if (!path || !strict)
		abort();
	memcpy(path, data + 1, size - 1);
	path[size - 1] = '\0';
	for (size_t i = 0; path[i]; i++)
		slashes += path[i] == '/';
	/* What on_unescape (http/listener.c) does to every URL, in place. */
	n = pct_decode(path, path, strlen(path), PCT_KEEP_NUL | PCT_KEEP_SLASH);
	if (n < 0 || (size_t)n != strlen(path) || (size_t)n > size - 1)
		abort();
	for (size_t i = 0; path[i]; i++)
		slashes -= path[i] == '/';
	if (slashes != 0)
		abort(); /* a '/' appeared or vanished: %2F was decoded */
	(void)pct_decode(strict, (const char *)data + 1, size - 1, PCT_STRICT);

	arena_init(&a);
	memset(&m, 0, sizeof(m));
	rc = route_find(methods[data[0] & 7], path, &a, &m);
	if (rc == 0) {
		if (m.index < 0 || m.nparams < 0 || m.nparams > REQ_MAX_PARAMS)
			abort();
		for (int i = 0; i < m.nparams; i++)
			if (!m.names[i] || !m.values[i] || !m.values[i][0])
				abort(); /* a parameter is never empty */
	} else if (memchr(m.allow, '\0', sizeof(m.allow)) == NULL) {
		abort();
	}
	arena_free(&a);
	free(strict);
	free(path);
	return 0;
}
