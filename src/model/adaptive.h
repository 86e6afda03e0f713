/*
 * adaptive.h - a site's adaptive schema (GitBook's SiteAdaptiveJSONSchema):
 * the draft-7 JSON schema of the claims a visitor brings, and the template
 * conditions derived from it.
 *
 * A valid schema is an object {"$schema"?: "http://json-schema.org/draft-07/schema#",
 * "type": "object", "properties": {...claims, "unsigned"?: {"type": "object",
 * "description": "Unsigned claims of the site visitor.", "properties":
 * {...claims}, "additionalProperties": false}}, "additionalProperties": false},
 * where each claim (SiteAdaptiveJSONSchemaClaimsProperties) is one of
 *     {type: "boolean", description}
 *     {type: "string", description, enum?: [strings]}
 *     {type: "number", description}
 *     {type: "array", description, items: a boolean, string or number claim}
 *     {type: "object", description, properties: {...claims}, additionalProperties: false}
 * all keys shown required unless marked ?, nothing else at any level (the
 * OpenAPI document leaves the "unsigned" container open to other keys; we do
 * not). Object claims nest at most 8 levels. Pure: no I/O.
 */
#ifndef DOCSD_MODEL_ADAPTIVE_H
#define DOCSD_MODEL_ADAPTIVE_H

#include <jansson.h>

#include "util/arena.h"

/* 0 when schema is one; else ERR_INVALID with the thread's error message
 * naming the first offending path in document order, e.g.
 * "jsonSchema.properties.plan.description: required",
 * "jsonSchema.properties.plan.type: must be one of boolean, string, number,
 * array, object", "jsonSchema.additionalProperties: must be false". Claim
 * names that are not identifiers appear as ["a-b"], shortened past 24
 * bytes. */
int adaptive_schema_check(const json_t *schema);

/* A condition a site editor may start from, with what it means. */
struct template_condition {
	const char *description;
	const char *condition;
};

/* The template conditions of schema (checked first: its error when it is
 * not valid), in the schema's order, each one cond_parse() accepts:
 *     boolean        visitor.claims.<path> == true      "<name> is true"
 *     string enum    visitor.claims.<path> == "v"       "<name> is "v""   (one per value)
 *     array of enum  "v" in visitor.claims.<path>       "<name> contains "v""
 *     other          visitor.claims.<path> != null      "<name> is set"
 * Object claims give their members' conditions (dotted paths, ["a-b"] for
 * names that are not identifiers); unsigned claims are under
 * visitor.claims.unsigned.… and named "unsigned.<name>". A condition longer
 * than the language allows is left out. *out (NULL when none) and the strings
 * are allocated from a; *n is the count. */
int adaptive_template_conditions(struct arena *a, const json_t *schema, struct template_condition **out, int *n);

#endif
