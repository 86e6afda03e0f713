/*
 * assets_edit.c - the writing pages' script and stylesheet (pages_write.h),
 * served by docsd under /~app/ with a hash of their bytes in the URL, so
 * the CSP (script-src 'self') allows them and a new build's copy is fetched
 * at once.
 *
 * edit.js is progressive enhancement only: the editor works without it
 * (its Preview button posts the form). With it, the preview follows the
 * textarea: 300 ms after the last keystroke the markdown is POSTed
 * (urlencoded, the session's CSRF token in X-CSRF-Token) to
 * /s/{id}/~/preview (with the change request's number, so its files
 * resolve), which answers the site renderer's HTML fragment; an older
 * answer never replaces a newer one.
 */
#include "app/pages_write.h"
#include "site/site.h"
#include "util/err.h"
#include "util/util.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static const char edit_js[] =
	"(function(){'use strict';\n"
	"var form=document.querySelector('form.editor');if(!form)return;\n"
	"var ta=form.querySelector('textarea[name=markdown]'),box=document.getElementById('preview');\n"
	"var tok=form.querySelector('input[name=csrf]'),url=form.getAttribute('data-preview');\n"
	"if(!ta||!box||!tok||!url||!window.fetch)return;\n"
	"var timer=null,seq=0,dirty=false;\n"
	"var crf=form.querySelector('input[name=cr]');\n"
	"function run(){var n=++seq,body=new URLSearchParams();body.set('markdown',ta.value);\n"
	"if(crf)body.set('cr',crf.value);\n"
	"box.setAttribute('aria-busy','true');\n"
	"fetch(url,{method:'POST',credentials:'same-origin',headers:{'X-CSRF-Token':tok.value,"
	"'Content-Type':'application/x-www-form-urlencoded'},body:body.toString()})\n"
	".then(function(r){if(!r.ok)throw new Error('preview '+r.status);return r.text();})\n"
	".then(function(h){if(n===seq){box.innerHTML=h;box.removeAttribute('aria-busy');"
	"box.classList.remove('stale');}})\n"
	".catch(function(){if(n===seq){box.removeAttribute('aria-busy');box.classList.add('stale');}});}\n"
	"ta.addEventListener('input',function(){dirty=true;clearTimeout(timer);timer=setTimeout(run,300);});\n"
	"form.addEventListener('submit',function(){dirty=false;});\n"
	"window.addEventListener('beforeunload',function(e){if(dirty){e.preventDefault();e.returnValue='';}});\n"
	"var pb=form.querySelector('.pv-button');if(pb)pb.hidden=true;\n"
	"})();\n";

static const char edit_css[] =
	"form.write label{display:block;font-size:.9rem;color:var(--mute);margin:.6rem 0 .2rem}\n"
	"form.write input:not([type=hidden]),form.write select,form.write textarea{font:inherit;max-width:100%;"
	"padding:.35rem .6rem;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg)}\n"
	"form.write input#title,form.write input#new-title,form.write textarea{width:100%}\n"
	"form.write textarea{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9rem;"
	"min-height:22rem;resize:vertical}\n"
	".split{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1rem}\n"
	".pv-h{font-size:.9rem;font-weight:400;color:var(--mute);margin:.6rem 0 .2rem}\n"
	".preview{border:1px solid var(--line);border-radius:6px;padding:.25rem 1rem;min-height:22rem;overflow:auto}\n"
	".preview.stale{opacity:.6}\n"
	".preview img{max-width:100%;height:auto}\n"
	".buttons{margin:1rem 0}\n"
	"button.primary{background:var(--accent);color:var(--accent-fg);border-color:var(--accent)}\n"
	"button.danger{color:var(--bad);border-color:var(--bad)}\n"
	"form.write.row{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem .75rem;margin:.5rem 0 1rem}\n"
	"form.write.row label{margin:0}\n"
	"form.write.row p{flex-basis:100%;margin:0}\n"
	".form-error{border-left:4px solid var(--bad);background:var(--soft);padding:.6rem 1rem;border-radius:6px}\n"
	".sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}\n"
	"ul.write-tree{list-style:none;padding-left:1.25rem;margin:.25rem 0}\n"
	"main>ul.write-tree{padding-left:0}\n"
	"ul.write-tree li{margin:.3rem 0}\n"
	"form.write>div{margin-top:.75rem}\n"
	"ul.files code{font-size:.85rem;word-break:break-all}\n"
	"@media (max-width:760px){.split{grid-template-columns:1fr}}\n";

static pthread_once_t url_once = PTHREAD_ONCE_INIT;
static char js_url[64] = "/~app/edit.js";
static char css_url[64] = "/~app/edit.css";

static void hash_urls(void)
{
	char hex[65];

	if (sha256_hex(hex, edit_js, sizeof(edit_js) - 1) == 0)
		snprintf(js_url, sizeof(js_url), "/~app/edit.js?v=%.16s", hex);
	if (sha256_hex(hex, edit_css, sizeof(edit_css) - 1) == 0)
		snprintf(css_url, sizeof(css_url), "/~app/edit.css?v=%.16s", hex);
}

const char *app_edit_js_url(void)
{
	pthread_once(&url_once, hash_urls);
	return js_url;
}

const char *app_write_css_url(void)
{
	pthread_once(&url_once, hash_urls);
	return css_url;
}

static int serve(struct app_page *p, const char *type, const char *data, size_t len)
{
	struct req *r = p->r;

	if (resp_header(r, "Cache-Control", "public, max-age=31536000, immutable") ||
	    resp_header(r, "X-Content-Type-Options", "nosniff"))
		return ERR_INTERNAL;
	return resp_bytes(r, 200, type, data, len);
}

int write_serve_js(struct app_page *p)
{
	return serve(p, "text/javascript; charset=utf-8", edit_js, sizeof(edit_js) - 1);
}

int write_serve_css(struct app_page *p)
{
	return serve(p, "text/css; charset=utf-8", edit_css, sizeof(edit_css) - 1);
}
