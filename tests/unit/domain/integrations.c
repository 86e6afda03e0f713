/*
 * Integrations in process, on SQLite and on PostgreSQL: the scopes' role,
 * who may publish and install, versions, an installation's event recorded
 * and delivered by the job queue (jobs_run_one) without a runtime (failed at
 * once, the reason in its trace), an installation token acting within its
 * scopes (domain/access.c) and revoked with its installation, a site's
 * injected scripts.
 */
#include "domain/integration_events.h"
#include "domain/integrations.h"
#include "jobs/jobs.h"
#include "fixtures.h"
#include "unit.h"
#include "util/err.h"
#include "util/util.h"

#include <string.h>

struct world {
	struct store *s;
	struct server srv;
	struct arena a;
	struct store_tx tx;
	struct dom d;
	struct org org;
	struct user admin, reader, outsider;
	struct space space, other;
};

static void as(struct world *w, const struct user *u)
{
	fx_as(&w->d, &w->srv, w->s, &w->tx, &w->a, u);
}

/* The rule's table for integration principals and docsd, which it decides
 * without the store (domain/integration_access.c): what no token of an
 * integration ever gets, whatever the installation. */
UNIT_TEST(integration_rule_for_tokens)
{
	struct dom d;
	struct integration it = { .id = "I1", .org_id = "OB" }, other = { .id = "I2", .org_id = "OB" };
	struct integration_installation b = { .id = "IB", .org_id = "OB" }, c = { .id = "IC", .org_id = "OC" };
	bool own;

	memset(&d, 0, sizeof(d));
	/* docsd itself: everything. */
	for (int op = 0; op < INTEG_OP_COUNT; op++)
		CHECK(dom_integration_may(&d, (enum integ_op)op, &it, &b, NULL) == 0);
	CHECK(dom_content_manage_check(&d) == 0);
	/* The integration token: its installations' reads, externalIds and
	 * configuration, tokens, tasks, events; never selections, uninstalls,
	 * the integration itself or content management. */
	d.actor.user_id = "bot";
	d.actor.integration_id = "I1";
	CHECK(dom_integration_may(&d, INTEG_OP_LIST, &it, NULL, &own) == 0 && !own);
	CHECK(dom_integration_may(&d, INTEG_OP_READ, &it, &c, NULL) == 0);
	CHECK(dom_integration_may(&d, INTEG_OP_CONFIG, &it, &c, NULL) == 0);
	CHECK(dom_integration_may(&d, INTEG_OP_SET, &it, &c, NULL) == 0);
	CHECK(dom_integration_may(&d, INTEG_OP_TOKEN, &it, &c, NULL) == 0);
	CHECK(dom_integration_may(&d, INTEG_OP_SELECT, &it, &c, NULL) == ERR_FORBIDDEN);
	CHECK(dom_integration_may(&d, INTEG_OP_UNINSTALL, &it, &c, NULL) == ERR_FORBIDDEN);
	CHECK(dom_integration_may(&d, INTEG_OP_MANAGE, &it, NULL, NULL) == ERR_FORBIDDEN);
	CHECK(dom_content_manage_check(&d) == ERR_FORBIDDEN);
	/* Another integration's token: nothing of this one's installations. */
	CHECK(dom_integration_may(&d, INTEG_OP_READ, &other, &b, NULL) == ERR_NOT_FOUND);
	CHECK(dom_integration_may(&d, INTEG_OP_LIST, &other, NULL, NULL) == ERR_FORBIDDEN);
	/* B's installation token: its own rows only; never the admin's part. */
	d.actor.installation_id = "IB";
	CHECK(dom_integration_may(&d, INTEG_OP_LIST, &it, NULL, &own) == 0 && own);
	CHECK(dom_integration_may(&d, INTEG_OP_READ, &it, &b, NULL) == 0);
	CHECK(dom_integration_may(&d, INTEG_OP_CONFIG, &it, &b, NULL) == 0);
	CHECK(dom_integration_may(&d, INTEG_OP_SET, &it, &b, NULL) == 0);
	CHECK(dom_integration_may(&d, INTEG_OP_SELECT, &it, &b, NULL) == ERR_FORBIDDEN);
	CHECK(dom_integration_may(&d, INTEG_OP_UNINSTALL, &it, &b, NULL) == ERR_FORBIDDEN);
	CHECK(dom_integration_may(&d, INTEG_OP_TOKEN, &it, &b, NULL) == ERR_FORBIDDEN);
	CHECK(dom_integration_may(&d, INTEG_OP_EVENTS, &it, NULL, NULL) == ERR_FORBIDDEN);
	CHECK(dom_content_manage_check(&d) == ERR_FORBIDDEN);
	for (int op = INTEG_OP_READ; op <= INTEG_OP_TOKEN; op++)
		CHECK(dom_integration_may(&d, (enum integ_op)op, &it, &c, NULL) == ERR_NOT_FOUND);
}

