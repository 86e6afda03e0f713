/*
 * The site operations of the domain layer (domain/sites.h, the parts of
 * domain/sites.c), in-process on SQLite and PostgreSQL: create, list and its
 * filters, update (basename unique across docsd), publish and unpublish, the
 * generation every write bumps, delete (idempotent), share links and the
 * lookup by key the published-site renderer does, the customization and its
 * check (json/serialize_sites.h), the adaptive schema and the publishing auth.
 *
 * The actors: ada, admin of the organization; cy, with the create role; ed,
 * with edit; gus, a guest; sam, not a member.
 */
#include "json/serialize_sites.h"
#include "domain/orgs.h"
#include "domain/sites.h"
#include "domain/spaces.h"
#include "store/internal.h"
#include "store/migrations.h"
#include "unit.h"
#include "util/err.h"
#include "util/util.h"

#include <jansson.h>
#include <stdlib.h>

struct fx {
	struct arena a;
	struct store_tx tx;
	struct dom d;
	struct user ada, cy, ed, gus, sam;
	const char *org;
	const char *run; /* unique per run: basenames are unique across the database */
};

static struct dom *as(struct fx *f, const struct user *u)
{
	dom_init(&f->d, NULL, &f->tx, &f->a, u ? u->id : NULL);
	return &f->d;
}

static int64_t generation(struct fx *f, const char *site_id)
{
	struct site s;

	CHECK(store_site_get(&f->tx, site_id, &s) == 0);
	return s.generation;
}

