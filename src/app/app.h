/*
 * app.h - the web interface behind `urls.app` (issue 25): server-rendered
 * HTML in the published site's style, usable without script, on the same
 * domain functions and access model as the API.
 *
 * Two parts, two files' owners:
 *  - sessions and signing in (app/session.c, app/signin.c): local passwords
 *    (argon2id, libsodium), sessions in the store, cookies, CSRF, rate limits.
 *  - pages (app/app.c dispatches, app/pages_*.c render): every page asks
 *    app_session_user() who is signed in, and app_csrf_ok() before any
 *    state-changing form.
 *
 * URLs (those `urls.app` names): /o/{organizationId}, /s/{spaceId},
 * /s/{spaceId}/... (pages, change requests), /c/{collectionId}; the sign-in
 * pages under /signin, /signout; the app's own assets under /~app/.
 */
#ifndef DOCSD_APP_APP_H
#define DOCSD_APP_APP_H

#include <stdbool.h>

struct req;
struct store_tx;

/* The session cookie's name and the CSRF form field's name. */
#define APP_SESSION_COOKIE "docsd_session"
#define APP_CSRF_FIELD "csrf"

/* The signed-in user of r, from its session cookie, read in tx: 0 with
 * *user_id (into r's arena) and *csrf (the session's CSRF token, for forms),
 * ERR_UNAUTHORIZED without a valid session (none, expired, revoked). */
int app_session_user(struct req *r, struct store_tx *tx, const char **user_id, const char **csrf);

/* Sign user_id in on r: a new session row written in tx (a write
 * transaction), its cookie set on r's response (HttpOnly, SameSite=Lax,
 * Secure under an https --public-url). Used by the password sign-in and by
 * SAML's ACS. */
int app_session_start(struct req *r, struct store_tx *tx, const char *user_id);

/* A state-changing request carries its session's token (form field
 * APP_CSRF_FIELD or header X-CSRF-Token): true when it matches (constant
 * time). */
bool app_csrf_ok(struct req *r, const char *csrf);

/* The web interface's dispatcher, called by the router for a request that
 * is not the API's (/v1...), not a published site's and not one of docsd's
 * own (/healthz...): 0 when it answered, 1 when the path is not the app's. */
int app_serve(struct req *r);

#endif
