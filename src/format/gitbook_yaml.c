/*
 * gitbook_yaml.c - the bounded YAML loader and .gitbook.yaml (see gitbook_yaml.h).
 *
 * Loading is two passes over the text with libyaml: an event pass that
 * enforces the limits (depth, aliases, the bytes the document expands to,
 * one document) and reports syntax errors with their position, then
 * yaml_parser_load for the node tree (which shares aliased nodes, so it is
 * no larger than the text). A reader that walks the tree in full (OpenAPI's
 * conversion to JSON) walks at most the counted bytes.
 */
#include "format/gitbook_yaml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/err.h"

static int parse_error(const yaml_parser_t *p, int first_line)
{
	const char *prob = p->problem ? p->problem : "invalid YAML";

	if (p->error == YAML_MEMORY_ERROR)
		return err_set(ERR_INTERNAL, "out of memory");
	if (p->context)
		return err_set(ERR_INVALID, "line %d, column %d: %s (%s started at line %d)",
			       (int)p->problem_mark.line + first_line, (int)p->problem_mark.column + 1, prob,
			       p->context, (int)p->context_mark.line + first_line);
	return err_set(ERR_INVALID, "line %d, column %d: %s", (int)p->problem_mark.line + first_line,
		       (int)p->problem_mark.column + 1, prob);
}

static int at(const yaml_mark_t *m, int first_line, const char *what)
{
	return err_set(ERR_INVALID, "line %d, column %d: %s", (int)m->line + first_line, (int)m->column + 1, what);
}

/*
 * The expansion count. libyaml's node tree shares an anchored node among its
 * aliases, so loading is cheap; what is expensive is every reader that walks
 * the tree as if it were written out (OpenAPI's conversion to JSON, which is
 * then stored), where "six levels of ten aliases" over a 2 KB list is 200 MB.
 * Counting aliases or nodes does not bound that; counting the bytes does. The
 * event pass adds up the bytes the document would have with every alias
 * written out in full, and stops at the first event past the budget, so no
 * expanded form is ever built: a scalar counts its length plus one, a
 * sequence or mapping one (an empty collection costs something too), an
 * alias what its anchored node counted. An alias inside the node it names
 * (a recursive alias: an infinite document) is refused.
 */
struct anchor {
	char *name;
	size_t bytes;
	bool open; /* its sequence or mapping has not ended yet */
};

struct expansion {
	size_t total, max;
	struct anchor *anchors;
	size_t n, cap;
	/* The open collections: the anchor each defines (index + 1, 0: none) and
	 * the total when it started. Depth is checked before a push. */
	struct {
		size_t anchor, start;
	} open[YAML_MAX_DEPTH + 1];
	int depth;
};

static void expansion_free(struct expansion *x)
{
	for (size_t i = 0; i < x->n; i++)
		free(x->anchors[i].name);
	free(x->anchors);
}

/* Records an anchored node: its index + 1. */
static size_t anchor_add(struct expansion *x, const yaml_char_t *name, size_t bytes, bool open)
{
	if (x->n == x->cap) {
		x->cap = x->cap ? x->cap * 2 : 16;
		x->anchors = xrealloc(x->anchors, x->cap * sizeof(*x->anchors));
	}
	x->anchors[x->n].name = xstrdup((const char *)name);
	x->anchors[x->n].bytes = bytes;
	x->anchors[x->n].open = open;
	return ++x->n;
}

/* The latest anchor of that name (libyaml's loader refuses duplicates). */
static struct anchor *anchor_find(struct expansion *x, const yaml_char_t *name)
{
	for (size_t i = x->n; i-- > 0;)
		if (strcmp(x->anchors[i].name, (const char *)name) == 0)
			return &x->anchors[i];
	return NULL;
}

/* Adds n bytes; ERR_INVALID naming the limit once the total passes it.
 * Every amount added is at most max (an anchor's bytes were counted within
 * it), so the sum cannot overflow before it is caught. */
