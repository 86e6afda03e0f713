/*
 * runtime.c - the workerd process manager and a delivery to a script
 * (runtime.h; one process's files and start are in workerd.c).
 *
 * DESIGN
 * The runtime keeps a list of processes, one per script key, under one
 * mutex; nothing slow (a start, a request, a kill's wait) happens while it
 * is held. A process's life:
 *
 *             acquire() finds no process for the key
 *                         |
 *                         v          workerd_start() failed: unlinked, freed,
 *                   +----------+     the waiters try a start of their own
 *                   | starting | ------------------------------------------> x
 *                   +----------+
 *                         | workerd_start() reported the port (--control-fd)
 *                         v
 *                   +----------+  acquire()/release(): users +1/-1, last use
 *                   |  ready   | <-----+
 *                   +----------+ ------+
 *                         |
 *                         | kill_claim(): the reaper thread (idle past idle_ms, or
 *                         | exited by itself), a delivery past timeout_ms, a broken
 *                         | connection, acquire() making room (LRU) or finding it
 *                         | exited, release() finding it resident past
 *                         v max(3 x heap_mb, 256 MiB) (recycled), runtime_free()
 *                   +----------+
 *                   |   dead   |  unlinked; SIGKILLed and reaped by the claimer;
 *                   +----------+  freed by the last user to leave (release()).
 *
 * Only the thread that claims a process (kill_claim, under the mutex: it
 * takes the pid) kills and reaps it, so a pid is waited for exactly once.
 * A delivery that outlives timeout_ms kills its process, and with it any
 * other delivery in flight there: those fail with the reason and are
 * retried by the queue; the next delivery starts a new process. One
 * spinning request blocks its whole process (one isolate), which is why the
 * wall clock is the limit, not CPU time.
 *
 * The start of a process has its own bound (RUNTIME_START_MS): timeout_ms
 * counts from the moment the request is sent, so a cold start does not eat
 * a delivery's time.
 *
 * The answer comes back as JSON lines (workerd.h), read as they arrive: a
 * delivery killed at its timeout keeps the lines its script wrote before.
 */
#include "runtime/runtime.h"
#include "runtime/workerd.h"
#include "util/alloc.h"
#include "util/arena.h"
#include "util/base64.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

#include <curl/curl.h>
#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A process must report its port within this (a cold start measures
 * 0.2-0.5 s; a loaded machine is slower). */
#define RUNTIME_START_MS 15000
/* What one delivery keeps of its script's output. */
#define RUNTIME_LOG_MAX 1000
#define RUNTIME_MESSAGE_MAX 8192
#define RUNTIME_BODY_MAX ((size_t)10 << 20)
/* One JSON line: the body, base64, plus its envelope. */
#define RUNTIME_LINE_MAX (RUNTIME_BODY_MAX / 3 * 4 + 4096)
/* A console line as the entry module writes it: a message of at most 8,192
 * UTF-16 units (cut there), each at most 6 bytes of JSON escape, and the
 * other fields. A longer line that is not the answer is not parsed. */
#define RUNTIME_LOGLINE_MAX (8192 * 6 + 1024)
/* A line's JSON has at most this many structural characters outside strings
 * (',' ':' '{' '[': a flat object of a few fields): a line of a million tiny
 * values would make the JSON parser build a million nodes (hundreds of MiB
 * from one 13 MiB line). */
#define RUNTIME_LINE_TOKENS 24
/* How far a console line's own timestamp may be from docsd's clock during
 * the delivery; past it (or not an integer) docsd's clock is used. */
#define RUNTIME_TS_SLACK_MS 60000
/* A process resident past max(FACTOR x heap_mb, MIN) is recycled
 * (recycle_kib); -D overrides them (a manual check of the recycling). */
#ifndef RUNTIME_RECYCLE_FACTOR
#define RUNTIME_RECYCLE_FACTOR 3
#endif
#ifndef RUNTIME_RECYCLE_MIN_KIB
#define RUNTIME_RECYCLE_MIN_KIB (256L * 1024)
#endif

enum proc_state { PROC_STARTING, PROC_READY };

struct proc {
	char *key;
	char *dir;
	pid_t pid;           /* -1 once a claimer took it */
	int port;
	enum proc_state state;
	bool dead;           /* unlinked; the last user frees it */
	int users;           /* deliveries holding it (a starting one counts its starter) */
	int64_t last_used_ns;
	char end_reason[256]; /* why it died, for the deliveries it took along */
	char secret[40];      /* RUNTIME_SECRET_HEADER's value for this process (workerd.h) */
	struct proc *next;
};

