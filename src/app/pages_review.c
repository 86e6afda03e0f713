/*
 * pages_review.c - reviewing a change request in the web interface
 * (pages_review.h): differences, comments, reviews, reviewers, merge and
 * update, on the domain functions the API's handlers call
 * (api/comments.c, api/reviews.c, api/change_requests.c).
 */
#include "app/pages_review.h"
#include "app/app.h"
#include "domain/comments.h"
#include "domain/content.h"
#include "domain/members.h"
#include "domain/merge_rules.h"
#include "domain/reviews.h"
#include "http/form.h"
#include "json/serialize_cr.h"
#include "model/access.h"
#include "site/site.h"
#include "util/err.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Bounds of what one change request's page shows (the API has the rest). */
#define REVIEW_DIFF_PAGES 20      /* pages whose differences are shown */
#define REVIEW_DIFF_LINES 2000    /* lines one page's difference shows */
#define REVIEW_LCS_CELLS 1000000  /* one page's exact line diff table (2 bytes a cell); above, a plain replace */
#define REVIEW_LCS_BUDGET 2000000 /* the cells of all a page's tables: at most 4 MB of the request's arena */
#define REVIEW_CONTEXT 3          /* unchanged lines around a change */
#define REVIEW_LIST 100           /* reviews, requested reviewers, members listed */
/* What bounds the page's HTML (the worst case, every byte escaped as
 * &quot;, six bytes for one): the differences REVIEW_DIFF_BYTES (each page's
 * at most REVIEW_DIFF_PAGE_BYTES, the rendered comparison included; a line
 * is cut at REVIEW_LINE_BYTES, so they run over by one line's 6 KB at most,
 * and by the line comments shown beside lines: those of the
 * REVIEW_COMMENTS listed); REVIEW_COMMENTS comments with
 * REVIEW_REPLIES_INLINE replies each, and REVIEW_LIST reviews, each body cut
 * at REVIEW_BODY_BYTES (12 KB escaped): about 1.3 MB and 1.2 MB; the
 * changes table's 500 rows (pages_cr.c). A few MB with every list full;
 * the test's case (21 big pages, 21 long comments, 5 with 3 long replies, a long review) is 2.1 MB. A
 * comment's own page: the comment and REVIEW_REPLIES replies whole (each at
 * most 60 KB escaped). */
#define REVIEW_DIFF_BYTES (1536 * 1024)    /* HTML of all the differences */
#define REVIEW_DIFF_PAGE_BYTES (256 * 1024) /* HTML of one page's difference */
#define REVIEW_LINE_BYTES 1000             /* bytes of one line a difference shows */
#define REVIEW_RENDERED_MAX (64 * 1024)    /* markdown (both sides) rendered side by side */
#define REVIEW_COMMENTS 20        /* comments on the change request's page (?page= for the rest) */
#define REVIEW_REPLIES_INLINE 3   /* replies under each of them (the comment's own page has all) */
#define REVIEW_REPLIES 20         /* replies on a comment's own page (?page= for the rest) */
#define REVIEW_BODY_BYTES 2000    /* bytes of a body the change request's page shows */
#define REVIEW_CONFLICTS 20       /* conflicting pages a conflicts answer shows */
#define REVIEW_CONFLICT_BYTES (64 * 1024) /* markdown of each side of one it shows */

/* ---- small helpers ---- */

/* The change request's page: /s/{space}/~/changes/{number}. */
static const char *cr_href(struct app_page *p, const char *space_id, int64_t number)
{
	struct jw h;
	const char *out;
	char num[32];

	snprintf(num, sizeof(num), "/~/changes/%lld", (long long)number);
	jw_init(&h);
	app_href(&h, "/s/", space_id);
	html_raw(&h, num);
	out = jw_take(&h, &p->r->arena, "/");
	return out;
}

/* A form's start: POST to the change request's action, with the token. */
static void form_open(struct app_page *p, const char *href, const char *action, const char *cls)
{
	struct jw *b = p->out;

	html_raw(b, "<form method=\"post\" class=\"");
	html_raw(b, cls);
	html_raw(b, "\" action=\"");
	html_raw(b, href);
	html_raw(b, "/~/");
	app_text(b, action); /* ids are the store's letters and digits; escaped all the same */
	html_raw(b, "\"><input type=\"hidden\" name=\"" APP_CSRF_FIELD "\" value=\"");
	app_text(b, p->csrf ? p->csrf : "");
	html_raw(b, "\">");
}

/* The {number} of a form's route: digits only, as page_cr requires. */
static int cr_number(struct app_page *p, const char **out)
{
	const char *n = req_param(p->r, "number");

	if (!n || !*n || strlen(n) > 18)
		return err_set(ERR_NOT_FOUND, "not found");
	for (const char *c = n; *c; c++)
		if (*c < '0' || *c > '9')
			return err_set(ERR_NOT_FOUND, "not found");
	*out = n;
	return 0;
}

/* A form field: 1 present, 0 absent, or ERR_INVALID (malformed) naming it. */
static int field(struct app_page *p, const char *name, const char **out)
{
	int rc;

	*out = NULL;
	if (!p->r->body)
		return 0;
	rc = form_field(&p->r->arena, p->r->body, p->r->body_len, name, out);
	if (rc < 0)
		return err_set(ERR_INVALID, "%s: malformed form field", name);
	/* A browser sends a textarea's line breaks as CRLF (HTML's form
	 * encoding): a comment keeps the LF markdown has everywhere else. */
	if (rc == 1 && strchr(*out, '\r')) {
		char *lf = arena_strdup(&p->r->arena, *out), *w = lf;
		if (!lf)
			return err_set(ERR_INTERNAL, "out of memory");
		for (const char *k = *out; *k; k++)
			if (!(k[0] == '\r' && k[1] == '\n'))
				*w++ = *k;
		*w = '\0';
		*out = lf;
	}
	return rc;
}

static int required(struct app_page *p, const char *name, const char **out)
{
	int rc = field(p, name, out);

	if (rc < 0)
		return rc;
	if (rc == 0)
		return err_set(ERR_INVALID, "%s: required", name);
	return 0;
}

/* A form on a comment's own page carries back=comment: its answer (the
 * redirect, or the refused form again) is that page. */
static bool from_comment_page(struct app_page *p)
{
	const char *v = NULL;

	if (!req_param(p->r, "commentId"))
		return false;
	if (field(p, "back", &v) < 0) {
		err_clear(); /* a malformed one is none */
		return false;
	}
	return v && strcmp(v, "comment") == 0;
}

static void back_field(struct app_page *p, bool own)
{
	if (own)
		html_raw(p->out, "<input type=\"hidden\" name=\"back\" value=\"comment\">");
}

/* After a form: back to the change request's page, at anchor; a form on a
 * comment's own page back to that page, at canchor (NULL: #c-{commentId}). */
static int back_to_where(struct app_page *p, const char *space_id, const char *number, const char *anchor,
			 const char *canchor, bool own)
{
	struct jw h;

	jw_init(&h);
	app_href(&h, "/s/", space_id);
	html_raw(&h, "/~/changes/");
	html_raw(&h, number);
	if (own) {
		app_href(&h, "/~/comments/", req_param(p->r, "commentId"));
		if (canchor)
			html_raw(&h, canchor);
		else
			app_href(&h, "#c-", req_param(p->r, "commentId"));
	} else {
		html_raw(&h, anchor ? anchor : "");
	}
	if (!jw_ok(&h)) {
		jw_free(&h);
		return err_set(ERR_INTERNAL, "out of memory");
	}
	/* app_href escapes for HTML; a space id has no '&' or quotes. */
	p->location = jw_take(&h, &p->r->arena, NULL);
	return 0;
}

static int back_to2(struct app_page *p, const char *space_id, const char *number, const char *anchor,
		    const char *canchor)
{
	return back_to_where(p, space_id, number, anchor, canchor, from_comment_page(p));
}

static int back_to(struct app_page *p, const char *space_id, const char *number, const char *anchor)
{
	return back_to2(p, space_id, number, anchor, NULL);
}

static int back_to_cr(struct app_page *p, const char *space_id, const char *number, const char *anchor)
{
	return back_to_where(p, space_id, number, anchor, NULL, false);
}

/* The message of a refused form while its page is drawn again (refused()).
 * A request runs on one thread from its handler to its answer, so a
 * thread-local carries it into review_sections without a field in the
 * shared struct app_page. */
static _Thread_local const char *refusal;
/* A refused comment on a line: its form is drawn again under that line,
 * with what was typed (the page and line as the form sent them). */
static _Thread_local struct {
	const char *page, *text;
	long line;
} refused_line;
/* A refused edit on a comment's own page: its form again with the text. */
static _Thread_local struct {
	const char *id, *text;
} refused_edit;

/* A form the domain (or the form's own parsing) refused with a 4xx other
 * than 404: roll the write transaction back (nothing the call wrote is
 * kept), continue in a read transaction and answer the change request's
 * page with the status and the message above the review sections. A 404
 * stays the dispatcher's one 404 page (another organization's ids look
 * missing); 5xx its error page. */
static int refused(struct app_page *p, int rc)
{
	const char *msg = NULL;

	if ((rc = app_form_refused(p, rc, &msg)))
		return rc;
	refusal = msg;
	rc = from_comment_page(p) ? page_review_comment_view(p) : page_cr(p);
	refusal = NULL;
	return rc;
}

/* Markdown as text, its line breaks kept (the CSS's pre-wrap). */
static void body_text(struct jw *b, const char *md)
{
	html_raw(b, "<div class=\"cbody\">");
	app_text(b, md ? md : "");
	html_raw(b, "</div>");
}

/* The first n bytes of s (n <= strlen(s)), cut back to a character's start. */
static size_t utf8_cut(const char *s, size_t n)
{
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	return n;
}

/* body_text of at most REVIEW_BODY_BYTES of md; a longer one is cut and
 * followed by a link to where it is whole (more, an escaped href). */
