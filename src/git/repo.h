/*
 * repo.h - the local mirror of a remote repository, and what Git sync reads
 * from and writes to it (libgit2).
 *
 * A mirror is a bare repository under <data>/git/<key>.git, where key is a
 * hash of the request's repoCacheID (so spaces that name the same cache share
 * one mirror across operations) or of the remote URL when none is given. An
 * operation holds the mirror's lock (flock on <key>.lock: exclusive between
 * threads and processes on this machine) from open to close, so fetches,
 * commits and pushes of one mirror take turns. Objects are only ever added:
 * a fetch brings what is missing, an export writes blobs, trees and a
 * commit; refs under refs/docsd/ keep what was fetched and made reachable.
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

#include "core/gitbook_layout.h"
#include "git/net.h"
#include "util/arena.h"

struct gitrepo;

/* Open (creating it when new) the mirror for key under dir (created when
 * missing), and take its lock. */
int gitrepo_open(struct gitrepo **out, const char *dir, const char *key);
/* Release the lock and free; accepts NULL. */
void gitrepo_close(struct gitrepo *r);

/* The mirror's key for a sync: 32 hex characters of SHA-256 of the cache id,
 * or of the URL (without credentials) when there is none. In a. */
const char *gitrepo_key(struct arena *a, const char *cache_id, const char *url);

/*
 * Bring ref (refs/heads/<branch>) of url into the mirror: *oid (41 bytes)
 * gets the commit it points at, or *missing is set when the remote has no
 * such branch. Nothing is downloaded when the mirror already has that commit
 * (a re-sync of an unchanged branch costs one ref advertisement).
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
