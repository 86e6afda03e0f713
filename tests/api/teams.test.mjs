// Teams: create, get, list (title/owner filters, pagination), update, delete, team membership
// (bulk update, add, remove, owners), member team counts, access rules.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { ok, empty, expectError, raw, createOrg, addMember, checkPagination } from './lib/api.mjs';

describe('teams', () => {
    let ctx, alice, bob, eve, frank, gina, carol;
    let org;
    let core, docs; // teams

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        eve = await ctx.user('eve');
        frank = await ctx.user('frank');
        gina = await ctx.user('gina');
        carol = await ctx.user('carol');
        ({ org } = await createOrg(ctx.url, alice.token, `Teams ${ctx.run}`));
        await addMember(alice.api, org.id, bob.email, 'read');
        await addMember(alice.api, org.id, eve.email, 'edit');
        await addMember(alice.api, org.id, frank.email, 'create');
        await addMember(alice.api, org.id, gina.email, null);
    });
    after(async () => {
        if (ctx) await ctx.server.stop();
    });

    const getTeam = (api, id) => ok(api.orgs.getTeamInOrganizationById(org.id, id), 'getTeamInOrganizationById');
    const teamMembers = async (api, id) => {
        const res = await ok(api.orgs.listTeamMembersInOrganizationById(org.id, id), 'listTeamMembersInOrganizationById');
        return Object.fromEntries(res.items.map((m) => [m.organization.id, m.team.role]));
    };
    const memberTeams = async (userId) => (await ok(alice.api.orgs.getMemberInOrganizationById(org.id, userId), 'getMemberInOrganizationById')).teams;

    it('PUT /teams creates a team with members', async () => {
        core = await ok(alice.api.orgs.createOrganizationTeam(org.id, { title: 'Core Team', members: [bob.id, eve.id] }), 'createOrganizationTeam', 201);
        assert.equal(core.object, 'team');
        assert.equal(core.title, 'Core Team');
        assert.equal(core.members, 2);
        assert.equal(core.spaces, 0);
        assert.equal(core.permissions.admin, true);
        assert.equal(core.permissions.view, true);
        assert.ok(Math.abs(Date.parse(core.createdAt) - Date.now()) < 5 * 60_000);

        const got = await getTeam(alice.api, core.id);
        assert.equal(got.id, core.id);
        assert.equal(got.title, 'Core Team');
        assert.equal(got.members, 2);
        assert.deepEqual(await teamMembers(alice.api, core.id), { [bob.id]: 'member', [eve.id]: 'member' });
        assert.equal(await memberTeams(bob.id), 1);
        assert.equal(await memberTeams(eve.id), 1);
        assert.equal(await memberTeams(frank.id), 0);

        docs = await ok(alice.api.orgs.createOrganizationTeam(org.id, { title: 'Docs Writers' }), 'createOrganizationTeam', 201);
        assert.equal(docs.members, 0);
        assert.deepEqual(await teamMembers(alice.api, docs.id), {});
    });

    it('PUT /teams validates title and members', async () => {
        const before = await ok(alice.api.orgs.listTeamsInOrganizationById(org.id), 'listTeamsInOrganizationById');
        await expectError(alice.api.orgs.createOrganizationTeam(org.id, { title: 'x'.repeat(65) }), 400, 'title of 65 chars');
        await expectError(alice.api.orgs.createOrganizationTeam(org.id, { title: '' }), 400, 'empty title');
        const missing = await expectError(alice.api.orgs.createOrganizationTeam(org.id, {}), 400, 'missing title');
        assert.match(missing.error.message, /title/);
        const wrong = await expectError(alice.api.orgs.createOrganizationTeam(org.id, { title: 64 }), 400, 'numeric title');
        assert.match(wrong.error.message, /title/);
        await expectError(alice.api.orgs.createOrganizationTeam(org.id, { title: 'Outsiders', members: [carol.id] }), 400, 'non-member in members');
        await expectError(alice.api.orgs.createOrganizationTeam(org.id, { title: 'Ghosts', members: ['nosuchuser0000000000'] }), 400, 'unknown user');
        // an email of a user who is not a member: the message names the email sent, never the user's id
        const oracle = await expectError(alice.api.orgs.createOrganizationTeam(org.id, { title: 'Oracle', members: [carol.email] }), 400, 'non-member by email');
        assert.ok(oracle.error.message.includes(carol.email), oracle.error.message);
        assert.ok(!oracle.error.message.includes(carol.id), `no id in: ${oracle.error.message}`);
        const wm = await expectError(alice.api.orgs.createOrganizationTeam(org.id, { title: 'Bad', members: 'bob' }), 400, 'members not an array');
        assert.match(wm.error.message, /members/);
        const after = await ok(alice.api.orgs.listTeamsInOrganizationById(org.id), 'listTeamsInOrganizationById');
        assert.deepEqual(after.items.map((t) => t.id).sort(), before.items.map((t) => t.id).sort(), 'no team created by failed requests');

        const long = await ok(alice.api.orgs.createOrganizationTeam(org.id, { title: 'L'.repeat(64) }), 'createOrganizationTeam', 201);
        assert.equal(long.title.length, 64);
        const one = await ok(alice.api.orgs.createOrganizationTeam(org.id, { title: 'Q' }), 'createOrganizationTeam', 201);
        assert.equal(one.title, 'Q');
        for (const t of [long, one]) await empty(alice.api.orgs.removeTeamFromOrganizationById(org.id, t.id), 204, 'delete team');
    });

    it('only admins may create, patch and delete teams', async () => {
        await expectError(bob.api.orgs.createOrganizationTeam(org.id, { title: 'Bob Team' }), 403, 'read member creates');
        await expectError(frank.api.orgs.createOrganizationTeam(org.id, { title: 'Frank Team' }), 403, 'create member creates');
        await expectError(bob.api.orgs.updateTeamInOrganizationById(org.id, core.id, { title: 'Bobs' }), 403, 'read member patches');
        await expectError(eve.api.orgs.removeTeamFromOrganizationById(org.id, core.id), 403, 'edit member deletes');
        const got = await getTeam(alice.api, core.id);
        assert.equal(got.title, 'Core Team');
    });

    it('who may list and read teams', async () => {
        const asBob = await ok(bob.api.orgs.listTeamsInOrganizationById(org.id), 'listTeamsInOrganizationById');
        assert.deepEqual(asBob.items.map((t) => t.id).sort(), [core.id, docs.id].sort());
        for (const t of asBob.items) assert.equal(t.permissions.admin, false, 'bob cannot manage teams');
        const t = await getTeam(bob.api, core.id);
        assert.equal(t.permissions.admin, false);
        assert.equal(t.permissions.view, true);
        await expectError(gina.api.orgs.listTeamsInOrganizationById(org.id), 403, 'guest lists teams');
        await expectError(carol.api.orgs.listTeamsInOrganizationById(org.id), 404, 'non-member lists teams');
        await expectError(carol.api.orgs.getTeamInOrganizationById(org.id, core.id), 404, 'non-member gets team');
        await expectError(carol.api.orgs.listTeamMembersInOrganizationById(org.id, core.id), 404, 'non-member lists team members');
        await expectError(carol.api.orgs.updateMembersInOrganizationTeam(org.id, core.id, { add: [carol.id] }), 404, 'non-member edits team');
        await expectError(carol.api.orgs.removeTeamFromOrganizationById(org.id, core.id), 404, 'non-member deletes team');
        await expectError(raw(ctx.url, 'GET', `/v1/orgs/${org.id}/teams`), 401, 'no token');
        await expectError(alice.api.orgs.getTeamInOrganizationById(org.id, 'nosuchteam0000000000'), 404, 'unknown team');
        await expectError(alice.api.orgs.listTeamMembersInOrganizationById(org.id, 'nosuchteam0000000000'), 404, 'members of unknown team');
    });

    it('a team of one organization is not reachable through another', async () => {
        const { org: other } = await createOrg(ctx.url, alice.token, `Other ${ctx.run}`);
        await expectError(alice.api.orgs.getTeamInOrganizationById(other.id, core.id), 404, 'team id under the wrong org');
        await expectError(alice.api.orgs.updateTeamInOrganizationById(other.id, core.id, { title: 'Moved' }), 404, 'patch under the wrong org');
        const still = await getTeam(alice.api, core.id);
        assert.equal(still.title, 'Core Team');
    });

    it('lists teams with title and owner filters', async () => {
        let res = await ok(alice.api.orgs.listTeamsInOrganizationById(org.id, { title: 'core' }), 'listTeamsInOrganizationById');
        assert.deepEqual(res.items.map((t) => t.id), [core.id]);
        res = await ok(alice.api.orgs.listTeamsInOrganizationById(org.id, { title: 'WRITER' }), 'listTeamsInOrganizationById');
        assert.deepEqual(res.items.map((t) => t.id), [docs.id]);
        res = await ok(alice.api.orgs.listTeamsInOrganizationById(org.id, { title: 'zzz-none' }), 'listTeamsInOrganizationById');
        assert.deepEqual(res.items, []);
        // an admin can manage every team
        res = await ok(alice.api.orgs.listTeamsInOrganizationById(org.id, { owner: alice.id }), 'listTeamsInOrganizationById');
        assert.deepEqual(res.items.map((t) => t.id).sort(), [core.id, docs.id].sort());
        // bob owns nothing yet
        res = await ok(alice.api.orgs.listTeamsInOrganizationById(org.id, { owner: bob.id }), 'listTeamsInOrganizationById');
        assert.deepEqual(res.items, []);
    });

    it('paginates teams with limit=1', async () => {
        const extra = [];
        for (let i = 0; i < 3; i++) {
            extra.push(await ok(alice.api.orgs.createOrganizationTeam(org.id, { title: `Page ${i}` }), 'createOrganizationTeam', 201));
        }
        const all = await checkPagination((q) => alice.api.orgs.listTeamsInOrganizationById(org.id, q), 'listTeamsInOrganizationById');
        assert.deepEqual(all.map((t) => t.id).sort(), [core.id, docs.id, ...extra.map((t) => t.id)].sort());
        const paged = await checkPagination((q) => alice.api.orgs.listTeamsInOrganizationById(org.id, q), 'listTeamsInOrganizationById', {
            query: { title: 'page' },
        });
        assert.equal(paged.length, 3);
        for (const t of extra) await empty(alice.api.orgs.removeTeamFromOrganizationById(org.id, t.id), 204, 'delete');
        const after = await ok(alice.api.orgs.listTeamsInOrganizationById(org.id), 'listTeamsInOrganizationById');
        assert.deepEqual(after.items.map((t) => t.id).sort(), [core.id, docs.id].sort());
        // keyset cursors survive the deletion of the item they point at
        const more = [];
        for (let i = 0; i < 3; i++) more.push(await ok(alice.api.orgs.createOrganizationTeam(org.id, { title: `Keyset ${i}` }), 'createOrganizationTeam', 201));
        const first = await ok(alice.api.orgs.listTeamsInOrganizationById(org.id, { title: 'keyset', limit: 1 }), 'listTeamsInOrganizationById');
        assert.equal(first.items.length, 1);
        assert.ok(first.next);
        await empty(alice.api.orgs.removeTeamFromOrganizationById(org.id, first.items[0].id), 204, 'delete the cursor item');
        const rest = await ok(
            alice.api.orgs.listTeamsInOrganizationById(org.id, { title: 'keyset', limit: 10, page: first.next.page }),
            'listTeamsInOrganizationById',
        );
        assert.deepEqual(
            rest.items.map((t) => t.id).sort(),
            more.map((t) => t.id).filter((id) => id !== first.items[0].id).sort(),
            'the rest of the list after a deleted cursor item',
        );
        for (const t of more) await empty(alice.api.orgs.removeTeamFromOrganizationById(org.id, t.id), 204, 'delete');
        const p = `/v1/orgs/${org.id}/teams`;
        await expectError(raw(ctx.url, 'GET', `${p}?limit=1001`, { token: alice.token }), 400, 'limit=1001');
        await expectError(raw(ctx.url, 'GET', `${p}?limit=abc`, { token: alice.token }), 400, 'limit=abc');
        await expectError(raw(ctx.url, 'GET', `${p}?page=not-a-cursor`, { token: alice.token }), 400, 'bad cursor');
    });

    it('PATCH a team title', async () => {
        const t = await ok(alice.api.orgs.updateTeamInOrganizationById(org.id, docs.id, { title: 'Documentation' }), 'updateTeamInOrganizationById');
        assert.equal(t.id, docs.id);
        assert.equal(t.title, 'Documentation');
        assert.equal((await getTeam(alice.api, docs.id)).title, 'Documentation');
        await expectError(alice.api.orgs.updateTeamInOrganizationById(org.id, docs.id, { title: 'x'.repeat(65) }), 400, '65 chars');
        await expectError(alice.api.orgs.updateTeamInOrganizationById(org.id, docs.id, { title: '' }), 400, 'empty');
        const e = await expectError(alice.api.orgs.updateTeamInOrganizationById(org.id, docs.id, { title: false }), 400, 'boolean');
        assert.match(e.error.message, /title/);
        await expectError(alice.api.orgs.updateTeamInOrganizationById(org.id, 'nosuchteam0000000000', { title: 'Nope' }), 404, 'unknown team');
        assert.equal((await getTeam(alice.api, docs.id)).title, 'Documentation');
    });

    it('PUT team members: add (ids and emails), remove, memberships', async () => {
        await empty(
            alice.api.orgs.updateMembersInOrganizationTeam(org.id, docs.id, { add: [frank.id, eve.email], remove: [] }),
            204,
            'bulk add',
        );
        assert.deepEqual(await teamMembers(alice.api, docs.id), { [frank.id]: 'member', [eve.id]: 'member' });
        assert.equal((await getTeam(alice.api, docs.id)).members, 2);
        assert.equal(await memberTeams(eve.id), 2);
        assert.equal(await memberTeams(frank.id), 1);

        await empty(
            alice.api.orgs.updateMembersInOrganizationTeam(org.id, docs.id, { remove: [eve.id], memberships: { [frank.id]: { role: 'owner' } } }),
            204,
            'remove + memberships',
        );
        assert.deepEqual(await teamMembers(alice.api, docs.id), { [frank.id]: 'owner' });
        assert.equal((await getTeam(alice.api, docs.id)).members, 1);
        assert.equal(await memberTeams(eve.id), 1);

        // adding someone already in the team does not duplicate them
        await empty(alice.api.orgs.updateMembersInOrganizationTeam(org.id, docs.id, { add: [frank.id] }), 204, 'add again');
        assert.equal((await getTeam(alice.api, docs.id)).members, 1);
        assert.deepEqual(await teamMembers(alice.api, docs.id), { [frank.id]: 'owner' });

        await expectError(alice.api.orgs.updateMembersInOrganizationTeam(org.id, docs.id, { add: [carol.id] }), 400, 'add a non-member of the org');
        const e = await expectError(alice.api.orgs.updateMembersInOrganizationTeam(org.id, docs.id, { add: 'frank' }), 400, 'add not an array');
        assert.match(e.error.message, /add/);
        await expectError(
            alice.api.orgs.updateMembersInOrganizationTeam(org.id, docs.id, { memberships: { [frank.id]: { role: 'boss' } } }),
            400,
            'invalid team role',
        );
        await expectError(alice.api.orgs.updateMembersInOrganizationTeam(org.id, 'nosuchteam0000000000', { add: [bob.id] }), 404, 'unknown team');
        assert.deepEqual(await teamMembers(alice.api, docs.id), { [frank.id]: 'owner' });
    });

    it('team members list is OrganizationTeamMember and paginates', async () => {
        await empty(alice.api.orgs.updateMembersInOrganizationTeam(org.id, core.id, { add: [alice.id, frank.id] }), 204, 'add');
        const res = await ok(alice.api.orgs.listTeamMembersInOrganizationById(org.id, core.id), 'listTeamMembersInOrganizationById');
        assert.equal(res.items.length, 4);
        for (const m of res.items) {
            assert.equal(m.organization.object, 'member');
            assert.equal(m.permissions.view, true);
            assert.ok(['owner', 'member'].includes(m.team.role));
        }
        const bobEntry = res.items.find((m) => m.organization.id === bob.id);
        assert.equal(bobEntry.organization.role, 'read');
        assert.equal(bobEntry.organization.user.email, bob.email);
        const all = await checkPagination(
            (q) => alice.api.orgs.listTeamMembersInOrganizationById(org.id, core.id, q),
            'listTeamMembersInOrganizationById',
            { key: (m) => m.organization.id },
        );
        assert.deepEqual(all.map((m) => m.organization.id).sort(), [alice.id, bob.id, eve.id, frank.id].sort());
        assert.equal((await getTeam(alice.api, core.id)).members, 4);
        // a read member may list a team's members
        const asBob = await ok(bob.api.orgs.listTeamMembersInOrganizationById(org.id, core.id), 'listTeamMembersInOrganizationById');
        assert.equal(asBob.items.length, 4);
        await empty(alice.api.orgs.updateMembersInOrganizationTeam(org.id, core.id, { remove: [alice.id, frank.email] }), 204, 'remove by id and email');
        assert.deepEqual(await teamMembers(alice.api, core.id), { [bob.id]: 'member', [eve.id]: 'member' });
    });

    it('PUT and DELETE a single team member', async () => {
        await empty(alice.api.orgs.addMemberToOrganizationTeamById(org.id, docs.id, bob.id, {}), 204, 'add bob (default role)');
        assert.deepEqual(await teamMembers(alice.api, docs.id), { [frank.id]: 'owner', [bob.id]: 'member' });
        await empty(alice.api.orgs.addMemberToOrganizationTeamById(org.id, docs.id, gina.id, { role: 'member' }), 204, 'add guest gina');
        assert.equal((await getTeam(alice.api, docs.id)).members, 3);
        assert.equal(await memberTeams(gina.id), 1);
        await empty(alice.api.orgs.addMemberToOrganizationTeamById(org.id, docs.id, gina.id, { role: 'owner' }), 204, 'promote gina');
        assert.equal((await teamMembers(alice.api, docs.id))[gina.id], 'owner');
        assert.equal((await getTeam(alice.api, docs.id)).members, 3, 'changing a role does not add a member');
        await expectError(alice.api.orgs.addMemberToOrganizationTeamById(org.id, docs.id, gina.id, { role: 'captain' }), 400, 'invalid role');
        // the user in the path is not a member of the organization: an unknown path resource
        await expectError(alice.api.orgs.addMemberToOrganizationTeamById(org.id, docs.id, carol.id, {}), 404, 'non-member of the org');

        await empty(alice.api.orgs.deleteMemberFromOrganizationTeamById(org.id, docs.id, gina.id), 205, 'remove gina');
        await empty(alice.api.orgs.deleteMemberFromOrganizationTeamById(org.id, docs.id, gina.id), 204, 'remove gina again');
        await empty(alice.api.orgs.deleteMemberFromOrganizationTeamById(org.id, docs.id, carol.id), 204, 'remove someone never in it');
        assert.deepEqual(await teamMembers(alice.api, docs.id), { [frank.id]: 'owner', [bob.id]: 'member' });
        assert.equal((await getTeam(alice.api, docs.id)).members, 2);
        assert.equal(await memberTeams(gina.id), 0);
        assert.equal(await memberTeams(bob.id), 2);

        // the body is optional: a PUT without one adds as 'member'
        const r = await raw(ctx.url, 'PUT', `/v1/orgs/${org.id}/teams/${docs.id}/members/${gina.id}`, { token: alice.token });
        assert.equal(r.status, 204, `PUT without body: ${r.status} ${r.text}`);
        assert.equal((await teamMembers(alice.api, docs.id))[gina.id], 'member');
        await empty(alice.api.orgs.deleteMemberFromOrganizationTeamById(org.id, docs.id, gina.id), 205, 'remove gina');
        assert.equal(await memberTeams(gina.id), 0);
    });

    it('team owners manage their own team only', async () => {
        // frank (org role create) owns docs
        const owned = await ok(alice.api.orgs.listTeamsInOrganizationById(org.id, { owner: frank.id }), 'listTeamsInOrganizationById');
        assert.deepEqual(owned.items.map((t) => t.id), [docs.id]);
        const asFrank = await ok(frank.api.orgs.getOrganizationById(org.id), 'getOrganizationById');
        assert.equal(asFrank.permissions.ownTeam, true);
        assert.equal((await getTeam(frank.api, docs.id)).permissions.admin, true, 'owner manages docs');
        assert.equal((await getTeam(frank.api, core.id)).permissions.admin, false, 'frank does not manage core');

        await empty(frank.api.orgs.updateMembersInOrganizationTeam(org.id, docs.id, { add: [eve.id] }), 204, 'owner adds');
        await empty(frank.api.orgs.addMemberToOrganizationTeamById(org.id, docs.id, gina.id, {}), 204, 'owner adds one');
        await empty(frank.api.orgs.deleteMemberFromOrganizationTeamById(org.id, docs.id, gina.id), 205, 'owner removes one');
        assert.deepEqual(await teamMembers(alice.api, docs.id), { [frank.id]: 'owner', [bob.id]: 'member', [eve.id]: 'member' });

        await expectError(frank.api.orgs.updateMembersInOrganizationTeam(org.id, core.id, { add: [frank.id] }), 403, 'owner of another team');
        await expectError(frank.api.orgs.addMemberToOrganizationTeamById(org.id, core.id, frank.id, {}), 403, 'owner of another team (single)');
        await expectError(bob.api.orgs.updateMembersInOrganizationTeam(org.id, docs.id, { add: [gina.id] }), 403, 'plain team member');
        await expectError(bob.api.orgs.deleteMemberFromOrganizationTeamById(org.id, docs.id, eve.id), 403, 'plain team member removes');
        await expectError(frank.api.orgs.updateTeamInOrganizationById(org.id, docs.id, { title: 'Franks' }), 403, 'owner renames');
        await expectError(frank.api.orgs.removeTeamFromOrganizationById(org.id, docs.id), 403, 'owner deletes');
        assert.deepEqual(await teamMembers(alice.api, core.id), { [bob.id]: 'member', [eve.id]: 'member' });
        assert.equal((await getTeam(alice.api, docs.id)).title, 'Documentation');

        const bobAsOwner = await ok(bob.api.orgs.getOrganizationById(org.id), 'getOrganizationById');
        assert.equal(bobAsOwner.permissions.ownTeam, false);
    });

    it('GET members/{userId}/teams lists a member\'s teams with their team role', async () => {
        const list = (userId, q) => ok(alice.api.orgs.listTeamsForOrganizationMember(org.id, userId, q), 'listTeamsForOrganizationMember');
        let res = await list(frank.id);
        assert.deepEqual(res.items.map((x) => [x.team.id, x.member.role]), [[docs.id, 'owner']]);
        assert.equal(res.items[0].team.title, 'Documentation');
        res = await list(eve.id);
        assert.deepEqual(Object.fromEntries(res.items.map((x) => [x.team.id, x.member.role])), { [core.id]: 'member', [docs.id]: 'member' });
        res = await list(eve.id, { title: 'DOCU' });
        assert.deepEqual(res.items.map((x) => x.team.id), [docs.id]);
        res = await list(gina.id);
        assert.deepEqual(res.items, []);
        const all = await checkPagination((q) => alice.api.orgs.listTeamsForOrganizationMember(org.id, bob.id, q), 'listTeamsForOrganizationMember', {
            key: (x) => x.team.id,
        });
        assert.deepEqual(all.map((x) => x.team.id).sort(), [core.id, docs.id].sort());
        await expectError(alice.api.orgs.listTeamsForOrganizationMember(org.id, carol.id), 404, 'not a member');
        // a read member may look at it too
        await ok(bob.api.orgs.listTeamsForOrganizationMember(org.id, eve.id), 'listTeamsForOrganizationMember');
    });

    it('removing a member from the organization removes them from its teams', async () => {
        const before = (await getTeam(alice.api, core.id)).members;
        await empty(alice.api.orgs.removeMemberFromOrganizationById(org.id, eve.id), 205, 'remove eve');
        assert.equal((await getTeam(alice.api, core.id)).members, before - 1);
        const tm = await teamMembers(alice.api, core.id);
        assert.equal(tm[eve.id], undefined);
        const docsMembers = await teamMembers(alice.api, docs.id);
        assert.equal(docsMembers[eve.id], undefined);
    });

    it('DELETE a team: 204, then 404, then 204 again; member counts follow', async () => {
        const bobTeams = await memberTeams(bob.id);
        await empty(alice.api.orgs.removeTeamFromOrganizationById(org.id, core.id), 204, 'delete');
        await expectError(alice.api.orgs.getTeamInOrganizationById(org.id, core.id), 404, 'deleted team');
        await expectError(alice.api.orgs.listTeamMembersInOrganizationById(org.id, core.id), 404, 'members of deleted team');
        await empty(alice.api.orgs.removeTeamFromOrganizationById(org.id, core.id), 204, 'delete again');
        await empty(alice.api.orgs.removeTeamFromOrganizationById(org.id, 'nosuchteam0000000000'), 204, 'delete unknown');
        assert.equal(await memberTeams(bob.id), bobTeams - 1);
        const res = await ok(alice.api.orgs.listTeamsInOrganizationById(org.id), 'listTeamsInOrganizationById');
        assert.deepEqual(res.items.map((t) => t.id), [docs.id]);
        const mt = await ok(alice.api.orgs.listTeamsForOrganizationMember(org.id, bob.id), 'listTeamsForOrganizationMember');
        assert.deepEqual(mt.items.map((x) => x.team.id), [docs.id]);
    });
    it('a guest who owns a team manages its memberships, yet reads no team', async () => {
        await empty(alice.api.orgs.addMemberToOrganizationTeamById(org.id, docs.id, gina.id, { role: 'owner' }), 204, 'gina owns docs');
        await empty(gina.api.orgs.deleteMemberFromOrganizationTeamById(org.id, docs.id, bob.id), 205, 'guest owner removes bob');
        assert.equal((await teamMembers(alice.api, docs.id))[bob.id], undefined);
        await empty(gina.api.orgs.updateMembersInOrganizationTeam(org.id, docs.id, { add: [bob.email] }), 204, 'guest owner adds bob back');
        await empty(
            gina.api.orgs.updateMembersInOrganizationTeam(org.id, docs.id, { memberships: { [bob.id]: { role: 'owner' } } }),
            204,
            'guest owner promotes bob',
        );
        assert.deepEqual(await teamMembers(alice.api, docs.id), { [frank.id]: 'owner', [bob.id]: 'owner', [gina.id]: 'owner' });
        await expectError(gina.api.orgs.listTeamsInOrganizationById(org.id), 403, 'a guest lists no teams');
        await expectError(gina.api.orgs.getTeamInOrganizationById(org.id, docs.id), 403, 'a guest reads no team');
        await expectError(gina.api.orgs.updateTeamInOrganizationById(org.id, docs.id, { title: 'Ginas' }), 403, 'a guest owner renames');
        const t = await ok(bob.api.orgs.getTeamInOrganizationById(org.id, docs.id), 'getTeamInOrganizationById');
        assert.equal(t.permissions.admin, true, 'bob owns docs now');
        await empty(alice.api.orgs.deleteMemberFromOrganizationTeamById(org.id, docs.id, gina.id), 205, 'gina leaves');
        await expectError(gina.api.orgs.addMemberToOrganizationTeamById(org.id, docs.id, gina.id, {}), 403, 'no longer an owner');
    });
});
