/*
 * adaptive.c - the adaptive schema of a site: validation against GitBook's
 * SiteAdaptiveJSONSchema and the template conditions derived from it.
 *
 * DESIGN
 *   The validator walks the schema once, depth-first, carrying the path of
 *   the value it looks at ("jsonSchema.properties.plan") in a fixed buffer;
 *   the first violation becomes the error, "<path>: <what is wrong>". Each
 *   claim name is written into the path as .name, or ["name"] when it is not
 *   an identifier, shortened to PATH_NAME_MAX bytes so that the message always
 *   fits err.c's buffer whole (never cut inside a UTF-8 sequence).
 *   Object claims nest at most ADAPTIVE_MAX_DEPTH levels, so the walk's
 *   recursion is bounded whatever the request holds.
 *
 *   The template walk visits the claims of a valid schema in document order
 *   (jansson keeps insertion order) and appends conditions to an array that
 *   doubles in the caller's arena; each condition is checked with
 *   cond_parse() before it is kept.
 */
#include "model/adaptive.h"

#include "model/condition.h"
#include "util/err.h"

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define ADAPTIVE_MAX_DEPTH 8
#define PATH_NAME_MAX 24
#define PATH_MAX_LEN 440

static const char draft07[] = "http://json-schema.org/draft-07/schema#";
static const char unsigned_description[] = "Unsigned claims of the site visitor.";

struct path {
	char s[PATH_MAX_LEN + 64];
	size_t n;
};

static bool is_identifier(const char *s, size_t len)
{
	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';

		if (!alpha && !(i > 0 && c >= '0' && c <= '9'))
			return false;
	}
	return true;
}

/* Writes name as a JavaScript string body (without quotes) into dst (NULL:
 * count only), stopping before max output bytes at a character boundary;
 * returns the bytes written and sets *cut when it stopped early. */
static size_t escape_js(char *dst, const char *name, size_t len, size_t max, bool *cut)
{
	size_t o = 0;

	for (size_t i = 0; i < len;) {
		unsigned char c = (unsigned char)name[i];
		char tmp[8];
		size_t k, adv = 1;

		if (c == '"' || c == '\\') {
			tmp[0] = '\\';
			tmp[1] = (char)c;
			k = 2;
		} else if (c < 0x20) {
			k = (size_t)snprintf(tmp, sizeof(tmp), "\\u%04x", c);
		} else {
			/* One whole UTF-8 character (jansson's strings are valid). */
			if (c >= 0xF0)
				adv = 4;
			else if (c >= 0xE0)
				adv = 3;
			else if (c >= 0xC0)
				adv = 2;
			if (adv > len - i)
				adv = len - i;
			memcpy(tmp, name + i, adv);
			k = adv;
		}
		if (o + k > max) {
			if (cut)
				*cut = true;
			break;
		}
		if (dst)
			memcpy(dst + o, tmp, k);
		o += k;
		i += adv;
	}
	return o;
}

static void path_add(struct path *p, const char *text)
{
	size_t k = strlen(text);

	if (p->n + k > PATH_MAX_LEN)
		k = 0; /* cannot happen within the depth limit; keep the path valid */
	memcpy(p->s + p->n, text, k);
	p->n += k;
	p->s[p->n] = '\0';
}

/* Appends .name or ["name"], the name shortened to PATH_NAME_MAX bytes. */
static void path_key(struct path *p, const char *name, size_t len)
{
	char buf[PATH_NAME_MAX + 16];
	bool cut = false;
	size_t o;

	if (is_identifier(name, len) && len <= PATH_NAME_MAX) {
		buf[0] = '.';
		memcpy(buf + 1, name, len);
		buf[len + 1] = '\0';
	} else {
		buf[0] = '[';
		buf[1] = '"';
		o = 2 + escape_js(buf + 2, name, len, PATH_NAME_MAX, &cut);
		if (cut) {
			memcpy(buf + o, "\xE2\x80\xA6", 3);
			o += 3;
		}
		memcpy(buf + o, "\"]", 3);
	}
	path_add(p, buf);
}

