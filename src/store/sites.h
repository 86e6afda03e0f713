/*
 * sites.h - the storage of docs sites (migration 6): sites, their share links
 * (store/sites.c), and their structure of sections, section groups and site
 * spaces (store/site_structure.c).
 *
 * Every function that changes a site, its structure, its customization or
 * its share links bumps the site's generation (store_site_bump), which the
 * published-site renderer keys its cache on. Writers of a site's structure
 * lock the site's row first (store_site_get_locked): the invariants of
 * defaults and positions are read and written under that lock.
 */
#ifndef DOCSD_STORE_SITES_H
#define DOCSD_STORE_SITES_H

#include <stdbool.h>

#include "store/store.h"

/* ---- sites (store/sites.c) ---- */

/* Insert s (org_id, type, title, visibility, published, agents_context;
 * customization NULL: "{}"), filling id, visitor_key and timestamps. */
int store_site_create(struct store_tx *tx, struct site *s);
/* The site's columns with its site-space count; ERR_NOT_FOUND "site not found". */
int store_site_get(struct store_tx *tx, const char *id, struct site *out);
/* The same, the row locked until the transaction ends (driver.h, DB_LOCK_ROW). */
int store_site_get_locked(struct store_tx *tx, const char *id, struct site *out);
/* A site by its basename, or by its id when no site has that basename. */
int store_site_by_name(struct store_tx *tx, const char *name, struct site *out);
/* A site by its custom hostname. */
int store_site_by_hostname(struct store_tx *tx, const char *hostname, struct site *out);
/* generation + 1 and updated_at = now. */
int store_site_bump(struct store_tx *tx, const char *site_id);
/* An active share link of the site with that key; ERR_NOT_FOUND otherwise. */
int store_site_share_link_by_key(struct store_tx *tx, const char *site_id, const char *key,
				 struct site_share_link *out);

/* What listSites filters on; NULL / -1 / 0 leave a filter out. */
struct site_filter {
	const char *space_id; /* sites showing that space */
	const char *title;    /* case-insensitive substring of the title */
	int published;        /* 0 or 1; -1: either */
	const char *types[6]; /* any of these types (ntypes of them) */
	int ntypes;
	/* Run on each row (its role recorded in site.access); NULL keeps every
	 * row. The total then counts the rows kept. */
	store_keep_fn keep;
	void *keep_ctx;
};
/* The sites of org_id matching f, oldest first (created_at, id), keyset-paged. */
int store_sites_list(struct store_tx *tx, const char *org_id, const struct site_filter *f,
		     const struct list_req *lr, struct site **items, int *n, char **next);
/* Write s's settings: title, visibility, published, basename, proxy,
 * adaptive_enabled, agents_context (and updated_at). */
int store_site_update(struct store_tx *tx, const struct site *s);
/* *taken when a site other than site_id has `name` as its basename or its id
 * (published URLs are /sites/<basename or id>). */
int store_site_basename_taken(struct store_tx *tx, const char *site_id, const char *name, bool *taken);
/* Another site than site_id has this hostname. */
int store_site_hostname_taken(struct store_tx *tx, const char *site_id, const char *hostname, bool *taken);
/* Delete the site (its structure and share links go with it; an organization
 * whose default content it was gets none). *deleted = false when none was. */
int store_site_delete(struct store_tx *tx, const char *org_id, const char *site_id, bool *deleted);
/* The stored customization (compact JSON object text). */
int store_site_set_customization(struct store_tx *tx, const char *site_id, const char *json);
/* The adaptive schema (compact JSON) and the time it was set. */
int store_site_set_adaptive_schema(struct store_tx *tx, const char *site_id, const char *json, int64_t at);

/* Publishing auth (migration 7): the visitor-auth backend and fallback URL;
 * the private key is sites.visitor_key. */
struct site_publishing_auth {
	const char *backend;      /* custom | integration */
	const char *fallback_url; /* NULL when unset */
	const char *private_key;
};
int store_site_publishing_auth(struct store_tx *tx, const char *site_id, struct site_publishing_auth *out);
/* Write backend and fallback_url, and private_key when non-NULL. */
int store_site_set_publishing_auth(struct store_tx *tx, const char *site_id, const struct site_publishing_auth *a);

/* A site space of site_id by id (without its space joined);
 * ERR_NOT_FOUND "site space not found". */
int store_site_space_by_id(struct store_tx *tx, const char *site_id, const char *id, struct site_space *out);
/* Its customization override (compact JSON), NULL: none. *changed = false
 * when the value was already that (NULL for NULL). */
int store_site_space_set_customization(struct store_tx *tx, const char *site_id, const char *id, const char *json,
				       bool *changed);

/* Share links of a site, oldest first, keyset-paged. */
int store_site_share_links_list(struct store_tx *tx, const char *site_id, const struct list_req *lr,
				struct site_share_link **items, int *n, char **next);
/* Insert l (site_id, name), filling id, key (two id_new()), active and created_at. */
int store_site_share_link_create(struct store_tx *tx, struct site_share_link *l);
/* ERR_NOT_FOUND "share link not found". */
int store_site_share_link_get(struct store_tx *tx, const char *site_id, const char *id, struct site_share_link *out);
/* Write name and active. */
int store_site_share_link_update(struct store_tx *tx, const struct site_share_link *l);
int store_site_share_link_delete(struct store_tx *tx, const char *site_id, const char *id, bool *deleted);

/* ---- structure (store/site_structure.c) ---- */

/* The whole structure of a site in display order (model/model.h), each site
 * space with its space joined. */
int store_site_structure(struct store_tx *tx, const char *site_id, struct site_structure *out);

/* Inserts: fill id and created_at; every other column comes from the struct
 * (the domain decides paths, positions and defaults). */
int store_site_section_insert(struct store_tx *tx, struct site_section *sec);
int store_site_group_insert(struct store_tx *tx, struct site_section_group *g);
int store_site_space_insert(struct store_tx *tx, struct site_space *ss);
/* Write back every changeable column of a row read from the structure. */
int store_site_section_update(struct store_tx *tx, const struct site_section *sec);
int store_site_group_update(struct store_tx *tx, const struct site_section_group *g);
int store_site_space_update(struct store_tx *tx, const struct site_space *ss);
/* Delete one row of site site_id (a section with its site spaces). */
int store_site_section_delete(struct store_tx *tx, const char *site_id, const char *id);
int store_site_group_delete(struct store_tx *tx, const char *site_id, const char *id);
int store_site_space_delete(struct store_tx *tx, const char *site_id, const char *id);
/* Move the site spaces at the root of site_id into section_id. */
int store_site_spaces_to_section(struct store_tx *tx, const char *site_id, const char *section_id);
/* Make id the one default section of site_id. */
int store_site_section_set_default(struct store_tx *tx, const char *site_id, const char *id);
/* Make id the one default site space among its siblings (section_id NULL: the root). */
int store_site_space_set_default(struct store_tx *tx, const char *site_id, const char *section_id, const char *id);

#endif
