/*
 * serialize_sites.h - the JSON of docs sites and what hangs off them (the one
 * place each is built; GitBook's schemas Site, SiteCustomizationSettings,
 * SiteSection, SiteSpace, SiteSectionGroup, SiteStructure, ShareLink,
 * SiteAdaptiveSchema, PublishedContentSite).
 */
#ifndef DOCSD_JSON_SERIALIZE_SITES_H
#define DOCSD_JSON_SERIALIZE_SITES_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "json/jsonw.h"
#include "model/model.h"

/* Where site s is served (DESIGN.md "Published sites"): base + "/sites/" +
 * (basename or id), or scheme://hostname when the site has a hostname
 * (scheme from base). base is the sites' base (server_site_url: another
 * origin than the API's, README "Two origins"). Written into out
 * (NUL-terminated, truncated to n). */
void site_published_url(char *out, size_t n, const char *base, const struct site *s);

/* Site; urls.published only when s->published. */
void site_to_json(struct jw *g, const char *base, const char *site_base, const struct site *s);

/* A whole SiteCustomizationSettings: `stored` (a JSON object, possibly
 * partial; NULL or "{}" for none) laid over the defaults, so every required
 * group is present. 0, or -1 (ERR_INTERNAL set) on allocation failure or
 * stored text that is not a JSON object. */
int site_customization_to_json(struct jw *g, const char *stored);

/* SiteSpaceCustomizationSettings: the defaults, the site's stored
 * customization and the site space's override (NULL: none) laid over each
 * other, with hasOverrides. 0 or -1 as above. */
int site_space_customization_to_json(struct jw *g, const char *site, const char *override);

/* 0 when v is a valid SiteCustomizationSettings body (override false: PUT of
 * a site's customization; fields may be left out and come from the
 * defaults) or a valid body of overrideSiteSpaceCustomizationById (override
 * true: null resets a field; site-only groups are refused); else ERR_INVALID
 * naming the path ("styling.primaryColor.light: must be a color ..."). Header
 * links' conditions go through cond_check(). */
int site_customization_check(const json_t *v, bool override);

/* The override after a PATCH: `existing` (stored JSON or NULL) with patch
 * laid over it (null removes a field; emptied groups go). *out: malloc'd
 * compact JSON (the caller frees it), or NULL when nothing is overridden any
 * more. 0, or -1 (ERR_INTERNAL). */
int site_customization_override(const char *existing, json_t *patch, char **out);

/* ShareLink of site s; urls.published = the site's published URL +
 * "/~share/" + key. */
void site_share_link_to_json(struct jw *g, const char *site_base, const struct site *s, const struct site_share_link *l);

/* SiteAdaptiveSchema of s (s->adaptive_schema set). */
void site_adaptive_schema_to_json(struct jw *g, const struct site *s);
/* listSiteAdaptiveTemplateConditions: {items: [{description, condition}]}. */
struct template_condition; /* model/adaptive.h */
void site_template_conditions_to_json(struct jw *g, const struct template_condition *items, int n);

/* SitePublishingAuth. */
void site_publishing_auth_to_json(struct jw *g, const char *backend, const char *fallback_url, const char *private_key);

#endif
