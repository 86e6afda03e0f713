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
			   const char *nonce_hash, const char *link_user_id, int max_pending, int64_t now,
			   int64_t expires_at)
{
	struct db_param purge[] = { P_INT(now) };
	/* Before the insert, keep the newest max_pending - 1. */
	struct db_param cap[] = { P_TEXT(provider_id), P_INT(max_pending > 1 ? max_pending - 1 : 0) };
	struct db_param p[] = { P_TEXT(id),	    P_TEXT(provider_id), P_TEXT(next),	     P_INT(now),
				P_INT(expires_at), P_TEXT(nonce_hash),	P_TEXT(link_user_id) };
	int rc = st_exec(tx, "DELETE FROM saml_requests WHERE expires_at <= $1", purge, NP(purge), NULL);

	/* A flood of starts (one row each) keeps the provider's newest
	 * max_pending: the oldest pending sign-ins expire early. */
	if (rc == 0)
		rc = st_exec(tx,
			     "DELETE FROM saml_requests WHERE provider_id = $1 AND created_at <= "
			     "(SELECT created_at FROM saml_requests WHERE provider_id = $1 "
			     "ORDER BY created_at DESC LIMIT 1 OFFSET $2)",
			     cap, NP(cap), NULL);
	return rc ? rc
		  : st_exec(tx,
			    "INSERT INTO saml_requests (id, provider_id, next, created_at, expires_at, nonce_hash, "
			    "link_user_id) VALUES ($1, $2, $3, $4, $5, $6, $7)",
			    p, NP(p), NULL);
}

static int fill_request(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct saml_request *q = out;

	q->next = st_str(tx, r, 0);
	q->nonce_hash = st_str(tx, r, 1);
	q->link_user_id = st_str(tx, r, 2);
	return 0;
}

int store_saml_request_take(struct store_tx *tx, const char *id, const char *provider_id, int64_t now,
			    struct saml_request *out)
{
	struct db_param p[] = { P_TEXT(id), P_TEXT(provider_id), P_INT(now) };
	int64_t changes = 0;
	int rc;

