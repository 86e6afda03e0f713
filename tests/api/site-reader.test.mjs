// What readers and search engines expect of a published site (issue 24, section 4): the theme
// toggle without script (a link setting a cookie per site, the choice shown and keyed), the
// search endpoint's JSON (search as you type) under the site's access rules (a hidden page, a
// site space the visitor's claims do not open, another site's content and a share-link site
// without its key never appear), the canonical link, Open Graph and Twitter tags with the
// site's social preview image, breadcrumbs and "last updated", the sitemap index with one
// sitemap per site space and lastmod, robots as before, docsd's own script under the CSP.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { ok, empty, raw, createOrg, sleep } from './lib/api.mjs';

describe('published site: readers and search engines', () => {
    let ctx, alice, api, org, guide, extra, other, site, otherSite, ss, base;

    const get = (path, headers = {}) => raw(path.startsWith('/sites/') ? ctx.siteUrl : ctx.url, 'GET', path, { headers });
    const html = async (path, status = 200, headers = {}) => {
        const r = await get(path, headers);
        assert.equal(r.status, status, `GET ${path}: expected ${status}, got ${r.status}: ${r.text.slice(0, 300)}`);
        return r;
    };
    async function seeded(title, changes) {
        const s = await ok(api.orgs.createSpace(org.id, { title }), 'createSpace', 201);
        const cr = await ok(api.spaces.createChangeRequest(s.id, { subject: 'Seed' }), 'createChangeRequest', 201);
        const r = await raw(ctx.url, 'POST', `/v1/spaces/${s.id}/change-requests/${cr.id}/content`, { token: alice.token, json: { changes } });
        assert.equal(r.status, 200, r.text);
        assert.equal((await ok(api.spaces.mergeChangeRequest(s.id, cr.id), 'mergeChangeRequest')).result, 'merge');
        return s;
    }
    const search = async (q, path = base, headers = {}) => {
        const r = await get(`${path}/~search.json?q=${encodeURIComponent(q)}`, headers);
        assert.equal(r.status, 200, r.text);
        assert.match(r.headers['content-type'], /^application\/json/);
        assert.equal(r.json.query, q);
        assert.ok(Array.isArray(r.json.results));
        return r.json.results;
    };

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        api = alice.api;
        ({ org } = await createOrg(ctx.url, alice.token, `Reader ${ctx.run}`));
        guide = await seeded('Guide', [
            { operation: 'insert_page', title: 'Welcome', description: 'All about <Acme>', document: { markdown: 'Start here with quokka.\n' } },
            { operation: 'insert_page', title: 'Concepts', ref: 'concepts', document: { markdown: 'Ideas.\n' } },
            { operation: 'insert_page', title: 'Tokens', into: 'concepts', document: { markdown: '## Scopes\n\nA quokka token.\n\n## Expiry\n\nLater.\n' } },
            { operation: 'insert_page', title: 'Secret plans', hidden: true, document: { markdown: 'The quokka secret wombat.\n' } },
            { operation: 'insert_page', title: 'Not indexed', noIndex: true, document: { markdown: 'Hidden from robots.\n' } },
        ]);
        extra = await seeded('Pro', [{ operation: 'insert_page', title: 'Pro features', document: { markdown: 'Pro quokka numbat.\n' } }]);
        other = await seeded('Other', [{ operation: 'insert_page', title: 'Elsewhere', document: { markdown: 'A quokka platypus.\n' } }]);
        site = await ok(api.orgs.createSite(org.id, { title: `Reader ${ctx.run}` }), 'createSite', 201);
        ss = await ok(api.orgs.addSpaceToSite(org.id, site.id, { spaceId: guide.id }), 'addSpaceToSite', 201);
        const pro = await ok(api.orgs.addSpaceToSite(org.id, site.id, { spaceId: extra.id }), 'addSpaceToSite', 201);
        await ok(api.orgs.updateSiteSpaceById(org.id, site.id, pro.id, { condition: 'visitor.claims.unsigned.plan == "pro"' }), 'updateSiteSpaceById');
        await ok(api.orgs.updateSiteById(org.id, site.id, { basename: `reader-${ctx.run}` }), 'updateSiteById');
        await ok(api.orgs.publishSite(org.id, site.id), 'publishSite');
        otherSite = await ok(api.orgs.createSite(org.id, { title: 'Other site' }), 'createSite', 201);
        await ok(api.orgs.addSpaceToSite(org.id, otherSite.id, { spaceId: other.id }), 'addSpaceToSite', 201);
        await ok(api.orgs.publishSite(org.id, otherSite.id), 'publishSite');
        base = `/sites/reader-${ctx.run}`;
    });
    after(() => ctx?.server.stop());

    it('the theme toggle works without script: a link sets a cookie for this site and comes back', async () => {
        const r = await html(`${base}/concepts/tokens`);
        assert.match(r.text, /<html lang="en" data-theme="auto">/);
        assert.match(r.text, /<nav class="theme-toggle" aria-label="Theme">/);
        const dark = new RegExp(`<a rel="nofollow" href="${base}/~theme/dark\\?to=concepts/tokens" class="theme-dark" title="Dark theme">`);
        assert.match(r.text, dark);
        const set = await get(`${base}/~theme/dark?to=concepts/tokens`);
        assert.equal(set.status, 302);
        assert.equal(set.headers.location, `${base}/concepts/tokens`);
        const cookie = set.headers['set-cookie'][0];
        assert.match(cookie, new RegExp(`^docsd_theme=dark; Path=${base}; Max-Age=31536000; SameSite=Lax`));
        const d = await html(`${base}/concepts/tokens`, 200, { Cookie: cookie.split(';')[0] });
        assert.match(d.text, /data-theme="dark"/);
        assert.match(d.text, /class="theme-dark" aria-current="true"/);
        assert.notEqual(d.headers.etag, r.headers.etag, 'a theme is its own rendering');
        const l = await html(`${base}/concepts/tokens`, 200, { Cookie: 'docsd_theme=light' });
        assert.match(l.text, /data-theme="light"/);
        const sys = await html(`${base}/concepts/tokens`, 200, { Cookie: 'docsd_theme=system' });
        assert.match(sys.text, /data-theme="auto"/);
        assert.match(sys.text, /class="theme-system" aria-current="true"/);
        // garbage in the cookie is the site's default; an unknown mode is 404
        assert.match((await html(`${base}`, 200, { Cookie: 'docsd_theme=%3Cx%3E' })).text, /data-theme="auto"/);
        await html(`${base}/~theme/purple?to=`, 404);
        // the way back stays on the site
        for (const to of ['//evil.example', '/\\evil.example', 'https://evil.example/']) {
            const x = await get(`${base}/~theme/light?to=${encodeURIComponent(to)}`);
            assert.equal(x.status, 302);
            assert.ok(x.headers.location.startsWith(`${base}/`) && !x.headers.location.startsWith('//'), `${to} -> ${x.headers.location}`);
        }
    });

    it('search as you type: JSON of the visible search, under the same access rules', async () => {
        const hits = await search('quokka');
        const titles = hits.map((h) => h.title).sort();
        assert.deepEqual(titles, ['Tokens', 'Welcome'], JSON.stringify(hits));
        const tok = hits.find((h) => h.title === 'Tokens');
        assert.equal(tok.url, `${base}/concepts/tokens#scopes`);
        assert.equal(tok.section, 'Scopes');
        assert.match(tok.excerpt, /quokka token/);
        // a hidden page, another site's content, a site space whose condition does not hold
        for (const word of ['wombat', 'platypus', 'numbat']) assert.deepEqual(await search(word), [], word);
        // the visitor's claims open the site space, and its pages then appear
        const pro = await search('numbat', base);
        assert.equal(pro.length, 0);
        const withClaim = await get(`${base}/~search.json?q=numbat&visitor.plan=pro`);
        assert.equal(withClaim.status, 200);
        assert.deepEqual(withClaim.json.results.map((h) => h.title), ['Pro features']);
        // nothing to search for
        assert.deepEqual(await search(''), []);
        // the form still works without script
        const form = await html(`${base}/~search?q=quokka`);
        assert.match(form.text, /2 results for/);
        // a share-link site answers nothing without its key
        const sl = await ok(api.orgs.createSite(org.id, { title: 'Shared' }), 'createSite', 201);
        await ok(api.orgs.addSpaceToSite(org.id, sl.id, { spaceId: other.id }), 'addSpaceToSite', 201);
        await ok(api.orgs.updateSiteById(org.id, sl.id, { visibility: 'share-link' }), 'updateSiteById');
        await ok(api.orgs.publishSite(org.id, sl.id), 'publishSite');
        assert.equal((await get(`/sites/${sl.id}/~search.json?q=platypus`)).status, 404);
    });

    it('head: canonical, Open Graph and Twitter tags with the social preview image; docsd\'s script only', async () => {
        const r = await html(`${base}/concepts/tokens`);
        const origin = ctx.siteUrl.replace(/\/$/, '');
        assert.match(r.text, new RegExp(`<link rel="canonical" href="${origin}${base}/concepts/tokens">`));
        assert.match(r.text, new RegExp(`<meta property="og:url" content="${origin}${base}/concepts/tokens">`));
        assert.match(r.text, /<meta property="og:title" content="Tokens">/);
        assert.match(r.text, /<meta name="twitter:card" content="summary">/);
        const w = await html(base);
        assert.match(w.text, new RegExp(`<link rel="canonical" href="${origin}${base}">`));
        assert.match(w.text, /<meta property="og:description" content="All about &lt;Acme&gt;">/);
        assert.match(w.text, /<meta name="twitter:description" content="All about &lt;Acme&gt;">/);
        // the site's social preview image
        const cur = await ok(api.orgs.getSiteCustomizationById(org.id, site.id), 'getSiteCustomizationById');
        await ok(api.orgs.updateSiteCustomizationById(org.id, site.id, { ...cur, socialPreview: { url: 'https://cdn.example.com/preview.png' } }), 'updateSiteCustomizationById');
        const img = await html(base);
        assert.match(img.text, /<meta property="og:image" content="https:\/\/cdn\.example\.com\/preview\.png">/);
        assert.match(img.text, /<meta name="twitter:card" content="summary_large_image">/);
        assert.match(img.text, /<meta name="twitter:image" content="https:\/\/cdn\.example\.com\/preview\.png">/);
        // scripts: docsd's own file only, allowed by the CSP; no inline script
        const src = img.text.match(/<script defer src="([^"]+)"><\/script>/);
        assert.ok(src, 'the page loads site.js');
        assert.match(src[1], new RegExp(`^${base}/~assets/site\\.js\\?v=[0-9a-f]{16}$`));
        assert.equal((img.text.match(/<script/g) || []).length, 1, 'one script element, with src');
        assert.match(img.headers['content-security-policy'], /script-src 'self'/);
        const scriptSrc = img.headers['content-security-policy'].split(';').map((x) => x.trim()).find((x) => x.startsWith('script-src'));
        assert.equal(scriptSrc, "script-src 'self'");
        const js = await get(src[1]);
        assert.equal(js.status, 200);
        assert.match(js.headers['content-type'], /^text\/javascript/);
        assert.match(js.headers['cache-control'], /immutable/);
        assert.match(js.text, /~search|\.json\?q=/);
        // an unlisted site names no canonical URL to search engines
        const u = await ok(api.orgs.createSite(org.id, { title: 'Unlisted' }), 'createSite', 201);
        await ok(api.orgs.addSpaceToSite(org.id, u.id, { spaceId: other.id }), 'addSpaceToSite', 201);
        await ok(api.orgs.updateSiteById(org.id, u.id, { visibility: 'unlisted' }), 'updateSiteById');
        await ok(api.orgs.publishSite(org.id, u.id), 'publishSite');
        const un = await html(`/sites/${u.id}`);
        assert.doesNotMatch(un.text, /rel="canonical"/);
    });

    it('breadcrumbs and "last updated" from the revision', async () => {
        const r = await html(`${base}/concepts/tokens`);
        assert.match(r.text, /<nav class="breadcrumbs" aria-label="Breadcrumbs"><ol>/);
        // the one site space this visitor sees needs no crumb of its own; the parent page has one
        assert.match(r.text, new RegExp(`<nav class="breadcrumbs" aria-label="Breadcrumbs"><ol><li><a href="${base}/concepts">Concepts</a></li></ol></nav>\n<h1>Tokens</h1>`));
        // with the second site space shown, the space is a crumb too
        const two = await html(`${base}/concepts/tokens?visitor.plan=pro`);
        assert.match(two.text, new RegExp(`<ol><li><a href="${base}">Guide</a></li><li><a href="${base}/concepts">Concepts</a></li></ol>`));
        // a top-level page of a single-space site has none
        assert.doesNotMatch((await html(`${base}/concepts`)).text, /class="breadcrumbs"/);
        const m = r.text.match(/<p class="last-updated">Last updated <time datetime="(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)">([A-Z][a-z]+ \d{1,2}, \d{4})<\/time><\/p>/);
        assert.ok(m, 'a last-updated line');
        const rev = await ok(api.spaces.getCurrentRevision(guide.id), 'getCurrentRevision');
        const tokens = rev.pages.find((p) => p.title === 'Concepts').pages[0];
        assert.ok(Math.abs(Date.parse(m[1]) - Date.parse(tokens.updatedAt ?? rev.createdAt)) < 2000, `${m[1]} is the page's time`);
    });

    it('sitemap.xml is an index of one sitemap per site space, with lastmod; robots as before', async () => {
        const origin = ctx.siteUrl.replace(/\/$/, '');
        const idx = await get(`${base}/sitemap.xml`);
        assert.equal(idx.status, 200);
        assert.match(idx.headers['content-type'], /^application\/xml/);
        assert.match(idx.text, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<sitemapindex xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/);
        const locs = [...idx.text.matchAll(/<sitemap><loc>([^<]+)<\/loc><lastmod>(\d{4}-\d\d-\d\dT[\d:]+Z)<\/lastmod><\/sitemap>/g)];
        assert.equal(locs.length, 1, 'the site space a visitor without claims sees');
        assert.equal(locs[0][1], `${origin}${base}/~sitemap/${ss.id}.xml`);
        const one = await get(new URL(locs[0][1]).pathname);
        assert.equal(one.status, 200);
        assert.match(one.text, /<urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/);
        assert.match(one.text, new RegExp(`<url><loc>${origin}${base}/concepts/tokens</loc><lastmod>\\d{4}-[^<]+Z</lastmod></url>`));
        assert.doesNotMatch(one.text, /not-indexed/);
        assert.equal((await get(`${base}/~sitemap/nosuch.xml`)).status, 404);
        const robots = await get(`${base}/robots.txt`);
        assert.match(robots.text, /^User-agent: \*\nAllow: \/\n/);
        assert.match(robots.text, new RegExp(`Sitemap: ${origin}${base}/sitemap\\.xml`));
    });

    it('hreflang links a space and its translation when both are site spaces', async () => {
        const src = await seeded('Handbook', [
            { operation: 'insert_page', title: 'Home', document: { markdown: 'The house is red.\n' } },
            { operation: 'insert_page', title: 'The garden', document: { markdown: 'The dog is big.\n' } },
        ]);
        const t = await ok(api.orgs.createTranslation(org.id, { source: { space: src.id, language: 'en' }, language: 'es' }), 'createTranslation', 201);
        await empty(api.orgs.runTranslation(org.id, t.id), 204, 'runTranslation');
        let done;
        for (const deadline = Date.now() + 60_000; ;) {
            done = await ok(api.orgs.getTranslation(org.id, t.id), 'getTranslation');
            if (done.status === 'completed' && done.result?.space) break;
            assert.ok(Date.now() < deadline, `the translation completes: ${JSON.stringify(done)}`);
            await sleep(200);
        }
        const hs = await ok(api.orgs.createSite(org.id, { title: 'Handbook' }), 'createSite', 201);
        await ok(api.orgs.addSpaceToSite(org.id, hs.id, { spaceId: src.id }), 'addSpaceToSite', 201);
        const es = await ok(api.orgs.addSpaceToSite(org.id, hs.id, { spaceId: done.result.space }), 'addSpaceToSite', 201);
        await ok(api.orgs.publishSite(org.id, hs.id), 'publishSite');
        const origin = ctx.siteUrl.replace(/\/$/, '');
        const root = `/sites/${hs.id}`;
        const garden = await html(`${root}/the-garden`);
        assert.match(garden.text, new RegExp(`<link rel="alternate" hreflang="en" href="${origin}${root}/the-garden">`));
        const esPage = garden.text.match(/<link rel="alternate" hreflang="es" href="([^"]+)">/);
        assert.ok(esPage, 'the Spanish page is an alternate');
        assert.ok(esPage[1].startsWith(`${origin}${root}/${es.path}/`), esPage[1]);
        // and back, from the translation
        const back = await html(new URL(esPage[1]).pathname);
        assert.match(back.text, new RegExp(`<link rel="alternate" hreflang="en" href="${origin}${root}/the-garden">`));
        // a site without the translation has no alternates
        assert.doesNotMatch((await html(`${base}/concepts/tokens`)).text, /hreflang/);
    });
});
