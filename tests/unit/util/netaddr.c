/* util/netaddr.c: literal addresses and --trusted-proxy's CIDR ranges
 * (hostile spellings refused, never guessed at). */
#include "unit.h"
#include "util/netaddr.h"

#include <sys/socket.h>

static int parse(const char *s, struct net_addr *a)
{
	return net_addr_parse(s, strlen(s), a);
}

UNIT_TEST(netaddr_parses_literals_only)
{
	struct net_addr a;
	char buf[46];

	CHECK(parse("10.1.2.3", &a) == 0 && a.family == AF_INET);
	CHECK_STR(net_addr_format(&a, buf), "10.1.2.3");
	CHECK(parse("2001:DB8::1", &a) == 0 && a.family == AF_INET6);
	CHECK_STR(net_addr_format(&a, buf), "2001:db8::1");
	/* a mapped IPv4 is the IPv4 address: one client, one spelling */
	CHECK(parse("::ffff:192.0.2.1", &a) == 0 && a.family == AF_INET);
	CHECK_STR(net_addr_format(&a, buf), "192.0.2.1");
	CHECK(parse("", &a) != 0);
	CHECK(parse("localhost", &a) != 0);
	CHECK(parse("10.1.2.3:80", &a) != 0);
	CHECK(parse("[::1]", &a) != 0);
	CHECK(parse("10.1.2", &a) != 0);
	CHECK(parse("010.1.2.3", &a) != 0);
	CHECK(parse(" 10.1.2.3", &a) != 0);
	CHECK(parse("fe80::1%eth0", &a) != 0);
	CHECK(parse("1111:2222:3333:4444:5555:6666:7777:8888:9999", &a) != 0);
	/* only n bytes are read */
	CHECK(net_addr_parse("10.0.0.1,evil", 8, &a) == 0);
	CHECK_STR(net_addr_format(&a, buf), "10.0.0.1");
	{
		char big[200];
		memset(big, '1', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		CHECK(parse(big, &a) != 0);
	}
}

UNIT_TEST(netaddr_ranges_parse_and_contain)
{
	struct net_range r[NET_RANGES_MAX];
	struct net_addr a;
	int n = 0;

	CHECK(net_ranges_parse("127.0.0.1/32, 10.0.0.0/8,fd00::/8, ::1", r, NET_RANGES_MAX, &n) == 0 && n == 4);
	CHECK(parse("127.0.0.1", &a) == 0 && net_ranges_contain(r, n, &a));
	CHECK(parse("127.0.0.2", &a) == 0 && !net_ranges_contain(r, n, &a));
	CHECK(parse("10.255.1.1", &a) == 0 && net_ranges_contain(r, n, &a));
	CHECK(parse("11.0.0.1", &a) == 0 && !net_ranges_contain(r, n, &a));
	CHECK(parse("fd12::5", &a) == 0 && net_ranges_contain(r, n, &a));
	CHECK(parse("fe00::5", &a) == 0 && !net_ranges_contain(r, n, &a));
	CHECK(parse("::1", &a) == 0 && net_ranges_contain(r, n, &a));
	CHECK(parse("::ffff:10.0.0.9", &a) == 0 && net_ranges_contain(r, n, &a));
	/* a bare address is one host; /0 is everything of its family */
	CHECK(net_ranges_parse("0.0.0.0/0", r, NET_RANGES_MAX, &n) == 0 && n == 1);
	CHECK(parse("203.0.113.9", &a) == 0 && net_ranges_contain(r, n, &a));
	CHECK(parse("2001:db8::1", &a) == 0 && !net_ranges_contain(r, n, &a));
	/* refused: empty entries, bad prefixes, host bits, too many, names */
	CHECK(net_ranges_parse("", r, NET_RANGES_MAX, &n) != 0);
	CHECK(net_ranges_parse("10.0.0.0/8,", r, NET_RANGES_MAX, &n) != 0);
	CHECK(net_ranges_parse(",10.0.0.0/8", r, NET_RANGES_MAX, &n) != 0);
	CHECK(net_ranges_parse("10.0.0.0/33", r, NET_RANGES_MAX, &n) != 0);
	CHECK(net_ranges_parse("10.0.0.0/", r, NET_RANGES_MAX, &n) != 0);
	CHECK(net_ranges_parse("10.0.0.0/-1", r, NET_RANGES_MAX, &n) != 0);
	CHECK(net_ranges_parse("10.0.0.0/8x", r, NET_RANGES_MAX, &n) != 0);
	CHECK(net_ranges_parse("10.0.0.1/8", r, NET_RANGES_MAX, &n) != 0);
	CHECK(net_ranges_parse("::/129", r, NET_RANGES_MAX, &n) != 0);
	CHECK(net_ranges_parse("proxy.example", r, NET_RANGES_MAX, &n) != 0);
	CHECK(net_ranges_parse("10.0.0.0/8,10.0.0.0/8,10.0.0.0/8", r, 2, &n) != 0);
}
