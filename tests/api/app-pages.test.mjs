// The web interface's reading pages (issue 25, src/app/): a user signs in with the password set
// by `docsd user password`, then reads Home (/), an organization (/o/{id}), a collection
// (/c/{id}), a space and its pages (/s/{id}/{page path}), its change requests with filters
// (/s/{id}/~/changes?status=) and one change request (/s/{id}/~/changes/{number}), the history.
// Every `urls.app` the API returns opens its page; another organization's URLs and missing ones
// are the same 404 page; signed out, every page redirects to /signin?next=<path>; hostile titles
// are escaped; a reader sees no edit controls; the CSP and caching headers; GET / stays the API's
// JSON for API clients.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { ok, empty, raw, createOrg, addMember } from './lib/api.mjs';
import { HTML, PASSWORD, signIn, appClient, signInAll } from './lib/app.mjs';

describe('web interface: reading pages', () => {
    let ctx, alice, bob, eve, carol, carolS, org, otherOrg, col, space, pages, crDraft, crMerged, site;
    let aliceS, bobS, eveS;

    const page = (...a) => appClient(ctx).page(...a);
    const path = (u) => new URL(u).pathname;

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice', { name: 'Alice <b>bold</b>' });
        bob = await ctx.user('bob');
        eve = await ctx.user('eve');
        carol = await ctx.user('carol');
        ({ org } = await createOrg(ctx.url, alice.token, `Acme <i>${ctx.run}</i>`));
        ({ org: otherOrg } = await createOrg(ctx.url, eve.token, `Eve's ${ctx.run}`));
        await addMember(alice.api, org.id, bob.email, 'read');
        await addMember(alice.api, org.id, carol.email, null); // a guest
        col = await ok(alice.api.orgs.createCollection(org.id, { title: 'Products & <more>' }), 'createCollection', 201);
        space = await ok(alice.api.orgs.createSpace(org.id, { title: 'Guide <script>alert(1)</script>' }), 'createSpace', 201);
        await ok(alice.api.spaces.moveSpace(space.id, { parent: col.id }), 'moveSpace');
        const cr = await ok(alice.api.spaces.createChangeRequest(space.id, { subject: 'First <pages>' }), 'createChangeRequest', 201);
        const w = await raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
            token: alice.token,
            json: {
                changes: [
                    { operation: 'insert_page', title: 'Introduction', ref: 'intro', document: { markdown: 'Welcome to **Acme**. See [auth](./guides/authentication.md).\n\n{% hint style="warning" %}\nMind 1 < 2\n{% endhint %}\n\n<script>alert(2)</script>\n' } },
                    { operation: 'insert_page', title: 'Guides', ref: 'guides', document: { markdown: 'All guides.\n' } },
                    { operation: 'insert_page', title: 'Authentication', into: 'guides', document: { markdown: '## Tokens\n\nSend a zanzibar token.\n' } },
                    { operation: 'insert_page', title: 'Evil <img src=x onerror=alert(3)>', into: 'guides', document: { markdown: 'x\n' } },
                ],
            },
        });
        assert.equal(w.status, 200, w.text);
        crMerged = await ok(alice.api.spaces.mergeChangeRequest(space.id, cr.id), 'mergeChangeRequest');
        crMerged = await ok(alice.api.spaces.getChangeRequestById(space.id, cr.id), 'getChangeRequestById');
        crDraft = await ok(alice.api.spaces.createChangeRequest(space.id, { subject: 'Draft <b>edits</b>' }), 'createChangeRequest', 201);
        pages = (await ok(alice.api.spaces.listPages(space.id), 'listPages')).pages;
        site = await ok(alice.api.orgs.createSite(org.id, { title: 'Acme <site>' }), 'createSite', 201);
        [carolS, aliceS, bobS, eveS] = await signInAll(ctx, [carol, alice, bob, eve]);
    });
    after(() => ctx?.server.stop());

    it('signed out: every page redirects to /signin with the path; GET / stays the API home for API clients', async () => {
        for (const p of ['/', `/o/${org.id}`, `/s/${space.id}`, `/s/${space.id}/guides/authentication`, `/c/${col.id}`]) {
            const r = await page({ cookie: '' }, p, 303);
            assert.equal(r.headers.location, `/signin?next=${p}`);
            assert.match(r.headers['content-security-policy'], /default-src 'self'/);
        }
        // a forged or stale cookie is no session
        const forged = await page({ cookie: `docsd_session=${'a'.repeat(64)}` }, `/s/${space.id}`, 303);
        assert.equal(forged.headers.location, `/signin?next=/s/${space.id}`);
        // the next parameter is encoded (never another origin)
        const odd = await page({ cookie: '' }, `/s/${space.id}/a%3Fb%26c`, 303);
        assert.match(odd.headers.location, /^\/signin\?next=\/s\/[^?&]+\/a%3Fb%26c$/);
        const api = await raw(ctx.url, 'GET', '/');
        assert.equal(api.status, 200);
        assert.equal(api.json.name, 'docsd');
        // the API is untouched by the cookie
        const v1 = await raw(ctx.url, 'GET', `/v1/spaces/${space.id}`, { headers: { Cookie: aliceS.cookie } });
        assert.equal(v1.status, 401);
    });

    it('Home: the organizations, their collections and spaces as a tree, their sites; escaped', async () => {
        const t = (await page(aliceS, '/')).text;
        assert.match(t, /^<!doctype html>/);
        assert.match(t, new RegExp(`<a href="/o/${org.id}">Acme &lt;i&gt;${ctx.run}&lt;/i&gt;</a>`));
        assert.match(t, new RegExp(`<li><a href="/c/${col.id}">Products &amp; &lt;more&gt;</a><span class="kind">collection</span><ul><li><a href="/s/${space.id}">Guide &lt;script&gt;alert\\(1\\)&lt;/script&gt;</a></li></ul></li>`));
        assert.match(t, new RegExp(`<a href="/o/${org.id}/sites/${site.id}">Acme &lt;site&gt;</a><span class="kind">not published</span>`));
        assert.match(t, /Signed in as <strong>Alice &lt;b&gt;bold&lt;\/b&gt;<\/strong>/);
        assert.doesNotMatch(t, /<script/);
        assert.doesNotMatch(t, new RegExp(otherOrg.id), 'another organization is not listed');
        // eve sees her own organization only
        const e = (await page(eveS, '/')).text;
        assert.match(e, new RegExp(`/o/${otherOrg.id}`));
        assert.doesNotMatch(e, new RegExp(org.id));
    });

    it('every urls.app opens its page: organization, collection, space, page, change request', async () => {
        const o = (await page(aliceS, path(org.urls.app))).text;
        assert.match(o, /<h1>Acme &lt;i&gt;/);
        assert.match(o, new RegExp(`/s/${space.id}`));
        const c = (await page(aliceS, path(col.urls.app))).text;
        assert.match(c, /<h1>Products &amp; &lt;more&gt;<\/h1>/);
        assert.match(c, new RegExp(`<a href="/s/${space.id}">`));
        const s = (await page(aliceS, path(space.urls.app))).text;
        assert.match(s, /<h1>Introduction<\/h1>/, 'the space shows its first page');
        for (const p of pages.flatMap((x) => [x, ...(x.pages ?? [])])) {
            const r = await page(aliceS, path(p.urls.app));
            assert.match(r.text, new RegExp(`href="${path(p.urls.app).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" aria-current="page"`), p.title);
        }
        const cr = (await page(aliceS, path(crMerged.urls.app))).text;
        assert.match(cr, /<h1>First &lt;pages&gt; <span class="mute">#1<\/span><\/h1>/);
    });

    it('a page: the sidebar tree, the content rendered as on the site, links rewritten, escaped', async () => {
        const auth = pages.find((p) => p.title === 'Guides').pages.find((p) => p.title === 'Authentication');
        const t = (await page(aliceS, path(auth.urls.app))).text;
        assert.match(t, /<aside class="tree" aria-label="Pages">/);
        assert.match(t, /<h2 id="tokens">Tokens<\/h2>/);
        assert.match(t, /Send a zanzibar token\./);
        assert.match(t, /Evil &lt;img src=x onerror=alert\(3\)&gt;/);
        assert.doesNotMatch(t, /<img src=x/);
        const intro = (await page(aliceS, `/s/${space.id}/introduction`)).text;
        assert.match(intro, /<div class="hint hint-warning" role="note">/);
        assert.match(intro, /Mind 1 &lt; 2/);
        assert.doesNotMatch(intro, /<script>alert/);
        assert.match(intro, new RegExp(`<a href="/s/${space.id}/guides/authentication">auth</a>`));
        assert.match(intro, new RegExp(`href="/s/${space.id}/~/changes"`));
        assert.match(intro, new RegExp(`href="/s/${space.id}/~/history"`));
        // a group-like page with children lists nothing extra; a missing page is the 404 page
        for (const p of [`/o/${org.id}/nothing`, `/c/${col.id}/x/y`, '/~app/other.css', `/s/${space.id}/~/nothing`])
            assert.match((await page(aliceS, p, 404)).text, /<h1>Not found<\/h1>/, p);
        const miss = await page(aliceS, `/s/${space.id}/no/such/page`, 404);
        assert.match(miss.text, /<h1>Not found<\/h1>/);
        // the old-style paths lead to the ~/ screens
        const alias = await page(aliceS, `/s/${space.id}/change-requests`, 303);
        assert.equal(alias.headers.location, `/s/${space.id}/~/changes`);
    });

    it('change requests: filters by status, one change request read-only', async () => {
        const open = (await page(aliceS, `/s/${space.id}/~/changes`)).text;
        assert.match(open, /<a href="[^"]+status=open" aria-current="page">Open<\/a>/);
        assert.match(open, /No open change requests in this space\./);
        const draft = (await page(aliceS, `/s/${space.id}/~/changes?status=draft`)).text;
        assert.match(draft, new RegExp(`<a href="/s/${space.id}/~/changes/${crDraft.number}">#${crDraft.number} Draft &lt;b&gt;edits&lt;/b&gt;</a>`));
        assert.doesNotMatch(draft, /First &lt;pages&gt;/);
        const merged = (await page(aliceS, `/s/${space.id}/~/changes?status=merged`)).text;
        assert.match(merged, /#1 First &lt;pages&gt;/);
        assert.doesNotMatch(merged, /Draft &lt;b&gt;/);
        await page(aliceS, `/s/${space.id}/~/changes?status=bogus`, 400);
        const one = (await page(aliceS, `/s/${space.id}/~/changes/1`)).text;
        assert.match(one, /<span class="badge st-merged">merged<\/span>/);
        assert.match(one, /<dt>Author<\/dt><dd>Alice &lt;b&gt;bold&lt;\/b&gt;<\/dd>/);
        assert.match(one, new RegExp(`<a href="/s/${space.id}/~/changes/1/guides/authentication">Authentication</a> <span class="mute">guides/authentication</span></td><td>added`));
        const d = (await page(aliceS, `/s/${space.id}/~/changes/${crDraft.number}`)).text;
        assert.match(d, /This change request changes nothing yet\./);
        await page(aliceS, `/s/${space.id}/~/changes/999`, 404);
        await page(aliceS, `/s/${space.id}/~/changes/${crDraft.id}`, 404);
        // a change request's head, read under its own URL; the space is unchanged
        const intro = pages.find((p) => p.title === 'Introduction');
        const w = await raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${crDraft.id}/content`, {
            token: alice.token,
            json: { changes: [{ operation: 'update_page', page: intro.id, document: { markdown: 'Welcome to the NEW 1 < 2 & Acme.\n' } }] },
        });
        assert.equal(w.status, 200, w.text);
        const withChange = (await page(aliceS, `/s/${space.id}/~/changes/${crDraft.number}`)).text;
        const link = `/s/${space.id}/~/changes/${crDraft.number}/introduction`;
        assert.match(withChange, new RegExp(`<a href="${link}">Introduction</a> <span class="mute">introduction</span></td><td>edited`));
        const head = (await page(aliceS, link)).text;
        assert.match(head, /Welcome to the NEW 1 &lt; 2 &amp; Acme\./);
        assert.match(head, /You are reading change request <a href="[^"]+">#\d+ Draft &lt;b&gt;edits&lt;\/b&gt;<\/a>/);
        assert.match(head, new RegExp(`<a href="/s/${space.id}/~/changes/${crDraft.number}/guides">Guides</a>`), 'the sidebar stays in the change request');
        assert.doesNotMatch((await page(aliceS, `/s/${space.id}/introduction`)).text, /NEW/);
        await page(aliceS, `/s/${space.id}/~/changes/${crDraft.number}/no/such`, 404);
        await page(aliceS, `/s/${space.id}/~/changes/999/introduction`, 404);
        await page(eveS, link, 404);
        const h = (await page(aliceS, `/s/${space.id}/~/history`)).text;
        assert.match(h, /#1 First &lt;pages&gt;/);
    });

    it("search across the organization; a site's urls.app", async () => {
        const o = (await page(aliceS, `/o/${org.id}`)).text;
        assert.match(o, new RegExp(`<form class="search" role="search" method="get" action="/o/${org.id}/search"><label for="q-${org.id}">Search this organization</label><input id="q-${org.id}" name="q"`));
        const r = (await page(aliceS, `/o/${org.id}/search?q=zanzibar`)).text;
        assert.match(r, new RegExp(`<a href="/s/${space.id}">Guide &lt;script&gt;`));
        assert.match(r, new RegExp(`<a href="/s/${space.id}/guides/authentication">Authentication</a>`));
        assert.match(r, /value="zanzibar"/);
        const none = (await page(aliceS, `/o/${org.id}/search?q=${encodeURIComponent('"><b>nothing')}`)).text;
        assert.match(none, /No page you can read matches <strong>&quot;&gt;&lt;b&gt;nothing<\/strong>/);
        assert.doesNotMatch(none, /"><b>nothing/);
        await page(aliceS, `/o/${org.id}/search?q=${'x'.repeat(5000)}`, 400);
        const empty = (await page(aliceS, `/o/${org.id}/search`)).text;
        assert.match(empty, /<h1>Search<\/h1>/);
        await page(eveS, `/o/${org.id}/search?q=zanzibar`, 404);

        assert.equal(path(site.urls.app), `/o/${org.id}/sites/${site.id}`);
        const st = (await page(aliceS, path(site.urls.app))).text;
        assert.match(st, /<h1>Acme &lt;site&gt;<\/h1>/);
        assert.match(st, /<dt>Published<\/dt><dd>not published<\/dd>/);
        assert.match(st, /This site shows no space yet\./);
        await ok(alice.api.orgs.addSpaceToSite(org.id, site.id, { spaceId: space.id }), 'addSpaceToSite', 201);
        await ok(alice.api.orgs.publishSite(org.id, site.id), 'publishSite');
        const pub = (await page(aliceS, path(site.urls.app))).text;
        assert.match(pub, new RegExp(`<a href="/s/${space.id}">Guide &lt;script&gt;alert\\(1\\)&lt;/script&gt;</a><span class="kind">default</span>`));
        assert.match(pub, new RegExp(`<dt>Published</dt><dd><a href="${ctx.siteUrl}/sites/[^"]+">`));
        await page(eveS, path(site.urls.app), 404);
        await page(aliceS, `/o/${org.id}/sites/nosuchsite`, 404);
    });

    it("another organization's URLs are the same 404 page as missing ones", async () => {
        const missing = await page(eveS, `/s/nosuchspace`, 404);
        for (const p of [`/o/${org.id}`, `/c/${col.id}`, `/s/${space.id}`, `/s/${space.id}/guides/authentication`,
            `/s/${space.id}/~/changes`, `/s/${space.id}/~/changes/1`, `/s/${space.id}/~/history`, `/o/${org.id}/sites/${site.id}`]) {
            const r = await page(eveS, p, 404);
            assert.equal(r.text, missing.text, p);
            assert.doesNotMatch(r.text, /Acme|Guide|Products/);
        }
    });

    it('a guest sees only the spaces granted to her, no sites', async () => {
        const other = await ok(alice.api.orgs.createSpace(org.id, { title: 'Granted handbook' }), 'createSpace', 201);
        const before = (await page(carolS, '/')).text;
        assert.match(before, /No spaces you can read yet\./);
        assert.doesNotMatch(before, /Guide &lt;script|Acme &lt;site/);
        await empty(alice.api.spaces.inviteToSpace(other.id, { role: 'read', users: [carol.id] }), 204, 'inviteToSpace');
        const t = (await page(carolS, '/')).text;
        assert.match(t, new RegExp(`<a href="/s/${other.id}">Granted handbook</a>`));
        assert.doesNotMatch(t, /Guide &lt;script|Products|Acme &lt;site/);
        assert.match((await page(carolS, `/o/${org.id}`)).text, /Granted handbook/);
        await page(carolS, `/s/${other.id}`);
        await page(carolS, `/s/${space.id}`, 404);
        await page(carolS, `/c/${col.id}`, 404);
        await page(carolS, `/o/${org.id}/sites/${site.id}`, 404);
    });

    it('a reader sees the content and no edit controls', async () => {
        for (const p of ['/', `/s/${space.id}/guides/authentication`, `/s/${space.id}/~/changes?status=draft`, `/s/${space.id}/~/changes/1`]) {
            const t = (await page(bobS, p)).text;
            const forms = [...t.matchAll(/<form[^>]*method="post"[^>]*action="([^"]+)"/g)].map((m) => m[1]);
            assert.deepEqual(forms, ['/signout'], `${p}: the only form that changes anything is the sign-out`);
            assert.doesNotMatch(t, /<textarea|type="file"|contenteditable/);
        }
        assert.match((await page(bobS, `/s/${space.id}/guides/authentication`)).text, /zanzibar/);
    });

    it('headers: CSP without inline script, never framed, private; the stylesheet is cached with a hashed URL', async () => {
        const r = await page(aliceS, `/s/${space.id}`);
        const csp = r.headers['content-security-policy'];
        assert.match(csp, /default-src 'self'/);
        assert.match(csp, /frame-ancestors 'none'/);
        assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
        assert.equal(r.headers['cache-control'], 'private, no-store');
        assert.equal(r.headers['x-content-type-options'], 'nosniff');
        assert.doesNotMatch(r.text, /<script|style=/);
        const css = r.text.match(/<link rel="stylesheet" href="(\/~app\/app\.css\?v=[0-9a-f]{16})">/)?.[1];
        assert.ok(css, 'the stylesheet link');
        const c = await raw(ctx.url, 'GET', css);
        assert.equal(c.status, 200);
        assert.match(c.headers['content-type'], /^text\/css/);
        assert.match(c.headers['cache-control'], /max-age=31536000, immutable/);
        assert.match(c.text, /prefers-color-scheme:dark/);
        assert.match(c.text, /:focus-visible/);
        // another method on a page is refused
        const post = await raw(ctx.url, 'POST', `/s/${space.id}`, { headers: { ...HTML, Cookie: aliceS.cookie } });
        assert.equal(post.status, 405);
        assert.equal(post.headers.allow, 'GET, HEAD');
        const head = await raw(ctx.url, 'HEAD', `/s/${space.id}`, { headers: { ...HTML, Cookie: aliceS.cookie } });
        assert.equal(head.status, 200);
        assert.equal(head.text, '');
    });

    it('signing out ends the session: the pages redirect again', async () => {
        const s = await signIn(ctx.url, alice.email, PASSWORD);
        assert.ok(s.csrf, 'the header has the sign-out form');
        const r = await raw(ctx.url, 'POST', '/signout', {
            body: new URLSearchParams({ csrf: s.csrf }).toString(),
            headers: { ...HTML, 'Content-Type': 'application/x-www-form-urlencoded', Cookie: s.cookie },
        });
        assert.equal(r.status, 303, r.text.slice(0, 200));
        assert.equal((await page(s, `/s/${space.id}`, 303)).headers.location, `/signin?next=/s/${space.id}`);
    });
});
