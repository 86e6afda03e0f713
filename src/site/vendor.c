/*
 * vendor.c - KaTeX and highlight.js from Debian's packages (libjs-katex,
 * libjs-highlight.js) as progressive enhancement of published pages
 * (site.h): when the server has them, a page with math or code loads them
 * and docsd's small script renders the math and colors the code; without
 * them (or without script) a page reads as it is: TeX as text, plain code.
 *
 * Rules for what is served from disk: only {root}/~assets/vendor/katex/… and
 * …/highlight.js/… map to /usr/share/javascript/katex/ and
 * /usr/share/javascript/highlight.js/; the rest of the path is letters,
 * digits, '.', '_', '-' and '/' only, with no "..", no "//" and no leading
 * '/'; only .js, .css, .woff2, .woff and .ttf files of at most 4 MiB are
 * read. Scripts come from these files and docsd's own (allowed by the
 * page's CSP, script-src 'self'); nothing inline, nothing from content.
 */
#include "site/site.h"

#include "http/http.h"
#include "util/err.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define VENDOR_DIR "/usr/share/javascript/"
#define VENDOR_MAX (4u << 20)

/* Which packages are installed: looked at once (packages do not come and
 * go under a running server; a restart sees a new one). */
static pthread_once_t vendor_once = PTHREAD_ONCE_INIT;
static bool has_katex, has_hljs;

static void vendor_probe(void)
{
	struct stat st;

	has_katex = stat(VENDOR_DIR "katex/katex.min.js", &st) == 0 && stat(VENDOR_DIR "katex/katex.min.css", &st) == 0;
	has_hljs = stat(VENDOR_DIR "highlight.js/highlight.min.js", &st) == 0;
}

/* docsd's script: renders .math with KaTeX and colors code with
 * highlight.js when they loaded (Debian 12 ships highlight.js 9, whose
 * call is highlightBlock; later ones say highlightElement); numbered lines
 * and diagrams are left. */
static const char enhance_js[] =
	"(function(){'use strict';\n"
	"if(window.katex)document.querySelectorAll('.math').forEach(function(e){"
	"try{katex.render(e.textContent,e,{displayMode:e.classList.contains('math-display'),throwOnError:false});}catch(x){}});\n"
	"if(window.hljs)document.querySelectorAll('pre code[class^=\"language-\"]').forEach(function(e){"
	"if(!e.querySelector('.line')&&!e.closest('.diagram'))(hljs.highlightElement||hljs.highlightBlock).call(hljs,e);});\n"
	"})();\n";

void site_vendor_tags(struct jw *out, const struct site_view *v, bool math, bool code)
{
	pthread_once(&vendor_once, vendor_probe);
	math = math && has_katex;
	code = code && has_hljs;
	if (!math && !code)
		return;
	if (math) {
		html_raw(out, "<link rel=\"stylesheet\" href=\"");
		html_esc(out, v->root);
		html_raw(out, "/~assets/vendor/katex/katex.min.css\">\n<script defer src=\"");
		html_esc(out, v->root);
		html_raw(out, "/~assets/vendor/katex/katex.min.js\"></script>\n");
	}
	if (code) {
		html_raw(out, "<script defer src=\"");
		html_esc(out, v->root);
		html_raw(out, "/~assets/vendor/highlight.js/highlight.min.js\"></script>\n");
	}
	html_raw(out, "<script defer src=\"");
	html_esc(out, v->root);
	html_raw(out, "/~assets/vendor/enhance.js\"></script>\n");
}

static const char *type_of(const char *path)
{
	static const struct {
		const char *ext, *type;
	} types[] = {
		{ ".js", "text/javascript; charset=utf-8" }, { ".css", "text/css; charset=utf-8" },
		{ ".woff2", "font/woff2" },                   { ".woff", "font/woff" },
		{ ".ttf", "font/ttf" },
	};
	size_t n = strlen(path);

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		size_t e = strlen(types[i].ext);
		if (n > e && strcmp(path + n - e, types[i].ext) == 0)
			return types[i].type;
	}
	return NULL;
}

static bool path_ok(const char *p)
{
	size_t n = strlen(p);

	if (!n || n > 200 || *p == '/' || strstr(p, "..") || strstr(p, "//"))
		return false;
	return strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-/") == n;
}

int site_vendor_serve(struct req *r, const char *path)
{
	const char *type = type_of(path);
	char file[512];
	FILE *f = NULL;
	char *buf;
	long len;

	resp_header(r, "X-Content-Type-Options", "nosniff");
	if (strcmp(path, "enhance.js") == 0) {
		resp_header(r, "Cache-Control", "public, max-age=86400");
		return resp_bytes(r, 200, "text/javascript; charset=utf-8", enhance_js, sizeof(enhance_js) - 1);
	}
	if (!type || !path_ok(path) || (strncmp(path, "katex/", 6) != 0 && strncmp(path, "highlight.js/", 13) != 0))
		return resp_bytes(r, 404, "text/plain; charset=utf-8", "not found\n", 10);
	snprintf(file, sizeof(file), VENDOR_DIR "%s", path);
	if (!(f = fopen(file, "rb")) || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || (unsigned long)len > VENDOR_MAX ||
	    fseek(f, 0, SEEK_SET)) {
		if (f)
			fclose(f);
		return resp_bytes(r, 404, "text/plain; charset=utf-8", "not found\n", 10);
	}
	/* The request's arena owns the body until it is sent (resp_bytes). */
	buf = arena_alloc(&r->arena, (size_t)len + 1);
	if (len && fread(buf, 1, (size_t)len, f) != (size_t)len) {
		fclose(f);
		return resp_bytes(r, 404, "text/plain; charset=utf-8", "not found\n", 10);
	}
	fclose(f);
	resp_header(r, "Cache-Control", "public, max-age=86400");
	return resp_bytes(r, 200, type, buf, (size_t)len);
}
