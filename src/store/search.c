/*
 * search.c - the search index and its queries (search.h says what they do).
 *
 * DESIGN
 * Storage (migration 5). search_index has one row per indexed page: ids,
 * title, path, and the page's sections in two columns: `body` holds each
 * section as title US text, sections joined by RS (ASCII 0x1f, 0x1e: control
 * characters, which both engines' tokenizers take as separators, so the column
 * is indexed as it is stored), and `anchors` the sections' anchors joined by
 * RS. The text is stored once and read back for excerpts only for the pages a
 * response shows. SQLite indexes the rows with an external-content FTS5 table
 * (search_fts, kept in step by triggers, which also fire on the cascade from
 * spaces); its space_id and org_id columns let one MATCH both select a
 * space's or organization's pages and intersect them with the words, and they
 * weigh 0 in BM25. PostgreSQL keeps a generated tsvector (title weight A, body
 * D) under a GIN index. A trigger on spaces moves the rows' org_id with a
 * transferred space.
 *
 * Ranking. A result's sort key is one integer: the number of query words the
 * page holds times 2^50, plus its relevance scaled into the low 50 bits (-BM25
 * on SQLite, ts_rank on PostgreSQL; both grow with relevance). Pages are
 * ordered by key descending, then page id, and the cursor is (key, page id) -
 * or (best key, space id) for organization search - so every page of results
 * is a keyset query. Two passes fill a page:
 *   1. every word (AND): each has all n words, key n * 2^50 + relevance;
 *   2. when pass 1 runs out, any word (OR) minus those with every word: the
 *      words a page holds are counted by one membership test per word against
 *      that word's own match list.
 * Each pass ranks at most SEARCH_CANDIDATES pages - the first matches in
 * storage order (SQLite: rowid order from the FTS index; PostgreSQL: the order
 * of the bitmap heap scan, which stops at the LIMIT) - so a query made of
 * very common words costs a bounded amount instead of a scan of every page.
 * The membership tests only look at the rowid range of those candidates.
 *
 * Safety. Query text never becomes SQL: words are made of letters and digits
 * only, and are handed to the engine as quoted FTS5 strings ("..." with '"'
 * doubled) or quoted tsquery lexemes ('...' with quote and backslash escaped)
 * inside expressions bound as parameters.
 */
#include "store/internal.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define RS '\x1e' /* between sections */
#define US '\x1f' /* between a section's title and text */

/* Longest indexed text of a page, and of one token: longer runs of
 * non-space bytes (base64 data, minified code) are left out of the index.
 * PostgreSQL refuses tsvectors over 1 MB and words over 2 KB. */
#define SEARCH_TEXT_MAX (256 * 1024)
#define SEARCH_TOKEN_MAX 256

/* ---- words ---- */

/* Decode one UTF-8 sequence at s (n bytes left); invalid input is one byte
 * of U+FFFD. Returns the sequence's length. */
static size_t u8_next(const unsigned char *s, size_t n, uint32_t *cp)
{
	uint32_t c = s[0];
	size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
	static const uint32_t min[] = { 0, 0, 0x80, 0x800, 0x10000 };

	if (len == 0 || len > n) {
		*cp = 0xFFFD;
		return 1;
	}
	if (len > 1) {
		c &= 0x3F >> (len - 1);
		for (size_t i = 1; i < len; i++) {
			if ((s[i] & 0xC0) != 0x80) {
				*cp = 0xFFFD;
				return 1;
			}
			c = c << 6 | (s[i] & 0x3F);
		}
		if (c < min[len]) {
			*cp = 0xFFFD;
			return 1;
		}
	}
	*cp = c;
	return len;
}

/* Whether a code point belongs to a word: ASCII letters and digits, and the
 * letters of other scripts - approximated as everything from U+00C0 up except
 * the punctuation, symbol, emoji, private-use and special blocks. */
static bool word_cp(uint32_t c)
{
	if (c < 0x80)
		return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
	return c >= 0xC0 && c != 0xD7 && c != 0xF7 && !(c >= 0x2000 && c <= 0x2BFF) &&
	       !(c >= 0x2E00 && c <= 0x2E7F) && !(c >= 0x3000 && c <= 0x303F) && !(c >= 0xD800 && c <= 0xF8FF) &&
	       !(c >= 0xFE00 && c <= 0xFE6F) && !(c >= 0xFF00 && c <= 0xFF0F) && !(c >= 0xFF1A && c <= 0xFF20) &&
	       !(c >= 0xFF3B && c <= 0xFF40) && !(c >= 0xFF5B && c <= 0xFF65) && !(c >= 0xFFF0 && c <= 0xFFFF) &&
	       !(c >= 0x1F000 && c <= 0x1FAFF) && c <= 0x10FFFF;
}

/* The next word of s[*at..n): its offset and length; false when none is left. */
static bool next_word(const char *s, size_t n, size_t *at, size_t *start, size_t *len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = *at, w = 0;
	uint32_t cp;
	bool in = false;

	while (i < n) {
		size_t l = u8_next(u + i, n - i, &cp);
		if (word_cp(cp)) {
			if (!in)
				w = i;
			in = true;
		} else if (in) {
			break;
		}
		i += l;
	}
	*at = i;
	if (!in)
		return false;
	*start = w;
	*len = i - w;
	return true;
}

