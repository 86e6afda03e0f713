/*
 * seal.h - authenticated encryption of short secrets kept in rows (Git sync's
 * repository credentials): AES-256-GCM through libcrypto.
 *
 * A sealed text is "v1." followed by base64url (no padding) of a random 12-byte
 * nonce, the ciphertext and the 16-byte tag. The key is 32 bytes that the
 * caller derives (domain/git_sync.c: HMAC-SHA256 of a server secret kept in
 * the database). Opening checks the tag, so a changed or truncated value, or
 * one sealed under another key, fails instead of decrypting to garbage.
 */
#ifndef DOCSD_UTIL_SEAL_H
#define DOCSD_UTIL_SEAL_H

#include <stddef.h>

#include "util/arena.h"

#define SEAL_KEY_LEN 32

/* *out (in a): the sealed form of the n bytes at plain. 0 or ERR_INTERNAL. */
int seal_text(struct arena *a, const unsigned char key[SEAL_KEY_LEN], const char *plain, size_t n, const char **out);
/* *out (in a, NUL-terminated): what seal_text sealed. 0; ERR_INVALID when
 * sealed is malformed or does not authenticate under key; ERR_INTERNAL. */
int seal_open(struct arena *a, const unsigned char key[SEAL_KEY_LEN], const char *sealed, const char **out);

#endif
