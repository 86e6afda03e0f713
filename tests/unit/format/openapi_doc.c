/* Unit tests: format/openapi_doc (parsing, the OpenAPI check, $ref files, paths
 * and URLs, computed sources) and format/openapi_md (the API reference markdown). */
#include "format/openapi_doc.h"
#include "util/arena.h"
#include "util/err.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

static const char PETSTORE_YAML[] =
	"openapi: 3.0.3\n"
	"info:\n  title: Petstore\n  version: 1.0.0\n  description: A sample API.\n"
	"servers:\n  - url: https://petstore.example.com/v1\n"
	"tags:\n  - name: pets\n    description: Everything about pets\n  - name: store\n"
	"paths:\n"
	"  /pets:\n"
	"    get:\n      summary: List all pets\n      tags: [pets]\n"
	"      parameters:\n        - name: limit\n          in: query\n          description: How many | at most\n"
	"          schema: { type: integer, format: int32 }\n"
	"      responses:\n        '200':\n          description: A page of pets\n"
	"          content:\n            application/json:\n              schema:\n"
	"                type: array\n                items: { $ref: '#/components/schemas/Pet' }\n"
	"    post:\n      summary: Create a pet\n      tags: [pets]\n"
	"      requestBody:\n        required: true\n        content:\n          application/json:\n"
	"            schema: { $ref: './schemas/pet.yaml' }\n"
	"      responses:\n        '201': { description: Created }\n"
	"  /pets/{petId}:\n"
	"    parameters:\n      - { name: petId, in: path, required: true, schema: { type: string } }\n"
	"    delete:\n      tags: [pets]\n      responses: { '204': { description: Deleted } }\n"
	"  /health:\n    get:\n      responses: { '200': { description: OK } }\n"
	"components:\n  schemas:\n    Pet:\n      type: object\n      required: [id, name]\n"
	"      properties:\n        id: { type: integer, format: int64 }\n        name: { type: string, description: Its name }\n"
	"        status: { type: string, enum: [available, sold] }\n";

UNIT_TEST(openapi_parse_yaml_and_json)
{
	json_t *v = NULL;
	const char *ver;

	CHECK(openapi_parse(PETSTORE_YAML, strlen(PETSTORE_YAML), &v) == 0);
	CHECK(openapi_check(v, &ver) == 0);
	CHECK_STR(ver, "3.0.3");
	/* YAML 1.2 core typing: integers, booleans, null; quoted stays a string. */
	CHECK(json_is_object(json_object_get(json_object_get(v, "paths"), "/pets")));
	json_decref(v);
	const char *typed = "a: 1\nb: true\nc: ~\nd: '1'\ne: 1.5\nf: 0x1F\ng: 3.0.0\nh: yes\n";
	CHECK(openapi_parse(typed, strlen(typed), &v) == 0);
	CHECK(json_integer_value(json_object_get(v, "a")) == 1);
	CHECK(json_is_true(json_object_get(v, "b")));
	CHECK(json_is_null(json_object_get(v, "c")));
	CHECK_STR(json_string_value(json_object_get(v, "d")), "1");
	CHECK(json_real_value(json_object_get(v, "e")) == 1.5);
	CHECK(json_integer_value(json_object_get(v, "f")) == 31);
	CHECK_STR(json_string_value(json_object_get(v, "g")), "3.0.0");
	CHECK_STR(json_string_value(json_object_get(v, "h")), "yes");
	json_decref(v);

	/* JSON, with a byte order mark and leading blanks. */
	const char *js = "\xEF\xBB\xBF \n{\"swagger\": \"2.0\", \"info\": {\"title\": \"x\", \"version\": \"1\"}, \"paths\": {}}";
	CHECK(openapi_parse(js, strlen(js), &v) == 0);
	CHECK(openapi_check(v, &ver) == 0);
	CHECK_STR(ver, "2.0");
	json_decref(v);
	/* Flow-style YAML that is not JSON still parses. */
	CHECK(openapi_parse("{openapi: 3.1.0, info: {title: t, version: v}}", 46, &v) == 0);
	CHECK(openapi_check(v, &ver) == 0);
	json_decref(v);
	/* An unquoted `openapi: 3.1` is a number, still version 3. */
	CHECK(openapi_parse("openapi: 3.1\ninfo: {title: t, version: v}\n", 42, &v) == 0);
	CHECK(openapi_check(v, &ver) == 0);
	json_decref(v);
}

