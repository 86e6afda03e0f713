/*
 * pdf.c - PDFs of a revision: the signed URL a getSpacePDF answers, and the
 * rendering (format/pdf.c) when that URL is fetched.
 *
 * A URL names /pdf/<space>.<revision>.<sel>.<expires>.<sig>.pdf where sel is
 * "all", "<page>" (that page only) or "+<page>" (from that page on, in reading
 * order); content.h says how URLs are signed and when they stop.
 *
 * Rendering 50 pages takes seconds, so a PDF is rendered once per revision,
 * selection and space title and kept in the server's PDF cache (struct
 * pdfcache, below: bounded in bytes, least recently used first out), and at
 * most cfg.pdf_renders PDFs render at once; a fetch that finds every turn
 * taken waits up to cfg.pdf_wait_ms, then answers 503. Each render logs one
 * line ("pdf rendered: ...") with its start and end times.
 */
#include "domain/content.h"
#include "domain/sites.h"
#include "format/pdf.h"
#include "model/adaptive.h"
#include "util/alloc.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"
#include "util/lru.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int dom_pdf_link(struct dom *d, const char *space_id, const char *cr_key, const char *page, bool only,
		 const char **url)
{
	struct content_src src;
	const char *sel = NULL;
	int rc = dom_content_source(d, space_id, cr_key, NULL, ROLE_READ, &src);

	if (rc)
		return rc;
	if (page && !revision_page(src.rv, page))
		return err_set(ERR_INVALID, "page: no such page");
	if (only && !page)
		return err_set(ERR_INVALID, "page: required when only is true");
	/* Without only, the PDF starts at the page and holds what follows it. */
	if (page)
		sel = arena_printf(d->arena, "%s%s", only ? "" : "+", page);
	return dom_pdf_url(d, src.space.id, src.rv->id, sel, url);
}

struct pdf_images {
	struct dom *d;
	const struct revision *rv;
	int rc; /* the first store error: the PDF is not answered without its images */
};

static int pdf_image(void *ctx, const char *url, const unsigned char **data, size_t *len, const char **type)
{
	struct pdf_images *pi = ctx;
	const struct rev_file *f;
	unsigned char *bytes;
	const char *blob_type;
	int rc;

	if (strncmp(url, "/files/", 7) != 0 || !(f = revision_file(pi->rv, url + 7)))
		return -1; /* not a file of the revision: its alt text is printed */
	if ((rc = store_blob_get(pi->d->tx, f->blob, &bytes, len, &blob_type))) {
		if (!pi->rc)
			pi->rc = rc == ERR_NOT_FOUND ? err_set(ERR_INTERNAL, "file bytes %s are missing", f->blob) : rc;
		return -1;
	}
	*data = bytes;
	*type = f->content_type;
	return 0;
}

static void reverse(int *a, int lo, int hi)
{
	for (; lo < hi; lo++, hi--) {
		int t = a[lo];
		a[lo] = a[hi];
		a[hi] = t;
	}
}

/* Pages in reading order from `from` (NULL: all); only: just that page. */
static int pdf_collect(struct dom *d, const struct revision *rv, const char *from, int only, struct pdf_page **out,
		       size_t *n)
{
	struct pdf_page *pages;
	int *stack, top = 0, started = !from, rc0;
	size_t k = 0;

	/* Pages a condition ("if:") hides from an anonymous visitor are not
	 * printed either (see below). */
	if ((rc0 = dom_site_visit_visible(d, rv, NULL, &rv)))
		return rc0;
	pages = arena_alloc(d->arena, sizeof(*pages) * (size_t)(rv->npages + 1));
	stack = arena_alloc(d->arena, sizeof(int) * (size_t)(rv->npages + 1));

	/* Preorder walk; push siblings in reverse so the first comes out first. */
	for (int c = rv->first_root; c >= 0; c = rv->pages[c].next_sibling)
		stack[top++] = c;
	reverse(stack, 0, top - 1);
	while (top > 0) {
		const struct rev_page *p = &rv->pages[stack[--top]];
		const char *md = "";
		int mark = top, rc;
		for (int c = p->first_child; c >= 0; c = rv->pages[c].next_sibling)
			stack[top++] = c;
		reverse(stack, mark, top - 1);
		if (!started && strcmp(p->id, from) == 0)
			started = 1;
		if (!started || p->type == PAGE_LINK)
			continue;
		if (p->type == PAGE_DOCUMENT && (rc = store_body_get(d->tx, p->body, &md)))
			return rc == ERR_NOT_FOUND ? err_set(ERR_INTERNAL, "page body %s is missing", p->body) : rc;
		/* A PDF's signed URL can be passed on to anyone, so it holds what
		 * an anonymous visitor of a published site reads: {% if %} blocks
		 * decided with no claims (model/adaptive.h). */
		if (adapt_present(md, strlen(md))) {
			struct adapt_ctx ac = { 0 };
			json_t *vars = p->vars ? json_loads(p->vars, 0, NULL) : NULL;
			size_t ml;
			ac.page_vars = vars;
			md = adapt_markdown(d->arena, md, strlen(md), &ac, &ml);
			json_decref(vars);
		}
		pages[k++] = (struct pdf_page){ .title = p->title, .markdown = md, .depth = p->depth };
		if (only)
			break;
	}
	*out = pages;
	*n = k;
	return 0;
}

