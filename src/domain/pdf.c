/*
 * pdf.c - PDFs of a revision: the signed URL a getSpacePDF answers, and the
 * rendering (core/pdf.c) when that URL is fetched.
 *
 * A URL names /pdf/<space>.<revision>.<sel>.<sig>.pdf where sel is "all",
 * "<page>" (that page only) or "+<page>" (from that page on, in reading order).
 */
#include "domain/content.h"
#include "core/pdf.h"
#include "util/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	if (page && !(sel = arena_printf(d->arena, "%s%s", only ? "" : "+", page)))
		return err_set(ERR_INTERNAL, "out of memory");
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

	int rc;

	if (strncmp(url, "/files/", 7) != 0 || !(f = revision_file(pi->rv, url + 7)))
		return -1; /* not a file of the revision: its alt text is printed */
	if ((rc = store_blob_get(pi->d->tx, f->blob, &bytes, len, type))) {
		if (!pi->rc)
			pi->rc = rc == ERR_NOT_FOUND ? err_set(ERR_INTERNAL, "file bytes %s are missing", f->blob) : rc;
		return -1;
	}
	*data = bytes;
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
	struct pdf_page *pages = arena_alloc(d->arena, sizeof(*pages) * (size_t)(rv->npages + 1));
	int *stack = arena_alloc(d->arena, sizeof(int) * (size_t)(rv->npages + 1)), top = 0, started = !from;
	size_t k = 0;

	if (!pages || !stack)
		return err_set(ERR_INTERNAL, "out of memory");
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

int dom_pdf_render(struct dom *d, const char *name, unsigned char **data, size_t *len)
{
	char *copy = arena_strdup(d->arena, name), *parts[5], *save = NULL;
	const struct revision *rv;
	struct space s;
	struct pdf_page *pages = NULL;
	size_t n = 0;
	int np = 0, rc;

	if (!copy)
		return err_set(ERR_INTERNAL, "out of memory");
	for (char *t = strtok_r(copy, ".", &save); t && np < 5; t = strtok_r(NULL, ".", &save))
		parts[np++] = t;
	if (np != 5 || strcmp(parts[4], "pdf") != 0)
		return err_set(ERR_NOT_FOUND, "no such file");
	const char *what = arena_printf(d->arena, "%s.%s.%s", parts[0], parts[1], parts[2]);
	if (!what)
		return err_set(ERR_INTERNAL, "out of memory");
	if ((rc = dom_sig_check(d, what, parts[3])) || (rc = store_space_get(d->tx, parts[0], &s)) ||
	    (rc = store_revision_get(d->tx, parts[1], &rv)))
		return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "no such file") : rc;
	const char *page = strcmp(parts[2], "all") == 0 ? NULL : parts[2];
	int only = page && page[0] != '+';
	if (page && page[0] == '+')
		page++;
	if ((rc = pdf_collect(d, rv, page, only, &pages, &n)))
		return rc;
	char path[] = "/tmp/docsd-pdf-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return err_set(ERR_INTERNAL, "cannot make a temporary file");
	close(fd);
	struct pdf_images pi = { d, rv, 0 };
	if (pdf_render(path, s.title, pages, n, pdf_image, &pi) || pi.rc) {
		unlink(path);
		return pi.rc ? pi.rc : err_set(ERR_INTERNAL, "PDF rendering failed");
	}
	rc = slurp(d, path, data, len);
	unlink(path);
	return rc;
}

int dom_blob_get(struct dom *d, const char *name, unsigned char **data, size_t *len, const char **type)
{
	const char *dot = strchr(name, '.');
	char *hash;
	int rc;

	if (!dot)
		return err_set(ERR_NOT_FOUND, "no such file");
	if (!(hash = arena_strndup(d->arena, name, (size_t)(dot - name))))
		return err_set(ERR_INTERNAL, "out of memory");
	if ((rc = dom_sig_check(d, hash, dot + 1)) || (rc = store_blob_get(d->tx, hash, data, len, type)))
		return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "no such file") : rc;
	return 0;
}
