/*
 * A site's structure in the domain layer (domain/sites.h, "structure"),
 * in-process on SQLite and PostgreSQL: the invariants after every change
 * (one default section when there are sections and no site space at the
 * root; one default site space per section or at the root; deleting a
 * default promotes the next by position; Site.siteSpaces equal to the rows;
 * unique sibling paths), access (the role once per operation, before the
 * item's existence: 403 below create for a missing item too, 404 for
 * outsiders), and the published-URL rule of json/serialize_site_structure.h.
 *
 * The actors: ada creates the organization (admin); cal has the create role;
 * ed the edit role; sam is not a member.
 */
#include "json/serialize_site_structure.h"
#include "domain/orgs.h"
#include "domain/sites.h"
#include "domain/spaces.h"
#include "unit.h"
#include "util/err.h"
#include "util/util.h"

#include <stdio.h>
#include <string.h>

struct fx {
	struct arena a;
	struct store_tx tx;
	struct dom d;
	struct user ada, cal, ed, sam;
	const char *org_id;
	struct space sp[5];
};

static struct dom *as(struct fx *f, const struct user *u)
{
	dom_init(&f->d, NULL, &f->tx, &f->a, u ? u->id : NULL);
	return &f->d;
}

/* Every invariant, read back from the store; returns the structure. */
static struct site_structure check_invariants(struct fx *f, const char *site_id)
{
	struct site_structure st;
	struct site s;
	int64_t total;
	int defaults = 0;

	CHECK(store_site_structure(&f->tx, site_id, &st) == 0);
	CHECK(store_site_get(&f->tx, site_id, &s) == 0);
	total = st.nroot;
	for (int i = 0; i < st.nsections; i++) {
		int d = 0;

		defaults += st.sections[i].is_default;
		for (int j = 0; j < st.sections[i].nspaces; j++) {
			d += st.sections[i].spaces[j].is_default;
			CHECK_STR(st.sections[i].spaces[j].section_id, st.sections[i].id);
			for (int k = 0; k < j; k++)
				CHECK(strcmp(st.sections[i].spaces[j].path, st.sections[i].spaces[k].path) != 0);
		}
		CHECK(st.sections[i].nspaces == 0 || d == 1);
		total += st.sections[i].nspaces;
		for (int k = 0; k < i; k++)
			CHECK(strcmp(st.sections[i].path, st.sections[k].path) != 0);
	}
	if (st.nsections > 0) {
		CHECK(defaults == 1);
		CHECK(st.nroot == 0);
	} else {
		int d = 0;

		for (int j = 0; j < st.nroot; j++)
			d += st.root[j].is_default;
		CHECK(st.nroot == 0 || d == 1);
	}
	CHECK(s.site_spaces == total);
	return st;
}

static struct site site_for(struct fx *f, const struct user *u, const char *site_id)
{
	struct site s;

	CHECK(dom_site_get(as(f, u), f->org_id, site_id, ROLE_CREATE, true, &s) == 0);
	return s;
}

/* The actor of the writes below: cal, who has the create role. */
static struct dom *cal(struct fx *f)
{
	return as(f, &f->cal);
}

