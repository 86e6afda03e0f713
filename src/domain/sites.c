/*
 * sites.c - docs sites (domain/sites.h): the site itself, publishing, its
 * customization and site spaces' overrides, share links, the adaptive schema
 * and the publishing auth.
 *
 * Every operation loads the site once through dom_site_get (access: read, or
 * admin for what changes it); writers lock its row there and bump its
 * generation (store_site_bump) before they return, so the published-site
 * renderer's cache sees the change.
 */
#include "domain/sites.h"

#include "model/adaptive.h"
#include "model/validate.h"
#include "json/serialize_sites.h"
#include "domain/spaces.h"
#include "util/err.h"
#include "util/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

const char *const site_visibilities[] = { "public", "unlisted", "share-link", "visitor-auth", NULL };

int dom_site_get(struct dom *d, const char *org_id, const char *site_id, enum role need, bool lock,
		 struct site *out)
{
	enum role role;
	int rc;

	if ((rc = dom_org_require(d, org_id, ORG_ACCESS_VIEW)))
		return rc;
	/* The site role is the member's own organization role (guests: none),
	 * so it is known before the site is: it is checked first, and a member
	 * without the role gets 403 whether or not the site exists (a missing
	 * one must not answer better than an existing one: README, "Docs
	 * sites"). Guests and outsiders get 404 for every site. */
	role = d->actor.org.role;
	if (role < ROLE_READ)
		return err_set(ERR_NOT_FOUND, "site not found");
	if (role < need)
		return err_set(ERR_FORBIDDEN, "you need the %s role on this site", role_name(need));
	rc = lock ? store_site_get_locked(d->tx, site_id, out) : store_site_get(d->tx, site_id, out);
	if (rc)
		return rc;
	if (strcmp(out->org_id, org_id) != 0)
		return err_set(ERR_NOT_FOUND, "site not found");
	out->access = role;
	return 0;
}

/* Reload s after a write, keeping the caller's role. */
static int reload(struct dom *d, struct site *s)
{
	enum role access = s->access;
	const char *id = s->id;
	int rc = store_site_get(d->tx, id, s);

	s->access = access;
	return rc;
}

/* The end of every write: the generation, then the site as it is now. */
static int written(struct dom *d, struct site *s)
{
	int rc = store_site_bump(d->tx, s->id);

	return rc ? rc : reload(d, s);
}

/* A space of org_id the actor reads, live: else ERR_INVALID naming it. */
static int site_space_source(struct dom *d, const char *org_id, const char *space_id)
{
	struct space sp;
	int rc = dom_space_get(d, space_id, ROLE_READ, &sp);

	if (rc == ERR_NOT_FOUND || rc == ERR_FORBIDDEN || (rc == 0 && (strcmp(sp.org_id, org_id) != 0 || sp.deleted_at)))
		return err_set(ERR_INVALID, "spaces: space '%s' does not exist in this organization", space_id);
	return rc;
}

int dom_site_create(struct dom *d, const char *org_id, const struct site_input *in, struct site *out)
{
	struct site_space ss;
	struct space created;
	int rc;

	if ((rc = dom_org_require(d, org_id, ORG_ACCESS_VIEW)))
		return rc;
	if (d->actor.org.role < ROLE_CREATE)
		return err_set(ERR_FORBIDDEN, "you need the create role in this organization to create a site");
	for (int i = 0; i < in->nspaces; i++) {
		if ((rc = site_space_source(d, org_id, in->spaces[i])))
			return rc;
		for (int j = 0; j < i; j++)
			if (strcmp(in->spaces[i], in->spaces[j]) == 0)
				return err_set(ERR_INVALID, "spaces: space '%s' is listed twice", in->spaces[i]);
	}
	memset(out, 0, sizeof(*out));
	out->org_id = org_id;
	out->type = in->type ? in->type : "basic";
	out->title = in->title ? in->title : "Untitled site";
	out->visibility = in->visibility ? in->visibility : "public";
	out->agents_context = "included";
	if ((rc = store_site_create(d->tx, out)) || (rc = store_site_get_locked(d->tx, out->id, out)))
		return rc;
	out->access = d->actor.org.role;
	if (in->create_space) {
		struct space_input si = { .title = out->title };

		if ((rc = dom_space_create(d, org_id, &si, &created)) ||
		    (rc = dom_site_space_add(d, out, created.id, NULL, &ss)))
			return rc;
	}
	for (int i = 0; i < in->nspaces; i++)
		if ((rc = dom_site_space_add(d, out, in->spaces[i], NULL, &ss)))
			return rc;
	return reload(d, out);
}

