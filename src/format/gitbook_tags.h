/*
 * gitbook_tags.h - GitBook's template tags in markdown, found one way for the
 * site renderer (site/md_html.c), search excerpts (site/serve.c) and the
 * translation cutter (format/md_translate.c).
 *
 * A block tag is "{%" up to the first "%}" after it ({% hint style="info" %},
 * {% endhint %}); a variable is "{{" up to the first "}}" ({{ page.title }}).
 * Tags do not nest: an opener inside a tag is part of it and the first closer
 * ends it. An opener with no closer after it is plain text, and the scan ends
 * there: a later opener of the same kind has no closer either.
 *
 * Pure text: nothing here allocates but gb_tag_arg, in the caller's arena.
 */
#ifndef DOCSD_FORMAT_GITBOOK_TAGS_H
#define DOCSD_FORMAT_GITBOOK_TAGS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/arena.h"

enum gb_tag_kind {
	GB_TAG_BLOCK = 1, /* {% name args %} */
	GB_TAG_VAR = 2,   /* {{ expression }} */
};

/* One tag found in s[0..n): pointers into s, nothing owned. */
struct gb_tag {
	size_t start, end;     /* s[start..end) is the whole tag, opener to closer */
	enum gb_tag_kind kind;
	const char *name;      /* after the opener and blanks: [A-Za-z0-9_-]* */
	size_t name_len;       /* 0 when no name stands there */
	const char *args;      /* what follows the name, up to the closer */
	size_t args_len;
};

/* The first tag of the kinds asked for (a mask of enum gb_tag_kind) in
 * s[from..n), into *t: true; false when there is none, or when the first
 * opener found has no closer (see above). */
bool gb_tag_next(const char *s, size_t n, size_t from, unsigned kinds, struct gb_tag *t);

/* Whether a whole block tag starts exactly at s[at] (into *t when it does). */
bool gb_tag_at(const char *s, size_t n, size_t at, struct gb_tag *t);

/* The value of key="..." (or '...', or a bare word up to a blank) in t's
 * arguments, copied into the arena; NULL when the key is absent. An
 * unterminated quote runs to the
 * end of the arguments. */
const char *gb_tag_arg(struct arena *a, const struct gb_tag *t, const char *key);

#endif
