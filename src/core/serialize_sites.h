/*
 * serialize_sites.h - the JSON of docs sites and what hangs off them (the one
 * place each is built; GitBook's schemas Site, SiteCustomizationSettings,
 * SiteSection, SiteSpace, SiteSectionGroup, SiteStructure, ShareLink,
 * SiteAdaptiveSchema, PublishedContentSite).
 */
#ifndef DOCSD_CORE_SERIALIZE_SITES_H
#define DOCSD_CORE_SERIALIZE_SITES_H

#include <stddef.h>

#include "core/jsonw.h"
#include "core/model.h"

/* Where site s is served (DESIGN.md "Published sites"): base + "/sites/" +
 * (basename or id), or scheme://hostname when the site has a hostname
 * (scheme from base). Written into out (NUL-terminated, truncated to n). */
void site_published_url(char *out, size_t n, const char *base, const struct site *s);

/* Site; urls.published only when s->published. */
void site_to_json(struct jw *g, const char *base, const struct site *s);

/* A whole SiteCustomizationSettings: `stored` (a JSON object, possibly
 * partial; NULL or "{}" for none) laid over the defaults, so every required
 * group is present. 0, or -1 (ERR_INTERNAL set) on allocation failure or
 * stored text that is not a JSON object. */
int site_customization_to_json(struct jw *g, const char *stored);

#endif
