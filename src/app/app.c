/*
 * app.c - the web interface's dispatcher (app.h, issue 25).
 *
 * DESIGN
 * Like the API's route table (api/routes.c), the app's pages are one
 * constant table: method, path template, handler, flags. app_serve() does
 * what the flags say before a handler runs, so no page repeats it:
 *
 *   match (not the app's: return 1, the API answers) -> 405 for another
 *   method -> read transaction -> the session (app_session_user) ->
 *   APP_SESSION and none: 303 to /signin?next=<path> -> APP_WRITE: the
 *   CSRF token (app_csrf_ok) -> handler -> commit -> HTML, or the error
 *   page (404 for ERR_NOT_FOUND and ERR_FORBIDDEN alike: another
 *   organization's object looks missing), or a redirect.
 *
 * Pages only read today, in one read transaction; a state-changing row
 * (APP_WRITE) would open a write transaction instead.
 *
 * Every app response carries the CSP below (docsd's own files only, no
 * inline script or style, never framed), is private to the signed-in user
 * (no-store: a shared cache or the back button after sign-out must not
 * show it) and nosniff.
 *
 * "/" is shared with the API's home document: a browser (Accept names
 * text/html) gets the app's home page, any other client the API's JSON.
 */
#include "app/app.h"
#include "app/pages.h"
#include "app/pages_write.h"
#include "app/pages_review.h"
#include "app/saml.h"
#include "app/session.h"
#include "http/http.h"
#include "http/router.h"
#include "http/services.h"
#include "site/site.h"
#include "util/err.h"
#include "util/log.h"
#include "util/text.h"

#include <microhttpd.h>
#include <string.h>
#include <strings.h>

/* 'self' is safe here: the app's origin serves no bytes a user or an
 * integration chooses as script or style. Published sites, integration
 * scripts and uploads are on the site origin (README, "Two origins"), and
 * a browser loading a script or stylesheet from any path but /~app/ gets
 * a 404 (http/router.c subresource_refused: an upload's /files/ URL still
 * answers here for API clients and images). */
#define APP_CSP                                                                                                        \
	"default-src 'self'; img-src 'self' data: https:; style-src 'self'; script-src 'self'; object-src 'none'; "   \
	"base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

enum {
	APP_SESSION = 1 << 0, /* signed-in users only: others are sent to /signin */
	APP_WRITE = 1 << 1,   /* changes state: a write transaction and the CSRF token */
	APP_ASSET = 1 << 2,   /* a static asset: no transaction, no session */
	APP_HTML = 1 << 3,    /* answered only to a browser (Accept: text/html); else the API's */
	APP_CSRF_SELF = 1 << 4, /* with APP_WRITE: a multipart form, whose handler checks its token part itself */
};

struct app_route {
	const char *method;
	const char *path; /* route_template_match's templates */
	int (*handler)(struct app_page *p);
	unsigned flags;
};

static int serve_css(struct app_page *p);

