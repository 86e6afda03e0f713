/*
 * site_redirects.h - a published site's redirects (issue 24, section 3):
 * GitBook's site redirects API, the old paths of renamed and moved pages,
 * and .gitbook.yaml's redirects of a Git import.
 *
 * DESIGN
 * What a site answers for a path that shows no page, before its 404
 * (site/serve.c asks in this order, first match wins):
 *   1. a site redirect whose source is the path (GitBook's API; the path as
 *      the site's URL shows it, "/" + the part under the site's root);
 *   2. .gitbook.yaml's redirects of the resolved site space's current
 *      revision (source: a page path under the space's root);
 *   3. an old path of a page of the resolved site space's space (recorded by
 *      dom_redirects_on_space_advanced when a revision renamed or moved it),
 *      when that page still exists.
 * Each answers 301 to the destination's canonical URL on the same site
 * (site_location: never another host).
 *
 * Access: reads (list, by source) need read on the site, writes admin, as
 * the site's other settings (domain/sites.h); another organization's site is
 * 404. Writes bump the site's generation (the render cache's key).
 */
#ifndef DOCSD_DOMAIN_SITE_REDIRECTS_H
#define DOCSD_DOMAIN_SITE_REDIRECTS_H

#include <stdbool.h>
#include <stddef.h>

#include "domain/domain.h"
#include "domain/events.h"
#include "store/site_redirects.h"

/* A redirect's destination as the API sent it (kind NULL: not sent). */
struct redirect_dest {
	const char *kind; /* site-section | site-space | site-page */
	const char *section_id, *site_space_id, *page_id;
};

/* The longest source path (GitBook's SiteRedirectSourcePath). */
#define REDIRECT_SOURCE_MAX 512

/* Whether s is a SiteRedirectSourcePath: "/" then segments of
 * [A-Za-z0-9-._~] or %XX separated by single '/', at most 512 bytes. */
bool redirect_source_ok(const char *s);

int dom_site_redirects_list(struct dom *d, const char *org_id, const char *site_id, const char *search,
			    const struct list_req *lr, struct site_redirect **items, int *n, char **next);
/* ERR_INVALID naming source or destination.<field>; ERR_CONFLICT when the
 * site has a redirect from that source. */
int dom_site_redirect_create(struct dom *d, const char *org_id, const char *site_id, const char *source,
			     const struct redirect_dest *dest, struct site_redirect *out);
/* source NULL / dest->kind NULL: unchanged. */
int dom_site_redirect_update(struct dom *d, const char *org_id, const char *site_id, const char *id,
			     const char *source, const struct redirect_dest *dest, struct site_redirect *out);
int dom_site_redirect_delete(struct dom *d, const char *org_id, const char *site_id, const char *id,
			     bool *deleted);

/* getSiteRedirectBySource (read): the redirect and where it leads.
 * share_key (NULL: none) must be an active share link of the site. */
int dom_site_redirect_by_source(struct dom *d, const char *org_id, const char *site_id, const char *share_key,
				const char *source, struct site_redirect *out, struct redirect_target *target);

/* ---- for the renderer (no access check: the site is published) ---- */

/* The site redirect from source, or ERR_NOT_FOUND. */
int dom_site_visit_redirect(struct dom *d, const struct site *s, const char *source, struct site_redirect *out);
/* The id of the page of space_id last at path before a revision moved it,
 * or ERR_NOT_FOUND. */
int dom_site_visit_old_path(struct dom *d, const char *space_id, const char *path, const char **page_id);
/* .gitbook.yaml's target (a repository path) of path in revision_id, or
 * ERR_NOT_FOUND. */
int dom_site_visit_git_redirect(struct dom *d, const char *revision_id, const char *path, const char **target);

/* The translations between site spaces of site s (hreflang alternates). */
int dom_site_visit_translations(struct dom *d, const struct site *s, struct site_translation **out, int *n);

/* ---- recording ---- */

/* A Git import's .gitbook.yaml redirects, stored with revision rev_id:
 * each source (relative to root) leads to the page whose git_path is root
 * + "/" + target. */
struct gitbook_redirect; /* format/gitbook_yaml.h */
int dom_git_redirects_record(struct dom *d, const char *rev_id, const char *root, const struct gitbook_redirect *r,
			     size_t n);

/* The events.h subscriber: */

/* For every page of ev->old_revision whose path the new revision changed
 * (renamed, moved under another parent), remember the old path -> page id
 * for ev->space; and, unless a Git import made the new revision (it brings
 * its own), carry the old revision's .gitbook.yaml redirects over to it. */
int dom_redirects_on_space_advanced(struct dom *d, const struct space_advanced *ev);

#endif
