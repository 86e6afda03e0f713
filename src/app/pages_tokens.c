/*
 * pages_tokens.c - personal API tokens (/settings/tokens, issue 25: "an API
 * token can still be used by scripts; the interface never shows a token
 * again after creating one").
 *
 * GET lists the signed-in user's tokens (name, created, the first digits of
 * the hash that names each) with a create form and a revoke button per
 * token. POST /settings/tokens creates one through dom_token_create and
 * answers the page itself with the secret, once: it is not a redirect,
 * because the secret is never stored and a GET could not show it again (the
 * app's responses are no-store, so the back button does not bring it back
 * either). POST /settings/tokens/{tokenId}/revoke revokes through
 * dom_token_revoke, then 303 to the list. Every POST is a write
 * transaction with the session's CSRF token (app.c's APP_WRITE).
 */
#include "app/pages.h"
#include "app/app.h"
#include "domain/tokens.h"
#include "http/form.h"
#include "site/site.h"
#include "util/err.h"

#include <string.h>

/* The page: the one-time secret when just created, the error of a refused
 * form, the create form, the list. */
static int render(struct app_page *p, const char *secret, const char *error, const char *name)
{
	struct app_crumb crumbs[] = { { "Home", "/" }, { "API tokens", NULL } };
	struct user_token *rows = NULL;
	struct jw *b = p->out;
	int n = 0, rc;

	if ((rc = dom_token_list(p->d, &rows, &n)))
		return rc;
	app_frame_begin(p, "API tokens", crumbs, 2);
	html_raw(b, "<h1>API tokens</h1><p class=\"mute\">A personal token lets a script use the API "
		    "(<code>Authorization: Bearer &lt;token&gt;</code>) as you, with your access. It is shown once, "
		    "when it is created; revoke it here when it is no longer needed or may have leaked.</p>");
	if (secret) {
		html_raw(b, "<div class=\"hint hint-success\" role=\"status\"><p><strong>Your new token.</strong> Copy it "
			    "now: it is not stored and will not be shown again.</p><p><label for=\"new-token\">Token</label> "
			    "<input id=\"new-token\" class=\"secret\" type=\"text\" readonly spellcheck=\"false\" "
			    "autocomplete=\"off\" size=\"48\" value=\"");
		app_text(b, secret);
		html_raw(b, "\"></p></div>");
	}
	if (error) {
		html_raw(b, "<div class=\"hint hint-danger\" role=\"alert\"><p>");
		app_text(b, error);
		html_raw(b, "</p></div>");
	}
	html_raw(b, "<h2>Create a token</h2><form class=\"search\" method=\"post\" action=\"/settings/tokens\">"
		    "<input type=\"hidden\" name=\"" APP_CSRF_FIELD "\" value=\"");
	app_text(b, p->csrf ? p->csrf : "");
	html_raw(b, "\"><label for=\"token-name\">Name (what uses it, e.g. \"CI publishing\")</label>"
		    "<input id=\"token-name\" name=\"name\" type=\"text\" required maxlength=\"64\" value=\"");
	app_text(b, error && name ? name : "");
	html_raw(b, "\"><button type=\"submit\">Create token</button></form><h2>Your tokens</h2>");
	if (n == 0) {
		html_raw(b, "<p class=\"empty\">You have no API tokens.</p>");
		app_frame_end(p);
		return 0;
	}
	html_raw(b, "<div class=\"scroll-x\"><table><thead><tr><th scope=\"col\">Name</th><th scope=\"col\">Created</th>"
		    "<th scope=\"col\">Identifier</th><th scope=\"col\"><span class=\"mute\">Action</span></th></tr>"
		    "</thead><tbody>");
	for (int i = 0; i < n; i++) {
		const struct user_token *t = &rows[i];
		html_raw(b, "<tr><td>");
		if (t->name && *t->name)
			app_text(b, t->name);
		else
			html_raw(b, "<span class=\"mute\">(no name: made by docsd token)</span>");
		html_raw(b, "</td><td>");
		app_date(b, t->created_at);
		html_raw(b, "</td><td><code>");
		app_text(b, t->id);
		html_raw(b, "</code></td><td><form class=\"inline\" method=\"post\" action=\"");
		app_href(b, "/settings/tokens/", t->id);
		html_raw(b, "/revoke\"><input type=\"hidden\" name=\"" APP_CSRF_FIELD "\" value=\"");
		app_text(b, p->csrf ? p->csrf : "");
		html_raw(b, "\"><button type=\"submit\" aria-label=\"Revoke ");
		app_text(b, t->name && *t->name ? t->name : t->id);
		html_raw(b, "\">Revoke</button></form></td></tr>");
	}
	html_raw(b, "</tbody></table></div>");
	app_frame_end(p);
	return 0;
}

int page_tokens(struct app_page *p)
{
	return render(p, NULL, NULL, NULL);
}

int page_token_create(struct app_page *p)
{
	struct req *r = p->r;
	struct user_token row;
	const char *name = NULL, *secret = NULL;
	int rc, f = form_field(&r->arena, r->body, r->body_len, "name", &name);

	if (f < 0) {
		p->status = 400;
		return render(p, NULL, "name: the field could not be read (malformed form data)", NULL);
	}
	rc = dom_token_create(p->d, f ? name : NULL, &secret, &row);
	if (rc == ERR_INVALID || rc == ERR_CONFLICT) {
		/* Refused before anything was written: the form again, with why. */
		const char *msg = arena_strdup(&r->arena, err_message());
		p->status = err_status(rc);
		err_clear();
		return render(p, NULL, msg, name);
	}
	if (rc)
		return rc;
	p->status = 201;
	return render(p, secret, NULL, NULL);
}

int page_token_revoke(struct app_page *p)
{
	int rc = dom_token_revoke(p->d, req_param(p->r, "tokenId"));

	if (rc)
		return rc;
	p->location = "/settings/tokens";
	return 0;
}
