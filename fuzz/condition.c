/*
 * condition.c - libFuzzer target for the condition language
 * (model/condition.h): any bytes as a condition are parsed and, when they
 * parse, evaluated for an anonymous visitor and two with claims.
 *
 * Checked, the agreements callers rely on: cond_check (request validation)
 * accepts exactly what cond_parse accepts; a refusal has a message and a
 * position inside the text; cond_visible is cond_parse then cond_eval, and
 * false for what does not parse; evaluation is deterministic.
 * `make fuzz` builds it.
 */
#include "model/condition.h"
#include "util/arena.h"
#include "util/err.h"

#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	const struct cond *c = NULL;
	struct cond_error e;
	json_t *v[3];
	char *src;
	int rc;

	if (size > 16 * 1024)
		return 0;
	src = strndup((const char *)data, size);
	if (!src)
		abort();
	v[0] = NULL;
	v[1] = json_pack("{s:{s:b,s:s,s:i,s:[s,s],s:{s:b}}}", "claims", "pro", 1, "plan", "team", "seats", 5, "roles",
			 "admin", "dev", "unsigned", "beta", 0);
	v[2] = json_pack("{s:{s:n,s:f}}", "claims", "plan", "n", 1.5);
	arena_init(&a);
	memset(&e, 0, sizeof(e));
	rc = cond_parse(&a, src, &c, &e);
	if (rc == 0) {
		if (!c)
			abort();
		for (int i = 0; i < 3; i++) {
			bool x = cond_eval(c, v[i]);
			if (x != cond_eval(c, v[i]) || x != cond_visible(src, v[i]))
				abort();
		}
		if (cond_check("condition", src) != 0)
			abort(); /* parses, yet a request with it is refused */
	} else {
		if (!e.message[0] || e.position < 0 || (size_t)e.position > strlen(src))
			abort();
		if (memchr(e.message, '\0', sizeof(e.message)) == NULL)
			abort();
		if (src[0] && cond_check("condition", src) == 0)
			abort(); /* does not parse, yet accepted */
		for (int i = 0; i < 3; i++)
			if (src[0] && cond_visible(src, v[i]))
				abort();
	}
	err_clear();
	arena_free(&a);
	json_decref(v[1]);
	json_decref(v[2]);
	free(src);
	return 0;
}
