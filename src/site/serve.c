/*
 * serve.c - a published site's HTTP requests (site.h has the URL scheme).
 *
 * One request, in one read transaction, as docsd itself:
 *   site (by name or Host) -> published? -> share key / visitor token ->
 *   structure, conditions and each visible site space's current revision ->
 *   the view's key (site generation, revisions, visible set, path, prefix)
 *   -> If-None-Match: 304 | the render cache: the stored body | render and
 *   keep it.
 * A cache hit does no markdown or HTML work: only the site row, its
 * structure and the revision lookups (which the revision cache answers).
 * Visibility answers 404 (unpublished, deleted, no or a wrong share key) or
 * 401 (visitor-auth without a valid token) with a small page of its own.
 */
#include "site/site.h"

#include "model/adaptive.h"
#include "model/condition.h"
#include "format/gitbook_tags.h"
#include "json/serialize_sites.h"
#include "domain/content.h"
#include "domain/integrations.h"
#include "domain/openapi.h"
#include "domain/site_redirects.h"
#include "domain/sites.h"
#include "http/http.h"
#include "http/router.h"
#include "server.h"
#include "store/search.h"
#include "util/err.h"
#include "util/log.h"
#include "util/text.h"
#include "util/util.h"

#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define SEARCH_PER_SPACE 10
#define VISITOR_COOKIE "docsd_visitor"

static const char CT_HTML[] = "text/html; charset=utf-8";
static const char CT_MD[] = "text/markdown; charset=utf-8";
static const char CT_TEXT[] = "text/plain; charset=utf-8";
static const char CT_XML[] = "application/xml; charset=utf-8";
/* script-src 'self': docsd's own script only (site.js; nothing inline,
 * nothing from content); connect-src 'self': its search-as-you-type calls. */
static const char CSP[] = "default-src 'none'; img-src * data:; style-src 'self' 'unsafe-inline'; "
			  "script-src 'self'; connect-src 'self'; font-src 'self'; "
			  "form-action 'self'; base-uri 'none'; frame-ancestors 'self'";

/* ---- which requests are the site's ---- */

/* The host[:port] of url, into out. */
static void url_host(const char *url, char *out, size_t n)
{
	const char *h = strstr(url, "://");
	size_t len;

	h = h ? h + 3 : url;
	len = strcspn(h, "/");
	snprintf(out, n, "%.*s", (int)len, h);
}

/* The path component of the public URL ("" when none). */
static const char *url_path(const char *url)
{
	const char *h = strstr(url, "://");
	const char *p = strchr(h ? h + 3 : url, '/');

	return p ? p : "";
}

