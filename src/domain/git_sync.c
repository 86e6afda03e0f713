/*
 * git_sync.c - Git sync's requests, link and jobs (git_sync.h states the
 * design and the guarantees).
 *
 * The link's operation (op_*) belongs to the newest request: a request sets
 * op_job to its job, and a job writes the operation's progress and outcome
 * only while op_job is still its own (an older job finishing later does not
 * overwrite the status of a newer request; its outcome stays in its job row).
 * The applied part (import_commit, synced_revision, last_timestamp,
 * applied_job...) is written by whichever job applies, in the transaction of
 * its effect.
 *
 * `synced_revision` is the revision whose pages and files carry the Git
 * paths and blobs of the last import or export (an import's own revision; for
 * an export, a revision written beside the space's content, never made
 * current, that records what the export wrote). Before a sync the space's
 * current revision is overlaid with those Git fields (by page and file id),
 * so the layout keeps ids (import) and paths and blobs (export) across
 * syncs whichever side changed last.
 */
#include "domain/git_sync.h"
#include "domain/integration_events.h"
#include "domain/site_redirects.h"
#include "domain/secrets.h"
#include "model/git_sync.h"
#include "format/gitbook_layout.h"
#include "model/revision.h"
#include "json/serialize_git.h"
#include "domain/content.h"
#include "domain/events.h"
#include "domain/spaces.h"
#include "domain/job.h"
#include "git/repo.h"
#include "store/git_sync.h"
#include "store/jobs.h"
#include "util/err.h"
#include "util/log.h"
#include "util/seal.h"
#include "util/util.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

/* Bodies and blobs stored per write transaction: the writer is held briefly. */
#define STORE_BATCH 256
/* Git jobs of one space run in order through the queue's order key (the
 * claim skips a job while an older one of its key is unfinished:
 * store_job_enqueue_ordered; both enqueues below hold the space's row lock,
 * which serializes them). DEFER_MS is only the fallback for jobs queued
 * before order keys existed, which gate_read still sees waiting. */
#define DEFER_MS 500
#define ORDER_KEY(a, space_id) arena_printf((a), "git:%s", (space_id))
/* An import retried when the space's content moved between its read and its write. */
#define IMPORT_TRIES 3
#define COMMIT_MESSAGE_MAX 65536

/* ---- credentials ---- */

/* The key credentials are sealed with: HMAC-SHA256 of the server's
 * "git-credentials" secret (domain/secrets.h: shared by every docsd process
 * on the database, read once at start) over a fixed label. tx is read only
 * without a server (unit tests). */
static int creds_key(const struct server *srv, struct store_tx *tx, unsigned char key[SEAL_KEY_LEN])
{
	static const char label[] = "docsd git credentials v1";
	const char *secret;
	int rc = dom_secret(srv, tx, DOM_SECRET_GIT_CREDENTIALS, &secret);

	if (rc)
		return rc;
	if (hmac_sha256(key, secret, strlen(secret), label, sizeof(label) - 1))
		return err_set(ERR_INTERNAL, "HMAC failed");
	return 0;
}

/* ---- the link ---- */

static const char *state_json(struct arena *a, const struct gs_link *l)
{
	struct jw w;

	jw_init(&w);
	git_sync_state_to_json(&w, l);
	return jw_take(&w, a, NULL);
}

static int link_put(struct store_tx *tx, struct arena *a, const struct gs_link *l)
{
	const char *json = state_json(a, l);

	return json ? store_git_link_put(tx, l, json) : err_set(ERR_INTERNAL, "out of memory");
}

static const char *commit_json(struct arena *a, const char *oid, const char *message, bool by_gitbook,
			       const char *commit_url, const char *ref)
{
	struct jw w;
	const char *url = commit_url && *commit_url ? arena_printf(a, "%s%s", commit_url, oid) : NULL;

	jw_init(&w);
	git_sync_commit_to_json(&w, oid, message, by_gitbook, url, ref);
	return jw_take(&w, a, NULL);
}

/* What an import applied besides the commit: a re-import of the same commit
 * with other options is not the same import. */
static const char *import_key(struct arena *a, const char *project_dir)
{
	return arena_printf(a, "dir=%s", project_dir ? project_dir : "");
}

/* Mark the link's operation as just requested (job id, direction). */
static void op_start(struct gs_link *l, const char *job, enum git_direction dir, int64_t now)
{
	l->op_state = "running";
	l->op_direction = dir == GIT_IMPORT ? "import" : "export";
	l->op_stage = gs_stage_names[0];
	l->op_error = l->op_note = l->op_commit = l->op_revision = NULL;
	l->op_job = job;
	l->op_completed_tasks = 0;
	l->op_started_at = l->op_updated_at = now;
	l->op_completed_at = 0;
}

/* The job payload: everything the job needs, credentials sealed. */
/*
 * revision: for an export, the space's revision when it was asked for (NULL
 * for an import). The job exports that revision, not the space's content
 * when the job runs: a run again after a crash between the push and the
 * job's commit (export_finalize) then plans the same content on top of the
 * commit it pushed, finds the tree unchanged, pushes nothing and records it.
 * Planning the space's newer content instead made a second commit with the
 * same message for one request (tests/api/crash-safety.test.mjs). Content
 * merged later is exported by the export its own merge queues.
 */
static const char *payload_json(struct arena *a, const struct gs_link *l, const char *commit_message,
				int64_t timestamp, bool force, bool standalone, const char *user, bool automatic,
				const char *revision)
{
	json_t *o = json_object();
	char *text, *out = NULL;

	if (!o)
		return NULL;
#define PUT_STR(k, v) json_object_set_new(o, k, (v) ? json_string(v) : json_null())
	PUT_STR("url", l->url);
	PUT_STR("credentials", l->credentials);
	PUT_STR("ref", l->ref);
	PUT_STR("commitMessage", commit_message);
	PUT_STR("repoCacheID", l->cache_id);
	PUT_STR("repoTreeURL", l->tree_url);
	PUT_STR("repoCommitURL", l->commit_url);
	PUT_STR("repoProjectDirectory", l->project_dir);
	PUT_STR("user", user);
	if (revision)
		PUT_STR("revision", revision);
#undef PUT_STR
	json_object_set_new(o, "timestamp", json_integer(timestamp));
	json_object_set_new(o, "force", json_boolean(force));
	json_object_set_new(o, "standalone", json_boolean(standalone));
	json_object_set_new(o, "automatic", json_boolean(automatic));
	text = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	if (text) {
		out = arena_strdup(a, text);
		free(text);
	}
	return out;
}

