#include "core/validate.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

int valid_email(const char *s)
{
	const char *at = strchr(s, '@');

	if (!at || at == s || strchr(at + 1, '@') || strlen(s) > 254)
		return 0;
	for (const char *p = s; p < at; p++)
		if ((unsigned char)*p <= ' ' || strchr("<>\"(),;:[]\\", *p))
			return 0;
	return valid_domain(at + 1);
}

int valid_domain(const char *s)
{
	size_t n = strlen(s), label = 0;
	int labels = 1;

	if (n == 0 || n > 253 || s[0] == '.' || s[n - 1] == '.')
		return 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '.') {
			if (label == 0 || s[i - 1] == '-')
				return 0;
			labels++;
			label = 0;
			continue;
		}
		if (!(isalnum(c) || c == '-') || c >= 0x80)
			return 0;
		if (c == '-' && label == 0)
			return 0;
		if (++label > 63)
			return 0;
	}
	return labels >= 2 && s[n - 1] != '-';
}

int valid_hostname(const char *s)
{
	size_t n = strlen(s);

	if (n < 3 || n > 32 || s[0] == '-' || s[n - 1] == '-')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
			return 0;
	return 1;
}

int valid_url(const char *s)
{
	const char *host;
	size_t n = strlen(s);

	if (n > 2048)
		return 0;
	if (strncasecmp(s, "https://", 8) == 0)
		host = s + 8;
	else if (strncasecmp(s, "http://", 7) == 0)
		host = s + 7;
	else
		return 0;
	if (!*host || *host == '/' || *host == ':' || *host == '?' || *host == '#')
		return 0;
	for (const char *p = s; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == '"' || *p == '<' || *p == '>' || *p == '\\')
			return 0;
	return 1;
}