int dom_sites_list(struct dom *d, const char *org_id, const struct site_filter *f, const struct list_req *lr,
		   struct site **items, int *n, char **next)
{
	int rc;

	*items = NULL;
	*n = 0;
	*next = NULL;
	if ((rc = dom_org_require(d, org_id, ORG_ACCESS_VIEW)))
		return rc;
	/* Guests know the organization but have no site role: 404, like every
	 * other site operation of theirs (README, "Docs sites"). */
	if (d->actor.org.role < ROLE_READ)
		return err_set(ERR_NOT_FOUND, "no sites for guests of the organization");
	if ((rc = store_sites_list(d->tx, org_id, f, lr, items, n, next)))
		return rc;
	for (int i = 0; i < *n; i++)
		(*items)[i].access = d->actor.org.role;
	return 0;
}

/* Letters, digits, '.', '_' and '-', but not "." or "..": a basename is a
 * path segment of published URLs (/sites/<basename>). */
int dom_site_basename_check(const char *basename)
{
	const char *c;

	if (!basename)
		return 0;
	for (c = basename; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '.' && *c != '_' && *c != '-')
			break;
	if (*c || strcmp(basename, ".") == 0 || strcmp(basename, "..") == 0)
		return err_set(ERR_INVALID, "basename: use letters, digits, '.', '_' and '-' only");
	return 0;
}

int dom_site_hostname_check(const char *hostname)
{
	if (hostname && !valid_site_hostname(hostname))
		return err_set(ERR_INVALID, "hostname: must be a lower-case host name of three or more labels, "
					    "such as docs.example.com");
	return 0;
}

int dom_site_update(struct dom *d, const char *org_id, const char *site_id, const struct site_update *in,
		    struct site *out)
{
	bool taken;
	int rc;

	if ((rc = dom_site_get(d, org_id, site_id, ROLE_ADMIN, true, out)))
		return rc;
	if (in->basename && !(out->basename && strcmp(out->basename, in->basename) == 0)) {
		if ((rc = store_site_basename_taken(d->tx, out->id, in->basename, &taken)))
			return rc;
		if (taken)
			return err_set(ERR_CONFLICT, "basename: '%s' is already used by another site", in->basename);
		out->basename = in->basename;
	}
	if (in->has_hostname && in->hostname && !(out->hostname && strcmp(out->hostname, in->hostname) == 0)) {
		if ((rc = store_site_hostname_taken(d->tx, out->id, in->hostname, &taken)))
			return rc;
		if (taken)
			return err_set(ERR_CONFLICT, "hostname: '%s' is already used by another site", in->hostname);
	}
	if (in->has_hostname)
		out->hostname = in->hostname;
	if (in->title)
		out->title = in->title;
	if (in->visibility)
		out->visibility = in->visibility;
	if (in->agents_context)
		out->agents_context = in->agents_context;
	if (in->has_adaptive)
		out->adaptive_enabled = in->adaptive_enabled;
	if (in->has_proxy)
		out->proxy = in->proxy;
	rc = store_site_update(d->tx, out);
	if (rc == ERR_CONFLICT) /* a concurrent writer took the basename or hostname first */
		return err_set(ERR_CONFLICT, "%s: already used by another site", in->basename ? "basename" : "hostname");
	if (rc)
		return rc;
	if ((in->default_site_section || in->default_site_space) &&
	    (rc = dom_site_default_set(d, out, in->default_site_section, in->default_site_space)))
		return rc;
	return written(d, out);
}

int dom_site_delete(struct dom *d, const char *org_id, const char *site_id)
{
	struct site s;
	bool deleted;
	int rc = dom_site_get(d, org_id, site_id, ROLE_ADMIN, true, &s);

	/* An admin's delete of a site that does not exist (here) is a 204: the
	 * seed's contract. Others were answered by their role already. */
	if (rc == ERR_NOT_FOUND && d->actor.org.role >= ROLE_ADMIN)
		return 0;
	return rc ? rc : store_site_delete(d->tx, org_id, s.id, &deleted);
}

int dom_site_set_published(struct dom *d, const char *org_id, const char *site_id, bool published, struct site *out)
{
	int rc;

	if ((rc = dom_site_get(d, org_id, site_id, ROLE_ADMIN, true, out)))
		return rc;
	out->published = published;
	return (rc = store_site_update(d->tx, out)) ? rc : written(d, out);
}

