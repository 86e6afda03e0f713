/*
 * openapi.c - an organization's OpenAPI specifications (GitBook's
 * /orgs/{organizationId}/openapi family) and the public URL of a public
 * spec's document.
 *
 * Each handler parses the request, calls one domain function
 * (domain/openapi.h: access, the slug and source rules, the processing job)
 * and serializes (json/serialize_openapi.h).
 */
#include "api/api.h"
#include "json/serialize_openapi.h"
#include "domain/openapi.h"

#include <string.h>

/* GitBook's OpenAPISpecSource: {"url": ...} or {"text": ...}; which one is
 * the domain's to check (both or neither is a 400 there). */
static int body_source(struct req *r, struct openapi_source *src)
{
	json_t *s = body_field(r, "source"), *url, *text;

	memset(src, 0, sizeof(*src));
	if (!s || json_is_null(s))
		return err_set(ERR_INVALID, "source: required: {\"url\": <URL>} or {\"text\": <the specification>}");
	if (!json_is_object(s))
		return err_set(ERR_INVALID, "source: must be an object: {\"url\": <URL>} or {\"text\": <the specification>}");
	url = json_object_get(s, "url");
	text = json_object_get(s, "text");
	if (url && !json_is_string(url))
		return err_set(ERR_INVALID, "source.url: must be a string");
	if (text && !json_is_string(text))
		return err_set(ERR_INVALID, "source.text: must be a string");
	if ((url && strlen(json_string_value(url)) != json_string_length(url)) ||
	    (text && strlen(json_string_value(text)) != json_string_length(text)))
		return err_set(ERR_INVALID, "source: must not contain NUL characters");
	src->url = json_string_value(url);
	src->text = json_string_value(text);
	return 0;
}

static int send_spec(struct req *r, int status, const struct openapi_spec *s)
{
	struct jw *g = resp_json(r, status);

	openapi_spec_to_json(g, api_base(r), s, r->dom.actor.org.role);
	return 0;
}

int api_openapi_list(struct req *r)
{
	struct list_req lr;
	int64_t total;
	struct cursor cur;
	struct openapi_spec *items;
	char *next;
	struct jw *g;
	int n, rc;

	if ((rc = req_list_total(r, &lr, &cur, NULL, 0, &total)) ||
	    (rc = dom_openapi_list(&r->dom, req_param(r, "organizationId"), &lr, &items, &n, &next)))
		return rc;
	g = resp_list_begin(r);
	for (int i = 0; i < n; i++)
		openapi_spec_to_json(g, api_base(r), &items[i], r->dom.actor.org.role);
	return resp_list_end(r, total, next);
}

int api_openapi_create(struct req *r)
{
	struct openapi_source src;
	struct openapi_spec s;
	const char *slug, *loc;
	int rc;

	if ((rc = body_string(r, "slug", F_REQUIRED, 1, 100, &slug)) < 0 || (rc = body_source(r, &src)) ||
	    (rc = dom_openapi_create(&r->dom, req_param(r, "organizationId"), slug, &src, &s)))
		return rc;
	loc = arena_printf(&r->arena, "%s/v1/orgs/%s/openapi/%s", api_base(r), s.org_id, s.slug);
	if ((rc = resp_header(r, "Location", loc)))
		return rc;
	return send_spec(r, 201, &s);
}

int api_openapi_put(struct req *r)
{
	struct openapi_source src;
	struct openapi_spec s;
	bool created;
	int rc;

	if ((rc = body_source(r, &src)) || (rc = dom_openapi_put(&r->dom, req_param(r, "organizationId"),
								  req_param(r, "specSlug"), &src, &s, &created)))
		return rc;
	/* The seed answers 200 whether the spec was created or updated
	 * (GitBook's document also lists 201 for a creation). */
	return send_spec(r, 200, &s);
}

int api_openapi_get(struct req *r)
{
	struct openapi_spec s;
	int rc = dom_openapi_get(&r->dom, req_param(r, "organizationId"), req_param(r, "specSlug"), &s);

	return rc ? rc : send_spec(r, 200, &s);
}

int api_openapi_delete(struct req *r)
{
	bool removed;
	int rc = dom_openapi_delete(&r->dom, req_param(r, "organizationId"), req_param(r, "specSlug"), &removed);

	/* The seed: 204, also when the specification did not exist. */
	return rc ? rc : resp_empty(r, 204);
}

int api_openapi_update(struct req *r)
{
	struct openapi_spec s;
	const char *visibility;
	int rc;

	if ((rc = body_string(r, "visibility", F_REQUIRED, 1, 16, &visibility)) < 0 ||
	    (rc = dom_openapi_set_visibility(&r->dom, req_param(r, "organizationId"), req_param(r, "specSlug"),
					     visibility, &s)))
		return rc;
	return send_spec(r, 200, &s);
}

int api_openapi_versions_list(struct req *r)
{
	struct list_req lr;
	int64_t total;
	struct cursor cur;
	struct openapi_spec spec;
	struct openapi_version *items;
	char *next;
	struct jw *g;
	int n, rc;

	if ((rc = req_list_total(r, &lr, &cur, NULL, 0, &total)) ||
	    (rc = dom_openapi_versions(&r->dom, req_param(r, "organizationId"), req_param(r, "specSlug"), &lr, &spec,
				       &items, &n, &next)))
		return rc;
	g = resp_list_begin(r);
	for (int i = 0; i < n; i++)
		openapi_version_to_json(g, api_base(r), &spec, &items[i]);
	return resp_list_end(r, total, next);
}

/* A version ({versionId}, or the latest on the .../latest routes) or its content. */
static int send_version(struct req *r, bool content)
{
	struct openapi_spec spec;
	struct openapi_version v;
	struct jw *g;
	int rc = dom_openapi_version(&r->dom, req_param(r, "organizationId"), req_param(r, "specSlug"),
				     req_param(r, "versionId"), content, &spec, &v);

	if (rc)
		return rc;
	g = resp_json(r, 200);
	if (content)
		openapi_content_to_json(g, &v);
	else
		openapi_version_to_json(g, api_base(r), &spec, &v);
	return 0;
}

int api_openapi_version_get(struct req *r)
{
	return send_version(r, false);
}

int api_openapi_version_content(struct req *r)
{
	return send_version(r, true);
}

int api_openapi_published(struct req *r)
{
	const char *json;
	int rc = dom_openapi_published(&r->dom, req_param(r, "organizationId"), req_param(r, "specSlug"),
				       req_param(r, "versionId"), &json);

	if (rc)
		return rc;
	resp_header(r, "X-Content-Type-Options", "nosniff");
	resp_header(r, "Access-Control-Allow-Origin", "*");
	return resp_text(r, 200, "application/json", json, strlen(json));
}
