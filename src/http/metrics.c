/*
 * metrics.c - request counters by route and status, a latency histogram and
 * the open-connection gauge, rendered in Prometheus' text format. All counters
 * are relaxed atomics: exact totals, no ordering needed.
 */
#include "http/services.h"
#include "runtime/runtime.h"
#include "store/store.h"
#include "util/alloc.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int status_slots[] = { 200, 201, 204, 205, 400, 401, 403, 404, 405, 409, 413, 415, 429, 500, 503 };
#define NSTATUS ((int)(sizeof(status_slots) / sizeof(status_slots[0])) + 1) /* + other */
static const double buckets_s[] = { 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5 };
#define NBUCKETS ((int)(sizeof(buckets_s) / sizeof(buckets_s[0])))

struct metrics {
	int nroutes;
	struct store *store; /* jobs by kind and state are counted in it; NULL: none */
	struct runtime *runtime; /* docsd_runtime_*; NULL: none */
	atomic_long open;
	atomic_ulong hist[NBUCKETS + 1];
	atomic_ulong hist_count;
	atomic_ullong hist_sum_ns;
	atomic_ulong counts[]; /* (nroutes + 1) * NSTATUS, the last route row = unmatched */
};

int metrics_new(struct metrics **out, int nroutes)
{
	size_t n = (size_t)(nroutes + 1) * NSTATUS;
	struct metrics *m = xcalloc(1, sizeof(*m) + n * sizeof(atomic_ulong));

	m->nroutes = nroutes;
	*out = m;
	return 0;
}

void metrics_set_store(struct metrics *m, struct store *s)
{
	m->store = s;
}

void metrics_set_runtime(struct metrics *m, struct runtime *rt)
{
	m->runtime = rt;
}

void metrics_free(struct metrics *m)
{
	free(m);
}

static int status_slot(int status)
{
	for (int i = 0; i < NSTATUS - 1; i++)
		if (status_slots[i] == status)
			return i;
	return NSTATUS - 1;
}

void metrics_request(struct metrics *m, int route, int status, int64_t duration_ns)
{
	int r = route < 0 || route >= m->nroutes ? m->nroutes : route;
	int b = 0;

	atomic_fetch_add_explicit(&m->counts[r * NSTATUS + status_slot(status)], 1, memory_order_relaxed);
	while (b < NBUCKETS && (double)duration_ns / 1e9 > buckets_s[b])
		b++;
	atomic_fetch_add_explicit(&m->hist[b], 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&m->hist_count, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&m->hist_sum_ns, (unsigned long long)duration_ns, memory_order_relaxed);
}

void metrics_connection(struct metrics *m, int delta)
{
	atomic_fetch_add_explicit(&m->open, delta, memory_order_relaxed);
}

struct sbuf {
	char *p;
	size_t len, cap;
	int failed; /* vsnprintf refused a line: the rendering is dropped */
};

static void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->failed)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->failed = 1;
			return;
		}
		if ((size_t)n < b->cap - b->len) {
			b->len += (size_t)n;
			return;
		}
		b->p = xrealloc(b->p, b->cap * 2 + (size_t)n);
		b->cap = b->cap * 2 + (size_t)n;
	}
}

/* docsd_jobs{kind,state}: one read of the jobs table (GROUP BY). */
static void render_jobs(struct metrics *m, struct sbuf *b)
{
	struct arena a;
	struct store_tx tx;
	struct job_count *c = NULL;
	int n = 0, rc;

	if (!m->store)
		return;
	arena_init(&a);
	if ((rc = store_tx_begin(m->store, &tx, 0, &a)) == 0) {
		rc = store_job_counts(&tx, &c, &n);
		store_tx_rollback(&tx);
	}
	if (rc == 0) {
		sb_printf(b, "# HELP docsd_jobs Jobs in the queue by kind and state.\n# TYPE docsd_jobs gauge\n");
		for (int i = 0; i < n; i++)
			sb_printf(b, "docsd_jobs{kind=\"%s\",state=\"%s\"} %lld\n", c[i].kind, c[i].state, (long long)c[i].n);
	}
	arena_free(&a);
}

