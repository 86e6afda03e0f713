/*
 * proc.c - a child process with pipes, a deadline and a process group
 * (proc.h).
 *
 * posix_spawnp (glibc: clone + exec, safe in a threaded server) with file
 * actions that put the pipes on 0, 1 and 2; docsd's own ends are
 * close-on-exec, so no other child started meanwhile inherits them. SIGPIPE
 * is blocked in the calling thread while it writes (a child that exits
 * before reading all its input must not kill a process that does not ignore
 * SIGPIPE, such as the unit tests) and a pending one is consumed before the
 * mask is restored.
 */
#include "util/proc.h"
#include "util/alloc.h"
#include "util/err.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define CHUNK 65536

static void close_fd(int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
}

static int set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0 ? -1 : 0;
}

static int64_t ms_left(int64_t deadline_ns)
{
	int64_t left = (deadline_ns - clock_mono_ns()) / 1000000;

	return left < 0 ? 0 : left;
}

/* The start of stderr, for a message: one line, printable. */
static const char *err_excerpt(char *err, size_t len)
{
	size_t n = len > 300 ? 300 : len;

	for (size_t i = 0; i < n; i++)
		if ((unsigned char)err[i] < 0x20)
			err[i] = ' ';
	err[n] = '\0';
	return err;
}

