/* URL fetch: the address policy, and fetches from a tiny HTTP server on 127.0.0.1 */
#include "unit.h"
#include "util/fetch.h"
#include "util/util.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

static bool is_private(const char *text)
{
	struct sockaddr_storage ss = { 0 };
	struct sockaddr_in *in = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;

	if (inet_pton(AF_INET, text, &in->sin_addr) == 1) {
		in->sin_family = AF_INET;
	} else {
		CHECK(inet_pton(AF_INET6, text, &in6->sin6_addr) == 1);
		in6->sin6_family = AF_INET6;
	}
	return fetch_addr_is_private((struct sockaddr *)&ss);
}

UNIT_TEST(fetch_private_address_table)
{
	static const struct {
		const char *addr;
		bool private;
	} cases[] = {
		{ "127.0.0.1", true },     { "127.255.0.9", true }, { "10.1.2.3", true },       { "172.16.0.1", true },
		{ "172.31.255.255", true }, { "172.32.0.1", false }, { "192.168.1.1", true },     { "169.254.1.1", true },
		{ "169.254.169.254", true }, { "100.64.0.1", true },  { "100.127.255.1", true },  { "100.128.0.1", false },
		{ "0.0.0.0", true },       { "224.0.0.1", true },   { "255.255.255.255", true }, { "8.8.8.8", false },
		{ "1.1.1.1", false },      { "::1", true },         { "::", true },             { "fe80::1", true },
		{ "febf::1", true },       { "fc00::1", true },     { "fd12:3456::1", true },   { "ff02::1", true },
		{ "::ffff:127.0.0.1", true }, { "::ffff:10.0.0.1", true }, { "::ffff:8.8.8.8", false },
		{ "64:ff9b::a00:1", true }, { "64:ff9b::808:808", false }, { "2002:c0a8:101::1", true },
		{ "2002:808:808::1", false }, { "2001:4860::1", false }, { "2606:4700::1111", false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (is_private(cases[i].addr) != cases[i].private)
			unit_fail(__FILE__, __LINE__, cases[i].addr);
	}
	struct sockaddr un = { .sa_family = AF_UNIX };
	CHECK(fetch_addr_is_private(&un));
	CHECK(fetch_addr_is_private(NULL));
}

/* ---- a one-connection-at-a-time HTTP/1.0 server on 127.0.0.1 ---- */

#define BIG_BODY 65536

struct test_server {
	int listen_fd;
	int stop[2]; /* a byte written to stop[1] ends the thread */
	int port;
	atomic_int accepted;
	pthread_t thread;
};

static void send_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n > 0) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

static void send_text(int fd, const char *s)
{
	send_all(fd, s, strlen(s));
}

/* Wait until the client hangs up or the server is stopped (at most 5 s). */
static void wait_for_hangup(struct test_server *s, int fd)
{
	char buf[256];

	for (int i = 0; i < 50; i++) {
		struct pollfd p[2] = { { .fd = fd, .events = POLLIN }, { .fd = s->stop[0], .events = POLLIN } };
		if (poll(p, 2, 100) < 0 || p[1].revents)
			return;
		if (p[0].revents && recv(fd, buf, sizeof(buf), 0) <= 0)
			return;
	}
}

