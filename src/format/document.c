/*
 * document.c - GitBook's JSONDocument checked node by node (document.h).
 */
#include "format/document.h"
#include "util/err.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct doc_check {
	const char *field; /* for messages */
};

static int doc_bad(const struct doc_check *c, const char *where, const char *what)
{
	return err_set(ERR_INVALID, "%s: %s %s", c->field, where, what);
}

static bool opt_kind(json_t *o, const char *key, int (*is)(const json_t *))
{
	json_t *v = json_object_get(o, key);

	return !v || is(v);
}

static int is_object(const json_t *v)
{
	return json_is_object(v);
}

static int is_string(const json_t *v)
{
	return json_is_string(v);
}

static int is_bool(const json_t *v)
{
	return json_is_boolean(v);
}

static int doc_nodes(const struct doc_check *c, json_t *nodes, int depth, bool top);

/* A text node: {object: "text", leaves: [{object: "leaf", text, marks: [{object: "mark", type}]}]}. */
static int doc_text(const struct doc_check *c, json_t *n)
{
	json_t *leaves = json_object_get(n, "leaves"), *leaf, *marks, *mark;
	size_t i, j;

	if (!json_is_array(leaves))
		return doc_bad(c, "a text node", "needs leaves (an array)");
	json_array_foreach(leaves, i, leaf) {
		marks = json_object_get(leaf, "marks");
		if (!json_is_object(leaf) || !json_is_string(json_object_get(leaf, "object")) ||
		    strcmp(json_string_value(json_object_get(leaf, "object")), "leaf") != 0 ||
		    !json_is_string(json_object_get(leaf, "text")) || !json_is_array(marks))
			return doc_bad(c, "a leaf", "must be {object: \"leaf\", text, marks}");
		json_array_foreach(marks, j, mark)
			if (!json_is_object(mark) || !json_is_string(json_object_get(mark, "type")))
				return doc_bad(c, "a mark", "must be an object with a type");
	}
	return 0;
}

static int doc_node(const struct doc_check *c, json_t *n, int depth, bool top)
{
	const char *kind = json_string_value(json_object_get(n, "object")), *type;
	json_t *nodes;

	if (!json_is_object(n) || !kind)
		return doc_bad(c, "a node", "must be an object with `object`");
	if (strcmp(kind, "text") == 0 && !top)
		return doc_text(c, n);
	if (strcmp(kind, "block") != 0 && (top || strcmp(kind, "inline") != 0))
		return doc_bad(c, "a node", top ? "at the top level must be a block" : "must be a block, an inline or a text");
	type = json_string_value(json_object_get(n, "type"));
	if (!type || !*type)
		return doc_bad(c, "a node", "needs a type");
	if (!opt_kind(n, "data", is_object) || !opt_kind(n, "key", is_string) || !opt_kind(n, "isVoid", is_bool))
		return doc_bad(c, "a node", "has a data that is not an object, a key that is not a string or an isVoid "
					    "that is not a boolean");
	nodes = json_object_get(n, "nodes");
	if (!nodes)
		return 0;
	if (!json_is_array(nodes))
		return doc_bad(c, "a node's", "nodes must be an array");
	if (depth >= DOC_MAX_DEPTH)
		return doc_bad(c, "is nested", "too deeply");
	return doc_nodes(c, nodes, depth + 1, false);
}

static int doc_nodes(const struct doc_check *c, json_t *nodes, int depth, bool top)
{
	json_t *n;
	size_t i;
	int rc;

	json_array_foreach(nodes, i, n)
		if ((rc = doc_node(c, n, depth, top)))
			return rc;
	return 0;
}

int document_text(struct arena *a, const char *field, json_t *doc, size_t max, const char **out)
{
	const struct doc_check c = { field };
	const char *kind = json_string_value(json_object_get(doc, "object"));
	json_t *data = json_object_get(doc, "data"), *version;
	char *text;
	int rc;

	*out = NULL;
	if (!json_is_object(doc) || !kind || strcmp(kind, "document") != 0)
		return err_set(ERR_INVALID, "%s: must be a document ({object: \"document\", data, nodes})", field);
	if (!json_is_object(data) || !json_is_array(json_object_get(doc, "nodes")))
		return err_set(ERR_INVALID, "%s: data must be an object and nodes an array", field);
	version = json_object_get(data, "schemaVersion");
	if (version && !json_is_integer(version))
		return err_set(ERR_INVALID, "%s: data.schemaVersion must be an integer", field);
	if ((rc = doc_nodes(&c, json_object_get(doc, "nodes"), 0, true)))
		return rc;
	if (!(text = json_dumps(doc, JSON_COMPACT | JSON_ENSURE_ASCII)))
		return err_set(ERR_INTERNAL, "out of memory");
	if (strlen(text) > max) {
		free(text);
		return err_set(ERR_INVALID, "%s: at most %zu bytes of JSON", field, max);
	}
	*out = arena_strdup(a, text);
	free(text);
	return 0;
}
