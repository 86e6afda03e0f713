/*
 * util.h - ids, time and hashing used across docsd.
 */
#ifndef DOCSD_UTIL_UTIL_H
#define DOCSD_UTIL_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* The encodings once lived here; every caller of util.h still sees them:
 * base64 and base64url in util/base64.h, hex, percent and UTF-8 in
 * util/text.h. */
#include "util/base64.h"
#include "util/text.h"

#define ID_LEN 20

/* 20 characters of [A-Za-z0-9] from getrandom(); out must hold ID_LEN + 1. */
int id_new(char out[ID_LEN + 1]);
/* n random alphanumerics (n < 256), NUL-terminated. */
int random_alnum(char *out, size_t n);
/* 1 if s is a plausible docsd id: 1..64 characters of [A-Za-z0-9_-]. */
int id_valid(const char *s);

/* Wall-clock milliseconds since the epoch, plus the process's test offset
 * (clock_set_offset). The one clock every rule reads. */
int64_t clock_now_ms(void);
void clock_set_offset(int64_t ms);
/* Monotonic nanoseconds, for durations only. */
int64_t clock_mono_ns(void);

/* ISO 8601 UTC with milliseconds: 2024-01-02T03:04:05.678Z; out holds 25 bytes. */
#define TS_LEN 48
void ts_format(char out[TS_LEN], int64_t ms);

/* SHA-256 of data as 64 lowercase hex characters plus NUL. */
int sha256_hex(char out[65], const void *data, size_t len);
/* HMAC-SHA256, raw 32 bytes. */
int hmac_sha256(unsigned char out[32], const void *key, size_t klen, const void *data, size_t len);

#endif
