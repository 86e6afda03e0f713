/*
 * Uploaded files and PDFs: how uploads are served (types, disposition,
 * policy), signed URLs, the PDF cache and its limit on renders, and the
 * collection of bodies and blobs no revision references (on SQLite and on
 * PostgreSQL: DOCSD_TEST_PG_URL).
 */
#include "model/revision.h"
#include "domain/content.h"
#include "jobs/jobs.h"
#include "store/store.h"
#include "unit.h"
#include "domain/secrets.h"
#include "util/err.h"
#include "util/util.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* ---- serving uploads ---- */

static struct dom_download headers(struct arena *a, const char *type, const char *name)
{
	struct dom_download dl = { 0 };

	CHECK(dom_download_headers(a, type, name, &dl) == 0);
	return dl;
}

UNIT_TEST(files_download_headers)
{
	struct arena a;
	struct dom_download dl;

	arena_init(&a);
	/* documents a browser would render (and run) are attachments */
	const char *documents[] = { "text/html", "TEXT/HTML; charset=utf-8", "application/xhtml+xml", "image/svg+xml",
				    "text/xml", "application/xml", "application/pdf", "application/octet-stream",
				    "video/mp4", "text/javascript", "image/svg+xml; charset=utf-8", NULL };
	for (int i = 0; documents[i]; i++) {
		dl = headers(&a, documents[i], "x.bin");
		CHECK(dl.disposition && strncmp(dl.disposition, "attachment;", 11) == 0);
		CHECK_STR(dl.content_type, documents[i]);
		CHECK(dl.csp && strstr(dl.csp, "default-src 'none'") && strstr(dl.csp, "sandbox"));
	}
	/* raster images and plain text are shown inline */
	dl = headers(&a, "image/png", "logo.png");
	CHECK_STR(dl.disposition, "inline; filename=\"logo.png\"");
	CHECK_STR(dl.content_type, "image/png");
	dl = headers(&a, "IMAGE/JPEG", "a.jpg");
	CHECK(strncmp(dl.disposition, "inline;", 7) == 0);
	dl = headers(&a, "image/webp", "a.webp");
	CHECK(strncmp(dl.disposition, "inline;", 7) == 0);
	dl = headers(&a, "image/gif", "a.gif");
	CHECK(strncmp(dl.disposition, "inline;", 7) == 0);
	/* text/plain gets a charset unless it has one */
	dl = headers(&a, "text/plain", "notes.txt");
	CHECK_STR(dl.content_type, "text/plain; charset=utf-8");
	CHECK(strncmp(dl.disposition, "inline;", 7) == 0);
	dl = headers(&a, "text/plain; charset=ISO-8859-1", "notes.txt");
	CHECK_STR(dl.content_type, "text/plain; charset=ISO-8859-1");
	/* a malformed stored type (header injection) is never sent */
	dl = headers(&a, "text/html\r\nX-Injected: 1", "x");
	CHECK_STR(dl.content_type, "application/octet-stream");
	CHECK(strncmp(dl.disposition, "attachment;", 11) == 0);
	dl = headers(&a, "text/plain\nSet-Cookie: a=b", "x");
	CHECK_STR(dl.content_type, "application/octet-stream");
	dl = headers(&a, "image/png garbage", "x");
	CHECK_STR(dl.content_type, "application/octet-stream");
	dl = headers(&a, "", "x");
	CHECK_STR(dl.content_type, "application/octet-stream");
	dl = headers(&a, NULL, "x");
	CHECK_STR(dl.content_type, "application/octet-stream");
	/* RFC 6266: an ASCII fallback, and filename* for the exact name */
	dl = headers(&a, "text/html", "r\xc3\xa9sum\xc3\xa9 \"final\".html");
	CHECK_STR(dl.disposition,
		  "attachment; filename=\"r_sum_ _final_.html\"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22.html");
	dl = headers(&a, "image/png", "a\\b%41;c.png");
	CHECK_STR(dl.disposition, "inline; filename=\"a_b_41;c.png\"; filename*=UTF-8''a%5Cb%2541%3Bc.png");
	dl = headers(&a, "image/png", "line\r\nbreak.png");
	CHECK_STR(dl.disposition, "inline; filename=\"line__break.png\"; filename*=UTF-8''line%0D%0Abreak.png");
	dl = headers(&a, "image/png", "");
	CHECK_STR(dl.disposition, "inline; filename=\"download\"");
	arena_free(&a);
}

