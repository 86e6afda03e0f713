/*
 * sites.c - docs sites: create, read, update, delete, publish, and the
 * settings hanging off a site (customization, share links, adaptive schema).
 *
 * Each handler parses the request, calls one domain function
 * (domain/sites.h) and serializes (core/serialize_sites.h).
 */
#include "api/api.h"
#include "core/serialize_sites.h"
#include "domain/sites.h"

#include <string.h>

static const char *const site_types[] = { "basic", "premium", "ultimate", "sponsored", "legacy-basic",
					  "legacy-premium", NULL };
static const char *const site_visibilities[] = { "public", "unlisted", "share-link", "visitor-auth", NULL };

static int send_site(struct req *r, int status, const struct site *s)
{
	struct jw *g = resp_json(r, status);

	if (!g)
		return err_set(ERR_INTERNAL, "out of memory");
	site_to_json(g, api_base(r), s);
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

int site_create(struct req *r)
{
	struct site_input in;
	struct site s;
	int rc;

	memset(&in, 0, sizeof(in));
	if ((rc = body_enum(r, "type", site_types, &in.type)) < 0 ||
	    (rc = body_string(r, "title", 0, 2, 128, &in.title)) < 0 ||
	    (rc = body_enum(r, "visibility", site_visibilities, &in.visibility)) < 0)
		return rc;
	if ((rc = dom_site_create(&r->dom, req_param(r, "organizationId"), &in, &s)))
		return rc;
	return send_site(r, 201, &s);
}

int site_get(struct req *r)
{
	struct site s;
	int rc = dom_site_get(&r->dom, req_param(r, "organizationId"), req_param(r, "siteId"), ROLE_READ, false, &s);

	return rc ? rc : send_site(r, 200, &s);
}
