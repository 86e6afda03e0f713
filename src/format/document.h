/*
 * document.h - GitBook's JSONDocument ({object: "document", data, nodes}) as
 * a request sends it: a change request's description, a translation's
 * instructions. Pure (jansson values in, no I/O).
 */
#ifndef DOCSD_FORMAT_DOCUMENT_H
#define DOCSD_FORMAT_DOCUMENT_H

#include <jansson.h>
#include <stddef.h>

#include "util/arena.h"

/* The deepest nesting of nodes a document may have. */
#define DOC_MAX_DEPTH 32

/*
 * Check doc node by node: object "document", data an object (its
 * schemaVersion, when present, an integer), nodes an array of blocks; a
 * block or inline has a non-empty type, an optional string key, object data
 * and boolean isVoid, and nodes of blocks, inlines or texts; a text has
 * leaves {object: "leaf", text, marks: [{type}]}; at most DOC_MAX_DEPTH
 * levels. Then, as compact JSON of at most max bytes, into *out (a).
 * ERR_INVALID names `field` ("description: ..."); ERR_INTERNAL when jansson
 * cannot write the JSON.
 */
int document_text(struct arena *a, const char *field, json_t *doc, size_t max, const char **out);

#endif
