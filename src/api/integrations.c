/*
 * integrations.c - GitBook's integrations: the seed's twelve operations
 * (list, get, publish, unpublish, installations, events, space and site
 * installation lists, development mode) and the installation operations
 * GitBook's runtime and users need beyond them (domain/integrations.h says
 * who may do what; json/serialize_integrations.h writes the objects).
 *
 * Statuses: the seed's where it names one (publish 200, install on an
 * organization 200); GitBook's document where the seed only says "empty
 * response" (unpublish and uninstall 205 when removed / 204 when there was
 * nothing, PUT /dev 204, DELETE /dev 205); installing on a space or a site
 * 201. Publishing checks every field against GitBook's schema
 * (PublishIntegration) and answers 400 naming the field; the script and the
 * secrets are stored (secrets sealed) and never written back.
 */
#include "api/api.h"
#include "domain/integration_events.h"
#include "domain/integrations.h"
#include "json/serialize_integrations.h"
#include "util/base64.h"

#include <string.h>

static const char *const SCOPES[] = { "space:content:read", "space:content:write", "space:metadata:read",
				       "space:metadata:write", "space:git:sync", "page:feedback:read",
				       "site:metadata:read", "site:views:read", "site:script:inject",
				       "site:script:cookies", "site:visitor:auth", "site:adaptive:read",
				       "site:adaptive:write", "openapi:read", "openapi:write", "conversations:ingest",
				       NULL };
static const char *const CATEGORIES[] = { "analytics", "collaboration", "content", "gitsync", "marketing",
					   "visitor-auth", "other", NULL };
static const char *const TARGETS[] = { "all", "site", "space", "organization", NULL };
static const char *const VISIBILITIES[] = { "public", "private", "unlisted", NULL };
static const char *const RUNTIMES[] = { "v1", "v2", NULL };
static const char *const SELECTIONS[] = { "all", "selected", NULL };

static const char *name_of(struct req *r)
{
	return req_param(r, "integrationName");
}

static bool one_of(const char *s, const char *const *allowed)
{
	for (; *allowed; allowed++)
		if (strcmp(s, *allowed) == 0)
			return true;
	return false;
}

static const char *compact(struct req *r, json_t *v)
{
	char *s = json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
	const char *out = arena_strdup(&r->arena, s ? s : "null");

	free(s);
	return out;
}

/* integrationName: GitBook's ^[a-zA-Z0-9-_.]+$, at most 100 characters;
 * and not "." or "..", which the pattern allows but which are path
 * segments: every URL of the integration would name its parent. */
static int check_name(struct req *r)
{
	const char *n = name_of(r);
	size_t len = strlen(n);

	if (len == 0 || len > 100 || strspn(n, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") != len)
		return err_set(ERR_INVALID, "integrationName: must match ^[a-zA-Z0-9-_.]+$ (at most 100 characters)");
	if (strcmp(n, ".") == 0 || strcmp(n, "..") == 0)
		return err_set(ERR_INVALID, "integrationName: '.' and '..' are not names");
	return 0;
}

/* An optional enum string field. */
static int enum_field(struct req *r, const char *field, const char *const *allowed, const char **out)
{
	json_t *v = body_field(r, field);

	*out = NULL;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v) || !one_of(json_string_value(v), allowed))
		return err_set(ERR_INVALID, "%s: must be one of GitBook's values (%s, ...)", field, allowed[0]);
	*out = json_string_value(v);
	return 0;
}

/* An array of enum strings, as compact JSON text. */
static int enum_array(struct req *r, const char *field, const char *const *allowed, bool required, const char **out)
{
	json_t *v = body_field(r, field), *e;
	size_t i;

	*out = NULL;
	if (!v || json_is_null(v))
		return required ? err_set(ERR_INVALID, "%s: is required", field) : 0;
	if (!json_is_array(v) || json_array_size(v) > 64)
		return err_set(ERR_INVALID, "%s: must be an array of at most 64 values", field);
	json_array_foreach(v, i, e) if (!json_is_string(e) || !one_of(json_string_value(e), allowed)) return err_set(
		ERR_INVALID, "%s[%zu]: must be one of GitBook's values (%s, ...)", field, i, allowed[0]);
	*out = compact(r, v);
	return 0;
}

