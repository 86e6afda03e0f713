/*
 * repo.c - a remote's local mirror through libgit2 (repo.h).
 *
 * Refs the mirror keeps (all under refs/docsd/, never shown to anyone):
 *   refs/docsd/heads/<branch>  the last commit fetched from or pushed to a branch:
 *                              what the remote served (or accepted), with history
 *   refs/docsd/push            the commit a push is sending (libgit2 pushes refs)
 * A mirror is one organization's copy of one remote (repo.h): the objects it
 * holds came from that remote, or from that organization's exports to it.
 * Every libgit2 failure is turned into an err.h code once, here, with the
 * remote's reason (gitnet.error) preferred over libgit2's message.
 */
#include "git/repo.h"
#include "util/alloc.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* A repository with more entries than this is not a documentation tree. */
#define MAX_TREE_ENTRIES 500000

struct gitrepo {
	git_repository *repo;
	int lock_fd;
	char *scratch; /* "<dir>/<key>.verify-XXXXXX": mkdtemp's template for gitrepo_fetch */
};

/* libgit2's last message (never holds credentials: they are not in any URL
 * libgit2 sees). */
static const char *git_reason(void)
{
	const git_error *e = git_error_last();

	return e && e->message ? e->message : "unknown error";
}

static int local_fail(const char *what)
{
	return err_set(ERR_INTERNAL, "git mirror: %s: %s", what, git_reason());
}

/* A failure talking to the remote: the transport's reason when it gave one. */
static int remote_fail(const struct gitnet *net, int gerr)
{
	if (net && net->error[0])
		return err_set(net->transient ? ERR_UNAVAILABLE : ERR_INVALID, "%s", net->error);
	if (gerr == GIT_EAUTH)
		return err_set(ERR_INVALID, "url: authentication failed");
	return err_set(ERR_INVALID, "url: %s", git_reason());
}

static int mkdir_p(const char *dir)
{
	char buf[4096];
	size_t n = strlen(dir);

	if (n >= sizeof(buf))
		return err_set(ERR_INTERNAL, "git mirror: path too long");
	memcpy(buf, dir, n + 1);
	for (size_t i = 1; i <= n; i++)
		if (buf[i] == '/' || buf[i] == '\0') {
			char c = buf[i];
			buf[i] = '\0';
			if (mkdir(buf, 0700) != 0 && errno != EEXIST)
				return err_set(ERR_INTERNAL, "git mirror: cannot create %s: %s", buf, strerror(errno));
			buf[i] = c;
		}
	return 0;
}

/* An organization id as one path component: ids are [A-Za-z0-9] today, but a
 * path must never follow a name that has a '/' or is "..". */
static bool plain_name(const char *s)
{
	if (!s || !*s || strlen(s) > 64)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_' ||
		      *s == '-'))
			return false;
	return true;
}

const char *gitrepo_dir(struct arena *a, const char *data_dir, const char *org_id)
{
	char hex[65];

	if (plain_name(org_id))
		return arena_printf(a, "%s/git/%s", data_dir, org_id);
	if (sha256_hex(hex, org_id ? org_id : "", org_id ? strlen(org_id) : 0))
		return NULL;
	return arena_printf(a, "%s/git/h-%.32s", data_dir, hex);
}

const char *gitrepo_key(struct arena *a, const char *org_id, const char *url, const char *cache_id)
{
	char hex[65];
	const char *src;

	if (!org_id)
		org_id = "";
	if (!cache_id)
		cache_id = "";
	/* Length-prefixed: ("a", "b:c") and ("a:b", "c") are different texts. */
	src = arena_printf(a, "org %zu:%s url %zu:%s cache %zu:%s", strlen(org_id), org_id, strlen(url), url,
			   strlen(cache_id), cache_id);
	if (sha256_hex(hex, src, strlen(src)))
		return NULL;
	return arena_strndup(a, hex, 32);
}

/* nftw callback: remove a libgit2 lock file ("<name>.lock": refs, packed-refs,
 * config, HEAD). Never follows links (FTW_PHYS). */
static int rm_lock_file(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	size_t n = strlen(path);

	(void)ftw;
	if (flag == FTW_F && S_ISREG(st->st_mode) && n > 5 && strcmp(path + n - 5, ".lock") == 0) {
		if (unlink(path) != 0)
			log_error("git mirror: cannot remove the stale lock %s: %s", path, strerror(errno));
		else
			log_info("git mirror: removed the stale lock %s (a process died while writing)", path);
	}
	return 0;
}

