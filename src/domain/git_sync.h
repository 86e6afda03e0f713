/*
 * git_sync.h - Git sync's operations (issue 13): a space's link to a Git
 * repository, the import and export jobs, and the export after a merge.
 *
 * DESIGN
 * A request (import or export) checks its input, writes the space's link
 * (store/git_sync.h: the remote without credentials, the credentials sealed,
 * the options, the operation marked running) and enqueues one job, all in the
 * request's transaction, and answers 204 at once. The job does the work with
 * no write transaction held while it talks to the remote or reads the
 * repository (its row in jobs/kinds.c runs it in transactions of its own;
 * the worker is jobs/git_sync.c):
 *
 *   import: repo_fetch (mirror fetch of the ref) -> config_check and
 *   content_process (format/gitbook_layout: files to pages and files; bodies
 *   and blobs stored in short batches) -> finalize (one transaction: the
 *   revision, the space's current revision unless standalone, the link's
 *   applied commit and timestamp, the operation's success).
 *   export: repo_fetch -> content_process (layout_export of the current
 *   revision onto the remote branch's tree; blobs, tree, commit in the
 *   mirror) -> finalize (push; then one transaction recording the pushed
 *   commit and the paths written).
 *
 * Guarantees:
 *  - Ordered: the jobs of one space run one at a time, oldest first (a job
 *    with an older unfinished one is deferred, store_git_jobs_before); a sync
 *    whose `timestamp` is older than the last applied one is skipped.
 *  - Applied once: the finalize transaction records the job's id
 *    (applied_job); a job run again after a crash finds it and does nothing,
 *    so a retried import never writes two revisions. An import of the commit
 *    the last import applied, with the same options, does nothing (unless
 *    force): it costs a ref advertisement.
 *  - All or nothing: a malformed .gitbook.yaml or front matter, a missing
 *    branch or directory, a limit passed or a refused address fails the job
 *    with a readable reason on the link's operation (Space.gitSync) and
 *    changes no content.
 *  - Credentials (user:token in the URL) are sealed with AES-256-GCM under a
 *    key derived from a server secret (util/seal.h) in the job's payload and
 *    the link; responses, logs and job rows only ever hold the URL without
 *    them, and the transport gets them separately (git/net.h).
 *
 * Permissions: import and export need edit on the space (Space.permissions
 * .triggerGitSync); an import also needs the space editable (not locked or
 * deleted). Reading the link (git/info, Space.gitSync) needs read; removing
 * it (legacy-installation) needs admin.
 */
#ifndef DOCSD_DOMAIN_GIT_SYNC_H
#define DOCSD_DOMAIN_GIT_SYNC_H

#include <stdbool.h>
#include <stdint.h>

#include "domain/domain.h"

#define JOB_KIND_GIT_IMPORT "git.import"
#define JOB_KIND_GIT_EXPORT "git.export"

enum git_direction { GIT_IMPORT, GIT_EXPORT };

/* A request's body as the handler read it (strings NULL when absent). */
struct dom_git_request {
	enum git_direction direction;
	const char *url;            /* may hold credentials */
	const char *ref;
	const char *commit_message; /* export: required */
	const char *cache_id, *tree_url, *commit_url, *project_dir;
	const char *timestamp;      /* RFC 3339, NULL when absent */
	bool force, standalone;
	const char *provider, *info_url; /* gitInfo */
};

/* Check the request, record the link and enqueue the job. */
int dom_git_sync_start(struct dom *d, const char *space_id, const struct dom_git_request *rq);

/* GET .../git/info: the space's GitSyncState JSON text (*json in d's
 * arena); ERR_NOT_FOUND when no Git provider is set up. */
int dom_git_info(struct dom *d, const char *space_id, const char **json);

/* DELETE .../git/legacy-installation: remove the space's link (its content
 * and the mirror stay); *removed = false when there was none. */
int dom_git_link_remove(struct dom *d, const char *space_id, bool *removed);

/* The export after a merge is not called by change requests: it subscribes
 * to "a space's content advanced" (dom_git_on_space_advanced, declared with
 * the other subscribers in domain/events.h). */

/* The work of a job of kind JOB_KIND_GIT_IMPORT or JOB_KIND_GIT_EXPORT
 * (subject: the space; payload: the request, credentials sealed), in
 * transactions of its own on run->store (d->tx is NULL). Sets run->result,
 * or run->defer_ms while an older job of the space is unfinished. */
struct dom_job;
int dom_git_job_run(struct dom *d, struct dom_job *run, enum git_direction dir);

/* The process-wide Git set-up (libgit2, its network transports refused),
 * once at start so that a failure stops docsd there; gitrepo_open does it
 * too. 0 or ERR_INTERNAL. */
int dom_git_init(void);

#endif
