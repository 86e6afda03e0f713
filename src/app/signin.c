/*
 * signin.c - the sign-in page (GET /signin), signing in (POST /signin) and
 * out (POST /signout): the HTTP side of domain/sessions.h.
 *
 * Login CSRF: GET /signin sets a pre-session cookie (APP_SIGNIN_COOKIE, 32
 * random bytes in hex, HttpOnly, SameSite=Strict, Path=/signin, one hour)
 * and writes the same value into the form's APP_CSRF_FIELD; POST /signin
 * refuses (403) unless both are present and equal. Another site can neither
 * read the cookie nor send it along, so it cannot sign a browser in to an
 * account of its choosing.
 *
 * A sign-in runs in three steps so that the ~100 ms password check holds no
 * transaction: (1) a read transaction checks the rate limit and reads the
 * user's password hash, (2) the check, (3) a write transaction records the
 * failure or starts the session. Every refusal of a password (unknown email,
 * no password set, wrong password) is the same 401 page with the same text,
 * after the same argon2id work (domain/sessions.h).
 *
 * Pages: small HTML of their own in the published site's palette (light and
 * dark from prefers-color-scheme), a label on every control, a visible focus
 * ring, no script. The CSP allows only the inline style below.
 */
#include "app/app.h"
#include "app/session.h"
#include "domain/sessions.h"
#include "http/form.h"
#include "http/http.h"
#include "site/site.h"
#include "util/err.h"
#include "util/log.h"
#include "util/text.h"

#include <sodium.h>
#include <string.h>
#include <strings.h>

#define SIGNIN_CSP                                                                                                  \
	"default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'self'; " \
	"frame-ancestors 'none'"


/* argon2id holds 64 MiB for ~100 ms: at most this many hashes or checks run
 * at once in the process (the others get a 503 page at once rather than
 * memory growing with the HTTP threads). */
#define APP_PASSWORD_WORK_MAX 4

static bool password_work_enter(struct req *r)
{
	/* The counter is the server's only mutable state this file touches. */
	atomic_int *n = (atomic_int *)&r->srv->password_work;

	if (atomic_fetch_add(n, 1) < APP_PASSWORD_WORK_MAX)
		return true;
	atomic_fetch_sub(n, 1);
	return false;
}

static void password_work_leave(struct req *r)
{
	atomic_fetch_sub((atomic_int *)&r->srv->password_work, 1);
}

static const char style[] =
	":root{--primary:#346ddb;--bg:#fff;--fg:#1f2328;--muted:#59636e;--border:#d0d7de;--soft:#f6f8fa;"
	"--danger:#cf222e;color-scheme:light dark}"
	"@media (prefers-color-scheme:dark){:root{--primary:#6d9cf0;--bg:#0f1115;--fg:#e6e8eb;--muted:#9aa4b2;"
	"--border:#30363d;--soft:#171a20;--danger:#f85149}}"
	"*{box-sizing:border-box}"
	"body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.6 system-ui,-apple-system,\"Segoe UI\","
	"Roboto,sans-serif;display:grid;place-items:center;min-height:100vh;padding:16px}"
	"main{width:100%;max-width:24rem;background:var(--soft);border:1px solid var(--border);border-radius:8px;"
	"padding:24px}"
	"h1{font-size:1.4rem;margin:0 0 16px}p{margin:0 0 16px}.muted{color:var(--muted);font-size:14px}"
	"label{display:block;font-weight:600;margin:12px 0 4px}"
	"label.check{font-weight:400;font-size:14px}label.check input{width:auto;margin:0 6px 0 0}"
	"input{width:100%;font:inherit;padding:8px 10px;border:1px solid var(--border);border-radius:6px;"
	"background:var(--bg);color:var(--fg)}"
	"button{margin-top:20px;width:100%;font:inherit;font-weight:600;padding:8px 12px;border:0;border-radius:6px;"
	"background:var(--primary);color:#fff;cursor:pointer}"
	"a{color:var(--primary)}"
	"input:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid var(--primary);outline-offset:2px}"
	".error{color:var(--danger);border:1px solid var(--danger);border-radius:6px;padding:8px 10px}";

