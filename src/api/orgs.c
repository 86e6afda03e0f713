/*
 * orgs.c - organizations: list, create, get, update, by email domain, and
 * inviting users by email.
 *
 * Each handler parses the request, calls one domain function
 * (domain/orgs.h: the access checks and the rules) and serializes.
 */
#include "api/api.h"
#include "json/serialize_meta.h"
#include "domain/orgs.h"

#include <stdlib.h>
#include <string.h>

static int send_org(struct req *r, int status, const struct dom_org *o)
{
	struct jw *g = resp_json(r, status);

	org_to_json(g, api_base(r), &o->org, &o->actor);
	return 0;
}

int api_org_list(struct req *r)
{
	struct list_req lr;
	int64_t total;
	struct cursor cur;
	struct dom_org *items;
	char *next;
	struct jw *g;
	int n, rc;

	if ((rc = req_list_total(r, &lr, &cur, NULL, 0, &total)) || (rc = dom_orgs_list(&r->dom, &lr, &items, &n, &next)))
		return rc;
	g = resp_list_begin(r);
	for (int i = 0; i < n; i++)
		org_to_json(g, api_base(r), &items[i].org, &items[i].actor);
	return resp_list_end(r, total, next);
}

/* The fields of an organization a create (create: true) or an update sets. */
static int body_org(struct req *r, bool create, struct org_input *in)
{
	const char **domains;
	json_t *dc;
	int rc, b;

	memset(in, 0, sizeof(*in));
	if ((rc = body_string(r, "title", create ? F_REQUIRED : 0, ORG_TITLE_MIN, ORG_TITLE_MAX, &in->title)) < 0 ||
	    (rc = body_string_array(r, "emailDomains", 0, ORG_DOMAINS_MAX, ORG_DOMAIN_MAX, &domains,
				     &in->n_email_domains)) < 0)
		return rc;
	in->has_email_domains = rc == 1;
	in->email_domains = domains;
	if (create)
		return 0;
	if ((rc = body_string(r, "hostname", 0, ORG_HOSTNAME_MIN, ORG_HOSTNAME_MAX, &in->hostname)) < 0 ||
	    (rc = body_role(r, "defaultRole", F_NULLABLE, &in->default_role)) < 0)
		return rc;
	in->has_default_role = rc == 1;
	dc = body_field(r, "defaultContent");
	if (dc && !json_is_null(dc)) {
		const char *type = json_is_object(dc) ? json_string_value(json_object_get(dc, "type")) : NULL;
		in->default_site = json_is_object(dc) ? json_string_value(json_object_get(dc, "site")) : NULL;
		if (!type || strcmp(type, "site") != 0 || !in->default_site)
			return err_set(ERR_INVALID, "defaultContent: must be {\"type\": \"site\", \"site\": <site id>} or null");
	}
	in->has_default_content = dc != NULL;
	if ((rc = body_string(r, "logo", F_NULLABLE, 0, ORG_LOGO_MAX, &in->logo)) < 0)
		return rc;
	in->has_logo = rc == 1;
	if ((rc = body_bool(r, "sso", 0, &b)) < 0)
		return rc;
	in->has_sso = rc == 1;
	in->sso = b;
	if ((rc = body_bool(r, "ai", 0, &b)) < 0)
		return rc;
	in->has_ai = rc == 1;
	in->ai = b;
	if ((rc = body_bool(r, "inviteLinks", 0, &b)) < 0)
		return rc;
	in->has_invite_links = rc == 1;
	in->invite_links = b;
	if ((rc = api_body_merge_rules(r, false, &in->merge_rules)) < 0)
		return rc;
	return 0;
}

int api_org_create(struct req *r)
{
	struct org_input in;
	struct dom_org o;
	const char *loc;
	int rc;

	if ((rc = body_org(r, true, &in)) || (rc = dom_org_create(&r->dom, &in, &o)))
		return rc;
	loc = arena_printf(&r->arena, "%s/v1/orgs/%s", api_base(r), o.org.id);
	if ((rc = resp_header(r, "Location", loc)))
		return rc;
	return send_org(r, 201, &o);
}

int api_org_get(struct req *r)
{
	struct dom_org o;
	int rc = dom_org_get(&r->dom, req_param(r, "organizationId"), &o);

	return rc ? rc : send_org(r, 200, &o);
}

