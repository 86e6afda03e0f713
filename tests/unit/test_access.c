/* core/access.c: the effective-role table. */
#include "core/access.h"
#include "unit.h"

static const struct access_grant grants[] = { { "c1", ROLE_EDIT }, { "s1", ROLE_COMMENT }, { "s2", ROLE_ADMIN } };

UNIT_TEST(access_effective_role)
{
	/* space s1 in collection c2 inside c1 */
	struct access_node chain[] = { { "s1", LEVEL_INHERIT }, { "c2", LEVEL_INHERIT }, { "c1", LEVEL_INHERIT } };
	struct access_ctx c = { .org_role = ROLE_READ, .org_default = ROLE_READ, .grants = grants, .ngrants = 3 };
	static const struct {
		enum role org_role, org_default;
		int s1, c2, c1; /* defaultLevels */
		int ngrants;
		enum role want;
	} rows[] = {
		/* the highest grant on the space or above it */
		{ ROLE_READ, ROLE_READ, LEVEL_INHERIT, LEVEL_INHERIT, LEVEL_INHERIT, 3, ROLE_EDIT },
		{ ROLE_READ, ROLE_READ, LEVEL_INHERIT, LEVEL_INHERIT, LEVEL_INHERIT, 0, ROLE_READ },
		/* the nearest non-inherit level wins over the org default */
		{ ROLE_EDIT, ROLE_READ, LEVEL_INHERIT, ROLE_GUEST, ROLE_ADMIN, 0, ROLE_GUEST },
		{ ROLE_EDIT, ROLE_READ, LEVEL_INHERIT, LEVEL_INHERIT, ROLE_REVIEW, 0, ROLE_REVIEW },
		{ ROLE_EDIT, ROLE_GUEST, LEVEL_INHERIT, LEVEL_INHERIT, LEVEL_INHERIT, 0, ROLE_GUEST },
		{ ROLE_READ, ROLE_GUEST, ROLE_CREATE, LEVEL_INHERIT, LEVEL_INHERIT, 3, ROLE_CREATE },
		/* guests: grants only, never default levels */
		{ ROLE_GUEST, ROLE_ADMIN, ROLE_ADMIN, LEVEL_INHERIT, LEVEL_INHERIT, 0, ROLE_GUEST },
		{ ROLE_GUEST, ROLE_READ, LEVEL_INHERIT, LEVEL_INHERIT, LEVEL_INHERIT, 3, ROLE_EDIT },
		/* admins everywhere, outsiders nowhere */
		{ ROLE_ADMIN, ROLE_GUEST, ROLE_GUEST, ROLE_GUEST, ROLE_GUEST, 0, ROLE_ADMIN },
		{ ROLE_NONE, ROLE_ADMIN, ROLE_ADMIN, LEVEL_INHERIT, LEVEL_INHERIT, 3, ROLE_NONE },
	};

	for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		c.org_role = rows[i].org_role;
		c.org_default = rows[i].org_default;
		c.ngrants = rows[i].ngrants;
		chain[0].level = rows[i].s1;
		chain[1].level = rows[i].c2;
		chain[2].level = rows[i].c1;
		if (access_role(&c, chain, 3) != rows[i].want) {
			printf("  row %u: got %d want %d\n", i, access_role(&c, chain, 3), rows[i].want);
			CHECK(!"access_role row");
		}
	}
	CHECK(access_check(ROLE_GUEST, ROLE_READ, "space") == -5 /* ERR_NOT_FOUND */);
	CHECK(access_check(ROLE_READ, ROLE_ADMIN, "space") == -4 /* ERR_FORBIDDEN */);
	CHECK(access_check(ROLE_ADMIN, ROLE_ADMIN, "space") == 0);
}

UNIT_TEST(access_permissions)
{
	struct space_permissions p;
	struct collection_permissions cp;

	space_permissions(&p, ROLE_EDIT, false);
	CHECK(p.view && p.edit && p.comment && !p.review && !p.admin);
	space_permissions(&p, ROLE_EDIT, true);
	CHECK(p.view && !p.edit && !p.trigger_git_sync && p.comment);
	space_permissions(&p, ROLE_ADMIN, false);
	CHECK(p.admin && p.install_integration && p.merge && p.view_invite_links);
	collection_permissions(&cp, ROLE_CREATE);
	CHECK(cp.view && cp.create && !cp.admin);
	collection_permissions(&cp, ROLE_GUEST);
	CHECK(!cp.view && !cp.create);
}
