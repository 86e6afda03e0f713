/*
 * openapi_doc.h - OpenAPI documents as docsd reads them: parsing (YAML or
 * JSON), the check that a text is an OpenAPI 3.x or Swagger 2.0 document,
 * the relative `$ref` files it names, the computed-page source that shows
 * one, and the API reference markdown made from it.
 *
 * Pure functions of their input (no I/O): the job that processes a spec
 * (domain/openapi.c) fetches, these decide. Parsed documents are jansson
 * trees (the caller owns them: json_decref); strings returned in an arena
 * belong to that arena.
 *
 * The "filesystem" of a version (GitBook's OpenAPISpecContent.filesystem) is
 * a JSON object keyed by each file's path relative to the entry file's
 * directory; each value is GitBook's FilesystemEntry
 *   { "dir", "isEntrypoint", "references", "filename", "specification" }
 * so Object.values(filesystem) is the Filesystem array GitBook's own OpenAPI
 * parser reads (GitBook's schema types `filesystem` as an object).
 */
#ifndef DOCSD_FORMAT_OPENAPI_DOC_H
#define DOCSD_FORMAT_OPENAPI_DOC_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "json/jsonw.h"
#include "util/arena.h"

/* A specification file is at most this large (fetched or sent as text). */
#define OPENAPI_MAX_BYTES ((size_t)10 << 20)
/* Nodes a parsed file may expand to (YAML aliases cannot multiply past it). */
#define OPENAPI_MAX_NODES 2000000
/* Nesting of a parsed file (YAML and JSON alike). */
#define OPENAPI_MAX_DEPTH 64
/* Relative $ref files followed from one entry file, and their bytes together. */
#define OPENAPI_MAX_FILES 50
#define OPENAPI_MAX_TOTAL_BYTES ((size_t)20 << 20)
/*
 * The bytes one file may expand to with its YAML aliases written out (the
 * loader's count, format/gitbook_yaml.h: each scalar and key its length + 1,
 * each sequence or mapping 1, each alias what it repeats), refused while
 * parsing, before anything is built. A JSON file counts its length. 32 MiB:
 * a little over three times the largest file, so a specification that uses
 * aliases for shared schemas still loads, and a 2 KB alias bomb that would
 * expand to hundreds of megabytes stops at once.
 */
#define OPENAPI_MAX_EXPANDED_BYTES ((size_t)32 << 20)
/*
 * What one processed version may store: its filesystem as compact JSON
 * (every file's parsed specification). The files' expanded bytes together
 * are held to it too, so 50 files each under the per-file limit cannot build
 * 50 times it. 64 MiB: over three times OPENAPI_MAX_TOTAL_BYTES.
 */
#define OPENAPI_MAX_STORED_BYTES ((size_t)64 << 20)

/*
 * Parse s[0..len) as JSON (when its first non-blank character is '{' or '[')
 * or as YAML (one document; YAML 1.2's core schema: plain true/false/null,
 * integers and floats are typed, everything else is a string; mapping keys
 * must be scalars). *out is a new reference. ERR_INVALID with a reason naming
 * the line and column; ERR_INTERNAL when memory runs out.
 */
int openapi_parse(const char *s, size_t len, json_t **out);
/* openapi_parse, and *expanded (may be NULL) the bytes the file expanded to
 * (a JSON file: its length). A YAML file past OPENAPI_MAX_EXPANDED_BYTES is
 * ERR_INVALID "line L, column C: the YAML expands to more than N bytes ...". */
int openapi_parse_counted(const char *s, size_t len, json_t **out, size_t *expanded);

/*
 * Whether doc is an OpenAPI 3.x document (`openapi: "3.…"`) or a Swagger 2.0
 * one (`swagger: "2.0"`), with an `info` object and, when present, `paths`
 * an object. 0 with *version ("3.1.0", "2.0") pointing into doc, or
 * ERR_INVALID saying what is missing.
 */
int openapi_check(const json_t *doc, const char **version);

/*
 * The files doc's `$ref`s name relative to it: every "$ref" string whose
 * part before '#' is a relative reference (no scheme, no '//' authority, not
 * absolute), with the part after '#' dropped, each once, in document order.
 * *out (n strings) in a.
 */
int openapi_file_refs(struct arena *a, const json_t *doc, const char ***out, int *n);

/*
 * A relative path `ref` as seen from a file at `from` (both relative to the
 * entry file's directory; from NULL: the entry file): "./" and "a/../" are
 * folded, a leading "../" is kept (a file beside the entry's directory).
 * NULL (ERR_INVALID set) for an empty or absolute path, a NUL, a
 * backslash, or more than 16 leading "../".
 */
char *openapi_path_join(struct arena *a, const char *from, const char *ref);

/*
 * An http(s) URL for path (relative to the entry file's directory) beside
 * the entry file at base_url: RFC 3986 resolution of path against base_url
 * (its query and fragment dropped). NULL (ERR_INVALID set) when base_url is
 * not http(s).
 */
char *openapi_url_resolve(struct arena *a, const char *base_url, const char *path);

/* The directory part of a relative path ("." for none) and its last segment. */
char *openapi_path_dir(struct arena *a, const char *path);
const char *openapi_path_base(const char *path);

/*
 * A computed page's source (GitBook's ComputedContentSourceRevisionOpenAPI):
 *   {"type": "builtin:openapi",
 *    "dependencies": {"spec": {"ref": {"kind": "openapi", "spec": "<slug>"}}},
 *    "props": {"models": true|false}}
 * openapi_computed_check validates v (as sent in an insert_page) and gives
 * its compact JSON text (*json, in a) and the spec's slug (*slug, in a);
 * ERR_INVALID naming the field under `prefix` ("changes[0].computed.props:
 * ..."). builtin:translation and integration sources are refused as not
 * supported. openapi_computed_read reads a stored source back: the slug and
 * models, or ERR_INVALID.
 */
int openapi_computed_check(struct arena *a, const json_t *v, const char *prefix, const char **json,
			   const char **slug);
int openapi_computed_read(struct arena *a, const char *json, const char **slug, bool *models);

/*
 * The API reference of a version as markdown into out: the entry file's
 * info (title, version, description), its operations grouped by tag (the
 * document's `tags` order, then tags as first used; untagged ones last, under
 * "Other"), each with its method and path, summary, description, parameters
 * (path-level ones included) as a table, its request body and its responses
 * with the top-level properties of their schemas; `models` adds the
 * document's schemas. `$ref`s are followed inside the entry file and into the
 * other files of the filesystem (at most a few hops; a cycle stops). fs is
 * the filesystem object described above. 0, ERR_INVALID when fs has no
 * entry file, ERR_INTERNAL when the document passes SIZE_MAX / 2 bytes.
 */
int openapi_markdown(struct jw *out, const json_t *fs, bool models);
/* One operation (path as the document writes it, method in any case) of
 * a version's filesystem, as openapi_markdown shows it: the block GitBook's
 * {% openapi %} / {% openapi-operation %} tags put in a page.
 * ERR_NOT_FOUND when the document has no such operation. */
int openapi_operation_markdown(struct jw *out, const json_t *fs, const char *path, const char *method);

#endif
