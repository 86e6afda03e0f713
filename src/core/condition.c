/*
 * condition.c - PLACEHOLDER until the condition-language helper lands:
 * accepts everything, shows everything.
 */
#include "core/condition.h"

#include "util/err.h"

#include <stddef.h>

int cond_parse(struct arena *a, const char *src, const struct cond **out, struct cond_error *err)
{
	*out = NULL;
	return 0;
}

int cond_check(const char *field, const char *src)
{
	return 0;
}

bool cond_eval(const struct cond *c, const json_t *visitor)
{
	return true;
}

bool cond_visible(const char *src, const json_t *visitor)
{
	return true;
}
