// The two origins (issue 30 item 2, README "Two origins"): the web interface and the API on
// --public-url, published sites and every byte a user or an integration chooses (integration
// scripts, uploads) on --site-url, a second listener. The main origin sends /sites/... there
// with a 308 and loads script and style only from the app's own assets; the site origin serves
// no API or app route and never reads the session cookie; every answer is nosniff; a
// background request from another site (Sec-Fetch-Site cross-site or same-site, not a
// navigation) is signed out in the app.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { startServer, runCli } from './lib/server.mjs';
import { ok, raw, rawOk, createOrg } from './lib/api.mjs';
import { HTML, signInAll } from './lib/app.mjs';

const b64 = (s) => Buffer.from(s).toString('base64');

describe('two origins: the web interface and the published sites', () => {
    let ctx, alice, mallory, org, space, site, aliceS, files;

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        mallory = await ctx.user('mallory');
        ({ org } = await createOrg(ctx.url, alice.token, `Origins ${ctx.run}`));
        space = await ok(alice.api.orgs.createSpace(org.id, { title: 'Guide' }), 'createSpace', 201);
        const cr = await ok(alice.api.spaces.createChangeRequest(space.id, { subject: 'pages' }), 'createChangeRequest', 201);
        const w = await rawOk(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
            token: alice.token,
            json: { changes: [
                { operation: 'insert_page', title: 'Intro', document: { markdown: 'Hello platypus.\n' } },
                { operation: 'insert_files', files: [
                    { name: 'evil.js', contentType: 'text/javascript', base64: b64('fetch("/settings/tokens")') },
                    { name: 'evil.html', contentType: 'text/html', base64: b64('<script>alert(1)</script>') },
                ] },
            ] },
        });
        files = w.json.insertedFiles;
        await ok(alice.api.spaces.mergeChangeRequest(space.id, cr.id), 'mergeChangeRequest');
        site = await ok(alice.api.orgs.createSite(org.id, { title: 'Docs' }), 'createSite', 201);
        await ok(alice.api.orgs.addSpaceToSite(org.id, site.id, { spaceId: space.id }), 'addSpaceToSite', 201);
        await ok(alice.api.orgs.updateSiteById(org.id, site.id, { basename: `origins-${ctx.run}` }), 'updateSiteById');
        site = await ok(alice.api.orgs.publishSite(org.id, site.id), 'publishSite');
        [aliceS] = await signInAll(ctx, [alice]);
    });
    after(() => ctx?.server.stop());

    it('urls.published and the home document name the site origin, not the API\'s', async () => {
        assert.notEqual(new URL(ctx.siteUrl).origin, new URL(ctx.url).origin);
        assert.equal(site.urls.published, `${ctx.siteUrl}/sites/origins-${ctx.run}`);
        assert.ok(site.urls.app.startsWith(`${ctx.url}/`));
        assert.ok(site.urls.location.startsWith(`${ctx.url}/v1/`));
        const home = await raw(ctx.url, 'GET', '/');
        assert.equal(home.json.sites, `${ctx.siteUrl}/sites/`);
        const page = await raw(ctx.siteUrl, 'GET', `/sites/origins-${ctx.run}`, { headers: HTML });
        assert.equal(page.status, 200, page.text.slice(0, 300));
        assert.match(page.text, /Hello platypus\./);
        assert.match(page.text, new RegExp(`<link rel="canonical" href="${ctx.siteUrl}/sites/origins-${ctx.run}">`));
    });

    it('the main origin answers /sites/... with a 308 to the same path and query there; a redirect runs nothing', async () => {
        for (const [method, path] of [
            ['GET', `/sites/origins-${ctx.run}`],
            ['GET', `/sites/origins-${ctx.run}/intro.md?x=1&q=a%20b%26c`],
            ['HEAD', `/sites/origins-${ctx.run}/llms.txt`],
            ['POST', `/sites/origins-${ctx.run}`],
            ['GET', '/sites/nosuchsite/page'],
            ['GET', `/sites/origins-${ctx.run}//evil.example`],
        ]) {
            const r = await raw(ctx.url, method, path);
            assert.equal(r.status, 308, `${method} ${path}`);
            const loc = new URL(r.headers.location);
            assert.equal(loc.origin, new URL(ctx.siteUrl).origin, `${path}: ${r.headers.location}`);
            assert.equal(r.text, '');
            assert.equal(r.headers['x-content-type-options'], 'nosniff');
        }
        const q = await raw(ctx.url, 'GET', `/sites/origins-${ctx.run}/intro.md?x=1&q=a%20b%26c`);
        assert.equal(q.headers.location, `${ctx.siteUrl}/sites/origins-${ctx.run}/intro.md?x=1&q=a%20b%26c`);
        const evil = await raw(ctx.url, 'GET', `/sites/origins-${ctx.run}//evil.example`);
        assert.equal(new URL(evil.headers.location).host, new URL(ctx.siteUrl).host);
        // fetch follows it to the page
        const f = await fetch(`${ctx.url}/sites/origins-${ctx.run}`);
        assert.equal(f.status, 200);
        assert.equal(f.url, `${ctx.siteUrl}/sites/origins-${ctx.run}`);
    });

    it('the site origin serves no API route, no app page and no "/", with or without a session or token', async () => {
        for (const path of ['/v1/user', '/v1/orgs', '/', '/settings/tokens', '/signin', '/~app/edit-link?space=a&page=b',
            `/o/${org.id}`, '/metrics', '/~app/app.css', '/v1/integrations']) {
            for (const headers of [HTML, { ...HTML, Cookie: aliceS.cookie }, { Authorization: `Bearer ${alice.token}` }]) {
                const r = await raw(ctx.siteUrl, 'GET', path, { headers });
                assert.equal(r.status, 404, `${path} ${JSON.stringify(headers).slice(0, 40)}: ${r.status}`);
                assert.doesNotMatch(r.text, /csrf|docsd_session|alice/i);
                assert.equal(r.headers['set-cookie'], undefined);
            }
        }
        const post = await raw(ctx.siteUrl, 'POST', '/settings/tokens', { body: 'name=x', headers: { Cookie: aliceS.cookie, 'Content-Type': 'application/x-www-form-urlencoded' } });
        assert.equal(post.status, 404);
        const tokens = await raw(ctx.url, 'GET', '/settings/tokens', { headers: { ...HTML, Cookie: aliceS.cookie } });
        assert.doesNotMatch(tokens.text, /<td>x<\/td>/);
        assert.equal((await raw(ctx.siteUrl, 'GET', '/healthz')).status, 200);
    });

    it('the session cookie changes nothing on the site origin', async () => {
        const a = await raw(ctx.siteUrl, 'GET', `/sites/origins-${ctx.run}`, { headers: HTML });
        const b = await raw(ctx.siteUrl, 'GET', `/sites/origins-${ctx.run}`, { headers: { ...HTML, Cookie: aliceS.cookie } });
        assert.equal(b.status, 200);
        assert.equal(b.text, a.text);
        assert.equal(b.headers['set-cookie'], undefined);
    });

    it('every site answer is nosniff: pages, twins, llms files, sitemap, robots, search JSON, 404s, assets', async () => {
        const root = `/sites/origins-${ctx.run}`;
        for (const path of [root, `${root}/index.md`, `${root}/intro.md`, `${root}/llms.txt`, `${root}/llms-full.txt`, `${root}/sitemap.xml`,
            `${root}/robots.txt`, `${root}/~search.json?q=platypus`, `${root}/~search?q=platypus`, `${root}/no/such/page`,
            `${root}/nosuch.md`, '/sites/nosuchsite', `${root}/~assets/site.css`, `${root}/~assets/site.js`]) {
            const r = await raw(ctx.siteUrl, 'GET', path);
            assert.ok([200, 301, 404].includes(r.status), `${path}: ${r.status}`);
            assert.equal(r.headers['x-content-type-options'], 'nosniff', path);
        }
        const s = await raw(ctx.siteUrl, 'GET', `${root}/~search.json?q=platypus`);
        assert.match(s.headers['content-type'], /^application\/json/);
        assert.ok(s.json.results.length >= 1);
    });

    it('uploads on the main origin: attachments, nosniff, never a script or stylesheet for a browser', async () => {
        for (const f of files) {
            const u = (await ok(alice.api.spaces.getFileById(space.id, f.id), 'getFileById')).downloadURL;
            const path = new URL(u).pathname;
            const r = await raw(ctx.url, 'GET', path);
            assert.equal(r.status, 200, `${f.name}: ${r.text}`);
            assert.match(r.headers['content-disposition'], /^attachment;/);
            assert.equal(r.headers['x-content-type-options'], 'nosniff');
            assert.match(r.headers['content-security-policy'], /sandbox/);
            // A page of the app's origin loading it as script or style gets nothing.
            for (const dest of ['script', 'style', 'worker', 'serviceworker']) {
                const s = await raw(ctx.url, 'GET', path, { headers: { 'Sec-Fetch-Dest': dest, 'Sec-Fetch-Site': 'same-origin' } });
                assert.equal(s.status, 404, `${f.name} as ${dest}`);
                assert.doesNotMatch(s.text, /settings\/tokens|alert/);
            }
            // An image or a download still works; so does the site origin.
            assert.equal((await raw(ctx.url, 'GET', path, { headers: { 'Sec-Fetch-Dest': 'document' } })).status, 200);
            const onSite = await raw(ctx.siteUrl, 'GET', path);
            assert.equal(onSite.status, 200);
            assert.match(onSite.headers['content-disposition'], /^attachment;/);
        }
        // The app's own assets still load as such.
        const css = await raw(ctx.url, 'GET', '/~app/app.css', { headers: { 'Sec-Fetch-Dest': 'style' } });
        assert.equal(css.status, 200);
        // API answers carry nosniff as well (a user's text is never read as script).
        const me = await raw(ctx.url, 'GET', '/v1/user', { token: mallory.token });
        assert.equal(me.headers['x-content-type-options'], 'nosniff');
        const asScript = await raw(ctx.url, 'GET', '/v1/user', { token: mallory.token, headers: { 'Sec-Fetch-Dest': 'script' } });
        assert.equal(asScript.status, 404);
    });

    it('the app signs out background requests from another site; navigations and its own requests keep the session', async () => {
        const get = (headers) => raw(ctx.url, 'GET', '/settings/tokens', { headers: { ...HTML, Cookie: aliceS.cookie, ...headers } });
        for (const [site, mode] of [['same-site', 'cors'], ['cross-site', 'cors'], ['same-site', 'no-cors'], ['cross-site', 'no-cors'], ['cross-site', undefined]]) {
            const r = await get({ 'Sec-Fetch-Site': site, ...(mode ? { 'Sec-Fetch-Mode': mode } : {}) });
            assert.equal(r.status, 303, `${site} ${mode}: ${r.status}`);
            assert.match(r.headers.location, /^\/signin\?next=/);
            assert.doesNotMatch(r.text, /csrf/);
        }
        for (const headers of [{}, { 'Sec-Fetch-Site': 'same-origin', 'Sec-Fetch-Mode': 'cors' }, { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate' },
            { 'Sec-Fetch-Site': 'none', 'Sec-Fetch-Mode': 'navigate' }]) {
            const r = await get(headers);
            assert.equal(r.status, 200, JSON.stringify(headers));
            assert.match(r.text, /name="csrf"/);
        }
        // A form post from another site in the background cannot create a token either.
        const page = await get({});
        const csrf = page.text.match(/name="csrf" value="([^"]+)"/)[1];
        const p = await raw(ctx.url, 'POST', '/settings/tokens', {
            body: new URLSearchParams({ csrf, name: `stolen-${ctx.run}` }).toString(),
            headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: aliceS.cookie, 'Sec-Fetch-Site': 'same-site', 'Sec-Fetch-Mode': 'no-cors' },
        });
        assert.notEqual(p.status, 200);
        const after = await get({});
        assert.doesNotMatch(after.text, new RegExp(`stolen-${ctx.run}`));
    });

    it('the options: --site-url may not be the public URL\'s origin; a bad one is refused', async () => {
        for (const [args, msg] of [
            // (an ephemeral site listener: the default port + 1 of a random port may be taken)
            [['--site-listen', '127.0.0.1:0', '--site-url', 'http://127.0.0.1:1'], /another origin/],
            [['--site-listen', '127.0.0.1:0', '--site-url', 'javascript:alert(1)'], /--site-url/],
            [['--site-listen', 'nonsense'], /--site-listen/],
        ]) {
            const port = 40000 + Math.floor(Math.random() * 20000);
            const r = await runCli(['serve', '--listen', `127.0.0.1:${port}`, '--public-url', 'http://127.0.0.1:1', '--data', `${ctx.server.dataDir}/opt`, ...args]);
            assert.notEqual(r.code, 0, args.join(' '));
            assert.match(r.stderr, msg);
        }
        const help = await runCli(['--help']);
        assert.match(help.stdout, /--site-listen HOST:PORT/);
        assert.match(help.stdout, /DOCSD_SITE_URL/);
    });
});

describe('two origins by default', () => {
    let server;
    after(() => server?.stop());

    it('without --site-url a 127.0.0.1 public URL gets http://localhost:<site port>: another host, so the session cookie never goes there', async () => {
        server = await startServer({ extraArgs: ['--site-listen', '127.0.0.1:0'] });
        const u = new URL(server.siteUrl);
        assert.equal(u.hostname, 'localhost');
        assert.notEqual(Number(u.port), server.port);
        const h = await fetch(`http://127.0.0.1:${u.port}/healthz`);
        assert.equal(h.status, 200);
        const r = await raw(server.url, 'GET', '/sites/x/y');
        assert.equal(r.status, 308);
        assert.equal(r.headers.location, `${server.siteUrl}/sites/x/y`);
    });
});
