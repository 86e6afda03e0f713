/*
 * Git sync in the domain layer (domain/git_sync.h), in process on SQLite and
 * PostgreSQL: a request's checks (url, ref, commitMessage, the project
 * directory, the link URLs, the timestamp) before its access checks; who may
 * start a sync, read the link and remove it; the link a request writes and
 * the job it queues (credentials sealed in both, never in plain text, and the
 * URL without them); the operation's state as GitSyncState shows it; the
 * export queued after a merge; and the import job run in process against a
 * bare repository the test makes with the `git` command (file://, which needs
 * the server's allow_private_network): the revision it writes, the link's
 * applied commit, a second import of the same commit doing nothing, an older
 * timestamp skipped, a missing branch or directory failing with the reason.
 *
 * The actors: ada, admin of the organization; ed, with edit; rod, with read;
 * sam, not a member.
 */
#include "domain/content.h"
#include "domain/git_sync.h"
#include "jobs/jobs.h"
#include "store/git_sync.h"
#include "store/jobs.h"
#include "fixtures.h"
#include "unit.h"
#include "util/err.h"
#include "util/seal.h"
#include "util/util.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct world {
	struct store *s;
	struct server srv;
	char dir[64]; /* the bare repository, its work tree and the mirrors */
	struct arena a;
	struct store_tx tx;
	struct dom d;
	struct org org;
	struct user ada, ed, rod, sam;
	struct space space;
};

static struct dom *as(struct world *w, const struct user *u)
{
	return fx_as(&w->d, &w->srv, w->s, &w->tx, &w->a, u);
}

/* A valid import request; tests change one field at a time. */
static struct dom_git_request req(enum git_direction dir, const char *url)
{
	return (struct dom_git_request){ .direction = dir, .url = url, .ref = "refs/heads/main",
					 .commit_message = dir == GIT_EXPORT ? "Update docs" : NULL };
}

/* dom_git_sync_start as u in a transaction rolled back; err_message() stays. */
static int try_start(struct world *w, const struct user *u, const struct dom_git_request *rq)
{
	int rc = dom_git_sync_start(as(w, u), w->space.id, rq);

	fx_done(&w->tx, 0);
	return rc;
}

/* The key credentials are sealed with, derived as domain/git_sync.c does
 * (HMAC-SHA256 of the "git-credentials" secret over a fixed label), so the
 * test can open what was sealed. */
static void creds_key(struct world *w, unsigned char key[SEAL_KEY_LEN])
{
	static const char label[] = "docsd git credentials v1";
	const char *secret = NULL;

	CHECK(store_secret_get(&w->tx, "git-credentials", &secret) == 0 && secret);
	CHECK(secret && hmac_sha256(key, secret, strlen(secret), label, sizeof(label) - 1) == 0);
}

/* ---- the request's checks, in the order they are made ---- */

