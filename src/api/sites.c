/*
 * sites.c - docs sites: create, list, read, update, delete, publish, and the
 * settings hanging off a site (customization and site spaces' overrides,
 * share links, the adaptive schema, the publishing auth).
 *
 * Each handler parses the request, calls one domain function
 * (domain/sites.h: access and rules) and serializes (json/serialize_sites.h).
 *
 * createSite takes, beside GitBook's type, title, visibility and spaces, the
 * seed's "option to create a new space associated with the site", which
 * GitBook's OpenAPI document (0.143.2) does not name: docsd reads it as the
 * boolean `createSpace` (true: a new space titled as the site is created in
 * the organization and becomes the site's first site space).
 *
 * Deletes: deleteSiteById answers 204 whether or not the site existed (the
 * seed); share links and site-space overrides answer 205 when something was
 * removed and 204 when there was nothing (GitBook's document).
 */
#include "api/api.h"
#include "model/adaptive.h"
#include "json/serialize_sites.h"
#include "model/validate.h"
#include "domain/sites.h"

#include <ctype.h>
#include <microhttpd.h>
#include <string.h>

static const char *const site_types[] = { "basic", "premium", "ultimate", "sponsored", "legacy-basic",
					  "legacy-premium", NULL };
static const char *const agents_contexts[] = { "excluded", "included", NULL };
static const char *const auth_backends[] = { "custom", "integration", NULL };

#define SITE_SPACES_MAX 100 /* spaces in one createSite */

static const char *org_of(struct req *r)
{
	return req_param(r, "organizationId");
}

static const char *site_of(struct req *r)
{
	return req_param(r, "siteId");
}

static int send_site(struct req *r, int status, const struct site *s)
{
	struct jw *g = resp_json(r, status);

	site_to_json(g, api_base(r), server_site_url(r->srv), s);
	return 0;
}

/* rc 1 when the field was present: check it against a NULL-terminated list. */
static int body_enum(struct req *r, const char *field, const char *const *allowed, const char **out)
{
	int rc = body_string(r, field, 0, 1, 64, out);

	if (rc != 1)
		return rc;
	for (int i = 0; allowed[i]; i++)
		if (strcmp(*out, allowed[i]) == 0)
			return 1;
	return err_set(ERR_INVALID, "%s: '%s' is not one of the allowed values", field, *out);
}

/* A body field that must be a JSON object (required). */
static int body_object(struct req *r, const char *field, json_t **out)
{
	*out = body_field(r, field);
	if (!*out)
		return err_set(ERR_INVALID, "%s: is required", field);
	if (!json_is_object(*out))
		return err_set(ERR_INVALID, "%s: must be an object", field);
	return 0;
}

/* ---- the site ---- */

int api_site_create(struct req *r)
{
	struct site_input in;
	const char *loc;
	struct site s;
	int rc, create_space = 0;

	memset(&in, 0, sizeof(in));
	if ((rc = body_enum(r, "type", site_types, &in.type)) < 0 ||
	    (rc = body_string(r, "title", 0, SITE_TITLE_MIN, SITE_TITLE_MAX, &in.title)) < 0 ||
	    (rc = body_enum(r, "visibility", site_visibilities, &in.visibility)) < 0 ||
	    (rc = body_string_array(r, "spaces", 0, SITE_SPACES_MAX, 64, (const char ***)&in.spaces, &in.nspaces)) < 0 ||
	    (rc = body_bool(r, "createSpace", 0, &create_space)) < 0)
		return rc;
	in.create_space = create_space != 0;
	if ((rc = dom_site_create(&r->dom, org_of(r), &in, &s)))
		return rc;
	loc = arena_printf(&r->arena, "%s/v1/orgs/%s/sites/%s", api_base(r), s.org_id, s.id);
	if ((rc = resp_header(r, "Location", loc)))
		return rc;
	return send_site(r, 201, &s);
}

int api_site_get(struct req *r)
{
	struct site s;
	int rc = dom_site_get(&r->dom, org_of(r), site_of(r), ROLE_READ, false, &s);

	return rc ? rc : send_site(r, 200, &s);
}

struct type_args {
	struct site_filter *f;
	int rc;
};

/* One `type` query argument (repeated for several, as GitBook's client
 * sends an array; commas also separate). */
