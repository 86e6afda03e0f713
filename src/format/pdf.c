/*
 * pdf.c - markdown pages to PDF with cmark-gfm, pango and cairo.
 *
 * DESIGN
 * One struct pdf carries the cairo surface and context, the pango context and the
 * cursor: p->y is the top of the next line on the current page. Blocks are laid
 * out one at a time, top to bottom, by render_block() (recursive over the cmark
 * tree, at most MAX_BLOCK_DEPTH deep; deeper subtrees are flattened to plain text
 * by an iterator so no input can exhaust the stack).
 *
 * Every piece of text becomes a PangoLayout that draw_layout() paints line by
 * line, so a paragraph or code block longer than a page simply continues on the
 * next one; need() is the single place that decides on a page break. Three things
 * hang on the line painter:
 *   - code blocks pass a "band": each line paints its own background first, so a
 *     block split across pages gets a background on both;
 *   - block quotes push a bar onto p->bars; new_page() closes every open bar at
 *     the bottom of the page and reopens it at the top of the next;
 *   - list markers wait in p->markers until their item's first line (or image,
 *     rule, table row) is drawn, and are painted on that line's baseline.
 *
 * Inline content is turned into pango markup by walk_inlines() (an iterator, not
 * recursion), every literal through g_markup_escape_text(); styles nested deeper
 * than MAX_INLINE_DEPTH are not applied. The markup is checked with
 * pango_parse_markup(); should it ever be rejected the plain text is used.
 */
#include "format/pdf.h"
#include "format/markdown.h"
#include "util/err.h"

#include <cairo-pdf.h>
#include <cairo.h>
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <pango/pangocairo.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Geometry in PDF points (1/72 inch): A4 with 2 cm margins. */
#define PAGE_W 595.276
#define PAGE_H 841.89
#define MARGIN 56.7
#define TOP MARGIN
#define BOTTOM (PAGE_H - MARGIN)
#define CONTENT_H (BOTTOM - TOP)
#define CONTENT_W (PAGE_W - 2 * MARGIN)

#define BODY_SIZE 10.5
#define CODE_SIZE 9.0
#define LINE_H (BODY_SIZE * 1.3)
#define PARA_GAP 6.0
#define TIGHT_GAP 2.0
#define LIST_INDENT 20.0
#define QUOTE_INDENT 14.0
#define CODE_PAD 6.0
#define CELL_PAD 4.0
#define MIN_WIDTH 160.0 /* nested blocks stop indenting below this width */

#define MAX_BLOCK_DEPTH 40  /* deeper blocks are flattened to plain text */
#define MAX_INLINE_DEPTH 32 /* deeper inline styles are not applied */
#define MAX_MARKERS 8
#define MAX_TABLE_COLS 16 /* wider tables print each row as "a | b | c" */
#define LONG_RUN 48 /* a break opportunity after this many characters without a space */
#define MAX_IMAGE_SIDE 16384
#define MAX_IMAGE_PIXELS (16u * 1024 * 1024)
#define PX_TO_PT 0.75 /* images are laid out at 96 dpi */

#define FONT_SANS "DejaVu Sans"
#define FONT_MONO "DejaVu Sans Mono"
#define CODE_OPEN "<span font_family=\"" FONT_MONO "\" background=\"#ececec\">"
#define LINK_OPEN "<span foreground=\"#1a4f9c\" underline=\"single\">"

struct quote_bar {
	double x, top;
};

struct marker {
	char text[24];
	double right; /* the marker's right edge */
	double grey;
};

struct pdf {
	cairo_surface_t *surface;
	cairo_t *cr;
	PangoContext *pango;
	pdf_image_fn image;
	void *image_ctx;
	double y;       /* top of the next line on the current page */
	bool page_used; /* something was drawn on the current page */
	struct quote_bar bars[MAX_BLOCK_DEPTH + 1];
	int nbars;
	struct marker markers[MAX_MARKERS];
	int nmarkers;
};

/* Where a block goes and how its text looks. */
struct frame {
	double x, width;
	double grey;    /* text colour: 0 black .. 1 white */
	bool tight;     /* inside a tight list item */
	int list_level; /* picks the bullet */
};

struct text_style {
	double size;
	bool bold, mono;
};

/* Code blocks: each line paints this background band first. */
struct band {
	double x, width, pad, grey;
};

/* Pango markup being built for one run of inline content. */
struct inl {
	GString *markup;
	GString *plain; /* the same text without markup, the fallback */
	bool has_text;  /* non-blank text since the last flush */
	size_t run;     /* characters since the last space (see breakable()) */
	int depth;      /* open inline containers */
	const char *open[MAX_INLINE_DEPTH];
	const char *close[MAX_INLINE_DEPTH];
};

static int render_block(struct pdf *p, cmark_node *n, const struct frame *f, int depth);

/* ---- cairo state and pages ---- */

