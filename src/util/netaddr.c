/*
 * netaddr.c - IP addresses and CIDR ranges (netaddr.h).
 *
 * Untrusted input first: X-Forwarded-For entries come from clients, so an
 * entry is accepted only when its whole length is one literal address of at
 * most 45 characters (copied to a bounded buffer before inet_pton, which
 * wants a terminated string); anything else is refused, never guessed at.
 */
#include "util/netaddr.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

static const unsigned char v4_mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

static void unmap(struct net_addr *a)
{
	if (a->family == AF_INET6 && memcmp(a->b, v4_mapped, 12) == 0) {
		memmove(a->b, a->b + 12, 4);
		memset(a->b + 4, 0, 12);
		a->family = AF_INET;
	}
}

int net_addr_parse(const char *s, size_t n, struct net_addr *out)
{
	char buf[46];

	if (!s || n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	memset(out, 0, sizeof(*out));
	if (strchr(buf, ':')) {
		if (inet_pton(AF_INET6, buf, out->b) != 1)
			return -1;
		out->family = AF_INET6;
		unmap(out);
		return 0;
	}
	if (inet_pton(AF_INET, buf, out->b) != 1)
		return -1;
	out->family = AF_INET;
	return 0;
}

int net_addr_from_sockaddr(const struct sockaddr *sa, struct net_addr *out)
{
	memset(out, 0, sizeof(*out));
	if (sa && sa->sa_family == AF_INET) {
		memcpy(out->b, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, 4);
		out->family = AF_INET;
		return 0;
	}
	if (sa && sa->sa_family == AF_INET6) {
		memcpy(out->b, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, 16);
		out->family = AF_INET6;
		unmap(out);
		return 0;
	}
	return -1;
}

const char *net_addr_format(const struct net_addr *a, char buf[46])
{
	if (!inet_ntop(a->family, a->b, buf, 46))
		memcpy(buf, "?", 2);
	return buf;
}

static int family_bits(int family)
{
	return family == AF_INET ? 32 : 128;
}

static bool prefix_eq(const unsigned char *x, const unsigned char *y, int bits)
{
	int full = bits / 8, rest = bits % 8;

	if (memcmp(x, y, (size_t)full) != 0)
		return false;
	if (rest == 0)
		return true;
	unsigned char mask = (unsigned char)(0xff << (8 - rest));
	return (x[full] & mask) == (y[full] & mask);
}

static bool host_bits_zero(const struct net_range *r)
{
	struct net_addr m = r->a;
	int full = r->bits / 8, rest = r->bits % 8;

	if (rest)
		m.b[full++] &= (unsigned char)(0xff << (8 - rest));
	memset(m.b + full, 0, (size_t)(16 - full));
	return memcmp(m.b, r->a.b, 16) == 0;
}

int net_ranges_parse(const char *text, struct net_range *out, int max, int *n)
{
	const char *p = text;

	*n = 0;
	if (!text)
		return -1;
	for (;;) {
		size_t len, alen;
		const char *slash;
		struct net_range r;

		while (*p == ' ')
			p++;
		len = strcspn(p, ",");
		while (len > 0 && p[len - 1] == ' ')
			len--;
		if (len == 0 || *n >= max)
			return -1;
		slash = memchr(p, '/', len);
		alen = slash ? (size_t)(slash - p) : len;
		if (net_addr_parse(p, alen, &r.a))
			return -1;
		r.bits = family_bits(r.a.family);
		if (slash) {
			char digits[4];
			size_t dl = len - alen - 1;
			char *end;
			long b;

			if (dl == 0 || dl >= sizeof(digits) || strspn(slash + 1, "0123456789") < dl)
				return -1;
			memcpy(digits, slash + 1, dl);
			digits[dl] = '\0';
			b = strtol(digits, &end, 10);
			/* A mapped IPv4 written as IPv6 keeps its IPv6 prefix length
			 * meaning: ::ffff:10.0.0.0/104 is 10.0.0.0/8. */
			if (memchr(p, ':', alen) && r.a.family == AF_INET)
				b -= 96;
			if (*end || b < 0 || b > r.bits)
				return -1;
			r.bits = (int)b;
		}
		/* Host bits set ("10.0.0.1/8") is a typo more often than not: refused. */
		if (!host_bits_zero(&r))
			return -1;
		out[(*n)++] = r;
		p += strcspn(p, ",");
		if (*p != ',')
			return 0;
		p++;
	}
}

bool net_ranges_contain(const struct net_range *r, int n, const struct net_addr *a)
{
	for (int i = 0; i < n; i++)
		if (r[i].a.family == a->family && prefix_eq(r[i].a.b, a->b, r[i].bits))
			return true;
	return false;
}
