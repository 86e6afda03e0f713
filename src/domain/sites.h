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
};

/* Create a site in org_id (the actor needs create in the organization). */
int dom_site_create(struct dom *d, const char *org_id, const struct site_input *in, struct site *out);

/* ---- structure (domain/site_structure.c) ---- */

/* The structure of site s (loaded with dom_site_get: no further check). */
int dom_site_structure(struct dom *d, const struct site *s, struct site_structure *out);

/* Add space_id to site s (locked, create checked by the caller) in section
 * section_id, or (NULL) in the default section, or at the root when the site
 * has no sections. The first site space of its section (or root) becomes
 * its default. Used by site creation with `spaces` and by addSpaceToSite. */
int dom_site_space_add(struct dom *d, const struct site *s, const char *space_id, const char *section_id,
		       struct site_space *out);

/* ---- visits (domain/site_visit.c) ----
 * What a visitor of a published site reads; the renderer (site/serve.c) runs
 * them as docsd itself (dom_init with user_id NULL) and enforces the site's
 * visibility with them. */

/* The published site named `name` (its basename, or its id), or with name
 * NULL the one whose hostname is `hostname`. ERR_NOT_FOUND when there is
 * none or it is not published. */
int dom_site_visit(struct dom *d, const char *name, const char *hostname, struct site *out);
/* 0 when key is an active share link key of site s, else ERR_NOT_FOUND. */
int dom_site_visit_share(struct dom *d, const struct site *s, const char *key);
/* The current revision of a site space's space; *out NULL (and 0) when the
 * space is deleted or has no revision: it is not served. */
struct revision;
int dom_site_visit_revision(struct dom *d, const struct site_space *ss, const struct revision **out);
/* Search the current content of a site space's space (dom_search_space):
 * at most limit pages, best first. */
struct search_page;
int dom_site_visit_search(struct dom *d, const struct site_space *ss, const char *query, int limit,
			  struct search_page **items, int *n);

#endif