/* Links shown to readers (GitSyncState.url, a commit's url) are web pages. */
static bool web_url(const char *u)
{
	return strncasecmp(u, "https://", 8) == 0 || strncasecmp(u, "http://", 7) == 0;
}

int dom_git_sync_start(struct dom *d, const char *space_id, const struct dom_git_request *rq)
{
	bool allow_private = d->srv && d->srv->cfg.allow_private_network;
	struct space s;
	struct gs_remote remote;
	struct gs_link l, old;
	const char *dir = NULL, *payload, *kind;
	int64_t ts = 0, now = clock_now_ms();
	char job_id[ID_LEN + 1];
	int rc, have_old;

	/* Input first (400 before 404/403 would reveal nothing: the space is
	 * checked right after, before anything is written). */
	if ((rc = gs_remote_parse(d->arena, rq->url, allow_private, &remote)))
		return rc;
	if (!rq->ref || !gs_ref_valid(rq->ref))
		return err_set(ERR_INVALID, "ref: must be a branch of the form refs/heads/<branch>");
	if (rq->direction == GIT_EXPORT && (!rq->commit_message || !*rq->commit_message))
		return err_set(ERR_INVALID, "commitMessage: required");
	if (rq->commit_message && strlen(rq->commit_message) > COMMIT_MESSAGE_MAX)
		return err_set(ERR_INVALID, "commitMessage: longer than %d bytes", COMMIT_MESSAGE_MAX);
	if ((rc = gs_project_dir(d->arena, rq->project_dir, &dir)))
		return rc;
	if ((rq->tree_url && !web_url(rq->tree_url)) || (rq->commit_url && !web_url(rq->commit_url)) ||
	    (rq->info_url && !web_url(rq->info_url)))
		return err_set(ERR_INVALID, "%s: must be an http or https URL",
			       rq->tree_url && !web_url(rq->tree_url)	    ? "repoTreeURL"
			       : rq->commit_url && !web_url(rq->commit_url) ? "repoCommitURL"
									    : "gitInfo.url");
	if (rq->timestamp && gs_timestamp_parse(rq->timestamp, &ts))
		return err_set(ERR_INVALID, "timestamp: must be an RFC 3339 date-time");
	if ((rc = dom_space_get_locked(d, space_id, ROLE_EDIT, &s)))
		return rc;
	if (rq->direction == GIT_IMPORT ? (rc = dom_space_editable(&s)) != 0 : s.deleted_at != 0)
		return rc ? rc : err_set(ERR_CONFLICT, "the space is deleted; restore it first");

	rc = store_git_link_get(d->tx, s.id, &old);
	if (rc && rc != ERR_NOT_FOUND)
		return rc;
	have_old = rc == 0;
	if (have_old)
		l = old;
	else {
		memset(&l, 0, sizeof(l));
		l.space_id = s.id;
	}
	l.url = remote.url;
	l.repo_name = remote.repo_name;
	l.ref = rq->ref;
	l.credentials = NULL;
	if (remote.user) {
		unsigned char key[SEAL_KEY_LEN];
		const char *plain = arena_printf(d->arena, "%s:%s", remote.user, remote.password ? remote.password : "");
		if ((rc = creds_key(d->srv, d->tx, key)) || (rc = seal_text(d->arena, key, plain, strlen(plain), &l.credentials)))
			return rc;
	}
	if (rq->provider || rq->info_url) {
		l.provider = rq->provider;
		l.info_url = rq->info_url;
	}
	l.tree_url = rq->tree_url;
	l.commit_url = rq->commit_url;
	l.project_dir = dir;
	l.cache_id = rq->cache_id;
	l.updated_at = now;
	kind = rq->direction == GIT_IMPORT ? JOB_KIND_GIT_IMPORT : JOB_KIND_GIT_EXPORT;
	if (!(payload = payload_json(d->arena, &l, rq->commit_message, ts, rq->force, rq->standalone,
				     d->actor.user_id, false, rq->direction == GIT_EXPORT ? s.revision : NULL)))
		return err_set(ERR_INTERNAL, "out of memory");
	if ((rc = store_job_enqueue_ordered(d->tx, kind, s.id, payload, 0, ORDER_KEY(d->arena, s.id), job_id)))
		return rc;
	op_start(&l, arena_strdup(d->arena, job_id), rq->direction, now);
	if ((rc = link_put(d->tx, d->arena, &l)))
		return rc;
	dom_jobs_queued(d);
	return 0;
}

int dom_git_info(struct dom *d, const char *space_id, const char **json)
{
	struct space s;
	int rc = dom_space_get(d, space_id, ROLE_READ, &s);

	if (rc)
		return rc;
	if (!s.git_sync)
		return err_set(ERR_NOT_FOUND, "No Git provider is set up on this space");
	*json = s.git_sync;
	return 0;
}

int dom_git_link_remove(struct dom *d, const char *space_id, bool *removed)
{
	struct space s;
	int rc = dom_space_get_locked(d, space_id, ROLE_ADMIN, &s);

	return rc ? rc : store_git_link_delete(d->tx, s.id, removed);
}

/* After a merge of change request cr into s (in the merge's transaction):
 * when the space is linked, enqueue an export of the new content with the
 * message "GITBOOK-{number}: {subject}". */
