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

/* handlers, one family per file. Every function api/ exports is named api_*
 * (api_<object>_<verb> for a handler), so a handler is never mistaken for the
 * domain function (dom_*), store function (store_*) or struct of the same
 * object in a backtrace or a grep. */
int api_info(struct req *r);
int api_home(struct req *r);
int api_healthz(struct req *r);
int api_metrics(struct req *r);
int api_user_get_self(struct req *r);
int api_user_get(struct req *r);

int api_org_list(struct req *r);
int api_org_create(struct req *r);
int api_org_get(struct req *r);
int api_org_update(struct req *r);
int api_org_by_email_domain(struct req *r);
int api_org_invite_users(struct req *r);

int api_invite_list(struct req *r);
int api_invite_create(struct req *r);
int api_invite_get(struct req *r);
int api_invite_update(struct req *r);
int api_invite_delete(struct req *r);
int api_invite_join(struct req *r);

int api_member_list(struct req *r);
int api_member_get(struct req *r);
int api_member_update(struct req *r);
int api_member_delete(struct req *r);
int api_member_ping(struct req *r);
int api_member_sso(struct req *r);
int api_member_teams(struct req *r);

int api_team_list(struct req *r);
int api_team_create(struct req *r);
int api_team_get(struct req *r);
int api_team_update(struct req *r);
int api_team_delete(struct req *r);
int api_team_members_list(struct req *r);
int api_team_members_update(struct req *r);
int api_team_member_add(struct req *r);
int api_team_member_remove(struct req *r);

int api_collection_create(struct req *r);
int api_collection_get(struct req *r);
int api_collection_update(struct req *r);
int api_collection_delete(struct req *r);
int api_collection_move(struct req *r);
int api_collection_transfer(struct req *r);
int api_org_collections_list(struct req *r);

/* api/sites.c */
int api_site_create(struct req *r);
int api_site_get(struct req *r);
int api_site_list(struct req *r);
int api_site_update(struct req *r);
int api_site_delete(struct req *r);
int api_site_publish(struct req *r);
int api_site_unpublish(struct req *r);
int api_site_customization_get(struct req *r);
int api_site_customization_put(struct req *r);
int api_site_space_customization_get(struct req *r);
int api_site_space_customization_patch(struct req *r);
int api_site_space_customization_delete(struct req *r);
int api_site_share_links_list(struct req *r);
int api_site_share_link_create(struct req *r);
int api_site_share_link_update(struct req *r);
int api_site_share_link_delete(struct req *r);
int api_site_adaptive_schema_get(struct req *r);
int api_site_adaptive_schema_put(struct req *r);
int api_site_adaptive_template_conditions(struct req *r);
int api_site_publishing_auth_get(struct req *r);
int api_site_publishing_auth_update(struct req *r);
int api_site_publishing_auth_regenerate(struct req *r);
/* -- end of api/sites.c -- */

/* api/site_structure.c */
int api_site_sections_list(struct req *r);
int api_site_section_create(struct req *r);
int api_site_section_update(struct req *r);
int api_site_section_delete(struct req *r);
int api_site_section_move(struct req *r);
int api_site_groups_list(struct req *r);
int api_site_group_create(struct req *r);
int api_site_group_update(struct req *r);
int api_site_group_delete(struct req *r);
int api_site_group_add_section(struct req *r);
int api_site_group_remove_section(struct req *r);
int api_site_group_move(struct req *r);
int api_site_spaces_list(struct req *r);
int api_site_space_create(struct req *r);
int api_site_space_update(struct req *r);
int api_site_space_delete(struct req *r);
int api_site_space_move(struct req *r);
int api_site_structure_get(struct req *r);
int api_site_structure_sort(struct req *r);
int api_site_published_get(struct req *r);

int api_site_redirects_list(struct req *r);
int api_site_redirect_create(struct req *r);
int api_site_redirect_update(struct req *r);
int api_site_redirect_delete(struct req *r);
int api_site_redirect_by_source(struct req *r);
/* -- end of api/site_structure.c -- */

int api_space_create(struct req *r);
int api_space_get(struct req *r);
int api_space_update(struct req *r);
int api_space_delete(struct req *r);
int api_space_restore(struct req *r);
int api_space_duplicate(struct req *r);
int api_space_move(struct req *r);
int api_space_transfer(struct req *r);
int api_org_spaces_list(struct req *r);
int api_collection_spaces_list(struct req *r);
int api_member_spaces_list(struct req *r);

