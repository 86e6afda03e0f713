/*
 * pages_home.c - Home (/), an organization (/o/{id}) and a collection
 * (/c/{id}): what the member reads, as a tree of collections and spaces,
 * and the organization's sites.
 *
 * The lists are the API's (listOrganizationsForAuthenticatedUser,
 * listCollections with nested, listSpaces, listSites): one call per list
 * per organization, whatever the number of spaces, each filtered by the
 * domain's access rules. An object whose collection the member cannot read
 * shows at the top level, as the API lists it.
 */
#include "app/pages.h"
#include "domain/orgs.h"
#include "domain/sites.h"
#include "domain/spaces.h"
#include "site/site.h"
#include "util/err.h"

#include <string.h>

/* Deeper collections than this are shown flat (GitBook nests a few levels). */
#define TREE_MAX_DEPTH 16

struct org_tree {
	struct collection *cols;
	int ncols;
	struct space *spaces;
	int nspaces;
	struct site *sites;
	int nsites;
	bool more; /* a list had more than one page: say so */
};

static struct list_req first_page(void)
{
	return (struct list_req){ .limit = 1000 };
}

/* A guest's standing may forbid a list (sites): it shows as empty. */
static int soft(int rc)
{
	return rc == ERR_FORBIDDEN ? 0 : rc;
}

static int load_tree(struct app_page *p, const char *org_id, struct org_tree *t)
{
	struct list_req lr = first_page();
	struct site_filter sf = { .published = -1 };
	char *next = NULL;
	int rc;

	memset(t, 0, sizeof(*t));
	if ((rc = soft(dom_collections_list(p->d, org_id, true, &lr, &t->cols, &t->ncols, &next))))
		return rc;
	t->more |= next != NULL;
	next = NULL;
	if ((rc = soft(dom_spaces_list(p->d, org_id, NULL, &lr, &t->spaces, &t->nspaces, &next))))
		return rc;
	t->more |= next != NULL;
	next = NULL;
	/* Guests have no site role: the domain answers 404 for the list of an
	 * organization they are in (its collections and spaces were just
	 * listed), which is an empty list here. */
	rc = dom_sites_list(p->d, org_id, &sf, &lr, &t->sites, &t->nsites, &next);
	if (rc == ERR_NOT_FOUND || rc == ERR_FORBIDDEN) {
		err_clear();
		t->sites = NULL;
		t->nsites = 0;
		next = NULL;
		rc = 0;
	}
	if (rc)
		return rc;
	t->more |= next != NULL;
	return 0;
}

static bool col_visible(const struct org_tree *t, const char *id)
{
	for (int i = 0; id && i < t->ncols; i++)
		if (strcmp(t->cols[i].id, id) == 0)
			return true;
	return false;
}

/* Whether an object with parent `parent` is listed under `under` (NULL:
 * the top level, where an object whose parent is hidden also goes). */
static bool is_under(const struct org_tree *t, const char *parent, const char *under)
{
	if (!under)
		return !parent || !col_visible(t, parent);
	return parent && strcmp(parent, under) == 0;
}

static void space_item(struct jw *b, const struct space *s)
{
	html_raw(b, "<li><a href=\"");
	app_href(b, "/s/", s->id);
	html_raw(b, "\">");
	app_emoji(b, s->emoji);
	app_text(b, s->title && *s->title ? s->title : "Untitled space");
	html_raw(b, "</a></li>");
}

static void tree_level(struct jw *b, const struct org_tree *t, const char *under, int depth)
{
	int shown = 0;

	for (int i = 0; i < t->ncols; i++) {
		const struct collection *c = &t->cols[i];
		if (!is_under(t, c->parent_id, under))
			continue;
		if (!shown++)
			html_raw(b, depth ? "<ul>" : "<ul class=\"tree\">");
		html_raw(b, "<li><a href=\"");
		app_href(b, "/c/", c->id);
		html_raw(b, "\">");
		app_text(b, c->title && *c->title ? c->title : "Untitled collection");
		html_raw(b, "</a><span class=\"kind\">collection</span>");
		if (depth < TREE_MAX_DEPTH)
			tree_level(b, t, c->id, depth + 1);
		html_raw(b, "</li>");
	}
	for (int i = 0; i < t->nspaces; i++) {
		if (!is_under(t, t->spaces[i].parent_id, under))
			continue;
		if (!shown++)
			html_raw(b, depth ? "<ul>" : "<ul class=\"tree\">");
		space_item(b, &t->spaces[i]);
	}
	if (shown)
		html_raw(b, "</ul>");
}

