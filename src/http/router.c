/*
 * router.c - match a request against the route table and run it.
 *
 * router_dispatch() first splits the two origins (README, "Two origins"): on
 * the site listener a published site or one of the few public routes
 * site_origin_serve leaves to the API, else 404; on the main listener a 308
 * for what moved to the site origin, a site on its own hostname, the
 * refusal of scripts and styles outside /~app/ (subresource_refused), the
 * web interface, then the API.
 * It is the only path from a parsed request to a handler:
 *   match (404 / 405) -> authenticate (401) -> rate limit (429) -> JSON body
 *   (415 / 400) -> [prefetch: authenticated, no transaction] -> begin
 *   transaction -> organization access (404 / 403) -> handler -> commit, or
 *   rollback on any error.
 * A route with a prefetch step is dispatched in two calls: the first stops
 * before the step (REQ_AUTHENTICATED), the caller runs router_prefetch() where
 * it likes (listener.c: on a fetch thread), and the second call goes on from
 * the transaction.
 * The route's flags decide which steps apply; handlers assume they all passed.
 */
#include "api/routes.h"
#include "app/app.h"
#include "http/http.h"
#include "http/router.h"
#include "http/services.h"
#include "site/site.h"
#include "util/err.h"
#include "util/log.h"

#include <microhttpd.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

int route_template_match(const char *tpl, const char *path, struct arena *a, struct route_match *m)
{
	int np = 0;

	while (*tpl && *path) {
		if (*tpl == '{') {
			const char *name = tpl + 1, *end = strchr(tpl, '}');
			if (!end || np >= REQ_MAX_PARAMS)
				return 0;
			/* {name*} ends a template and takes the rest of the path,
			 * slashes included (a page path such as guides/setup). */
			int rest = end > name && end[-1] == '*' && end[1] == '\0';
			size_t nlen = (size_t)(end - name) - (rest ? 1 : 0);
			size_t vlen = rest ? strlen(path) : strcspn(path, "/");
			if (vlen == 0)
				return 0;
			if (a) {
				m->names[np] = arena_strndup(a, name, nlen);
				m->values[np] = arena_strndup(a, path, vlen);
			}
			np++;
			tpl = end + 1;
			path += vlen;
			continue;
		}
		if (*tpl != *path)
			return 0;
		tpl++;
		path++;
	}
	if (*tpl || *path)
		return 0;
	if (a)
		m->nparams = np;
	return 1;
}

int route_find(const char *method, const char *path, struct arena *a, struct route_match *m)
{
	size_t alen = 0;
	int path_known = 0;

	m->allow[0] = '\0';
	m->index = -1;
	m->nparams = 0;
	for (int i = 0; i < routes_count; i++) {
		if (!route_template_match(routes[i].path, path, NULL, NULL))
			continue;
		if (strcmp(routes[i].method, method) == 0) {
			route_template_match(routes[i].path, path, a, m);
			m->index = i;
			return 0;
		}
		path_known = 1;
		int n = snprintf(m->allow + alen, sizeof(m->allow) - alen, "%s%s", alen ? ", " : "", routes[i].method);
		if (n > 0 && (size_t)n < sizeof(m->allow) - alen)
			alen += (size_t)n;
	}
	if (path_known)
		return err_set(ERR_METHOD, "method %s is not allowed on this path", method);
	return err_set(ERR_NOT_FOUND, "no such endpoint: %s %s", method, path);
}

static enum MHD_Result utf8_arg(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	const char **bad = cls;

	(void)kind;
	if (utf8_len(key) < 0 || (value && utf8_len(value) < 0)) {
		*bad = key;
		return MHD_NO;
	}
	return MHD_YES;
}

/* Query parameters reach the store as text: bytes that are not UTF-8 are a 400. */
static int query_utf8_check(struct req *r)
{
	const char *bad = NULL;

	MHD_get_connection_values(r->conn, MHD_GET_ARGUMENT_KIND, utf8_arg, &bad);
	if (bad)
		return err_set(ERR_INVALID, "query parameter '%s': not valid UTF-8", bad);
	return 0;
}

