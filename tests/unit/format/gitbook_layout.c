/* Unit tests: format/gitbook_layout (Git sync's GitBook layout: import and export). */
#include "format/gitbook_layout.h"
#include "format/markdown.h"
#include "util/arena.h"
#include "util/err.h"
#include "util/util.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ a repository */

#define REPO_MAX 128

struct repo {
	struct git_file f[REPO_MAX];
	char oid[REPO_MAX][41];
	char path[REPO_MAX][256];
	unsigned char *data[REPO_MAX];
	int n;
	int ids; /* new ids handed out */
};

/* Git's blob id is a hash of the bytes; a truncated SHA-256 serves the tests. */
static void repo_put(struct repo *r, const char *path, const void *data, size_t len)
{
	char h[65];
	int i;

	for (i = 0; i < r->n; i++)
		if (strcmp(r->path[i], path) == 0)
			break;
	if (i == r->n) {
		if (r->n >= REPO_MAX)
			return;
		r->n++;
	} else {
		free(r->data[i]);
	}
	snprintf(r->path[i], sizeof(r->path[i]), "%s", path);
	r->data[i] = malloc(len + 1);
	memcpy(r->data[i], data, len);
	r->data[i][len] = '\0';
	sha256_hex(h, data, len);
	memcpy(r->oid[i], h, 40);
	r->oid[i][40] = '\0';
	r->f[i] = (struct git_file){ r->path[i], r->oid[i], r->data[i], len };
}

static void repo_add(struct repo *r, const char *path, const char *text)
{
	repo_put(r, path, text, strlen(text));
}

__attribute__((unused)) static void repo_del(struct repo *r, const char *path)
{
	for (int i = 0; i < r->n; i++)
		if (strcmp(r->path[i], path) == 0) {
			free(r->data[i]);
			for (int k = i; k + 1 < r->n; k++) {
				memcpy(r->path[k], r->path[k + 1], sizeof(r->path[k]));
				memcpy(r->oid[k], r->oid[k + 1], sizeof(r->oid[k]));
				r->data[k] = r->data[k + 1];
				r->f[k] = (struct git_file){ r->path[k], r->oid[k], r->data[k], r->f[k + 1].len };
			}
			r->n--;
			return;
		}
}

static void repo_free(struct repo *r)
{
	for (int i = 0; i < r->n; i++)
		free(r->data[i]);
	r->n = 0;
}

__attribute__((unused)) static const char *repo_text(const struct repo *r, const char *path)
{
	for (int i = 0; i < r->n; i++)
		if (strcmp(r->path[i], path) == 0)
			return (const char *)r->data[i];
	return NULL;
}

static const char *next_id(void *ctx)
{
	static char buf[ID_LEN + 1];
	struct repo *r = ctx;

	snprintf(buf, sizeof(buf), "id%018d", ++r->ids);
	return buf;
}

static int do_import(struct arena *a, struct repo *r, const struct revision *prev, struct layout_import_out *out)
{
	struct layout_import_in in = { 0 };

	in.files = r->f;
	in.nfiles = (size_t)r->n;
	in.previous = prev;
	in.new_id = next_id;
	in.ctx = r;
	in.now = 1700000000000;
	return layout_import(a, &in, out);
}

static const struct rev_page *page_at(const struct layout_import_out *o, const char *git_path)
{
	for (int i = 0; i < o->npages; i++)
		if (o->pages[i].git_path && strcmp(o->pages[i].git_path, git_path) == 0)
			return &o->pages[i];
	return NULL;
}

static const struct rev_page *page_titled(const struct layout_import_out *o, const char *title)
{
	for (int i = 0; i < o->npages; i++)
		if (o->pages[i].title && strcmp(o->pages[i].title, title) == 0)
			return &o->pages[i];
	return NULL;
}

static const char *body_of(const struct layout_import_out *o, const struct rev_page *p)
{
	for (int i = 0; i < o->nbodies; i++)
		if (&o->pages[o->bodies[i].page] == p)
			return o->bodies[i].markdown;
	return NULL;
}

static const struct rev_file *file_at(const struct layout_import_out *o, const char *git_path)
{
	for (int i = 0; i < o->nfiles; i++)
		if (o->files[i].git_path && strcmp(o->files[i].git_path, git_path) == 0)
			return &o->files[i];
	return NULL;
}

/* The index of p among its siblings (by pos), -1 if absent. */
static int sibling_index(const struct layout_import_out *o, const struct rev_page *p)
{
	int k = 0;

	for (int i = 0; i < o->npages; i++) {
		const struct rev_page *q = &o->pages[i];
		bool same = (!q->parent && !p->parent) || (q->parent && p->parent && strcmp(q->parent, p->parent) == 0);
		if (same && q->pos < p->pos)
			k++;
	}
	return k;
}

static bool same_str_or_null(const char *x, const char *y)
{
	return x && y ? strcmp(x, y) == 0 : x == y;
}

/* A 1x1 PNG. */
static const unsigned char png1[] = {
	0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
	0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x00, 0x01, 0x00, 0x00,
	0x05, 0x00, 0x01, 0x0d, 0x0a, 0x2d, 0xb4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae,
	0x42, 0x60, 0x82,
};

/* The repository most tests start from. */
static void gitbook_repo(struct repo *r)
{
	repo_add(r, "README.md", "# Welcome\n\nStart with [the guide](guide/README.md) or [setup](guide/setup.md#install).\n");
	repo_add(r, "SUMMARY.md",
		 "# Table of contents\n"
		 "\n"
		 "* [Welcome](README.md)\n"
		 "* [FAQ](faq.md \"Questions\")\n"
		 "\n"
		 "## Guides\n"
		 "\n"
		 "* [The guide](guide/README.md)\n"
		 "  * [Setup](guide/setup.md)\n"
		 "  * [GitHub](https://github.com)\n"
		 "* [Advanced](advanced.md)\n");
	repo_add(r, "faq.md", "Questions and answers.\n\n![logo](.gitbook/assets/logo.png)\n");
	repo_add(r, "guide/README.md", "# The guide\n\nSee [setup](setup.md) and [home](../README.md).\n");
	repo_add(r, "guide/setup.md",
		 "---\n"
		 "description: How to install it\n"
		 "icon: gear\n"
		 "hidden: true\n"
		 "layout:\n"
		 "  width: wide\n"
		 "  outline:\n"
		 "    visible: false\n"
		 "---\n"
		 "\n"
		 "# Setup\n"
		 "\n"
		 "## Install\n"
		 "\n"
		 "![logo](../.gitbook/assets/logo.png) ![copy](<../.gitbook/assets/logo (1).png>)\n"
		 "Back to [the guide](./README.md#top).\n");
	repo_add(r, "advanced.md", "---\ntitle: Advanced topics\n---\n# Advanced\n\nMore.\n");
	repo_add(r, "extra/notes.md", "# Notes\n\nNot in the summary.\n");
	repo_put(r, ".gitbook/assets/logo.png", png1, sizeof(png1));
	repo_put(r, ".gitbook/assets/logo (1).png", png1, sizeof(png1));
	repo_add(r, ".github/ISSUE_TEMPLATE.md", "not a page\n");
}