/* Order matters: the first template that matches wins ({path*} last). */
static const struct app_route app_routes[] = {
	{ "GET", "/~app/app.css", serve_css, APP_ASSET },
	{ "GET", "/", page_home, APP_SESSION | APP_HTML },
	{ "GET", "/o/{organizationId}", page_org, APP_SESSION },
	{ "GET", "/o/{organizationId}/search", page_search, APP_SESSION },
	/* An organization's settings and merge rules (pages_admin_org.c). */
	{ "GET", "/o/{organizationId}/settings", page_org_settings, APP_SESSION },
	{ "POST", "/o/{organizationId}/settings", page_org_settings_save, APP_SESSION | APP_WRITE },
	{ "POST", "/o/{organizationId}/merge-rules", page_org_merge_rules_save, APP_SESSION | APP_WRITE },
	/* Creating a site (pages_admin_site.c): "new" before {siteId}. */
	{ "GET", "/o/{organizationId}/sites/new", page_site_new, APP_SESSION },
	{ "POST", "/o/{organizationId}/sites", page_site_create, APP_SESSION | APP_WRITE },
	{ "GET", "/o/{organizationId}/sites/{siteId}", page_site, APP_SESSION },
	{ "GET", "/c/{collectionId}", page_collection, APP_SESSION },
	{ "GET", "/c/{collectionId}/settings", page_collection_settings, APP_SESSION },
	{ "POST", "/c/{collectionId}/settings", page_collection_settings_save, APP_SESSION | APP_WRITE },
	{ "POST", "/c/{collectionId}/permissions", page_collection_grant, APP_SESSION | APP_WRITE },
	{ "POST", "/c/{collectionId}/permissions/{kind}/{principalId}/remove", page_collection_grant_remove,
	  APP_SESSION | APP_WRITE },
	{ "POST", "/c/{collectionId}/permissions/{kind}/{principalId}/role", page_collection_grant_role,
	  APP_SESSION | APP_WRITE },
	{ "GET", "/s/{spaceId}", page_space, APP_SESSION },
	{ "GET", "/s/{spaceId}/~/changes", page_crs, APP_SESSION },
	{ "GET", "/s/{spaceId}/~/changes/{number}", page_cr, APP_SESSION },
	/* Writing through change requests (pages_write.c, "write"): before the
	 * change request's {path*} (no page path starts with "~"). */
	{ "GET", "/~app/edit.js", write_serve_js, APP_ASSET },
	{ "GET", "/~app/edit.css", write_serve_css, APP_ASSET },
	/* Asked by a published page's site.js: no sign-in redirect (JSON). */
	{ "GET", "/~app/edit-link", page_edit_link, 0 },
	{ "POST", "/s/{spaceId}/~/changes/new", write_cr_new, APP_SESSION | APP_WRITE },
	{ "POST", "/s/{spaceId}/~/preview", write_preview, APP_SESSION }, /* reads: checks the token itself */
	{ "GET", "/s/{spaceId}/~/changes/{number}/~/edit", write_edit_index, APP_SESSION },
	{ "POST", "/s/{spaceId}/~/changes/{number}/~/pages", write_page_new, APP_SESSION | APP_WRITE },
	{ "GET", "/s/{spaceId}/~/changes/{number}/~/edit/{pageId}", write_edit, APP_SESSION },
	{ "POST", "/s/{spaceId}/~/changes/{number}/~/edit/{pageId}", write_save, APP_SESSION | APP_WRITE },
	{ "POST", "/s/{spaceId}/~/changes/{number}/~/move/{pageId}", write_move, APP_SESSION | APP_WRITE },
	{ "POST", "/s/{spaceId}/~/changes/{number}/~/delete/{pageId}", write_delete, APP_SESSION | APP_WRITE },
	{ "POST", "/s/{spaceId}/~/changes/{number}/~/upload", write_upload, APP_SESSION | APP_WRITE | APP_CSRF_SELF },
	/* A comment's own page (pages_review.c): before {path*}. */
	{ "GET", "/s/{spaceId}/~/changes/{number}/~/comments/{commentId}", page_review_comment_view, APP_SESSION },
	{ "GET", "/s/{spaceId}/~/changes/{number}/{path*}", page_cr_page, APP_SESSION },
	{ "GET", "/s/{spaceId}/~/history", page_history, APP_SESSION },
	/* A space's settings (pages_admin_space.c, "admin"): before {path*}. */
	{ "GET", "/s/{spaceId}/~/settings", page_space_settings, APP_SESSION },
	{ "POST", "/s/{spaceId}/~/settings", page_space_settings_save, APP_SESSION | APP_WRITE },
	{ "POST", "/s/{spaceId}/~/permissions", page_space_grant, APP_SESSION | APP_WRITE },
	{ "POST", "/s/{spaceId}/~/permissions/{kind}/{principalId}/remove", page_space_grant_remove,
	  APP_SESSION | APP_WRITE },
	{ "POST", "/s/{spaceId}/~/permissions/{kind}/{principalId}/role", page_space_grant_role,
	  APP_SESSION | APP_WRITE },
	{ "POST", "/s/{spaceId}/~/merge-rules", page_space_merge_rules_save, APP_SESSION | APP_WRITE },
	/* A space's Git sync (pages_git.c): before {path*}. */
	{ "GET", "/s/{spaceId}/~/git", page_git, APP_SESSION },
	{ "POST", "/s/{spaceId}/~/git/import", page_git_import, APP_SESSION | APP_WRITE },
	{ "POST", "/s/{spaceId}/~/git/export", page_git_export, APP_SESSION | APP_WRITE },
	{ "POST", "/s/{spaceId}/~/git/unlink", page_git_unlink, APP_SESSION | APP_WRITE },
	{ "GET", "/s/{spaceId}/{path*}", page_space_path, APP_SESSION },
	/* Review (pages_review.c): a change request's forms, each back to its page. */
	{ "POST", "/s/{spaceId}/~/changes/{number}/~/comment", page_review_comment, APP_SESSION | APP_WRITE },
	{ "POST", "/s/{spaceId}/~/changes/{number}/~/comments/{commentId}/reply", page_review_reply, APP_SESSION | APP_WRITE },
	{ "POST", "/s/{spaceId}/~/changes/{number}/~/comments/{commentId}/resolve", page_review_resolve, APP_SESSION | APP_WRITE },
	{ "POST", "/s/{spaceId}/~/changes/{number}/~/comments/{commentId}/react", page_review_react, APP_SESSION | APP_WRITE },
	{ "POST", "/s/{spaceId}/~/changes/{number}/~/comments/{commentId}/edit", page_review_comment_edit, APP_SESSION | APP_WRITE },
	{ "POST", "/s/{spaceId}/~/changes/{number}/~/comments/{commentId}/delete", page_review_comment_delete, APP_SESSION | APP_WRITE },
	{ "POST", "/s/{spaceId}/~/changes/{number}/~/comments/{commentId}/replies/{replyId}/edit", page_review_comment_edit,
	  APP_SESSION | APP_WRITE },
	{ "POST", "/s/{spaceId}/~/changes/{number}/~/comments/{commentId}/replies/{replyId}/delete", page_review_comment_delete,
	  APP_SESSION | APP_WRITE },
	{ "POST", "/s/{spaceId}/~/changes/{number}/~/reviewers", page_review_reviewers, APP_SESSION | APP_WRITE },
	{ "POST", "/s/{spaceId}/~/changes/{number}/~/reviewers/{userId}/remove", page_review_reviewer_remove, APP_SESSION | APP_WRITE },
	{ "POST", "/s/{spaceId}/~/changes/{number}/~/review", page_review_submit, APP_SESSION | APP_WRITE },
	{ "POST", "/s/{spaceId}/~/changes/{number}/~/merge", page_review_merge, APP_SESSION | APP_WRITE },
	{ "POST", "/s/{spaceId}/~/changes/{number}/~/update", page_review_update, APP_SESSION | APP_WRITE },
	/* Administration (pages_admin*.c, pages_tokens.c). */
	/* An integration's and an installation's urls.app (pages_integration.c). */
	{ "GET", "/integrations/{integrationName}", page_integration, APP_SESSION },
	{ "GET", "/integrations/{integrationName}/installations/{installationId}", page_integration_installation,
	  APP_SESSION },
	{ "GET", "/settings/tokens", page_tokens, APP_SESSION },
	/* SAML links and verified email domains (app/saml.c). */
	{ "GET", "/settings/sso", page_sso_links, APP_SESSION },
	{ "POST", "/settings/sso/{providerId}/unlink", page_sso_unlink, APP_SESSION | APP_WRITE },
	{ "GET", "/o/{organizationId}/domains", page_org_domains, APP_SESSION },
	{ "POST", "/settings/tokens", page_token_create, APP_SESSION | APP_WRITE },
	{ "POST", "/settings/tokens/{tokenId}/revoke", page_token_revoke, APP_SESSION | APP_WRITE },
	{ "GET", "/o/{organizationId}/members", page_members, APP_SESSION },
	{ "POST", "/o/{organizationId}/members/{userId}/role", page_member_role, APP_SESSION | APP_WRITE },
	{ "POST", "/o/{organizationId}/members/{userId}/remove", page_member_remove, APP_SESSION | APP_WRITE },
	{ "GET", "/o/{organizationId}/teams", page_teams, APP_SESSION },
	{ "POST", "/o/{organizationId}/teams", page_team_create, APP_SESSION | APP_WRITE },
	{ "GET", "/o/{organizationId}/teams/{teamId}", page_team, APP_SESSION },
	{ "POST", "/o/{organizationId}/teams/{teamId}/members", page_team_member_add, APP_SESSION | APP_WRITE },
	{ "POST", "/o/{organizationId}/teams/{teamId}/members/{userId}/remove", page_team_member_remove,
	  APP_SESSION | APP_WRITE },
	{ "GET", "/o/{organizationId}/invites", page_invites, APP_SESSION },
	{ "POST", "/o/{organizationId}/invites", page_invite_emails, APP_SESSION | APP_WRITE },
	{ "POST", "/o/{organizationId}/invites/links", page_invite_link_create, APP_SESSION | APP_WRITE },
	{ "POST", "/o/{organizationId}/invites/links/{inviteId}/delete", page_invite_link_delete,
	  APP_SESSION | APP_WRITE },
	{ "GET", "/o/{organizationId}/join/{inviteId}", page_join, APP_SESSION },
	{ "POST", "/o/{organizationId}/join/{inviteId}", page_join_post, APP_SESSION | APP_WRITE },
	/* An organization's translations (pages_translations.c). */
	{ "GET", "/o/{organizationId}/translations", page_translations, APP_SESSION },
	{ "POST", "/o/{organizationId}/translations", page_translation_create, APP_SESSION | APP_WRITE },
	{ "GET", "/o/{organizationId}/translations/{translationId}", page_translation, APP_SESSION },
	{ "POST", "/o/{organizationId}/translations/{translationId}/run", page_translation_run, APP_SESSION | APP_WRITE },
	{ "POST", "/o/{organizationId}/translations/{translationId}/delete", page_translation_delete,
	  APP_SESSION | APP_WRITE },
	{ "POST", "/o/{organizationId}/translations/{translationId}/instructions", page_translation_instructions,
	  APP_SESSION | APP_WRITE },
	{ "GET", "/o/{organizationId}/sites/{siteId}/settings", page_site_publishing, APP_SESSION },
	{ "POST", "/o/{organizationId}/sites/{siteId}/settings", page_site_settings_save, APP_SESSION | APP_WRITE },
	{ "POST", "/o/{organizationId}/sites/{siteId}/delete", page_site_delete, APP_SESSION | APP_WRITE },
	/* A site's structure and customization (pages_site_structure.c). */
	{ "GET", "/o/{organizationId}/sites/{siteId}/structure", page_site_structure, APP_SESSION },
	{ "POST", "/o/{organizationId}/sites/{siteId}/site-spaces", page_site_space_add, APP_SESSION | APP_WRITE },
	{ "POST", "/o/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/remove", page_site_space_remove,
	  APP_SESSION | APP_WRITE },
	{ "POST", "/o/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/default", page_site_space_default,
	  APP_SESSION | APP_WRITE },
	{ "POST", "/o/{organizationId}/sites/{siteId}/sections", page_site_section_create, APP_SESSION | APP_WRITE },
	{ "POST", "/o/{organizationId}/sites/{siteId}/sections/{siteSectionId}/delete", page_site_section_delete,
	  APP_SESSION | APP_WRITE },
	{ "POST", "/o/{organizationId}/sites/{siteId}/sections/{siteSectionId}/default", page_site_section_default,
	  APP_SESSION | APP_WRITE },
	{ "POST", "/o/{organizationId}/sites/{siteId}/groups", page_site_group_create, APP_SESSION | APP_WRITE },
	{ "POST", "/o/{organizationId}/sites/{siteId}/groups/{groupId}/delete", page_site_group_delete,
	  APP_SESSION | APP_WRITE },
	{ "POST", "/o/{organizationId}/sites/{siteId}/groups/{groupId}/sections", page_site_group_section_add,
	  APP_SESSION | APP_WRITE },
	{ "POST", "/o/{organizationId}/sites/{siteId}/groups/{groupId}/sections/{siteSectionId}/remove",
	  page_site_group_section_remove, APP_SESSION | APP_WRITE },
	{ "POST", "/o/{organizationId}/sites/{siteId}/move", page_site_item_move, APP_SESSION | APP_WRITE },
	{ "GET", "/o/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization",
	  page_site_space_customization, APP_SESSION },
	{ "POST", "/o/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization",
	  page_site_space_customization_save, APP_SESSION | APP_WRITE },
	{ "POST", "/o/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization/delete",
	  page_site_space_customization_delete, APP_SESSION | APP_WRITE },
	{ "GET", "/o/{organizationId}/sites/{siteId}/customization", page_site_customization, APP_SESSION },
	{ "POST", "/o/{organizationId}/sites/{siteId}/customization", page_site_customization_save,
	  APP_SESSION | APP_WRITE },
	{ "POST", "/o/{organizationId}/sites/{siteId}/publish", page_site_publish, APP_SESSION | APP_WRITE },
	{ "POST", "/o/{organizationId}/sites/{siteId}/unpublish", page_site_unpublish, APP_SESSION | APP_WRITE },
	{ "POST", "/o/{organizationId}/sites/{siteId}/share-links", page_site_share_link_create, APP_SESSION | APP_WRITE },
	{ "POST", "/o/{organizationId}/sites/{siteId}/share-links/{shareLinkId}/delete", page_site_share_link_delete,
	  APP_SESSION | APP_WRITE },
	/* OpenAPI specs (pages_openapi.c): the source forms take multipart
	 * uploads too, so they check their token themselves. */
	{ "GET", "/o/{organizationId}/openapi", page_openapi_list, APP_SESSION },
	{ "POST", "/o/{organizationId}/openapi", page_openapi_create, APP_SESSION | APP_WRITE | APP_CSRF_SELF },
	{ "GET", "/o/{organizationId}/openapi/{specSlug}", page_openapi_spec, APP_SESSION },
	{ "POST", "/o/{organizationId}/openapi/{specSlug}/source", page_openapi_source,
	  APP_SESSION | APP_WRITE | APP_CSRF_SELF },
	{ "POST", "/o/{organizationId}/openapi/{specSlug}/visibility", page_openapi_visibility, APP_SESSION | APP_WRITE },
	{ "POST", "/o/{organizationId}/openapi/{specSlug}/delete", page_openapi_delete, APP_SESSION | APP_WRITE },
	/* Integrations (pages_integrations.c). */
	{ "GET", "/o/{organizationId}/integrations", page_integrations, APP_SESSION },
	{ "POST", "/o/{organizationId}/integrations/{integrationName}/install", page_integration_install,
	  APP_SESSION | APP_WRITE },
	{ "GET", "/o/{organizationId}/integrations/{integrationName}/installations/{installationId}", page_installation,
	  APP_SESSION },
	{ "POST", "/o/{organizationId}/integrations/{integrationName}/installations/{installationId}/spaces",
	  page_installation_space_install, APP_SESSION | APP_WRITE },
	{ "POST", "/o/{organizationId}/integrations/{integrationName}/installations/{installationId}/uninstall",
	  page_installation_uninstall, APP_SESSION | APP_WRITE },
	{ "POST", "/o/{organizationId}/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}/uninstall",
	  page_installation_space_uninstall, APP_SESSION | APP_WRITE },
	{ "GET", "/o/{organizationId}/integrations/installed", page_integrations_installed, APP_SESSION },
	{ "POST", "/o/{organizationId}/integrations/{integrationName}/installations/{installationId}/configuration", page_installation_configure,
	  APP_SESSION | APP_WRITE },
	{ "GET", "/o/{organizationId}/integrations/{integrationName}/installations/{installationId}/spaces", page_installation_spaces, APP_SESSION },
	{ "GET", "/o/{organizationId}/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}", page_installation_space, APP_SESSION },
	{ "POST", "/o/{organizationId}/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}/configuration",
	  page_installation_space_configure, APP_SESSION | APP_WRITE },
	{ "GET", "/o/{organizationId}/integrations/{integrationName}/installations/{installationId}/sites", page_installation_sites, APP_SESSION },
	{ "POST", "/o/{organizationId}/integrations/{integrationName}/installations/{installationId}/sites", page_installation_site_install,
	  APP_SESSION | APP_WRITE },
	{ "GET", "/o/{organizationId}/integrations/{integrationName}/installations/{installationId}/sites/{siteId}", page_installation_site, APP_SESSION },
	{ "POST", "/o/{organizationId}/integrations/{integrationName}/installations/{installationId}/sites/{siteId}/configuration",
	  page_installation_site_configure, APP_SESSION | APP_WRITE },
	{ "POST", "/o/{organizationId}/integrations/{integrationName}/installations/{installationId}/sites/{siteId}/uninstall",
	  page_installation_site_uninstall, APP_SESSION | APP_WRITE },
};
#define APP_NROUTES ((int)(sizeof(app_routes) / sizeof(app_routes[0])))

