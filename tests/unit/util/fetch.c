/* URL fetch: the address policy, and fetches from a tiny HTTP server on 127.0.0.1 */
#include "fixtures.h"
#include "unit.h"
#include "util/fetch.h"
#include "util/util.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

/* ---- gzip bodies, written by hand (the tests do not link zlib) ---- */

/* The text /gzip sends compressed, and what /gzip-bomb inflates to. */
#define GZIP_TEXT "# Hello\n\nDecoded *markdown*.\n"
#define BOMB_BYTES ((size_t)50 << 20)

struct bits {
	unsigned char *p;
	size_t n;
	unsigned acc;
	int nb;
};

static uint32_t crc32_of(const unsigned char *p, size_t n)
{
	uint32_t c = 0xFFFFFFFFu;

	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
	}
	return ~c;
}

static void put_byte(struct bits *b, unsigned v)
{
	b->p[b->n++] = (unsigned char)v;
}

static void put_le32(struct bits *b, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		put_byte(b, (v >> (8 * i)) & 0xFF);
}

/* Deflate's bit order: fields LSB first, Huffman codes MSB first. */
static void put_bits(struct bits *b, unsigned v, int n)
{
	for (int i = 0; i < n; i++) {
		b->acc |= ((v >> i) & 1u) << b->nb;
		if (++b->nb == 8) {
			put_byte(b, b->acc);
			b->acc = 0;
			b->nb = 0;
		}
	}
}

static void put_code(struct bits *b, unsigned code, int n)
{
	for (int i = n - 1; i >= 0; i--)
		put_bits(b, (code >> i) & 1u, 1);
}

static void gzip_header(struct bits *b)
{
	static const unsigned char h[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff };

	for (size_t i = 0; i < sizeof(h); i++)
		put_byte(b, h[i]);
}

/* GZIP_TEXT in one stored block: a valid gzip member. */
static size_t gzip_text(unsigned char *out)
{
	struct bits b = { .p = out };
	size_t n = strlen(GZIP_TEXT);

	gzip_header(&b);
	put_byte(&b, 1); /* BFINAL, stored */
	put_byte(&b, n & 0xFF), put_byte(&b, n >> 8);
	put_byte(&b, ~n & 0xFF), put_byte(&b, (~n >> 8) & 0xFF);
	memcpy(b.p + b.n, GZIP_TEXT, n);
	b.n += n;
	put_le32(&b, crc32_of((const unsigned char *)GZIP_TEXT, n));
	put_le32(&b, (uint32_t)n);
	return b.n;
}

/* BOMB_BYTES of zeros in a fixed-Huffman block: a literal 0, then copies of
 * 258 bytes at distance 1 (13 bits each), so ~320 KB inflate to 50 MB. */
static size_t gzip_bomb(unsigned char *out)
{
	struct bits b = { .p = out };

	gzip_header(&b);
	put_bits(&b, 1, 1);	   /* BFINAL */
	put_bits(&b, 1, 2);	   /* fixed Huffman codes */
	put_code(&b, 0x30, 8);	   /* literal 0 */
	for (size_t k = 0; k < (BOMB_BYTES - 1) / 258; k++) {
		put_code(&b, 0xC5, 8); /* length 258 (code 285) */
		put_code(&b, 0, 5);    /* distance 1 */
	}
	put_code(&b, 0, 7); /* end of block */
	put_bits(&b, 0, 7); /* to a byte boundary */
	put_le32(&b, 0);    /* a wrong CRC: never reached, the cap stops first */
	put_le32(&b, (uint32_t)BOMB_BYTES);
	return b.n;
}

/* ---- what the HTTP server on 127.0.0.1 (fixtures.h) answers ---- */

#define BIG_BODY 65536
#define BOMB_CAP (((BOMB_BYTES - 1) / 258) * 13 / 8 + 64)

static void send_text(int fd, const char *s)
{
	fx_send_all(fd, s, strlen(s));
}

/* Wait until the client hangs up or the server is stopped (at most 5 s). */
static void wait_for_hangup(struct fx_http *s, int fd)
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

