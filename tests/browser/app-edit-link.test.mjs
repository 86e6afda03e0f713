// The published page's "Edit" link in Debian's chromium (issue 25): a member who may edit sees
// an "Edit" link on the published page (site.js asks /~app/edit-link) that opens the page in the
// web interface; a reader and a signed-out visitor see none, and the page is the same for all.
// Screenshots: artifacts/app-edit-link-*.png.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { setup } from '../api/lib/fixtures.mjs';
import { ok, raw, createOrg, addMember } from '../api/lib/api.mjs';
import { setPassword, PASSWORD } from '../api/lib/app.mjs';
import { submitSignIn } from './lib-app.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const ARTIFACTS = join(here, 'artifacts');
const CHROMIUM = process.env.CHROMIUM_BIN || '/usr/bin/chromium';

describe('the published page\'s Edit link in chromium', { timeout: 120_000 }, () => {
    let ctx, alice, bob, org, space, site, browser;

    before(async () => {
        assert.ok(existsSync(CHROMIUM), `${CHROMIUM} exists`);
        mkdirSync(ARTIFACTS, { recursive: true });
        ctx = await setup();
        alice = await ctx.user('alice', { name: 'Alice Martin' });
        bob = await ctx.user('bob', { name: 'Bob Reader' });
        ({ org } = await createOrg(ctx.url, alice.token, 'Acme'));
        await addMember(alice.api, org.id, bob.email, 'read');
        space = await ok(alice.api.orgs.createSpace(org.id, { title: 'Handbook' }), 'createSpace', 201);
        const cr = await ok(alice.api.spaces.createChangeRequest(space.id, { subject: 'pages' }), 'createChangeRequest', 201);
        const w = await raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
            token: alice.token,
            json: { changes: [
                { operation: 'insert_page', title: 'Welcome', document: { markdown: 'Welcome to the handbook.\n' } },
                { operation: 'insert_page', title: 'Holidays', document: { markdown: 'Ask your manager first.\n' } },
            ] },
        });
        assert.equal(w.status, 200, w.text);
        await ok(alice.api.spaces.mergeChangeRequest(space.id, cr.id), 'mergeChangeRequest');
        site = await ok(alice.api.orgs.createSite(org.id, { title: 'Acme handbook' }), 'createSite', 201);
        await ok(alice.api.orgs.addSpaceToSite(org.id, site.id, { spaceId: space.id }), 'addSpaceToSite', 201);
        site = await ok(alice.api.orgs.publishSite(org.id, site.id), 'publishSite');
        await setPassword(ctx.server, alice.email, PASSWORD);
        await setPassword(ctx.server, bob.email, PASSWORD);
        browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
    });
    after(async () => {
        if (browser) await browser.close().catch(() => {});
        await ctx?.server.stop();
    });

    const visit = async (email, shot) => {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const page = await context.newPage();
        if (email) {
            await page.goto(`${ctx.url}/signin`);
            await submitSignIn(page, ctx.url, email);
        }
        const asked = page.waitForResponse((r) => r.url().includes('/~app/edit-link'));
        await page.goto(`${site.urls.published}/holidays`);
        await asked;
        await page.getByText('Ask your manager first.').waitFor();
        await page.waitForTimeout(100); // the answer's handler runs after the response
        await page.screenshot({ path: join(ARTIFACTS, `app-edit-link-${shot}.png`) });
        return { context, page };
    };

    it('an editor sees Edit and it opens the page in the interface', async () => {
        const { context, page } = await visit(alice.email, 'editor');
        const edit = page.getByRole('link', { name: 'Edit this page in docsd' });
        await edit.waitFor();
        await Promise.all([page.waitForURL(`${ctx.url}/s/${space.id}/holidays`), edit.click()]);
        await page.getByText('Ask your manager first.').waitFor();
        assert.ok(await page.getByRole('button', { name: 'Start' }).isVisible(), 'the editor can start a change request');
        await context.close();
    });

    it('a reader and a signed-out visitor see no Edit link', async () => {
        for (const [email, shot] of [[bob.email, 'reader'], [null, 'anonymous']]) {
            const { context, page } = await visit(email, shot);
            assert.equal(await page.locator('a.edit-link').count(), 0, shot);
            await context.close();
        }
    });
});
