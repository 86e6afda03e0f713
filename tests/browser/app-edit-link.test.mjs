// The published page's "Edit" link in Debian's chromium (issue 25). Published sites are on
// another origin than the web interface (README, "Two origins"), so the page carries one plain
// link, the same for every visitor, into the app (/~app/edit-link), which decides when it is
// followed: an editor lands on the page in the interface with the editor's controls, a reader
// on the read-only page, a signed-out visitor on the sign-in page and then on the page.
// The published page asks the app nothing in the background.
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
        assert.ok(site.urls.published.startsWith(ctx.siteUrl));
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
        const appRequests = [];
        if (email) await j.signIn(page, ctx.url, email);
        page.on('request', (r) => {
            if (r.url().startsWith(ctx.url)) appRequests.push(r.url());
        });
        await page.goto(`${site.urls.published}/holidays`);
        await page.getByText('Ask your manager first.').waitFor();
        await page.waitForLoadState('networkidle');
        assert.deepEqual(appRequests, [], 'the published page asks the app nothing');
        await j.shot(page, shot);
        return { context, page };
    };

    it('an editor follows Edit to the page in the interface', async () => {
        const { context, page } = await visit(alice.email, 'editor');
        const edit = page.getByRole('link', { name: 'Edit this page in docsd' });
        await Promise.all([page.waitForURL(`${ctx.url}/s/${space.id}/holidays`), edit.click()]);
        await page.getByText('Ask your manager first.').waitFor();
        assert.ok(await page.getByRole('button', { name: 'Start' }).isVisible(), 'the editor can start a change request');
        await context.close();
    });

    it('a reader gets the read-only page; a signed-out visitor signs in first', async () => {
        let { context, page } = await visit(bob.email, 'reader');
        await Promise.all([page.waitForURL(`${ctx.url}/s/${space.id}/holidays`), page.locator('a.edit-link').click()]);
        await page.getByText('Ask your manager first.').waitFor();
        assert.equal(await page.getByRole('button', { name: 'Start' }).count(), 0, 'no editor controls for a reader');
        await context.close();
        ({ context, page } = await visit(null, 'anonymous'));
        await Promise.all([page.waitForURL(/\/signin\?next=/), page.locator('a.edit-link').click()]);
        await page.getByLabel('Email').fill(alice.email);
        await page.getByLabel('Password').fill(PASSWORD);
        await Promise.all([page.waitForURL(`${ctx.url}/s/${space.id}/holidays`), page.getByRole('button', { name: 'Sign in' }).click()]);
        await page.getByText('Ask your manager first.').waitFor();
        await context.close();
    });
});