/* Read a whole file into the arena. */
static int slurp(struct dom *d, const char *path, unsigned char **data, size_t *len)
{
	FILE *f = fopen(path, "rb");
	long n = -1;

	*data = NULL;
	if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (*data = arena_alloc(d->arena, (size_t)n + 1)) && fread(*data, 1, (size_t)n, f) != (size_t)n)
		*data = NULL;
	if (f)
		fclose(f);
	if (!*data)
		return err_set(ERR_INTERNAL, "reading the rendered PDF failed");
	*len = (size_t)n;
	return 0;
}

/* docsd's own PDFs (no script in them) are shown inline; their policy has
 * no `sandbox`, which keeps Chromium from showing a PDF at all. */
static const char pdf_csp[] = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; object-src 'self'";

/* Collect and render the selection of t's revision into the arena. */
static int render(struct dom *d, const struct signed_target *t, unsigned char **data, size_t *len)
{
	const char *page = strcmp(t->what, "all") == 0 ? NULL : t->what;
	int only = page && page[0] != '+', rc;
	struct pdf_page *pages = NULL;
	size_t n = 0;
	char path[] = "/tmp/docsd-pdf-XXXXXX";
	int64_t started = clock_now_ms();

	if (page && page[0] == '+')
		page++;
	if ((rc = pdf_collect(d, t->rv, page, only, &pages, &n)))
		return rc;
	int fd = mkstemp(path);
	if (fd < 0)
		return err_set(ERR_INTERNAL, "cannot make a temporary file");
	close(fd);
	struct pdf_images pi = { d, t->rv, 0 };
	if (pdf_render(path, t->space.title, pages, n, pdf_image, &pi) || pi.rc) {
		unlink(path);
		return pi.rc ? pi.rc : err_set(ERR_INTERNAL, "PDF rendering failed");
	}
	rc = slurp(d, path, data, len);
	unlink(path);
	if (!rc)
		log_info("pdf rendered: revision %s, selection %s, %zu pages, %zu bytes, started_ms %lld, ended_ms %lld",
			 t->rv->id, t->what, n, *len, (long long)started, (long long)clock_now_ms());
	return rc;
}

int dom_pdf_render(struct dom *d, const char *name, struct dom_download *out)
{
	struct pdfcache *cache = d->srv ? d->srv->pdfs : NULL;
	struct signed_target t;
	unsigned char *data = NULL;
	const char *key;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = dom_signed_open(d, "pdf", name, ".pdf", &t)))
		return rc;
	if (strcmp(t.what, "all") != 0 && !revision_page(t.rv, t.what[0] == '+' ? t.what + 1 : t.what))
		return err_set(ERR_NOT_FOUND, "no such file, or its link has expired");
	out->content_type = "application/pdf";
	out->disposition = "inline";
	out->csp = pdf_csp;
	out->max_age = t.expires - clock_now_ms() / 1000;
	/* A revision never changes: its PDF is rendered once per selection (and
	 * space title, which the title page prints). */
	key = arena_printf(d->arena, "%s.%s\n%s", t.rv->id, t.what, t.space.title ? t.space.title : "");
	if (cache) {
		rc = pdfcache_begin(cache, key, d->arena, &out->data, &out->len);
		if (rc < 0)
			return rc;
		if (rc == 1) {
			out->cached = true;
			return 0;
		}
	}
	rc = render(d, &t, &data, &out->len);
	if (cache)
		pdfcache_end(cache, key, rc ? NULL : data, out->len);
	out->data = data;
	return rc;
}

/* ---- the PDF cache ----
 *
 * A list of entries in recency order (most recent first) under one mutex,
 * bounded in bytes; and the renders in flight, one key each, at most
 * max_renders. A caller that misses takes a turn (waiting on the condition
 * variable for one, up to wait_ms), renders without the mutex, and hands the
 * bytes back with pdfcache_end(), which caches them and wakes the waiters;
 * a caller that finds its key in flight waits for that render instead of
 * starting its own. */
struct pdf_entry {
	char *key;
	unsigned char *data;
	size_t len;
	struct lru_node lru; /* cost: len + strlen(key) */
};

struct pdfcache {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int max_renders, wait_ms;
	struct lru lru;       /* util/lru.h: the budget and the recency */
	char **inflight;      /* max_renders keys, NULL when free */
	int rendering, peak;
	int64_t entries, hits, renders, rejected;
};