/* A token we issued: 64 lowercase hex characters. */
static bool well_formed(const char *t)
{
	return t && strlen(t) == 64 && strspn(t, "0123456789abcdef") == 64;
}

/* Where to go after signing in: a path on this origin (one leading '/',
 * never "//" or "/\", printable ASCII only, so it is safe in Location), or
 * "/". */
static const char *safe_next(const char *next)
{
	size_t n = next ? strlen(next) : 0;

	if (n < 1 || n > 1024 || next[0] != '/' || next[1] == '/' || next[1] == '\\')
		return "/";
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)next[i] < 0x21 || (unsigned char)next[i] > 0x7e)
			return "/";
	return next;
}

/* The page around body_html: status, our headers (at most 6 in all with
 * the caller's Set-Cookie). */
static int page(struct req *r, int status, const char *title, struct jw *body)
{
	struct jw out;
	int rc;

	jw_init(&out);
	html_raw(&out, "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
		       "<meta name=\"robots\" content=\"noindex\"><title>");
	html_esc(&out, title);
	html_raw(&out, " · docsd</title><style>");
	html_raw(&out, style);
	html_raw(&out, "</style></head><body><main>");
	if (body->len)
		jw_put(&out, body->buf, body->len);
	html_raw(&out, "</main></body></html>\n");
	if (!jw_ok(&out) || !jw_ok(body)) {
		jw_free(&out);
		return err_set(ERR_INTERNAL, "out of memory");
	}
	rc = resp_header(r, "Content-Security-Policy", SIGNIN_CSP);
	if (!rc)
		rc = resp_header(r, "Cache-Control", "no-store");
	if (!rc)
		rc = resp_header(r, "X-Content-Type-Options", "nosniff");
	if (!rc)
		rc = resp_text(r, status, "text/html; charset=utf-8", out.buf, out.len);
	jw_free(&out);
	return rc;
}

/* The pre-session token of this browser (its cookie's), or a new one with
 * its Set-Cookie added to r. */
static int pre_token(struct req *r, const char **out)
{
	const char *pre = req_cookie(r, APP_SIGNIN_COOKIE);
	unsigned char raw[32];
	char *hex;

	if (well_formed(pre)) {
		*out = pre;
		return 0;
	}
	if (!(hex = arena_alloc(&r->arena, 65)) || dom_crypto_init())
		return err_set(ERR_INTERNAL, "cannot make a token");
	randombytes_buf(raw, sizeof(raw));
	hex_encode(hex, raw, sizeof(raw));
	*out = hex;
	return resp_header(r, "Set-Cookie",
			   arena_printf(&r->arena, APP_SIGNIN_COOKIE "=%s; Path=/signin; Max-Age=3600; HttpOnly; SameSite=Strict%s",
					hex, app_cookie_secure(r)));
}

/* The sign-in form: message (or NULL) above it, email kept. Sets the
 * pre-session cookie when the browser has none of ours. */
static int form_page(struct req *r, int status, const char *message, const char *email, const char *next)
{
	const char *pre = NULL;
	struct jw b;
	int rc;

	if ((rc = pre_token(r, &pre)))
		return rc;
	jw_init(&b);
	html_raw(&b, "<h1>Sign in to docsd</h1>");
	if (message) {
		html_raw(&b, "<p class=\"error\" role=\"alert\">");
		html_esc(&b, message);
		html_raw(&b, "</p>");
	}
	html_raw(&b, "<form method=\"post\" action=\"/signin\"><input type=\"hidden\" name=\"" APP_CSRF_FIELD "\" value=\"");
	html_esc(&b, pre);
	html_raw(&b, "\"><input type=\"hidden\" name=\"next\" value=\"");
	html_esc(&b, safe_next(next));
	html_raw(&b, "\"><label for=\"email\">Email</label><input id=\"email\" name=\"email\" type=\"email\" "
		     "autocomplete=\"username\" required autofocus value=\"");
	html_esc(&b, email ? email : "");
	html_raw(&b, "\"><label for=\"password\">Password</label><input id=\"password\" name=\"password\" "
		     "type=\"password\" autocomplete=\"current-password\" required>"
		     "<button type=\"submit\">Sign in</button></form>"
		     "<p class=\"muted\" style=\"margin:16px 0 0\">No password yet? An administrator sets the first one with "
		     "<code>docsd user password --email you@example.com</code>.</p>");
	rc = page(r, status, "Sign in", &b);
	jw_free(&b);
	return rc;
}