static void sites_list(struct jw *b, const struct org_tree *t)
{
	if (t->nsites == 0)
		return;
	html_raw(b, "<h3>Sites</h3><ul class=\"list\">");
	for (int i = 0; i < t->nsites; i++) {
		const struct site *s = &t->sites[i];
		html_raw(b, "<li><a href=\"");
		app_href(b, "/o/", s->org_id);
		html_raw(b, "/sites/");
		url_path_enc(b, s->id);
		html_raw(b, "\">");
		app_text(b, s->title && *s->title ? s->title : "Untitled site");
		html_raw(b, "</a>");
		html_raw(b, "<span class=\"kind\">");
		html_raw(b, s->published ? "published" : "not published");
		html_raw(b, "</span> <span class=\"mute\">");
		app_text(b, s->visibility);
		html_raw(b, "</span></li>");
	}
	html_raw(b, "</ul>");
}

/* One organization's block: its title (a link to /o/{id} when linked),
 * the tree and the sites. */
static int org_block(struct app_page *p, const struct org *o, bool linked, int heading)
{
	struct jw *b = p->out;
	struct org_tree t;
	int rc;

	if ((rc = load_tree(p, o->id, &t)))
		return rc;
	html_raw(b, heading == 1 ? "<h1>" : "<section class=\"org\"><h2>");
	if (linked) {
		html_raw(b, "<a href=\"");
		app_href(b, "/o/", o->id);
		html_raw(b, "\">");
	}
	app_text(b, o->title && *o->title ? o->title : "Untitled organization");
	if (linked)
		html_raw(b, "</a>");
	html_raw(b, heading == 1 ? "</h1>" : "</h2>");
	app_search_form(b, o->id, NULL);
	if (heading == 1)
		html_raw(b, "<h2>Collections and spaces</h2>");
	if (t.ncols == 0 && t.nspaces == 0)
		html_raw(b, "<p class=\"empty\">No spaces you can read yet. Spaces are created through the API "
			    "(<code>POST /v1/orgs/{organizationId}/spaces</code>) or shared with you by an administrator.</p>");
	else
		tree_level(b, &t, NULL, 0);
	sites_list(b, &t);
	if (t.more)
		html_raw(b, "<p class=\"mute\">Only the first 1,000 of each list are shown.</p>");
	if (heading != 1)
		html_raw(b, "</section>");
	return 0;
}

int page_home(struct app_page *p)
{
	struct list_req lr = { .limit = 100 };
	struct dom_org *orgs = NULL;
	char *next = NULL;
	int n = 0, rc;

	if ((rc = dom_orgs_list(p->d, &lr, &orgs, &n, &next)))
		return rc;
	app_frame_begin(p, "Home", NULL, 0);
	html_raw(p->out, "<h1>Your organizations</h1>");
	if (n == 0)
		html_raw(p->out, "<p class=\"empty\">You are not a member of any organization yet. Ask an administrator "
				 "for an invitation, or create one through the API (<code>POST /v1/orgs</code>).</p>");
	for (int i = 0; i < n; i++)
		if ((rc = org_block(p, &orgs[i].org, true, 2)))
			return rc;
	if (next)
		html_raw(p->out, "<p class=\"mute\">Only your first 100 organizations are shown.</p>");
	app_frame_end(p);
	return 0;
}

