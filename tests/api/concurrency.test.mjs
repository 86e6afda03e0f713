// Concurrent writes on one space or one change request (issue 9, part 2). On PostgreSQL (READ
// COMMITTED) every write that moves a pointer must lock the row it read or compare with it:
// every acknowledged change is present afterwards, and an operation that could not apply
// answers 409, never 200. SQLite serializes writers, so there the test checks the same
// outcomes with nothing to race.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { ok, raw, rawOk, createOrg, validate, validateError } from './lib/api.mjs';

const ROUNDS = 20;

describe('concurrent writes', () => {
    let ctx, alice, api, org;

    const newSpace = (title) => ok(api.orgs.createSpace(org.id, { title }), 'createSpace', 201);
    const newCR = (spaceId, subject) => ok(api.spaces.createChangeRequest(spaceId, { subject }), 'createChangeRequest', 201);
    const insertPage = (title) => ({ changes: [{ operation: 'insert_page', title, document: { markdown: `# ${title}\n` } }] });
    const content = (spaceId, crId, body) =>
        rawOk(ctx.url, 'POST', `/v1/spaces/${spaceId}/change-requests/${crId}/content`, { token: alice.token, json: body }, 'updateChangeRequestContent');
    const titles = async (spaceId) => (await ok(api.spaces.listPages(spaceId), 'listPages')).pages.map((p) => p.title);
    const crTitles = async (spaceId, crId) =>
        (await ok(api.spaces.listPagesInChangeRequest(spaceId, crId), 'listPagesInChangeRequest')).pages.map((p) => p.title);

    /** A write sent without waiting: resolves to {status, json}, the body checked against the
     * operation's schema (2xx) or the error envelope. Only 200 and 409 are acceptable answers. */
    async function send(method, path, operationId, json) {
        const r = await raw(ctx.url, method, path, { token: alice.token, json });
        assert.ok(r.status === 200 || r.status === 409, `${method} ${path}: expected 200 or 409, got ${r.status}: ${r.text}`);
        if (r.status === 200) validate(operationId, 200, r.json);
        else validateError(r.json, 409);
        return r;
    }
    const merge = (spaceId, crId) => send('POST', `/v1/spaces/${spaceId}/change-requests/${crId}/merge`, 'mergeChangeRequest', {});
    const batch = (spaceId, crId, body) =>
        send('POST', `/v1/spaces/${spaceId}/change-requests/${crId}/content`, 'updateChangeRequestContent', body);

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        api = alice.api;
        ({ org } = await createOrg(ctx.url, alice.token, `Concurrency ${ctx.run}`));
    });
    after(() => ctx?.server.stop());

    it(`two merges into one space at once: both pages land (${ROUNDS} rounds)`, async (t) => {
        const s = await newSpace('Two merges');
        const lost = [];
        let merged = 0, refused = 0;
        for (let i = 0; i < ROUNDS; i++) {
            const [a, b] = await Promise.all([newCR(s.id, `A${i}`), newCR(s.id, `B${i}`)]);
            await content(s.id, a.id, insertPage(`A${i}`));
            await content(s.id, b.id, insertPage(`B${i}`));
            const answers = await Promise.all([merge(s.id, a.id), merge(s.id, b.id)]);
            const have = await titles(s.id);
            answers.forEach((r, k) => {
                const title = `${k ? 'B' : 'A'}${i}`;
                if (r.status === 200) {
                    assert.equal(r.json.result, 'merge', `round ${i}: ${title} merged with conflicts: ${r.text}`);
                    merged++;
                    if (!have.includes(title)) lost.push(`round ${i}: ${title} answered merge but is not in the space`);
                } else {
                    refused++;
                    assert.ok(!have.includes(title), `round ${i}: ${title} answered 409 but is in the space`);
                }
            });
            // whatever answered merge is the space's revision or an ancestor of it: the last
            // merge that answered is the current revision when both did
            if (answers.every((r) => r.status === 200)) {
                const cur = (await ok(api.spaces.getSpaceById(s.id), 'getSpaceById')).revision;
                assert.ok(answers.some((r) => r.json.revision === cur), `round ${i}: the space's revision is neither merge's`);
            }
        }
        t.diagnostic(`${merged} merges answered merge, ${refused} answered 409, ${lost.length} lost`);
        assert.deepEqual(lost, [], `${lost.length} acknowledged merges lost (${merged} answered merge, ${refused} answered 409)`);
        assert.ok(merged >= ROUNDS, `at least one merge per round lands (${merged} of ${2 * ROUNDS})`);
        // the space's change request counts are recounted by every merge: still true
        const sp = await ok(api.spaces.getSpaceById(s.id), 'getSpaceById');
        assert.equal(sp.changeRequests, 2 * ROUNDS);
        assert.equal(sp.changeRequestsDraft, refused);
        assert.equal(sp.changeRequestsOpen, 0);
    });

    it(`one change request merged twice at once: one merge, one 409 (${ROUNDS} rounds)`, async () => {
        const s = await newSpace('Merged twice');
        const twice = [];
        for (let i = 0; i < ROUNDS; i++) {
            const cr = await newCR(s.id, `C${i}`);
            await content(s.id, cr.id, insertPage(`C${i}`));
            const answers = await Promise.all([merge(s.id, cr.id), merge(s.id, cr.id)]);
            const statuses = answers.map((r) => r.status).sort();
            if (statuses[0] === 200 && statuses[1] === 200) twice.push(`round ${i}`);
            else assert.deepEqual(statuses, [200, 409], `round ${i}: expected one merge and one 409`);
            const have = await titles(s.id);
            assert.equal(have.filter((t) => t === `C${i}`).length, 1, `round ${i}: the page is in the space once`);
            const done = await ok(api.spaces.getChangeRequestById(s.id, cr.id), 'getChangeRequestById');
            assert.equal(done.status, 'merged');
            assert.ok(answers.some((r) => r.status === 200 && r.json.revision === done.revisionMerged),
                `round ${i}: revisionMerged is the revision the merge answered`);
        }
        assert.deepEqual(twice, [], `${twice.length} of ${ROUNDS} change requests answered merge twice`);
        const sp = await ok(api.spaces.getSpaceById(s.id), 'getSpaceById');
        assert.equal(sp.changeRequests, ROUNDS);
        assert.equal(sp.changeRequestsDraft + sp.changeRequestsOpen, 0);
    });

    it(`two content batches into one change request at once: no acknowledged batch is lost (${ROUNDS} rounds)`, async (t) => {
        const s = await newSpace('Two batches');
        const lost = [];
        let applied = 0, refused = 0;
        for (let i = 0; i < ROUNDS; i++) {
            const cr = await newCR(s.id, `D${i}`);
            const names = [`D${i} first`, `D${i} second`];
            const answers = await Promise.all(names.map((t) => batch(s.id, cr.id, insertPage(t))));
            const have = await crTitles(s.id, cr.id);
            answers.forEach((r, k) => {
                if (r.status === 200) {
                    applied++;
                    if (!have.includes(names[k])) lost.push(`round ${i}: "${names[k]}" answered 200 but is not in the change request`);
                } else {
                    refused++;
                    assert.ok(!have.includes(names[k]), `round ${i}: "${names[k]}" answered 409 but is in the change request`);
                }
            });
            const head = await ok(api.spaces.getChangeRequestById(s.id, cr.id), 'getChangeRequestById');
            assert.ok(answers.some((r) => r.status === 200 && r.json.revision === head.revision),
                `round ${i}: the change request's head is what one batch answered`);
        }
        t.diagnostic(`${applied} batches answered 200, ${refused} answered 409, ${lost.length} lost`);
        assert.deepEqual(lost, [], `${lost.length} acknowledged batches lost (${applied} answered 200, ${refused} answered 409)`);
    });
    it(`two settings changes of one space at once: both stay (${ROUNDS} rounds)`, async () => {
        const s = await newSpace('Settings');
        const lost = [];
        for (let i = 0; i < ROUNDS; i++) {
            const title = `Settings ${i}`, emoji = i % 2 ? '1f600' : '1f680';
            const answers = await Promise.all([
                send('PATCH', `/v1/spaces/${s.id}`, 'updateSpaceById', { title }),
                send('PATCH', `/v1/spaces/${s.id}`, 'updateSpaceById', { emoji }),
            ]);
            const now = await ok(api.spaces.getSpaceById(s.id), 'getSpaceById');
            if (answers[0].status === 200 && now.title !== title) lost.push(`round ${i}: title`);
            if (answers[1].status === 200 && now.emoji !== emoji) lost.push(`round ${i}: emoji`);
        }
        assert.deepEqual(lost, [], `${lost.length} acknowledged settings lost`);
    });

    it(`two settings changes of one organization at once: both stay (${ROUNDS} rounds)`, async () => {
        const lost = [];
        for (let i = 0; i < ROUNDS; i++) {
            const title = `Concurrency ${ctx.run} ${i}`, logo = `https://example.com/logo-${i}.png`;
            const answers = await Promise.all([
                send('PATCH', `/v1/orgs/${org.id}`, 'updateOrganizationById', { title }),
                send('PATCH', `/v1/orgs/${org.id}`, 'updateOrganizationById', { logo }),
            ]);
            const now = await ok(api.orgs.getOrganizationById(org.id), 'getOrganizationById');
            if (answers[0].status === 200 && now.title !== title) lost.push(`round ${i}: title`);
            if (answers[1].status === 200 && now.urls.logo !== logo) lost.push(`round ${i}: logo`);
        }
        assert.deepEqual(lost, [], `${lost.length} acknowledged settings lost`);
    });

    it(`two changes of one SAML provider at once: both stay (${ROUNDS} rounds)`, async () => {
        const sp = await ok(api.orgs.createOrganizationSamlProvider(org.id, { label: 'Race' }), 'createOrganizationSAMLProvider', 201);
        const lost = [];
        for (let i = 0; i < ROUNDS; i++) {
            const label = `Race ${i}`, entityID = `https://idp.example.com/${i}`;
            const answers = await Promise.all([
                send('PATCH', `/v1/orgs/${org.id}/saml/${sp.id}`, 'updateOrganizationSAMLProvider', { label }),
                send('PATCH', `/v1/orgs/${org.id}/saml/${sp.id}`, 'updateOrganizationSAMLProvider', { entityID }),
            ]);
            const now = await ok(api.orgs.getOrganizationSamlProviderById(org.id, sp.id), 'getOrganizationSAMLProviderById');
            if (answers[0].status === 200 && now.label !== label) lost.push(`round ${i}: label`);
            if (answers[1].status === 200 && now.entityID !== entityID) lost.push(`round ${i}: entityID`);
        }
        assert.deepEqual(lost, [], `${lost.length} acknowledged settings lost`);
    });
});