UNIT_TEST(gitbook_layout_import_tree)
{
	struct arena a;
	struct repo r = { 0 };
	struct layout_import_out o;
	const struct rev_page *readme, *faq, *group, *guide, *setup, *adv, *notes, *link = NULL;
	const struct rev_file *logo;
	char want[256];

	arena_init(&a);
	gitbook_repo(&r);
	CHECK(do_import(&a, &r, NULL, &o) == 0);
	readme = page_at(&o, "README.md");
	faq = page_at(&o, "faq.md");
	guide = page_at(&o, "guide/README.md");
	setup = page_at(&o, "guide/setup.md");
	adv = page_at(&o, "advanced.md");
	notes = page_at(&o, "extra/notes.md");
	group = page_titled(&o, "Guides");
	for (int i = 0; i < o.npages; i++)
		if (o.pages[i].type == PAGE_LINK)
			link = &o.pages[i];
	CHECK(o.npages == 8);
	CHECK(readme && faq && guide && setup && adv && notes && group && link);
	if (!readme || !faq || !guide || !setup || !adv || !notes || !group || !link)
		goto out;
	/* Tree and order. */
	CHECK(!readme->parent && sibling_index(&o, readme) == 0);
	CHECK(!faq->parent && sibling_index(&o, faq) == 1);
	CHECK(group->type == PAGE_GROUP && !group->parent && sibling_index(&o, group) == 3);
	CHECK_STR(guide->parent, group->id);
	CHECK_STR(setup->parent, guide->id);
	CHECK_STR(link->parent, guide->id);
	CHECK_STR(link->href, "https://github.com");
	CHECK_STR(adv->parent, group->id);
	/* Unlisted: after the listed ones, and top-level pages before groups. */
	CHECK(!notes->parent && sibling_index(&o, notes) == 2);
	CHECK(o.nunlisted == 1 && o.nunlisted == 1 && strcmp(o.unlisted[0], "extra/notes.md") == 0);
	/* Titles: front matter, else heading, else SUMMARY.md's link text. */
	CHECK_STR(readme->title, "Welcome");
	CHECK_STR(faq->title, "FAQ");
	CHECK_STR(adv->title, "Advanced topics");
	CHECK_STR(setup->title, "Setup");
	CHECK_STR(link->title, "GitHub");
	/* Slugs from file names; a folder's README takes the folder's name. */
	CHECK_STR(faq->slug, "faq");
	CHECK_STR(guide->slug, "guide");
	CHECK_STR(setup->slug, "setup");
	CHECK_STR(group->slug, "guides");
	/* Front matter. */
	CHECK_STR(setup->description, "How to install it");
	CHECK_STR(setup->icon, "gear");
	CHECK(setup->hidden);
	CHECK_STR(setup->layout, "{\"width\":\"wide\",\"cover\":false,\"coverSize\":\"hero\",\"title\":true,"
				 "\"description\":true,\"tableOfContents\":true,\"outline\":false,\"pagination\":true,"
				 "\"metadata\":true}");
	CHECK(!readme->layout && !readme->description && !readme->hidden);
	/* Git blobs. */
	CHECK_STR(setup->git_oid, r.oid[4]);
	CHECK(setup->git_hash && strlen(setup->git_hash) == 64);
	CHECK(!group->git_path && !link->git_path);
	/* Files: the two identical logos are one file, named after the first path. */
	CHECK(o.nfiles == 1 && o.nblobs == 1);
	logo = file_at(&o, ".gitbook/assets/logo.png");
	CHECK(logo && strcmp(logo->name, "logo.png") == 0);
	if (logo) {
		CHECK_STR(logo->content_type, "image/png");
		CHECK(logo->width == 1 && logo->height == 1 && logo->size == (int64_t)sizeof(png1));
	}
	/* Bodies: front matter removed, links to pages and files rewritten. */
	snprintf(want, sizeof(want),
		 "# Welcome\n\nStart with [the guide](/pages/%s) or [setup](/pages/%s#install).\n", guide->id, setup->id);
	CHECK_STR(body_of(&o, readme), want);
	snprintf(want, sizeof(want), "# The guide\n\nSee [setup](/pages/%s) and [home](/pages/%s).\n", setup->id,
		 readme->id);
	CHECK_STR(body_of(&o, guide), want);
	if (logo) {
		snprintf(want, sizeof(want),
			 "\n# Setup\n\n## Install\n\n![logo](/files/%s) ![copy](</files/%s>)\nBack to [the guide](/pages/%s#top).\n",
			 logo->id, logo->id, guide->id);
		CHECK_STR(body_of(&o, setup), want);
	}
	CHECK_STR(body_of(&o, adv), "# Advanced\n\nMore.\n");
	CHECK(o.summary_oid && strcmp(o.summary_oid, r.oid[1]) == 0);
	CHECK(o.summary_hash && strlen(o.summary_hash) == 64);
out:
	repo_free(&r);
	arena_free(&a);
}

/* ------------------------------------------------------ playing the caller */

/* The caller's store: bodies and blobs by SHA-256, and the revision built from
 * an import (what domain/git_sync.c does). */
struct store {
	struct arena a;
	const char *hash[256];
	const char *md[256];
	const unsigned char *data[256];
	size_t len[256];
	int n;
};

static const char *store_put(struct store *s, const void *data, size_t len, bool text)
{
	char h[65];

	sha256_hex(h, data, len);
	for (int i = 0; i < s->n; i++)
		if (strcmp(s->hash[i], h) == 0)
			return s->hash[i];
	if (s->n >= 256)
		return NULL;
	s->hash[s->n] = arena_strdup(&s->a, h);
	unsigned char *copy = arena_alloc(&s->a, len + 1);
	memcpy(copy, data, len);
	copy[len] = '\0';
	s->md[s->n] = text ? (const char *)copy : NULL;
	s->data[s->n] = copy;
	s->len[s->n] = len;
	return s->hash[s->n++];
}

static int store_body(void *ctx, const char *hash, const char **md)
{
	struct store *s = ctx;

	for (int i = 0; i < s->n; i++)
		if (strcmp(s->hash[i], hash) == 0) {
			*md = (const char *)s->data[i];
			return 0;
		}
	return err_set(ERR_NOT_FOUND, "no body %s", hash);
}

static int store_blob(void *ctx, const char *hash, const unsigned char **data, size_t *len)
{
	struct store *s = ctx;

	for (int i = 0; i < s->n; i++)
		if (strcmp(s->hash[i], hash) == 0) {
			*data = s->data[i];
			*len = s->len[i];
			return 0;
		}
	return err_set(ERR_NOT_FOUND, "no blob %s", hash);
}

/* The revision an import makes: bodies and blobs stored, hashes filled. */
static struct revision *build_from_import(struct store *s, struct layout_import_out *o, const char *id)
{
	struct revision_new nr = { 0 };

