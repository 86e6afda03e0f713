/*
 * site_visit.c - what a visitor of a published site reads (domain/sites.h,
 * "visits"). The renderer runs as docsd itself; these functions are where
 * "published" and "not deleted" are decided, once.
 */
#include "domain/comments.h"
#include "domain/sites.h"

#include "domain/content.h"
#include "format/markdown.h"
#include "model/adaptive.h"
#include "model/condition.h"
#include "model/revision.h"
#include "store/search.h"
#include "store/store.h"
#include "store/sites.h"
#include "util/err.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

int dom_site_visit(struct dom *d, const char *name, const char *hostname, struct site *out)
{
	int rc = name ? store_site_by_name(d->tx, name, out) : store_site_by_hostname(d->tx, hostname, out);

	if (rc)
		return rc;
	if (!out->published)
		return err_set(ERR_NOT_FOUND, "site not found");
	out->access = ROLE_READ;
	return 0;
}

int dom_site_visit_share(struct dom *d, const struct site *s, const char *key)
{
	struct site_share_link l;

	if (!key || !*key)
		return err_set(ERR_NOT_FOUND, "share link not found");
	return store_site_share_link_by_key(d->tx, s->id, key, &l);
}

int dom_site_visit_revision(struct dom *d, const struct site_space *ss, const struct revision **out)
{
	int rc;

	*out = NULL;
	if (ss->space.deleted_at || !ss->space.revision || !*ss->space.revision)
		return 0;
	rc = store_revision_get(d->tx, ss->space.revision, out);
	if (rc == ERR_NOT_FOUND) {
		*out = NULL;
		return 0;
	}
	return rc;
}

/* Whether page i of rv is hidden from visitor: its own condition (front
 * matter "if:") or an ancestor's is false (one that does not parse is). */
static bool page_hidden(const struct revision *rv, int i, const json_t *visitor)
{
	for (int k = 0; i >= 0 && k <= rv->npages; k++, i = rv->pages[i].parent_idx)
		if (rv->pages[i].cond && !cond_visible(rv->pages[i].cond, visitor))
			return true;
	return false;
}

int dom_site_visit_visible(struct dom *d, const struct revision *rv, const json_t *visitor,
			   const struct revision **out)
{
	struct revision_new nr = { 0 };
	struct rev_page *keep;
	struct revision *v;
	int n = 0, rc;

	*out = rv;
	if (!rv || !rv->nconds) /* counted when the revision was built */
		return 0;
	keep = arena_alloc(d->arena, sizeof(*keep) * (size_t)rv->npages);
	for (int i = 0; i < rv->npages; i++)
		if (!page_hidden(rv, i, visitor))
			keep[n++] = rv->pages[i];
	if (n == rv->npages)
		return 0;
	/* The same revision (id, files) without the hidden pages: every reader
	 * of the view (navigation, page URLs, search hits, sitemap, llms files,
	 * previous/next) then simply does not find them. */
	nr.space_id = rv->space_id;
	nr.parent_id = rv->parent_id;
	nr.parents = rv->parents;
	nr.type = rv->type;
	nr.merged_from = rv->merged_from;
	nr.created_by = rv->created_by;
	nr.git = rv->git;
	nr.pages = keep;
	nr.npages = n;
	nr.files = rv->files;
	nr.nfiles = rv->nfiles;
	v = revision_build(rv->id, &nr, rv->created_at);
	if ((rc = store_tx_hold_revision(d->tx, v)))
		return rc;
	*out = v;
	return 0;
}

int dom_site_visit_fallback(struct dom *d, const struct site *s, const char **url)
{
	struct site_publishing_auth a;
	int rc = store_site_publishing_auth(d->tx, s->id, &a);

	*url = NULL;
	if (rc)
		return rc;
	if (a.fallback_url && (strncmp(a.fallback_url, "https://", 8) == 0 || strncmp(a.fallback_url, "http://", 7) == 0))
		*url = a.fallback_url;
	return 0;
}

/* Whether every word of q (runs of letters, digits and non-ASCII bytes,
 * compared without ASCII case) is in text: the search index holds a page's
 * whole text, hidden blocks included, so a hit on a page with adaptive
 * content is kept only when what this visitor reads still matches. */
static bool words_in(const char *q, const char *text)
{
	for (const char *w = q; *w;) {
		size_t n = 0;
		while (*w && !(isalnum((unsigned char)*w) || (unsigned char)*w >= 0x80))
			w++;
		while (w[n] && (isalnum((unsigned char)w[n]) || (unsigned char)w[n] >= 0x80))
			n++;
		if (!n)
			break;
		bool found = false;
		for (const char *t = text; *t && !found; t++)
			found = strncasecmp(t, w, n) == 0;
		if (!found)
			return false;
		w += n;
	}
	return true;
}

/* Re-reads hit h of a page with adaptive content as visitor reads it:
 * false when the page no longer matches q; else its sections' bodies are
 * the adapted text's (the excerpt never shows a hidden block). */
static int adapt_hit(struct dom *d, const struct rev_page *p, const json_t *visitor, const char *q,
		     struct search_page *h, bool *keep)
{
	const char *body = "", *text, *plain;
	size_t tl, ns;
	struct md_section *secs;
	struct adapt_ctx ac = { .visitor = visitor };
	int rc;

	*keep = true;
	if (!p->body)
		return 0;
	if ((rc = dom_page_body(d, p->body, &body)))
		return rc;
	if (!adapt_present(body, strlen(body)))
		return 0;
	json_t *vars = p->vars ? json_loads(p->vars, 0, NULL) : NULL;
	ac.page_vars = vars;
	text = adapt_markdown(d->arena, body, strlen(body), &ac, &tl);
	json_decref(vars);
	plain = md_plain_text(d->arena, text, tl);
	if (!plain || md_sections(d->arena, text, tl, &secs, &ns))
		return err_set(ERR_INTERNAL, "cannot read a page for search");
	if (!words_in(q, arena_printf(d->arena, "%s\n%s", p->title ? p->title : "", plain))) {
		*keep = false;
		return 0;
	}
	/* Sections are kept only when the visitor's text has them (a heading
	 * inside a hidden block is no section of theirs: its title would say
	 * what the block hides), with the visitor's title and body. */
	int kept = 0;
	for (int i = 0; i < h->nsections; i++) {
		struct search_section *ss = &h->sections[i];
		for (size_t k = 0; k < ns; k++)
			if (strcmp(secs[k].id, ss->id ? ss->id : "") == 0) {
				h->sections[kept].id = ss->id;
				h->sections[kept].title = secs[k].title;
				h->sections[kept].body = secs[k].body;
				kept++;
				break;
			}
	}
	h->nsections = kept;
	return 0;
}

int dom_site_visit_search(struct dom *d, const struct site_space *ss, const struct revision *rv,
			  const json_t *visitor, const char *query, int limit, struct search_page **items, int *n)
{
	struct list_req lr = { .limit = limit };
	char *next = NULL;
	int rc, k = 0;

	*items = NULL;
	*n = 0;
	if (ss->space.deleted_at)
		return 0;
	if ((rc = dom_search_space(d, ss->space_id, query, &lr, items, n, &next)))
		return rc;
	for (int i = 0; i < *n; i++) {
		const struct rev_page *p = rv ? revision_page(rv, (*items)[i].id) : NULL;
		bool keep = p != NULL;
		if (p && (rc = adapt_hit(d, p, visitor, query, &(*items)[i], &keep)))
			return rc;
		if (keep)
			(*items)[k++] = (*items)[i];
	}
	*n = k;
	return 0;
}