static void create_update_publish(struct fx *f)
{
	struct site s, t, *items;
	struct list_req lr = { .limit = 100 };
	struct site_filter filt;
	char base[64], *next;
	int64_t g;
	int n;

	/* create: create role and up; guests and below 403; outsiders 404 */
	CHECK(dom_site_create(as(f, &f->sam), f->org, &(struct site_input){ 0 }, &s) == ERR_NOT_FOUND);
	CHECK(dom_site_create(as(f, &f->gus), f->org, &(struct site_input){ 0 }, &s) == ERR_FORBIDDEN);
	CHECK(dom_site_create(as(f, &f->ed), f->org, &(struct site_input){ 0 }, &s) == ERR_FORBIDDEN);
	CHECK(dom_site_create(as(f, &f->cy), f->org, &(struct site_input){ .title = "Guide", .type = "premium" }, &t) == 0);
	CHECK_STR(t.type, "premium");
	CHECK(dom_site_create(as(f, &f->ada), f->org, &(struct site_input){ 0 }, &s) == 0);
	CHECK_STR(s.title, "Untitled site");
	CHECK_STR(s.type, "basic");
	CHECK_STR(s.visibility, "public");
	CHECK_STR(s.agents_context, "included");
	CHECK(!s.published && s.site_spaces == 0 && !s.basename && !s.proxy);
	CHECK(s.visitor_key && strlen(s.visitor_key) == 2 * ID_LEN);

	/* spaces must be spaces of the organization */
	const char *bogus[] = { "nosuchspace" };
	CHECK(dom_site_create(as(f, &f->ada), f->org, &(struct site_input){ .spaces = bogus, .nspaces = 1 }, &t) ==
	      ERR_INVALID);
	CHECK(strstr(err_message(), "nosuchspace") != NULL);

	/* with spaces: each becomes a site space, the first the default */
	struct space sp1, sp2;
	struct site_structure st;
	CHECK(dom_space_create(as(f, &f->ada), f->org, &(struct space_input){ .title = "One" }, &sp1) == 0);
	CHECK(dom_space_create(as(f, &f->ada), f->org, &(struct space_input){ .title = "Two" }, &sp2) == 0);
	const char *two[] = { sp1.id, sp2.id };
	CHECK(dom_site_create(as(f, &f->cy), f->org, &(struct site_input){ .title = "Two spaces", .spaces = two, .nspaces = 2 },
			      &t) == 0);
	CHECK(t.site_spaces == 2);
	CHECK(dom_site_structure(as(f, &f->ada), &t, &st) == 0 && st.nroot == 2);
	CHECK_STR(st.root[0].space_id, sp1.id);
	CHECK(st.root[0].is_default && !st.root[1].is_default);
	/* defaultSiteSpace moves the default */
	CHECK(dom_site_update(as(f, &f->ada), f->org, t.id, &(struct site_update){ .default_site_space = st.root[1].id },
			      &t) == 0);
	CHECK(dom_site_structure(as(f, &f->ada), &t, &st) == 0 && st.nroot == 2);
	CHECK(!st.root[0].is_default && st.root[1].is_default);
	CHECK(dom_site_update(as(f, &f->ada), f->org, t.id, &(struct site_update){ .default_site_space = "nosuch" }, &t) ==
	      ERR_INVALID);
	/* createSpace: a new space titled as the site */
	CHECK(dom_site_create(as(f, &f->ada), f->org, &(struct site_input){ .title = "Fresh", .create_space = true }, &t) == 0);
	CHECK(t.site_spaces == 1);
	CHECK(dom_site_structure(as(f, &f->ada), &t, &st) == 0 && st.nroot == 1);
	CHECK_STR(st.root[0].space.title, "Fresh");
	CHECK(dom_site_delete(as(f, &f->ada), f->org, t.id) == 0);

	/* read: members; guests and outsiders learn nothing */
	CHECK(dom_site_get(as(f, &f->ed), f->org, s.id, ROLE_READ, false, &t) == 0 && t.access == ROLE_EDIT);
	CHECK(dom_site_get(as(f, &f->gus), f->org, s.id, ROLE_READ, false, &t) == ERR_NOT_FOUND);
	CHECK(dom_site_get(as(f, &f->sam), f->org, s.id, ROLE_READ, false, &t) == ERR_NOT_FOUND);

	/* update: admins; each field; a write bumps the generation */
	CHECK(dom_site_update(as(f, &f->cy), f->org, s.id, &(struct site_update){ .title = "No" }, &t) == ERR_FORBIDDEN);
	g = generation(f, s.id);
	snprintf(base, sizeof(base), "docs-%s", f->run);
	CHECK(dom_site_update(as(f, &f->ada), f->org, s.id,
			      &(struct site_update){ .title = "Docs", .visibility = "unlisted", .basename = base,
						     .agents_context = "excluded", .has_adaptive = true,
						     .adaptive_enabled = true, .has_proxy = true,
						     .proxy = "example.com/docs" },
			      &t) == 0);
	CHECK_STR(t.title, "Docs");
	CHECK_STR(t.visibility, "unlisted");
	CHECK_STR(t.basename, base);
	CHECK_STR(t.agents_context, "excluded");
	CHECK_STR(t.proxy, "example.com/docs");
	CHECK(t.adaptive_enabled);
	CHECK(generation(f, s.id) == g + 1);
	CHECK(dom_site_update(as(f, &f->ada), f->org, s.id, &(struct site_update){ .has_proxy = true }, &t) == 0);
	CHECK(t.proxy == NULL && t.basename != NULL);
	/* the basename is taken for every other site */
	struct site other;
	CHECK(dom_site_create(as(f, &f->ada), f->org, &(struct site_input){ .title = "Other" }, &other) == 0);
	CHECK(dom_site_update(as(f, &f->ada), f->org, other.id, &(struct site_update){ .basename = base }, &t) ==
	      ERR_CONFLICT);
	CHECK(dom_site_update(as(f, &f->ada), f->org, other.id, &(struct site_update){ .basename = s.id }, &t) ==
	      ERR_CONFLICT);
	CHECK(dom_site_update(as(f, &f->ada), f->org, s.id, &(struct site_update){ .basename = base }, &t) == 0);
	CHECK(store_site_by_name(&f->tx, base, &t) == 0);
	CHECK_STR(t.id, s.id);

	/* publish / unpublish */
	CHECK(dom_site_set_published(as(f, &f->ed), f->org, s.id, true, &t) == ERR_FORBIDDEN);
	g = generation(f, s.id);
	CHECK(dom_site_set_published(as(f, &f->ada), f->org, s.id, true, &t) == 0 && t.published);
	CHECK(generation(f, s.id) == g + 1);
	CHECK(dom_site_get(as(f, &f->ed), f->org, s.id, ROLE_READ, false, &t) == 0 && t.published);

	/* list: filters */
	memset(&filt, 0, sizeof(filt));
	filt.published = -1;
	CHECK(dom_sites_list(as(f, &f->ed), f->org, &filt, &lr, &items, &n, &next) == 0 && n == 4 && !next);
	filt.space_id = sp2.id;
	CHECK(dom_sites_list(as(f, &f->ed), f->org, &filt, &lr, &items, &n, &next) == 0 && n == 1);
	CHECK_STR(items[0].title, "Two spaces");
	filt.space_id = NULL;
	/* guests have no site role: 404 like every site operation of theirs */
	CHECK(dom_sites_list(as(f, &f->gus), f->org, &filt, &lr, &items, &n, &next) == ERR_NOT_FOUND);
	CHECK(dom_sites_list(as(f, &f->sam), f->org, &filt, &lr, &items, &n, &next) == ERR_NOT_FOUND);
	filt.published = 1;
	CHECK(dom_sites_list(as(f, &f->ed), f->org, &filt, &lr, &items, &n, &next) == 0 && n == 1);
	CHECK_STR(items[0].id, s.id);
	filt.published = -1;
	filt.title = "GUI";
	CHECK(dom_sites_list(as(f, &f->ed), f->org, &filt, &lr, &items, &n, &next) == 0 && n == 1);
	CHECK_STR(items[0].title, "Guide");
	filt.title = NULL;
	filt.types[0] = "premium";
	filt.types[1] = "ultimate";
	filt.ntypes = 2;
	CHECK(dom_sites_list(as(f, &f->ed), f->org, &filt, &lr, &items, &n, &next) == 0 && n == 1);
	CHECK_STR(items[0].type, "premium");
	filt.ntypes = 0;
	lr.limit = 2;
	CHECK(dom_sites_list(as(f, &f->ed), f->org, &filt, &lr, &items, &n, &next) == 0 && n == 2 && next != NULL);

	CHECK(dom_site_set_published(as(f, &f->ada), f->org, s.id, false, &t) == 0 && !t.published);

	/* delete: admins; gone; again is no error */
	CHECK(dom_site_delete(as(f, &f->cy), f->org, other.id) == ERR_FORBIDDEN);
	CHECK(dom_site_delete(as(f, &f->sam), f->org, other.id) == ERR_NOT_FOUND);
	CHECK(dom_site_delete(as(f, &f->ada), f->org, other.id) == 0);
	CHECK(store_site_get(&f->tx, other.id, &t) == ERR_NOT_FOUND);
	CHECK(dom_site_delete(as(f, &f->ada), f->org, other.id) == 0);
	/* the role before existence: a member who may not delete gets 403 for a
	 * missing site too; guests and outsiders 404; an admin 204 (0) */
	CHECK(dom_site_delete(as(f, &f->ed), f->org, "nosuchsite") == ERR_FORBIDDEN);
	CHECK(dom_site_delete(as(f, &f->cy), f->org, "nosuchsite") == ERR_FORBIDDEN);
	CHECK(dom_site_delete(as(f, &f->gus), f->org, "nosuchsite") == ERR_NOT_FOUND);
	CHECK(dom_site_delete(as(f, &f->sam), f->org, "nosuchsite") == ERR_NOT_FOUND);
	CHECK(dom_site_delete(as(f, &f->ada), f->org, "nosuchsite") == 0);
	CHECK(dom_site_get(as(f, &f->ed), f->org, "nosuchsite", ROLE_ADMIN, true, &t) == ERR_FORBIDDEN);
	CHECK(dom_site_get(as(f, &f->ed), f->org, "nosuchsite", ROLE_READ, false, &t) == ERR_NOT_FOUND);
}