	for (int i = 0; i < o->nbodies; i++)
		o->pages[o->bodies[i].page].body = store_put(s, o->bodies[i].markdown, strlen(o->bodies[i].markdown), true);
	for (int i = 0; i < o->nblobs; i++)
		o->files[o->blobs[i].file].blob = store_put(s, o->blobs[i].data, o->blobs[i].len, false);
	nr.pages = o->pages;
	nr.npages = o->npages;
	nr.files = o->files;
	nr.nfiles = o->nfiles;
	return revision_build(id, &nr, 1700000000000);
}

static int do_export(struct arena *a, struct store *s, const struct revision *rv, const struct revision *synced,
		     const struct repo *r, const char *summary_oid, const char *summary_hash,
		     struct layout_export_out *out)
{
	struct layout_export_in in = { 0 };
	const char *gy = repo_text(r, ".gitbook.yaml");

	in.rv = rv;
	in.synced = synced;
	in.body = store_body;
	in.blob = store_blob;
	in.ctx = s;
	in.gitbook_yaml = gy;
	in.gitbook_yaml_len = gy ? strlen(gy) : 0;
	in.summary_oid = summary_oid;
	in.summary_hash = summary_hash;
	return layout_export(a, &in, out);
}

/* The repository after the export's commit. */
static void apply_export(struct repo *r, const struct layout_export_out *x)
{
	for (int i = 0; i < x->nwrites; i++) {
		const struct layout_write *w = &x->writes[i];
		if (w->oid) {
			int k;
			for (k = 0; k < r->n; k++)
				if (strcmp(r->oid[k], w->oid) == 0)
					break;
			CHECK(k < r->n);
			if (k < r->n) {
				size_t len = r->f[k].len;
				unsigned char *copy = malloc(len + 1);
				memcpy(copy, r->data[k], len);
				repo_put(r, w->path, copy, len);
				free(copy);
			}
		} else {
			repo_put(r, w->path, w->data, w->len);
		}
	}
	for (int i = 0; i < x->ndeletes; i++)
		repo_del(r, x->deletes[i]);
}

static const struct layout_write *write_at(const struct layout_export_out *x, const char *path)
{
	for (int i = 0; i < x->nwrites; i++)
		if (strcmp(x->writes[i].path, path) == 0)
			return &x->writes[i];
	return NULL;
}

/* Pages of a and b are the same tree: same ids, types, titles, parents,
 * sibling order, slugs and bodies. */
static void same_tree_as(const struct revision *a, const struct revision *b, struct store *s, bool exact)
{
	CHECK(a->npages == b->npages);
	for (int i = 0; i < a->npages; i++) {
		const struct rev_page *p = &a->pages[i], *q = revision_page(b, p->id);
		CHECK(q != NULL);
		if (!q) {
			fprintf(stderr, "  missing page %s '%s'\n", p->id, p->title);
			continue;
		}
		CHECK(p->type == q->type);
		CHECK_STR(p->title, q->title);
		CHECK(same_str_or_null(p->parent, q->parent));
		CHECK_STR(p->path, q->path);
		CHECK(same_str_or_null(p->description, q->description));
		CHECK(same_str_or_null(p->icon, q->icon));
		CHECK(same_str_or_null(p->layout, q->layout));
		CHECK(p->hidden == q->hidden);
		CHECK(same_str_or_null(p->href, q->href));
		if (p->body && q->body && strcmp(p->body, q->body) != 0) {
			const char *x = "", *y = "";
			store_body(s, p->body, &x);
			store_body(s, q->body, &y);
			if (exact) {
				CHECK_STR(x, y);
			} else { /* links a move made resolvable may differ */
				struct arena t;
				arena_init(&t);
				CHECK_STR(md_plain_text(&t, x, strlen(x)), md_plain_text(&t, y, strlen(y)));
				arena_free(&t);
			}
		}
		/* order among siblings */
		int ka = 0, kb = 0;
		for (int c = p->parent_idx >= 0 ? a->pages[p->parent_idx].first_child : a->first_root; c >= 0 && c != i;
		     c = a->pages[c].next_sibling)
			ka++;
		int qi = (int)(q - b->pages);
		for (int c = q->parent_idx >= 0 ? b->pages[q->parent_idx].first_child : b->first_root; c >= 0 && c != qi;
		     c = b->pages[c].next_sibling)
			kb++;
		CHECK(ka == kb);
	}
}

static void same_tree(const struct revision *a, const struct revision *b, struct store *s)
{
	same_tree_as(a, b, s, true);
}

/* Import, build, export the unchanged revision: every file is written back as
 * its original blob, SUMMARY.md too, nothing is deleted; twice the same. */
UNIT_TEST(gitbook_layout_export_unchanged_is_byte_stable)
{
	struct arena a;
	struct store s = { 0 };
	struct repo r = { 0 };
	struct layout_import_out o;
	struct layout_export_out x, y;
	struct revision *rv = NULL;

	arena_init(&a);
	arena_init(&s.a);
	gitbook_repo(&r);
	CHECK(do_import(&a, &r, NULL, &o) == 0);
	rv = build_from_import(&s, &o, "r1");
	CHECK(rv != NULL);
	if (!rv)
		goto out;
	CHECK(do_export(&a, &s, rv, rv, &r, o.summary_oid, o.summary_hash, &x) == 0);
	CHECK(x.ndeletes == 0);
	CHECK(x.nwrites == 6 + 1 + 1); /* pages with a file, the logo, SUMMARY.md */
	for (int i = 0; i < x.nwrites; i++) {
		const struct layout_write *w = &x.writes[i];
		const char *orig = NULL;
		for (int k = 0; k < r.n; k++)
			if (strcmp(r.path[k], w->path) == 0)
				orig = r.oid[k];
		if (!w->oid || !orig || strcmp(w->oid, orig) != 0)
			fprintf(stderr, "  not byte-stable: %s\n%.*s\n", w->path, (int)w->len, w->data ? (const char *)w->data : "");
		CHECK(w->oid && orig && strcmp(w->oid, orig) == 0);
	}
	for (int i = 0; i < rv->npages; i++) {
		const struct rev_page *p = &rv->pages[i];
		if (p->type == PAGE_DOCUMENT) {
			CHECK_STR(x.page_paths[i], p->git_path);
			CHECK_STR(x.page_hashes[i], p->git_hash);
		} else {
			CHECK(!x.page_paths[i]);
		}
	}
	CHECK_STR(x.file_paths[0], ".gitbook/assets/logo.png");
	CHECK_STR(x.summary_hash, o.summary_hash);
	/* Deterministic. */
	CHECK(do_export(&a, &s, rv, rv, &r, o.summary_oid, o.summary_hash, &y) == 0);
	CHECK(y.nwrites == x.nwrites && y.ndeletes == x.ndeletes);
	for (int i = 0; i < x.nwrites && i < y.nwrites; i++) {
		CHECK_STR(x.writes[i].path, y.writes[i].path);
		CHECK(same_str_or_null(x.writes[i].oid, y.writes[i].oid));
	}
out:
	revision_free(rv);
	repo_free(&r);
	arena_free(&s.a);
	arena_free(&a);
}

