/*
 * api_blocks.c - GitBook's API blocks inside a page, shown as the site's
 * API reference shows an operation (site.h).
 *
 *   {% openapi src="https://…/openapi.json" path="/pets" method="get" %}
 *   [https://…/openapi.json](https://…/openapi.json)
 *   {% endopenapi %}
 *   {% openapi-operation spec="petstore" path="/pets" method="get" %} … {% endopenapi-operation %}
 *   {% swagger src="…" path="/pets" method="get" %} … {% endswagger %}
 *
 * Each block (a tag on a line of its own, up to its end tag, or to the end
 * of the page) is replaced by the operation's markdown from the latest
 * version of the organization's spec named by spec= (its slug) or src= (its
 * source URL) (domain/openapi.h dom_openapi_block_markdown). A swagger block
 * written by hand (no src) is left as it is: its inner tags show their
 * content. Fenced code is code.
 */
#include "site/site.h"

#include "domain/openapi.h"
#include "format/gitbook_tags.h"
#include "util/err.h"

#include <string.h>

static size_t fence_of(const char *line, size_t n, char *ch)
{
	size_t i = 0, k;

	while (i < n && i < 3 && line[i] == ' ')
		i++;
	if (i >= n || (line[i] != '`' && line[i] != '~'))
		return 0;
	for (k = i; k < n && line[k] == line[i]; k++)
		;
	if (k - i < 3)
		return 0;
	*ch = line[i];
	return k - i;
}

/* The API tag alone on line[0..n): its end tag's name (endopenapi...), or NULL. */
static const char *api_tag(struct arena *a, const char *line, size_t n, struct gb_tag *t)
{
	size_t i = 0;

	while (i < n && (line[i] == ' ' || line[i] == '\t'))
		i++;
	if (!gb_tag_at(line, n, i, t))
		return NULL;
	for (size_t k = t->end; k < n; k++)
		if (line[k] != ' ' && line[k] != '\t' && line[k] != '\r')
			return NULL;
	if (t->name_len == 7 && !memcmp(t->name, "openapi", 7))
		return "endopenapi";
	if (t->name_len == 17 && !memcmp(t->name, "openapi-operation", 17))
		return "endopenapi-operation";
	if (t->name_len == 7 && !memcmp(t->name, "swagger", 7) && gb_tag_arg(a, t, "src"))
		return "endswagger";
	return NULL;
}

int site_api_blocks(struct dom *d, const char *org_id, struct arena *a, const char *md, const char **out)
{
	const char *p = md, *end = md + strlen(md), *endtag = NULL;
	size_t fence = 0;
	char fch = 0;
	struct jw b;
	int rc = 0;

	*out = md;
	if (!strstr(md, "{% openapi") && !strstr(md, "{% swagger"))
		return 0;
	jw_init(&b);
	while (p < end && !rc) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = (size_t)((nl ? nl : end) - p), fl;
		char c;
		struct gb_tag t;
		fl = fence_of(p, ll, &c);
		if (endtag) {
			/* Inside a replaced block: skip to its end tag. */
			if (gb_tag_next(p, ll, 0, GB_TAG_BLOCK, &t) && t.name_len == strlen(endtag) &&
			    !memcmp(t.name, endtag, t.name_len))
				endtag = NULL;
		} else if (fence) {
			if (fl >= fence && c == fch)
				fence = 0;
			jw_put(&b, p, ll + (nl != NULL));
		} else if (fl) {
			fence = fl;
			fch = c;
			jw_put(&b, p, ll + (nl != NULL));
		} else if ((endtag = api_tag(a, p, ll, &t))) {
			const char *op;
			rc = dom_openapi_block_markdown(d, org_id, gb_tag_arg(a, &t, "spec"), gb_tag_arg(a, &t, "src"),
							gb_tag_arg(a, &t, "path"), gb_tag_arg(a, &t, "method"), &op);
			if (!rc) {
				jw_put(&b, "\n", 1);
				if (*op)
					jw_put(&b, op, strlen(op));
				jw_put(&b, "\n", 1);
			}
		} else {
			jw_put(&b, p, ll + (nl != NULL));
		}
		p = nl ? nl + 1 : end;
	}
	if (!rc && jw_ok(&b))
		*out = arena_strndup(a, b.buf ? b.buf : "", b.len);
	else if (!rc)
		rc = err_set(ERR_INTERNAL, "page too large");
	jw_free(&b);
	return rc;
}