struct runtime {
	struct runtime_config cfg; /* strings owned */
	char *proc_dir;            /* work_dir/p-<pid>: this docsd's processes (workerd.h) */
	bool available;
	pthread_mutex_t mu;
	pthread_cond_t cond; /* a process changed state or lost a user; stopping */
	struct proc *procs;  /* linked: starting and ready */
	int nprocs;
	int64_t started, timeouts, crashes;
	/* Numbers each process's directory (w-<key>.<n>): a process stopped
	 * when idle is discarded (its directory removed) after it left the
	 * list, while a new process of the same key may already be starting. */
	uint64_t dir_seq;
	bool stopping;
	bool reaper_started, memwatch_started;
	pthread_t reaper, memwatch;
	struct script_cache *scripts; /* site scripts' answers (script_cache.c) */
	int64_t memory_kills;
};

struct script_cache *runtime_scripts(struct runtime *rt)
{
	return rt ? rt->scripts : NULL;
}

/* ---- the list (callers hold rt->mu) ---- */

static struct proc *proc_find(struct runtime *rt, const char *key)
{
	for (struct proc *p = rt->procs; p; p = p->next)
		if (strcmp(p->key, key) == 0)
			return p;
	return NULL;
}

static void proc_free(struct proc *p)
{
	if (!p)
		return;
	free(p->key);
	free(p->dir);
	free(p);
}

static void proc_unlink(struct runtime *rt, struct proc *p)
{
	for (struct proc **pp = &rt->procs; *pp; pp = &(*pp)->next)
		if (*pp == p) {
			*pp = p->next;
			p->next = NULL;
			rt->nprocs--;
			break;
		}
	p->dead = true;
}

/* Take p out of the list and its pid for the caller to kill and reap
 * (workerd_kill), -1 when another thread has claimed it already. */
static pid_t kill_claim(struct runtime *rt, struct proc *p, const char *reason)
{
	pid_t pid;

	if (p->dead)
		return -1;
	proc_unlink(rt, p);
	snprintf(p->end_reason, sizeof(p->end_reason), "%s", reason);
	pid = p->pid;
	p->pid = -1;
	pthread_cond_broadcast(&rt->cond);
	return pid;
}

/* A process no one holds any more: its files go, then itself. Called
 * without the mutex, after the pid was killed and reaped. */
static void proc_discard(struct proc *p)
{
	workerd_remove_dir(p->dir);
	proc_free(p);
}

static long rss_kib(pid_t pid);

/* ---- the memory watch: a process past its memory bound is killed ---- */

/* The V8 heap flag bounds only the JavaScript heap: ArrayBuffers and
 * workerd's own allocations are outside it (measured: 1.59 GB of
 * ArrayBuffers in 5 s against a 128 MiB heap). No cgroup is used (this
 * docsd may run without a delegated cgroup v2 tree, as on the test VM,
 * where /sys/fs/cgroup is v1), so the bound is a watch of every process's
 * resident memory (/proc/PID/statm) every MEMWATCH_MS, SIGKILL past
 * kill_kib(): max(RUNTIME_KILL_FACTOR x heap_mb, RUNTIME_KILL_MIN_KIB).
 * Allocation is fast (about 300 MB/s here), so the overshoot is bounded by
 * what a process can add in one period. The delivery in flight fails with
 * the reason and is retried; the next one starts a new process. */
#define MEMWATCH_MS 50
#ifndef RUNTIME_KILL_FACTOR
#define RUNTIME_KILL_FACTOR 4
#endif
#ifndef RUNTIME_KILL_MIN_KIB
#define RUNTIME_KILL_MIN_KIB (512L * 1024)
#endif
#define MEMWATCH_MAX 64

static long kill_kib(const struct runtime *rt)
{
	long kib = (long)rt->cfg.heap_mb * RUNTIME_KILL_FACTOR * 1024;

	return kib < RUNTIME_KILL_MIN_KIB ? RUNTIME_KILL_MIN_KIB : kib;
}

static void *memwatch_main(void *arg)
{
	struct runtime *rt = arg;

	pthread_mutex_lock(&rt->mu);
	while (!rt->stopping) {
		struct timespec ts;
		pid_t pids[MEMWATCH_MAX];
		long rss[MEMWATCH_MAX];
		int n = 0;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += (long)MEMWATCH_MS * 1000000;
		ts.tv_sec += ts.tv_nsec / 1000000000;
		ts.tv_nsec %= 1000000000;
		(void)pthread_cond_timedwait(&rt->cond, &rt->mu, &ts);
		if (rt->stopping)
			break;
		for (struct proc *p = rt->procs; p && n < MEMWATCH_MAX; p = p->next)
			if (p->state == PROC_READY && !p->dead && p->pid > 0)
				pids[n++] = p->pid;
		/* /proc is read without the mutex; a pid is looked up again after. */
		pthread_mutex_unlock(&rt->mu);
		for (int i = 0; i < n; i++)
			rss[i] = rss_kib(pids[i]);
		pthread_mutex_lock(&rt->mu);
		for (int i = 0; i < n; i++) {
			if (rss[i] <= kill_kib(rt))
				continue;
			for (struct proc *p = rt->procs; p; p = p->next) {
				if (p->pid != pids[i] || p->dead)
					continue;
				char why[128], key[128];
				snprintf(why, sizeof(why), "killed: its resident memory passed %ld MiB (%ld MiB)",
					 kill_kib(rt) / 1024, rss[i] / 1024);
				snprintf(key, sizeof(key), "%s", p->key); /* p may go once the mutex is released */
				pid_t pid = kill_claim(rt, p, why);
				bool discard = p->users == 0;
				rt->memory_kills++;
				pthread_mutex_unlock(&rt->mu);
				log_error("runtime: the process of %s %s", key, why);
				(void)workerd_kill(pid);
				if (discard)
					proc_discard(p);
				pthread_mutex_lock(&rt->mu);
				break;
			}
		}
	}
	pthread_mutex_unlock(&rt->mu);
	return NULL;
}

