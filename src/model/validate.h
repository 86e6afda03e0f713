/*
 * validate.h - checks on values clients send, shared by every handler. Each
 * returns 1 when the value is acceptable.
 */
#ifndef DOCSD_MODEL_VALIDATE_H
#define DOCSD_MODEL_VALIDATE_H

/* user@example.com: one @, a dot in the domain, no spaces, at most 254 bytes. */
int valid_email(const char *s);
/* example.com: labels of [a-z0-9-] (not starting or ending with -), at least
 * two labels, at most 253 bytes. Upper case is accepted. */
int valid_domain(const char *s);
/* An organization hostname: 3..32 characters of [a-z0-9-], not starting or
 * ending with '-'. */
int valid_hostname(const char *s);
/* A site's custom hostname (the seed's Site.hostname pattern): three or more
 * lower-case DNS labels, e.g. docs.example.com. */
int valid_site_hostname(const char *s);
/* An absolute http or https URL of at most 2048 bytes with a host. */
int valid_url(const char *s);

#define MEDIA_TYPE_MAX 127
/* A media type as a Content-Type header carries it: type "/" subtype, each an
 * RFC 6838 restricted name (a letter or digit, then letters, digits and
 * ! # $ & - ^ _ . +), then optional parameters `; name=value` (RFC 9110: a
 * token, then a token or a quoted string; spaces and tabs around ';'). At
 * most MEDIA_TYPE_MAX bytes of printable ASCII: no CR, LF or other control
 * character can reach a stored type or a response header. */
int valid_media_type(const char *s);

/* One emoji, as GitBook's Emoji ("Unicode codepoint or character of the
 * emoji") takes it: either the characters (UTF-8) or the code points in hex
 * joined by '-' ("1f680", "1f469-200d-1f4bb"). The code points must form one
 * emoji (UTS #51): a pictographic character with an optional variation
 * selector, skin tone modifier and tag sequence (subdivision flags); a
 * keycap ([0-9#*], optional U+FE0F, U+20E3); a flag (two regional
 * indicators); or such elements joined by ZWJ (U+200D). At most
 * EMOJI_MAX_CODEPOINTS code points; nothing else (letters, spaces, control
 * characters, two emoji in a row) passes. */
#define EMOJI_MAX_CODEPOINTS 16
int valid_emoji(const char *s);

#endif