static void request_checks(struct world *w)
{
	struct dom_git_request rq;
	char *longmsg;

	/* url: present, a supported scheme, file only with allow_private_network */
	rq = req(GIT_IMPORT, NULL);
	CHECK(try_start(w, &w->ed, &rq) == ERR_INVALID);
	CHECK(strncmp(err_message(), "url: ", 5) == 0);
	static const char *const bad[] = { "", "ssh://git@host/x.git", "git://host/x.git", "git@host:x/y.git",
					   "file:///srv/docs.git", "https://host/x?y=1" };
	w->srv.cfg.allow_private_network = false;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		rq = req(GIT_IMPORT, bad[i]);
		CHECK(try_start(w, &w->ed, &rq) == ERR_INVALID);
		CHECK(strncmp(err_message(), "url: ", 5) == 0);
	}
	w->srv.cfg.allow_private_network = true;
	rq = req(GIT_IMPORT, "file://relative/docs.git");
	CHECK(try_start(w, &w->ed, &rq) == ERR_INVALID);
	/* a refused URL's message never repeats it: it may hold a token */
	rq = req(GIT_IMPORT, "https://bot:s3cret@/x.git");
	CHECK(try_start(w, &w->ed, &rq) == ERR_INVALID);
	CHECK(strstr(err_message(), "s3cret") == NULL);

	/* ref: a branch */
	static const char *const refs[] = { "main", "refs/tags/v1", "refs/heads/", "refs/heads/a..b" };
	for (size_t i = 0; i < sizeof(refs) / sizeof(refs[0]); i++) {
		rq = req(GIT_IMPORT, "https://git.example.com/acme/docs.git");
		rq.ref = refs[i];
		CHECK(try_start(w, &w->ed, &rq) == ERR_INVALID);
		CHECK_STR(err_message(), "ref: must be a branch of the form refs/heads/<branch>");
	}
	rq = req(GIT_IMPORT, "https://git.example.com/acme/docs.git");
	rq.ref = NULL;
	CHECK(try_start(w, &w->ed, &rq) == ERR_INVALID);

	/* commitMessage: an export's is required, and bounded */
	rq = req(GIT_EXPORT, "https://git.example.com/acme/docs.git");
	rq.commit_message = NULL;
	CHECK(try_start(w, &w->ed, &rq) == ERR_INVALID);
	CHECK_STR(err_message(), "commitMessage: required");
	rq.commit_message = "";
	CHECK(try_start(w, &w->ed, &rq) == ERR_INVALID);
	longmsg = arena_alloc(&w->a, 65538);
	memset(longmsg, 'm', 65537);
	longmsg[65537] = '\0';
	rq.commit_message = longmsg;
	CHECK(try_start(w, &w->ed, &rq) == ERR_INVALID);
	CHECK_STR(err_message(), "commitMessage: longer than 65536 bytes");

	/* repoProjectDirectory, the link URLs, the timestamp: each named */
	rq = req(GIT_IMPORT, "https://git.example.com/acme/docs.git");
	rq.project_dir = "a/../b";
	CHECK(try_start(w, &w->ed, &rq) == ERR_INVALID);
	CHECK(strncmp(err_message(), "repoProjectDirectory: ", 22) == 0);
	rq.project_dir = NULL;
	rq.tree_url = "ftp://git.example.com/tree/";
	CHECK(try_start(w, &w->ed, &rq) == ERR_INVALID);
	CHECK_STR(err_message(), "repoTreeURL: must be an http or https URL");
	rq.tree_url = NULL;
	rq.commit_url = "javascript:alert(1)";
	CHECK(try_start(w, &w->ed, &rq) == ERR_INVALID);
	CHECK_STR(err_message(), "repoCommitURL: must be an http or https URL");
	rq.commit_url = NULL;
	rq.info_url = "file:///etc/passwd";
	CHECK(try_start(w, &w->ed, &rq) == ERR_INVALID);
	CHECK_STR(err_message(), "gitInfo.url: must be an http or https URL");
	rq.info_url = NULL;
	rq.timestamp = "yesterday";
	CHECK(try_start(w, &w->ed, &rq) == ERR_INVALID);
	CHECK_STR(err_message(), "timestamp: must be an RFC 3339 date-time");

	/* the input before access: an outsider's bad request is a 400 too */
	rq.timestamp = NULL;
	rq.ref = "main";
	CHECK(try_start(w, &w->sam, &rq) == ERR_INVALID);
	/* access: edit on the space; outsiders learn nothing */
	rq = req(GIT_IMPORT, "https://git.example.com/acme/docs.git");
	CHECK(try_start(w, &w->sam, &rq) == ERR_NOT_FOUND);
	CHECK(try_start(w, &w->rod, &rq) == ERR_FORBIDDEN);
	CHECK(try_start(w, &w->ed, &rq) == 0);
	{
		struct dom_git_request ex = req(GIT_EXPORT, "https://git.example.com/acme/docs.git");
		CHECK(try_start(w, &w->rod, &ex) == ERR_FORBIDDEN);
		CHECK(try_start(w, &w->ed, &ex) == 0);
	}
	CHECK(dom_git_sync_start(as(w, &w->ed), "nosuchspace", &rq) == ERR_NOT_FOUND);
	fx_done(&w->tx, 0);

	/* a locked space takes no import, but may be exported; a deleted one neither */
	{
		struct dom_git_request ex = req(GIT_EXPORT, "https://git.example.com/acme/docs.git");
		struct space s;
		bool deleted;
		as(w, NULL);
		CHECK(store_space_get(&w->tx, w->space.id, &s) == 0);
		s.edit_mode = "locked";
		CHECK(store_space_update(&w->tx, &s) == 0);
		dom_init(&w->d, &w->srv, &w->tx, &w->a, w->ada.id);
		CHECK(dom_git_sync_start(&w->d, w->space.id, &rq) == ERR_FORBIDDEN);
		CHECK(dom_git_sync_start(&w->d, w->space.id, &ex) == 0);
		s.edit_mode = "live";
		CHECK(store_space_update(&w->tx, &s) == 0);
		CHECK(store_space_delete(&w->tx, &s, &deleted) == 0 && deleted);
		CHECK(dom_git_sync_start(&w->d, w->space.id, &rq) == ERR_CONFLICT);
		CHECK(dom_git_sync_start(&w->d, w->space.id, &ex) == ERR_CONFLICT);
		CHECK_STR(err_message(), "the space is deleted; restore it first");
		fx_done(&w->tx, 0);
	}
}