static int route_request(struct req *r, const char *path)
{
	struct route_match m;
	int rc = route_find(r->method, path, &r->arena, &m);

	if (rc == ERR_METHOD)
		resp_header(r, "Allow", arena_strdup(&r->arena, m.allow));
	if (rc)
		return rc;
	r->route = &routes[m.index];
	r->route_index = m.index;
	r->nparams = m.nparams;
	for (int i = 0; i < m.nparams; i++) {
		/* Ids and paths are UTF-8; other bytes name nothing (and PostgreSQL
		 * would refuse them as text). */
		if (utf8_len(m.values[i]) < 0)
			return err_set(ERR_NOT_FOUND, "not found");
		r->param_names[i] = m.names[i];
		r->param_values[i] = m.values[i];
	}
	return query_utf8_check(r);
}

/* defer: a cache hit is confirmed later in the transaction (run_tx, with
 * the membership's read) instead of by a read of its own. */
static int authenticate(struct req *r, bool defer)
{
	char hash[65];
	int rc = token_hash_header(req_header(r, MHD_HTTP_HEADER_AUTHORIZATION), hash);

	if (rc)
		return rc;
	r->token_hash = arena_strdup(&r->arena, hash);
	rc = token_authenticate(r->srv->tokens, &r->tx, hash, &r->caller_id, &r->caller_integration,
				&r->caller_installation, &r->caller,
				defer ? &r->token_unconfirmed : NULL);
	/* The caller's row came with the store's answer (req_caller need not
	 * read it again). */
	r->caller_loaded = rc == 0 && r->caller.id != NULL;
	return rc;
}

/* A cached token, confirmed before anything runs for its caller: seen is
 * the token generation read with the membership (-1: none read). */
static int confirm_token(struct req *r, int64_t seen)
{
	int64_t cached = r->token_unconfirmed;
	int rc;

	if (cached < 0)
		return 0;
	r->token_unconfirmed = -1;
	rc = token_confirm(r->srv->tokens, &r->tx, r->token_hash, r->caller_id, cached, seen, &r->caller);
	r->caller_loaded = rc == 0 && r->caller.id != NULL && seen != cached;
	return rc;
}

static int parse_body(struct req *r)
{
	const char *ct;
	json_error_t jerr;
	unsigned flags = r->route->flags;

	if (r->body_too_large)
		return err_set(ERR_TOO_LARGE, "request body is larger than %zu bytes", r->srv->cfg.max_body);
	if (!(flags & (ROUTE_BODY | ROUTE_BODY_OPTIONAL)))
		return 0;
	if (r->body_len == 0) {
		if (flags & ROUTE_BODY)
			return err_set(ERR_INVALID, "a JSON object body is required");
		return 0;
	}
	ct = req_header(r, MHD_HTTP_HEADER_CONTENT_TYPE);
	if (!ct || strncasecmp(ct, "application/json", 16) != 0 || (ct[16] && ct[16] != ';' && ct[16] != ' '))
		return err_set(ERR_MEDIA_TYPE, "Content-Type must be application/json");
	r->json = json_loadb(r->body, r->body_len, JSON_REJECT_DUPLICATES, &jerr);
	if (!r->json)
		return err_set(ERR_INVALID, "invalid JSON at line %d, column %d: %s", jerr.line, jerr.column, jerr.text);
	if (!json_is_object(r->json))
		return err_set(ERR_INVALID, "the JSON body must be an object");
	return 0;
}

struct keybuf {
	char buf[1024];
	size_t len;
	int overflow;
};

static void key_add(struct keybuf *k, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	int w;

	/* Length-prefixed, so no value can imitate another key's structure. */
	w = snprintf(k->buf + k->len, sizeof(k->buf) - k->len, "%zu:", n);
	if (w < 0 || (size_t)w + n >= sizeof(k->buf) - k->len) {
		k->overflow = 1;
		return;
	}
	k->len += (size_t)w;
	memcpy(k->buf + k->len, s ? s : "", n);
	k->len += n;
}

static enum MHD_Result key_arg(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	(void)kind;
	key_add(cls, key);
	key_add(cls, value ? value : "");
	return MHD_YES;
}