UNIT_TEST(integration_scope_role_maps_scopes)
{
	CHECK(integration_scope_role("[]") == ROLE_NONE);
	CHECK(integration_scope_role(NULL) == ROLE_NONE);
	CHECK(integration_scope_role("[\"space:content:read\"]") == ROLE_READ);
	CHECK(integration_scope_role("[\"site:views:read\",\"space:content:write\"]") == ROLE_EDIT);
	CHECK(integration_scope_role("[\"space:git:sync\"]") == ROLE_EDIT);
	/* Never the role to manage: what space:metadata:write adds is the settings
	 * (dom_space_settings_need), not admin, so the permissions booleans agree. */
	CHECK(integration_scope_role("[\"space:metadata:write\",\"space:content:read\"]") == ROLE_READ);
	CHECK(integration_scope_role("[\"space:metadata:write\"]") == ROLE_READ);
	/* Scopes of other objects read no space. */
	CHECK(integration_scope_role("[\"site:script:inject\",\"site:metadata:read\",\"openapi:read\"]") == ROLE_NONE);
	CHECK(integration_scope_role("[\"page:feedback:read\"]") == ROLE_READ);
	CHECK(integration_site_scope_role("[\"site:metadata:read\"]") == ROLE_READ);
	CHECK(integration_site_scope_role("[\"site:script:inject\",\"space:content:write\"]") == ROLE_NONE);
	CHECK(integration_site_scope_role(NULL) == ROLE_NONE);
	CHECK(integration_scope_has("[\"a\",\"b\"]", "b"));
	CHECK(!integration_scope_has("[\"a\"]", "b"));
	CHECK(integration_scope_has("[\"a\"]", NULL));
	CHECK(!integration_scope_has("[]", NULL));
	CHECK(!integration_scope_has("not json", NULL));
}

