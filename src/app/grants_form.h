/*
 * grants_form.h - the permissions section of a space's or a collection's
 * settings page (app/grants_form.c): one table of grants and one pair of
 * forms for both kinds, on the domain functions behind GitBook's permission
 * operations (dom_grants_list, dom_grants_invite, dom_grant_update, dom_grant_remove; the same
 * as api/grants.c's), which decide who may list, grant and remove.
 *
 * The forms post to `base` ("/s/{spaceId}/~/permissions" or
 * "/c/{collectionId}/permissions"): a Grant form (principal "user:<id>" or
 * "team:<id>", role) at base, per grant a role select and Change at
 * base/{user|team}/{principalId}/role and a Remove button at
 * base/{user|team}/{principalId}/remove. The page's routes name the
 * principal's kind "kind" and its id "principalId".
 */
#ifndef DOCSD_APP_GRANTS_FORM_H
#define DOCSD_APP_GRANTS_FORM_H

#include "app/pages.h"
#include "domain/spaces.h"

/* The grants on the object (kind, id of organization org_id) and the forms
 * to grant, change and remove; `what` names the object in the page's text
 * ("space", "collection"); base is escaped (app_path); page_path (escaped)
 * is the settings page, for the "next page" link of the grants to users
 * (the page's ?page= and ?limit=, app_list). 0, or an err.h code. */
int app_grants_section(struct app_page *p, enum dom_kind kind, const char *id, const char *org_id, const char *what,
		       const char *base, const char *page_path);

/* The Grant form's POST: parse principal and role (ERR_INVALID naming the
 * field), then dom_grants_invite. 0, or an err.h code for the page's
 * app_form_refused. */
int app_grant_submit(struct app_page *p, enum dom_kind kind, const char *id);

/* A Change form's POST (route params kind, principalId; field role):
 * dom_grant_update. ERR_NOT_FOUND for an unknown kind or a grant that does
 * not exist, ERR_INVALID for a role that is not one. */
int app_grant_role_submit(struct app_page *p, enum dom_kind kind, const char *id);

/* A Remove button's POST (route params kind, principalId): dom_grant_remove;
 * ERR_NOT_FOUND for an unknown kind or a grant that does not exist. */
int app_grant_remove_submit(struct app_page *p, enum dom_kind kind, const char *id);

#endif
