/*
 * content.c - what content operations share: the change request and the
 * revision a route addresses, and summaries of pages.
 */
#include "domain/content.h"
#include "domain/secrets.h"
#include "domain/openapi.h"
#include "util/util.h"
#include "model/revision.h"
#include "model/comment_view.h"
#include "model/merge3.h"
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

/* ---- a batch made on a known revision (content.h: no silent lost update) ---- */

/* The first of a revision's parents (its line: an edit's parent, an update's
 * change request side); NULL when none. */
static const char *first_parent(struct dom *d, const struct revision *rv)
{
	json_t *a = rv->parents ? json_loads(rv->parents, 0, NULL) : NULL, *v = json_array_get(a, 0);
	const char *out = json_is_string(v) ? arena_strdup(d->arena, json_string_value(v)) : NULL;

	json_decref(a);
	return out;
}

static bool listed(const char *const *ids, int n, const char *id)
{
	for (int i = 0; i < n; i++)
		if (strcmp(ids[i], id) == 0)
			return true;
	return false;
}

/* 1 when base is on the change request's line, walking back from head along
 * first parents (at most CONTENT_BASE_WALK revisions, stopping at its
 * initial revision: before it lies the space's history, never a form's
 * base), with the display names of the authors of the revisions after base
 * (the actor left out) in bo; 0 when it is not; or an error. */
static int base_on_line(struct dom *d, const struct change_request *cr, const struct revision *head,
			const char *base, struct content_base_outcome *bo)
{
	const struct revision *at = head;
	const char *by[CONTENT_BASE_WALK];
	int nby = 0, rc;

	for (int i = 0; i < CONTENT_BASE_WALK; i++) {
		const char *parent;
		if (strcmp(at->id, base) == 0) {
			for (int k = 0; k < nby && bo->nauthors < CONTENT_BASE_AUTHORS; k++) {
				struct user u;
				rc = store_user_get(d->tx, by[k], &u);
				if (rc == ERR_NOT_FOUND) {
					err_clear(); /* a removed account: its edit still merges, unnamed */
					continue;
				}
				if (rc)
					return rc;
				bo->authors[bo->nauthors++] = u.display_name && *u.display_name ? u.display_name : "another member";
			}
			return 1;
		}
		if (at->created_by && !(d->actor.user_id && strcmp(at->created_by, d->actor.user_id) == 0) &&
		    !listed(by, nby, at->created_by))
			by[nby++] = at->created_by;
		if (strcmp(at->id, cr->revision_initial) == 0 || !(parent = first_parent(d, at)))
			return 0;
		rc = store_revision_get(d->tx, parent, &at);
		if (rc == ERR_NOT_FOUND) {
			err_clear();
			return 0;
		}
		if (rc)
			return rc;
	}
	return 0;
}

static bool same_text(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

/* A revision id as docsd makes them (util.h's id_new, or a migrated one):
 * anything else is not looked up, so no engine sees odd bytes. */
static bool id_like(const char *s)
{
	size_t n = strlen(s);

	if (n < 1 || n > 64)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '-' ||
		      *s == '_'))
			return false;
	return true;
}

/* Record k, its strings copied into the arena: the batch's copy they point
 * into is freed, and the caller's page may outlive the transaction (a
 * refusal continues in a new one) and its revisions. */
static int add_conflict(struct dom *d, struct content_base_outcome *bo, const struct content_conflict *k)
{
	struct content_conflict *c;

	if (bo->nconflicts >= CONTENT_MAX_CHANGES)
		return err_set(ERR_INTERNAL, "more conflicts than changes");
	c = &bo->conflicts[bo->nconflicts++];
	*c = *k;
	c->page_id = arena_strdup(d->arena, k->page_id);
	c->yours = arena_strdup(d->arena, k->yours); /* NULL stays NULL */
	c->theirs_title = arena_strdup(d->arena, k->theirs_title);
	c->yours_title = arena_strdup(d->arena, k->yours_title);
	c->form_title = arena_strdup(d->arena, k->form_title);
	c->form_md = arena_strdup(d->arena, k->form_md);
	return 0;
}

/* One update_page (c, the batch's change `index`) of a batch made on base,
 * against the page in base (brv; unusable when on_line is 0) and in the
 * head (hrv): c is rewritten to what is to be written (the merged markdown;
 * no title when only the head changed it), or a conflict is added to bo.
 * Anything malformed is left for dom_apply_changes to refuse. */
