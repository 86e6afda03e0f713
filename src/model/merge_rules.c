/*
 * merge_rules.c - evaluation of GitBook's merge rules against the facts of a
 * merge attempt (merge_rules.h). No I/O: the domain gathers the facts
 * (domain/reviews.c, dom_merge_rules_check) and turns the outcome into an
 * error.
 */
#include "model/merge_rules.h"
#include "util/err.h"

#include <ctype.h>
#include <jansson.h>
#include <string.h>

static bool blank(const char *s)
{
	if (!s)
		return true;
	for (; *s; s++)
		if (!isspace((unsigned char)*s))
			return false;
	return true;
}

/* Some text in a GitBook document (JSONDocument): a "text" string that is
 * not blank anywhere in it, at most 64 levels down. */
static bool has_text(json_t *v, int depth)
{
	const char *key;
	json_t *x;
	size_t i;

	if (depth > 64)
		return false;
	if (json_is_object(v)) {
		json_object_foreach(v, key, x) {
			if (strcmp(key, "text") == 0 && json_is_string(x) && !blank(json_string_value(x)))
				return true;
			if (has_text(x, depth + 1))
				return true;
		}
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, x)
			if (has_text(x, depth + 1))
				return true;
	}
	return false;
}

/* A change request's description is a document (compact JSON text): blank
 * when it holds no text. Plain text (older callers) is blank when all space. */
static bool blank_description(const char *s)
{
	json_t *doc;
	bool empty;

	if (blank(s))
		return true;
	if (*s != '{')
		return false;
	if (!(doc = json_loads(s, 0, NULL)))
		return false;
	empty = !has_text(doc, 0);
	json_decref(doc);
	return empty;
}

static const char *config_type(json_t *cfg)
{
	const char *t = json_string_value(json_object_get(cfg, "type"));

	return t ? t : "";
}

const char *merge_rules_effective(const char *space_rules, const char *org_rules)
{
	json_t *cfg = space_rules ? json_loads(space_rules, 0, NULL) : NULL;
	bool inherit = !cfg || strcmp(config_type(cfg), "inherit") == 0;

	json_decref(cfg);
	if (!inherit)
		return space_rules;
	return org_rules ? org_rules : "{\"type\":\"none\"}";
}

bool merge_rules_active(const char *config)
{
	json_t *cfg = config ? json_loads(config, 0, NULL) : NULL;
	bool active = cfg && strcmp(config_type(cfg), "rules") == 0;

	json_decref(cfg);
	return active;
}

/* Whether user_id has a current review with status st. */
static bool reviewed(const struct mr_facts *f, const char *user_id, const char *st)
{
	for (int i = 0; i < f->nreviews; i++)
		if (!f->reviews[i].outdated && strcmp(f->reviews[i].status, st) == 0 &&
		    (!user_id || strcmp(f->reviews[i].reviewer_id, user_id) == 0))
			return true;
	return false;
}

static bool listed(json_t *users, const char *user_id)
{
	size_t i;
	json_t *u;

	if (!user_id)
		return false;
	json_array_foreach(users, i, u)
		if (json_is_string(u) && strcmp(json_string_value(u), user_id) == 0)
			return true;
	return false;
}

/* NULL when rule passes, else why it fails. */
static const char *check(const char *rule, json_t *users, const struct mr_facts *f)
{
	size_t i;
	json_t *u;

	if (strcmp(rule, "require_at_least_one_review") == 0)
		return reviewed(f, NULL, "approved") ? NULL : "no current approval";
	if (strcmp(rule, "require_all_reviews_approved") == 0)
		return reviewed(f, NULL, "changes-requested") ? "a current review requests changes" : NULL;
	if (strcmp(rule, "require_specific_reviewers") == 0) {
		json_array_foreach(users, i, u)
			if (json_is_string(u) && !reviewed(f, json_string_value(u), "approved"))
				return "a listed reviewer has not approved";
		return NULL;
	}
	if (strcmp(rule, "require_one_of_specific_reviewers") == 0) {
		json_array_foreach(users, i, u)
			if (json_is_string(u) && reviewed(f, json_string_value(u), "approved"))
				return NULL;
		return "no listed reviewer approved";
	}
	if (strcmp(rule, "require_up_to_date_change_request") == 0)
		return f->up_to_date ? NULL : "the change request is outdated";
	if (strcmp(rule, "require_change_request_subject") == 0)
		return blank(f->subject) ? "empty subject" : NULL;
	if (strcmp(rule, "require_change_request_description") == 0)
		return blank_description(f->description) ? "empty description" : NULL;
	return NULL;
}

static void append(struct arena *a, const char **list, const char *sep, const char *item)
{
	*list = *list ? arena_printf(a, "%s%s%s", *list, sep, item) : arena_strdup(a, item);
}

int merge_rules_eval(struct arena *a, const char *config, const struct mr_facts *f, struct mr_outcome *out)
{
	json_t *cfg, *rules, *r;
	const char *type;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!config || !(cfg = json_loads(config, 0, NULL)))
		return err_set(ERR_INTERNAL, "merge rules: stored configuration is not JSON");
	type = config_type(cfg);
	if (strcmp(type, "rules") != 0) { /* none (or inherit left over): nothing to enforce */
		json_decref(cfg);
		return 0;
	}
	rules = json_object_get(cfg, "rules");
	json_array_foreach(rules, i, r) {
		const char *rule = json_string_value(json_object_get(r, "rule")), *why;
		json_t *users = json_object_get(r, "users");
		if (!rule)
			continue;
		if (strcmp(rule, "allow_bypass") == 0) {
			out->bypassed |= listed(users, f->actor_id);
			continue;
		}
		if (strcmp(rule, "require_agent_review") == 0 || strcmp(rule, "custom") == 0) {
			append(a, &out->unsupported, ", ", rule);
			out->nunsupported++;
			continue;
		}
		if (!(why = check(rule, users, f)))
			continue;
		append(a, &out->unmet, "; ", arena_printf(a, "%s (%s)", rule, why));
		out->nunmet++;
	}
	json_decref(cfg);
	return 0;
}
