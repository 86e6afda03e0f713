/*
 * integrations.c - integrations, installations, tokens, events, development
 * mode (domain/integrations.h states who may do what).
 */
#include "domain/integration_events.h"
#include "domain/integrations.h"
#include "domain/secrets.h"
#include "store/sites.h"
#include "domain/sites.h"
#include "util/err.h"
#include "util/seal.h"
#include "util/util.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ---- */

static bool is_docsd(const struct dom *d)
{
	return d->actor.user_id == NULL;
}

/* The caller is the integration itself (its integration or installation
 * token): for seeing a private integration only; what it may do is the
 * rule's (domain/integration_access.c). */
static bool is_self(const struct dom *d, const struct integration *it)
{
	return d->actor.integration_id && strcmp(d->actor.integration_id, it->id) == 0;
}

/* Load an integration with its owner and the caller's standing there; 404
 * when the caller may not see it. */
static int load(struct dom *d, const char *name, bool locked, struct integration_view *out)
{
	int rc;

	memset(out, 0, sizeof(*out));
	rc = locked ? store_integration_get_locked(d->tx, name, &out->it) : store_integration_get(d->tx, name, &out->it);
	if (rc)
		return rc;
	if ((rc = store_org_get(d->tx, out->it.org_id, &out->owner)) || (rc = dom_enter_org(d, out->it.org_id)))
		return rc;
	out->caller = d->actor.org;
	out->admin = is_docsd(d) || out->caller.role == ROLE_ADMIN;
	if (strcmp(out->it.visibility, "private") != 0 || out->caller.role > ROLE_NONE || is_self(d, &out->it) ||
	    is_docsd(d))
		return 0;
	return err_set(ERR_NOT_FOUND, "integration '%s' not found", name);
}

/* Republishing, unpublishing, development mode: the owning organization's
 * admins (and docsd), never a token of the integration. */
static int require_owner(struct dom *d, const struct integration_view *v)
{
	return dom_integration_may(d, INTEG_OP_MANAGE, &v->it, NULL, NULL);
}

/* Configuration is where admins put API keys: blank it (the serializer
 * writes {}) for whoever the rule does not let read it. */
static int redact(struct dom *d, const struct integration *it, struct integration_installation *in,
		  struct integration_target *t)
{
	bool visible;
	int rc = dom_integration_config_visible(d, it, in, &visible);

	if (rc || visible)
		return rc;
	in->configuration = NULL;
	if (t)
		t->configuration = NULL;
	return 0;
}

/* Whether a JSON array text holds the string s. */
static bool json_array_has(const char *array, const char *s)
{
	json_t *a = json_loads(array ? array : "[]", 0, NULL);
	size_t i;
	json_t *v;
	bool found = false;

	json_array_foreach(a, i, v) if (json_is_string(v) && strcmp(json_string_value(v), s) == 0) found = true;
	json_decref(a);
	return found;
}

/* The key secrets are sealed with: HMAC-SHA256 of the server's sealing
 * secret (the one Git credentials use: domain/secrets.h) over a label of
 * integrations' own, so the two kinds of sealed values never share a key. */
static int secrets_key(struct dom *d, unsigned char key[SEAL_KEY_LEN])
{
	static const char label[] = "docsd integration secrets v1";
	const char *secret;
	int rc = dom_secret(d->srv, d->tx, DOM_SECRET_GIT_CREDENTIALS, &secret);

	if (rc)
		return rc;
	if (hmac_sha256(key, secret, strlen(secret), label, sizeof(label) - 1))
		return err_set(ERR_INTERNAL, "HMAC failed");
	return 0;
}

int dom_integration_secrets_open(struct dom *d, const struct integration *it, const char **json)
{
	unsigned char key[SEAL_KEY_LEN];
	const char *sealed = NULL;
	int rc = store_integration_secrets(d->tx, it->id, &sealed);

	*json = "{}";
	if (rc || !sealed)
		return rc;
	if ((rc = secrets_key(d, key)))
		return rc;
	return seal_open(d->arena, key, sealed, json);
}

int dom_integration_token_mint(struct dom *d, const struct integration *it, const char *installation_id,
			       const char **token)
{
	char t[47], hash[65];

	memcpy(t, "gb_api_", 7);
	if (random_alnum(t + 7, 39))
		return err_set(ERR_INTERNAL, "getrandom failed");
	t[46] = '\0';
	if (sha256_hex(hash, t, 46))
		return err_set(ERR_INTERNAL, "sha256 failed");
	*token = arena_strdup(d->arena, t);
	return store_integration_token_create(d->tx, hash, it->id, installation_id,
					      clock_now_ms() + INTEGRATION_TOKEN_TTL_MS);
}

/* The organization by id, or by its hostname or the hostname's first label
 * ("subdomain"). */
static int find_org(struct dom *d, const char *key, struct org *out)
{
	int rc = store_org_get(d->tx, key, out);

	if (rc != ERR_NOT_FOUND)
		return rc;
	if ((rc = store_org_by_hostname_label(d->tx, key, out)) == ERR_NOT_FOUND)
		return err_set(ERR_NOT_FOUND, "organization '%s' not found (by id or subdomain)", key);
	return rc;
}