/* Basenames are unique without regard to case, and found so. */
static void basename_case(struct fx *f)
{
	struct site s, other, t;
	char name[64], upper[64], idcase[ID_LEN + 1];

	snprintf(name, sizeof(name), "Cased-%s", f->run);
	for (size_t i = 0; i <= strlen(name); i++)
		upper[i] = (char)(name[i] >= 'a' && name[i] <= 'z' ? name[i] - 32 : name[i]);
	CHECK(dom_site_create(as(f, &f->ada), f->org, &(struct site_input){ .title = "Cased" }, &s) == 0);
	CHECK(dom_site_create(as(f, &f->ada), f->org, &(struct site_input){ .title = "Lookalike" }, &other) == 0);
	CHECK(dom_site_update(as(f, &f->ada), f->org, s.id, &(struct site_update){ .basename = name }, &t) == 0);
	CHECK(dom_site_update(as(f, &f->ada), f->org, other.id, &(struct site_update){ .basename = upper }, &t) ==
	      ERR_CONFLICT);
	/* another site's id in another case: /sites/{id} would find the basename */
	for (size_t i = 0; i <= ID_LEN; i++) {
		char c = s.id[i];
		idcase[i] = (char)(c >= 'a' && c <= 'z' ? c - 32 : c >= 'A' && c <= 'Z' ? c + 32 : c);
	}
	CHECK(dom_site_update(as(f, &f->ada), f->org, other.id, &(struct site_update){ .basename = idcase }, &t) ==
	      ERR_CONFLICT);
	/* the lookup of the published-site renderer ignores case */
	CHECK(store_site_by_name(&f->tx, upper, &t) == 0);
	CHECK_STR(t.id, s.id);
	CHECK_STR(t.basename, name);
	/* the site itself may change the case of its own basename */
	CHECK(dom_site_update(as(f, &f->ada), f->org, s.id, &(struct site_update){ .basename = upper }, &t) == 0);
	CHECK_STR(t.basename, upper);
}

