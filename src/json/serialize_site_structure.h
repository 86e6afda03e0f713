/*
 * serialize_site_structure.h - the JSON of a site's structure (GitBook's
 * SiteSection, SiteSectionGroup, SiteSpace, SiteStructure,
 * PublishedContentSite) and the one rule for the published URL of a
 * section or site space, which the published-site renderer shares.
 */
#ifndef DOCSD_JSON_SERIALIZE_SITE_STRUCTURE_H
#define DOCSD_JSON_SERIALIZE_SITE_STRUCTURE_H

#include <stddef.h>

#include "json/jsonw.h"
#include "model/model.h"

/* What every object of one site's structure is written with. share_key: an
 * active share link's key whose URLs carry "/~share/<key>" after the site's
 * root (NULL: none). Published URLs appear only when site->published. */
struct site_script; /* domain/integrations.h */
struct site_json {
	const char *base;      /* the API's (urls.location, urls.app) */
	const char *site_base; /* the published sites' (urls.published) */
	const struct site *site;
	const char *share_key;
	/* PublishedContentSite.scripts: integrations' injected scripts */
	const struct site_script *scripts;
	int nscripts;
};

/* URLs (DESIGN.md "Published sites"): the site's root is
 * site_published_url() [+ "/~share/<key>"]; a section's is root + "/" +
 * path, the default section's is the root; a site space's is its section's
 * URL (the root without sections) + "/" + path, the default site space's is
 * its section's URL. sec: the site space's section, NULL at the root.
 * Written into out (NUL-terminated, truncated to n). */
void site_root_url(char *out, size_t n, const char *base, const struct site *s, const char *share_key);
void site_section_url(char *out, size_t n, const char *root, const struct site_section *sec);
void site_space_url(char *out, size_t n, const char *root, const struct site_section *sec,
		    const struct site_space *ss);

/* SiteSpace; ss->space.access is the actor's role on the space. */
void site_space_to_json(struct jw *g, const struct site_json *c, const struct site_section *sec,
			const struct site_space *ss);
/* SiteSection with its site spaces. */
void site_section_to_json(struct jw *g, const struct site_json *c, const struct site_section *sec);
/* SiteSectionGroup with its sections (taken from st, in display order). */
void site_group_to_json(struct jw *g, const struct site_json *c, const struct site_section_group *grp,
			const struct site_structure *st);
/* SiteStructure: "sections" (groups with their children and ungrouped
 * sections, by position) when the site has sections, else "siteSpaces". */
void site_structure_to_json(struct jw *g, const struct site_json *c, const struct site_structure *st);
/* PublishedContentSite: site, structure, customizations (the site's and,
 * per site space, its override laid over the site's), scripts. 0, or -1
 * (ERR_INTERNAL) when stored customization text is not a JSON object. */
int published_site_to_json(struct jw *g, const struct site_json *c, const struct site_structure *st);

#endif
