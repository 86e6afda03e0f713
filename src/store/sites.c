/*
 * sites.c - docs sites and their share links (store/sites.h).
 *
 * A site's siteSpaces count is computed on read (an indexed count of its
 * site_spaces rows), never stored, so it cannot drift from the rows.
 */
#include "store/internal.h"
#include "util/util.h"

#include <string.h>

#define SITE_COLS "s.id, s.org_id, s.type, s.title, s.visibility, s.published, s.basename, s.hostname, " \
	"s.proxy, s.icon, s.adaptive_enabled, s.agents_context, s.adaptive_schema, s.adaptive_updated_at, " \
	"s.customization, s.visitor_key, s.generation, s.created_at, s.updated_at, " \
	"(SELECT COUNT(*) FROM site_spaces x WHERE x.site_id = s.id)"

static int fill_site(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct site *s = out;
	int oom = 0;

	memset(s, 0, sizeof(*s));
	s->id = st_str(tx, r, 0, &oom);
	s->org_id = st_str(tx, r, 1, &oom);
	s->type = st_str(tx, r, 2, &oom);
	s->title = st_str(tx, r, 3, &oom);
	s->visibility = st_str(tx, r, 4, &oom);
	s->published = (int)st_int(tx, r, 5);
	s->basename = st_str(tx, r, 6, &oom);
	s->hostname = st_str(tx, r, 7, &oom);
	s->proxy = st_str(tx, r, 8, &oom);
	s->icon = st_str(tx, r, 9, &oom);
	s->adaptive_enabled = (int)st_int(tx, r, 10);
	s->agents_context = st_str(tx, r, 11, &oom);
	s->adaptive_schema = st_str(tx, r, 12, &oom);
	s->adaptive_updated_at = st_int(tx, r, 13);
	s->customization = st_str(tx, r, 14, &oom);
	s->visitor_key = st_str(tx, r, 15, &oom);
	s->generation = st_int(tx, r, 16);
	s->created_at = st_int(tx, r, 17);
	s->updated_at = st_int(tx, r, 18);
	s->site_spaces = st_int(tx, r, 19);
	return oom ? err_set(ERR_INTERNAL, "out of memory") : 0;
}

static int site_one(struct store_tx *tx, const char *sql, const char *arg, struct site *out)
{
	struct db_param p[] = { P_TEXT(arg) };
	int rc = st_one(tx, sql, p, NP(p), fill_site, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "site not found") : rc;
}

int store_site_get(struct store_tx *tx, const char *id, struct site *out)
{
	return site_one(tx, "SELECT " SITE_COLS " FROM sites s WHERE s.id = $1", id, out);
}

int store_site_get_locked(struct store_tx *tx, const char *id, struct site *out)
{
	return site_one(tx, "SELECT " SITE_COLS " FROM sites s WHERE s.id = $1" DB_LOCK_ROW, id, out);
}

int store_site_by_name(struct store_tx *tx, const char *name, struct site *out)
{
	int rc = site_one(tx, "SELECT " SITE_COLS " FROM sites s WHERE s.basename = $1", name, out);

	if (rc == ERR_NOT_FOUND)
		rc = site_one(tx, "SELECT " SITE_COLS " FROM sites s WHERE s.id = $1", name, out);
	return rc;
}

int store_site_by_hostname(struct store_tx *tx, const char *hostname, struct site *out)
{
	return site_one(tx, "SELECT " SITE_COLS " FROM sites s WHERE s.hostname = $1", hostname, out);
}

int store_site_bump(struct store_tx *tx, const char *site_id)
{
	struct db_param p[] = { P_TEXT(site_id), P_INT(clock_now_ms()) };

	return st_exec(tx, "UPDATE sites SET generation = generation + 1, updated_at = $2 WHERE id = $1", p, NP(p),
		       NULL);
}

static int fill_share_link(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct site_share_link *l = out;
	int oom = 0;

	l->id = st_str(tx, r, 0, &oom);
	l->site_id = st_str(tx, r, 1, &oom);
	l->name = st_str(tx, r, 2, &oom);
	l->key = st_str(tx, r, 3, &oom);
	l->active = (int)st_int(tx, r, 4);
	l->created_at = st_int(tx, r, 5);
	return oom ? err_set(ERR_INTERNAL, "out of memory") : 0;
}

int store_site_share_link_by_key(struct store_tx *tx, const char *site_id, const char *key,
				 struct site_share_link *out)
{
	struct db_param p[] = { P_TEXT(site_id), P_TEXT(key) };
	int rc = st_one(tx,
			"SELECT id, site_id, name, key, active, created_at FROM site_share_links "
			"WHERE site_id = $1 AND key = $2 AND active = 1",
			p, NP(p), fill_share_link, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "share link not found") : rc;
}

int store_site_create(struct store_tx *tx, struct site *s)
{
	char id[ID_LEN + 1], k1[ID_LEN + 1], k2[ID_LEN + 1];
	char *key;

	if (id_new(id) || id_new(k1) || id_new(k2))
		return err_set(ERR_INTERNAL, "getrandom failed");
	if (!(s->id = arena_strdup(tx->arena, id)) || !(key = arena_printf(tx->arena, "%s%s", k1, k2)))
		return err_set(ERR_INTERNAL, "out of memory");
	s->visitor_key = key;
	s->created_at = s->updated_at = clock_now_ms();
	s->generation = 0;
	s->site_spaces = 0;
	if (!s->customization)
		s->customization = "{}";
	struct db_param p[] = { P_TEXT(s->id), P_TEXT(s->org_id), P_TEXT(s->type), P_TEXT(s->title),
				P_TEXT(s->visibility), P_INT(s->published), P_TEXT(s->agents_context),
				P_TEXT(s->customization), P_TEXT(s->visitor_key), P_INT(s->created_at) };
	return st_exec(tx,
		       "INSERT INTO sites (id, org_id, type, title, visibility, published, agents_context, customization, "
		       "visitor_key, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)",
		       p, NP(p), NULL);
}
