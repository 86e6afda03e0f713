/*
 * content_changes.c - applying a batch of content changes (GitBook's
 * updateChangeRequestContent) to a working copy of a page tree.
 *
 * A batch is applied in two passes. First every insert_files change stores
 * its bytes and every insert_page with a `ref` gets its id, so a page can
 * link to a file or page of the same batch whatever the order of the
 * changes. Then the page changes run in order. Any bad change stops the
 * batch with a 400 naming it ("changes[3].page: no such page"); the caller
 * then writes nothing, because the revision is only written at the end.
 *
 * Files given by `url` are fetched before all that, outside any transaction,
 * by dom_content_prefetch() (content.h lists its limits); the batch itself
 * only looks the bytes up by URL, so no write transaction (and on SQLite no
 * other writer of any organization) waits on the network.
 */
#include "domain/content.h"
#include "util/err.h"
#include "format/markdown.h"
#include "format/openapi_doc.h"
#include "domain/openapi.h"
#include "model/adaptive.h"
#include "model/condition.h"
#include "model/tree_edit.h"
#include "model/validate.h"
#include "util/base64.h"
#include "util/fetch.h"
#include "util/image.h"
#include "util/alloc.h"
#include "util/util.h"

#include <limits.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CHANGES CONTENT_MAX_CHANGES
#define MAX_FILES_PER_CHANGE 20
#define MAX_FILE_BYTES CONTENT_FILE_MAX_BYTES
#define MAX_URL_LEN 2048
#define EMOJI_RULE "must be one emoji, as a character (\"\xF0\x9F\x93\x98\") or its code points in hex (\"1f4d8\")"
#define MAX_MARKDOWN (1024 * 1024)

struct batch_ref {
	const char *ref;
	const char *target; /* "/files/<id>" or "/pages/<id>" */
};

struct batch {
	struct dom *d;
	struct tree_work *w;
	const struct revision *revert_base; /* revert_page's default revision */
	struct batch_ref refs[MAX_CHANGES * MAX_FILES_PER_CHANGE];
	int nrefs;
	const char **page_ids; /* per change: the id an insert_page gets */
	struct content_outcome *out;
	const struct fetched_files *fetched; /* the batch's URLs, fetched beforehand */
	int index;             /* the change being applied, for messages */
};

static int bad(struct batch *b, const char *field, const char *msg)
{
	return err_set(ERR_INVALID, "changes[%d]%s%s: %s", b->index, field ? "." : "", field ? field : "", msg);
}

static const char *get_str(json_t *o, const char *k, int *present, int *wrong)
{
	json_t *v = json_object_get(o, k);

	*present = v != NULL;
	if (!v || json_is_null(v))
		return NULL;
	if (!json_is_string(v)) {
		*wrong = 1;
		return NULL;
	}
	return json_string_value(v);
}

/* Links written as ./<ref>, <ref>, ./<ref>.md resolve to the batch's refs;
 * a page's with an anchor too (./<ref>#setup -> /pages/<id>#setup). */
static const char *map_ref(void *ctx, const char *target)
{
	struct batch *b = ctx;
	const char *t = target;

	if (strncmp(t, "./", 2) == 0)
		t += 2;
	for (int i = 0; i < b->nrefs; i++) {
		size_t n = strlen(b->refs[i].ref);
		if (strncmp(t, b->refs[i].ref, n) != 0)
			continue;
		if (t[n] == '\0' || strcmp(t + n, ".md") == 0)
			return b->refs[i].target;
		if (t[n] == '#' && strncmp(b->refs[i].target, "/pages/", 7) == 0)
			return arena_printf(b->d->arena, "%s%s", b->refs[i].target, t + n); /* NULL: left as written */
	}
	return NULL;
}

static int add_ref(struct batch *b, const char *ref, const char *target)
{
	for (int i = 0; i < b->nrefs; i++)
		if (strcmp(b->refs[i].ref, ref) == 0)
			return bad(b, "ref", "used twice in the batch");
	if (b->nrefs >= (int)(sizeof(b->refs) / sizeof(b->refs[0])))
		return bad(b, "ref", "too many refs");
	b->refs[b->nrefs++] = (struct batch_ref){ ref, target };
	return 0;
}

/* ---- files ---- */

static const struct fetched_file *fetched_find(const struct fetched_files *ff, const char *url)
{
	for (int i = 0; ff && i < ff->n; i++)
		if (strcmp(ff->items[i].url, url) == 0)
			return &ff->items[i];
	return NULL;
}

