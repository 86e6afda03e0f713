/*
 * weburl.h - absolute http(s) URLs as website import reads them: resolving a
 * page's links, one spelling per URL, and the parts a crawl compares.
 *
 * Parsing and reference resolution are libxml2's RFC 3986 code (xmlBuildURI,
 * xmlParseURIRaw, which keeps the path, query and fragment as written:
 * nothing is unescaped, so "%2F" stays "%2F"); dot segments are removed here
 * (RFC 3986 5.2.4), because libxml2 keeps a leading "/../".
 *
 * The normal form (weburl_normalize) is what the import compares and writes
 * into markdown: scheme and host lower-case, the scheme's default port
 * dropped, user information dropped, an empty path as "/", and every byte
 * that may not stand bare in a URL (controls, space, non-ASCII, "<>\"\\^`{|}")
 * percent-encoded. Pure functions: results come from the caller's arena; NULL
 * means "not an absolute http(s) URL".
 */
#ifndef DOCSD_FORMAT_WEBURL_H
#define DOCSD_FORMAT_WEBURL_H

#include <stdbool.h>

#include "util/arena.h"

struct weburl {
	const char *scheme;   /* "http" or "https" */
	const char *host;     /* lower-case; an IPv6 literal keeps its brackets */
	int port;             /* always set: 80 / 443 when the URL names none */
	const char *path;     /* "/..." as written (percent-escapes kept) */
	const char *query;    /* without "?", NULL when absent */
	const char *fragment; /* without "#", NULL when absent */
	bool has_userinfo;    /* the URL named a user (dropped by the normal form) */
};

/* url (absolute) in the normal form; NULL when it is not an absolute http or
 * https URL with a host. out (may be NULL) gets its parts. */
char *weburl_normalize(struct arena *a, const char *url, struct weburl *out);

/* href (as written in a page: relative or absolute, surrounded by blanks,
 * with tabs or newlines inside) resolved against base (a normal-form URL),
 * in the normal form, fragment kept. NULL for an href that does not lead to
 * an http(s) URL: mailto:, javascript:, data:, tel:, malformed. */
char *weburl_resolve(struct arena *a, const char *base, const char *href);

/* url without its fragment (a copy; url itself when it has none). */
const char *weburl_strip_fragment(struct arena *a, const char *url);

#endif
