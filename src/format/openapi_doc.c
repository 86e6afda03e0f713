/*
 * openapi_doc.c - parsing and checking OpenAPI documents, their relative
 * $ref files, and computed-page sources (openapi_doc.h). The API reference
 * markdown is in openapi_md.c.
 *
 * YAML goes through the bounded loader every YAML text of docsd goes through
 * (format/gitbook_yaml.h: depth, aliases, one document), with OpenAPI's own
 * size limits, then becomes a jansson tree so JSON and YAML specifications
 * are handled by one code path. An alias may be expanded many times (YAML's
 * "billion laughs"): the loader counts the bytes of the document with its
 * aliases written out and refuses one past OPENAPI_MAX_EXPANDED_BYTES before
 * any node exists, and refuses recursive aliases; the conversion also counts
 * the values it makes and bounds the depth, as a second line.
 */
#include "format/openapi_doc.h"
#include "format/gitbook_yaml.h"
#include "util/err.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- YAML to JSON ---- */

struct conv {
	yaml_document_t *doc;
	size_t nodes;
};

static bool scalar_eq(const yaml_node_t *n, const char *s)
{
	size_t l = strlen(s);

	return n->data.scalar.length == l && memcmp(n->data.scalar.value, s, l) == 0;
}

/* [-+]?digits, or 0x.. / 0o.. (YAML 1.2 core): 1 with *v. */
static int plain_int(const char *s, long long *v)
{
	const char *p = s;
	char *end;
	int base = 10;

	if (*p == '-' || *p == '+')
		p++;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'o') && p == s) {
		base = p[1] == 'x' ? 16 : 8;
		p += 2;
	}
	if (!*p)
		return 0;
	for (const char *q = p; *q; q++)
		if (!(base == 16 ? isxdigit((unsigned char)*q) : base == 8 ? (*q >= '0' && *q <= '7') : isdigit((unsigned char)*q)))
			return 0;
	errno = 0;
	*v = strtoll(base == 10 ? s : p, &end, base);
	return errno == 0 && *end == '\0';
}

/* [-+]?(.digits|digits[.digits])([eE][-+]?digits)? : 1 with *v. */
static int plain_float(const char *s, double *v)
{
	const char *p = s;
	int digits = 0;
	char *end;

	if (*p == '-' || *p == '+')
		p++;
	while (isdigit((unsigned char)*p))
		p++, digits++;
	if (*p == '.') {
		p++;
		while (isdigit((unsigned char)*p))
			p++, digits++;
	}
	if (!digits)
		return 0;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '-' || *p == '+')
			p++;
		if (!isdigit((unsigned char)*p))
			return 0;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p)
		return 0;
	errno = 0;
	*v = strtod(s, &end);
	return *end == '\0' && isfinite(*v);
}

static json_t *scalar_json(const yaml_node_t *n)
{
	const char *s = (const char *)n->data.scalar.value;
	size_t len = n->data.scalar.length;
	long long iv;
	double dv;

	if (n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && len < 64 && strlen(s) == len) {
		if (len == 0 || scalar_eq(n, "~") || scalar_eq(n, "null") || scalar_eq(n, "Null") || scalar_eq(n, "NULL"))
			return json_null();
		if (scalar_eq(n, "true") || scalar_eq(n, "True") || scalar_eq(n, "TRUE"))
			return json_true();
		if (scalar_eq(n, "false") || scalar_eq(n, "False") || scalar_eq(n, "FALSE"))
			return json_false();
		if (plain_int(s, &iv))
			return json_integer(iv);
		if (plain_float(s, &dv))
			return json_real(dv);
	}
	return json_stringn(s, len);
}

