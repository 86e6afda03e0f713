// The authorization matrix (issue 32), generated from both route tables at test time: every
// row of src/api/routes.c and of the web interface's table (app_routes in src/app/app.c) must
// have a row in NEEDS / APP_NEEDS below (a new route without one fails the first test, and so
// does a row for a route that no longer exists). Each route is called by every actor against
// the objects of organization A (and the API's by A's members against organization B's), and
// the status is checked against what the row's access need gives for that actor under the
// README's access model: no or a bad token 401 (the app: 303 to /signin); outsiders and removed
// members 404; below the need 403 when the caller may know the object exists (it reads it),
// else 404; allowed: past the access check (not 401/403/404, never 5xx). No body may contain
// the other organization's markers (ids, titles, emails, configuration values).
//
// Integration and installation tokens: their access is being rewritten (issue 31), so for those
// actors only "no 5xx, no leak of the other organization's data, no write succeeding on the
// other organization's objects" is asserted, never an exact status.
//
// Phases, so that the fixtures survive: (1) every denied call (these must change nothing: the
// lists are compared before and after), (2) allowed calls of the non-destructive routes,
// (3) allowed calls of the destructive ones, leaves first (an earlier call may have removed the
// object: 404 is then accepted), (4) the writes without an exact status (integration rows,
// tokens) in organization A. The app's forms are posted by denied actors only (an allowed
// post would delete the fixtures the later rows need; app-*.test.mjs cover them).
// Set MATRIX_PRINT=1 to print every observed status.
import { describe, it, before, after, beforeEach } from 'node:test';
import http from 'node:http';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { raw } from './lib/api.mjs';
import { apiRoutes, appRoutes } from './lib/routes.mjs';
import { HTML, FORM, setPassword, signIn, PASSWORD } from './lib/app.mjs';
import { buildOrg, member, must, PETSTORE } from './lib/matrix-fixtures.mjs';

const RANK = { read: 1, comment: 2, edit: 3, review: 4, create: 5, admin: 6 };
const GUEST_GRANT = 'edit'; // the guest with a grant has this role on space A only

