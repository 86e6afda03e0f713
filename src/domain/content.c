/*
 * content.c - what content operations share: the change request and the
 * revision a route addresses, and summaries of pages.
 */
#include "domain/content.h"
#include "domain/secrets.h"
#include "domain/openapi.h"
#include "util/util.h"
#include "model/revision.h"
#include "json/serialize_comments.h"
#include "util/err.h"
#include "util/text.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

int dom_change_request_get(struct dom *d, const struct space *s, const char *key, struct change_request *out)
{
	char *end;
	long long num = strtoll(key, &end, 10);
	int rc = store_cr_get(d->tx, s->id, key, out);

	if (rc == ERR_NOT_FOUND && *key && !*end && num > 0)
		rc = store_cr_get_by_number(d->tx, s->id, num, out);
	return rc;
}

int dom_content_source(struct dom *d, const char *space_id, const char *cr_key, const char *revision_id,
		       enum role need, struct content_src *src)
{
	const char *rev_id = revision_id;
	int rc;

	memset(src, 0, sizeof(*src));
	if ((rc = dom_space_get(d, space_id, need, &src->space)))
		return rc;
	if (cr_key) {
		if ((rc = dom_change_request_get(d, &src->space, cr_key, &src->cr)))
			return rc;
		src->has_cr = 1;
		rev_id = src->cr.revision;
	} else if (!rev_id) {
		rev_id = src->space.revision;
	}
	rc = store_revision_get(d->tx, rev_id, &src->rv);
	if (rc == ERR_NOT_FOUND || (!rc && strcmp(src->rv->space_id, src->space.id) != 0))
		return err_set(ERR_NOT_FOUND, "revision not found");
	return rc;
}

int dom_page_summary(struct dom *d, const char *revision_id, const char *page_id, struct comment_page *out)
{
	const struct revision *rv;
	const struct rev_page *p;
	int rc = store_revision_get(d->tx, revision_id, &rv);

	if (rc)
		return rc;
	if (!(p = revision_page(rv, page_id)))
		return err_set(ERR_NOT_FOUND, "page not found");
	memset(out, 0, sizeof(*out));
	out->id = p->id;
	out->title = p->title && *p->title ? p->title : "Untitled";
	out->emoji = p->emoji;
	out->icon = p->icon;
	out->path = p->path ? p->path : p->slug;
	out->created_at = p->created_at;
	out->updated_at = p->updated_at;
	return 0;
}

/* ---- signed URLs ---- */

/* 32 hex characters of HMAC-SHA256(files key, kind ":" what): a file URL's
 * signature never verifies as a PDF URL's. */
static int sign(struct dom *d, const char *kind, const char *what, char out[33])
{
	const char *key, *msg;
	unsigned char mac[32];
	int rc;

	/* The server's copy, read at start (domain/secrets.h): no query per URL. */
	if ((rc = dom_secret(d->srv, d->tx, DOM_SECRET_FILES, &key)))
		return rc;
	msg = arena_printf(d->arena, "%s:%s", kind, what);
	if (hmac_sha256(mac, key, strlen(key), msg, strlen(msg)))
		return err_set(ERR_INTERNAL, "hmac failed");
	hex_encode(out, mac, 16); /* 32 characters and the NUL */
	return 0;
}

/* The expiry of a URL made now (content.h: 60 to 65 minutes ahead). */
static int64_t url_expires(void)
{
	int64_t now = clock_now_ms() / 1000;

	return ((now + DOM_URL_LIFETIME_S) / DOM_URL_STEP_S + 1) * DOM_URL_STEP_S;
}

/* base/<dir>/<what>.<expires>.<sig><suffix> */
static int signed_url(struct dom *d, const char *kind, const char *dir, const char *what, const char *suffix,
		      const char **out)
{
	char sig[33];
	const char *payload = arena_printf(d->arena, "%s.%lld", what, (long long)url_expires());
	int rc;

	if ((rc = sign(d, kind, payload, sig)))
		return rc;
	*out = arena_printf(d->arena, "%s/%s/%s.%s%s", dom_base_url(d), dir, payload, sig, suffix);
	return 0;
}

int dom_file_url(struct dom *d, const char *space_id, const char *revision_id, const char *file_id,
		 const char **out)
{
	return signed_url(d, "file", "files", arena_printf(d->arena, "%s.%s.%s", space_id, revision_id, file_id), "",
			  out);
}

