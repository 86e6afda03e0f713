// Organization members: list (order, role, search, sort, pagination), get, update role,
// remove, last-admin rule, ping / lastSeenAt, SSO flag, access rules.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { ok, empty, expectError, raw, createOrg, addMember, checkPagination, sleep, validate } from './lib/api.mjs';

const isJwt = (s) => typeof s === 'string' && /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(s);

describe('members', () => {
    let ctx, alice, bob, eve, frank, gina, henry, carol;
    let org;
    const roles = {};
    let joinOrder; // ids in the order they joined

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice', { name: 'Alice Admin' });
        bob = await ctx.user('bob', { name: 'Bob Builder' });
        eve = await ctx.user('eve', { name: 'Eve Editor' });
        frank = await ctx.user('frank', { name: 'Frank Commenter' });
        gina = await ctx.user('gina', { name: 'Gina Guest' });
        henry = await ctx.user('henry', { name: 'Henry Wanderer' });
        carol = await ctx.user('carol', { name: 'Carol Outsider' });
        ({ org } = await createOrg(ctx.url, alice.token, `Members ${ctx.run}`));
        joinOrder = [alice.id];
        roles[alice.id] = 'admin';
        for (const [u, role] of [
            [bob, 'read'],
            [eve, 'edit'],
            [frank, 'comment'],
            [gina, null],
            [henry, 'review'],
        ]) {
            await sleep(5); // distinct joinedAt
            const id = await addMember(alice.api, org.id, u.email, role);
            assert.equal(id, u.id);
            roles[u.id] = role;
            joinOrder.push(u.id);
        }
    });
    after(async () => {
        if (ctx) await ctx.server.stop();
    });

    const list = (api, q) => ok(api.orgs.listMembersInOrganizationById(org.id, q), 'listMembersInOrganizationById');

    it('lists all members, newest first by default', async () => {
        const res = await list(alice.api);
        assert.equal(res.next, undefined);
        assert.deepEqual(res.items.map((m) => m.id), [...joinOrder].reverse());
        for (const m of res.items) {
            assert.equal(m.object, 'member');
            assert.equal(m.user.id, m.id);
            assert.equal(m.role ?? null, roles[m.id], `role of ${m.user.displayName}`);
            assert.equal(m.disabled, false);
            assert.equal(m.sso, false);
            assert.equal(m.teams, 0);
            assert.equal(m.spaces, 0);
        }
        const ts = res.items.map((m) => Date.parse(m.joinedAt));
        for (let i = 1; i < ts.length; i++) assert.ok(ts[i - 1] >= ts[i], 'joinedAt descending');
    });

    it('order=asc and order=desc', async () => {
        const asc = await list(alice.api, { order: 'asc' });
        assert.deepEqual(asc.items.map((m) => m.id), joinOrder);
        const desc = await list(alice.api, { order: 'desc' });
        assert.deepEqual(desc.items.map((m) => m.id), [...joinOrder].reverse());
        const explicit = await list(alice.api, { order: 'asc', sort: 'joinedAt' });
        assert.deepEqual(explicit.items.map((m) => m.id), joinOrder);
    });

    it('paginates with limit=1 in both orders and with filters', async () => {
        const f = (q) => alice.api.orgs.listMembersInOrganizationById(org.id, q);
        const d = await checkPagination(f, 'listMembersInOrganizationById');
        assert.equal(d.length, joinOrder.length);
        const a = await checkPagination(f, 'listMembersInOrganizationById', { query: { order: 'asc' } });
        assert.deepEqual(a.map((m) => m.id), joinOrder);
        const s = await checkPagination(f, 'listMembersInOrganizationById', { query: { search: 'ER', order: 'asc' } });
        assert.deepEqual(s.map((m) => m.id), [bob.id, frank.id, henry.id], 'Builder, Commenter, Henry');
    });

    it('filters by role, including guest', async () => {
        const cases = [
            ['admin', [alice.id]],
            ['read', [bob.id]],
            ['edit', [eve.id]],
            ['comment', [frank.id]],
            ['review', [henry.id]],
            ['create', []],
            ['guest', [gina.id]],
        ];
        for (const [role, ids] of cases) {
            const res = await list(alice.api, { role });
            assert.deepEqual(res.items.map((m) => m.id), ids, `role=${role}`);
        }
    });

    it('searches displayName and email, case-insensitively', async () => {
        let res = await list(alice.api, { search: 'BUILDER' });
        assert.deepEqual(res.items.map((m) => m.id), [bob.id]);
        res = await list(alice.api, { search: 'eve editor' });
        assert.deepEqual(res.items.map((m) => m.id), [eve.id]);
        const local = frank.email.split('@')[0].toUpperCase();
        res = await list(alice.api, { search: local });
        assert.deepEqual(res.items.map((m) => m.id), [frank.id]);
        res = await list(alice.api, { search: ctx.domain.toUpperCase() });
        assert.equal(res.items.length, joinOrder.length, 'every member has the run domain');
        res = await list(alice.api, { search: 'nobody-has-this-name' });
        assert.deepEqual(res.items, []);
        res = await list(alice.api, { search: 'e', role: 'edit' });
        assert.deepEqual(res.items.map((m) => m.id), [eve.id], 'search combined with role');
    });

    it('rejects invalid order, sort, role and limit', async () => {
        const p = `/v1/orgs/${org.id}/members`;
        await expectError(raw(ctx.url, 'GET', `${p}?order=sideways`, { token: alice.token }), 400, 'order');
        await expectError(raw(ctx.url, 'GET', `${p}?sort=name`, { token: alice.token }), 400, 'sort');
        await expectError(raw(ctx.url, 'GET', `${p}?role=owner`, { token: alice.token }), 400, 'role');
        await expectError(raw(ctx.url, 'GET', `${p}?limit=1001`, { token: alice.token }), 400, 'limit=1001');
        await expectError(raw(ctx.url, 'GET', `${p}?limit=0`, { token: alice.token }), 400, 'limit=0');
        await expectError(raw(ctx.url, 'GET', `${p}?page=garbage!!`, { token: alice.token }), 400, 'bad cursor');
    });

    it('who may list members', async () => {
        const asBob = await list(bob.api);
        assert.equal(asBob.items.length, joinOrder.length, 'a read member lists members');
        await expectError(gina.api.orgs.listMembersInOrganizationById(org.id), 403, 'guest');
        await expectError(carol.api.orgs.listMembersInOrganizationById(org.id), 404, 'non-member');
        await expectError(raw(ctx.url, 'GET', `/v1/orgs/${org.id}/members`), 401, 'no token');
    });

    it('GET a member; unknown or non-member user is 404', async () => {
        const m = await ok(alice.api.orgs.getMemberInOrganizationById(org.id, eve.id), 'getMemberInOrganizationById');
        assert.equal(m.id, eve.id);
        assert.equal(m.role, 'edit');
        assert.equal(m.user.email, eve.email);
        assert.equal(m.user.displayName, 'Eve Editor');
        assert.equal(m.teams, 0);
        assert.equal(m.spaces, 0);
        assert.equal(m.sso, false);
        assert.ok(Math.abs(Date.parse(m.joinedAt) - Date.now()) < 5 * 60_000);
        const g = await ok(bob.api.orgs.getMemberInOrganizationById(org.id, gina.id), 'getMemberInOrganizationById');
        assert.equal(g.role ?? null, null);
        await expectError(alice.api.orgs.getMemberInOrganizationById(org.id, carol.id), 404, 'non-member user');
        await expectError(alice.api.orgs.getMemberInOrganizationById(org.id, 'nosuchuser0000000000'), 404, 'unknown user');
        await expectError(carol.api.orgs.getMemberInOrganizationById(org.id, eve.id), 404, 'caller not a member');
    });

    it('PATCH a member role, including guest (null); read back', async () => {
        let m = await ok(alice.api.orgs.updateMemberInOrganizationById(org.id, frank.id, { role: 'create' }), 'updateMemberInOrganizationById');
        assert.equal(m.id, frank.id);
        assert.equal(m.role, 'create');
        m = await ok(alice.api.orgs.getMemberInOrganizationById(org.id, frank.id), 'getMemberInOrganizationById');
        assert.equal(m.role, 'create');
        let l = await list(alice.api, { role: 'create' });
        assert.deepEqual(l.items.map((x) => x.id), [frank.id]);

        m = await ok(alice.api.orgs.updateMemberInOrganizationById(org.id, frank.id, { role: null }), 'updateMemberInOrganizationById');
        assert.equal(m.role ?? null, null);
        l = await list(alice.api, { role: 'guest' });
        assert.deepEqual(new Set(l.items.map((x) => x.id)), new Set([frank.id, gina.id]));
        const asFrank = await ok(frank.api.orgs.getOrganizationById(org.id), 'getOrganizationById');
        assert.equal(asFrank.permissions.listMembers, false);
        await expectError(frank.api.orgs.listMembersInOrganizationById(org.id), 403, 'frank is now a guest');

        m = await ok(alice.api.orgs.updateMemberInOrganizationById(org.id, frank.id, { role: 'comment' }), 'updateMemberInOrganizationById');
        assert.equal(m.role, 'comment');
        await list(frank.api);
    });

    it('PATCH member rejects bad roles and unknown members', async () => {
        await expectError(alice.api.orgs.updateMemberInOrganizationById(org.id, eve.id, { role: 'owner' }), 400, 'invalid role');
        await expectError(alice.api.orgs.updateMemberInOrganizationById(org.id, eve.id, { role: 'guest' }), 400, 'guest string');
        const e = await expectError(alice.api.orgs.updateMemberInOrganizationById(org.id, eve.id, { role: 5 }), 400, 'number');
        assert.match(e.error.message, /role/);
        await expectError(alice.api.orgs.updateMemberInOrganizationById(org.id, carol.id, { role: 'read' }), 404, 'non-member');
        await expectError(alice.api.orgs.updateMemberInOrganizationById(org.id, 'nosuchuser0000000000', { role: 'read' }), 404, 'unknown user');
        const m = await ok(alice.api.orgs.getMemberInOrganizationById(org.id, eve.id), 'getMemberInOrganizationById');
        assert.equal(m.role, 'edit');
    });

    it('only admins may change or remove members', async () => {
        await expectError(bob.api.orgs.updateMemberInOrganizationById(org.id, eve.id, { role: 'read' }), 403, 'read member patches');
        await expectError(bob.api.orgs.updateMemberInOrganizationById(org.id, bob.id, { role: 'admin' }), 403, 'self-promotion');
        await expectError(eve.api.orgs.removeMemberFromOrganizationById(org.id, frank.id), 403, 'edit member removes');
        await expectError(gina.api.orgs.updateMemberInOrganizationById(org.id, gina.id, { role: 'admin' }), 403, 'guest self-promotion');
        await expectError(bob.api.orgs.setUserAsSsoMemberForOrganization(org.id, bob.id), 403, 'read member sets sso');
        const b = await ok(alice.api.orgs.getMemberInOrganizationById(org.id, bob.id), 'getMemberInOrganizationById');
        assert.equal(b.role, 'read');
        await ok(alice.api.orgs.getMemberInOrganizationById(org.id, frank.id), 'getMemberInOrganizationById');
    });

    it('the last admin can be neither demoted nor removed', async () => {
        const { org: solo } = await createOrg(ctx.url, alice.token, `Solo ${ctx.run}`);
        await addMember(alice.api, solo.id, bob.email, 'edit');
        await expectError(alice.api.orgs.updateMemberInOrganizationById(solo.id, alice.id, { role: 'read' }), 400, 'demote last admin');
        await expectError(alice.api.orgs.updateMemberInOrganizationById(solo.id, alice.id, { role: null }), 400, 'make last admin a guest');
        await expectError(alice.api.orgs.removeMemberFromOrganizationById(solo.id, alice.id), 400, 'remove last admin');
        let a = await ok(alice.api.orgs.getMemberInOrganizationById(solo.id, alice.id), 'getMemberInOrganizationById');
        assert.equal(a.role, 'admin');

        // with a second admin, the first can step down
        await ok(alice.api.orgs.updateMemberInOrganizationById(solo.id, bob.id, { role: 'admin' }), 'updateMemberInOrganizationById');
        a = await ok(alice.api.orgs.updateMemberInOrganizationById(solo.id, alice.id, { role: 'edit' }), 'updateMemberInOrganizationById');
        assert.equal(a.role, 'edit');
        await expectError(alice.api.orgs.updateOrganizationById(solo.id, { title: 'Not admin now' }), 403, 'former admin');
        await expectError(bob.api.orgs.removeMemberFromOrganizationById(solo.id, bob.id), 400, 'bob is now the last admin');
        await empty(bob.api.orgs.removeMemberFromOrganizationById(solo.id, alice.id), 205, 'remove alice');
        await expectError(alice.api.orgs.getOrganizationById(solo.id), 404, 'alice left');
        const members = await ok(bob.api.orgs.listMembersInOrganizationById(solo.id), 'listMembersInOrganizationById');
        assert.deepEqual(members.items.map((m) => m.id), [bob.id]);
    });

    it('concurrent demotions never leave an organization without an admin', async () => {
        for (let round = 0; round < 4; round++) {
            const { org: o } = await createOrg(ctx.url, alice.token, `Race ${round} ${ctx.run}`);
            await addMember(alice.api, o.id, eve.email, 'admin');
            const reqs =
                round % 2 === 0
                    ? [
                          raw(ctx.url, 'PATCH', `/v1/orgs/${o.id}/members/${eve.id}`, { token: alice.token, json: { role: 'read' } }),
                          raw(ctx.url, 'PATCH', `/v1/orgs/${o.id}/members/${alice.id}`, { token: eve.token, json: { role: 'read' } }),
                      ]
                    : [
                          raw(ctx.url, 'DELETE', `/v1/orgs/${o.id}/members/${alice.id}`, { token: alice.token }),
                          raw(ctx.url, 'DELETE', `/v1/orgs/${o.id}/members/${eve.id}`, { token: eve.token }),
                      ];
            const results = await Promise.all(reqs);
            const okCount = results.filter((r) => r.status === 200 || r.status === 205).length;
            assert.equal(okCount, 1, `round ${round}: exactly one succeeds: ${results.map((r) => `${r.status} ${r.text.slice(0, 60)}`).join(' | ')}`);
            const admins = [];
            for (const u of [alice, eve]) {
                const r = await raw(ctx.url, 'GET', `/v1/orgs/${o.id}/members?role=admin`, { token: u.token });
                if (r.status === 200) {
                    validate('listMembersInOrganizationById', 200, r.json);
                    admins.push(...r.json.items.map((m) => m.id));
                }
            }
            assert.ok(admins.length >= 1, `round ${round}: the organization still has an admin`);
        }
    });

    it('DELETE a member: 205, then 404 for them, then 204', async () => {
        const { org: tmp } = await createOrg(ctx.url, alice.token, `Tmp ${ctx.run}`);
        await addMember(alice.api, tmp.id, carol.email, 'edit');
        await ok(carol.api.orgs.getOrganizationById(tmp.id), 'getOrganizationById');
        await empty(alice.api.orgs.removeMemberFromOrganizationById(tmp.id, carol.id), 205, 'remove');
        await expectError(alice.api.orgs.getMemberInOrganizationById(tmp.id, carol.id), 404, 'removed member');
        await expectError(carol.api.orgs.getOrganizationById(tmp.id), 404, 'removed member sees nothing');
        const l = await ok(carol.api.orgs.listOrganizationsForAuthenticatedUser(), 'listOrganizationsForAuthenticatedUser');
        assert.ok(!l.items.some((o) => o.id === tmp.id));
        const members = await ok(alice.api.orgs.listMembersInOrganizationById(tmp.id), 'listMembersInOrganizationById');
        assert.deepEqual(members.items.map((m) => m.id), [alice.id]);
        await empty(alice.api.orgs.removeMemberFromOrganizationById(tmp.id, carol.id), 204, 'remove again');
        await empty(alice.api.orgs.removeMemberFromOrganizationById(tmp.id, 'nosuchuser0000000000'), 204, 'remove unknown');
        // and back in
        await addMember(alice.api, tmp.id, carol.email, 'read');
        const back = await ok(alice.api.orgs.getMemberInOrganizationById(tmp.id, carol.id), 'getMemberInOrganizationById');
        assert.equal(back.role, 'read');
    });

    it('POST ping sets lastSeenAt and returns visitor claims', async () => {
        const before = await ok(alice.api.orgs.getMemberInOrganizationById(org.id, henry.id), 'getMemberInOrganizationById');
        assert.equal(before.lastSeenAt, undefined, 'henry has never been seen');
        let sorted = await list(alice.api, { sort: 'lastSeenAt' });
        assert.ok(!sorted.items.some((m) => m.id === henry.id), 'henry is not listed by lastSeenAt');

        const t0 = Date.now();
        const claims = await ok(bob.api.orgs.updateOrganizationMemberLastSeenAt(org.id), 'updateOrganizationMemberLastSeenAt');
        assert.ok(isJwt(claims.serviceVisitorClaims), `serviceVisitorClaims is a JWT: ${claims.serviceVisitorClaims}`);
        assert.ok(isJwt(claims.gitbookVisitorClaims), 'gitbookVisitorClaims is a JWT');
        assert.equal(claims.gitbookVisitorClaims, claims.serviceVisitorClaims);
        const payload = JSON.parse(Buffer.from(claims.serviceVisitorClaims.split('.')[1], 'base64url').toString('utf8'));
        assert.equal(typeof payload, 'object');

        const b = await ok(alice.api.orgs.getMemberInOrganizationById(org.id, bob.id), 'getMemberInOrganizationById');
        assert.ok(b.lastSeenAt, 'bob has lastSeenAt');
        assert.ok(Date.parse(b.lastSeenAt) >= t0 - 2000 && Date.parse(b.lastSeenAt) <= Date.now() + 2000, `lastSeenAt ${b.lastSeenAt}`);

        await sleep(10);
        await ok(eve.api.orgs.updateOrganizationMemberLastSeenAt(org.id), 'updateOrganizationMemberLastSeenAt');
        sorted = await list(alice.api, { sort: 'lastSeenAt' });
        const ids = sorted.items.map((m) => m.id);
        assert.ok(ids.includes(bob.id) && ids.includes(eve.id));
        assert.ok(!ids.includes(henry.id), 'henry never pinged');
        for (const m of sorted.items) assert.ok(m.lastSeenAt, `${m.user.displayName} listed without lastSeenAt`);
        assert.ok(ids.indexOf(eve.id) < ids.indexOf(bob.id), 'desc: eve (seen last) before bob');
        const ts = sorted.items.map((m) => Date.parse(m.lastSeenAt));
        for (let i = 1; i < ts.length; i++) assert.ok(ts[i - 1] >= ts[i], 'lastSeenAt descending');
        const asc = await list(alice.api, { sort: 'lastSeenAt', order: 'asc' });
        assert.deepEqual(asc.items.map((m) => m.id), [...ids].reverse());
        await checkPagination((q) => alice.api.orgs.listMembersInOrganizationById(org.id, q), 'listMembersInOrganizationById', {
            query: { sort: 'lastSeenAt' },
        });

        // a guest may ping too; a non-member may not
        await ok(gina.api.orgs.updateOrganizationMemberLastSeenAt(org.id), 'updateOrganizationMemberLastSeenAt');
        await expectError(carol.api.orgs.updateOrganizationMemberLastSeenAt(org.id), 404, 'non-member ping');
        await expectError(raw(ctx.url, 'POST', `/v1/orgs/${org.id}/ping`), 401, 'no token');
    });

    it('POST members/{userId}/sso marks an SSO member', async () => {
        const m = await ok(alice.api.orgs.setUserAsSsoMemberForOrganization(org.id, eve.id), 'setUserAsSSOMemberForOrganization');
        assert.equal(m.id, eve.id);
        assert.equal(m.sso, true);
        assert.equal(m.role, 'edit');
        const got = await ok(alice.api.orgs.getMemberInOrganizationById(org.id, eve.id), 'getMemberInOrganizationById');
        assert.equal(got.sso, true);
        const other = await ok(alice.api.orgs.getMemberInOrganizationById(org.id, bob.id), 'getMemberInOrganizationById');
        assert.equal(other.sso, false);
        await expectError(carol.api.orgs.setUserAsSsoMemberForOrganization(org.id, eve.id), 404, 'non-member caller');
    });

    it('POST members/{userId}/sso refuses users who are neither members nor of a verified email domain', async () => {
        // carol is a user of the server, not a member, and her email's domain is not the org's
        const res = await raw(ctx.url, 'POST', `/v1/orgs/${org.id}/members/${carol.id}/sso`, { token: alice.token });
        assert.equal(res.status, 404);
        assert.ok(!res.text.includes(carol.email), 'the answer does not reveal her email');
        assert.ok(!res.text.includes(carol.id), 'nor echo her id');
        await expectError(alice.api.orgs.getMemberInOrganizationById(org.id, carol.id), 404, 'carol did not join');
        await expectError(alice.api.orgs.setUserAsSsoMemberForOrganization(org.id, 'no-such-user'), 404, 'unknown id');
        // once the organization verifies her domain, she may be made an SSO member
        const domain = carol.email.split('@')[1];
        await ok(alice.api.orgs.updateOrganizationById(org.id, { emailDomains: [domain.toUpperCase()] }), 'updateOrganizationById');
        const m = await ok(alice.api.orgs.setUserAsSsoMemberForOrganization(org.id, carol.id), 'setUserAsSSOMemberForOrganization');
        assert.equal(m.sso, true);
        await empty(alice.api.orgs.removeMemberFromOrganizationById(org.id, carol.id), 205, 'removeMemberFromOrganizationById');
        await ok(alice.api.orgs.updateOrganizationById(org.id, { emailDomains: [] }), 'updateOrganizationById');
    });

    it('a non-member gets 404 on member sub-resources', async () => {
        await expectError(carol.api.orgs.getMemberInOrganizationById(org.id, alice.id), 404);
        await expectError(carol.api.orgs.updateMemberInOrganizationById(org.id, bob.id, { role: 'admin' }), 404);
        await expectError(carol.api.orgs.removeMemberFromOrganizationById(org.id, bob.id), 404);
        await expectError(carol.api.orgs.listTeamsForOrganizationMember(org.id, bob.id), 404);
        const b = await ok(alice.api.orgs.getMemberInOrganizationById(org.id, bob.id), 'getMemberInOrganizationById');
        assert.equal(b.role, 'read');
    });
    it('visitor claims name the member, the organization and their role', async () => {
        const claims = (api) => ok(api.orgs.updateOrganizationMemberLastSeenAt(org.id), 'updateOrganizationMemberLastSeenAt');
        const payload = (jwt) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8'));
        const header = (jwt) => JSON.parse(Buffer.from(jwt.split('.')[0], 'base64url').toString('utf8'));
        const b = (await claims(bob.api)).serviceVisitorClaims;
        assert.deepEqual(header(b), { alg: 'HS256', typ: 'JWT' });
        const p = payload(b);
        assert.equal(p.sub, bob.id);
        assert.equal(p.org, org.id);
        assert.equal(p.role, 'read');
        assert.ok(Math.abs(p.iat * 1000 - Date.now()) < 5 * 60_000, `iat ${p.iat}`);
        assert.equal(p.exp - p.iat, 3600);
        const g = payload((await claims(gina.api)).serviceVisitorClaims);
        assert.equal(g.sub, gina.id);
        assert.equal(g.role, 'guest');
        // the same server signs with the same key: two members' tokens differ in payload and signature
        const h = (await claims(henry.api)).serviceVisitorClaims;
        assert.equal(payload(h).role, 'review');
        assert.notEqual(h.split('.')[2], b.split('.')[2]);
    });

    it('getUserById: oneself and those who share an organization, never a stranger', async () => {
        const stranger = await ctx.user('stranger', { name: 'Sam Stranger' });
        const me = await ok(bob.api.users.getUserById(bob.id), 'getUserById');
        assert.equal(me.id, bob.id);
        assert.equal(me.email, bob.email);
        const a = await ok(gina.api.users.getUserById(alice.id), 'getUserById');
        assert.equal(a.id, alice.id, 'a guest shares the organization too');
        assert.equal(a.displayName, 'Alice Admin');
        const self = await ok(stranger.api.users.getUserById(stranger.id), 'getUserById');
        assert.equal(self.email, stranger.email);
        const e1 = await expectError(bob.api.users.getUserById(stranger.id), 404, 'a stranger');
        const e2 = await expectError(bob.api.users.getUserById('nosuchuser0000000000'), 404, 'unknown user');
        assert.equal(e1.error.message, e2.error.message, 'a stranger is indistinguishable from no user');
        await expectError(stranger.api.users.getUserById(bob.id), 404, 'to a stranger');

        await addMember(alice.api, org.id, stranger.email, 'read');
        assert.equal((await ok(bob.api.users.getUserById(stranger.id), 'getUserById')).id, stranger.id, 'now a co-member');
        assert.equal((await ok(stranger.api.users.getUserById(gina.id), 'getUserById')).id, gina.id);
        await empty(alice.api.orgs.removeMemberFromOrganizationById(org.id, stranger.id), 205, 'remove');
        await expectError(bob.api.users.getUserById(stranger.id), 404, 'a former co-member');
    });
});
