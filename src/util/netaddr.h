/*
 * netaddr.h - IP addresses and CIDR ranges as data: parsing (literal
 * addresses only, never a name to resolve), containment, canonical text.
 * Used by the trusted-proxy rule (http/request.c, req_client_addr).
 */
#ifndef DOCSD_UTIL_NETADDR_H
#define DOCSD_UTIL_NETADDR_H

#include <stdbool.h>
#include <stddef.h>

struct sockaddr;

#define NET_RANGES_MAX 32 /* ranges in one --trusted-proxy */

struct net_addr {
	int family; /* AF_INET or AF_INET6 */
	unsigned char b[16]; /* network order; IPv4 in the first 4 bytes */
};

struct net_range {
	struct net_addr a; /* bits past `bits` are zero */
	int bits;
};

/* The literal address s[0..n) (dotted IPv4 or IPv6, no brackets, port or
 * zone): 0, or -1. An IPv4-mapped IPv6 address (::ffff:a.b.c.d) becomes IPv4,
 * so one client has one spelling. */
int net_addr_parse(const char *s, size_t n, struct net_addr *out);
/* The address of a socket (AF_INET, AF_INET6; mapped IPv4 as IPv4): 0, or -1. */
int net_addr_from_sockaddr(const struct sockaddr *sa, struct net_addr *out);
/* Canonical text of a (inet_ntop's) into buf (46 bytes). */
const char *net_addr_format(const struct net_addr *a, char buf[46]);
/* "CIDR[,CIDR...]", a bare address meaning /32 or /128, spaces around
 * entries allowed: 0 with out[0..*n), or -1 (malformed, a prefix longer than
 * the family's, host bits set, more than max, empty). */
int net_ranges_parse(const char *text, struct net_range *out, int max, int *n);
/* Whether a is in any of r[0..n). */
bool net_ranges_contain(const struct net_range *r, int n, const struct net_addr *a);

#endif