/* ---- integrations ---- */

/* The integration's user: what its tokens act as (GET /v1/user). A new
 * integration gets a new user, never one found by its name: a name freed by
 * an unpublish may be published again by anyone, and the user of the
 * unpublished integration (its memberships, the grants admins gave it) is
 * retired with it, not handed over. The address is unique per identity
 * (random label) and under .invalid, so nobody signs in as it. */
static int integration_user(struct dom *d, const char *name, const char *title, const char **id)
{
	char tag[17];
	const char *email;
	struct user u;
	int rc;

	if (random_alnum(tag, 16))
		return err_set(ERR_INTERNAL, "getrandom failed");
	tag[16] = '\0';
	email = arena_printf(d->arena, "%s+%s@integrations.docsd.invalid", name, tag);
	if ((rc = store_user_create(d->tx, email, title, &u)))
		return rc;
	*id = u.id;
	return 0;
}

#define DEF(field, value) (in->field ? in->field : (v.it.id ? v.it.field : (value)))

/* Bounds of the published fields (issue 31): each is in every listing of
 * the integration (GET /v1/integrations, by any user of any organization
 * for a public one), so an unbounded one made one list 36-80 MB. The
 * handler checked their shape; their size is checked here, as stored
 * (compact JSON), 400 naming the field. Icon and preview images are served
 * at their own URLs, not in listings, and are bounded as images. */
#define PUBLISHED_JSON_MAX (16 * 1024)
#define PUBLISHED_CONFIG_MAX (32 * 1024)
#define PUBLISHED_CSP_MAX 4096
#define PUBLISHED_LINK_URL_MAX 2048
#define PUBLISHED_LINK_LABEL_MAX 100
#define PUBLISHED_ICON_MAX (256 * 1024)
#define PUBLISHED_IMAGE_MAX (1024 * 1024)

static int too_long(const char *field, const char *v, size_t max)
{
	return v && strlen(v) > max ? err_set(ERR_INVALID, "%s: at most %zu bytes", field, max) : 0;
}

static int published_fields_bounded(const struct integration_input *in)
{
	int rc;

	if ((rc = too_long("blocks", in->blocks, PUBLISHED_JSON_MAX)) ||
	    (rc = too_long("contentSources", in->content_sources, PUBLISHED_JSON_MAX)) ||
	    (rc = too_long("configurations", in->configurations, PUBLISHED_CONFIG_MAX)) ||
	    (rc = too_long("contentSecurityPolicy", in->csp, PUBLISHED_CSP_MAX)) ||
	    (rc = too_long("icon", in->icon, PUBLISHED_ICON_MAX)) ||
	    (rc = too_long("externalLinks", in->external_links,
			   5 * (PUBLISHED_LINK_URL_MAX + PUBLISHED_LINK_LABEL_MAX + 32))))
		return rc;
	if (in->external_links) {
		json_t *l = json_loads(in->external_links, 0, NULL), *e;
		size_t i;
		rc = 0;
		json_array_foreach(l, i, e) {
			const char *u = json_string_value(json_object_get(e, "url"));
			const char *b = json_string_value(json_object_get(e, "label"));
			if ((u && strlen(u) > PUBLISHED_LINK_URL_MAX) || (b && strlen(b) > PUBLISHED_LINK_LABEL_MAX)) {
				rc = err_set(ERR_INVALID, "externalLinks[%zu]: url at most %d bytes, label at most %d", i,
					     PUBLISHED_LINK_URL_MAX, PUBLISHED_LINK_LABEL_MAX);
				break;
			}
		}
		json_decref(l);
		if (rc)
			return rc;
	}
	if (in->preview_images) {
		json_t *l = json_loads(in->preview_images, 0, NULL), *e;
		size_t i;
		rc = 0;
		json_array_foreach(l, i, e) if (json_is_string(e) && strlen(json_string_value(e)) > PUBLISHED_IMAGE_MAX) {
			rc = err_set(ERR_INVALID, "previewImages[%zu]: at most %d bytes", i, PUBLISHED_IMAGE_MAX);
			break;
		}
		json_decref(l);
	}
	return rc;
}

int dom_integration_publish(struct dom *d, const char *name, const struct integration_input *in,
			    struct integration_view *out)
{
	struct integration_view v;
	struct org org;
	const char *sealed = NULL;
	int rc = published_fields_bounded(in);