static void serve(struct fx_http *s, int fd, const char *req, const char *path)
{
	char head[512];
	static char big[BIG_BODY];

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
		fx_send_all(fd, big, sizeof(big));
	} else if (strcmp(path, "/stream") == 0) {
		/* no Content-Length: the size is only known by reading */
		send_text(fd, "HTTP/1.0 200 OK\r\nContent-Type: image/png\r\nConnection: close\r\n\r\n");
		for (size_t off = 0; off < sizeof(big); off += 4096)
			fx_send_all(fd, big + off, 4096);
	} else if (strcmp(path, "/slow") == 0) {
		wait_for_hangup(s, fd);
	} else if (strcmp(path, "/gzip") == 0 || strcmp(path, "/gzip-bomb") == 0 || strcmp(path, "/bad-gzip") == 0) {
		/* Content-Length is the compressed size: only the decoded count can stop a bomb. */
		unsigned char *z = malloc(BOMB_CAP);
		size_t zn = 0;
		if (!z)
			return;
		if (strcmp(path, "/gzip-bomb") == 0) {
			zn = gzip_bomb(z);
		} else if (strcmp(path, "/gzip") == 0) {
			zn = gzip_text(z);
		} else {
			static const char bad[] = "\x1f\x8b not really gzip";
			memcpy(z, bad, sizeof(bad) - 1);
			zn = sizeof(bad) - 1;
		}
		snprintf(head, sizeof(head), "HTTP/1.0 200 OK\r\nContent-Type: text/markdown\r\nContent-Encoding: gzip\r\n"
					     "Content-Length: %zu\r\nConnection: close\r\n\r\n", zn);
		send_text(fd, head);
		fx_send_all(fd, z, zn);
		free(z);
	} else if (strcmp(path, "/accept-encoding") == 0) {
		/* The request's Accept-Encoding header, as the body. */
		const char *ae = strcasestr(req, "\r\naccept-encoding:");
		size_t an = ae ? strcspn(ae + 2, "\r") : 0;
		snprintf(head, sizeof(head), "HTTP/1.0 200 OK\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n", an);
		send_text(fd, head);
		if (ae)
			fx_send_all(fd, ae + 2, an);
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

static int fetch_path(struct fx_http *s, const char *path, const struct fetch_opts *o, struct fetch_result *r)
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
	struct fx_http s;
	struct fetch_result r;
	struct fetch_opts o = { .max_bytes = 1 << 20, .timeout_ms = 5000 };
	char url[128];

	CHECK(fx_http_start(&s, serve));
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
	fx_http_stop(&s);
	CHECK(atomic_load(&s.accepted) == 0);
}

UNIT_TEST(fetch_returns_body_and_content_type)
{
	struct fx_http s;
	struct fetch_result r;
	struct fetch_opts o = { .max_bytes = 1 << 20, .timeout_ms = 5000, .allow_private = true };

	CHECK(fx_http_start(&s, serve));
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
	fx_http_stop(&s);
}

UNIT_TEST(fetch_stops_at_max_bytes)
{
	struct fx_http s;
	struct fetch_result r;
	struct fetch_opts o = { .max_bytes = 1024, .timeout_ms = 5000, .allow_private = true };

	CHECK(fx_http_start(&s, serve));
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
	fx_http_stop(&s);
}

/* A compressed body is kept decoded; the cap counts decoded bytes, so a
 * gzip bomb stops at max_bytes even though its Content-Length is small. */
UNIT_TEST(fetch_decodes_gzip_and_caps_decoded_bytes)
{
	struct fx_http s;
	struct fetch_result r;
	struct fetch_opts o = { .max_bytes = 1 << 20, .timeout_ms = 10000, .allow_private = true };
	int64_t start = clock_mono_ns();

	CHECK(fx_http_start(&s, serve));
	CHECK(fetch_path(&s, "/accept-encoding", &o, &r) == 0);
	CHECK(r.data && strstr((const char *)r.data, "gzip") && strstr((const char *)r.data, "deflate"));
	fetch_result_free(&r);

	CHECK(fetch_path(&s, "/gzip", &o, &r) == 0);
	CHECK(r.data && r.len == strlen(GZIP_TEXT) && memcmp(r.data, GZIP_TEXT, r.len) == 0);
	CHECK_STR(r.content_type, "text/markdown");
	fetch_result_free(&r);

	CHECK(fetch_path(&s, "/gzip-bomb", &o, &r) < 0);
	CHECK_STR(r.error, "url: larger than 1048576 bytes");
	CHECK(r.failure == FETCH_FAIL_TOO_LARGE && r.data == NULL);
	fetch_result_free(&r);

	CHECK(fetch_path(&s, "/bad-gzip", &o, &r) < 0);
	CHECK_STR(r.error, "url: the response's Content-Encoding could not be decoded");
	fetch_result_free(&r);
	CHECK(clock_mono_ns() - start < 5000000000LL);
	fx_http_stop(&s);
}

UNIT_TEST(fetch_times_out)
{
	struct fx_http s;
	struct fetch_result r;
	struct fetch_opts o = { .max_bytes = 1024, .timeout_ms = 300, .allow_private = true };
	int64_t start = clock_mono_ns();

	CHECK(fx_http_start(&s, serve));
	CHECK(fetch_path(&s, "/slow", &o, &r) < 0);
	CHECK_STR(r.error, "url: timed out");
	CHECK(r.failure == FETCH_FAIL_TIMEOUT);
	CHECK(clock_mono_ns() - start < 3000000000LL);
	fetch_result_free(&r);
	fx_http_stop(&s);
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
