/*
 * tokens.h - personal API tokens managed by their owner (issue 25: the web
 * interface's /settings/tokens creates, lists and revokes them; the CLI's
 * `docsd token` still issues them too).
 *
 * DESIGN
 * A token is shown once, in the answer to its creation, and only its
 * SHA-256 is stored (token_issue below; the cache in front of token_lookup is
 * http/tokens.c). The list names a token by its name and
 * the first 16 hex digits of that hash; nobody but its owner sees or revokes
 * it (every function takes the actor as the owner: there is no rule to check
 * beyond that). A revocation bumps the owner's token generation in d->tx
 * (store_token_delete), which every process's token cache checks in the
 * next request's transaction (http/tokens.c), so the token stops working
 * at the next request on every docsd process, not after the cache's
 * minute. It also sets d->tokens_revoked: whoever commits d->tx empties
 * this process's cache (token_cache_flush).
 */
#ifndef DOCSD_DOMAIN_TOKENS_H
#define DOCSD_DOMAIN_TOKENS_H

#include "domain/domain.h"
#include "store/store.h"

#define DOM_TOKEN_NAME_MAX 64 /* characters */
#define DOM_TOKENS_MAX 100    /* per user */

/* Create a new API token for user_id: "gb_api_" + 39 random alphanumerics (the
 * prefix keeps GitBook's look, so secret scanners that know GitBook tokens flag
 * ours too), returned once in out, stored hashed (SHA-256). No access check:
 * the callers are the actor's own dom_token_create and the CLI. */
#define TOKEN_LEN 46
int token_issue(struct store_tx *tx, const char *user_id, char out[TOKEN_LEN + 1]);
/* Who a token hash names: an API token's user (*user filled, *gen its
 * token generation, *integration_id and *installation_id NULL), or an integration /
 * installation token's integration user (domain/integrations.h; user->id
 * NULL, *integration_id set, *installation_id set for an installation token). Those are never
 * cached: uninstalling revokes them at once. ERR_NOT_FOUND when the hash
 * names nothing. */
int token_lookup(struct store_tx *tx, const char *hash, const char **user_id, const char **integration_id,
		 const char **installation_id, struct user *user, int64_t *gen);

/* A new token for the actor named name (1..64 characters, trimmed):
 * *token (the secret, in d->arena: show it once) and *row. ERR_INVALID
 * naming the field; ERR_CONFLICT past DOM_TOKENS_MAX tokens. */
int dom_token_create(struct dom *d, const char *name, const char **token, struct user_token *row);
/* The actor's tokens, newest first. */
int dom_token_list(struct dom *d, struct user_token **out, int *n);
/* Revoke the actor's token id (16 hex digits): ERR_NOT_FOUND when the actor
 * has no such token (another user's looks the same). */
int dom_token_revoke(struct dom *d, const char *id);

#endif