static enum MHD_Result type_arg(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	struct type_args *a = cls;
	const char *s = value;

	(void)kind;
	if (strcmp(key, "type") != 0 || !value || a->rc)
		return MHD_YES;
	while (*s) {
		size_t len = strcspn(s, ","), i;

		for (i = 0; site_types[i]; i++)
			if (strlen(site_types[i]) == len && strncmp(s, site_types[i], len) == 0)
				break;
		if (len > 0 && !site_types[i]) {
			a->rc = err_set(ERR_INVALID, "type: '%.*s' is not a site type", (int)(len > 64 ? 64 : len), s);
			return MHD_NO;
		}
		if (len > 0) {
			int seen = 0;

			for (int j = 0; j < a->f->ntypes; j++)
				seen |= strcmp(a->f->types[j], site_types[i]) == 0;
			if (!seen)
				a->f->types[a->f->ntypes++] = site_types[i];
		}
		s += len + (s[len] == ',');
	}
	return MHD_YES;
}

int api_site_list(struct req *r)
{
	static const char *const bools[] = { "false", "true", NULL };
	struct type_args ta;
	struct site_filter f;
	struct list_req lr;
	int64_t total;
	struct cursor cur;
	struct site *items;
	char *next;
	struct jw *g;
	int n, rc;

	memset(&f, 0, sizeof(f));
	f.space_id = req_query(r, "space");
	f.title = req_query(r, "title");
	ta.f = &f;
	ta.rc = 0;
	if ((rc = req_list_total(r, &lr, &cur, NULL, 0, &total)) || (rc = req_query_enum(r, "published", bools, &f.published)))
		return rc;
	MHD_get_connection_values(r->conn, MHD_GET_ARGUMENT_KIND, type_arg, &ta);
	if (ta.rc)
		return ta.rc;
	if (req_query(r, "type") && f.ntypes == 0)
		return err_set(ERR_INVALID, "type: give at least one site type");
	if ((rc = dom_sites_list(&r->dom, org_of(r), &f, &lr, &items, &n, &next)))
		return rc;
	g = resp_list_begin(r);
	for (int i = 0; i < n; i++)
		site_to_json(g, api_base(r), server_site_url(r->srv), &items[i]);
	return resp_list_end(r, total, next);
}

/* Host with optional subdomains and a top-level label of 2+ letters, then
 * one or more path segments of [A-Za-z0-9_-] (GitBook's SiteProxyOrigin:
 * ^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$). */
static bool proxy_ok(const char *s)
{
	const char *slash = strchr(s, '/'), *last = NULL, *c;
	int labels = 0;

	if (!slash)
		return false;
	for (c = s; c < slash; c++) {
		const char *start = c;

		while (c < slash && (isalnum((unsigned char)*c) || *c == '_' || *c == '-'))
			c++;
		if (c == start || (c < slash && *c != '.'))
			return false;
		last = start;
		labels++;
		if (c == slash)
			break;
	}
	if (labels < 2 || slash - last < 2)
		return false;
	for (c = last; c < slash; c++)
		if (!isalpha((unsigned char)*c))
			return false;
	for (c = slash; *c;) {
		const char *start = ++c; /* past '/' */

		while (isalnum((unsigned char)*c) || *c == '_' || *c == '-')
			c++;
		if (c == start || (*c && *c != '/'))
			return false;
	}
	return true;
}

static int body_site_update(struct req *r, struct site_update *in)
{
	json_t *adaptive, *enabled;
	int rc;

	memset(in, 0, sizeof(*in));
	if ((rc = body_string(r, "title", 0, SITE_TITLE_MIN, SITE_TITLE_MAX, &in->title)) < 0 ||
	    (rc = body_enum(r, "visibility", site_visibilities, &in->visibility)) < 0 ||
	    (rc = body_string(r, "basename", 0, 1, 100, &in->basename)) < 0 ||
	    (rc = body_enum(r, "agentsContext", agents_contexts, &in->agents_context)) < 0 ||
	    (rc = body_string(r, "defaultSiteSpace", 0, 1, 64, &in->default_site_space)) < 0 ||
	    (rc = body_string(r, "defaultSiteSection", 0, 1, 64, &in->default_site_section)) < 0 ||
	    (rc = body_string(r, "proxy", F_NULLABLE, 1, 512, &in->proxy)) < 0)
		return rc;
	in->has_proxy = rc == 1;
	/* hostname: not in GitBook's PATCH body (GitBook sets it through its
	 * custom-domain flow); docsd takes it here, so a site can be served at
	 * "/" of its own host name. */
	if ((rc = body_string(r, "hostname", F_NULLABLE, 1, 253, &in->hostname)) < 0)
		return rc;
	in->has_hostname = rc == 1;
	if ((rc = dom_site_hostname_check(in->hostname)) || (rc = dom_site_basename_check(in->basename)))
		return rc;
	if (in->proxy && !proxy_ok(in->proxy))
		return err_set(ERR_INVALID,
			       "proxy: must be a host and a path, such as example.com/docs (got '%.100s')", in->proxy);
	if ((adaptive = body_field(r, "adaptiveContent"))) {
		if (!json_is_object(adaptive) || !json_is_boolean(enabled = json_object_get(adaptive, "enabled")))
			return err_set(ERR_INVALID, "adaptiveContent: must be {enabled: boolean}");
		in->has_adaptive = true;
		in->adaptive_enabled = json_is_true(enabled);
	}
	return 0;
}

