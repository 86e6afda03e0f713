/*
 * pdf.h - documentation pages (markdown) rendered to a PDF file.
 *
 * pdf_render() lays out a title page with the document title, then every page in
 * order: its title as a heading sized by depth, then its markdown body parsed with
 * cmark-gfm (tables, strikethrough, task lists and autolinks enabled). Text is set
 * with pango in DejaVu Sans / DejaVu Sans Mono on A4 with 2 cm margins, wrapped to
 * the page width; a new PDF page starts when the next line or block does not fit,
 * and every top-level page (depth 0) starts on a fresh PDF page.
 *
 * Images are asked for through a callback. Bytes with the PNG signature are
 * decoded and drawn scaled to fit the column (and the page height); anything else
 * (other formats, unknown URLs, invalid or oversized PNGs, images in table cells)
 * prints the alt text in italics as "[image: alt]".
 *
 * Any input is accepted: invalid UTF-8 is replaced, nesting deeper than the
 * renderer indents is flattened to plain text, over-long lines wrap.
 */
#ifndef DOCSD_FORMAT_PDF_H
#define DOCSD_FORMAT_PDF_H

#include <stddef.h>

struct pdf_page {
	const char *title;    /* NULL reads as "" */
	const char *markdown; /* NULL reads as "" */
	int depth;            /* 0 = top level; deeper pages get smaller titles */
};

/*
 * Look up the bytes of an image referenced as /files/<id> (or any other URL
 * string); return 0 and set *data, *len and *content_type (which may be left
 * NULL), or a negative value when the image is unknown. The bytes belong to the
 * callee's ctx and must stay valid until pdf_render() returns.
 */
typedef int (*pdf_image_fn)(void *ctx, const char *url, const unsigned char **data, size_t *len,
			    const char **content_type);

/*
 * Render pages[0..n) in order to a new PDF file at path (replaced if it exists).
 * image may be NULL: every image then prints its alt text. Returns 0, ERR_INVALID
 * for a NULL path (or NULL pages with n > 0), or ERR_INTERNAL when cairo, pango or
 * cmark fail (message in err_message()); on failure the file is removed.
 */
int pdf_render(const char *path, const char *doc_title, const struct pdf_page *pages, size_t n,
	       pdf_image_fn image, void *ctx);

#endif