/*
 * Lock files left by a process that died inside libgit2 (kill -9, a crash, a
 * power cut while a ref was being written). libgit2 creates "<ref>.lock" with
 * O_EXCL and renames it over the ref; a process killed between the two leaves
 * it, and every later write of that ref fails with "file exists" - every
 * later import or export of the remote, retried until it failed for good
 * (found by tests/api/crash-safety.test.mjs). The caller holds the mirror's
 * flock, which every writer of the mirror takes first (only gitrepo_open
 * opens a mirror), and the kernel drops a dead process's flock: any lock file
 * present now belongs to nobody.
 */
static void clear_stale_locks(const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return; /* a new mirror: nothing to clear */
	if (nftw(path, rm_lock_file, 16, FTW_PHYS) != 0)
		log_error("git mirror: cannot walk %s for stale locks: %s", path, strerror(errno));
}

int gitrepo_open(struct gitrepo **out, const char *dir, const char *key)
{
	struct gitrepo *r;
	char path[4096], lock[4096];
	size_t scratch_len = strlen(dir) + strlen(key) + sizeof("/.verify-XXXXXX");
	int rc;

	*out = NULL;
	if ((rc = gitnet_global_init()) || (rc = mkdir_p(dir)))
		return rc;
	if (snprintf(path, sizeof(path), "%s/%s.git", dir, key) >= (int)sizeof(path) ||
	    snprintf(lock, sizeof(lock), "%s/%s.lock", dir, key) >= (int)sizeof(lock))
		return err_set(ERR_INTERNAL, "git mirror: path too long");
	r = xcalloc(1, sizeof(*r));
	r->scratch = xmalloc(scratch_len);
	snprintf(r->scratch, scratch_len, "%s/%s.verify-XXXXXX", dir, key);
	r->lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (r->lock_fd < 0) {
		rc = err_set(ERR_INTERNAL, "git mirror: cannot open %s: %s", lock, strerror(errno));
		gitrepo_close(r);
		return rc;
	}
	while (flock(r->lock_fd, LOCK_EX) != 0)
		if (errno != EINTR) {
			rc = err_set(ERR_INTERNAL, "git mirror: cannot lock %s: %s", lock, strerror(errno));
			gitrepo_close(r);
			return rc;
		}
	clear_stale_locks(path);
	if (git_repository_open_bare(&r->repo, path) < 0 && git_repository_init(&r->repo, path, 1) < 0) {
		rc = local_fail("cannot open or create the mirror");
		gitrepo_close(r);
		return rc;
	}
	*out = r;
	return 0;
}

void gitrepo_close(struct gitrepo *r)
{
	if (!r)
		return;
	git_repository_free(r->repo);
	if (r->lock_fd >= 0)
		close(r->lock_fd); /* releases the flock */
	free(r->scratch);
	free(r);
}

static void set_callbacks(git_remote_callbacks *cb, struct gitnet *net)
{
	cb->transport = gitnet_transport;
	cb->payload = net;
}

static int parse_oid(git_oid *o, const char *hex)
{
	if (!hex || strlen(hex) != GIT_OID_HEXSZ || git_oid_fromstr(o, hex) < 0)
		return err_set(ERR_INTERNAL, "git mirror: malformed object id");
	return 0;
}

/*
 * Whether commit want is one the remote served this mirror: a tip of
 * refs/docsd/heads/ or reachable from one (a fetch brings a commit with its
 * history, a push is accepted only when the remote can connect it). 1 yes,
 * 0 no, or an ERR_* code.
 */