int api_site_update(struct req *r)
{
	struct site_update in;
	struct site s;
	int rc;

	if ((rc = body_site_update(r, &in)) || (rc = dom_site_update(&r->dom, org_of(r), site_of(r), &in, &s)))
		return rc;
	return send_site(r, 200, &s);
}

int api_site_delete(struct req *r)
{
	int rc = dom_site_delete(&r->dom, org_of(r), site_of(r));

	/* also 204 when it did not exist (the seed) */
	return rc ? rc : resp_empty(r, 204);
}

int api_site_publish(struct req *r)
{
	struct site s;
	int rc = dom_site_set_published(&r->dom, org_of(r), site_of(r), true, &s);

	return rc ? rc : send_site(r, 200, &s);
}

int api_site_unpublish(struct req *r)
{
	struct site s;
	int rc = dom_site_set_published(&r->dom, org_of(r), site_of(r), false, &s);

	return rc ? rc : send_site(r, 200, &s);
}

/* ---- customization ---- */

static int send_customization(struct req *r, const char *site, const struct site_space *ss)
{
	struct jw *g = resp_json(r, 200);

	return ss ? site_space_customization_to_json(g, site, ss->customization) : site_customization_to_json(g, site);
}

/* `unmasked` (GitBook: deprecated, boolean): docsd masks nothing in a
 * customization, so both values answer the same; anything else is a 400. */
static int query_unmasked(struct req *r)
{
	static const char *const bools[] = { "false", "true", NULL };
	int v;

	return req_query_enum(r, "unmasked", bools, &v);
}

int api_site_customization_get(struct req *r)
{
	struct site s;
	int rc;

	if ((rc = query_unmasked(r)) || (rc = dom_site_get(&r->dom, org_of(r), site_of(r), ROLE_READ, false, &s)))
		return rc;
	return send_customization(r, s.customization, NULL);
}

int api_site_customization_put(struct req *r)
{
	struct site s;
	int rc = dom_site_customization_set(&r->dom, org_of(r), site_of(r), r->json, &s);

	return rc ? rc : send_customization(r, s.customization, NULL);
}

int api_site_space_customization_get(struct req *r)
{
	struct site_space ss;
	struct site s;
	int rc;

	if ((rc = query_unmasked(r)) ||
	    (rc = dom_site_space_customization_get(&r->dom, org_of(r), site_of(r), req_param(r, "siteSpaceId"), &s, &ss)))
		return rc;
	return send_customization(r, s.customization, &ss);
}

int api_site_space_customization_patch(struct req *r)
{
	struct site_space ss;
	struct site s;
	int rc = dom_site_space_customization_override(&r->dom, org_of(r), site_of(r), req_param(r, "siteSpaceId"),
						       r->json, &s, &ss);

	return rc ? rc : send_customization(r, s.customization, &ss);
}

int api_site_space_customization_delete(struct req *r)
{
	bool deleted;
	int rc = dom_site_space_customization_delete(&r->dom, org_of(r), site_of(r), req_param(r, "siteSpaceId"),
						     &deleted);

	/* GitBook: 205 when the override was removed, 204 when there was none. */
	return rc ? rc : resp_empty(r, deleted ? 205 : 204);
}

/* ---- share links ---- */

static int send_share_link(struct req *r, int status, const struct site *s, const struct site_share_link *l)
{
	struct jw *g = resp_json(r, status);

	site_share_link_to_json(g, server_site_url(r->srv), s, l);
	return 0;
}

int api_site_share_links_list(struct req *r)
{
	struct site_share_link *items;
	struct list_req lr;
	int64_t total;
	struct cursor cur;
	struct site s;
	char *next;
	struct jw *g;
	int n, rc;

	if ((rc = req_list_total(r, &lr, &cur, NULL, 0, &total)) ||
	    (rc = dom_site_share_links_list(&r->dom, org_of(r), site_of(r), &lr, &s, &items, &n, &next)))
		return rc;
	g = resp_list_begin(r);
	for (int i = 0; i < n; i++)
		site_share_link_to_json(g, server_site_url(r->srv), &s, &items[i]);
	return resp_list_end(r, total, next);
}