static bool is_api_path(const char *p)
{
	static const char *const prefixes[] = { "/v1/", "/files/", "/pdf/", "/healthz", "/metrics" };

	if (strcmp(p, "/v1") == 0)
		return true;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (strncmp(p, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return false;
}

/* A Host header that may name a site: not the public URL's, not an address
 * or localhost. */
static bool foreign_host(struct req *r, char *host, size_t n)
{
	const char *h = req_header(r, MHD_HTTP_HEADER_HOST);
	char pub[256];

	if (!h || !*h || strlen(h) >= n)
		return false;
	url_host(r->srv->public_url, pub, sizeof(pub));
	if (strcasecmp(h, pub) == 0)
		return false;
	url_host(r->srv->site_url, pub, sizeof(pub));
	if (strcasecmp(h, pub) == 0)
		return false;
	snprintf(host, n, "%.*s", (int)strcspn(h, ":"), h);
	if (!*host || strcasecmp(host, "localhost") == 0 || host[0] == '[' || strspn(host, "0123456789.") == strlen(host))
		return false;
	for (char *c = host; *c; c++)
		*c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
	return true;
}

/* The path prefix of the origin r arrived on: the site URL's on the site
 * listener, the public URL's on the main one. */
static const char *origin_path(const struct req *r)
{
	return url_path(r->site_origin ? r->srv->site_url : r->srv->public_url);
}

/* {prefix}/sites/... */
static bool sites_path(const struct req *r)
{
	const char *pre = origin_path(r);
	size_t pl = strlen(pre);

	return strncmp(r->url, pre, pl) == 0 && strncmp(r->url + pl, "/sites/", 7) == 0;
}

bool site_request(struct req *r)
{
	char host[256];

	if (sites_path(r))
		return true;
	return !is_api_path(r->url) && foreign_host(r, host, sizeof(host));
}

/* ---- answers ---- */

/* Every site answer: nosniff, so that a twin, llms.txt, a sitemap or the
 * search JSON is never read as another type (HTML, script). */
static int answer(struct req *r, int status, const char *ctype, const char *body, size_t len)
{
	resp_header(r, "X-Content-Type-Options", "nosniff");
	return resp_bytes(r, status, ctype, body, len);
}

/* A page of the server's own for a site it will not show. */
static int plain_page(struct req *r, int status, const char *title, const char *msg)
{
	const char *html = arena_printf(&r->arena,
					"<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
					"content=\"width=device-width, initial-scale=1\"><meta name=\"robots\" content=\"noindex\">"
					"<title>%s</title><style>body{font:16px/1.6 system-ui,sans-serif;color:#1f2328;display:grid;"
					"place-items:center;min-height:90vh;margin:0}main{max-width:36rem;padding:24px;text-align:center}"
					"h1{font-size:1.6rem;margin:0 0 8px}p{color:#59636e}</style></head><body><main><h1>%s</h1>"
					"<p>%s</p></main></body></html>\n",
					title, title, msg);

	resp_header(r, "Cache-Control", "no-store");
	resp_header(r, "X-Robots-Tag", "noindex");
	return answer(r, status, CT_HTML, html, strlen(html));
}

static int not_found(struct req *r)
{
	return plain_page(r, 404, "Page not found", "There is no published site at this address.");
}

static int redirect(struct req *r, const char *location, const char *cookie)
{
	resp_header(r, "Location", location);
	resp_header(r, "Cache-Control", "no-store");
	if (cookie)
		resp_header(r, "Set-Cookie", cookie);
	return answer(r, 302, CT_TEXT, "", 0);
}

/* ---- the two origins (README, "Two origins") ---- */

/* The API routes the site origin serves besides the sites: bytes that a
 * user or an integration chooses, and that must therefore never be served
 * as the web interface's own ('self'). All are public (no token, no
 * session); the router runs them as usual. */
static bool site_origin_api_path(const char *p)
{
	return strcmp(p, "/healthz") == 0 || strncmp(p, "/files/", 7) == 0 || strncmp(p, "/pdf/", 5) == 0 ||
	       route_template_match(SITE_SCRIPT_ROUTE, p, NULL, NULL);
}

int site_origin_serve(struct req *r)
{
	if (site_request(r) && site_serve(r) == 0)
		return 0;
	if (site_origin_api_path(r->url))
		return 1;
	/* Everything else (the API, the web interface, "/"): nothing here. */
	return not_found(r), 0;
}

/* The query string of r, percent-encoded again ("" when none). */
static enum MHD_Result query_arg(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	struct jw *b = cls;
	char enc[3];

	(void)kind;
	jw_put(b, b->len ? "&" : "?", 1);
	for (int part = 0; part < 2; part++) {
		const char *s = part ? value : key;
		if (part && !value)
			break;
		if (part)
			jw_put(b, "=", 1);
		for (; *s; s++) {
			if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
			    strchr("-._~", *s)) {
				jw_put(b, s, 1);
			} else {
				pct_encode_byte(enc, (unsigned char)*s);
				jw_put(b, enc, 3);
			}
		}
	}
	return MHD_YES;
}

int site_moved_to_site_origin(struct req *r)
{
	const char *pre = url_path(r->srv->public_url), *site_pre = url_path(r->srv->site_url), *path, *loc;
	size_t ol = strlen(r->srv->site_url) - strlen(site_pre);
	struct jw q;

	/* The path under the public URL's prefix, re-encoded (site_location:
	 * one leading '/', never another host). */
	path = site_location(&r->arena, site_pre, r->url + strlen(pre));
	jw_init(&q);
	MHD_get_connection_values(r->conn, MHD_GET_ARGUMENT_KIND, query_arg, &q);
	jw_put(&q, "", 1);
	loc = path && jw_ok(&q) ? arena_printf(&r->arena, "%.*s%s%s", (int)ol, r->srv->site_url, path, q.buf) : NULL;
	jw_free(&q);
	if (!loc)
		return plain_page(r, 500, "Error", "Try again.");
	/* 308: the same method and body; a redirect runs no script here. */
	resp_header(r, "Location", loc);
	resp_header(r, "Cache-Control", "no-store");
	return answer(r, 308, CT_TEXT, "", 0);
}

bool site_main_moved_path(struct req *r)
{
	return sites_path(r) || route_template_match(SITE_SCRIPT_ROUTE, r->url, NULL, NULL);
}

/* Letters, digits, '.', '_' and '-' only (site names, share keys): what
 * may go into a header (Location, Set-Cookie's Path) unencoded. */
static bool plain_token(const char *s, size_t max)
{
	size_t n = s ? strlen(s) : 0;

	return n > 0 && n <= max && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") == n;
}

/* The render cache's key for "no site has this hostname", valid for the
 * current ten seconds (a site given the hostname is served at most that
 * much later; requests to docsd under other names cost no lookup). */
static const char *no_site_key(struct arena *a, const char *host)
{
	return arena_printf(a, "nohost\n%s\n%lld", host, (long long)(clock_now_ms() / 10000));
}

/* ---- one visit ---- */

struct visit {
	struct req *r;
	struct dom *d;
	struct arena *a;
	struct site site;
	struct site_structure st;
	struct site_view v;
	const char *rest;      /* the path under the root, no leading '/' */
	const char *root;      /* the root without a share prefix */
	json_t *claims;
	bool shared;           /* the request came through an active share key */
	struct jw key;         /* what the rendering depends on */
	const char *csp;       /* the page's CSP when integration scripts load; NULL: CSP */
};

/* A visitor-auth site without a valid token sends the visitor to its
 * publishing auth's fallbackURL, as GitBook does, with the page asked for
 * in ?location= (the path under the site root) so the backend can sign
 * the visitor in and come back: 1 when redirected, 0 when the site has no
 * fallback URL (then the 401 page). */
static int fallback_redirect(struct visit *vi)
{
	const char *url;
	struct jw loc;
	char enc[3];

	if (dom_site_visit_fallback(vi->d, &vi->site, &url) || !url)
		return 0;
	jw_init(&loc);
	html_raw(&loc, url);
	html_raw(&loc, strchr(url, '?') ? "&location=%2F" : "?location=%2F");
	for (const char *c = vi->rest; *c; c++) {
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || strchr("-._~/", *c)) {
			jw_put(&loc, c, 1);
		} else {
			pct_encode_byte(enc, (unsigned char)*c);
			jw_put(&loc, enc, 3);
		}
	}
	jw_put(&loc, "", 1);
	if (jw_ok(&loc))
		redirect(vi->r, arena_strdup(vi->a, loc.buf), NULL);
	else
		plain_page(vi->r, 500, "Error", "Try again.");
	jw_free(&loc);
	return 1;
}

/* The visitor's claims from ?jwt_token= (then a cookie and a redirect: 1)
 * or the cookie. 0 to go on; 1 when answered. */
static int visitor(struct visit *vi, bool required)
{
	struct req *r = vi->r;
	const char *tok = req_query(r, "jwt_token");
	int64_t now = clock_now_ms() / 1000;

	if (tok) {
		json_t *claims;
		if (visitor_jwt_verify(tok, vi->site.visitor_key, now, &claims)) {
			if (!required)
				goto from_cookie; /* other sites ignore a bad token */
			return plain_page(r, 401, "Sign-in required", "The link you followed has expired or is not valid."), 1;
		}
		json_decref(claims);
		const char *cookie = arena_printf(&r->arena, VISITOR_COOKIE "=%s; Path=%s; HttpOnly; SameSite=Lax%s", tok,
						  *vi->root ? vi->root : "/",
						  strncmp(r->srv->site_url, "https:", 6) == 0 ? "; Secure" : "");
		/* Back to the same page without the token: the root as the site
		 * knows it (its own basename's spelling, which the cookie's Path
		 * names) and the path under it, never the raw request URL. */
		const char *pre = *vi->rest ? arena_printf(&r->arena, "%s/", vi->root) : vi->root;
		const char *loc = site_location(&r->arena, pre, vi->rest);
		if (!loc)
			return err_set(ERR_INTERNAL, "redirect location too long"), plain_page(r, 500, "Error", "Try again."), 1;
		return redirect(r, loc, cookie), 1;
	}
from_cookie:
	tok = req_cookie(r, VISITOR_COOKIE);
	if (!tok) /* GitBook's signed cookie, set by the product on its domain */
		tok = req_cookie(r, "gitbook-visitor-token");
	if (tok && visitor_jwt_verify(tok, vi->site.visitor_key, now, &vi->claims) == 0)
		return 0;
	if (required && fallback_redirect(vi))
		return 1;
	if (required)
		return plain_page(r, 401, "Sign-in required",
				  "This documentation is only for signed-in visitors. Sign in through the product that "
				  "links here."),
		       1;
	return 0;
}

static void key_add(struct jw *k, const char *s)
{
	char n[24];

	snprintf(n, sizeof(n), "%zu:", s ? strlen(s) : 0);
	html_raw(k, n);
	html_raw(k, s);
}

