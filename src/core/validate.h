/*
 * validate.h - checks on values clients send, shared by every handler. Each
 * returns 1 when the value is acceptable.
 */
#ifndef DOCSD_CORE_VALIDATE_H
#define DOCSD_CORE_VALIDATE_H

/* user@example.com: one @, a dot in the domain, no spaces, at most 254 bytes. */
int valid_email(const char *s);
/* example.com: labels of [a-z0-9-] (not starting or ending with -), at least
 * two labels, at most 253 bytes. Upper case is accepted. */
int valid_domain(const char *s);
/* An organization hostname: 3..32 characters of [a-z0-9-], not starting or
 * ending with '-'. */
int valid_hostname(const char *s);
/* An absolute http or https URL of at most 2048 bytes with a host. */
int valid_url(const char *s);

#endif