static void body_cut(struct app_page *p, const char *md, const char *more)
{
	struct jw *b = p->out;
	size_t len = md ? strlen(md) : 0, cut;
	const char *head;

	if (len <= REVIEW_BODY_BYTES) {
		body_text(b, md);
		return;
	}
	cut = utf8_cut(md, REVIEW_BODY_BYTES);
	head = arena_strndup(&p->r->arena, md, cut);
	html_raw(b, "<div class=\"cbody\">");
	app_text(b, head ? head : "");
	html_raw(b, "\xe2\x80\xa6</div><p class=\"mute cut\">");
	if (more) {
		html_raw(b, "Cut here: <a href=\"");
		html_raw(b, more);
		html_raw(b, "\">read it all</a></p>");
	} else {
		html_raw(b, "Cut here; the API has it all.</p>");
	}
}

/* One line of a difference: at most REVIEW_LINE_BYTES of it, then "...". */
static void line_text(struct app_page *p, const char *s, size_t len)
{
	size_t cut = len > REVIEW_LINE_BYTES ? utf8_cut(s, REVIEW_LINE_BYTES) : len;
	const char *t = arena_strndup(&p->r->arena, s, cut);

	app_text(p->out, t ? t : "");
	if (cut < len)
		html_raw(p->out, "\xe2\x80\xa6");
}

/* A comment's own page, .../~/comments/{id}, after href (the change
 * request's, escaped); anchor appended as is. */
static const char *comment_href(struct app_page *p, const char *href, const char *id, const char *anchor)
{
	struct jw h;
	const char *out;

	jw_init(&h);
	html_raw(&h, href);
	app_href(&h, "/~/comments/", id);
	html_raw(&h, anchor ? anchor : "");
	out = jw_take(&h, &p->r->arena, NULL);
	return out ? out : href;
}

/* ---- line differences ---- */

struct lines {
	const char **s; /* each line without its "\n" */
	size_t *len;
	int n;
};

static int split_lines(struct arena *a, const char *text, struct lines *out)
{
	size_t cap = 1;

	memset(out, 0, sizeof(*out));
	if (!text)
		text = "";
	for (const char *c = text; *c; c++)
		if (*c == '\n')
			cap++;
	out->s = arena_alloc(a, cap * sizeof(*out->s));
	out->len = arena_alloc(a, cap * sizeof(*out->len));
	if (!out->s || !out->len)
		return err_set(ERR_INTERNAL, "out of memory");
	for (const char *c = text; *c;) {
		const char *e = strchr(c, '\n');
		size_t l = e ? (size_t)(e - c) : strlen(c);
		out->s[out->n] = c;
		out->len[out->n++] = l;
		c += l + (e ? 1 : 0);
	}
	return 0;
}

static bool line_eq(const struct lines *x, int i, const struct lines *y, int j)
{
	return x->len[i] == y->len[j] && memcmp(x->s[i], y->s[j], x->len[i]) == 0;
}

/* One line of the edit script: ' ' kept, '-' only in the old text, '+'
 * only in the new one. */
struct dline {
	char op;
	int line;  /* in the old text for ' ' and '-', the new one for '+' */
	int nline; /* in the new text for ' ' and '+' (comments on a line), -1 for '-' */
};

/* The edit script turning old into new: the common prefix and suffix, and
 * between them a longest common subsequence of lines when the table fits
 * REVIEW_LCS_CELLS, else every old line removed then every new one added
 * (still a correct difference, only longer). */
static int line_diff(struct arena *a, const struct lines *o, const struct lines *n, int64_t *budget, struct dline **out,
		     int *nout)
{
	int pre = 0, suf = 0, mo, mn, k = 0;
	struct dline *d = arena_alloc(a, ((size_t)o->n + (size_t)n->n + 1) * sizeof(*d));

	if (!d)
		return err_set(ERR_INTERNAL, "out of memory");
	while (pre < o->n && pre < n->n && line_eq(o, pre, n, pre))
		pre++;
	while (suf < o->n - pre && suf < n->n - pre && line_eq(o, o->n - 1 - suf, n, n->n - 1 - suf))
		suf++;
	mo = o->n - pre - suf;
	mn = n->n - pre - suf;
	for (int i = 0; i < pre; i++)
		d[k++] = (struct dline){ ' ', i, i };
	int64_t cells = (int64_t)(mo + 1) * (mn + 1);
	if (cells <= REVIEW_LCS_CELLS && cells <= *budget) {
		/* t[i][j]: the LCS length of old[pre+i..] and new[pre+j..]; it is
		 * at most min(mo, mn) <= sqrt(REVIEW_LCS_CELLS): 16 bits hold it. */
		size_t w = (size_t)mn + 1;
		uint16_t *t = arena_alloc(a, ((size_t)mo + 1) * w * sizeof(*t));
		*budget -= cells;
		int i = 0, j = 0;
		if (!t)
			return err_set(ERR_INTERNAL, "out of memory");
		for (int x = mo; x >= 0; x--)
			for (int y = mn; y >= 0; y--) {
				if (x == mo || y == mn)
					t[(size_t)x * w + (size_t)y] = 0;
				else if (line_eq(o, pre + x, n, pre + y))
					t[(size_t)x * w + (size_t)y] = (uint16_t)(t[(size_t)(x + 1) * w + (size_t)(y + 1)] + 1);
				else {
					uint16_t down = t[(size_t)(x + 1) * w + (size_t)y], right = t[(size_t)x * w + (size_t)(y + 1)];
					t[(size_t)x * w + (size_t)y] = down >= right ? down : right;
				}
			}
		while (i < mo || j < mn) {
			if (i < mo && j < mn && line_eq(o, pre + i, n, pre + j)) {
				d[k++] = (struct dline){ ' ', pre + i, pre + j };
				i++, j++;
			} else if (i < mo && (j == mn || t[(size_t)(i + 1) * w + (size_t)j] >= t[(size_t)i * w + (size_t)(j + 1)])) {
				/* Removed lines before added ones, as diff(1) shows them. */
				d[k++] = (struct dline){ '-', pre + i, -1 };
				i++;
			} else {
				d[k++] = (struct dline){ '+', pre + j, pre + j };
				j++;
			}
		}
	} else {
		for (int i = 0; i < mo; i++)
			d[k++] = (struct dline){ '-', pre + i, -1 };
		for (int j = 0; j < mn; j++)
			d[k++] = (struct dline){ '+', pre + j, pre + j };
	}
	for (int i = 0; i < suf; i++)
		d[k++] = (struct dline){ ' ', o->n - suf + i, n->n - suf + i };
	*out = d;
	*nout = k;
	return 0;
}

static const char *page_label(const struct rev_page *pg)
{
	return pg->title && *pg->title ? pg->title : "Untitled";
}

/* ---- comments on a line ----
 *
 * GitBook's comment target has a page, a document node ({id, preview}) and
 * a table cell: no line. docsd's node ids are not lines either (the JSON
 * document's keys are numbered per rendering), so a comment on line N of a
 * page's markdown is a comment on that page (target.page, which the domain
 * checks) whose body starts with the line quoted:
 *
 *   > Line N: <the line as the change request had it, at most 200 characters>
 *
 *   <what the member wrote>
 *
 * The API's clients see an ordinary page comment with a quote; this page
 * finds the quote again and shows the comment beside line N of the page's
 * difference (the line numbers of the change request's current text). */

#define LINE_QUOTE "> Line "
#define LINE_QUOTE_CHARS 200 /* characters of the line a comment quotes */

/* The line a comment's body quotes (1-based), 0 when it quotes none. */
static long quoted_line(const struct comment *c)
{
	const char *s = c->markdown;
	long n = 0;

	if (!c->target_page || !s || strncmp(s, LINE_QUOTE, sizeof(LINE_QUOTE) - 1) != 0)
		return 0;
	s += sizeof(LINE_QUOTE) - 1;
	if (*s < '1' || *s > '9')
		return 0;
	for (; *s >= '0' && *s <= '9' && n < 100000000; s++)
		n = n * 10 + (*s - '0');
	return *s == ':' ? n : 0;
}

/* What the diff needs to show comments on lines and the form for one. */
struct line_ctx {
	const char *href;              /* the change request's page (escaped) */
	bool can;                      /* the member may comment (links, the form) */
	const char *form_page;         /* ?on=: the page whose line the form is for */
	long form_line;                /* ?line=: 1-based, 0 for no form */
	const char *form_text;         /* what the form holds (a refused comment's text), or NULL */
	const struct dom_comment *items; /* the change request's comments */
	int n;
};

/* The line's number in the gutter: a link opening the comment form for it
 * (?on=&line=, the form at #lc) for a member who may comment. page_q: the
 * page's id encoded for a query (NULL: no number). */
static void gutter(struct app_page *p, const struct line_ctx *lc, const char *page_q, int nline)
{
	struct jw *b = p->out;
	char num[16];

	if (nline < 0 || !page_q) {
		html_raw(b, "<span class=\"ln\"></span>");
		return;
	}
	snprintf(num, sizeof(num), "%d", nline + 1);
	if (!lc->can) {
		html_raw(b, "<span class=\"ln\">");
		html_raw(b, num);
		html_raw(b, "</span>");
		return;
	}
	html_raw(b, "<a class=\"ln\" href=\"");
	html_raw(b, lc->href);
	html_raw(b, "?on=");
	app_text(b, page_q);
	html_raw(b, "&amp;line=");
	html_raw(b, num);
	html_raw(b, "#lc\" aria-label=\"Comment on line ");
	html_raw(b, num);
	html_raw(b, "\">");
	html_raw(b, num);
	html_raw(b, "</a>");
}

/* A comment on a line, beside it: who, when, what (the quote left out when
 * it is the line shown above), and a link to it in the comments below
 * (replies, reactions, edits). */
