/*
 * gitbook_render.h - the bytes Git sync's export writes for a page and for
 * SUMMARY.md, and the path helpers import and export share.
 *
 * Internal to format/gitbook_layout*.c. Byte stability rests on one rule: the
 * import fingerprints exactly what these functions would write for the tree it
 * built, and the export compares with the same functions' output, so both
 * sides must call them (never a copy of them).
 *
 * A page's file (lay_render_page):
 *   ---                       front matter, only when needed, keys in this order:
 *   title: T                  when T is not the body's leading "# heading"
 *   description: D            icon: I   emoji: E   hidden: true
 *   layout:                   only the options that differ from GitBook's
 *     width: wide             defaults (width default; every block visible);
 *     title:                  cover and coverSize are not carried
 *       visible: false
 *   ---
 *   <body>                    the stored markdown, /pages/<id> and /files/<id>
 *                             links turned into paths relative to the file
 * A body that would itself read as front matter gets an empty block "---\n---\n"
 * first, so it is never mistaken for metadata when read back.
 *
 * SUMMARY.md (lay_render_summary):
 *   # Table of contents
 *
 *   * [Title](path.md)        top-level documents and links, in order
 *     * [Child](child.md)     children indented by two spaces
 *
 *   ## Group title            then each group with its pages
 *
 *   * [Page](group/page.md)
 * A top-level page placed after a group is listed before the first group
 * (SUMMARY.md cannot express it otherwise: a list after a heading belongs to
 * that group). Computed pages are not written (nor their children).
 */
#ifndef DOCSD_FORMAT_GITBOOK_RENDER_H
#define DOCSD_FORMAT_GITBOOK_RENDER_H

#include <stdbool.h>
#include <stddef.h>

#include "format/markdown.h"
#include "model/revision.h"
#include "util/arena.h"

/* A string -> int map of fixed capacity (open addressing), in an arena. */
struct lay_map {
	const char **keys;
	int *vals;
	size_t cap, n;
	bool fold; /* keys compared ASCII case-insensitively */
};
void lay_map_init(struct lay_map *m, struct arena *a, size_t n, bool fold); /* room for n keys */
/* 0 added, 1 already present (value unchanged), -1 full. */
int lay_map_put(struct lay_map *m, const char *key, int val);
int lay_map_get(const struct lay_map *m, const char *key); /* -1 when absent */

/* "a/b" of "a/b/c.md", "" of "c.md". */
char *lay_dirname(struct arena *a, const char *path);
/* dir joined with a relative path, "." and ".." folded, "//" collapsed; NULL
 * when it leaves the repository. A trailing '/' is kept. */
char *lay_join(struct arena *a, const char *dir, const char *rel);
/* The path of `to` relative to the folder of the file `from` (both relative
 * to the same directory): "../b/c.md". */
char *lay_relative(struct arena *a, const char *from, const char *to);
/* s with ASCII suffix sfx, ignoring case. */
bool lay_ends_with(const char *s, const char *sfx);

/* The markdown text of data[0..len): valid UTF-8 (invalid sequences and NUL
 * bytes become U+FFFD, *changed set), NUL-terminated, in a; NULL when len is
 * past SIZE_MAX / 4. */
char *lay_utf8_clean(struct arena *a, const unsigned char *data, size_t len, bool *changed);

/* The layout JSON (rev_page.layout) of front matter layout options: all of
 * GitBook's RevisionPageLayoutOptions, defaults filled; *out NULL when every
 * option is the default. */
void lay_layout_json(struct arena *a, const struct md_layout *l, const char **out);

/* Where export writes the pages and files a body links to (paths relative to
 * the project directory); NULL: leave the link as it is. */
struct lay_paths {
	const char *(*page)(void *ctx, const char *id);
	const char *(*file)(void *ctx, const char *id);
	void *ctx;
};

/* The file of document page p whose stored markdown is body, written at
 * self (relative to the project directory). 0, or -1 with the error set
 * (markdown the parser cannot read, or a file past SIZE_MAX / 2). */
int lay_render_page(struct arena *a, const struct rev_page *p, const char *body, const char *self,
		    const struct lay_paths *paths, const unsigned char **data, size_t *len);

/* SUMMARY.md of rv, written at summary_path (relative to the project
 * directory); paths->page gives each document's file. */
int lay_render_summary(struct arena *a, const struct revision *rv, const char *summary_path,
		       const struct lay_paths *paths, const unsigned char **data, size_t *len);

#endif
