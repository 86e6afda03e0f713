/*
 * serialize_site_structure.c - a site's structure (serialize_site_structure.h).
 */
#include "json/serialize_site_structure.h"
#include "json/serialize_integrations.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/serialize.h"
#include "json/serialize_sites.h"
#include "util/err.h"

void site_root_url(char *out, size_t n, const char *base, const struct site *s, const char *share_key)
{
	size_t len;

	site_published_url(out, n, base, s);
	len = strlen(out);
	if (share_key && len < n)
		snprintf(out + len, n - len, "/~share/%s", share_key);
}

void site_section_url(char *out, size_t n, const char *root, const struct site_section *sec)
{
	if (sec->is_default)
		snprintf(out, n, "%s", root);
	else
		snprintf(out, n, "%s/%s", root, sec->path);
}

void site_space_url(char *out, size_t n, const char *root, const struct site_section *sec,
		    const struct site_space *ss)
{
	char parent[1024];

	if (sec)
		site_section_url(parent, sizeof(parent), root, sec);
	else
		snprintf(parent, sizeof(parent), "%s", root);
	if (ss->is_default)
		snprintf(out, n, "%s", parent);
	else
		snprintf(out, n, "%s/%s", parent, ss->path);
}

static void root_of(const struct site_json *c, char *out, size_t n)
{
	site_root_url(out, n, c->site_base, c->site, c->share_key);
}

void site_space_to_json(struct jw *g, const struct site_json *c, const struct site_section *sec,
			const struct site_space *ss)
{
	char root[1024], url[1536];

	jw_obj_open(g);
	jw_kstr(g, "object", "site-space");
	jw_kstr(g, "id", ss->id);
	jw_kstr(g, "path", ss->path);
	jw_kstr_opt(g, "section", ss->section_id);
	jw_key(g, "space");
	space_to_json(g, c->base, &ss->space, ss->space.access);
	jw_kstr(g, "title", ss->space.title);
	jw_kbool(g, "default", ss->is_default);
	jw_kstr_opt(g, "condition", ss->condition);
	jw_key(g, "urls");
	jw_obj_open(g);
	if (c->site->published) {
		root_of(c, root, sizeof(root));
		site_space_url(url, sizeof(url), root, sec, ss);
		jw_kstr(g, "published", url);
	}
	jw_obj_close(g);
	jw_obj_close(g);
}

void site_section_to_json(struct jw *g, const struct site_json *c, const struct site_section *sec)
{
	char root[1024], url[1536];

	jw_obj_open(g);
	jw_kstr(g, "object", "site-section");
	jw_kstr(g, "id", sec->id);
	jw_kstr(g, "title", sec->title);
	jw_kstr_opt(g, "description", sec->description);
	jw_kbool(g, "default", sec->is_default);
	jw_kstr(g, "path", sec->path);
	jw_kstr_opt(g, "condition", sec->condition);
	jw_kstr_opt(g, "sectionGroup", sec->group_id);
	jw_key(g, "siteSpaces");
	jw_arr_open(g);
	for (int i = 0; i < sec->nspaces; i++)
		site_space_to_json(g, c, sec, &sec->spaces[i]);
	jw_arr_close(g);
	jw_key(g, "urls");
	jw_obj_open(g);
	if (c->site->published) {
		root_of(c, root, sizeof(root));
		site_section_url(url, sizeof(url), root, sec);
		jw_kstr(g, "published", url);
	}
	jw_obj_close(g);
	jw_kstr_opt(g, "icon", sec->icon);
	jw_obj_close(g);
}

void site_group_to_json(struct jw *g, const struct site_json *c, const struct site_section_group *grp,
			const struct site_structure *st)
{
	static const char *const keys[] = { "sections", "children" };

	jw_obj_open(g);
	jw_kstr(g, "object", "site-section-group");
	jw_kstr(g, "id", grp->id);
	jw_kstr(g, "title", grp->title);
	/* `sections` (deprecated) and `children` hold the same sections: groups
	 * do not nest here. */
	for (int k = 0; k < 2; k++) {
		jw_key(g, keys[k]);
		jw_arr_open(g);
		for (int i = 0; i < st->nsections; i++)
			if (st->sections[i].group_id && strcmp(st->sections[i].group_id, grp->id) == 0)
				site_section_to_json(g, c, &st->sections[i]);
		jw_arr_close(g);
	}
	jw_kstr_opt(g, "icon", grp->icon);
	jw_obj_close(g);
}

