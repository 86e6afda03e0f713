/*
 * proc.h - running a program as a child process: no shell, input written and
 * output read through pipes without deadlock, a deadline, and the whole
 * process group killed when the deadline passes.
 *
 * The program is found on PATH (posix_spawnp) and gets argv exactly as
 * given, the server's environment, an empty signal mask and the default
 * dispositions of the signals docsd changes (SIGPIPE, SIGINT, SIGTERM), in a
 * process group of its own, so that what it starts (a shell script's
 * pipeline) is killed with it. Every pipe end docsd keeps is close-on-exec.
 *
 * proc_run() writes `in` to the child's stdin (then closes it) while it
 * reads stdout and stderr, with poll(): a child that writes before it has
 * read everything cannot block on a full pipe.
 */
#ifndef DOCSD_UTIL_PROC_H
#define DOCSD_UTIL_PROC_H

#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"

struct proc_result {
	char *out;      /* stdout, NUL-terminated, in the arena */
	size_t out_len;
	char *err;      /* the first PROC_ERR_KEEP bytes of stderr, NUL-terminated */
	int status;     /* waitpid()'s status */
};

#define PROC_ERR_KEEP 4096

/* Run argv (argv[0] found on PATH, argv NULL-terminated) with `in` on stdin,
 * within timeout_ms. 0 when it exited 0, with res filled. ERR_UNAVAILABLE
 * (message says why, with the start of stderr) when it could not be
 * started, exited non-zero, was killed by a signal, wrote more than out_max
 * bytes to stdout, or outlived the deadline (its process group is then
 * killed with SIGKILL and reaped); ERR_INTERNAL when spawning or a pipe
 * failed. res->out and res->err are set whenever the child ran. */
int proc_run(struct arena *a, const char *const *argv, const char *in, size_t in_len, size_t out_max,
	     int64_t timeout_ms, struct proc_result *res);

#endif