static int served(struct gitrepo *r, const git_oid *want)
{
	git_reference_iterator *it = NULL;
	git_reference *ref = NULL;
	git_oid *tips = NULL;
	size_t n = 0, cap = 0;
	int gerr, rc = 0;

	if (git_reference_iterator_glob_new(&it, r->repo, "refs/docsd/heads/*") < 0)
		return local_fail("cannot list the mirror's refs");
	while ((gerr = git_reference_next(&ref, it)) == 0) {
		const git_oid *o = git_reference_type(ref) == GIT_REFERENCE_DIRECT ? git_reference_target(ref) : NULL;
		if (o && git_oid_equal(o, want)) {
			git_reference_free(ref);
			rc = 1;
			goto cleanup;
		}
		if (o && n == cap) {
			tips = xrealloc(tips, sizeof(*tips) * (cap = cap ? cap * 2 : 8));
		}
		if (o)
			git_oid_cpy(&tips[n++], o);
		git_reference_free(ref);
	}
	if (gerr != GIT_ITEROVER) {
		rc = local_fail("cannot list the mirror's refs");
		goto cleanup;
	}
	if (n) {
		gerr = git_graph_reachable_from_any(r->repo, want, tips, n);
		rc = gerr < 0 ? local_fail("cannot walk the mirror's history") : gerr > 0;
	}
cleanup:
	free(tips);
	git_reference_iterator_free(it);
	return rc;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	if (remove(path) != 0)
		log_error("git mirror: cannot remove %s: %s", path, strerror(errno));
	return 0;
}

/*
 * The mirror holds commit want, but not as something the remote served it
 * (an export whose push was refused, or a tip the remote's history has since
 * dropped): download it again into an empty scratch repository, so that the
 * remote must send it whole, and only then let the mirror's copy be read.
 * The scratch repository is removed whatever happens.
 */