static int cairo_failed(struct pdf *p)
{
	cairo_status_t st = cairo_status(p->cr);

	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(p->surface);
	if (st != CAIRO_STATUS_SUCCESS)
		return err_set(ERR_INTERNAL, "pdf: cairo: %s", cairo_status_to_string(st));
	return 0;
}

static void set_grey(struct pdf *p, double g)
{
	cairo_set_source_rgb(p->cr, g, g, g);
}

static void draw_bar(struct pdf *p, const struct quote_bar *b, double bottom)
{
	if (bottom <= b->top)
		return;
	set_grey(p, 0.75);
	cairo_rectangle(p->cr, b->x, b->top, 3.0, bottom - b->top);
	cairo_fill(p->cr);
}

/* Close the page (ending the open quote bars at the last line) and start the next. */
static int new_page(struct pdf *p)
{
	int rc;

	for (int i = 0; i < p->nbars; i++)
		draw_bar(p, &p->bars[i], p->y);
	cairo_show_page(p->cr);
	if ((rc = cairo_failed(p)))
		return rc;
	p->y = TOP;
	p->page_used = false;
	for (int i = 0; i < p->nbars; i++)
		p->bars[i].top = TOP;
	return 0;
}

/* Make room for h points: a new page unless they fit or the page is still empty. */
static int need(struct pdf *p, double h)
{
	if (p->y + h <= BOTTOM || !p->page_used)
		return 0;
	return new_page(p);
}

/* ---- text ---- */

/*
 * Append s to out with a zero-width space (a line-break opportunity that prints
 * nothing) before every LONG_RUN-th character of a run without white space:
 * pango's line breaking is quadratic in the length of an unbreakable run, and a
 * long enough one would stall the renderer. *run carries the count across calls.
 */
static void breakable(GString *out, const char *s, size_t *run)
{
	for (const char *c = s; *c; c = g_utf8_next_char(c)) {
		gunichar u = g_utf8_get_char(c);

		if (g_unichar_isspace(u)) {
			*run = 0;
		} else if (++*run > LONG_RUN) {
			g_string_append(out, "\u200b");
			*run = 1;
		}
		g_string_append_len(out, c, g_utf8_next_char(c) - c);
	}
}

static PangoLayout *layout_new(struct pdf *p, const struct text_style *s, double width)
{
	PangoLayout *l = pango_layout_new(p->pango);
	PangoFontDescription *fd = pango_font_description_new();

	pango_font_description_set_family(fd, s->mono ? FONT_MONO : FONT_SANS);
	pango_font_description_set_absolute_size(fd, s->size * PANGO_SCALE);
	if (s->bold)
		pango_font_description_set_weight(fd, PANGO_WEIGHT_BOLD);
	pango_layout_set_font_description(l, fd);
	pango_font_description_free(fd);
	if (width > 0) {
		pango_layout_set_width(l, (int)(width * PANGO_SCALE));
		pango_layout_set_wrap(l, PANGO_WRAP_WORD_CHAR);
	}
	return l;
}

/* Set checked markup on l, or the plain text should pango reject the markup. */
static void layout_set_markup(PangoLayout *l, const char *markup, const char *plain)
{
	PangoAttrList *attrs = NULL;
	char *text = NULL;
	GError *ge = NULL;

	if (pango_parse_markup(markup, -1, 0, &attrs, &text, NULL, &ge)) {
		pango_layout_set_text(l, text, -1);
		pango_layout_set_attributes(l, attrs);
		pango_attr_list_unref(attrs);
		g_free(text);
	} else {
		g_error_free(ge);
		pango_layout_set_text(l, plain, -1);
	}
}

/* Paint the waiting list markers on a line whose baseline is at y. */
static void draw_markers(struct pdf *p, double baseline)
{
	struct text_style s = { BODY_SIZE, false, false };

	for (int i = 0; i < p->nmarkers; i++) {
		const struct marker *m = &p->markers[i];
		PangoLayout *l = layout_new(p, &s, 0);
		PangoRectangle log;

		pango_layout_set_text(l, m->text, -1);
		pango_layout_get_extents(l, NULL, &log);
		set_grey(p, m->grey);
		cairo_move_to(p->cr, m->right - (double)log.width / PANGO_SCALE,
			      baseline - (double)pango_layout_get_baseline(l) / PANGO_SCALE);
		pango_cairo_show_layout(p->cr, l);
		g_object_unref(l);
	}
	p->nmarkers = 0;
}

/* The waiting markers on a line of their own: an item with nothing to show. */
static int draw_marker_line(struct pdf *p)
{
	int rc;

	if (!p->nmarkers)
		return 0;
	if ((rc = need(p, LINE_H)))
		return rc;
	draw_markers(p, p->y + BODY_SIZE);
	p->y += LINE_H;
	p->page_used = true;
	return cairo_failed(p);
}