static int expand(struct expansion *x, size_t n, const yaml_mark_t *m, int first_line)
{
	if (n > x->max - x->total) {
		x->total = x->max;
		return err_set(ERR_INVALID,
			       "line %d, column %d: " YAML_EXPANDED_MESSAGE " %zu bytes with its aliases written out "
			       "(each alias counts the bytes of the node it repeats)",
			       (int)m->line + first_line, (int)m->column + 1, x->max);
	}
	x->total += n;
	return 0;
}

/* The event pass: limits and syntax. */
static int check_events(const char *s, size_t len, int first_line, size_t max_expanded, size_t *expanded)
{
	yaml_parser_t p;
	yaml_event_t ev;
	struct expansion x = { .max = max_expanded };
	int aliases = 0, docs = 0, rc = 0;
	bool done = false;

	if (!yaml_parser_initialize(&p))
		return err_set(ERR_INTERNAL, "out of memory");
	yaml_parser_set_input_string(&p, (const unsigned char *)s, len);
	while (!done && rc == 0) {
		struct anchor *an;
		yaml_char_t *anchor = NULL;

		if (!yaml_parser_parse(&p, &ev)) {
			rc = parse_error(&p, first_line);
			break;
		}
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++docs > 1)
				rc = at(&ev.start_mark, first_line, "more than one YAML document");
			break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			anchor = ev.type == YAML_SEQUENCE_START_EVENT ? ev.data.sequence_start.anchor
								      : ev.data.mapping_start.anchor;
			if (x.depth + 1 > YAML_MAX_DEPTH) {
				rc = at(&ev.start_mark, first_line, "nested deeper than 32 levels");
				break;
			}
			if ((rc = expand(&x, 1, &ev.start_mark, first_line)))
				break;
			x.depth++;
			x.open[x.depth].start = x.total - 1;
			x.open[x.depth].anchor = anchor ? anchor_add(&x, anchor, 0, true) : 0;
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			if (x.depth > 0) {
				if (x.open[x.depth].anchor) {
					an = &x.anchors[x.open[x.depth].anchor - 1];
					an->bytes = x.total - x.open[x.depth].start;
					an->open = false;
				}
				x.depth--;
			}
			break;
		case YAML_SCALAR_EVENT:
			/* length + 1 <= len + 1: a scalar's bytes are in the text */
			if ((rc = expand(&x, ev.data.scalar.length + 1, &ev.start_mark, first_line)))
				break;
			if (ev.data.scalar.anchor)
				anchor_add(&x, ev.data.scalar.anchor, ev.data.scalar.length + 1, false);
			break;
		case YAML_ALIAS_EVENT:
			if (++aliases > YAML_MAX_ALIASES) {
				rc = at(&ev.start_mark, first_line, "more than 64 aliases");
				break;
			}
			/* An undefined alias is left to the loader, which names it. */
			an = anchor_find(&x, ev.data.alias.anchor);
			if (an && an->open)
				rc = at(&ev.start_mark, first_line, "an alias inside the node it refers to (a recursive alias)");
			else if (an)
				rc = expand(&x, an->bytes, &ev.start_mark, first_line);
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	expansion_free(&x);
	if (rc == 0 && expanded)
		*expanded = x.total;
	return rc;
}

int yaml_load_bounded(yaml_document_t *doc, const char *s, size_t len, int first_line)
{
	return yaml_load_sized(doc, s, len, first_line, YAML_MAX_BYTES, YAML_MAX_EXPANDED_BYTES, NULL);
}

int yaml_load_sized(yaml_document_t *doc, const char *s, size_t len, int first_line, size_t max_bytes,
		    size_t max_expanded, size_t *expanded)
{
	yaml_parser_t p;
	int rc;

	memset(doc, 0, sizeof(*doc));
	if (!s)
		s = "", len = 0;
	if (len > max_bytes)
		return err_set(ERR_INVALID, "larger than %zu bytes", max_bytes);
	rc = check_events(s, len, first_line, max_expanded, expanded);
	if (rc)
		return rc;
	if (!yaml_parser_initialize(&p))
		return err_set(ERR_INTERNAL, "out of memory");
	yaml_parser_set_input_string(&p, (const unsigned char *)s, len);
	rc = yaml_parser_load(&p, doc) ? 0 : parse_error(&p, first_line);
	yaml_parser_delete(&p);
	return rc;
}

