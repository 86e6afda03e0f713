/*
 * OpenAPI specs in the domain layer (domain/openapi.h) on SQLite and
 * PostgreSQL: access by role, the slug and source rules, one queued job per
 * spec however many sources arrive before it runs, and the processing job's
 * idempotence (jobs.h): the job run again for the same content adds no
 * version; changed content adds one; a failure keeps the last version.
 */
#include "format/openapi_doc.h"
#include "domain/openapi.h"
#include "domain/orgs.h"
#include "jobs/jobs.h"
#include "store/jobs.h"
#include "store/openapi.h"
#include "unit.h"
#include "util/err.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char SPEC[] = "openapi: 3.0.0\ninfo: {title: Unit, version: '1'}\npaths:\n  /a:\n    get:\n"
			   "      summary: Get a\n      responses: {'200': {description: ok}}\n";

struct fx {
	struct store *st;
	struct arena a;
	struct store_tx tx;
	struct dom d;
	struct user ada, ed;
	const char *org;
};

static struct dom *as(struct fx *f, const struct user *u)
{
	dom_init(&f->d, NULL, &f->tx, &f->a, u ? u->id : NULL);
	return &f->d;
}

static void begin(struct fx *f)
{
	CHECK(store_tx_begin(f->st, &f->tx, 1, &f->a) == 0);
}

static void commit(struct fx *f)
{
	CHECK(store_tx_commit(&f->tx) == 0);
}

/* Run the due openapi jobs (other runs' leftovers on PostgreSQL included). */
static void run_jobs(struct fx *f)
{
	for (int i = 0; i < 50 && jobs_run_one(f->st, NULL, "unit-openapi", JOB_KIND_OPENAPI) == 1; i++)
		;
}

static int nversions(struct fx *f, const char *slug)
{
	struct openapi_spec s;
	struct openapi_version *items;
	struct list_req lr = { .limit = 1000 };
	char *next;
	int n = -1;

	begin(f);
	CHECK(dom_openapi_versions(as(f, &f->ada), f->org, slug, &lr, &s, &items, &n, &next) == 0);
	commit(f);
	return n;
}

static struct openapi_spec spec(struct fx *f, const char *slug)
{
	struct openapi_spec s = { 0 };

	begin(f);
	CHECK(dom_openapi_get(as(f, &f->ada), f->org, slug, &s) == 0);
	commit(f);
	return s;
}

static int queued(struct fx *f, const char *spec_id)
{
	struct job *items;
	int n = 0, k = 0;

	begin(f);
	CHECK(store_job_list(&f->tx, JOB_KIND_OPENAPI, 1000, &items, &n) == 0);
	for (int i = 0; i < n; i++)
		k += strcmp(items[i].subject, spec_id) == 0 && strcmp(items[i].state, "queued") == 0;
	commit(f);
	return k;
}