static int insert_file(struct batch *b, json_t *f, int k)
{
	struct dom *d = b->d;
	int present, wrong = 0, rc;
	const char *name = get_str(f, "name", &present, &wrong), *ref = get_str(f, "ref", &present, &wrong);
	const char *url = get_str(f, "url", &present, &wrong), *b64 = get_str(f, "base64", &present, &wrong);
	const char *type = get_str(f, "contentType", &present, &wrong), *sniffed = NULL, *blob;
	const unsigned char *data = NULL;
	size_t len = 0;
	int width = 0, height = 0;
	char field[48], type_field[64], url_field[64];

	snprintf(field, sizeof(field), "files[%d]", k);
	snprintf(type_field, sizeof(type_field), "files[%d].contentType", k);
	snprintf(url_field, sizeof(url_field), "files[%d].url", k);
	if (!json_is_object(f) || wrong)
		return bad(b, field, "must be an object with string fields");
	if (!name || !*name || utf8_len(name) > 256)
		return bad(b, field, "name: required, 1 to 256 characters");
	if (!!url == !!b64)
		return bad(b, field, "set exactly one of url and base64");
	/* Stored as given and served as the file's Content-Type: a media type
	 * and nothing else (no CR/LF, no second header). */
	if (type && *type && !valid_media_type(type))
		return bad(b, type_field,
			   "must be a media type such as image/png (type/subtype, optional parameters, at most 127 characters)");
	if (b64) {
		if (!type || !*type)
			return bad(b, type_field, "required with base64");
		size_t n = strlen(b64);
		if (base64_decoded_max(n) > MAX_FILE_BYTES + 3)
			return bad(b, field, "base64: larger than 1 MB");
		unsigned char *buf = arena_alloc(d->arena, base64_decoded_max(n) + 1);
		long got = base64_decode(buf, b64, n);
		if (got < 0)
			return bad(b, field, "base64: not valid base64");
		if (got > (long)MAX_FILE_BYTES)
			return bad(b, field, "base64: larger than 1 MB");
		data = buf;
		len = (size_t)got;
	} else {
		/* Fetched before the transaction (dom_content_prefetch): never here. */
		const struct fetched_file *ff;
		if (!*url || strlen(url) > MAX_URL_LEN)
			return bad(b, url_field, "must be an http or https URL of 1 to 2048 characters");
		if (!(ff = fetched_find(b->fetched, url)))
			return err_set(ERR_INTERNAL, "changes[%d].files[%d].url was not fetched before the transaction",
				       b->index, k);
		if (ff->error == ERR_INVALID)
			return bad(b, url_field, ff->message);
		if (ff->error)
			return err_set(ff->error, "changes[%d].files[%d].url: %s", b->index, k, ff->message);
		data = ff->data;
		len = ff->len;
		if ((!type || !*type) && ff->content_type)
			type = ff->content_type;
	}
	if (image_dimensions(data, len, &width, &height, &sniffed) != 0)
		width = height = 0;
	if (!type || !*type)
		type = sniffed ? sniffed : "application/octet-stream";
	if ((rc = store_blob_put(d->tx, data, len, type, &blob)))
		return rc;
	char id[ID_LEN + 1];
	if (id_new(id))
		return err_set(ERR_INTERNAL, "cannot make an id");
	struct rev_file rf = { .id = arena_strdup(d->arena, id), .name = name, .content_type = type, .blob = blob,
			       .size = (int64_t)len, .width = width, .height = height };
	if ((rc = tree_add_file(b->w, &rf)))
		return rc;
	if (b->out && b->out->nfiles < CONTENT_MAX_OUTCOMES)
		b->out->files[b->out->nfiles++] = b->w->files[b->w->nf - 1];
	if (ref)
		return add_ref(b, ref, arena_printf(d->arena, "/files/%s", rf.id));
	return 0;
}

/* ---- fetching a batch's URLs, before the transaction ---- */

#define MSG_TOO_MANY_BYTES "the files fetched by URL in this request pass 8 MB in all"
#define MSG_OUT_OF_TIME "the time for fetching this request's URLs (20 s in all) ran out"

/* The url of a file entry that insert_file() would look up (an object with a
 * string url of 1..MAX_URL_LEN bytes and no base64), else NULL. */
static const char *file_url(json_t *f)
{
	json_t *u = json_object_get(f, "url"), *b64 = json_object_get(f, "base64");

	if (!json_is_object(f) || !json_is_string(u) || (b64 && !json_is_null(b64)))
		return NULL;
	if (json_string_length(u) == 0 || json_string_length(u) > MAX_URL_LEN)
		return NULL;
	return json_string_value(u);
}

/* An insert_files change's files, when dom_apply_changes would read them. */
static json_t *change_files(json_t *c)
{
	json_t *op = json_object_get(c, "operation"), *files = json_object_get(c, "files");

	if (!json_is_string(op) || strcmp(json_string_value(op), "insert_files") != 0 || !json_is_array(files) ||
	    json_array_size(files) < 1 || json_array_size(files) > MAX_FILES_PER_CHANGE)
		return NULL;
	return files;
}

