/*
 * integrations.h - GitBook's integrations: publish, read, list, delete;
 * installations on an organization, its spaces and sites; tokens; events and
 * their traces; development mode (domain/integrations.c).
 *
 * DESIGN
 * Who may do what: one rule, dom_integration_may() below (its table and
 * its reasons are at the top of domain/integration_access.c, the README's
 * Integrations section draws it). In short: an integration is visible to
 * everyone when public or unlisted, else to the members of its owning
 * organization and to its own tokens (invisible is 404); publishing,
 * republishing, unpublishing and development mode are the owning
 * organization's admins'; installing on an organization, changing an
 * installation's selections and targets and uninstalling are the
 * installation's organization's admins'; the integration token acts for the
 * integration across its installations (lists, reads, externalIds and
 * configuration, tokens, tasks, events); an installation token acts inside
 * its own installation only; configuration is shown to the installation's
 * admins, its own tokens and the integration token.
 * Integration principals: a request authenticated with an integration token
 * runs as the integration's user (actor.user_id, actor.integration_id) with
 * no standing in any organization; with an installation token also with
 * actor.installation_id, which domain/access.c turns into a guest's standing
 * in the installation's organization and, on content, the role the rule
 * gives (dom_installation_role).
 *
 * Every change of an installation's state records GitBook's event
 * (domain/integration_events.h) in the same transaction.
 */
#ifndef DOCSD_DOMAIN_INTEGRATIONS_H
#define DOCSD_DOMAIN_INTEGRATIONS_H

#include <stdbool.h>

#include "domain/domain.h"
#include "store/integrations.h"

/* An integration as the API shows it: its owner and the caller's standing. */
struct integration_view {
	struct integration it;
	struct org owner;
	struct membership caller; /* in the owner organization */
	bool admin;               /* permissions.admin */
};

/* What publishing sets; JSON texts validated by the handler against
 * GitBook's schemas. NULL: not sent (defaults apply on a first publish,
 * the stored value is kept on a republish where GitBook's CLI would send
 * it anyway). */
struct integration_input {
	const char *organization; /* id, or hostname / its first label */
	const char *runtime, *title, *description, *summary, *visibility, *target;
	const char *scopes, *categories, *blocks, *content_sources, *external_links, *configurations, *csp;
	const char *icon, *preview_images;
	const char *script;
	const char *secrets; /* JSON object text, sealed before storing */
};

struct integration_filter {
	const char *search, *category, *block_domain, *owner, *scope, *target;
	int blocks;          /* -1 any, 0 without, 1 with */
	int content_sources; /* -1 any, 0 without, 1 with */
	const char *org_id;  /* listOrganizationIntegrations: those installed in org_id */
};

int dom_integration_publish(struct dom *d, const char *name, const struct integration_input *in,
			    struct integration_view *out);
int dom_integration_get(struct dom *d, const char *name, struct integration_view *out);
int dom_integrations_list(struct dom *d, const struct integration_filter *f, const struct list_req *lr,
			  struct integration_view **items, int *n, char **next);
/* *removed false when there was none. */
int dom_integration_delete(struct dom *d, const char *name, bool *removed);
int dom_integration_dev_set(struct dom *d, const char *name, const char *tunnel_url, bool all);
int dom_integration_dev_clear(struct dom *d, const char *name);

/* ---- installations ---- */
struct installation_update {
	const char *external_ids;  /* JSON array text, or NULL */
	const char *configuration; /* JSON object text, or NULL */
	const char *space_selection, *site_selection;
};

int dom_installation_create(struct dom *d, const char *name, const char *org, struct integration_installation *out);
int dom_installation_get(struct dom *d, const char *name, const char *id, struct integration_installation *out);
int dom_installation_update(struct dom *d, const char *name, const char *id, const struct installation_update *u,
			    struct integration_installation *out);
