// Website import (importContent, importContentInChangeRequest): a small site served by this
// test on 127.0.0.1 is crawled (same site, under the start directory, depth 3, 50 pages) and
// turned into pages (markdown through libxml2's HTML parser), links between them rewritten to
// the imported pages and images stored as files. Into a change request it changes that change
// request only; into a space it goes through a change request that is merged. The server runs
// with --allow-private-network so that it may fetch from 127.0.0.1; a second server without
// the flag refuses the same URL. GitBook's document says 201, the seed 200: docsd answers 200
// and the body is validated against the documented ImportContentResult.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { gzipSync, deflateSync } from 'node:zlib';
import { setup } from './lib/fixtures.mjs';
import { ok, expectError, raw, createOrg, addMember, validate } from './lib/api.mjs';

// A 2x2 PNG.
const PNG = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
    'base64',
);
// 50 MB of zeros, gzip-compressed to ~50 KB: its Content-Length is small, its decoded size is not.
const GZIP_BOMB = gzipSync(Buffer.alloc(50 << 20), { level: 9 });
// Front matter whose four levels of ten aliases over 1,000 bytes write out to 10 MB.
const FM_BOMB = `---\nl0: &l0 "${'x'.repeat(1000)}"\n` +
    [1, 2, 3, 4].map((l) => `l${l}: &l${l} [${Array(10).fill(`*l${l - 1}`).join(', ')}]\n`).join('') + '---\n# Bomb\n';
const page = (title, body, { head = '' } = {}) =>
    `<!doctype html><html><head><title>${title} - Test Docs</title>${head}</head><body>` +
    `<nav><a href="/site/">Home</a> <a href="/site/guide/">Guide</a> <a href="/site/api.html">API</a></nav>` +
    `<header><p>Test Docs header</p></header><main>${body}</main><footer>Copyright footer</footer></body></html>`;

