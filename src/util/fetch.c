/*
 * fetch.c - one guarded libcurl GET; the rules are listed in fetch.h.
 *
 * Where each rule is enforced:
 *   scheme            scheme_allowed() before curl sees the URL, and
 *                     CURLOPT_PROTOCOLS_STR / REDIR_PROTOCOLS_STR for redirects
 *   target address    on_open_socket(): curl hands it every address it is about
 *                     to connect to (after DNS, for every redirect), so the check
 *                     sees the address actually used and refuses it with
 *                     CURL_SOCKET_BAD; curl then fails with COULDNT_CONNECT and
 *                     fetch_guard.refused says why (the message never names the
 *                     address: it would tell what an internal name resolves to)
 *   size              CURLOPT_MAXFILESIZE_LARGE refuses a larger Content-Length
 *                     before the body; on_body() stops at the first byte past
 *                     max_bytes for bodies without one, and for compressed
 *                     ones: fetch_url() asks for gzip/deflate and curl hands
 *                     on_body() the decoded bytes, so the cap is on what is
 *                     kept, whatever the Content-Length said
 *   status            on_body() stops reading a non-2xx body at once; the final
 *                     status is checked after the transfer
 *   time              CURLOPT_TIMEOUT_MS covers DNS, connects, redirects, body;
 *                     CURLOPT_CONNECTTIMEOUT_MS bounds each connect
 * fetch_guard_apply() sets these on any handle (fetch_url's, and Git's smart
 * HTTP transport's); outcome() turns what happened into one message.
 */
#include "util/fetch.h"
#include "util/alloc.h"
#include "util/err.h"

#include <ctype.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifndef DOCSD_VERSION
#define DOCSD_VERSION "dev"
#endif

#define URL_MAX_LEN 8192
/* Growth step for the body buffer when it must grow (and the first size). */
#define BODY_MIN_CAP ((size_t)16 << 10)

/* curl_global_init() must run once before any handle exists and is not safe to
 * race; pthread_once gives both. The result is written once, under the once. */
static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static CURLcode curl_init_result = CURLE_FAILED_INIT;

static void curl_init_once(void)
{
	curl_init_result = curl_global_init(CURL_GLOBAL_DEFAULT);
}

/* ---- address policy ---- */

struct v4_net {
	uint32_t net;
	unsigned bits;
};

static const struct v4_net v4_blocked[] = {
	{ 0x00000000u, 8 },  /* 0/8: "this network", 0.0.0.0 */
	{ 0x0A000000u, 8 },  /* 10/8: private */
	{ 0x64400000u, 10 }, /* 100.64/10: carrier-grade NAT */
	{ 0x7F000000u, 8 },  /* 127/8: loopback */
	{ 0xA9FE0000u, 16 }, /* 169.254/16: link-local, cloud metadata */
	{ 0xAC100000u, 12 }, /* 172.16/12: private */
	{ 0xC0000000u, 24 }, /* 192.0.0/24: IETF protocol assignments */
	{ 0xC0A80000u, 16 }, /* 192.168/16: private */
	{ 0xC6120000u, 15 }, /* 198.18/15: benchmarking */
	{ 0xE0000000u, 4 },  /* 224/4: multicast */
	{ 0xF0000000u, 4 },  /* 240/4: reserved, 255.255.255.255 broadcast */
};

/* p points at 4 bytes in network order. */
static bool v4_is_private(const unsigned char *p)
{
	uint32_t a = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];

	for (size_t i = 0; i < sizeof(v4_blocked) / sizeof(v4_blocked[0]); i++) {
		uint32_t mask = 0xFFFFFFFFu << (32 - v4_blocked[i].bits);
		if ((a & mask) == v4_blocked[i].net)
			return true;
	}
	return false;
}