static int after_merge(struct dom *d, const struct space *s, const struct change_request *cr, const char *revision)
{
	struct gs_link l;
	const char *msg, *payload;
	char job_id[ID_LEN + 1];
	int rc = store_git_link_get(d->tx, s->id, &l);

	if (rc == ERR_NOT_FOUND)
		return 0;
	if (rc)
		return rc;
	msg = arena_printf(d->arena, "GITBOOK-%lld: %s", (long long)cr->number,
			   cr->subject && *cr->subject ? cr->subject : "No subject");
	if (!(payload = payload_json(d->arena, &l, msg, 0, false, false, d->actor.user_id, true, revision)))
		return err_set(ERR_INTERNAL, "out of memory");
	if ((rc = store_job_enqueue_ordered(d->tx, JOB_KIND_GIT_EXPORT, s->id, payload, 0, ORDER_KEY(d->arena, s->id),
					     job_id)))
		return rc;
	op_start(&l, arena_strdup(d->arena, job_id), GIT_EXPORT, clock_now_ms());
	if ((rc = link_put(d->tx, d->arena, &l)))
		return rc;
	dom_jobs_queued(d);
	return 0;
}

/* The subscriber of "a space's content advanced" (domain/events.h). Only a
 * merge is exported: an import's advance is the repository's own content,
 * and templates and translation runs are not exported by themselves (as
 * before the hook: the next merge's export carries them). */
int dom_git_on_space_advanced(struct dom *d, const struct space_advanced *ev)
{
	if (ev->cause != SPACE_ADVANCED_BY_MERGE)
		return 0;
	if (!ev->cr)
		return err_set(ERR_INTERNAL, "a merge's advance of space %s names no change request", ev->space->id);
	/* ev->space is as read before the advance: the merge's revision is ev's */
	return after_merge(d, ev->space, ev->cr, ev->revision ? ev->revision->id : NULL);
}

/* ---- the jobs ---- */

/* A job's request, from its payload. */
struct job_req {
	const char *url, *credentials, *ref, *message, *cache_id, *tree_url, *commit_url, *project_dir, *user;
	const char *revision; /* an export's revision (payload_json); NULL in older payloads */
	int64_t timestamp;
	bool force, standalone, automatic;
};

/* One running job: its request, its context, the link as last read. */
struct sync {
	struct dom *d;
	struct dom_job *run;
	struct arena *a;
	struct job_req rq;
	enum git_direction dir;
	struct gitnet net;
	struct gitrepo *repo;
	char oid[41];           /* the commit fetched (import) or made (export) */
	const char *user_name, *user_email;
};

static const char *jstr(struct arena *a, json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_string(v) ? arena_strdup(a, json_string_value(v)) : NULL;
}

static int parse_payload(struct arena *a, const char *text, struct job_req *rq)
{
	json_t *o = json_loads(text, 0, NULL);

	memset(rq, 0, sizeof(*rq));
	if (!json_is_object(o)) {
		json_decref(o);
		return err_set(ERR_INVALID, "malformed Git sync job payload");
	}
	rq->url = jstr(a, o, "url");
	rq->credentials = jstr(a, o, "credentials");
	rq->ref = jstr(a, o, "ref");
	rq->message = jstr(a, o, "commitMessage");
	rq->cache_id = jstr(a, o, "repoCacheID");
	rq->tree_url = jstr(a, o, "repoTreeURL");
	rq->commit_url = jstr(a, o, "repoCommitURL");
	rq->project_dir = jstr(a, o, "repoProjectDirectory");
	rq->user = jstr(a, o, "user");
	rq->revision = jstr(a, o, "revision");
	rq->timestamp = json_integer_value(json_object_get(o, "timestamp"));
	rq->force = json_is_true(json_object_get(o, "force"));
	rq->standalone = json_is_true(json_object_get(o, "standalone"));
	rq->automatic = json_is_true(json_object_get(o, "automatic"));
	json_decref(o);
	if (!rq->url || !rq->ref || !gs_ref_valid(rq->ref))
		return err_set(ERR_INVALID, "malformed Git sync job payload");
	return 0;
}

/* Run fn in a write transaction of its own (the space's row locked first by
 * fn when it writes the link). */
typedef int (*tx_fn)(struct sync *c, struct store_tx *tx, void *arg);

static int in_tx(struct sync *c, int write, tx_fn fn, void *arg)
{
	struct store_tx tx;
	int rc = store_tx_begin(c->run->store, &tx, write, c->a);

	if (rc)
		return rc;
	c->d->tx = &tx;
	rc = fn(c, &tx, arg);
	c->d->tx = NULL;
	if (rc == 0 && write)
		rc = store_tx_commit(&tx);
	else
		store_tx_rollback(&tx);
	return rc;
}

/* The operation's progress, written while it is still this job's. */
struct op_change {
	const char *stage;
	int completed;
	const char *state; /* NULL: still running */
	const char *error, *note, *commit, *revision;
};

/* Integrations installed on the space (domain/integration_events.h):
 * space_gitsync_started when the job begins (stage 0),
 * space_gitsync_completed when it ends, in the transaction that writes
 * the operation's state. */
static int op_events(struct sync *c, struct store_tx *tx, const struct gs_link *l, const struct op_change *ch)
{
	struct space s;
	struct dom d;
	int rc;

	if (!ch->state && ch->completed != 0)
		return 0;
	if ((rc = store_space_get(tx, c->run->job->subject, &s)))
		return rc == ERR_NOT_FOUND ? 0 : rc;
	dom_init(&d, c->d->srv, tx, c->a, NULL);
	return dom_integrations_gitsync(&d, &s, ch->state != NULL, ch->state, l->op_revision, l->op_commit);
}

static void op_apply(struct gs_link *l, const struct op_change *ch)
{
	int64_t now = clock_now_ms();

	/* startedAt: when the job began (the request queued it earlier). */
	if (!ch->state && ch->completed == 0)
		l->op_started_at = now;
	l->op_stage = ch->stage;
	l->op_completed_tasks = ch->completed;
	l->op_updated_at = now;
	l->op_state = ch->state ? ch->state : "running";
	l->op_error = ch->error;
	l->op_note = ch->note;
	if (ch->commit)
		l->op_commit = ch->commit;
	if (ch->revision)
		l->op_revision = ch->revision;
	l->op_completed_at = ch->state && strcmp(ch->state, "success") == 0 ? now : 0;
}

