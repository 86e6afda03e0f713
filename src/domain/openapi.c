/*
 * openapi.c - OpenAPI specifications (domain/openapi.h): the operations, and
 * the job that turns a spec's source into versions.
 *
 * Processing, GitBook's OpenAPISpecProcessingState exactly (there is no
 * failed state: a failed run ends complete with lastProcessErrorCode set and
 * the last good version kept):
 *
 *   create / PUT (a source; generation + 1)           job: fetched, parsed and
 *        |   store_openapi_set_source, a job queued      checked; a version when
 *        v                                               the content changed
 *   +---------+  job claims it      +----------+  finish  +----------+
 *   | pending | ------------------> | progress | -------> | complete | (lastProcessErrorCode
 *   +---------+  store_openapi_     +----------+  store_  +----------+  set or cleared)
 *        ^       set_state                        openapi_      |
 *        |                                        finish        | URL sources: a job queued
 *        +------------------------------------------------------+ OPENAPI_REFETCH_MS later
 *          a new source (PUT)                                     (it goes progress -> complete)
 *
 * The job (JOB_KIND_OPENAPI, subject: the spec's id, deduplicated while
 * queued; worker jobs/openapi.c) runs in transactions of its own: a short
 * one reads the spec and marks it in progress; the fetches run with no
 * transaction held (util/fetch.h: http(s) only, private addresses refused
 * unless --allow-private-network, a timeout and a size limit per file); a
 * last one locks the spec's row and writes the result, only if the spec
 * still has the source the job read (its generation): a source replaced
 * meanwhile has queued a job of its own. Idempotence (jobs.h): the version
 * is added only when the content's hash differs from the last version's,
 * compared under that lock, so a job run twice for the same content adds
 * one version.
 *
 * Errors of a run (lastProcessErrorCode): FETCH_TIMEOUT when a fetch ran out
 * of time, FETCH_ERROR for any other fetch failure (HTTP status, network,
 * refused address, too large, too many files), PARSE_ERROR when a file is
 * not YAML or JSON, expands past OPENAPI_MAX_EXPANDED_BYTES with its YAML
 * aliases written out, the files together past OPENAPI_MAX_STORED_BYTES, or
 * the entry file is not OpenAPI 3.x or Swagger 2.0. The reason is
 * lastProcessedErrors[0].message.
 */
#include "domain/openapi.h"
#include "format/openapi_doc.h"
#include "model/validate.h"
#include "domain/job.h"
#include "store/jobs.h"
#include "store/openapi.h"
#include "util/alloc.h"
#include "util/err.h"
#include "util/fetch.h"
#include "util/log.h"
#include "util/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_URL 2048

/* ---- access and input ---- */

/* Members with a role read; `edit` needs create (Organization.permissions.createOpenAPISpec). */
static int require(struct dom *d, const char *org_id, bool edit)
{
	int rc = dom_org_require(d, org_id, ORG_ACCESS_MEMBER);

	if (rc == 0 && edit && d->actor.org.role < ROLE_CREATE)
		rc = err_set(ERR_FORBIDDEN, "managing OpenAPI specs needs the create role in the organization");
	return rc;
}

/* GitBook's OpenAPISpecSlug: 1..100 of ^[a-z0-9]+(?:-[a-z0-9]+)*$. */
static int check_slug(const char *slug)
{
	size_t n = slug ? strlen(slug) : 0;

	if (n < 1 || n > 100)
		return err_set(ERR_INVALID, "slug: must be 1 to 100 characters");
	for (size_t i = 0; i < n; i++) {
		char c = slug[i];
		bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
		if (!alnum && !(c == '-' && i > 0 && i + 1 < n && slug[i + 1] != '-'))
			return err_set(ERR_INVALID, "slug: must match ^[a-z0-9]+(?:-[a-z0-9]+)*$ (lower-case letters and "
						    "digits, single '-' between them)");
	}
	return 0;
}

/* GitBook's OpenAPISpecSource: {url} (a URL of at most 2048 characters) or
 * {text} (at least one character). */