/* ---- the PDF cache ---- */

static const unsigned char pdf_a[] = "%PDF-a", pdf_b[] = "%PDF-b";

UNIT_TEST(files_pdfcache_hits_and_bound)
{
	struct pdfcache *c = NULL;
	struct pdfcache_stats st;
	struct arena a;
	const unsigned char *data;
	size_t len;

	arena_init(&a);
	CHECK(pdfcache_new(&c, 40, 2, 100) == 0); /* two entries of 15 bytes (key and data) */
	if (!c)
		return;
	/* a miss takes a turn; after it, the same key is a hit */
	CHECK(pdfcache_begin(c, "rev1.all", &a, &data, &len) == 0);
	pdfcache_end(c, "rev1.all", pdf_a, sizeof(pdf_a));
	CHECK(pdfcache_begin(c, "rev1.all", &a, &data, &len) == 1);
	CHECK(len == sizeof(pdf_a) && memcmp(data, pdf_a, len) == 0);
	/* a failed render caches nothing */
	CHECK(pdfcache_begin(c, "rev2.all", &a, &data, &len) == 0);
	pdfcache_end(c, "rev2.all", NULL, 0);
	CHECK(pdfcache_begin(c, "rev2.all", &a, &data, &len) == 0);
	pdfcache_end(c, "rev2.all", pdf_b, sizeof(pdf_b));
	pdfcache_stats(c, &st);
	CHECK(st.hits == 1 && st.renders == 2 && st.entries == 2 && st.rendering == 0);
	/* bounded in bytes: a third entry evicts the least recently used */
	CHECK(pdfcache_begin(c, "rev1.all", &a, &data, &len) == 1); /* rev1 is now the most recent */
	CHECK(pdfcache_begin(c, "rev3.all", &a, &data, &len) == 0);
	pdfcache_end(c, "rev3.all", pdf_a, sizeof(pdf_a));
	pdfcache_stats(c, &st);
	CHECK(st.bytes <= 40 && st.entries == 2);
	CHECK(pdfcache_begin(c, "rev1.all", &a, &data, &len) == 1);
	CHECK(pdfcache_begin(c, "rev2.all", &a, &data, &len) == 0); /* evicted */
	pdfcache_end(c, "rev2.all", NULL, 0);
	/* larger than the whole budget: served, never cached */
	unsigned char big[100] = { 0 };
	CHECK(pdfcache_begin(c, "big", &a, &data, &len) == 0);
	pdfcache_end(c, "big", big, sizeof(big));
	CHECK(pdfcache_begin(c, "big", &a, &data, &len) == 0);
	pdfcache_end(c, "big", NULL, 0);
	pdfcache_free(c);
	arena_free(&a);
}

struct renderer {
	struct pdfcache *c;
	const char *key;
	int rc;
	long hold_ms;
	const unsigned char *got;
	size_t len;
};

static void *render_thread(void *arg)
{
	struct renderer *r = arg;
	struct arena a;

	arena_init(&a);
	r->rc = pdfcache_begin(r->c, r->key, &a, &r->got, &r->len);
	if (r->rc == 0) {
		sleep_ms(r->hold_ms); /* "rendering" */
		pdfcache_end(r->c, r->key, pdf_a, sizeof(pdf_a));
	}
	r->got = NULL; /* the copy was the thread's arena's */
	arena_free(&a);
	return NULL;
}