/* ---- the reaper: idle processes, and those that exited by themselves ---- */

static void *reaper_main(void *arg)
{
	struct runtime *rt = arg;
	int64_t period_ms = rt->cfg.idle_ms / 4;

	if (period_ms < 50)
		period_ms = 50;
	if (period_ms > 1000)
		period_ms = 1000;
	pthread_mutex_lock(&rt->mu);
	while (!rt->stopping) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += (long)(period_ms % 1000) * 1000000;
		ts.tv_sec += period_ms / 1000 + ts.tv_nsec / 1000000000;
		ts.tv_nsec %= 1000000000;
		(void)pthread_cond_timedwait(&rt->cond, &rt->mu, &ts);
		if (rt->stopping)
			break;
		int64_t now = clock_mono_ns();
		for (struct proc *p = rt->procs, *next; p; p = next) {
			int status;
			next = p->next;
			if (p->state != PROC_READY)
				continue;
			if (waitpid(p->pid, &status, WNOHANG) == p->pid) {
				char why[192];
				/* Reaped here: the pid is gone, no one kills it. */
				workerd_describe_exit(p->dir, status, rt->cfg.heap_mb, why, sizeof(why));
				log_error("runtime: the process of %s %s", p->key, why);
				rt->crashes++;
				(void)kill_claim(rt, p, why);
				if (p->users == 0) {
					pthread_mutex_unlock(&rt->mu);
					proc_discard(p);
					pthread_mutex_lock(&rt->mu);
					next = rt->procs; /* the list may have changed meanwhile */
				}
				continue;
			}
			if (p->users == 0 && rt->cfg.idle_ms >= 0 &&
			    now - p->last_used_ns >= (int64_t)rt->cfg.idle_ms * 1000000) {
				pid_t pid = kill_claim(rt, p, "stopped when idle");
				pthread_mutex_unlock(&rt->mu);
				(void)workerd_kill(pid);
				proc_discard(p);
				pthread_mutex_lock(&rt->mu);
				next = rt->procs;
			}
		}
	}
	pthread_mutex_unlock(&rt->mu);
	return NULL;
}

/* ---- new / free ---- */

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* --integration-runtime auto: the workerd that scripts/deps.sh installs
 * (tools/workerd/, npm's package and its Linux binary) in the repository
 * this docsd was built in: <repo>/build/docsd -> <repo>/tools/workerd/...
 * (and a docsd installed beside a tools/ directory, one level up). NULL
 * when there is none: the runtime is then off, as with "none". */
static char *auto_binary(void)
{
	static const char *const rel[] = {
		"/../tools/workerd/node_modules/@cloudflare/workerd-linux-64/bin/workerd",
		"/../tools/workerd/node_modules/@cloudflare/workerd-linux-arm64/bin/workerd",
		"/tools/workerd/node_modules/@cloudflare/workerd-linux-64/bin/workerd",
		"/tools/workerd/node_modules/@cloudflare/workerd-linux-arm64/bin/workerd",
	};
	char exe[4096], *slash, *path = NULL;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	if (!(slash = strrchr(exe, '/')))
		return NULL;
	*slash = '\0'; /* the binary's directory */
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		if (asprintf(&path, "%s%s", exe, rel[i]) < 0)
			oom_abort("workerd path", sizeof(exe));
		if (access(path, X_OK) == 0)
			return path;
		free(path);
		path = NULL;
	}
	return NULL;
}