/* Queue a marker for the next line; a full queue is drawn on a line of its own. */
static int push_marker(struct pdf *p, const char *text, double right, double grey)
{
	struct marker *m;
	int rc;

	if (p->nmarkers == MAX_MARKERS && (rc = draw_marker_line(p)))
		return rc;
	m = &p->markers[p->nmarkers++];
	snprintf(m->text, sizeof(m->text), "%s", text);
	m->right = right;
	m->grey = grey;
	return 0;
}

/*
 * Paint l's lines at x from p->y down, starting a new page before any line that
 * does not fit. band, when set, paints each line's background (plus its padding
 * above the first line and below the last) before the text.
 */
static int draw_layout(struct pdf *p, PangoLayout *l, double x, double grey, const struct band *band)
{
	PangoLayoutIter *it = pango_layout_get_iter(l);
	bool first = true;
	int rc = 0;

	do {
		PangoLayoutLine *line = pango_layout_iter_get_line_readonly(it);
		PangoRectangle logical, own;
		double h, above, below, baseline;

		pango_layout_iter_get_line_extents(it, NULL, &logical);
		pango_layout_line_get_extents(line, NULL, &own);
		h = (double)logical.height / PANGO_SCALE;
		above = band && first ? band->pad : 0;
		below = band && pango_layout_iter_at_last_line(it) ? band->pad : 0;
		if ((rc = need(p, above + h + below)))
			break;
		if (band) {
			set_grey(p, band->grey);
			cairo_rectangle(p->cr, band->x, p->y, band->width, above + h + below);
			cairo_fill(p->cr);
		}
		p->y += above;
		baseline = p->y + (double)(pango_layout_iter_get_baseline(it) - logical.y) / PANGO_SCALE;
		draw_markers(p, baseline);
		set_grey(p, grey);
		cairo_move_to(p->cr, x + (double)(logical.x - own.x) / PANGO_SCALE, baseline);
		pango_cairo_show_layout_line(p->cr, line);
		p->y += h + below;
		p->page_used = true;
		first = false;
	} while (pango_layout_iter_next_line(it));
	pango_layout_iter_free(it);
	return rc ? rc : cairo_failed(p);
}

/* Plain text (not markup) in one style, wrapped to the frame. */
static int draw_text(struct pdf *p, const char *text, const struct text_style *s, const struct frame *f)
{
	PangoLayout *l = layout_new(p, s, f->width);
	GString *t = g_string_new(NULL);
	size_t run = 0;
	int rc;

	breakable(t, text, &run);
	pango_layout_set_text(l, t->str, -1);
	rc = draw_layout(p, l, f->x, f->grey, NULL);
	g_object_unref(l);
	g_string_free(t, TRUE);
	return rc;
}

/* ---- inline content ---- */

static void inl_init(struct inl *b)
{
	memset(b, 0, sizeof(*b));
	b->markup = g_string_new(NULL);
	b->plain = g_string_new(NULL);
}

static void inl_free(struct inl *b)
{
	g_string_free(b->markup, TRUE);
	g_string_free(b->plain, TRUE);
}

/* Append literal text (escaped), optionally wrapped in a tag pair. */
static void inl_text(struct inl *b, const char *s, const char *open, const char *close)
{
	size_t at = b->plain->len;
	char *esc;

	if (!s || !*s)
		return;
	breakable(b->plain, s, &b->run);
	esc = g_markup_escape_text(b->plain->str + at, -1);
	if (open)
		g_string_append(b->markup, open);
	g_string_append(b->markup, esc);
	if (close)
		g_string_append(b->markup, close);
	g_free(esc);
	for (const char *c = s; !b->has_text && *c; c++)
		if (!g_ascii_isspace(*c))
			b->has_text = true;
}

static void inl_open(struct inl *b, const char *open, const char *close)
{
	b->depth++;
	if (b->depth > MAX_INLINE_DEPTH)
		return;
	b->open[b->depth - 1] = open;
	b->close[b->depth - 1] = close;
	g_string_append(b->markup, open);
}

static void inl_close(struct inl *b)
{
	if (b->depth == 0)
		return;
	if (b->depth <= MAX_INLINE_DEPTH)
		g_string_append(b->markup, b->close[b->depth - 1]);
	b->depth--;
}

/* Draw what b holds as one wrapped block (tags still open are closed for it and
 * reopened after) and empty b. */
static int inl_flush(struct pdf *p, struct inl *b, const struct text_style *s, const struct frame *f)
{
	int open = b->depth < MAX_INLINE_DEPTH ? b->depth : MAX_INLINE_DEPTH;
	int rc = 0;

	if (b->has_text) {
		PangoLayout *l = layout_new(p, s, f->width);

		for (int i = open - 1; i >= 0; i--)
			g_string_append(b->markup, b->close[i]);
		layout_set_markup(l, b->markup->str, b->plain->str);
		rc = draw_layout(p, l, f->x, f->grey, NULL);
		g_object_unref(l);
	}
	g_string_truncate(b->markup, 0);
	g_string_truncate(b->plain, 0);
	b->has_text = false;
	for (int i = 0; i < open; i++)
		g_string_append(b->markup, b->open[i]);
	return rc;
}

