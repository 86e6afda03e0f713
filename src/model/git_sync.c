/*
 * git_sync.c - the checks of what a Git sync request names (git_sync.h).
 */
#include "model/git_sync.h"
#include "util/err.h"
#include "util/text.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

const char *const gs_stage_names[GS_STAGES] = { "repo_fetch", "config_check", "content_process", "finalize" };

/* Percent-decode n bytes of s (userinfo parts); NULL when malformed or when
 * the result would hold a NUL or a control character. */
static char *userinfo_decode(struct arena *a, const char *s, size_t n)
{
	char *out = arena_alloc(a, n + 1);
	long k;

	if ((k = pct_decode(out, s, n, PCT_STRICT)) < 0)
		return NULL;
	for (long i = 0; i < k; i++)
		if ((unsigned char)out[i] < 0x20 || out[i] == 0x7f)
			return NULL;
	return out;
}

/* The repository's name: the path's last segments without ".git". */
static const char *repo_name(struct arena *a, const char *path, enum gs_scheme scheme)
{
	size_t n = strlen(path);
	const char *start;

	while (n > 0 && path[n - 1] == '/')
		n--;
	if (n >= 4 && strncmp(path + n - 4, ".git", 4) == 0)
		n -= 4;
	while (n > 0 && path[n - 1] == '/')
		n--;
	start = path;
	if (scheme == GS_SCHEME_FILE) {
		/* the directory's own name */
		for (size_t i = 0; i < n; i++)
			if (path[i] == '/')
				start = path + i + 1;
	} else {
		/* "owner/repo" as hosts show it: the path without its leading '/' */
		while (start < path + n && *start == '/')
			start++;
	}
	if (start >= path + n)
		return "repository";
	return arena_strndup(a, start, (size_t)(path + n - start));
}

int gs_remote_parse(struct arena *a, const char *in, bool allow_file, struct gs_remote *out)
{
	const char *rest, *auth_end, *host, *path, *at = NULL;
	size_t len;

	memset(out, 0, sizeof(*out));
	if (!in || !*in)
		return err_set(ERR_INVALID, "url: required");
	len = strlen(in);
	if (len > GS_MAX_URL)
		return err_set(ERR_INVALID, "url: longer than %d characters", GS_MAX_URL);
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)in[i] <= 0x20 || in[i] == 0x7f)
			return err_set(ERR_INVALID, "url: must not contain spaces or control characters");
	if (strncasecmp(in, "https://", 8) == 0) {
		out->scheme = GS_SCHEME_HTTPS;
		rest = in + 8;
	} else if (strncasecmp(in, "http://", 7) == 0) {
		out->scheme = GS_SCHEME_HTTP;
		rest = in + 7;
	} else if (strncasecmp(in, "file://", 7) == 0) {
		if (!allow_file)
			return err_set(ERR_INVALID, "url: file:// remotes read the server's own disk and are accepted "
						    "only with --allow-private-network");
		out->scheme = GS_SCHEME_FILE;
		rest = in + 7;
		if (*rest != '/')
			return err_set(ERR_INVALID, "url: a file:// remote needs an absolute path (file:///path/to/repo.git)");
		if (strstr(rest, "/../") || (strlen(rest) >= 3 && strcmp(rest + strlen(rest) - 3, "/..") == 0))
			return err_set(ERR_INVALID, "url: the path must not contain '..'");
		out->url = arena_strdup(a, in);
		out->repo_name = repo_name(a, rest, out->scheme);
		return 0;
	} else
		return err_set(ERR_INVALID, "url: only http and https Git remotes are supported (ssh and git:// are not)");
	/* authority: [userinfo@]host[:port], up to the first '/', '?' or '#' */
	auth_end = rest + strcspn(rest, "/?#");
	for (const char *p = rest; p < auth_end; p++)
		if (*p == '@')
			at = p; /* the last '@': a password may not hold a raw one, but be lenient */
	host = at ? at + 1 : rest;
	if (host >= auth_end || *host == ':')
		return err_set(ERR_INVALID, "url: has no host");
	if (strpbrk(auth_end, "?#"))
		return err_set(ERR_INVALID, "url: must not have a query or fragment");
	path = auth_end;
	if (at) {
		const char *colon = memchr(rest, ':', (size_t)(at - rest));
		out->user = userinfo_decode(a, rest, (size_t)((colon ? colon : at) - rest));
		out->password = colon ? userinfo_decode(a, colon + 1, (size_t)(at - colon - 1)) : NULL;
		if (!out->user || (colon && !out->password))
			return err_set(ERR_INVALID, "url: malformed credentials");
		if (!*out->user && (!out->password || !*out->password))
			out->user = out->password = NULL;
	}
	/* the URL without its userinfo */
	{
		size_t sl = (size_t)(rest - in), tl = strlen(host);
		char *u = arena_alloc(a, sl + tl + 1);
		memcpy(u, in, sl);
		memcpy(u + sl, host, tl + 1);
		out->url = u;
	}
	out->repo_name = repo_name(a, *path ? path : "/", out->scheme);
	return 0;
}