/* The paths that are the app's whether or not a row matches. */
static const char *const app_prefixes[] = { "/o/", "/s/", "/c/", "/~app/", "/settings/", "/integrations/" };

static int serve_css(struct app_page *p)
{
	struct req *r = p->r;

	if (resp_header(r, "Cache-Control", "public, max-age=31536000, immutable") ||
	    resp_header(r, "X-Content-Type-Options", "nosniff"))
		return ERR_INTERNAL;
	return resp_bytes(r, 200, "text/css; charset=utf-8", app_css, app_css_len);
}

static bool wants_html(struct req *r)
{
	const char *acc = req_header(r, MHD_HTTP_HEADER_ACCEPT);

	return acc && strstr(acc, "text/html") != NULL;
}

/* The methods the app's routes take on path, for a 405's Allow header
 * (into r's arena). */
static const char *allowed_methods(struct req *r, const char *path)
{
	bool get = false, post = false;

	for (int i = 0; i < APP_NROUTES; i++) {
		if (!route_template_match(app_routes[i].path, path, NULL, NULL))
			continue;
		get |= strcmp(app_routes[i].method, "GET") == 0;
		post |= strcmp(app_routes[i].method, "POST") == 0;
	}
	return arena_printf(&r->arena, "%s%s%s", get ? "GET, HEAD" : "", get && post ? ", " : "", post ? "POST" : "");
}