static char ascii_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Does text[0..len) equal word w (ASCII letters compared without case), or
 * start with it when prefix? */
static bool word_match(const char *text, size_t len, const char *w, size_t wlen, bool prefix)
{
	if (len < wlen || (!prefix && len != wlen))
		return false;
	for (size_t i = 0; i < wlen; i++)
		if (ascii_lower(text[i]) != w[i])
			return false;
	return true;
}

/* Function words dropped from a query that has other words (sorted). */
static const char *const stop_words[] = {
	"a", "about", "after", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be", "because",
	"been", "being", "both", "but", "by", "can", "could", "did", "do", "does", "doing", "each", "for", "from",
	"had", "has", "have", "having", "he", "her", "here", "his", "how", "i", "if", "in", "into", "is", "it",
	"its", "just", "me", "my", "of", "on", "or", "our", "she", "should", "so", "than", "that", "the", "their",
	"them", "then", "there", "these", "they", "this", "those", "to", "too", "very", "was", "we", "were",
	"what", "when", "where", "which", "while", "who", "whom", "why", "will", "with", "would", "you", "your",
};

static int cmp_str(const void *k, const void *e)
{
	return strcmp(k, *(const char *const *)e);
}

static bool is_stop_word(const char *w)
{
	return bsearch(w, stop_words, sizeof(stop_words) / sizeof(stop_words[0]), sizeof(stop_words[0]), cmp_str) != NULL;
}

static size_t cp_count(const char *s, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += ((unsigned char)s[i] & 0xC0) != 0x80;
	return k;
}

/* A query's words: ASCII lower-cased, duplicates and (when other words
 * remain) stop words dropped, at most SEARCH_MAX_WORDS (the first ones and
 * the last). */
struct words {
	const char *w[SEARCH_MAX_WORDS];
	size_t len[SEARCH_MAX_WORDS];
	int n;
	bool prefix; /* the last word also matches as a prefix */
};

static int parse_query(struct arena *a, const char *q, struct words *out)
{
	size_t n = strlen(q), at = 0, start, len, max = n / 2 + 1;
	const char **w = arena_alloc(a, max * sizeof(*w));
	size_t *wl = arena_alloc(a, max * sizeof(*wl));
	bool *stop = arena_alloc(a, max * sizeof(*stop));
	int k = 0, kept = 0, nstop = 0;
	bool ends_in_word = false;

	memset(out, 0, sizeof(*out));
	while (next_word(q, n, &at, &start, &len)) {
		char *c = arena_strndup(a, q + start, len);
		for (char *p = c; *p; p++)
			*p = ascii_lower(*p);
		ends_in_word = start + len == n;
		/* A repeated word counts once; the last one keeps its place (it
		 * may be the prefix). */
		for (int i = 0; i < k; i++)
			if (wl[i] == len && memcmp(w[i], c, len) == 0) {
				memmove(w + i, w + i + 1, (size_t)(k - i - 1) * sizeof(*w));
				memmove(wl + i, wl + i + 1, (size_t)(k - i - 1) * sizeof(*wl));
				k--;
				break;
			}
		w[k] = c;
		wl[k++] = len;
	}
	if (k == 0)
		return err_set(ERR_INVALID, "query: has no word to search for (letters or digits)");
	out->prefix = ends_in_word && cp_count(w[k - 1], wl[k - 1]) >= 2;
	for (int i = 0; i < k; i++) {
		/* A prefix may grow into any word: it is never a stop word. */
		stop[i] = is_stop_word(w[i]) && !(i == k - 1 && out->prefix);
		nstop += stop[i];
	}
	for (int i = 0; i < k; i++) {
		if (nstop < k && stop[i])
			continue;
		w[kept] = w[i];
		wl[kept++] = wl[i];
	}
	if (kept > SEARCH_MAX_WORDS) {
		w[SEARCH_MAX_WORDS - 1] = w[kept - 1];
		wl[SEARCH_MAX_WORDS - 1] = wl[kept - 1];
		kept = SEARCH_MAX_WORDS;
	}
	for (int i = 0; i < kept; i++) {
		out->w[i] = w[i];
		out->len[i] = wl[i];
	}
	out->n = kept;
	return 0;
}

/* ---- engine expressions ---- */

/* A growing arena string. */
struct sbuf {
	struct arena *a;
	char *s;
	size_t len, cap;
};

static void sb_putn(struct sbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->len + n + 1) * 2;
		char *d = arena_alloc(b->a, cap);
		if (b->len)
			memcpy(d, b->s, b->len);
		b->s = d;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void sb_puts(struct sbuf *b, const char *s)
{
	sb_putn(b, s, strlen(s));
}

/* s[0..n) as a quoted string: FTS5 "..." ('"' doubled) or tsquery '...'
 * (quote doubled, backslash escaped). */
