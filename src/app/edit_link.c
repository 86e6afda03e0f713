/*
 * edit_link.c - the published site's "Edit" link (issue 25: "the published
 * site shows signed-in members a link to edit the page").
 *
 * DESIGN
 * A published page is cached and shared by every visitor (site/cache.c),
 * and it is served on another origin than the web interface (README, "Two
 * origins"), which never reaches the app with the visitor's session. So
 * every page carries the same plain link (site/render.c), and the app
 * decides here, when the visitor follows it (a top-level navigation, which
 * carries the SameSite=Lax session cookie):
 *
 *   GET /~app/edit-link?space={spaceId}&page={pageId}
 *     signed out                      303 /signin?next=<this URL>
 *     may edit the space              303 /s/{spaceId}/{page path}
 *     may read it only                303 /s/{spaceId}/{page path} (the
 *                                     app shows it read-only)
 *     anything else (another          404, the app's page: an unknown
 *     organization, unknown ids)      space and a hidden one look alike
 *
 * Nothing is answered to a script: it is a navigation, and its answer is
 * no-store like every app response.
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
	app_error_page(p, 404, "Page not found", "There is no page here that you can open.");
	return 0;
}

int page_edit_link(struct app_page *p)
{
	const char *space_id = req_query(p->r, "space"), *page_id = req_query(p->r, "page");
	struct dom_page dp;
	struct jw loc;
	int rc;

	if (!id_ok(space_id) || !id_ok(page_id))
		return nothing(p);
	if (!p->user_id) {
		/* Back here after signing in (ids checked above: plain ASCII). */
		const char *here = arena_printf(&p->r->arena, "/~app/edit-link?space=%s&page=%s", space_id, page_id);
		const char *enc = app_query_enc(&p->r->arena, here);
		p->location = enc ? arena_printf(&p->r->arena, "/signin?next=%s", enc) : "/signin";
		return 0;
	}
	rc = dom_page_get(p->d, space_id, NULL, NULL, page_id, NULL, false, false, &dp);
	if (rc == ERR_NOT_FOUND || rc == ERR_FORBIDDEN) {
		err_clear();
		return nothing(p);
	}
	if (rc)
		return rc;
	/* The space's page: the editor's controls show only to those who may
	 * edit (the app's own check), the page read-only to the others. */
	jw_init(&loc);
	app_href(&loc, "/s/", space_id);
	app_href(&loc, "/", dp.page->path ? dp.page->path : "");
	jw_put(&loc, "", 1);
	if (jw_ok(&loc))
		p->location = arena_strdup(&p->r->arena, loc.buf);
	jw_free(&loc);
	return p->location ? 0 : err_set(ERR_INTERNAL, "edit link too long");
}