static bool is_type(cmark_node *n, const char *name)
{
	const char *t = cmark_node_get_type_string(n);

	return t && strcmp(t, name) == 0;
}

/* The text under root, without markup. lines: a newline after each block (for
 * flattened blocks); otherwise one line (alt text). */
static int collect_text(cmark_node *root, GString *out, bool lines)
{
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;

	if (!it)
		return err_set(ERR_INTERNAL, "pdf: out of memory");
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		const char *lit;

		switch (cmark_node_get_type(n)) {
		case CMARK_NODE_TEXT:
		case CMARK_NODE_CODE:
		case CMARK_NODE_HTML_INLINE:
			if ((lit = cmark_node_get_literal(n)))
				g_string_append(out, lit);
			break;
		case CMARK_NODE_CODE_BLOCK:
		case CMARK_NODE_HTML_BLOCK:
			if ((lit = cmark_node_get_literal(n)))
				g_string_append(out, lit);
			g_string_append_c(out, lines ? '\n' : ' ');
			break;
		case CMARK_NODE_SOFTBREAK:
		case CMARK_NODE_LINEBREAK:
			g_string_append_c(out, ' ');
			break;
		case CMARK_NODE_PARAGRAPH:
		case CMARK_NODE_HEADING:
			if (ev == CMARK_EVENT_EXIT)
				g_string_append_c(out, lines ? '\n' : ' ');
			break;
		default:
			if (ev == CMARK_EVENT_EXIT && (is_type(n, "table_row") || is_type(n, "table_header")))
				g_string_append_c(out, lines ? '\n' : ' ');
			else if (ev == CMARK_EVENT_EXIT && is_type(n, "table_cell"))
				g_string_append(out, " | ");
			break;
		}
	}
	cmark_iter_free(it);
	return 0;
}

struct png_reader {
	const unsigned char *data;
	size_t len, pos;
};

static cairo_status_t png_read(void *closure, unsigned char *buf, unsigned int n)
{
	struct png_reader *r = closure;

	if (n > r->len - r->pos)
		return CAIRO_STATUS_READ_ERROR;
	memcpy(buf, r->data + r->pos, n);
	r->pos += n;
	return CAIRO_STATUS_SUCCESS;
}

static uint32_t be32(const unsigned char *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

/* A PNG signature and an IHDR whose size we are willing to decode. */
static bool png_acceptable(const unsigned char *d, size_t len)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	uint32_t w, h;

	if (len < 24 || memcmp(d, sig, 8) != 0 || memcmp(d + 12, "IHDR", 4) != 0)
		return false;
	w = be32(d + 16);
	h = be32(d + 20);
	return w && h && w <= MAX_IMAGE_SIDE && h <= MAX_IMAGE_SIDE &&
	       (uint64_t)w * h <= MAX_IMAGE_PIXELS;
}

/* The decoded image behind url, or NULL when there is none we can draw. */
static cairo_surface_t *image_load(struct pdf *p, const char *url)
{
	const unsigned char *data = NULL;
	const char *type = NULL;
	size_t len = 0;
	struct png_reader r;
	cairo_surface_t *img;

	if (!p->image || p->image(p->image_ctx, url ? url : "", &data, &len, &type) < 0 || !data)
		return NULL;
	if (!png_acceptable(data, len))
		return NULL;
	r = (struct png_reader){ data, len, 0 };
	img = cairo_image_surface_create_from_png_stream(png_read, &r);
	if (cairo_surface_status(img) != CAIRO_STATUS_SUCCESS || cairo_image_surface_get_width(img) <= 0 ||
	    cairo_image_surface_get_height(img) <= 0) {
		cairo_surface_destroy(img);
		return NULL;
	}
	return img;
}

/* An image as a block: scaled down to the frame's width and the page's height. */
static int draw_image(struct pdf *p, cairo_surface_t *img, const struct frame *f)
{
	double w = cairo_image_surface_get_width(img) * PX_TO_PT;
	double h = cairo_image_surface_get_height(img) * PX_TO_PT;
	double s = 1.0;
	int rc;

	if (w > f->width)
		s = f->width / w;
	if (h * s > CONTENT_H)
		s = CONTENT_H / h;
	if ((rc = need(p, h * s)))
		return rc;
	draw_markers(p, p->y + BODY_SIZE);
	cairo_save(p->cr);
	cairo_translate(p->cr, f->x, p->y);
	cairo_scale(p->cr, s * PX_TO_PT, s * PX_TO_PT);
	cairo_set_source_surface(p->cr, img, 0, 0);
	cairo_paint(p->cr);
	cairo_restore(p->cr);
	p->y += h * s + 4.0;
	p->page_used = true;
	return cairo_failed(p);
}

/* An image inside inline content: drawn as its own block when f is set and the
 * bytes are a PNG we can decode, else "[image: alt]" in italics. */