static void sb_quoted(struct sbuf *b, bool pg, const char *s, size_t n)
{
	char q = pg ? '\'' : '"';

	sb_putn(b, &q, 1);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == q)
			sb_putn(b, &q, 1);
		else if (pg && s[i] == '\\')
			sb_putn(b, "\\", 1);
		sb_putn(b, s + i, 1);
	}
	sb_putn(b, &q, 1);
}

static void sb_word(struct sbuf *b, bool pg, const struct words *w, int i)
{
	sb_quoted(b, pg, w->w[i], w->len[i]);
	if (i == w->n - 1 && w->prefix)
		sb_puts(b, pg ? ":*" : " *");
}

enum expr_kind { EXPR_ALL, EXPR_ANY, EXPR_ONE };

/* The expression for the words (EXPR_ONE: word `one` alone). On SQLite it
 * also selects the scope: `<scope_col> : "<scope_id>" AND {title body} : (...)`. */
static const char *expr(struct arena *a, bool pg, const char *scope_col, const char *scope_id,
			const struct words *w, enum expr_kind kind, int one)
{
	struct sbuf b = { .a = a };

	if (!pg) {
		sb_puts(&b, scope_col);
		sb_puts(&b, " : ");
		sb_quoted(&b, false, scope_id, strlen(scope_id));
		sb_puts(&b, " AND {title body} : (");
	}
	for (int i = 0; i < w->n; i++) {
		if (kind == EXPR_ONE && i != one)
			continue;
		if (kind != EXPR_ONE && i > 0)
			sb_puts(&b, kind == EXPR_ALL ? (pg ? " & " : " AND ") : (pg ? " | " : " OR "));
		sb_word(&b, pg, w, i);
	}
	if (!pg)
		sb_puts(&b, ")");
	return b.s;
}

/* ---- SQL ----
 * Parameters, the same in every statement:
 *   $1 every-word expression   $2 any-word expression   $3 space (or organization) id
 *   $4 number of words         $5 SEARCH_CANDIDATES     $6 rows wanted
 *   $7..$14 one expression per word (NULL past the last word, and all NULL for one word)
 * organization search: $15 readable space ids (JSON array / text[] literal, NULL: all),
 *   $16 pages per space; the cursor's key and id follow as the last two.
 */
#define KEY_TIER "1125899906842624"   /* 2^50 */
#define KEY_REL_MAX "1125899906842623" /* 2^50 - 1 */

/* SQLite: the first candidates of a MATCH, with their BM25 (weights: the
 * scope columns 0, title 10, body 1). */
#define SQ_WINDOW(match)                                                                                    \
	"SELECT rowid AS id, bm25(search_fts, 0.0, 0.0, 10.0, 1.0) AS b FROM search_fts WHERE search_fts MATCH " \
	match " ORDER BY rowid LIMIT $5"
#define SQ_REL(w) "min(CAST(-" w ".b * 1000000000 AS INTEGER), " KEY_REL_MAX ")"
/* Whether candidate w.id holds word $i: a lookup in the word's match list,
 * read only over the candidates' rowid range. */
#define SQ_HAS(w, i)                                                                                       \
	"(CASE WHEN $" #i " IS NULL THEN 0 WHEN " w ".id IN (SELECT rowid FROM search_fts WHERE search_fts MATCH $" #i \
	" AND rowid <= (SELECT max(id) FROM " w ")) THEN 1 ELSE 0 END)"
#define SQ_WORDS(w)                                                                                        \
	SQ_HAS(w, 7) " + " SQ_HAS(w, 8) " + " SQ_HAS(w, 9) " + " SQ_HAS(w, 10) " + " SQ_HAS(w, 11) " + " SQ_HAS(w, 12) \
	" + " SQ_HAS(w, 13) " + " SQ_HAS(w, 14)

/* PostgreSQL: the queries once, then the first candidates of one of them, in
 * the order the scan meets them (no sort: a sort by id would read every
 * match from the table first). */
#define PG_Q                                                                                               \
	"q AS MATERIALIZED (SELECT to_tsquery('simple', $1) AS qa, to_tsquery('simple', $2) AS qo, "        \
	"to_tsquery('simple', $7) AS q1, to_tsquery('simple', $8) AS q2, to_tsquery('simple', $9) AS q3, "    \
	"to_tsquery('simple', $10) AS q4, to_tsquery('simple', $11) AS q5, to_tsquery('simple', $12) AS q6, " \
	"to_tsquery('simple', $13) AS q7, to_tsquery('simple', $14) AS q8)"
#define PG_WINDOW(query, scope)                                                                            \
	"SELECT c.id, c.space_id, c.page_id, c.tsv FROM q CROSS JOIN search_index c WHERE c.tsv @@ q." query \
	" AND " scope " LIMIT $5"
#define PG_REL(w) "LEAST(CAST(ts_rank(" w ".tsv, q.qo, 1) * 1000000000 AS BIGINT), " KEY_REL_MAX ")"
#define PG_HAS(w, i) "COALESCE(CAST(" w ".tsv @@ q.q" #i " AS INTEGER), 0)"
#define PG_WORDS(w)                                                                                        \
	PG_HAS(w, 1) " + " PG_HAS(w, 2) " + " PG_HAS(w, 3) " + " PG_HAS(w, 4) " + " PG_HAS(w, 5) " + " PG_HAS(w, 6) \
	" + " PG_HAS(w, 7) " + " PG_HAS(w, 8)