static int op_write(struct sync *c, struct store_tx *tx, void *arg)
{
	struct space s;
	struct gs_link l;
	int rc;

	if ((rc = store_space_get_locked(tx, c->run->job->subject, &s)))
		return rc == ERR_NOT_FOUND ? 0 : rc;
	if ((rc = store_git_link_get(tx, s.id, &l)))
		return rc == ERR_NOT_FOUND ? 0 : rc;
	if (!l.op_job || strcmp(l.op_job, c->run->job->id) != 0)
		return 0; /* a newer request owns the status */
	op_apply(&l, arg);
	if ((rc = link_put(tx, c->a, &l)))
		return rc;
	return op_events(c, tx, &l, arg);
}

static void op_progress(struct sync *c, int stage)
{
	struct op_change ch = { .stage = gs_stage_names[stage], .completed = stage };

	if (in_tx(c, 1, op_write, &ch))
		log_error("git sync job %s: cannot record its progress: %s", c->run->job->id, err_message());
}

/* The job failed: its status says why (a 500's details only in the log). */
static int op_fail(struct sync *c, int stage, int code)
{
	char why[512];
	struct op_change ch = { .stage = gs_stage_names[stage], .completed = stage, .state = "failure", .error = why };
	char msg[512];

	snprintf(msg, sizeof(msg), "%s", err_message());
	if (code == ERR_INVALID || code == ERR_NOT_FOUND || code == ERR_FORBIDDEN || code == ERR_PRECONDITION ||
	    code == ERR_CONFLICT)
		snprintf(why, sizeof(why), "%s", msg);
	else if (code == ERR_UNAVAILABLE) /* the remote, for now: retried with backoff */
		snprintf(why, sizeof(why), "%.480s (retried)", msg);
	else
		snprintf(why, sizeof(why), "internal error (the server's log has the details); it is retried");
	if (in_tx(c, 1, op_write, &ch))
		log_error("git sync job %s: cannot record its failure: %s", c->run->job->id, err_message());
	err_set(code, "%s", msg);
	return code;
}

/* Before anything: wait for older jobs of the space, read the link, skip what
 * was applied already or is older than what was. *skip gets the reason. */
struct gate {
	bool wait;
	const char *skip;
	struct gs_link link;
	struct space space;
};

static int gate_read(struct sync *c, struct store_tx *tx, void *arg)
{
	struct gate *g = arg;
	int64_t older = 0;
	int rc;

	if ((rc = store_git_jobs_before(tx, JOB_KIND_GIT_IMPORT, JOB_KIND_GIT_EXPORT, c->run->job, &older)))
		return rc;
	if (older) {
		g->wait = true;
		return 0;
	}
	if ((rc = store_space_get(tx, c->run->job->subject, &g->space)))
		return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "the space no longer exists") : rc;
	if ((rc = store_git_link_get(tx, g->space.id, &g->link)))
		return rc == ERR_NOT_FOUND ? err_set(ERR_PRECONDITION, "the space's Git link was removed") : rc;
	if (g->link.applied_job && strcmp(g->link.applied_job, c->run->job->id) == 0)
		g->skip = "already applied";
	else if (c->rq.timestamp && g->link.last_timestamp && c->rq.timestamp < g->link.last_timestamp)
		g->skip = arena_printf(c->a, "skipped: its timestamp is older than the last applied sync's");
	else if (g->space.deleted_at)
		return err_set(ERR_PRECONDITION, "the space is deleted");
	/* the user's name for the commit */
	if (c->rq.user) {
		struct user u;
		if (store_user_get(tx, c->rq.user, &u) == 0) {
			c->user_name = u.display_name;
			c->user_email = u.email;
		}
	}
	return 0;
}

/* Open the space's organization's mirror of the remote and fetch the ref.
 * The mirror is the organization's own (repo.h): repoCacheID names a cache
 * inside it, so another tenant's request naming the same cache, or the same
 * URL, never reads this organization's objects. */
static int fetch(struct sync *c, const struct space *s, bool *missing)
{
	const char *data_dir = c->d->srv && c->d->srv->cfg.data_dir ? c->d->srv->cfg.data_dir : "./data";
	const char *dir = gitrepo_dir(c->a, data_dir, s->org_id);
	const char *key = gitrepo_key(c->a, s->org_id, c->rq.url, c->rq.cache_id);
	const char *user = NULL, *password = NULL;
	int rc;

	if (!dir || !key)
		return err_set(ERR_INTERNAL, "out of memory");
	if (c->rq.credentials) {
		unsigned char k[SEAL_KEY_LEN];
		struct store_tx tx;
		const char *plain;
		char *colon;
		/* A server has the secret; without one (unit tests) it is read in
		 * a short read transaction of its own: a fetch holds none. */
		if (c->d->srv && c->d->srv->secrets.value[DOM_SECRET_GIT_CREDENTIALS]) {
			rc = creds_key(c->d->srv, NULL, k);
		} else {
			if ((rc = store_tx_begin(c->run->store, &tx, 0, c->a)))
				return rc;
			rc = creds_key(NULL, &tx, k);
			store_tx_rollback(&tx);
		}
		if (rc || (rc = seal_open(c->a, k, c->rq.credentials, &plain)))
			return rc == ERR_INVALID ? err_set(ERR_INVALID, "url: the stored credentials cannot be read") : rc;
		colon = strchr(plain, ':');
		user = plain;
		if (colon) {
			*colon = '\0';
			password = colon + 1;
		}
	}
	gitnet_init(&c->net, c->d->srv && c->d->srv->cfg.allow_private_network, 0, 0, user, password);
	if ((rc = gitrepo_open(&c->repo, dir, key)))
		return rc;
	return gitrepo_fetch(c->repo, c->rq.url, c->rq.ref, &c->net, c->oid, missing);
}

