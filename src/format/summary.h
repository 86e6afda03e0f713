/*
 * summary.h - GitBook's SUMMARY.md: the table of contents of a Git-synced space.
 *
 *   # Table of contents             (a level-1 heading: ignored)
 *   * [Introduction](README.md)     (pages before any group: top level)
 *   ## Getting started              (a level-2+ heading: a page group)
 *   * [First page](page1/README.md "Nav title")
 *       * [Child](page1/child.md)   (a nested list: child pages)
 *   * [GitHub](https://github.com)  (an external link: a link page)
 *
 * Pure function of the text, parsed with cmark-gfm; any bytes are accepted
 * without crashing. Strings and arrays belong to the caller's arena.
 */
#ifndef DOCSD_FORMAT_SUMMARY_H
#define DOCSD_FORMAT_SUMMARY_H

#include <stddef.h>

#include "util/arena.h"

#define SUMMARY_MAX_BYTES (1024 * 1024)
#define SUMMARY_MAX_DEPTH 16     /* nested list levels below a group */
#define SUMMARY_MAX_ITEMS 10000  /* pages, links and groups */
#define SUMMARY_MAX_PROBLEMS 100 /* problems recorded (more are counted) */

enum summary_kind {
	SUMMARY_GROUP, /* "## Heading": title; children are its pages */
	SUMMARY_PAGE,  /* a link to a markdown file of the repository */
	SUMMARY_LINK,  /* a link to an external URL */
};

struct summary_item {
	enum summary_kind kind;
	char *title;     /* the heading's or link's plain text (may be "") */
	char *nav_title; /* [Title](p.md "Nav title"): the table of contents' title; NULL when none */
	char *path;      /* PAGE: normalized, relative to the root (base joined); a link to a
	                  * folder ("guide/") means its README.md; NULL for others */
	char *anchor;    /* PAGE: the text after '#' in the link, NULL when none */
	char *url;       /* LINK: the destination as written */
	int line;        /* 1-based line of the heading or list item */
	struct summary_item *children;
	size_t n_children;
};

struct summary_problem {
	int line;
	char *message; /* readable: what was wrong and what was expected */
};

struct summary {
	struct summary_item *items; /* top level: pages before the first group, then groups */
	size_t n_items;
	struct summary_problem *problems; /* lines that were skipped, and why */
	size_t n_problems;                /* recorded (at most SUMMARY_MAX_PROBLEMS) */
	size_t n_problems_total;          /* all, recorded or not */
};

/*
 * Parses a SUMMARY.md. base is the folder of the summary file relative to the
 * root ("" or NULL for the root itself): page paths are resolved against it.
 * Lines that are not a heading, a list of links or blank are skipped and
 * reported in problems, as are list items that are not one link, links
 * leaving the root (".."), empty destinations, a file listed twice, lists
 * nested deeper than SUMMARY_MAX_DEPTH and items beyond SUMMARY_MAX_ITEMS.
 * Percent-escapes in paths are decoded ("a%20b.md" is "a b.md").
 * Returns 0, ERR_INVALID for a text over SUMMARY_MAX_BYTES, ERR_INTERNAL when
 * cmark fails (util/err.h).
 */
int summary_parse(struct arena *a, const char *md, size_t len, const char *base, struct summary *out);

#endif