UNIT_TEST(files_pdfcache_limits_renders)
{
	struct pdfcache *c = NULL;
	struct pdfcache_stats st;
	struct arena a;
	const unsigned char *data;
	size_t len;
	pthread_t th[6];
	struct renderer r[6];

	arena_init(&a);
	/* two turns; a third waits up to 100 ms, then gives up */
	CHECK(pdfcache_new(&c, 1 << 20, 2, 100) == 0);
	if (!c)
		return;
	CHECK(pdfcache_begin(c, "a", &a, &data, &len) == 0);
	CHECK(pdfcache_begin(c, "b", &a, &data, &len) == 0);
	CHECK(pdfcache_begin(c, "c", &a, &data, &len) == ERR_UNAVAILABLE);
	pdfcache_stats(c, &st);
	CHECK(st.rendering == 2 && st.rejected == 1);
	/* a turn given back is taken by the next one */
	pdfcache_end(c, "a", pdf_a, sizeof(pdf_a));
	CHECK(pdfcache_begin(c, "c", &a, &data, &len) == 0);
	pdfcache_end(c, "b", NULL, 0);
	pdfcache_end(c, "c", NULL, 0);
	pdfcache_free(c);

	/* six different PDFs at once with two turns and room to wait: all are
	 * rendered, never more than two at a time */
	c = NULL;
	CHECK(pdfcache_new(&c, 1 << 20, 2, 5000) == 0);
	if (!c)
		return;
	const char *keys[6] = { "k0", "k1", "k2", "k3", "k4", "k5" };
	for (int i = 0; i < 6; i++) {
		r[i] = (struct renderer){ .c = c, .key = keys[i], .hold_ms = 80 };
		CHECK(pthread_create(&th[i], NULL, render_thread, &r[i]) == 0);
	}
	for (int i = 0; i < 6; i++)
		pthread_join(th[i], NULL);
	pdfcache_stats(c, &st);
	for (int i = 0; i < 6; i++)
		CHECK(r[i].rc == 0);
	CHECK(st.renders == 6 && st.peak == 2 && st.rendering == 0);

	/* four fetches of one PDF at once: one renders, the others wait for it */
	for (int i = 0; i < 4; i++) {
		r[i] = (struct renderer){ .c = c, .key = "same", .hold_ms = 150 };
		CHECK(pthread_create(&th[i], NULL, render_thread, &r[i]) == 0);
	}
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	int rendered = 0, hits = 0;
	for (int i = 0; i < 4; i++) {
		rendered += r[i].rc == 0;
		hits += r[i].rc == 1;
	}
	CHECK(rendered == 1 && hits == 3);
	pdfcache_stats(c, &st);
	CHECK(st.renders == 7);
	pdfcache_free(c);
	arena_free(&a);
}

/* ---- signed URLs ---- */

/* The last path segment of a URL (after "/files/" or "/pdf/"). */
static const char *segment(const char *url)
{
	const char *slash = url ? strrchr(url, '/') : NULL;

	return slash ? slash + 1 : "";
}

