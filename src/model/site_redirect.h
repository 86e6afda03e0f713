/*
 * site_redirect.h - a site's redirect (GitBook's SiteRedirect) and where one
 * leads. The store reads and writes the first (store/site_redirects.h), the
 * domain resolves the second (domain/site_redirects.h), the serializer writes
 * both (json/serialize_site_redirects.h): in model/ so that none of them
 * includes another's header (scripts/check-layers.sh).
 */
#ifndef DOCSD_MODEL_SITE_REDIRECT_H
#define DOCSD_MODEL_SITE_REDIRECT_H

#include <stdint.h>

#include "model/model.h"

/* GitBook's SiteRedirect: from source (a path of the site, "/a/b") to a
 * section, a site space or a page of a site space. */
struct site_redirect {
	const char *id;
	const char *site_id;
	const char *source;
	const char *kind;          /* site-section | site-space | site-page */
	const char *section_id;    /* site-section */
	const char *site_space_id; /* site-space, site-page */
	const char *page_id;       /* site-page */
	int64_t created_at;
};

/* Where a redirect leads, for its URL: the site, the section (NULL for a
 * site without sections, or the default), the site space (NULL: a
 * section's default) and the page's path (NULL: the space's root). */
struct redirect_target {
	struct site site;
	const char *share_key;
	struct site_structure st;
	const struct site_section *sec;
	const struct site_space *ss;
	const char *page_path;
};

#endif
