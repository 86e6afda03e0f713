/*
 * members.c - organization members.
 */
#include "api/api.h"
#include "core/serialize_meta.h"
#include "util/util.h"

int api_send_member(struct req *r, const struct member *m)
{
	struct jw *g = resp_json(r, 200);

	if (!g)
		return err_set(ERR_INTERNAL, "out of memory");
	member_to_json(g, api_base(r), m, api_sees_emails(r));
	return 0;
}

int member_list(struct req *r)
{
	static const char *const roles[] = { "admin", "create", "review", "edit", "comment", "read", "guest", NULL };
	static const char *const sorts[] = { "joinedAt", "lastSeenAt", NULL };
	struct member_filter f = { 0 };
	struct list_req lr;
	struct cursor cur;
	struct member *items;
	char *next;
	struct jw *g;
	int n, rc, role, sort;

	if ((rc = req_list(r, &lr, &cur, "order", 1)) || (rc = req_query_enum(r, "role", roles, &role)) ||
	    (rc = req_query_enum(r, "sort", sorts, &sort)))
		return rc;
	f.role = role >= 0 ? roles[role] : NULL;
	f.search = req_query(r, "search");
	f.by_last_seen = sort == 1;
	if ((rc = store_members_list(&r->tx, r->dom.actor.org_id, &f, &lr, &items, &n, &next)))
		return rc;
	if (!(g = resp_list_begin(r)))
		return err_set(ERR_INTERNAL, "out of memory");
	for (int i = 0; i < n; i++)
		member_to_json(g, api_base(r), &items[i], api_sees_emails(r));
	return resp_list_end(r, n, next);
}

int member_get(struct req *r)
{
	struct member m;
	int rc = store_member_get(&r->tx, r->dom.actor.org_id, req_param(r, "userId"), &m);

	return rc ? rc : api_send_member(r, &m);
}

/* The organization must keep an admin: refuse to demote or remove the last one. */
static int keep_an_admin(struct req *r, const struct member *m)
{
	int64_t admins = 0;
	int rc;

	if (m->role != ROLE_ADMIN)
		return 0;
	/* Two admins demoting each other at once must not leave none. */
	if ((rc = store_org_lock(&r->tx, r->dom.actor.org_id)))
		return rc;
	if ((rc = store_admin_count(&r->tx, r->dom.actor.org_id, &admins)))
		return rc;
	if (admins <= 1)
		return err_set(ERR_INVALID, "the organization must keep at least one admin");
	return 0;
}

int member_update(struct req *r)
{
	const char *user_id = req_param(r, "userId");
	struct member m;
	enum role role;
	int rc;

	if ((rc = body_role(r, "role", F_NULLABLE, &role)) < 0)
		return rc;
	if ((rc = store_member_get(&r->tx, r->dom.actor.org_id, user_id, &m)))
		return rc;
	if (rc == 0 && !body_field(r, "role"))
		return api_send_member(r, &m);
	if (role != ROLE_ADMIN && (rc = keep_an_admin(r, &m)))
		return rc;
	if ((rc = store_member_set_role(&r->tx, r->dom.actor.org_id, user_id, role)) ||
	    (rc = store_member_get(&r->tx, r->dom.actor.org_id, user_id, &m)))
		return rc;
	return api_send_member(r, &m);
}

int member_delete(struct req *r)
{
	const char *user_id = req_param(r, "userId");
	struct member m;
	bool removed;
	int rc = store_member_get(&r->tx, r->dom.actor.org_id, user_id, &m);

	if (rc == ERR_NOT_FOUND)
		return resp_empty(r, 204);
	if (rc || (rc = keep_an_admin(r, &m)) || (rc = store_member_remove(&r->tx, r->dom.actor.org_id, user_id, &removed)))
		return rc;
	/* GitBook: 205 when the member was removed, 204 when there was none. */
	return resp_empty(r, removed ? 205 : 204);
}