/* The revision the caller records after an export: paths, fingerprints and
 * the oids of the blobs written. */
static struct revision *record_export(const struct revision *rv, const struct layout_export_out *x, const char *id)
{
	struct rev_page *pages = calloc((size_t)rv->npages + 1, sizeof(*pages));
	struct rev_file *files = calloc((size_t)rv->nfiles + 1, sizeof(*files));
	char (*oids)[41] = calloc((size_t)(rv->npages + rv->nfiles) + 1, 41);
	struct revision_new nr = { 0 };
	struct revision *out;

	for (int i = 0; i < rv->npages; i++) {
		pages[i] = rv->pages[i];
		if (!x->page_paths[i])
			continue;
		const struct layout_write *w = write_at(x, x->page_paths[i]);
		pages[i].git_path = x->page_paths[i];
		pages[i].git_hash = x->page_hashes[i];
		if (w && w->oid) {
			pages[i].git_oid = w->oid;
		} else if (w) {
			char h[65];
			sha256_hex(h, w->data, w->len);
			memcpy(oids[i], h, 40);
			pages[i].git_oid = oids[i];
		}
	}
	for (int i = 0; i < rv->nfiles; i++) {
		files[i] = rv->files[i];
		const struct layout_write *w = write_at(x, x->file_paths[i]);
		files[i].git_path = x->file_paths[i];
		if (w && w->oid) {
			files[i].git_oid = w->oid;
		} else if (w) {
			char h[65];
			sha256_hex(h, w->data, w->len);
			memcpy(oids[rv->npages + i], h, 40);
			files[i].git_oid = oids[rv->npages + i];
		}
	}
	nr.pages = pages;
	nr.npages = rv->npages;
	nr.files = files;
	nr.nfiles = rv->nfiles;
	out = revision_build(id, &nr, rv->created_at);
	free(pages);
	free(files);
	free(oids);
	return out;
}

/* Edit one page, move another, turn a third into a group: only those are
 * written (and SUMMARY.md), the old paths deleted; the result re-imports to
 * the same tree. */
UNIT_TEST(gitbook_layout_export_changes_leave_no_orphan)
{
	struct arena a;
	struct store s = { 0 };
	struct repo r = { 0 };
	struct layout_import_out o, o2;
	struct layout_export_out x;
	struct revision *rv = NULL, *rv2 = NULL, *rv3 = NULL, *rv4 = NULL;
	struct rev_page *pages = NULL;
	struct revision_new nr = { 0 };
	const char *guide_id = NULL;

	arena_init(&a);
	arena_init(&s.a);
	gitbook_repo(&r);
	CHECK(do_import(&a, &r, NULL, &o) == 0);
	rv = build_from_import(&s, &o, "r1");
	if (!rv)
		goto out;
	pages = calloc((size_t)rv->npages, sizeof(*pages));
	for (int i = 0; i < rv->npages; i++) {
		pages[i] = rv->pages[i];
		if (pages[i].git_path && strcmp(pages[i].git_path, "guide/README.md") == 0)
			guide_id = pages[i].id;
	}
	for (int i = 0; i < rv->npages; i++) {
		struct rev_page *p = &pages[i];
		if (!p->git_path)
			continue;
		if (strcmp(p->git_path, "guide/setup.md") == 0) {
			const char *md = "\n# Setup\n\nInstall it with one command.\n";
			p->body = store_put(&s, md, strlen(md), true);
		} else if (strcmp(p->git_path, "advanced.md") == 0) {
			p->parent = guide_id;
			p->pos = 1 << 30;
		} else if (strcmp(p->git_path, "faq.md") == 0) {
			/* Top-level pages come before groups in SUMMARY.md: the
			 * domain places a new group after them. */
			p->type = PAGE_GROUP;
			p->body = NULL;
			p->pos = (int64_t)1 << 40;
		}
	}
	nr.pages = pages;
	nr.npages = rv->npages;
	nr.files = rv->files;
	nr.nfiles = rv->nfiles;
	rv2 = revision_build("r2", &nr, 1700000001000);
	if (!rv2)
		goto out;
	CHECK(do_export(&a, &s, rv2, rv, &r, o.summary_oid, o.summary_hash, &x) == 0);
	for (int i = 0; i < x.nwrites; i++) {
		const struct layout_write *w = &x.writes[i];
		bool changed = strcmp(w->path, "guide/setup.md") == 0 || strcmp(w->path, "guide/advanced.md") == 0 ||
			       strcmp(w->path, "SUMMARY.md") == 0;
		if (changed == !!w->oid)
			fprintf(stderr, "  unexpected write: %s (%s)\n", w->path, w->oid ? "blob" : "bytes");
		CHECK(changed == !w->oid);
	}
	CHECK(write_at(&x, "guide/advanced.md") && !write_at(&x, "advanced.md") && !write_at(&x, "faq.md"));
	CHECK(x.ndeletes == 2);
	if (x.ndeletes == 2) {
		CHECK_STR(x.deletes[0], "advanced.md");
		CHECK_STR(x.deletes[1], "faq.md");
	}
	/* The commit, then the next import (the caller recorded the export). */
	apply_export(&r, &x);
	rv3 = record_export(rv2, &x, "r3");
	CHECK(rv3 != NULL);
	if (!rv3)
		goto out;
	CHECK(do_import(&a, &r, rv3, &o2) == 0);
	CHECK(o2.nunlisted == 0);
	rv4 = build_from_import(&s, &o2, "r4");
	CHECK(rv4 != NULL);
	if (rv4) {
		same_tree(rv3, rv4, &s);
		CHECK(rv4->nfiles == rv3->nfiles);
	}
out:
	free(pages);
	revision_free(rv);
	revision_free(rv2);
	revision_free(rv3);
	revision_free(rv4);
	repo_free(&r);
	arena_free(&s.a);
	arena_free(&a);
}

/* No SUMMARY.md: the tree comes from the folders; an unchanged export adds
 * no SUMMARY.md and writes every page back as its blob. */