	if (rc)
		return rc;
	rc = load(d, name, true, &v);
	if (rc == ERR_NOT_FOUND) {
		/* Names are global: one hidden from the caller is still taken. */
		if (store_integration_get(d->tx, name, &v.it) == 0)
			return err_set(ERR_FORBIDDEN, "the name '%s' belongs to another organization's integration", name);
		memset(&v, 0, sizeof(v));
		rc = 0;
	}
	if (rc || (rc = find_org(d, in->organization, &org)) || (rc = dom_org_require(d, org.id, ORG_ACCESS_ADMIN)))
		return rc;
	/* A republish comes from an admin of the owner; moving an integration
	 * to another organization needs admin of both. */
	if (v.it.id && (rc = require_owner(d, &v)))
		return rc;
	if (in->secrets) {
		unsigned char key[SEAL_KEY_LEN];
		if ((rc = secrets_key(d, key)) || (rc = seal_text(d->arena, key, in->secrets, strlen(in->secrets), &sealed)))
			return rc;
	}
	struct integration it = v.it;
	it.name = name;
	it.org_id = org.id;
	it.runtime = DEF(runtime, "v1");
	it.title = in->title;
	it.description = in->description;
	it.summary = DEF(summary, NULL);
	it.visibility = DEF(visibility, "private");
	it.target = DEF(target, "all");
	it.scopes = in->scopes;
	it.categories = DEF(categories, "[]");
	it.blocks = DEF(blocks, "[]");
	it.content_sources = DEF(content_sources, "[]");
	it.external_links = DEF(external_links, "[]");
	it.configurations = DEF(configurations, "{}");
	it.csp = DEF(csp, NULL);
	it.icon = DEF(icon, NULL);
	it.preview_images = DEF(preview_images, "[]");
	if (it.id)
		it.version++;
	/* A republish keeps the integration's identity; a first publish makes one. */
	if ((!it.id && (rc = integration_user(d, name, in->title, &it.user_id))) ||
	    (rc = store_integration_put(d->tx, &it, in->script, sealed)))
		return rc == ERR_CONFLICT ? err_set(ERR_CONFLICT, "integration '%s' was published concurrently", name) : rc;
	return load(d, name, false, out);
}

int dom_integration_get(struct dom *d, const char *name, struct integration_view *out)
{
	return load(d, name, false, out);
}

struct list_filter {
	struct dom *d;
	const struct integration_filter *f;
};

static bool contains_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; hay && *hay; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return true;
	return false;
}

static bool has_items(const char *json_array)
{
	return json_array && strcmp(json_array, "[]") != 0;
}

/* The filters of listIntegrations that SQL does not express. */
static enum role keep_integration(void *ctx, void *item)
{
	const struct list_filter *lf = ctx;
	const struct integration_filter *f = lf->f;
	const struct integration *it = item;

	if (strcmp(it->visibility, "unlisted") == 0 && !f->owner && !f->org_id)
		return ROLE_NONE; /* unlisted: reachable by name, not listed to others */
	if (f->search && !contains_ci(it->name, f->search) && !contains_ci(it->title, f->search))
		return ROLE_NONE;
	if (f->category && !json_array_has(it->categories, f->category))
		return ROLE_NONE;
	if (f->scope && !json_array_has(it->scopes, f->scope))
		return ROLE_NONE;
	if (f->target && strcmp(it->target, f->target) != 0 && strcmp(it->target, "all") != 0)
		return ROLE_NONE;
	if (f->blocks >= 0 && has_items(it->blocks) != (f->blocks == 1))
		return ROLE_NONE;
	if (f->content_sources >= 0 && has_items(it->content_sources) != (f->content_sources == 1))
		return ROLE_NONE;
	if (f->block_domain && !contains_ci(it->blocks, f->block_domain))
		return ROLE_NONE;
	if (f->org_id) {
		struct integration_installation in;
		if (store_installation_by_org(lf->d->tx, it->id, f->org_id, &in))
			return ROLE_NONE;
	}
	return ROLE_READ;
}

int dom_integrations_list(struct dom *d, const struct integration_filter *f, const struct list_req *lr,
			  struct integration_view **items, int *n, char **next)
{
	struct list_filter lf = { d, f };
	struct integration *rows;
	const char *owner = NULL;
	struct org o;
	int rc;

	if (f->org_id && (rc = dom_org_require(d, f->org_id, ORG_ACCESS_VIEW)))
		return rc;
	if (f->owner) {
		if ((rc = find_org(d, f->owner, &o)) == ERR_NOT_FOUND) {
			*n = 0;
			*next = NULL;
			if (lr->total)
				*lr->total = 0;
			return 0;
		}
		if (rc)
			return rc;
		owner = o.id;
	}
	if ((rc = store_integrations_list(d->tx, d->actor.user_id, owner, lr, keep_integration, &lf, &rows, n, next)))
		return rc;
	*items = arena_alloc(d->arena, sizeof(**items) * (size_t)(*n ? *n : 1));
	for (int i = 0; i < *n; i++) {
		struct integration_view *v = &(*items)[i];
		memset(v, 0, sizeof(*v));
		v->it = rows[i];
		if ((rc = store_org_get(d->tx, v->it.org_id, &v->owner)) || (rc = dom_enter_org(d, v->it.org_id)))
			return rc;
		v->caller = d->actor.org;
		v->admin = is_docsd(d) || v->caller.role == ROLE_ADMIN;
	}
	return 0;
}

int dom_integration_delete(struct dom *d, const char *name, bool *removed)
{
	struct integration_view v;
	int rc = load(d, name, true, &v);

	*removed = false;
	if (rc == ERR_NOT_FOUND)
		return 0; /* GitBook: "deleted, or did not exist" */
	if (rc || (rc = require_owner(d, &v)) || (rc = store_integration_delete(d->tx, v.it.id)))
		return rc;
	*removed = true;
	return 0;
}

