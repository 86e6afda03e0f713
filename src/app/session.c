/*
 * session.c - who is signed in (app/app.h's app_session_user,
 * app_session_start, app_csrf_ok): the session cookie, the CSRF token of
 * every form. The rules (lifetime, revocation, hashing) are
 * domain/sessions.h's.
 *
 * The cookie: APP_SESSION_COOKIE=<64 hex>; Path=/; HttpOnly; SameSite=Lax;
 * Max-Age of the session's 14 days; Secure when --public-url is https. Lax
 * keeps cross-site POSTs from carrying it, and every state-changing form
 * also carries the session's own CSRF token (double protection: a browser
 * without SameSite still cannot forge a form).
 */
#include "app/app.h"
#include "app/session.h"
#include "domain/sessions.h"
#include "http/form.h"
#include "http/http.h"
#include "util/err.h"

#include <sodium.h>
#include <string.h>
#include <strings.h>

const char *app_client_addr(struct req *r)
{
	return req_client_addr(r);
}

const char *app_cookie_secure(struct req *r)
{
	return strncasecmp(r->srv->public_url, "https:", 6) == 0 ? "; Secure" : "";
}

const char *app_session_cookie_clear(struct req *r)
{
	return arena_printf(&r->arena, APP_SESSION_COOKIE "=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax%s",
			    app_cookie_secure(r));
}

int app_token_eq(const char *a, const char *b)
{
	size_t n = a ? strlen(a) : 0;

	if (!a || !b || n == 0 || strlen(b) != n)
		return 0;
	return sodium_memcmp(a, b, n) == 0;
}

int app_session_user(struct req *r, struct store_tx *tx, const char **user_id, const char **csrf)
{
	const char *token = req_cookie(r, APP_SESSION_COOKIE);
	struct dom d;

	*user_id = NULL;
	*csrf = NULL;
	if (!token)
		return err_set(ERR_UNAUTHORIZED, "not signed in");
	dom_init(&d, r->srv, tx, &r->arena, NULL);
	return dom_session_lookup(&d, token, user_id, csrf);
}

int app_session_start(struct req *r, struct store_tx *tx, const char *user_id)
{
	const char *old = req_cookie(r, APP_SESSION_COOKIE), *token, *csrf;
	int64_t expires;
	struct dom d;
	int rc;

	dom_init(&d, r->srv, tx, &r->arena, NULL);
	/* A session the browser held before (another user's, or a stale one)
	 * ends: a sign-in always gets a new token (no fixation). */
	if (old && (rc = dom_session_end(&d, old)))
		return rc;
	if ((rc = dom_session_create(&d, user_id, &token, &csrf, &expires)))
		return rc;
	return resp_header(r, "Set-Cookie",
			   arena_printf(&r->arena, APP_SESSION_COOKIE "=%s; Path=/; Max-Age=%lld; HttpOnly; SameSite=Lax%s",
					token, (long long)(DOM_SESSION_TTL_MS / 1000), app_cookie_secure(r)));
}

bool app_csrf_ok(struct req *r, const char *csrf)
{
	const char *sent = req_header(r, "X-CSRF-Token");
	const char *ct = req_header(r, "Content-Type");

	if (!sent && ct && strncasecmp(ct, "application/x-www-form-urlencoded", 33) == 0 &&
	    form_field(&r->arena, r->body, r->body_len, APP_CSRF_FIELD, &sent) != 1)
		sent = NULL;
	return app_token_eq(csrf, sent) != 0;
}
