/*
 * test_runtime.c - runtime/runtime.c against the real workerd: an answer
 * with its console lines, a script killed at the timeout and the next
 * delivery served by a new process, a script that throws, one that does
 * not load, the heap limit, the outbound network (docsd's API origin yes,
 * another loopback port no), two versions in two processes, LRU, the idle
 * stop.
 *
 * workerd is tests/cli's (npm ci there installs it; scripts/test.sh does so
 * before this stage) or DOCSD_TEST_WORKERD. Without it the cases print
 * "skip" unless DOCSD_TEST_REQUIRE_WORKERD is set, which makes its absence
 * a failure (the test command sets it, so CI never skips).
 */
#include "unit.h"
#include "fixtures.h"
#include "runtime/runtime.h"
#include "util/arena.h"
#include "util/err.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_WORKERD "tests/cli/node_modules/@cloudflare/workerd-linux-64/bin/workerd"

static const char script_js[] =
	"import { connect } from 'cloudflare:sockets';\n"
	"export default {\n"
	"  async fetch(request, env, ctx) {\n"
	"    const cmd = await request.text();\n"
	"    if (cmd === 'spin') { for (;;) {} }\n"
	"    if (cmd === 'throw') throw new Error('boom from the script');\n"
	"    if (cmd === 'heap') { const a = []; for (;;) a.push(new Array(1e6).fill(Math.random())); }\n"
	"    if (cmd.startsWith('tcp ')) {\n"
	"      try { const s = connect(cmd.slice(4)); await s.opened; console.log('tcp reached'); }\n"
	"      catch (e) { console.error('tcp refused'); }\n"
	"      return new Response('done');\n"
	"    }\n"
	"    if (cmd.startsWith('fetch ')) {\n"
	"      for (const u of cmd.slice(6).split(' ')) {\n"
	"        try { const r = await fetch(u); console.log('fetched', u, r.status, (await r.text()).trim()); }\n"
	"        catch (e) { console.error('refused', u); }\n"
	"      }\n"
	"      return new Response('done');\n"
	"    }\n"
	"    console.log('hello', { n: 1 });\n"
	"    console.info('info line');\n"
	"    console.debug('debug line');\n"
	"    console.warn('warn line');\n"
	"    console.error('error line');\n"
	"    ctx.waitUntil(new Promise((r) => setTimeout(r, 20)).then(() => console.log('after the answer')));\n"
	"    return new Response('hi ' + new URL(request.url).pathname + ' ' + cmd,\n"
	"                        { status: 201, headers: { 'content-type': 'text/plain' } });\n"
	"  },\n"
	"};\n";

static const char *workerd_path(void)
{
	const char *p = getenv("DOCSD_TEST_WORKERD");

	if (!p || !*p)
		p = DEFAULT_WORKERD;
	return access(p, X_OK) == 0 ? p : NULL;
}

/* The binary, or NULL after printing why the case is skipped (a failure
 * when DOCSD_TEST_REQUIRE_WORKERD is set). */
static const char *need_workerd(const char *name)
{
	const char *p = workerd_path();

	if (!p) {
		if (getenv("DOCSD_TEST_REQUIRE_WORKERD"))
			unit_fail(__FILE__, __LINE__, "workerd not found (npm ci in tests/cli, or DOCSD_TEST_WORKERD)");
		else
			printf("skip %s: workerd not found (npm ci --ignore-scripts in tests/cli, or DOCSD_TEST_WORKERD)\n",
			       name);
	}
	return p;
}

static char work_dir[256];