static void line_comment(struct app_page *p, const char *lc_href, const struct dom_comment *dc, long line,
			 const char *text, size_t len)
{
	struct jw *b = p->out;
	const struct comment *c = &dc->c;
	const char *body = c->markdown, *nl = strchr(body, '\n');
	const char *q = strchr(body, ':');
	char num[24];

	/* "> Line N: " then the line: the same text, not cut, as the line shown
	 * above it (text NULL: the line is not shown, keep the quote). */
	if (text && q && q[1] == ' ' && nl && (size_t)(nl - (q + 2)) == len && memcmp(q + 2, text, len) == 0) {
		body = nl + 1;
		while (*body == '\n')
			body++;
	}
	snprintf(num, sizeof(num), "%ld", line);
	html_raw(b, "<aside class=\"linec\" id=\"lc-");
	app_text(b, c->id);
	html_raw(b, "\" aria-label=\"Comment on line ");
	html_raw(b, num);
	html_raw(b, "\"><p class=\"chead\"><strong>");
	app_text(b, c->posted_by.display_name);
	html_raw(b, "</strong> <span class=\"mute\">on line ");
	html_raw(b, num);
	html_raw(b, " \xc2\xb7 ");
	app_date(b, c->posted_at);
	html_raw(b, c->edited_at ? " (edited)" : "");
	html_raw(b, "</span></p>");
	body_cut(p, body, comment_href(p, lc_href, c->id, NULL));
	html_raw(b, "<p class=\"mute\"><a href=\"#c-");
	app_text(b, c->id);
	html_raw(b, "\">");
	html_raw(b, c->replies > 0 ? "Replies and more below" : "Reply below");
	html_raw(b, "</a></p></aside>");
}

/* The form for a comment on line `line` of page pg (opened by its gutter
 * link): the page and the line go with it; the POST quotes the line. text
 * (len bytes): the line, shown in the form when the difference does not
 * show it above; NULL when it does. */
static void line_form(struct app_page *p, const struct line_ctx *lc, const struct rev_page *pg, long line,
		      const char *text, size_t len)
{
	struct jw *b = p->out;
	char num[24];

	snprintf(num, sizeof(num), "%ld", line);
	html_raw(b, "<details class=\"linec\" id=\"lc\" open><summary>Comment on line ");
	html_raw(b, num);
	html_raw(b, "</summary>");
	if (text) {
		html_raw(b, "<pre class=\"diff\"><code><span class=\"ctx\"><span class=\"ln\">");
		html_raw(b, num);
		html_raw(b, "</span>  ");
		line_text(p, text, len);
		html_raw(b, "\n</span></code></pre>");
	}
	form_open(p, lc->href, "comment", "stack");
	html_raw(b, "<input type=\"hidden\" name=\"page\" value=\"");
	app_text(b, pg->id);
	html_raw(b, "\"><input type=\"hidden\" name=\"line\" value=\"");
	html_raw(b, num);
	html_raw(b, "\"><label for=\"lc-text\">Your comment on line ");
	html_raw(b, num);
	html_raw(b, " of ");
	app_text(b, page_label(pg));
	html_raw(b, "</label><textarea id=\"lc-text\" name=\"markdown\" rows=\"3\" maxlength=\"9000\" required>");
	app_text(b, lc->form_text ? lc->form_text : "");
	html_raw(b, "</textarea><div class=\"row\"><button type=\"submit\">Comment on line ");
	html_raw(b, num);
	html_raw(b, "</button> <a href=\"");
	html_raw(b, lc->href);
	html_raw(b, "#differences\">Cancel</a></div></form></details>");
}

/* Where a cut difference is whole: "the page" (more, an escaped href). */
static void cut_note(struct app_page *p, const char *what, const char *more)
{
	struct jw *b = p->out;

	html_raw(b, "<p class=\"mute cut\">");
	html_raw(b, what);
	if (more) {
		html_raw(b, " <a href=\"");
		html_raw(b, more);
		html_raw(b, "\">Read the whole page</a>.");
	}
	html_raw(b, "</p>");
}

/* The inline difference of two markdown texts: changed lines with
 * REVIEW_CONTEXT unchanged ones around them, "..." for the rest. pg (NULL
 * for a deleted page) is the page in the change request: its lines are
 * numbered, take comments (lc) and show those posted on them. */
static int diff_block(struct app_page *p, const char *was, const char *now, int64_t *budget, size_t *left,
		      const char *more, const struct rev_page *pg, const struct line_ctx *lc)
{
	size_t start = p->out->len, cap = *left < REVIEW_DIFF_PAGE_BYTES ? *left : REVIEW_DIFF_PAGE_BYTES;
	bool cut = false;
	struct arena *a = &p->r->arena;
	struct jw *b = p->out;
	struct lines o, n;
	struct dline *d = NULL;
	int nd = 0, shown = 0, last = -1, rc, nmine = 0;
	int *mine = NULL;  /* indexes into lc->items of this page's line comments */
	bool *done = NULL; /* shown beside their line */
	bool any = false, form = false, form_done = false;
	const char *page_id = pg ? pg->id : NULL, *page_q = NULL;

	if ((rc = split_lines(a, was, &o)) || (rc = split_lines(a, now, &n)) || (rc = line_diff(a, &o, &n, budget, &d, &nd)))
		return rc;
	for (int i = 0; i < nd; i++)
		if (d[i].op != ' ')
			any = true;
	if (!any) {
		html_raw(b, "<p class=\"mute\">The text is unchanged.</p>");
		return 0;
	}
	if (page_id) {
		if (!(page_q = app_query_enc(a, page_id)))
			return err_set(ERR_INTERNAL, "out of memory");
		for (int i = 0; i < lc->n; i++)
			if (quoted_line(&lc->items[i].c) && strcmp(lc->items[i].c.target_page, page_id) == 0)
				nmine++;
		if (nmine) {
			mine = arena_alloc(a, (size_t)nmine * sizeof(*mine));
			done = arena_alloc(a, (size_t)nmine * sizeof(*done));
			if (!mine || !done)
				return err_set(ERR_INTERNAL, "out of memory");
			nmine = 0;
			for (int i = 0; i < lc->n; i++)
				if (quoted_line(&lc->items[i].c) && strcmp(lc->items[i].c.target_page, page_id) == 0) {
					done[nmine] = false;
					mine[nmine++] = i;
				}
		}
		form = lc->can && lc->form_line > 0 && lc->form_line <= n.n && lc->form_page &&
		       strcmp(lc->form_page, page_id) == 0;
	}
	/* Each line is a block (its background spans the width) holding its
	 * own "\n": a newline between blocks would render as an empty line. */
	html_raw(b, "<pre class=\"diff\"><code>");
	for (int i = 0; i < nd && shown < REVIEW_DIFF_LINES; i++) {
		bool near = false, extra = false;
		if (b->len - start >= cap) {
			cut = true;
			break;
		}
		for (int j = i - REVIEW_CONTEXT; j <= i + REVIEW_CONTEXT && !near; j++)
			if (j >= 0 && j < nd && d[j].op != ' ')
				near = true;
		if (!near)
			continue;
		if (last >= 0 && i != last + 1)
			html_raw(b, "<span class=\"gap\"><span class=\"ln\"></span>\xe2\x80\xa6\n</span>");
		last = i;
		shown++;
		if (d[i].op == ' ') {
			html_raw(b, "<span class=\"ctx\">");
			gutter(p, lc, page_q, d[i].nline);
			html_raw(b, "  ");
			line_text(p, o.s[d[i].line], o.len[d[i].line]);
			html_raw(b, "\n</span>");
		} else if (d[i].op == '-') {
			html_raw(b, "<del>");
			gutter(p, lc, page_q, -1);
			html_raw(b, "- ");
			line_text(p, o.s[d[i].line], o.len[d[i].line]);
			html_raw(b, "\n</del>");
		} else {
			html_raw(b, "<ins>");
			gutter(p, lc, page_q, d[i].nline);
			html_raw(b, "+ ");
			line_text(p, n.s[d[i].line], n.len[d[i].line]);
			html_raw(b, "\n</ins>");
		}
		if (d[i].nline < 0 || !page_id)
			continue;
		/* What is posted on this line, and the form when it is for it:
		 * between two pieces of the <pre>. */
		long ln = d[i].nline + 1;
		for (int k = 0; k < nmine && !extra; k++)
			extra = quoted_line(&lc->items[mine[k]].c) == ln;
		if (form && ln == lc->form_line)
			extra = true;
		if (!extra)
			continue;
		html_raw(b, "</code></pre>");
		for (int k = 0; k < nmine; k++)
			if (quoted_line(&lc->items[mine[k]].c) == ln) {
				line_comment(p, lc->href, &lc->items[mine[k]], ln, n.s[d[i].nline], n.len[d[i].nline]);
				done[k] = true;
			}
		if (form && ln == lc->form_line) {
			line_form(p, lc, pg, ln, NULL, 0);
			form_done = true;
		}
		html_raw(b, "<pre class=\"diff\"><code>");
	}
	html_raw(b, "</code></pre>");
	if (cut || shown >= REVIEW_DIFF_LINES)
		cut_note(p, "The difference is longer than shown here.", more);
	/* Lines the difference does not show (unchanged, far from a change,
	 * or no longer in the page): their comments and form after it. */
	for (int k = 0; k < nmine; k++) {
		if (!done[k])
			line_comment(p, lc->href, &lc->items[mine[k]], quoted_line(&lc->items[mine[k]].c), NULL, 0);
	}
	if (form && !form_done)
		line_form(p, lc, pg, lc->form_line, n.s[lc->form_line - 1], n.len[lc->form_line - 1]);
	*left -= b->len - start < *left ? b->len - start : *left;
	return 0;
}

/* One side of the rendered comparison: the published site's renderer (its
 * allowlist of HTML, GitBook's blocks); links are left as written. */
