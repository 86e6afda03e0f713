/*
 * weburl.c - absolute http(s) URLs: resolve, normalize, split (weburl.h).
 *
 * libxml2's URI parser is strict RFC 3986: a space or a non-ASCII byte, which
 * pages and users write all the time, makes it fail. So every URL is cleaned
 * first (blanks around it and tabs or newlines inside dropped, as browsers
 * do) and its unsafe bytes percent-encoded; libxml2 then parses it raw (no
 * unescaping) and the normal form is assembled here from the parts.
 */
#include "format/weburl.h"
#include "util/text.h"

#include <libxml/uri.h>
#include <libxml/xmlmemory.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Bytes that may not stand bare in a URL. */
static bool unsafe_byte(unsigned char c)
{
	return c <= 0x20 || c >= 0x7f || (c && strchr("<>\"\\^`{|}", c));
}

/* s cleaned and escaped: blanks around it dropped, tabs and newlines inside
 * dropped, unsafe bytes, a '%' that starts no escape and every '#' after the
 * first percent-encoded. */
static char *clean(struct arena *a, const char *s)
{
	size_t n, i, k = 0;
	bool hash = false;
	char *out;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f')
		s++;
	n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == '\f'))
		n--;
	if (n > ((size_t)-1) / 3 - 1)
		return NULL;
	out = arena_alloc(a, n * 3 + 1);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		bool enc = unsafe_byte(c);
		if (c == '\t' || c == '\n' || c == '\r')
			continue;
		if (c == '#') {
			enc = hash;
			hash = true;
		} else if (c == '%') {
			enc = !(i + 2 < n && hex_digit(s[i + 1]) >= 0 && hex_digit(s[i + 2]) >= 0);
		}
		if (enc) {
			pct_encode_byte(out + k, c);
			k += 3;
		} else {
			out[k++] = (char)c;
		}
	}
	out[k] = '\0';
	return out;
}

/* RFC 3986 5.2.4 on an absolute path, in place. */
static void remove_dot_segments(char *path)
{
	char *in = path, *out = path; /* out never passes in */

	while (*in) {
		if (strncmp(in, "/./", 3) == 0) {
			in += 2;
		} else if (strcmp(in, "/.") == 0) {
			in[1] = '\0';
		} else if (strncmp(in, "/../", 4) == 0 || strcmp(in, "/..") == 0) {
			/* drop the last segment written */
			while (out > path && *--out != '/')
				;
			if (in[3] == '/') {
				in += 3;
			} else {
				in += 2;
				*in = '/';
			}
		} else if (strcmp(in, ".") == 0 || strcmp(in, "..") == 0) {
			break;
		} else if (strncmp(in, "./", 2) == 0) {
			in += 2;
		} else if (strncmp(in, "../", 3) == 0) {
			in += 3;
		} else {
			/* one segment: its '/' and everything up to the next */
			do {
				*out++ = *in++;
			} while (*in && *in != '/');
		}
	}
	*out = '\0';
	if (path[0] != '/') {
		/* An absolute path stays one ("/a/.." -> "/"). */
		memmove(path + 1, path, strlen(path) + 1);
		path[0] = '/';
	}
}

static char *lower_dup(struct arena *a, const char *s)
{
	char *out = arena_strdup(a, s);

	for (char *p = out; p && *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	return out;
}

/* The normal form of an already cleaned URL. */
static char *normalize_clean(struct arena *a, const char *url, struct weburl *out)
{
	xmlURIPtr u = xmlParseURIRaw(url, 1);
	struct weburl w = { 0 };
	char *path = NULL, *res = NULL, port[16] = "";
	int https;

	if (!u)
		return NULL;
	if (!u->scheme || u->opaque || !u->server || !*u->server)
		goto done;
	if (strcasecmp(u->scheme, "http") != 0 && strcasecmp(u->scheme, "https") != 0)
		goto done;
	https = strcasecmp(u->scheme, "https") == 0;
	w.scheme = https ? "https" : "http";
	w.port = u->port > 0 ? u->port : https ? 443 : 80;
	if (w.port > 65535)
		goto done;
	w.has_userinfo = u->user != NULL;
	if (!(w.host = lower_dup(a, u->server))) /* no host */
		goto done;
	/* "/" plus the path, so that dot removal always sees an absolute path. */
	path = arena_printf(a, "%s%s", u->path && u->path[0] == '/' ? "" : "/", u->path ? u->path : "");
	remove_dot_segments(path);
	w.path = path;
	w.query = u->query_raw ? u->query_raw : u->query;
	w.fragment = u->fragment;
	if (w.port != (https ? 443 : 80))
		snprintf(port, sizeof(port), ":%d", w.port);
	res = arena_printf(a, "%s://%s%s%s%s%s%s%s", w.scheme, w.host, port, w.path, w.query ? "?" : "",
			   w.query ? w.query : "", w.fragment ? "#" : "", w.fragment ? w.fragment : "");
	if (out) {
		/* The parts, copied out of libxml2's struct before it is freed. */
		w.query = arena_strdup(a, w.query);
		w.fragment = arena_strdup(a, w.fragment);
		*out = w;
	}
done:
	xmlFreeURI(u);
	return res;
}

char *weburl_normalize(struct arena *a, const char *url, struct weburl *out)
{
	char *c = url ? clean(a, url) : NULL;

	return c ? normalize_clean(a, c, out) : NULL;
}

/* RFC 3986 5.2.2 by hand: libxml2's xmlBuildURI unescapes the path it
 * builds from ("%2F" would become "/"), so the reference is parsed raw and
 * joined with the base's parts here. */
char *weburl_resolve(struct arena *a, const char *base, const char *href)
{
	char *c = href ? clean(a, href) : NULL, *path = NULL, *joined = NULL, port[16] = "", *res = NULL;
	const char *host, *query, *slash;
	struct weburl b;
	xmlURIPtr u;
	int portnum;

	if (!c || !base || !normalize_clean(a, base, &b))
		return NULL;
	if (!(u = xmlParseURIRaw(c, 1)))
		return NULL;
	if (u->scheme) { /* absolute */
		res = normalize_clean(a, c, NULL);
		goto done;
	}
	host = b.host;
	portnum = b.port;
	query = u->query_raw ? u->query_raw : u->query;
	if (u->server) { /* "//host/path": another authority */
		host = u->server;
		portnum = u->port > 0 ? u->port : strcmp(b.scheme, "https") == 0 ? 443 : 80;
		path = arena_strdup(a, u->path ? u->path : "/");
	} else if (!u->path || !*u->path) { /* "", "?q", "#f" */
		path = arena_strdup(a, b.path);
		if (!query)
			query = b.query;
	} else if (u->path[0] == '/') {
		path = arena_strdup(a, u->path);
	} else { /* merged with the base's directory */
		slash = strrchr(b.path, '/');
		path = arena_printf(a, "%.*s%s", slash ? (int)(slash - b.path + 1) : 0, b.path, u->path);
	}
	if (portnum != (strcmp(b.scheme, "https") == 0 ? 443 : 80))
		snprintf(port, sizeof(port), ":%d", portnum);
	joined = arena_printf(a, "%s://%s%s%s%s%s%s%s", b.scheme, host, port, path, query ? "?" : "", query ? query : "",
			      u->fragment ? "#" : "", u->fragment ? u->fragment : "");
	res = normalize_clean(a, joined, NULL);
done:
	xmlFreeURI(u);
	return res;
}

const char *weburl_strip_fragment(struct arena *a, const char *url)
{
	const char *h = strchr(url, '#');

	return h ? arena_strndup(a, url, (size_t)(h - url)) : url;
}