static int check_source(const struct openapi_source *src)
{
	if (!!src->url == !!src->text)
		return err_set(ERR_INVALID, "source: must be {\"url\": <URL>} or {\"text\": <the specification>}");
	if (src->url) {
		if (strlen(src->url) > MAX_URL)
			return err_set(ERR_INVALID, "source.url: at most %d characters", MAX_URL);
		if (!valid_url(src->url))
			return err_set(ERR_INVALID, "source.url: must be an absolute http or https URL");
	} else if (!*src->text) {
		return err_set(ERR_INVALID, "source.text: must not be empty");
	} else if (strlen(src->text) > OPENAPI_MAX_BYTES) {
		return err_set(ERR_INVALID, "source.text: at most %zu bytes", OPENAPI_MAX_BYTES);
	}
	return 0;
}

static int enqueue(struct dom *d, const char *spec_id, int64_t run_after)
{
	char id[ID_LEN + 1];

	return store_job_enqueue_unique(d->tx, JOB_KIND_OPENAPI, spec_id, NULL, run_after, id);
}

/* ---- operations ---- */

int dom_openapi_list(struct dom *d, const char *org_id, const struct list_req *lr, struct openapi_spec **items, int *n,
		     char **next)
{
	int rc = require(d, org_id, false);

	return rc ? rc : store_openapi_list(d->tx, org_id, lr, items, n, next);
}

int dom_openapi_create(struct dom *d, const char *org_id, const char *slug, const struct openapi_source *src,
		       struct openapi_spec *out)
{
	int rc;

	if ((rc = require(d, org_id, true)) || (rc = check_slug(slug)) || (rc = check_source(src)))
		return rc;
	*out = (struct openapi_spec){ .org_id = org_id, .slug = slug, .source_url = src->url, .source_text = src->text };
	if ((rc = store_openapi_create(d->tx, out, false, NULL)) || (rc = enqueue(d, out->id, 0)))
		return rc;
	out->source_text = NULL;
	return 0;
}

int dom_openapi_put(struct dom *d, const char *org_id, const char *slug, const struct openapi_source *src,
		    struct openapi_spec *out, bool *created)
{
	struct openapi_spec s = { .org_id = org_id, .slug = slug, .source_url = src->url, .source_text = src->text };
	int rc;

	*created = false;
	if ((rc = require(d, org_id, true)) || (rc = check_slug(slug)) || (rc = check_source(src)))
		return rc;
	/* Insert when absent (two PUTs of a new slug at once: one inserts, the
	 * other finds the row), else replace the source under the row's lock. */
	if ((rc = store_openapi_create(d->tx, &s, true, created)))
		return rc;
	if (!*created && ((rc = store_openapi_get_locked(d->tx, org_id, slug, &s)) ||
			  (rc = store_openapi_set_source(d->tx, s.id, src->url, src->text))))
		return rc;
	if ((rc = enqueue(d, s.id, 0)))
		return rc;
	return store_openapi_get(d->tx, org_id, slug, out);
}

int dom_openapi_get(struct dom *d, const char *org_id, const char *slug, struct openapi_spec *out)
{
	int rc = require(d, org_id, false);

	return rc ? rc : store_openapi_get(d->tx, org_id, slug, out);
}

int dom_openapi_delete(struct dom *d, const char *org_id, const char *slug, bool *removed)
{
	int rc = require(d, org_id, true);

	*removed = false;
	/* A queued job of a deleted spec finds nothing and ends. */
	return rc ? rc : store_openapi_delete(d->tx, org_id, slug, removed);
}

int dom_openapi_set_visibility(struct dom *d, const char *org_id, const char *slug, const char *visibility,
			       struct openapi_spec *out)
{
	int rc;

	if ((rc = require(d, org_id, true)))
		return rc;
	if (!visibility || (strcmp(visibility, "private") != 0 && strcmp(visibility, "public") != 0))
		return err_set(ERR_INVALID, "visibility: must be 'private' or 'public'");
	if ((rc = store_openapi_get_locked(d->tx, org_id, slug, out)) ||
	    (rc = store_openapi_set_visibility(d->tx, out->id, visibility)))
		return rc;
	return store_openapi_get(d->tx, org_id, slug, out);
}

int dom_openapi_versions(struct dom *d, const char *org_id, const char *slug, const struct list_req *lr,
			 struct openapi_spec *spec, struct openapi_version **items, int *n, char **next)
{
	int rc;

