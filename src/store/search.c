/*
 * search.c - the search index: one row per page of a space's current revision
 * (search_pages) and the engine's full-text index over it (FTS5 on SQLite,
 * a tsvector GIN index on PostgreSQL; migration 4).
 *
 * A query takes two index-driven passes: pages with every word (AND), then,
 * when those do not fill the candidates, pages with any word (OR). Each
 * candidate's count of matched words is taken in C, and the order is: more
 * words first, then the engine's rank. So a word missing from every page
 * ("custom hatch patterns") still finds the pages with the other words.
 */
#include "core/markdown.h"
#include "core/jsonw.h"
#include "store/internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int store_search_put_page(struct store_tx *tx, const char *org_id, const char *space_id, const char *page_id,
			  const char *title, const char *path, const char *markdown)
{
	struct md_section *secs;
	size_t n;
	struct jw w;
	int rc;
	const char *plain;

	if (md_sections(tx->arena, markdown, strlen(markdown), &secs, &n))
		return err_set(ERR_INTERNAL, "splitting the page into sections failed");
	if (!(plain = md_plain_text(tx->arena, markdown, strlen(markdown))))
		return err_set(ERR_INTERNAL, "out of memory");
	jw_init(&w);
	jw_arr_open(&w);
	for (size_t i = 0; i < n; i++) {
		jw_obj_open(&w);
		jw_kstr(&w, "id", secs[i].id ? secs[i].id : "");
		jw_kstr(&w, "title", secs[i].title ? secs[i].title : "");
		jw_kstr(&w, "body", secs[i].body ? secs[i].body : "");
		jw_obj_close(&w);
	}
	jw_arr_close(&w);
	jw_put(&w, "", 1);
	if (!jw_ok(&w)) {
		jw_free(&w);
		return err_set(ERR_INTERNAL, "out of memory");
	}
	if ((rc = store_search_remove_page(tx, space_id, page_id)) == 0) {
		struct db_param p[] = { P_TEXT(space_id), P_TEXT(page_id), P_TEXT(org_id), P_TEXT(title), P_TEXT(path),
					P_TEXT(plain), P_TEXT(w.buf) };
		rc = st_exec(tx,
			     "INSERT INTO search_pages (space_id, page_id, org_id, title, path, body, sections) "
			     "VALUES ($1, $2, $3, $4, $5, $6, $7)",
			     p, NP(p), NULL);
	}
	jw_free(&w);
	return rc;
}

int store_search_remove_page(struct store_tx *tx, const char *space_id, const char *page_id)
{
	struct db_param p[] = { P_TEXT(space_id), P_TEXT(page_id) };

	return st_exec(tx, "DELETE FROM search_pages WHERE space_id = $1 AND page_id = $2", p, NP(p), NULL);
}

static int fill_hit(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct search_hit *h = out;
	int oom = 0;

	h->space_id = st_str(tx, r, 0, &oom);
	h->page_id = st_str(tx, r, 1, &oom);
	h->title = st_str(tx, r, 2, &oom);
	h->path = st_str(tx, r, 3, &oom);
	h->sections = st_str(tx, r, 4, &oom);
	h->rank = (double)st_int(tx, r, 5) / 1e6;
	h->matched = 0;
	return oom ? err_set(ERR_INTERNAL, "out of memory") : 0;
}

/* $1 match expression, $2 org, $3 space or NULL, $4 limit. The rank is
 * scaled to an integer so both drivers read it alike. */
#define SQLITE_SEARCH                                                                                     \
	"SELECT p.space_id, p.page_id, p.title, p.path, p.sections, CAST(bm25(search_fts, 4.0, 1.0) * 1000000 AS INTEGER) " \
	"FROM search_fts JOIN search_pages p ON p.rowid = search_fts.rowid JOIN spaces s ON s.id = p.space_id " \
	"WHERE search_fts MATCH $1 AND p.org_id = $2 AND (CAST($3 AS TEXT) IS NULL OR p.space_id = $3) "     \
	"AND s.deleted_at IS NULL ORDER BY bm25(search_fts, 4.0, 1.0) LIMIT $4"
