/*
 * translation_run.c - the two halves of a translation run around the engine
 * (domain/translations.h draws the run): the plan, read in any transaction,
 * and the result, written in one; and the run itself, the job's work between
 * them (dom_translation_job_run, at the end).
 */
#include "domain/content.h"
#include "domain/job.h"
#include "domain/spaces.h"
#include "domain/translations.h"
#include "format/md_translate.h"
#include "store/store.h"
#include "translate/engine.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

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
 * the last run keeps its last translation. The glossary's terms are part of
 * it: a changed glossary translates every page that has one of its terms
 * again (gloss: the terms, "" when none). */
static const char *page_key(struct arena *a, const struct rev_page *p, const char *gloss)
{
	const char *parts[] = { p->title, p->description, p->body, p->href, gloss };
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

/* The glossary's terms swapped for tokens in what the engine will see of
 * p: its title, description and the text segments of its markdown (the
 * markdown parsed and rendered again with md_translate, so code, links and
 * markup keep the terms as written). A page whose markdown would not render
 * back keeps its text as it is (the glossary is not applied to it). */
static void protect_page(struct arena *a, const struct tr_glossary *g, struct tr_run_page *p)
{
	struct md_tr *md = NULL;
	char *body;

	p->page.title = tr_glossary_protect(a, g, p->page.title);
	p->page.description = tr_glossary_protect(a, g, p->page.description);
	if (!p->markdown || md_tr_parse(a, p->markdown, strlen(p->markdown), &md) != 0)
		return;
	{
		int n = md_tr_count(md);
		const char **segs = arena_alloc(a, sizeof(*segs) * (size_t)(n + 1));
		for (int i = 0; i < n; i++)
			segs[i] = tr_glossary_protect(a, g, md_tr_segment(md, i));
		if (n && md_tr_render(md, segs, &body) == 0)
			p->markdown = body;
	}
	md_tr_free(md);
}

int dom_translation_plan(struct dom *d, const char *id, const char *job_id, struct tr_run *out)
{
	const struct revision *rv, *last = NULL;
	struct translation_page_key *keys;
	struct space rs;
	const char *gloss = "";
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
	tr_glossary_parse(d->arena, out->t.instructions, &out->glossary);
	for (int i = 0; i < out->glossary.n; i++)
		gloss = arena_printf(d->arena, "%s%s\x1f%s\x1e", gloss, out->glossary.from[i], out->glossary.to[i]);
	out->source_revision = arena_strdup(d->arena, rv->id);
	out->pages = arena_alloc(d->arena, sizeof(*out->pages) * (size_t)(rv->npages + 1));
	out->files = arena_alloc(d->arena, sizeof(*out->files) * (size_t)(rv->nfiles + 1));
	for (int i = 0; i < rv->npages; i++) {
		struct tr_run_page *p = &out->pages[out->npages++];
		const struct translation_page_key *k;
		const struct rev_page *was;

		memset(p, 0, sizeof(*p));
		copy_page(d->arena, &rv->pages[i], &p->page);
		if (!(p->key = page_key(d->arena, &p->page, gloss)))
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
		if (p->translate && out->glossary.n)
			protect_page(d->arena, &out->glossary, p);
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
			/* The glossary's tokens become its translated terms. */
			out->title = tr_glossary_restore(d->arena, &run->glossary, out->title);
			out->description = tr_glossary_restore(d->arena, &run->glossary, out->description);
			if (p->body_md &&
			    (rc = dom_body_put(d->tx, tr_glossary_restore(d->arena, &run->glossary, p->body_md), &out->body)))
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

/* ---- the glossary (translations.h) ---- */

static void text_of(json_t *n, struct arena *a, char **buf, size_t *len)
{
	json_t *leaves = json_object_get(n, "leaves"), *nodes = json_object_get(n, "nodes"), *x;
	size_t i;

	json_array_foreach(leaves, i, x) {
		const char *t = json_string_value(json_object_get(x, "text"));
		if (t) {
			*buf = arena_printf(a, "%s%s", *buf ? *buf : "", t);
			*len += strlen(t);
		}
	}
	json_array_foreach(nodes, i, x)
		text_of(x, a, buf, len);
}

static const char *cell_text(struct arena *a, json_t *cell)
{
	char *buf = NULL;
	size_t len = 0, s = 0;

	text_of(cell, a, &buf, &len);
	if (!buf)
		return "";
	while (buf[s] == ' ' || buf[s] == '\t' || buf[s] == '\n')
		s++;
	len = strlen(buf + s);
	while (len && (buf[s + len - 1] == ' ' || buf[s + len - 1] == '\t' || buf[s + len - 1] == '\n'))
		len--;
	return arena_strndup(a, buf + s, len);
}

static bool header_word(const char *s)
{
	static const char *const words[] = { "source", "term", "source term", "original", NULL };

	for (int i = 0; words[i]; i++)
		if (strcasecmp(s, words[i]) == 0)
			return true;
	return false;
}

#define GLOSSARY_MAX 1000

static void glossary_add(struct tr_glossary *g, const char *from, const char *to)
{
	if (*from && g->n < GLOSSARY_MAX) {
		g->from[g->n] = from;
		g->to[g->n] = to;
		g->n++;
	}
}

/* A cell of GitBook's table: a value of a record, which for a text column
 * names one of the block's fragments (its text), else is the text itself. */
static const char *record_cell(struct arena *a, json_t *table, json_t *v)
{
	json_t *frags = json_object_get(table, "fragments"), *f;
	size_t i;

	if (!json_is_string(v))
		return "";
	json_array_foreach(frags, i, f)
		if (json_is_string(json_object_get(f, "fragment")) &&
		    strcmp(json_string_value(json_object_get(f, "fragment")), json_string_value(v)) == 0)
			return cell_text(a, f);
	return arena_strdup(a, json_string_value(v));
}

struct record {
	const char *order;
	json_t *values;
};

static int record_cmp(const void *x, const void *y)
{
	return strcmp(((const struct record *)x)->order, ((const struct record *)y)->order);
}

/* GitBook's table block: data.view.columns orders the columns (the first
 * two are source and target), data.records the rows (by orderIndex); the
 * column titles are the header, not a row. */
static void gitbook_table(struct arena *a, json_t *table, struct tr_glossary *g)
{
	json_t *data = json_object_get(table, "data"), *records = json_object_get(data, "records"), *rec;
	json_t *cols = json_object_get(json_object_get(data, "view"), "columns");
	const char *c0 = json_string_value(json_array_get(cols, 0)), *c1 = json_string_value(json_array_get(cols, 1));
	struct record *rs;
	const char *key;
	size_t n = 0;

	if (!c0 || !c1 || !json_is_object(records) || json_object_size(records) > GLOSSARY_MAX)
		return;
	rs = arena_alloc(a, sizeof(*rs) * (json_object_size(records) + 1));
	json_object_foreach(records, key, rec) {
		const char *order = json_string_value(json_object_get(rec, "orderIndex"));
		rs[n++] = (struct record){ order ? order : key, json_object_get(rec, "values") };
	}
	qsort(rs, n, sizeof(*rs), record_cmp);
	for (size_t i = 0; i < n; i++)
		glossary_add(g, record_cell(a, table, json_object_get(rs[i].values, c0)),
			     record_cell(a, table, json_object_get(rs[i].values, c1)));
}

/* A table written as rows of cells (nodes of nodes), as a markdown import
 * or another editor makes it: a first row reading "source", "term" or
 * "original" is a header. */
static void row_table(struct arena *a, json_t *rows, struct tr_glossary *g)
{
	json_t *row;
	size_t r;

	json_array_foreach(rows, r, row) {
		json_t *cells = json_object_get(row, "nodes");
		const char *from;

		if (json_array_size(cells) < 2)
			continue;
		from = cell_text(a, json_array_get(cells, 0));
		if (r == 0 && header_word(from))
			continue;
		glossary_add(g, from, cell_text(a, json_array_get(cells, 1)));
	}
}

static void glossary_tables(struct arena *a, json_t *nodes, struct tr_glossary *g, int depth)
{
	json_t *n;
	size_t i;

	if (depth > 32)
		return;
	json_array_foreach(nodes, i, n) {
		const char *type = json_string_value(json_object_get(n, "type"));

		if (!type || strcmp(type, "table") != 0)
			glossary_tables(a, json_object_get(n, "nodes"), g, depth + 1);
		else if (json_object_get(json_object_get(n, "data"), "records"))
			gitbook_table(a, n, g);
		else
			row_table(a, json_object_get(n, "nodes"), g);
	}
}

static int term_longer(const void *x, const void *y, void *ctx)
{
	const struct tr_glossary *g = ctx;
	int i = *(const int *)x, j = *(const int *)y;
	size_t a = strlen(g->from[i]), b = strlen(g->from[j]);

	return a != b ? (a < b ? 1 : -1) : i - j;
}

void tr_glossary_parse(struct arena *a, const char *instructions, struct tr_glossary *out)
{
	json_t *doc = instructions ? json_loads(instructions, 0, NULL) : NULL;
	struct tr_glossary g = { 0 };
	int *order;

	memset(out, 0, sizeof(*out));
	if (!doc)
		return;
	g.from = arena_alloc(a, sizeof(*g.from) * GLOSSARY_MAX);
	g.to = arena_alloc(a, sizeof(*g.to) * GLOSSARY_MAX);
	glossary_tables(a, json_object_get(doc, "nodes"), &g, 0);
	json_decref(doc);
	if (!g.n)
		return;
	/* Longest source term first: "docs site" before "docs". */
	order = arena_alloc(a, sizeof(*order) * (size_t)g.n);
	for (int i = 0; i < g.n; i++)
		order[i] = i;
	qsort_r(order, (size_t)g.n, sizeof(*order), term_longer, &g);
	out->from = arena_alloc(a, sizeof(*out->from) * (size_t)g.n);
	out->to = arena_alloc(a, sizeof(*out->to) * (size_t)g.n);
	for (int i = 0; i < g.n; i++) {
		out->from[i] = g.from[order[i]];
		out->to[i] = g.to[order[i]];
	}
	out->n = g.n;
}

static bool word_byte(unsigned char c)
{
	return isalnum(c) || c >= 0x80 || c == '_';
}

const char *tr_glossary_protect(struct arena *a, const struct tr_glossary *g, const char *text)
{
	const char *cur = text;

	if (!g || !g->n || !text)
		return text;
	for (int i = 0; i < g->n; i++) {
		size_t k = strlen(g->from[i]), len = 0, cap;
		const char *at = cur, *hit;
		char *out, token[32];
		int tl = snprintf(token, sizeof(token), "zqg%dz", i);

		if (!strstr(cur, g->from[i]))
			continue;
		cap = strlen(cur) * ((size_t)tl + 1) + 1;
		out = arena_alloc(a, cap);
		while ((hit = strstr(at, g->from[i]))) {
			bool left = hit == cur || !word_byte((unsigned char)hit[-1]);
			bool right = !word_byte((unsigned char)hit[k]);
			size_t pre = (size_t)(hit - at);

			memcpy(out + len, at, pre);
			len += pre;
			if (left && right) {
				memcpy(out + len, token, (size_t)tl);
				len += (size_t)tl;
			} else {
				memcpy(out + len, hit, k);
				len += k;
			}
			at = hit + k;
		}
		memcpy(out + len, at, strlen(at) + 1); /* the rest and its NUL: cap counted them */
		cur = out;
	}
	return cur;
}

const char *tr_glossary_restore(struct arena *a, const struct tr_glossary *g, const char *text)
{
	size_t len = 0, cap, longest = 0;
	const char *s = text;
	char *out;

	if (!g || !g->n || !text || !strcasestr(text, "zqg"))
		return text;
	for (int i = 0; i < g->n; i++)
		if (strlen(g->to[i]) > longest)
			longest = strlen(g->to[i]);
	cap = strlen(text) * (longest + 1) + 1;
	out = arena_alloc(a, cap);
	while (*s) {
		if (strncasecmp(s, "zqg", 3) == 0 && isdigit((unsigned char)s[3])) {
			char *end;
			long i = strtol(s + 3, &end, 10);
			if ((*end == 'z' || *end == 'Z') && i >= 0 && i < g->n) {
				size_t k = strlen(g->to[i]);
				memcpy(out + len, g->to[i], k);
				len += k;
				s = end + 1;
				continue;
			}
		}
		out[len++] = *s++;
	}
	out[len] = '\0';
	return out;
}

/* ---- the run: dom_translation_job_run, the work of the job translation.run ----
 * (it lived in translate/job.c; the orchestration is the domain's, as Git
 * sync's is in domain/git_sync.c, and translate/ keeps the engines)
 *
 *   read transaction    dom_translation_plan: the pages that changed
 *   no transaction      md_tr_parse each page, the engine translates every
 *                       segment of the run (it batches them), md_tr_render
 *   write transaction   dom_translation_apply: the result revision, the page
 *                       keys, the stats and applied_run, together
 *
 * Idempotence (jobs.h's contract for own-transaction handlers): the only
 * effect is the write transaction, keyed by the job's id (applied_run) and
 * guarded by the result it read; a job run again after a crash re-plans and
 * finds its result written, or finds nothing written and writes it once.
 *
 * Failures: a pair that is not installed (any more) is ERR_PRECONDITION,
 * failed at once; an engine that crashed or timed out is ERR_UNAVAILABLE,
 * retried with backoff; either way the job's row keeps the reason and the
 * translation shows pending once the job failed for good. A page whose
 * translation would not keep its markdown structure keeps its source text
 * (logged), rather than failing the run.
 *
 * DOCSD_TEST_TRANSLATE_PAUSE=before-write:MS or after-write:MS (tests only)
 * sleeps MS milliseconds just before the write transaction begins, or just
 * after it committed, after logging "translation <id>: pausing", so that a
 * test can kill the process at either point.
 */

/* Where a page's texts sit among the run's segments (-1: none). */
struct page_segs {
	int title, description, body, nbody;
	struct md_tr *md;
};

struct segs {
	const char **v;
	int n, cap;
	int64_t words;
};

static int seg_add(struct arena *a, struct segs *s, const char *text, int *at)
{
	if (s->n == s->cap) {
		int cap = s->cap ? 2 * s->cap : 256;
		const char **grown = arena_alloc(a, sizeof(*grown) * (size_t)cap);
		if (s->n)
			memcpy(grown, s->v, sizeof(*grown) * (size_t)s->n);
		s->v = grown;
		s->cap = cap;
	}
	if (at)
		*at = s->n;
	s->v[s->n++] = text;
	s->words += md_tr_words(text);
	return 0;
}

/* A plain text (title, description) as one segment when worth translating. */
static int plain_add(struct arena *a, struct segs *s, const char *text, int *at)
{
	*at = -1;
	return text && md_tr_translatable(text, strlen(text)) ? seg_add(a, s, text, at) : 0;
}

/* Translate the pages the plan marks; their title, description and body_md
 * are set. *words: the words sent to the engine. */
static int translate_pages(struct arena *a, const struct tr_engine *engine, struct tr_run *run, int64_t *words)
{
	struct page_segs *ps = arena_alloc(a, sizeof(*ps) * (size_t)(run->npages + 1));
	struct segs s = { 0 };
	const char **out = NULL;
	int rc = 0;

	*words = 0;
	memset(ps, 0, sizeof(*ps) * (size_t)(run->npages + 1));
	for (int i = 0; i < run->npages && rc == 0; i++) {
		struct tr_run_page *p = &run->pages[i];

		ps[i].title = ps[i].description = ps[i].body = -1;
		if (!p->translate)
			continue;
		if ((rc = plain_add(a, &s, p->page.title, &ps[i].title)) ||
		    (rc = plain_add(a, &s, p->page.description, &ps[i].description)) || !p->markdown)
			continue;
		if ((rc = md_tr_parse(a, p->markdown, strlen(p->markdown), &ps[i].md)))
			break;
		ps[i].body = s.n;
		ps[i].nbody = md_tr_count(ps[i].md);
		for (int k = 0; k < ps[i].nbody && rc == 0; k++)
			rc = seg_add(a, &s, md_tr_segment(ps[i].md, k), NULL);
	}
	if (rc == 0 && s.n)
		rc = engine->ops->translate(engine, a, run->t.source_language, run->t.language, s.v, s.n, &out);
	for (int i = 0; i < run->npages && rc == 0; i++) {
		struct tr_run_page *p = &run->pages[i];

		if (ps[i].title >= 0)
			p->title = out[ps[i].title];
		if (ps[i].description >= 0)
			p->description = out[ps[i].description];
		if (!ps[i].md)
			continue;
		rc = md_tr_render(ps[i].md, ps[i].nbody ? out + ps[i].body : NULL, (char **)&p->body_md);
		if (rc == ERR_INVALID) {
			log_info("translation %s: page %s keeps its source text: %s", run->t.id, p->page.id, err_message());
			p->body_md = p->markdown;
			rc = 0;
		}
	}
	for (int i = 0; i < run->npages; i++)
		md_tr_free(ps[i].md);
	*words = s.words;
	return rc;
}

/* DOCSD_TEST_TRANSLATE_PAUSE (tests only): pause at `when`. */
static void test_pause(const char *translation_id, const char *when)
{
	const char *v = getenv("DOCSD_TEST_TRANSLATE_PAUSE");
	size_t k = strlen(when);
	long ms;

	if (!v || strncmp(v, when, k) != 0 || v[k] != ':' || (ms = strtol(v + k + 1, NULL, 10)) <= 0 || ms > 600000)
		return;
	log_info("translation %s: pausing %ld ms %s (DOCSD_TEST_TRANSLATE_PAUSE)", translation_id, ms, when);
	nanosleep(&(struct timespec){ ms / 1000, (ms % 1000) * 1000000 }, NULL);
}

int dom_translation_job_run(struct dom *d, struct dom_job *run)
{
	const struct server *srv = d->srv;
	const struct tr_engine *engine = srv ? srv->translator : NULL;
	struct tr_run plan;
	struct store_tx tx;
	struct dom step;
	int64_t start = clock_mono_ns(), words = 0, seconds;
	int rc;

	if (!engine)
		return err_set(ERR_PRECONDITION, "no translation engine is configured");
	if ((rc = store_tx_begin(run->store, &tx, 0, d->arena)))
		return rc;
	dom_init(&step, srv, &tx, d->arena, NULL);
	rc = dom_translation_plan(&step, run->job->subject, run->job->id, &plan);
	store_tx_rollback(&tx);
	if (rc == ERR_NOT_FOUND) {
		run->result = "{\"skipped\":\"the translation no longer exists\"}";
		return 0;
	}
	if (rc)
		return rc;
	if (plan.applied) {
		run->result = "{\"skipped\":\"already applied\"}";
		return 0;
	}
	/* The pair must still be there, even when no page changed: a run on a
	 * machine that lost it says so (for good) rather than "completed". */
	if ((rc = tr_engine_check_pair(engine, d->arena, plan.t.source_language, plan.t.language)))
		return rc == ERR_INVALID ? err_set(ERR_PRECONDITION, "%s", arena_strdup(d->arena, err_message())) : rc;
	if ((rc = translate_pages(d->arena, engine, &plan, &words)))
		return rc;
	test_pause(plan.t.id, "before-write");
	/* Whole seconds, rounded up: a run that did anything took some time. */
	seconds = (clock_mono_ns() - start + 999999999) / 1000000000;
	if ((rc = store_tx_begin(run->store, &tx, 1, d->arena)))
		return rc;
	dom_init(&step, srv, &tx, d->arena, NULL);
	if ((rc = dom_translation_apply(&step, &plan, words, seconds)) == 0)
		rc = store_tx_commit(&tx);
	else
		store_tx_rollback(&tx);
	if (rc)
		return rc;
	test_pause(plan.t.id, "after-write");
	run->result = arena_printf(d->arena, "{\"words\":%lld,\"seconds\":%lld}", (long long)words, (long long)seconds);
	return 0;
}