	if ((rc = require(d, org_id, false)) || (rc = store_openapi_get(d->tx, org_id, slug, spec)))
		return rc;
	return store_openapi_versions_list(d->tx, spec->id, lr, items, n, next);
}

static int version_of(struct dom *d, const struct openapi_spec *spec, const char *version_id, bool with_fs,
		      struct openapi_version *out)
{
	const char *id = version_id ? version_id : spec->last_version;

	if (!id)
		return err_set(ERR_NOT_FOUND, "OpenAPI spec '%s' has no version yet (processingState %s)", spec->slug,
			       spec->processing_state);
	return store_openapi_version_get(d->tx, spec->id, id, with_fs, out);
}

int dom_openapi_version(struct dom *d, const char *org_id, const char *slug, const char *version_id, bool with_fs,
			struct openapi_spec *spec, struct openapi_version *out)
{
	int rc;

	if ((rc = require(d, org_id, false)) || (rc = store_openapi_get(d->tx, org_id, slug, spec)))
		return rc;
	return version_of(d, spec, version_id, with_fs, out);
}

/* The entry file's specification of a filesystem, as compact JSON in a. */
static int entry_json(struct arena *a, const char *fs_text, const char **out)
{
	json_t *fs = json_loads(fs_text, 0, NULL), *e;
	const char *k;
	char *s = NULL;
	int rc = 0;

	*out = NULL;
	json_object_foreach(fs, k, e) if (json_is_true(json_object_get(e, "isEntrypoint")))
	{
		s = json_dumps(json_object_get(e, "specification"), JSON_COMPACT);
		break;
	}
	if (!s)
		rc = err_set(fs ? ERR_NOT_FOUND : ERR_INTERNAL, fs ? "the version has no entry file" : "a stored version is unreadable");
	else
		*out = arena_strdup(a, s);
	free(s);
	json_decref(fs);
	return rc;
}

int dom_openapi_published(struct dom *d, const char *org_id, const char *slug, const char *version_id,
			  const char **json)
{
	struct openapi_spec spec;
	struct openapi_version v;
	int rc;

	/* No actor: visibility alone decides (a private spec is not revealed). */
	if ((rc = store_openapi_get(d->tx, org_id, slug, &spec)))
		return rc;
	if (strcmp(spec.visibility, "public") != 0)
		return err_set(ERR_NOT_FOUND, "OpenAPI spec not found");
	if ((rc = version_of(d, &spec, version_id, true, &v)))
		return rc;
	return entry_json(d->arena, v.filesystem, json);
}

int dom_openapi_exists(struct dom *d, const char *org_id, const char *slug)
{
	struct openapi_spec spec;

	return store_openapi_get(d->tx, org_id, slug, &spec);
}

int dom_openapi_page_markdown(struct dom *d, const char *org_id, const char *computed, const char **md)
{
	struct openapi_spec spec;
	struct openapi_version v;
	const char *slug;
	bool models;
	json_t *fs;
	struct jw w;
	int rc;

	*md = "";
	if (openapi_computed_read(d->arena, computed, &slug, &models))
		return (*md = "This page is computed from a source docsd does not support.\n"), 0;
	rc = store_openapi_get(d->tx, org_id, slug, &spec);
	if (rc == ERR_NOT_FOUND) {
		*md = arena_printf(d->arena, "The OpenAPI specification `%s` does not exist.\n", slug);
		return 0;
	}
	if (rc)
		return rc;
	if (!spec.last_version) {
		*md = arena_printf(d->arena, "The OpenAPI specification `%s` has not been processed yet.\n", slug);
		return 0;
	}
	if ((rc = store_openapi_version_get(d->tx, spec.id, spec.last_version, true, &v)))
		return rc;
	if (!(fs = json_loads(v.filesystem, 0, NULL)))
		return err_set(ERR_INTERNAL, "OpenAPI version %s is unreadable", v.id);
	jw_init(&w);
	rc = openapi_markdown(&w, fs, models);
	json_decref(fs);
	if (rc == 0)
		*md = arena_strndup(d->arena, w.buf ? w.buf : "", w.len);
	jw_free(&w);
	return rc;
}

