/*
 * site_structure.c - a site's sections, section groups and site spaces, its
 * structure and its published profile.
 *
 * Each handler parses the request, calls one domain function (domain/sites.h,
 * "structure": it checks the role on the site, read for reads and create for
 * writes, and answers with a struct site_answer) and serializes it
 * (json/serialize_site_structure.h). Sections, section groups and site
 * spaces are the three kinds of item of a structure: listing, deleting,
 * moving and answering with one is one helper here, given the kind.
 *
 * Lists page through the structure in display order: a structure is small
 * and read whole, and the cursor names the last item returned (its id, its
 * index as a fallback when it has since gone).
 */
#include "api/api.h"
#include "domain/integrations.h"
#include "json/serialize_site_structure.h"
#include "domain/sites.h"

#include <string.h>

static const char *org_of(struct req *r)
{
	return req_param(r, "organizationId");
}

static const char *site_of(struct req *r)
{
	return req_param(r, "siteId");
}

/* The path parameter that names an item of each kind. */
static const char *item_param(struct req *r, enum site_item_kind kind)
{
	static const char *const names[] = { [SITE_ITEM_SPACE] = "siteSpaceId", [SITE_ITEM_SECTION] = "siteSectionId",
					     [SITE_ITEM_GROUP] = "siteSectionGroupId" };

	return req_param(r, names[kind]);
}

static const char *item_id(const struct site_item *it)
{
	return it->kind == SITE_ITEM_GROUP ? it->group->id : it->kind == SITE_ITEM_SECTION ? it->section->id : it->space->id;
}

/* SiteSectionGroup, SiteSection or SiteSpace (a site space's URL depends on
 * its section: NULL at the root). */
static void item_to_json(struct jw *g, const struct site_json *c, const struct site_structure *st,
			 const struct site_item *it)
{
	if (it->kind == SITE_ITEM_GROUP)
		site_group_to_json(g, c, it->group, st);
	else if (it->kind == SITE_ITEM_SECTION)
		site_section_to_json(g, c, it->section);
	else
		site_space_to_json(g, c, it->section, it->space);
}

static struct site_json json_ctx(struct req *r, const struct site_answer *v)
{
	return (struct site_json){
		.base = api_base(r), .site_base = server_site_url(r->srv), .site = &v->site, .share_key = v->share_key
	};
}

/* The item a write answers with. */
static int send_item(struct req *r, int status, const struct site_answer *v)
{
	struct site_json c = json_ctx(r, v);
	struct jw *g = resp_json(r, status);

	item_to_json(g, &c, &v->st, &v->item);
	return 0;
}

/* Which of n items (in display order) a page holds: [*from, *to), and the
 * cursor of the next page (NULL when this is the last). */
static int page_of(struct req *r, const struct site_item *items, int n, int *from, int *to, char **next)
{
	struct list_req lr;
	struct cursor cur;
	int64_t key;
	int rc, start = 0;

	*next = NULL;
	if ((rc = req_list(r, &lr, &cur, NULL, 0)))
		return rc;
	if (lr.after) {
		if ((rc = cursor_key_int(lr.after, &key)))
			return rc;
		start = key < 0 ? 0 : key > n ? n : (int)key;
		for (int i = 0; i < n; i++)
			if (strcmp(item_id(&items[i]), lr.after->id) == 0)
				start = i + 1;
	}
	*from = start;
	*to = n - start > lr.limit ? start + lr.limit : n;
	if (*to < n && !(*next = cursor_encode_int(&r->arena, *to, item_id(&items[*to - 1]))))
		return err_set(ERR_INTERNAL, "cannot encode the page cursor");
	return 0;
}

/* A list of the items of one kind (want_default: dom_site_items_list). The
 * page is read after the domain call, as it always was: an outsider's bad
 * `limit` stays a 404. */
