/*
 * html_markdown.h - one web page as markdown, for website import.
 *
 * The page is parsed with libxml2's HTML parser (htmlReadMemory with RECOVER,
 * NOERROR, NOWARNING and NONET: malformed pages parse the way browsers repair
 * them, nothing is printed, nothing is fetched). Its main content is the
 * first <main> (or element with role="main"), else the first <article>, else
 * <body>. Inside it, nav, script, style, template, noscript, iframe, svg, form
 * controls, hidden elements (hidden, aria-hidden="true") and, outside an
 * <article> or <main>, header and footer are skipped.
 *
 * What becomes what:
 *   h1-h6 -> "#".."######"; p and inline runs -> paragraphs; ul/ol (nested,
 *   ol's start kept) -> "- " / "N. " lists, tight unless an item holds
 *   paragraphs; pre -> a fenced code block, its language from class
 *   "language-x" (or "lang-x") on the pre or its code; code/kbd/samp ->
 *   code spans; em/i -> *x*; strong/b -> **x**; del/s -> ~~x~~; br -> a hard
 *   break (a space in headings and table cells); a -> [text](url);
 *   img -> ![alt](url); table -> a GFM table (its first row is the header,
 *   colspan gives empty cells, block content of cells is flattened);
 *   blockquote -> "> "; hr -> "---" ("***" first in the page, where "---"
 *   would open frontmatter); div, section, figure... -> their blocks.
 * Text is whitespace-collapsed and escaped so that it stays text (\* \_ \[ ...,
 * and block markers at the start of a line). Containers nested deeper than
 * HTML_MD_MAX_DEPTH become a paragraph of their text.
 *
 * URLs of links and images are resolved against the page's URL (and its
 * <base href>) by format/weburl.h and written in weburl's normal form, '(' ')'
 * backslash-escaped and an entity-like '&' as "&amp;": md_links (format/markdown.h) reads
 * them back as exactly the normal form, so a caller can map them to other
 * targets with md_rewrite_links. A link that is not http(s) keeps only its
 * text (mailto: links stay links); an image that is not http(s) is dropped.
 */
#ifndef DOCSD_FORMAT_HTML_MARKDOWN_H
#define DOCSD_FORMAT_HTML_MARKDOWN_H

#include <stdbool.h>
#include <stddef.h>

#include "util/arena.h"

#define HTML_MD_MAX_BYTES ((size_t)1 << 20) /* markdown of one page */
#define HTML_MD_MAX_DEPTH 32                /* nested containers converted */
#define HTML_MD_MAX_LINKS 2000              /* links listed per page */
#define HTML_MD_MAX_IMAGES 500              /* images listed per page */

struct html_md {
	char *title;          /* the content's first <h1>, else <title>, as plain text;
	                       * NULL when neither has any */
	char *markdown;       /* NUL-terminated, ends with "\n" unless empty */
	size_t len;
	bool truncated;       /* the markdown reached HTML_MD_MAX_BYTES: content is missing */
	const char **links;   /* every <a href> of the whole document (navigation too) that
	                       * resolves to http(s): normal form, fragment kept, document
	                       * order, repeats included (at most HTML_MD_MAX_LINKS) */
	size_t nlinks;
	const char **images;  /* distinct image URLs of the markdown, in order of appearance */
	size_t nimages;
};

/*
 * Convert len bytes of HTML fetched from url (an absolute http(s) URL in
 * weburl's normal form) into *out; everything in out belongs to a. The
 * encoding is the page's own (BOM, <meta charset>; Latin-1 and ASCII labels
 * read as windows-1252), else UTF-8 when the bytes are valid UTF-8, else
 * windows-1252, as browsers read a page that names none; the output is always
 * valid UTF-8 (bytes that are no document at all are an empty page).
 * Returns 0; ERR_INVALID for a page past INT_MAX bytes, a declared charset
 * that cannot be decoded, or text not valid in the charset it declares
 * (messages start "url: "); ERR_INTERNAL when libxml2 cannot be initialized
 * (util/err.h).
 */
int html_to_markdown(struct arena *a, const char *html, size_t len, const char *url, struct html_md *out);

#endif