int dom_openapi_block_markdown(struct dom *d, const char *org_id, const char *slug, const char *src, const char *path,
			       const char *method, const char **md)
{
	struct openapi_spec spec, *items = NULL;
	struct openapi_version v;
	json_t *fs;
	struct jw w;
	int rc = ERR_NOT_FOUND, n = 0;

	*md = "";
	if (slug)
		rc = store_openapi_get(d->tx, org_id, slug, &spec);
	if (rc == ERR_NOT_FOUND && src) {
		/* GitBook's older blocks name the spec by its URL: the first
		 * 1,000 specs are looked at (an organization has a few). */
		struct list_req lr = { .limit = 1000 };
		char *next = NULL;
		if ((rc = store_openapi_list(d->tx, org_id, &lr, &items, &n, &next)))
			return rc;
		rc = ERR_NOT_FOUND;
		for (int i = 0; i < n && rc; i++)
			if (items[i].source_url && strcmp(items[i].source_url, src) == 0)
				rc = store_openapi_get(d->tx, org_id, items[i].slug, &spec);
	}
	if (rc == ERR_NOT_FOUND || (rc == 0 && !spec.last_version)) {
		*md = arena_printf(d->arena, "The API operation `%s %s` is in an OpenAPI specification this organization does not have%s.\n\n",
				   method ? method : "", path ? path : "", rc == 0 ? " processed yet" : "");
		return 0;
	}
	if (rc)
		return rc;
	if ((rc = store_openapi_version_get(d->tx, spec.id, spec.last_version, true, &v)))
		return rc;
	if (!(fs = json_loads(v.filesystem, 0, NULL)))
		return err_set(ERR_INTERNAL, "OpenAPI version %s is unreadable", v.id);
	jw_init(&w);
	rc = openapi_operation_markdown(&w, fs, path ? path : "", method ? method : "");
	json_decref(fs);
	if (rc == 0)
		*md = arena_strndup(d->arena, w.buf ? w.buf : "", w.len);
	else if (rc == ERR_NOT_FOUND)
		*md = arena_printf(d->arena, "The OpenAPI specification `%s` has no operation `%s %s`.\n\n", spec.slug,
				   method ? method : "", path ? path : ""), rc = 0;
	jw_free(&w);
	return rc;
}

int dom_openapi_versions_key(struct dom *d, const char *org_id, const char **out)
{
	struct openapi_spec *items;
	struct jw w;
	int n, rc;

	*out = "";
	if ((rc = store_openapi_org_versions(d->tx, org_id, &items, &n)))
		return rc;
	jw_init(&w);
	for (int i = 0; i < n; i++) {
		jw_put(&w, items[i].slug, strlen(items[i].slug));
		jw_put(&w, "=", 1);
		if (items[i].last_version)
			jw_put(&w, items[i].last_version, strlen(items[i].last_version));
		jw_put(&w, ";", 1);
	}
	if (!jw_ok(&w))
		rc = err_set(ERR_INTERNAL, "out of memory");
	else
		*out = arena_strndup(d->arena, w.buf ? w.buf : "", w.len);
	jw_free(&w);
	return rc;
}

/* ---- the job ---- */

/* What one run produced: a filesystem, or an error code and its reason. */
struct run_result {
	const char *code;    /* NULL: success */
	char message[512];
	char *fs;            /* compact JSON (malloc'd) */
	char hash[65];
};

