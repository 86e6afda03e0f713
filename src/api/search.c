/*
 * search.c - searchSpaceContent and searchOrganizationContent.
 *
 * The query is split into words (letters and digits, lowercased; at most 16);
 * store_search ranks the pages. Results are pages with the sections that hold
 * a query word and an excerpt around the first hit. The organization search
 * keeps only pages of spaces the caller can read and groups them by space.
 * Pages are paged by their index in the ranked list (the cursor).
 */
#include "api/content.h"
#include "util/util.h"

#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORDS 16
#define MAX_HITS 1000
#define EXCERPT 200

static int query_words(struct req *r, const char **words, int *n)
{
	const char *q = req_query(r, "query");
	char *copy, *save = NULL;

	*n = 0;
	if (!q || !*q)
		return err_set(ERR_INVALID, "query: required");
	if (strlen(q) > 512)
		return err_set(ERR_INVALID, "query: at most 512 characters");
	if (!(copy = arena_strdup(&r->arena, q)))
		return err_set(ERR_INTERNAL, "out of memory");
	for (char *c = copy; *c; c++) {
		unsigned char u = (unsigned char)*c;
		*c = u >= 0x80 || isalnum(u) ? (char)tolower(u) : ' ';
	}
	for (char *t = strtok_r(copy, " ", &save); t && *n < MAX_WORDS; t = strtok_r(NULL, " ", &save))
		words[(*n)++] = t;
	if (*n == 0)
		return err_set(ERR_INVALID, "query: must hold a word");
	return 0;
}

