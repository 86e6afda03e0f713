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

/* ---- structure (store/site_structure.c) ---- */

/* The whole structure of a site in display order (core/model.h), each site
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
