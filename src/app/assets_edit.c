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
 *
 * In the markdown textarea (still a textarea): Tab and Shift+Tab indent and
 * outdent the selected lines (two spaces; Escape then Tab leaves the text,
 * so the keyboard is never trapped), Enter continues a list item (an empty
 * one ends the list), Ctrl+S / Cmd+S submits the form as its Save button.
 * Edits go through execCommand('insertText') where the browser has it, so
 * undo keeps working.
 *
 * In the pages list (GET .../~/edit): a document or group page dragged onto
 * another page submits the same POST as its editor's Move form (the
 * session's CSRF token, parent, position, and back=index to come back to
 * the list): onto the middle of a page puts it inside (last), onto its top
 * or bottom quarter before or after it. The editor's Move form stays the
 * way without script or a mouse.
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
	"fetch(url,{method:'POST',credentials:'same-origin',headers:{'X-CSRF-Token':tok.value,'Content-Type':'application/x-www-form-urlencoded'},body:body.toString()})\n"
	".then(function(r){if(!r.ok)throw new Error('preview '+r.status);return r.text();})\n"
	".then(function(h){if(n===seq){box.innerHTML=h;box.removeAttribute('aria-busy');box.classList.remove('stale');}})\n"
	".catch(function(){if(n===seq){box.removeAttribute('aria-busy');box.classList.add('stale');}});}\n"
	"ta.addEventListener('input',function(){dirty=true;clearTimeout(timer);timer=setTimeout(run,300);});\n"
	"form.addEventListener('submit',function(){dirty=false;});\n"
	"window.addEventListener('beforeunload',function(e){if(dirty){e.preventDefault();e.returnValue='';}});\n"
	"var pb=form.querySelector('.pv-button');if(pb)pb.hidden=true;\n"
	"})();\n"
	"(function(){'use strict';\n"
	"var ta=document.querySelector('form.editor textarea[name=markdown]');if(!ta)return;\n"
	"var form=ta.form,esc=false,keys=document.getElementById('md-keys');if(keys)keys.hidden=false;\n"
	"function put(a,b,text,s,e){ta.focus();ta.setSelectionRange(a,b);\n"
	"var ok=false;try{ok=document.execCommand('insertText',false,text);}catch(x){ok=false;}\n"
	"if(!ok||ta.value.slice(a,a+text.length)!==text){ta.setRangeText(text,a,b,'end');ta.dispatchEvent(new Event('input',{bubbles:true}));}\n"
	"ta.setSelectionRange(s,e);}\n"
	"function indent(out){var v=ta.value,s=ta.selectionStart,t=ta.selectionEnd;\n"
	"var a=v.lastIndexOf('\\n',s-1)+1,end=(t>s&&v.charAt(t-1)==='\\n')?t-1:t,b=v.indexOf('\\n',end);if(b<0)b=v.length;\n"
	"var lines=v.slice(a,b).split('\\n'),first=0,all=0;\n"
	"for(var i=0;i<lines.length;i++){var l=lines[i],n;\n"
	"if(out){n=l.slice(0,2)==='  '?2:(l.charAt(0)===' '||l.charAt(0)==='\\t')?1:0;lines[i]=l.slice(n);}else{n=-2;lines[i]='  '+l;}\n"
	"if(i===0)first=n;all+=n;}\n"
	"var text=lines.join('\\n');if(text===v.slice(a,b))return;\n"
	"if(out){var ns=Math.max(a,s-first);put(a,b,text,ns,Math.max(ns,t-all));}else put(a,b,text,s+2,t-all);}\n"
	"function listItem(){var v=ta.value,s=ta.selectionStart,a=v.lastIndexOf('\\n',s-1)+1,line=v.slice(a,s);\n"
	"var m=/^([ \\t]*)([-*+]|(\\d{1,9})([.)]))([ \\t]+)(\\[[ xX]\\][ \\t]+)?/.exec(line);if(!m)return false;\n"
	"if(line.length===m[0].length&&v.slice(s,v.indexOf('\\n',s)<0?v.length:v.indexOf('\\n',s)).trim()===''){put(a,s,'',a,a);return true;}\n"
	"var mark=m[3]?(parseInt(m[3],10)+1)+m[4]:m[2],ins='\\n'+m[1]+mark+m[5]+(m[6]?'[ ] ':'');\n"
	"put(s,s,ins,s+ins.length,s+ins.length);return true;}\n"
	"ta.addEventListener('keydown',function(e){\n"
	"if(e.key==='Escape'){esc=true;return;}\n"
	"if(e.key==='Tab'&&!e.ctrlKey&&!e.altKey&&!e.metaKey){if(esc){esc=false;return;}e.preventDefault();indent(e.shiftKey);return;}\n"
	"esc=false;\n"
	"if(e.key==='Enter'&&!e.shiftKey&&!e.ctrlKey&&!e.altKey&&!e.metaKey&&!e.isComposing&&ta.selectionStart===ta.selectionEnd&&listItem())e.preventDefault();});\n"
	"document.addEventListener('keydown',function(e){\n"
	"if((e.ctrlKey||e.metaKey)&&!e.altKey&&!e.shiftKey&&(e.key==='s'||e.key==='S')){e.preventDefault();\n"
	"var save=form.querySelector('button[name=action][value=save]');if(form.requestSubmit)form.requestSubmit(save||undefined);else if(save)save.click();else form.submit();}});\n"
	"})();\n"
	"(function(){'use strict';\n"
	"var tree=document.querySelector('main>ul.write-tree'),tok=document.querySelector('input[name=csrf]');\n"
	"if(!tree||!tok||!('draggable' in document.createElement('span')))return;\n"
	"var hint=document.getElementById('dnd-hint');if(hint)hint.hidden=false;\n"
	"var dragged=null,rows=tree.querySelectorAll('li[data-move]');\n"
	"for(var i=0;i<rows.length;i++){var h=rows[i].firstElementChild;h.draggable=true;h.classList.add('drag');}\n"
	"function row(t){while(t&&t!==tree){if(t.nodeType===1&&t.tagName==='LI'&&t.hasAttribute('data-page'))return t;t=t.parentNode;}return null;}\n"
	"function where(li,e){var r=li.firstElementChild.getBoundingClientRect(),y=(e.clientY-r.top)/(r.height||1);\n"
	"if(y<0.25)return 'before';if(y>0.75)return 'after';return li.hasAttribute('data-move')?'inside':(y<0.5?'before':'after');}\n"
	"function clear(){var m=tree.querySelectorAll('.drop-before,.drop-after,.drop-inside');for(var i=0;i<m.length;i++)m[i].classList.remove('drop-before','drop-after','drop-inside');}\n"
	"function target(e){var li=row(e.target);return dragged&&li&&li!==dragged&&!dragged.contains(li)?li:null;}\n"
	"tree.addEventListener('dragstart',function(e){var li=row(e.target);if(!li||!li.hasAttribute('data-move'))return;dragged=li;\n"
	"e.dataTransfer.effectAllowed='move';e.dataTransfer.setData('text/plain',li.getAttribute('data-page'));li.classList.add('dragging');});\n"
	"tree.addEventListener('dragend',function(){if(dragged)dragged.classList.remove('dragging');dragged=null;clear();});\n"
	"tree.addEventListener('dragover',function(e){var li=target(e);if(!li)return;e.preventDefault();e.dataTransfer.dropEffect='move';clear();li.classList.add('drop-'+where(li,e));});\n"
	"tree.addEventListener('drop',function(e){var li=target(e);if(!li)return;e.preventDefault();\n"
	"var w=where(li,e),parent='',pos='';\n"
	"if(w==='inside')parent=li.getAttribute('data-page');\n"
	"else{var up=row(li.parentNode);parent=up?up.getAttribute('data-page'):'';\n"
	"var k=0;for(var c=li.parentNode.firstElementChild;c&&c!==li;c=c.nextElementSibling)if(c!==dragged)k++;\n"
	"pos=String(k+(w==='after'?2:1));}\n"
	"var f=document.createElement('form');f.method='post';f.action=dragged.getAttribute('data-move');f.hidden=true;\n"
	"[['csrf',tok.value],['parent',parent],['position',pos],['back','index']].forEach(function(x){var i=document.createElement('input');i.type='hidden';i.name=x[0];i.value=x[1];f.appendChild(i);});\n"
	"document.body.appendChild(f);clear();f.submit();});\n"
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
	/* edit.js's drag and drop in the pages list. */
	"ul.write-tree li>span{display:inline-block;padding:0 .25rem;border-radius:4px}\n"
	"ul.write-tree .drag{cursor:grab}ul.write-tree li.dragging>span{opacity:.5}\n"
	"ul.write-tree li.drop-inside>span{outline:2px dashed var(--accent);outline-offset:1px}\n"
	"ul.write-tree li.drop-before>span{box-shadow:0 -3px 0 var(--accent)}\n"
	"ul.write-tree li.drop-after>span{box-shadow:0 3px 0 var(--accent)}\n"
	".keys{font-size:.85rem;margin:.3rem 0 0}\n"
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
