/*
 * fixtures.h - pieces the unit tests share (fixtures.c): a tiny HTTP/1.0
 * server on 127.0.0.1, and a domain test's world in the store (users, an
 * organization and its members, a space, a transaction a dom acts in).
 */
#ifndef DOCSD_TESTS_UNIT_FIXTURES_H
#define DOCSD_TESTS_UNIT_FIXTURES_H

#include "domain/domain.h"
#include "model/roles.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

/* ---- a one-connection-at-a-time HTTP/1.0 server on 127.0.0.1 ---- */

struct fx_http;
/* Answer one request on fd: req is its head (NUL-terminated), path the
 * path of its GET. */
typedef void fx_http_serve(struct fx_http *s, int fd, const char *req, const char *path);

struct fx_http {
	int listen_fd;
	int stop[2]; /* a byte written to stop[1] ends the thread */
	int port;
	atomic_int accepted; /* connections accepted so far */
	pthread_t thread;
	fx_http_serve *serve;
};

/* Listen on a free port of 127.0.0.1 and serve each connection's GET with
 * serve until fx_http_stop; false if that could not start. */
bool fx_http_start(struct fx_http *s, fx_http_serve *serve);
void fx_http_stop(struct fx_http *s);
/* Send all n bytes (or until the client is gone). */
void fx_send_all(int fd, const void *buf, size_t n);

/* ---- a domain test's world ---- */

/* A new user named who (unit_new_user) and, unless role is ROLE_NONE, a
 * member of org with role. */
void fx_user(struct store_tx *tx, const struct org *org, const char *who, enum role role, struct user *out);

/* One person of fx_org's list: out gets the user. */
struct fx_person {
	const char *who;
	enum role role; /* ROLE_NONE: a user who is not a member */
	struct user *out;
};

/* The organization title (no email domains, default role read) created by
 * a new user, people[0], its admin; then people[1], people[2]... (up to a
 * { NULL }) made with fx_user, in that order. */
void fx_org(struct store_tx *tx, const char *title, const struct fx_person *people, struct org *out);

/* The space title in org (default level inherit). */
void fx_space(struct store_tx *tx, const struct org *org, const char *title, struct space *out);

/* Begin a write transaction on s in tx, allocating in a, with d acting in it
 * as u (NULL: docsd itself) in the server context srv (NULL: none). */
struct dom *fx_as(struct dom *d, const struct server *srv, struct store *s, struct store_tx *tx, struct arena *a,
		  const struct user *u);
/* Commit tx (checked) or roll it back. */
void fx_done(struct store_tx *tx, int commit);

#endif
