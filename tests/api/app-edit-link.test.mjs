// The published site's "Edit" link (issue 25, src/app/edit_link.c). Published sites are on
// another origin than the web interface (README, "Two origins"), which never reaches the app
// with the visitor's session, so a page carries one plain link, the same bytes for every
// visitor (the page is cached and shared): {public-url}/~app/edit-link?space=&page=. Followed
// (a navigation, with the session), the app answers a 303: signed out to the sign-in page and
// back, a member who can read the space to its page in the interface (the editor's controls
// only for those who may edit), anyone else (another organization, garbage) the app's 404.
// A site served on its own hostname carries no link.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { ok, raw, createOrg, addMember } from './lib/api.mjs';
import { HTML, signInAll } from './lib/app.mjs';

describe('web interface: the published page\'s Edit link', () => {
    let ctx, alice, bob, eve, org, space, site, pageId, aliceS, bobS, eveS, pub;

    const follow = (who, q) => raw(ctx.url, 'GET', `/~app/edit-link?${q}`, {
        headers: { ...HTML, 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', ...(who ? { Cookie: who.cookie } : {}) },
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
        assert.ok(site.urls.published.startsWith(`${ctx.siteUrl}/sites/`), site.urls.published);
        pub = new URL(site.urls.published).pathname;
        [aliceS, bobS, eveS] = await signInAll(ctx, [alice, bob, eve]);
    });
    after(() => ctx?.server.stop());

    it('the published page links the app\'s endpoint, the same bytes signed in or not; site.js asks nothing', async () => {
        const anon = await raw(ctx.siteUrl, 'GET', `${pub}/setup-guide`, { headers: HTML });
        assert.equal(anon.status, 200, anon.text.slice(0, 300));
        const href = `${ctx.url}/~app/edit-link?space=${space.id}&amp;page=${pageId}`;
        assert.ok(anon.text.includes(`<a class="edit-link" rel="nofollow" aria-label="Edit this page in docsd" href="${href}">Edit</a>`), anon.text.slice(0, 3000));
        assert.doesNotMatch(anon.text, /docsd-edit/);
        const signed = await raw(ctx.siteUrl, 'GET', `${pub}/setup-guide`, { headers: { ...HTML, Cookie: aliceS.cookie } });
        assert.equal(signed.text, anon.text, 'a shared page carries nobody\'s link');
        const js = await raw(ctx.siteUrl, 'GET', `${pub}/~assets/site.js`);
        assert.equal(js.status, 200);
        assert.doesNotMatch(js.text, /edit-link|docsd-edit/);
    });

    it('an editor is sent to the page in the interface; it opens with the editor\'s controls', async () => {
        const r = await follow(aliceS, `space=${space.id}&page=${pageId}`);
        assert.equal(r.status, 303, r.text);
        assert.match(r.headers['cache-control'], /no-store/);
        assert.equal(r.headers['access-control-allow-origin'], undefined);
        assert.equal(r.headers.location, `/s/${space.id}/setup-guide`);
        const opened = await raw(ctx.url, 'GET', r.headers.location, { headers: { ...HTML, Cookie: aliceS.cookie } });
        assert.equal(opened.status, 200);
        assert.match(opened.text, /Install it\./);
        assert.match(opened.text, /New change request/, 'the editor can start a change request there');
    });

    it('a reader gets the read-only page; a signed-out visitor the sign-in page and back', async () => {
        const r = await follow(bobS, `space=${space.id}&page=${pageId}`);
        assert.equal(r.status, 303);
        assert.equal(r.headers.location, `/s/${space.id}/setup-guide`);
        const opened = await raw(ctx.url, 'GET', r.headers.location, { headers: { ...HTML, Cookie: bobS.cookie } });
        assert.equal(opened.status, 200);
        assert.doesNotMatch(opened.text, /New change request/);
        const anon = await follow(null, `space=${space.id}&page=${pageId}`);
        assert.equal(anon.status, 303);
        const back = new URL(anon.headers.location, ctx.url);
        assert.equal(back.pathname, '/signin');
        assert.equal(back.searchParams.get('next'), `/~app/edit-link?space=${space.id}&page=${pageId}`);
    });

    it('another organization, unknown ids and garbage get the app\'s 404, never a redirect elsewhere', async () => {
        for (const [who, q] of [
            [eveS, `space=${space.id}&page=${pageId}`],
            [aliceS, `space=${space.id}&page=nosuchpage`],
            [aliceS, `space=nosuchspace&page=${pageId}`],
            [aliceS, `space=${space.id}`],
            [aliceS, `space=${'x'.repeat(5000)}&page=${pageId}`],
            [aliceS, `space=%22%3E%3Cscript%3E&page=${pageId}`],
            [null, `space=%22%3E%3Cscript%3E&page=${pageId}`],
        ]) {
            const r = await follow(who, q);
            assert.equal(r.status, 404, `${q}: ${r.status} ${r.text.slice(0, 200)}`);
            assert.equal(r.headers.location, undefined);
            assert.match(r.headers['cache-control'], /no-store/);
            assert.doesNotMatch(r.text, /<script>/);
        }
        // a forged session is no session
        const forged = await follow({ cookie: `docsd_session=${'a'.repeat(64)}` }, `space=${space.id}&page=${pageId}`);
        assert.equal(forged.status, 303);
        assert.match(forged.headers.location, /^\/signin\?next=/);
    });

    it('a site on its own hostname carries no Edit link', async () => {
        const host = `docs-${ctx.run}.example.com`.toLowerCase();
        await ok(alice.api.orgs.updateSiteById(org.id, site.id, { hostname: host }), 'updateSiteById');
        const r = await raw(ctx.url, 'GET', '/setup-guide', { headers: { ...HTML, Host: host } });
        assert.equal(r.status, 200, r.text.slice(0, 300));
        assert.match(r.text, /Install it\./);
        assert.doesNotMatch(r.text, /edit-link/);
    });
});
