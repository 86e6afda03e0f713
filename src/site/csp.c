/*
 * csp.c - the Content-Security-Policy of a published page that loads
 * integration scripts (site:script:inject).
 *
 * The base policy (serve.c) allows docsd's own script only. A site with
 * integration scripts must also allow the scripts' URL (docsd's API origin,
 * which may differ from the site's own hostname) and what each integration
 * declared in its contentSecurityPolicy (the origins its script talks to).
 * Declared sources are merged into the base directives, never replace them,
 * and only plain host or scheme sources are taken: a keyword ('unsafe-inline',
 * 'unsafe-eval', a nonce or a hash), a bare `*`, a scheme alone ("https:",
 * "data:") or a wildcard host ("http://" followed by "*", "*.com") in script-src would let
 * content or any server run script, so it is dropped (script_source). Directives other than the fetch
 * directives below are ignored (an integration cannot loosen base-uri,
 * form-action or frame-ancestors).
 */
#include "site/site.h"
#include "util/arena.h"

#include <stdbool.h>
#include <string.h>

/* The fetch directives an integration may extend; base sources first. */
static const struct {
	const char *name, *base;
} directives[] = {
	{ "script-src", "'self'" }, { "connect-src", "'self'" }, { "img-src", "* data:" },
	{ "style-src", "'self' 'unsafe-inline'" }, { "font-src", "'self'" }, { "frame-src", NULL },
	{ "media-src", NULL },
};
#define NDIR (sizeof(directives) / sizeof(directives[0]))
/* What the merged policy may add in all (a header must stay small). */
#define CSP_EXTRA_MAX 4096

/* In script-src, a source must name hosts: a scheme alone ("https:",
 * "data:", "blob:") allows every script of that scheme, and a wildcard host
 * ("*", "http://" and "*", "*.com") every script of a whole top-level domain, as
 * broad as the bare `*`. Kept: [scheme://]host[:port][/path], the host
 * concrete or "*." followed by a name with a dot ("*.example.com"). */
static bool script_source(const char *s, size_t n)
{
	const char *h = s, *end = s + n, *sep = memmem(s, n, "://", 3);
	size_t hl;

	if (sep)
		h = sep + 3;
	else if (s[n - 1] == ':')
		return false; /* a scheme alone */
	for (hl = 0; h + hl < end && h[hl] != ':' && h[hl] != '/'; hl++)
		;
	if (hl == 0)
		return false;
	if (memchr(h, '*', hl) &&
	    (hl < 4 || h[0] != '*' || h[1] != '.' || memchr(h + 2, '*', hl - 2) || !memchr(h + 2, '.', hl - 2)))
		return false;
	/* No wildcard in the scheme or the path either; a port of '*' names
	 * no more hosts. */
	for (const char *c = s; c < end; c++)
		if (*c == '*' && (c < h || c >= h + hl) && !(c == h + hl + 1 && h[hl] == ':'))
			return false;
	return true;
}

/* A host or scheme source: letters, digits and URL punctuation, no quote,
 * no comma or semicolon (which would start another policy or directive);
 * in script-src a host source only (script_source). */
static bool plain_source(const char *s, size_t n, bool script)
{
	if (!n || n > 255)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr(".-:/*_%~+", c)))
			return false;
	}
	return !script || script_source(s, n);
}

/* Append to extra[d] the plain sources of directive `name` in policy. */
static void take(struct arena *a, const char *policy, char **extra, size_t *total)
{
	const char *p = policy;

	while (p && *p) {
		size_t dl = strcspn(p, ";");
		const char *end = p + dl, *q = p;
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		size_t nl = 0;
		while (q + nl < end && q[nl] != ' ' && q[nl] != '\t')
			nl++;
		for (size_t d = 0; d < NDIR; d++) {
			if (strlen(directives[d].name) != nl || strncasecmp(q, directives[d].name, nl) != 0)
				continue;
			const char *s = q + nl;
			while (s < end) {
				while (s < end && (*s == ' ' || *s == '\t'))
					s++;
				size_t sl = 0;
				while (s + sl < end && s[sl] != ' ' && s[sl] != '\t')
					sl++;
				if (plain_source(s, sl, d == 0) && *total + sl + 1 <= CSP_EXTRA_MAX) {
					extra[d] = arena_printf(a, "%s %.*s", extra[d] ? extra[d] : "", (int)sl, s);
					*total += sl + 1;
				}
				s += sl;
			}
		}
		p = *end ? end + 1 : end;
	}
}

const char *site_csp_with_scripts(struct arena *a, const char *script_origin, const char *const *policies, int n)
{
	char *extra[NDIR] = { 0 };
	size_t total = 0;
	char *out;

	if (script_origin && *script_origin)
		take(a, arena_printf(a, "script-src %s", script_origin), extra, &total);
	for (int i = 0; i < n; i++)
		take(a, policies[i], extra, &total);
	out = arena_strdup(a, "default-src 'none'");
	for (size_t d = 0; d < NDIR; d++) {
		if (!directives[d].base && !extra[d])
			continue;
		out = arena_printf(a, "%s; %s%s%s%s", out, directives[d].name, directives[d].base ? " " : "",
				   directives[d].base ? directives[d].base : "", extra[d] ? extra[d] : "");
	}
	return arena_printf(a, "%s; form-action 'self'; base-uri 'none'; frame-ancestors 'self'", out);
}
