/*
 * serialize_git.h - Git sync's objects as GitBook's schemas shape them.
 */
#ifndef DOCSD_JSON_SERIALIZE_GIT_H
#define DOCSD_JSON_SERIALIZE_GIT_H

#include <stdbool.h>

#include "model/git_sync.h"
#include "json/jsonw.h"

/* GitSyncState {repoName, installationProvider, integration, url, updatedAt}
 * and, as a docsd addition (the schema allows extra properties), the last
 * operation as `operation` in GitSyncOperation's shape {state, direction,
 * stage, dispatchedTasks, completedTasks, startedAt, updatedAt, completedAt?,
 * error?} plus `commit`, `revision` and `note` when known. Space.gitSync and
 * GET .../git/info are this object. */
void git_sync_state_to_json(struct jw *g, const struct gs_link *l);

/* GitSyncCommit {oid, message, createdByGitBook, url?, ref?}: a revision's
 * `git` (url: repoCommitURL + oid, NULL when no prefix was given). */
void git_sync_commit_to_json(struct jw *g, const char *oid, const char *message, bool by_gitbook, const char *url,
			     const char *ref);

#endif