static void serve_one(struct test_server *s, int fd)
{
	char req[4096], path[256], head[512];
	static char big[BIG_BODY];
	size_t n = 0;

	while (n < sizeof(req) - 1) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		if (poll(&p, 1, 2000) <= 0)
			return;
		ssize_t r = recv(fd, req + n, sizeof(req) - 1 - n, 0);
		if (r <= 0)
			return;
		n += (size_t)r;
		req[n] = '\0';
		if (strstr(req, "\r\n\r\n"))
			break;
	}
	if (sscanf(req, "GET %255s ", path) != 1)
		return;
	memset(big, 'x', sizeof(big));
	if (strcmp(path, "/small") == 0) {
		send_text(fd, "HTTP/1.0 200 OK\r\nContent-Type: Text/Plain; charset=UTF-8\r\nContent-Length: 13\r\n"
			      "Connection: close\r\n\r\nhello, docsd\n");
	} else if (strcmp(path, "/empty") == 0) {
		send_text(fd, "HTTP/1.0 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
	} else if (strcmp(path, "/large") == 0) {
		snprintf(head, sizeof(head), "HTTP/1.0 200 OK\r\nContent-Type: image/png\r\nContent-Length: %d\r\n"
					     "Connection: close\r\n\r\n", BIG_BODY);
		send_text(fd, head);
		send_all(fd, big, sizeof(big));
	} else if (strcmp(path, "/stream") == 0) {
		/* no Content-Length: the size is only known by reading */
		send_text(fd, "HTTP/1.0 200 OK\r\nContent-Type: image/png\r\nConnection: close\r\n\r\n");
		for (size_t off = 0; off < sizeof(big); off += 4096)
			send_all(fd, big + off, 4096);
	} else if (strcmp(path, "/slow") == 0) {
		wait_for_hangup(s, fd);
	} else if (strcmp(path, "/redirect") == 0) {
		send_text(fd, "HTTP/1.0 302 Found\r\nLocation: /small\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
	} else if (strcmp(path, "/loop") == 0) {
		send_text(fd, "HTTP/1.0 302 Found\r\nLocation: /loop\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
	} else if (strcmp(path, "/to-file") == 0) {
		send_text(fd, "HTTP/1.0 302 Found\r\nLocation: file:///etc/passwd\r\nContent-Length: 0\r\n"
			      "Connection: close\r\n\r\n");
	} else {
		send_text(fd, "HTTP/1.0 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n"
			      "Connection: close\r\n\r\nnope\n");
	}
}

static void *server_main(void *arg)
{
	struct test_server *s = arg;

	for (int i = 0; i < 64; i++) {
		struct pollfd p[2] = { { .fd = s->listen_fd, .events = POLLIN }, { .fd = s->stop[0], .events = POLLIN } };
		if (poll(p, 2, 10000) <= 0 || p[1].revents)
			break;
		int fd = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		atomic_fetch_add(&s->accepted, 1);
		struct timeval tv = { .tv_sec = 2 };
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		serve_one(s, fd);
		close(fd);
	}
	return NULL;
}

static bool server_start(struct test_server *s)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(a);

	memset(s, 0, sizeof(*s));
	s->listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s->listen_fd < 0)
		return false;
	if (bind(s->listen_fd, (struct sockaddr *)&a, sizeof(a)) != 0 || listen(s->listen_fd, 8) != 0 ||
	    getsockname(s->listen_fd, (struct sockaddr *)&a, &alen) != 0 || pipe(s->stop) != 0) {
		close(s->listen_fd);
		return false;
	}
	s->port = ntohs(a.sin_port);
	if (pthread_create(&s->thread, NULL, server_main, s) != 0) {
		close(s->listen_fd);
		close(s->stop[0]);
		close(s->stop[1]);
		return false;
	}
	return true;
}

static void server_stop(struct test_server *s)
{
	if (write(s->stop[1], "x", 1) != 1)
		return;
	pthread_join(s->thread, NULL);
	close(s->listen_fd);
	close(s->stop[0]);
	close(s->stop[1]);
}

static int fetch_path(struct test_server *s, const char *path, const struct fetch_opts *o, struct fetch_result *r)
{
	char url[128];

	snprintf(url, sizeof(url), "http://127.0.0.1:%d%s", s->port, path);
	return fetch_url(url, o, r);
}

/* Refused, and the message says so without the address a name resolved to:
 * naming it would make the refusal a DNS oracle for internal names. */
static void check_refused(const struct fetch_result *r)
{
	CHECK_STR(r->error, "url: the URL's host is not allowed (private, loopback or reserved address)");
	CHECK(r->failure == FETCH_FAIL_REFUSED);
	CHECK(strstr(r->error, "127.0.0.1") == NULL && strstr(r->error, "::1") == NULL);
	CHECK(r->data == NULL);
}

UNIT_TEST(fetch_refuses_loopback_before_connecting)
{
	struct test_server s;
	struct fetch_result r;
	struct fetch_opts o = { .max_bytes = 1 << 20, .timeout_ms = 5000 };
	char url[128];

	CHECK(server_start(&s));
	CHECK(fetch_path(&s, "/small", &o, &r) < 0);
	check_refused(&r);
	fetch_result_free(&r);
	snprintf(url, sizeof(url), "http://localhost:%d/small", s.port);
	CHECK(fetch_url(url, &o, &r) < 0);
	check_refused(&r);
	fetch_result_free(&r);
	snprintf(url, sizeof(url), "http://[::1]:%d/small", s.port);
	CHECK(fetch_url(url, &o, &r) < 0);
	check_refused(&r);
	fetch_result_free(&r);
	CHECK(fetch_url(url, NULL, &r) < 0); /* the defaults refuse too */
	check_refused(&r);
	fetch_result_free(&r);
	server_stop(&s);
	CHECK(atomic_load(&s.accepted) == 0);
}

