/*
 * condition.h - the condition language of sites: expressions over a
 * visitor's claims that decide whether a section, a site space or a header
 * link is shown (GitBook's `Expression`), e.g.
 *     visitor.claims.unsigned.beta == true && visitor.claims.plan in ["pro", "team"]
 *
 * The documented safe subset (README, "Conditions"; docs/conditions.md):
 * literals (true, false, null, numbers such as 42, -1.5, .5, 1e3, "strings"
 * and 'strings' with JavaScript escapes, [arrays] of literals), member access
 * on visitor.claims (visitor.claims.a.b, visitor.claims["a-b"],
 * visitor.claims.list[0]), comparison (== != === !== < <= > >=), `in`, && ||
 * ! and parentheses, with precedence || < && < ! < comparison/in < primary
 * (so `!a == b` is `!(a == b)`). Nothing else: no calls, no arithmetic, no
 * assignment, no other roots. Parsing is bounded (length <= 1024 bytes,
 * nesting of parentheses and ! <= 64) and checks that the whole expression
 * and each operand of && || ! is boolean-valued (a comparison, `in`, a
 * logical operator, a boolean literal, or a claim, which is truthy-tested).
 *
 * Evaluation is total and JavaScript-like without coercion: == and ===
 * compare numbers numerically, strings bytewise, booleans and null, values
 * of different types are unequal, arrays and objects equal nothing; the one
 * difference between them is that a missing claim (undefined) == null (as in
 * JavaScript) but !== null. A missing claim is otherwise unequal to
 * everything, falsy, never ordered and never `in` anything. < <= > >= order
 * two numbers or two strings (bytewise), else false. `x in y`: y an array
 * (literal or claim) holding an element === x; y a string containing the
 * string x; y an object claim with the key x. Falsy: undefined, null, false,
 * 0, "". Pure: no I/O, no globals; valid on any bytes.
 */
#ifndef DOCSD_MODEL_CONDITION_H
#define DOCSD_MODEL_CONDITION_H

#include <jansson.h>
#include <stdbool.h>

#include "util/arena.h"

struct cond;

/* Why a condition did not parse: the 0-based byte offset of the offending
 * token (the length for an unexpected end) and an ASCII/UTF-8 message such as
 * "unexpected ')'". */
struct cond_error {
	int position;
	char message[160];
};

/* Parse src into a tree allocated from a. 0, or -1 with err filled (never a
 * crash on any input). */
int cond_parse(struct arena *a, const char *src, const struct cond **out, struct cond_error *err);

/* For request validation: 0 when src parses or is NULL or "" (no
 * condition: GitBook's Expression has minLength 0), else ERR_INVALID with the
 * thread's error message "<field>: <message> at position <n>". */
int cond_check(const char *field, const char *src);

/* Evaluate against visitor (an object {"claims": {...}}, NULL for an
 * anonymous visitor: every claim undefined). A NULL c is true. */
bool cond_eval(const struct cond *c, const json_t *visitor);

/* Parse and evaluate; a condition that does not parse is false. NULL or ""
 * src is true (no condition). */
bool cond_visible(const char *src, const json_t *visitor);

#endif
