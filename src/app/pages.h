/*
 * pages.h - what the web interface's pages share (app.c dispatches,
 * html.c frames, pages_*.c render). Internal to src/app/.
 *
 * DESIGN
 * A page is a function from a struct app_page (the request, a domain
 * context whose actor is the signed-in user, in a read transaction) to HTML
 * written into p->out, or a redirect (p->location). It calls the same
 * domain functions as the API's handlers, which check access once: a page
 * never decides a rule itself. An error code (util/err.h) it returns
 * becomes the app's error page: ERR_NOT_FOUND and ERR_FORBIDDEN both show
 * the 404 page, so an object of another organization and a missing one
 * look alike.
 */
#ifndef DOCSD_APP_PAGES_H
#define DOCSD_APP_PAGES_H

#include <stdint.h>

#include "http/http.h"
#include "json/jsonw.h"

struct app_page {
	struct req *r;
	struct dom *d;
	const char *user_id;     /* the signed-in user, or NULL */
	const char *csrf;        /* the session's CSRF token (forms) */
	const struct user *user; /* loaded by the dispatcher when signed in */
	struct jw *out;          /* the HTML body */
	int status;              /* 200 unless a page says otherwise */
	const char *location;    /* set: answer a 303 redirect there instead */
	int refresh;             /* > 0: the page reloads itself every that many seconds (meta refresh) */
	const char *content_type; /* NULL: text/html; else p->out is a body of that type */
};

/* A link above the page's title (the breadcrumb trail). */
struct app_crumb {
	const char *label;
	const char *href; /* NULL: the current page */
};

/* ---- the frame (html.c) ---- */
/* <!doctype html> ... up to the start of <main>: the head (title, the
 * stylesheet), the header with the signed-in user and the sign-out form,
 * and the breadcrumbs. */
void app_frame_begin(struct app_page *p, const char *title, const struct app_crumb *crumbs, int ncrumbs);
/* Close <main>, the footer and the document. */
void app_frame_end(struct app_page *p);
/* The 404 (and other error) page in the frame. */
void app_error_page(struct app_page *p, int status, const char *title, const char *text);
/* The stylesheet and its URL (/~app/app.css?v=<hash>). */
extern const char app_css[];
extern const size_t app_css_len;
const char *app_css_url(void);

/* ---- small writers (html.c) ---- */
/* Escaped text. */
void app_text(struct jw *b, const char *s);
/* A path for an href: prefix (trusted, ASCII) then each byte of rest
 * percent-encoded as url_path_enc does ('/' kept), then escaped. */
void app_href(struct jw *b, const char *prefix, const char *rest);
/* "YYYY-MM-DD HH:MM UTC" of a millisecond timestamp. */
void app_date(struct jw *b, int64_t ms);
/* A space's or page's emoji (or nothing), then a space. */
void app_emoji(struct jw *b, const char *emoji);
/* Percent-encode s for a query value (everything but unreserved and '/'). */
const char *app_query_enc(struct arena *a, const char *s);

/* ---- forms (forms.c) ---- */
/* The hidden CSRF field of the session's token: in every POST form. */
void app_hidden_csrf(struct app_page *p);
/* A refusal's message in an alert box (nothing when msg is NULL). */
void app_error_box(struct jw *b, const char *msg);
/* prefix + id percent-encoded (app_href) [+ prefix2 + id2] + suffix, in the
 * request's arena, HTML-escaped (for an href or a form's action; a Location
 * as well: ids are ASCII). "/" when out of memory. */
const char *app_path(struct app_page *p, const char *prefix, const char *id, const char *suffix);
const char *app_path2(struct app_page *p, const char *prefix, const char *id, const char *prefix2, const char *id2,
		      const char *suffix);
/* rc from a form's write: a refusal (4xx but 404) rolls the write
 * transaction back, continues in a read transaction, sets p->status, clears
 * p->out and p->location, and returns 0 with *msg (the page then draws the
 * form again with app_error_box); any other rc is returned as is. */
