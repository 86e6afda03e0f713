/*
 * runtime-driver.c - bench/integrations.sh's driver: runtime_deliver()
 * (src/runtime) called directly, N times, with GitBook's delivery body
 * (multipart/form-data: event + environment, as @gitbook/runtime 0.23.3's
 * createIntegration reads it), to one published script.
 *
 *   runtime-driver WORKERD SCRIPT.js API_ORIGIN EVENTS [WORK_DIR]
 *
 * Prints one JSON object: the cold start (the first delivery, process start
 * included), p50 / p99 / max of the warm deliveries (the time from handing
 * the event to the runtime to the script's complete answer), the worker's
 * RSS after the run, failures, and the first delivery's console lines.
 */
#include "runtime/runtime.h"
#include "util/arena.h"
#include "util/err.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
		if (f)
			fclose(f);
		return NULL;
	}
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf) {
		buf[n] = '\0';
		*len = (size_t)n;
	}
	return buf;
}

/* The worker's VmRSS in KiB, from the pid file src/runtime/workerd.c writes. */
static long worker_rss_kib(const char *work_dir, const char *key)
{
	char path[1024], line[256];
	long pid = 0, kib = -1;
	FILE *f;

	/* The process directory is w-<key>.<n>; the driver runs one process. */
	snprintf(path, sizeof(path), "%s/p-%ld/w-%s.1/pid", work_dir, (long)getpid(), key);
	if (!(f = fopen(path, "r")))
		return -1;
	if (fscanf(f, "%ld", &pid) != 1)
		pid = 0;
	fclose(f);
	snprintf(path, sizeof(path), "/proc/%ld/status", pid);
	if (pid <= 0 || !(f = fopen(path, "r")))
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

int main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr, "usage: %s WORKERD SCRIPT.js API_ORIGIN EVENTS [WORK_DIR]\n", argv[0]);
		return 2;
	}
	const char *api_origin = argv[3];
	int events = atoi(argv[4]);
	char work_dir[512], api_connect[256];
	size_t script_len = 0;
	char *script = read_all(argv[2], &script_len);
	struct runtime *rt = NULL;
	const char *key = "bench-1";

	if (!script || events < 2) {
		fprintf(stderr, "cannot read %s, or EVENTS < 2\n", argv[2]);
		return 2;
	}
	if (argc > 5)
		snprintf(work_dir, sizeof(work_dir), "%s", argv[5]);
	else if (!mkdtemp(strcpy(work_dir, "/tmp/docsd-bench-runtime-XXXXXX")))
		return 2;
	/* "http://127.0.0.1:PORT" -> "127.0.0.1:PORT" */
	snprintf(api_connect, sizeof(api_connect), "%s", strstr(api_origin, "://") ? strstr(api_origin, "://") + 3 : api_origin);
	struct runtime_config cfg = {
		.binary = argv[1], .work_dir = work_dir, .api_origin = api_origin, .api_connect = api_connect,
		.heap_mb = 128, .timeout_ms = 10000, .idle_ms = 600000, .max_processes = 4,
	};
	if (runtime_new(&rt, &cfg) != 0) {
		fprintf(stderr, "runtime_new: %s\n", err_message());
		return 1;
	}
	struct runtime_script s = { .key = key, .source = script, .source_len = script_len };
	int64_t *lat = calloc((size_t)events, sizeof(*lat));
	int failures = 0, first_status = 0;
	struct arena first;
	struct runtime_result first_res;
	const char *first_error = NULL;

	arena_init(&first);
	for (int i = 0; i < events; i++) {
		struct arena a, *use = i == 0 ? &first : &a;
		struct runtime_result res;
		char *body;
		const char *boundary = "----docsdbench7MA4YWxkTrZu0gW";
		if (i)
			arena_init(&a);
		body = arena_printf(
			use,
			"--%s\r\nContent-Disposition: form-data; name=\"event\"\r\n\r\n"
			"{\"eventId\":\"evt-%d\",\"type\":\"installation_setup\",\"integrationId\":\"bench\","
			"\"installationId\":\"inst-1\",\"status\":\"active\",\"previous\":{\"status\":\"pending\"}}\r\n"
			"--%s\r\nContent-Disposition: form-data; name=\"environment\"\r\n\r\n"
			"{\"apiEndpoint\":\"%s\",\"apiTokens\":{\"integration\":\"gb_integration_bench\","
			"\"installation\":\"gb_installation_bench\"},"
			"\"integration\":{\"name\":\"bench\",\"version\":1},"
			"\"installation\":{\"id\":\"inst-1\",\"status\":\"active\",\"externalIds\":[\"hello-setup-done\"],"
			"\"configuration\":{}},"
			"\"signingSecrets\":{\"integration\":\"s1\",\"installation\":\"s2\"},\"secrets\":{}}\r\n"
			"--%s--\r\n",
			boundary, i, boundary, api_origin, boundary);
		int64_t t0 = now_ns();
		int rc = runtime_deliver(rt, &s, "/v1", arena_printf(use, "multipart/form-data; boundary=%s", boundary),
					 body, strlen(body), use, &res);
		lat[i] = now_ns() - t0;
		if (rc != 0 || res.status != 200)
			failures++;
		if (i == 0) {
			first_res = res;
			first_status = res.status;
			first_error = res.error;
		} else {
			arena_free(&a);
		}
	}
	long rss = worker_rss_kib(work_dir, key);
	struct runtime_stats st;
	runtime_stats(rt, &st);
	int64_t cold = lat[0];
	qsort(lat + 1, (size_t)events - 1, sizeof(*lat), cmp_i64);
	size_t w = (size_t)events - 1;
	printf("{\"events\":%d,\"cold_ms\":%.1f,\"p50_ms\":%.2f,\"p99_ms\":%.2f,\"max_ms\":%.2f,"
	       "\"rss_kib\":%ld,\"failures\":%d,\"started\":%lld,\"first_status\":%d,\"first_error\":",
	       events, cold / 1e6, lat[1 + (w - 1) / 2] / 1e6, lat[1 + (w * 99 + 99) / 100 - 1] / 1e6,
	       lat[events - 1] / 1e6, rss, failures, (long long)st.started, first_status);
	if (first_error)
		json_str(first_error);
	else
		printf("null");
	printf(",\"first_logs\":[");
	for (size_t i = 0; i < first_res.nlogs; i++) {
		printf("%s{\"level\":\"%s\",\"message\":", i ? "," : "", first_res.logs[i].level);
		json_str(first_res.logs[i].message);
		putchar('}');
	}
	printf("]}\n");
	runtime_free(rt);
	arena_free(&first);
	free(lat);
	free(script);
	if (argc <= 5)
		(void)rmdir(work_dir);
	return failures ? 1 : 0;
}