static bool scalar_is(const yaml_node_t *n, const char *s)
{
	size_t l = strlen(s);

	return n && n->type == YAML_SCALAR_NODE && n->data.scalar.length == l &&
	       memcmp(n->data.scalar.value, s, l) == 0;
}

yaml_node_t *yaml_map_get(yaml_document_t *doc, yaml_node_t *map, const char *key)
{
	yaml_node_t *found = NULL;

	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	/* The last occurrence of a repeated key wins, as in most YAML readers. */
	for (yaml_node_pair_t *pr = map->data.mapping.pairs.start; pr < map->data.mapping.pairs.top; pr++)
		if (scalar_is(yaml_document_get_node(doc, pr->key), key))
			found = yaml_document_get_node(doc, pr->value);
	return found;
}

bool yaml_is_null(const yaml_node_t *n)
{
	if (!n || n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	return n->data.scalar.length == 0 || scalar_is(n, "~") || scalar_is(n, "null") || scalar_is(n, "Null") ||
	       scalar_is(n, "NULL");
}

bool yaml_bool(const yaml_node_t *n, bool *ok)
{
	static const char *const yes[] = { "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON" };
	static const char *const no[] = { "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF" };

	*ok = true;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (scalar_is(n, yes[i]))
			return true;
		if (scalar_is(n, no[i]))
			return false;
	}
	*ok = false;
	return false;
}

char *gitbook_path_normalize(struct arena *a, const char *p, size_t len, const char *what)
{
	char *out;
	size_t o = 0, i = 0;

	if (memchr(p, '\0', len)) {
		err_set(ERR_INVALID, "%s: contains a NUL byte", what);
		return NULL;
	}
	if (len > 0 && p[0] == '/') {
		err_set(ERR_INVALID, "%s: must be a relative path, not an absolute one", what);
		return NULL;
	}
	out = arena_alloc(a, len + 1);
	while (i < len) {
		size_t e = i;

		while (e < len && p[e] != '/')
			e++;
		if ((e - i == 1 && p[i] == '.') || e == i) {
			/* "." or an empty segment: nothing */
		} else if (e - i == 2 && p[i] == '.' && p[i + 1] == '.') {
			if (o == 0) {
				err_set(ERR_INVALID, "%s: the path leaves its root (\"..\")", what);
				return NULL;
			}
			while (o > 0 && out[o - 1] != '/')
				o--;
			if (o > 0)
				o--;
		} else {
			if (o > 0)
				out[o++] = '/';
			memcpy(out + o, p + i, e - i);
			o += e - i;
		}
		i = e + 1;
	}
	out[o] = '\0';
	return out;
}

/* Appends a node's position to the thread's ERR_INVALID message. */
static int with_pos(const yaml_node_t *n)
{
	char msg[512];

	if (err_code() != ERR_INVALID)
		return err_code();
	snprintf(msg, sizeof(msg), "%s", err_message());
	return err_set(ERR_INVALID, "%s (line %d, column %d)", msg, (int)n->start_mark.line + 1,
		       (int)n->start_mark.column + 1);
}

/* A path-valued key: default when absent or null; must be a string. */
static int path_value(struct arena *a, yaml_node_t *n, const char *what, const char *def, bool empty_ok,
		      char **out)
{
	if (!n || yaml_is_null(n)) {
		*out = arena_strdup(a, def);
		return 0;
	}
	if (n->type != YAML_SCALAR_NODE)
		return err_set(ERR_INVALID, "%s must be a string (line %d, column %d)", what,
			       (int)n->start_mark.line + 1, (int)n->start_mark.column + 1);
	*out = gitbook_path_normalize(a, (const char *)n->data.scalar.value, n->data.scalar.length, what);
	if (!*out)
		return with_pos(n);
	if (!empty_ok && !**out)
		return err_set(ERR_INVALID, "%s: must name a file (line %d, column %d)", what, (int)n->start_mark.line + 1,
			       (int)n->start_mark.column + 1);
	return 0;
}

