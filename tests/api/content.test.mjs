// Content: revisions, pages and files read from the space, a change request or any revision;
// content changes through change requests (updateChangeRequestContent); change requests with
// merge and update (three-way merges, conflicts); links and backlinks; templates; PDFs.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { setup } from './lib/fixtures.mjs';
import { ok, empty, expectError, raw, rawOk, createOrg, addMember, validate, sleep } from './lib/api.mjs';

// A 2x2 PNG (red, green, blue, white).
const PNG_B64 =
    'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==';

describe('content', () => {
    let ctx, alice, bob, api, org, space;

    const content = async (spaceId, crId, body, query = '') =>
        (await rawOk(ctx.url, 'POST', `/v1/spaces/${spaceId}/change-requests/${crId}/content${query}`, { token: alice.token, json: body }, 'updateChangeRequestContent')).json;
    /** compat=false: the change request, the affected pages and the inserted files. */
    const contentFull = async (spaceId, crId, body) => {
        const res = (await rawOk(ctx.url, 'POST', `/v1/spaces/${spaceId}/change-requests/${crId}/content?compat=false`, { token: alice.token, json: body })).json;
        validate('updateChangeRequestContent', 200, res.changeRequest);
        for (const f of res.insertedFiles) validate('getFileById', 200, f);
        return res;
    };
    const newCR = (spaceId, subject = 'Edit', who = api) => ok(who.spaces.createChangeRequest(spaceId, { subject }), 'createChangeRequest', 201);
    const merge = (spaceId, crId) => ok(api.spaces.mergeChangeRequest(spaceId, crId), 'mergeChangeRequest');
    const update = (spaceId, crId) => ok(api.spaces.updateChangeRequest(spaceId, crId), 'updateChangeRequest');
    const pages = async (spaceId) => (await ok(api.spaces.listPages(spaceId), 'listPages')).pages;
    const page = (spaceId, pageId, query = {}) => ok(api.spaces.getPageById(spaceId, pageId, query), 'getPageById');
    const crPage = (spaceId, crId, pageId) => ok(api.spaces.getPageInChangeRequestById(spaceId, crId, pageId, { format: 'markdown' }), 'getPageInChangeRequestById');
    const getSpace = (id) => ok(api.spaces.getSpaceById(id), 'getSpaceById');

    /** A space whose content is the given pages (merged through one change request). */
    async function seeded(title, changes) {
        const s = await ok(api.orgs.createSpace(org.id, { title }), 'createSpace', 201);
        const cr = await newCR(s.id, 'Seed');
        await content(s.id, cr.id, { changes });
        const m = await merge(s.id, cr.id);
        assert.equal(m.result, 'merge');
        return { space: await getSpace(s.id), pages: await pages(s.id) };
    }

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        api = alice.api;
        ({ org } = await createOrg(ctx.url, alice.token, `Content ${ctx.run}`));
        await addMember(api, org.id, bob.email, 'read');
        space = await ok(api.orgs.createSpace(org.id, { title: 'Docs' }), 'createSpace', 201);
    });
    after(() => ctx?.server.stop());

    it('a new space has an empty revision that can be read every way', async () => {
        const rev = await ok(api.spaces.getCurrentRevision(space.id), 'getCurrentRevision');
        assert.equal(rev.object, 'revision');
        assert.equal(rev.id, space.revision);
        assert.deepEqual(rev.pages, []);
        assert.deepEqual(rev.files, []);
        const byId = await ok(api.spaces.getRevisionById(space.id, space.revision), 'getRevisionById');
        assert.equal(byId.id, space.revision);
        assert.deepEqual(await pages(space.id), []);
        const files = await ok(api.spaces.listFiles(space.id), 'listFiles');
        assert.equal(files.count, 0);
        await expectError(api.spaces.getPageById(space.id, 'nosuchpage'), 404);
        await expectError(api.spaces.getRevisionById(space.id, 'nosuchrevision'), 404);
    });

    it('change requests: create, number, list by status, get by id and number, patch', async () => {
        const a = await newCR(space.id, 'First');
        const b = await newCR(space.id, 'Second');
        assert.equal(a.object, 'change-request');
        assert.equal(b.number, a.number + 1);
        assert.equal(a.status, 'draft');
        assert.equal(a.revisionInitial, space.revision);
        assert.equal(a.revision, space.revision);
        assert.equal(a.outdated, false);
        assert.equal(a.createdBy.id, alice.id);
        const byNumber = await ok(api.spaces.getChangeRequestById(space.id, String(a.number)), 'getChangeRequestById');
        assert.equal(byNumber.id, a.id);
        // default filter is open: drafts are not listed until opened
        let open = await ok(api.spaces.listChangeRequestsForSpace(space.id), 'listChangeRequestsForSpace');
        assert.ok(!open.items.some((c) => c.id === a.id));
        const opened = await ok(api.spaces.updateChangeRequestById(space.id, a.id, { status: 'open', subject: 'First, open' }), 'updateChangeRequestById');
        assert.equal(opened.status, 'open');
        assert.equal(opened.subject, 'First, open');
        open = await ok(api.spaces.listChangeRequestsForSpace(space.id), 'listChangeRequestsForSpace');
        assert.deepEqual(open.items.map((c) => c.id), [a.id]);
        const drafts = await ok(api.spaces.listChangeRequestsForSpace(space.id, { status: 'draft' }), 'listChangeRequestsForSpace');
        assert.ok(drafts.items.some((c) => c.id === b.id));
        let s = await getSpace(space.id);
        assert.equal(s.changeRequestsOpen, 1);
        assert.equal(s.changeRequestsDraft, 1);
        assert.equal(s.changeRequests, 2);
        await expectError(api.spaces.updateChangeRequestById(space.id, a.id, { subject: 'x'.repeat(101) }), 400);
        await expectError(api.spaces.updateChangeRequestById(space.id, a.id, { status: 'merged' }), 400);
        await expectError(api.spaces.updateChangeRequestById(space.id, a.id, { status: 'bogus' }), 400);
        await ok(api.spaces.updateChangeRequestById(space.id, b.id, { status: 'archived' }), 'updateChangeRequestById');
        s = await getSpace(space.id);
        assert.equal(s.changeRequestsDraft, 0);
        await expectError(api.spaces.getChangeRequestById(space.id, 'nosuchchangerequest'), 404);
        // a reader cannot create one
        await expectError(bob.api.spaces.createChangeRequest(space.id, { subject: 'no' }), 403);
        // contributor filter: nobody contributed content yet
        const none = await ok(api.spaces.listChangeRequestsForSpace(space.id, { status: 'open', contributor: alice.id }), 'listChangeRequestsForSpace');
        assert.equal(none.count, 0);
    });

    it('content changes: insert, update, move, delete, revert, applied atomically; merge makes the space revision', async () => {
        const s = await ok(api.orgs.createSpace(org.id, { title: 'Handbook' }), 'createSpace', 201);
        const cr = await newCR(s.id, 'Write');
        const res = await contentFull(s.id, cr.id, {
                changes: [
                    { operation: 'insert_page', title: 'Getting started', ref: 'start', document: { markdown: '# Getting started\n\nHello [guide](./guide.md).\n' } },
                    { operation: 'insert_page', ref: 'guide', document: { markdown: '# The guide\n\nBack to [start](./start.md) and [out](https://example.org).\n' } },
                    { operation: 'insert_page', title: 'Child', into: 'start', document: { markdown: 'Child body\n' } },
                ],
        });
        assert.equal(res.changeRequest.id, cr.id);
        assert.equal(res.changes.length, 3);
        assert.ok(res.changes.every((c) => c.object === 'created_page' && c.page.urls.location));
        const ids = res.changes.map((c) => c.page.id);
        // CR head has the pages; the space does not until merged
        const crPages = (await ok(api.spaces.listPagesInChangeRequest(s.id, cr.id), 'listPagesInChangeRequest')).pages;
        assert.deepEqual(crPages.map((p) => p.title), ['Getting started', 'The guide']);
        assert.equal(crPages[0].pages[0].title, 'Child');
        assert.equal(crPages[0].pages[0].path, 'getting-started/child');
        assert.deepEqual(await pages(s.id), []);
        const start = await crPage(s.id, cr.id, ids[0]);
        assert.match(start.markdown, new RegExp(`\\(/pages/${ids[1]}\\)`), 'ref link resolved to the page id');
        assert.equal(start.slug, 'getting-started');
        // contributor is now alice
        await ok(api.spaces.updateChangeRequestById(s.id, cr.id, { status: 'open' }), 'updateChangeRequestById');
        const mine = await ok(api.spaces.listChangeRequestsForSpace(s.id, { contributor: alice.id }), 'listChangeRequestsForSpace');
        assert.deepEqual(mine.items.map((c) => c.id), [cr.id]);

        // a bad change anywhere rejects the whole batch, naming it
        const before = (await ok(api.spaces.getChangeRequestById(s.id, cr.id), 'getChangeRequestById')).revision;
        const bad = await expectError(
            raw(ctx.url, 'POST', `/v1/spaces/${s.id}/change-requests/${cr.id}/content`, {
                token: alice.token,
                json: { changes: [{ operation: 'insert_page', title: 'Fine', document: { markdown: 'ok' } }, { operation: 'delete_page', page: 'nosuchpage' }] },
            }),
            400,
        );
        assert.match(bad.error.message, /changes\[1\]\.page/);
        assert.equal((await ok(api.spaces.getChangeRequestById(s.id, cr.id), 'getChangeRequestById')).revision, before);
        for (const body of [{}, { changes: [] }, { changes: [{ operation: 'nope' }] }, { changes: Array(51).fill({ operation: 'delete_page', page: ids[2] }) },
            { changes: [{ operation: 'insert_page', title: 'x' }] }, { changes: [{ operation: 'update_page', page: ids[0], into: ids[2] }] },
            { changes: [{ operation: 'insert_page', title: 'Dup', slug: 'getting-started', document: { markdown: '' } }] }]) {
            await expectError(raw(ctx.url, 'POST', `/v1/spaces/${s.id}/change-requests/${cr.id}/content`, { token: alice.token, json: body }), 400, JSON.stringify(body).slice(0, 80));
        }

        // update (title, slug, document, move) then merge
        await content(s.id, cr.id, {
            changes: [
                { operation: 'update_page', page: ids[1], title: 'Guide', slug: 'guide', emoji: '📘', hidden: true, document: { markdown: '# Guide\n\nNew text.\n' } },
                { operation: 'update_page', page: ids[2], into: null, at: 0 },
            ],
        });
        const cur = (await ok(api.spaces.listPagesInChangeRequest(s.id, cr.id), 'listPagesInChangeRequest')).pages;
        assert.deepEqual(cur.map((p) => p.title), ['Child', 'Getting started', 'Guide']);
        const guide = cur[2];
        assert.equal(guide.slug, 'guide');
        assert.equal(guide.emoji, '📘');
        assert.equal(guide.hidden, true);
        const m = await merge(s.id, cr.id);
        assert.equal(m.result, 'merge');
        const merged = await getSpace(s.id);
        assert.equal(merged.revision, m.revision);
        const after = await ok(api.spaces.getChangeRequestById(s.id, cr.id), 'getChangeRequestById');
        assert.equal(after.status, 'merged');
        assert.equal(after.revisionMerged, m.revision);
        assert.equal(merged.changeRequestsOpen, 0);
        const rev = await ok(api.spaces.getCurrentRevision(s.id), 'getCurrentRevision');
        assert.equal(rev.type, 'merge');
        assert.equal(rev.mergedFrom.id, cr.id);
        assert.deepEqual((await pages(s.id)).map((p) => p.title), ['Child', 'Getting started', 'Guide']);
        // page reads: markdown and document formats, by path, in the old revision
        const md = await page(s.id, ids[1], { format: 'markdown' });
        assert.equal(md.markdown, '# Guide\n\nNew text.\n');
        const doc = await page(s.id, ids[1], { format: 'document' });
        assert.equal(doc.document.object, 'document');
        assert.ok(doc.document.nodes.some((n) => n.type === 'heading-1'));
        const byPath = await ok(api.spaces.getPageByPath(s.id, 'guide'), 'getPageByPath');
        assert.equal(byPath.id, ids[1]);
        await expectError(api.spaces.getPageByPath(s.id, 'nope/nothing'), 404);
        const old = await ok(api.spaces.getPageInRevisionById(s.id, cr.revisionInitial, ids[1]).catch((e) => e), 'getPageInRevisionById').catch(() => null);
        assert.equal(old, null, 'the page did not exist in the initial revision');
        await expectError(api.spaces.getPageInRevisionById(s.id, cr.revisionInitial, ids[1]), 404);
        // merging again, or merging an archived one, is refused
        await expectError(api.spaces.mergeChangeRequest(s.id, cr.id), 409);
        const arch = await newCR(s.id, 'Archived');
        await ok(api.spaces.updateChangeRequestById(s.id, arch.id, { status: 'archived' }), 'updateChangeRequestById');
        await expectError(api.spaces.mergeChangeRequest(s.id, arch.id), 409);
        await expectError(api.spaces.updateChangeRequestById(s.id, cr.id, { status: 'open' }), 409);

        // revert_page: back to the change request's base; delete
        const cr2 = await newCR(s.id, 'Revert');
        await content(s.id, cr2.id, { changes: [{ operation: 'update_page', page: ids[1], document: { markdown: 'changed' } }] });
        assert.equal((await crPage(s.id, cr2.id, ids[1])).markdown, 'changed');
        await content(s.id, cr2.id, { changes: [{ operation: 'revert_page', page: ids[1] }, { operation: 'delete_page', page: ids[0] }] });
        assert.equal((await crPage(s.id, cr2.id, ids[1])).markdown, '# Guide\n\nNew text.\n');
        await expectError(api.spaces.getPageInChangeRequestById(s.id, cr2.id, ids[0]), 404);
    });

    it('merge and update are three-way merges; conflicts change nothing and lose nothing', async () => {
        const { space: s, pages: ps } = await seeded('Merging', [
            { operation: 'insert_page', title: 'Alpha', document: { markdown: 'line 1\nline 2\nline 3\nline 4\nline 5\n' } },
            { operation: 'insert_page', title: 'Beta', document: { markdown: 'beta\n' } },
        ]);
        const [alpha, beta] = ps.map((p) => p.id);
        // two change requests editing different pages both merge
        const a = await newCR(s.id, 'A');
        const b = await newCR(s.id, 'B');
        await content(s.id, a.id, { changes: [{ operation: 'update_page', page: alpha, document: { markdown: 'line 1 (a)\nline 2\nline 3\nline 4\nline 5\n' } }] });
        await content(s.id, b.id, { changes: [{ operation: 'update_page', page: beta, document: { markdown: 'beta (b)\n' } }] });
        assert.equal((await merge(s.id, a.id)).result, 'merge');
        const bNow = await ok(api.spaces.getChangeRequestById(s.id, b.id), 'getChangeRequestById');
        assert.equal(bNow.outdated, true, 'the space moved past b');
        assert.equal((await merge(s.id, b.id)).result, 'merge');
        assert.equal((await page(s.id, alpha, { format: 'markdown' })).markdown, 'line 1 (a)\nline 2\nline 3\nline 4\nline 5\n');
        assert.equal((await page(s.id, beta, { format: 'markdown' })).markdown, 'beta (b)\n');

        // same page, different lines: merged by lines
        const c = await newCR(s.id, 'C');
        const d = await newCR(s.id, 'D');
        await content(s.id, c.id, { changes: [{ operation: 'update_page', page: alpha, document: { markdown: 'line 1 (a)\nline 2\nline 3\nline 4\nline 5 (c)\n' } }] });
        await content(s.id, d.id, { changes: [{ operation: 'update_page', page: alpha, document: { markdown: 'line 1 (a)\nline 2 (d)\nline 3\nline 4\nline 5\n' } }] });
        await merge(s.id, c.id);
        assert.equal((await merge(s.id, d.id)).result, 'merge');
        assert.equal((await page(s.id, alpha, { format: 'markdown' })).markdown, 'line 1 (a)\nline 2 (d)\nline 3\nline 4\nline 5 (c)\n');

        // the same line edited in both: conflicts, nothing changes, both sides readable
        const e = await newCR(s.id, 'E');
        const f = await newCR(s.id, 'F');
        await content(s.id, e.id, { changes: [{ operation: 'update_page', page: beta, document: { markdown: 'beta (e)\n' } }] });
        await content(s.id, f.id, { changes: [{ operation: 'update_page', page: beta, document: { markdown: 'beta (f)\n' } }] });
        await merge(s.id, e.id);
        const spaceRev = (await getSpace(s.id)).revision;
        const fBefore = await ok(api.spaces.getChangeRequestById(s.id, f.id), 'getChangeRequestById');
        const conflict = await merge(s.id, f.id);
        assert.equal(conflict.result, 'conflicts');
        assert.ok(conflict.conflicts.some((x) => x.page === beta));
        assert.equal((await getSpace(s.id)).revision, spaceRev, 'the space did not change');
        const fAfter = await ok(api.spaces.getChangeRequestById(s.id, f.id), 'getChangeRequestById');
        assert.equal(fAfter.status, fBefore.status);
        assert.equal(fAfter.revision, fBefore.revision);
        assert.equal((await crPage(s.id, f.id, beta)).markdown, 'beta (f)\n');
        assert.equal((await page(s.id, beta, { format: 'markdown' })).markdown, 'beta (e)\n');
        // update has the same conflict
        assert.equal((await update(s.id, f.id)).result, 'conflicts');

        // insert under a page in one, delete that page in the other: conflict
        const g = await newCR(s.id, 'G');
        const h = await newCR(s.id, 'H');
        await content(s.id, g.id, { changes: [{ operation: 'insert_page', title: 'Under beta', into: beta, document: { markdown: 'x' } }] });
        await content(s.id, h.id, { changes: [{ operation: 'delete_page', page: beta }] });
        await merge(s.id, h.id);
        const gi = await merge(s.id, g.id);
        assert.equal(gi.result, 'conflicts');
        assert.ok((await ok(api.spaces.listPagesInChangeRequest(s.id, g.id), 'listPagesInChangeRequest')).pages.some((p) => p.id === beta));

        // update then merge
        const i = await newCR(s.id, 'I');
        await content(s.id, i.id, { changes: [{ operation: 'insert_page', title: 'Gamma', document: { markdown: 'gamma' } }] });
        const j = await newCR(s.id, 'J');
        await content(s.id, j.id, { changes: [{ operation: 'update_page', page: alpha, title: 'Alpha 2' }] });
        await merge(s.id, j.id);
        let iNow = await ok(api.spaces.getChangeRequestById(s.id, i.id), 'getChangeRequestById');
        assert.equal(iNow.outdated, true);
        const u = await update(s.id, i.id);
        assert.equal(u.result, 'update');
        iNow = await ok(api.spaces.getChangeRequestById(s.id, i.id), 'getChangeRequestById');
        assert.equal(iNow.outdated, false);
        assert.equal(iNow.revisionMergedAncestor, (await getSpace(s.id)).revision);
        assert.equal(iNow.revision, u.revision);
        const iPages = (await ok(api.spaces.listPagesInChangeRequest(s.id, i.id), 'listPagesInChangeRequest')).pages;
        assert.ok(iPages.some((p) => p.title === 'Alpha 2') && iPages.some((p) => p.title === 'Gamma'));
        assert.equal((await merge(s.id, i.id)).result, 'merge');
        assert.deepEqual((await pages(s.id)).map((p) => p.title).sort(), ['Alpha 2', 'Gamma']);
    });

    it('files: base64 and url (private addresses refused), refs from pages, download, dimensions', async () => {
        const s = await ok(api.orgs.createSpace(org.id, { title: 'Files' }), 'createSpace', 201);
        const cr = await newCR(s.id, 'Files');
        const srv = createServer((req, res) => {
            res.writeHead(200, { 'Content-Type': 'image/png' });
            res.end(Buffer.from(PNG_B64, 'base64'));
        });
        await new Promise((r) => srv.listen(0, '127.0.0.1', r));
        const url = `http://127.0.0.1:${srv.address().port}/logo.png`;
        try {
            // Refused, without saying what the name resolved to (no DNS oracle for internal names).
            for (const u of [url, `http://localhost:${srv.address().port}/logo.png`, `http://[::1]:${srv.address().port}/x`]) {
                const refused = await expectError(
                    raw(ctx.url, 'POST', `/v1/spaces/${s.id}/change-requests/${cr.id}/content`, {
                        token: alice.token,
                        json: { changes: [{ operation: 'insert_page', title: 'P', document: { markdown: 'x' } }, { operation: 'insert_files', files: [{ name: 'a.png', contentType: 'image/png', base64: PNG_B64 }, { name: 'a.png', url: u }] }] },
                    }),
                    400,
                    u,
                );
                assert.equal(refused.error.message, "changes[1].files[1].url: the URL's host is not allowed (private, loopback or reserved address)");
                assert.doesNotMatch(refused.error.message, /127\.0\.0\.1|::1|address [0-9a-f:.]+/);
            }
        } finally {
            srv.close();
        }
        const res = await contentFull(s.id, cr.id, {
                changes: [
                    { operation: 'insert_page', title: 'With logo', document: { markdown: '# With logo\n\n![Logo](./logo)\n' } },
                    { operation: 'insert_files', files: [{ ref: 'logo', name: 'logo.png', contentType: 'image/png', base64: PNG_B64 }] },
                ],
        });
        assert.equal(res.insertedFiles.length, 1);
        const file = res.insertedFiles[0];
        assert.equal(file.name, 'logo.png');
        assert.equal(file.size, Buffer.from(PNG_B64, 'base64').length);
        assert.deepEqual(file.dimensions, { width: 2, height: 2 });
        const pg = await crPage(s.id, cr.id, res.changes[0].page.id);
        assert.match(pg.markdown, new RegExp(`/files/${file.id}`));
        const dl = await fetch(file.downloadURL);
        assert.equal(dl.status, 200);
        assert.equal(dl.headers.get('content-type'), 'image/png');
        assert.deepEqual(Buffer.from(await dl.arrayBuffer()), Buffer.from(PNG_B64, 'base64'));
        const forged = await fetch(file.downloadURL.replace(/\.[0-9a-f]+$/, '.00000000000000000000000000000000'));
        assert.equal(forged.status, 404);
        await expectError(
            raw(ctx.url, 'POST', `/v1/spaces/${s.id}/change-requests/${cr.id}/content`, {
                token: alice.token,
                json: { changes: [{ operation: 'insert_files', files: [{ name: 'x.bin', contentType: 'application/octet-stream', base64: 'A'.repeat(1400000) }] }] },
            }),
            400,
        );
        await merge(s.id, cr.id);
        const files = await ok(api.spaces.listFiles(s.id), 'listFiles');
        assert.equal(files.count, 1);
        const one = await ok(api.spaces.getFileById(s.id, file.id), 'getFileById');
        assert.equal(one.id, file.id);
        const back = await ok(api.spaces.listSpaceFileBacklinks(s.id, file.id), 'listSpaceFileBacklinks');
        assert.equal(back.items.length, 1);
        assert.equal(back.items[0].page.id, res.changes[0].page.id);
    });

    it('files: contentType must be a media type (400 naming the field), stored as given', async () => {
        const s = await ok(api.orgs.createSpace(org.id, { title: 'Types' }), 'createSpace', 201);
        const cr = await newCR(s.id, 'Types');
        const post = (files) =>
            raw(ctx.url, 'POST', `/v1/spaces/${s.id}/change-requests/${cr.id}/content`, {
                token: alice.token,
                json: { changes: [{ operation: 'insert_page', title: 'T', document: { markdown: 'x' } }, { operation: 'insert_files', files }] },
            });
        const file = (contentType) => ({ name: 'f.bin', contentType, base64: 'aGVsbG8=' });
        const bad = ['text/html\r\nX-Injected: 1', 'text/html\nX: 1', 'text', 'text/', '/html', 'text/html ', 'text /html', 'text/html;', 'text/html; charset', 'text/h\u00e9', 'a/' + 'b'.repeat(126), 'image/png\u0007'];
        for (const ct of bad) {
            const e = await expectError(post([file('image/png'), file(ct)]), 400, JSON.stringify(ct));
            assert.match(e.error.message, /^changes\[1\]\.files\[1\]\.contentType: must be a media type/, JSON.stringify(ct));
        }
        const none = await expectError(post([{ name: 'f.bin', base64: 'aGVsbG8=' }]), 400, 'base64 without contentType');
        assert.equal(none.error.message, 'changes[1].files[0].contentType: required with base64');
        // nothing was written by the refused batches
        assert.equal((await ok(api.spaces.listFilesInChangeRequestById(s.id, cr.id), 'listFilesInChangeRequestById')).items.length, 0);
        const good = ['text/plain; charset=utf-8', 'application/vnd.api+json', 'image/svg+xml', 'a/' + 'b'.repeat(125)];
        const res = await contentFull(s.id, cr.id, {
            changes: [{ operation: 'insert_files', files: good.map((ct, i) => ({ name: `f${i}`, contentType: ct, base64: 'aGVsbG8=' })) }],
        });
        assert.deepEqual(res.insertedFiles.map((f) => f.contentType), good);
    });

    it('page emoji: one emoji (characters or hex code points), else 400 naming changes[i].emoji', async () => {
        const s = await ok(api.orgs.createSpace(org.id, { title: 'Page emoji' }), 'createSpace', 201);
        const cr = await newCR(s.id, 'Emoji');
        const post = (changes) => raw(ctx.url, 'POST', `/v1/spaces/${s.id}/change-requests/${cr.id}/content`, { token: alice.token, json: { changes } });
        for (const emoji of ['x', 'hello', '📘📘', '1f4d8-', 'text/html\r\n', '<b>']) {
            const e = await expectError(post([{ operation: 'insert_page', title: 'A', document: { markdown: 'a' } }, { operation: 'insert_page', title: 'B', emoji, document: { markdown: 'b' } }]), 400, JSON.stringify(emoji));
            assert.match(e.error.message, /^changes\[1\]\.emoji: must be one emoji/, JSON.stringify(emoji));
        }
        const fm = await expectError(post([{ operation: 'insert_page', title: 'F', document: { markdown: '---\nemoji: nope\n---\n# F\n' } }]), 400, 'frontmatter emoji');
        assert.match(fm.error.message, /^changes\[0\]\.document\.markdown: frontmatter emoji: must be one emoji/);
        // Malformed YAML in the frontmatter is refused with its line, not stored as text.
        const yml = await expectError(post([{ operation: 'insert_page', title: 'Y', document: { markdown: '---\ntitle: [unclosed\n---\n# Y\n' } }]), 400, 'frontmatter yaml');
        assert.match(yml.error.message, /^changes\[0\]\.document\.markdown: frontmatter: line \d+/);
        const res = await contentFull(s.id, cr.id, {
            changes: [
                { operation: 'insert_page', title: 'Chars', emoji: '👩‍💻', document: { markdown: 'a' } },
                { operation: 'insert_page', title: 'Hex', emoji: '1f4d8', document: { markdown: 'b' } },
                { operation: 'insert_page', title: 'Front', document: { markdown: "---\nemoji: '1f600'\n---\n# Front\n" } },
            ],
        });
        const ids = res.changes.map((c) => c.page.id);
        assert.equal((await crPage(s.id, cr.id, ids[0])).emoji, '👩‍💻');
        assert.equal((await crPage(s.id, cr.id, ids[1])).emoji, '1f4d8');
        assert.equal((await crPage(s.id, cr.id, ids[2])).emoji, '1f600');
        const upd = await expectError(post([{ operation: 'update_page', page: ids[0], emoji: 'nope' }]), 400, 'update_page emoji');
        assert.match(upd.error.message, /^changes\[0\]\.emoji: must be one emoji/);
        assert.equal((await crPage(s.id, cr.id, ids[0])).emoji, '👩‍💻', 'the refused batch changed nothing');
        await content(s.id, cr.id, { changes: [{ operation: 'update_page', page: ids[0], emoji: '' }] });
        assert.equal((await crPage(s.id, cr.id, ids[0])).emoji, undefined, '"" removes it');
    });

    it('links, backlinks and the space link stats', async () => {
        const { space: s, pages: ps } = await seeded('Links', [
            { operation: 'insert_page', title: 'Home', ref: 'home', document: { markdown: '# Home\n\n[Setup](./setup.md), [gone](/pages/nosuchpage), [web](https://example.org), [app](http://127.0.0.1:1/x)\n' } },
            { operation: 'insert_page', title: 'Setup', ref: 'setup', document: { markdown: '# Setup\n\n[Home](./home.md)\n' } },
        ]);
        const [home, setup] = ps.map((p) => p.id);
        const links = await ok(api.spaces.listPageLinksInSpace(s.id, home), 'listPageLinksInSpace');
        assert.equal(links.stats.total, 4);
        assert.equal(links.stats.broken.total, 1);
        const statuses = links.items.map((l) => l.status).sort();
        assert.deepEqual(statuses, ['broken', 'ok', 'ok', 'ok']);
        const broken = await ok(api.spaces.listPageLinksInSpace(s.id, home, { status: 'broken' }), 'listPageLinksInSpace');
        assert.equal(broken.items.length, 1);
        const back = await ok(api.spaces.listSpacePageBacklinks(s.id, setup), 'listSpacePageBacklinks');
        assert.deepEqual(back.items.map((l) => l.page.id), [home]);
        const all = await ok(api.spaces.listSpaceLinks(s.id), 'listSpaceLinks');
        assert.equal(all.stats.total, 5);
        assert.equal(all.stats.broken.total, 1);
    });

    it('templates create starter pages; unknown ids are 400', async () => {
        for (const id of ['blank', 'product-docs', 'api-reference', 'knowledge-base', 'changelog']) {
            const s = await ok(api.orgs.createSpace(org.id, { title: `T ${id}` }), 'createSpace', 201);
            await empty(api.spaces.applyTemplateToSpace(s.id, { id }), 201, id);
            const ps = await pages(s.id);
            assert.ok(ps.length >= 1, id);
            const first = await page(s.id, ps[0].id, { format: 'markdown' });
            assert.ok(first.markdown.length > 10, id);
        }
        const s = await ok(api.orgs.createSpace(org.id, { title: 'T bad' }), 'createSpace', 201);
        await expectError(api.spaces.applyTemplateToSpace(s.id, { id: 'nope' }), 400);
        await expectError(api.spaces.applyTemplateToSpace(s.id, { id: 'blank', params: { contentRefs: { logo: { kind: 'file', file: 'nosuchfile' } } } }), 400);
        await expectError(bob.api.spaces.applyTemplateToSpace(s.id, { id: 'blank' }), 403);
    });

    it('a list of many comments on pages reads each revision once (no per-item revision holds)', async () => {
        const { space: s, pages: ps } = await seeded('Commented', [{ operation: 'insert_page', title: 'Target', document: { markdown: 'text' } }]);
        for (let i = 0; i < 25; i++) {
            // GitBook's document says 200; docsd answers 201 (the seed)
            const r = await raw(ctx.url, 'POST', `/v1/spaces/${s.id}/comments`, { token: alice.token, json: { page: ps[0].id, body: { markdown: `comment ${i}` } } });
            assert.equal(r.status, 201, r.text);
            validate('postCommentInSpace', 200, r.json);
        }
        const list = await ok(api.spaces.listCommentsInSpace(s.id, { limit: 100 }), 'listCommentsInSpace');
        assert.equal(list.items.length, 25);
        assert.ok(list.items.every((c) => c.target.page.id === ps[0].id));
    });

    it('a locked space refuses content changes and merges with 403', async () => {
        const s = await ok(api.orgs.createSpace(org.id, { title: 'Locked' }), 'createSpace', 201);
        const cr = await newCR(s.id, 'Before lock');
        await content(s.id, cr.id, { changes: [{ operation: 'insert_page', title: 'P', document: { markdown: 'p' } }] });
        await ok(api.spaces.updateSpaceById(s.id, { editMode: 'locked' }), 'updateSpaceById');
        const e = await expectError(
            raw(ctx.url, 'POST', `/v1/spaces/${s.id}/change-requests/${cr.id}/content`, { token: alice.token, json: { changes: [{ operation: 'delete_page', page: 'x' }] } }),
            403,
        );
        assert.match(e.error.message, /locked/);
        await expectError(api.spaces.mergeChangeRequest(s.id, cr.id), 403);
        await expectError(api.spaces.applyTemplateToSpace(s.id, { id: 'blank' }), 403);
        await ok(api.spaces.updateSpaceById(s.id, { editMode: 'live' }), 'updateSpaceById');
        assert.equal((await merge(s.id, cr.id)).result, 'merge');
    });

    it('PDF of the space, of a change request and of one page, checked with pdftotext', async () => {
        const { space: s, pages: ps } = await seeded('Printable', [
            { operation: 'insert_page', title: 'Intro', document: { markdown: '# Intro\n\nPrintable paragraph.\n\n- item one\n- item two\n\n```\ncode sample\n```\n\n| A | B |\n| --- | --- |\n| cell1 | cell2 |\n' } },
            { operation: 'insert_page', title: 'Second', document: { markdown: 'Second page text.\n' } },
        ]);
        const { url } = await ok(api.spaces.getSpacePdf(s.id), 'getSpacePDF');
        const text = await pdfText(url);
        for (const w of ['Intro', 'Printable paragraph', 'item one', 'code sample', 'cell1', 'Second page text']) assert.ok(text.includes(w), `${w} in ${text}`);
        const one = await ok(api.spaces.getSpacePdf(s.id, { only: true, page: ps[1].id }), 'getSpacePDF');
        const t1 = await pdfText(one.url);
        assert.ok(t1.includes('Second page text') && !t1.includes('Printable paragraph'));
        const cr = await newCR(s.id, 'Print');
        await content(s.id, cr.id, { changes: [{ operation: 'insert_page', title: 'Draft', document: { markdown: 'Draft words here.\n' } }] });
        const crPdf = await ok(api.spaces.getChangeRequestPdf(s.id, cr.id), 'getChangeRequestPDF');
        assert.ok((await pdfText(crPdf.url)).includes('Draft words here'));
        await expectError(api.spaces.getSpacePdf(s.id, { page: 'nosuchpage' }), 400);
        const forged = await fetch(url.replace(/\.[0-9a-f]{32}\.pdf$/, '.00000000000000000000000000000000.pdf'));
        assert.equal(forged.status, 404);
    });

    async function pdfText(url) {
        const res = await fetch(url);
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('content-type'), 'application/pdf');
        const buf = Buffer.from(await res.arrayBuffer());
        assert.equal(buf.subarray(0, 5).toString(), '%PDF-');
        const path = `/tmp/docsd-test-${process.pid}-${Date.now()}.pdf`;
        writeFileSync(path, buf);
        try {
            return execFileSync('pdftotext', [path, '-'], { encoding: 'utf8', timeout: 20_000 });
        } finally {
            rmSync(path, { force: true });
        }
    }
});
