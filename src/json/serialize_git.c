/*
 * serialize_git.c - GitSyncState (with the last operation) and GitSyncCommit.
 */
#include "json/serialize_git.h"

#include <string.h>

/* GitBook's GitSyncProvider enum: other values are left out. */
static bool known_provider(const char *p)
{
	return p && (strcmp(p, "github") == 0 || strcmp(p, "gitlab") == 0);
}

void git_sync_state_to_json(struct jw *g, const struct gs_link *l)
{
	/* The URL "used when rendering public content": the repository's tree
	 * as the provider shows it when the sync named one, else the remote. */
	const char *url = l->info_url ? l->info_url : l->tree_url ? l->tree_url : l->url;

	jw_obj_open(g);
	jw_kstr(g, "repoName", l->repo_name ? l->repo_name : "");
	if (known_provider(l->provider))
		jw_kstr(g, "installationProvider", l->provider);
	jw_kstr(g, "integration", "docsd");
	jw_kstr(g, "url", url ? url : "");
	jw_kts(g, "updatedAt", l->updated_at);
	if (l->op_state) {
		jw_key(g, "operation");
		jw_obj_open(g);
		jw_kstr(g, "state", l->op_state);
		jw_kstr(g, "direction", l->op_direction ? l->op_direction : "import");
		jw_kstr(g, "stage", l->op_stage ? l->op_stage : gs_stage_names[0]);
		jw_kint(g, "dispatchedTasks", GS_STAGES);
		jw_kint(g, "completedTasks", l->op_completed_tasks);
		jw_kts(g, "startedAt", l->op_started_at);
		jw_kts(g, "updatedAt", l->op_updated_at);
		if (l->op_completed_at)
			jw_kts(g, "completedAt", l->op_completed_at);
		jw_kstr_opt(g, "error", l->op_error);
		jw_kstr_opt(g, "note", l->op_note);
		jw_kstr_opt(g, "commit", l->op_commit);
		jw_kstr_opt(g, "revision", l->op_revision);
		jw_obj_close(g);
	}
	jw_obj_close(g);
}

void git_sync_commit_to_json(struct jw *g, const char *oid, const char *message, bool by_gitbook, const char *url,
			     const char *ref)
{
	jw_obj_open(g);
	jw_kstr(g, "oid", oid);
	jw_kstr(g, "message", message ? message : "");
	jw_kbool(g, "createdByGitBook", by_gitbook);
	jw_kstr_opt(g, "url", url);
	jw_kstr_opt(g, "ref", ref);
	jw_obj_close(g);
}
