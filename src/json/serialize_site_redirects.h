/*
 * serialize_site_redirects.h - the JSON of GitBook's SiteRedirect and of
 * getSiteRedirectBySource's answer ({redirect, target}).
 */
#ifndef DOCSD_JSON_SERIALIZE_SITE_REDIRECTS_H
#define DOCSD_JSON_SERIALIZE_SITE_REDIRECTS_H

#include "json/jsonw.h"
#include "model/model.h"

struct site_redirect;   /* model/site_redirect.h */
struct redirect_target; /* model/site_redirect.h */

/* SiteRedirect: object, id, source, destination (by kind). */
void site_redirect_to_json(struct jw *g, const struct site_redirect *r);
/* The absolute URL a redirect leads to (base: the sites' base, server_site_url), into out
 * (NUL-terminated, truncated to n). */
void site_redirect_target_url(char *out, size_t n, const char *base, const struct redirect_target *t);
/* {redirect, target}. */
void site_redirect_resolved_to_json(struct jw *g, const char *base, const struct site_redirect *r,
				    const struct redirect_target *t);

#endif