static void integrations_suite(struct store *st)
{
	struct world w = { .s = st };
	struct integration_input in = { 0 };
	struct integration_view v;
	struct integration_installation inst;
	struct integration_event *evs;
	struct event_view ev;
	struct list_req lr = { .limit = 10 };
	struct site_script *scripts;
	struct space sp;
	const char *token, *name;
	char *next;
	bool removed;
	int n, rc;

	arena_init(&w.a);
	snprintf(w.srv.public_url, sizeof(w.srv.public_url), "http://docsd.test");
	as(&w, NULL);
	fx_org(&w.tx, "Integrations",
	       (const struct fx_person[]){ { "admin", ROLE_ADMIN, &w.admin }, { "reader", ROLE_READ, &w.reader },
					   { "outsider", ROLE_NONE, &w.outsider }, { NULL } },
	       &w.org);
	fx_space(&w.tx, &w.org, "One", &w.space);
	fx_space(&w.tx, &w.org, "Two", &w.other);
	fx_done(&w.tx, 1);
	name = arena_printf(&w.a, "unit-%s", w.org.id);

	/* Publish: admins of the owner only; each publish is a version. */
	in = (struct integration_input){ .organization = w.org.id, .title = "Unit", .description = "d",
					 .scopes = "[\"space:content:read\"]", .script = "export default {}",
					 .secrets = "{\"K\":\"v\"}" };
	as(&w, &w.reader);
	CHECK(dom_integration_publish(&w.d, name, &in, &v) == ERR_FORBIDDEN);
	fx_done(&w.tx, 0);
	as(&w, &w.outsider);
	CHECK(dom_integration_publish(&w.d, name, &in, &v) == ERR_NOT_FOUND);
	fx_done(&w.tx, 0);
	as(&w, &w.admin);
	CHECK(dom_integration_publish(&w.d, name, &in, &v) == 0);
	CHECK(v.it.version == 1 && v.admin);
	CHECK_STR(v.it.visibility, "private");
	CHECK(dom_integration_publish(&w.d, name, &in, &v) == 0);
	CHECK(v.it.version == 2);
	in.organization = "no-such-org";
	CHECK(dom_integration_publish(&w.d, name, &in, &v) == ERR_NOT_FOUND);
	fx_done(&w.tx, 1);
	/* Private: the outsider does not see it. */
	as(&w, &w.outsider);
	CHECK(dom_integration_get(&w.d, name, &v) == ERR_NOT_FOUND);
	fx_done(&w.tx, 0);

	/* Install: admin of the organization; the event is pending until delivered. */
	as(&w, &w.reader);
	CHECK(dom_installation_create(&w.d, name, w.org.id, &inst) == ERR_FORBIDDEN);
	fx_done(&w.tx, 0);
	as(&w, &w.admin);
	CHECK(dom_installation_create(&w.d, name, w.org.id, &inst) == 0);
	CHECK_STR(inst.status, "active");
	CHECK(dom_events_list(&w.d, name, &lr, &evs, &n, &next) == 0 && n == 0);
	fx_done(&w.tx, 1);

	/* The delivery, without a runtime and without a tunnel: failed at once.
	 * (Every due delivery runs: on PostgreSQL the database keeps earlier
	 * runs' jobs.) */
	while ((rc = jobs_run_one(w.s, &w.srv, "unit-worker", INTEGRATION_DELIVER_KIND)) == 1)
		;
	CHECK(rc == 0);
	as(&w, &w.admin);
	lr.desc = 1;
	CHECK(dom_events_list(&w.d, name, &lr, &evs, &n, &next) == 0 && n == 1);
	if (n != 1)
		return;
	CHECK_STR(evs[0].status, "failed");
	CHECK(strstr(evs[0].payload, "\"type\":\"installation_setup\"") != NULL);
	CHECK(dom_event_get(&w.d, name, evs[0].id, &ev) == 0);
	CHECK(ev.nlogs == 1 && strstr(ev.logs[0].message, "no integration runtime") != NULL);
	CHECK_STR(ev.logs[0].level, "error");
	/* An installation token. */
	CHECK(dom_installation_token(&w.d, name, inst.id, &token) == 0);
	CHECK(strncmp(token, "gb_api_", 7) == 0 && strlen(token) == 46);
	fx_done(&w.tx, 1);

	/* Acting as the installation: the scopes' role on its organization's
	 * spaces (read), a guest's standing in the organization. */
	{
		char hash[65];
		const char *uid, *iid, *intid;
		CHECK(sha256_hex(hash, token, strlen(token)) == 0);
		as(&w, NULL);
		CHECK(store_integration_token_lookup(&w.tx, hash, &uid, &intid, &iid) == 0);
		CHECK_STR(iid, inst.id);
		fx_done(&w.tx, 0);
		struct user bot = { .id = uid };
		as(&w, &bot);
		w.d.actor.installation_id = iid;
		w.d.actor.integration_id = intid;
		CHECK(dom_space_get(&w.d, w.space.id, ROLE_READ, &sp) == 0);
		CHECK(sp.access == ROLE_READ);
		CHECK(dom_space_get(&w.d, w.space.id, ROLE_EDIT, &sp) == ERR_FORBIDDEN);
		CHECK(dom_org_require(&w.d, w.org.id, ORG_ACCESS_VIEW) == 0);
		CHECK(dom_org_require(&w.d, w.org.id, ORG_ACCESS_MEMBER) == ERR_FORBIDDEN);
		fx_done(&w.tx, 0);

		/* Uninstalled: the token names nothing. */
		as(&w, &w.admin);
		CHECK(dom_installation_delete(&w.d, name, inst.id, &removed) == 0 && removed);
		CHECK(dom_installation_delete(&w.d, name, inst.id, &removed) == 0 && !removed);
		fx_done(&w.tx, 1);
		as(&w, NULL);
		CHECK(store_integration_token_lookup(&w.tx, hash, &uid, &intid, &iid) == ERR_NOT_FOUND);
		fx_done(&w.tx, 0);
	}

	/* A site's scripts: none without site:script:inject. */
	as(&w, &w.admin);
	rc = dom_site_integration_scripts(&w.d, "no-such-site", &scripts, &n);
	CHECK(rc == 0 && n == 0);
	CHECK(dom_integration_delete(&w.d, name, &removed) == 0 && removed);
	CHECK(dom_integration_delete(&w.d, name, &removed) == 0 && !removed);
	fx_done(&w.tx, 1);
	/* Its pending deliveries (installation_deleted) end with it. */
	while ((rc = jobs_run_one(w.s, &w.srv, "unit-worker", INTEGRATION_DELIVER_KIND)) == 1)
		;
	CHECK(rc == 0);
	arena_free(&w.a);
}

UNIT_TEST_ON_ENGINES(integrations, integrations_suite)
