// What readers use every day, in Debian's chromium (the harness of site.test.mjs): the theme
// toggle (light / dark / system) with script off, remembered for the site across pages, on a
// desktop and a phone; search as you type from the header box (results while typing, arrow
// keys, a click leads to the page); Ctrl+K (Cmd+K on a Mac) focuses the search box; the outline
// marks the section being read as the page scrolls; breadcrumbs and "last updated". Full-page
// screenshots in artifacts/reader-*.png (look at them). No console error, no CSP violation.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { setup } from '../api/lib/fixtures.mjs';
import { ok, raw, createOrg } from '../api/lib/api.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const ARTIFACTS = join(here, 'artifacts');
const CHROMIUM = process.env.CHROMIUM_BIN || '/usr/bin/chromium';
const ACTION_MS = 10_000;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const LONG = (n) => Array.from({ length: n }, (_, i) => `Paragraph ${i + 1} of a long section about tokens and their scopes, written to give the page some height.`).join('\n\n');

const TOKENS_MD = `Tokens let a program call the API on your behalf.

## Creating a token

${LONG(8)}

## Scopes

A quokka token carries scopes. ${LONG(8)}

## Expiry

${LONG(8)}

## Revoking

${LONG(10)}
`;

describe('published site: readers\' features in chromium', { timeout: 240_000 }, () => {
    let ctx, alice, api, org, space, site, browser, base, origin;
    const errors = [];

    async function seeded(title, changes) {
        const s = await ok(api.orgs.createSpace(org.id, { title }), 'createSpace', 201);
        const cr = await ok(api.spaces.createChangeRequest(s.id, { subject: 'Seed' }), 'createChangeRequest', 201);
        const r = await raw(ctx.url, 'POST', `/v1/spaces/${s.id}/change-requests/${cr.id}/content`, { token: alice.token, json: { changes } });
        assert.equal(r.status, 200, r.text);
        await ok(api.spaces.mergeChangeRequest(s.id, cr.id), 'mergeChangeRequest');
        return s;
    }
    async function newPage(context) {
        const page = await context.newPage();
        page.setDefaultTimeout(ACTION_MS);
        // Failed loads are checked by URL below (the browser's own /favicon.ico is not the site's)
        page.on('console', (m) => { if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(`${page.url()}: ${m.text()}`); });
        page.on('response', (r) => { if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) errors.push(`${r.status()} ${r.url()}`); });
        page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
        return page;
    }
    const shot = (page, name) => page.screenshot({ path: join(ARTIFACTS, `reader-${name}.png`), fullPage: true, timeout: ACTION_MS });

    before(async () => {
        mkdirSync(ARTIFACTS, { recursive: true });
        ctx = await setup();
        alice = await ctx.user('alice');
        api = alice.api;
        ({ org } = await createOrg(ctx.url, alice.token, `Readers ${ctx.run}`));
        space = await seeded('Acme API', [
            { operation: 'insert_page', title: 'Welcome', description: 'Everything about the Acme API.', document: { markdown: 'Start with the **quokka** tutorial.\n\n## First steps\n\nRead on.\n\n## Next\n\nMore.\n' } },
            { operation: 'insert_page', title: 'Authentication', ref: 'auth', description: 'Who may call what.', document: { markdown: 'How the API knows who you are.\n' } },
            { operation: 'insert_page', title: 'Tokens', into: 'auth', description: 'Personal and integration tokens.', document: { markdown: TOKENS_MD } },
            { operation: 'insert_page', title: 'Sessions', into: 'auth', document: { markdown: 'Browser sessions.\n' } },
            { operation: 'insert_page', title: 'Rate limits', document: { markdown: 'How many requests a quokka may send.\n' } },
        ]);
        site = await ok(api.orgs.createSite(org.id, { title: 'Acme Developers' }), 'createSite', 201);
        await ok(api.orgs.addSpaceToSite(org.id, site.id, { spaceId: space.id }), 'addSpaceToSite', 201);
        await ok(api.orgs.updateSiteById(org.id, site.id, { basename: `readers-${ctx.run}` }), 'updateSiteById');
        await ok(api.orgs.publishSite(org.id, site.id), 'publishSite');
        origin = ctx.siteUrl.replace(/\/$/, '');
        base = `${origin}/sites/readers-${ctx.run}`;
        browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
    });
    after(async () => {
        await browser?.close();
        await ctx?.server.stop();
    });

    for (const [device, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
        it(`the theme toggle works without script on a ${device}, and is remembered for the site`, async () => {
            const context = await browser.newContext({ viewport, javaScriptEnabled: false, colorScheme: 'light' });
            try {
                const page = await newPage(context);
                await page.goto(`${base}/authentication/tokens`);
                assert.equal(await page.getAttribute('html', 'data-theme'), 'auto');
                await shot(page, `${device}-light`);
                await page.screenshot({ path: join(ARTIFACTS, `reader-${device}-light-top.png`), timeout: ACTION_MS });
                const bgLight = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
                await page.click('.theme-toggle a.theme-dark');
                await page.waitForURL(`${base}/authentication/tokens`);
                assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
                assert.equal(await page.getAttribute('.theme-toggle a.theme-dark', 'aria-current'), 'true');
                const bgDark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
                assert.notEqual(bgDark, bgLight, 'the dark theme darkens the page');
                await shot(page, `${device}-dark`);
                await page.screenshot({ path: join(ARTIFACTS, `reader-${device}-dark-top.png`), timeout: ACTION_MS });
                // another page of the same site remembers it
                await page.goto(`${base}/rate-limits`);
                assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
                const cookies = await context.cookies();
                const c = cookies.find((x) => x.name === 'docsd_theme');
                assert.equal(c.value, 'dark');
                assert.equal(c.path, `/sites/readers-${ctx.run}`);
                // light, then system (which follows the device: light here)
                await page.click('.theme-toggle a.theme-light');
                assert.equal(await page.getAttribute('html', 'data-theme'), 'light');
                await page.click('.theme-toggle a.theme-system');
                assert.equal(await page.getAttribute('html', 'data-theme'), 'auto');
                // the page does not scroll sideways on a phone
                const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
                assert.ok(wide <= 1, `no sideways scroll (${wide}px)`);
            } finally {
                await context.close();
            }
        });
    }

    it('system follows the device\'s dark mode', async () => {
        const context = await browser.newContext({ viewport: DESKTOP, colorScheme: 'dark' });
        try {
            const page = await newPage(context);
            await page.goto(`${base}/authentication/tokens`);
            const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
            assert.equal(bg, 'rgb(15, 17, 21)');
            await shot(page, 'desktop-system-dark');
        } finally {
            await context.close();
        }
    });

    it('search as you type, arrow keys, and a click to the page; Ctrl+K focuses the box', async () => {
        const context = await browser.newContext({ viewport: DESKTOP });
        try {
            const page = await newPage(context);
            await page.goto(`${base}/rate-limits`);
            assert.equal(await page.evaluate(() => document.activeElement?.name ?? null), null);
            await page.keyboard.press('Control+k');
            assert.equal(await page.evaluate(() => document.activeElement?.name), 'q', 'Ctrl+K focuses the search box');
            await page.keyboard.type('quok', { delay: 40 });
            await page.waitForSelector('.search-results:not([hidden]) a');
            const titles = await page.$$eval('.search-results a strong', (xs) => xs.map((x) => x.textContent));
            assert.ok(titles.some((t) => t.startsWith('Welcome')), titles.join(', '));
            assert.ok(titles.some((t) => t.startsWith('Tokens')), titles.join(', '));
            await shot(page, 'search');
            // no results
            await page.fill('input[name=q]', 'zzzqqq');
            await page.waitForSelector('.search-results p');
            assert.match(await page.textContent('.search-results p'), /No results/);
            // arrow keys and Enter lead to a result
            await page.fill('input[name=q]', 'scopes');
            await page.waitForSelector('.search-results:not([hidden]) a');
            await page.keyboard.press('ArrowDown');
            assert.equal(await page.evaluate(() => document.activeElement?.closest('.search-results') !== null), true);
            await Promise.all([page.waitForURL(/\/authentication\/tokens/), page.keyboard.press('Enter')]);
            assert.match(page.url(), /\/authentication\/tokens#[a-z-]+$/);
            // Escape closes the list
            await page.keyboard.press('Control+k');
            await page.keyboard.type('quokka');
            await page.waitForSelector('.search-results:not([hidden]) a');
            await page.keyboard.press('Escape');
            assert.equal(await page.isHidden('.search-results'), true);
            // without script, the form still searches
            const noJs = await browser.newContext({ viewport: DESKTOP, javaScriptEnabled: false });
            const p2 = await newPage(noJs);
            await p2.goto(`${base}/rate-limits`);
            await p2.fill('input[name=q]', 'quokka');
            await Promise.all([p2.waitForURL(/~search\?q=quokka/), p2.press('input[name=q]', 'Enter')]);
            assert.match(await p2.textContent('.lead'), /results? for/);
            await noJs.close();
        } finally {
            await context.close();
        }
    });

    it('the outline marks the section being read; breadcrumbs and "last updated"', async () => {
        const context = await browser.newContext({ viewport: DESKTOP });
        try {
            const page = await newPage(context);
            await page.goto(`${base}/authentication/tokens`);
            assert.equal(await page.textContent('.toc a.active'), 'Creating a token');
            await page.evaluate(() => document.getElementById('expiry').scrollIntoView());
            await page.waitForFunction(() => document.querySelector('.toc a.active')?.textContent === 'Expiry');
            assert.equal(await page.getAttribute('.toc a.active', 'aria-current'), 'location');
            assert.deepEqual(await page.$$eval('.breadcrumbs li', (xs) => xs.map((x) => x.textContent)), ['Authentication']);
            assert.match(await page.textContent('.last-updated'), /^Last updated [A-Z][a-z]+ \d{1,2}, \d{4}$/);
            await shot(page, 'outline');
            // the phone: the header keeps the search box and the toggle
            const phone = await browser.newContext({ viewport: PHONE });
            const p = await newPage(phone);
            await p.goto(`${base}/authentication/tokens`);
            assert.equal(await p.isVisible('.theme-toggle'), true);
            assert.equal(await p.isVisible('input[name=q]'), true);
            // search as you type on the phone: the results stay on the screen
            await p.click('input[name=q]');
            await p.keyboard.type('quokka');
            await p.waitForSelector('.search-results:not([hidden]) a');
            const box = await p.$eval('.search-results', (e) => { const r = e.getBoundingClientRect(); return { left: r.left, right: r.right }; });
            assert.ok(box.left >= 0 && box.right <= PHONE.width, `the results fit the screen: ${JSON.stringify(box)}`);
            await p.screenshot({ path: join(ARTIFACTS, 'reader-phone-search.png'), timeout: ACTION_MS });
            await phone.close();
        } finally {
            await context.close();
        }
        assert.deepEqual(errors, [], 'no console error or CSP violation');
    });
});