static struct runtime *start(const char *binary, int timeout_ms, int idle_ms, int max_processes, int heap_mb,
			     const char *api_port)
{
	struct runtime *rt = NULL;
	char origin[64], connect_to[64];

	snprintf(work_dir, sizeof(work_dir), "/tmp/docsd-unit-runtime-XXXXXX");
	CHECK(mkdtemp(work_dir) != NULL);
	snprintf(origin, sizeof(origin), "http://127.0.0.1:%s", api_port ? api_port : "9");
	snprintf(connect_to, sizeof(connect_to), "127.0.0.1:%s", api_port ? api_port : "9");
	struct runtime_config cfg = {
		.binary = binary,
		.work_dir = work_dir,
		.api_origin = origin,
		.api_connect = connect_to,
		.heap_mb = heap_mb,
		.timeout_ms = timeout_ms,
		.idle_ms = idle_ms,
		.max_processes = max_processes,
	};
	CHECK(runtime_new(&rt, &cfg) == 0);
	CHECK(runtime_available(rt));
	return rt;
}

static void stop(struct runtime *rt)
{
	runtime_free(rt);
	/* runtime_free removed each process's files; the directory is empty. */
	CHECK(rmdir(work_dir) == 0);
}

static int deliver(struct runtime *rt, const char *key, const char *cmd, struct arena *a, struct runtime_result *res)
{
	struct runtime_script s = { .key = key, .source = script_js, .source_len = sizeof(script_js) - 1 };

	return runtime_deliver(rt, &s, "/v1", "text/plain", cmd, strlen(cmd), a, res);
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };
	nanosleep(&ts, NULL);
}

UNIT_TEST(runtime_without_binary_fails_deliveries)
{
	struct runtime *rt = NULL;
	struct runtime_config cfg = { .binary = NULL };
	struct runtime_result res;
	struct arena a;

	arena_init(&a);
	CHECK(runtime_new(&rt, &cfg) == 0);
	CHECK(!runtime_available(rt));
	CHECK(deliver(rt, "k-1", "x", &a, &res) == ERR_PRECONDITION);
	CHECK_STR(res.error, "no integration runtime (--integration-runtime)");
	CHECK(res.status == 0);
	runtime_free(rt);
	runtime_free(NULL);
	arena_free(&a);
}

UNIT_TEST(runtime_answer_with_console_lines)
{
	const char *bin = need_workerd("runtime_answer_with_console_lines");
	struct runtime_result res;
	struct runtime_stats st;
	struct arena a;

	if (!bin)
		return;
	arena_init(&a);
	struct runtime *rt = start(bin, 10000, 60000, 4, 64, NULL);
	CHECK(deliver(rt, "intg-1", "ping", &a, &res) == 0);
	CHECK(res.status == 201);
	CHECK(res.body_len == strlen("hi /v1 ping") && memcmp(res.body, "hi /v1 ping", res.body_len) == 0);
	CHECK_STR(res.content_type, "text/plain");
	CHECK(res.error == NULL);
	static const char *const want[][2] = {
		{ "info", "hello { n: 1 }" }, { "info", "info line" },   { "debug", "debug line" },
		{ "warn", "warn line" },      { "error", "error line" }, { "info", "after the answer" },
	};
	CHECK(res.nlogs == 6);
	for (size_t i = 0; i < res.nlogs && i < 6; i++) {
		CHECK_STR(res.logs[i].level, want[i][0]);
		CHECK_STR(res.logs[i].message, want[i][1]);
		CHECK(res.logs[i].timestamp_ms > 1600000000000LL);
	}
	/* The same process serves the next delivery. */
	CHECK(deliver(rt, "intg-1", "again", &a, &res) == 0);
	CHECK(res.status == 201);
	runtime_stats(rt, &st);
	CHECK(st.running == 1 && st.started == 1 && st.timeouts == 0 && st.crashes == 0);
	stop(rt);
	arena_free(&a);
}

UNIT_TEST(runtime_timeout_kills_and_restarts)
{
	const char *bin = need_workerd("runtime_timeout_kills_and_restarts");
	struct runtime_result res;
	struct runtime_stats st;
	struct arena a;

	if (!bin)
		return;
	arena_init(&a);
	/* 2 s: a first request of a new process must fit in it on a loaded machine. */
	struct runtime *rt = start(bin, 2000, 60000, 4, 64, NULL);
	CHECK(deliver(rt, "intg-spin", "spin", &a, &res) == ERR_UNAVAILABLE);
	CHECK(res.status == 0);
	CHECK_STR(res.error, "timed out after 2 s");
	CHECK(strstr(err_message(), "timed out") != NULL);
	runtime_stats(rt, &st);
	CHECK(st.timeouts == 1 && st.running == 0);
	/* The next delivery starts a new process and is answered. */
	CHECK(deliver(rt, "intg-spin", "ping", &a, &res) == 0);
	CHECK(res.status == 201);
	runtime_stats(rt, &st);
	CHECK(st.started == 2 && st.running == 1);
	stop(rt);
	arena_free(&a);
}