static int list_items(struct req *r, enum site_item_kind kind, int want_default)
{
	struct site_item *items;
	struct site_answer v;
	struct site_json c;
	struct jw *g;
	char *next;
	int n, from, to, rc;

	if ((rc = dom_site_items_list(&r->dom, org_of(r), site_of(r), kind, req_query(r, "shareKey"), want_default, &v,
				      &items, &n)) ||
	    (rc = page_of(r, items, n, &from, &to, &next)))
		return rc;
	g = resp_list_begin(r);
	c = json_ctx(r, &v);
	for (int i = from; i < to; i++)
		item_to_json(g, &c, &v.st, &items[i]);
	return resp_list_end(r, n, next);
}

/* position {before|after: {type, id | siteSection | siteSpace}}; absent,
 * null or {}: the end. */
static int body_site_position(struct req *r, struct site_position *out)
{
	static const char *const sides[] = { "before", "after" };
	json_t *pos = body_field(r, "position");

	memset(out, 0, sizeof(*out));
	if (!pos || json_is_null(pos))
		return 0;
	if (!json_is_object(pos))
		return err_set(ERR_INVALID, "position: must be an object with 'before' or 'after'");
	if (json_object_get(pos, "before") && json_object_get(pos, "after"))
		return err_set(ERR_INVALID, "position: give exactly one of 'before' and 'after'");
	for (int k = 0; k < 2; k++) {
		json_t *p = json_object_get(pos, sides[k]), *type, *id;
		const char *t;

		if (!p)
			continue;
		type = json_object_get(p, "type");
		if (!json_is_object(p) || !json_is_string(type))
			return err_set(ERR_INVALID, "position.%s: must be an object with a type and an id", sides[k]);
		t = json_string_value(type);
		if (dom_site_item_kind(t) < 0)
			return err_set(ERR_INVALID,
				       "position.%s.type: must be 'site-space', 'site-section' or 'site-section-group'",
				       sides[k]);
		if (!(id = json_object_get(p, "id")))
			id = json_object_get(p, strcmp(t, "site-space") == 0 ? "siteSpace" : "siteSection");
		if (!json_is_string(id) || json_string_length(id) == 0 || json_string_length(id) > 64)
			return err_set(ERR_INVALID, "position.%s: must name the id of a %s", sides[k], t);
		if (k == 0) {
			out->before_type = t;
			out->before = json_string_value(id);
		} else {
			out->after_type = t;
			out->after = json_string_value(id);
		}
	}
	return 0; /* {}: the end */
}

/* ---- any item: update, delete, move (the deprecated per-kind operations) ---- */

/* title (flags, min..max characters) and icon (nullable, 0..50), which
 * sections and groups share; has_icon (may be NULL): icon was sent. */
static int body_title_icon(struct req *r, int title_flags, long min, long max, const char **title,
			   const char **icon, bool *has_icon)
{
	int rc;

	if ((rc = body_string(r, "title", title_flags, min, max, title)) < 0 ||
	    (rc = body_string(r, "icon", F_NULLABLE, 0, 50, icon)) < 0)
		return rc;
	if (has_icon)
		*has_icon = rc == 1;
	return 0;
}

/* The fields of an update, as GitBook names and bounds them for each kind. */
static int body_item_update(struct req *r, enum site_item_kind kind, struct site_item_update *in)
{
	int rc;

	memset(in, 0, sizeof(*in));
	if (kind == SITE_ITEM_GROUP)
		return body_title_icon(r, 0, 1, 100, &in->title, &in->icon, &in->has_icon);
	if (kind == SITE_ITEM_SECTION) {
		if ((rc = body_title_icon(r, 0, 2, 128, &in->title, &in->icon, &in->has_icon)) < 0 ||
		    (rc = body_string(r, "path", 0, 1, 100, &in->path)) < 0 ||
		    (rc = body_string(r, "defaultSiteSpace", 0, 1, 64, &in->default_site_space)) < 0 ||
		    (rc = body_string(r, "description", F_NULLABLE, 0, 256, &in->description)) < 0)
			return rc;
		in->has_description = rc == 1;
	} else if ((rc = body_string(r, "path", 0, 1, 100, &in->path)) < 0 ||
		   (rc = body_string(r, "spaceId", 0, 1, 64, &in->space_id)) < 0) {
		return rc;
	}
	/* a section's condition may be empty, a site space's not */
	if ((rc = body_string(r, "condition", F_NULLABLE, kind == SITE_ITEM_SECTION ? 0 : 1, 1024, &in->condition)) < 0)
		return rc;
	in->has_condition = rc == 1;
	return 0;
}