/* urls[i]: the download URL of files[i] of the content src addresses. */
static int sign_files(struct dom *d, const struct content_src *src, const struct rev_file *files, int n,
		      const char ***urls)
{
	int rc;

	/* n + 1: a revision without files still gets an array. */
	*urls = arena_alloc(d->arena, sizeof(**urls) * ((size_t)n + 1));
	for (int i = 0; i < n; i++)
		if ((rc = dom_file_url(d, src->space.id, src->rv->id, files[i].id, &(*urls)[i])))
			return rc;
	return 0;
}

int dom_file_get(struct dom *d, const char *space_id, const char *cr_key, const char *revision_id,
		 const char *file_id, struct dom_file *out)
{
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = dom_content_source(d, space_id, cr_key, revision_id, ROLE_READ, &out->src)))
		return rc;
	if (!(out->file = revision_file(out->src.rv, file_id)))
		return err_set(ERR_NOT_FOUND, "file not found");
	return dom_file_url(d, out->src.space.id, out->src.rv->id, out->file->id, &out->url);
}

int dom_files_list(struct dom *d, const char *space_id, const char *cr_key, const char *revision_id,
		   const struct list_req *lr, struct dom_file_list *out)
{
	const struct revision *rv;
	int start = 0, rc;

	memset(out, 0, sizeof(*out));
	if ((rc = dom_content_source(d, space_id, cr_key, revision_id, ROLE_READ, &out->src)))
		return rc;
	rv = out->src.rv;
	/* Files are sorted by id: the cursor is the last id of the page before. */
	if (lr->after)
		while (start < rv->nfiles && strcmp(rv->files[start].id, lr->after->id) <= 0)
			start++;
	out->files = rv->nfiles ? rv->files + start : NULL;
	out->n = rv->nfiles - start < lr->limit ? rv->nfiles - start : lr->limit;
	out->more = start + out->n < rv->nfiles && out->n > 0;
	/* Only the page's files are signed. */
	return sign_files(d, &out->src, out->files, out->n, &out->urls);
}

int dom_cr_content_apply(struct dom *d, const char *space_id, const char *cr_key, json_t *changes,
			 const struct fetched_files *fetched, bool urls, struct space *s, struct change_request *cr,
			 struct content_outcome *outcome)
{
	int rc = dom_cr_content_fetched(d, space_id, cr_key, changes, fetched, s, cr, outcome);

	if (rc || !urls)
		return rc;
	/* The inserted files are in the change request's new head. */
	for (int i = 0; i < outcome->nfiles; i++)
		if ((rc = dom_file_url(d, s->id, cr->revision, outcome->files[i].id, &outcome->file_urls[i])))
			return rc;
	return 0;
}

int dom_pdf_url(struct dom *d, const char *space_id, const char *revision_id, const char *page_sel, const char **out)
{
	return signed_url(d, "pdf", "pdf", arena_printf(d->arena, "%s.%s.%s", space_id, revision_id, page_sel ? page_sel : "all"),
			  ".pdf", out);
}

static int no_such_file(void)
{
	return err_set(ERR_NOT_FOUND, "no such file, or its link has expired");
}

int dom_signed_open(struct dom *d, const char *kind, const char *name, const char *suffix,
		    struct signed_target *out)
{
	size_t n = strlen(name), sl = strlen(suffix);
	char *copy, *parts[5], *save = NULL, want[33], *end;
	const char *dot;
	unsigned diff = 0;
	int np = 0, rc;

	memset(out, 0, sizeof(*out));
	/* <space>.<revision>.<what>.<expires>.<sig><suffix> */
	if (n <= sl || strcmp(name + n - sl, suffix) != 0)
		return no_such_file();
	copy = arena_strndup(d->arena, name, n - sl);
	if (!(dot = strrchr(copy, '.')) || strlen(dot + 1) != 32)
		return no_such_file();
	copy[dot - copy] = '\0';
	/* The signature first, compared in constant time: nothing else about a
	 * URL is looked at until it is known to be one docsd made. */
	if ((rc = sign(d, kind, copy, want)))
		return rc;
	for (int i = 0; i < 32; i++)
		diff |= (unsigned)(want[i] ^ dot[1 + i]);
	if (diff)
		return no_such_file();
	for (char *t = strtok_r(copy, ".", &save); t && np < 5; t = strtok_r(NULL, ".", &save))
		parts[np++] = t;
	if (np != 4 || !*parts[3] || strspn(parts[3], "0123456789") != strlen(parts[3]) || strlen(parts[3]) > 15)
		return no_such_file();
	out->expires = strtoll(parts[3], &end, 10);
	if (out->expires * 1000 <= clock_now_ms())
		return no_such_file();
	/* A deleted space's URLs stop (a purged one's are unknown). */
	if ((rc = store_space_get(d->tx, parts[0], &out->space)) || out->space.deleted_at ||
	    (rc = store_revision_get(d->tx, parts[1], &out->rv)) || strcmp(out->rv->space_id, out->space.id) != 0)
		return rc && rc != ERR_NOT_FOUND ? rc : no_such_file();
	out->what = parts[2];
	return 0;
}

