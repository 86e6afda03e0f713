/*
 * md_translate.c - a page's markdown translated text node by text node
 * (md_translate.h).
 *
 * DESIGN
 * The page is parsed with the extensions markdown.c uses (tables,
 * strikethrough, task lists, autolinks), adjacent text nodes are merged
 * (cmark_consolidate_text_nodes: "Hello" "!" "world" would otherwise reach
 * the engine as three fragments), and each TEXT node's literal is cut into
 * pieces: verbatim pieces (white space, template tags, text not worth
 * translating) and segments. Rendering puts each node's pieces back together
 * with the translations in place of the segments, sets the literal, and lets
 * cmark render the tree as CommonMark; the rendering is then parsed again and
 * compared with the tree it came from (same_tree), so a page can only come
 * out with its structure or not at all.
 *
 * Nothing but TEXT literals is ever changed: code spans and blocks, HTML,
 * link and image destinations live in other nodes or attributes.
 */
#include "core/md_translate.h"
#include "core/markdown.h"
#include "util/err.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* What cmark's renderer writes between two adjacent lists of the same kind
 * to keep them apart; not a difference of structure. */
#define END_LIST_COMMENT "<!-- end list -->\n"

struct piece {
	const char *text; /* the source bytes */
	size_t len;
	int seg;          /* index of the segment, or -1: verbatim */
};

struct tnode {
	cmark_node *node;
	struct piece *pieces;
	int npieces;
};

struct md_tr {
	struct arena *a;
	cmark_node *doc;
	const char *front; /* the source: its frontmatter is kept verbatim */
	size_t front_len, source_len;
	struct tnode *nodes;
	int nnodes;
	const char **segs;
	int nsegs;
};

/* ---------------------------------------------------------------- parsing */

/* ---------------------------------------------------------------- text rules */

static bool is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static bool is_wordish(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80;
}

static bool has(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle);

	for (size_t i = 0; i + k <= n; i++)
		if (memcmp(s + i, needle, k) == 0)
			return true;
	return false;
}

int md_tr_translatable(const char *s, size_t n)
{
	bool letter = false, space = false, at = false, dot_after_at = false;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80)
			letter = true;
		if (is_space(c))
			space = true;
		if (c == '@')
			at = true;
		else if (c == '.' && at)
			dot_after_at = true;
	}
	if (!letter)
		return 0;
	/* URLs and addresses are names, not words. */
	if (has(s, n, "://") || (n >= 4 && memcmp(s, "www.", 4) == 0) || (n >= 7 && memcmp(s, "mailto:", 7) == 0))
		return 0;
	if (!space && at && dot_after_at)
		return 0;
	return 1;
}

long md_tr_words(const char *s)
{
	long n = 0;
	bool in = false;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		bool w = is_wordish(*p);
		if (w && !in)
			n++;
		in = w;
	}
	return n;
}

/* ---------------------------------------------------------------- pieces */

struct cutter {
	struct md_tr *t;
	struct piece *out;
	int n, cap;
	const char **segs; /* grows with t->nsegs */
	int segcap;
};

static int add_piece(struct cutter *c, const char *s, size_t len, bool seg)
{
	if (!len)
		return 0;
	if (c->n == c->cap)
		return err_set(ERR_INTERNAL, "md_translate: piece table full");
	c->out[c->n] = (struct piece){ s, len, -1 };
	if (seg) {
		if (c->t->nsegs == c->segcap) {
			int cap = c->segcap ? 2 * c->segcap : 64;
			const char **grown = arena_alloc(c->t->a, sizeof(*grown) * (size_t)cap);
			if (!grown)
				return err_set(ERR_INTERNAL, "out of memory");
			if (c->t->nsegs)
				memcpy(grown, c->t->segs, sizeof(*grown) * (size_t)c->t->nsegs);
			c->t->segs = grown;
			c->segcap = cap;
		}
		if (!(c->t->segs[c->t->nsegs] = arena_strndup(c->t->a, s, len)))
			return err_set(ERR_INTERNAL, "out of memory");
		c->out[c->n].seg = c->t->nsegs++;
	}
	c->n++;
	return 0;
}

