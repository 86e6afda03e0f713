/*
 * translation_run.c - the two halves of a translation run around the engine
 * (domain/translations.h draws the run): the plan, read in any transaction,
 * and the result, written in one.
 */
#include "domain/content.h"
#include "domain/spaces.h"
#include "domain/translations.h"
#include "util/err.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A result space's title: "<source title> (<language>)", at most 50
 * characters (a space title's limit), the source's title cut at a
 * character boundary. */
#define TITLE_MAX 50

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* A page or file of a revision copied into the arena: the revision belongs
 * to the transaction that read it. Every string field is copied (or, for the
 * Git sync fields, left out): a field added to rev_page needs a line here. */
static void copy_page(struct arena *a, const struct rev_page *p, struct rev_page *out)
{
	*out = *p;
	out->id = arena_strdup(a, p->id);
	out->parent = arena_strdup(a, p->parent);
	out->title = arena_strdup(a, p->title);
	out->emoji = arena_strdup(a, p->emoji);
	out->icon = arena_strdup(a, p->icon);
	out->slug = arena_strdup(a, p->slug);
	out->description = arena_strdup(a, p->description);
	out->body = arena_strdup(a, p->body);
	out->href = arena_strdup(a, p->href);
	out->layout = arena_strdup(a, p->layout);
	out->computed = arena_strdup(a, p->computed);
	/* The source's Git sync blobs are not the result space's. */
	out->git_oid = out->git_path = out->git_hash = NULL;
	out->nav_title = NULL; /* untranslated text of the source's SUMMARY.md */
	out->path = NULL;
}

static void copy_file(struct arena *a, const struct rev_file *f, struct rev_file *out)
{
	*out = *f;
	out->id = arena_strdup(a, f->id);
	out->name = arena_strdup(a, f->name);
	out->content_type = arena_strdup(a, f->content_type);
	out->blob = arena_strdup(a, f->blob);
	out->git_oid = out->git_path = NULL;
}

/* What is translated of a page, hashed: a page whose key is unchanged since
 * the last run keeps its last translation. */
static const char *page_key(struct arena *a, const struct rev_page *p)
{
	const char *parts[] = { p->title, p->description, p->body, p->href };
	size_t len = 8;
	char *buf, *at, hex[65];

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		len += (parts[i] ? strlen(parts[i]) : 0) + 1;
	buf = arena_alloc(a, len);
	at = buf + snprintf(buf, len, "%d", (int)p->type);
	*at++ = '\0';
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		size_t k = parts[i] ? strlen(parts[i]) : 0;
		memcpy(at, parts[i] ? parts[i] : "", k);
		at += k;
		*at++ = '\0';
	}
	if (sha256_hex(hex, buf, (size_t)(at - buf)))
		return NULL;
	return arena_strdup(a, hex);
}

static int key_cmp(const void *k, const void *e)
{
	return strcmp(k, ((const struct translation_page_key *)e)->page_id);
}

int dom_translation_plan(struct dom *d, const char *id, const char *job_id, struct tr_run *out)
{
	const struct revision *rv, *last = NULL;
	struct translation_page_key *keys;
	struct space rs;
	int nkeys, rc;

	memset(out, 0, sizeof(*out));
	out->job_id = job_id;
	if ((rc = store_translation_get(d->tx, NULL, id, &out->t)))
		return rc;
	if (out->t.applied_run && job_id && strcmp(out->t.applied_run, job_id) == 0) {
		out->applied = true;
		return 0;
	}
	if (out->t.source.deleted_at)
		return err_set(ERR_PRECONDITION, "the source space %s is deleted", out->t.source_space);
	if ((rc = store_revision_get(d->tx, out->t.source.revision, &rv)))
		return rc;
	/* The last result, for the pages that did not change: only while its
	 * space lives (a new result space gets every page translated). */
	if (out->t.result_space && out->t.result_revision) {
		rc = store_space_get(d->tx, out->t.result_space, &rs);
		if (rc == 0 && !rs.deleted_at)
			rc = store_revision_get(d->tx, out->t.result_revision, &last);
		if (rc && rc != ERR_NOT_FOUND)
			return rc;
		if (rc)
			last = NULL;
	}
	if ((rc = store_translation_page_keys(d->tx, out->t.id, &keys, &nkeys)))
		return rc;
	out->source_revision = arena_strdup(d->arena, rv->id);
	out->pages = arena_alloc(d->arena, sizeof(*out->pages) * (size_t)(rv->npages + 1));
	out->files = arena_alloc(d->arena, sizeof(*out->files) * (size_t)(rv->nfiles + 1));
	for (int i = 0; i < rv->npages; i++) {
		struct tr_run_page *p = &out->pages[out->npages++];
		const struct translation_page_key *k;
		const struct rev_page *was;

		memset(p, 0, sizeof(*p));
		copy_page(d->arena, &rv->pages[i], &p->page);
		if (!(p->key = page_key(d->arena, &p->page)))
			return err_set(ERR_INTERNAL, "out of memory");
		k = nkeys ? bsearch(p->page.id, keys, (size_t)nkeys, sizeof(*keys), key_cmp) : NULL;
		was = last ? revision_page(last, p->page.id) : NULL;
		p->known = k != NULL;
		p->translate = !k || strcmp(k->source_key, p->key) != 0 || !was || was->type != p->page.type;
		if (!p->translate) {
			p->title = arena_strdup(d->arena, was->title);
			p->description = arena_strdup(d->arena, was->description);
			p->body_hash = arena_strdup(d->arena, was->body);
			p->updated_at = was->updated_at;
		} else if (p->page.type == PAGE_DOCUMENT && p->page.body &&
			   (rc = store_body_get(d->tx, p->page.body, &p->markdown))) {
			return rc == ERR_NOT_FOUND ? err_set(ERR_INTERNAL, "page body %s is missing", p->page.body) : rc;
		}
	}
	for (int i = 0; i < rv->nfiles; i++)
		copy_file(d->arena, &rv->files[i], &out->files[out->nfiles++]);
	return 0;
}

