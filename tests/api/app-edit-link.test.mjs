// The published site's "Edit" link for signed-in members (issue 25, src/app/edit_link.c): a
// published page names /~app/edit-link?space=&page= in a meta tag (the same bytes for every
// visitor: the page is cached and shared), and site.js asks it. It answers 200 {url} only to a
// signed-in member who may edit the space (a path on this origin that opens the page in the
// interface), 204 to everyone else (signed out, a reader, another organization's member,
// garbage), never a redirect, always private and no-store. A site served on its own hostname
// names no endpoint (the session cookie is not sent there).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { ok, raw, createOrg, addMember } from './lib/api.mjs';
import { HTML, signInAll } from './lib/app.mjs';

describe('web interface: the published page\'s Edit link', () => {
    let ctx, alice, bob, eve, org, space, site, pageId, aliceS, bobS, eveS, pub;

    const ask = (who, q) => raw(ctx.url, 'GET', `/~app/edit-link?${q}`, {
        headers: { Accept: 'application/json', ...(who ? { Cookie: who.cookie } : {}) },
    });

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        eve = await ctx.user('eve');
        ({ org } = await createOrg(ctx.url, alice.token, `Edit link ${ctx.run}`));
        await createOrg(ctx.url, eve.token, `Eve ${ctx.run}`);
        await addMember(alice.api, org.id, bob.email, 'read');
        space = await ok(alice.api.orgs.createSpace(org.id, { title: 'Guide' }), 'createSpace', 201);
        const cr = await ok(alice.api.spaces.createChangeRequest(space.id, { subject: 'pages' }), 'createChangeRequest', 201);
        const w = await raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
            token: alice.token,
            json: { changes: [
                { operation: 'insert_page', title: 'Intro', document: { markdown: 'Hello.\n' } },
                { operation: 'insert_page', title: 'Setup guide', document: { markdown: 'Install it.\n' } },
            ] },
        });
        assert.equal(w.status, 200, w.text);
        await ok(alice.api.spaces.mergeChangeRequest(space.id, cr.id), 'mergeChangeRequest');
        pageId = (await ok(alice.api.spaces.listPages(space.id), 'listPages')).pages.find((p) => p.title === 'Setup guide').id;
        site = await ok(alice.api.orgs.createSite(org.id, { title: 'Docs' }), 'createSite', 201);
        await ok(alice.api.orgs.addSpaceToSite(org.id, site.id, { spaceId: space.id }), 'addSpaceToSite', 201);
        site = await ok(alice.api.orgs.publishSite(org.id, site.id), 'publishSite');
        pub = new URL(site.urls.published).pathname;
        [aliceS, bobS, eveS] = await signInAll(ctx, [alice, bob, eve]);
    });
    after(() => ctx?.server.stop());

    it('the published page names the endpoint, the same bytes signed in or not', async () => {
        const anon = await raw(ctx.url, 'GET', `${pub}/setup-guide`, { headers: HTML });
        assert.equal(anon.status, 200, anon.text.slice(0, 300));
        assert.ok(anon.text.includes(`<meta name="docsd-edit" content="/~app/edit-link?space=${space.id}&amp;page=${pageId}">`), anon.text.slice(0, 1500));
        const signed = await raw(ctx.url, 'GET', `${pub}/setup-guide`, { headers: { ...HTML, Cookie: aliceS.cookie } });
        assert.equal(signed.text, anon.text, 'a shared page carries nobody\'s link');
        const js = await raw(ctx.url, 'GET', `${pub}/~assets/site.js`);
        assert.match(js.text, /docsd-edit/);
    });

    it('an editor gets the page in the interface; it opens', async () => {
        const r = await ask(aliceS, `space=${space.id}&page=${pageId}`);
        assert.equal(r.status, 200, r.text);
        assert.match(r.headers['cache-control'], /no-store/);
        assert.match(r.headers['content-type'], /^application\/json/);
        assert.equal(r.headers['access-control-allow-origin'], undefined);
        assert.deepEqual(r.json, { url: `/s/${space.id}/setup-guide` });
        const opened = await raw(ctx.url, 'GET', r.json.url, { headers: { ...HTML, Cookie: aliceS.cookie } });
        assert.equal(opened.status, 200);
        assert.match(opened.text, /Install it\./);
        assert.match(opened.text, /New change request/, 'the editor can start a change request there');
    });

    it('a reader, a signed-out visitor, another organization and garbage get 204, never a redirect', async () => {
        for (const [who, q] of [
            [bobS, `space=${space.id}&page=${pageId}`],
            [null, `space=${space.id}&page=${pageId}`],
            [eveS, `space=${space.id}&page=${pageId}`],
            [aliceS, `space=${space.id}&page=nosuchpage`],
            [aliceS, `space=nosuchspace&page=${pageId}`],
            [aliceS, `space=${space.id}`],
            [aliceS, `space=${'x'.repeat(5000)}&page=${pageId}`],
            [aliceS, `space=%22%3E%3Cscript%3E&page=${pageId}`],
        ]) {
            const r = await ask(who, q);
            assert.equal(r.status, 204, `${q}: ${r.status} ${r.text}`);
            assert.equal(r.text, '');
            assert.match(r.headers['cache-control'], /no-store/);
        }
        // a forged session is no session
        const forged = await ask({ cookie: `docsd_session=${'a'.repeat(64)}` }, `space=${space.id}&page=${pageId}`);
        assert.equal(forged.status, 204);
    });

    it('a site on its own hostname names no endpoint', async () => {
        const host = `docs-${ctx.run}.example.com`.toLowerCase();
        await ok(alice.api.orgs.updateSiteById(org.id, site.id, { hostname: host }), 'updateSiteById');
        const r = await raw(ctx.url, 'GET', '/setup-guide', { headers: { ...HTML, Host: host } });
        assert.equal(r.status, 200, r.text.slice(0, 300));
        assert.match(r.text, /Install it\./);
        assert.doesNotMatch(r.text, /docsd-edit/);
    });
});