/* The route of method + path: 0 with *out, ERR_METHOD when the path is the
 * app's under another method, 1 when it is not the app's. */
static int app_match(struct req *r, const char *path, const struct app_route **out)
{
	struct route_match m;
	bool known = false;

	for (int i = 0; i < APP_NROUTES; i++) {
		const struct app_route *rt = &app_routes[i];
		if (!route_template_match(rt->path, path, NULL, NULL))
			continue;
		if ((rt->flags & APP_HTML) && !wants_html(r))
			continue;
		/* HEAD is GET without the body (libmicrohttpd drops it). */
		if (strcmp(rt->method, r->method) != 0 &&
		    !(strcmp(rt->method, "GET") == 0 && strcmp(r->method, "HEAD") == 0)) {
			known = true;
			continue;
		}
		memset(&m, 0, sizeof(m));
		route_template_match(rt->path, path, &r->arena, &m);
		r->nparams = m.nparams;
		for (int j = 0; j < m.nparams; j++) {
			if (!m.values[j] || utf8_len(m.values[j]) < 0)
				return ERR_NOT_FOUND; /* bytes that name nothing */
			r->param_names[j] = m.names[j];
			r->param_values[j] = m.values[j];
		}
		*out = rt;
		return 0;
	}
	if (known)
		return ERR_METHOD;
	/* Under the app's own prefixes a path it does not know is its 404
	 * page (a browser followed a link), not the API's JSON. */
	for (size_t i = 0; i < sizeof(app_prefixes) / sizeof(app_prefixes[0]); i++)
		if (strncmp(path, app_prefixes[i], strlen(app_prefixes[i])) == 0)
			return ERR_NOT_FOUND;
	return 1;
}

