/*
 * openapi.h - an organization's OpenAPI specifications (domain/openapi.c):
 * the operations of GitBook's /orgs/{organizationId}/openapi family, the job
 * that processes a spec's source into versions, the published raw document
 * and the API reference a computed page shows.
 *
 * Access (GitBook's): members with a role read the specs (guests: 403,
 * outsiders: 404); creating, replacing a source, changing the visibility and
 * deleting need the create role, the same as Organization.permissions
 * .createOpenAPISpec.
 */
#ifndef DOCSD_DOMAIN_OPENAPI_H
#define DOCSD_DOMAIN_OPENAPI_H

#include <stdbool.h>

#include "domain/domain.h"

/* The job kind that processes a spec (subject: the spec's id). */
#define JOB_KIND_OPENAPI "openapi.process"
/* How often a spec with a URL source is fetched again. */
#define OPENAPI_REFETCH_MS (6LL * 60 * 60 * 1000)
/* Each fetch of a file may take this long, all the files of one run three
 * times as long (DOCSD_TEST_OPENAPI_TIMEOUT_MS lowers it for tests). */
#define OPENAPI_FETCH_TIMEOUT_MS 20000L

/* A source as sent: exactly one of url and text. */
struct openapi_source {
	const char *url;
	const char *text;
};

int dom_openapi_list(struct dom *d, const char *org_id, const struct list_req *lr, struct openapi_spec **items, int *n,
		     char **next);
/* POST: a new spec (409 when the slug is taken), pending, its job queued. */
int dom_openapi_create(struct dom *d, const char *org_id, const char *slug, const struct openapi_source *src,
		       struct openapi_spec *out);
/* PUT: the spec with this slug gets the source (created when absent: *created). */
int dom_openapi_put(struct dom *d, const char *org_id, const char *slug, const struct openapi_source *src,
		    struct openapi_spec *out, bool *created);
int dom_openapi_get(struct dom *d, const char *org_id, const char *slug, struct openapi_spec *out);
/* *removed = false when there was none (still no error: 204 either way). */
int dom_openapi_delete(struct dom *d, const char *org_id, const char *slug, bool *removed);
int dom_openapi_set_visibility(struct dom *d, const char *org_id, const char *slug, const char *visibility,
			       struct openapi_spec *out);
int dom_openapi_versions(struct dom *d, const char *org_id, const char *slug, const struct list_req *lr,
			 struct openapi_spec *spec, struct openapi_version **items, int *n, char **next);
/* A version by id, or the latest one for version_id NULL (404 before the
 * first); its filesystem when with_fs. */
int dom_openapi_version(struct dom *d, const char *org_id, const char *slug, const char *version_id, bool with_fs,
			struct openapi_spec *spec, struct openapi_version *out);

/* The entry file of a public spec's version (the latest for version_id NULL)
 * as JSON text; 404 for a private spec, whoever asks (no token is read). */
int dom_openapi_published(struct dom *d, const char *org_id, const char *slug, const char *version_id,
			  const char **json);

/* The markdown a computed page of org_id with source `computed` (GitBook's
 * ComputedContentSourceRevision JSON) shows: the API reference of its spec's
 * latest version, or a line saying why there is none yet. */
int dom_openapi_page_markdown(struct dom *d, const char *org_id, const char *computed, const char **md);
/* What the published site's cache key needs of org_id's specs: each slug
 * with its latest version, as one string. */
int dom_openapi_versions_key(struct dom *d, const char *org_id, const char **out);
/* GitBook's API block in a page ({% openapi src= path= method= %},
 * {% swagger %}, {% openapi-operation spec= path= method= %}) as markdown:
 * the operation from the latest version of org_id's spec named by slug,
 * or else the spec whose source URL is src; *md is a short note when there
 * is no such spec, version or operation (the page still renders). */
int dom_openapi_block_markdown(struct dom *d, const char *org_id, const char *slug, const char *src, const char *path,
			       const char *method, const char **md);
/* Whether org_id has a spec with this slug (computed pages name one). */
int dom_openapi_exists(struct dom *d, const char *org_id, const char *slug);

/* The work of a job of kind JOB_KIND_OPENAPI (subject: the spec's id), in
 * transactions of its own on run->store (d->tx is NULL): fetch, parse and
 * check the source, then record the outcome; run->result says what it did. */
struct dom_job;
int dom_openapi_job_process(struct dom *d, struct dom_job *run);

#endif
