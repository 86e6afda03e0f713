/*
 * site_redirects.c - a published site's redirects (domain/site_redirects.h
 * draws the order in which the site applies them).
 */
#include "domain/site_redirects.h"

#include "domain/sites.h"
#include "format/gitbook_yaml.h"
#include "model/revision.h"
#include "store/sites.h"
#include "util/err.h"

#include <ctype.h>
#include <string.h>

bool redirect_source_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0, seg = 0;

	if (n < 2 || n > REDIRECT_SOURCE_MAX || s[0] != '/')
		return false;
	for (size_t i = 1; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '/') {
			if (seg == 0)
				return false; /* "//" or a trailing '/' */
			seg = 0;
			continue;
		}
		if (c == '%') {
			if (!isxdigit((unsigned char)s[i + 1]) || !isxdigit((unsigned char)s[i + 2]))
				return false;
			i += 2;
		} else if (!isalnum(c) && c != '-' && c != '.' && c != '_' && c != '~') {
			return false;
		}
		seg++;
	}
	return seg > 0;
}

static const struct site_section *section_by_id(const struct site_structure *st, const char *id)
{
	for (int i = 0; id && i < st->nsections; i++)
		if (strcmp(st->sections[i].id, id) == 0)
			return &st->sections[i];
	return NULL;
}

/* A site space of st by id, and its section (NULL at the root). */
static const struct site_space *site_space_by_id(const struct site_structure *st, const char *id,
						 const struct site_section **sec)
{
	*sec = NULL;
	for (int i = 0; id && i < st->nroot; i++)
		if (strcmp(st->root[i].id, id) == 0)
			return &st->root[i];
	for (int s = 0; id && s < st->nsections; s++)
		for (int i = 0; i < st->sections[s].nspaces; i++)
			if (strcmp(st->sections[s].spaces[i].id, id) == 0) {
				*sec = &st->sections[s];
				return &st->sections[s].spaces[i];
			}
	return NULL;
}

/* The first page a space shows at its root (a document or computed page,
 * in tree order): its URL is the space's root, not its path. */
static const struct rev_page *first_readable(const struct revision *rv)
{
	int stack[32], sp = 0;

	for (int i = rv ? rv->first_root : -1; i >= 0 || sp > 0;) {
		if (i < 0) {
			i = stack[--sp];
			continue;
		}
		const struct rev_page *p = &rv->pages[i];
		if (p->type == PAGE_DOCUMENT || p->type == PAGE_COMPUTED)
			return p;
		if (p->type == PAGE_GROUP && p->first_child >= 0 && sp < 32) {
			stack[sp++] = p->next_sibling;
			i = p->first_child;
			continue;
		}
		i = p->next_sibling;
	}
	return NULL;
}

/* Check dest against site s's structure (loaded into *t) and fill t's
 * section, site space and page path. */
static int dest_resolve(struct dom *d, const struct site *s, const struct redirect_dest *dest,
			struct redirect_target *t)
{
	int rc;

	if ((rc = dom_site_structure(d, s, &t->st)))
		return rc;
	t->sec = NULL;
	t->ss = NULL;
	t->page_path = NULL;
	if (strcmp(dest->kind, "site-section") == 0) {
		if (!dest->section_id)
			return err_set(ERR_INVALID, "destination.siteSectionId: is required");
		if (!(t->sec = section_by_id(&t->st, dest->section_id)))
			return err_set(ERR_INVALID, "destination.siteSectionId: '%s' is not a section of this site",
				       dest->section_id);
		return 0;
	}
	if (!dest->site_space_id)
		return err_set(ERR_INVALID, "destination.siteSpaceId: is required");
	if (!(t->ss = site_space_by_id(&t->st, dest->site_space_id, &t->sec)))
		return err_set(ERR_INVALID, "destination.siteSpaceId: '%s' is not a site space of this site",
			       dest->site_space_id);
	if (strcmp(dest->kind, "site-page") == 0) {
		const struct revision *rv;
		const struct rev_page *p;
		if (!dest->page_id)
			return err_set(ERR_INVALID, "destination.pageId: is required");
		if ((rc = dom_site_visit_revision(d, t->ss, &rv)))
			return rc;
		if (!rv || !(p = revision_page(rv, dest->page_id)))
			return err_set(ERR_INVALID, "destination.pageId: '%s' is not a page of that site space",
				       dest->page_id);
		t->page_path = p == first_readable(rv) ? NULL : p->path;
	}
	return 0;
}