static int rendered_side(struct app_page *p, const char *label, const char *md)
{
	struct jw *b = p->out;

	html_raw(b, "<div><h4>");
	html_raw(b, label);
	html_raw(b, "</h4>");
	if (!md) {
		html_raw(b, "<p class=\"mute\">No page.</p></div>");
		return 0;
	}
	html_raw(b, "<article class=\"page\">");
	if (md_to_html(b, &p->r->arena, md, strlen(md), NULL, NULL) < 0)
		return err_set(ERR_INTERNAL, "markdown rendering failed");
	html_raw(b, "</article></div>");
	return 0;
}

/* Both versions rendered side by side, folded (<details>: no script):
 * when their markdown is at most REVIEW_RENDERED_MAX and the HTML fits in
 * what the differences have *left, else a link to the page (more). */
static int rendered_block(struct app_page *p, const char *was, const char *now, size_t *left, const char *more)
{
	struct jw *b = p->out;
	size_t start = b->len, mdlen = (was ? strlen(was) : 0) + (now ? strlen(now) : 0);
	int rc;

	if (mdlen <= REVIEW_RENDERED_MAX) {
		html_raw(b, "<details class=\"rendered\"><summary>Rendered, side by side</summary><div class=\"sides\">");
		if ((rc = rendered_side(p, "Before", was)) || (rc = rendered_side(p, "After", now)))
			return rc;
		html_raw(b, "</div></details>");
		if (!b->oom && b->len - start <= *left) {
			*left -= b->len - start;
			return 0;
		}
		if (!b->oom)
			b->len = start; /* too long: taken back */
	}
	cut_note(p, "Too long to show rendered here.", more);
	return 0;
}

/* "Differences": each added, edited or deleted document page's markdown,
 * base against head (the bodies dom_cr_changes' pages point at). */
static int diff_section(struct app_page *p, const struct space *s, const struct cr_changes *ch,
			const struct line_ctx *lc)
{
	struct jw *b = p->out;
	int shown = 0, rc;
	int64_t budget = REVIEW_LCS_BUDGET;
	size_t left = REVIEW_DIFF_BYTES;

	html_raw(b, "<h2 id=\"differences\">Differences</h2>");
	for (int i = 0; i < ch->n; i++) {
		const struct cr_change *c = &ch->items[i];
		const struct rev_page *pg = c->kind == CR_PAGE_DELETED ? (c->was ? c->was : c->page) : c->page;
		const char *was = NULL, *now = NULL;

		if (!pg || pg->type != PAGE_DOCUMENT)
			continue;
		if (c->kind != CR_PAGE_CREATED && c->kind != CR_PAGE_EDITED && c->kind != CR_PAGE_DELETED)
			continue;
		if (shown == REVIEW_DIFF_PAGES) {
			html_raw(b, "<p class=\"mute\">More pages changed; their differences are not shown here.</p>");
			break;
		}
		/* Where the page is whole: as the change request has it, or
		 * (deleted) as the space still has it. */
		struct jw h;
		const char *more;
		jw_init(&h);
		if (c->kind == CR_PAGE_DELETED) {
			app_href(&h, "/s/", s->id);
		} else {
			html_raw(&h, lc->href);
		}
		html_raw(&h, "/");
		url_path_enc(&h, pg->path ? pg->path : pg->slug);
		more = jw_take(&h, &p->r->arena, NULL);
		if (!more)
			return err_set(ERR_INTERNAL, "out of memory");
		if (left == 0) {
			/* The differences above took the page's room. */
			html_raw(b, "<section class=\"pdiff\"><h3>");
			app_text(b, page_label(pg));
			html_raw(b, "</h3>");
			cut_note(p, "Not shown: the differences above fill this page.", more);
			html_raw(b, "</section>");
			shown++;
			continue;
		}
		if (c->kind == CR_PAGE_EDITED && c->was && (rc = dom_page_body(p->d, c->was->body, &was)))
			return rc;
		if (c->kind == CR_PAGE_DELETED && (rc = dom_page_body(p->d, pg->body, &was)))
			return rc;
		if (c->kind != CR_PAGE_DELETED && (rc = dom_page_body(p->d, c->page->body, &now)))
			return rc;
		html_raw(b, "<section class=\"pdiff\"><h3>");
		app_text(b, page_label(pg));
		html_raw(b, " <span class=\"mute\">");
		app_text(b, pg->path ? pg->path : pg->slug);
		html_raw(b, c->kind == CR_PAGE_CREATED ? " \xc2\xb7 added" : c->kind == CR_PAGE_DELETED ? " \xc2\xb7 deleted" : "");
		html_raw(b, "</span></h3>");
		if ((rc = diff_block(p, was ? was : "", now ? now : "", &budget, &left, more,
				      c->kind == CR_PAGE_DELETED ? NULL : c->page, lc)) ||
		    (rc = rendered_block(p, was, now, &left, more)))
			return rc;
		html_raw(b, "</section>");
		shown++;
	}
	if (shown == 0)
		html_raw(b, "<p class=\"empty\">No page's text differs.</p>");
	return 0;
}

/* ---- merge, update ---- */

static void merge_section(struct app_page *p, const struct space *s, const struct change_request *cr,
			  const struct space_permissions *perm, const char *href)
{
	struct jw *b = p->out;
	bool active = strcmp(cr->status, "open") == 0 || strcmp(cr->status, "draft") == 0;
	bool outdated = strcmp(change_request_base(cr), s->revision ? s->revision : "") != 0;

	html_raw(b, "<h2 id=\"merge\">Merge</h2>");
	if (!active) {
		html_raw(b, "<p class=\"mute\">This change request is ");
		app_text(b, cr->status);
		html_raw(b, ": nothing to merge.</p>");
		return;
	}
	if (outdated) {
		html_raw(b, "<p class=\"banner\">The space changed since this change request began: update it to "
			    "bring those changes in and see conflicts before merging.</p>");
		if (perm->edit) {
			form_open(p, href, "update", "inline");
			html_raw(b, "<button type=\"submit\">Update from the space</button></form> ");
		}
	}
	if (!perm->merge) {
		html_raw(b, "<p class=\"mute\">Your role on this space does not allow merging.</p>");
		return;
	}
	/* The merge rules as the merge itself will evaluate them (read only). */
	if (dom_merge_rules_check(p->d, s, cr) != 0) {
		html_raw(b, "<div class=\"banner blocked\" role=\"status\"><strong>Merging is blocked.</strong> ");
		app_text(b, err_message());
		html_raw(b, "</div>");
		err_clear();
	}
	form_open(p, href, "merge", "inline");
	html_raw(b, "<button type=\"submit\" class=\"primary\">Merge into the space</button></form>");
}

/* ---- reviews and reviewers ---- */

static int reviews_section(struct app_page *p, const struct space *s, const struct change_request *cr,
			   const struct space_permissions *perm, const char *href, const char *number)
{
	struct jw *b = p->out;
	struct list_req lr = { .limit = REVIEW_LIST };
	struct dom_review *rv = NULL;
	struct cr_requested_reviewer *rq = NULL;
	char *next = NULL;
	int nrv = 0, nrq = 0, rc;
	bool active = strcmp(cr->status, "open") == 0 || strcmp(cr->status, "draft") == 0;

	if ((rc = dom_reviews_list(p->d, s->id, number, 0, &lr, COMMENT_MARKDOWN, &rv, &nrv, &next)) ||
	    (rc = dom_reviewers_list(p->d, s->id, number, &lr, &rq, &nrq, &next)))
		return rc;
	html_raw(b, "<h2 id=\"reviews\">Reviews</h2>");
	if (nrv == 0) {
		html_raw(b, "<p class=\"empty\">No current reviews.</p>");
	} else {
		html_raw(b, "<ul class=\"list reviews\">");
		for (int i = 0; i < nrv; i++) {
			bool ok = strcmp(rv[i].r.status, "approved") == 0;
			html_raw(b, "<li><span class=\"badge ");
			html_raw(b, ok ? "st-open\">Approved" : "st-archived\">Changes requested");
			html_raw(b, "</span> ");
			app_text(b, rv[i].r.reviewer.display_name);
			html_raw(b, " <span class=\"mute\">");
			app_date(b, rv[i].r.created_at);
			html_raw(b, "</span>");
			if (rv[i].comment)
				body_cut(p, rv[i].comment->c.markdown, comment_href(p, href, rv[i].comment->c.id, NULL));
			html_raw(b, "</li>");
		}
		html_raw(b, "</ul>");
	}
	html_raw(b, "<h3>Requested reviewers</h3>");
	if (nrq == 0) {
		html_raw(b, "<p class=\"mute\">Nobody has been asked to review.</p>");
	} else {
		html_raw(b, "<ul class=\"list\">");
		for (int i = 0; i < nrq; i++) {
			html_raw(b, "<li>");
			app_text(b, rq[i].user.display_name);
			html_raw(b, " <span class=\"mute\">asked by ");
			app_text(b, rq[i].requested_by.display_name);
			html_raw(b, "</span>");
			if (active && perm->edit) {
				/* A user id is the store's (letters and digits): safe in a path. */
				char *act = arena_printf(&p->r->arena, "reviewers/%s/remove", rq[i].user.id);
				if (!act)
					return err_set(ERR_INTERNAL, "out of memory");
				html_raw(b, " ");
				form_open(p, href, act, "inline");
				html_raw(b, "<button type=\"submit\" aria-label=\"Stop asking ");
				app_text(b, rq[i].user.display_name);
				html_raw(b, "\">Remove</button></form>");
			}
			html_raw(b, "</li>");
		}
		html_raw(b, "</ul>");
	}
	if (!active)
		return 0;
	if (perm->edit) {
		/* Members of the organization; the domain refuses one who may
		 * not read the space. A member list the actor may not read
		 * (a guest) leaves the form out. */
		struct member_filter f = { 0 };
		struct member *m = NULL;
		int nm = 0;
		if (dom_members_list(p->d, s->org_id, &f, &lr, &m, &nm, &next) != 0) {
			err_clear();
			nm = 0;
		}
		if (nm > 0) {
			form_open(p, href, "reviewers", "stack");
			html_raw(b, "<label for=\"rv-user\">Ask a member to review</label><div class=\"row\">"
				    "<select id=\"rv-user\" name=\"user\">");
			for (int i = 0; i < nm; i++) {
				if (p->user_id && strcmp(m[i].user.id, p->user_id) == 0)
					continue;
				html_raw(b, "<option value=\"");
				app_text(b, m[i].user.id);
				html_raw(b, "\">");
				app_text(b, m[i].user.display_name);
				html_raw(b, "</option>");
			}
			html_raw(b, "</select><button type=\"submit\">Request review</button></div></form>");
		}
	}
	if (perm->review && !(p->user_id && cr->created_by.id && strcmp(cr->created_by.id, p->user_id) == 0)) {
		form_open(p, href, "review", "stack");
		html_raw(b, "<fieldset><legend>Your review</legend>"
			    "<label><input type=\"radio\" name=\"status\" value=\"approved\" checked> Approve</label> "
			    "<label><input type=\"radio\" name=\"status\" value=\"changes-requested\"> Request changes</label>"
			    "<label for=\"rv-comment\">Comment (optional)</label>"
			    "<textarea id=\"rv-comment\" name=\"comment\" rows=\"3\" maxlength=\"10000\"></textarea>"
			    "<button type=\"submit\">Submit review</button></fieldset></form>");
	}
	return 0;
}

