/*
 * edit_link.c - the published site's "Edit" link for signed-in members
 * (issue 25: "the published site shows signed-in members a link to edit
 * the page").
 *
 * DESIGN
 * A published page is cached and shared by every visitor (site/cache.c),
 * so it cannot carry one visitor's link. It names this endpoint in a meta
 * tag instead (site/seo.c, only when the site is served under docsd's own
 * origin, where the session cookie is sent) and its script (site.js) asks:
 *
 *   GET /~app/edit-link?space={spaceId}&page={pageId}
 *     200 {"url": "/s/{spaceId}/{page path}"}  the visitor is signed in and
 *                                              may edit the space
 *     204                                      anyone else (signed out, a
 *                                              reader, another organization,
 *                                              an unknown page)
 *
 * The answer is private and no-store (app.c sets both on every app
 * response) and same-origin only (no CORS headers: another site's script
 * cannot read it). It never says more than the visitor could already learn
 * in the interface: whether they may edit a space they can read.
 */
#include "app/app.h"
#include "app/pages.h"
#include "domain/content.h"
#include "domain/domain.h"
#include "model/access.h"
#include "model/roles.h"
#include "site/site.h"
#include "util/err.h"

#include <string.h>

/* Ids are short ASCII tokens; anything else names nothing. */
static bool id_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (n == 0 || n > 64)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '-' ||
		      *s == '_'))
			return false;
	return true;
}

static int nothing(struct app_page *p)
{
	p->status = 204;
	p->content_type = "application/json";
	p->out->len = 0;
	return 0;
}

int page_edit_link(struct app_page *p)
{
	const char *space_id = req_query(p->r, "space"), *page_id = req_query(p->r, "page");
	struct space_permissions perm;
	struct dom_page dp;
	enum role role;
	int rc;

	if (!p->user_id || !id_ok(space_id) || !id_ok(page_id))
		return nothing(p);
	rc = dom_page_get(p->d, space_id, NULL, NULL, page_id, NULL, false, false, &dp);
	if (rc == ERR_NOT_FOUND || rc == ERR_FORBIDDEN) {
		err_clear();
		return nothing(p);
	}
	if (rc)
		return rc;
	if ((rc = dom_space_role(p->d, &dp.src.space, &role)))
		return rc;
	space_permissions(&perm, role, dp.src.space.edit_mode && strcmp(dp.src.space.edit_mode, "locked") == 0);
	if (!perm.edit)
		return nothing(p);
	p->content_type = "application/json";
	html_raw(p->out, "{\"url\":\"");
	/* app_href percent-encodes the path and HTML-escapes it: no '"' or
	 * '\\' reaches the JSON string. */
	app_href(p->out, "/s/", space_id);
	app_href(p->out, "/", dp.page->path ? dp.page->path : "");
	html_raw(p->out, "\"}");
	return 0;
}
