/*
 * gitbook_tags.c - finding GitBook's {% %} and {{ }} tags (gitbook_tags.h).
 */
#include "format/gitbook_tags.h"

#include <ctype.h>
#include <string.h>

/* The tag of this kind opening at s[at] (its opener checked by the caller),
 * when a closer follows. */
static bool tag_from(const char *s, size_t n, size_t at, enum gb_tag_kind kind, struct gb_tag *t)
{
	char c = kind == GB_TAG_BLOCK ? '%' : '}';
	size_t k, p, name;

	for (k = at + 2; k + 1 < n; k++)
		if (s[k] == c && s[k + 1] == '}')
			break;
	if (k + 1 >= n)
		return false;
	t->start = at;
	t->end = k + 2;
	t->kind = kind;
	for (p = at + 2; p < k && isspace((unsigned char)s[p]); p++)
		;
	for (name = p; p < k && (isalnum((unsigned char)s[p]) || s[p] == '-' || s[p] == '_'); p++)
		;
	t->name = s + name;
	t->name_len = p - name;
	t->args = s + p;
	t->args_len = k - p;
	return true;
}

bool gb_tag_next(const char *s, size_t n, size_t from, unsigned kinds, struct gb_tag *t)
{
	for (size_t at = from; at + 1 < n; at++) {
		if (s[at] != '{')
			continue;
		if ((kinds & GB_TAG_BLOCK) && s[at + 1] == '%')
			return tag_from(s, n, at, GB_TAG_BLOCK, t);
		if ((kinds & GB_TAG_VAR) && s[at + 1] == '{')
			return tag_from(s, n, at, GB_TAG_VAR, t);
	}
	return false;
}

bool gb_tag_at(const char *s, size_t n, size_t at, struct gb_tag *t)
{
	return at + 1 < n && s[at] == '{' && s[at + 1] == '%' && tag_from(s, n, at, GB_TAG_BLOCK, t);
}

const char *gb_tag_arg(struct arena *a, const struct gb_tag *t, const char *key)
{
	const char *args = t->args;
	size_t n = t->args_len, kl = strlen(key);

	for (size_t i = 0; i + kl < n; i++) {
		if ((i == 0 || isspace((unsigned char)args[i - 1])) && strncmp(args + i, key, kl) == 0 &&
		    args[i + kl] == '=') {
			size_t j = i + kl + 1, e;
			char q = j < n ? args[j] : 0;
			if (q == '"' || q == '\'') {
				for (e = j + 1; e < n && args[e] != q; e++)
					;
				return arena_strndup(a, args + j + 1, e - j - 1);
			}
			for (e = j; e < n && !isspace((unsigned char)args[e]); e++)
				;
			return arena_strndup(a, args + j, e - j);
		}
	}
	return NULL;
}
