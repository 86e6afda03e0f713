/*
 * sites.c - docs sites and their share links (store/sites.h).
 *
 * A site's siteSpaces count is computed on read (an indexed count of its
 * site_spaces rows whose space is live: the structure leaves deleted spaces
 * out too), never stored, so it cannot drift from the rows.
 */
#include "store/internal.h"
#include "util/util.h"

#include <string.h>

#define SITE_COLS "s.id, s.org_id, s.type, s.title, s.visibility, s.published, s.basename, s.hostname, " \
	"s.proxy, s.icon, s.adaptive_enabled, s.agents_context, s.adaptive_schema, s.adaptive_updated_at, " \
	"s.customization, s.visitor_key, s.generation, s.created_at, s.updated_at, " \
	"(SELECT COUNT(*) FROM site_spaces x JOIN spaces y ON y.id = x.space_id WHERE x.site_id = s.id AND y.deleted_at IS NULL)"

static int fill_site(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct site *s = out;

	memset(s, 0, sizeof(*s));
	s->id = st_str(tx, r, 0);
	s->org_id = st_str(tx, r, 1);
	s->type = st_str(tx, r, 2);
	s->title = st_str(tx, r, 3);
	s->visibility = st_str(tx, r, 4);
	s->published = (int)st_int(tx, r, 5);
	s->basename = st_str(tx, r, 6);
	s->hostname = st_str(tx, r, 7);
	s->proxy = st_str(tx, r, 8);
	s->icon = st_str(tx, r, 9);
	s->adaptive_enabled = (int)st_int(tx, r, 10);
	s->agents_context = st_str(tx, r, 11);
	s->adaptive_schema = st_str(tx, r, 12);
	s->adaptive_updated_at = st_int(tx, r, 13);
	s->customization = st_str(tx, r, 14);
	s->visitor_key = st_str(tx, r, 15);
	s->generation = st_int(tx, r, 16);
	s->created_at = st_int(tx, r, 17);
	s->updated_at = st_int(tx, r, 18);
	s->site_spaces = st_int(tx, r, 19);
	return 0;
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
	/* lower(basename): basenames are unique without regard to case
	 * (migration 15's index answers this), so SITEC finds sitec. */
	int rc = site_one(tx, "SELECT " SITE_COLS " FROM sites s WHERE lower(s.basename) = lower($1)", name, out);

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
	struct site s;
	int rc = st_exec(tx, "UPDATE sites SET generation = generation + 1, updated_at = $2 WHERE id = $1", p, NP(p),
			 NULL);

	/* The organization's generation too: the published profile is a cached
	 * page (ROUTE_CACHE_ADMIN) keyed on it. */
	if (rc || (rc = store_site_get(tx, site_id, &s)))
		return rc;
	return store_org_bump(tx, s.org_id);
}

