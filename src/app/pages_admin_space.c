/*
 * pages_admin_space.c - a space's settings in the web interface (issue 25,
 * "space settings (title, emoji, visibility, edit mode ...)"):
 * /s/{spaceId}/~/settings.
 *
 * GET shows the settings, as a form when space_permissions() (the function
 * behind the API's space `permissions`) says admin; POST parses the fields
 * as updateSpaceById's handler does (api/spaces.c: title 0..50 characters,
 * emoji 1..50 or empty to remove it, visibility and editMode from GitBook's
 * lists) and calls dom_space_update, the same domain function, which decides
 * access and the rest. 303 back on success; a refusal is rolled back and
 * the form shown again with the status and message.
 */
#include "app/app.h"
#include "app/pages.h"
#include "domain/spaces.h"
#include "http/form.h"
#include "model/access.h"
#include "site/site.h"
#include "util/err.h"
#include "util/text.h"

#include <string.h>

static const char *const edit_modes[] = { "live", "locked", NULL };
static const char *const visibilities[] = { "public", "unlisted", "share-link", "visitor-auth", "in-collection",
					    "private", NULL };

static int one_of(const char *v, const char *const *allowed)
{
	for (int i = 0; allowed[i]; i++)
		if (strcmp(v, allowed[i]) == 0)
			return 1;
	return 0;
}

static const char *space_path(struct app_page *p, const char *id, const char *suffix)
{
	struct jw h;
	const char *out;

	jw_init(&h);
	app_href(&h, "/s/", id);
	html_raw(&h, suffix);
	out = jw_ok(&h) ? arena_strndup(&p->r->arena, h.buf, h.len) : "/";
	jw_free(&h);
	return out;
}

static void select_of(struct jw *b, const char *name, const char *label, const char *const *list, const char *cur)
{
	html_raw(b, "<p><label for=\"set-");
	html_raw(b, name);
	html_raw(b, "\">");
	html_raw(b, label);
	html_raw(b, "</label><br><select id=\"set-");
	html_raw(b, name);
	html_raw(b, "\" name=\"");
	html_raw(b, name);
	html_raw(b, "\">");
	for (int i = 0; list[i]; i++) {
		html_raw(b, "<option value=\"");
		html_raw(b, list[i]);
		html_raw(b, cur && strcmp(cur, list[i]) == 0 ? "\" selected>" : "\">");
		html_raw(b, list[i]);
		html_raw(b, "</option>");
	}
	html_raw(b, "</select></p>");
}

static int render(struct app_page *p, const char *error)
{
	const char *id = req_param(p->r, "spaceId");
	struct space_permissions perm;
	struct space s;
	struct jw *b = p->out;
	int rc;

	if ((rc = dom_space_get(p->d, id, ROLE_READ, &s)))
		return rc;
	space_permissions(&perm, s.access, s.edit_mode && strcmp(s.edit_mode, "locked") == 0);
	{
		struct app_crumb crumbs[] = { { "Home", "/" },
					      { s.title && *s.title ? s.title : "Untitled space", space_path(p, s.id, "") },
					      { "Settings", NULL } };
		app_frame_begin(p, "Space settings", crumbs, 3);
	}
	html_raw(b, "<h1>Space settings</h1>");
	if (error) {
		html_raw(b, "<div class=\"hint hint-danger\" role=\"alert\"><p>");
		app_text(b, error);
		html_raw(b, "</p></div>");
	}
	if (!perm.admin) {
		html_raw(b, "<dl class=\"meta\"><dt>Title</dt><dd>");
		app_text(b, s.title);
		html_raw(b, "</dd><dt>Visibility</dt><dd>");
		app_text(b, s.visibility);
		html_raw(b, "</dd><dt>Edit mode</dt><dd>");
		app_text(b, s.edit_mode);
		html_raw(b, "</dd></dl><p class=\"mute\">Only an administrator of this space can change its settings.</p>");
		app_frame_end(p);
		return 0;
	}
	html_raw(b, "<form method=\"post\" action=\"");
	app_text(b, space_path(p, s.id, "/~/settings"));
	html_raw(b, "\"><input type=\"hidden\" name=\"" APP_CSRF_FIELD "\" value=\"");
	app_text(b, p->csrf ? p->csrf : "");
	html_raw(b, "\"><p><label for=\"set-title\">Title</label><br><input id=\"set-title\" name=\"title\" "
		    "type=\"text\" maxlength=\"50\" value=\"");
	app_text(b, s.title ? s.title : "");
	html_raw(b, "\"></p><p><label for=\"set-emoji\">Emoji (a Unicode code point such as 1f4d8; empty for none)"
		    "</label><br><input id=\"set-emoji\" name=\"emoji\" type=\"text\" maxlength=\"50\" value=\"");
	app_text(b, s.emoji ? s.emoji : "");
	html_raw(b, "\"></p>");
	select_of(b, "visibility", "Visibility", visibilities, s.visibility);
	select_of(b, "editMode", "Edit mode (locked: changes only through change requests' merges)", edit_modes,
		  s.edit_mode);
	html_raw(b, "<p><button type=\"submit\">Save settings</button></p></form>");
	app_frame_end(p);
	return 0;
}