#define PG_SEARCH                                                                                        \
	"SELECT p.space_id, p.page_id, p.title, p.path, p.sections, "                                    \
	"CAST(-ts_rank(p.tsv, to_tsquery('simple', $1)) * 1000000 AS BIGINT) "                           \
	"FROM search_pages p JOIN spaces s ON s.id = p.space_id "                                        \
	"WHERE p.tsv @@ to_tsquery('simple', $1) AND p.org_id = $2 AND (CAST($3 AS TEXT) IS NULL OR p.space_id = $3) " \
	"AND s.deleted_at IS NULL ORDER BY 6 LIMIT $4"

static char *match_expr(struct arena *a, int pg, const char *const *words, int n, int all)
{
	size_t cap = 16;
	char *s, *o;

	for (int i = 0; i < n; i++)
		cap += strlen(words[i]) + 8;
	if (!(s = o = arena_alloc(a, cap)))
		return NULL;
	for (int i = 0; i < n; i++) {
		int last = i == n - 1;
		if (i)
			o += sprintf(o, pg ? (all ? " & " : " | ") : (all ? " AND " : " OR "));
		/* Words hold only [a-z0-9] and UTF-8 bytes: nothing to escape. */
		o += sprintf(o, pg ? "%s%s" : "\"%s\"%s", words[i], last ? (pg ? ":*" : "*") : "");
	}
	*o = '\0';
	return s;
}

static int cmp_hit(const void *x, const void *y)
{
	const struct search_hit *a = x, *b = y;

	if (a->matched != b->matched)
		return b->matched - a->matched;
	return a->rank < b->rank ? -1 : a->rank > b->rank ? 1 : 0;
}

/* Does the lowercase haystack hold word (as a word prefix when prefix)? */
static int holds(const char *hay, const char *word, int prefix)
{
	size_t n = strlen(word);

	for (const char *p = hay; (p = strstr(p, word)); p++) {
		int start = p == hay || !isalnum((unsigned char)p[-1]);
		int end = prefix || !isalnum((unsigned char)p[n]);
		if (start && end)
			return 1;
	}
	return 0;
}

int store_search(struct store_tx *tx, const char *org_id, const char *space_id, const char *const *words,
		 int nwords, int max, struct search_hit **out, int *n)
{
	int pg = strcmp(tx->drv->name, "sqlite") != 0, total = 0, rc;
	struct search_hit *all = arena_alloc(tx->arena, sizeof(*all) * (size_t)(2 * max + 1));

	*out = all;
	*n = 0;
	if (!all)
		return err_set(ERR_INTERNAL, "out of memory");
	for (int pass = 0; pass < 2 && total < max; pass++) {
		struct search_hit *got;
		int k;
		if (pass == 1 && nwords == 1)
			break;
		char *q = match_expr(tx->arena, pg, words, nwords, pass == 0);
		if (!q)
			return err_set(ERR_INTERNAL, "out of memory");
		struct db_param p[] = { P_TEXT(q), P_TEXT(org_id), P_TEXT(space_id), P_INT(max) };
		if ((rc = st_all(tx, pg ? PG_SEARCH : SQLITE_SEARCH, p, NP(p), fill_hit, sizeof(struct search_hit),
				 (void **)&got, &k)))
			return rc;
		for (int i = 0; i < k && total < 2 * max; i++) {
			int dup = 0;
			for (int j = 0; j < total && !dup; j++)
				dup = strcmp(all[j].page_id, got[i].page_id) == 0 && strcmp(all[j].space_id, got[i].space_id) == 0;
			if (!dup)
				all[total++] = got[i];
		}
	}
	for (int i = 0; i < total; i++) {
		char *hay = arena_printf(tx->arena, "%s %s", all[i].title, all[i].sections);
		if (!hay)
			return err_set(ERR_INTERNAL, "out of memory");
		for (char *c = hay; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		for (int w = 0; w < nwords; w++)
			all[i].matched += holds(hay, words[w], w == nwords - 1);
	}
	qsort(all, (size_t)total, sizeof(*all), cmp_hit);
	*n = total < max ? total : max;
	return 0;
}