static void structure(struct fx *f)
{
	struct site site, s;
	struct site_structure st;
	struct site_space a, b, x;
	struct site_section sec1, sec2, out;
	struct site_section_group g;
	struct site_section_input in;
	struct site_item_update up;
	struct site_answer v;
	const char *secs[1];

	CHECK(dom_site_create(as(f, &f->ada), f->org_id, &(struct site_input){ .title = "Docs" }, &site) == 0);
	/* access: create writes, edit only reads, outsiders see nothing */
	CHECK(dom_site_get(as(f, &f->ed), f->org_id, site.id, ROLE_CREATE, true, &s) == ERR_FORBIDDEN);
	CHECK(dom_site_get(as(f, &f->ed), f->org_id, site.id, ROLE_READ, false, &s) == 0);
	CHECK(dom_site_get(as(f, &f->sam), f->org_id, site.id, ROLE_READ, false, &s) == ERR_NOT_FOUND);
	check_invariants(f, site.id);

	/* root site spaces: the first is the default; paths are unique slugs */
	s = site_for(f, &f->cal, site.id);
	CHECK(dom_site_space_add(&f->d, &s, f->sp[0].id, NULL, &a) == 0);
	CHECK(a.is_default && !a.section_id);
	CHECK_STR(a.path, "getting-started");
	CHECK(dom_site_space_add(&f->d, &s, f->sp[4].id, NULL, &b) == 0);
	CHECK(!b.is_default);
	CHECK_STR(b.path, "getting-started-2");
	CHECK(dom_site_space_add(&f->d, &s, "nosuchspace", NULL, &x) == ERR_NOT_FOUND);
	CHECK(dom_site_space_add(&f->d, &s, f->sp[1].id, "nosuchsection", &x) == ERR_INVALID);
	check_invariants(f, site.id);

	/* defaults set explicitly; unknown ids are ERR_INVALID */
	CHECK(dom_site_default_set(&f->d, &s, NULL, b.id) == 0);
	st = check_invariants(f, site.id);
	CHECK(st.nroot == 2 && !st.root[0].is_default && st.root[1].is_default);
	CHECK(dom_site_default_set(&f->d, &s, NULL, "nosuchsitespace") == ERR_INVALID);
	CHECK(dom_site_default_set(&f->d, &s, "nosuchsection", NULL) == ERR_INVALID);

	/* deleting the default promotes the next; deleting again is no error */
	CHECK(dom_site_item_delete(cal(f), f->org_id, site.id, SITE_ITEM_SPACE, b.id) == 0);
	st = check_invariants(f, site.id);
	CHECK(st.nroot == 1 && st.root[0].is_default);
	CHECK(dom_site_item_delete(cal(f), f->org_id, site.id, SITE_ITEM_SPACE, b.id) == 0);
	s = site_for(f, &f->cal, site.id);
	CHECK(dom_site_space_add(&f->d, &s, f->sp[1].id, NULL, &b) == 0);

	/* the first section takes the root's site spaces */
	memset(&in, 0, sizeof(in));
	in.space_id = f->sp[2].id;
	CHECK(dom_site_section_create(cal(f), f->org_id, site.id, &in, &v) == 0);
	CHECK(v.item.kind == SITE_ITEM_SECTION);
	sec1 = *v.item.section;
	CHECK(sec1.is_default);
	CHECK_STR(sec1.title, "Guides");
	CHECK(sec1.nspaces == 3 && sec1.spaces[0].is_default);
	CHECK_STR(sec1.spaces[0].space_id, f->sp[2].id);
	st = check_invariants(f, site.id);
	CHECK(st.nsections == 1 && st.nroot == 0);
	in.space_id = f->sp[3].id;
	in.title = "Guides";
	CHECK(dom_site_section_create(cal(f), f->org_id, site.id, &in, &v) == 0);
	sec2 = *v.item.section;
	CHECK(!sec2.is_default && sec2.nspaces == 1 && sec2.spaces[0].is_default);
	CHECK_STR(sec2.path, "guides-2");
	check_invariants(f, site.id);
	/* new site spaces go to the default section */
	CHECK(dom_site_space_create(cal(f), f->org_id, site.id, f->sp[4].id, NULL, &v) == 0);
	x = *v.item.space;
	CHECK_STR(x.section_id, sec1.id);
	CHECK(v.item.section && strcmp(v.item.section->id, sec1.id) == 0);
	check_invariants(f, site.id);

	/* the default site space must be in the default section */
	s = site_for(f, &f->cal, site.id);
	CHECK(dom_site_default_set(&f->d, &s, NULL, sec2.spaces[0].id) == ERR_INVALID);
	CHECK(dom_site_default_set(&f->d, &s, sec2.id, sec2.spaces[0].id) == 0);
	st = check_invariants(f, site.id);
	CHECK(!st.sections[0].is_default && st.sections[1].is_default);

	/* paths: a sibling's path is a conflict, a bad one invalid */
	memset(&up, 0, sizeof(up));
	up.path = "guides";
	CHECK(dom_site_item_update(cal(f), f->org_id, site.id, SITE_ITEM_SECTION, sec2.id, &up, &v) == ERR_CONFLICT);
	up.path = "a/b";
	CHECK(dom_site_item_update(cal(f), f->org_id, site.id, SITE_ITEM_SECTION, sec2.id, &up, &v) == ERR_INVALID);
	up.path = "v2";
	CHECK(dom_site_item_update(cal(f), f->org_id, site.id, SITE_ITEM_SECTION, sec2.id, &up, &v) == 0);
	out = *v.item.section;
	CHECK_STR(out.path, "v2");
	CHECK(dom_site_item_update(cal(f), f->org_id, site.id, SITE_ITEM_SECTION, "nosuchsection", &up, &v) ==
	      ERR_NOT_FOUND);
	/* a site space's path is unique among the site spaces of its section */
	up.path = sec1.spaces[1].path;
	CHECK(dom_site_item_update(cal(f), f->org_id, site.id, SITE_ITEM_SPACE, sec1.spaces[0].id, &up, &v) ==
	      ERR_CONFLICT);
	up.path = "v2";

	/* role before existence: a member without create gets 403 for a
	 * missing item as for an existing one; an outsider 404 */
	CHECK(dom_site_item_update(as(f, &f->ed), f->org_id, site.id, SITE_ITEM_SECTION, "nosuchsection", &up, &v) ==
	      ERR_FORBIDDEN);
	CHECK(dom_site_item_delete(as(f, &f->ed), f->org_id, site.id, SITE_ITEM_SECTION, "nosuchsection") == ERR_FORBIDDEN);
	CHECK(dom_site_item_delete(as(f, &f->ed), f->org_id, site.id, SITE_ITEM_SECTION, sec2.id) == ERR_FORBIDDEN);
	CHECK(dom_site_item_delete(as(f, &f->ed), f->org_id, site.id, SITE_ITEM_GROUP, "nosuchgroup") == ERR_FORBIDDEN);
	CHECK(dom_site_item_delete(as(f, &f->sam), f->org_id, site.id, SITE_ITEM_SECTION, sec2.id) == ERR_NOT_FOUND);
	CHECK(dom_site_item_move(as(f, &f->ed), f->org_id, site.id, SITE_ITEM_SECTION, "nosuchsection",
				 &(struct site_position){ 0 }, false, &v) == ERR_FORBIDDEN);
	CHECK(dom_site_structure_get(as(f, &f->ed), f->org_id, site.id, NULL, &v) == 0 && v.st.nsections == 2);
	CHECK(dom_site_structure_get(as(f, &f->sam), f->org_id, site.id, NULL, &v) == ERR_NOT_FOUND);
	check_invariants(f, site.id);

	/* groups: deleting one leaves its sections, ungrouped, in its place */
	secs[0] = sec2.id;
	CHECK(dom_site_group_create(cal(f), f->org_id, site.id,
				    &(struct site_group_input){ .title = "G", .sections = secs, .nsections = 1 }, &v) == 0);
	g = *v.item.group;
	st = v.st;
	CHECK(st.nsections == 2);
	CHECK_STR(st.sections[1].group_id, g.id);
	secs[0] = "nosuchsection";
	CHECK(dom_site_group_create(cal(f), f->org_id, site.id,
				    &(struct site_group_input){ .title = "H", .sections = secs, .nsections = 1 }, &v) ==
	      ERR_INVALID);
	CHECK(dom_site_item_delete(cal(f), f->org_id, site.id, SITE_ITEM_GROUP, st.groups[0].id) == 0);
	st = check_invariants(f, site.id);
	CHECK(st.ngroups == 0 && st.nsections == 2 && !st.sections[0].group_id && !st.sections[1].group_id);
	CHECK(dom_site_item_delete(cal(f), f->org_id, site.id, SITE_ITEM_GROUP, "nosuchgroup") == 0);

	/* deleting the default section promotes the first remaining one */
	CHECK(dom_site_item_delete(cal(f), f->org_id, site.id, SITE_ITEM_SECTION, sec2.id) == 0);
	st = check_invariants(f, site.id);
	CHECK(st.nsections == 1 && st.sections[0].is_default);
	CHECK(dom_site_item_delete(cal(f), f->org_id, site.id, SITE_ITEM_SECTION, sec2.id) == 0);
	/* the last one leaves an empty site, whose next space goes to the root */
	CHECK(dom_site_item_delete(cal(f), f->org_id, site.id, SITE_ITEM_SECTION, sec1.id) == 0);
	st = check_invariants(f, site.id);
	CHECK(st.nsections == 0 && st.nroot == 0);
	s = site_for(f, &f->cal, site.id);
	CHECK(dom_site_space_add(&f->d, &s, f->sp[0].id, NULL, &a) == 0);
	CHECK(a.is_default && !a.section_id);
	check_invariants(f, site.id);

	/* a deleted space leaves the structure (dom_site_structure) */
	CHECK(dom_site_space_add(&f->d, &s, f->sp[1].id, NULL, &b) == 0);
	CHECK(dom_object_delete(as(f, &f->ada), DOM_SPACE, f->sp[1].id) == 0);
	s = site_for(f, &f->cal, site.id);
	CHECK(dom_site_structure(&f->d, &s, &st) == 0);
	CHECK(st.nroot == 1);
	CHECK_STR(st.root[0].id, a.id);
}

