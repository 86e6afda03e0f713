/*
 * condition.h - the condition language of sites: expressions over a
 * visitor's claims that decide whether a section, a site space or a header
 * link is shown (GitBook's `Expression`), e.g.
 *     visitor.claims.unsigned.beta == true && visitor.claims.plan in ["pro", "team"]
 *
 * The documented safe subset (README, "Conditions"): literals (true, false,
 * null, numbers, "strings" and 'strings', [arrays] of literals), member access
 * on `visitor` (visitor.claims.a.b, visitor.claims["a-b"]), comparison
 * (== != < <= > >=), `in` (a value in an array literal or a claim that is an
 * array), && || ! and parentheses. Nothing else: no calls, no assignment, no
 * other roots. Parsing is bounded (length <= 1024, depth <= 64) and checks
 * that the whole expression is boolean-valued (a comparison, `in`, a logical
 * operator, a boolean literal, or a claim, which is truthy-tested).
 *
 * Evaluation is total: a missing claim is undefined, which compares unequal to
 * everything, is never `in` anything and is falsy. Pure: no I/O, no globals.
 */
#ifndef DOCSD_CORE_CONDITION_H
#define DOCSD_CORE_CONDITION_H

#include <jansson.h>
#include <stdbool.h>

#include "util/arena.h"

struct cond;

/* Why a condition did not parse: the 0-based byte offset and a message. */
struct cond_error {
	int position;
	char message[160];
};

/* Parse src into a tree allocated from a. 0, or -1 with err filled (never a
 * crash on any input). */
int cond_parse(struct arena *a, const char *src, const struct cond **out, struct cond_error *err);

/* For request validation: 0 when src parses, else ERR_INVALID with the
 * thread's error message "<field>: <message> at position <n>". */
int cond_check(const char *field, const char *src);

/* Evaluate against visitor (an object {"claims": {...}}, NULL for an
 * anonymous visitor: every claim undefined). */
bool cond_eval(const struct cond *c, const json_t *visitor);

/* Parse and evaluate; a condition that does not parse is false. NULL or ""
 * src is true (no condition). */
bool cond_visible(const char *src, const json_t *visitor);

#endif
