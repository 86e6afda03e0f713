/*
 * integration_events.c - GitBook's integration events: recorded with the
 * change that caused them, delivered by a job (integration_events.h draws
 * the steps).
 */
#include "domain/integration_events.h"
#include "domain/integrations.h"
#include "domain/secrets.h"
#include "json/serialize_integrations.h"
#include "model/revision.h"
#include "runtime/runtime.h"
#include "store/jobs.h"
#include "util/fetch.h"
#include "util/err.h"
#include "util/util.h"

#include <jansson.h>
#include <string.h>

/* ---- recording ---- */

int dom_event_record(struct dom *d, const struct integration *it, const char *installation_id, const char *org_id,
		     const char *type, const char *fields)
{
	return dom_event_record_at(d, it, installation_id, org_id, type, fields, 0);
}

int dom_event_record_at(struct dom *d, const struct integration *it, const char *installation_id, const char *org_id,
			const char *type, const char *fields, int64_t run_after)
{
	char id[ID_LEN + 1], job[ID_LEN + 1];
	json_t *f = fields ? json_loads(fields, 0, NULL) : json_object(), *p = json_object();
	struct integration_event ev = { 0 };
	char *text;
	int rc;

	if (!json_is_object(f) || id_new(id)) {
		json_decref(f);
		json_decref(p);
		return err_set(ERR_INTERNAL, "event %s: cannot be written", type);
	}
	/* eventId and type first: store/integrations.c reads the type at
	 * that place (tasks are not kept in order). */
	json_object_set_new(p, "eventId", json_string(id));
	json_object_set_new(p, "type", json_string(type));
	if (installation_id)
		json_object_set_new(p, "installationId", json_string(installation_id));
	json_object_update(p, f);
	json_decref(f);
	text = json_dumps(p, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(p);
	if (!text)
		return err_set(ERR_INTERNAL, "event %s: cannot write its payload", type);
	ev.id = arena_strdup(d->arena, id);
	ev.integration_id = it->id;
	ev.installation_id = installation_id;
	ev.org_id = org_id;
	ev.payload = arena_strdup(d->arena, text);
	free(text);
	/* The job's subject is the installation: `docsd job list` shows whose.
	 * The integration's row is locked first so that its events take their
	 * sequence numbers (the delivery order) one transaction at a time. */
	if ((rc = store_integration_lock(d->tx, it->id)) || (rc = store_event_create(d->tx, &ev)))
		return rc;
	/* The events of an installation are delivered in order: their jobs
	 * share an order key, so the queue claims one only when the previous
	 * one has finished (store_job_enqueue_ordered), with no polling. The
	 * lock above numbers the jobs in the events' own order. Tasks (maybe
	 * scheduled hours ahead) and events of no installation neither wait
	 * nor are waited for (store_event_has_older_pending says the same). */
	const char *subject = installation_id ? installation_id : it->id;
	const char *payload = arena_printf(d->arena, "{\"event\":\"%s\"}", ev.id);
	if (installation_id && strcmp(type, "task") != 0)
		rc = store_job_enqueue_ordered(d->tx, INTEGRATION_DELIVER_KIND, subject, payload, run_after,
					       arena_printf(d->arena, "deliver:%s", installation_id), job);
	else
		rc = store_job_enqueue(d->tx, INTEGRATION_DELIVER_KIND, subject, payload, run_after, job);
	if (rc)
		return rc;
	if (d->srv)
		dom_jobs_queued(d);
	return 0;
}

/* Whether installation `in` covers space s: installed on it, or on every
 * space of its organization (space_selection "all") for an integration
 * that targets spaces. */
static int record_for_installation(struct dom *d, const struct integration_installation *in, const struct space *s,
				   const char *type, const char *fields)
{
	struct integration it;
	int rc = store_integration_by_id(d->tx, in->integration_id, &it);

	if (rc)
		return rc;
	return dom_event_record(d, &it, in->id, in->org_id, type, fields);
}

int dom_event_for_space(struct dom *d, const struct space *s, const char *type, const char *fields)
{
	struct integration_target *t;
	struct integration_installation *ins, in;
	struct list_req lr = { .limit = 1000 };
	char *next;
	int n, nins, rc;

	if ((rc = store_targets_of(d->tx, "space", s->id, &t, &n)))
		return rc;
	for (int i = 0; i < n; i++) {
		if (strcmp(t[i].status, "active") != 0)
			continue;
		if ((rc = store_installation_get(d->tx, NULL, t[i].installation_id, &in)) ||
		    (rc = record_for_installation(d, &in, s, type, fields)))
			return rc;
	}
	if ((rc = store_installations_list(d->tx, NULL, s->org_id, NULL, &lr, &ins, &nins, &next)))
		return rc;
	for (int i = 0; i < nins; i++) {
		struct integration it;
		struct integration_target already;
		if (strcmp(ins[i].status, "active") != 0 || strcmp(ins[i].space_selection, "all") != 0)
			continue;
		if (store_target_get(d->tx, ins[i].id, "space", s->id, &already) == 0)
			continue; /* recorded above */
		if ((rc = store_integration_by_id(d->tx, ins[i].integration_id, &it)))
			return rc;
		if (strcmp(it.target, "all") != 0 && strcmp(it.target, "space") != 0)
			continue;
		if ((rc = dom_event_record(d, &it, ins[i].id, ins[i].org_id, type, fields)))
			return rc;
	}
	return 0;
}

int dom_integrations_on_space_advanced(struct dom *d, const struct space_advanced *ev)
{
	if (ev->cause != SPACE_ADVANCED_BY_MERGE && ev->cause != SPACE_ADVANCED_BY_IMPORT)
		return 0;
	return dom_event_for_space(d, ev->space, "space_content_updated",
				   arena_printf(d->arena, "{\"spaceId\":\"%s\",\"revisionId\":\"%s\"}", ev->space->id,
						ev->revision->id));
}

int dom_integrations_visibility_updated(struct dom *d, const struct space *s, const char *previous,
					const char *visibility)
{
	if (!previous || !visibility || strcmp(previous, visibility) == 0)
		return 0;
	return dom_event_for_space(d, s, "space_visibility_updated",
				   arena_printf(d->arena,
						"{\"spaceId\":\"%s\",\"previousVisibility\":\"%s\",\"visibility\":\"%s\"}",
						s->id, previous, visibility));
}

int dom_integrations_gitsync(struct dom *d, const struct space *s, bool completed, const char *state,
			     const char *revision_id, const char *commit_id)
{
	if (completed)
		return dom_event_for_space(
			d, s, "space_gitsync_completed",
			arena_printf(d->arena, "{\"spaceId\":\"%s\",\"state\":\"%s\",\"revisionId\":\"%s\",\"commitId\":\"%s\"}",
				     s->id, state ? state : "success", revision_id ? revision_id : "",
				     commit_id ? commit_id : ""));
	return dom_event_for_space(d, s, "space_gitsync_started",
				   arena_printf(d->arena, "{\"spaceId\":\"%s\",\"revisionId\":\"%s\",\"commitId\":\"%s\"}",
						s->id, revision_id ? revision_id : "", commit_id ? commit_id : ""));
}

/* ---- delivery ---- */

/* A signing secret of the integration (or one of its installations): an
 * HMAC of the server's sealing secret over a label and the id, so it is
 * stable across deliveries and processes and never stored. */
static int signing_secret(struct dom *d, const char *what, const char *id, const char **out)
{
	const char *secret, *label = arena_printf(d->arena, "docsd integration signing v1 %s %s", what, id);
	unsigned char mac[32];
	char *hex = arena_alloc(d->arena, 65);
	int rc = dom_secret(d->srv, d->tx, DOM_SECRET_GIT_CREDENTIALS, &secret);

	if (rc)
		return rc;
	if (hmac_sha256(mac, secret, strlen(secret), label, strlen(label)))
		return err_set(ERR_INTERNAL, "HMAC failed");
	for (int i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", mac[i]);
	*out = hex;
	return 0;
}

/* One part of a multipart/form-data body. */
static void part(struct jw *w, const char *boundary, const char *name, const char *type, const char *data, size_t n)
{
	char head[512];
	int len = snprintf(head, sizeof(head),
			   "--%s\r\nContent-Disposition: form-data; name=\"%s\"\r\nContent-Type: %s\r\n\r\n", boundary,
			   name, type);

	jw_put(w, head, (size_t)len);
	jw_put(w, data, n);
	jw_put(w, "\r\n", 2);
}

/* Whether the event goes to the integration's dev tunnel: development mode
 * is on, and the event is of its own organization or `all` is set. */
static const char *tunnel_of(struct dom *d, const struct integration *it, const char *org_id)
{
	size_t n;

	if (!it->dev_tunnel || (!it->dev_all && strcmp(org_id, it->org_id) != 0))
		return NULL;
	n = strlen(it->dev_tunnel);
	while (n > 0 && it->dev_tunnel[n - 1] == '/')
		n--;
	return arena_printf(d->arena, "%.*s/v1", (int)n, it->dev_tunnel);
}

/* The body of a delivery of `payload` (the Event JSON) for integration v
 * (and installation in when has_in): out->url or out->script, tokens,
 * environment, multipart. */
static int build(struct dom *d, const struct integration_view *v, const char *org_id, const char *payload,
		 const struct integration_installation *in, bool has_in, bool anonymous, struct delivery *out)
{
	const char *itok, *ntok = NULL, *secrets, *sig_it, *sig_in = NULL;
	char boundary[40];
	struct jw env, body;
	int rc;

	out->integration_id = v->it.id;
	out->version = v->it.version;
	out->url = tunnel_of(d, &v->it, org_id);
	if (!out->url) {
		out->script_key = arena_printf(d->arena, "%s-%lld", v->it.id, (long long)v->it.version);
		if ((rc = store_integration_script(d->tx, v->it.id, v->it.version, &out->script)))
			return rc;
	}
	/* An anonymous request (a visitor's script.js) mints no token: two rows
	 * per page view would grow the tokens table without bound; the
	 * environment then carries empty tokens. */
	if (anonymous) {
		itok = "";
		ntok = has_in ? "" : NULL;
	} else if ((rc = dom_integration_token_mint(d, &v->it, NULL, &itok)) ||
		   (has_in && (rc = dom_integration_token_mint(d, &v->it, in->id, &ntok))))
		return rc;
	if (
	    (rc = dom_integration_secrets_open(d, &v->it, &secrets)) ||
	    (rc = signing_secret(d, "integration", v->it.id, &sig_it)) ||
	    (has_in && (rc = signing_secret(d, "installation", in->id, &sig_in))))
		return rc;

	/* IntegrationEnvironment (@gitbook/runtime's context.ts reads it). */
	jw_init(&env);
	jw_obj_open(&env);
	/* Without /v1: GitBook's client appends it to the endpoint. */
	jw_kstr(&env, "apiEndpoint", dom_base_url(d));
	jw_key(&env, "apiTokens");
	jw_obj_open(&env);
	jw_kstr(&env, "integration", itok);
	jw_kstr_opt(&env, "installation", ntok);
	jw_obj_close(&env);
	jw_key(&env, "integration");
	integration_to_json(&env, dom_base_url(d), v);
	if (has_in) {
		jw_key(&env, "installation");
		installation_to_json(&env, dom_base_url(d), v->it.name, in);
	}
	{
		/* spaceInstallation / siteInstallation of a space or site event. */
		json_t *p = json_loads(payload, 0, NULL);
		const char *space = json_string_value(json_object_get(p, "spaceId"));
		const char *site = json_string_value(json_object_get(p, "siteId"));
		struct target_view tv = { .integration = v->it.name };
		if (has_in && (space || site) &&
		    store_target_get(d->tx, in->id, space ? "space" : "site", space ? space : site, &tv.t) == 0) {
			jw_key(&env, space ? "spaceInstallation" : "siteInstallation");
			target_to_json(&env, dom_base_url(d), &tv);
		}
		json_decref(p);
	}
	jw_key(&env, "signingSecrets");
	jw_obj_open(&env);
	jw_kstr(&env, "integration", sig_it);
	jw_kstr_opt(&env, "installation", sig_in);
	jw_obj_close(&env);
	jw_key(&env, "secrets");
	jw_raw(&env, secrets);
	jw_obj_close(&env);

	if (random_alnum(boundary, 32)) {
		jw_free(&env);
		return err_set(ERR_INTERNAL, "getrandom failed");
	}
	boundary[32] = '\0';
	jw_init(&body);
	part(&body, boundary, "event", "application/json", payload, strlen(payload));
	part(&body, boundary, "environment", "application/json", env.buf, env.len);
	jw_put(&body, "--", 2);
	jw_put(&body, boundary, 32);
	jw_put(&body, "--\r\n", 4);
	rc = jw_ok(&env) && jw_ok(&body) ? 0 : err_set(ERR_INTERNAL, "delivery body too large");
	if (rc == 0) {
		char *b = arena_alloc(d->arena, body.len + 1);
		memcpy(b, body.buf, body.len);
		b[body.len] = '\0';
		out->body = b;
		out->body_len = body.len;
		out->content_type = arena_printf(d->arena, "multipart/form-data; boundary=%s", boundary);
	}
	jw_free(&env);
	jw_free(&body);
	return rc;
}

int dom_delivery_prepare(struct dom *d, const char *event_id, struct delivery *out)
{
	struct integration_event ev;
	struct integration_view v;
	struct integration_installation in;
	bool has_in = false, older;
	int rc;

	memset(out, 0, sizeof(*out));
	out->event_id = event_id;
	if ((rc = store_event_get(d->tx, NULL, event_id, &ev)) == ERR_NOT_FOUND) {
		out->done = true; /* its integration was deleted */
		return 0;
	}
	if (rc)
		return rc;
	if (strcmp(ev.status, "pending") != 0) {
		out->done = true;
		return 0;
	}
	if ((rc = store_event_has_older_pending(d->tx, &ev, &older)))
		return rc;
	if (older) {
		out->wait = true;
		return 0;
	}
	memset(&v, 0, sizeof(v));
	if ((rc = store_integration_by_id(d->tx, ev.integration_id, &v.it)) ||
	    (rc = store_org_get(d->tx, v.it.org_id, &v.owner)))
		return rc;
	v.admin = true;
	if (ev.installation_id) {
		rc = store_installation_get(d->tx, v.it.id, ev.installation_id, &in);
		if (rc && rc != ERR_NOT_FOUND)
			return rc;
		has_in = rc == 0; /* gone after installation_deleted */
	}
	out->attempts = ev.attempts;
	return build(d, &v, ev.org_id, ev.payload, &in, has_in, false, out);
}

int dom_delivery_record(struct dom *d, const char *event_id, int64_t attempts, const char *status,
			const struct delivery_line *lines, int n)
{
	int64_t have = 0, bytes = 0, dropped = 0;
	int rc = store_event_log_usage(d->tx, event_id, &have, &bytes);

	/* An event's trace is bounded over all its attempts (EVENT_LOG_LINES,
	 * EVENT_LOG_BYTES: five attempts of 1,000 lines of 8 KiB stored 40 MB):
	 * past it, lines are counted, not stored, and one line says how many,
	 * so the trace API, which shows up to 1,000 lines, shows all there is.
	 * An attempt's own line (the first of each batch) is kept while the
	 * event is under the line bound. */
	for (int i = 0; i < n && rc == 0; i++) {
		size_t len = strlen(lines[i].message);
		if (have >= EVENT_LOG_LINES - 1 || (i > 0 && bytes + (int64_t)len > EVENT_LOG_BYTES)) {
			dropped++;
			continue;
		}
		rc = store_event_log_add(d->tx, event_id, lines[i].level, lines[i].message, lines[i].ts);
		have++;
		bytes += (int64_t)len;
	}
	if (rc == 0 && dropped && have < EVENT_LOG_LINES)
		rc = store_event_log_add(d->tx, event_id, "warn",
					 arena_printf(d->arena,
						      "%lld more lines of this attempt were not kept (an event keeps at most "
						      "%d lines and %d KiB of trace)",
						      (long long)dropped, EVENT_LOG_LINES, EVENT_LOG_BYTES / 1024),
					 clock_now_ms());
	return rc ? rc : store_event_finish(d->tx, event_id, status, attempts);
}

int dom_events_prune(struct dom *d, int64_t *removed)
{
	return store_events_prune(d->tx, clock_now_ms() - EVENT_RETENTION_MS, EVENTS_PER_INTEGRATION, removed);
}

/* ---- sending ---- */

/* The dev tunnel's answer is small ("OK", or a script): a larger one is cut. */
#define TUNNEL_MAX_BYTES (1 << 20)

static void to_tunnel(const struct server *srv, const struct delivery *dl, struct arena *a, struct delivery_answer *out)
{
	const char *headers[] = { arena_printf(a, "Content-Type: %s", dl->content_type), NULL };
	struct fetch_opts o = { .max_bytes = TUNNEL_MAX_BYTES,
				.timeout_ms = srv ? (long)srv->cfg.integration_timeout * 1000 : 10000,
				.allow_private = srv && srv->cfg.allow_private_network };
	struct fetch_result res = { 0 };

	/* A URL with a control character or a space (CR/LF: a header
	 * injection) is never sent, and no retry makes it valid: final. */
	for (const char *c = dl->url; *c; c++)
		if ((unsigned char)*c <= 0x20 || *c == 0x7f) {
			out->error = "the development tunnel URL has a control character or a space";
			out->final = true;
			return;
		}
	if (fetch_post(dl->url, headers, dl->body, dl->body_len, &o, &res) == 0) {
		out->status = (int)res.status;
		out->body = arena_strndup(a, res.data ? (const char *)res.data : "", res.data ? res.len : 0);
		out->body_len = res.data ? res.len : 0;
		out->content_type = res.content_type[0] ? arena_strdup(a, res.content_type) : NULL;
	} else {
		out->error = arena_strdup(a, res.error[0] ? res.error : err_message());
	}
	/* A refused address stays refused, and an answer past the size limit
	 * will be as large again: no retry changes either. */
	out->final = res.failure == FETCH_FAIL_REFUSED || res.failure == FETCH_FAIL_TOO_LARGE;
	fetch_result_free(&res);
}

static void to_runtime(const struct server *srv, const struct delivery *dl, struct arena *a,
		       struct delivery_answer *out)
{
	struct runtime_script script = { dl->script_key, dl->script, strlen(dl->script) };
	struct runtime_result res = { 0 };
	int rc = runtime_deliver(srv ? srv->runtime : NULL, &script, "/v1", dl->content_type, dl->body, dl->body_len, a,
				 &res);

	out->status = rc == 0 ? res.status : 0;
	out->error = rc == 0 ? NULL : arena_strdup(a, res.error ? res.error : err_message());
	out->body = res.body;
	out->body_len = res.body_len;
	out->content_type = res.content_type;
	out->lines = arena_alloc(a, sizeof(*out->lines) * (res.nlogs ? res.nlogs : 1));
	for (size_t i = 0; i < res.nlogs; i++)
		out->lines[out->nlines++] =
			(struct delivery_line){ res.logs[i].level, res.logs[i].message, res.logs[i].timestamp_ms };
}

void dom_delivery_send(const struct server *srv, const struct delivery *dl, struct arena *a,
		       struct delivery_answer *out)
{
	memset(out, 0, sizeof(*out));
	if (dl->url) {
		to_tunnel(srv, dl, a, out);
	} else if (!runtime_available(srv ? srv->runtime : NULL)) {
		out->error = "no integration runtime: docsd runs without --integration-runtime and the integration has no "
			     "development tunnel";
		out->final = true;
	} else {
		to_runtime(srv, dl, a, out);
	}
}

/* ---- a site's published script ---- */

struct script_req {
	const struct server *srv;
	struct arena *a;
	const char *name, *installation_id, *site_id;
	const char *integration_id, *cache_key; /* set by script_check */
	struct delivery dl;
};

/* Read only: the installation is active on the site and may inject a script;
 * the cache key names the integration's version, so a publish is seen at
 * once. */
static int script_check(struct store_tx *tx, struct script_req *q, struct integration_view *v,
			struct integration_installation *in)
{
	struct integration_target t;

	memset(v, 0, sizeof(*v));
	if (store_integration_get(tx, q->name, &v->it) || store_installation_get(tx, v->it.id, q->installation_id, in) ||
	    store_target_get(tx, in->id, "site", q->site_id, &t))
		return err_set(ERR_NOT_FOUND, "no such script");
	if (strcmp(in->status, "active") != 0 || strcmp(t.status, "active") != 0 ||
	    !strstr(v->it.scopes, "\"site:script:inject\""))
		return err_set(ERR_NOT_FOUND, "no such script");
	q->integration_id = arena_strdup(q->a, v->it.id);
	/* The dev tunnel's answer changes without a new version: not cached. */
	q->cache_key = v->it.dev_tunnel ? NULL
					: arena_printf(q->a, "%s/%s/%s/%lld", v->it.id, in->id, q->site_id,
						       (long long)v->it.version);
	return 0;
}

static int script_lookup(struct store_tx *tx, void *arg)
{
	struct script_req *q = arg;
	struct integration_view v;
	struct integration_installation in;

	return script_check(tx, q, &v, &in);
}

static int script_prepare(struct store_tx *tx, void *arg)
{
	struct script_req *q = arg;
	struct dom d;
	struct integration_view v;
	struct integration_installation in;
	char id[ID_LEN + 1];
	int rc;

	dom_init(&d, q->srv, tx, q->a, NULL);
	memset(&q->dl, 0, sizeof(q->dl));
	if ((rc = script_check(tx, q, &v, &in)))
		return rc;
	if ((rc = store_org_get(tx, v.it.org_id, &v.owner)))
		return rc;
	v.admin = true;
	if (id_new(id))
		return err_set(ERR_INTERNAL, "getrandom failed");
	return build(&d, &v, in.org_id,
		     arena_printf(q->a,
				  "{\"eventId\":\"%s\",\"type\":\"fetch_published_script\",\"installationId\":\"%s\","
				  "\"siteId\":\"%s\"}",
				  id, in.id, q->site_id),
		     &in, true, true, &q->dl);
}

int dom_site_script(const struct server *srv, struct store *st, struct arena *a, const char *name,
		    const char *installation_id, const char *site_id, struct delivery_answer *out)
{
	struct script_req q = { .srv = srv, .a = a, .name = name, .installation_id = installation_id, .site_id = site_id };
	struct runtime *rt = srv ? srv->runtime : NULL;
	struct runtime_result hit;
	int rc = store_tx_run(st, 0, a, script_lookup, &q);

	memset(out, 0, sizeof(*out));
	if (rc)
		return rc;
	/* Cached per installation, site and version (GitBook caches it too):
	 * visitors' page loads do not each wake the integration. */
	if (q.cache_key && runtime_script_cached(rt, q.cache_key, a, &hit)) {
		out->status = hit.status;
		out->body = hit.body;
		out->body_len = hit.body_len;
		out->content_type = hit.content_type;
		return 0;
	}
	/* At most a few deliveries of one integration at once: a slow script
	 * cannot take the fetch pool other organizations' requests share. */
	if ((rc = runtime_script_begin(rt, q.integration_id)))
		return rc;
	if ((rc = store_tx_run(st, 1, a, script_prepare, &q)) == 0) {
		dom_delivery_send(srv, &q.dl, a, out);
		if (q.cache_key && out->status >= 200 && out->status <= 299)
			runtime_script_put(rt, q.cache_key, out->body, out->body_len, out->content_type);
	}
	runtime_script_end(rt, q.integration_id);
	return rc;
}