/* Offset of the first query word in lowercase s, or -1. */
static long first_hit(const char *s, const char *const *words, int n)
{
	char *low = strdup(s);
	long best = -1;

	if (!low)
		return -1;
	for (char *c = low; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	for (int i = 0; i < n; i++) {
		const char *p = strstr(low, words[i]);
		if (p && (best < 0 || p - low < best))
			best = p - low;
	}
	free(low);
	return best;
}

static void excerpt(struct jw *g, const char *body, long at)
{
	size_t len = strlen(body), start = at > EXCERPT / 3 ? (size_t)at - EXCERPT / 3 : 0, end;

	/* Word boundaries, and never inside a UTF-8 sequence. */
	while (start > 0 && start < len && body[start - 1] != ' ' && body[start - 1] != '\n')
		start--;
	while (start < len && ((unsigned char)body[start] & 0xC0) == 0x80)
		start++;
	end = start + EXCERPT < len ? start + EXCERPT : len;
	while (end < len && body[end] != ' ' && body[end] != '\n' && end - start < EXCERPT + 40)
		end++;
	while (end > start && end < len && ((unsigned char)body[end] & 0xC0) == 0x80)
		end--;
	jw_key(g, "body");
	jw_strn(g, body + start, end - start);
}

static void hit_json(struct jw *g, struct req *r, const struct search_hit *h, const char *const *words, int nw)
{
	json_error_t je;
	json_t *secs = json_loads(h->sections, 0, &je);
	const char *base = api_base(r);
	int wrote = 0;

	jw_obj_open(g);
	jw_kstr(g, "id", h->page_id);
	jw_kstr(g, "title", h->title);
	jw_kstr(g, "path", h->path);
	jw_key(g, "urls");
	jw_obj_open(g);
	jw_kstr(g, "app", arena_printf(&r->arena, "%s/s/%s/%s", base, h->space_id, h->path));
	jw_obj_close(g);
	jw_key(g, "sections");
	jw_arr_open(g);
	for (size_t i = 0; i < json_array_size(secs); i++) {
		json_t *s = json_array_get(secs, i);
		const char *id = json_string_value(json_object_get(s, "id")), *title = json_string_value(json_object_get(s, "title"));
		const char *body = json_string_value(json_object_get(s, "body"));
		long at = body ? first_hit(body, words, nw) : -1, tat = title ? first_hit(title, words, nw) : -1;
		if (!id || !title || !body || (at < 0 && tat < 0 && !(i + 1 == json_array_size(secs) && !wrote)))
			continue;
		const char *path = *id ? arena_printf(&r->arena, "%s#%s", h->path, id) : h->path;
		jw_obj_open(g);
		jw_kstr(g, "id", *id ? id : h->page_id);
		jw_kstr(g, "title", *title ? title : h->title);
		jw_kstr(g, "path", path);
		excerpt(g, body, at < 0 ? 0 : at);
		jw_key(g, "urls");
		jw_obj_open(g);
		jw_kstr(g, "app", arena_printf(&r->arena, "%s/s/%s/%s", base, h->space_id, path));
		jw_obj_close(g);
		jw_obj_close(g);
		wrote++;
	}
	jw_arr_close(g);
	jw_obj_close(g);
	json_decref(secs);
}

static int window(struct req *r, struct list_req *lr, int *start)
{
	*start = 0;
	if (lr->after && (*start = atoi(lr->after->id)) < 0)
		return err_set(ERR_INVALID, "page: not a cursor of this list");
	return 0;
}

static const char *next_cursor(struct req *r, int end, int total)
{
	char idx[16];

	if (end >= total)
		return NULL;
	snprintf(idx, sizeof(idx), "%d", end);
	return cursor_encode(&r->arena, "0", idx);
}

int search_space(struct req *r)
{
	const char *words[MAX_WORDS];
	struct space s;
	struct list_req lr;
	struct cursor cur;
	struct search_hit *hits;
	int nw, n, start, rc, count = 0;

	if ((rc = content_space(r, ROLE_READ, &s)) || (rc = query_words(r, words, &nw)) ||
	    (rc = req_list(r, &lr, &cur, NULL, 0)) || (rc = window(r, &lr, &start)))
		return rc;
	int want = start + lr.limit < MAX_HITS ? start + lr.limit + 1 : MAX_HITS;
	if ((rc = store_search(&r->tx, s.org_id, s.id, words, nw, want, &hits, &n)))
		return rc;
	struct jw *g = resp_list_begin(r);
	if (!g)
		return err_set(ERR_INTERNAL, "out of memory");
	for (int i = start; i < n && count < lr.limit; i++, count++)
		hit_json(g, r, &hits[i], words, nw);
	return resp_list_end(r, count, next_cursor(r, start + count, n));
}

struct space_seen {
	const char *id;
	struct space s;
	int readable;
};

int search_org(struct req *r)
{
	const char *words[MAX_WORDS];
	struct list_req lr;
	struct cursor cur;
	struct search_hit *hits;
	struct space_seen *seen;
	int nw, n, start, rc, nseen = 0, kept = 0;

	if ((rc = query_words(r, words, &nw)) || (rc = req_list(r, &lr, &cur, NULL, 0)) ||
	    (rc = window(r, &lr, &start)))
		return rc;
	int want = start + lr.limit < MAX_HITS ? start + lr.limit + 1 : MAX_HITS;
	if ((rc = store_search(&r->tx, r->org_id, NULL, words, nw, want, &hits, &n)))
		return rc;
	if (!(seen = arena_alloc(&r->arena, sizeof(*seen) * (size_t)(n + 1))))
		return err_set(ERR_INTERNAL, "out of memory");
	/* Keep the hits in spaces the caller reads (each space checked once). */
	for (int i = 0; i < n; i++) {
		int k = 0;
		while (k < nseen && strcmp(seen[k].id, hits[i].space_id) != 0)
			k++;
		if (k == nseen) {
			enum role role = ROLE_NONE;
			seen[k].id = hits[i].space_id;
			if ((rc = store_space_get(&r->tx, hits[i].space_id, &seen[k].s)) ||
			    (rc = content_space_role(r, &seen[k].s, &role)))
				return rc;
			seen[k].readable = role >= ROLE_READ;
			nseen++;
		}
		if (seen[k].readable)
			hits[kept++] = hits[i];
	}
	int end = start + lr.limit < kept ? start + lr.limit : kept, count = 0;
	struct jw *g = resp_list_begin(r);
	if (!g)
		return err_set(ERR_INTERNAL, "out of memory");
	/* Group the window's pages by space, spaces in the order of their best page. */
	for (int i = start; i < end; i++) {
		int first = 1;
		for (int j = start; j < i && first; j++)
			first = strcmp(hits[j].space_id, hits[i].space_id) != 0;
		if (!first)
			continue;
		int k = 0;
		while (strcmp(seen[k].id, hits[i].space_id) != 0)
			k++;
		jw_obj_open(g);
		jw_kstr(g, "id", hits[i].space_id);
		jw_kstr(g, "title", seen[k].s.title);
		jw_key(g, "pages");
		jw_arr_open(g);
		for (int j = i; j < end; j++)
			if (strcmp(hits[j].space_id, hits[i].space_id) == 0)
				hit_json(g, r, &hits[j], words, nw);
		jw_arr_close(g);
		jw_obj_close(g);
		count++;
	}
	return resp_list_end(r, count, next_cursor(r, end, kept));
}