/* Migration 15 on data from before it: sites whose basenames differ only in
 * case. The oldest keeps its basename, the others lose theirs, and the index
 * holds again. Run in a transaction of its own, index dropped first, that
 * is rolled back (the last step fails on purpose, which ends a PostgreSQL
 * transaction). */
static void basename_migration(struct fx *f)
{
	struct site s[3], t;
	const struct migration *m = NULL;
	char names[3][64];
	int keep = 0, kept = 0;

	for (int i = 0; i < migrations_count; i++)
		if (migrations[i].version == 15)
			m = &migrations[i];
	CHECK(m != NULL);
	if (!m)
		return;
	CHECK(st_exec(&f->tx, "DROP INDEX sites_basename_nocase", NULL, 0, NULL) == 0);
	for (int i = 0; i < 3; i++) {
		struct db_param p[2];
		snprintf(names[i], sizeof(names[i]), "%s-%s", i == 0 ? "dup" : i == 1 ? "DUP" : "Dup", f->run);
		CHECK(dom_site_create(as(f, &f->ada), f->org, &(struct site_input){ .title = "Dup" }, &s[i]) == 0);
		p[0] = P_TEXT(s[i].id);
		p[1] = P_TEXT(names[i]);
		CHECK(st_exec(&f->tx, "UPDATE sites SET basename = $2 WHERE id = $1", p, 2, NULL) == 0);
	}
	for (int i = 1; i < 3; i++)
		if (s[i].created_at < s[keep].created_at ||
		    (s[i].created_at == s[keep].created_at && strcmp(s[i].id, s[keep].id) < 0))
			keep = i;
	CHECK(st_exec(&f->tx, m->sql, NULL, 0, NULL) == 0);
	for (int i = 0; i < 3; i++) {
		CHECK(store_site_get(&f->tx, s[i].id, &t) == 0);
		if (i == keep) {
			CHECK(t.basename && strcmp(t.basename, names[i]) == 0);
		} else {
			CHECK(t.basename == NULL);
		}
		kept += t.basename != NULL;
	}
	CHECK(kept == 1);
	/* the index is back: the store refuses a lookalike even without the domain's check */
	t = s[(keep + 1) % 3];
	t.basename = names[(keep + 2) % 3];
	CHECK(store_site_update(&f->tx, &t) == ERR_CONFLICT);
}

