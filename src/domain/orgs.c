/*
 * orgs.c - organizations: create, read, settings, the lists of them, and inviting users by email
 * (domain/orgs.h).
 */
#include "domain/orgs.h"
#include "domain/integrations.h"
#include "json/jsonw.h"
#include "model/validate.h"
#include "util/err.h"
#include "util/util.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* The actor's standing in organization o (lists): dom_enter_org's, so that
 * an integration principal's is the rule's (domain/access.c), never the
 * membership an admin may have given its user. */
static int standing(struct dom *d, const struct org *o, struct membership *out)
{
	int rc;

	if (!d->actor.user_id) {
		*out = (struct membership){ .role = ROLE_ADMIN, .org_default = o->default_role };
		return 0;
	}
	if ((rc = dom_enter_org(d, o->id)))
		return rc;
	*out = d->actor.org;
	return 0;
}

/* Each organization of orgs[0..n) with the actor's standing in it, in the arena. */
static int with_standing(struct dom *d, const struct org *orgs, int n, struct dom_org **items)
{
	int rc;

	*items = arena_alloc(d->arena, sizeof(**items) * (size_t)(n ? n : 1));
	for (int i = 0; i < n; i++) {
		(*items)[i].org = orgs[i];
		if ((rc = standing(d, &orgs[i], &(*items)[i].actor)))
			return rc;
	}
	return 0;
}

/* listOrganizationsForAuthenticatedUser for an integration principal: an
 * integration token stands in no organization (none); an installation token
 * in its installation's, while it is active (that one). */
static int integration_orgs(struct dom *d, const struct list_req *lr, struct dom_org **items, int *n)
{
	struct integration_installation in;
	struct org o;
	int rc = 0;

	memset(&o, 0, sizeof(o));
	*n = 0;
	if (d->actor.installation_id && !lr->after) {
		rc = store_installation_get(d->tx, NULL, d->actor.installation_id, &in);
		if (rc == 0 && strcmp(in.status, "active") == 0 && (rc = store_org_get(d->tx, in.org_id, &o)) == 0)
			*n = 1;
		if (rc == ERR_NOT_FOUND)
			rc = 0;
		if (rc)
			return rc;
	}
	if (lr->total)
		*lr->total = *n;
	return with_standing(d, &o, *n, items);
}

/* Read org_id again after a change, with the actor's standing. */
static int org_fresh(struct dom *d, const char *org_id, struct dom_org *out)
{
	int rc = store_org_get(d->tx, org_id, &out->org);

	if (rc || (rc = dom_enter_org(d, org_id)))
		return rc;
	out->actor = d->actor.org;
	return 0;
}

/* Organization.emailDomains, ["a.com", ...]: the text the organization's row
 * keeps (org.email_domains) and org_to_json writes back as it is. */
static void email_domains_to_json(struct jw *g, const char *const *domains, int n)
{
	jw_arr_open(g);
	for (int i = 0; i < n; i++)
		jw_str(g, domains[i]);
	jw_arr_close(g);
}

/* The request's email domains, lower-cased and checked: *list (in the arena)
 * and *json, the text the organization's row keeps. */