int app_form_refused(struct app_page *p, int rc, const char **msg);

/* A text field of a urlencoded form: 1 with *out (min..max characters;
 * max 0: any length), 0 absent, -1 with the API's wording of the refusal
 * in *bad (not text, out of bounds). */
int app_form_text(struct app_page *p, const char *name, long min, long max, const char **out, const char **bad);
/* A labelled select of the values in list (NULL-terminated, trusted
 * names), cur selected; its id is id_prefix + name. */
void app_select(struct jw *b, const char *id_prefix, const char *name, const char *label, const char *const *list,
		const char *cur);

/* ---- lists (forms.c) ---- */
/* The most rows a list page shows at once (?limit= may ask for fewer). */
#define APP_LIST_MAX 100
struct list_req;
struct cursor;
/* A list's page from the request: ?page= (the API's cursor) and ?limit=
 * (1..APP_LIST_MAX, default the most) as req_list reads them; a bad one is
 * a 400 page. */
int app_list(struct app_page *p, struct list_req *lr, struct cursor *cur, int default_desc);
/* When next is set, a "next page" link: path (an href, escaped) with the
 * query parameters named in keep (NULL-terminated; their current values),
 * limit= and page=next. */
void app_pager(struct app_page *p, const char *path, const char *const *keep, const char *next, const char *label);

/* ---- pages (pages_*.c): 0, or an err.h code ---- */
int page_home(struct app_page *p);
int page_org(struct app_page *p);
int page_collection(struct app_page *p);
int page_space(struct app_page *p);
int page_space_path(struct app_page *p);
int page_crs(struct app_page *p);
int page_cr(struct app_page *p);
int page_cr_page(struct app_page *p);
int page_history(struct app_page *p);
int page_search(struct app_page *p);
int page_site(struct app_page *p);
/* Personal API tokens (pages_tokens.c). */
int page_tokens(struct app_page *p);
int page_token_create(struct app_page *p);
int page_token_revoke(struct app_page *p);
/* An organization's members and teams (pages_admin.c). */
int page_members(struct app_page *p);
int page_member_role(struct app_page *p);
int page_member_remove(struct app_page *p);
int page_teams(struct app_page *p);
int page_team_create(struct app_page *p);
int page_team(struct app_page *p);
int page_team_member_add(struct app_page *p);
int page_team_member_remove(struct app_page *p);
int page_invites(struct app_page *p);
int page_invite_emails(struct app_page *p);
int page_invite_link_create(struct app_page *p);
int page_invite_link_delete(struct app_page *p);
int page_join(struct app_page *p);
int page_join_post(struct app_page *p);
/* A space's settings (pages_admin_space.c). */
int page_space_settings(struct app_page *p);
int page_space_settings_save(struct app_page *p);
int page_space_grant(struct app_page *p);
int page_space_grant_remove(struct app_page *p);
int page_space_grant_role(struct app_page *p);
int page_space_merge_rules_save(struct app_page *p);
/* Merge rules of a space or of an organization (pages_admin_space.c): in
 * words for every reader, and for admins the form posted to action. */
struct app_mr_target {
	const char *org_id; /* whose members the rules with users list */
	const char *rules;  /* the configuration in force (JSON text); NULL: the default */
	bool space;         /* a space's: "inherit" offered (its default) and described */
	const char *action; /* the form's action, escaped (app_path) */
};
int app_merge_rules_section(struct app_page *p, const struct app_mr_target *t, bool admin);
/* The form's configuration (compact JSON into the request's arena), as
 * updateSpaceById's or updateOrganizationById's mergeRules carries it: type
 * inherit (allow_inherit only) or none alone, or rules with the rules
 * ticked, each rule with users listing the ids ticked (none ticked: left
 * out), then the rules of `current` the form does not offer. 0, or
 * ERR_INVALID naming the field. */