/* An error page with a way back to the form. */
static int message_page(struct req *r, int status, const char *title, const char *text)
{
	struct jw b;
	int rc;

	jw_init(&b);
	html_raw(&b, "<h1>");
	html_esc(&b, title);
	html_raw(&b, "</h1><p>");
	html_esc(&b, text);
	html_raw(&b, "</p><p><a href=\"/signin\">Sign in</a></p>");
	rc = page(r, status, title, &b);
	jw_free(&b);
	return rc;
}

static int redirect(struct req *r, const char *location)
{
	int rc = resp_header(r, "Location", location);

	if (!rc)
		rc = resp_header(r, "Cache-Control", "no-store");
	return rc ? rc : resp_text(r, 303, "text/plain; charset=utf-8", "", 0);
}

/* GET /signin: who is signed in, or the form. */
static int signin_get(struct req *r)
{
	struct store_tx tx;
	const char *user_id = NULL, *csrf = NULL;
	struct user u;
	struct jw b;
	int rc;

	if ((rc = store_tx_begin(r->srv->store, &tx, 0, &r->arena)))
		return rc;
	rc = app_session_user(r, &tx, &user_id, &csrf);
	if (rc == 0)
		rc = store_user_get(&tx, user_id, &u);
	store_tx_rollback(&tx);
	if (rc == ERR_UNAUTHORIZED) {
		err_clear();
		return form_page(r, 200, NULL, NULL, req_query(r, "next"));
	}
	if (rc)
		return rc;
	jw_init(&b);
	html_raw(&b, "<h1>Signed in</h1><p>You are signed in as <strong>");
	html_esc(&b, u.email);
	html_raw(&b, "</strong>.</p><p><a href=\"");
	html_esc(&b, safe_next(req_query(r, "next")));
	html_raw(&b, "\">Continue</a></p><form method=\"post\" action=\"/signout\"><input type=\"hidden\" name=\"" APP_CSRF_FIELD
		     "\" value=\"");
	html_esc(&b, csrf);
	html_raw(&b, "\"><button type=\"submit\">Sign out</button></form>");
	rc = page(r, 200, "Signed in", &b);
	jw_free(&b);
	return rc;
}

