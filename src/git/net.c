/*
 * net.c - Git's smart HTTP over guarded libcurl transfers (net.h).
 *
 * A stream is one HTTP request. libgit2 asks for one per step (action()):
 * the ref advertisement is a GET of <url>/info/refs?service=<service>; each
 * negotiation round and the push a POST of <url>/<service> whose body is
 * what libgit2 wrote to the stream. The request body is buffered (libgit2
 * writes it whole before reading: small for a fetch, the pack for a push,
 * bounded by GITNET_MAX_PUSH_BYTES); the response is streamed: read() drives
 * curl's multi interface until some bytes arrived, so a large pack never
 * sits in memory whole (libgit2's indexer writes it to disk as it comes).
 *
 * Failures are worded once (struct gitnet.error) and given to libgit2 as
 * its error, so the caller reports the first reason: the address refused,
 * the deadline passed, the size cap, authentication, an HTTP status, or a
 * server that does not speak Git's smart HTTP.
 */
#include "git/net.h"
#include "util/alloc.h"
#include "util/err.h"
#include "util/fetch.h"
#include "util/util.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define RESP_MIN_CAP ((size_t)64 << 10)

struct sub {
	git_smart_subtransport parent;
	git_transport *owner;
	struct gitnet *net;
};

struct stream {
	git_smart_subtransport_stream parent;
	struct sub *sub;
	char *url;                /* the request's URL */
	git_smart_service_t service;
	bool post;
	char *req;                /* POST body so far */
	size_t req_len, req_cap;
	CURLM *multi;
	CURL *easy;
	struct curl_slist *headers;
	struct fetch_guard guard;
	char *resp;               /* received, not yet read */
	size_t resp_len, resp_off, resp_cap;
	bool started, done, checked, failed;
	CURLcode result;
};

void gitnet_init(struct gitnet *n, bool allow_private, long long timeout_ms, size_t max_bytes, const char *user,
		 const char *password)
{
	memset(n, 0, sizeof(*n));
	n->allow_private = allow_private;
	n->deadline_ns = clock_mono_ns() + (timeout_ms > 0 ? timeout_ms : GITNET_TIMEOUT_MS) * 1000000LL;
	n->max_bytes = max_bytes ? max_bytes : GITNET_MAX_BYTES;
	n->user = user;
	n->password = password;
}

