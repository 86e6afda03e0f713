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

static void put2(char *p, unsigned v)
{
	p[0] = (char)('0' + v / 10);
	p[1] = (char)('0' + v % 10);
}

/* Hand-rolled (civil-from-days, Howard Hinnant's algorithm) rather than
 * gmtime_r + snprintf: every object carries timestamps and this runs for each
 * of them on list pages. */
void ts_format(char out[TS_LEN], int64_t ms)
{
	int64_t secs = ms / 1000, days, z, era, doe, yoe, y, doy, mp, d, m;
	int milli = (int)(ms % 1000), sod;

	if (milli < 0) {
		milli += 1000;
		secs -= 1;
	}
	days = secs / 86400;
	sod = (int)(secs % 86400);
	if (sod < 0) {
		sod += 86400;
		days -= 1;
	}
	z = days + 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	y = yoe + era * 400;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	d = doy - (153 * mp + 2) / 5 + 1;
	m = mp < 10 ? mp + 3 : mp - 9;
	y += m <= 2;
	if (y < 0 || y > 9999)
		y = y < 0 ? 0 : 9999;
	put2(out, (unsigned)(y / 100));
	put2(out + 2, (unsigned)(y % 100));
	out[4] = '-';
	put2(out + 5, (unsigned)m);
	out[7] = '-';
	put2(out + 8, (unsigned)d);
	out[10] = 'T';
	put2(out + 11, (unsigned)(sod / 3600));
	out[13] = ':';
	put2(out + 14, (unsigned)(sod / 60 % 60));
	out[16] = ':';
	put2(out + 17, (unsigned)(sod % 60));
	out[19] = '.';
	out[20] = (char)('0' + milli / 100);
	put2(out + 21, (unsigned)(milli % 100));
	out[23] = 'Z';
	out[24] = '\0';
}

int sha256_hex(char out[65], const void *data, size_t len)
{
	unsigned char md[SHA256_DIGEST_LENGTH];

	if (!SHA256(data, len, md))
		return -1;
	hex_encode(out, md, sizeof(md));
	return 0;
}

int hmac_sha256(unsigned char out[32], const void *key, size_t klen, const void *data, size_t len)
{
	unsigned int olen = 32;

	if (klen > INT32_MAX)
		return -1;
	return HMAC(EVP_sha256(), key, (int)klen, data, len, out, &olen) ? 0 : -1;
}