static int source_check(const char *source)
{
	if (!redirect_source_ok(source))
		return err_set(ERR_INVALID, "source: must be a path like /old/page (segments of letters, digits, "
					    "-._~ or %%XX; at most %d bytes)",
			       REDIRECT_SOURCE_MAX);
	return 0;
}

static void dest_copy(struct site_redirect *r, const struct redirect_dest *dest)
{
	r->kind = dest->kind;
	r->section_id = strcmp(dest->kind, "site-section") == 0 ? dest->section_id : NULL;
	r->site_space_id = strcmp(dest->kind, "site-section") == 0 ? NULL : dest->site_space_id;
	r->page_id = strcmp(dest->kind, "site-page") == 0 ? dest->page_id : NULL;
}

/* A source the site already redirects from (another redirect): 409. */
static int source_free(struct dom *d, const char *site_id, const char *source, const char *self)
{
	struct site_redirect x;
	int rc = store_site_redirect_by_source(d->tx, site_id, source, &x);

	if (rc == ERR_NOT_FOUND)
		return err_clear(), 0;
	if (rc)
		return rc;
	if (self && strcmp(x.id, self) == 0)
		return 0;
	return err_set(ERR_CONFLICT, "source: the site already redirects '%s'", source);
}

int dom_site_redirects_list(struct dom *d, const char *org_id, const char *site_id, const char *search,
			    const struct list_req *lr, struct site_redirect **items, int *n, char **next)
{
	struct site s;
	int rc = dom_site_get(d, org_id, site_id, ROLE_READ, false, &s);

	return rc ? rc : store_site_redirects_list(d->tx, s.id, search, lr, items, n, next);
}

int dom_site_redirect_create(struct dom *d, const char *org_id, const char *site_id, const char *source,
			     const struct redirect_dest *dest, struct site_redirect *out)
{
	struct redirect_target t;
	int rc;

	if ((rc = dom_site_get(d, org_id, site_id, ROLE_ADMIN, true, &t.site)) || (rc = source_check(source)) ||
	    (rc = dest_resolve(d, &t.site, dest, &t)) || (rc = source_free(d, t.site.id, source, NULL)))
		return rc;
	memset(out, 0, sizeof(*out));
	out->site_id = t.site.id;
	out->source = source;
	dest_copy(out, dest);
	if ((rc = store_site_redirect_create(d->tx, out)) || (rc = store_site_bump(d->tx, t.site.id)))
		return rc;
	return store_site_redirect_get(d->tx, t.site.id, out->id, out);
}

int dom_site_redirect_update(struct dom *d, const char *org_id, const char *site_id, const char *id,
			     const char *source, const struct redirect_dest *dest, struct site_redirect *out)
{
	struct redirect_target t;
	int rc;

	if ((rc = dom_site_get(d, org_id, site_id, ROLE_ADMIN, true, &t.site)) ||
	    (rc = store_site_redirect_get(d->tx, t.site.id, id, out)))
		return rc;
	if (source) {
		if ((rc = source_check(source)) || (rc = source_free(d, t.site.id, source, out->id)))
			return rc;
		out->source = source;
	}
	if (dest && dest->kind) {
		if ((rc = dest_resolve(d, &t.site, dest, &t)))
			return rc;
		dest_copy(out, dest);
	}
	if ((rc = store_site_redirect_update(d->tx, out)) || (rc = store_site_bump(d->tx, t.site.id)))
		return rc;
	return store_site_redirect_get(d->tx, t.site.id, out->id, out);
}