int page_space_settings(struct app_page *p)
{
	return render(p, NULL);
}

/* A form field: 1 with *out, 0 absent, -1 malformed (then *error says). */
static int field(struct app_page *p, const char *name, const char **out)
{
	return form_field(&p->r->arena, p->r->body, p->r->body_len, name, out);
}

int page_space_settings_save(struct app_page *p)
{
	struct req *r = p->r;
	const char *id = req_param(r, "spaceId"), *title = NULL, *emoji = NULL, *vis = NULL, *mode = NULL;
	struct space_input in = { 0 };
	struct space s;
	const char *bad = NULL;
	int rc, ft = field(p, "title", &title), fe = field(p, "emoji", &emoji), fv = field(p, "visibility", &vis),
		fm = field(p, "editMode", &mode);

	/* The parse of updateSpaceById's body (api/spaces.c), field by field. */
	if (ft < 0 || (ft == 1 && utf8_len(title) > 50))
		bad = "title: at most 50 characters";
	else if (fe < 0 || (fe == 1 && utf8_len(emoji) > 50))
		bad = "emoji: at most 50 characters";
	else if (fv < 0 || (fv == 1 && !one_of(vis, visibilities)))
		bad = "visibility: must be one of public, unlisted, share-link, visitor-auth, in-collection, private";
	else if (fm < 0 || (fm == 1 && !one_of(mode, edit_modes)))
		bad = "editMode: must be one of live, locked";
	if (bad) {
		p->status = 400;
		return render(p, bad);
	}
	in.title = ft == 1 ? title : NULL;
	if (fe == 1) {
		in.has_emoji = true;
		in.emoji = *emoji ? emoji : NULL; /* empty: remove it (the API's null) */
	}
	in.visibility = fv == 1 ? vis : NULL;
	in.edit_mode = fm == 1 ? mode : NULL;
	rc = dom_space_update(p->d, id, &in, &s);
	if (rc) {
		int status = err_status(rc);
		const char *msg;
		if (status < 400 || status >= 500 || rc == ERR_NOT_FOUND)
			return rc;
		/* Refused: nothing is kept; the form again with why, in a new
		 * read transaction. */
		msg = arena_strdup(&r->arena, err_message());
		err_clear();
		store_tx_rollback(&r->tx);
		if ((rc = store_tx_begin(r->srv->store, &r->tx, 0, &r->arena)))
			return rc;
		dom_init(&r->dom, r->srv, &r->tx, &r->arena, p->user_id);
		p->status = status;
		return render(p, msg);
	}
	p->location = space_path(p, s.id, "/~/settings");
	return 0;
}