static int path_err(const struct path *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int path_err(const struct path *p, const char *fmt, ...)
{
	char what[96];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return err_set(ERR_INVALID, "%s: %s", p->s, what);
}

/* Path of the member `key` of the value at p, restored on return. */
#define WITH_MEMBER(p, key, body)                                  \
	do {                                                       \
		size_t saved_ = (p)->n;                            \
		path_add((p), "." key);                            \
		body;                                              \
		(p)->n = saved_;                                   \
		(p)->s[saved_] = '\0';                             \
	} while (0)

static bool one_of(const char *k, const char *const *allowed)
{
	for (; *allowed; allowed++)
		if (!strcmp(k, *allowed))
			return true;
	return false;
}

/* The first key of obj not in allowed, as an error. */
static int only_keys(struct path *p, const json_t *obj, const char *const *allowed, const char *what)
{
	const char *k;
	size_t klen;
	json_t *v;
	int rc = 0;

	json_object_keylen_foreach((json_t *)obj, k, klen, v) {
		if (strlen(k) == klen && one_of(k, allowed))
			continue;
		path_key(p, k, klen);
		rc = what ? path_err(p, "is not allowed in %s", what) : path_err(p, "is not allowed");
		break;
	}
	return rc;
}

static int must_be_false(struct path *p, const json_t *obj)
{
	const json_t *v = json_object_get(obj, "additionalProperties");
	int rc = 0;

	WITH_MEMBER(p, "additionalProperties", {
		if (!v)
			rc = path_err(p, "required");
		else if (!json_is_false(v))
			rc = path_err(p, "must be false");
	});
	return rc;
}

static int check_claims(struct path *p, const json_t *owner, int depth);

static int check_enum(struct path *p, const json_t *e)
{
	size_t i;
	const json_t *s;
	int rc = 0;

	if (!json_is_array(e))
		return path_err(p, "must be an array of strings");
	json_array_foreach(e, i, s) {
		if (!json_is_string(s)) {
			char idx[32];

			snprintf(idx, sizeof(idx), "[%zu]", i);
			path_add(p, idx);
			rc = path_err(p, "must be a string");
			break;
		}
	}
	return rc;
}

/* One claim (SiteAdaptiveJSONSchemaClaimsProperties) at p; item is true for
 * an array's items, which are primitives (SiteAdaptiveJSONSchemaPrimitives). */
static int check_claim(struct path *p, const json_t *c, int depth, bool item)
{
	static const char *const boolean_keys[] = { "type", "description", NULL };
	static const char *const string_keys[] = { "type", "description", "enum", NULL };
	static const char *const array_keys[] = { "type", "description", "items", NULL };
	static const char *const object_keys[] = { "type", "description", "properties", "additionalProperties", NULL };
	const json_t *type = json_is_object(c) ? json_object_get(c, "type") : NULL;
	const char *t = json_string_value(type);
	const char *const *allowed;
	int rc = 0;

	if (!json_is_object(c))
		return path_err(p, "must be an object");
	if (!t || (strcmp(t, "boolean") && strcmp(t, "string") && strcmp(t, "number") &&
		   (item || (strcmp(t, "array") && strcmp(t, "object"))))) {
		WITH_MEMBER(p, "type", {
			if (!type)
				rc = path_err(p, "required");
			else if (item)
				rc = path_err(p, "must be one of boolean, string, number");
			else
				rc = path_err(p, "must be one of boolean, string, number, array, object");
		});
		return rc;
	}
	allowed = !strcmp(t, "string") ? string_keys
		  : !strcmp(t, "array") ? array_keys
		  : !strcmp(t, "object") ? object_keys
					  : boolean_keys;
	if ((rc = only_keys(p, c, allowed, !strcmp(t, "array") ? "an array claim"
					   : !strcmp(t, "object") ? "an object claim"
					   : !strcmp(t, "string") ? "a string claim"
					   : !strcmp(t, "number") ? "a number claim"
								  : "a boolean claim")))
		return rc;
	WITH_MEMBER(p, "description", {
		const json_t *d = json_object_get(c, "description");

		if (!d)
			rc = path_err(p, "required");
		else if (!json_is_string(d))
			rc = path_err(p, "must be a string");
	});
	if (rc)
		return rc;
	if (!strcmp(t, "string")) {
		const json_t *e = json_object_get(c, "enum");

		if (e)
			WITH_MEMBER(p, "enum", rc = check_enum(p, e));
	} else if (!strcmp(t, "array")) {
		const json_t *items = json_object_get(c, "items");

		WITH_MEMBER(p, "items", rc = items ? check_claim(p, items, depth, true) : path_err(p, "required"));
	} else if (!strcmp(t, "object")) {
		if (depth >= ADAPTIVE_MAX_DEPTH)
			return path_err(p, "object claims nest deeper than %d levels", ADAPTIVE_MAX_DEPTH);
		rc = check_claims(p, c, depth + 1);
		if (!rc)
			rc = must_be_false(p, c);
	}
	return rc;
}

/* owner.properties: an object of claims at nesting level depth. */
static int check_claims(struct path *p, const json_t *owner, int depth)
{
	const json_t *props = json_object_get(owner, "properties");
	int rc = 0;

	WITH_MEMBER(p, "properties", {
		const char *k;
		size_t klen;
		json_t *v;

		if (!props)
			rc = path_err(p, "required");
		else if (!json_is_object(props))
			rc = path_err(p, "must be an object");
		else
			json_object_keylen_foreach((json_t *)props, k, klen, v) {
				size_t saved = p->n;

				path_key(p, k, klen);
				rc = check_claim(p, v, depth, false);
				p->n = saved;
				p->s[saved] = '\0';
				if (rc)
					break;
			}
	});
	return rc;
}

/* jsonSchema.properties.unsigned: the container of the unsigned claims. */
static int check_unsigned(struct path *p, const json_t *u)
{
	static const char *const keys[] = { "type", "description", "properties", "additionalProperties", NULL };
	const json_t *type = json_object_get(u, "type"), *d = json_object_get(u, "description");
	int rc = 0;

	if (!json_is_object(u))
		return path_err(p, "must be an object");
	if ((rc = only_keys(p, u, keys, NULL)))
		return rc;
	WITH_MEMBER(p, "type", {
		if (!type)
			rc = path_err(p, "required");
		else if (!json_is_string(type) || strcmp(json_string_value(type), "object"))
			rc = path_err(p, "must be \"object\"");
	});
	if (rc)
		return rc;
	WITH_MEMBER(p, "description", {
		if (!d)
			rc = path_err(p, "required");
		else if (!json_is_string(d) || strcmp(json_string_value(d), unsigned_description))
			rc = path_err(p, "must be \"%s\"", unsigned_description);
	});
	if (rc)
		return rc;
	rc = check_claims(p, u, 1);
	return rc ? rc : must_be_false(p, u);
}

int adaptive_schema_check(const json_t *schema)
{
	static const char *const keys[] = { "$schema", "type", "properties", "additionalProperties", NULL };
	struct path p = { .s = "jsonSchema", .n = 10 };
	const json_t *v, *props;
	const char *k;
	size_t klen;
	int rc = 0;

	if (!json_is_object(schema))
		return path_err(&p, "must be an object");
	if ((rc = only_keys(&p, schema, keys, NULL)))
		return rc;
	v = json_object_get(schema, "$schema");
	if (v && (!json_is_string(v) || strcmp(json_string_value(v), draft07)))
		return err_set(ERR_INVALID, "jsonSchema.$schema: must be \"%s\"", draft07);
	v = json_object_get(schema, "type");
	if (!v)
		return err_set(ERR_INVALID, "jsonSchema.type: required");
	if (!json_is_string(v) || strcmp(json_string_value(v), "object"))
		return err_set(ERR_INVALID, "jsonSchema.type: must be \"object\"");
	props = json_object_get(schema, "properties");
	if (!props)
		return err_set(ERR_INVALID, "jsonSchema.properties: required");
	if (!json_is_object(props))
		return err_set(ERR_INVALID, "jsonSchema.properties: must be an object");
	path_add(&p, ".properties");
	json_object_keylen_foreach((json_t *)props, k, klen, v) {
		size_t saved = p.n;

		path_key(&p, k, klen);
		rc = klen == 8 && !memcmp(k, "unsigned", 8) ? check_unsigned(&p, v) : check_claim(&p, v, 1, false);
		p.n = saved;
		p.s[saved] = '\0';
		if (rc)
			return rc;
	}
	p.n = 10;
	p.s[10] = '\0';
	return must_be_false(&p, schema);
}

/* ---- template conditions ---- */

struct seg {
	const char *name;
	size_t len;
};

struct collector {
	struct arena *a;
	struct template_condition *items;
	int n, cap;
	bool too_many; /* the array's size would overflow */
};

/* visitor.claims.a["b-c"] for segs, allocated from a. */
static char *member_expr(struct arena *a, const struct seg *segs, int nseg)
{
	size_t total = strlen("visitor.claims"), o;
	char *s;

	for (int i = 0; i < nseg; i++)
		total += is_identifier(segs[i].name, segs[i].len)
				 ? 1 + segs[i].len
				 : 4 + escape_js(NULL, segs[i].name, segs[i].len, (size_t)-1, NULL);
	s = arena_alloc(a, total + 1);
	o = strlen("visitor.claims");
	memcpy(s, "visitor.claims", o);
	for (int i = 0; i < nseg; i++) {
		if (is_identifier(segs[i].name, segs[i].len)) {
			s[o++] = '.';
			memcpy(s + o, segs[i].name, segs[i].len);
			o += segs[i].len;
		} else {
			memcpy(s + o, "[\"", 2);
			o += 2;
			o += escape_js(s + o, segs[i].name, segs[i].len, (size_t)-1, NULL);
			memcpy(s + o, "\"]", 2);
			o += 2;
		}
	}
	s[o] = '\0';
	return s;
}

/* a.b-c.d: the claim's names as a reader sees them. */
static char *display_name(struct arena *a, const struct seg *segs, int nseg)
{
	size_t total = 0, o = 0;
	char *s;

	for (int i = 0; i < nseg; i++)
		total += segs[i].len + 1;
	s = arena_alloc(a, total + 1);
	for (int i = 0; i < nseg; i++) {
		if (i)
			s[o++] = '.';
		memcpy(s + o, segs[i].name, segs[i].len);
		o += segs[i].len;
	}
	s[o] = '\0';
	return s;
}

/* A string literal for v (the value of a JSON string: valid UTF-8). */
static char *js_string(struct arena *a, const json_t *v)
{
	size_t len = json_string_length(v);
	size_t n = escape_js(NULL, json_string_value(v), len, (size_t)-1, NULL);
	char *s = arena_alloc(a, n + 3);

	s[0] = '"';
	escape_js(s + 1, json_string_value(v), len, (size_t)-1, NULL);
	s[n + 1] = '"';
	s[n + 2] = '\0';
	return s;
}

/* Keeps the condition when it parses (a claim name or a value long enough
 * to pass the language's 1024 bytes is left out). */
static void emit(struct collector *col, const char *cond, const char *description)
{
	struct arena scratch;
	const struct cond *c;
	struct cond_error e;
	bool ok;

	arena_init(&scratch);
	ok = cond_parse(&scratch, cond, &c, &e) == 0;
	arena_free(&scratch);
	if (!ok)
		return;
	if (col->n == col->cap) {
		/* Doubling within the arena: the old arrays stay behind, at most
		 * as much again as the last. */
		int cap = col->cap ? col->cap * 2 : 16;
		struct template_condition *items;

		if (col->cap > INT_MAX / 2 || (size_t)cap > SIZE_MAX / sizeof(*items)) {
			col->too_many = true;
			return;
		}
		items = arena_alloc(col->a, (size_t)cap * sizeof(*items));
		if (col->n)
			memcpy(items, col->items, (size_t)col->n * sizeof(*items));
		col->items = items;
		col->cap = cap;
	}
	col->items[col->n].condition = cond;
	col->items[col->n].description = description;
	col->n++;
}

static void templates_of(struct collector *col, const json_t *props, struct seg *segs, int nseg);

/* Conditions for one claim c at segs[0..nseg). */
static void templates_of_claim(struct collector *col, const json_t *c, struct seg *segs, int nseg)
{
	struct arena *a = col->a;
	const char *t = json_string_value(json_object_get(c, "type"));
	const json_t *values = NULL;
	bool in_array = false;
	char *expr, *name;

	if (!t)
		return;
	if (!strcmp(t, "object")) {
		templates_of(col, json_object_get(c, "properties"), segs, nseg);
		return;
	}
	if (!strcmp(t, "array")) {
		const json_t *items = json_object_get(c, "items");

		values = json_object_get(items, "enum");
		in_array = true;
	} else if (!strcmp(t, "string")) {
		values = json_object_get(c, "enum");
	}
	expr = member_expr(a, segs, nseg);
	name = display_name(a, segs, nseg);
	if (!strcmp(t, "boolean")) {
		emit(col, arena_printf(a, "%s == true", expr), arena_printf(a, "%s is true", name));
	} else if (json_array_size(values) > 0) {
		size_t i;
		const json_t *v;

		json_array_foreach(values, i, v) {
			char *lit = js_string(a, v);

			if (in_array)
				emit(col, arena_printf(a, "%s in %s", lit, expr),
				     arena_printf(a, "%s contains %s", name, lit));
			else
				emit(col, arena_printf(a, "%s == %s", expr, lit),
				     arena_printf(a, "%s is %s", name, lit));
		}
	} else {
		emit(col, arena_printf(a, "%s != null", expr), arena_printf(a, "%s is set", name));
	}
}

static void templates_of(struct collector *col, const json_t *props, struct seg *segs, int nseg)
{
	const char *k;
	size_t klen;
	json_t *v;

	if (!json_is_object(props) || nseg > ADAPTIVE_MAX_DEPTH + 1)
		return;
	json_object_keylen_foreach((json_t *)props, k, klen, v) {
		segs[nseg].name = k;
		segs[nseg].len = klen;
		if (nseg == 0 && klen == 8 && !memcmp(k, "unsigned", 8))
			templates_of(col, json_object_get(v, "properties"), segs, 1);
		else
			templates_of_claim(col, v, segs, nseg + 1);
		if (col->too_many)
			return;
	}
}

int adaptive_template_conditions(struct arena *a, const json_t *schema, struct template_condition **out, int *n)
{
	struct seg segs[ADAPTIVE_MAX_DEPTH + 2];
	struct collector col = { .a = a };
	int rc;

	*out = NULL;
	*n = 0;
	if ((rc = adaptive_schema_check(schema)))
		return rc;
	templates_of(&col, json_object_get(schema, "properties"), segs, 0);
	if (col.too_many)
		return err_set(ERR_INTERNAL, "too many template conditions");
	*out = col.items;
	*n = col.n;
	return 0;
}
