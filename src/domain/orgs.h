/*
 * orgs.h - organizations, inviting users, invite links and SAML providers:
 * the operations of domain/orgs.c, domain/invites.c and domain/saml.c.
 *
 * DESIGN
 * Access is the actor's organization role (model/roles.h): reading an
 * organization and its SSO logins needs membership (guests included); its
 * settings, inviting users, invite links and SAML providers need admin. A
 * non-member learns nothing (ERR_NOT_FOUND), a member below the role gets
 * ERR_FORBIDDEN; docsd itself (user_id NULL) is admin everywhere. Each
 * function checks once, with dom_org_require, whatever the caller checked
 * before (the router's org flags are a precondition, not the check): the
 * standing is loaded once per transaction, so the check costs no query when
 * the router has already entered the organization.
 *
 * Requests arrive parsed (api/ checks the shape and length of each field);
 * these functions check the values (domains, hostnames, URLs, emails,
 * certificates), what needs the store (a hostname another organization uses,
 * a default team of the organization) and apply the defaults: a member who
 * joins without a role, an invite link or a SAML provider made without one,
 * gets the organization's defaultRole.
 *
 * Settings are written back whole, so the updates read their row locked
 * (store_org_get_locked, store_saml_get_locked): two PATCHes at once on
 * PostgreSQL take turns and keep each other's fields.
 *
 * After any of these functions returns 0, d->actor.org is the actor's
 * standing in the organization it addressed (what serializers' permissions
 * and "redundant" read).
 */
#ifndef DOCSD_DOMAIN_ORGS_H
#define DOCSD_DOMAIN_ORGS_H

#include <stdbool.h>

#include "domain/domain.h"


/* ---- organizations (domain/orgs.c) ---- */

/* An organization and the actor's standing in it (org_to_json's permissions). */
struct dom_org {
	struct org org;
	struct membership actor;
};

/* What a create or an update sets. NULL strings and false has_* leave a field
 * unchanged (on create: its default). */
/* updateOrganizationById's bounds, shared by the API's parse (api/orgs.c)
 * and the web interface's settings form. */
#define ORG_TITLE_MIN 2
#define ORG_TITLE_MAX 255
#define ORG_HOSTNAME_MIN 3
#define ORG_HOSTNAME_MAX 32
#define ORG_LOGO_MAX 2048
#define ORG_DOMAINS_MAX 100
#define ORG_DOMAIN_MAX 253

struct org_input {
	const char *title;
	bool has_email_domains;
	const char *const *email_domains; /* with has_email_domains: any case; stored lower-case */
	int n_email_domains;
	const char *hostname;                      /* update only */
	bool has_default_role, has_default_content; /* update only */
	enum role default_role;                    /* ROLE_GUEST: null */
	const char *default_site;                  /* with has_default_content: NULL clears it */
	bool has_logo;
	const char *logo; /* with has_logo: NULL removes it */
	bool has_sso, has_ai, has_invite_links; /* update only */
	bool sso, ai, invite_links;
	const char *merge_rules;   /* compact JSON (update only) */
	/* create by docsd itself: the user who becomes the first admin (a user
	 * actor is always the first admin of what they create) */
	const char *owner_id;
};

/* Create an organization whose first admin is the actor (a user), with
 * defaultRole read. */
int dom_org_create(struct dom *d, const struct org_input *in, struct dom_org *out);
int dom_org_get(struct dom *d, const char *org_id, struct dom_org *out);
/* Admins. ERR_INVALID for a bad value (naming the field), ERR_CONFLICT for a
 * hostname another organization uses. out: the organization as it is now. */
int dom_org_update(struct dom *d, const char *org_id, const struct org_input *in, struct dom_org *out);
/* The organizations the actor is a member of, oldest first (lr->desc: newest).
 * docsd itself belongs to none. */