static int inline_image(struct pdf *p, cmark_node *n, struct inl *b, const struct text_style *s,
			const struct frame *f)
{
	cairo_surface_t *img = f ? image_load(p, cmark_node_get_url(n)) : NULL;
	GString *alt;
	int rc;

	if (img) {
		rc = inl_flush(p, b, s, f);
		if (!rc)
			rc = draw_image(p, img, f);
		cairo_surface_destroy(img);
		return rc;
	}
	alt = g_string_new("[image: ");
	rc = collect_text(n, alt, false);
	g_string_append_c(alt, ']');
	if (!rc)
		inl_text(b, alt->str, "<i>", "</i>");
	g_string_free(alt, TRUE);
	return rc;
}

/*
 * Append root's inline content to b as pango markup. With f (paragraphs and
 * headings) decodable images are drawn as blocks between the text around them;
 * without it (table cells) every image prints its alt text.
 */
static int walk_inlines(struct pdf *p, cmark_node *root, struct inl *b, const struct text_style *s,
			const struct frame *f)
{
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	int rc = 0;

	if (!it)
		return err_set(ERR_INTERNAL, "pdf: out of memory");
	while (!rc && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);

		if (n == root)
			continue;
		if (ev == CMARK_EVENT_EXIT) {
			inl_close(b);
			continue;
		}
		switch (cmark_node_get_type(n)) {
		case CMARK_NODE_TEXT:
		case CMARK_NODE_HTML_INLINE:
			inl_text(b, cmark_node_get_literal(n), NULL, NULL);
			break;
		case CMARK_NODE_CODE:
			inl_text(b, cmark_node_get_literal(n), CODE_OPEN, "</span>");
			break;
		case CMARK_NODE_SOFTBREAK:
			inl_text(b, " ", NULL, NULL);
			break;
		case CMARK_NODE_LINEBREAK:
			inl_text(b, "\n", NULL, NULL);
			break;
		case CMARK_NODE_EMPH:
			inl_open(b, "<i>", "</i>");
			break;
		case CMARK_NODE_STRONG:
			inl_open(b, "<b>", "</b>");
			break;
		case CMARK_NODE_LINK:
			inl_open(b, LINK_OPEN, "</span>");
			break;
		case CMARK_NODE_IMAGE:
			rc = inline_image(p, n, b, s, f);
			cmark_iter_reset(it, n, CMARK_EVENT_EXIT); /* skip the alt text */
			break;
		default:
			if (is_type(n, "strikethrough"))
				inl_open(b, "<s>", "</s>");
			else
				inl_open(b, "", ""); /* any other container: its EXIT closes it */
			break;
		}
	}
	cmark_iter_free(it);
	return rc;
}

/* A paragraph or heading: its inline content wrapped to the frame, then gap. */
static int render_inline_block(struct pdf *p, cmark_node *n, const struct text_style *s, const struct frame *f,
			       double gap)
{
	struct inl b;
	int rc;

	inl_init(&b);
	rc = walk_inlines(p, n, &b, s, f);
	if (!rc)
		rc = inl_flush(p, &b, s, f);
	inl_free(&b);
	if (!rc)
		p->y += gap;
	return rc;
}

/* ---- blocks ---- */

static int render_children(struct pdf *p, cmark_node *n, const struct frame *f, int depth)
{
	int rc = 0;

	for (cmark_node *c = cmark_node_first_child(n); c && !rc; c = cmark_node_next(c))
		rc = render_block(p, c, f, depth + 1);
	return rc;
}

/* A subtree nested too deep to indent further: its text, one line per block. */
static int render_flat(struct pdf *p, cmark_node *n, const struct frame *f)
{
	struct text_style s = { BODY_SIZE, false, false };
	GString *t = g_string_new(NULL);
	int rc = collect_text(n, t, true);

	while (t->len && t->str[t->len - 1] == '\n')
		g_string_truncate(t, t->len - 1);
	if (!rc && t->len) {
		rc = draw_text(p, t->str, &s, f);
		if (!rc)
			p->y += PARA_GAP;
	}
	g_string_free(t, TRUE);
	return rc;
}

static double heading_size(int level)
{
	static const double sizes[] = { 20.0, 17.0, 14.5, 12.5, 11.0, 10.5 };

	if (level < 1)
		level = 1;
	if (level > 6)
		level = 6;
	return sizes[level - 1];
}

/* A heading keeps its own line and about two lines of what follows on one page. */
static int render_heading(struct pdf *p, cmark_node *n, const struct frame *f)
{
	struct text_style s = { heading_size(cmark_node_get_heading_level(n)), true, false };
	int rc;

	if (p->page_used)
		p->y += s.size * 0.5;
	if ((rc = need(p, s.size * 1.4 + 2 * LINE_H)))
		return rc;
	return render_inline_block(p, n, &s, f, s.size * 0.4);
}

static double indent_for(const struct frame *f, double want)
{
	return f->width - want >= MIN_WIDTH ? want : 0.0;
}

