/*
 * session.h - the sign-in pages (app/signin.c) and the session helpers they
 * share with app/session.c. The contract with the pages is app/app.h
 * (app_session_user, app_session_start, app_csrf_ok).
 */
#ifndef DOCSD_APP_SESSION_H
#define DOCSD_APP_SESSION_H

#include <stddef.h>

struct req;

/* The pre-session cookie of the sign-in form (login CSRF: its value must
 * come back as the form's APP_CSRF_FIELD). */
#define APP_SIGNIN_COOKIE "docsd_signin"

/* GET /signin (the form, or who is signed in), POST /signin, POST /signout.
 * 0 when it answered r, 1 when r's path is none of these (the caller goes
 * on). Opens and commits its own transactions. */
int app_signin_serve(struct req *r);

/* The client's address: req_client_addr's (the TCP peer, or X-Forwarded-For
 * through --trusted-proxy only). */
const char *app_client_addr(struct req *r);
/* "; Secure" when --public-url is https, else "". */
const char *app_cookie_secure(struct req *r);
/* The Set-Cookie value that ends the session cookie. */
const char *app_session_cookie_clear(struct req *r);
/* Whether two tokens are equal, in time independent of their content. */
int app_token_eq(const char *a, const char *b);

#endif