static int send_page(struct app_page *p, struct jw *out)
{
	struct req *r = p->r;
	char *body;

	if (p->location) {
		/* 303: whatever the method, the browser GETs the new place. */
		if (resp_header(r, "Location", p->location))
			return ERR_INTERNAL;
		return resp_bytes(r, 303, "text/html; charset=utf-8", "", 0);
	}
	if (!jw_ok(out))
		return err_set(ERR_INTERNAL, "app page too large");
	body = arena_alloc(&r->arena, out->len + 1);
	if (!body)
		return err_set(ERR_INTERNAL, "out of memory");
	if (out->len)
		memcpy(body, out->buf, out->len);
	body[out->len] = '\0';
	return resp_bytes(r, p->status, p->content_type ? p->content_type : "text/html; charset=utf-8", body,
			  out->len);
}

/* The error page for rc (an err.h code): the 404 for what the user may not
 * see, the status and message of a 4xx, a generic page for the rest (the
 * log has why). */
static void error_page(struct app_page *p, int rc)
{
	int status = err_status(rc);

	if (rc == ERR_NOT_FOUND || rc == ERR_FORBIDDEN) {
		app_error_page(p, 404, "Not found",
			       "There is nothing here, or you do not have access to it. Check the address, or ask an "
			       "administrator of its organization for access.");
	} else if (rc == ERR_METHOD) {
		/* The fifth header of REQ_MAX_HEADERS (six): it cannot fail. */
		const char *url = p->r->url;
		(void)resp_header(p->r, "Allow",
				  allowed_methods(p->r, arena_strndup(&p->r->arena, url, strcspn(url, "?"))));
		app_error_page(p, 405, "Method not allowed", "This page cannot be sent a form that way.");
	} else if (status >= 400 && status < 500) {
		app_error_page(p, status, "This request could not be answered", err_message());
	} else {
		log_error("app request %ld %s %s failed: %s", p->r->id, p->r->method, p->r->url, err_message());
		app_error_page(p, 500, "Something went wrong", "This page could not be shown. Try again in a moment.");
	}
}