static void urls_suite(struct store *s)
{
	struct arena a;
	struct store_tx tx;
	struct dom d;
	struct user u;
	struct org org = { .title = "Urls", .email_domains = "[]", .default_role = ROLE_READ };
	struct space sp = { .title = "Signed", .default_level = LEVEL_INHERIT },
		     sp2 = { .title = "Elsewhere", .default_level = LEVEL_INHERIT };
	struct dom_download dl;
	const struct revision *rv = NULL;
	const char *hash, *url = NULL, *pdf = NULL, *other = NULL, *foreign = NULL;
	char e[64], r[9];
	bool flag;
	struct server srv;
	struct dom ds;
	struct dom_revision dr;
	struct dom_file_list fl;
	struct list_req lr = { .limit = 1 };

	arena_init(&a);
	/* The secrets a server loads at start, before any transaction of its own. */
	memset(&srv, 0, sizeof(srv));
	CHECK(dom_secrets_load(s, &srv.secrets) == 0 && srv.secrets.value[DOM_SECRET_FILES] &&
	      *srv.secrets.value[DOM_SECRET_FILES]);
	random_alnum(r, 8);
	snprintf(e, sizeof(e), "urls-%s@example.com", r);
	CHECK(store_tx_begin(s, &tx, 1, &a) == 0);
	CHECK(store_user_create(&tx, e, "Urls", &u) == 0);
	CHECK(store_org_create(&tx, &org, u.id) == 0);
	sp.org_id = sp2.org_id = org.id;
	CHECK(store_space_create(&tx, &sp) == 0);
	CHECK(store_space_create(&tx, &sp2) == 0);
	CHECK(store_blob_put(&tx, (const unsigned char *)"<script>1</script>", 18, "text/plain", &hash) == 0);
	struct rev_file f = { .id = "file1", .name = "page.html", .content_type = "text/html", .blob = hash, .size = 18 };
	struct revision_new nr = { .space_id = sp.id, .parent_id = sp.revision, .parents = "[]", .type = "edits",
				   .files = &f, .nfiles = 1 };
	CHECK(store_revision_create(&tx, &nr, &rv) == 0 && rv);
	dom_init(&d, NULL, &tx, &a, NULL);
	dom_init(&ds, &srv, &tx, &a, NULL);
	if (rv) {
		CHECK(dom_file_url(&d, sp.id, rv->id, "file1", &url) == 0);
		CHECK(dom_pdf_url(&d, sp.id, rv->id, NULL, &pdf) == 0);
		CHECK(dom_file_url(&d, sp.id, sp.revision, "file1", &other) == 0); /* not in that revision */
		/* signed, but the revision is another space's */
		CHECK(dom_file_url(&d, sp2.id, rv->id, "file1", &foreign) == 0);
		/* Signed with the server's copy of the key: the same URLs, no query. */
		const char *same = NULL, *same_pdf = NULL;
		CHECK(dom_file_url(&ds, sp.id, rv->id, "file1", &same) == 0);
		CHECK(dom_pdf_url(&ds, sp.id, rv->id, NULL, &same_pdf) == 0);
		CHECK_STR(same, url);
		CHECK_STR(same_pdf, pdf);
		/* The domain hands serializers the URLs of the files they show. */
		CHECK(dom_revision_get(&ds, sp.id, NULL, rv->id, &dr) == 0);
		CHECK(dr.file_urls && dr.src.rv->nfiles == 1);
		if (dr.file_urls)
			CHECK_STR(dr.file_urls[0], url);
		CHECK(dom_files_list(&ds, sp.id, NULL, rv->id, &lr, &fl) == 0);
		CHECK(fl.n == 1 && !fl.more && fl.urls);
		if (fl.n == 1 && fl.urls)
			CHECK_STR(fl.urls[0], url);
		CHECK(dom_files_list(&ds, sp.id, NULL, sp.revision, &lr, &fl) == 0); /* no files */
		CHECK(fl.n == 0 && !fl.more);
		/* ... and the bodies of the document pages they show: a group's
		 * entry stays NULL; a missing body row fails the read, not the JSON. */
		const struct revision *rb = NULL;
		const char *bh = NULL;
		CHECK(dom_body_put(&tx, "# Shown\n", &bh) == 0 && bh);
		struct rev_page bp[2] = {
			{ .id = "g1", .type = PAGE_GROUP, .title = "G", .slug = "g", .pos = 1 },
			{ .id = "d1", .parent = "g1", .type = PAGE_DOCUMENT, .title = "D", .slug = "d", .pos = 1, .body = bh },
		};
		nr = (struct revision_new){ .space_id = sp.id, .parent_id = rv->id, .parents = "[]", .type = "edits",
					    .pages = bp, .npages = 2 };
		CHECK(store_revision_create(&tx, &nr, &rb) == 0 && rb);
		CHECK(rb && dom_revision_get(&ds, sp.id, NULL, rb->id, &dr) == 0 && dr.bodies);
		if (rb && dr.bodies && dr.src.rv == rb) {
			for (int i = 0; i < dr.src.rv->npages; i++)
				if (dr.src.rv->pages[i].type == PAGE_DOCUMENT)
					CHECK_STR(dr.bodies[i], "# Shown\n");
				else
					CHECK(dr.bodies[i] == NULL);
		}
		bp[1].body = "0000000000000000000000000000000000000000000000000000000000000000";
		nr.parent_id = rb ? rb->id : rv->id;
		CHECK(store_revision_create(&tx, &nr, &rb) == 0 && rb);
		if (rb)
			CHECK(dom_revision_get(&ds, sp.id, NULL, rb->id, &dr) == ERR_INTERNAL);
	}
	/* the entry's type and name, as an attachment */
	CHECK(dom_file_download(&d, segment(url), &dl) == 0);
	CHECK(dl.len == 18 && memcmp(dl.data, "<script>1</script>", 18) == 0);
	CHECK_STR(dl.content_type, "text/html");
	CHECK_STR(dl.disposition, "attachment; filename=\"page.html\"");
	CHECK(dl.max_age > DOM_URL_LIFETIME_S - 5 && dl.max_age <= DOM_URL_LIFETIME_S + DOM_URL_STEP_S);
	CHECK(dom_file_download(&d, segment(other), &dl) == ERR_NOT_FOUND);
	CHECK(dom_file_download(&d, segment(foreign), &dl) == ERR_NOT_FOUND);
	/* one character changed anywhere: 404 */
	char *bad = arena_strdup(&a, segment(url));
	for (size_t i = 0; bad && bad[i]; i++) {
		char was = bad[i];
		bad[i] = was == '0' ? '1' : '0';
		CHECK(dom_file_download(&d, bad, &dl) == ERR_NOT_FOUND);
		bad[i] = was;
	}
	/* a file URL is not a PDF URL and the other way round */
	CHECK(dom_pdf_render(&d, segment(url), &dl) == ERR_NOT_FOUND);
	CHECK(dom_file_download(&d, segment(pdf), &dl) == ERR_NOT_FOUND);
	/* expired: a URL lives one hour (and up to one step more) */
	clock_set_offset((DOM_URL_LIFETIME_S - 60) * 1000LL);
	CHECK(dom_file_download(&d, segment(url), &dl) == 0);
	clock_set_offset((DOM_URL_LIFETIME_S + DOM_URL_STEP_S) * 1000LL);
	CHECK(dom_file_download(&d, segment(url), &dl) == ERR_NOT_FOUND);
	clock_set_offset(0);
	/* the space deleted: 404; restored: served again */
	CHECK(store_space_delete(&tx, &sp, &flag) == 0 && flag);
	CHECK(dom_file_download(&d, segment(url), &dl) == ERR_NOT_FOUND);
	CHECK(store_space_get(&tx, sp.id, &sp) == 0);
	CHECK(store_space_restore(&tx, &sp) == 0);
	CHECK(dom_file_download(&d, segment(url), &dl) == 0);
	CHECK(dom_file_download(&ds, segment(url), &dl) == 0);
	store_tx_rollback(&tx);
	arena_free(&a);
	dom_secrets_free(&srv.secrets);
}