/* ---- the link and the job a request writes ---- */

/* The actor of w->d, on the transaction already open. */
static struct dom *actor(struct world *w, const struct user *u)
{
	dom_init(&w->d, &w->srv, &w->tx, &w->a, u ? u->id : NULL);
	return &w->d;
}

/* Jobs of a kind in the store (w's transaction). */
static int count_jobs(struct world *w, const char *kind)
{
	struct job *items;
	int n = -1;

	CHECK(store_job_list(&w->tx, kind, 1000, &items, &n) == 0);
	return n;
}

/* A change request by ed with one page, merged by ada (w's transaction). */
static void merge_one(struct world *w, const char *subject, struct change_request *cr)
{
	struct cr_new in = { .subject = subject };
	struct cr_merge_result m;
	struct space s;
	json_t *changes = json_pack("[{s:s, s:s, s:{s:s}}]", "operation", "insert_page", "title",
				    subject ? subject : "Untitled", "document", "markdown", "Text.\n");

	CHECK(dom_cr_create(actor(w, &w->ed), w->space.id, &in, &s, cr) == 0);
	CHECK(dom_cr_content(&w->d, w->space.id, cr->id, changes, &s, cr, NULL) == 0);
	CHECK(dom_cr_merge(actor(w, &w->ada), w->space.id, cr->id, &m) == 0);
	CHECK_STR(m.result, "merge");
	json_decref(changes);
}

/* All in one transaction, rolled back at the end: the jobs it queues name a
 * host that does not exist and must never run. */
