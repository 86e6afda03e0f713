/*
 * secrets.c - the server's secrets, read once (secrets.h).
 */
#include "domain/secrets.h"
#include "server.h"
#include "util/alloc.h"
#include "util/err.h"

#include <stdlib.h>
#include <string.h>

/* The store's names: they are rows of every existing database. */
static const char *const names[DOM_SECRETS] = {
	[DOM_SECRET_FILES] = "files",
	[DOM_SECRET_JWT] = "jwt",
	[DOM_SECRET_GIT_CREDENTIALS] = "git-credentials",
};

static int load(struct store_tx *tx, void *arg)
{
	struct dom_secrets *s = arg;
	const char *v;
	int rc;

	for (int i = 0; i < DOM_SECRETS; i++) {
		if ((rc = store_secret_get(tx, names[i], &v)))
			return rc;
		s->value[i] = xstrdup(v);
	}
	return 0;
}

int dom_secrets_load(struct store *st, struct dom_secrets *out)
{
	struct arena a;
	int rc;

	memset(out, 0, sizeof(*out));
	arena_init(&a);
	rc = store_tx_run(st, 1, &a, load, out);
	arena_free(&a);
	if (rc)
		dom_secrets_free(out);
	return rc;
}

void dom_secrets_free(struct dom_secrets *s)
{
	for (int i = 0; i < DOM_SECRETS; i++) {
		free(s->value[i]);
		s->value[i] = NULL;
	}
}

int dom_secret(const struct server *srv, struct store_tx *tx, enum dom_secret which, const char **out)
{
	if (srv && srv->secrets.value[which]) {
		*out = srv->secrets.value[which];
		return 0;
	}
	return store_secret_get(tx, names[which], out);
}