/* "<title> (<language>)" within TITLE_MAX characters. */
static const char *result_title(struct arena *a, const char *title, const char *language)
{
	size_t suffix = strlen(language) + 3, room = TITLE_MAX - suffix, chars = 0, bytes = 0;

	/* Count characters (UTF-8 lead bytes) up to the room left. */
	for (const unsigned char *p = (const unsigned char *)title; *p; p++) {
		if ((*p & 0xC0) != 0x80) {
			if (chars == room)
				break;
			chars++;
		}
		bytes++;
	}
	while (bytes && title[bytes - 1] == ' ')
		bytes--;
	return bytes ? arena_printf(a, "%.*s (%s)", (int)bytes, title, language) : arena_printf(a, "(%s)", language);
}

/* The result space: the last one while it lives, else a new one beside the
 * source. Its row is locked (the revision is read, then moved). */
static int result_space(struct dom *d, const struct translation *t, struct space *out)
{
	struct space_input in = { 0 };
	struct space made;
	int rc;

	if (t->result_space) {
		rc = dom_space_get_locked(d, t->result_space, ROLE_EDIT, out);
		if (rc == 0 && !out->deleted_at)
			return 0;
		if (rc && rc != ERR_NOT_FOUND)
			return rc;
	}
	in.title = result_title(d->arena, t->source.title, t->language);
	in.language = t->language;
	in.parent_id = t->source.parent_id;
	if ((rc = dom_space_create(d, t->org_id, &in, &made)))
		return rc;
	return dom_space_get_locked(d, made.id, ROLE_EDIT, out);
}

/* Do the result's pages and files equal the revision's? */
static bool same_content(const struct tree_work *w, const struct revision *rv)
{
	if (w->n != rv->npages || w->nf != rv->nfiles)
		return false;
	for (int i = 0; i < w->n; i++) {
		const struct rev_page *p = revision_page(rv, w->pages[i].id);
		if (!p || !rev_page_same(p, &w->pages[i]))
			return false;
	}
	for (int i = 0; i < w->nf; i++) {
		const struct rev_file *f = revision_file(rv, w->files[i].id);
		if (!f || !rev_file_same(f, &w->files[i]))
			return false;
	}
	return true;
}

int dom_translation_apply(struct dom *d, const struct tr_run *run, int64_t words, int64_t duration_s)
{
	struct translation cur;
	struct translation_page_key *keys;
	struct translation_run r = { .job_id = run->job_id, .words = words, .duration_s = duration_s };
	struct tree_work w = { .a = d->arena, .now = clock_now_ms() };
	const struct revision *parent, *next;
	struct space rs;
	int rc = store_translation_get_locked(d->tx, NULL, run->t.id, &cur);

	if (rc == ERR_NOT_FOUND)
		return 0; /* deleted meanwhile: nothing to write */
	if (rc)
		return rc;
	if (cur.applied_run && strcmp(cur.applied_run, run->job_id) == 0)
		return 0; /* written by an earlier attempt of this job */
	if (!same_str(cur.result_revision, run->t.result_revision))
		return err_set(ERR_CONFLICT, "translation %s: another run wrote its result meanwhile", cur.id);
	if ((rc = result_space(d, &cur, &rs)) || (rc = dom_space_editable(&rs)) ||
	    (rc = store_revision_get(d->tx, rs.revision, &parent)))
		return rc;
	w.pages = arena_alloc(d->arena, sizeof(*w.pages) * (size_t)(run->npages + 1));
	keys = arena_alloc(d->arena, sizeof(*keys) * (size_t)(run->npages + 1));
	w.n = w.cap = run->npages;
	w.files = run->files;
	w.nf = w.capf = run->nfiles;
	for (int i = 0; i < run->npages; i++) {
		const struct tr_run_page *p = &run->pages[i];
		struct rev_page *out = &w.pages[i];

		*out = p->page;
		if (p->title && *p->title)
			out->title = p->title;
		if (p->description && *p->description)
			out->description = p->description;
		if (!p->translate) {
			out->body = p->body_hash;
			out->updated_at = p->updated_at;
		} else {
			if (p->body_md && (rc = store_body_put(d->tx, p->body_md, &out->body)))
				return rc;
			out->updated_at = w.now;
			r.pages++;
			r.new_pages += !p->known;
		}
		keys[i] = (struct translation_page_key){ p->page.id, p->key };
	}
	/* A revision only when the content differs from the space's. */
	if (same_content(&w, parent)) {
		next = parent;
	} else if ((rc = dom_write_edits(d, &rs, &w, parent, &next)) || (rc = dom_space_advance_by(d, &rs, next, SPACE_ADVANCED_BY_TRANSLATION, NULL))) {
		return rc;
	}
	r.result_space = rs.id;
	r.result_revision = next->id;
	r.source_revision = run->source_revision;
	if ((rc = store_translation_page_keys_set(d->tx, cur.id, keys, run->npages)))
		return rc;
	return store_translation_record_run(d->tx, &cur, &r);
}