/* ---- serving uploads ---- */

/* Uploaded bytes run no script on the API's origin: no fetch, no script, a
 * sandbox (no same origin, no forms, no popups); inline styles and images
 * only so that an image or a text file still displays. */
static const char upload_csp[] = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; sandbox";

/* The types a browser shows as what they are and never runs: raster images
 * and plain text. Everything else is an attachment. */
static const char *const inline_types[] = { "image/png", "image/jpeg", "image/gif", "image/webp", "text/plain", NULL };

static int tchar(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* type "/" subtype, then parameters of printable ASCII: what may go into a
 * Content-Type header. *essence: the length of type/subtype. */
static int media_type_ok(const char *t, size_t *essence)
{
	size_t i = 0, slash;

	while (tchar((unsigned char)t[i]))
		i++;
	if (i == 0 || t[i] != '/')
		return 0;
	slash = ++i;
	while (tchar((unsigned char)t[i]))
		i++;
	if (i == slash)
		return 0;
	*essence = i;
	while (t[i] == ' ' || t[i] == '\t')
		i++;
	if (t[i] && t[i] != ';')
		return 0;
	for (; t[i]; i++)
		if ((t[i] < 0x20 && t[i] != '\t') || (unsigned char)t[i] > 0x7e)
			return 0;
	return i <= 255;
}

static int attr_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("!#$&+-.^_`|~", c));
}

/* disposition; filename="<ASCII>"[; filename*=UTF-8''<percent-encoded>]
 * (RFC 6266): the quoted form has every byte outside printable ASCII, and
 * '"', '\\' and '%', replaced by '_'; filename* carries the name exactly
 * when the two differ. */
static const char *disposition(struct arena *a, const char *kind, const char *name)
{
	size_t n = strlen(name), k = 0, e = 0;
	char *ascii, *enc;
	int exact = 1;

	if (!n) {
		name = "download";
		n = strlen(name);
	}
	if (n > 1024)
		n = 1024;
	ascii = arena_alloc(a, n + 1);
	enc = arena_alloc(a, 3 * n + 1);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)name[i];
		if (c >= 0x80) {
			exact = 0;
			if ((c & 0xc0) != 0x80) /* one '_' per character, not per byte */
				ascii[k++] = '_';
		} else if (c < 0x20 || c == 0x7f || c == '"' || c == '\\' || c == '%') {
			exact = 0;
			ascii[k++] = '_';
		} else {
			ascii[k++] = (char)c;
		}
		if (attr_char(c)) {
			enc[e++] = (char)c;
		} else {
			pct_encode_byte(enc + e, c);
			e += 3;
		}
	}
	ascii[k] = enc[e] = '\0';
	return exact ? arena_printf(a, "%s; filename=\"%s\"", kind, ascii)
		     : arena_printf(a, "%s; filename=\"%s\"; filename*=UTF-8''%s", kind, ascii, enc);
}

int dom_download_headers(struct arena *a, const char *type, const char *name, struct dom_download *out)
{
	size_t ess = 0;
	int show = 0;

	if (!type || !media_type_ok(type, &ess)) {
		type = "application/octet-stream"; /* stored before types were checked */
		ess = strlen(type);
	}
	for (int i = 0; inline_types[i]; i++)
		if (strlen(inline_types[i]) == ess && strncasecmp(type, inline_types[i], ess) == 0)
			show = 1;
	out->content_type = type;
	/* Plain text with its charset: no guessing of the encoding either. */
	if (show && strncasecmp(type, "text/", 5) == 0 && !strcasestr(type + ess, "charset="))
		out->content_type = arena_printf(a, "%.*s; charset=utf-8", (int)ess, type);
	out->csp = upload_csp;
	out->disposition = disposition(a, show ? "inline" : "attachment", name ? name : "");
	return 0;
}

int dom_file_download(struct dom *d, const char *name, struct dom_download *out)
{
	struct signed_target t;
	const struct rev_file *f;
	const char *ignored;
	unsigned char *data;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = dom_signed_open(d, "file", name, "", &t)))
		return rc;
	if (!(f = revision_file(t.rv, t.what)))
		return no_such_file();
	/* The entry's name and type; the blob row's type is the first uploader's. */
	if ((rc = store_blob_get(d->tx, f->blob, &data, &out->len, &ignored)))
		return rc == ERR_NOT_FOUND ? err_set(ERR_INTERNAL, "file bytes %s are missing", f->blob) : rc;
	out->data = data;
	out->max_age = t.expires - clock_now_ms() / 1000;
	return dom_download_headers(d->arena, f->content_type, f->name, out);
}

