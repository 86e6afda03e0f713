// Search: space and organization search over the current revision's pages (written through
// change requests and merges), ranked with pages holding every word first and partial matches
// after, the last word as a prefix while it is typed; sections with excerpts and app URLs;
// keyset pagination across both; only readable, live spaces; the index follows merges, deletes,
// restores and transfers. Every response is validated against GitBook's schema.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { ok, empty, expectError, raw, rawOk, validate, createOrg, addMember, checkPagination } from './lib/api.mjs';

describe('search', () => {
    let ctx, alice, bob, api, org, org2, docs, secret, travel, ids;

    async function fill(space, changes) {
        const cr = await ok(api.spaces.createChangeRequest(space.id, { subject: 'Seed' }), 'createChangeRequest', 201);
        await rawOk(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { token: alice.token, json: { changes } }, 'updateChangeRequestContent');
        const m = await ok(api.spaces.mergeChangeRequest(space.id, cr.id), 'mergeChangeRequest');
        assert.equal(m.result, 'merge');
        return (await ok(api.spaces.listPages(space.id), 'listPages')).pages;
    }
    const page = (title, markdown) => ({ operation: 'insert_page', title, document: { markdown } });
    const search = (spaceId, query, extra = {}, who = api) => ok(who.spaces.searchSpaceContent(spaceId, { query, ...extra }), 'searchSpaceContent');
    const orgSearch = (orgId, query, extra = {}, who = api) => ok(who.orgs.searchOrganizationContent(orgId, { query, ...extra }), 'searchOrganizationContent');
    const titles = (res) => res.items.map((p) => p.title);

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        api = alice.api;
        ({ org } = await createOrg(ctx.url, alice.token, `Search ${ctx.run}`));
        ({ org: org2 } = await createOrg(ctx.url, alice.token, `Search elsewhere ${ctx.run}`));
        await addMember(api, org.id, bob.email, 'read');
        docs = await ok(api.orgs.createSpace(org.id, { title: 'Docs' }), 'createSpace', 201);
        secret = await ok(api.orgs.createSpace(org.id, { title: 'Secret' }), 'createSpace', 201);
        travel = await ok(api.orgs.createSpace(org.id, { title: 'Travel' }), 'createSpace', 201);
        await ok(api.spaces.updateSpaceById(secret.id, { defaultLevel: null }), 'updateSpaceById');
        const words = Array.from({ length: 120 }, (_, i) => (i === 60 ? 'needle' : `filler${i % 7}`)).join(' ');
        const pages = await fill(docs, [
            page('Hatching', '# Hatching\n\nIntro text.\n\n## Hatch patterns\n\nDraw custom hatch patterns on surfaces.\n'),
            page('Shading', 'Shading uses hatch lines and patterns.\n'),
            page('Patterns only', 'Patterns are everywhere.\n'),
            page('Unrelated', 'Nothing to see.\n'),
            page('Haystack', `# Haystack\n\n${words}\n`),
        ]);
        ids = Object.fromEntries(pages.map((p) => [p.title, p.id]));
        await fill(secret, [page('Hidden hatch', 'hatch patterns secret\n')]);
        await fill(travel, [page('Luggage', 'Hatch patterns for suitcases.\n')]);
    });
    after(() => ctx?.server.stop());

    it('pages with every word first, then most words, then some; a missing word does not empty the results', async () => {
        const res = await search(docs.id, 'custom hatch patterns');
        assert.deepEqual(titles(res), ['Hatching', 'Shading', 'Patterns only']);
        // GitBook finds nothing when one word is on no page; here the others still count
        assert.deepEqual(titles(await search(docs.id, 'zebra hatch patterns')), ['Hatching', 'Shading', 'Patterns only']);
        assert.deepEqual(titles(await search(docs.id, 'Custom HATCH the patterns')), ['Hatching', 'Shading', 'Patterns only'], 'case and stop words do not matter');
        assert.equal((await search(docs.id, 'zebra')).items.length, 0);
    });

    it('the last word matches as a prefix while it is typed', async () => {
        assert.deepEqual(titles(await search(docs.id, 'hatc')), ['Hatching', 'Shading']);
        assert.deepEqual(titles(await search(docs.id, 'shading hatc')), ['Shading', 'Hatching']);
        assert.deepEqual(titles(await search(docs.id, 'hatc ')), [], 'a finished word is a whole word');
        assert.deepEqual(titles(await search(docs.id, 'patt hatch')), ['Hatching', 'Shading'], 'only the last word is a prefix');
    });

    it('sections: the ones with a hit, their paths, excerpts and app URLs', async () => {
        const res = await search(docs.id, 'hatch patterns');
        const hatching = res.items[0];
        assert.equal(hatching.id, ids.Hatching);
        assert.equal(hatching.path, 'hatching');
        assert.equal(hatching.urls.app, `${ctx.url}/s/${docs.id}/hatching`);
        const sec = hatching.sections.find((s) => s.title === 'Hatch patterns');
        assert.ok(sec, JSON.stringify(hatching));
        assert.equal(sec.id, 'hatch-patterns');
        assert.equal(sec.path, 'hatching#hatch-patterns');
        assert.equal(sec.body, 'Draw custom hatch patterns on surfaces.');
        assert.equal(sec.urls.app, `${ctx.url}/s/${docs.id}/hatching#hatch-patterns`);
        assert.equal(hatching.sections[0], sec, 'the section with more words comes first');
        // text before the first heading: the page's id and path
        const shading = res.items.find((p) => p.id === ids.Shading);
        assert.deepEqual(shading.sections.map((s) => [s.id, s.title, s.path, s.body]), [[ids.Shading, '', shading.path, 'Shading uses hatch lines and patterns.']]);
        // a long section: about 200 characters around the first hit, cut at word boundaries
        const [hay] = (await search(docs.id, 'needle')).items;
        assert.equal(hay.id, ids.Haystack);
        const body = hay.sections[0].body;
        assert.ok(body.length >= 180 && body.length <= 210, `excerpt of ${body.length} characters: ${body}`);
        assert.match(body, /^…filler\d( filler\d)* needle( filler\d)+…$/);
        assert.ok(body.indexOf('needle') < 100, 'the hit is near the start');
    });

    it('pagination: walking one or two at a time gives the full list, across both passes', async () => {
        const items = await checkPagination((q) => api.spaces.searchSpaceContent(docs.id, { query: 'custom hatch patterns', ...q }), 'searchSpaceContent');
        assert.deepEqual(items.map((p) => p.title), ['Hatching', 'Shading', 'Patterns only']);
        const spaces = await checkPagination((q) => api.orgs.searchOrganizationContent(org.id, { query: 'hatch patterns', ...q }), 'searchOrganizationContent');
        assert.equal(spaces.length, 3);
        const p1 = await search(docs.id, 'patterns hatch', { limit: 1 });
        assert.equal(p1.items.length, 1);
        assert.ok(p1.next?.page);
        const p2 = await search(docs.id, 'patterns hatch', { limit: 1, page: p1.next.page });
        assert.notEqual(p2.items[0].id, p1.items[0].id);
    });

    it('bad input is a 400; text in the engines\' query syntax is only words', async () => {
        const get = (qs) => raw(ctx.url, 'GET', `/v1/spaces/${docs.id}/search${qs}`, { token: alice.token });
        for (const qs of ['', '?query=', '?query=%20%20', `?query=${'a'.repeat(513)}`, '?query=hatch&limit=0', '?query=hatch&limit=1001', '?query=hatch&page=garbage']) {
            const r = await get(qs);
            assert.equal(r.status, 400, `${qs}: ${r.text}`);
        }
        assert.equal((await raw(ctx.url, 'GET', `/v1/orgs/${org.id}/search`, { token: alice.token })).status, 400);
        await expectError(api.spaces.searchSpaceContent(docs.id, { query: '"*()' }), 400);
        assert.equal((await rawOk(ctx.url, 'GET', `/v1/spaces/${docs.id}/search?query=${'a'.repeat(512)}`, { token: alice.token }, 'searchSpaceContent')).json.items.length, 0);
        for (const q of ['"hatch', 'hatch OR', 'NEAR(hatch', "hatch' --", 'hatch\\', '-hatch', 'hatch*', 'hatch:*', "'; DROP TABLE search_index; --", '{title body} : hatch', 'hatch & !patterns']) {
            const res = await search(docs.id, q);
            assert.ok(res.items.every((p) => [ids.Hatching, ids.Shading, ids['Patterns only']].includes(p.id)), q);
            await orgSearch(org.id, q);
        }
        assert.deepEqual(titles(await search(docs.id, 'hatch" OR "zebra')), ['Hatching', 'Shading']);
    });

    it('organization search: spaces by their best page, each with its pages; only readable spaces', async () => {
        const all = await orgSearch(org.id, 'custom hatch patterns');
        assert.deepEqual(all.items.map((s) => s.title), ['Docs', 'Secret', 'Travel']);
        assert.deepEqual(all.items[0].pages.map((p) => p.title), ['Hatching', 'Shading', 'Patterns only']);
        assert.equal(all.items[0].id, docs.id);
        assert.equal(all.items[0].pages[0].urls.app, `${ctx.url}/s/${docs.id}/hatching`);
        const asBob = await orgSearch(org.id, 'hatch patterns', {}, bob.api);
        assert.deepEqual(asBob.items.map((s) => s.id).sort(), [docs.id, travel.id].sort());
        await expectError(bob.api.spaces.searchSpaceContent(secret.id, { query: 'hatch' }), 404);
        await expectError(bob.api.orgs.searchOrganizationContent(org2.id, { query: 'hatch' }), 404);
    });

    it("a grant opens a space that others do not read to the organization search and the space's search", async () => {
        await expectError(bob.api.spaces.searchSpaceContent(secret.id, { query: 'hatch' }), 404);
        await empty(api.spaces.inviteToSpace(secret.id, { users: [bob.id], role: 'read' }), 204, 'inviteToSpace');
        assert.deepEqual(titles(await search(secret.id, 'hatch', {}, bob.api)), ['Hidden hatch']);
        const asBob = await orgSearch(org.id, 'hatch patterns', {}, bob.api);
        assert.deepEqual(asBob.items.map((s) => s.id).sort(), [docs.id, secret.id, travel.id].sort());
        assert.equal(asBob.items.find((s) => s.id === secret.id).pages[0].urls.app, `${ctx.url}/s/${secret.id}/hidden-hatch`);
    });

    it('deleted spaces are not searched until restored; transferred spaces are searched in their new organization', async () => {
        await empty(api.spaces.deleteSpaceById(secret.id), 204, 'delete');
        assert.deepEqual((await orgSearch(org.id, 'hatch')).items.map((s) => s.title), ['Docs', 'Travel']);
        assert.equal((await search(secret.id, 'hatch')).items.length, 0);
        await ok(api.spaces.restoreSpace(secret.id), 'restoreSpace');
        assert.deepEqual(titles(await search(secret.id, 'hatch')), ['Hidden hatch']);

        await ok(api.spaces.transferSpace(travel.id, { organization: org2.id }), 'transferSpace');
        assert.deepEqual((await orgSearch(org2.id, 'suitcases')).items.map((s) => s.id), [travel.id]);
        assert.deepEqual((await orgSearch(org.id, 'suitcases')).items, []);
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
        // an open change request is not the current revision
        const draft = await ok(api.spaces.createChangeRequest(docs.id, { subject: 'Draft' }), 'createChangeRequest', 201);
        await rawOk(ctx.url, 'POST', `/v1/spaces/${docs.id}/change-requests/${draft.id}/content`, { token: alice.token, json: { changes: [page('Okapi', 'An okapi.\n')] } }, 'updateChangeRequestContent');
        assert.equal((await search(docs.id, 'okapi')).items.length, 0);
    });

    it('a duplicated space is searchable', async () => {
        const copy = validate('duplicateSpace', 201, (await api.spaces.duplicateSpace(docs.id)).data); // answers 200 (spaces.test.mjs)
        assert.deepEqual(titles(await search(copy.id, 'hatching')), ['Hatching']);
    });
});