/* The page cache key: route, organization, and every query argument in order. */
static int cache_key(struct req *r, struct keybuf *k)
{
	k->len = 0;
	k->overflow = 0;
	key_add(k, r->route->name);
	key_add(k, r->dom.actor.org_id);
	/* Every path parameter (a site's id below its organization). */
	for (int i = 0; i < r->nparams; i++)
		key_add(k, r->param_values[i]);
	MHD_get_connection_values(r->conn, MHD_GET_ARGUMENT_KIND, key_arg, k);
	return !k->overflow;
}

/* Before a route's prefetch step (routes.h), which runs with no transaction or
 * lock held: the caller is authenticated in a short read transaction of its
 * own (authenticate() answers from the token cache when it can), so a request
 * without a valid token never reaches the step; the write transaction begins
 * after it and does not authenticate again. */
static int authenticate_alone(struct req *r)
{
	int rc;

	if (r->route->flags & ROUTE_PUBLIC)
		return 0;
	if ((rc = store_tx_begin(r->srv->store, &r->tx, 0, &r->arena)))
		return rc;
	if ((rc = authenticate(r, false))) {
		store_tx_rollback(&r->tx);
		return rc;
	}
	return store_tx_commit(&r->tx);
}

void router_prefetch(struct req *r, int refused)
{
	int rc = refused ? refused : r->route->prefetch(r);

	/* The message is this thread's: keep it for the worker that answers. */
	r->prefetch_rc = rc;
	if (rc)
		r->prefetch_msg = arena_strdup(&r->arena, err_message());
	r->stage = REQ_PREFETCHED;
}

/* Everything after the checks and the prefetch step: the transaction, the
 * organization's access, the page cache and the handler. */
static int run_tx(struct req *r)
{
	const struct route *rt = r->route;
	struct keybuf key;
	int cacheable = 0;
	int rc = store_tx_begin(r->srv->store, &r->tx, (rt->flags & ROUTE_WRITE) != 0, &r->arena);

	if (rc)
		return rc;
	r->token_unconfirmed = -1;
	if (!(rt->flags & ROUTE_PUBLIC) && !r->caller_id && (rc = authenticate(r, true)))
		goto fail;
	dom_init(&r->dom, r->srv, &r->tx, &r->arena, r->caller_id);
	r->dom.actor.installation_id = r->caller_installation; /* installation tokens */
	r->dom.actor.integration_id = r->caller_integration;   /* and integration tokens */
	if (rt->org != ORG_ACCESS_NONE) {
		rc = dom_enter_org(&r->dom, req_param(r, "organizationId"));
		/* A cached token is confirmed by the token generation read with
		 * the membership (a revoked one is a 401, never the org's 404). */
		int vrc = confirm_token(r, rc == 0 ? r->dom.actor.org.token_gen : -1);
		if (vrc)
			rc = vrc;
		if (rc == 0)
			rc = org_access_check(r->dom.actor.org.role, rt->org);
		if (rc)
			goto fail;
	}
	if ((rc = confirm_token(r, -1))) /* the routes outside an organization: a read of its own */
		goto fail;
	if (((rt->flags & ROUTE_CACHE) || ((rt->flags & ROUTE_CACHE_ADMIN) && r->dom.actor.org.role == ROLE_ADMIN)) &&
	    cache_key(r, &key)) {
		cacheable = 1;
		if (pagecache_get(r->srv->pages, key.buf, key.len, r->dom.actor.org.generation, resp_json(r, 200)))
			return store_tx_commit(&r->tx);
	}
	rc = rt->handler(r);
	if (rc)
		goto fail;
	rc = store_tx_commit(&r->tx);
	if (rc)
		return rc;
	if (r->dom.jobs_queued)
		server_kick_jobs(r->srv); /* now the queued rows are visible */
	if (cacheable && r->status == 200 && r->gen && jw_ok(r->gen))
		pagecache_put(r->srv->pages, key.buf, key.len, r->dom.actor.org.generation, r->gen->buf, r->gen->len);
	return 0;
fail:
	store_tx_rollback(&r->tx);
	return rc;
}

/* Match and check r; then run it, or stop at REQ_AUTHENTICATED when its route
 * has a prefetch step. */
