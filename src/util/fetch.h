/*
 * fetch.h - download a user-supplied URL safely (insert_files changes, imports).
 *
 * The URL comes from a request, so the fetch must not become a way into the
 * server's own network (SSRF) or a way to exhaust it:
 *   - only http and https, on the first request and on every redirect; at most
 *     FETCH_MAX_REDIRECTS redirects;
 *   - every address curl is about to connect to is checked by
 *     fetch_addr_is_private() in curl's open-socket callback, so a name that
 *     resolves (or re-resolves: DNS rebinding) to 10.0.0.1, or a redirect to
 *     http://127.0.0.1/, is refused before a socket exists;
 *   - no proxy, even if http_proxy is set in the environment (a proxy would make
 *     the address check look at the proxy instead of the target);
 *   - one total timeout, and the body is abandoned as soon as it is larger than
 *     max_bytes (a larger Content-Length fails before any body is read);
 *   - fetch_url() accepts every Content-Encoding libcurl decodes (gzip,
 *     deflate, ...; Accept-Encoding is sent) and keeps the decoded bytes:
 *     max_bytes counts decoded bytes, so a small compressed body that
 *     inflates past it (a gzip bomb) stops at max_bytes with "url: larger
 *     than N bytes"; a body that does not decode is "url: the response's
 *     Content-Encoding could not be decoded".
 * fetch_url() is thread-safe; it uses its own curl handle for every call.
 */
#ifndef DOCSD_UTIL_FETCH_H
#define DOCSD_UTIL_FETCH_H

#include <curl/curl.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#define FETCH_MAX_REDIRECTS 3
#define FETCH_DEFAULT_MAX_BYTES ((size_t)10 << 20)
#define FETCH_DEFAULT_TIMEOUT_MS 10000L
/* Connecting (DNS, TCP, TLS handshake) of any one request, within the total. */
#define FETCH_CONNECT_TIMEOUT_MS 10000L

struct fetch_opts {
	size_t max_bytes;   /* 0: FETCH_DEFAULT_MAX_BYTES */
	long timeout_ms;    /* whole transfer, redirects included; <= 0: FETCH_DEFAULT_TIMEOUT_MS */
	bool allow_private; /* tests and trusted deployments only */
};

/* What made a fetch fail, for callers that word a limit of their own. */
enum fetch_failure {
	FETCH_OK = 0,
	FETCH_FAIL_REFUSED,   /* scheme fine, but the address is not allowed */
	FETCH_FAIL_TOO_LARGE, /* the body passed max_bytes */
	FETCH_FAIL_TIMEOUT,   /* timeout_ms ran out */
	FETCH_FAIL_OTHER,
};

/* The reason given for a refused address. It never names the address: that
 * would tell the caller what an internal name resolves to (a DNS oracle). */
#define FETCH_REFUSED_MESSAGE "the URL's host is not allowed (private, loopback or reserved address)"

struct fetch_result {
	unsigned char *data;    /* malloc'd, len bytes plus a NUL; NULL unless success */
	size_t len;
	char *url;              /* malloc'd: the URL the body came from, after redirects
	                         * (relative links resolve against it); NULL unless success */
	char content_type[128]; /* lower-case, parameters stripped: "image/png"; "" if absent */
	long status;            /* the final response's HTTP status; 0 if none arrived */
	char error[256];        /* on failure, a reason fit for a 400 body; "" on success */
	enum fetch_failure failure;
};

/*
 * Fetch url into *out (which need not be initialised). opts may be NULL for
 * the defaults. Returns 0 when the final response is 2xx and its body fits in
 * max_bytes. Otherwise returns ERR_INVALID for anything the URL is to blame for
 * (scheme, private address, size, timeout, HTTP status, unreachable host) or
 * ERR_INTERNAL (-1) when curl fails us; out->error and the thread's
 * error message (err_message()) both say why, e.g. "url: HTTP 404", and
 * out->failure says which kind of failure it was. out->data
 * belongs to the caller: release it with fetch_result_free().
 */
int fetch_url(const char *url, const struct fetch_opts *opts, struct fetch_result *out);

/*
 * The same rules for a curl handle the caller drives itself (Git's smart HTTP
 * in src/git/net.c, which streams bodies both ways): http/https only on the
 * request and its redirects (at most FETCH_MAX_REDIRECTS), no proxy, no
 * content decoding, FETCH_CONNECT_TIMEOUT_MS to connect, timeout_ms for the
 * whole transfer, a Content-Length above max_bytes refused (0: no cap; the
 * caller counts bodies without one), and every address checked by
 * fetch_addr_is_private() before a socket exists. g must outlive the
 * transfer; afterwards fetch_guard_reason() words a failure. 0, or
 * ERR_INTERNAL when curl refuses an option.
 */
struct fetch_guard {
	bool allow_private;
	bool refused; /* set when an address was refused */
};
int fetch_guard_apply(CURL *curl, struct fetch_guard *g, long timeout_ms, size_t max_bytes);
/* "url: timed out", "url: the URL's host is not allowed (...)", ...: the
 * reason for curl's code cc after a guarded transfer, into buf (n bytes),
 * never naming an address. *failure (may be NULL) gets its kind. */
const char *fetch_guard_reason(const struct fetch_guard *g, CURLcode cc, char *buf, size_t n,
			       enum fetch_failure *failure);

/*
 * A request with a body to a server the operator configured (the
 * translation engines: translate/libretranslate.c, translate/deepl.c): POST
 * body[0..len) (NULL: a GET) with the headers given ("Name: value",
 * NULL-terminated; may be NULL), the same rules as fetch_url (http/https
 * only, the address check unless opts->allow_private, no proxy, timeout,
 * max_bytes) but no redirects, no content decoding, and the body kept
 * whatever the status: 0 once a response arrived (out->status says which;
 * out->data its body, freed with fetch_result_free), else ERR_INVALID or
 * ERR_INTERNAL as fetch_url, out->error and out->failure saying why. The
 * headers are never logged or copied into a message (they carry keys).
 */
int fetch_post(const char *url, const char *const *headers, const char *body, size_t len,
	       const struct fetch_opts *opts, struct fetch_result *out);

/* Free r->data and r->url and zero r; accepts NULL, a zeroed result and any result
 * fetch_url() has written, successful or not. */
void fetch_result_free(struct fetch_result *r);

/*
 * true unless sa is a public unicast IPv4 or IPv6 address: loopback, private
 * (10/8, 172.16/12, 192.168/16, fc00::/7), link-local (169.254/16, fe80::/10),
 * unspecified, multicast, broadcast and reserved, CGNAT (100.64/10), and IPv6
 * addresses that embed one of those IPv4 addresses (::ffff:0:0/96 mapped,
 * ::/96 compatible, 64:ff9b::/96 NAT64, 2002::/16 6to4). Families other than
 * AF_INET and AF_INET6 count as private.
 */
bool fetch_addr_is_private(const struct sockaddr *sa);

#endif