/* A short-lived HS256 JWT naming the member, signed with the server's secret. */
static int visitor_claims(struct req *r, const char **out)
{
	static const char header[] = "{\"alg\":\"HS256\",\"typ\":\"JWT\"}";
	const char *secret, *payload;
	unsigned char mac[32];
	char *h64, *p64, *s64, *signing;
	int64_t now = clock_now_ms() / 1000;
	int rc = store_secret_get(&r->tx, "jwt", &secret);

	if (rc)
		return rc;
	payload = arena_printf(&r->arena,
			       "{\"sub\":\"%s\",\"org\":\"%s\",\"role\":\"%s\",\"iat\":%lld,\"exp\":%lld}",
			       r->caller_id, r->dom.actor.org_id, role_name(r->dom.actor.org.role) ? role_name(r->dom.actor.org.role) : "guest",
			       (long long)now, (long long)(now + 3600));
	if (!payload)
		return err_set(ERR_INTERNAL, "out of memory");
	h64 = arena_alloc(&r->arena, base64url_len(sizeof(header) - 1) + 1);
	p64 = arena_alloc(&r->arena, base64url_len(strlen(payload)) + 1);
	s64 = arena_alloc(&r->arena, base64url_len(32) + 1);
	if (!h64 || !p64 || !s64)
		return err_set(ERR_INTERNAL, "out of memory");
	base64url_encode(h64, header, sizeof(header) - 1);
	base64url_encode(p64, payload, strlen(payload));
	signing = arena_printf(&r->arena, "%s.%s", h64, p64);
	if (!signing || hmac_sha256(mac, secret, strlen(secret), signing, strlen(signing)))
		return err_set(ERR_INTERNAL, "cannot sign claims");
	base64url_encode(s64, mac, 32);
	*out = arena_printf(&r->arena, "%s.%s", signing, s64);
	return *out ? 0 : err_set(ERR_INTERNAL, "out of memory");
}

int member_ping(struct req *r)
{
	const char *jwt;
	struct jw *g;
	int rc;

	if ((rc = store_member_touch(&r->tx, r->dom.actor.org_id, r->caller_id, clock_now_ms())) || (rc = visitor_claims(r, &jwt)))
		return rc;
	if (!(g = resp_json(r, 200)))
		return err_set(ERR_INTERNAL, "out of memory");
	visitor_claims_to_json(g, jwt);
	return 0;
}

int member_sso(struct req *r)
{
	const char *user_id = req_param(r, "userId");
	struct member m;
	struct org o;
	struct user u;
	bool added;
	int rc;

	if ((rc = store_user_get(&r->tx, user_id, &u)) || (rc = store_org_get(&r->tx, r->dom.actor.org_id, &o)))
		return rc;
	/* A user who is not a member yet joins with the organization's default role. */
	if ((rc = store_member_add(&r->tx, r->dom.actor.org_id, user_id, o.default_role, 1, &added)) ||
	    (rc = store_member_set_sso(&r->tx, r->dom.actor.org_id, user_id)) || (rc = store_member_get(&r->tx, r->dom.actor.org_id, user_id, &m)))
		return rc;
	return api_send_member(r, &m);
}

int member_teams(struct req *r)
{
	const char *user_id = req_param(r, "userId");
	struct list_req lr;
	struct cursor cur;
	struct member_team_row *items;
	struct member m;
	char *next;
	struct jw *g;
	int n, rc;

	if ((rc = req_list(r, &lr, &cur, NULL, 0)) || (rc = store_member_get(&r->tx, r->dom.actor.org_id, user_id, &m)))
		return rc;
	if ((rc = store_member_teams_list(&r->tx, r->dom.actor.org_id, user_id, req_query(r, "title"), &lr, &items, &n, &next)))
		return rc;
	if (!(g = resp_list_begin(r)))
		return err_set(ERR_INTERNAL, "out of memory");
	for (int i = 0; i < n; i++) {
		int caller_role = -1;
		if (r->dom.actor.org.role != ROLE_ADMIN &&
		    (rc = store_team_member_role(&r->tx, items[i].team.id, r->caller_id, &caller_role)))
			return rc;
		member_team_to_json(g, &items[i].team, items[i].team_role, r->dom.actor.org.role, caller_role == TEAM_OWNER);
	}
	return resp_list_end(r, n, next);
}
