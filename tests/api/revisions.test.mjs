// Revisions at scale: one request that reads many revisions (a comment list whose comments were
// posted on 72 revisions: the transaction holds every one of them), and reads of many revisions
// through a revision cache far smaller than they are (--cache-mb 1: revisions are evicted and
// built again from their snapshot and deltas while other requests hold theirs). And a page body
// that cannot be read fails the read (500), never shows as an empty page.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { setup } from './lib/fixtures.mjs';
import { DATABASE_URL } from './lib/server.mjs';
import { ok, raw, rawOk, createOrg, validate, expectError } from './lib/api.mjs';

/** Helpers over one server and one user (alice, the organization's admin). */
function contentHelpers(ctx, alice) {
    const api = alice.api;
    const newCR = (spaceId, subject) => ok(api.spaces.createChangeRequest(spaceId, { subject }), 'createChangeRequest', 201);
    /** compat=false: the changes with the ids of the pages they made. */
    const content = async (spaceId, crId, changes) => {
        const res = (
            await rawOk(ctx.url, 'POST', `/v1/spaces/${spaceId}/change-requests/${crId}/content?compat=false`, { token: alice.token, json: { changes } })
        ).json;
        validate('updateChangeRequestContent', 200, res.changeRequest);
        return res;
    };
    /** One change request with these changes, merged: the new revision and the changes. */
    const commit = async (spaceId, subject, ...batches) => {
        const cr = await newCR(spaceId, subject);
        const results = [];
        for (const changes of batches) results.push(await content(spaceId, cr.id, changes));
        const m = await ok(api.spaces.mergeChangeRequest(spaceId, cr.id), 'mergeChangeRequest');
        assert.equal(m.result, 'merge', JSON.stringify(m));
        const s = await ok(api.spaces.getSpaceById(spaceId), 'getSpaceById');
        assert.equal(s.revision, m.revision, 'the merge moved the space to its revision');
        return { revision: m.revision, changes: results.flatMap((r) => r.changes) };
    };
    return { api, newCR, content, commit };
}

describe('revisions: a request that reads many revisions', () => {
    let ctx, alice, org, h;

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        ({ org } = await createOrg(ctx.url, alice.token, `Revisions ${ctx.run}`));
        h = contentHelpers(ctx, alice);
    });
    after(() => ctx?.server.stop());

    it('a comment list spanning 72 revisions answers 200 with every comment (no cap on the revisions one request holds)', async () => {
        const ROUNDS = 72;
        const s = await ok(h.api.orgs.createSpace(org.id, { title: 'Many revisions' }), 'createSpace', 201);
        const posted = []; // {id, revision, page, title}
        let prev = null;
        for (let i = 0; i < ROUNDS; i++) {
            // Each round adds a page and deletes the previous one, so every comment's page exists
            // only in the revision it was posted on: listing them reads all 72 revisions.
            const title = `Page ${i}`;
            const changes = [{ operation: 'insert_page', title, document: { markdown: `Text of page ${i}.\n` } }];
            if (prev) changes.push({ operation: 'delete_page', page: prev });
            const { revision, changes: made } = await h.commit(s.id, `Round ${i}`, changes);
            const page = made.find((c) => c.object === 'created_page').page.id;
            const r = await raw(ctx.url, 'POST', `/v1/spaces/${s.id}/comments`, {
                token: alice.token,
                json: { page, body: { markdown: `comment ${i}` } },
            });
            assert.equal(r.status, 201, r.text); // GitBook's document says 200; docsd answers 201 (the seed)
            validate('postCommentInSpace', 200, r.json);
            assert.equal(r.json.target.revision, revision, 'a comment records the revision it was posted on');
            posted.push({ id: r.json.id, revision, page, title });
            prev = page;
        }
        assert.equal(new Set(posted.map((p) => p.revision)).size, ROUNDS, 'one revision per round');

        const list = await ok(h.api.spaces.listCommentsInSpace(s.id, { limit: 100 }), 'listCommentsInSpace');
        assert.equal(list.items.length, ROUNDS);
        assert.equal(list.next, undefined, 'one page holds them all');
        const byId = new Map(list.items.map((c) => [c.id, c]));
        for (const [i, p] of posted.entries()) {
            const c = byId.get(p.id);
            assert.ok(c, `comment ${i} is listed`);
            assert.equal(c.target.revision, p.revision);
            assert.equal(c.target.page.id, p.page);
            // The page is read from the comment's own revision (it is gone from the current one).
            assert.equal(c.target.page.title, p.title);
            assert.equal(c.target.page.outdated, i !== ROUNDS - 1, `comment ${i}: outdated unless on the last page`);
        }
        // The same list again, now that the revisions are cached.
        const again = await ok(h.api.spaces.listCommentsInSpace(s.id, { limit: 100 }), 'listCommentsInSpace');
        assert.deepEqual(
            again.items.map((c) => [c.id, c.target.page.title]),
            list.items.map((c) => [c.id, c.target.page.title]),
        );
    });

    it('a page whose stored body cannot be read answers 500 on every read that shows it, never an empty page', async () => {
        const s = await ok(h.api.orgs.createSpace(org.id, { title: 'Lost body' }), 'createSpace', 201);
        const markdown = `Only here: ${ctx.run}\n`;
        const { changes } = await h.commit(s.id, 'Seed', [
            { operation: 'insert_page', title: 'Lost', document: { markdown } },
            { operation: 'insert_page', title: 'Kept', document: { markdown: `Kept ${ctx.run}\n` } },
        ]);
        const lost = changes[0].page.id;
        const before = await ok(h.api.spaces.getPageById(s.id, lost, { format: 'markdown' }), 'getPageById');
        assert.equal(before.markdown, markdown);
        // Remove the body row behind the server's back (its content is unique to this run).
        const hash = createHash('sha256').update(markdown).digest('hex');
        const sql = `DELETE FROM page_bodies WHERE hash = '${hash}'`;
        if (DATABASE_URL) execFileSync('psql', [DATABASE_URL, '-q', '-v', 'ON_ERROR_STOP=1', '-c', sql]);
        else execFileSync('sqlite3', [join(ctx.server.dataDir, 'docsd.db'), sql]);
        // Reads that show the page's markdown: the revision, the page list, the page itself.
        for (const [what, call] of [
            ['getCurrentRevision', () => h.api.spaces.getCurrentRevision(s.id)],
            ['listPages', () => h.api.spaces.listPages(s.id)],
            ['getPageById', () => h.api.spaces.getPageById(s.id, lost, { format: 'markdown' })],
        ]) {
            const e = await expectError(call(), 500, what);
            assert.equal(e.error.message, 'internal error', `${what}: the body says nothing internal`);
        }
        // The other page still reads.
        const kept = await ok(h.api.spaces.getPageById(s.id, changes[1].page.id, { format: 'markdown' }), 'getPageById');
        assert.equal(kept.markdown, `Kept ${ctx.run}\n`);
    });
});

