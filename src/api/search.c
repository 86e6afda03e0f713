/*
 * search.c - searchSpaceContent and searchOrganizationContent.
 *
 * The store ranks and pages the results (store/search.h); these handlers check
 * access, read the query, and write GitBook's shapes: a space search lists
 * SearchPageResult, an organization search SearchSpaceResult ({id, title,
 * pages}) for the spaces the caller can read. App URLs are
 * <public-url>/s/<space>/<page path>[#<section anchor>].
 */
#include "api/content.h"

#include <string.h>

/* query: required, 1..SEARCH_QUERY_MAX bytes, not only white space. */
static int read_query(struct req *r, const char **out)
{
	const char *q = req_query(r, "query");

	if (!q || !q[strspn(q, " \t\r\n")])
		return err_set(ERR_INVALID, "query: required");
	if (strlen(q) > SEARCH_QUERY_MAX)
		return err_set(ERR_INVALID, "query: at most %d characters", SEARCH_QUERY_MAX);
	*out = q;
	return 0;
}

/* s with every byte but [A-Za-z0-9-._~/] percent-encoded (paths and anchors
 * are slugs, so this rarely changes anything). NULL when out of memory. */
static const char *url_path(struct arena *a, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = strlen(s);
	char *d = arena_alloc(a, 3 * n + 1), *o = d;

	if (!d)
		return NULL;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("-._~/", c)) {
			*o++ = (char)c;
		} else {
			*o++ = '%';
			*o++ = hex[c >> 4];
			*o++ = hex[c & 15];
		}
	}
	*o = '\0';
	return d;
}

/* {"app": "<base>/s/<space>/<path>[#<anchor>]"} under key "urls". */
static int write_urls(struct req *r, struct jw *g, const char *space_id, const char *path, const char *anchor)
{
	const char *p = url_path(&r->arena, path), *h = anchor && *anchor ? url_path(&r->arena, anchor) : NULL;
	const char *url = p && (!anchor || !*anchor || h)
				  ? arena_printf(&r->arena, "%s/s/%s/%s%s%s", api_base(r), space_id, p, h ? "#" : "", h ? h : "")
				  : NULL;

	if (!url)
		return err_set(ERR_INTERNAL, "out of memory");
	jw_key(g, "urls");
	jw_obj_open(g);
	jw_kstr(g, "app", url);
	jw_obj_close(g);
	return 0;
}

/* SearchPageResult. A section before the page's first heading has no anchor:
 * its id is the page's and its path the page's path. */
static int page_to_json(struct req *r, struct jw *g, const struct search_page *p)
{
	int rc;

	jw_obj_open(g);
	jw_kstr(g, "id", p->id);
	jw_kstr(g, "title", p->title);
	jw_kstr(g, "path", p->path);
	jw_key(g, "sections");
	jw_arr_open(g);
	for (int i = 0; i < p->nsections; i++) {
		const struct search_section *s = &p->sections[i];
		const char *path = *s->id ? arena_printf(&r->arena, "%s#%s", p->path, s->id) : p->path;
		if (!path)
			return err_set(ERR_INTERNAL, "out of memory");
		jw_obj_open(g);
		jw_kstr(g, "id", *s->id ? s->id : p->id);
		jw_kstr(g, "title", s->title);
		jw_kstr(g, "path", path);
		jw_kstr(g, "body", s->body);
		if ((rc = write_urls(r, g, p->space_id, p->path, s->id)))
			return rc;
		jw_obj_close(g);
	}
	jw_arr_close(g);
	if ((rc = write_urls(r, g, p->space_id, p->path, NULL)))
		return rc;
	jw_obj_close(g);
	return 0;
}

int search_space(struct req *r)
{
	struct space s;
	struct list_req lr;
	struct cursor cur;
	struct search_page *items;
	const char *query;
	char *next;
	struct jw *g;
	int n, rc;

	if ((rc = dom_space_get(&r->dom, req_param(r, "spaceId"), ROLE_READ, &s)) || (rc = read_query(r, &query)) ||
	    (rc = req_list(r, &lr, &cur, NULL, 0)) ||
	    (rc = store_search_space(&r->tx, s.id, query, &lr, &items, &n, &next)))
		return rc;
	if (!(g = resp_list_begin(r)))
		return err_set(ERR_INTERNAL, "out of memory");
	for (int i = 0; i < n; i++)
		if ((rc = page_to_json(r, g, &items[i])))
			return rc;
	return resp_list_end(r, n, next);
}

/* The ids of the organization's live spaces the caller reads, through the
 * space list's own filter. */
static int readable_spaces(struct req *r, const char ***ids, int *n)
{
	struct dom_list cl;
	struct list_req lr = { .limit = 1000 };
	struct cursor cur;
	struct space *items;
	char *next;
	int got, cap = 0, rc;

	*ids = NULL;
	*n = 0;
	const struct access_ctx *ctx;

	if ((rc = dom_actor_access(&r->dom, r->dom.actor.org_id, &ctx)) ||
	    (rc = dom_list_init(&r->dom, ctx, r->dom.actor.org_id, &cl)))
		return rc;
	do {
		if ((rc = store_spaces_list(&r->tx, SPACES_OF_ORG, r->dom.actor.org_id, NULL, &lr, dom_keep_space, &cl, &items,
					    &got, &next)))
			return rc;
		if (*n + got > cap) {
			const char **bigger;
			cap = 2 * (*n + got);
			if (!(bigger = arena_alloc(&r->arena, (size_t)cap * sizeof(*bigger))))
				return err_set(ERR_INTERNAL, "out of memory");
			if (*n)
				memcpy(bigger, *ids, (size_t)*n * sizeof(*bigger));
			*ids = bigger;
		}
		for (int i = 0; i < got; i++)
			(*ids)[(*n)++] = items[i].id;
		if (next && (rc = cursor_decode(&r->arena, next, &cur)))
			return rc;
		lr.after = &cur;
	} while (next);
	return 0;
}

int search_org(struct req *r)
{
	struct list_req lr;
	struct cursor cur;
	struct search_space *items;
	const char **ids = NULL;
	const char *query;
	char *next;
	struct jw *g;
	int nids = 0, n, rc;

	if ((rc = read_query(r, &query)) || (rc = req_list(r, &lr, &cur, NULL, 0)) ||
	    (rc = dom_enter_org(&r->dom, r->dom.actor.org_id)))
		return rc;
	/* Admins read every space: no list to pass. */
	if (r->dom.actor.org.role != ROLE_ADMIN && (rc = readable_spaces(r, &ids, &nids)))
		return rc;
	if (r->dom.actor.org.role != ROLE_ADMIN && nids == 0)
		n = 0, next = NULL;
	else if ((rc = store_search_org(&r->tx, r->dom.actor.org_id, ids, nids, query, &lr, &items, &n, &next)))
		return rc;
	if (!(g = resp_list_begin(r)))
		return err_set(ERR_INTERNAL, "out of memory");
	for (int i = 0; i < n; i++) {
		jw_obj_open(g);
		jw_kstr(g, "id", items[i].id);
		jw_kstr(g, "title", items[i].title);
		jw_key(g, "pages");
		jw_arr_open(g);
		for (int j = 0; j < items[i].npages; j++)
			if ((rc = page_to_json(r, g, &items[i].pages[j])))
				return rc;
		jw_arr_close(g);
		jw_obj_close(g);
	}
	return resp_list_end(r, n, next);
}
