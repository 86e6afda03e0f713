/*
 * html.c - HTML escaping, the one place text enters the published site's
 * HTML (site.h).
 */
#include "site/site.h"
#include "util/text.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void html_escn(struct jw *b, const char *s, size_t n)
{
	size_t run = 0;

	for (size_t i = 0; i < n; i++) {
		const char *rep;
		switch (s[i]) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&#39;"; break;
		case '\0': rep = ""; break;
		default: continue;
		}
		if (i > run)
			jw_put(b, s + run, i - run);
		if (*rep)
			jw_put(b, rep, strlen(rep));
		run = i + 1;
	}
	if (n > run)
		jw_put(b, s + run, n - run);
}

static bool scheme_is(const char *url, const char *scheme)
{
	size_t n = strlen(scheme), j = 0;

	/* Browsers ignore tabs, newlines and leading spaces in a scheme. */
	while (*url == ' ' || (unsigned char)*url < 0x20)
		url++;
	for (; *url && j < n; url++) {
		if (*url == '\t' || *url == '\n' || *url == '\r')
			continue;
		if (tolower((unsigned char)*url) != scheme[j])
			return false;
		j++;
	}
	return j == n;
}

void html_url(struct jw *b, const char *url)
{
	if (!url || scheme_is(url, "javascript:") || scheme_is(url, "vbscript:") ||
	    (scheme_is(url, "data:") && !scheme_is(url, "data:image/png") && !scheme_is(url, "data:image/gif") &&
	     !scheme_is(url, "data:image/jpeg") && !scheme_is(url, "data:image/webp"))) {
		jw_put(b, "#", 1);
		return;
	}
	html_esc(b, url);
}

void url_path_enc(struct jw *b, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (isalnum(c) || strchr("-._~/!$()*+,;=:@", c) || c >= 0x80) {
			jw_put(b, (const char *)&c, 1);
		} else {
			char e[3];
			pct_encode_byte(e, c);
			jw_put(b, e, 3);
		}
	}
}

const char *site_location(struct arena *a, const char *prefix, const char *path)
{
	struct jw b;
	const char *out = NULL;
	size_t skip = 0;

	jw_init(&b);
	html_raw(&b, prefix);
	url_path_enc(&b, path);
	/* url_path_enc keeps '/' and encodes '\', but browsers also read '\'
	 * as '/': collapse any leading run of either into one '/', so that
	 * "//evil.example" (a request to the site's own host) cannot become a
	 * protocol-relative URL to another host. */
	if (jw_ok(&b)) {
		while (skip < b.len && (b.buf[skip] == '/' || b.buf[skip] == '\\'))
			skip++;
		out = arena_printf(a, "/%.*s", (int)(b.len - skip), b.buf + skip);
	}
	jw_free(&b);
	return out;
}

bool css_color_ok(const char *s)
{
	size_t n;

	if (!s || s[0] != '#')
		return false;
	n = strlen(s + 1);
	if (n != 3 && n != 4 && n != 6 && n != 8)
		return false;
	for (size_t i = 1; i <= n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

char *html_anchor(struct arena *a, const char *text)
{
	size_t n = strlen(text), j = 0;
	char *out = arena_alloc(a, n + 1);

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)text[i];
		if (c == ' ')
			out[j++] = '-';
		else if (isalnum(c) || c == '_' || c == '-')
			out[j++] = (char)tolower(c);
	}
	out[j] = '\0';
	return out;
}

void html_emoji(struct jw *b, const char *e)
{
	if (!e || !*e)
		return;
	if (strspn(e, "0123456789abcdefABCDEF-") != strlen(e)) {
		html_esc(b, e);
		return;
	}
	while (*e) {
		unsigned long cp = strtoul(e, NULL, 16);
		char u[4];
		size_t k;
		e += strcspn(e, "-");
		e += *e == '-';
		/* A code point that is not one (0, surrogates, past U+10FFFF) is dropped. */
		if (cp == 0 || !(k = utf8_encode(u, cp)))
			continue;
		if (k == 1)
			html_escn(b, u, 1);
		else
			jw_put(b, u, k);
	}
}