static int conv_node(struct conv *c, yaml_node_t *n, int depth, json_t **out)
{
	json_t *v = NULL;
	int rc = 0;

	*out = NULL;
	if (!n)
		return err_set(ERR_INVALID, "a YAML node is missing");
	if (++c->nodes > OPENAPI_MAX_NODES)
		return err_set(ERR_INVALID, "the document expands to more than %d values (YAML aliases?)", OPENAPI_MAX_NODES);
	if (depth > OPENAPI_MAX_DEPTH)
		return err_set(ERR_INVALID, "line %d: nested deeper than %d levels (a recursive alias?)",
			       (int)n->start_mark.line + 1, OPENAPI_MAX_DEPTH);
	switch (n->type) {
	case YAML_SCALAR_NODE:
		if (!(v = scalar_json(n)))
			return err_set(ERR_INVALID, "line %d: a string that is not UTF-8 text", (int)n->start_mark.line + 1);
		break;
	case YAML_SEQUENCE_NODE:
		if (!(v = json_array()))
			return err_set(ERR_INTERNAL, "out of memory");
		for (yaml_node_item_t *it = n->data.sequence.items.start; rc == 0 && it < n->data.sequence.items.top; it++) {
			json_t *x;
			if ((rc = conv_node(c, yaml_document_get_node(c->doc, *it), depth + 1, &x)) == 0 &&
			    json_array_append_new(v, x))
				rc = err_set(ERR_INTERNAL, "out of memory");
		}
		break;
	case YAML_MAPPING_NODE:
		if (!(v = json_object()))
			return err_set(ERR_INTERNAL, "out of memory");
		for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; rc == 0 && pr < n->data.mapping.pairs.top; pr++) {
			yaml_node_t *k = yaml_document_get_node(c->doc, pr->key);
			json_t *x;
			if (!k || k->type != YAML_SCALAR_NODE ||
			    strlen((const char *)k->data.scalar.value) != k->data.scalar.length) {
				rc = err_set(ERR_INVALID, "line %d: mapping keys must be plain text",
					     (int)(k ? k->start_mark.line : n->start_mark.line) + 1);
				break;
			}
			/* "<<" merge keys are not expanded: OpenAPI documents do not use them. */
			if ((rc = conv_node(c, yaml_document_get_node(c->doc, pr->value), depth + 1, &x)) == 0 &&
			    json_object_set_new(v, (const char *)k->data.scalar.value, x))
				rc = err_set(ERR_INVALID, "line %d: a key that is not UTF-8 text", (int)k->start_mark.line + 1);
		}
		break;
	default:
		return err_set(ERR_INVALID, "an empty YAML node");
	}
	if (rc) {
		json_decref(v);
		return rc;
	}
	*out = v;
	return 0;
}

/* Depth of a JSON tree, bounded: false when deeper than max. */
static bool depth_ok(const json_t *v, int max)
{
	if (max < 0)
		return false;
	if (json_is_object(v)) {
		const char *k;
		json_t *x;
		json_object_foreach((json_t *)v, k, x) if (!depth_ok(x, max - 1)) return false;
	} else if (json_is_array(v)) {
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x) if (!depth_ok(x, max - 1)) return false;
	}
	return true;
}

static int parse_yaml(const char *s, size_t len, json_t **out, size_t *expanded)
{
	yaml_document_t doc;
	struct conv c = { .doc = &doc };
	yaml_node_t *root;
	int rc = yaml_load_sized(&doc, s, len, 1, OPENAPI_MAX_BYTES, OPENAPI_MAX_EXPANDED_BYTES, expanded);

	if (rc)
		return rc;
	root = yaml_document_get_root_node(&doc);
	if (!root)
		rc = err_set(ERR_INVALID, "the document is empty");
	else
		rc = conv_node(&c, root, 1, out);
	yaml_document_delete(&doc);
	return rc;
}

int openapi_parse(const char *s, size_t len, json_t **out)
{
	return openapi_parse_counted(s, len, out, NULL);
}