UNIT_TEST(openapi_parse_and_check_errors)
{
	json_t *v = NULL;
	const char *ver;
	char *big;

	/* Syntax errors name the line. */
	CHECK(openapi_parse("a: [1, 2\nb: c\n", 14, &v) == ERR_INVALID && !v);
	CHECK(strstr(err_message(), "line") != NULL);
	CHECK(openapi_parse("{\"a\": [1,", 10, &v) == ERR_INVALID && strstr(err_message(), "line 1"));
	/* JSON that YAML reads (a trailing comma in a flow mapping) is taken. */
	CHECK(openapi_parse("{\"a\": 1,}", 9, &v) == 0);
	json_decref(v);
	CHECK(openapi_parse("", 0, &v) == ERR_INVALID);
	CHECK(openapi_parse("---\na: 1\n---\nb: 2\n", 18, &v) == ERR_INVALID);
	CHECK(openapi_parse("? [a]\n: b\n", 10, &v) == ERR_INVALID); /* a key that is not a scalar */
	/* Aliases are bounded: a billion laughs stops at the node budget or the alias limit. */
	const char *bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
			   "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
			   "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
			   "g: [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\n";
	CHECK(openapi_parse(bomb, strlen(bomb), &v) == ERR_INVALID && !v);
	/* Bounded in bytes: six levels of ten aliases over 2,000 bytes (60 aliases,
	 * under the alias limit) is 2 GB written out; it stops while parsing at
	 * OPENAPI_MAX_EXPANDED_BYTES, naming it, in YAML and in flow style ('{'). */
	{
		char *b = malloc(8192), msg[64];
		size_t n, used = 0;
		CHECK(b != NULL);
		if (b) {
			snprintf(msg, sizeof(msg), "expands to more than %zu bytes", OPENAPI_MAX_EXPANDED_BYTES);
			n = (size_t)sprintf(b, "openapi: 3.0.0\ninfo: {title: t, version: '1'}\nx0: &x0 \"");
			memset(b + n, 'y', 2000);
			n += 2000;
			n += (size_t)sprintf(b + n, "\"\n");
			for (int l = 1; l <= 6; l++) {
				n += (size_t)sprintf(b + n, "x%d: &x%d [", l, l);
				for (int k = 0; k < 10; k++)
					n += (size_t)sprintf(b + n, "%s*x%d", k ? ", " : "", l - 1);
				n += (size_t)sprintf(b + n, "]\n");
			}
			CHECK(openapi_parse(b, n, &v) == ERR_INVALID && !v && strstr(err_message(), msg));
			/* three levels (2 MB written out) load, and say how much they expanded to */
			b[n] = '\0';
			n = (size_t)(strstr(b, "x4:") - b);
			CHECK(openapi_parse_counted(b, n, &v, &used) == 0 && v && used > 2000000 && used < 2300000);
			json_decref(v);
			/* flow style: JSON's parser fails first, YAML's size reason is the one given */
			n = (size_t)sprintf(b, "{a: &a [\"%0500d\"], b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]", 0);
			for (int l = 0; l < 5; l++) {
				char ref[8];
				snprintf(ref, sizeof(ref), l ? "c%d" : "b", l - 1);
				n += (size_t)sprintf(b + n, ", c%d: &c%d [", l, l);
				for (int k = 0; k < 10; k++)
					n += (size_t)sprintf(b + n, "%s*%s", k ? ", " : "", ref);
				n += (size_t)sprintf(b + n, "]");
			}
			n += (size_t)sprintf(b + n, "}");
			CHECK(openapi_parse(b, n, &v) == ERR_INVALID && !v && strstr(err_message(), msg));
			/* a JSON document counts its length */
			CHECK(openapi_parse_counted("{\"a\": [1, 2]}", 13, &v, &used) == 0 && used == 13);
			json_decref(v);
			/* a recursive alias is refused, not walked */
			CHECK(openapi_parse("a: &a [*a, *a]\n", 15, &v) == ERR_INVALID && strstr(err_message(), "recursive"));
			free(b);
		}
	}
	/* Too large. */
	big = malloc(OPENAPI_MAX_BYTES + 2);
	CHECK(big != NULL);
	if (big) {
		memset(big, 'a', OPENAPI_MAX_BYTES + 1);
		big[OPENAPI_MAX_BYTES + 1] = '\0';
		CHECK(openapi_parse(big, OPENAPI_MAX_BYTES + 1, &v) == ERR_INVALID);
		free(big);
	}

	/* Documents that are not OpenAPI. */
	CHECK(openapi_parse("title: hello\n", 13, &v) == 0);
	CHECK(openapi_check(v, &ver) == ERR_INVALID);
	CHECK(strstr(err_message(), "openapi") != NULL);
	json_decref(v);
	CHECK(openapi_parse("- 1\n- 2\n", 8, &v) == 0);
	CHECK(openapi_check(v, &ver) == ERR_INVALID);
	json_decref(v);
	CHECK(openapi_parse("openapi: 2.0.0\ninfo: {}\n", 24, &v) == 0);
	CHECK(openapi_check(v, &ver) == ERR_INVALID);
	json_decref(v);
	CHECK(openapi_parse("swagger: '1.2'\ninfo: {}\n", 24, &v) == 0);
	CHECK(openapi_check(v, &ver) == ERR_INVALID);
	json_decref(v);
	CHECK(openapi_parse("openapi: 3.0.0\n", 15, &v) == 0);
	CHECK(openapi_check(v, &ver) == ERR_INVALID && strstr(err_message(), "info"));
	json_decref(v);
	CHECK(openapi_parse("openapi: 3.0.0\ninfo: {}\npaths: [1]\n", 35, &v) == 0);
	CHECK(openapi_check(v, &ver) == ERR_INVALID && strstr(err_message(), "paths"));
	json_decref(v);
	/* Plain text and HTML are no OpenAPI either. */
	CHECK(openapi_parse("<html><body>hi</body></html>", 28, &v) == 0);
	CHECK(openapi_check(v, &ver) == ERR_INVALID);
	json_decref(v);
}

