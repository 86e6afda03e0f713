/*
 * serialize_site_redirects.c - SiteRedirect (serialize_site_redirects.h).
 */
#include "json/serialize_site_redirects.h"

#include "model/site_redirect.h"
#include "json/serialize_site_structure.h"

#include <stdio.h>
#include <string.h>

void site_redirect_to_json(struct jw *g, const struct site_redirect *r)
{
	jw_obj_open(g);
	jw_kstr(g, "object", "site-redirect");
	jw_kstr(g, "id", r->id);
	jw_kstr(g, "source", r->source);
	jw_key(g, "destination");
	jw_obj_open(g);
	jw_kstr(g, "kind", r->kind);
	if (strcmp(r->kind, "site-section") == 0) {
		jw_kstr(g, "siteSectionId", r->section_id);
	} else {
		jw_kstr(g, "siteSpaceId", r->site_space_id);
		if (strcmp(r->kind, "site-page") == 0)
			jw_kstr(g, "pageId", r->page_id);
	}
	jw_obj_close(g);
	jw_obj_close(g);
}

void site_redirect_target_url(char *out, size_t n, const char *base, const struct redirect_target *t)
{
	char root[768], at[1024];
	size_t len;

	site_root_url(root, sizeof(root), base, &t->site, t->share_key);
	if (t->ss)
		site_space_url(at, sizeof(at), root, t->sec, t->ss);
	else if (t->sec)
		site_section_url(at, sizeof(at), root, t->sec);
	else
		snprintf(at, sizeof(at), "%s", root);
	snprintf(out, n, "%s", at);
	len = strlen(out);
	if (t->page_path && len < n)
		snprintf(out + len, n - len, "/%s", t->page_path);
}

void site_redirect_resolved_to_json(struct jw *g, const char *base, const struct site_redirect *r,
				    const struct redirect_target *t)
{
	char url[2048];

	site_redirect_target_url(url, sizeof(url), base, t);
	jw_obj_open(g);
	jw_key(g, "redirect");
	site_redirect_to_json(g, r);
	jw_kstr(g, "target", url);
	jw_obj_close(g);
}