/* git check-ref-format's rules for one ref name. */
bool gs_ref_valid(const char *ref)
{
	const char *branch;
	size_t n;

	if (!ref || strncmp(ref, "refs/heads/", 11) != 0)
		return false;
	n = strlen(ref);
	branch = ref + 11;
	if (n > GS_MAX_REF || !*branch)
		return false;
	if (strstr(ref, "..") || strstr(ref, "@{") || strstr(ref, "//") || ref[n - 1] == '/' || ref[n - 1] == '.' ||
	    (n >= 5 && strcmp(ref + n - 5, ".lock") == 0) || strcmp(branch, "@") == 0)
		return false;
	for (const char *p = branch; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c < 0x20 || c == 0x7f || c == ' ' || c == '~' || c == '^' || c == ':' || c == '?' || c == '*' ||
		    c == '[' || c == '\\')
			return false;
		/* no component may start with '.' or end with ".lock" */
		if ((p == branch || p[-1] == '/') && c == '.')
			return false;
		if (c == '/' && p - branch >= 5 && strncmp(p - 5, ".lock", 5) == 0)
			return false;
	}
	return true;
}

int gs_project_dir(struct arena *a, const char *in, const char **out)
{
	size_t n;
	char *d;

	*out = NULL;
	if (!in)
		return 0;
	while (*in == '/')
		in++;
	n = strlen(in);
	while (n > 0 && in[n - 1] == '/')
		n--;
	if (n == 0)
		return 0;
	if (n > 1024)
		return err_set(ERR_INVALID, "repoProjectDirectory: longer than 1024 characters");
	d = arena_strndup(a, in, n);
	for (char *seg = d;;) {
		char *slash = strchr(seg, '/');
		size_t sl = slash ? (size_t)(slash - seg) : strlen(seg);
		if (sl == 0 || (sl == 1 && seg[0] == '.') || (sl == 2 && seg[0] == '.' && seg[1] == '.'))
			return err_set(ERR_INVALID, "repoProjectDirectory: must be a relative path without '.', '..' or "
						    "empty parts");
		for (size_t i = 0; i < sl; i++)
			if ((unsigned char)seg[i] < 0x20 || seg[i] == '\\' || seg[i] == 0x7f)
				return err_set(ERR_INVALID, "repoProjectDirectory: contains a control character or '\\'");
		if (!slash)
			break;
		seg = slash + 1;
	}
	*out = d;
	return 0;
}

static int digits(const char **p, int n, int *out)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (!isdigit((unsigned char)(*p)[i]))
			return -1;
		v = v * 10 + ((*p)[i] - '0');
	}
	*p += n;
	*out = v;
	return 0;
}

int gs_timestamp_parse(const char *s, int64_t *ms)
{
	int y, mo, d, h, mi, sec, frac = 0, fdig = 0, off = 0;
	struct tm tm = { 0 };
	int64_t t;

	if (!s || digits(&s, 4, &y) || *s++ != '-' || digits(&s, 2, &mo) || *s++ != '-' || digits(&s, 2, &d) ||
	    (*s != 'T' && *s != 't' && *s != ' '))
		return -1;
	s++;
	if (digits(&s, 2, &h) || *s++ != ':' || digits(&s, 2, &mi) || *s++ != ':' || digits(&s, 2, &sec))
		return -1;
	if (*s == '.') {
		s++;
		if (!isdigit((unsigned char)*s))
			return -1;
		while (isdigit((unsigned char)*s)) {
			if (fdig < 3) {
				frac = frac * 10 + (*s - '0');
				fdig++;
			}
			s++;
		}
		while (fdig < 3) {
			frac *= 10;
			fdig++;
		}
	}
	if (*s == 'Z' || *s == 'z')
		s++;
	else if (*s == '+' || *s == '-') {
		int sign = *s == '-' ? -1 : 1, oh, om;
		s++;
		if (digits(&s, 2, &oh) || *s++ != ':' || digits(&s, 2, &om) || oh > 23 || om > 59)
			return -1;
		off = sign * (oh * 60 + om);
	} else
		return -1;
	if (*s || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60)
		return -1;
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	t = (int64_t)timegm(&tm);
	*ms = (t - (int64_t)off * 60) * 1000 + frac;
	return 0;
}