UNIT_TEST(gitbook_layout_import_folders)
{
	struct arena a;
	struct store s = { 0 };
	struct repo r = { 0 };
	struct layout_import_out o;
	struct layout_export_out x;
	struct revision *rv = NULL;
	const struct rev_page *readme, *pa, *guide, *gx, *gy, *loose, *gz;

	arena_init(&a);
	arena_init(&s.a);
	repo_add(&r, "README.md", "# Home\n");
	repo_add(&r, "b-page.md", "# B\n");
	repo_add(&r, "a-page.md", "Text without a heading.\n");
	repo_add(&r, "guide/README.md", "# Guide\n");
	repo_add(&r, "guide/x.md", "# X\n");
	repo_add(&r, "guide/sub/y.md", "# Y\n");
	repo_add(&r, "loose/z.md", "# Z\n");
	CHECK(do_import(&a, &r, NULL, &o) == 0);
	CHECK(o.npages == 8 && o.nunlisted == 0 && !o.summary_oid);
	readme = page_at(&o, "README.md");
	pa = page_at(&o, "a-page.md");
	guide = page_at(&o, "guide/README.md");
	gx = page_at(&o, "guide/x.md");
	gy = page_at(&o, "guide/sub/y.md");
	gz = page_at(&o, "loose/z.md");
	loose = page_titled(&o, "loose");
	CHECK(readme && pa && guide && gx && gy && gz && loose);
	if (!readme || !pa || !guide || !gx || !gy || !gz || !loose)
		goto out;
	CHECK(sibling_index(&o, readme) == 0 && sibling_index(&o, pa) == 1);
	CHECK_STR(pa->title, "A page"); /* from the file name */
	CHECK_STR(pa->slug, "a-page");
	CHECK(!guide->parent && sibling_index(&o, guide) == 3);
	CHECK_STR(gx->parent, guide->id);
	CHECK_STR(gy->parent, guide->id); /* a folder without README.md inside a page: flattened */
	CHECK(loose->type == PAGE_GROUP && !loose->parent && sibling_index(&o, loose) == 4);
	CHECK_STR(gz->parent, loose->id);
	rv = build_from_import(&s, &o, "r1");
	if (!rv)
		goto out;
	CHECK(do_export(&a, &s, rv, rv, &r, o.summary_oid, o.summary_hash, &x) == 0);
	CHECK(x.ndeletes == 0 && x.nwrites == 7 && !write_at(&x, "SUMMARY.md"));
	for (int i = 0; i < x.nwrites; i++)
		CHECK(x.writes[i].oid != NULL);
out:
	revision_free(rv);
	repo_free(&r);
	arena_free(&s.a);
	arena_free(&a);
}

static void expect_invalid(struct repo *r, const char *want)
{
	struct arena a;
	struct layout_import_out o;
	int rc;

	arena_init(&a);
	rc = do_import(&a, r, NULL, &o);
	CHECK(rc == ERR_INVALID);
	if (rc != ERR_INVALID || !strstr(err_message(), want))
		fprintf(stderr, "  got %d '%s', want '%s'\n", rc, err_message(), want);
	CHECK(strstr(err_message(), want) != NULL);
	arena_free(&a);
}

UNIT_TEST(gitbook_layout_import_malformed)
{
	struct repo r = { 0 };

	gitbook_repo(&r);
	repo_add(&r, ".gitbook.yaml", "root: ./\nstructure:\n  readme: [oops\n");
	expect_invalid(&r, "'.gitbook.yaml' line ");
	repo_add(&r, ".gitbook.yaml", "root: ../outside\n");
	expect_invalid(&r, "'.gitbook.yaml'");
	repo_del(&r, ".gitbook.yaml");
	repo_add(&r, "guide/setup.md", "---\ndescription: ok\nicon: [a, b\n---\n# Setup\n");
	expect_invalid(&r, "'guide/setup.md' front matter: line 4, column 1: did not find expected ','");
	repo_add(&r, "guide/setup.md", "---\ntitle: [1, 2]\n---\n# Setup\n");
	expect_invalid(&r, "'guide/setup.md' front matter: line 2, column 8: title must be a string");
	repo_add(&r, "guide/setup.md", "---\nlayout:\n  width: huge\n---\n# Setup\n");
	expect_invalid(&r, "'guide/setup.md' front matter: layout.width must be default or wide");
	repo_free(&r);
}

/* root: ./docs/, a custom readme and summary path. */
UNIT_TEST(gitbook_layout_import_root_and_structure)
{
	struct arena a;
	struct store s = { 0 };
	struct repo r = { 0 };
	struct layout_import_out o;
	struct layout_export_out x;
	struct revision *rv = NULL;
	const struct rev_page *intro, *pa, *outside;
	char want[128];

	arena_init(&a);
	arena_init(&s.a);
	repo_add(&r, ".gitbook.yaml", "root: ./docs/\nstructure:\n  readme: intro.md\n  summary: toc/SUMMARY.md\n");
	repo_add(&r, "README.md", "# The project's readme, outside the root\n");
	repo_add(&r, "docs/intro.md", "# Intro\n\nSee [A](a.md) and [out](../README.md).\n");
	repo_add(&r, "docs/a.md", "# A\n\n![i](/.gitbook/assets/i.png)\n");
	repo_add(&r, "docs/toc/SUMMARY.md", "# TOC\n\n* [A](../a.md)\n");
	repo_put(&r, "docs/.gitbook/assets/i.png", png1, sizeof(png1));
	CHECK(do_import(&a, &r, NULL, &o) == 0);
	intro = page_at(&o, "docs/intro.md");
	pa = page_at(&o, "docs/a.md");
	outside = page_at(&o, "README.md");
	CHECK(intro && pa && !outside && o.npages == 2 && o.nfiles == 1);
	if (!intro || !pa || o.nfiles != 1)
		goto out;
	CHECK(sibling_index(&o, intro) == 0); /* the readme first, though SUMMARY.md does not list it */
	CHECK(o.nunlisted == 0);
	snprintf(want, sizeof(want), "# Intro\n\nSee [A](/pages/%s) and [out](../README.md).\n", pa->id);
	CHECK_STR(body_of(&o, intro), want);
	snprintf(want, sizeof(want), "# A\n\n![i](/files/%s)\n", o.files[0].id);
	CHECK_STR(body_of(&o, pa), want);
	CHECK_STR(o.files[0].git_path, "docs/.gitbook/assets/i.png");
	rv = build_from_import(&s, &o, "r1");
	if (!rv)
		goto out;
	CHECK(do_export(&a, &s, rv, rv, &r, o.summary_oid, o.summary_hash, &x) == 0);
	CHECK(x.ndeletes == 0 && x.nwrites == 4);
	for (int i = 0; i < x.nwrites; i++)
		CHECK(x.writes[i].oid != NULL);
	CHECK(write_at(&x, "docs/toc/SUMMARY.md") != NULL);
out:
	revision_free(rv);
	repo_free(&r);
	arena_free(&s.a);
	arena_free(&a);
}

/* A space made in docsd (no Git fields) exported into an empty repository
 * re-imports to the same tree: titles, slugs, metadata, bodies and links. */
