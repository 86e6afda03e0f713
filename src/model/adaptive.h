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
#include <stdbool.h>
#include <stddef.h>

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

/* ---- adaptive content of a page (adaptive_content.c) ----
 *
 * GitBook's adaptive blocks in a page's markdown, decided for one visitor
 * before the text goes anywhere (page, .md twin, llms files, search
 * excerpts, PDF):
 *     {% if <condition> %} ... {% elsif <condition> %} ... {% else %} ... {% endif %}
 * (also "elseif" and "else if"), nested up to ADAPT_MAX_DEPTH (deeper
 * blocks are hidden whole), conditions in condition.h's language; a
 * condition that does not parse is false, an unclosed block runs to the
 * end, a stray else or endif is dropped. And inline expressions
 *     {{ page.vars.x }}  {{ space.vars.x }}  {{ visitor.claims.x }}
 * (paths of .name, ?.name, ["name"], [n]) replaced by their value, with
 * markdown's punctuation backslash-escaped so a value can never become
 * markup; an unknown name, an object or anything else is "". Tags inside
 * code stay as written, code being what cmark-gfm (format/markdown.h
 * md_parse, the renderer's setup) reads as a code block or a code span. An
 * if-family tag without "%}" on its line hides (an if opens a hidden block;
 * elsif, else, endif hide the rest of theirs). A line holding only block
 * tags goes whole. */
#define ADAPT_MAX_DEPTH 32

struct adapt_ctx {
	const json_t *visitor;    /* {"claims": {...}}, or NULL: an anonymous visitor */
	const json_t *page_vars;  /* the page's variables (an object), or NULL */
	const json_t *space_vars; /* the space's variables, or NULL */
};

/* Whether md[0..len) holds anything adapt_markdown changes ("{%" if/else
 * tags or "{{"): a quick scan, so pages without adaptive content are
 * neither copied nor keyed by claims. */
bool adapt_present(const char *md, size_t len);

/* md[0..len) as ctx's visitor reads it: NUL-terminated, from a; *out_len
 * its length. Never fails. */
const char *adapt_markdown(struct arena *a, const char *md, size_t len, const struct adapt_ctx *ctx,
			   size_t *out_len);

/* For page writes, the same walk as adapt_markdown: 0 when every {% if %} /
 * {% elsif %} condition of md (in any branch) parses and every if-family
 * tag ends on its line; else ERR_INVALID with the message "<field>: line
 * <L>: condition: <why> at position <n>" (cond_parse's position inside the
 * condition) or "<field>: line <L>: {% %} tag not closed on its line ...";
 * -1 when cmark cannot parse md (memory). */
int adapt_check(const char *field, const char *md, size_t len);

#endif