/* Fetch one URL into *ff within what is left of the request's bytes and time. */
static int fetch_one(struct dom *d, size_t bytes_left, int64_t deadline_ns, struct fetched_file *ff)
{
	struct fetch_result fr;
	int64_t left_ms = (deadline_ns - clock_mono_ns()) / 1000000;
	struct fetch_opts fo = {
		.max_bytes = bytes_left < MAX_FILE_BYTES ? bytes_left : MAX_FILE_BYTES,
		.timeout_ms = left_ms < CONTENT_FETCH_TIMEOUT_MS ? (long)left_ms : CONTENT_FETCH_TIMEOUT_MS,
		.allow_private = d->srv && d->srv->cfg.allow_private_network,
	};
	const char *why;
	unsigned char *copy;
	int rc;

	if (fo.max_bytes == 0 || fo.timeout_ms <= 0) {
		ff->error = ERR_INVALID;
		ff->message = fo.max_bytes == 0 ? MSG_TOO_MANY_BYTES : MSG_OUT_OF_TIME;
		return 0;
	}
	if ((rc = fetch_url(ff->url, &fo, &fr))) {
		/* A limit that is the request's, not the file's, says so. */
		if (fr.failure == FETCH_FAIL_TOO_LARGE && fo.max_bytes < MAX_FILE_BYTES)
			why = MSG_TOO_MANY_BYTES;
		else if (fr.failure == FETCH_FAIL_TIMEOUT && fo.timeout_ms < CONTENT_FETCH_TIMEOUT_MS)
			why = MSG_OUT_OF_TIME;
		else /* "url: HTTP 404" -> "HTTP 404": the batch names the field */
			why = strncmp(fr.error, "url: ", 5) == 0 ? fr.error + 5 : fr.error[0] ? fr.error : "the fetch failed";
		ff->error = rc;
		ff->message = arena_strdup(d->arena, why);
		fetch_result_free(&fr);
		return 0;
	}
	copy = arena_alloc(d->arena, fr.len + 1);
	memcpy(copy, fr.data, fr.len);
	copy[fr.len] = '\0';
	ff->data = copy;
	ff->len = fr.len;
	/* The response's type only when it is one (else sniffed, or octet-stream). */
	if (fr.content_type[0] && valid_media_type(fr.content_type))
		ff->content_type = arena_strdup(d->arena, fr.content_type);
	fetch_result_free(&fr);
	return 0;
}

/* How many file entries of the batch name a url (0 for a batch that is not one). */
static int count_urls(json_t *changes)
{
	size_t nc = json_array_size(changes);
	int urls = 0;

	if (!json_is_array(changes) || nc < 1 || nc > MAX_CHANGES)
		return 0;
	for (size_t i = 0; i < nc; i++) {
		json_t *files = change_files(json_array_get(changes, i));
		for (size_t k = 0; k < json_array_size(files); k++)
			urls += file_url(json_array_get(files, k)) != NULL;
	}
	return urls;
}

bool dom_content_has_urls(json_t *changes)
{
	return count_urls(changes) > 0;
}

int dom_content_prefetch(struct dom *d, json_t *changes, struct fetched_files *out)
{
	struct fetched_file *items;
	size_t nc = json_array_size(changes), bytes = 0;
	int n = 0, urls = 0, rc;
	int64_t deadline;

	out->items = NULL;
	out->n = 0;
	/* None for a batch that is not one: dom_apply_changes refuses it. */
	if ((urls = count_urls(changes)) == 0)
		return 0;
	items = arena_alloc(d->arena, sizeof(*items) * (size_t)urls);
	/* Distinct URLs, in the order the batch reaches them. */
	for (size_t i = 0; i < nc; i++) {
		json_t *files = change_files(json_array_get(changes, i));
		for (size_t k = 0; k < json_array_size(files); k++) {
			const char *url = file_url(json_array_get(files, k));
			struct fetched_files seen = { items, n };
			if (url && !fetched_find(&seen, url))
				items[n++] = (struct fetched_file){ .url = url };
		}
	}
	/* Too many is refused before anything is fetched. */
	if (n > CONTENT_FETCH_MAX_URLS)
		return err_set(ERR_INVALID, "changes: at most %d distinct file URLs in one request (%d given)",
			       CONTENT_FETCH_MAX_URLS, n);
	out->items = items;
	deadline = clock_mono_ns() + CONTENT_FETCH_BUDGET_MS * 1000000;
	for (int i = 0; i < n; i++) {
		if ((rc = fetch_one(d, CONTENT_FETCH_MAX_BYTES - bytes, deadline, &items[i])))
			return rc;
		out->n = i + 1;
		/* The batch stops at its first bad file: it never reaches later URLs. */
		if (items[i].error)
			break;
		bytes += items[i].len;
	}
	return 0;
}

