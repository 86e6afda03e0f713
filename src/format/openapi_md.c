/*
 * openapi_md.c - the API reference of an OpenAPI version as markdown
 * (openapi_markdown, openapi_doc.h).
 *
 * One generator serves the published site (the markdown goes through the
 * site's markdown renderer like any page) and the content API (a computed
 * page's markdown), so both show the same thing. The layout:
 *
 *   <info.description>                      (the page's title is the page's)
 *   API version `1.0.0` · base URL `https://…`
 *   ## <tag>                                 one per tag, in the document's order
 *   <tag description>
 *   ### <summary, or METHOD path>            one per operation
 *   `METHOD /path`
 *   <description>
 *   **Parameters**      | Name | In | Type | Required | Description |
 *   **Request body**    content type, then the schema's top-level properties
 *   **Responses**       per status: its description and schema's properties
 *   ## Models                                (props.models) each schema's properties
 *
 * Swagger 2.0 documents are read with their own field names (`in: body`
 * and `formData` parameters, `schema` on responses, `definitions`,
 * `host`/`basePath`). `$ref`s are followed within the entry file and into
 * the other files of the filesystem, at most MAX_HOPS in a row, so a cycle
 * ends. Table cells are one line with '|' escaped; other text is written as
 * the document has it (OpenAPI descriptions are CommonMark; the site's
 * renderer passes raw HTML only through its allowlist, format/html_allow.h).
 */
#include "format/openapi_doc.h"
#include "util/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_HOPS 8
#define MAX_TYPE_DEPTH 4
#define MAX_ROWS 200
#define MAX_OPS 5000
#define MAX_TAGS 500

static const char *const methods[] = { "get", "put", "post", "delete", "options", "head", "patch", "trace" };

struct gen {
	struct jw *out;
	struct arena a;
	const json_t *fs;
	const char *entry;      /* the entry file's key in fs */
	const json_t *doc;      /* its specification */
	bool v2;
	const char *ind;        /* put before each line of a schema block: "  " inside a list item */
};

static void put(struct gen *g, const char *s)
{
	if (s)
		jw_put(g->out, s, strlen(s));
}

/* The first n bytes of s on one line for a table cell: newlines become spaces, '|' is escaped. */
static void cell_n(struct gen *g, const char *s, size_t n)
{
	for (const char *p = s; p < s + n; p++) {
		if (*p == '\n' || *p == '\r' || *p == '\t')
			jw_put(g->out, " ", 1);
		else if (*p == '|')
			jw_put(g->out, "\\|", 2);
		else
			jw_put(g->out, p, 1);
	}
}

static void cell(struct gen *g, const char *s)
{
	if (s)
		cell_n(g, s, strlen(s));
}

/* Inline code that cannot be closed early by the text. */
static void code(struct gen *g, const char *s)
{
	const char *fence = strchr(s, '`') ? "`` " : "`";
	const char *end = strchr(s, '`') ? " ``" : "`";

	put(g, fence);
	for (const char *p = s; *p; p++)
		jw_put(g->out, *p == '\n' || *p == '|' ? " " : p, 1);
	put(g, end);
}

