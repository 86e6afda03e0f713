/*
 * workerd.h - one workerd process: its generated files and its life
 * (internal to src/runtime; runtime.c decides when).
 *
 * A process for one published version lives in a directory of its own,
 * work_dir/p-<docsd's pid>/w-<key> (or w-<sha256 of the key> when the key
 * has other characters than [A-Za-z0-9._-]): config.capnp, entry.mjs (the generated
 * entry module), script.mjs (the published script), router.mjs (the
 * globalOutbound), workerd.log (the process's stdout and stderr) and pid.
 * Nothing else of the delivery (tokens, secrets: the environment) is ever
 * written there: it travels in the request body only.
 *
 * The entry module answers every request with a stream of JSON lines
 * (application/x-ndjson), each written as soon as it happens:
 *   {"t":"log","level":"info","message":"...","ts":1700000000000}
 *   {"t":"response","status":200,"contentType":"text/plain","body":"<base64>"}
 * The response line comes once the script's fetch() has answered; log lines
 * may follow it (ctx.waitUntil work), and the stream ends when that work has
 * settled. A script that throws gets a response line with status 500 after
 * the error's log line; a script without a default export with fetch() too.
 */
#ifndef DOCSD_RUNTIME_WORKERD_H
#define DOCSD_RUNTIME_WORKERD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "runtime/runtime.h"

/* The header every delivery carries with its process's own secret (the
 * secret argument of workerd_start, a binding of the main worker only): the
 * entry module answers 403 without running the script to a request without
 * it, so one script (which may reach 127.0.0.1 with --allow-private-network)
 * cannot deliver forged events to another integration's process. */
#define RUNTIME_SECRET_HEADER "X-Docsd-Runtime-Secret"
/* The header the router worker adds to every callback of a script to
 * docsd's API (runtime_config.api_secret): the callback listener serves
 * nothing without it (http/listener.c, listener_start_runtime); server.h's
 * SERVER_RUNTIME_CALLBACK_HEADER is the same name. */
#define RUNTIME_CALLBACK_HEADER "X-Docsd-Callback-Secret"

/* proc_dir/w-<key or its hash>, malloc'd; NULL only for an empty key. */
char *workerd_dir(const char *proc_dir, const char *key);

/* Write dir's files for cfg and the script (creating dir), then start
 * `cfg->binary serve config.capnp --control-fd=3` in a process group of
 * its own with RLIMIT_CPU as a backstop, and wait for its "listen" event at
 * most start_ms. 0 with *pid and *port set; ERR_UNAVAILABLE when it did not
 * start (the message quotes the start of its log: a script that does not
 * load ends here), ERR_INTERNAL when a file or spawn call failed. */
int workerd_start(const struct runtime_config *cfg, const char *dir, const char *source, size_t source_len,
		  const char *secret, int64_t start_ms, pid_t *pid, int *port);

/* SIGKILL the process group and reap it; the status waitpid() gave, or -1. */
int workerd_kill(pid_t pid);

/* Reap pid if it has exited, waiting at most wait_ms: true with *status
 * set when it has. */
bool workerd_exited(pid_t pid, int wait_ms, int *status);

/* "exited (code 1)", "killed by signal 6", plus ": JavaScript heap out of
 * memory (--max-old-space-size=N)" when its log says so; into buf. */
const char *workerd_describe_exit(const char *dir, int status, int heap_mb, char *buf, size_t n);

/* Remove dir's files and dir (a stopped process's). */
void workerd_remove_dir(const char *dir);

/* Kill the processes a previous docsd left running (after a kill -9): in
 * every p-<pid> directory of work_dir whose docsd is no longer running,
 * each w-* directory's pid file names a process that is killed if its
 * command line is that directory's config; the files go. The directories
 * of docsd processes still running (sharing the data directory) stay. */
void workerd_kill_stale(const char *work_dir);

#endif
