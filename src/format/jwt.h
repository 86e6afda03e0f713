/*
 * jwt.h - JSON Web Tokens signed with HMAC-SHA256 (RFC 7519, "HS256").
 *
 * Pure: the caller brings the secret and the claims as JSON text (its
 * serializer writes them); this file encodes and signs.
 */
#ifndef DOCSD_FORMAT_JWT_H
#define DOCSD_FORMAT_JWT_H

#include <stddef.h>

#include "util/arena.h"

/* header.payload.signature for the claims payload[0..len), base64url without
 * padding, signed with secret; *out lives in arena a. 0, or ERR_INTERNAL. */
int jwt_hs256_sign(struct arena *a, const char *secret, const char *payload, size_t len, const char **out);

#endif