/* The URL rule: root, default section = root, default site space = its
 * section's URL, the share prefix after the root. */
static void urls(void)
{
	struct site s = { .id = "S1", .org_id = "O1", .basename = "docs", .published = 1 };
	struct site_section def = { .path = "guides", .is_default = 1 }, other = { .path = "api" };
	struct site_space ss_def = { .path = "v1", .is_default = 1 }, ss = { .path = "v2" };
	char root[256], url[512];

	site_root_url(root, sizeof(root), "http://h:1", &s, NULL);
	CHECK_STR(root, "http://h:1/sites/docs");
	site_section_url(url, sizeof(url), root, &def);
	CHECK_STR(url, "http://h:1/sites/docs");
	site_section_url(url, sizeof(url), root, &other);
	CHECK_STR(url, "http://h:1/sites/docs/api");
	site_space_url(url, sizeof(url), root, &other, &ss_def);
	CHECK_STR(url, "http://h:1/sites/docs/api");
	site_space_url(url, sizeof(url), root, &other, &ss);
	CHECK_STR(url, "http://h:1/sites/docs/api/v2");
	site_space_url(url, sizeof(url), root, &def, &ss);
	CHECK_STR(url, "http://h:1/sites/docs/v2");
	site_space_url(url, sizeof(url), root, NULL, &ss_def);
	CHECK_STR(url, "http://h:1/sites/docs");
	site_root_url(root, sizeof(root), "http://h:1", &s, "KEY");
	site_space_url(url, sizeof(url), root, &other, &ss);
	CHECK_STR(url, "http://h:1/sites/docs/~share/KEY/api/v2");
	s.hostname = "docs.example.com";
	site_root_url(root, sizeof(root), "https://h:1", &s, NULL);
	CHECK_STR(root, "https://docs.example.com");
}

