/*
 * links.c - links between pages and files of a revision: resolving a link
 * as written in a page, a page's links, a revision's links with counts, and
 * backlinks. Links are taken from a body when it is first stored
 * (store_body_links); their status is decided against the revision read.
 */
#include "domain/content.h"
#include "util/err.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void link_resolve(const char *base, const struct revision *rv, const struct rev_page *from, const char *t,
		  struct link_target *out)
{
	char buf[1024];

	memset(out, 0, sizeof(*out));
	out->url = t;
	if (t[0] == '#') {
		out->kind = LINK_ANCHOR;
		out->status = "ok";
		return;
	}
	if (strncmp(t, "/pages/", 7) == 0) {
		size_t n = strcspn(t + 7, "#?");
		snprintf(buf, sizeof(buf), "%.*s", (int)n, t + 7);
		out->kind = LINK_PAGE;
		out->page = revision_page(rv, buf);
		if (!out->page)
			out->page = revision_page_by_path(rv, buf);
		out->status = out->page ? "ok" : "broken";
		return;
	}
	if (strncmp(t, "/files/", 7) == 0) {
		size_t n = strcspn(t + 7, "#?/");
		snprintf(buf, sizeof(buf), "%.*s", (int)n, t + 7);
		out->kind = LINK_FILE;
		out->file = revision_file(rv, buf);
		out->status = out->file ? "ok" : "broken";
		return;
	}
	if (strstr(t, "://") || strncmp(t, "mailto:", 7) == 0) {
		out->kind = LINK_URL;
		out->status = *base && strncmp(t, base, strlen(base)) == 0 ? "in-app" : "ok";
		return;
	}
	/* Relative: against the page's parent path; .md and README.md are Git's
	 * spelling of a page. */
	const char *dir = "";
	char path[1024] = "", *segs[64];
	int ns = 0;
	size_t len = 0;

	if (from && from->parent_idx >= 0)
		dir = rv->pages[from->parent_idx].path;
	snprintf(buf, sizeof(buf), "%s/%.*s", dir, (int)strcspn(t, "#?"), t);
	/* Normalize . and .. segments. */
	for (char *save = NULL, *s = strtok_r(buf, "/", &save); s && ns < 64; s = strtok_r(NULL, "/", &save)) {
		if (strcmp(s, ".") == 0)
			continue;
		if (strcmp(s, "..") == 0) {
			if (ns > 0)
				ns--;
			continue;
		}
		segs[ns++] = s;
	}
	if (ns > 0 && strcmp(segs[ns - 1], "README.md") == 0)
		ns--;
	for (int i = 0; i < ns && len < sizeof(path) - 1; i++)
		len += (size_t)snprintf(path + len, sizeof(path) - len, "%s%s", i ? "/" : "", segs[i]);
	if (len > 3 && strcmp(path + len - 3, ".md") == 0)
		path[len - 3] = '\0';
	out->kind = LINK_PAGE;
	out->page = revision_page_by_path(rv, path);
	out->status = out->page ? "ok" : "broken";
}

/* Append one link to l->items, growing it in the arena. */
static int push(struct dom *d, struct link_list *l, int *cap, const struct rev_page *from, const struct link_target *t)
{
	if (l->n == *cap) {
		int ncap = *cap ? 2 * *cap : 64;
		struct link_item *ni = arena_alloc(d->arena, sizeof(*ni) * (size_t)ncap);
		if (l->n)
			memcpy(ni, l->items, sizeof(*ni) * (size_t)l->n);
		l->items = ni;
		*cap = ncap;
	}
	l->items[l->n].from = from;
	l->items[l->n++].t = *t;
	return 0;
}

/* Links of one page into l (status filter applied; counts of all). */
static int page_links(struct dom *d, struct link_list *l, int *cap, const struct rev_page *p, const char *status)
{
	struct body_link *links;
	int n, rc;

	if (!p->body)
		return 0;
	if ((rc = store_body_links(d->tx, p->body, &links, &n)))
		return rc;
	for (int k = 0; k < n; k++) {
		struct link_target t;
		link_resolve(dom_base_url(d), l->src.rv, p, links[k].target, &t);
		if (t.kind == LINK_ANCHOR)
			continue;
		l->total++;
		l->broken += strcmp(t.status, "broken") == 0;
		if (status && strcmp(t.status, status) != 0)
			continue;
		/* A file target's download URL is signed here: serializers take it as data. */
		if (t.file && (rc = dom_file_url(d, l->src.space.id, l->src.rv->id, t.file->id, &t.file_url)))
			return rc;
		if ((rc = push(d, l, cap, p, &t)))
			return rc;
	}
	return 0;
}