/* Text between template tags: white space around a segment stays verbatim. */
static int cut_text(struct cutter *c, const char *s, size_t len)
{
	size_t a = 0, b = len;
	int rc;

	while (a < b && is_space((unsigned char)s[a]))
		a++;
	while (b > a && is_space((unsigned char)s[b - 1]))
		b--;
	if (a == b || !md_tr_translatable(s + a, b - a))
		return add_piece(c, s, len, false);
	if ((rc = add_piece(c, s, a, false)) || (rc = add_piece(c, s + a, b - a, true)))
		return rc;
	return add_piece(c, s + b, len - b, false);
}

/* A literal cut around GitBook's template tags ({% hint %}, {{ var }}): the
 * tags are kept whole; an unclosed tag is plain text. */
static int cut_literal(struct cutter *c, const char *s, size_t len)
{
	size_t pos = 0;
	int rc;

	while (pos < len) {
		size_t t = pos, end = 0;
		const char *close = NULL;

		for (; t + 1 < len; t++)
			if (s[t] == '{' && (s[t + 1] == '%' || s[t + 1] == '{')) {
				close = s[t + 1] == '%' ? "%}" : "}}";
				break;
			}
		if (close)
			for (size_t k = t + 2; k + 1 < len; k++)
				if (s[k] == close[0] && s[k + 1] == close[1]) {
					end = k + 2;
					break;
				}
		if (!close || !end)
			return cut_text(c, s + pos, len - pos);
		if ((rc = cut_text(c, s + pos, t - pos)) || (rc = add_piece(c, s + t, end - t, false)))
			return rc;
		pos = end;
	}
	return 0;
}

/* The text of an autolink (`<https://x>`, a bare www.x or address) is its
 * destination written out: not words. */
static bool autolink_text(cmark_node *n, const char *lit)
{
	cmark_node *p = cmark_node_parent(n);
	const char *url;

	if (!p || cmark_node_get_type(p) != CMARK_NODE_LINK || !(url = cmark_node_get_url(p)) || !*lit)
		return false;
	for (const char *q = lit; *q; q++)
		if (is_space((unsigned char)*q))
			return false;
	return strstr(url, lit) != NULL;
}

static int collect(struct md_tr *t)
{
	cmark_iter *it = cmark_iter_new(t->doc);
	cmark_event_type ev;
	struct cutter c = { .t = t };
	int count = 0, rc = 0;

	if (!it)
		return err_set(ERR_INTERNAL, "out of memory");
	/* Count first: the node table is allocated once. */
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE)
		if (ev == CMARK_EVENT_ENTER && cmark_node_get_type(cmark_iter_get_node(it)) == CMARK_NODE_TEXT)
			count++;
	if (count && !(t->nodes = arena_alloc(t->a, sizeof(*t->nodes) * (size_t)count))) {
		cmark_iter_free(it);
		return err_set(ERR_INTERNAL, "out of memory");
	}
	cmark_iter_reset(it, t->doc, CMARK_EVENT_ENTER);
	while (rc == 0 && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		const char *lit;
		size_t len, tags = 0;

		if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(n) != CMARK_NODE_TEXT || t->nnodes == count)
			continue;
		lit = cmark_node_get_literal(n);
		len = lit ? strlen(lit) : 0;
		for (size_t i = 0; i + 1 < len; i++)
			tags += lit[i] == '{' && (lit[i + 1] == '%' || lit[i + 1] == '{');
		/* Each stretch between tags gives at most 3 pieces, each tag 1. */
		c.cap = (int)(3 * (tags + 1) + tags);
		c.n = 0;
		if (!(c.out = arena_alloc(t->a, sizeof(*c.out) * (size_t)c.cap))) {
			rc = err_set(ERR_INTERNAL, "out of memory");
			break;
		}
		if (autolink_text(n, lit ? lit : ""))
			rc = add_piece(&c, lit, len, false);
		else
			rc = cut_literal(&c, lit ? lit : "", len);
		t->nodes[t->nnodes++] = (struct tnode){ n, c.out, c.n };
	}
	cmark_iter_free(it);
	return rc;
}