	*out = (struct saml_request){ 0 };
	rc = st_one(tx,
		    "SELECT next, nonce_hash, link_user_id FROM saml_requests "
		    "WHERE id = $1 AND provider_id = $2 AND expires_at > $3",
		    p, NP(p), fill_request, out);
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

static int fill_user_id(struct store_tx *tx, struct db_rows *r, void *out)
{
	*(const char **)out = st_str(tx, r, 0);
	return 0;
}

int store_saml_identity_get(struct store_tx *tx, const char *provider_id, const char *subject, const char **user_id)
{
	struct db_param p[] = { P_TEXT(provider_id), P_TEXT(subject) };
	int rc = st_one(tx, "SELECT user_id FROM saml_identities WHERE provider_id = $1 AND subject = $2", p, NP(p),
			fill_user_id, user_id);

	return rc == ERR_NOT_FOUND ? err_set(ERR_NOT_FOUND, "no such SAML identity") : rc;
}

int store_saml_identity_add(struct store_tx *tx, const char *provider_id, const char *subject, const char *user_id,
			    const char *how, int64_t now)
{
	struct db_param p[] = { P_TEXT(provider_id), P_TEXT(subject), P_TEXT(user_id), P_TEXT(how), P_INT(now) };
	int64_t changes = 0;
	/* Both keys (provider + subject, user + provider): no target, so that
	 * either conflict is a no-op both engines count as 0 changes. */
	int rc = st_exec(tx,
			 "INSERT INTO saml_identities (provider_id, subject, user_id, how, created_at) "
			 "VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
			 p, NP(p), &changes);

	if (rc == 0 && changes != 1)
		return err_set(ERR_CONFLICT, "the SAML identity or the user's link to the provider exists already");
	return rc;
}

int store_saml_identity_remove(struct store_tx *tx, const char *provider_id, const char *user_id, bool *removed)
{
	struct db_param p[] = { P_TEXT(provider_id), P_TEXT(user_id) };
	int64_t changes = 0;
	int rc = st_exec(tx, "DELETE FROM saml_identities WHERE provider_id = $1 AND user_id = $2", p, NP(p), &changes);

	*removed = changes > 0;
	return rc;
}

static int fill_link(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct saml_link *l = out;

	l->provider_id = st_str(tx, r, 0);
	l->label = st_str(tx, r, 1);
	l->org_id = st_str(tx, r, 2);
	l->org_title = st_str(tx, r, 3);
	l->how = st_str(tx, r, 4);
	l->active = st_int(tx, r, 5) != 0;
	return 0;
}

int store_saml_links_of_user(struct store_tx *tx, const char *user_id, struct saml_link **items, int *n)
{
	struct db_param p[] = { P_TEXT(user_id), P_INT(201) };
	int more;

	return st_list(tx,
		       "SELECT s.id, s.label, s.org_id, o.title, i.how, "
		       "CASE WHEN s.sso_url IS NOT NULL AND s.entity_id IS NOT NULL AND s.certificate IS NOT NULL "
		       "THEN 1 ELSE 0 END "
		       "FROM members m JOIN saml_providers s ON s.org_id = m.org_id JOIN orgs o ON o.id = m.org_id "
		       "LEFT JOIN saml_identities i ON i.provider_id = s.id AND i.user_id = m.user_id "
		       "WHERE m.user_id = $1 ORDER BY o.title, s.created_at, s.id LIMIT $2",
		       p, NP(p), 200, fill_link, sizeof(struct saml_link), (void **)items, n, &more);
}

static int fill_verification(struct store_tx *tx, struct db_rows *r, void *out)
{
	struct domain_verification *v = out;

	v->domain = st_str(tx, r, 0);
	v->token = st_str(tx, r, 1);
	v->verified_at = st_int(tx, r, 2);
	return 0;
}

int store_domain_verifications(struct store_tx *tx, const char *org_id, struct domain_verification **items, int *n)
{
	struct db_param p[] = { P_TEXT(org_id) };

	return st_all(tx,
		      "SELECT d.domain, v.token, COALESCE(v.verified_at, 0) FROM org_email_domains d "
		      "LEFT JOIN org_domain_verifications v ON v.org_id = d.org_id AND v.domain = LOWER(d.domain) "
		      "WHERE d.org_id = $1 ORDER BY d.domain",
		      p, NP(p), fill_verification, sizeof(struct domain_verification), (void **)items, n);
}

int store_domain_token_issue(struct store_tx *tx, const char *org_id, const char *domain, const char *token,
			     int64_t now)
{
	struct db_param p[] = { P_TEXT(org_id), P_TEXT(domain), P_TEXT(token), P_INT(now) };

	return st_exec(tx,
		       "INSERT INTO org_domain_verifications (org_id, domain, token, created_at) VALUES ($1, $2, $3, $4) "
		       "ON CONFLICT (org_id, domain) DO NOTHING",
		       p, NP(p), NULL);
}

int store_domain_mark_verified(struct store_tx *tx, const char *org_id, const char *domain, const char *token,
			       int64_t now)
{
	struct db_param p[] = { P_TEXT(org_id), P_TEXT(domain), P_TEXT(token), P_INT(now) };
	int64_t changes = 0;
	int rc = st_exec(tx,
			 "UPDATE org_domain_verifications SET verified_at = $4 "
			 "WHERE org_id = $1 AND domain = $2 AND token = $3",
			 p, NP(p), &changes);

	if (rc == 0 && changes != 1)
		return err_set(ERR_NOT_FOUND, "no verification token for '%s'", domain);
	return rc;
}

int store_domain_verified(struct store_tx *tx, const char *org_id, const char *domain, bool *out)
{
	struct db_param p[] = { P_TEXT(org_id), P_TEXT(domain) };
	int rc = st_one(tx,
			"SELECT 1 FROM org_email_domains d JOIN org_domain_verifications v "
			"ON v.org_id = d.org_id AND v.domain = LOWER(d.domain) "
			"WHERE d.org_id = $1 AND LOWER(d.domain) = $2 AND v.verified_at IS NOT NULL",
			p, NP(p), NULL, NULL);

	*out = rc == 0;
	return rc == ERR_NOT_FOUND ? (err_clear(), 0) : rc;
}
