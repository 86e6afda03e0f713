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
/* createSite's and updateSiteById's bounds and site visibilities, shared by
 * the API's parse (api/sites.c) and the web interface's forms. */
#define SITE_TITLE_MIN 2
#define SITE_TITLE_MAX 128
extern const char *const site_visibilities[]; /* NULL-terminated */

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
	bool has_hostname;
	const char *hostname;        /* with has_hostname: NULL removes it; unique: ERR_CONFLICT */
	const char *default_site_space;   /* dom_site_default_set */
	const char *default_site_section;
};
/* The rules of a site's names, as updateSiteById's parse and the web
 * interface's settings form check them before dom_site_update (their length
 * is the caller's: basename 1..100, hostname 1..253): 0 when name is NULL or
 * valid, else ERR_INVALID with the message the API answers. A basename is
 * letters, digits, '.', '_' and '-' (not "." or ".."); a hostname a
 * lower-case host name of three or more labels (valid_site_hostname). */
int dom_site_basename_check(const char *basename);
int dom_site_hostname_check(const char *hostname);
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
struct template_condition; /* model/adaptive.h */
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

/* ---- structure (domain/site_structure.c) ----
 * The operations below take the organization and site ids and check the
 * actor's role once, as dom_site_get does (read for reads, create for
 * writes; role before existence: a member without the role gets 403 for a
 * missing item as for an existing one, guests and outsiders 404). The three
 * functions that take a loaded `struct site` instead are for the domain's
 * own callers that have checked already (site creation and update in
 * domain/sites.c, the renderer). */

/* The kinds of item of a structure. */
enum site_item_kind { SITE_ITEM_SPACE, SITE_ITEM_SECTION, SITE_ITEM_GROUP };

/* The kind named by GitBook's type ("site-space", "site-section",
 * "site-section-group"); -1 for anything else. */
int dom_site_item_kind(const char *type);

/* One item of a structure: kind says which of group / section / space it
 * is; for a site space, section is its section (NULL at the root). The
 * pointers point into the structure it was found in. */
struct site_item {
	enum site_item_kind kind;
	const struct site_section_group *group;
	const struct site_section *section;
	const struct site_space *space;
};

/* What a structure operation answers with: the site (its URLs), the share
 * key its URLs show (reads given an active share link's key on a share-link
 * site; else NULL), the structure as dom_site_structure shows it (after the
 * change, for writes) and, for an operation on one item, that item in st.
 * item points into st: use a view where it was filled, do not copy it. */
struct site_answer {
	struct site site;
	const char *share_key;
	struct site_structure st;
	struct site_item item;
};

/* The structure of site s (loaded with dom_site_get: no further check),
 * without the site spaces of deleted spaces; each site space's space holds
 * the actor's role on it. */
int dom_site_structure(struct dom *d, const struct site *s, struct site_structure *out);

/* Add space_id to site s (locked, create checked by the caller) in section
 * section_id, or (NULL) in the default section, or at the root when the site
 * has no sections. The first site space of its section (or root) becomes
 * its default. Used by site creation with `spaces`. */
int dom_site_space_add(struct dom *d, const struct site *s, const char *space_id, const char *section_id,
		       struct site_space *out);

/* Set the default section (section_id) and/or the default site space
 * (site_space_id: at the root, or in the default section after section_id
 * applied) of site s (locked, create checked). NULL leaves either unchanged;
 * an unknown id is ERR_INVALID naming it. */
int dom_site_default_set(struct dom *d, const struct site *s, const char *section_id, const char *site_space_id);

/* Reads (read). share_key (the request's, NULL when none) must be an active
 * share link of the site (else ERR_NOT_FOUND). */
int dom_site_structure_get(struct dom *d, const char *org_id, const char *site_id, const char *share_key,
			   struct site_answer *out);
/* The items of one kind in display order (*items in the arena, pointing
 * into out->st). Site spaces only: want_default 1 lists the site's default
 * site space alone (the root's default, or the default section's), 0 every
 * other, -1 all. */
int dom_site_items_list(struct dom *d, const char *org_id, const char *site_id, enum site_item_kind kind,
			const char *share_key, int want_default, struct site_answer *out, struct site_item **items,
			int *n);

/* Where a moved item goes among its siblings: before or after another item
 * (type: "site-space", "site-section" or "site-section-group"); neither: the
 * end. Both set is ERR_INVALID. */