static const char *str(const json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

/* A file's specification by its key. */
static const json_t *file_doc(struct gen *g, const char *key)
{
	return json_object_get(json_object_get(g->fs, key), "specification");
}

/* RFC 6901 pointer ("/paths/~1pets/get") into v. */
static const json_t *pointer(struct gen *g, const json_t *v, const char *ptr)
{
	while (v && *ptr == '/') {
		size_t n = strcspn(++ptr, "/");
		char *tok = arena_strndup(&g->a, ptr, n), *w = tok;
		for (const char *r = tok; *r; r++) {
			if (r[0] == '~' && r[1] == '1')
				*w++ = '/', r++;
			else if (r[0] == '~' && r[1] == '0')
				*w++ = '~', r++;
			else
				*w++ = *r;
		}
		*w = '\0';
		if (json_is_array(v)) {
			char *end;
			long i = strtol(tok, &end, 10);
			v = *end || i < 0 ? NULL : json_array_get(v, (size_t)i);
		} else {
			v = json_object_get(v, tok);
		}
		ptr += n;
	}
	return *ptr ? NULL : v;
}

/* Follow v's $ref (v read in file *file) to what it names; *file becomes the
 * file that holds it. NULL when it cannot be followed. */
static const json_t *deref(struct gen *g, const json_t *v, const char **file)
{
	for (int hop = 0; hop < MAX_HOPS; hop++) {
		const char *ref = str(v, "$ref"), *hash;
		const json_t *target;
		if (!ref)
			return v;
		hash = strchr(ref, '#');
		if (hash == ref) {
			target = file_doc(g, *file);
		} else {
			/* Keys are paths relative to the entry file's directory, as the
			 * job stored them (domain/openapi.c). */
			char *path = arena_strndup(&g->a, ref, hash ? (size_t)(hash - ref) : strlen(ref));
			const char *key = openapi_path_join(&g->a, *file, path);
			if (!key || !(target = file_doc(g, key)))
				return NULL;
			*file = key;
		}
		v = hash ? pointer(g, target, hash + 1) : target;
		if (!v)
			return NULL;
	}
	return NULL;
}

/* The name a $ref gives a schema: its last pointer segment ("Pet"), or its file's name. */
static const char *ref_name(const json_t *v)
{
	const char *ref = str(v, "$ref"), *slash;

	if (!ref)
		return NULL;
	slash = strrchr(ref, '/');
	return slash && slash[1] ? slash + 1 : ref;
}

/* A schema's type in a few words: "string (date-time)", "array of Pet", "one of A, B". */
static void type_name(struct gen *g, const char *file, const json_t *s, int depth)
{
	const json_t *t;
	const char *name = ref_name(s);

	if (name) {
		put(g, name);
		return;
	}
	if (depth > MAX_TYPE_DEPTH || !json_is_object(s)) {
		put(g, "any");
		return;
	}
	t = json_object_get(s, "type");
	if (json_is_array(t)) {
		size_t i;
		json_t *x;
		json_array_foreach(t, i, x)
		{
			if (i)
				put(g, " | ");
			put(g, json_string_value(x));
		}
	} else if (json_is_string(t)) {
		if (strcmp(json_string_value(t), "array") == 0 && json_object_get(s, "items")) {
			put(g, "array of ");
			type_name(g, file, json_object_get(s, "items"), depth + 1);
		} else {
			put(g, json_string_value(t));
		}
	} else {
		static const char *const comb[][2] = { { "oneOf", "one of " }, { "anyOf", "any of " }, { "allOf", "all of " } };
		for (size_t k = 0; k < 3; k++) {
			const json_t *list = json_object_get(s, comb[k][0]);
			size_t i;
			json_t *x;
			if (!json_is_array(list))
				continue;
			put(g, comb[k][1]);
			json_array_foreach(list, i, x)
			{
				if (i >= 5) {
					put(g, ", …");
					break;
				}
				if (i)
					put(g, ", ");
				type_name(g, file, x, depth + 1);
			}
			return;
		}
		put(g, json_object_get(s, "properties") ? "object" : json_object_get(s, "enum") ? "enum" : "any");
	}
	if (str(s, "format")) {
		put(g, " (");
		put(g, str(s, "format"));
		put(g, ")");
	}
}

/* A description with the allowed values of an enum after it. */
static void describe(struct gen *g, const json_t *s, const char *desc)
{
	const json_t *e = json_object_get(s, "enum");

	if (!json_is_array(e) || !json_array_size(e)) {
		cell(g, desc);
		return;
	}
	/* The values are a sentence of their own: the description, trimmed (a YAML block
	 * scalar ends in a newline), gets a final stop when it has none. */
	size_t n = desc ? strlen(desc) : 0, i;
	json_t *x;
	while (n && strchr(" \t\r\n", desc[n - 1]))
		n--;
	if (n) {
		cell_n(g, desc, n);
		if (!strchr(".!?:", desc[n - 1]))
			put(g, ".");
		put(g, " ");
	}
	put(g, "Possible values: ");
	json_array_foreach(e, i, x)
	{
		char num[64];
		if (i >= 20) {
			put(g, ", …");
			break;
		}
		if (i)
			put(g, ", ");
		if (json_is_string(x))
			code(g, json_string_value(x));
		else if (json_is_integer(x))
			snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(x)), code(g, num);
		else if (json_is_boolean(x))
			code(g, json_is_true(x) ? "true" : "false");
	}
	put(g, ".");
}