/* ---- comments ---- */

/* Reactions offered besides those a comment already has. */
static const char *const preset_emojis[] = { "\xf0\x9f\x91\x8d", "\xf0\x9f\x8e\x89", "\xe2\x9d\xa4\xef\xb8\x8f",
					     "\xf0\x9f\x91\x80" };

/* How many reacted with emoji, and whether the signed-in user did. */
static int reaction_count(const struct comment *c, const char *emoji, const char *me, bool *mine)
{
	int n = 0;

	*mine = false;
	for (int i = 0; i < c->nreactions; i++)
		if (strcmp(c->reactions[i].emoji, emoji) == 0) {
			n++;
			if (me && c->reactions[i].user.id && strcmp(c->reactions[i].user.id, me) == 0)
				*mine = true;
		}
	return n;
}

static void reaction_button(struct app_page *p, const struct comment *c, const char *emoji, bool can)
{
	struct jw *b = p->out;
	bool mine;
	int n = reaction_count(c, emoji, p->user_id, &mine);
	char num[16];

	if (!can && n == 0)
		return;
	snprintf(num, sizeof(num), "%d", n);
	if (can) {
		/* The button says what pressing it does: take back a reaction
		 * of one's own, else add it (the domain's added/removed lists). */
		html_raw(b, "<button type=\"submit\" name=\"");
		html_raw(b, mine ? "remove" : "add");
		html_raw(b, "\" value=\"");
		app_text(b, emoji);
		html_raw(b, "\" aria-pressed=\"");
		html_raw(b, mine ? "true" : "false");
		html_raw(b, "\" aria-label=\"");
		app_text(b, emoji);
		html_raw(b, " reactions: ");
		html_raw(b, num);
		html_raw(b, mine ? " (yours: press to take it back)" : "");
		html_raw(b, "\">");
	} else {
		html_raw(b, "<span class=\"react\">");
	}
	app_text(b, emoji);
	if (n > 0) {
		html_raw(b, " ");
		html_raw(b, num);
	}
	html_raw(b, can ? "</button>" : "</span>");
}

/* A comment's reactions: buttons for a member who may react (the comment
 * role, permissions.reply), counts for the others; own: on the comment's
 * own page (the form goes back there). */
#define REVIEW_EMOJIS 16 /* emojis beyond the presets shown on one comment */
static void reactions_row(struct app_page *p, const struct comment *c, bool can, const char *href, bool own)
{
	struct jw *b = p->out;
	bool any = c->nreactions > 0;
	int extra = 0;

	if (!can && !any)
		return;
	if (can) {
		char *act = arena_printf(&p->r->arena, "comments/%s/react", c->id);
		if (!act)
			return;
		form_open(p, href, act, "reacts");
		back_field(p, own);
	} else {
		html_raw(b, "<p class=\"reacts\">");
	}
	for (size_t i = 0; i < sizeof(preset_emojis) / sizeof(preset_emojis[0]); i++)
		reaction_button(p, c, preset_emojis[i], can);
	/* Others' emojis beyond the presets, each once. */
	for (int i = 0; i < c->nreactions && extra < REVIEW_EMOJIS; i++) {
		const char *e = c->reactions[i].emoji;
		bool seen = false;
		for (size_t j = 0; j < sizeof(preset_emojis) / sizeof(preset_emojis[0]) && !seen; j++)
			seen = strcmp(preset_emojis[j], e) == 0;
		for (int j = 0; j < i && !seen; j++)
			seen = strcmp(c->reactions[j].emoji, e) == 0;
		if (!seen) {
			reaction_button(p, c, e, can);
			extra++;
		}
	}
	html_raw(b, can ? "</form>" : "</p>");
}

/* The Edit and Delete controls of a comment (comment_id's, dc its own) or
 * a reply (dc), each shown only when the comment's permissions allow it
 * (comment_permissions: the author edits; the author or the create role
 * deletes); the domain decides either way. Edit is a link to the comment's
 * own page with ?edit={id}, where the body is in the form's textarea
 * instead of shown: one copy of it on either page, no script needed. own:
 * on that page (cursor: its ?page=, kept by the link). */
static int change_controls(struct app_page *p, const char *href, const char *comment_id, const struct dom_comment *dc,
			   bool own, const char *cursor)
{
	struct jw *b = p->out;
	const struct comment *c = &dc->c;
	const char *what = c->parent_id ? "reply" : "comment";
	/* Ids are the store's (letters and digits): safe in a path. */
	const char *base = c->parent_id ? arena_printf(&p->r->arena, "comments/%s/replies/%s/", comment_id, c->id)
					: arena_printf(&p->r->arena, "comments/%s/", c->id);

	if (!dc->view.perms.edit && !dc->view.perms.del)
		return 0;
	if (!base)
		return err_set(ERR_INTERNAL, "out of memory");
	html_raw(b, "<div class=\"cctl\">");
	if (dc->view.perms.edit) {
		html_raw(b, "<a class=\"cedit\" href=\"");
		html_raw(b, comment_href(p, href, comment_id, "?"));
		if (own && cursor && *cursor) {
			const char *q = app_query_enc(&p->r->arena, cursor);
			if (!q)
				return err_set(ERR_INTERNAL, "out of memory");
			html_raw(b, "page=");
			app_text(b, q);
			html_raw(b, "&amp;");
		}
		html_raw(b, "edit=");
		app_text(b, c->id);
		html_raw(b, "#e-");
		app_text(b, c->id);
		html_raw(b, "\">Edit<span class=\"sr\"> this ");
		html_raw(b, what);
		html_raw(b, "</span></a> ");
	}
	if (dc->view.perms.del) {
		const char *act = arena_printf(&p->r->arena, "%sdelete", base);
		if (!act)
			return err_set(ERR_INTERNAL, "out of memory");
		form_open(p, href, act, "inline");
		back_field(p, own && c->parent_id); /* a deleted comment's page is gone */
		html_raw(b, "<button type=\"submit\" class=\"danger\">Delete<span class=\"sr\"> this ");
		html_raw(b, c->parent_id ? "reply" : "comment and its replies");
		html_raw(b, "</span></button></form>");
	}
	html_raw(b, "</div>");
	return 0;
}

/* On a comment's own page (?edit={id}), in place of the body of dc (the
 * comment comment_id or one of its replies): the form to change it, the
 * body (or a refused edit's text) once, in its textarea. */
static int edit_form(struct app_page *p, const char *href, const char *comment_id, const struct comment *c,
		     const char *text)
{
	struct jw *b = p->out;
	const char *what = c->parent_id ? "reply" : "comment";
	const char *act = c->parent_id ? arena_printf(&p->r->arena, "comments/%s/replies/%s/edit", comment_id, c->id)
				       : arena_printf(&p->r->arena, "comments/%s/edit", c->id);

	if (!act)
		return err_set(ERR_INTERNAL, "out of memory");
	form_open(p, href, act, "stack cedit");
	back_field(p, true);
	html_raw(b, "<label for=\"e-");
	app_text(b, c->id);
	html_raw(b, "\">Your ");
	html_raw(b, what);
	html_raw(b, "</label><textarea id=\"e-");
	app_text(b, c->id);
	html_raw(b, "\" name=\"markdown\" rows=\"6\" maxlength=\"10000\" required>");
	app_text(b, text ? text : c->markdown ? c->markdown : "");
	html_raw(b, "</textarea><div class=\"row\"><button type=\"submit\">Save</button> <a href=\"");
	html_raw(b, comment_href(p, href, comment_id, c->parent_id ? "#rp-" : "#c-"));
	app_text(b, c->id);
	html_raw(b, "\">Cancel</a></div></form>");
	return 0;
}

/* Who posted, when, and "(edited)" when the body changed since. */
static void comment_head(struct jw *b, const struct comment *c)
{
	html_raw(b, "<p class=\"chead\"><strong>");
	app_text(b, c->posted_by.display_name);
	html_raw(b, "</strong> <span class=\"mute\">");
	app_date(b, c->posted_at);
	if (c->edited_at)
		html_raw(b, " (edited)");
}

/* A comment's head line: comment_head, the page (and line) it is on, and
 * "Resolved". */
