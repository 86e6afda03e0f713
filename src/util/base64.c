/*
 * base64.c - standard base64 with padding; strict decoder (see base64.h).
 */
#include "util/base64.h"

#include <limits.h>
#include <stdbool.h>

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

#define PAD 64 /* sextet() value of '=' */
#define BAD 65

static unsigned sextet(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	if (c == '=')
		return PAD;
	return BAD;
}

static bool is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

size_t base64_decoded_max(size_t n)
{
	return n / 4 * 3;
}

long base64_decode(unsigned char *out, const char *in, size_t n)
{
	unsigned v[4];
	size_t o = 0;
	int q = 0;
	bool ended = false; /* a padded group was seen: only whitespace may follow */

	if (n / 4 > (size_t)LONG_MAX / 3)
		return -1;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)in[i];
		if (is_space(c))
			continue;
		v[q] = sextet(c);
		if (ended || v[q] == BAD)
			return -1;
		if (++q < 4)
			continue;
		q = 0;
		if (v[0] == PAD || v[1] == PAD || (v[2] == PAD && v[3] != PAD))
			return -1;
		out[o++] = (unsigned char)(v[0] << 2 | v[1] >> 4);
		if (v[2] == PAD) {
			if (v[1] & 0x0F)
				return -1;
			ended = true;
			continue;
		}
		out[o++] = (unsigned char)((v[1] & 0x0F) << 4 | v[2] >> 2);
		if (v[3] == PAD) {
			if (v[2] & 0x03)
				return -1;
			ended = true;
			continue;
		}
		out[o++] = (unsigned char)((v[2] & 0x03) << 6 | v[3]);
	}
	return q == 0 ? (long)o : -1;
}

size_t base64_encoded_len(size_t n)
{
	return (n + 2) / 3 * 4;
}

void base64_encode(char *out, const void *in, size_t n)
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
		out[o++] = '=';
		out[o++] = '=';
	} else if (n - i == 2) {
		out[o++] = alphabet[p[i] >> 2];
		out[o++] = alphabet[(p[i] & 0x03) << 4 | p[i + 1] >> 4];
		out[o++] = alphabet[(p[i + 1] & 0x0F) << 2];
		out[o++] = '=';
	}
	out[o] = '\0';
}