static bool in_required(const json_t *req, const char *name)
{
	size_t i;
	json_t *x;

	json_array_foreach(req, i, x) if (json_is_string(x) && strcmp(json_string_value(x), name) == 0) return true;
	return false;
}

/* The rows of an object schema's top-level properties (allOf parts merged). */
static int property_rows(struct gen *g, const char *file, const json_t *s, int depth, int rows)
{
	const json_t *all, *props, *req;
	const char *k;
	json_t *p;

	if (!(s = deref(g, s, &file)) || depth > MAX_TYPE_DEPTH)
		return rows;
	all = json_object_get(s, "allOf");
	if (json_is_array(all)) {
		size_t i;
		json_t *x;
		json_array_foreach(all, i, x) rows = property_rows(g, file, x, depth + 1, rows);
	}
	props = json_object_get(s, "properties");
	req = json_object_get(s, "required");
	json_object_foreach((json_t *)props, k, p)
	{
		const char *pf = file;
		const json_t *ps = deref(g, p, &pf);
		if (rows++ >= MAX_ROWS)
			break;
		if (rows == 1) {
			put(g, g->ind);
			put(g, "| Name | Type | Required | Description |\n");
			put(g, g->ind);
			put(g, "|---|---|---|---|\n");
		}
		put(g, g->ind);
		put(g, "| ");
		code(g, k);
		put(g, " | ");
		type_name(g, file, p, 0);
		put(g, in_required(req, k) ? " | yes | " : " | no | ");
		describe(g, ps ? ps : p, ps ? str(ps, "description") : NULL);
		put(g, " |\n");
	}
	return rows;
}

/* A schema: its properties as a table, or its type on a line. */
static void schema_block(struct gen *g, const char *file, const json_t *s)
{
	const char *f = file;
	const json_t *r = deref(g, s, &f);

	put(g, g->ind);
	put(g, "Type: ");
	type_name(g, file, s, 0);
	put(g, "\n\n");
	if (r && property_rows(g, file, s, 0, 0) > 0)
		put(g, "\n");
}

/* ---- operations ---- */

struct op {
	const char *path, *method, *tag;
	const json_t *op, *item;
};

static void parameter_rows(struct gen *g, const json_t *params, int *rows, bool body_params)
{
	size_t i;
	json_t *x;

	json_array_foreach(params, i, x)
	{
		const char *f = g->entry, *in;
		const json_t *p = deref(g, x, &f), *schema;
		if (!p || !(in = str(p, "in")))
			continue;
		/* Swagger 2.0's body and form parameters are the request body. */
		if ((strcmp(in, "body") == 0 || strcmp(in, "formData") == 0) != body_params)
			continue;
		if (strcmp(in, "body") == 0)
			continue;
		if ((*rows)++ >= MAX_ROWS)
			return;
		if (*rows == 1)
			put(g, body_params ? "| Name | Type | Required | Description |\n|---|---|---|---|\n"
					   : "| Name | In | Type | Required | Description |\n|---|---|---|---|---|\n");
		put(g, "| ");
		code(g, str(p, "name") ? str(p, "name") : "");
		if (!body_params) {
			put(g, " | ");
			put(g, in);
		}
		put(g, " | ");
		schema = json_object_get(p, "schema");
		type_name(g, f, schema ? schema : p, 0);
		put(g, json_is_true(json_object_get(p, "required")) ? " | yes | " : " | no | ");
		describe(g, schema ? schema : p, str(p, "description"));
		put(g, " |\n");
	}
}

