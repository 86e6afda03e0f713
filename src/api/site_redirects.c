/*
 * site_redirects.c - GitBook's site redirects (listSiteRedirects,
 * createSiteRedirect, updateSiteRedirectById, deleteSiteRedirectById,
 * getSiteRedirectBySource): parse, call domain/site_redirects.h, serialize
 * (json/serialize_site_redirects.h). Deletes answer 205 when a redirect was
 * removed and 204 when there was none, as GitBook's document says.
 */
#include "api/api.h"
#include "domain/site_redirects.h"
#include "json/serialize_site_redirects.h"

#include <string.h>

static const char *const dest_kinds[] = { "site-section", "site-space", "site-page", NULL };

/* A destination id: a string of 1..64 bytes when present. */
static int dest_id(const json_t *d, const char *key, const char **out)
{
	const json_t *v = json_object_get(d, key);

	*out = NULL;
	if (!v)
		return 0;
	if (!json_is_string(v) || json_string_length(v) == 0 || json_string_length(v) > 64)
		return err_set(ERR_INVALID, "destination.%s: must be an id (a string of 1 to 64 characters)", key);
	*out = json_string_value(v);
	return 0;
}

/* body.destination into *out (kind NULL when absent and not required). */
static int body_dest(struct req *r, bool required, struct redirect_dest *out)
{
	json_t *d = body_field(r, "destination");
	const char *kind;
	int i, rc;

	memset(out, 0, sizeof(*out));
	if (!d)
		return required ? err_set(ERR_INVALID, "destination: is required") : 0;
	if (!json_is_object(d))
		return err_set(ERR_INVALID, "destination: must be an object");
	kind = json_string_value(json_object_get(d, "kind"));
	if (!kind)
		return err_set(ERR_INVALID, "destination.kind: is required (site-section, site-space or site-page)");
	for (i = 0; dest_kinds[i] && strcmp(dest_kinds[i], kind) != 0; i++)
		;
	if (!dest_kinds[i])
		return err_set(ERR_INVALID, "destination.kind: must be site-section, site-space or site-page");
	out->kind = dest_kinds[i];
	if ((rc = dest_id(d, "siteSectionId", &out->section_id)) || (rc = dest_id(d, "siteSpaceId", &out->site_space_id)) ||
	    (rc = dest_id(d, "pageId", &out->page_id)))
		return rc;
	return 0;
}

static int send_redirect(struct req *r, int status, const struct site_redirect *x)
{
	site_redirect_to_json(resp_json(r, status), x);
	return 0;
}

int api_site_redirects_list(struct req *r)
{
	struct site_redirect *items;
	struct list_req lr;
	struct cursor cur;
	int64_t total;
	char *next;
	struct jw *g;
	int n, rc;

	if ((rc = req_list_total(r, &lr, &cur, NULL, 0, &total)) ||
	    (rc = dom_site_redirects_list(&r->dom, req_param(r, "organizationId"), req_param(r, "siteId"),
					  req_query(r, "search"), &lr, &items, &n, &next)))
		return rc;
	g = resp_list_begin(r);
	for (int i = 0; i < n; i++)
		site_redirect_to_json(g, &items[i]);
	return resp_list_end(r, total, next);
}

int api_site_redirect_create(struct req *r)
{
	struct redirect_dest dest;
	struct site_redirect x;
	const char *source;
	int rc;

	if ((rc = body_string(r, "source", F_REQUIRED, 1, REDIRECT_SOURCE_MAX, &source)) < 0 ||
	    (rc = body_dest(r, true, &dest)) ||
	    (rc = dom_site_redirect_create(&r->dom, req_param(r, "organizationId"), req_param(r, "siteId"), source,
					   &dest, &x)))
		return rc;
	return send_redirect(r, 201, &x);
}

int api_site_redirect_update(struct req *r)
{
	struct redirect_dest dest;
	struct site_redirect x;
	const char *source = NULL;
	int rc;

	if ((rc = body_string(r, "source", 0, 1, REDIRECT_SOURCE_MAX, &source)) < 0 || (rc = body_dest(r, false, &dest)))
		return rc;
	if (!source && !dest.kind)
		return err_set(ERR_INVALID, "body: give source and/or destination");
	if ((rc = dom_site_redirect_update(&r->dom, req_param(r, "organizationId"), req_param(r, "siteId"),
					   req_param(r, "siteRedirectId"), source, &dest, &x)))
		return rc;
	return send_redirect(r, 200, &x);
}

int api_site_redirect_delete(struct req *r)
{
	bool deleted;
	int rc = dom_site_redirect_delete(&r->dom, req_param(r, "organizationId"), req_param(r, "siteId"),
					  req_param(r, "siteRedirectId"), &deleted);

	return rc ? rc : resp_empty(r, deleted ? 205 : 204);
}

int api_site_redirect_by_source(struct req *r)
{
	const char *source = req_query(r, "source");
	struct redirect_target t;
	struct site_redirect x;
	int rc;

	if (!source || !*source)
		return err_set(ERR_INVALID, "source: is required");
	if ((rc = dom_site_redirect_by_source(&r->dom, req_param(r, "organizationId"), req_param(r, "siteId"),
					      req_query(r, "shareKey"), source, &x, &t)))
		return rc;
	site_redirect_resolved_to_json(resp_json(r, 200), server_site_url(r->srv), &x, &t);
	return 0;
}
