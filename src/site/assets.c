/*
 * assets.c - the published site's one stylesheet (site.h), served at
 * {root}/~assets/site.css?v=<hash> with a year of caching. No web fonts: the
 * system font stack; colors are CSS variables that the page overrides from
 * the customization (primary color, light/dark theme).
 */
#include "site/site.h"
#include "site/blocks_css.h"

#include "util/util.h"

#include <pthread.h>

const char site_css[] =
	":root{--primary:#346ddb;--bg:#fff;--fg:#1f2328;--muted:#59636e;--border:#e5e7eb;--soft:#f6f8fa;--code-bg:#f6f8fa;--side-bg:#fbfbfc;--info:#2563eb;--success:#16a34a;--warning:#d97706;--danger:#dc2626;--radius:8px;--font:system-ui,-apple-system,\"Segoe UI\",Roboto,\"Helvetica Neue\",Arial,\"Noto Sans\",sans-serif;--mono:ui-monospace,SFMono-Regular,\"SF Mono\",Menlo,Consolas,\"Liberation Mono\",monospace;color-scheme:light}\n"
	"[data-theme=dark]{--bg:#0f1115;--fg:#e6e8eb;--muted:#9aa4b2;--border:#262b33;--soft:#171a20;--code-bg:#161b22;--side-bg:#12151a;color-scheme:dark}\n"
	"@media (prefers-color-scheme:dark){[data-theme=auto]{--bg:#0f1115;--fg:#e6e8eb;--muted:#9aa4b2;--border:#262b33;--soft:#171a20;--code-bg:#161b22;--side-bg:#12151a;color-scheme:dark}}\n"
	"*,*::before,*::after{box-sizing:border-box}\n"
	"html{-webkit-text-size-adjust:100%;text-size-adjust:100%}\n"
	"body{--hh:61px;margin:0;background:var(--bg);color:var(--fg);font:16px/1.6 var(--font);-webkit-font-smoothing:antialiased}\n"
	"a{color:var(--primary);text-decoration:none}\n"
	"a:hover{text-decoration:underline}\n"
	".skip{position:absolute;left:-999px;top:0}\n"
	".skip:focus{left:8px;z-index:10;background:var(--bg);padding:4px 8px}\n"
	".announcement{padding:8px 16px;text-align:center;font-size:14px;background:color-mix(in srgb,var(--info) 12%,var(--bg));border-bottom:1px solid var(--border)}\n"
	".announcement-warning{background:color-mix(in srgb,var(--warning) 14%,var(--bg))}\n"
	".announcement-danger{background:color-mix(in srgb,var(--danger) 12%,var(--bg))}\n"
	".announcement-success{background:color-mix(in srgb,var(--success) 12%,var(--bg))}\n"
	".site-header{position:sticky;top:0;z-index:5;background:color-mix(in srgb,var(--bg) 92%,transparent);backdrop-filter:blur(8px);border-bottom:1px solid var(--border)}\n"
	".header-inner{display:flex;align-items:center;gap:20px;max-width:1440px;margin:0 auto;padding:0 24px;height:60px}\n"
	".site-title{display:flex;align-items:center;gap:10px;min-width:0;font-weight:650;font-size:17px;color:var(--fg);white-space:nowrap}\n"
	".site-title span{overflow:hidden;text-overflow:ellipsis}\n"
	".site-title:hover{text-decoration:none}\n"
	".logo{height:28px;width:auto}\n"
	".logo-dark{display:none}\n"
	"[data-theme=dark] .logo-dark{display:inline}[data-theme=dark] .logo-light{display:none}\n"
	".header-links{display:flex;align-items:center;gap:18px;margin-left:auto;font-size:15px}\n"
	".header-links>a{color:var(--muted)}\n"
	".header-links>a:hover{color:var(--fg);text-decoration:none}\n"
	".button{display:inline-block;padding:6px 14px;border:1px solid var(--border);border-radius:var(--radius);color:var(--fg)!important;font-weight:550}\n"
	".button.primary{background:var(--primary);border-color:var(--primary);color:#fff!important}\n"
	".button:hover{text-decoration:none;filter:brightness(1.05)}\n"
	".dropdown{position:relative}\n"
	".dropdown summary{cursor:pointer;color:var(--muted);list-style:none}\n"
	".dropdown summary::-webkit-details-marker{display:none}\n"
	".dropdown summary::after{content:\" \\25BE\";font-size:12px}\n"
	".dropdown-menu{position:absolute;top:calc(100% + 8px);left:0;min-width:180px;background:var(--bg);border:1px solid var(--border);border-radius:var(--radius);box-shadow:0 8px 24px rgba(0,0,0,.12);padding:6px;display:flex;flex-direction:column;z-index:6}\n"
	".dropdown-menu a{padding:6px 10px;border-radius:6px;color:var(--fg)}\n"
	".dropdown-menu a:hover{background:var(--soft);text-decoration:none}\n"
	".search{flex:0 1 260px}\n"
	".header-links+.search{margin-left:0}\n"
	".search input{width:100%;padding:7px 12px 7px 34px;border:1px solid var(--border);border-radius:var(--radius);background:var(--soft) url(\"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='16' height='16' fill='none' stroke='%2359636e' stroke-width='2' viewBox='0 0 24 24'%3E%3Ccircle cx='11' cy='11' r='7'/%3E%3Cpath d='m20 20-3.5-3.5'/%3E%3C/svg%3E\") no-repeat 11px center;color:var(--fg);font:inherit;font-size:14px}\n"
	".search input:focus{outline:2px solid color-mix(in srgb,var(--primary) 40%,transparent);border-color:var(--primary)}\n"
	".sections{display:flex;gap:4px;max-width:1440px;margin:0 auto;padding:0 24px;overflow-x:auto}\n"
	".sections>a,.sections>.dropdown>summary{display:block;padding:10px 12px;color:var(--muted);font-size:15px;border-bottom:2px solid transparent;white-space:nowrap}\n"
	".sections>a:hover{color:var(--fg);text-decoration:none}\n"
	".sections a[aria-current]{color:var(--primary);border-bottom-color:var(--primary);font-weight:550}\n"
	".nav-button{display:none;cursor:pointer;font-size:22px;color:var(--muted);user-select:none}\n"
	".nav-toggle{display:none}\n"
	".has-sections{--hh:108px}\n"
	".nav-close,.nav-backdrop{display:none}\n"
	".layout{display:flex;max-width:1440px;margin:0 auto;align-items:flex-start}\n"
	".sidebar{position:sticky;top:var(--hh);flex:0 0 280px;height:calc(100vh - var(--hh));overflow-y:auto;padding:24px 16px 40px 24px;border-right:1px solid var(--border);font-size:14.5px}\n"
	".variants{display:flex;flex-wrap:wrap;gap:6px;margin:0 0 18px}\n"
	".variants a{padding:3px 10px;border:1px solid var(--border);border-radius:999px;color:var(--muted);font-size:13px}\n"
	".variants a[aria-current]{background:var(--primary);border-color:var(--primary);color:#fff}\n"
	".variants a:hover{text-decoration:none}\n"
	".tree ul{list-style:none;margin:0;padding:0}\n"
	".tree ul ul{margin-left:12px;padding-left:8px;border-left:1px solid var(--border)}\n"
	".tree li{margin:1px 0}\n"
	".tree a{display:block;padding:5px 10px;border-radius:6px;color:var(--muted);line-height:1.4}\n"
	".tree a:hover{background:var(--soft);color:var(--fg);text-decoration:none}\n"
	".tree a[aria-current]{background:color-mix(in srgb,var(--primary) 10%,transparent);color:var(--primary);font-weight:550}\n"
	".tree summary{list-style:none;cursor:pointer;position:relative}\n"
	".tree summary::-webkit-details-marker{display:none}\n"
	".tree summary>a{padding-right:26px}\n"
	".tree summary::after{content:\"\";position:absolute;right:10px;top:50%;width:6px;height:6px;border-right:1.5px solid var(--muted);border-bottom:1.5px solid var(--muted);transform:translateY(-70%) rotate(-45deg);transition:transform .15s}\n"
	".tree details[open]>summary::after{transform:translateY(-70%) rotate(45deg)}\n"
	".nav-group{margin-top:18px!important}\n"
	".nav-group-title{padding:4px 10px;font-size:12px;font-weight:650;letter-spacing:.04em;text-transform:uppercase;color:var(--fg)}\n"
	".tree .nav-group>ul{margin-left:0;padding-left:0;border-left:0}\n"
	".content{flex:1 1 auto;min-width:0;padding:40px 56px 64px}\n"
	"article{max-width:72ch}\n"
	"article h1{font-size:2.1rem;line-height:1.2;margin:0 0 12px;letter-spacing:-.015em}\n"
	"article h2{font-size:1.5rem;line-height:1.3;margin:2.2em 0 .6em;padding-bottom:.25em;border-bottom:1px solid var(--border)}\n"
	"article h3{font-size:1.2rem;margin:1.8em 0 .5em}\n"
	"article h4,article h5,article h6{font-size:1rem;margin:1.5em 0 .5em}\n"
	"article :is(h2,h3,h4)[id]{scroll-margin-top:80px}\n"
	".lead{font-size:1.15rem;color:var(--muted);margin:0 0 28px}\n"
	"article p,article ul,article ol,article table,article pre,article blockquote,article figure,.hint,.tabs{margin:0 0 1.1em}\n"
	"article ul,article ol{padding-left:1.6em}\n"
	"article li{margin:.25em 0}\n"
	"article li>p{margin:0}\n"
	"article img{max-width:100%;height:auto;border-radius:var(--radius)}\n"
	"article hr{border:0;border-top:1px solid var(--border);margin:2em 0}\n"
	"article blockquote{margin-left:0;padding:2px 16px;border-left:3px solid var(--border);color:var(--muted)}\n"
	"code{font:.875em/1.5 var(--mono);background:var(--code-bg);border:1px solid var(--border);border-radius:5px;padding:.1em .35em}\n"
	"pre{background:var(--code-bg);border:1px solid var(--border);border-radius:var(--radius);padding:14px 16px;overflow-x:auto;line-height:1.5}\n"
	"pre code{background:none;border:0;padding:0;font-size:13.5px}\n"
	".code-block{margin:0 0 1.1em}\n"
	".code-block figcaption{font:13px var(--mono);color:var(--muted);padding:8px 16px;background:var(--soft);border:1px solid var(--border);border-bottom:0;border-radius:var(--radius) var(--radius) 0 0}\n"
	".code-block figcaption+pre{border-top-left-radius:0;border-top-right-radius:0}\n"
	".code-block pre{margin:0}\n"
	"table{border-collapse:collapse;display:block;overflow-x:auto;max-width:100%;font-size:15px}\n"
	"th,td{border:1px solid var(--border);padding:8px 12px;text-align:left;vertical-align:top}\n"
	"th{background:var(--soft);font-weight:600}\n"
	"li:has(>input[type=checkbox]){list-style:none;margin-left:-1.4em}\n"
	"input[type=checkbox]{margin-right:.4em}\n"
	".hint{position:relative;padding:12px 16px 12px 44px;border-radius:var(--radius);border:1px solid color-mix(in srgb,var(--hc) 30%,transparent);background:color-mix(in srgb,var(--hc) 8%,var(--bg))}\n"
	".hint>:last-child{margin-bottom:0}\n"
	".hint::before{position:absolute;left:14px;top:12px;width:20px;height:20px;border-radius:50%;background:var(--hc);color:#fff;font:700 13px/20px var(--font);text-align:center}\n"
	".hint-info{--hc:var(--info)}.hint-info::before{content:\"i\"}\n"
	".hint-success{--hc:var(--success)}.hint-success::before{content:\"\\2713\"}\n"
	".hint-warning{--hc:var(--warning)}.hint-warning::before{content:\"!\"}\n"
	".hint-danger{--hc:var(--danger)}.hint-danger::before{content:\"!\"}\n"
	".tabs{display:flex;flex-wrap:wrap;border:1px solid var(--border);border-radius:var(--radius);overflow:hidden}\n"
	".tabs>input{position:absolute;opacity:0;pointer-events:none}\n"
	".tabs>label{order:0;padding:8px 16px;cursor:pointer;color:var(--muted);font-size:14.5px;font-weight:550;border-bottom:2px solid transparent;background:var(--soft)}\n"
	".tabs>label:hover{color:var(--fg)}\n"
	".tabs>.tab-panel{order:1;display:none;width:100%;padding:16px;border-top:1px solid var(--border)}\n"
	".tabs>.tab-panel>:last-child{margin-bottom:0}\n"
	".tabs>input:checked+label{color:var(--primary);border-bottom-color:var(--primary);background:var(--bg)}\n"
	".tabs>input:checked+label+.tab-panel{display:block}\n"
	".tabs>input:focus-visible+label{outline:2px solid var(--primary)}\n"
	".embed a{display:block;padding:12px 16px;border:1px solid var(--border);border-radius:var(--radius);overflow:hidden;text-overflow:ellipsis}\n"
	".block-content-ref>p{padding:12px 16px;border:1px solid var(--border);border-radius:var(--radius)}\n"
	".toc{position:sticky;top:var(--hh);flex:0 0 240px;max-height:calc(100vh - var(--hh));overflow-y:auto;padding:40px 24px 40px 8px;font-size:13.5px}\n"
	".toc-title{margin:0 0 8px;font-size:12px;font-weight:650;letter-spacing:.04em;text-transform:uppercase;color:var(--fg)}\n"
	".toc ul{list-style:none;margin:0;padding:0 0 0 12px;border-left:1px solid var(--border)}\n"
	".toc li{margin:6px 0}\n"
	".toc a{color:var(--muted)}\n"
	".edit-link{float:right;margin:4px 0 8px 12px;padding:3px 12px;font-size:13px;border:1px solid var(--border);border-radius:var(--radius);color:var(--fg)}\n"
	".edit-link:hover{border-color:var(--primary);text-decoration:none}\n"
	".toc a:hover{color:var(--primary);text-decoration:none}\n"
	".toc .toc-sub{padding-left:12px}\n"
	"@media (max-width:1200px){.toc{display:none}}\n"
	".pager{display:flex;gap:16px;max-width:72ch;margin-top:48px}\n"
	".pager a{flex:1;display:flex;flex-direction:column;padding:14px 18px;border:1px solid var(--border);border-radius:var(--radius);color:var(--fg)}\n"
	".pager a:hover{border-color:var(--primary);text-decoration:none}\n"
	".pager small{color:var(--muted);font-size:13px}\n"
	".pager span{font-weight:600;color:var(--primary)}\n"
	".pager .next{text-align:right}\n"
	".pager .next:only-child{margin-left:auto;max-width:50%}\n"
	".results{list-style:none;padding:0}\n"
	".results li{padding:14px 0;border-bottom:1px solid var(--border)}\n"
	".results a{font-weight:600;font-size:1.05rem}\n"
	".results p{margin:.3em 0 0;color:var(--muted);font-size:15px}\n"
	".result-space{margin-left:8px;font-size:12px;color:var(--muted);border:1px solid var(--border);border-radius:999px;padding:1px 8px}\n"
	".site-footer{border-top:1px solid var(--border);margin-top:24px;font-size:14px;color:var(--muted)}\n"
	".footer-inner{max-width:1440px;margin:0 auto;padding:32px 24px}\n"
	".footer-groups{display:flex;flex-wrap:wrap;gap:48px;margin-bottom:24px}\n"
	".footer-group h2{font-size:13px;text-transform:uppercase;letter-spacing:.04em;color:var(--fg);margin:0 0 8px}\n"
	".footer-group ul{list-style:none;margin:0;padding:0}\n"
	".footer-group li{margin:4px 0}\n"
	".footer-group a{color:var(--muted)}\n"
	".copyright{margin:0}\n"
	/* Readers' features (seo.c): theme toggle, breadcrumbs, last updated, the outline's
	 * current section, search as you type (site.js). */
	".theme-toggle{display:flex;gap:2px;padding:2px;border:1px solid var(--border);border-radius:var(--radius);background:var(--soft);flex:none}\n"
	".theme-toggle a{display:block;padding:3px 8px;border-radius:6px;font-size:12.5px;color:var(--muted);line-height:1.4}\n"
	".theme-toggle a:hover{text-decoration:none;color:var(--fg)}\n"
	".theme-toggle .ti{display:none}\n"
	".theme-toggle a[aria-current]{background:var(--bg);color:var(--fg);box-shadow:0 1px 2px rgba(0,0,0,.12)}\n"
	".breadcrumbs ol{display:flex;flex-wrap:wrap;list-style:none;margin:0 0 6px;padding:0;font-size:13.5px;color:var(--muted)}\n"
	".breadcrumbs li+li::before{content:\"/\";margin:0 8px;color:var(--border)}\n"
	".breadcrumbs a{color:var(--muted)}\n"
	".last-updated{margin:40px 0 0;font-size:13px;color:var(--muted)}\n"
	".toc a.active{color:var(--primary);font-weight:600}\n"
	".search{position:relative}\n"
	".search-results{position:absolute;top:calc(100% + 6px);right:0;width:min(420px,92vw);max-height:70vh;overflow-y:auto;z-index:30;background:var(--bg);border:1px solid var(--border);border-radius:var(--radius);box-shadow:0 8px 28px rgba(0,0,0,.16);padding:6px}\n"
	".search-results[hidden]{display:none}\n"
	".search-results a{display:block;padding:8px 10px;border-radius:6px;color:var(--fg)}\n"
	".search-results a:hover,.search-results a:focus{background:var(--soft);text-decoration:none;outline:none}\n"
	".search-results strong{display:block;font-size:14px;font-weight:600}\n"
	".search-results span{display:block;font-size:13px;color:var(--muted);overflow:hidden;text-overflow:ellipsis;white-space:nowrap}\n"
	".search-results p{margin:8px 10px;font-size:13.5px;color:var(--muted)}\n"
	".search input:focus~kbd,.search input:not(:placeholder-shown)~kbd{display:none}\n"
	".search kbd{position:absolute;right:8px;top:50%;transform:translateY(-50%);font:11px var(--mono);color:var(--muted);border:1px solid var(--border);border-radius:4px;padding:0 4px;pointer-events:none}\n"
	"@media (max-width:900px){\n"
	".nav-button{display:block}\n"
	".header-inner{padding:0 16px;gap:12px}\n"
	".header-links{display:none}\n"
	".search{flex:0 1 150px;margin-left:auto}\n"
	".theme-toggle a{padding:2px 6px}\n"
	".theme-toggle .tl{display:none}\n"
	".theme-toggle .ti{display:inline;font-size:14px}\n"
	".search kbd{display:none}\n"
	".search-results{position:fixed;top:calc(var(--hh) + 4px);left:8px;right:8px;width:auto;max-height:calc(100vh - var(--hh) - 16px)}\n"
	".sections{padding:0 16px}\n"
	".sidebar{position:fixed;top:0;left:0;bottom:0;height:auto;width:85%;max-width:320px;z-index:20;padding-top:52px;background:var(--bg);transform:translateX(-100%);visibility:hidden;transition:transform .2s,visibility .2s}\n"
	".nav-toggle:checked+.sidebar{transform:none;visibility:visible;box-shadow:0 0 24px rgba(0,0,0,.15)}\n"
	".nav-close{display:block;position:absolute;top:8px;right:12px;font-size:28px;line-height:1;color:var(--muted);cursor:pointer;padding:4px 8px}\n"
	".nav-toggle:checked~.nav-backdrop{display:block;position:fixed;inset:0;z-index:15;background:rgba(0,0,0,.35)}\n"
	".content{padding:28px 20px 48px}\n"
	"article h1{font-size:1.75rem}\n"
	".pager{flex-direction:column}\n"
	/* A table wider than a phone scrolls in its own box; without a floor its cells shrink to
	 * their longest word and the last columns read one word (or letter) per line. */
	"th,td{min-width:7em}\n"
	"th:last-child,td:last-child{min-width:12em}\n"
	"}\n"
	"@media print{.site-header,.sidebar,.pager,.site-footer{display:none}.content{padding:0}}\n"
	/* GitBook's blocks (md_html.c, format/html_allow.c): blocks_css.h. */
	SITE_BLOCKS_CSS;

