/*
 * invites.c - an organization's invite links.
 */
#include "store/internal.h"
#include "util/util.h"

static int fill_invite(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct invite *inv = out;

	inv->id = st_str(tx, r, 0);
	inv->org_id = st_str(tx, r, 1);
	inv->role = role_parse(tx->drv->text(r, 2));
	if (inv->role == ROLE_NONE)
		inv->role = ROLE_GUEST;
	inv->created_at = st_int(tx, r, 3);
	return 0;
}

int store_invite_create(struct store_tx *tx, struct invite *inv)
{
	char id[ID_LEN + 1];

	if (id_new(id))
		return err_set(ERR_INTERNAL, "getrandom failed");
	inv->id = arena_strdup(tx->arena, id);
	inv->created_at = clock_now_ms();
	struct db_param p[] = { P_TEXT(inv->id), P_TEXT(inv->org_id), P_TEXT(role_name(inv->role)), P_INT(inv->created_at) };
	return st_exec(tx, "INSERT INTO invites (id, org_id, role, created_at) VALUES ($1, $2, $3, $4)", p, NP(p), NULL);
}

int store_invite_get(struct store_tx *tx, const char *org_id, const char *id, struct invite *out)
{
	struct db_param p[] = { P_TEXT(org_id), P_TEXT(id) };
	int rc = st_one(tx, "SELECT id, org_id, role, created_at FROM invites WHERE org_id = $1 AND id = $2",
			p, NP(p), fill_invite, out);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "invite not found") : rc;
}

int store_invite_set_role(struct store_tx *tx, const char *org_id, const char *id, enum role role)
{
	struct db_param p[] = { P_TEXT(org_id), P_TEXT(id), P_TEXT(role_name(role)) };
	int64_t changes = 0;
	int rc = st_exec(tx, "UPDATE invites SET role = $3 WHERE org_id = $1 AND id = $2", p, NP(p), &changes);

	if (rc == 0 && changes == 0)
		return err_set(ERR_NOT_FOUND, "invite not found");
	return rc;
}

int store_invite_delete(struct store_tx *tx, const char *org_id, const char *id, bool *removed)
{
	struct db_param p[] = { P_TEXT(org_id), P_TEXT(id) };
	int64_t changes = 0;
	int rc = st_exec(tx, "DELETE FROM invites WHERE org_id = $1 AND id = $2", p, NP(p), &changes);

	*removed = changes > 0;
	return rc;
}

#define INVITE_LIST(cmp) \
	"SELECT id, org_id, role, created_at FROM invites WHERE org_id = $1 " cmp \
	"ORDER BY created_at, id LIMIT $2"

static void invite_key(const void *item, int64_t *key, const char **id)
{
	const struct invite *inv = item;

	*key = inv->created_at;
	*id = inv->id;
}

int store_invites_list(struct store_tx *tx, const char *org_id, const struct list_req *lr,
		       struct invite **items, int *n, char **next)
{
	/* One order (oldest first): both rows of the table are ascending. */
	static const char *const sql[2][2] = {
		{ INVITE_LIST(""), INVITE_LIST("AND (created_at, id) > ($3, $4) ") },
		{ INVITE_LIST(""), INVITE_LIST("AND (created_at, id) > ($3, $4) ") },
	};
	struct db_param p[4] = { P_TEXT(org_id) };
	int rc = st_list_keep(tx, sql, p, NP(p), 1, lr, fill_invite, sizeof(struct invite), invite_key, NULL, NULL,
			      (void **)items, n, next);

	return rc ? rc : st_total(tx, lr, "SELECT COUNT(*) FROM invites WHERE org_id = $1", p, 1);
}