static int render_quote(struct pdf *p, cmark_node *n, const struct frame *f, int depth)
{
	struct frame inner = *f;
	double indent = indent_for(f, QUOTE_INDENT);
	bool bar = indent > 0 && p->nbars < (int)(sizeof(p->bars) / sizeof(p->bars[0]));
	int rc;

	if (bar)
		p->bars[p->nbars++] = (struct quote_bar){ f->x + 1.0, p->y };
	inner.x += indent;
	inner.width -= indent;
	inner.grey = 0.35;
	rc = render_children(p, n, &inner, depth);
	if (bar) {
		p->nbars--;
		draw_bar(p, &p->bars[p->nbars], p->y - PARA_GAP / 2);
	}
	return rc ? rc : cairo_failed(p);
}

static int render_list(struct pdf *p, cmark_node *list, const struct frame *f, int depth)
{
	static const char *const bullets[] = { "\u2022", "\u25e6", "\u25aa" };
	struct frame inner = *f;
	double indent = indent_for(f, LIST_INDENT);
	bool ordered = cmark_node_get_list_type(list) == CMARK_ORDERED_LIST;
	char delim = cmark_node_get_list_delim(list) == CMARK_PAREN_DELIM ? ')' : '.';
	long long num = cmark_node_get_list_start(list);
	int rc = 0;

	inner.x += indent;
	inner.width -= indent;
	inner.tight = cmark_node_get_list_tight(list);
	inner.list_level++;
	for (cmark_node *item = cmark_node_first_child(list); item && !rc; item = cmark_node_next(item), num++) {
		char mark[24];

		if (is_type(item, "tasklist"))
			snprintf(mark, sizeof(mark), "%s",
				 cmark_gfm_extensions_get_tasklist_item_checked(item) ? "\u2611" : "\u2610");
		else if (ordered)
			snprintf(mark, sizeof(mark), "%lld%c", num, delim);
		else
			snprintf(mark, sizeof(mark), "%s", bullets[f->list_level % 3]);
		rc = push_marker(p, mark, inner.x - 5.0, inner.grey);
		if (!rc)
			rc = render_children(p, item, &inner, depth + 1);
		if (!rc)
			rc = draw_marker_line(p);
	}
	if (!rc && !f->tight)
		p->y += PARA_GAP - TIGHT_GAP;
	return rc;
}

/* Code (and raw HTML) blocks: monospace, wrapped, on a grey band when band. */
static int render_code(struct pdf *p, cmark_node *n, const struct frame *f, bool band)
{
	struct text_style s = { CODE_SIZE, false, true };
	const char *lit = cmark_node_get_literal(n);
	size_t len = lit ? strlen(lit) : 0;
	struct band b = { f->x, f->width, CODE_PAD, 0.94 };
	double pad = band ? CODE_PAD : 0;
	GString *text = g_string_new(NULL);
	PangoLayout *l;
	size_t run = 0;
	char *lines;
	int rc;

	while (len && lit[len - 1] == '\n')
		len--;
	lines = g_strndup(lit ? lit : "", len);
	breakable(text, lines, &run);
	l = layout_new(p, &s, f->width - 2 * pad);
	pango_layout_set_text(l, text->str, -1);
	rc = draw_layout(p, l, f->x + pad, 0.1, band ? &b : NULL);
	g_object_unref(l);
	g_string_free(text, TRUE);
	g_free(lines);
	if (!rc)
		p->y += f->tight ? TIGHT_GAP + 2 : PARA_GAP + 2;
	return rc;
}

static int render_rule(struct pdf *p, const struct frame *f)
{
	int rc;

	if ((rc = need(p, 14.0)))
		return rc;
	draw_markers(p, p->y + BODY_SIZE);
	set_grey(p, 0.7);
	cairo_set_line_width(p->cr, 0.8);
	cairo_move_to(p->cr, f->x, p->y + 7.0);
	cairo_line_to(p->cr, f->x + f->width, p->y + 7.0);
	cairo_stroke(p->cr);
	p->y += 14.0;
	p->page_used = true;
	return cairo_failed(p);
}

static bool is_header_row(cmark_node *row)
{
	return is_type(row, "table_header") || cmark_gfm_extensions_get_table_row_is_header(row);
}

/* Tables wider than MAX_TABLE_COLS: one "a | b | c" line per row. */
static int render_table_rows_as_text(struct pdf *p, cmark_node *table, const struct frame *f)
{
	int rc = 0;

	for (cmark_node *row = cmark_node_first_child(table); row && !rc; row = cmark_node_next(row)) {
		struct text_style s = { BODY_SIZE, is_header_row(row), false };
		struct inl b;
		bool first = true;

		inl_init(&b);
		for (cmark_node *cell = cmark_node_first_child(row); cell && !rc; cell = cmark_node_next(cell)) {
			if (!first)
				inl_text(&b, " | ", NULL, NULL);
			first = false;
			rc = walk_inlines(p, cell, &b, &s, NULL);
		}
		if (!rc)
			rc = inl_flush(p, &b, &s, f);
		inl_free(&b);
	}
	if (!rc)
		p->y += PARA_GAP;
	return rc;
}