/* A JSON value of a type (array / object), as compact text. */
static int json_field(struct req *r, const char *field, bool array, size_t max_items, const char **out)
{
	json_t *v = body_field(r, field);

	*out = NULL;
	if (!v || json_is_null(v))
		return 0;
	if (array ? !json_is_array(v) : !json_is_object(v))
		return err_set(ERR_INVALID, "%s: must be an %s", field, array ? "array" : "object");
	if (array && max_items && json_array_size(v) > max_items)
		return err_set(ERR_INVALID, "%s: at most %zu items", field, max_items);
	*out = compact(r, v);
	return 0;
}

/* Base64 text that decodes to at least one byte (whitespace or padding
 * alone would be a blank image). */
static bool is_base64(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=\r\n ") == n &&
	       strcspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") < n;
}

static int publish_input(struct req *r, struct integration_input *in)
{
	json_t *v, *e;
	size_t i;
	int rc;

	memset(in, 0, sizeof(*in));
	if ((rc = check_name(r)) ||
	    (rc = body_string(r, "organization", F_REQUIRED, 1, 256, &in->organization)) < 0 ||
	    (rc = body_string(r, "title", F_REQUIRED, 2, 30, &in->title)) < 0 ||
	    (rc = body_string(r, "description", F_REQUIRED, 0, 100, &in->description)) < 0 ||
	    (rc = body_string(r, "summary", 0, 0, 2048, &in->summary)) < 0 ||
	    (rc = body_string(r, "script", F_REQUIRED, 0, (long)r->srv->cfg.max_body, &in->script)) < 0 ||
	    (rc = enum_field(r, "runtime", RUNTIMES, &in->runtime)) ||
	    (rc = enum_field(r, "visibility", VISIBILITIES, &in->visibility)) ||
	    (rc = enum_field(r, "target", TARGETS, &in->target)) ||
	    (rc = enum_array(r, "scopes", SCOPES, true, &in->scopes)) ||
	    (rc = enum_array(r, "categories", CATEGORIES, false, &in->categories)) ||
	    (rc = json_field(r, "blocks", true, 0, &in->blocks)) ||
	    (rc = json_field(r, "contentSources", true, 0, &in->content_sources)) ||
	    (rc = json_field(r, "externalLinks", true, 5, &in->external_links)) ||
	    (rc = json_field(r, "configurations", false, 0, &in->configurations)) ||
	    (rc = json_field(r, "previewImages", true, 3, &in->preview_images)) ||
	    (rc = json_field(r, "secrets", false, 0, &in->secrets)))
		return rc;
	if ((v = body_field(r, "externalLinks")))
		json_array_foreach(v, i, e) if (!json_is_string(json_object_get(e, "url")) ||
						!json_is_string(json_object_get(e, "label"))) return err_set(
			ERR_INVALID, "externalLinks[%zu]: must be {url, label}", i);
	if ((v = body_field(r, "previewImages")))
		json_array_foreach(v, i, e) if (!json_is_string(e) || !is_base64(json_string_value(e))) return err_set(
			ERR_INVALID, "previewImages[%zu]: must be base64 image content", i);
	if ((v = body_field(r, "icon")) && !json_is_null(v)) {
		if (!json_is_string(v) || !is_base64(json_string_value(v)))
			return err_set(ERR_INVALID, "icon: must be base64 image content");
		in->icon = json_string_value(v);
	}
	if ((v = body_field(r, "secrets"))) {
		const char *k;
		json_t *s;
		json_object_foreach(v, k, s) if (!json_is_string(s)) return err_set(ERR_INVALID,
										  "secrets.%s: must be a string", k);
	}
	if ((v = body_field(r, "configurations"))) {
		const char *k;
		json_t *c;
		json_object_foreach(v, k, c) if (strcmp(k, "account") != 0 && strcmp(k, "space") != 0 &&
						 strcmp(k, "site") != 0) return err_set(
			ERR_INVALID, "configurations.%s: only account, space and site are configurations", k);
	}
	if ((v = body_field(r, "contentSecurityPolicy")) && !json_is_null(v)) {
		if (!json_is_string(v) && !json_is_object(v))
			return err_set(ERR_INVALID, "contentSecurityPolicy: must be a string or an object of directives");
		in->csp = compact(r, v);
	}
	return 0;
}

static int send_integration(struct req *r, const struct integration_view *v)
{
	integration_to_json(resp_json(r, 200), api_base(r), v);
	return 0;
}

int api_integration_publish(struct req *r)
{
	struct integration_input in;
	struct integration_view v;
	int rc;

	if ((rc = publish_input(r, &in)) || (rc = dom_integration_publish(&r->dom, name_of(r), &in, &v)))
		return rc;
	return send_integration(r, &v);
}

