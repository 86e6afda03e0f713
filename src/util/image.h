/*
 * image.h - recognise an image from its first bytes and read its size, without
 * decoding it (for files uploaded or fetched by URL).
 */
#ifndef DOCSD_UTIL_IMAGE_H
#define DOCSD_UTIL_IMAGE_H

#include <stddef.h>

/*
 * Sniff data as PNG, GIF, JPEG, WebP or SVG and read its pixel size from the
 * header: PNG's IHDR, GIF's logical screen, JPEG's first SOFn frame header,
 * WebP's VP8 / VP8L / VP8X chunk, and for SVG the width and height attributes
 * of the root <svg> element within the first 4 KB when they are plain numbers
 * or px, else its viewBox (scaled to the one usable attribute if there is one).
 * On success returns 0 and sets *content_type to a static string
 * ("image/png", "image/gif", "image/jpeg", "image/webp", "image/svg+xml") and
 * *width, *height to at least 1, except that an SVG with no usable size gets
 * 0 x 0. Returns ERR_INVALID with err_message() set when data is not one of
 * these images, or its header is truncated or inconsistent. Reads at most len
 * bytes (data need not be NUL-terminated). Any output pointer may be NULL;
 * outputs are set to 0, 0 and NULL on failure.
 */
int image_dimensions(const unsigned char *data, size_t len, int *width, int *height, const char **content_type);

#endif
