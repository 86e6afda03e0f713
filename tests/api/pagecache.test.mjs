// The member list is served from a page cache validated by the organization's
// generation: the same request before and after each kind of change must show the change.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { ok, empty, raw, rawOk, createOrg, addMember } from './lib/api.mjs';

describe('member list page cache', () => {
    let ctx, alice, bob, org, team;

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice', { name: 'Alice Admin' });
        bob = await ctx.user('bob', { name: 'Bob Reader' });
        ({ org } = await createOrg(ctx.url, alice.token, `Cache ${ctx.run}`));
    });
    after(async () => {
        if (ctx) await ctx.server.stop();
    });

    const page = async () => {
        const res = await ok(alice.api.orgs.listMembersInOrganizationById(org.id, { limit: 50 }), 'listMembersInOrganizationById');
        return Object.fromEntries(res.items.map((m) => [m.id, m]));
    };
    const hits = async () => {
        const r = await raw(ctx.url, 'GET', '/metrics');
        const m = /docsd_page_cache_lookups_total\{result="hit"\} (\d+)/.exec(r.text);
        return m ? Number(m[1]) : 0;
    };

    it('serves repeated pages from the cache and shows every change at once', async () => {
        let p = await page();
        assert.deepEqual(Object.keys(p), [alice.id]);
        const before = await hits();
        p = await page();
        assert.ok((await hits()) > before, 'a repeated page is a cache hit');

        // a new member
        await addMember(alice.api, org.id, bob.email, 'read');
        p = await page();
        assert.equal(p[bob.id]?.role, 'read');

        // a role change
        await ok(alice.api.orgs.updateMemberInOrganizationById(org.id, bob.id, { role: 'edit' }), 'updateMemberInOrganizationById');
        p = await page();
        assert.equal(p[bob.id].role, 'edit');

        // the SSO flag
        // (the client has no method for this one)
        await rawOk(ctx.url, 'POST', `/v1/orgs/${org.id}/members/${bob.id}/sso`, { token: alice.token }, 'setUserAsSSOMemberForOrganization');
        p = await page();
        assert.equal(p[bob.id].sso, true);

        // lastSeenAt through ping
        assert.equal(p[bob.id].lastSeenAt, undefined);
        await ok(bob.api.orgs.updateOrganizationMemberLastSeenAt(org.id), 'updateOrganizationMemberLastSeenAt');
        p = await page();
        assert.ok(p[bob.id].lastSeenAt, 'lastSeenAt is set after ping');

        // team counts: create with a member, add through PUT, remove, delete the team
        team = await ok(alice.api.orgs.createOrganizationTeam(org.id, { title: 'Writers', members: [bob.id] }), 'createOrganizationTeam', 201);
        p = await page();
        assert.equal(p[bob.id].teams, 1);
        await empty(alice.api.orgs.addMemberToOrganizationTeamById(org.id, team.id, alice.id, {}), 204);
        p = await page();
        assert.equal(p[alice.id].teams, 1);
        await empty(alice.api.orgs.deleteMemberFromOrganizationTeamById(org.id, team.id, alice.id), 205);
        p = await page();
        assert.equal(p[alice.id].teams, 0);
        await empty(alice.api.orgs.removeTeamFromOrganizationById(org.id, team.id), 204);
        p = await page();
        assert.equal(p[bob.id].teams, 0);

        // removal
        await empty(alice.api.orgs.removeMemberFromOrganizationById(org.id, bob.id), 205);
        p = await page();
        assert.deepEqual(Object.keys(p), [alice.id]);
    });

    it('keeps different queries apart', async () => {
        const all = await ok(alice.api.orgs.listMembersInOrganizationById(org.id, { limit: 10 }), 'listMembersInOrganizationById');
        const guests = await ok(alice.api.orgs.listMembersInOrganizationById(org.id, { limit: 10, role: 'guest' }), 'listMembersInOrganizationById');
        assert.equal(all.items.length, 1);
        assert.equal(guests.items.length, 0);
    });

    it('caches the admins\' space and collection lists, never a non-admin\'s, and shows every change', async () => {
        const spaces = async (who) =>
            (await ok(who.api.orgs.listSpacesInOrganizationById(org.id, { limit: 50 }), 'listSpacesInOrganizationById')).items;
        const titles = async (who) => (await spaces(who)).map((s) => s.title).sort();
        const reader = await ctx.user('reader');
        await addMember(alice.api, org.id, reader.email, 'read');
        const first = await ok(alice.api.orgs.createSpace(org.id, { title: 'Cached one' }), 'createSpace', 201);
        assert.deepEqual(await titles(alice), ['Cached one']);
        const before = await hits();
        assert.deepEqual(await titles(alice), ['Cached one']);
        assert.ok((await hits()) > before, 'an admin\'s repeated space list is a cache hit');

        // a change of each kind shows at once
        await ok(alice.api.spaces.updateSpaceById(first.id, { title: 'Renamed' }), 'updateSpaceById');
        assert.deepEqual(await titles(alice), ['Renamed']);
        const hidden = await ok(alice.api.orgs.createSpace(org.id, { title: 'Hidden' }), 'createSpace', 201);
        assert.deepEqual(await titles(alice), ['Hidden', 'Renamed']);
        await ok(alice.api.spaces.updateSpaceById(hidden.id, { defaultLevel: null }), 'updateSpaceById');

        // a reader sees their own filtered page, not the admins' cached one, and no hit is counted
        const h = await hits();
        assert.deepEqual(await titles(reader), ['Renamed']);
        assert.deepEqual(await titles(reader), ['Renamed']);
        assert.equal(await hits(), h, 'a non-admin list is never served from the cache');
        for (const s of await spaces(reader)) assert.equal(s.permissions.admin, false);
        for (const s of await spaces(alice)) assert.equal(s.permissions.admin, true);

        await empty(alice.api.spaces.deleteSpaceById(first.id), 204, 'delete');
        assert.deepEqual(await titles(alice), ['Hidden']);
        await ok(alice.api.spaces.restoreSpace(first.id), 'restoreSpace');
        assert.deepEqual(await titles(alice), ['Hidden', 'Renamed']);

        const col = await ok(alice.api.orgs.createCollection(org.id, { title: 'Shelf' }), 'createCollection', 201);
        const cols = async () =>
            (await ok(alice.api.orgs.listCollectionsInOrganizationById(org.id), 'listCollectionsInOrganizationById')).items.map((c) => c.title);
        assert.deepEqual(await cols(), ['Shelf']);
        await ok(alice.api.collections.updateCollectionById(col.id, { title: 'Shelf 2' }), 'updateCollectionById');
        assert.deepEqual(await cols(), ['Shelf 2']);
        await empty(alice.api.collections.deleteCollectionById(col.id), 204, 'delete collection');
        assert.deepEqual(await cols(), []);
    });
});