int api_body_merge_rules(struct req *r, bool allow_inherit, const char **out)
{
	static const char *const simple[] = {
		"require_at_least_one_review", "require_all_reviews_approved", "require_agent_review",
		"require_up_to_date_change_request", "require_change_request_subject",
		"require_change_request_description", NULL,
	};
	static const char *const with_users[] = {
		"require_specific_reviewers", "require_one_of_specific_reviewers", "allow_bypass", NULL,
	};
	json_t *v = body_field(r, "mergeRules"), *rules, *rule;
	const char *type;
	char *text;
	size_t i;

	if (!v)
		return 0;
	if (!json_is_object(v) || !json_is_string(json_object_get(v, "type")))
		return err_set(ERR_INVALID, "mergeRules: must be an object with a type");
	type = json_string_value(json_object_get(v, "type"));
	if (strcmp(type, "none") == 0) {
		*out = "{\"type\":\"none\"}";
		return 1;
	}
	if (allow_inherit && strcmp(type, "inherit") == 0) {
		*out = "{\"type\":\"inherit\"}";
		return 1;
	}
	if (strcmp(type, "rules") != 0)
		return err_set(ERR_INVALID, "mergeRules.type: must be %s'none' or 'rules'", allow_inherit ? "'inherit', " : "");
	rules = json_object_get(v, "rules");
	if (!json_is_array(rules) || json_array_size(rules) > 50)
		return err_set(ERR_INVALID, "mergeRules.rules: must be an array of at most 50 rules");
	json_array_foreach(rules, i, rule) {
		const char *name = json_is_object(rule) ? json_string_value(json_object_get(rule, "rule")) : NULL;
		int ok = 0;
		if (!name)
			return err_set(ERR_INVALID, "mergeRules.rules[%zu].rule: is required", i);
		for (int k = 0; simple[k]; k++)
			ok |= strcmp(name, simple[k]) == 0;
		for (int k = 0; with_users[k] && !ok; k++) {
			if (strcmp(name, with_users[k]) == 0) {
				json_t *users = json_object_get(rule, "users"), *u;
				size_t j;
				if (!json_is_array(users))
					return err_set(ERR_INVALID, "mergeRules.rules[%zu].users: must be an array", i);
				json_array_foreach(users, j, u) if (!json_is_string(u))
					return err_set(ERR_INVALID, "mergeRules.rules[%zu].users[%zu]: must be a string", i, j);
				ok = 1;
			}
		}
		if (!ok && strcmp(name, "custom") == 0) {
			json_t *e = json_object_get(rule, "expression");
			if (!json_is_string(e) || json_string_length(e) > 1024)
				return err_set(ERR_INVALID, "mergeRules.rules[%zu].expression: must be a string of at most 1024 characters", i);
			ok = 1;
		}
		if (!ok)
			return err_set(ERR_INVALID, "mergeRules.rules[%zu].rule: unknown rule '%s'", i, name);
	}
	text = json_dumps(v, JSON_COMPACT);
	if (!text)
		return err_set(ERR_INTERNAL, "out of memory");
	*out = arena_strdup(&r->arena, text);
	free(text);
	return 1;
}

int api_org_update(struct req *r)
{
	struct org_input in;
	struct dom_org o;
	int rc;

	if ((rc = body_org(r, false, &in)) || (rc = dom_org_update(&r->dom, req_param(r, "organizationId"), &in, &o)))
		return rc;
	return send_org(r, 200, &o);
}

int api_org_by_email_domain(struct req *r)
{
	struct dom_org *items;
	struct jw *g;
	int n, rc;

	if ((rc = dom_orgs_by_email_domain(&r->dom, req_param(r, "emailDomain"), &items, &n)))
		return rc;
	g = resp_json(r, 200);
	wrapped_list_open(g, "organizations");
	for (int i = 0; i < n; i++)
		org_to_json(g, api_base(r), &items[i].org, &items[i].actor);
	wrapped_list_close(g);
	return 0;
}

/* emails: ["a@b.c", {"email": "d@e.f", "role": "edit" | null}, ...] */
static int body_invitees(struct req *r, struct org_invitee **out, int *n)
{
	json_t *emails = body_field(r, "emails"), *item;
	struct org_invitee *list;
	size_t i;

	if (!emails)
		return err_set(ERR_INVALID, "emails: is required");
	if (!json_is_array(emails) || json_array_size(emails) == 0 || json_array_size(emails) > 1000)
		return err_set(ERR_INVALID, "emails: must be an array of 1 to 1000 entries");
	list = arena_alloc(&r->arena, sizeof(*list) * json_array_size(emails));
	json_array_foreach(emails, i, item) {
		struct org_invitee *e = &list[i];
		memset(e, 0, sizeof(*e));
		if (json_is_string(item)) {
			e->email = json_string_value(item);
		} else if (json_is_object(item) && json_is_string(json_object_get(item, "email"))) {
			json_t *jr = json_object_get(item, "role");
			e->email = json_string_value(json_object_get(item, "email"));
			if (jr && !(json_is_null(jr) || (json_is_string(jr) && role_parse(json_string_value(jr)) != ROLE_NONE)))
				return err_set(ERR_INVALID, "emails[%zu].role: must be a role or null", i);
			/* Without one: the request's role, else the organization's defaultRole. */
			e->has_role = jr != NULL;
			if (jr)
				e->role = json_is_null(jr) ? ROLE_GUEST : role_parse(json_string_value(jr));
		} else {
			return err_set(ERR_INVALID, "emails[%zu]: must be an email or {email, role}", i);
		}
	}
	*out = list;
	*n = (int)json_array_size(emails);
	return 0;
}

int api_org_invite_users(struct req *r)
{
	struct org_invite_input in = { 0 };
	struct org_invitee *emails = NULL;
	const char **added = NULL;
	int sso = 0, nadded, rc;
	struct jw *g;

	if ((rc = body_invitees(r, &emails, &in.n)))
		return rc;
	in.emails = emails;
	if ((rc = body_role(r, "role", F_NULLABLE, &in.role)) < 0)
		return rc;
	in.has_role = rc == 1;
	if ((rc = body_bool(r, "sso", 0, &sso)) < 0)
		return rc;
	in.sso = sso;
	if ((rc = dom_org_invite_users(&r->dom, req_param(r, "organizationId"), &in, &added, &nadded)))
		return rc;
	g = resp_json(r, 200);
	invited_to_json(g, added, nadded);
	return 0;
}
