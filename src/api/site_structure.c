/*
 * site_structure.c - a site's sections, section groups and site spaces, its
 * structure and its published profile.
 *
 * Each handler parses the request, loads the site with its access check
 * (dom_site_get: read for reads; create, with the site's row locked, for
 * writes), calls one domain function (domain/sites.h, "structure") and
 * serializes (core/serialize_site_structure.h).
 *
 * Lists page through the structure in display order: a structure is small
 * and read whole, and the cursor names the last item returned (its id, its
 * index as a fallback when it has since gone).
 */
#include "api/api.h"
#include "core/serialize_site_structure.h"
#include "core/serialize_sites.h"
#include "domain/sites.h"

#include <string.h>

/* ---- shared ---- */

static int site_for(struct req *r, enum role need, struct site *s)
{
	return dom_site_get(&r->dom, req_param(r, "organizationId"), req_param(r, "siteId"), need, need > ROLE_READ,
			    s);
}

/* The site for a read, with the share key its URLs show (query shareKey). */
static int site_read(struct req *r, struct site *s, struct site_json *c)
{
	int rc = site_for(r, ROLE_READ, s);

	c->base = api_base(r);
	c->site = s;
	c->share_key = NULL;
	return rc ? rc : dom_site_share_key(&r->dom, s, req_query(r, "shareKey"), &c->share_key);
}

static void json_ctx(struct req *r, const struct site *s, struct site_json *c)
{
	c->base = api_base(r);
	c->site = s;
	c->share_key = NULL;
}

/* Which of n items (ids in display order) a page holds: [*from, *to), and
 * the cursor of the next page (NULL when this is the last). */
static int page_of(struct req *r, const char *const *ids, int n, int *from, int *to, char **next)
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
			if (strcmp(ids[i], lr.after->id) == 0)
				start = i + 1;
	}
	*from = start;
	*to = n - start > lr.limit ? start + lr.limit : n;
	if (*to < n && !(*next = cursor_encode_int(&r->arena, *to, ids[*to - 1])))
		return err_set(ERR_INTERNAL, "out of memory");
	return 0;
}

/* One page of a list held in memory (ids in display order): item(g, i, ctx)
 * writes the i-th; count is the whole list's length. */
typedef void (*page_item_fn)(struct jw *g, int i, const void *ctx);

