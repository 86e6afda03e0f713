/*
 * base64.h - standard base64 (RFC 4648 section 4: A-Z a-z 0-9 + /, '=' padding),
 * for data: URLs and uploads sent as text. The URL-safe variant without padding
 * that ids and cursors use is base64url_* in util.h.
 */
#ifndef DOCSD_UTIL_BASE64_H
#define DOCSD_UTIL_BASE64_H

#include <stddef.h>

/* Most bytes base64_decode() writes for n characters of input: n / 4 * 3. */
size_t base64_decoded_max(size_t n);

/*
 * Decode n characters of in (no NUL needed) into out, which must hold
 * base64_decoded_max(n) bytes. ASCII whitespace anywhere is ignored; the rest
 * must be whole groups of four, '=' only as the padding of the last group, and
 * the unused bits before the padding zero (so every input decodes one way).
 * Returns the number of bytes written, or -1 on invalid input (out may then
 * hold partial output).
 */
long base64_decode(unsigned char *out, const char *in, size_t n);

/* Length of base64_encode()'s output for n bytes, without the NUL; n must be
 * below SIZE_MAX / 4 * 3. */
size_t base64_encoded_len(size_t n);
/* Encode n bytes with padding; out must hold base64_encoded_len(n) + 1. */
void base64_encode(char *out, const void *in, size_t n);

#endif
