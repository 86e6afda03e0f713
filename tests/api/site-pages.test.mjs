// The published site served by docsd (site/): a site built and published through the API,
// its pages fetched over HTTP at {public-url}/sites/{basename or id}/...: status, headers
// (ETag and 304, Cache-Control, X-Robots-Tag, content types) and HTML; navigation, sections
// and site-space variants, GitBook blocks, links between pages, images, search, the 404 page;
// visibility (unpublished, unlisted, share-link with and without a key, visitor-auth with a
// JWT signed with the site's key, expired or forged tokens), conditions on site spaces, the
// .md twins, llms.txt, sitemap.xml and robots.txt; a merge changes the page and its ETag.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import { setup } from './lib/fixtures.mjs';
import { ok, raw, createOrg } from './lib/api.mjs';

const PNG_B64 =
    'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==';

const INTRO = `Welcome to **Acme**. Read the [installation](./installation.md) page.

{% hint style="warning" %}
Mind the 1 < 2 & limits.
{% endhint %}

{% tabs %}
{% tab title="JavaScript" %}
\`\`\`js
acme.run()
\`\`\`
{% endtab %}
{% tab title="Python" %}
\`\`\`python
acme.run()
\`\`\`
{% endtab %}
{% endtabs %}

{% code title="install.sh" %}
\`\`\`bash
npm i acme
\`\`\`
{% endcode %}

| a | b |
|---|---|
| 1 | 2 |

![diagram](logo)

<script>alert(1)</script>
`;

/** An HS256 JWT of claims signed with key (header: the JOSE header). */
function jwt(key, claims, header = { alg: 'HS256', typ: 'JWT' }) {
    const b = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const data = `${b(header)}.${b(claims)}`;
    return `${data}.${createHmac('sha256', key).update(data).digest('base64url')}`;
}

/** GET of a request target sent exactly as written (raw() goes through new URL(), which reads
 * "//evil.example" as another host). */
function getExact(baseUrl, target, headers = {}) {
    const u = new URL(baseUrl);
    return new Promise((resolve, reject) => {
        const req = http.request({ host: u.hostname, port: u.port, method: 'GET', path: target, headers }, (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode, headers: res.headers }));
        });
        req.on('error', reject);
        req.end();
    });
}

