/*
 * translations.c - translations of spaces (GitBook's Translations):
 * list, create, get, update (instructions), delete, run.
 *
 * Each handler parses the request, calls one domain function
 * (domain/translations.h: access, rules, the run's job) and serializes
 * (json/serialize_translations.h). Languages are GitBook's
 * TranslationLanguage; the target must also be reachable by the engine,
 * directly or through middle languages (the domain answers 400 listing the
 * languages reachable from the source, with their routes). Deletes answer 205 when a
 * translation was deleted and 204 when there was none (GitBook's document);
 * runTranslation answers 204 once the run is queued.
 */
#include "api/api.h"
#include "json/serialize_translations.h"
#include "model/translation.h"
#include "domain/translations.h"

#include <string.h>

static const char *org_of(struct req *r)
{
	return req_param(r, "organizationId");
}

static const char *id_of(struct req *r)
{
	return req_param(r, "translationId");
}

static int send_translation(struct req *r, int status, const struct translation *t)
{
	struct jw *g = resp_json(r, status);

	translation_to_json(g, api_base(r), t);
	return 0;
}

/* A TranslationLanguage (what) from a JSON value. */
static int language(json_t *v, const char *what, const char **out)
{
	if (!v)
		return err_set(ERR_INVALID, "%s: is required", what);
	if (!json_is_string(v) || !translation_language_valid(json_string_value(v)))
		return err_set(ERR_INVALID, "%s: must be one of GitBook's translation languages (en, fr, de, es, it, "
					    "pt, pt-br, ...)", what);
	*out = json_string_value(v);
	return 0;
}

/* instructions: a JSONDocument object (the domain checks its nodes). */
static int instructions(struct req *r, bool required, json_t **out)
{
	*out = body_field(r, "instructions");
	if (!*out)
		return required ? err_set(ERR_INVALID, "instructions: is required") : 0;
	if (!json_is_object(*out))
		return err_set(ERR_INVALID, "instructions: must be a document ({object: \"document\", data, nodes})");
	return 0;
}

int api_translation_list(struct req *r)
{
	struct list_req lr;
	struct cursor cur;
	struct translation *items;
	int64_t total;
	char *next;
	struct jw *g;
	int n, rc;

	if ((rc = req_list_total(r, &lr, &cur, NULL, 0, &total)) ||
	    (rc = dom_translations_list(&r->dom, org_of(r), &lr, &items, &n, &next)))
		return rc;
	g = resp_list_begin(r);
	for (int i = 0; i < n; i++)
		translation_to_json(g, api_base(r), &items[i]);
	return resp_list_end(r, total, next);
}

int api_translation_create(struct req *r)
{
	struct translation_input in = { 0 };
	struct translation t;
	json_t *source = body_field(r, "source"), *space;
	const char *loc;
	int rc;

	if (!source)
		return err_set(ERR_INVALID, "source: is required ({space, language})");
	if (!json_is_object(source))
		return err_set(ERR_INVALID, "source: must be an object {space, language}");
	space = json_object_get(source, "space");
	if (!json_is_string(space) || !*json_string_value(space) || strlen(json_string_value(space)) > 64)
		return err_set(ERR_INVALID, "source.space: must be the id of a space");
	in.source_space = json_string_value(space);
	if ((rc = language(json_object_get(source, "language"), "source.language", &in.source_language)) ||
	    (rc = language(body_field(r, "language"), "language", &in.language)) ||
	    (rc = instructions(r, false, &in.instructions)) ||
	    (rc = dom_translation_create(&r->dom, org_of(r), &in, &t)))
		return rc;
	loc = arena_printf(&r->arena, "%s/v1/orgs/%s/translations/%s", api_base(r), t.org_id, t.id);
	if ((rc = resp_header(r, "Location", loc)))
		return rc;
	return send_translation(r, 201, &t);
}

int api_translation_get(struct req *r)
{
	struct translation t;
	int rc = dom_translation_get(&r->dom, org_of(r), id_of(r), &t);

	return rc ? rc : send_translation(r, 200, &t);
}

int api_translation_update(struct req *r)
{
	struct translation t;
	json_t *doc;
	int rc;

	if ((rc = instructions(r, true, &doc)) || (rc = dom_translation_update(&r->dom, org_of(r), id_of(r), doc, &t)))
		return rc;
	return send_translation(r, 200, &t);
}

int api_translation_delete(struct req *r)
{
	bool removed;
	int rc = dom_translation_delete(&r->dom, org_of(r), id_of(r), &removed);

	return rc ? rc : resp_empty(r, removed ? 205 : 204);
}

int api_translation_run(struct req *r)
{
	int rc = dom_translation_run(&r->dom, org_of(r), id_of(r));

	return rc ? rc : resp_empty(r, 204);
}
