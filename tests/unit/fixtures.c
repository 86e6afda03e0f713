/*
 * fixtures.c - pieces the unit tests share (fixtures.h).
 */
#include "fixtures.h"
#include "store/store.h"
#include "unit.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* ---- the HTTP server ---- */

void fx_send_all(int fd, const void *buf, size_t n)
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

/* Read the request's head (2 s at most between reads) and hand a GET to the
 * server's handler. */
static void serve_one(struct fx_http *s, int fd)
{
	char req[4096], path[512];
	size_t n = 0;

	while (n < sizeof(req) - 1) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		if (poll(&p, 1, 2000) <= 0)
			return;
		ssize_t got = recv(fd, req + n, sizeof(req) - 1 - n, 0);
		if (got <= 0)
			return;
		n += (size_t)got;
		req[n] = '\0';
		if (strstr(req, "\r\n\r\n"))
			break;
	}
	if (sscanf(req, "GET %511s ", path) != 1)
		return;
	s->serve(s, fd, req, path);
}

static void *http_main(void *arg)
{
	struct fx_http *s = arg;

	for (;;) {
		struct pollfd p[2] = { { .fd = s->listen_fd, .events = POLLIN }, { .fd = s->stop[0], .events = POLLIN } };
		if (poll(p, 2, 30000) <= 0 || p[1].revents)
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

bool fx_http_start(struct fx_http *s, fx_http_serve *serve)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(a);

	memset(s, 0, sizeof(*s));
	s->serve = serve;
	s->listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s->listen_fd < 0)
		return false;
	if (bind(s->listen_fd, (struct sockaddr *)&a, sizeof(a)) != 0 || listen(s->listen_fd, 16) != 0 ||
	    getsockname(s->listen_fd, (struct sockaddr *)&a, &alen) != 0 || pipe(s->stop) != 0) {
		close(s->listen_fd);
		return false;
	}
	s->port = ntohs(a.sin_port);
	if (pthread_create(&s->thread, NULL, http_main, s) != 0) {
		close(s->listen_fd);
		close(s->stop[0]);
		close(s->stop[1]);
		return false;
	}
	return true;
}

void fx_http_stop(struct fx_http *s)
{
	if (write(s->stop[1], "x", 1) != 1)
		return;
	pthread_join(s->thread, NULL);
	close(s->listen_fd);
	close(s->stop[0]);
	close(s->stop[1]);
}

/* ---- a domain test's world ---- */

void fx_user(struct store_tx *tx, const struct org *org, const char *who, enum role role, struct user *out)
{
	bool added;

	unit_new_user(tx, who, NULL, out);
	if (role != ROLE_NONE)
		CHECK(store_member_add(tx, org->id, out->id, role, 0, &added) == 0 && added);
}

void fx_org(struct store_tx *tx, const char *title, const struct fx_person *people, struct org *out)
{
	unit_new_user(tx, people[0].who, NULL, people[0].out);
	*out = (struct org){ .title = title, .email_domains = "[]", .default_role = ROLE_READ };
	CHECK(store_org_create(tx, out, people[0].out->id) == 0);
	for (const struct fx_person *p = people + 1; p->who; p++)
		fx_user(tx, out, p->who, p->role, p->out);
}

void fx_space(struct store_tx *tx, const struct org *org, const char *title, struct space *out)
{
	*out = (struct space){ .org_id = org->id, .title = title, .default_level = LEVEL_INHERIT };
	CHECK(store_space_create(tx, out) == 0);
}

struct dom *fx_as(struct dom *d, const struct server *srv, struct store *s, struct store_tx *tx, struct arena *a,
		  const struct user *u)
{
	CHECK(store_tx_begin(s, tx, 1, a) == 0);
	dom_init(d, srv, tx, a, u ? u->id : NULL);
	return d;
}

void fx_done(struct store_tx *tx, int commit)
{
	if (commit)
		CHECK(store_tx_commit(tx) == 0);
	else
		store_tx_rollback(tx);
}
