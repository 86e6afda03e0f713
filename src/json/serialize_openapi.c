/*
 * serialize_openapi.c - OpenAPISpec, OpenAPISpecVersion, OpenAPISpecContent
 * (serialize_openapi.h).
 */
#include "json/serialize_openapi.h"

#include <stdio.h>
#include <string.h>

char *openapi_published_url(struct arena *a, const char *base, const struct openapi_spec *s)
{
	return arena_printf(a, "%s/openapi/%s/%s", base, s->org_id, s->slug);
}

/* "<base><mid>/<org>/openapi/<slug><tail>" as the value of key k. Ids and
 * slugs are short ([A-Za-z0-9-]) and base is at most 511 bytes (server.h). */
static void url(struct jw *g, const char *k, const char *base, const char *mid, const struct openapi_spec *s,
		const char *tail)
{
	char buf[1024];

	snprintf(buf, sizeof(buf), "%s%s/%s/openapi/%s%s", base, mid, s->org_id, s->slug, tail ? tail : "");
	jw_kstr(g, k, buf);
}

void openapi_spec_to_json(struct jw *g, const char *base, const struct openapi_spec *s, enum role caller)
{
	jw_obj_open(g);
	jw_kstr(g, "object", "openapi-spec");
	jw_kstr(g, "id", s->id);
	jw_kts(g, "createdAt", s->created_at);
	jw_kts(g, "updatedAt", s->updated_at);
	jw_kstr(g, "slug", s->slug);
	jw_kstr_opt(g, "sourceURL", s->source_url);
	jw_kstr(g, "processingState", s->processing_state);
	jw_kstr(g, "visibility", s->visibility);
	jw_kstr_opt(g, "lastVersion", s->last_version);
	if (s->last_processed_at > 0)
		jw_kts(g, "lastProcessedAt", s->last_processed_at);
	jw_kstr_opt(g, "lastProcessErrorCode", s->last_error_code);
	if (s->last_errors) {
		/* Written by the job (domain/openapi.c) as a JSON array. */
		jw_key(g, "lastProcessedErrors");
		jw_raw(g, s->last_errors);
	}
	jw_key(g, "permissions");
	jw_obj_open(g);
	jw_kbool(g, "view", caller >= ROLE_READ);
	jw_kbool(g, "edit", caller >= ROLE_CREATE);
	jw_obj_close(g);
	jw_key(g, "urls");
	jw_obj_open(g);
	url(g, "location", base, "/v1/orgs", s, NULL);
	url(g, "app", base, "/o", s, NULL);
	if (strcmp(s->visibility, "public") == 0) {
		char buf[1024];
		snprintf(buf, sizeof(buf), "%s/openapi/%s/%s", base, s->org_id, s->slug);
		jw_kstr(g, "published", buf);
	}
	jw_obj_close(g);
	jw_obj_close(g);
}

void openapi_version_to_json(struct jw *g, const char *base, const struct openapi_spec *s,
			     const struct openapi_version *v)
{
	char tail[128];

	jw_obj_open(g);
	jw_kstr(g, "object", "openapi-spec-version");
	jw_kstr(g, "id", v->id);
	jw_kts(g, "createdAt", v->created_at);
	jw_kstr(g, "url", v->url);
	jw_key(g, "urls");
	jw_obj_open(g);
	snprintf(tail, sizeof(tail), "/versions/%s", v->id);
	url(g, "location", base, "/v1/orgs", s, tail);
	jw_obj_close(g);
	jw_obj_close(g);
}

void openapi_content_to_json(struct jw *g, const struct openapi_version *v)
{
	jw_obj_open(g);
	jw_key(g, "filesystem");
	jw_raw(g, v->filesystem && *v->filesystem ? v->filesystem : "{}");
	jw_kstr(g, "url", v->url);
	jw_obj_close(g);
}
