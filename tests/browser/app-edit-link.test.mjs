// The published page's "Edit" link in Debian's chromium (issue 25): a member who may edit sees
// an "Edit" link on the published page (site.js asks /~app/edit-link) that opens the page in the
// web interface; a reader and a signed-out visitor see none, and the page is the same for all.
// Screenshots: artifacts/app-edit-link-*.png.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from '../api/lib/fixtures.mjs';
import { ok, createOrg, addMember } from '../api/lib/api.mjs';
import { setPassword, PASSWORD } from '../api/lib/app.mjs';
import { DESKTOP, journey, launchChromium, seedSpace } from './lib-app.mjs';

describe('the published page\'s Edit link in chromium', { timeout: 120_000 }, () => {
    let ctx, alice, bob, org, space, site, browser;
    const j = journey(() => browser, 'app-edit-link');

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice', { name: 'Alice Martin' });
        bob = await ctx.user('bob', { name: 'Bob Reader' });
        ({ org } = await createOrg(ctx.url, alice.token, 'Acme'));
        await addMember(alice.api, org.id, bob.email, 'read');
        space = await seedSpace(ctx, alice, org.id, 'Handbook', [
            { title: 'Welcome', markdown: 'Welcome to the handbook.\n' },
            { title: 'Holidays', markdown: 'Ask your manager first.\n' },
        ]);
        site = await ok(alice.api.orgs.createSite(org.id, { title: 'Acme handbook' }), 'createSite', 201);
        await ok(alice.api.orgs.addSpaceToSite(org.id, site.id, { spaceId: space.id }), 'addSpaceToSite', 201);
        site = await ok(alice.api.orgs.publishSite(org.id, site.id), 'publishSite');
        await setPassword(ctx.server, alice.email, PASSWORD);
        await setPassword(ctx.server, bob.email, PASSWORD);
        browser = await launchChromium();
    });
    after(async () => {
        if (browser) await browser.close().catch(() => {});
        await ctx?.server.stop();
    });

    const visit = async (email, shot) => {
        const { context, page } = await j.newPage(DESKTOP);
        if (email) await j.signIn(page, ctx.url, email);
        const asked = page.waitForResponse((r) => r.url().includes('/~app/edit-link'));
        await page.goto(`${site.urls.published}/holidays`);
        await asked;
        await page.getByText('Ask your manager first.').waitFor();
        await page.waitForTimeout(100); // the answer's handler runs after the response
        await j.shot(page, shot);
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
