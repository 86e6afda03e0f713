/*
 * blocks_css.h - the stylesheet of GitBook's blocks on published pages
 * (site/md_html.c writes them, format/html_allow.c keeps GitBook's raw
 * HTML): steppers, columns, content references, files, embeds, code
 * options, diagrams, math, cards, expandables, figures, marks and keys.
 * One string literal, appended to the site's one stylesheet (assets.c),
 * so a page still loads a single CSS file. Colors are the site's variables,
 * so light and dark themes both apply.
 */
#ifndef DOCSD_SITE_BLOCKS_CSS_H
#define DOCSD_SITE_BLOCKS_CSS_H

#define SITE_BLOCKS_CSS \
	".stepper,.columns,.content-ref,.file-block,.cards,.diagram,.math-display,article details{margin:0 0 1.1em}\n" \
	".stepper{list-style:none;padding:0;counter-reset:step}\n" \
	".step{position:relative;padding:0 0 8px 44px;counter-increment:step}\n" \
	".step::before{content:counter(step);position:absolute;left:0;top:0;width:28px;height:28px;border-radius:50%;background:color-mix(in srgb,var(--primary) 14%,var(--bg));color:var(--primary);font:600 14px/28px var(--font);text-align:center}\n" \
	".step:not(:last-child)::after{content:\"\";position:absolute;left:13.5px;top:34px;bottom:4px;border-left:1px solid var(--border)}\n" \
	".step-body>:first-child{margin-top:2px}\n" \
	".step-body h2,.step-body h3{margin-top:0;border:0;font-size:1.1rem}\n" \
	".columns{display:flex;gap:24px;align-items:flex-start}\n" \
	".column{flex:1 1 0;min-width:0}\n" \
	".column>:last-child,.step-body>:last-child,.file-caption>:last-child,.card-cell>:last-child{margin-bottom:0}\n" \
	".content-ref{border:1px solid var(--border);border-radius:var(--radius);padding:12px 16px;background:var(--soft)}\n" \
	".content-ref p{margin:0}\n" \
	".content-ref a{font-weight:600}\n" \
	".content-ref a::before{content:\"\\2197  \";color:var(--muted)}\n" \
	".file-block{display:flex;flex-wrap:wrap;align-items:center;gap:4px 12px;border:1px solid var(--border);border-radius:var(--radius);padding:12px 16px}\n" \
	".file-link{font-weight:600;word-break:break-all}\n" \
	".file-link::before{content:\"\\2193  \";color:var(--muted)}\n" \
	".file-caption{color:var(--muted);font-size:14px}\n" \
	".file-caption p{margin:0}\n" \
	".embed a.embed-card{display:flex;flex-direction:column;gap:2px;border:1px solid var(--border);border-radius:var(--radius);padding:12px 16px;color:var(--fg)}\n" \
	".embed-card:hover{border-color:var(--primary);text-decoration:none}\n" \
	".embed-provider{font-size:12px;font-weight:650;letter-spacing:.04em;text-transform:uppercase;color:var(--muted)}\n" \
	".embed-url{color:var(--primary);word-break:break-all}\n" \
	".code-block.wrap pre{white-space:pre-wrap;word-break:break-word}\n" \
	".line-numbers code{counter-reset:line}\n" \
	".line-numbers .line{display:block;position:relative;padding-left:3.6em;min-height:1.5em}\n" \
	".line-numbers .line::before{counter-increment:line;content:counter(line);position:absolute;left:0;width:2.4em;padding-right:8px;text-align:right;color:var(--muted);border-right:1px solid var(--border);user-select:none}\n" \
	".diagram figcaption{font-size:13px;color:var(--muted);padding:6px 16px;background:var(--soft);border:1px solid var(--border);border-bottom:0;border-radius:var(--radius) var(--radius) 0 0}\n" \
	".diagram pre{margin:0;border-top-left-radius:0;border-top-right-radius:0}\n" \
	".math{font-family:var(--mono);font-size:.95em}\n" \
	".math-display{display:block;text-align:center;padding:12px;overflow-x:auto;font-family:var(--mono)}\n" \
	".cards{display:grid;align-items:start;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:16px}\n" \
	".card{position:relative;display:flex;flex-direction:column;border:1px solid var(--border);border-radius:var(--radius);overflow:hidden;background:var(--bg)}\n" \
	".card:hover{border-color:var(--primary)}\n" \
	"article .card-cover{width:100%;aspect-ratio:16/9;object-fit:cover;border-radius:0;background:var(--soft)}\n" \
	".card-body{padding:12px 16px}\n" \
	".card-cell{margin-bottom:4px}\n" \
	".card-cell:not(:first-child){color:var(--muted);font-size:14px}\n" \
	".card-link{position:absolute;inset:0;z-index:1}\n" \
	".card a:not(.card-link){position:relative;z-index:2}\n" \
	"article details{border:1px solid var(--border);border-radius:var(--radius);padding:0 16px}\n" \
	"article details>summary{cursor:pointer;padding:10px 0;font-weight:600}\n" \
	"article details[open]>summary{border-bottom:1px solid var(--border);margin-bottom:12px}\n" \
	"article figure{margin-left:0;margin-right:0}\n" \
	"article figure>figcaption{font-size:14px;color:var(--muted);text-align:center;margin-top:6px}\n" \
	"article figure>figcaption p{margin:0}\n" \
	"article mark{background:color-mix(in srgb,var(--warning) 30%,transparent);color:inherit;border-radius:3px;padding:0 2px}\n" \
	"article kbd{font:.8em var(--mono);border:1px solid var(--border);border-bottom-width:2px;border-radius:4px;padding:.1em .4em;background:var(--soft)}\n" \
	"article a.button{margin:0 6px 6px 0}\n" \
	"article a.button.secondary{background:var(--soft)}\n" \
	/* highlight.js's token classes, in the site's colors (its own themes are not loaded). */ \
	".hljs-keyword,.hljs-selector-tag,.hljs-built_in,.hljs-type{color:#cf222e}\n" \
	".hljs-string,.hljs-regexp,.hljs-addition{color:#0a3069}\n" \
	".hljs-comment,.hljs-quote{color:var(--muted);font-style:italic}\n" \
	".hljs-number,.hljs-literal,.hljs-variable,.hljs-attr,.hljs-symbol{color:#0550ae}\n" \
	".hljs-title,.hljs-section,.hljs-name,.hljs-function .hljs-title{color:#8250df}\n" \
	".hljs-meta,.hljs-deletion{color:#953800}\n" \
	"[data-theme=dark] .hljs-keyword,[data-theme=dark] .hljs-selector-tag,[data-theme=dark] .hljs-built_in,[data-theme=dark] .hljs-type{color:#ff7b72}\n" \
	"[data-theme=dark] .hljs-string,[data-theme=dark] .hljs-regexp,[data-theme=dark] .hljs-addition{color:#a5d6ff}\n" \
	"[data-theme=dark] .hljs-number,[data-theme=dark] .hljs-literal,[data-theme=dark] .hljs-variable,[data-theme=dark] .hljs-attr,[data-theme=dark] .hljs-symbol{color:#79c0ff}\n" \
	"[data-theme=dark] .hljs-title,[data-theme=dark] .hljs-section,[data-theme=dark] .hljs-name{color:#d2a8ff}\n" \
	"[data-theme=dark] .hljs-meta,[data-theme=dark] .hljs-deletion{color:#ffa657}\n" \
	"@media (prefers-color-scheme:dark){[data-theme=auto] .hljs-keyword,[data-theme=auto] .hljs-built_in,[data-theme=auto] .hljs-type{color:#ff7b72}[data-theme=auto] .hljs-string{color:#a5d6ff}[data-theme=auto] .hljs-number,[data-theme=auto] .hljs-literal,[data-theme=auto] .hljs-attr{color:#79c0ff}[data-theme=auto] .hljs-title{color:#d2a8ff}[data-theme=auto] .hljs-meta{color:#ffa657}}\n" \
	".visually-hidden{position:absolute!important;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}\n" \
	".content.wide article{max-width:none}\n" \
	"article .page-cover{display:block;width:100%;height:220px;object-fit:cover;border-radius:var(--radius);margin:0 0 24px}\n" \
	"@media (max-width:700px){.columns{flex-direction:column;gap:0}.column{flex:1 1 auto!important;width:100%}.cards{grid-template-columns:1fr}}\n"

#endif