/* POST /signin. */
static int signin_post(struct req *r)
{
	struct store_tx tx;
	const char *pre = req_cookie(r, APP_SIGNIN_COOKIE), *sent = NULL, *email = NULL, *password = NULL, *next = NULL;
	const char *user_id = NULL, *hash = NULL, *addr = req_client_addr(r), *ct = req_header(r, "Content-Type");
	int64_t retry_ms = 0;
	struct dom d;
	bool ok;
	int rc;

	if (r->body_too_large)
		return message_page(r, 413, "Too large", "The form sent more than the server accepts.");
	if (!ct || strncasecmp(ct, "application/x-www-form-urlencoded", 33) != 0)
		return message_page(r, 415, "Not a form", "Sign in with the form on this page.");
	if (form_field(&r->arena, r->body, r->body_len, APP_CSRF_FIELD, &sent) < 0 ||
	    form_field(&r->arena, r->body, r->body_len, "email", &email) < 0 ||
	    form_field(&r->arena, r->body, r->body_len, "password", &password) < 0 ||
	    form_field(&r->arena, r->body, r->body_len, "next", &next) < 0)
		return form_page(r, 400, "The form could not be read: try again.", NULL, NULL);
	/* Login CSRF: the form must come from our page in this browser. */
	if (!well_formed(pre) || !app_token_eq(pre, sent))
		return form_page(r, 403, "This sign-in form has expired or did not come from this site: sign in again.",
				 NULL, next);
	if (!email || !*email || !password || !*password || strlen(email) > 320 || strlen(password) > DOM_PASSWORD_MAX)
		return form_page(r, 400, "Enter your email and your password.", email && strlen(email) <= 320 ? email : NULL,
				 next);

	/* 1: the rate limit and the hash, in a read transaction. */
	if ((rc = store_tx_begin(r->srv->store, &tx, 0, &r->arena)))
		return rc;
	dom_init(&d, r->srv, &tx, &r->arena, NULL);
	rc = dom_signin_lookup(&d, email, addr, &user_id, &hash, &retry_ms);
	store_tx_rollback(&tx);
	if (rc == ERR_RATE_LIMITED) {
		long long secs = (long long)((retry_ms + 999) / 1000);

		err_clear();
		if ((rc = resp_header(r, "Retry-After", arena_printf(&r->arena, "%lld", secs))))
			return rc;
		return form_page(r, 429,
				 arena_printf(&r->arena,
					      "Too many failed attempts from here. Wait %lld second%s, then try again.", secs,
					      secs == 1 ? "" : "s"),
				 email, next);
	}
	if (rc)
		return rc;
	/* 2: the password, with nothing held; a bounded number at once. */
	if (!password_work_enter(r))
		return form_page(r, 503, "Too many sign-ins at this moment. Try again in a few seconds.", email, next);
	ok = dom_password_check(hash, password) && user_id;
	password_work_leave(r);
	/* 3: record the outcome. */
	if ((rc = store_tx_begin(r->srv->store, &tx, 1, &r->arena)))
		return rc;
	dom_init(&d, r->srv, &tx, &r->arena, NULL);
	if (ok) {
		rc = dom_signin_still_valid(&d, user_id, hash);
		if (rc == ERR_CONFLICT) {
			err_clear();
			ok = false;
		}
	}
	if (rc == 0 && ok)
		rc = dom_signin_succeeded(&d, email, addr);
	if (rc == 0)
		rc = ok ? app_session_start(r, &tx, user_id) : dom_signin_failed(&d, email, addr);
	if (rc == 0)
		rc = store_tx_commit(&tx);
	else
		store_tx_rollback(&tx);
	if (rc) {
		r->nheaders = 0; /* no session cookie for a session not stored */
		return rc;
	}
	if (!ok)
		return form_page(r, 401, "The email or the password is not right.", email, next);
	/* The pre-session cookie has done its job. */
	if ((rc = resp_header(r, "Set-Cookie",
			      arena_printf(&r->arena, APP_SIGNIN_COOKIE "=; Path=/signin; Max-Age=0; HttpOnly; SameSite=Strict%s",
					   app_cookie_secure(r)))))
		return rc;
	return redirect(r, safe_next(next));
}

/* POST /signout: ends the session (its CSRF token required). */
static int signout_post(struct req *r)
{
	struct store_tx tx;
	const char *user_id = NULL, *csrf = NULL, *token = req_cookie(r, APP_SESSION_COOKIE);
	struct dom d;
	int rc;

	if ((rc = store_tx_begin(r->srv->store, &tx, 1, &r->arena)))
		return rc;
	dom_init(&d, r->srv, &tx, &r->arena, NULL);
	rc = app_session_user(r, &tx, &user_id, &csrf);
	if (rc == 0 && !app_csrf_ok(r, csrf)) {
		store_tx_rollback(&tx);
		return message_page(r, 403, "Not signed out",
				    "This form did not come from this site. Sign out with the button on docsd's pages.");
	}
	if (rc == ERR_UNAUTHORIZED) {
		err_clear();
		rc = 0; /* nobody to sign out: only the cookie goes */
	} else if (rc == 0) {
		rc = dom_session_end(&d, token);
	}
	if (rc == 0)
		rc = store_tx_commit(&tx);
	else
		store_tx_rollback(&tx);
	if (rc)
		return rc;
	if ((rc = resp_header(r, "Set-Cookie", app_session_cookie_clear(r))))
		return rc;
	return redirect(r, "/signin");
}