/* ---- pages ---- */

/* A Document: {markdown}, {} (empty), or {document} (refused: the JSON
 * document form is produced, not accepted). *md = NULL when absent. */
static int read_document(struct batch *b, json_t *c, const char **md)
{
	json_t *d = json_object_get(c, "document"), *m;

	*md = NULL;
	if (!d || json_is_null(d))
		return 0;
	if (!json_is_object(d))
		return bad(b, "document", "must be an object with markdown");
	if (json_object_get(d, "document"))
		return bad(b, "document", "only markdown documents are supported; send {\"markdown\": \"...\"}");
	m = json_object_get(d, "markdown");
	if (!m) {
		*md = json_object_size(d) == 0 ? "" : NULL;
		if (!*md)
			return bad(b, "document", "markdown: required");
		return 0;
	}
	if (!json_is_string(m))
		return bad(b, "document.markdown", "must be a string");
	if (json_string_length(m) > MAX_MARKDOWN)
		return bad(b, "document.markdown", "longer than 1 MB");
	*md = json_string_value(m);
	return 0;
}

struct meta {
	const char *title, *slug, *emoji, *icon, *description;
	int hidden, no_index, no_robots; /* -1: absent */
	int has_emoji, has_icon, has_description;
	const char *cond; /* front matter "if:" (GitBook's page condition); NULL: none */
	const char *vars; /* front matter "vars:" as a JSON object; NULL: none */
};

static int read_flag(struct batch *b, json_t *c, const char *k, int *out)
{
	json_t *v = json_object_get(c, k);

	*out = -1;
	if (!v)
		return 0;
	if (!json_is_boolean(v))
		return bad(b, k, "must be a boolean");
	*out = json_is_true(v);
	return 0;
}

static int read_meta(struct batch *b, json_t *c, struct meta *m)
{
	int present, wrong = 0, rc;

	memset(m, 0, sizeof(*m));
	m->title = get_str(c, "title", &present, &wrong);
	if (wrong || (present && (!m->title || !*m->title || utf8_len(m->title) > 256)))
		return bad(b, "title", "must be a string of 1 to 256 characters");
	m->slug = get_str(c, "slug", &present, &wrong);
	if (wrong || (present && (!m->slug || !*m->slug || strlen(m->slug) > 100)))
		return bad(b, "slug", "must be a string of 1 to 100 characters");
	if (m->slug)
		for (const char *p = m->slug; *p; p++)
			if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-' ||
			      *p == '_' || *p == '.'))
				return bad(b, "slug", "only letters, digits, '-', '_' and '.' are allowed");
	m->emoji = get_str(c, "emoji", &m->has_emoji, &wrong);
	if (wrong || (m->emoji && utf8_len(m->emoji) > 50))
		return bad(b, "emoji", "must be a string of at most 50 characters");
	/* "" (like null) removes the page's emoji */
	if (m->emoji && *m->emoji && !valid_emoji(m->emoji))
		return bad(b, "emoji", EMOJI_RULE);
	m->icon = get_str(c, "icon", &m->has_icon, &wrong);
	if (wrong || (m->icon && utf8_len(m->icon) > 50))
		return bad(b, "icon", "must be a string of at most 50 characters");
	m->description = get_str(c, "description", &m->has_description, &wrong);
	if (wrong || (m->description && utf8_len(m->description) > 1000))
		return bad(b, "description", "must be a string of at most 1000 characters");
	if ((rc = read_flag(b, c, "hidden", &m->hidden)) || (rc = read_flag(b, c, "noIndex", &m->no_index)) ||
	    (rc = read_flag(b, c, "noRobotsIndex", &m->no_robots)))
		return rc;
	return 0;
}

static int read_at(struct batch *b, json_t *c, int *at)
{
	json_t *v = json_object_get(c, "at");

	*at = -1;
	if (!v)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 1000000)
		return bad(b, "at", "must be an integer >= 0");
	*at = (int)json_integer_value(v);
	return 0;
}

/* Store a markdown document: frontmatter fills metadata the change did not
 * set, links to refs are resolved, the body is stored once per content. */
