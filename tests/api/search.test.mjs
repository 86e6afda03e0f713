// Search: space and organization search over the current revision's pages, ranked with pages
// holding every word first, partial matches after, the last word as a prefix; only readable spaces.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { ok, expectError, rawOk, createOrg, addMember } from './lib/api.mjs';

describe('search', () => {
    let ctx, alice, bob, api, org, docs, secret, ids;

    async function fill(space, changes) {
        const cr = await ok(api.spaces.createChangeRequest(space.id, { subject: 'Seed' }), 'createChangeRequest', 201);
        await rawOk(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { token: alice.token, json: { changes } }, 'updateChangeRequestContent');
        const m = await ok(api.spaces.mergeChangeRequest(space.id, cr.id), 'mergeChangeRequest');
        assert.equal(m.result, 'merge');
        return (await ok(api.spaces.listPages(space.id), 'listPages')).pages;
    }
    const search = (spaceId, query, extra = {}) => ok(api.spaces.searchSpaceContent(spaceId, { query, ...extra }), 'searchSpaceContent');

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        api = alice.api;
        ({ org } = await createOrg(ctx.url, alice.token, `Search ${ctx.run}`));
        await addMember(api, org.id, bob.email, 'read');
        docs = await ok(api.orgs.createSpace(org.id, { title: 'Docs' }), 'createSpace', 201);
        secret = await ok(api.orgs.createSpace(org.id, { title: 'Secret' }), 'createSpace', 201);
        await ok(api.spaces.updateSpaceById(secret.id, { defaultLevel: null }), 'updateSpaceById');
        const pages = await fill(docs, [
            { operation: 'insert_page', title: 'Hatching', document: { markdown: '# Hatching\n\nIntro text.\n\n## Hatch patterns\n\nDraw hatch patterns on surfaces.\n' } },
            { operation: 'insert_page', title: 'Patterns only', document: { markdown: 'Patterns are everywhere.\n' } },
            { operation: 'insert_page', title: 'Unrelated', document: { markdown: 'Nothing to see.\n' } },
        ]);
        ids = Object.fromEntries(pages.map((p) => [p.title, p.id]));
        await fill(secret, [{ operation: 'insert_page', title: 'Hidden hatch', document: { markdown: 'hatch patterns secret\n' } }]);
    });
    after(() => ctx?.server.stop());

    it('pages with every word first, then partial matches; a missing word does not empty the results', async () => {
        const res = await search(docs.id, 'custom hatch patterns');
        assert.ok(res.items.length >= 2);
        assert.equal(res.items[0].id, ids.Hatching);
        assert.ok(res.items.some((p) => p.id === ids['Patterns only']));
        assert.ok(!res.items.some((p) => p.id === ids.Unrelated));
        const sec = res.items[0].sections.find((s) => s.title === 'Hatch patterns');
        assert.ok(sec, JSON.stringify(res.items[0]));
        assert.match(sec.body, /hatch patterns/);
        assert.equal(sec.path, 'hatching#hatch-patterns');
    });

    it('the last word matches as a prefix (search as you type)', async () => {
        const res = await search(docs.id, 'hatc');
        assert.deepEqual(res.items.map((p) => p.id), [ids.Hatching]);
        assert.equal((await search(docs.id, 'zzzz')).items.length, 0);
    });

    it('pagination, bad input, injection-looking text', async () => {
        const p1 = await search(docs.id, 'patterns hatch', { limit: 1 });
        assert.equal(p1.items.length, 1);
        assert.ok(p1.next?.page);
        const p2 = await search(docs.id, 'patterns hatch', { limit: 1, page: p1.next.page });
        assert.notEqual(p2.items[0].id, p1.items[0].id);
        await expectError(api.spaces.searchSpaceContent(docs.id, { query: '' }), 400);
        await expectError(api.spaces.searchSpaceContent(docs.id, { query: '"*()' }), 400);
        for (const q of ['"hatch', 'hatch OR', 'NEAR(hatch', "hatch' --", 'hatch\\', '-hatch', 'hatch*']) await search(docs.id, q);
    });

    it('organization search groups by space and keeps only readable spaces', async () => {
        const all = await ok(api.orgs.searchOrganizationContent(org.id, { query: 'hatch patterns' }), 'searchOrganizationContent');
        assert.deepEqual(all.items.map((s) => s.id).sort(), [docs.id, secret.id].sort());
        const asBob = await ok(bob.api.orgs.searchOrganizationContent(org.id, { query: 'hatch patterns' }), 'searchOrganizationContent');
        assert.deepEqual(asBob.items.map((s) => s.id), [docs.id]);
        await expectError(bob.api.spaces.searchSpaceContent(secret.id, { query: 'hatch' }), 404);
    });

    it('the index follows merges: deleted pages leave, edited pages change', async () => {
        const cr = await ok(api.spaces.createChangeRequest(docs.id, { subject: 'Edit' }), 'createChangeRequest', 201);
        await rawOk(ctx.url, 'POST', `/v1/spaces/${docs.id}/change-requests/${cr.id}/content`, {
            token: alice.token,
            json: { changes: [{ operation: 'delete_page', page: ids['Patterns only'] }, { operation: 'update_page', page: ids.Unrelated, document: { markdown: 'Now about zebras.\n' } }] },
        }, 'updateChangeRequestContent');
        await ok(api.spaces.mergeChangeRequest(docs.id, cr.id), 'mergeChangeRequest');
        assert.ok(!(await search(docs.id, 'patterns')).items.some((p) => p.id === ids['Patterns only']));
        assert.deepEqual((await search(docs.id, 'zebras')).items.map((p) => p.id), [ids.Unrelated]);
        await ok(api.spaces.deleteSpaceById(secret.id).catch(() => null), 'deleteSpaceById').catch(() => null);
    });
});
