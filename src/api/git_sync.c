/*
 * git_sync.c - the Git sync operations (GitBook's space-git tag): import,
 * export, info and the legacy installation. The work runs as jobs
 * (domain/git_sync.h); these handlers read the body, start it and answer.
 */
#include "api/api.h"
#include "model/git_sync.h"
#include "domain/git_sync.h"

#include <string.h>

/* gitInfo: {provider?: github | gitlab, url?} */
static int body_git_info(struct req *r, struct dom_git_request *q)
{
	json_t *gi = body_field(r, "gitInfo"), *v;

	if (!gi || json_is_null(gi))
		return 0;
	if (!json_is_object(gi))
		return err_set(ERR_INVALID, "gitInfo: must be an object");
	if ((v = json_object_get(gi, "provider")) && !json_is_null(v)) {
		if (!json_is_string(v) ||
		    (strcmp(json_string_value(v), "github") != 0 && strcmp(json_string_value(v), "gitlab") != 0))
			return err_set(ERR_INVALID, "gitInfo.provider: must be github or gitlab");
		q->provider = json_string_value(v);
	}
	if ((v = json_object_get(gi, "url")) && !json_is_null(v)) {
		if (!json_is_string(v) || json_string_length(v) > GS_MAX_URL)
			return err_set(ERR_INVALID, "gitInfo.url: must be a URL of at most %d characters", GS_MAX_URL);
		q->info_url = json_string_value(v);
	}
	return 0;
}

static int read_request(struct req *r, enum git_direction dir, struct dom_git_request *q)
{
	int force = 0, standalone = 0, rc;

	memset(q, 0, sizeof(*q));
	q->direction = dir;
	if ((rc = body_string(r, "url", F_REQUIRED, 1, GS_MAX_URL, &q->url)) < 0 ||
	    (rc = body_string(r, "ref", F_REQUIRED, 1, GS_MAX_REF, &q->ref)) < 0 ||
	    (rc = body_string(r, "commitMessage", dir == GIT_EXPORT ? F_REQUIRED : 0, 0, 0, &q->commit_message)) < 0 ||
	    (rc = body_string(r, "repoCacheID", 0, 1, 256, &q->cache_id)) < 0 ||
	    (rc = body_string(r, "repoTreeURL", 0, 1, GS_MAX_URL, &q->tree_url)) < 0 ||
	    (rc = body_string(r, "repoCommitURL", 0, 1, GS_MAX_URL, &q->commit_url)) < 0 ||
	    (rc = body_string(r, "repoProjectDirectory", 0, 0, 1024, &q->project_dir)) < 0 ||
	    (rc = body_string(r, "timestamp", 0, 1, 64, &q->timestamp)) < 0 ||
	    (rc = body_bool(r, "force", 0, &force)) < 0 || (rc = body_git_info(r, q)) < 0)
		return rc;
	/* standalone belongs to the import (ExportToGitRepository has none). */
	if (dir == GIT_IMPORT && (rc = body_bool(r, "standalone", 0, &standalone)) < 0)
		return rc;
	q->force = force;
	q->standalone = standalone;
	return 0;
}

static int start(struct req *r, enum git_direction dir)
{
	struct dom_git_request q;
	int rc;

	if ((rc = read_request(r, dir, &q)) || (rc = dom_git_sync_start(&r->dom, req_param(r, "spaceId"), &q)))
		return rc;
	return resp_empty(r, 204);
}

int api_git_import(struct req *r)
{
	return start(r, GIT_IMPORT);
}

int api_git_export(struct req *r)
{
	return start(r, GIT_EXPORT);
}

int api_git_info(struct req *r)
{
	const char *json;
	struct jw *g;
	int rc = dom_git_info(&r->dom, req_param(r, "spaceId"), &json);

	if (rc)
		return rc;
	g = resp_json(r, 200);
	jw_raw(g, json); /* built by git_sync_state_to_json */
	return 0;
}

int api_git_legacy_delete(struct req *r)
{
	bool removed = false;
	int rc = dom_git_link_remove(&r->dom, req_param(r, "spaceId"), &removed);

	return rc ? rc : resp_empty(r, removed ? 205 : 204);
}