/* The space's revision `id` with the Git fields of `synced` (by id) where
 * synced has them: a copy the caller frees (revision_free). */
static int overlay(struct sync *c, struct store_tx *tx, const char *id, const char *synced_id, struct revision **out)
{
	const struct revision *rv, *synced = NULL;
	struct revision_new nr = { 0 };
	struct rev_page *pages;
	struct rev_file *files;
	int rc;

	*out = NULL;
	if ((rc = store_revision_get(tx, id, &rv)))
		return rc;
	if (synced_id && strcmp(synced_id, id) != 0 && store_revision_get(tx, synced_id, &synced) != 0)
		synced = NULL; /* a missing record only costs the reuse of paths */
	pages = arena_alloc(c->a, sizeof(*pages) * (size_t)(rv->npages + 1));
	files = arena_alloc(c->a, sizeof(*files) * (size_t)(rv->nfiles + 1));
	for (int i = 0; i < rv->npages; i++) {
		const struct rev_page *sp = synced ? revision_page(synced, rv->pages[i].id) : NULL;
		pages[i] = rv->pages[i];
		if (sp && sp->git_path) {
			pages[i].git_path = sp->git_path;
			pages[i].git_oid = sp->git_oid;
			pages[i].git_hash = sp->git_hash;
		}
	}
	for (int i = 0; i < rv->nfiles; i++) {
		const struct rev_file *sf = synced ? revision_file(synced, rv->files[i].id) : NULL;
		files[i] = rv->files[i];
		if (sf && sf->git_path) {
			files[i].git_path = sf->git_path;
			files[i].git_oid = sf->git_oid;
		}
	}
	nr.space_id = rv->space_id;
	nr.parent_id = rv->parent_id;
	nr.parents = rv->parents;
	nr.type = rv->type;
	nr.created_by = rv->created_by;
	nr.git = rv->git;
	nr.pages = pages;
	nr.npages = rv->npages;
	nr.files = files;
	nr.nfiles = rv->nfiles;
	*out = revision_build(rv->id, &nr, rv->created_at);
	return 0;
}

/* ---- import ---- */

struct import {
	struct sync *c;
	struct gate g;
	const char *prev_id;          /* the space's revision the content was built on */
	struct revision *previous;    /* overlaid */
	struct layout_import_out out;
	const char *message;
	const char *revision;         /* written */
};

static int read_previous(struct sync *c, struct store_tx *tx, void *arg)
{
	struct import *im = arg;
	struct space s;
	int rc = store_space_get(tx, c->run->job->subject, &s);

	if (rc)
		return rc;
	im->prev_id = s.revision;
	return overlay(c, tx, s.revision, im->g.link.synced_revision, &im->previous);
}

static int load_blob(void *ctx, const struct git_file *f, const unsigned char **data, size_t *len)
{
	struct sync *c = ctx;

	return gitrepo_blob(c->repo, c->a, f->oid, LAYOUT_MAX_FILE_BYTES, data, len);
}

static const char *new_id(void *ctx)
{
	struct sync *c = ctx;
	char *id = arena_alloc(c->a, ID_LEN + 1);

	return id && id_new(id) == 0 ? id : NULL;
}

/* Store bodies [from, to) and blobs likewise, in one short transaction. */
struct batch {
	struct layout_import_out *out;
	int from, to, kind; /* kind 0: bodies, 1: blobs */
};

static int store_batch(struct sync *c, struct store_tx *tx, void *arg)
{
	struct batch *b = arg;
	int rc = 0;

	(void)c;
	for (int i = b->from; i < b->to && rc == 0; i++) {
		if (b->kind == 0) {
			const struct layout_body *bd = &b->out->bodies[i];
			rc = dom_body_put(tx, bd->markdown, &b->out->pages[bd->page].body);
		} else {
			const struct layout_blob *bl = &b->out->blobs[i];
			struct rev_file *f = &b->out->files[bl->file];
			rc = store_blob_put(tx, bl->data, bl->len, f->content_type, &f->blob);
		}
	}
	return rc;
}

static int store_content(struct sync *c, struct layout_import_out *out)
{
	int rc = 0;

	for (int kind = 0; kind < 2 && rc == 0; kind++) {
		int n = kind == 0 ? out->nbodies : out->nblobs;
		for (int at = 0; at < n && rc == 0; at += STORE_BATCH) {
			struct batch b = { out, at, at + STORE_BATCH < n ? at + STORE_BATCH : n, kind };
			rc = in_tx(c, 1, store_batch, &b);
		}
	}
	return rc;
}