static void link_and_job(struct world *w)
{
	unsigned char key[SEAL_KEY_LEN];
	struct dom_git_request rq = req(GIT_IMPORT, "https://bot:s3cret@git.example.com/acme/docs.git");
	struct gs_link l;
	struct job j;
	const char *json, *plain, *first_job;
	json_t *p;
	bool removed;

	/* nothing set up yet: 404 for GET .../git/info */
	CHECK(dom_git_info(as(w, &w->rod), w->space.id, &json) == ERR_NOT_FOUND);
	CHECK_STR(err_message(), "No Git provider is set up on this space");

	rq.provider = "github";
	rq.info_url = "https://github.com/acme/docs";
	rq.tree_url = "https://github.com/acme/docs/tree/main/";
	rq.commit_url = "https://github.com/acme/docs/commit/";
	rq.project_dir = "/docs/";
	rq.cache_id = "cache-1";
	rq.timestamp = "2024-05-01T10:00:00Z";
	rq.standalone = true;
	CHECK(dom_git_sync_start(actor(w, &w->ed), w->space.id, &rq) == 0);

	/* the link: the URL without credentials, the credentials sealed */
	CHECK(store_git_link_get(&w->tx, w->space.id, &l) == 0);
	CHECK_STR(l.url, "https://git.example.com/acme/docs.git");
	CHECK_STR(l.repo_name, "acme/docs");
	CHECK_STR(l.ref, "refs/heads/main");
	CHECK_STR(l.project_dir, "docs");
	CHECK_STR(l.provider, "github");
	CHECK_STR(l.info_url, "https://github.com/acme/docs");
	CHECK_STR(l.cache_id, "cache-1");
	CHECK(l.credentials && strncmp(l.credentials, "v1.", 3) == 0);
	CHECK(l.credentials && !strstr(l.credentials, "s3cret") && !strstr(l.credentials, "bot"));
	creds_key(w, key);
	CHECK(l.credentials && seal_open(&w->a, key, l.credentials, &plain) == 0 && strcmp(plain, "bot:s3cret") == 0);
	/* the operation: running, an import, at its first stage, owned by the job */
	CHECK_STR(l.op_state, "running");
	CHECK_STR(l.op_direction, "import");
	CHECK_STR(l.op_stage, "repo_fetch");
	CHECK(l.op_completed_tasks == 0 && l.op_started_at > 0 && l.op_error == NULL);
	CHECK(l.op_job != NULL);
	first_job = arena_strdup(&w->a, l.op_job);

	/* the job: queued for the space, its payload with the sealed credentials */
	CHECK(store_job_get(&w->tx, first_job, &j) == 0);
	CHECK_STR(j.kind, JOB_KIND_GIT_IMPORT);
	CHECK_STR(j.subject, w->space.id);
	CHECK_STR(j.state, "queued");
	CHECK(!strstr(j.payload, "s3cret") && !strstr(j.payload, "bot:"));
	p = json_loads(j.payload, 0, NULL);
	CHECK(p != NULL);
	CHECK_STR(json_string_value(json_object_get(p, "url")), "https://git.example.com/acme/docs.git");
	CHECK_STR(json_string_value(json_object_get(p, "credentials")), l.credentials);
	CHECK_STR(json_string_value(json_object_get(p, "ref")), "refs/heads/main");
	CHECK_STR(json_string_value(json_object_get(p, "repoProjectDirectory")), "docs");
	CHECK_STR(json_string_value(json_object_get(p, "repoCacheID")), "cache-1");
	CHECK_STR(json_string_value(json_object_get(p, "repoCommitURL")), "https://github.com/acme/docs/commit/");
	CHECK_STR(json_string_value(json_object_get(p, "user")), w->ed.id);
	CHECK(json_is_null(json_object_get(p, "commitMessage")));
	CHECK(json_integer_value(json_object_get(p, "timestamp")) == 1714557600000LL);
	CHECK(json_is_true(json_object_get(p, "standalone")));
	CHECK(json_is_false(json_object_get(p, "force")) && json_is_false(json_object_get(p, "automatic")));
	json_decref(p);

	/* GitSyncState, for readers: provider, the web URL, the operation; no credentials */
	CHECK(dom_git_info(actor(w, &w->rod), w->space.id, &json) == 0);
	CHECK(strstr(json, "\"repoName\":\"acme/docs\"") != NULL);
	CHECK(strstr(json, "\"installationProvider\":\"github\"") != NULL);
	CHECK(strstr(json, "\"url\":\"https://github.com/acme/docs\"") != NULL);
	CHECK(strstr(json, "\"operation\":{\"state\":\"running\",\"direction\":\"import\",\"stage\":\"repo_fetch\"") != NULL);
	CHECK(!strstr(json, "s3cret") && !strstr(json, "v1."));
	CHECK(dom_git_info(actor(w, &w->sam), w->space.id, &json) == ERR_NOT_FOUND);

	/* a newer request owns the operation; credentials dropped when not given */
	rq = req(GIT_EXPORT, "https://git.example.com/acme/docs.git");
	CHECK(dom_git_sync_start(actor(w, &w->ed), w->space.id, &rq) == 0);
	CHECK(store_git_link_get(&w->tx, w->space.id, &l) == 0);
	CHECK_STR(l.op_direction, "export");
	CHECK_STR(l.op_state, "running");
	CHECK(l.op_job && strcmp(l.op_job, first_job) != 0);
	CHECK(l.credentials == NULL);
	CHECK_STR(l.provider, "github"); /* kept: not given again */
	CHECK(l.project_dir == NULL);
	CHECK(store_job_get(&w->tx, l.op_job, &j) == 0);
	CHECK_STR(j.kind, JOB_KIND_GIT_EXPORT);
	CHECK(strstr(j.payload, "\"commitMessage\":\"Update docs\"") != NULL);
	CHECK(strstr(j.payload, "\"credentials\":null") != NULL);
	/* the first job is still queued: it runs first (jobs of a space in order) */
	CHECK(store_job_get(&w->tx, first_job, &j) == 0);
	CHECK_STR(j.state, "queued");

	/* after a merge: an export of "GITBOOK-<number>: <subject>", automatic */
	{
		struct change_request cr;
		const char *prev = arena_strdup(&w->a, l.op_job), *want;
		int before = count_jobs(w, JOB_KIND_GIT_EXPORT);
		merge_one(w, "Fix the typo", &cr);
		CHECK(store_git_link_get(&w->tx, w->space.id, &l) == 0);
		CHECK(l.op_job && strcmp(l.op_job, prev) != 0);
		CHECK_STR(l.op_direction, "export");
		CHECK_STR(l.op_state, "running");
		CHECK(count_jobs(w, JOB_KIND_GIT_EXPORT) == before + 1);
		CHECK(l.op_job && store_job_get(&w->tx, l.op_job, &j) == 0);
		CHECK_STR(j.kind, JOB_KIND_GIT_EXPORT);
		want = arena_printf(&w->a, "\"commitMessage\":\"GITBOOK-%lld: Fix the typo\"", (long long)cr.number);
		CHECK(strstr(j.payload, want) != NULL);
		CHECK(strstr(j.payload, "\"automatic\":true") != NULL);
		merge_one(w, NULL, &cr);
		CHECK(store_git_link_get(&w->tx, w->space.id, &l) == 0);
		CHECK(l.op_job && store_job_get(&w->tx, l.op_job, &j) == 0);
		want = arena_printf(&w->a, "\"commitMessage\":\"GITBOOK-%lld: No subject\"", (long long)cr.number);
		CHECK(strstr(j.payload, want) != NULL);
		/* content that is not a merge (a template) queues no export */
		before = count_jobs(w, JOB_KIND_GIT_EXPORT);
		prev = arena_strdup(&w->a, l.op_job);
		CHECK(dom_template_apply(actor(w, &w->ada), w->space.id, "changelog", NULL) == 0);
		CHECK(count_jobs(w, JOB_KIND_GIT_EXPORT) == before);
		CHECK(store_git_link_get(&w->tx, w->space.id, &l) == 0);
		CHECK_STR(l.op_job, prev);
	}

	/* removing the link: admins only; the second time nothing is removed */
	CHECK(dom_git_link_remove(actor(w, &w->ed), w->space.id, &removed) == ERR_FORBIDDEN);
	CHECK(dom_git_link_remove(actor(w, &w->rod), w->space.id, &removed) == ERR_FORBIDDEN);
	CHECK(dom_git_link_remove(actor(w, &w->sam), w->space.id, &removed) == ERR_NOT_FOUND);
	CHECK(dom_git_link_remove(actor(w, &w->ada), w->space.id, &removed) == 0 && removed);
	CHECK(dom_git_link_remove(&w->d, w->space.id, &removed) == 0 && !removed);
	CHECK(dom_git_info(&w->d, w->space.id, &json) == ERR_NOT_FOUND);
	CHECK(store_git_link_get(&w->tx, w->space.id, &l) == ERR_NOT_FOUND);
	/* no link: no export after a merge */
	{
		struct change_request cr;
		int before = count_jobs(w, JOB_KIND_GIT_EXPORT);
		merge_one(w, "Unlinked", &cr);
		CHECK(count_jobs(w, JOB_KIND_GIT_EXPORT) == before);
	}
	fx_done(&w->tx, 0);
}