static void share_links(struct fx *f)
{
	struct site s, site;
	struct site_share_link l, m, got, *items;
	struct list_req lr = { .limit = 100 };
	bool deleted;
	char *next;
	int n;

	CHECK(dom_site_create(as(f, &f->ada), f->org, &(struct site_input){ .title = "Shared" }, &s) == 0);
	CHECK(dom_site_share_link_create(as(f, &f->cy), f->org, s.id, "x", &site, &l) == ERR_FORBIDDEN);
	int64_t g = generation(f, s.id);
	CHECK(dom_site_share_link_create(as(f, &f->ada), f->org, s.id, "Partners", &site, &l) == 0);
	CHECK(generation(f, s.id) == g + 1); /* the renderer's cache key moves with every change */
	CHECK(l.active && strlen(l.key) == 2 * ID_LEN);
	CHECK_STR(l.name, "Partners");
	CHECK(dom_site_share_link_create(as(f, &f->ada), f->org, s.id, NULL, &site, &m) == 0);
	CHECK(strcmp(l.key, m.key) != 0);
	CHECK(dom_site_share_links_list(as(f, &f->ada), f->org, s.id, &lr, &site, &items, &n, &next) == 0 && n == 2);
	CHECK(dom_site_share_links_list(as(f, &f->ed), f->org, s.id, &lr, &site, &items, &n, &next) == ERR_FORBIDDEN);

	/* the renderer's lookup: an active link of that site with that key */
	CHECK(dom_site_share_link_by_key(as(f, NULL), &s, l.key, &got) == 0);
	CHECK_STR(got.id, l.id);
	CHECK(dom_site_share_link_by_key(as(f, NULL), &s, "nosuchkey", &got) == ERR_NOT_FOUND);
	CHECK(dom_site_share_link_by_key(as(f, NULL), &s, "", &got) == ERR_NOT_FOUND);
	CHECK(dom_site_share_link_update(as(f, &f->ada), f->org, s.id, l.id, NULL, true, false, &site, &got) == 0);
	CHECK(!got.active);
	CHECK_STR(got.name, "Partners");
	CHECK(dom_site_share_link_by_key(as(f, NULL), &s, l.key, &got) == ERR_NOT_FOUND);
	CHECK(dom_site_share_link_update(as(f, &f->ada), f->org, s.id, l.id, "Friends", true, true, &site, &got) == 0);
	CHECK(dom_site_share_link_by_key(as(f, NULL), &s, l.key, &got) == 0);
	CHECK_STR(got.name, "Friends");
	/* another site's key does not open this one */
	struct site s2;
	CHECK(dom_site_create(as(f, &f->ada), f->org, &(struct site_input){ .title = "Else" }, &s2) == 0);
	CHECK(dom_site_share_link_by_key(as(f, NULL), &s2, l.key, &got) == ERR_NOT_FOUND);

	g = generation(f, s.id);
	CHECK(dom_site_share_link_delete(as(f, &f->ada), f->org, s.id, m.id, &deleted) == 0 && deleted);
	CHECK(generation(f, s.id) == g + 1);
	CHECK(dom_site_share_link_delete(as(f, &f->ada), f->org, s.id, m.id, &deleted) == 0 && !deleted);
	CHECK(generation(f, s.id) == g + 1);
	CHECK(dom_site_share_link_update(as(f, &f->ada), f->org, s.id, m.id, "x", false, false, &site, &got) ==
	      ERR_NOT_FOUND);
}