int api_integration_get(struct req *r)
{
	struct integration_view v;
	int rc = check_name(r) ? err_set(ERR_NOT_FOUND, "integration not found")
			       : dom_integration_get(&r->dom, name_of(r), &v);

	return rc ? rc : send_integration(r, &v);
}

/* A boolean query parameter: -1 absent, 0 / 1. */
static int query_bool(struct req *r, const char *name, int *out)
{
	static const char *const bools[] = { "false", "true", NULL };

	return req_query_enum(r, name, bools, out);
}

static int list_integrations(struct req *r, const char *org_id)
{
	struct integration_filter f = { .org_id = org_id };
	struct list_req lr;
	struct cursor cur;
	struct integration_view *items;
	int64_t total;
	char *next;
	int n, i, rc;

	if ((rc = req_list_total(r, &lr, &cur, NULL, 0, &total)) || (rc = query_bool(r, "blocks", &f.blocks)) ||
	    (rc = query_bool(r, "contentSources", &f.content_sources)) ||
	    (rc = req_query_enum(r, "category", CATEGORIES, &i)))
		return rc;
	f.category = i >= 0 ? CATEGORIES[i] : NULL;
	if ((rc = req_query_enum(r, "scope", SCOPES, &i)))
		return rc;
	f.scope = i >= 0 ? SCOPES[i] : NULL;
	if ((rc = req_query_enum(r, "target", TARGETS, &i)))
		return rc;
	f.target = i >= 0 ? TARGETS[i] : NULL;
	f.search = req_query(r, "search");
	f.owner = req_query(r, "owner");
	f.block_domain = req_query(r, "blockDomain");
	if (f.block_domain) {
		size_t len = strlen(f.block_domain);
		if (len == 0 || len > 100 ||
		    strspn(f.block_domain, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") != len)
			return err_set(ERR_INVALID, "blockDomain: must match ^[a-zA-Z0-9-_.]+$ (at most 100 characters)");
	}
	if ((rc = dom_integrations_list(&r->dom, &f, &lr, &items, &n, &next)))
		return rc;
	struct jw *g = resp_list_begin(r);
	for (i = 0; i < n; i++)
		integration_to_json(g, api_base(r), &items[i]);
	return resp_list_end(r, total, next);
}

int api_integration_list(struct req *r)
{
	return list_integrations(r, NULL);
}

int api_org_integration_list(struct req *r)
{
	return list_integrations(r, req_param(r, "organizationId"));
}

int api_integration_delete(struct req *r)
{
	bool removed = false;
	int rc = check_name(r) ? 0 : dom_integration_delete(&r->dom, name_of(r), &removed);

	return rc ? rc : resp_empty(r, removed ? 205 : 204);
}

/* The icon and preview images, decoded from the base64 publishing sent:
 * served as images that cannot run script. */
static int send_image(struct req *r, const char *b64)
{
	size_t n = strlen(b64);
	unsigned char *buf = arena_alloc(&r->arena, base64_decoded_max(n) + 1);
	long len = base64_decode(buf, b64, n);
	const char *type = "application/octet-stream";

	/* Nothing to show is no image: 404, never an empty 200. */
	if (len <= 0)
		return err_set(ERR_NOT_FOUND, "image not found");
	if (len >= 8 && memcmp(buf, "\x89PNG", 4) == 0)
		type = "image/png";
	else if (len >= 3 && memcmp(buf, "\xff\xd8\xff", 3) == 0)
		type = "image/jpeg";
	else if (len >= 6 && memcmp(buf, "GIF8", 4) == 0)
		type = "image/gif";
	else if (len >= 12 && memcmp(buf, "RIFF", 4) == 0 && memcmp(buf + 8, "WEBP", 4) == 0)
		type = "image/webp";
	resp_header(r, "X-Content-Type-Options", "nosniff");
	resp_header(r, "Content-Security-Policy", "default-src 'none'; sandbox");
	resp_header(r, "Cache-Control", "public, max-age=300");
	return resp_bytes(r, 200, type, buf, (size_t)len);
}

int api_integration_icon(struct req *r)
{
	struct integration_view v;
	int rc = check_name(r) ? err_set(ERR_NOT_FOUND, "integration not found")
			       : dom_integration_get(&r->dom, name_of(r), &v);

	if (rc)
		return rc;
	if (!v.it.icon || !*v.it.icon)
		return err_set(ERR_NOT_FOUND, "the integration has no icon");
	return send_image(r, v.it.icon);
}

int api_integration_preview(struct req *r)
{
	struct integration_view v;
	json_t *a;
	uint64_t idx;
	int rc = check_name(r) ? err_set(ERR_NOT_FOUND, "integration not found")
			       : dom_integration_get(&r->dom, name_of(r), &v);

	if (rc)
		return rc;
	if (parse_decimal(req_param(r, "n"), 2, &idx))
		return err_set(ERR_NOT_FOUND, "preview image not found");
	a = json_loads(v.it.preview_images, 0, NULL);
	const char *b64 = json_string_value(json_array_get(a, (size_t)idx));
	const char *copy = arena_strdup(&r->arena, b64);
	json_decref(a);
	if (!copy)
		return err_set(ERR_NOT_FOUND, "preview image not found");
	return send_image(r, copy);
}

int api_integration_dev_put(struct req *r)
{
	const char *url;
	int all = 0, rc;

	if ((rc = body_string(r, "tunnelUrl", F_REQUIRED, 1, 256, &url)) < 0 || (rc = body_bool(r, "all", 0, &all)) < 0)
		return rc;
	if (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0)
		return err_set(ERR_INVALID, "tunnelUrl: must be an http or https URL");
	if ((rc = dom_integration_dev_set(&r->dom, name_of(r), url, all == 1)))
		return rc;
	return resp_empty(r, 204);
}

int api_integration_dev_delete(struct req *r)
{
	int rc = dom_integration_dev_clear(&r->dom, name_of(r));

	return rc ? rc : resp_empty(r, 205);
}

int api_integration_task(struct req *r)
{
	json_t *task = body_field(r, "task"), *sched = body_field(r, "schedule");
	long schedule = 0;
	int rc;

	if (!json_is_object(task))
		return err_set(ERR_INVALID, "task: is required (an object)");
	if (sched && !json_is_null(sched)) {
		if (!json_is_number(sched) || json_number_value(sched) < 0 || json_number_value(sched) > 86400)
			return err_set(ERR_INVALID, "schedule: must be a number of seconds from 0 to 86400");
		schedule = (long)json_number_value(sched);
	}
	if ((rc = dom_integration_task(&r->dom, name_of(r), compact(r, task), schedule)))
		return rc;
	return resp_empty(r, 204);
}

/* ---- installations ---- */

static int send_installation(struct req *r, int status, const struct integration_installation *in)
{
	installation_to_json(resp_json(r, status), api_base(r), name_of(r), in);
	return 0;
}

int api_installation_create(struct req *r)
{
	struct integration_installation in;
	const char *org;
	int rc;

	if ((rc = body_string(r, "organization", F_REQUIRED, 1, 256, &org)) < 0 ||
	    (rc = dom_installation_create(&r->dom, name_of(r), org, &in)))
		return rc;
	return send_installation(r, 200, &in);
}

int api_installation_get(struct req *r)
{
	struct integration_installation in;
	int rc = dom_installation_get(&r->dom, name_of(r), req_param(r, "installationId"), &in);

	return rc ? rc : send_installation(r, 200, &in);
}

/* externalIds (at most 5 strings) and configuration (an object). */
static int update_input(struct req *r, struct installation_update *u)
{
	json_t *v = body_field(r, "externalIds"), *e;
	size_t i;
	int rc;

	memset(u, 0, sizeof(*u));
	if (v) {
		if (!json_is_array(v) || json_array_size(v) > 5)
			return err_set(ERR_INVALID, "externalIds: must be an array of at most 5 strings");
		json_array_foreach(v, i, e) if (!json_is_string(e) || json_string_length(e) > 256) return err_set(
			ERR_INVALID, "externalIds[%zu]: must be a string of at most 256 characters", i);
		u->external_ids = compact(r, v);
	}
	if ((v = body_field(r, "configuration"))) {
		if (!json_is_object(v))
			return err_set(ERR_INVALID, "configuration: must be an object");
		u->configuration = compact(r, v);
	}
	if ((rc = enum_field(r, "space_selection", SELECTIONS, &u->space_selection)) ||
	    (rc = enum_field(r, "site_selection", SELECTIONS, &u->site_selection)))
		return rc;
	return 0;
}

int api_installation_update(struct req *r)
{
	struct installation_update u;
	struct integration_installation in;
	int rc;

	if ((rc = update_input(r, &u)) ||
	    (rc = dom_installation_update(&r->dom, name_of(r), req_param(r, "installationId"), &u, &in)))
		return rc;
	return send_installation(r, 200, &in);
}

int api_installation_delete(struct req *r)
{
	bool removed;
	int rc = dom_installation_delete(&r->dom, name_of(r), req_param(r, "installationId"), &removed);

	return rc ? rc : resp_empty(r, removed ? 205 : 204);
}

int api_installation_list(struct req *r)
{
	struct list_req lr;
	struct cursor cur;
	struct integration_installation *items;
	int64_t total;
	char *next;
	int n, rc;

	if ((rc = req_list_total(r, &lr, &cur, NULL, 0, &total)) ||
	    (rc = dom_installations_list(&r->dom, name_of(r), NULL, req_query(r, "externalId"), &lr, &items, &n,
					 &next)))
		return rc;
	struct jw *g = resp_list_begin(r);
	for (int i = 0; i < n; i++)
		installation_to_json(g, api_base(r), name_of(r), &items[i]);
	return resp_list_end(r, total, next);
}

/* listOrganizationInstallations: items {integration, installation}. */
int api_org_installation_list(struct req *r)
{
	struct list_req lr;
	struct cursor cur;
	struct org_installation *items;
	int64_t total;
	char *next;
	int n, rc;

	if ((rc = req_list_total(r, &lr, &cur, NULL, 0, &total)) ||
	    (rc = dom_org_installations_list(&r->dom, req_param(r, "organizationId"), &lr, &items, &n, &next)))
		return rc;
	struct jw *g = resp_list_begin(r);
	for (int i = 0; i < n; i++) {
		jw_obj_open(g);
		jw_key(g, "integration");
		integration_to_json(g, api_base(r), &items[i].integration);
		jw_key(g, "installation");
		installation_to_json(g, api_base(r), items[i].integration.it.name, &items[i].installation);
		jw_obj_close(g);
	}
	return resp_list_end(r, total, next);
}

int api_space_integration_list(struct req *r)
{
	struct integration_view *items;
	int n, rc = dom_space_integrations(&r->dom, req_param(r, "spaceId"), &items, &n);

	if (rc)
		return rc;
	struct jw *g = resp_list_begin(r);
	for (int i = 0; i < n; i++)
		integration_to_json(g, api_base(r), &items[i]);
	return resp_list_end(r, n, NULL);
}

int api_installation_token(struct req *r)
{
	const char *token;
	int rc = dom_installation_token(&r->dom, name_of(r), req_param(r, "installationId"), &token);
	struct jw *g;

	if (rc)
		return rc;
	g = resp_json(r, 200);
	jw_obj_open(g);
	jw_kstr(g, "token", token);
	jw_obj_close(g);
	return 0;
}

/* ---- space / site installations ---- */

static const char *kind_of(struct req *r)
{
	return strstr(r->route->path, "/spaces") ? "space" : "site";
}

static const char *target_of(struct req *r)
{
	const char *s = req_param(r, "spaceId");

	return s ? s : req_param(r, "siteId");
}

static int send_target(struct req *r, int status, const struct target_view *tv)
{
	target_to_json(resp_json(r, status), api_base(r), tv);
	return 0;
}

int api_target_install(struct req *r)
{
	const char *kind = kind_of(r), *id;
	struct target_view tv;
	int rc;

	if ((rc = body_string(r, strcmp(kind, "space") == 0 ? "space" : "siteId", F_REQUIRED, 1, 64, &id)) < 0 ||
	    (rc = dom_target_install(&r->dom, name_of(r), req_param(r, "installationId"), kind, id, &tv)))
		return rc;
	return send_target(r, 201, &tv);
}

int api_target_get(struct req *r)
{
	struct target_view tv;
	int rc = dom_target_get(&r->dom, name_of(r), req_param(r, "installationId"), kind_of(r), target_of(r), &tv);

	return rc ? rc : send_target(r, 200, &tv);
}

int api_target_update(struct req *r)
{
	struct installation_update u;
	struct target_view tv;
	int rc;

	if ((rc = update_input(r, &u)) ||
	    (rc = dom_target_update(&r->dom, name_of(r), req_param(r, "installationId"), kind_of(r), target_of(r), &u,
				    &tv)))
		return rc;
	return send_target(r, 200, &tv);
}

int api_target_uninstall(struct req *r)
{
	bool removed;
	int rc = dom_target_uninstall(&r->dom, name_of(r), req_param(r, "installationId"), kind_of(r), target_of(r),
				      &removed);

	return rc ? rc : resp_empty(r, removed ? 205 : 204);
}

/* listIntegrationSpaceInstallations / ...Sites (every installation) and
 * listIntegrationInstallationSpaces / ...Sites (one). `extended`: the full
 * Space instead of its id. */
int api_target_list(struct req *r)
{
	struct list_req lr;
	struct cursor cur;
	struct target_view *items;
	int64_t total;
	char *next;
	int n, extended = -1, rc;
	const char *kind = strstr(r->route->path, "/spaces") ? "space" : "site";

	if ((rc = req_list_total(r, &lr, &cur, NULL, 0, &total)) || (rc = query_bool(r, "extended", &extended)) ||
	    (rc = dom_targets_list(&r->dom, name_of(r), req_param(r, "installationId"), kind, req_query(r, "externalId"),
				   &lr, &items, &n, &next)))
		return rc;
	struct jw *g = resp_list_begin(r);
	for (int i = 0; i < n; i++) {
		if (extended == 1 && strcmp(kind, "space") == 0 &&
		    dom_space_get(&r->dom, items[i].t.target_id, ROLE_READ, &items[i].space) == 0)
			items[i].expanded = 1;
		target_to_json(g, api_base(r), &items[i]);
	}
	return resp_list_end(r, total, next);
}

/* ---- events ---- */

int api_event_list(struct req *r)
{
	struct list_req lr;
	struct cursor cur;
	struct integration_event *items;
	int64_t total;
	char *next;
	int n, rc;

	/* Newest first: GitBook's CLI (`gitbook tail`) reads limit=2 and takes the newest. */
	if ((rc = req_list_total(r, &lr, &cur, NULL, 1, &total)) ||
	    (rc = dom_events_list(&r->dom, name_of(r), &lr, &items, &n, &next)))
		return rc;
	struct jw *g = resp_list_begin(r);
	for (int i = 0; i < n; i++)
		event_to_json(g, &items[i]);
	return resp_list_end(r, total, next);
}

int api_event_get(struct req *r)
{
	struct event_view ev;
	int rc = dom_event_get(&r->dom, name_of(r), req_param(r, "eventId"), &ev);

	if (rc)
		return rc;
	event_trace_to_json(resp_json(r, 200), &ev);
	return 0;
}

/* listSiteIntegrationScripts: a bare array of SiteIntegrationScript. */
int api_site_integration_scripts(struct req *r)
{
	struct site_script *s;
	int n, rc = dom_site_integration_scripts_get(&r->dom, req_param(r, "organizationId"), req_param(r, "siteId"), &s,
						     &n);

	if (rc)
		return rc;
	site_scripts_to_json(resp_json(r, 200), s, n);
	return 0;
}

/* The script a SiteIntegrationScript names, loaded by published pages: the
 * integration's answer to a fetch_published_script event, delivered now
 * (domain/integration_events.h). No token (visitors load it) and no
 * transaction held while the integration answers (ROUTE_NO_TX: the domain
 * opens its own). */
/* The delivery to the integration's worker (up to --integration-timeout) is
 * the route's prefetch step: it runs on the fetch pool, never on an HTTP
 * worker thread, so visitors' page loads cannot tie those up. */
int api_integration_site_script_prefetch(struct req *r)
{
	struct delivery_answer *ans = arena_alloc(&r->arena, sizeof(*ans));
	int rc = dom_site_script(r->srv, r->srv->store, &r->arena, name_of(r), req_param(r, "installationId"),
				 req_param(r, "siteId"), ans);

	if (rc)
		return rc;
	r->site_script = ans;
	return 0;
}

int api_integration_site_script(struct req *r)
{
	const struct delivery_answer *a = r->site_script;

	if (!a)
		return err_set(ERR_INTERNAL, "the site script was not fetched before its answer");
	struct delivery_answer ans = *a;
	if (ans.status < 200 || ans.status > 299)
		return err_set(ERR_UNAVAILABLE, "the integration did not answer with its script");
	resp_header(r, "X-Content-Type-Options", "nosniff");
	resp_header(r, "Cache-Control", "public, max-age=60");
	return resp_bytes(r, 200, "application/javascript", ans.body ? ans.body : "", ans.body_len);
}
