/*
 * base64.h - base64 in RFC 4648's two alphabets, one codec:
 *   base64_*     section 4 (A-Z a-z 0-9 + /) with '=' padding, for data: URLs
 *                and uploads sent as text: a strict decoder (below);
 *   base64url_*  section 5 (A-Z a-z 0-9 - _) without padding, for ids, page
 *                cursors, JWTs and sealed tokens.
 *
 * Not libcrypto's EVP_EncodeBlock/EVP_DecodeBlock: those take an int length,
 * know neither the URL alphabet nor unpadded input, count padding in the
 * decoded length and accept non-canonical trailing bits, so wrapping them to
 * keep these contracts would be longer than the codec itself.
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

/* base64url without padding. out must hold base64url_len(n) + 1. */
size_t base64url_len(size_t n);
void base64url_encode(char *out, const void *in, size_t n);
/* Returns decoded length, or -1 on bad input: a byte outside the alphabet
 * (whitespace and '=' included) or n % 4 == 1. The unused low bits of a short
 * last group are ignored, as JWT libraries do. out must hold n * 3 / 4 + 3. */
long base64url_decode(unsigned char *out, const char *in, size_t n);

#endif
