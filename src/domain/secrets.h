/*
 * secrets.h - the server's secrets, read once.
 *
 * Each is a random value in the store (store_secret_get: created the first
 * time it is read, shared by every docsd process on the database). A server
 * reads them all at start, in a write transaction of their own, and keeps
 * copies: no request or job then reads one per use, and no read transaction
 * ever inserts one.
 */
#ifndef DOCSD_DOMAIN_SECRETS_H
#define DOCSD_DOMAIN_SECRETS_H

#include "store/store.h"

struct server;

enum dom_secret {
	DOM_SECRET_FILES,           /* signs download and PDF URLs (domain/content.c) */
	DOM_SECRET_JWT,             /* signs the visitor claims of a ping (domain/members.c) */
	DOM_SECRET_GIT_CREDENTIALS, /* seals Git remotes' credentials (domain/git_sync.c) */
	DOM_SECRETS
};

struct dom_secrets {
	char *value[DOM_SECRETS]; /* malloc'd */
};

/* Read (creating where missing) every secret in one write transaction. */
int dom_secrets_load(struct store *st, struct dom_secrets *out);
void dom_secrets_free(struct dom_secrets *s);
/* The server's copy; without a server (unit tests, command-line tools) the
 * store's, read in tx. */
int dom_secret(const struct server *srv, struct store_tx *tx, enum dom_secret which, const char **out);

#endif
