/*
 * orgs.c - organizations, their email domains, and a caller's membership.
 */
#include "store/internal.h"
#include "util/util.h"

#include <string.h>

#define ORG_COLS "o.id, o.title, o.created_at, o.email_domains, o.hostname, o.type, o.use_case, " \
	"o.community_type, o.default_role, o.default_site, o.logo, o.sso, o.ai, o.invite_links, o.plan, o.merge_rules"

static int fill_org(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct org *o = out;

	o->id = st_str(tx, r, 0);
	o->title = st_str(tx, r, 1);
	o->created_at = st_int(tx, r, 2);
	o->email_domains = st_str(tx, r, 3);
	o->hostname = st_str(tx, r, 4);
	o->type = st_str(tx, r, 5);
	o->use_case = st_str(tx, r, 6);
	o->community_type = st_str(tx, r, 7);
	o->default_role = role_parse(tx->drv->text(r, 8));
	o->default_site = st_str(tx, r, 9);
	o->logo = st_str(tx, r, 10);
	o->sso = (int)st_int(tx, r, 11);
	o->ai = (int)st_int(tx, r, 12);
	o->invite_links = (int)st_int(tx, r, 13);
	o->plan = st_str(tx, r, 14);
	o->merge_rules = st_str(tx, r, 15);
	if (o->default_role == ROLE_NONE)
		o->default_role = ROLE_GUEST;
	return 0;
}

int store_org_create(struct store_tx *tx, struct org *org, const char *admin_user_id)
{
	char id[ID_LEN + 1];
	int rc;
	bool added;

	if (id_new(id))
		return err_set(ERR_INTERNAL, "getrandom failed");
	org->id = arena_strdup(tx->arena, id);
	org->created_at = clock_now_ms();
	struct db_param p[] = {
		P_TEXT(org->id), P_TEXT(org->title), P_INT(org->created_at), P_TEXT(org->email_domains),
		P_TEXT(role_name(org->default_role)),
	};
	rc = st_exec(tx, "INSERT INTO orgs (id, title, created_at, email_domains, default_role) VALUES ($1, $2, $3, $4, $5)",
		     p, NP(p), NULL);
	if (rc)
		return rc;
	rc = store_member_add(tx, org->id, admin_user_id, ROLE_ADMIN, 0, &added);
	if (rc)
		return rc;
	return store_org_get(tx, org->id, org);
}

int store_org_get(struct store_tx *tx, const char *id, struct org *out)
{
	struct db_param p[] = { P_TEXT(id) };
	int rc = st_one(tx, "SELECT " ORG_COLS " FROM orgs o WHERE o.id = $1", p, 1, fill_org, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "organization not found") : rc;
}

int store_org_get_locked(struct store_tx *tx, const char *id, struct org *out)
{
	struct db_param p[] = { P_TEXT(id) };
	int rc = st_one(tx, "SELECT " ORG_COLS " FROM orgs o WHERE o.id = $1" DB_LOCK_ROW, p, 1, fill_org, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "organization not found") : rc;
}

int store_org_update(struct store_tx *tx, const struct org *o)
{
	struct db_param p[] = {
		P_TEXT(o->id), P_TEXT(o->title), P_TEXT(o->email_domains), P_TEXT(o->hostname),
		P_TEXT(role_name(o->default_role)), P_TEXT(o->default_site), P_TEXT(o->logo),
		P_BOOL(o->sso), P_BOOL(o->ai), P_BOOL(o->invite_links), P_TEXT(o->merge_rules),
	};
	int64_t changes = 0;
	int rc = st_exec(tx,
			 "UPDATE orgs SET title = $2, email_domains = $3, hostname = $4, default_role = $5, "
			 "default_site = $6, logo = $7, sso = $8, ai = $9, invite_links = $10, merge_rules = $11 "
			 "WHERE id = $1",
			 p, NP(p), &changes);

	if (rc == ERR_CONFLICT)
		return err_set(ERR_CONFLICT, "hostname: '%s' is already used by another organization", o->hostname);
	if (rc == 0 && changes == 0)
		return err_set(ERR_NOT_FOUND, "organization not found");
	return rc;
}

int store_org_set_email_domains(struct store_tx *tx, const char *org_id, const char *const *domains, int n)
{
	struct db_param p[] = { P_TEXT(org_id), P_NULL };
	int rc = st_exec(tx, "DELETE FROM org_email_domains WHERE org_id = $1", p, 1, NULL);

	for (int i = 0; rc == 0 && i < n; i++) {
		p[1] = P_TEXT(domains[i]);
		rc = st_exec(tx, "INSERT INTO org_email_domains (domain, org_id) VALUES ($2, $1) ON CONFLICT DO NOTHING",
			     p, 2, NULL);
	}
	return rc;
}