/* ---- customization ---- */

int dom_site_customization_set(struct dom *d, const char *org_id, const char *site_id, const json_t *body,
			       struct site *out)
{
	char *text;
	int rc;

	if ((rc = dom_site_get(d, org_id, site_id, ROLE_ADMIN, true, out)) ||
	    (rc = site_customization_check(body, false)))
		return rc;
	if (!(text = json_dumps(body, JSON_COMPACT | JSON_PRESERVE_ORDER)))
		return err_set(ERR_INTERNAL, "out of memory");
	rc = store_site_set_customization(d->tx, out->id, text);
	free(text);
	return rc ? rc : written(d, out);
}

int dom_site_space_customization_get(struct dom *d, const char *org_id, const char *site_id, const char *site_space_id,
				     struct site *site, struct site_space *out)
{
	int rc = dom_site_get(d, org_id, site_id, ROLE_READ, false, site);

	return rc ? rc : store_site_space_by_id(d->tx, site->id, site_space_id, out);
}

int dom_site_space_customization_override(struct dom *d, const char *org_id, const char *site_id,
					  const char *site_space_id, json_t *patch, struct site *site,
					  struct site_space *out)
{
	char *text = NULL;
	bool changed;
	int rc;

	if ((rc = dom_site_get(d, org_id, site_id, ROLE_ADMIN, true, site)) ||
	    (rc = store_site_space_by_id(d->tx, site->id, site_space_id, out)) ||
	    (rc = site_customization_check(patch, true)) ||
	    (rc = site_customization_override(out->customization, patch, &text)))
		return rc;
	rc = store_site_space_set_customization(d->tx, site->id, out->id, text, &changed);
	if (rc == 0)
		out->customization = arena_strdup(d->arena, text);
	free(text);
	return rc ? rc : written(d, site);
}

int dom_site_space_customization_delete(struct dom *d, const char *org_id, const char *site_id,
					const char *site_space_id, bool *deleted)
{
	struct site s;
	struct site_space ss;
	int rc;

	*deleted = false;
	if ((rc = dom_site_get(d, org_id, site_id, ROLE_ADMIN, true, &s)) ||
	    (rc = store_site_space_by_id(d->tx, s.id, site_space_id, &ss)) ||
	    (rc = store_site_space_set_customization(d->tx, s.id, ss.id, NULL, deleted)))
		return rc;
	return *deleted ? store_site_bump(d->tx, s.id) : 0;
}

/* ---- share links ---- */

int dom_site_share_links_list(struct dom *d, const char *org_id, const char *site_id, const struct list_req *lr,
			      struct site *site, struct site_share_link **items, int *n, char **next)
{
	int rc = dom_site_get(d, org_id, site_id, ROLE_ADMIN, false, site);

	return rc ? rc : store_site_share_links_list(d->tx, site->id, lr, items, n, next);
}

int dom_site_share_link_create(struct dom *d, const char *org_id, const char *site_id, const char *name,
			       struct site *site, struct site_share_link *out)
{
	int rc;

	if ((rc = dom_site_get(d, org_id, site_id, ROLE_ADMIN, true, site)))
		return rc;
	memset(out, 0, sizeof(*out));
	out->site_id = site->id;
	out->name = name;
	if ((rc = store_site_share_link_create(d->tx, out)) || (rc = store_site_bump(d->tx, site->id)))
		return rc;
	return store_site_share_link_get(d->tx, site->id, out->id, out);
}

int dom_site_share_link_update(struct dom *d, const char *org_id, const char *site_id, const char *link_id,
			       const char *name, bool has_active, bool active, struct site *site,
			       struct site_share_link *out)
{
	int rc;

	if ((rc = dom_site_get(d, org_id, site_id, ROLE_ADMIN, true, site)) ||
	    (rc = store_site_share_link_get(d->tx, site->id, link_id, out)))
		return rc;
	if (name)
		out->name = name;
	if (has_active)
		out->active = active;
	if ((rc = store_site_share_link_update(d->tx, out)) || (rc = store_site_bump(d->tx, site->id)))
		return rc;
	return store_site_share_link_get(d->tx, site->id, out->id, out);
}

