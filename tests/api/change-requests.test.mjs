// Change requests, the behaviours of issue 12 a GitBook user notices: a description that is
// kept, the list's creator filter (and every filter GitBook's document names, answered 400
// when malformed), contributors, the changes between a change request's base and head, and
// the organization-wide list limited to the spaces the caller reads.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { ok, expectError, raw, rawOk, createOrg, addMember, validate, checkPagination, sleep } from './lib/api.mjs';
import { validateComponent } from './lib/schema.mjs';

const DOC = {
    object: 'document',
    data: {},
    nodes: [
        {
            object: 'block',
            type: 'paragraph',
            key: 'p1',
            data: {},
            nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Why this change', marks: [{ object: 'mark', type: 'bold' }] }] }],
        },
    ],
};

/**
 * Validates a getChangeRequestChanges body. GitBook's schema gives page_edited's `attributes`
 * as a oneOf of the document, group and link attribute schemas, which accept the same objects
 * (no additionalProperties: false, the same shared keys), so no value can match exactly one:
 * each page_edited item's attributes are checked against the schema of the page's type, and
 * the rest of the body against the operation's schema.
 */
function validateChanges(body) {
    const ATTRS = { document: 'RevisionPageDocumentChangeAttributes', group: 'RevisionPageGroupChangeAttributes', link: 'RevisionPageLinkChangeAttributes' };
    const rest = [];
    for (const c of body.changes) {
        if (c.type === 'page_edited') {
            validateComponent('ChangedRevisionPage', c.page);
            validateComponent(ATTRS[c.page.type], c.attributes);
            assert.ok(Object.keys(c.attributes).length > 0);
        } else rest.push(c);
    }
    validate('getChangeRequestChanges', 200, { ...body, changes: rest });
    return body;
}