/* Record the first failure's reason and hand it to libgit2: -1. */
static int net_fail(struct gitnet *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int net_fail(struct gitnet *n, const char *fmt, ...)
{
	va_list ap;

	if (!n->error[0]) {
		va_start(ap, fmt);
		vsnprintf(n->error, sizeof(n->error), fmt, ap);
		va_end(ap);
	}
	git_error_set_str(GIT_ERROR_NET, n->error);
	return -1;
}

static const char *service_name(git_smart_service_t s)
{
	return s == GIT_SERVICE_UPLOADPACK_LS || s == GIT_SERVICE_UPLOADPACK ? "git-upload-pack" : "git-receive-pack";
}

/* The response's first bytes: the status and, for an advertisement, the
 * content type say whether this is a Git smart HTTP answer. false stops the
 * transfer (the reason is recorded). */
static bool check_response(struct stream *st)
{
	struct gitnet *n = st->sub->net;
	long status = 0;
	const char *ct = NULL;
	char want[64];

	if (curl_easy_getinfo(st->easy, CURLINFO_RESPONSE_CODE, &status) != CURLE_OK)
		status = 0;
	if (status == 401 || status == 403) {
		net_fail(n, "url: authentication failed (HTTP %ld): check the credentials in the URL", status);
		return false;
	}
	if (status == 404) {
		net_fail(n, "url: no Git repository there (HTTP 404)");
		return false;
	}
	if (status < 200 || status > 299) {
		n->transient = status >= 500 || status == 408 || status == 429;
		net_fail(n, "url: HTTP %ld", status);
		return false;
	}
	snprintf(want, sizeof(want), "application/x-%s-%s", service_name(st->service),
		 st->post ? "result" : "advertisement");
	if (curl_easy_getinfo(st->easy, CURLINFO_CONTENT_TYPE, &ct) != CURLE_OK || !ct ||
	    strncasecmp(ct, want, strlen(want)) != 0) {
		net_fail(n, "url: not a Git repository served over smart HTTP (the answer is not %s)", want);
		return false;
	}
	return true;
}

static size_t on_data(char *p, size_t size, size_t nmemb, void *ud)
{
	struct stream *st = ud;
	struct gitnet *n = st->sub->net;
	size_t len = nmemb;

	(void)size; /* always 1 */
	if (!st->checked) {
		if (!check_response(st)) {
			st->failed = true;
			return 0;
		}
		st->checked = true;
	}
	if (len > n->max_bytes - n->received) {
		net_fail(n, "url: the repository sent more than %zu MB", n->max_bytes >> 20);
		st->failed = true;
		return 0;
	}
	n->received += len;
	if (st->resp_off == st->resp_len)
		st->resp_off = st->resp_len = 0;
	if (st->resp_cap - st->resp_len < len) {
		size_t need = st->resp_len + len, cap = st->resp_cap ? st->resp_cap : RESP_MIN_CAP;
		while (cap < need)
			cap *= 2;
		st->resp = xrealloc(st->resp, cap);
		st->resp_cap = cap;
	}
	memcpy(st->resp + st->resp_len, p, len);
	st->resp_len += len;
	return len;
}

static int start(struct stream *st)
{
	struct gitnet *n = st->sub->net;
	long long left_ms = (n->deadline_ns - clock_mono_ns()) / 1000000LL;
	char ctype[80], accept[80];
	CURLcode cc = CURLE_OK;

	st->started = true;
	if (left_ms <= 0)
		return net_fail(n, "url: timed out");
	if (!(st->multi = curl_multi_init()) || !(st->easy = curl_easy_init()))
		return net_fail(n, "out of memory");
	st->guard.allow_private = n->allow_private;
	/* No Content-Length cap: the total is counted in on_data. */
	if (fetch_guard_apply(st->easy, &st->guard, (long)left_ms, 0))
		return net_fail(n, "cannot set up the transfer");
	if (st->post) {
		/* Expect: off: a server that does not answer 100-continue would
		 * cost a second of waiting per request. */
		const char *lines[3] = { ctype, accept, "Expect:" };
		snprintf(ctype, sizeof(ctype), "Content-Type: application/x-%s-request", service_name(st->service));
		snprintf(accept, sizeof(accept), "Accept: application/x-%s-result", service_name(st->service));
		for (int i = 0; i < 3; i++) {
			struct curl_slist *h = curl_slist_append(st->headers, lines[i]);
			if (!h)
				return net_fail(n, "out of memory");
			st->headers = h;
		}
	}
#define SET(opt, val)                                              \
	do {                                                       \
		if (cc == CURLE_OK)                                \
			cc = curl_easy_setopt(st->easy, opt, val); \
	} while (0)
	SET(CURLOPT_URL, st->url);
	SET(CURLOPT_USERAGENT, "git/2.39 (docsd)");
	SET(CURLOPT_HTTPHEADER, st->headers);
	SET(CURLOPT_WRITEFUNCTION, on_data);
	SET(CURLOPT_WRITEDATA, st);
	if (st->post) {
		SET(CURLOPT_POST, 1L);
		SET(CURLOPT_POSTFIELDS, st->req ? st->req : "");
		SET(CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)st->req_len);
	}
	if (n->user) {
		/* Basic authentication, sent with the first request; curl does not
		 * send it on to another host after a redirect. */
		SET(CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
		SET(CURLOPT_USERNAME, n->user);
		SET(CURLOPT_PASSWORD, n->password ? n->password : "");
	}
#undef SET
	if (cc != CURLE_OK)
		return net_fail(n, "cannot set up the transfer (%s)", curl_easy_strerror(cc));
	if (curl_multi_add_handle(st->multi, st->easy) != CURLM_OK)
		return net_fail(n, "cannot start the transfer");
	return 0;
}

/* The transfer ended: 0 when it succeeded, else the reason (-1). */
static int finished(struct stream *st)
{
	struct gitnet *n = st->sub->net;
	char why[256];

	if (st->failed || n->error[0])
		return net_fail(n, "%s", n->error[0] ? n->error : "url: transfer failed");
	if (st->result != CURLE_OK) {
		enum fetch_failure kind = FETCH_FAIL_OTHER;
		const char *reason = fetch_guard_reason(&st->guard, st->result, why, sizeof(why), &kind);
		/* The network or the remote, for now (never a refused address). */
		CURLcode cc = st->result;
		if (!n->error[0] && kind != FETCH_FAIL_REFUSED)
			n->transient = cc == CURLE_OPERATION_TIMEDOUT || cc == CURLE_COULDNT_RESOLVE_HOST ||
				       cc == CURLE_COULDNT_CONNECT || cc == CURLE_RECV_ERROR || cc == CURLE_SEND_ERROR ||
				       cc == CURLE_GOT_NOTHING || cc == CURLE_PARTIAL_FILE;
		return net_fail(n, "%s", reason);
	}
	if (!st->checked && !check_response(st)) /* an empty body */
		return -1;
	return 0;
}

static int stream_read(git_smart_subtransport_stream *s, char *buf, size_t size, size_t *bytes_read)
{
	struct stream *st = (struct stream *)s;
	struct gitnet *n = st->sub->net;

	*bytes_read = 0;
	if (!st->started && start(st) < 0)
		return -1;
	for (;;) {
		int running = 0, queued = 0;
		CURLMsg *m;

		if (st->resp_off < st->resp_len) {
			size_t k = st->resp_len - st->resp_off < size ? st->resp_len - st->resp_off : size;
			memcpy(buf, st->resp + st->resp_off, k);
			st->resp_off += k;
			*bytes_read = k;
			return 0;
		}
		if (st->done)
			return finished(st);
		if (curl_multi_perform(st->multi, &running) != CURLM_OK)
			return net_fail(n, "url: transfer failed");
		while ((m = curl_multi_info_read(st->multi, &queued)))
			if (m->msg == CURLMSG_DONE && m->easy_handle == st->easy) {
				st->done = true;
				st->result = m->data.result;
			}
		if (st->resp_off < st->resp_len || st->done)
			continue;
		if (curl_multi_poll(st->multi, NULL, 0, 1000, NULL) != CURLM_OK)
			return net_fail(n, "url: transfer failed");
	}
}

static int stream_write(git_smart_subtransport_stream *s, const char *buf, size_t len)
{
	struct stream *st = (struct stream *)s;
	struct gitnet *n = st->sub->net;

	if (!st->post || st->started)
		return net_fail(n, "internal: write to a stream already sent");
	if (len > GITNET_MAX_PUSH_BYTES - st->req_len)
		return net_fail(n, "url: the push is larger than %zu MB", GITNET_MAX_PUSH_BYTES >> 20);
	if (st->req_cap - st->req_len < len) {
		size_t need = st->req_len + len, cap = st->req_cap ? st->req_cap : RESP_MIN_CAP;
		while (cap < need)
			cap *= 2;
		st->req = xrealloc(st->req, cap);
		st->req_cap = cap;
	}
	memcpy(st->req + st->req_len, buf, len);
	st->req_len += len;
	return 0;
}

static void stream_free(git_smart_subtransport_stream *s)
{
	struct stream *st = (struct stream *)s;

	if (!st)
		return;
	if (st->multi && st->easy)
		curl_multi_remove_handle(st->multi, st->easy);
	if (st->easy)
		curl_easy_cleanup(st->easy);
	if (st->multi)
		curl_multi_cleanup(st->multi);
	curl_slist_free_all(st->headers);
	free(st->req);
	free(st->resp);
	free(st->url);
	free(st);
}

static int sub_action(git_smart_subtransport_stream **out, git_smart_subtransport *t, const char *url,
		      git_smart_service_t action)
{
	struct sub *sub = (struct sub *)t;
	struct stream *st;
	size_t ul = strlen(url);
	int n;

	*out = NULL;
	st = xcalloc(1, sizeof(*st));
	st->parent.subtransport = t;
	st->parent.read = stream_read;
	st->parent.write = stream_write;
	st->parent.free = stream_free;
	st->sub = sub;
	st->service = action;
	st->post = action == GIT_SERVICE_UPLOADPACK || action == GIT_SERVICE_RECEIVEPACK;
	while (ul > 0 && url[ul - 1] == '/')
		ul--;
	st->url = xmalloc(ul + 64);
	if (st->post)
		n = snprintf(st->url, ul + 64, "%.*s/%s", (int)ul, url, service_name(action));
	else
		n = snprintf(st->url, ul + 64, "%.*s/info/refs?service=%s", (int)ul, url, service_name(action));
	if (n < 0) {
		stream_free(&st->parent);
		return net_fail(sub->net, "url: cannot build the request URL");
	}
	*out = &st->parent;
	return 0;
}

static int sub_close(git_smart_subtransport *t)
{
	(void)t;
	return 0;
}

static void sub_free(git_smart_subtransport *t)
{
	free(t);
}

static int sub_new(git_smart_subtransport **out, git_transport *owner, void *param)
{
	struct sub *s = xcalloc(1, sizeof(*s));

	s->parent.action = sub_action;
	s->parent.close = sub_close;
	s->parent.free = sub_free;
	s->owner = owner;
	s->net = param;
	*out = &s->parent;
	return 0;
}

int gitnet_transport(git_transport **out, git_remote *owner, void *payload)
{
	struct gitnet *n = payload;
	const char *url = git_remote_url(owner);

	if (!n || !url) {
		git_error_set_str(GIT_ERROR_NET, "no network context");
		return -1;
	}
	if (strncasecmp(url, "file://", 7) == 0)
		return git_transport_local(out, owner, NULL);
	if (strncasecmp(url, "http://", 7) != 0 && strncasecmp(url, "https://", 8) != 0)
		return net_fail(n, "url: only http and https Git remotes are supported");
	n->def.callback = sub_new;
	n->def.rpc = 1;
	n->def.param = n;
	return git_transport_smart(out, owner, &n->def);
}

/* A transport that refuses: what libgit2 gets for http(s) when a caller did
 * not pass gitnet_transport. */
static int refuse_transport(git_transport **out, git_remote *owner, void *param)
{
	(void)out;
	(void)owner;
	(void)param;
	git_error_set_str(GIT_ERROR_NET, "network access outside docsd's guarded transport is refused");
	return -1;
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int init_result = -1;

static void init_libgit2(void)
{
	if (git_libgit2_init() < 0)
		return;
	if (git_transport_register("http://", refuse_transport, NULL) < 0 ||
	    git_transport_register("https://", refuse_transport, NULL) < 0)
		return;
	init_result = 0;
}

int gitnet_global_init(void)
{
	if (pthread_once(&init_once, init_libgit2) != 0 || init_result != 0)
		return err_set(ERR_INTERNAL, "libgit2 initialisation failed");
	return 0;
}