int dom_integration_dev_set(struct dom *d, const char *name, const char *tunnel_url, bool all)
{
	struct integration_view v;
	int rc = load(d, name, true, &v);

	if (rc || (rc = require_owner(d, &v)))
		return rc;
	return store_integration_set_dev(d->tx, v.it.id, tunnel_url, all);
}

int dom_integration_dev_clear(struct dom *d, const char *name)
{
	struct integration_view v;
	int rc = load(d, name, true, &v);

	if (rc || (rc = require_owner(d, &v)))
		return rc;
	return store_integration_set_dev(d->tx, v.it.id, NULL, 0);
}

/* ---- installations ---- */

/* A site's injected scripts are part of its published-content-site, which
 * the page cache keeps per organization generation: a change of a site
 * installation moves the generation on. */
static int site_scripts_changed(struct dom *d, const char *kind, const char *org_id)
{
	return strcmp(kind, "site") == 0 ? store_org_bump(d->tx, org_id) : 0;
}


/* installation_setup: {status, previous: {status, configuration}}. */
static const char *setup_fields(struct dom *d, const char *status, const char *prev_status, const char *prev_config)
{
	return arena_printf(d->arena, "{\"status\":\"%s\",\"previous\":{\"status\":\"%s\",\"configuration\":%s}}",
			    status, prev_status, prev_config ? prev_config : "{}");
}

int dom_installation_create(struct dom *d, const char *name, const char *org, struct integration_installation *out)
{
	struct integration_view v;
	struct org o;
	int rc = load(d, name, false, &v);

	if (rc || (rc = find_org(d, org, &o)) || (rc = dom_org_require(d, o.id, ORG_ACCESS_ADMIN)))
		return rc;
	if (strcmp(v.it.target, "all") != 0 && strcmp(v.it.target, "organization") != 0 &&
	    strcmp(v.it.target, "space") != 0 && strcmp(v.it.target, "site") != 0)
		return err_set(ERR_INVALID, "the integration cannot be installed on an organization");
	/* Installing again is a no-op that answers the installation. */
	if ((rc = store_installation_by_org(d->tx, v.it.id, o.id, out)) != ERR_NOT_FOUND)
		return rc;
	memset(out, 0, sizeof(*out));
	out->integration_id = v.it.id;
	out->org_id = o.id;
	out->status = "active";
	out->space_selection = "all";
	out->site_selection = "all";
	out->configuration = "{}";
	out->external_ids = "[]";
	if ((rc = store_org_lock(d->tx, o.id)) || (rc = store_installation_create(d->tx, out)))
		return rc;
	return dom_event_record(d, &v.it, out->id, o.id, "installation_setup", setup_fields(d, "active", "pending", "{}"));
}

/* Load an installation of the integration and check the caller may do op
 * to it (domain/integration_access.c). */
static int installation_load(struct dom *d, const char *name, const char *id, enum integ_op op,
			     struct integration_view *v, struct integration_installation *out)
{
	int rc = load(d, name, false, v);

	if (rc || (rc = store_installation_get(d->tx, v->it.id, id, out)))
		return rc;
	return dom_integration_may(d, op, &v->it, out, NULL);
}

int dom_installation_get(struct dom *d, const char *name, const char *id, struct integration_installation *out)
{
	struct integration_view v;
	int rc = installation_load(d, name, id, INTEG_OP_READ, &v, out);

	return rc ? rc : redact(d, &v.it, out, NULL);
}

/* configuration against the integration's configurations.<which> schema:
 * an object; `required` properties present; declared properties of the
 * declared type (string, number, boolean). */
static int check_configuration(const struct integration *it, const char *which, const char *config)
{
	json_t *schemas = json_loads(it->configurations ? it->configurations : "{}", 0, NULL);
	json_t *c = json_loads(config, 0, NULL), *schema = json_object_get(schemas, which);
	json_t *props = json_object_get(schema, "properties"), *req = json_object_get(schema, "required"), *v;
	const char *k;
	size_t i;
	int rc = 0;

	if (!json_is_object(c))
		rc = err_set(ERR_INVALID, "configuration: must be an object");
	json_array_foreach(req, i, v) if (!rc && json_is_string(v) && !json_object_get(c, json_string_value(v))) rc =
		err_set(ERR_INVALID, "configuration.%s: is required", json_string_value(v));
	json_object_foreach(c, k, v)
	{
		const char *type = json_string_value(json_object_get(json_object_get(props, k), "type"));
		if (rc || !type)
			continue;
		if ((strcmp(type, "string") == 0 && !json_is_string(v)) ||
		    (strcmp(type, "number") == 0 && !json_is_number(v)) ||
		    (strcmp(type, "boolean") == 0 && !json_is_boolean(v)))
			rc = err_set(ERR_INVALID, "configuration.%s: must be a %s", k, type);
	}
	json_decref(c);
	json_decref(schemas);
	return rc;
}