UNIT_TEST(site_structure_urls)
{
	urls();
}

static void site_structure_suite(struct store *store)
{
	static const char *const titles[] = { "Getting Started", "API", "Guides", "Changelog", "Getting Started" };
	struct fx f;
	struct dom_org o;
	bool added;

	memset(&f, 0, sizeof(f));
	arena_init(&f.a);
	CHECK(store_tx_begin(store, &f.tx, 1, &f.a) == 0);
	unit_new_user(&f.tx, "ada", NULL, &f.ada);
	unit_new_user(&f.tx, "cal", NULL, &f.cal);
	unit_new_user(&f.tx, "ed", NULL, &f.ed);
	unit_new_user(&f.tx, "sam", NULL, &f.sam);
	CHECK(dom_org_create(as(&f, &f.ada), &(struct org_input){ .title = "Sites" }, &o) == 0);
	f.org_id = o.org.id;
	CHECK(store_member_add(&f.tx, f.org_id, f.cal.id, ROLE_CREATE, 0, &added) == 0 && added);
	CHECK(store_member_add(&f.tx, f.org_id, f.ed.id, ROLE_EDIT, 0, &added) == 0 && added);
	for (int i = 0; i < 5; i++)
		CHECK(dom_space_create(as(&f, &f.ada), f.org_id, &(struct space_input){ .title = titles[i] }, &f.sp[i]) == 0);
	structure(&f);
	CHECK(store_tx_commit(&f.tx) == 0);
	arena_free(&f.a);
}

UNIT_TEST_ON_ENGINES(domain_site_structure, site_structure_suite)