UNIT_TEST(runtime_script_that_throws_or_does_not_load)
{
	const char *bin = need_workerd("runtime_script_that_throws_or_does_not_load");
	static const char broken[] = "export default { fetch( };\n";
	struct runtime_script s = { .key = "intg-broken", .source = broken, .source_len = sizeof(broken) - 1 };
	struct runtime_result res;
	struct runtime_stats st;
	struct arena a;

	if (!bin)
		return;
	arena_init(&a);
	struct runtime *rt = start(bin, 10000, 60000, 4, 64, NULL);
	/* An exception is the script's answer: a 500 with the error's line. */
	CHECK(deliver(rt, "intg-throw", "throw", &a, &res) == 0);
	CHECK(res.status == 500);
	CHECK(res.nlogs == 1 && strcmp(res.logs[0].level, "error") == 0 &&
	      strstr(res.logs[0].message, "boom from the script") != NULL);
	CHECK(res.body && strstr(res.body, "boom from the script") != NULL);
	/* A script that does not load: its process never listens. */
	CHECK(runtime_deliver(rt, &s, "/v1", "text/plain", "x", 1, &a, &res) == ERR_UNAVAILABLE);
	CHECK(res.error && strstr(res.error, "did not start") != NULL);
	runtime_stats(rt, &st);
	CHECK(st.running == 1 && st.started == 1);
	stop(rt);
	arena_free(&a);
}

UNIT_TEST(runtime_heap_limit_aborts_and_restarts)
{
	const char *bin = need_workerd("runtime_heap_limit_aborts_and_restarts");
	struct runtime_result res;
	struct runtime_stats st;
	struct arena a;

	if (!bin)
		return;
	arena_init(&a);
	struct runtime *rt = start(bin, 20000, 60000, 4, 32, NULL);
	CHECK(deliver(rt, "intg-heap", "heap", &a, &res) == ERR_UNAVAILABLE);
	CHECK(res.error && strstr(res.error, "heap out of memory (--max-old-space-size=32)") != NULL);
	runtime_stats(rt, &st);
	CHECK(st.crashes == 1 && st.timeouts == 0 && st.running == 0);
	CHECK(deliver(rt, "intg-heap", "ping", &a, &res) == 0);
	CHECK(res.status == 201);
	runtime_stats(rt, &st);
	CHECK(st.started == 2);
	stop(rt);
	arena_free(&a);
}

static void serve_api(struct fx_http *s, int fd, const char *req, const char *path)
{
	static const char resp[] = "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\napi-ok";
	fx_send_all(fd, resp, sizeof(resp) - 1);
}