int dom_installation_update(struct dom *d, const char *name, const char *id, const struct installation_update *u,
			    struct integration_installation *out)
{
	struct integration_view v;
	struct integration_installation before;
	int rc = installation_load(d, name, id, INTEG_OP_SET, &v, out);

	/* The selections are the admin's: an installation's token changes its
	 * externalIds and configuration, never what it is installed on. */
	if (rc || ((u->space_selection || u->site_selection) &&
		   (rc = dom_integration_may(d, INTEG_OP_SELECT, &v.it, out, NULL))) ||
	    (u->configuration && (rc = check_configuration(&v.it, "account", u->configuration))))
		return rc;
	before = *out;
	if (u->external_ids)
		out->external_ids = u->external_ids;
	if (u->configuration)
		out->configuration = u->configuration;
	if (u->space_selection)
		out->space_selection = u->space_selection;
	if (u->site_selection)
		out->site_selection = u->site_selection;
	if ((rc = store_installation_update(d->tx, out)) || (rc = store_installation_get(d->tx, v.it.id, id, out)))
		return rc;
	return dom_event_record(d, &v.it, out->id, out->org_id, "installation_setup",
				setup_fields(d, out->status, before.status, before.configuration));
}

int dom_installation_delete(struct dom *d, const char *name, const char *id, bool *removed)
{
	struct integration_view v;
	struct integration_installation in;
	int rc = installation_load(d, name, id, INTEG_OP_UNINSTALL, &v, &in);

	*removed = false;
	if (rc == ERR_NOT_FOUND && store_integration_get(d->tx, name, &v.it) == 0 &&
	    store_installation_get(d->tx, v.it.id, id, &in) == ERR_NOT_FOUND)
		return 0; /* already uninstalled: 204 */
	/* Its tokens go with it (store_installation_delete), so they stop
	 * working at once: installation tokens are never cached (http/tokens.c). */
	if (rc || (rc = store_installation_delete(d->tx, in.id, removed)) ||
	    (rc = site_scripts_changed(d, "site", in.org_id)))
		return rc;
	return dom_event_record(d, &v.it, in.id, in.org_id, "installation_deleted",
				arena_printf(d->arena, "{\"previous\":{\"configuration\":%s}}", in.configuration));
}

/* The one row an installation token may list: its own installation, when it
 * is of integration_id / in org_id and carries external_id. */
static int own_installation(struct dom *d, const char *integration_id, const char *org_id, const char *external_id,
			    const struct list_req *lr, struct integration_installation **items, int *n, char **next)
{
	struct integration_installation in;
	int rc = store_installation_get(d->tx, integration_id, d->actor.installation_id, &in);

	*n = 0;
	*next = NULL;
	*items = arena_alloc(d->arena, sizeof(**items));
	if (rc && rc != ERR_NOT_FOUND)
		return rc;
	if (rc == 0 && (!org_id || strcmp(in.org_id, org_id) == 0) &&
	    (!external_id || json_array_has(in.external_ids, external_id)) && !lr->after)
		(*items)[(*n)++] = in;
	if (lr->total)
		*lr->total = *n;
	return 0;
}

int dom_installations_list(struct dom *d, const char *name, const char *org_id, const char *external_id,
			   const struct list_req *lr, struct integration_installation **items, int *n, char **next)
{
	struct integration_view v;
	int rc;

	bool own = false;

	if (name) {
		if ((rc = load(d, name, false, &v)) || (rc = dom_integration_may(d, INTEG_OP_LIST, &v.it, NULL, &own)))
			return rc;
		if (own)
			return own_installation(d, v.it.id, NULL, external_id, lr, items, n, next);
		if ((rc = store_installations_list(d->tx, v.it.id, NULL, external_id, lr, items, n, next)))
			return rc;
	} else {
		if ((rc = dom_org_require(d, org_id, ORG_ACCESS_VIEW)))
			return rc;
		/* An installation token sees its own installation, no other
		 * integration's (nor their configuration). */
		if (d->actor.installation_id)
			return own_installation(d, NULL, org_id, external_id, lr, items, n, next);
		if ((rc = store_installations_list(d->tx, NULL, org_id, external_id, lr, items, n, next)))
			return rc;
	}
	for (int i = 0; i < *n; i++) {
		struct integration it;
		if ((rc = store_integration_by_id(d->tx, (*items)[i].integration_id, &it)) ||
		    (rc = redact(d, &it, &(*items)[i], NULL)))
			return rc;
	}
	return 0;
}

int dom_org_installations_list(struct dom *d, const char *org_id, const struct list_req *lr,
			       struct org_installation **items, int *n, char **next)
{
	struct integration_installation *rows;
	int rc = dom_installations_list(d, NULL, org_id, NULL, lr, &rows, n, next);

	if (rc)
		return rc;
	*items = arena_alloc(d->arena, sizeof(**items) * (size_t)(*n ? *n : 1));
	for (int i = 0; i < *n; i++) {
		struct integration it;
		(*items)[i].installation = rows[i];
		if ((rc = store_integration_by_id(d->tx, rows[i].integration_id, &it)) ||
		    (rc = load(d, it.name, false, &(*items)[i].integration)))
			return rc;
	}
	return 0;
}