int dom_installation_delete(struct dom *d, const char *name, const char *id, bool *removed);
/* Of an integration (name set) or of an organization (org_id set). */
int dom_installations_list(struct dom *d, const char *name, const char *org_id, const char *external_id,
			   const struct list_req *lr, struct integration_installation **items, int *n, char **next);
/* listOrganizationInstallations: each installation of org_id with its integration. */
struct org_installation {
	struct integration_view integration;
	struct integration_installation installation;
};
int dom_org_installations_list(struct dom *d, const char *org_id, const struct list_req *lr,
			       struct org_installation **items, int *n, char **next);
/* listSpaceIntegrations: the integrations installed on a space (on it, or
 * on every space of its organization), at most 1000. */
int dom_space_integrations(struct dom *d, const char *space_id, struct integration_view **items, int *n);
/* A token acting as the installation, valid INTEGRATION_TOKEN_TTL_MS. */
#define INTEGRATION_TOKEN_TTL_MS (60LL * 60 * 1000)
int dom_installation_token(struct dom *d, const char *name, const char *id, const char **token);

/* ---- space / site installations (kind "space" | "site") ---- */
struct target_view {
	struct integration_target t;
	const char *integration; /* name */
	struct space space;      /* kind space, when expanded */
	int expanded;
};
int dom_target_install(struct dom *d, const char *name, const char *installation_id, const char *kind,
		       const char *target_id, struct target_view *out);
int dom_target_get(struct dom *d, const char *name, const char *installation_id, const char *kind,
		   const char *target_id, struct target_view *out);
int dom_target_update(struct dom *d, const char *name, const char *installation_id, const char *kind,
		      const char *target_id, const struct installation_update *u, struct target_view *out);
int dom_target_uninstall(struct dom *d, const char *name, const char *installation_id, const char *kind,
			 const char *target_id, bool *removed);
/* installation_id NULL: every installation of the integration. */
int dom_targets_list(struct dom *d, const char *name, const char *installation_id, const char *kind,
		     const char *external_id, const struct list_req *lr, struct target_view **items, int *n,
		     char **next);

/* ---- events ---- */
struct event_view {
	struct integration_event ev;
	struct integration_log *logs;
	int nlogs;
};
int dom_events_list(struct dom *d, const char *name, const struct list_req *lr, struct integration_event **items,
		    int *n, char **next);
int dom_event_get(struct dom *d, const char *name, const char *event_id, struct event_view *out);
/* queueIntegrationTask: a `task` event for the installation the caller's
 * token acts for (or, for docsd itself / owner admins, the first one),
 * delivered schedule_s seconds from now. */
int dom_integration_task(struct dom *d, const char *name, const char *task_json, long schedule_s);

/* A new token for the integration (installation_id NULL) or one of its
 * installations; only its hash is stored. */
int dom_integration_token_mint(struct dom *d, const struct integration *it, const char *installation_id,
			       const char **token);
/* The integration's secrets as JSON object text ("{}" when none). */
int dom_integration_secrets_open(struct dom *d, const struct integration *it, const char **json);

/* ---- site scripts (site:script:inject) ---- */
/* GitBook's SiteIntegrationScript. */
struct site_script {
	const char *script; /* URL docsd serves the integration's published script at */
	const char *csp;    /* the integration's contentSecurityPolicy as a header value, or NULL */
	bool cookies;       /* the integration also has site:script:cookies */
};
/* The scripts injected into a published site's pages: one per active
 * installation of an integration with site:script:inject on the site, in
 * installation order. No access check: for the published-site renderer
 * (which decided the visitor may see the site) and for the two API reads
 * below, which check first. */
int dom_site_integration_scripts(struct dom *d, const char *site_id, struct site_script **out, int *n);
/* listSiteIntegrationScripts: the same after checking the caller reads the
 * site of org_id. */
int dom_site_integration_scripts_get(struct dom *d, const char *org_id, const char *site_id, struct site_script **out,
				     int *n);