UNIT_TEST(runtime_outbound_reaches_the_api_origin_only)
{
	const char *bin = need_workerd("runtime_outbound_reaches_the_api_origin_only");
	struct fx_http api, other;
	struct runtime_result res;
	char port[16], cmd[256];
	struct arena a;

	if (!bin)
		return;
	arena_init(&a);
	CHECK(fx_http_start(&api, serve_api));
	CHECK(fx_http_start(&other, serve_api));
	snprintf(port, sizeof(port), "%d", api.port);
	struct runtime *rt = start(bin, 10000, 60000, 4, 64, port);
	snprintf(cmd, sizeof(cmd), "fetch http://127.0.0.1:%d/v1/user http://127.0.0.1:%d/ http://localhost:%d/",
		 api.port, other.port, other.port);
	CHECK(deliver(rt, "intg-net", cmd, &a, &res) == 0);
	CHECK(res.status == 200);
	CHECK(res.nlogs == 3);
	if (res.nlogs == 3) {
		char want[128];
		snprintf(want, sizeof(want), "fetched http://127.0.0.1:%d/v1/user 200 api-ok", api.port);
		CHECK_STR(res.logs[0].message, want);
		snprintf(want, sizeof(want), "refused http://127.0.0.1:%d/", other.port);
		CHECK_STR(res.logs[1].message, want);
		CHECK_STR(res.logs[1].level, "error");
		snprintf(want, sizeof(want), "refused http://localhost:%d/", other.port);
		CHECK_STR(res.logs[2].message, want);
	}
	/* Raw TCP (cloudflare:sockets) goes through the router worker too, which takes no
	 * CONNECT: not even docsd's port is reachable that way. */
	snprintf(cmd, sizeof(cmd), "tcp 127.0.0.1:%d", other.port);
	CHECK(deliver(rt, "intg-net", cmd, &a, &res) == 0);
	CHECK(res.nlogs == 1 && strcmp(res.logs[0].message, "tcp refused") == 0);
	snprintf(cmd, sizeof(cmd), "tcp 127.0.0.1:%d", api.port);
	CHECK(deliver(rt, "intg-net", cmd, &a, &res) == 0);
	CHECK(res.nlogs == 1 && strcmp(res.logs[0].message, "tcp refused") == 0);
	CHECK(atomic_load(&api.accepted) == 1);
	CHECK(atomic_load(&other.accepted) == 0);
	stop(rt);
	fx_http_stop(&api);
	fx_http_stop(&other);
	arena_free(&a);
}

UNIT_TEST(runtime_versions_processes_lru_and_idle)
{
	const char *bin = need_workerd("runtime_versions_processes_lru_and_idle");
	struct runtime_result res;
	struct runtime_stats st;
	struct arena a;

	if (!bin)
		return;
	arena_init(&a);
	/* Two versions, two processes. */
	struct runtime *rt = start(bin, 10000, 60000, 2, 64, NULL);
	CHECK(deliver(rt, "intg-1", "v1", &a, &res) == 0);
	CHECK(deliver(rt, "intg-2", "v2", &a, &res) == 0);
	runtime_stats(rt, &st);
	CHECK(st.running == 2 && st.started == 2);
	/* A third at most 2: the least recently used (intg-1) stops. */
	CHECK(deliver(rt, "intg-2", "v2", &a, &res) == 0);
	CHECK(deliver(rt, "intg-3", "v3", &a, &res) == 0);
	runtime_stats(rt, &st);
	CHECK(st.running == 2 && st.started == 3);
	CHECK(deliver(rt, "intg-2", "v2", &a, &res) == 0); /* still running */
	runtime_stats(rt, &st);
	CHECK(st.started == 3);
	stop(rt);

	/* Idle past idle_ms: stopped; the next delivery starts it again. (1 s: the
	 * checks right after a delivery must not race the reaper on a loaded machine.) */
	rt = start(bin, 10000, 1000, 2, 64, NULL);
	CHECK(deliver(rt, "intg-idle", "x", &a, &res) == 0);
	runtime_stats(rt, &st);
	CHECK(st.running == 1);
	for (int i = 0; i < 80 && st.running != 0; i++) {
		sleep_ms(100);
		runtime_stats(rt, &st);
	}
	CHECK(st.running == 0);
	if (deliver(rt, "intg-idle", "y", &a, &res) != 0)
		fprintf(stderr, "  after idle stop: %s\n", res.error ? res.error : err_message());
	CHECK(res.status == 201);
	runtime_stats(rt, &st);
	if (!(st.running == 1 && st.started == 2 && st.crashes == 0))
		fprintf(stderr, "  after idle stop: running %d started %lld crashes %lld\n", st.running,
			(long long)st.started, (long long)st.crashes);
	CHECK(st.running == 1 && st.started == 2 && st.crashes == 0);
	stop(rt);
	arena_free(&a);
}