static int import_finalize(struct sync *c, struct store_tx *tx, void *arg)
{
	struct import *im = arg;
	struct space s;
	struct gs_link l;
	struct revision_new nr = { 0 };
	const struct revision *rv;
	const char *git;
	int rc;

	if ((rc = store_space_get_locked(tx, c->run->job->subject, &s)))
		return rc;
	if ((rc = store_git_link_get(tx, s.id, &l)))
		return rc == ERR_NOT_FOUND ? err_set(ERR_PRECONDITION, "the space's Git link was removed") : rc;
	if (l.applied_job && strcmp(l.applied_job, c->run->job->id) == 0)
		return 0; /* applied by an earlier run of this job */
	if (strcmp(s.revision, im->prev_id) != 0)
		return err_set(ERR_CONFLICT, "the space's content changed during the import");
	if ((rc = dom_space_editable(&s)))
		return rc;
	if (!(git = commit_json(c->a, c->oid, im->message, false, c->rq.commit_url, c->rq.ref)))
		return err_set(ERR_INTERNAL, "out of memory");
	nr.space_id = s.id;
	nr.parent_id = s.revision;
	nr.parents = arena_printf(c->a, "[\"%s\"]", s.revision);
	/* GitBook's revision types: "edits" is content edited outside a change
	 * request's merge or update, which an import is. */
	nr.type = "edits";
	nr.created_by = c->rq.user;
	nr.git = git;
	nr.pages = im->out.pages;
	nr.npages = im->out.npages;
	nr.files = im->out.files;
	nr.nfiles = im->out.nfiles;
	if ((rc = store_revision_create(tx, &nr, &rv)))
		return rc;
	c->d->tx = tx;
	/* .gitbook.yaml's redirects live beside the revision (published sites). */
	if ((rc = dom_git_redirects_record(c->d, rv->id, im->out.root, im->out.redirects, im->out.nredirects)))
		return rc;
	if (!c->rq.standalone && (rc = dom_space_advance_by(c->d, &s, rv, SPACE_ADVANCED_BY_IMPORT, NULL)))
		return rc;
	/* rv belongs to the transaction (its revision cache entry): the id
	 * outlives it in the job's result. */
	im->revision = arena_strdup(c->a, rv->id);
	l.applied_job = c->run->job->id;
	if (c->rq.timestamp > l.last_timestamp)
		l.last_timestamp = c->rq.timestamp;
	if (!c->rq.standalone) {
		l.import_commit = c->oid;
		l.import_key = import_key(c->a, c->rq.project_dir);
		l.synced_revision = rv->id;
		l.summary_oid = im->out.summary_oid;
		l.summary_hash = im->out.summary_hash;
	}
	if (l.op_job && strcmp(l.op_job, c->run->job->id) == 0) {
		struct op_change ch = { .stage = gs_stage_names[3], .completed = GS_STAGES, .state = "success",
					.commit = c->oid, .revision = rv->id };
		op_apply(&l, &ch);
		if ((rc = op_events(c, tx, &l, &ch)))
			return rc;
	}
	return link_put(tx, c->a, &l);
}

/* A note when the whole import is a no-op. */
static int op_done(struct sync *c, const char *note)
{
	struct op_change ch = { .stage = gs_stage_names[3], .completed = GS_STAGES, .state = "success", .note = note,
				.commit = c->oid[0] ? c->oid : NULL };

	return in_tx(c, 1, op_write, &ch);
}

/* DOCSD_TEST_GIT_SLOW_MS (tests only): sleep this long before an import's
 * finalize, so that a test can kill the process in the middle of a job. */
static void test_pause(void)
{
	const char *v = getenv("DOCSD_TEST_GIT_SLOW_MS");
	long ms = v ? strtol(v, NULL, 10) : 0;

	if (ms > 0 && ms <= 60000)
		usleep((useconds_t)ms * 1000);
}

static int run_import(struct sync *c)
{
	struct import im = { .c = c };
	bool missing = false, dir_missing = false;
	struct git_file *files = NULL;
	int nfiles = 0, rc, stage = 0;

	if ((rc = in_tx(c, 0, gate_read, &im.g)))
		return rc;
	if (im.g.wait) {
		c->run->defer_ms = DEFER_MS;
		return err_set(ERR_UNAVAILABLE, "waiting for an earlier Git sync of the space");
	}
	if (im.g.skip) {
		c->run->result = arena_printf(c->a, "{\"skipped\":\"%s\"}", im.g.skip);
		return strcmp(im.g.skip, "already applied") == 0 ? 0 : op_done(c, im.g.skip);
	}
	op_progress(c, 0);
	if ((rc = fetch(c, &im.g.space, &missing)))
		goto fail;
	if (missing) {
		rc = err_set(ERR_INVALID, "ref: the repository has no branch %s", c->rq.ref + strlen("refs/heads/"));
		goto fail;
	}
	if (!c->rq.force && !c->rq.standalone && im.g.link.import_commit &&
	    strcmp(im.g.link.import_commit, c->oid) == 0 && im.g.link.import_key &&
	    strcmp(im.g.link.import_key, import_key(c->a, c->rq.project_dir)) == 0) {
		c->run->result = arena_printf(c->a, "{\"skipped\":\"commit %s is imported already\"}", c->oid);
		return op_done(c, "nothing to import: this commit is imported already");
	}
	stage = 1;
	op_progress(c, stage);
	if ((rc = gitrepo_commit_message(c->repo, c->a, c->oid, &im.message)) ||
	    (rc = gitrepo_files(c->repo, c->a, c->oid, c->rq.project_dir, &files, &nfiles, &dir_missing)))
		goto fail;
	if (dir_missing) {
		rc = err_set(ERR_INVALID, "repoProjectDirectory: the commit has no directory '%s'", c->rq.project_dir);
		goto fail;
	}
	for (int attempt = 0;; attempt++) {
		struct layout_import_in in = { .files = files, .nfiles = (size_t)nfiles, .load = load_blob, .ctx = c,
					       .new_id = new_id, .now = clock_now_ms() };
		revision_free(im.previous);
		im.previous = NULL;
		if ((rc = in_tx(c, 0, read_previous, &im)))
			goto fail;
		in.previous = im.previous;
		if ((rc = layout_import(c->a, &in, &im.out)))
			goto fail; /* a malformed .gitbook.yaml or front matter: nothing changes */
		stage = 2;
		op_progress(c, stage);
		if ((rc = store_content(c, &im.out)))
			goto fail;
		test_pause();
		stage = 3;
		op_progress(c, stage);
		rc = in_tx(c, 1, import_finalize, &im);
		if (rc != ERR_CONFLICT || attempt + 1 >= IMPORT_TRIES)
			break;
	}
	if (rc)
		goto fail;
	revision_free(im.previous);
	c->run->result = arena_printf(c->a, "{\"commit\":\"%s\",\"revision\":\"%s\",\"pages\":%d,\"files\":%d,"
					    "\"unlisted\":%d}",
				      c->oid, im.revision ? im.revision : "", im.out.npages, im.out.nfiles,
				      im.out.nunlisted);
	return 0;
fail:
	revision_free(im.previous);
	return op_fail(c, stage, rc);
}

/* ---- export ---- */

