/*
 * routes.h - the list of operations.
 *
 * Each row of the route table (routes.c) is one operation: method, path
 * template with {params}, handler, flags, and the access the caller needs on the
 * route's {organizationId}. The router does what the row says before the
 * handler runs, so handlers never repeat authentication, body parsing,
 * transactions or organization access checks.
 */
#ifndef DOCSD_API_ROUTES_H
#define DOCSD_API_ROUTES_H

#include "model/roles.h"

struct req;
typedef int (*route_handler)(struct req *r);
/* A route's work before its transaction: the router calls it after
 * authentication (a caller without a valid token never gets here) and body
 * parsing, with no transaction or lock held, for network I/O the handler
 * must not do inside its write transaction (DESIGN.md). It leaves its
 * results in the request for the handler. */
typedef int (*route_prefetch)(struct req *r);
/* Whether this request has anything to prefetch (NULL: always). */
typedef int (*route_prefetch_needed)(struct req *r);

enum route_flags {
	ROUTE_PUBLIC = 1 << 0,        /* no token needed */
	ROUTE_BODY = 1 << 1,          /* a JSON object body is required */
	ROUTE_BODY_OPTIONAL = 1 << 2, /* a JSON object body may be sent */
	ROUTE_WRITE = 1 << 3,         /* write transaction */
	ROUTE_NO_TX = 1 << 4,         /* no transaction (health, metrics) */
	/* The 200 body depends only on the organization's member data and the
	 * query, not on the caller: served from http/pagecache.c while the
	 * organization's generation is unchanged. */
	ROUTE_CACHE = 1 << 5,
	/* Like ROUTE_CACHE, but only for organization admins: the body depends on
	 * the caller's access, which is the same (everything) for every admin. */
	ROUTE_CACHE_ADMIN = 1 << 6,
};

struct route {
	const char *method;
	const char *path;
	route_handler handler;
	unsigned flags;
	enum org_access org; /* access needed on {organizationId} */
	const char *name;    /* GitBook's operationId */
	route_prefetch prefetch; /* NULL: none (rows leave it out) */
	route_prefetch_needed prefetch_needed;
};

extern const struct route routes[];
extern const int routes_count;

/* handlers, one family per file */
int api_info(struct req *r);
int api_home(struct req *r);
int api_healthz(struct req *r);
int api_metrics(struct req *r);
int user_get_self(struct req *r);
int user_get(struct req *r);

int org_list(struct req *r);
int org_create(struct req *r);
int org_get(struct req *r);
int org_update(struct req *r);
int org_by_email_domain(struct req *r);
int org_invite_users(struct req *r);

int invite_list(struct req *r);
int invite_create(struct req *r);
int invite_get(struct req *r);
int invite_update(struct req *r);
int invite_delete(struct req *r);
int invite_join(struct req *r);

int member_list(struct req *r);
int member_get(struct req *r);
int member_update(struct req *r);
int member_delete(struct req *r);
int member_ping(struct req *r);
int member_sso(struct req *r);
int member_teams(struct req *r);

int team_list(struct req *r);
int team_create(struct req *r);
int team_get(struct req *r);
int team_update(struct req *r);
int team_delete(struct req *r);
int team_members_list(struct req *r);
int team_members_update(struct req *r);
int team_member_add(struct req *r);
int team_member_remove(struct req *r);

int collection_create(struct req *r);
int collection_get(struct req *r);
int collection_update(struct req *r);
int collection_delete(struct req *r);
int collection_move(struct req *r);
int collection_transfer(struct req *r);
int org_collections_list(struct req *r);

/* api/sites.c */
int site_create(struct req *r);
int site_get(struct req *r);
int site_list(struct req *r);
int site_update(struct req *r);
int site_delete(struct req *r);
int site_publish(struct req *r);
int site_unpublish(struct req *r);
int site_customization_get(struct req *r);
int site_customization_put(struct req *r);
int site_space_customization_get(struct req *r);
int site_space_customization_patch(struct req *r);
int site_space_customization_delete(struct req *r);
int site_share_links_list(struct req *r);
int site_share_link_create(struct req *r);
int site_share_link_update(struct req *r);
int site_share_link_delete(struct req *r);
int site_adaptive_schema_get(struct req *r);
int site_adaptive_schema_put(struct req *r);
int site_adaptive_template_conditions(struct req *r);
int site_publishing_auth_get(struct req *r);
int site_publishing_auth_update(struct req *r);
int site_publishing_auth_regenerate(struct req *r);
/* -- end of api/sites.c -- */

/* api/site_structure.c */
int site_sections_list(struct req *r);
int site_section_create(struct req *r);
int site_section_update(struct req *r);
int site_section_delete(struct req *r);
int site_section_move(struct req *r);
int site_groups_list(struct req *r);
int site_group_create(struct req *r);
int site_group_update(struct req *r);
int site_group_delete(struct req *r);
int site_group_add_section(struct req *r);
int site_group_remove_section(struct req *r);
int site_group_move(struct req *r);
int site_spaces_list(struct req *r);
int site_space_create(struct req *r);
int site_space_update(struct req *r);
int site_space_delete(struct req *r);
int site_space_move(struct req *r);
int site_structure_get(struct req *r);
int site_structure_sort(struct req *r);
int site_published_get(struct req *r);