/* Space search: rows (page_id, title, path, anchors, body, key). `ranked`
 * yields (id, page_id, k); after it come the cursor condition and the order. */
#define SPACE_PAGE(ranked, cmp)                                                                            \
	"SELECT p.page_id, p.title, p.path, p.anchors, p.body, t.k FROM (SELECT id, page_id, k FROM (" ranked \
	") x " cmp "ORDER BY k DESC, page_id LIMIT $6) t JOIN search_index p ON p.id = t.id ORDER BY t.k DESC, t.page_id"
#define SPACE_LIVE "EXISTS (SELECT 1 FROM spaces s WHERE s.id = $3 AND s.deleted_at IS NULL)"
#define SPACE_AFTER "WHERE k < $15 OR (k = $15 AND page_id > $16) "

#define SQ_SPACE_ALL(cmp)                                                                                  \
	SPACE_PAGE("SELECT c.id, c.page_id, $4 * " KEY_TIER " + " SQ_REL("w") " AS k FROM (" SQ_WINDOW("$1") \
		   ") w JOIN search_index c ON c.id = w.id WHERE c.space_id = $3 AND " SPACE_LIVE, cmp)
#define SQ_SPACE_SOME(cmp)                                                                                 \
	"WITH w AS MATERIALIZED (" SQ_WINDOW("$2") ") "                                                     \
	SPACE_PAGE("SELECT c.id, c.page_id, v.n * " KEY_TIER " + v.rel AS k FROM (SELECT w.id, " SQ_WORDS("w") \
		   " AS n, " SQ_REL("w") " AS rel FROM w) v JOIN search_index c ON c.id = v.id "             \
		   "WHERE v.n < $4 AND c.space_id = $3 AND " SPACE_LIVE, cmp)
#define PG_SPACE_ALL(cmp)                                                                                  \
	"WITH " PG_Q ", w AS MATERIALIZED (" PG_WINDOW("qa", "c.space_id = $3") ") "                         \
	SPACE_PAGE("SELECT w.id, w.page_id, $4 * " KEY_TIER " + " PG_REL("w") " AS k FROM q CROSS JOIN w "   \
		   "WHERE " SPACE_LIVE, cmp)
#define PG_SPACE_SOME(cmp)                                                                                 \
	"WITH " PG_Q ", w AS MATERIALIZED (" PG_WINDOW("qo", "c.space_id = $3") ") "                         \
	SPACE_PAGE("SELECT v.id, v.page_id, v.n * " KEY_TIER " + v.rel AS k FROM (SELECT w.id, w.page_id, "  \
		   PG_WORDS("w") " AS n, " PG_REL("w") " AS rel FROM q CROSS JOIN w) v WHERE v.n < $4 AND " SPACE_LIVE, \
		   cmp)

/* [engine][pass: every word, some words][cursor] */
static const char *const space_sql[2][2][2] = {
	{ { SQ_SPACE_ALL(""), SQ_SPACE_ALL(SPACE_AFTER) }, { SQ_SPACE_SOME(""), SQ_SPACE_SOME(SPACE_AFTER) } },
	{ { PG_SPACE_ALL(""), PG_SPACE_ALL(SPACE_AFTER) }, { PG_SPACE_SOME(""), PG_SPACE_SOME(SPACE_AFTER) } },
};

/* Organization search: `hits` (id, space_id, page_id, k) of both passes
 * (the second only with several words), the spaces of the page by their
 * best hit, and each one's best $16 pages. Rows: (space id, space title,
 * space key, page_id, title, path, anchors, body, page key). */
#define ORG_TAIL(cmp)                                                                                      \
	"best AS (SELECT h.space_id, MAX(h.k) AS k FROM hits h GROUP BY h.space_id), "                       \
	"chosen AS (SELECT b.space_id, b.k, s.title FROM best b JOIN spaces s ON s.id = b.space_id "         \
	"WHERE s.deleted_at IS NULL AND s.org_id = $3 " cmp "ORDER BY b.k DESC, b.space_id LIMIT $6), "      \
	"ranked AS (SELECT h.id, h.space_id, h.page_id, h.k, ROW_NUMBER() OVER (PARTITION BY h.space_id "     \
	"ORDER BY h.k DESC, h.page_id) AS rn FROM hits h WHERE h.space_id IN (SELECT space_id FROM chosen)) " \
	"SELECT ch.space_id, ch.title, ch.k, p.page_id, p.title, p.path, p.anchors, p.body, r.k "            \
	"FROM chosen ch JOIN ranked r ON r.space_id = ch.space_id AND r.rn <= $16 "                          \
	"JOIN search_index p ON p.id = r.id ORDER BY ch.k DESC, ch.space_id, r.k DESC, r.page_id"
#define ORG_AFTER "AND (b.k < $17 OR (b.k = $17 AND b.space_id > $18)) "