int runtime_new(struct runtime **out, const struct runtime_config *cfg)
{
	struct runtime *rt = xcalloc(1, sizeof(*rt));
	int rc = 0, e;

	*out = NULL;
	rt->cfg = *cfg;
	if (cfg->binary && strcmp(cfg->binary, "none") == 0)
		rt->cfg.binary = NULL;
	else if (cfg->binary && strcmp(cfg->binary, "auto") == 0) {
		rt->cfg.binary = auto_binary();
		if (rt->cfg.binary)
			log_info("runtime: integrations run in %s (--integration-runtime auto)", rt->cfg.binary);
		else
			log_info("runtime: no workerd installed (scripts/deps.sh run installs it; --integration-runtime PATH "
				 "names one): deliveries without a development tunnel fail");
	} else
		rt->cfg.binary = dup_or_null(cfg->binary);
	rt->cfg.work_dir = dup_or_null(cfg->work_dir);
	rt->cfg.api_origin = dup_or_null(cfg->api_origin);
	rt->cfg.api_connect = dup_or_null(cfg->api_connect);
	rt->cfg.api_secret = dup_or_null(cfg->api_secret);
	if (rt->cfg.heap_mb <= 0)
		rt->cfg.heap_mb = 128;
	if (rt->cfg.timeout_ms <= 0)
		rt->cfg.timeout_ms = 10000;
	if (rt->cfg.max_processes <= 0)
		rt->cfg.max_processes = 8;
	pthread_mutex_init(&rt->mu, NULL);
	pthread_cond_init(&rt->cond, NULL);
	rt->scripts = script_cache_new();
	if (!rt->cfg.binary || !*rt->cfg.binary) {
		*out = rt;
		return 0;
	}
	if (!cfg->work_dir || !cfg->api_origin || !cfg->api_connect) {
		rc = err_set(ERR_INTERNAL, "runtime: work_dir, api_origin and api_connect are required");
		goto fail;
	}
	if (mkdir(cfg->work_dir, 0700) != 0 && errno != EEXIST) {
		rc = err_set(ERR_INTERNAL, "runtime: cannot create %s: %s", cfg->work_dir, strerror(errno));
		goto fail;
	}
	/* libcurl here is thread-safe to initialise (CURL_VERSION_THREADSAFE,
	 * 7.84+); util/fetch.c initialises it too, which is harmless. */
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		rc = err_set(ERR_INTERNAL, "runtime: curl_global_init failed");
		goto fail;
	}
	workerd_kill_stale(cfg->work_dir);
	if (asprintf(&rt->proc_dir, "%s/p-%ld", cfg->work_dir, (long)getpid()) < 0)
		oom_abort("runtime dir", strlen(cfg->work_dir) + 24);
	if (mkdir(rt->proc_dir, 0700) != 0 && errno != EEXIST) {
		rc = err_set(ERR_INTERNAL, "runtime: cannot create %s: %s", rt->proc_dir, strerror(errno));
		goto fail;
	}
	if ((e = pthread_create(&rt->reaper, NULL, reaper_main, rt)) != 0) {
		curl_global_cleanup();
		(void)rmdir(rt->proc_dir);
		rc = err_set(ERR_INTERNAL, "runtime: pthread_create: %s", strerror(e));
		goto fail;
	}
	rt->reaper_started = true;
	if ((e = pthread_create(&rt->memwatch, NULL, memwatch_main, rt)) != 0) {
		rc = err_set(ERR_INTERNAL, "runtime: pthread_create: %s", strerror(e));
		goto fail;
	}
	rt->memwatch_started = true;
	rt->available = true;
	*out = rt;
	return 0;
fail:
	runtime_free(rt);
	return rc;
}

void runtime_free(struct runtime *rt)
{
	if (!rt)
		return;
	pthread_mutex_lock(&rt->mu);
	rt->stopping = true;
	pthread_cond_broadcast(&rt->cond);
	pthread_mutex_unlock(&rt->mu);
	if (rt->reaper_started)
		pthread_join(rt->reaper, NULL);
	if (rt->memwatch_started)
		pthread_join(rt->memwatch, NULL);
	/* No delivery runs any more (the owner frees the runtime last). */
	while (rt->procs) {
		struct proc *p = rt->procs;
		pid_t pid = kill_claim(rt, p, "runtime stopped");
		(void)workerd_kill(pid);
		proc_discard(p);
	}
	if (rt->available) {
		curl_global_cleanup();
		(void)rmdir(rt->proc_dir);
	}
	free(rt->proc_dir);
	script_cache_free(rt->scripts);
	pthread_cond_destroy(&rt->cond);
	pthread_mutex_destroy(&rt->mu);
	free((char *)rt->cfg.binary);
	free((char *)rt->cfg.work_dir);
	free((char *)rt->cfg.api_origin);
	free((char *)rt->cfg.api_connect);
	free((char *)rt->cfg.api_secret);
	free(rt);
}

bool runtime_available(const struct runtime *rt)
{
	return rt && rt->available;
}

void runtime_stats(const struct runtime *rt, struct runtime_stats *out)
{
	struct runtime *m = (struct runtime *)rt; /* the mutex; the counters are only read */

	memset(out, 0, sizeof(*out));
	if (!rt)
		return;
	pthread_mutex_lock(&m->mu);
	out->running = m->nprocs;
	out->started = m->started;
	out->timeouts = m->timeouts;
	out->crashes = m->crashes;
	out->memory_kills = m->memory_kills;
	pthread_mutex_unlock(&m->mu);
	script_cache_stats(m->scripts, &out->script_hits, &out->script_misses, &out->script_refused);
}

/* ---- acquire / release ---- */