int site_redirects_list(struct req *r);
int site_redirect_create(struct req *r);
int site_redirect_update(struct req *r);
int site_redirect_delete(struct req *r);
int site_redirect_by_source(struct req *r);
/* -- end of api/site_structure.c -- */

int space_create(struct req *r);
int space_get(struct req *r);
int space_update(struct req *r);
int space_delete(struct req *r);
int space_restore(struct req *r);
int space_duplicate(struct req *r);
int space_move(struct req *r);
int space_transfer(struct req *r);
int org_spaces_list(struct req *r);
int collection_spaces_list(struct req *r);
int member_spaces_list(struct req *r);

int grant_invite(struct req *r);
int grant_list_users(struct req *r);
int grant_list_teams(struct req *r);
int grant_update_user(struct req *r);
int grant_update_team(struct req *r);
int grant_remove_user(struct req *r);
int grant_remove_team(struct req *r);

int saml_list(struct req *r);
int saml_create(struct req *r);
int saml_get(struct req *r);
int saml_update(struct req *r);
int saml_delete(struct req *r);
int sso_logins(struct req *r);

/* api/revisions.c */
int content_revision_get(struct req *r);
int content_pages_list(struct req *r);
int content_files_list(struct req *r);
int content_file_get(struct req *r);
int content_file_backlinks(struct req *r);
int content_page_get(struct req *r);
int content_page_links(struct req *r);
int content_page_backlinks(struct req *r);
int content_page_by_path(struct req *r);
int content_template_apply(struct req *r);
int content_space_links(struct req *r);
int content_space_pdf(struct req *r);
int content_cr_pdf(struct req *r);
int content_blob_get(struct req *r);
int content_pdf_get(struct req *r);
/* api/change_requests.c */
int cr_list(struct req *r);
int cr_create(struct req *r);
int cr_get(struct req *r);
int cr_update(struct req *r);
int cr_merge(struct req *r);
int cr_update_from_main(struct req *r);
int cr_content_update(struct req *r);
int cr_content_prefetch(struct req *r);
int cr_content_has_urls(struct req *r);

/* api/reviews.c */
int review_list(struct req *r);
int review_submit(struct req *r);
int reviewer_list(struct req *r);
int reviewer_request(struct req *r);
int reviewer_remove(struct req *r);
/* change requests, issue 12 */
int cr_list_org(struct req *r);
int cr_contributors(struct req *r);
int cr_changes(struct req *r);
/* api/comments.c */
int comment_list(struct req *r);
int comment_create(struct req *r);
int comment_get(struct req *r);
int comment_update(struct req *r);
int comment_delete(struct req *r);
int reply_list(struct req *r);
int reply_create(struct req *r);
int reply_get(struct req *r);
int reply_update(struct req *r);
int reply_delete(struct req *r);
int commenter_list(struct req *r);
/* api/search.c */
int search_space(struct req *r);
int search_org(struct req *r);
/* api/translations.c */
int translation_list(struct req *r);
int translation_create(struct req *r);
int translation_get(struct req *r);
int translation_update(struct req *r);
int translation_delete(struct req *r);
int translation_run(struct req *r);
/* api/import.c */
int content_import(struct req *r);
int content_import_prefetch(struct req *r);

/* api/openapi.c */
int openapi_list(struct req *r);
int openapi_create(struct req *r);
int openapi_get(struct req *r);
int openapi_put(struct req *r);
int openapi_update(struct req *r);
int openapi_delete(struct req *r);
int openapi_versions_list(struct req *r);
int openapi_version_get(struct req *r);
int openapi_version_content(struct req *r);
int openapi_published(struct req *r);
/* api/git_sync.c */
int git_import(struct req *r);
int git_export(struct req *r);
int git_info(struct req *r);
int git_legacy_delete(struct req *r);
/* api/integrations.c */
int integration_list(struct req *r);
int integration_get(struct req *r);
int integration_publish(struct req *r);
int integration_delete(struct req *r);
int integration_icon(struct req *r);
int integration_preview(struct req *r);
int integration_dev_put(struct req *r);
int integration_dev_delete(struct req *r);
int integration_task(struct req *r);
int installation_list(struct req *r);
int installation_create(struct req *r);
int installation_get(struct req *r);
int installation_update(struct req *r);
int installation_delete(struct req *r);
int installation_token(struct req *r);
int target_list(struct req *r);
int target_install(struct req *r);
int target_get(struct req *r);
int target_update(struct req *r);
int target_uninstall(struct req *r);
int event_list(struct req *r);
int event_get(struct req *r);
int org_integration_list(struct req *r);
int org_installation_list(struct req *r);
int space_integration_list(struct req *r);
int site_integration_scripts(struct req *r);
int integration_site_script(struct req *r);
int integration_site_script_prefetch(struct req *r);
/* -- end of api/integrations.c -- */

#endif