static int put_body(struct batch *b, const char *md, struct meta *m, const char **title_out, const char **hash)
{
	struct dom *d = b->d;
	struct md_front fm;
	size_t len = strlen(md);

	if (md_frontmatter(d->arena, md, len, &fm))
		return err_set(ERR_INTERNAL, "out of memory");
	if (fm.present && fm.error)
		return bad(b, "document.markdown", arena_printf(d->arena, "frontmatter: %s", fm.error));
	if (fm.present) {
		/* Frontmatter takes precedence, as GitBook's Git Sync reads it. */
		if (fm.title)
			m->title = fm.title;
		if (fm.description)
			m->description = fm.description, m->has_description = 1;
		if (fm.icon)
			m->icon = fm.icon, m->has_icon = 1;
		if (fm.emoji && *fm.emoji && !valid_emoji(fm.emoji))
			return bad(b, "document.markdown", "frontmatter emoji: " EMOJI_RULE);
		if (fm.emoji)
			m->emoji = fm.emoji, m->has_emoji = 1;
		if (fm.hidden)
			m->hidden = 1;
		if (fm.cond) {
			/* Checked here so a page never hides by a typo (the site
			 * hides a page whose condition does not parse). */
			if (cond_check("if", fm.cond))
				return bad(b, "document.markdown", arena_printf(d->arena, "frontmatter %s", err_message()));
			m->cond = fm.cond;
		}
		if (fm.vars)
			m->vars = fm.vars;
		md += fm.body;
		len -= fm.body;
	}
	/* A condition that does not parse would hide its block for everyone:
	 * refused here, with its line, rather than discovered on the site. */
	if (adapt_check("document.markdown", md, len))
		return bad(b, "document.markdown", arena_strdup(d->arena, err_message() + strlen("document.markdown: ")));
	const char *body = md_rewrite_links(d->arena, md, len, map_ref, b);
	if (!body)
		return err_set(ERR_INTERNAL, "out of memory");
	*title_out = md_title(d->arena, body, strlen(body));
	return dom_body_put(d->tx, body, hash);
}

int dom_body_put(struct store_tx *tx, const char *markdown, const char **hash)
{
	struct md_link *links;
	struct body_link *bl;
	size_t n;
	bool fresh;
	int rc;

	if ((rc = store_body_insert(tx, markdown, hash, &fresh)) || !fresh)
		return rc;
	/* First time this body is stored: take its links. */
	if (md_links(tx->arena, markdown, strlen(markdown), &links, &n))
		return err_set(ERR_INTERNAL, "reading the page's links failed");
	if (n > INT_MAX / sizeof(*bl))
		return err_set(ERR_INVALID, "document.markdown: too many links");
	bl = arena_alloc(tx->arena, sizeof(*bl) * (n ? n : 1));
	for (size_t i = 0; i < n; i++)
		bl[i] = (struct body_link){ .target = links[i].target, .line = links[i].line };
	return store_body_links_put(tx, *hash, bl, (int)n);
}

int dom_search_put_page(struct store_tx *tx, const char *org_id, const char *space_id, const char *page_id,
			const char *title, const char *path, const char *markdown)
{
	struct md_section *secs = NULL;
	struct search_section *ss;
	size_t n = 0;

	if (md_sections(tx->arena, markdown ? markdown : "", markdown ? strlen(markdown) : 0, &secs, &n))
		return err_set(ERR_INTERNAL, "splitting the page into sections: %s", err_message());
	if (n > INT_MAX / sizeof(*ss))
		return err_set(ERR_INVALID, "document.markdown: too many sections");
	ss = arena_alloc(tx->arena, sizeof(*ss) * (n ? n : 1));
	for (size_t i = 0; i < n; i++)
		ss[i] = (struct search_section){ .id = secs[i].id, .title = secs[i].title, .body = secs[i].body };
	return store_search_put_page(tx, org_id, space_id, page_id, title, path, ss, (int)n);
}

static void note_outcome(struct batch *b, const char *kind, const char *page_id, const char *ref)
{
	struct content_outcome *o = b->out;

	if (!o)
		return;
	for (int i = 0; i < o->n; i++)
		if (strcmp(o->items[i].page_id, page_id) == 0) {
			if (strcmp(kind, "deleted_page") == 0)
				o->items[i].kind = kind;
			return;
		}
	if (o->n < CONTENT_MAX_OUTCOMES)
		o->items[o->n++] = (struct content_change){ kind, page_id, ref };
}

static void apply_meta(struct rev_page *p, const struct meta *m)
{
	if (m->title)
		p->title = m->title;
	if (m->has_emoji)
		p->emoji = m->emoji && *m->emoji ? m->emoji : NULL;
	if (m->has_icon)
		p->icon = m->icon && *m->icon ? m->icon : NULL;
	if (m->has_description)
		p->description = m->description && *m->description ? m->description : NULL;
	if (m->hidden >= 0)
		p->hidden = m->hidden;
	if (m->no_index >= 0)
		p->no_index = m->no_index;
	if (m->no_robots >= 0)
		p->no_robots_index = m->no_robots;
	if (m->cond)
		p->cond = m->cond;
	if (m->vars)
		p->vars = m->vars;
}

