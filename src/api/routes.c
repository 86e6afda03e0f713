/*
 * routes.c - the route table: one row per operation.
 */
#include "api/routes.h"

#define V ORG_ACCESS_VIEW
#define M ORG_ACCESS_MEMBER
#define A ORG_ACCESS_ADMIN
#define W ROUTE_WRITE
#define B ROUTE_BODY
#define BO ROUTE_BODY_OPTIONAL

/* Rows list their members in order and leave out the last, prefetch, unless
 * the route has one: a missing member is NULL. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
const struct route routes[] = {
	{ "GET", "/", api_home, ROUTE_PUBLIC | ROUTE_NO_TX, 0, "home" },
	{ "GET", "/healthz", api_healthz, ROUTE_PUBLIC | ROUTE_NO_TX, 0, "healthz" },
	{ "GET", "/metrics", api_metrics, ROUTE_PUBLIC | ROUTE_NO_TX, 0, "metrics" },
	{ "GET", "/v1", api_info, 0, 0, "getApiInformation" },
	{ "GET", "/v1/user", api_user_get_self, 0, 0, "getAuthenticatedUser" },
	{ "GET", "/v1/users/{userId}", api_user_get, 0, 0, "getUserById" },

	{ "GET", "/v1/orgs", api_org_list, 0, 0, "listOrganizationsForAuthenticatedUser" },
	{ "POST", "/v1/orgs", api_org_create, W | B, 0, "createOrganization" },
	{ "GET", "/v1/orgs/{organizationId}", api_org_get, 0, V, "getOrganizationById" },
	{ "PATCH", "/v1/orgs/{organizationId}", api_org_update, W | B, A, "updateOrganizationById" },
	{ "GET", "/v1/email-domains/{emailDomain}/orgs", api_org_by_email_domain, 0, 0, "getOrganizationsForEmailDomain" },
	{ "POST", "/v1/orgs/{organizationId}/invites", api_org_invite_users, W | B, A, "inviteUsersToOrganization" },

	{ "GET", "/v1/orgs/{organizationId}/link-invites", api_invite_list, 0, A, "listOrganizationInviteLinks" },
	{ "POST", "/v1/orgs/{organizationId}/link-invites", api_invite_create, W | B, A, "createOrganizationInvite" },
	{ "GET", "/v1/orgs/{organizationId}/link-invites/{inviteId}", api_invite_get, 0, A, "getOrganizationInviteLink" },
	{ "PATCH", "/v1/orgs/{organizationId}/link-invites/{inviteId}", api_invite_update, W | B, A, "updateOrganizationInviteById" },
	{ "DELETE", "/v1/orgs/{organizationId}/link-invites/{inviteId}", api_invite_delete, W, A, "deleteOrganizationInviteById" },
	/* Open to non-members: the link's id is what lets them in. */
	{ "POST", "/v1/orgs/{organizationId}/invites/{inviteId}", api_invite_join, W, 0, "joinOrganizationWithInvite" },

	/* Content routes without {organizationId} check access on the object
	 * itself (api/content.c); the org-scoped ones need membership first. */
	{ "GET", "/v1/orgs/{organizationId}/collections", api_org_collections_list, ROUTE_CACHE_ADMIN, V, "listCollectionsInOrganizationById" },
	{ "POST", "/v1/orgs/{organizationId}/collections", api_collection_create, W | BO, V, "createCollection" },
	{ "GET", "/v1/collections/{collectionId}", api_collection_get, 0, 0, "getCollectionById" },
	{ "PATCH", "/v1/collections/{collectionId}", api_collection_update, W | B, 0, "updateCollectionById" },
	{ "DELETE", "/v1/collections/{collectionId}", api_collection_delete, W, 0, "deleteCollectionById" },
	{ "GET", "/v1/collections/{collectionId}/spaces", api_collection_spaces_list, 0, 0, "listSpacesInCollectionById" },
	{ "POST", "/v1/collections/{collectionId}/move", api_collection_move, W | B, 0, "moveCollection" },
	{ "POST", "/v1/collections/{collectionId}/transfer", api_collection_transfer, W | B, 0, "transferCollection" },
	{ "POST", "/v1/collections/{collectionId}/permissions", api_grant_invite, W | B, 0, "inviteToCollection" },
	{ "GET", "/v1/collections/{collectionId}/permissions/users", api_grant_list_users, 0, 0, "listUserPermissionsInCollection" },
	{ "GET", "/v1/collections/{collectionId}/permissions/teams", api_grant_list_teams, 0, 0, "listTeamPermissionsInCollection" },
	{ "PATCH", "/v1/collections/{collectionId}/permissions/users/{userId}", api_grant_update_user, W | B, 0, "updateUserPermissionInCollection" },
	{ "DELETE", "/v1/collections/{collectionId}/permissions/users/{userId}", api_grant_remove_user, W, 0, "removeUserFromCollection" },
	{ "PATCH", "/v1/collections/{collectionId}/permissions/teams/{teamId}", api_grant_update_team, W | B, 0, "updateTeamPermissionInCollection" },
	{ "DELETE", "/v1/collections/{collectionId}/permissions/teams/{teamId}", api_grant_remove_team, W, 0, "removeTeamFromCollection" },

	{ "GET", "/v1/orgs/{organizationId}/spaces", api_org_spaces_list, ROUTE_CACHE_ADMIN, V, "listSpacesInOrganizationById" },
	{ "POST", "/v1/orgs/{organizationId}/spaces", api_space_create, W | BO, V, "createSpace" },
	{ "GET", "/v1/spaces/{spaceId}", api_space_get, 0, 0, "getSpaceById" },
	{ "PATCH", "/v1/spaces/{spaceId}", api_space_update, W | B, 0, "updateSpaceById" },
	{ "DELETE", "/v1/spaces/{spaceId}", api_space_delete, W, 0, "deleteSpaceById" },
	{ "POST", "/v1/spaces/{spaceId}/restore", api_space_restore, W | BO, 0, "restoreSpace" },
	{ "POST", "/v1/spaces/{spaceId}/duplicate", api_space_duplicate, W | BO, 0, "duplicateSpace" },
	{ "POST", "/v1/spaces/{spaceId}/move", api_space_move, W | B, 0, "moveSpace" },
	{ "POST", "/v1/spaces/{spaceId}/transfer", api_space_transfer, W | B, 0, "transferSpace" },
	{ "POST", "/v1/spaces/{spaceId}/permissions", api_grant_invite, W | B, 0, "inviteToSpace" },
	{ "GET", "/v1/spaces/{spaceId}/permissions/users", api_grant_list_users, 0, 0, "listUserPermissionsInSpace" },
	{ "GET", "/v1/spaces/{spaceId}/permissions/teams", api_grant_list_teams, 0, 0, "listTeamPermissionsInSpace" },
	{ "PATCH", "/v1/spaces/{spaceId}/permissions/users/{userId}", api_grant_update_user, W | B, 0, "updateUserPermissionInSpace" },
	{ "DELETE", "/v1/spaces/{spaceId}/permissions/users/{userId}", api_grant_remove_user, W, 0, "removeUserFromSpace" },
	{ "PATCH", "/v1/spaces/{spaceId}/permissions/teams/{teamId}", api_grant_update_team, W | B, 0, "updateTeamPermissionInSpace" },
	{ "DELETE", "/v1/spaces/{spaceId}/permissions/teams/{teamId}", api_grant_remove_team, W, 0, "removeTeamFromSpace" },
	{ "GET", "/v1/orgs/{organizationId}/members/{userId}/spaces", api_member_spaces_list, 0, V, "listSpacesForOrganizationMember" },

	/* Content (api/revisions.c): reads of a space's current revision, of a
	 * change request's head, and of any revision by id. */
	{ "GET", "/v1/spaces/{spaceId}/content", api_content_revision_get, 0, 0, "getCurrentRevision" },
	{ "GET", "/v1/spaces/{spaceId}/content/pages", api_content_pages_list, 0, 0, "listPages" },
	{ "GET", "/v1/spaces/{spaceId}/content/files", api_content_files_list, 0, 0, "listFiles" },
	{ "GET", "/v1/spaces/{spaceId}/content/files/{fileId}", api_content_file_get, 0, 0, "getFileById" },
	{ "GET", "/v1/spaces/{spaceId}/content/files/{fileId}/backlinks", api_content_file_backlinks, 0, 0, "listSpaceFileBacklinks" },
	{ "GET", "/v1/spaces/{spaceId}/content/page/{pageId}", api_content_page_get, 0, 0, "getPageById" },
	{ "GET", "/v1/spaces/{spaceId}/content/page/{pageId}/links", api_content_page_links, 0, 0, "listPageLinksInSpace" },
	{ "GET", "/v1/spaces/{spaceId}/content/page/{pageId}/backlinks", api_content_page_backlinks, 0, 0, "listSpacePageBacklinks" },
	{ "GET", "/v1/spaces/{spaceId}/content/path/{pagePath*}", api_content_page_by_path, 0, 0, "getPageByPath" },
	{ "POST", "/v1/spaces/{spaceId}/content/template", api_content_template_apply, W | B, 0, "applyTemplateToSpace" },
	{ "GET", "/v1/spaces/{spaceId}/links", api_content_space_links, 0, 0, "listSpaceLinks" },
	{ "GET", "/v1/spaces/{spaceId}/pdf", api_content_space_pdf, 0, 0, "getSpacePDF" },
	{ "GET", "/v1/spaces/{spaceId}/revisions/{revisionId}", api_content_revision_get, 0, 0, "getRevisionById" },
	{ "GET", "/v1/spaces/{spaceId}/revisions/{revisionId}/pages", api_content_pages_list, 0, 0, "listPagesInRevisionById" },
	{ "GET", "/v1/spaces/{spaceId}/revisions/{revisionId}/files", api_content_files_list, 0, 0, "listFilesInRevisionById" },
	{ "GET", "/v1/spaces/{spaceId}/revisions/{revisionId}/files/{fileId}", api_content_file_get, 0, 0, "getFileInRevisionById" },
	{ "GET", "/v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}", api_content_page_get, 0, 0, "getPageInRevisionById" },
	{ "GET", "/v1/spaces/{spaceId}/revisions/{revisionId}/path/{pagePath*}", api_content_page_by_path, 0, 0, "getPageInRevisionByPath" },
	/* Served to browsers without a token: the URLs carry an HMAC signature. */
	{ "GET", "/files/{blob}", api_content_blob_get, ROUTE_PUBLIC, 0, "downloadFile" },
	{ "GET", "/pdf/{pdf}", api_content_pdf_get, ROUTE_PUBLIC, 0, "downloadPDF" },

	/* Change requests (api/change_requests.c). */
	{ "GET", "/v1/spaces/{spaceId}/change-requests", api_cr_list, 0, 0, "listChangeRequestsForSpace" },
	{ "POST", "/v1/spaces/{spaceId}/change-requests", api_cr_create, W | BO, 0, "createChangeRequest" },
	{ "GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}", api_cr_get, 0, 0, "getChangeRequestById" },
	{ "PATCH", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}", api_cr_update, W | B, 0, "updateChangeRequestById" },
	{ "POST", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge", api_cr_merge, W | BO, 0, "mergeChangeRequest" },
	{ "POST", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/update", api_cr_update_from_main, W | BO, 0, "updateChangeRequest" },
	{ "POST", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content", api_cr_content_update, W | B, 0, "updateChangeRequestContent", api_cr_content_prefetch, api_cr_content_has_urls },
	{ "GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf", api_content_cr_pdf, 0, 0, "getChangeRequestPDF" },
	/* change requests, issue 12 */
	{ "GET", "/v1/orgs/{organizationId}/change-requests", api_cr_list_org, 0, V, "listChangeRequestsForOrganization" },
	{ "GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/contributors", api_cr_contributors, 0, 0, "getContributorsByChangeRequestId" },
	{ "GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/changes", api_cr_changes, 0, 0, "getChangeRequestChanges" },
	{ "GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content", api_content_revision_get, 0, 0, "getRevisionOfChangeRequestById" },
	{ "GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages", api_content_pages_list, 0, 0, "listPagesInChangeRequest" },
	{ "GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files", api_content_files_list, 0, 0, "listFilesInChangeRequestById" },
	{ "GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}", api_content_file_get, 0, 0, "getFileInChangeRequestById" },
	{ "GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}/backlinks", api_content_file_backlinks, 0, 0, "listChangeRequestFileBacklinks" },
	{ "GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}", api_content_page_get, 0, 0, "getPageInChangeRequestById" },
	{ "GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/links", api_content_page_links, 0, 0, "listPageLinksInChangeRequest" },
	{ "GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/backlinks", api_content_page_backlinks, 0, 0, "listChangeRequestPageBacklinks" },
	{ "GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/path/{pagePath*}", api_content_page_by_path, 0, 0, "getPageInChangeRequestByPath" },
	/* reviews (api/reviews.c) */
	{ "GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/reviews", api_review_list, 0, 0, "getReviewsByChangeRequestId" },
	{ "POST", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/reviews", api_review_submit, W | B, 0, "submitChangeRequestReview" },
	{ "GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers", api_reviewer_list, 0, 0, "getRequestedReviewersByChangeRequestId" },
	{ "POST", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers", api_reviewer_request, W | B, 0, "requestReviewersForChangeRequest" },
	{ "DELETE", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers/{userId}", api_reviewer_remove, W, 0, "removeRequestedReviewerFromChangeRequest" },

	/* Comments (api/comments.c): the same handlers serve a space's comments
	 * and a change request's ({changeRequestId} present). */
	{ "GET", "/v1/spaces/{spaceId}/comments", api_comment_list, 0, 0, "listCommentsInSpace" },
	{ "POST", "/v1/spaces/{spaceId}/comments", api_comment_create, W | B, 0, "postCommentInSpace" },
	{ "GET", "/v1/spaces/{spaceId}/comments/{commentId}", api_comment_get, 0, 0, "getCommentInSpace" },
	{ "PUT", "/v1/spaces/{spaceId}/comments/{commentId}", api_comment_update, W | B, 0, "updateCommentInSpace" },
	{ "DELETE", "/v1/spaces/{spaceId}/comments/{commentId}", api_comment_delete, W, 0, "deleteCommentInSpace" },
	{ "GET", "/v1/spaces/{spaceId}/comments/{commentId}/replies", api_reply_list, 0, 0, "listCommentRepliesInSpace" },
	{ "POST", "/v1/spaces/{spaceId}/comments/{commentId}/replies", api_reply_create, W | B, 0, "postCommentReplyInSpace" },
	{ "GET", "/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}", api_reply_get, 0, 0, "getCommentReplyInSpace" },
	{ "PUT", "/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}", api_reply_update, W | B, 0, "updateCommentReplyInSpace" },
	{ "DELETE", "/v1/spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}", api_reply_delete, W, 0, "deleteCommentReplyInSpace" },
	{ "GET", "/v1/spaces/{spaceId}/commenters", api_commenter_list, 0, 0, "listCommentersInSpace" },
	{ "GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments", api_comment_list, 0, 0, "listCommentsInChangeRequest" },
	{ "POST", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments", api_comment_create, W | B, 0, "postCommentInChangeRequest" },
	{ "GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}", api_comment_get, 0, 0, "getCommentInChangeRequest" },
	{ "PUT", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}", api_comment_update, W | B, 0, "updateCommentInChangeRequest" },
	{ "DELETE", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}", api_comment_delete, W, 0, "deleteCommentInChangeRequest" },
	{ "GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies", api_reply_list, 0, 0, "listCommentRepliesInChangeRequest" },
	{ "POST", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies", api_reply_create, W | B, 0, "postCommentReplyInChangeRequest" },
	{ "GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}", api_reply_get, 0, 0, "getCommentReplyInChangeRequest" },
	{ "PUT", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}", api_reply_update, W | B, 0, "updateCommentReplyInChangeRequest" },
	{ "DELETE", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}", api_reply_delete, W, 0, "deleteCommentReplyInChangeRequest" },
	{ "GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/commenters", api_commenter_list, 0, 0, "listCommentersInChangeRequest" },

	/* Search (api/search.c). */
	{ "GET", "/v1/spaces/{spaceId}/search", api_search_space, 0, 0, "searchSpaceContent" },
	{ "GET", "/v1/orgs/{organizationId}/search", api_search_org, 0, V, "searchOrganizationContent" },

	/* Docs sites (api/sites.c): the site, publishing, customization, share
	 * links, the adaptive schema. Access is checked by the domain
	 * (domain/sites.h); V only requires membership first. */
	{ "GET", "/v1/orgs/{organizationId}/sites", api_site_list, 0, V, "listSites" },
	{ "POST", "/v1/orgs/{organizationId}/sites", api_site_create, W | BO, V, "createSite" },
	{ "GET", "/v1/orgs/{organizationId}/sites/{siteId}", api_site_get, 0, V, "getSiteById" },
	{ "PATCH", "/v1/orgs/{organizationId}/sites/{siteId}", api_site_update, W | B, V, "updateSiteById" },
	{ "DELETE", "/v1/orgs/{organizationId}/sites/{siteId}", api_site_delete, W, V, "deleteSiteById" },
	{ "POST", "/v1/orgs/{organizationId}/sites/{siteId}/publish", api_site_publish, W | BO, V, "publishSite" },
	{ "POST", "/v1/orgs/{organizationId}/sites/{siteId}/unpublish", api_site_unpublish, W | BO, V, "unpublishSite" },
	{ "GET", "/v1/orgs/{organizationId}/sites/{siteId}/customization", api_site_customization_get, 0, V, "getSiteCustomizationById" },
	{ "PUT", "/v1/orgs/{organizationId}/sites/{siteId}/customization", api_site_customization_put, W | B, V, "updateSiteCustomizationById" },
	{ "GET", "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization", api_site_space_customization_get, 0, V, "getSiteSpaceCustomizationById" },
	{ "PATCH", "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization", api_site_space_customization_patch, W | B, V, "overrideSiteSpaceCustomizationById" },
	{ "DELETE", "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization", api_site_space_customization_delete, W, V, "deleteSiteSpaceCustomizationById" },
	{ "GET", "/v1/orgs/{organizationId}/sites/{siteId}/share-links", api_site_share_links_list, 0, V, "listSiteShareLinks" },
	{ "POST", "/v1/orgs/{organizationId}/sites/{siteId}/share-links", api_site_share_link_create, W | B, V, "createSiteShareLink" },
	{ "PATCH", "/v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}", api_site_share_link_update, W | B, V, "updateSiteShareLinkById" },
	{ "DELETE", "/v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}", api_site_share_link_delete, W, V, "deleteSiteShareLinkById" },
	{ "GET", "/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema", api_site_adaptive_schema_get, 0, V, "getSiteAdaptiveSchema" },
	{ "PUT", "/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema", api_site_adaptive_schema_put, W | B, V, "updateSiteAdaptiveSchema" },
	{ "GET", "/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema/template-conditions", api_site_adaptive_template_conditions, 0, V, "listSiteAdaptiveTemplateConditions" },
	{ "GET", "/v1/orgs/{organizationId}/sites/{siteId}/publishing/auth", api_site_publishing_auth_get, 0, V, "getSitePublishingAuthById" },
	{ "PATCH", "/v1/orgs/{organizationId}/sites/{siteId}/publishing/auth", api_site_publishing_auth_update, W | B, V, "updateSitePublishingAuthById" },
	{ "POST", "/v1/orgs/{organizationId}/sites/{siteId}/publishing/auth/regenerate", api_site_publishing_auth_regenerate, W | BO, V, "regenerateSitePublishingAuthById" },
	/* -- end of api/sites.c rows -- */

	/* Site structure (api/site_structure.c): sections, section groups,
	 * site spaces, the structure, the published profile. */
	{ "GET", "/v1/orgs/{organizationId}/sites/{siteId}/sections", api_site_sections_list, 0, V, "listSiteSections" },
	{ "POST", "/v1/orgs/{organizationId}/sites/{siteId}/sections", api_site_section_create, W | B, V, "addSectionToSite" },
	{ "PATCH", "/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}", api_site_section_update, W | B, V, "updateSiteSectionById" },
	{ "DELETE", "/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}", api_site_section_delete, W, V, "deleteSiteSectionById" },
	{ "POST", "/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move", api_site_section_move, W | BO, V, "moveSiteSection" },
	{ "GET", "/v1/orgs/{organizationId}/sites/{siteId}/section-groups", api_site_groups_list, 0, V, "listSiteSectionGroups" },
	{ "POST", "/v1/orgs/{organizationId}/sites/{siteId}/section-groups", api_site_group_create, W | B, V, "addSectionGroupToSite" },
	{ "PATCH", "/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}", api_site_group_update, W | B, V, "updateSiteSectionGroupById" },
	{ "DELETE", "/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}", api_site_group_delete, W, V, "deleteSiteSectionGroupById" },
	{ "POST", "/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections", api_site_group_add_section, W | B, V, "addSectionToGroup" },
	{ "DELETE", "/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}", api_site_group_remove_section, W, V, "removeSectionFromGroup" },
	{ "POST", "/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move", api_site_group_move, W | BO, V, "moveSiteSectionGroup" },
	{ "GET", "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces", api_site_spaces_list, 0, V, "listSiteSpaces" },
	{ "POST", "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces", api_site_space_create, W | B, V, "addSpaceToSite" },
	{ "PATCH", "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}", api_site_space_update, W | B, V, "updateSiteSpaceById" },
	{ "DELETE", "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}", api_site_space_delete, W, V, "deleteSiteSpaceById" },
	{ "POST", "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move", api_site_space_move, W | BO, V, "moveSiteSpace" },
	{ "GET", "/v1/orgs/{organizationId}/sites/{siteId}/structure", api_site_structure_get, 0, V, "getSiteStructure" },
	{ "PATCH", "/v1/orgs/{organizationId}/sites/{siteId}/structure/sort", api_site_structure_sort, W | B, V, "sortSiteStructure" },
	{ "GET", "/v1/orgs/{organizationId}/sites/{siteId}/published", api_site_published_get, ROUTE_CACHE_ADMIN, V, "getPublishedContentSite" },
	/* -- end of api/site_structure.c rows -- */
	/* Site redirects (api/site_redirects.c): reads need read on the site,
	 * writes admin (domain/site_redirects.h). */
	{ "GET", "/v1/orgs/{organizationId}/sites/{siteId}/redirects", api_site_redirects_list, 0, V, "listSiteRedirects" },
	{ "POST", "/v1/orgs/{organizationId}/sites/{siteId}/redirects", api_site_redirect_create, W | B, V, "createSiteRedirect" },
	{ "PATCH", "/v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}", api_site_redirect_update, W | B, V, "updateSiteRedirectById" },
	{ "DELETE", "/v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}", api_site_redirect_delete, W, V, "deleteSiteRedirectById" },
	{ "GET", "/v1/orgs/{organizationId}/sites/{siteId}/redirect", api_site_redirect_by_source, 0, V, "getSiteRedirectBySource" },
	/* -- end of api/site_redirects.c rows -- */

	{ "GET", "/v1/orgs/{organizationId}/members", api_member_list, ROUTE_CACHE, M, "listMembersInOrganizationById" },
	{ "GET", "/v1/orgs/{organizationId}/members/{userId}", api_member_get, 0, M, "getMemberInOrganizationById" },
	{ "PATCH", "/v1/orgs/{organizationId}/members/{userId}", api_member_update, W | B, A, "updateMemberInOrganizationById" },
	{ "DELETE", "/v1/orgs/{organizationId}/members/{userId}", api_member_delete, W, A, "removeMemberFromOrganizationById" },
	{ "POST", "/v1/orgs/{organizationId}/ping", api_member_ping, W | BO, V, "updateOrganizationMemberLastSeenAt" },
	{ "POST", "/v1/orgs/{organizationId}/members/{userId}/sso", api_member_sso, W | BO, A, "setUserAsSSOMemberForOrganization" },
	{ "GET", "/v1/orgs/{organizationId}/members/{userId}/teams", api_member_teams, 0, M, "listTeamsForOrganizationMember" },

	{ "GET", "/v1/orgs/{organizationId}/teams", api_team_list, 0, M, "listTeamsInOrganizationById" },
	{ "PUT", "/v1/orgs/{organizationId}/teams", api_team_create, W | B, A, "createOrganizationTeam" },
	{ "GET", "/v1/orgs/{organizationId}/teams/{teamId}", api_team_get, 0, M, "getTeamInOrganizationById" },
	{ "PATCH", "/v1/orgs/{organizationId}/teams/{teamId}", api_team_update, W | B, A, "updateTeamInOrganizationById" },
	{ "DELETE", "/v1/orgs/{organizationId}/teams/{teamId}", api_team_delete, W, A, "removeTeamFromOrganizationById" },
	/* Team owners manage their own team's memberships: the domain checks that (domain/teams.c). */
	{ "GET", "/v1/orgs/{organizationId}/teams/{teamId}/members", api_team_members_list, 0, M, "listTeamMembersInOrganizationById" },
	{ "PUT", "/v1/orgs/{organizationId}/teams/{teamId}/members", api_team_members_update, W | B, V, "updateMembersInOrganizationTeam" },
	{ "PUT", "/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}", api_team_member_add, W | BO, V, "addMemberToOrganizationTeamById" },
	{ "DELETE", "/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}", api_team_member_remove, W, V, "deleteMemberFromOrganizationTeamById" },

	{ "GET", "/v1/orgs/{organizationId}/saml", api_saml_list, 0, A, "listSAMLProvidersInOrganizationById" },
	{ "POST", "/v1/orgs/{organizationId}/saml", api_saml_create, W | B, A, "createOrganizationSAMLProvider" },
	{ "GET", "/v1/orgs/{organizationId}/saml/{samlProviderId}", api_saml_get, 0, A, "getOrganizationSAMLProviderById" },
	{ "PATCH", "/v1/orgs/{organizationId}/saml/{samlProviderId}", api_saml_update, W | B, A, "updateOrganizationSAMLProvider" },
	{ "DELETE", "/v1/orgs/{organizationId}/saml/{samlProviderId}", api_saml_delete, W, A, "deleteOrganizationSAMLProvider" },
	/* The identity providers a member may sign in with: guests included. */
	{ "GET", "/v1/orgs/{organizationId}/sso", api_sso_logins, 0, V, "listSSOProviderLoginsInOrganization" },

	/* OpenAPI specs (api/openapi.c): members with a role read, the create
	 * role writes (domain/openapi.c checks it). The .../latest rows come
	 * before their {versionId} twins: the first matching row wins. */
	{ "GET", "/v1/orgs/{organizationId}/openapi", api_openapi_list, 0, M, "listOpenAPISpecs" },
	{ "POST", "/v1/orgs/{organizationId}/openapi", api_openapi_create, W | B, M, "createOpenAPISpec" },
	{ "GET", "/v1/orgs/{organizationId}/openapi/{specSlug}", api_openapi_get, 0, M, "getOpenAPISpecBySlug" },
	{ "PUT", "/v1/orgs/{organizationId}/openapi/{specSlug}", api_openapi_put, W | B, M, "createOrUpdateOpenAPISpecBySlug" },
	{ "PATCH", "/v1/orgs/{organizationId}/openapi/{specSlug}", api_openapi_update, W | B, M, "updateOpenAPISpecBySlug" },
	{ "DELETE", "/v1/orgs/{organizationId}/openapi/{specSlug}", api_openapi_delete, W, M, "deleteOpenAPISpecBySlug" },
	{ "GET", "/v1/orgs/{organizationId}/openapi/{specSlug}/versions", api_openapi_versions_list, 0, M, "listOpenAPISpecVersions" },
	{ "GET", "/v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest", api_openapi_version_get, 0, M, "getLatestOpenAPISpecVersion" },
	{ "GET", "/v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content", api_openapi_version_content, 0, M, "getLatestOpenAPISpecVersionContent" },
	{ "GET", "/v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}", api_openapi_version_get, 0, M, "getOpenAPISpecVersionById" },
	{ "GET", "/v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content", api_openapi_version_content, 0, M, "getOpenAPISpecVersionContentById" },
	/* docsd's own: a public spec's document (urls.published, and the url of
	 * a version made from a text), readable without a token. */
	{ "GET", "/openapi/{organizationId}/{specSlug}", api_openapi_published, ROUTE_PUBLIC, 0, "getPublishedOpenAPISpec" },
	{ "GET", "/openapi/{organizationId}/{specSlug}/versions/{versionId}", api_openapi_published, ROUTE_PUBLIC, 0, "getPublishedOpenAPISpecVersion" },

	/* Translations (api/translations.c): whoever reads the source space sees
	 * a translation; the domain checks that and the create role for writes. */
	{ "GET", "/v1/orgs/{organizationId}/translations", api_translation_list, 0, V, "listTranslations" },
	{ "POST", "/v1/orgs/{organizationId}/translations", api_translation_create, W | B, V, "createTranslation" },
	{ "GET", "/v1/orgs/{organizationId}/translations/{translationId}", api_translation_get, 0, V, "getTranslation" },
	{ "PUT", "/v1/orgs/{organizationId}/translations/{translationId}", api_translation_update, W | B, V, "updateTranslation" },
	{ "DELETE", "/v1/orgs/{organizationId}/translations/{translationId}", api_translation_delete, W, V, "deleteTranslation" },
	{ "POST", "/v1/orgs/{organizationId}/translations/{translationId}/run", api_translation_run, W | BO, V, "runTranslation" },

	/* Website import */
	/* api/import.c: the crawl is the prefetch step (no transaction held), the handler writes. */
	{ "POST", "/v1/spaces/{spaceId}/content/import", api_content_import, W | B, 0, "importContent", api_content_import_prefetch },
	{ "POST", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/import", api_content_import, W | B, 0, "importContentInChangeRequest", api_content_import_prefetch },

	/* Git sync (api/git_sync.c): import and export start a job and answer
	 * 204 (edit on the space); info needs read; the legacy installation
	 * (the space's link) is removed by admins. */
	{ "POST", "/v1/spaces/{spaceId}/git/import", api_git_import, W | B, 0, "importGitRepository" },
	{ "POST", "/v1/spaces/{spaceId}/git/export", api_git_export, W | B, 0, "exportToGitRepository" },
	{ "GET", "/v1/spaces/{spaceId}/git/info", api_git_info, 0, 0, "getSpaceGitInfo" },
	{ "DELETE", "/v1/spaces/{spaceId}/git/legacy-installation", api_git_legacy_delete, W, 0, "deleteLegacyGitInstallation" },
	/* Integrations (api/integrations.c): the seed's twelve, then the
	 * installation operations GitBook's runtime needs. Access is the
	 * domain's (domain/integrations.h); the icon and preview images are
	 * public, as GitBook serves them. The {installationId}/spaces|sites rows
	 * tell space from site by their path (api/integrations.c, kind_of). */
	{ "GET", "/v1/integrations", api_integration_list, 0, 0, "listIntegrations" },
	{ "GET", "/v1/integrations/{integrationName}", api_integration_get, 0, 0, "getIntegrationByName" },
	{ "POST", "/v1/integrations/{integrationName}", api_integration_publish, W | B, 0, "publishIntegration" },
	{ "DELETE", "/v1/integrations/{integrationName}", api_integration_delete, W, 0, "unpublishIntegration" },
	{ "GET", "/v1/integrations/{integrationName}/icon", api_integration_icon, ROUTE_PUBLIC, 0, "getIntegrationIcon" },
	{ "GET", "/v1/integrations/{integrationName}/preview/{n}", api_integration_preview, ROUTE_PUBLIC, 0, "getIntegrationPreviewImage" },
	{ "GET", "/v1/integrations/{integrationName}/installations", api_installation_list, 0, 0, "listIntegrationInstallations" },
	{ "POST", "/v1/integrations/{integrationName}/installations", api_installation_create, W | B, 0, "installIntegration" },
	{ "GET", "/v1/integrations/{integrationName}/installations/{installationId}", api_installation_get, 0, 0, "getIntegrationInstallationById" },
	{ "PATCH", "/v1/integrations/{integrationName}/installations/{installationId}", api_installation_update, W | B, 0, "updateIntegrationInstallation" },
	{ "DELETE", "/v1/integrations/{integrationName}/installations/{installationId}", api_installation_delete, W, 0, "uninstallIntegration" },
	{ "POST", "/v1/integrations/{integrationName}/installations/{installationId}/tokens", api_installation_token, W | BO, 0, "createIntegrationInstallationToken" },
	{ "GET", "/v1/integrations/{integrationName}/installations/{installationId}/spaces", api_target_list, 0, 0, "listIntegrationInstallationSpaces" },
	{ "POST", "/v1/integrations/{integrationName}/installations/{installationId}/spaces", api_target_install, W | B, 0, "installIntegrationOnSpace" },
	{ "GET", "/v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}", api_target_get, 0, 0, "getIntegrationSpaceInstallation" },
	{ "PATCH", "/v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}", api_target_update, W | B, 0, "updateIntegrationSpaceInstallation" },
	{ "DELETE", "/v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}", api_target_uninstall, W, 0, "uninstallIntegrationFromSpace" },
	{ "GET", "/v1/integrations/{integrationName}/installations/{installationId}/sites", api_target_list, 0, 0, "listIntegrationInstallationSites" },
	{ "POST", "/v1/integrations/{integrationName}/installations/{installationId}/sites", api_target_install, W | B, 0, "installIntegrationOnSite" },
	{ "GET", "/v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}", api_target_get, 0, 0, "getIntegrationSiteInstallation" },
	/* docsd's own: the script of a SiteIntegrationScript, for visitors. */
	{ "GET", "/v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}/script.js", api_integration_site_script, ROUTE_PUBLIC | ROUTE_NO_TX, 0, "getIntegrationSiteScript", api_integration_site_script_prefetch },
	{ "PATCH", "/v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}", api_target_update, W | B, 0, "updateIntegrationSiteInstallation" },
	{ "DELETE", "/v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}", api_target_uninstall, W, 0, "uninstallIntegrationFromSite" },
	{ "GET", "/v1/integrations/{integrationName}/events", api_event_list, 0, 0, "listIntegrationEvents" },
	{ "GET", "/v1/integrations/{integrationName}/events/{eventId}", api_event_get, 0, 0, "getIntegrationEvent" },
	{ "GET", "/v1/integrations/{integrationName}/spaces", api_target_list, 0, 0, "listIntegrationSpaceInstallations" },
	{ "GET", "/v1/integrations/{integrationName}/sites", api_target_list, 0, 0, "listIntegrationSiteInstallations" },
	{ "PUT", "/v1/integrations/{integrationName}/dev", api_integration_dev_put, W | B, 0, "setIntegrationDevelopmentMode" },
	{ "DELETE", "/v1/integrations/{integrationName}/dev", api_integration_dev_delete, W, 0, "disableIntegrationDevelopmentMode" },
	{ "POST", "/v1/integrations/{integrationName}/tasks", api_integration_task, W | B, 0, "queueIntegrationTask" },
	{ "GET", "/v1/orgs/{organizationId}/integrations", api_org_integration_list, 0, V, "listOrganizationIntegrations" },
	{ "GET", "/v1/orgs/{organizationId}/installations", api_org_installation_list, 0, V, "listOrganizationInstallations" },
	{ "GET", "/v1/spaces/{spaceId}/integrations", api_space_integration_list, 0, 0, "listSpaceIntegrations" },
	{ "GET", "/v1/orgs/{organizationId}/sites/{siteId}/integration-scripts", api_site_integration_scripts, 0, V, "listSiteIntegrationScripts" },
	/* -- end of api/integrations.c rows -- */
};
#pragma GCC diagnostic pop

const int routes_count = (int)(sizeof(routes) / sizeof(routes[0]));
