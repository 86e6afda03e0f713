/*
 * serialize_meta.h - small answers that are not one of GitBook's objects:
 * API information, health, visitor claims, invitation results.
 */
#ifndef DOCSD_JSON_SERIALIZE_META_H
#define DOCSD_JSON_SERIALIZE_META_H

#include "json/jsonw.h"

/* getApiInformation: {version, build}. */
void api_info_to_json(struct jw *g, const char *version, const char *build);
/* /healthz: {status: "ok", store: engine}. */
void home_to_json(struct jw *g, const char *base, const char *site_base, const char *version);
void health_to_json(struct jw *g, const char *engine);
/* updateOrganizationMemberLastSeenAt: the seed names the JWT
 * serviceVisitorClaims, GitBook's 0.143.2 document gitbookVisitorClaims. */
void visitor_claims_to_json(struct jw *g, const char *jwt);
/* inviteUsersToOrganization: {users: [ids of members added], invited: n}. */
void invited_to_json(struct jw *g, const char *const *user_ids, int n);

/* {key: [ ... ]} around items written between the two calls (lists that
 * GitBook answers without pagination). */
void wrapped_list_open(struct jw *g, const char *key);
void wrapped_list_close(struct jw *g);

#endif