/* A computed page's source (docsd takes GitBook's InputPageComputed fields,
 * `type: "computed"` and `computed`, on insert_page and update_page): an
 * OpenAPI reference of a spec of the space's organization. *json: the
 * source to store. */
static int read_computed(struct batch *b, json_t *c, const char **json)
{
	struct dom *d = b->d;
	struct space s;
	const char *slug, *prefix = arena_printf(d->arena, "changes[%d].computed", b->index);
	int rc;

	if ((rc = openapi_computed_check(d->arena, json_object_get(c, "computed"), prefix, json, &slug)))
		return rc;
	if ((rc = store_space_get(d->tx, b->revert_base->space_id, &s)))
		return rc;
	rc = dom_openapi_exists(d, s.org_id, slug);
	if (rc == ERR_NOT_FOUND)
		return bad(b, "computed.dependencies.spec.ref.spec", "no OpenAPI spec of the organization has this slug");
	return rc;
}

/* `type`: "document" (the default) or "computed"; 1 for computed. */
static int read_type(struct batch *b, json_t *c)
{
	json_t *t = json_object_get(c, "type");

	if (!t)
		return json_object_get(c, "computed") ? bad(b, "computed", "only with \"type\": \"computed\"") : 0;
	if (json_is_string(t) && strcmp(json_string_value(t), "document") == 0)
		return json_object_get(c, "computed") ? bad(b, "computed", "only with \"type\": \"computed\"") : 0;
	if (json_is_string(t) && strcmp(json_string_value(t), "computed") == 0)
		return 1;
	return bad(b, "type", "must be \"document\" or \"computed\"");
}

static int insert_page(struct batch *b, json_t *c)
{
	struct meta m;
	const char *md, *into, *heading = NULL, *hash = NULL, *ref, *computed = NULL;
	int present, wrong = 0, at, rc, is_computed;
	struct tree_work *w = b->w;

	if ((rc = read_meta(b, c, &m)) || (rc = read_document(b, c, &md)) || (rc = read_at(b, c, &at)))
		return rc;
	if ((is_computed = read_type(b, c)) < 0)
		return is_computed;
	if (is_computed) {
		if (md)
			return bad(b, "document", "a computed page has no document: its content comes from `computed`");
		if ((rc = read_computed(b, c, &computed)))
			return rc;
	} else if (!md)
		return bad(b, "document", "required");
	into = get_str(c, "into", &present, &wrong);
	ref = get_str(c, "ref", &present, &wrong);
	if (wrong)
		return bad(b, "into", "must be a page id");
	if (into) {
		int pi = tree_find(w, into);
		const char *byref = pi < 0 ? map_ref(b, into) : NULL;
		/* A page inserted earlier in the batch may be named by its ref. */
		if (byref && strncmp(byref, "/pages/", 7) == 0 && (pi = tree_find(w, byref + 7)) >= 0)
			into = byref + 7;
		if (pi < 0)
			return bad(b, "into", "no such page");
		if (w->pages[pi].type == PAGE_LINK || w->pages[pi].type == PAGE_COMPUTED)
			return bad(b, "into", "a link or computed page cannot have child pages");
	}
	if (!computed && (rc = put_body(b, md, &m, &heading, &hash)))
		return rc;
	struct rev_page p = {
		.id = b->page_ids[b->index], .parent = into, .type = computed ? PAGE_COMPUTED : PAGE_DOCUMENT,
		.body = hash, .computed = computed, .created_at = w->now, .updated_at = w->now,
	};
	if (!m.title)
		m.title = heading ? heading : computed ? "API reference" : "Untitled";
	apply_meta(&p, &m);
	if (m.slug) {
		if (!tree_slug_free(w, into, m.slug, NULL))
			return bad(b, "slug", "another page in the same parent has this slug");
		p.slug = m.slug;
	} else {
		char *base = slugify(b->d->arena, p.title);
		if (!(p.slug = tree_slug_unique(w, into, base, NULL)))
			return err_set(ERR_INTERNAL, "out of memory");
	}
	if ((rc = tree_insert(w, &p, at)))
		return rc;
	note_outcome(b, "created_page", p.id, ref);
	return 0;
}