/* The first media type of a `content` map and its schema. */
static const json_t *first_media(const json_t *content, const char **type)
{
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)content, k, v)
	{
		*type = k;
		return json_object_get(v, "schema");
	}
	return NULL;
}

static void request_body(struct gen *g, const struct op *o)
{
	const json_t *params[2] = { json_object_get(o->item, "parameters"), json_object_get(o->op, "parameters") };

	if (g->v2) {
		int rows = 0;
		size_t mark;
		for (int k = 0; k < 2; k++) {
			size_t i;
			json_t *x;
			json_array_foreach(params[k], i, x)
			{
				const char *f = g->entry;
				const json_t *p = deref(g, x, &f);
				if (p && str(p, "in") && strcmp(str(p, "in"), "body") == 0) {
					put(g, "**Request body**\n\n");
					if (str(p, "description")) {
						put(g, str(p, "description"));
						put(g, "\n\n");
					}
					schema_block(g, f, json_object_get(p, "schema"));
					return;
				}
			}
		}
		mark = g->out->len;
		put(g, "**Request body** (form)\n\n");
		parameter_rows(g, params[0], &rows, true);
		parameter_rows(g, params[1], &rows, true);
		if (rows == 0)
			g->out->len = mark;
		else
			put(g, "\n");
		return;
	}
	const char *f = g->entry, *type = NULL;
	const json_t *rb = deref(g, json_object_get(o->op, "requestBody"), &f), *schema;
	if (!json_is_object(rb))
		return;
	put(g, "**Request body**");
	schema = first_media(json_object_get(rb, "content"), &type);
	if (type) {
		put(g, " (");
		code(g, type);
		put(g, ")");
	}
	put(g, json_is_true(json_object_get(rb, "required")) ? ", required\n\n" : "\n\n");
	if (str(rb, "description")) {
		put(g, str(rb, "description"));
		put(g, "\n\n");
	}
	if (schema)
		schema_block(g, f, schema);
}

static void responses(struct gen *g, const struct op *o)
{
	const json_t *rs = json_object_get(o->op, "responses");
	const char *code_s;
	json_t *r;

	if (!json_is_object(rs) || !json_object_size(rs))
		return;
	put(g, "**Responses**\n\n");
	json_object_foreach((json_t *)rs, code_s, r)
	{
		const char *f = g->entry, *type = NULL;
		const json_t *resp = deref(g, r, &f), *schema;
		put(g, "- ");
		code(g, code_s);
		if (resp && str(resp, "description")) {
			put(g, ": ");
			cell(g, str(resp, "description"));
		}
		put(g, "\n\n");
		if (!resp)
			continue;
		schema = g->v2 ? json_object_get(resp, "schema") : first_media(json_object_get(resp, "content"), &type);
		if (schema) {
			if (type) {
				put(g, "  Content type ");
				code(g, type);
				put(g, "\n\n");
			}
			/* Indented: the type and its table stay inside the response's list item
			 * (at column 0 they would end the list after each response). */
			g->ind = "  ";
			schema_block(g, f, schema);
			g->ind = NULL;
		}
	}
}

