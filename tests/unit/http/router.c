/* the route table and path matching */
#include "api/routes.h"
#include "http/router.h"
#include "unit.h"
#include "util/err.h"

UNIT_TEST(router_matches_templates_and_captures_params)
{
	struct arena a;
	struct route_match m;

	arena_init(&a);
	CHECK(route_find("GET", "/v1/orgs/abc/teams/t1/members", &a, &m) == 0);
	CHECK_STR(routes[m.index].name, "listTeamMembersInOrganizationById");
	CHECK(m.nparams == 2);
	CHECK_STR(m.names[0], "organizationId");
	CHECK_STR(m.values[0], "abc");
	CHECK_STR(m.names[1], "teamId");
	CHECK_STR(m.values[1], "t1");
	CHECK(route_find("PUT", "/v1/orgs/abc/teams", &a, &m) == 0);
	CHECK_STR(routes[m.index].name, "createOrganizationTeam");
	CHECK(route_find("GET", "/v1", &a, &m) == 0);
	CHECK_STR(routes[m.index].name, "getApiInformation");
	arena_free(&a);
}

UNIT_TEST(router_unknown_path_is_404_other_method_is_405)
{
	struct arena a;
	struct route_match m;

	arena_init(&a);
	CHECK(route_find("GET", "/v1/nope", &a, &m) == ERR_NOT_FOUND);
	CHECK(route_find("GET", "/v1/orgs//teams", &a, &m) == ERR_NOT_FOUND); /* empty parameter */
	CHECK(route_find("GET", "/v1/orgs/a/teams/b/c", &a, &m) == ERR_NOT_FOUND);
	CHECK(route_find("DELETE", "/v1/orgs/abc", &a, &m) == ERR_METHOD);
	CHECK(strstr(m.allow, "GET") && strstr(m.allow, "PATCH"));
	CHECK(route_find("POST", "/v1/orgs/abc/teams", &a, &m) == ERR_METHOD);
	CHECK(strstr(m.allow, "PUT") != NULL);
	arena_free(&a);
}

UNIT_TEST(route_table_has_no_duplicates_and_sane_flags)
{
	for (int i = 0; i < routes_count; i++) {
		CHECK(routes[i].handler != NULL);
		CHECK(routes[i].path[0] == '/');
		CHECK(!((routes[i].flags & ROUTE_BODY) && (routes[i].flags & ROUTE_BODY_OPTIONAL)));
		/* a route with an organization access level has the parameter */
		if (routes[i].org != ORG_ACCESS_NONE)
			CHECK(strstr(routes[i].path, "{organizationId}") != NULL);
		/* writes are never GET */
		if (strcmp(routes[i].method, "GET") == 0)
			CHECK(!(routes[i].flags & ROUTE_WRITE));
		for (int j = i + 1; j < routes_count; j++)
			CHECK(!(strcmp(routes[i].method, routes[j].method) == 0 && strcmp(routes[i].path, routes[j].path) == 0));
	}
}