static void suite(struct store *st)
{
	struct fx f = { .st = st };
	struct dom_org o;
	struct openapi_spec s, t;
	struct openapi_source text = { .text = SPEC };
	bool added, created;

	arena_init(&f.a);
	begin(&f);
	unit_new_user(&f.tx, "ada", NULL, &f.ada);
	unit_new_user(&f.tx, "ed", NULL, &f.ed);
	CHECK(dom_org_create(as(&f, &f.ada), &(struct org_input){ .title = "OpenAPI" }, &o) == 0);
	f.org = o.org.id;
	CHECK(store_member_add(&f.tx, f.org, f.ed.id, ROLE_EDIT, 0, &added) == 0 && added);

	/* access and input */
	CHECK(dom_openapi_create(as(&f, &f.ed), f.org, "api", &text, &s) == ERR_FORBIDDEN);
	CHECK(dom_openapi_create(as(&f, &f.ada), f.org, "Bad", &text, &s) == ERR_INVALID);
	CHECK(dom_openapi_create(as(&f, &f.ada), f.org, "api", &(struct openapi_source){ 0 }, &s) == ERR_INVALID);
	CHECK(dom_openapi_create(as(&f, &f.ada), f.org, "api", &(struct openapi_source){ .url = "x", .text = "y" }, &s) ==
	      ERR_INVALID);
	CHECK(dom_openapi_create(as(&f, &f.ada), f.org, "api", &text, &s) == 0);
	CHECK_STR(s.processing_state, "pending");
	CHECK(dom_openapi_get(as(&f, &f.ed), f.org, "api", &t) == 0);
	/* three sources before the job runs: one queued job */
	CHECK(dom_openapi_put(as(&f, &f.ada), f.org, "api", &text, &t, &created) == 0 && !created);
	CHECK(dom_openapi_put(as(&f, &f.ada), f.org, "api", &text, &t, &created) == 0 && !created);
	CHECK(t.generation == 3);
	commit(&f);
	CHECK(queued(&f, s.id) == 1);

	/* processed: complete, one version */
	run_jobs(&f);
	t = spec(&f, "api");
	CHECK_STR(t.processing_state, "complete");
	CHECK(t.last_version != NULL && t.last_error_code == NULL && t.last_processed_at > 0);
	CHECK(nversions(&f, "api") == 1);

	/* the job run again (a retry, a repeat): no second version */
	char id[ID_LEN + 1];
	begin(&f);
	CHECK(store_job_enqueue(&f.tx, JOB_KIND_OPENAPI, s.id, NULL, 0, id) == 0);
	CHECK(store_job_enqueue(&f.tx, JOB_KIND_OPENAPI, s.id, NULL, 0, id) == 0);
	commit(&f);
	run_jobs(&f);
	CHECK(nversions(&f, "api") == 1);
	CHECK_STR(spec(&f, "api").last_version, t.last_version);

	/* changed content: a second version; then a failure keeps it */
	begin(&f);
	CHECK(dom_openapi_put(as(&f, &f.ada), f.org, "api", &(struct openapi_source){ .text = "openapi: 3.1.0\ninfo: {}\n" },
			      &t, &created) == 0);
	commit(&f);
	run_jobs(&f);
	t = spec(&f, "api");
	CHECK(nversions(&f, "api") == 2);
	begin(&f);
	CHECK(dom_openapi_put(as(&f, &f.ada), f.org, "api", &(struct openapi_source){ .text = "just: text\n" }, &s, &created) ==
	      0);
	commit(&f);
	run_jobs(&f);
	s = spec(&f, "api");
	CHECK_STR(s.last_error_code, "PARSE_ERROR");
	CHECK_STR(s.processing_state, "complete");
	CHECK_STR(s.last_version, t.last_version);
	CHECK(nversions(&f, "api") == 2);

	/* an alias bomb (six levels of ten over 2,000 bytes: 2 GB written out)
	 * stops at OPENAPI_MAX_EXPANDED_BYTES: PARSE_ERROR naming the limit, no
	 * version stored, the last one kept */
	{
		char *bomb = malloc(8192), msg[64];
		size_t n;
		CHECK(bomb != NULL);
		if (bomb) {
			n = (size_t)sprintf(bomb, "openapi: 3.0.0\ninfo: {title: Bomb, version: '1'}\npaths: {}\nx0: &x0 \"");
			memset(bomb + n, 'y', 2000);
			n += 2000;
			n += (size_t)sprintf(bomb + n, "\"\n");
			for (int l = 1; l <= 6; l++) {
				n += (size_t)sprintf(bomb + n, "x%d: &x%d [", l, l);
				for (int k = 0; k < 10; k++)
					n += (size_t)sprintf(bomb + n, "%s*x%d", k ? ", " : "", l - 1);
				n += (size_t)sprintf(bomb + n, "]\n");
			}
			begin(&f);
			CHECK(dom_openapi_put(as(&f, &f.ada), f.org, "api", &(struct openapi_source){ .text = bomb }, &s,
					      &created) == 0);
			commit(&f);
			run_jobs(&f);
			s = spec(&f, "api");
			snprintf(msg, sizeof(msg), "expands to more than %zu bytes", OPENAPI_MAX_EXPANDED_BYTES);
			CHECK_STR(s.last_error_code, "PARSE_ERROR");
			CHECK(s.last_errors && strstr(s.last_errors, msg));
			CHECK_STR(s.last_version, t.last_version);
			CHECK(nversions(&f, "api") == 2);
			free(bomb);
		}
	}

	/* a deleted spec's queued job ends without an effect */
	begin(&f);
	CHECK(dom_openapi_put(as(&f, &f.ada), f.org, "gone", &text, &s, &created) == 0 && created);
	CHECK(dom_openapi_delete(as(&f, &f.ada), f.org, "gone", &added) == 0 && added);
	CHECK(dom_openapi_delete(as(&f, &f.ada), f.org, "gone", &added) == 0 && !added);
	commit(&f);
	run_jobs(&f);
	CHECK(queued(&f, s.id) == 0);
	arena_free(&f.a);
}

UNIT_TEST_ON_ENGINES(domain_openapi, suite)
