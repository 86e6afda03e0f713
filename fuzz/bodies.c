/*
 * bodies.c - libFuzzer target for JSON request bodies through the handlers'
 * own validation. The first byte picks an operation family; the rest is the
 * body, parsed as the router parses it (json_loadb, duplicates refused, an
 * object required) and read by that family's exported readers:
 *   0 spaces and sites: body_string (title, 1..256), body_bool, body_role;
 *   1 content placement: body_place, body_level;
 *   2 organizations: body_merge_rules (with and without "inherit");
 *   3 change requests and translations: document_text of the description;
 *   4 invites and teams: body_string_array, body_role;
 *   5 page conditions: cond_check of a string field.
 * These read r->json and the arena only, so no store is needed.
 *
 * Checked: every reader answers found (1), absent (0) or ERR_INVALID with a
 * message (never another code); strings it accepts are valid UTF-8 within
 * their bounds; an accepted document is compact JSON that parses again.
 * `make fuzz` builds it.
 */
#include "api/api.h"
#include "api/content.h"
#include "format/document.h"
#include "http/http.h"
#include "model/condition.h"
#include "util/err.h"
#include "util/text.h"

#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A reader's answer: 0 or 1, or ERR_INVALID with a message. */
static void answer(int rc)
{
	if (rc == 0 || rc == 1)
		return;
	if (rc != ERR_INVALID || !err_message() || !err_message()[0])
		abort();
}

static void text_ok(const char *s, long max)
{
	long n;

	if (!s)
		return;
	n = utf8_len(s);
	if (n < 0 || (max > 0 && n > max))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct req *rp;
	json_error_t jerr;
	const char *s = NULL, **list = NULL;
	int b = 0, n = 0, rc;
	enum role role;

	if (size < 1 || size > 256 * 1024)
		return 0;
	rp = calloc(1, sizeof(*rp)); /* large: not on the stack */
	if (!rp)
		abort();
#define r (*rp)
	r.json = json_loadb((const char *)data + 1, size - 1, JSON_REJECT_DUPLICATES, &jerr);
	if (!r.json || !json_is_object(r.json)) {
		json_decref(r.json);
		free(rp);
		return 0;
	}
	arena_init(&r.arena);
	switch (data[0] % 6) {
	case 0:
		answer(rc = body_string(&r, "title", F_REQUIRED, 1, 256, &s));
		if (rc == 1)
			text_ok(s, 256);
		answer(body_bool(&r, "public", 0, &b));
		answer(body_role(&r, "role", F_NULLABLE, &role));
		break;
	case 1: {
		struct dom_place p;
		int level = 0;
		rc = api_body_place(&r, &p);
		if (rc != 0)
			answer(rc);
		else
			text_ok(p.parent_id, 64);
		answer(api_body_level(&r, "defaultLevel", &level));
		break;
	}
	case 2:
		answer(api_body_merge_rules(&r, true, &s));
		answer(api_body_merge_rules(&r, false, &s));
		break;
	case 3: {
		json_t *doc = json_object_get(r.json, "description");
		if (doc && (rc = document_text(&r.arena, "description", doc, 64 * 1024, &s)) == 0) {
			json_t *again = json_loads(s, 0, NULL);
			if (!again || !json_is_object(again))
				abort();
			json_decref(again);
		} else if (doc) {
			answer(rc);
		}
		break;
	}
	case 4:
		answer(rc = body_string_array(&r, "emails", F_REQUIRED, 100, 256, &list, &n));
		if (rc == 1 && (n < 0 || n > 100 || (n && !list)))
			abort();
		answer(body_role(&r, "role", 0, &role));
		break;
	default: {
		json_t *c = json_object_get(r.json, "condition");
		if (json_is_string(c))
			answer(cond_check("condition", json_string_value(c)));
		break;
	}
	}
	err_clear();
	arena_free(&r.arena);
	json_decref(r.json);
#undef r
	free(rp);
	return 0;
}