describe('change requests (issue 12)', () => {
    let ctx, alice, bob, carol, dave, org;

    const content = async (who, spaceId, crId, changes) =>
        (await rawOk(ctx.url, 'POST', `/v1/spaces/${spaceId}/change-requests/${crId}/content?compat=false`, { token: who.token, json: { changes } })).json;
    const newCR = (who, spaceId, subject) => ok(who.api.spaces.createChangeRequest(spaceId, { subject }), 'createChangeRequest', 201);
    const newSpace = (title) => ok(alice.api.orgs.createSpace(org.id, { title }), 'createSpace', 201);
    const changes = async (who, spaceId, crId, query) =>
        validateChanges((await rawOk(ctx.url, 'GET', `/v1/spaces/${spaceId}/change-requests/${crId}/changes${query ?? ''}`, { token: who.token })).json);

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        carol = await ctx.user('carol');
        dave = await ctx.user('dave');
        ({ org } = await createOrg(ctx.url, alice.token, `CR ${ctx.run}`));
        await addMember(alice.api, org.id, bob.email, 'edit');
        await addMember(alice.api, org.id, carol.email, 'comment');
        await addMember(alice.api, org.id, dave.email, 'read');
    });
    after(() => ctx?.server.stop());

    it('PATCH keeps a description (a JSONDocument), returns it everywhere, refuses a malformed one, null removes it', async () => {
        const s = await newSpace('Described');
        const cr = await newCR(alice, s.id, 'With a description');
        assert.equal(cr.description, undefined);
        const patched = await ok(alice.api.spaces.updateChangeRequestById(s.id, cr.id, { description: DOC }), 'updateChangeRequestById');
        assert.deepEqual(patched.description, DOC);
        assert.equal(patched.subject, 'With a description', 'the subject is unchanged');
        const got = await ok(alice.api.spaces.getChangeRequestById(s.id, cr.id), 'getChangeRequestById');
        assert.deepEqual(got.description, DOC);
        const drafts = await ok(alice.api.spaces.listChangeRequestsForSpace(s.id, { status: 'draft' }), 'listChangeRequestsForSpace');
        assert.deepEqual(drafts.items.find((x) => x.id === cr.id).description, DOC);
        // A subject-only PATCH leaves it alone.
        const renamed = await ok(alice.api.spaces.updateChangeRequestById(s.id, cr.id, { subject: 'Renamed' }), 'updateChangeRequestById');
        assert.deepEqual(renamed.description, DOC);

        const bad = [
            'plain text',
            { object: 'document', nodes: [] },
            { object: 'page', data: {}, nodes: [] },
            { object: 'document', data: {}, nodes: [{ object: 'text', leaves: [] }] },
            { object: 'document', data: {}, nodes: [{ object: 'block', nodes: [] }] },
            { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 1, marks: [] }] }] }] },
            { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: 'x', nodes: [] }] },
            { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'x'.repeat(70000), marks: [] }] }] }] },
        ];
        for (const description of bad) {
            const e = await expectError(raw(ctx.url, 'PATCH', `/v1/spaces/${s.id}/change-requests/${cr.id}`, { token: alice.token, json: { description } }), 400, JSON.stringify(description).slice(0, 60));
            assert.match(e.error.message, /description/);
        }
        assert.deepEqual((await ok(alice.api.spaces.getChangeRequestById(s.id, cr.id), 'getChangeRequestById')).description, DOC, 'a refused PATCH changes nothing');

        const cleared = (await rawOk(ctx.url, 'PATCH', `/v1/spaces/${s.id}/change-requests/${cr.id}`, { token: alice.token, json: { description: null } }, 'updateChangeRequestById')).json;
        assert.equal(cleared.description, undefined);

        // createChangeRequest takes one too (GitBook's later API has it).
        const withDesc = (await rawOk(ctx.url, 'POST', `/v1/spaces/${s.id}/change-requests`, { token: alice.token, json: { subject: 'x', description: DOC } }, 'createChangeRequest', 201)).json;
        assert.deepEqual(withDesc.description, DOC);
    });

    it('listChangeRequestsForSpace: creator filters by author; status, contributor and creator combine; malformed values are 400', async () => {
        const s = await newSpace('Authors');
        const a1 = await newCR(alice, s.id, 'by alice 1');
        const a2 = await newCR(alice, s.id, 'by alice 2');
        const b1 = await newCR(bob, s.id, 'by bob');
        for (const cr of [a1, a2, b1]) await ok(alice.api.spaces.updateChangeRequestById(s.id, cr.id, { status: 'open' }), 'updateChangeRequestById');
        await content(bob, s.id, a2.id, [{ operation: 'insert_page', title: 'Bob in alice', document: { markdown: 'x' } }]);

        const list = async (query) => (await ok(alice.api.spaces.listChangeRequestsForSpace(s.id, query), 'listChangeRequestsForSpace')).items.map((x) => x.id).sort();
        assert.deepEqual(await list({ creator: bob.id }), [b1.id], 'only bob\'s change requests');
        assert.deepEqual(await list({ creator: alice.id }), [a1.id, a2.id].sort());
        assert.deepEqual(await list({ creator: carol.id }), []);
        assert.deepEqual(await list({ contributor: bob.id }), [a2.id]);
        assert.deepEqual(await list({ contributor: bob.id, creator: bob.id }), []);
        assert.deepEqual(await list({ contributor: bob.id, creator: alice.id }), [a2.id]);
        assert.deepEqual(await list({ creator: bob.id, status: 'draft' }), []);
        await ok(alice.api.spaces.updateChangeRequestById(s.id, b1.id, { status: 'archived' }), 'updateChangeRequestById');
        assert.deepEqual(await list({ creator: bob.id, status: 'archived' }), [b1.id]);
        await checkPagination((q) => alice.api.spaces.listChangeRequestsForSpace(s.id, { ...q, creator: alice.id }), 'listChangeRequestsForSpace');

        for (const q of ['creator=', 'contributor=', 'status=all', 'status=', 'limit=0', 'limit=x', 'page=garbage']) {
            const e = await expectError(raw(ctx.url, 'GET', `/v1/spaces/${s.id}/change-requests?${q}`, { token: alice.token }), 400, q);
            assert.match(e.error.message, new RegExp(q.split('=')[0]));
        }
    });

    it('getContributorsByChangeRequestId: editors with their number of edits, commenters, newest first', async () => {
        const s = await newSpace('Contributors');
        const cr = await newCR(alice, s.id, 'Team work');
        let contributors = await ok(alice.api.spaces.getContributorsByChangeRequestId(s.id, cr.id), 'getContributorsByChangeRequestId');
        assert.deepEqual(contributors.items, []);
        await content(alice, s.id, cr.id, [{ operation: 'insert_page', title: 'One', document: { markdown: '1' } }]);
        await content(alice, s.id, cr.id, [{ operation: 'insert_page', title: 'Two', document: { markdown: '2' } }]);
        // Timestamps are milliseconds: space the contributions so "newest first" has one answer.
        await sleep(5);
        await content(bob, s.id, cr.id, [{ operation: 'insert_page', title: 'Three', document: { markdown: '3' } }]);
        await sleep(5);
        const posted = await carol.api.spaces.postCommentInChangeRequest(s.id, cr.id, { body: { markdown: 'Nice' } });
        assert.equal(posted.status, 201);

        contributors = await ok(dave.api.spaces.getContributorsByChangeRequestId(s.id, String(cr.number)), 'getContributorsByChangeRequestId');
        const seen = contributors.items.map((c) => [c.user.id, c.actionType, c.count]);
        assert.deepEqual(seen, [[carol.id, 'comment', 1], [bob.id, 'edit', 1], [alice.id, 'edit', 2]]);
        for (let i = 1; i < contributors.items.length; i++)
            assert.ok(contributors.items[i - 1].updatedAt >= contributors.items[i].updatedAt, 'newest first');
        // GitBook's client sends no page or limit for this list; docsd pages it like every list.
        const walked = [];
        for (let page, i = 0; i < 10; i++) {
            const q = new URLSearchParams({ limit: '1', ...(page ? { page } : {}) });
            const body = (await rawOk(ctx.url, 'GET', `/v1/spaces/${s.id}/change-requests/${cr.id}/contributors?${q}`, { token: alice.token }, 'getContributorsByChangeRequestId')).json;
            assert.equal(body.items.length, 1);
            walked.push(...body.items);
            if (!(page = body.next?.page)) break;
        }
        assert.deepEqual(walked, contributors.items, 'walking with limit=1 gives the same items');
        await expectError(alice.api.spaces.getContributorsByChangeRequestId(s.id, 'nosuchcr'), 404);
        const outsider = await ctx.user('outsider');
        await expectError(outsider.api.spaces.getContributorsByChangeRequestId(s.id, cr.id), 404);
    });

    it('getChangeRequestChanges: pages created, edited, moved and deleted, files created, between the base and the head', async () => {
        const s = await newSpace('Changes');
        const seed = await newCR(alice, s.id, 'Seed');
        const r = await content(alice, s.id, seed.id, [
            { operation: 'insert_page', ref: 'a', title: 'Alpha', document: { markdown: 'alpha' } },
            { operation: 'insert_page', ref: 'b', title: 'Beta', document: { markdown: 'beta' } },
            { operation: 'insert_page', ref: 'c', title: 'Gamma', into: 'b', document: { markdown: 'gamma' } },
            { operation: 'insert_page', ref: 'd', title: 'Delta', document: { markdown: 'delta' } },
        ]);
        const id = Object.fromEntries(r.changes.map((c) => [c.ref, c.page.id]));
        assert.equal((await ok(alice.api.spaces.mergeChangeRequest(s.id, seed.id), 'mergeChangeRequest')).result, 'merge');

        const cr = await newCR(alice, s.id, 'Edits');
        let body = await changes(alice, s.id, cr.id);
        assert.deepEqual(body.changes, [], 'a new change request changes nothing');
        const r2 = await content(alice, s.id, cr.id, [
            { operation: 'update_page', page: id.a, title: 'Alpha 2', document: { markdown: 'alpha, edited' } },
            { operation: 'update_page', page: id.c, into: null },
            { operation: 'delete_page', page: id.d },
            { operation: 'insert_page', ref: 'e', title: 'Epsilon', into: id.b, document: { markdown: 'e' } },
            { operation: 'insert_files', files: [{ name: 'notes.txt', contentType: 'text/plain', base64: 'aGVsbG8=' }] },
        ]);
        const eId = r2.changes.find((c) => c.ref === 'e').page.id;
        const fileId = r2.insertedFiles[0].id;

        body = await changes(dave, s.id, cr.id, '?limit=100');
        const summary = body.changes.map((c) => `${c.type} ${(c.page ?? c.file).id}`).sort();
        assert.deepEqual(summary, [
            `file_created ${fileId}`,
            `page_created ${eId}`,
            `page_deleted ${id.d}`,
            `page_edited ${id.a}`,
            `page_moved ${id.c}`,
        ].sort(), 'Beta, which only got a child, and nothing else is listed');
        const edited = body.changes.find((c) => c.type === 'page_edited');
        assert.deepEqual(edited.attributes.title, { before: 'Alpha', after: 'Alpha 2' });
        assert.ok(edited.attributes.document.before && edited.attributes.document.after && edited.attributes.document.before !== edited.attributes.document.after);
        assert.equal(edited.attributes.slug, undefined, 'the slug did not change');
        assert.equal(edited.page.title, 'Alpha 2');
        const moved = body.changes.find((c) => c.type === 'page_moved');
        assert.equal(moved.parent.before.id, id.b);
        assert.equal(moved.parent.after, undefined, 'moved to the top level');
        assert.equal(body.changes.find((c) => c.type === 'page_deleted').page.title, 'Delta');
        const file = body.changes.find((c) => c.type === 'file_created').file;
        assert.equal(file.name, 'notes.txt');
        assert.equal(file.contentType, 'text/plain');
        assert.match(file.downloadURL, /^http/);
        assert.equal(body.more, 0);

        const limited = await changes(alice, s.id, String(cr.number), '?limit=2');
        assert.equal(limited.changes.length, 2);
        assert.equal(limited.more, 3);
        const dflt = await changes(alice, s.id, cr.id);
        assert.equal(dflt.changes.length, 5, 'GitBook\'s default limit is 10');
        for (const q of ['limit=0', 'limit=1001', 'limit=two'])
            await expectError(raw(ctx.url, 'GET', `/v1/spaces/${s.id}/change-requests/${cr.id}/changes?${q}`, { token: alice.token }), 400, q);
        await expectError(raw(ctx.url, 'GET', `/v1/spaces/${s.id}/change-requests/nosuch/changes`, { token: alice.token }), 404);

        // After a merge the base moved up: an update from the space keeps only the change request's own changes.
        const other = await newCR(alice, s.id, 'Other');
        await content(alice, s.id, other.id, [{ operation: 'insert_page', title: 'Zeta', document: { markdown: 'z' } }]);
        await ok(alice.api.spaces.mergeChangeRequest(s.id, other.id), 'mergeChangeRequest');
        await ok(alice.api.spaces.updateChangeRequest(s.id, cr.id), 'updateChangeRequest');
        const after = await changes(alice, s.id, cr.id, '?limit=100');
        assert.equal(after.changes.length, 5, 'Zeta, merged from the space, is not a change of this change request');
    });

    it('listChangeRequestsForOrganization: the change requests of the spaces the caller reads, with the same filters, paginated', async () => {
        const { org: o } = await createOrg(ctx.url, alice.token, `CR org ${ctx.run}`);
        await addMember(alice.api, o.id, bob.email, 'edit');
        await addMember(alice.api, o.id, dave.email, 'read');
        const open = await ok(alice.api.orgs.createSpace(o.id, { title: 'Open' }), 'createSpace', 201);
        const closed = await ok(alice.api.orgs.createSpace(o.id, { title: 'Closed' }), 'createSpace', 201);
        await ok(alice.api.spaces.updateSpaceById(closed.id, { defaultLevel: null }), 'updateSpaceById');
        const made = [];
        for (const [who, sp, subject] of [[alice, open, 'o1'], [bob, open, 'o2'], [alice, closed, 'c1'], [alice, open, 'o3']]) {
            const cr = await newCR(who, sp.id, subject);
            await ok(alice.api.spaces.updateChangeRequestById(sp.id, cr.id, { status: 'open' }), 'updateChangeRequestById');
            made.push(cr);
        }
        const subjects = async (who, query = {}) => (await ok(who.api.orgs.listChangeRequestsForOrganization(o.id, query), 'listChangeRequestsForOrganization')).items.map((x) => x.subject);
        assert.deepEqual(await subjects(alice), ['o3', 'c1', 'o2', 'o1'], 'an admin sees every space\'s, newest first');
        assert.deepEqual(await subjects(dave), ['o3', 'o2', 'o1'], 'a reader does not see those of a space closed to them');
        assert.deepEqual(await subjects(alice, { creator: bob.id }), ['o2']);
        assert.deepEqual(await subjects(alice, { status: 'draft' }), []);
        await content(bob, open.id, made[0].id, [{ operation: 'insert_page', title: 'P', document: { markdown: 'p' } }]);
        assert.deepEqual(await subjects(dave, { contributor: bob.id }), ['o1']);
        await ok(alice.api.spaces.updateChangeRequestById(open.id, made[3].id, { status: 'archived' }), 'updateChangeRequestById');
        assert.deepEqual(await subjects(dave, { status: 'archived' }), ['o3']);
        const items = (await ok(alice.api.orgs.listChangeRequestsForOrganization(o.id), 'listChangeRequestsForOrganization')).items;
        assert.equal(items.find((x) => x.subject === 'o1').space, open.id);
        await checkPagination((q) => dave.api.orgs.listChangeRequestsForOrganization(o.id, q), 'listChangeRequestsForOrganization');
        await checkPagination((q) => alice.api.orgs.listChangeRequestsForOrganization(o.id, q), 'listChangeRequestsForOrganization');
        // A deleted space's change requests leave the list.
        await raw(ctx.url, 'DELETE', `/v1/spaces/${closed.id}`, { token: alice.token });
        assert.deepEqual(await subjects(alice), ['o2', 'o1']);
        for (const q of ['creator=', 'status=merged2', 'limit=1001'])
            await expectError(raw(ctx.url, 'GET', `/v1/orgs/${o.id}/change-requests?${q}`, { token: alice.token }), 400, q);
        await expectError(carol.api.orgs.listChangeRequestsForOrganization(o.id), 404, 'a non-member');
    });
});