static bool v6_is_private(const unsigned char *a)
{
	static const unsigned char zero[12];
	static const unsigned char nat64[12] = { 0x00, 0x64, 0xff, 0x9b };

	if (a[0] == 0xff)
		return true; /* ff00::/8 multicast */
	if ((a[0] & 0xfe) == 0xfc)
		return true; /* fc00::/7 unique local */
	if (a[0] == 0xfe && (a[1] & 0x80) == 0x80)
		return true; /* fe80::/10 link-local and fec0::/10 old site-local */
	if (memcmp(a, zero, 10) == 0 && a[10] == 0xff && a[11] == 0xff)
		return v4_is_private(a + 12); /* ::ffff:0:0/96 IPv4-mapped */
	if (memcmp(a, zero, 12) == 0)
		return true; /* ::/96: ::, ::1 and the deprecated IPv4-compatible form */
	if (memcmp(a, nat64, 12) == 0)
		return v4_is_private(a + 12); /* 64:ff9b::/96 NAT64 */
	if (a[0] == 0x00 && a[1] == 0x64 && a[2] == 0xff && a[3] == 0x9b && a[4] == 0x00 && a[5] == 0x01)
		return true; /* 64:ff9b:1::/48 local-use NAT64 */
	if (a[0] == 0x20 && a[1] == 0x02)
		return v4_is_private(a + 2); /* 2002::/16 6to4 */
	if (a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x00 && a[3] == 0x00)
		return true; /* 2001::/32 Teredo: tunnels to an address we cannot check */
	return false;
}

bool fetch_addr_is_private(const struct sockaddr *sa)
{
	if (!sa)
		return true;
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
		return v4_is_private((const unsigned char *)&in->sin_addr);
	}
	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
		return v6_is_private(in6->sin6_addr.s6_addr);
	}
	return true;
}

/* ---- one transfer ---- */

struct fetch_ctx {
	CURL *curl;
	struct fetch_guard guard;
	size_t max;
	unsigned char *buf; /* body, NUL-terminated once non-empty */
	size_t len;
	size_t cap;
	bool too_large;  /* the body passed max */
	bool http_error; /* a non-2xx body arrived and was cut off */
};

/* guard.refused: an address was refused. Which one is never said: the
 * message would tell the caller what an internal name resolves to. */
static curl_socket_t on_open_socket(void *clientp, curlsocktype purpose, struct curl_sockaddr *a)
{
	struct fetch_guard *g = clientp;
	bool short_addr = (a->family == AF_INET && a->addrlen < sizeof(struct sockaddr_in)) ||
			  (a->family == AF_INET6 && a->addrlen < sizeof(struct sockaddr_in6));

	if (!g->allow_private && (short_addr || fetch_addr_is_private(&a->addr))) {
		g->refused = true;
		return CURL_SOCKET_BAD;
	}
	return socket(a->family, a->socktype | SOCK_CLOEXEC, a->protocol);
}

/* Returning anything but n makes curl abort the transfer with CURLE_WRITE_ERROR. */
static size_t on_body(char *ptr, size_t size, size_t nmemb, void *userdata)
{
	struct fetch_ctx *c = userdata;
	size_t n = nmemb; /* size is always 1 for the write callback */
	long status = 0;

	(void)size;
	if (curl_easy_getinfo(c->curl, CURLINFO_RESPONSE_CODE, &status) != CURLE_OK || status < 200 || status > 299) {
		c->http_error = true;
		return 0;
	}
	if (n > c->max - c->len) {
		c->too_large = true;
		return 0;
	}
	if (c->cap - c->len < n + 1) {
		/* c->max <= SIZE_MAX / 2, so none of these sums overflow */
		size_t need = c->len + n + 1;
		size_t cap = c->cap ? c->cap * 2 : BODY_MIN_CAP;
		if (cap < need)
			cap = need;
		if (cap > c->max + 1)
			cap = c->max + 1;
		c->buf = xrealloc(c->buf, cap);
		c->cap = cap;
	}
	memcpy(c->buf + c->len, ptr, n);
	c->len += n;
	c->buf[c->len] = '\0';
	return n;
}

/* ---- results ---- */