int app_merge_rules_parse(struct app_page *p, const char *current, bool allow_inherit, const char **out);
/* An organization's settings (pages_admin_org.c). */
int page_org_settings(struct app_page *p);
int page_org_settings_save(struct app_page *p);
int page_org_merge_rules_save(struct app_page *p);
/* A collection's settings and permissions (pages_admin_collection.c). */
int page_collection_settings(struct app_page *p);
int page_collection_settings_save(struct app_page *p);
int page_collection_grant(struct app_page *p);
int page_collection_grant_remove(struct app_page *p);
int page_collection_grant_role(struct app_page *p);
/* A site's publishing and share links (pages_admin_site.c). */
int page_site_publishing(struct app_page *p);
int page_site_publish(struct app_page *p);
int page_site_unpublish(struct app_page *p);
int page_site_share_link_create(struct app_page *p);
int page_site_share_link_delete(struct app_page *p);
/* A site's general settings; creating a site, and its form on the
 * organization's page (title: the value to show, or NULL). */
int page_site_settings_save(struct app_page *p);
int page_site_delete(struct app_page *p);
int page_site_new(struct app_page *p);
int page_site_create(struct app_page *p);
void app_site_create_form(struct app_page *p, const char *org_id, const char *title);
/* A site's structure and customization (pages_site_structure.c). */
int page_site_structure(struct app_page *p);
int page_site_space_add(struct app_page *p);
int page_site_space_remove(struct app_page *p);
int page_site_space_default(struct app_page *p);
int page_site_section_create(struct app_page *p);
int page_site_section_delete(struct app_page *p);
int page_site_section_default(struct app_page *p);
int page_site_customization(struct app_page *p);
int page_site_customization_save(struct app_page *p);
int page_site_group_create(struct app_page *p);
int page_site_group_delete(struct app_page *p);
int page_site_group_section_add(struct app_page *p);
int page_site_group_section_remove(struct app_page *p);
int page_site_item_move(struct app_page *p);
int page_site_space_customization(struct app_page *p);
int page_site_space_customization_save(struct app_page *p);
int page_site_space_customization_delete(struct app_page *p);
/* An integration's page and its installations' urls.app (pages_integration.c). */
int page_integration(struct app_page *p);
int page_integration_installation(struct app_page *p);
/* The published site's "Edit" link (edit_link.c): JSON for site.js. */
int page_edit_link(struct app_page *p);
/* A space's Git sync (pages_git.c). */
int page_git(struct app_page *p);
int page_git_import(struct app_page *p);
int page_git_export(struct app_page *p);
int page_git_unlink(struct app_page *p);
/* An organization's translations (pages_translations.c). */
int page_translations(struct app_page *p);
int page_translation_create(struct app_page *p);
int page_translation(struct app_page *p);
int page_translation_run(struct app_page *p);
int page_translation_delete(struct app_page *p);
int page_translation_instructions(struct app_page *p);
/* An organization's OpenAPI specs (pages_openapi.c). */
int page_openapi_list(struct app_page *p);
int page_openapi_create(struct app_page *p);
int page_openapi_spec(struct app_page *p);
int page_openapi_source(struct app_page *p);
int page_openapi_visibility(struct app_page *p);
int page_openapi_delete(struct app_page *p);
/* An organization's integrations and an installation (pages_integrations.c). */
int page_integrations(struct app_page *p);
int page_integration_install(struct app_page *p);
int page_installation(struct app_page *p);
int page_installation_space_install(struct app_page *p);
int page_installation_uninstall(struct app_page *p);
int page_installation_space_uninstall(struct app_page *p);
int page_integrations_installed(struct app_page *p);
int page_installation_configure(struct app_page *p);
int page_installation_site_install(struct app_page *p);
int page_installation_site_uninstall(struct app_page *p);
int page_installation_spaces(struct app_page *p);
int page_installation_sites(struct app_page *p);
int page_installation_space(struct app_page *p);
int page_installation_site(struct app_page *p);
int page_installation_space_configure(struct app_page *p);
int page_installation_site_configure(struct app_page *p);
/* The organization's search box (pages_org.c). */
void app_search_form(struct jw *b, const char *org_id, const char *q);

#endif