static void operation(struct gen *g, const struct op *o)
{
	char line[64];
	const char *summary = str(o->op, "summary"), *desc = str(o->op, "description");
	int rows = 0;

	snprintf(line, sizeof(line), "%s", o->method);
	for (char *p = line; *p; p++)
		*p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
	put(g, "### ");
	if (summary && *summary) {
		cell(g, summary);
	} else {
		put(g, line);
		put(g, " ");
		cell(g, o->path);
	}
	put(g, "\n\n");
	const char *sig = arena_printf(&g->a, "%s %s", line, o->path);
	code(g, sig ? sig : line);
	if (json_is_true(json_object_get(o->op, "deprecated")))
		put(g, " *(deprecated)*");
	put(g, "\n\n");
	if (desc && *desc) {
		put(g, desc);
		put(g, "\n\n");
	}
	size_t mark = g->out->len;
	put(g, "**Parameters**\n\n");
	parameter_rows(g, json_object_get(o->item, "parameters"), &rows, false);
	parameter_rows(g, json_object_get(o->op, "parameters"), &rows, false);
	if (rows == 0)
		g->out->len = mark; /* no parameters: no heading either */
	else
		put(g, "\n");
	request_body(g, o);
	responses(g, o);
}

/* Every operation in the document's order, its tag its first (or NULL). */
static int collect(struct gen *g, struct op **out, int *n)
{
	const json_t *paths = json_object_get(g->doc, "paths");
	const char *path;
	json_t *item;
	struct op *ops = NULL;
	int cap = 0;

	*n = 0;
	json_object_foreach((json_t *)paths, path, item)
	{
		const char *f = g->entry;
		const json_t *it = deref(g, item, &f);
		if (!json_is_object(it) || path[0] != '/')
			continue;
		for (size_t m = 0; m < sizeof(methods) / sizeof(methods[0]); m++) {
			const json_t *op = json_object_get(it, methods[m]), *tags;
			if (!json_is_object(op) || *n >= MAX_OPS)
				continue;
			if (*n == cap) {
				struct op *nops = arena_alloc(&g->a, sizeof(*nops) * (size_t)(cap = cap ? 2 * cap : 32));
				if (*n)
					memcpy(nops, ops, sizeof(*ops) * (size_t)*n);
				ops = nops;
			}
			tags = json_object_get(op, "tags");
			ops[(*n)++] = (struct op){ .path = path, .method = methods[m], .op = op, .item = it,
						   .tag = json_string_value(json_array_get(tags, 0)) };
		}
	}
	*out = ops;
	return 0;
}

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static void tag_section(struct gen *g, const char *tag, const char *desc, const struct op *ops, int n)
{
	bool any = false;

	for (int i = 0; i < n && !any; i++)
		any = same(ops[i].tag, tag);
	if (!any)
		return;
	put(g, "## ");
	cell(g, tag ? tag : "Other");
	put(g, "\n\n");
	if (desc && *desc) {
		put(g, desc);
		put(g, "\n\n");
	}
	for (int i = 0; i < n; i++)
		if (same(ops[i].tag, tag))
			operation(g, &ops[i]);
}

static void intro(struct gen *g)
{
	const json_t *info = json_object_get(g->doc, "info");
	const char *desc = str(info, "description"), *version = str(info, "version");
	const char *server = NULL;

	if (desc && *desc) {
		put(g, desc);
		put(g, "\n\n");
	}
	if (g->v2) {
		const char *host = str(g->doc, "host");
		if (host) {
			const json_t *schemes = json_object_get(g->doc, "schemes");
			const char *scheme = json_string_value(json_array_get(schemes, 0));
			const char *bp = str(g->doc, "basePath");
			server = arena_printf(&g->a, "%s://%s%s", scheme ? scheme : "https", host, bp ? bp : "");
		}
	} else {
		server = str(json_array_get(json_object_get(g->doc, "servers"), 0), "url");
	}
	if (version || server) {
		if (version) {
			put(g, "API version ");
			code(g, version);
		}
		if (server) {
			put(g, version ? " · base URL " : "Base URL ");
			code(g, server);
		}
		put(g, "\n\n");
	}
}

static void models_section(struct gen *g)
{
	const json_t *schemas = g->v2 ? json_object_get(g->doc, "definitions")
				      : json_object_get(json_object_get(g->doc, "components"), "schemas");
	const char *name;
	json_t *s;

	if (!json_is_object(schemas) || !json_object_size(schemas))
		return;
	put(g, "## Models\n\n");
	json_object_foreach((json_t *)schemas, name, s)
	{
		const char *f = g->entry;
		const json_t *r = deref(g, s, &f);
		put(g, "### ");
		cell(g, name);
		put(g, "\n\n");
		if (r && str(r, "description")) {
			put(g, str(r, "description"));
			put(g, "\n\n");
		}
		schema_block(g, g->entry, s);
	}
}

