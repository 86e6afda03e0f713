/*
 * html.c - the web interface's page frame and its stylesheet (pages.h).
 *
 * Every byte of text that enters a page goes through app_text (site/html.c's
 * escaping) or app_href; the frame has no inline script or style, so the
 * CSP (app.c) can forbid both. The stylesheet follows the published site's
 * look (system fonts, one accent) with light and dark from
 * prefers-color-scheme, a visible focus ring and a layout that folds the
 * sidebar under the content at phone width.
 */
#include "app/app.h"
#include "app/pages.h"
#include "site/site.h"
#include "util/text.h"
#include "util/util.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

const char app_css[] =
	":root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--mute:#59636e;--line:#d8dee4;--soft:#f6f8fa;"
	"--accent:#0b62d6;--accent-fg:#fff;--focus:#0b62d6;--ok:#1a7f37;--warn:#9a6700;--bad:#cf222e}\n"
	"@media (prefers-color-scheme:dark){:root{--bg:#0f1216;--fg:#e6edf3;--mute:#9198a1;--line:#30363d;"
	"--soft:#161b22;--accent:#4493f8;--accent-fg:#0f1216;--focus:#79b8ff;--ok:#3fb950;--warn:#d29922;--bad:#f85149}}\n"
	"*{box-sizing:border-box}\n"
	"html{-webkit-text-size-adjust:100%}\n"
	"body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.6 system-ui,-apple-system,'Segoe UI',Roboto,"
	"'Helvetica Neue',Arial,sans-serif}\n"
	"a{color:var(--accent);text-decoration-thickness:1px;text-underline-offset:2px}\n"
	"a:hover{text-decoration-thickness:2px}\n"
	":focus-visible{outline:3px solid var(--focus);outline-offset:2px;border-radius:3px}\n"
	".skip{position:absolute;left:-999px;top:0;background:var(--bg);padding:.5rem 1rem;z-index:9}\n"
	".skip:focus{left:.5rem}\n"
	"header.top{display:flex;align-items:center;gap:1rem;flex-wrap:wrap;padding:.6rem 1.25rem;"
	"border-bottom:1px solid var(--line);background:var(--soft)}\n"
	"header.top .brand{font-weight:700;color:var(--fg);text-decoration:none;font-size:1.05rem}\n"
	"header.top nav{flex:1}\n"
	"header.top nav a{margin-right:1rem}\n"
	"header.top .who{display:flex;align-items:center;gap:.75rem;color:var(--mute);font-size:.9rem}\n"
	"button,.button{font:inherit;font-size:.9rem;padding:.3rem .8rem;border:1px solid var(--line);border-radius:6px;"
	"background:var(--bg);color:var(--fg);cursor:pointer}\n"
	"button:hover{border-color:var(--mute)}\n"
	"form.inline{display:inline;margin:0}\n"
	".crumbs{font-size:.9rem;color:var(--mute);margin:0 0 .25rem}\n"
	".crumbs ol{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem}\n"
	".crumbs li+li:before{content:'/';margin-right:.25rem;color:var(--line)}\n"
	".wrap{max-width:72rem;margin:0 auto;padding:1.25rem}\n"
	".cols{display:grid;grid-template-columns:16rem minmax(0,1fr);gap:2rem;align-items:start}\n"
	"aside.tree{position:sticky;top:1rem;max-height:calc(100vh - 2rem);overflow:auto;font-size:.92rem;"
	"border-right:1px solid var(--line);padding-right:1rem}\n"
	"aside.tree ul{list-style:none;margin:0;padding-left:.9rem}\n"
	"aside.tree>ul{padding-left:0}\n"
	"aside.tree li{margin:.15rem 0}\n"
	"aside.tree a{color:var(--fg);text-decoration:none;display:block;padding:.1rem .35rem;border-radius:4px}\n"
	"aside.tree a:hover{background:var(--soft)}\n"
	"aside.tree a[aria-current=page]{background:var(--soft);color:var(--accent);font-weight:600}\n"
	"aside.tree .group{font-weight:600;color:var(--mute);font-size:.8rem;text-transform:uppercase;"
	"letter-spacing:.03em;margin-top:.6rem;padding:.1rem .35rem}\n"
	"h1{font-size:1.9rem;line-height:1.25;margin:.25rem 0 1rem}\n"
	"h2{font-size:1.35rem;margin:2rem 0 .6rem}\n"
	"h3{font-size:1.1rem;margin:1.5rem 0 .5rem}\n"
	".mute{color:var(--mute)}\n"
	".actions{display:flex;flex-wrap:wrap;gap:.5rem 1.25rem;margin:0 0 1.25rem;font-size:.92rem}\n"
	"ul.tree,ul.list{list-style:none;padding-left:0;margin:.25rem 0}\n"
	"ul.tree ul{list-style:none;padding-left:1.25rem;border-left:1px solid var(--line);margin-left:.4rem}\n"
	"ul.tree li,ul.list li{margin:.3rem 0}\n"
	".org{border:1px solid var(--line);border-radius:10px;padding:1rem 1.25rem;margin:0 0 1.5rem}\n"
	".org h2{margin-top:0}\n"
	".kind{font-size:.75rem;color:var(--mute);border:1px solid var(--line);border-radius:999px;padding:0 .5rem;"
	"margin-left:.4rem;white-space:nowrap}\n"
	".badge{font-size:.8rem;border-radius:999px;padding:.05rem .6rem;border:1px solid currentColor}\n"
	".st-open{color:var(--ok)}.st-draft{color:var(--mute)}.st-merged{color:#8250df}.st-archived{color:var(--warn)}\n"
	".tabs{display:flex;flex-wrap:wrap;gap:.25rem;border-bottom:1px solid var(--line);margin:0 0 1rem;padding:0;"
	"list-style:none}\n"
	".tabs a{display:block;padding:.4rem .8rem;text-decoration:none;color:var(--mute);border-bottom:2px solid "
	"transparent}\n"
	".tabs a[aria-current=page]{color:var(--fg);border-color:var(--accent);font-weight:600}\n"
	".empty{border:1px dashed var(--line);border-radius:10px;padding:1.25rem;color:var(--mute);text-align:center}\n"
	"table{border-collapse:collapse;width:100%;font-size:.95rem}\n"
	".scroll-x{overflow-x:auto}\n"
	"th,td{text-align:left;border-bottom:1px solid var(--line);padding:.45rem .5rem;vertical-align:top}\n"
	"dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem;margin:0 0 1.5rem}\n"
	"dl.meta dt{color:var(--mute)}dl.meta dd{margin:0;min-width:0;overflow-wrap:anywhere}\n"
	"article.page{min-width:0}\n"
	"article.page img{max-width:100%;height:auto}\n"
	"article.page pre{background:var(--soft);border:1px solid var(--line);border-radius:8px;padding:.8rem 1rem;"
	"overflow:auto;font-size:.88rem}\n"
	"article.page code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}\n"
	"article.page :not(pre)>code{background:var(--soft);padding:.1rem .3rem;border-radius:4px}\n"
	"article.page blockquote{margin:1rem 0;padding:0 1rem;border-left:3px solid var(--line);color:var(--mute)}\n"
	"article.page table{display:block;overflow:auto}\n"
	".hint{border-left:4px solid var(--accent);background:var(--soft);padding:.6rem 1rem;border-radius:6px;"
	"margin:1rem 0}\n"
	".hint-warning{border-color:var(--warn)}.hint-danger{border-color:var(--bad)}.hint-success{border-color:var(--ok)}\n"
	".pager{margin-top:1rem}\n"
	"form.search{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;margin:0 0 1.25rem}\n"
	"form.search label{flex-basis:100%;font-size:.9rem;color:var(--mute)}\n"
	"input[type=search],input[type=text]{font:inherit;flex:1;min-width:0;max-width:32rem;padding:.35rem .6rem;border:1px solid "
	"var(--line);border-radius:6px;background:var(--bg);color:var(--fg)}\n"
	".hits h2{font-size:1.1rem;margin:1.5rem 0 .25rem}\n"
	".excerpt{margin:.1rem 0 .6rem;font-size:.9rem}\n"
	".banner{background:var(--soft);border:1px solid var(--line);border-radius:8px;padding:.5rem .9rem;"
	"font-size:.92rem}\n"
	/* Review (pages_review.c): differences, comments, forms, conflicts. */
	"pre.diff{background:var(--soft);border:1px solid var(--line);border-radius:8px;padding:.6rem 0;overflow:auto;"
	"font:.86rem/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}\n"
	"pre.diff del,pre.diff ins,pre.diff .ctx,pre.diff .gap{display:block;padding:0 1rem;text-decoration:none;"
	"white-space:pre-wrap;overflow-wrap:anywhere}\n"
	"pre.diff del{background:color-mix(in srgb,var(--bad) 16%,transparent)}\n"
	"pre.diff ins{background:color-mix(in srgb,var(--ok) 16%,transparent)}\n"
	"pre.diff .gap{color:var(--mute)}\n"
	/* Line numbers (links to comment on a line) and what is posted on a line. */
	"pre.diff .ln{display:inline-block;width:3.2em;margin-left:-.6rem;padding-right:.6rem;text-align:right;"
	"color:var(--mute);user-select:none}\n"
	"pre.diff a.ln{text-decoration:none}pre.diff a.ln:hover,pre.diff a.ln:focus{text-decoration:underline;color:var(--accent)}\n"
	".linec{border:1px solid var(--line);border-left:4px solid var(--accent);border-radius:8px;padding:.4rem 1rem;"
	"margin:.4rem 0 .4rem 2.5rem}\n"
	"details.linec summary{cursor:pointer;color:var(--accent)}\n"
	".cctl{display:flex;flex-wrap:wrap;align-items:flex-start;gap:.5rem;margin:.25rem 0 .5rem}\n"
	".cctl details summary{cursor:pointer;color:var(--accent)}\n"
	"button.danger{color:var(--bad);border-color:var(--bad)}\n"
	".sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}\n"
	".cbody{white-space:pre-wrap;overflow-wrap:anywhere;margin:.25rem 0 .5rem}\n"
	"article.comment{border:1px solid var(--line);border-radius:10px;padding:.6rem 1rem;margin:0 0 1rem}\n"
	"article.comment.resolved{opacity:.8}\n"
	".chead{margin:0;font-size:.92rem}\n"
	".reacts{display:flex;flex-wrap:wrap;gap:.35rem;margin:.25rem 0 .5rem}\n"
	".reacts button[aria-pressed=true]{border-color:var(--accent);background:var(--soft)}\n"
	".reacts .react{font-size:.9rem;border:1px solid var(--line);border-radius:999px;padding:0 .5rem}\n"
	"ul.replies{list-style:none;margin:.25rem 0 .5rem;padding-left:1rem;border-left:2px solid var(--line)}\n"
	"form.stack{display:flex;flex-direction:column;gap:.35rem;margin:.75rem 0;max-width:40rem}\n"
	"form.stack .row{display:flex;flex-wrap:wrap;gap:.5rem}\n"
	"form.stack button{align-self:flex-start}\n"
	"form.stack fieldset{border:1px solid var(--line);border-radius:8px;display:flex;flex-direction:column;gap:.35rem}\n"
	"textarea,select{font:inherit;padding:.35rem .6rem;border:1px solid var(--line);border-radius:6px;"
	"background:var(--bg);color:var(--fg);max-width:100%}\n"
	"button.primary{background:var(--accent);color:var(--accent-fg);border-color:var(--accent)}\n"
	".banner.blocked{border-color:var(--bad);margin:0 0 .75rem}\n"
	".sides{display:grid;grid-template-columns:1fr 1fr;gap:1rem}\n"
	".sides pre{background:var(--soft);border:1px solid var(--line);border-radius:8px;padding:.6rem 1rem;"
	"overflow:auto;white-space:pre-wrap;font-size:.86rem}\n"
	"details.rendered{margin:.5rem 0 1rem}details.rendered summary{cursor:pointer;color:var(--accent)}\n"
	".sides>div{min-width:0}.sides article.page{border:1px solid var(--line);border-radius:8px;padding:0 1rem}\n"
	".sides h4{margin:.5rem 0;font-size:.9rem;color:var(--mute)}\n"
	"@media (max-width:760px){.sides{grid-template-columns:1fr}}\n"
	"footer.bottom{border-top:1px solid var(--line);color:var(--mute);font-size:.85rem;padding:1rem 1.25rem;"
	"text-align:center}\n"
	"@media (max-width:760px){.cols{grid-template-columns:1fr}aside.tree{position:static;max-height:none;"
	"border-right:0;border-bottom:1px solid var(--line);padding:0 0 1rem}.wrap{padding:1rem}h1{font-size:1.55rem}"
	"header.top{padding:.6rem 1rem}}\n";