static int run(struct req *r, const char *path)
{
	const struct route *rt;
	int rc = route_request(r, path);

	if (rc)
		return rc;
	rt = r->route;
	if (!(rt->flags & ROUTE_PUBLIC)) {
		/* The token is checked before anything else about the request. */
		char hash[65];
		rc = token_hash_header(req_header(r, MHD_HTTP_HEADER_AUTHORIZATION), hash);
		if (rc)
			return rc;
		if (r->srv->rl) {
			rc = ratelimit_take(r->srv->rl, hash, &r->rl_limit, &r->rl_remaining, &r->rl_reset);
			if (rc)
				return rc;
		}
	}
	rc = parse_body(r);
	if (rc)
		return rc;
	if ((rt->flags & ROUTE_NO_TX) && !rt->prefetch)
		return rt->handler(r);
	/* A request with nothing to prefetch (a batch without URLs) goes on at once. */
	if (rt->prefetch && (!rt->prefetch_needed || rt->prefetch_needed(r))) {
		if ((rc = authenticate_alone(r)) == 0)
			r->stage = REQ_AUTHENTICATED;
		return rc;
	}
	return run_tx(r);
}

/* Every 401 says how to get a token, for the store this server uses: a token
 * made with another --data is the usual newcomer's mistake. The --data path is
 * the one the operator gave (scripts/serve.sh gives an absolute one); a
 * PostgreSQL URL is never echoed (it may hold a password). */
static void token_hint(const struct server *srv, char *buf, size_t size, const char *msg)
{
	if (srv->cfg.database_url)
		snprintf(buf, size,
			 "%s: send Authorization: Bearer <token>; this server's tokens are in its PostgreSQL database: create one "
			 "with `docsd token create --database <its URL> --email you@example.com` (or `docsd user create ... --if-exists`)",
			 msg);
	else
		snprintf(buf, size,
			 "%s: send Authorization: Bearer <token>; this server's tokens are in --data %s: create one with "
			 "`docsd token create --data %s --email you@example.com` (or `docsd user create ... --if-exists`)",
			 msg, srv->cfg.data_dir ? srv->cfg.data_dir : "./data", srv->cfg.data_dir ? srv->cfg.data_dir : "./data");
}

static void respond_error(struct req *r, int code)
{
	int status = err_status(code);
	const char *msg = err_message();
	char buf[1024];

	if (status >= 500) {
		log_error("request %ld %s %s failed: %s", r->id, r->method, r->url, msg);
		msg = status == 503 ? "service unavailable, try again" : "internal error";
	} else if (status == 401) {
		token_hint(r->srv, buf, sizeof(buf), msg);
		msg = buf;
	}
	http_error_json(resp_json(r, status), status, msg);
}

/* The main origin's last line against script it did not write: a browser
 * loading a script, a stylesheet or a worker (Sec-Fetch-Dest) from any
 * path but the web interface's own assets (/~app/) is answered 404, so
 * that no upload (/files/ keeps the type it was given), API answer or
 * other same-origin bytes a user chose run as 'self' under the app's CSP.
 * 0 when answered; 1 to go on (browsers that send no Sec-Fetch-Dest, and
 * every other destination). */
static int subresource_refused(struct req *r)
{
	static const char *const dests[] = { "script", "style", "worker", "sharedworker", "serviceworker",
					     "audioworklet", "paintworklet", "xslt" };
	const char *dest = req_header(r, "Sec-Fetch-Dest");

	if (!dest)
		return 1;
	for (size_t i = 0; i < sizeof(dests) / sizeof(dests[0]); i++)
		if (strcasecmp(dest, dests[i]) == 0) {
			if (strncmp(r->url, "/~app/", 6) == 0) /* the app's table (app.c) */
				return 1;
			resp_header(r, "X-Content-Type-Options", "nosniff");
			http_error_json(resp_json(r, 404), 404, "not found");
			return 0;
		}
	return 1;
}

/* The integrations' callback listener (listener_start_runtime): only
 * workerd's router, which adds the server's secret, and only the API. The
 * secret is compared in constant time: the listener is on loopback, but any
 * local process may connect. 0: refused and answered; 1: go on. */