int dom_space_integrations(struct dom *d, const char *space_id, struct integration_view **items, int *n)
{
	struct space s;
	struct integration_installation *ins;
	struct list_req lr = { .limit = 1000 };
	char *next;
	int nins, rc;

	*n = 0;
	if ((rc = dom_space_get(d, space_id, ROLE_READ, &s)) ||
	    (rc = store_installations_list(d->tx, NULL, s.org_id, NULL, &lr, &ins, &nins, &next)))
		return rc;
	*items = arena_alloc(d->arena, sizeof(**items) * (size_t)(nins ? nins : 1));
	for (int i = 0; i < nins; i++) {
		struct integration_target t;
		struct integration it;
		if (strcmp(ins[i].space_selection, "all") != 0 &&
		    store_target_get(d->tx, ins[i].id, "space", s.id, &t) != 0)
			continue;
		if ((rc = store_integration_by_id(d->tx, ins[i].integration_id, &it)) ||
		    (rc = load(d, it.name, false, &(*items)[*n])))
			return rc;
		(*n)++;
	}
	return 0;
}

int dom_installation_token(struct dom *d, const char *name, const char *id, const char **token)
{
	struct integration_view v;
	struct integration_installation in;
	int rc = installation_load(d, name, id, INTEG_OP_TOKEN, &v, &in);

	return rc ? rc : dom_integration_token_mint(d, &v.it, in.id, token);
}

/* ---- space / site installations ---- */

static int target_check(struct dom *d, const struct integration_view *v, const struct integration_installation *in,
			const char *kind, const char *target_id, struct target_view *out)
{
	int rc;

	if (strcmp(kind, "space") == 0) {
		struct space s;
		/* Reading the space as the caller (docsd itself and the
		 * integration's tokens through their scopes). */
		if ((rc = dom_space_get(d, target_id, ROLE_READ, &s)))
			return rc;
		if (strcmp(s.org_id, in->org_id) != 0)
			return err_set(ERR_NOT_FOUND, "space not found in the installation's organization");
		out->space = s;
		return 0;
	}
	struct site st;
	if ((rc = store_site_get(d->tx, target_id, &st)) == 0 && strcmp(st.org_id, in->org_id) != 0)
		rc = ERR_NOT_FOUND;
	if (rc == ERR_NOT_FOUND)
		return err_set(ERR_NOT_FOUND, "site not found in the installation's organization");
	if (rc)
		return rc;
	return 0;
}

static const char *target_setup_fields(struct dom *d, const char *kind, const char *target_id, const char *status,
				       const char *prev_status, const char *prev_config)
{
	return arena_printf(d->arena,
			    "{\"%sId\":\"%s\",\"status\":\"%s\",\"previous\":{\"status\":\"%s\",\"configuration\":%s}}", kind,
			    target_id, status, prev_status, prev_config ? prev_config : "{}");
}

int dom_target_install(struct dom *d, const char *name, const char *installation_id, const char *kind,
		       const char *target_id, struct target_view *out)
{
	struct integration_view v;
	struct integration_installation in;
	int rc = installation_load(d, name, installation_id, INTEG_OP_SELECT, &v, &in);

	memset(out, 0, sizeof(*out));
	if (rc || (rc = target_check(d, &v, &in, kind, target_id, out)))
		return rc;
	if (strcmp(v.it.target, "all") != 0 && strcmp(v.it.target, kind) != 0)
		return err_set(ERR_INVALID, "the integration cannot be installed on a %s (target: %s)", kind, v.it.target);
	if (store_target_get(d->tx, in.id, kind, target_id, &out->t) == 0)
		goto done; /* installed already */
	out->t = (struct integration_target){ .installation_id = in.id, .kind = kind, .target_id = target_id,
					      .status = "active", .configuration = "{}", .external_ids = "[]" };
	if ((rc = store_target_put(d->tx, &out->t)) || (rc = store_target_get(d->tx, in.id, kind, target_id, &out->t)) ||
	    (rc = site_scripts_changed(d, kind, in.org_id)))
		return rc;
	if ((rc = dom_event_record(d, &v.it, in.id, in.org_id,
				   strcmp(kind, "space") == 0 ? "space_installation_setup" : "site_installation_setup",
				   target_setup_fields(d, kind, target_id, "active", "pending", "{}"))))
		return rc;
done:
	out->integration = v.it.name;
	return 0;
}

int dom_target_get(struct dom *d, const char *name, const char *installation_id, const char *kind,
		   const char *target_id, struct target_view *out)
{
	struct integration_view v;
	struct integration_installation in;
	int rc = installation_load(d, name, installation_id, INTEG_OP_READ, &v, &in);

	memset(out, 0, sizeof(*out));
	if (rc || (rc = store_target_get(d->tx, in.id, kind, target_id, &out->t)))
		return rc;
	out->integration = v.it.name;
	return redact(d, &v.it, &in, &out->t);
}