// ---- the expectation table --------------------------------------------------------------
// need: public | user (any valid token) | shared (a member of an organization of the user) |
// org:view (members and guests) | org:member (members with a role) | org:create | org:admin |
// space:<role> | coll:<role> | site:read | site:create | site:admin | author (the comment's
// author, organization A's admin) | self (the member themself, or an admin) | integ (see top).
// Options: ok404 (an allowed call may answer 404: no such thing yet), destructive (phase 3),
// body (the JSON sent; default {} for writes, or BODIES below), over ({actor name: status}).
const D = { destructive: true };
const NEEDS = {
    home: 'public', healthz: 'public', metrics: 'public', getApiInformation: 'user', getAuthenticatedUser: 'user',
    getUserById: 'shared',
    listOrganizationsForAuthenticatedUser: 'user', createOrganization: ['user', { body: { title: 'Matrix made' } }],
    getOrganizationById: 'org:view', updateOrganizationById: 'org:admin', getOrganizationsForEmailDomain: 'user',
    inviteUsersToOrganization: 'org:admin',
    listOrganizationInviteLinks: 'org:admin', createOrganizationInvite: 'org:admin', getOrganizationInviteLink: 'org:admin',
    updateOrganizationInviteById: 'org:admin', deleteOrganizationInviteById: ['org:admin', D],
    joinOrganizationWithInvite: ['user', D],
    listCollectionsInOrganizationById: 'org:view', createCollection: 'org:create', getCollectionById: 'coll:read',
    updateCollectionById: 'coll:create', deleteCollectionById: ['coll:create', D], listSpacesInCollectionById: 'coll:read',
    moveCollection: 'coll:create', transferCollection: ['coll:create', D], inviteToCollection: 'coll:create',
    listUserPermissionsInCollection: 'coll:read', listTeamPermissionsInCollection: 'coll:read',
    updateUserPermissionInCollection: 'coll:create', removeUserFromCollection: ['coll:create', D],
    updateTeamPermissionInCollection: ['coll:create', { ok404: true }], removeTeamFromCollection: ['coll:create', D],
    listSpacesInOrganizationById: 'org:view', createSpace: 'org:create', getSpaceById: 'space:read',
    updateSpaceById: 'space:create', deleteSpaceById: ['space:create', D], restoreSpace: 'space:create',
    duplicateSpace: 'space:create', moveSpace: 'space:create', transferSpace: ['space:create', D], inviteToSpace: 'space:create',
    listUserPermissionsInSpace: 'space:read', listTeamPermissionsInSpace: 'space:read',
    updateUserPermissionInSpace: 'space:create', removeUserFromSpace: ['space:create', D],
    updateTeamPermissionInSpace: ['space:create', { ok404: true }], removeTeamFromSpace: ['space:create', D],
    listSpacesForOrganizationMember: 'self',
    getCurrentRevision: 'space:read', listPages: 'space:read', listFiles: 'space:read', getFileById: 'space:read',
    listSpaceFileBacklinks: 'space:read', getPageById: 'space:read', listPageLinksInSpace: 'space:read',
    listSpacePageBacklinks: 'space:read', getPageByPath: 'space:read', applyTemplateToSpace: 'space:edit',
    listSpaceLinks: 'space:read', getSpacePDF: 'space:read', getRevisionById: 'space:read',
    listPagesInRevisionById: 'space:read', listFilesInRevisionById: 'space:read', getFileInRevisionById: 'space:read',
    getPageInRevisionById: 'space:read', getPageInRevisionByPath: 'space:read',
    downloadFile: ['public', { ok404: true }], downloadPDF: ['public', { ok404: true }],
    listChangeRequestsForSpace: 'space:read', createChangeRequest: 'space:edit', getChangeRequestById: 'space:read',
    updateChangeRequestById: 'space:edit', mergeChangeRequest: ['space:review', D], updateChangeRequest: 'space:review',
    updateChangeRequestContent: 'space:edit', getChangeRequestPDF: 'space:read', listChangeRequestsForOrganization: 'org:view',
    getContributorsByChangeRequestId: 'space:read', getChangeRequestChanges: 'space:read',
    getRevisionOfChangeRequestById: 'space:read', listPagesInChangeRequest: 'space:read',
    listFilesInChangeRequestById: 'space:read', getFileInChangeRequestById: ['space:read', { ok404: true }],
    listChangeRequestFileBacklinks: ['space:read', { ok404: true }], getPageInChangeRequestById: 'space:read',
    listPageLinksInChangeRequest: 'space:read', listChangeRequestPageBacklinks: 'space:read',
    getPageInChangeRequestByPath: 'space:read',
    // The change request's author (A's admin) may not review it: 403.
    getReviewsByChangeRequestId: 'space:read', submitChangeRequestReview: ['space:review', { over: { admin: 403 } }],
    getRequestedReviewersByChangeRequestId: 'space:read', requestReviewersForChangeRequest: 'space:edit',
    removeRequestedReviewerFromChangeRequest: ['space:edit', D],
    listCommentsInSpace: 'space:read', postCommentInSpace: 'space:comment', getCommentInSpace: 'space:read',
    updateCommentInSpace: ['author', { body: { body: { markdown: 'edited by the matrix' } } }], deleteCommentInSpace: ['space:create', D], listCommentRepliesInSpace: 'space:read',
    postCommentReplyInSpace: 'space:comment', getCommentReplyInSpace: 'space:read', updateCommentReplyInSpace: ['author', { body: { body: { markdown: 'edited by the matrix' } } }],
    deleteCommentReplyInSpace: ['space:create', D], listCommentersInSpace: 'space:read',
    listCommentsInChangeRequest: 'space:read', postCommentInChangeRequest: 'space:comment',
    getCommentInChangeRequest: 'space:read', updateCommentInChangeRequest: ['author', { body: { body: { markdown: 'edited by the matrix' } } }],
    deleteCommentInChangeRequest: ['space:create', D], listCommentRepliesInChangeRequest: 'space:read',
    postCommentReplyInChangeRequest: 'space:comment', getCommentReplyInChangeRequest: 'space:read',
    updateCommentReplyInChangeRequest: ['author', { body: { body: { markdown: 'edited by the matrix' } } }], deleteCommentReplyInChangeRequest: ['space:create', D],
    listCommentersInChangeRequest: 'space:read',
    searchSpaceContent: 'space:read', searchOrganizationContent: 'org:view',
    // createSite: a guest knows the organization, so 403 (README, "Docs sites"), not a site's 404.
    listSites: 'site:read', createSite: 'org:create', getSiteById: 'site:read', updateSiteById: 'site:admin',
    deleteSiteById: ['site:admin', D], publishSite: 'site:admin', unpublishSite: 'site:admin',
    getSiteCustomizationById: 'site:read', updateSiteCustomizationById: 'site:admin',
    getSiteSpaceCustomizationById: 'site:read', overrideSiteSpaceCustomizationById: 'site:admin',
    deleteSiteSpaceCustomizationById: ['site:admin', D], listSiteShareLinks: 'site:admin', createSiteShareLink: 'site:admin',
    updateSiteShareLinkById: 'site:admin', deleteSiteShareLinkById: ['site:admin', D],
    getSiteAdaptiveSchema: ['site:read', { ok404: true }], updateSiteAdaptiveSchema: 'site:admin',
    listSiteAdaptiveTemplateConditions: ['site:read', { ok404: true }],
    getSitePublishingAuthById: 'site:admin', updateSitePublishingAuthById: 'site:admin',
    regenerateSitePublishingAuthById: 'site:admin',
    listSiteSections: 'site:read', addSectionToSite: 'site:create', updateSiteSectionById: 'site:create',
    deleteSiteSectionById: ['site:create', D], moveSiteSection: 'site:create', listSiteSectionGroups: 'site:read',
    addSectionGroupToSite: 'site:create', updateSiteSectionGroupById: 'site:create',
    deleteSiteSectionGroupById: ['site:create', D], addSectionToGroup: 'site:create',
    removeSectionFromGroup: ['site:create', D], moveSiteSectionGroup: 'site:create', listSiteSpaces: 'site:read',
    addSpaceToSite: 'site:create', updateSiteSpaceById: 'site:create', deleteSiteSpaceById: ['site:create', D],
    moveSiteSpace: 'site:create', getSiteStructure: 'site:read', sortSiteStructure: 'site:create',
    getPublishedContentSite: 'site:read',
    listSiteRedirects: 'site:read', createSiteRedirect: 'site:admin', updateSiteRedirectById: 'site:admin',
    deleteSiteRedirectById: ['site:admin', D], getSiteRedirectBySource: ['site:read', { ok404: true, query: '?source=/old/home' }],
    listMembersInOrganizationById: 'org:member', getMemberInOrganizationById: 'org:member',
    updateMemberInOrganizationById: 'org:admin', removeMemberFromOrganizationById: ['org:admin', D],
    updateOrganizationMemberLastSeenAt: 'org:view', setUserAsSSOMemberForOrganization: 'org:admin',
    listTeamsForOrganizationMember: 'org:member',
    listTeamsInOrganizationById: 'org:member', createOrganizationTeam: 'org:admin', getTeamInOrganizationById: 'org:member',
    updateTeamInOrganizationById: 'org:admin', removeTeamFromOrganizationById: ['org:admin', D],
    listTeamMembersInOrganizationById: 'org:member', updateMembersInOrganizationTeam: 'org:admin',
    addMemberToOrganizationTeamById: 'org:admin', deleteMemberFromOrganizationTeamById: ['org:admin', D],
    listSAMLProvidersInOrganizationById: 'org:admin', createOrganizationSAMLProvider: 'org:admin',
    getOrganizationSAMLProviderById: 'org:admin', updateOrganizationSAMLProvider: 'org:admin',
    deleteOrganizationSAMLProvider: ['org:admin', D], listSSOProviderLoginsInOrganization: 'org:view',
    listOpenAPISpecs: 'org:member', createOpenAPISpec: 'org:create', getOpenAPISpecBySlug: 'org:member',
    createOrUpdateOpenAPISpecBySlug: 'org:create', updateOpenAPISpecBySlug: 'org:create',
    deleteOpenAPISpecBySlug: ['org:create', D], listOpenAPISpecVersions: 'org:member',
    getLatestOpenAPISpecVersion: 'org:member', getLatestOpenAPISpecVersionContent: 'org:member',
    getOpenAPISpecVersionById: 'org:member', getOpenAPISpecVersionContentById: 'org:member',
    getPublishedOpenAPISpec: ['public', { ok404: true }], getPublishedOpenAPISpecVersion: ['public', { ok404: true }],
    listTranslations: 'org:view', createTranslation: 'org:create', getTranslation: 'space:read',
    // Translation update and delete check the organization's create role first (403 whether or
    // not the translation exists, as for sites); run looks the translation up first.
    updateTranslation: 'org:create', deleteTranslation: ['org:create', D], runTranslation: 'space:create',
    importContent: 'space:review', importContentInChangeRequest: 'space:edit',
    importGitRepository: 'space:edit', exportToGitRepository: 'space:edit', getSpaceGitInfo: ['space:read', { ok404: true }],
    deleteLegacyGitInstallation: ['space:admin', D],
    // Integrations (issue 31 rewrites their access): the dispatcher's 401 for a missing token,
    // and everywhere no 5xx, no leak, no write on the other organization (see the top).
    listIntegrations: 'integ', getIntegrationByName: 'integ', publishIntegration: 'integ', unpublishIntegration: ['integ', D],
    getIntegrationIcon: ['public', { ok404: true }], getIntegrationPreviewImage: ['public', { ok404: true }],
    listIntegrationInstallations: 'integ', installIntegration: 'integ', getIntegrationInstallationById: 'integ',
    updateIntegrationInstallation: 'integ', uninstallIntegration: ['integ', D], createIntegrationInstallationToken: 'integ',
    listIntegrationInstallationSpaces: 'integ', installIntegrationOnSpace: 'integ', getIntegrationSpaceInstallation: 'integ',
    updateIntegrationSpaceInstallation: 'integ', uninstallIntegrationFromSpace: ['integ', D],
    listIntegrationInstallationSites: 'integ', installIntegrationOnSite: 'integ', getIntegrationSiteInstallation: 'integ',
    getIntegrationSiteScript: ['public', { ok404: true }], updateIntegrationSiteInstallation: 'integ',
    uninstallIntegrationFromSite: ['integ', D], listIntegrationEvents: 'integ', getIntegrationEvent: 'integ',
    listIntegrationSpaceInstallations: 'integ', listIntegrationSiteInstallations: 'integ',
    setIntegrationDevelopmentMode: 'integ', disableIntegrationDevelopmentMode: ['integ', D], queueIntegrationTask: 'integ',
    listOrganizationIntegrations: 'org:view', listOrganizationInstallations: 'org:view', listSpaceIntegrations: 'space:read',
    // Guests get 200 [] here where every other site operation is their 404 (README, "Docs
    // sites"): domain/integrations.c, being rewritten (issue 31); reported, lenient until then.
    listSiteIntegrationScripts: 'integ',
};