/* Where a signed-out visitor goes: the sign-in page, back to this path
 * after (a path on this origin, never an absolute URL). */
static const char *signin_location(struct req *r, const char *path)
{
	const char *enc = app_query_enc(&r->arena, path);
	char *loc;
	size_t n;

	if (!enc)
		return "/signin";
	n = strlen(enc) + sizeof("/signin?next=");
	loc = arena_alloc(&r->arena, n);
	if (!loc)
		return "/signin";
	memcpy(loc, "/signin?next=", sizeof("/signin?next=") - 1);
	memcpy(loc + sizeof("/signin?next=") - 1, enc, strlen(enc) + 1);
	return loc;
}

/* A request another site's page made in the background (fetch, XHR, an
 * image, a script; Sec-Fetch-Site cross-site or same-site, any mode but a
 * navigation): it is answered as to a signed-out visitor, whatever cookie
 * it carries. The published sites are such another site (README, "Two
 * origins"): same-site when --site-url shares the host name (other ports),
 * cross-site by default. Navigations (a followed link, the Edit link)
 * keep the session; forms that change state need the CSRF token besides.
 * Browsers that send no Sec-Fetch-* headers are not affected. */
static bool background_from_elsewhere(struct req *r)
{
	const char *site = req_header(r, "Sec-Fetch-Site"), *mode = req_header(r, "Sec-Fetch-Mode");

	if (!site || (strcasecmp(site, "cross-site") != 0 && strcasecmp(site, "same-site") != 0))
		return false;
	return !mode || strcasecmp(mode, "navigate") != 0;
}