/* A space's own visibility narrows its site space (README, "Published
 * sites"): a share-link space is shown only through a share key, a
 * visitor-auth space only to a visitor with a valid token, whatever the
 * site's visibility; the others follow the site's. */
static bool space_admits(const struct visit *vi, const struct space *sp)
{
	if (!sp->visibility)
		return true;
	if (strcmp(sp->visibility, "share-link") == 0)
		return vi->shared;
	if (strcmp(sp->visibility, "visitor-auth") == 0)
		return vi->claims != NULL;
	return true;
}

static bool has_computed(const struct revision *rv)
{
	for (int i = 0; i < rv->npages; i++)
		if (rv->pages[i].type == PAGE_COMPUTED)
			return true;
	return false;
}

/* The site's integration scripts (an active installation on the site of an
 * integration with site:script:inject): their URLs load after docsd's own
 * script, and they and their integrations' policies go into the key (a new
 * installation shows at once) and the page's CSP. */
static int integration_scripts(struct visit *vi)
{
	struct site_script *ss;
	int n, rc = dom_site_integration_scripts(vi->d, vi->site.id, &ss, &n);
	const char **urls, **policies;
	char origin[512];

	if (rc || n == 0)
		return rc;
	urls = arena_alloc(vi->a, sizeof(*urls) * (size_t)n);
	policies = arena_alloc(vi->a, sizeof(*policies) * (size_t)n);
	for (int i = 0; i < n; i++) {
		urls[i] = ss[i].script;
		policies[i] = ss[i].csp ? ss[i].csp : "";
		key_add(&vi->key, urls[i]);
		key_add(&vi->key, policies[i]);
	}
	vi->v.scripts = urls;
	vi->v.nscripts = n;
	/* The scripts are served on the sites' origin (site_script_url), also
	 * for a site on its own host name. */
	const char *base = server_site_url(vi->r->srv), *h = strstr(base, "://");
	size_t ol = h ? (size_t)(h + 3 - base) + strcspn(h + 3, "/") : 0;
	snprintf(origin, sizeof(origin), "%.*s", (int)ol, base);
	vi->csp = site_csp_with_scripts(vi->a, origin, policies, n);
	return 0;
}

/* The visible structure with each site space's revision; its ids and
 * revisions go into the key, and, when a revision has computed pages (API
 * references), the latest version of each of the organization's OpenAPI
 * specs, so a new version shows at once. */
static int build_view(struct visit *vi)
{
	bool specs_keyed = false;
	struct dom *d = vi->d;
	struct site_view *v = &vi->v;
	/* Conditions read the JWT's claims and GitBook's unsigned ones (the
	 * public cookie, ?visitor.* parameters); visitors with different claims
	 * never share a render (the key). */
	json_t *visitor_json = visitor_json_of(vi->claims, visitor_unsigned_claims(vi->r, req_cookie(vi->r, "gitbook-visitor-public")));
	const char *vkey = visitor_cache_key(vi->a, visitor_json);
	int ns = vi->st.nsections ? vi->st.nsections : 1, rc;

	v->visitor = visitor_json; /* freed with the visit */
	if (!vkey)
		return err_set(ERR_INTERNAL, "cannot key the visitor's claims");
	key_add(&vi->key, vkey);
	if ((rc = integration_scripts(vi)))
		return rc;
	v->sections = arena_alloc(vi->a, sizeof(*v->sections) * (size_t)ns);
	v->nsections = 0;
	v->def = 0;
	for (int s = 0; s < ns; s++) {
		const struct site_section *sec = vi->st.nsections ? &vi->st.sections[s] : NULL;
		struct site_space *list = sec ? sec->spaces : vi->st.root;
		int nl = sec ? sec->nspaces : vi->st.nroot;
		struct sv_section *out = &v->sections[v->nsections];

		if (sec && !cond_visible(sec->condition, visitor_json))
			continue;
		memset(out, 0, sizeof(*out));
		out->sec = sec;
		out->url = sec && !sec->is_default ? arena_printf(vi->a, "%s/%s", v->root, sec->path) : v->root;
		if (nl)
			out->spaces = arena_alloc(vi->a, sizeof(*out->spaces) * (size_t)nl);
		for (int k = 0; k < nl; k++) {
			const struct revision *rv;
			struct sv_space *sp = &out->spaces[out->nspaces];
			if (!cond_visible(list[k].condition, visitor_json) || !space_admits(vi, &list[k].space))
				continue;
			if ((rc = dom_site_visit_revision(d, &list[k], &rv)))
				return rc;
			if (!rv)
				continue; /* a deleted space is not served */
			/* Pages whose condition ("if:") hides them from this visitor are
			 * not in the view at all: not in navigation, search, sitemap,
			 * llms files, twins or at their URLs. */
			if ((rc = dom_site_visit_visible(d, rv, visitor_json, &rv)))
				return rc;
			sp->ss = &list[k];
			sp->rv = rv;
			sp->title = list[k].space.title;
			sp->url = list[k].is_default ? out->url : arena_printf(vi->a, "%s/%s", out->url, list[k].path);
			if (list[k].is_default)
				out->def = out->nspaces;
			key_add(&vi->key, list[k].id);
			key_add(&vi->key, rv->id);
			key_add(&vi->key, sp->title); /* a renamed space bumps no generation */
			if (!specs_keyed && has_computed(rv)) {
				const char *specs;
				if ((rc = dom_openapi_versions_key(d, vi->site.org_id, &specs)))
					return rc;
				key_add(&vi->key, specs);
				specs_keyed = true;
			}
			out->nspaces++;
		}
		if (!out->nspaces)
			continue;
		if (sec && sec->is_default)
			v->def = v->nsections;
		key_add(&vi->key, sec ? sec->id : "-");
		v->nsections++;
	}
	/* Header links shown to this visitor (the customization is only parsed
	 * here when it has conditions: a cache hit reads no other JSON). */
	if (vi->site.customization && strstr(vi->site.customization, "\"condition\"")) {
		json_t *c = json_loads(vi->site.customization, 0, NULL);
		const json_t *links = json_object_get(json_object_get(c, "header"), "links");
		size_t i;
		const json_t *l;
		json_array_foreach(links, i, l) html_raw(&vi->key,
							 cond_visible(json_string_value(json_object_get(l, "condition")),
								      visitor_json)
								 ? "1"
								 : "0");
		json_decref(c);
	}
	return 0;
}

/* The customization: the site's over the defaults, the site space's over that. */
static int customization(struct visit *vi, const struct sv_space *sp)
{
	struct jw g;
	json_t *c = NULL;

	jw_init(&g);
	if (site_customization_to_json(&g, vi->site.customization) == 0 && jw_ok(&g))
		c = json_loadb(g.buf, g.len, 0, NULL);
	jw_free(&g);
	if (!c)
		return err_set(ERR_INTERNAL, "site customization unreadable");
	if (sp && sp->ss->customization) {
		json_t *o = json_loads(sp->ss->customization, 0, NULL);
		if (json_is_object(o))
			json_object_update_recursive(c, o);
		json_decref(o);
	}
	json_decref(vi->v.custom);
	vi->v.custom = c;
	return 0;
}