// The web interface: keyed "METHOD path". A page the caller may not see is its 404 page
// (forbidden included: the app does not say that an object exists); signed out, 303 to /signin.
// Settings pages are read-only views for whoever reads the object; their forms need the role.
const APP_NEEDS = {
    'GET /~app/app.css': 'public', 'GET /': 'user', 'GET /o/{organizationId}': 'org:view',
    // Settings pages show every member what the organization has; the form is an admin's.
    'GET /o/{organizationId}/search': 'org:view', 'GET /o/{organizationId}/settings': 'org:view',
    'POST /o/{organizationId}/settings': 'org:admin', 'POST /o/{organizationId}/merge-rules': 'org:admin',
    'GET /o/{organizationId}/sites/new': 'org:view', 'POST /o/{organizationId}/sites': 'org:create',
    'GET /o/{organizationId}/sites/{siteId}': 'site:read', 'GET /c/{collectionId}': 'coll:read',
    'GET /c/{collectionId}/settings': 'coll:read', 'POST /c/{collectionId}/settings': 'coll:create',
    'POST /c/{collectionId}/permissions': 'coll:create', 'POST /c/{collectionId}/permissions/{kind}/{principalId}/remove': 'coll:create',
    'POST /c/{collectionId}/permissions/{kind}/{principalId}/role': 'coll:create',
    'GET /s/{spaceId}': 'space:read', 'GET /s/{spaceId}/~/changes': 'space:read', 'GET /s/{spaceId}/~/changes/{number}': 'space:read',
    'GET /~app/edit.js': 'public', 'GET /~app/edit.css': 'public', 'GET /~app/edit-link': ['public', { ok404: true }],
    'POST /s/{spaceId}/~/changes/new': 'space:edit', 'POST /s/{spaceId}/~/preview': 'space:read',
    'GET /s/{spaceId}/~/changes/{number}/~/edit': 'space:read', 'POST /s/{spaceId}/~/changes/{number}/~/pages': 'space:edit',
    'GET /s/{spaceId}/~/changes/{number}/~/edit/{pageId}': 'space:read',
    'POST /s/{spaceId}/~/changes/{number}/~/edit/{pageId}': 'space:edit',
    'POST /s/{spaceId}/~/changes/{number}/~/move/{pageId}': 'space:edit',
    'POST /s/{spaceId}/~/changes/{number}/~/delete/{pageId}': 'space:edit',
    // A multipart form checking its own token: a urlencoded post is its 403 for everyone.
    'POST /s/{spaceId}/~/changes/{number}/~/upload': ['space:edit', { any403: true }],
    'GET /s/{spaceId}/~/changes/{number}/~/comments/{commentId}': 'space:read',
    'GET /s/{spaceId}/~/changes/{number}/{path*}': ['space:read', { ok404: true }], 'GET /s/{spaceId}/~/history': 'space:read',
    'GET /s/{spaceId}/~/settings': 'space:read', 'POST /s/{spaceId}/~/settings': 'space:create',
    'POST /s/{spaceId}/~/permissions': 'space:create', 'POST /s/{spaceId}/~/permissions/{kind}/{principalId}/remove': 'space:create',
    'POST /s/{spaceId}/~/permissions/{kind}/{principalId}/role': 'space:create',
    'POST /s/{spaceId}/~/merge-rules': 'space:create', 'GET /s/{spaceId}/~/git': 'space:read',
    'POST /s/{spaceId}/~/git/import': 'space:edit', 'POST /s/{spaceId}/~/git/export': 'space:edit',
    'POST /s/{spaceId}/~/git/unlink': 'space:admin', 'GET /s/{spaceId}/{path*}': 'space:read',
    'POST /s/{spaceId}/~/changes/{number}/~/comment': 'space:comment',
    'POST /s/{spaceId}/~/changes/{number}/~/comments/{commentId}/reply': 'space:comment',
    'POST /s/{spaceId}/~/changes/{number}/~/comments/{commentId}/resolve': 'space:comment',
    'POST /s/{spaceId}/~/changes/{number}/~/comments/{commentId}/react': 'space:comment',
    'POST /s/{spaceId}/~/changes/{number}/~/comments/{commentId}/edit': 'author',
    'POST /s/{spaceId}/~/changes/{number}/~/comments/{commentId}/delete': 'space:create',
    'POST /s/{spaceId}/~/changes/{number}/~/comments/{commentId}/replies/{replyId}/edit': 'author',
    'POST /s/{spaceId}/~/changes/{number}/~/comments/{commentId}/replies/{replyId}/delete': 'space:create',
    'POST /s/{spaceId}/~/changes/{number}/~/reviewers': 'space:edit',
    'POST /s/{spaceId}/~/changes/{number}/~/reviewers/{userId}/remove': 'space:edit',
    'POST /s/{spaceId}/~/changes/{number}/~/review': 'space:review', 'POST /s/{spaceId}/~/changes/{number}/~/merge': 'space:review',
    'POST /s/{spaceId}/~/changes/{number}/~/update': 'space:review',
    'GET /integrations/{integrationName}': 'integ', 'GET /integrations/{integrationName}/installations/{installationId}': 'integ',
    'GET /settings/tokens': 'user', 'GET /settings/sso': 'user', 'POST /settings/sso/{providerId}/unlink': ['user', { ok404: true }],
    'GET /o/{organizationId}/domains': 'org:admin', 'POST /settings/tokens': 'user',
    'POST /settings/tokens/{tokenId}/revoke': ['user', { ok404: true }],
    'GET /o/{organizationId}/members': 'org:member', 'POST /o/{organizationId}/members/{userId}/role': 'org:admin',
    'POST /o/{organizationId}/members/{userId}/remove': 'org:admin', 'GET /o/{organizationId}/teams': 'org:member',
    'POST /o/{organizationId}/teams': 'org:admin', 'GET /o/{organizationId}/teams/{teamId}': 'org:member',
    'POST /o/{organizationId}/teams/{teamId}/members': 'org:admin',
    'POST /o/{organizationId}/teams/{teamId}/members/{userId}/remove': 'org:admin',
    'GET /o/{organizationId}/invites': 'org:admin', 'POST /o/{organizationId}/invites': 'org:admin',
    'POST /o/{organizationId}/invites/links': 'org:admin', 'POST /o/{organizationId}/invites/links/{inviteId}/delete': 'org:admin',
    'GET /o/{organizationId}/join/{inviteId}': 'user', 'POST /o/{organizationId}/join/{inviteId}': 'user',
    'GET /o/{organizationId}/translations': 'org:view', 'POST /o/{organizationId}/translations': 'org:create',
    'GET /o/{organizationId}/translations/{translationId}': 'space:read',
    'POST /o/{organizationId}/translations/{translationId}/run': 'space:create',
    'POST /o/{organizationId}/translations/{translationId}/delete': 'org:create',
    'POST /o/{organizationId}/translations/{translationId}/instructions': 'org:create',
    'GET /o/{organizationId}/sites/{siteId}/settings': 'site:read', 'POST /o/{organizationId}/sites/{siteId}/settings': 'site:admin',
    'POST /o/{organizationId}/sites/{siteId}/delete': 'site:admin', 'GET /o/{organizationId}/sites/{siteId}/structure': 'site:read',
    'POST /o/{organizationId}/sites/{siteId}/site-spaces': 'site:create',
    'POST /o/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/remove': 'site:create',
    'POST /o/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/default': 'site:create',
    'POST /o/{organizationId}/sites/{siteId}/sections': 'site:create',
    'POST /o/{organizationId}/sites/{siteId}/sections/{siteSectionId}/delete': 'site:create',
    'POST /o/{organizationId}/sites/{siteId}/sections/{siteSectionId}/default': 'site:create',
    'POST /o/{organizationId}/sites/{siteId}/groups': 'site:create',
    'POST /o/{organizationId}/sites/{siteId}/groups/{groupId}/delete': 'site:create',
    'POST /o/{organizationId}/sites/{siteId}/groups/{groupId}/sections': 'site:create',
    'POST /o/{organizationId}/sites/{siteId}/groups/{groupId}/sections/{siteSectionId}/remove': 'site:create',
    'POST /o/{organizationId}/sites/{siteId}/move': 'site:create',
    'GET /o/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization': 'site:read',
    'POST /o/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization': 'site:admin',
    'POST /o/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization/delete': 'site:admin',
    'GET /o/{organizationId}/sites/{siteId}/customization': 'site:read',
    'POST /o/{organizationId}/sites/{siteId}/customization': 'site:admin',
    'POST /o/{organizationId}/sites/{siteId}/publish': 'site:admin', 'POST /o/{organizationId}/sites/{siteId}/unpublish': 'site:admin',
    'POST /o/{organizationId}/sites/{siteId}/share-links': 'site:admin',
    'POST /o/{organizationId}/sites/{siteId}/share-links/{shareLinkId}/delete': 'site:admin',
    'GET /o/{organizationId}/openapi': 'org:member', 'POST /o/{organizationId}/openapi': 'org:create',
    'GET /o/{organizationId}/openapi/{specSlug}': 'org:member', 'POST /o/{organizationId}/openapi/{specSlug}/source': 'org:create',
    'POST /o/{organizationId}/openapi/{specSlug}/visibility': 'org:create', 'POST /o/{organizationId}/openapi/{specSlug}/delete': 'org:create',
    // The installation pages (app/pages_integration*.c) are integration access, being rewritten
    // (issue 31): lenient here, like the API's integration rows.
    'GET /o/{organizationId}/integrations': 'org:view',
    'POST /o/{organizationId}/integrations/{integrationName}/install': 'integ',
    'GET /o/{organizationId}/integrations/{integrationName}/installations/{installationId}': 'integ',
    'POST /o/{organizationId}/integrations/{integrationName}/installations/{installationId}/spaces': 'integ',
    'POST /o/{organizationId}/integrations/{integrationName}/installations/{installationId}/uninstall': 'integ',
    'POST /o/{organizationId}/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}/uninstall': 'integ',
    'GET /o/{organizationId}/integrations/installed': 'org:view',
    'POST /o/{organizationId}/integrations/{integrationName}/installations/{installationId}/configuration': 'integ',
    'GET /o/{organizationId}/integrations/{integrationName}/installations/{installationId}/spaces': 'integ',
    'GET /o/{organizationId}/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}': 'integ',
    'POST /o/{organizationId}/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}/configuration': 'integ',
    'GET /o/{organizationId}/integrations/{integrationName}/installations/{installationId}/sites': 'integ',
    'POST /o/{organizationId}/integrations/{integrationName}/installations/{installationId}/sites': 'integ',
    'GET /o/{organizationId}/integrations/{integrationName}/installations/{installationId}/sites/{siteId}': 'integ',
    'POST /o/{organizationId}/integrations/{integrationName}/installations/{installationId}/sites/{siteId}/configuration': 'integ',
    'POST /o/{organizationId}/integrations/{integrationName}/installations/{installationId}/sites/{siteId}/uninstall': 'integ',
};

