// Spaces: create, read, settings, the lifecycle (live/locked, delete, restore, the 7-day purge
// across server restarts with a shifted clock), duplicate, move, transfer, and the lists.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { startServer, uniq } from './lib/server.mjs';
import {
    client,
    ok,
    empty,
    expectError,
    raw,
    createOrg,
    addMember,
    checkPagination,
    validate,
    GitBookAPIError,
    sleep,
} from './lib/api.mjs';

const DAY_MS = 24 * 3600 * 1000;
const NO_SUCH_SPACE = 'nosuchspace000000000';
const NO_SUCH_COLLECTION = 'nosuchcollection0000';
const ALL_TRUE = {
    view: true,
    access: true,
    admin: true,
    viewInviteLinks: true,
    edit: true,
    triggerGitSync: true,
    comment: true,
    merge: true,
    review: true,
    installIntegration: true,
};

/** POST /spaces/{id}/duplicate answers 200 (the seed); GitBook's document has only 201, whose body is a Space. */
async function duplicate(api, id) {
    let res;
    try {
        res = await api.spaces.duplicateSpace(id);
    } catch (e) {
        if (e instanceof GitBookAPIError) assert.fail(`duplicateSpace: expected 200, got ${e.code}: ${e.message}`);
        throw e;
    }
    assert.equal(res.status, 200, 'duplicateSpace answers 200');
    return validate('duplicateSpace', 201, res.data);
}

/** Helpers bound to one server (the purge tests restart it). */
function spaceHelpers(api) {
    const create = (orgId, body = {}) => ok(api.orgs.createSpace(orgId, body), 'createSpace', 201);
    const get = (id) => ok(api.spaces.getSpaceById(id), 'getSpaceById');
    const patch = (id, body) => ok(api.spaces.updateSpaceById(id, body), 'updateSpaceById');
    const orgIds = async (orgId) =>
        (await ok(api.orgs.listSpacesInOrganizationById(orgId, { limit: 1000 }), 'listSpacesInOrganizationById')).items.map((s) => s.id);
    const collIds = async (collId) =>
        (await ok(api.collections.listSpacesInCollectionById(collId, { limit: 1000 }), 'listSpacesInCollectionById')).items.map((s) => s.id);
    return { create, get, patch, orgIds, collIds };
}

function assertRecent(ts, what) {
    assert.equal(typeof ts, 'string', `${what} should be a timestamp`);
    assert.ok(Math.abs(Date.parse(ts) - Date.now()) < 5 * 60_000, `${what} ${ts} should be about now`);
}

