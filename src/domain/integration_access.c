/*
 * integration_access.c - what an actor of each kind may do to an
 * integration's installations, and what integration principals get on a
 * space, a collection and a site (domain/integrations.h, "Access of
 * integration principals").
 *
 * DESIGN
 * The rule, written once. An integration token acts for the integration
 * across its installations, only for what GitBook documents for integration
 * tokens (listIntegrationInstallations, list{Space,Site}Installations,
 * createIntegrationInstallationToken, queueIntegrationTask, the events, the
 * installations' configuration and externalIds that the runtime's OAuth
 * helper writes); it has no standing in any organization (no content, no
 * membership, whatever grants its user was given). An installation token
 * acts inside its own installation, with its integration's scopes, on what
 * the admin selected, and nothing else: it never reads another
 * installation's rows, never changes its own selection or targets, never
 * mints tokens, never manages permissions, creates, deletes, restores,
 * moves or transfers spaces and collections, and on a collection it gets at
 * most read, and only when every space is the installation's (selection
 * "all"). Selections, targets and uninstalling are the admins' of the
 * installation's organization. Configuration (where admins put API keys)
 * is read by those admins, the installation's own token and the integration
 * token, and by nobody else: readers, guests, other installations and the
 * owning organization's admins get the object with `{}` for it.
 * * An integration's identity is never a member of anything: neither token
 * creates an organization, joins one with an invite link, pings one or
 * lists "its" spaces as a member (INTEG_OP_MEMBER, dom_member_check); what
 * an admin gives the integration's user (membership, grants, teams) stays
 * in the store, inert: no standing of an integration principal reads it
 * (domain/access.c), and it shares no organization with other users.
 * Sites: an installation token reads the sites the admin selected with
 * site:metadata:read (dom_installation_site_role), never more than read.
 * The `permissions` booleans read the same roles as the checks: the scopes
 * never give an installation token ACCESS_MANAGE (integration_scope_role);
 * space:metadata:write's settings are dom_space_settings_need's.
 *
 * The actor is classified against the object (integration, installation),
 * possibly into several kinds at once (an admin of both the owning and the
 * installing organization); the most permissive cell wins. Cells:
 *   A  allowed
 *   O  allowed on the actor's own installation's rows only (lists filter)
 *   F  403: the actor may know the object exists
 *   N  404: it may not
 */
#include "domain/integrations.h"
#include "util/err.h"

#include <jansson.h>
#include <string.h>

enum integ_actor {
	IA_DOCSD,        /* docsd itself: jobs, the CLI */
	IA_INTEGRATION,  /* this integration's integration token */
	IA_INSTALLATION, /* this installation's token (integration-wide: any of this integration's) */
	IA_FOREIGN,      /* a token of another integration, or of another installation */
	IA_ADMIN,        /* admin of the installation's organization */
	IA_OWNER,        /* admin of the organization that owns the integration */
	IA_MEMBER,       /* member with a role in the installation's organization */
	IA_GUEST,        /* guest there */
	IA_OUTSIDER,     /* any other user */
	IA_COUNT
};

/* The state table: actor kind x operation. Column order is enum integ_op's:
 *                MANAGE LIST EVENTS TASK READ CONFIG SET SELECT UNINSTALL TOKEN CONTENT MEMBER */
static const char RULES[IA_COUNT][INTEG_OP_COUNT + 1] = {
	[IA_DOCSD] = "AAAAAAAAAAAA",
	[IA_INTEGRATION] = "FAAAAAAFFAFF",
	[IA_INSTALLATION] = "FOFOAAAFFFFF",
	[IA_FOREIGN] = "FFFFNNNNNNFF",
	[IA_ADMIN] = "FFFFAAAAAAAA",
	[IA_OWNER] = "AAAAAFFFFFAA",
	[IA_MEMBER] = "FFFFAFFFFFAA",
	[IA_GUEST] = "FFFFAFFFFFAA",
	[IA_OUTSIDER] = "FFFFNNNNNNAA",
};

/* Most permissive first. */
static int rank(char c)
{
	return c == 'A' ? 3 : c == 'O' ? 2 : c == 'F' ? 1 : 0;
}