static int item_update(struct req *r, enum site_item_kind kind)
{
	struct site_item_update in;
	struct site_answer v;
	int rc;

	if ((rc = body_item_update(r, kind, &in)) ||
	    (rc = dom_site_item_update(&r->dom, org_of(r), site_of(r), kind, item_param(r, kind), &in, &v)))
		return rc;
	return send_item(r, 200, &v);
}

static int item_delete(struct req *r, enum site_item_kind kind)
{
	int rc = dom_site_item_delete(&r->dom, org_of(r), site_of(r), kind, item_param(r, kind));

	/* also 204 when it did not exist (the seed) */
	return rc ? rc : resp_empty(r, 204);
}

static int item_move(struct req *r, enum site_item_kind kind)
{
	struct site_position pos;
	struct site_answer v;
	int rc;

	if ((rc = body_site_position(r, &pos)) ||
	    (rc = dom_site_item_move(&r->dom, org_of(r), site_of(r), kind, item_param(r, kind), &pos, false, &v)))
		return rc;
	return send_item(r, 200, &v);
}

/* ---- sections ---- */

int api_site_sections_list(struct req *r)
{
	return list_items(r, SITE_ITEM_SECTION, -1);
}

int api_site_section_create(struct req *r)
{
	struct site_section_input in;
	struct site_answer v;
	int rc;

	memset(&in, 0, sizeof(in));
	if ((rc = body_string(r, "spaceId", F_REQUIRED, 1, 64, &in.space_id)) < 0 ||
	    (rc = body_title_icon(r, F_NULLABLE, 2, 128, &in.title, &in.icon, NULL)) < 0 ||
	    (rc = dom_site_section_create(&r->dom, org_of(r), site_of(r), &in, &v)))
		return rc;
	return send_item(r, 201, &v);
}

int api_site_section_update(struct req *r)
{
	return item_update(r, SITE_ITEM_SECTION);
}

int api_site_section_delete(struct req *r)
{
	return item_delete(r, SITE_ITEM_SECTION);
}

int api_site_section_move(struct req *r)
{
	return item_move(r, SITE_ITEM_SECTION);
}

/* ---- section groups ---- */

int api_site_groups_list(struct req *r)
{
	return list_items(r, SITE_ITEM_GROUP, -1);
}

int api_site_group_create(struct req *r)
{
	struct site_group_input in;
	json_t *parent = body_field(r, "parent");
	struct site_answer v;
	int rc;

	memset(&in, 0, sizeof(in));
	if ((rc = body_title_icon(r, F_REQUIRED, 1, 100, &in.title, &in.icon, NULL)) < 0)
		return rc;
	if (parent && !json_is_null(parent))
		return err_set(ERR_INVALID, "parent: nested section groups are not supported");
	if ((rc = body_string_array(r, "sections", 0, 1000, 64, (const char ***)&in.sections, &in.nsections)) < 0 ||
	    (rc = dom_site_group_create(&r->dom, org_of(r), site_of(r), &in, &v)))
		return rc;
	return send_item(r, 201, &v);
}

int api_site_group_update(struct req *r)
{
	return item_update(r, SITE_ITEM_GROUP);
}

int api_site_group_delete(struct req *r)
{
	return item_delete(r, SITE_ITEM_GROUP);
}