static void comment_title(struct app_page *p, const char *href, const struct dom_comment *dc)
{
	struct jw *b = p->out;
	const struct comment *c = &dc->c;
	long line = quoted_line(c);

	comment_head(b, c);
	if (dc->view.page) {
		html_raw(b, " \xc2\xb7 on ");
		app_text(b, dc->view.page->title);
		if (line) {
			char num[24];
			snprintf(num, sizeof(num), "%ld", line);
			html_raw(b, ", <a href=\"");
			html_raw(b, href);
			html_raw(b, "#lc-");
			app_text(b, c->id);
			html_raw(b, "\">line ");
			html_raw(b, num);
			html_raw(b, "</a>");
		}
	}
	html_raw(b, "</span>");
	if (c->status && strcmp(c->status, "resolved") == 0)
		html_raw(b, " <span class=\"badge st-merged\">Resolved</span>");
	html_raw(b, "</p>");
}

/* The reply form and Resolve / Reopen under a comment, for a member who
 * may (permissions.reply); own: on the comment's own page. */
static int reply_forms(struct app_page *p, const char *href, const struct dom_comment *dc, bool own)
{
	struct jw *b = p->out;
	const struct comment *c = &dc->c;
	bool resolved = c->status && strcmp(c->status, "resolved") == 0;
	/* A comment id is the store's (letters and digits): safe in a path. */
	char *reply = arena_printf(&p->r->arena, "comments/%s/reply", c->id);
	char *resolve = arena_printf(&p->r->arena, "comments/%s/resolve", c->id);

	if (!dc->view.perms.reply)
		return 0;
	if (!reply || !resolve)
		return err_set(ERR_INTERNAL, "out of memory");
	form_open(p, href, reply, "stack reply");
	back_field(p, own);
	html_raw(b, "<label for=\"r-");
	app_text(b, c->id);
	html_raw(b, "\">Reply</label><textarea rows=\"2\" maxlength=\"10000\" name=\"markdown\" id=\"r-");
	app_text(b, c->id);
	html_raw(b, "\" required></textarea><button type=\"submit\">Reply</button></form>");
	form_open(p, href, resolve, "inline");
	back_field(p, own);
	html_raw(b, resolved ? "<input type=\"hidden\" name=\"resolved\" value=\"0\">"
			       "<button type=\"submit\">Reopen</button></form>"
			     : "<input type=\"hidden\" name=\"resolved\" value=\"1\">"
			       "<button type=\"submit\">Resolve</button></form>");
	return 0;
}

/* "Comments": REVIEW_COMMENTS at a time, newest first (items, next: the
 * page review_sections listed), each body cut at REVIEW_BODY_BYTES, with
 * its first REVIEW_REPLIES_INLINE replies and a link to its own page for
 * the rest; the pager keeps ?on=&line= (a line's form). */
static int comments_section(struct app_page *p, const struct space *s, const struct space_permissions *perm,
			    const char *href, const char *number, const struct cr_changes *ch,
			    const struct dom_comment *items, int n, const char *next)
{
	static const char *const keep[] = { "on", "line", NULL };
	struct jw *b = p->out;
	struct comment_at at = { s->id, number };
	struct list_req lr = { .limit = REVIEW_REPLIES_INLINE };
	int rc;

	html_raw(b, "<h2 id=\"comments\">Comments</h2>");
	if (n == 0)
		html_raw(b, req_query(p->r, "page") ? "<p class=\"empty\">No older comments.</p>"
						    : "<p class=\"empty\">No comments yet.</p>");
	for (int i = 0; i < n; i++) {
		const struct comment *c = &items[i].c;
		const char *chref = comment_href(p, href, c->id, NULL);
		struct dom_comment *rp = NULL;
		int nrp = 0;
		char *rnext = NULL;

		html_raw(b, "<article class=\"comment");
		html_raw(b, c->status && strcmp(c->status, "resolved") == 0 ? " resolved" : "");
		html_raw(b, "\" id=\"c-");
		app_text(b, c->id);
		html_raw(b, "\">");
		comment_title(p, "", &items[i]);
		body_cut(p, c->markdown, chref);
		reactions_row(p, c, items[i].view.perms.reply, href, false);
		if ((rc = change_controls(p, href, c->id, &items[i], false, NULL)))
			return rc;
		if (c->replies > 0) {
			if ((rc = dom_replies_list(p->d, &at, c->id, &lr, COMMENT_MARKDOWN, &rp, &nrp, &rnext)))
				return rc;
			html_raw(b, "<ul class=\"replies\">");
			for (int j = 0; j < nrp; j++) {
				html_raw(b, "<li id=\"rp-");
				app_text(b, rp[j].c.id);
				html_raw(b, "\">");
				comment_head(b, &rp[j].c);
				html_raw(b, "</span></p>");
				body_cut(p, rp[j].c.markdown, chref);
				if ((rc = change_controls(p, href, c->id, &rp[j], false, NULL)))
					return rc;
				html_raw(b, "</li>");
			}
			html_raw(b, "</ul>");
			if (rnext || c->replies > nrp) {
				char more[48];
				int64_t k = c->replies - nrp;
				if (k > 0)
					snprintf(more, sizeof(more), "%lld more %s", (long long)k, k == 1 ? "reply" : "replies");
				else
					snprintf(more, sizeof(more), "More replies");
				html_raw(b, "<p class=\"more\"><a href=\"");
				html_raw(b, comment_href(p, href, c->id, "#replies"));
				html_raw(b, "\">");
				html_raw(b, more);
				html_raw(b, "</a></p>");
			}
		}
		if ((rc = reply_forms(p, href, &items[i], false)))
			return rc;
		html_raw(b, "</article>");
	}
	app_pager(p, href, keep, next, "Older comments");
	if (perm->comment) {
		form_open(p, href, "comment", "stack");
		html_raw(b, "<label for=\"new-comment\">Add a comment</label>"
			    "<textarea id=\"new-comment\" name=\"markdown\" rows=\"4\" maxlength=\"10000\" required></textarea>"
			    "<label for=\"comment-on\">On</label><select id=\"comment-on\" name=\"page\">"
			    "<option value=\"\">the whole change request</option>");
		/* The pages the change request has (a deleted one is not in
		 * its content: the domain would refuse it). */
		for (int i = 0; ch && i < ch->n; i++) {
			const struct cr_change *c = &ch->items[i];
			if (!c->page || c->kind == CR_PAGE_DELETED)
				continue;
			html_raw(b, "<option value=\"");
			app_text(b, c->page->id);
			html_raw(b, "\">the page ");
			app_text(b, page_label(c->page));
			html_raw(b, "</option>");
		}
		html_raw(b, "</select><button type=\"submit\">Comment</button></form>");
	}
	return 0;
}

int review_sections(struct app_page *p, const struct space *s, const struct change_request *cr,
		    const struct cr_changes *ch)
{
	struct space_permissions perm;
	const char *href = cr_href(p, s->id, cr->number);
	char *number = arena_printf(&p->r->arena, "%lld", (long long)cr->number);
	struct comment_at at = { s->id, number };
	struct comment_filter f = { 0 };
	struct list_req lr;
	struct cursor cur;
	struct dom_comment *items = NULL;
	char *next = NULL;
	int n = 0, rc;
	long line = 0;

	if (!number)
		return err_set(ERR_INTERNAL, "out of memory");
	/* The comments first: those on a line are shown beside it. Newest
	 * first, as the API lists them by default (order=desc): a comment
	 * just posted is on the first page; ?page= for older ones. */
	if ((rc = app_list(p, &lr, &cur, 1)))
		return rc;
	if (lr.limit > REVIEW_COMMENTS)
		lr.limit = REVIEW_COMMENTS;
	if ((rc = dom_comments_list(p->d, &at, &f, &lr, COMMENT_MARKDOWN, &items, &n, &next)))
		return rc;
	if (refusal) {
		html_raw(p->out, "<div class=\"hint hint-danger\" role=\"alert\" id=\"refusal\"><p><strong>Not done.</strong> ");
		app_text(p->out, refusal);
		html_raw(p->out, "</p></div>");
	}
	/* What the API's space serializer says this member may do. */
	space_permissions(&perm, s->access, s->edit_mode && strcmp(s->edit_mode, "locked") == 0);
	/* ?on=&line=: the form for a comment on that line of page ?on= (its
	 * gutter link); anything else there is ignored. */
	if (req_query_int(p->r, "line", 1, 10000000, &line) != 1) {
		err_clear();
		line = 0;
	}
	struct line_ctx lc = { href, perm.comment, req_query(p->r, "on"), line, NULL, items, n };
	if (!line && refused_line.line) {
		lc.form_page = refused_line.page;
		lc.form_line = refused_line.line;
		lc.form_text = refused_line.text;
	}
	if ((rc = diff_section(p, s, ch, &lc)))
		return rc;
	merge_section(p, s, cr, &perm, href);
	if ((rc = reviews_section(p, s, cr, &perm, href, number)))
		return rc;
	return comments_section(p, s, &perm, href, number, ch, items, n, next);
}

/* ---- a comment's own page ---- */

/* GET .../~/changes/{number}/~/comments/{commentId}: the comment whole,
 * its replies REVIEW_REPLIES at a time, oldest first (?page=, app_pager),
 * its reactions and forms (those going back here carry back=comment);
 * ?edit={id} shows that comment's or reply's body in its edit form instead
 * (one copy). getCommentInChangeRequest's dom_comment_get and
 * listCommentRepliesInChangeRequest's dom_replies_list: another
 * organization's or a missing comment is the 404 page. */