static int fail(struct fetch_result *out, enum fetch_failure why, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(struct fetch_result *out, enum fetch_failure why, int code, const char *fmt, ...)
{
	va_list ap;

	out->failure = why;
	va_start(ap, fmt);
	vsnprintf(out->error, sizeof(out->error), fmt, ap);
	va_end(ap);
	return err_set(code, "%s", out->error);
}

static bool scheme_allowed(const char *url)
{
	return strncasecmp(url, "http://", 7) == 0 || strncasecmp(url, "https://", 8) == 0;
}

/* "Text/HTML; charset=utf-8" -> "text/html"; "" when absent or too long. */
static void set_content_type(char out[128], const char *ct)
{
	size_t n = 0;

	out[0] = '\0';
	if (!ct)
		return;
	while (*ct == ' ' || *ct == '\t')
		ct++;
	while (ct[n] && ct[n] != ';')
		n++;
	while (n > 0 && (ct[n - 1] == ' ' || ct[n - 1] == '\t'))
		n--;
	if (n >= 128)
		return;
	for (size_t i = 0; i < n; i++)
		out[i] = (char)tolower((unsigned char)ct[i]);
	out[n] = '\0';
}

/* curl's code after a guarded transfer as a reason (and its kind). */
static const char *curl_reason(const struct fetch_guard *g, CURLcode cc, char *buf, size_t n,
			       enum fetch_failure *why)
{
	*why = FETCH_FAIL_OTHER;
	if (g->refused && cc == CURLE_COULDNT_CONNECT) {
		*why = FETCH_FAIL_REFUSED;
		snprintf(buf, n, "url: %s", FETCH_REFUSED_MESSAGE);
		return buf;
	}
	switch (cc) {
	case CURLE_OK:
		snprintf(buf, n, "url: fetch failed");
		break;
	case CURLE_OPERATION_TIMEDOUT:
		*why = FETCH_FAIL_TIMEOUT;
		snprintf(buf, n, "url: timed out");
		break;
	case CURLE_FILESIZE_EXCEEDED:
		*why = FETCH_FAIL_TOO_LARGE;
		snprintf(buf, n, "url: too large");
		break;
	case CURLE_BAD_CONTENT_ENCODING:
		snprintf(buf, n, "url: the response's Content-Encoding could not be decoded");
		break;
	case CURLE_UNSUPPORTED_PROTOCOL:
		snprintf(buf, n, "url: only http and https are allowed");
		break;
	case CURLE_TOO_MANY_REDIRECTS:
		snprintf(buf, n, "url: more than %d redirects", FETCH_MAX_REDIRECTS);
		break;
	case CURLE_URL_MALFORMAT:
		snprintf(buf, n, "url: malformed");
		break;
	case CURLE_COULDNT_RESOLVE_HOST:
		snprintf(buf, n, "url: could not resolve host");
		break;
	case CURLE_COULDNT_CONNECT:
		snprintf(buf, n, "url: could not connect");
		break;
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_SSL_CERTPROBLEM:
	case CURLE_SSL_CIPHER:
	case CURLE_SSL_CACERT_BADFILE:
		snprintf(buf, n, "url: TLS connection failed");
		break;
	default:
		/* curl_easy_strerror() is fixed text; the error buffer is not used
		 * because it can name internal addresses. */
		snprintf(buf, n, "url: fetch failed (%s)", curl_easy_strerror(cc));
		break;
	}
	return buf;
}

const char *fetch_guard_reason(const struct fetch_guard *g, CURLcode cc, char *buf, size_t n,
			       enum fetch_failure *failure)
{
	enum fetch_failure why;
	const char *r = curl_reason(g, cc, buf, n, &why);

	if (failure)
		*failure = why;
	return r;
}

/* What went wrong, most specific first: our own flags say more than curl's code. */
static int outcome(const struct fetch_ctx *c, CURLcode cc, struct fetch_result *out)
{
	char why[256];
	enum fetch_failure kind;

	if (cc == CURLE_OUT_OF_MEMORY) /* libcurl's own allocation */
		return fail(out, FETCH_FAIL_OTHER, ERR_INTERNAL, "url: out of memory");
	if (c->guard.refused && cc == CURLE_COULDNT_CONNECT)
		return fail(out, FETCH_FAIL_REFUSED, ERR_INVALID, "url: %s", FETCH_REFUSED_MESSAGE);
	if (c->http_error || (cc == CURLE_FILESIZE_EXCEEDED && out->status >= 400))
		return fail(out, FETCH_FAIL_OTHER, ERR_INVALID, "url: HTTP %ld", out->status);
	if (c->too_large || cc == CURLE_FILESIZE_EXCEEDED)
		return fail(out, FETCH_FAIL_TOO_LARGE, ERR_INVALID, "url: larger than %zu bytes", c->max);
	if (cc != CURLE_OK) {
		curl_reason(&c->guard, cc, why, sizeof(why), &kind);
		return fail(out, kind, ERR_INVALID, "%s", why);
	}
	if (out->status < 200 || out->status > 299)
		return fail(out, FETCH_FAIL_OTHER, ERR_INVALID, "url: HTTP %ld", out->status);
	return 0;
}

int fetch_guard_apply(CURL *curl, struct fetch_guard *g, long timeout_ms, size_t max_bytes)
{
	CURLcode cc = CURLE_OK;
	long connect_ms = timeout_ms < FETCH_CONNECT_TIMEOUT_MS ? timeout_ms : FETCH_CONNECT_TIMEOUT_MS;

	if (pthread_once(&curl_once, curl_init_once) != 0 || curl_init_result != CURLE_OK)
		return err_set(ERR_INTERNAL, "curl_global_init failed");
	g->refused = false;
#define SET(opt, val)                                          \
	do {                                                   \
		if (cc == CURLE_OK)                            \
			cc = curl_easy_setopt(curl, opt, val); \
	} while (0)
	SET(CURLOPT_PROTOCOLS_STR, "http,https");
	SET(CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	SET(CURLOPT_FOLLOWLOCATION, 1L);
	SET(CURLOPT_MAXREDIRS, (long)FETCH_MAX_REDIRECTS);
	SET(CURLOPT_TIMEOUT_MS, timeout_ms);
	SET(CURLOPT_CONNECTTIMEOUT_MS, connect_ms > 0 ? connect_ms : 1L);
	SET(CURLOPT_NOSIGNAL, 1L);
	SET(CURLOPT_PROXY, "");
	SET(CURLOPT_HTTP_CONTENT_DECODING, 0L);
	if (max_bytes)
		SET(CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)max_bytes);
	SET(CURLOPT_USERAGENT, "docsd/" DOCSD_VERSION);
	SET(CURLOPT_OPENSOCKETFUNCTION, on_open_socket);
	SET(CURLOPT_OPENSOCKETDATA, g);
#undef SET
	if (cc != CURLE_OK)
		return err_set(ERR_INTERNAL, "curl_easy_setopt: %s", curl_easy_strerror(cc));
	return 0;
}

static int setup(CURL *curl, const char *url, struct fetch_ctx *c, long timeout_ms)
{
	int rc = fetch_guard_apply(curl, &c->guard, timeout_ms, c->max);

	if (rc)
		return rc;
	/* Unlike Git's transport, a page or file is kept as its decoded bytes:
	 * "" offers every encoding this libcurl decodes (gzip, deflate, ...),
	 * and a server that compresses anyway (without being asked) is decoded
	 * too instead of being stored compressed. on_body() sees decoded bytes,
	 * so max_bytes caps what is kept and a gzip bomb stops there. */
	if (curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "") != CURLE_OK ||
	    curl_easy_setopt(curl, CURLOPT_HTTP_CONTENT_DECODING, 1L) != CURLE_OK ||
	    curl_easy_setopt(curl, CURLOPT_URL, url) != CURLE_OK ||
	    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body) != CURLE_OK ||
	    curl_easy_setopt(curl, CURLOPT_WRITEDATA, c) != CURLE_OK)
		return err_set(ERR_INTERNAL, "curl_easy_setopt failed");
	return 0;
}