int api_site_group_add_section(struct req *r)
{
	const char *section_id;
	struct site_answer v;
	int rc;

	if ((rc = body_string(r, "sectionId", F_REQUIRED, 1, 64, &section_id)) < 0 ||
	    (rc = dom_site_group_add_section(&r->dom, org_of(r), site_of(r), item_param(r, SITE_ITEM_GROUP),
					     section_id, &v)))
		return rc;
	return send_item(r, 201, &v);
}

int api_site_group_remove_section(struct req *r)
{
	int rc = dom_site_group_remove_section(&r->dom, org_of(r), site_of(r), item_param(r, SITE_ITEM_GROUP),
					       item_param(r, SITE_ITEM_SECTION));

	return rc ? rc : resp_empty(r, 204);
}

int api_site_group_move(struct req *r)
{
	return item_move(r, SITE_ITEM_GROUP);
}

/* ---- site spaces ---- */

int api_site_spaces_list(struct req *r)
{
	static const char *const bools[] = { "false", "true", NULL };
	int want, rc;

	/* default=true: the site's default site space alone; false: the others */
	if ((rc = req_query_enum(r, "default", bools, &want)))
		return rc;
	return list_items(r, SITE_ITEM_SPACE, want);
}

int api_site_space_create(struct req *r)
{
	const char *space_id, *section_id;
	struct site_answer v;
	int rc;

	if ((rc = body_string(r, "spaceId", F_REQUIRED, 1, 64, &space_id)) < 0 ||
	    (rc = body_string(r, "sectionId", 0, 1, 64, &section_id)) < 0 ||
	    (rc = dom_site_space_create(&r->dom, org_of(r), site_of(r), space_id, section_id, &v)))
		return rc;
	return send_item(r, 201, &v);
}

int api_site_space_update(struct req *r)
{
	return item_update(r, SITE_ITEM_SPACE);
}

int api_site_space_delete(struct req *r)
{
	return item_delete(r, SITE_ITEM_SPACE);
}

int api_site_space_move(struct req *r)
{
	return item_move(r, SITE_ITEM_SPACE);
}

/* ---- the structure, the published profile ---- */

/* SiteStructure, or (published) PublishedContentSite. */
static int send_structure(struct req *r, bool published)
{
	struct site_answer v;
	struct site_json c;
	struct jw *g;
	int rc;

	if ((rc = dom_site_structure_get(&r->dom, org_of(r), site_of(r), req_query(r, "shareKey"), &v)))
		return rc;
	c = json_ctx(r, &v);
	/* The integrations' scripts (domain/integrations.h) of the site just read. */
	if (published && (rc = dom_site_integration_scripts(&r->dom, v.site.id, (struct site_script **)&c.scripts,
							    &c.nscripts)))
		return rc;
	g = resp_json(r, 200);
	if (published)
		return published_site_to_json(g, &c, &v.st);
	site_structure_to_json(g, &c, &v.st);
	return 0;
}

int api_site_structure_get(struct req *r)
{
	return send_structure(r, false);
}

int api_site_published_get(struct req *r)
{
	return send_structure(r, true);
}

/* sortSiteStructure: answers with the moved item (SiteStructureItem). */
int api_site_structure_sort(struct req *r)
{
	json_t *item = body_field(r, "item");
	struct site_position pos;
	struct site_answer v;
	int kind, rc;

	if (!item || !json_is_object(item) || !json_is_string(json_object_get(item, "type")) ||
	    !json_is_string(json_object_get(item, "id")))
		return err_set(ERR_INVALID, "item: must be {type, id}");
	if ((kind = dom_site_item_kind(json_string_value(json_object_get(item, "type")))) < 0)
		return err_set(ERR_INVALID, "item.type: must be 'site-space', 'site-section' or 'site-section-group'");
	if (!body_field(r, "position"))
		return err_set(ERR_INVALID, "position: required");
	if ((rc = body_site_position(r, &pos)) ||
	    (rc = dom_site_item_move(&r->dom, org_of(r), site_of(r), (enum site_item_kind)kind,
				     json_string_value(json_object_get(item, "id")), &pos, true, &v)))
		return rc;
	return send_item(r, 200, &v);
}