describe('spaces', () => {
    let ctx, alice, bob, carol, dave;
    let org, org2, org3, foreignColl, coll, coll2;
    let S; // helpers as alice

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        carol = await ctx.user('carol');
        dave = await ctx.user('dave');
        ({ org } = await createOrg(ctx.url, alice.token, `Spaces ${ctx.run}`));
        ({ org: org2 } = await createOrg(ctx.url, alice.token, `Spaces Two ${ctx.run}`));
        ({ org: org3 } = await createOrg(ctx.url, carol.token, `Carol ${ctx.run}`));
        await addMember(carol.api, org3.id, alice.email, 'review');
        await addMember(alice.api, org.id, bob.email, 'read');
        foreignColl = await ok(carol.api.orgs.createCollection(org3.id, { title: 'Carol collection' }), 'createCollection', 201);
        S = spaceHelpers(alice.api);
        coll = await ok(alice.api.orgs.createCollection(org.id, { title: 'Handbook' }), 'createCollection', 201);
        coll2 = await ok(alice.api.orgs.createCollection(org.id, { title: 'Archive' }), 'createCollection', 201);
    });
    after(async () => {
        if (ctx) await ctx.server.stop();
    });

    describe('create and read', () => {
        it('POST /orgs/{org}/spaces with no fields: the defaults, and GET answers the same', async () => {
            const s = await S.create(org.id, {});
            assert.equal(s.object, 'space');
            assert.equal(typeof s.id, 'string');
            assert.ok(s.id.length > 0);
            assert.equal(s.title, '');
            assert.equal(s.emoji, '');
            assert.equal(s.visibility, 'private');
            assert.equal(s.editMode, 'live');
            assert.deepEqual(s.mergeRules, { type: 'inherit' });
            assert.equal(s.organization, org.id);
            assert.equal(s.parent, undefined, 'a top-level space has no parent');
            assert.equal(s.language, undefined);
            assert.equal(typeof s.revision, 'string');
            assert.ok(s.revision.length > 0);
            assert.notEqual(s.revision, s.id);
            assert.equal(s.defaultLevel, 'inherit');
            for (const k of ['comments', 'changeRequests', 'changeRequestsOpen', 'changeRequestsDraft']) assert.equal(s[k], 0, k);
            assertRecent(s.createdAt, 'createdAt');
            assert.equal(s.updatedAt, s.createdAt);
            assert.equal(s.deletedAt, undefined);
            assert.equal(s.urls.location, `${ctx.url}/v1/spaces/${s.id}`);
            assert.ok(s.urls.app.startsWith(`${ctx.url}/`), `urls.app ${s.urls.app} is on the server's URL`);
            assert.ok(s.urls.app.includes(s.id), 'urls.app names the space');
            assert.equal(s.urls.published, undefined, 'a private space is not published');
            assert.equal(s.urls.public, undefined);
            assert.equal(s.urls.icon, undefined);
            assert.deepEqual(s.permissions, ALL_TRUE, 'an org admin may do everything');
            assert.deepEqual(await S.get(s.id), s, 'GET answers what POST did');
            assert.ok((await S.orgIds(org.id)).includes(s.id));
            // the raw request without a body also works (the body is optional)
            const r = await raw(ctx.url, 'POST', `/v1/orgs/${org.id}/spaces`, { token: alice.token });
            assert.equal(r.status, 201, r.text);
            validate('createSpace', 201, r.json);
            assert.equal(r.json.title, '');
        });

        it('POST with every field, in a collection', async () => {
            const s = await S.create(org.id, { title: 'Product Docs', emoji: '🚀', language: 'fr', editMode: 'locked', parent: coll.id });
            assert.equal(s.title, 'Product Docs');
            assert.equal(s.emoji, '🚀');
            assert.equal(s.language, 'fr');
            assert.equal(s.editMode, 'locked');
            assert.equal(s.parent, coll.id);
            assert.equal(s.organization, org.id);
            assert.deepEqual(
                s.permissions,
                { ...ALL_TRUE, edit: false, triggerGitSync: false, merge: false },
                'a locked space takes no edits, not even from an admin',
            );
            const got = await S.get(s.id);
            assert.deepEqual(got, s);
            assert.deepEqual(await S.collIds(coll.id), [s.id]);
            const other = await S.create(org.id, { title: 'Second', parent: coll.id });
            assert.deepEqual(await S.collIds(coll.id), [s.id, other.id], 'new spaces go to the end of the collection');
        });

        it('POST validates title, emoji, editMode, language, parent; no template', async () => {
            const before = await S.orgIds(org.id);
            const fifty = await S.create(org.id, { title: 'T'.repeat(50) });
            assert.equal(fifty.title, 'T'.repeat(50));
            const added = [fifty.id];
            await expectError(alice.api.orgs.createSpace(org.id, { title: 'T'.repeat(51) }), 400, 'title of 51');
            await expectError(alice.api.orgs.createSpace(org.id, { title: 51 }), 400, 'numeric title');
            await expectError(alice.api.orgs.createSpace(org.id, { editMode: 'frozen' }), 400, 'bad editMode');
            await expectError(alice.api.orgs.createSpace(org.id, { language: 'xx' }), 400, 'bad language');
            await expectError(alice.api.orgs.createSpace(org.id, { language: 'EN' }), 400, 'language is case-sensitive');
            await expectError(alice.api.orgs.createSpace(org.id, { emoji: 'e'.repeat(51) }), 400, 'emoji of 51');
            await expectError(alice.api.orgs.createSpace(org.id, { parent: foreignColl.id }), 400, 'parent in another org');
            await expectError(alice.api.orgs.createSpace(org.id, { parent: NO_SUCH_COLLECTION }), 400, 'unknown parent');
            await expectError(alice.api.orgs.createSpace(org.id, { title: 'From template', template: 'x' }), 400, 'template');
            await expectError(
                alice.api.orgs.createSpace(org.id, { title: 'Computed', computedSource: { type: 'x', props: {} } }),
                400,
                'computedSource',
            );
            await expectError(raw(ctx.url, 'POST', `/v1/orgs/${org.id}/spaces`, { token: alice.token, body: '{"title":', headers: { 'Content-Type': 'application/json' } }), 400, 'malformed JSON');
            const afterList = await S.orgIds(org.id);
            assert.deepEqual([...afterList].sort(), [...before, ...added].sort(), 'failed requests create nothing');
            assert.deepEqual(await S.collIds(coll2.id), [], 'nothing in another collection either');
        });

        it('who may create and read', async () => {
            await expectError(bob.api.orgs.createSpace(org.id, { title: 'Bob' }), 403, 'a read member creates');
            await expectError(dave.api.orgs.createSpace(org.id, { title: 'Dave' }), 404, 'a non-member creates');
            const s = await S.create(org.id, { title: 'Readable' });
            const asBob = await ok(bob.api.spaces.getSpaceById(s.id), 'getSpaceById');
            assert.equal(asBob.permissions.view, true);
            assert.equal(asBob.permissions.admin, false);
            assert.equal(asBob.permissions.edit, false);
            await expectError(dave.api.spaces.getSpaceById(s.id), 404, 'a non-member reads');
            await expectError(alice.api.spaces.getSpaceById(NO_SUCH_SPACE), 404, 'unknown space');
            await expectError(raw(ctx.url, 'GET', `/v1/spaces/${s.id}`), 401, 'no token');
        });
    });

    describe('settings', () => {
        let sp;
        before(async () => {
            sp = await S.create(org.id, { title: 'Settings', emoji: '📘' });
        });

        it('PATCH title, emoji, language, defaultLevel one at a time', async () => {
            const steps = [
                [{ title: 'Renamed' }, { title: 'Renamed' }],
                [{ title: 'R'.repeat(50) }, { title: 'R'.repeat(50) }],
                [{ emoji: '🎉' }, { emoji: '🎉' }],
                [{ language: 'de' }, { language: 'de' }],
                [{ language: 'pt-br' }, { language: 'pt-br' }],
                [{ defaultLevel: 'read' }, { defaultLevel: 'read' }],
                [{ defaultLevel: null }, { defaultLevel: null }],
                [{ defaultLevel: 'inherit' }, { defaultLevel: 'inherit' }],
            ];
            let prev = await S.get(sp.id);
            for (const [body, expect] of steps) {
                const res = await S.patch(sp.id, body);
                const want = { ...prev, ...expect };
                for (const k of Object.keys(want)) {
                    if (k === 'updatedAt') continue;
                    assert.deepEqual(res[k], want[k], `PATCH ${JSON.stringify(body)}: ${k}`);
                }
                assert.ok(Date.parse(res.updatedAt) >= Date.parse(prev.updatedAt), 'updatedAt does not go back');
                assert.deepEqual(await S.get(sp.id), res, `GET after PATCH ${JSON.stringify(body)}`);
                prev = res;
            }
            const done = await S.patch(sp.id, { title: 'Settings', language: 'en' });
            assert.equal(done.title, 'Settings');
            assert.equal(done.language, 'en');
            assert.equal(done.emoji, '🎉');
        });

        it('PATCH emoji null removes it; an icon replaces the emoji', async () => {
            let s = await S.patch(sp.id, { emoji: null });
            assert.equal(s.emoji, '');
            assert.equal((await S.get(sp.id)).emoji, '');
            s = await S.patch(sp.id, { emoji: '🧪' });
            assert.equal(s.emoji, '🧪');
            s = await S.patch(sp.id, { icon: 'https://example.com/icon.png' });
            assert.equal(s.urls.icon, 'https://example.com/icon.png');
            assert.equal(s.emoji, '');
            s = await S.patch(sp.id, { icon: null });
            assert.equal(s.urls.icon, undefined);
            await expectError(alice.api.spaces.updateSpaceById(sp.id, { icon: 'not a url' }), 400, 'icon not a URL');
            s = await S.patch(sp.id, { emoji: '📘' });
            assert.equal(s.emoji, '📘');
        });

        it('PATCH editMode locked takes edit permissions away, live gives them back', async () => {
            let s = await S.patch(sp.id, { editMode: 'locked' });
            assert.equal(s.editMode, 'locked');
            assert.equal(s.permissions.edit, false);
            assert.equal(s.permissions.merge, false);
            assert.equal(s.permissions.triggerGitSync, false);
            assert.equal(s.permissions.admin, true);
            assert.equal(s.permissions.review, true);
            assert.equal((await S.get(sp.id)).permissions.edit, false);
            s = await S.patch(sp.id, { editMode: 'live' });
            assert.equal(s.editMode, 'live');
            assert.deepEqual(s.permissions, ALL_TRUE);
            assert.deepEqual((await S.get(sp.id)).permissions, ALL_TRUE);
        });

        it('PATCH rejects bad values and changes nothing', async () => {
            const before = await S.get(sp.id);
            const bad = [
                [{ title: 'x'.repeat(51) }, 'title of 51'],
                [{ title: null }, 'title null'],
                [{ editMode: 'frozen' }, 'editMode'],
                [{ language: 'klingon' }, 'language'],
                [{ defaultLevel: 'owner' }, 'defaultLevel'],
                [{ visibility: 'secret' }, 'visibility'],
                [{ visibility: 'in-collection' }, 'in-collection at the top level'],
                [{ emoji: 'e'.repeat(51) }, 'emoji of 51'],
                [{ mergeRules: { type: 'sometimes' } }, 'mergeRules'],
                [{ mergeRules: { type: 'rules', rules: [{ rule: 'bogus' }] } }, 'an unknown merge rule'],
                [{ mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers' }] } }, 'a rule without its users'],
                [{ title: 'Changed', editMode: 'frozen' }, 'a good and a bad field'],
            ];
            for (const [body, what] of bad) await expectError(alice.api.spaces.updateSpaceById(sp.id, body), 400, what);
            assert.deepEqual(await S.get(sp.id), before, 'failed PATCHes change nothing');
            await expectError(bob.api.spaces.updateSpaceById(sp.id, { title: 'Bob' }), 403, 'a read member patches');
            await expectError(dave.api.spaces.updateSpaceById(sp.id, { title: 'Dave' }), 404, 'a non-member patches');
            await expectError(alice.api.spaces.updateSpaceById(NO_SUCH_SPACE, { title: 'Nope' }), 404, 'unknown space');
            assert.deepEqual(await S.get(sp.id), before);
        });

        it('emoji: one emoji, as characters or GitBook\'s hex code points; anything else is 400 naming emoji', async () => {
            // Accepted on create and on PATCH, stored as sent.
            for (const emoji of ['🚀', '👩‍💻', '👍🏽', '🇫🇷', '1️⃣', '❤️', '🗂', '1f680', '1f469-200d-1f4bb']) {
                const s = await S.create(org.id, { title: 'Emoji', emoji });
                assert.equal(s.emoji, emoji, `create with ${emoji}`);
                const p = await S.patch(sp.id, { emoji });
                assert.equal(p.emoji, emoji, `PATCH with ${emoji}`);
                await empty(alice.api.spaces.deleteSpaceById(s.id), 204, 'delete');
            }
            const before = await S.get(sp.id);
            const listed = await S.orgIds(org.id);
            const bad = ['e', 'hello', 'x1f680', '🚀🚀', '🚀 ', ' 🚀', 'ab', '1', '#', '1f680-', '\u200d', 'text/html\r\nX: 1', '<script>', '🇫'];
            for (const emoji of bad) {
                const c = await expectError(alice.api.orgs.createSpace(org.id, { title: 'Bad emoji', emoji }), 400, `create with ${JSON.stringify(emoji)}`);
                assert.match(c.error.message, /^emoji: must be one emoji/, JSON.stringify(emoji));
                const p = await expectError(alice.api.spaces.updateSpaceById(sp.id, { emoji }), 400, `PATCH with ${JSON.stringify(emoji)}`);
                assert.match(p.error.message, /^emoji: must be one emoji/, JSON.stringify(emoji));
            }
            assert.deepEqual(await S.get(sp.id), before, 'refused PATCHes change nothing');
            assert.deepEqual(await S.orgIds(org.id), listed, 'refused creates create nothing');
            // null still removes it
            assert.equal((await S.patch(sp.id, { emoji: null })).emoji, '');
        });

        it('PATCH mergeRules: rules, none, and back to inherit', async () => {
            const rules = { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }, { rule: 'require_specific_reviewers', users: [alice.id] }] };
            let s = await ok(alice.api.spaces.updateSpaceById(sp.id, { mergeRules: rules }), 'updateSpaceById');
            assert.deepEqual(s.mergeRules, rules);
            assert.deepEqual((await S.get(sp.id)).mergeRules, rules);
            s = await ok(alice.api.spaces.updateSpaceById(sp.id, { mergeRules: { type: 'none' } }), 'updateSpaceById');
            assert.deepEqual(s.mergeRules, { type: 'none' });
            s = await ok(alice.api.spaces.updateSpaceById(sp.id, { mergeRules: { type: 'inherit' } }), 'updateSpaceById');
            assert.deepEqual(s.mergeRules, { type: 'inherit' });
        });

        it('visibility: published URLs when not private; in-collection only in a collection', async () => {
            const cases = [
                ['public', true, true],
                ['unlisted', true, false],
                ['share-link', true, false],
                ['visitor-auth', true, false],
                ['private', false, false],
            ];
            for (const [visibility, published, pub] of cases) {
                const s = await S.patch(sp.id, { visibility });
                assert.equal(s.visibility, visibility);
                assert.equal(typeof s.urls.published === 'string', published, `${visibility}: urls.published`);
                assert.equal(typeof s.urls.public === 'string', pub, `${visibility}: urls.public`);
                if (published) assert.ok(s.urls.published.startsWith(`${ctx.url}/`), 'published URL on the server URL');
                assert.deepEqual(await S.get(sp.id), s);
            }
            const inColl = await S.create(org.id, { title: 'In collection', parent: coll2.id });
            const s = await S.patch(inColl.id, { visibility: 'in-collection' });
            assert.equal(s.visibility, 'in-collection');
            assert.equal(s.urls.public, undefined);
            // moving it out of the collection makes it private
            const moved = await ok(alice.api.spaces.moveSpace(inColl.id, { parent: null }), 'moveSpace');
            assert.equal(moved.parent, undefined);
            assert.equal(moved.visibility, 'private');
            await expectError(alice.api.spaces.updateSpaceById(inColl.id, { visibility: 'in-collection' }), 400, 'in-collection at top');
            assert.equal((await S.get(inColl.id)).visibility, 'private');
        });
    });

    describe('lifecycle', () => {
        // The seed's "Space lifecycle" table, plus what the other operations do to a deleted
        // space. state: where the space starts; next: where it must end (observed through GET
        // and the organization's and collection's lists). The time-based rows (7 days elapse)
        // are driven by the purge tests below.
        const LIFECYCLE = [
            { state: 'active/live', trigger: 'PATCH editMode locked', condition: '', next: 'active/locked', status: 200 },
            { state: 'active/locked', trigger: 'PATCH editMode live', condition: '', next: 'active/live', status: 200 },
            { state: 'active/live', trigger: 'PATCH editMode live', condition: 'no change', next: 'active/live', status: 200 },
            { state: 'active/live', trigger: 'DELETE', condition: '', next: 'deleted', status: 204 },
            { state: 'active/locked', trigger: 'DELETE', condition: '', next: 'deleted', status: 204 },
            { state: 'deleted', trigger: 'restore', condition: 'deleted within the last 7 days', next: 'active/live', status: 200 },
            { state: 'deleted (was locked)', trigger: 'restore', condition: 'deleted within the last 7 days', next: 'active/locked', status: 200 },
            { state: 'active/live', trigger: 'restore', condition: 'not deleted', next: 'active/live', status: 409 },
            { state: 'active/locked', trigger: 'restore', condition: 'not deleted', next: 'active/locked', status: 409 },
            { state: 'deleted', trigger: 'DELETE', condition: 'already deleted', next: 'deleted', status: 204 },
            { state: 'deleted', trigger: 'PATCH editMode locked', condition: 'deleted', next: 'deleted', status: 409 },
            { state: 'deleted', trigger: 'duplicate', condition: 'deleted', next: 'deleted', status: 409 },
            { state: 'deleted', trigger: 'move', condition: 'deleted', next: 'deleted', status: 409 },
            { state: 'deleted', trigger: 'transfer', condition: 'deleted', next: 'deleted', status: 412 },
        ];

        const TRIGGERS = {
            'PATCH editMode locked': { call: (id) => alice.api.spaces.updateSpaceById(id, { editMode: 'locked' }), op: 'updateSpaceById' },
            'PATCH editMode live': { call: (id) => alice.api.spaces.updateSpaceById(id, { editMode: 'live' }), op: 'updateSpaceById' },
            DELETE: { call: (id) => alice.api.spaces.deleteSpaceById(id), op: 'deleteSpaceById' },
            restore: { call: (id) => alice.api.spaces.restoreSpace(id), op: 'restoreSpace' },
            duplicate: { call: (id) => alice.api.spaces.duplicateSpace(id), op: 'duplicateSpace' },
            move: { call: (id) => alice.api.spaces.moveSpace(id, { parent: coll2.id }), op: 'moveSpace' },
            transfer: { call: (id) => alice.api.spaces.transferSpace(id, { organization: org2.id }), op: 'transferSpace' },
        };

        /** Creates a space (in `coll`) in the given state. */
        async function inState(state, title) {
            const s = await S.create(org.id, { title, parent: coll.id });
            if (state === 'active/locked' || state === 'deleted (was locked)') await S.patch(s.id, { editMode: 'locked' });
            if (state.startsWith('deleted')) await empty(alice.api.spaces.deleteSpaceById(s.id), 204, 'delete');
            return s;
        }

        /** The state as the API shows it; asserts that GET and the lists agree. */
        async function observe(id) {
            const s = await S.get(id);
            const inOrg = (await S.orgIds(org.id)).includes(id);
            const inColl = (await S.collIds(coll.id)).includes(id);
            if (s.deletedAt) {
                assert.equal(inOrg, false, 'a deleted space is not in the organization list');
                assert.equal(inColl, false, 'a deleted space is not in its collection list');
                assertRecent(s.deletedAt, 'deletedAt');
                return 'deleted';
            }
            assert.equal(inOrg, true, 'an active space is in the organization list');
            assert.equal(inColl, true, 'an active space is in its collection list');
            assert.equal(s.parent, coll.id, 'an active space stays in its collection');
            assert.equal(s.permissions.edit, s.editMode === 'live', 'edit permission follows editMode');
            return `active/${s.editMode}`;
        }

        for (const [i, row] of LIFECYCLE.entries()) {
            it(`${row.state} --${row.trigger}${row.condition ? ` [${row.condition}]` : ''}--> ${row.next} (${row.status})`, async () => {
                const s = await inState(row.state, `Lifecycle ${i}`);
                const before = await S.get(s.id);
                const t = TRIGGERS[row.trigger];
                if (row.status === 204) await empty(t.call(s.id), 204, row.trigger);
                else if (row.status >= 400) await expectError(t.call(s.id), row.status, `${row.trigger} on ${row.state}`);
                else {
                    const body = await ok(t.call(s.id), t.op, row.status);
                    assert.equal(body.id, s.id);
                    assert.equal(body.deletedAt, undefined);
                    assert.equal(`active/${body.editMode}`, row.next, 'the answer shows the new state');
                }
                assert.equal(await observe(s.id), row.next);
                if (row.status >= 400 || row.state === row.next) {
                    const after = await S.get(s.id);
                    if (row.trigger !== 'PATCH editMode live') assert.deepEqual(after, before, 'a refused or no-op trigger changes nothing');
                }
            });
        }

        it('a deleted space keeps its settings; GET shows deletedAt; restore brings it back where it was', async () => {
            const a = await S.create(org.id, { title: 'Keep me', emoji: '🗂', parent: coll.id, language: 'ja' });
            const b = await S.create(org.id, { title: 'Neighbour', parent: coll.id });
            const beforeColl = await S.collIds(coll.id);
            await empty(alice.api.spaces.deleteSpaceById(a.id), 204, 'delete');
            const del = await S.get(a.id);
            assertRecent(del.deletedAt, 'deletedAt');
            assert.ok(Date.parse(del.deletedAt) >= Date.parse(a.createdAt));
            for (const k of ['title', 'emoji', 'language', 'parent', 'organization', 'revision', 'editMode', 'visibility']) assert.deepEqual(del[k], a[k], k);
            assert.deepEqual(await S.collIds(coll.id), beforeColl.filter((x) => x !== a.id));
            const restored = await ok(alice.api.spaces.restoreSpace(a.id), 'restoreSpace');
            assert.equal(restored.deletedAt, undefined);
            assert.equal(restored.parent, coll.id);
            assert.equal(restored.title, 'Keep me');
            assert.deepEqual(await S.collIds(coll.id), beforeColl, 'restored at its old place in the collection');
            assert.ok((await S.orgIds(org.id)).includes(b.id));
        });

        it('DELETE: twice 204, unknown 204; who may delete and restore', async () => {
            const s = await S.create(org.id, { title: 'Delete twice' });
            await expectError(bob.api.spaces.deleteSpaceById(s.id), 403, 'a read member deletes');
            await expectError(dave.api.spaces.deleteSpaceById(s.id), 404, 'a non-member deletes');
            assert.equal((await S.get(s.id)).deletedAt, undefined, 'refused deletes change nothing');
            await empty(alice.api.spaces.deleteSpaceById(s.id), 204, 'delete');
            const first = (await S.get(s.id)).deletedAt;
            await empty(alice.api.spaces.deleteSpaceById(s.id), 204, 'delete again');
            assert.equal((await S.get(s.id)).deletedAt, first, 'a second DELETE does not move deletedAt');
            await empty(alice.api.spaces.deleteSpaceById(NO_SUCH_SPACE), 204, 'delete unknown');
            await expectError(bob.api.spaces.restoreSpace(s.id), 403, 'a read member restores');
            await expectError(alice.api.spaces.restoreSpace(NO_SUCH_SPACE), 404, 'restore unknown');
            assert.equal((await S.get(s.id)).deletedAt, first);
            assert.ok(!(await S.orgIds(org.id)).includes(s.id));
        });
    });

    describe('duplicate', () => {
        it('copies the settings right after the original, with a new id and revision', async () => {
            const dc = await ok(alice.api.orgs.createCollection(org.id, { title: 'Dup' }), 'createCollection', 201);
            const a = await S.create(org.id, { title: 'Original', emoji: '🧬', language: 'es', parent: dc.id });
            const x = await S.create(org.id, { title: 'X', parent: dc.id });
            const b = await S.create(org.id, { title: 'B', parent: dc.id });
            await S.patch(a.id, { editMode: 'locked', visibility: 'unlisted', defaultLevel: 'comment' });
            const orig = await S.get(a.id);
            const copy = await duplicate(alice.api, a.id);
            assert.notEqual(copy.id, a.id);
            assert.notEqual(copy.revision, orig.revision);
            assert.equal(copy.title, 'Copy of Original', 'named as GitBook names a duplicate');
            for (const k of ['emoji', 'language', 'editMode', 'visibility', 'defaultLevel', 'parent', 'organization', 'mergeRules']) {
                assert.deepEqual(copy[k], orig[k], `the copy keeps ${k}`);
            }
            assert.equal(copy.deletedAt, undefined);
            assertRecent(copy.createdAt, 'createdAt');
            assert.ok(Date.parse(copy.createdAt) >= Date.parse(orig.createdAt));
            assert.equal(copy.urls.location, `${ctx.url}/v1/spaces/${copy.id}`);
            assert.deepEqual(await S.get(copy.id), copy);
            assert.deepEqual(await S.collIds(dc.id), [a.id, copy.id, x.id, b.id], 'the copy sits right after the original');
            assert.deepEqual(await S.get(a.id), orig, 'the original is unchanged');
            // a long title is cut to the 50 characters a title may have, at a character boundary
            const long = await S.create(org.id, { title: 'é'.repeat(50) });
            const longCopy = await duplicate(alice.api, long.id);
            assert.equal(longCopy.title, `Copy of ${'é'.repeat(42)}`);
            // duplicating the last one appends
            const copyB = await duplicate(alice.api, b.id);
            assert.deepEqual(await S.collIds(dc.id), [a.id, copy.id, x.id, b.id, copyB.id]);
            // a top-level space: the copy is at the top level too, and listed in the org
            const top = await S.create(org.id, { title: 'Top original' });
            const topCopy = await duplicate(alice.api, top.id);
            assert.equal(topCopy.parent, undefined);
            const ids = await S.orgIds(org.id);
            assert.ok(ids.includes(topCopy.id) && ids.includes(top.id));
        });

        it('errors: unknown 404, deleted 409, read member 403', async () => {
            await expectError(alice.api.spaces.duplicateSpace(NO_SUCH_SPACE), 404, 'unknown');
            const s = await S.create(org.id, { title: 'Dup errors' });
            const before = await S.orgIds(org.id);
            await expectError(bob.api.spaces.duplicateSpace(s.id), 403, 'a read member duplicates');
            await expectError(dave.api.spaces.duplicateSpace(s.id), 404, 'a non-member duplicates');
            await empty(alice.api.spaces.deleteSpaceById(s.id), 204, 'delete');
            await expectError(alice.api.spaces.duplicateSpace(s.id), 409, 'deleted');
            assert.deepEqual(await S.orgIds(org.id), before.filter((x) => x !== s.id), 'no copies made');
        });
    });

    describe('move', () => {
        let mc, other, s1, s2, s3, t, elsewhere, sub;
        before(async () => {
            mc = await ok(alice.api.orgs.createCollection(org.id, { title: 'Move here' }), 'createCollection', 201);
            other = await ok(alice.api.orgs.createCollection(org.id, { title: 'Elsewhere' }), 'createCollection', 201);
            s1 = await S.create(org.id, { title: 's1', parent: mc.id });
            s2 = await S.create(org.id, { title: 's2', parent: mc.id });
            s3 = await S.create(org.id, { title: 's3', parent: mc.id });
            elsewhere = await S.create(org.id, { title: 'elsewhere', parent: other.id });
            t = await S.create(org.id, { title: 't' });
        });
        const move = (id, body) => ok(alice.api.spaces.moveSpace(id, body), 'moveSpace');

        it('into a collection (appended), before and after siblings, back to the top', async () => {
            let m = await move(t.id, { parent: mc.id });
            assert.equal(m.id, t.id);
            assert.equal(m.parent, mc.id);
            assert.equal((await S.get(t.id)).parent, mc.id);
            assert.deepEqual(await S.collIds(mc.id), [s1.id, s2.id, s3.id, t.id]);

            m = await move(t.id, { position: { before: { type: 'space', space: s1.id } } });
            assert.equal(m.parent, mc.id, 'the position names the destination');
            assert.deepEqual(await S.collIds(mc.id), [t.id, s1.id, s2.id, s3.id]);

            await move(t.id, { position: { after: { type: 'space', space: s2.id } } });
            assert.deepEqual(await S.collIds(mc.id), [s1.id, s2.id, t.id, s3.id]);

            await move(s3.id, { position: { before: { type: 'space', space: s1.id } } });
            assert.deepEqual(await S.collIds(mc.id), [s3.id, s1.id, s2.id, t.id]);
            await move(s3.id, { position: { after: { type: 'space', space: t.id } } });
            assert.deepEqual(await S.collIds(mc.id), [s1.id, s2.id, t.id, s3.id]);

            m = await move(t.id, { parent: null });
            assert.equal(m.parent, undefined);
            assert.equal((await S.get(t.id)).parent, undefined);
            assert.deepEqual(await S.collIds(mc.id), [s1.id, s2.id, s3.id]);

            m = await move(t.id, { parent: mc.id, position: { before: { type: 'space', space: s3.id } } });
            assert.equal(m.parent, mc.id);
            assert.deepEqual(await S.collIds(mc.id), [s1.id, s2.id, t.id, s3.id]);

            // many moves into the same gap right after s1 (the positions get renumbered)
            for (let i = 0; i < 24; i++) {
                await move((i % 2 ? s2 : s3).id, { position: { after: { type: 'space', space: s1.id } } });
                assert.deepEqual((await S.collIds(mc.id)).slice(0, 3), i % 2 ? [s1.id, s2.id, s3.id] : [s1.id, s3.id, s2.id], `move ${i}`);
            }
            assert.deepEqual(await S.collIds(mc.id), [s1.id, s2.id, s3.id, t.id]);
            await move(t.id, { position: { before: { type: 'space', space: s3.id } } });
            assert.deepEqual(await S.collIds(mc.id), [s1.id, s2.id, t.id, s3.id]);

            // relative to a collection in the same parent
            sub = await ok(alice.api.orgs.createCollection(org.id, { title: 'Sub', parent: mc.id }), 'createCollection', 201);
            const top = await S.create(org.id, { title: 'top mover' });
            m = await move(top.id, { position: { after: { type: 'collection', collection: sub.id } } });
            assert.equal(m.parent, mc.id);
            assert.deepEqual(await S.collIds(mc.id), [s1.id, s2.id, t.id, s3.id, top.id], 'after the sub-collection, which is last');
            m = await move(top.id, { parent: null });
            assert.equal(m.parent, undefined);
        });

        it('errors: 400 without fields or with a bad parent/position, 409 no-op, 404 unknown; nothing changes', async () => {
            const order = await S.collIds(mc.id);
            const tBefore = await S.get(t.id);
            assert.equal(tBefore.parent, mc.id);
            await expectError(alice.api.spaces.moveSpace(t.id, {}), 400, 'no fields');
            await expectError(raw(ctx.url, 'POST', `/v1/spaces/${t.id}/move`, { token: alice.token }), 400, 'no body');
            await expectError(alice.api.spaces.moveSpace(t.id, { parent: NO_SUCH_COLLECTION }), 400, 'unknown parent');
            await expectError(alice.api.spaces.moveSpace(t.id, { parent: foreignColl.id }), 400, 'parent in another org');
            await expectError(alice.api.spaces.moveSpace(t.id, { parent: 42 }), 400, 'parent not a string');
            await expectError(
                alice.api.spaces.moveSpace(t.id, { parent: mc.id, position: { before: { type: 'space', space: elsewhere.id } } }),
                400,
                'position item in another collection',
            );
            await expectError(
                alice.api.spaces.moveSpace(t.id, { position: { before: { type: 'space', space: NO_SUCH_SPACE } } }),
                400,
                'unknown position item',
            );
            await expectError(
                alice.api.spaces.moveSpace(t.id, { position: { before: { type: 'space', space: t.id } } }),
                400,
                'relative to itself',
            );
            await expectError(
                alice.api.spaces.moveSpace(t.id, { position: { before: { type: 'space', space: s1.id }, after: { type: 'space', space: s2.id } } }),
                400,
                'both before and after',
            );
            await expectError(alice.api.spaces.moveSpace(t.id, { position: { before: { type: 'page', page: s1.id } } }), 400, 'bad pointer type');
            await expectError(
                alice.api.spaces.moveSpace(t.id, { parent: null, position: { before: { type: 'space', space: s1.id } } }),
                400,
                'parent null with a position item inside a collection',
            );
            await expectError(
                alice.api.spaces.moveSpace(t.id, { position: { after: { type: 'collection', collection: foreignColl.id } } }),
                400,
                'position item in another org',
            );
            await expectError(alice.api.spaces.moveSpace(t.id, { parent: mc.id }), 409, 'same parent, no position');
            const i = order.indexOf(t.id);
            assert.ok(i > 0);
            await expectError(
                alice.api.spaces.moveSpace(t.id, { position: { after: { type: 'space', space: order[i - 1] } } }),
                409,
                'already after that sibling',
            );
            await expectError(
                alice.api.spaces.moveSpace(t.id, { parent: mc.id, position: { before: { type: 'space', space: order[i + 1] } } }),
                409,
                'already before that sibling',
            );
            const top = await S.create(org.id, { title: 'already on top' });
            await expectError(alice.api.spaces.moveSpace(top.id, { parent: null }), 409, 'top to top');
            await expectError(alice.api.spaces.moveSpace(NO_SUCH_SPACE, { parent: mc.id }), 404, 'unknown space');
            await expectError(bob.api.spaces.moveSpace(t.id, { parent: null }), 403, 'a read member moves');
            assert.deepEqual(await S.collIds(mc.id), order, 'failed moves change no order');
            assert.deepEqual(await S.get(t.id), tBefore, 'failed moves change nothing');
            assert.deepEqual(await S.collIds(other.id), [elsewhere.id]);
        });
    });

    describe('transfer', () => {
        it('to another organization where the caller is admin', async () => {
            const tc = await ok(alice.api.orgs.createCollection(org.id, { title: 'Transfer from' }), 'createCollection', 201);
            const keep = await S.create(org.id, { title: 'stays', parent: tc.id });
            const s = await S.create(org.id, { title: 'Travelling', emoji: '✈️', parent: tc.id });
            await S.patch(s.id, { visibility: 'in-collection' });
            const res = await ok(alice.api.spaces.transferSpace(s.id, { organization: org2.id }), 'transferSpace');
            assert.equal(res.id, s.id);
            assert.equal(res.organization, org2.id);
            assert.equal(res.parent, undefined, 'at the top level of the target');
            assert.equal(res.title, 'Travelling');
            assert.equal(res.emoji, '✈️');
            assert.equal(res.visibility, 'private', 'in-collection becomes private at the top level');
            assert.deepEqual(await S.get(s.id), res);
            assert.ok(!(await S.orgIds(org.id)).includes(s.id), 'gone from the old org list');
            assert.ok((await S.orgIds(org2.id)).includes(s.id), 'in the new org list');
            assert.deepEqual(await S.collIds(tc.id), [keep.id], 'gone from its old collection');

            // into a collection of the target (GitBook's later `collection` field)
            const target = await ok(alice.api.orgs.createCollection(org.id, { title: 'Transfer to' }), 'createCollection', 201);
            const back = await ok(alice.api.spaces.transferSpace(s.id, { organization: org.id, collection: target.id }), 'transferSpace');
            assert.equal(back.organization, org.id);
            assert.equal(back.parent, target.id);
            assert.deepEqual(await S.collIds(target.id), [s.id]);
            assert.ok(!(await S.orgIds(org2.id)).includes(s.id));
            // within the same org to another collection
            const moved = await ok(alice.api.spaces.transferSpace(s.id, { organization: org.id, collection: tc.id }), 'transferSpace');
            assert.equal(moved.parent, tc.id);
            assert.deepEqual(await S.collIds(tc.id), [keep.id, s.id]);
            await expectError(alice.api.spaces.transferSpace(s.id, { organization: org.id, collection: tc.id }), 409, 'same org, same collection');
            await expectError(alice.api.spaces.transferSpace(s.id, { organization: org2.id, collection: NO_SUCH_COLLECTION }), 400, 'unknown collection');
            assert.equal((await S.get(s.id)).parent, tc.id);
            assert.deepEqual(await S.collIds(tc.id), [keep.id, s.id]);
        });

        it('errors: 403 without create in the target, 404 unknown org/space, 409 same org, 412 deleted, 400 no organization', async () => {
            const s = await S.create(org.id, { title: 'Not travelling' });
            const before = await S.get(s.id);
            await expectError(alice.api.spaces.transferSpace(s.id, { organization: org3.id }), 403, 'review member of the target');
            await expectError(alice.api.spaces.transferSpace(s.id, { organization: 'nosuchorg00000000000' }), 404, 'unknown org');
            await expectError(alice.api.spaces.transferSpace(s.id, { organization: org.id }), 409, 'same org');
            await expectError(alice.api.spaces.transferSpace(s.id, {}), 400, 'no organization');
            await expectError(alice.api.spaces.transferSpace(s.id, { organization: 7 }), 400, 'organization not a string');
            await expectError(alice.api.spaces.transferSpace(s.id, { organization: org2.id, collection: foreignColl.id }), 400, 'collection of another org');
            await expectError(alice.api.spaces.transferSpace(NO_SUCH_SPACE, { organization: org2.id }), 404, 'unknown space');
            await expectError(bob.api.spaces.transferSpace(s.id, { organization: org2.id }), 403, 'a read member transfers');
            assert.deepEqual(await S.get(s.id), before, 'failed transfers change nothing');
            assert.ok((await S.orgIds(org.id)).includes(s.id));
            assert.ok(!(await S.orgIds(org2.id)).includes(s.id));
            assert.ok(!(await S.orgIds(org3.id).catch(() => [])).includes(s.id));
            await empty(alice.api.spaces.deleteSpaceById(s.id), 204, 'delete');
            await expectError(alice.api.spaces.transferSpace(s.id, { organization: org2.id }), 412, 'deleted space');
            const del = await S.get(s.id);
            assert.equal(del.organization, org.id);
            assert.ok(del.deletedAt);
        });

        it('to an organization where the caller has the create role, and into a collection there only with create on it', async () => {
            const s = await S.create(org.id, { title: 'To a create member org' });
            await ok(carol.api.orgs.updateMemberInOrganizationById(org3.id, alice.id, { role: 'create' }), 'updateMemberInOrganizationById');
            try {
                const locked = await ok(carol.api.orgs.createCollection(org3.id, { title: 'Carol only', defaultLevel: 'read' }), 'createCollection', 201);
                await expectError(alice.api.spaces.transferSpace(s.id, { organization: org3.id, collection: locked.id }), 403, 'read on the target collection');
                assert.equal((await S.get(s.id)).organization, org.id, 'not moved');
                const res = await ok(alice.api.spaces.transferSpace(s.id, { organization: org3.id, collection: foreignColl.id }), 'transferSpace');
                assert.equal(res.organization, org3.id);
                assert.equal(res.parent, foreignColl.id);
                assert.equal(res.permissions.admin, true, 'create inherited from the organization: a content admin');
                assert.equal(res.permissions.installIntegration, false, 'not an organization admin');
                const seen = await ok(carol.api.spaces.getSpaceById(s.id), 'getSpaceById');
                assert.equal(seen.organization, org3.id);
                assert.ok((await S.orgIds(org3.id)).includes(s.id));
            } finally {
                await ok(carol.api.orgs.updateMemberInOrganizationById(org3.id, alice.id, { role: 'review' }), 'updateMemberInOrganizationById');
            }
        });
    });

    describe('lists', () => {
        let lo, lc;
        before(async () => {
            ({ org: lo } = await createOrg(ctx.url, alice.token, `Lists ${ctx.run}`));
            lc = await ok(alice.api.orgs.createCollection(lo.id, { title: 'Listed' }), 'createCollection', 201);
        });

        it('org spaces: oldest first, live only, paginated', async () => {
            const made = [];
            for (let i = 0; i < 5; i++) {
                made.push(await S.create(lo.id, { title: `L${i}`, parent: i % 2 ? lc.id : undefined }));
                await sleep(3); // distinct createdAt (milliseconds): the order is then fully defined
            }
            await empty(alice.api.spaces.deleteSpaceById(made[2].id), 204, 'delete one');
            const items = await checkPagination((q) => alice.api.orgs.listSpacesInOrganizationById(lo.id, q), 'listSpacesInOrganizationById');
            assert.deepEqual(
                items.map((s) => s.id),
                [made[0], made[1], made[3], made[4]].map((s) => s.id),
                'oldest first, the deleted one left out',
            );
            for (let i = 1; i < items.length; i++) assert.ok(Date.parse(items[i - 1].createdAt) <= Date.parse(items[i].createdAt));
            for (const s of items) {
                assert.equal(s.organization, lo.id);
                assert.deepEqual(s.permissions, ALL_TRUE);
            }
            const full = await ok(alice.api.orgs.listSpacesInOrganizationById(lo.id), 'listSpacesInOrganizationById');
            assert.equal(full.items.length, 4);
            assert.equal(full.next, undefined);
            assert.deepEqual(full.items[1], await S.get(made[1].id), 'list items are the same as GET');
        });

        it('collection spaces: ordered by position, paginated', async () => {
            const made = [];
            for (let i = 0; i < 4; i++) made.push(await S.create(lo.id, { title: `C${i}`, parent: lc.id }));
            await ok(alice.api.spaces.moveSpace(made[3].id, { position: { before: { type: 'space', space: made[0].id } } }), 'moveSpace');
            const all = await S.collIds(lc.id);
            const items = await checkPagination((q) => alice.api.collections.listSpacesInCollectionById(lc.id, q), 'listSpacesInCollectionById');
            assert.deepEqual(items.map((s) => s.id), all);
            const mine = all.filter((id) => made.some((m) => m.id === id));
            assert.deepEqual(mine, [made[3], made[0], made[1], made[2]].map((s) => s.id));
            for (const s of items) assert.equal(s.parent, lc.id);
            await expectError(alice.api.collections.listSpacesInCollectionById(NO_SUCH_COLLECTION), 404, 'unknown collection');
            await expectError(dave.api.collections.listSpacesInCollectionById(lc.id), 404, 'non-member');
        });

        it('limit 0, 1001, junk and a bad page cursor are 400', async () => {
            for (const path of [`/v1/orgs/${lo.id}/spaces`, `/v1/collections/${lc.id}/spaces`]) {
                for (const q of ['limit=0', 'limit=1001', 'limit=-1', 'limit=abc', 'page=not-a-cursor']) {
                    await expectError(raw(ctx.url, 'GET', `${path}?${q}`, { token: alice.token }), 400, `${path}?${q}`);
                }
                const r = await raw(ctx.url, 'GET', `${path}?limit=1000`, { token: alice.token });
                assert.equal(r.status, 200, r.text);
            }
            await expectError(alice.api.orgs.listSpacesInOrganizationById(lo.id, { limit: 0 }), 400, 'client limit 0');
            await expectError(alice.api.orgs.listSpacesInOrganizationById(lo.id, { limit: 1001 }), 400, 'client limit 1001');
            await expectError(dave.api.orgs.listSpacesInOrganizationById(lo.id), 404, 'non-member lists');
        });
    });
});