// Valid bodies for writes whose {} is a 400 for everyone (bodies are read before access is
// checked): with these the denied callers reach the access check. ids: the target's fixtures.
const BODIES = {
    updateUserPermissionInSpace: () => ({ role: 'read' }), updateUserPermissionInCollection: () => ({ role: 'read' }),
    updateTeamPermissionInSpace: () => ({ role: 'read' }), updateTeamPermissionInCollection: () => ({ role: 'read' }),
    transferSpace: (ids) => ({ organization: ids.organizationId }), transferCollection: (ids) => ({ organization: ids.organizationId }),
    inviteToSpace: (ids) => ({ role: 'read', users: [ids.userId] }), inviteToCollection: (ids) => ({ role: 'read', users: [ids.userId] }),
    submitChangeRequestReview: () => ({ status: 'approved' }),
    requestReviewersForChangeRequest: (ids) => ({ users: [ids.userId] }),
    // A loopback URL: refused by the fetch rules at once (no network), after the access check.
    importContent: () => ({ url: 'http://127.0.0.1:9/x.md', source: 'markdown' }),
    importContentInChangeRequest: () => ({ url: 'http://127.0.0.1:9/x.md', source: 'markdown' }),
    importGitRepository: () => ({ url: 'http://127.0.0.1:9/repo.git', ref: 'refs/heads/main' }),
    exportToGitRepository: () => ({ url: 'http://127.0.0.1:9/repo.git', ref: 'refs/heads/main', commitMessage: 'matrix' }),
    applyTemplateToSpace: () => ({ id: 'blank' }),
    postCommentInSpace: () => ({ body: { markdown: 'matrix' } }), postCommentReplyInSpace: () => ({ body: { markdown: 'matrix' } }),
    postCommentInChangeRequest: () => ({ body: { markdown: 'matrix' } }), postCommentReplyInChangeRequest: () => ({ body: { markdown: 'matrix' } }),
    createSiteShareLink: () => ({ name: 'matrix' }), updateSiteShareLinkById: () => ({ name: 'matrix' }),
    createSiteRedirect: (ids) => ({ source: '/matrix/new', destination: { kind: 'site-page', siteSpaceId: ids.siteSpaceId, pageId: ids.pageId } }),
    updateSiteRedirectById: () => ({ source: '/matrix/moved' }),
    createTranslation: (ids) => ({ source: { space: ids.spaceId, language: 'en' }, language: 'de' }),
    addSpaceToSite: (ids) => ({ spaceId: ids.space2Id }), addSectionToSite: (ids) => ({ spaceId: ids.space2Id, title: 'Matrix' }),
    addSectionGroupToSite: () => ({ title: 'Matrix' }),
    createOpenAPISpec: () => ({ slug: 'matrix-new', source: { text: PETSTORE } }),
    createOrUpdateOpenAPISpecBySlug: () => ({ source: { text: PETSTORE } }),
};

