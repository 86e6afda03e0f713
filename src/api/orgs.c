/*
 * orgs.c - organizations: list, create, get, update, by email domain, and
 * inviting users by email.
 */
#include "api/api.h"
#include "core/serialize_meta.h"
#include "core/validate.h"
#include "util/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int api_send_org(struct req *r, int status, const struct org *o)
{
	struct jw *g = resp_json(r, status);

	if (!g)
		return err_set(ERR_INTERNAL, "out of memory");
	org_to_json(g, api_base(r), o, &r->dom.actor.org);
	return 0;
}

/* Serialize orgs for the caller, looking up the caller's standing in each. */
static int send_org_items(struct req *r, struct jw *g, const struct org *items, int n)
{
	for (int i = 0; i < n; i++) {
		struct membership m;
		int rc = store_membership(&r->tx, items[i].id, r->caller_id, &m);
		if (rc)
			return rc;
		org_to_json(g, api_base(r), &items[i], &m);
	}
	return 0;
}

int org_list(struct req *r)
{
	struct list_req lr;
	struct cursor cur;
	struct org *items;
	char *next;
	struct jw *g;
	int n, rc;

	if ((rc = req_list(r, &lr, &cur, NULL, 0)))
		return rc;
	if ((rc = store_orgs_for_user(&r->tx, r->caller_id, &lr, &items, &n, &next)))
		return rc;
	if (!(g = resp_list_begin(r)))
		return err_set(ERR_INTERNAL, "out of memory");
	if ((rc = send_org_items(r, g, items, n)))
		return rc;
	return resp_list_end(r, n, next);
}

/* Validate `emailDomains` and return it as compact JSON text plus the list. */
static int read_email_domains(struct req *r, const char **json_out, const char ***list, int *n)
{
	const char **domains;
	json_t *arr;
	char *text;
	int rc = body_string_array(r, "emailDomains", 0, 100, 253, &domains, n);

	if (rc <= 0)
		return rc;
	arr = json_array();
	if (!arr)
		return err_set(ERR_INTERNAL, "out of memory");
	for (int i = 0; i < *n; i++) {
		char *d = arena_strdup(&r->arena, domains[i]);
		if (!d) {
			json_decref(arr);
			return err_set(ERR_INTERNAL, "out of memory");
		}
		for (char *c = d; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		if (!valid_domain(d)) {
			json_decref(arr);
			return err_set(ERR_INVALID, "emailDomains[%d]: '%s' is not a valid domain", i, domains[i]);
		}
		domains[i] = d;
		json_array_append_new(arr, json_string(d));
	}
	text = json_dumps(arr, JSON_COMPACT);
	json_decref(arr);
	if (!text)
		return err_set(ERR_INTERNAL, "out of memory");
	*json_out = arena_strdup(&r->arena, text);
	free(text);
	if (!*json_out)
		return err_set(ERR_INTERNAL, "out of memory");
	*list = domains;
	return 1;
}

int org_create(struct req *r)
{
	struct org o = { 0 };
	const char **domains = NULL;
	const char *loc;
	int n = 0, rc;

	if ((rc = body_string(r, "title", F_REQUIRED, 2, 255, &o.title)) < 0)
		return rc;
	o.email_domains = "[]";
	if ((rc = read_email_domains(r, &o.email_domains, &domains, &n)) < 0)
		return rc;
	o.default_role = ROLE_READ;
	if ((rc = store_org_create(&r->tx, &o, r->caller_id)))
		return rc;
	if (n && (rc = store_org_set_email_domains(&r->tx, o.id, domains, n)))
		return rc;
	r->dom.actor.org.role = ROLE_ADMIN;
	r->dom.actor.org.owns_team = 0;
	loc = arena_printf(&r->arena, "%s/v1/orgs/%s", api_base(r), o.id);
	if (!loc || (rc = resp_header(r, "Location", loc)))
		return loc ? rc : err_set(ERR_INTERNAL, "out of memory");
	return api_send_org(r, 201, &o);
}

int org_get(struct req *r)
{
	struct org o;
	int rc = store_org_get(&r->tx, r->dom.actor.org_id, &o);

	if (rc)
		return rc;
	return api_send_org(r, 200, &o);
}

int body_merge_rules(struct req *r, bool allow_inherit, const char **out)
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
	return *out ? 1 : err_set(ERR_INTERNAL, "out of memory");
}