static json_t *J(const char *text)
{
	json_t *v = json_loads(text, 0, NULL);

	CHECK(v != NULL);
	return v;
}

static int check(const char *text, bool override)
{
	json_t *v = J(text);
	int rc = site_customization_check(v, override);

	json_decref(v);
	return rc;
}

static void customization(struct fx *f)
{
	struct site s, t;
	json_t *body;
	char *out;

	/* the schema's check (core) */
	CHECK(check("{}", false) == 0);
	CHECK(check("{\"styling\":{\"theme\":\"bold\",\"primaryColor\":{\"light\":\"#fff\",\"dark\":\"#000000\"}}}", false) == 0);
	CHECK(check("{\"styling\":{\"theme\":\"neon\"}}", false) == ERR_INVALID);
	CHECK(strstr(err_message(), "styling.theme") != NULL);
	CHECK(check("{\"styling\":{\"primaryColor\":{\"light\":\"#ffff\",\"dark\":\"#000\"}}}", false) == ERR_INVALID);
	CHECK(check("{\"nope\":1}", false) == ERR_INVALID);
	CHECK(check("{\"header\":{\"links\":[{\"title\":\"a\",\"links\":[]}]}}", false) == ERR_INVALID);
	CHECK(strstr(err_message(), "header.links[0].to") != NULL);
	CHECK(check("{\"header\":{\"links\":[{\"title\":\"a\",\"to\":null,\"links\":[]}]}}", false) == 0);
	CHECK(check("{\"favicon\":{}}", false) == 0);
	CHECK(check("{\"favicon\":{\"emoji\":\"x\",\"icon\":{}}}", false) == ERR_INVALID);
	CHECK(check("{\"styling\":{\"theme\":null}}", false) == ERR_INVALID);
	CHECK(check("{\"styling\":{\"theme\":null}}", true) == 0);
	CHECK(check("{\"ai\":{\"mode\":\"none\"}}", true) == ERR_INVALID);
	CHECK(check("{\"header\":{\"links\":[{\"title\":null,\"to\":null,\"links\":[]}]}}", true) == ERR_INVALID);

	/* the override's merge: null resets, emptied groups go */
	body = J("{\"styling\":{\"theme\":\"bold\"},\"title\":\"T\"}");
	CHECK(site_customization_override(NULL, body, &out) == 0 && out);
	json_decref(body);
	body = J("{\"styling\":{\"theme\":null}}");
	char *out2;
	CHECK(site_customization_override(out, body, &out2) == 0);
	CHECK_STR(out2, "{\"title\":\"T\"}");
	json_decref(body);
	body = J("{\"title\":null}");
	char *out3;
	CHECK(site_customization_override(out2, body, &out3) == 0 && out3 == NULL);
	json_decref(body);
	free(out);
	free(out2);

	/* set: admins; stored compact; bad bodies change nothing */
	CHECK(dom_site_create(as(f, &f->ada), f->org, &(struct site_input){ .title = "Styled" }, &s) == 0);
	body = J("{ \"styling\" : { \"theme\" : \"muted\" } }");
	CHECK(dom_site_customization_set(as(f, &f->cy), f->org, s.id, body, &t) == ERR_FORBIDDEN);
	int64_t g = generation(f, s.id);
	CHECK(dom_site_customization_set(as(f, &f->ada), f->org, s.id, body, &t) == 0);
	CHECK_STR(t.customization, "{\"styling\":{\"theme\":\"muted\"}}");
	CHECK(generation(f, s.id) == g + 1);
	json_decref(body);
	body = J("{\"styling\":{\"theme\":\"neon\"}}");
	CHECK(dom_site_customization_set(as(f, &f->ada), f->org, s.id, body, &t) == ERR_INVALID);
	json_decref(body);
	CHECK(store_site_get(&f->tx, s.id, &t) == 0);
	CHECK_STR(t.customization, "{\"styling\":{\"theme\":\"muted\"}}");
}