static int fill_share_link(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct site_share_link *l = out;

	l->id = st_str(tx, r, 0);
	l->site_id = st_str(tx, r, 1);
	l->name = st_str(tx, r, 2);
	l->key = st_str(tx, r, 3);
	l->active = (int)st_int(tx, r, 4);
	l->created_at = st_int(tx, r, 5);
	return 0;
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

	if (id_new(id) || id_new(k1) || id_new(k2))
		return err_set(ERR_INTERNAL, "getrandom failed");
	s->id = arena_strdup(tx->arena, id);
	s->visitor_key = arena_printf(tx->arena, "%s%s", k1, k2);
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

static void site_key(const void *item, int64_t *key, const char **id)
{
	const struct site *s = item;

	*key = s->created_at;
	*id = s->id;
}

/* $1 org, $2 limit, $3 title LIKE pattern, $4 published (-1: any), $5 space,
 * $6 number of types, $7..$12 types, $13/$14 cursor. The total: the same
 * filters, $2..$11 (SITE_COUNT). */
#define SITE_WHERE(a, b, c, d, e, f, g, h, i, j) "WHERE s.org_id = $1 " \
	"AND (CAST(" a " AS TEXT) IS NULL OR lower(s.title) LIKE " a " ESCAPE '\\') " \
	"AND (" b " < 0 OR s.published = " b ") " \
	"AND (CAST(" c " AS TEXT) IS NULL OR EXISTS (SELECT 1 FROM site_spaces x WHERE x.site_id = s.id " \
	"AND x.space_id = " c ")) " \
	"AND (" d " = 0 OR s.type IN (" e ", " f ", " g ", " h ", " i ", " j ")) "
#define SITE_LIST(cmp, dir) \
	"SELECT " SITE_COLS " FROM sites s " SITE_WHERE("$3", "$4", "$5", "$6", "$7", "$8", "$9", "$10", "$11", "$12") \
	cmp "ORDER BY s.created_at " dir ", s.id " dir " LIMIT $2"
#define SITE_COUNT \
	"SELECT COUNT(*) FROM sites s " SITE_WHERE("$2", "$3", "$4", "$5", "$6", "$7", "$8", "$9", "$10", "$11")

static const char *const site_list_sql[2][2] = {
	[0][0] = SITE_LIST("", "ASC"),
	[0][1] = SITE_LIST("AND (s.created_at, s.id) > ($13, $14) ", "ASC"),
	[1][0] = SITE_LIST("", "DESC"),
	[1][1] = SITE_LIST("AND (s.created_at, s.id) < ($13, $14) ", "DESC"),
};

int store_sites_list(struct store_tx *tx, const char *org_id, const struct site_filter *f,
		     const struct list_req *lr, struct site **items, int *n, char **next)
{
	struct db_param p[14];
	const char *like = NULL;

	if (f->title && *f->title)
		like = st_like_pattern(tx, f->title);
	p[0] = P_TEXT(org_id);
	p[1] = P_NULL;
	p[2] = P_TEXT(like);
	p[3] = P_INT(f->published);
	p[4] = P_TEXT(f->space_id);
	p[5] = P_INT(f->ntypes);
	for (int i = 0; i < 6; i++)
		p[6 + i] = P_TEXT(i < f->ntypes ? f->types[i] : NULL);
	int rc = st_list_keep(tx, site_list_sql, p, NP(p), 1, lr, fill_site, sizeof(struct site), site_key, f->keep,
			      f->keep_ctx, (void **)items, n, next);
	struct db_param c[12];

	if (rc)
		return rc;
	if (f->keep)
		return st_total_keep(tx, lr, site_list_sql, p, NP(p), 1, fill_site, sizeof(struct site), site_key,
				     f->keep, f->keep_ctx);
	c[0] = p[0];
	for (int i = 1; i < 12; i++)
		c[i] = p[i + 1];
	return st_total(tx, lr, SITE_COUNT, c, 11);
}

int store_site_update(struct store_tx *tx, const struct site *s)
{
	struct db_param p[] = { P_TEXT(s->id),		P_TEXT(s->title),	    P_TEXT(s->visibility),
				P_INT(s->published),	P_TEXT(s->basename),	    P_TEXT(s->proxy),
				P_INT(s->adaptive_enabled), P_TEXT(s->agents_context), P_INT(clock_now_ms()),
				P_TEXT(s->hostname) };

	return st_exec(tx,
		       "UPDATE sites SET title = $2, visibility = $3, published = $4, basename = $5, proxy = $6, "
		       "adaptive_enabled = $7, agents_context = $8, updated_at = $9, hostname = $10 WHERE id = $1",
		       p, NP(p), NULL);
}

static int fill_exists(struct store_tx *tx, struct db_rows *r, void *out)
{
	(void)tx;
	(void)r;
	*(bool *)out = true;
	return 0;
}

int store_site_basename_taken(struct store_tx *tx, const char *site_id, const char *name, bool *taken)
{
	struct db_param p[] = { P_TEXT(site_id), P_TEXT(name) };
	int rc;

	*taken = false;
	/* Without regard to case, like the lookup (store_site_by_name): a
	 * basename that differs from another's, or from another site's id, only
	 * in case would be served at the same URL. */
	rc = st_one(tx, "SELECT 1 FROM sites WHERE id <> $1 AND (lower(basename) = lower($2) OR lower(id) = lower($2))", p,
		    NP(p), fill_exists, taken);
	return rc == ERR_NOT_FOUND ? 0 : rc;
}

int store_site_hostname_taken(struct store_tx *tx, const char *site_id, const char *hostname, bool *taken)
{
	struct db_param p[] = { P_TEXT(site_id), P_TEXT(hostname) };
	int rc;

	*taken = false;
	rc = st_one(tx, "SELECT 1 FROM sites WHERE id <> $1 AND hostname = $2", p, NP(p), fill_exists, taken);
	return rc == ERR_NOT_FOUND ? 0 : rc;
}

int store_site_delete(struct store_tx *tx, const char *org_id, const char *site_id, bool *deleted)
{
	struct db_param p[] = { P_TEXT(org_id), P_TEXT(site_id) };
	int64_t changes = 0;
	int rc;

	*deleted = false;
	rc = st_exec(tx, "UPDATE orgs SET default_site = NULL WHERE id = $1 AND default_site = $2", p, NP(p), NULL);
	if (rc == 0)
		rc = st_exec(tx, "DELETE FROM sites WHERE org_id = $1 AND id = $2", p, NP(p), &changes);
	*deleted = changes > 0;
	/* Cached pages of the site (its published profile) end with it. */
	return rc || !*deleted ? rc : store_org_bump(tx, org_id);
}

int store_site_set_customization(struct store_tx *tx, const char *site_id, const char *json)
{
	struct db_param p[] = { P_TEXT(site_id), P_TEXT(json) };

	return st_exec(tx, "UPDATE sites SET customization = $2 WHERE id = $1", p, NP(p), NULL);
}

int store_site_set_adaptive_schema(struct store_tx *tx, const char *site_id, const char *json, int64_t at)
{
	struct db_param p[] = { P_TEXT(site_id), P_TEXT(json), P_INT(at) };

	return st_exec(tx, "UPDATE sites SET adaptive_schema = $2, adaptive_updated_at = $3 WHERE id = $1", p, NP(p),
		       NULL);
}

static int fill_auth(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct site_publishing_auth *a = out;

	a->backend = st_str(tx, r, 0);
	a->fallback_url = st_str(tx, r, 1);
	a->private_key = st_str(tx, r, 2);
	return 0;
}

int store_site_publishing_auth(struct store_tx *tx, const char *site_id, struct site_publishing_auth *out)
{
	struct db_param p[] = { P_TEXT(site_id) };
	int rc = st_one(tx, "SELECT visitor_auth_backend, visitor_auth_fallback_url, visitor_key FROM sites WHERE id = $1",
			p, NP(p), fill_auth, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "site not found") : rc;
}

int store_site_set_publishing_auth(struct store_tx *tx, const char *site_id, const struct site_publishing_auth *a)
{
	struct db_param p[] = { P_TEXT(site_id), P_TEXT(a->backend), P_TEXT(a->fallback_url),
				P_TEXT(a->private_key) };

	return st_exec(tx,
		       "UPDATE sites SET visitor_auth_backend = $2, visitor_auth_fallback_url = $3, "
		       "visitor_key = COALESCE(CAST($4 AS TEXT), visitor_key) WHERE id = $1",
		       p, NP(p), NULL);
}

int store_site_space_set_customization(struct store_tx *tx, const char *site_id, const char *id, const char *json,
				       bool *changed)
{
	struct db_param p[] = { P_TEXT(site_id), P_TEXT(id), P_TEXT(json) };
	int64_t changes = 0;
	int rc = st_exec(tx,
			 "UPDATE site_spaces SET customization = $3 WHERE site_id = $1 AND id = $2 "
			 "AND customization IS DISTINCT FROM CAST($3 AS TEXT)",
			 p, NP(p), &changes);

	*changed = changes > 0;
	return rc;
}

#define SHARE_LINK_COLS "id, site_id, name, key, active, created_at"

static void share_link_key(const void *item, int64_t *key, const char **id)
{
	const struct site_share_link *l = item;

	*key = l->created_at;
	*id = l->id;
}

/* $1 site, $2 limit, $3/$4 cursor */
#define SHARE_LINK_LIST(cmp, dir) \
	"SELECT " SHARE_LINK_COLS " FROM site_share_links WHERE site_id = $1 " cmp \
	"ORDER BY created_at " dir ", id " dir " LIMIT $2"

static const char *const share_link_list_sql[2][2] = {
	[0][0] = SHARE_LINK_LIST("", "ASC"),
	[0][1] = SHARE_LINK_LIST("AND (created_at, id) > ($3, $4) ", "ASC"),
	[1][0] = SHARE_LINK_LIST("", "DESC"),
	[1][1] = SHARE_LINK_LIST("AND (created_at, id) < ($3, $4) ", "DESC"),
};

int store_site_share_links_list(struct store_tx *tx, const char *site_id, const struct list_req *lr,
				struct site_share_link **items, int *n, char **next)
{
	struct db_param p[4] = { P_TEXT(site_id) };

	int rc = st_list_keep(tx, share_link_list_sql, p, NP(p), 1, lr, fill_share_link,
			      sizeof(struct site_share_link), share_link_key, NULL, NULL, (void **)items, n, next);

	return rc ? rc : st_total(tx, lr, "SELECT COUNT(*) FROM site_share_links WHERE site_id = $1", p, 1);
}

int store_site_share_link_create(struct store_tx *tx, struct site_share_link *l)
{
	char id[ID_LEN + 1], k1[ID_LEN + 1], k2[ID_LEN + 1];

	if (id_new(id) || id_new(k1) || id_new(k2))
		return err_set(ERR_INTERNAL, "getrandom failed");
	l->id = arena_strdup(tx->arena, id);
	l->key = arena_printf(tx->arena, "%s%s", k1, k2);
	l->active = 1;
	l->created_at = clock_now_ms();
	struct db_param p[] = { P_TEXT(l->id), P_TEXT(l->site_id), P_TEXT(l->name), P_TEXT(l->key),
				P_INT(l->created_at) };
	return st_exec(tx,
		       "INSERT INTO site_share_links (id, site_id, name, key, active, created_at) "
		       "VALUES ($1, $2, $3, $4, 1, $5)",
		       p, NP(p), NULL);
}

int store_site_share_link_get(struct store_tx *tx, const char *site_id, const char *id, struct site_share_link *out)
{
	struct db_param p[] = { P_TEXT(site_id), P_TEXT(id) };
	int rc = st_one(tx, "SELECT " SHARE_LINK_COLS " FROM site_share_links WHERE site_id = $1 AND id = $2", p, NP(p),
			fill_share_link, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "share link not found") : rc;
}

int store_site_share_link_update(struct store_tx *tx, const struct site_share_link *l)
{
	struct db_param p[] = { P_TEXT(l->site_id), P_TEXT(l->id), P_TEXT(l->name), P_INT(l->active) };

	return st_exec(tx, "UPDATE site_share_links SET name = $3, active = $4 WHERE site_id = $1 AND id = $2", p, NP(p),
		       NULL);
}

int store_site_share_link_delete(struct store_tx *tx, const char *site_id, const char *id, bool *deleted)
{
	struct db_param p[] = { P_TEXT(site_id), P_TEXT(id) };
	int64_t changes = 0;
	int rc = st_exec(tx, "DELETE FROM site_share_links WHERE site_id = $1 AND id = $2", p, NP(p), &changes);

	*deleted = changes > 0;
	return rc;
}
