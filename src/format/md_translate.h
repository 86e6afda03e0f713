/*
 * md_translate.h - translating a page's markdown text node by text node,
 * through cmark-gfm's tree, so that everything but the words stays what it
 * was: the block structure, code blocks and inline code, links and their
 * destinations, images, HTML, tables, task lists and GitBook's template tags.
 *
 * Pure: no engine, no I/O. Translating a page takes two steps so that a
 * caller can send the segments of many pages to an engine in one batch:
 *
 *   md_tr_parse()   parse, and collect the segments (strings) to translate;
 *   md_tr_render()  given one translation per segment, the new markdown.
 *
 * A segment is the text of one TEXT node (adjacent text nodes merged first),
 * trimmed of the white space around it (kept and put back), with GitBook's
 * template tags ({% ... %} and {{ ... }}) and control characters cut out
 * and kept as they are. Text with no letter (numbers, punctuation), text
 * that is a URL, a domain or an e-mail address, the text of autolinks
 * (whose text is their URL), and text that cannot be found in the source
 * (see md_translate.c) is not a segment. Footnotes are read as footnotes:
 * a definition's text is text, its label is not. A leading frontmatter
 * block (md_frontmatter) is kept verbatim.
 *
 * The new markdown is the source with each segment's bytes replaced by its
 * translation, escaped so that it reads as text: every other byte (markup,
 * footnotes, reference definitions, entities, escapes, control characters,
 * line endings) is the source's, and an identity translation gives the
 * page back byte for byte. md_tr_render proves it: it parses its output
 * again and compares the two trees node by node (types, code, HTML, link
 * and image destinations and titles, footnote labels, heading levels, list
 * kinds, task states, table alignments) and text by text (each reads as the
 * source's with the translations in it); any difference is ERR_INVALID and
 * no output, so a caller can keep the source page rather than a damaged one.
 */
#ifndef DOCSD_FORMAT_MD_TRANSLATE_H
#define DOCSD_FORMAT_MD_TRANSLATE_H

#include <stddef.h>

#include "util/arena.h"

struct md_tr;

/* Parse md[0..len) and collect its segments; *out is freed with md_tr_free.
 * Strings come from a, which must outlive *out. 0, or an error from the
 * front matter or cmark (out of memory stops the process). */
int md_tr_parse(struct arena *a, const char *md, size_t len, struct md_tr **out);
void md_tr_free(struct md_tr *t); /* accepts NULL */

/* The segments, in document order: valid UTF-8 (invalid input bytes are
 * replaced by cmark), no line breaks, no surrounding white space, at least
 * one letter each. */
int md_tr_count(const struct md_tr *t);
const char *md_tr_segment(const struct md_tr *t, int i);

/* The page with segment i replaced by translated[i] (md_tr_count of them; a
 * NULL or empty translation, or one equal to the segment, keeps the source
 * bytes; white space around a translation is dropped, line breaks in it
 * become spaces). *out is NUL-terminated,
 * from the arena given to md_tr_parse. ERR_INVALID when the rendering would
 * not keep the page's structure (see above), ERR_INTERNAL when cmark fails. */
int md_tr_render(struct md_tr *t, const char *const *translated, char **out);

/* Whether s (a whole text) is worth translating: it holds a letter (ASCII,
 * or any non-ASCII character) and is not a URL, domain or e-mail address.
 * The rule md_tr_parse applies to each piece; callers use it for titles. */
int md_tr_translatable(const char *s, size_t n);

/* Words in s: maximal runs of letters, digits and non-ASCII characters
 * (what the translation statistics count). */
long md_tr_words(const char *s);

#endif