/* Search excerpts are plain text of the markdown: GitBook's {% tags %} go. */
static const char *strip_tags(struct arena *a, const char *s)
{
	struct gb_tag t;
	size_t n, at = 0, k = 0;
	char *out;

	/* Without a tag the text stays as it is. */
	if (!s || !gb_tag_next(s, n = strlen(s), 0, GB_TAG_BLOCK, &t))
		return s;
	out = arena_alloc(a, n + 1);
	do {
		memcpy(out + k, s + at, t.start - at);
		k += t.start - at;
		for (at = t.end; s[at] == ' '; at++)
			;
	} while (gb_tag_next(s, n, at, GB_TAG_BLOCK, &t));
	memcpy(out + k, s + at, n - at + 1); /* the rest and the NUL */
	return out;
}

static int search_hits(struct visit *vi, const char *q, struct sv_page *pg)
{
	struct sv_hit *hits = NULL;
	int nh = 0, cap = 0, rc;

	for (int s = 0; s < vi->v.nsections; s++) {
		for (int k = 0; k < vi->v.sections[s].nspaces; k++) {
			const struct sv_space *sp = &vi->v.sections[s].spaces[k];
			struct search_page *items;
			int n;
			rc = dom_site_visit_search(vi->d, sp->ss, sp->rv, vi->v.visitor, q, SEARCH_PER_SPACE, &items, &n);
			if (rc == ERR_INVALID)
				return 0;
			if (rc)
				return rc;
			for (int i = 0; i < n; i++) {
				const struct rev_page *p = revision_page(sp->rv, items[i].id);
				if (!p || p->hidden)
					continue;
				if (nh == cap) {
					struct sv_hit *nhits = arena_alloc(vi->a, sizeof(*nhits) * (size_t)(cap = cap ? 2 * cap : 16));
					if (nh)
						memcpy(nhits, hits, sizeof(*hits) * (size_t)nh);
					hits = nhits;
				}
				struct sv_hit *h = &hits[nh++];
				const struct search_section *ss = items[i].nsections ? &items[i].sections[0] : NULL;
				h->title = p->title;
				h->url = sv_page_url(vi->a, sp, p);
				if (ss && ss->id && *ss->id)
					h->url = arena_printf(vi->a, "%s#%s", h->url, ss->id);
				h->section = ss ? ss->title : NULL;
				h->excerpt = ss ? strip_tags(vi->a, ss->body) : NULL;
				h->space = vi->v.nsections > 1 || vi->v.sections[s].nspaces > 1 ? sp->title : NULL;
			}
		}
	}
	pg->hits = hits;
	pg->nhits = nh;
	return 0;
}

/* The markdown twin: the title, the description and the body, GitBook's
 * blocks as plain markdown and links absolute (twin.c). */
static int markdown_twin(struct visit *vi, const struct sv_space *sp, const struct rev_page *p, const char *md,
			 struct jw *out)
{
	return site_render_twin(out, vi->a, &vi->v, sp, p, md);
}

/* A page's markdown as this visitor reads it: {% if %} blocks decided and
 * {{ }} expressions replaced (model/adaptive.h), once for every consumer. */
static const char *visitor_markdown(struct visit *vi, const struct rev_page *p, const char *md)
{
	struct adapt_ctx ac = { .visitor = vi->v.visitor };
	json_t *vars;
	size_t n;

	/* Decided on the page's own text, as search and the PDF decide it: an
	 * API block expanded first could open a code fence (a spec's markdown)
	 * that turns the page's later tags into code. */
	if (adapt_present(md, strlen(md))) {
		ac.page_vars = vars = p && p->vars ? json_loads(p->vars, 0, NULL) : NULL;
		md = adapt_markdown(vi->a, md, strlen(md), &ac, &n);
		json_decref(vars);
	}
	/* GitBook's API blocks become the operation's reference (api_blocks.c);
	 * a store failure leaves them as written. */
	if (site_api_blocks(vi->d, vi->site.org_id, vi->a, md, &md))
		log_error("site %s: API blocks not expanded: %s", vi->site.id, err_message());
	return md;
}

/* llms-full.txt: every visible page's twin, in navigation order, as this
 * visitor reads it. */
static int llms_full(struct visit *vi, struct jw *out)
{
	const struct site_view *v = &vi->v;
	int rc;

	for (int s = 0; s < v->nsections; s++)
		for (int k = 0; k < v->sections[s].nspaces; k++) {
			const struct sv_space *sp = &v->sections[s].spaces[k];
			const struct rev_page **order;
			int n;
			if (sv_reading_order(vi->a, sp->rv, &order, &n))
				return -1;
			for (int i = 0; i < n; i++) {
				const char *body = "";
				if (order[i]->hidden)
					continue;
				if (order[i]->body && (rc = dom_page_body(vi->d, order[i]->body, &body)))
					return rc;
				if (order[i]->type == PAGE_COMPUTED &&
				    (rc = dom_openapi_page_markdown(vi->d, vi->site.org_id, order[i]->computed, &body)))
					return rc;
				if ((rc = markdown_twin(vi, sp, order[i], visitor_markdown(vi, order[i], body), out)))
					return rc;
				html_raw(out, "\n\n---\n\n");
			}
		}
	return jw_ok(out) ? 0 : err_set(ERR_INTERNAL, "llms-full.txt too large");
}

static const char *etag_of(struct visit *vi)
{
	char hex[65];

	if (!jw_ok(&vi->key) || sha256_hex(hex, vi->key.buf, vi->key.len))
		return NULL;
	return arena_printf(vi->a, "\"%.32s\"", hex);
}

static bool etag_matches(const char *inm, const char *etag)
{
	size_t n = strlen(etag);

	while (inm && *inm) {
		while (*inm == ' ' || *inm == ',')
			inm++;
		if (strncmp(inm, "W/", 2) == 0)
			inm += 2;
		if (*inm == '*' || strncmp(inm, etag, n) == 0)
			return true;
		inm += strcspn(inm, ",");
	}
	return false;
}

/* ---- the reader's theme (a cookie per site, no script) ---- */

#define THEME_COOKIE "docsd_theme"

/* The visitor's theme from the cookie: light, dark, system, or NULL. */
static const char *theme_of(struct req *r)
{
	const char *t = req_cookie(r, THEME_COOKIE);

	if (t && (strcmp(t, "light") == 0 || strcmp(t, "dark") == 0 || strcmp(t, "system") == 0))
		return t;
	return NULL;
}