int md_tr_parse(struct arena *a, const char *md, size_t len, struct md_tr **out)
{
	struct md_front fm;
	struct md_tr *t;
	int rc;

	*out = NULL;
	if (!(t = calloc(1, sizeof(*t))))
		return err_set(ERR_INTERNAL, "out of memory");
	t->a = a;
	if ((rc = md_frontmatter(a, md, len, &fm))) {
		free(t);
		return rc;
	}
	t->front = md;
	t->source_len = len;
	t->front_len = fm.present ? fm.body : 0;
	if (!(t->doc = md_parse(md + t->front_len, len - t->front_len))) {
		free(t);
		return err_set(ERR_INTERNAL, "cmark could not parse the page");
	}
	cmark_consolidate_text_nodes(t->doc);
	if ((rc = collect(t))) {
		md_tr_free(t);
		return rc;
	}
	*out = t;
	return 0;
}

void md_tr_free(struct md_tr *t)
{
	if (!t)
		return;
	if (t->doc)
		cmark_node_free(t->doc);
	free(t);
}

int md_tr_count(const struct md_tr *t)
{
	return t->nsegs;
}

const char *md_tr_segment(const struct md_tr *t, int i)
{
	return i >= 0 && i < t->nsegs ? t->segs[i] : NULL;
}

/* ---------------------------------------------------------------- checking */

static bool same_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

/* The next event that is not a text node (nor the comment cmark's renderer
 * puts between adjacent lists, which a page translated before holds). */
static cmark_event_type next_structural(cmark_iter *it, cmark_node **node)
{
	cmark_event_type ev;

	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		cmark_node_type type = cmark_node_get_type(n);

		if (type == CMARK_NODE_TEXT)
			continue;
		if (type == CMARK_NODE_HTML_BLOCK && same_str(cmark_node_get_literal(n), END_LIST_COMMENT))
			continue;
		*node = n;
		return ev;
	}
	*node = NULL;
	return ev;
}

static bool same_node(cmark_node *a, cmark_node *b)
{
	cmark_node_type type = cmark_node_get_type(a);

	if (type != cmark_node_get_type(b))
		return false;
	switch (type) {
	case CMARK_NODE_CODE_BLOCK:
		if (!same_str(cmark_node_get_fence_info(a), cmark_node_get_fence_info(b)))
			return false;
		/* fall through */
	case CMARK_NODE_CODE:
	case CMARK_NODE_HTML_BLOCK:
	case CMARK_NODE_HTML_INLINE:
		return same_str(cmark_node_get_literal(a), cmark_node_get_literal(b));
	case CMARK_NODE_LINK:
	case CMARK_NODE_IMAGE:
		return same_str(cmark_node_get_url(a), cmark_node_get_url(b)) &&
		       same_str(cmark_node_get_title(a), cmark_node_get_title(b));
	case CMARK_NODE_HEADING:
		return cmark_node_get_heading_level(a) == cmark_node_get_heading_level(b);
	case CMARK_NODE_LIST:
		return cmark_node_get_list_type(a) == cmark_node_get_list_type(b) &&
		       (cmark_node_get_list_type(a) != CMARK_ORDERED_LIST ||
			cmark_node_get_list_start(a) == cmark_node_get_list_start(b));
	case CMARK_NODE_ITEM:
		return cmark_gfm_extensions_get_tasklist_item_checked(a) ==
		       cmark_gfm_extensions_get_tasklist_item_checked(b);
	default:
		return true;
	}
}