// Allowed callers send these {} instead (a 400): a valid body would queue a Git job that
// retries against a dead address, on a PostgreSQL queue other test files' servers share.
const NO_JOB_WHEN_ALLOWED = new Set(['importGitRepository', 'exportToGitRepository']);

const rowOf = (v) => (Array.isArray(v) ? { need: v[0], ...v[1] } : { need: v });
const bodyOf = (rt, row, ids) => (BODIES[rt.op] ? BODIES[rt.op](ids) : row.body ?? (rt.method !== 'GET' && rt.method !== 'DELETE' ? {} : undefined));

/**
 * What `need` gives actor `a`: a status, 'allow' (past the access check), 'any' (a public
 * route: no 5xx) or 'lenient' (integration tokens, and the integration rows: no 5xx).
 */
function decide(need, a) {
    if (need === 'public') return 'any';
    if (a.kind === 'anon') return 401;
    if (a.kind === 'token' || need === 'integ') return 'lenient';
    if (need === 'user') return 'allow';
    if (a.kind === 'outsider' || a.kind === 'removed') return 404;
    if (need === 'shared') return 'allow';
    const role = a.kind === 'role' ? a.role : null; // guests have no organization role
    const [scope, level] = need.split(':');
    if (scope === 'org') {
        if (level === 'view') return 'allow';
        if (!role) return 403;
        if (level === 'member') return 'allow';
        return RANK[role] >= RANK[level] ? 'allow' : 403;
    }
    if (scope === 'site') {
        if (!role) return 404;
        return RANK[role] >= RANK[level] ? 'allow' : 403;
    }
    // Spaces and collections: the guest's grant is on space A (not on the collection).
    const eff = a.kind === 'guestGrant' ? (scope === 'space' || need === 'author' ? GUEST_GRANT : null) : role;
    if (need === 'author' || need === 'self') {
        const readsIt = eff !== null;
        if (a.role === 'admin') return 'allow';
        if (need === 'self') return a.self ? 'allow' : role ? 403 : 403;
        return readsIt ? 403 : 404;
    }
    if (!eff) return 404;
    return RANK[eff] >= RANK[level] ? 'allow' : 403;
}

function fill(path, ids) {
    return path.replace(/\{(\w+)\*?\}/g, (_, k) => {
        assert.ok(ids[k] !== undefined, `no fixture for {${k}} in ${path}`);
        return ids[k].split('/').map(encodeURIComponent).join('/');
    });
}

/** Runs fns with at most n at once. */
async function pool(fns, n = 12) {
    const out = new Array(fns.length);
    let next = 0;
    await Promise.all(Array.from({ length: Math.min(n, fns.length) }, async () => {
        while (next < fns.length) {
            const i = next++;
            out[i] = await fns[i]();
        }
    }));
    return out;
}