int api_site_share_link_create(struct req *r)
{
	struct site_share_link l;
	const char *name;
	struct site s;
	int rc;

	if ((rc = body_string(r, "name", F_REQUIRED, 0, 50, &name)) < 0 ||
	    (rc = dom_site_share_link_create(&r->dom, org_of(r), site_of(r), name, &s, &l)))
		return rc;
	return send_share_link(r, 201, &s, &l);
}

int api_site_share_link_update(struct req *r)
{
	struct site_share_link l;
	const char *name;
	struct site s;
	int rc, active = 0, has_active;

	if ((rc = body_string(r, "name", 0, 0, 50, &name)) < 0 || (has_active = body_bool(r, "active", 0, &active)) < 0)
		return rc < 0 ? rc : has_active;
	if (!name && !has_active)
		return err_set(ERR_INVALID, "body: give name and/or active");
	if ((rc = dom_site_share_link_update(&r->dom, org_of(r), site_of(r), req_param(r, "shareLinkId"), name,
					     has_active == 1, active != 0, &s, &l)))
		return rc;
	return send_share_link(r, 200, &s, &l);
}

int api_site_share_link_delete(struct req *r)
{
	bool deleted;
	int rc = dom_site_share_link_delete(&r->dom, org_of(r), site_of(r), req_param(r, "shareLinkId"), &deleted);

	/* GitBook: 205 when the link was deleted, 204 when it did not exist. */
	return rc ? rc : resp_empty(r, deleted ? 205 : 204);
}

/* ---- adaptive schema ---- */

static int send_adaptive_schema(struct req *r, const struct site *s)
{
	struct jw *g = resp_json(r, 200);

	site_adaptive_schema_to_json(g, s);
	return 0;
}

int api_site_adaptive_schema_get(struct req *r)
{
	struct site s;
	int rc = dom_site_adaptive_schema_get(&r->dom, org_of(r), site_of(r), &s);

	return rc ? rc : send_adaptive_schema(r, &s);
}

int api_site_adaptive_schema_put(struct req *r)
{
	json_t *schema;
	struct site s;
	int rc;

	if ((rc = body_object(r, "jsonSchema", &schema)) ||
	    (rc = dom_site_adaptive_schema_set(&r->dom, org_of(r), site_of(r), schema, &s)))
		return rc;
	return send_adaptive_schema(r, &s);
}

int api_site_adaptive_template_conditions(struct req *r)
{
	struct template_condition *items;
	struct jw *g;
	int n, rc;

	if ((rc = dom_site_adaptive_template_conditions(&r->dom, org_of(r), site_of(r), &items, &n)))
		return rc;
	g = resp_json(r, 200);
	site_template_conditions_to_json(g, items, n);
	return 0;
}

/* ---- publishing auth ---- */

static int send_auth(struct req *r, const struct site_publishing_auth *a)
{
	struct jw *g = resp_json(r, 200);

	site_publishing_auth_to_json(g, a->backend, a->fallback_url, a->private_key);
	return 0;
}

int api_site_publishing_auth_get(struct req *r)
{
	struct site_publishing_auth a;
	int rc = dom_site_publishing_auth_get(&r->dom, org_of(r), site_of(r), &a);

	return rc ? rc : send_auth(r, &a);
}

/* An absolute http(s) URL. */
static bool http_url(const char *s)
{
	const char *host = strncmp(s, "https://", 8) == 0 ? s + 8 : strncmp(s, "http://", 7) == 0 ? s + 7 : NULL;

	if (!host || !*host || *host == '/')
		return false;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7f)
			return false;
	return true;
}

int api_site_publishing_auth_update(struct req *r)
{
	struct site_publishing_auth a;
	const char *backend, *fallback;
	int rc, has_fallback;

	if ((rc = body_enum(r, "backend", auth_backends, &backend)) < 0)
		return rc;
	if (rc == 0)
		return err_set(ERR_INVALID, "backend: is required (custom or integration)");
	if ((has_fallback = body_string(r, "fallbackURL", F_NULLABLE, 1, 2048, &fallback)) < 0)
		return has_fallback;
	if (fallback && !http_url(fallback))
		return err_set(ERR_INVALID, "fallbackURL: must be an http or https URL");
	if ((rc = dom_site_publishing_auth_update(&r->dom, org_of(r), site_of(r), backend, has_fallback == 1, fallback,
						  &a)))
		return rc;
	return send_auth(r, &a);
}

int api_site_publishing_auth_regenerate(struct req *r)
{
	struct site_publishing_auth a;
	int rc = dom_site_publishing_auth_regenerate(&r->dom, org_of(r), site_of(r), &a);

	return rc ? rc : send_auth(r, &a);
}