UNIT_TEST(openapi_file_refs_and_paths)
{
	struct arena a;
	json_t *v = NULL;
	const char **refs;
	int n;

	arena_init(&a);
	const char *doc = "{\"a\": {\"$ref\": \"#/components/x\"}, \"b\": [{\"$ref\": \"./schemas/pet.yaml#/Pet\"}],"
			  " \"c\": {\"$ref\": \"schemas/pet.yaml\"}, \"d\": {\"$ref\": \"https://example.com/x.yaml\"},"
			  " \"e\": {\"$ref\": \"../common.yaml#/Error\"}, \"f\": {\"$ref\": \"/abs.yaml\"},"
			  " \"g\": {\"$ref\": \"urn:x\"}, \"h\": {\"$ref\": 3}}";
	CHECK(openapi_parse(doc, strlen(doc), &v) == 0);
	CHECK(openapi_file_refs(&a, v, &refs, &n) == 0);
	CHECK(n == 3);
	if (n == 3) {
		CHECK_STR(refs[0], "./schemas/pet.yaml");
		CHECK_STR(refs[1], "schemas/pet.yaml");
		CHECK_STR(refs[2], "../common.yaml");
	}
	json_decref(v);

	CHECK_STR(openapi_path_join(&a, NULL, "./schemas/pet.yaml"), "schemas/pet.yaml");
	CHECK_STR(openapi_path_join(&a, "schemas/pet.yaml", "tag.yaml"), "schemas/tag.yaml");
	CHECK_STR(openapi_path_join(&a, "schemas/pet.yaml", "../common.yaml"), "common.yaml");
	CHECK_STR(openapi_path_join(&a, NULL, "../common.yaml"), "../common.yaml");
	CHECK_STR(openapi_path_join(&a, "../a/b.yaml", "../../c.yaml"), "../../c.yaml");
	CHECK_STR(openapi_path_join(&a, NULL, "a//b/./c/../d.yaml"), "a/b/d.yaml");
	CHECK(openapi_path_join(&a, NULL, "/etc/passwd") == NULL);
	CHECK(openapi_path_join(&a, NULL, "a/..") == NULL);
	CHECK(openapi_path_join(&a, NULL, "") == NULL);
	CHECK(openapi_path_join(&a, NULL, "a\\b.yaml") == NULL);
	CHECK(openapi_path_join(&a, NULL, "../../../../../../../../../../../../../../../../../x") == NULL);
	CHECK_STR(openapi_path_dir(&a, "schemas/pet.yaml"), "schemas");
	CHECK_STR(openapi_path_dir(&a, "pet.yaml"), ".");
	CHECK_STR(openapi_path_base("schemas/pet.yaml"), "pet.yaml");

	CHECK_STR(openapi_url_resolve(&a, "http://127.0.0.1:8/specs/api.yaml?x=1#f", "schemas/pet.yaml"),
		  "http://127.0.0.1:8/specs/schemas/pet.yaml");
	CHECK_STR(openapi_url_resolve(&a, "https://h/specs/api.yaml", "../common.yaml"), "https://h/common.yaml");
	CHECK_STR(openapi_url_resolve(&a, "https://h/api.yaml", "../../x.yaml"), "https://h/x.yaml");
	CHECK_STR(openapi_url_resolve(&a, "https://h", "x.yaml"), "https://h/x.yaml");
	CHECK(openapi_url_resolve(&a, "ftp://h/x", "y") == NULL);
	arena_free(&a);
}