describe('published site pages', () => {
    let ctx, alice, api, org, guide, legacy, site, base;

    const get = (path, headers = {}) => raw(path.startsWith('/sites/') ? ctx.siteUrl : ctx.url, 'GET', path, { headers });
    const html = async (path, status = 200, headers = {}) => {
        const r = await get(path, headers);
        assert.equal(r.status, status, `GET ${path}: expected ${status}, got ${r.status}: ${r.text.slice(0, 300)}`);
        if (status !== 304) assert.match(r.headers['content-type'], /^text\/html; charset=utf-8/);
        return r;
    };

    async function seeded(title, changes) {
        const s = await ok(api.orgs.createSpace(org.id, { title }), 'createSpace', 201);
        await merged(s.id, changes);
        return s;
    }
    async function merged(spaceId, changes) {
        const cr = await ok(api.spaces.createChangeRequest(spaceId, { subject: 'Edit' }), 'createChangeRequest', 201);
        const r = await raw(ctx.url, 'POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, { token: alice.token, json: { changes } });
        assert.equal(r.status, 200, r.text);
        const m = await ok(api.spaces.mergeChangeRequest(spaceId, cr.id), 'mergeChangeRequest');
        assert.equal(m.result, 'merge');
    }
    async function newSite(title, spaces, extra = {}) {
        const s = await ok(api.orgs.createSite(org.id, { title }), 'createSite', 201);
        for (const sp of spaces) await ok(api.orgs.addSpaceToSite(org.id, s.id, { spaceId: sp.id }), 'addSpaceToSite', 201);
        if (Object.keys(extra).length) await ok(api.orgs.updateSiteById(org.id, s.id, extra), 'updateSiteById');
        return s;
    }
    const publish = (s) => ok(api.orgs.publishSite(org.id, s.id), 'publishSite');

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        api = alice.api;
        ({ org } = await createOrg(ctx.url, alice.token, `Site pages ${ctx.run}`));
        guide = await seeded('Guide', [
            { operation: 'insert_files', files: [{ ref: 'logo', name: 'diagram.png', contentType: 'image/png', base64: PNG_B64 }] },
            { operation: 'insert_page', title: 'Introduction', ref: 'intro', description: 'Start <here>', document: { markdown: INTRO } },
            { operation: 'insert_page', title: 'Installation', ref: 'install', document: { markdown: 'Run the installer.\n\nBack to [intro](intro).\n' } },
            { operation: 'insert_page', title: 'Guides', ref: 'guides', document: { markdown: 'All guides.\n' } },
            { operation: 'insert_page', title: 'Authentication', into: 'guides', document: { markdown: '## Tokens\n\nSend a zanzibar token.\n' } },
        ]);
        legacy = await seeded('Legacy', [
            { operation: 'insert_page', title: 'Old intro', document: { markdown: 'Legacy docs.\n' } },
            { operation: 'insert_page', title: 'Draft notes', noIndex: true, document: { markdown: 'Not for search engines.\n' } },
        ]);
        site = await newSite(`Acme Docs ${ctx.run}`, [guide, legacy], { basename: `acme-${ctx.run}` });
        base = `/sites/acme-${ctx.run}`;
    });
    after(() => ctx?.server.stop());

    it('an unpublished site is 404; publishing makes urls.published serve the site', async () => {
        const r = await html(base, 404);
        assert.match(r.headers['x-robots-tag'], /noindex/);
        const s = await publish(site);
        assert.equal(s.published, true);
        assert.equal(new URL(s.urls.published).pathname, base);
        const home = await html(new URL(s.urls.published).pathname);
        assert.match(home.text, /<title>Introduction \| Acme Docs [^<]*<\/title>/);
        // by id as well
        await html(`/sites/${site.id}`);
        await html('/sites/nosuchsite', 404);
    });

    it('a page: layout, navigation, GitBook blocks, links, images, escaping, headers', async () => {
        const r = await html(`${base}/guides/authentication`);
        const t = r.text;
        assert.match(t, /^<!doctype html>/);
        assert.match(t, /<link rel="stylesheet" href="[^"]*~assets\/site\.css\?v=[0-9a-f]+">/);
        assert.match(t, new RegExp(`<a href="${base}/guides/authentication" aria-current="page">Authentication</a>`));
        assert.match(t, new RegExp(`<details open><summary><a href="${base}/guides">Guides</a>`));
        assert.match(t, /<h2 id="tokens">Tokens<\/h2>/);
        assert.match(t, new RegExp(`rel="prev" href="${base}/guides"`));
        // the variants of the root: the default space at the root, the other at its path
        assert.match(t, new RegExp(`<nav class="variants"[^>]*><a href="${base}" aria-current="true">Guide</a><a href="${base}/legacy">Legacy</a>`));
        assert.equal(r.headers['cache-control'], 'public, max-age=60, must-revalidate');
        assert.equal(r.headers['x-robots-tag'], undefined);
        assert.match(r.headers.etag, /^"[0-9a-f]{32}"$/);
        assert.match(r.headers['content-security-policy'], /default-src 'none'/);
        assert.equal(r.headers.vary, 'Cookie');

        const intro = (await html(base)).text;
        assert.match(intro, /<div class="hint hint-warning" role="note">/);
        assert.match(intro, /Mind the 1 &lt; 2 &amp; limits\./);
        assert.match(intro, /<input type="radio" name="tabs-1" id="tabs-1-0" checked><label for="tabs-1-0">JavaScript<\/label>/);
        assert.match(intro, /<figure class="code-block"><figcaption>install\.sh<\/figcaption>/);
        assert.match(intro, /<table>/);
        assert.doesNotMatch(intro, /<script>/);
        assert.match(intro, /<p class="lead">Start &lt;here&gt;<\/p>/);
        assert.match(intro, new RegExp(`<a href="${base}/installation">installation</a>`));
        const img = intro.match(/<img src="([^"]+)" alt="diagram"/);
        assert.ok(img, 'the image is shown');
        const f = await get(img[1]);
        assert.equal(f.status, 302);
        const bytes = await get(new URL(f.headers.location).pathname);
        assert.equal(bytes.status, 200);
        assert.equal(bytes.headers['content-type'], 'image/png');
        // a link by page id, rewritten
        assert.match((await html(`${base}/installation`)).text, new RegExp(`<a href="${base}">intro</a>`));
        // the other variant
        assert.match((await html(`${base}/legacy`)).text, /Legacy docs\./);
        // renaming a space renames its variant (no stale cached page)
        await ok(api.spaces.updateSpaceById(legacy.id, { title: 'Legacy v0' }), 'updateSpaceById');
        assert.match((await html(`${base}/guides/authentication`)).text, /<a href="[^"]*\/legacy">Legacy v0<\/a>/);
        await ok(api.spaces.updateSpaceById(legacy.id, { title: 'Legacy' }), 'updateSpaceById');
    });

    it('ETag and If-None-Match; a merge changes the page and its ETag', async () => {
        const a = await html(`${base}/installation`);
        const again = await html(`${base}/installation`);
        assert.equal(again.headers.etag, a.headers.etag);
        assert.equal(again.text, a.text, 'the cached rendering is the same');
        const nm = await get(`${base}/installation`, { 'If-None-Match': a.headers.etag });
        assert.equal(nm.status, 304);
        assert.equal(nm.text, '');
        assert.equal((await get(`${base}/installation`, { 'If-None-Match': '"other"' })).status, 200);
        const pages = (await ok(api.spaces.listPages(guide.id), 'listPages')).pages;
        const install = pages.find((p) => p.title === 'Installation');
        await merged(guide.id, [{ operation: 'update_page', page: install.id, document: { markdown: 'Run the NEW installer.\n' } }]);
        const b = await html(`${base}/installation`);
        assert.notEqual(b.headers.etag, a.headers.etag);
        assert.match(b.text, /Run the NEW installer\./);
        assert.equal((await get(`${base}/installation`, { 'If-None-Match': a.headers.etag })).status, 200);
    });

    it('the 404 page keeps the site style; the stylesheet is cached for long', async () => {
        const r = await html(`${base}/no/such/page`, 404);
        assert.match(r.text, /<h1>Page not found<\/h1>/);
        assert.match(r.text, /class="sidebar"/);
        const css = r.text.match(/href="([^"]*site\.css[^"]*)"/)[1];
        const c = await get(css);
        assert.equal(c.status, 200);
        assert.match(c.headers['content-type'], /^text\/css/);
        assert.match(c.headers['cache-control'], /max-age=31536000/);
        assert.match(c.text, /font:16px\/1\.6/);
        const post = await raw(ctx.siteUrl, 'POST', base, {});
        assert.equal(post.status, 405);
        // odd input is a 404 or an empty result, never an error
        for (const p of [`${base}/~file/x/y`, `${base}/~file/`, `${base}/~share/`, `${base}/a%0Ab`, '/sites/a%0Ab', '/sites/', `${base}/${'x'.repeat(1500)}`])
            assert.equal((await get(p)).status, 404, p);
        for (const q of ['%ff%fe', 'x'.repeat(3000), '%22%3E%3Cscript%3E'])
            assert.doesNotMatch((await html(`${base}/~search?q=${q}`)).text, /<script>/);
    });

    it('search renders results from the site spaces', async () => {
        const r = await html(`${base}/~search?q=zanzibar`);
        assert.match(r.text, /1 result for/);
        assert.match(r.text, new RegExp(`<a href="${base}/guides/authentication#tokens">Authentication &rsaquo; Tokens</a>`));
        assert.match((await html(`${base}/~search?q=${encodeURIComponent('<nothing>')}`)).text, /No results for “&lt;nothing&gt;/);
    });

    it('markdown twins, llms.txt, sitemap.xml and robots.txt of a public site', async () => {
        const md = await get(`${base}/guides/authentication.md`);
        assert.equal(md.status, 200);
        assert.match(md.headers['content-type'], /^text\/markdown; charset=utf-8/);
        assert.match(md.text, /^# Authentication\n\n## Tokens/);
        const first = await get(`${base}/index.md`);
        assert.equal(first.status, 200);
        assert.match(first.text, /^# Introduction\n\nStart <here>\n\nWelcome/);
        assert.equal((await get(`${base}/nope.md`)).status, 404);
        const llms = await get(`${base}/llms.txt`);
        assert.equal(llms.status, 200);
        assert.match(llms.headers['content-type'], /^text\/plain/);
        assert.match(llms.text, /^# Acme Docs/);
        assert.match(llms.text, new RegExp(`- \\[Authentication\\]\\(http://[^)]*${base}/guides/authentication\\.md\\)`));
        assert.match(llms.text, new RegExp(`- \\[Old intro\\]\\(http://[^)]*${base}/legacy/index\\.md\\)`));
        // sitemap.xml is an index of one sitemap per site space (site-reader.test.mjs)
        const idx = await get(`${base}/sitemap.xml`);
        assert.equal(idx.status, 200);
        assert.match(idx.headers['content-type'], /^application\/xml/);
        const parts = [...idx.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
        assert.equal(parts.length, 2, 'Guide and Legacy');
        const sm = { text: (await Promise.all(parts.map((p) => get(p)))).map((r) => r.text).join('') };
        assert.match(sm.text, new RegExp(`<loc>http://[^<]*${base}/guides/authentication</loc>`));
        // a page marked noIndex: not in the sitemap, a robots meta on the page
        assert.doesNotMatch(sm.text, /draft-notes/);
        assert.match((await html(`${base}/legacy/draft-notes`)).text, /<meta name="robots" content="noindex, nofollow">/);
        assert.doesNotMatch((await html(`${base}/legacy`)).text, /<meta name="robots"/);
        const robots = await get(`${base}/robots.txt`);
        assert.match(robots.text, /^User-agent: \*\nAllow: \/\n/);
        assert.match(robots.text, /Sitemap: http:\/\/.*\/sitemap\.xml/);
    });

    it('unlisted: served with noindex, no sitemap, robots disallow', async () => {
        const s = await newSite('Unlisted', [legacy], { visibility: 'unlisted' });
        await publish(s);
        const r = await html(`/sites/${s.id}`);
        assert.equal(r.headers['x-robots-tag'], 'noindex');
        assert.match(r.text, /<meta name="robots" content="noindex, nofollow">/);
        assert.equal((await get(`/sites/${s.id}/sitemap.xml`)).status, 404);
        // a bad visitor token is ignored where none is needed
        assert.equal((await get(`/sites/${s.id}?jwt_token=a.b.c`)).status, 200);
        assert.equal((await get(`/sites/${s.id}/robots.txt`)).text, 'User-agent: *\nDisallow: /\n');
    });

    it('share-link: 404 without a key or with a wrong one; the key in the path or the query', async () => {
        const s = await newSite('Shared', [guide], { visibility: 'share-link' });
        await publish(s);
        const link = await ok(api.orgs.createSiteShareLink(org.id, s.id, { name: 'Partners' }), 'createSiteShareLink', 201);
        const path = new URL(link.urls.published).pathname;
        assert.match(path, new RegExp(`^/sites/${s.id}/~share/[^/]+$`));
        const key = path.split('/').pop();
        await html(`/sites/${s.id}`, 404);
        await html(`/sites/${s.id}/installation`, 404);
        await html(`/sites/${s.id}/~share/wrong${key}/installation`, 404);
        const r = await html(`${path}/installation`);
        assert.match(r.text, /Run the NEW installer/);
        assert.equal(r.headers['x-robots-tag'], 'noindex');
        assert.match(r.headers['cache-control'], /^private/);
        // links keep the prefix
        assert.match(r.text, new RegExp(`href="${path}/guides/authentication"`));
        const q = await get(`/sites/${s.id}/installation?share=${key}`);
        assert.equal(q.status, 302);
        assert.equal(q.headers.location, `${path}/installation`);
        assert.equal((await get(`/sites/${s.id}/robots.txt`)).text, 'User-agent: *\nDisallow: /\n');
        // a deactivated link stops working
        await ok(api.orgs.updateSiteShareLinkById(org.id, s.id, link.id, { active: false }), 'updateSiteShareLinkById');
        await html(`${path}/installation`, 404);
    });

    it('visitor-auth: a JWT signed with the site key, once in the query, then a cookie', async () => {
        const s = await newSite('Private', [guide, legacy], { visibility: 'visitor-auth' });
        await publish(s);
        const auth = await ok(api.orgs.getSitePublishingAuthById(org.id, s.id), 'getSitePublishingAuthById');
        const key = auth.privateKey;
        const root = `/sites/${s.id}`;
        assert.equal((await get(root)).status, 401);
        const now = Math.floor(Date.now() / 1000);
        const good = jwt(key, { plan: 'pro', exp: now + 600 });
        const r = await get(`${root}/installation?jwt_token=${good}`);
        assert.equal(r.status, 302);
        assert.equal(r.headers.location, `${root}/installation`);
        const cookie = r.headers['set-cookie'][0];
        assert.match(cookie, new RegExp(`^docsd_visitor=${good.replace(/[.]/g, '\\.')}; Path=${root}; HttpOnly`));
        const page = await html(`${root}/installation`, 200, { Cookie: cookie.split(';')[0] });
        assert.match(page.text, /Run the NEW installer/);
        assert.match(page.headers['cache-control'], /^private/);
        assert.equal(page.headers['x-robots-tag'], 'noindex');
        for (const bad of [jwt(key, { exp: now - 10 }), jwt('not-the-key', { exp: now + 600 }), 'a.b.c']) {
            assert.equal((await get(`${root}?jwt_token=${bad}`)).status, 401);
            assert.equal((await get(root, { Cookie: `docsd_visitor=${bad}` })).status, 401);
        }
        // The claims feed the site spaces' conditions.
        const spaces = (await ok(api.orgs.listSiteSpaces(org.id, s.id), 'listSiteSpaces')).items;
        const leg = spaces.find((x) => x.space.id === legacy.id);
        await ok(api.orgs.updateSiteSpaceById(org.id, s.id, leg.id, { condition: 'visitor.claims.plan == "enterprise"' }), 'updateSiteSpaceById');
        const pro = (await html(`${root}/installation`, 200, { Cookie: `docsd_visitor=${good}` })).text;
        assert.doesNotMatch(pro, /Legacy/);
        await html(`${root}/${leg.path}`, 404, { Cookie: `docsd_visitor=${good}` });
        const ent = jwt(key, { plan: 'enterprise', exp: now + 600 });
        const entPage = await html(`${root}/installation`, 200, { Cookie: `docsd_visitor=${ent}` });
        assert.match(entPage.text, /Legacy/);
        assert.match((await html(`${root}/${leg.path}`, 200, { Cookie: `docsd_visitor=${ent}` })).text, /Legacy docs\./);
    });

    it('visitor tokens: exp is required and bounded (30 days), crit is refused', async () => {
        const s = await newSite('Tokens', [guide], { visibility: 'visitor-auth' });
        await publish(s);
        const key = (await ok(api.orgs.getSitePublishingAuthById(org.id, s.id), 'getSitePublishingAuthById')).privateKey;
        const root = `/sites/${s.id}`;
        const now = Math.floor(Date.now() / 1000);
        const DAY = 24 * 3600;
        const good = [jwt(key, { exp: now + 600 }), jwt(key, { exp: now + 29 * DAY }), jwt(key, { exp: now + 600, nbf: now - 5 })];
        for (const t of good) {
            assert.equal((await get(`${root}?jwt_token=${t}`)).status, 302, `accepted: ${t}`);
            assert.equal((await get(root, { Cookie: `docsd_visitor=${t}` })).status, 200);
        }
        const bad = {
            'no exp': jwt(key, { plan: 'pro' }),
            'exp 1e308': jwt(key, { exp: 1e308 }),
            'exp past the maximum lifetime': jwt(key, { exp: now + 31 * DAY }),
            'exp a string': jwt(key, { exp: String(now + 600) }),
            'nbf in the future': jwt(key, { exp: now + 600, nbf: now + 300 }),
            'crit header': jwt(key, { exp: now + 600 }, { alg: 'HS256', typ: 'JWT', crit: ['exp'] }),
            'empty crit': jwt(key, { exp: now + 600 }, { alg: 'HS256', crit: [] }),
            'alg none': jwt(key, { exp: now + 600 }, { alg: 'none' }),
        };
        for (const [what, t] of Object.entries(bad)) {
            assert.equal((await get(`${root}?jwt_token=${t}`)).status, 401, `${what}: the query`);
            assert.equal((await get(root, { Cookie: `docsd_visitor=${t}` })).status, 401, `${what}: the cookie`);
        }
    });

    it('redirects built from the request path stay on the site (no //host or /\\host)', async () => {
        const s = await newSite('Redirects', [guide], { visibility: 'visitor-auth' });
        const host = `auth-${ctx.run}.example.com`.toLowerCase();
        await ok(api.orgs.updateSiteById(org.id, s.id, { hostname: host }), 'updateSiteById');
        await publish(s);
        const key = (await ok(api.orgs.getSitePublishingAuthById(org.id, s.id), 'getSitePublishingAuthById')).privateKey;
        const tok = jwt(key, { exp: Math.floor(Date.now() / 1000) + 600 });
        const cases = {
            '//evil.example': '/evil.example',
            '///evil.example/x': '/evil.example/x',
            '/\\evil.example': '/%5Cevil.example',
            '/%2F%2Fevil.example': null, // whatever MHD makes of it: one leading '/'
            '/installation': '/installation',
        };
        for (const [path, want] of Object.entries(cases)) {
            const r = await getExact(ctx.url, `${path}?jwt_token=${tok}`, { Host: host });
            assert.equal(r.status, 302, `${path}: status`);
            const loc = r.headers.location;
            assert.match(loc, /^\/(?![\/\\])/, `${path}: Location ${loc} must stay on the site`);
            if (want) assert.equal(loc, want, `${path}: Location`);
            assert.match(r.headers['set-cookie'][0], /^docsd_visitor=[^;]+; Path=\/; HttpOnly/);
        }
        // share keys on a share-link site of its own host
        const sh = await newSite('Shared host', [guide], { visibility: 'share-link' });
        const shost = `share-${ctx.run}.example.com`.toLowerCase();
        await ok(api.orgs.updateSiteById(org.id, sh.id, { hostname: shost }), 'updateSiteById');
        await publish(sh);
        for (const path of ['//evil.example', '/\\evil.example', '/x']) {
            const r = await getExact(ctx.url, `${path}?share=abc`, { Host: shost });
            assert.equal(r.status, 302, `${path}?share: status`);
            assert.match(r.headers.location, /^\/~share\/abc\//, `${path}?share: Location ${r.headers.location}`);
        }
        // through /sites/{name} too
        const r = await getExact(ctx.siteUrl, `/sites/${s.id}//evil.example?jwt_token=${tok}`);
        assert.equal(r.status, 302);
        assert.equal(r.headers.location, `/sites/${s.id}//evil.example`);
    });

    it('basenames: served at any spelling of their case; links, cookie and redirects use the stored one', async () => {
        const s = await newSite('Cased', [guide], { visibility: 'visitor-auth' });
        const name = `Cased-${ctx.run}`;
        await ok(api.orgs.updateSiteById(org.id, s.id, { basename: name }), 'updateSiteById');
        await publish(s);
        const key = (await ok(api.orgs.getSitePublishingAuthById(org.id, s.id), 'getSitePublishingAuthById')).privateKey;
        const tok = jwt(key, { exp: Math.floor(Date.now() / 1000) + 600 });
        for (const spelt of [name, name.toLowerCase(), name.toUpperCase()]) {
            const r = await get(`/sites/${spelt}/installation?jwt_token=${tok}`);
            assert.equal(r.status, 302, spelt);
            assert.equal(r.headers.location, `/sites/${name}/installation`, `${spelt}: back to the stored spelling`);
            assert.match(r.headers['set-cookie'][0], new RegExp(`; Path=/sites/${name}; `));
            const page = await html(`/sites/${spelt}/installation`, 200, { Cookie: `docsd_visitor=${tok}` });
            assert.match(page.text, new RegExp(`href="/sites/${name}/guides/authentication"`), `${spelt}: links`);
        }
        await html(`/sites/x${name}/installation`, 404);
    });

    it('a site with a hostname is served at / of that host; other hosts and the API are unaffected', async () => {
        const s = await newSite('Hosted', [guide]);
        const host = `docs-${ctx.run}.example.com`.toLowerCase();
        const patched = await ok(api.orgs.updateSiteById(org.id, s.id, { hostname: host }), 'updateSiteById');
        assert.equal(patched.hostname, host);
        assert.equal((await get('/', { Host: host })).status, 404, 'not published yet');
        const pub = await publish(s);
        assert.equal(pub.urls.published, `http://${host}`);
        const home = await html('/', 200, { Host: host });
        assert.match(home.text, /Introduction/);
        assert.match(home.text, /href="\/installation"/, 'links are relative to the host root');
        assert.match((await html('/installation', 200, { Host: host })).text, /Run the NEW installer|Run the installer/);
        assert.equal((await get('/installation.md', { Host: host })).status, 200);
        // The API answers on every host; an unknown host is no site.
        const me = await raw(ctx.url, 'GET', '/v1/user', { token: alice.token, headers: { Host: host } });
        assert.equal(me.status, 200);
        assert.equal((await get('/', { Host: `other-${ctx.run}.example.com`.toLowerCase() })).status, 404);
        await ok(api.orgs.updateSiteById(org.id, s.id, { hostname: null }), 'updateSiteById');
        assert.equal((await get('/', { Host: host })).status, 404, 'the hostname removed');
    });

    it('a space\'s own visibility narrows its site space: share-link spaces need a key, visitor-auth ones a token', async () => {
        const secret = await seeded('Partner notes', [{ operation: 'insert_page', title: 'Partner page', document: { markdown: 'Only for partners: quarzite.\n' } }]);
        const members = await seeded('Member notes', [{ operation: 'insert_page', title: 'Member page', document: { markdown: 'Only for members: feldspar.\n' } }]);
        await ok(api.spaces.updateSpaceById(secret.id, { visibility: 'share-link' }), 'updateSpaceById');
        await ok(api.spaces.updateSpaceById(members.id, { visibility: 'visitor-auth' }), 'updateSpaceById');
        const s = await newSite('Mixed', [guide, secret, members]);
        await publish(s);
        const spaces = (await ok(api.orgs.listSiteSpaces(org.id, s.id), 'listSiteSpaces')).items;
        const pathOf = (sp) => spaces.find((x) => x.space.id === sp.id).path;
        const root = `/sites/${s.id}`;
        const anon = (await html(root)).text;
        assert.doesNotMatch(anon, /Partner notes|Member notes/, 'an anonymous visitor sees neither');
        await html(`${root}/${pathOf(secret)}`, 404);
        await html(`${root}/${pathOf(members)}`, 404);
        // Through a share link of the (public) site: the share-link space shows.
        const link = await ok(api.orgs.createSiteShareLink(org.id, s.id, { name: 'Partners' }), 'createSiteShareLink', 201);
        const shared = new URL(link.urls.published).pathname;
        assert.match((await html(`${shared}/${pathOf(secret)}`)).text, /quarzite/);
        await html(`${shared}/${pathOf(members)}`, 404);
        // With a visitor token: the visitor-auth space shows.
        const auth = await ok(api.orgs.getSitePublishingAuthById(org.id, s.id), 'getSitePublishingAuthById');
        const tok = jwt(auth.privateKey, { exp: Math.floor(Date.now() / 1000) + 600 });
        assert.match((await html(`${root}/${pathOf(members)}`, 200, { Cookie: `docsd_visitor=${tok}` })).text, /feldspar/);
        await html(`${root}/${pathOf(secret)}`, 404, { Cookie: `docsd_visitor=${tok}` });
    });

    it('the customization and a site space\'s override shape the pages; a deleted space is not served', async () => {
        const tmp = await seeded('Temporary', [{ operation: 'insert_page', title: 'Soon gone', document: { markdown: 'Temporary docs.\n' } }]);
        const s = await newSite('Styled', [guide, legacy, tmp]);
        await publish(s);
        await ok(api.orgs.updateSiteCustomizationById(org.id, s.id, {
            title: 'Acme <Handbook>',
            styling: { primaryColor: { light: '#7C3AED', dark: '#A78BFA' } },
            header: { links: [
                { title: 'Blog', to: { kind: 'url', url: 'https://example.com/blog' }, links: [] },
                { title: 'Pro console', to: { kind: 'url', url: 'https://example.com/pro' }, links: [], condition: 'visitor.claims.plan == "pro"' },
            ] },
            footer: { groups: [{ title: 'Company', links: [{ title: 'About us', to: { kind: 'url', url: 'https://example.com/about' } }] }], copyright: '© Acme & co' },
            announcement: { enabled: true, message: 'Version 2 is out', style: 'success' },
        }), 'updateSiteCustomizationById');
        const root = `/sites/${s.id}`;
        const t = (await html(`${root}/installation`)).text;
        assert.match(t, /<title>Installation \| Acme &lt;Handbook&gt;<\/title>/);
        assert.match(t, /:root\{--primary:#7C3AED\}/);
        assert.match(t, /<a href="https:\/\/example\.com\/blog">Blog<\/a>/);
        assert.doesNotMatch(t, /Pro console/, 'a header link whose condition fails is not shown');
        assert.match(t, /<h2>Company<\/h2><ul><li><a href="https:\/\/example\.com\/about">About us<\/a>/);
        assert.match(t, /© Acme &amp; co/);
        assert.match(t, /class="announcement announcement-success"[^>]*>Version 2 is out/);
        // an override of the legacy site space
        const spaces = (await ok(api.orgs.listSiteSpaces(org.id, s.id), 'listSiteSpaces')).items;
        const leg = spaces.find((x) => x.space.id === legacy.id);
        const tmpSs = spaces.find((x) => x.space.id === tmp.id);
        await ok(api.orgs.overrideSiteSpaceCustomizationById(org.id, s.id, leg.id, { title: 'Legacy handbook' }), 'overrideSiteSpaceCustomizationById');
        assert.match((await html(`${root}/${leg.path}`)).text, /<title>Old intro \| Legacy handbook<\/title>/);
        assert.match((await html(`${root}/installation`)).text, /<title>Installation \| Acme &lt;Handbook&gt;<\/title>/);
        // deleting a space takes its variant off the site
        assert.match((await html(`${root}/${tmpSs.path}`)).text, /Temporary docs\./);
        const del = await raw(ctx.url, 'DELETE', `/v1/spaces/${tmp.id}`, { token: alice.token });
        assert.equal(del.status, 204, del.text);
        const after = (await html(root)).text;
        assert.doesNotMatch(after, /Temporary/);
        await html(`${root}/${tmpSs.path}`, 404);
    });

    it('unpublishing takes the site down', async () => {
        const s = await newSite('Gone', [legacy]);
        await publish(s);
        await html(`/sites/${s.id}`);
        await ok(api.orgs.unpublishSite(org.id, s.id), 'unpublishSite');
        await html(`/sites/${s.id}`, 404);
    });
});