/* ---- garbage collection ---- */

static bool body_exists(struct store *s, const char *hash)
{
	struct arena a;
	struct store_tx tx;
	const char *md;
	int rc = -1;

	arena_init(&a);
	if (store_tx_begin(s, &tx, 0, &a) == 0) {
		rc = store_body_get(&tx, hash, &md);
		store_tx_rollback(&tx);
	}
	arena_free(&a);
	CHECK(rc == 0 || rc == ERR_NOT_FOUND);
	return rc == 0;
}

static bool blob_exists(struct store *s, const char *hash)
{
	struct arena a;
	struct store_tx tx;
	unsigned char *data;
	size_t len;
	const char *type;
	int rc = -1;

	arena_init(&a);
	if (store_tx_begin(s, &tx, 0, &a) == 0) {
		rc = store_blob_get(&tx, hash, &data, &len, &type);
		store_tx_rollback(&tx);
	}
	arena_free(&a);
	CHECK(rc == 0 || rc == ERR_NOT_FOUND);
	return rc == 0;
}

static int64_t collect(struct store *s, int64_t cutoff)
{
	int64_t bodies = -1, blobs = -1;

	CHECK(jobs_collect_garbage(s, cutoff, &bodies, &blobs) == 0);
	return bodies + blobs;
}

static char *stored(struct arena *a, const char *h)
{
	return arena_strdup(a, h);
}

struct collector {
	struct store *s;
	int64_t cutoff;
	int rc;
};

static void *collector_run(void *arg)
{
	struct collector *c = arg;
	int64_t bodies, blobs;

	c->rc = jobs_collect_garbage(c->s, c->cutoff, &bodies, &blobs);
	return NULL;
}

