/*
 * form.h - application/x-www-form-urlencoded bodies (the web interface's
 * forms, app/).
 *
 * Rules for the untrusted input: a body is name=value pairs joined by '&';
 * '+' is a space; %XX escapes are decoded strictly (a bad escape makes the
 * field unreadable, never half-decoded); a value that decodes to a NUL byte
 * or to invalid UTF-8 is refused, so what a caller gets is always a C string
 * of valid UTF-8. The first occurrence of a name wins.
 */
#ifndef DOCSD_HTTP_FORM_H
#define DOCSD_HTTP_FORM_H

#include <stddef.h>

#include "util/arena.h"

/* The decoded value of field `name` in body[0..len), copied into a: 1 with
 * *out set, 0 when the field is absent, -1 when it is present but malformed
 * (bad escape, NUL, invalid UTF-8). */
int form_field(struct arena *a, const char *body, size_t len, const char *name, const char **out);

#endif
