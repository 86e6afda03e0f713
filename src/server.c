/*
 * server.c - configuration defaults, and starting and stopping the server.
 */
#include "server.h"
#include "runtime/runtime.h"
#include "domain/git_sync.h"
#include "jobs/jobs.h"
#include "api/routes.h"
#include "model/validate.h"
#include "domain/content.h"
#include "domain/openapi.h"
#include "http/listener.h"
#include "http/services.h"
#include "site/site.h"
#include "store/store.h"
#include "translate/engine.h"
#include "util/alloc.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

int server_open_store(struct store **out, const struct config *cfg, int nconn)
{
	char path[4096];

	if (cfg->database_url && *cfg->database_url)
		return store_open(out, NULL, cfg->database_url, nconn);
	if (mkdir(cfg->data_dir, 0700) != 0 && errno != EEXIST)
		return err_set(ERR_UNAVAILABLE, "cannot create data directory %s: %s", cfg->data_dir, strerror(errno));
	if (snprintf(path, sizeof(path), "%s/docsd.db", cfg->data_dir) >= (int)sizeof(path))
		return err_set(ERR_INVALID, "--data path too long");
	return store_open(out, path, NULL, nconn);
}

/* The integrations' runtime (runtime/runtime.h), before the job workers
 * that deliver through it: scripts call back docsd's public origin, which
 * is really the callback listener (listener_start_runtime: its own
 * connection budget, so that scripts and local clients do not share
 * 127.0.0.1's), with the secret the router adds. Without
 * --integration-runtime it is a runtime whose deliveries fail with the
 * reason, and no callback listener. */
static int integration_runtime_start(struct server *s)
{
	char work_dir[1024], origin[512], connect[300]; /* runtime_new copies them */
	const char *scheme_end = strstr(s->public_url, "://");
	const char *path = scheme_end ? strchr(scheme_end + 3, '/') : NULL;
	bool wanted = s->cfg.integration_runtime && strcmp(s->cfg.integration_runtime, "none") != 0;
	int rc;

	/* Started first, since the router's target is its port; stopped again
	 * when "auto" finds no workerd. */
	if (wanted) {
		if (random_alnum(s->runtime_secret, 32) != 0)
			return err_set(ERR_INTERNAL, "cannot draw the runtime's callback secret");
		s->runtime_secret[32] = '\0';
		if ((rc = listener_start_runtime(s)))
			return rc;
	}

	snprintf(work_dir, sizeof(work_dir), "%s/runtime", s->cfg.data_dir ? s->cfg.data_dir : "./data");
	snprintf(origin, sizeof(origin), "%.*s", path ? (int)(path - s->public_url) : (int)strlen(s->public_url),
		 s->public_url);
	snprintf(connect, sizeof(connect), "127.0.0.1:%d", wanted ? listener_runtime_port(s) : listener_port(s));
	struct runtime_config cfg = {
		.binary = s->cfg.integration_runtime,
		.work_dir = work_dir,
		.api_origin = origin,
		.api_connect = connect,
		.api_secret = s->runtime_secret,
		.allow_private_network = s->cfg.allow_private_network,
		.heap_mb = 128,
		.timeout_ms = s->cfg.integration_timeout > 0 ? s->cfg.integration_timeout * 1000 : 10000,
		.idle_ms = 5 * 60 * 1000,
		.max_processes = 16,
	};
	if ((rc = runtime_new(&s->runtime, &cfg)))
		return rc;
	if (!runtime_available(s->runtime))
		listener_stop_runtime(s);
	return 0;
}

/* scheme://host[:port] of url: its origin's length. */
static size_t origin_len(const char *url)
{
	const char *h = strstr(url, "://");

	return h ? (size_t)(h + 3 - url) + strcspn(h + 3, "/") : 0;
}

/* The published sites' base (README, "Two origins"). --site-url as given;
 * else the public URL's scheme with the site listener's port and, for a
 * loopback public URL, the other loopback name (127.0.0.1 <-> localhost):
 * a browser sends a host's cookies to all its ports and counts all its
 * ports as one site, so only another host name keeps the session cookie
 * (host-only, for the public URL's host) away from the sites and makes
 * them cross-site for SameSite. A public URL on another host name gets
 * that name and the site port, and a notice to give --site-url: the
 * site listener never reads the session either way. */
static int site_url_init(struct server *s)
{
	const char *pub = s->public_url, *h = strstr(pub, "://");
	char host[256];
	size_t hl;

	if (s->cfg.site_url && *s->cfg.site_url) {
		if (!valid_url(s->cfg.site_url))
			return err_set(ERR_INVALID, "--site-url must be an absolute http or https URL");
		snprintf(s->site_url, sizeof(s->site_url), "%s", s->cfg.site_url);
	} else {
		h = h ? h + 3 : pub;
		hl = strcspn(h, "/");
		if (h[0] == '[')
			hl = strcspn(h, "]") + 1 < hl ? strcspn(h, "]") + 1 : hl;
		else if (strcspn(h, ":") < hl)
			hl = strcspn(h, ":");
		snprintf(host, sizeof(host), "%.*s", (int)hl, h);
		if (strcmp(host, "127.0.0.1") == 0)
			snprintf(host, sizeof(host), "localhost");
		else if (strcmp(host, "localhost") == 0)
			snprintf(host, sizeof(host), "127.0.0.1");
		else
			log_info("published sites are served at %.*s's host name on port %d: give --site-url a host name "
				 "of their own (README, \"Two origins\")",
				 (int)origin_len(pub), pub, listener_site_port(s));
		snprintf(s->site_url, sizeof(s->site_url), "%.*s://%s:%d", (int)strcspn(pub, ":"), pub, host,
			 listener_site_port(s));
	}
	size_t n = strlen(s->site_url);
	while (n > 0 && s->site_url[n - 1] == '/')
		s->site_url[--n] = '\0';
	/* Same scheme, host and port: the sites would share the web
	 * interface's origin, which is what the second listener prevents. */
	if (origin_len(s->site_url) == origin_len(pub) && strncasecmp(s->site_url, pub, origin_len(pub)) == 0)
		return err_set(ERR_INVALID, "--site-url must be another origin than --public-url");
	return 0;
}

