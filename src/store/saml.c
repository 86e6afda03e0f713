/*
 * saml.c - an organization's SAML identity providers.
 *
 * A provider's defaultTeam is read through a LEFT JOIN on teams, so a provider
 * whose team was deleted (the column is ON DELETE SET NULL) simply has none.
 * Unset entityID, certificate and ssoURL are stored as NULL.
 */
#include "store/internal.h"
#include "util/util.h"

#define SAML_COLS "s.id, s.org_id, s.label, s.entity_id, s.certificate, s.sso_url, s.default_role, s.created_at, "
#define SAML_NCOLS 8
#define SAML_FROM " FROM saml_providers s LEFT JOIN teams t ON t.id = s.default_team "

static int fill_saml(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct saml_provider *sp = out;
	int rc = 0;

	sp->id = st_str(tx, r, 0);
	sp->org_id = st_str(tx, r, 1);
	sp->label = st_str(tx, r, 2);
	sp->entity_id = st_str(tx, r, 3);
	sp->certificate = st_str(tx, r, 4);
	sp->sso_url = st_str(tx, r, 5);
	sp->default_role = role_parse(tx->drv->text(r, 6));
	if (sp->default_role == ROLE_NONE)
		sp->default_role = ROLE_GUEST;
	sp->created_at = st_int(tx, r, 7);
	sp->default_team = NULL;
	if (tx->drv->text(r, SAML_NCOLS)) {
		rc = store_fill_team(tx, r, SAML_NCOLS, &sp->team);
		sp->default_team = sp->team.id;
	}
	return rc;
}

int store_saml_create(struct store_tx *tx, struct saml_provider *sp)
{
	char id[ID_LEN + 1];

	if (id_new(id))
		return err_set(ERR_INTERNAL, "getrandom failed");
	sp->id = arena_strdup(tx->arena, id);
	sp->created_at = clock_now_ms();
	struct db_param p[] = {
		P_TEXT(sp->id), P_TEXT(sp->org_id), P_TEXT(sp->label), P_TEXT(sp->entity_id), P_TEXT(sp->certificate),
		P_TEXT(sp->sso_url), P_TEXT(sp->default_team), P_TEXT(role_name(sp->default_role)), P_INT(sp->created_at),
	};
	return st_exec(tx,
		       "INSERT INTO saml_providers (id, org_id, label, entity_id, certificate, sso_url, default_team, "
		       "default_role, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
		       p, NP(p), NULL);
}

int store_saml_get(struct store_tx *tx, const char *org_id, const char *id, struct saml_provider *out)
{
	struct db_param p[] = { P_TEXT(org_id), P_TEXT(id) };
	int rc = st_one(tx, "SELECT " SAML_COLS TEAM_COLS SAML_FROM "WHERE s.org_id = $1 AND s.id = $2",
			p, NP(p), fill_saml, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "SAML provider not found") : rc;
}

int store_saml_get_by_id(struct store_tx *tx, const char *id, struct saml_provider *out)
{
	struct db_param p[] = { P_TEXT(id) };
	int rc = st_one(tx, "SELECT " SAML_COLS TEAM_COLS SAML_FROM "WHERE s.id = $1", p, NP(p), fill_saml, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "SAML provider not found") : rc;
}

int store_saml_get_locked(struct store_tx *tx, const char *org_id, const char *id, struct saml_provider *out)
{
	struct db_param p[] = { P_TEXT(org_id), P_TEXT(id) };
	/* The provider's row only: the team of the LEFT JOIN is read, not locked. */
	int rc = st_one(tx, "SELECT " SAML_COLS TEAM_COLS SAML_FROM "WHERE s.org_id = $1 AND s.id = $2" DB_LOCK_ROW_OF("s"),
			p, NP(p), fill_saml, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "SAML provider not found") : rc;
}

int store_saml_update(struct store_tx *tx, const struct saml_provider *sp)
{
	struct db_param p[] = {
		P_TEXT(sp->org_id), P_TEXT(sp->id), P_TEXT(sp->label), P_TEXT(sp->entity_id), P_TEXT(sp->certificate),
		P_TEXT(sp->sso_url), P_TEXT(sp->default_team), P_TEXT(role_name(sp->default_role)),
	};
	int64_t changes = 0;
	int rc = st_exec(tx,
			 "UPDATE saml_providers SET label = $3, entity_id = $4, certificate = $5, sso_url = $6, "
			 "default_team = $7, default_role = $8 WHERE org_id = $1 AND id = $2",
			 p, NP(p), &changes);

	if (rc == 0 && changes == 0)
		return err_set(ERR_NOT_FOUND, "SAML provider not found");
	return rc;
}

int store_saml_delete(struct store_tx *tx, const char *org_id, const char *id, bool *removed)
{
	struct db_param p[] = { P_TEXT(org_id), P_TEXT(id) };
	int64_t changes = 0;
	int rc = st_exec(tx, "DELETE FROM saml_providers WHERE org_id = $1 AND id = $2", p, NP(p), &changes);

	*removed = changes > 0;
	return rc;
}

/* $1 org, $2 limit, $3/$4 cursor */
#define SAML_LIST(cmp) \
	"SELECT " SAML_COLS TEAM_COLS SAML_FROM "WHERE s.org_id = $1 " cmp "ORDER BY s.created_at, s.id LIMIT $2"

static void saml_key(const void *item, int64_t *key, const char **id)
{
	const struct saml_provider *sp = item;

	*key = sp->created_at;
	*id = sp->id;
}

int store_saml_list(struct store_tx *tx, const char *org_id, const struct list_req *lr,
		    struct saml_provider **items, int *n, char **next)
{
	/* One order (oldest first): both rows of the table are ascending. */
	static const char *const sql[2][2] = {
		{ SAML_LIST(""), SAML_LIST("AND (s.created_at, s.id) > ($3, $4) ") },
		{ SAML_LIST(""), SAML_LIST("AND (s.created_at, s.id) > ($3, $4) ") },
	};
	struct db_param p[4] = { P_TEXT(org_id) };

	int rc = st_list_keep(tx, sql, p, NP(p), 1, lr, fill_saml, sizeof(struct saml_provider), saml_key, NULL, NULL,
			      (void **)items, n, next);

	return rc ? rc : st_total(tx, lr, "SELECT COUNT(*) FROM saml_providers s WHERE s.org_id = $1", p, 1);
}