int page_review_comment_view(struct app_page *p)
{
	const char *sid = req_param(p->r, "spaceId"), *cid = req_param(p->r, "commentId"), *num;
	const char *edit = req_query(p->r, "edit"), *edit_text = NULL, *cursor = req_query(p->r, "page");
	const char *href, *chref;
	struct space s;
	struct change_request cr;
	struct dom_comment dc;
	struct dom_comment *rp = NULL;
	struct comment_at at;
	struct list_req lr;
	struct cursor cur;
	struct jw *b = p->out;
	char *next = NULL;
	int nrp = 0, rc;

	if ((rc = cr_number(p, &num)))
		return rc;
	at = (struct comment_at){ sid, num };
	if ((rc = dom_cr_get(p->d, sid, num, &s, &cr)) ||
	    (rc = dom_comment_get(p->d, &at, cid, NULL, COMMENT_MARKDOWN, &dc)) || (rc = app_list(p, &lr, &cur, 0)))
		return rc;
	if (lr.limit > REVIEW_REPLIES)
		lr.limit = REVIEW_REPLIES;
	if ((rc = dom_replies_list(p->d, &at, dc.c.id, &lr, COMMENT_MARKDOWN, &rp, &nrp, &next)))
		return rc;
	if (refused_edit.id) {
		edit = refused_edit.id;
		edit_text = refused_edit.text;
	}
	href = cr_href(p, s.id, cr.number);
	chref = comment_href(p, href, dc.c.id, NULL);
	{
		struct app_crumb crumbs[] = {
			{ "Home", "/" },
			{ cr.subject && *cr.subject ? cr.subject : "Change request", href },
			{ "Comment", NULL },
		};
		app_frame_begin(p, "Comment", crumbs, 3);
	}
	html_raw(b, "<h1>Comment</h1>");
	if (refusal) {
		html_raw(b, "<div class=\"hint hint-danger\" role=\"alert\" id=\"refusal\"><p><strong>Not done.</strong> ");
		app_text(b, refusal);
		html_raw(b, "</p></div>");
	}
	html_raw(b, "<article class=\"comment");
	html_raw(b, dc.c.status && strcmp(dc.c.status, "resolved") == 0 ? " resolved" : "");
	html_raw(b, "\" id=\"c-");
	app_text(b, dc.c.id);
	html_raw(b, "\">");
	comment_title(p, href, &dc);
	if (edit && strcmp(edit, dc.c.id) == 0 && dc.view.perms.edit)
		rc = edit_form(p, href, dc.c.id, &dc.c, edit_text);
	else
		body_text(b, dc.c.markdown);
	if (rc)
		return rc;
	reactions_row(p, &dc.c, dc.view.perms.reply, href, true);
	if ((rc = change_controls(p, href, dc.c.id, &dc, true, cursor)))
		return rc;
	html_raw(b, "<h2 id=\"replies\">Replies</h2>");
	if (nrp == 0)
		html_raw(b, cursor && *cursor ? "<p class=\"empty\">No more replies.</p>" : "<p class=\"empty\">No replies yet.</p>");
	else
		html_raw(b, "<ul class=\"replies\">");
	for (int j = 0; j < nrp; j++) {
		html_raw(b, "<li id=\"rp-");
		app_text(b, rp[j].c.id);
		html_raw(b, "\">");
		comment_head(b, &rp[j].c);
		html_raw(b, "</span></p>");
		if (edit && strcmp(edit, rp[j].c.id) == 0 && rp[j].view.perms.edit)
			rc = edit_form(p, href, dc.c.id, &rp[j].c, edit_text);
		else
			body_text(b, rp[j].c.markdown);
		if (rc || (rc = change_controls(p, href, dc.c.id, &rp[j], true, cursor)))
			return rc;
		html_raw(b, "</li>");
	}
	if (nrp > 0)
		html_raw(b, "</ul>");
	app_pager(p, chref, NULL, next, "More replies");
	if ((rc = reply_forms(p, href, &dc, true)))
		return rc;
	html_raw(b, "</article><p><a href=\"");
	html_raw(b, href);
	html_raw(b, "#comments\">Back to the change request</a></p>");
	app_frame_end(p);
	return 0;
}

/* ---- the forms ---- */

/* The body of a comment on line `line` (the form's text) of page pg of the
 * change request: "> Line N: <the line>" (at most LINE_QUOTE_CHARS
 * characters of it), a blank line, then md. The line is read from the
 * change request's current text, never taken from the form. A change
 * request the member does not read stays the 404 page; a page or a line it
 * does not have is a 400 naming the field. */
static int quote_line(struct app_page *p, const char *sid, const char *num, const char *pg, const char *line,
		      const char *md, const char **out)
{
	struct space s;
	struct change_request cr;
	struct dom_page dp;
	struct lines ls;
	const char *body = NULL;
	uint64_t n;
	size_t len, cut = 0;
	long chars = 0;
	int rc;

	if (parse_decimal(line, 10000000, &n) || n < 1)
		return err_set(ERR_INVALID, "line: a line number from 1");
	if (!pg || !*pg)
		return err_set(ERR_INVALID, "page: required with a line");
	/* The quote alone is no comment (the domain would take it). */
	if (md[strspn(md, " \t\r\n")] == '\0')
		return err_set(ERR_INVALID, "body.markdown: must not be empty");
	if ((rc = dom_cr_get(p->d, sid, num, &s, &cr)))
		return rc;
	rc = dom_page_get(p->d, sid, num, NULL, pg, NULL, false, false, &dp);
	if (rc == ERR_NOT_FOUND || (rc == 0 && dp.page->type != PAGE_DOCUMENT))
		return err_set(ERR_INVALID, "page: no such document page in the change request");
	if (rc || (rc = dom_page_body(p->d, dp.page->body, &body)) || (rc = split_lines(&p->r->arena, body, &ls)))
		return rc;
	if (n > (uint64_t)ls.n)
		return err_set(ERR_INVALID, "line: the page has %d lines", ls.n);
	len = ls.len[n - 1];
	/* At most LINE_QUOTE_CHARS characters, cut between two of them. */
	for (cut = 0; cut < len && chars < LINE_QUOTE_CHARS; chars++) {
		cut++;
		while (cut < len && ((unsigned char)ls.s[n - 1][cut] & 0xc0) == 0x80)
			cut++;
	}
	*out = arena_printf(&p->r->arena, LINE_QUOTE "%llu: %.*s%s\n\n%s", (unsigned long long)n, (int)cut,
			    ls.s[n - 1], cut < len ? "\xe2\x80\xa6" : "", md);
	return *out ? 0 : err_set(ERR_INTERNAL, "out of memory");
}

/* refused() for a comment on a line: the change request's page shows its
 * form again, under the line, with the text that was typed. */
static int refused_on_line(struct app_page *p, int rc, const char *pg, const char *line, const char *typed)
{
	uint64_t n;

	if (pg && *pg && parse_decimal(line, 10000000, &n) == 0 && n >= 1) {
		refused_line.page = pg;
		refused_line.line = (long)n;
		refused_line.text = typed;
	}
	rc = refused(p, rc);
	memset(&refused_line, 0, sizeof(refused_line));
	return rc;
}

int page_review_comment(struct app_page *p)
{
	const char *sid = req_param(p->r, "spaceId"), *num, *md, *typed, *pg = NULL, *line = NULL;
	struct comment_at at;
	struct comment_new in = { 0 };
	struct dom_comment out;
	int rc;

	if ((rc = cr_number(p, &num)) || (rc = required(p, "markdown", &md)) || (rc = field(p, "page", &pg)) < 0 ||
	    (rc = field(p, "line", &line)) < 0)
		return refused(p, rc);
	typed = md;
	/* A comment on a line: the line quoted above what was written. */
	if (line && (rc = quote_line(p, sid, num, pg, line, md, &md)))
		return refused_on_line(p, rc, pg, line, typed);
	at = (struct comment_at){ sid, num };
	in.markdown = md;
	in.page = pg && *pg ? pg : NULL; /* "": the whole change request */
	if ((rc = dom_comment_post(p->d, &at, &in, &out)))
		return line ? refused_on_line(p, rc, pg, line, typed) : refused(p, rc);
	/* A comment on a line: back to it, beside its line. */
	return back_to(p, sid, num, line ? arena_printf(&p->r->arena, "#lc-%s", out.c.id) : "#comments");
}

int page_review_reply(struct app_page *p)
{
	const char *sid = req_param(p->r, "spaceId"), *cid = req_param(p->r, "commentId"), *num, *md;
	struct comment_at at;
	struct dom_comment out;
	int rc;

	if ((rc = cr_number(p, &num)) || (rc = required(p, "markdown", &md)))
		return refused(p, rc);
	at = (struct comment_at){ sid, num };
	if ((rc = dom_reply_post(p->d, &at, cid, md, &out)))
		return refused(p, rc);
	return back_to2(p, sid, num, "#comments", "#replies");
}

int page_review_resolve(struct app_page *p)
{
	const char *sid = req_param(p->r, "spaceId"), *cid = req_param(p->r, "commentId"), *num, *v;
	struct comment_at at;
	struct comment_edit e = { .resolved = -1 };
	struct dom_comment out;
	int rc;

	if ((rc = cr_number(p, &num)) || (rc = required(p, "resolved", &v)))
		return refused(p, rc);
	if (strcmp(v, "1") == 0)
		e.resolved = 1;
	else if (strcmp(v, "0") == 0)
		e.resolved = 0;
	else
		return refused(p, err_set(ERR_INVALID, "resolved: must be 1 or 0"));
	at = (struct comment_at){ sid, num };
	if ((rc = dom_comment_update(p->d, &at, cid, NULL, &e, &out)))
		return refused(p, rc);
	return back_to(p, sid, num, "#comments");
}

int page_review_reviewers(struct app_page *p)
{
	const char *sid = req_param(p->r, "spaceId"), *num, *user;
	struct cr_requested_reviewer *out = NULL;
	int nout = 0, rc;

	if ((rc = cr_number(p, &num)) || (rc = required(p, "user", &user)))
		return refused(p, rc);
	if ((rc = dom_reviewers_request(p->d, sid, num, &user, 1, NULL, NULL, &out, &nout)))
		return refused(p, rc);
	return back_to(p, sid, num, "#reviews");
}

