/*
 * image.c - image type and size from the header bytes (see image.h).
 *
 * The input is untrusted: every read is checked against len first (the helpers
 * below take a length and never look past it), every loop advances and is
 * bounded by len or a constant, and no size arithmetic can overflow (offsets
 * are compared as "len - i < need", never "i + need > len").
 * One table lists the formats: how each is recognised, then how it is measured.
 */
#include "util/image.h"
#include "util/err.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define SVG_WINDOW 4096
#define JPEG_MAX_SEGMENTS 1024
#define SVG_MAX_SIZE 1e9 /* larger SVG sizes are refused, not clamped */

static uint32_t be16(const unsigned char *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint32_t le16(const unsigned char *p)
{
	return (uint32_t)p[1] << 8 | p[0];
}

static uint32_t le24(const unsigned char *p)
{
	return (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[3] << 24 | le24(p);
}

/* true if the n-byte data holds s at offset i. */
static bool has(const unsigned char *d, size_t n, size_t i, const char *s)
{
	size_t k = strlen(s);

	return i <= n && n - i >= k && memcmp(d + i, s, k) == 0;
}

static int truncated(const char *what)
{
	return err_set(ERR_INVALID, "image: truncated %s header", what);
}

static int dims(uint32_t w, uint32_t h, const char *what, int *ow, int *oh)
{
	if (w == 0 || h == 0 || w > INT_MAX || h > INT_MAX)
		return err_set(ERR_INVALID, "image: %s size %lux%lu is not valid", what, (unsigned long)w,
			       (unsigned long)h);
	*ow = (int)w;
	*oh = (int)h;
	return 0;
}

/* ---- PNG: signature, then the IHDR chunk (length 13) with big-endian width, height ---- */

static bool png_match(const unsigned char *d, size_t n)
{
	return has(d, n, 0, "\x89PNG\r\n\x1a\n");
}

static int png_size(const unsigned char *d, size_t n, int *w, int *h)
{
	if (n < 24)
		return truncated("PNG");
	if (be32(d + 8) != 13 || memcmp(d + 12, "IHDR", 4) != 0)
		return err_set(ERR_INVALID, "image: PNG does not start with IHDR");
	return dims(be32(d + 16), be32(d + 20), "PNG", w, h);
}

/* ---- GIF: signature, then the logical screen's little-endian width, height ---- */

static bool gif_match(const unsigned char *d, size_t n)
{
	return has(d, n, 0, "GIF87a") || has(d, n, 0, "GIF89a");
}

static int gif_size(const unsigned char *d, size_t n, int *w, int *h)
{
	if (n < 10)
		return truncated("GIF");
	return dims(le16(d + 6), le16(d + 8), "GIF", w, h);
}

/* ---- JPEG: SOI, then marker segments up to the first frame header ---- */

static bool jpeg_match(const unsigned char *d, size_t n)
{
	return n >= 3 && d[0] == 0xFF && d[1] == 0xD8 && d[2] == 0xFF;
}

/* SOF0..SOF15 are C0..CF, except C4 (DHT), C8 (JPG) and CC (DAC). */
static bool jpeg_is_sof(unsigned m)
{
	return m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC;
}

static int jpeg_size(const unsigned char *d, size_t n, int *w, int *h)
{
	size_t i = 2;

	for (int seg = 0; seg < JPEG_MAX_SEGMENTS; seg++) {
		if (i >= n)
			return truncated("JPEG");
		if (d[i] != 0xFF)
			return err_set(ERR_INVALID, "image: JPEG segment does not start with a marker");
		while (i < n && d[i] == 0xFF) /* fill bytes */
			i++;
		if (i >= n)
			return truncated("JPEG");
		unsigned m = d[i++];
		if (m == 0x01 || (m >= 0xD0 && m <= 0xD7))
			continue; /* TEM, RSTn: no length */
		if (m == 0x00 || m == 0xD8 || m == 0xD9 || m == 0xDA)
			return err_set(ERR_INVALID, "image: JPEG has no frame header before its scan");
		if (n - i < 2)
			return truncated("JPEG");
		size_t seglen = be16(d + i);
		if (seglen < 2)
			return err_set(ERR_INVALID, "image: JPEG segment length %zu is not valid", seglen);
		if (jpeg_is_sof(m)) {
			/* length(2) precision(1) height(2) width(2) */
			if (seglen < 7)
				return err_set(ERR_INVALID, "image: JPEG frame header too short");
			if (n - i < 7)
				return truncated("JPEG");
			return dims(be16(d + i + 5), be16(d + i + 3), "JPEG", w, h);
		}
		if (n - i < seglen)
			return truncated("JPEG");
		i += seglen;
	}
	return err_set(ERR_INVALID, "image: JPEG has more than %d segments before its frame header", JPEG_MAX_SEGMENTS);
}

/* ---- WebP: RIFF container, then one of three first chunks ---- */

static bool webp_match(const unsigned char *d, size_t n)
{
	return has(d, n, 0, "RIFF") && has(d, n, 8, "WEBP");
}

static int webp_size(const unsigned char *d, size_t n, int *w, int *h)
{
	/* chunk fourcc at 12, chunk size at 16, chunk data from 20 */
	if (n < 20)
		return truncated("WebP");
	if (has(d, n, 12, "VP8 ")) {
		/* lossy: 3-byte frame tag, start code 9d 01 2a, 14-bit width and height */
		if (n < 30)
			return truncated("WebP");
		if (d[23] != 0x9D || d[24] != 0x01 || d[25] != 0x2A)
			return err_set(ERR_INVALID, "image: WebP VP8 start code missing");
		return dims(le16(d + 26) & 0x3FFF, le16(d + 28) & 0x3FFF, "WebP", w, h);
	}
	if (has(d, n, 12, "VP8L")) {
		/* lossless: signature 0x2f, then width - 1 and height - 1 in 14 bits each */
		if (n < 25)
			return truncated("WebP");
		if (d[20] != 0x2F)
			return err_set(ERR_INVALID, "image: WebP VP8L signature missing");
		uint32_t bits = le32(d + 21);
		return dims((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1, "WebP", w, h);
	}
	if (has(d, n, 12, "VP8X")) {
		/* extended: flags(1) reserved(3), canvas width - 1 and height - 1 in 24 bits */
		if (n < 30)
			return truncated("WebP");
		return dims(le24(d + 24) + 1, le24(d + 27) + 1, "WebP", w, h);
	}
	return err_set(ERR_INVALID, "image: WebP first chunk is not VP8, VP8L or VP8X");
}

/* ---- SVG: the root element's attributes, in the first SVG_WINDOW bytes ---- */

static bool xml_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool xml_name_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == ':' ||
	       c == '-' || c == '.' || c >= 0x80;
}

/* Move *i past the next occurrence of end; false if there is none. */
static bool skip_past(const unsigned char *d, size_t n, size_t *i, const char *end)
{
	for (size_t j = *i; j < n; j++) {
		if (has(d, n, j, end)) {
			*i = j + strlen(end);
			return true;
		}
	}
	return false;
}

/* <!DOCTYPE ...> with an optional [internal subset]; *i is at "<!". */
static bool skip_doctype(const unsigned char *d, size_t n, size_t *i)
{
	bool subset = false;

	for (size_t j = *i + 2; j < n; j++) {
		if (d[j] == '[')
			subset = true;
		else if (d[j] == ']')
			subset = false;
		else if (d[j] == '>' && !subset) {
			*i = j + 1;
			return true;
		}
	}
	return false;
}

/*
 * Offset just past "<svg" of the root element, skipping a BOM, XML declaration,
 * processing instructions, comments and a doctype; 0 if the first element is
 * not <svg> (or is not within n bytes).
 */
static size_t svg_root(const unsigned char *d, size_t n)
{
	size_t i = has(d, n, 0, "\xEF\xBB\xBF") ? 3 : 0;

	for (;;) {
		while (i < n && xml_space(d[i]))
			i++;
		if (has(d, n, i, "<?")) {
			if (!skip_past(d, n, &i, "?>"))
				return 0;
		} else if (has(d, n, i, "<!--")) {
			i += 4;
			if (!skip_past(d, n, &i, "-->"))
				return 0;
		} else if (has(d, n, i, "<!")) {
			if (!skip_doctype(d, n, &i))
				return 0;
		} else if (has(d, n, i, "<svg") && n - i > 4 &&
			   (xml_space(d[i + 4]) || d[i + 4] == '>' || d[i + 4] == '/')) {
			return i + 4;
		} else {
			return 0;
		}
	}
}

static bool svg_match(const unsigned char *d, size_t n)
{
	return svg_root(d, n < SVG_WINDOW ? n : SVG_WINDOW) != 0;
}

/* A decimal number at s[*i], optionally signed: 12, -3.5, .5; no exponent. */
static bool parse_number(const unsigned char *s, size_t n, size_t *i, double *out)
{
	double v = 0, scale = 1;
	bool neg = false, digits = false;
	size_t j = *i;

	if (j < n && (s[j] == '-' || s[j] == '+'))
		neg = s[j++] == '-';
	for (; j < n && s[j] >= '0' && s[j] <= '9'; j++, digits = true)
		if (v < 1e15)
			v = v * 10 + (s[j] - '0');
		else
			return false;
	if (j < n && s[j] == '.') {
		for (j++; j < n && s[j] >= '0' && s[j] <= '9'; j++, digits = true) {
			scale /= 10;
			v += (s[j] - '0') * scale;
		}
	}
	if (!digits)
		return false;
	*out = neg ? -v : v;
	*i = j;
	return true;
}

/* width="120", width=" 120.5px ": a positive plain or px length. */
static bool parse_px(const unsigned char *s, size_t n, double *out)
{
	size_t i = 0;

	while (i < n && xml_space(s[i]))
		i++;
	if (!parse_number(s, n, &i, out) || *out <= 0)
		return false;
	if (has(s, n, i, "px"))
		i += 2;
	while (i < n && xml_space(s[i]))
		i++;
	return i == n;
}

/* viewBox="min-x min-y width height", separated by whitespace and/or a comma. */
static bool parse_viewbox(const unsigned char *s, size_t n, double *vw, double *vh)
{
	double v[4];
	size_t i = 0;

	for (int k = 0; k < 4; k++) {
		while (i < n && xml_space(s[i]))
			i++;
		if (k > 0 && i < n && s[i] == ',') {
			i++;
			while (i < n && xml_space(s[i]))
				i++;
		}
		if (!parse_number(s, n, &i, &v[k]))
			return false;
	}
	while (i < n && xml_space(s[i]))
		i++;
	if (i != n || v[2] <= 0 || v[3] <= 0)
		return false;
	*vw = v[2];
	*vh = v[3];
	return true;
}

static int svg_dims(double w, double h, int *ow, int *oh)
{
	if (w > SVG_MAX_SIZE || h > SVG_MAX_SIZE)
		return err_set(ERR_INVALID, "image: SVG size is larger than %.0f", SVG_MAX_SIZE);
	*ow = w < 1 ? 1 : (int)(w + 0.5);
	*oh = h < 1 ? 1 : (int)(h + 0.5);
	return 0;
}

static int svg_size(const unsigned char *d, size_t len, int *w, int *h)
{
	size_t n = len < SVG_WINDOW ? len : SVG_WINDOW;
	size_t i = svg_root(d, n);
	double pw = 0, ph = 0, vw = 0, vh = 0;
	bool has_w = false, has_h = false, has_vb = false;

	/* attributes: name = "value" or 'value', up to > or /> */
	for (;;) {
		while (i < n && xml_space(d[i]))
			i++;
		if (i >= n)
			return truncated("SVG");
		if (d[i] == '>' || d[i] == '/')
			break;
		size_t name = i;
		while (i < n && xml_name_char(d[i]))
			i++;
		size_t name_len = i - name;
		if (name_len == 0)
			return err_set(ERR_INVALID, "image: SVG root element is malformed");
		while (i < n && xml_space(d[i]))
			i++;
		if (i >= n)
			return truncated("SVG");
		if (d[i] != '=')
			return err_set(ERR_INVALID, "image: SVG root element is malformed");
		for (i++; i < n && xml_space(d[i]); i++)
			;
		if (i >= n)
			return truncated("SVG");
		unsigned char quote = d[i];
		if (quote != '"' && quote != '\'')
			return err_set(ERR_INVALID, "image: SVG root element is malformed");
		size_t value = ++i;
		while (i < n && d[i] != quote)
			i++;
		if (i >= n)
			return truncated("SVG");
		size_t value_len = i - value;
		i++;
		if (name_len == 5 && memcmp(d + name, "width", 5) == 0)
			has_w = parse_px(d + value, value_len, &pw);
		else if (name_len == 6 && memcmp(d + name, "height", 6) == 0)
			has_h = parse_px(d + value, value_len, &ph);
		else if (name_len == 7 && memcmp(d + name, "viewBox", 7) == 0)
			has_vb = parse_viewbox(d + value, value_len, &vw, &vh);
	}
	if (has_w && has_h)
		return svg_dims(pw, ph, w, h);
	if (has_vb && has_w)
		return svg_dims(pw, pw * vh / vw, w, h);
	if (has_vb && has_h)
		return svg_dims(ph * vw / vh, ph, w, h);
	if (has_vb)
		return svg_dims(vw, vh, w, h);
	*w = 0; /* an SVG without a usable size: still an image */
	*h = 0;
	return 0;
}

/* ---- the formats, binary signatures first ---- */

struct image_format {
	const char *content_type;
	bool (*match)(const unsigned char *d, size_t n);
	int (*size)(const unsigned char *d, size_t n, int *w, int *h);
};

static const struct image_format formats[] = {
	{ "image/png", png_match, png_size },
	{ "image/gif", gif_match, gif_size },
	{ "image/jpeg", jpeg_match, jpeg_size },
	{ "image/webp", webp_match, webp_size },
	{ "image/svg+xml", svg_match, svg_size },
};

int image_dimensions(const unsigned char *data, size_t len, int *width, int *height, const char **content_type)
{
	const struct image_format *f = NULL;
	const char *ct = NULL;
	int w = 0, h = 0, rc;

	for (size_t i = 0; data && !f && i < sizeof(formats) / sizeof(formats[0]); i++)
		if (formats[i].match(data, len))
			f = &formats[i];
	if (!f)
		rc = err_set(ERR_INVALID, "image: not a PNG, GIF, JPEG, WebP or SVG image");
	else
		rc = f->size(data, len, &w, &h);
	if (rc == 0)
		ct = f->content_type;
	else
		w = h = 0;
	if (width)
		*width = w;
	if (height)
		*height = h;
	if (content_type)
		*content_type = ct;
	return rc;
}