/* ---- access of integration principals (domain/integration_access.c) ---- */
/* What is asked of an integration's installations (the columns of the rule's
 * table in domain/integration_access.c, in this order). */
enum integ_op {
	INTEG_OP_MANAGE,    /* republish, unpublish, development mode */
	INTEG_OP_LIST,      /* every installation; every space / site installation */
	INTEG_OP_EVENTS,    /* the integration's events and traces */
	INTEG_OP_TASK,      /* queueIntegrationTask */
	INTEG_OP_READ,      /* one installation, its space / site installations */
	INTEG_OP_CONFIG,    /* read their configuration */
	INTEG_OP_SET,       /* change their externalIds and configuration */
	INTEG_OP_SELECT,    /* space_selection, site_selection, install on / uninstall from a space or site */
	INTEG_OP_UNINSTALL, /* uninstall from the organization */
	INTEG_OP_TOKEN,     /* mint an installation token */
	/* On a space or collection (it and in NULL): grants, creating inside,
	 * delete, restore, move, transfer, defaultLevel and visibility. */
	INTEG_OP_CONTENT_MANAGE,
	/* On an organization (it and in NULL): create one, join one (invite
	 * link), act as its member (ping: lastSeenAt and visitor claims, the
	 * member's own space list). An integration's identity is never a member. */
	INTEG_OP_MEMBER,
	INTEG_OP_COUNT
};
/* The rule: 0 when the actor may do op to installation `in` of `it` (in
 * NULL: the integration as a whole); else ERR_FORBIDDEN, or ERR_NOT_FOUND
 * when it may not learn the installation exists. *own_only (may be NULL)
 * is set when only the rows of the actor's own installation are allowed
 * (an installation token listing). Every integration route's domain
 * function calls it. */
int dom_integration_may(struct dom *d, enum integ_op op, const struct integration *it,
			const struct integration_installation *in, bool *own_only);
/* Whether the actor may read the configuration of `in` (and its targets). */
int dom_integration_config_visible(struct dom *d, const struct integration *it,
				   const struct integration_installation *in, bool *out);
/* The request runs on an integration or installation token. */
bool dom_actor_is_integration(const struct dom *d);
/* 0, or ERR_FORBIDDEN for integration principals: every operation that
 * manages permissions or creates, deletes, restores, moves or transfers a
 * space or collection calls it (domain/grants.c, collections.c, spaces.c). */
int dom_content_manage_check(struct dom *d);
/* 0, or ERR_FORBIDDEN for integration principals: creating an
 * organization, joining one with an invite link, and what only a member
 * does (domain/orgs.c, invites.c, members.c, spaces.c). Grants, team
 * memberships and invitations an admin gives the integration's user stay
 * in the store but are inert: no integration principal's standing reads
 * them (domain/access.c, dom_enter_org). */
int dom_member_check(struct dom *d);
/* The role dom_space_update needs: ACCESS_MANAGE, or read for an
 * installation token whose integration has space:metadata:write. */
enum role dom_space_settings_need(const struct dom *d);
/* An installation token's role on site_id of the organization it entered:
 * its site scopes' role (integration_site_scope_role) when the site is
 * selected (site_selection all, or installed on it), else ROLE_NONE. */
int dom_installation_site_role(struct dom *d, const char *site_id, enum role *out);
/* An installation token's role on a space (space_id) or on any collection
 * (space_id NULL) of the organization it entered (domain/access.c). */
int dom_installation_role(struct dom *d, const char *space_id, enum role *out);
/* The role an installation's scopes give on content (JSON array text):
 * space:content:write or space:git:sync -> edit, another space:* scope or
 * page:feedback:read -> read, none of these -> no access. */
enum role integration_scope_role(const char *scopes_json);
/* The role its scopes give on a selected site: read with site:metadata:read. */
enum role integration_site_scope_role(const char *scopes_json);
/* scope is in the JSON array text scopes_json (NULL: any scope is). */
bool integration_scope_has(const char *scopes_json, const char *scope);

#endif