describe('revisions: --cache-mb 1 (evictions)', () => {
    let ctx, alice, org, h;

    before(async () => {
        ctx = await setup({ extraArgs: ['--cache-mb', '1'] });
        alice = await ctx.user('alice');
        ({ org } = await createOrg(ctx.url, alice.token, `Small cache ${ctx.run}`));
        h = contentHelpers(ctx, alice);
    });
    after(() => ctx?.server.stop());

    it('every revision of a space far larger than the cache reads back exactly, in any order and concurrently', async () => {
        const PAGES = 200; // with a 900-character description each: about 0.2 MB per revision in memory
        const EDITS = 30;
        const s = await ok(h.api.orgs.createSpace(org.id, { title: 'Large' }), 'createSpace', 201);
        const batches = [];
        for (let b = 0; b < PAGES / 50; b++)
            batches.push(
                Array.from({ length: 50 }, (_, k) => {
                    const n = b * 50 + k;
                    return {
                        operation: 'insert_page',
                        title: `Page ${n} ${'t'.repeat(80)}`,
                        description: `${n} ${'d'.repeat(900)}`,
                        document: { markdown: `page ${n} version 0\n` },
                    };
                }),
            );
        const seed = await h.commit(s.id, 'Seed', ...batches);
        const ids = seed.changes.map((c) => c.page.id);
        assert.equal(ids.length, PAGES);

        // Each revision edits one page: expected[r] is the body of every page at revision r.
        const bodies = ids.map((_, n) => `page ${n} version 0\n`);
        const revisions = [{ id: seed.revision, bodies: [...bodies] }];
        for (let e = 1; e <= EDITS; e++) {
            const n = (e * 37) % PAGES;
            bodies[n] = `page ${n} version ${e}\n`;
            const { revision } = await h.commit(s.id, `Edit ${e}`, [{ operation: 'update_page', page: ids[n], document: { markdown: bodies[n] } }]);
            revisions.push({ id: revision, bodies: [...bodies], edited: n });
        }

        // Whole revisions (each page with its markdown), oldest to newest, then newest to oldest:
        // with room for about five, each read evicts and the next builds from the deltas again.
        const checkRevision = async (rv) => {
            const got = await ok(h.api.spaces.getRevisionById(s.id, rv.id), 'getRevisionById');
            assert.equal(got.id, rv.id);
            assert.equal(got.pages.length, PAGES);
            for (const p of got.pages) {
                const n = ids.indexOf(p.id);
                assert.ok(n >= 0, `revision ${rv.id}: unknown page ${p.id}`);
                assert.equal(p.markdown, rv.bodies[n], `revision ${rv.id}, page ${n}`);
                assert.equal(p.description, `${n} ${'d'.repeat(900)}`);
            }
        };
        for (const rv of revisions) await checkRevision(rv);
        for (const rv of [...revisions].reverse()) await checkRevision(rv);

        // Single pages of every revision, eight requests at a time in a shuffled order.
        const reads = [];
        for (const rv of revisions)
            for (const n of [rv.edited ?? 0, (rv.edited ?? 0) + 1, 199]) reads.push({ rv, n: n % PAGES });
        for (let i = reads.length - 1; i > 0; i--) {
            const j = (i * 7919) % (i + 1);
            [reads[i], reads[j]] = [reads[j], reads[i]];
        }
        for (let i = 0; i < reads.length; i += 8) {
            await Promise.all(
                reads.slice(i, i + 8).map(async ({ rv, n }) => {
                    const p = await ok(h.api.spaces.getPageInRevisionById(s.id, rv.id, ids[n], { format: 'markdown' }), 'getPageInRevisionById');
                    assert.equal(p.markdown, rv.bodies[n], `revision ${rv.id}, page ${n}`);
                }),
            );
        }
        // Whole revisions concurrently too: each request holds a 0.2 MB revision while others evict.
        await Promise.all(revisions.slice(0, 8).map(checkRevision));
    });
});