UNIT_TEST(openapi_computed_sources)
{
	struct arena a;
	json_t *v;
	const char *json, *slug;
	bool models;

	arena_init(&a);
	v = json_loads("{\"type\":\"builtin:openapi\",\"dependencies\":{\"spec\":{\"ref\":{\"kind\":\"openapi\",\"spec\":"
		       "\"petstore\"}}},\"props\":{\"models\":true}}",
		       0, NULL);
	CHECK(openapi_computed_check(&a, v, "computed", &json, &slug) == 0);
	CHECK_STR(slug, "petstore");
	CHECK(openapi_computed_read(&a, json, &slug, &models) == 0 && models);
	CHECK_STR(slug, "petstore");
	json_decref(v);
	/* props may be left out (models false). */
	v = json_loads("{\"type\":\"builtin:openapi\",\"dependencies\":{\"spec\":{\"ref\":{\"kind\":\"openapi\",\"spec\":"
		       "\"a-b\"}}}}",
		       0, NULL);
	CHECK(openapi_computed_check(&a, v, "computed", &json, &slug) == 0);
	CHECK(strstr(json, "\"models\":false") != NULL);
	json_decref(v);
	static const char *const bad[] = {
		"[]",
		"{}",
		"{\"type\":\"builtin:translation\",\"dependencies\":{}}",
		"{\"type\":\"integration:x:y\",\"props\":{}}",
		"{\"type\":\"builtin:openapi\"}",
		"{\"type\":\"builtin:openapi\",\"dependencies\":{\"spec\":{\"ref\":{\"kind\":\"space\",\"spec\":\"x\"}}}}",
		"{\"type\":\"builtin:openapi\",\"dependencies\":{\"spec\":{\"ref\":{\"kind\":\"openapi\",\"spec\":\"Bad Slug\"}}}}",
		"{\"type\":\"builtin:openapi\",\"dependencies\":{\"spec\":{\"ref\":{\"kind\":\"openapi\",\"spec\":\"x\"}}},"
		"\"props\":{\"models\":1}}",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = json_loads(bad[i], 0, NULL);
		CHECK(openapi_computed_check(&a, v, "changes[0].computed", &json, &slug) == ERR_INVALID);
		CHECK(strncmp(err_message(), "changes[0].computed", 19) == 0);
		json_decref(v);
	}
	CHECK(openapi_computed_read(&a, "{\"type\":\"x\"}", &slug, &models) == ERR_INVALID);
	CHECK(openapi_computed_read(&a, "not json", &slug, &models) == ERR_INVALID);
	arena_free(&a);
}

