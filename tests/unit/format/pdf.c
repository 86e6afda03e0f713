/* PDF rendering: real files checked with poppler's pdftotext / pdfinfo / pdfimages when installed */
#include "format/pdf.h"
#include "unit.h"
#include "util/err.h"

#include <cairo.h>
#include <stdlib.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
/*
 * fontconfig keeps an FcPattern's elements behind offset-encoded pointers that
 * LeakSanitizer cannot follow, so the patterns pango's and cairo's font caches
 * hold until exit read as leaks. The same rule as tests/unit/lsan.supp, built in
 * so `unit-tests` passes under ASan without LSAN_OPTIONS.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libfontconfig.so\n";
}
#endif

struct images {
	unsigned char *png;
	size_t png_len;
	int calls;
};

static const unsigned char bad_png[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13,
					 'I',  'H', 'D', 'R', 0,    0,    0,    4,    0, 0, 0, 4,
					 8,    6,   0,   0,   0,    'j',  'u',  'n',  'k' };
static const unsigned char jpeg[] = { 0xff, 0xd8, 0xff, 0xe0, 0, 16, 'J', 'F', 'I', 'F', 0 };

static cairo_status_t png_append(void *closure, const unsigned char *data, unsigned int n)
{
	struct images *im = closure;
	unsigned char *nb = realloc(im->png, im->png_len + n);

	if (!nb)
		return CAIRO_STATUS_NO_MEMORY;
	memcpy(nb + im->png_len, data, n);
	im->png = nb;
	im->png_len += n;
	return CAIRO_STATUS_SUCCESS;
}

/* A 40x30 PNG: red with a blue square. */
static int make_png(struct images *im)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 40, 30);
	cairo_t *cr = cairo_create(s);
	cairo_status_t st;

	cairo_set_source_rgb(cr, 1, 0, 0);
	cairo_paint(cr);
	cairo_set_source_rgb(cr, 0, 0, 1);
	cairo_rectangle(cr, 10, 10, 10, 10);
	cairo_fill(cr);
	st = cairo_status(cr);
	cairo_destroy(cr);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_write_to_png_stream(s, png_append, im);
	cairo_surface_destroy(s);
	return st == CAIRO_STATUS_SUCCESS ? 0 : -1;
}

static int image_lookup(void *ctx, const char *url, const unsigned char **data, size_t *len,
			const char **content_type)
{
	struct images *im = ctx;

	im->calls++;
	if (strcmp(url, "/files/logo") == 0) {
		*data = im->png;
		*len = im->png_len;
		*content_type = "image/png";
		return 0;
	}
	if (strcmp(url, "/files/broken") == 0) {
		*data = bad_png;
		*len = sizeof(bad_png);
		*content_type = "image/png";
		return 0;
	}
	if (strcmp(url, "/files/photo") == 0) {
		*data = jpeg;
		*len = sizeof(jpeg);
		*content_type = "image/jpeg";
		return 0;
	}
	return -5;
}

static void tmp_pdf(char path[64])
{
	int fd;

	snprintf(path, 64, "/tmp/docsd-pdf-XXXXXX");
	fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
}

static int starts_with_pdf(const char *path)
{
	char head[5] = { 0 };
	FILE *f = fopen(path, "rb");
	size_t got;

	if (!f)
		return 0;
	got = fread(head, 1, sizeof(head), f);
	fclose(f);
	return got == sizeof(head) && memcmp(head, "%PDF-", 5) == 0;
}

static int have_tool(const char *name)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", name);
	return system(cmd) == 0;
}

/* The whole output of a shell command, NUL-terminated; caller frees. */
static char *run(const char *cmd)
{
	FILE *f = popen(cmd, "r");
	char *out = NULL;
	size_t len = 0, cap = 0, got;

	if (!f)
		return NULL;
	do {
		if (cap - len < 4096) {
			char *nb = realloc(out, cap + 65536);

			if (!nb)
				break;
			out = nb;
			cap += 65536;
		}
		got = fread(out + len, 1, cap - len - 1, f);
		len += got;
	} while (got > 0);
	pclose(f);
	if (out)
		out[len] = '\0';
	return out;
}

static char *pdf_text(const char *path)
{
	char cmd[160];

	snprintf(cmd, sizeof(cmd), "pdftotext -enc UTF-8 %s - 2>/dev/null", path);
	return run(cmd);
}