UNIT_TEST(gitbook_layout_export_then_import_round_trip)
{
	struct arena a;
	struct store s = { 0 };
	struct repo r = { 0 };
	struct layout_import_out o;
	struct layout_export_out x;
	struct revision *rv = NULL, *rv2 = NULL, *rv3 = NULL;
	struct rev_page pages[7];
	struct rev_file files[3];
	struct revision_new nr = { 0 };
	const char *other = "not a png";
	static const char *const bodies[] = {
		"# Welcome\n\nGo to [setup](/pages/p3#install) and see ![pic](/files/f1).\n",
		"Guide without a heading.\n",
		"# Installing\n\n## Install\n\nText.\n",
		NULL,
		NULL,
		"# API\n\n[Back](/pages/p1) [out](https://example.com)\n",
		"# Endpoints\n\n![same](/files/f2)\n",
	};

	arena_init(&a);
	arena_init(&s.a);
	memset(pages, 0, sizeof(pages));
	pages[0] = (struct rev_page){ .id = "p1", .pos = 1, .type = PAGE_DOCUMENT, .title = "Welcome", .slug = "welcome" };
	pages[1] = (struct rev_page){ .id = "p2", .pos = 2, .type = PAGE_DOCUMENT, .title = "Guide", .slug = "guide" };
	pages[2] = (struct rev_page){ .id = "p3", .parent = "p2", .pos = 1, .type = PAGE_DOCUMENT, .title = "Setup",
				      .slug = "setup", .description = "Desc: with a colon # and \"quotes\"\nand a line",
				      .icon = "rocket", .emoji = "1f680", .hidden = true,
				      .layout = "{\"width\":\"wide\",\"cover\":false,\"coverSize\":\"hero\",\"title\":false,"
						"\"description\":true,\"tableOfContents\":true,\"outline\":true,"
						"\"pagination\":true,\"metadata\":true}" };
	pages[3] = (struct rev_page){ .id = "p4", .parent = "p2", .pos = 2, .type = PAGE_LINK, .title = "Example [site]",
				      .slug = "example-site", .href = "https://example.com/a b(c)" };
	pages[4] = (struct rev_page){ .id = "g1", .pos = 3, .type = PAGE_GROUP, .title = "Reference & more",
				      .slug = "reference-more" };
	pages[5] = (struct rev_page){ .id = "p5", .parent = "g1", .pos = 1, .type = PAGE_DOCUMENT, .title = "API",
				      .slug = "api" };
	pages[6] = (struct rev_page){ .id = "p6", .parent = "p5", .pos = 1, .type = PAGE_DOCUMENT, .title = "Endpoints",
				      .slug = "endpoints" };
	for (int i = 0; i < 7; i++)
		if (bodies[i])
			pages[i].body = store_put(&s, bodies[i], strlen(bodies[i]), true);
	files[0] = (struct rev_file){ .id = "f1", .name = "pic.png", .content_type = "image/png",
				      .blob = store_put(&s, png1, sizeof(png1), false), .size = sizeof(png1) };
	files[1] = (struct rev_file){ .id = "f2", .name = "pic.png", .content_type = "image/png",
				      .blob = store_put(&s, other, strlen(other), false), .size = (int64_t)strlen(other) };
	files[2] = (struct rev_file){ .id = "f3", .name = "copy.png", .content_type = "image/png",
				      .blob = files[0].blob, .size = sizeof(png1) };
	nr.pages = pages;
	nr.npages = 7;
	nr.files = files;
	nr.nfiles = 3;
	rv = revision_build("r1", &nr, 1700000000000);
	if (!rv)
		goto out;
	CHECK(do_export(&a, &s, rv, NULL, &r, NULL, NULL, &x) == 0);
	CHECK(x.ndeletes == 0);
	CHECK(write_at(&x, "README.md") && write_at(&x, "guide/README.md") && write_at(&x, "guide/setup.md") &&
	      write_at(&x, "reference-more/api/README.md") && write_at(&x, "reference-more/api/endpoints.md") &&
	      write_at(&x, "SUMMARY.md"));
	/* Assets: one path per distinct content, names never "(1)". */
	CHECK_STR(x.file_paths[0], ".gitbook/assets/copy.png"); /* f1, identical to f3 ("copy.png" sorts first) */
	CHECK_STR(x.file_paths[2], ".gitbook/assets/copy.png");
	CHECK(x.file_paths[1] && strncmp(x.file_paths[1], ".gitbook/assets/pic", 19) == 0);
	CHECK(x.nwrites == 5 + 2 + 1);
	const struct layout_write *w = write_at(&x, "guide/setup.md");
	if (w)
		CHECK(w->len > 4 && memcmp(w->data, "---\ntitle: Setup\n", 17) == 0);
	w = write_at(&x, "README.md");
	if (w) {
		const char *want = "# Welcome\n\nGo to [setup](guide/setup.md#install) and see ![pic](.gitbook/assets/copy.png).\n";
		CHECK(w->len == strlen(want) && memcmp(w->data, want, w->len) == 0);
	}
	apply_export(&r, &x);
	rv2 = record_export(rv, &x, "r2");
	if (!rv2)
		goto out;
	CHECK(do_import(&a, &r, rv2, &o) == 0);
	CHECK(o.nunlisted == 0 && o.nproblems == 0);
	rv3 = build_from_import(&s, &o, "r3");
	CHECK(rv3 != NULL);
	if (rv3)
		same_tree(rv2, rv3, &s);
out:
	revision_free(rv);
	revision_free(rv2);
	revision_free(rv3);
	repo_free(&r);
	arena_free(&s.a);
	arena_free(&a);
}

UNIT_TEST(gitbook_layout_import_limits)
{
	struct arena a;
	struct repo r = { 0 };
	struct layout_import_out o;
	struct git_file *many;
	char (*paths)[24];
	size_t n = LAYOUT_MAX_PAGES + 1;
	struct layout_import_in in = { 0 };
	char *big = malloc(LAYOUT_MAX_PAGE_BYTES + 2);

	memset(big, 'a', LAYOUT_MAX_PAGE_BYTES + 1);
	big[LAYOUT_MAX_PAGE_BYTES + 1] = '\0';
	repo_add(&r, "README.md", "# Home\n");
	repo_add(&r, "big.md", big);
	expect_invalid(&r, "'big.md' is larger than");
	repo_free(&r);
	free(big);

	many = calloc(n, sizeof(*many));
	paths = calloc(n, sizeof(*paths));
	for (size_t i = 0; i < n; i++) {
		snprintf(paths[i], sizeof(paths[i]), "p%zu.md", i);
		many[i] = (struct git_file){ paths[i], "0000000000000000000000000000000000000000",
					     (const unsigned char *)"x", 1 };
	}
	arena_init(&a);
	in.files = many;
	in.nfiles = n;
	in.new_id = next_id;
	in.ctx = &r;
	CHECK(layout_import(&a, &in, &o) == ERR_INVALID);
	CHECK(strstr(err_message(), "at most 20000 pages") != NULL);
	arena_free(&a);
	free(many);
	free(paths);
}

/* Random bytes in every file the layout reads: no crash, a clear error or a
 * tree whose export re-imports. Run under `make unit-asan`. */
static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void random_text(uint64_t *seed, char *buf, size_t cap)
{
	static const char *const bits[] = { "---\n", "title: ", "description: ", "layout:\n  width: wide\n", "# ", "## ",
					    "* [", "](", ")\n", "a.md", "dir/", "README.md", "\n", "  ", "../", "#x",
					    "![i](.gitbook/assets/x.png)", "\"", ":", "hidden: yes\n", "icon: x\n",
					    "https://e.com", "<", ">", "\\", "%20", "\xff", "\xc3\xa9", "`" };
	size_t k = 0, parts = rnd(seed) % 24;

	for (size_t i = 0; i < parts && k + 40 < cap; i++) {
		if (rnd(seed) % 4 == 0) {
			size_t n = rnd(seed) % 8;
			for (size_t j = 0; j < n; j++)
				buf[k++] = (char)(rnd(seed) % 255 + 1);
		} else {
			const char *b = bits[rnd(seed) % (sizeof(bits) / sizeof(bits[0]))];
			memcpy(buf + k, b, strlen(b));
			k += strlen(b);
		}
	}
	buf[k] = '\0';
}