int server_start(struct server **out, const struct config *cfg)
{
	struct server *s = xcalloc(1, sizeof(*s));
	int rc;

	s->cfg = *cfg;
	/* The public URL is written into responses unescaped (jw_kurl): only a
	 * plain http(s) URL is accepted. */
	if (cfg->public_url && *cfg->public_url && !valid_url(cfg->public_url)) {
		rc = err_set(ERR_INVALID, "--public-url must be an absolute http or https URL");
		goto fail;
	}
	clock_set_offset(cfg->clock_offset_ms);
	if (cfg->trusted_proxy &&
	    net_ranges_parse(cfg->trusted_proxy, s->trusted_proxies, NET_RANGES_MAX, &s->ntrusted_proxies)) {
		rc = err_set(ERR_INVALID, "--trusted-proxy must be CIDR ranges separated by ','");
		goto fail;
	}
		/* both listeners' workers + the job workers and their scheduler */
	rc = server_open_store(&s->store, cfg, 2 * cfg->threads + 2 + cfg->job_workers + 1);
	if (rc || (rc = revcache_new(&s->revisions, (size_t)cfg->cache_mb << 20)))
		goto fail;
	/* Before the job workers start their first transaction. */
	store_set_revision_cache(s->store, s->revisions);
	s->engine = store_engine(s->store);
	/* Before any request or job signs a URL (its own write transaction). */
	if ((rc = dom_secrets_load(s->store, &s->secrets)))
		goto fail;
	if ((rc = pdfcache_new(&s->pdfs, (size_t)cfg->pdf_cache_mb << 20, cfg->pdf_renders, cfg->pdf_wait_ms)) ||
	    (rc = token_cache_new(&s->tokens)) || (rc = metrics_new(&s->metrics, routes_count)) ||
	    (rc = pagecache_new(&s->pages, 64, 256 * 1024)) ||
	    (rc = sitecache_new(&s->sites, (size_t)cfg->site_cache_mb << 20)))
		goto fail;
	metrics_set_store(s->metrics, s->store);
	if (cfg->rate_limit > 0 && (rc = ratelimit_new(&s->rl, cfg->rate_limit)))
		goto fail;
	if (cfg->sso_rate_limit > 0 && (rc = ratelimit_new(&s->sso_rl, cfg->sso_rate_limit)))
		goto fail;
	rc = listener_start(s);
	if (rc)
		goto fail;
	if (cfg->public_url && *cfg->public_url) {
		snprintf(s->public_url, sizeof(s->public_url), "%s", cfg->public_url);
	} else {
		/* Default: the address we listen on, with the real port when it was 0. */
		char host[256];
		const char *colon = strrchr(cfg->listen, ':');
		size_t hl = colon ? (size_t)(colon - cfg->listen) : 0;
		if (hl >= sizeof(host) || hl == 0) {
			snprintf(host, sizeof(host), "127.0.0.1");
		} else {
			memcpy(host, cfg->listen, hl);
			host[hl] = '\0';
		}
		snprintf(s->public_url, sizeof(s->public_url), "http://%s:%d", host, listener_port(s));
	}
	size_t n = strlen(s->public_url);
	while (n > 0 && s->public_url[n - 1] == '/')
		s->public_url[--n] = '\0';
	if ((rc = site_url_init(s)))
		goto fail;
	{
		struct tr_engine_config tc = { cfg->translation_engine, cfg->apertium_dir, cfg->translation_timeout * 1000,
					       cfg->translation_url, cfg->translation_api_key };
		if ((rc = tr_engine_new(&s->translator, &tc)))
			goto fail;
	}
	/* After the public URL is known (job handlers write links); due periodic
	 * jobs run before the server reports ready. The kinds are the constant
	 * table jobs/kinds.c; libgit2 is set up first so that a failure stops
	 * docsd here rather than failing every Git job. */
	if ((rc = integration_runtime_start(s)))
		goto fail;
	metrics_set_runtime(s->metrics, s->runtime);
	if ((rc = dom_git_init()) || (rc = jobs_start(&s->jobs, s->store, s, cfg->job_workers)))
		goto fail;
	atomic_store(&s->ready, 1);
	*out = s;
	return 0;
fail:
	server_stop(s);
	return rc;
}

void server_kick_jobs(const struct server *srv)
{
	if (srv)
		jobs_kick(srv->jobs);
}

void server_stop(struct server *s)
{
	if (!s)
		return;
	atomic_store(&s->ready, 0);
	listener_stop(s);
	jobs_stop(s->jobs);
	tr_engine_free(s->translator); /* after the job workers stopped */
	runtime_free(s->runtime); /* after the job workers stopped: they deliver through it */
	store_close(s->store);
	revcache_free(s->revisions); /* after every transaction has ended */
	token_cache_free(s->tokens);
	ratelimit_free(s->rl);
	ratelimit_free(s->sso_rl);
	metrics_free(s->metrics);
	pagecache_free(s->pages);
	pdfcache_free(s->pdfs);
	sitecache_free(s->sites);
	dom_secrets_free(&s->secrets);
	free(s);
}