/* A filesystem of one entry file (and optional others) as the job stores it. */
static json_t *filesystem(const char *entry_yaml, const char *other_key, const char *other_yaml)
{
	json_t *fs = json_object(), *spec = NULL;

	CHECK(openapi_parse(entry_yaml, strlen(entry_yaml), &spec) == 0);
	json_object_set_new(fs, "openapi.yaml",
			    json_pack("{s:s,s:b,s:[],s:s,s:o}", "dir", ".", "isEntrypoint", 1, "references", "filename",
				      "openapi.yaml", "specification", spec));
	if (other_key) {
		json_t *o = NULL;
		CHECK(openapi_parse(other_yaml, strlen(other_yaml), &o) == 0);
		json_object_set_new(fs, other_key,
				    json_pack("{s:s,s:b,s:[],s:s,s:o}", "dir", "schemas", "isEntrypoint", 0, "references",
					      "filename", other_key, "specification", o));
	}
	return fs;
}

UNIT_TEST(openapi_markdown_reference)
{
	struct jw w;
	json_t *fs = filesystem(PETSTORE_YAML, "schemas/pet.yaml",
				"type: object\nproperties:\n  nickname: { type: string, description: What to call it }\n");

	jw_init(&w);
	CHECK(openapi_markdown(&w, fs, true) == 0);
	jw_put(&w, "", 1);
	const char *md = w.buf;
	/* Tags in the document's order, operations under them, untagged last. */
	const char *pets = strstr(md, "## pets"), *other = strstr(md, "## Other");
	CHECK(pets && other && pets < other);
	CHECK(strstr(md, "## store") == NULL); /* a tag without operations shows nothing */
	CHECK(strstr(md, "Everything about pets") != NULL);
	CHECK(strstr(md, "### List all pets") != NULL);
	CHECK(strstr(md, "`GET /pets`") != NULL);
	CHECK(strstr(md, "`POST /pets`") != NULL);
	CHECK(strstr(md, "### DELETE /pets/{petId}") != NULL); /* no summary: the method and path */
	CHECK(strstr(md, "`GET /health`") > other);
	/* Parameters, with path-level ones and escaped pipes. */
	CHECK(strstr(md, "| `limit` | query | integer (int32) | no | How many \\| at most |") != NULL);
	CHECK(strstr(md, "| `petId` | path | string | yes |") != NULL);
	/* Request body from another file; responses with the referenced schema's name. */
	CHECK(strstr(md, "**Request body** (`application/json`), required") != NULL);
	CHECK(strstr(md, "| `nickname` | string | no | What to call it |") != NULL);
	CHECK(strstr(md, "- `200`: A page of pets") != NULL);
	CHECK(strstr(md, "Type: array of Pet") != NULL);
	/* Info and models. */
	CHECK(strstr(md, "A sample API.") != NULL);
	CHECK(strstr(md, "API version `1.0.0` · base URL `https://petstore.example.com/v1`") != NULL);
	CHECK(strstr(md, "## Models") != NULL && strstr(md, "### Pet") != NULL);
	CHECK(strstr(md, "| `status` | string | no | Possible values: `available`, `sold`. |") != NULL);
	jw_free(&w);

	/* models false: no Models section. */
	jw_init(&w);
	CHECK(openapi_markdown(&w, fs, false) == 0);
	jw_put(&w, "", 1);
	CHECK(strstr(w.buf, "## Models") == NULL);
	jw_free(&w);
	json_decref(fs);

	/* Swagger 2.0: body and form parameters, response schemas, definitions, host. */
	fs = filesystem("swagger: '2.0'\ninfo: {title: t, version: '2'}\nhost: api.example.com\nbasePath: /v2\n"
			"paths:\n  /users:\n    post:\n      tags: [users]\n      summary: Add a user\n"
			"      parameters:\n        - { in: body, name: body, required: true, schema: { $ref: '#/definitions/User' } }\n"
			"      responses:\n        '200': { description: ok, schema: { $ref: '#/definitions/User' } }\n"
			"  /login:\n    post:\n      parameters:\n        - { in: formData, name: user, type: string, required: true }\n"
			"        - { in: header, name: X-Trace, type: string }\n      responses: { '200': { description: ok } }\n"
			"definitions:\n  User: { type: object, properties: { email: { type: string, format: email } } }\n",
			NULL, NULL);
	jw_init(&w);
	CHECK(openapi_markdown(&w, fs, false) == 0);
	jw_put(&w, "", 1);
	CHECK(strstr(w.buf, "base URL `https://api.example.com/v2`") != NULL);
	CHECK(strstr(w.buf, "### Add a user") != NULL);
	CHECK(strstr(w.buf, "| `email` | string (email) | no |") != NULL);
	CHECK(strstr(w.buf, "**Request body** (form)") != NULL);
	CHECK(strstr(w.buf, "| `user` | string | yes |") != NULL);
	CHECK(strstr(w.buf, "| `X-Trace` | header | string | no |") != NULL);
	jw_free(&w);
	json_decref(fs);

	/* A $ref cycle and a dangling ref end; no entry file is an error. */
	fs = filesystem("openapi: 3.0.0\ninfo: {title: t, version: v}\npaths:\n  /a:\n    get:\n      responses:\n"
			"        '200': { $ref: '#/components/responses/A' }\n"
			"components:\n  responses:\n    A: { $ref: '#/components/responses/B' }\n"
			"    B: { $ref: '#/components/responses/A' }\n  schemas:\n    S: { $ref: 'missing.yaml' }\n",
			NULL, NULL);
	jw_init(&w);
	CHECK(openapi_markdown(&w, fs, true) == 0);
	jw_free(&w);
	json_decref(fs);
	fs = json_object();
	jw_init(&w);
	CHECK(openapi_markdown(&w, fs, false) == ERR_INVALID);
	jw_free(&w);
	json_decref(fs);
}