char *metrics_render(struct metrics *m, const char *const *route_names, int nroutes,
		     const struct metrics_extra *extra, size_t *len)
{
	struct sbuf b = { .p = xmalloc(8192), .cap = 8192 };
	unsigned long cum = 0;

	b.p[0] = '\0';
	sb_printf(&b, "# HELP docsd_http_requests_total HTTP requests by operation and status.\n"
		      "# TYPE docsd_http_requests_total counter\n");
	for (int r = 0; r <= m->nroutes && r <= nroutes; r++) {
		const char *name = r < nroutes ? route_names[r] : "unmatched";
		for (int s = 0; s < NSTATUS; s++) {
			unsigned long v = atomic_load_explicit(&m->counts[r * NSTATUS + s], memory_order_relaxed);
			if (!v)
				continue;
			if (s < NSTATUS - 1)
				sb_printf(&b, "docsd_http_requests_total{route=\"%s\",status=\"%d\"} %lu\n", name, status_slots[s], v);
			else
				sb_printf(&b, "docsd_http_requests_total{route=\"%s\",status=\"other\"} %lu\n", name, v);
		}
	}
	sb_printf(&b, "# HELP docsd_http_request_duration_seconds Time from request to response.\n"
		      "# TYPE docsd_http_request_duration_seconds histogram\n");
	for (int i = 0; i <= NBUCKETS; i++) {
		cum += atomic_load_explicit(&m->hist[i], memory_order_relaxed);
		if (i < NBUCKETS)
			sb_printf(&b, "docsd_http_request_duration_seconds_bucket{le=\"%g\"} %lu\n", buckets_s[i], cum);
		else
			sb_printf(&b, "docsd_http_request_duration_seconds_bucket{le=\"+Inf\"} %lu\n", cum);
	}
	sb_printf(&b, "docsd_http_request_duration_seconds_sum %.6f\n",
		  (double)atomic_load_explicit(&m->hist_sum_ns, memory_order_relaxed) / 1e9);
	sb_printf(&b, "docsd_http_request_duration_seconds_count %lu\n",
		  atomic_load_explicit(&m->hist_count, memory_order_relaxed));
	sb_printf(&b, "# HELP docsd_open_connections Open HTTP connections.\n# TYPE docsd_open_connections gauge\n"
		      "docsd_open_connections %ld\n", atomic_load_explicit(&m->open, memory_order_relaxed));
	sb_printf(&b, "# HELP docsd_page_cache_lookups_total Lookups of rendered list pages by result.\n"
		      "# TYPE docsd_page_cache_lookups_total counter\n"
		      "docsd_page_cache_lookups_total{result=\"hit\"} %lu\n"
		      "docsd_page_cache_lookups_total{result=\"miss\"} %lu\n",
		  extra->page_cache_hits, extra->page_cache_misses);
	sb_printf(&b, "# HELP docsd_slow_connections_closed_total Connections closed for a request head or body "
		      "slower than --head-timeout and --body-min-rate allow.\n"
		      "# TYPE docsd_slow_connections_closed_total counter\n"
		      "docsd_slow_connections_closed_total %lu\n",
		  extra->slow_connections_closed);
	render_jobs(m, &b);
	if (m->runtime) {
		/* The integrations' runtime (runtime/runtime.h): processes and why
		 * they ended; site scripts served from the cache or refused. */
		struct runtime_stats rs;
		runtime_stats(m->runtime, &rs);
		sb_printf(&b,
			  "# HELP docsd_runtime_processes Running workerd processes.\n# TYPE docsd_runtime_processes gauge\n"
			  "docsd_runtime_processes %d\n"
			  "# HELP docsd_runtime_starts_total workerd processes started.\n# TYPE docsd_runtime_starts_total counter\n"
			  "docsd_runtime_starts_total %lld\n"
			  "# HELP docsd_runtime_timeouts_total Deliveries past the wall clock (their process killed).\n"
			  "# TYPE docsd_runtime_timeouts_total counter\ndocsd_runtime_timeouts_total %lld\n"
			  "# HELP docsd_runtime_crashes_total workerd processes that ended by themselves.\n"
			  "# TYPE docsd_runtime_crashes_total counter\ndocsd_runtime_crashes_total %lld\n"
			  "# HELP docsd_runtime_memory_kills_total workerd processes killed past the memory bound.\n"
			  "# TYPE docsd_runtime_memory_kills_total counter\ndocsd_runtime_memory_kills_total %lld\n"
			  "# HELP docsd_runtime_site_scripts_total Site script.js requests by outcome.\n"
			  "# TYPE docsd_runtime_site_scripts_total counter\n"
			  "docsd_runtime_site_scripts_total{result=\"cached\"} %lld\n"
			  "docsd_runtime_site_scripts_total{result=\"delivered\"} %lld\n"
			  "docsd_runtime_site_scripts_total{result=\"refused\"} %lld\n",
			  rs.running, (long long)rs.started, (long long)rs.timeouts, (long long)rs.crashes,
			  (long long)rs.memory_kills, (long long)rs.script_hits, (long long)rs.script_misses,
			  (long long)rs.script_refused);
	}
	if (b.failed) {
		free(b.p);
		return NULL;
	}
	*len = b.len;
	return b.p;
}
