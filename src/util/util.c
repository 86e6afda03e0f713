#include "util/util.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

static const char alnum[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

int random_alnum(char *out, size_t n)
{
	unsigned char buf[256];
	size_t got = 0, i = 0;

	if (n >= sizeof(buf))
		return -1;
	/* Rejection sampling keeps the 62 symbols uniform: bytes >= 248 are redrawn. */
	while (i < n) {
		if (got == 0) {
			ssize_t r = getrandom(buf, sizeof(buf), 0);
			if (r < 0) {
				if (errno == EINTR)
					continue;
				return -1;
			}
			got = (size_t)r;
		}
		unsigned char b = buf[--got];
		if (b < 248)
			out[i++] = alnum[b % 62];
	}
	out[n] = '\0';
	return 0;
}

int id_new(char out[ID_LEN + 1])
{
	return random_alnum(out, ID_LEN);
}

int id_valid(const char *s)
{
	size_t n = 0;

	if (!s)
		return 0;
	for (; s[n]; n++) {
		char c = s[n];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
			return 0;
		if (n >= 64)
			return 0;
	}
	return n > 0;
}

/* The test offset is process configuration set once at start (DOCSD_CLOCK_OFFSET_MS),
 * read by every rule that depends on time; atomic because any thread reads it. */
static _Atomic int64_t clock_offset_ms;

void clock_set_offset(int64_t ms)
{
	atomic_store(&clock_offset_ms, ms);
}

int64_t clock_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 + atomic_load(&clock_offset_ms);
}

int64_t clock_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void ts_format(char out[TS_LEN], int64_t ms)
{
	time_t secs = (time_t)(ms / 1000);
	int milli = (int)(ms % 1000);
	struct tm tm;

	if (milli < 0) {
		milli += 1000;
		secs -= 1;
	}
	gmtime_r(&secs, &tm);
	snprintf(out, TS_LEN, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", (tm.tm_year + 1900) % 10000,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, milli);
}

int sha256_hex(char out[65], const void *data, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char md[SHA256_DIGEST_LENGTH];

	if (!SHA256(data, len, md))
		return -1;
	for (int i = 0; i < SHA256_DIGEST_LENGTH; i++) {
		out[2 * i] = hex[md[i] >> 4];
		out[2 * i + 1] = hex[md[i] & 15];
	}
	out[64] = '\0';
	return 0;
}

int hmac_sha256(unsigned char out[32], const void *key, size_t klen, const void *data, size_t len)
{
	unsigned int olen = 32;

	if (klen > INT32_MAX)
		return -1;
	return HMAC(EVP_sha256(), key, (int)klen, data, len, out, &olen) ? 0 : -1;
}

static const char b64u[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

size_t base64url_len(size_t n)
{
	return (n / 3) * 4 + (n % 3 ? n % 3 + 1 : 0);
}

void base64url_encode(char *out, const void *in, size_t n)
{
	const unsigned char *p = in;
	size_t i, o = 0;

	for (i = 0; i + 2 < n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
		out[o++] = b64u[v >> 18];
		out[o++] = b64u[(v >> 12) & 63];
		out[o++] = b64u[(v >> 6) & 63];
		out[o++] = b64u[v & 63];
	}
	if (n - i == 1) {
		uint32_t v = (uint32_t)p[i] << 16;
		out[o++] = b64u[v >> 18];
		out[o++] = b64u[(v >> 12) & 63];
	} else if (n - i == 2) {
		uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8;
		out[o++] = b64u[v >> 18];
		out[o++] = b64u[(v >> 12) & 63];
		out[o++] = b64u[(v >> 6) & 63];
	}
	out[o] = '\0';
}

static int b64u_val(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '-')
		return 62;
	if (c == '_')
		return 63;
	return -1;
}

long base64url_decode(unsigned char *out, const char *in, size_t n)
{
	uint32_t acc = 0;
	int bits = 0;
	long o = 0;

	if (n % 4 == 1)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int v = b64u_val(in[i]);
		if (v < 0)
			return -1;
		acc = (acc << 6) | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[o++] = (unsigned char)(acc >> bits);
		}
	}
	return o;
}

long utf8_len(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	long n = 0;

	while (*p) {
		int extra;
		if (*p < 0x80)
			extra = 0;
		else if ((*p & 0xE0) == 0xC0 && *p >= 0xC2)
			extra = 1;
		else if ((*p & 0xF0) == 0xE0)
			extra = 2;
		else if ((*p & 0xF8) == 0xF0 && *p <= 0xF4)
			extra = 3;
		else
			return -1;
		p++;
		for (int i = 0; i < extra; i++, p++)
			if ((*p & 0xC0) != 0x80)
				return -1;
		n++;
	}
	return n;
}
