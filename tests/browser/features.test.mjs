// Two features of the published site in a real browser (the same harness as site.test.mjs:
// Debian's chromium, headless, playwright-core; a docsd server from tests/api/lib):
// (a) an API reference page: a page of type `computed` whose source is GitBook's
//     builtin:openapi on a small petstore-like spec of the organization;
// (b) pages imported from a tiny website served by this test on 127.0.0.1 (POST
//     /v1/spaces/{id}/content/import, source "website"; the server runs with
//     --allow-private-network so that it may fetch from 127.0.0.1): a table, a code block,
//     an image and a nested list.
// Both on a desktop and a phone viewport; full-page screenshots in artifacts/ (f1x-*.png).
// On the phone the page never scrolls sideways: wide tables and code scroll in their own box.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { deflateSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { setup } from '../api/lib/fixtures.mjs';
import { ok, raw, createOrg, sleep } from '../api/lib/api.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const ARTIFACTS = join(here, 'artifacts');
const CHROMIUM = process.env.CHROMIUM_BIN || '/usr/bin/chromium';
const ACTION_MS = 10_000;
const NAV_MS = 15_000;
const TEST_MS = 60_000;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const SPEC = `openapi: 3.0.3
info:
  title: Petstore
  version: 1.0.0
  description: A small pet store. Every call needs an API key in the \`X-Api-Key\` header.
servers:
  - url: https://petstore.example.com/v1
tags:
  - name: pets
    description: Everything about your pets
paths:
  /pets:
    get:
      summary: List pets
      description: Lists the pets of the store, newest first, one page at a time.
      operationId: listPets
      tags: [pets]
      parameters:
        - { name: limit, in: query, required: false, description: How many pets to return at most (1 to 100), schema: { type: integer, format: int32 } }
        - { name: status, in: query, description: Only the pets with this adoption status, schema: { type: string, enum: [available, pending, sold] } }
      responses:
        '200':
          description: A page of pets
          content:
            application/json:
              schema: { type: array, items: { $ref: '#/components/schemas/Pet' } }
        default:
          description: An error
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Error' }
    post:
      summary: Create a pet
      operationId: createPet
      tags: [pets]
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: '#/components/schemas/NewPet' }
      responses:
        '201':
          description: The created pet
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Pet' }
        '400': { description: The body is not a valid pet }
  /pets/{petId}:
    delete:
      summary: Delete a pet
      operationId: deletePet
      tags: [pets]
      parameters:
        - { name: petId, in: path, required: true, description: The pet's identifier, schema: { type: integer, format: int64 } }
        - { name: X-Request-Reason, in: header, description: Why the pet is removed (kept in the audit log), schema: { type: string } }
      responses:
        '204': { description: Deleted }
        '404': { description: No such pet }
components:
  schemas:
    NewPet:
      type: object
      required: [name]
      properties:
        name: { type: string, description: The pet's name }
        tag: { type: string, description: A free-form tag such as dog or cat }
    Pet:
      type: object
      required: [id, name]
      properties:
        id: { type: integer, format: int64 }
        name: { type: string }
        tag: { type: string }
    Error:
      type: object
      properties:
        code: { type: integer }
        message: { type: string }
`;

// ---- the tiny website --------------------------------------------------------------------

/** CRC-32 (PNG chunks). */
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
});
function crc32(buf) {
    let c = 0xffffffff;
    for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
}
/** A w x h RGB PNG with a diagonal gradient (wider than a phone: it must shrink to fit). */
function gradientPng(w, h) {
    const chunk = (type, data) => {
        const len = Buffer.alloc(4);
        len.writeUInt32BE(data.length);
        const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
        const crc = Buffer.alloc(4);
        crc.writeUInt32BE(crc32(td));
        return Buffer.concat([len, td, crc]);
    };
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(w, 0);
    ihdr.writeUInt32BE(h, 4);
    ihdr[8] = 8; // bit depth
    ihdr[9] = 2; // RGB
    const rows = Buffer.alloc(h * (1 + w * 3));
    for (let y = 0; y < h; y++) {
        const o = y * (1 + w * 3);
        for (let x = 0; x < w; x++) {
            rows[o + 1 + x * 3] = 40 + Math.floor((180 * x) / w);
            rows[o + 2 + x * 3] = 90 + Math.floor((120 * y) / h);
            rows[o + 3 + x * 3] = 200;
        }
    }
    return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}