int fetch_url(const char *url, const struct fetch_opts *opts, struct fetch_result *out)
{
	struct fetch_ctx c = { 0 };
	long timeout_ms = opts && opts->timeout_ms > 0 ? opts->timeout_ms : FETCH_DEFAULT_TIMEOUT_MS;
	const char *ct = NULL;
	CURLcode cc;
	int rc;

	memset(out, 0, sizeof(*out));
	c.guard.allow_private = opts && opts->allow_private;
	c.max = opts && opts->max_bytes ? opts->max_bytes : FETCH_DEFAULT_MAX_BYTES;
	if (c.max > SIZE_MAX / 2)
		c.max = SIZE_MAX / 2;
	if (!url || !*url) {
		rc = fail(out, FETCH_FAIL_OTHER, ERR_INVALID, "url: missing");
		goto cleanup;
	}
	if (strlen(url) > URL_MAX_LEN) {
		rc = fail(out, FETCH_FAIL_OTHER, ERR_INVALID, "url: longer than %d characters", URL_MAX_LEN);
		goto cleanup;
	}
	if (!scheme_allowed(url)) {
		rc = fail(out, FETCH_FAIL_OTHER, ERR_INVALID, "url: only http and https are allowed");
		goto cleanup;
	}
	if (pthread_once(&curl_once, curl_init_once) != 0 || curl_init_result != CURLE_OK) {
		rc = fail(out, FETCH_FAIL_OTHER, ERR_INTERNAL, "url: curl_global_init failed");
		goto cleanup;
	}
	c.curl = curl_easy_init();
	if (!c.curl) {
		rc = fail(out, FETCH_FAIL_OTHER, ERR_INTERNAL, "url: curl_easy_init failed");
		goto cleanup;
	}
	if (setup(c.curl, url, &c, timeout_ms)) {
		rc = fail(out, FETCH_FAIL_OTHER, ERR_INTERNAL, "url: %s", err_message());
		goto cleanup;
	}
	cc = curl_easy_perform(c.curl);
	if (curl_easy_getinfo(c.curl, CURLINFO_RESPONSE_CODE, &out->status) != CURLE_OK)
		out->status = 0;
	rc = outcome(&c, cc, out);
	if (rc != 0)
		goto cleanup;
	if (curl_easy_getinfo(c.curl, CURLINFO_CONTENT_TYPE, &ct) == CURLE_OK)
		set_content_type(out->content_type, ct);
	if (!c.buf) {
		c.buf = xmalloc(1); /* an empty body is still a body: data is never NULL on success */
		c.buf[0] = '\0';
	}
	{
		const char *eff = NULL;
		if (curl_easy_getinfo(c.curl, CURLINFO_EFFECTIVE_URL, &eff) != CURLE_OK || !eff)
			eff = url;
		out->url = xstrdup(eff);
	}
	out->data = c.buf;
	out->len = c.len;
	c.buf = NULL;

cleanup:
	free(c.buf);
	if (c.curl)
		curl_easy_cleanup(c.curl);
	return rc;
}

