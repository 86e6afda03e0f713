/*
 * tokens.c - API tokens: issued and looked up here (token_issue,
 * token_lookup: the store's rows, no rule but the token's shape), managed by
 * their owner (dom_token_*). http/tokens.c keeps only the cache in front of
 * token_lookup and the header parse.
 */
#include "domain/tokens.h"
#include "store/integrations.h"
#include "util/err.h"
#include "util/text.h"
#include "util/util.h"

#include <string.h>

#define TOKEN_PREFIX "gb_api_"

int token_issue(struct store_tx *tx, const char *user_id, char out[TOKEN_LEN + 1])
{
	char hash[65];
	size_t plen = strlen(TOKEN_PREFIX);

	memcpy(out, TOKEN_PREFIX, plen);
	if (random_alnum(out + plen, TOKEN_LEN - plen))
		return err_set(ERR_INTERNAL, "getrandom failed");
	if (sha256_hex(hash, out, TOKEN_LEN))
		return err_set(ERR_INTERNAL, "sha256 failed");
	return store_token_create(tx, user_id, hash);
}

int token_lookup(struct store_tx *tx, const char *hash, const char **user_id, const char **integration_id,
		 const char **installation_id, struct user *user, int64_t *gen)
{
	int rc = store_token_owner(tx, hash, user, gen);

	*integration_id = NULL;
	*installation_id = NULL;
	if (rc == 0) {
		*user_id = user->id;
		return 0;
	}
	user->id = NULL;
	if (rc != ERR_NOT_FOUND)
		return rc;
	return store_integration_token_lookup(tx, hash, user_id, integration_id, installation_id);
}

static int need_user(struct dom *d)
{
	if (!d->actor.user_id)
		return err_set(ERR_UNAUTHORIZED, "not signed in");
	return 0;
}

int dom_token_create(struct dom *d, const char *name, const char **token, struct user_token *row)
{
	char secret[TOKEN_LEN + 1], hash[65];
	struct user_token *rows;
	const char *s, *e;
	char *trimmed;
	long len;
	int n, rc;

	if ((rc = need_user(d)))
		return rc;
	if (!name)
		return err_set(ERR_INVALID, "name: a token needs a name");
	for (s = name; *s == ' ' || *s == '\t'; s++)
		;
	for (e = s + strlen(s); e > s && (e[-1] == ' ' || e[-1] == '\t'); e--)
		;
	trimmed = arena_alloc(d->arena, (size_t)(e - s) + 1); /* never NULL (util/alloc.h) */
	memcpy(trimmed, s, (size_t)(e - s));
	trimmed[e - s] = '\0';
	len = utf8_len(trimmed);
	if (len < 1 || len > DOM_TOKEN_NAME_MAX)
		return err_set(ERR_INVALID, "name: a token's name is 1 to %d characters", DOM_TOKEN_NAME_MAX);
	for (const char *c = trimmed; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return err_set(ERR_INVALID, "name: a token's name has no control characters");
	/* Bounded so the list is one page; checked before anything is written. */
	if ((rc = store_token_list(d->tx, d->actor.user_id, DOM_TOKENS_MAX + 1, &rows, &n)))
		return rc;
	if (n >= DOM_TOKENS_MAX)
		return err_set(ERR_CONFLICT, "you have %d tokens: revoke one first", DOM_TOKENS_MAX);
	if ((rc = token_issue(d->tx, d->actor.user_id, secret)))
		return rc;
	if (sha256_hex(hash, secret, strlen(secret)))
		return err_set(ERR_INTERNAL, "sha256 failed");
	if ((rc = store_token_set_name(d->tx, hash, trimmed)))
		return rc;
	*token = arena_strdup(d->arena, secret);
	hash[16] = '\0';
	row->id = arena_strdup(d->arena, hash);
	row->name = trimmed;
	row->created_at = clock_now_ms();
	/* The secret leaves this frame only through *token. */
	memset(secret, 0, sizeof(secret));
	return 0;
}

int dom_token_list(struct dom *d, struct user_token **out, int *n)
{
	int rc = need_user(d);

	return rc ? rc : store_token_list(d->tx, d->actor.user_id, DOM_TOKENS_MAX, out, n);
}

int dom_token_revoke(struct dom *d, const char *id)
{
	int rc = need_user(d);

	if (rc)
		return rc;
	if (!id || strlen(id) != 16 || strspn(id, "0123456789abcdef") != 16)
		return err_set(ERR_NOT_FOUND, "no such token");
	if ((rc = store_token_delete(d->tx, d->actor.user_id, id)))
		return rc;
	d->tokens_revoked = true;
	return 0;
}