/* The session and the page, in the request's transaction. */
static int run_page(struct app_page *p, const struct app_route *rt, const char *path)
{
	struct req *r = p->r;
	int rc;

	rc = background_from_elsewhere(r) ? err_set(ERR_UNAUTHORIZED, "a background request from another site")
					  : app_session_user(r, &r->tx, &p->user_id, &p->csrf);
	if (rc && rc != ERR_UNAUTHORIZED)
		return rc;
	if (rc) {
		err_clear();
		p->user_id = NULL;
		p->csrf = NULL;
	}
	if (!p->user_id && (rt->flags & APP_SESSION)) {
		p->location = signin_location(r, path);
		return 0;
	}
	/* A form past --max-body was dropped unread: its token with it, so
	 * say what happened instead of the stale-form 403 (a multipart form,
	 * APP_CSRF_SELF, shows it on its own page). */
	if ((rt->flags & APP_WRITE) && !(rt->flags & APP_CSRF_SELF) && r->body_too_large)
		return err_set(ERR_TOO_LARGE, "The form is larger than this server accepts (%zu bytes).",
			       r->srv->cfg.max_body);
	if ((rt->flags & APP_WRITE) && !(rt->flags & APP_CSRF_SELF) && !app_csrf_ok(r, p->csrf)) {
		/* A 403 page, not the 404 that ERR_FORBIDDEN shows: the form
		 * is the user's own, only its token is missing or stale.
		 * Nothing ran: the (empty) transaction commits. */
		app_error_page(p, 403, "This form is out of date",
			       "The form is out of date: reload the page and try again.");
		return 0;
	}
	dom_init(&r->dom, r->srv, &r->tx, &r->arena, p->user_id);
	p->d = &r->dom;
	if (p->user_id) {
		r->caller_id = p->user_id;
		if ((rc = req_caller(r, &p->user)))
			return rc;
	}
	return rt->handler(p);
}