int dom_target_update(struct dom *d, const char *name, const char *installation_id, const char *kind,
		      const char *target_id, const struct installation_update *u, struct target_view *out)
{
	struct integration_view v;
	struct integration_installation in;
	struct integration_target before;
	int rc = installation_load(d, name, installation_id, INTEG_OP_SET, &v, &in);

	memset(out, 0, sizeof(*out));
	if (rc || (rc = store_target_get(d->tx, in.id, kind, target_id, &out->t)) ||
	    (u->configuration && (rc = check_configuration(&v.it, kind, u->configuration))))
		return rc;
	before = out->t;
	if (u->external_ids)
		out->t.external_ids = u->external_ids;
	if (u->configuration)
		out->t.configuration = u->configuration;
	if ((rc = store_target_put(d->tx, &out->t)) || (rc = store_target_get(d->tx, in.id, kind, target_id, &out->t)))
		return rc;
	out->integration = v.it.name;
	return dom_event_record(d, &v.it, in.id, in.org_id,
				strcmp(kind, "space") == 0 ? "space_installation_setup" : "site_installation_setup",
				target_setup_fields(d, kind, target_id, out->t.status, before.status, before.configuration));
}

int dom_target_uninstall(struct dom *d, const char *name, const char *installation_id, const char *kind,
			 const char *target_id, bool *removed)
{
	struct integration_view v;
	struct integration_installation in;
	struct integration_target t;
	int rc = installation_load(d, name, installation_id, INTEG_OP_SELECT, &v, &in);

	*removed = false;
	if (rc)
		return rc;
	if ((rc = store_target_get(d->tx, in.id, kind, target_id, &t)) == ERR_NOT_FOUND)
		return 0;
	if (rc || (rc = store_target_delete(d->tx, in.id, kind, target_id, removed)) ||
	    (rc = site_scripts_changed(d, kind, in.org_id)))
		return rc;
	return dom_event_record(
		d, &v.it, in.id, in.org_id,
		strcmp(kind, "space") == 0 ? "space_installation_deleted" : "site_installation_deleted",
		arena_printf(d->arena, "{\"%sId\":\"%s\",\"previous\":{\"configuration\":%s}}", kind, target_id,
			     t.configuration));
}

int dom_targets_list(struct dom *d, const char *name, const char *installation_id, const char *kind,
		     const char *external_id, const struct list_req *lr, struct target_view **items, int *n,
		     char **next)
{
	struct integration_view v;
	struct integration_installation in;
	struct integration_target *rows;
	bool own = false;
	int rc;

	if (installation_id)
		rc = installation_load(d, name, installation_id, INTEG_OP_READ, &v, &in);
	else if ((rc = load(d, name, false, &v)) == 0)
		rc = dom_integration_may(d, INTEG_OP_LIST, &v.it, NULL, &own);
	/* An installation token lists its own installation's rows only. */
	if (own)
		installation_id = d->actor.installation_id;
	if (rc || (rc = store_targets_list(d->tx, v.it.id, installation_id, kind, external_id, lr, &rows, n, next)))
		return rc;
	*items = arena_alloc(d->arena, sizeof(**items) * (size_t)(*n ? *n : 1));
	for (int i = 0; i < *n; i++) {
		struct integration_installation ri;
		memset(&(*items)[i], 0, sizeof(**items));
		(*items)[i].t = rows[i];
		(*items)[i].integration = v.it.name;
		if ((rc = store_installation_get(d->tx, v.it.id, rows[i].installation_id, &ri)) ||
		    (rc = redact(d, &v.it, &ri, &(*items)[i].t)))
			return rc;
	}
	return 0;
}

/* ---- events ---- */

/* An event's payload may carry its installation's previous configuration
 * (installation_setup, installation_deleted, space and site ones): blanked,
 * like the configuration itself, for whoever the rule does not show it to
 * (the owning organization's admins reading another organization's
 * installation). The installation may be gone: the event keeps its id and
 * organization, which is all the rule reads. */
static int redact_event(struct dom *d, const struct integration *it, struct integration_event *ev)
{
	struct integration_installation in = { .id = ev->installation_id, .org_id = ev->org_id };
	json_t *root, *prev;
	bool visible;
	char *text;
	int rc;

	if (!ev->installation_id || !ev->org_id || !strstr(ev->payload, "\"configuration\""))
		return 0;
	if ((rc = dom_integration_config_visible(d, it, &in, &visible)) || visible)
		return rc;
	root = json_loads(ev->payload, 0, NULL);
	prev = json_object_get(root, "previous");
	if (json_is_object(prev) && json_object_get(prev, "configuration"))
		json_object_set_new(prev, "configuration", json_object());
	text = root ? json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	json_decref(root);
	/* Unreadable (it never is): nothing rather than the configuration. */
	ev->payload = arena_strdup(d->arena, text ? text : "{}");
	free(text);
	return 0;
}