UNIT_TEST(fetch_returns_body_and_content_type)
{
	struct test_server s;
	struct fetch_result r;
	struct fetch_opts o = { .max_bytes = 1 << 20, .timeout_ms = 5000, .allow_private = true };

	CHECK(server_start(&s));
	CHECK(fetch_path(&s, "/small", &o, &r) == 0);
	CHECK(r.len == 13 && r.data && memcmp(r.data, "hello, docsd\n", 13) == 0);
	CHECK_STR(r.content_type, "text/plain");
	CHECK(r.status == 200);
	CHECK_STR(r.error, "");
	fetch_result_free(&r);
	CHECK(r.data == NULL && r.len == 0);

	CHECK(fetch_path(&s, "/redirect", &o, &r) == 0);
	CHECK(r.len == 13 && r.data && memcmp(r.data, "hello, docsd\n", 13) == 0);
	/* the URL the body came from: where the redirect led */
	CHECK(r.url && strlen(r.url) > 6 && strcmp(r.url + strlen(r.url) - 6, "/small") == 0);
	fetch_result_free(&r);
	CHECK(r.url == NULL);

	CHECK(fetch_path(&s, "/empty", &o, &r) == 0);
	CHECK(r.len == 0 && r.data != NULL);
	CHECK_STR(r.content_type, "");
	fetch_result_free(&r);

	CHECK(fetch_path(&s, "/stream", &o, &r) == 0);
	CHECK(r.len == BIG_BODY);
	CHECK_STR(r.content_type, "image/png");
	fetch_result_free(&r);

	CHECK(fetch_path(&s, "/missing", &o, &r) < 0);
	CHECK_STR(r.error, "url: HTTP 404");
	CHECK(r.status == 404 && r.data == NULL);
	fetch_result_free(&r);

	CHECK(fetch_path(&s, "/loop", &o, &r) < 0);
	CHECK_STR(r.error, "url: more than 3 redirects");
	fetch_result_free(&r);

	CHECK(fetch_path(&s, "/to-file", &o, &r) < 0);
	CHECK_STR(r.error, "url: only http and https are allowed");
	fetch_result_free(&r);
	server_stop(&s);
}

UNIT_TEST(fetch_stops_at_max_bytes)
{
	struct test_server s;
	struct fetch_result r;
	struct fetch_opts o = { .max_bytes = 1024, .timeout_ms = 5000, .allow_private = true };

	CHECK(server_start(&s));
	CHECK(fetch_path(&s, "/large", &o, &r) < 0); /* Content-Length says so */
	CHECK_STR(r.error, "url: larger than 1024 bytes");
	CHECK(r.failure == FETCH_FAIL_TOO_LARGE);
	CHECK(r.data == NULL);
	fetch_result_free(&r);
	CHECK(fetch_path(&s, "/stream", &o, &r) < 0); /* found out while reading */
	CHECK_STR(r.error, "url: larger than 1024 bytes");
	CHECK(r.failure == FETCH_FAIL_TOO_LARGE);
	fetch_result_free(&r);
	o.max_bytes = BIG_BODY;
	CHECK(fetch_path(&s, "/stream", &o, &r) == 0); /* exactly the limit fits */
	CHECK(r.len == BIG_BODY);
	fetch_result_free(&r);
	server_stop(&s);
}

UNIT_TEST(fetch_times_out)
{
	struct test_server s;
	struct fetch_result r;
	struct fetch_opts o = { .max_bytes = 1024, .timeout_ms = 300, .allow_private = true };
	int64_t start = clock_mono_ns();

	CHECK(server_start(&s));
	CHECK(fetch_path(&s, "/slow", &o, &r) < 0);
	CHECK_STR(r.error, "url: timed out");
	CHECK(r.failure == FETCH_FAIL_TIMEOUT);
	CHECK(clock_mono_ns() - start < 3000000000LL);
	fetch_result_free(&r);
	server_stop(&s);
}

UNIT_TEST(fetch_refuses_other_schemes)
{
	static const char *urls[] = { "ftp://127.0.0.1/x", "file:///etc/passwd", "gopher://127.0.0.1/",
				      "dict://127.0.0.1:11211/stat", "127.0.0.1/x", "httpx://127.0.0.1/" };
	struct fetch_opts o = { .max_bytes = 1024, .timeout_ms = 1000, .allow_private = true };
	struct fetch_result r;

	for (size_t i = 0; i < sizeof(urls) / sizeof(urls[0]); i++) {
		CHECK(fetch_url(urls[i], &o, &r) < 0);
		CHECK_STR(r.error, "url: only http and https are allowed");
		fetch_result_free(&r);
	}
	CHECK(fetch_url("", &o, &r) < 0);
	CHECK_STR(r.error, "url: missing");
	fetch_result_free(&r);
	fetch_result_free(NULL);
}
