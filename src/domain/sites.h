/*
 * sites.h - docs sites: the operations of domain/sites.c (sites, publishing,
 * customization, share links, the adaptive schema), domain/site_structure.c
 * (sections, section groups, site spaces, the structure and its order, the
 * published profile) and domain/site_visit.c (what a visitor of a published
 * site may see: the renderer's entry).
 *
 * DESIGN
 * Access (GitBook's site roles, DESIGN.md): a site belongs to an
 * organization and the actor's role on it is the member's organization role
 * (docsd itself: admin; guests and non-members: nothing, 404). Reading needs
 * read; sections, section groups and site spaces need create; settings,
 * publish, unpublish, delete, customization and share links need admin.
 * Each function checks once (dom_site_get), then applies the rules.
 *
 * Writers lock the site's row first (dom_site_get with lock) and bump its
 * generation (store_site_bump) in the same transaction.
 *
 * Invariants of the structure, kept by every writer: a site with sections
 * has exactly one default section and no site space at its root; every
 * section (or the root) holding site spaces has exactly one default site
 * space; deleting a default promotes the first remaining one. Paths are
 * unique among siblings.
 */
#ifndef DOCSD_DOMAIN_SITES_H
#define DOCSD_DOMAIN_SITES_H

#include <jansson.h>
#include <stdbool.h>

#include "domain/domain.h"

/* ---- sites (domain/sites.c) ---- */

/* Site site_id of organization org_id with the actor's role at least `need`
 * (404 when it is not a site of org_id or the actor may not read it, 403
 * below need); out->access holds the role. lock: the site's row stays locked
 * until the transaction ends (writers). */
int dom_site_get(struct dom *d, const char *org_id, const char *site_id, enum role need, bool lock,
		 struct site *out);

/* What a site create or update sets. NULL strings and false has_* leave a
 * field unchanged (on create: its default). */
struct site_input {
	const char *type;       /* create only; default basic */
	const char *title;      /* default "Untitled site" */
	const char *visibility; /* default public */
	const char *const *spaces; /* create only: space ids added as site spaces */
	int nspaces;
	bool create_space; /* create only: also a new space (titled as the site) added to it */
};

/* Create a site in org_id (the actor needs create in the organization).
 * Each of in->spaces must be a live space of org_id the actor reads (else
 * ERR_INVALID naming it); they become the site's site spaces in that order
 * (dom_site_space_add), after the new space when in->create_space. */
int dom_site_create(struct dom *d, const char *org_id, const struct site_input *in, struct site *out);

/* The sites of org_id matching f (store/sites.h), oldest first; none for a
 * guest. */
int dom_sites_list(struct dom *d, const char *org_id, const struct site_filter *f, const struct list_req *lr,
		   struct site **items, int *n, char **next);

/* What a site update changes (admin): NULL strings and false has_* leave a
 * field as it is. */
struct site_update {
	const char *title;
	const char *visibility;
	const char *basename;        /* unique across docsd: ERR_CONFLICT when taken */
	const char *agents_context;  /* included | excluded */
	bool has_adaptive;
	bool adaptive_enabled;
	bool has_proxy;
	const char *proxy;           /* with has_proxy: NULL removes it */
	const char *default_site_space;   /* dom_site_default_set */
	const char *default_site_section;
};
int dom_site_update(struct dom *d, const char *org_id, const char *site_id, const struct site_update *in,
		    struct site *out);
/* Delete a site (admin); 0 also when it does not exist. */
int dom_site_delete(struct dom *d, const char *org_id, const char *site_id);
/* publishSite / unpublishSite (admin). */
int dom_site_set_published(struct dom *d, const char *org_id, const char *site_id, bool published, struct site *out);

/* Customization. The site's (read): out->customization. PUT (admin): body is
 * a whole SiteCustomizationSettings (serialize_sites.h checks it), stored as
 * compact JSON. */
int dom_site_customization_set(struct dom *d, const char *org_id, const char *site_id, const json_t *body,
			       struct site *out);
/* A site space's override (read): the site and the site space (its
 * customization NULL when it has no override). */
