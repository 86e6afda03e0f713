/*
 * repo.h - the local mirror of a remote repository, and what Git sync reads
 * from and writes to it (libgit2).
 *
 * A mirror belongs to one organization and one remote: it is a bare
 * repository under <data>/git/<org id>/<key>.git, where key is a hash of the
 * organization, the remote URL (without credentials) and the request's
 * repoCacheID. repoCacheID only names a cache inside the organization: two
 * spaces of one organization that sync the same remote under the same cache
 * share a mirror; another organization, or another URL, never does (a mirror
 * holds what its remote served, and a remote that merely advertises an object
 * id must not be answered from another tenant's objects). An operation holds
 * the mirror's lock (flock on <key>.lock: exclusive between threads and
 * processes on this machine) from open to close, so fetches, commits and
 * pushes of one mirror take turns. Objects are only ever added: a fetch
 * brings what is missing, an export writes blobs, trees and a commit; refs
 * under refs/docsd/heads/ keep what the remote served (fetched, or accepted
 * by a push), and only a commit reachable from them is read without asking
 * the remote for it (gitrepo_fetch).
 *
 * Errors: ERR_INVALID with a reason fit for the sync's status (the remote, the
 * ref, the size or time limits, a non-fast-forward push), ERR_UNAVAILABLE for
 * what may pass (a network failure is reported as ERR_INVALID: the jobs queue
 * retries only the rest), ERR_INTERNAL for local failures (disk, memory).
 */
#ifndef DOCSD_GIT_REPO_H
#define DOCSD_GIT_REPO_H

#include <stdbool.h>
#include <stddef.h>

#include "format/gitbook_layout.h"
#include "git/net.h"
#include "util/arena.h"

struct gitrepo;

/* Open (creating it when new) the mirror for key under dir (created when
 * missing), and take its lock. dir is the organization's mirror directory
 * (gitrepo_dir). */
int gitrepo_open(struct gitrepo **out, const char *dir, const char *key);
/* Release the lock and free; accepts NULL. */
void gitrepo_close(struct gitrepo *r);

/* The directory of an organization's mirrors: <data_dir>/git/<org id> (the id
 * hashed when it is not a plain [A-Za-z0-9_-] name). In a; NULL when the
 * hash fails. */
const char *gitrepo_dir(struct arena *a, const char *data_dir, const char *org_id);

/* The mirror's key for a sync: 32 hex characters of SHA-256 of the
 * organization id, the URL (without credentials: the caller's url never has
 * them) and the cache id (NULL or "" when not given), each length-prefixed so
 * that no two triples hash the same text. In a; NULL when the hash fails. */
const char *gitrepo_key(struct arena *a, const char *org_id, const char *url, const char *cache_id);

/*
 * Bring ref (refs/heads/<branch>) of url into the mirror: *oid (41 bytes)
 * gets the commit it points at, or *missing is set when the remote has no
 * such branch. Nothing is downloaded when the commit is one the remote served
 * this mirror before (reachable from refs/docsd/heads/: a re-sync of an
 * unchanged branch costs one ref advertisement). A commit the mirror holds
 * otherwise (an export whose push failed) is downloaded again into a scratch
 * repository, to learn that the remote really has it, before it is read.
 */
int gitrepo_fetch(struct gitrepo *r, const char *url, const char *ref, struct gitnet *net, char oid[41],
		  bool *missing);

/* Whether the mirror has the object oid (hex). */
bool gitrepo_has(struct gitrepo *r, const char *oid);

/* A commit's message (in a). */
int gitrepo_commit_message(struct gitrepo *r, struct arena *a, const char *oid, const char **message);

/*
 * The blobs of commit oid's tree under dir (NULL: the root), paths relative
 * to dir, in a. data is NULL: read them with gitrepo_blob (the layout loads
 * what it needs). Symbolic links and submodules are left out. *dir_missing is
 * set when the commit has no such directory (then *n = 0).
 */
int gitrepo_files(struct gitrepo *r, struct arena *a, const char *oid, const char *dir, struct git_file **out,
		  int *n, bool *dir_missing);
/* The bytes of a blob (copied into a). ERR_INVALID past max_len. */
int gitrepo_blob(struct gitrepo *r, struct arena *a, const char *oid, size_t max_len, const unsigned char **data,
		 size_t *len);
/* The blob at path (relative to the root) of commit oid: 0 with *data, or
 * ERR_NOT_FOUND. */
int gitrepo_blob_at(struct gitrepo *r, struct arena *a, const char *oid, const char *path, size_t max_len,
		    const unsigned char **data, size_t *len);

struct gitrepo_author {
	const char *name, *email;
};

/*
 * A commit on top of base (a commit oid, or NULL for the first commit of the
 * branch) whose tree is base's with writes and deletes applied under dir
 * (NULL: the root). writes[i].oid set: that blob, which must exist; else the
 * bytes. Deleting a path base does not have is no error. *unchanged when the
 * tree comes out identical to base's (then no commit is made and *out is
 * base). blob_oids (may be NULL) gets each write's blob oid, in a.
 */
int gitrepo_commit(struct gitrepo *r, struct arena *a, const char *base, const char *dir,
		   const struct layout_write *writes, int nwrites, const char *const *deletes, int ndeletes,
		   const struct gitrepo_author *author, const char *message, char out[41], bool *unchanged,
		   const char ***blob_oids);

/* Push commit oid to ref of url: only as a fast-forward of what the remote
 * has, unless force. */
int gitrepo_push(struct gitrepo *r, const char *url, const char *ref, const char *oid, bool force,
		 struct gitnet *net);

#endif
