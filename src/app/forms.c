/*
 * forms.c - what every form page of the web interface shares (pages.h):
 * the CSRF field, the refusal box, building a path from ids, and turning a
 * refused write into the form shown again with why.
 *
 * A refusal (app_form_refused) is a 4xx other than 404 from the domain or
 * from the form's own parsing: the write transaction is rolled back, so
 * nothing the refused call wrote is kept, and the page continues in a new
 * read transaction with the status and the message. A 404 stays the
 * dispatcher's one 404 page (another organization's ids look missing); a
 * 5xx stays its error page.
 */
#include "app/app.h"
#include "app/pages.h"
#include "domain/domain.h"
#include "http/form.h"
#include "http/services.h"
#include "site/site.h"
#include "store/store.h"
#include "util/err.h"
#include "util/text.h"

#include <string.h>

void app_hidden_csrf(struct app_page *p)
{
	html_raw(p->out, "<input type=\"hidden\" name=\"" APP_CSRF_FIELD "\" value=\"");
	app_text(p->out, p->csrf ? p->csrf : "");
	html_raw(p->out, "\">");
}

void app_error_box(struct jw *b, const char *msg)
{
	if (!msg)
		return;
	html_raw(b, "<div class=\"hint hint-danger\" role=\"alert\"><p>");
	app_text(b, msg);
	html_raw(b, "</p></div>");
}

const char *app_path(struct app_page *p, const char *prefix, const char *id, const char *suffix)
{
	return app_path2(p, prefix, id, NULL, NULL, suffix);
}

const char *app_path2(struct app_page *p, const char *prefix, const char *id, const char *prefix2, const char *id2,
		      const char *suffix)
{
	struct jw h;
	const char *out;

	jw_init(&h);
	app_href(&h, prefix, id ? id : "");
	if (prefix2)
		app_href(&h, prefix2, id2 ? id2 : "");
	if (suffix)
		html_raw(&h, suffix);
	out = jw_take(&h, &p->r->arena, "/");
	return out;
}

int app_form_refused(struct app_page *p, int rc, const char **msg)
{
	struct req *r = p->r;
	int status = err_status(rc);

	if (rc == ERR_NOT_FOUND || status < 400 || status >= 500)
		return rc;
	*msg = arena_strdup(&r->arena, err_message());
	err_clear();
	store_tx_rollback(&r->tx);
	if ((rc = store_tx_begin(r->srv->store, &r->tx, 0, &r->arena)))
		return rc;
	dom_init(&r->dom, r->srv, &r->tx, &r->arena, p->user_id);
	p->d = &r->dom;
	p->status = status;
	p->location = NULL;
	p->out->len = 0;
	p->out->oom = false;
	return 0;
}

int app_list(struct app_page *p, struct list_req *lr, struct cursor *cur, int default_desc)
{
	int rc = req_list(p->r, lr, cur, NULL, default_desc);

	if (rc)
		return rc;
	if (lr->limit > APP_LIST_MAX)
		lr->limit = APP_LIST_MAX;
	return 0;
}

void app_pager(struct app_page *p, const char *path, const char *const *keep, const char *next, const char *label)
{
	struct jw *b = p->out;
	const char *sep = "?";

	if (!next)
		return;
	html_raw(b, "<p class=\"pager\"><a rel=\"next\" href=\"");
	html_raw(b, path);
	for (int i = 0; keep && keep[i]; i++) {
		const char *v = req_query(p->r, keep[i]);
		if (!v || !*v)
			continue;
		html_raw(b, sep);
		html_raw(b, keep[i]);
		html_raw(b, "=");
		app_text(b, app_query_enc(&p->r->arena, v));
		sep = "&amp;";
	}
	/* limit= too: the next page has the size of this one. */
	if (req_query(p->r, "limit")) {
		html_raw(b, sep);
		html_raw(b, "limit=");
		app_text(b, app_query_enc(&p->r->arena, req_query(p->r, "limit")));
		sep = "&amp;";
	}
	html_raw(b, sep);
	html_raw(b, "page=");
	app_text(b, app_query_enc(&p->r->arena, next));
	html_raw(b, "\">");
	app_text(b, label);
	html_raw(b, "</a></p>");
}

int app_form_text(struct app_page *p, const char *name, long min, long max, const char **out, const char **bad)
{
	struct req *r = p->r;
	int f = form_field(&r->arena, r->body, r->body_len, name, out);
	long n;

	if (f < 0) {
		*bad = arena_printf(&r->arena, "%s: must be valid text", name);
		return -1;
	}
	if (f == 0)
		return 0;
	n = utf8_len(*out);
	if (n < min || (max > 0 && n > max)) {
		*bad = arena_printf(&r->arena, "%s: must be %ld to %ld characters long", name, min, max);
		return -1;
	}
	return 1;
}

void app_select(struct jw *b, const char *id_prefix, const char *name, const char *label, const char *const *list,
		const char *cur)
{
	html_raw(b, "<p><label for=\"");
	html_raw(b, id_prefix);
	html_raw(b, name);
	html_raw(b, "\">");
	html_raw(b, label);
	html_raw(b, "</label><br><select id=\"");
	html_raw(b, id_prefix);
	html_raw(b, name);
	html_raw(b, "\" name=\"");
	html_raw(b, name);
	html_raw(b, "\">");
	for (int i = 0; list[i]; i++) {
		html_raw(b, "<option value=\"");
		app_text(b, list[i]);
		html_raw(b, cur && strcmp(cur, list[i]) == 0 ? "\" selected>" : "\">");
		app_text(b, list[i]);
		html_raw(b, "</option>");
	}
	html_raw(b, "</select></p>");
}