int dom_site_redirect_delete(struct dom *d, const char *org_id, const char *site_id, const char *id,
			     bool *deleted)
{
	struct site s;
	int rc;

	*deleted = false;
	if ((rc = dom_site_get(d, org_id, site_id, ROLE_ADMIN, true, &s)) ||
	    (rc = store_site_redirect_delete(d->tx, s.id, id, deleted)))
		return rc;
	return *deleted ? store_site_bump(d->tx, s.id) : 0;
}

int dom_site_redirect_by_source(struct dom *d, const char *org_id, const char *site_id, const char *share_key,
				const char *source, struct site_redirect *out, struct redirect_target *t)
{
	struct redirect_dest dest;
	int rc;

	if ((rc = dom_site_get(d, org_id, site_id, ROLE_READ, false, &t->site)) || (rc = source_check(source)))
		return rc;
	t->share_key = NULL;
	if (share_key && *share_key) {
		if ((rc = dom_site_visit_share(d, &t->site, share_key)))
			return rc;
		t->share_key = share_key;
	}
	if ((rc = store_site_redirect_by_source(d->tx, t->site.id, source, out)))
		return rc;
	dest = (struct redirect_dest){ out->kind, out->section_id, out->site_space_id, out->page_id };
	rc = dest_resolve(d, &t->site, &dest, t);
	/* A destination deleted since (a section, a site space, a page) leads
	 * nowhere: the redirect is as good as absent. */
	return rc == ERR_INVALID ? err_set(ERR_NOT_FOUND, "the redirect from '%s' leads to nothing any more", source)
				 : rc;
}

int dom_site_visit_redirect(struct dom *d, const struct site *s, const char *source, struct site_redirect *out)
{
	return store_site_redirect_by_source(d->tx, s->id, source, out);
}

int dom_site_visit_old_path(struct dom *d, const char *space_id, const char *path, const char **page_id)
{
	return store_space_page_path_get(d->tx, space_id, path, page_id);
}

int dom_site_visit_git_redirect(struct dom *d, const char *revision_id, const char *path, const char **target)
{
	return store_revision_redirect_get(d->tx, revision_id, path, target);
}

int dom_site_visit_translations(struct dom *d, const struct site *s, struct site_translation **out, int *n)
{
	return store_site_translations(d->tx, s->id, out, n);
}

int dom_redirects_on_space_advanced(struct dom *d, const struct space_advanced *ev)
{
	const struct revision *old = NULL, *cur = ev->revision;
	int rc;

	if (!ev->old_revision || !*ev->old_revision || !cur)
		return 0;
	/* .gitbook.yaml's redirects stay with the content until the next Git
	 * import replaces them (an import stored its own before advancing). */
	if (ev->cause != SPACE_ADVANCED_BY_IMPORT && strcmp(ev->old_revision, cur->id) != 0 &&
	    (rc = store_revision_redirects_copy(d->tx, ev->old_revision, cur->id)))
		return rc;
	rc = store_revision_get(d->tx, ev->old_revision, &old);
	if (rc == ERR_NOT_FOUND)
		return err_clear(), 0;
	if (rc)
		return rc;
	for (int i = 0; i < old->npages; i++) {
		const struct rev_page *was = &old->pages[i], *now = revision_page(cur, was->id);
		if (!now || !was->path || !now->path || strcmp(was->path, now->path) == 0)
			continue;
		if ((rc = store_space_page_path_put(d->tx, ev->space->id, was->path, was->id)))
			return rc;
	}
	return 0;
}

int dom_git_redirects_record(struct dom *d, const char *rev_id, const char *root, const struct gitbook_redirect *r,
			     size_t n)
{
	int rc;

	for (size_t i = 0; i < n; i++) {
		const char *to = root && *root ? arena_printf(d->arena, "%s/%s", root, r[i].to) : r[i].to;
		if ((rc = store_revision_redirect_put(d->tx, rev_id, r[i].from, to)))
			return rc;
	}
	return 0;
}