/* {root}/~theme/{light|dark|system}?to={path}: remember the choice for this
 * site (Path = the site's root, a year) and go back to the page, on this
 * site whatever `to` says (site_location). */
static int theme_set(struct visit *vi, const char *mode)
{
	struct req *r = vi->r;
	const char *to = req_query(r, "to"), *loc, *cookie;

	if (strcmp(mode, "light") != 0 && strcmp(mode, "dark") != 0 && strcmp(mode, "system") != 0)
		return not_found(r);
	if (!to || utf8_len(to) < 0)
		to = "";
	while (*to == '/' || *to == '\\')
		to++;
	loc = site_location(vi->a, arena_printf(vi->a, "%s/", vi->v.root), to);
	if (!loc)
		return err_set(ERR_INTERNAL, "redirect location too long");
	cookie = arena_printf(vi->a, THEME_COOKIE "=%s; Path=%s; Max-Age=31536000; SameSite=Lax%s", mode,
			      *vi->root ? vi->root : "/", strncmp(r->srv->site_url, "https:", 6) == 0 ? "; Secure" : "");
	return redirect(r, loc, cookie);
}

/* hreflang: the page in the other languages of its space that the site
 * shows (a space and its translations, both site spaces), and itself; the
 * same page (by id, else by path) in each, else that space's root. */
static int alternates(struct visit *vi, struct sv_page *pg, const struct sv_space *sp)
{
	struct site_translation *t;
	struct sv_alt *alts;
	const char *family = sp->ss->space_id, *lang0 = NULL;
	int n, na = 0, rc;

	pg->nalts = 0;
	if ((rc = dom_site_visit_translations(vi->d, &vi->site, &t, &n)))
		return rc;
	if (n == 0)
		return 0;
	for (int i = 0; i < n; i++)
		if (strcmp(t[i].result_space, family) == 0)
			family = t[i].source_space; /* a translation: its source heads the family */
	alts = arena_alloc(vi->a, sizeof(*alts) * (size_t)(n + 1));
	for (int s = 0; s < vi->v.nsections; s++) {
		for (int k = 0; k < vi->v.sections[s].nspaces; k++) {
			const struct sv_space *o = &vi->v.sections[s].spaces[k];
			const char *lang = NULL;
			for (int i = 0; i < n && !lang; i++) {
				if (strcmp(t[i].source_space, family) != 0)
					continue;
				if (strcmp(o->ss->space_id, family) == 0)
					lang = t[i].source_language;
				else if (strcmp(o->ss->space_id, t[i].result_space) == 0)
					lang = t[i].language;
			}
			if (!lang || !*lang)
				continue;
			/* A translation keeps its source's page ids; else the same path. */
			const struct rev_page *p = o->rv ? revision_page(o->rv, pg->page->id) : NULL;
			if (!p && o->rv)
				p = revision_page_by_path(o->rv, pg->page->path);
			if (o == sp)
				p = pg->page, lang0 = lang;
			alts[na].lang = lang;
			alts[na].url = sv_page_url(vi->a, o, p && sv_page_readable(p) ? p : NULL);
			na++;
		}
	}
	if (na > 1 && lang0) {
		pg->alts = alts;
		pg->nalts = na;
	}
	return 0;
}

/* ---- redirects (domain/site_redirects.h: what is asked, in which order) ---- */

/* Render's answer "301 to prefix + path" (site_location: a path on this
 * site, whatever the request sent): the body is the Location, which
 * respond() moves into the header, so a redirect is cached and keyed like
 * the page it replaces (a new revision or site generation changes both). */
static int moved(struct visit *vi, struct jw *out, int *status, const char **ctype, const char *prefix,
		 const char *path)
{
	const char *loc = site_location(vi->a, prefix, path);

	if (!loc)
		return err_set(ERR_INTERNAL, "redirect location too long");
	jw_reset(out);
	html_raw(out, loc);
	*status = 301;
	*ctype = CT_TEXT;
	return 0;
}

/* 301 to page p of sp (a group: its first document), or its twin. 1 when
 * p shows nothing. */
static int moved_to_page(struct visit *vi, struct jw *out, int *status, const char **ctype, const struct sv_space *sp,
			 const struct rev_page *p, bool twin)
{
	if (p && !sv_page_readable(p))
		p = p->path ? sv_page_at(sp->rv, p->path) : NULL;
	if (!p)
		return 1;
	if (p == sv_first_page(sp->rv))
		return twin ? moved(vi, out, status, ctype, arena_printf(vi->a, "%s/", sp->url), "index.md")
			    : moved(vi, out, status, ctype, *sp->url ? sp->url : "/", "");
	return moved(vi, out, status, ctype, arena_printf(vi->a, "%s/", sp->url),
		     twin ? arena_printf(vi->a, "%s.md", p->path) : p->path);
}

static const struct rev_page *page_by_git_path(const struct revision *rv, const char *git_path)
{
	for (int i = 0; rv && git_path && i < rv->npages; i++)
		if (rv->pages[i].git_path && strcmp(rv->pages[i].git_path, git_path) == 0)
			return &rv->pages[i];
	return NULL;
}

/* A site redirect's destination, among what this visitor sees. */
static int site_redirect_to(struct visit *vi, struct jw *out, int *status, const char **ctype,
			    const struct site_redirect *x)
{
	const struct site_view *v = &vi->v;

	for (int s = 0; s < v->nsections; s++) {
		const struct sv_section *sec = &v->sections[s];
		if (strcmp(x->kind, "site-section") == 0) {
			if (sec->sec && strcmp(sec->sec->id, x->section_id) == 0)
				return moved(vi, out, status, ctype, *sec->url ? sec->url : "/", "");
			continue;
		}
		for (int k = 0; k < sec->nspaces; k++) {
			const struct sv_space *sp = &sec->spaces[k];
			if (strcmp(sp->ss->id, x->site_space_id) != 0)
				continue;
			if (strcmp(x->kind, "site-page") != 0)
				return moved(vi, out, status, ctype, *sp->url ? sp->url : "/", "");
			return moved_to_page(vi, out, status, ctype, sp, revision_page(sp->rv, x->page_id), false);
		}
	}
	return 1;
}

/* The same path in another case: the URL of a section, site space or page
 * whose path equals rest without regard to case. */