struct site_position {
	const char *before_type, *before;
	const char *after_type, *after;
};

/* What a section create sets; NULL leaves a field to its default. */
struct site_section_input {
	const char *space_id; /* the section's first site space */
	const char *title;    /* default: the space's title */
	const char *icon;
};

struct site_group_input {
	const char *title;
	const char *icon;
	const char *const *sections; /* ids of sections of the site */
	int nsections;
};

/* What an update of an item sets; NULL / false has_* leave a field as it
 * is. A field the kind does not have is not read: title and icon (sections,
 * groups), path and condition (sections, site spaces), description and
 * default_site_space (sections), space_id (site spaces). */
struct site_item_update {
	const char *title;
	const char *icon;
	bool has_icon; /* icon NULL with has_icon: remove */
	const char *path;
	const char *description;
	bool has_description;
	const char *condition;
	bool has_condition;
	const char *default_site_space;
	const char *space_id;
};

/* Writes (create; the site's row locked for the transaction). out->item is
 * the item created or changed, as the structure after the change shows it. */
int dom_site_section_create(struct dom *d, const char *org_id, const char *site_id,
			    const struct site_section_input *in, struct site_answer *out);
int dom_site_group_create(struct dom *d, const char *org_id, const char *site_id, const struct site_group_input *in,
			  struct site_answer *out);
/* addSpaceToSite: dom_site_space_add, answered with the site space. */
int dom_site_space_create(struct dom *d, const char *org_id, const char *site_id, const char *space_id,
			  const char *section_id, struct site_answer *out);
/* Update item (kind, id): a path a sibling holds is ERR_CONFLICT; a section's
 * default_site_space must be one of its site spaces (else ERR_INVALID); a
 * site space's space_id a live space of the organization. */
int dom_site_item_update(struct dom *d, const char *org_id, const char *site_id, enum site_item_kind kind,
			 const char *id, const struct site_item_update *in, struct site_answer *out);
/* A section joins group id at the end of it (out->item: the group). */
int dom_site_group_add_section(struct dom *d, const char *org_id, const char *site_id, const char *id,
			       const char *section_id, struct site_answer *out);
/* 0 also when the section is not in the group. */
int dom_site_group_remove_section(struct dom *d, const char *org_id, const char *site_id, const char *id,
				  const char *section_id);
/* Delete a section (its site spaces with it), a group (its sections take
 * its place) or a site space; 0 also when there was no such item. */
int dom_site_item_delete(struct dom *d, const char *org_id, const char *site_id, enum site_item_kind kind,
			 const char *id);
/* Move item (kind, id) to pos: a site space among the site spaces of its
 * section, a section among the sections of the target's parent (a group or
 * the top level), a group at the top level. sort: sortSiteStructure's rules
 * (a target of any type, refused after the item is found when it is not a
 * sibling the kind can have); else the deprecated move operation's (only
 * the targets that operation names, checked before the item is looked up:
 * a site space for a site space, a section for a section, a section or a
 * group for a group). */
int dom_site_item_move(struct dom *d, const char *org_id, const char *site_id, enum site_item_kind kind,
		       const char *id, const struct site_position *pos, bool sort, struct site_answer *out);

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
 * at most limit pages of rv (its current revision), best first, as visitor
 * ({"claims": ...} or NULL) reads them: a page whose match was only in a
 * block hidden from this visitor is left out, and section bodies (the
 * excerpts) are the text this visitor reads (model/adaptive.h). */
struct search_page;
int dom_site_visit_search(struct dom *d, const struct site_space *ss, const struct revision *rv,
			  const json_t *visitor, const char *query, int limit, struct search_page **items, int *n);
/* The publishing auth's fallbackURL of s (an http(s) URL), where a
 * visitor-auth site sends a visitor without a valid token; *url NULL when
 * none is set. */
int dom_site_visit_fallback(struct dom *d, const struct site *s, const char **url);
/* rv as visitor ({"claims": ...} or NULL) may see it: *out is rv itself,
 * or, when a page's condition (front matter "if:") hides it or an
 * ancestor from this visitor, a copy without those pages held by the
 * transaction. */
int dom_site_visit_visible(struct dom *d, const struct revision *rv, const json_t *visitor,
			   const struct revision **out);

#endif
