/*
 * md_translate.c - a page's markdown translated text node by text node
 * (md_translate.h).
 *
 * DESIGN
 * The page is parsed with the extensions markdown.c uses (tables,
 * strikethrough, task lists, autolinks) plus footnotes, adjacent text nodes
 * are merged (cmark_consolidate_text_nodes: "Hello" "!" "world" would
 * otherwise reach the engine as three fragments), and each TEXT node's
 * literal is cut into pieces: verbatim pieces (white space, template tags,
 * control characters, text not worth translating) and candidates.
 *
 * The translated page is the SOURCE with each segment's bytes replaced by
 * its translation, escaped: never a rendering of the tree. cmark's
 * CommonMark renderer knows neither footnotes nor reference links (a
 * footnote came back as an inline link), writes control characters as
 * entities (U+0001 became "&#1;"), and reformats lists, emphasis and tables;
 * splicing keeps every byte that is not a translated word as it was.
 *
 * So a candidate must be found in the source ("placed"). cmark gives each
 * text node a line and a column, but the column is off on continuation
 * lines (it forgets the indentation and container markers it stripped) and
 * the literal is not the source bytes (backslash escapes, entities). place()
 * aligns the literal with the source line, decoding escapes and entities,
 * at the reported column, at the column corrected by the shift of the
 * previous node on that line, or else at the first place on the line after
 * the previous node; a node that cannot be placed is not translated (its
 * words are not sent to the engine). A segment is a candidate of a placed
 * node.
 *
 * md_tr_render then proves the result: the new page is parsed again and
 * compared with the source's tree, node by node (structure) and text by
 * text (each text reads as the source's text with the translations in it).
 * Translations are escaped lightly first (the characters that start inline
 * markup); if the proof fails, every ASCII punctuation character of every
 * translation is escaped (what a translation beginning "1. " or "# " at the
 * start of a line needs); if that fails too the page is ERR_INVALID and the
 * caller keeps its source.
 *
 * Nothing but TEXT is ever changed: code spans and blocks, HTML, link and
 * image destinations, footnote labels live in other nodes or attributes.
 */
#include "format/md_translate.h"
#include "format/gitbook_tags.h"
#include "format/markdown.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/err.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* What cmark's renderer writes between two adjacent lists of the same kind
 * to keep them apart (pages translated by docsd before it spliced hold
 * it); not a difference of structure. */
#define END_LIST_COMMENT "<!-- end list -->\n"

/* Footnotes are read as footnotes, so a definition's text is text (a
 * footnote whose definition is one word would otherwise be a link reference
 * definition, its text a destination). */
#define PARSE_OPTIONS CMARK_OPT_FOOTNOTES

/* The longest entity cmark decodes ("&CounterClockwiseContourIntegral;"). */
#define ENTITY_MAX 40

struct piece {
	const char *text;   /* bytes of the node's literal */
	size_t len;
	bool cand;          /* worth translating */
	int seg;            /* index of the segment, or -1: kept */
	size_t src, src_end; /* a candidate's bytes in the body, once placed */
};

struct tnode {
	cmark_node *node;
	struct piece *pieces;
	int npieces, cap;
	bool placed;         /* its literal was found in the source */
	bool in_table;       /* a '|' in a translation would end its cell */
	size_t src, src_end; /* its bytes in the body, once placed */
};

/* One segment's place in the body, in source order. */
struct span {
	size_t src, end;
	int seg;
	bool in_table;
};

struct md_tr {
	struct arena *a;
	cmark_node *doc;
	const char *front; /* the source: its frontmatter is kept verbatim */
	size_t front_len, source_len;
	const char *body;  /* the source after the frontmatter */
	size_t body_len;
	size_t *lines;     /* offset of each line of the body */
	int nlines;
	struct tnode *nodes;
	int nnodes;
	const char **segs;
	struct span *spans;
	int nsegs;
};

/* ---------------------------------------------------------------- text rules */

static bool is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static bool is_wordish(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80;
}