int page_org(struct app_page *p)
{
	struct dom_org o;
	struct app_crumb crumbs[] = { { "Home", "/" }, { NULL, NULL } };
	int rc;

	if ((rc = dom_org_get(p->d, req_param(p->r, "organizationId"), &o)))
		return rc;
	crumbs[1].label = o.org.title;
	app_frame_begin(p, o.org.title && *o.org.title ? o.org.title : "Organization", crumbs, 2);
	if ((rc = org_block(p, &o.org, false, 1)))
		return rc;
	{
		/* Administration (pages_admin.c): shown as the API's
		 * permissions.listMembers / listTeams say. */
		struct org_permissions perm;
		org_permissions(&perm, o.actor.role, o.actor.owns_team);
		/* The organization's settings (pages_admin_org.c): every
		 * member reads them, admins change them. */
		html_raw(p->out, "<p class=\"actions\"><a href=\"");
		app_href(p->out, "/o/", o.org.id);
		html_raw(p->out, "/settings\">Organization settings</a></p>");
		/* A new site (pages_admin_site.c): for members who may create
		 * content; dom_site_create decides. */
		if (perm.create_content) {
			html_raw(p->out, "<h2>New site</h2>");
			app_site_create_form(p, o.org.id, NULL);
		}
		if (perm.list_members || perm.list_teams) {
			html_raw(p->out, "<h2>People</h2><p class=\"actions\">");
			if (perm.list_members) {
				html_raw(p->out, "<a href=\"");
				app_href(p->out, "/o/", o.org.id);
				html_raw(p->out, "/members\">Members</a>");
			}
			if (perm.list_teams) {
				html_raw(p->out, "<a href=\"");
				app_href(p->out, "/o/", o.org.id);
				html_raw(p->out, "/teams\">Teams</a>");
			}
			html_raw(p->out, "</p>");
		}
		/* OpenAPI specs and integrations (pages_openapi.c,
		 * pages_integrations.c): for members, as listOpenAPISpecs and
		 * listIntegrations allow. */
		if (perm.list_integrations && o.actor.role >= ROLE_READ) {
			html_raw(p->out, "<h2>APIs and integrations</h2><p class=\"actions\"><a href=\"");
			app_href(p->out, "/o/", o.org.id);
			html_raw(p->out, "/openapi\">OpenAPI specifications</a><a href=\"");
			app_href(p->out, "/o/", o.org.id);
			html_raw(p->out, "/integrations\">Integrations</a></p>");
		}
		/* Translations (pages_translations.c): for members, not guests. */
		if (o.actor.role >= ROLE_READ) {
			html_raw(p->out, "<h2>Translations</h2><p class=\"actions\"><a href=\"");
			app_href(p->out, "/o/", o.org.id);
			html_raw(p->out, "/translations\">Translations of spaces</a></p>");
		}
	}
	app_frame_end(p);
	return 0;
}

int page_collection(struct app_page *p)
{
	const char *id = req_param(p->r, "collectionId");
	struct list_req lr = first_page();
	struct collection c, *cols = NULL;
	struct space *spaces = NULL;
	struct dom_org o;
	char *next = NULL;
	int ncols = 0, nspaces = 0, rc, shown = 0;
	struct jw *b = p->out;

	if ((rc = dom_collection_get(p->d, id, ROLE_READ, &c)) ||
	    (rc = dom_spaces_list(p->d, NULL, id, &lr, &spaces, &nspaces, &next)) ||
	    (rc = soft(dom_collections_list(p->d, c.org_id, true, &lr, &cols, &ncols, &next))) ||
	    (rc = dom_org_get(p->d, c.org_id, &o)))
		return rc;
	{
		const char *org_href;
		struct jw h;
		jw_init(&h);
		app_href(&h, "/o/", c.org_id);
		org_href = jw_take(&h, &p->r->arena, "/");
		struct app_crumb crumbs[] = { { "Home", "/" }, { o.org.title, org_href }, { c.title, NULL } };
		app_frame_begin(p, c.title && *c.title ? c.title : "Collection", crumbs, 3);
	}
	html_raw(b, "<h1>");
	app_text(b, c.title && *c.title ? c.title : "Untitled collection");
	html_raw(b, "</h1>");
	if (c.description && *c.description) {
		html_raw(b, "<p class=\"mute\">");
		app_text(b, c.description);
		html_raw(b, "</p>");
	}
	html_raw(b, "<nav class=\"actions\" aria-label=\"Collection\"><a href=\"");
	app_href(b, "/c/", c.id);
	html_raw(b, "/settings\">Settings and permissions</a></nav>"); /* pages_admin_collection.c */
	for (int i = 0; i < ncols; i++) {
		if (!cols[i].parent_id || strcmp(cols[i].parent_id, c.id) != 0)
			continue;
		if (!shown++)
			html_raw(b, "<h2>Collections</h2><ul class=\"list\">");
		html_raw(b, "<li><a href=\"");
		app_href(b, "/c/", cols[i].id);
		html_raw(b, "\">");
		app_text(b, cols[i].title && *cols[i].title ? cols[i].title : "Untitled collection");
		html_raw(b, "</a></li>");
	}
	if (shown)
		html_raw(b, "</ul>");
	html_raw(b, "<h2>Spaces</h2>");
	if (nspaces == 0) {
		html_raw(b, "<p class=\"empty\">No spaces you can read in this collection.</p>");
	} else {
		html_raw(b, "<ul class=\"list\">");
		for (int i = 0; i < nspaces; i++)
			space_item(b, &spaces[i]);
		html_raw(b, "</ul>");
	}
	app_frame_end(p);
	return 0;
}
