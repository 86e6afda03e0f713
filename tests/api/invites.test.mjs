// Inviting users by email and invite links.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, uniq } from './lib/fixtures.mjs';
import { ok, empty, expectError, raw, createOrg, checkPagination, client } from './lib/api.mjs';

describe('invites', () => {
    let ctx, alice, bob, eve, carol;
    let org;

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        eve = await ctx.user('eve');
        carol = await ctx.user('carol');
        ({ org } = await createOrg(ctx.url, alice.token, `Invites ${ctx.run}`));
    });
    after(async () => {
        if (ctx) await ctx.server.stop();
    });

    const member = (id) => ok(alice.api.orgs.getMemberInOrganizationById(org.id, id), 'getMemberInOrganizationById');
    const memberIds = async () => (await ok(alice.api.orgs.listMembersInOrganizationById(org.id, { limit: 1000 }), 'listMembersInOrganizationById')).items.map((m) => m.id);

    it('inviting an existing user by email makes them a member with the role', async () => {
        const res = await ok(alice.api.orgs.inviteUsersToOrganization(org.id, { emails: [bob.email], role: 'edit' }), 'inviteUsersToOrganization');
        assert.deepEqual(res.users, [bob.id]);
        assert.equal(res.invited, 1);
        const m = await member(bob.id);
        assert.equal(m.role, 'edit');
        assert.equal(m.user.email, bob.email);
        const o = await ok(bob.api.orgs.getOrganizationById(org.id), 'getOrganizationById');
        assert.equal(o.id, org.id);
        const l = await ok(bob.api.orgs.listOrganizationsForAuthenticatedUser(), 'listOrganizationsForAuthenticatedUser');
        assert.deepEqual(l.items.map((x) => x.id), [org.id]);
    });

    it('the object form {email, role} sets a role per email', async () => {
        const res = await ok(
            alice.api.orgs.inviteUsersToOrganization(org.id, { emails: [{ email: eve.email, role: 'comment' }] }),
            'inviteUsersToOrganization',
        );
        assert.deepEqual(res.users, [eve.id]);
        assert.equal(res.invited, 1);
        assert.equal((await member(eve.id)).role, 'comment');
    });

    it('inviting an existing member does not duplicate them', async () => {
        const before = await memberIds();
        const res = await ok(alice.api.orgs.inviteUsersToOrganization(org.id, { emails: [bob.email], role: 'edit' }), 'inviteUsersToOrganization');
        assert.ok(res.users.length <= 1);
        const after = await memberIds();
        assert.deepEqual([...after].sort(), [...before].sort());
        assert.equal(after.filter((id) => id === bob.id).length, 1);
    });

    it('inviting an unknown email creates a user who can then get a token', async () => {
        const email = `newbie-${uniq(6)}@${ctx.domain}`;
        const res = await ok(
            alice.api.orgs.inviteUsersToOrganization(org.id, { emails: [{ email, role: 'review' }] }),
            'inviteUsersToOrganization',
        );
        assert.equal(res.users.length, 1);
        assert.equal(res.invited, 1);
        const id = res.users[0];
        const u = await ok(alice.api.users.getUserById(id), 'getUserById');
        assert.equal(u.id, id);
        assert.equal(u.email, email);
        const m = await member(id);
        assert.equal(m.role, 'review');

        const token = await ctx.server.createToken(email);
        const api = client(ctx.url, token);
        const me = await ok(api.user.getAuthenticatedUser(), 'getAuthenticatedUser');
        assert.equal(me.id, id);
        assert.equal(me.email, email);
        const o = await ok(api.orgs.getOrganizationById(org.id), 'getOrganizationById');
        assert.equal(o.permissions.admin, false);
        assert.equal(o.permissions.view, true);
    });

    it('several emails at once, mixing forms', async () => {
        const e1 = `multi1-${uniq(6)}@${ctx.domain}`;
        const e2 = `multi2-${uniq(6)}@${ctx.domain}`;
        const res = await ok(
            alice.api.orgs.inviteUsersToOrganization(org.id, { emails: [e1, { email: e2, role: 'admin' }], role: 'read' }),
            'inviteUsersToOrganization',
        );
        assert.equal(res.users.length, 2);
        assert.equal(res.invited, 2);
        const roles = {};
        for (const id of res.users) {
            const m = await member(id);
            roles[m.user.email] = m.role;
        }
        assert.deepEqual(roles, { [e1]: 'read', [e2]: 'admin' });
    });

    it('inviting as a guest (role null)', async () => {
        const res = await ok(alice.api.orgs.inviteUsersToOrganization(org.id, { emails: [carol.email], role: null }), 'inviteUsersToOrganization');
        assert.deepEqual(res.users, [carol.id]);
        const m = await member(carol.id);
        assert.equal(m.role ?? null, null);
        await ok(carol.api.orgs.getOrganizationById(org.id), 'getOrganizationById');
        await empty(alice.api.orgs.removeMemberFromOrganizationById(org.id, carol.id), 205, 'remove carol again');
    });

    it('without a role, members join with the organization\'s defaultRole', async () => {
        const setDefault = (role) => ok(alice.api.orgs.updateOrganizationById(org.id, { defaultRole: role }), 'updateOrganizationById');
        const e1 = `default1-${uniq(6)}@${ctx.domain}`;
        const e2 = `default2-${uniq(6)}@${ctx.domain}`;
        const e3 = `default3-${uniq(6)}@${ctx.domain}`;
        const e4 = `default4-${uniq(6)}@${ctx.domain}`;
        const roleOf = async (email) => {
            const all = await ok(alice.api.orgs.listMembersInOrganizationById(org.id, { limit: 1000 }), 'listMembersInOrganizationById');
            return all.items.find((m) => m.user.email === email).role ?? null;
        };
        try {
            await setDefault('comment');
            // no role at all, and the object form without one
            let res = await ok(alice.api.orgs.inviteUsersToOrganization(org.id, { emails: [e1, { email: e2 }] }), 'inviteUsersToOrganization');
            assert.equal(res.invited, 2);
            assert.equal(await roleOf(e1), 'comment');
            assert.equal(await roleOf(e2), 'comment');
            // the request's role before the default; an item's before the request's
            res = await ok(alice.api.orgs.inviteUsersToOrganization(org.id, { emails: [e3, { email: e4, role: 'review' }], role: 'edit' }), 'inviteUsersToOrganization');
            assert.equal(res.invited, 2);
            assert.equal(await roleOf(e3), 'edit');
            assert.equal(await roleOf(e4), 'review');
            // a guest default
            await setDefault(null);
            const e5 = `default5-${uniq(6)}@${ctx.domain}`;
            await ok(alice.api.orgs.inviteUsersToOrganization(org.id, { emails: [e5] }), 'inviteUsersToOrganization');
            assert.equal(await roleOf(e5), null);
            // invite links made without a role carry the default
            await setDefault('edit');
            const link = await ok(alice.api.orgs.createOrganizationInvite(org.id, {}), 'createOrganizationInvite', 201);
            assert.equal(link.role, 'edit');
            await empty(alice.api.orgs.deleteOrganizationInviteById(org.id, link.id), 205, 'delete the link');
            for (const e of [e1, e2, e3, e4, e5]) {
                const all = await ok(alice.api.orgs.listMembersInOrganizationById(org.id, { limit: 1000 }), 'listMembersInOrganizationById');
                await empty(alice.api.orgs.removeMemberFromOrganizationById(org.id, all.items.find((m) => m.user.email === e).id), 205, 'cleanup');
            }
        } finally {
            await setDefault('read');
        }
    });

    it('invite validation', async () => {
        const before = await memberIds();
        const missing = await expectError(alice.api.orgs.inviteUsersToOrganization(org.id, { role: 'read' }), 400, 'missing emails');
        assert.match(missing.error.message, /emails/);
        const notArray = await expectError(alice.api.orgs.inviteUsersToOrganization(org.id, { emails: 'x@y.z', role: 'read' }), 400, 'emails not an array');
        assert.match(notArray.error.message, /emails/);
        await expectError(
            alice.api.orgs.inviteUsersToOrganization(org.id, { emails: [`ok-${uniq(4)}@${ctx.domain}`], role: 'king' }),
            400,
            'invalid role',
        );
        await expectError(
            alice.api.orgs.inviteUsersToOrganization(org.id, { emails: [{ email: `ok-${uniq(4)}@${ctx.domain}`, role: 'king' }] }),
            400,
            'invalid role in object form',
        );
        await expectError(alice.api.orgs.inviteUsersToOrganization(org.id, { emails: [42], role: 'read' }), 400, 'number as email');
        await expectError(alice.api.orgs.inviteUsersToOrganization(org.id, { emails: ['not-an-email'], role: 'read' }), 400, 'not an email');
        assert.deepEqual((await memberIds()).sort(), before.sort(), 'failed invites add nobody');
    });

    it('one invalid address among valid ones adds nobody, the valid ones included', async () => {
        const before = await memberIds();
        const good = `good-${uniq(6)}@${ctx.domain}`;
        const e = await expectError(
            alice.api.orgs.inviteUsersToOrganization(org.id, { emails: [bob.email, good, 'not-an-email'], role: 'read' }),
            400,
            'a bad address last',
        );
        assert.match(e.error.message, /emails\[2\]/);
        assert.deepEqual((await memberIds()).sort(), before.sort(), 'nobody added');
        // the valid address was not taken: invited alone now, it joins as a new member
        const res = await ok(alice.api.orgs.inviteUsersToOrganization(org.id, { emails: [good], role: 'comment' }), 'inviteUsersToOrganization');
        assert.equal(res.invited, 1);
        assert.equal((await member(res.users[0])).role, 'comment');
    });

    it('only admins may invite; non-members get 404', async () => {
        const email = `nope-${uniq(6)}@${ctx.domain}`;
        await expectError(bob.api.orgs.inviteUsersToOrganization(org.id, { emails: [email], role: 'admin' }), 403, 'edit member invites');
        await expectError(eve.api.orgs.inviteUsersToOrganization(org.id, { emails: [carol.email], role: 'read' }), 403, 'comment member invites');
        await expectError(carol.api.orgs.inviteUsersToOrganization(org.id, { emails: [carol.email], role: 'admin' }), 404, 'non-member');
        await expectError(alice.api.orgs.getMemberInOrganizationById(org.id, carol.id), 404, 'carol still not a member');
        await expectError(alice.api.orgs.inviteUsersToOrganization('nosuchorg00000000000', { emails: [email], role: 'read' }), 404, 'unknown org');
        await expectError(raw(ctx.url, 'POST', `/v1/orgs/${org.id}/invites`, { json: { emails: [email] } }), 401, 'no token');
    });

    describe('link invites', () => {
        let inv;
        const path = () => `/v1/orgs/${org.id}/link-invites`;

        it('POST creates an invite link; GET reads it back', async () => {
            inv = await ok(alice.api.orgs.createOrganizationInvite(org.id, { role: 'read' }), 'createOrganizationInvite', 201);
            assert.equal(inv.object, 'invite');
            assert.equal(inv.role, 'read');
            assert.equal(typeof inv.redundant, 'boolean');
            assert.equal(typeof inv.id, 'string');
            const got = await ok(alice.api.orgs.getOrganizationInviteLink(org.id, inv.id), 'getOrganizationInviteLink');
            assert.deepEqual({ ...got, redundant: undefined }, { ...inv, redundant: undefined });
            const list = await ok(alice.api.orgs.listOrganizationInviteLinks(org.id), 'listOrganizationInviteLinks');
            assert.deepEqual(list.items.map((i) => i.id), [inv.id]);
        });

        it('POST validates the role', async () => {
            await expectError(alice.api.orgs.createOrganizationInvite(org.id, { role: 'wizard' }), 400, 'invalid role');
            const e = await expectError(alice.api.orgs.createOrganizationInvite(org.id, { role: 7 }), 400, 'number');
            assert.match(e.error.message, /role/);
            const guest = await ok(alice.api.orgs.createOrganizationInvite(org.id, { role: null }), 'createOrganizationInvite', 201);
            assert.equal(guest.role ?? null, null);
            await empty(alice.api.orgs.deleteOrganizationInviteById(org.id, guest.id), 205, 'delete guest invite');
        });

        it('lists invite links with pagination', async () => {
            const made = [inv];
            for (const role of ['edit', 'comment', 'admin']) {
                made.push(await ok(alice.api.orgs.createOrganizationInvite(org.id, { role }), 'createOrganizationInvite', 201));
            }
            const all = await checkPagination((q) => alice.api.orgs.listOrganizationInviteLinks(org.id, q), 'listOrganizationInviteLinks');
            assert.deepEqual(all.map((i) => i.id).sort(), made.map((i) => i.id).sort());
            const roles = Object.fromEntries(all.map((i) => [i.id, i.role]));
            for (const m of made) assert.equal(roles[m.id], m.role);
            for (const m of made.slice(1)) await empty(alice.api.orgs.deleteOrganizationInviteById(org.id, m.id), 205, 'cleanup');
            await expectError(raw(ctx.url, 'GET', `${path()}?limit=1001`, { token: alice.token }), 400, 'limit=1001');
        });

        it('PATCH changes the role', async () => {
            const p = await ok(alice.api.orgs.updateOrganizationInviteById(org.id, inv.id, { role: 'edit' }), 'updateOrganizationInviteById');
            assert.equal(p.id, inv.id);
            assert.equal(p.role, 'edit');
            const got = await ok(alice.api.orgs.getOrganizationInviteLink(org.id, inv.id), 'getOrganizationInviteLink');
            assert.equal(got.role, 'edit');
            await expectError(alice.api.orgs.updateOrganizationInviteById(org.id, inv.id, { role: 'nope' }), 400, 'invalid role');
            await expectError(alice.api.orgs.updateOrganizationInviteById(org.id, 'nosuchinvite00000000', { role: 'read' }), 404, 'unknown invite');
            const still = await ok(alice.api.orgs.getOrganizationInviteLink(org.id, inv.id), 'getOrganizationInviteLink');
            assert.equal(still.role, 'edit');
        });

        it('only admins manage invite links; non-members get 404', async () => {
            await expectError(bob.api.orgs.createOrganizationInvite(org.id, { role: 'admin' }), 403, 'edit member creates');
            await expectError(bob.api.orgs.updateOrganizationInviteById(org.id, inv.id, { role: 'admin' }), 403, 'edit member patches');
            await expectError(eve.api.orgs.deleteOrganizationInviteById(org.id, inv.id), 403, 'comment member deletes');
            await expectError(carol.api.orgs.listOrganizationInviteLinks(org.id), 404, 'non-member lists');
            await expectError(carol.api.orgs.getOrganizationInviteLink(org.id, inv.id), 404, 'non-member gets');
            await expectError(carol.api.orgs.updateOrganizationInviteById(org.id, inv.id, { role: 'admin' }), 404, 'non-member patches');
            await expectError(carol.api.orgs.deleteOrganizationInviteById(org.id, inv.id), 404, 'non-member deletes');
            await expectError(raw(ctx.url, 'GET', path()), 401, 'no token');
            const got = await ok(alice.api.orgs.getOrganizationInviteLink(org.id, inv.id), 'getOrganizationInviteLink');
            assert.equal(got.role, 'edit');
        });

        it('an invite of one org is not reachable through another', async () => {
            const { org: other } = await createOrg(ctx.url, alice.token, `Other ${ctx.run}`);
            await expectError(alice.api.orgs.getOrganizationInviteLink(other.id, inv.id), 404, 'wrong org');
            await empty(alice.api.orgs.deleteOrganizationInviteById(other.id, inv.id), 204, 'delete through the wrong org');
            await ok(alice.api.orgs.getOrganizationInviteLink(org.id, inv.id), 'getOrganizationInviteLink');
        });

        it('DELETE: 205, then GET 404, then DELETE 204', async () => {
            await empty(alice.api.orgs.deleteOrganizationInviteById(org.id, inv.id), 205, 'delete');
            await expectError(alice.api.orgs.getOrganizationInviteLink(org.id, inv.id), 404, 'deleted invite');
            await empty(alice.api.orgs.deleteOrganizationInviteById(org.id, inv.id), 204, 'delete again');
            await empty(alice.api.orgs.deleteOrganizationInviteById(org.id, 'nosuchinvite00000000'), 204, 'delete unknown');
            const list = await ok(alice.api.orgs.listOrganizationInviteLinks(org.id), 'listOrganizationInviteLinks');
            assert.deepEqual(list.items, []);
            assert.equal(list.next, undefined);
        });
    });

    // joinOrganizationWithInvite: GitBook's invite link has no expiry or use limit
    // (InviteLinkToOrganization: object, id, role, redundant), so a link works for anyone
    // holding it, any number of times, while the organization's inviteLinks is on.
    describe('joining with a link', () => {
        let link;
        const join = (u, orgId, id) => ok(u.api.orgs.joinOrganizationWithInvite(orgId, id), 'joinOrganizationWithInvite');
        const listed = async () => (await ok(alice.api.orgs.listMembersInOrganizationById(org.id, { limit: 1000 }), 'listMembersInOrganizationById')).items;
        const roleOf = async (id) => (await member(id)).role ?? null;
        const setOrg = (body) => ok(alice.api.orgs.updateOrganizationById(org.id, body), 'updateOrganizationById');

        before(async () => {
            link = await ok(alice.api.orgs.createOrganizationInvite(org.id, { role: 'comment' }), 'createOrganizationInvite', 201);
        });

        it('a new user joins with the link\'s role; the member list (and its cache) shows them at once', async () => {
            const dave = await ctx.user('dave');
            await expectError(dave.api.orgs.getOrganizationById(org.id), 404, 'not a member yet');
            // read twice so that the member list page is cached before the join
            const before1 = await listed();
            const before2 = await listed();
            assert.deepEqual(before2.map((m) => m.id), before1.map((m) => m.id));
            assert.ok(!before1.some((m) => m.id === dave.id));

            const body = await join(dave, org.id, link.id);
            assert.deepEqual(body, {});

            const after = await listed();
            assert.equal(after.length, before1.length + 1);
            const m = after.find((x) => x.id === dave.id);
            assert.ok(m, 'the new member is in the list at once');
            assert.equal(m.role, 'comment');
            assert.equal(m.sso, false);
            assert.equal(await roleOf(dave.id), 'comment');
            const mine = await ok(dave.api.orgs.listOrganizationsForAuthenticatedUser(), 'listOrganizationsForAuthenticatedUser');
            assert.deepEqual(mine.items.map((o) => o.id), [org.id]);
            const o = await ok(dave.api.orgs.getOrganizationById(org.id), 'getOrganizationById');
            assert.equal(o.permissions.view, true);
            assert.equal(o.permissions.admin, false);
            // the link is not used up: it works again for another user
            const gina = await ctx.user('gina');
            await join(gina, org.id, link.id);
            assert.equal(await roleOf(gina.id), 'comment');
            assert.ok((await ok(alice.api.orgs.getOrganizationInviteLink(org.id, link.id), 'getOrganizationInviteLink')).id === link.id);
        });

        it('a link made without a role applies the organization\'s defaultRole; a guest link makes guests', async () => {
            const frank = await ctx.user('frank');
            const hank = await ctx.user('hank');
            try {
                await setOrg({ defaultRole: 'review' });
                const dflt = await ok(alice.api.orgs.createOrganizationInvite(org.id, {}), 'createOrganizationInvite', 201);
                assert.equal(dflt.role, 'review');
                await join(frank, org.id, dflt.id);
                assert.equal(await roleOf(frank.id), 'review');

                const guest = await ok(alice.api.orgs.createOrganizationInvite(org.id, { role: null }), 'createOrganizationInvite', 201);
                await join(hank, org.id, guest.id);
                assert.equal(await roleOf(hank.id), null);
                await ok(hank.api.orgs.getOrganizationById(org.id), 'getOrganizationById');
            } finally {
                await setOrg({ defaultRole: 'read' });
            }
        });

        it('a member already is left as they are: 200, no downgrade, no upgrade, no duplicate', async () => {
            const before = await listed();
            const admin = await ok(alice.api.orgs.createOrganizationInvite(org.id, { role: 'admin' }), 'createOrganizationInvite', 201);
            const read = await ok(alice.api.orgs.createOrganizationInvite(org.id, { role: 'read' }), 'createOrganizationInvite', 201);
            assert.equal(await roleOf(bob.id), 'edit');
            assert.deepEqual(await join(bob, org.id, admin.id), {});
            assert.equal(await roleOf(bob.id), 'edit', 'no upgrade');
            assert.deepEqual(await join(bob, org.id, read.id), {});
            assert.equal(await roleOf(bob.id), 'edit', 'no downgrade');
            await join(alice, org.id, read.id);
            assert.equal(await roleOf(alice.id), 'admin', 'an admin stays admin');
            const after = await listed();
            assert.deepEqual(after.map((m) => [m.id, m.role ?? null]), before.map((m) => [m.id, m.role ?? null]));
        });

        it('an unknown link, or a link of another organization, is 404 and adds nobody', async () => {
            const ivan = await ctx.user('ivan');
            const before = await memberIds();
            const e = await expectError(ivan.api.orgs.joinOrganizationWithInvite(org.id, 'nosuchinvite00000000'), 404, 'unknown link');
            assert.match(e.error.message, /invite/);
            await expectError(ivan.api.orgs.joinOrganizationWithInvite('nosuchorg00000000000', link.id), 404, 'unknown organization');

            const { org: other } = await createOrg(ctx.url, eve.token, `Other inv ${ctx.run}`);
            const otherLink = await ok(eve.api.orgs.createOrganizationInvite(other.id, { role: 'admin' }), 'createOrganizationInvite', 201);
            await expectError(ivan.api.orgs.joinOrganizationWithInvite(org.id, otherLink.id), 404, 'other org\'s link through this org');
            await expectError(ivan.api.orgs.joinOrganizationWithInvite(other.id, link.id), 404, 'this org\'s link through the other');
            await expectError(ivan.api.orgs.getOrganizationById(org.id), 404, 'ivan is not a member of org');
            await expectError(ivan.api.orgs.getOrganizationById(other.id), 404, 'ivan is not a member of other');
            await expectError(raw(ctx.url, 'POST', `/v1/orgs/${org.id}/invites/${link.id}`), 401, 'no token');
            assert.deepEqual((await memberIds()).sort(), before.sort());
        });

        it('while inviteLinks is false, links can be neither made nor used (403); on again, they work', async () => {
            const jack = await ctx.user('jack');
            const before = await memberIds();
            try {
                const o = await setOrg({ inviteLinks: false });
                assert.equal(o.inviteLinks, false);
                const c = await expectError(alice.api.orgs.createOrganizationInvite(org.id, { role: 'read' }), 403, 'create while off');
                assert.match(c.error.message, /inviteLinks/);
                const j = await expectError(jack.api.orgs.joinOrganizationWithInvite(org.id, link.id), 403, 'join while off');
                assert.match(j.error.message, /inviteLinks/);
                await expectError(alice.api.orgs.getMemberInOrganizationById(org.id, jack.id), 404, 'jack not added');
                assert.deepEqual((await memberIds()).sort(), before.sort());
                // an unknown link stays 404, and the links stay listed
                await expectError(jack.api.orgs.joinOrganizationWithInvite(org.id, 'nosuchinvite00000000'), 404, 'unknown link while off');
                const links = await ok(alice.api.orgs.listOrganizationInviteLinks(org.id, { limit: 1000 }), 'listOrganizationInviteLinks');
                assert.ok(links.items.some((i) => i.id === link.id));
            } finally {
                await setOrg({ inviteLinks: true });
            }
            await join(jack, org.id, link.id);
            assert.equal(await roleOf(jack.id), 'comment');
            await ok(alice.api.orgs.createOrganizationInvite(org.id, { role: 'read' }), 'createOrganizationInvite', 201);
        });

        it('where the organization enforces SSO, link joins still work and make non-SSO members', async () => {
            const kate = await ctx.user('kate');
            try {
                assert.equal((await setOrg({ sso: true })).sso, true);
                await join(kate, org.id, link.id);
                const m = await member(kate.id);
                assert.equal(m.role, 'comment');
                assert.equal(m.sso, false);
            } finally {
                await setOrg({ sso: false });
            }
        });

        it('a deleted link no longer lets anyone in', async () => {
            const liam = await ctx.user('liam');
            const once = await ok(alice.api.orgs.createOrganizationInvite(org.id, { role: 'edit' }), 'createOrganizationInvite', 201);
            await empty(alice.api.orgs.deleteOrganizationInviteById(org.id, once.id), 205, 'delete the link');
            await expectError(liam.api.orgs.joinOrganizationWithInvite(org.id, once.id), 404, 'deleted link');
            await expectError(alice.api.orgs.getMemberInOrganizationById(org.id, liam.id), 404, 'liam not added');
        });
    });
});
