/*
 * git_sync.h - the pure parts of Git sync (issue 13): what a space's link to a
 * repository holds, and the checks of what a request names (the remote's URL,
 * the ref, the project directory, the timestamp). No Git, SQL or network:
 * src/git/ talks to repositories, domain/git_sync.c runs the operations,
 * format/gitbook_layout.h maps content to files.
 */
#ifndef DOCSD_MODEL_GIT_SYNC_H
#define DOCSD_MODEL_GIT_SYNC_H

#include <stdbool.h>
#include <stdint.h>

#include "util/arena.h"

enum gs_scheme { GS_SCHEME_HTTP, GS_SCHEME_HTTPS, GS_SCHEME_FILE };

/* Longest URL, ref, directory or link prefix a request may give. */
#define GS_MAX_URL 2048
#define GS_MAX_REF 255

/* A remote as a request names it. url never holds credentials: it is what is
 * stored, logged and shown. user/password come from the URL's userinfo
 * (percent-decoded), NULL when absent. */
struct gs_remote {
	const char *url;
	const char *user, *password;
	enum gs_scheme scheme;
	const char *repo_name; /* "acme/docs" for https://host/acme/docs.git; "docs" for file:///x/docs.git */
};

/*
 * Parse and check a remote URL: http, https or file (file only when
 * allow_file: it reads the server's own disk); ssh, git and scp-like
 * addresses are refused. 0, or ERR_INVALID naming `url` (the message never
 * repeats the URL: it may hold a token).
 */
int gs_remote_parse(struct arena *a, const char *in, bool allow_file, struct gs_remote *out);

/* A branch ref: "refs/heads/<branch>" where <branch> follows git's rules for
 * ref names (git check-ref-format). */
bool gs_ref_valid(const char *ref);

/* repoProjectDirectory: '/'-separated relative path without "." or ".."
 * components; leading and trailing '/' dropped. *out NULL for "" (the root).
 * ERR_INVALID naming the field. */
int gs_project_dir(struct arena *a, const char *in, const char **out);

/* An RFC 3339 date-time ("2024-05-01T10:00:00Z", fractions and offsets
 * allowed) as milliseconds since the epoch: 0, or -1 when malformed. */
int gs_timestamp_parse(const char *s, int64_t *ms);

/*
 * A space's link to a repository (store/git_sync.c keeps it in git_syncs;
 * domain/git_sync.c states its life). The provider details are what the last
 * request said; the "applied" part is written in the same transaction as the
 * effect of the sync that applied it; op_* is the last operation's status
 * (GitBook's GitSyncOperation).
 */
struct gs_link {
	const char *space_id;
	const char *url;         /* without credentials */
	const char *credentials; /* sealed "user:password" (util/seal.h), NULL when none */
	const char *ref;
	const char *provider;    /* gitInfo.provider: github | gitlab, NULL when not given */
	const char *info_url;    /* gitInfo.url, NULL when not given */
	const char *tree_url, *commit_url; /* repoTreeURL, repoCommitURL; NULL when not given */
	const char *project_dir; /* NULL: the repository's root */
	const char *cache_id;    /* repoCacheID, NULL when not given */
	const char *repo_name;
	int64_t updated_at;      /* when the provider details last changed */
	/* applied */
	const char *import_commit;   /* the commit the last import applied */
	const char *import_key;      /* with which options (domain/git_sync.c) */
	const char *export_commit;   /* the commit the last export pushed */
	const char *synced_revision; /* the revision the last import or export wrote or read, with git paths */
	const char *summary_oid, *summary_hash;
	int64_t last_timestamp;      /* `timestamp` of the last applied sync; 0 when none */
	const char *applied_job;     /* the job whose effect was written last (a rerun finds itself) */
	/* the last operation */
	const char *op_state;     /* running | failure | success */
	const char *op_direction; /* import | export */
	const char *op_stage;     /* repo_fetch | config_check | content_process | finalize */
	const char *op_error;     /* failure: why */
	const char *op_note;      /* success: what was skipped and why, or NULL */
	const char *op_commit;    /* the commit imported or exported, NULL when none */
	const char *op_revision;  /* the revision an import wrote, NULL when none */
	const char *op_job;       /* the job that runs it */
	int op_completed_tasks;
	int64_t op_started_at, op_updated_at, op_completed_at;
};

/* The stages an operation goes through, in order (GitSyncOperationStage). */
#define GS_STAGES 4
extern const char *const gs_stage_names[GS_STAGES];

#endif