const DIAGRAM = gradientPng(900, 240);

const htmlPage = (title, body) =>
    `<!doctype html><html><head><meta charset="utf-8"><title>${title} - Tiny Docs</title></head><body>` +
    '<nav><a href="/tiny/">Home</a> <a href="/tiny/setup.html">Setup</a></nav>' +
    `<main>${body}</main><footer>Tiny Docs footer</footer></body></html>`;

const WEBSITE = {
    '/tiny/': ['text/html; charset=utf-8', htmlPage('Tiny Docs',
        '<h1>Tiny Docs</h1><p>Tiny Docs is a <strong>small</strong> example site. Continue with the ' +
        '<a href="setup.html">setup guide</a>.</p>' +
        '<h2>Architecture</h2><p><img src="img/diagram.png" alt="Architecture diagram" width="900" height="240"></p>' +
        '<h2>Features</h2><ul><li>Fast<ul><li>Written in C</li><li>One process<ul><li>No threads to tune</li></ul></li></ul></li>' +
        '<li>Small<ul><li>One binary</li></ul></li><li>Documented</li></ul>' +
        '<ol><li>Download</li><li>Configure<ol><li>Edit the file</li><li>Check it</li></ol></li><li>Run</li></ol>')],
    '/tiny/setup.html': ['text/html', htmlPage('Setup',
        '<h1>Setup</h1><p>The supported platforms and their packages:</p>' +
        '<table><thead><tr><th>Platform</th><th>Package</th><th>Architecture</th><th>Install command</th><th>Notes</th></tr></thead><tbody>' +
        '<tr><td>Debian 12</td><td><code>tinydocs</code></td><td>amd64, arm64</td><td><code>apt-get install --no-install-recommends tinydocs-server</code></td><td>the reference platform, tested on every release</td></tr>' +
        '<tr><td>Alpine 3.19</td><td><code>tinydocs</code></td><td>amd64</td><td><code>apk add --no-cache tinydocs-server</code></td><td>community package</td></tr>' +
        '</tbody></table>' +
        '<p>Start it and check that it answers:</p>' +
        '<pre><code class="language-bash">tinydocs serve --listen 127.0.0.1:8080 --data /var/lib/tinydocs --log-level info --max-connections 512\n' +
        'curl -fsS http://127.0.0.1:8080/healthz &amp;&amp; echo "up"</code></pre>' +
        '<p>Back to the <a href="./">home page</a>.</p>')],
    '/tiny/img/diagram.png': ['image/png', DIAGRAM],
};

/** True when the page does not scroll sideways (the phone check). */
const noHorizontalOverflow = (page) =>
    page.evaluate(() => ({ scroll: document.scrollingElement.scrollWidth, viewport: window.innerWidth }));