#define SQ_ORG_READS "($15 IS NULL OR c.space_id IN (SELECT value FROM json_each($15)))"
#define SQ_ORG_ALL                                                                                         \
	"SELECT c.id, c.space_id, c.page_id, $4 * " KEY_TIER " + " SQ_REL("wa") " AS k FROM wa "             \
	"JOIN search_index c ON c.id = wa.id WHERE c.org_id = $3 AND " SQ_ORG_READS
#define SQ_ORG_ONE(cmp)                                                                                    \
	"WITH wa AS MATERIALIZED (" SQ_WINDOW("$1") "), hits AS MATERIALIZED (" SQ_ORG_ALL "), " ORG_TAIL(cmp)
#define SQ_ORG_MANY(cmp)                                                                                   \
	"WITH wa AS MATERIALIZED (" SQ_WINDOW("$1") "), ws AS MATERIALIZED (" SQ_WINDOW("$2") "), "        \
	"hits AS MATERIALIZED (" SQ_ORG_ALL " UNION ALL "                                                   \
	"SELECT c.id, c.space_id, c.page_id, v.n * " KEY_TIER " + v.rel FROM (SELECT ws.id, " SQ_WORDS("ws") \
	" AS n, " SQ_REL("ws") " AS rel FROM ws) v JOIN search_index c ON c.id = v.id "                     \
	"WHERE v.n < $4 AND c.org_id = $3 AND " SQ_ORG_READS "), " ORG_TAIL(cmp)

#define PG_ORG_SCOPE "c.org_id = $3 AND (CAST($15 AS TEXT[]) IS NULL OR c.space_id = ANY (CAST($15 AS TEXT[])))"
#define PG_ORG_ALL                                                                                         \
	"SELECT wa.id, wa.space_id, wa.page_id, $4 * " KEY_TIER " + " PG_REL("wa") " AS k FROM q CROSS JOIN wa"
#define PG_ORG_ONE(cmp)                                                                                    \
	"WITH " PG_Q ", wa AS MATERIALIZED (" PG_WINDOW("qa", PG_ORG_SCOPE) "), "                            \
	"hits AS MATERIALIZED (" PG_ORG_ALL "), " ORG_TAIL(cmp)
#define PG_ORG_MANY(cmp)                                                                                   \
	"WITH " PG_Q ", wa AS MATERIALIZED (" PG_WINDOW("qa", PG_ORG_SCOPE) "), "                            \
	"ws AS MATERIALIZED (" PG_WINDOW("qo", PG_ORG_SCOPE) "), "                                           \
	"hits AS MATERIALIZED (" PG_ORG_ALL " UNION ALL SELECT v.id, v.space_id, v.page_id, v.n * " KEY_TIER \
	" + v.rel FROM (SELECT ws.id, ws.space_id, ws.page_id, " PG_WORDS("ws") " AS n, " PG_REL("ws")      \
	" AS rel FROM q CROSS JOIN ws) v WHERE v.n < $4), " ORG_TAIL(cmp)

/* [engine][several words][cursor] */
static const char *const org_sql[2][2][2] = {
	{ { SQ_ORG_ONE(""), SQ_ORG_ONE(ORG_AFTER) }, { SQ_ORG_MANY(""), SQ_ORG_MANY(ORG_AFTER) } },
	{ { PG_ORG_ONE(""), PG_ORG_ONE(ORG_AFTER) }, { PG_ORG_MANY(""), PG_ORG_MANY(ORG_AFTER) } },
};

static bool is_pg(const struct store_tx *tx)
{
	return strcmp(tx->drv->name, "postgres") == 0;
}

/* Parameters $1..$14 for a query of w over a space or an organization. */
static int query_params(struct store_tx *tx, const char *scope_col, const char *scope_id, const struct words *w,
			int64_t rows, struct db_param *p)
{
	bool pg = is_pg(tx);
	const char *all = expr(tx->arena, pg, scope_col, scope_id, w, EXPR_ALL, 0);
	const char *any = expr(tx->arena, pg, scope_col, scope_id, w, EXPR_ANY, 0);

	p[0] = P_TEXT(all);
	p[1] = P_TEXT(any);
	p[2] = P_TEXT(scope_id);
	p[3] = P_INT(w->n);
	p[4] = P_INT(SEARCH_CANDIDATES);
	p[5] = P_INT(rows);
	for (int i = 0; i < SEARCH_MAX_WORDS; i++) {
		const char *one = NULL;
		if (w->n > 1 && i < w->n)
			one = expr(tx->arena, pg, scope_col, scope_id, w, EXPR_ONE, i);
		p[6 + i] = P_TEXT(one);
	}
	return 0;
}

/* ---- sections and excerpts ---- */