int openapi_parse_counted(const char *s, size_t len, json_t **out, size_t *expanded)
{
	size_t i = 0, n = 0;
	json_error_t je;
	json_t *v;
	int rc;

	*out = NULL;
	if (expanded)
		*expanded = 0;
	if (len > OPENAPI_MAX_BYTES)
		return err_set(ERR_INVALID, "larger than %zu bytes", OPENAPI_MAX_BYTES);
	if (len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
		s += 3, len -= 3; /* a UTF-8 byte order mark */
	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
		i++;
	if (i < len && (s[i] == '{' || s[i] == '[')) {
		v = json_loadb(s, len, JSON_REJECT_DUPLICATES, &je);
		if (v) {
			if (!depth_ok(v, OPENAPI_MAX_DEPTH)) {
				json_decref(v);
				return err_set(ERR_INVALID, "nested deeper than %d levels", OPENAPI_MAX_DEPTH);
			}
			/* JSON has no aliases: it is as large as its text. */
			if (expanded)
				*expanded = len;
			*out = v;
			return 0;
		}
		/* Flow-style YAML also starts with '{': try it before giving JSON's
		 * reason, unless YAML refused it for its size (that reason is the
		 * one that helps). */
		if ((rc = parse_yaml(s, len, out, &n)) == 0) {
			if (expanded)
				*expanded = n;
			return 0;
		}
		if (rc == ERR_INVALID && strstr(err_message(), YAML_EXPANDED_MESSAGE))
			return rc;
		return err_set(ERR_INVALID, "line %d, column %d: %s", je.line, je.column, je.text);
	}
	return parse_yaml(s, len, out, expanded);
}

/* ---- what kind of document ---- */

int openapi_check(const json_t *doc, const char **version)
{
	const json_t *oa, *sw, *info, *paths;

	*version = NULL;
	if (!json_is_object(doc))
		return err_set(ERR_INVALID, "not an OpenAPI document: the top level is not a mapping");
	oa = json_object_get(doc, "openapi");
	sw = json_object_get(doc, "swagger");
	if (json_is_string(oa)) {
		const char *s = json_string_value(oa);
		if (!(s[0] == '3' && s[1] == '.' && isdigit((unsigned char)s[2])))
			return err_set(ERR_INVALID, "openapi: version '%.20s' is not supported (3.x or swagger 2.0)", s);
		*version = s;
	} else if (json_is_number(oa)) {
		/* `openapi: 3.1` unquoted is a YAML number. */
		double d = json_number_value(oa);
		if (!(d >= 3 && d < 4))
			return err_set(ERR_INVALID, "openapi: version %g is not supported (3.x or swagger 2.0)", d);
		*version = "3";
	} else if (json_is_string(sw) || json_is_number(sw)) {
		if (json_is_string(sw) ? strcmp(json_string_value(sw), "2.0") != 0 : json_number_value(sw) != 2.0)
			return err_set(ERR_INVALID, "swagger: only version 2.0 is supported");
		*version = "2.0";
	} else {
		return err_set(ERR_INVALID,
			       "not an OpenAPI document: it has no `openapi` (3.x) or `swagger` (2.0) version field");
	}
	info = json_object_get(doc, "info");
	if (!json_is_object(info))
		return err_set(ERR_INVALID, "info: required, a mapping (title, version)");
	paths = json_object_get(doc, "paths");
	if (paths && !json_is_object(paths) && !json_is_null(paths))
		return err_set(ERR_INVALID, "paths: must be a mapping of paths to operations");
	return 0;
}

/* ---- $ref files ---- */

/* A URI reference with a scheme ("https:", "urn:"). */
static bool has_scheme(const char *s)
{
	const char *p = s;

	if (!isalpha((unsigned char)*p))
		return false;
	while (isalnum((unsigned char)*p) || *p == '+' || *p == '-' || *p == '.')
		p++;
	return *p == ':';
}

struct refs {
	struct arena *a;
	const char **items;
	int n, cap;
};

static int refs_add(struct refs *r, const char *ref)
{
	size_t n = strcspn(ref, "#");

	if (n == 0 || has_scheme(ref) || ref[0] == '/')
		return 0;
	for (int i = 0; i < r->n; i++)
		if (strlen(r->items[i]) == n && strncmp(r->items[i], ref, n) == 0)
			return 0;
	if (r->n == r->cap) {
		int cap = r->cap ? 2 * r->cap : 16;
		const char **items = arena_alloc(r->a, sizeof(*items) * (size_t)cap);
		if (r->n)
			memcpy(items, r->items, sizeof(*items) * (size_t)r->n);
		r->items = items;
		r->cap = cap;
	}
	r->items[r->n++] = arena_strndup(r->a, ref, n);
	return 0;
}

static int refs_walk(struct refs *r, const json_t *v, int depth)
{
	int rc = 0;

	if (depth > OPENAPI_MAX_DEPTH)
		return 0;
	if (json_is_object(v)) {
		const char *k;
		json_t *x;
		json_object_foreach((json_t *)v, k, x)
		{
			if (strcmp(k, "$ref") == 0 && json_is_string(x))
				rc = refs_add(r, json_string_value(x));
			else
				rc = refs_walk(r, x, depth + 1);
			if (rc)
				return rc;
		}
	} else if (json_is_array(v)) {
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x) if ((rc = refs_walk(r, x, depth + 1))) return rc;
	}
	return 0;
}