// The 7-day retention: the server clock is shifted with --clock-offset-ms across restarts on
// the same data. Each row: a space in `state` (set up at real time), `days` later (a server
// restarted with that clock offset), then `then` done, must be in `next`.
describe('spaces: 7-day purge of deleted spaces', () => {
    const PURGE = [
        { state: 'deleted', trigger: '6 days elapse', condition: 'deleted within the last 7 days', days: 6, then: null, next: 'deleted' },
        { state: 'deleted', trigger: '6 days elapse, restore', condition: 'deleted within the last 7 days', days: 6, then: 'restore', next: 'active' },
        { state: 'deleted', trigger: '8 days elapse', condition: 'deleted more than 7 days ago', days: 8, then: null, next: 'purged' },
        { state: 'deleted', trigger: '8 days elapse, restore', condition: 'deleted more than 7 days ago', days: 8, then: 'restore', next: 'purged' },
        { state: 'active', trigger: '8 days elapse', condition: 'not deleted', days: 8, then: null, next: 'active' },
    ];
    let server, alice, org, coll;
    let dataDir;
    const spaces = new Map(); // row index -> space id

    const restart = async (days) => {
        await server.stop({ keepData: true });
        server = null;
        server = await startServer({ dataDir, extraArgs: ['--clock-offset-ms', String(days * DAY_MS)] });
        alice.api = client(server.url, alice.token);
    };

    async function observe(api, id) {
        const H = spaceHelpers(api);
        let s;
        try {
            s = await ok(api.spaces.getSpaceById(id), 'getSpaceById');
        } catch (e) {
            await expectError(api.spaces.getSpaceById(id), 404, 'GET a purged space');
            return 'purged';
        }
        const listed = (await H.orgIds(org.id)).includes(id) && (await H.collIds(coll.id)).includes(id);
        if (s.deletedAt) {
            assert.equal(listed, false, 'a deleted space is not listed');
            return 'deleted';
        }
        assert.equal(listed, true, 'an active space is listed');
        return 'active';
    }

    before(async () => {
        server = await startServer();
        dataDir = server.dataDir;
        const u = await server.createUser(`purge-${uniq(6)}@r${uniq(10)}.example.com`, 'Purge Admin');
        alice = { ...u, api: client(server.url, u.token) };
        ({ org } = await createOrg(server.url, alice.token, `Purge ${uniq(6)}`));
        coll = await ok(alice.api.orgs.createCollection(org.id, { title: 'Retention' }), 'createCollection', 201);
        for (const [i, row] of PURGE.entries()) {
            const s = await ok(alice.api.orgs.createSpace(org.id, { title: `Purge ${i}`, parent: coll.id }), 'createSpace', 201);
            if (row.state === 'deleted') await empty(alice.api.spaces.deleteSpaceById(s.id), 204, 'delete');
            spaces.set(i, s.id);
        }
    });
    after(async () => {
        if (server) await server.stop();
    });

    for (const days of [...new Set(PURGE.map((r) => r.days))].sort((a, b) => a - b)) {
        it(`after ${days} days (server restarted with --clock-offset-ms ${days * DAY_MS})`, async () => {
            await restart(days);
            for (const [i, row] of PURGE.entries()) {
                if (row.days !== days) continue;
                const id = spaces.get(i);
                const what = `${row.state} --${row.trigger} [${row.condition}]--> ${row.next}`;
                if (row.then === 'restore') {
                    if (row.next === 'purged') await expectError(alice.api.spaces.restoreSpace(id), 404, `${what}: restore`);
                    else {
                        const r = await ok(alice.api.spaces.restoreSpace(id), 'restoreSpace');
                        assert.equal(r.deletedAt, undefined, what);
                        assert.equal(r.parent, coll.id, what);
                    }
                }
                assert.equal(await observe(alice.api, id), row.next, what);
                if (row.next === 'purged') {
                    await expectError(alice.api.spaces.restoreSpace(id), 404, `${what}: restore after the purge`);
                    await empty(alice.api.spaces.deleteSpaceById(id), 204, `${what}: DELETE after the purge`);
                }
            }
            // a space deleted now (in the shifted clock) is restorable
            const fresh = await ok(alice.api.orgs.createSpace(org.id, { title: `Fresh ${days}`, parent: coll.id }), 'createSpace', 201);
            assert.ok(Math.abs(Date.parse(fresh.createdAt) - (Date.now() + days * DAY_MS)) < 5 * 60_000, 'createdAt follows the shifted clock');
            await empty(alice.api.spaces.deleteSpaceById(fresh.id), 204, 'delete now');
            assert.equal(await observe(alice.api, fresh.id), 'deleted');
            const back = await ok(alice.api.spaces.restoreSpace(fresh.id), 'restoreSpace');
            assert.equal(back.deletedAt, undefined);
            assert.equal(await observe(alice.api, fresh.id), 'active');
        });
    }
});