static int runtime_origin_guard(struct req *r)
{
	const char *given = req_header(r, SERVER_RUNTIME_CALLBACK_HEADER);
	const char *want = r->srv->runtime_secret;
	size_t n = strlen(want);
	unsigned char diff = 0;

	if (!given || !*want || strlen(given) != n) {
		diff = 1;
	} else {
		for (size_t i = 0; i < n; i++)
			diff |= (unsigned char)(given[i] ^ want[i]);
	}
	if (diff) {
		respond_error(r, err_set(ERR_FORBIDDEN, "this listener serves the integrations' runtime only"));
		return 0;
	}
	if (strcmp(r->url, "/v1") != 0 && strncmp(r->url, "/v1/", 4) != 0) {
		respond_error(r, err_set(ERR_NOT_FOUND, "only the API (/v1) is served to integrations"));
		return 0;
	}
	return 1;
}

int router_dispatch(struct req *r)
{
	char path[2048];
	size_t n = strlen(r->url);
	int rc;

	err_clear();
	/* A query listener.c cut off (too many parameters for libmicrohttpd's
	 * pool): the same 400 for the API, the sites and the web interface. */
	if (r->stage == REQ_RECEIVED && r->query_cut) {
		r->stage = REQ_DISPATCHED;
		respond_error(r, err_set(ERR_INVALID, "the query has too many parameters (at most 128, fewer in a long URL)"));
		return 0;
	}
	/* The site listener (README, "Two origins"): published sites and the
	 * few public routes site_origin_serve leaves to the API (1); nothing
	 * else, and never the web interface, which reads the session. */
	if (r->stage == REQ_RECEIVED && r->site_origin && site_origin_serve(r) == 0) {
		r->stage = REQ_DISPATCHED;
		return 0;
	}
	if (r->stage == REQ_RECEIVED && r->runtime_origin && runtime_origin_guard(r) == 0) {
		r->stage = REQ_DISPATCHED;
		return 0;
	}
	/* The main listener: what moved to the site origin is a 308 there;
	 * published sites (site/serve.c) at a site's own hostname (site_serve
	 * returns 1 for a hostname that names no site); then script and style
	 * load only from the web interface's own assets. */
	if (r->stage == REQ_RECEIVED && !r->site_origin && !r->runtime_origin &&
	    ((site_main_moved_path(r) && site_moved_to_site_origin(r) == 0) || (site_request(r) && site_serve(r) == 0) ||
	     subresource_refused(r) == 0)) {
		r->stage = REQ_DISPATCHED;
		return 0;
	}
	/* The web interface (app/app.c): the paths of its own table (/, /o/,
	 * /s/, /c/, /~app/ ...); 1 leaves every other path to the API. */
	if (r->stage == REQ_RECEIVED && strncmp(r->url, "/v1", 3) != 0 && app_serve(r) == 0) {
		r->stage = REQ_DISPATCHED;
		return 0;
	}
	if (r->stage == REQ_PREFETCHED) {
		rc = r->prefetch_rc ? err_set(r->prefetch_rc, "%s", r->prefetch_msg)
		     : (r->route->flags & ROUTE_NO_TX) ? r->route->handler(r)
						       : run_tx(r);
	} else if (n >= sizeof(path)) {
		rc = err_set(ERR_NOT_FOUND, "path too long");
	} else {
		memcpy(path, r->url, n + 1);
		/* "/v1/" and "/v1/orgs/" name the same resources as without the slash. */
		if (n > 1 && path[n - 1] == '/')
			path[n - 1] = '\0';
		rc = run(r, path);
		if (rc == 0 && r->stage == REQ_AUTHENTICATED)
			return 1; /* the prefetch step is next */
	}
	r->stage = REQ_DISPATCHED;
	if (rc) {
		r->nheaders = r->nheaders > 0 && strcmp(r->header_names[0], "Allow") == 0 ? 1 : 0;
		respond_error(r, rc);
	} else if (!r->responded) {
		log_error("handler %s returned without a response", r->route ? r->route->name : "?");
		respond_error(r, err_set(ERR_INTERNAL, "no response"));
	}
	return 0;
}