describe('published site in chromium: API reference and imported pages', { timeout: 240_000 }, () => {
    let ctx, alice, api, org, browser, website, websiteUrl;
    const s = {};

    const shot = (page, name) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true, timeout: ACTION_MS });

    async function newPage(viewport) {
        const c = await browser.newContext({ viewport, reducedMotion: 'reduce' });
        c.setDefaultTimeout(ACTION_MS);
        c.setDefaultNavigationTimeout(NAV_MS);
        const p = await c.newPage();
        p.on('close', () => c.close().catch(() => {}));
        return p;
    }

    before(async () => {
        mkdirSync(ARTIFACTS, { recursive: true });
        website = createServer((req, res) => {
            const r = WEBSITE[new URL(req.url, 'http://x').pathname];
            if (!r) {
                res.writeHead(404, { 'Content-Type': 'text/html' });
                res.end('<h1>Not found</h1>');
                return;
            }
            res.writeHead(200, { 'Content-Type': r[0] });
            res.end(r[1]);
        });
        await new Promise((r) => website.listen(0, '127.0.0.1', r));
        websiteUrl = `http://127.0.0.1:${website.address().port}`;

        ctx = await setup({ extraArgs: ['--allow-private-network'] });
        alice = await ctx.user('alice');
        api = alice.api;
        ({ org } = await createOrg(ctx.url, alice.token, `Features ${ctx.run}`));

        // (a) the spec, processed, and a space with an overview and the computed page.
        await ok(api.orgs.createOpenApiSpec(org.id, { slug: 'petstore', source: { text: SPEC } }), 'createOpenAPISpec', 201);
        for (const deadline = Date.now() + 20_000; ;) {
            const sp = await ok(api.orgs.getOpenApiSpecBySlug(org.id, 'petstore'), 'getOpenAPISpecBySlug');
            if (sp.processingState === 'complete') break;
            assert.ok(Date.now() < deadline, `spec not processed: ${JSON.stringify(sp)}`);
            await sleep(100);
        }
        const dev = await ok(api.orgs.createSpace(org.id, { title: 'Developers' }), 'createSpace', 201);
        const cr = await ok(api.spaces.createChangeRequest(dev.id, { subject: 'API pages' }), 'createChangeRequest', 201);
        const r = await raw(ctx.url, 'POST', `/v1/spaces/${dev.id}/change-requests/${cr.id}/content`, {
            token: alice.token,
            json: {
                changes: [
                    { operation: 'insert_page', title: 'Overview', document: { markdown: '# Overview\n\nRead the API reference.\n' } },
                    {
                        operation: 'insert_page', title: 'API reference', type: 'computed',
                        computed: { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'petstore' } } }, props: { models: true } },
                    },
                ],
            },
        });
        assert.equal(r.status, 200, r.text);
        assert.equal((await ok(api.spaces.mergeChangeRequest(dev.id, cr.id), 'mergeChangeRequest')).result, 'merge');

        // (b) a space imported from the tiny website.
        const imp = await ok(api.orgs.createSpace(org.id, { title: 'Tiny Docs' }), 'createSpace', 201);
        const ir = await raw(ctx.url, 'POST', `/v1/spaces/${imp.id}/content/import`, {
            token: alice.token, json: { url: `${websiteUrl}/tiny/`, source: 'website' }, timeout: 60_000,
        });
        assert.equal(ir.status, 200, `import: ${ir.status} ${ir.text}`);
        assert.equal(ir.json.importedResources, 3, 'two pages and the image');
        const impPages = (await ok(api.spaces.listPages(imp.id), 'listPages')).pages;
        s.home = impPages.find((p) => p.title === 'Tiny Docs');
        s.setup = impPages.find((p) => p.title === 'Setup');
        assert.ok(s.home && s.setup, `the imported pages: ${impPages.map((p) => p.title)}`);

        // The site: section "Developers" (default), section "Tiny" at /tiny.
        const site = await ok(api.orgs.createSite(org.id, { title: 'Petstore Docs', visibility: 'public' }), 'createSite', 201);
        await ok(api.orgs.addSectionToSite(org.id, site.id, { spaceId: dev.id, title: 'Developers' }), 'addSectionToSite', 201);
        const tiny = await ok(api.orgs.addSectionToSite(org.id, site.id, { spaceId: imp.id, title: 'Tiny Docs' }), 'addSectionToSite', 201);
        await ok(api.orgs.updateSiteSectionById(org.id, site.id, tiny.id, { path: 'tiny' }), 'updateSiteSectionById');
        await ok(api.orgs.updateSiteById(org.id, site.id, { basename: `pet-${ctx.run}` }), 'updateSiteById');
        const pub = await ok(api.orgs.publishSite(org.id, site.id), 'publishSite');
        s.root = pub.urls.published.replace(/\/+$/, '');

        browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, timeout: NAV_MS, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
    });

    after(async () => {
        if (browser) await browser.close().catch(() => {});
        if (ctx) await ctx.server.stop();
        website?.closeAllConnections?.();
        if (website) await new Promise((r) => website.close(r));
    });

    async function checkApiReference(page) {
        const res = await page.goto(`${s.root}/api-reference`);
        assert.equal(res.status(), 200);
        await page.locator('h1', { hasText: 'API reference' }).first().waitFor();
        const main = page.locator('main').first();
        for (const op of ['List pets', 'Create a pet', 'Delete a pet']) {
            await main.locator('h3', { hasText: op }).first().waitFor();
        }
        const text = await main.innerText();
        for (const mp of ['GET /pets', 'POST /pets', 'DELETE /pets/{petId}']) assert.ok(text.includes(mp), `${mp} is shown`);
        // The parameters of "List pets" and "Delete a pet": one table each, a row per parameter.
        const params = await page.evaluate(() =>
            [...document.querySelectorAll('main table')].map((t) => [...t.querySelectorAll('tr')].map((tr) => [...tr.cells].map((c) => c.innerText.trim()))));
        const row = (name) => params.flat().find((r) => r[0] === name);
        assert.deepEqual(row('limit')?.slice(1, 4), ['query', 'integer (int32)', 'no'], JSON.stringify(params));
        assert.equal(row('petId')?.[1], 'path');
        assert.equal(row('petId')?.[3], 'yes');
        assert.ok(row('X-Request-Reason'), 'the header parameter is listed');
        assert.ok(row('name'), 'the request body lists its properties');
        assert.match(row('status')?.[4] ?? '', /adoption status\. Possible values: available, pending, sold\./, 'the enum is its own sentence');
        // A response's type and its table stay inside the response's list item.
        assert.ok(await main.locator('li', { hasText: 'A page of pets' }).locator('table').count() === 0);
        assert.equal(await main.locator('li', { hasText: 'An error' }).locator('table').count(), 1, "the default response's table is in its item");
        // Responses: the status codes are shown.
        for (const code of ['200', '201', '204', '404']) assert.match(text, new RegExp(`\\b${code}\\b`), `response ${code}`);
        // No raw markdown leaks into the page.
        assert.doesNotMatch(text, /(^|\n)\s*(#{2,}|\|\s*---|```)/, 'no raw markdown');
        assert.doesNotMatch(text, /`[A-Z]+ \//, 'no backticks around method and path');
        // The tables are styled: a border or a background on the cells.
        const styled = await page.evaluate(() => {
            const td = document.querySelector('main table td');
            const cs = getComputedStyle(td);
            return parseFloat(cs.borderBottomWidth) > 0 || parseFloat(cs.borderTopWidth) > 0;
        });
        assert.ok(styled, 'the parameter tables have cell borders');
    }

    async function checkImported(page) {
        let res = await page.goto(`${s.root}/tiny`);
        assert.equal(res.status(), 200);
        const main = page.locator('main').first();
        await page.locator('h1', { hasText: 'Tiny Docs' }).first().waitFor();
        // The image is served and loads.
        const img = main.locator('img[alt="Architecture diagram"]').first();
        await img.waitFor();
        await page.waitForFunction((el) => el.complete, await img.elementHandle());
        assert.ok((await img.evaluate((el) => el.naturalWidth)) > 0, 'the imported image loads');
        // The nested list keeps its nesting (three levels).
        assert.ok((await main.locator('ul ul ul li', { hasText: 'No threads to tune' }).count()) === 1, 'a list three levels deep');
        assert.ok((await main.locator('ol ol li', { hasText: 'Edit the file' }).count()) === 1, 'a nested ordered list');
        assert.doesNotMatch(await main.innerText(), /Tiny Docs footer|\*\*small\*\*/, 'no footer, no raw markdown');
        const homeUrl = page.url();

        res = await page.goto(`${s.root}/tiny/${s.setup.path}`);
        assert.equal(res.status(), 200);
        await page.locator('h1', { hasText: 'Setup' }).first().waitFor();
        const table = main.locator('table').first();
        await table.waitFor();
        assert.equal(await table.locator('tr').count(), 3, 'the table: a header row and two rows');
        assert.equal(await table.locator('th').count(), 5);
        const code = main.locator('pre').first();
        assert.match(await code.innerText(), /tinydocs serve --listen 127\.0\.0\.1:8080/);
        assert.match(await code.innerText(), /&& echo "up"/, 'entities decoded once');
        assert.doesNotMatch(await main.innerText(), /```|\|\s*---/, 'no raw markdown');
        return homeUrl;
    }

    it('(a) API reference from an OpenAPI spec, desktop', { timeout: TEST_MS }, async () => {
        const page = await newPage(DESKTOP);
        try {
            await checkApiReference(page);
            await shot(page, 'f1a-api-reference');
        } finally {
            await page.close();
        }
    });

    it('(a) API reference from an OpenAPI spec, phone: no sideways scrolling', { timeout: TEST_MS }, async () => {
        const page = await newPage(PHONE);
        try {
            await checkApiReference(page);
            const o = await noHorizontalOverflow(page);
            await shot(page, 'f1b-api-reference-mobile');
            // A phone screen's worth around the first parameter table (full-page shots shrink).
            await page.locator('main table').first().scrollIntoViewIfNeeded();
            await page.screenshot({ path: join(ARTIFACTS, 'f1c-api-reference-mobile-params.png'), timeout: ACTION_MS });
            await page.locator('main table').first().evaluate((t) => { t.scrollLeft = t.scrollWidth; });
            await page.screenshot({ path: join(ARTIFACTS, 'f1d-api-reference-mobile-params-scrolled.png'), timeout: ACTION_MS });
            assert.ok(o.scroll <= o.viewport, `the page is ${o.scroll}px wide on a ${o.viewport}px phone`);
        } finally {
            await page.close();
        }
    });

    it('(b) pages imported from a website, desktop', { timeout: TEST_MS }, async () => {
        const page = await newPage(DESKTOP);
        try {
            const home = await checkImported(page);
            await shot(page, 'f2b-imported-setup');
            await page.goto(home);
            await page.locator('h1', { hasText: 'Tiny Docs' }).first().waitFor();
            await shot(page, 'f2a-imported-home');
        } finally {
            await page.close();
        }
    });

    it('(b) pages imported from a website, phone: no sideways scrolling', { timeout: TEST_MS }, async () => {
        const page = await newPage(PHONE);
        try {
            const home = await checkImported(page);
            let o = await noHorizontalOverflow(page);
            await shot(page, 'f2d-imported-setup-mobile');
            await page.locator('main table').first().scrollIntoViewIfNeeded();
            await page.screenshot({ path: join(ARTIFACTS, 'f2e-imported-setup-mobile-table.png'), timeout: ACTION_MS });
            assert.ok(o.scroll <= o.viewport, `the setup page is ${o.scroll}px wide on a ${o.viewport}px phone`);
            await page.goto(home);
            const img = page.locator('main img').first();
            await img.waitFor();
            await page.waitForFunction((el) => el.complete, await img.elementHandle());
            o = await noHorizontalOverflow(page);
            await shot(page, 'f2c-imported-home-mobile');
            assert.ok(o.scroll <= o.viewport, `the home page is ${o.scroll}px wide on a ${o.viewport}px phone`);
            const box = await img.boundingBox();
            assert.ok(box.width <= o.viewport, 'the image shrinks to the phone');
        } finally {
            await page.close();
        }
    });
});
