/*
 * serialize_openapi.h - the JSON of OpenAPI specifications, their versions
 * and a version's content (GitBook's OpenAPISpec, OpenAPISpecVersion,
 * OpenAPISpecContent): the one place each is built.
 */
#ifndef DOCSD_JSON_SERIALIZE_OPENAPI_H
#define DOCSD_JSON_SERIALIZE_OPENAPI_H

#include "json/jsonw.h"
#include "model/model.h"
#include "model/roles.h"
#include "util/arena.h"

/* Where a public spec's latest version is served without a token
 * (urls.published): <base>/openapi/<org>/<slug>. */
char *openapi_published_url(struct arena *a, const char *base, const struct openapi_spec *s);

/* OpenAPISpec; permissions from the caller's organization role (view: a
 * member with a role; edit: create and above, as createOpenAPISpec). */
void openapi_spec_to_json(struct jw *g, const char *base, const struct openapi_spec *s, enum role caller);

/* OpenAPISpecVersion of spec s. */
void openapi_version_to_json(struct jw *g, const char *base, const struct openapi_spec *s,
			     const struct openapi_version *v);

/* OpenAPISpecContent: {filesystem, url} (v->filesystem loaded). */
void openapi_content_to_json(struct jw *g, const struct openapi_version *v);

#endif