static void gc_suite(struct store *s)
{
	struct arena a;
	struct store_tx tx;
	struct user u;
	struct org org = { .title = "Garbage", .email_domains = "[]", .default_role = ROLE_READ };
	struct space gone = { .title = "Gone", .default_level = LEVEL_INHERIT },
		     live = { .title = "Live", .default_level = LEVEL_INHERIT };
	const struct revision *rv = NULL;
	const char *h;
	char *b_gone = NULL, *b_shared = NULL, *b_orphan = NULL, *b_old = NULL, *f_gone = NULL, *f_shared = NULL,
	     *b_touched = NULL, *b_raced = NULL;
	char e[64], r[9], text[8][96];
	int64_t removed;
	bool flag;

	arena_init(&a);
	random_alnum(r, 8);
	snprintf(e, sizeof(e), "gc-%s@example.com", r);
	/* unique to the run: a PostgreSQL database keeps the rows of runs before */
	for (int i = 0; i < 8; i++)
		snprintf(text[i], sizeof(text[i]), "body %d of run %s: [a link](https://example.com/%d)\n", i, r, i);
	CHECK(store_tx_begin(s, &tx, 1, &a) == 0);
	CHECK(store_user_create(&tx, e, "Garbage", &u) == 0);
	CHECK(store_org_create(&tx, &org, u.id) == 0);
	gone.org_id = live.org_id = org.id;
	CHECK(store_space_create(&tx, &gone) == 0);
	CHECK(store_space_create(&tx, &live) == 0);
	CHECK(dom_body_put(&tx, text[0], &h) == 0 && (b_gone = stored(&a, h)));
	CHECK(dom_body_put(&tx, text[1], &h) == 0 && (b_shared = stored(&a, h)));
	CHECK(dom_body_put(&tx, text[2], &h) == 0 && (b_orphan = stored(&a, h))); /* in no revision */
	CHECK(store_blob_put(&tx, (const unsigned char *)text[3], strlen(text[3]), "text/plain", &h) == 0 &&
	      (f_gone = stored(&a, h)));
	CHECK(store_blob_put(&tx, (const unsigned char *)text[4], strlen(text[4]), "text/plain", &h) == 0 &&
	      (f_shared = stored(&a, h)));
	/* "gone" has all four; "live" shares one body and one blob, in a delta */
	struct rev_page pg[2] = {
		{ .id = "p1", .type = PAGE_DOCUMENT, .title = "One", .slug = "one", .pos = 1, .body = b_gone },
		{ .id = "p2", .type = PAGE_DOCUMENT, .title = "Two", .slug = "two", .pos = 2, .body = b_shared },
	};
	struct rev_file fl[2] = {
		{ .id = "f1", .name = "a.txt", .content_type = "text/plain", .blob = f_gone, .size = 1 },
		{ .id = "f2", .name = "b.txt", .content_type = "text/plain", .blob = f_shared, .size = 1 },
	};
	struct revision_new nr = { .space_id = gone.id, .parent_id = gone.revision, .parents = "[]", .type = "edits",
				   .pages = pg, .npages = 2, .files = fl, .nfiles = 2 };
	CHECK(store_revision_create(&tx, &nr, &rv) == 0 && rv);
	CHECK(rv && store_space_set_revision(&tx, &gone, rv->id) == 0);
	nr = (struct revision_new){ .space_id = live.id, .parent_id = live.revision, .parents = "[]", .type = "edits",
				    .pages = &pg[1], .npages = 1, .files = &fl[1], .nfiles = 1 };
	CHECK(store_revision_create(&tx, &nr, &rv) == 0 && rv);
	CHECK(rv && rv->chain == 1); /* a delta of the space's first revision */
	CHECK(rv && store_space_set_revision(&tx, &live, rv->id) == 0);
	CHECK(store_tx_commit(&tx) == 0);

	/* young rows are never taken, referenced or not */
	collect(s, clock_now_ms() - CONTENT_GC_GRACE_MS);
	CHECK(body_exists(s, b_orphan));
	/* once old enough, the unreferenced body goes; every referenced row stays */
	collect(s, clock_now_ms() + 1);
	CHECK(!body_exists(s, b_orphan));
	CHECK(body_exists(s, b_gone) && body_exists(s, b_shared));
	CHECK(blob_exists(s, f_gone) && blob_exists(s, f_shared));

	/* purging "gone": its own body and blob go, the shared ones stay */
	CHECK(store_tx_begin(s, &tx, 1, &a) == 0);
	CHECK(store_space_get(&tx, gone.id, &gone) == 0);
	CHECK(store_space_delete(&tx, &gone, &flag) == 0 && flag);
	CHECK(store_tx_commit(&tx) == 0);
	collect(s, clock_now_ms() + 1);
	CHECK(body_exists(s, b_gone) && blob_exists(s, f_gone)); /* deleted, not purged: restorable */
	clock_set_offset(SPACE_RETENTION_MS + 3600 * 1000);
	CHECK(jobs_purge_spaces(s, &removed) == 0 && removed >= 1);
	CHECK(collect(s, clock_now_ms() - CONTENT_GC_GRACE_MS) >= 2);
	CHECK(!body_exists(s, b_gone) && !blob_exists(s, f_gone));
	CHECK(body_exists(s, b_shared) && blob_exists(s, f_shared));
	clock_set_offset(0);

	/* storing a body again that was collected brings it back */
	CHECK(store_tx_begin(s, &tx, 1, &a) == 0);
	CHECK(dom_body_put(&tx, text[0], &h) == 0);
	CHECK(store_blob_put(&tx, (const unsigned char *)text[3], strlen(text[3]), "text/plain", &h) == 0);
	CHECK(store_tx_commit(&tx) == 0);
	CHECK(body_exists(s, b_gone) && blob_exists(s, f_gone));

	/* a row stored again later counts as stored then: two old unreferenced
	 * bodies, one of them stored again two hours on, before a collection */
	CHECK(store_tx_begin(s, &tx, 1, &a) == 0);
	CHECK(dom_body_put(&tx, text[5], &h) == 0 && (b_old = stored(&a, h)));
	CHECK(dom_body_put(&tx, text[6], &h) == 0 && (b_touched = stored(&a, h)));
	CHECK(store_tx_commit(&tx) == 0);
	clock_set_offset(2 * 3600 * 1000);
	CHECK(store_tx_begin(s, &tx, 1, &a) == 0);
	CHECK(dom_body_put(&tx, text[6], &h) == 0);
	CHECK(store_tx_commit(&tx) == 0);
	collect(s, clock_now_ms() - CONTENT_GC_GRACE_MS);
	CHECK(!body_exists(s, b_old));
	CHECK(body_exists(s, b_touched));

	/* a collection running while a transaction stores an old unreferenced
	 * body again (for a revision not yet written) does not take it: the
	 * transaction's touch makes it young (PostgreSQL: the collector's DELETE
	 * waits for the row, then finds it young; SQLite: it waits for the writer) */
	clock_set_offset(0);
	CHECK(store_tx_begin(s, &tx, 1, &a) == 0);
	CHECK(dom_body_put(&tx, text[7], &h) == 0 && (b_raced = stored(&a, h)));
	CHECK(store_tx_commit(&tx) == 0);
	clock_set_offset(4 * 3600 * 1000);
	CHECK(store_tx_begin(s, &tx, 1, &a) == 0);
	CHECK(dom_body_put(&tx, text[7], &h) == 0);
	struct collector col = { .s = s, .cutoff = clock_now_ms() - CONTENT_GC_GRACE_MS, .rc = -99 };
	pthread_t th;
	CHECK(pthread_create(&th, NULL, collector_run, &col) == 0);
	sleep_ms(300);
	struct rev_page rp = { .id = "p9", .type = PAGE_DOCUMENT, .title = "Raced", .slug = "raced", .pos = 1,
			       .body = b_raced };
	CHECK(store_space_get(&tx, live.id, &live) == 0);
	nr = (struct revision_new){ .space_id = live.id, .parent_id = live.revision, .parents = "[]", .type = "edits",
				    .pages = &rp, .npages = 1 };
	CHECK(store_revision_create(&tx, &nr, &rv) == 0);
	CHECK(store_tx_commit(&tx) == 0);
	pthread_join(th, NULL);
	CHECK(col.rc == 0);
	CHECK(body_exists(s, b_raced));
	clock_set_offset(0);
	arena_free(&a);
}

static void files_suite(struct store *s)
{
	urls_suite(s);
	gc_suite(s);
}

UNIT_TEST_ON_ENGINES(files, files_suite)
