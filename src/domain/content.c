/*
 * content.c - what content operations share: the change request and the
 * revision a route addresses, and summaries of pages.
 */
#include "domain/content.h"
#include "util/util.h"
#include "core/revision.h"
#include "core/serialize_comments.h"
#include "util/err.h"

#include <stdlib.h>
#include <string.h>

int dom_change_request_get(struct dom *d, const struct space *s, const char *key, struct change_request *out)
{
	char *end;
	long long num = strtoll(key, &end, 10);
	int rc = store_cr_get(d->tx, s->id, key, out);

	if (rc == ERR_NOT_FOUND && *key && !*end && num > 0)
		rc = store_cr_get_by_number(d->tx, s->id, num, out);
	return rc;
}

int dom_content_source(struct dom *d, const char *space_id, const char *cr_key, const char *revision_id,
		       enum role need, struct content_src *src)
{
	const char *rev_id = revision_id;
	int rc;

	memset(src, 0, sizeof(*src));
	if ((rc = dom_space_get(d, space_id, need, &src->space)))
		return rc;
	if (cr_key) {
		if ((rc = dom_change_request_get(d, &src->space, cr_key, &src->cr)))
			return rc;
		src->has_cr = 1;
		rev_id = src->cr.revision;
	} else if (!rev_id) {
		rev_id = src->space.revision;
	}
	rc = store_revision_get(d->tx, rev_id, &src->rv);
	if (rc == ERR_NOT_FOUND || (!rc && strcmp(src->rv->space_id, src->space.id) != 0))
		return err_set(ERR_NOT_FOUND, "revision not found");
	return rc;
}

int dom_page_summary(struct dom *d, const char *revision_id, const char *page_id, struct comment_page *out)
{
	const struct revision *rv;
	const struct rev_page *p;
	int rc = store_revision_get(d->tx, revision_id, &rv);

	if (rc)
		return rc;
	if (!(p = revision_page(rv, page_id)))
		return err_set(ERR_NOT_FOUND, "page not found");
	memset(out, 0, sizeof(*out));
	out->id = p->id;
	out->title = p->title && *p->title ? p->title : "Untitled";
	out->emoji = p->emoji;
	out->icon = p->icon;
	out->path = p->path ? p->path : p->slug;
	out->created_at = p->created_at;
	out->updated_at = p->updated_at;
	return 0;
}

/* ---- signed URLs ---- */

/* 32 hex characters of HMAC-SHA256(files key, what). */
static int sign(struct dom *d, const char *what, char out[33])
{
	static const char hex[] = "0123456789abcdef";
	const char *key;
	unsigned char mac[32];
	int rc = store_secret_get(d->tx, "files", &key);

	if (rc)
		return rc;
	if (hmac_sha256(mac, key, strlen(key), what, strlen(what)))
		return err_set(ERR_INTERNAL, "hmac failed");
	for (int i = 0; i < 16; i++) {
		out[2 * i] = hex[mac[i] >> 4];
		out[2 * i + 1] = hex[mac[i] & 15];
	}
	out[32] = '\0';
	return 0;
}

int dom_file_url(struct dom *d, const char *blob, const char **out)
{
	char sig[33];
	int rc = sign(d, blob, sig);

	if (rc)
		return rc;
	*out = arena_printf(d->arena, "%s/files/%s.%s", dom_base_url(d), blob, sig);
	return *out ? 0 : err_set(ERR_INTERNAL, "out of memory");
}

int dom_pdf_url(struct dom *d, const char *space_id, const char *revision_id, const char *page_sel, const char **out)
{
	char sig[33];
	const char *what = arena_printf(d->arena, "%s.%s.%s", space_id, revision_id, page_sel ? page_sel : "all");
	int rc;

	if (!what)
		return err_set(ERR_INTERNAL, "out of memory");
	if ((rc = sign(d, what, sig)))
		return rc;
	*out = arena_printf(d->arena, "%s/pdf/%s.%s.pdf", dom_base_url(d), what, sig);
	return *out ? 0 : err_set(ERR_INTERNAL, "out of memory");
}

int dom_sig_check(struct dom *d, const char *what, const char *sig)
{
	char want[33];
	int rc = sign(d, what, want);
	unsigned diff = 0;

	if (rc)
		return rc;
	if (strlen(sig) != 32)
		return err_set(ERR_NOT_FOUND, "no such file");
	for (int i = 0; i < 32; i++)
		diff |= (unsigned)(want[i] ^ sig[i]);
	return diff ? err_set(ERR_NOT_FOUND, "no such file") : 0;
}

int dom_revision_get(struct dom *d, const char *space_id, const char *cr_key, const char *revision_id,
		     struct content_src *src, struct change_request *origin, int *have_origin)
{
	int rc = dom_content_source(d, space_id, cr_key, revision_id, ROLE_READ, src);

	*have_origin = 0;
	if (rc || !src->rv->merged_from)
		return rc;
	/* The change request a merge revision came from, when it still exists. */
	rc = store_cr_get(d->tx, src->space.id, src->rv->merged_from, origin);
	if (rc == ERR_NOT_FOUND)
		return 0;
	*have_origin = rc == 0;
	return rc;
}

int dom_page_body(struct dom *d, const char *hash, const char **out)
{
	int rc = store_body_get(d->tx, hash, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_INTERNAL, "page body %s is missing", hash) : rc;
}