static int email_domains(struct dom *d, const struct org_input *in, const char ***list, const char **json)
{
	const char **domains = arena_alloc(d->arena, sizeof(*domains) * (size_t)(in->n_email_domains ? in->n_email_domains : 1));
	struct jw w;

	for (int i = 0; i < in->n_email_domains; i++) {
		char *lower = arena_strdup(d->arena, in->email_domains[i] ? in->email_domains[i] : "");
		for (char *c = lower; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		if (!valid_domain(lower))
			return err_set(ERR_INVALID, "emailDomains[%d]: '%s' is not a valid domain", i,
				       in->email_domains[i] ? in->email_domains[i] : "");
		domains[i] = lower;
	}
	jw_init(&w);
	email_domains_to_json(&w, domains, in->n_email_domains);
	*json = jw_take(&w, d->arena, NULL);
	if (!*json)
		return err_set(ERR_INTERNAL, "out of memory");
	*list = domains;
	return 0;
}

int dom_org_create(struct dom *d, const struct org_input *in, struct dom_org *out)
{
	struct org o = { .title = in->title, .email_domains = "[]", .default_role = ROLE_READ };
	const char *owner = d->actor.user_id, **domains = NULL;
	struct user u;
	int rc;

	if (!owner) {
		/* docsd itself (the CLI) names the user who will administer it. */
		if (!in->owner_id)
			return err_set(ERR_INVALID, "owner: an organization needs a user as its first admin");
		if ((rc = store_user_get(d->tx, in->owner_id, &u)))
			return rc == ERR_NOT_FOUND ? err_set(ERR_INVALID, "owner: no user '%s'", in->owner_id) : rc;
		owner = in->owner_id;
	} else if ((rc = dom_member_check(d))) {
		/* The integration's user would be the admin of an organization
		 * of its own, outside everything the rule confines it to. */
		return rc;
	} else if (in->owner_id && strcmp(in->owner_id, owner) != 0) {
		return err_set(ERR_FORBIDDEN, "an organization's creator is its first admin");
	}
	if (!o.title)
		return err_set(ERR_INVALID, "title: is required");
	if (in->has_email_domains && (rc = email_domains(d, in, &domains, &o.email_domains)))
		return rc;
	if ((rc = store_org_create(d->tx, &o, owner)) ||
	    (in->has_email_domains && in->n_email_domains &&
	     (rc = store_org_set_email_domains(d->tx, o.id, domains, in->n_email_domains))))
		return rc;
	return org_fresh(d, o.id, out);
}

int dom_org_get(struct dom *d, const char *org_id, struct dom_org *out)
{
	int rc = dom_org_require(d, org_id, ORG_ACCESS_VIEW);

	return rc ? rc : org_fresh(d, org_id, out);
}

int dom_org_update(struct dom *d, const char *org_id, const struct org_input *in, struct dom_org *out)
{
	const char **domains = NULL;
	struct org o;
	int rc;

	/* Settings are written back whole: read the row locked (PostgreSQL) so
	 * that two PATCHes at once cannot lose one another's fields. */
	if ((rc = dom_org_require(d, org_id, ORG_ACCESS_ADMIN)) || (rc = store_org_get_locked(d->tx, org_id, &o)))
		return rc;
	if (in->title)
		o.title = in->title;
	if (in->has_email_domains && (rc = email_domains(d, in, &domains, &o.email_domains)))
		return rc;
	if (in->hostname) {
		if (!valid_hostname(in->hostname))
			return err_set(ERR_INVALID, "hostname: only lower-case letters, digits and '-' (not at either end)");
		if ((rc = store_org_hostname_check(d->tx, in->hostname, o.id)))
			return rc;
		o.hostname = in->hostname;
	}
	if (in->has_default_role) {
		if (in->default_role < ROLE_GUEST || in->default_role > ROLE_ADMIN)
			return err_set(ERR_INVALID, "defaultRole: must be a role or null");
		o.default_role = in->default_role;
	}
	if (in->has_default_content) {
		/* The default content is a site of this organization (or null). */
		if (in->default_site) {
			struct site site;

			rc = store_site_get(d->tx, in->default_site, &site);
			if (rc && rc != ERR_NOT_FOUND)
				return rc;
			if (rc || strcmp(site.org_id, o.id) != 0)
				return err_set(ERR_INVALID, "defaultContent: site '%s' does not exist in this organization",
					       in->default_site);
		}
		o.default_site = in->default_site;
	}
	if (in->has_logo) {
		if (in->logo && !valid_url(in->logo))
			return err_set(ERR_INVALID, "logo: must be an absolute http or https URL");
		o.logo = in->logo;
	}
	if (in->has_sso)
		o.sso = in->sso;
	if (in->has_ai)
		o.ai = in->ai;
	if (in->has_invite_links)
		o.invite_links = in->invite_links;
	if (in->merge_rules)
		o.merge_rules = in->merge_rules;
	if ((rc = store_org_update(d->tx, &o)) ||
	    (in->has_email_domains && (rc = store_org_set_email_domains(d->tx, o.id, domains, in->n_email_domains))))
		return rc;
	return org_fresh(d, o.id, out);
}

int dom_orgs_list(struct dom *d, const struct list_req *lr, struct dom_org **items, int *n, char **next)
{
	struct org *orgs;
	int rc;

	*n = 0;
	*next = NULL;
	if (!d->actor.user_id)
		return with_standing(d, NULL, 0, items);
	if (dom_actor_is_integration(d))
		return integration_orgs(d, lr, items, n);
	if ((rc = store_orgs_for_user(d->tx, d->actor.user_id, lr, &orgs, n, next)))
		return rc;
	return with_standing(d, orgs, *n, items);
}

int dom_orgs_by_email_domain(struct dom *d, const char *domain, struct dom_org **items, int *n)
{
	struct org *orgs = NULL;
	const char *at = NULL;
	struct user me;
	char *lower;
	int rc;

	*n = 0;
	/* A path segment that is no domain name (empty after a %00, "..",
	 * a decoded "/") is the caller's mistake, not an empty answer. */
	if (!domain || !valid_domain(domain))
		return err_set(ERR_INVALID, "emailDomain: not a domain name");
	/* The organizations the actor could join: an integration joins none. */
	if (dom_actor_is_integration(d))
		return with_standing(d, NULL, 0, items);
	if (d->actor.user_id) {
		if ((rc = store_user_get(d->tx, d->actor.user_id, &me)))
			return rc;
		/* Only the organizations the actor could join with their own address. */
		at = me.email ? strrchr(me.email, '@') : NULL;
		if (!at || strcasecmp(at + 1, domain) != 0)
			return with_standing(d, NULL, 0, items);
	}
	lower = arena_strdup(d->arena, domain);
	for (char *c = lower; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	if ((rc = store_orgs_by_email_domain(d->tx, lower, &orgs, n)))
		return rc;
	return with_standing(d, orgs, *n, items);
}

/* ---- inviting users ---- */

/* The user with this email, created (named after the part before '@') when
 * no account has it. */
static int user_for_email(struct dom *d, const char *email, struct user *out)
{
	int rc = store_user_get_by_email(d->tx, email, out);
	char *name;

	if (rc != ERR_NOT_FOUND)
		return rc;
	name = arena_strndup(d->arena, email, (size_t)(strchr(email, '@') - email));
	return store_user_create(d->tx, email, name, out);
}

static bool is_role(enum role r)
{
	return r >= ROLE_GUEST && r <= ROLE_ADMIN;
}

int dom_org_invite_users(struct dom *d, const char *org_id, const struct org_invite_input *in,
			 const char ***added, int *nadded)
{
	enum role role;
	struct org o;
	int rc;

	*nadded = 0;
	if ((rc = dom_org_require(d, org_id, ORG_ACCESS_ADMIN)) || (rc = store_org_get(d->tx, org_id, &o)))
		return rc;
	if (in->n < 1 || in->n > 1000)
		return err_set(ERR_INVALID, "emails: must be an array of 1 to 1000 entries");
	if (in->has_role && !is_role(in->role))
		return err_set(ERR_INVALID, "role: must be a role or null");
	/* Members invited without a role join with the organization's defaultRole. */
	role = in->has_role ? in->role : o.default_role;
	/* Every address is checked before anyone is added. */
	for (int i = 0; i < in->n; i++) {
		const struct org_invitee *e = &in->emails[i];
		if (!e->email || !valid_email(e->email))
			return err_set(ERR_INVALID, "emails[%d]: '%s' is not a valid email address", i,
				       e->email ? e->email : "");
		if (e->has_role && !is_role(e->role))
			return err_set(ERR_INVALID, "emails[%d].role: must be a role or null", i);
	}
	*added = arena_alloc(d->arena, sizeof(**added) * (size_t)in->n);
	for (int i = 0; i < in->n; i++) {
		const struct org_invitee *e = &in->emails[i];
		struct user u;
		bool was_added;

		if ((rc = user_for_email(d, e->email, &u)) ||
		    (rc = store_member_add(d->tx, org_id, u.id, e->has_role ? e->role : role, in->sso, &was_added)))
			return rc;
		if (was_added)
			(*added)[(*nadded)++] = u.id;
	}
	return 0;
}