static int send_page(struct req *r, const char *const *ids, int n, page_item_fn item, const void *ctx)
{
	struct jw *g;
	char *next;
	int from, to, rc;

	if ((rc = page_of(r, ids, n, &from, &to, &next)))
		return rc;
	if (!(g = resp_list_begin(r)))
		return err_set(ERR_INTERNAL, "out of memory");
	for (int i = from; i < to; i++)
		item(g, i, ctx);
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

		if (!p)
			continue;
		type = json_object_get(p, "type");
		if (!json_is_object(p) || !json_is_string(type))
			return err_set(ERR_INVALID, "position.%s: must be an object with a type and an id", sides[k]);
		const char *t = json_string_value(type);
		if (strcmp(t, "site-space") && strcmp(t, "site-section") && strcmp(t, "site-section-group"))
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

static int send_section(struct req *r, int status, const struct site *s, const struct site_section *sec)
{
	struct site_json c;
	struct jw *g = resp_json(r, status);

	if (!g)
		return err_set(ERR_INTERNAL, "out of memory");
	json_ctx(r, s, &c);
	site_section_to_json(g, &c, sec);
	return 0;
}

/* sec: the site space's section (its id NULL at the root). */
static int send_site_space(struct req *r, int status, const struct site *s, const struct site_section *sec,
			   const struct site_space *ss)
{
	struct site_json c;
	struct jw *g = resp_json(r, status);

	if (!g)
		return err_set(ERR_INTERNAL, "out of memory");
	json_ctx(r, s, &c);
	site_space_to_json(g, &c, sec && sec->id ? sec : NULL, ss);
	return 0;
}

static int send_group(struct req *r, int status, const struct site *s, const struct site_section_group *grp,
		      const struct site_structure *st)
{
	struct site_json c;
	struct jw *g = resp_json(r, status);

	if (!g)
		return err_set(ERR_INTERNAL, "out of memory");
	json_ctx(r, s, &c);
	site_group_to_json(g, &c, grp, st);
	return 0;
}

/* ---- sections ---- */

struct sections_page {
	const struct site_json *c;
	const struct site_structure *st;
};

static void section_item(struct jw *g, int i, const void *ctx)
{
	const struct sections_page *p = ctx;

	site_section_to_json(g, p->c, &p->st->sections[i]);
}

int site_sections_list(struct req *r)
{
	struct site s;
	struct site_json c;
	struct site_structure st;
	const char **ids;
	int rc;

	if ((rc = site_read(r, &s, &c)) || (rc = dom_site_structure(&r->dom, &s, &st)))
		return rc;
	if (!(ids = arena_alloc(&r->arena, sizeof(*ids) * (size_t)(st.nsections + 1))))
		return err_set(ERR_INTERNAL, "out of memory");
	for (int i = 0; i < st.nsections; i++)
		ids[i] = st.sections[i].id;
	return send_page(r, ids, st.nsections, section_item, &(struct sections_page){ &c, &st });
}

/* The fields of a section create (create: true) or update. */
static int body_section(struct req *r, bool create, struct site_section_input *in)
{
	int rc;

	memset(in, 0, sizeof(*in));
	if (create && (rc = body_string(r, "spaceId", F_REQUIRED, 1, 64, &in->space_id)) < 0)
		return rc;
	if ((rc = body_string(r, "title", create ? F_NULLABLE : 0, 2, 128, &in->title)) < 0 ||
	    (rc = body_string(r, "icon", F_NULLABLE, 0, 50, &in->icon)) < 0)
		return rc;
	in->has_icon = rc == 1;
	if (create)
		return 0;
	if ((rc = body_string(r, "path", 0, 1, 100, &in->path)) < 0 ||
	    (rc = body_string(r, "defaultSiteSpace", 0, 1, 64, &in->default_site_space)) < 0 ||
	    (rc = body_string(r, "description", F_NULLABLE, 0, 256, &in->description)) < 0)
		return rc;
	in->has_description = rc == 1;
	if ((rc = body_string(r, "condition", F_NULLABLE, 0, 1024, &in->condition)) < 0)
		return rc;
	in->has_condition = rc == 1;
	return 0;
}

int site_section_create(struct req *r)
{
	struct site_section_input in;
	struct site_section sec;
	struct site s;
	int rc;

	if ((rc = body_section(r, true, &in)) || (rc = site_for(r, ROLE_CREATE, &s)) ||
	    (rc = dom_site_section_create(&r->dom, &s, &in, &sec)))
		return rc;
	return send_section(r, 201, &s, &sec);
}

int site_section_update(struct req *r)
{
	struct site_section_input in;
	struct site_section sec;
	struct site s;
	int rc;

	if ((rc = body_section(r, false, &in)) || (rc = site_for(r, ROLE_CREATE, &s)) ||
	    (rc = dom_site_section_update(&r->dom, &s, req_param(r, "siteSectionId"), &in, &sec)))
		return rc;
	return send_section(r, 200, &s, &sec);
}

int site_section_delete(struct req *r)
{
	struct site s;
	int rc;

	if ((rc = site_for(r, ROLE_CREATE, &s)) || (rc = dom_site_section_delete(&r->dom, &s, req_param(r, "siteSectionId"))))
		return rc;
	/* also 204 when it did not exist (the seed) */
	return resp_empty(r, 204);
}

int site_section_move(struct req *r)
{
	struct site_position pos;
	struct site_section sec;
	struct site s;
	int rc;

	if ((rc = body_site_position(r, &pos)) || (rc = site_for(r, ROLE_CREATE, &s)) ||
	    (rc = dom_site_section_move(&r->dom, &s, req_param(r, "siteSectionId"), &pos, &sec)))
		return rc;
	return send_section(r, 200, &s, &sec);
}

/* ---- section groups ---- */

static void group_item(struct jw *g, int i, const void *ctx)
{
	const struct sections_page *p = ctx;

	site_group_to_json(g, p->c, &p->st->groups[i], p->st);
}

int site_groups_list(struct req *r)
{
	struct site s;
	struct site_json c;
	struct site_structure st;
	const char **ids;
	int rc;

	if ((rc = site_read(r, &s, &c)) || (rc = dom_site_structure(&r->dom, &s, &st)))
		return rc;
	if (!(ids = arena_alloc(&r->arena, sizeof(*ids) * (size_t)(st.ngroups + 1))))
		return err_set(ERR_INTERNAL, "out of memory");
	for (int i = 0; i < st.ngroups; i++)
		ids[i] = st.groups[i].id;
	return send_page(r, ids, st.ngroups, group_item, &(struct sections_page){ &c, &st });
}

static int body_group(struct req *r, bool create, struct site_group_input *in)
{
	int rc;

	memset(in, 0, sizeof(*in));
	if ((rc = body_string(r, "title", create ? F_REQUIRED : 0, 1, 100, &in->title)) < 0 ||
	    (rc = body_string(r, "icon", F_NULLABLE, 0, 50, &in->icon)) < 0)
		return rc;
	in->has_icon = rc == 1;
	if (!create)
		return 0;
	if (body_field(r, "parent") && !json_is_null(body_field(r, "parent")))
		return err_set(ERR_INVALID, "parent: nested section groups are not supported");
	if ((rc = body_string_array(r, "sections", 0, 1000, 64, (const char ***)&in->sections, &in->nsections)) < 0)
		return rc;
	return 0;
}

int site_group_create(struct req *r)
{
	struct site_group_input in;
	struct site_section_group grp;
	struct site_structure st;
	struct site s;
	int rc;

	if ((rc = body_group(r, true, &in)) || (rc = site_for(r, ROLE_CREATE, &s)) ||
	    (rc = dom_site_group_create(&r->dom, &s, &in, &grp, &st)))
		return rc;
	return send_group(r, 201, &s, &grp, &st);
}

int site_group_update(struct req *r)
{
	struct site_group_input in;
	struct site_section_group grp;
	struct site_structure st;
	struct site s;
	int rc;

	if ((rc = body_group(r, false, &in)) || (rc = site_for(r, ROLE_CREATE, &s)) ||
	    (rc = dom_site_group_update(&r->dom, &s, req_param(r, "siteSectionGroupId"), &in, &grp, &st)))
		return rc;
	return send_group(r, 200, &s, &grp, &st);
}

int site_group_delete(struct req *r)
{
	struct site s;
	int rc;

	if ((rc = site_for(r, ROLE_CREATE, &s)) ||
	    (rc = dom_site_group_delete(&r->dom, &s, req_param(r, "siteSectionGroupId"))))
		return rc;
	return resp_empty(r, 204);
}

int site_group_add_section(struct req *r)
{
	struct site_section_group grp;
	struct site_structure st;
	const char *section_id;
	struct site s;
	int rc;

	if ((rc = body_string(r, "sectionId", F_REQUIRED, 1, 64, &section_id)) < 0 ||
	    (rc = site_for(r, ROLE_CREATE, &s)) ||
	    (rc = dom_site_group_add_section(&r->dom, &s, req_param(r, "siteSectionGroupId"), section_id, &grp, &st)))
		return rc;
	return send_group(r, 201, &s, &grp, &st);
}

int site_group_remove_section(struct req *r)
{
	struct site s;
	int rc;

	if ((rc = site_for(r, ROLE_CREATE, &s)) ||
	    (rc = dom_site_group_remove_section(&r->dom, &s, req_param(r, "siteSectionGroupId"),
						req_param(r, "siteSectionId"))))
		return rc;
	return resp_empty(r, 204);
}

int site_group_move(struct req *r)
{
	struct site_position pos;
	struct site_section_group grp;
	struct site_structure st;
	struct site s;
	int rc;

	if ((rc = body_site_position(r, &pos)) || (rc = site_for(r, ROLE_CREATE, &s)) ||
	    (rc = dom_site_group_move(&r->dom, &s, req_param(r, "siteSectionGroupId"), &pos, &grp, &st)))
		return rc;
	return send_group(r, 200, &s, &grp, &st);
}

/* ---- site spaces ---- */

struct site_spaces_page {
	const struct site_json *c;
	const struct site_space **items;
	const struct site_section **secs;
};

static void site_space_item(struct jw *g, int i, const void *ctx)
{
	const struct site_spaces_page *p = ctx;

	site_space_to_json(g, p->c, p->secs[i], p->items[i]);
}

int site_spaces_list(struct req *r)
{
	static const char *const bools[] = { "false", "true", NULL };
	struct site s;
	struct site_json c;
	struct site_structure st;
	const struct site_space **items;
	const struct site_section **secs;
	const char **ids;
	int n = 0, total, want, rc;

	if ((rc = req_query_enum(r, "default", bools, &want)) || (rc = site_read(r, &s, &c)) ||
	    (rc = dom_site_structure(&r->dom, &s, &st)))
		return rc;
	total = st.nroot;
	for (int j = 0; j < st.nsections; j++)
		total += st.sections[j].nspaces;
	if (!(items = arena_alloc(&r->arena, sizeof(*items) * (size_t)(total + 1))) ||
	    !(secs = arena_alloc(&r->arena, sizeof(*secs) * (size_t)(total + 1))) ||
	    !(ids = arena_alloc(&r->arena, sizeof(*ids) * (size_t)(total + 1))))
		return err_set(ERR_INTERNAL, "out of memory");
	for (int j = -1; j < st.nsections; j++) {
		const struct site_section *sec = j < 0 ? NULL : &st.sections[j];
		const struct site_space *arr = sec ? sec->spaces : st.root;
		int cnt = sec ? sec->nspaces : st.nroot;

		for (int i = 0; i < cnt; i++) {
			/* The site's default site space: the root's default, or
			 * the default section's. default=true lists it alone,
			 * default=false every other. */
			int site_default = arr[i].is_default && (!sec || sec->is_default);

			if (want >= 0 && site_default != want)
				continue;
			items[n] = &arr[i];
			secs[n] = sec;
			ids[n++] = arr[i].id;
		}
	}
	return send_page(r, ids, n, site_space_item, &(struct site_spaces_page){ &c, items, secs });
}

int site_space_create(struct req *r)
{
	const char *space_id, *section_id;
	struct site_section sec;
	struct site_space ss;
	struct site s;
	int rc;

	if ((rc = body_string(r, "spaceId", F_REQUIRED, 1, 64, &space_id)) < 0 ||
	    (rc = body_string(r, "sectionId", 0, 1, 64, &section_id)) < 0 || (rc = site_for(r, ROLE_CREATE, &s)) ||
	    (rc = dom_site_space_add(&r->dom, &s, space_id, section_id, &ss)) ||
	    (rc = dom_site_space_find(&r->dom, &s, ss.id, &ss, &sec)))
		return rc;
	return send_site_space(r, 201, &s, &sec, &ss);
}

int site_space_update(struct req *r)
{
	struct site_space_input in;
	struct site_section sec;
	struct site_space ss;
	struct site s;
	int rc;

	memset(&in, 0, sizeof(in));
	if ((rc = body_string(r, "path", 0, 1, 100, &in.path)) < 0 ||
	    (rc = body_string(r, "spaceId", 0, 1, 64, &in.space_id)) < 0 ||
	    (rc = body_string(r, "condition", F_NULLABLE, 1, 1024, &in.condition)) < 0)
		return rc;
	in.has_condition = rc == 1;
	if ((rc = site_for(r, ROLE_CREATE, &s)) ||
	    (rc = dom_site_space_update(&r->dom, &s, req_param(r, "siteSpaceId"), &in, &ss, &sec)))
		return rc;
	return send_site_space(r, 200, &s, &sec, &ss);
}

int site_space_delete(struct req *r)
{
	struct site s;
	int rc;

	if ((rc = site_for(r, ROLE_CREATE, &s)) || (rc = dom_site_space_delete(&r->dom, &s, req_param(r, "siteSpaceId"))))
		return rc;
	return resp_empty(r, 204);
}

int site_space_move(struct req *r)
{
	struct site_position pos;
	struct site_section sec;
	struct site_space ss;
	struct site s;
	int rc;

	if ((rc = body_site_position(r, &pos)) || (rc = site_for(r, ROLE_CREATE, &s)) ||
	    (rc = dom_site_space_move(&r->dom, &s, req_param(r, "siteSpaceId"), &pos, &ss, &sec)))
		return rc;
	return send_site_space(r, 200, &s, &sec, &ss);
}

/* ---- the structure, the published profile ---- */

int site_structure_get(struct req *r)
{
	struct site s;
	struct site_json c;
	struct site_structure st;
	struct jw *g;
	int rc;

	if ((rc = site_read(r, &s, &c)) || (rc = dom_site_structure(&r->dom, &s, &st)))
		return rc;
	if (!(g = resp_json(r, 200)))
		return err_set(ERR_INTERNAL, "out of memory");
	site_structure_to_json(g, &c, &st);
	return 0;
}

int site_structure_sort(struct req *r)
{
	struct site_position pos;
	struct site_structure st;
	struct site_json c;
	const char *type, *id;
	json_t *item = body_field(r, "item");
	struct site s;
	struct jw *g;
	int rc;

	if (!item || !json_is_object(item) || !json_is_string(json_object_get(item, "type")) ||
	    !json_is_string(json_object_get(item, "id")))
		return err_set(ERR_INVALID, "item: must be {type, id}");
	type = json_string_value(json_object_get(item, "type"));
	id = json_string_value(json_object_get(item, "id"));
	if (strcmp(type, "site-space") && strcmp(type, "site-section") && strcmp(type, "site-section-group"))
		return err_set(ERR_INVALID, "item.type: must be 'site-space', 'site-section' or 'site-section-group'");
	if (!body_field(r, "position"))
		return err_set(ERR_INVALID, "position: required");
	if ((rc = body_site_position(r, &pos)) || (rc = site_for(r, ROLE_CREATE, &s)) ||
	    (rc = dom_site_structure_sort(&r->dom, &s, type, id, &pos, &st)))
		return rc;
	json_ctx(r, &s, &c);
	/* SiteStructureItem: the moved item as it now stands. */
	if (strcmp(type, "site-section-group") == 0) {
		const struct site_section_group *grp = dom_site_group_find(&st, id);

		if (!grp)
			return err_set(ERR_NOT_FOUND, "site section group not found");
		if (!(g = resp_json(r, 200)))
			return err_set(ERR_INTERNAL, "out of memory");
		site_group_to_json(g, &c, grp, &st);
		return 0;
	}
	for (int j = -1; j < st.nsections; j++) {
		const struct site_section *sec = j < 0 ? NULL : &st.sections[j];
		const struct site_space *arr = sec ? sec->spaces : st.root;
		int cnt = sec ? sec->nspaces : st.nroot;

		if (sec && strcmp(type, "site-section") == 0 && strcmp(sec->id, id) == 0) {
			if (!(g = resp_json(r, 200)))
				return err_set(ERR_INTERNAL, "out of memory");
			site_section_to_json(g, &c, sec);
			return 0;
		}
		for (int i = 0; i < cnt && strcmp(type, "site-space") == 0; i++)
			if (strcmp(arr[i].id, id) == 0) {
				if (!(g = resp_json(r, 200)))
					return err_set(ERR_INTERNAL, "out of memory");
				site_space_to_json(g, &c, sec, &arr[i]);
				return 0;
			}
	}
	/* a site space whose space is deleted is not shown */
	return err_set(ERR_NOT_FOUND, "%s not found", type);
}

int site_published_get(struct req *r)
{
	struct site s;
	struct site_json c;
	struct site_structure st;
	struct jw *g;
	int rc;

	if ((rc = site_read(r, &s, &c)) || (rc = dom_site_structure(&r->dom, &s, &st)))
		return rc;
	if (!(g = resp_json(r, 200)))
		return err_set(ERR_INTERNAL, "out of memory");
	return published_site_to_json(g, &c, &st);
}