int openapi_markdown(struct jw *out, const json_t *fs, bool models)
{
	struct gen g = { .out = out, .fs = fs };
	const char *key, *tags_seen[MAX_TAGS];
	json_t *e;
	struct op *ops = NULL;
	int n = 0, ntags = 0, rc;

	json_object_foreach((json_t *)fs, key, e) if (json_is_true(json_object_get(e, "isEntrypoint"))) g.entry = key;
	if (!g.entry || !json_is_object(g.doc = file_doc(&g, g.entry)))
		return err_set(ERR_INVALID, "the version has no entry file");
	g.v2 = json_object_get(g.doc, "swagger") != NULL;
	arena_init(&g.a);
	intro(&g);
	if ((rc = collect(&g, &ops, &n))) {
		arena_free(&g.a);
		return rc;
	}
	/* The document's tags in their order, then tags it only uses, then none. */
	const json_t *tags = json_object_get(g.doc, "tags");
	size_t i;
	json_t *t;
	json_array_foreach(tags, i, t)
	{
		/* A tag object without a string name (the spec requires one, the
		 * author's file may not have it) names no section: skipped before
		 * any comparison reads the name. */
		const char *name = str(t, "name");
		bool dup = false;
		if (!name)
			continue;
		for (int k = 0; k < ntags && !dup; k++)
			dup = strcmp(tags_seen[k], name) == 0;
		if (dup || ntags >= MAX_TAGS)
			continue;
		tags_seen[ntags++] = name;
		tag_section(&g, name, str(t, "description"), ops, n);
	}
	for (int k = 0; k < n; k++) {
		bool seen = !ops[k].tag;
		for (int j = 0; j < ntags && !seen; j++)
			seen = strcmp(tags_seen[j], ops[k].tag) == 0;
		if (seen || ntags >= MAX_TAGS)
			continue;
		tags_seen[ntags++] = ops[k].tag;
		tag_section(&g, ops[k].tag, NULL, ops, n);
	}
	tag_section(&g, NULL, NULL, ops, n);
	if (n == 0)
		put(&g, "This API has no operations.\n\n");
	if (models)
		models_section(&g);
	arena_free(&g.a);
	return jw_ok(out) ? 0 : err_set(ERR_INTERNAL, "openapi: the page is too large");
}

int openapi_operation_markdown(struct jw *out, const json_t *fs, const char *path, const char *method)
{
	struct gen g = { .out = out, .fs = fs };
	const char *key;
	json_t *e;
	struct op *ops = NULL;
	int n = 0, rc;
	bool found = false;

	json_object_foreach((json_t *)fs, key, e) if (json_is_true(json_object_get(e, "isEntrypoint"))) g.entry = key;
	if (!g.entry || !json_is_object(g.doc = file_doc(&g, g.entry)))
		return err_set(ERR_INVALID, "the version has no entry file");
	g.v2 = json_object_get(g.doc, "swagger") != NULL;
	arena_init(&g.a);
	if ((rc = collect(&g, &ops, &n))) {
		arena_free(&g.a);
		return rc;
	}
	/* One operation as the reference page shows it (### title, the
	 * method and path, parameters, body, responses). */
	for (int k = 0; k < n && !found; k++)
		if (strcmp(ops[k].path, path) == 0 && strcasecmp(ops[k].method, method) == 0) {
			operation(&g, &ops[k]);
			found = true;
		}
	arena_free(&g.a);
	if (!found)
		return err_set(ERR_NOT_FOUND, "no such operation");
	return jw_ok(out) ? 0 : err_set(ERR_INTERNAL, "openapi: the block is too large");
}