/* The password form of a link: token kept in a hidden field. */
static int password_form(struct req *r, int status, const char *message, const char *token, const char *email)
{
	const char *pre = NULL;
	struct jw b;
	int rc;

	if ((rc = pre_token(r, &pre)))
		return rc;
	jw_init(&b);
	html_raw(&b, "<h1>Set your password</h1>");
	if (message) {
		html_raw(&b, "<p class=\"error\" role=\"alert\">");
		html_esc(&b, message);
		html_raw(&b, "</p>");
	}
	html_raw(&b, "<p>For <strong>");
	html_esc(&b, email);
	html_raw(&b, "</strong>. At least 8 characters.</p><form method=\"post\" action=\"/signin/password\">"
		     "<input type=\"hidden\" name=\"" APP_CSRF_FIELD "\" value=\"");
	html_esc(&b, pre);
	html_raw(&b, "\"><input type=\"hidden\" name=\"token\" value=\"");
	html_esc(&b, token);
	html_raw(&b, "\"><label for=\"password\">New password</label><input id=\"password\" name=\"password\" "
		     "type=\"password\" autocomplete=\"new-password\" minlength=\"8\" required autofocus>"
		     "<label for=\"confirm\">The same again</label><input id=\"confirm\" name=\"confirm\" "
		     "type=\"password\" autocomplete=\"new-password\" minlength=\"8\" required>"
		     /* Unchecked (the default, and what a form without the field
		      * means): a reset revokes the API tokens too (dom_password_set). */
		     "<label class=\"check\"><input type=\"checkbox\" name=\"keep_tokens\" value=\"1\"> "
		     "Keep my API tokens working (otherwise a new password revokes them)</label>"
		     "<button type=\"submit\">Set password and sign in</button></form>");
	rc = page(r, status, "Set your password", &b);
	jw_free(&b);
	return rc;
}

/* The user a link is valid for (read in tx), or a 404 page (1). */
static int link_user(struct req *r, struct store_tx *tx, const char *token, struct user *u)
{
	struct dom d;
	const char *uid;
	int rc;

	dom_init(&d, r->srv, tx, &r->arena, NULL);
	rc = dom_password_link_check(&d, token, &uid);
	if (rc == 0)
		rc = store_user_get(tx, uid, u);
	return rc;
}

/* GET /signin/password?token=: the form of a valid link. */
static int password_get(struct req *r)
{
	const char *token = req_query(r, "token");
	struct store_tx tx;
	struct user u;
	int rc;

	if ((rc = store_tx_begin(r->srv->store, &tx, 0, &r->arena)))
		return rc;
	rc = link_user(r, &tx, token, &u);
	store_tx_rollback(&tx);
	if (rc == ERR_NOT_FOUND)
		return message_page(r, 404, "Link not valid",
				    "This password link is not valid: it was used already, has expired, or is not complete. "
				    "Ask for a new one.");
	return rc ? rc : password_form(r, 200, NULL, token, u.email);
}