/* The page of an n-item list lr asks for: *start, *shown (see content.h). */
static int slice(const struct list_req *lr, int n, int *start, int *shown)
{
	const char *s;
	uint64_t v = 0, max = (uint64_t)n;

	*start = *shown = 0;
	if (lr->after) {
		/* Decimal digits only, bounded by n: a forged cursor cannot overflow. */
		if (!(s = lr->after->id) || !*s)
			return err_set(ERR_INVALID, "page: not a cursor of this list");
		for (; *s; s++) {
			unsigned dg = (unsigned char)*s - '0';
			if (dg > 9 || v > (max - dg) / 10)
				return err_set(ERR_INVALID, "page: not a cursor of this list");
			v = v * 10 + dg;
		}
		*start = (int)v;
	}
	/* A start past the end (one digit above a short list) shows nothing. */
	if (*start < n)
		*shown = n - *start < lr->limit ? n - *start : lr->limit;
	return 0;
}

/* The shown items' pages: where each link is written and the page it points at. */
static int link_bodies(struct dom *d, struct link_list *l)
{
	const struct revision *rv = l->src.rv;
	int rc;

	if ((rc = dom_page_bodies_new(d, rv, &l->bodies)))
		return rc;
	for (int i = l->start; i < l->start + l->shown; i++)
		if ((l->items[i].t.page && (rc = dom_page_bodies_one(d, rv, l->items[i].t.page, l->bodies))) ||
		    (rc = dom_page_bodies_one(d, rv, l->items[i].from, l->bodies)))
			return rc;
	return 0;
}

static int links_all(struct dom *d, const char *page_id, const char *status, struct link_list *out)
{
	int cap = 0, rc;

	if (page_id) {
		const struct rev_page *p = revision_page(out->src.rv, page_id);
		if (!p)
			return err_set(ERR_NOT_FOUND, "page not found");
		return page_links(d, out, &cap, p, status);
	}
	for (int i = 0; i < out->src.rv->npages; i++)
		if ((rc = page_links(d, out, &cap, &out->src.rv->pages[i], status)))
			return rc;
	return 0;
}

int dom_links(struct dom *d, const char *space_id, const char *cr_key, const char *revision_id, const char *page_id,
	      const char *status, const struct list_req *lr, struct link_list *out)
{
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = dom_content_source(d, space_id, cr_key, revision_id, ROLE_READ, &out->src)) ||
	    (rc = store_org_get(d->tx, out->src.space.org_id, &out->org)) ||
	    (rc = links_all(d, page_id, status, out)) || (rc = slice(lr, out->n, &out->start, &out->shown)))
		return rc;
	return link_bodies(d, out);
}

int dom_backlinks(struct dom *d, const char *space_id, const char *cr_key, const char *revision_id, int file,
		  const char *id, const struct list_req *lr, struct backlink_list *out)
{
	const struct revision *rv;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = dom_content_source(d, space_id, cr_key, revision_id, ROLE_READ, &out->src)) ||
	    (rc = store_org_get(d->tx, out->src.space.org_id, &out->org)))
		return rc;
	rv = out->src.rv;
	if (file ? !revision_file(rv, id) : !revision_page(rv, id))
		return err_set(ERR_NOT_FOUND, file ? "file not found" : "page not found");
	out->pages = arena_alloc(d->arena, sizeof(*out->pages) * (size_t)(rv->npages + 1));
	/* Candidates: every body's links; a page counts once when one of its
	 * links resolves to the target in this revision. */
	for (int i = 0; i < rv->npages; i++) {
		const struct rev_page *p = &rv->pages[i];
		struct body_link *links;
		int n;
		if (!p->body)
			continue;
		if ((rc = store_body_links(d->tx, p->body, &links, &n)))
			return rc;
		for (int k = 0; k < n; k++) {
			struct link_target t;
			if (file && !strstr(links[k].target, id))
				continue;
			link_resolve(dom_base_url(d), rv, p, links[k].target, &t);
			if ((file && t.file && strcmp(t.file->id, id) == 0) ||
			    (!file && t.page && strcmp(t.page->id, id) == 0)) {
				out->pages[out->n++] = p;
				break;
			}
		}
	}
	if ((rc = slice(lr, out->n, &out->start, &out->shown)) || (rc = dom_page_bodies_new(d, rv, &out->bodies)))
		return rc;
	for (int i = out->start; i < out->start + out->shown; i++)
		if ((rc = dom_page_bodies_one(d, rv, out->pages[i], out->bodies)))
			return rc;
	return 0;
}