int openapi_file_refs(struct arena *a, const json_t *doc, const char ***out, int *n)
{
	struct refs r = { .a = a };
	int rc = refs_walk(&r, doc, 0);

	*out = r.items;
	*n = r.n;
	return rc;
}

/* ---- paths and URLs ---- */

#define MAX_SEGMENTS 256
#define MAX_UP 16

/* Fold "." and ".." of the segments of s (split on '/') onto seg; leading
 * ".." are kept when keep_up, else dropped (URL paths). */
static int fold(const char *s, const char **seg, size_t *len, int *n, bool keep_up)
{
	while (*s) {
		size_t l = strcspn(s, "/");
		if (l == 0 || (l == 1 && s[0] == '.')) {
			/* "" and "." name the same directory */
		} else if (l == 2 && s[0] == '.' && s[1] == '.') {
			if (*n > 0 && !(len[*n - 1] == 2 && memcmp(seg[*n - 1], "..", 2) == 0))
				(*n)--;
			else if (keep_up) {
				if (*n >= MAX_UP)
					return -1;
				seg[*n] = s, len[*n] = 2, (*n)++;
			}
		} else {
			if (*n >= MAX_SEGMENTS)
				return -1;
			seg[*n] = s, len[*n] = l, (*n)++;
		}
		s += l;
		if (*s == '/')
			s++;
	}
	return 0;
}

static char *join_segments(struct arena *a, const char *prefix, const char **seg, const size_t *len, int n,
			   bool trailing_slash)
{
	size_t total = strlen(prefix) + 2;
	char *out, *w;

	for (int i = 0; i < n; i++)
		total += len[i] + 1;
	out = arena_alloc(a, total);
	w = out + strlen(prefix);
	memcpy(out, prefix, strlen(prefix));
	for (int i = 0; i < n; i++) {
		if (i > 0 || *prefix)
			*w++ = '/';
		memcpy(w, seg[i], len[i]);
		w += len[i];
	}
	if (trailing_slash)
		*w++ = '/';
	*w = '\0';
	return out;
}

char *openapi_path_join(struct arena *a, const char *from, const char *ref)
{
	const char *seg[MAX_SEGMENTS + MAX_UP];
	size_t len[MAX_SEGMENTS + MAX_UP];
	int n = 0;
	char *dir;

	if (!ref || !*ref || ref[0] == '/' || strchr(ref, '\\'))
		return err_set(ERR_INVALID, "'%.200s' is not a relative path", ref ? ref : ""), NULL;
	if (from && strcmp((dir = openapi_path_dir(a, from)), ".") != 0 && fold(dir, seg, len, &n, true))
		return err_set(ERR_INVALID, "'%.200s' is nested too deep", from), NULL;
	if (fold(ref, seg, len, &n, true))
		return err_set(ERR_INVALID, "'%.200s' is nested too deep", ref), NULL;
	if (n == 0 || (len[n - 1] == 2 && memcmp(seg[n - 1], "..", 2) == 0))
		return err_set(ERR_INVALID, "'%.200s' names a directory, not a file", ref), NULL;
	return join_segments(a, "", seg, len, n, false);
}

char *openapi_path_dir(struct arena *a, const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? arena_strndup(a, path, (size_t)(slash - path)) : arena_strdup(a, ".");
}

