#include "model/cursor.h"
#include "util/err.h"
#include "util/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CURSOR_MAX 1024

char *cursor_encode(struct arena *a, const char *key, const char *id)
{
	size_t kl = strlen(key), il = strlen(id), n = 3 + kl + 1 + il;
	char *raw, *out;

	if (n > CURSOR_MAX)
		return NULL;
	raw = arena_alloc(a, n + 1);
	out = arena_alloc(a, base64url_len(n) + 1);
	memcpy(raw, "c1\n", 3);
	memcpy(raw + 3, key, kl);
	raw[3 + kl] = '\n';
	memcpy(raw + 4 + kl, id, il);
	base64url_encode(out, raw, n);
	return out;
}

char *cursor_encode_int(struct arena *a, int64_t key, const char *id)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%lld", (long long)key);
	return cursor_encode(a, buf, id);
}

int cursor_decode(struct arena *a, const char *page, struct cursor *out)
{
	size_t n = strlen(page);
	unsigned char *raw;
	long len;
	char *nl1, *nl2;

	if (n == 0 || n > base64url_len(CURSOR_MAX))
		return err_set(ERR_INVALID, "page: invalid cursor");
	raw = arena_alloc(a, n * 3 / 4 + 4);
	len = base64url_decode(raw, page, n);
	if (len < 4 || memcmp(raw, "c1\n", 3) != 0 || memchr(raw, '\0', (size_t)len))
		return err_set(ERR_INVALID, "page: invalid cursor");
	raw[len] = '\0';
	nl1 = (char *)raw + 2;
	/* The id is after the LAST line break: ids never hold one (id_valid),
	 * but a sort key may (a title), and splitting at its own line break
	 * would refuse the cursor docsd itself gave out. */
	nl2 = strrchr(nl1 + 1, '\n');
	if (!nl2 || !id_valid(nl2 + 1))
		return err_set(ERR_INVALID, "page: invalid cursor");
	*nl2 = '\0';
	out->key = nl1 + 1;
	out->id = nl2 + 1;
	return 0;
}

int cursor_key_int(const struct cursor *c, int64_t *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(c->key, &end, 10);
	if (errno || end == c->key || *end)
		return err_set(ERR_INVALID, "page: invalid cursor");
	*out = v;
	return 0;
}
