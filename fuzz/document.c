/*
 * document.c - differential libFuzzer target: document form -> check ->
 * document form. Any bytes as markdown become GitBook's JSON document
 * (md_to_document, what the API answers for a page); document_text (the
 * reader of documents a request sends: a change request's description) must
 * accept every document docsd itself writes, and reading its own output
 * again must give the same text. docsd has no document-to-markdown writer,
 * so the round trip closes on the document: the same page read twice gives
 * the same document. `make fuzz` builds it.
 */
#include "format/document.h"
#include "format/markdown.h"
#include "json/jsonw.h"
#include "util/arena.h"
#include "util/err.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena a;
	struct jw w1, w2;
	json_t *doc, *doc2;
	const char *t1, *t2;

	if (size > 128 * 1024)
		return 0;
	jw_init(&w1);
	jw_init(&w2);
	arena_init(&a);
	if (md_to_document(&w1, (const char *)data, size) == 0 &&
	    md_to_document(&w2, (const char *)data, size) == 0) {
		if (w1.len != w2.len || memcmp(w1.buf, w2.buf, w1.len) != 0)
			abort(); /* the same page, two documents */
		doc = json_loadb(w1.buf, w1.len, JSON_REJECT_DUPLICATES, NULL);
		if (!doc)
			abort();
		if (document_text(&a, "description", doc, (size_t)-1, &t1) != 0) {
			fprintf(stderr, "document_text refused md_to_document's output: %s\n", err_message());
			abort();
		}
		doc2 = json_loads(t1, JSON_REJECT_DUPLICATES, NULL);
		if (!doc2 || document_text(&a, "description", doc2, (size_t)-1, &t2) != 0 || strcmp(t1, t2) != 0)
			abort();
		json_decref(doc2);
		json_decref(doc);
	}
	arena_free(&a);
	jw_free(&w1);
	jw_free(&w2);
	return 0;
}
