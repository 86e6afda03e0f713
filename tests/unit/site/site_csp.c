/*
 * site_csp.c - the CSP of a page with integration scripts (site/csp.c):
 * script-src takes host sources only. A scheme alone ("https:", "data:"),
 * a bare or wildcard host ("*", "*.com", a star after "http:" and two slashes) is as broad as `*`
 * and is dropped (issue 31); concrete hosts and "*.example.com" stay.
 */
#include "site/site.h"

#include "unit.h"

#include <string.h>

/* The script-src directive of the merged policy, as a string. */
static const char *script_src(struct arena *a, const char *policy)
{
	const char *const ps[] = { policy };
	const char *csp = site_csp_with_scripts(a, "http://localhost:8081", ps, 1), *d = strstr(csp, "script-src ");

	return d ? arena_strndup(a, d, strcspn(d, ";")) : "";
}

UNIT_TEST(site_csp_script_src_drops_schemes_and_wildcard_hosts)
{
	struct arena a;

	arena_init(&a);
	/* Each of these alone leaves script-src as docsd's own. */
	static const char *const broad[] = { "https:", "http:", "data:", "blob:", "*", "http://*", "https://*",
					     "https://*:*", "*.com", "https://*.com", "*.*", "http://*.*/x", "ht*p://example.com",
					     "https://example.com/*", "https://", "'unsafe-inline'", "'unsafe-eval'", "'nonce-abc'",
					     "wss:", "*:443" };
	for (size_t i = 0; i < sizeof(broad) / sizeof(broad[0]); i++) {
		const char *got = script_src(&a, arena_printf(&a, "script-src %s", broad[i]));
		if (strcmp(got, "script-src 'self' http://localhost:8081") != 0)
			unit_fail(__FILE__, __LINE__, arena_printf(&a, "%s kept: %s", broad[i], got));
	}
	/* Concrete hosts, a subdomain wildcard and a port wildcard stay. */
	CHECK_STR(script_src(&a, "script-src https://cdn.example.com *.example.com https://x.example.org:* example.net/js/"),
		  "script-src 'self' http://localhost:8081 https://cdn.example.com *.example.com https://x.example.org:* "
		  "example.net/js/");
	/* Mixed: the broad ones go, the others stay; other directives keep their rules. */
	CHECK_STR(script_src(&a, "script-src https: https://ok.example.com data: http://*; connect-src *"),
		  "script-src 'self' http://localhost:8081 https://ok.example.com");
	CHECK(strstr(site_csp_with_scripts(&a, "", (const char *const[]){ "connect-src * https:" }, 1),
		     "connect-src 'self' * https:") != NULL);
	arena_free(&a);
}
