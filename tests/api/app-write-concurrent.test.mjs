// No silent lost update in the editor (issue 30, item 4; src/app/pages_write.c, the domain's
// dom_cr_content_on_base in src/domain/content.c). The editor's form names the change request's
// head it was rendered from (a hidden `base`); a save over a newer head is merged line by line with
// the API's three-way merge (model/merge3), or, when both sides changed the same lines (or the
// title), answered 409 with both sides shown and nothing written; the conflict's form is made on the
// new head so the user resolves and saves again. Hostile bases: garbage, unknown, too long, another
// organization's revision -> 400 and nothing written; another change request's revision (not on
// this change request's line) -> the conflict path, never an overwrite. Concurrent saves with one
// base (both engines; the base is checked under the space's and the change request's row locks):
// exactly one applies as sent, the others merge or conflict, none is lost.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { ok, raw, createOrg, addMember } from './lib/api.mjs';
import { HTML, FORM, signInAll } from './lib/app.mjs';

describe('web interface: two people saving the same page', () => {
    let ctx, alice, carol, eve, org, space, eveSpace, aliceS, carolS, eveS, cr;

    const lines = (n, change = {}) => Array.from({ length: n }, (_, i) => change[i + 1] ?? `line ${i + 1}`).join('\n') + '\n';
    const crUrl = () => `/s/${space.id}/~/changes/${cr.number}`;
    const get = async (who, path, status = 200) => {
        const r = await raw(ctx.url, 'GET', path, { headers: { ...HTML, Cookie: who.cookie } });
        assert.equal(r.status, status, `GET ${path}: expected ${status}, got ${r.status}: ${r.text.slice(0, 400)}`);
        return r;
    };
    const send = (who, path, fields) => raw(ctx.url, 'POST', path, {
        body: new URLSearchParams({ csrf: who.csrf, ...fields }).toString(),
        headers: { ...FORM, Cookie: who.cookie },
        timeout: 30_000,
    });
    const post = async (who, path, fields, status) => {
        const r = await send(who, path, fields);
        assert.equal(r.status, status, `POST ${path}: expected ${status}, got ${r.status} ${r.headers.location ?? ''}: ${r.text.slice(0, 600)}`);
        return r;
    };
    const baseOf = (html) => {
        const m = html.match(/<input type="hidden" name="base" value="([^"]*)">/);
        assert.ok(m, 'the editor\'s form names its base');
        return m[1];
    };
    /** Opens the editor of pageId as `who`: the form's base. */
    const open = async (who, pageId) => baseOf((await get(who, `${crUrl()}/~/edit/${pageId}`)).text);
    const head = async () => (await ok(alice.api.spaces.getChangeRequestById(space.id, cr.id), 'getChangeRequestById')).revision;
    const page = async (pageId) => ok(alice.api.spaces.getPageInChangeRequestById(space.id, cr.id, pageId, { format: 'markdown' }), 'getPageInChangeRequestById');
    const newPage = async (title, markdown) => {
        const w = await raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
            token: alice.token,
            json: { changes: [{ operation: 'insert_page', title, document: { markdown } }] },
        });
        assert.equal(w.status, 200, w.text);
        return w.json.changes[0].page.id;
    };

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        carol = await ctx.user('carol');
        eve = await ctx.user('eve');
        ({ org } = await createOrg(ctx.url, alice.token, `Acme ${ctx.run}`));
        const { org: eveOrg } = await createOrg(ctx.url, eve.token, `Eve ${ctx.run}`);
        await addMember(alice.api, org.id, carol.email, 'edit');
        space = await ok(alice.api.orgs.createSpace(org.id, { title: 'Guide' }), 'createSpace', 201);
        eveSpace = await ok(eve.api.orgs.createSpace(eveOrg.id, { title: 'Secret' }), 'createSpace', 201);
        cr = await ok(alice.api.spaces.createChangeRequest(space.id, { subject: 'together' }), 'createChangeRequest', 201);
        [aliceS, carolS, eveS] = await signInAll(ctx, [alice, carol, eve]);
    });
    after(() => ctx?.server.stop());

    it('edits of different lines from the same form: both kept, and the second save says it merged', async () => {
        const id = await newPage('Merge me', lines(12));
        const a = await open(aliceS, id), c = await open(carolS, id);
        assert.equal(a, c, 'both opened the same head');
        assert.equal(a, await head());
        // Alice renames the page and changes line 1
        await post(aliceS, `${crUrl()}/~/edit/${id}`, { title: 'Merged', markdown: lines(12, { 1: 'line 1 by alice' }), base: a, action: 'save' }, 303);
        // Carol, from the old form (old title, old body but her line 10)
        const r = await post(carolS, `${crUrl()}/~/edit/${id}`, { title: 'Merge me', markdown: lines(12, { 10: 'line 10 by carol' }), base: c, action: 'save' }, 200);
        assert.match(r.text, new RegExp(`role="status">Saved\\. Somebody else changed this page since you opened it: your edit was merged line by line with ${alice.name}&#39;s edit`));
        const pg = await page(id);
        assert.equal(pg.markdown, lines(12, { 1: 'line 1 by alice', 10: 'line 10 by carol' }), 'both edits are in the stored body');
        assert.equal(pg.title, 'Merged', 'the title only Alice changed is hers');
        // the page shown is the merged one, on the new head
        assert.equal(baseOf(r.text), await head());
        assert.match(r.text, /line 1 by alice\nline 2/);
        // a save on a head that changed other pages only applies as sent
        const b = await open(carolS, id);
        await newPage('Elsewhere', 'x\n');
        await post(carolS, `${crUrl()}/~/edit/${id}`, { title: 'Merged', markdown: lines(12, { 1: 'line 1 by alice', 10: 'line 10 by carol', 12: 'end' }), base: b, action: 'save' }, 303);
        assert.equal((await page(id)).markdown, lines(12, { 1: 'line 1 by alice', 10: 'line 10 by carol', 12: 'end' }));
        // a preview keeps the form's base, so the save after it still merges
        const p = await open(carolS, id);
        await post(aliceS, `${crUrl()}/~/edit/${id}`, { title: 'Merged', markdown: lines(12, { 1: 'one', 10: 'line 10 by carol', 12: 'end' }), base: p, action: 'save' }, 303);
        const pv = await post(carolS, `${crUrl()}/~/edit/${id}`, { title: 'Merged', markdown: lines(12, { 1: 'line 1 by alice', 10: 'line 10 by carol', 12: 'end', 6: 'six' }), base: p, action: 'preview' }, 200);
        assert.equal(baseOf(pv.text), p, 'the preview\'s form keeps the base it was sent with');
        await post(carolS, `${crUrl()}/~/edit/${id}`, { title: 'Merged', markdown: lines(12, { 1: 'line 1 by alice', 10: 'line 10 by carol', 12: 'end', 6: 'six' }), base: baseOf(pv.text), action: 'save' }, 200);
        assert.equal((await page(id)).markdown, lines(12, { 1: 'one', 6: 'six', 10: 'line 10 by carol', 12: 'end' }));
        // a form without a base (made before docsd sent one) saves as the API's batch does
        await post(aliceS, `${crUrl()}/~/edit/${id}`, { title: 'Merged', markdown: 'plain\n', action: 'save' }, 303);
        assert.equal((await page(id)).markdown, 'plain\n');
    });

    it('the same line changed on both sides: a 409 page with both, nothing written; saving on the new base resolves it', async () => {
        const id = await newPage('Clash', lines(8));
        const a = await open(aliceS, id), c = await open(carolS, id);
        await post(aliceS, `${crUrl()}/~/edit/${id}`, { title: 'Clash', markdown: lines(8, { 5: 'five <alice>' }), base: a, action: 'save' }, 303);
        const afterAlice = await head();
        const r = await post(carolS, `${crUrl()}/~/edit/${id}`, { title: 'Clash', markdown: lines(8, { 5: 'five <carol>' }), base: c, action: 'save' }, 409);
        assert.match(r.text, /<h2 id="cf-h">This page changed while you edited it<\/h2>/);
        assert.match(r.text, /<h3>Now in the change request<\/h3><pre>[^<]*five &lt;alice&gt;/, 'theirs, escaped');
        assert.match(r.text, /<h3>Yours<\/h3><pre>[^<]*five &lt;carol&gt;/, 'yours, escaped');
        assert.match(r.text, /<textarea id="markdown" name="markdown"[^>]*>[^<]*five &lt;carol&gt;/, 'the form holds yours');
        assert.equal(baseOf(r.text), afterAlice, 'the conflict\'s form is made on the new head');
        assert.doesNotMatch(r.text, /<script>/);
        assert.equal(await head(), afterAlice, 'nothing was written');
        assert.equal((await page(id)).markdown, lines(8, { 5: 'five <alice>' }), 'nothing of Alice\'s is lost');
        // the same stale form again: the same conflict, still nothing written
        await post(carolS, `${crUrl()}/~/edit/${id}`, { title: 'Clash', markdown: lines(8, { 5: 'five <carol>' }), base: c, action: 'save' }, 409);
        assert.equal(await head(), afterAlice);
        // Carol resolves on the new base
        await post(carolS, `${crUrl()}/~/edit/${id}`, { title: 'Clash', markdown: lines(8, { 5: 'five <alice> and <carol>' }), base: baseOf(r.text), action: 'save' }, 303);
        assert.equal((await page(id)).markdown, lines(8, { 5: 'five <alice> and <carol>' }));
        // a title changed on both sides to different values is a conflict too
        const t1 = await open(aliceS, id), t2 = await open(carolS, id);
        const body = (await page(id)).markdown;
        await post(aliceS, `${crUrl()}/~/edit/${id}`, { title: 'Alice title', markdown: body, base: t1, action: 'save' }, 303);
        const before = await head();
        const t = await post(carolS, `${crUrl()}/~/edit/${id}`, { title: 'Carol title', markdown: body, base: t2, action: 'save' }, 409);
        assert.match(t.text, /Title now: <strong>Alice title<\/strong>; yours: <strong>Carol title<\/strong>/);
        assert.match(t.text, /<input id="title" name="title"[^>]* value="Carol title">/);
        assert.equal(await head(), before);
        assert.equal((await page(id)).title, 'Alice title');
    });

    it('the page deleted meanwhile: a 409 page with what was typed, nothing written', async () => {
        const id = await newPage('Doomed', 'keep me\n');
        const c = await open(carolS, id);
        await post(aliceS, `${crUrl()}/~/delete/${id}`, {}, 303);
        const before = await head();
        const r = await post(carolS, `${crUrl()}/~/edit/${id}`, { title: 'Doomed', markdown: 'my <words>\n', base: c, action: 'save' }, 409);
        assert.match(r.text, /<h1>This page was deleted<\/h1>/);
        assert.match(r.text, /<textarea id="markdown" rows="22" readonly>my &lt;words&gt;/);
        assert.equal(await head(), before);
    });

    it('hostile bases: garbage, unknown, too long, another organization\'s -> 400; another change request\'s -> conflict; never an overwrite', async () => {
        const id = await newPage('Target', lines(6));
        const fresh = await open(aliceS, id);
        // make the head move on from `fresh`, on this page
        await post(aliceS, `${crUrl()}/~/edit/${id}`, { title: 'Target', markdown: lines(6, { 2: 'two' }), base: fresh, action: 'save' }, 303);
        const before = await head(), body = (await page(id)).markdown;
        const eveRev = (await ok(eve.api.spaces.getSpaceById(eveSpace.id), 'getSpaceById')).revision;
        for (const base of ['!!!', 'abcdefghijklmnopqrst', "x' OR '1'='1", eveRev, 'é']) {
            const r = await post(aliceS, `${crUrl()}/~/edit/${id}`, { title: 'Target', markdown: 'overwritten\n', base, action: 'save' }, 400);
            assert.match(r.text, /role="alert">base: not a revision of this change request/, base);
        }
        const long = await post(aliceS, `${crUrl()}/~/edit/${id}`, { title: 'Target', markdown: 'overwritten\n', base: 'a'.repeat(65), action: 'save' }, 400);
        assert.match(long.text, /base: longer than 64 bytes/);
        const bad = await raw(ctx.url, 'POST', `${crUrl()}/~/edit/${id}`, {
            body: `csrf=${aliceS.csrf}&title=Target&markdown=x&base=%FF`, headers: { ...FORM, Cookie: aliceS.cookie },
        });
        assert.equal(bad.status, 400);
        // another change request's revision of the same space: not on this one's line
        const other = await ok(alice.api.spaces.createChangeRequest(space.id, { subject: 'other' }), 'createChangeRequest', 201);
        const w = await raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${other.id}/content`, {
            token: alice.token, json: { changes: [{ operation: 'insert_page', title: 'Other', document: { markdown: 'o\n' } }] },
        });
        assert.equal(w.status, 200, w.text);
        const otherRev = (await ok(alice.api.spaces.getChangeRequestById(space.id, other.id), 'getChangeRequestById')).revision;
        const x = await post(aliceS, `${crUrl()}/~/edit/${id}`, { title: 'Target', markdown: 'overwritten\n', base: otherRev, action: 'save' }, 409);
        assert.match(x.text, /This page changed while you edited it/);
        assert.equal(baseOf(x.text), before);
        // another organization's member cannot use the form at all
        await post(eveS, `${crUrl()}/~/edit/${id}`, { title: 'Target', markdown: 'overwritten\n', base: before, action: 'save' }, 404);
        assert.equal(await head(), before, 'nothing was written by any of these');
        assert.equal((await page(id)).markdown, body);
        // the right base still saves
        await post(aliceS, `${crUrl()}/~/edit/${id}`, { title: 'Target', markdown: lines(6, { 2: 'two', 6: 'six' }), base: before, action: 'save' }, 303);
        assert.equal((await page(id)).markdown, lines(6, { 2: 'two', 6: 'six' }));
    });

    it('the API\'s updateChangeRequestContent with ?base=<revision>: the same merge-or-409 rule; without it, as GitBook', async () => {
        const id = await newPage('Api', lines(9));
        const write = (base, changes) => raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content${base === undefined ? '' : `?base=${encodeURIComponent(base)}`}`, {
            token: alice.token, json: { changes },
        });
        const upd = (md) => [{ operation: 'update_page', page: id, document: { markdown: md } }];
        const b0 = await head();
        let r = await write(b0, upd(lines(9, { 1: 'api one' })));
        assert.equal(r.status, 200, r.text);
        assert.equal(r.json.revision, await head(), 'the answer is the change request, on its new head');
        // a second client, made on the same base, changes line 8: merged
        r = await write(b0, upd(lines(9, { 8: 'api eight' })));
        assert.equal(r.status, 200, r.text);
        assert.equal((await page(id)).markdown, lines(9, { 1: 'api one', 8: 'api eight' }));
        // the same line: 409 in the error envelope, nothing written
        const before = await head();
        r = await write(b0, upd(lines(9, { 1: 'api uno' })));
        assert.equal(r.status, 409, r.text);
        assert.deepEqual(Object.keys(r.json), ['error']);
        assert.equal(r.json.error.code, 409);
        assert.equal(r.json.error.message, `changes[0]: page ${id} was changed in the change request since revision ${b0}; nothing was written`);
        assert.equal(await head(), before);
        assert.equal((await page(id)).markdown, lines(9, { 1: 'api one', 8: 'api eight' }));
        // hostile bases: 400 in the envelope, nothing written
        for (const bad of ['', 'nope', (await ok(eve.api.spaces.getSpaceById(eveSpace.id), 'getSpaceById')).revision, 'x'.repeat(5000)]) {
            r = await write(bad, upd('overwritten\n'));
            assert.equal(r.status, 400, `${bad.slice(0, 20)}: ${r.text}`);
            assert.match(r.json.error.message, /^base: /);
        }
        // another organization's caller: 404 whatever the base
        r = await raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?base=${before}`, { token: eve.token, json: { changes: upd('evil\n') } });
        assert.equal(r.status, 404, r.text);
        assert.equal(await head(), before, 'nothing was written by any of these');
        // no base: GitBook's semantics, the batch as given
        r = await write(undefined, upd('as given\n'));
        assert.equal(r.status, 200, r.text);
        assert.equal((await page(id)).markdown, 'as given\n');
    });

    it('concurrent saves with one base: one applies as sent, the others merge or conflict, none lost', async () => {
        const N = 6;
        // different lines, an unchanged line between each: all merge
        const id = await newPage('Busy', lines(3 * N));
        const base = await open(aliceS, id);
        const who = (i) => (i % 2 ? carolS : aliceS);
        const edits = Array.from({ length: N }, (_, i) => ({ [3 * i + 2]: `line ${3 * i + 2} by save ${i}` }));
        const rs = await Promise.all(edits.map((e, i) => send(who(i), `${crUrl()}/~/edit/${id}`, { title: 'Busy', markdown: lines(3 * N, e), base, action: 'save' })));
        const st = rs.map((r) => r.status).sort();
        assert.deepEqual(st, [...Array(N - 1).fill(200), 303], `statuses: ${st}`);
        assert.equal((await page(id)).markdown, lines(3 * N, Object.assign({}, ...edits)), 'every save is in the body');
        // the same line: one applies, every other one is a conflict, the body is the one applied
        const id2 = await newPage('Hot', lines(4));
        const base2 = await open(aliceS, id2);
        const before = await head();
        const rs2 = await Promise.all(Array.from({ length: N }, (_, i) => send(who(i), `${crUrl()}/~/edit/${id2}`, { title: 'Hot', markdown: lines(4, { 2: `winner ${i}` }), base: base2, action: 'save' })));
        const won = rs2.map((r, i) => [r.status, i]).filter(([s]) => s === 303);
        assert.equal(won.length, 1, `statuses: ${rs2.map((r) => r.status)}`);
        assert.equal(rs2.filter((r) => r.status === 409).length, N - 1);
        for (const r of rs2.filter((x) => x.status === 409)) assert.match(r.text, /This page changed while you edited it/);
        assert.equal((await page(id2)).markdown, lines(4, { 2: `winner ${won[0][1]}` }));
        const log = await ok(alice.api.spaces.getChangeRequestById(space.id, cr.id), 'getChangeRequestById');
        assert.notEqual(log.revision, before);
    });
});