struct export {
	struct sync *c;
	struct gate g;
	const char *base;                /* the remote branch's commit, NULL when new */
	struct revision *rv, *synced;    /* overlaid current revision; the last sync's record */
	const char *rv_id;
	struct layout_export_out out;
	const char **blob_oids;
	bool unchanged;
	struct store_tx *tx;             /* the read transaction layout_export reads through */
};

static int body_cb(void *ctx, const char *hash, const char **markdown)
{
	struct export *ex = ctx;

	return store_body_get(ex->tx, hash, markdown);
}

static int blob_cb(void *ctx, const char *hash, const unsigned char **data, size_t *len)
{
	struct export *ex = ctx;
	unsigned char *d = NULL;
	const char *ct = NULL;
	int rc = store_blob_get(ex->tx, hash, &d, len, &ct);

	*data = d;
	return rc;
}

static int export_plan(struct sync *c, struct store_tx *tx, void *arg)
{
	struct export *ex = arg;
	struct space s;
	struct layout_export_in in = { 0 };
	const unsigned char *yaml = NULL;
	size_t ylen = 0;
	int rc;

	if ((rc = store_space_get(tx, c->run->job->subject, &s)))
		return rc;
	/* the revision asked for (payload_json), or, from an older payload, the
	 * current one; overlay reads it through this space */
	ex->rv_id = c->rq.revision ? c->rq.revision : s.revision;
	if ((rc = overlay(c, tx, ex->rv_id, ex->g.link.synced_revision, &ex->rv)))
		return rc;
	if (ex->g.link.synced_revision &&
	    overlay(c, tx, ex->g.link.synced_revision, NULL, &ex->synced) != 0)
		ex->synced = NULL;
	/* Blobs are reused by oid only when this mirror has them (another
	 * remote's mirror may have made them): else the page is written anew
	 * from its content, the file from its bytes. */
	for (int i = 0; i < ex->rv->npages; i++)
		if (ex->rv->pages[i].git_oid && !gitrepo_has(c->repo, ex->rv->pages[i].git_oid)) {
			ex->rv->pages[i].git_oid = NULL;
			ex->rv->pages[i].git_hash = NULL;
		}
	for (int i = 0; i < ex->rv->nfiles; i++)
		if (ex->rv->files[i].git_oid && !gitrepo_has(c->repo, ex->rv->files[i].git_oid))
			ex->rv->files[i].git_oid = NULL;
	if (ex->g.link.summary_oid && !gitrepo_has(c->repo, ex->g.link.summary_oid))
		ex->g.link.summary_oid = ex->g.link.summary_hash = NULL;
	if (ex->base) {
		const char *p = c->rq.project_dir ? arena_printf(c->a, "%s/.gitbook.yaml", c->rq.project_dir)
						  : ".gitbook.yaml";
		rc = gitrepo_blob_at(c->repo, c->a, ex->base, p, 64 << 10, &yaml, &ylen);
		if (rc && rc != ERR_NOT_FOUND)
			return rc;
	}
	ex->tx = tx;
	in.rv = ex->rv;
	in.synced = ex->synced;
	in.body = body_cb;
	in.blob = blob_cb;
	in.ctx = ex;
	in.gitbook_yaml = (const char *)yaml;
	in.gitbook_yaml_len = ylen;
	in.summary_oid = ex->g.link.summary_oid;
	in.summary_hash = ex->g.link.summary_hash;
	rc = layout_export(c->a, &in, &ex->out);
	ex->tx = NULL;
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The blob oid written at path, or NULL. writes are few thousand: a sorted
 * index of (path, oid) pairs answers each page's lookup. */
struct path_oid {
	const char *path, *oid;
};

static int cmp_path_oid(const void *a, const void *b)
{
	return strcmp(((const struct path_oid *)a)->path, ((const struct path_oid *)b)->path);
}

static const char *oid_at(const struct path_oid *idx, int n, const char *path)
{
	struct path_oid key = { path, NULL };
	const struct path_oid *hit = path ? bsearch(&key, idx, (size_t)n, sizeof(*idx), cmp_path_oid) : NULL;

	return hit ? hit->oid : NULL;
}

static int export_finalize(struct sync *c, struct store_tx *tx, void *arg)
{
	struct export *ex = arg;
	struct space s;
	struct gs_link l;
	struct revision_new nr = { 0 };
	const struct revision *rec;
	struct rev_page *pages;
	struct rev_file *files;
	struct path_oid *idx;
	const char **known;
	const char *summary_oid = NULL;
	int n = ex->out.nwrites, nknown = 0, rc;

	if ((rc = store_space_get_locked(tx, c->run->job->subject, &s)))
		return rc;
	if ((rc = store_git_link_get(tx, s.id, &l)))
		return rc == ERR_NOT_FOUND ? err_set(ERR_PRECONDITION, "the space's Git link was removed") : rc;
	if (l.applied_job && strcmp(l.applied_job, c->run->job->id) == 0)
		return 0;
	idx = arena_alloc(c->a, sizeof(*idx) * (size_t)(n + 1));
	known = arena_alloc(c->a, sizeof(*known) * (size_t)(ex->rv->npages + ex->rv->nfiles + 1));
	pages = arena_alloc(c->a, sizeof(*pages) * (size_t)(ex->rv->npages + 1));
	files = arena_alloc(c->a, sizeof(*files) * (size_t)(ex->rv->nfiles + 1));
	for (int i = 0; i < n; i++) {
		idx[i].path = ex->out.writes[i].path;
		idx[i].oid = ex->blob_oids ? ex->blob_oids[i] : ex->out.writes[i].oid;
	}
	qsort(idx, (size_t)n, sizeof(*idx), cmp_path_oid);
	/* The record of what was written: the exported revision's entries with
	 * their paths, fingerprints and blobs. */
	for (int i = 0; i < ex->rv->npages; i++) {
		const char *p = ex->out.page_paths ? ex->out.page_paths[i] : NULL;
		pages[i] = ex->rv->pages[i];
		pages[i].git_path = p;
		pages[i].git_hash = p && ex->out.page_hashes ? ex->out.page_hashes[i] : NULL;
		pages[i].git_oid = oid_at(idx, n, p);
		if (p)
			known[nknown++] = p;
	}
	for (int i = 0; i < ex->rv->nfiles; i++) {
		const char *p = ex->out.file_paths ? ex->out.file_paths[i] : NULL;
		files[i] = ex->rv->files[i];
		files[i].git_path = p;
		files[i].git_oid = oid_at(idx, n, p);
		if (p)
			known[nknown++] = p;
	}
	/* SUMMARY.md is the one write that is neither a page nor a file. */
	qsort(known, (size_t)nknown, sizeof(*known), cmp_str);
	for (int i = 0; i < n && !summary_oid; i++)
		if (!bsearch(&idx[i].path, known, (size_t)nknown, sizeof(*known), cmp_str))
			summary_oid = idx[i].oid;
	nr.space_id = s.id;
	nr.parent_id = ex->rv_id;
	nr.parents = arena_printf(c->a, "[\"%s\"]", ex->rv_id);
	nr.type = "edits";
	nr.created_by = c->rq.user;
	nr.git = commit_json(c->a, c->oid, c->rq.message, true, c->rq.commit_url, c->rq.ref);
	nr.pages = pages;
	nr.npages = ex->rv->npages;
	nr.files = files;
	nr.nfiles = ex->rv->nfiles;
	if (!nr.git)
		return err_set(ERR_INTERNAL, "out of memory");
	/* Written beside the content (the space's revision does not move): what
	 * the next sync overlays. */
	if ((rc = store_revision_create(tx, &nr, &rec)))
		return rc;
	l.applied_job = c->run->job->id;
	if (c->rq.timestamp > l.last_timestamp)
		l.last_timestamp = c->rq.timestamp;
	l.export_commit = c->oid;
	l.synced_revision = rec->id;
	l.summary_oid = summary_oid;
	l.summary_hash = ex->out.summary_hash;
	if (l.op_job && strcmp(l.op_job, c->run->job->id) == 0) {
		struct op_change ch = { .stage = gs_stage_names[3], .completed = GS_STAGES, .state = "success",
					.commit = c->oid,
					.note = ex->unchanged ? "nothing to export: the branch has this content already" : NULL };
		op_apply(&l, &ch);
		if ((rc = op_events(c, tx, &l, &ch)))
			return rc;
	}
	return link_put(tx, c->a, &l);
}

/* DOCSD_TEST_GIT_PAUSE=after-push:MS (tests only): sleep MS milliseconds
 * after an export's push, before export_finalize, after logging "git export
 * <job id>: pausing", so that a test can kill the process there. */
static void test_pause_after_push(const char *job_id)
{
	const char *v = getenv("DOCSD_TEST_GIT_PAUSE");
	long ms;

	if (!v || strncmp(v, "after-push:", 11) != 0 || (ms = strtol(v + 11, NULL, 10)) <= 0 || ms > 600000)
		return;
	log_info("git export %s: pausing %ld ms after the push (DOCSD_TEST_GIT_PAUSE)", job_id, ms);
	nanosleep(&(struct timespec){ ms / 1000, (ms % 1000) * 1000000 }, NULL);
}

static int run_export(struct sync *c)
{
	struct export ex = { .c = c };
	bool missing = false;
	int rc, stage = 0;
	struct gitrepo_author author = { c->user_name, c->user_email };

	if ((rc = in_tx(c, 0, gate_read, &ex.g)))
		return rc;
	if (ex.g.wait) {
		c->run->defer_ms = DEFER_MS;
		return err_set(ERR_UNAVAILABLE, "waiting for an earlier Git sync of the space");
	}
	if (ex.g.skip) {
		c->run->result = arena_printf(c->a, "{\"skipped\":\"%s\"}", ex.g.skip);
		return strcmp(ex.g.skip, "already applied") == 0 ? 0 : op_done(c, ex.g.skip);
	}
	author.name = c->user_name;
	author.email = c->user_email;
	if (c->rq.automatic || !c->rq.user)
		author.name = author.email = NULL; /* "docsd" */
	op_progress(c, 0);
	if ((rc = fetch(c, &ex.g.space, &missing)))
		goto fail;
	ex.base = missing ? NULL : arena_strdup(c->a, c->oid);
	stage = 2;
	op_progress(c, stage);
	if ((rc = in_tx(c, 0, export_plan, &ex)))
		goto fail;
	if ((rc = gitrepo_commit(c->repo, c->a, ex.base, c->rq.project_dir, ex.out.writes, ex.out.nwrites,
				 ex.out.deletes, ex.out.ndeletes, &author, c->rq.message, c->oid, &ex.unchanged,
				 &ex.blob_oids)))
		goto fail;
	stage = 3;
	op_progress(c, stage);
	if (!ex.unchanged && (rc = gitrepo_push(c->repo, c->rq.url, c->rq.ref, c->oid, c->rq.force, &c->net)))
		goto fail;
	test_pause_after_push(c->run->job->id);
	if ((rc = in_tx(c, 1, export_finalize, &ex)))
		goto fail;
	c->run->result = arena_printf(c->a, "{\"commit\":\"%s\",\"unchanged\":%s,\"writes\":%d,\"deletes\":%d}",
				      c->oid, ex.unchanged ? "true" : "false", ex.out.nwrites, ex.out.ndeletes);
	revision_free(ex.rv);
	revision_free(ex.synced);
	return 0;
fail:
	revision_free(ex.rv);
	revision_free(ex.synced);
	return op_fail(c, stage, rc);
}

int dom_git_job_run(struct dom *d, struct dom_job *run, enum git_direction dir)
{
	struct sync c = { .d = d, .run = run, .a = d->arena, .dir = dir };
	int rc;

	if ((rc = parse_payload(d->arena, run->job->payload, &c.rq)))
		return rc;
	rc = dir == GIT_IMPORT ? run_import(&c) : run_export(&c);
	gitrepo_close(c.repo);
	return rc;
}

int dom_git_init(void)
{
	return gitnet_global_init();
}
