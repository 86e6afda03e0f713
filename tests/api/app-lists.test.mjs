// The web interface's paged lists (issue 25, src/app/forms.c app_list/app_pager): ?limit= and
// ?page= (the API's cursor) on the members, teams, change requests and history pages; the next
// page's link keeps the list's filters (a members search, a change-request status) and its size;
// following the links shows every row exactly once; a bad limit or cursor is a 400 page.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { ok, createOrg, addMember } from './lib/api.mjs';
import { appClient, signInAll } from './lib/app.mjs';

const unescape = (s) => s.replace(/&amp;/g, '&');

describe('web interface: paged lists', () => {
    let ctx, app, alice, org, space, aliceS;

    /** Follows the pager from path; returns the pages' texts. */
    async function walk(path, max = 20) {
        const texts = [];
        for (let next = path; next && texts.length < max;) {
            const r = await app.page(aliceS, next);
            texts.push(r.text);
            const m = r.text.match(/<p class="pager"><a rel="next" href="([^"]+)">/);
            next = m ? unescape(m[1]) : null;
        }
        return texts;
    }

    before(async () => {
        ctx = await setup();
        app = appClient(ctx);
        alice = await ctx.user('alice');
        ({ org } = await createOrg(ctx.url, alice.token, `Lists ${ctx.run}`));
        for (let i = 0; i < 5; i++) await addMember(alice.api, org.id, `pager-${i}-${ctx.run}@${ctx.domain}`, 'read');
        await addMember(alice.api, org.id, `other-${ctx.run}@${ctx.domain}`, 'read');
        space = await ok(alice.api.orgs.createSpace(org.id, { title: 'Lists' }), 'createSpace', 201);
        for (let i = 0; i < 5; i++) await ok(alice.api.spaces.createChangeRequest(space.id, { subject: `cr ${i}` }), 'createChangeRequest', 201);
        [aliceS] = await signInAll(ctx, [alice]);
    });
    after(() => ctx?.server.stop());

    it('members: a search walked two at a time keeps its filter and shows each match once', async () => {
        const texts = await walk(`/o/${org.id}/members?search=pager-&limit=2`);
        assert.equal(texts.length, 3, 'five matches, two a page');
        const seen = texts.flatMap((t) => [...t.matchAll(/pager-(\d)-/g)].map((m) => m[1]));
        assert.deepEqual([...new Set(seen)].sort(), ['0', '1', '2', '3', '4']);
        assert.equal(new Set(seen).size, 5);
        for (const t of texts) assert.ok(!t.includes(`other-${ctx.run}`), 'the search is kept on every page');
        assert.match(texts[0], /href="[^"]*members\?search=pager-&amp;limit=2&amp;page=[^"]+"/);
    });

    it('change requests: the status filter and the size are kept; every one shown once', async () => {
        const texts = await walk(`/s/${space.id}/~/changes?status=draft&limit=2`);
        assert.equal(texts.length, 3);
        const subjects = texts.flatMap((t) => [...t.matchAll(/#\d+ cr (\d)</g)].map((m) => m[1]));
        assert.deepEqual(subjects.slice().sort(), ['0', '1', '2', '3', '4']);
        assert.match(texts[0], /changes\?status=draft&amp;limit=2&amp;page=/);
    });

    it('a bad limit or cursor is a 400 page, not a crash', async () => {
        for (const q of ['limit=0', 'limit=abc', 'limit=99999', 'page=%ff%fe', `page=${'x'.repeat(3000)}`]) {
            const r = await app.page(aliceS, `/o/${org.id}/members?${q}`, 400);
            assert.match(r.headers['content-type'], /^text\/html/);
        }
    });
});