/* Do two trees have the same structure, text aside? */
static bool same_tree(cmark_node *src, cmark_node *rendered)
{
	cmark_iter *a = cmark_iter_new(src), *b = cmark_iter_new(rendered);
	bool same = a && b;

	while (same) {
		cmark_node *na, *nb;
		cmark_event_type ea = next_structural(a, &na), eb = next_structural(b, &nb);

		if (ea != eb)
			same = false;
		else if (ea == CMARK_EVENT_DONE)
			break;
		else if (ea == CMARK_EVENT_ENTER && !same_node(na, nb))
			same = false;
		else if (cmark_node_get_type(na) != cmark_node_get_type(nb))
			same = false;
	}
	if (a)
		cmark_iter_free(a);
	if (b)
		cmark_iter_free(b);
	return same;
}

/* ---------------------------------------------------------------- rendering */

/* A node's new literal: its pieces with the translations (line breaks in a
 * translation would end the paragraph: they become spaces). */
static char *node_text(struct md_tr *t, const struct tnode *tn, const char *const *translated)
{
	size_t len = 0, at = 0;
	char *s;

	for (int i = 0; i < tn->npieces; i++) {
		const struct piece *p = &tn->pieces[i];
		const char *tr = p->seg >= 0 ? translated[p->seg] : NULL;
		len += tr && *tr ? strlen(tr) : p->len;
	}
	if (!(s = arena_alloc(t->a, len + 1)))
		return NULL;
	for (int i = 0; i < tn->npieces; i++) {
		const struct piece *p = &tn->pieces[i];
		const char *tr = p->seg >= 0 ? translated[p->seg] : NULL;
		if (tr && *tr) {
			size_t k = strlen(tr);
			memcpy(s + at, tr, k);
			for (size_t j = at; j < at + k; j++)
				if (s[j] == '\n' || s[j] == '\r')
					s[j] = ' ';
			at += k;
		} else {
			memcpy(s + at, p->text, p->len);
			at += p->len;
		}
	}
	s[at] = '\0';
	return s;
}

int md_tr_render(struct md_tr *t, const char *const *translated, char **out)
{
	char *body, *res;
	cmark_node *again;
	size_t blen;
	bool same;

	*out = NULL;
	/* Nothing to translate: the page as it was, byte for byte. */
	if (t->nsegs == 0) {
		if (!(*out = arena_strndup(t->a, t->front, t->source_len)))
			return err_set(ERR_INTERNAL, "out of memory");
		return 0;
	}
	for (int i = 0; i < t->nnodes; i++) {
		const struct tnode *tn = &t->nodes[i];
		char *s;
		bool seg = false;

		for (int k = 0; k < tn->npieces; k++)
			seg |= tn->pieces[k].seg >= 0;
		if (!seg)
			continue;
		if (!(s = node_text(t, tn, translated)))
			return err_set(ERR_INTERNAL, "out of memory");
		if (!cmark_node_set_literal(tn->node, s))
			return err_set(ERR_INTERNAL, "cmark could not set a text");
	}
	/* Width 0: no wrapping; soft breaks stay line breaks. */
	if (!(body = cmark_render_commonmark(t->doc, CMARK_OPT_DEFAULT, 0)))
		return err_set(ERR_INTERNAL, "cmark could not render the page");
	blen = strlen(body);
	if (!(again = md_parse(body, blen))) {
		free(body);
		return err_set(ERR_INTERNAL, "cmark could not parse the page");
	}
	same = same_tree(t->doc, again);
	cmark_node_free(again);
	if (!same) {
		free(body);
		return err_set(ERR_INVALID, "the translated page would not keep the structure of its source");
	}
	res = arena_alloc(t->a, t->front_len + blen + 1);
	if (res) {
		memcpy(res, t->front, t->front_len);
		memcpy(res + t->front_len, body, blen + 1);
	}
	free(body);
	if (!res)
		return err_set(ERR_INTERNAL, "out of memory");
	*out = res;
	return 0;
}