/* ---- the import job, in process, from a local bare repository ---- */

/* Run a shell command; 0 when it succeeded. */
static int sh(const char *cmd)
{
	int rc = system(cmd);

	if (rc != 0)
		fprintf(stderr, "  command failed (%d): %s\n", rc, cmd);
	return rc;
}

/* Make <dir>/repo.git with one commit on main; *head gets its id. */
static bool make_repo(struct world *w, char head[41])
{
	char cmd[2048], path[128];
	FILE *f;

	snprintf(cmd, sizeof(cmd),
		 "set -e; cd %s; export GIT_CONFIG_NOSYSTEM=1 HOME=%s; git init -q --bare repo.git; git init -q work; "
		 "cd work; mkdir -p guide; printf '# Welcome\\n\\nHello from Git.\\n' > README.md; "
		 "printf '# Install\\n\\nRun make.\\n' > guide/install.md; "
		 "printf '# Table of contents\\n\\n* [Welcome](README.md)\\n* [Install](guide/install.md)\\n' > SUMMARY.md; "
		 "git add -A; git -c user.name=Unit -c user.email=unit@example.com commit -q -m 'First docs'; "
		 "git push -q ../repo.git HEAD:refs/heads/main; git rev-parse HEAD > ../head.txt",
		 w->dir, w->dir);
	if (sh(cmd) != 0)
		return false;
	snprintf(path, sizeof(path), "%s/head.txt", w->dir);
	if (!(f = fopen(path, "r")))
		return false;
	bool ok = fgets(head, 41, f) != NULL && strlen(head) == 40;
	fclose(f);
	return ok;
}