static int verify_remote(struct gitrepo *r, const char *url, git_strarray *refspecs, struct gitnet *net,
			 const git_oid *want, const char *hex)
{
	git_repository *scratch = NULL;
	git_remote *remote = NULL;
	git_fetch_options fo;
	git_odb *odb = NULL;
	char *dir = xstrdup(r->scratch);
	int gerr, rc = 0;

	if (!mkdtemp(dir)) {
		rc = err_set(ERR_INTERNAL, "git mirror: cannot create %s: %s", dir, strerror(errno));
		free(dir);
		return rc;
	}
	if (git_fetch_options_init(&fo, GIT_FETCH_OPTIONS_VERSION) < 0 || git_repository_init(&scratch, dir, 1) < 0) {
		rc = local_fail("cannot create a scratch repository");
		goto cleanup;
	}
	if (git_remote_create_anonymous(&remote, scratch, url) < 0) {
		rc = err_set(ERR_INVALID, "url: %s", git_reason());
		goto cleanup;
	}
	set_callbacks(&fo.callbacks, net);
	fo.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE;
	fo.update_fetchhead = 0;
	if ((gerr = git_remote_fetch(remote, refspecs, &fo, NULL)) < 0) {
		rc = remote_fail(net, gerr);
		goto cleanup;
	}
	if (git_repository_odb(&odb, scratch) < 0) {
		rc = local_fail("cannot open the scratch object database");
		goto cleanup;
	}
	if (!git_odb_exists(odb, want))
		rc = err_set(ERR_INVALID, "url: the remote did not send %s", hex);
cleanup:
	git_odb_free(odb);
	git_remote_free(remote);
	git_repository_free(scratch);
	if (nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
		log_error("git mirror: cannot remove %s: %s", dir, strerror(errno));
	free(dir);
	return rc;
}

int gitrepo_fetch(struct gitrepo *r, const char *url, const char *ref, struct gitnet *net, char oid[41],
		  bool *missing)
{
	git_remote *remote = NULL;
	git_remote_connect_options co;
	git_fetch_options fo;
	const git_remote_head **heads = NULL;
	size_t nheads = 0;
	const git_oid *want = NULL;
	git_odb *odb = NULL;
	git_reference *local = NULL;
	char spec[GIT_OID_HEXSZ + 600], tracking[600];
	char *specs[1] = { spec };
	git_strarray refspecs = { specs, 1 };
	int gerr, rc = 0;

	*missing = false;
	oid[0] = '\0';
	if (git_remote_connect_options_init(&co, GIT_REMOTE_CONNECT_OPTIONS_VERSION) < 0 ||
	    git_fetch_options_init(&fo, GIT_FETCH_OPTIONS_VERSION) < 0)
		return local_fail("cannot set up the fetch");
	if (snprintf(tracking, sizeof(tracking), "refs/docsd/heads/%s", ref + strlen("refs/heads/")) >=
		    (int)sizeof(tracking) ||
	    snprintf(spec, sizeof(spec), "+%s:%s", ref, tracking) >= (int)sizeof(spec))
		return err_set(ERR_INVALID, "ref: too long");
	if (git_remote_create_anonymous(&remote, r->repo, url) < 0) {
		rc = err_set(ERR_INVALID, "url: %s", git_reason());
		goto cleanup;
	}
	set_callbacks(&co.callbacks, net);
	if ((gerr = git_remote_connect_ext(remote, GIT_DIRECTION_FETCH, &co)) < 0) {
		rc = remote_fail(net, gerr);
		goto cleanup;
	}
	if ((gerr = git_remote_ls(&heads, &nheads, remote)) < 0) {
		rc = remote_fail(net, gerr);
		goto cleanup;
	}
	for (size_t i = 0; i < nheads && !want; i++)
		if (strcmp(heads[i]->name, ref) == 0)
			want = &heads[i]->oid;
	if (!want) {
		*missing = true;
		goto cleanup;
	}
	git_oid_tostr(oid, GIT_OID_HEXSZ + 1, want);
	if (git_repository_odb(&odb, r->repo) < 0) {
		rc = local_fail("cannot open the object database");
		goto cleanup;
	}
	/* The remote served this commit before: nothing to download. The mirror
	 * may hold it otherwise (an export this remote refused): then the remote
	 * must prove it has the commit by sending it again. An advertised id
	 * alone never reads the mirror. */
	if (git_odb_exists(odb, want)) {
		int sv = served(r, want);
		if (sv < 0 || (sv == 0 && (sv = verify_remote(r, url, &refspecs, net, want, oid)) != 0)) {
			rc = sv;
			goto cleanup;
		}
	} else {
		set_callbacks(&fo.callbacks, net);
		fo.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE;
		fo.update_fetchhead = 0;
		if ((gerr = git_remote_download(remote, &refspecs, &fo)) < 0) {
			rc = remote_fail(net, gerr);
			goto cleanup;
		}
		if (!git_odb_exists(odb, want)) {
			rc = err_set(ERR_INVALID, "url: the remote did not send %s", oid);
			goto cleanup;
		}
	}
	if (git_reference_create(&local, r->repo, tracking, want, 1, "docsd fetch") < 0)
		rc = local_fail("cannot record the fetched commit");
cleanup:
	git_reference_free(local);
	git_odb_free(odb);
	if (remote) {
		git_remote_disconnect(remote);
		git_remote_free(remote);
	}
	return rc;
}

bool gitrepo_has(struct gitrepo *r, const char *oid)
{
	git_odb *odb = NULL;
	git_oid o;
	bool has;

	if (!oid || strlen(oid) != GIT_OID_HEXSZ || git_oid_fromstr(&o, oid) < 0 || git_repository_odb(&odb, r->repo) < 0)
		return false;
	has = git_odb_exists(odb, &o) == 1;
	git_odb_free(odb);
	return has;
}

int gitrepo_commit_message(struct gitrepo *r, struct arena *a, const char *oid, const char **message)
{
	git_oid o;
	git_commit *c = NULL;
	int rc;

	if ((rc = parse_oid(&o, oid)))
		return rc;
	if (git_commit_lookup(&c, r->repo, &o) < 0)
		return local_fail("cannot read the commit");
	*message = arena_strdup(a, git_commit_message(c) ? git_commit_message(c) : "");
	git_commit_free(c);
	return 0;
}

/* The tree of commit hex. */
static int commit_tree(struct gitrepo *r, const char *hex, git_tree **tree)
{
	git_oid o;
	git_commit *c = NULL;
	int rc;

	*tree = NULL;
	if ((rc = parse_oid(&o, hex)))
		return rc;
	if (git_commit_lookup(&c, r->repo, &o) < 0)
		return local_fail("cannot read the commit");
	rc = git_commit_tree(tree, c) < 0 ? local_fail("cannot read the commit's tree") : 0;
	git_commit_free(c);
	return rc;
}

struct walk {
	struct git_file *files;
	int n, cap;
	int failed; /* an ERR_* code */
};

static int on_entry(const char *root, const git_tree_entry *e, void *payload)
{
	struct walk *w = payload;
	git_filemode_t mode = git_tree_entry_filemode(e);
	char hex[GIT_OID_HEXSZ + 1];
	size_t rl = strlen(root), nl;
	const char *name = git_tree_entry_name(e);
	char *path;

	if (git_tree_entry_type(e) != GIT_OBJECT_BLOB || mode == GIT_FILEMODE_LINK)
		return 0; /* trees are walked into; links and submodules are left out */
	if (w->n == w->cap) {
		int cap = w->cap ? w->cap * 2 : 256;
		if (w->n >= MAX_TREE_ENTRIES) {
			w->failed = err_set(ERR_INVALID, "the repository has more than %d files", MAX_TREE_ENTRIES);
			return -1;
		}
		w->files = xrealloc(w->files, sizeof(*w->files) * (size_t)cap);
		w->cap = cap;
	}
	nl = strlen(name);
	path = xmalloc(rl + nl + 1);
	memcpy(path, root, rl);
	memcpy(path + rl, name, nl + 1);
	git_oid_tostr(hex, sizeof(hex), git_tree_entry_id(e));
	w->files[w->n].path = path;
	w->files[w->n].oid = xstrdup(hex);
	w->files[w->n].data = NULL;
	w->files[w->n].len = 0;
	w->n++;
	return 0;
}

int gitrepo_files(struct gitrepo *r, struct arena *a, const char *oid, const char *dir, struct git_file **out,
		  int *n, bool *dir_missing)
{
	git_tree *tree = NULL, *sub = NULL;
	git_tree_entry *e = NULL;
	struct walk w = { 0 };
	int rc;

	*out = NULL;
	*n = 0;
	*dir_missing = false;
	if ((rc = commit_tree(r, oid, &tree)))
		return rc;
	if (dir) {
		if (git_tree_entry_bypath(&e, tree, dir) < 0 || git_tree_entry_type(e) != GIT_OBJECT_TREE) {
			*dir_missing = true;
			goto cleanup;
		}
		if (git_tree_lookup(&sub, r->repo, git_tree_entry_id(e)) < 0) {
			rc = local_fail("cannot read the project directory");
			goto cleanup;
		}
	}
	if (git_tree_walk(sub ? sub : tree, GIT_TREEWALK_PRE, on_entry, &w) < 0) {
		rc = w.failed ? w.failed : local_fail("cannot read the tree");
		goto cleanup;
	}
	/* Into the arena: the caller's data outlives the mirror. */
	*out = arena_alloc(a, sizeof(**out) * (size_t)(w.n ? w.n : 1));
	for (int i = 0; i < w.n; i++) {
		(*out)[i] = w.files[i];
		(*out)[i].path = arena_strdup(a, w.files[i].path);
		(*out)[i].oid = arena_strdup(a, w.files[i].oid);
	}
	*n = w.n;
cleanup:
	for (int i = 0; i < w.n; i++) {
		free((char *)w.files[i].path);
		free((char *)w.files[i].oid);
	}
	free(w.files);
	git_tree_entry_free(e);
	git_tree_free(sub);
	git_tree_free(tree);
	return rc;
}

static int read_blob(struct gitrepo *r, struct arena *a, const git_oid *o, const char *what, size_t max_len,
		     const unsigned char **data, size_t *len)
{
	git_blob *b = NULL;
	git_object_size_t size;
	unsigned char *copy;

	if (git_blob_lookup(&b, r->repo, o) < 0)
		return local_fail("cannot read a file");
	size = git_blob_rawsize(b);
	if (size > (git_object_size_t)max_len) {
		git_blob_free(b);
		return err_set(ERR_INVALID, "'%s' is larger than %zu bytes", what, max_len);
	}
	copy = arena_alloc(a, (size_t)size + 1);
	memcpy(copy, git_blob_rawcontent(b), (size_t)size);
	copy[size] = '\0';
	git_blob_free(b);
	*data = copy;
	*len = (size_t)size;
	return 0;
}

int gitrepo_blob(struct gitrepo *r, struct arena *a, const char *oid, size_t max_len, const unsigned char **data,
		 size_t *len)
{
	git_oid o;
	int rc = parse_oid(&o, oid);

	return rc ? rc : read_blob(r, a, &o, oid, max_len, data, len);
}

int gitrepo_blob_at(struct gitrepo *r, struct arena *a, const char *oid, const char *path, size_t max_len,
		    const unsigned char **data, size_t *len)
{
	git_tree *tree = NULL;
	git_tree_entry *e = NULL;
	int rc;

	if ((rc = commit_tree(r, oid, &tree)))
		return rc;
	if (git_tree_entry_bypath(&e, tree, path) < 0 || git_tree_entry_type(e) != GIT_OBJECT_BLOB)
		rc = ERR_NOT_FOUND;
	else
		rc = read_blob(r, a, git_tree_entry_id(e), path, max_len, data, len);
	git_tree_entry_free(e);
	git_tree_free(tree);
	return rc;
}

/* A name or email fit for a signature: no '<', '>' or line breaks. */
static char *sig_part(struct arena *a, const char *s, const char *fallback)
{
	char *o, *p;

	if (!s || !*s)
		s = fallback;
	o = arena_strdup(a, s);
	for (p = o; *p; p++)
		if (*p == '<' || *p == '>' || *p == '\n' || *p == '\r')
			*p = ' ';
	return o;
}

static const char *join_path(struct arena *a, const char *dir, const char *path)
{
	return dir ? arena_printf(a, "%s/%s", dir, path) : path;
}

int gitrepo_commit(struct gitrepo *r, struct arena *a, const char *base, const char *dir,
		   const struct layout_write *writes, int nwrites, const char *const *deletes, int ndeletes,
		   const struct gitrepo_author *author, const char *message, char out[41], bool *unchanged,
		   const char ***blob_oids)
{
	git_tree *base_tree = NULL, *tree = NULL;
	git_treebuilder *tb = NULL;
	git_commit *parent = NULL;
	git_signature *sig = NULL;
	git_odb *odb = NULL;
	git_tree_update *up = NULL;
	git_oid tree_oid, commit_oid, base_oid;
	const char **oids = NULL;
	size_t nup = 0;
	int rc = 0;

	*unchanged = false;
	out[0] = '\0';
	if (git_repository_odb(&odb, r->repo) < 0)
		return local_fail("cannot open the object database");
	if (base) {
		if ((rc = parse_oid(&base_oid, base)))
			goto cleanup;
		if (git_commit_lookup(&parent, r->repo, &base_oid) < 0 || git_commit_tree(&base_tree, parent) < 0) {
			rc = local_fail("cannot read the base commit");
			goto cleanup;
		}
	} else {
		/* A new branch starts from the empty tree. */
		git_oid empty;
		if (git_treebuilder_new(&tb, r->repo, NULL) < 0 || git_treebuilder_write(&empty, tb) < 0 ||
		    git_tree_lookup(&base_tree, r->repo, &empty) < 0) {
			rc = local_fail("cannot make the empty tree");
			goto cleanup;
		}
	}
	up = xcalloc((size_t)nwrites + (size_t)ndeletes + 1, sizeof(*up));
	oids = arena_alloc(a, sizeof(*oids) * (size_t)(nwrites + 1));
	for (int i = 0; i < nwrites; i++) {
		const struct layout_write *w = &writes[i];
		char hex[GIT_OID_HEXSZ + 1];
		git_tree_update *u = &up[nup++];

		u->action = GIT_TREE_UPDATE_UPSERT;
		u->filemode = GIT_FILEMODE_BLOB;
		u->path = join_path(a, dir, w->path);
		if (w->oid) {
			if ((rc = parse_oid(&u->id, w->oid)))
				goto cleanup;
			if (!git_odb_exists(odb, &u->id)) {
				rc = err_set(ERR_INTERNAL, "git mirror: blob %s of '%s' is missing", w->oid, w->path);
				goto cleanup;
			}
		} else if (git_blob_create_from_buffer(&u->id, r->repo, w->data, w->len) < 0) {
			rc = local_fail("cannot write a file");
			goto cleanup;
		}
		git_oid_tostr(hex, sizeof(hex), &u->id);
		oids[i] = arena_strdup(a, hex);
	}
	for (int i = 0; i < ndeletes; i++) {
		git_tree_entry *e = NULL;
		const char *p = join_path(a, dir, deletes[i]);
		/* only what is there: libgit2 fails on the removal of a missing path */
		if (git_tree_entry_bypath(&e, base_tree, p) == 0) {
			if (git_tree_entry_type(e) == GIT_OBJECT_BLOB) {
				up[nup].action = GIT_TREE_UPDATE_REMOVE;
				up[nup].path = p;
				up[nup].filemode = GIT_FILEMODE_BLOB;
				nup++;
			}
			git_tree_entry_free(e);
		}
	}
	if (git_tree_create_updated(&tree_oid, r->repo, base_tree, nup, up) < 0) {
		rc = err_set(ERR_INVALID, "cannot write the export's tree: %s", git_reason());
		goto cleanup;
	}
	if (blob_oids)
		*blob_oids = oids;
	if (base && git_oid_equal(&tree_oid, git_tree_id(base_tree))) {
		*unchanged = true;
		git_oid_tostr(out, GIT_OID_HEXSZ + 1, &base_oid);
		goto cleanup;
	}
	{
		const char *name = sig_part(a, author ? author->name : NULL, "docsd");
		const char *email = sig_part(a, author ? author->email : NULL, "docsd@localhost");
		const git_commit *parents[1] = { parent };
		if (git_signature_now(&sig, name, email) < 0 || git_tree_lookup(&tree, r->repo, &tree_oid) < 0 ||
		    git_commit_create(&commit_oid, r->repo, NULL, sig, sig, NULL, message, tree, parent ? 1 : 0,
				      parents) < 0) {
			rc = local_fail("cannot write the commit");
			goto cleanup;
		}
	}
	git_oid_tostr(out, GIT_OID_HEXSZ + 1, &commit_oid);
cleanup:
	free(up);
	git_signature_free(sig);
	git_tree_free(tree);
	git_tree_free(base_tree);
	git_treebuilder_free(tb);
	git_commit_free(parent);
	git_odb_free(odb);
	return rc;
}

/* The remote's verdict on each ref: a non-NULL status is a refusal. */
static int on_push_update(const char *refname, const char *status, void *data)
{
	struct gitnet *net = data;

	(void)refname;
	if (status && !net->error[0])
		snprintf(net->error, sizeof(net->error), "ref: the remote refused the update (%s)", status);
	return 0;
}

int gitrepo_push(struct gitrepo *r, const char *url, const char *ref, const char *oid, bool force,
		 struct gitnet *net)
{
	git_remote *remote = NULL;
	git_push_options po;
	git_reference *src = NULL, *track = NULL;
	char spec[700], tracking[600];
	char *specs[1] = { spec };
	git_strarray refspecs = { specs, 1 };
	git_oid o;
	int gerr, rc;

	if ((rc = parse_oid(&o, oid)))
		return rc;
	if (git_push_options_init(&po, GIT_PUSH_OPTIONS_VERSION) < 0)
		return local_fail("cannot set up the push");
	if (snprintf(spec, sizeof(spec), "%srefs/docsd/push:%s", force ? "+" : "", ref) >= (int)sizeof(spec) ||
	    snprintf(tracking, sizeof(tracking), "refs/docsd/heads/%s", ref + strlen("refs/heads/")) >=
		    (int)sizeof(tracking))
		return err_set(ERR_INVALID, "ref: too long");
	if (git_reference_create(&src, r->repo, "refs/docsd/push", &o, 1, "docsd push") < 0)
		return local_fail("cannot name the commit to push");
	if (git_remote_create_anonymous(&remote, r->repo, url) < 0) {
		rc = err_set(ERR_INVALID, "url: %s", git_reason());
		goto cleanup;
	}
	set_callbacks(&po.callbacks, net);
	po.callbacks.push_update_reference = on_push_update;
	gerr = git_remote_push(remote, &refspecs, &po);
	if (gerr == GIT_ENONFASTFORWARD) {
		rc = err_set(ERR_INVALID, "ref: %s has commits this export is not built on (not a fast-forward): import "
					  "them first, or export with force",
			     ref);
		goto cleanup;
	}
	if (gerr < 0) {
		rc = remote_fail(net, gerr);
		goto cleanup;
	}
	if (net->error[0]) {
		rc = err_set(ERR_INVALID, "%s", net->error);
		goto cleanup;
	}
	if (git_reference_create(&track, r->repo, tracking, &o, 1, "docsd push") < 0)
		rc = local_fail("cannot record the pushed commit");
cleanup:
	git_reference_free(track);
	git_reference_free(src);
	if (remote) {
		git_remote_disconnect(remote);
		git_remote_free(remote);
	}
	return rc;
}