static int rebase_update(struct dom *d, json_t *c, int index, const struct revision *brv, const struct revision *hrv,
			 int on_line, struct content_base_outcome *bo)
{
	json_t *pj = json_object_get(c, "page"), *doc = json_object_get(c, "document");
	json_t *mj = json_object_get(doc, "markdown"), *tj = json_object_get(c, "title");
	struct content_conflict k = { .change = index };
	const struct rev_page *hp, *bp;
	const char *theirs = NULL, *was = NULL;
	bool conflict = false;
	int rc;

	if (!json_is_string(pj))
		return 0;
	k.page_id = json_string_value(pj);
	k.yours = json_is_string(mj) ? json_string_value(mj) : NULL;
	hp = revision_page(hrv, k.page_id);
	bp = on_line ? revision_page(brv, k.page_id) : NULL;
	if (!hp) {
		/* Deleted since the form was made: what was typed is shown
		 * back, never dropped (a page unknown to both is the batch's
		 * "no such page"). */
		k.form_md = k.yours;
		k.form_title = json_is_string(tj) ? json_string_value(tj) : NULL;
		return bp ? add_conflict(d, bo, &k) : 0;
	}
	if (hp->type == PAGE_DOCUMENT && (rc = dom_page_body(d, hp->body, &theirs)))
		return rc;
	if (k.yours && hp->type == PAGE_DOCUMENT && !same_text(k.yours, theirs)) {
		if (!on_line) {
			conflict = true; /* nothing known to merge from */
		} else if (!(bp && same_text(bp->body, hp->body))) {
			struct merge3_result m;
			if ((rc = dom_page_body(d, bp && bp->type == PAGE_DOCUMENT ? bp->body : NULL, &was)))
				return rc;
			if (!same_text(was, theirs)) {
				/* Both changed it since base: the API's line merge
				 * (yours as "ours", the head as "theirs"). */
				if ((rc = merge3_text(d->arena, was, strlen(was), k.yours, strlen(k.yours), theirs,
						      strlen(theirs), &m)))
					return rc;
				if (m.conflicts)
					conflict = true;
				else if (!same_text(m.text, k.yours)) {
					k.form_md = m.text;
					if (json_object_set_new(doc, "markdown", json_stringn(m.text, m.len)))
						return err_set(ERR_INTERNAL, "out of memory");
					bo->merged++;
				}
			}
		}
	}
	/* A title is one value: changed on one side, that side's; on both, to
	 * different values, a conflict. */
	k.form_title = hp->title ? hp->title : "";
	if (json_is_string(tj) && !same_text(json_string_value(tj), hp->title)) {
		const char *yt = json_string_value(tj);
		if (!on_line || (bp && !same_text(hp->title, bp->title) && !same_text(yt, bp->title))) {
			conflict = true;
			k.theirs_title = hp->title ? hp->title : "";
			k.yours_title = k.form_title = yt;
		} else if (bp && same_text(yt, bp->title)) {
			json_object_del(c, "title"); /* only the head renamed it: kept */
		} else {
			k.form_title = yt;
		}
	}
	if (conflict) {
		k.theirs = theirs ? theirs : "";
		if (!k.form_md)
			k.form_md = k.yours;
		return add_conflict(d, bo, &k);
	}
	return 0;
}

int dom_cr_content_on_base(struct dom *d, const char *space_id, const char *cr_key, const char *base,
			   json_t *changes, const struct fetched_files *fetched, bool urls, struct space *s,
			   struct change_request *cr, struct content_outcome *outcome, struct content_base_outcome *bo)
{
	const struct revision *brv = NULL, *hrv;
	json_t *mine;
	size_t n = json_array_size(changes);
	int rc, on_line;

	memset(bo, 0, sizeof(*bo));
	if (!base)
		return dom_cr_content_apply(d, space_id, cr_key, changes, fetched, urls, s, cr, outcome);
	/* The head is read with the space's and then the change request's row
	 * locked (the order every content batch takes them, which it takes
	 * again below: the same transaction already holds them), so a save
	 * that waits here for another sees that one's head, and no two saves
	 * both apply over the same base (PostgreSQL; SQLite has one writer). */
	if ((rc = dom_space_get_locked(d, space_id, ROLE_EDIT, s)) || (rc = dom_change_request_get(d, s, cr_key, cr)) ||
	    (rc = store_cr_get_locked(d->tx, s->id, cr->id, cr)) || (rc = dom_cr_content_check(d, space_id, cr_key)))
		return rc;
	bo->head = cr->revision;
	if (strcmp(base, cr->revision) == 0)
		return dom_cr_content_apply(d, space_id, cr_key, changes, fetched, urls, s, cr, outcome);
	bo->stale = true;
	/* Another space's (another organization's) revision reads as no
	 * revision at all. */
	rc = id_like(base) ? store_revision_get(d->tx, base, &brv) : ERR_NOT_FOUND;
	if (rc == ERR_NOT_FOUND || (!rc && strcmp(brv->space_id, s->id) != 0))
		return err_set(ERR_INVALID, "base: not a revision of this change request");
	if (rc || (rc = store_revision_get(d->tx, cr->revision, &hrv)))
		return rc;
	if ((on_line = base_on_line(d, cr, hrv, base, bo)) < 0)
		return on_line;
	/* A batch that is not one is refused as it is. */
	if (!json_is_array(changes) || n < 1 || n > CONTENT_MAX_CHANGES)
		return dom_cr_content_apply(d, space_id, cr_key, changes, fetched, urls, s, cr, outcome);
	if (!(mine = json_deep_copy(changes)))
		return err_set(ERR_INTERNAL, "out of memory");
	rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		json_t *c = json_array_get(mine, i), *op = json_object_get(c, "operation");
		if (json_is_string(op) && strcmp(json_string_value(op), "update_page") == 0)
			rc = rebase_update(d, c, (int)i, brv, hrv, on_line, bo);
	}
	if (!rc && bo->nconflicts)
		rc = err_set(ERR_CONFLICT, "changes[%d]: page %s was changed in the change request since revision %s; nothing was written",
			     bo->conflicts[0].change, bo->conflicts[0].page_id, base);
	if (!rc)
		rc = dom_cr_content_apply(d, space_id, cr_key, mine, fetched, urls, s, cr, outcome);
	json_decref(mine);
	return rc;
}
