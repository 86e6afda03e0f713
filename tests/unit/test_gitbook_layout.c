/* Unit tests: core/gitbook_layout (Git sync's GitBook layout: import and export). */
#include "core/gitbook_layout.h"
#include "core/markdown.h"
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
	CHECK(group->type == PAGE_GROUP && !group->parent && sibling_index(&o, group) == 2);
	CHECK_STR(guide->parent, group->id);
	CHECK_STR(setup->parent, guide->id);
	CHECK_STR(link->parent, guide->id);
	CHECK_STR(link->href, "https://github.com");
	CHECK_STR(adv->parent, group->id);
	CHECK(!notes->parent && sibling_index(&o, notes) == 3); /* unlisted: after the listed ones */
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
