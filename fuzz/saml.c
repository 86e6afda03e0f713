/*
 * saml.c - libFuzzer target for the SAML response reader
 * (format/saml.h saml_response_verify), parse only: any bytes as the
 * decoded XML of a SAMLResponse are read against a provider whose
 * certificate is not a real one, so no input can pass the signature check:
 * what is fuzzed is libxml2's reading and docsd's walk of the document
 * (DOCTYPE refusal, the Response and Assertion shape, IDs, conditions) up
 * to the signature. Nothing may crash or be accepted.
 * `make fuzz` builds it.
 */
#include "format/saml.h"
#include "util/arena.h"
#include "util/err.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct saml_expect e = {
		.cert_pem = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
		.idp_entity_id = "https://idp.example.com/metadata",
		.sp_entity_id = "https://docs.example.com/saml/metadata",
		.acs_url = "https://docs.example.com/saml/acs",
		.now_ms = 1800000000000LL,
	};
	struct saml_assertion out;
	struct arena a;

	arena_init(&a);
	if (saml_response_verify(&a, (const char *)data, size, &e, &out) == 0)
		abort(); /* accepted without a valid signature */
	err_clear();
	arena_free(&a);
	return 0;
}
