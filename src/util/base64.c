/*
 * base64.c - one base64 codec for both alphabets (base64.h): the standard
 * one with padding and a strict decoder, the URL-safe one without padding.
 */
#include "util/base64.h"

#include <limits.h>
#include <stdbool.h>

static const char std_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const char url_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

#define PAD 64 /* sextet() value of '=' (standard alphabet only) */
#define BAD 65

static unsigned sextet(unsigned char c, bool url)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == (url ? '-' : '+'))
		return 62;
	if (c == (url ? '_' : '/'))
		return 63;
	if (c == '=' && !url)
		return PAD;
	return BAD;
}

static bool is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* The k - 1 bytes of a group of k sextets (2 to 4) into out; their count, or
 * -1 when canonical is asked and a short group's unused low bits are not 0. */
static int put_group(unsigned char *out, const unsigned v[4], int k, bool canonical)
{
	out[0] = (unsigned char)(v[0] << 2 | v[1] >> 4);
	if (k == 2)
		return canonical && (v[1] & 0x0F) ? -1 : 1;
	out[1] = (unsigned char)((v[1] & 0x0F) << 4 | v[2] >> 2);
	if (k == 3)
		return canonical && (v[2] & 0x03) ? -1 : 2;
	out[2] = (unsigned char)((v[2] & 0x03) << 6 | v[3]);
	return 3;
}

/* Standard: whitespace skipped, whole padded groups, canonical bits. URL: no
 * whitespace or padding; a last group of 2 or 3 sextets stands unpadded. */
static long decode(unsigned char *out, const char *in, size_t n, bool url)
{
	unsigned v[4];
	size_t o = 0;
	int q = 0, got;
	bool ended = false; /* a padded group was seen: only whitespace may follow */

	if (n / 4 > (size_t)LONG_MAX / 3)
		return -1;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)in[i];
		if (!url && is_space(c))
			continue;
		v[q] = sextet(c, url);
		if (ended || v[q] == BAD)
			return -1;
		if (++q < 4)
			continue;
		q = 0;
		if (v[0] == PAD || v[1] == PAD || (v[2] == PAD && v[3] != PAD))
			return -1;
		got = v[2] == PAD ? 2 : v[3] == PAD ? 3 : 4;
		if ((got = put_group(out + o, v, got, true)) < 0)
			return -1;
		o += (size_t)got;
		ended = got < 3;
	}
	if (q == 0)
		return (long)o;
	if (!url || q == 1)
		return -1;
	return (long)o + put_group(out + o, v, q, false);
}

static size_t encode(char *out, const void *in, size_t n, const char *alphabet, bool pad)
{
	const unsigned char *p = in;
	size_t o = 0, i = 0;

	for (; n - i >= 3; i += 3) {
		out[o++] = alphabet[p[i] >> 2];
		out[o++] = alphabet[(p[i] & 0x03) << 4 | p[i + 1] >> 4];
		out[o++] = alphabet[(p[i + 1] & 0x0F) << 2 | p[i + 2] >> 6];
		out[o++] = alphabet[p[i + 2] & 0x3F];
	}
	if (n - i == 1) {
		out[o++] = alphabet[p[i] >> 2];
		out[o++] = alphabet[(p[i] & 0x03) << 4];
		if (pad) {
			out[o++] = '=';
			out[o++] = '=';
		}
	} else if (n - i == 2) {
		out[o++] = alphabet[p[i] >> 2];
		out[o++] = alphabet[(p[i] & 0x03) << 4 | p[i + 1] >> 4];
		out[o++] = alphabet[(p[i + 1] & 0x0F) << 2];
		if (pad)
			out[o++] = '=';
	}
	out[o] = '\0';
	return o;
}

size_t base64_decoded_max(size_t n)
{
	return n / 4 * 3;
}

long base64_decode(unsigned char *out, const char *in, size_t n)
{
	return decode(out, in, n, false);
}

size_t base64_encoded_len(size_t n)
{
	return (n + 2) / 3 * 4;
}

void base64_encode(char *out, const void *in, size_t n)
{
	encode(out, in, n, std_alphabet, true);
}

size_t base64url_len(size_t n)
{
	return (n / 3) * 4 + (n % 3 ? n % 3 + 1 : 0);
}

void base64url_encode(char *out, const void *in, size_t n)
{
	encode(out, in, n, url_alphabet, false);
}

long base64url_decode(unsigned char *out, const char *in, size_t n)
{
	return decode(out, in, n, true);
}
