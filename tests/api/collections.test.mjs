// Collections: create, read, update, the organization's list (nested or top level, pagination),
// move (cycles, no-ops, order among the parent's items), transfer with everything inside,
// delete (spaces inside become restorable deleted spaces), and the spaces list of a collection.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { ok, empty, expectError, raw, createOrg, addMember, checkPagination } from './lib/api.mjs';

const NO_SUCH_COLLECTION = 'nosuchcollection0000';
const NO_SUCH_SPACE = 'nosuchspace000000000';
const ADMIN_PERMS = { view: true, admin: true, viewInviteLinks: true, create: true };

describe('collections', () => {
    let ctx, alice, bob, carol, dave;
    let org, org2, org3, foreignColl;

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        carol = await ctx.user('carol');
        dave = await ctx.user('dave');
        ({ org } = await createOrg(ctx.url, alice.token, `Collections ${ctx.run}`));
        ({ org: org2 } = await createOrg(ctx.url, alice.token, `Collections Two ${ctx.run}`));
        ({ org: org3 } = await createOrg(ctx.url, carol.token, `Carol ${ctx.run}`));
        await addMember(carol.api, org3.id, alice.email, 'review');
        await addMember(alice.api, org.id, bob.email, 'read');
        foreignColl = await ok(carol.api.orgs.createCollection(org3.id, { title: 'Foreign' }), 'createCollection', 201);
    });
    after(async () => {
        if (ctx) await ctx.server.stop();
    });

    const create = (orgId, body) => ok(alice.api.orgs.createCollection(orgId, body), 'createCollection', 201);
    const get = (id, api = alice.api) => ok(api.collections.getCollectionById(id), 'getCollectionById');
    const patch = (id, body) => ok(alice.api.collections.updateCollectionById(id, body), 'updateCollectionById');
    const createSpace = (orgId, body) => ok(alice.api.orgs.createSpace(orgId, body), 'createSpace', 201);
    const getSpace = (id) => ok(alice.api.spaces.getSpaceById(id), 'getSpaceById');
    const collIds = async (orgId, query = {}) =>
        (await ok(alice.api.orgs.listCollectionsInOrganizationById(orgId, { limit: 1000, ...query }), 'listCollectionsInOrganizationById')).items.map(
            (c) => c.id,
        );
    const orgSpaceIds = async (orgId) =>
        (await ok(alice.api.orgs.listSpacesInOrganizationById(orgId, { limit: 1000 }), 'listSpacesInOrganizationById')).items.map((s) => s.id);
    const spacesIn = async (collId) =>
        (await ok(alice.api.collections.listSpacesInCollectionById(collId, { limit: 1000 }), 'listSpacesInCollectionById')).items.map((s) => s.id);
    const moveColl = (id, body) => ok(alice.api.collections.moveCollection(id, body), 'moveCollection');
    const moveSpace = (id, body) => ok(alice.api.spaces.moveSpace(id, body), 'moveSpace');

    describe('create, get, update', () => {
        it('POST creates a top-level collection; GET answers the same', async () => {
            const c = await create(org.id, { title: 'Guides' });
            assert.equal(c.object, 'collection');
            assert.equal(typeof c.id, 'string');
            assert.ok(c.id.length > 0);
            assert.equal(c.title, 'Guides');
            assert.equal(c.description, undefined);
            assert.equal(c.organization, org.id);
            assert.equal(c.parent, undefined);
            assert.equal(c.defaultLevel, 'inherit');
            assert.equal(c.urls.location, `${ctx.url}/v1/collections/${c.id}`);
            assert.ok(c.urls.app.startsWith(`${ctx.url}/`), `urls.app ${c.urls.app} on the server URL`);
            assert.ok(c.urls.app.includes(c.id));
            assert.deepEqual(c.permissions, ADMIN_PERMS);
            assert.deepEqual(await get(c.id), c);
            assert.ok((await collIds(org.id)).includes(c.id));
            const empty0 = await create(org.id, {});
            assert.equal(empty0.title, '', 'title is optional');
            const r = await raw(ctx.url, 'POST', `/v1/orgs/${org.id}/collections`, { token: alice.token });
            assert.equal(r.status, 201, `no body: ${r.text}`);
        });

        it('POST with a parent, description and defaultLevel', async () => {
            const parent = await create(org.id, { title: 'Parent' });
            const c = await create(org.id, { title: 'Child', parent: parent.id, description: 'Inside', defaultLevel: 'comment' });
            assert.equal(c.parent, parent.id);
            assert.equal(c.description, 'Inside');
            assert.equal(c.defaultLevel, 'comment');
            assert.equal(c.organization, org.id);
            assert.deepEqual(await get(c.id), c);
            const grand = await create(org.id, { title: 'Grandchild', parent: c.id });
            assert.equal(grand.parent, c.id);
        });

        it('POST limits: title 50/51, description 100/101, parent must be a collection of the org', async () => {
            const before = await collIds(org.id);
            const t50 = await create(org.id, { title: 'T'.repeat(50) });
            assert.equal(t50.title.length, 50);
            const d100 = await create(org.id, { title: 'D', description: 'd'.repeat(100) });
            assert.equal(d100.description.length, 100);
            await expectError(alice.api.orgs.createCollection(org.id, { title: 'T'.repeat(51) }), 400, 'title of 51');
            await expectError(alice.api.orgs.createCollection(org.id, { title: 'D', description: 'd'.repeat(101) }), 400, 'description of 101');
            await expectError(alice.api.orgs.createCollection(org.id, { title: 5 }), 400, 'numeric title');
            await expectError(alice.api.orgs.createCollection(org.id, { title: 'P', parent: NO_SUCH_COLLECTION }), 400, 'unknown parent');
            await expectError(alice.api.orgs.createCollection(org.id, { title: 'P', parent: foreignColl.id }), 400, 'parent in another org');
            await expectError(alice.api.orgs.createCollection(org.id, { title: 'L', defaultLevel: 'owner' }), 400, 'bad defaultLevel');
            assert.deepEqual((await collIds(org.id)).sort(), [...before, t50.id, d100.id].sort(), 'failed requests create nothing');
        });

        it('collections nest at most 32 deep', async () => {
            const { org: deep } = await createOrg(ctx.url, alice.token, `Deep ${ctx.run}`);
            const chain = [];
            for (let i = 0; i < 32; i++) chain.push(await create(deep.id, { title: `L${i + 1}`, parent: chain[i - 1]?.id }));
            await expectError(alice.api.orgs.createCollection(deep.id, { title: 'L33', parent: chain[31].id }), 400, 'depth 33');
            await expectError(alice.api.orgs.createSpace(deep.id, { title: 'deep space', parent: NO_SUCH_COLLECTION }), 400, 'space in unknown');
            const s = await createSpace(deep.id, { title: 'deepest space', parent: chain[31].id });
            assert.equal(s.parent, chain[31].id, 'a space may sit in the deepest collection');
            // moving a subtree of height 2 under depth 31 would make depth 33
            const q = await create(deep.id, { title: 'Q' });
            const q1 = await create(deep.id, { title: 'Q1', parent: q.id });
            await expectError(alice.api.collections.moveCollection(q.id, { parent: chain[30].id }), 400, 'subtree too deep');
            assert.equal((await get(q.id)).parent, undefined);
            const m = await moveColl(q.id, { parent: chain[29].id });
            assert.equal(m.parent, chain[29].id);
            assert.equal((await get(q1.id)).parent, q.id);
            assert.equal((await collIds(deep.id)).length, 34);
        });

        it('PATCH title, description (null clears), defaultLevel; each alone', async () => {
            const c = await create(org.id, { title: 'Editable', description: 'first' });
            let res = await patch(c.id, { title: 'Edited' });
            assert.equal(res.title, 'Edited');
            assert.equal(res.description, 'first', 'description untouched');
            res = await patch(c.id, { description: 'second' });
            assert.equal(res.description, 'second');
            assert.equal(res.title, 'Edited', 'title untouched');
            res = await patch(c.id, { defaultLevel: 'read' });
            assert.equal(res.defaultLevel, 'read');
            assert.equal(res.title, 'Edited');
            assert.equal(res.description, 'second');
            res = await patch(c.id, { defaultLevel: null });
            assert.equal(res.defaultLevel, null);
            res = await patch(c.id, { defaultLevel: 'inherit', description: null });
            assert.equal(res.defaultLevel, 'inherit');
            assert.equal(res.description, undefined, 'description cleared');
            res = await patch(c.id, { title: 'X'.repeat(50), description: 'y'.repeat(100) });
            assert.equal(res.title.length, 50);
            assert.equal(res.description.length, 100);
            res = await patch(c.id, {});
            assert.equal(res.title, 'X'.repeat(50), 'an empty PATCH changes nothing');
            assert.deepEqual(await get(c.id), res);

            const before = await get(c.id);
            const bad = [
                [{ title: 'x'.repeat(51) }, 'title of 51'],
                [{ description: 'x'.repeat(101) }, 'description of 101'],
                [{ title: null }, 'title null'],
                [{ title: 3 }, 'numeric title'],
                [{ defaultLevel: 'owner' }, 'bad defaultLevel'],
                [{ title: 'ok', defaultLevel: 'owner' }, 'a good and a bad field'],
            ];
            for (const [body, what] of bad) await expectError(alice.api.collections.updateCollectionById(c.id, body), 400, what);
            await expectError(bob.api.collections.updateCollectionById(c.id, { title: 'Bob' }), 403, 'a read member patches');
            await expectError(dave.api.collections.updateCollectionById(c.id, { title: 'Dave' }), 404, 'a non-member patches');
            await expectError(alice.api.collections.updateCollectionById(NO_SUCH_COLLECTION, { title: 'None' }), 404, 'unknown');
            assert.deepEqual(await get(c.id), before, 'failed PATCHes change nothing');
        });

        it('who may read and create', async () => {
            const c = await create(org.id, { title: 'Shared' });
            const asBob = await get(c.id, bob.api);
            assert.deepEqual(asBob.permissions, { view: true, admin: false, viewInviteLinks: false, create: false });
            await expectError(bob.api.orgs.createCollection(org.id, { title: 'Bob' }), 403, 'a read member creates');
            await expectError(bob.api.orgs.createCollection(org.id, { title: 'Bob', parent: c.id }), 403, 'a read member creates inside');
            await expectError(dave.api.collections.getCollectionById(c.id), 404, 'a non-member reads');
            await expectError(dave.api.orgs.listCollectionsInOrganizationById(org.id), 404, 'a non-member lists');
            await expectError(alice.api.collections.getCollectionById(NO_SUCH_COLLECTION), 404, 'unknown');
            await expectError(raw(ctx.url, 'GET', `/v1/collections/${c.id}`), 401, 'no token');
            const bobList = await ok(bob.api.orgs.listCollectionsInOrganizationById(org.id), 'listCollectionsInOrganizationById');
            assert.ok(bobList.items.some((x) => x.id === c.id));
            for (const x of bobList.items) assert.equal(x.permissions.admin, false);
        });
    });

    describe('list', () => {
        let lo, A, B, A1, A1a, B1;
        before(async () => {
            ({ org: lo } = await createOrg(ctx.url, alice.token, `List ${ctx.run}`));
            A = await create(lo.id, { title: 'A' });
            B = await create(lo.id, { title: 'B' });
            A1 = await create(lo.id, { title: 'A1', parent: A.id });
            A1a = await create(lo.id, { title: 'A1a', parent: A1.id });
            B1 = await create(lo.id, { title: 'B1', parent: B.id });
        });

        it('nested=true (the default) lists every level, nested=false the top level only', async () => {
            const all = [A, B, A1, A1a, B1].map((c) => c.id);
            assert.deepEqual((await collIds(lo.id)).sort(), [...all].sort());
            assert.deepEqual((await collIds(lo.id, { nested: true })).sort(), [...all].sort());
            assert.deepEqual((await collIds(lo.id, { nested: false })).sort(), [A.id, B.id].sort());
            const r = await raw(ctx.url, 'GET', `/v1/orgs/${lo.id}/collections?nested=false`, { token: alice.token });
            assert.equal(r.status, 200);
            assert.deepEqual(r.json.items.map((c) => c.id).sort(), [A.id, B.id].sort());
            const full = await ok(alice.api.orgs.listCollectionsInOrganizationById(lo.id), 'listCollectionsInOrganizationById');
            const a1 = full.items.find((c) => c.id === A1.id);
            assert.deepEqual(a1, await get(A1.id), 'list items are the same as GET');
        });

        it('paginates with and without nested', async () => {
            const nested = await checkPagination((q) => alice.api.orgs.listCollectionsInOrganizationById(lo.id, q), 'listCollectionsInOrganizationById');
            assert.equal(nested.length, 5);
            const top = await checkPagination((q) => alice.api.orgs.listCollectionsInOrganizationById(lo.id, q), 'listCollectionsInOrganizationById', {
                query: { nested: false },
            });
            assert.deepEqual(top.map((c) => c.id).sort(), [A.id, B.id].sort());
        });

        it('limit 0, 1001, bad cursor and bad nested are 400', async () => {
            const p = `/v1/orgs/${lo.id}/collections`;
            for (const q of ['limit=0', 'limit=1001', 'limit=x', 'page=not-a-cursor', 'nested=maybe']) {
                await expectError(raw(ctx.url, 'GET', `${p}?${q}`, { token: alice.token }), 400, q);
            }
            await expectError(alice.api.orgs.listCollectionsInOrganizationById(lo.id, { limit: 0 }), 400, 'client limit 0');
        });

        it('spaces of a collection: by position, paginated, 400 on bad limits', async () => {
            const made = [];
            for (let i = 0; i < 4; i++) made.push(await createSpace(lo.id, { title: `S${i}`, parent: A.id }));
            await createSpace(lo.id, { title: 'in A1', parent: A1.id });
            await moveSpace(made[0].id, { position: { after: { type: 'space', space: made[3].id } } });
            const want = [made[1], made[2], made[3], made[0]].map((s) => s.id);
            assert.deepEqual(await spacesIn(A.id), want, 'only direct spaces, by position');
            const items = await checkPagination((q) => alice.api.collections.listSpacesInCollectionById(A.id, q), 'listSpacesInCollectionById');
            assert.deepEqual(items.map((s) => s.id), want);
            assert.deepEqual(await spacesIn(B.id), []);
            const p = `/v1/collections/${A.id}/spaces`;
            for (const q of ['limit=0', 'limit=1001', 'page=not-a-cursor']) {
                await expectError(raw(ctx.url, 'GET', `${p}?${q}`, { token: alice.token }), 400, q);
            }
            await expectError(alice.api.collections.listSpacesInCollectionById(NO_SUCH_COLLECTION), 404, 'unknown collection');
        });
    });

    describe('move', () => {
        let mo, P, X, Y, Y1, s1, s2;
        before(async () => {
            ({ org: mo } = await createOrg(ctx.url, alice.token, `Move ${ctx.run}`));
            P = await create(mo.id, { title: 'P' });
            s1 = await createSpace(mo.id, { title: 's1', parent: P.id });
            s2 = await createSpace(mo.id, { title: 's2', parent: P.id });
            X = await create(mo.id, { title: 'X', parent: P.id });
            Y = await create(mo.id, { title: 'Y' });
            Y1 = await create(mo.id, { title: 'Y1', parent: Y.id });
        });

        it('before/after siblings; the order shows through no-ops and spaces placed next to it', async () => {
            // P holds s1, s2, X (X last)
            await expectError(alice.api.collections.moveCollection(X.id, { position: { after: { type: 'space', space: s2.id } } }), 409, 'X is already after s2');
            let m = await moveColl(X.id, { position: { after: { type: 'space', space: s1.id } } });
            assert.equal(m.parent, P.id);
            // now s1, X, s2
            await expectError(alice.api.collections.moveCollection(X.id, { position: { before: { type: 'space', space: s2.id } } }), 409, 'X is already before s2');
            await expectError(alice.api.collections.moveCollection(X.id, { position: { after: { type: 'space', space: s1.id } } }), 409, 'X is already after s1');
            const t = await createSpace(mo.id, { title: 't' });
            const moved = await moveSpace(t.id, { position: { after: { type: 'collection', collection: X.id } } });
            assert.equal(moved.parent, P.id);
            assert.deepEqual(await spacesIn(P.id), [s1.id, t.id, s2.id], 'a space placed after X lands between s1 and s2');
            // s1, X, t, s2 -> X before s1
            m = await moveColl(X.id, { position: { before: { type: 'space', space: s1.id } } });
            assert.equal(m.parent, P.id);
            const u = await createSpace(mo.id, { title: 'u', parent: P.id });
            await moveSpace(u.id, { position: { after: { type: 'collection', collection: X.id } } });
            assert.deepEqual(await spacesIn(P.id), [u.id, s1.id, t.id, s2.id], 'X is first, u right after it');
            await expectError(alice.api.collections.moveCollection(X.id, { position: { before: { type: 'space', space: u.id } } }), 409, 'X already before u');
        });

        it('into another collection, and back to the top', async () => {
            let m = await moveColl(X.id, { parent: Y.id });
            assert.equal(m.parent, Y.id);
            assert.equal((await get(X.id)).parent, Y.id);
            assert.ok(!(await collIds(mo.id, { nested: false })).includes(X.id));
            // relative to a sibling collection inside Y
            m = await moveColl(X.id, { position: { before: { type: 'collection', collection: Y1.id } } });
            assert.equal(m.parent, Y.id);
            await expectError(alice.api.collections.moveCollection(X.id, { parent: Y.id, position: { before: { type: 'collection', collection: Y1.id } } }), 409, 'already there');
            m = await moveColl(X.id, { parent: null });
            assert.equal(m.parent, undefined);
            assert.equal((await get(X.id)).parent, undefined);
            assert.ok((await collIds(mo.id, { nested: false })).includes(X.id));
            // the spaces inside a moved collection stay inside it
            const inside = await createSpace(mo.id, { title: 'inside X', parent: X.id });
            await moveColl(X.id, { parent: P.id });
            assert.equal((await getSpace(inside.id)).parent, X.id);
            assert.deepEqual(await spacesIn(X.id), [inside.id]);
        });

        it('errors: into itself or a descendant 400, no-op 409, bad parent/position 400, unknown 404', async () => {
            const state = async () => Promise.all([P, X, Y, Y1].map((c) => get(c.id)));
            const before = await state();
            const order = await spacesIn(P.id);
            await expectError(alice.api.collections.moveCollection(Y.id, { parent: Y.id }), 400, 'into itself');
            await expectError(alice.api.collections.moveCollection(Y.id, { parent: Y1.id }), 400, 'into its child');
            const Y1a = await create(mo.id, { title: 'Y1a', parent: Y1.id });
            await expectError(alice.api.collections.moveCollection(Y.id, { parent: Y1a.id }), 400, 'into its grandchild');
            await expectError(
                alice.api.collections.moveCollection(Y.id, { position: { after: { type: 'collection', collection: Y1a.id } } }),
                400,
                'next to its grandchild',
            );
            await expectError(alice.api.collections.moveCollection(Y.id, { parent: null }), 409, 'already at the top');
            await expectError(alice.api.collections.moveCollection(Y1.id, { parent: Y.id }), 409, 'already in Y');
            await expectError(alice.api.collections.moveCollection(Y.id, {}), 400, 'no fields');
            await expectError(raw(ctx.url, 'POST', `/v1/collections/${Y.id}/move`, { token: alice.token }), 400, 'no body');
            await expectError(alice.api.collections.moveCollection(Y.id, { parent: NO_SUCH_COLLECTION }), 400, 'unknown parent');
            await expectError(alice.api.collections.moveCollection(Y.id, { parent: foreignColl.id }), 400, 'parent in another org');
            await expectError(
                alice.api.collections.moveCollection(Y.id, { position: { before: { type: 'space', space: NO_SUCH_SPACE } } }),
                400,
                'unknown position item',
            );
            await expectError(
                alice.api.collections.moveCollection(Y.id, { parent: X.id, position: { before: { type: 'space', space: s1.id } } }),
                400,
                'position item not in the parent',
            );
            await expectError(alice.api.collections.moveCollection(NO_SUCH_COLLECTION, { parent: null }), 404, 'unknown collection');
            await expectError(bob.api.collections.moveCollection(Y.id, { parent: P.id }), 404, 'a non-member of this org moves');
            assert.deepEqual(await state(), before, 'failed moves change nothing');
            assert.deepEqual(await spacesIn(P.id), order);
            await empty(alice.api.collections.deleteCollectionById(Y1a.id), 204, 'clean up');
        });
    });

    describe('transfer', () => {
        it('moves the collection with its nested collections and spaces to another org', async () => {
            const T = await create(org.id, { title: 'Travelling' });
            const T1 = await create(org.id, { title: 'Travelling child', parent: T.id });
            const T2 = await create(org.id, { title: 'Travelling grandchild', parent: T1.id });
            const sT = await createSpace(org.id, { title: 'sT', parent: T.id });
            const sT1 = await createSpace(org.id, { title: 'sT1', parent: T1.id });
            const stay = await createSpace(org.id, { title: 'stays' });
            const res = await ok(alice.api.collections.transferCollection(T.id, { organization: org2.id }), 'transferCollection');
            assert.equal(res.id, T.id);
            assert.equal(res.organization, org2.id);
            assert.equal(res.parent, undefined);
            assert.equal(res.title, 'Travelling');
            assert.deepEqual(await get(T.id), res);
            const t1 = await get(T1.id);
            assert.equal(t1.organization, org2.id, 'the nested collection goes along');
            assert.equal(t1.parent, T.id);
            assert.equal((await get(T2.id)).organization, org2.id);
            for (const [s, parent] of [[sT, T.id], [sT1, T1.id]]) {
                const got = await getSpace(s.id);
                assert.equal(got.organization, org2.id, `space ${s.title} goes along`);
                assert.equal(got.parent, parent);
            }
            assert.equal((await getSpace(stay.id)).organization, org.id);
            const oldColls = await collIds(org.id);
            for (const c of [T, T1, T2]) assert.ok(!oldColls.includes(c.id), `${c.title} left the old org list`);
            const newColls = await collIds(org2.id);
            for (const c of [T, T1, T2]) assert.ok(newColls.includes(c.id), `${c.title} is in the new org list`);
            const oldSpaces = await orgSpaceIds(org.id);
            const newSpaces = await orgSpaceIds(org2.id);
            for (const s of [sT, sT1]) {
                assert.ok(!oldSpaces.includes(s.id));
                assert.ok(newSpaces.includes(s.id));
            }
            assert.ok(oldSpaces.includes(stay.id));
            assert.deepEqual(await spacesIn(T1.id), [sT1.id]);
        });

        it('a nested collection comes out at the top level of the target', async () => {
            const P = await create(org.id, { title: 'Stays here' });
            const N = await create(org.id, { title: 'Leaves', parent: P.id });
            const res = await ok(alice.api.collections.transferCollection(N.id, { organization: org2.id }), 'transferCollection');
            assert.equal(res.organization, org2.id);
            assert.equal(res.parent, undefined);
            assert.ok((await collIds(org2.id, { nested: false })).includes(N.id));
            assert.equal((await get(P.id)).organization, org.id);
        });

        it('errors: 409 same org, 403 without create in the target, 404 unknown org/collection, 400 no organization', async () => {
            const c = await create(org.id, { title: 'Not travelling' });
            const inner = await create(org.id, { title: 'Inner', parent: c.id });
            const before = await get(c.id);
            await expectError(alice.api.collections.transferCollection(c.id, { organization: org.id }), 409, 'same org');
            await expectError(alice.api.collections.transferCollection(c.id, { organization: org3.id }), 403, 'review member of the target');
            await expectError(alice.api.collections.transferCollection(c.id, { organization: 'nosuchorg00000000000' }), 404, 'unknown org');
            await expectError(alice.api.collections.transferCollection(c.id, {}), 400, 'no organization');
            await expectError(alice.api.collections.transferCollection(NO_SUCH_COLLECTION, { organization: org2.id }), 404, 'unknown collection');
            await expectError(bob.api.collections.transferCollection(c.id, { organization: org2.id }), 403, 'a read member transfers');
            assert.deepEqual(await get(c.id), before, 'failed transfers change nothing');
            assert.equal((await get(inner.id)).organization, org.id);
            assert.ok(!(await collIds(org2.id)).includes(c.id));
        });

        it('to an organization where the caller has the create role', async () => {
            const c = await create(org.id, { title: 'To a create member org' });
            await ok(carol.api.orgs.updateMemberInOrganizationById(org3.id, alice.id, { role: 'create' }), 'updateMemberInOrganizationById');
            try {
                const res = await ok(alice.api.collections.transferCollection(c.id, { organization: org3.id }), 'transferCollection');
                assert.equal(res.organization, org3.id);
                assert.equal(res.parent, undefined, 'at the top level');
                assert.equal(res.permissions.admin, true, 'create from the organization: a content admin');
                const seen = await ok(carol.api.collections.getCollectionById(c.id), 'getCollectionById');
                assert.equal(seen.organization, org3.id);
            } finally {
                await ok(carol.api.orgs.updateMemberInOrganizationById(org3.id, alice.id, { role: 'review' }), 'updateMemberInOrganizationById');
            }
        });
    });

    describe('delete', () => {
        it('its spaces (also nested) become deleted spaces; nested collections are gone; restore puts spaces at the top', async () => {
            const D = await create(org.id, { title: 'Doomed' });
            const D1 = await create(org.id, { title: 'Doomed child', parent: D.id });
            const D2 = await create(org.id, { title: 'Doomed grandchild', parent: D1.id });
            const d1 = await createSpace(org.id, { title: 'd1', parent: D.id, emoji: '💣' });
            await ok(alice.api.spaces.updateSpaceById(d1.id, { visibility: 'in-collection' }), 'updateSpaceById');
            const d2 = await createSpace(org.id, { title: 'd2', parent: D1.id });
            const early = await createSpace(org.id, { title: 'deleted earlier', parent: D2.id });
            await empty(alice.api.spaces.deleteSpaceById(early.id), 204, 'delete one first');
            const earlyDeletedAt = (await getSpace(early.id)).deletedAt;
            const other = await create(org.id, { title: 'Survivor' });
            const otherSpace = await createSpace(org.id, { title: 'survives', parent: other.id });

            await expectError(bob.api.collections.deleteCollectionById(D.id), 403, 'a read member deletes');
            await expectError(dave.api.collections.deleteCollectionById(D.id), 404, 'a non-member deletes');
            assert.equal((await get(D.id)).id, D.id, 'refused deletes change nothing');

            await empty(alice.api.collections.deleteCollectionById(D.id), 204, 'delete');
            for (const c of [D, D1, D2]) await expectError(alice.api.collections.getCollectionById(c.id), 404, `${c.title} is gone`);
            await expectError(alice.api.collections.listSpacesInCollectionById(D1.id), 404, 'spaces of a deleted collection');
            const colls = await collIds(org.id);
            for (const c of [D, D1, D2]) assert.ok(!colls.includes(c.id));
            assert.ok(colls.includes(other.id));

            for (const s of [d1, d2]) {
                const got = await getSpace(s.id);
                assert.ok(got.deletedAt, `${s.title} is a deleted space`);
                assert.ok(Math.abs(Date.parse(got.deletedAt) - Date.now()) < 5 * 60_000);
                assert.equal(got.parent, undefined, `${s.title} no longer has a parent`);
                assert.equal(got.title, s.title);
            }
            const e = await getSpace(early.id);
            assert.equal(e.deletedAt, earlyDeletedAt, 'an already deleted space keeps its deletedAt');
            assert.equal(e.parent, undefined);
            const spaces = await orgSpaceIds(org.id);
            for (const s of [d1, d2, early]) assert.ok(!spaces.includes(s.id), `${s.title} is not listed`);
            assert.ok(spaces.includes(otherSpace.id));
            assert.deepEqual(await spacesIn(other.id), [otherSpace.id]);

            const r1 = await ok(alice.api.spaces.restoreSpace(d1.id), 'restoreSpace');
            assert.equal(r1.deletedAt, undefined);
            assert.equal(r1.parent, undefined, 'restored at the top level');
            assert.equal(r1.visibility, 'private', 'in-collection means nothing at the top level');
            assert.equal(r1.emoji, '💣');
            assert.deepEqual(await getSpace(d1.id), r1);
            const r2 = await ok(alice.api.spaces.restoreSpace(d2.id), 'restoreSpace');
            assert.equal(r2.parent, undefined);
            const after = await orgSpaceIds(org.id);
            assert.ok(after.includes(d1.id) && after.includes(d2.id), 'restored spaces are listed again');
            assert.ok(!after.includes(early.id));
            // the restored spaces can be moved into a collection again
            const m = await moveSpace(d1.id, { parent: other.id });
            assert.equal(m.parent, other.id);
            assert.deepEqual(await spacesIn(other.id), [otherSpace.id, d1.id]);
        });

        it('DELETE again and DELETE unknown are 204', async () => {
            const c = await create(org.id, { title: 'Twice' });
            await empty(alice.api.collections.deleteCollectionById(c.id), 204, 'delete');
            await empty(alice.api.collections.deleteCollectionById(c.id), 204, 'delete again');
            await empty(alice.api.collections.deleteCollectionById(NO_SUCH_COLLECTION), 204, 'delete unknown');
            await expectError(alice.api.collections.getCollectionById(c.id), 404, 'gone');
        });
    });
});