static int moved_case(struct visit *vi, struct jw *out, int *status, const char **ctype, const char *rest, bool twin)
{
	const struct site_view *v = &vi->v;
	size_t rl = strlen(v->root);

	for (int s = 0; s < v->nsections; s++) {
		for (int k = 0; k < v->sections[s].nspaces; k++) {
			const struct sv_space *sp = &v->sections[s].spaces[k];
			/* sp->url is the root, then "/" + section and space paths. */
			const char *base = sp->url + rl + (sp->url[rl] == '/');
			size_t bl = strlen(base);
			const char *path = rest;
			if (bl) {
				if (strncasecmp(rest, base, bl) != 0 || (rest[bl] && rest[bl] != '/'))
					continue;
				path = rest + bl + (rest[bl] == '/');
			}
			if (!*path && bl)
				return moved(vi, out, status, ctype, sp->url, "");
			for (int i = 0; *path && sp->rv && i < sp->rv->npages; i++)
				if (sp->rv->pages[i].path && strcasecmp(sp->rv->pages[i].path, path) == 0)
					return moved_to_page(vi, out, status, ctype, sp, &sp->rv->pages[i], twin);
		}
	}
	return 1;
}

/* What a path that shows no page redirects to: 0 with the 301 written, 1
 * when nothing (the 404 follows), or an error. rest: the path under the
 * root; sp and path: where sv_resolve led. */
static int redirect_lookup(struct visit *vi, struct jw *out, int *status, const char **ctype, const char *rest,
			   const struct sv_space *sp, const char *path, bool twin)
{
	struct site_redirect x;
	const char *id, *target;
	struct jw src;
	int rc;

	/* 1. The site's redirects: sources as the site's URLs show them. */
	if (!twin) {
		jw_init(&src);
		jw_put(&src, "/", 1);
		url_path_enc(&src, rest);
		jw_put(&src, "", 1);
		rc = jw_ok(&src) && src.len <= REDIRECT_SOURCE_MAX + 1
			     ? dom_site_visit_redirect(vi->d, &vi->site, src.buf, &x)
			     : ERR_NOT_FOUND;
		jw_free(&src);
		if (rc == 0 && (rc = site_redirect_to(vi, out, status, ctype, &x)) <= 0)
			return rc;
		if (rc < 0 && rc != ERR_NOT_FOUND)
			return rc;
		err_clear();
	}
	if (!*path || !sp->rv)
		return moved_case(vi, out, status, ctype, rest, twin);
	/* 2. .gitbook.yaml's redirects of the space's current revision. */
	rc = dom_site_visit_git_redirect(vi->d, sp->rv->id, path, &target);
	if (rc == 0 && (rc = moved_to_page(vi, out, status, ctype, sp, page_by_git_path(sp->rv, target), twin)) <= 0)
		return rc;
	if (rc < 0 && rc != ERR_NOT_FOUND)
		return rc;
	/* 3. The page that was at this path before a revision moved it. */
	rc = dom_site_visit_old_path(vi->d, sp->ss->space_id, path, &id);
	if (rc == 0 && (rc = moved_to_page(vi, out, status, ctype, sp, revision_page(sp->rv, id), twin)) <= 0)
		return rc;
	if (rc < 0 && rc != ERR_NOT_FOUND)
		return rc;
	err_clear();
	/* 4. Another case of an existing URL. */
	return moved_case(vi, out, status, ctype, rest, twin);
}

/* Render what vi->rest names into out; *status and *ctype set. */
static int render(struct visit *vi, struct jw *out, int *status, const char **ctype)
{
	struct site_view *v = &vi->v;
	const char *rest = vi->rest, *path;
	size_t rl = strlen(rest);
	struct sv_page pg = { 0 };
	int rc, md = 0;

	*status = 200;
	*ctype = CT_HTML;
	/* One URL per page: trailing slashes go (the root keeps its own). */
	if (rl && rest[rl - 1] == '/') {
		while (rl && rest[rl - 1] == '/')
			rl--;
		return moved(vi, out, status, ctype, arena_printf(vi->a, "%s/", v->root), arena_strndup(vi->a, rest, rl));
	}
	if ((rc = customization(vi, NULL)))
		return rc;
	if (strcmp(rest, "llms.txt") == 0) {
		*ctype = CT_TEXT;
		return site_render_llms(out, vi->a, v);
	}
	if (strcmp(rest, "llms-full.txt") == 0) {
		*ctype = CT_TEXT;
		return llms_full(vi, out);
	}
	if (strcmp(rest, "robots.txt") == 0) {
		*ctype = CT_TEXT;
		site_render_robots(out, v);
		return 0;
	}
	if (strcmp(rest, "sitemap.xml") == 0 && strcmp(vi->site.visibility, "public") == 0) {
		*ctype = CT_XML;
		return site_render_sitemap_index(out, v) ? err_set(ERR_INTERNAL, "sitemap too large") : 0;
	}
	if (strncmp(rest, "~sitemap/", 9) == 0 && rl > 13 && strcmp(rest + rl - 4, ".xml") == 0 &&
	    strcmp(vi->site.visibility, "public") == 0) {
		*ctype = CT_XML;
		rc = site_render_sitemap_space(out, vi->a, v, arena_strndup(vi->a, rest + 9, rl - 13));
		if (rc == 1) {
			*status = 404;
			*ctype = CT_TEXT;
			html_raw(out, "Not found\n");
			return 0;
		}
		return rc ? err_set(ERR_INTERNAL, "sitemap too large") : 0;
	}
	if (strcmp(rest, "~search") == 0 || strcmp(rest, "~search.json") == 0) {
		const char *q = req_query(vi->r, "q");
		if (q && utf8_len(q) < 0)
			q = NULL; /* not text: nothing to search for */
		pg.section = v->def;
		pg.space = v->sections[v->def].def;
		pg.search_q = q ? q : "";
		if (q && *q && (rc = search_hits(vi, q, &pg)))
			return rc;
		/* Search as you type (site.js): the same hits, as JSON. */
		if (rest[7] == '.') {
			*ctype = "application/json; charset=utf-8";
			site_search_json(out, &pg);
			return jw_ok(out) ? 0 : err_set(ERR_INTERNAL, "search answer too large");
		}
		return site_render_page(out, vi->a, v, &pg);
	}
	if (rl > 3 && strcmp(rest + rl - 3, ".md") == 0) {
		md = 1;
		/* A space's first page: {space root}/index.md. */
		if (rl == 8 && strcmp(rest, "index.md") == 0)
			rl = 3;
		else if (rl > 9 && strcmp(rest + rl - 9, "/index.md") == 0)
			rl -= 6;
		rest = arena_strndup(vi->a, rest, rl - 3);
	}
	sv_resolve(v, rest, &pg.section, &pg.space, &path);
	const struct sv_space *sp = &v->sections[pg.section].spaces[pg.space];
	pg.page = sv_page_at(sp->rv, path);
	/* A page has one URL: the first page of a space is its root, a group's
	 * path shows its first document at that document's own URL. */
	if (pg.page && (pg.page == sv_first_page(sp->rv) ? *path != '\0' : strcmp(path, pg.page->path) != 0))
		return moved_to_page(vi, out, status, ctype, sp, pg.page, md) ? err_set(ERR_INTERNAL, "no canonical URL")
									      : 0;
	if (!pg.page && (*path || sv_first_page(sp->rv)) &&
	    (rc = redirect_lookup(vi, out, status, ctype, rest, sp, path, md)) <= 0)
		return rc;
	if (pg.page) {
		const char *body = "";
		if (pg.page->body && (rc = dom_page_body(vi->d, pg.page->body, &body)))
			return rc;
		if (pg.page->type == PAGE_COMPUTED &&
		    (rc = dom_openapi_page_markdown(vi->d, vi->site.org_id, pg.page->computed, &body)))
			return rc;
		/* Adaptive content is decided here, once, for every consumer below
		 * (the page, its twin): what this visitor may not see is gone. */
		body = visitor_markdown(vi, pg.page, body);
		pg.body_md = body;
		if ((rc = customization(vi, sp)))
			return rc;
		if (md) {
			*ctype = CT_MD;
			return markdown_twin(vi, sp, pg.page, body, out);
		}
		if ((rc = alternates(vi, &pg, sp)))
			return rc;
		return site_render_page(out, vi->a, v, &pg);
	}
	/* A space without pages shows that at its root; anything else is 404. */
	*status = !*path && !sv_first_page(sp->rv) ? 200 : 404;
	if (md) {
		*ctype = CT_TEXT;
		html_raw(out, "Page not found\n");
		return 0;
	}
	return site_render_page(out, vi->a, v, &pg);
}