int store_org_hostname_check(struct store_tx *tx, const char *hostname, const char *org_id)
{
	struct db_param p[] = { P_TEXT(hostname), P_TEXT(org_id) };
	int rc = st_one(tx, "SELECT 1 FROM orgs WHERE hostname = $1 AND id <> $2", p, NP(p), NULL, NULL);

	if (rc == ERR_NOT_FOUND)
		return 0;
	if (rc == 0)
		return err_set(ERR_CONFLICT, "hostname: '%s' is already used by another organization", hostname);
	return rc;
}

int store_orgs_for_user(struct store_tx *tx, const char *user_id, const struct list_req *lr,
			struct org **items, int *n, char **next)
{
	static const char *const sql[2][2] = {
		[0][0] = "SELECT " ORG_COLS " FROM members m JOIN orgs o ON o.id = m.org_id WHERE m.user_id = $1 "
			 "ORDER BY o.created_at ASC, o.id ASC LIMIT $2",
		[0][1] = "SELECT " ORG_COLS " FROM members m JOIN orgs o ON o.id = m.org_id WHERE m.user_id = $1 "
			 "AND (o.created_at, o.id) > ($3, $4) ORDER BY o.created_at ASC, o.id ASC LIMIT $2",
		[1][0] = "SELECT " ORG_COLS " FROM members m JOIN orgs o ON o.id = m.org_id WHERE m.user_id = $1 "
			 "ORDER BY o.created_at DESC, o.id DESC LIMIT $2",
		[1][1] = "SELECT " ORG_COLS " FROM members m JOIN orgs o ON o.id = m.org_id WHERE m.user_id = $1 "
			 "AND (o.created_at, o.id) < ($3, $4) ORDER BY o.created_at DESC, o.id DESC LIMIT $2",
	};
	struct db_param p[4];
	int more, rc;

	p[0] = P_TEXT(user_id);
	p[1] = P_INT(lr->limit + 1);
	rc = st_cursor_int_param(lr, &p[2], &p[3]);
	if (rc)
		return rc;
	rc = st_list(tx, sql[lr->desc != 0][lr->after != NULL], p, 4, lr->limit, fill_org, sizeof(struct org),
		     (void **)items, n, &more);
	if (rc || (rc = st_total(tx, lr, "SELECT COUNT(*) FROM members m WHERE m.user_id = $1", p, 1)))
		return rc;
	*next = NULL;
	if (more && *n > 0) {
		*next = cursor_encode_int(tx->arena, (*items)[*n - 1].created_at, (*items)[*n - 1].id);
		if (!*next)
			return err_set(ERR_INTERNAL, "cannot encode the page cursor");
	}
	return 0;
}

int store_orgs_by_email_domain(struct store_tx *tx, const char *domain, struct org **items, int *n)
{
	struct db_param p[] = { P_TEXT(domain), P_INT(1001) };
	int more;

	return st_list(tx,
		       "SELECT " ORG_COLS " FROM org_email_domains d JOIN orgs o ON o.id = d.org_id "
		       "WHERE d.domain = $1 ORDER BY o.created_at, o.id LIMIT $2",
		       p, NP(p), 1000, fill_org, sizeof(struct org), (void **)items, n, &more);
}

static int fill_membership(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct membership *m = out;

	m->role = role_parse(tx->drv->text(r, 0));
	if (m->role == ROLE_NONE)
		m->role = ROLE_GUEST;
	m->owns_team = st_int(tx, r, 1) != 0;
	m->generation = st_int(tx, r, 2);
	m->org_default = role_parse(tx->drv->text(r, 3));
	if (m->org_default == ROLE_NONE)
		m->org_default = ROLE_GUEST;
	m->token_gen = st_int(tx, r, 4);
	return 0;
}

int store_membership(struct store_tx *tx, const char *org_id, const char *user_id, struct membership *out)
{
	struct db_param p[] = { P_TEXT(org_id), P_TEXT(user_id) };
	int rc = st_one(tx,
			"SELECT m.role, CASE WHEN EXISTS (SELECT 1 FROM team_members tm WHERE tm.org_id = m.org_id "
			"AND tm.user_id = m.user_id AND tm.role = 'owner') THEN 1 ELSE 0 END, o.generation, o.default_role, "
			/* The token cache's check rides along (http/tokens.c): one
			 * primary-key seek, no round trip of its own. */
			"(SELECT u.token_gen FROM users u WHERE u.id = m.user_id) "
			"FROM members m JOIN orgs o ON o.id = m.org_id WHERE m.org_id = $1 AND m.user_id = $2",
			p, NP(p), fill_membership, out);

	if (rc == ERR_NOT_FOUND) {
		out->role = ROLE_NONE;
		out->owns_team = 0;
		out->generation = 0;
		out->org_default = ROLE_GUEST;
		out->token_gen = -1;
		return 0;
	}
	return rc;
}

int store_org_bump(struct store_tx *tx, const char *org_id)
{
	struct db_param p[] = { P_TEXT(org_id) };

	return st_exec(tx, "UPDATE orgs SET generation = generation + 1 WHERE id = $1", p, NP(p), NULL);
}
