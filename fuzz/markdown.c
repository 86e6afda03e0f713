/*
 * markdown.c - libFuzzer target for markdown analysis (format/markdown.h,
 * format/gitbook_tags.h): any bytes as a page's markdown are read every way
 * docsd reads a page - document form, sections, links, title, front matter,
 * plain text and plain meaning, link rewriting - and scanned for GitBook's
 * tags.
 *
 * Checked: the document form is one JSON object; returned strings are valid
 * UTF-8 where the header promises it (md_plain_meaning, a copy, when the page
 * is); md_rewrite_links and
 * md_rewrite_html_urls with a map that changes nothing give the page back
 * byte for byte; the tag scan finds tags inside the text, in order, each
 * with its name inside it. `make fuzz` builds it.
 */
#include "format/gitbook_tags.h"
#include "format/markdown.h"
#include "json/jsonw.h"
#include "util/arena.h"
#include "util/text.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *keep(void *ctx, const char *target)
{
	(void)ctx;
	(void)target;
	return NULL;
}

/* abort() naming the check (the optimizer merges abort calls). */
#define CHECK(c) ((c) ? (void)0 : (fprintf(stderr, "markdown.c:%d: %s\n", __LINE__, #c), abort()))

#define utf8_ok(s) utf8_ok_at(s, __LINE__)
static void utf8_ok_at(const char *s, int line)
{
	if (s && utf8_len(s) < 0) {
		fprintf(stderr, "markdown.c:%d: invalid UTF-8\n", line);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *md = (const char *)data;
	struct arena a;
	struct jw w;
	struct md_section *sec;
	struct md_link *links;
	struct md_front fm;
	size_t n, from = 0;
	struct gb_tag t;
	char *s;

	if (size > 256 * 1024)
		return 0;
	arena_init(&a);
	jw_init(&w);
	if (md_to_document(&w, md, size) == 0) {
		json_t *doc = json_loadb(w.buf, w.len, 0, NULL);
		CHECK(!(!json_is_object(doc)));
		json_decref(doc);
	}
	jw_free(&w);
	if (md_sections(&a, md, size, &sec, &n) == 0)
		for (size_t i = 0; i < n; i++) {
			utf8_ok(sec[i].id);
			utf8_ok(sec[i].title);
			utf8_ok(sec[i].body);
		}
	if (md_links(&a, md, size, &links, &n) == 0)
		for (size_t i = 0; i < n; i++)
			CHECK(!(!links[i].target || links[i].line < 1));
	utf8_ok(md_title(&a, md, size));
	CHECK(!(md_frontmatter(&a, md, size, &fm) == 0 && fm.body > size));
	utf8_ok(md_plain_text(&a, md, size));
	/* md_plain_meaning copies the source's bytes (as md_rewrite_links):
	 * valid UTF-8 in, valid UTF-8 out (stored pages are valid UTF-8). */
	s = md_plain_meaning(&a, md, size);
	if (strnlen(md, size) == size && utf8_len(arena_strndup(&a, md, size)) >= 0)
		utf8_ok(s);
	s = md_rewrite_links(&a, md, size, keep, NULL);
	CHECK(!(s && (strlen(s) != strnlen(md, size) || memcmp(s, md, strlen(s)) != 0))); /* nothing mapped, yet the page changed */
	s = md_rewrite_html_urls(&a, md, size, keep, NULL);
	CHECK(!(s && (strlen(s) != strnlen(md, size) || memcmp(s, md, strlen(s)) != 0)));
	while (gb_tag_next(md, size, from, GB_TAG_BLOCK | GB_TAG_VAR, &t)) {
		CHECK(!(t.start < from || t.end <= t.start || t.end > size));
		CHECK(!(t.name_len && (t.name < md + t.start || t.name + t.name_len > md + t.end)));
		if (t.kind == GB_TAG_BLOCK) {
			struct gb_tag u;
			CHECK(!(!gb_tag_at(md, size, t.start, &u) || u.end != t.end));
			(void)gb_tag_arg(&a, &t, "style");
		}
		from = t.end;
	}
	arena_free(&a);
	return 0;
}
