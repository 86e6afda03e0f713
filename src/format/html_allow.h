/*
 * html_allow.h - raw HTML in a page, made safe to publish: parsed by a real
 * HTML parser (libxml2's, forgiving as browsers are) and written back with
 * only an allowlist of elements, attributes and URL schemes.
 *
 * Rules for untrusted input, in order:
 *   - Elements whose content is code, another document or a form
 *     (script, style, iframe, object, embed, svg, math, template, form,
 *     textarea, select, noscript, head elements, ...) go with everything in
 *     them. Other elements not on the list go but their content stays
 *     (as the allowed elements and text it holds).
 *   - Attributes not on the list go: every on* handler, style, srcdoc,
 *     formaction, xlink:href... An allowed URL attribute (href, src, cite,
 *     poster, srcset candidates) keeps only http:, https:, mailto:, tel:,
 *     relative URLs and fragments, and for img/source data:image/ (png,
 *     gif, jpeg, webp: never svg); the scheme is read as browsers read it
 *     (ASCII whitespace and controls inside it ignored, any case).
 *   - Comments, processing instructions and CDATA go; text is escaped.
 *   - Nesting deeper than HTML_ALLOW_MAX_DEPTH keeps only the text.
 *   - Output is well-formed: every element written is closed, and it is a
 *     fixed point: read again, it comes back byte for byte (libxml2's
 *     implicit closes are settled by another pass).
 * GitBook's own markup gets its meaning: a table with data-view="cards"
 * becomes a grid of cards (the data-card-target column is the card's link,
 * data-card-cover its image), <a class="button ..."> a button, <picture>
 * keeps its <source media=...> (dark-mode images). Pure: no I/O.
 */
#ifndef DOCSD_FORMAT_HTML_ALLOW_H
#define DOCSD_FORMAT_HTML_ALLOW_H

#include <stddef.h>

#include "util/buf.h"

#define HTML_ALLOW_MAX_DEPTH 64

/* Where a URL of the HTML leads (a Git-synced asset path, /files/<id>,
 * a relative page link): NULL keeps it as written. Called only for URLs
 * without a scheme that do not start with '#' or "//". */
typedef const char *(*html_url_fn)(void *ctx, const char *url);

/* html[0..len), an HTML fragment, written safe into out (see above). url
 * may be NULL. 0, or -1 when libxml2 fails (nothing written; the error
 * set): the caller must then write nothing of html. */
int html_allow(struct buf *out, const char *html, size_t len, html_url_fn url, void *ctx);

/* Whether url (an attribute's value) is one html_allow keeps; image: an
 * img or source URL (data:image/ allowed). */
int html_url_allowed(const char *url, int image);

#endif
