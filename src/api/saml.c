/*
 * saml.c - an organization's SAML identity providers (admins manage them) and
 * the list of providers its members may sign in with (any member).
 *
 * Each handler parses the request, calls one domain function
 * (domain/orgs.h, domain/saml.c: the access checks, defaults and the checks
 * of each value) and serializes. entityID, certificate and ssoURL may be sent
 * as "" or null to unset them (and ssoURL as about:blank, which is how an
 * unset ssoURL is written, the schema wanting a URI), so a provider read back
 * and sent again unchanged is accepted.
 */
#include "api/api.h"
#include "json/serialize_meta.h"
#include "domain/orgs.h"

#include <string.h>

/* body_string for a field that "" or null unsets (*out = NULL); 1 when present. */
static int body_unsettable(struct req *r, const char *field, long maxlen, const char **out)
{
	int rc = body_string(r, field, F_NULLABLE, 0, maxlen, out);

	if (rc == 1 && *out && !**out)
		*out = NULL;
	return rc;
}

/* The fields a create (create: true) or an update sets. */
static int body_provider(struct req *r, bool create, struct saml_input *in)
{
	int rc;

	memset(in, 0, sizeof(*in));
	if ((rc = body_string(r, "label", create ? F_REQUIRED : 0, 1, 30, &in->label)) < 0 ||
	    (rc = body_unsettable(r, "entityID", 1024, &in->entity_id)) < 0)
		return rc;
	in->has_entity_id = rc == 1;
	if ((rc = body_unsettable(r, "certificate", 10000, &in->certificate)) < 0)
		return rc;
	in->has_certificate = rc == 1;
	if ((rc = body_unsettable(r, "ssoURL", 2048, &in->sso_url)) < 0)
		return rc;
	in->has_sso_url = rc == 1;
	if (in->sso_url && strcmp(in->sso_url, SAML_NO_SSO_URL) == 0)
		in->sso_url = NULL;
	if ((rc = body_string(r, "defaultTeam", F_NULLABLE, 1, 64, &in->default_team)) < 0)
		return rc;
	in->has_default_team = rc == 1;
	if ((rc = body_role(r, "defaultRole", F_NULLABLE, &in->default_role)) < 0)
		return rc;
	in->has_default_role = rc == 1;
	return 0;
}

static int send_provider(struct req *r, int status, const struct saml_provider *sp)
{
	struct jw *g = resp_json(r, status);

	saml_provider_to_json(g, api_base(r), sp, r->dom.actor.org.role);
	return 0;
}

int api_saml_list(struct req *r)
{
	struct list_req lr;
	int64_t total;
	struct cursor cur;
	struct saml_provider *items;
	char *next;
	struct jw *g;
	int n, rc;

	if ((rc = req_list_total(r, &lr, &cur, NULL, 0, &total)) ||
	    (rc = dom_saml_list(&r->dom, req_param(r, "organizationId"), &lr, &items, &n, &next)))
		return rc;
	g = resp_list_begin(r);
	for (int i = 0; i < n; i++)
		saml_provider_to_json(g, api_base(r), &items[i], r->dom.actor.org.role);
	return resp_list_end(r, total, next);
}

int api_saml_create(struct req *r)
{
	struct saml_input in;
	struct saml_provider sp;
	const char *loc;
	int rc;

	if ((rc = body_provider(r, true, &in)) ||
	    (rc = dom_saml_create(&r->dom, req_param(r, "organizationId"), &in, &sp)))
		return rc;
	loc = arena_printf(&r->arena, "%s/v1/orgs/%s/saml/%s", api_base(r), sp.org_id, sp.id);
	if ((rc = resp_header(r, "Location", loc)))
		return rc;
	return send_provider(r, 201, &sp);
}

int api_saml_get(struct req *r)
{
	struct saml_provider sp;
	int rc = dom_saml_get(&r->dom, req_param(r, "organizationId"), req_param(r, "samlProviderId"), &sp);

	return rc ? rc : send_provider(r, 200, &sp);
}

int api_saml_update(struct req *r)
{
	struct saml_input in;
	struct saml_provider sp;
	int rc;

	if ((rc = body_provider(r, false, &in)) ||
	    (rc = dom_saml_update(&r->dom, req_param(r, "organizationId"), req_param(r, "samlProviderId"), &in, &sp)))
		return rc;
	return send_provider(r, 200, &sp);
}

int api_saml_delete(struct req *r)
{
	bool removed;
	int rc = dom_saml_delete(&r->dom, req_param(r, "organizationId"), req_param(r, "samlProviderId"), &removed);

	if (rc)
		return rc;
	/* GitBook: 205 when the provider was deleted, 204 when it did not exist. */
	return resp_empty(r, removed ? 205 : 204);
}

int api_sso_logins(struct req *r)
{
	struct saml_provider *items;
	struct jw *g;
	int n, rc;

	/* {items} with no pagination: every provider, oldest first. */
	if ((rc = dom_sso_logins(&r->dom, req_param(r, "organizationId"), &items, &n)))
		return rc;
	g = resp_json(r, 200);
	wrapped_list_open(g, "items");
	for (int i = 0; i < n; i++)
		saml_login_to_json(g, api_base(r), &items[i]);
	wrapped_list_close(g);
	return 0;
}