void site_structure_to_json(struct jw *g, const struct site_json *c, const struct site_structure *st)
{
	jw_obj_open(g);
	if (st->nsections == 0) {
		jw_kstr(g, "type", "siteSpaces");
		jw_key(g, "structure");
		jw_arr_open(g);
		for (int i = 0; i < st->nroot; i++)
			site_space_to_json(g, c, NULL, &st->root[i]);
		jw_arr_close(g);
		jw_obj_close(g);
		return;
	}
	jw_kstr(g, "type", "sections");
	jw_key(g, "structure");
	jw_arr_open(g);
	/* The top level: groups and ungrouped sections merged by (position, id). */
	for (int gi = 0, si = 0, t; (t = site_top_next(st, &gi, &si)) != SITE_TOP_END;)
		if (t == SITE_TOP_GROUP)
			site_group_to_json(g, c, &st->groups[gi - 1], st);
		else
			site_section_to_json(g, c, &st->sections[si - 1]);
	jw_arr_close(g);
	jw_obj_close(g);
}

/* Lay src over dst, objects recursively, skipping nulls (an override's null
 * means "not overridden"). */
static int overlay(json_t *dst, json_t *src)
{
	const char *k;
	json_t *v;

	json_object_foreach(src, k, v) {
		json_t *d = json_object_get(dst, k);

		if (json_is_null(v))
			continue;
		if (json_is_object(v) && json_is_object(d)) {
			if (overlay(d, v))
				return -1;
		} else if (json_object_set(dst, k, v)) {
			return -1;
		}
	}
	return 0;
}

/* The site's stored settings with a site space's override laid over them,
 * plus hasOverrides, as one object text for site_customization_to_json. */
static int site_space_customization(struct jw *g, const char *site_stored, const char *override)
{
	json_t *base = json_loads(site_stored && *site_stored ? site_stored : "{}", 0, NULL), *ov = NULL;
	char *text = NULL;
	int rc = -1, has = 0;

	if (!base || !json_is_object(base))
		goto out;
	if (override) {
		if (!(ov = json_loads(override, 0, NULL)) || !json_is_object(ov))
			goto out;
		has = json_object_size(ov) > 0;
		if (overlay(base, ov))
			goto out;
	}
	if (json_object_set_new(base, "hasOverrides", json_boolean(has)) ||
	    !(text = json_dumps(base, JSON_COMPACT | JSON_PRESERVE_ORDER)))
		goto out;
	rc = site_customization_to_json(g, text);
out:
	free(text);
	json_decref(ov);
	json_decref(base);
	return rc ? err_set(ERR_INTERNAL, "site space customization: stored text is not a JSON object") : 0;
}

static int customizations_of(struct jw *g, const struct site *s, const struct site_space *arr, int n)
{
	for (int i = 0; i < n; i++) {
		jw_key(g, arr[i].id);
		if (site_space_customization(g, s->customization, arr[i].customization))
			return -1;
	}
	return 0;
}

int published_site_to_json(struct jw *g, const struct site_json *c, const struct site_structure *st)
{
	jw_obj_open(g);
	jw_kstr(g, "object", "published-content-site");
	jw_key(g, "site");
	site_to_json(g, c->base, c->site_base, c->site);
	jw_key(g, "structure");
	site_structure_to_json(g, c, st);
	jw_key(g, "customizations");
	jw_obj_open(g);
	jw_key(g, "site");
	if (site_customization_to_json(g, c->site->customization))
		return -1;
	jw_key(g, "siteSpaces");
	jw_obj_open(g);
	if (customizations_of(g, c->site, st->root, st->nroot))
		return -1;
	for (int i = 0; i < st->nsections; i++)
		if (customizations_of(g, c->site, st->sections[i].spaces, st->sections[i].nspaces))
			return -1;
	jw_obj_close(g);
	jw_obj_close(g);
	jw_key(g, "scripts");
	site_scripts_to_json(g, c->scripts, c->nscripts);
	jw_obj_close(g);
	return 0;
}