static int parse_doc(struct arena *a, yaml_document_t *doc, struct gitbook_yaml *out)
{
	yaml_node_t *root = yaml_document_get_root_node(doc), *st, *rd;
	int rc;

	if (root && !yaml_is_null(root) && root->type != YAML_MAPPING_NODE)
		return err_set(ERR_INVALID, ".gitbook.yaml must be a mapping of keys (root, structure, redirects)");
	if ((rc = path_value(a, yaml_map_get(doc, root, "root"), "root", "", true, &out->root)))
		return rc;
	st = yaml_map_get(doc, root, "structure");
	if (st && !yaml_is_null(st) && st->type != YAML_MAPPING_NODE)
		return err_set(ERR_INVALID, "structure must be a mapping (line %d, column %d)", (int)st->start_mark.line + 1,
			       (int)st->start_mark.column + 1);
	if ((rc = path_value(a, yaml_map_get(doc, st, "readme"), "structure.readme", "README.md", false, &out->readme)))
		return rc;
	if ((rc = path_value(a, yaml_map_get(doc, st, "summary"), "structure.summary", "SUMMARY.md", false,
			     &out->summary)))
		return rc;
	rd = yaml_map_get(doc, root, "redirects");
	if (!rd || yaml_is_null(rd))
		return 0;
	if (rd->type != YAML_MAPPING_NODE)
		return err_set(ERR_INVALID, "redirects must be a mapping of path: target (line %d, column %d)",
			       (int)rd->start_mark.line + 1, (int)rd->start_mark.column + 1);
	{
		size_t n = (size_t)(rd->data.mapping.pairs.top - rd->data.mapping.pairs.start);

		out->redirects = n ? arena_alloc(a, n * sizeof(*out->redirects)) : NULL;
	}
	for (yaml_node_pair_t *pr = rd->data.mapping.pairs.start; pr < rd->data.mapping.pairs.top; pr++) {
		yaml_node_t *k = yaml_document_get_node(doc, pr->key), *v = yaml_document_get_node(doc, pr->value);
		struct gitbook_redirect *r = &out->redirects[out->n_redirects];
		const char *kv;
		size_t kl;

		if (!k || !v || k->type != YAML_SCALAR_NODE || v->type != YAML_SCALAR_NODE || yaml_is_null(v))
			return err_set(ERR_INVALID, "redirects: each entry must be path: target (line %d, column %d)",
				       k ? (int)k->start_mark.line + 1 : 0, k ? (int)k->start_mark.column + 1 : 0);
		/* The source is a URL path: a leading '/' is allowed. */
		kv = (const char *)k->data.scalar.value;
		kl = k->data.scalar.length;
		while (kl > 0 && *kv == '/')
			kv++, kl--;
		r->from = gitbook_path_normalize(a, kv, kl, "redirects key");
		if (!r->from)
			return with_pos(k);
		r->to = gitbook_path_normalize(a, (const char *)v->data.scalar.value, v->data.scalar.length,
					       "redirects target");
		if (!r->to)
			return with_pos(v);
		if (!*r->from || !*r->to)
			return err_set(ERR_INVALID, "redirects: empty path (line %d, column %d)", (int)k->start_mark.line + 1,
				       (int)k->start_mark.column + 1);
		out->n_redirects++;
	}
	return 0;
}

int gitbook_yaml_parse(struct arena *a, const char *s, size_t len, struct gitbook_yaml *out)
{
	yaml_document_t doc;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = yaml_load_bounded(&doc, s, len, 1);
	if (rc)
		return rc;
	rc = parse_doc(a, &doc, out);
	yaml_document_delete(&doc);
	return rc;
}