/* Pages as pdfinfo counts them, else pdftotext's form feeds; -1 without either tool. */
static int pdf_pages(const char *path)
{
	char cmd[160];
	char *out, *at;
	int pages = -1;

	if (have_tool("pdfinfo")) {
		snprintf(cmd, sizeof(cmd), "pdfinfo %s 2>/dev/null", path);
		out = run(cmd);
		if (out && (at = strstr(out, "Pages:")))
			pages = atoi(at + 6);
		free(out);
	} else if (have_tool("pdftotext")) {
		out = pdf_text(path);
		pages = 0;
		for (at = out; at && *at; at++)
			pages += *at == '\f';
		free(out);
	}
	return pages;
}

static const char *page_one =
	"# Getting started\n"
	"\n"
	"Welcome to **docsd**, the _fast_ documentation server with `inline code`, ~~old~~ and a "
	"[link](https://example.com) & <angle> characters.\n"
	"\n"
	"- first bullet\n"
	"- second bullet\n"
	"  1. nested one\n"
	"  2. nested two\n"
	"- [x] finished task\n"
	"- [ ] open task\n"
	"\n"
	"> quoted wisdom\n"
	"\n"
	"```c\n"
	"int main(void) { return frobnicate(42); }\n"
	"```\n"
	"\n"
	"---\n"
	"\n"
	"| Name | Value |\n"
	"|------|-------|\n"
	"| alpha | 17 |\n"
	"| beta | **42** |\n"
	"\n"
	"![the logo](/files/logo)\n";

static const char *page_two =
	"## Configuration\n"
	"\n"
	"Set the port in docsd.conf.\n"
	"\n"
	"    indented code block\n"
	"\n"
	"![broken diagram](/files/broken) and ![holiday photo](/files/photo) and ![lost](/files/none)\n";

UNIT_TEST(pdf_renders_headings_lists_code_tables_and_images)
{
	struct images im = { 0 };
	struct pdf_page pages[] = {
		{ "Introduction", page_one, 0 },
		{ "Setup & <Install>", page_two, 1 },
	};
	char path[64];

	CHECK(make_png(&im) == 0);
	tmp_pdf(path);
	CHECK(pdf_render(path, "Handbook", pages, 2, image_lookup, &im) == 0);
	CHECK(starts_with_pdf(path));
	CHECK(im.calls == 4);
	if (have_tool("pdftotext")) {
		char *text = pdf_text(path);
		static const char *const want[] = {
			"Handbook", "Introduction", "Getting started", "Welcome to", "docsd", "fast",
			"inline code", "old", "link", "<angle> characters", "first bullet",
			"second bullet", "nested one", "nested two", "finished task", "open task",
			"quoted wisdom", "frobnicate(42)", "Name", "Value", "alpha", "17", "beta", "42",
			"Setup & <Install>", "Configuration", "docsd.conf", "indented code block",
			"[image: broken diagram]", "[image: holiday photo]", "[image: lost]",
		};

		CHECK(text != NULL);
		for (size_t i = 0; text && i < sizeof(want) / sizeof(want[0]); i++) {
			if (!strstr(text, want[i])) {
				fprintf(stderr, "  missing from PDF text: %s\n", want[i]);
				CHECK(strstr(text, want[i]) != NULL);
			}
		}
		CHECK(text && !strstr(text, "the logo")); /* the decoded PNG is drawn, not its alt text */
		CHECK(text && !strstr(text, "<b>"));
		free(text);
	}
	if (have_tool("pdfimages")) {
		char cmd[160], *out;

		snprintf(cmd, sizeof(cmd), "pdfimages -list %s 2>/dev/null", path);
		out = run(cmd);
		CHECK(out && strstr(out, " 40 ") && strstr(out, " 30 ")); /* one 40x30 image */
		free(out);
	}
	unlink(path);
	free(im.png);
}

UNIT_TEST(pdf_long_page_breaks_onto_more_pages)
{
	char *buf;
	size_t cap = 300 * 120 + 1, len = 0;
	struct pdf_page page = { "Long", NULL, 0 };
	char path[64];
	int pages;

	buf = malloc(cap);
	CHECK(buf != NULL);
	if (!buf)
		return;
	for (int i = 0; i < 300; i++)
		len += (size_t)snprintf(buf + len, cap - len, "Paragraph %d says something worth reading.\n\n", i);
	page.markdown = buf;
	tmp_pdf(path);
	CHECK(pdf_render(path, "Long document", &page, 1, NULL, NULL) == 0);
	CHECK(starts_with_pdf(path));
	pages = pdf_pages(path);
	if (pages >= 0)
		CHECK(pages > 2); /* the title page and at least two for the body */
	if (have_tool("pdftotext")) {
		char *text = pdf_text(path);

		CHECK(text && strstr(text, "Paragraph 0 says"));
		CHECK(text && strstr(text, "Paragraph 299 says"));
		free(text);
	}
	unlink(path);
	free(buf);
}