static void deadline_ts(struct timespec *ts, int64_t ms)
{
	clock_gettime(CLOCK_REALTIME, ts);
	ts->tv_sec += ms / 1000;
	ts->tv_nsec += (long)(ms % 1000) * 1000000;
	if (ts->tv_nsec >= 1000000000) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000;
	}
}

/* A ready process for script, started when needed, held (users + 1) by
 * the caller until release(). */
static int acquire(struct runtime *rt, const struct runtime_script *script, struct proc **out)
{
	struct timespec wait_until;
	struct proc *p, *victim = NULL;
	pid_t victim_pid = -1;
	int rc;

	deadline_ts(&wait_until, RUNTIME_START_MS);
	pthread_mutex_lock(&rt->mu);
	for (;;) {
		if ((p = proc_find(rt, script->key)) != NULL) {
			int status;
			if (p->state == PROC_STARTING) {
				if (pthread_cond_timedwait(&rt->cond, &rt->mu, &wait_until) == ETIMEDOUT) {
					pthread_mutex_unlock(&rt->mu);
					return err_set(ERR_UNAVAILABLE, "the integration's process is still starting");
				}
				continue;
			}
			if (waitpid(p->pid, &status, WNOHANG) == p->pid) {
				/* It died since its last delivery (reaped here: no one kills it). */
				char why[192];
				workerd_describe_exit(p->dir, status, rt->cfg.heap_mb, why, sizeof(why));
				log_error("runtime: the process of %s %s; starting a new one", p->key, why);
				rt->crashes++;
				(void)kill_claim(rt, p, why);
				if (p->users == 0) {
					pthread_mutex_unlock(&rt->mu);
					proc_discard(p);
					pthread_mutex_lock(&rt->mu);
				}
				continue;
			}
			p->users++;
			p->last_used_ns = clock_mono_ns();
			pthread_mutex_unlock(&rt->mu);
			*out = p;
			return 0;
		}
		if (rt->nprocs < rt->cfg.max_processes)
			break;
		/* Make room: the least recently used process no delivery holds. */
		struct proc *lru = NULL;
		for (struct proc *q = rt->procs; q; q = q->next)
			if (q->state == PROC_READY && q->users == 0 && (!lru || q->last_used_ns < lru->last_used_ns))
				lru = q;
		if (lru) {
			victim = lru;
			victim_pid = kill_claim(rt, lru, "stopped to make room (least recently used)");
			break;
		}
		if (pthread_cond_timedwait(&rt->cond, &rt->mu, &wait_until) == ETIMEDOUT) {
			pthread_mutex_unlock(&rt->mu);
			return err_set(ERR_UNAVAILABLE, "all %d integration processes are busy", rt->cfg.max_processes);
		}
	}
	p = xcalloc(1, sizeof(*p));
	p->key = xstrdup(script->key);
	p->dir = workerd_dir(rt->proc_dir, script->key);
	if (p->dir) {
		char *numbered;
		if (asprintf(&numbered, "%s.%llu", p->dir, (unsigned long long)++rt->dir_seq) < 0)
			oom_abort("workerd dir", strlen(p->dir) + 24);
		free(p->dir);
		p->dir = numbered;
	}
	p->pid = -1;
	p->state = PROC_STARTING;
	p->users = 1;
	p->last_used_ns = clock_mono_ns();
	p->next = rt->procs;
	rt->procs = p;
	rt->nprocs++;
	pthread_mutex_unlock(&rt->mu);

	if (victim) {
		(void)workerd_kill(victim_pid);
		proc_discard(victim);
	}
	if (!p->dir)
		rc = err_set(ERR_INTERNAL, "runtime: no directory for key \"%s\"", script->key);
	else if (random_alnum(p->secret, 32) != 0)
		rc = err_set(ERR_INTERNAL, "runtime: getrandom failed");
	else {
		p->secret[32] = '\0';
		rc = workerd_start(&rt->cfg, p->dir, script->source, script->source_len, p->secret, RUNTIME_START_MS,
				   &p->pid, &p->port);
	}

	pthread_mutex_lock(&rt->mu);
	if (rc != 0) {
		proc_unlink(rt, p);
		pthread_cond_broadcast(&rt->cond);
		pthread_mutex_unlock(&rt->mu);
		if (p->dir)
			workerd_remove_dir(p->dir);
		proc_free(p);
		return rc;
	}
	p->state = PROC_READY;
	p->last_used_ns = clock_mono_ns();
	rt->started++;
	pthread_cond_broadcast(&rt->cond);
	pthread_mutex_unlock(&rt->mu);
	*out = p;
	return 0;
}