/* Run every due Git import job; how many ran. */
static int run_imports(struct world *w)
{
	int n = 0, rc;

	while ((rc = jobs_run_one(w->s, &w->srv, "unit-git", JOB_KIND_GIT_IMPORT)) == 1 && n < 20)
		n++;
	CHECK(rc >= 0);
	return n;
}

/* The link, read in a transaction of its own (strings in w's arena). */
static struct gs_link link_now(struct world *w)
{
	struct gs_link l;

	memset(&l, 0, sizeof(l));
	as(w, NULL);
	CHECK(store_git_link_get(&w->tx, w->space.id, &l) == 0);
	fx_done(&w->tx, 0);
	return l;
}

static const char *space_revision(struct world *w)
{
	struct space s;

	as(w, NULL);
	CHECK(store_space_get(&w->tx, w->space.id, &s) == 0);
	fx_done(&w->tx, 0);
	return s.revision;
}

static void start(struct world *w, const struct dom_git_request *rq)
{
	CHECK(dom_git_sync_start(as(w, &w->ed), w->space.id, rq) == 0);
	fx_done(&w->tx, 1);
}

static void import_job(struct world *w)
{
	char head[41] = "", url[256];
	struct dom_git_request rq;
	struct gs_link l;
	struct job j;
	const char *rev0 = space_revision(w), *rev1;

	CHECK(dom_git_init() == 0);
	if (!make_repo(w, head)) {
		CHECK(!"the test repository could not be made with git");
		return;
	}
	snprintf(url, sizeof(url), "file://%s/repo.git", w->dir);
	rq = req(GIT_IMPORT, url);
	rq.timestamp = "2024-05-01T10:00:00Z";

	/* file:// reads the server's disk: only with allow_private_network */
	w->srv.cfg.allow_private_network = false;
	CHECK(try_start(w, &w->ed, &rq) == ERR_INVALID);
	CHECK(strncmp(err_message(), "url: ", 5) == 0);
	w->srv.cfg.allow_private_network = true;

	start(w, &rq);
	l = link_now(w);
	const char *job_id = arena_strdup(&w->a, l.op_job);
	CHECK(run_imports(w) == 1);
	/* applied: a new revision made current, the commit recorded, success */
	rev1 = space_revision(w);
	CHECK(strcmp(rev1, rev0) != 0);
	l = link_now(w);
	CHECK_STR(l.op_state, "success");
	CHECK_STR(l.op_stage, "finalize");
	CHECK(l.op_completed_tasks == GS_STAGES && l.op_completed_at > 0);
	CHECK_STR(l.op_commit, head);
	CHECK_STR(l.op_revision, rev1);
	CHECK_STR(l.import_commit, head);
	CHECK_STR(l.synced_revision, rev1);
	CHECK_STR(l.applied_job, job_id);
	CHECK(l.last_timestamp == 1714557600000LL);
	CHECK(l.repo_name && strcmp(l.repo_name, "repo") == 0);
	as(w, NULL);
	CHECK(store_job_get(&w->tx, job_id, &j) == 0);
	CHECK_STR(j.state, "done");
	CHECK(j.result && strstr(j.result, head) != NULL);
	{
		const struct revision *rv;
		const struct rev_page *readme = NULL, *install = NULL;
		const char *md = NULL;
		CHECK(store_revision_get(&w->tx, rev1, &rv) == 0);
		for (int i = 0; rv && i < rv->npages; i++) {
			if (rv->pages[i].git_path && strcmp(rv->pages[i].git_path, "README.md") == 0)
				readme = &rv->pages[i];
			if (rv->pages[i].git_path && strcmp(rv->pages[i].git_path, "guide/install.md") == 0)
				install = &rv->pages[i];
		}
		CHECK(readme && install);
		if (readme && install) {
			CHECK_STR(readme->title, "Welcome");
			CHECK_STR(install->title, "Install");
			CHECK(store_body_get(&w->tx, install->body, &md) == 0);
			CHECK(md && strstr(md, "Run make.") != NULL);
		}
		CHECK(rv && rv->git && strstr(rv->git, head) != NULL);
	}
	fx_done(&w->tx, 0);
	{
		const char *json;
		CHECK(dom_git_info(as(w, &w->rod), w->space.id, &json) == 0);
		CHECK(strstr(json, "\"state\":\"success\"") != NULL);
		fx_done(&w->tx, 0);
	}

	/* the same commit again: nothing to import, the revision stays */
	start(w, &rq);
	CHECK(run_imports(w) == 1);
	CHECK_STR(space_revision(w), rev1);
	l = link_now(w);
	CHECK_STR(l.op_state, "success");
	CHECK_STR(l.op_note, "nothing to import: this commit is imported already");

	/* a request older than the last applied one is skipped */
	rq.timestamp = "2024-04-01T00:00:00Z";
	rq.force = true;
	start(w, &rq);
	CHECK(run_imports(w) == 1);
	CHECK_STR(space_revision(w), rev1);
	l = link_now(w);
	CHECK_STR(l.op_state, "success");
	CHECK_STR(l.op_note, "skipped: its timestamp is older than the last applied sync's");
	rq.timestamp = NULL;
	rq.force = false;

	/* a missing branch or directory fails the job with the reason; no content changes */
	rq.ref = "refs/heads/nope";
	start(w, &rq);
	job_id = arena_strdup(&w->a, link_now(w).op_job);
	CHECK(run_imports(w) == 1);
	l = link_now(w);
	CHECK_STR(l.op_state, "failure");
	CHECK_STR(l.op_error, "ref: the repository has no branch nope");
	CHECK_STR(l.import_commit, head); /* the applied part is the last import's */
	as(w, NULL);
	CHECK(store_job_get(&w->tx, job_id, &j) == 0);
	CHECK_STR(j.state, "failed"); /* a 400: not retried */
	fx_done(&w->tx, 0);
	rq.ref = "refs/heads/main";
	rq.project_dir = "nope";
	start(w, &rq);
	CHECK(run_imports(w) == 1);
	l = link_now(w);
	CHECK_STR(l.op_state, "failure");
	CHECK_STR(l.op_error, "repoProjectDirectory: the commit has no directory 'nope'");
	CHECK_STR(space_revision(w), rev1);

	/* standalone: a revision written, the space's current one unchanged */
	rq.project_dir = NULL;
	rq.standalone = true;
	start(w, &rq);
	CHECK(run_imports(w) == 1);
	l = link_now(w);
	CHECK_STR(l.op_state, "success");
	CHECK(l.op_revision && strcmp(l.op_revision, rev1) != 0);
	CHECK_STR(space_revision(w), rev1);
	CHECK_STR(l.synced_revision, rev1);
}

static void git_sync_suite(struct store *st)
{
	struct world w = { .s = st };
	char cmd[128];

	arena_init(&w.a);
	snprintf(w.dir, sizeof(w.dir), "/tmp/docsd-git-unit-XXXXXX");
	CHECK(mkdtemp(w.dir) != NULL);
	w.srv.store = st;
	w.srv.cfg.data_dir = w.dir; /* the mirrors */
	w.srv.cfg.allow_private_network = true;
	as(&w, NULL);
	fx_org(&w.tx, "Git sync",
	       (const struct fx_person[]){ { "ada", ROLE_ADMIN, &w.ada }, { "ed", ROLE_EDIT, &w.ed },
					   { "rod", ROLE_READ, &w.rod }, { "sam", ROLE_NONE, &w.sam }, { NULL } },
	       &w.org);
	fx_space(&w.tx, &w.org, "Synced", &w.space);
	fx_done(&w.tx, 1);

	request_checks(&w);
	link_and_job(&w);
	import_job(&w);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", w.dir);
	CHECK(strncmp(w.dir, "/tmp/docsd-git-unit-", 20) == 0 && sh(cmd) == 0);
	arena_free(&w.a);
}

UNIT_TEST_ON_ENGINES(domain_git_sync, git_sync_suite)