describe('website import', () => {
    let ctx, noflag, alice, bob, api, org, site, siteUrl, offsiteUrl;
    const hits = new Map(); // path -> count
    const slowArrived = []; // resolvers waiting for a request to a slow page
    const hit = (p) => hits.get(p) ?? 0;
    const acceptEncoding = []; // the Accept-Encoding of each request for /gz/

    // path -> [status, content type, body]
    const routes = () => ({
        '/site/': [200, 'text/html; charset=utf-8', page('Home',
            '<h1>Welcome</h1><p>Read the <a href="guide/">guide</a>, the <a href="api.html#auth">API auth</a>, ' +
            `<a href="${offsiteUrl}/site/offsite.html">elsewhere</a>, <a href="/outside/page.html">outside</a> ` +
            'and <a href="mailto:docs@example.com">mail us</a>.</p>' +
            '<p><img src="img/logo.png" alt="Logo"></p>')],
        '/site/index.html': null, // the same page as /site/ (filled below)
        '/site/guide/': [200, 'text/html', page('Guide',
            '<h1>Guide</h1><p>Start with <a href="install.html">the install</a>, then <a href="deep/one.html">go deep</a>.</p>' +
            '<pre><code class="language-js">const x = 1;\nconsole.log(x);</code></pre>')],
        '/site/guide/install.html': [200, 'text/html', page('Install',
            '<h1>Install</h1><table><thead><tr><th>OS</th><th>Command</th></tr></thead>' +
            '<tbody><tr><td>Debian</td><td><code>apt install docsd</code></td></tr></tbody></table>' +
            '<p><a href="../index.html">Back home</a> or read about <a href="../api.html#auth">auth</a>.</p>')],
        '/site/api.html': [200, 'text/html', page('API',
            '<h1>API</h1><h2 id="auth">Auth</h2><ul><li>Tokens<ul><li>Bearer</li></ul></li><li>Basic</li></ul>' +
            '<p>See <a href="missing.html">the missing page</a>.</p><blockquote><p>Keep tokens secret.</p></blockquote>')],
        '/site/guide/deep/one.html': [200, 'text/html', page('One', '<h1>One</h1><p><a href="two.html">Two</a></p>')],
        '/site/guide/deep/two.html': [200, 'text/html', page('Two', '<h1>Two</h1><p><a href="three.html">Three</a></p>')],
        '/site/guide/deep/three.html': [200, 'text/html', page('Three', '<h1>Three</h1>')],
        '/site/img/logo.png': [200, 'image/png', PNG],
        '/site/offsite.html': [200, 'text/html', page('Offsite', '<h1>Off</h1>')],
        '/outside/page.html': [200, 'text/html', page('Outside', '<h1>Outside</h1>')],
        '/single/readme.md': [200, 'text/markdown', '# Read me\n\nPlain *markdown*, [a link](https://example.com/).\n'],
        '/single/image.png': [200, 'image/png', PNG],
        '/single/bad.md': [200, 'text/markdown', '---\ntitle: [unclosed\n---\n# Bad\n'],
        '/single/fm-bomb.md': [200, 'text/markdown', FM_BOMB],
        // [status, type, body, extra headers]: compressed whether asked or not
        '/gz/readme.md': [200, 'text/markdown', gzipSync('# Zipped\n\nDecoded *markdown*.\n'), { 'Content-Encoding': 'gzip' }],
        '/gz/page.html': [200, 'text/html', deflateSync(page('Deflated', '<h1>Deflated</h1><p>Decoded html.</p>')),
            { 'Content-Encoding': 'deflate' }],
        '/gz/bomb.md': [200, 'text/markdown', GZIP_BOMB, { 'Content-Encoding': 'gzip' }],
    });

    // /big/: a start page linking to 60 pages, one page of 2.5 MB and a 1.5 MB image.
    const big = (path) => {
        if (path === '/big/') {
            const links = ['<a href="huge.html">huge</a>'];
            for (let i = 1; i <= 60; i++) links.push(`<a href="p${i}.html">p${i}</a>`);
            return [200, 'text/html', page('Big', `<h1>Big</h1><p>${links.join(' ')}</p><img src="big.png" alt="big">`)];
        }
        if (path === '/big/huge.html') return [200, 'text/html', page('Huge', `<p>${'word '.repeat(500_000)}</p>`)];
        if (path === '/big/big.png') return [200, 'image/png', Buffer.concat([PNG, Buffer.alloc(1_500_000)])];
        const m = /^\/big\/p(\d+)\.html$/.exec(path);
        if (m) return [200, 'text/html', page(`P${m[1]}`, `<h1>Page ${m[1]}</h1>`)];
        // Legacy-encoded pages (issue 30, 6c): bytes, no charset in the Content-Type.
        const latin = {
            '/latin/': Buffer.from('<html><head><title>R&\xe9sum\xe9</title></head><body><main><h1>R&\xe9sum\xe9</h1><p>Caf\xe9 &\xe9t\xe9 \x93quoted\x94</p><p><a href="two.html">two</a></p></main></body></html>', 'latin1'),
            '/latin/two.html': Buffer.from('<html><body><main><h1>Two</h1><p>Na\xefve &\xe0 la carte</p></main></body></html>', 'latin1'),
            '/latin/klingon.html': Buffer.from('<html><head><meta charset="x-klingon"></head><body><p>Qapla\xe9</p></body></html>', 'latin1'),
            '/latin/liar.html': Buffer.from('<html><head><meta charset="utf-8"></head><body><p>R&\xe9sum\xe9</p></body></html>', 'latin1'),
        };
        if (latin[path]) return [200, 'text/html', latin[path]];
        return null;
    };

    const importPath = (spaceId, crId) =>
        crId ? `/v1/spaces/${spaceId}/change-requests/${crId}/content/import` : `/v1/spaces/${spaceId}/content/import`;
    const doImport = (who, spaceId, crId, json, base = ctx.url) =>
        raw(base, 'POST', importPath(spaceId, crId), { token: who.token, json, timeout: 60_000 });
    const importOk = async (who, spaceId, crId, json) => {
        const r = await doImport(who, spaceId, crId, json);
        assert.equal(r.status, 200, `import: ${r.status} ${r.text}`);
        validate(crId ? 'importContentInChangeRequest' : 'importContent', 201, r.json);
        assert.equal(r.headers.location, `${ctx.url}/v1/spaces/${spaceId}/revisions/${r.json.revision}`);
        return r.json;
    };
    const newSpace = async (title) => ok(api.orgs.createSpace(org.id, { title }), 'createSpace', 201);
    const newCR = async (spaceId, subject = 'Import') =>
        ok(api.spaces.createChangeRequest(spaceId, { subject }), 'createChangeRequest', 201);
    const flat = (pages, depth = 0, out = []) => {
        for (const p of pages) {
            out.push({ ...p, depth });
            flat(p.pages ?? [], depth + 1, out);
        }
        return out;
    };
    const crPages = async (spaceId, crId) =>
        flat((await ok(api.spaces.listPagesInChangeRequest(spaceId, crId), 'listPagesInChangeRequest')).pages);
    const crBody = async (spaceId, crId, pageId) =>
        (await ok(api.spaces.getPageInChangeRequestById(spaceId, crId, pageId, { format: 'markdown' }), 'getPageInChangeRequestById')).markdown;

    before(async () => {
        ctx = await setup({ extraArgs: ['--allow-private-network'] });
        noflag = await setup();
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        api = alice.api;
        ({ org } = await createOrg(ctx.url, alice.token, `Import ${ctx.run}`));
        site = createServer((req, res) => {
            const path = new URL(req.url, 'http://x').pathname;
            hits.set(path, hit(path) + 1);
            const table = routes();
            table['/site/index.html'] = table['/site/'];
            const slow = /^\/slow\/s(\d+)\.html$/.exec(path);
            if (path === '/slow/') {
                const links = Array.from({ length: 10 }, (_, i) => `<a href="s${i}.html">s${i}</a>`).join(' ');
                res.writeHead(200, { 'Content-Type': 'text/html' });
                res.end(page('Slow', `<h1>Slow</h1><p>${links}</p>`));
                return;
            }
            if (slow) {
                // each page takes 2 s: ten of them would hold a stopping server 20 s
                while (slowArrived.length) slowArrived.shift()();
                const t = setTimeout(() => {
                    if (!res.destroyed) {
                        res.writeHead(200, { 'Content-Type': 'text/html' });
                        res.end(page('S', `<h1>S${slow[1]}</h1>`));
                    }
                }, 2000);
                res.on('close', () => clearTimeout(t));
                return;
            }
            const r = table[path] ?? big(path);
            if (!r) {
                res.writeHead(404, { 'Content-Type': 'text/html' });
                res.end('<h1>Not found</h1>');
                return;
            }
            if (path.startsWith('/gz/')) acceptEncoding.push(req.headers['accept-encoding'] ?? '');
            res.writeHead(r[0], { 'Content-Type': r[1], ...(r[3] ?? {}) });
            res.end(r[2]);
        });
        await new Promise((r) => site.listen(0, '127.0.0.1', r));
        siteUrl = `http://127.0.0.1:${site.address().port}`;
        offsiteUrl = `http://localhost:${site.address().port}`; // another host: another site
    });
    after(async () => {
        site?.closeAllConnections?.();
        await new Promise((r) => (site ? site.close(r) : r()));
        await ctx?.server.stop();
        await noflag?.server.stop();
    });

    it('into a change request: pages nested by path, markdown, links and images; only that change request changes', async () => {
        const s = await newSpace('Imported site');
        const cr = await newCR(s.id);
        const other = await newCR(s.id, 'Untouched');
        // An existing page: the imported ones go after it.
        const seeded = await raw(ctx.url, 'POST', `/v1/spaces/${s.id}/change-requests/${cr.id}/content`, {
            token: alice.token,
            json: { changes: [{ operation: 'insert_page', title: 'Existing', document: { markdown: '# Existing\n' } }] },
        });
        assert.equal(seeded.status, 200, seeded.text);
        const before = await ok(api.spaces.getSpaceById(s.id), 'getSpaceById');
        const otherBefore = await ok(api.spaces.getChangeRequestById(s.id, other.id), 'getChangeRequestById');
        hits.clear();

        const res = await importOk(alice, s.id, cr.id, { url: `${siteUrl}/site/`, source: 'website' });
        // Found: /site/, guide/, api.html, install, deep/one, missing.html, index.html (the same
        // page as /site/), deep/two, deep/three (depth 4: found, not fetched) + the logo.
        assert.equal(res.totalResources, 10);
        // Imported: 6 pages and the logo.
        assert.equal(res.importedResources, 7);
        assert.equal(hit('/site/guide/deep/three.html'), 0, 'the page past depth 3 is not fetched');
        assert.equal(hit('/site/offsite.html'), 0, 'another host is another site');
        assert.equal(hit('/outside/page.html'), 0, 'outside the start directory');
        assert.equal(hit('/site/missing.html'), 1);

        const crNow = await ok(api.spaces.getChangeRequestById(s.id, cr.id), 'getChangeRequestById');
        assert.equal(crNow.revision, res.revision);
        const pages = await crPages(s.id, cr.id);
        assert.deepEqual(
            pages.map((p) => [p.title, p.depth]),
            [['Existing', 0], ['Welcome', 0], ['Guide', 0], ['Install', 1], ['One', 1], ['Two', 1], ['API', 0]],
        );
        const id = Object.fromEntries(pages.map((p) => [p.title, p.id]));

        const files = (await ok(api.spaces.listFilesInChangeRequestById(s.id, cr.id), 'listFilesInChangeRequestById')).items;
        assert.equal(files.length, 1);
        assert.equal(files[0].name, 'logo.png');
        assert.equal(files[0].contentType, 'image/png');

        const home = await crBody(s.id, cr.id, id.Welcome);
        assert.equal(
            home,
            '# Welcome\n\n' +
                `Read the [guide](/pages/${id.Guide}), the [API auth](/pages/${id.API}#auth), ` +
                `[elsewhere](${offsiteUrl}/site/offsite.html), [outside](${siteUrl}/outside/page.html) ` +
                'and [mail us](mailto:docs@example.com).\n\n' +
                `![Logo](/files/${files[0].id})\n`,
        );
        assert.ok(!home.includes('header') && !home.includes('footer') && !home.includes('Home'), 'nav, header and footer are left out');
        assert.equal(
            await crBody(s.id, cr.id, id.Guide),
            `# Guide\n\nStart with [the install](/pages/${id.Install}), then [go deep](/pages/${id.One}).\n\n` +
                '```js\nconst x = 1;\nconsole.log(x);\n```\n',
        );
        assert.equal(
            await crBody(s.id, cr.id, id.Install),
            '# Install\n\n| OS | Command |\n| --- | --- |\n| Debian | `apt install docsd` |\n\n' +
                `[Back home](/pages/${id.Welcome}) or read about [auth](/pages/${id.API}#auth).\n`,
        );
        assert.equal(
            await crBody(s.id, cr.id, id.API),
            '# API\n\n## Auth\n\n- Tokens\n  - Bearer\n- Basic\n\n' +
                `See [the missing page](${siteUrl}/site/missing.html).\n\n> Keep tokens secret.\n`,
        );
        assert.equal(await crBody(s.id, cr.id, id.Two), `# Two\n\n[Three](${siteUrl}/site/guide/deep/three.html)\n`);

        // The links are the content's own: resolved and ok.
        const links = await ok(api.spaces.listPageLinksInChangeRequest(s.id, cr.id, id.Welcome), 'listPageLinksInChangeRequest');
        const pageLinks = links.items.filter((l) => l.targetReference.kind === 'page').map((l) => l.targetReference.page.id);
        assert.deepEqual(pageLinks.sort(), [id.Guide, id.API].sort());
        assert.ok(links.items.every((l) => l.status === 'ok'));

        // The space and the other change request did not change.
        assert.equal((await ok(api.spaces.getSpaceById(s.id), 'getSpaceById')).revision, before.revision);
        assert.equal((await ok(api.spaces.getChangeRequestById(s.id, other.id), 'getChangeRequestById')).revision, otherBefore.revision);
        assert.deepEqual((await ok(api.spaces.listPages(s.id), 'listPages')).pages, []);
    });

    it('into a space (with the official client): through a change request that is merged', async () => {
        const s = await newSpace('Imported into the space');
        const before = await ok(api.spaces.getSpaceById(s.id), 'getSpaceById');
        const res = await api.spaces.importContent(s.id, { url: `${siteUrl}/site/guide/`, source: 'website' });
        assert.equal(res.status, 200);
        validate('importContent', 201, res.data);
        // guide/, install, deep/one, deep/two, deep/three (depth 3 from here); ../index.html
        // and ../api.html are outside the start directory.
        assert.equal(res.data.importedResources, 5);
        assert.equal(res.data.totalResources, 5);
        const now = await ok(api.spaces.getSpaceById(s.id), 'getSpaceById');
        assert.notEqual(now.revision, before.revision);
        assert.equal(now.revision, res.data.revision);
        const merged = (await ok(api.spaces.listChangeRequestsForSpace(s.id, { status: 'merged' }), 'listChangeRequestsForSpace')).items;
        assert.equal(merged.length, 1);
        assert.equal(merged[0].subject, `Import of ${siteUrl}/site/guide/`);
        assert.equal(merged[0].revision, (await ok(api.spaces.getChangeRequestById(s.id, merged[0].id), 'getChangeRequestById')).revision);
        const pages = flat((await ok(api.spaces.listPages(s.id), 'listPages')).pages);
        // Nothing to nest under: the start page is the start directory itself.
        assert.deepEqual(pages.map((p) => [p.title, p.depth]), [['Guide', 0], ['Install', 0], ['One', 0], ['Two', 0], ['Three', 0]]);
        const install = pages.find((p) => p.title === 'Install');
        const body = (await ok(api.spaces.getPageById(s.id, install.id, { format: 'markdown' }), 'getPageById')).markdown;
        assert.match(body, new RegExp(`\\[Back home\\]\\(${siteUrl}/site/index\\.html\\)`), 'a page outside the import keeps its URL');
        // Search sees the new pages (the merge advanced the space).
        const found = await ok(api.spaces.searchSpaceContent(s.id, { query: 'console' }), 'searchSpaceContent');
        assert.ok(found.items.some((i) => i.title === 'Guide'), JSON.stringify(found.items));
    });

    it('limits: 50 pages, 2 MB a page, 1 MB an image; the rest is counted, not imported', async () => {
        const s = await newSpace('Big');
        const cr = await newCR(s.id);
        hits.clear();
        const res = await importOk(alice, s.id, cr.id, { url: `${siteUrl}/big/`, source: 'website' });
        // 62 pages found (the start, huge, p1..p60) and the image considered; 50 pages imported.
        assert.equal(res.totalResources, 63);
        assert.equal(res.importedResources, 50);
        assert.equal(hit('/big/huge.html'), 1);
        assert.equal(hit('/big/p50.html'), 0, 'no fetch past the 50th page');
        const pages = await crPages(s.id, cr.id);
        assert.equal(pages.length, 50);
        assert.ok(!pages.some((p) => p.title === 'Huge'));
        const files = (await ok(api.spaces.listFilesInChangeRequestById(s.id, cr.id), 'listFilesInChangeRequestById')).items;
        assert.equal(files.length, 0);
        const start = await crBody(s.id, cr.id, pages[0].id);
        assert.ok(start.includes(`![big](${siteUrl}/big/big.png)`), 'an image not imported keeps its URL');
        assert.ok(start.includes(`[p1](/pages/${pages[1].id})`));
        assert.ok(start.includes(`[p60](${siteUrl}/big/p60.html)`), 'a page not imported keeps its URL');
    });

    it('source html imports one page and markdown one file', async () => {
        const s = await newSpace('Single');
        const cr = await newCR(s.id);
        hits.clear();
        let res = await importOk(alice, s.id, cr.id, { url: `${siteUrl}/site/`, source: 'html' });
        assert.deepEqual([res.importedResources, res.totalResources], [2, 2]); // the page and its logo
        assert.equal(hit('/site/guide/'), 0, 'no crawl');
        res = await importOk(alice, s.id, cr.id, { url: `${siteUrl}/single/readme.md`, source: 'markdown' });
        assert.deepEqual([res.importedResources, res.totalResources], [1, 1]);
        const pages = await crPages(s.id, cr.id);
        assert.deepEqual(pages.map((p) => p.title), ['Welcome', 'Read me']);
        assert.equal(await crBody(s.id, cr.id, pages[1].id), '# Read me\n\nPlain *markdown*, [a link](https://example.com/).\n');
        await expectError(doImport(alice, s.id, cr.id, { url: `${siteUrl}/site/`, source: 'markdown' }), 400, 'HTML as markdown');
        await expectError(doImport(alice, s.id, cr.id, { url: `${siteUrl}/single/image.png`, source: 'html' }), 400, 'an image as html');
        const e = await expectError(doImport(alice, s.id, cr.id, { url: `${siteUrl}/single/bad.md`, source: 'markdown' }), 400);
        assert.match(e.error.message, /^url: the file's frontmatter: line \d+/);
        assert.equal((await crPages(s.id, cr.id)).length, 2, 'nothing written');
    });

    it('a page with no charset and "&" before a byte that is not UTF-8 imports as windows-1252; an undecodable one is a 400', async () => {
        // html: one page; website: the crawl, whose second page has the same shape
        const s = await newSpace('Latin');
        const cr = await newCR(s.id);
        await importOk(alice, s.id, cr.id, { url: `${siteUrl}/latin/`, source: 'html' });
        let pages = await crPages(s.id, cr.id);
        assert.deepEqual(pages.map((p) => p.title), ['R&\u00e9sum\u00e9']);
        const body = await crBody(s.id, cr.id, pages[0].id);
        assert.match(body, /Caf\u00e9 &\u00e9t\u00e9 \u201cquoted\u201d/);
        assert.ok(!body.includes('\ufffd'), body);
        const w = await newSpace('Latin site');
        const res = await importOk(alice, w.id, undefined, { url: `${siteUrl}/latin/`, source: 'website' });
        assert.deepEqual([res.importedResources, res.totalResources], [2, 2]);
        pages = flat((await ok(api.spaces.listPages(w.id), 'listPages')).pages);
        assert.deepEqual(pages.map((p) => p.title), ['R&\u00e9sum\u00e9', 'Two']);
        const two = await ok(api.spaces.getPageById(w.id, pages[1].id, { format: 'markdown' }), 'getPageById');
        assert.match(two.markdown, /Na\u00efve &\u00e0 la carte/);
        // a charset docsd cannot decode, and a page whose bytes are not the UTF-8 it declares
        const k = await newCR(s.id, 'Klingon');
        let e = await expectError(doImport(alice, s.id, k.id, { url: `${siteUrl}/latin/klingon.html`, source: 'html' }), 400);
        assert.match(e.error.message, /^url: the page's charset 'x-klingon' is not one docsd can decode/);
        e = await expectError(doImport(alice, s.id, k.id, { url: `${siteUrl}/latin/liar.html`, source: 'website' }), 400);
        assert.match(e.error.message, /^url: the page's text is not valid UTF-8/);
        assert.equal((await crPages(s.id, k.id)).length, 0, 'nothing written');
        assert.equal((await raw(ctx.url, 'GET', '/healthz')).status, 200);
    });

    it('compressed pages (gzip, deflate) are imported decoded; a gzip bomb stops at the size limit', async () => {
        const s = await newSpace('Compressed');
        const cr = await newCR(s.id);
        acceptEncoding.length = 0;
        let res = await importOk(alice, s.id, cr.id, { url: `${siteUrl}/gz/readme.md`, source: 'markdown' });
        assert.deepEqual([res.importedResources, res.totalResources], [1, 1]);
        res = await importOk(alice, s.id, cr.id, { url: `${siteUrl}/gz/page.html`, source: 'html' });
        assert.deepEqual([res.importedResources, res.totalResources], [1, 1]);
        assert.ok(acceptEncoding.every((h) => /gzip/.test(h) && /deflate/.test(h)), `Accept-Encoding: ${acceptEncoding}`);
        const pages = await crPages(s.id, cr.id);
        assert.deepEqual(pages.map((p) => p.title), ['Zipped', 'Deflated']);
        assert.equal(await crBody(s.id, cr.id, pages[0].id), '# Zipped\n\nDecoded *markdown*.\n');
        assert.equal(await crBody(s.id, cr.id, pages[1].id), '# Deflated\n\nDecoded html.\n');
        // 50 KB on the wire, 50 MB decoded: refused at the 1 MB a markdown file may have, decoded
        const e = await expectError(doImport(alice, s.id, cr.id, { url: `${siteUrl}/gz/bomb.md`, source: 'markdown' }), 400);
        assert.match(e.error.message, /url: larger than 1048576 bytes/);
        assert.equal((await crPages(s.id, cr.id)).length, 2, 'nothing written');
        assert.equal((await raw(ctx.url, 'GET', '/v1/user', { token: alice.token })).status, 200, 'the server is fine');
    });

    it('front matter whose aliases expand past 256 KiB is refused, naming the limit', async () => {
        const s = await newSpace('Front matter bomb');
        const cr = await newCR(s.id);
        const e = await expectError(doImport(alice, s.id, cr.id, { url: `${siteUrl}/single/fm-bomb.md`, source: 'markdown' }), 400);
        assert.match(e.error.message, /^url: the file's frontmatter: line \d+, column \d+: the YAML expands to more than 262144 bytes/);
        assert.equal((await crPages(s.id, cr.id)).length, 0, 'nothing written');
    });

    it('every body field is checked: 400 naming it', async () => {
        const s = await newSpace('Bad bodies');
        const cr = await newCR(s.id);
        hits.clear();
        const cases = [
            [{ source: 'website' }, /url: is required/],
            [{ url: null, source: 'website' }, /url/],
            [{ url: 42, source: 'website' }, /url: must be a string/],
            [{ url: '', source: 'website' }, /url/],
            [{ url: '/relative', source: 'website' }, /url: must be an absolute http or https URL/],
            [{ url: 'ftp://example.com/', source: 'website' }, /url: must be an absolute http or https URL/],
            [{ url: 'javascript:alert(1)', source: 'website' }, /url/],
            [{ url: `http://u:p@127.0.0.1:1/`, source: 'website' }, /url: must not contain a user name or password/],
            [{ url: `http://x/${'a'.repeat(2100)}`, source: 'website' }, /url/],
            [{ url: `${siteUrl}/site/` }, /source: is required/],
            [{ url: `${siteUrl}/site/`, source: 7 }, /source: must be a string/],
            [{ url: `${siteUrl}/site/`, source: 'pdf' }, /source: must be one of website, docx, markdown/],
            [{ url: `${siteUrl}/site/`, source: 'docx' }, /source: "docx" is not supported by this server; supported: website, html, markdown/],
            [{ url: `${siteUrl}/site/`, source: 'notion' }, /supported: website, html, markdown/],
        ];
        for (const [body, msg] of cases) {
            for (const crId of [cr.id, null]) {
                const e = await expectError(doImport(alice, s.id, crId, body), 400, JSON.stringify(body).slice(0, 60));
                assert.match(e.error.message, msg, JSON.stringify(body).slice(0, 60));
            }
        }
        assert.equal(hits.size, 0, 'nothing fetched for a bad body');
        await expectError(raw(ctx.url, 'POST', importPath(s.id, cr.id), { token: alice.token, body: 'x', headers: { 'Content-Type': 'application/json' } }), 400);
        await expectError(raw(ctx.url, 'POST', importPath(s.id), { token: alice.token }), 400, 'no body');
    });

    it('a start page that fails is a 400 naming why; nothing is written', async () => {
        const s = await newSpace('Failing');
        const cr = await newCR(s.id);
        let e = await expectError(doImport(alice, s.id, cr.id, { url: `${siteUrl}/nothing-here/`, source: 'website' }), 400);
        assert.match(e.error.message, /url: HTTP 404/);
        e = await expectError(doImport(alice, s.id, null, { url: `${siteUrl}/site/img/logo.png`, source: 'website' }), 400);
        assert.match(e.error.message, /url: not an HTML page \(Content-Type: image\/png\)/);
        e = await expectError(doImport(alice, s.id, cr.id, { url: 'http://127.0.0.1:1/', source: 'website' }), 400);
        assert.match(e.error.message, /url: could not connect/);
        assert.equal((await ok(api.spaces.getChangeRequestById(s.id, cr.id), 'getChangeRequestById')).revision, cr.revision);
        assert.equal((await ok(api.spaces.listChangeRequestsForSpace(s.id, { status: 'merged' }), 'listChangeRequestsForSpace')).items.length, 0);
    });

    it('without --allow-private-network a loopback site is refused, its address not named', async () => {
        const carol = await noflag.user('carol');
        const { org: o2 } = await createOrg(noflag.url, carol.token, `No flag ${noflag.run}`);
        const s = await ok(carol.api.orgs.createSpace(o2.id, { title: 'No flag' }), 'createSpace', 201);
        hits.clear();
        for (const url of [`${siteUrl}/site/`, `http://localhost:${site.address().port}/site/`]) {
            const r = await doImport(carol, s.id, null, { url, source: 'website' }, noflag.url);
            const e = await expectError(Promise.resolve(r), 400);
            assert.match(e.error.message, /url: the URL's host is not allowed \(private, loopback or reserved address\)/);
            assert.ok(!e.error.message.includes('127.0.0.1'), e.error.message);
        }
        assert.equal(hits.size, 0, 'no connection was made');
    });

    it('permissions: readers 403, outsiders 404, editors import into change requests only, a locked space 403', async () => {
        const s = await newSpace('Guarded');
        const cr = await newCR(s.id);
        const reader = await ctx.user('reader');
        const editor = await ctx.user('editor');
        await addMember(api, org.id, reader.email, 'read');
        await addMember(api, org.id, editor.email, 'edit');
        const body = { url: `${siteUrl}/site/guide/deep/two.html`, source: 'html' };
        hits.clear();
        await expectError(doImport(reader, s.id, cr.id, body), 403, 'reader into the change request');
        await expectError(doImport(reader, s.id, null, body), 403, 'reader into the space');
        await expectError(doImport(bob, s.id, cr.id, body), 404, 'outsider into the change request');
        await expectError(doImport(bob, s.id, null, body), 404, 'outsider into the space');
        // Merging needs review: an editor imports into change requests only.
        await expectError(doImport(editor, s.id, null, body), 403, 'editor into the space');
        assert.equal(hits.size, 0, 'no fetch for a caller without access');
        await importOk(editor, s.id, cr.id, body);
        // Unknown ids.
        await expectError(doImport(alice, 'nosuchspace', null, body), 404);
        await expectError(doImport(alice, s.id, 'nosuchcr', body), 404);
        // No token.
        await expectError(raw(ctx.url, 'POST', importPath(s.id), { json: body }), 401);
        // A locked space takes no content.
        await ok(api.spaces.updateSpaceById(s.id, { editMode: 'locked' }), 'updateSpaceById');
        hits.clear();
        await expectError(doImport(alice, s.id, cr.id, body), 403, 'locked: change request');
        await expectError(doImport(alice, s.id, null, body), 403, 'locked: space');
        assert.equal(hits.size, 0);
        await ok(api.spaces.updateSpaceById(s.id, { editMode: 'live' }), 'updateSpaceById');
        // A merged change request takes no more content.
        const m = await ok(api.spaces.mergeChangeRequest(s.id, cr.id), 'mergeChangeRequest');
        assert.equal(m.result, 'merge');
        await expectError(doImport(alice, s.id, cr.id, body), 409, 'merged change request');
    });

    it('merge rules that would block the merge refuse a space import before fetching', async () => {
        const s = await newSpace('Rules');
        await ok(api.spaces.updateSpaceById(s.id, { mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] } }), 'updateSpaceById');
        hits.clear();
        const e = await expectError(doImport(alice, s.id, null, { url: `${siteUrl}/site/`, source: 'html' }), 409);
        assert.match(e.error.message, /require_at_least_one_review/);
        assert.equal(hits.size, 0);
        assert.equal((await ok(api.spaces.listChangeRequestsForSpace(s.id, { status: 'draft' }), 'listChangeRequestsForSpace')).items.length, 0);
        // Into a change request the rules do not apply.
        const cr = await newCR(s.id);
        await importOk(alice, s.id, cr.id, { url: `${siteUrl}/site/`, source: 'html' });
    });

    it('a server that stops ends a crawl at its next fetch (503), not after its 30 s', async () => {
        const third = await setup({ extraArgs: ['--allow-private-network'] });
        let stopped = false;
        try {
            const dave = await third.user('dave');
            const { org: o3 } = await createOrg(third.url, dave.token, `Stopping ${third.run}`);
            const s = await ok(dave.api.orgs.createSpace(o3.id, { title: 'Stopping' }), 'createSpace', 201);
            const reached = new Promise((r) => slowArrived.push(r));
            const pending = doImport(dave, s.id, null, { url: `${siteUrl}/slow/`, source: 'website' }, third.url).then(
                (r) => r,
                (e) => ({ status: 0, error: e }),
            );
            await reached; // the crawl waits on the first slow page
            const t0 = Date.now();
            await third.server.stop(); // asserts a clean exit within its 10 s
            stopped = true;
            assert.ok(Date.now() - t0 < 8000, `stopping took ${Date.now() - t0} ms`);
            const r = await pending;
            assert.ok(r.status === 503 || r.status === 0, `the import answered ${r.status} ${r.text ?? ''}`);
            assert.ok(hit('/slow/s3.html') === 0, 'no fetch after the stop began');
        } finally {
            if (!stopped) await third.server.stop();
        }
    });
});