static int update_page(struct batch *b, json_t *c)
{
	struct meta m;
	const char *md, *id, *heading = NULL, *into = NULL;
	int present, wrong = 0, at, rc, pi, into_given;
	struct tree_work *w = b->w;

	if ((rc = read_meta(b, c, &m)) || (rc = read_document(b, c, &md)) || (rc = read_at(b, c, &at)))
		return rc;
	id = get_str(c, "page", &present, &wrong);
	if (!id || wrong)
		return bad(b, "page", "required: the id of the page to update");
	if ((pi = tree_find(w, id)) < 0)
		return bad(b, "page", "no such page");
	into = get_str(c, "into", &into_given, &wrong);
	if (wrong)
		return bad(b, "into", "must be a page id or null");
	struct rev_page p = w->pages[pi];
	if (md) {
		if (p.type != PAGE_DOCUMENT)
			return bad(b, "document", "only document pages have a document");
		if ((rc = put_body(b, md, &m, &heading, &p.body)))
			return rc;
	}
	if (json_object_get(c, "type")) {
		int t = read_type(b, c);
		if (t < 0)
			return t;
		if (t != (p.type == PAGE_COMPUTED))
			return bad(b, "type", "a page's type cannot be changed");
	}
	if (json_object_get(c, "computed")) {
		if (p.type != PAGE_COMPUTED)
			return bad(b, "computed", "only computed pages have a computed source");
		if ((rc = read_computed(b, c, &p.computed)))
			return rc;
	}
	apply_meta(&p, &m);
	if (into_given || at >= 0) {
		const char *parent = into_given ? into : p.parent;
		if (parent) {
			int ti = tree_find(w, parent);
			if (ti < 0)
				return bad(b, "into", "no such page");
			if (tree_is_descendant(w, parent, p.id))
				return bad(b, "into", "a page cannot move under itself or one of its descendants");
			if (w->pages[ti].type == PAGE_LINK || w->pages[ti].type == PAGE_COMPUTED)
				return bad(b, "into", "a link or computed page cannot have child pages");
		}
		int moving = !((parent && p.parent && strcmp(parent, p.parent) == 0) || (!parent && !p.parent));
		p.parent = parent;
		if (at >= 0 || moving) {
			int64_t pos;
			if ((rc = tree_position(w, parent, at, p.id, &pos)))
				return rc;
			p.pos = pos;
		}
	}
	const char *slug = m.slug ? m.slug : p.slug;
	if (!tree_slug_free(w, p.parent, slug, p.id)) {
		if (m.slug)
			return bad(b, "slug", "another page in the same parent has this slug");
		if (!(slug = tree_slug_unique(w, p.parent, slug, p.id)))
			return err_set(ERR_INTERNAL, "out of memory");
	}
	p.slug = slug;
	p.updated_at = w->now;
	/* tree_position may have renumbered siblings: re-find the slot. */
	pi = tree_find(w, id);
	w->pages[pi] = p;
	note_outcome(b, "updated_page", p.id, NULL);
	return 0;
}

static int delete_page(struct batch *b, json_t *c)
{
	int present, wrong = 0;
	const char *id = get_str(c, "page", &present, &wrong);

	if (!id || wrong)
		return bad(b, "page", "required: the id of the page to delete");
	if (tree_find(b->w, id) < 0)
		return bad(b, "page", "no such page");
	note_outcome(b, "deleted_page", id, NULL);
	return tree_delete(b->w, id);
}

/* The page as it is in another revision: restored, reset, or removed. */
static int revert_page(struct batch *b, json_t *c)
{
	struct dom *d = b->d;
	int present, wrong = 0, rc;
	const char *id = get_str(c, "page", &present, &wrong), *rev_id = get_str(c, "revision", &present, &wrong);
	const struct revision *from = b->revert_base;
	struct tree_work *w = b->w;

	if (!id || wrong)
		return bad(b, "page", "required: the id of the page to revert");
	if (json_object_get(c, "block"))
		return bad(b, "block", "reverting single blocks is not supported; revert the whole page");
	if (rev_id) {
		rc = store_revision_get(d->tx, rev_id, &from);
		if (rc == ERR_NOT_FOUND || (!rc && strcmp(from->space_id, b->revert_base->space_id) != 0))
			return bad(b, "revision", "no such revision in this space");
		if (rc)
			return rc;
	}
	const struct rev_page *old = revision_page(from, id);
	int pi = tree_find(w, id);
	if (!old && pi < 0)
		return bad(b, "page", "no such page in the change request or the revision");
	if (!old) {
		note_outcome(b, "deleted_page", id, NULL);
		return tree_delete(w, id);
	}
	struct rev_page p = *old;
	if (p.parent && tree_find(w, p.parent) < 0)
		p.parent = NULL; /* its old parent is gone: keep the page, at the top */
	if (!tree_slug_free(w, p.parent, p.slug, p.id) && !(p.slug = tree_slug_unique(w, p.parent, p.slug, p.id)))
		return err_set(ERR_INTERNAL, "out of memory");
	if (pi >= 0) {
		w->pages[pi] = p;
		note_outcome(b, "updated_page", id, NULL);
		return 0;
	}
	note_outcome(b, "created_page", id, NULL);
	if ((rc = tree_insert(w, &p, -1)))
		return rc;
	w->pages[w->n - 1].pos = old->pos; /* back where it was */
	return 0;
}