int api_grant_invite(struct req *r);
int api_grant_list_users(struct req *r);
int api_grant_list_teams(struct req *r);
int api_grant_update_user(struct req *r);
int api_grant_update_team(struct req *r);
int api_grant_remove_user(struct req *r);
int api_grant_remove_team(struct req *r);

int api_saml_list(struct req *r);
int api_saml_create(struct req *r);
int api_saml_get(struct req *r);
int api_saml_update(struct req *r);
int api_saml_delete(struct req *r);
int api_sso_logins(struct req *r);

/* api/revisions.c */
int api_content_revision_get(struct req *r);
int api_content_pages_list(struct req *r);
int api_content_files_list(struct req *r);
int api_content_file_get(struct req *r);
int api_content_file_backlinks(struct req *r);
int api_content_page_get(struct req *r);
int api_content_page_links(struct req *r);
int api_content_page_backlinks(struct req *r);
int api_content_page_by_path(struct req *r);
int api_content_template_apply(struct req *r);
int api_content_space_links(struct req *r);
int api_content_space_pdf(struct req *r);
int api_content_cr_pdf(struct req *r);
int api_content_blob_get(struct req *r);
int api_content_pdf_get(struct req *r);
/* api/change_requests.c */
int api_cr_list(struct req *r);
int api_cr_create(struct req *r);
int api_cr_get(struct req *r);
int api_cr_update(struct req *r);
int api_cr_merge(struct req *r);
int api_cr_update_from_main(struct req *r);
int api_cr_content_update(struct req *r);
int api_cr_content_prefetch(struct req *r);
int api_cr_content_has_urls(struct req *r);

/* api/reviews.c */
int api_review_list(struct req *r);
int api_review_submit(struct req *r);
int api_reviewer_list(struct req *r);
int api_reviewer_request(struct req *r);
int api_reviewer_remove(struct req *r);
/* change requests, issue 12 */
int api_cr_list_org(struct req *r);
int api_cr_contributors(struct req *r);
int api_cr_changes(struct req *r);
/* api/comments.c */
int api_comment_list(struct req *r);
int api_comment_create(struct req *r);
int api_comment_get(struct req *r);
int api_comment_update(struct req *r);
int api_comment_delete(struct req *r);
int api_reply_list(struct req *r);
int api_reply_create(struct req *r);
int api_reply_get(struct req *r);
int api_reply_update(struct req *r);
int api_reply_delete(struct req *r);
int api_commenter_list(struct req *r);
/* api/search.c */
int api_search_space(struct req *r);
int api_search_org(struct req *r);
/* api/translations.c */
int api_translation_list(struct req *r);
int api_translation_create(struct req *r);
int api_translation_get(struct req *r);
int api_translation_update(struct req *r);
int api_translation_delete(struct req *r);
int api_translation_run(struct req *r);
/* api/import.c */
int api_content_import(struct req *r);
int api_content_import_prefetch(struct req *r);

/* api/openapi.c */
int api_openapi_list(struct req *r);
int api_openapi_create(struct req *r);
int api_openapi_get(struct req *r);
int api_openapi_put(struct req *r);
int api_openapi_update(struct req *r);
int api_openapi_delete(struct req *r);
int api_openapi_versions_list(struct req *r);
int api_openapi_version_get(struct req *r);
int api_openapi_version_content(struct req *r);
int api_openapi_published(struct req *r);
/* api/git_sync.c */
int api_git_import(struct req *r);
int api_git_export(struct req *r);
int api_git_info(struct req *r);
int api_git_legacy_delete(struct req *r);
/* api/integrations.c */
int api_integration_list(struct req *r);
int api_integration_get(struct req *r);
int api_integration_publish(struct req *r);
int api_integration_delete(struct req *r);
int api_integration_icon(struct req *r);
int api_integration_preview(struct req *r);
int api_integration_dev_put(struct req *r);
int api_integration_dev_delete(struct req *r);
int api_integration_task(struct req *r);
int api_installation_list(struct req *r);
int api_installation_create(struct req *r);
int api_installation_get(struct req *r);
int api_installation_update(struct req *r);
int api_installation_delete(struct req *r);
int api_installation_token(struct req *r);
int api_target_list(struct req *r);
int api_target_install(struct req *r);
int api_target_get(struct req *r);
int api_target_update(struct req *r);
int api_target_uninstall(struct req *r);
int api_event_list(struct req *r);
int api_event_get(struct req *r);
int api_org_integration_list(struct req *r);
int api_org_installation_list(struct req *r);
int api_space_integration_list(struct req *r);
int api_site_integration_scripts(struct req *r);
int api_integration_site_script(struct req *r);
int api_integration_site_script_prefetch(struct req *r);
/* -- end of api/integrations.c -- */

#endif