const size_t app_css_len = sizeof(app_css) - 1;

/* The stylesheet's URL carries a hash of its bytes, so it can be cached for
 * a year and a new build's CSS is fetched at once. Computed once; the
 * constant table's hash never changes while the process runs. */
static pthread_once_t css_once = PTHREAD_ONCE_INIT;
static char css_url[64] = "/~app/app.css";

static void css_hash(void)
{
	char hex[65];

	if (sha256_hex(hex, app_css, app_css_len) == 0)
		snprintf(css_url, sizeof(css_url), "/~app/app.css?v=%.16s", hex);
}

const char *app_css_url(void)
{
	pthread_once(&css_once, css_hash);
	return css_url;
}

void app_text(struct jw *b, const char *s)
{
	html_esc(b, s);
}

void app_href(struct jw *b, const char *prefix, const char *rest)
{
	struct jw t;

	jw_init(&t);
	url_path_enc(&t, rest);
	html_raw(b, prefix);
	if (t.len)
		html_escn(b, t.buf, t.len);
	if (!jw_ok(&t))
		b->oom = true; /* the page fails whole (app.c checks jw_ok) */
	jw_free(&t);
}

void app_date(struct jw *b, int64_t ms)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	char buf[40];

	if (ms <= 0 || !gmtime_r(&t, &tm) || strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M UTC", &tm) == 0)
		return;
	html_raw(b, buf);
}