int dom_revision_get(struct dom *d, const char *space_id, const char *cr_key, const char *revision_id,
		     struct dom_revision *out)
{
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = dom_content_source(d, space_id, cr_key, revision_id, ROLE_READ, &out->src)) ||
	    (rc = sign_files(d, &out->src, out->src.rv->files, out->src.rv->nfiles, &out->file_urls)) ||
	    (rc = dom_page_bodies_new(d, out->src.rv, &out->bodies)) ||
	    (rc = dom_page_bodies_tree(d, out->src.rv, out->src.rv->first_root, out->bodies)))
		return rc;
	if (!out->src.rv->merged_from)
		return 0;
	/* The change request a merge revision came from, when it still exists. */
	rc = store_cr_get(d->tx, out->src.space.id, out->src.rv->merged_from, &out->origin);
	if (rc == ERR_NOT_FOUND)
		return 0;
	out->have_origin = rc == 0;
	return rc;
}

int dom_page_body(struct dom *d, const char *hash, const char **out)
{
	int rc = store_body_get(d->tx, hash, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_INTERNAL, "page body %s is missing", hash) : rc;
}

int dom_page_bodies_new(struct dom *d, const struct revision *rv, const char ***out)
{
	/* npages + 1: a revision without pages still gets an array. */
	*out = arena_alloc(d->arena, sizeof(**out) * ((size_t)rv->npages + 1));
	memset(*out, 0, sizeof(**out) * ((size_t)rv->npages + 1));
	return 0;
}

int dom_page_bodies_one(struct dom *d, const struct revision *rv, const struct rev_page *p, const char **bodies)
{
	const char **md = &bodies[p - rv->pages];

	if (p->type != PAGE_DOCUMENT || *md)
		return 0;
	return dom_page_body(d, p->body, md);
}

int dom_page_bodies_tree(struct dom *d, const struct revision *rv, int first, const char **bodies)
{
	int rc;

	/* As page_to_json walks: links and computed pages write no children. */
	for (int c = first; c >= 0; c = rv->pages[c].next_sibling) {
		const struct rev_page *p = &rv->pages[c];
		if (p->type != PAGE_DOCUMENT && p->type != PAGE_GROUP)
			continue;
		if ((rc = dom_page_bodies_one(d, rv, p, bodies)) ||
		    (rc = dom_page_bodies_tree(d, rv, p->first_child, bodies)))
			return rc;
	}
	return 0;
}

int dom_pages_get(struct dom *d, const char *space_id, const char *cr_key, const char *revision_id,
		  struct dom_pages *out)
{
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = dom_content_source(d, space_id, cr_key, revision_id, ROLE_READ, &out->src)) ||
	    (rc = dom_page_bodies_new(d, out->src.rv, &out->bodies)))
		return rc;
	return dom_page_bodies_tree(d, out->src.rv, out->src.rv->first_root, out->bodies);
}

int dom_page_get(struct dom *d, const char *space_id, const char *cr_key, const char *revision_id,
		 const char *page_id, const char *page_path, bool computed, bool load, struct dom_page *out)
{
	const struct rev_page *p;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = dom_content_source(d, space_id, cr_key, revision_id, ROLE_READ, &out->src)))
		return rc;
	if (page_id ? !(p = revision_page(out->src.rv, page_id)) : !(p = revision_page_by_path(out->src.rv, page_path)))
		return err_set(ERR_NOT_FOUND, page_id ? "page not found" : "no page at this path");
	out->page = p;
	if (!load)
		return 0;
	if (p->type == PAGE_DOCUMENT && (rc = dom_page_body(d, p->body, &out->markdown)))
		return rc;
	/* An OpenAPI page's document is the API reference of its spec (GitBook
	 * computes it unless computed=false). */
	if (p->type == PAGE_COMPUTED && computed &&
	    (rc = dom_openapi_page_markdown(d, out->src.space.org_id, p->computed, &out->markdown)))
		return rc;
	/* The page's children (page_to_json writes those of documents and groups). */
	if ((rc = dom_page_bodies_new(d, out->src.rv, &out->bodies)))
		return rc;
	if (p->type != PAGE_DOCUMENT && p->type != PAGE_GROUP)
		return 0;
	return dom_page_bodies_tree(d, out->src.rv, p->first_child, out->bodies);
}