/* The resident memory of pid in KiB, 0 when unknown. */
static long rss_kib(pid_t pid)
{
	char path[64];
	long size = 0, resident = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/statm", (long)pid);
	if (pid <= 0 || !(f = fopen(path, "re")))
		return 0;
	if (fscanf(f, "%ld %ld", &size, &resident) != 2)
		resident = 0;
	fclose(f);
	return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* A process's RSS past which it is recycled once no delivery holds it:
 * workerd's resident memory grows with the requests it served, beyond the
 * V8 heap limit (measured: 48 MiB at start, 99 MiB after 4,000 trivial
 * requests, 254 MiB after 80,000, heap limit 128 MiB). */
static long recycle_kib(const struct runtime *rt)
{
	long kib = (long)rt->cfg.heap_mb * RUNTIME_RECYCLE_FACTOR * 1024;

	return kib < RUNTIME_RECYCLE_MIN_KIB ? RUNTIME_RECYCLE_MIN_KIB : kib;
}

static void release(struct runtime *rt, struct proc *p)
{
	bool discard;
	pid_t recycle = -1;
	long rss = 0;

	pthread_mutex_lock(&rt->mu);
	p->users--;
	p->last_used_ns = clock_mono_ns();
	if (!p->dead && p->users == 0 && p->state == PROC_READY && (rss = rss_kib(p->pid)) > recycle_kib(rt))
		recycle = kill_claim(rt, p, "recycled (resident memory)");
	discard = p->dead && p->users == 0;
	pthread_cond_broadcast(&rt->cond);
	pthread_mutex_unlock(&rt->mu);
	if (recycle > 0) {
		log_info("runtime: the process of %s recycled at %ld MiB resident", p->key, rss / 1024);
		(void)workerd_kill(recycle);
	}
	if (discard)
		proc_discard(p);
}

/* ---- one request: the JSON lines of the answer ---- */

struct answer {
	struct arena *a;
	char *line; /* the line being read (malloc'd) */
	size_t len, cap;
	struct runtime_log *logs;
	size_t nlogs, cap_logs, dropped;
	bool responded, too_large, garbled;
	int64_t start_ms; /* when the delivery began (docsd's clock) */
	int status;
	const char *body, *content_type;
	size_t body_len;
};

static void add_log(struct answer *an, const char *level, const char *msg, int64_t ts)
{
	size_t n = strlen(msg);
	char *m;

	if (an->nlogs >= RUNTIME_LOG_MAX) {
		an->dropped++;
		return;
	}
	if (an->nlogs == an->cap_logs) {
		size_t cap = an->cap_logs ? an->cap_logs * 2 : 16;
		struct runtime_log *grown = arena_alloc(an->a, cap * sizeof(*grown));
		if (an->nlogs)
			memcpy(grown, an->logs, an->nlogs * sizeof(*grown));
		an->logs = grown;
		an->cap_logs = cap;
	}
	if (n > RUNTIME_MESSAGE_MAX) {
		/* Cut before a UTF-8 continuation byte, and say so. */
		n = RUNTIME_MESSAGE_MAX;
		while (n > 0 && ((unsigned char)msg[n] & 0xC0) == 0x80)
			n--;
		m = arena_printf(an->a, "%.*s... (%zu bytes cut)", (int)n, msg, strlen(msg) - n);
	} else {
		m = arena_strndup(an->a, msg, n);
	}
	an->logs[an->nlogs++] = (struct runtime_log){ .level = level, .message = m, .timestamp_ms = ts };
}

static const char *level_of(const char *s)
{
	static const char *const levels[] = { "debug", "info", "warn", "error" };

	for (size_t i = 0; s && i < 4; i++)
		if (strcmp(s, levels[i]) == 0)
			return levels[i];
	return "info";
}

static bool header_safe(const char *s);

/* Whether a line is a flat JSON object of few fields: outside strings, at
 * most RUNTIME_LINE_TOKENS structural characters and one level of braces. A
 * cheap pass over bytes the script chose, before the JSON parser sees them. */
static bool line_flat(const char *s, size_t n)
{
	size_t tokens = 0;
	bool in_str = false;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (in_str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_str = false;
			continue;
		}
		if (c == '"')
			in_str = true;
		else if (c == '[' || (c == '{' && i > 0))
			return false; /* nothing nested in the entry module's lines */
		else if ((c == ',' || c == ':') && ++tokens > RUNTIME_LINE_TOKENS)
			return false;
	}
	return true;
}

/* A console line's timestamp: its own when it is an integer near the
 * delivery's time, else docsd's clock (never a cast of an arbitrary double:
 * 1e300 or NaN to int64_t is undefined behaviour). */
static int64_t line_ts(const struct answer *an, json_t *ts)
{
	int64_t now = clock_now_ms();

	if (json_is_integer(ts)) {
		json_int_t v = json_integer_value(ts);
		if (v >= an->start_ms - RUNTIME_TS_SLACK_MS && v <= now + RUNTIME_TS_SLACK_MS)
			return (int64_t)v;
	}
	return now;
}