int dom_orgs_list(struct dom *d, const struct list_req *lr, struct dom_org **items, int *n, char **next);
/* The organizations that claim email domain `domain`, when it is the domain
 * of the actor's own email address (any case); none otherwise. docsd itself
 * sees every one. At most 1000, oldest first. */
int dom_orgs_by_email_domain(struct dom *d, const char *domain, struct dom_org **items, int *n);

/* ---- inviting users (domain/orgs.c) ---- */

struct org_invitee {
	const char *email;
	bool has_role;
	enum role role; /* with has_role; ROLE_GUEST: null */
};

struct org_invite_input {
	const struct org_invitee *emails;
	int n;
	bool has_role; /* the role of invitees without their own */
	enum role role;
	bool sso;
};

/* Admins. Make each email a member of org_id (creating the user when no
 * account has the email): with its own role, else the request's, else the
 * organization's defaultRole. An invalid email is ERR_INVALID naming
 * emails[i], and nothing is done. *added: the ids of the users who were not
 * members before (in the arena), *nadded of them. */
int dom_org_invite_users(struct dom *d, const char *org_id, const struct org_invite_input *in,
			 const char ***added, int *nadded);

/* ---- invite links (domain/invites.c) ---- */

/* Admins. has_role false: the link lets members join with the organization's
 * defaultRole (ROLE_GUEST is null: guests). ERR_FORBIDDEN while the
 * organization's inviteLinks is false. */
int dom_invite_create(struct dom *d, const char *org_id, bool has_role, enum role role, struct invite *out);
int dom_invite_get(struct dom *d, const char *org_id, const char *invite_id, struct invite *out);
int dom_invite_update(struct dom *d, const char *org_id, const char *invite_id, enum role role,
		      struct invite *out);
/* *removed = false when there was no such link. */
int dom_invite_delete(struct dom *d, const char *org_id, const char *invite_id, bool *removed);
int dom_invites_list(struct dom *d, const char *org_id, const struct list_req *lr, struct invite **items, int *n,
		     char **next);
/* Any signed-in user (not docsd itself: ERR_INVALID): join org_id with its
 * link invite_id, with the link's role. ERR_NOT_FOUND for a link that is not
 * org_id's, ERR_FORBIDDEN while inviteLinks is false. A member already is
 * left unchanged (*joined = false); else *joined = true and the member list's
 * generation moves. */
int dom_invite_join(struct dom *d, const char *org_id, const char *invite_id, bool *joined);

/* ---- SAML providers (domain/saml.c) ---- */

/* What a create or an update sets; false has_* leave a field unchanged (on
 * create: unset, and the organization's defaultRole). NULL unsets entityID,
 * certificate, ssoURL and defaultTeam. */
struct saml_input {
	const char *label; /* required on create */
	bool has_entity_id, has_certificate, has_sso_url, has_default_team, has_default_role;
	const char *entity_id;
	const char *certificate;  /* PEM X.509 */
	const char *sso_url;      /* absolute http(s) URL */
	const char *default_team; /* a team of the organization */
	enum role default_role;   /* ROLE_GUEST: null */
};

/* Admins. A provider is pending until ssoURL, entityID and certificate are
 * all set. ERR_INVALID for a bad value, naming the field. */
int dom_saml_create(struct dom *d, const char *org_id, const struct saml_input *in, struct saml_provider *out);
int dom_saml_get(struct dom *d, const char *org_id, const char *provider_id, struct saml_provider *out);
int dom_saml_update(struct dom *d, const char *org_id, const char *provider_id, const struct saml_input *in,
		    struct saml_provider *out);
/* *removed = false when there was no such provider. */
int dom_saml_delete(struct dom *d, const char *org_id, const char *provider_id, bool *removed);
int dom_saml_list(struct dom *d, const char *org_id, const struct list_req *lr, struct saml_provider **items,
		  int *n, char **next);
/* Any member, guests included: every provider of org_id, oldest first. */
int dom_sso_logins(struct dom *d, const char *org_id, struct saml_provider **items, int *n);

#endif
