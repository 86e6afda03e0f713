/*
 * image.c - libFuzzer target for the image sniffer (util/image.h
 * image_dimensions, which reads uploaded files' headers): any bytes. When it
 * recognizes an image, the dimensions are positive and the media type is an
 * image/ type (an SVG without a usable size is 0 x 0); it is deterministic. `make fuzz` builds it.
 */
#include "util/image.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int w = -1, h = -1, w2 = -1, h2 = -1;
	const char *ct = NULL, *ct2 = NULL;
	int rc = image_dimensions(data, size, &w, &h, &ct);

	if (rc != image_dimensions(data, size, &w2, &h2, &ct2))
		abort();
	if (rc == 0) {
		if (w < 0 || h < 0 || w != w2 || h != h2 || !ct || strncmp(ct, "image/", 6) != 0 || ct != ct2)
			abort();
		if ((w == 0 || h == 0) && !(w == 0 && h == 0 && strcmp(ct, "image/svg+xml") == 0))
			abort();
	}
	return 0;
}