bool dom_actor_is_integration(const struct dom *d)
{
	return d->actor.user_id && (d->actor.integration_id || d->actor.installation_id);
}

/* The kinds the actor is, as a bit set of 1 << enum integ_actor. */
static int classify(struct dom *d, const struct integration *it, const struct integration_installation *in,
		    unsigned *kinds)
{
	const struct actor *a = &d->actor;
	int rc;

	*kinds = 0;
	if (!a->user_id) {
		*kinds = 1u << IA_DOCSD;
		return 0;
	}
	if (dom_actor_is_integration(d)) {
		bool mine = it && a->integration_id && strcmp(a->integration_id, it->id) == 0;
		if (!mine)
			*kinds = 1u << IA_FOREIGN;
		else if (!a->installation_id)
			*kinds = 1u << IA_INTEGRATION;
		else
			*kinds = 1u << (!in || strcmp(in->id, a->installation_id) == 0 ? IA_INSTALLATION : IA_FOREIGN);
		return 0;
	}
	if (it) {
		if ((rc = dom_enter_org(d, it->org_id)))
			return rc;
		if (a->org.role == ROLE_ADMIN)
			*kinds |= 1u << IA_OWNER;
	}
	if (in) {
		if ((rc = dom_enter_org(d, in->org_id)))
			return rc;
		*kinds |= 1u << (a->org.role == ROLE_ADMIN	? IA_ADMIN
				 : a->org.role >= ROLE_READ	? IA_MEMBER
				 : a->org.role == ROLE_GUEST ? IA_GUEST
							     : IA_OUTSIDER);
	} else if (!*kinds) {
		*kinds = 1u << IA_OUTSIDER;
	}
	return 0;
}

static int decide(struct dom *d, enum integ_op op, const struct integration *it,
		  const struct integration_installation *in, char *cell)
{
	unsigned kinds;
	int rc = classify(d, it, in, &kinds);

	*cell = 'N';
	if (rc)
		return rc;
	for (int k = 0; k < IA_COUNT; k++)
		if ((kinds & (1u << k)) && rank(RULES[k][op]) > rank(*cell))
			*cell = RULES[k][op];
	return 0;
}

int dom_integration_may(struct dom *d, enum integ_op op, const struct integration *it,
			const struct integration_installation *in, bool *own_only)
{
	char cell;
	int rc = decide(d, op, it, in, &cell);

	if (own_only)
		*own_only = cell == 'O';
	if (rc)
		return rc;
	switch (cell) {
	case 'A':
	case 'O':
		return 0;
	case 'F':
		return err_set(ERR_FORBIDDEN, "%s",
			       op == INTEG_OP_CONTENT_MANAGE
				       ? "integration tokens do not manage permissions, create, delete, "
					 "move or transfer spaces and collections"
			       : op == INTEG_OP_MEMBER
				       ? "integration tokens do not create, join or act as members of organizations"
				       : "this token or role may not do this to the integration's installations");
	default:
		return err_set(ERR_NOT_FOUND, "installation not found");
	}
}

int dom_integration_config_visible(struct dom *d, const struct integration *it,
				   const struct integration_installation *in, bool *out)
{
	char cell;
	int rc = decide(d, INTEG_OP_CONFIG, it, in, &cell);

	*out = rc == 0 && cell == 'A';
	return rc;
}

int dom_content_manage_check(struct dom *d)
{
	return dom_actor_is_integration(d) ? dom_integration_may(d, INTEG_OP_CONTENT_MANAGE, NULL, NULL, NULL) : 0;
}

int dom_member_check(struct dom *d)
{
	return dom_actor_is_integration(d) ? dom_integration_may(d, INTEG_OP_MEMBER, NULL, NULL, NULL) : 0;
}

enum role dom_space_settings_need(const struct dom *d)
{
	/* ROLE_READ: the space must be one it reads, i.e. one the admin
	 * selected (dom_installation_role); what it may not change of the
	 * settings (defaultLevel, visibility) dom_content_manage_check refuses. */
	return d->actor.installation_id && d->actor.installation_settings ? ROLE_READ : ACCESS_MANAGE;
}