static int file_redirect(struct visit *vi, const char *rest);

/* Visibility: the share key (~share/{key}/ in the path, or ?share=, which
 * redirects to it) and the visitor token. 0 to go on with *rest past the
 * prefix and *share the key (or NULL); 1 when answered. */
static int gate(struct visit *vi, const char **rest, const char **share)
{
	struct req *r = vi->r;
	const char *p = *rest;

	*share = NULL;
	if (strncmp(p, "~share/", 7) == 0) {
		size_t n = strcspn(p + 7, "/");
		*share = arena_strndup(vi->a, p + 7, n);
		*rest = p + 7 + n + (p[7 + n] == '/');
	} else if (req_query(r, "share")) {
		const char *key = req_query(r, "share"), *pre, *loc;
		if (!plain_token(key, 128))
			return not_found(r), 1;
		pre = arena_printf(vi->a, "%s/~share/%s/", vi->root, key);
		loc = site_location(vi->a, pre, p);
		return (loc ? redirect(r, loc, NULL) : plain_page(r, 500, "Error", "Try again.")), 1;
	}
	if (*share && dom_site_visit_share(vi->d, &vi->site, *share))
		return not_found(r), 1;
	if (strcmp(vi->site.visibility, "share-link") == 0 && !*share)
		return not_found(r), 1;
	return visitor(vi, strcmp(vi->site.visibility, "visitor-auth") == 0);
}

/* A 301 render() made (body: the Location). */
static int moved_answer(struct req *r, const char *loc, size_t len)
{
	resp_header(r, "Location", arena_strndup(&r->arena, loc, len));
	return answer(r, 301, CT_TEXT, "", 0);
}

/* The answer for the view's key: 304 when the client has it, the render
 * cache's copy, or a rendering (then kept). */
static int respond(struct visit *vi, bool public_site)
{
	struct req *r = vi->r;
	const char *body, *ctype, *etag = etag_of(vi);
	size_t len;
	int status, rc;
	struct jw out;

	if (!etag)
		return err_set(ERR_INTERNAL, "cannot compute the ETag");
	resp_header(r, "ETag", etag);
	resp_header(r, "Cache-Control", public_site || strcmp(vi->site.visibility, "unlisted") == 0
						? "public, max-age=60, must-revalidate"
						: "private, no-cache");
	if (!public_site)
		resp_header(r, "X-Robots-Tag", "noindex");
	resp_header(r, "Content-Security-Policy", vi->csp ? vi->csp : CSP);
	/* The visitor's claims (the cookie) decide what conditions show. */
	resp_header(r, "Vary", "Cookie");
	if (etag_matches(req_header(r, MHD_HTTP_HEADER_IF_NONE_MATCH), etag))
		return answer(r, 304, NULL, NULL, 0);
	if (sitecache_get(r->srv->sites, etag, vi->a, &body, &len, &status, &ctype))
		return status == 301 ? moved_answer(r, body, len) : answer(r, status, ctype, body, len);
	jw_init(&out);
	rc = render(vi, &out, &status, &ctype);
	if (rc == 0 && !jw_ok(&out))
		rc = err_set(ERR_INTERNAL, "rendered page too large");
	if (rc == 0) {
		char *copy = arena_alloc(vi->a, out.len + 1);
		if (out.len)
			memcpy(copy, out.buf, out.len);
		sitecache_put(r->srv->sites, etag, out.buf ? out.buf : "", out.len, status, ctype);
		rc = status == 301 ? moved_answer(r, copy, out.len) : answer(r, status, ctype, copy, out.len);
	}
	jw_free(&out);
	return rc;
}

/* Where the view's absolute URLs start: the public URL's origin, or the
 * site's own host (as the request named it). */
static const char *origin(struct visit *vi, const char *hostname)
{
	struct req *r = vi->r;

	if (hostname) {
		const char *h = req_header(r, MHD_HTTP_HEADER_HOST);
		return arena_printf(vi->a, "%.*s://%s", (int)strcspn(r->srv->public_url, ":"), r->srv->public_url,
				    h ? h : hostname);
	}
	return arena_strndup(vi->a, r->srv->site_url, strlen(r->srv->site_url) - strlen(url_path(r->srv->site_url)));
}