/*
 * A grid of equal-width columns with cell borders, cells aligned as the delimiter
 * row says; the header row bold on grey.
 * A row moves to the next page when it does not fit; a row taller than a whole
 * page prints its cells one under the other instead.
 */
static int render_table(struct pdf *p, cmark_node *table, const struct frame *f)
{
	int ncols = cmark_gfm_extensions_get_table_columns(table);
	const uint8_t *align = cmark_gfm_extensions_get_table_alignments(table); /* 'l' 'c' 'r' or 0 */
	double col_w, inner_w;
	int rc = 0;

	if (ncols <= 0)
		return 0;
	if (ncols > MAX_TABLE_COLS)
		return render_table_rows_as_text(p, table, f);
	col_w = f->width / ncols;
	inner_w = col_w - 2 * CELL_PAD;
	for (cmark_node *row = cmark_node_first_child(table); row && !rc; row = cmark_node_next(row)) {
		struct text_style s = { BODY_SIZE, is_header_row(row), false };
		PangoLayout *cells[MAX_TABLE_COLS] = { 0 };
		double row_h = 0, first_base = BODY_SIZE;
		int nc = 0;

		for (cmark_node *cell = cmark_node_first_child(row); cell && nc < ncols && !rc;
		     cell = cmark_node_next(cell)) {
			struct inl b;
			PangoRectangle log;

			inl_init(&b);
			rc = walk_inlines(p, cell, &b, &s, NULL);
			cells[nc] = layout_new(p, &s, inner_w);
			if (align && (align[nc] == 'c' || align[nc] == 'r'))
				pango_layout_set_alignment(cells[nc],
							   align[nc] == 'c' ? PANGO_ALIGN_CENTER : PANGO_ALIGN_RIGHT);
			layout_set_markup(cells[nc], b.markup->str, b.plain->str);
			inl_free(&b);
			pango_layout_get_extents(cells[nc], NULL, &log);
			if ((double)log.height / PANGO_SCALE > row_h)
				row_h = (double)log.height / PANGO_SCALE;
			if (nc == 0)
				first_base = (double)pango_layout_get_baseline(cells[nc]) / PANGO_SCALE;
			nc++;
		}
		row_h += 2 * CELL_PAD;
		if (!rc && row_h > CONTENT_H) {
			for (int i = 0; i < nc && !rc; i++) {
				pango_layout_set_width(cells[i], (int)(f->width * PANGO_SCALE));
				rc = draw_layout(p, cells[i], f->x, f->grey, NULL);
			}
		} else if (!rc && !(rc = need(p, row_h))) {
			draw_markers(p, p->y + CELL_PAD + first_base);
			if (s.bold) {
				set_grey(p, 0.92);
				cairo_rectangle(p->cr, f->x, p->y, col_w * ncols, row_h);
				cairo_fill(p->cr);
			}
			for (int i = 0; i < nc; i++) {
				set_grey(p, f->grey);
				cairo_move_to(p->cr, f->x + i * col_w + CELL_PAD, p->y + CELL_PAD);
				pango_cairo_show_layout(p->cr, cells[i]);
			}
			set_grey(p, 0.55);
			cairo_set_line_width(p->cr, 0.6);
			for (int i = 0; i < ncols; i++)
				cairo_rectangle(p->cr, f->x + i * col_w, p->y, col_w, row_h);
			cairo_stroke(p->cr);
			p->y += row_h;
			p->page_used = true;
			rc = cairo_failed(p);
		}
		for (int i = 0; i < nc; i++)
			g_object_unref(cells[i]);
	}
	if (!rc)
		p->y += PARA_GAP;
	return rc;
}

static int render_block(struct pdf *p, cmark_node *n, const struct frame *f, int depth)
{
	struct text_style body = { BODY_SIZE, false, false };

	if (depth > MAX_BLOCK_DEPTH)
		return render_flat(p, n, f);
	switch (cmark_node_get_type(n)) {
	case CMARK_NODE_PARAGRAPH:
		return render_inline_block(p, n, &body, f, f->tight ? TIGHT_GAP : PARA_GAP);
	case CMARK_NODE_HEADING:
		return render_heading(p, n, f);
	case CMARK_NODE_BLOCK_QUOTE:
		return render_quote(p, n, f, depth);
	case CMARK_NODE_LIST:
		return render_list(p, n, f, depth);
	case CMARK_NODE_CODE_BLOCK:
		return render_code(p, n, f, true);
	case CMARK_NODE_HTML_BLOCK:
		return render_code(p, n, f, false);
	case CMARK_NODE_THEMATIC_BREAK:
		return render_rule(p, f);
	default:
		if (is_type(n, "table"))
			return render_table(p, n, f);
		return render_children(p, n, f, depth); /* document, items, custom blocks */
	}
}