static void answer_line(struct answer *an, const char *line, size_t len)
{
	static const char response_prefix[] = "{\"t\":\"response\",";
	json_error_t jerr;
	json_t *j;
	const char *t;
	bool response = len >= sizeof(response_prefix) - 1 &&
			memcmp(line, response_prefix, sizeof(response_prefix) - 1) == 0;

	if (len == 0)
		return;
	/* Past the line limit, a console line is counted, not parsed. */
	if (!response && an->nlogs >= RUNTIME_LOG_MAX) {
		an->dropped++;
		return;
	}
	/* Only the answer may be long; nothing is nested (line_flat). */
	if ((!response && len > RUNTIME_LOGLINE_MAX) || line[0] != '{' || !line_flat(line, len)) {
		an->garbled = true;
		return;
	}
	if (!(j = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr)) || !json_is_object(j)) {
		an->garbled = true;
		json_decref(j);
		return;
	}
	t = json_string_value(json_object_get(j, "t"));
	if (t && strcmp(t, "log") == 0 && !response) {
		const char *msg = json_string_value(json_object_get(j, "message"));
		add_log(an, level_of(json_string_value(json_object_get(j, "level"))), msg ? msg : "",
			line_ts(an, json_object_get(j, "ts")));
	} else if (t && strcmp(t, "response") == 0 && response && !an->responded) {
		json_t *st = json_object_get(j, "status");
		/* An HTTP status, or the answer is not one. */
		if (!json_is_integer(st) || json_integer_value(st) < 100 || json_integer_value(st) > 599) {
			an->garbled = true;
			json_decref(j);
			return;
		}
		const char *b64 = json_string_value(json_object_get(j, "body"));
		const char *ct = json_string_value(json_object_get(j, "contentType"));
		size_t blen = b64 ? strlen(b64) : 0;
		unsigned char *body = arena_alloc(an->a, base64_decoded_max(blen) + 1);
		long n = b64 ? base64_decode(body, b64, blen) : 0;
		if (n < 0) {
			an->garbled = true;
		} else {
			body[n] = '\0';
			an->responded = true;
			an->status = (int)json_integer_value(st);
			an->body = (const char *)body;
			an->body_len = (size_t)n;
			/* Served as a header (a site's script.js): a short, printable one or none. */
			an->content_type = ct && strlen(ct) <= 255 && header_safe(ct) ? arena_strdup(an->a, ct) : NULL;
		}
	}
	json_decref(j);
}

static size_t answer_write(char *data, size_t size, size_t nmemb, void *arg)
{
	struct answer *an = arg;
	size_t n = size * nmemb;

	for (size_t i = 0; i < n; i++) {
		if (data[i] == '\n') {
			answer_line(an, an->line, an->len);
			an->len = 0;
			continue;
		}
		if (an->len == RUNTIME_LINE_MAX) {
			an->too_large = true;
			return 0; /* ends the transfer: CURLE_WRITE_ERROR */
		}
		if (an->len == an->cap) {
			an->cap = an->cap ? an->cap * 2 : 4096;
			if (an->cap > RUNTIME_LINE_MAX)
				an->cap = RUNTIME_LINE_MAX;
			an->line = xrealloc(an->line, an->cap);
		}
		an->line[an->len++] = data[i];
	}
	return n;
}