int org_update(struct req *r)
{
	struct org o;
	const char **domains = NULL, *s;
	json_t *dc;
	int n = 0, rc, b;

	if ((rc = store_org_get(&r->tx, r->dom.actor.org_id, &o)))
		return rc;
	if ((rc = body_string(r, "title", 0, 2, 255, &s)) < 0)
		return rc;
	if (rc)
		o.title = s;
	if ((rc = read_email_domains(r, &o.email_domains, &domains, &n)) < 0)
		return rc;
	if (rc && (rc = store_org_set_email_domains(&r->tx, o.id, domains, n)))
		return rc;
	if ((rc = body_string(r, "hostname", 0, 3, 32, &s)) < 0)
		return rc;
	if (rc) {
		if (!valid_hostname(s))
			return err_set(ERR_INVALID, "hostname: only lower-case letters, digits and '-' (not at either end)");
		if ((rc = store_org_hostname_check(&r->tx, s, o.id)))
			return rc;
		o.hostname = s;
	}
	if ((rc = body_role(r, "defaultRole", F_NULLABLE, &o.default_role)) < 0)
		return rc;
	dc = body_field(r, "defaultContent");
	if (dc && json_is_null(dc)) {
		o.default_site = NULL;
	} else if (dc) {
		const char *type = json_is_object(dc) ? json_string_value(json_object_get(dc, "type")) : NULL;
		const char *site = json_is_object(dc) ? json_string_value(json_object_get(dc, "site")) : NULL;
		if (!type || strcmp(type, "site") != 0 || !site)
			return err_set(ERR_INVALID, "defaultContent: must be {\"type\": \"site\", \"site\": <site id>} or null");
		/* Sites arrive with the sites issue; until then no site id can exist. */
		return err_set(ERR_INVALID, "defaultContent: site '%s' does not exist in this organization", site);
	}
	if ((rc = body_string(r, "logo", F_NULLABLE, 0, 2048, &s)) < 0)
		return rc;
	if (rc) {
		if (s && !valid_url(s))
			return err_set(ERR_INVALID, "logo: must be an absolute http or https URL");
		o.logo = s;
	}
	if ((rc = body_bool(r, "sso", 0, &b)) < 0)
		return rc;
	if (rc)
		o.sso = b;
	if ((rc = body_bool(r, "ai", 0, &b)) < 0)
		return rc;
	if (rc)
		o.ai = b;
	if ((rc = body_bool(r, "inviteLinks", 0, &b)) < 0)
		return rc;
	if (rc)
		o.invite_links = b;
	if ((rc = body_merge_rules(r, false, &o.merge_rules)) < 0)
		return rc;
	if ((rc = store_org_update(&r->tx, &o)))
		return rc;
	if ((rc = store_org_get(&r->tx, o.id, &o)))
		return rc;
	return api_send_org(r, 200, &o);
}

int org_by_email_domain(struct req *r)
{
	const char *domain = req_param(r, "emailDomain"), *at;
	const struct user *me;
	struct org *items = NULL;
	struct jw *g;
	int n = 0, rc;

	if ((rc = req_caller(r, &me)))
		return rc;
	/* Only the organizations the caller could join with their own address. */
	at = me->email ? strrchr(me->email, '@') : NULL;
	if (at && strcasecmp(at + 1, domain) == 0) {
		char *d = arena_strdup(&r->arena, domain);
		if (!d)
			return err_set(ERR_INTERNAL, "out of memory");
		for (char *c = d; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		if ((rc = store_orgs_by_email_domain(&r->tx, d, &items, &n)))
			return rc;
	}
	if (!(g = resp_json(r, 200)))
		return err_set(ERR_INTERNAL, "out of memory");
	wrapped_list_open(g, "organizations");
	if ((rc = send_org_items(r, g, items, n)))
		return rc;
	wrapped_list_close(g);
	return 0;
}

int org_invite_users(struct req *r)
{
	json_t *emails = body_field(r, "emails"), *item;
	enum role role;
	struct org o;
	int sso = 0, rc, invited = 0;
	size_t i;
	const char **added;
	struct jw *g;

	if ((rc = store_org_get(&r->tx, r->dom.actor.org_id, &o)))
		return rc;
	/* Members invited without a role join with the organization's defaultRole. */
	role = o.default_role;
	if (!emails)
		return err_set(ERR_INVALID, "emails: is required");
	if (!json_is_array(emails) || json_array_size(emails) == 0 || json_array_size(emails) > 1000)
		return err_set(ERR_INVALID, "emails: must be an array of 1 to 1000 entries");
	if ((rc = body_role(r, "role", F_NULLABLE, &role)) < 0 || (rc = body_bool(r, "sso", 0, &sso)) < 0)
		return rc;
	added = arena_alloc(&r->arena, sizeof(char *) * json_array_size(emails));
	if (!added)
		return err_set(ERR_INTERNAL, "out of memory");
	json_array_foreach(emails, i, item) {
		const char *email;
		enum role this_role = role;
		struct user u;
		bool was_added;

		if (json_is_string(item)) {
			email = json_string_value(item);
		} else if (json_is_object(item) && json_is_string(json_object_get(item, "email"))) {
			json_t *jr = json_object_get(item, "role");
			email = json_string_value(json_object_get(item, "email"));
			if (jr && !(json_is_null(jr) || (json_is_string(jr) && role_parse(json_string_value(jr)) != ROLE_NONE)))
				return err_set(ERR_INVALID, "emails[%zu].role: must be a role or null", i);
			/* Without one: the request's role, else the organization's defaultRole. */
			if (jr)
				this_role = json_is_null(jr) ? ROLE_GUEST : role_parse(json_string_value(jr));
		} else {
			return err_set(ERR_INVALID, "emails[%zu]: must be an email or {email, role}", i);
		}
		if (!valid_email(email))
			return err_set(ERR_INVALID, "emails[%zu]: '%s' is not a valid email address", i, email);
		rc = store_user_get_by_email(&r->tx, email, &u);
		if (rc == ERR_NOT_FOUND) {
			const char *at = strchr(email, '@');
			char *name = arena_strndup(&r->arena, email, (size_t)(at - email));
			if (!name)
				return err_set(ERR_INTERNAL, "out of memory");
			rc = store_user_create(&r->tx, email, name, &u);
		}
		if (rc)
			return rc;
		if ((rc = store_member_add(&r->tx, o.id, u.id, this_role, sso, &was_added)))
			return rc;
		if (was_added)
			added[invited++] = u.id;
	}
	if (!(g = resp_json(r, 200)))
		return err_set(ERR_INTERNAL, "out of memory");
	invited_to_json(g, added, invited);
	return 0;
}