void app_emoji(struct jw *b, const char *emoji)
{
	if (!emoji || !*emoji)
		return;
	html_raw(b, "<span aria-hidden=\"true\">");
	html_emoji(b, emoji);
	html_raw(b, "</span> ");
}

const char *app_query_enc(struct arena *a, const char *s)
{
	size_t n = strlen(s);
	char *out, *o;

	if (n > (SIZE_MAX - 1) / 3)
		return NULL;
	out = arena_alloc(a, n * 3 + 1);
	if (!out)
		return NULL;
	o = out;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
			*o++ = (char)c;
		} else {
			pct_encode_byte(o, c);
			o += 3;
		}
	}
	*o = '\0';
	return out;
}

void app_frame_begin(struct app_page *p, const char *title, const struct app_crumb *crumbs, int ncrumbs)
{
	struct jw *b = p->out;

	html_raw(b, "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		    "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
		    "<meta name=\"robots\" content=\"noindex\">");
	/* A page following a job (pages_git.c, pages_translations.c): no script. */
	if (p->refresh > 0) {
		char meta[64];
		snprintf(meta, sizeof(meta), "<meta http-equiv=\"refresh\" content=\"%d\">", p->refresh);
		html_raw(b, meta);
	}
	html_raw(b, "<title>");
	app_text(b, title);
	html_raw(b, " · docsd</title><link rel=\"stylesheet\" href=\"");
	app_text(b, app_css_url());
	html_raw(b, "\"></head><body><a class=\"skip\" href=\"#main\">Skip to content</a>"
		    "<header class=\"top\"><a class=\"brand\" href=\"/\">docsd</a><nav aria-label=\"Main\">"
		    "<a href=\"/\">Home</a>");
	if (p->user)
		html_raw(b, "<a href=\"/settings/tokens\">API tokens</a><a href=\"/settings/sso\">Sign-in providers</a>");
	html_raw(b, "</nav>");
	if (p->user) {
		html_raw(b, "<div class=\"who\"><span>Signed in as <strong>");
		app_text(b, p->user->display_name && *p->user->display_name ? p->user->display_name : p->user->email);
		html_raw(b, "</strong></span><form class=\"inline\" method=\"post\" action=\"/signout\">"
			    "<input type=\"hidden\" name=\"" APP_CSRF_FIELD "\" value=\"");
		app_text(b, p->csrf ? p->csrf : "");
		html_raw(b, "\"><button type=\"submit\">Sign out</button></form></div>");
	}
	html_raw(b, "</header><main id=\"main\" class=\"wrap\">");
	if (ncrumbs > 0) {
		html_raw(b, "<nav class=\"crumbs\" aria-label=\"Breadcrumb\"><ol>");
		for (int i = 0; i < ncrumbs; i++) {
			html_raw(b, "<li>");
			if (crumbs[i].href) {
				html_raw(b, "<a href=\"");
				app_text(b, crumbs[i].href);
				html_raw(b, "\">");
				app_text(b, crumbs[i].label);
				html_raw(b, "</a>");
			} else {
				html_raw(b, "<span aria-current=\"page\">");
				app_text(b, crumbs[i].label);
				html_raw(b, "</span>");
			}
			html_raw(b, "</li>");
		}
		html_raw(b, "</ol></nav>");
	}
}

void app_frame_end(struct app_page *p)
{
	html_raw(p->out, "</main><footer class=\"bottom\">docsd · the same content through the API at "
			 "<code>/v1</code></footer></body></html>\n");
}

void app_error_page(struct app_page *p, int status, const char *title, const char *text)
{
	p->status = status;
	p->out->len = 0;
	p->out->oom = false;
	app_frame_begin(p, title, NULL, 0);
	html_raw(p->out, "<h1>");
	app_text(p->out, title);
	html_raw(p->out, "</h1><p>");
	app_text(p->out, text);
	html_raw(p->out, "</p><p><a href=\"/\">Back to your home page</a></p>");
	app_frame_end(p);
}
