/*
 * net.h - how docsd's Git operations reach a remote (issue 13, "Outgoing
 * network rules").
 *
 * libgit2 1.5 has no connect or total timeout and its own HTTP stack would
 * bypass docsd's address rules, so http and https remotes go through a smart
 * subtransport of our own (net.c): libgit2 speaks the Git protocol, and each
 * of its requests (GET info/refs?service=..., POST git-upload-pack or
 * git-receive-pack) is one libcurl transfer guarded by util/fetch.h's rules
 * (fetch_guard_apply: http/https only, loopback, private and link-local
 * addresses refused after DNS unless allowed, no proxy, connect timeout).
 * On top, one operation (a fetch, or a push) has a total deadline and a total
 * size: every request's timeout is what is left of the deadline, and the
 * bytes received by all its requests count against max_bytes.
 *
 * file:// remotes use libgit2's local transport; the caller accepts them only
 * with --allow-private-network (model/git_sync.h). Other schemes are refused
 * here as well, whatever the caller checked.
 *
 * Credentials never travel in the URL given to libgit2 (it may print it in an
 * error): the caller passes them here and the transport sends them as HTTP
 * basic authentication.
 */
#ifndef DOCSD_GIT_NET_H
#define DOCSD_GIT_NET_H

#include <git2.h>
#include <git2/sys/transport.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One operation's limits (documented in the README's Git sync section). */
#define GITNET_MAX_BYTES ((size_t)512 << 20)  /* received by one fetch, all requests */
#define GITNET_TIMEOUT_MS (10LL * 60 * 1000)  /* one fetch or push, all requests */
#define GITNET_MAX_PUSH_BYTES ((size_t)512 << 20) /* one push's request body */

struct gitnet {
	bool allow_private;
	int64_t deadline_ns;  /* clock_mono_ns() value the operation must end by */
	size_t max_bytes;
	size_t received;      /* so far, all requests */
	const char *user, *password; /* NULL: none */
	char error[256];      /* the first failure's reason, fit for a user; "" when none */
	bool transient;       /* that failure may pass (timeout, unreachable, HTTP 5xx/408/429):
	                       * the job is retried with backoff instead of failing for good */
	/* used by net.c */
	git_smart_subtransport_definition def;
};

/* Fill n for one operation from now (timeout_ms <= 0: GITNET_TIMEOUT_MS;
 * max_bytes 0: GITNET_MAX_BYTES). */
void gitnet_init(struct gitnet *n, bool allow_private, long long timeout_ms, size_t max_bytes, const char *user,
		 const char *password);

/* A git_transport_cb: set git_remote_callbacks.transport to it and .payload
 * to the struct gitnet of the operation. */
int gitnet_transport(git_transport **out, git_remote *owner, void *payload);

/* git_libgit2_init() once per process, and the http/https prefixes
 * registered to a transport that refuses, so that no libgit2 call made
 * without gitnet_transport can reach the network through libgit2's own
 * stack. 0 or ERR_INTERNAL. */
int gitnet_global_init(void);

#endif
