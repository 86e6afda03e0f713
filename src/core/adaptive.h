/*
 * adaptive.h - a site's adaptive schema (GitBook's SiteAdaptiveJSONSchema):
 * the draft-7 JSON schema of the claims a visitor brings, and the template
 * conditions derived from it.
 *
 * A valid schema is an object {"$schema"?: draft-07 URI, "type": "object",
 * "properties": {...claims, "unsigned"?: {type object, description "Unsigned
 * claims of the site visitor.", properties {...claims}, additionalProperties
 * false}}, "additionalProperties": false}, where each claim is
 * {type: boolean | string (optional enum of strings) | number | array (items)
 * | object (properties of claims, additionalProperties false), description:
 * string}; nothing else at any level. Pure: no I/O.
 */
#ifndef DOCSD_CORE_ADAPTIVE_H
#define DOCSD_CORE_ADAPTIVE_H

#include <jansson.h>

#include "util/arena.h"

/* 0 when schema is one; else ERR_INVALID with the thread's error message
 * naming the offending path, e.g. "jsonSchema.properties.plan.description:
 * required". */
int adaptive_schema_check(const json_t *schema);

/* A condition a site editor may start from, with what it means. */
struct template_condition {
	const char *description;
	const char *condition;
};

/* The template conditions of a valid schema, in the schema's order: a
 * boolean claim gives `visitor.claims.<path> == true`, a string enum one per
 * value, other claims a presence test. Allocated from a. */
int adaptive_template_conditions(struct arena *a, const json_t *schema, struct template_condition **out, int *n);

#endif