static void adaptive_and_auth(struct fx *f)
{
	struct site_publishing_auth a, b;
	struct site s, t;
	json_t *schema;

	CHECK(dom_site_create(as(f, &f->ada), f->org, &(struct site_input){ .title = "Adaptive" }, &s) == 0);
	CHECK(dom_site_adaptive_schema_get(as(f, &f->ed), f->org, s.id, &t) == ERR_NOT_FOUND);
	schema = J("{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}");
	CHECK(dom_site_adaptive_schema_set(as(f, &f->ed), f->org, s.id, schema, &t) == ERR_FORBIDDEN);
	CHECK(dom_site_adaptive_schema_set(as(f, &f->ada), f->org, s.id, schema, &t) == 0);
	json_decref(schema);
	CHECK(dom_site_adaptive_schema_get(as(f, &f->ed), f->org, s.id, &t) == 0);
	CHECK_STR(t.adaptive_schema, "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}");
	CHECK(t.adaptive_updated_at > 0);

	CHECK(dom_site_publishing_auth_get(as(f, &f->cy), f->org, s.id, &a) == ERR_FORBIDDEN);
	CHECK(dom_site_publishing_auth_get(as(f, &f->ada), f->org, s.id, &a) == 0);
	CHECK_STR(a.backend, "custom");
	CHECK_STR(a.private_key, s.visitor_key);
	CHECK(a.fallback_url == NULL);
	CHECK(dom_site_publishing_auth_update(as(f, &f->ada), f->org, s.id, "integration", true, "https://e.com/in", &b) == 0);
	CHECK_STR(b.backend, "integration");
	CHECK_STR(b.fallback_url, "https://e.com/in");
	CHECK_STR(b.private_key, a.private_key);
	int64_t g = generation(f, s.id);
	CHECK(dom_site_publishing_auth_regenerate(as(f, &f->ada), f->org, s.id, &b) == 0);
	CHECK(generation(f, s.id) == g + 1);
	CHECK(strcmp(b.private_key, a.private_key) != 0);
	CHECK(store_site_get(&f->tx, s.id, &t) == 0);
	CHECK_STR(t.visitor_key, b.private_key);
}

static void domain_sites_suite(struct store *st)
{
	struct fx f;
	struct dom_org o;
	char r[9];
	bool added;

	memset(&f, 0, sizeof(f));
	arena_init(&f.a);
	random_alnum(r, 8);
	f.run = r;
	CHECK(store_tx_begin(st, &f.tx, 1, &f.a) == 0);
	unit_new_user(&f.tx, "ada", NULL, &f.ada);
	unit_new_user(&f.tx, "cy", NULL, &f.cy);
	unit_new_user(&f.tx, "ed", NULL, &f.ed);
	unit_new_user(&f.tx, "gus", NULL, &f.gus);
	unit_new_user(&f.tx, "sam", NULL, &f.sam);
	CHECK(dom_org_create(as(&f, &f.ada), &(struct org_input){ .title = "Sites" }, &o) == 0);
	f.org = o.org.id;
	CHECK(store_member_add(&f.tx, f.org, f.cy.id, ROLE_CREATE, 0, &added) == 0 && added);
	CHECK(store_member_add(&f.tx, f.org, f.ed.id, ROLE_EDIT, 0, &added) == 0 && added);
	CHECK(store_member_add(&f.tx, f.org, f.gus.id, ROLE_GUEST, 0, &added) == 0 && added);
	create_update_publish(&f);
	share_links(&f);
	customization(&f);
	adaptive_and_auth(&f);
	basename_case(&f);
	CHECK(store_tx_commit(&f.tx) == 0);
	CHECK(store_tx_begin(st, &f.tx, 1, &f.a) == 0);
	basename_migration(&f);
	store_tx_rollback(&f.tx);
	arena_free(&f.a);
}

UNIT_TEST_ON_ENGINES(domain_sites, domain_sites_suite)