int dom_site_share_link_delete(struct dom *d, const char *org_id, const char *site_id, const char *link_id,
			       bool *deleted)
{
	struct site s;
	int rc;

	*deleted = false;
	if ((rc = dom_site_get(d, org_id, site_id, ROLE_ADMIN, true, &s)) ||
	    (rc = store_site_share_link_delete(d->tx, s.id, link_id, deleted)))
		return rc;
	return *deleted ? store_site_bump(d->tx, s.id) : 0;
}

int dom_site_share_link_by_key(struct dom *d, const struct site *s, const char *key, struct site_share_link *out)
{
	if (!key || !*key)
		return err_set(ERR_NOT_FOUND, "share link not found");
	return store_site_share_link_by_key(d->tx, s->id, key, out);
}

/* ---- adaptive schema ---- */

int dom_site_adaptive_schema_get(struct dom *d, const char *org_id, const char *site_id, struct site *out)
{
	int rc = dom_site_get(d, org_id, site_id, ROLE_READ, false, out);

	if (rc == 0 && !out->adaptive_schema)
		return err_set(ERR_NOT_FOUND, "No visitor attributes schema found for the site.");
	return rc;
}

int dom_site_adaptive_schema_set(struct dom *d, const char *org_id, const char *site_id, const json_t *schema,
				 struct site *out)
{
	char *text;
	int rc;

	if ((rc = dom_site_get(d, org_id, site_id, ROLE_ADMIN, true, out)) || (rc = adaptive_schema_check(schema)))
		return rc;
	if (!(text = json_dumps(schema, JSON_COMPACT | JSON_PRESERVE_ORDER)))
		return err_set(ERR_INTERNAL, "out of memory");
	rc = store_site_set_adaptive_schema(d->tx, out->id, text, clock_now_ms());
	free(text);
	return rc ? rc : written(d, out);
}

int dom_site_adaptive_template_conditions(struct dom *d, const char *org_id, const char *site_id,
					  struct template_condition **out, int *n)
{
	struct site s;
	json_t *schema;
	int rc;

	*out = NULL;
	*n = 0;
	if ((rc = dom_site_get(d, org_id, site_id, ROLE_READ, false, &s)) || !s.adaptive_schema)
		return rc;
	if (!(schema = json_loads(s.adaptive_schema, 0, NULL)))
		return err_set(ERR_INTERNAL, "site %s: stored adaptive schema is not JSON", s.id);
	rc = adaptive_template_conditions(d->arena, schema, out, n);
	json_decref(schema);
	return rc;
}

/* ---- publishing auth ---- */

int dom_site_publishing_auth_get(struct dom *d, const char *org_id, const char *site_id,
				 struct site_publishing_auth *out)
{
	struct site s;
	int rc = dom_site_get(d, org_id, site_id, ROLE_ADMIN, false, &s);

	return rc ? rc : store_site_publishing_auth(d->tx, s.id, out);
}

static int auth_write(struct dom *d, const char *org_id, const char *site_id, const char *backend, bool has_fallback,
		      const char *fallback_url, bool new_key, struct site_publishing_auth *out)
{
	char k1[ID_LEN + 1], k2[ID_LEN + 1];
	struct site s;
	int rc;

	if ((rc = dom_site_get(d, org_id, site_id, ROLE_ADMIN, true, &s)) ||
	    (rc = store_site_publishing_auth(d->tx, s.id, out)))
		return rc;
	if (backend)
		out->backend = backend;
	if (has_fallback)
		out->fallback_url = fallback_url;
	out->private_key = NULL;
	if (new_key) {
		if (id_new(k1) || id_new(k2))
			return err_set(ERR_INTERNAL, "getrandom failed");
		out->private_key = arena_printf(d->arena, "%s%s", k1, k2);
	}
	if ((rc = store_site_set_publishing_auth(d->tx, s.id, out)) || (rc = store_site_bump(d->tx, s.id)))
		return rc;
	return store_site_publishing_auth(d->tx, s.id, out);
}

int dom_site_publishing_auth_update(struct dom *d, const char *org_id, const char *site_id, const char *backend,
				    bool has_fallback, const char *fallback_url, struct site_publishing_auth *out)
{
	return auth_write(d, org_id, site_id, backend, has_fallback, fallback_url, false, out);
}

int dom_site_publishing_auth_regenerate(struct dom *d, const char *org_id, const char *site_id,
					struct site_publishing_auth *out)
{
	return auth_write(d, org_id, site_id, NULL, false, NULL, true, out);
}