/* Issue 30, 6a: a tag object without a (string) name after a named one was
 * compared with strcmp before the NULL check: SIGSEGV. Also the other shapes
 * the fuzz target (fuzz/openapi.c) feeds: tags, types and enums of the
 * wrong JSON type, a non-string operation tag, an empty document. */
UNIT_TEST(openapi_markdown_hostile_shapes)
{
	static const char *const specs[] = {
		"openapi: 3.0.0\ninfo: {title: t, version: v}\ntags:\n  - name: a\n  - description: no name\n"
		"paths:\n  /a:\n    get:\n      tags: [a]\n      responses: {'200': {description: ok}}\n",
		"openapi: 3.0.0\ninfo: {title: t, version: v}\ntags: [{name: a}, {name: 7}, {}, 3, null, [x]]\n"
		"paths:\n  /a:\n    get:\n      tags: [{name: x}, 3]\n      responses: {'200': {description: ok}}\n",
		"openapi: 3.0.0\ninfo: {title: 3, version: [1], description: {a: b}}\ntags: {name: a}\n"
		"paths:\n  /a:\n    get:\n      parameters: [{name: 1, in: 2}, {in: query}, 3]\n"
		"      responses: {'200': {description: 7, content: {x: {schema: {type: [1, null], enum: [{}, 1, true]}}}}}\n",
		"swagger: '2.0'\ninfo: {title: t}\nhost: 5\nschemes: [1]\npaths: {/a: {get: {parameters: [{in: body}]}}}\n",
		"openapi: 3.1.0\npaths: 3\n",
	};
	struct jw w;

	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		json_t *fs = filesystem(specs[i], NULL, NULL);
		jw_init(&w);
		CHECK(openapi_markdown(&w, fs, true) == 0);
		jw_put(&w, "", 1);
		if (i == 0)
			CHECK(jw_ok(&w) && strstr(w.buf, "## a") != NULL);
		jw_free(&w);
		jw_init(&w);
		(void)openapi_operation_markdown(&w, fs, "/a", "get");
		jw_free(&w);
		json_decref(fs);
	}
}