static int visit(struct visit *vi, const char *name, const char *hostname, const char *root)
{
	struct req *r = vi->r;
	const char *share, *rest = vi->rest;
	char gen[32];
	int rc;
	bool public_site;

	if ((rc = dom_site_visit(vi->d, name, hostname, &vi->site))) {
		if (rc == ERR_NOT_FOUND && hostname) {
			/* Remember for a few seconds that this Host names no site (not
			 * for an unpublished one: publishing it must show at once). */
			if (!vi->site.id)
				sitecache_put(r->srv->sites, no_site_key(vi->a, hostname), "", 0, 404, CT_TEXT);
			return 1;
		}
		return rc == ERR_NOT_FOUND ? not_found(r) : rc;
	}
	/* Basenames are unique without regard to case and looked up so: the
	 * root keeps the spelling the site was given, so its links, cookie
	 * Path and redirects are the same whichever spelling was asked for. */
	if (name && vi->site.basename && strcmp(name, vi->site.basename) != 0 &&
	    strcasecmp(name, vi->site.basename) == 0)
		root = arena_printf(vi->a, "%.*s%s", (int)(strlen(root) - strlen(name)), root, vi->site.basename);
	vi->root = root;
	/* robots.txt follows the visibility and needs no key or token. */
	if (strcmp(rest, "robots.txt") == 0 && strcmp(vi->site.visibility, "public") != 0) {
		static const char deny[] = "User-agent: *\nDisallow: /\n";
		resp_header(r, "Cache-Control", "public, max-age=300");
		return answer(r, 200, CT_TEXT, deny, sizeof(deny) - 1);
	}
	if (gate(vi, &rest, &share))
		return 0;
	vi->rest = rest;
	vi->shared = share != NULL;
	public_site = strcmp(vi->site.visibility, "public") == 0;
	vi->v.site = &vi->site;
	vi->v.root = share ? arena_printf(vi->a, "%s/~share/%s", root, share) : root;
	vi->v.noindex = !public_site;
	vi->v.css_url = arena_printf(vi->a, "%s/~assets/site.css?v=%s", root, site_css_version());
	vi->v.js_url = arena_printf(vi->a, "%s/~assets/site.js?v=%s", root, site_js_version());
	vi->v.base = origin(vi, hostname);
	/* The Edit link: a plain link into the web interface (another origin),
	 * which decides there (app/edit_link.c); never on a site's own host. */
	vi->v.edit_url = hostname ? NULL : arena_printf(vi->a, "%s/~app/edit-link", r->srv->public_url);
	vi->v.here = rest;
	if (strncmp(rest, "~theme/", 7) == 0)
		return theme_set(vi, rest + 7);
	vi->v.theme = theme_of(r);
	if ((rc = dom_site_structure(vi->d, &vi->site, &vi->st)))
		return rc;
	/* The key: everything the answer depends on but the structure's
	 * revisions and visible set, which build_view adds. */
	snprintf(gen, sizeof(gen), "%lld", (long long)vi->site.generation);
	key_add(&vi->key, vi->site.id);
	key_add(&vi->key, gen);
	key_add(&vi->key, vi->v.root);
	key_add(&vi->key, vi->v.base);
	key_add(&vi->key, rest);
	key_add(&vi->key, site_css_version());
	key_add(&vi->key, site_js_version());
	key_add(&vi->key, vi->v.theme);
	if (strcmp(rest, "~search") == 0 || strcmp(rest, "~search.json") == 0)
		key_add(&vi->key, req_query(r, "q"));
	if ((rc = build_view(vi)))
		return rc;
	if (vi->v.nsections == 0)
		return plain_page(r, 404, "Nothing here yet", "This site has no content to show.");
	if (strncmp(rest, "~file/", 6) == 0)
		return file_redirect(vi, rest);
	return respond(vi, public_site);
}

/* The ~file and ~assets URLs, which need no rendering. */
static int file_redirect(struct visit *vi, const char *rest)
{
	char ssid[64], fid[64];
	const char *url;
	int rc;

	if (sscanf(rest, "~file/%63[^/]/%63[^/]", ssid, fid) != 2)
		return not_found(vi->r);
	for (int s = 0; s < vi->v.nsections; s++)
		for (int k = 0; k < vi->v.sections[s].nspaces; k++) {
			const struct sv_space *sp = &vi->v.sections[s].spaces[k];
			if (strcmp(sp->ss->id, ssid) != 0 || !revision_file(sp->rv, fid))
				continue;
			if ((rc = dom_file_url(vi->d, sp->ss->space_id, sp->rv->id, fid, &url)))
				return rc;
			return redirect(vi->r, url, NULL);
		}
	return not_found(vi->r);
}

int site_serve(struct req *r)
{
	struct visit vi = { 0 };
	const char *pre = origin_path(r), *name = NULL, *root, *rest;
	char host[256];
	int rc;

	err_clear();
	if (strcmp(r->method, "GET") != 0 && strcmp(r->method, "HEAD") != 0) {
		resp_header(r, "Allow", "GET, HEAD");
		return plain_page(r, 405, "Method not allowed", "Published sites are read with GET.");
	}
	if (strncmp(r->url, pre, strlen(pre)) == 0 && strncmp(r->url + strlen(pre), "/sites/", 7) == 0) {
		const char *p = r->url + strlen(pre) + 7;
		size_t n = strcspn(p, "/");
		name = arena_strndup(&r->arena, p, n);
		root = arena_printf(&r->arena, "%s/sites/%s", pre, name);
		rest = p + n + (p[n] == '/');
		host[0] = '\0';
	} else {
		const char *b, *ct;
		size_t bl;
		int st;
		if (!foreign_host(r, host, sizeof(host)))
			return 1;
		if (sitecache_get(r->srv->sites, no_site_key(&r->arena, host), &r->arena, &b, &bl, &st, &ct))
			return 1;
		root = "";
		rest = r->url + (r->url[0] == '/');
	}
	if ((name && !plain_token(name, 128)) || utf8_len(r->url) < 0)
		return not_found(r);
	/* KaTeX and highlight.js from Debian's packages, when installed (vendor.c). */
	if (strncmp(rest, "~assets/vendor/", 15) == 0)
		return site_vendor_serve(r, rest + 15);
	/* The stylesheet is the same for every site. */
	if (strcmp(rest, "~assets/site.js") == 0) {
		resp_header(r, "Cache-Control", "public, max-age=31536000, immutable");
		return answer(r, 200, "text/javascript; charset=utf-8", site_js, site_js_len);
	}
	if (strcmp(rest, "~assets/site.css") == 0) {
		resp_header(r, "Cache-Control", "public, max-age=31536000, immutable");
		return answer(r, 200, "text/css; charset=utf-8", site_css, site_css_len);
	}
	vi.r = r;
	vi.a = &r->arena;
	vi.rest = rest;
	jw_init(&vi.key);
	if ((rc = store_tx_begin(r->srv->store, &r->tx, 0, &r->arena)))
		goto fail;
	dom_init(&r->dom, r->srv, &r->tx, &r->arena, NULL);
	vi.d = &r->dom;
	rc = visit(&vi, name, name ? NULL : host, root);
	if (rc == 1) {
		store_tx_rollback(&r->tx);
		jw_free(&vi.key);
		json_decref(vi.claims);
		json_decref((json_t *)vi.v.visitor);
		json_decref(vi.v.custom);
		return 1; /* no site has this hostname: the API's */
	}
	if (rc)
		goto fail;
	rc = store_tx_commit(&r->tx);
	if (rc)
		goto fail;
	goto out;
fail:
	store_tx_rollback(&r->tx);
	log_error("site request %ld %s failed: %s", r->id, r->url, err_message());
	r->nheaders = 0;
	plain_page(r, err_status(rc) >= 500 ? 500 : err_status(rc), "Something went wrong",
		   "This page could not be shown. Try again in a moment.");
out:
	jw_free(&vi.key);
	json_decref(vi.claims);
	json_decref((json_t *)vi.v.visitor);
	json_decref(vi.v.custom);
	return 0;
}