int dom_apply_changes(struct dom *d, struct tree_work *w, json_t *changes, const struct revision *revert_base,
		      json_t *refs, const struct fetched_files *fetched, struct content_outcome *out)
{
	return dom_apply_changes_n(d, w, changes, MAX_CHANGES, revert_base, refs, fetched, out);
}

int dom_apply_changes_n(struct dom *d, struct tree_work *w, json_t *changes, int max_changes,
			const struct revision *revert_base, json_t *refs, const struct fetched_files *fetched,
			struct content_outcome *out)
{
	struct batch *b;
	size_t n = json_array_size(changes);
	int rc = 0;

	if (!json_is_array(changes) || n < 1 || n > (size_t)max_changes)
		return err_set(ERR_INVALID, "changes: must be an array of 1 to %d changes", max_changes);
	b = xcalloc(1, sizeof(*b));
	b->d = d;
	b->w = w;
	b->revert_base = revert_base;
	b->fetched = fetched;
	b->out = out;
	if (out)
		memset(out, 0, sizeof(*out));
	b->page_ids = arena_alloc(d->arena, sizeof(char *) * n);
	/* Refs given by the caller (a template's contentRefs): name -> target. */
	const char *rname;
	json_t *rval;
	json_object_foreach(refs, rname, rval)
	{
		if (json_is_string(rval) && (rc = add_ref(b, rname, json_string_value(rval))))
			break;
	}
	/* Pass 1: ids for new pages, files stored, refs known. */
	for (size_t i = 0; i < n && !rc; i++) {
		json_t *c = json_array_get(changes, i);
		const char *op;
		int present, wrong = 0;
		b->index = (int)i;
		b->page_ids[i] = NULL;
		if (!json_is_object(c) || !(op = get_str(c, "operation", &present, &wrong)))
			rc = bad(b, "operation", "required: insert_page, update_page, delete_page, revert_page or insert_files");
		else if (strcmp(op, "insert_page") == 0) {
			char id[ID_LEN + 1];
			const char *ref = get_str(c, "ref", &present, &wrong);
			if (id_new(id)) {
				rc = err_set(ERR_INTERNAL, "cannot make an id");
			} else {
				b->page_ids[i] = arena_strdup(d->arena, id);
				if (wrong)
					rc = bad(b, "ref", "must be a string");
				else if (ref)
					rc = add_ref(b, ref, arena_printf(d->arena, "/pages/%s", b->page_ids[i]));
			}
		} else if (strcmp(op, "insert_files") == 0) {
			json_t *files = json_object_get(c, "files");
			size_t nf = json_array_size(files);
			if (!json_is_array(files) || nf < 1 || nf > MAX_FILES_PER_CHANGE)
				rc = bad(b, "files", "must be an array of 1 to 20 files");
			for (size_t k = 0; k < nf && !rc; k++)
				rc = insert_file(b, json_array_get(files, k), (int)k);
		} else if (strcmp(op, "update_page") && strcmp(op, "delete_page") && strcmp(op, "revert_page")) {
			rc = bad(b, "operation", "must be insert_page, update_page, delete_page, revert_page or insert_files");
		}
	}
	/* Pass 2: page changes in order. */
	for (size_t i = 0; i < n && !rc; i++) {
		json_t *c = json_array_get(changes, i);
		int present, wrong = 0;
		const char *op = get_str(c, "operation", &present, &wrong);
		b->index = (int)i;
		if (strcmp(op, "insert_page") == 0)
			rc = insert_page(b, c);
		else if (strcmp(op, "update_page") == 0)
			rc = update_page(b, c);
		else if (strcmp(op, "delete_page") == 0)
			rc = delete_page(b, c);
		else if (strcmp(op, "revert_page") == 0)
			rc = revert_page(b, c);
	}
	free(b);
	return rc;
}

/* Entries of a working copy as a new revision. */
void dom_revision_new(const struct tree_work *w, struct revision_new *nr)
{
	nr->pages = w->pages;
	nr->npages = w->n;
	nr->files = w->files;
	nr->nfiles = w->nf;
}

int dom_write_edits(struct dom *d, const struct space *s, const struct tree_work *w, const struct revision *parent,
		    const struct revision **out)
{
	struct revision_new nr = { 0 };

	dom_revision_new(w, &nr);
	nr.space_id = s->id;
	nr.parent_id = parent->id;
	nr.parents = arena_printf(d->arena, "[\"%s\"]", parent->id);
	nr.type = "edits";
	nr.created_by = d->actor.user_id;
	return store_revision_create(d->tx, &nr, out);
}