static int run_fail(struct run_result *r, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int run_fail(struct run_result *r, const char *code, const char *fmt, ...)
{
	va_list ap;

	r->code = code;
	va_start(ap, fmt);
	vsnprintf(r->message, sizeof(r->message), fmt, ap);
	va_end(ap);
	return 0;
}

struct pending_file {
	const char *key; /* path relative to the entry file's directory */
	const char *url; /* NULL: the text source */
};

static long fetch_timeout_ms(void)
{
	const char *t = getenv("DOCSD_TEST_OPENAPI_TIMEOUT_MS");
	long v = t ? strtol(t, NULL, 10) : 0;

	return v > 0 && v < OPENAPI_FETCH_TIMEOUT_MS ? v : OPENAPI_FETCH_TIMEOUT_MS;
}

/* The entry file's key: the URL's last path segment, or openapi.json /
 * openapi.yaml for a text (by its first character). */
static const char *entry_key(struct arena *a, const char *url, const char *text)
{
	if (url) {
		const char *path = strstr(url, "://") + 3;
		size_t end;
		path += strcspn(path, "/?#");
		end = strcspn(path, "?#");
		while (end > 0 && path[end - 1] == '/')
			end--;
		const char *slash = path;
		for (size_t i = 0; i < end; i++)
			if (path[i] == '/')
				slash = path + i + 1;
		size_t n = (size_t)(path + end - slash);
		if (n > 0 && n <= 200) {
			char *k = arena_strndup(a, slash, n);
			/* A key is a relative path: no '/', and not "." or "..". */
			if (strcmp(k, ".") != 0 && strcmp(k, "..") != 0 && !strchr(k, '\\'))
				return k;
		}
		return "openapi.yaml";
	}
	while (*text == ' ' || *text == '\n' || *text == '\r' || *text == '\t')
		text++;
	return *text == '{' ? "openapi.json" : "openapi.yaml";
}

/* The JSON text being written by dump_capped. */
struct capped {
	char *buf;
	size_t len, cap;
	bool over;
};

/* json_dump_callback's writer: -1 (the dump stops) at the first byte past
 * OPENAPI_MAX_STORED_BYTES, so an oversized version is never held whole. */
static int capped_write(const char *p, size_t n, void *ud)
{
	struct capped *c = ud;

	if (n > OPENAPI_MAX_STORED_BYTES - c->len) {
		c->over = true;
		return -1;
	}
	if (c->cap - c->len < n + 1) {
		size_t cap = c->cap ? c->cap * 2 : (size_t)64 << 10;
		while (cap - c->len < n + 1)
			cap *= 2;
		if (cap > OPENAPI_MAX_STORED_BYTES + 1)
			cap = OPENAPI_MAX_STORED_BYTES + 1;
		c->buf = xrealloc(c->buf, cap);
		c->cap = cap;
	}
	memcpy(c->buf + c->len, p, n);
	c->len += n;
	c->buf[c->len] = '\0';
	return 0;
}

/* fs as compact JSON into res->fs, or PARSE_ERROR in res when it is larger
 * than a version may store (OPENAPI_MAX_STORED_BYTES). */
static int dump_capped(const json_t *fs, struct run_result *res)
{
	struct capped c = { 0 };

	if (json_dump_callback(fs, capped_write, &c, JSON_COMPACT) == 0 && c.buf) {
		res->fs = c.buf;
		return 0;
	}
	free(c.buf);
	if (c.over)
		return run_fail(res, "PARSE_ERROR", "the processed specification is larger than %zu bytes (the most a "
						    "version may store)",
				OPENAPI_MAX_STORED_BYTES);
	return err_set(ERR_INTERNAL, "out of memory");
}

/* Fetch every file of a source with no transaction held: the entry file,
 * then the relative $ref files of each file (only for a URL source),
 * breadth first, at most OPENAPI_MAX_FILES and OPENAPI_MAX_TOTAL_BYTES. */
static int process(const struct dom *d, struct arena *a, const struct openapi_spec *spec, struct run_result *res)
{
	struct pending_file files[OPENAPI_MAX_FILES];
	int nfiles = 1, rc = 0;
	size_t total = 0, expanded = 0, expanded_total = 0;
	long per_file = fetch_timeout_ms();
	int64_t deadline = clock_now_ms() + 3 * (int64_t)per_file;
	json_t *fs = json_object();

	if (!fs)
		return err_set(ERR_INTERNAL, "out of memory");
	files[0] = (struct pending_file){ entry_key(a, spec->source_url, spec->source_text ? spec->source_text : ""),
					  spec->source_url };
	for (int i = 0; i < nfiles && rc == 0 && !res->code; i++) {
		struct fetch_result fr = { 0 };
		const char *text;
		size_t len;
		json_t *doc = NULL, *refs_json, *entry;
		const char **refs, *version;
		int nrefs;

		if (files[i].url) {
			int64_t left = deadline - clock_now_ms();
			struct fetch_opts o = { .max_bytes = OPENAPI_MAX_BYTES,
						.timeout_ms = left < per_file ? (long)left : per_file,
						.allow_private = d->srv && d->srv->cfg.allow_private_network };
			if (left <= 0) {
				run_fail(res, "FETCH_TIMEOUT", "%s: the fetches took longer than %ld ms", files[i].key,
					 3 * per_file);
				break;
			}
			if (fetch_url(files[i].url, &o, &fr)) {
				/* Every failure ends the run (there is no failed state to
				 * retry from); the reason never names a resolved address. */
				run_fail(res, fr.failure == FETCH_FAIL_TIMEOUT ? "FETCH_TIMEOUT" : "FETCH_ERROR", "%s: %s",
					 files[i].key, *fr.error ? fr.error : err_message());
				fetch_result_free(&fr);
				break;
			}
			text = (const char *)fr.data;
			len = fr.len;
			if ((total += len) > OPENAPI_MAX_TOTAL_BYTES) {
				fetch_result_free(&fr);
				run_fail(res, "FETCH_ERROR", "the files of the specification are larger than %zu bytes together",
					 OPENAPI_MAX_TOTAL_BYTES);
				break;
			}
		} else {
			text = spec->source_text ? spec->source_text : "";
			len = strlen(text);
		}
		rc = openapi_parse_counted(text, len, &doc, &expanded);
		fetch_result_free(&fr);
		if (rc == ERR_INVALID) {
			rc = 0;
			run_fail(res, "PARSE_ERROR", "%s: %s", files[i].key, err_message());
			break;
		}
		if (rc)
			break;
		/* Each file is under OPENAPI_MAX_EXPANDED_BYTES; together they must
		 * fit what a version may store, or 50 of them would build 50 times it. */
		if ((expanded_total += expanded) > OPENAPI_MAX_STORED_BYTES) {
			json_decref(doc);
			run_fail(res, "PARSE_ERROR",
				 "%s: the files of the specification expand to more than %zu bytes together (the most "
				 "a version may store)",
				 files[i].key, OPENAPI_MAX_STORED_BYTES);
			break;
		}
		if (i == 0 && openapi_check(doc, &version)) {
			run_fail(res, "PARSE_ERROR", "%s: %s", files[i].key, err_message());
			json_decref(doc);
			break;
		}
		if ((rc = openapi_file_refs(a, doc, &refs, &nrefs))) {
			json_decref(doc);
			break;
		}
		refs_json = json_array();
		for (int k = 0; k < nrefs && refs_json && !res->code; k++) {
			const char *key = openapi_path_join(a, i == 0 ? NULL : files[i].key, refs[k]);
			bool known = false;
			json_array_append_new(refs_json, json_string(refs[k]));
			if (!key) {
				run_fail(res, "PARSE_ERROR", "%s: $ref '%.200s': %s", files[i].key, refs[k], err_message());
				break;
			}
			/* Text sources are not fetched: their $ref files stay references. */
			if (!spec->source_url)
				continue;
			for (int j = 0; j < nfiles && !known; j++)
				known = strcmp(files[j].key, key) == 0;
			if (known)
				continue;
			if (nfiles == OPENAPI_MAX_FILES) {
				run_fail(res, "FETCH_ERROR", "the specification refers to more than %d files",
					 OPENAPI_MAX_FILES);
				break;
			}
			const char *url = openapi_url_resolve(a, spec->source_url, key);
			if (!url) {
				run_fail(res, "FETCH_ERROR", "%s: $ref '%.200s': %s", files[i].key, refs[k], err_message());
				break;
			}
			files[nfiles++] = (struct pending_file){ key, url };
		}
		entry = refs_json ? json_pack("{s:s,s:b,s:o,s:s,s:o}", "dir", openapi_path_dir(a, files[i].key),
					      "isEntrypoint", i == 0, "references", refs_json, "filename", files[i].key,
					      "specification", doc)
				  : NULL;
		if (!entry || json_object_set_new(fs, files[i].key, entry)) {
			if (!entry && !refs_json)
				json_decref(doc);
			rc = err_set(ERR_INTERNAL, "out of memory");
		}
	}
	if (rc == 0 && !res->code && (rc = dump_capped(fs, res)) == 0 && !res->code &&
	    sha256_hex(res->hash, res->fs, strlen(res->fs)))
		rc = err_set(ERR_INTERNAL, "cannot hash the content");
	json_decref(fs);
	return rc;
}

/* The last step of a run, under the spec's row lock. */
static int finish(struct dom *d, struct store_tx *tx, const char *spec_id, int64_t generation,
		  const struct run_result *res, const char **result)
{
	struct openapi_spec s;
	struct openapi_version last, v;
	int64_t now = clock_now_ms();
	const char *added = NULL;
	int rc = store_openapi_get_by_id(tx, spec_id, true, &s);

	if (rc == ERR_NOT_FOUND)
		return (*result = "{\"skipped\":\"the spec was deleted\"}"), 0;
	if (rc)
		return rc;
	if (s.generation != generation)
		return (*result = "{\"skipped\":\"the spec has a newer source\"}"), 0;
	s.processing_state = "complete";
	s.last_processed_at = now;
	s.updated_at = now;
	if (res->code) {
		json_t *errs = json_pack("[{s:s,s:s}]", "message", res->message, "code", res->code);
		char *text = errs ? json_dumps(errs, JSON_COMPACT) : NULL;
		json_decref(errs);
		s.last_error_code = res->code;
		s.last_errors = arena_strdup(d->arena, text);
		free(text);
		if (!s.last_errors)
			return err_set(ERR_INTERNAL, "out of memory");
	} else {
		s.last_error_code = NULL;
		s.last_errors = NULL;
		rc = s.last_version ? store_openapi_version_get(tx, s.id, s.last_version, false, &last) : ERR_NOT_FOUND;
		if (rc && rc != ERR_NOT_FOUND)
			return rc;
		if (rc == ERR_NOT_FOUND || strcmp(last.content_hash, res->hash) != 0) {
			char id[ID_LEN + 1];
			if (id_new(id))
				return err_set(ERR_INTERNAL, "getrandom failed");
			v = (struct openapi_version){ .id = arena_strdup(d->arena, id), .spec_id = s.id,
						      .content_hash = res->hash, .filesystem = res->fs };
			/* A text source is reachable at docsd's own URL of the version. */
			v.url = s.source_url ? s.source_url
					     : arena_printf(d->arena, "%s/openapi/%s/%s/versions/%s", dom_base_url(d), s.org_id,
							    s.slug, id);
			if ((rc = store_openapi_version_insert(tx, &v)))
				return rc;
			s.last_version = added = v.id;
		}
	}
	if ((rc = store_openapi_finish(tx, &s)))
		return rc;
	if (s.source_url) {
		char id[ID_LEN + 1];
		if ((rc = store_job_enqueue_unique(tx, JOB_KIND_OPENAPI, s.id, NULL, now + OPENAPI_REFETCH_MS, id)))
			return rc;
	}
	*result = arena_printf(d->arena, "{\"version\":%s%s%s,\"error\":%s%s%s}", added ? "\"" : "", added ? added : "null",
			       added ? "\"" : "", res->code ? "\"" : "", res->code ? res->code : "null",
			       res->code ? "\"" : "");
	return 0;
}

int dom_openapi_job_process(struct dom *d, struct dom_job *run)
{
	struct store_tx tx;
	struct openapi_spec spec;
	struct run_result res = { 0 };
	const char *result = NULL;
	int rc;

	/* Read the source and mark the spec in progress. */
	if ((rc = store_tx_begin(run->store, &tx, 1, d->arena)))
		return rc;
	rc = store_openapi_get_by_id(&tx, run->job->subject, true, &spec);
	if (rc == ERR_NOT_FOUND) {
		store_tx_rollback(&tx);
		run->result = "{\"skipped\":\"the spec was deleted\"}";
		return 0;
	}
	if (rc == 0)
		rc = store_openapi_set_state(&tx, spec.id, "progress");
	if (rc == 0)
		rc = store_tx_commit(&tx);
	else
		store_tx_rollback(&tx);
	if (rc)
		return rc;
	/* No transaction while the files are fetched. */
	if ((rc = process(d, d->arena, &spec, &res)) == 0) {
		if ((rc = store_tx_begin(run->store, &tx, 1, d->arena)) == 0) {
			rc = finish(d, &tx, spec.id, spec.generation, &res, &result);
			if (rc == 0)
				rc = store_tx_commit(&tx);
			else
				store_tx_rollback(&tx);
		}
	}
	free(res.fs);
	if (rc == 0) {
		run->result = result;
		if (res.code)
			log_info("OpenAPI spec %s (%s): %s: %s", spec.id, spec.slug, res.code, res.message);
	}
	return rc;
}