void fetch_result_free(struct fetch_result *r)
{
	if (!r)
		return;
	free(r->data);
	free(r->url);
	memset(r, 0, sizeof(*r));
}

/* ---- fetch_post (fetch.h): a request to a server the operator chose ---- */

/* Like on_body, but an error's body is kept too (the caller words it). */
static size_t on_post_body(char *ptr, size_t size, size_t nmemb, void *userdata)
{
	struct fetch_ctx *c = userdata;
	size_t n = nmemb;

	(void)size;
	if (n > c->max - c->len) {
		c->too_large = true;
		return 0;
	}
	if (c->cap - c->len < n + 1) {
		size_t need = c->len + n + 1, cap = c->cap ? c->cap * 2 : BODY_MIN_CAP;
		if (cap < need)
			cap = need;
		if (cap > c->max + 1)
			cap = c->max + 1;
		c->buf = xrealloc(c->buf, cap);
		c->cap = cap;
	}
	memcpy(c->buf + c->len, ptr, n);
	c->len += n;
	c->buf[c->len] = '\0';
	return n;
}

int fetch_post(const char *url, const char *const *headers, const char *body, size_t len,
	       const struct fetch_opts *opts, struct fetch_result *out)
{
	struct fetch_ctx c = { 0 };
	long timeout_ms = opts && opts->timeout_ms > 0 ? opts->timeout_ms : FETCH_DEFAULT_TIMEOUT_MS;
	struct curl_slist *hl = NULL;
	char why[256];
	enum fetch_failure kind;
	CURLcode cc;
	int rc;

	memset(out, 0, sizeof(*out));
	c.guard.allow_private = opts && opts->allow_private;
	c.max = opts && opts->max_bytes ? opts->max_bytes : FETCH_DEFAULT_MAX_BYTES;
	if (c.max > SIZE_MAX / 2)
		c.max = SIZE_MAX / 2;
	if (!url || !scheme_allowed(url) || strlen(url) > URL_MAX_LEN)
		return fail(out, FETCH_FAIL_OTHER, ERR_INVALID, "url: only http and https URLs are allowed");
	if (pthread_once(&curl_once, curl_init_once) != 0 || curl_init_result != CURLE_OK)
		return fail(out, FETCH_FAIL_OTHER, ERR_INTERNAL, "url: curl_global_init failed");
	if (!(c.curl = curl_easy_init()))
		return fail(out, FETCH_FAIL_OTHER, ERR_INTERNAL, "url: curl_easy_init failed");
	for (int i = 0; headers && headers[i]; i++) {
		struct curl_slist *next = curl_slist_append(hl, headers[i]);
		if (!next) {
			rc = fail(out, FETCH_FAIL_OTHER, ERR_INTERNAL, "url: out of memory (curl_slist_append)");
			goto cleanup;
		}
		hl = next;
	}
	/* A POST is not replayed to another address: no redirects. */
	if (fetch_guard_apply(c.curl, &c.guard, timeout_ms, c.max) ||
	    curl_easy_setopt(c.curl, CURLOPT_FOLLOWLOCATION, 0L) != CURLE_OK ||
	    curl_easy_setopt(c.curl, CURLOPT_URL, url) != CURLE_OK ||
	    curl_easy_setopt(c.curl, CURLOPT_WRITEFUNCTION, on_post_body) != CURLE_OK ||
	    curl_easy_setopt(c.curl, CURLOPT_WRITEDATA, &c) != CURLE_OK ||
	    (hl && curl_easy_setopt(c.curl, CURLOPT_HTTPHEADER, hl) != CURLE_OK) ||
	    (body && (curl_easy_setopt(c.curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len) != CURLE_OK ||
		      curl_easy_setopt(c.curl, CURLOPT_POSTFIELDS, body) != CURLE_OK))) {
		rc = fail(out, FETCH_FAIL_OTHER, ERR_INTERNAL, "url: curl_easy_setopt failed");
		goto cleanup;
	}
	cc = curl_easy_perform(c.curl);
	if (curl_easy_getinfo(c.curl, CURLINFO_RESPONSE_CODE, &out->status) != CURLE_OK)
		out->status = 0;
	if (cc == CURLE_OUT_OF_MEMORY) {
		rc = fail(out, FETCH_FAIL_OTHER, ERR_INTERNAL, "url: out of memory");
	} else if (c.guard.refused && cc == CURLE_COULDNT_CONNECT) {
		rc = fail(out, FETCH_FAIL_REFUSED, ERR_INVALID, "url: %s", FETCH_REFUSED_MESSAGE);
	} else if (c.too_large || cc == CURLE_FILESIZE_EXCEEDED) {
		rc = fail(out, FETCH_FAIL_TOO_LARGE, ERR_INVALID, "url: larger than %zu bytes", c.max);
	} else if (cc != CURLE_OK) {
		curl_reason(&c.guard, cc, why, sizeof(why), &kind);
		rc = fail(out, kind, ERR_INVALID, "%s", why);
	} else {
		if (!c.buf) {
			c.buf = xmalloc(1);
			c.buf[0] = '\0';
		}
		out->data = c.buf;
		out->len = c.len;
		out->url = xstrdup(url);
		c.buf = NULL;
		rc = 0;
	}

cleanup:
	free(c.buf);
	curl_slist_free_all(hl);
	curl_easy_cleanup(c.curl);
	return rc;
}