/* Appends s n times. */
static size_t repeat(char *buf, size_t len, const char *s, int n)
{
	size_t sl = strlen(s);

	for (int i = 0; i < n; i++, len += sl)
		memcpy(buf + len, s, sl);
	buf[len] = '\0';
	return len;
}

UNIT_TEST(pdf_survives_junk_deep_nesting_and_huge_lines)
{
	enum { JUNK = 20000, BIG = 400000 };
	struct images im = { 0 };
	char *junk = malloc(JUNK + 1), *deep = malloc(BIG), *wide = malloc(BIG);
	struct pdf_page pages[8];
	unsigned int seed = 12345;
	size_t len = 0;
	char path[64];

	CHECK(junk && deep && wide);
	if (!junk || !deep || !wide)
		goto done;
	for (int i = 0; i < JUNK; i++) {
		seed = seed * 1103515245u + 12345u;
		junk[i] = (char)(1 + (seed >> 16) % 255); /* any byte but NUL */
	}
	junk[JUNK] = '\0';

	len = repeat(deep, 0, ">", 3000);
	len = repeat(deep, len, " x\n\n", 1);
	for (int i = 0; i < 200; i++) {
		len = repeat(deep, len, "  ", i);
		len = repeat(deep, len, "- item\n", 1);
	}
	len = repeat(deep, len, "\n", 1);
	len = repeat(deep, len, "*_", 3000);
	len = repeat(deep, len, "deep", 1);
	len = repeat(deep, len, "_*", 3000);
	len = repeat(deep, len, "\n\n", 1);
	len = repeat(deep, len, "[", 5000);
	len = repeat(deep, len, "\n\n![a ![b ![c](/files/logo)](/files/broken)](/files/logo)\n\n", 1);
	len = repeat(deep, len, "- ![in a list](/files/logo)\n-\n- > ```\n  > code\n\n", 1);

	len = repeat(wide, 0, "word", 20000);
	len = repeat(wide, len, "\n\n```\n", 1);
	len = repeat(wide, len, "x", 30000);
	len = repeat(wide, len, "\n```\n\n|", 1);
	len = repeat(wide, len, " h |", 100);
	len = repeat(wide, len, "\n|", 1);
	len = repeat(wide, len, "---|", 100);
	len = repeat(wide, len, "\n|", 1);
	len = repeat(wide, len, " c |", 100);
	len = repeat(wide, len, "\n\n| a | b |\n|---|---|\n| ", 1);
	len = repeat(wide, len, "tall ", 9000);
	len = repeat(wide, len, "| short |\n", 1);

	CHECK(make_png(&im) == 0);
	pages[0] = (struct pdf_page){ "Junk", junk, 0 };
	pages[1] = (struct pdf_page){ "Deep", deep, 3 };
	pages[2] = (struct pdf_page){ "Wide", wide, -7 };
	pages[3] = (struct pdf_page){ NULL, NULL, 99 };
	pages[4] = (struct pdf_page){ "", "", 0 };
	pages[5] = (struct pdf_page){ "\xff\xfe bad \xc3 utf-8", "\xff\xfe **bad** \xc3", 1 };
	pages[6] = (struct pdf_page){ "Tabs", "\t\tx\n\n<div>\nhtml <b>\n</div>\n\n***", 0 };
	pages[7] = (struct pdf_page){ "Empty list", "-\n-\n\n1.\n\n- [ ]", 0 };
	tmp_pdf(path);
	CHECK(pdf_render(path, "\xc0junk title", pages, 8, image_lookup, &im) == 0);
	CHECK(starts_with_pdf(path));
	if (have_tool("pdftotext")) {
		char *text = pdf_text(path);

		CHECK(text && strstr(text, "Tabs"));
		CHECK(text && strstr(text, "short"));
		free(text);
	}
	unlink(path);

	tmp_pdf(path);
	CHECK(pdf_render(path, NULL, NULL, 0, NULL, NULL) == 0);
	CHECK(starts_with_pdf(path));
	unlink(path);
done:
	free(junk);
	free(deep);
	free(wide);
	free(im.png);
}

UNIT_TEST(pdf_unwritable_path_fails_without_a_file)
{
	struct pdf_page page = { "T", "text", 0 };

	CHECK(pdf_render("/nonexistent-docsd-dir/out.pdf", "T", &page, 1, NULL, NULL) == ERR_INTERNAL);
	CHECK(access("/nonexistent-docsd-dir/out.pdf", F_OK) != 0);
	CHECK(pdf_render(NULL, "T", &page, 1, NULL, NULL) == ERR_INVALID);
}
