/*
 * adaptive.c - PLACEHOLDER until the adaptive-schema helper lands: accepts
 * every schema, derives no conditions.
 */
#include "core/adaptive.h"

#include <stddef.h>

int adaptive_schema_check(const json_t *schema)
{
	return 0;
}

int adaptive_template_conditions(struct arena *a, const json_t *schema, struct template_condition **out, int *n)
{
	*out = NULL;
	*n = 0;
	return 0;
}