static bool is_punct(unsigned char c)
{
	return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') || (c >= '{' && c <= '~');
}

/* The length of the control character at s (C0 but white space, DEL, C1 in
 * UTF-8) or U+FFFD (what cmark reads a NUL or an invalid byte as), or 0.
 * They are never sent to an engine: they stay where they are, byte for
 * byte (an invalid byte stays that byte). */
static size_t control_len(const char *s, size_t n)
{
	unsigned char c = (unsigned char)s[0];

	if ((c < 0x20 && !is_space(c)) || c == 0x7f)
		return 1;
	if (c == 0xc2 && n >= 2 && (unsigned char)s[1] >= 0x80 && (unsigned char)s[1] <= 0x9f)
		return 2;
	if (c == 0xef && n >= 3 && (unsigned char)s[1] == 0xbf && (unsigned char)s[2] == 0xbd)
		return 3;
	return 0;
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

static int add_piece(struct md_tr *t, struct tnode *tn, const char *s, size_t len, bool cand)
{
	if (!len)
		return 0;
	if (tn->npieces == tn->cap) {
		int cap = tn->cap ? 2 * tn->cap : 4;
		struct piece *grown = arena_alloc(t->a, sizeof(*grown) * (size_t)cap);
		if (tn->npieces)
			memcpy(grown, tn->pieces, sizeof(*grown) * (size_t)tn->npieces);
		tn->pieces = grown;
		tn->cap = cap;
	}
	tn->pieces[tn->npieces++] = (struct piece){ .text = s, .len = len, .cand = cand, .seg = -1 };
	return 0;
}

/* Text between tags and control characters: white space around a candidate
 * stays verbatim. */
static int cut_text(struct md_tr *t, struct tnode *tn, const char *s, size_t len)
{
	size_t a = 0, b = len;
	int rc;

	while (a < b && is_space((unsigned char)s[a]))
		a++;
	while (b > a && is_space((unsigned char)s[b - 1]))
		b--;
	if (a == b || !md_tr_translatable(s + a, b - a))
		return add_piece(t, tn, s, len, false);
	if ((rc = add_piece(t, tn, s, a, false)) || (rc = add_piece(t, tn, s + a, b - a, true)))
		return rc;
	return add_piece(t, tn, s + b, len - b, false);
}

/* Text between template tags, cut around its control characters. */
static int cut_plain(struct md_tr *t, struct tnode *tn, const char *s, size_t len)
{
	size_t from = 0;
	int rc;

	for (size_t i = 0; i < len;) {
		size_t k = control_len(s + i, len - i);
		if (!k) {
			i++;
			continue;
		}
		if ((rc = cut_text(t, tn, s + from, i - from)) || (rc = add_piece(t, tn, s + i, k, false)))
			return rc;
		i += k;
		from = i;
	}
	return cut_text(t, tn, s + from, len - from);
}

/* A span a text node opened and did not close: what follows it, up to its
 * closing delimiter, is kept verbatim, also in the next text nodes of the
 * same block (cmark cuts a tag whose argument holds a URL at the autolink,
 * "{% embed url=\"" + link + "\" %}", and block math at each line). */
enum open_span { OPEN_NONE, OPEN_TAG, OPEN_VAR, OPEN_MATH };

static const char *const span_close[] = { "", "%}", "}}", "$$" };

static size_t find(const char *s, size_t len, size_t from, const char *what)
{
	size_t k = strlen(what);

	for (size_t i = from; i + k <= len; i++)
		if (memcmp(s + i, what, k) == 0)
			return i;
	return len;
}

static cmark_node *block_of(cmark_node *n);

/* Does `close` appear in a text node of n's block after n? (*seen: n was
 * passed.) */
static bool closes_in(cmark_node *p, cmark_node *n, const char *close, bool *seen)
{
	for (cmark_node *c = cmark_node_first_child(p); c; c = cmark_node_next(c)) {
		if (c == n) {
			*seen = true;
			continue;
		}
		if (cmark_node_get_type(c) == CMARK_NODE_TEXT) {
			const char *lit = cmark_node_get_literal(c);
			if (*seen && lit && strstr(lit, close))
				return true;
		} else if (closes_in(c, n, close, seen)) {
			return true;
		}
	}
	return false;
}

static bool closes_later(cmark_node *n, const char *close)
{
	cmark_node *b = block_of(n);
	bool seen = false;

	return b && closes_in(b, n, close, &seen);
}

/* A literal (of node n) cut around GitBook's template tags ({% hint %},
 * {{ var }}) and math ($$ x^2 $$): kept whole. A tag or math span that
 * closes in a later text node of the block stays open (*open) into it; one
 * that never closes is plain text. */
static int cut_literal(struct md_tr *t, struct tnode *tn, cmark_node *n, const char *s, size_t len,
		       enum open_span *open)
{
	struct gb_tag g;
	size_t pos = 0;
	int rc;

	while (pos < len) {
		size_t tag, math, brace, first, end;

		if (*open != OPEN_NONE) {
			end = find(s, len, pos, span_close[*open]);
			if (end == len)
				return add_piece(t, tn, s + pos, len - pos, false);
			if ((rc = add_piece(t, tn, s + pos, end + 2 - pos, false)))
				return rc;
			pos = end + 2;
			*open = OPEN_NONE;
			continue;
		}
		tag = gb_tag_next(s, len, pos, GB_TAG_BLOCK | GB_TAG_VAR, &g) ? g.start : len;
		math = find(s, len, pos, "$$");
		brace = find(s, len, pos, "{%");
		end = find(s, len, pos, "{{");
		if (end < brace)
			brace = end;
		first = tag < math ? tag : math;
		if (brace < first)
			first = brace;
		if (first == len)
			break;
		if ((rc = cut_plain(t, tn, s + pos, first - pos)))
			return rc;
		if (first == tag) {
			if ((rc = add_piece(t, tn, s + g.start, g.end - g.start, false)))
				return rc;
			pos = g.end;
		} else {
			enum open_span kind = first == math ? OPEN_MATH : s[first + 1] == '%' ? OPEN_TAG : OPEN_VAR;
			size_t close = find(s, len, first + 2, span_close[kind]);

			if (close == len && !closes_later(n, span_close[kind])) {
				/* never closed: plain text up to the next candidate */
				if ((rc = cut_plain(t, tn, s + first, 2)))
					return rc;
				pos = first + 2;
				continue;
			}
			*open = kind;
			if ((rc = add_piece(t, tn, s + first, 2, false)))
				return rc;
			pos = first + 2;
		}
	}
	return pos < len ? cut_plain(t, tn, s + pos, len - pos) : 0;
}

/* The block a node is in (paragraph, heading, table cell ...). */
static cmark_node *block_of(cmark_node *n)
{
	for (cmark_node *p = cmark_node_parent(n); p; p = cmark_node_parent(p))
		if ((cmark_node_get_type(p) & CMARK_NODE_TYPE_MASK) == CMARK_NODE_TYPE_BLOCK)
			return p;
	return NULL;
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

static bool is_type(cmark_node *n, const char *name)
{
	const char *s = cmark_node_get_type_string(n);

	return s && strcmp(s, name) == 0;
}

static bool inside_table(cmark_node *n)
{
	for (cmark_node *p = cmark_node_parent(n); p; p = cmark_node_parent(p))
		if (is_type(p, "table"))
			return true;
	return false;
}

/* ---------------------------------------------------------------- placing */

/* The end of the entity at s[i] ('&'), or 0: &name; &#123; &#x1F; */
static size_t entity_end(const char *s, size_t i, size_t lim)
{
	size_t j = i + 1, start;

	if (j < lim && s[j] == '#') {
		bool hex = ++j < lim && (s[j] == 'x' || s[j] == 'X');
		j += hex;
		start = j;
		while (j < lim && j - start < 8 &&
		       ((s[j] >= '0' && s[j] <= '9') ||
			(hex && ((s[j] >= 'a' && s[j] <= 'f') || (s[j] >= 'A' && s[j] <= 'F')))))
			j++;
	} else {
		start = j;
		while (j < lim && j - start < ENTITY_MAX &&
		       ((s[j] >= 'a' && s[j] <= 'z') || (s[j] >= 'A' && s[j] <= 'Z') || (s[j] >= '0' && s[j] <= '9')))
			j++;
	}
	return j > start && j < lim && s[j] == ';' ? j + 1 : 0;
}

/* What cmark reads the entity s[0..n) as, into out (cap bytes): cmark
 * decodes it, so the two always agree. 0 when it is no entity. */
static size_t entity_decode(const char *s, size_t n, char *out, size_t cap)
{
	cmark_node *doc = cmark_parse_document(s, n, 0), *p, *txt;
	const char *lit;
	size_t k = 0;

	if (!doc)
		return 0;
	if ((p = cmark_node_first_child(doc)) && (txt = cmark_node_first_child(p)) &&
	    cmark_node_get_type(txt) == CMARK_NODE_TEXT && !cmark_node_next(txt) &&
	    (lit = cmark_node_get_literal(txt)) && (k = strlen(lit)) < cap && (k != n || memcmp(lit, s, n) != 0))
		memcpy(out, lit, k);
	else
		k = 0;
	cmark_node_free(doc);
	return k;
}

/* What decoding one entity costs of an alignment's budget (a parse). */
#define ENTITY_COST 256

/* Align the literal lit[0..n) with the source src[i..lim): map[j] is where
 * the source of literal byte j begins, map[n] where the literal's source
 * ends; mid[j] says byte j is not the first of what one escape or entity
 * gave. Each step spends *budget; none left is a failure. */
static bool align(const char *src, size_t i, size_t lim, const char *lit, size_t n, size_t *map, bool *mid,
		  long *budget)
{
	size_t j = 0;

	while (j < n) {
		unsigned char c;

		if (i >= lim || --*budget < 0)
			return false;
		c = (unsigned char)src[i];
		if (c == '\\' && i + 1 < lim && is_punct((unsigned char)src[i + 1]) && lit[j] == src[i + 1]) {
			map[j] = i;
			mid[j++] = false;
			i += 2;
			continue;
		}
		if (c == '&') {
			size_t end = entity_end(src, i, lim), k;
			char dec[ENTITY_MAX];

			if (end && (*budget -= ENTITY_COST) >= 0 && (k = entity_decode(src + i, end - i, dec, sizeof(dec))) &&
			    j + k <= n &&
			    memcmp(lit + j, dec, k) == 0) {
				for (size_t b = 0; b < k; b++) {
					map[j + b] = i;
					mid[j + b] = b > 0;
				}
				j += k;
				i = end;
				continue;
			}
		}
		/* U+FFFD for a NUL or an invalid sequence: its lead byte and
		 * the continuation bytes after it. */
		if ((c == 0 || c >= 0x80) && j + 3 <= n && memcmp(lit + j, "\xef\xbf\xbd", 3) == 0 &&
		    !(i + 3 <= lim && memcmp(src + i, "\xef\xbf\xbd", 3) == 0)) {
			size_t from = i++;

			while (i < lim && i - from < 4 && ((unsigned char)src[i] & 0xc0) == 0x80)
				i++;
			map[j] = from;
			mid[j] = false;
			mid[j + 1] = mid[j + 2] = true;
			map[j + 1] = map[j + 2] = from;
			j += 3;
			continue;
		}
		if (src[i] != lit[j])
			return false;
		map[j] = i++;
		mid[j++] = false;
	}
	map[n] = i;
	return true;
}

/* Where the last node placed on a line ended, and how far cmark's column
 * was off for it. */
struct cursor {
	int line;
	size_t end;
	long shift;
};

/* The alignment's arrays, and what is left of the page's budget: nodes
 * that cannot be placed must not cost the square of their line's length (a
 * long line of entities, a byte cmark replaced); once it is spent, the
 * nodes left are not translated. */
struct scratch {
	size_t *map;
	bool *mid;
	size_t cap;
	long budget;
};

/* Where lit[0..n) is on the body's line `line` (1-based), trying the
 * column cmark reported (col, 1-based), that column moved by the shift of
 * the node placed before on that line, then every place after that node.
 * *at: where it begins; sc holds the alignment. */
static bool find_on_line(const struct md_tr *t, int line, int col, const struct cursor *cur, const char *lit,
			 size_t n, struct scratch *sc, size_t *at)
{
	size_t ls = t->lines[line - 1], le = ls, from = cur->line == line ? cur->end : ls, tries[2];
	size_t reported = ls + (size_t)col - 1;
	int ntries = 0;

	while (le < t->body_len && t->body[le] != '\n' && t->body[le] != '\r')
		le++;
	if (cur->line == line && cur->shift && (long)reported + cur->shift >= 0)
		tries[ntries++] = (size_t)((long)reported + cur->shift);
	tries[ntries++] = reported;
	for (int k = 0; k < ntries; k++)
		if (tries[k] >= from && tries[k] < le && align(t->body, tries[k], le, lit, n, sc->map, sc->mid, &sc->budget)) {
			*at = tries[k];
			return true;
		}
	for (size_t p = from; p < le && sc->budget > 0; p++)
		if (align(t->body, p, le, lit, n, sc->map, sc->mid, &sc->budget)) {
			*at = p;
			return true;
		}
	return false;
}

/* Find tn's literal in the source (see DESIGN) and the bytes of each of its
 * candidates; tn->placed stays false when it is not found. */
static int place(struct md_tr *t, struct tnode *tn, struct cursor *cur, struct scratch *sc)
{
	const char *lit = cmark_node_get_literal(tn->node);
	size_t n = lit ? strlen(lit) : 0, at = 0;
	int line = cmark_node_get_start_line(tn->node), col = cmark_node_get_start_column(tn->node);
	bool found;

	/* Text the autolink extension split off has no position: it follows
	 * the node placed before it, on its line. */
	if (line < 1 && cur->line > 0) {
		line = cur->line;
		col = (int)(cur->end - t->lines[line - 1]) + 1;
	}
	if (!n || line < 1 || line > t->nlines || col < 1)
		return 0;
	if (n + 1 > sc->cap) {
		size_t cap = 2 * (n + 1);

		sc->map = xrealloc(sc->map, sizeof(*sc->map) * cap);
		sc->mid = xrealloc(sc->mid, sizeof(*sc->mid) * cap);
		sc->cap = cap;
	}
	found = find_on_line(t, line, col, cur, lit, n, sc, &at);
	/* After a backslash hard break cmark gives the next text the line of
	 * the break: look on the next line too. */
	if (!found && line < t->nlines && (found = find_on_line(t, line + 1, 1, cur, lit, n, sc, &at))) {
		line++;
		col = 1;
	}
	if (!found)
		return 0;
	/* A candidate must begin and end between what escapes and entities
	 * gave (it always does: cuts fall on ASCII characters). */
	for (int k = 0; k < tn->npieces; k++) {
		struct piece *p = &tn->pieces[k];
		size_t a = (size_t)(p->text - lit), b = a + p->len;

		if (!p->cand)
			continue;
		if (sc->mid[a] || (b < n && sc->mid[b]))
			return 0;
		p->src = sc->map[a];
		p->src_end = sc->map[b];
	}
	tn->placed = true;
	tn->src = sc->map[0];
	tn->src_end = sc->map[n];
	*cur = (struct cursor){ line, tn->src_end, (long)at - (long)(t->lines[line - 1] + (size_t)col - 1) };
	return 0;
}

static int by_src(const void *x, const void *y)
{
	const struct tnode *a = *(const struct tnode *const *)x, *b = *(const struct tnode *const *)y;

	return a->src < b->src ? -1 : a->src > b->src;
}

static int span_by_src(const void *x, const void *y)
{
	const struct span *a = x, *b = y;

	return a->src < b->src ? -1 : a->src > b->src;
}

/* The offset of each line of the body (cmark's lines: \n, \r\n or \r). */
static int index_lines(struct md_tr *t)
{
	int n = 1, k = 1;

	for (size_t i = 0; i < t->body_len; i++)
		if (t->body[i] == '\n' || (t->body[i] == '\r' && (i + 1 == t->body_len || t->body[i + 1] != '\n')))
			n++;
	t->lines = arena_alloc(t->a, sizeof(*t->lines) * (size_t)n);
	t->lines[0] = 0;
	for (size_t i = 0; i < t->body_len; i++)
		if (t->body[i] == '\n' || (t->body[i] == '\r' && (i + 1 == t->body_len || t->body[i + 1] != '\n')))
			t->lines[k++] = i + 1;
	t->nlines = n;
	return 0;
}

/* Number the segments (the candidates of placed nodes, in document order)
 * and list their spans in source order. Two placed nodes claiming the same
 * bytes cannot both be right: the later one is not translated. */
static int number_segments(struct md_tr *t)
{
	struct tnode **order;
	int placed = 0, nsegs = 0;

	order = xmalloc(sizeof(*order) * (size_t)(t->nnodes + 1));
	for (int i = 0; i < t->nnodes; i++)
		if (t->nodes[i].placed)
			order[placed++] = &t->nodes[i];
	qsort(order, (size_t)placed, sizeof(*order), by_src);
	for (int i = 1, last = 0; i < placed; i++) {
		if (order[i]->src < order[last]->src_end)
			order[i]->placed = false;
		else
			last = i;
	}
	free(order);
	for (int i = 0; i < t->nnodes; i++)
		for (int k = 0; t->nodes[i].placed && k < t->nodes[i].npieces; k++)
			nsegs += t->nodes[i].pieces[k].cand;
	if (nsegs) {
		t->segs = arena_alloc(t->a, sizeof(*t->segs) * (size_t)nsegs);
		t->spans = arena_alloc(t->a, sizeof(*t->spans) * (size_t)nsegs);
	}
	for (int i = 0; i < t->nnodes; i++) {
		struct tnode *tn = &t->nodes[i];

		for (int k = 0; tn->placed && k < tn->npieces; k++) {
			struct piece *p = &tn->pieces[k];

			if (!p->cand)
				continue;
			t->segs[t->nsegs] = arena_strndup(t->a, p->text, p->len);
			t->spans[t->nsegs] = (struct span){ p->src, p->src_end, t->nsegs, tn->in_table };
			p->seg = t->nsegs++;
		}
	}
	if (t->nsegs)
		qsort(t->spans, (size_t)t->nsegs, sizeof(*t->spans), span_by_src);
	return 0;
}

static int collect(struct md_tr *t)
{
	cmark_iter *it = cmark_iter_new(t->doc);
	cmark_event_type ev;
	struct cursor cur = { 0 };
	struct scratch sc = { 0 };
	enum open_span open = OPEN_NONE;
	cmark_node *open_in = NULL; /* the block where `open` was left open */
	int count = 0, rc = 0;
	long amps = 0;

	if (!it) /* cmark's own allocation */
		return err_set(ERR_INTERNAL, "out of memory");
	/* Each byte aligned once or twice, each entity decoded twice, and room
	 * for searches along lines that fail early at most places: a page
	 * needs a fraction of it. */
	for (size_t i = 0; i < t->body_len; i++)
		amps += t->body[i] == '&';
	sc.budget = 16 * (long)t->body_len + 2 * ENTITY_COST * amps + 65536;
	/* Count first: the node table is allocated once. */
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE)
		if (ev == CMARK_EVENT_ENTER && cmark_node_get_type(cmark_iter_get_node(it)) == CMARK_NODE_TEXT)
			count++;
	if (count)
		t->nodes = arena_alloc(t->a, sizeof(*t->nodes) * (size_t)count);
	cmark_iter_reset(it, t->doc, CMARK_EVENT_ENTER);
	while (rc == 0 && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		struct tnode *tn;
		const char *lit;
		bool cand = false;

		if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(n) != CMARK_NODE_TEXT || t->nnodes == count)
			continue;
		lit = cmark_node_get_literal(n);
		if (!lit)
			lit = "";
		tn = &t->nodes[t->nnodes++];
		*tn = (struct tnode){ .node = n, .in_table = inside_table(n) };
		if (open != OPEN_NONE && block_of(n) != open_in)
			open = OPEN_NONE; /* a span never runs past its block */
		if (open != OPEN_NONE || autolink_text(n, lit)) {
			/* inside an open span, only its closing delimiter ends it */
			rc = open != OPEN_NONE ? cut_literal(t, tn, n, lit, strlen(lit), &open)
					       : add_piece(t, tn, lit, strlen(lit), false);
		} else {
			rc = cut_literal(t, tn, n, lit, strlen(lit), &open);
		}
		open_in = block_of(n);
		for (int k = 0; k < tn->npieces; k++)
			cand |= tn->pieces[k].cand;
		if (rc == 0 && cand)
			rc = place(t, tn, &cur, &sc);
	}
	cmark_iter_free(it);
	free(sc.map);
	free(sc.mid);
	return rc ? rc : number_segments(t);
}

int md_tr_parse(struct arena *a, const char *md, size_t len, struct md_tr **out)
{
	struct md_front fm;
	struct md_tr *t;
	int rc;

	*out = NULL;
	t = xcalloc(1, sizeof(*t));
	t->a = a;
	if ((rc = md_frontmatter(a, md, len, &fm))) {
		free(t);
		return rc;
	}
	t->front = md;
	t->source_len = len;
	t->front_len = fm.present ? fm.body : 0;
	t->body = md + t->front_len;
	t->body_len = len - t->front_len;
	if ((rc = index_lines(t))) {
		free(t);
		return rc;
	}
	if (!(t->doc = md_parse_opts(t->body, t->body_len, PARSE_OPTIONS))) {
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

/* One side of the comparison: a tree walked one structural node at a time,
 * the texts passed on the way gathered in text. want: what each of the
 * source's text nodes should read (NULL for the rendered side). */
struct side {
	cmark_iter *it;
	struct buf text; /* util/buf.h: freed by the check that made it */
	const char *const *want;
	int next_text;
};

static cmark_event_type next_structural(struct side *s, cmark_node **node)
{
	cmark_event_type ev;

	buf_reset(&s->text);
	while ((ev = cmark_iter_next(s->it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(s->it);
		cmark_node_type type = cmark_node_get_type(n);

		if (type == CMARK_NODE_TEXT) {
			const char *lit = s->want ? s->want[s->next_text++] : cmark_node_get_literal(n);
			if (ev == CMARK_EVENT_ENTER && lit)
				buf_puts(&s->text, lit);
			continue;
		}
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
	case CMARK_NODE_FOOTNOTE_REFERENCE:
	case CMARK_NODE_FOOTNOTE_DEFINITION:
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
		if (is_type(a, "table")) {
			uint16_t cols = cmark_gfm_extensions_get_table_columns(a);
			const uint8_t *x = cmark_gfm_extensions_get_table_alignments(a);
			const uint8_t *y = cmark_gfm_extensions_get_table_alignments(b);
			return cols == cmark_gfm_extensions_get_table_columns(b) &&
			       (!cols || !x || !y || memcmp(x, y, cols) == 0);
		}
		return true;
	}
}

/* Do two trees have the same structure, and does the rendered one read the
 * texts want says, between the same two structural nodes? */
static bool same_tree(cmark_node *src, const char *const *want, cmark_node *rendered, bool *failed)
{
	struct side a = { .it = cmark_iter_new(src), .want = want }, b = { .it = cmark_iter_new(rendered) };
	bool same = a.it && b.it;

	while (same) {
		cmark_node *na, *nb;
		cmark_event_type ea = next_structural(&a, &na), eb = next_structural(&b, &nb);

		if (ea != eb || a.text.len != b.text.len || (a.text.len && memcmp(a.text.buf, b.text.buf, a.text.len) != 0))
			same = false;
		else if (ea == CMARK_EVENT_DONE)
			break;
		else if (ea == CMARK_EVENT_ENTER && !same_node(na, nb))
			same = false;
		else if (cmark_node_get_type(na) != cmark_node_get_type(nb))
			same = false;
	}
	*failed = !a.it || !b.it; /* cmark's own allocation */
	if (a.it)
		cmark_iter_free(a.it);
	if (b.it)
		cmark_iter_free(b.it);
	buf_free(&a.text);
	buf_free(&b.text);
	return same;
}

/* ---------------------------------------------------------------- rendering */

/* A translation as it will read: white space around it dropped (the
 * source's stays), line breaks (which would end the paragraph) as spaces.
 * NULL when it is empty: the source text stays. */
static const char *clean(const char *tr, size_t *len)
{
	size_t a = 0, b;

	if (!tr)
		return NULL;
	b = strlen(tr);
	while (a < b && is_space((unsigned char)tr[a]))
		a++;
	while (b > a && is_space((unsigned char)tr[b - 1]))
		b--;
	*len = b - a;
	return a < b ? tr + a : NULL;
}

/* Whether c at s[i] must be escaped to stay text. Light: what starts inline
 * markup anywhere on a line (a '|' only in a table, '&' only before what
 * reads as an entity, '{' only opening a template tag that the source text
 * did not hold: a translation never adds a {% tag %}, which GitBook would
 * read on a line of its own). Full: every ASCII punctuation character,
 * which CommonMark always allows to escape. */
static bool needs_escape(const char *s, size_t i, size_t n, bool full, bool in_table, bool had_tag)
{
	unsigned char c = (unsigned char)s[i];

	if (full)
		return is_punct(c);
	switch (c) {
	case '\\': case '`': case '*': case '_': case '~': case '[': case ']': case '<':
		return true;
	case '|':
		return in_table;
	case '&':
		return entity_end(s, i, n) != 0;
	case '{':
		return !had_tag && i + 1 < n && (s[i + 1] == '%' || s[i + 1] == '{');
	default:
		return false;
	}
}

/* The page with the translations spliced in, escaped (full: see
 * needs_escape), into the arena; *len: its length. */
static char *splice(struct md_tr *t, const char *const *translated, bool full, size_t *len)
{
	size_t cap = t->source_len + 1, at = 0, pos = 0;
	char *out;

	for (int i = 0; i < t->nsegs; i++) {
		size_t k;
		if (clean(translated[i], &k))
			cap += 2 * k;
	}
	out = arena_alloc(t->a, cap);
	memcpy(out, t->front, t->front_len);
	at = t->front_len;
	for (int i = 0; i < t->nsegs; i++) {
		const struct span *sp = &t->spans[i];
		size_t k = 0;
		const char *tr = clean(translated[sp->seg], &k);

		const char *seg = t->segs[sp->seg];
		bool had_tag;

		/* Unchanged (a name, a number): its source bytes stay, entities
		 * and escapes as they were written. */
		if (!tr || (k == strlen(seg) && memcmp(tr, seg, k) == 0))
			continue;
		had_tag = strstr(seg, "{%") || strstr(seg, "{{");
		memcpy(out + at, t->body + pos, sp->src - pos);
		at += sp->src - pos;
		for (size_t j = 0; j < k; j++) {
			if (needs_escape(tr, j, k, full, sp->in_table, had_tag))
				out[at++] = '\\';
			out[at++] = tr[j] == '\n' || tr[j] == '\r' ? ' ' : tr[j];
		}
		pos = sp->end;
	}
	memcpy(out + at, t->body + pos, t->body_len - pos);
	at += t->body_len - pos;
	out[at] = '\0';
	*len = at;
	return out;
}

/* What each text node of the source should read once translated. */
static const char **wanted(struct md_tr *t, const char *const *translated)
{
	const char **want = arena_alloc(t->a, sizeof(*want) * (size_t)(t->nnodes + 1));

	for (int i = 0; i < t->nnodes; i++) {
		const struct tnode *tn = &t->nodes[i];
		size_t len = 0, at = 0;
		char *s;

		for (int k = 0; k < tn->npieces; k++) {
			const struct piece *p = &tn->pieces[k];
			size_t n = 0;
			len += p->seg >= 0 && clean(translated[p->seg], &n) ? n : p->len;
		}
		s = arena_alloc(t->a, len + 1);
		for (int k = 0; k < tn->npieces; k++) {
			const struct piece *p = &tn->pieces[k];
			size_t n = 0;
			const char *tr = p->seg >= 0 ? clean(translated[p->seg], &n) : NULL;

			if (!tr) {
				memcpy(s + at, p->text, p->len);
				at += p->len;
				continue;
			}
			for (size_t j = 0; j < n; j++)
				s[at++] = tr[j] == '\n' || tr[j] == '\r' ? ' ' : tr[j];
		}
		s[at] = '\0';
		want[i] = s;
	}
	return want;
}

int md_tr_render(struct md_tr *t, const char *const *translated, char **out)
{
	const char **want;

	*out = NULL;
	/* Nothing to translate: the page as it was, byte for byte. */
	if (t->nsegs == 0) {
		*out = arena_strndup(t->a, t->front, t->source_len);
		return 0;
	}
	want = wanted(t, translated);
	for (int full = 0; full <= 1; full++) {
		size_t len = 0;
		char *page = splice(t, translated, full, &len);
		cmark_node *again;
		bool same, failed;

		if (!(again = md_parse_opts(page + t->front_len, len - t->front_len, PARSE_OPTIONS)))
			return err_set(ERR_INTERNAL, "cmark could not parse the page");
		cmark_consolidate_text_nodes(again);
		same = same_tree(t->doc, want, again, &failed);
		cmark_node_free(again);
		if (failed)
			return err_set(ERR_INTERNAL, "cmark could not walk the page");
		if (same) {
			*out = page;
			return 0;
		}
	}
	return err_set(ERR_INVALID, "the translated page would not keep the structure of its source");
}
