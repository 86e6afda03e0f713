// Helpers shared by the web interface's browser tests (app*.test.mjs). Setting a user's password
// and the test password itself are in ../api/lib/app.mjs, shared with the API tests.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { ok, raw } from '../api/lib/api.mjs';
import { PASSWORD } from '../api/lib/app.mjs';

/** Fills the sign-in form `page` shows, submits it and waits for the home page (`${url}/`). */
export async function submitSignIn(page, url, email, password = PASSWORD) {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await Promise.all([page.waitForURL(`${url}/`), page.getByRole('button', { name: 'Sign in' }).click()]);
}

export const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), 'artifacts');
export const CHROMIUM = process.env.CHROMIUM_BIN || '/usr/bin/chromium';
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };
export const NAV_MS = 30_000;
export const ACTION_MS = 10_000;

/** Debian's chromium, headless (asserting it is installed); the artifacts directory made. */
export async function launchChromium() {
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} exists`);
    mkdirSync(ARTIFACTS, { recursive: true });
    return chromium.launch({ executablePath: CHROMIUM, headless: true, timeout: NAV_MS, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/**
 * What a browser journey does again and again, for the screenshots named `${prefix}-*.png`:
 * `newPage(viewport, colorScheme, opts)` (a context with the test timeouts whose CSP refusals
 * and dialogs are collected in `violations`), `shot(page, name)` (full page), `noSideScroll(page,
 * what)` (phone layouts) and `signIn(page, url, email)`.
 */
export function journey(getBrowser, prefix) {
    const violations = [];
    return {
        violations,
        async newPage(viewport = DESKTOP, colorScheme = 'light', opts = {}) {
            const context = await getBrowser().newContext({ viewport, colorScheme, reducedMotion: 'reduce', ...opts });
            context.setDefaultTimeout(ACTION_MS);
            context.setDefaultNavigationTimeout(NAV_MS);
            const page = await context.newPage();
            page.on('console', (m) => {
                if (m.type() === 'error' && /Content Security Policy|Refused to/.test(m.text())) violations.push(m.text());
            });
            page.on('dialog', (d) => {
                violations.push(`a dialog opened: ${d.message()}`);
                d.dismiss().catch(() => {});
            });
            return { context, page };
        },
        shot: (page, name) => page.screenshot({ path: join(ARTIFACTS, `${prefix}-${name}.png`), fullPage: true, timeout: ACTION_MS }),
        async noSideScroll(page, what) {
            const o = await page.evaluate(() => ({ scroll: document.scrollingElement.scrollWidth, viewport: window.innerWidth }));
            assert.ok(o.scroll <= o.viewport + 1, `${what}: scrolls sideways (${o.scroll} > ${o.viewport})`);
        },
        async signIn(page, url, email) {
            await page.goto(`${url}/signin`);
            await submitSignIn(page, url, email);
        },
    };
}

/** A space of orgId titled `title` whose pages ([{title, markdown}]) are written through one
 * change request and merged (the API, as `user`). */
export async function seedSpace(ctx, user, orgId, title, pages) {
    const space = await ok(user.api.orgs.createSpace(orgId, { title }), 'createSpace', 201);
    const cr = await ok(user.api.spaces.createChangeRequest(space.id, { subject: 'Pages' }), 'createChangeRequest', 201);
    const w = await raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
        token: user.token,
        json: { changes: pages.map((p) => ({ operation: 'insert_page', title: p.title, document: { markdown: p.markdown } })) },
    });
    assert.equal(w.status, 200, w.text);
    await ok(user.api.spaces.mergeChangeRequest(space.id, cr.id), 'mergeChangeRequest');
    return space;
}