int proc_run(struct arena *a, const char *const *argv, const char *in, size_t in_len, size_t out_max,
	     int64_t timeout_ms, struct proc_result *res)
{
	int inp[2] = { -1, -1 }, outp[2] = { -1, -1 }, errp[2] = { -1, -1 };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	bool fa_ok = false, at_ok = false, timed_out = false, overflow = false, masked = false;
	sigset_t none, defaults, pipe_only, old;
	char *out = NULL, errbuf[PROC_ERR_KEEP + 1];
	size_t out_len = 0, out_cap = 0, err_len = 0, written = 0;
	int64_t deadline = clock_mono_ns() + timeout_ms * 1000000;
	pid_t pid = -1;
	int status = 0, rc = 0, e;

	memset(res, 0, sizeof(*res));
	if (pipe2(inp, O_CLOEXEC) || pipe2(outp, O_CLOEXEC) || pipe2(errp, O_CLOEXEC)) {
		rc = err_set(ERR_INTERNAL, "pipe: %s", strerror(errno));
		goto cleanup;
	}
	if (posix_spawn_file_actions_init(&fa)) {
		rc = err_set(ERR_INTERNAL, "out of memory");
		goto cleanup;
	}
	fa_ok = true;
	if (posix_spawnattr_init(&at)) {
		rc = err_set(ERR_INTERNAL, "out of memory");
		goto cleanup;
	}
	at_ok = true;
	sigemptyset(&none);
	sigemptyset(&defaults);
	sigaddset(&defaults, SIGPIPE);
	sigaddset(&defaults, SIGINT);
	sigaddset(&defaults, SIGTERM);
	if (posix_spawn_file_actions_adddup2(&fa, inp[0], 0) || posix_spawn_file_actions_adddup2(&fa, outp[1], 1) ||
	    posix_spawn_file_actions_adddup2(&fa, errp[1], 2) ||
	    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) ||
	    posix_spawnattr_setpgroup(&at, 0) || posix_spawnattr_setsigmask(&at, &none) ||
	    posix_spawnattr_setsigdefault(&at, &defaults)) {
		rc = err_set(ERR_INTERNAL, "cannot prepare a child process");
		goto cleanup;
	}
	sigemptyset(&pipe_only);
	sigaddset(&pipe_only, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
	masked = true;
	if ((e = posix_spawnp(&pid, argv[0], &fa, &at, (char *const *)argv, environ)) != 0) {
		pid = -1;
		rc = err_set(ERR_UNAVAILABLE, "cannot start %s: %s", argv[0], strerror(e));
		goto cleanup;
	}
	close_fd(&inp[0]);
	close_fd(&outp[1]);
	close_fd(&errp[1]);
	if (set_nonblock(inp[1]) || set_nonblock(outp[0]) || set_nonblock(errp[0])) {
		rc = err_set(ERR_INTERNAL, "fcntl: %s", strerror(errno));
		goto cleanup;
	}
	if (in_len == 0)
		close_fd(&inp[1]);

	while (outp[0] >= 0 || errp[0] >= 0) {
		struct pollfd fds[3];
		int nf = 0, wi = -1, oi = -1, ei = -1, r;
		int64_t left = ms_left(deadline);

		if (left == 0) {
			timed_out = true;
			break;
		}
		if (inp[1] >= 0)
			fds[wi = nf++] = (struct pollfd){ inp[1], POLLOUT, 0 };
		if (outp[0] >= 0)
			fds[oi = nf++] = (struct pollfd){ outp[0], POLLIN, 0 };
		if (errp[0] >= 0)
			fds[ei = nf++] = (struct pollfd){ errp[0], POLLIN, 0 };
		r = poll(fds, (nfds_t)nf, left > INT_MAX ? INT_MAX : (int)left);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			rc = err_set(ERR_INTERNAL, "poll: %s", strerror(errno));
			break;
		}
		if (wi >= 0 && fds[wi].revents) {
			size_t k = in_len - written < CHUNK ? in_len - written : CHUNK;
			ssize_t w = write(inp[1], in + written, k);
			if (w > 0 && (written += (size_t)w) == in_len)
				close_fd(&inp[1]);
			else if (w < 0 && errno != EAGAIN && errno != EINTR)
				close_fd(&inp[1]); /* EPIPE: it stopped reading; its exit status tells */
		}
		if (oi >= 0 && fds[oi].revents) {
			ssize_t n;
			if (out_cap - out_len < CHUNK) {
				size_t cap = out_cap ? 2 * out_cap : 2 * CHUNK;
				out = xrealloc(out, cap + 1);
				out_cap = cap;
			}
			n = read(outp[0], out + out_len, CHUNK);
			if (n > 0 && (out_len += (size_t)n) > out_max) {
				overflow = true;
				break;
			}
			if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
				close_fd(&outp[0]);
		}
		if (ei >= 0 && fds[ei].revents) {
			char chunk[4096];
			ssize_t n = read(errp[0], chunk, sizeof(chunk));
			if (n > 0 && err_len < PROC_ERR_KEEP) {
				size_t k = (size_t)n < PROC_ERR_KEEP - err_len ? (size_t)n : PROC_ERR_KEEP - err_len;
				memcpy(errbuf + err_len, chunk, k);
				err_len += k;
			}
			if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
				close_fd(&errp[0]);
		}
	}
	close_fd(&inp[1]);
	if (timed_out || overflow || rc) {
		kill(-pid, SIGKILL);
	} else {
		/* Both outputs are closed: the child is exiting. Wait for it within
		 * what is left of the deadline. */
		for (;;) {
			pid_t w = waitpid(pid, &status, WNOHANG);
			if (w == pid) {
				pid = -1;
				break;
			}
			if (w < 0 && errno != EINTR) {
				rc = err_set(ERR_INTERNAL, "waitpid: %s", strerror(errno));
				pid = -1;
				break;
			}
			if (ms_left(deadline) == 0) {
				timed_out = true;
				kill(-pid, SIGKILL);
				break;
			}
			nanosleep(&(struct timespec){ 0, 2000000 }, NULL);
		}
	}
	if (pid > 0) {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		pid = -1;
	}
	errbuf[err_len] = '\0';
	if (rc == 0) {
		res->out = arena_alloc(a, out_len + 1);
		res->err = arena_strndup(a, errbuf, err_len);
		if (out_len)
			memcpy(res->out, out, out_len);
		res->out[out_len] = '\0';
		res->out_len = out_len;
		res->status = status;
	}
	if (rc == 0 && timed_out)
		rc = err_set(ERR_UNAVAILABLE, "%s did not finish within %lld ms (killed)", argv[0], (long long)timeout_ms);
	else if (rc == 0 && overflow)
		rc = err_set(ERR_UNAVAILABLE, "%s wrote more than %zu bytes (killed)", argv[0], out_max);
	else if (rc == 0 && WIFSIGNALED(status))
		rc = err_set(ERR_UNAVAILABLE, "%s was killed by signal %d: %s", argv[0], WTERMSIG(status),
			     err_excerpt(errbuf, err_len));
	else if (rc == 0 && (!WIFEXITED(status) || WEXITSTATUS(status) != 0))
		rc = err_set(ERR_UNAVAILABLE, "%s exited with status %d: %s", argv[0],
			     WIFEXITED(status) ? WEXITSTATUS(status) : -1, err_excerpt(errbuf, err_len));
cleanup:
	if (pid > 0) {
		kill(-pid, SIGKILL);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	if (masked) {
		/* A write to a child that had gone left SIGPIPE pending: take it
		 * before the mask is restored (unless it was blocked already). */
		sigset_t pending;
		if (!sigismember(&old, SIGPIPE) && sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE))
			sigtimedwait(&pipe_only, NULL, &(struct timespec){ 0, 0 });
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	close_fd(&inp[0]);
	close_fd(&inp[1]);
	close_fd(&outp[0]);
	close_fd(&outp[1]);
	close_fd(&errp[0]);
	close_fd(&errp[1]);
	if (fa_ok)
		posix_spawn_file_actions_destroy(&fa);
	if (at_ok)
		posix_spawnattr_destroy(&at);
	free(out);
	return rc;
}