const size_t site_css_len = sizeof(site_css) - 1;

static char css_version[17];
static pthread_once_t css_once = PTHREAD_ONCE_INIT;

static void css_hash(void)
{
	char hex[65];

	if (sha256_hex(hex, site_css, site_css_len) == 0)
		memcpy(css_version, hex, 16);
	else
		memcpy(css_version, "0", 2);
}

const char *site_css_version(void)
{
	pthread_once(&css_once, css_hash);
	return css_version;
}

/* docsd's one script: progressive enhancement only (every page works
 * without it). Search as you type from {search form action}.json (the same
 * search and access rules as the form), Ctrl/Cmd+K focuses the search box,
 * and the outline ("On this page") marks the section being read. It asks
 * nothing of the web interface, which is another origin (README, "Two
 * origins"): the page's "Edit" link is a plain link (render.c). Served
 * from docsd's own file, allowed by the CSP's script-src 'self' and
 * connect-src 'self'. */
const char site_js[] =
	"(function(){'use strict';\n"
	"var f=document.querySelector('form.search'),i=f&&f.querySelector('input[name=q]');\n"
	"if(i){\n"
	"var box=document.createElement('div'),t=0,last='',seq=0;\n"
	"box.className='search-results';box.hidden=true;box.setAttribute('role','listbox');f.appendChild(box);\n"
	"i.setAttribute('autocomplete','off');\n"
	"var k=document.createElement('kbd');k.textContent=/Mac|iP/.test(navigator.platform)?'\\u2318K':'Ctrl K';f.appendChild(k);\n"
	"var show=function(q,rs){box.textContent='';\n"
	" if(!rs.length){var p=document.createElement('p');p.textContent='No results for \\u201c'+q+'\\u201d';box.appendChild(p);}\n"
	" rs.forEach(function(h){var a=document.createElement('a'),s=document.createElement('strong');a.href=h.url;a.setAttribute('role','option');\n"
	"  s.textContent=h.title+(h.section?' \\u203a '+h.section:'');a.appendChild(s);\n"
	"  if(h.excerpt||h.space){var e=document.createElement('span');e.textContent=(h.space?h.space+' \\u00b7 ':'')+(h.excerpt||'');a.appendChild(e);}\n"
	"  box.appendChild(a);});box.hidden=false;};\n"
	"var run=function(){var q=i.value.trim();if(q===last)return;last=q;var n=++seq;\n"
	" if(!q){box.hidden=true;box.textContent='';return;}\n"
	" fetch(f.getAttribute('action')+'.json?q='+encodeURIComponent(q),{credentials:'same-origin',headers:{Accept:'application/json'}})\n"
	"  .then(function(r){return r.ok?r.json():null;}).then(function(d){if(d&&n===seq)show(q,d.results||[]);}).catch(function(){});};\n"
	"i.addEventListener('input',function(){clearTimeout(t);t=setTimeout(run,120);});\n"
	"i.addEventListener('focus',function(){if(box.childNodes.length&&i.value.trim())box.hidden=false;});\n"
	"f.addEventListener('keydown',function(e){var l=[].slice.call(box.querySelectorAll('a')),x=l.indexOf(document.activeElement);\n"
	" if(e.key==='ArrowDown'&&l.length){e.preventDefault();(l[x+1]||l[0]).focus();}\n"
	" else if(e.key==='ArrowUp'&&l.length){e.preventDefault();(x>0?l[x-1]:i).focus();}\n"
	" else if(e.key==='Escape'){box.hidden=true;i.focus();}});\n"
	"document.addEventListener('click',function(e){if(!f.contains(e.target))box.hidden=true;});\n"
	"document.addEventListener('keydown',function(e){if((e.ctrlKey||e.metaKey)&&!e.altKey&&(e.key==='k'||e.key==='K')){e.preventDefault();i.focus();i.select();}});\n"
	"}\n"
	"var links=[].slice.call(document.querySelectorAll('.toc a[href^=\"#\"]'));\n"
	"if(links.length){var hs=links.map(function(a){return document.getElementById(decodeURIComponent(a.getAttribute('href').slice(1)));}),cur=null,q=false;\n"
	"var mark=function(){q=false;var at=0;for(var j=0;j<hs.length;j++){if(hs[j]&&hs[j].getBoundingClientRect().top<120)at=j;}\n"
	" if(cur!==links[at]){if(cur){cur.classList.remove('active');cur.removeAttribute('aria-current');}cur=links[at];cur.classList.add('active');cur.setAttribute('aria-current','location');}};\n"
	"window.addEventListener('scroll',function(){if(!q){q=true;requestAnimationFrame(mark);}},{passive:true});mark();}\n"
	"})();\n";

const size_t site_js_len = sizeof(site_js) - 1;

static char js_version[17];
static pthread_once_t js_once = PTHREAD_ONCE_INIT;

static void js_hash(void)
{
	char hex[65];

	if (sha256_hex(hex, site_js, site_js_len) == 0)
		memcpy(js_version, hex, 16);
	else
		memcpy(js_version, "0", 2);
}

const char *site_js_version(void)
{
	pthread_once(&js_once, js_hash);
	return js_version;
}
