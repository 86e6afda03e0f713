/*
 * gitbook_yaml.h - GitBook's .gitbook.yaml, and the bounded YAML loader that
 * docsd's other YAML readers (page frontmatter) share.
 *
 * Pure functions of the text (libyaml); any bytes are accepted without
 * crashing. Strings belong to the caller's arena.
 */
#ifndef DOCSD_FORMAT_GITBOOK_YAML_H
#define DOCSD_FORMAT_GITBOOK_YAML_H

#include <stdbool.h>
#include <stddef.h>
#include <yaml.h>

#include "util/arena.h"

/* Limits of every YAML text docsd reads (.gitbook.yaml, page front matter;
 * OpenAPI documents have sizes of their own, format/openapi_doc.h). */
#define YAML_MAX_BYTES (64 * 1024)
#define YAML_MAX_DEPTH 32
#define YAML_MAX_ALIASES 64
/*
 * The bytes a document may expand to with every alias written out in full:
 * each scalar (keys included) counts its length + 1, each sequence or mapping
 * 1, each alias what its node counted. Aliases and nodes alone do not bound
 * it: 60 aliases in six levels of ten repeat a 2 KB list a million times.
 * Four times the text's limit: configuration and front matter rarely use
 * aliases at all.
 */
#define YAML_MAX_EXPANDED_BYTES ((size_t)4 * YAML_MAX_BYTES)
/* How the error for that limit begins (then the limit, in bytes). */
#define YAML_EXPANDED_MESSAGE "the YAML expands to more than"

/*
 * Loads one YAML document of s[0..len) into *doc (free it with
 * yaml_document_delete when this returns 0). Rejects (ERR_INVALID, with a
 * readable reason in the thread's error, util/err.h) a text over
 * YAML_MAX_BYTES, nesting deeper than YAML_MAX_DEPTH, more than
 * YAML_MAX_ALIASES aliases, a text expanding to more than
 * YAML_MAX_EXPANDED_BYTES (counted while parsing, before any node exists:
 * "the YAML expands to more than N bytes ..."), an alias inside the node it
 * names, more than one document, and every syntax error:
 * "line L, column C: problem" (lines counted from first_line, columns from 1).
 * An empty text loads as a document without a root node.
 */
int yaml_load_bounded(yaml_document_t *doc, const char *s, size_t len, int first_line);
/* The same with max_bytes and max_expanded instead of YAML_MAX_BYTES and
 * YAML_MAX_EXPANDED_BYTES (OpenAPI documents, format/openapi_doc.h, are larger
 * than configuration and front matter); the depth and alias limits are the
 * same. *expanded (may be NULL) gets the bytes counted when this returns 0. */
int yaml_load_sized(yaml_document_t *doc, const char *s, size_t len, int first_line, size_t max_bytes,
		    size_t max_expanded, size_t *expanded);

/* The value of key in mapping node map (NULL when absent or map is no mapping). */
yaml_node_t *yaml_map_get(yaml_document_t *doc, yaml_node_t *map, const char *key);

/* A plain scalar that is YAML's null (~, null, Null, NULL, or empty). */
bool yaml_is_null(const yaml_node_t *n);

/* A scalar YAML 1.1 reads as true (true/yes/on in their three cases); *ok is
 * set false when n is not a boolean scalar. */
bool yaml_bool(const yaml_node_t *n, bool *ok);

struct gitbook_redirect {
	char *from; /* normalized, relative to root, no leading '/' */
	char *to;   /* normalized file path relative to root */
};

struct gitbook_yaml {
	char *root;    /* normalized repository folder: "" for the repository's root, else "docs" (no ./, no trailing /) */
	char *readme;  /* relative to root: "README.md" by default */
	char *summary; /* relative to root: "SUMMARY.md" by default */
	struct gitbook_redirect *redirects;
	size_t n_redirects;
};

/*
 * Parses a .gitbook.yaml (GitBook's Git Sync content configuration):
 *   root: ./docs/
 *   structure: { readme: README.md, summary: SUMMARY.md }
 *   redirects: { previous/page: new-folder/page.md }
 * Missing keys take their defaults (s may be NULL or empty: all defaults);
 * unknown keys are ignored. Paths are normalized ("./", "//", "a/../" folded,
 * a trailing "/" dropped); an absolute path, a path escaping its root (".."),
 * a NUL or an empty readme/summary is an error, as is a value of the wrong
 * type. Returns 0, ERR_INVALID with a message naming the key (and line/column),
 * or ERR_INTERNAL when libyaml fails.
 */
int gitbook_yaml_parse(struct arena *a, const char *s, size_t len, struct gitbook_yaml *out);

/* Normalizes a relative path as gitbook_yaml_parse does: NULL (error set,
 * ERR_INVALID naming what) for an absolute or escaping path. */
char *gitbook_path_normalize(struct arena *a, const char *p, size_t len, const char *what);

#endif