int pdfcache_new(struct pdfcache **out, size_t max_bytes, int max_renders, int wait_ms)
{
	struct pdfcache *c = xcalloc(1, sizeof(*c));
	pthread_condattr_t ca;

	*out = NULL;
	if (max_renders < 1)
		max_renders = 1;
	c->inflight = xcalloc((size_t)max_renders, sizeof(char *));
	if (pthread_condattr_init(&ca) || pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) ||
	    pthread_cond_init(&c->cv, &ca)) {
		free(c->inflight);
		free(c);
		return err_set(ERR_INTERNAL, "cannot create the PDF cache's condition variable");
	}
	pthread_condattr_destroy(&ca);
	if (pthread_mutex_init(&c->mu, NULL)) {
		pthread_cond_destroy(&c->cv);
		free(c->inflight);
		free(c);
		return err_set(ERR_INTERNAL, "cannot create the PDF cache's mutex");
	}
	lru_init(&c->lru, max_bytes);
	c->max_renders = max_renders;
	c->wait_ms = wait_ms < 0 ? 0 : wait_ms;
	*out = c;
	return 0;
}

static void entry_free(struct pdf_entry *e)
{
	free(e->key);
	free(e->data);
	free(e);
}

void pdfcache_free(struct pdfcache *c)
{
	if (!c)
		return;
	for (struct lru_node *n; (n = lru_oldest(&c->lru));) {
		lru_remove(&c->lru, n);
		entry_free(LRU_ENTRY(n, struct pdf_entry, lru));
	}
	for (int i = 0; i < c->max_renders; i++)
		free(c->inflight[i]);
	free(c->inflight);
	pthread_cond_destroy(&c->cv);
	pthread_mutex_destroy(&c->mu);
	free(c);
}

void pdfcache_stats(struct pdfcache *c, struct pdfcache_stats *out)
{
	pthread_mutex_lock(&c->mu);
	*out = (struct pdfcache_stats){ .bytes = c->lru.bytes, .entries = c->entries, .hits = c->hits,
					.renders = c->renders, .rejected = c->rejected, .rendering = c->rendering,
					.peak = c->peak };
	pthread_mutex_unlock(&c->mu);
}

static struct pdf_entry *find(struct pdfcache *c, const char *key)
{
	for (struct lru_node *n = lru_newest(&c->lru); n; n = lru_older(&c->lru, n)) {
		struct pdf_entry *e = LRU_ENTRY(n, struct pdf_entry, lru);
		if (strcmp(e->key, key) == 0)
			return e;
	}
	return NULL;
}

static int in_flight(struct pdfcache *c, const char *key)
{
	for (int i = 0; i < c->max_renders; i++)
		if (c->inflight[i] && strcmp(c->inflight[i], key) == 0)
			return i;
	return -1;
}

int pdfcache_begin(struct pdfcache *c, const char *key, struct arena *a, const unsigned char **data, size_t *len)
{
	struct timespec until;
	struct pdf_entry *e;
	char *mine = xstrdup(key);
	int rc = 0;

	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += c->wait_ms / 1000;
	until.tv_nsec += (long)(c->wait_ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&c->mu);
	for (;;) {
		if ((e = find(c, key))) {
			unsigned char *copy = arena_alloc(a, e->len ? e->len : 1);
			memcpy(copy, e->data, e->len);
			*data = copy;
			*len = e->len;
			lru_touch(&c->lru, &e->lru);
			c->hits++;
			rc = 1;
			break;
		}
		/* Nobody renders this key and a turn is free: take it. */
		if (in_flight(c, key) < 0 && c->rendering < c->max_renders) {
			for (int i = 0; i < c->max_renders; i++)
				if (!c->inflight[i]) {
					c->inflight[i] = mine;
					mine = NULL;
					break;
				}
			if (++c->rendering > c->peak)
				c->peak = c->rendering;
			rc = 0;
			break;
		}
		if (pthread_cond_timedwait(&c->cv, &c->mu, &until) == ETIMEDOUT) {
			c->rejected++;
			rc = err_set(ERR_UNAVAILABLE, "too many PDFs are being rendered; try again in a moment");
			break;
		}
	}
	pthread_mutex_unlock(&c->mu);
	free(mine);
	return rc;
}

void pdfcache_end(struct pdfcache *c, const char *key, const unsigned char *data, size_t len)
{
	struct pdf_entry *e = NULL;
	int slot;

	/* Copied before the mutex: the bytes are the caller's arena's. */
	if (data && len + strlen(key) <= c->lru.max_bytes) {
		e = xcalloc(1, sizeof(*e));
		e->key = xstrdup(key);
		e->data = xmalloc(len ? len : 1);
		memcpy(e->data, data, len);
		e->len = len;
	}
	pthread_mutex_lock(&c->mu);
	if ((slot = in_flight(c, key)) >= 0) {
		free(c->inflight[slot]);
		c->inflight[slot] = NULL;
		c->rendering--;
	}
	if (data)
		c->renders++;
	if (e && !find(c, key)) {
		size_t bytes = e->len + strlen(e->key);
		struct lru_node *n;
		while (!lru_fits(&c->lru, bytes) && (n = lru_oldest(&c->lru))) {
			lru_remove(&c->lru, n);
			c->entries--;
			entry_free(LRU_ENTRY(n, struct pdf_entry, lru));
		}
		lru_push(&c->lru, &e->lru, bytes);
		c->entries++;
		e = NULL;
	}
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
	if (e)
		entry_free(e);
}
