/*
 * saml_sso.c - what SAML sign-in remembers (store.h, "SAML sign-in"): the
 * AuthnRequests docsd issued, each consumed once by the response answering
 * it, and the IDs of the assertions it accepted, kept until they expire so
 * that the same assertion is never accepted twice. Expired rows are purged
 * when new ones are written.
 */
#include "store/internal.h"
#include "util/util.h"

int store_saml_request_add(struct store_tx *tx, const char *id, const char *provider_id, const char *next,
			   int64_t now, int64_t expires_at)
{
	struct db_param purge[] = { P_INT(now) };
	struct db_param p[] = { P_TEXT(id), P_TEXT(provider_id), P_TEXT(next), P_INT(now), P_INT(expires_at) };
	int rc = st_exec(tx, "DELETE FROM saml_requests WHERE expires_at <= $1", purge, NP(purge), NULL);

	return rc ? rc
		  : st_exec(tx,
			    "INSERT INTO saml_requests (id, provider_id, next, created_at, expires_at) "
			    "VALUES ($1, $2, $3, $4, $5)",
			    p, NP(p), NULL);
}

static int fill_next(struct store_tx *tx, struct db_rows *r, void *out)
{
	*(const char **)out = st_str(tx, r, 0);
	return 0;
}

int store_saml_request_take(struct store_tx *tx, const char *id, const char *provider_id, int64_t now,
			    const char **next)
{
	struct db_param p[] = { P_TEXT(id), P_TEXT(provider_id), P_INT(now) };
	int64_t changes = 0;
	int rc;

	*next = NULL;
	rc = st_one(tx, "SELECT next FROM saml_requests WHERE id = $1 AND provider_id = $2 AND expires_at > $3", p,
		    NP(p), fill_next, next);
	if (rc)
		return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "SAML request not found") : rc;
	/* The DELETE decides: of two responses racing for one request (on
	 * PostgreSQL the second waits for the first's commit), one deletes it. */
	rc = st_exec(tx, "DELETE FROM saml_requests WHERE id = $1 AND provider_id = $2 AND expires_at > $3", p, NP(p),
		     &changes);
	if (rc == 0 && changes != 1)
		return err_set(ERR_NOT_FOUND, "SAML request not found");
	return rc;
}

int store_saml_assertion_use(struct store_tx *tx, const char *provider_id, const char *assertion_id,
			     int64_t now, int64_t expires_at)
{
	struct db_param purge[] = { P_INT(now) };
	struct db_param p[] = { P_TEXT(provider_id), P_TEXT(assertion_id), P_INT(expires_at) };
	int64_t changes = 0;
	int rc = st_exec(tx, "DELETE FROM saml_assertions WHERE expires_at < $1", purge, NP(purge), NULL);

	if (rc == 0)
		rc = st_exec(tx,
			     "INSERT INTO saml_assertions (provider_id, assertion_id, expires_at) VALUES ($1, $2, $3) "
			     "ON CONFLICT (provider_id, assertion_id) DO NOTHING",
			     p, NP(p), &changes);
	if (rc == 0 && changes != 1)
		return err_set(ERR_CONFLICT, "SAML assertion already used");
	return rc;
}
