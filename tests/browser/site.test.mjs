// The published site in a real browser: Debian's chromium, headless, driven by playwright-core.
// A docsd server (tests/api/lib: the same start/stop and client as the API tests) gets, through
// the API, an org, three spaces with nested pages (heading, table, code block, hint block), a
// public site with two sections (the first with two site-space variants) and a share-link site;
// both are published. Then in chromium: open the site, header and sidebar, follow the navigation
// to a nested page, search from the header box, switch variant and section, the 404 page, and
// the share-link site refusing a wrong key and accepting the right one. Full-page screenshots
// go to tests/browser/artifacts/ (look at them: docs a team would publish, not a debug page).
//
// Needs: build/docsd (or DOCSD_BIN), `npm ci` in tests/api and here, /usr/bin/chromium (or
// CHROMIUM_BIN). When the server has no site API or does not serve sites as HTML, the site
// tests are skipped with "skipped: no renderer"; the chromium smoke test runs regardless.
import { describe, it, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { setup } from '../api/lib/fixtures.mjs';
import { ok, raw, rawOk, createOrg } from '../api/lib/api.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const ARTIFACTS = join(here, 'artifacts');
const CHROMIUM = process.env.CHROMIUM_BIN || '/usr/bin/chromium';
const ACTION_MS = 10_000; // every click, fill and wait
const NAV_MS = 15_000; // every navigation
const TEST_MS = 60_000; // every test

const GUIDE_MD = `# Getting started

Welcome to **Acme**. This guide walks you through the first steps.

## Requirements

| Component | Version | Notes |
| --- | --- | --- |
| docsd | 1.0 | the server |
| SQLite | 3.40 | or PostgreSQL 15 |

{% hint style="info" %}
Hints like this one tell you something **useful** before you start.
{% endhint %}

Continue with the installation page.
`;

const INSTALL_MD = `# Installation

Install the quokkafrost package, then start the server.

## From the package

\`\`\`bash
apt-get install -y quokkafrost
quokkafrost serve --listen 127.0.0.1:8080
\`\`\`

{% hint style="warning" %}
Run it behind a reverse proxy in production.
{% endhint %}

| Flag | Meaning |
| --- | --- |
| \`--listen\` | address and port |
| \`--data\` | the data directory |
`;

const CONFIG_MD = `# Configuration

Settings live in one file. See the installation page first.
`;

const V2_MD = `# Getting started with version two

Version two of the guide talks about the zephyrine workflow.
`;

const API_MD = `# API overview

The HTTP API answers JSON. Every request needs a token.

\`\`\`js
const res = await fetch('/v1/user', { headers: { Authorization: 'Bearer TOKEN' } });
\`\`\`
`;

const ENDPOINTS_MD = `# Endpoints

List of endpoints, grouped by resource.
`;

/** The absolute URL without a trailing slash, query or hash (for comparing links). */
function norm(u) {
    const x = new URL(u);
    x.hash = '';
    x.search = '';
    return x.href.replace(/\/+$/, '');
}

function flatten(pages, out = []) {
    for (const p of pages) {
        out.push(p);
        if (Array.isArray(p.pages)) flatten(p.pages, out);
    }
    return out;
}

test('chromium starts and renders a page (smoke)', { timeout: TEST_MS }, async () => {
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} exists (scripts/deps.sh test installs Debian's chromium)`);
    const b = await chromium.launch({ executablePath: CHROMIUM, headless: true, timeout: NAV_MS, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
    try {
        const p = await b.newPage();
        await p.setContent('<h1>docsd</h1>');
        assert.equal(await p.textContent('h1', { timeout: ACTION_MS }), 'docsd');
    } finally {
        await b.close();
    }
});

describe('published site in chromium', { timeout: 240_000 }, () => {
    let ctx, alice, org, browser, context;
    let skipReason = null;
    const s = {}; // what the setup made: spaces, sites, URLs, keys

    const shot = async (page, name) => {
        await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true, timeout: ACTION_MS });
    };

    /** A space whose content is `changes` (insert_page operations), merged; returns {space, pages}. */
    async function seededSpace(title, changes) {
        const space = await ok(alice.api.orgs.createSpace(org.id, { title }), 'createSpace', 201);
        const cr = await ok(alice.api.spaces.createChangeRequest(space.id, { subject: 'Seed' }), 'createChangeRequest', 201);
        await rawOk(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { token: alice.token, json: { changes } }, 'updateChangeRequestContent');
        const m = await ok(alice.api.spaces.mergeChangeRequest(space.id, cr.id), 'mergeChangeRequest');
        assert.equal(m.result, 'merge');
        const pages = flatten((await ok(alice.api.spaces.listPages(space.id), 'listPages')).pages);
        return { space, pages };
    }

    /** A site API call that a server without the site API answers 404/405: record the skip. */
    async function siteCall(promise, operationId, status) {
        try {
            return await ok(promise, operationId, status);
        } catch (e) {
            // Only a route the server does not have (not a 404 of an existing route).
            if (/got 404 .*no such endpoint|got 405 /.test(String(e.message))) {
                skipReason = `skipped: no renderer (this build has no ${operationId}: the site API is not there yet)`;
                return null;
            }
            throw e;
        }
    }

    before(async () => {
        mkdirSync(ARTIFACTS, { recursive: true });
        ctx = await setup();
        alice = await ctx.user('alice');
        ({ org } = await createOrg(ctx.url, alice.token, `Browser ${ctx.run}`));

        const guides = await seededSpace('Guides', [
            { operation: 'insert_page', title: 'Getting started', ref: 'start', document: { markdown: GUIDE_MD } },
            { operation: 'insert_page', title: 'Installation', into: 'start', document: { markdown: INSTALL_MD } },
            { operation: 'insert_page', title: 'Configuration', document: { markdown: CONFIG_MD } },
        ]);
        const guidesV2 = await seededSpace('Guides v2', [
            { operation: 'insert_page', title: 'Getting started with version two', document: { markdown: V2_MD } },
        ]);
        const apiRef = await seededSpace('API reference', [
            { operation: 'insert_page', title: 'API overview', ref: 'ov', document: { markdown: API_MD } },
            { operation: 'insert_page', title: 'Endpoints', into: 'ov', document: { markdown: ENDPOINTS_MD } },
        ]);
        s.guides = guides;
        s.install = guides.pages.find((p) => p.title === 'Installation');
        s.start = guides.pages.find((p) => p.title === 'Getting started');
        assert.ok(s.install && s.start, 'the seeded pages are listed');
        assert.ok(s.install.path.includes('/'), `the nested page's path has its parent's: ${s.install.path}`);

        // The public site: section "Guides" (variants Guides and Guides v2), section "API".
        const site = await siteCall(alice.api.orgs.createSite(org.id, { title: 'Acme Docs', visibility: 'public' }), 'createSite', 201);
        if (!site) return;
        const guidesSection = await siteCall(alice.api.orgs.addSectionToSite(org.id, site.id, { spaceId: guides.space.id, title: 'Guides' }), 'addSectionToSite', 201);
        if (!guidesSection) return;
        const apiSection = await ok(alice.api.orgs.addSectionToSite(org.id, site.id, { spaceId: apiRef.space.id, title: 'API' }), 'addSectionToSite', 201);
        s.apiSection = await ok(alice.api.orgs.updateSiteSectionById(org.id, site.id, apiSection.id, { path: 'api' }), 'updateSiteSectionById');
        const v2 = await siteCall(alice.api.orgs.addSpaceToSite(org.id, site.id, { spaceId: guidesV2.space.id, sectionId: guidesSection.id }), 'addSpaceToSite', 201);
        if (!v2) return;
        s.v2 = await ok(alice.api.orgs.updateSiteSpaceById(org.id, site.id, v2.id, { path: 'v2' }), 'updateSiteSpaceById');
        await siteCall(alice.api.orgs.updateSiteById(org.id, site.id, { basename: `acme-${ctx.run}` }), 'updateSiteById');
        if (skipReason) return;
        s.site = await siteCall(alice.api.orgs.publishSite(org.id, site.id), 'publishSite');
        if (!s.site) return;
        assert.equal(s.site.published, true);
        s.root = norm(s.site.urls.published);
        assert.equal(s.root, `${ctx.siteUrl}/sites/acme-${ctx.run}`, 'urls.published follows the documented scheme');

        // The share-link site.
        const priv = await ok(alice.api.orgs.createSite(org.id, { title: 'Acme Internal', visibility: 'share-link' }), 'createSite', 201);
        await ok(alice.api.orgs.addSpaceToSite(org.id, priv.id, { spaceId: guides.space.id }), 'addSpaceToSite', 201);
        const privPub = await ok(alice.api.orgs.publishSite(org.id, priv.id), 'publishSite');
        s.privRoot = norm(privPub.urls.published);
        const link = await ok(alice.api.orgs.createSiteShareLink(org.id, priv.id, { name: 'Team' }), 'createSiteShareLink', 201);
        // The key is in the share link's URL: {root}/~share/{key} (or ?share={key}).
        const published = new URL(link.urls.published);
        s.shareKey = published.searchParams.get('share') || (published.pathname.match(/\/~share\/([^/]+)/) || [])[1];
        assert.ok(s.shareKey, `a key in the share link's URL ${link.urls.published}`);
        assert.equal(norm(link.urls.published).startsWith(s.privRoot.replace(/\/~share\/[^/]+$/, '')), true, 'the share link URL is under the site root');

        // Does the server render sites as HTML?
        const probe = await raw(ctx.url, 'GET', new URL(s.root).pathname);
        if (probe.status !== 200 || !/text\/html/.test(probe.headers['content-type'] || '')) {
            skipReason = `skipped: no renderer (GET ${new URL(s.root).pathname} answered ${probe.status} ${probe.headers['content-type'] || ''})`;
            return;
        }

        browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, timeout: NAV_MS, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
        context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        context.setDefaultTimeout(ACTION_MS);
        context.setDefaultNavigationTimeout(NAV_MS);
    });

    after(async () => {
        if (skipReason) console.log(`# ${skipReason}`);
        if (context) await context.close().catch(() => {});
        if (browser) await browser.close().catch(() => {});
        if (ctx) await ctx.server.stop();
    });

    /**
     * Clicks the first visible link whose absolute href (no query, no trailing slash) is `target`
     * (or, with prefix, starts with it), inside the element `within` when given.
     */
    async function clickLinkTo(page, target, { prefix = false, within = null } = {}) {
        const want = norm(target);
        const idx = await page.evaluate(({ want, prefix, within }) => {
            const clean = (h) => {
                const u = new URL(h);
                u.hash = '';
                u.search = '';
                return u.href.replace(/\/+$/, '');
            };
            const scope = within ? document.querySelector(within) : document;
            const as = [...document.querySelectorAll('a[href]')];
            return as.findIndex((a) => {
                const h = clean(a.href);
                const match = prefix ? h === want || h.startsWith(want + '/') : h === want;
                return match && scope && scope.contains(a) && a.getClientRects().length > 0 && getComputedStyle(a).visibility !== 'hidden';
            });
        }, { want, prefix, within });
        assert.ok(idx >= 0, `a visible link to ${want}${within ? ` in ${within}` : ''} on ${page.url()}`);
        await Promise.all([page.waitForURL((u) => norm(u.href) === want || (prefix && norm(u.href).startsWith(want + '/'))), page.locator('a[href]').nth(idx).click()]);
    }

    async function expectNoTemplateSyntax(page) {
        const text = await page.locator('body').innerText();
        assert.doesNotMatch(text, /\{%\s*(end)?hint/, 'hint blocks are rendered, not shown as template syntax');
    }

    it('opens the site: header, sidebar, first page', { timeout: TEST_MS }, async (t) => {
        if (skipReason) return t.skip(skipReason);
        const page = await context.newPage();
        try {
            const res = await page.goto(s.root);
            assert.equal(res.status(), 200);
            assert.match(res.headers()['content-type'], /text\/html/);
            assert.equal(await page.locator('header').count() > 0, true, 'a <header>');
            await page.locator('header').first().waitFor({ state: 'visible' });
            const sidebar = page.locator('aside').first();
            await sidebar.waitFor({ state: 'visible' });
            assert.match(await page.title(), /Acme Docs/, 'the title names the site');
            const header = await page.locator('header').first().innerText();
            assert.match(header, /Acme Docs/, 'the header names the site');
            // The sidebar lists the first space's pages.
            const nav = await page.locator('aside, nav').allInnerTexts();
            assert.match(nav.join('\n'), /Getting started/);
            assert.match(nav.join('\n'), /Configuration/);
            await shot(page, '01-home');
        } finally {
            await page.close();
        }
    });

    it('follows the navigation to a nested page (heading, table, code block, hint)', { timeout: TEST_MS }, async (t) => {
        if (skipReason) return t.skip(skipReason);
        const page = await context.newPage();
        try {
            // The first page of the space is the root of the site.
            await page.goto(s.root);
            const installUrl = `${s.root}/${s.install.path}`;
            await page.locator('h1', { hasText: 'Getting started' }).first().waitFor();
            assert.match(await page.locator('body').innerText(), /Welcome to Acme/);
            await shot(page, '02-getting-started');
            await clickLinkTo(page, installUrl);
            assert.equal(norm(page.url()), norm(installUrl));
            await page.locator('h1', { hasText: 'Installation' }).first().waitFor();
            await page.locator('h2', { hasText: 'From the package' }).first().waitFor();
            const table = page.locator('table').first();
            await table.waitFor();
            assert.equal(await table.locator('tr').count(), 3, 'the table has a header row and two rows');
            const code = page.locator('pre').first();
            await code.waitFor();
            assert.match(await code.innerText(), /apt-get install -y quokkafrost/);
            assert.match(await page.locator('body').innerText(), /Run it behind a reverse proxy in production\./);
            await expectNoTemplateSyntax(page);
            // The hint is its own block: the warning sentence is not inside a plain <p> of the article's flow only.
            const hintBox = await page.evaluate(() => {
                const el = [...document.querySelectorAll('main *, article *')].find((e) => e.children.length === 0 && /reverse proxy in production/.test(e.textContent));
                let n = el;
                for (let i = 0; n && i < 4; i++, n = n.parentElement) {
                    if (n.tagName === 'ASIDE' || /hint|callout|admonition|alert|note|warning/i.test(n.className)) return true;
                }
                return false;
            });
            assert.ok(hintBox, 'the hint is rendered in a hint/callout element');
            await shot(page, '03-nested-page');
        } finally {
            await page.close();
        }
        // The same page on a phone-sized viewport: the sidebar is a drawer, closed, that the
        // menu button (a label of a checkbox: no script) opens.
        const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, reducedMotion: 'reduce' });
        try {
            phone.setDefaultTimeout(ACTION_MS);
            phone.setDefaultNavigationTimeout(NAV_MS);
            const m = await phone.newPage();
            await m.goto(`${s.root}/${s.install.path}`);
            await m.locator('h1', { hasText: 'Installation' }).first().waitFor();
            const drawerX = async () => (await m.locator('aside').first().boundingBox())?.x ?? -1e9;
            await m.waitForTimeout(300); // a drawer transition, if any, ends
            assert.ok((await drawerX()) < 0, 'the drawer starts closed on a phone');
            await shot(m, '04-nested-page-mobile');
            const toggle = m.locator('label[for="nav-toggle"], button[aria-controls], .nav-button').first();
            if ((await toggle.count()) > 0) {
                await toggle.click();
                await m.waitForTimeout(300);
                assert.ok((await drawerX()) >= 0, 'the menu button opens the drawer');
                await shot(m, '04b-mobile-menu-open');
            }
        } finally {
            await phone.close();
        }
    });

    it('searches from the header box and opens a result', { timeout: TEST_MS }, async (t) => {
        if (skipReason) return t.skip(skipReason);
        const page = await context.newPage();
        try {
            await page.goto(s.root);
            const box = page.locator('form input[name="q"], input[type="search"]').first();
            await box.waitFor({ state: 'visible' });
            await box.fill('quokkafrost');
            await Promise.all([page.waitForURL(/~search/), box.press('Enter')]);
            assert.match(page.url(), /\/~search\?(.*&)?q=quokkafrost/);
            const results = page.locator('main').first();
            await results.waitFor();
            assert.match(await results.innerText(), /Installation/, 'the result names the page');
            await shot(page, '05-search');
            await clickLinkTo(page, `${s.root}/${s.install.path}`, { within: 'main' });
            await page.locator('h1', { hasText: 'Installation' }).first().waitFor();
            // A query that matches nothing still answers a page in the site's style.
            const res = await page.goto(`${s.root}/~search?q=nothingmatchesthisword`);
            assert.equal(res.status(), 200);
            await page.locator('header').first().waitFor();
        } finally {
            await page.close();
        }
    });

    it('switches to the other site-space variant and to the other section', { timeout: TEST_MS }, async (t) => {
        if (skipReason) return t.skip(skipReason);
        const page = await context.newPage();
        try {
            await page.goto(s.root);
            await clickLinkTo(page, `${s.root}/v2`, { prefix: true });
            await page.locator('h1', { hasText: 'version two' }).first().waitFor();
            assert.match(await page.locator('body').innerText(), /zephyrine workflow/);
            await shot(page, '06-variant-v2');
            await clickLinkTo(page, `${s.root}/api`, { prefix: true });
            await page.locator('h1', { hasText: 'API overview' }).first().waitFor();
            const nav = (await page.locator('aside, nav').allInnerTexts()).join('\n');
            assert.match(nav, /Endpoints/, "the API section's sidebar lists its pages");
            await shot(page, '07-section-api');
            // Back to the default section from the API section.
            await clickLinkTo(page, s.root);
            await page.locator('body', { hasText: 'Getting started' }).first().waitFor();
        } finally {
            await page.close();
        }
    });

    it('answers a missing page with a 404 in the site style', { timeout: TEST_MS }, async (t) => {
        if (skipReason) return t.skip(skipReason);
        const page = await context.newPage();
        try {
            const res = await page.goto(`${s.root}/no/such/page`);
            assert.equal(res.status(), 404);
            assert.match(res.headers()['content-type'], /text\/html/);
            await page.locator('header').first().waitFor();
            assert.match(await page.locator('header').first().innerText(), /Acme Docs/);
            await shot(page, '08-not-found');
        } finally {
            await page.close();
        }
    });

    it('a share-link site refuses a missing or wrong key and accepts the right one', { timeout: TEST_MS }, async (t) => {
        if (skipReason) return t.skip(skipReason);
        const page = await context.newPage();
        try {
            const bare = s.privRoot.replace(/\/~share\/[^/]+$/, '');
            for (const url of [bare, `${bare}?share=wrongkey0000`, `${bare}/~share/wrongkey0000`, `${bare}/~share/wrongkey0000/${s.start.path}`]) {
                const res = await page.goto(url);
                assert.equal(res.status(), 404, `${url} without the right key`);
                assert.doesNotMatch(await page.locator('body').innerText(), /Welcome to Acme/, `${url} shows no content`);
            }
            await shot(page, '09-share-wrong-key');
            let res = await page.goto(`${bare}?share=${encodeURIComponent(s.shareKey)}`);
            assert.equal(res.status(), 200, 'the right key in the query');
            await page.locator('body', { hasText: 'Welcome to Acme' }).first().waitFor();
            res = await page.goto(`${bare}/~share/${encodeURIComponent(s.shareKey)}`);
            assert.equal(res.status(), 200, 'the right key in the path');
            await page.locator('h1', { hasText: 'Getting started' }).first().waitFor();
            // Links on a shared page keep the key: the nested page opens.
            await clickLinkTo(page, `${bare}/~share/${s.shareKey}/${s.install.path}`);
            await page.locator('h1', { hasText: 'Installation' }).first().waitFor();
            await shot(page, '10-share-right-key');
        } finally {
            await page.close();
        }
    });
});
