/*
 * openapi.c - libFuzzer target for format/openapi_doc.h and openapi_md.c:
 * any bytes as an uploaded specification (JSON or YAML) are parsed, checked,
 * their file references listed and, when the document is accepted, rendered
 * as the reference page and as each operation's block, as a published page
 * does. Nothing may crash. `make fuzz` builds it.
 */
#include "format/openapi_doc.h"
#include "json/jsonw.h"
#include "util/arena.h"

#include <jansson.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *doc = NULL, *fs, *entry;
	const char *version, **refs;
	int nrefs;
	struct arena a;
	struct jw w;

	if (openapi_parse((const char *)data, size, &doc))
		return 0;
	arena_init(&a);
	(void)openapi_file_refs(&a, doc, &refs, &nrefs);
	if (openapi_check(doc, &version) == 0) {
		fs = json_object();
		entry = json_pack("{s:b,s:O}", "isEntrypoint", 1, "specification", doc);
		if (fs && entry && json_object_set_new(fs, "openapi.yaml", entry) == 0) {
			entry = NULL;
			jw_init(&w);
			(void)openapi_markdown(&w, fs, true);
			jw_free(&w);
			const json_t *paths = json_object_get(doc, "paths");
			const char *path;
			json_t *item;
			json_object_foreach((json_t *)paths, path, item) {
				jw_init(&w);
				(void)openapi_operation_markdown(&w, fs, path, "get");
				jw_free(&w);
			}
		}
		json_decref(entry);
		json_decref(fs);
	}
	arena_free(&a);
	json_decref(doc);
	return 0;
}