/* ---- pages ---- */

/* Parse with the GFM extensions (markdown.c's md_parse, shared by every
 * reader of pages); invalid UTF-8 becomes U+FFFD. */
static int parse_markdown(const char *md, cmark_node **out)
{
	if (!(*out = md_parse(md, strlen(md))))
		return err_set(ERR_INTERNAL, "pdf: markdown parser failed");
	return 0;
}

/* Page titles: 24 pt at the top level, 3 pt less per level down to 15 pt. */
static double title_size(int depth)
{
	return 24.0 - 3.0 * (depth < 0 ? 0 : depth > 3 ? 3 : depth);
}

static int render_page(struct pdf *p, const struct pdf_page *pg, const struct frame *root)
{
	struct text_style s = { title_size(pg->depth), true, false };
	char *title = g_utf8_make_valid(pg->title ? pg->title : "", -1);
	cmark_node *doc = NULL;
	int rc = 0;

	if (pg->depth <= 0 && p->page_used)
		rc = new_page(p);
	else if (p->page_used)
		p->y += 18.0;
	if (!rc)
		rc = need(p, s.size * 1.4 + 2 * LINE_H);
	if (!rc)
		rc = draw_text(p, title, &s, root);
	if (!rc) {
		p->y += s.size * 0.6;
		rc = parse_markdown(pg->markdown ? pg->markdown : "", &doc);
	}
	if (!rc)
		rc = render_block(p, doc, root, 0);
	cmark_node_free(doc);
	g_free(title);
	return rc;
}

static int title_page(struct pdf *p, const char *title, const struct frame *root)
{
	struct text_style s = { 28.0, true, false };
	PangoLayout *l = layout_new(p, &s, root->width);
	GString *t = g_string_new(NULL);
	size_t run = 0;
	int rc;

	breakable(t, title, &run);
	pango_layout_set_alignment(l, PANGO_ALIGN_CENTER);
	pango_layout_set_text(l, t->str, -1);
	p->y = PAGE_H / 3;
	rc = draw_layout(p, l, root->x, 0.0, NULL);
	g_object_unref(l);
	g_string_free(t, TRUE);
	p->page_used = true;
	return rc;
}

int pdf_render(const char *path, const char *doc_title, const struct pdf_page *pages, size_t n,
	       pdf_image_fn image, void *ctx)
{
	struct pdf p = { 0 };
	struct frame root = { MARGIN, CONTENT_W, 0.0, false, 0 };
	cairo_font_options_t *fo = NULL;
	char *title = NULL;
	cairo_status_t st;
	int rc = 0;

	if (!path || (!pages && n))
		return err_set(ERR_INVALID, "pdf: no path or pages");
	p.image = image;
	p.image_ctx = ctx;
	p.y = TOP;
	title = g_utf8_make_valid(doc_title ? doc_title : "", -1);
	p.surface = cairo_pdf_surface_create(path, PAGE_W, PAGE_H);
	if ((st = cairo_surface_status(p.surface)) != CAIRO_STATUS_SUCCESS) {
		rc = err_set(ERR_INTERNAL, "pdf: cannot create '%s': %s", path, cairo_status_to_string(st));
		goto cleanup;
	}
	cairo_pdf_surface_set_metadata(p.surface, CAIRO_PDF_METADATA_TITLE, title);
	cairo_pdf_surface_set_metadata(p.surface, CAIRO_PDF_METADATA_CREATOR, "docsd");
	p.cr = cairo_create(p.surface);
	if ((rc = cairo_failed(&p)))
		goto cleanup;
	p.pango = pango_cairo_create_context(p.cr);
	pango_cairo_context_set_resolution(p.pango, 72.0); /* font sizes in points = user units */
	fo = cairo_font_options_create();
	cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
	cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
	if ((st = cairo_font_options_status(fo)) != CAIRO_STATUS_SUCCESS) {
		rc = err_set(ERR_INTERNAL, "pdf: cairo: %s", cairo_status_to_string(st));
		goto cleanup;
	}
	pango_cairo_context_set_font_options(p.pango, fo);

	rc = title_page(&p, title, &root);
	for (size_t i = 0; i < n && !rc; i++)
		rc = render_page(&p, &pages[i], &root);
	if (!rc)
		rc = cairo_failed(&p);

cleanup:
	cairo_font_options_destroy(fo);
	if (p.pango)
		g_object_unref(p.pango);
	cairo_destroy(p.cr);
	if (p.surface) {
		cairo_surface_finish(p.surface); /* writes the last page and the trailer */
		if (!rc && (st = cairo_surface_status(p.surface)) != CAIRO_STATUS_SUCCESS)
			rc = err_set(ERR_INTERNAL, "pdf: writing '%s': %s", path, cairo_status_to_string(st));
		cairo_surface_destroy(p.surface);
	}
	g_free(title);
	if (rc)
		unlink(path);
	return rc;
}