int dom_events_list(struct dom *d, const char *name, const struct list_req *lr, struct integration_event **items,
		    int *n, char **next)
{
	struct integration_view v;
	int rc = load(d, name, false, &v);

	if (rc || (rc = dom_integration_may(d, INTEG_OP_EVENTS, &v.it, NULL, NULL)) ||
	    (rc = store_events_list(d->tx, v.it.id, lr, items, n, next)))
		return rc;
	for (int i = 0; i < *n; i++)
		if ((rc = redact_event(d, &v.it, &(*items)[i])))
			return rc;
	return 0;
}

int dom_event_get(struct dom *d, const char *name, const char *event_id, struct event_view *out)
{
	struct integration_view v;
	int rc = load(d, name, false, &v);

	memset(out, 0, sizeof(*out));
	if (rc || (rc = dom_integration_may(d, INTEG_OP_EVENTS, &v.it, NULL, NULL)) ||
	    (rc = store_event_get(d->tx, v.it.id, event_id, &out->ev)))
		return rc;
	if (strcmp(out->ev.status, "pending") == 0)
		return err_set(ERR_NOT_FOUND, "event not found (not delivered yet)");
	/* Tasks are delivered, not listed (store/integrations.c). */
	if (strstr(out->ev.payload, "\"type\":\"task\"") == out->ev.payload + 34)
		return err_set(ERR_NOT_FOUND, "event not found");
	if ((rc = redact_event(d, &v.it, &out->ev)))
		return rc;
	return store_event_logs(d->tx, out->ev.id, &out->logs, &out->nlogs);
}

int dom_integration_task(struct dom *d, const char *name, const char *task_json, long schedule_s)
{
	int64_t at = schedule_s > 0 ? clock_now_ms() + (int64_t)schedule_s * 1000 : 0;
	struct integration_view v;
	struct integration_installation *ins;
	int n, rc = load(d, name, false, &v);
	char *next;
	struct list_req lr = { .limit = 1 };

	if (rc || (rc = dom_integration_may(d, INTEG_OP_TASK, &v.it, NULL, NULL)))
		return rc;
	if (d->actor.installation_id) {
		struct integration_installation in;
		if ((rc = store_installation_get(d->tx, v.it.id, d->actor.installation_id, &in)))
			return rc;
		return dom_event_record_at(d, &v.it, in.id, in.org_id, "task",
					   arena_printf(d->arena, "{\"task\":%s}", task_json), at);
	}
	if ((rc = store_installations_list(d->tx, v.it.id, NULL, NULL, &lr, &ins, &n, &next)))
		return rc;
	return dom_event_record_at(d, &v.it, n ? ins[0].id : NULL, n ? ins[0].org_id : v.it.org_id, "task",
				   arena_printf(d->arena, "{\"task\":%s}", task_json), at);
}

/* ---- site scripts ---- */

/* A CSP given as an object of directives, as one header value. */
static const char *csp_header(struct dom *d, const char *csp_json)
{
	json_t *v = csp_json ? json_loads(csp_json, JSON_DECODE_ANY, NULL) : NULL;
	const char *out = NULL, *k;
	json_t *dv;

	if (json_is_string(v)) {
		out = arena_strdup(d->arena, json_string_value(v));
	} else if (json_is_object(v)) {
		char *acc = arena_strdup(d->arena, "");
		json_object_foreach(v, k, dv) if (json_is_string(dv)) acc =
			arena_printf(d->arena, "%s%s%s %s", acc, *acc ? "; " : "", k, json_string_value(dv));
		out = *acc ? acc : NULL;
	}
	json_decref(v);
	return out;
}

int dom_site_integration_scripts(struct dom *d, const char *site_id, struct site_script **out, int *n)
{
	struct integration_target *t;
	int nt, rc = store_targets_of(d->tx, "site", site_id, &t, &nt);

	*n = 0;
	if (rc)
		return rc;
	*out = arena_alloc(d->arena, sizeof(**out) * (size_t)(nt ? nt : 1));
	for (int i = 0; i < nt; i++) {
		struct integration_installation in;
		struct integration it;
		if (strcmp(t[i].status, "active") != 0)
			continue;
		if ((rc = store_installation_get(d->tx, NULL, t[i].installation_id, &in)) ||
		    (rc = store_integration_by_id(d->tx, in.integration_id, &it)))
			return rc;
		if (strcmp(in.status, "active") != 0 || !json_array_has(it.scopes, "site:script:inject"))
			continue;
		(*out)[*n] = (struct site_script){
			/* On the sites' origin, never the web interface's (server.h). */
			.script = arena_printf(d->arena, "%s/v1/integrations/%s/installations/%s/sites/%s/script.js",
					       server_site_url(d->srv), it.name, in.id, site_id),
			.csp = csp_header(d, it.csp),
			.cookies = json_array_has(it.scopes, "site:script:cookies"),
		};
		(*n)++;
	}
	return 0;
}

int dom_site_integration_scripts_get(struct dom *d, const char *org_id, const char *site_id, struct site_script **out,
				     int *n)
{
	struct site st;
	/* Whoever reads the site, as every site read (dom_site_get): guests
	 * and installation tokens without the site get 404 here too. */
	int rc = dom_site_get(d, org_id, site_id, ROLE_READ, false, &st);

	return rc ? rc : dom_site_integration_scripts(d, site_id, out, n);
}
