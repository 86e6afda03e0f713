/*
 * seal.c - AES-256-GCM sealing of short secrets (seal.h).
 */
#include "util/seal.h"
#include "util/err.h"
#include "util/util.h"

#include <openssl/evp.h>
#include <openssl/rand.h>
#include <string.h>

#define NONCE_LEN 12
#define TAG_LEN 16
#define PREFIX "v1."
#define MAX_PLAIN (64 << 10)

int seal_text(struct arena *a, const unsigned char key[SEAL_KEY_LEN], const char *plain, size_t n, const char **out)
{
	EVP_CIPHER_CTX *c = NULL;
	unsigned char *buf = NULL;
	char *text;
	int len = 0, fin = 0, rc = ERR_INTERNAL;
	size_t total;

	if (n > MAX_PLAIN)
		return err_set(ERR_INVALID, "secret too long");
	total = NONCE_LEN + n + TAG_LEN;
	buf = arena_alloc(a, total);
	text = arena_alloc(a, sizeof(PREFIX) + base64url_len(total) + 1);
	if (RAND_bytes(buf, NONCE_LEN) != 1)
		return err_set(ERR_INTERNAL, "RAND_bytes failed");
	if (!(c = EVP_CIPHER_CTX_new()))
		return err_set(ERR_INTERNAL, "out of memory");
	if (EVP_EncryptInit_ex(c, EVP_aes_256_gcm(), NULL, NULL, NULL) != 1 ||
	    EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IVLEN, NONCE_LEN, NULL) != 1 ||
	    EVP_EncryptInit_ex(c, NULL, NULL, key, buf) != 1 ||
	    (n && EVP_EncryptUpdate(c, buf + NONCE_LEN, &len, (const unsigned char *)plain, (int)n) != 1) ||
	    EVP_EncryptFinal_ex(c, buf + NONCE_LEN + len, &fin) != 1 ||
	    EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, TAG_LEN, buf + NONCE_LEN + n) != 1) {
		rc = err_set(ERR_INTERNAL, "AES-GCM encryption failed");
		goto cleanup;
	}
	memcpy(text, PREFIX, sizeof(PREFIX) - 1);
	base64url_encode(text + sizeof(PREFIX) - 1, buf, total);
	*out = text;
	rc = 0;
cleanup:
	EVP_CIPHER_CTX_free(c);
	return rc;
}

int seal_open(struct arena *a, const unsigned char key[SEAL_KEY_LEN], const char *sealed, const char **out)
{
	EVP_CIPHER_CTX *c = NULL;
	unsigned char *buf;
	char *plain;
	size_t slen;
	long n;
	int len = 0, fin = 0, rc;

	if (!sealed || strncmp(sealed, PREFIX, sizeof(PREFIX) - 1) != 0)
		return err_set(ERR_INVALID, "sealed value: unknown format");
	sealed += sizeof(PREFIX) - 1;
	slen = strlen(sealed);
	if (slen > (size_t)MAX_PLAIN * 2)
		return err_set(ERR_INVALID, "sealed value: too long");
	buf = arena_alloc(a, slen * 3 / 4 + 3);
	n = base64url_decode(buf, sealed, slen);
	if (n < NONCE_LEN + TAG_LEN)
		return err_set(ERR_INVALID, "sealed value: malformed");
	n -= NONCE_LEN + TAG_LEN;
	plain = arena_alloc(a, (size_t)n + 1);
	if (!(c = EVP_CIPHER_CTX_new()))
		return err_set(ERR_INTERNAL, "out of memory");
	if (EVP_DecryptInit_ex(c, EVP_aes_256_gcm(), NULL, NULL, NULL) != 1 ||
	    EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IVLEN, NONCE_LEN, NULL) != 1 ||
	    EVP_DecryptInit_ex(c, NULL, NULL, key, buf) != 1 ||
	    (n && EVP_DecryptUpdate(c, (unsigned char *)plain, &len, buf + NONCE_LEN, (int)n) != 1) ||
	    EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_TAG, TAG_LEN, buf + NONCE_LEN + n) != 1) {
		rc = err_set(ERR_INTERNAL, "AES-GCM decryption failed");
		goto cleanup;
	}
	/* The tag is checked here: a value sealed under another key, or changed,
	 * fails. */
	if (EVP_DecryptFinal_ex(c, (unsigned char *)plain + len, &fin) != 1) {
		rc = err_set(ERR_INVALID, "sealed value: does not authenticate");
		goto cleanup;
	}
	plain[n] = '\0';
	*out = plain;
	rc = 0;
cleanup:
	EVP_CIPHER_CTX_free(c);
	return rc;
}