int dom_site_space_customization_get(struct dom *d, const char *org_id, const char *site_id, const char *site_space_id,
				     struct site *site, struct site_space *out);
/* PATCH (admin): patch laid over the override (null resets a field). */
int dom_site_space_customization_override(struct dom *d, const char *org_id, const char *site_id,
					  const char *site_space_id, json_t *patch, struct site *site,
					  struct site_space *out);
/* DELETE (admin): *deleted = false when it had no override. */
int dom_site_space_customization_delete(struct dom *d, const char *org_id, const char *site_id,
					const char *site_space_id, bool *deleted);

/* Share links (admin for all). site: the site they belong to (for URLs). */
int dom_site_share_links_list(struct dom *d, const char *org_id, const char *site_id, const struct list_req *lr,
			      struct site *site, struct site_share_link **items, int *n, char **next);
int dom_site_share_link_create(struct dom *d, const char *org_id, const char *site_id, const char *name,
			       struct site *site, struct site_share_link *out);
/* name NULL: unchanged; has_active: set active. */
int dom_site_share_link_update(struct dom *d, const char *org_id, const char *site_id, const char *link_id,
			       const char *name, bool has_active, bool active, struct site *site,
			       struct site_share_link *out);
int dom_site_share_link_delete(struct dom *d, const char *org_id, const char *site_id, const char *link_id,
			       bool *deleted);
/* The active share link of site s with that key (no access check: the key is
 * the visitor's credential); ERR_NOT_FOUND otherwise. For the renderer. */
int dom_site_share_link_by_key(struct dom *d, const struct site *s, const char *key, struct site_share_link *out);

/* Adaptive schema. Get (read): ERR_NOT_FOUND when the site has none. Set
 * (admin): adaptive_schema_check() decides; stored compact with its time. */
int dom_site_adaptive_schema_get(struct dom *d, const char *org_id, const char *site_id, struct site *out);
int dom_site_adaptive_schema_set(struct dom *d, const char *org_id, const char *site_id, const json_t *schema,
				 struct site *out);
struct template_condition; /* core/adaptive.h */
/* The template conditions of the site's schema (read); none without one. */
int dom_site_adaptive_template_conditions(struct dom *d, const char *org_id, const char *site_id,
					  struct template_condition **out, int *n);

/* Publishing auth (admin): the visitor-auth backend, fallback URL and the
 * private key (sites.visitor_key) that signs visitor JWTs. Update: backend
 * NULL unchanged; has_fallback sets fallback_url (NULL removes it).
 * Regenerate: a new private key. */
int dom_site_publishing_auth_get(struct dom *d, const char *org_id, const char *site_id,
				 struct site_publishing_auth *out);
int dom_site_publishing_auth_update(struct dom *d, const char *org_id, const char *site_id, const char *backend,
				    bool has_fallback, const char *fallback_url, struct site_publishing_auth *out);
int dom_site_publishing_auth_regenerate(struct dom *d, const char *org_id, const char *site_id,
					struct site_publishing_auth *out);

/* ---- structure (domain/site_structure.c) ---- */

/* The structure of site s (loaded with dom_site_get: no further check). */
int dom_site_structure(struct dom *d, const struct site *s, struct site_structure *out);

/* Add space_id to site s (locked, create checked by the caller) in section
 * section_id, or (NULL) in the default section, or at the root when the site
 * has no sections. The first site space of its section (or root) becomes
 * its default. Used by site creation with `spaces` and by addSpaceToSite. */
int dom_site_space_add(struct dom *d, const struct site *s, const char *space_id, const char *section_id,
		       struct site_space *out);

/* Implemented by sites-structure (domain/site_structure.c): make section_id
 * the site's default section and/or site_space_id the default site space of
 * its section or of the root (either may be NULL: unchanged). Called by
 * updateSiteById (defaultSiteSection, defaultSiteSpace) on the locked site s.
 * ERR_INVALID naming the field when the id is not one of the site's. */
int dom_site_default_set(struct dom *d, const struct site *s, const char *section_id, const char *site_space_id);

#endif