/* A process that is gone or a zombie (its new parent may not reap it). */
static bool process_gone(long pid)
{
	char path[64], stat[256];
	FILE *f;
	bool gone = true;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (!(f = fopen(path, "r")))
		return true;
	if (fgets(stat, sizeof(stat), f)) {
		const char *paren = strrchr(stat, ')');
		gone = paren && paren[1] == ' ' && paren[2] == 'Z';
	}
	fclose(f);
	return gone;
}

UNIT_TEST(runtime_kills_what_a_killed_docsd_left)
{
	const char *bin = need_workerd("runtime_kills_what_a_killed_docsd_left");
	char pid_path[512], proc_dir[400];
	long worker = 0;
	pid_t child;
	int status = -1;

	if (!bin)
		return;
	snprintf(work_dir, sizeof(work_dir), "/tmp/docsd-unit-runtime-XXXXXX");
	CHECK(mkdtemp(work_dir) != NULL);
	/* A "docsd" that starts a process, then dies without stopping it. */
	child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		struct runtime *rt = NULL;
		struct runtime_result res;
		struct arena a;
		struct runtime_config cfg = { .binary = bin, .work_dir = work_dir, .api_origin = "http://127.0.0.1:9",
					      .api_connect = "127.0.0.1:9", .heap_mb = 64, .timeout_ms = 10000,
					      .idle_ms = 60000, .max_processes = 2 };
		arena_init(&a);
		_exit(runtime_new(&rt, &cfg) == 0 && deliver(rt, "intg-stale", "x", &a, &res) == 0 ? 0 : 1);
	}
	CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	snprintf(proc_dir, sizeof(proc_dir), "%s/p-%ld", work_dir, (long)child);
	snprintf(pid_path, sizeof(pid_path), "%s/w-intg-stale.1/pid", proc_dir); /* the first process's */
	FILE *f = fopen(pid_path, "r");
	CHECK(f != NULL);
	if (f) {
		CHECK(fscanf(f, "%ld", &worker) == 1);
		fclose(f);
	}
	CHECK(worker > 1 && !process_gone(worker));

	/* The next docsd on this work directory kills it and removes its files. */
	struct runtime *rt = NULL;
	struct runtime_config cfg = { .binary = bin, .work_dir = work_dir, .api_origin = "http://127.0.0.1:9",
				      .api_connect = "127.0.0.1:9", .max_processes = 2 };
	CHECK(runtime_new(&rt, &cfg) == 0);
	for (int i = 0; i < 50 && worker > 1 && !process_gone(worker); i++)
		sleep_ms(20);
	CHECK(worker > 1 && process_gone(worker));
	struct stat st;
	CHECK(stat(proc_dir, &st) != 0);
	stop(rt);
}

struct concurrent {
	struct runtime *rt;
	int rc, status;
};

static void *deliver_thread(void *arg)
{
	struct concurrent *c = arg;
	struct runtime_result res;
	struct arena a;

	arena_init(&a);
	c->rc = deliver(c->rt, "intg-conc", "together", &a, &res);
	c->status = res.status;
	arena_free(&a);
	return NULL;
}

UNIT_TEST(runtime_concurrent_deliveries_share_one_start)
{
	const char *bin = need_workerd("runtime_concurrent_deliveries_share_one_start");
	struct concurrent c[6];
	pthread_t t[6];
	struct runtime_stats st;

	if (!bin)
		return;
	struct runtime *rt = start(bin, 10000, 60000, 4, 64, NULL);
	/* Six deliveries for a key with no process yet: one start, all answered. */
	for (int i = 0; i < 6; i++) {
		c[i] = (struct concurrent){ .rt = rt, .rc = -100 };
		CHECK(pthread_create(&t[i], NULL, deliver_thread, &c[i]) == 0);
	}
	for (int i = 0; i < 6; i++) {
		pthread_join(t[i], NULL);
		CHECK(c[i].rc == 0 && c[i].status == 201);
	}
	runtime_stats(rt, &st);
	CHECK(st.started == 1 && st.running == 1);
	stop(rt);
}