const char *openapi_path_base(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

char *openapi_url_resolve(struct arena *a, const char *base_url, const char *path)
{
	const char *seg[2 * MAX_SEGMENTS + MAX_UP];
	size_t len[2 * MAX_SEGMENTS + MAX_UP];
	const char *auth, *p;
	char *origin, *bdir;
	size_t plen;
	int n = 0;

	if (strncmp(base_url, "http://", 7) != 0 && strncmp(base_url, "https://", 8) != 0)
		return err_set(ERR_INVALID, "not an http(s) URL"), NULL;
	auth = strstr(base_url, "://") + 3;
	p = auth + strcspn(auth, "/?#");
	origin = arena_strndup(a, base_url, (size_t)(p - base_url));
	plen = strcspn(p, "?#");
	/* The base's directory: its path up to the last '/'. */
	while (plen > 0 && p[plen - 1] != '/')
		plen--;
	bdir = arena_strndup(a, p, plen);
	if (fold(bdir, seg, len, &n, false) || fold(path, seg, len, &n, false))
		return err_set(ERR_INVALID, "'%.200s' is nested too deep", path), NULL;
	return n == 0 ? arena_printf(a, "%s/", origin) : join_segments(a, origin, seg, len, n, false);
}

/* ---- computed pages ---- */

static bool slug_ok(const char *s)
{
	size_t n = strlen(s);

	if (n < 1 || n > 100 || s[0] == '-' || s[n - 1] == '-')
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || (s[i] == '-' && s[i + 1] != '-')))
			return false;
	return true;
}

int openapi_computed_check(struct arena *a, const json_t *v, const char *prefix, const char **json,
			   const char **slug)
{
	const json_t *type, *deps, *spec, *ref, *kind, *name, *props, *models;
	char *s;

	if (!json_is_object(v))
		return err_set(ERR_INVALID, "%s: must be an object (GitBook's ComputedContentSourceRevision)", prefix);
	type = json_object_get(v, "type");
	if (!json_is_string(type))
		return err_set(ERR_INVALID, "%s.type: required: builtin:openapi", prefix);
	if (strcmp(json_string_value(type), "builtin:openapi") != 0)
		return err_set(ERR_INVALID, "%s.type: '%.100s' is not supported; only builtin:openapi computed pages are",
			       prefix, json_string_value(type));
	deps = json_object_get(v, "dependencies");
	spec = json_object_get(deps, "spec");
	ref = json_object_get(spec, "ref");
	if (!json_is_object(deps) || !json_is_object(spec) || !json_is_object(ref))
		return err_set(ERR_INVALID, "%s.dependencies.spec.ref: required: {\"kind\": \"openapi\", \"spec\": <slug>}",
			       prefix);
	kind = json_object_get(ref, "kind");
	name = json_object_get(ref, "spec");
	if (!json_is_string(kind) || strcmp(json_string_value(kind), "openapi") != 0)
		return err_set(ERR_INVALID, "%s.dependencies.spec.ref.kind: must be 'openapi'", prefix);
	if (!json_is_string(name) || !slug_ok(json_string_value(name)))
		return err_set(ERR_INVALID, "%s.dependencies.spec.ref.spec: must be an OpenAPI spec's slug", prefix);
	props = json_object_get(v, "props");
	models = json_object_get(props, "models");
	if (props && !json_is_object(props))
		return err_set(ERR_INVALID, "%s.props: must be an object ({\"models\": boolean})", prefix);
	if (models && !json_is_boolean(models))
		return err_set(ERR_INVALID, "%s.props.models: must be a boolean", prefix);
	*slug = arena_strdup(a, json_string_value(name));
	/* Stored normalized: what GitBook's RevisionPageComputed.computed holds. */
	s = arena_printf(a,
			 "{\"type\":\"builtin:openapi\",\"dependencies\":{\"spec\":{\"ref\":{\"kind\":\"openapi\","
			 "\"spec\":\"%s\"}}},\"props\":{\"models\":%s}}",
			 *slug, json_is_true(models) ? "true" : "false");
	*json = s;
	return 0;
}

int openapi_computed_read(struct arena *a, const char *text, const char **slug, bool *models)
{
	json_t *v = text ? json_loads(text, 0, NULL) : NULL;
	const json_t *ref = json_object_get(json_object_get(json_object_get(v, "dependencies"), "spec"), "ref");
	const char *type = json_string_value(json_object_get(v, "type"));
	const char *s = json_string_value(json_object_get(ref, "spec"));
	int rc = 0;

	*slug = NULL;
	*models = json_is_true(json_object_get(json_object_get(v, "props"), "models"));
	if (!s || !type || strcmp(type, "builtin:openapi") != 0)
		rc = err_set(ERR_INVALID, "not an OpenAPI computed source");
	else
		*slug = arena_strdup(a, s);
	json_decref(v);
	return rc;
}