UNIT_TEST(gitbook_layout_fuzz)
{
	static const char *const names[] = { ".gitbook.yaml", "SUMMARY.md", "README.md", "a.md", "dir/README.md",
					     "dir/b.md", ".gitbook/assets/x.png", "dir/c d.md" };
	uint64_t seed = 0x9E3779B97F4A7C15ull;
	int imported = 0, reimported = 0;

	for (int iter = 0; iter < 400; iter++) {
		struct arena a;
		struct store s = { 0 };
		struct repo r = { 0 };
		struct layout_import_out o, o2;
		struct layout_export_out x;
		struct revision *rv = NULL, *rv2 = NULL, *rv3 = NULL;
		char buf[1024];

		arena_init(&a);
		arena_init(&s.a);
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			if (i == 0 && rnd(&seed) % 3)
				continue; /* mostly no .gitbook.yaml: it rarely parses */
			if (rnd(&seed) % 4 == 0)
				continue;
			random_text(&seed, buf, sizeof(buf));
			if (i == 1 && rnd(&seed) % 2)
				snprintf(buf, sizeof(buf), "* [A](a.md)\n  * [B](dir/b.md \"nav\")\n## G\n* [R](dir/)\n");
			repo_add(&r, names[i], buf);
		}
		int rc = do_import(&a, &r, NULL, &o);
		CHECK(rc == 0 || rc == ERR_INVALID);
		if (rc == 0 && (rv = build_from_import(&s, &o, "r1"))) {
			imported++;
			const char *gy = repo_text(&r, ".gitbook.yaml");
			if (do_export(&a, &s, rv, rv, &r, o.summary_oid, o.summary_hash, &x)) {
				fprintf(stderr, "  iteration %d: export failed: %s\n", iter, err_message());
				CHECK(0);
				x.nwrites = 0;
			}
			/* An unchanged export is all blobs. */
			for (int i = 0; i < x.nwrites; i++)
				if (!x.writes[i].oid) {
					fprintf(stderr, "  iteration %d: %s rewritten:\n%.*s\n", iter, x.writes[i].path,
						(int)x.writes[i].len, (const char *)x.writes[i].data);
					CHECK(x.writes[i].oid != NULL);
				}
			/* A docsd-made copy (no Git fields) exports and re-imports to the same tree. */
			struct rev_page *pages = calloc((size_t)rv->npages + 1, sizeof(*pages));
			struct rev_file *files = calloc((size_t)rv->nfiles + 1, sizeof(*files));
			struct revision_new nr = { 0 };
			for (int i = 0; i < rv->npages; i++) {
				pages[i] = rv->pages[i];
				pages[i].git_oid = pages[i].git_path = pages[i].git_hash = NULL;
			}
			for (int i = 0; i < rv->nfiles; i++) {
				files[i] = rv->files[i];
				files[i].git_oid = files[i].git_path = NULL;
			}
			nr.pages = pages;
			nr.npages = rv->npages;
			nr.files = files;
			nr.nfiles = rv->nfiles;
			struct revision *fresh = revision_build("f", &nr, 1);
			free(pages);
			free(files);
			struct repo r2 = { 0 };
			if (gy)
				repo_add(&r2, ".gitbook.yaml", gy);
			if (fresh && do_export(&a, &s, fresh, NULL, &r2, NULL, NULL, &x) == 0) {
				apply_export(&r2, &x);
				rv2 = record_export(fresh, &x, "r2");
				if (rv2 && do_import(&a, &r2, rv2, &o2) == 0 && (rv3 = build_from_import(&s, &o2, "r3"))) {
					reimported++;
					int before = unit_case_failed;
					unit_case_failed = 0;
					same_tree_as(rv2, rv3, &s, false);
					if (unit_case_failed) {
						fprintf(stderr, "  iteration %d: the round trip differs\n", iter);
						for (int i = 0; i < r.n; i++)
							fprintf(stderr, "  --- %s\n%s\n", r.path[i], (const char *)r.data[i]);
					}
					unit_case_failed |= before;
				} else {
					fprintf(stderr, "  iteration %d: re-import failed: %s\n", iter, err_message());
					CHECK(0);
				}
			} else {
				fprintf(stderr, "  iteration %d: fresh export failed: %s\n", iter, err_message());
				CHECK(0);
			}
			revision_free(fresh);
			repo_free(&r2);
		}
		revision_free(rv);
		revision_free(rv2);
		revision_free(rv3);
		repo_free(&r);
		arena_free(&s.a);
		arena_free(&a);
	}
	CHECK(imported > 100 && reimported == imported);
}

/* Bytes loaded lazily (in->load) may be gone after the import: bodies and
 * blobs it returns are its own copies. */
static int load_scratch(void *ctx, const struct git_file *f, const unsigned char **data, size_t *len)
{
	struct repo *r = ctx;

	for (int i = 0; i < r->n; i++)
		if (strcmp(r->path[i], f->path) == 0) {
			*data = r->data[i];
			*len = strlen((const char *)r->data[i]) ? strlen((const char *)r->data[i]) : 0;
			if (strstr(f->path, ".png"))
				*len = sizeof(png1);
			return 0;
		}
	return err_set(ERR_NOT_FOUND, "no %s", f->path);
}

UNIT_TEST(gitbook_layout_import_lazy_load)
{
	struct arena a;
	struct repo r = { 0 };
	struct git_file files[4];
	struct layout_import_in in = { 0 };
	struct layout_import_out o;

	arena_init(&a);
	repo_add(&r, "README.md", "# Home\n\n![x](.gitbook/assets/x.png)\n");
	repo_put(&r, ".gitbook/assets/x.png", png1, sizeof(png1));
	for (int i = 0; i < r.n; i++)
		files[i] = (struct git_file){ r.path[i], r.oid[i], NULL, 0 };
	in.files = files;
	in.nfiles = (size_t)r.n;
	in.load = load_scratch;
	in.new_id = next_id;
	in.ctx = &r;
	CHECK(layout_import(&a, &in, &o) == 0);
	for (int i = 0; i < r.n; i++)
		memset(r.data[i], 'z', 4);
	CHECK(o.nblobs == 1 && o.nbodies == 1);
	if (o.nblobs == 1)
		CHECK(o.blobs[0].len == sizeof(png1) && memcmp(o.blobs[0].data, png1, sizeof(png1)) == 0);
	if (o.nbodies == 1)
		CHECK(strncmp(o.bodies[0].markdown, "# Home", 6) == 0);
	/* A load that fails fails the import with its code. */
	in.nfiles = (size_t)r.n;
	files[0].path = "missing.md";
	CHECK(layout_import(&a, &in, &o) == ERR_NOT_FOUND);
	repo_free(&r);
	arena_free(&a);
}