describe('authorization matrix (both route tables)', () => {
    let ctx, A, B, actors, appActors, admin, adminB;
    const failures = [];
    const printed = [];
    const print = process.env.MATRIX_PRINT === '1';

    // The integration token comes only in a delivery's environment: a development tunnel of
    // the test (a loopback server: docsd runs with --allow-private-network) receives it.
    let tunnel;
    const received = [];

    before(async () => {
        tunnel = http.createServer((req, res) => {
            const chunks = [];
            req.on('data', (c) => chunks.push(c));
            req.on('end', async () => {
                try {
                    const r = new Request(`http://x${req.url}`, { method: 'POST', headers: { 'content-type': req.headers['content-type'] }, body: Buffer.concat(chunks) });
                    const fd = await r.formData();
                    received.push(JSON.parse(String(fd.get('environment'))));
                } catch {}
                res.writeHead(200, { 'content-type': 'text/plain' });
                res.end('OK');
            });
        });
        await new Promise((r) => tunnel.listen(0, '127.0.0.1', r));
        ctx = await setup({ extraArgs: ['--allow-private-network', '--job-workers', '2'] });
        const run = ctx.run;
        admin = await ctx.user('admina');
        adminB = await ctx.user('adminb');
        A = await buildOrg(ctx.url, admin, 'A', `MXA${run}`);
        B = await buildOrg(ctx.url, adminB, 'B', `MXB${run}`);
        const orgA = A.org.id;
        const users = {};
        for (const r of ['read', 'comment', 'edit', 'review', 'create']) {
            users[r] = await ctx.user(`role${r}`);
            await member(ctx.url, admin, orgA, users[r], r);
        }
        users.guest = await ctx.user('guest');
        await member(ctx.url, admin, orgA, users.guest, null);
        users.guestGrant = await ctx.user('guestgrant');
        await must(ctx.url, admin.token, 'POST', `/v1/spaces/${A.space.id}/permissions`, { role: GUEST_GRANT, users: [users.guestGrant.id] }, 204);
        users.removed = await ctx.user('removed');
        await member(ctx.url, admin, orgA, users.removed, 'admin');
        await must(ctx.url, admin.token, 'DELETE', `/v1/orgs/${orgA}/members/${users.removed.id}`, undefined, 205);
        // {userId} of the member routes is the read member: listSpacesForOrganizationMember is theirs,
        // and the permission routes name their grant (read, as their role: nothing changes).
        await must(ctx.url, admin.token, 'POST', `/v1/spaces/${A.space.id}/permissions`, { role: 'read', users: [users.read.id] }, 204);
        await must(ctx.url, admin.token, 'POST', `/v1/collections/${A.ids.collectionId}/permissions`, { role: 'read', users: [users.read.id] }, 204);
        A.ids.userId = users.read.id;
        A.ids.principalId = users.read.id;
        B.ids.userId = adminB.id;
        // Installation tokens of organization A: all spaces with the content scopes, without
        // them, selected (on space A) and not selected (on space A2 only); one revoked by an uninstall.
        const integ = async (name, scopes, selectOn) => {
            await must(ctx.url, admin.token, 'POST', `/v1/integrations/${name}`, {
                organization: orgA, title: `Mx ${name}`.slice(0, 30), description: 'matrix', scopes,
                script: 'export default { async fetch() { return new Response("ok"); } };',
            }, 200);
            const inst = await must(ctx.url, admin.token, 'POST', `/v1/integrations/${name}/installations`, { organization: orgA }, [200, 201]);
            if (selectOn) {
                await must(ctx.url, admin.token, 'PATCH', `/v1/integrations/${name}/installations/${inst.id}`, { space_selection: 'selected' }, 200);
                await must(ctx.url, admin.token, 'POST', `/v1/integrations/${name}/installations/${inst.id}/spaces`, { space: selectOn }, 201);
            }
            const { token } = await must(ctx.url, admin.token, 'POST', `/v1/integrations/${name}/installations/${inst.id}/tokens`, {}, [200, 201]);
            return { name, inst, token };
        };
        const all = await integ(`mxall-${run}`, ['space:content:read', 'space:metadata:read'], null);
        const noScope = await integ(`mxnone-${run}`, ['site:metadata:read'], null);
        const sel = await integ(`mxsel-${run}`, ['space:content:read', 'space:metadata:read'], A.space.id);
        const notSel = await integ(`mxnot-${run}`, ['space:content:read', 'space:metadata:read'], A.space2.id);
        const gone = await integ(`mxgone-${run}`, ['space:content:read'], null);
        // The integration token: an installation of an integration in development mode delivers
        // its installation_setup event, with both tokens, to the tunnel.
        const dev = `mxdev-${run}`;
        await must(ctx.url, admin.token, 'POST', `/v1/integrations/${dev}`, {
            organization: orgA, title: 'Mx dev', description: 'matrix', scopes: ['space:content:read', 'space:metadata:read'], script: 'export default {}',
        }, 200);
        await must(ctx.url, admin.token, 'PUT', `/v1/integrations/${dev}/dev`, { tunnelUrl: `http://127.0.0.1:${tunnel.address().port}/` }, 204);
        await must(ctx.url, admin.token, 'POST', `/v1/integrations/${dev}/installations`, { organization: orgA }, [200, 201]);
        const deadline = Date.now() + 30_000;
        while (!received.some((e) => e?.apiTokens?.integration) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
        const integrationToken = received.find((e) => e?.apiTokens?.integration)?.apiTokens.integration;
        assert.ok(integrationToken, 'the delivery brought the integration token');
        await must(ctx.url, admin.token, 'DELETE', `/v1/integrations/${gone.name}/installations/${gone.inst.id}`, undefined, 205);
        A.ids.integrationName = all.name;
        A.ids.installationId = all.inst.id;
        A.ids.eventId = 'noevent';
        A.ids.n = '0';
        A.ids.blob = 'x.y.z';
        A.ids.pdf = 'x.y.z';
        A.ids.tokenId = 'notoken';
        // Organization B's integration, for the cross-organization calls.
        const bInt = `mxb-${run}`;
        await must(ctx.url, adminB.token, 'POST', `/v1/integrations/${bInt}`, {
            organization: B.org.id, title: 'Mx b', description: 'matrix', scopes: ['space:content:read'],
            script: 'export default { async fetch() { return new Response("ok"); } };',
        }, 200);
        const bInst = await must(ctx.url, adminB.token, 'POST', `/v1/integrations/${bInt}/installations`, { organization: B.org.id }, [200, 201]);
        Object.assign(B.ids, { integrationName: bInt, installationId: bInst.id, eventId: 'noevent', n: '0', blob: 'x.y.z', pdf: 'x.y.z', tokenId: 'notoken' });

        actors = [
            { name: 'no token', kind: 'anon', token: null },
            { name: 'malformed token', kind: 'anon', token: 'not a token at all' },
            { name: 'revoked token', kind: 'anon', token: gone.token },
            { name: 'removed member', kind: 'removed', token: users.removed.token, org: 'A' },
            { name: 'other organization', kind: 'outsider', token: adminB.token, org: 'B' },
            { name: 'guest', kind: 'guest', token: users.guest.token, org: 'A' },
            { name: 'guest with grant', kind: 'guestGrant', token: users.guestGrant.token, org: 'A' },
            ...['read', 'comment', 'edit', 'review', 'create'].map((r) => ({ name: r, kind: 'role', role: r, token: users[r].token, org: 'A', self: r === 'read' })),
            { name: 'admin', kind: 'role', role: 'admin', token: admin.token, org: 'A' },
            { name: 'integration token', kind: 'token', token: integrationToken, org: 'A' },
            { name: 'installation token', kind: 'token', token: all.token, org: 'A' },
            { name: 'installation token without the scope', kind: 'token', token: noScope.token, org: 'A' },
            { name: 'installation token, selected', kind: 'token', token: sel.token, org: 'A' },
            { name: 'installation token, not selected', kind: 'token', token: notSel.token, org: 'A' },
        ];
        // The web interface's actors: sessions (tokens do not sign in to the app).
        const sess = {};
        const names = ['read', 'comment', 'edit', 'review', 'create', 'guest', 'guestGrant', 'removed'];
        for (const n of names) await setPassword(ctx.server, users[n].email, PASSWORD);
        await setPassword(ctx.server, admin.email, PASSWORD);
        await setPassword(ctx.server, adminB.email, PASSWORD);
        // The session's form token, from a page that has a form.
        const signInWithToken = async (email) => {
            const s = await signIn(ctx.url, email, PASSWORD);
            const page = await raw(ctx.url, 'GET', '/settings/tokens', { headers: { ...HTML, Cookie: s.cookie } });
            const csrf = page.text.match(/name="csrf" value="([^"]+)"/)?.[1];
            assert.ok(csrf, 'the tokens page has a form token');
            return { cookie: s.cookie, csrf };
        };
        for (const n of names) sess[n] = await signInWithToken(users[n].email);
        sess.admin = await signInWithToken(admin.email);
        sess.adminB = await signInWithToken(adminB.email);
        const signedOut = await signInWithToken(users.read.email);
        const so = await raw(ctx.url, 'POST', '/signout', { body: new URLSearchParams({ csrf: signedOut.csrf }).toString(), headers: { ...FORM, Cookie: signedOut.cookie } });
        assert.ok([200, 303].includes(so.status), `signout: ${so.status}`);
        appActors = [
            { name: 'no session', kind: 'anon', sess: null },
            { name: 'bogus session', kind: 'anon', sess: { cookie: `docsd_session=${'0'.repeat(64)}`, csrf: 'x' } },
            { name: 'signed-out session', kind: 'anon', sess: signedOut },
            { name: 'removed member', kind: 'removed', sess: sess.removed, org: 'A' },
            { name: 'other organization', kind: 'outsider', sess: sess.adminB, org: 'B' },
            { name: 'guest', kind: 'guest', sess: sess.guest, org: 'A' },
            { name: 'guest with grant', kind: 'guestGrant', sess: sess.guestGrant, org: 'A' },
            ...['read', 'comment', 'edit', 'review', 'create'].map((r) => ({ name: r, kind: 'role', role: r, sess: sess[r], org: 'A', self: r === 'read' })),
            { name: 'admin', kind: 'role', role: 'admin', sess: sess.admin, org: 'A' },
        ];
    });

    after(async () => {
        if (print) console.log(printed.sort().join('\n'));
        await ctx?.server.stop();
        tunnel?.close();
    });

    // Strings of the other organization (or of both, for anonymous callers) that a body may not
    // hold; what the request itself sent (its path) is left out: messages may name it.
    function forbidden(actor, sent) {
        const of = actor.org === 'A' ? B.markers : actor.org === 'B' ? A.markers.filter((x) => x !== A.org.id) : [...A.markers, ...B.markers];
        return of.filter((x) => !sent.includes(x));
    }

    function check(where, actor, expect, r, { ok404 = false, crossOrg = false, write = false, del = false, phase3 = false, sent }) {
        const tag = `${where} as ${actor.name}`;
        if (print) printed.push(`${where} | ${actor.name} | ${r.status} | ${expect} | ${r.text.slice(0, 160).replace(/\s+/g, " ")}`);
        if (r.status >= 500) return failures.push(`${tag}: ${r.status} (a 5xx): ${r.text.slice(0, 200)}`);
        for (const x of forbidden(actor, sent)) if (r.text.includes(x)) failures.push(`${tag}: the body holds ${x} (another organization's): ${r.text.slice(0, 200)}`);
        // A DELETE's 204 is docsd's "nothing to delete" (another organization's object is left
        // alone): the test compares organization B's state before and after.
        if (crossOrg && write && r.status >= 200 && r.status < 300 && !(del && r.status === 204) && expect !== 'allow' && expect !== 'any')
            failures.push(`${tag}: a write on the other organization's object answered ${r.status}`);
        if (expect === 'any' || expect === 'lenient') return;
        if (expect === 'allow') {
            const bad = [401, 403].includes(r.status) || (r.status === 404 && !ok404 && !phase3);
            if (bad) failures.push(`${tag}: expected access, got ${r.status}: ${r.text.slice(0, 200)}`);
            return;
        }
        // A write's body is read before access is checked: a 400 naming a field of the
        // request (the same for every caller) says nothing about the object.
        if (write && r.status === 400 && expect !== 401) return;
        if (r.status !== expect) failures.push(`${tag}: expected ${expect}, got ${r.status}: ${r.text.slice(0, 200)}`);
    }

    beforeEach(() => { failures.length = 0; });

    it('every route of both tables has a row, and every row a route', () => {
        const api = apiRoutes();
        const missing = api.filter((r) => !(r.op in NEEDS)).map((r) => `${r.op} (${r.method} ${r.path})`);
        const stale = Object.keys(NEEDS).filter((k) => !api.some((r) => r.op === k));
        const app = appRoutes();
        const appMissing = app.filter((r) => !(`${r.method} ${r.path}` in APP_NEEDS)).map((r) => `${r.method} ${r.path}`);
        const appStale = Object.keys(APP_NEEDS).filter((k) => !app.some((r) => `${r.method} ${r.path}` === k));
        assert.deepEqual({ missing, stale, appMissing, appStale }, { missing: [], stale: [], appMissing: [], appStale: [] },
            'a route without a row in authz-matrix.test.mjs (add one: its access need), or a row without a route');
    });

    // The lists whose counts must not move while denied calls are made.
    async function snapshot() {
        const O = `/v1/orgs/${A.org.id}`;
        const paths = [`${O}/spaces`, `${O}/collections`, `${O}/members`, `${O}/teams`, `${O}/sites`, `${O}/link-invites`, `${O}/saml`,
            `${O}/openapi`, `${O}/translations`, `/v1/spaces/${A.space.id}/change-requests?status=draft`, `/v1/spaces/${A.space.id}/comments`,
            `/v1/spaces/${A.space.id}/content/pages`, `/v1/spaces/${A.space.id}/permissions/users`, `${O}/sites/${A.ids.siteId}/site-spaces`,
            `${O}/sites/${A.ids.siteId}/sections`, `${O}/sites/${A.ids.siteId}/share-links`, `${O}/sites/${A.ids.siteId}/redirects`,
            `/v1/orgs/${B.org.id}/spaces`, `/v1/orgs/${B.org.id}/members`, `/v1/orgs/${B.org.id}/sites`];
        const out = {};
        for (const p of paths) {
            const tok = p.includes(B.org.id) ? adminB.token : admin.token;
            const j = await must(ctx.url, tok, 'GET', p, undefined, 200);
            out[p] = JSON.stringify(j.items ?? j.pages);
        }
        const org = await must(ctx.url, admin.token, 'GET', O, undefined, 200);
        out.org = JSON.stringify({ title: org.title, defaultRole: org.defaultRole });
        const site = await must(ctx.url, admin.token, 'GET', `${O}/sites/${A.ids.siteId}`, undefined, 200);
        out.site = JSON.stringify({ title: site.title, published: site.published, visibility: site.visibility });
        const sp = await must(ctx.url, admin.token, 'GET', `/v1/spaces/${A.space.id}`, undefined, 200);
        out.space = JSON.stringify({ title: sp.title, editMode: sp.editMode, visibility: sp.visibility, deletedAt: sp.deletedAt });
        return out;
    }

    // Organization B as its admin sees it: every object the cross-organization calls name.
    async function snapshotB() {
        const O = `/v1/orgs/${B.org.id}`, S = `/v1/spaces/${B.ids.spaceId}`, SI = `${O}/sites/${B.ids.siteId}`;
        const paths = [O, `${O}/spaces`, `${O}/collections`, `${O}/members`, `${O}/teams`, `${O}/sites`, `${O}/link-invites`, `${O}/saml`,
            `${O}/openapi`, `${O}/translations`, S, `${S}/change-requests?status=draft`, `${S}/comments`, `${S}/content/pages`,
            `${S}/permissions/users`, `/v1/collections/${B.ids.collectionId}`, SI, `${SI}/site-spaces`, `${SI}/sections`,
            `${SI}/section-groups`, `${SI}/share-links`, `${SI}/redirects`, `${SI}/customization`, `${SI}/publishing/auth`,
            `/v1/integrations/${B.ids.integrationName}`, `/v1/integrations/${B.ids.integrationName}/installations`,
            `${S}/change-requests/${B.ids.changeRequestId}/comments`, `${S}/comments/${B.ids.commentId}/replies`];
        const out = {};
        for (const p of paths) {
            const j = await must(ctx.url, adminB.token, 'GET', p, undefined, 200);
            // Timestamps a read may move (lastSeenAt) are left out.
            out[p] = JSON.stringify(j, (k, v) => (['lastSeenAt', 'updatedAt'].includes(k) ? undefined : v));
        }
        return out;
    }

    function apiCalls(phase) {
        const calls = [];
        for (const rt of apiRoutes()) {
            const row = rowOf(NEEDS[rt.op]);
            const write = rt.method !== 'GET';
            const destructive = !!row.destructive;
            const ids = { ...A.ids };
            // The comment routes of a change request name its own comment and reply.
            if (rt.path.includes('change-requests/{changeRequestId}/comments')) Object.assign(ids, { commentId: A.ids.crCommentId, commentReplyId: A.ids.crReplyId });
            const body = bodyOf(rt, row, ids);
            const path = fill(rt.path, ids) + (row.query ?? '');
            for (const a of actors) {
                const expect = row.over?.[a.name] ?? decide(row.need, a);
                const denied = typeof expect === 'number';
                const pick = phase === 1 ? denied || expect === 'lenient' || expect === 'any'
                    : phase === 2 ? expect === 'allow' && !destructive
                    : phase === 3 ? expect === 'allow' && destructive
                    : write && (expect === 'lenient' || expect === 'any'); // 4: what phase 1 left out
                if (!pick) continue;
                // Phase 1 runs the lenient (token) writes on the other organization only: their
                // writes in A might succeed and remove fixtures.
                if (phase === 1 && expect === 'lenient' && write) continue;
                if (phase === 1 && expect === 'any' && write) continue;
                const sent = expect === 'allow' && NO_JOB_WHEN_ALLOWED.has(rt.op) ? {} : body;
                calls.push({ where: `${rt.op} ${rt.method} ${path}`, depth: path.split('/').length, a, expect, method: rt.method, path, body: sent, write, row });
            }
        }
        return calls;
    }

    async function runApi(calls, opts = {}) {
        await pool(calls.map((c) => async () => {
            const r = await raw(ctx.url, c.method, c.path, { token: c.a.token, json: c.body, timeout: 20_000 });
            check(c.where, c.a, c.expect, r, { ok404: c.row.ok404, write: c.write, sent: c.path + JSON.stringify(c.body ?? ''), ...opts });
        }));
    }

    it('API: denied calls get their status and change nothing; no leak', async () => {
        const before = await snapshot();
        await runApi(apiCalls(1));
        const after = await snapshot();
        for (const k of Object.keys(before)) if (before[k] !== after[k]) failures.push(`state changed by denied calls: ${k}: ${before[k]} -> ${after[k]}`);
        assert.deepEqual(failures, []);
    });

    it('API: A\'s members and tokens on organization B\'s objects: 404 (tokens: no write), no leak', async () => {
        const calls = [];
        const beforeB = await snapshotB();
        const who = actors.filter((a) => ['admin', 'read', 'guest with grant', 'integration token', 'installation token', 'installation token, not selected'].includes(a.name));
        for (const rt of apiRoutes()) {
            const row = rowOf(NEEDS[rt.op]);
            if (!/\{(organizationId|spaceId|collectionId|siteId|integrationName)\}/.test(rt.path) || row.need === 'public') continue;
            const ids = { ...B.ids };
            if (rt.path.includes('change-requests/{changeRequestId}/comments')) Object.assign(ids, { commentId: B.ids.crCommentId, commentReplyId: B.ids.crReplyId });
            const path = fill(rt.path, ids);
            const write = rt.method !== 'GET';
            // The invite link lets anyone in: not a cross-organization read.
            if (rt.op === 'joinOrganizationWithInvite') continue;
            for (const a of who) {
                const expect = a.kind === 'token' || row.need === 'integ' ? 'lenient' : 404;
                calls.push({ where: `${rt.op} ${rt.method} ${path} (B)`, a, expect, method: rt.method, path, write, row, body: bodyOf(rt, row, ids) });
            }
        }
        await pool(calls.map((c) => async () => {
            const r = await raw(ctx.url, c.method, c.path, { token: c.a.token, json: c.body, timeout: 20_000 });
            check(c.where, c.a, c.expect, r, { write: c.write, del: c.method === 'DELETE', crossOrg: true, sent: c.path + JSON.stringify(c.body ?? '') });
        }));
        const afterB = await snapshotB();
        for (const k of Object.keys(beforeB)) if (beforeB[k] !== afterB[k]) failures.push(`organization B changed by A's calls: ${k}: ${beforeB[k].slice(0, 300)} -> ${afterB[k].slice(0, 300)}`);
        assert.deepEqual(failures, []);
    });

    it('web interface: every page and form for every actor; no leak', async () => {
        const calls = [];
        for (const rt of appRoutes()) {
            const key = `${rt.method} ${rt.path}`;
            const row = rowOf(APP_NEEDS[key]);
            const ids = { ...A.ids };
            // The review pages name the change request's own comment and reply.
            if (rt.path.includes('/~/comments/')) Object.assign(ids, { commentId: A.ids.crCommentId, replyId: A.ids.crReplyId });
            const path = fill(rt.path, ids);
            for (const a of appActors) {
                let expect = decide(row.need, a);
                if (rt.method === 'POST' && expect !== 401 && typeof expect !== 'number') continue; // allowed posts: see the top
                if (rt.method === 'POST' && row.need === 'public') continue;
                calls.push({ key, path, a, expect, row, method: rt.method });
            }
        }
        await pool(calls.map((c) => async () => {
            const headers = c.method === 'POST' ? { ...FORM } : { ...HTML };
            if (c.a.sess) headers.Cookie = c.a.sess.cookie;
            const body = c.method === 'POST' ? new URLSearchParams({ csrf: c.a.sess?.csrf ?? 'x' }).toString() : undefined;
            const r = await raw(ctx.url, c.method, c.path, { headers, body, timeout: 20_000 });
            const where = `app ${c.method} ${c.path}`;
            // Signed out: the sign-in page (a GET) or 303 there; the app's 404 for the rest.
            if (c.expect === 401) {
                if (print) printed.push(`${where} | ${c.a.name} | ${r.status} | 303`);
                const toSignin = r.status === 303 && /^\/signin/.test(r.headers.location ?? '');
                if (!toSignin && r.status !== 403) failures.push(`${where} as ${c.a.name}: expected 303 to /signin (or 403 for a form without a session), got ${r.status} ${r.headers.location ?? ''}`);
                for (const x of forbidden(c.a, c.path)) if (r.text.includes(x)) failures.push(`${where} as ${c.a.name}: the body holds ${x}`);
                return;
            }
            // The app's error page for what the caller may not do is its 404 (it does not tell
            // that an object exists); a few forms of objects the member sees say 403.
            let expect = c.expect === 403 && r.status === 403 ? 403 : c.expect === 403 ? 404 : c.expect;
            if (c.row.any403 && r.status === 403) expect = 403;
            check(where, c.a, expect === 'allow' ? 'allow' : expect, r, { ok404: c.row.ok404, write: c.method === 'POST', sent: c.path });
        }));
        assert.deepEqual(failures, []);
    });

    it('API: allowed calls get past the access check (non-destructive, then destructive leaves first)', async () => {
        await runApi(apiCalls(2));
        const d = apiCalls(3).sort((x, y) => y.depth - x.depth);
        for (const c of d) {
            const r = await raw(ctx.url, c.method, c.path, { token: c.a.token, json: c.body, timeout: 20_000 });
            check(c.where, c.a, c.expect, r, { ok404: c.row.ok404, phase3: true, sent: c.path + JSON.stringify(c.body ?? '') });
        }
        // Last, the writes with no exact status (integration rows, tokens, public routes) in
        // organization A: no 5xx, no leak; they may remove what they name.
        const rest = apiCalls(4).sort((x, y) => y.depth - x.depth);
        for (const c of rest) {
            const r = await raw(ctx.url, c.method, c.path, { token: c.a.token, json: c.body, timeout: 20_000 });
            check(c.where, c.a, c.expect, r, { sent: c.path + JSON.stringify(c.body ?? '') });
        }
        assert.deepEqual(failures, []);
    });
});