static bool is_space(char c)
{
	return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Up to about SEARCH_EXCERPT characters of text around byte offset hit
 * (inside a word or at 0): starting a little before it at a word boundary -
 * earlier when the text ends soon after it - and ending at one, runs of white
 * space as one space, "…" where text was cut. */
static const char *excerpt(struct arena *a, const char *text, size_t len, size_t hit)
{
	size_t lead = SEARCH_EXCERPT / 4, rest = cp_count(text + hit, len - hit);
	size_t start = hit, end, chars = 0, last_space = 0;
	struct sbuf b = { .a = a };
	bool space = false;

	if (rest + lead < SEARCH_EXCERPT)
		lead = SEARCH_EXCERPT - rest;
	/* Back `lead` characters, then forward to the start of a word. */
	while (start > 0 && chars < lead) {
		start--;
		chars += ((unsigned char)text[start] & 0xC0) != 0x80;
	}
	if (start > 0 && !is_space(text[start - 1])) {
		size_t s = start;
		while (s < hit && !is_space(text[s]))
			s++;
		start = s < hit ? s : hit;
	}
	while (start < len && is_space(text[start]))
		start++;
	/* Forward SEARCH_EXCERPT characters, then back to the last word end. */
	for (end = start, chars = 0; end < len && chars < SEARCH_EXCERPT; end++) {
		chars += ((unsigned char)text[end] & 0xC0) != 0x80;
		if (is_space(text[end]) && end > hit)
			last_space = end;
	}
	while (end < len && ((unsigned char)text[end] & 0xC0) == 0x80)
		end++;
	if (end < len && !is_space(text[end]) && last_space > start)
		end = last_space;
	if (start > 0)
		sb_puts(&b, "\xE2\x80\xA6"); /* … */
	for (size_t i = start; i < end; i++) {
		if (is_space(text[i])) {
			space = true;
			continue;
		}
		if (space && b.len > 0)
			sb_putn(&b, " ", 1);
		space = false;
		sb_putn(&b, text + i, 1);
	}
	while (end < len && is_space(text[end]))
		end++;
	if (end < len)
		sb_puts(&b, "\xE2\x80\xA6");
	return b.s ? b.s : "";
}

/* Which words text holds (bit i: word i), and the offset of the first hit. */
static unsigned words_in(const struct words *w, const char *text, size_t n, size_t *first)
{
	size_t at = 0, start, len;
	unsigned mask = 0, all = (1u << w->n) - 1;

	*first = (size_t)-1;
	while (mask != all && next_word(text, n, &at, &start, &len))
		for (int i = 0; i < w->n; i++)
			if (word_match(text + start, len, w->w[i], w->len[i], w->prefix && i == w->n - 1)) {
				mask |= 1u << i;
				if (*first == (size_t)-1)
					*first = start;
			}
	return mask;
}

struct sec_hit {
	int index;
	int words;
	const char *title, *body;
	size_t body_len, first;
};

static int cmp_sec_hit(const void *x, const void *y)
{
	const struct sec_hit *a = x, *b = y;

	return a->words != b->words ? b->words - a->words : a->index - b->index;
}

/* Split a stored page into sections and keep those with a hit, each with its
 * excerpt. anchors and body are arena copies (cut in place). */
static int page_sections(struct arena *a, const struct words *w, char *anchors, char *body, struct search_page *pg)
{
	struct sec_hit *hits;
	const char **ids;
	int count = 1, keep;
	char *s, *t;

	pg->sections = NULL;
	pg->nsections = 0;
	if (!*body)
		return 0;
	for (s = body; *s; s++)
		count += *s == RS;
	hits = arena_alloc(a, (size_t)count * sizeof(*hits));
	ids = arena_alloc(a, (size_t)count * sizeof(*ids));
	for (int i = 0; i < count; i++) {
		ids[i] = anchors;
		if ((t = strchr(anchors, RS))) {
			*t = '\0';
			anchors = t + 1;
		} else {
			anchors += strlen(anchors);
		}
	}
	for (int i = 0; i < count; i++) {
		struct sec_hit *h = &hits[i];
		size_t first;
		unsigned mask;
		if ((t = strchr(body, RS)))
			*t = '\0';
		h->index = i;
		h->title = body;
		h->body = "";
		if ((s = strchr(body, US))) {
			*s = '\0';
			h->body = s + 1;
		}
		h->body_len = strlen(h->body);
		mask = words_in(w, h->title, strlen(h->title), &first);
		mask |= words_in(w, h->body, h->body_len, &h->first);
		h->words = __builtin_popcount(mask);
		body = t ? t + 1 : body + strlen(body);
	}
	qsort(hits, (size_t)count, sizeof(*hits), cmp_sec_hit);
	/* Sections with a hit, best first; the page's first one if none has. */
	keep = hits[0].words ? 0 : 1;
	while (keep < count && keep < SEARCH_SECTIONS && hits[keep].words)
		keep++;
	pg->sections = arena_alloc(a, (size_t)keep * sizeof(*pg->sections));
	for (int i = 0; i < keep; i++) {
		const struct sec_hit *h = &hits[i];
		struct search_section *sec = &pg->sections[i];
		sec->id = ids[h->index];
		sec->title = h->title;
		sec->body = excerpt(a, h->body, h->body_len, h->first == (size_t)-1 ? 0 : h->first);
	}
	pg->nsections = keep;
	return 0;
}

/* Columns from `col`: page_id, title, path, anchors, body, key. */
static int fill_page(struct store_tx *tx, struct db_rows *r, int col, const struct words *w, const char *space_id,
		     struct search_page *pg, int64_t *key)
{
	char *anchors, *body;

	memset(pg, 0, sizeof(*pg));
	pg->space_id = space_id;
	pg->id = st_str(tx, r, col);
	pg->title = st_str(tx, r, col + 1);
	pg->path = st_str(tx, r, col + 2);
	anchors = (char *)st_str(tx, r, col + 3);
	body = (char *)st_str(tx, r, col + 4);
	*key = st_int(tx, r, col + 5);
	pg->words = (int)(*key >> 50);
	if (!anchors || !body)
		return err_set(ERR_INTERNAL, "search row %s has no text", pg->id ? pg->id : "");
	return page_sections(tx->arena, w, anchors, body, pg);
}

/* ---- writes ---- */

/* Append text to b as indexed: separators replaced, overlong tokens left out. */
static void sb_indexed(struct sbuf *b, const char *s)
{
	while (*s) {
		size_t n = 0;
		while (s[n] && !is_space(s[n]))
			n++;
		if (n > SEARCH_TOKEN_MAX) {
			s += n;
			continue;
		}
		for (size_t i = 0; i < n; i++)
			sb_putn(b, s[i] == RS || s[i] == US ? " " : s + i, 1);
		s += n;
		for (; *s && is_space(*s); s++)
			sb_putn(b, s, 1);
	}
}

int store_search_put_page(struct store_tx *tx, const char *org_id, const char *space_id, const char *page_id,
			  const char *title, const char *path, const struct search_section *secs, int n)
{
	struct sbuf anchors = { .a = tx->arena }, body = { .a = tx->arena };

	sb_puts(&anchors, "");
	sb_puts(&body, "");
	for (int i = 0; i < n && body.len < SEARCH_TEXT_MAX; i++) {
		if (i > 0) {
			sb_putn(&anchors, "\x1e", 1);
			sb_putn(&body, "\x1e", 1);
		}
		sb_indexed(&anchors, secs[i].id);
		sb_indexed(&body, secs[i].title);
		sb_putn(&body, "\x1f", 1);
		sb_indexed(&body, secs[i].body);
	}
	if (body.len > SEARCH_TEXT_MAX) {
		size_t cut = SEARCH_TEXT_MAX;
		while (cut > 0 && ((unsigned char)body.s[cut] & 0xC0) == 0x80)
			cut--;
		body.s[body.len = cut] = '\0';
	}
	struct db_param p[] = { P_TEXT(space_id), P_TEXT(page_id), P_TEXT(org_id), P_TEXT(title ? title : ""),
				P_TEXT(path ? path : ""), P_TEXT(anchors.s), P_TEXT(body.s) };
	/* An unchanged page is not written (nor indexed) again. */
	return st_exec(tx,
		       "INSERT INTO search_index (space_id, page_id, org_id, title, path, anchors, body) "
		       "VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (space_id, page_id) DO UPDATE SET "
		       "org_id = excluded.org_id, title = excluded.title, path = excluded.path, anchors = excluded.anchors, "
		       "body = excluded.body WHERE search_index.org_id <> excluded.org_id OR search_index.title <> excluded.title "
		       "OR search_index.path <> excluded.path OR search_index.anchors <> excluded.anchors "
		       "OR search_index.body <> excluded.body",
		       p, NP(p), NULL);
}

int store_search_remove_page(struct store_tx *tx, const char *space_id, const char *page_id)
{
	struct db_param p[] = { P_TEXT(space_id), P_TEXT(page_id) };

	return st_exec(tx, "DELETE FROM search_index WHERE space_id = $1 AND page_id = $2", p, NP(p), NULL);
}

int store_search_copy_space(struct store_tx *tx, const char *from_space_id, const char *to_space_id)
{
	struct db_param p[] = { P_TEXT(from_space_id), P_TEXT(to_space_id) };

	return st_exec(tx,
		       "INSERT INTO search_index (space_id, page_id, org_id, title, path, anchors, body) "
		       "SELECT $2, i.page_id, s.org_id, i.title, i.path, i.anchors, i.body FROM search_index i "
		       "JOIN spaces s ON s.id = $2 WHERE i.space_id = $1 ON CONFLICT (space_id, page_id) DO NOTHING",
		       p, NP(p), NULL);
}

/* ---- queries ---- */

/* Run one pass of a space search, appending to items[*n..want). */
static int space_pass(struct store_tx *tx, const struct words *w, struct db_param *p, int some, int cursor,
		      int want, const char *space_id, struct search_page *items, int64_t *keys, int *n)
{
	struct db_rows *r;
	int rc;

	p[5] = P_INT(want - *n);
	if ((rc = st_query(tx, &r, space_sql[is_pg(tx)][some][cursor], p, 16)))
		return rc;
	while (*n < want && (rc = st_next(tx, r)) == 1) {
		if ((rc = fill_page(tx, r, 0, w, space_id, &items[*n], &keys[*n])))
			break;
		(*n)++;
	}
	st_done(tx, r);
	return rc < 0 ? rc : 0;
}

static int list_start(const struct list_req *lr, int64_t *key)
{
	*key = 0;
	if (lr->limit < 1 || lr->limit > 1000)
		return err_set(ERR_INVALID, "limit: must be between 1 and 1000");
	return lr->after ? cursor_key_int(lr->after, key) : 0;
}

int store_search_space(struct store_tx *tx, const char *space_id, const char *query, const struct list_req *lr,
		       struct search_page **items, int *n, char **next)
{
	struct words w;
	struct db_param p[16];
	struct search_page *pages;
	int64_t *keys, after;
	int want = lr->limit + 1, got = 0, rc;

	*items = NULL;
	*n = 0;
	*next = NULL;
	if ((rc = list_start(lr, &after)) || (rc = parse_query(tx->arena, query, &w)))
		return rc;
	pages = arena_alloc(tx->arena, (size_t)want * sizeof(*pages));
	keys = arena_alloc(tx->arena, (size_t)want * sizeof(*keys));
	if ((rc = query_params(tx, "space_id", space_id, &w, want, p)))
		return rc;
	p[14] = lr->after ? P_INT(after) : P_NULL;
	p[15] = lr->after ? P_TEXT(lr->after->id) : P_NULL;
	/* A cursor with fewer than every word continues in the second pass. */
	if (!lr->after || (after >> 50) >= w.n) {
		if ((rc = space_pass(tx, &w, p, 0, lr->after != NULL, want, space_id, pages, keys, &got)))
			return rc;
		if (got < want && w.n > 1)
			rc = space_pass(tx, &w, p, 1, 0, want, space_id, pages, keys, &got);
	} else {
		rc = space_pass(tx, &w, p, 1, 1, want, space_id, pages, keys, &got);
	}
	if (rc)
		return rc;
	if (got > lr->limit) {
		got = lr->limit;
		if (!(*next = cursor_encode_int(tx->arena, keys[got - 1], pages[got - 1].id)))
			return err_set(ERR_INTERNAL, "cannot encode the page cursor");
	}
	*items = pages;
	*n = got;
	return 0;
}

/* The readable spaces as a JSON array (SQLite) or a text[] literal
 * (PostgreSQL): each id double-quoted with '"' and '\' escaped. */
static const char *id_list(struct store_tx *tx, const char *const *ids, int n)
{
	struct sbuf b = { .a = tx->arena };
	bool pg = is_pg(tx);

	sb_puts(&b, pg ? "{" : "[");
	for (int i = 0; i < n; i++) {
		sb_puts(&b, i ? ",\"" : "\"");
		for (const char *c = ids[i]; *c; c++) {
			if (*c == '"' || *c == '\\')
				sb_putn(&b, "\\", 1);
			sb_putn(&b, c, 1);
		}
		sb_puts(&b, "\"");
	}
	sb_puts(&b, pg ? "}" : "]");
	return b.s;
}

int store_search_org(struct store_tx *tx, const char *org_id, const char *const *space_ids, int nspace_ids,
		     const char *query, const struct list_req *lr, struct search_space **items, int *n, char **next)
{
	struct words w;
	struct db_param p[18];
	struct search_space *spaces;
	struct db_rows *r;
	int64_t after, space_key = 0, page_key;
	int count = 0, rc;
	const char *reads = NULL;

	*items = NULL;
	*n = 0;
	*next = NULL;
	if ((rc = list_start(lr, &after)) || (rc = parse_query(tx->arena, query, &w)))
		return rc;
	if (space_ids && nspace_ids == 0)
		return 0;
	if (space_ids)
		reads = id_list(tx, space_ids, nspace_ids);
	spaces = arena_alloc(tx->arena, (size_t)lr->limit * sizeof(*spaces));
	if ((rc = query_params(tx, "org_id", org_id, &w, lr->limit + 1, p)))
		return rc;
	p[14] = P_TEXT(reads);
	p[15] = P_INT(SEARCH_ORG_PAGES);
	p[16] = lr->after ? P_INT(after) : P_NULL;
	p[17] = lr->after ? P_TEXT(lr->after->id) : P_NULL;
	if ((rc = st_query(tx, &r, org_sql[is_pg(tx)][w.n > 1][lr->after != NULL], p, NP(p))))
		return rc;
	while ((rc = st_next(tx, r)) == 1) {
		const char *id = tx->drv->text(r, 0);
		struct search_space *sp = count ? &spaces[count - 1] : NULL;
		if (!sp || strcmp(sp->id, id) != 0) {
			if (count == lr->limit) {
				if (!(*next = cursor_encode_int(tx->arena, space_key, sp->id)))
					rc = err_set(ERR_INTERNAL, "cannot encode the page cursor");
				break;
			}
			sp = &spaces[count++];
			memset(sp, 0, sizeof(*sp));
			sp->id = st_str(tx, r, 0);
			sp->title = st_str(tx, r, 1);
			space_key = st_int(tx, r, 2);
			sp->pages = arena_alloc(tx->arena, SEARCH_ORG_PAGES * sizeof(*sp->pages));
		}
		if (sp->npages == SEARCH_ORG_PAGES)
			continue;
		if ((rc = fill_page(tx, r, 3, &w, sp->id, &sp->pages[sp->npages], &page_key)))
			break;
		sp->npages++;
	}
	st_done(tx, r);
	if (rc < 0)
		return rc;
	*items = spaces;
	*n = count;
	return 0;
}