/* A SUMMARY.md nav title ([Title](p.md "Nav title")) survives a regenerated
 * SUMMARY.md: a renamed page keeps it, escaped. */
UNIT_TEST(gitbook_layout_export_keeps_nav_titles)
{
	struct arena a;
	struct store s = { 0 };
	struct repo r = { 0 };
	struct layout_import_out o;
	struct layout_export_out x;
	struct revision *rv = NULL, *rv2 = NULL;
	struct rev_page *pages = NULL;
	struct revision_new nr = { 0 };

	arena_init(&a);
	arena_init(&s.a);
	repo_add(&r, "README.md", "# Welcome\n");
	repo_add(&r, "SUMMARY.md",
		 "# Table of contents\n\n* [Welcome](README.md)\n* [Setup](setup.md \"Setting \\\"it\\\" up\")\n");
	repo_add(&r, "setup.md", "# Setup\n");
	CHECK(do_import(&a, &r, NULL, &o) == 0);
	CHECK(page_at(&o, "setup.md") && page_at(&o, "setup.md")->nav_title);
	if (page_at(&o, "setup.md") && page_at(&o, "setup.md")->nav_title)
		CHECK_STR(page_at(&o, "setup.md")->nav_title, "Setting \"it\" up");
	rv = build_from_import(&s, &o, "r1");
	if (!rv)
		goto out;
	/* Unchanged: SUMMARY.md is its blob. */
	CHECK(do_export(&a, &s, rv, rv, &r, o.summary_oid, o.summary_hash, &x) == 0);
	CHECK(write_at(&x, "SUMMARY.md") && write_at(&x, "SUMMARY.md")->oid);
	/* The page renamed: SUMMARY.md is written again, with the nav title. */
	pages = calloc((size_t)rv->npages, sizeof(*pages));
	for (int i = 0; pages && i < rv->npages; i++) {
		pages[i] = rv->pages[i];
		if (pages[i].git_path && strcmp(pages[i].git_path, "setup.md") == 0)
			pages[i].title = "Install";
	}
	nr.pages = pages;
	nr.npages = rv->npages;
	rv2 = pages ? revision_build("r2", &nr, 1700000001000) : NULL;
	if (!rv2)
		goto out;
	CHECK(do_export(&a, &s, rv2, rv, &r, o.summary_oid, o.summary_hash, &x) == 0);
	const struct layout_write *w = write_at(&x, "SUMMARY.md");
	CHECK(w && !w->oid && w->data);
	if (w && w->data)
		CHECK(memmem(w->data, w->len, "* [Install](setup.md \"Setting \\\"it\\\" up\")\n", 42) != NULL);
out:
	free(pages);
	revision_free(rv);
	revision_free(rv2);
	repo_free(&r);
	arena_free(&s.a);
	arena_free(&a);
}

/* Files that differ only in case (Case.md beside case.md, Logo.png beside
 * logo.png) are the repository's own names: an unchanged export writes both
 * back under those names, as their blobs (no case-2.md, nothing deleted); a
 * new page still avoids both spellings. */
UNIT_TEST(gitbook_layout_export_keeps_case_only_names)
{
	static const unsigned char other_png[] = { 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00 };
	struct arena a;
	struct store s = { 0 };
	struct repo r = { 0 };
	struct layout_import_out o;
	struct layout_export_out x, y;
	struct revision *rv = NULL, *rv2 = NULL;
	struct rev_page *pages = NULL;
	struct revision_new nr = { 0 };

	arena_init(&a);
	arena_init(&s.a);
	repo_add(&r, "README.md", "# Home\n\n![a](.gitbook/assets/Logo.png) ![b](.gitbook/assets/logo.png)\n");
	repo_add(&r, "SUMMARY.md", "# Table of contents\n\n* [Home](README.md)\n* [Upper](Case.md)\n* [Lower](case.md)\n");
	repo_add(&r, "Case.md", "# Upper\n\nSee [lower](case.md).\n");
	repo_add(&r, "case.md", "# Lower\n\nSee [upper](Case.md).\n");
	repo_put(&r, ".gitbook/assets/Logo.png", png1, sizeof(png1));
	repo_put(&r, ".gitbook/assets/logo.png", other_png, sizeof(other_png));
	CHECK(do_import(&a, &r, NULL, &o) == 0);
	CHECK(o.npages == 3 && o.nfiles == 2);
	CHECK(page_at(&o, "Case.md") && page_at(&o, "case.md"));
	rv = build_from_import(&s, &o, "r1");
	CHECK(rv != NULL);
	if (!rv)
		goto out;
	CHECK(do_export(&a, &s, rv, rv, &r, o.summary_oid, o.summary_hash, &x) == 0);
	CHECK(x.ndeletes == 0);
	CHECK(x.nwrites == 6);
	for (int i = 0; i < x.nwrites; i++) {
		const struct layout_write *w = &x.writes[i];
		const char *orig = NULL;
		for (int k = 0; k < r.n; k++)
			if (strcmp(r.path[k], w->path) == 0)
				orig = r.oid[k];
		if (!w->oid || !orig || strcmp(w->oid, orig) != 0)
			fprintf(stderr, "  not the repository's own file: %s\n", w->path);
		CHECK(w->oid && orig && strcmp(w->oid, orig) == 0);
	}
	CHECK(write_at(&x, "Case.md") && write_at(&x, "case.md") && !write_at(&x, "case-2.md") &&
	      !write_at(&x, "Case-2.md"));
	CHECK(write_at(&x, ".gitbook/assets/Logo.png") && write_at(&x, ".gitbook/assets/logo.png"));

	/* A new page whose slug is "CASE": neither spelling is reused. */
	pages = calloc((size_t)rv->npages + 1, sizeof(*pages));
	if (!pages)
		goto out;
	memcpy(pages, rv->pages, sizeof(*pages) * (size_t)rv->npages);
	pages[rv->npages] = (struct rev_page){ .id = "newpage0000000000001", .type = PAGE_DOCUMENT, .title = "Third",
					       .slug = "CASE", .pos = (int64_t)1 << 40 };
	nr.pages = pages;
	nr.npages = rv->npages + 1;
	nr.files = rv->files;
	nr.nfiles = rv->nfiles;
	rv2 = revision_build("r2", &nr, 1700000001000);
	CHECK(rv2 != NULL);
	if (!rv2)
		goto out;
	CHECK(do_export(&a, &s, rv2, rv, &r, o.summary_oid, o.summary_hash, &y) == 0);
	CHECK(write_at(&y, "Case.md") && write_at(&y, "case.md") && write_at(&y, "CASE-2.md"));
	CHECK(y.ndeletes == 0);
out:
	free(pages);
	revision_free(rv);
	revision_free(rv2);
	repo_free(&r);
	arena_free(&s.a);
	arena_free(&a);
}