int page_review_submit(struct app_page *p)
{
	const char *sid = req_param(p->r, "spaceId"), *num, *status, *comment = NULL;
	struct space s;
	struct change_request cr;
	struct dom_review out;
	int rc;

	if ((rc = cr_number(p, &num)) || (rc = required(p, "status", &status)))
		return refused(p, rc);
	if ((rc = field(p, "comment", &comment)) < 0)
		return refused(p, rc);
	/* An empty comment box is no comment (the domain refuses a blank one). */
	if (comment) {
		const char *c = comment;
		while (*c == ' ' || *c == '\n' || *c == '\r' || *c == '\t')
			c++;
		if (!*c)
			comment = NULL;
	}
	if ((rc = dom_review_submit(p->d, sid, num, status, comment, &s, &cr, &out)))
		return refused(p, rc);
	return back_to(p, sid, num, "#reviews");
}

/* base (an escaped href) + "/" + pg's path: where pg is read whole. */
static const char *page_href(struct app_page *p, const char *base, const struct rev_page *pg)
{
	struct jw h;
	const char *out;

	jw_init(&h);
	html_raw(&h, base);
	html_raw(&h, "/");
	url_path_enc(&h, pg->path ? pg->path : pg->slug ? pg->slug : "");
	out = jw_take(&h, &p->r->arena, NULL);
	return out;
}

/* One side of a conflict: at most REVIEW_CONFLICT_BYTES of its markdown;
 * a longer one says where it is whole (more). */
static void conflict_side(struct app_page *p, const char *md, const char *more)
{
	struct jw *b = p->out;
	size_t len = md ? strlen(md) : 0;
	size_t cut = len > REVIEW_CONFLICT_BYTES ? utf8_cut(md, REVIEW_CONFLICT_BYTES) : len;
	const char *t = cut < len ? arena_strndup(&p->r->arena, md, cut) : md;

	html_raw(b, "<pre>");
	app_text(b, t ? t : "");
	html_raw(b, cut < len ? "\xe2\x80\xa6</pre>" : "</pre>");
	if (cut < len)
		cut_note(p, "Cut here.", more);
}

/* A merge or an update that conflicts: each page with the change request's
 * and the space's markdown (nothing was written); the first
 * REVIEW_CONFLICTS pages, each side cut at REVIEW_CONFLICT_BYTES. */
static int conflicts_page(struct app_page *p, const char *sid, const char *num, const char *what,
			  const struct cr_merge_result *m)
{
	struct jw *b = p->out;
	struct space s;
	struct change_request cr;
	int rc;

	if ((rc = dom_cr_get(p->d, sid, num, &s, &cr)))
		return rc;
	p->status = 409;
	{
		const char *href = cr_href(p, s.id, cr.number);
		struct app_crumb crumbs[] = {
			{ "Home", "/" },
			{ cr.subject && *cr.subject ? cr.subject : "Change request", href },
			{ "Conflicts", NULL },
		};
		app_frame_begin(p, "Conflicts", crumbs, 3);
		html_raw(b, "<h1>Conflicts</h1><p>The ");
		html_raw(b, what);
		html_raw(b, " was not made: these pages were changed both in the change request and in the space. "
			    "Edit the change request so each reads as it should, then try again.</p>");
		for (int i = 0; i < m->nconflicts; i++) {
			const struct merge_conflict *c = &m->conflicts[i];
			struct dom_page ours = { 0 }, theirs = { 0 };
			bool have_ours, have_theirs;

			if (i == REVIEW_CONFLICTS) {
				char more[64];
				snprintf(more, sizeof(more), "%d more pages conflict; the API lists them all.",
					 m->nconflicts - i);
				html_raw(b, "<p class=\"mute\">");
				html_raw(b, more);
				html_raw(b, "</p>");
				break;
			}

			html_raw(b, "<section class=\"conflict\"><h2>");
			if (c->file) {
				html_raw(b, "File ");
				app_text(b, c->page_id);
				html_raw(b, "</h2><p>");
				app_text(b, c->reason);
				html_raw(b, "</p></section>");
				continue;
			}
			have_ours = dom_page_get(p->d, sid, num, NULL, c->page_id, NULL, false, true, &ours) == 0;
			if (!have_ours)
				err_clear();
			have_theirs = dom_page_get(p->d, sid, NULL, NULL, c->page_id, NULL, false, true, &theirs) == 0;
			if (!have_theirs)
				err_clear();
			app_text(b, have_ours ? page_label(ours.page) : have_theirs ? page_label(theirs.page) : c->page_id);
			html_raw(b, "</h2><p class=\"mute\">");
			app_text(b, c->reason);
			html_raw(b, "</p><div class=\"sides\"><div><h3>In this change request</h3>");
			if (have_ours) {
				conflict_side(p, ours.markdown, page_href(p, href, ours.page));
			} else {
				html_raw(b, "<p class=\"mute\">Deleted.</p>");
			}
			html_raw(b, "</div><div><h3>In the space</h3>");
			if (have_theirs) {
				conflict_side(p, theirs.markdown, page_href(p, app_path(p, "/s/", s.id, NULL), theirs.page));
			} else {
				html_raw(b, "<p class=\"mute\">Deleted.</p>");
			}
			html_raw(b, "</div></div></section>");
		}
		html_raw(b, "<p><a href=\"");
		html_raw(b, href);
		html_raw(b, "\">Back to the change request</a></p>");
		app_frame_end(p);
	}
	return 0;
}

int page_review_merge(struct app_page *p)
{
	const char *sid = req_param(p->r, "spaceId"), *num;
	struct cr_merge_result m;
	int rc;

	if ((rc = cr_number(p, &num)) || (rc = dom_cr_merge(p->d, sid, num, &m)))
		return refused(p, rc);
	if (m.nconflicts > 0)
		return conflicts_page(p, sid, num, "merge", &m);
	return back_to(p, sid, num, "");
}

int page_review_update(struct app_page *p)
{
	const char *sid = req_param(p->r, "spaceId"), *num;
	struct cr_merge_result m;
	int rc;

	if ((rc = cr_number(p, &num)) || (rc = dom_cr_update_from_space(p->d, sid, num, &m)))
		return refused(p, rc);
	if (m.nconflicts > 0)
		return conflicts_page(p, sid, num, "update", &m);
	return back_to(p, sid, num, "#merge");
}

int page_review_react(struct app_page *p)
{
	const char *sid = req_param(p->r, "spaceId"), *cid = req_param(p->r, "commentId"), *num, *add, *rm;
	struct comment_at at;
	struct comment_edit e = { .resolved = -1 };
	struct dom_comment out;
	int rc, has_add, has_rm;

	if ((rc = cr_number(p, &num)))
		return rc;
	if ((has_add = field(p, "add", &add)) < 0)
		return refused(p, has_add);
	if ((has_rm = field(p, "remove", &rm)) < 0)
		return refused(p, has_rm);
	if (has_add == has_rm)
		return refused(p, err_set(ERR_INVALID, "add: one emoji to add or to remove"));
	if (has_add) {
		e.added = &add;
		e.nadded = 1;
	} else {
		e.removed = &rm;
		e.nremoved = 1;
	}
	at = (struct comment_at){ sid, num };
	if ((rc = dom_comment_update(p->d, &at, cid, NULL, &e, &out)))
		return refused(p, rc);
	return back_to(p, sid, num, "#comments");
}

int page_review_reviewer_remove(struct app_page *p)
{
	const char *sid = req_param(p->r, "spaceId"), *uid = req_param(p->r, "userId"), *num;
	bool removed = false;
	int rc;

	if ((rc = cr_number(p, &num)))
		return rc;
	if ((rc = dom_reviewer_remove(p->d, sid, num, uid, &removed)))
		return refused(p, rc);
	return back_to(p, sid, num, "#reviews");
}

/* Edit the body of a comment, or of a reply (.../replies/{replyId}/edit):
 * updateCommentInChangeRequest's / updateCommentReplyInChangeRequest's
 * dom_comment_update, which lets the author only. */
int page_review_comment_edit(struct app_page *p)
{
	const char *sid = req_param(p->r, "spaceId"), *cid = req_param(p->r, "commentId"),
		   *rid = req_param(p->r, "replyId"), *num, *md;
	struct comment_at at;
	struct comment_edit e = { .resolved = -1 };
	struct dom_comment out;
	int rc;

	const char *anchor;

	if ((rc = cr_number(p, &num)))
		return rc;
	if ((rc = required(p, "markdown", &md)) == 0) {
		e.markdown = md;
		at = (struct comment_at){ sid, num };
		rc = dom_comment_update(p->d, &at, cid, rid, &e, &out);
	}
	if (rc) {
		/* On the comment's page: its form again, with what was typed. */
		refused_edit.id = rid ? rid : cid;
		refused_edit.text = md; /* NULL: none came, the body as it is */
		rc = refused(p, rc);
		memset(&refused_edit, 0, sizeof(refused_edit));
		return rc;
	}
	anchor = arena_printf(&p->r->arena, "#%s-%s", rid ? "rp" : "c", rid ? rid : cid);
	return back_to2(p, sid, num, anchor, anchor);
}

/* Delete a comment with its replies, or a reply: deleteCommentInChangeRequest's
 * / deleteCommentReplyInChangeRequest's dom_comment_delete (the author, or
 * the create role on the space). One already gone is no error (the domain's
 * answer, as the API's 204). */
int page_review_comment_delete(struct app_page *p)
{
	const char *sid = req_param(p->r, "spaceId"), *cid = req_param(p->r, "commentId"),
		   *rid = req_param(p->r, "replyId"), *num;
	struct comment_at at;
	int rc;

	if ((rc = cr_number(p, &num)))
		return rc;
	at = (struct comment_at){ sid, num };
	if ((rc = dom_comment_delete(p->d, &at, cid, rid, NULL)))
		return refused(p, rc);
	if (!rid) /* the comment's own page is gone with it */
		return back_to_cr(p, sid, num, "#comments");
	return back_to2(p, sid, num, arena_printf(&p->r->arena, "#c-%s", cid), "#replies");
}