/* The scopes' role on content (the mapping the README's Access states):
 * space:content:write and space:git:sync edit; space:content:read,
 * space:metadata:read, space:metadata:write and page:feedback:read read;
 * scopes of other objects (site:*, openapi:*, conversations:ingest) nothing
 * on a space: an integration that injects a script into a site does not
 * read the organization's spaces. Never ACCESS_MANAGE, so that the
 * permissions booleans (admin, viewInviteLinks, create) and the checks read
 * the same role: what space:metadata:write adds (a space's settings) is
 * dom_space_settings_need's to say. */
enum role integration_scope_role(const char *scopes_json)
{
	json_t *a = json_loads(scopes_json ? scopes_json : "[]", 0, NULL);
	enum role r = ROLE_NONE;
	size_t i;
	json_t *v;

	json_array_foreach(a, i, v)
	{
		const char *s = json_string_value(v);
		enum role this = ROLE_NONE;

		if (!s)
			continue;
		if (strcmp(s, "space:content:write") == 0 || strcmp(s, "space:git:sync") == 0)
			this = ROLE_EDIT;
		else if (strncmp(s, "space:", 6) == 0 || strcmp(s, "page:feedback:read") == 0)
			this = ROLE_READ;
		if (this > r)
			r = this;
	}
	json_decref(a);
	return r;
}

bool integration_scope_has(const char *scopes_json, const char *scope)
{
	json_t *a = json_loads(scopes_json ? scopes_json : "[]", 0, NULL);
	bool found = false;
	size_t i;
	json_t *v;

	json_array_foreach(a, i, v)
	{
		if (json_is_string(v) && (!scope || strcmp(json_string_value(v), scope) == 0))
			found = true;
	}
	json_decref(a);
	return found;
}

/* GitBook's site scopes: site:metadata:read reads the site through the
 * sites API (the site, its structure, customization, redirects: every read
 * that needs the read role on it); the others (site:script:inject,
 * site:script:cookies, site:views:read, site:visitor:auth,
 * site:adaptive:read / write) give no API access to the site: the first two
 * act on published pages (dom_site_integration_scripts), the rest have no
 * operation in docsd. Never more than read: settings, publishing, share
 * links and the structure's writes stay the site admins'. */
enum role integration_site_scope_role(const char *scopes_json)
{
	return integration_scope_has(scopes_json, "site:metadata:read") ? ROLE_READ : ROLE_NONE;
}

int dom_installation_site_role(struct dom *d, const char *site_id, enum role *out)
{
	struct integration_target t;
	int rc;

	*out = ROLE_NONE;
	if (d->actor.org.role == ROLE_NONE || d->actor.installation_site_role < ROLE_READ)
		return 0;
	if (d->actor.installation_sites_selected) {
		rc = store_target_get(d->tx, d->actor.installation_id, "site", site_id, &t);
		if (rc == ERR_NOT_FOUND || (rc == 0 && strcmp(t.status, "active") != 0))
			return 0;
		if (rc)
			return rc;
	}
	*out = d->actor.installation_site_role;
	return 0;
}

/* The role an installation token has on a space (space_id) or on a
 * collection (space_id NULL) of the organization it entered (domain/access.c
 * calls this from role_of and the list filters). Content-side half of the
 * rule: its scopes' role on the spaces the admin selected (all, or those it
 * is installed on); on a collection read when it has every space (a
 * collection holds nothing else of its), nothing when its spaces are
 * selected ones (a collection is more than the selected spaces in it).
 * Never the role to manage: dom_content_manage_check refuses those
 * operations whatever the role. */
int dom_installation_role(struct dom *d, const char *space_id, enum role *out)
{
	struct integration_target t;
	enum role scope = d->actor.org.role == ROLE_NONE ? ROLE_NONE : d->actor.installation_role;
	int rc;

	*out = ROLE_NONE;
	if (scope < ROLE_READ)
		return 0;
	if (!space_id) {
		*out = d->actor.installation_selected ? ROLE_NONE : ROLE_READ;
		return 0;
	}
	if (d->actor.installation_selected) {
		rc = store_target_get(d->tx, d->actor.installation_id, "space", space_id, &t);
		if (rc == ERR_NOT_FOUND || (rc == 0 && strcmp(t.status, "active") != 0))
			return 0;
		if (rc)
			return rc;
	}
	*out = scope;
	return 0;
}