static bool header_safe(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

static const char *duration(struct arena *a, int ms)
{
	return ms % 1000 == 0 ? arena_printf(a, "%d s", ms / 1000) : arena_printf(a, "%d ms", ms);
}

int runtime_deliver(struct runtime *rt, const struct runtime_script *script, const char *path,
		    const char *content_type, const char *body, size_t body_len, struct arena *a,
		    struct runtime_result *res)
{
	struct answer an = { .a = a, .start_ms = clock_now_ms() };
	struct curl_slist *headers = NULL, *h;
	struct proc *p = NULL;
	CURL *c = NULL;
	CURLcode cc;
	long http = 0;
	char url[2048], errbuf[CURL_ERROR_SIZE] = "";
	int rc;

	memset(res, 0, sizeof(*res));
	if (!runtime_available(rt)) {
		res->error = "no integration runtime (--integration-runtime)";
		return err_set(ERR_PRECONDITION, "no integration runtime (--integration-runtime)");
	}
	if (!script || !script->key || !*script->key || !script->source || !path || path[0] != '/' ||
	    !header_safe(path) || strchr(path, ' ') || !content_type || !header_safe(content_type)) {
		res->error = "bad delivery arguments";
		return err_set(ERR_INTERNAL, "runtime_deliver: bad arguments");
	}
	if ((rc = acquire(rt, script, &p)) != 0) {
		res->error = arena_strdup(a, err_message());
		return rc;
	}
	if ((size_t)snprintf(url, sizeof(url), "http://127.0.0.1:%d%s", p->port, path) >= sizeof(url)) {
		release(rt, p);
		res->error = "path too long";
		return err_set(ERR_INTERNAL, "runtime_deliver: path too long");
	}
	if (!(c = curl_easy_init()) ||
	    !(h = curl_slist_append(NULL, arena_printf(a, "Content-Type: %s", content_type)))) {
		rc = err_set(ERR_INTERNAL, "runtime: curl_easy_init failed");
		goto cleanup;
	}
	headers = h;
	if (!(h = curl_slist_append(headers, arena_printf(a, RUNTIME_SECRET_HEADER ": %s", p->secret)))) {
		rc = err_set(ERR_INTERNAL, "runtime: curl_slist_append failed");
		goto cleanup;
	}
	headers = h;
	/* No 100-continue round trip: workerd reads the body at once. */
	if (!(h = curl_slist_append(headers, "Expect:"))) {
		rc = err_set(ERR_INTERNAL, "runtime: curl_slist_append failed");
		goto cleanup;
	}
	headers = h;
	if (curl_easy_setopt(c, CURLOPT_URL, url) != CURLE_OK ||
	    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L) != CURLE_OK ||
	    curl_easy_setopt(c, CURLOPT_PROXY, "") != CURLE_OK ||
	    curl_easy_setopt(c, CURLOPT_POST, 1L) != CURLE_OK ||
	    curl_easy_setopt(c, CURLOPT_POSTFIELDS, body) != CURLE_OK ||
	    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_len) != CURLE_OK ||
	    curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers) != CURLE_OK ||
	    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)rt->cfg.timeout_ms) != CURLE_OK ||
	    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, answer_write) != CURLE_OK ||
	    curl_easy_setopt(c, CURLOPT_WRITEDATA, &an) != CURLE_OK ||
	    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf) != CURLE_OK) {
		rc = err_set(ERR_INTERNAL, "runtime: curl_easy_setopt failed");
		goto cleanup;
	}
	cc = curl_easy_perform(c);
	if (an.len > 0 && !an.too_large)
		answer_line(&an, an.line, an.len); /* a last line without its newline */
	(void)curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &http);

	if (cc == CURLE_OK && http == 200 && an.responded) {
		rc = 0;
	} else if (an.too_large) {
		res->error = arena_printf(a, "the script's answer is larger than %zu bytes", RUNTIME_BODY_MAX);
		rc = ERR_UNAVAILABLE;
	} else if (cc == CURLE_OPERATION_TIMEDOUT) {
		pthread_mutex_lock(&rt->mu);
		pid_t pid = kill_claim(rt, p, "killed: another delivery timed out");
		if (pid > 0)
			rt->timeouts++;
		pthread_mutex_unlock(&rt->mu);
		(void)workerd_kill(pid);
		res->error = arena_printf(a, "timed out after %s", duration(a, rt->cfg.timeout_ms));
		log_error("runtime: a delivery to %s %s; its process was killed", script->key, res->error);
		rc = ERR_UNAVAILABLE;
	} else if (cc == CURLE_OK) {
		/* workerd answered, but not with the entry module's stream. */
		res->error = http != 200 ? arena_printf(a, "the runtime answered HTTP %ld", http)
					 : arena_strdup(a, "the script's stream ended without an answer");
		rc = ERR_UNAVAILABLE;
	} else {
		/* The connection broke: the process most likely died (a heap past
		 * --max-old-space-size aborts it). Whichever it was, a new process
		 * serves the next delivery. */
		pthread_mutex_lock(&rt->mu);
		pid_t pid = kill_claim(rt, p, "");
		pthread_mutex_unlock(&rt->mu);
		if (pid > 0) {
			int status = -1;
			char why[192];
			if (workerd_exited(pid, 1000, &status)) {
				workerd_describe_exit(p->dir, status, rt->cfg.heap_mb, why, sizeof(why));
				pthread_mutex_lock(&rt->mu);
				rt->crashes++;
				pthread_mutex_unlock(&rt->mu);
				res->error = arena_printf(a, "process %s", why);
			} else {
				(void)workerd_kill(pid);
				res->error = arena_printf(a, "the connection to the process failed (%s); it was restarted",
							  errbuf[0] ? errbuf : curl_easy_strerror(cc));
			}
			snprintf(p->end_reason, sizeof(p->end_reason), "%s", res->error);
			log_error("runtime: a delivery to %s: %s", script->key, res->error);
		} else {
			res->error = arena_printf(a, "process %s", p->end_reason[0] ? p->end_reason : "stopped");
		}
		rc = ERR_UNAVAILABLE;
	}
	if (an.garbled && rc == 0)
		log_error("runtime: %s wrote lines that are not the entry module's", script->key);

cleanup:
	if (an.dropped)
		add_log(&an, "warn", arena_printf(a, "%zu more console lines were dropped (at most %d per delivery)",
						  an.dropped, RUNTIME_LOG_MAX),
			clock_now_ms());
	res->logs = an.logs;
	res->nlogs = an.nlogs;
	if (an.responded) {
		res->status = an.status;
		res->body = an.body;
		res->body_len = an.body_len;
		res->content_type = an.content_type;
	}
	if (rc == ERR_UNAVAILABLE)
		err_set(ERR_UNAVAILABLE, "%s", res->error);
	else if (rc != 0 && !res->error)
		res->error = arena_strdup(a, err_message());
	free(an.line);
	curl_slist_free_all(headers);
	if (c)
		curl_easy_cleanup(c);
	release(rt, p);
	return rc;
}