int app_serve(struct req *r)
{
	const struct app_route *rt = NULL;
	struct app_page p = { .r = r, .status = 200 };
	struct jw out;
	int rc;

	/* The sign-in pages (signin.c) and SAML's endpoints (saml.c) answer
	 * their own paths, with their own transactions: 0 answered. */
	if (app_signin_serve(r) == 0)
		return 0;
	if (strncmp(r->url, "/sso/", 5) == 0 && app_saml_serve(r) == 0)
		return 0;
	rc = app_match(r, r->url, &rt);
	if (rc == 1)
		return 1;
	jw_init(&out);
	p.out = &out;
	if (rc == 0 && (rt->flags & APP_ASSET)) {
		rc = rt->handler(&p);
		goto done;
	}
	if (resp_header(r, "Content-Security-Policy", APP_CSP) ||
	    resp_header(r, "Cache-Control", "private, no-store") || resp_header(r, "X-Content-Type-Options", "nosniff") ||
	    resp_header(r, "Referrer-Policy", "same-origin")) {
		rc = ERR_INTERNAL;
		goto done;
	}
	if (rc == 0) {
		rc = store_tx_begin(r->srv->store, &r->tx, (rt->flags & APP_WRITE) != 0, &r->arena);
		if (rc == 0) {
			rc = run_page(&p, rt, r->url);
			if (rc == 0)
				rc = store_tx_commit(&r->tx);
			else
				store_tx_rollback(&r->tx);
			/* A revoked token fails at its next request on every process:
			 * the store's token generation, bumped in the transaction,
			 * says so (http/tokens.c); the flush also drops this
			 * process's entries at once. */
			if (rc == 0 && p.d && p.d->tokens_revoked)
				token_cache_flush(r->srv->tokens);
		}
	}
	if (rc) {
		p.location = NULL;
		p.content_type = NULL;
		error_page(&p, rc);
	}
	rc = send_page(&p, &out);
done:
	if (rc) {
		/* Nothing sensible left to show (the page itself failed to fit):
		 * the plain 500. */
		log_error("app request %ld %s failed: %s", r->id, r->url, err_message());
		resp_bytes(r, 500, "text/plain; charset=utf-8", "internal error\n", 15);
	}
	jw_free(&out);
	return 0;
}