/* POST /signin/password: set the password of a valid link, then sign in. */
static int password_post(struct req *r)
{
	const char *pre = req_cookie(r, APP_SIGNIN_COOKIE), *sent = NULL, *token = NULL, *password = NULL, *confirm = NULL;
	const char *ct = req_header(r, "Content-Type"), *keep = NULL;
	char hash[DOM_PASSWORD_HASH_MAX];
	struct store_tx tx;
	struct user u;
	struct dom d;
	int rc;

	if (r->body_too_large)
		return message_page(r, 413, "Too large", "The form sent more than the server accepts.");
	if (!ct || strncasecmp(ct, "application/x-www-form-urlencoded", 33) != 0)
		return message_page(r, 415, "Not a form", "Use the form of your password link.");
	if (form_field(&r->arena, r->body, r->body_len, APP_CSRF_FIELD, &sent) < 0 ||
	    form_field(&r->arena, r->body, r->body_len, "token", &token) < 0 ||
	    form_field(&r->arena, r->body, r->body_len, "password", &password) < 0 ||
	    form_field(&r->arena, r->body, r->body_len, "confirm", &confirm) < 0 ||
	    form_field(&r->arena, r->body, r->body_len, "keep_tokens", &keep) < 0)
		return message_page(r, 400, "Not read", "The form could not be read: open your link again.");
	if (!well_formed(pre) || !app_token_eq(pre, sent))
		return message_page(r, 403, "Form expired",
				    "This form has expired or did not come from this site: open your link again.");
	/* The link, before the ~100 ms hash. */
	if ((rc = store_tx_begin(r->srv->store, &tx, 0, &r->arena)))
		return rc;
	rc = link_user(r, &tx, token, &u);
	store_tx_rollback(&tx);
	if (rc == ERR_NOT_FOUND)
		return message_page(r, 404, "Link not valid",
				    "This password link is not valid: it was used already, has expired, or is not complete.");
	if (rc)
		return rc;
	if (!password || !confirm || strcmp(password, confirm) != 0)
		return password_form(r, 400, "The two passwords are not the same.", token, u.email);
	if (!password_work_enter(r))
		return password_form(r, 503, "Too many sign-ins at this moment. Try again in a few seconds.", token,
				     u.email);
	rc = dom_password_hash(password, hash);
	password_work_leave(r);
	if (rc == ERR_INVALID)
		return password_form(r, 400, "The password must be 8 to 1024 bytes long.", token, u.email);
	if (rc)
		return rc;
	/* Checked again in the write transaction: a link sets one password. */
	if ((rc = store_tx_begin(r->srv->store, &tx, 1, &r->arena)))
		return rc;
	dom_init(&d, r->srv, &tx, &r->arena, NULL);
	rc = link_user(r, &tx, token, &u);
	if (rc == 0)
		rc = dom_password_set(&d, u.id, hash, keep && strcmp(keep, "1") == 0, NULL);
	if (rc == 0)
		rc = app_session_start(r, &tx, u.id);
	if (rc == 0)
		rc = store_tx_commit(&tx);
	else
		store_tx_rollback(&tx);
	if (rc) {
		r->nheaders = 0;
		if (rc == ERR_NOT_FOUND)
			return message_page(r, 404, "Link not valid", "This password link was used already.");
		return rc;
	}
	return redirect(r, "/");
}

int app_signin_serve(struct req *r)
{
	bool get = strcmp(r->method, "GET") == 0 || strcmp(r->method, "HEAD") == 0;
	bool post = strcmp(r->method, "POST") == 0;
	int rc;

	err_clear();
	if (strcmp(r->url, "/signin") == 0 && (get || post))
		rc = get ? signin_get(r) : signin_post(r);
	else if (strcmp(r->url, "/signin/password") == 0 && (get || post))
		rc = get ? password_get(r) : password_post(r);
	else if (strcmp(r->url, "/signout") == 0 && post)
		rc = signout_post(r);
	else if (strcmp(r->url, "/signin") == 0 || strcmp(r->url, "/signout") == 0) {
		r->nheaders = 0;
		if ((rc = resp_header(r, "Allow", strcmp(r->url, "/signin") == 0 ? "GET, HEAD, POST" : "POST")) == 0)
			rc = message_page(r, 405, "Method not allowed", "Use the sign-in form.");
	} else
		return 1;
	if (rc) {
		log_error("app request %ld %s %s failed: %s", r->id, r->method, r->url, err_message());
		r->nheaders = 0;
		if (message_page(r, err_status(rc) >= 500 ? 500 : err_status(rc), "Something went wrong",
				 "Try again in a moment.")) {
			r->nheaders = 0;
			resp_text(r, 500, "text/plain; charset=utf-8", "internal error\n", 15);
		}
	}
	return 0;
}
